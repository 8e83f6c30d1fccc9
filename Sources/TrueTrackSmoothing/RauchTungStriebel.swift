/// The Rauch–Tung–Striebel (1965) fixed-interval smoother on the same model and the same weighted
/// measurements as the banded system (internal): the reference the LAPACK solver is tested against.
///
/// Forward: a Kalman filter per segment, started from the same weak prior, predicting with
/// F = [[1, dt], [0, 1]] and Q = q [[dt³/3, dt²/2], [dt²/2, dt]], updating with each position measurement
/// (variance r / w) and velocity measurement (variance r / w) of a state in turn. Backward:
/// Cₖ = Pₖ|ₖ Fᵀ P⁻¹ₖ₊₁|ₖ, xₖ|ₙ = xₖ|ₖ + Cₖ (xₖ₊₁|ₙ − xₖ₊₁|ₖ), Pₖ|ₙ = Pₖ|ₖ + Cₖ (Pₖ₊₁|ₙ − Pₖ₊₁|ₖ) Cₖᵀ.
/// Both axes share the 2×2 covariance (isotropic noise), as in the forward filter.
struct RauchTungStriebel {
    /// Smoothed means per state: east, north (m), v_east, v_north (m/s).
    var east: [Double]
    var north: [Double]
    var velocityEast: [Double]
    var velocityNorth: [Double]
    /// Smoothed per-axis covariance per state: P_pp (m²), P_pv (m²/s) (P_vv is not needed by any caller).
    var pp: [Double]
    var pv: [Double]
    /// Smoother gains per state (Cₖ, 2×2 row-major; zero at a segment's last state).
    var gain: [(Double, Double, Double, Double)]

    /// Runs the smoother.
    ///
    /// - Complexity: O(states + measurements) time and memory.
    init(_ p: TrackProblem, positionWeights: [Double], velocityWeights: [Double]) {
        let n = p.stateCount
        // Filtered (and later smoothed) means and covariances; predicted ones for the backward pass.
        var xe = [Double](repeating: 0, count: n), xn = xe, ve = xe, vn = xe
        var fpp = xe, fpv = xe, fvv = xe
        var ppp = xe, ppv = xe, pvv = xe
        var m = 0, v = 0
        for s in 0..<n {
            var e = 0.0, no = 0.0, a = 0.0, b = 0.0, c00 = 0.0, c01 = 0.0, c11 = 0.0
            if p.opensSegment[s] {
                // The segment's prior: its first fix (position measurement m is the state's first).
                e = p.positionEast[m]
                no = p.positionNorth[m]
                c00 = p.initialPositionVariance
                c11 = p.initialVelocityVariance
            } else {
                let dt = p.times[s] - p.times[s - 1]
                let q = p.processDensity(intoState: s)
                e = xe[s - 1] + ve[s - 1] * dt
                no = xn[s - 1] + vn[s - 1] * dt
                a = ve[s - 1]
                b = vn[s - 1]
                let q00 = fpp[s - 1], q01 = fpv[s - 1], q11 = fvv[s - 1]
                c00 = q00 + 2 * dt * q01 + dt * dt * q11 + q * dt * dt * dt / 3
                c01 = q01 + dt * q11 + q * dt * dt / 2
                c11 = q11 + q * dt
            }
            ppp[s] = c00
            ppv[s] = c01
            pvv[s] = c11
            while m < p.positionState.count && p.positionState[m] == s {
                let r = p.positionVariance[m] / positionWeights[m]
                let sInv = 1 / (c00 + r)
                let k0 = c00 * sInv, k1 = c01 * sInv
                let de = p.positionEast[m] - e, dn = p.positionNorth[m] - no
                e += k0 * de
                no += k0 * dn
                a += k1 * de
                b += k1 * dn
                let n00 = c00 - k0 * c00, n01 = c01 - k0 * c01, n11 = c11 - k1 * c01
                c00 = n00
                c01 = n01
                c11 = n11
                m += 1
            }
            while v < p.velocityState.count && p.velocityState[v] == s {
                let r = p.velocityVariance[v] / velocityWeights[v]
                let sInv = 1 / (c11 + r)
                let k0 = c01 * sInv, k1 = c11 * sInv
                let de = p.velocityEast[v] - a, dn = p.velocityNorth[v] - b
                e += k0 * de
                no += k0 * dn
                a += k1 * de
                b += k1 * dn
                let n00 = c00 - k0 * c01, n01 = c01 - k0 * c11, n11 = c11 - k1 * c11
                c00 = n00
                c01 = n01
                c11 = n11
                v += 1
            }
            xe[s] = e
            xn[s] = no
            ve[s] = a
            vn[s] = b
            fpp[s] = c00
            fpv[s] = c01
            fvv[s] = c11
        }
        // Backward pass, in place.
        var gain = [(Double, Double, Double, Double)](repeating: (0, 0, 0, 0), count: n)
        var s = n - 2
        while s >= 0 {
            defer { s -= 1 }
            if p.opensSegment[s + 1] { continue }
            let dt = p.times[s + 1] - p.times[s]
            // Pₖ|ₖ Fᵀ with F = [[1, dt], [0, 1]].
            let a00 = fpp[s] + dt * fpv[s], a01 = fpv[s]
            let a10 = fpv[s] + dt * fvv[s], a11 = fvv[s]
            // Inverse of the predicted covariance.
            let det = ppp[s + 1] * pvv[s + 1] - ppv[s + 1] * ppv[s + 1]
            let i00 = pvv[s + 1] / det, i01 = -ppv[s + 1] / det, i11 = ppp[s + 1] / det
            let g00 = a00 * i00 + a01 * i01, g01 = a00 * i01 + a01 * i11
            let g10 = a10 * i00 + a11 * i01, g11 = a10 * i01 + a11 * i11
            gain[s] = (g00, g01, g10, g11)
            // Means: x += C (x_s,k+1 − F x_f,k).
            let pe = xe[s] + dt * ve[s], pn = xn[s] + dt * vn[s]
            let de = xe[s + 1] - pe, dve = ve[s + 1] - ve[s]
            let dn = xn[s + 1] - pn, dvn = vn[s + 1] - vn[s]
            xe[s] += g00 * de + g01 * dve
            ve[s] += g10 * de + g11 * dve
            xn[s] += g00 * dn + g01 * dvn
            vn[s] += g10 * dn + g11 * dvn
            // Covariance: P += C (P_s,k+1 − P_p,k+1) Cᵀ.
            let d00 = fpp[s + 1] - ppp[s + 1], d01 = fpv[s + 1] - ppv[s + 1], d11 = fvv[s + 1] - pvv[s + 1]
            let t00 = g00 * d00 + g01 * d01, t01 = g00 * d01 + g01 * d11
            let t10 = g10 * d00 + g11 * d01, t11 = g10 * d01 + g11 * d11
            fpp[s] += t00 * g00 + t01 * g01
            fpv[s] += t00 * g10 + t01 * g11
            fvv[s] += t10 * g10 + t11 * g11
        }
        east = xe
        north = xn
        velocityEast = ve
        velocityNorth = vn
        pp = fpp
        pv = fpv
        self.gain = gain
    }

    /// gᵀ Σ g for a gradient g on the positions only (per axis, `gEast`, `gNorth`), where Σ is the full
    /// smoothed covariance: with Cov(xₖ, xⱼ) = Cₖ Cov(xₖ₊₁, xⱼ) for j > k, the sums mₖ = Pₖ gₖ + Cₖ mₖ₊₁ give
    /// gᵀΣg = Σₖ gₖᵀ (2 mₖ − Pₖ gₖ) in one backward pass.
    ///
    /// - Complexity: O(states).
    func quadraticForm(gEast: [Double], gNorth: [Double]) -> Double {
        var total = 0.0
        for g in [gEast, gNorth] {
            var m0 = 0.0, m1 = 0.0
            var s = g.count - 1
            while s >= 0 {
                let c = gain[s]
                let pg0 = pp[s] * g[s], pg1 = pv[s] * g[s]
                let n0 = pg0 + c.0 * m0 + c.1 * m1
                let n1 = pg1 + c.2 * m0 + c.3 * m1
                m0 = n0
                m1 = n1
                total += g[s] * (2 * m0 - pg0)
                s -= 1
            }
        }
        return total
    }
}
