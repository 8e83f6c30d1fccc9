import CLAPACK

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole-track normal equations with a first-order Gauss–Markov position bias per axis (internal,
/// experimental: measured, not used by the default path).
///
/// ## Model
/// Each fix observes the position plus a bias plus white noise, z = p + b + ε; the bias drifts as
/// bₖ₊₁ = φ bₖ + wₖ with φ = exp(−dt/τ) and Var(wₖ) = σ_b²(1 − φ²) (stationary variance σ_b²), independent of
/// the constant-velocity motion of (p, v), which the Doppler velocities observe without the bias. ε has the
/// fix's per-axis variance times `whiteVarianceScale`. A segment's first bias has the prior N(0, σ_b²).
///
/// ## Layout
/// Unknowns (p₀, v₀, b₀, p₁, v₁, b₁, …) per axis; a state couples only with the next one, so the matrix has
/// kd = 5 super-diagonals (p_k to b_k+1). LAPACK's upper band storage (LDAB = 6); factored and solved with
/// `dpbtrf`/`dpbtrs` for both axes (one matrix, two right-hand sides).
struct BiasAugmentedEquations {
    static let kd = 5
    static let ldab = 6

    /// Unknowns per axis (3 per state).
    let order: Int
    var band: [Double]
    /// East in `0..<order`, north in `order..<2·order`; the solution after ``solve()``.
    var rhs: [Double]

    init(stateCount: Int) {
        order = 3 * stateCount
        band = [Double](repeating: 0, count: Self.ldab * order)
        rhs = [Double](repeating: 0, count: 2 * order)
    }

    private mutating func add(_ i: Int, _ j: Int, _ value: Double) {
        // A(i, j), i ≤ j ≤ i + kd, at band[ldab j + kd + i − j].
        band[Self.ldab * j + Self.kd + i - j] += value
    }

    /// Fills the band and right-hand sides.
    ///
    /// - Parameters:
    ///   - whiteVarianceScale: factor on every fix's per-axis variance for the white part ε.
    ///   - biasVariance: σ_b², m² per axis.
    ///   - correlationSeconds: τ, seconds.
    /// - Complexity: O(states + measurements).
    mutating func assemble(
        _ p: TrackProblem, positionWeights: [Double], velocityWeights: [Double], whiteVarianceScale: Double,
        biasVariance: Double, correlationSeconds: Double
    ) {
        for i in band.indices { band[i] = 0 }
        for i in rhs.indices { rhs[i] = 0 }
        let n = order
        let inverseQ = 1 / p.processDensity
        let ip0 = 1 / p.initialPositionVariance, iv0 = 1 / p.initialVelocityVariance
        let ib0 = 1 / biasVariance
        for s in 0..<p.stateCount {
            let cp = 3 * s, cv = cp + 1, cb = cp + 2
            if p.opensSegment[s] {
                add(cp, cp, ip0)
                add(cv, cv, iv0)
                add(cb, cb, ib0)
                rhs[cp] += p.priorEast[s] * ip0
                rhs[n + cp] += p.priorNorth[s] * ip0
            }
            guard s + 1 < p.stateCount, !p.opensSegment[s + 1] else { continue }
            let dt = p.times[s + 1] - p.times[s]
            let l1 = inverseQ / dt, l2 = l1 / dt, l3 = l2 / dt
            let np = cp + 3, nv = cv + 3, nb = cb + 3
            // Constant-velocity link: FᵀQ⁻¹F on (k, k), Q⁻¹ on (k + 1, k + 1), −FᵀQ⁻¹ on (k, k + 1).
            add(cp, cp, 12 * l3)
            add(cp, cv, 6 * l2)
            add(cv, cv, 4 * l1)
            add(np, np, 12 * l3)
            add(np, nv, -6 * l2)
            add(nv, nv, 4 * l1)
            add(cp, np, -12 * l3)
            add(cv, np, -6 * l2)
            add(cp, nv, 6 * l2)
            add(cv, nv, 2 * l1)
            // Gauss–Markov bias link.
            let phi = exp(-dt / correlationSeconds)
            let inverseDrive = 1 / max(biasVariance * (1 - phi * phi), SmoothingOptions.minimumVariance)
            add(cb, cb, phi * phi * inverseDrive)
            add(cb, nb, -phi * inverseDrive)
            add(nb, nb, inverseDrive)
        }
        for m in 0..<p.positionState.count {
            let cp = 3 * p.positionState[m], cb = cp + 2
            let info = positionWeights[m] / max(p.positionVariance[m] * whiteVarianceScale, SmoothingOptions.minimumVariance)
            add(cp, cp, info)
            add(cp, cb, info)
            add(cb, cb, info)
            rhs[cp] += info * p.positionEast[m]
            rhs[cb] += info * p.positionEast[m]
            rhs[n + cp] += info * p.positionNorth[m]
            rhs[n + cb] += info * p.positionNorth[m]
        }
        for m in 0..<p.velocityState.count {
            let cv = 3 * p.velocityState[m] + 1
            let info = velocityWeights[m] / p.velocityVariance[m]
            add(cv, cv, info)
            rhs[cv] += info * p.velocityEast[m]
            rhs[n + cv] += info * p.velocityNorth[m]
        }
    }

    /// Factors with LAPACK `dpbtrf` and solves both axes with `dpbtrs` in place. Returns `false` when LAPACK
    /// reports the matrix not positive definite.
    mutating func solve() -> Bool {
        var uplo = CChar(UInt8(ascii: "U"))
        var n = Int32(order), kd = Int32(Self.kd), ldab = Int32(Self.ldab), info: Int32 = 0
        band.withUnsafeMutableBufferPointer { ab in
            dpbtrf_(&uplo, &n, &kd, ab.baseAddress, &ldab, &info, 1)
        }
        guard info == 0 else { return false }
        var nrhs: Int32 = 2, ldb = Int32(max(order, 1))
        band.withUnsafeBufferPointer { ab in
            rhs.withUnsafeMutableBufferPointer { x in
                dpbtrs_(&uplo, &n, &kd, &nrhs, ab.baseAddress, &ldab, x.baseAddress, &ldb, &info, 1)
            }
        }
        return info == 0
    }

    /// The plane length of the positions p (bias removed), metres.
    func planeLength(stateCount: Int) -> Double {
        var length = 0.0
        for s in 1..<max(stateCount, 1) {
            let de = rhs[3 * s] - rhs[3 * (s - 1)], dn = rhs[order + 3 * s] - rhs[order + 3 * (s - 1)]
            length += (de * de + dn * dn).squareRoot()
        }
        return length
    }
}

extension WholeTrackSmoother {
    /// Experimental: re-solves with the Gauss–Markov bias model at the final weights and writes its
    /// positions and velocities over `system.rhs` (the white model's factor stays in `system.band`).
    static func replaceWithBiasModel(
        _ p: TrackProblem, options: SmoothingOptions, positionWeights: [Double], velocityWeights: [Double],
        system: inout BandedNormalEquations
    ) {
        let white = options.biasWhiteScale > 0
            ? options.biasWhiteScale
            : (whiteAccuracyScale(p, solution: system.rhs, positionWeights: positionWeights) ?? 1)
        let white2 = min(white * white, 0.99)
        var meanVariance = 0.0
        for r in p.positionVariance { meanVariance += r }
        meanVariance /= Double(max(p.positionVariance.count, 1))
        var augmented = BiasAugmentedEquations(stateCount: p.stateCount)
        augmented.assemble(
            p, positionWeights: positionWeights, velocityWeights: velocityWeights, whiteVarianceScale: white2,
            biasVariance: max((1 - white2) * meanVariance, SmoothingOptions.minimumVariance),
            correlationSeconds: options.biasCorrelationSeconds)
        guard augmented.solve() else { return }
        let order = system.order, o3 = augmented.order
        for s in 0..<p.stateCount {
            system.rhs[2 * s] = augmented.rhs[3 * s]
            system.rhs[2 * s + 1] = augmented.rhs[3 * s + 1]
            system.rhs[order + 2 * s] = augmented.rhs[o3 + 3 * s]
            system.rhs[order + 2 * s + 1] = augmented.rhs[o3 + 3 * s + 1]
        }
    }
}
