import Testing
import TrueTrackCore
import TrueTrackSimulation
@testable import TrueTrackSmoothing

/// The hand-written kd = 3 substitutions against LAPACK's own (`dpbtrs`, `dtbtrs`) on the same `dpbtrf`
/// factor.
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
}
