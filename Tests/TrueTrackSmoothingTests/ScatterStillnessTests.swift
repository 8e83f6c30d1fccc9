import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// The stillness gate's still stretches (``StillnessGate/stillScatterSeconds``): a sparse logger on foot whose error
/// is white noise, at rest, drew a smoothed track that wandered beyond every window's still threshold (34–204 m per
/// 10 minutes), while over ten minutes its fixes stay within the accuracy they state and a walker's do not.
@Suite struct ScatterStillnessTests {
    /// A logger every `cadence` s (±10 %, seeded) for `seconds`, along `position(t)`, with white noise of `sigma` m
    /// per axis and an honest 68 % radius (1.51 σ), without speeds; `accuracy` false states none.
    static func logger(
        seconds: Double, cadence: Double, sigma: Double, seed: UInt64, accuracy: Bool = true,
        position: (Double) -> (Double, Double) = { _ in (0, 0) }
    ) -> [Fix] {
        S.whiteLogger(
            seconds: seconds, cadence: cadence, sigma: sigma, accuracy: accuracy ? 1.509592 * sigma : nil, seed: seed,
            position: position)
    }

    /// The still stretches of `fixes` on the walking profile, every fix an inlier.
    static func held(_ fixes: [Fix]) -> [Bool]? {
        let options = SmoothingOptions(profile: .walking)
        let gate = StillnessGate(profile: .walking)
        let problem = TrackProblem(fixes: fixes, options: options)
        return gate.stillByScatter(
            problem, fixes: fixes, positionWeights: [Double](repeating: 1, count: problem.positionState.count),
            totals: gate.totals(problem, fixes: fixes, options: options), breakSeconds: options.recordingBreakSeconds)
    }

    static func withoutRule(_ profile: TrackingProfile) -> WholeTrackSmoother {
        var options = SmoothingOptions(profile: profile)
        options.stillnessGate?.stillScatterSeconds = 0
        return WholeTrackSmoother(options: options)
    }

    @Test(arguments: [5.0, 10.0, 15.0])
    func aStillPhoneLoggedSparselyOnFootCountsNothing(cadence: Double) {
        // Half an hour on a desk under σ 5 m. Without the rule the smoothed track counted 35–130 m per 10 minutes.
        let fixes = Self.logger(seconds: 1800, cadence: cadence, sigma: 5, seed: 81)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        let before = Self.withoutRule(.walking).smooth(fixes)
        #expect(track.distanceMetres < 3, "\(track.distanceMetres) m in half an hour at rest, every \(cadence) s")
        #expect(before.distanceMetres > 30, "the case needs the rule: \(before.distanceMetres) m without it")
    }

    @Test(arguments: [(0.9, 8.0, 5.0), (0.9, 15.0, 10.0), (1.4, 12.0, 10.0)])
    func aNoisyWalkKeepsEveryStep(speed: Double, sigma: Double, cadence: Double) {
        // Straight legs turning every 4 minutes: honest noise as wide as a desk's, but the fixes spread with the walk.
        let fixes = Self.logger(seconds: 1800, cadence: cadence, sigma: sigma, seed: 82) { t in
            let leg = (t / 240).rounded(.down), along = t - 240 * leg
            let heading = leg * 1.9
            // Each leg starts where the one before ended: the sum of the earlier legs' 240 s.
            var e = 0.0, n = 0.0
            for k in stride(from: 0.0, to: leg, by: 1) {
                e += speed * 240 * sin(k * 1.9)
                n += speed * 240 * cos(k * 1.9)
            }
            return (e + speed * along * sin(heading), n + speed * along * cos(heading))
        }
        #expect(Self.held(fixes) == nil)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres == Self.withoutRule(.walking).smooth(fixes).distanceMetres)
    }

    @Test func aWalkBetweenTwoStillStretchesCounts() {
        // Fifteen minutes at rest, 150 m east at 1.25 m/s, fifteen minutes at rest: each stretch is still, the walk
        // between them lies inside neither.
        let fixes = Self.logger(seconds: 1920, cadence: 10, sigma: 3, seed: 83) { t in
            (min(max(t - 900, 0) * 1.25, 150), 0)
        }
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(abs(track.distanceMetres - 150) < 20, "\(track.distanceMetres) m of 150")
        let held = Self.held(fixes)
        let times = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .walking)).times
        // (The walk's first fix, seconds out, lies within its noise of the desk: it may end the stretch.)
        let walk = times.indices.filter { times[$0] > 910 && times[$0] < 1015 }
        #expect(!walk.isEmpty && walk.allSatisfy { held?[$0] == false })
        #expect(held?[5] == true && held?[times.count - 5] == true)
    }

    @Test func fixesThatStateNoAccuracyAreNotJudged() {
        // Without a stated accuracy the noise is unknown (a GPX file's assumed 30 m would hold a slow hike).
        let fixes = Self.logger(seconds: 1800, cadence: 10, sigma: 5, seed: 84, accuracy: false)
        #expect(Self.held(fixes) == nil)
    }

    @Test func aMultipathJumpDoesNotHideTheDesk() {
        // Two fixes thrown 300 m off, still claiming 7.5 m: the robust loss leaves them out of the scatter.
        var fixes = Self.logger(seconds: 1800, cadence: 10, sigma: 5, seed: 85)
        S.injectJumps(into: &fixes, from: 60, every: 60, metres: 300, seed: 86)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres < 5, "\(track.distanceMetres) m")
        #expect(Self.withoutRule(.walking).smooth(fixes).distanceMetres > 30)
    }

    @Test func aStretchReachesAcrossGapsButNotAcrossAReadingOfMotion() {
        // A desk every 30 s on the running profile: its 30 s reset gap makes many steps segments of their own, and
        // the chords across them are the desk's noise. A fix reading 2 m/s (the running profile's motion reading
        // is 0.3 m/s and up) ends the stretch: a receiver that reads motion is not at rest.
        let fixes = Self.logger(seconds: 3600, cadence: 30, sigma: 3, seed: 87)
        let running = WholeTrackSmoother(profile: .running).smooth(fixes)
        #expect(running.distanceMetres < 5, "\(running.distanceMetres) m")
        #expect(Self.withoutRule(.running).smooth(fixes).distanceMetres > 50)
        var reading = Self.logger(seconds: 1800, cadence: 10, sigma: 3, seed: 88)
        let middle = reading.count / 2
        reading[middle] = S.fix(seconds: 900, east: 0, north: 0, accuracy: 4.5, speed: 2, course: 90)
        let held = Self.held(reading)
        let times = TrackProblem(fixes: reading, options: SmoothingOptions(profile: .walking)).times
        let state = times.firstIndex { $0 >= 900 }!
        #expect(held?[state] == false && held?[state + 1] == false)
        #expect(held?[5] == true && held?[times.count - 5] == true)
    }

    @Test func theScatterFollowsFixesJoiningAndLeaving() {
        // Weighted mean and Σ w |p − p̄|² by hand: (0, 0) w 1, (4, 0) w 1, (0, 3) w 2.
        var s = WeightedScatter()
        s.add(east: 0, north: 0, weight: 1)
        s.add(east: 4, north: 0, weight: 1)
        s.add(east: 0, north: 3, weight: 2)
        // Mean (1, 1.5); χ² = 1·(1 + 2.25) + 1·(9 + 2.25) + 2·(1 + 2.25) = 21.
        #expect(abs(s.east - 1) < 1e-12 && abs(s.north - 1.5) < 1e-12)
        #expect(abs(s.chiSquared - 21) < 1e-12)
        // Without the first: (4, 0) w 1 and (0, 3) w 2: mean (4/3, 2), χ² = (64/9 + 4) + 2 (16/9 + 1) = 16.67.
        s.remove(east: 0, north: 0, weight: 1)
        #expect(s.count == 2 && abs(s.east - 4.0 / 3) < 1e-12 && abs(s.north - 2) < 1e-12)
        #expect(abs(s.chiSquared - 50.0 / 3) < 1e-12)
        s.remove(east: 4, north: 0, weight: 1)
        s.remove(east: 0, north: 3, weight: 2)
        #expect(s.count == 0 && s.chiSquared == 0)
    }
}
