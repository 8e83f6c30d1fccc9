import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// The hand-written kd = 3 factorisation and substitutions against LAPACK's own (`dpbtrf`, `dpbtrs`,
/// `dtbtrs`).
@Suite struct BandedSubstitutionTests {
    /// A factored system from a simulated drive (Doppler, a gap), with seeded random weights and
    /// right-hand sides.
    func factoredSystem(seed: UInt64) throws -> (BandedNormalEquations, [Double]) {
        let fixes = Simulator.simulate(.tunnelDrive, errors: .degradedPhone, seed: seed).fixes
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        var rng = TestRNG(state: seed)
        let pw = (0..<problem.positionState.count).map { _ in 0.05 + rng.uniform() }
        let vw = (0..<problem.velocityState.count).map { _ in 0.05 + rng.uniform() }
        var system = BandedNormalEquations(stateCount: problem.stateCount)
        system.assemble(problem, positionWeights: pw, velocityWeights: vw)
        let factored = system.factor()
        try #require(factored)
        let b = (0..<(2 * system.order)).map { _ in rng.uniform() * 200 - 100 }
        return (system, b)
    }

    /// The one-pass assemble + factor + forward substitution, then the backward substitution, gives the
    /// separate steps' factor and solution bit for bit (same arithmetic in the same order).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func fusedPassIsBitIdenticalToSeparateSteps(seed: UInt64) throws {
        let fixes = Simulator.simulate(.tunnelDrive, errors: .degradedPhone, seed: seed).fixes
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        #expect(problem.segmentCount > 1)
        #expect(problem.velocityState.count > 0)
        var rng = TestRNG(state: seed)
        let pw = (0..<problem.positionState.count).map { _ in 0.05 + rng.uniform() }
        let vw = (0..<problem.velocityState.count).map { _ in 0.05 + rng.uniform() }
        var separate = BandedNormalEquations(stateCount: problem.stateCount)
        separate.assemble(problem, positionWeights: pw, velocityWeights: vw)
        let separateFactored = separate.factor()
        try #require(separateFactored)
        separate.solve()
        var fused = BandedNormalEquations(stateCount: problem.stateCount)
        let fusedFactored = fused.assembleFactorAndForwardSubstitute(
            problem, positionWeights: pw, velocityWeights: vw)
        try #require(fusedFactored)
        fused.backSubstitute()
        #expect(fused.band.map(\.bitPattern) == separate.band.map(\.bitPattern))
        #expect(fused.rhs.map(\.bitPattern) == separate.rhs.map(\.bitPattern))
        #expect(fused.rhs.contains { $0 != 0 })
    }

    /// Reweighting during the backward substitution gives the separate pass's solution, weights and count
    /// of moved weights bit for bit.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func reweightingDuringBackSubstitutionIsBitIdentical(seed: UInt64) throws {
        let fixes = Simulator.simulate(.tunnelDrive, errors: .degradedPhone, seed: seed).fixes
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        var rng = TestRNG(state: seed)
        let pw = (0..<problem.positionState.count).map { _ in 0.05 + rng.uniform() }
        let vw = (0..<problem.velocityState.count).map { _ in 0.05 + rng.uniform() }
        var system = BandedNormalEquations(stateCount: problem.stateCount)
        let factored = system.assembleFactorAndForwardSubstitute(problem, positionWeights: pw, velocityWeights: vw)
        try #require(factored)
        var separate = system
        separate.backSubstitute()
        var separatePositionWeights = pw, separateVelocityWeights = vw
        let separateMoving = WholeTrackSmoother.reweight(
            problem, loss: .standard, solution: separate.rhs, tolerance: 0.01,
            positionWeights: &separatePositionWeights, velocityWeights: &separateVelocityWeights)
        var fusedPositionWeights = pw, fusedVelocityWeights = vw
        let fusedMoving = system.backSubstituteAndReweight(
            problem, loss: .standard, tolerance: 0.01, positionWeights: &fusedPositionWeights,
            velocityWeights: &fusedVelocityWeights)
        #expect(separateMoving > 0)
        #expect(fusedMoving == separateMoving)
        #expect(system.rhs.map(\.bitPattern) == separate.rhs.map(\.bitPattern))
        #expect(fusedPositionWeights.map(\.bitPattern) == separatePositionWeights.map(\.bitPattern))
        #expect(fusedVelocityWeights.map(\.bitPattern) == separateVelocityWeights.map(\.bitPattern))
        #expect(fusedPositionWeights != pw)
    }

    /// A matrix that is not positive definite is reported by the one-pass factorisation too.
    @Test func fusedPassReportsAMatrixThatIsNotPositiveDefinite() {
        let fixes = Simulator.simulate(.tunnelDrive, errors: .degradedPhone, seed: 1).fixes
        var problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        problem.positionVariance[0] = -1e-9  // a huge negative information at state 0
        var system = BandedNormalEquations(stateCount: problem.stateCount)
        let pw = [Double](repeating: 1, count: problem.positionState.count)
        let vw = [Double](repeating: 1, count: problem.velocityState.count)
        let factored = system.assembleFactorAndForwardSubstitute(problem, positionWeights: pw, velocityWeights: vw)
        #expect(!factored)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func solveMatchesLAPACK(seed: UInt64) throws {
        var (system, b) = try factoredSystem(seed: seed)
        #expect(system.order > 300)
        system.rhs = b
        system.solve()
        let mine = system.rhs
        system.rhs = b
        system.solveWithLAPACK()
        var worst = 0.0, largest = 0.0
        for (x, y) in zip(mine, system.rhs) {
            worst = max(worst, abs(x - y))
            largest = max(largest, abs(y))
        }
        #expect(largest > 0)
        #expect(worst <= 1e-9 * largest)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func quadraticFormMatchesLAPACK(seed: UInt64) throws {
        var (system, b) = try factoredSystem(seed: seed)
        system.rhs = b
        let mine = system.quadraticForm()
        system.rhs = b
        let reference = system.quadraticFormWithLAPACK()
        #expect(reference > 0)
        #expect(abs(mine - reference) <= 1e-10 * reference)
        // And it is bᵀ A⁻¹ b: the full solve's dot product.
        system.rhs = b
        system.solveWithLAPACK()
        var dot = 0.0
        for i in 0..<b.count { dot += b[i] * system.rhs[i] }
        #expect(abs(dot - reference) <= 1e-8 * reference)
    }

    /// The hand-written banded Cholesky equals LAPACK `dpbtrf` entry by entry, gap (a new segment) included.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func factorMatchesLAPACK(seed: UInt64) throws {
        let fixes = Simulator.simulate(.tunnelDrive, errors: .degradedPhone, seed: seed).fixes
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        #expect(problem.segmentCount == 2)
        var rng = TestRNG(state: seed)
        let pw = (0..<problem.positionState.count).map { _ in 0.05 + rng.uniform() }
        let vw = (0..<problem.velocityState.count).map { _ in 0.05 + rng.uniform() }
        var mine = BandedNormalEquations(stateCount: problem.stateCount)
        mine.assemble(problem, positionWeights: pw, velocityWeights: vw)
        var reference = mine
        let factored = mine.factor(), referenceFactored = reference.factorWithLAPACK()
        #expect(factored)
        #expect(referenceFactored)
        var worst = 0.0
        // Entries above the matrix (the first columns' unused band slots) are not compared.
        for j in 0..<mine.order {
            for slot in max(0, 3 - j)...3 {
                let a = mine.band[4 * j + slot], b = reference.band[4 * j + slot]
                worst = max(worst, abs(a - b) / max(abs(b), 1e-300))
            }
        }
        #expect(worst < 1e-10)
    }

    /// A matrix that is not positive definite is reported, not factored into NaNs.
    @Test func factorReportsANonPositiveDefiniteMatrix() {
        var system = BandedNormalEquations(stateCount: 2)
        for i in system.band.indices { system.band[i] = 0 }
        system.band[3] = 1
        system.band[7] = -1  // a negative pivot at unknown 1
        let factored = system.factor()
        #expect(!factored)
    }

    /// The posterior moments from the selected inversion equal those of the dense inverse (Gauss–Jordan on
    /// the assembled matrix of a short track).
    @Test func posteriorMomentsMatchTheDenseInverse() throws {
        let fixes = Array(Simulator.simulate(.tunnelDrive, errors: .degradedPhone, seed: 5).fixes.prefix(40))
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        var system = BandedNormalEquations(stateCount: problem.stateCount)
        let pw = [Double](repeating: 1, count: problem.positionState.count)
        let vw = [Double](repeating: 1, count: problem.velocityState.count)
        system.assemble(problem, positionWeights: pw, velocityWeights: vw)
        let n = system.order
        var dense = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
        for j in 0..<n {
            for i in max(0, j - 3)...j {
                dense[i][j] = system.band[4 * j + 3 + i - j]
                dense[j][i] = dense[i][j]
            }
        }
        // Gauss–Jordan inverse (small, well conditioned: an oracle, not a solver).
        var inverse = (0..<n).map { i in (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        for c in 0..<n {
            let pivot = dense[c][c]
            for k in 0..<n {
                dense[c][k] /= pivot
                inverse[c][k] /= pivot
            }
            for r in 0..<n where r != c {
                let f = dense[r][c]
                guard f != 0 else { continue }
                for k in 0..<n {
                    dense[r][k] -= f * dense[c][k]
                    inverse[r][k] -= f * inverse[c][k]
                }
            }
        }
        let factored = system.factor()
        #expect(factored)
        let moments = system.posteriorMoments(problem)
        var trace = 0.0
        for s in 0..<(problem.stateCount - 1) where !problem.opensSegment[s + 1] {
            let dt = problem.times[s + 1] - problem.times[s]
            let a = 2 * s, b = a + 1, c = a + 2, d = a + 3
            let S = inverse
            let epp = S[c][c] + S[a][a] + dt * dt * S[b][b] - 2 * S[a][c] - 2 * dt * S[b][c] + 2 * dt * S[a][b]
            let evv = S[d][d] + S[b][b] - 2 * S[b][d]
            let epv = S[c][d] - S[b][c] - S[a][d] + S[a][b] - dt * S[b][d] + dt * S[b][b]
            // (Per unit of the problem's density: a link with its own factor counts divided by it.)
            let scale = problem.processScale.isEmpty ? 1 : problem.processScale[s + 1]
            trace += (12 / (dt * dt * dt) * epp - 12 / (dt * dt) * epv + 4 / dt * evv) / scale
        }
        for s in 0..<problem.stateCount {
            #expect(abs(moments.positionVariance[s] - inverse[2 * s][2 * s]) <= 1e-9 * inverse[2 * s][2 * s])
            #expect(
                abs(moments.velocityVariance[s] - inverse[2 * s + 1][2 * s + 1])
                    <= 1e-9 * inverse[2 * s + 1][2 * s + 1])
        }
        #expect(trace > 0)
        #expect(abs(moments.linkTrace - trace) <= 1e-8 * trace)
    }
}
