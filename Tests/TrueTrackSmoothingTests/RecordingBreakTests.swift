import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// Stretches a day or more apart are separate recordings for the smoother
/// (``SmoothingOptions/recordingBreakSeconds``).
@Suite struct RecordingBreakTests {
    /// Two walks two days and 5 km apart: the distance is the two walks' (no chord between them), and σ has no
    /// gap term for the two days (a GPS week rollover's 19.6 years gave ± 461,497,516 m); with the break off the
    /// chord counts again.
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
        var options = SmoothingOptions(profile: .walking)
        options.recordingBreakSeconds = .infinity
        let joined = WholeTrackSmoother(options: options).smooth(first + second)
        #expect(joined.distanceMetres > both.distanceMetres + 4_000)
        #expect(joined.distanceGapExcessMetres > 10_000)
    }
}
