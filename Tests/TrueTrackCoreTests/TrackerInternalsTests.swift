import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// Oracle tests for the Tracker's hot-path internals: each fast structure against the plain obvious version.
@Suite struct TrackerInternalsTests {
    /// The Tracker's filtered states (cached prediction steps, both filters) equal a ConstantVelocityFilter
    /// driven by hand through the same frame, bit for bit, over irregular fix intervals.
    @Test func trackerFilterEqualsAHandDrivenFilterBitForBit() throws {
        let profile = TrackingProfile.walking
        var tracker = Tracker(profile: profile)
        var random = SplitMix64(seed: 42)
        let intervals: [Int64] = [1000, 1000, 2000, 1000, 500, 500, 3000, 1000, 1000, 250, 1000, 1500]
        var milliseconds: Int64 = 1_700_000_000_000
        var frame: LocalFrame?
        var filter: ConstantVelocityFilter?
        let q = profile.accelerationSigma * profile.accelerationSigma
        var previous = milliseconds
        var noise = MeasurementNoiseScale()
        for i in 0..<240 {
            if i > 0 { milliseconds += intervals[i % intervals.count] }
            let accuracy = 3 + Double(i % 5)
            // A walk north-east at ~1.2 m/s with a metre of noise.
            let t = Double(milliseconds - 1_700_000_000_000) / 1000
            let north = 0.9 * t + (random.uniform() - 0.5), east = 0.8 * t + (random.uniform() - 0.5)
            let fix = try Fix(
                timestamp: Timestamp(millisecondsSince1970: milliseconds), latitude: 48 + north / 111_200,
                longitude: 11 + east / 74_400, horizontalAccuracyMetres: accuracy)
            let decision = tracker.process(fix)
            try #require(decision.isAccepted, "fix \(i) rejected: \(String(describing: decision.rejection))")
            let r = MeasurementNoise.perAxisVariance(radius68: accuracy)
            if let plane = frame, var f = filter {
                let (e, n) = plane.project(latitude: fix.latitude, longitude: fix.longitude)
                f.predict(seconds: Double(milliseconds - previous) / 1000, accelerationVariance: q)
                // The white-noise share estimated so far, then this innovation (see MeasurementNoiseScale).
                let white = r * noise.scale
                if f.positionVariance <= r {
                    let ie = e - f.east, iN = n - f.north
                    noise.record(
                        squaredInnovationMetres: ie * ie + iN * iN, predictedVariance: f.positionVariance,
                        reportedVariance: r, profile: profile)
                }
                f.updatePosition(east: e, north: n, variance: white)
                filter = f
            } else {
                frame = LocalFrame(anchor: (fix.latitude, fix.longitude))
                let vmax = profile.maximumSpeedMetresPerSecond / 2
                filter = ConstantVelocityFilter(
                    east: 0, north: 0, positionVariance: r, velocityVariance: vmax * vmax)
            }
            previous = milliseconds
            let f = try #require(filter), state = try #require(decision.state)
            let (latitude, longitude) = try #require(frame).unproject(east: f.east, north: f.north)
            #expect(state.latitude == latitude && state.longitude == longitude, "fix \(i)")
            #expect(state.velocityEastMetresPerSecond == f.velocityEast, "fix \(i)")
            #expect(state.velocityNorthMetresPerSecond == f.velocityNorth, "fix \(i)")
            #expect(state.positionSigmaMetres == f.positionVariance.squareRoot(), "fix \(i)")
            #expect(state.velocitySigmaMetresPerSecond == f.velocityVariance.squareRoot(), "fix \(i)")
        }
    }

    /// The position filter (whose covariance is shared with the output filter's while the two are equal) equals
    /// a ConstantVelocityFilter fed the same positions by hand, bit for bit: first on fixes without a course
    /// (no Doppler velocity update: the covariances stay equal and are shared), then on fixes with a trusted
    /// Doppler speed and course (velocity updates set the output filter's covariance apart).
    @Test func positionFilterEqualsAHandDrivenFilterBitForBitSharedOrNot() throws {
        let profile = TrackingProfile.walking
        var tracker = Tracker(profile: profile)
        var random = SplitMix64(seed: 7)
        var milliseconds: Int64 = 1_700_000_000_000
        var frame: LocalFrame?
        var oracle: ConstantVelocityFilter?
        let q = profile.accelerationSigma * profile.accelerationSigma
        var previous = milliseconds
        var sharedFixes = 0, separateFixes = 0
        for i in 0..<200 {
            if i > 0 { milliseconds += i % 7 == 0 ? 2000 : 1000 }
            let accuracy = 3 + Double(i % 5)
            let t = Double(milliseconds - 1_700_000_000_000) / 1000
            let north = 0.9 * t + (random.uniform() - 0.5), east = 0.8 * t + (random.uniform() - 0.5)
            // Doppler speed and course from fix 100 on: the output filter then takes velocity updates.
            let hasCourse = i >= 100
            let fix = try Fix(
                timestamp: Timestamp(millisecondsSince1970: milliseconds), latitude: 48 + north / 111_200,
                longitude: 11 + east / 74_400, horizontalAccuracyMetres: accuracy,
                speedMetresPerSecond: hasCourse ? 1.2 + 0.1 * (random.uniform() - 0.5) : nil,
                courseDegrees: hasCourse ? 41.6 + 4 * (random.uniform() - 0.5) : nil)
            let scale = tracker.noise.scale
            let decision = tracker.process(fix)
            try #require(decision.isAccepted, "fix \(i) rejected: \(String(describing: decision.rejection))")
            let r = MeasurementNoise.perAxisVariance(radius68: accuracy)
            if let plane = frame, var f = oracle {
                try #require(!decision.isAnchor, "fix \(i)")
                let (e, n) = plane.project(latitude: fix.latitude, longitude: fix.longitude)
                f.predict(seconds: Double(milliseconds - previous) / 1000, accelerationVariance: q)
                f.updatePosition(east: e, north: n, variance: r * scale)
                oracle = f
            } else {
                frame = LocalFrame(anchor: (fix.latitude, fix.longitude))
                let vmax = profile.maximumSpeedMetresPerSecond / 2
                oracle = ConstantVelocityFilter(east: 0, north: 0, positionVariance: r, velocityVariance: vmax * vmax)
            }
            previous = milliseconds
            let f = try #require(oracle), p = tracker.positionFilter
            #expect(p.east.bitPattern == f.east.bitPattern && p.north.bitPattern == f.north.bitPattern, "fix \(i)")
            #expect(p.velocityEast.bitPattern == f.velocityEast.bitPattern, "fix \(i)")
            #expect(p.velocityNorth.bitPattern == f.velocityNorth.bitPattern, "fix \(i)")
            #expect(p.hasSameCovariance(as: f), "fix \(i)")
            if p.hasSameCovariance(as: tracker.filter) { sharedFixes += 1 } else { separateFixes += 1 }
        }
        // Both paths ran: shared while no velocity update came, separate after.
        #expect(sharedFixes >= 80 && separateFixes >= 80, "shared \(sharedFixes), separate \(separateFixes)")
    }

    /// The cached prediction step follows the fix's Doppler presence as well as the interval: on the driving
    /// profile fixes at the same interval alternate between σₐ 8 (with Doppler) and 3 (without), a position-only
    /// σₐ that is not above 0 is ignored, and a fix without a reported accuracy keeps σₐ 8.
    @Test func thePredictionStepFollowsEachFixsDopplerPresence() {
        func variances(_ profile: TrackingProfile, pace: Double = 15) -> [Double] {
            var t = Tracker(profile: profile)
            var seen: [Double] = []
            for i in 0..<8 {
                let speed: Double? = i % 2 == 0 ? pace : nil
                _ = t.process(
                    TrackerTests.fix(Double(i), north: pace * Double(i), accuracy: 5, speed: speed, course: 0))
                if i > 0 { seen.append(t.predictionStep.velocityNoise) }  // q·dt, dt = 1 s
            }
            return seen
        }
        #expect(variances(.driving) == [9, 64, 9, 64, 9, 64, 9])
        var zero = TrackingProfile.driving
        zero.accelerationSigmaWithoutDoppler = 0
        #expect(variances(zero).allSatisfy { $0 == 64 })
        #expect(variances(.walking, pace: 1.4).allSatisfy { $0 == 1 })
        // A fix without a reported accuracy keeps the profile's σₐ (a GPX drive every few seconds cut its bends).
        var t = Tracker(profile: .driving)
        for i in 0..<4 {
            _ = t.process(TrackerTests.fix(Double(i), north: 15 * Double(i), accuracy: nil))
            if i > 0 { #expect(t.predictionStep.velocityNoise == 64) }
        }
    }

    /// Re-centring the plane (10 km from its anchor) re-expresses the vehicle latch's slow-spell start too: a
    /// tracker a few metres from where its spell started has not left it, whichever plane it is in.
    @Test func recentringKeepsTheSlowSpellStartInPlace() {
        var t = Tracker()
        let (fixes, _) = VehicleLatchTests.track([(60, 8, false), (40, 1.0, false)])
        for f in fixes { _ = t.process(f) }
        #expect(t.isInVehicle && t.slowSinceMilliseconds != .min)
        let leftBefore = t.hasLeftSlowStart(threshold: 100)
        #expect(!leftBefore)
        t.recentre()
        #expect(abs(t.filter.east) < 1e-9 && abs(t.filter.north) < 1e-9)
        let leftAfter = t.hasLeftSlowStart(threshold: 100)
        #expect(!leftAfter)
    }

    /// Both `restore` overloads forget the same of the session they resume over: with a fix as with its time, the
    /// vehicle latch's slow spell (a spell of the old plane would release the latch at the first slow fix after
    /// it) and the place where still readings agreed (the fix overload kept both, an auditor).
    @Test func bothRestoresForgetTheOldSlowSpellAndStillPlace() throws {
        var t = Tracker()
        let (fixes, _) = VehicleLatchTests.track([(60, 8, false), (40, 1.0, false)])
        for f in fixes { _ = t.process(f) }
        t.stillAgreedMilliseconds = t.lastAcceptedMilliseconds
        #expect(t.isInVehicle && t.slowSinceMilliseconds != .min)
        let next = Timestamp(millisecondsSince1970: t.lastAcceptedMilliseconds + 3_600_000)
        var byTime = t, byFix = t
        byTime.restore(persistedTotalMetres: 0, lastAccepted: next)
        let last = try #require(fixes.last)
        byFix.restore(
            persistedTotalMetres: 0,
            lastAccepted: try Fix(
                timestamp: next, latitude: last.latitude, longitude: last.longitude, horizontalAccuracyMetres: 5))
        for restored in [byTime, byFix] {
            #expect(restored.slowSinceMilliseconds == .min && restored.stillAgreedMilliseconds == .min)
            #expect(restored.beforeJump.x.isNaN && restored.isInVehicle)
        }
    }

    /// The run of sub-deadband Doppler readings counts only readings in a row: an anchor (a long gap here)
    /// starts it again from the anchor fix's own reading; a fix without a Doppler speed extends it once the
    /// receiver has reported one (iOS's −1 at a halt), and leaves it alone before.
    @Test func theZeroRunStartsAgainAtAnAnchor() {
        var t = Tracker()
        _ = t.process(TrackerTests.fix(0))
        _ = t.process(TrackerTests.fix(1))
        #expect(t.subDeadbandRun == 0)  // no Doppler reading yet this session
        for i in 2..<7 { _ = t.process(TrackerTests.fix(Double(i), speed: 0)) }
        #expect(t.subDeadbandRun == 5)
        #expect(t.process(TrackerTests.fix(200, north: 5, speed: 1.2, course: 0)).isAnchor)
        #expect(t.subDeadbandRun == 0)
        _ = t.process(TrackerTests.fix(201, north: 6.2))
        #expect(t.subDeadbandRun == 1)  // missing, from a receiver that reports Doppler
        _ = t.process(TrackerTests.fix(202, north: 7.4, speed: 1.2, course: 0))
        #expect(t.subDeadbandRun == 0)
        #expect(t.process(TrackerTests.fix(400, speed: 0)).isAnchor)
        #expect(t.subDeadbandRun == 1)
    }

    /// The ring (power-of-two mask, time-only reads) behaves like an array with the documented rules (drop
    /// what is older than the span but the newest such sample), across many wrap-arounds, drops, spacing
    /// skips and resets.
    @Test func trailingWindowMatchesAnArrayModel() {
        var window = TrailingWindow()
        var model: [TrailingWindow.Sample] = []
        var random = SplitMix64(seed: 7)
        var now: Int64 = 0
        for step in 0..<5_000 {
            now += Int64(random.next() % 1_600)
            if random.next() % 500 == 0 {
                window.removeAll()
                model.removeAll()
            }
            let span = Int64(5_000 + random.next() % 40_000)
            window.dropOlder(than: now, spanMilliseconds: span)
            // Older than the span are dropped, except the newest of them (the window reaches the whole span).
            while model.count > 1, model[1].milliseconds <= now - span { model.removeFirst() }
            var s = TrailingWindow.Sample.empty
            s.milliseconds = now
            s.east = Double(step)
            s.fixCount = Double(step) * 0.5
            window.append(s)
            if model.isEmpty || now - model[model.count - 1].milliseconds >= TrailingWindow.spacingMilliseconds {
                if model.count == TrailingWindow.capacity { model.removeFirst() }
                model.append(s)
            }
            #expect(window.count == model.count)
            #expect(window.oldest()?.milliseconds == model.first?.milliseconds)
            for i in 0..<model.count {
                let sample = window.sample(i)
                #expect(sample.milliseconds == model[i].milliseconds && sample.east == model[i].east)
                #expect(sample.fixCount == model[i].fixCount)
            }
        }
    }
}
