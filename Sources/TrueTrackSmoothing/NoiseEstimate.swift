/// The noise parameters a smoothed track was computed with, and whether they were estimated from the track
/// itself (``SmoothingOptions/estimatesNoise``).
///
/// ## Estimation (expectation–maximisation)
/// The model's three free noise parameters are scalars over the whole track: a factor on every fix's
/// reported accuracy (phones report a 68 % radius that is often several times their actual error, and the
/// smoother then over-smooths), a factor on every Doppler velocity's σ, and the acceleration noise σₐ.
/// Expectation–maximisation for linear-Gaussian state-space models (Shumway & Stoffer 1982) alternates the
/// smoother (E-step: the posterior mean and the band of the posterior covariance, from the same banded
/// Cholesky factor by selected inversion) with closed-form updates (M-step):
///
/// - accuracy scale²: (1 / 2M) Σₘ wₘ (‖zₘ − x̂ₘ‖² + 2 Pₘ) / rₘ over the M position fixes, with rₘ the
///   per-axis variance at the current scale, Pₘ the per-axis posterior variance of the fix's state and wₘ its
///   robust weight — the EM update of a scale mixture such as the Student-t, which the Cauchy weights
///   approximate, so a multipath jump does not inflate the scale;
/// - Doppler scale²: the same over the velocity measurements;
/// - σₐ² = q: (1 / 4K) Σₖ E[εₖᵀ Q̃ₖ⁻¹ εₖ] over the K links of the track (2 axes × 2 components each), with
///   εₖ = xₖ₊₁ − F xₖ the link's process residual and Q̃ₖ its covariance per unit density.
///
/// Each round is one more solve (the robust weights keep settling in the same solves). The rounds stop once
/// every parameter moved by less than 1 % (of its variance) in a round, or after
/// ``SmoothingOptions/maximumEstimationRounds``; the track is the one computed with the parameters reported
/// here. A track shorter than ``minimumStates`` states keeps the given parameters: a few fixes do not
/// determine three variances.
///
/// What EM fits is the white-noise model: a slowly varying bias of the fixes (a phone's own filtered
/// solution) is partly read as motion, so the estimated accuracy scale is the *white* part of the error.
public struct NoiseEstimate: Sendable, Hashable {
    /// The factor applied to every fix's reported accuracy, dimensionless (1: the accuracy as reported).
    public var accuracyScale: Double
    /// The factor applied to every Doppler velocity's σ, dimensionless.
    public var dopplerScale: Double
    /// The white-acceleration standard deviation σₐ of the constant-velocity model, m/s².
    public var accelerationSigma: Double
    /// The σₐ of a step into a fix without a speed reading that reports its accuracy, m/s²: the profile's
    /// ``SmoothingOptions/accelerationSigmaWithoutDoppler`` where lower than σₐ (and estimated with it, in the
    /// same ratio) when the track has such a step, else ``accelerationSigma``. On a track whose fixes report their
    /// accuracy but no speed, every step was smoothed with it.
    public var accelerationSigmaWithoutDoppler: Double
    /// Expectation–maximisation rounds performed (0 when the parameters were given, not estimated).
    public var rounds: Int
    /// Whether the parameters were estimated from the track.
    public var isEstimated: Bool
    /// Whether a factor ran into ``factorRange`` in the last round: the white-noise model is degenerate
    /// for this track (typically a time-correlated fix error read as motion) and the estimate is the rail's.
    public var isLimited = false

    /// Creates a parameter set; `accelerationSigmaWithoutDoppler` `nil` means `accelerationSigma`.
    public init(
        accuracyScale: Double, dopplerScale: Double, accelerationSigma: Double,
        accelerationSigmaWithoutDoppler: Double? = nil, rounds: Int, isEstimated: Bool
    ) {
        self.accuracyScale = accuracyScale
        self.dopplerScale = dopplerScale
        self.accelerationSigma = accelerationSigma
        self.accelerationSigmaWithoutDoppler = accelerationSigmaWithoutDoppler ?? accelerationSigma
        self.rounds = rounds
        self.isEstimated = isEstimated
    }

    /// The fewest states a track needs for its noise to be estimated: 30 (half a minute at 1 Hz). Below,
    /// the three variances are barely determined and the given parameters are kept.
    public static let minimumStates = 30

    /// The range each estimated factor (accuracy scale, Doppler scale, σₐ relative to the profile's) is kept
    /// in: 1/20 … 20. A safety rail, not a prior: a degenerate track (a receiver that repeats one position) must
    /// not drive a variance to zero or infinity. The accuracy scale of the phone recordings does reach it (their
    /// error is a bias EM reads as motion; see `truetrack bench`), which is why estimation is off by default.
    public static let factorRange: ClosedRange<Double> = 0.05...20

    /// A round's largest change of any variance (as |ln ratio|) below which the rounds stop: 0.01 (1 %).
    static let convergenceLogRatio = 0.01
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension WholeTrackSmoother {
    /// The M-step (see ``NoiseEstimate``): the factors by which the position and velocity variances and the
    /// process density should be multiplied, from the solution `x` (in the band's layout) and the posterior
    /// moments of the factor that produced it.
    static func maximisationStep(
        _ p: TrackProblem, solution x: [Double],
        moments: (
            positionVariance: [Double], velocityVariance: [Double],
            linkTrace: Double
        ),
        positionWeights: [Double], velocityWeights: [Double]
    ) -> (position: Double, velocity: Double, process: Double) {
        let order = x.count / 2
        var positionFactor = 1.0, velocityFactor = 1.0, processFactor = 1.0
        x.withUnsafeBufferPointer { x in
            let m = p.positionState.count
            if m > 0 {
                var total = 0.0
                for i in 0..<m {
                    let s = p.positionState[i], c = 2 * s
                    let de = p.positionEast[i] - x[c], dn = p.positionNorth[i] - x[order + c]
                    total +=
                        positionWeights[i] * (de * de + dn * dn + 2 * moments.positionVariance[s])
                        / p.positionVariance[i]
                }
                positionFactor = total / Double(2 * m)
            }
            // Degrees of freedom: two per velocity, one per speed-only measurement (its residual lies along its
            // direction: across it, it is zero by construction, and counting two halved the Doppler scale, a
            // reviewer: 0.42 without a course against 0.65 with one on a walk where the model holds exactly).
            var degrees = 0
            var velocityTotal = 0.0
            // A speed-only measurement still without a direction carries no information (and no residual).
            for i in 0..<p.velocityState.count where p.velocityVariance[i] < TrackProblem.unalignedVariance {
                degrees += 2
                let s = p.velocityState[i], c = 2 * s + 1
                let de = p.velocityEast[i] - x[c], dn = p.velocityNorth[i] - x[order + c]
                velocityTotal +=
                    velocityWeights[i] * (de * de + dn * dn + 2 * moments.velocityVariance[s])
                    / p.velocityVariance[i]
            }
            for speed in p.speeds
            where speed.metresPerSecond > 0 && p.velocityVariance[speed.entry] < TrackProblem.unalignedVariance {
                // Its term above, replaced by the one along its direction û = z / s.
                let i = speed.entry, s = p.velocityState[i], c = 2 * s + 1
                let de = p.velocityEast[i] - x[c], dn = p.velocityNorth[i] - x[order + c]
                let along = (de * p.velocityEast[i] + dn * p.velocityNorth[i]) / speed.metresPerSecond
                let w = velocityWeights[i] / p.velocityVariance[i]
                velocityTotal +=
                    w * (along * along + moments.velocityVariance[s])
                    - w * (de * de + dn * dn + 2 * moments.velocityVariance[s])
                degrees -= 1
            }
            if degrees > 0 { velocityFactor = velocityTotal / Double(degrees) }
            var links = 0
            var total = 2 * moments.linkTrace
            for s in 1..<max(p.stateCount, 1) where !p.opensSegment[s] {
                links += 1
                let dt = p.times[s] - p.times[s - 1]
                // (Per unit density of the link: see `TrackProblem.processScale`.)
                let i1 = 1 / (dt * p.processScale(intoState: s)), i2 = i1 / dt, i3 = i2 / dt
                for axis in 0..<2 {
                    let o = axis * order
                    let p0 = x[o + 2 * s - 2], v0 = x[o + 2 * s - 1], p1 = x[o + 2 * s], v1 = x[o + 2 * s + 1]
                    let ep = p1 - p0 - dt * v0, ev = v1 - v0
                    total += 12 * i3 * ep * ep - 12 * i2 * ep * ev + 4 * i1 * ev * ev
                }
            }
            if links > 0 { processFactor = total / Double(4 * links) / p.processDensity }
        }
        return (positionFactor, velocityFactor, processFactor)
    }
}
