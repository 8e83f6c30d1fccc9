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

    /// Unknowns (2 per state).
    let order: Int
    /// The band (then its Cholesky factor U, A = UᵀU, after ``factor()``).
    var band: [Double]
    /// Right-hand sides, column-major: east in `0..<order`, north in `order..<2·order`; the solution after
    /// ``solve()``.
    var rhs: [Double]

    init(stateCount: Int) {
        order = 2 * stateCount
        band = [Double](repeating: 0, count: 4 * order)
        rhs = [Double](repeating: 0, count: 2 * order)
    }

    /// Fills the band and the right-hand sides for the given robust weights.
    ///
    /// - Complexity: O(states + measurements).
    mutating func assemble(_ p: TrackProblem, positionWeights: [Double], velocityWeights: [Double]) {
        let n = order
        let q = p.processDensity
        let ip0 = 1 / p.initialPositionVariance, iv0 = 1 / p.initialVelocityVariance
        band.withUnsafeMutableBufferPointer { ab in
            rhs.withUnsafeMutableBufferPointer { b in
                for i in 0..<(ab.count) { ab[i] = 0 }
                for i in 0..<(b.count) { b[i] = 0 }
                p.times.withUnsafeBufferPointer { t in
                    for s in 0..<p.stateCount {
                        let cp = 2 * s, cv = cp + 1
                        if p.opensSegment[s] {
                            ab[4 * cp + 3] += ip0
                            ab[4 * cv + 3] += iv0
                            b[cp] += p.priorEast[s] * ip0
                            b[n + cp] += p.priorNorth[s] * ip0
                        } else {
                            let dt = t[s] - t[s - 1]
                            let i1 = 1 / (q * dt), i2 = i1 / dt, i3 = i2 / dt
                            let kp = cp - 2, kv = cp - 1
                            // Block (k, k) += FᵀQ⁻¹F.
                            ab[4 * kp + 3] += 12 * i3
                            ab[4 * kv + 2] += 6 * i2
                            ab[4 * kv + 3] += 4 * i1
                            // Block (k + 1, k + 1) += Q⁻¹.
                            ab[4 * cp + 3] += 12 * i3
                            ab[4 * cv + 2] -= 6 * i2
                            ab[4 * cv + 3] += 4 * i1
                            // Block (k, k + 1) = −FᵀQ⁻¹.
                            ab[4 * cp + 1] = -12 * i3  // (p_k, p_k+1)
                            ab[4 * cv + 0] = 6 * i2  // (p_k, v_k+1)
                            ab[4 * cp + 2] = -6 * i2  // (v_k, p_k+1)
                            ab[4 * cv + 1] = 2 * i1  // (v_k, v_k+1)
                        }
                    }
                }
                for m in 0..<p.positionState.count {
                    let c = 2 * p.positionState[m]
                    let info = positionWeights[m] / p.positionVariance[m]
                    ab[4 * c + 3] += info
                    b[c] += info * p.positionEast[m]
                    b[n + c] += info * p.positionNorth[m]
                }
                for m in 0..<p.velocityState.count {
                    let c = 2 * p.velocityState[m] + 1
                    let info = velocityWeights[m] / p.velocityVariance[m]
                    ab[4 * c + 3] += info
                    b[c] += info * p.velocityEast[m]
                    b[n + c] += info * p.velocityNorth[m]
                }
            }
        }
    }

    /// Factors the band in place with LAPACK `dpbtrf` (A = UᵀU). Returns `false` when LAPACK reports the
    /// matrix not positive definite (it never is in exact arithmetic; see the caller's fallback).
    mutating func factor() -> Bool {
        var uplo = CChar(UInt8(ascii: "U"))
        var n = Int32(order), kd = Int32(Self.kd), ldab = Int32(Self.ldab), info: Int32 = 0
        band.withUnsafeMutableBufferPointer { ab in
            dpbtrf_(&uplo, &n, &kd, ab.baseAddress, &ldab, &info, 1)
        }
        return info == 0
    }

    /// Solves A X = B for `columns` right-hand sides stored column-major in `b`, with the factor from
    /// ``factor()`` (LAPACK `dpbtrs`).
    func solve(_ b: inout [Double], columns: Int) {
        var uplo = CChar(UInt8(ascii: "U"))
        var n = Int32(order), kd = Int32(Self.kd), ldab = Int32(Self.ldab), nrhs = Int32(columns)
        var ldb = Int32(max(order, 1)), info: Int32 = 0
        band.withUnsafeBufferPointer { ab in
            b.withUnsafeMutableBufferPointer { x in
                dpbtrs_(&uplo, &n, &kd, &nrhs, ab.baseAddress, &ldab, x.baseAddress, &ldb, &info, 1)
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
        let n = order
        var result = [Double](repeating: 0, count: n / 2)
        band.withUnsafeBufferPointer { u in
            result.withUnsafeMutableBufferPointer { out in
                // Window over unknowns j+1, j+2, j+3 (zero beyond the last unknown).
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
                    s33 = s22
                    s23 = s12
                    s22 = s11
                    s13 = a2
                    s12 = a1
                    s11 = diagonal
                    if j & 1 == 0 { out[j >> 1] = diagonal }
                    j -= 1
                }
            }
        }
        return result
    }
}
