import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// A confident `still` reading the motion contradicts is not believed by the smoother, as by the forward filter
/// (``StillnessGate/isStillReadingContradicted(step:low:high:solution:order:totals:)``): both the window's Doppler speeds
/// and the smoothed track's net displacement must say moving.
@Suite struct ContradictedStillReadingSmoothingTests {
    /// A 1 Hz walk east at `speed` m/s for `seconds` (3 m of white noise stating 4.5 m), each fix carrying `reading`
    /// m/s as its Doppler speed (`nil`: none), and a confident `still` on every `every`-th fix.
    static func walk(speed: Double, reading: Double?, stillEvery every: Int, seconds: Int = 600) -> [Fix] {
        var rng = TestRNG(state: 91)
        return (0...seconds).map { t in
            var fix = S.fix(
                seconds: Double(t), east: speed * Double(t) + 3 * rng.gaussian(), north: 3 * rng.gaussian(),
                accuracy: 4.5, speed: reading, course: reading.map { _ in 90 })
            if t % every == 0 { fix.activity = ActivityReading(kind: .still, confidence: 100) }
            return fix
        }
    }

    @Test(arguments: [1, 2, 10])
    func aWalkWhoseReadingsSayStillButWhoseSpeedsAndPositionsMoveKeepsItsLength(every: Int) {
        // A mangled activity column: "still" on every row, on every other or on one in ten. Before, 0 m.
        let fixes = Self.walk(speed: 1.4, reading: 1.4, stillEvery: every)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(abs(track.distanceMetres - 840) < 0.03 * 840, "\(track.distanceMetres) m of 840")
    }

    @Test func aStillReadingHoldsWhereTheSpeedsReadRestOrAreMissing() {
        // The positions wander 0.3 m/s east (a drift), the readings say 0 m/s or nothing: the reading stands.
        for reading in [0.0, nil] as [Double?] {
            let fixes = Self.walk(speed: 0.3, reading: reading, stillEvery: 1)
            let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
            #expect(track.distanceMetres == 0, "\(track.distanceMetres) m reading \(String(describing: reading))")
        }
    }
}
