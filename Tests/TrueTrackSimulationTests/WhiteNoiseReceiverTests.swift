import Testing
import TrueTrackCore
import TrueTrackSimulation

/// A receiver whose position error is white noise (no drift) and which reports no speed: the net-displacement
/// gate's accuracy threshold assumes a drifting error, so its noise floor
/// (``NetDisplacementGate/noiseFloor(positionVariance:profile:)``) must keep such a receiver at rest from
/// counting, without costing its walks anything.
@Suite struct WhiteNoiseReceiverTests {
    /// White noise of `sigma` metres per axis (honestly reported: accuracy = 1.50959 σ), no speed, 1 Hz.
    static func whiteNoise(sigma: Double) -> ErrorModel {
        var errors = ErrorModel(
            accuracyMetres: sigma * MeasurementNoise.radius68PerSigma, correlationSeconds: 1e-3,
            speedAbsentProbability: 1)
        errors.whiteSigmaMetres = 0
        return errors
    }

    static func total(_ scenario: Scenario, sigma: Double, seed: UInt64, profile: TrackingProfile = .walking)
        -> Double
    {
        let track = Simulator.simulate(
            scenario, errors: whiteNoise(sigma: sigma), delivery: DeliveryModel(), seed: seed)
        var tracker = Tracker(profile: profile)
        for batch in track.batches { _ = tracker.process(batch: batch) }
        return tracker.distance.totalMetres
    }

    /// Without the floor the gate opened on noise and released the window's held jitter: 40-800 m in ten
    /// minutes on every one of these desks (measured: σ 1 m 39-149 m, σ 3 m 380-530 m, σ 10 m 350-815 m).
    @Test(arguments: [1.0, 3.0, 10.0])
    func aStillReceiverWithWhiteNoiseAndNoSpeedCountsNothing(sigma: Double) {
        var withoutFloor = TrackingProfile.walking
        withoutFloor.netDisplacementNoiseSigmas = 0
        var totals: [Double] = []
        for seed in 1...6 as ClosedRange<UInt64> {
            let total = Self.total(.stationary, sigma: sigma, seed: seed)
            totals.append(total)
            // The floor is what keeps it still: the same desk without it counts tens of metres or more.
            #expect(Self.total(.stationary, sigma: sigma, seed: seed, profile: withoutFloor) > 30)
        }
        print("white-noise desk, σ \(sigma) m, 10 min: \(totals)")
        // The stationary bar (≤ 1 m per 10 minutes) on at least five of six desks; a rare false release costs
        // one window's jitter (measured 40 m once in 20 runs), never more than two.
        #expect(totals.filter { $0 <= 1 }.count >= 5, "\(totals)")
        #expect(totals.allSatisfy { $0 < 100 }, "\(totals)")
    }

    /// The floor costs a walk nothing: at 1.4 m/s the net displacement over the 20 s window (28 m) is far
    /// above it, so every decision's distance is the same with and without it.
    @Test(arguments: [1.0, 3.0, 5.0])
    func aWalkUnderTheSameNoiseCountsWhatItCountedWithoutTheFloor(sigma: Double) {
        var withoutFloor = TrackingProfile.walking
        withoutFloor.netDisplacementNoiseSigmas = 0
        for seed in 1...2 as ClosedRange<UInt64> {
            let with = Self.total(.walk, sigma: sigma, seed: seed)
            let without = Self.total(.walk, sigma: sigma, seed: seed, profile: withoutFloor)
            #expect(abs(with - without) <= 0.01 * without, "σ \(sigma): \(with) vs \(without)")
            #expect(with > 0.95 * Scenario.walk.truthDistanceMetres)
        }
    }

    @Test func theFloorIsTheSpreadOfTwoFilteredPositionsTimesTheProfilesSigmas() {
        // Two positions of per-axis variance 2 m² differ by a per-axis σ of √(2 × 2) = 2 m; 5 σ = 10 m.
        #expect(NetDisplacementGate.noiseFloor(positionVariance: 2, profile: .walking) == 10)
        var off = TrackingProfile.walking
        off.netDisplacementNoiseSigmas = 0
        #expect(NetDisplacementGate.noiseFloor(positionVariance: 2, profile: off) == 0)
        #expect(NetDisplacementGate.noiseFloor(positionVariance: -1, profile: .walking) == 0)
    }

    /// A fix without accuracy has the filter's variance of an assumed 30 m, not a measure of its noise: the
    /// floor is not applied (a GPX hike logged every 11 s counted nothing with it).
    @Test func aFixWithoutAccuracyKeepsTheAccuracyThreshold() {
        var errors = Self.whiteNoise(sigma: 3)
        errors.accuracyAbsentProbability = 1
        let track = Simulator.simulate(.stationary, errors: errors, delivery: DeliveryModel(), seed: 1)
        var tracker = Tracker(profile: .walking)
        var decisions: [FixDecision] = []
        for batch in track.batches { decisions += tracker.process(batch: batch) }
        let judged = decisions.filter { $0.netDisplacementThresholdMetres > 0 }
        #expect(!judged.isEmpty)
        for decision in judged {
            #expect(
                decision.netDisplacementThresholdMetres
                    == TrackingProfile.walking.netDisplacementBaseMetres
                    + TrackingProfile.walking.netDisplacementAccuracyFactor
                    * TrackingProfile.walking.assumedDisplacementAccuracyMetres)
        }
    }

    /// With a reported accuracy the decision reports the raised threshold: never below the accuracy threshold
    /// the same fixes get without the floor (the filter, and so that threshold, does not depend on the gate
    /// here: no Doppler, no vehicle), and above it on a white-noise desk.
    @Test func theDecisionReportsTheRaisedThreshold() {
        let track = Simulator.simulate(
            .stationary, errors: Self.whiteNoise(sigma: 3), delivery: DeliveryModel(), seed: 1)
        var withoutFloor = TrackingProfile.walking
        withoutFloor.netDisplacementNoiseSigmas = 0
        var floored = Tracker(profile: .walking), plain = Tracker(profile: withoutFloor)
        var raised = 0, judged = 0
        for batch in track.batches {
            for (a, b) in zip(floored.process(batch: batch), plain.process(batch: batch))
            where b.netDisplacementThresholdMetres > 0 {
                judged += 1
                #expect(a.netDisplacementThresholdMetres >= b.netDisplacementThresholdMetres)
                if a.netDisplacementThresholdMetres > b.netDisplacementThresholdMetres + 1 { raised += 1 }
            }
        }
        #expect(judged > 500)
        #expect(raised > judged / 2, "\(raised) of \(judged)")
    }
}
