import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// A course column turned from the direction of travel by a constant angle (``SmoothingOptions/correctsCourseOffset``).
@Suite struct CourseOffsetTests {
    /// A drive east at 20 m/s, a fix every `interval` seconds for `seconds` (2 m of white noise per axis claiming
    /// 3 m), along a gentle S-bend (amplitude 100 m over 3 km) so that its heading changes; each fix reads its
    /// speed and its true course plus `offset` (plus `courseNoise`° of noise), or, with `randomCourse`, any
    /// course.
    static func drive(
        interval: Double = 1, seconds: Double = 300, offset: Double, courseNoise: Double = 0.5,
        randomCourse: Bool = false, seed: UInt64 = 1
    ) -> [Fix] {
        var rng = TestRNG(state: seed)
        let k = 2 * Double.pi / 3000, amplitude = 100.0
        return stride(from: 0.0, through: seconds, by: interval).map { t in
            let east = 20 * t, north = amplitude * sin(k * east)
            // Heading: d(north)/d(east) = A k cos(k east); the bearing is atan2(east', north').
            let course = atan2(1, amplitude * k * cos(k * east)) * 180 / .pi
            let reading =
                randomCourse
                ? 360 * rng.uniform()
                : (course + offset + courseNoise * rng.gaussian() + 360)
                    .truncatingRemainder(dividingBy: 360)
            return S.fix(
                seconds: t, east: east + 2 * rng.gaussian(), north: north + 2 * rng.gaussian(), accuracy: 3,
                speed: 20 * (1 + pow(amplitude * k * cos(k * east), 2)).squareRoot(), course: reading)
        }
    }

    @Test func aColumnTurnedTwentyDegreesIsTurnedBack() {
        let smoother = WholeTrackSmoother(profile: .driving)
        for interval in [1.0, 5.0] {
            let offset = smoother.smooth(Self.drive(interval: interval, offset: 20))
            let honest = smoother.smooth(Self.drive(interval: interval, offset: 0))
            #expect(abs(offset.courseOffsetDegrees - 20) < 1, "every \(interval) s: \(offset.courseOffsetDegrees)°")
            #expect(honest.courseOffsetDegrees == 0)
            // Turned back, the drive reads as with its true course (the noise draws differ by the 20°).
            #expect(
                abs(offset.distanceMetres - honest.distanceMetres) < 0.001 * honest.distanceMetres,
                "every \(interval) s: \(offset.distanceMetres) m, \(honest.distanceMetres) m with the true course")
        }
    }

    @Test func aColumnTurnedTwentyDegreesReadsLongerWhenLeftAsItIs() {
        var options = SmoothingOptions(profile: .driving)
        options.correctsCourseOffset = false
        let fixes = Self.drive(interval: 5, offset: 20)
        let left = WholeTrackSmoother(options: options).smooth(fixes)
        let turned = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(left.courseOffsetDegrees == 0)
        #expect(left.distanceMetres > turned.distanceMetres + 10, "\(left.distanceMetres), \(turned.distanceMetres)")
    }

    @Test func aGoodColumnWithNoiseAndARandomColumnAreLeftAsTheyAre() {
        let smoother = WholeTrackSmoother(profile: .driving)
        for seed: UInt64 in 1...5 {
            // 3° of honest noise: the median stays within a degree.
            #expect(smoother.smooth(Self.drive(offset: 0, courseNoise: 3, seed: seed)).courseOffsetDegrees == 0)
            // A course that means nothing has no single offset.
            #expect(smoother.smooth(Self.drive(offset: 0, randomCourse: true, seed: seed)).courseOffsetDegrees == 0)
        }
        // A small offset (3°) is below what the estimate corrects.
        #expect(smoother.smooth(Self.drive(offset: 3)).courseOffsetDegrees == 0)
    }

    /// A column off by 20° for the first 85 % of the drive only (a logger that switched its source): 85 % of its
    /// readings agree on 20°, but in the last third most do not; no single offset holds over the track, and it is
    /// left as it is (turned whole, its good part would be turned wrong).
    @Test func anOffsetOfPartOfTheTrackIsLeftAsItIs() {
        let offset = Self.drive(seconds: 900, offset: 20), honest = Self.drive(seconds: 900, offset: 0)
        let cut = offset.count * 85 / 100
        let spliced = Array(offset[..<cut] + honest[cut...])
        let smoother = WholeTrackSmoother(profile: .driving)
        #expect(smoother.smooth(spliced).courseOffsetDegrees == 0)
        // The same drive off throughout is turned.
        #expect(abs(smoother.smooth(offset).courseOffsetDegrees - 20) < 1)
    }

    /// Every 15 s the 300 s drive gives 19 readings at most: fewer than the 20 an estimate needs.
    @Test func tooFewReadingsGiveNoEstimate() {
        let track = WholeTrackSmoother(profile: .driving).smooth(Self.drive(interval: 15, offset: 20))
        #expect(track.courseOffsetDegrees == 0)
        let longer = WholeTrackSmoother(profile: .driving).smooth(Self.drive(interval: 15, seconds: 900, offset: 20))
        #expect(abs(longer.courseOffsetDegrees - 20) < 1.5, "\(longer.courseOffsetDegrees)")
    }

    /// Round a 200 m circle at 15 m/s every 3 s (13° of turn per step) no fix lies on a straight stretch, where
    /// alone the chord across a fix is its direction of travel: no estimate, even of a column 20° off.
    @Test func aTrackThatNeverRunsStraightGivesNoEstimate() {
        let fixes = stride(from: 0.0, through: 600, by: 3).map { t in
            let angle = 15 * t / 200
            return S.fix(
                seconds: t, east: 200 * sin(angle), north: 200 * cos(angle), accuracy: 3, speed: 15,
                course: (angle * 180 / .pi + 90 + 20).truncatingRemainder(dividingBy: 360))
        }
        #expect(WholeTrackSmoother(profile: .driving).smooth(fixes).courseOffsetDegrees == 0)
    }

    /// A bearing turned by δ and back by −δ is where it was; readings at rest stay zero.
    @Test func turningCoursesRotatesEachReadingClockwise() {
        var problem = TrackProblem(
            fixes: [
                S.fix(seconds: 0, east: 0, north: 0, speed: 10, course: 0),
                S.fix(seconds: 1, east: 0, north: 10, speed: 10, course: 90),
                S.fix(seconds: 2, east: 10, north: 10, speed: 0.1),
            ], options: SmoothingOptions(profile: .driving))
        problem.turnCourses(byDegrees: 90)
        // North turned 90° clockwise is east; east is south.
        #expect(abs(problem.velocityEast[0] - 10) < 1e-9 && abs(problem.velocityNorth[0]) < 1e-9)
        #expect(abs(problem.velocityEast[1]) < 1e-9 && abs(problem.velocityNorth[1] + 10) < 1e-9)
        #expect(problem.velocityEast[2] == 0 && problem.velocityNorth[2] == 0)
    }

    /// A drive whose states hold 1–4 fixes of the same time (`perState` fixes for state 1 when given), with
    /// readings missing, slow or without a course, fixes without an accuracy, and a gap.
    static func crowdedDrive(count: Int, seed: UInt64, perState: Int? = nil) -> [Fix] {
        var rng = TestRNG(state: seed)
        var fixes: [Fix] = []
        var t = 0.0, east = 0.0
        var state = 0
        while fixes.count < count {
            let copies = state == 1 ? perState ?? 1 : rng.uniform() < 0.7 ? 1 : 1 + rng.int(4)
            let speed = rng.uniform() < 0.1 ? 2 * rng.uniform() : 10 + 20 * rng.uniform()
            for _ in 0..<copies {
                let r = rng.uniform()
                fixes.append(
                    S.fix(
                        seconds: t, east: east + 3 * rng.gaussian(), north: 3 * rng.gaussian(),
                        accuracy: rng.uniform() < 0.05 ? nil : 4, speed: r < 0.1 ? nil : speed,
                        course: r < 0.2 ? nil : 110 + 2 * rng.gaussian()))
            }
            let dt = rng.uniform() < 0.01 ? 500 : 1 + Double(rng.int(5))
            t += dt
            east += speed * dt
            state += 1
        }
        return fixes
    }

    /// The walks that find the fixes around each compared reading (``TrackProblem/courseOffsetCandidates()``)
    /// against the binary search they replaced, on tracks short enough to examine every entry and long enough to
    /// examine a sample, and on one whose second time holds 60,000 fixes (set back after each entry, one walk
    /// re-walked them all for every entry of it).
    @Test func theComparedReadingsFindTheFixesAroundThemAsABinarySearchDoes() {
        var tracks: [[Fix]] = []
        for seed: UInt64 in 1...8 {
            for count in [50, 2500, 9000] { tracks.append(Self.crowdedDrive(count: count, seed: seed * 31 + 7)) }
        }
        tracks.append(Self.crowdedDrive(count: 61_000, seed: 5, perState: 60_000))
        var compared = 0
        for fixes in tracks {
            let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
            for c in problem.courseOffsetCandidates() {
                let s = problem.velocityState[c.entry]
                #expect(c.before == problem.firstPositionMeasurement(ofState: s - 1))
                #expect(c.here == problem.firstPositionMeasurement(ofState: s))
                #expect(c.after == problem.firstPositionMeasurement(ofState: s + 1))
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }
}
