import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// The stillness gate's white-noise floor (``StillnessGate/whiteNoiseSigmas``): a vehicle logger every few
/// seconds without speeds whose error is white noise, parked, drew a smoothed track that followed each fix, and
/// the accuracy threshold of a 15 s window passed on its parked hours.
@Suite struct WhiteJitterTests {
    /// A logger every `cadence` s (±10 %, seeded) for `seconds`, along `position(t)`, with white noise of σ 5 m
    /// per axis and an honest 68 % radius (1.51 σ, 7.5 m), without speeds.
    static func whiteLogger(
        seconds: Double, cadence: Double, seed: UInt64, position: (Double) -> (Double, Double)
    ) -> [Fix] {
        S.whiteLogger(seconds: seconds, cadence: cadence, sigma: 5, accuracy: 7.5, seed: seed, position: position)
    }

    /// Parked, then 3,000 m east and 1,000 m north at 10 m/s (with a corner), then parked again.
    static func parkedDriveParked(_ t: Double) -> (Double, Double) {
        let drive = min(max(t - 1800, 0) * 10, 4000)
        return drive <= 3000 ? (drive, 0) : (3000, drive - 3000)
    }

    @Test(arguments: [5.0, 10.0, 15.0])
    func aParkedVehicleLoggerWhoseFixesScatterAfreshCountsNothing(cadence: Double) {
        // One hour at rest. Without the floor the smoothed track counted 1.1–1.4 km of this scatter.
        let fixes = Self.whiteLogger(seconds: 3600, cadence: cadence, seed: 71) { _ in (0, 0) }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.distanceMetres < 20, "\(track.distanceMetres) m in an hour parked, a fix every \(cadence) s")
    }

    @Test(arguments: [5.0, 10.0, 15.0])
    func aDriveBetweenTwoParkedSpellsKeepsItsLength(cadence: Double) {
        // Half an hour parked, 4,000 m at 10 m/s, half an hour parked: the floor of the parked spells' scatter
        // must not hold the drive out of them (the drive's pairs of steps longer than ten accuracies are skipped and
        // the parked share carries on, but the drive's net displacement lies far beyond its floor).
        let fixes = Self.whiteLogger(seconds: 4000, cadence: cadence, seed: 72, position: Self.parkedDriveParked)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(abs(track.distanceMetres - 4000) < 0.04 * 4000, "\(track.distanceMetres) m of 4,000")
    }

    @Test func aReceiverWhoseErrorDriftsHasNoWhiteJitter() throws {
        // A parked logger every 10 s whose error is a Gauss–Markov drift (σ 5 m, τ 300 s): consecutive steps
        // hardly share an error, and the floor stays far below the accuracy threshold.
        var rng = TestRNG(state: 73)
        var ex = 0.0, ey = 0.0
        let rho = exp(-10.0 / 300), q = 5 * (1 - rho * rho).squareRoot()
        let fixes = (0..<360).map { k -> Fix in
            ex = rho * ex + q * rng.gaussian()
            ey = rho * ey + q * rng.gaussian()
            return S.fix(seconds: 10 * Double(k), east: ex, north: ey, accuracy: 7.5)
        }
        let options = SmoothingOptions(profile: .driving)
        let problem = TrackProblem(fixes: fixes, options: options)
        let gate = StillnessGate(profile: .driving)
        let variances = [Double](repeating: 1, count: problem.stateCount)
        let jitter = try #require(
            gate.whiteJitterVariances(problem, positionVariances: variances, longestStepSeconds: .infinity))
        #expect(jitter.max()! < 0.2, "\(jitter.max()!)")
        // The same place with white noise reads a share near 1 of the fixes' variance.
        let white = Self.whiteLogger(seconds: 3600, cadence: 10, seed: 74) { _ in (0, 0) }
        let whiteProblem = TrackProblem(fixes: white, options: options)
        let whiteJitter = try #require(
            gate.whiteJitterVariances(
                whiteProblem, positionVariances: [Double](repeating: 1, count: whiteProblem.stateCount),
                longestStepSeconds: .infinity))
        let middle = whiteJitter.sorted()[whiteJitter.count / 2]
        #expect(middle > 0.6 && middle < 1.4, "\(middle)")
    }

    @Test func aOneHertzTrackHasNoFloor() {
        // Steps of 1 s make no sparse pairs: the smoothed positions average the noise there.
        let fixes = Self.whiteLogger(seconds: 600, cadence: 1, seed: 75) { _ in (0, 0) }
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        let jitter = StillnessGate(profile: .driving).whiteJitterVariances(
            problem, positionVariances: [Double](repeating: 1, count: problem.stateCount),
            longestStepSeconds: .infinity)
        #expect(jitter == nil)
    }

    /// A walk at 0.9 m/s under honest white noise of σ 8 m, a fix every 5 s, with a turn of 30–120° every 2–5
    /// minutes: inside a window it is its noise, and a floor on foot held it as a desk (242–633 m of 1,620 in a
    /// third trial, 2026-12-06; without it about 1,800).
    @Test func aNoisyWalkIsNotHeldAsADesk() {
        var rng = TestRNG(state: 79)
        var east = 0.0, north = 0.0, heading = 0.4, nextTurn = 150.0
        var truth: [(Double, Double)] = []
        for t in 0...1800 {
            if Double(t) >= nextTurn {
                heading += (rng.uniform() < 0.5 ? -1 : 1) * (0.52 + 1.57 * rng.uniform())
                nextTurn += 120 + 180 * rng.uniform()
            }
            truth.append((east, north))
            east += 0.9 * sin(heading)
            north += 0.9 * cos(heading)
        }
        var fixes: [Fix] = []
        var t = 0.0
        while t <= 1800 {
            let (e, n) = truth[Int(t)]
            fixes.append(S.fix(seconds: t, east: e + 8 * rng.gaussian(), north: n + 8 * rng.gaussian(), accuracy: 12))
            t += 5 * (0.9 + 0.2 * rng.uniform())
        }
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres > 0.8 * 1620, "\(track.distanceMetres) m of 1,620")
    }

    @Test func theFloorIsOnForVehiclesAndOffOnFoot() {
        #expect(StillnessGate(profile: .driving).whiteNoiseSigmas == WhiteNoiseEstimate.sparseThresholdSigmas)
        #expect(StillnessGate(profile: .cycling).whiteNoiseSigmas == WhiteNoiseEstimate.sparseThresholdSigmas)
        #expect(StillnessGate(profile: .walking).whiteNoiseSigmas == 0)
        #expect(StillnessGate(profile: .running).whiteNoiseSigmas == 0)
        var quiet = TrackingProfile.driving
        quiet.netDisplacementNoiseSigmas = 0
        #expect(StillnessGate(profile: quiet).whiteNoiseSigmas == 0)
    }
}
