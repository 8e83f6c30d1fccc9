import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// Loggers sparser than the profile's reset gap (20 s on driving), whose speed readings at a step's two ends do not
/// say what happened between them. A reviewer's cases against the reverted rhythm linking (docs/ARCHITECTURE.md, "A
/// sparse logger's rhythm kept in one problem: tried, reverted"): each read 0 m or lost the step there.
@Suite struct SparseLoggerTests {
    /// `count` fixes every 24–30 s (seeded) along `position(seconds)`, each reading `speed` and 3 m of noise.
    static func logger(count: Int, speed: Double?, seed: UInt64, position: (Double) -> (Double, Double)) -> [Fix] {
        var rng = TestRNG(state: seed)
        var seconds = 0.0
        return (0..<count).map { _ in
            defer { seconds += 24 + 6 * rng.uniform() }
            let (e, n) = position(seconds)
            return S.fix(
                seconds: seconds, east: e + 3 * rng.gaussian(), north: n + 3 * rng.gaussian(), accuracy: 4.5,
                speed: speed)
        }
    }

    @Test func aColumnOfZerosUnderAHighwayLoggerEvery27SecondsKeepsItsDistance() {
        // 25 m/s east for ~12 minutes; every fix reads 0 km/h (a placeholder column the forward tracker cannot
        // overrule at this cadence, as it re-anchors at every step).
        let fixes = Self.logger(count: 28, speed: 0, seed: 31) { (25 * $0, 0) }
        let truth = 25 * fixes.first!.timestamp.seconds(to: fixes.last!.timestamp)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(abs(track.distanceMetres - truth) < 0.03 * truth, "\(track.distanceMetres) of \(truth)")
    }

    @Test func aVanStoppedAtBothFixTimesOfAStepKeepsTheStep() {
        // Stopped (0 km/h) at A until 130 s, then at B, 600 m east: the van drove within one step, and both of that
        // step's fixes read 0.
        let stopped = Self.logger(count: 10, speed: 0, seed: 32) { $0 < 130 ? (0, 0) : (600, 0) }
        let track = WholeTrackSmoother(profile: .driving).smooth(stopped)
        #expect(track.distanceMetres > 560 && track.distanceMetres < 700, "\(track.distanceMetres)")
    }
}
