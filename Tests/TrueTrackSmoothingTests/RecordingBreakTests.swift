import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// Stretches further apart than the profile's session break are separate recordings for the smoother
/// (``SmoothingOptions/recordingBreakSeconds``).
@Suite struct RecordingBreakTests {
    /// Two walks two days and 5 km apart, or 23 hours and 3.5 km: the distance is the two walks' (no chord between
    /// them), and σ has no gap term (a GPS week rollover's 19.6 years gave ± 461,497,516 m, 23 hours ± 111,749 m);
    /// with the break off the chord counts again.
    @Test func countsNoChordBetweenStretchesADayApart() throws {
        let first = Simulator.simulate(.walk, errors: .cleanPhone, seed: 3).fixes
        let twoDays = Int64(2 * 86_400_000)
        let second = try first.map {
            try $0.retimed(to: Timestamp(millisecondsSince1970: $0.timestamp.millisecondsSince1970 + twoDays))
                .moved(toLatitude: $0.latitude, longitude: $0.longitude + 0.07)
        }
        let smoother = WholeTrackSmoother(profile: .walking)
        let a = smoother.smooth(first), b = smoother.smooth(second), both = smoother.smooth(first + second)
        #expect(abs(both.distanceMetres - (a.distanceMetres + b.distanceMetres)) < 0.01 * a.distanceMetres)
        #expect(both.distanceGapExcessMetres == 0)
        #expect(both.distanceSigmaMetres < 2 * (a.distanceSigmaMetres + b.distanceSigmaMetres))
        // Just under a day (a reviewer's 23 hours): separate recordings too, as for the forward tracker after an
        // hour.
        let later = try first.map {
            try $0.retimed(to: Timestamp(millisecondsSince1970: $0.timestamp.millisecondsSince1970 + 23 * 3_600_000))
                .moved(toLatitude: $0.latitude, longitude: $0.longitude + 0.05)
        }
        let c = smoother.smooth(later), hours = smoother.smooth(first + later)
        #expect(abs(hours.distanceMetres - (a.distanceMetres + c.distanceMetres)) < 0.01 * a.distanceMetres)
        #expect(hours.distanceGapExcessMetres == 0)
        var options = SmoothingOptions(profile: .walking)
        #expect(options.recordingBreakSeconds == TrackingProfile.walking.sessionBreakSeconds)
        options.recordingBreakSeconds = .infinity
        let joined = WholeTrackSmoother(options: options).smooth(first + second)
        #expect(joined.distanceMetres > both.distanceMetres + 4_000)
        #expect(joined.distanceGapExcessMetres > 10_000)
    }
}
