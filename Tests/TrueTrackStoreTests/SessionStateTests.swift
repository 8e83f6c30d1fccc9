import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackStore

@Suite struct SessionStateTests {
    @Test func staleSnapshotCannotLowerDistanceOrRevertAPause() throws {
        let store = try SessionStateStore(path: ":memory:")
        let early = try store.update(sessionID: "s") {
            $0.distanceMetres = 120
            $0.elapsedSeconds = 90
            $0.fixCount = 90
        }
        let paused = try store.update(sessionID: "s") {
            $0.distanceMetres = 250.5
            $0.phase = .paused
        }
        #expect(paused.phaseRevision == 1)
        // Another writer's copy taken before the pause comes back late.
        var stale = early
        stale.fixCount = 95
        let merged = try store.merge(stale)
        #expect(merged.distanceMetres == 250.5)
        #expect(merged.phase == .paused)
        #expect(merged.fixCount == 95)
        #expect(merged.elapsedSeconds == 90)
        #expect(merged.writeCount == 3)
        #expect(try store.snapshot(sessionID: "s") == merged)
        // Resuming is a new phase change and sticks.
        #expect(try store.setPhase(.running, sessionID: "s").phaseRevision == 2)
        #expect(try store.merge(paused).phase == .running)
    }

    @Test func mergeRulesByHand() {
        var a = SessionSnapshot(sessionID: "x")
        a.distanceMetres = 10
        a.lastFix = SessionLastFix(
            timestamp: Timestamp(millisecondsSince1970: 5000), latitude: 1, longitude: 2, accuracyMetres: 3)
        a.motion = .moving
        var b = SessionSnapshot(sessionID: "x")
        b.distanceMetres = .nan
        b.elapsedSeconds = 4
        b.lastFix = SessionLastFix(
            timestamp: Timestamp(millisecondsSince1970: 4000), latitude: 9, longitude: 9, accuracyMetres: nil)
        b.motion = .still
        b.phase = .paused  // same revision 0: the pause wins
        let m = a.merged(with: b)
        #expect(m.distanceMetres == 10)
        #expect(m.elapsedSeconds == 4)
        #expect(m.lastFix == a.lastFix)
        #expect(m.motion == .moving)
        #expect(m.phase == .paused)
        var ended = a
        ended.phase = .ended
        var newer = a
        newer.phaseRevision = 7
        #expect(ended.merged(with: newer).phase == .ended)
        #expect(newer.merged(with: ended).phase == .ended)
        #expect(newer.merged(with: ended).phaseRevision == 7)
    }

    @Test func endedIsFinal() throws {
        let store = try SessionStateStore(path: ":memory:")
        try store.setPhase(.ended, sessionID: "s")
        let after = try store.setPhase(.running, sessionID: "s")
        #expect(after.phase == .ended)
        #expect(try store.latestOpenSession() == nil)
    }

    @Test func recordsTrackerDecisions() throws {
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "walk")
        for n in 0..<60 {
            let fix = walkFix(n)
            snapshot.record(fix, decision: tracker.process(fix))
        }
        #expect(snapshot.fixCount == 60)
        #expect(snapshot.acceptedFixCount > 50)
        #expect(snapshot.lastFix == SessionLastFix(walkFix(59)))
        #expect(snapshot.distanceMetres == tracker.distance.totalMetres)
        #expect(snapshot.distanceMetres > 0)
    }

    /// The earliest accepted fix's time is recorded, merged as the earlier of two, stored and read back, and a
    /// stored one outside the years 0001–9999 is damage.
    @Test func keepsTheTimeOfTheSessionsFirstFix() throws {
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "walk")
        #expect(snapshot.firstFixTime == nil)
        for n in 10..<40 {
            let fix = walkFix(n)
            snapshot.record(fix, decision: tracker.process(fix))
        }
        #expect(snapshot.firstFixTime == walkFix(10).timestamp)
        // A fix rejected as invalid (a placeholder dated 1970) is not the session's first.
        let placeholder = try Fix(timestamp: Timestamp(millisecondsSince1970: 0), latitude: 0, longitude: 0)
        snapshot.record(placeholder, decision: FixDecision(timestamp: placeholder.timestamp, rejection: .invalid))
        #expect(snapshot.firstFixTime == walkFix(10).timestamp)
        var earlier = SessionSnapshot(sessionID: "walk")
        earlier.firstFixTime = walkFix(3).timestamp
        #expect(snapshot.merged(with: earlier).firstFixTime == walkFix(3).timestamp)
        #expect(earlier.merged(with: snapshot).firstFixTime == walkFix(3).timestamp)
        #expect(snapshot.merged(with: SessionSnapshot(sessionID: "walk")).firstFixTime == walkFix(10).timestamp)
        let store = try SessionStateStore(path: ":memory:")
        #expect(try store.merge(snapshot).firstFixTime == walkFix(10).timestamp)
        #expect(try store.snapshot(sessionID: "walk")?.firstFixTime == walkFix(10).timestamp)
        try store.db.execute("UPDATE sessions SET first_time_ms = 9223372036854775807")
        #expect(try store.damagedSessions().map(\.column) == ["first_time_ms"])
    }

    /// A drive's last departure is held until confirmed, so no decision carries it; the end counts it, and
    /// `recordEnd` stores it with the phase (recording decisions alone stored 0 m of a tracker's 77.7 m).
    @Test func theEndStoresWhatFinishingTheTrackCounted() throws {
        var tracker = Tracker(profile: .driving)
        var fixes: [Fix] = []
        let start: Int64 = 1_714_521_600_000
        for n in 0..<140 {
            // Parked 120 s (no Doppler speed), then 20 s pulling away at 4 m/s.
            let north = n < 120 ? 0 : 4.0 * Double(n - 119)
            fixes.append(
                try Fix(
                    timestamp: Timestamp(millisecondsSince1970: start + Int64(n) * 1000),
                    latitude: 48.8566 + north / 111_195, longitude: 2.3522, horizontalAccuracyMetres: 4,
                    provider: .gps))
        }
        let decisions = tracker.process(batch: fixes)
        let store = try SessionStateStore(path: ":memory:")
        try store.update(sessionID: "drive") { $0.record(batch: fixes, decisions: decisions) }
        let counted = tracker.finishTrack()
        #expect(counted > 40, "the held departure: \(counted) m")
        let ended = try store.update(sessionID: "drive") {
            $0.recordEnd(totalMetres: tracker.distance.totalMetres)
        }
        #expect(ended.phase == .ended)
        #expect(ended.distanceMetres == tracker.distance.totalMetres)
        #expect(ended.distanceMetres > decisions.map(\.totalDistanceMetres).max()!)
        // Lower or non-finite totals never lower it.
        var again = ended
        again.recordEnd(totalMetres: .nan)
        again.recordEnd(totalMetres: 1)
        #expect(again.distanceMetres == ended.distanceMetres)
    }

    @Test func recoveryIsAThreeWayAnswer() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("s.sqlite")
        do {
            let store = try SessionStateStore(path: path)
            try store.update(sessionID: "a") { $0.distanceMetres = 812 }
            try store.update(sessionID: "b") { $0.distanceMetres = 40 }
            try store.update(sessionID: "c") { $0.distanceMetres = 77 }
        }
        let store = try SessionStateStore(path: path)  // the restarted process
        #expect(try store.latestOpenSession()?.sessionID == "c")
        guard case .resume(let a)? = try store.recover(sessionID: "a", remote: .open(distanceMetres: 900)) else {
            Issue.record("expected resume")
            return
        }
        #expect(a.distanceMetres == 900)
        guard case .resume(let a2)? = try store.recover(sessionID: "a", remote: .open(distanceMetres: 100)) else {
            Issue.record("expected resume")
            return
        }
        #expect(a2.distanceMetres == 900)
        guard case .ended(let b)? = try store.recover(sessionID: "b", remote: .ended) else {
            Issue.record("expected ended")
            return
        }
        #expect(b.phase == .ended)
        #expect(b.distanceMetres == 40)
        #expect(try store.snapshot(sessionID: "b")?.phase == .ended)
        let before = try store.snapshot(sessionID: "c")
        guard
            case .unreachable(let c, let reason)? = try store.recover(
                sessionID: "c", remote: .unreachable(reason: "timed out"))
        else {
            Issue.record("expected unreachable")
            return
        }
        #expect(c == before)
        #expect(c.distanceMetres == 77)
        #expect(reason == "timed out")
        #expect(try store.snapshot(sessionID: "c") == before)
        #expect(try store.recover(sessionID: "nobody", remote: .ended) == nil)
        guard case .resume(let c2)? = try store.recover(sessionID: "c", remote: .notFound) else {
            Issue.record("expected resume")
            return
        }
        #expect(c2.distanceMetres == 77)
    }

    /// A fix dated 9999 mid-walk: the tracker restarts at the right time three fixes later, and the snapshot's
    /// last fix must follow it. It stayed at 9999 for good (kept as the newest by time), so a process killed
    /// later and resumed from the snapshot took 9999 as its last accepted time, and the fixes the OS
    /// re-delivered after the restart were counted a second time (1521.8 m for 1482.4 m in a tester's run).
    @Test func aResumedSessionAfterA9999FixDoesNotCountReDeliveredFixesTwice() throws {
        let store = try SessionStateStore(path: ":memory:")
        func fix(_ n: Int) -> Fix {
            n == 100 ? try! walkFix(n).retimed(to: Timestamp(millisecondsSince1970: 253_402_300_799_000)) : walkFix(n)
        }
        // Uninterrupted: the reference.
        var reference = Tracker()
        for n in 0..<300 { _ = reference.process(fix(n)) }
        // Killed after fix 259, the snapshot written every fix (as an app would, or every few).
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "walk")
        for n in 0..<260 {
            snapshot.record(fix(n), decision: tracker.process(fix(n)))
            try store.merge(snapshot)
        }
        let stored = try #require(try store.snapshot(sessionID: "walk"))
        #expect(stored.lastFix == SessionLastFix(walkFix(259)))
        // The restarted process resumes; the OS re-delivers the last 30 fixes, then the walk goes on.
        var resumed = Tracker()
        resumed.restore(persistedTotalMetres: stored.distanceMetres, lastAccepted: stored.lastFix!.timestamp)
        var counted = 0
        for n in 230..<300 where resumed.process(fix(n)).isAccepted { counted += 1 }
        #expect(counted == 40)  // 260-299; the re-delivered 230-259 are out of order
        // The resumed total falls short of the reference by the one step not counted across the restart (the
        // filter's state is not persisted), never above it.
        #expect(resumed.distance.totalMetres <= reference.distance.totalMetres + 1e-9)
        #expect(resumed.distance.totalMetres > reference.distance.totalMetres - 5)
    }

    /// Merging: the last fix of the snapshot that accepted more fixes wins whatever its time; the time decides
    /// only between equal counts.
    @Test func theLastFixFollowsTheAcceptedCountBeforeTheTime() {
        var before = SessionSnapshot(sessionID: "x")
        before.acceptedFixCount = 101
        before.lastFix = SessionLastFix(
            timestamp: Timestamp(millisecondsSince1970: 253_402_300_799_000), latitude: 1, longitude: 2,
            accuracyMetres: 3)
        before.motion = .moving
        var after = before
        after.acceptedFixCount = 104
        after.lastFix = SessionLastFix(walkFix(103))
        after.motion = .still
        #expect(before.merged(with: after).lastFix == after.lastFix)
        #expect(before.merged(with: after).motion == .still)
        #expect(after.merged(with: before).lastFix == after.lastFix)  // a stale copy cannot bring 9999 back
        #expect(after.merged(with: before).motion == .still)
    }

    /// The first write of a session is cleaned like any other: a NaN distance threw SQLite's NOT NULL error and
    /// negative figures were stored as given.
    @Test func theFirstWriteOfASessionIgnoresNaNAndNegativeFigures() throws {
        let store = try SessionStateStore(path: ":memory:")
        var first = SessionSnapshot(sessionID: "n")
        first.distanceMetres = .nan
        first.elapsedSeconds = -3
        let stored = try store.merge(first)
        #expect(stored.distanceMetres == 0)
        #expect(stored.elapsedSeconds == 0)
        var negative = SessionSnapshot(sessionID: "m")
        negative.distanceMetres = -50
        #expect(try store.merge(negative).distanceMetres == 0)
        #expect(try store.snapshot(sessionID: "m")?.distanceMetres == 0)
    }

    /// A session row edited by hand (a distance of 1e308 m, a last time of Int64.max) was continued from those
    /// values: the distance could never grow again, and the tracker took a time no fix can follow. Now a read
    /// refuses it, naming the session and the column, and a write does not go over it.
    @Test("refuses a session whose stored values are out of range, naming the field")
    func refusesASessionWhoseStoredValuesAreOutOfRangeNamingTheField() throws {
        let store = try SessionStateStore(path: ":memory:")
        var snapshot = SessionSnapshot(sessionID: "walk")
        snapshot.distanceMetres = 1200
        snapshot.fixCount = 10
        snapshot.lastFix = SessionLastFix(walkFix(9))
        try store.merge(snapshot)
        let damages: [(column: String, value: String)] = [
            ("distance_m", "1e308"), ("distance_m", "-1"), ("distance_m", "1e999"), ("distance_m", "'far'"),
            ("elapsed_s", "1e308"), ("fix_count", "9223372036854775807"), ("accepted_count", "-2"),
            ("last_time_ms", "9223372036854775807"), ("last_latitude", "91"), ("last_longitude", "NULL"),
            ("last_accuracy_m", "-4"), ("checkpoint_row_id", "-5"), ("write_count", "X'01'"),
            // (A verdict or phase no build writes: 'flying' was read as uncertain, an unknown phase as paused.)
            ("motion", "'flying'"), ("phase", "'bogus'"), ("motion", "X'6d6f76696e67'"),
        ]
        for (column, value) in damages {
            let original = try store.db.statement("SELECT \(column) FROM sessions")
            try original.step()
            let kept = original.optionalDouble(0), keptText = original.text(0)
            original.reset()
            try store.db.execute("UPDATE sessions SET \(column) = \(value)")
            func isNamed(_ error: any Error) -> Bool {
                let error = error as? StoreError
                return error?.kind == .damagedRow(table: "sessions", key: "walk", column: column)
                    && error?.message.hasPrefix("session 'walk': \(column) ") == true
            }
            #expect {
                try store.snapshot(sessionID: "walk")
            } throws: { isNamed($0) }
            // (Skipped, not thrown: another open session could still be resumed.)
            #expect(try store.latestOpenSession() == nil)
            #expect(try store.damagedSessions().map(\.column) == [column])
            #expect {
                try store.update(sessionID: "walk") { $0.distanceMetres += 5 }
            } throws: { isNamed($0) }
            let restore = try store.db.statement("UPDATE sessions SET \(column) = ?")
            if ["motion", "phase"].contains(column) { restore.bind(1, keptText) } else { restore.bind(1, kept) }
            try restore.step()
            restore.reset()
            #expect(try store.snapshot(sessionID: "walk")?.distanceMetres == 1200, "\(column) = \(value)")
        }
        // The edges stay readable: a last fix dated in 9999 (a receiver's clock), no last fix at all.
        try store.db.execute("UPDATE sessions SET last_time_ms = 253402300799000")
        #expect(try store.snapshot(sessionID: "walk")?.lastFix?.timestamp.millisecondsSince1970 == 253_402_300_799_000)
        try store.db.execute("UPDATE sessions SET last_time_ms = NULL, last_latitude = NULL, last_longitude = NULL")
        #expect(try store.snapshot(sessionID: "walk")?.lastFix == nil)
        // Nor is an absurd figure ever written: a merge ignores it, as it does a NaN.
        var absurd = SessionSnapshot(sessionID: "walk")
        absurd.distanceMetres = 1e308
        absurd.elapsedSeconds = 1e300
        let merged = try store.merge(absurd)
        #expect(merged.distanceMetres == 1200 && merged.elapsedSeconds == 0)
    }

    /// A session row edited by hand (a distance of 1e308 m) rolled back every append that updated the session, the
    /// fixes with it: none of the session's fixes was stored any more. Now the fixes are stored, the row is left as
    /// it is (neither continued from nor written over) and the receipt names it; deleting the session's state lets
    /// the next append start it anew, its fixes kept.
    @Test("an append stores its fixes when its session's row is damaged, leaving the row as it is")
    func anAppendStoresItsFixesWhenItsSessionsRowIsDamaged() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("app.sqlite"))
        let store = try SessionStateStore(path: folder.file("app.sqlite"))
        try buffer.append((0..<10).map(walkFix), sessionID: "walk") { snapshot, _ in snapshot.distanceMetres = 100 }
        try store.db.execute("UPDATE sessions SET distance_m = 1e308")
        let (receipt, session) = try buffer.append((10..<30).map(walkFix), sessionID: "walk") { snapshot, _ in
            snapshot.distanceMetres += 50
        }
        #expect(receipt.ids?.count == 20)
        #expect(try buffer.count() == 30)
        #expect(session == nil)
        let damage = try #require(receipt.damagedSession)
        #expect(damage.sessionID == "walk" && damage.column == "distance_m")
        #expect(damage.description.hasPrefix("session 'walk': distance_m 1e+308 m is outside 0..."))
        let stored = try buffer.storedSession(sessionID: "walk")
        #expect(stored == .damaged(damage) && stored?.damage == damage && stored?.snapshot == nil)
        let row = try store.db.statement("SELECT distance_m, write_count FROM sessions")
        try row.step()
        #expect(row.double(0) == 1e308 && row.int64(1) == 1, "left as it is")
        row.reset()
        // An empty append (a rejected fix's count) does not fail on it either.
        let empty = try buffer.append([Fix](), sessionID: "walk") { snapshot, _ in snapshot.fixCount += 1 }
        #expect(empty.receipt.damagedSession == damage)
        #expect(try store.deleteSession("walk"))
        #expect(try !store.deleteSession("walk"))
        #expect(try buffer.count() == 30)
        let anew = try buffer.append([walkFix(30)], sessionID: "walk") { snapshot, _ in snapshot.distanceMetres += 5 }
        #expect(anew.receipt.damagedSession == nil && anew.session?.distanceMetres == 5)
        let resumed = try buffer.storedSession(sessionID: "walk")
        #expect(resumed == anew.session.map(StoredSession.sound))
        #expect(resumed?.snapshot == anew.session && resumed?.damage == nil)
        #expect(try buffer.storedSession(sessionID: "run") == nil)
    }

    /// The newest open session damaged (edited by hand) made `latestOpenSession()` throw, so an app resumed no
    /// session at all. Now it is skipped, the next open one returned, and `damagedSessions()` names it.
    @Test("the latest open session skips a damaged one")
    func theLatestOpenSessionSkipsADamagedOne() throws {
        let store = try SessionStateStore(path: ":memory:")
        try store.update(sessionID: "older") { $0.distanceMetres = 10 }
        try store.update(sessionID: "newer") { $0.distanceMetres = 20 }
        #expect(try store.latestOpenSession()?.sessionID == "newer")
        try store.db.execute("UPDATE sessions SET fix_count = -3 WHERE session_id = 'newer'")
        #expect(try store.latestOpenSession()?.sessionID == "older")
        #expect(
            try store.damagedSessions().map(\.description) == [
                "session 'newer': fix_count -3 is outside 0...1000000000000"
            ])
    }
}

/// A killed process resumes its tracker and stop detector from the checkpoints stored with the session.
@Suite struct SessionCheckpointTests {
    /// Walk 2 min, stand 5 min, walk 2 min, at 1 Hz with 2 m of deterministic jitter and Doppler speed.
    static func fix(_ n: Int) -> Fix {
        var rng = SplitMix64(seed: UInt64(n) &+ 77)
        let jitter = { Double(rng.next() % 4001) / 1000 - 2 }
        let walked = Double(min(n, 120) + max(0, n - 420)) * 1.3
        let isStill = n >= 120 && n < 420
        return try! Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 1000),
            latitude: 48 + (walked + jitter()) / 111_200, longitude: 2 + jitter() / 74_000,
            horizontalAccuracyMetres: 6, speedMetresPerSecond: isStill ? 0 : 1.3, courseDegrees: 0)
    }

    @Test(arguments: [60, 200, 300, 425, 500])
    func aKilledSessionResumesExactlyFromTheStoredCheckpoints(killAfter: Int) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var referenceTracker = Tracker()
        var referenceDetector = StopDetector()
        var referenceEvents: [MotionEvent] = []
        for n in 0..<540 {
            let fix = Self.fix(n)
            referenceEvents += referenceDetector.process(
                MotionEvidence(fix: fix, decision: referenceTracker.process(fix)))
        }
        #expect(referenceEvents.contains { if case .stopCommitted = $0 { true } else { false } })

        var tracker = Tracker()
        var detector = StopDetector()
        var events: [MotionEvent] = []
        do {
            let store = try SessionStateStore(path: folder.file("state.sqlite"))
            for n in 0..<killAfter {
                let fix = Self.fix(n)
                let decision = tracker.process(fix)
                events += detector.process(MotionEvidence(fix: fix, decision: decision))
                try store.update(sessionID: "walk") {
                    $0.record(fix, decision: decision)
                    $0.trackerCheckpoint = tracker.checkpoint()
                    $0.stopDetectorCheckpoint = detector.checkpoint()
                }
            }
        }  // killed: the store is closed, the tracker and detector are gone
        let store = try SessionStateStore(path: folder.file("state.sqlite"))
        let stored = try #require(try store.latestOpenSession())
        var resumedTracker = stored.resumedTracker()
        var resumedDetector = stored.resumedStopDetector()
        for n in killAfter..<540 {
            let fix = Self.fix(n)
            events += resumedDetector.process(MotionEvidence(fix: fix, decision: resumedTracker.process(fix)))
        }
        #expect(resumedTracker.distance == referenceTracker.distance)
        #expect("\(events)" == "\(referenceEvents)")
    }

    /// Without a readable checkpoint (none, or one from another build) the session resumes from its total and
    /// last fix: re-delivered fixes are rejected, and the filter is anchored at the last fix, so the next fix is
    /// gated rather than anchoring it.
    @Test func aDamagedCheckpointFallsBackToTheTotalAndLastFix() {
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "s")
        for n in 0..<100 { snapshot.record(Self.fix(n), decision: tracker.process(Self.fix(n))) }
        snapshot.trackerCheckpoint = tracker.checkpoint()
        snapshot.trackerCheckpoint!.bytes[2000] ^= 1
        var resumed = snapshot.resumedTracker()
        #expect(resumed.distance.totalMetres == snapshot.distanceMetres)
        #expect(resumed.process(Self.fix(99)).rejection == .duplicate)  // the anchor, delivered again
        #expect(resumed.process(Self.fix(98)).rejection == .outOfOrder)
        let next = resumed.process(Self.fix(100))
        #expect(next.isAccepted && !next.isAnchor)
    }

    /// A multipath fix 120 m off, first after a restart: it anchored the resumed filter unchecked and the good
    /// fixes after it were rejected (an API tester's worst resume lost 114 m). Anchored at the last fix, the
    /// filter rejects it as an outlier and takes the next good fix.
    @Test func theFirstFixAfterARestartFacesTheOutlierGate() throws {
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "s")
        for n in 0..<100 { snapshot.record(Self.fix(n), decision: tracker.process(Self.fix(n))) }
        var resumed = snapshot.resumedTracker()  // no checkpoint: the fallback
        let good = Self.fix(100)
        let multipath = try good.moved(toLatitude: good.latitude + 120 / 111_200, longitude: good.longitude)
        #expect(resumed.process(multipath).rejection == .outlier)
        #expect(resumed.process(Self.fix(101)).isAccepted)
    }

    /// A checkpoint older than the recorded fixes (taken at fix 60, fixes recorded to 110): the stretch in
    /// between is in the persisted total already, so the resumed tracker must neither count it again nor
    /// accept the fixes re-delivered from it (a reviewer measured +17.5 m and +64 m).
    @Test func aStaleCheckpointDoesNotCountTheFixesAfterItTwice() {
        var tracker = Tracker()
        var reference = Tracker()
        var snapshot = SessionSnapshot(sessionID: "s")
        for n in 0..<200 { _ = reference.process(Self.fix(n)) }
        for n in 0..<110 {
            snapshot.record(Self.fix(n), decision: tracker.process(Self.fix(n)))
            if n == 60 { snapshot.trackerCheckpoint = tracker.checkpoint() }
        }
        var resumed = snapshot.resumedTracker()
        #expect(resumed.lastAcceptedTime == Self.fix(109).timestamp)
        #expect(resumed.process(Self.fix(109)).rejection == .duplicate)  // the anchor at the last fix
        #expect((60..<109).allSatisfy { resumed.process(Self.fix($0)).rejection == .outOfOrder })
        for n in 110..<200 { _ = resumed.process(Self.fix(n)) }
        // Each within a few metres of the walk (156 m: 120 fixes 1.3 m apart), not +17 to +64 m: the uninterrupted
        // one 156.6 m, the resumed one 162.5 m (the filter restarts at fix 110 with the checkpoint's Doppler
        // evidence of fix 60, too little to judge by chords: the first seconds of the halt at fix 120 count as
        // dropouts).
        #expect(abs(reference.distance.totalMetres - 156) < 3, "uninterrupted \(reference.distance.totalMetres) m")
        #expect(abs(resumed.distance.totalMetres - 156) < 8, "resumed \(resumed.distance.totalMetres) m")
        // A profile named is the one the session is in now: the checkpoint goes on with it (it was discarded,
        // and an app that changed profile mid-session lost the rest of the session); none named, the
        // checkpoint's.
        #expect(snapshot.resumedTracker(profile: .driving).profile == .driving)
        var changed = tracker
        changed.changeProfile(to: .running)
        snapshot.trackerCheckpoint = changed.checkpoint()
        #expect(snapshot.resumedTracker().profile == .running)
        snapshot.trackerCheckpoint = nil
        #expect(snapshot.resumedTracker(profile: .driving).profile == .driving)
        #expect(snapshot.resumedTracker().profile == .walking)
    }

    /// A newest-first batch recorded pair by pair leaves its newest accepted fix as the last one (it left the
    /// oldest, and a restart without a checkpoint accepted the batch again: an API tester's +82 m);
    /// `record(batch:decisions:)` records in the tracker's order and agrees.
    @Test func aNewestFirstBatchLeavesItsNewestFixAsTheLast() {
        let batch = (0..<60).map { Self.fix($0) }.reversed() as [Fix]
        var tracker = Tracker()
        let decisions = tracker.process(batch: batch)
        var pairwise = SessionSnapshot(sessionID: "s")
        for (fix, decision) in zip(batch, decisions) { pairwise.record(fix, decision: decision) }
        var batched = SessionSnapshot(sessionID: "s")
        batched.record(batch: batch, decisions: decisions)
        #expect(pairwise.lastFix?.timestamp == Self.fix(59).timestamp)
        #expect(batched == pairwise)
        var resumed = pairwise.resumedTracker()
        #expect(resumed.process(batch: batch).allSatisfy { !$0.isAccepted })
        #expect(resumed.distance.totalMetres == tracker.distance.totalMetres)
    }

    /// A profile named at a resume other than the checkpoint's is taken after the replay, and the resume is not
    /// exact (a reviewer's session changed to running after its checkpoint: replayed as a walk, 1,259 m of
    /// 2,609, and "exact").
    @Test func aResumeInAnotherProfileIsNotExact() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("app.sqlite"))
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "walk")
        for n in 0..<100 {
            let decision = tracker.process(Self.fix(n))
            let receipt = try buffer.append(Self.fix(n), decision: decision, sessionID: "walk")
            snapshot.record(Self.fix(n), decision: decision)
            if n == 50 {
                snapshot.saveCheckpoints(
                    tracker: tracker, stopDetector: StopDetector(), afterBufferRow: receipt.ids?.upperBound)
            }
        }
        let same = try snapshot.resumed(from: buffer, trackingProfile: .walking)
        #expect(same.isExact && same.tracker.profile == .walking)
        let other = try snapshot.resumed(from: buffer, trackingProfile: .running, stopProfile: .running)
        #expect(!other.isExact && other.tracker.profile == .running && other.stopDetector.profile == .running)
        #expect(other.replayedFixCount == 49 && other.tracker.distance == same.tracker.distance)
    }

    /// A fix delivered a batch late was rejected as out of order live; the replay sorts it into place and accepts
    /// it, so the resumed tracker is not the killed one: the resume says so (an API tester's read "exact", its
    /// total 2.5 m short of the run without the kill). Batches that do not overlap in time stay exact, and so does a
    /// fix delivered again (refused as out of order live, as a duplicate by the replay, which sorts it beside its
    /// first delivery: the same fix refused), whose next fixes get the same decisions.
    @Test func aReplayThatDecidesAFixOtherwiseIsNotExact() throws {
        for (deliversOneLate, deliversOneAgain) in [(false, false), (true, false), (false, true)] {
            let folder = TemporaryFolder()
            defer { folder.remove() }
            let buffer = try FixBuffer(path: folder.file("app.sqlite"))
            var batches = stride(from: 0, to: 70, by: 5).map { start in (start..<start + 5).map(Self.fix) }
            if deliversOneLate { batches[13].append(batches[12].remove(at: 2)) }
            if deliversOneAgain { batches[13].append(Self.fix(63)) }
            var tracker = Tracker()
            var snapshot = SessionSnapshot(sessionID: "walk")
            var lateDecision: FixDecision?
            for (i, batch) in batches.enumerated() {
                let decisions = tracker.process(batch: batch)
                if i == 13 { lateDecision = decisions.last }
                let receipt = try buffer.append(batch, decisions: decisions, sessionID: "walk")
                snapshot.record(batch: batch, decisions: decisions)
                if i == 11 {
                    snapshot.saveCheckpoints(
                        tracker: tracker, stopDetector: StopDetector(), afterBufferRow: receipt.ids?.upperBound)
                }
            }
            let resumed = try snapshot.resumed(from: buffer)
            #expect(resumed.replayedFixCount == (deliversOneAgain ? 11 : 10))
            let sameTracker = resumed.tracker.checkpoint() == tracker.checkpoint()
            if deliversOneLate {
                #expect(lateDecision?.rejection == .outOfOrder)
                #expect(!sameTracker && !resumed.isExact)
            } else if deliversOneAgain {
                #expect(lateDecision?.rejection == .outOfOrder)
                #expect(resumed.isExact)
                var after = resumed.tracker
                let next = (70..<100).map(Self.fix)
                #expect(after.process(batch: next) == tracker.process(batch: next))
            } else {
                #expect(sameTracker && resumed.isExact)
            }
        }
    }

    /// A checkpoint taken after a re-delivered batch that the buffer skipped whole (`skippingStored`) follows the
    /// session's newest row (``AppendReceipt/lastRowID``), and the resume is exact; with `ids`' upper bound it had
    /// no row, and the resume fell back, not exact (an API tester's).
    @Test func aCheckpointAfterARedeliveredBatchFollowsTheSessionsNewestRow() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("app.sqlite"))
        let batches = stride(from: 0, to: 50, by: 5).map { start in (start..<start + 5).map(Self.fix) }
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "walk")
        var newest: Int64?
        for (i, batch) in batches.enumerated() {
            let decisions = tracker.process(batch: batch)
            let receipt = try buffer.append(batch, decisions: decisions, sessionID: "walk", skippingStored: true)
            #expect(receipt.lastRowID == receipt.ids?.upperBound)
            newest = receipt.lastRowID
            snapshot.record(batch: batch, decisions: decisions)
            if i == 6 {
                // Batch 6 again: nothing stored, the checkpoint follows the session's newest row.
                let again = tracker.process(batch: batch)
                let skipped = try buffer.append(batch, decisions: again, sessionID: "walk", skippingStored: true)
                #expect(skipped.ids == nil && skipped.skippedCount == 5)
                #expect(skipped.lastRowID == newest)
                snapshot.record(batch: batch, decisions: again)
                snapshot.saveCheckpoints(
                    tracker: tracker, stopDetector: StopDetector(), afterBufferRow: skipped.lastRowID)
            }
        }
        let resumed = try snapshot.resumed(from: buffer)
        #expect(resumed.isExact)
        #expect(resumed.tracker.checkpoint() == tracker.checkpoint())
        // Another session's rows do not count as this one's newest.
        let other = try buffer.append([Self.fix(0)], sessionID: "other", skippingStored: true)
        #expect(try buffer.append([Self.fix(0)], sessionID: "other", skippingStored: true).lastRowID == other.lastRowID)
        #expect(try buffer.append(batches[0], sessionID: "walk", skippingStored: true).lastRowID == newest)
        // An empty append (a batch whose every fix the tracker rejected, which the CLI does not store) too.
        #expect(try buffer.append([Fix](), sessionID: "walk").lastRowID == newest)
    }

    /// Rows appended without the session's ID are not replayed by `resumed(from:)`: such a resume is not exact,
    /// and the fixes after the checkpoint are not counted twice (an API tester following the README's snippet,
    /// which appended without it: +12 to +18 m per restart, re-delivered fixes accepted, and "exact").
    @Test func aReplayThatDoesNotReachTheLastFixIsNotExact() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("app.sqlite"))
        var reference = Tracker()
        for n in 0..<300 { _ = reference.process(Self.fix(n)) }
        var tracker = Tracker()
        var detector = StopDetector()
        var snapshot = SessionSnapshot(sessionID: "walk")
        for n in 0..<200 {
            let decision = tracker.process(Self.fix(n))
            _ = detector.process(MotionEvidence(fix: Self.fix(n), decision: decision))
            let receipt = try buffer.append(Self.fix(n), decision: decision)
            snapshot.record(Self.fix(n), decision: decision)
            if n == 100 {
                snapshot.saveCheckpoints(
                    tracker: tracker, stopDetector: detector, afterBufferRow: receipt.ids?.upperBound)
            }
        }
        var resumed = try snapshot.resumed(from: buffer)
        #expect(!resumed.isExact && resumed.replayedFixCount == 0)
        #expect((150..<199).allSatisfy { resumed.tracker.process(Self.fix($0)).rejection == .outOfOrder })
        for n in 200..<300 { _ = resumed.tracker.process(Self.fix(n)) }
        let total = resumed.tracker.distance.totalMetres, truth = reference.distance.totalMetres
        #expect(abs(total - truth) < 5, "\(total) m of \(truth)")
    }

    /// Checkpoints every third batch of 10 (delivered newest first), the process killed after any batch's
    /// append, before or after its session update: `resumed(from:)` replays the rows appended after the
    /// checkpoints and the rest of the walk gets the uninterrupted run's decisions and stop events.
    @Test(arguments: [7, 13, 20, 31, 45, 52])
    func sparseCheckpointsResumeExactlyByReplayingTheBuffer(killAfterBatch: Int) throws {
        let batches = (0..<54).map { b in (0..<10).map { Self.fix(b * 10 + $0) }.reversed() as [Fix] }
        var referenceTracker = Tracker()
        var referenceDetector = StopDetector()
        var referenceEvents: [[MotionEvent]] = []
        var referenceDecisions: [[FixDecision]] = []
        for batch in batches {
            let decisions = referenceTracker.process(batch: batch)
            referenceDecisions.append(decisions)
            referenceEvents.append(
                referenceDetector.process(batch: zip(batch, decisions).map(MotionEvidence.init(fix:decision:))))
        }
        for updatesTheKilledBatch in [false, true] {
            let folder = TemporaryFolder()
            defer { folder.remove() }
            do {
                let buffer = try FixBuffer(path: folder.file("app.sqlite"))
                let store = try SessionStateStore(path: folder.file("app.sqlite"))
                var tracker = Tracker()
                var detector = StopDetector()
                for b in 0...killAfterBatch {
                    let decisions = tracker.process(batch: batches[b])
                    _ = detector.process(batch: zip(batches[b], decisions).map(MotionEvidence.init(fix:decision:)))
                    let receipt = try buffer.append(batches[b], decisions: decisions, sessionID: "walk")
                    if b == killAfterBatch && !updatesTheKilledBatch { break }  // killed before the update
                    try store.update(sessionID: "walk") { snapshot in
                        for (fix, decision) in zip(batches[b], decisions) { snapshot.record(fix, decision: decision) }
                        if b % 3 == 0 {
                            snapshot.saveCheckpoints(
                                tracker: tracker, stopDetector: detector, afterBufferRow: receipt.ids?.upperBound)
                        }
                    }
                }
            }
            let buffer = try FixBuffer(path: folder.file("app.sqlite"))
            let store = try SessionStateStore(path: folder.file("app.sqlite"))
            let session = try #require(try store.latestOpenSession())
            var resumed = try session.resumed(from: buffer)
            #expect(resumed.isExact)
            for b in (killAfterBatch + 1)..<batches.count {
                let decisions = resumed.tracker.process(batch: batches[b])
                #expect("\(decisions)" == "\(referenceDecisions[b])", "batch \(b)")
                let events = resumed.stopDetector.process(
                    batch: zip(batches[b], decisions).map(MotionEvidence.init(fix:decision:)))
                #expect("\(events)" == "\(referenceEvents[b])", "batch \(b)")
            }
            #expect(resumed.tracker.distance == referenceTracker.distance)
            // Once a row after the checkpoint has left the buffer (a sync acknowledged it), the resume is not exact.
            if resumed.replayedFixCount > 0 {
                _ = try buffer.clear()
                #expect(try !session.resumed(from: buffer).isExact)
            }
        }
    }

    /// The checkpoints follow the snapshot that recorded more fixes; a snapshot without one never erases one.
    @Test func mergingKeepsTheCheckpointsOfTheSnapshotWithMoreFixes() {
        var stored = SessionSnapshot(sessionID: "s")
        stored.fixCount = 10
        stored.trackerCheckpoint = TrackerCheckpoint(bytes: [1])
        var stale = stored
        stale.fixCount = 9
        stale.trackerCheckpoint = TrackerCheckpoint(bytes: [2])
        #expect(stored.merged(with: stale).trackerCheckpoint == TrackerCheckpoint(bytes: [1]))
        var newer = stored
        newer.fixCount = 11
        newer.trackerCheckpoint = nil
        newer.stopDetectorCheckpoint = StopDetectorCheckpoint(bytes: [3])
        let merged = stored.merged(with: newer)
        #expect(merged.trackerCheckpoint == TrackerCheckpoint(bytes: [1]))
        #expect(merged.stopDetectorCheckpoint == StopDetectorCheckpoint(bytes: [3]))
        // The buffer row the checkpoints follow travels with the tracker's checkpoint.
        var withRow = stored
        withRow.fixCount = 12
        withRow.trackerCheckpoint = TrackerCheckpoint(bytes: [4])
        withRow.checkpointRowID = 77
        #expect(stored.merged(with: withRow).checkpointRowID == 77)
        #expect(withRow.merged(with: newer).checkpointRowID == 77)  // fewer fixes: the stored one stays
    }
}

/// A session kept with a ``RewindingTracker`` across a restart (late deliveries, a process killed and resumed).
@Suite struct RewindingSessionTests {
    /// A noisy winding walk at 1 Hz without speeds, delivered in chunks of 60 fixes, each chunk's second half
    /// first, then its first half shuffled: a rewinding tracker's shown total runs ahead of its in-order one while
    /// the late half is missing.
    static func deliveries(seed: UInt64) -> [[Fix]] {
        var random = SplitMix64(seed: seed)
        func gaussian() -> Double {
            let u = max(Double(random.next() >> 11) * 0x1.0p-53, 1e-300), v = Double(random.next() >> 11) * 0x1.0p-53
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        var east = 0.0, north = 0.0, heading = 0.0
        let fixes = (0..<900).map { n -> Fix in
            if n % 40 == 0 { heading += Double(Int(random.next() % 3) - 1) * .pi / 2 }
            east += 1.3 * sin(heading)
            north += 1.3 * cos(heading)
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_714_521_600_000 + Int64(n) * 1000),
                latitude: 48.8566 + (north + 3 * gaussian()) / 111_195,
                longitude: 2.3522 + (east + 3 * gaussian()) / 73_200, horizontalAccuracyMetres: 6)
        }
        var result: [[Fix]] = []
        for start in stride(from: 0, to: fixes.count, by: 60) {
            let chunk = Array(fixes[start..<min(start + 60, fixes.count)])
            result.append(Array(chunk[(chunk.count / 2)...]))
            result.append(Array(chunk[..<(chunk.count / 2)]).shuffled(using: &random))
        }
        return result
    }

    /// Restarted where the shown total ran furthest ahead, the session resumed with `resumedRewindingTracker()`
    /// ends where the same deliveries end without a restart; resumed as `RewindingTracker(continuing:
    /// resumedTracker())`, the lead was counted for good (an API tester's: +1.3 … +14.8 m on a 600 m walk). (Seeds
    /// whose deliveries make no lead restart before a late half, which is then rejected as out of order either way:
    /// the documented loss of a restart.)
    @Test func aRestartDoesNotCountALateFixesLeadForGood() {
        var judged = 0
        for seed in UInt64(1)...8 {
            let deliveries = Self.deliveries(seed: seed)
            var whole = RewindingTracker(profile: .walking)
            var lead = (metres: 0.0, at: 0)
            for (k, batch) in deliveries.enumerated() {
                _ = whole.process(batch: batch)
                let ahead = whole.totalMetres - whole.tracker.distance.totalMetres
                if ahead > lead.metres { lead = (ahead, k) }
            }
            _ = whole.finishTrack()
            guard lead.metres > 0.5 else { continue }
            judged += 1
            var before = RewindingTracker(profile: .walking)
            var session = SessionSnapshot(sessionID: "walk")
            for batch in deliveries[...lead.at] {
                session.record(batch: batch, decisions: before.process(batch: batch).decisions)
                session.trackerCheckpoint = before.tracker.checkpoint()
            }
            var resumed = session.resumedRewindingTracker()
            var old = RewindingTracker(continuing: session.resumedTracker())
            for batch in deliveries[(lead.at + 1)...] {
                _ = resumed.process(batch: batch)
                _ = old.process(batch: batch)
            }
            _ = resumed.finishTrack()
            _ = old.finishTrack()
            #expect(abs(resumed.totalMetres - whole.totalMetres) < 0.01, "seed \(seed): lead \(lead.metres) m")
            #expect(old.totalMetres > whole.totalMetres + lead.metres / 2, "seed \(seed): the old way")
        }
        #expect(judged >= 1)
    }
}
