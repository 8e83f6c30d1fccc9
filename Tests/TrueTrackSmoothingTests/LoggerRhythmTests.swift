import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// A sparse logger's rhythm keeps its steps in one problem (``SmoothingOptions/rhythmGapSteps``): a step longer
/// than the profile's gap (20 s driving) but of the logger's own cadence is linked by the model, judged by the
/// stillness gate's window and widened in σ by the gap term; a silence longer than three of its steps, or a
/// cadence beyond twice the gap, still splits the track.
@Suite struct LoggerRhythmTests {
    /// Fixes every `seconds` along `position(k)`, with 3.3 m of white noise per axis (a 5 m claim), seeded.
    static func logger(
        count: Int, seconds: Double, start: Double = 0, speed: Double?, seed: UInt64,
        position: (Int) -> (Double, Double)
    ) -> [Fix] {
        var rng = TestRNG(state: seed)
        func gauss() -> Double { (-2 * log(max(rng.uniform(), 1e-300))).squareRoot() * cos(2 * .pi * rng.uniform()) }
        return (0..<count).map { k in
            let (e, n) = position(k)
            return S.fix(
                seconds: start + Double(k) * seconds, east: e + 3.3 * gauss(), north: n + 3.3 * gauss(), accuracy: 5,
                speed: speed)
        }
    }

    @Test func aLoggerEvery30SecondsKeepsOneSegmentOnTheDrivingProfile() {
        let fixes = Self.logger(count: 40, seconds: 30, speed: nil, seed: 1) { (300 * Double($0), 0) }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.segmentCount == 1)
        var off = SmoothingOptions(profile: .driving)
        off.rhythmGapSteps = 0
        #expect(WholeTrackSmoother(options: off).smooth(fixes).segmentCount == 40)
    }

    @Test func aSilenceOfMoreThanThreeStepsStillSplitsTheTrack() {
        // Every 30 s, then a 100 s silence (more than 3 × 30 s), then every 30 s again.
        var fixes = Self.logger(count: 10, seconds: 30, speed: nil, seed: 2) { (300 * Double($0), 0) }
        fixes += Self.logger(count: 10, seconds: 30, start: 370, speed: nil, seed: 3) { (3_700 + 300 * Double($0), 0) }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.segmentCount == 2)
    }

    @Test func aCadenceBeyondTwiceTheGapSplitsEveryStep() {
        // Every 60 s on driving (twice its 20 s gap is 40 s): speed readings at a step's ends no longer say whether
        // the van moved between them, so each step stays a gap whose chord counts.
        let fixes = Self.logger(count: 20, seconds: 60, speed: nil, seed: 4) { (600 * Double($0), 0) }
        #expect(WholeTrackSmoother(profile: .driving).smooth(fixes).segmentCount == 20)
    }

    @Test func anOccasionalShortStepAmongHeartbeatsIsNotARhythm() {
        // Heartbeats every 120 s, an ignition event 32 s after one, then a 77 s step: one short step is no rhythm
        // (``TrackProblem/rhythmSteps``), so the 77 s step splits as before.
        let seconds: [Double] = [0, 120, 240, 272, 349, 469, 589]
        let fixes = seconds.enumerated().map { S.fix(seconds: $0.element, east: 10 * Double($0.offset), north: 0) }
        #expect(WholeTrackSmoother(profile: .driving).smooth(fixes).segmentCount == 7)
    }

    @Test func aVanParkedWithZeroReadingsEvery30SecondsCountsNothing() {
        // Parked 2 h, reading 0 m/s, fixes scattered by 3.3 m per axis. Split at every step, each chord counted:
        // about 4.5 m per step, over a kilometre.
        let fixes = Self.logger(count: 240, seconds: 30, speed: 0, seed: 5) { _ in (0, 0) }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.distanceMetres < 1, "\(track.distanceMetres)")
        var off = SmoothingOptions(profile: .driving)
        off.rhythmGapSteps = 0
        #expect(WholeTrackSmoother(options: off).smooth(fixes).distanceMetres > 500)
    }

    @Test func aLinkedStepLongerThanTheGapKeepsItsGapTermInTheSigma() {
        // A van every 30 s round a 1.2 km circle at 10 m/s: each step's path is longer than its chord, and the model
        // does not span the 30 s, so σ keeps the gap term although the track is one segment.
        let radius = 1_200 / (2 * Double.pi)
        let fixes = Self.logger(count: 40, seconds: 30, speed: 10, seed: 6) { k in
            let a = Double(k) * 300 / radius
            return (radius * sin(a), radius * (1 - cos(a)))
        }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.segmentCount == 1)
        #expect(track.distanceGapExcessMetres > 100, "\(track.distanceGapExcessMetres)")
    }
}
