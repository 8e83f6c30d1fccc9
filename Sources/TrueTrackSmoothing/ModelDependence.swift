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
///    (``whiteAccuracyScale(_:solution:)``): what the data say the white part is.
///
/// Their difference is a length the model alone decides (corners cut when the fixes are trusted too little,
/// wiggles kept when they are trusted too much), which no first-order propagation inside either model covers.
/// The distance is measured on the second reading's track (its length is made of the fix-to-fix shape, which
/// only the white part blurs), and the difference enters the distance's σ as one more term in quadrature — unless
/// the speed readings the forward filter trusts deny the second track's extra length (``TrustedReadingsPath``),
/// when the distance is the first reading's length.
/// Cost: one more assemble, factor and solve (no re-weighting: the first reading's inliers keep their
/// weights, its down-weighted fixes keep their pull, see ``WholeTrackSmoother``), the factor's storage reused
/// — only when the second reading lies outside what term 2 already covers (``modelTermIsNeeded(whiteScale:)``).
extension WholeTrackSmoother {
    /// Whether the white-part reading needs its own solve: only the ratio of the process density to the
    /// measurement variances shapes the track, so scaling the accuracies by ŝ is scaling q by 1/ŝ², a change
    /// of ln q by |ln ŝ²|. Term 2 of the σ (dD/d ln q × ``SmoothedTrack/processDensityLogSigma``) already
    /// covers changes within ln 2 to first order; beyond (ŝ < 1/√2 or ŝ > √2) the length is far from linear
    /// in ln q (corner cutting sets in), and the difference is computed by solving again.
    static func modelTermIsNeeded(whiteScale: Double) -> Bool {
        abs(log(whiteScale * whiteScale)) > SmoothedTrack.processDensityLogSigma
    }

    /// The robust weight from which a fix counts as an inlier (the second reading's weights, see
    /// ``WholeTrackSmoother``): 0.5, the default Cauchy loss's weight at 3σ.
    static let inlierWeight = 0.5

    /// The median of χ² with 2 degrees of freedom, 2 ln 2: the median of ‖d‖² / (rₘ₋₁ + rₘ) / ŝ² below.
    static let chiSquare2Median = 2 * 0.6931471805599453

    /// The white part of the position error relative to the variances in force, estimated from the solution
    /// `x`: the root of
    ///
    ///     ŝ² = median over k of ‖dₖ‖² / (rₘ₋₁ + rₘ)  /  (2 ln 2),   dₖ = (zₘ − x̂ₛ) − (zₘ₋₁ − x̂ₛ₋₁),
    ///
    /// over consecutive position fixes m − 1, m on consecutive states s − 1, s of one segment, with r the
    /// per-axis variances; for white errors of per-axis variance ŝ² r, each ratio is ŝ² times a χ² with 2
    /// degrees of freedom (the two axes), whose median is 2 ln 2. The median, not the mean: a multipath jump's
    /// residual is thousands of times a white one (one 60 m jump among 400 fixes tripled a mean-based ŝ on
    /// the simulator's clean walk), and it needs no inlier cut-off, which would bias ŝ low when the stated
    /// accuracy is too optimistic. Differencing the residuals removes whatever error the two fixes share: with
    /// an error of per-axis σ and lag-1 correlation ρ, E[‖d‖²] ≈ 4σ²(1 − ρ), so ŝ² ≈ 1 − ρ (0.01–0.16 for the
    /// GSDC phones' ρ), and ≈ 1 for honest white noise (a little less, because the solution follows part of
    /// the noise). Kept within ``NoiseEstimate/factorRange``; `nil` without a pair.
    ///
    /// - Complexity: O(n) expected (a selection, not a sort); one array of n ratios.
    static func whiteAccuracyScale(_ p: TrackProblem, solution x: [Double]) -> Double? {
        let order = x.count / 2
        var ratios: [Double] = []
        ratios.reserveCapacity(p.positionState.count)
        x.withUnsafeBufferPointer { x in
            for m in 1..<max(p.positionState.count, 1) {
                let s = p.positionState[m], previous = p.positionState[m - 1]
                guard s == previous + 1, !p.opensSegment[s] else { continue }
                let de = (p.positionEast[m] - x[2 * s]) - (p.positionEast[m - 1] - x[2 * previous])
                let dn = (p.positionNorth[m] - x[order + 2 * s]) - (p.positionNorth[m - 1] - x[order + 2 * previous])
                let ratio = (de * de + dn * dn) / (p.positionVariance[m] + p.positionVariance[m - 1])
                if ratio.isFinite { ratios.append(ratio) }
            }
        }
        guard !ratios.isEmpty else { return nil }
        let scale = (Self.median(&ratios) / chiSquare2Median).squareRoot()
        let range = NoiseEstimate.factorRange
        return min(max(scale, range.lowerBound), range.upperBound)
    }

    /// The length of the plane polyline through the states' positions in `x` (east and north columns of a
    /// two-column solution), metres: the quantity whose change the model term measures (the projection's
    /// scale error is far below the term's size and cancels in the difference), split into the steps
    /// `countedSteps` marks (all when `nil`), the rides' steps `vehicleSteps` marks (none when `nil`) and the
    /// others (left out as still), as in the distance; `separatedSteps` (across a recording break) are none of them.
    /// A counted step `curveSteps` marks counts the curve of its states' velocities (``CurveLength``), as the
    /// distance does: `counted` includes it, `curve` is that part alone.
    ///
    /// - Complexity: O(n), no allocation.
    static func planeLengths(
        _ p: TrackProblem, solution x: [Double], countedSteps: [Bool]?, vehicleSteps: [Bool]?,
        separatedSteps: [Bool]?, curveSteps: [Bool]?
    ) -> (counted: Double, left: Double, vehicle: Double, leftChords: Double, curve: Double) {
        let n = p.stateCount
        let order = x.count / 2
        var counted = 0.0, left = 0.0, vehicle = 0.0, curve = 0.0
        var chords = StillRunChords()
        x.withUnsafeBufferPointer { x in
            for s in 1..<max(n, 1) {
                let de = x[2 * s] - x[2 * (s - 1)], dn = x[order + 2 * s] - x[order + 2 * (s - 1)]
                let length = (de * de + dn * dn).squareRoot()
                let separated = separatedSteps?[s] == true
                let isStill = !(countedSteps?[s] ?? true) && vehicleSteps?[s] != true && !separated
                chords.step(
                    isStill: isStill, fromEast: x[2 * (s - 1)], fromNorth: x[order + 2 * (s - 1)], toEast: x[2 * s],
                    toNorth: x[order + 2 * s])
                if countedSteps?[s] ?? true {
                    counted += length
                    if let curveSteps, curveSteps[s] {
                        curve += CurveLength.excessMetres(
                            east: de, north: dn, chord: length, before: (x[2 * s - 1], x[order + 2 * s - 1]),
                            after: (x[2 * s + 1], x[order + 2 * s + 1]), seconds: p.times[s] - p.times[s - 1])
                    }
                } else if vehicleSteps?[s] == true {
                    vehicle += length
                } else if !separated {
                    left += length
                }
            }
        }
        return (counted + curve, left, vehicle, chords.total, curve)
    }

    /// The median of `values` (the lower middle for an even count), found by selection: `values` is
    /// reordered. Hoare's quickselect with the middle element as pivot; expected O(n).
    static func median(_ values: inout [Double]) -> Double {
        precondition(!values.isEmpty)
        let k = (values.count - 1) / 2
        var low = 0, high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { break }
        }
        return values[k]
    }
}

/// The straight lines across the runs of steps the ``StillnessGate`` leaves out: for each maximal run, the
/// distance from the position before its first step to the position after its last (plane metres). Term 5 of
/// ``SmoothedTrack/distanceSigmaMetres``.
struct StillRunChords {
    /// The summed chords of the runs ended so far, metres (``total`` adds the open one).
    private var closed = 0.0
    private var startEast = 0.0, startNorth = 0.0, endEast = 0.0, endNorth = 0.0
    private var isOpen = false

    /// Notes one step, from (`fromEast`, `fromNorth`) to (`toEast`, `toNorth`).
    mutating func step(isStill: Bool, fromEast: Double, fromNorth: Double, toEast: Double, toNorth: Double) {
        if isStill {
            if !isOpen {
                isOpen = true
                startEast = fromEast
                startNorth = fromNorth
            }
            endEast = toEast
            endNorth = toNorth
        } else if isOpen {
            closed += chord
            isOpen = false
        }
    }

    private var chord: Double {
        let de = endEast - startEast, dn = endNorth - startNorth
        return (de * de + dn * dn).squareRoot()
    }

    /// The summed chords, the run under way included, metres.
    var total: Double { isOpen ? closed + chord : closed }
}
