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
        var rng = TestRNG(state: seed)
        var fixes: [Fix] = []
        var t = 0.0
        while t <= seconds {
            let (e, n) = position(t)
            fixes.append(S.fix(seconds: t, east: e + 5 * rng.gaussian(), north: n + 5 * rng.gaussian(), accuracy: 7.5))
            t += cadence * (0.9 + 0.2 * rng.uniform())
        }
        return fixes
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

    /// A phone still on a desk for an hour, a fix every 5–20 s without speeds, its error white noise: the walking
    /// profile has the floor too (it had none: 0.3–1.1 km of this scatter smoothed, where the forward filter, whose
    /// floor is on foot as well, counted under 0.1 km).
    @Test(arguments: [5.0, 10.0, 20.0])
    func aStillPhoneWhoseFixesScatterAfreshCountsNothingOnFoot(cadence: Double) {
        let fixes = Self.whiteLogger(seconds: 3600, cadence: cadence, seed: 76) { _ in (0, 0) }
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres < 20, "\(track.distanceMetres) m in an hour on a desk, a fix every \(cadence) s")
    }

    /// A walk of 1,400 m at 1.4 m/s with a corner between two still spells of 20 and 30 minutes, a fix every 10 s
    /// under the same noise: the floor leaves out the still spells' scatter and keeps the walk (without it 2,170 m;
    /// the walk's own wiggle under σ 5 m every 10 s counts about a tenth more).
    @Test func aWalkBetweenTwoStillSpellsKeepsItsLength() {
        let fixes = Self.whiteLogger(seconds: 4000, cadence: 10, seed: 77) { t in
            let walk = min(max(t - 1200, 0) * 1.4, 1400)
            return walk <= 1000 ? (walk, 0) : (1000, walk - 1000)
        }
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres > 1400 && track.distanceMetres < 1.15 * 1400, "\(track.distanceMetres) m of 1,400")
    }

    /// A walker pacing a 40 m corridor at 1.2 m/s, a fix every 20 s: each turn between two fixes makes consecutive
    /// steps turn back, a share far above any honest noise's, and on foot such a share has no floor
    /// (``StillnessGate/whiteShareCeiling``): without the ceiling the smoother counted 0 m of the 2,160 walked.
    @Test func aWalkerPacingACorridorIsNotReadAsNoise() {
        var rng = TestRNG(state: 78)
        var fixes: [Fix] = []
        var t = 0.0
        while t <= 1800 {
            let s = (1.2 * t).truncatingRemainder(dividingBy: 80)
            let along = s < 40 ? s : 80 - s
            fixes.append(
                S.fix(seconds: t, east: along + 3 * rng.gaussian(), north: 3 * rng.gaussian(), accuracy: 4.5))
            t += 20 * (0.9 + 0.2 * rng.uniform())
        }
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres > 500, "\(track.distanceMetres) m of 2,160 paced")
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

    @Test func theFloorIsOnForEveryPresetWithAShareCeilingOnFoot() {
        for profile in [TrackingProfile.driving, .cycling, .walking, .running] {
            #expect(StillnessGate(profile: profile).whiteNoiseSigmas == WhiteNoiseEstimate.sparseThresholdSigmas)
        }
        #expect(StillnessGate(profile: .driving).whiteShareCeiling == .infinity)
        #expect(StillnessGate(profile: .cycling).whiteShareCeiling == .infinity)
        #expect(StillnessGate(profile: .walking).whiteShareCeiling == 4)
        #expect(StillnessGate(profile: .running).whiteShareCeiling == 4)
        var quiet = TrackingProfile.driving
        quiet.netDisplacementNoiseSigmas = 0
        #expect(StillnessGate(profile: quiet).whiteNoiseSigmas == 0)
    }
}
