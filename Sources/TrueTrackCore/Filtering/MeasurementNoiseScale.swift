/// Estimates, from the filter's own innovations, how much of a fix's reported variance is white noise.
///
/// ## Why
/// A reported accuracy is a 68 % bound on the absolute error. Most of that error is a slowly varying bias
/// (multipath geometry, atmosphere, the provider's own smoothing) that is nearly the same on consecutive
/// fixes and cancels in every displacement; only the fix-to-fix white part blurs motion. Measured on the seven
/// stationary recordings: 1 s error increments of 0.00-0.26 m per axis for errors of 0.1-3.9 m rms; on the
/// GSDC drives the white part is 0.17-0.25 m for a reported 1.9 m. A Kalman filter fed the whole reported
/// variance as white noise averages real movement away: it lags, cuts a slow walker's corners and under-reads
/// the speed it integrates into distance.
///
/// ## How (covariance matching, Mehra 1972; Bar-Shalom, Li & Kirubarajan 2001, §11.7)
/// When the model holds, a position innovation ν (per axis) has E[ν²] = P⁻ + r, with P⁻ the predicted
/// position variance. Averaging over recent fixes, r_white ≈ mean(ν²) − mean(P⁻); the scale is
/// r_white / mean(r_reported), clamped to [``TrackingProfile/minimumMeasurementNoiseScale``, 1]: the filter
/// never assumes noisier fixes than reported (bigger innovations are the outlier gate's business) and never
/// trusts a pinned position absolutely. The average is exponential over
/// ``TrackingProfile/measurementNoiseScaleFixes`` fixes (a plain mean until that many have been seen).
/// The outlier gate and the net-displacement threshold keep using the reported accuracy: they judge
/// absolute position, which the bias does affect.
///
/// The tracker records an innovation only when the predicted variance is at most the fix's reported one
/// (P⁻ ≤ r): then r is at least half of the innovation variance and ν² − P⁻ measures it; with P⁻ ≫ r (the
/// transient after an anchor or a gap, a large process noise) the difference is dominated by its own scatter.
/// In practice the adaptation runs where the prediction is good: walks with Doppler velocity updates, fixes
/// with coarse or absent accuracy; drives with the driving profile's σₐ = 8 m/s² and accuracies of a few
/// metres, and walks of 5 m fixes without Doppler, keep the reported noise (measured: GSDC unchanged).
///
/// ## Limits
/// - Innovations cannot tell an error that wanders from slow motion: an error whose 1 s increments are as
///   large as a walker's steps would be followed. The simulator's first error model (τ = 30-60 s, increments
///   of 0.85-1.44 m per second) showed it (+27-49 % on its walks); no real receiver here is that rough.
/// - A logger without accuracy (30 m assumed) whose fixes carry white noise of 1-2 m per axis is adapted down
///   to that noise, which is right for its positions, but the norm of the noisier velocity then biases the
///   integrated speed upwards (+5 % at 1 m, +26 % at 2 m on a simulated 1 m/s walk; review of 2026-11-29).
///   The real logger of that kind here (GeoLife) moves smoothly and gains from the adaptation (−22 % → −18 %).
public struct MeasurementNoiseScale: Sendable, BitwiseCopyable, Hashable {
    /// The share of the reported per-axis variance used for position updates, in
    /// [``TrackingProfile/minimumMeasurementNoiseScale``, 1]; 1 until ``minimumSamples`` innovations are in.
    @inlinable public var scale: Double {
        @inline(__always) get { storedScale }
    }
    /// Innovations recorded so far.
    @inlinable public var samples: Double { storedSamples }
    // Storage is `@usableFromInline internal` so that ``record(squaredInnovationMetres:predictedVariance:reportedVariance:profile:)``
    // can be `@inlinable`: it runs on the Tracker's per-fix path, where an out-of-line call costs a few ns.
    /// See ``scale``.
    @usableFromInline var storedScale = 1.0
    /// Mean per-axis squared innovation, m².
    @usableFromInline var meanSquaredInnovation = 0.0
    /// Mean predicted per-axis position variance, m².
    @usableFromInline var meanPredictedVariance = 0.0
    /// Mean reported per-axis measurement variance, m².
    @usableFromInline var meanReportedVariance = 0.0
    /// See ``samples``.
    @usableFromInline var storedSamples = 0.0

    /// The number of innovations before the scale leaves 1 (five: fewer cannot tell noise from a χ² tail).
    public static let minimumSamples = 5.0

    /// Creates an estimate that starts at the reported noise (scale 1).
    @inlinable
    public init() {}

    /// Records one accepted fix's innovation.
    ///
    /// - Parameters:
    ///   - squaredInnovationMetres: Δeast² + Δnorth² between the fix and the predicted position, m².
    ///   - predictedVariance: the predicted per-axis position variance P⁻, m².
    ///   - reportedVariance: the fix's per-axis variance from its reported accuracy, m².
    ///   - profile: supplies the floor and the averaging length.
    @inlinable @inline(__always)
    public mutating func record(
        squaredInnovationMetres: Double, predictedVariance: Double, reportedVariance: Double,
        profile: TrackingProfile
    ) {
        storedSamples += 1
        let weight = 1 / min(storedSamples, max(profile.measurementNoiseScaleFixes, 1))
        meanSquaredInnovation += weight * (squaredInnovationMetres / 2 - meanSquaredInnovation)
        meanPredictedVariance += weight * (predictedVariance - meanPredictedVariance)
        meanReportedVariance += weight * (reportedVariance - meanReportedVariance)
        guard storedSamples >= Self.minimumSamples, meanReportedVariance > 0 else { return }
        let ratio = (meanSquaredInnovation - meanPredictedVariance) / meanReportedVariance
        // A non-finite floor turns the adaptation off rather than letting a NaN through the clamps.
        let floor =
            profile.minimumMeasurementNoiseScale.isFinite
            ? min(max(profile.minimumMeasurementNoiseScale, 0), 1) : 1
        storedScale = ratio.isNaN ? floor : min(max(ratio, floor), 1)
    }
}
