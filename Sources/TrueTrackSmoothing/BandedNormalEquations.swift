import CLAPACK

/// The normal equations of the whole-track problem for one axis as a symmetric positive-definite band
/// matrix, stored for LAPACK, with its banded Cholesky factorisation (internal).
///
/// ## Layout
/// Unknowns are ordered (p₀, v₀, p₁, v₁, …): one state's position and velocity, then the next state's.
/// A process term couples state k only with state k + 1, so the matrix has 3 super-diagonals (kd = 3).
/// It is stored as LAPACK's upper band (`UPLO = 'U'`, LDAB = 4, column-major): A(i, j) for
/// max(0, j − 3) ≤ i ≤ j at `band[4 j + 3 + i − j]`. East and north share the matrix (isotropic noise,
/// one robust weight per fix), so one factorisation serves both right-hand sides.
///
/// ## Terms (white-acceleration constant-velocity model, q = σₐ²)
/// - process, state k → k + 1 over dt: Q⁻¹ = (1/q) [[12/dt³, −6/dt²], [−6/dt², 4/dt]] adds
///   FᵀQ⁻¹F = (1/q) [[12/dt³, 6/dt²], [6/dt², 4/dt]] to block (k, k), Q⁻¹ to block (k + 1, k + 1) and
///   −FᵀQ⁻¹ = (1/q) [[−12/dt³, 6/dt²], [−6/dt², 2/dt]] to block (k, k + 1);
/// - a position measurement z of per-axis variance r and weight w: w/r on (p, p), w z/r on the right;
/// - a velocity measurement likewise on (v, v);
/// - a segment's first state: the weak prior (1/σ²ₚ₀ on p about the first fix, 1/σ²ᵥ₀ on v about 0).
struct BandedNormalEquations {
    /// Super-diagonals.
    static let kd = 3
    /// Leading dimension of the band storage.
    static let ldab = 4
    /// Zero entries after the band's last column (three columns of kd + 1 entries; see ``backSubstitute()``).
    static let padding = 12

    /// Unknowns (2 per state).
    let order: Int
    /// The band (then its Cholesky factor U, A = UᵀU, after ``factor()``). Allocated once and rewritten
    /// by every ``assemble(_:positionWeights:velocityWeights:)``.
    var band: [Double]
    /// Right-hand sides, column-major: east in `0..<order`, north in `order..<2·order`; the solution after
    /// ``solve()`` (in place: east position of state s at `2s`, its velocity at `2s + 1`, north likewise
    /// from `order`). Allocated once.
    var rhs: [Double]

    init(stateCount: Int) {
        let order = 2 * stateCount
        self.order = order
        // Every entry of the 4·order is written by `assemble` before it is read: no zero fill needed. Three
        // zero columns follow (``padding``): the backward substitution reads U(j, j + 1 … j + 3) there for
        // the last three unknowns instead of testing j + k < order.
        band = [Double](unsafeUninitializedCapacity: 4 * order + Self.padding) { b, count in
            for i in (4 * order)..<(4 * order + Self.padding) { b.initializeElement(at: i, to: 0) }
            count = 4 * order + Self.padding
        }
        rhs = [Double](unsafeUninitializedCapacity: 2 * order) { _, count in count = 2 * order }
    }

    /// Puts the Rauch–Tung–Striebel smoother's answer where the banded solution goes (``rhs``, in its layout),
    /// so that whatever reads the solution reads either solver's the same way.
    mutating func setSolution(_ r: RauchTungStriebel) {
        for s in 0..<(order / 2) {
            rhs[2 * s] = r.east[s]
            rhs[2 * s + 1] = r.velocityEast[s]
            rhs[order + 2 * s] = r.north[s]
            rhs[order + 2 * s + 1] = r.velocityNorth[s]
        }
    }

    /// Fills the band and the right-hand sides for the given robust weights, overwriting the previous
    /// iteration's factor and solution.
    ///
    /// One pass over the states writes every band entry (the process terms of the links before and after
    /// each state, or a segment's prior), a second and third pass add the measurements' information.
    /// Each link's terms are computed once (one division per state) and carried to the next state.
    ///
    /// - Complexity: O(states + measurements), no allocation.
    mutating func assemble(_ p: TrackProblem, positionWeights: [Double], velocityWeights: [Double]) {
        let n = order
        let stateCount = p.stateCount
        let inverseQ = 1 / p.processDensity
        let ip0 = 1 / p.initialPositionVariance, iv0 = 1 / p.initialVelocityVariance
        band.withUnsafeMutableBufferPointer { ab in
            rhs.withUnsafeMutableBufferPointer { b in
                p.times.withUnsafeBufferPointer { t in
                    p.opensSegment.withUnsafeBufferPointer { opens in
                        // The link into state s (12/(q dt³), 6/(q dt²), 4/(q dt), 2/(q dt)); zero at a segment start.
                        var l3 = 0.0, l2 = 0.0, l1 = 0.0
                        for s in 0..<stateCount {
                            let cp = 2 * s, cv = cp + 1
                            var dpp: Double, dpv: Double, dvv: Double
                            if opens[s] {
                                ab[4 * cp + 1] = 0
                                ab[4 * cp + 2] = 0
                                ab[4 * cv + 0] = 0
                                ab[4 * cv + 1] = 0
                                dpp = ip0
                                dpv = 0
                                dvv = iv0
                                // The segment's prior: its first fix.
                                let first = p.firstPositionMeasurement(ofState: s)
                                b[cp] = p.positionEast[first] * ip0
                                b[n + cp] = p.positionNorth[first] * ip0
                            } else {
                                // Block (k + 1, k + 1) += Q⁻¹ and block (k, k + 1) = −FᵀQ⁻¹ (k = s − 1).
                                ab[4 * cp + 1] = -12 * l3  // (p_k, p_k+1)
                                ab[4 * cp + 2] = -6 * l2  // (v_k, p_k+1)
                                ab[4 * cv + 0] = 6 * l2  // (p_k, v_k+1)
                                ab[4 * cv + 1] = 2 * l1  // (v_k, v_k+1)
                                dpp = 12 * l3
                                dpv = -6 * l2
                                dvv = 4 * l1
                                b[cp] = 0
                                b[n + cp] = 0
                            }
                            ab[4 * cp] = 0  // (v_s−2, p_s): outside the block band
                            b[cv] = 0
                            b[n + cv] = 0
                            // Block (k, k) += FᵀQ⁻¹F for the link out of state s.
                            if s + 1 < stateCount && !opens[s + 1] {
                                let dt = t[s + 1] - t[s]
                                let inverseDt = 1 / dt
                                l1 = inverseQ / p.processScale(intoState: s + 1) * inverseDt
                                l2 = l1 * inverseDt
                                l3 = l2 * inverseDt
                                dpp += 12 * l3
                                dpv += 6 * l2
                                dvv += 4 * l1
                            }
                            ab[4 * cp + 3] = dpp
                            ab[4 * cv + 2] = dpv
                            ab[4 * cv + 3] = dvv
                        }
                    }
                }
                p.positionState.withUnsafeBufferPointer { state in
                    positionWeights.withUnsafeBufferPointer { w in
                        p.positionVariance.withUnsafeBufferPointer { r in
                            p.positionEast.withUnsafeBufferPointer { e in
                                p.positionNorth.withUnsafeBufferPointer { no in
                                    for m in 0..<state.count {
                                        let c = 2 * state[m]
                                        let info = w[m] / r[m]
                                        ab[4 * c + 3] += info
                                        b[c] += info * e[m]
                                        b[n + c] += info * no[m]
                                    }
                                }
                            }
                        }
                    }
                }
                p.velocityState.withUnsafeBufferPointer { state in
                    velocityWeights.withUnsafeBufferPointer { w in
                        p.velocityVariance.withUnsafeBufferPointer { r in
                            p.velocityEast.withUnsafeBufferPointer { e in
                                p.velocityNorth.withUnsafeBufferPointer { no in
                                    for m in 0..<state.count {
                                        let c = 2 * state[m] + 1
                                        let info = w[m] / r[m]
                                        ab[4 * c + 3] += info
                                        b[c] += info * e[m]
                                        b[n + c] += info * no[m]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// ``assemble(_:positionWeights:velocityWeights:)``, ``factor()`` and the forward half of ``solve()`` in one
    /// pass over the states: each state's two columns of A and entries of B are formed in registers, factored
    /// and forward-substituted at once, so the band holds U and `rhs` holds Y = U⁻ᵀ B afterwards (then
    /// ``backSubstitute()`` gives the solution). The arithmetic and its order are exactly those of the three
    /// separate steps (measurements are added in their order after the process terms; positions and
    /// velocities are in state order), so the results are bit-identical; the band and right-hand sides are
    /// written once instead of being written, re-read and rewritten (`smooth` benchmark, 10⁶ fixes: 1.14 →
    /// 1.48 M fixes/s).
    /// Returns `false` when the matrix is not positive definite (as ``factor()``; the band is then partial).
    ///
    /// - Complexity: O(states + measurements), no allocation.
    mutating func assembleFactorAndForwardSubstitute(
        _ p: TrackProblem, positionWeights: [Double], velocityWeights: [Double]
    ) -> Bool {
        let n = order
        let stateCount = p.stateCount
        let inverseQ = 1 / p.processDensity
        // Per link, when some differ (see `TrackProblem.processScale`).
        let scales = p.processScale, isUniform = scales.isEmpty
        let ip0 = 1 / p.initialPositionVariance, iv0 = 1 / p.initialVelocityVariance
        var isPositiveDefinite = true
        band.withUnsafeMutableBufferPointer { u in
            rhs.withUnsafeMutableBufferPointer { b in
                p.withBuffers { q in
                    let t = q.times, opens = q.opensSegment, pState = q.positionState, pr = q.positionVariance
                    let pe = q.positionEast, pn = q.positionNorth, vState = q.velocityState, vr = q.velocityVariance
                    let ve = q.velocityEast, vn = q.velocityNorth
                    positionWeights.withUnsafeBufferPointer { pw in
                        velocityWeights.withUnsafeBufferPointer { vw in
                            var column = ForwardColumn()
                            // The link into state s (see `assemble`).
                            var l3 = 0.0, l2 = 0.0, l1 = 0.0
                            var mp = 0, mv = 0
                            let positionCount = pState.count
                            let velocityCount = vState.count
                            for s in 0..<stateCount {
                                let cp = 2 * s, cv = cp + 1
                                var app1: Double, avp1: Double, apv1: Double,
                                    avv1: Double
                                var dpp: Double, dpv: Double, dvv: Double
                                var bpe: Double, bpn: Double
                                if opens[s] {
                                    app1 = 0
                                    avp1 = 0
                                    apv1 = 0
                                    avv1 = 0
                                    dpp = ip0
                                    dpv = 0
                                    dvv = iv0
                                    // The segment's prior: its first fix (mp is the state's first).
                                    bpe = pe[mp] * ip0
                                    bpn = pn[mp] * ip0
                                } else {
                                    app1 = -12 * l3
                                    avp1 = -6 * l2
                                    apv1 = 6 * l2
                                    avv1 = 2 * l1
                                    dpp = 12 * l3
                                    dpv = -6 * l2
                                    dvv = 4 * l1
                                    bpe = 0
                                    bpn = 0
                                }
                                if s + 1 < stateCount && !opens[s + 1] {
                                    let dt = t[s + 1] - t[s]
                                    let inverseDt = 1 / dt
                                    // (Unchecked: the `smooth` benchmark read the checked subscript at +9 instructions per fix.)
                                    l1 =
                                        (isUniform ? inverseQ : inverseQ / scales.withUnsafeBufferPointer { $0[s + 1] })
                                        * inverseDt
                                    l2 = l1 * inverseDt
                                    l3 = l2 * inverseDt
                                    dpp += 12 * l3
                                    dpv += 6 * l2
                                    dvv += 4 * l1
                                }
                                while mp < positionCount && pState[mp] == s {
                                    let info = pw[mp] / pr[mp]
                                    dpp += info
                                    bpe += info * pe[mp]
                                    bpn += info * pn[mp]
                                    mp += 1
                                }
                                var bve = 0.0, bvn = 0.0
                                while mv < velocityCount && vState[mv] == s {
                                    let info = vw[mv] / vr[mv]
                                    dvv += info
                                    bve += info * ve[mv]
                                    bvn += info * vn[mv]
                                    mv += 1
                                }
                                guard
                                    column.push(
                                        u, b, j: cp, n: n, a0: 0, a1: app1,
                                        a2: avp1,
                                        diagonal: dpp, east: bpe, north: bpn),
                                    column.push(
                                        u, b, j: cv, n: n, a0: apv1, a1: avv1,
                                        a2: dpv,
                                        diagonal: dvv, east: bve, north: bvn)
                                else {
                                    isPositiveDefinite = false
                                    return
                                }
                            }
                        }
                    }
                }
            }
        }
        return isPositiveDefinite
    }

    /// Factors the band in place (A = UᵀU, upper banded Cholesky). Returns `false` when the matrix is not
    /// positive definite (it never is in exact arithmetic; see the caller's fallback).
    ///
    /// This is LAPACK `dpbtrf`'s arithmetic written out for kd = 3 (``factorWithLAPACK()`` is the tested
    /// reference): for kd smaller than its block size `dpbtrf` runs the unblocked `dpbtf2`, one `dscal` and
    /// one `dsyr` BLAS call per unknown, which cost 40 % of the `smooth` benchmark's instructions (callgrind,
    /// 10⁵ fixes: 285 M of 700 M); this loop keeps the last three columns in registers instead.
    /// Column j: U(i, j) = (A(i, j) − Σₖ U(k, i) U(k, j)) / U(i, i) for i = j − 3 … j − 1 (k from j − 3 to
    /// i − 1), then U(j, j) = √(A(j, j) − Σᵢ U(i, j)²).
    ///
    /// - Complexity: O(n), no allocation.
    mutating func factor() -> Bool {
        let n = order
        var isPositiveDefinite = true
        band.withUnsafeMutableBufferPointer { u in
            // 1 / U(j−1, j−1), 1 / U(j−2, j−2), 1 / U(j−3, j−3) (1 before the first unknown, where the band's
            // entries are zero), and the previous columns' off-diagonal entries the next column needs.
            var r1 = 1.0, r2 = 1.0, r3 = 1.0
            var u12 = 0.0  // U(j−2, j−1)
            var u13 = 0.0  // U(j−3, j−1)
            var u23 = 0.0  // U(j−3, j−2)
            for j in 0..<n {
                let c = 4 * j
                let c0 = u[c] * r3  // U(j−3, j)
                let c1 = (u[c + 1] - u23 * c0) * r2  // U(j−2, j)
                let c2 = (u[c + 2] - u13 * c0 - u12 * c1) * r1  // U(j−1, j)
                let pivot = u[c + 3] - c0 * c0 - c1 * c1 - c2 * c2
                guard pivot > 0, pivot.isFinite else {
                    isPositiveDefinite = false
                    return
                }
                let diagonal = pivot.squareRoot()
                u[c] = c0
                u[c + 1] = c1
                u[c + 2] = c2
                u[c + 3] = diagonal
                // Shift: column j becomes column j − 1 for the next one.
                u23 = u12  // U(j−2, j−1) is U(j−3, j−2) of column j + 1
                u13 = c1  // U(j−2, j) is U(j−3, j−1) of column j + 1
                u12 = c2  // U(j−1, j) is U(j−2, j−1) of column j + 1
                r3 = r2
                r2 = r1
                r1 = 1 / diagonal
            }
        }
        return isPositiveDefinite
    }

    /// Factors the band in place with LAPACK `dpbtrf` (A = UᵀU): the reference ``factor()`` is tested
    /// against. Returns `false` when LAPACK reports the matrix not positive definite.
    mutating func factorWithLAPACK() -> Bool {
        var uplo = CChar(UInt8(ascii: "U"))
        var n = Int32(order), kd = Int32(Self.kd), ldab = Int32(Self.ldab), info: Int32 = 0
        band.withUnsafeMutableBufferPointer { ab in
            dpbtrf_(&uplo, &n, &kd, ab.baseAddress, &ldab, &info, 1)
        }
        return info == 0
    }

    /// Solves A X = B for both axes in place (`rhs` becomes the solution) with the factor from ``factor()``:
    /// Uᵀ y = b forward, then U x = y backward, both right-hand sides in the same pass.
    ///
    /// This is LAPACK `dpbtrs`'s arithmetic written out for kd = 3 (``solveWithLAPACK()`` is the tested
    /// reference): the reference BLAS `dtbsv` under `dpbtrs` costs about 38 instructions per unknown and per
    /// pass (four passes for two right-hand sides, 90 ms for 10⁶ states), this loop about a quarter of that.
    ///
    /// - Complexity: O(n), no allocation.
    mutating func solve() {
        let n = order
        guard n > 0 else { return }
        band.withUnsafeBufferPointer { u in
            rhs.withUnsafeMutableBufferPointer { b in
                // Forward: y_j = (b_j − Σ_{i=j−3}^{j−1} U(i, j) y_i) / U(j, j); U(i, j) at u[4j + 3 + i − j].
                var e1 = 0.0, e2 = 0.0, e3 = 0.0, n1 = 0.0, n2 = 0.0, n3 = 0.0  // y_{j−1}, y_{j−2}, y_{j−3}
                for j in 0..<n {
                    let c = 4 * j
                    let a3 = u[c], a2 = u[c + 1], a1 = u[c + 2]
                    let inverse = 1 / u[c + 3]
                    let ye = (b[j] - a1 * e1 - a2 * e2 - a3 * e3) * inverse
                    let yn = (b[n + j] - a1 * n1 - a2 * n2 - a3 * n3) * inverse
                    b[j] = ye
                    b[n + j] = yn
                    e3 = e2
                    e2 = e1
                    e1 = ye
                    n3 = n2
                    n2 = n1
                    n1 = yn
                }
            }
        }
        backSubstitute()
    }

    /// The backward half of ``solve()``: U X = Y for both axes in place (`rhs` holds Y, then the solution).
    /// x_j = (y_j − Σ_{k=j+1}^{j+3} U(j, k) x_k) / U(j, j); beyond the last unknown U reads the zero
    /// ``padding`` (the terms are then 0 · 0, as the carried x's are still 0).
    ///
    /// - Complexity: O(n), no allocation.
    mutating func backSubstitute() {
        let n = order
        guard n > 0 else { return }
        band.withUnsafeBufferPointer { u in
            rhs.withUnsafeMutableBufferPointer { b in
                var e1 = 0.0, e2 = 0.0, e3 = 0.0, n1 = 0.0, n2 = 0.0, n3 = 0.0  // x_{j+1}, x_{j+2}, x_{j+3}
                var j = n - 1
                while j >= 0 {
                    let c = 4 * j
                    let a1 = u[c + 4 + 2], a2 = u[c + 8 + 1], a3 = u[c + 12]
                    let inverse = 1 / u[c + 3]
                    let xe = (b[j] - a1 * e1 - a2 * e2 - a3 * e3) * inverse
                    let xn = (b[n + j] - a1 * n1 - a2 * n2 - a3 * n3) * inverse
                    b[j] = xe
                    b[n + j] = xn
                    e3 = e2
                    e2 = e1
                    e1 = xe
                    n3 = n2
                    n2 = n1
                    n1 = xn
                    j -= 1
                }
            }
        }
    }

    /// ``backSubstitute()`` and, in the same pass, ``WholeTrackSmoother/reweight(_:loss:solution:tolerance:positionWeights:velocityWeights:)``:
    /// a state's measurements are reweighted as soon as its four unknowns are final (the arithmetic per
    /// weight is the same, so the weights and the count are identical), which saves re-reading the solution.
    /// Returns how many weights changed by more than `tolerance`.
    ///
    /// - Complexity: O(states + measurements), no allocation.
    mutating func backSubstituteAndReweight(
        _ p: TrackProblem, loss: RobustLoss, tolerance: Double, positionWeights: inout [Double],
        velocityWeights: inout [Double]
    ) -> Int {
        let n = order
        guard n > 0 else { return 0 }
        var moving = 0
        band.withUnsafeBufferPointer { u in
            rhs.withUnsafeMutableBufferPointer { b in
                p.withBuffers { q in
                    let pe = q.positionEast, pn = q.positionNorth, vState = q.velocityState, vr = q.velocityVariance
                    let pState = q.positionState, pr = q.positionVariance, ve = q.velocityEast, vn = q.velocityNorth
                    positionWeights.withUnsafeMutableBufferPointer { pw in
                        velocityWeights.withUnsafeMutableBufferPointer { vw in
                            var e1 = 0.0, e2 = 0.0, e3 = 0.0, n1 = 0.0, n2 = 0.0, n3 = 0.0
                            var mp = pState.count - 1, mv = vState.count - 1
                            var j = n - 1
                            while j >= 0 {
                                let c = 4 * j
                                let a1 = u[c + 4 + 2], a2 = u[c + 8 + 1], a3 = u[c + 12]
                                let inverse = 1 / u[c + 3]
                                let xe = (b[j] - a1 * e1 - a2 * e2 - a3 * e3) * inverse
                                let xn = (b[n + j] - a1 * n1 - a2 * n2 - a3 * n3) * inverse
                                b[j] = xe
                                b[n + j] = xn
                                if j & 1 == 0 {
                                    // State j / 2 is final: position (xe, xn), velocity (e1, n1).
                                    let s = j >> 1
                                    while mp >= 0 && pState[mp] == s {
                                        let w = loss.weight(
                                            residualEast: pe[mp] - xe, north: pn[mp] - xn, variance: pr[mp])
                                        if abs(w - pw[mp]) > tolerance { moving += 1 }
                                        pw[mp] = w
                                        mp -= 1
                                    }
                                    while mv >= 0 && vState[mv] == s {
                                        let w = loss.weight(
                                            residualEast: ve[mv] - e1, north: vn[mv] - n1, variance: vr[mv])
                                        if abs(w - vw[mv]) > tolerance { moving += 1 }
                                        vw[mv] = w
                                        mv -= 1
                                    }
                                }
                                e3 = e2
                                e2 = e1
                                e1 = xe
                                n3 = n2
                                n2 = n1
                                n1 = xn
                                j -= 1
                            }
                        }
                    }
                }
            }
        }
        return moving
    }

    /// Solves A X = B for both axes in place with LAPACK `dpbtrs` (two right-hand sides): the reference
    /// ``solve()`` is tested against.
    mutating func solveWithLAPACK() {
        var uplo = CChar(UInt8(ascii: "U"))
        var n = Int32(order), kd = Int32(Self.kd), ldab = Int32(Self.ldab), nrhs: Int32 = 2
        var ldb = Int32(max(order, 1)), info: Int32 = 0
        band.withUnsafeBufferPointer { ab in
            rhs.withUnsafeMutableBufferPointer { x in
                dpbtrs_(&uplo, &n, &kd, &nrhs, ab.baseAddress, &ldab, x.baseAddress, &ldb, &info, 1)
            }
        }
    }

    /// gᵀ A⁻¹ g for the two columns (east, north) of `rhs`, overwriting them, with the factor from
    /// ``factor()``: A = UᵀU gives gᵀ A⁻¹ g = ‖U⁻ᵀ g‖², one forward substitution instead of a full solve
    /// (the forward half of ``solve()``; ``quadraticFormWithLAPACK()`` is the tested reference).
    ///
    /// - Complexity: O(n), no allocation.
    mutating func quadraticForm() -> Double {
        let n = order
        var total = 0.0
        band.withUnsafeBufferPointer { u in
            rhs.withUnsafeMutableBufferPointer { b in
                var e1 = 0.0, e2 = 0.0, e3 = 0.0, n1 = 0.0, n2 = 0.0, n3 = 0.0
                for j in 0..<n {
                    let c = 4 * j
                    let a3 = u[c], a2 = u[c + 1], a1 = u[c + 2]
                    let inverse = 1 / u[c + 3]
                    let ye = (b[j] - a1 * e1 - a2 * e2 - a3 * e3) * inverse
                    let yn = (b[n + j] - a1 * n1 - a2 * n2 - a3 * n3) * inverse
                    total += ye * ye + yn * yn
                    e3 = e2
                    e2 = e1
                    e1 = ye
                    n3 = n2
                    n2 = n1
                    n1 = yn
                }
            }
        }
        return total
    }

    /// gᵀ A⁻¹ g and gᵀ A⁻¹ h for two-column (east, north) vectors g in `rhs` and h in `h`, overwriting both,
    /// with the factor from ``factor()``: A = UᵀU gives gᵀ A⁻¹ h = (U⁻ᵀ g) · (U⁻ᵀ h), one forward
    /// substitution over the four columns instead of full solves.
    ///
    /// - Complexity: O(n), no allocation.
    mutating func quadraticForms(with h: inout [Double]) -> (gg: Double, gh: Double) {
        let n = order
        var gg = 0.0, gh = 0.0
        band.withUnsafeBufferPointer { u in
            rhs.withUnsafeMutableBufferPointer { b in
                h.withUnsafeMutableBufferPointer { c in
                    var e1 = 0.0, e2 = 0.0, e3 = 0.0, n1 = 0.0, n2 = 0.0, n3 = 0.0
                    var f1 = 0.0, f2 = 0.0, f3 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0
                    for j in 0..<n {
                        let k = 4 * j
                        let a3 = u[k], a2 = u[k + 1], a1 = u[k + 2]
                        let inverse = 1 / u[k + 3]
                        let ye = (b[j] - a1 * e1 - a2 * e2 - a3 * e3) * inverse
                        let yn = (b[n + j] - a1 * n1 - a2 * n2 - a3 * n3) * inverse
                        let ze = (c[j] - a1 * f1 - a2 * f2 - a3 * f3) * inverse
                        let zn = (c[n + j] - a1 * m1 - a2 * m2 - a3 * m3) * inverse
                        gg += ye * ye + yn * yn
                        gh += ye * ze + yn * zn
                        e3 = e2
                        e2 = e1
                        e1 = ye
                        n3 = n2
                        n2 = n1
                        n1 = yn
                        f3 = f2
                        f2 = f1
                        f1 = ze
                        m3 = m2
                        m2 = m1
                        m1 = zn
                    }
                }
            }
        }
        return (gg, gh)
    }

    /// The process part of the normal matrix times the current solution (in `rhs`), written to `h` in the
    /// same two-column layout: A_proc x = Σ over links k → k + 1 of Jᵀ Q⁻¹ ε with ε = x_{k+1} − F x_k, i.e.
    /// Q⁻¹ε added at state k + 1 and −FᵀQ⁻¹ε at state k. Since A = A_meas + A_proc with A_proc ∝ 1/q, the
    /// solution's sensitivity to the process density is dx / d ln q = A⁻¹ A_proc x.
    func processTimesSolution(_ p: TrackProblem, into h: inout [Double]) {
        let n = order
        let stateCount = p.stateCount
        let inverseQ = 1 / p.processDensity
        if h.count != 2 * n { h = [Double](repeating: 0, count: 2 * n) }
        rhs.withUnsafeBufferPointer { x in
            h.withUnsafeMutableBufferPointer { out in
                for i in 0..<(2 * n) { out[i] = 0 }
                guard stateCount > 1 else { return }
                for s in 1..<stateCount where !p.opensSegment[s] {
                    let dt = p.times[s] - p.times[s - 1]
                    let i1 = inverseQ / p.processScale(intoState: s) / dt, i2 = i1 / dt, i3 = i2 / dt
                    for axis in 0..<2 {
                        let o = axis * n
                        let p0 = x[o + 2 * s - 2], v0 = x[o + 2 * s - 1], p1 = x[o + 2 * s], v1 = x[o + 2 * s + 1]
                        let ep = p1 - p0 - dt * v0, ev = v1 - v0
                        let a = 12 * i3 * ep - 6 * i2 * ev, b = -6 * i2 * ep + 4 * i1 * ev
                        out[o + 2 * s] += a
                        out[o + 2 * s + 1] += b
                        out[o + 2 * s - 2] -= a
                        out[o + 2 * s - 1] -= dt * a + b
                    }
                }
            }
        }
    }

    /// ``quadraticForm()`` through LAPACK `dtbtrs` (Uᵀ y = g, transposed triangular band solve): the
    /// reference it is tested against. Overwrites `rhs`.
    mutating func quadraticFormWithLAPACK() -> Double {
        var uplo = CChar(UInt8(ascii: "U")), trans = CChar(UInt8(ascii: "T")), diag = CChar(UInt8(ascii: "N"))
        var n = Int32(order), kd = Int32(Self.kd), ldab = Int32(Self.ldab), nrhs: Int32 = 2
        var ldb = Int32(max(order, 1)), info: Int32 = 0
        band.withUnsafeBufferPointer { ab in
            rhs.withUnsafeMutableBufferPointer { x in
                dtbtrs_(
                    &uplo, &trans, &diag, &n, &kd, &nrhs, ab.baseAddress, &ldab, x.baseAddress, &ldb, &info,
                    1, 1, 1)
            }
        }
        var total = 0.0
        for i in 0..<(2 * order) { total += rhs[i] * rhs[i] }
        return total
    }

    /// The posterior moments the noise estimation needs (``NoiseEstimate``), from the factor by the same
    /// selected-inversion recursion as ``positionVariances()``: the per-axis posterior variance of every
    /// state's position (m²) and velocity (m²/s²), and Σₖ tr(Q̃ₖ⁻¹ Cov εₖ) over the links k → k + 1 of the
    /// track, where εₖ = xₖ₊₁ − F xₖ is the link's process residual (position, velocity) and
    /// Q̃ₖ = [[dt³/3, dt²/2], [dt²/2, dt]] its process covariance per unit density. All ten entries of the
    /// 4×4 posterior block of a link lie in the band: the recursion's window holds them when it reaches the
    /// link's first unknown.
    ///
    /// - Complexity: O(n) time, O(n) memory for the two arrays.
    func posteriorMoments(_ p: TrackProblem) -> (
        positionVariance: [Double], velocityVariance: [Double],
        linkTrace: Double
    ) {
        let n = order
        var pp = [Double](repeating: 0, count: n / 2), vv = pp
        var trace = 0.0
        p.times.withUnsafeBufferPointer { t in
            p.opensSegment.withUnsafeBufferPointer { opens in
                pp.withUnsafeMutableBufferPointer { pp in
                    vv.withUnsafeMutableBufferPointer { vv in
                        selectedInversion { j, diagonal, a1, a2, a3, s11, s12, s13, s22, s23, s33 in
                            if j & 1 == 1 {
                                vv[j >> 1] = diagonal
                                return
                            }
                            let s = j >> 1
                            pp[s] = diagonal
                            guard s + 1 < n / 2 && !opens[s + 1] else { return }
                            // Unknowns a = p_s, b = v_s, c = p_s+1, d = v_s+1.
                            let dt = t[s + 1] - t[s]
                            let aa = diagonal, ab = a1, ac = a2, ad = a3
                            let bb = s11, bc = s12, bd = s13, cc = s22, cd = s23, dd = s33
                            // ε_p = c − a − dt·b, ε_v = d − b.
                            let epp = cc + aa + dt * dt * bb - 2 * ac - 2 * dt * bc + 2 * dt * ab
                            let evv = dd + bb - 2 * bd
                            let epv = cd - bc - ad + ab - dt * bd + dt * bb
                            let i1 = 1 / (dt * p.processScale(intoState: s + 1)), i2 = i1 / dt, i3 = i2 / dt
                            trace += 12 * i3 * epp - 12 * i2 * epv + 4 * i1 * evv
                        }
                    }
                }
            }
        }
        return (pp, vv, trace)
    }

    /// How much the fixes' noise lengthens the counted steps of the solution, on average, metres: the
    /// solution's noise part is z = A⁻¹ Hᵀ W R⁻¹ v (v the measurement errors, of the variances the system was
    /// built with, W the robust weights), and a step d̂ ± Δz is longer than d̂ on average, by about w / (2|d̂|)
    /// for a noise of variance w across it (a norm never cancels noise). Estimated by `draws` draws of v, each
    /// solved with the factor in place (two substitutions) and used twice, as +z and −z (antithetic: the
    /// first-order part, of either sign, cancels, and each step's term (|d̂ + Δz| + |d̂ − Δz|) / 2 − |d̂| is ≥ 0),
    /// summed over the steps `countedSteps` counts (all when `nil`). Each error is a random sign times its
    /// standard deviation (a Rademacher draw: the same variance as a normal one, and z, a weighted sum of many
    /// of them, is close to normal all the same), so the right-hand side's entry is (w/r)·v, of standard
    /// deviation w/√r; a speed without a course is its speed's error along its own direction, (w/r)·σₛ. The
    /// draws are seeded: a track always gets the same figure. Measured at the estimated steps d̂, not the true
    /// ones: where the noise dominates a step it gives less than the excess (about 41 %, √2 − 1).
    ///
    /// Needs the factor of the solution's system in the band and the solution `x` (the band's layout).
    ///
    /// - Complexity: O(draws × (states + measurements)); one array of 2n.
    func noiseLengthening(
        _ p: TrackProblem, solution x: [Double], positionWeights: [Double], velocityWeights: [Double],
        countedSteps: [Bool]?, draws: Int
    ) -> Double {
        let n = order
        let stateCount = p.stateCount
        guard stateCount > 1, draws > 0 else { return 0 }
        var draw = self
        var signs = RandomSigns()
        var total = 0.0
        for _ in 0..<draws {
            // Each measurement's information-weighted error (w/r)·v, v of variance r per axis; a speed without
            // a course (the velocity entries `p.speeds` names, in ascending order) along its direction only.
            draw.rhs.withUnsafeMutableBufferPointer { b in
                b.update(repeating: 0)
                p.positionState.withUnsafeBufferPointer { state in
                    positionWeights.withUnsafeBufferPointer { w in
                        p.positionVariance.withUnsafeBufferPointer { r in
                            for m in 0..<state.count {
                                let c = 2 * state[m]
                                let sd = w[m] / r[m].squareRoot()
                                b[c] += signs.next() * sd
                                b[n + c] += signs.next() * sd
                            }
                        }
                    }
                }
                p.velocityState.withUnsafeBufferPointer { state in
                    velocityWeights.withUnsafeBufferPointer { w in
                        p.velocityVariance.withUnsafeBufferPointer { r in
                            var speedIndex = 0
                            var nextSpeed = p.speeds.isEmpty ? Int.max : p.speeds[0].entry
                            for m in 0..<state.count {
                                var speedSigma = -1.0
                                if m == nextSpeed {
                                    speedSigma = p.speeds[speedIndex].speedVariance.squareRoot()
                                    speedIndex += 1
                                    nextSpeed = speedIndex < p.speeds.count ? p.speeds[speedIndex].entry : Int.max
                                }
                                guard r[m] < TrackProblem.unalignedVariance else { continue }
                                let c = 2 * state[m] + 1
                                if speedSigma >= 0 {
                                    let e = p.velocityEast[m], no = p.velocityNorth[m]
                                    let length = (e * e + no * no).squareRoot()
                                    guard length > 0 else { continue }
                                    let along = signs.next() * w[m] / r[m] * speedSigma / length
                                    b[c] += along * e
                                    b[n + c] += along * no
                                } else {
                                    let sd = w[m] / r[m].squareRoot()
                                    b[c] += signs.next() * sd
                                    b[n + c] += signs.next() * sd
                                }
                            }
                        }
                    }
                }
            }
            draw.solve()
            draw.rhs.withUnsafeBufferPointer { z in
                x.withUnsafeBufferPointer { x in
                    for s in 1..<stateCount where countedSteps?[s] ?? true {
                        let de = x[2 * s] - x[2 * s - 2], dn = x[n + 2 * s] - x[n + 2 * s - 2]
                        let ze = z[2 * s] - z[2 * s - 2], zn = z[n + 2 * s] - z[n + 2 * s - 2]
                        let plus = ((de + ze) * (de + ze) + (dn + zn) * (dn + zn)).squareRoot()
                        let minus = ((de - ze) * (de - ze) + (dn - zn) * (dn - zn)).squareRoot()
                        total += (plus + minus) / 2 - (de * de + dn * dn).squareRoot()
                    }
                }
            }
        }
        return total / Double(draws)
    }

    /// The selected-inversion recursion of Takahashi, Fagan & Chen (1973) over the band factor, from the last
    /// unknown down: `visit(j, Σⱼⱼ, Σⱼ,ⱼ₊₁, Σⱼ,ⱼ₊₂, Σⱼ,ⱼ₊₃, window)` where the window holds Σ over j + 1 … j + 3
    /// (s11 = Σⱼ₊₁,ⱼ₊₁, s12, s13, s22, s23, s33; zero beyond the last unknown) before it shifts to j.
    @inline(__always)
    func selectedInversion(
        _ visit: (
            _ j: Int, _ diagonal: Double, _ a1: Double, _ a2: Double, _ a3: Double, _ s11: Double, _ s12: Double,
            _ s13: Double, _ s22: Double, _ s23: Double, _ s33: Double
        ) -> Void
    ) {
        let n = order
        band.withUnsafeBufferPointer { u in
            var s11 = 0.0, s12 = 0.0, s13 = 0.0, s22 = 0.0, s23 = 0.0, s33 = 0.0
            var j = n - 1
            while j >= 0 {
                let ujj = u[4 * j + 3]
                let u1 = j + 1 < n ? u[4 * (j + 1) + 2] : 0
                let u2 = j + 2 < n ? u[4 * (j + 2) + 1] : 0
                let u3 = j + 3 < n ? u[4 * (j + 3)] : 0
                let inverse = 1 / ujj
                let a1 = -(u1 * s11 + u2 * s12 + u3 * s13) * inverse
                let a2 = -(u1 * s12 + u2 * s22 + u3 * s23) * inverse
                let a3 = -(u1 * s13 + u2 * s23 + u3 * s33) * inverse
                let diagonal = inverse * inverse - (u1 * a1 + u2 * a2 + u3 * a3) * inverse
                visit(j, diagonal, a1, a2, a3, s11, s12, s13, s22, s23, s33)
                s33 = s22
                s23 = s12
                s22 = s11
                s13 = a2
                s12 = a1
                s11 = diagonal
                j -= 1
            }
        }
    }

    /// The diagonal of A⁻¹ at the position unknowns (the per-axis smoothed position variance of every state,
    /// m²), from the factor by the selected-inversion recursion of Takahashi, Fagan & Chen (1973):
    /// U Σ = U⁻ᵀ gives, for j from the last unknown down, Σⱼᵢ = −(1/Uⱼⱼ) Σₖ Uⱼₖ Σₖᵢ (i > j) and
    /// Σⱼⱼ = 1/Uⱼⱼ² − (1/Uⱼⱼ) Σₖ Uⱼₖ Σₖⱼ, with k over the band j < k ≤ j + 3. Every entry needed lies in the
    /// 3×3 window of Σ over j + 1 … j + 3, so the recursion carries that window in six locals.
    ///
    /// - Complexity: O(n) time (about 30 flops per unknown), O(n) memory for the result only.
    func positionVariances() -> [Double] {
        var result = [Double](repeating: 0, count: order / 2)
        result.withUnsafeMutableBufferPointer { out in
            selectedInversion { j, diagonal, _, _, _, _, _, _, _, _, _ in
                if j & 1 == 0 { out[j >> 1] = diagonal }
            }
        }
        return result
    }
}

/// The running state of ``BandedNormalEquations/assembleFactorAndForwardSubstitute(_:positionWeights:velocityWeights:)``:
/// the last three columns of U and of Y that the next column needs (as ``BandedNormalEquations/factor()`` and
/// ``BandedNormalEquations/solve()`` carry them).
struct ForwardColumn {
    /// 1 / U(j−1, j−1), 1 / U(j−2, j−2), 1 / U(j−3, j−3) (1 before the first unknown).
    var r1 = 1.0, r2 = 1.0, r3 = 1.0
    /// U(j−2, j−1), U(j−3, j−1), U(j−3, j−2).
    var u12 = 0.0, u13 = 0.0, u23 = 0.0
    /// y_{j−1}, y_{j−2}, y_{j−3} for east and north.
    var e1 = 0.0, e2 = 0.0, e3 = 0.0, n1 = 0.0, n2 = 0.0, n3 = 0.0

    /// Factors column j of A (A(j−3 … j, j) = a0, a1, a2, diagonal), stores it as column j of U, and
    /// forward-substitutes the right-hand sides' entries (east, north) into y_j. `false` when the pivot is
    /// not positive and finite.
    @inline(__always)
    mutating func push(
        _ u: UnsafeMutableBufferPointer<Double>, _ b: UnsafeMutableBufferPointer<Double>, j: Int, n: Int,
        a0: Double, a1: Double, a2: Double, diagonal: Double, east: Double, north: Double
    ) -> Bool {
        let c0 = a0 * r3  // U(j−3, j)
        let c1 = (a1 - u23 * c0) * r2  // U(j−2, j)
        let c2 = (a2 - u13 * c0 - u12 * c1) * r1  // U(j−1, j)
        let pivot = diagonal - c0 * c0 - c1 * c1 - c2 * c2
        guard pivot > 0, pivot.isFinite else { return false }
        let ujj = pivot.squareRoot()
        let c = 4 * j
        u[c] = c0
        u[c + 1] = c1
        u[c + 2] = c2
        u[c + 3] = ujj
        let inverse = 1 / ujj
        let ye = (east - c2 * e1 - c1 * e2 - c0 * e3) * inverse
        let yn = (north - c2 * n1 - c1 * n2 - c0 * n3) * inverse
        b[j] = ye
        b[n + j] = yn
        e3 = e2
        e2 = e1
        e1 = ye
        n3 = n2
        n2 = n1
        n1 = yn
        u23 = u12
        u13 = c1
        u12 = c2
        r3 = r2
        r2 = r1
        r1 = inverse
        return true
    }
}

/// Random signs (±1) from a fixed seed, 64 per SplitMix64 output: the smoother's sampled term is the same on
/// every run of a track.
struct RandomSigns {
    private var state: UInt64 = 0x5EED_0F74_7275_6573
    private var bits: UInt64 = 0
    private var left = 0

    /// The next sign, +1 or −1.
    mutating func next() -> Double {
        if left == 0 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            bits = z ^ (z >> 31)
            left = 64
        }
        left -= 1
        defer { bits >>= 1 }
        return bits & 1 == 0 ? 1 : -1
    }
}
