/// Starting weights for the robust iterations (internal): each position fix is checked against what its
/// neighbours in time predict, before any solve, so that an isolated multipath jump starts down-weighted
/// instead of first pulling the least-squares track towards it and being discovered over several solves.
///
/// ## Method
/// For position measurement m, three predictions from the neighbouring measurements of the same segment:
/// the linear interpolation between m − 1 and m + 1, the extrapolation from m − 2 and m − 1, and the one
/// from m + 1 and m + 2. Each gives a 2-D residual normalised by the standard deviation of the difference
/// of the fixes alone (their variances through the interpolation weights). The median of the available
/// normalised residuals goes through the loss (the larger of two when only two predictions exist): with three,
/// one bad neighbour cannot make a good fix look bad, nor a bad fix look good, and a real manoeuvre keeps its
/// weight: a corner's fix lies off the chord of its neighbours but where both extrapolations meet.
///
/// The model's process variance over the span (q·τ³/3) is not in the normalisation (2026-12-02). With it, the
/// span's motion allowance dominated between fixes seconds apart (a car's σ of 50 m at 5 s, 150 m at 10 s), a
/// jump of 100–300 m started at weight 0.4–0.8, the first solve went through it, and the iterations stayed there.
/// A manoeuvre that starts down-weighted is still taken back: the same loose allowance lets the first solve
/// follow it, and its weight returns (docs/ARCHITECTURE.md, "Multipath jumps between sparse fixes").
/// A fix with fewer than two predictions keeps weight 1. The iterations then continue from these weights
/// as usual: the fixed point they converge to is the same kind of minimum. Measured: on the `smooth`
/// benchmark the share of weights still moving by > 0.01 after each solve is 65 % → 12 % → 0.9 % → 0.08 %,
/// so the convergence rule stops after 4 solves (the old "no weight moves" rule needed 8); the gsdc2020-mtv1 drives stop
/// after 2 with unchanged p50/p95 and distance. (Measured with the process term; without it, 2026-12-02, the
/// `smooth` benchmark stops after 4 solves where the per-link density alone took 5.)
///
/// - Complexity: O(measurements), no allocation besides the result.
enum WarmStart {
    static func positionWeights(_ p: TrackProblem, loss: RobustLoss, gapSeconds: Double) -> [Double] {
        let count = p.positionState.count
        var weights = [Double](repeating: 1, count: count)
        guard count >= 3 else { return weights }
        p.times.withUnsafeBufferPointer { times in
            p.positionState.withUnsafeBufferPointer { state in
                p.positionEast.withUnsafeBufferPointer { e in
                    p.positionNorth.withUnsafeBufferPointer { no in
                        p.positionVariance.withUnsafeBufferPointer { r in
                            weights.withUnsafeMutableBufferPointer { w in
                                /// The normalised residual of m against the line through a and b (any order
                                /// in time), or nil when a prediction is not defined (same time, too far).
                                func residual(_ m: Int, _ a: Int, _ b: Int) -> Double? {
                                    guard a >= 0, b >= 0, a < count, b < count else { return nil }
                                    let ta = times[state[a]], tb = times[state[b]], tm = times[state[m]]
                                    let span = tb - ta
                                    guard abs(span) > 0, abs(tm - ta) <= gapSeconds, abs(tm - tb) <= gapSeconds
                                    else { return nil }
                                    let f = (tm - ta) / span
                                    let pe = e[a] + (e[b] - e[a]) * f, pn = no[a] + (no[b] - no[a]) * f
                                    let variance = (1 - f) * (1 - f) * r[a] + f * f * r[b] + r[m]
                                    let de = e[m] - pe, dn = no[m] - pn
                                    return ((de * de + dn * dn) / variance).squareRoot()
                                }
                                for m in 0..<count {
                                    let d0 = residual(m, m - 1, m + 1)
                                    let d1 = residual(m, m - 2, m - 1)
                                    let d2 = residual(m, m + 1, m + 2)
                                    let d: Double
                                    switch (d0, d1, d2) {
                                    case let (x?, y?, z?): d = max(min(x, y), min(max(x, y), z))
                                    case let (x?, y?, nil), let (x?, nil, y?), let (nil, x?, y?): d = max(x, y)
                                    default: continue
                                    }
                                    w[m] = max(loss.weight(normalisedResidual: d), WholeTrackSmoother.minimumWeight)
                                }
                            }
                        }
                    }
                }
            }
        }
        return weights
    }
}
