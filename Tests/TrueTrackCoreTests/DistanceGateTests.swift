import Testing
import TrueTrackCore

/// The innovation-based measurement-noise scale on hand-worked inputs.
@Suite struct MeasurementNoiseScaleTests {
    static func record(
        _ scale: inout MeasurementNoiseScale, times: Int, squared: Double, predicted: Double,
        reported: Double, profile: TrackingProfile = .walking
    ) {
        for _ in 0..<times {
            scale.record(
                squaredInnovationMetres: squared, predictedVariance: predicted, reportedVariance: reported,
                profile: profile)
        }
    }

    @Test func staysAtTheReportedNoiseUntilFiveInnovationsAreIn() {
        var s = MeasurementNoiseScale()
        Self.record(&s, times: 4, squared: 0, predicted: 1, reported: 4)
        #expect(s.scale == 1 && s.samples == 4)
        Self.record(&s, times: 1, squared: 0, predicted: 1, reported: 4)
        #expect(s.scale == 0.01)
    }

    @Test func recoversTheWhiteShareOfTheReportedVariance() {
        // E[ν²] per axis = P⁻ + r_white: with P⁻ = 1 m², r_white = 1 m² and r = 4 m², ν² (2 axes) = 4 m².
        var s = MeasurementNoiseScale()
        Self.record(&s, times: 40, squared: 4, predicted: 1, reported: 4)
        #expect(abs(s.scale - 0.25) < 1e-12)
    }

    @Test func neverAssumesMoreThanTheReportedNoiseNorLessThanTheFloor() {
        var big = MeasurementNoiseScale()
        Self.record(&big, times: 40, squared: 1000, predicted: 1, reported: 4)
        #expect(big.scale == 1)
        var pinned = MeasurementNoiseScale()
        Self.record(&pinned, times: 40, squared: 0, predicted: 1, reported: 4)
        #expect(pinned.scale == TrackingProfile.walking.minimumMeasurementNoiseScale)
    }

    @Test func aNonFiniteFloorTurnsTheAdaptationOff() {
        var profile = TrackingProfile.walking
        profile.minimumMeasurementNoiseScale = .nan
        var s = MeasurementNoiseScale()
        Self.record(&s, times: 40, squared: 0, predicted: 1, reported: 4, profile: profile)
        #expect(s.scale == 1)
    }
}

/// The walking profile's vehicle latch, the held fast speeds and the half-window rule, on hand-built tracks.
@Suite struct VehicleLatchTests {
    /// Builds 1 Hz fixes along east from `start` seconds, `legs` of (seconds, metres per second), Doppler speed
    /// and course given, 5 m accuracy; `activity` on every fix of the legs flagged true.
    static func track(
        _ legs: [(seconds: Int, speed: Double, vehicleReading: Bool)], from start: Double = 0,
        east startEast: Double = 0
    ) -> (fixes: [Fix], east: Double) {
        var fixes: [Fix] = []
        var t = start, east = startEast
        for leg in legs {
            for _ in 0..<leg.seconds {
                t += 1
                east += leg.speed
                let reading = leg.vehicleReading ? ActivityReading(kind: .inVehicle, confidence: 90) : nil
                fixes.append(TrackerTests.fix(t, east: east, speed: leg.speed, course: 90, activity: reading))
            }
        }
        return (fixes, east)
    }

    @Test func aCrawlBetweenFastStretchesIsGivenUpAndTheWalkAfterIsReleasedWhenItLasts() {
        var t = Tracker()
        let (fixes, _) = Self.track([
            (60, 1.4, false), (60, 8, false), (40, 1.0, false), (30, 8, false),
            (200, 1.2, false),
        ])
        var decisions: [FixDecision] = []
        for f in fixes { decisions.append(t.process(f)) }
        // Walk 84 m + 240 m; the crawl's 40 m and the fast legs count nothing.
        #expect(abs(t.distance.totalMetres - 324) < 0.1 * 324, "\(t.distance.totalMetres) m")
        #expect(t.pendingVehicleMetres == 0)
        // The exit fix releases the spell and reads as not held.
        let exit = try! #require(decisions.first { $0.distanceIncrementMetres > 50 })
        #expect(exit.hold == .none)
        // Before the spell lasted 120 s the walk was pending, not counted.
        let before = decisions[60 + 60 + 40 + 30 + 100]
        #expect(before.hold == .vehicle || before.hold == .netDisplacement)
    }

    /// A still phone logging every 7 s without Doppler (12 m fixes): one fix 50 m off pulls the filter out and
    /// back, fast enough to set the vehicle latch off, and the way back is held as the latch's slow spell. Two
    /// minutes later the phone has not left where the spell started, so the spell's metres are given up, not
    /// released as a walk (they were: 53 m). With the net-displacement gate's noise floor the way back is not
    /// even read as motion (fixes 7 s apart leave the filter's variance large), so the floor is off here to
    /// exercise the latch's own rule; with it the phone counts nothing either.
    @Test func aSpellThatNeverLeavesWhereItStartedIsGivenUp() {
        var profile = TrackingProfile.walking
        profile.netDisplacementNoiseSigmas = 0
        var t = Tracker(profile: profile)
        var withFloor = Tracker()
        var pending = 0.0
        for i in 0..<60 {
            let jitter = Double((i * 7919) % 7) - 3  // -3...3 m
            let north = i == 20 ? 50 : jitter
            let fix = TrackerTests.fix(Double(i * 7), north: north, east: -jitter, accuracy: 12)
            _ = t.process(fix)
            _ = withFloor.process(fix)
            pending = max(pending, t.pendingVehicleMetres)
        }
        #expect(pending > 20, "the excursion no longer sets the latch off: \(pending) m pending")
        #expect(t.pendingVehicleMetres == 0)
        #expect(t.distance.totalMetres == 0)
        #expect(withFloor.distance.totalMetres == 0)
    }

    /// In-vehicle readings on the first minute of a slow spell only: the activity gate holds that minute, and
    /// the reading restarts the latch's slow spell, so the 100 s after it are still pending, not released (with
    /// the reading ignored by the latch, the spell lasted 160 s and 40 m were released).
    @Test func anInVehicleReadingKeepsASlowSpellFromBeingReleased() {
        var t = Tracker()
        let (fixes, _) = Self.track([(60, 8, false), (60, 1.0, true), (100, 1.0, false)])
        for f in fixes { _ = t.process(f) }
        #expect(t.distance.totalMetres == 0)
        #expect(t.pendingVehicleMetres > 0)
    }

    /// A slow spell broken by a gap starts again after it: 80 s of walking, 100 s of silence (longer than the
    /// 60 s reset gap), 80 s of walking: neither part lasts the 120 s exit, so all is pending (a spell that ran
    /// on across the gap released 174 m).
    @Test func aLongGapKeepsTheLatchAndRestartsTheSlowSpell() {
        var t = Tracker()
        let first = Self.track([(60, 8, false), (80, 1.2, false)])
        for f in first.fixes { _ = t.process(f) }
        let second = Self.track([(80, 1.2, false)], from: 240, east: first.east + 100)
        for f in second.fixes { _ = t.process(f) }
        #expect(t.distance.totalMetres == 0)
        #expect(t.pendingVehicleMetres > 50)
    }

    /// A vehicle latch whose slow spell started at a wrong time (a receiver dated its fixes 9999) starts a new
    /// spell when the clock jumps back: the walk after it is released once it lasts (a spell dated 9999 never
    /// lasted, and the walk stayed pending for ever).
    @Test func aClockJumpRestartsTheLatchsSlowSpell() throws {
        var t = Tracker()
        let fast = Self.track([(60, 8, false)])
        for f in fast.fixes { _ = t.process(f) }
        let future = try #require(ISO8601.parse("9999-12-31T23:59:00Z")).millisecondsSince1970
        for k in 0..<6 {
            let time = Timestamp(millisecondsSince1970: future + Int64(k) * 1000)
            _ = t.process(TrackerTests.fix(0, east: fast.east + Double(k), accuracy: 5, speed: 1, course: 90, at: time))
        }
        let walk = Self.track([(200, 1.2, false)], from: 60, east: fast.east + 10)
        let decisions = walk.fixes.map { t.process($0) }
        #expect(decisions[2].isAnchor)
        #expect(t.distance.totalMetres > 100, "\(t.distance.totalMetres) m")
    }

    @Test func nothingIsReleasedBeforeHalfAWindowThenTheWalkIsReleasedWhole() {
        var t = Tracker()
        let (fixes, _) = Self.track([(40, 1.4, false)])
        var totals: [Double] = []
        for f in fixes { totals.append(t.process(f).totalDistanceMetres) }
        // The first fix anchors at t = 1 s; the window spans half its 20 s only from t = 11 s.
        #expect(totals[8] == 0)
        #expect(abs(totals[39] - 1.4 * 39) < 3, "\(totals[39]) m")
    }
}

/// The stop detector's kinematic horizon.
@Suite struct StopHorizonTests {
    static func walk(
        _ d: inout StopDetector, seconds: Int, speed: Double, accuracy: Double?, from start: Int = 0,
        east startEast: Double = 0, activity: ActivityReading? = nil
    ) -> [MotionVerdict] {
        var verdicts: [MotionVerdict] = []
        for i in 1...seconds {
            let t = Double(start + i)
            _ = d.process(
                StopDetectorTests.e(
                    t, east: startEast + speed * Double(i), accuracy: accuracy, speed: nil,
                    activity: activity))
            verdicts.append(d.verdict)
        }
        return verdicts
    }

    @Test func aSlowWalkerUnderCoarseFixesIsNotReadStill() {
        // 0.8 m/s without accuracy (10 m assumed: a 12 m radius): a 24 s horizon puts the thirds' centroids
        // 12.8 m apart; the 10 s base window, 5.3 m.
        var d = StopDetector(profile: StopDetectorTests.quiet)
        let verdicts = Self.walk(&d, seconds: 120, speed: 0.8, accuracy: nil)
        // (Until the horizon is covered, ¾ of it is judged: from the start the first seconds may read still.)
        #expect(!verdicts.dropFirst(24).contains(.still))
        // With the horizon capped at the 10 s base window, the same walk reads still.
        var short = StopDetectorTests.quiet
        short.maximumWindowSeconds = short.windowSeconds
        var fixed = StopDetector(profile: short)
        #expect(Self.walk(&fixed, seconds: 120, speed: 0.8, accuracy: nil).dropFirst(24).contains(.still))
    }

    @Test func anInfiniteHorizonCapIsClampedNotATrap() {
        var p = StopDetectorTests.quiet
        p.maximumWindowSeconds = .infinity
        #expect(p.horizonCapSeconds == p.windowSeconds)
        p.maximumWindowSeconds = 1e9
        #expect(p.horizonCapSeconds == MotionWindowLimits.longestHorizonSeconds)
        var d = StopDetector(profile: p)
        _ = Self.walk(&d, seconds: 30, speed: 0, accuracy: 5)
        #expect(d.verdict == .still)
    }

    @Test func aStopArmedByAStillReadingHoldsTheBaseWindowNotTheHorizon() {
        var d = StopDetector(profile: StopDetectorTests.quiet)
        _ = Self.walk(&d, seconds: 120, speed: 1.4, accuracy: 25)
        var committed: StopRecord?
        for i in 1...60 {
            let events = d.process(
                StopDetectorTests.e(
                    Double(120 + i), east: 168, accuracy: 25, speed: nil,
                    activity: ActivityReading(kind: .still, confidence: 90)))
            for case .stopCommitted(let record) in events { committed = record }
        }
        let stop = try! #require(committed)
        // Standing from t = 120 s: the stop starts within the 10 s base window of it, not 60 s back in the walk.
        #expect(stop.start >= StopDetectorTests.time(120 - 10))
    }
}
