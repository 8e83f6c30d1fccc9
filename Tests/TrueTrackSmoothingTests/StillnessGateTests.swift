import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// The smoother's stillness gate: which smoothed steps count towards the distance.
@Suite struct StillnessGateTests {
    /// A gate with round numbers: window 10 s, threshold 2 m + 1 × accuracy, Doppler motion from 0.5 m/s.
    static let gate: StillnessGate = {
        var g = StillnessGate(profile: .walking)
        g.windowSeconds = 10
        g.baseMetres = 2
        g.accuracyFactor = 1
        g.motionDopplerSpeedMetresPerSecond = 0.5
        return g
    }()

    /// Runs the gate on a 1-D track along east, one fix per state with `accuracy` and, optionally, `speed`.
    static func counts(
        times: [Double], east: [Double], opensSegment: [Bool], accuracy: Double, speed: Double? = nil
    ) -> [Bool] {
        let n = times.count
        var x = [Double](repeating: 0, count: 4 * n)  // east column then north column, 2 rows per state
        for s in 0..<n { x[2 * s] = east[s] }
        var totals = [StillnessGate.Totals](repeating: .init(), count: n + 1)
        for s in 0..<n {
            totals[s + 1] = StillnessGate.Totals(
                accuracySumMetres: totals[s].accuracySumMetres + accuracy,
                speedSumMetresPerSecond: totals[s].speedSumMetresPerSecond + (speed ?? 0),
                fixes: totals[s].fixes + 1, speeds: totals[s].speeds + (speed == nil ? 0 : 1))
        }
        return gate.countedSteps(times: times, opensSegment: opensSegment, solution: x, order: 2 * n, totals: totals)
    }

    /// A confident `still` reading holds a step's distance for the reading's validity (60 s), as the forward
    /// filter's motion gate does; a weak one, or one the profile does not exclude, says nothing.
    @Test func aConfidentStillReadingLeavesItsStepsOut() {
        let n = 200
        let times = (0..<n).map(Double.init)
        var x = [Double](repeating: 0, count: 4 * n)
        for s in 0..<n { x[2 * s] = Double(s) }  // 1 m/s east: moving by the net displacement
        var totals = [StillnessGate.Totals](repeating: .init(), count: n + 1)
        for s in 0..<n {
            totals[s + 1] = StillnessGate.Totals(
                accuracySumMetres: totals[s].accuracySumMetres + 3, speedSumMetresPerSecond: 0, fixes: s + 1, speeds: 0)
        }
        let opens = [true] + Array(repeating: false, count: n - 1)
        func counts(confidence: Int, gate: StillnessGate = StillnessGate(profile: .walking)) -> [Bool] {
            let readings = [TimedReading(seconds: 50, reading: ActivityReading(kind: .still, confidence: confidence))]
            return gate.countedSteps(
                times: times, opensSegment: opens, solution: x, order: 2 * n, totals: totals, readings: readings)
        }
        let still = counts(confidence: 90)
        #expect(still[49] && !still[50] && !still[111] && still[112], "steps into and out of states 50 … 110")
        #expect(counts(confidence: 50)[80])
        var profile = TrackingProfile.walking
        profile.excludedActivities = [.inVehicle]
        #expect(counts(confidence: 90, gate: StillnessGate(profile: profile))[80])
    }

    /// Hand-worked: 20 s still at the origin, then 1 m/s east, 1 Hz, accuracy 3 m (threshold 5 m). The step
    /// into state s (middle s − 0.5) is judged from the last state at or before s − 5.5 to the first at or
    /// after s + 4.5, i.e. states s − 6 … s + 5: its net displacement is the east distance covered there.
    @Test func countsAStepOnceTheCentredWindowMovesBeyondTheThreshold() {
        let n = 40
        let times = (0..<n).map(Double.init)
        let east = (0..<n).map { max(0, Double($0) - 20) }
        let counts = Self.counts(
            times: times, east: east, opensSegment: [true] + Array(repeating: false, count: n - 1), accuracy: 3)
        for s in 1..<n {
            let high = min(s + 5, n - 1), low = max(s - 6, 0)
            let net = max(0, Double(high) - 20) - max(0, Double(low) - 20)
            #expect(counts[s] == (net > 5), "step \(s): net \(net)")
        }
        #expect(!counts[20] && counts[21])  // the walk's first step is judged with the fixes after it
    }

    /// Sparse fixes: one every 11 s, a hiker at 1 m/s, no accuracy (the assumed 10 m: threshold 12 m). A window
    /// of the states inside ±10 s of a step's middle would hold that step alone (11 m: still); reaching the
    /// first state past half the window on each side it spans three steps (33 m) and counts them all.
    @Test func theWindowReachesPastHalfItsLengthOnEachSide() {
        let n = 30
        let times = (0..<n).map { Double($0) * 11 }
        let east = (0..<n).map { Double($0) * 11 }
        var gate = Self.gate
        gate.windowSeconds = 20
        var x = [Double](repeating: 0, count: 4 * n)
        for s in 0..<n { x[2 * s] = east[s] }
        var totals = [StillnessGate.Totals](repeating: .init(), count: n + 1)
        for s in 0..<n {
            totals[s + 1] = StillnessGate.Totals(
                accuracySumMetres: totals[s].accuracySumMetres + gate.assumedAccuracyMetres, speedSumMetresPerSecond: 0,
                fixes: totals[s].fixes + 1, speeds: 0)
        }
        let counts = gate.countedSteps(
            times: times, opensSegment: [true] + Array(repeating: false, count: n - 1), solution: x, order: 2 * n,
            totals: totals)
        #expect(gate.baseMetres + gate.accuracyFactor * gate.assumedAccuracyMetres == 12)
        #expect(counts.dropFirst().allSatisfy { $0 })
    }

    /// The Doppler decides only when at least half the window's fixes carry it: a track with a single fast
    /// reading in a window of eleven stays still, one where every fix reads 1 m/s moves.
    @Test func dopplerDecidesOnlyWithHalfTheWindow() {
        let n = 30
        let times = (0..<n).map(Double.init)
        let east = [Double](repeating: 0, count: n)
        let opens = [true] + Array(repeating: false, count: n - 1)
        var totals = [StillnessGate.Totals](repeating: .init(), count: n + 1)
        for s in 0..<n {
            let fast = s == 15
            totals[s + 1] = StillnessGate.Totals(
                accuracySumMetres: totals[s].accuracySumMetres + 3,
                speedSumMetresPerSecond: totals[s].speedSumMetresPerSecond + (fast ? 5 : 0),
                fixes: totals[s].fixes + 1, speeds: totals[s].speeds + (fast ? 1 : 0))
        }
        var x = [Double](repeating: 0, count: 4 * n)
        for s in 0..<n { x[2 * s] = east[s] }
        let counts = Self.gate.countedSteps(
            times: times, opensSegment: opens, solution: x, order: 2 * n, totals: totals)
        #expect(counts.allSatisfy { !$0 })
        let moving = Self.counts(times: times, east: east, opensSegment: opens, accuracy: 3, speed: 1)
        #expect(moving.dropFirst().allSatisfy { $0 })
    }

    /// The running totals from a problem: several fixes at one time share a state, a fix without accuracy
    /// counts the assumed one, a fix without speed or above the smoother's speed ceiling carries none, and with
    /// Doppler off no fix does.
    @Test func totalsFollowTheFixesTheSmootherUses() throws {
        let fixes = [
            SmoothingSupport.fix(seconds: 0, east: 0, north: 0, accuracy: 4, speed: 1),
            SmoothingSupport.fix(seconds: 0, east: 1, north: 0, accuracy: nil, speed: 2),  // same time, no accuracy
            SmoothingSupport.fix(seconds: 1, east: 2, north: 0, accuracy: 6),  // no speed
            SmoothingSupport.fix(seconds: 2, east: 3, north: 0, accuracy: 8, speed: 90),  // above the ceiling
        ]
        var options = SmoothingOptions(profile: .walking)
        let gate = try #require(options.stillnessGate)
        let problem = TrackProblem(fixes: fixes, options: options)
        #expect(problem.stateCount == 3)
        let t = gate.totals(problem, fixes: fixes, options: options)
        #expect(t.count == 4)
        #expect(t[1].fixes == 2 && t[1].accuracySumMetres == 4 + gate.assumedAccuracyMetres)
        #expect(t[1].speeds == 2 && t[1].speedSumMetresPerSecond == 3)
        #expect(t[2].fixes == 3 && t[2].speeds == 2 && t[2].accuracySumMetres == 10 + gate.assumedAccuracyMetres)
        #expect(t[3].fixes == 4 && t[3].speeds == 2)  // 90 m/s is above the walking ceiling (8 m/s)
        options.usesDoppler = false
        let off = gate.totals(TrackProblem(fixes: fixes, options: options), fixes: fixes, options: options)
        #expect(off[3].speeds == 0 && off[3].fixes == 4)
    }

    /// A walker pacing back and forth over 2 m never gets beyond the threshold, but the Doppler says moving.
    @Test func dopplerMotionKeepsAPacingWalk() {
        let n = 30
        let times = (0..<n).map(Double.init)
        let east = (0..<n).map { Double($0 % 2) * 2 }
        let opens = [true] + Array(repeating: false, count: n - 1)
        let still = Self.counts(times: times, east: east, opensSegment: opens, accuracy: 3)
        let pacing = Self.counts(times: times, east: east, opensSegment: opens, accuracy: 3, speed: 1)
        #expect(still.dropFirst().allSatisfy { !$0 })
        #expect(pacing.dropFirst().allSatisfy { $0 })
    }

    /// The window stops at a gap that splits the track, and the chord across the gap always counts.
    @Test func neverReachesAcrossAGap() {
        // Still at 0 for 10 s, a gap, then still at 100 m for 10 s.
        let times = (0..<10).map(Double.init) + (0..<10).map { 100 + Double($0) }
        let east = Array(repeating: 0.0, count: 10) + Array(repeating: 100.0, count: 10)
        let opens = (0..<20).map { $0 == 0 || $0 == 10 }
        let counts = Self.counts(times: times, east: east, opensSegment: opens, accuracy: 3)
        #expect(counts[10])
        #expect(counts.indices.filter { $0 != 10 }.allSatisfy { !counts[$0] })
    }

    /// The walking profile's smoother on `fixes` with its stillness gate and without.
    static func gatedAndPlain(_ fixes: [Fix]) -> (gated: SmoothedTrack, plain: SmoothedTrack) {
        var options = SmoothingOptions(profile: .walking)
        let gated = WholeTrackSmoother(options: options).smooth(fixes)
        options.stillnessGate = nil
        return (gated, WholeTrackSmoother(options: options).smooth(fixes))
    }

    /// A receiver at rest with a wandering (Gauss–Markov) error: the smoothed track follows part of the wander,
    /// the gate leaves it out, and σ still covers the zero truth.
    @Test func aReceiverAtRestMeasuresNoDistance() {
        for seed: UInt64 in 1...5 {
            let (gated, plain) = Self.gatedAndPlain(
                Simulator.simulate(.stationary, errors: .degradedPhone, seed: seed).fixes)
            #expect(plain.distanceMetres > 1, "seed \(seed): the plain length follows the wander")
            #expect(gated.distanceMetres < 0.1 * plain.distanceMetres, "seed \(seed)")
            #expect(gated.stillLengthMetres > 0)
            #expect(abs(gated.distanceMetres) <= 2 * gated.distanceSigmaMetres, "seed \(seed)")
            #expect(gated.points == plain.points)  // the gate changes what is counted, not the track
        }
    }

    /// A steady walk is never still: the gate leaves its length alone.
    @Test func aSteadyWalkKeepsItsWholeLength() {
        for seed: UInt64 in 1...5 {
            let (gated, plain) = Self.gatedAndPlain(Simulator.simulate(.walk, errors: .cleanPhone, seed: seed).fixes)
            #expect(gated.stillLengthMetres < 0.01 * plain.distanceMetres, "seed \(seed)")
            #expect(abs(gated.distanceMetres - plain.distanceMetres) < 0.01 * plain.distanceMetres, "seed \(seed)")
        }
    }
}

/// The stillness gate's jump rule (``JumpFinder``): a receiver at rest whose fixes jump
/// away for one or two fixes and come back measures no distance, and moving tracks keep their steps.
@Suite struct StillnessGateJumpTests {
    /// A van parked for an hour, a fix every `interval` seconds (1 m of white scatter claiming 5 m, no speed),
    /// every 20th fix `jump` metres away (one fix; with `twoFixes` the next one too, a further 10 m on).
    static func parkedVan(interval: Double, jump: Double, twoFixes: Bool = false, seed: UInt64) -> [Fix] {
        var random = SplitMix64(seed: seed)
        return (0..<Int(3600 / interval)).map { i in
            let away = i % 20 == 10 || (twoFixes && i % 20 == 11)
            let east = (away ? jump + (i % 20 == 11 ? 10 : 0) : 0) + random.gaussian()
            return SmoothingSupport.fix(seconds: Double(i) * interval, east: east, north: random.gaussian())
        }
    }

    /// The driving profile's smoother with the jump rule and without it, both without the white-noise floor
    /// (``StillnessGate/whiteNoiseSigmas``): a jump out and back makes two consecutive steps of opposite signs,
    /// which its estimate reads as white noise, and the floor it raises holds part of the jumps' steps too. Both
    /// also without the still stretches (``StillnessGate/stillScatterSeconds``): these vans stand for an hour,
    /// and the stretch, which leaves the jumps' fixes out as outliers, holds their steps too.
    static func withAndWithout(_ fixes: [Fix]) -> (rule: Double, without: Double) {
        var options = SmoothingOptions(profile: .driving)
        options.stillnessGate?.whiteNoiseSigmas = 0
        options.stillnessGate?.stillScatterSeconds = 0
        let rule = WholeTrackSmoother(options: options).smooth(fixes).distanceMetres
        options.stillnessGate?.jumpSeconds = 0
        return (rule, WholeTrackSmoother(options: options).smooth(fixes).distanceMetres)
    }

    /// Fixes 10 and 15 s apart (one problem: the model follows a 200 m jump): without the rule the jumps counted
    /// out and back; with it nothing is left of them but what the same van counts without jumps. Two-fix jumps
    /// at 10 s (30 s from the fix before to the fix after: the driving profile's ``StillnessGate/jumpSeconds``).
    @Test(arguments: [10.0, 15.0])
    func aParkedVansJumpsCountNothing(interval: Double) {
        for seed: UInt64 in 1...3 {
            let still = Self.withAndWithout(Self.parkedVan(interval: interval, jump: 0, seed: seed)).rule
            for twoFixes in [false, true] where !(twoFixes && interval > 10) {
                let (rule, without) = Self.withAndWithout(
                    Self.parkedVan(interval: interval, jump: 200, twoFixes: twoFixes, seed: seed))
                let label = "every \(interval) s, \(twoFixes ? 2 : 1)-fix jumps, seed \(seed)"
                #expect(without > 1000, "\(label): \(without) m without the rule")
                #expect(rule < still + 25, "\(label): \(rule) m, \(still) m without jumps")
            }
        }
    }

    /// A jump whose fixes around it are further apart than ``StillnessGate/jumpSeconds`` (a fix every 20 s: 40 s)
    /// is not the rule's: a courier's trip down a lane and back takes that long too.
    @Test func aJumpLongerThanTheWindowIsLeftToTheGate() {
        let (rule, without) = Self.withAndWithout(Self.parkedVan(interval: 20, jump: 200, seed: 1))
        #expect(rule == without && without > 1000, "\(rule) m, \(without) m without the rule")
    }

    /// Parked every 10 s (no speed, stating 5 m), then one fix `jump` metres east, then parked again 10 m east of
    /// where it stood: back 10 m, beyond one threshold (2 + 5 = 7 m) but within the two fixes' summed noise (2 + 5
    /// + 5 = 12 m). A fix 300 m out, 10 s after a fix at rest, is out of any vehicle's reach (½ × 4 m/s² × 10² =
    /// 200 m); one 150 m out is within that, but not within the reach of a vehicle at rest again where it started
    /// 10 s later (4 × 10² / 4 = 100 m): the summed noise judges both and their steps count nothing. One 90 m out
    /// is reachable both ways (78 m beyond the noise), and the one-threshold test keeps its steps (a courier down a
    /// lane and back).
    @Test func aJumpOutOfAVehiclesReachIsJudgedAgainstTheFixesSummedNoise() {
        func distance(jump: Double) -> Double {
            let fixes = (0..<21).map { i in
                SmoothingSupport.fix(
                    seconds: Double(i) * 10, east: i == 10 ? jump : i > 10 ? 10 : 0, north: 0, accuracy: 5)
            }
            return Self.withAndWithout(fixes).rule
        }
        #expect(distance(jump: 300) < 20, "\(distance(jump: 300))")
        #expect(distance(jump: 150) < 20, "\(distance(jump: 150))")
        #expect(distance(jump: 90) > 150, "\(distance(jump: 90))")
    }

    /// A jump is out of reach when its fix is beyond what a vehicle at rest reaches from the fix before *or* after
    /// it: parked every 10 s until 90 s, a fix 300 m away at 100 s (200 m reachable in 10 s), then parked 10 m east
    /// from 120 s (800 m reachable in 20 s): out of reach from before, so the summed noise judges its 10 m back.
    @Test func aJumpOutOfReachFromOneSideIsOutOfReach() {
        var fixes = (0...9).map { SmoothingSupport.fix(seconds: Double($0) * 10, east: 0, north: 0, accuracy: 5) }
        fixes.append(SmoothingSupport.fix(seconds: 100, east: 300, north: 0, accuracy: 5))
        for t in stride(from: 120.0, through: 240, by: 10) {
            fixes.append(SmoothingSupport.fix(seconds: t, east: 10, north: 0, accuracy: 5))
        }
        let distance = Self.withAndWithout(fixes).rule
        #expect(distance < 20, "\(distance)")
    }

    /// Two jumps one good fix apart, on opposite sides (parked every 10 s, no speed, stating 5 m; fixes 10 and 12 of
    /// every 20 are 80 m away, east and west): for each jump the fix beyond its far side is the other jump, so the
    /// far side is at rest on one side only. Both jumps are within a vehicle's reach (80 m in 10 s), so the
    /// one-threshold tests judge them; with both far sides required at rest their steps counted (5.7 km per hour).
    @Test func twoJumpsOneGoodFixApartCountNothing() {
        let fixes = (0..<360).map { (i: Int) -> Fix in
            let east: Double = i % 20 == 10 ? 80 : i % 20 == 12 ? -80 : 0
            return SmoothingSupport.fix(seconds: Double(i) * 10, east: east, north: 0, accuracy: 5)
        }
        let (rule, without) = Self.withAndWithout(fixes)
        #expect(without > 5000, "\(without) m without the rule")
        #expect(rule < 20, "\(rule) m")
    }

    /// A jump needs a far side observed at rest: a three-fix track whose middle fix lies 80 m out has none (its first
    /// and last fixes are the track's ends), and counts the way out and back; with one more fix at rest after it, the
    /// jump is one. And a far side across a recording break says nothing: the same place the evening before.
    @Test func aJumpNeedsAFarSideObservedAtRest() {
        func fix(_ seconds: Double, _ east: Double) -> Fix {
            SmoothingSupport.fix(seconds: seconds, east: east, north: 0, accuracy: 5)
        }
        let three = Self.withAndWithout([fix(0, 0), fix(10, 80), fix(20, 1)]).rule
        #expect(three > 150, "\(three)")
        let four = Self.withAndWithout([fix(0, 0), fix(10, 80), fix(20, 1), fix(30, 0)]).rule
        #expect(four < 10, "\(four)")
        // The fix at rest 20 hours before the jump (beyond the driving profile's recording break) is no far side.
        let evening = Self.withAndWithout([fix(-72_000, 0), fix(0, 0), fix(10, 80), fix(20, 1)]).rule
        #expect(evening > 150, "\(evening)")
    }

    /// Hand-worked reaches of a vehicle at rest at both ends (a = 4 m/s²): halfway through 20 s, 4 × 10² / 4 = 100 m;
    /// 10 s out and 20 s back, 4 × (30² − 2 × 10²) / 16 = 175 m, the same the other way round; 10 s out and 30 s or
    /// more back, the one-way reach ½ × 4 × 10² = 200 m, which the formula meets at 3 × (no jump in the reach).
    @Test func theRoundTripReachIsHandWorked() {
        #expect(JumpFinder.roundTripReach(10, 10, acceleration: 4) == 100)
        #expect(JumpFinder.roundTripReach(10, 20, acceleration: 4) == 175)
        #expect(JumpFinder.roundTripReach(20, 10, acceleration: 4) == 175)
        #expect(JumpFinder.roundTripReach(10, 30, acceleration: 4) == 200)
        #expect(JumpFinder.roundTripReach(10, 300, acceleration: 4) == 200)
        #expect(abs(JumpFinder.roundTripReach(10, 29.999, acceleration: 4) - 200) < 0.01)
    }

    /// The reach is met: full throttle, braking to the speed v = a(τ₂ − τ₁)/2 at the far point, braking on and
    /// accelerating back, then braking to rest, ends at rest where it started, having passed the far point at the
    /// reach (integrated in closed form, phase by phase, for outward and inward times from 5 to 60 s).
    @Test func theRoundTripReachIsDriven() {
        let a = 4.0
        for outward in stride(from: 5.0, through: 60, by: 5) {
            for inward in stride(from: outward, through: 3 * outward, by: 5) {
                let v = a * (inward - outward) / 2
                var x = 0.0, speed = 0.0
                func drive(_ acceleration: Double, for seconds: Double) {
                    x += speed * seconds + acceleration * seconds * seconds / 2
                    speed += acceleration * seconds
                }
                let throttle = (outward + v / a) / 2
                drive(a, for: throttle)
                drive(-a, for: outward - throttle)
                let label = "out \(outward) s, back \(inward) s"
                #expect(abs(speed - v) < 1e-9, "\(label)")
                #expect(abs(x - JumpFinder.roundTripReach(outward, inward, acceleration: a)) < 1e-6, "\(label): \(x)")
                let braking = (inward + v / a) / 2
                drive(-a, for: braking)
                drive(a, for: inward - braking)
                #expect(abs(x) < 1e-6 && abs(speed) < 1e-9, "\(label): ends at \(x) m, \(speed) m/s")
            }
        }
    }

    /// A car that drives 100–110 m out and back from its parking place over two fixes 10 s apart, the first of them
    /// reading its 10 m/s (the others read nothing, so the net displacement judges the step back), or that passes
    /// back through a place on a drive that goes on (no speeds, moving on both sides): no jump, and the rule
    /// changes nothing.
    @Test func aRoundTripPastTheSamePlaceKeepsItsSteps() {
        var withSpeed: [Fix] = []
        for t in stride(from: 0.0, through: 180, by: 10) {
            let east = t == 90 ? 100.0 : t == 100 ? 110 : 0
            withSpeed.append(SmoothingSupport.fix(seconds: t, east: east, north: 0, speed: t == 90 ? 10 : nil))
        }
        let speeds = Self.withAndWithout(withSpeed)
        #expect(speeds.rule == speeds.without && speeds.rule > 150, "\(speeds)")
        // Passing back through a place 20 s after it on a drive that goes on: east at 10 m/s, 100 m past the place
        // and back through it (a U-turn at the fix between), then south; no speeds.
        var drive: [Fix] = []
        for t in stride(from: 0.0, through: 300, by: 10) {
            let east = t <= 100 ? 10 * t : t == 110 ? 1100 : 1000
            drive.append(SmoothingSupport.fix(seconds: t, east: east, north: t <= 120 ? 0 : -10 * (t - 120)))
        }
        let bare = Self.withAndWithout(drive)
        #expect(bare.rule == bare.without, "\(bare)")
    }
}

/// The stillness gate's rules for a sparse logger whose speed readings say it is at rest
/// (``StillnessGate/restNoiseFactor``): every step longer than the reset gap is a segment of its own, so the
/// readings at its ends, not a window, say whether its chord is noise or a jump.
@Suite struct StillnessGateRestTests {
    /// A van parked for two hours, a fix every `interval` seconds (2 m of white scatter per axis claiming 5 m, each
    /// reading `speed`), every 20th fix `jump` metres east (one fix; with `twoFixes` the next one too, a further
    /// 10 m on), the first jump fix reading `jumpSpeed`.
    static func parkedVan(
        interval: Double, speed: Double?, jump: Double = 0, twoFixes: Bool = false, jumpSpeed: Double? = nil,
        seed: UInt64
    ) -> [Fix] {
        var random = SplitMix64(seed: seed)
        return (0..<Int(7200 / interval)).map { i in
            let away = i % 20 == 10 || (twoFixes && i % 20 == 11)
            let east = (away ? jump + (i % 20 == 11 ? 10 : 0) : 0) + 2 * random.gaussian()
            return SmoothingSupport.fix(
                seconds: Double(i) * interval, east: east, north: 2 * random.gaussian(),
                speed: i % 20 == 10 && jumpSpeed != nil ? jumpSpeed : speed)
        }
    }

    /// The driving profile's smoother with the rules and without them, both without the still stretches
    /// (``StillnessGate/stillScatterSeconds``), which hold these parked hours too.
    static func withAndWithout(_ fixes: [Fix]) -> (rule: Double, without: Double) {
        var options = SmoothingOptions(profile: .driving)
        options.stillnessGate?.stillScatterSeconds = 0
        let rule = WholeTrackSmoother(options: options).smooth(fixes).distanceMetres
        options.stillnessGate?.restNoiseFactor = 0
        return (rule, WholeTrackSmoother(options: options).smooth(fixes).distanceMetres)
    }

    /// Two fixes 60 s apart claiming 5 m, both reading 0: the noise of the step is 2 + 1 × (5 + 5) = 12 m, twice
    /// that 24 m. A chord of 20 m counts nothing, one of 30 m counts (a van that moved between two stops); without
    /// readings the 20 m chord counts as before. (Within 0.1 m: the haversine on the mean radius against the test's
    /// local frame.)
    @Test func aChordBetweenTwoFixesReadAtRestCountsBeyondTwiceTheirNoise() {
        func distance(_ east: Double, speed: Double?) -> Double {
            let fixes = [
                SmoothingSupport.fix(seconds: 0, east: 0, north: 0, speed: speed),
                SmoothingSupport.fix(seconds: 60, east: east, north: 0, speed: speed),
            ]
            return WholeTrackSmoother(profile: .driving).smooth(fixes).distanceMetres
        }
        #expect(distance(20, speed: 0) == 0)
        #expect(abs(distance(30, speed: 0) - 30) < 0.1, "\(distance(30, speed: 0))")
        #expect(abs(distance(20, speed: nil) - 20) < 0.1, "\(distance(20, speed: nil))")
        // Readings of motion (1 m/s, above the driving profile's 0.8 m/s) are no rest: the chord counts.
        #expect(abs(distance(20, speed: 1) - 20) < 0.1, "\(distance(20, speed: 1))")
    }

    /// Parked two hours every 30–300 s reading 0 or 0.3 m/s: the chords of its scatter counted hundreds of metres,
    /// now at most a few; its 200 m jumps of one fix, each reading at rest, count nothing either.
    @Test(arguments: [30.0, 60.0, 120.0, 300.0])
    func aParkedLoggerReadAtRestCountsNeitherItsScatterNorItsJumps(interval: Double) {
        for seed: UInt64 in 1...3 {
            for speed in [0.0, 0.3] {
                let label = "every \(interval) s reading \(speed) m/s, seed \(seed)"
                let still = Self.withAndWithout(Self.parkedVan(interval: interval, speed: speed, seed: seed))
                #expect(still.without > 2 * 7200 / interval, "\(label): \(still.without) m without the rules")
                #expect(still.rule < 0.05 * still.without, "\(label): \(still.rule) m")
                let jumps = Self.withAndWithout(
                    Self.parkedVan(interval: interval, speed: speed, jump: 200, seed: seed))
                #expect(jumps.without > 400 * (7200 / interval / 20) - 50, "\(label): \(jumps.without) m without")
                #expect(jumps.rule < still.rule + 25, "\(label): \(jumps.rule) m with jumps, \(still.rule) without")
            }
        }
    }

    /// Two fixes away read at rest are a jump within ``StillnessGate/restingJumpSeconds`` of the fixes around them
    /// (every 30 s: 90 s), and a stay beyond it (every 60 s: 180 s, a van that drove out to a customer and back):
    /// then the steps out and back count.
    @Test func twoFixesAwayReadAtRestAreAJumpOnlyWithinTheRestingJumpTime() {
        let quick = Self.withAndWithout(Self.parkedVan(interval: 30, speed: 0, jump: 200, twoFixes: true, seed: 4))
        #expect(quick.rule < 50 && quick.without > 4000, "every 30 s: \(quick)")
        let still = Self.withAndWithout(Self.parkedVan(interval: 60, speed: 0, seed: 4)).rule
        let slow = Self.withAndWithout(Self.parkedVan(interval: 60, speed: 0, jump: 200, twoFixes: true, seed: 4))
        // Six stays out and back, 200 m and 210 m each way.
        #expect(slow.rule > still + 6 * 410 - 50, "every 60 s: \(slow), \(still) without the stays")
    }

    /// Fixes at rest that state 30 m: the threshold takes at most 10 m of each (2 + 10 + 10 = 22 m, twice that
    /// 44 m), so a chord of 50 m counts and one of 40 m does not; without the ceiling (2 + 60 = 62 m, twice
    /// 124 m) neither counted.
    @Test func aChordBetweenFixesStatingThirtyMetresIsJudgedByTenMetresEach() {
        func distance(_ east: Double, ceiling: Double = 10) -> Double {
            let fixes = [
                SmoothingSupport.fix(seconds: 0, east: 0, north: 0, accuracy: 30, speed: 0),
                SmoothingSupport.fix(seconds: 60, east: east, north: 0, accuracy: 30, speed: 0),
            ]
            var options = SmoothingOptions(profile: .driving)
            options.stillnessGate?.restAccuracyCeilingMetres = ceiling
            return WholeTrackSmoother(options: options).smooth(fixes).distanceMetres
        }
        #expect(abs(distance(50) - 50) < 0.2, "\(distance(50))")
        #expect(distance(40) == 0)
        #expect(distance(50, ceiling: .infinity) == 0)
    }

    /// A one-fix jump read at rest that lasts longer than ``StillnessGate/restingJumpSeconds`` (every 120 s: 240 s
    /// from the fix before to the fix after) counts nothing but widens σ by its chords, 200 m out and back each:
    /// three readings at rest cannot rule out an errand. Within it (every 30 s: 60 s) σ is that of the van
    /// without jumps.
    @Test func aLongJumpReadAtRestWidensSigmaByItsChords() {
        let smoother = WholeTrackSmoother(profile: .driving)
        for (interval, widens) in [(120.0, true), (30.0, false)] {
            let still = smoother.smooth(Self.parkedVan(interval: interval, speed: 0, seed: 6))
            let jumps = smoother.smooth(Self.parkedVan(interval: interval, speed: 0, jump: 200, seed: 6))
            let count = Double(Int(7200 / interval) / 20)
            #expect(jumps.distanceMetres < still.distanceMetres + 25, "every \(interval) s: \(jumps.distanceMetres)")
            if widens {
                #expect(
                    jumps.distanceGapExcessMetres > 2 * 200 * count - 50,
                    "every \(interval) s: gap term \(jumps.distanceGapExcessMetres) m for \(count) jumps")
                #expect(jumps.distanceSigmaMetres > 2 * 200 * count - 50)
            } else {
                #expect(
                    abs(jumps.distanceSigmaMetres - still.distanceSigmaMetres) < 5,
                    "every \(interval) s: σ \(jumps.distanceSigmaMetres), \(still.distanceSigmaMetres) without jumps")
            }
        }
    }

    /// A reading at rest at one end of a gap only is no rest: 0 s reading 0, then 60 s and 20 m on without a
    /// speed, the chord counts.
    @Test func aChordReadAtRestAtOneEndOnlyCounts() {
        let fixes = [
            SmoothingSupport.fix(seconds: 0, east: 0, north: 0, speed: 0),
            SmoothingSupport.fix(seconds: 60, east: 20, north: 0),
        ]
        let distance = WholeTrackSmoother(profile: .driving).smooth(fixes).distanceMetres
        #expect(abs(distance - 20) < 0.1, "\(distance)")
    }

    /// A van shuttling between two stops 300 m apart, at each when the fix is taken (every 300 s, all reading 0):
    /// each fix away is a jump by its neighbours alone, but neither far side is at rest there, so every step
    /// counts (a parked receiver's jumps come one or two at a time).
    @Test func aVanShuttlingBetweenTwoStopsKeepsItsSteps() {
        let fixes = (0..<20).map { i in
            SmoothingSupport.fix(seconds: Double(i) * 300, east: i % 2 == 0 ? 0 : 300, north: 0, speed: 0)
        }
        let distance = WholeTrackSmoother(profile: .driving).smooth(fixes).distanceMetres
        #expect(abs(distance - 19 * 300) < 20, "\(distance)")
    }

    /// Two recordings three hours apart (the smoother's recording break is an hour here), all reading 0: the second
    /// starts 200 m from where the first ended and drives back to it a minute later. The fix that ended the first
    /// recording is no "fix before" of a jump: the step counts.
    @Test func aJumpDoesNotReachAcrossARecordingBreak() {
        var fixes = [SmoothingSupport.fix(seconds: 0, east: 0, north: 0, speed: 0)]
        fixes.append(SmoothingSupport.fix(seconds: 10_000, east: 200, north: 0, speed: 0))
        for i in 1...5 {
            fixes.append(SmoothingSupport.fix(seconds: 10_000 + 60 * Double(i), east: 0, north: 0, speed: 0))
        }
        var options = SmoothingOptions(profile: .driving)
        options.recordingBreakSeconds = 3600
        let distance = WholeTrackSmoother(options: options).smooth(fixes).distanceMetres
        #expect(abs(distance - 200) < 1, "\(distance)")
    }

    /// σ widens only for the steps a jump read at rest held: a fix away whose steps a confident `still` reading
    /// holds (every 120 s, all reading 0) adds nothing to the gap term, even when a later step asks about the
    /// same jump; and a jump that lasted exactly ``StillnessGate/restingJumpSeconds`` (every 60 s) adds nothing.
    @Test func sigmaWidensOnlyForTheStepsALongJumpReadAtRestHeld() {
        func parked(interval: Double, stillAtJump: Bool, moveAfter: Bool) -> [Fix] {
            (0..<16).map { i in
                var fix = SmoothingSupport.fix(
                    seconds: Double(i) * interval, east: i == 10 ? 200 : moveAfter && i >= 12 ? 100 : 0, north: 0,
                    speed: 0)
                if stillAtJump && i == 10 { fix.activity = ActivityReading(kind: .still, confidence: 100) }
                return fix
            }
        }
        let smoother = WholeTrackSmoother(profile: .driving)
        for moveAfter in [false, true] {
            let held = smoother.smooth(parked(interval: 120, stillAtJump: true, moveAfter: moveAfter))
            #expect(held.distanceGapExcessMetres < 1, "moving after: \(moveAfter): \(held.distanceGapExcessMetres)")
        }
        let long = smoother.smooth(parked(interval: 120, stillAtJump: false, moveAfter: false))
        #expect(abs(long.distanceGapExcessMetres - 400) < 5, "\(long.distanceGapExcessMetres)")
        let exactly = smoother.smooth(parked(interval: 60, stillAtJump: false, moveAfter: false))
        #expect(exactly.distanceGapExcessMetres < 1, "\(exactly.distanceGapExcessMetres)")
    }

    /// A van parked two hours without speed readings, every 30–300 s (2 m of scatter per axis, stating 5 m): every
    /// step is a segment of its own, and each chord of the scatter counted; three fixes within each other's noise
    /// (24 m) now say it stands (``StillnessGate/infersRestFromPositions``). Without the still stretches
    /// (``StillnessGate/stillScatterSeconds``), which hold these parked hours too.
    @Test(arguments: [30.0, 60.0, 120.0, 300.0])
    func aParkedLoggerWithoutReadingsCountsNotItsScatter(interval: Double) {
        for seed: UInt64 in 1...3 {
            let fixes = Self.parkedVan(interval: interval, speed: nil, seed: seed)
            var options = SmoothingOptions(profile: .driving)
            options.stillnessGate?.stillScatterSeconds = 0
            let rule = WholeTrackSmoother(options: options).smooth(fixes).distanceMetres
            options.stillnessGate?.infersRestFromPositions = false
            let without = WholeTrackSmoother(options: options).smooth(fixes).distanceMetres
            #expect(without > 2 * 7200 / interval, "every \(interval) s, seed \(seed): \(without) m without")
            #expect(rule < 0.05 * without, "every \(interval) s, seed \(seed): \(rule) m")
        }
    }

    /// What is not three fixes within their noise counts: a van creeping at 0.5 m/s every 60 s (30 m a step, 60 m
    /// over three fixes); three fixes within their noise of which one reads 5 m/s; and, on foot, a hiker climbing
    /// at 0.25 m/s every 80 s (20 m a step, 40 m over three fixes), stating no accuracy (10 m assumed: twice the
    /// noise of a step is 44 m): the rule is the vehicles'.
    @Test func aSlowVehicleAReadingOfMotionAndAHikerCount() {
        let creep = (0..<30).map { SmoothingSupport.fix(seconds: Double($0) * 60, east: Double($0) * 30, north: 0) }
        let creeping = WholeTrackSmoother(profile: .driving).smooth(creep).distanceMetres
        #expect(abs(creeping - 29 * 30) < 0.005 * 29 * 30, "\(creeping)")  // the haversine against the local frame
        let reading = (0..<30).map { i in
            SmoothingSupport.fix(
                seconds: Double(i) * 60, east: i % 2 == 0 ? 0 : 8, north: 0, speed: i == 15 ? 5 : nil)
        }
        let read = WholeTrackSmoother(profile: .driving).smooth(reading).distanceMetres
        #expect(abs(read - 16) < 0.5, "\(read): the two chords beside the reading")
        let hike = (0..<30).map { i in
            SmoothingSupport.fix(seconds: Double(i) * 80, east: Double(i) * 20, north: 0, accuracy: nil)
        }
        let walking = WholeTrackSmoother(profile: .walking)
        #expect(!walking.options.stillnessGate!.infersRestFromPositions)
        let hiked = walking.smooth(hike).distanceMetres
        #expect(abs(hiked - 29 * 20) < 0.005 * 29 * 20, "\(hiked)")
    }

    /// A queue creeping 10 m every 30 s (no speeds, stating 5 m) keeps every three fixes within 24 m of each other,
    /// but drifts away from where it stood: the clusters it leaves by a step within the noise count (a reviewer's
    /// file read 0 m of 390 before the drift rule), all but the last (30 m, ending at the track's end). With 2 m of
    /// scatter per axis as well, five seeds: at least 85 %.
    @Test func aQueueCreepingWithinTheNoiseCounts() {
        let crawl = (0..<40).map { SmoothingSupport.fix(seconds: Double($0) * 30, east: Double($0) * 10, north: 0) }
        let clean = WholeTrackSmoother(profile: .driving).smooth(crawl).distanceMetres
        #expect(abs(clean - 360) < 2, "\(clean)")
        for seed: UInt64 in 1...5 {
            var random = SplitMix64(seed: seed)
            let noisy = (0..<40).map { i in
                SmoothingSupport.fix(
                    seconds: Double(i) * 30, east: Double(i) * 10 + 2 * random.gaussian(), north: 2 * random.gaussian())
            }
            let distance = WholeTrackSmoother(profile: .driving).smooth(noisy).distanceMetres
            #expect(distance > 0.85 * 390, "seed \(seed): \(distance)")
        }
    }

    /// A parked van (every 60 s, no speeds) that pulls away logging every second, 1 m/s² for a minute (1,800 m):
    /// the parked hours' cluster is left by a 1 s step the three-fix rule did not hold, so it stood, and its scatter
    /// stays out (a code review's file read 416 m more when any step within the noise counted as a drift).
    @Test func aParkedLoggerLeftAtOneHertzKeepsItsScatterOut() {
        for seed: UInt64 in 1...3 {
            var fixes = Self.parkedVan(interval: 60, speed: nil, seed: seed)
            let start = 7200.0
            for k in 1...60 {
                fixes.append(
                    SmoothingSupport.fix(seconds: start + Double(k), east: 0.5 * Double(k * k), north: 0, accuracy: 5))
            }
            let distance = WholeTrackSmoother(profile: .driving).smooth(fixes).distanceMetres
            #expect(abs(distance - 1800) < 60, "seed \(seed): \(distance) m of 1,800")
        }
    }

    /// A fix away that reads motion (10 m/s) is a trip out and back, whatever the fixes around it read.
    @Test func aFixAwayReadingMotionCounts() {
        let trips = Self.withAndWithout(
            Self.parkedVan(interval: 60, speed: 0, jump: 200, jumpSpeed: 10, seed: 5))
        #expect(trips.rule > 400 * 6 - 50, "\(trips)")
    }
}
