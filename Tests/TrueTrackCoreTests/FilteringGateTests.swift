import Foundation
import Glibc
import Testing
import TrueTrackCore

@Suite struct ConstantVelocityFilterTests {
    @Test func predictsWithWhiteAccelerationNoise() {
        var f = ConstantVelocityFilter(
            east: 1, north: 2, velocityEast: 3, velocityNorth: -1, positionVariance: 4,
            velocityVariance: 1)
        f.predict(seconds: 2, accelerationVariance: 0.25)
        // p = 1 + 3·2, 2 − 1·2; P00 = 4 + 2·2·0 + 4·1 + 0.25·8/3; P01 = 0 + 2·1 + 0.25·4/2; P11 = 1 + 0.25·2
        #expect(f.east == 7 && f.north == 0)
        #expect(abs(f.positionVariance - (8 + 2.0 / 3)) < 1e-12)
        #expect(abs(f.positionVelocityCovariance - 2.5) < 1e-12)
        #expect(abs(f.velocityVariance - 1.5) < 1e-12)
    }

    @Test func ignoresNonPositiveTimeStep() {
        var f = ConstantVelocityFilter(east: 1, north: 2, velocityEast: 3, positionVariance: 4, velocityVariance: 1)
        let before = f
        f.predict(seconds: 0, accelerationVariance: 1)
        f.predict(seconds: -5, accelerationVariance: 1)
        #expect(f == before)
    }

    @Test func positionUpdateMatchesHandWorkedGain() {
        var f = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 9, velocityVariance: 1)
        f.positionVelocityCovariance = 3
        f.updatePosition(east: 4, north: -2, variance: 3)
        // S = 12, K = (0.75, 0.25): p = 3, −1.5; v = 1, −0.5
        #expect(f.east == 3 && f.north == -1.5 && f.velocityEast == 1 && f.velocityNorth == -0.5)
        // Joseph: P00 = 0.25²·9 + 0.75²·3 = 2.25; P01 = 0.25(3 − 0.25·9) + 0.75·0.25·3 = 0.75;
        // P11 = 1 − 2·0.25·3 + 0.0625·9 + 0.0625·3 = 0.25
        #expect(abs(f.positionVariance - 2.25) < 1e-12)
        #expect(abs(f.positionVelocityCovariance - 0.75) < 1e-12)
        #expect(abs(f.velocityVariance - 0.25) < 1e-12)
    }

    @Test func velocityUpdateMovesVelocityTowardsMeasurement() {
        var f = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 4, velocityVariance: 1)
        f.updateVelocity(east: 2, north: 0, variance: 1)
        #expect(f.velocityEast == 1 && f.velocityNorth == 0)
        #expect(abs(f.velocityVariance - 0.5) < 1e-12)
        #expect(f.positionVariance == 4)
    }

    @Test func covarianceStaysPositiveDefiniteOverManySteps() {
        var f = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 100, velocityVariance: 10)
        var x: UInt64 = 42
        for i in 0..<10_000 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let u = Double(x >> 11) * 0x1.0p-53
            f.predict(seconds: 0.1 + u * 5, accelerationVariance: 1)
            f.updatePosition(east: Double(i) + u, north: u, variance: 1e-6 + u * 100)
            if i % 3 == 0 { f.updateVelocity(east: 1, north: 0, variance: 1e-8 + u) }
            #expect(f.positionVariance > 0 && f.velocityVariance > 0)
            #expect(
                f.positionVariance * f.velocityVariance - f.positionVelocityCovariance * f.positionVelocityCovariance
                    > -1e-9 * f.positionVariance * f.velocityVariance)
            if !f.east.isFinite { Issue.record("non-finite state"); break }
        }
    }

    @Test func innovationIsNormalisedByPredictedAndMeasurementVariance() {
        let f = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 6, velocityVariance: 1)
        #expect(f.normalisedInnovation(east: 3, north: 4, variance: 4) == 2.5)
    }
}

@Suite struct GateTests {
    let walking = TrackingProfile.walking

    @Test func convertsA68PercentRadiusToPerAxisSigma() {
        // 1 − exp(−ρ²/2σ²) = 0.68 at ρ = 1.50959σ
        let rho = MeasurementNoise.radius68PerSigma
        let inside: Double = 1 - exp(-rho * rho / 2)
        #expect(abs(inside - 0.68) < 1e-12)
        #expect(abs(MeasurementNoise.perAxisSigma(radius68: 15.095921854516634) - 10) < 1e-12)
        #expect(abs(MeasurementNoise.perAxisVariance(radius68: 15.095921854516634) - 100) < 1e-9)
    }

    @Test func accuracyGateRejectsInvalidAndCoarseAndAssumesMissing() {
        #expect(AccuracyGate.evaluate(.metres(30), profile: walking) == .accepted(metres: 30, isAssumed: false))
        #expect(AccuracyGate.evaluate(.metres(30.5), profile: walking) == .rejected)
        #expect(AccuracyGate.evaluate(.invalid, profile: walking) == .rejected)
        #expect(AccuracyGate.evaluate(.absent, profile: walking) == .accepted(metres: 30, isAssumed: true))
    }

    @Test func speedGatePrefersDopplerAndDiscountsAccuracyWhenDeriving() {
        let d = SpeedGate.speed(doppler: 1.2, displacementMetres: 100, seconds: 1, accuracy: 5, previousAccuracy: 5)
        #expect(d.metresPerSecond == 1.2 && d.source == .doppler)
        // (25 − √(3² + 4²)) / 2 = 10
        let v = SpeedGate.speed(doppler: nil, displacementMetres: 25, seconds: 2, accuracy: 3, previousAccuracy: 4)
        #expect(v.metresPerSecond == 10 && v.source == .derived)
        #expect(
            SpeedGate.speed(doppler: nil, displacementMetres: 4, seconds: 0, accuracy: 3, previousAccuracy: 4)
                .metresPerSecond == 0)
        #expect(SpeedGate.passes(8, profile: walking) && !SpeedGate.passes(8.01, profile: walking))
    }

    @Test func integratesSpeedWithDeadbandCeilingAndClamp() {
        #expect(SpeedIntegration.increment(speed: 1.5, seconds: 2, profile: walking) == 3)
        #expect(SpeedIntegration.increment(speed: 0.29, seconds: 2, profile: walking) == 0)
        #expect(SpeedIntegration.increment(speed: 20, seconds: 1, profile: walking) == 8)
        #expect(SpeedIntegration.increment(speed: 1, seconds: 60, profile: walking) == 10)
        #expect(SpeedIntegration.increment(speed: .nan, seconds: 1, profile: walking) == 0)
        #expect(SpeedIntegration.increment(speed: 1, seconds: -1, profile: walking) == 0)
    }

    @Test func netDisplacementThresholdGrowsWithAccuracy() {
        #expect(NetDisplacementGate.threshold(meanAccuracy: 5, profile: walking) == 7)
        #expect(NetDisplacementGate.threshold(meanAccuracy: 20, profile: walking) == 22)
        #expect(NetDisplacementGate.isMoving(netDisplacement: 7.1, threshold: 7))
        #expect(!NetDisplacementGate.isMoving(netDisplacement: 7, threshold: 7))
    }

    @Test func dopplerCheckDistrustsAShortDopplerPath() {
        // Position path 20 m beyond a 7 m threshold: Doppler must cover ≥ 0.7 × 20 = 14 m.
        #expect(
            !DopplerCheck.isTrusted(
                dopplerPathMetres: 9, positionPathMetres: 20, thresholdMetres: 7,
                sessionDopplerPathMetres: 0, sessionPositionPathMetres: 0, profile: walking))
        #expect(
            DopplerCheck.isTrusted(
                dopplerPathMetres: 14, positionPathMetres: 20, thresholdMetres: 7,
                sessionDopplerPathMetres: 0, sessionPositionPathMetres: 0, profile: walking))
        // A position path within the noise says nothing against the Doppler speed.
        #expect(
            DopplerCheck.isTrusted(
                dopplerPathMetres: 0, positionPathMetres: 6, thresholdMetres: 7,
                sessionDopplerPathMetres: 0, sessionPositionPathMetres: 0, profile: walking))
        // Once the session holds ≥ 20 m of moving evidence, the session ratio decides, not the window.
        #expect(
            !DopplerCheck.isTrusted(
                dopplerPathMetres: 0, positionPathMetres: 6, thresholdMetres: 7,
                sessionDopplerPathMetres: 40, sessionPositionPathMetres: 100, profile: walking))
        #expect(
            DopplerCheck.isTrusted(
                dopplerPathMetres: 9, positionPathMetres: 20, thresholdMetres: 7,
                sessionDopplerPathMetres: 95, sessionPositionPathMetres: 100, profile: walking))
    }

    @Test func motionGateIsTriState() {
        let still = ActivityReading(kind: .still, confidence: 90)
        #expect(MotionGate.verdict(still, ageSeconds: 1, profile: walking) == .still)
        #expect(
            MotionGate.verdict(ActivityReading(kind: .still, confidence: 50), ageSeconds: 1, profile: walking)
                == .uncertain)
        #expect(MotionGate.verdict(still, ageSeconds: 61, profile: walking) == .uncertain)
        #expect(MotionGate.verdict(nil, ageSeconds: 0, profile: walking) == .uncertain)
        #expect(
            MotionGate.verdict(ActivityReading(kind: .unknown, confidence: 100), ageSeconds: 0, profile: walking)
                == .uncertain)
        let bus = ActivityReading(kind: .inVehicle, confidence: 80)
        #expect(MotionGate.verdict(bus, ageSeconds: 0, profile: walking) == .moving)
        #expect(MotionGate.excludes(bus, ageSeconds: 0, profile: walking))
        #expect(!MotionGate.excludes(bus, ageSeconds: 0, profile: .driving))
        #expect(!MotionGate.excludes(ActivityReading(kind: .walking, confidence: 100), ageSeconds: 0, profile: walking))
    }

    @Test func activityMaskHoldsEachKind() {
        var mask: ActivityMask = []
        for kind in ActivityKind.allCases {
            #expect(!mask.contains(kind))
            mask.insert(ActivityMask(kind))
            #expect(mask.contains(kind))
        }
    }
}

@Suite struct DistanceAccumulatorTests {
    @Test func addsOnlyPositiveFiniteAmountsBySource() {
        var a = DistanceAccumulator()
        a.add(3, source: .doppler)
        a.add(2, source: .filtered)
        a.add(-1, source: .doppler)
        a.add(.nan, source: .doppler)
        a.add(.infinity, source: .derived)
        #expect(a.totalMetres == 5 && a.dopplerMetres == 3 && a.filteredMetres == 2 && a.derivedMetres == 0)
    }

    @Test func restoreKeepsTheLargerTotal() {
        var a = DistanceAccumulator()
        a.add(10, source: .doppler)
        a.restore(persistedTotalMetres: 4)
        #expect(a.totalMetres == 10)
        a.restore(persistedTotalMetres: 25)
        #expect(a.totalMetres == 25 && a.restoredMetres == 15)
        a.restore(persistedTotalMetres: .nan)
        #expect(a.totalMetres == 25)
    }

    /// A persisted total past a million kilometres is a damaged store, ignored as a NaN is: the tracker kept 10¹⁵ m,
    /// its own checkpoint could then not be resumed, and the session store kept 0 (an API tester).
    @Test func restoreIgnoresATotalNoTravelReaches() throws {
        var tracker = Tracker()
        tracker.restore(persistedTotalMetres: 1e15)
        #expect(tracker.distance.totalMetres == 0)
        tracker.restore(persistedTotalMetres: DistanceAccumulator.maximumRestoredMetres)
        #expect(tracker.distance.totalMetres == 1e9)
        let resumed = try Tracker(resuming: tracker.checkpoint())
        #expect(resumed.distance.totalMetres == 1e9)
    }

    @Test func mergeKeepsTheLargerStateWholeAndResetZeroes() {
        var a = DistanceAccumulator(), b = DistanceAccumulator()
        a.add(10, source: .doppler)
        b.add(4, source: .doppler)
        b.add(8, source: .filtered)
        a.merge(b)
        // The larger total with its own breakdown, which adds up to it.
        #expect(a == b)
        #expect(a.dopplerMetres + a.derivedMetres + a.filteredMetres + a.restoredMetres == a.totalMetres)
        a.merge(b)
        #expect(a == b)  // idempotent
        var c = DistanceAccumulator()
        c.add(5, source: .doppler)
        a.merge(c)
        #expect(a == b)  // a smaller state changes nothing
        a.reset()
        #expect(a == DistanceAccumulator())
        // Equal totals: this state stays.
        var d = DistanceAccumulator(), e = DistanceAccumulator()
        d.add(6, source: .doppler)
        d.add(4, source: .filtered)
        e.add(4, source: .doppler)
        e.add(6, source: .filtered)
        d.merge(e)
        #expect(d.dopplerMetres == 6 && d.filteredMetres == 4 && d.totalMetres == 10)
    }

    @Test func addingNeverOverflowsTheTotal() {
        var a = DistanceAccumulator()
        a.add(1e308, source: .doppler)
        a.add(1e308, source: .filtered)
        #expect(a.totalMetres == 1e308 && a.filteredMetres == 0)
    }

    @Test("decodes what it encodes, and refuses figures no accumulator reaches")
    func decodingChecksTheFigures() throws {
        var a = DistanceAccumulator()
        a.add(0.1, source: .doppler)
        a.add(0.2, source: .derived)
        a.add(0.3, source: .filtered)
        a.restore(persistedTotalMetres: 1234.5678)
        for _ in 0..<1000 { a.add(0.7, source: .doppler) }
        let encoded = try JSONEncoder().encode(a)
        #expect(try JSONDecoder().decode(DistanceAccumulator.self, from: encoded) == a)
        func decodes(_ json: String) -> Bool {
            (try? JSONDecoder().decode(DistanceAccumulator.self, from: Data(json.utf8))) != nil
        }
        let parts = "\"derivedMetres\": 0, \"filteredMetres\": 0, \"restoredMetres\": 0"
        #expect(decodes("{\"totalMetres\": 5, \"dopplerMetres\": 5, \(parts)}"))
        #expect(!decodes("{\"totalMetres\": -5, \"dopplerMetres\": 0, \(parts)}"))
        #expect(!decodes("{\"totalMetres\": 5, \"dopplerMetres\": 1e308, \(parts)}"))
        #expect(!decodes("{\"totalMetres\": 5, \"dopplerMetres\": -1, \(parts)}"))
    }
}
