import Foundation
import Testing

@testable import TrueTrackCore

/// The course check (``CourseCheck``): a course column that does not point where the fixes travel is left out.
@Suite struct CourseCheckTests {
    /// A drive at `speed` m/s, one fix a second, around a city grid of `block`-metre blocks (a corner every block,
    /// turning left and right in turn), positions scattered by up to ±`noise` m (a fixed pseudo-random sequence),
    /// the Doppler speed exact and the course written by `course` from the true heading (degrees).
    static func gridDrive(
        speed: Double = 12, block: Double = 240, seconds: Int = 900, noise: Double = 3,
        course: (Double) -> Double = { $0 }
    ) -> [Fix] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func jitter() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * noise
        }
        var east = 0.0, north = 0.0, heading = 90.0, along = 0.0
        var fixes: [Fix] = []
        for s in 0..<seconds {
            fixes.append(
                TrackerTests.fix(
                    Double(s), north: north + jitter(), east: east + jitter(), speed: speed,
                    course: (course(heading).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(
                        dividingBy: 360)))
            east += speed * sin(heading * .pi / 180)
            north += speed * cos(heading * .pi / 180)
            along += speed
            if along >= block {
                along = 0
                heading += (s / 20) % 2 == 0 ? -90 : 90  // left, then right, …
            }
        }
        return fixes
    }

    static func run(_ fixes: [Fix]) -> (tracker: Tracker, outliers: Int, everWrong: Bool) {
        var t = Tracker(profile: .driving)
        var outliers = 0
        var everWrong = false
        for f in fixes {
            if t.process(f).rejection == .outlier { outliers += 1 }
            everWrong = everWrong || t.readsCourseWrong
        }
        return (t, outliers, everWrong)
    }

    /// A course written as a math angle (counter-clockwise from east: the GSDC 2021 truth's `BearingDegrees`), or
    /// turned by 90° or 180°: the column is found wrong and left out, and the drive counts as with a right one.
    /// Before the check the velocity it measured pulled every prediction sideways and the outlier gate refused the
    /// fixes: the GSDC Pixel 4 drive with a math-angle course counted 1,256 m of 40,137 (1,011 fixes refused).
    @Test(arguments: ["math angle", "turned 90°", "turned 180°"])
    func aCourseColumnPointingElsewhereIsLeftOut(_ kind: String) {
        let wrong: (Double) -> Double =
            switch kind {
            case "math angle": { 90 - $0 }
            case "turned 90°": { $0 + 90 }
            default: { $0 + 180 }
            }
        let right = Self.run(Self.gridDrive())
        let turned = Self.run(Self.gridDrive(course: wrong))
        #expect(!right.everWrong && right.outliers == 0)
        let found = turned.tracker.readsCourseWrong
        #expect(found)
        let a = right.tracker.distance.totalMetres, b = turned.tracker.distance.totalMetres
        #expect(abs(b - a) < 0.005 * a, "\(b) m against \(a) m with the right course")
        #expect(turned.outliers <= 9, "\(turned.outliers) fixes refused")
    }

    /// A right column is never taken for a wrong one: corners every 60–240 m at 8–20 m/s, where the position
    /// filter lags the course by tens of degrees for a fix or two, and noisier positions (±8 m).
    @Test(arguments: [(8.0, 60.0, 3.0), (12, 120, 8), (20, 240, 3), (20, 100, 8)])
    func aRightColumnThroughCornersIsKept(speed: Double, block: Double, noise: Double) {
        let run = Self.run(Self.gridDrive(speed: speed, block: block, noise: noise))
        #expect(!run.everWrong)
    }

    /// A column found wrong is trusted again once its readings agree with the positions as long (a logger that
    /// switched its source): the count goes back to zero.
    @Test func aColumnRightAgainIsTrustedAgain() {
        let turned = Self.gridDrive(seconds: 300, course: { $0 + 180 })
        let right = Self.gridDrive(seconds: 600).dropFirst(300)
        var t = Tracker(profile: .driving)
        for f in turned { _ = t.process(f) }
        let wrong = t.readsCourseWrong
        for f in right { _ = t.process(f) }
        let again = !t.readsCourseWrong && t.courseDisagreements == 0
        #expect(wrong && again)
        // The courses left out meanwhile stay counted (a caller warns of a column wrong for a while).
        let leftOut = t.coursesLeftOut
        #expect(leftOut > 200 && leftOut < 300, "\(leftOut) of 300 wrong courses left out")
        #expect(Self.run(Self.gridDrive()).tracker.coursesLeftOut == 0)
    }

    /// The verdict is a device's: it stays across a session break, and a tracker `reset` forgets it.
    @Test func theVerdictStaysAcrossASessionBreak() {
        var t = Tracker(profile: .driving)
        for f in Self.gridDrive(seconds: 300, course: { $0 + 180 }) { _ = t.process(f) }
        let before = t.readsCourseWrong
        _ = t.process(TrackerTests.fix(300 + 7_200, north: 50_000, speed: 12, course: 0))
        let after = t.readsCourseWrong
        t.reset()
        let forgotten = !t.readsCourseWrong && t.courseDisagreements == 0 && t.coursesLeftOut == 0
        #expect(before && after && forgotten)
    }
}
