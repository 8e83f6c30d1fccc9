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

    /// A van every 60 s without speeds at 10 m/s east (each fix a segment of its own), which once takes a detour of
    /// 600 m that brings it back only 100 m on: the model leaves a lone fix at rest, so the gap term read no speed at
    /// its ends and σ could not hold the hidden 500 m. Hand-worked with the chords into and out of each fix as its
    /// speed: at both ends of the detour's step (600 / 60 + 100 / 60) / 2 = 35 / 6 m/s, so 60 × 35 / 6 − 100 = 250
    /// m; the steps beside it, 600 m chords under mean speeds of (10 + 35 / 6) / 2 × 60 = 475 m, add nothing, nor
    /// does a straight road at the same cadence (its chords are the path).
    @Test func aSparseLoggerWithoutReadingsWidensSigmaByTheChordsSpeeds() {
        var east = 0.0
        let fixes = (0..<20).map { i -> Fix in
            defer { east += i == 9 ? 100 : 600 }
            return S.fix(seconds: Double(i) * 60, east: east, north: 0, accuracy: 4)
        }
        let detour = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(abs(detour.distanceGapExcessMetres - 250) < 1, "\(detour.distanceGapExcessMetres)")
        let road = (0..<20).map { S.fix(seconds: Double($0) * 60, east: Double($0) * 600, north: 0, accuracy: 4) }
        let straight = WholeTrackSmoother(profile: .driving).smooth(road)
        #expect(straight.distanceGapExcessMetres < 1, "\(straight.distanceGapExcessMetres)")
    }

    /// The same van with a speed column: reading its 10 m/s, the detour's step adds 60 × 10 − 100 = 500 m (the readings
    /// say it went on at speed; before, a lone fix took the lower of its reading and the model's speed, and a
    /// speed without a course left the model at rest); reading a placeholder 0 everywhere, more than half of the
    /// lone fixes between chords of clear motion read at rest, so the column says nothing and the chords' speeds
    /// give the 250 m of the van without one. A van honestly reading 0 at its stops keeps its readings, even where
    /// most of its fixes read 0.
    @Test func aPlaceholderColumnOfZerosGivesWayToTheChords() {
        func van(speed: Double?) -> [Fix] {
            var east = 0.0
            return (0..<20).map { i -> Fix in
                defer { east += i == 9 ? 100 : 600 }
                return S.fix(seconds: Double(i) * 60, east: east, north: 0, accuracy: 4, speed: speed)
            }
        }
        let smoother = WholeTrackSmoother(profile: .driving)
        let reading = smoother.smooth(van(speed: 10)).distanceGapExcessMetres
        #expect(abs(reading - 500) < 1, "\(reading)")
        let zeros = smoother.smooth(van(speed: 0)).distanceGapExcessMetres
        #expect(abs(zeros - 250) < 1, "\(zeros)")
        // An honest column that reads 0 on most of its fixes: 600 m a minute reading 10 m/s (fixes 0–4 and 15–19,
        // with the detour's 100 m between fixes 17 and 18), stopped reading 0 at fixes 5–14 and 20–29. Its zeros lie
        // next to chords of no motion, and the seven fixes between two chords of clear motion all read 10 m/s: the
        // readings stand, and the detour's step adds 500 m, not the chords' 250 (arrivals and departures, 60 × (10 +
        // 0) / 2 − 600 < 0, nothing).
        var east = 0.0
        var stops: [Fix] = []
        for i in 0..<30 {
            let stopped = (5..<15).contains(i) || i >= 20
            stops.append(S.fix(seconds: Double(i) * 60, east: east, north: 0, accuracy: 4, speed: stopped ? 0 : 10))
            if !stopped || i == 14 { east += i == 17 ? 100 : 600 }
        }
        let honest = smoother.smooth(stops).distanceGapExcessMetres
        #expect(abs(honest - 500) < 1, "\(honest)")
        // A reading above the profile's ceiling (95 m/s on driving's 70) is none, as the smoother's problem takes
        // it (a code review's file: σ ± 5,098 m); and heartbeats reading 0 an hour apart, beyond the recording
        // break, lie between no chords and say nothing of the column (they had turned it into a placeholder).
        var wild = van(speed: 10)
        wild[4].speedMetresPerSecond = 95
        #expect(abs(smoother.smooth(wild).distanceGapExcessMetres - 500) < 1)
        var beats = van(speed: 10)
        for k in 1...20 {
            beats.append(S.fix(seconds: 19 * 60 + Double(k) * 3900, east: 10_900, north: 0, accuracy: 4, speed: 0))
        }
        #expect(abs(smoother.smooth(beats).distanceGapExcessMetres - 500) < 1)
    }

    /// A speed column that dies partway: the van of the test above reads its 10 m/s on fixes 0–3 and 0 from fix 4 on,
    /// so the column is no placeholder as a whole. The run of zeros between chords of clear motion (fixes 4–8 and
    /// 11–18, ten of them) is one, and every lone fix from its first to its last gives way to the chords, the
    /// detour's two fixes 9 and 10 between slower chords too: the detour's step adds the chords' 250 m (with its
    /// zeros believed it added nothing). Four zeros in a row are no run: a van that stands at four fix times; nor
    /// are eight between readings of motion (fixes 5–12): a van that stood at eight, whose zeros at the detour's two
    /// fixes are believed (the detour's step adds nothing, as 60 × 0 < 100 m).
    @Test func aSpeedColumnThatDiesPartwayGivesWayToTheChords() {
        func van(zerosFrom first: Int, count: Int = 20) -> [Fix] {
            var east = 0.0
            return (0..<count).map { i -> Fix in
                defer { east += i == 9 ? 100 : 600 }
                return S.fix(seconds: Double(i) * 60, east: east, north: 0, accuracy: 4, speed: i >= first ? 0 : 10)
            }
        }
        let smoother = WholeTrackSmoother(profile: .driving)
        let dies = smoother.smooth(van(zerosFrom: 4)).distanceGapExcessMetres
        #expect(abs(dies - 250) < 1, "\(dies)")
        // Zeros on fixes 5–8 only (four in a row between chords of clear motion), 10 m/s elsewhere.
        var four = van(zerosFrom: 20)
        for i in 5...8 { four[i].speedMetresPerSecond = 0 }
        let stands = smoother.smooth(four).distanceGapExcessMetres
        #expect(abs(stands - 500) < 1, "\(stands)")
        var eight = van(zerosFrom: 20)
        for i in 5...12 { eight[i].speedMetresPerSecond = 0 }
        let stood = smoother.smooth(eight).distanceGapExcessMetres
        #expect(abs(stood) < 1, "\(stood)")
    }

    /// A van every 60 s without speeds on a grid of streets (legs of 400–900 m, turning left or right at each corner,
    /// 10 m/s): the chords cut the corners (more than 10 % short), and their speeds agree, so the chords' speeds widened σ by
    /// next to nothing. The turns at the two ends of each step, half of each taken for the step, as one corner
    /// anywhere along it, now hold the truth within ±2σ on each of five routes; a straight road at the same cadence
    /// turns nowhere and adds nothing.
    @Test func aSparseLoggerWithoutReadingsCoversTheCornersItsChordsCut() {
        for seed: UInt64 in 1...5 {
            var rng = TestRNG(state: seed)
            var corners = [(0.0, 0.0)]
            var heading = 0  // 0 east, 1 north, 2 west, 3 south
            for _ in 0..<30 {
                let leg = 400 + 500 * rng.uniform()
                let (e, n) = corners.last!
                let step = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][heading]
                corners.append((e + leg * step.0, n + leg * step.1))
                heading = (heading + (rng.uniform() < 0.5 ? 1 : 3)) % 4
            }
            var along = [0.0]
            for k in 1..<corners.count {
                along.append(along.last! + hypot(corners[k].0 - corners[k - 1].0, corners[k].1 - corners[k - 1].1))
            }
            func position(_ metres: Double) -> (Double, Double) {
                let k = max(1, along.firstIndex { $0 >= metres } ?? along.count - 1)
                let f = (metres - along[k - 1]) / (along[k] - along[k - 1])
                return (
                    corners[k - 1].0 + f * (corners[k].0 - corners[k - 1].0),
                    corners[k - 1].1 + f * (corners[k].1 - corners[k - 1].1)
                )
            }
            let fixes = stride(from: 0.0, through: along.last!, by: 600).map { metres -> Fix in
                let (e, n) = position(metres)
                return S.fix(seconds: metres / 10, east: e, north: n, accuracy: 4)
            }
            let truth = 600 * Double(fixes.count - 1)
            let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
            let error = track.distanceMetres - truth
            #expect(error < -0.1 * truth, "seed \(seed): the chords cut corners (\(error) m of \(truth))")
            #expect(
                abs(error) <= 2 * track.distanceSigmaMetres, "seed \(seed): \(error) ± \(track.distanceSigmaMetres)")
        }
        let road = (0..<30).map { S.fix(seconds: Double($0) * 60, east: Double($0) * 600, north: 0, accuracy: 4) }
        #expect(WholeTrackSmoother(profile: .driving).smooth(road).distanceGapExcessMetres < 1)
    }

    /// The corner's mean excess, hand-worked: none for no turn; for a right angle the integral of
    /// 1 / √(2u² − 2u + 1) over [0, 1] is √2 asinh 1, so √2 asinh 1 − 1 = 0.2465.
    @Test func theCornerExcessIsHandWorked() {
        #expect(abs(WholeTrackSmoother.cornerExcessRatio(turning: 0)) < 1e-12)
        let right = WholeTrackSmoother.cornerExcessRatio(turning: .pi / 2)
        #expect(abs(right - (2.0.squareRoot() * asinh(1.0) - 1)) < 1e-4, "\(right)")
    }
}
