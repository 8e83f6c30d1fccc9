import Testing
import TrueTrackCore
import TrueTrackSimulation

/// The whole pipeline on simulated recordings whose exact distance is known.
@Suite struct ScenarioPipelineTests {
    static func run(_ track: SimulatedTrack, profile: TrackingProfile) -> (Tracker, [FixDecision]) {
        var tracker = Tracker(profile: profile)
        var decisions: [FixDecision] = []
        for batch in track.batches { decisions += tracker.process(batch: batch) }
        return (tracker, decisions)
    }

    static func relativeError(
        _ scenario: Scenario, _ errors: ErrorModel, _ profile: TrackingProfile, seed: UInt64,
        truth: Double? = nil
    ) -> Double {
        let track = Simulator.simulate(scenario, errors: errors, delivery: .lockedPhone, seed: seed)
        let (t, _) = run(track, profile: profile)
        let reference = truth ?? scenario.truthDistanceMetres
        return (t.distance.totalMetres - reference) / reference
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func cleanWalkRunAndDriveWithinOnePercent(seed: UInt64) {
        #expect(abs(Self.relativeError(.walk, .cleanPhone, .walking, seed: seed)) < 0.01)
        #expect(abs(Self.relativeError(.run, .cleanPhone, .running, seed: seed)) < 0.01)
        // Rectangle integration of 1 Hz speeds loses up to one second per halt: 0.3 % here.
        #expect(abs(Self.relativeError(.drive, .carReceiver, .driving, seed: seed)) < 0.005)
    }

    /// A walk under the running and cycling profiles (a running app's warm-up, a cyclist pushing the bike) with
    /// a good Doppler speed and rough positions (2 m of white noise on a quickly wandering error): the position
    /// filter under their σₐ of 2 followed the noise, its path outgrew the Doppler's, the Doppler was
    /// distrusted and the noisy speed integrated (an API tester's walks +40–61 %). Each counts as the walking
    /// profile does.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aWalkWithGoodDopplerCountsTheSameUnderTheRunningAndCyclingProfiles(seed: UInt64) {
        var rough = ErrorModel(accuracyMetres: 7, correlationSeconds: 10)
        rough.whiteSigmaMetres = 2
        for profile in [TrackingProfile.walking, .running, .cycling] {
            let error = Self.relativeError(.walk, rough, profile, seed: seed)
            #expect(abs(error) < 0.03, "\(profile.kind): \(error)")
        }
    }

    /// A speed column in km/h, knots or mph read as m/s (a tester's ride in km/h counted +129 %, most of its
    /// fixes refused as too fast): once the session shows the Doppler path far above the positions', the
    /// Doppler is distrusted, the speed gate judges the derived speed, and the ratio says which unit.
    @Test(arguments: [(3.6, 1 as UInt64), (1.944, 2), (2.237, 3)] as [(Double, UInt64)])
    func aSpeedInAnotherUnitIsNotTrusted(factor: Double, seed: UInt64) throws {
        // (8 m/s: 28.8 "m/s" in km/h, above the cycling ceiling from the first fix.)
        let ride = Scenario(
            name: "ride",
            legs: [
                .drive(metres: 3000, heading: 20, speed: 8), .drive(metres: 2000, heading: 110, speed: 6),
                .drive(metres: 2000, heading: 200, speed: 8),
            ])
        let track = Simulator.simulate(ride, errors: .cleanPhone, seed: seed)
        for profile in [TrackingProfile.cycling, .driving] {
            var scaled = Tracker(profile: profile), honest = Tracker(profile: profile)
            var rejected = 0
            for fix in track.fixes {
                var wrong = fix
                wrong.speedMetresPerSecond = fix.speedMetresPerSecond.map { $0 * factor }
                if scaled.process(wrong).rejection != nil { rejected += 1 }
                _ = honest.process(fix)
            }
            let truth = ride.truthDistanceMetres
            let error = (scaled.distance.totalMetres - truth) / truth
            // Until the session's evidence is in the reading still counts (+0.6 … +1.4 %). A ride read at 25 "m/s"
            // under cycling (a ceiling of 25) is not refused meanwhile: a reading far above what the positions
            // moved is no proof of "too fast" (before, 18 fixes were refused and the ride read +6.2 %; a
            // re-tester's rides at 29–36 km/h lost 12–80 %). The tester's km/h ride read +129 % before all this.
            #expect(abs(error) < 0.03, "\(profile.kind) × \(factor): \(error)")
            #expect(rejected < 5, "\(profile.kind) × \(factor): \(rejected) refused")
            let ratio = try #require(scaled.sessionDopplerRatio)
            #expect(abs(ratio / factor - 1) < 0.1, "\(profile.kind): ratio \(ratio) for × \(factor)")
            // The honest speeds stay trusted.
            let honestRatio = try #require(honest.sessionDopplerRatio)
            #expect(abs(honestRatio - 1) < 0.1)
            #expect(abs(honest.distance.totalMetres - truth) / truth < 0.01)
        }
    }

    /// A speed column that reads slow by a unit (m/s values in a column named `speed_kmh`, read as 0.28 × the
    /// speed) or by a scale of 0.2, under a drive at 25 m/s: at that speed every fix looked like the filter
    /// "following a jump" (25 m/s against 2 × 6.9 + 3: the reading believed), and a tester's 40.8 km drive counted
    /// 11.7 km (0.2 ×: 8.3 km) without a word. Now a minute of such fixes in a row shows the column slow
    /// (``Tracker/slowColumnRunSeconds``): its readings are distrusted, and what that run (a minute or more)
    /// counted short of the position filter's path is counted. (Before: −72 % and −80 % here.) Not covered: a column at 0.45 × (m/s under
    /// `speed_mph`) reads −6.6 % here, before as after; a ride at 8 m/s whose column reads 0.2–0.28 × with a course
    /// had its velocity pulled to the readings before the session's evidence was in, fought its positions, and
    /// counted −9 … −100 % (`aRideReadAtAFifthOfItsSpeedIsCountedFromItsPositions` below, since ``SpeedCheck``).
    @Test(arguments: [(1 / 3.6, 1 as UInt64), (0.2, 3)] as [(Double, UInt64)])
    func aSpeedReadSlowByAUnitIsNotTrusted(factor: Double, seed: UInt64) {
        let drive = Scenario(
            name: "drive",
            legs: [
                .drive(metres: 6000, heading: 20, speed: 25), .drive(metres: 3000, heading: 110, speed: 14),
                .drive(metres: 6000, heading: 200, speed: 25),
            ])
        let error = Self.relativeError(drive, .driving, seed: seed, speedsTimes: factor)
        #expect(abs(error) < 0.03, "× \(factor): \(error)")
    }

    /// The relative distance error of `scenario` (clean phone, `seed`) under `profile` with every speed reading
    /// multiplied by `factor`.
    static func relativeError(
        _ scenario: Scenario, _ profile: TrackingProfile, seed: UInt64, speedsTimes factor: Double
    ) -> Double {
        var tracker = Tracker(profile: profile)
        for fix in Simulator.simulate(scenario, errors: .cleanPhone, seed: seed).fixes {
            var scaled = fix
            scaled.speedMetresPerSecond = fix.speedMetresPerSecond.map { $0 * factor }
            _ = tracker.process(scaled)
        }
        return (tracker.distance.totalMetres - scenario.truthDistanceMetres) / scenario.truthDistanceMetres
    }

    /// The case left open above: a ride at 8 m/s whose speed column reads 0.2 × or 0.28 × with a course. The first
    /// readings, trusted before the session's evidence is in, pulled the filter's velocity to 1.6 m/s: the positions
    /// were refused as outliers, every re-anchor restarted the window, and no evidence ever accrued (a known issue
    /// until 2026-12-05). The speed check (``SpeedCheck``) judges the readings by chords of accepted fixes, which
    /// re-anchors do not break.
    @Test(arguments: [0.2, 1 / 3.6])
    func aRideReadAtAFifthOfItsSpeedIsCountedFromItsPositions(factor: Double) {
        let ride = Scenario(
            name: "ride",
            legs: [.drive(metres: 3000, heading: 20, speed: 8), .drive(metres: 2000, heading: 110, speed: 8)])
        let error = Self.relativeError(ride, .cycling, seed: 3, speedsTimes: factor)
        #expect(abs(error) < 0.03, "\(error)")
    }

    /// Good readings on a route that doubles back stay trusted under the profiles that judge the Doppler by
    /// chords: a shuttle run's 10 s chords are a fraction of its path, and judging the unit by them distrusted
    /// the readings (a code reviewer's shuttle run −19 %). The unit check uses the filter's path instead.
    @Test(arguments: [1, 2] as [UInt64])
    func aShuttleRunKeepsItsGoodReadings(seed: UInt64) throws {
        let legs: [Leg] = (0..<60).map { .run(metres: 30, heading: $0 % 2 == 0 ? 0 : 180) }
        let shuttle = Scenario(name: "shuttle", legs: legs)
        for profile in [TrackingProfile.running, .cycling] {
            let track = Simulator.simulate(shuttle, errors: .cleanPhone, seed: seed)
            var tracker = Tracker(profile: profile)
            for fix in track.fixes { _ = tracker.process(fix) }
            let truth = shuttle.truthDistanceMetres
            let error = (tracker.distance.totalMetres - truth) / truth
            #expect(abs(error) < 0.03, "\(profile.kind): \(error)")
            let ratio = try #require(tracker.sessionDopplerRatio)
            #expect(ratio < 1 / profile.dopplerTrustRatio, "\(profile.kind): ratio \(ratio)")
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func degradedPhoneWithSamsungZerosWithinTenPercent(seed: UInt64) {
        #expect(abs(Self.relativeError(.walk, .degradedPhone, .walking, seed: seed)) < 0.10)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func walkWithStopsCleanWithinSixPercentDegradedWithinTwelve(seed: UInt64) {
        #expect(abs(Self.relativeError(.walkWithStops, .cleanPhone, .walking, seed: seed)) < 0.06)
        let degraded = Self.relativeError(.walkWithStops, .degradedPhone, .walking, seed: seed)
        // The filter's speed lags into each halt: +12.1 / +5.9 / +9.7 % on seeds 1–3 until 2026-12-07 (seed 1 a known
        // issue); +10.8 / +2.4 / +1.9 % since its zeros of a second or two between readings of motion are dropouts
        // (`Tracker.isDropoutRun`), no longer scattered zeros that kept its readings judged by the integrated path.
        #expect(abs(degraded) < 0.12, "degraded phone: \(degraded)")
    }

    /// A phone whose Doppler drops to 0 on a quarter of its walking fixes, on walks that turn within the
    /// 20 s window (15 m back and forth, a 60 m loop): the dropouts' stand-in speed fills them. (Bounding every
    /// stand-in by the window's net displacement, which a turn shortens, undercounted these by 13-19 %: only a
    /// run of zeros, a halt, is bounded.)
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func dropoutsOnAWindingWalkAreFilled(seed: UInt64) {
        var errors = ErrorModel.cleanPhone
        errors.zeroSpeedWhileMovingProbability = 0.25
        let turns: [Leg] = [.walk(metres: 15, heading: 0), .walk(metres: 15, heading: 90)]
        let back: [Leg] = [.walk(metres: 15, heading: 0), .walk(metres: 15, heading: 180)]
        for legs in [turns + [.walk(metres: 15, heading: 180), .walk(metres: 15, heading: 270)], back] {
            let scenario = Scenario(
                name: "winding", legs: [.stop(seconds: 30)] + Array(repeating: legs, count: 5).flatMap { $0 })
            let error = Self.relativeError(scenario, errors, .walking, seed: seed)
            #expect(abs(error) < 0.08, "\(legs.count == 4 ? "loop" : "back and forth"): \(error)")
        }
    }

    /// Loggers that record every 11-45 s (GPX hikes, battery savers): the trailing window always reaches a
    /// sample at least its span back, so the walk is judged moving, and each step longer than the issue's 10 s
    /// clamp counts its chord (the walker keeps its heading), not 10/11, 10/25, 10/45 of it as the clamped
    /// speed integral alone did (measured: 837 / 835 / 749 m of 840 m; the clamp allowed 764 / 336 / 187 m).
    /// Before the window reached back, a fix every 21 s or more counted nothing.
    @Test(arguments: [11, 25, 45] as [Int])
    func sparseFixesCountTheWalkByTheirChords(every seconds: Int) {
        let sim = Simulator.simulate(.walk, errors: .cleanPhone, seed: 4)
        var tracker = Tracker(profile: .walking)
        for (i, fix) in sim.fixes.enumerated() where i % seconds == 0 { _ = tracker.process(fix) }
        let ratio = tracker.distance.totalMetres / Scenario.walk.truthDistanceMetres
        print("every \(seconds) s: \(tracker.distance.totalMetres) m of \(Scenario.walk.truthDistanceMetres) m")
        // (At 45 s a chord cuts the walk's corners, and a step that turns by more than 45° counts its clamped
        // speed integral only.)
        #expect(
            ratio > (seconds <= 25 ? 0.95 : 0.85) && ratio < 1.05,
            "every \(seconds) s: \(tracker.distance.totalMetres) m")
    }

    /// The other side of the same window: a still phone without Doppler whose sparse fixes jump now and then
    /// (60 m multipath, 1 %). Judging over a window stretched past its span must not let a jump through as
    /// movement: the span proper is judged for speed too.
    @Test(arguments: [7, 11, 13, 25] as [Int])
    func aStillPhoneLoggingSparselyStaysAlmostStill(every seconds: Int) {
        let errors = ErrorModel(accuracyMetres: 12, multipathProbability: 0.01, speedAbsentProbability: 1)
        var perTenMinutes: [Double] = []
        for seed in 1...30 as ClosedRange<UInt64> {
            let sim = Simulator.simulate(.stationary, errors: errors, seed: seed)
            var tracker = Tracker(profile: .walking)
            for (i, fix) in sim.fixes.enumerated() where i % seconds == 0 { _ = tracker.process(fix) }
            perTenMinutes.append(tracker.distance.totalMetres * 600 / Scenario.stationary.durationSeconds)
        }
        let mean = perTenMinutes.reduce(0, +) / Double(perTenMinutes.count)
        print("still phone every \(seconds) s: mean \(mean) m, worst \(perTenMinutes.max()!) m per 10 min")
        #expect(mean < 10, "every \(seconds) s: mean \(mean) m per 10 min")
    }

    /// A drive whose fixes carry confident in-vehicle readings (a phone's activity recogniser, or a JSON reader
    /// that assumes confidence 100) counts with the driving profile as without them: the vehicle latch is for
    /// profiles that exclude the vehicle. (It counted 0 m when any in-vehicle reading latched.)
    @Test func aDriveWithInVehicleReadingsCountsWithTheDrivingProfile() {
        var errors = ErrorModel.carReceiver
        errors.activityConfidence = 90
        let withReadings = Self.relativeError(.drive, errors, .driving, seed: 1)
        let without = Self.relativeError(.drive, .carReceiver, .driving, seed: 1)
        #expect(abs(withReadings) < 0.005, "error \(withReadings)")
        #expect(abs(withReadings - without) < 0.001)
    }

    /// A phone with honest Doppler (zero at every halt) whose positions carry 0.5 m of white noise per axis, as a
    /// Pixel 4's 1 s steps do: the noise lengthens the position filter's path until the receiver reads as one
    /// with Doppler dropouts, and each halt's zeros were then replaced by the filter's noisy speed while the
    /// window still held the walk (+9 to +12 % on this walk with three halts; the truth is 600 m).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func anHonestReceiversHaltsCountNothingUnderNoisyPositions(seed: UInt64) {
        var errors = ErrorModel.cleanPhone
        errors.whiteSigmaMetres = 0.5
        let error = Self.relativeError(.walkWithStops, errors, .walking, seed: seed)
        print("honest receiver, noisy positions, seed \(seed): \(error)")
        #expect(abs(error) < 0.06, "\(error)")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func busRideInsideAWalkCountsOnlyTheWalk(seed: UInt64) {
        let walked = Scenario.busRideInsideWalk.truthDistanceMetres(activities: [.walking])
        #expect(abs(Self.relativeError(.busRideInsideWalk, .cleanPhone, .walking, seed: seed, truth: walked)) < 0.05)
    }

    /// A bus that crawls at walking pace for a minute between fast stretches, then a walk after it: the crawl
    /// is held by the vehicle latch and given up when the bus speeds up again; the walk is released once it
    /// has lasted ``TrackingProfile/vehicleExitSeconds``.
    static let busCrawlThenWalk = Scenario(
        name: "bus crawling in traffic, then a walk",
        legs: [
            .walk(metres: 200, heading: 0), .stop(seconds: 60), .drive(metres: 800, heading: 90, speed: 8),
            .drive(metres: 60, heading: 90, speed: 1.0), .drive(metres: 800, heading: 90, speed: 8),
            .stop(seconds: 30, activity: .inVehicle), .walk(metres: 300, heading: 180), .stop(seconds: 30),
        ])

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aBusCrawlingAtWalkingPaceIsNotAWalkButTheWalkAfterItCounts(seed: UInt64) {
        let walked = Self.busCrawlThenWalk.truthDistanceMetres(activities: [.walking])
        #expect(walked == 500)
        let error = Self.relativeError(Self.busCrawlThenWalk, .cleanPhone, .walking, seed: seed, truth: walked)
        // Counting the crawl as a walk would add 60 m (+12 %); losing the final walk, -60 %.
        #expect(abs(error) < 0.05, "error \(error)")
    }

    @Test func theVehicleLatchCanBeTurnedOff() {
        var profile = TrackingProfile.walking
        profile.vehicleExitSeconds = 0
        let track = Simulator.simulate(Self.busCrawlThenWalk, errors: .cleanPhone, delivery: .lockedPhone, seed: 1)
        let (latched, _) = Self.run(track, profile: .walking)
        let (free, _) = Self.run(track, profile: profile)
        // Without the latch the crawl counts: about 60 m more.
        #expect(free.distance.totalMetres - latched.distance.totalMetres > 40)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func stationaryAccruesNothing(seed: UInt64) {
        for errors in [ErrorModel.cleanPhone, .degradedPhone] {
            let track = Simulator.simulate(.stationary, errors: errors, delivery: .lockedPhone, seed: seed)
            let (t, _) = Self.run(track, profile: .walking)
            #expect(t.distance.totalMetres <= 1)
        }
    }

    /// A 40 s tunnel (a reset gap for the driving profile): its 600 m are bridged by the chord from the last
    /// filtered position before it to the first fix after it, once the track after it is confirmed; with the
    /// bridge turned off (``TrackingProfile/maximumBridgedGapSeconds`` 0) only the 3,000 m outside it count.
    @Test func aTunnelIsBridgedByItsChord() {
        let track = Simulator.simulate(.tunnelDrive, errors: .carReceiver, seed: 1)
        let (t, d) = Self.run(track, profile: .driving)
        #expect(
            abs(t.distance.totalMetres - Scenario.tunnelDrive.truthDistanceMetres) < 30, "\(t.distance.totalMetres)")
        #expect(d.contains { $0.isAnchor && $0.timestamp > track.fixes[0].timestamp })
        var unbridged = TrackingProfile.driving
        unbridged.maximumBridgedGapSeconds = 0
        let (u, _) = Self.run(track, profile: unbridged)
        #expect(abs(u.distance.totalMetres - 3000) < 30, "\(u.distance.totalMetres)")
    }
}

/// Properties that must hold on every scenario, error model, delivery and seed.
@Suite struct TrackerPropertyTests {
    static let scenarios: [Scenario] = [
        .walk, .run, .drive, .walkWithStops, .busRideInsideWalk, .tunnelDrive,
        .stationary,
    ]

    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func totalNeverDecreasesAndNothingIsNaN(seed: UInt64) {
        for scenario in Self.scenarios {
            for errors in [ErrorModel.cleanPhone, .degradedPhone, .carReceiver] {
                let heavy = ErrorModel(
                    accuracyMetres: 20, multipathProbability: 0.05, speedAbsentProbability: 0.2,
                    speedMinusOneProbability: 0.1, zeroSpeedWhileMovingProbability: 0.4,
                    accuracyAbsentProbability: 0.1, accuracyInvalidProbability: 0.05)
                for model in [errors, heavy] {
                    let track = Simulator.simulate(scenario, errors: model, delivery: .lockedPhone, seed: seed)
                    var tracker = Tracker(profile: scenario.name.contains("drive") ? .driving : .walking)
                    var previous = 0.0
                    for fix in track.fixes {
                        let d = tracker.process(fix)
                        #expect(d.totalDistanceMetres >= previous)
                        #expect(d.distanceIncrementMetres >= 0 && d.distanceIncrementMetres.isFinite)
                        previous = d.totalDistanceMetres
                        if let s = d.state {
                            #expect(
                                s.latitude.isFinite && s.longitude.isFinite && s.positionSigmaMetres.isFinite
                                    && s.velocityEastMetresPerSecond.isFinite && s.velocitySigmaMetresPerSecond > 0)
                        }
                        #expect(d.speedMetresPerSecond.isFinite)
                    }
                }
            }
        }
    }

    @Test(arguments: [21, 22, 23] as [UInt64])
    func batchesAreBitIdenticalToStreamingTheSortedBatch(seed: UInt64) {
        for scenario in Self.scenarios {
            let track = Simulator.simulate(scenario, errors: .degradedPhone, delivery: .lockedPhone, seed: seed)
            var batched = Tracker()
            var streamed = Tracker()
            for batch in track.batches {
                let a = batched.process(batch: batch)
                let sorted = batch.enumerated().sorted {
                    ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
                }
                let b = sorted.map { streamed.process($0.element) }
                #expect(sorted.map { a[$0.offset] } == b)  // (a is in the batch's order)
            }
            #expect(batched.distance == streamed.distance)
            var whole = Tracker()
            let c = whole.process(track: track.fixes)
            var oneByOne = Tracker()
            #expect(c == track.fixes.map { oneByOne.process($0) })
        }
    }
}

@Suite struct SimulatorTests {
    @Test func sameSeedSameTrackOtherSeedOtherTrack() {
        let a = Simulator.simulate(.walk, errors: .degradedPhone, delivery: .lockedPhone, seed: 7)
        let b = Simulator.simulate(.walk, errors: .degradedPhone, delivery: .lockedPhone, seed: 7)
        let c = Simulator.simulate(.walk, errors: .degradedPhone, delivery: .lockedPhone, seed: 8)
        #expect(a.fixes == b.fixes)
        #expect(a.fixes != c.fixes)
    }

    @Test func truthDistanceIsExactAndSampled() {
        let truth = Scenario.walk.truth()
        #expect(Scenario.walk.truthDistanceMetres == 840)
        #expect(abs(truth.last!.distanceMetres - 840) < 1e-9)
        #expect(truth.count == 601)
        // The square closes: back at the origin.
        #expect(abs(truth.last!.east) < 1e-9 && abs(truth.last!.north) < 1e-9)
    }

    @Test func deliveryAddsDuplicatesAndSwapsAndTunnelsDropFixes() {
        let live = Simulator.simulate(.walk, seed: 3)
        let locked = Simulator.simulate(.walk, delivery: .lockedPhone, seed: 3)
        #expect(live.fixes.count == 601)
        #expect(locked.fixes.count > 601)
        #expect(zip(locked.fixes, locked.fixes.dropFirst()).contains { $0.timestamp > $1.timestamp })
        let tunnel = Simulator.simulate(.tunnelDrive, errors: .carReceiver, seed: 1)
        #expect(tunnel.fixes.count < tunnel.truth.count - 30)
    }

    @Test func errorModelProducesSpeedDropoutsAndInvalidAccuracy() {
        let heavy = ErrorModel(
            speedAbsentProbability: 0.2, speedMinusOneProbability: 0.2,
            zeroSpeedWhileMovingProbability: 0.3, accuracyInvalidProbability: 0.1)
        let t = Simulator.simulate(.walk, errors: heavy, seed: 5)
        #expect(t.fixes.contains { $0.speedMetresPerSecond == nil })
        #expect(t.fixes.contains { $0.speedMetresPerSecond == 0 })
        #expect(t.fixes.contains { $0.horizontalAccuracy == .invalid })
    }
}
