import TrueTrackCore

/// How a simulated receiver errs.
///
/// Position error is a first-order Gauss–Markov process per axis, e(t+dt) = φ e(t) + √(1 − φ²) σ w with
/// φ = exp(−dt/τ), plus a small white part: errors drift rather than jump, which is what makes summed
/// distances of a still phone grow and what a white-noise model misses. Its per-axis σ matches the reported
/// 68 % radius (σ = r / 1.50959), so the reported accuracy is honest, except for multipath jumps, which keep
/// claiming the usual accuracy.
///
/// ## Calibration (measured on the seven stationary recordings of `../shared/datasets`)
/// Per axis, the 1 s increments of the real position errors are 0.00-0.26 m (median about 0.06 m) for error
/// levels of 0.1-3.9 m rms, and consecutive errors correlate at 0.87-0.999: errors wander over minutes. A
/// Gauss–Markov error has 1 s increments of σ·√(2/τ); the defaults below (τ = 300 s) give 0.27 m for the clean
/// phone and 0.65 m for the degraded one, rougher than any recording (the first versions used τ = 30-60 s,
/// i.e. 0.85-1.44 m per second, three to twenty times rougher than any real receiver here). The white part
/// (0.2 m) is what the GSDC Pixel 4 and 4 XL show against their SPAN truth (0.17-0.25 m per axis).
public struct ErrorModel: Sendable, Hashable {
    /// The reported 68 % horizontal radius, metres.
    public var accuracyMetres: Double
    /// Gauss–Markov correlation time τ of the position error, seconds.
    public var correlationSeconds: Double
    /// Per-axis standard deviation of the white part of the position error, metres. Default 0.2 m: what the
    /// GSDC Pixel 4 and 4 XL show against their SPAN truth (0.17-0.25 m per axis). Set it after `init` (the
    /// initialiser keeps its earlier parameters so existing callers read the same).
    public var whiteSigmaMetres: Double = 0.2
    /// Probability per fix of a multipath jump.
    public var multipathProbability: Double
    /// Size of a multipath jump, metres (random direction); the fix still reports ``accuracyMetres``.
    public var multipathMetres: Double
    /// Doppler speed noise σ, m/s.
    public var speedSigma: Double
    /// Course noise σ, degrees.
    public var courseSigmaDegrees: Double
    /// Probability per fix that the speed is absent.
    public var speedAbsentProbability: Double
    /// Probability per fix that the speed is −1 (iOS "unknown"; normalised to absent by `Fix`).
    public var speedMinusOneProbability: Double
    /// Probability per moving fix that the speed reads exactly 0 (the Samsung phones of `ipin2023-walk`).
    public var zeroSpeedWhileMovingProbability: Double
    /// Probability per fix that the accuracy is absent.
    public var accuracyAbsentProbability: Double
    /// Probability per fix that the accuracy is reported as 0 (invalid).
    public var accuracyInvalidProbability: Double
    /// Attach the truth's activity to each fix with this confidence (0–100), or `nil` for no activity.
    public var activityConfidence: Int?

    /// Creates an error model; every value defaults to a clean phone outdoors.
    public init(
        accuracyMetres: Double = 5, correlationSeconds: Double = 300, multipathProbability: Double = 0,
        multipathMetres: Double = 60, speedSigma: Double = 0.15, courseSigmaDegrees: Double = 8,
        speedAbsentProbability: Double = 0, speedMinusOneProbability: Double = 0,
        zeroSpeedWhileMovingProbability: Double = 0, accuracyAbsentProbability: Double = 0,
        accuracyInvalidProbability: Double = 0, activityConfidence: Int? = nil
    ) {
        self.accuracyMetres = accuracyMetres
        self.correlationSeconds = correlationSeconds
        self.multipathProbability = multipathProbability
        self.multipathMetres = multipathMetres
        self.speedSigma = speedSigma
        self.courseSigmaDegrees = courseSigmaDegrees
        self.speedAbsentProbability = speedAbsentProbability
        self.speedMinusOneProbability = speedMinusOneProbability
        self.zeroSpeedWhileMovingProbability = zeroSpeedWhileMovingProbability
        self.accuracyAbsentProbability = accuracyAbsentProbability
        self.accuracyInvalidProbability = accuracyInvalidProbability
        self.activityConfidence = activityConfidence
    }

    /// A clean phone outdoors: 5 m, τ 300 s, good Doppler.
    public static let cleanPhone = ErrorModel()

    /// A degraded phone (urban canyon): 12 m, τ 300 s, 1 % multipath jumps of 60 m, speed absent 5 %,
    /// −1 2 %, zero while moving 25 % (Samsung-style).
    public static let degradedPhone = ErrorModel(
        accuracyMetres: 12, correlationSeconds: 300, multipathProbability: 0.01, speedSigma: 0.3,
        courseSigmaDegrees: 15, speedAbsentProbability: 0.05, speedMinusOneProbability: 0.02,
        zeroSpeedWhileMovingProbability: 0.25, accuracyAbsentProbability: 0.01, accuracyInvalidProbability: 0.01)

    /// A car receiver: 2 m, τ 60 s (1 s increments 0.24 m per axis, as the GSDC phones'), precise Doppler.
    public static let carReceiver = ErrorModel(
        accuracyMetres: 2, correlationSeconds: 60, speedSigma: 0.05,
        courseSigmaDegrees: 1)
}

/// How fixes reach the tracker.
public struct DeliveryModel: Sendable, Hashable {
    /// Fixes per delivered batch (1 = live, one at a time).
    public var batchSize: Int
    /// Probability that a fix within a batch swaps places with its neighbour (out-of-order delivery).
    public var swapProbability: Double
    /// Probability that a fix is delivered twice in a row.
    public var duplicateProbability: Double

    /// Creates a delivery model (default: live, in order, no duplicates).
    public init(batchSize: Int = 1, swapProbability: Double = 0, duplicateProbability: Double = 0) {
        self.batchSize = max(1, batchSize)
        self.swapProbability = swapProbability
        self.duplicateProbability = duplicateProbability
    }

    /// A locked phone: batches of 30, 5 % swapped, 5 % duplicated.
    public static let lockedPhone = DeliveryModel(batchSize: 30, swapProbability: 0.05, duplicateProbability: 0.05)
}

/// A simulated recording: truth, the fixes as delivered, and the batches.
public struct SimulatedTrack: Sendable {
    /// The scenario simulated.
    public var scenario: Scenario
    /// The truth at every sample instant (including tunnel instants without a fix).
    public var truth: [TruthPoint]
    /// The fixes in delivery order (may include duplicates and swaps).
    public var fixes: [Fix]
    /// The same fixes grouped into delivered batches.
    public var batches: [[Fix]]
    /// The exact distance travelled, metres.
    public var truthDistanceMetres: Double { scenario.truthDistanceMetres }
}

/// Simulates a receiver on a scenario, reproducibly from a seed.
public enum Simulator {
    /// Simulates `scenario` with `errors` and `delivery`; the same seed gives the same track, bit for bit.
    public static func simulate(
        _ scenario: Scenario, errors: ErrorModel = .cleanPhone, delivery: DeliveryModel = DeliveryModel(),
        seed: UInt64
    ) -> SimulatedTrack {
        var rng = SplitMix64(seed: seed)
        var whiteRNG = SplitMix64(seed: seed ^ 0x5757_4849_5445_0001)
        let truth = scenario.truth()
        let sigma = errors.accuracyMetres / MeasurementNoise.radius68PerSigma
        let phi = exp(-scenario.intervalSeconds / max(errors.correlationSeconds, 1e-9))
        let drive = (1 - phi * phi).squareRoot() * sigma
        var errEast = rng.gaussian() * sigma, errNorth = rng.gaussian() * sigma
        let metresPerDegreeNorth = 111_200.0
        let metresPerDegreeEast = 111_200.0 * cos(scenario.originLatitude * .pi / 180)
        var produced: [Fix] = []
        produced.reserveCapacity(truth.count)
        for point in truth {
            errEast = phi * errEast + drive * rng.gaussian()
            errNorth = phi * errNorth + drive * rng.gaussian()
            guard point.hasSignal else { continue }
            // The white part draws from its own stream, so the other draws stay what they were without it.
            var e = errEast + errors.whiteSigmaMetres * whiteRNG.gaussian()
            var n = errNorth + errors.whiteSigmaMetres * whiteRNG.gaussian()
            if rng.chance(errors.multipathProbability) {
                let a = rng.uniform() * 2 * .pi
                e += errors.multipathMetres * sin(a)
                n += errors.multipathMetres * cos(a)
            }
            // The truth's latitude/longitude use the exact ellipsoid; the error is small, so a spherical
            // metres-per-degree is precise enough for it.
            let lat = point.latitude + n / metresPerDegreeNorth
            let lon = Scenario.normalizedLongitude(point.longitude + e / metresPerDegreeEast)
            var accuracy: Double? = errors.accuracyMetres * (0.9 + 0.2 * rng.uniform())
            if rng.chance(errors.accuracyAbsentProbability) {
                accuracy = nil
            } else if rng.chance(errors.accuracyInvalidProbability) {
                accuracy = 0
            }
            // A receiver at rest holds its Doppler speed near zero (measured on the stationary recordings: mean
            // 0.005-0.05 m/s), so the noise at rest is capped at 0.05 m/s.
            let speedSigma = point.speedMetresPerSecond > 0 ? errors.speedSigma : min(errors.speedSigma, 0.05)
            var speed: Double? = max(0, point.speedMetresPerSecond + speedSigma * rng.gaussian())
            var course: Double? =
                point.speedMetresPerSecond > 0
                ? (point.headingDegrees + errors.courseSigmaDegrees * rng.gaussian() + 360)
                    .truncatingRemainder(dividingBy: 360)
                : nil
            if point.speedMetresPerSecond > 0 && rng.chance(errors.zeroSpeedWhileMovingProbability) {
                speed = 0
                course = nil
            }
            if rng.chance(errors.speedAbsentProbability) {
                speed = nil; course = nil
            } else if rng.chance(errors.speedMinusOneProbability) {
                speed = -1; course = nil
            }
            let activity = errors.activityConfidence.map { ActivityReading(kind: point.activity, confidence: $0) }
            // Every fix is valid (longitudes reduced, latitudes kept off the poles by `Scenario.truth()`): one that is
            // not is a bug, not a fix to leave out (dropped silently, a walk across the antimeridian kept 96 of 721).
            let fix: Fix
            do {
                fix = try Fix(
                    timestamp: point.timestamp, latitude: lat, longitude: lon, horizontalAccuracyMetres: accuracy,
                    speedMetresPerSecond: speed, courseDegrees: course, provider: .gps, activity: activity)
            } catch {
                preconditionFailure("Simulator: the fix at \(lat)°, \(lon)° is invalid: \(error)")
            }
            produced.append(fix)
        }
        // Delivery: duplicates, swaps within batches, batching.
        var delivered: [Fix] = []
        delivered.reserveCapacity(produced.count)
        for fix in produced {
            delivered.append(fix)
            if rng.chance(delivery.duplicateProbability) { delivered.append(fix) }
        }
        var batches: [[Fix]] = []
        var start = 0
        while start < delivered.count {
            let end = min(start + delivery.batchSize, delivered.count)
            var batch = Array(delivered[start..<end])
            if batch.count > 1 {
                for i in 0..<(batch.count - 1) where rng.chance(delivery.swapProbability) { batch.swapAt(i, i + 1) }
            }
            batches.append(batch)
            start = end
        }
        return SimulatedTrack(scenario: scenario, truth: truth, fixes: batches.flatMap { $0 }, batches: batches)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
