import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// A killed process resumes from a ``TrackerCheckpoint`` or ``StopDetectorCheckpoint`` exactly: the fixes after
/// it get the decisions and events an uninterrupted tracker and detector gave them.
@Suite struct CheckpointTests {
    /// Decisions compared through their description: it prints every field, NaN included (`==` says NaN ≠ NaN).
    static func same(_ a: FixDecision, _ b: FixDecision) -> Bool { "\(a)" == "\(b)" }

    static let cases: [(Scenario, ErrorModel, TrackingProfile)] = [
        (.walkWithStops, .degradedPhone, .walking), (.busRideInsideWalk, .degradedPhone, .walking),
        (.walk, .cleanPhone, .walking), (.tunnelDrive, .carReceiver, .driving), (.run, .degradedPhone, .running),
    ]

    @Test(arguments: 0..<5, [1, 2] as [UInt64])
    func aResumedTrackerDecidesEveryLaterFixAsTheUninterruptedOne(caseIndex: Int, seed: UInt64) throws {
        let (scenario, errors, profile) = Self.cases[caseIndex]
        let track = Simulator.simulate(scenario, errors: errors, delivery: .lockedPhone, seed: seed)
        var whole = Tracker(profile: profile)
        var checkpoints: [(batch: Int, checkpoint: TrackerCheckpoint)] = []
        var decisions: [[FixDecision]] = []
        let every = max(1, track.batches.count / 8)
        for (i, batch) in track.batches.enumerated() {
            if i % every == every / 2 { checkpoints.append((i, whole.checkpoint())) }
            decisions.append(whole.process(batch: batch))
        }
        #expect(checkpoints.count >= 5)
        for (start, checkpoint) in checkpoints {
            var resumed = try Tracker(resuming: checkpoint)
            for i in start..<track.batches.count {
                let again = resumed.process(batch: track.batches[i])
                let differing = zip(again, decisions[i]).filter { !Self.same($0, $1) }
                #expect(
                    differing.isEmpty, "resumed at batch \(start), batch \(i): \(differing.first.map { "\($0)" } ?? "")"
                )
                if !differing.isEmpty { break }
            }
            #expect(resumed.distance == whole.distance)
            #expect(resumed.profile == whole.profile)
        }
    }

    /// What the fallback costs, for the record: the same kill points resumed from the total and the last fix time
    /// only differ from the uninterrupted total (the reason checkpoints exist).
    @Test func restoringOnlyTheTotalAndLastTimeChangesTheTotal() {
        let track = Simulator.simulate(.walkWithStops, errors: .degradedPhone, seed: 1)
        var whole = Tracker()
        for fix in track.fixes { _ = whole.process(fix) }
        var largest = 0.0
        for kill in stride(from: 100, to: track.fixes.count - 100, by: 150) {
            var before = Tracker()
            var last: Timestamp?
            for fix in track.fixes[..<kill] where before.process(fix).isAccepted { last = fix.timestamp }
            var after = Tracker()
            after.restore(persistedTotalMetres: before.distance.totalMetres, lastAccepted: last!)
            for fix in track.fixes[kill...] { _ = after.process(fix) }
            largest = max(largest, abs(after.distance.totalMetres - whole.distance.totalMetres))
        }
        #expect(largest > 1, "largest difference \(largest) m")
    }

    static func checkpoint() -> TrackerCheckpoint {
        var tracker = Tracker(profile: .cycling)
        let track = Simulator.simulate(.walk, errors: .cleanPhone, seed: 4)
        for fix in track.fixes.prefix(50) { _ = tracker.process(fix) }
        return tracker.checkpoint()
    }

    @Test func aCheckpointHasTheDocumentedLengthAndKeepsTheProfile() throws {
        let checkpoint = Self.checkpoint()
        #expect(checkpoint.bytes.count == TrackerCheckpoint.byteCount)
        #expect(Array(checkpoint.bytes.prefix(4)) == Array("TTkc".utf8))
        #expect(try Tracker(resuming: checkpoint).profile == .cycling)
    }

    @Test func refusesDamagedBytesNamingTheChecksum() {
        var checkpoint = Self.checkpoint()
        checkpoint.bytes[TrackerCheckpoint.byteCount / 2] ^= 0x10
        #expect(throws: CheckpointError.damaged) { try Tracker(resuming: checkpoint) }
        #expect("\(CheckpointError.damaged)".contains("byte 16: checksum mismatch"))
    }

    /// A checkpoint an older build wrote after a speed of 1e20 m/s (before ``Fix/maximumSpeedMetresPerSecond``)
    /// holds a Doppler sum with no digit of the metres left: it is refused, not resumed (a reviewer's resumed
    /// tracker held every later fix on the net-displacement gate).
    @Test func refusesACheckpointWhoseRunningSumNoFixCanProduce() throws {
        let walk = Simulator.simulate(.walk, errors: .cleanPhone, seed: 1).fixes
        var tracker = Tracker(profile: .walking)
        for fix in walk.prefix(200) { _ = tracker.process(fix) }
        _ = try Tracker(resuming: tracker.checkpoint())
        for (field, poison) in [("Doppler path", 1e20), ("position path", Double.infinity)] {
            var polluted = tracker
            if field == "Doppler path" { polluted.dopplerPath += poison } else { polluted.positionPath = poison }
            #expect(throws: CheckpointError.implausibleState(field: field)) {
                try Tracker(resuming: polluted.checkpoint())
            }
        }
        #expect("\(CheckpointError.implausibleState(field: "Doppler path"))".contains("byte 24: its Doppler path"))
        // The session's and the chords' sums too (a reviewer's: they judge the readings for the rest of the session).
        var session = tracker
        session.sessionPositionPath = .nan
        #expect(throws: CheckpointError.implausibleState(field: "session position path")) {
            try Tracker(resuming: session.checkpoint())
        }
        var moments = tracker
        moments.chordMoments.x = .infinity
        #expect(throws: CheckpointError.implausibleState(field: "chords' moments")) {
            try Tracker(resuming: moments.checkpoint())
        }
    }

    @Test func refusesATruncatedOrLongerCheckpoint() {
        var checkpoint = Self.checkpoint()
        checkpoint.bytes.removeLast()
        let expected = TrackerCheckpoint.byteCount
        #expect(throws: CheckpointError.wrongLength(byteCount: expected - 1, expected: expected)) {
            try Tracker(resuming: checkpoint)
        }
        checkpoint.bytes += [0, 0]
        #expect(throws: CheckpointError.wrongLength(byteCount: expected + 1, expected: expected)) {
            try Tracker(resuming: checkpoint)
        }
        #expect(throws: CheckpointError.wrongLength(byteCount: 10, expected: expected)) {
            try Tracker(resuming: TrackerCheckpoint(bytes: Array(Self.checkpoint().bytes.prefix(10))))
        }
    }

    @Test func refusesOtherBytesAnotherFormatAndAnotherLayout() {
        #expect(throws: CheckpointError.notACheckpoint(expectedMagic: "TTkc")) {
            try Tracker(resuming: TrackerCheckpoint(bytes: []))
        }
        var other = Self.checkpoint()
        other.bytes[0] = UInt8(ascii: "X")
        #expect(throws: CheckpointError.notACheckpoint(expectedMagic: "TTkc")) { try Tracker(resuming: other) }
        var newer = Self.checkpoint()
        newer.bytes[4] = 2
        #expect(throws: CheckpointError.unsupportedFormat(found: 2, supported: 1)) {
            try Tracker(resuming: newer)
        }
        var layout = Self.checkpoint()
        layout.bytes[12] ^= 1
        #expect(throws: CheckpointError.differentLayout) { try Tracker(resuming: layout) }
        #expect("\(CheckpointError.differentLayout)".contains("byte 8"))
    }

    @Test(arguments: [(0, 1), (0, 2), (2, 1), (3, 1)] as [(Int, UInt64)])
    func aResumedStopDetectorEmitsTheEventsOfTheUninterruptedOne(caseIndex: Int, seed: UInt64) throws {
        let (scenario, errors, profile) = Self.cases[caseIndex]
        let track = Simulator.simulate(scenario, errors: errors, seed: seed)
        var tracker = Tracker(profile: profile)
        let evidence = track.fixes.map { MotionEvidence(fix: $0, decision: tracker.process($0)) }
        var whole = StopDetector()
        var checkpoints: [(index: Int, checkpoint: StopDetectorCheckpoint)] = []
        var events: [[MotionEvent]] = []
        for (i, e) in evidence.enumerated() {
            if i % 97 == 50 { checkpoints.append((i, whole.checkpoint())) }
            events.append(whole.process(e))
        }
        #expect(events.joined().contains { if case .stopCommitted = $0 { true } else { false } } || caseIndex != 0)
        for (start, checkpoint) in checkpoints {
            var resumed = try StopDetector(resuming: checkpoint)
            for i in start..<evidence.count {
                let again = resumed.process(evidence[i])
                #expect("\(again)" == "\(events[i])", "resumed at \(start), evidence \(i)")
                if "\(again)" != "\(events[i])" { break }
            }
            #expect(resumed.state == whole.state && resumed.anchor == whole.anchor)
            #expect(resumed.countdownArmedAt == whole.countdownArmedAt && resumed.verdict == whole.verdict)
        }
    }

    /// A field added to the detector must be added to its checkpoint (the tracker's is its whole memory).
    @Test func theStopDetectorCheckpointWritesEveryStoredField() {
        let labels = Mirror(reflecting: StopDetector()).children.compactMap(\.label)
        #expect(labels == StopDetector.checkpointFieldLabels)
    }

    @Test func aStopDetectorRefusesATrackerCheckpointAndDamage() throws {
        #expect(throws: CheckpointError.notACheckpoint(expectedMagic: "TTsd")) {
            try StopDetector(resuming: StopDetectorCheckpoint(bytes: Self.checkpoint().bytes))
        }
        var detector = StopDetector()
        let track = Simulator.simulate(.walkWithStops, errors: .cleanPhone, seed: 1)
        var tracker = Tracker()
        for fix in track.fixes.prefix(100) {
            _ = detector.process(MotionEvidence(fix: fix, decision: tracker.process(fix)))
        }
        let intact = detector.checkpoint()
        #expect(try StopDetector(resuming: intact).anchor == detector.anchor)
        var checkpoint = intact
        checkpoint.bytes[100] ^= 4
        #expect(throws: CheckpointError.damaged) { try StopDetector(resuming: checkpoint) }
        // Cut short (an intact checkpoint, not the damaged one: that would fail on its flipped byte anyway).
        checkpoint = intact
        checkpoint.bytes.removeLast(40)
        #expect(throws: CheckpointError.damaged) { try StopDetector(resuming: checkpoint) }
    }
}

/// The layout fingerprints, pinned: a change to a checkpointed component's fields (or an enum's cases) changes
/// its fingerprint, so old checkpoints are refused. When this test fails, the change was to the layout: update
/// the constant, and bump `CheckpointFormat.formatVersion` too if a kept field's meaning changed.
@Suite struct CheckpointLayoutTests {
    /// What the stop detector's fingerprint sees: the window's entry fields (behind an array), the evidence
    /// and accumulator fields (behind optionals), and enum cases (a reviewer found all three invisible).
    @Test func theFingerprintSeesArraysOptionalsAndEnumCases() {
        let text = CheckpointFormat.layoutDescription(of: StopDetectorCheckpoint.layoutSamples)
        for part in [
            "Array<TrueTrackCore.MotionWindow.Entry>", "counted=Swift.Double:8", "speedSource=Swift.Optional",
            "sumSquares=Swift.Double:8", "[moving,stationary]", "[still,moving,uncertain]",
        ] {
            #expect(text.contains(part), "\(part) missing from \(text.prefix(400))…")
        }
    }

    @Test func theTrackerFingerprintIsPinned() {
        #expect(
            TrackerCheckpoint.layoutFingerprint == 0xcd1a_46c1_ad05_1fa0,
            "now 0x\(String(TrackerCheckpoint.layoutFingerprint, radix: 16))")
    }

    @Test func theStopDetectorFingerprintIsPinned() {
        #expect(
            StopDetectorCheckpoint.layoutFingerprint == 0x138c_600a_6b6d_3dc7,
            "now 0x\(String(StopDetectorCheckpoint.layoutFingerprint, radix: 16))")
    }
}
