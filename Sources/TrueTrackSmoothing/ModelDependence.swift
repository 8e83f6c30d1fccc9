#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The model-dependence term of ``SmoothedTrack/distanceSigmaMetres`` (internal).
///
/// The smoothed length depends on how far the fixes are trusted against the motion model, and the white-noise
/// model cannot tell from the reported accuracy alone: a phone's 68 % radius describes its *whole* error,
/// which is mostly a slowly varying bias (measured lag-1 correlation 0.84–0.99 on the GSDC drives), while
/// what the white-noise model needs is the part of the error that changes from one fix to the next. Two
/// defensible readings of the same fixes therefore give two lengths:
///
/// 1. the accuracy as reported (times ``SmoothingOptions/accuracyScale``): the solution the smoother returns;
/// 2. the accuracy scaled to the fixes' epoch-to-epoch scatter about that solution
///    (``whiteAccuracyScale(_:solution:positionWeights:)``): what the data say the white part is.
///
/// Their difference is a length the model alone decides (corners cut when the fixes are trusted too little,
/// wiggles kept when they are trusted too much), which no first-order propagation inside either model covers.
/// It enters the distance's σ as one more term in quadrature. Cost: one more assemble, factor and solve at the
/// final robust weights (no re-weighting), the factor's storage reused — only when the second reading lies
/// outside what term 2 already covers (``modelTermIsNeeded(whiteScale:)``).
extension WholeTrackSmoother {
    /// Whether the white-part reading needs its own solve: only the ratio of the process density to the
    /// measurement variances shapes the track, so scaling the accuracies by ŝ is scaling q by 1/ŝ², a change
    /// of ln q by |ln ŝ²|. Term 2 of the σ (dD/d ln q × ``SmoothedTrack/processDensityLogSigma``) already
    /// covers changes within ln 2 to first order; beyond (ŝ < 1/√2 or ŝ > √2) the length is far from linear
    /// in ln q (corner cutting sets in), and the difference is computed by solving again.
    static func modelTermIsNeeded(whiteScale: Double) -> Bool {
        abs(log(whiteScale * whiteScale)) > SmoothedTrack.processDensityLogSigma
    }

    /// The white part of the position error relative to the variances in force, estimated from the solution
    /// `x`: the root of
    ///
    ///     ŝ² = Σₖ wₖ ‖dₖ‖² / (rₘ₋₁ + rₘ)  /  (2 Σₖ wₖ),   dₖ = (zₘ − x̂ₛ) − (zₘ₋₁ − x̂ₛ₋₁),
    ///
    /// over consecutive position fixes m − 1, m on consecutive states s − 1, s of one segment, with r the
    /// per-axis variances, w = 1 for the pairs whose robust weights are both at least ``inlierWeight`` and 0
    /// for the others (a down-weighted jump does not count: with w its weight, one 60 m jump among 400 fixes
    /// tripled ŝ on the simulator's clean walk), and 2 for the two axes. Differencing the residuals removes whatever error the two fixes share: with an
    /// error of per-axis σ and lag-1 correlation ρ, E[‖d‖²] ≈ 4σ²(1 − ρ), so ŝ² ≈ 1 − ρ (0.01–0.16 for the
    /// GSDC phones' ρ), and ≈ 1 for honest white noise (a little less, because the solution follows part of
    /// the noise). Kept within ``NoiseEstimate/factorRange``; `nil` without a pair.
    ///
    /// - Complexity: O(n), no allocation.
    /// The robust weight from which a fix counts as an inlier for ``whiteAccuracyScale(_:solution:positionWeights:)``:
    /// 0.5, the default Cauchy loss's weight at 3σ.
    static let inlierWeight = 0.5

    static func whiteAccuracyScale(_ p: TrackProblem, solution x: [Double], positionWeights: [Double]) -> Double? {
        let order = x.count / 2
        var total = 0.0, weightSum = 0.0
        x.withUnsafeBufferPointer { x in
            for m in 1..<max(p.positionState.count, 1) {
                let s = p.positionState[m], previous = p.positionState[m - 1]
                guard s == previous + 1, !p.opensSegment[s] else { continue }
                // Only pairs the robust loss keeps as inliers: a jump's residual is thousands of times a white
                // one, so even its small weight would dominate the sum.
                guard min(positionWeights[m], positionWeights[m - 1]) >= Self.inlierWeight else { continue }
                let w = 1.0
                let de = (p.positionEast[m] - x[2 * s]) - (p.positionEast[m - 1] - x[2 * previous])
                let dn = (p.positionNorth[m] - x[order + 2 * s]) - (p.positionNorth[m - 1] - x[order + 2 * previous])
                total += w * (de * de + dn * dn) / (p.positionVariance[m] + p.positionVariance[m - 1])
                weightSum += w
            }
        }
        guard weightSum > 0, total.isFinite else { return nil }
        let scale = (total / (2 * weightSum)).squareRoot()
        let range = NoiseEstimate.factorRange
        return min(max(scale, range.lowerBound), range.upperBound)
    }

    /// The length of the plane polyline through the states' positions in `x` (east and north columns of a
    /// two-column solution), metres: the quantity whose change the model term measures (the projection's
    /// scale error is far below the term's size and cancels in the difference). Only the steps `countedSteps`
    /// marks (all when `nil`) are summed, as in the distance.
    ///
    /// - Complexity: O(n), no allocation.
    static func planeLength(stateCount n: Int, solution x: [Double], countedSteps: [Bool]?) -> Double {
        let order = x.count / 2
        var length = 0.0
        x.withUnsafeBufferPointer { x in
            for s in 1..<max(n, 1) where countedSteps?[s] ?? true {
                let de = x[2 * s] - x[2 * (s - 1)], dn = x[order + 2 * s] - x[order + 2 * (s - 1)]
                length += (de * de + dn * dn).squareRoot()
            }
        }
        return length
    }
}
