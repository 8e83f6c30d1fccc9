import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

private typealias S = SmoothingSupport

/// The curve between two states with measured velocities (``CurveLength``): hand-worked steps, then whole tracks.
@Suite struct CurveLengthTests {
    @Test(arguments: [0.5, 1.0, 2.5])
    func aStraightStepRunningOneWayAddsNothing(tangentShare: Double) {
        // 100 m east in 10 s; both velocities east, their tangents (v · dt) a share of the chord. The curve stays on
        // the line and runs one way while the tangents are under three chords.
        let v = tangentShare * 100 / 10
        let excess = CurveLength.excessMetres(
            east: 100, north: 0, chord: 100, before: (v, 0), after: (v, 0), seconds: 10)
        #expect(abs(excess) < 1e-9)
    }

    @Test func aStepAlongACircleMeasuresItsArc() {
        // Radius 200 m at 10 m/s, 10 s: the step turns 0.5 rad; its chord is 2 · 200 · sin 0.25 = 98.962 m and the
        // arc 100 m, 1.038 m more. The Hermite curve (adaptive integral: 99.991 m) gets 1.030 m of it.
        let r = 200.0, turn = 0.5
        let east = r * cos(turn) - r, north = r * sin(turn)
        let chord = (east * east + north * north).squareRoot()
        let excess = CurveLength.excessMetres(
            east: east, north: north, chord: chord, before: (0, 10), after: (-10 * sin(turn), 10 * cos(turn)),
            seconds: 10)
        #expect(abs(chord - 98.9616) < 1e-3)
        #expect(abs(excess - 1.0298) < 0.005, "\(excess)")
    }

    @Test func aUTurnWithinAStepCountsItsLoop() {
        // 10 m east in 1 s, leaving north and arriving south at 12 m/s: the curve loops out and back, 12.879 m by
        // the adaptive integral (12.891 m by four points).
        let excess = CurveLength.excessMetres(
            east: 10, north: 0, chord: 10, before: (0, 12), after: (0, -12), seconds: 1)
        #expect(abs(excess - 2.879) < 0.02, "\(excess)")
    }

    @Test func aStepWithoutSpeedAtItsEndsIsItsChord() {
        // Both velocities 0: the curve eases along the chord, one way.
        let excess = CurveLength.excessMetres(
            east: 30, north: 40, chord: 50, before: (0, 0), after: (0, 0), seconds: 10)
        #expect(abs(excess) < 1e-9)
    }

    /// The course, degrees clockwise from north in 0 ..< 360, of a point going counter-clockwise around a circle
    /// centred on the origin at angle `a` (radians from the east): north at a = 0, a course of −a.
    static func course(aroundCircleAt a: Double) -> Double {
        let course = (360 - a * 180 / .pi).truncatingRemainder(dividingBy: 360)
        return course < 0 ? course + 360 : course
    }

    /// Laps of a 200 m circle at 10 m/s, a fix every `seconds` with 2 m of noise (claiming 3 m) and a Doppler
    /// speed (± 0.1 m/s), with its course unless `withCourse` is false; and the true length.
    static func circle(seconds: Double, withCourse: Bool, seed: UInt64) -> (fixes: [Fix], truth: Double) {
        var rng = TestRNG(state: seed)
        let r = 200.0, speed = 10.0, duration = 1_500.0
        let fixes = stride(from: 0.0, through: duration, by: seconds).map { t -> Fix in
            let a = speed * t / r
            return S.fix(
                seconds: t, east: r * cos(a) + 2 * rng.gaussian(), north: r * sin(a) + 2 * rng.gaussian(), accuracy: 3,
                speed: speed + 0.1 * rng.gaussian(), course: withCourse ? Self.course(aroundCircleAt: a) : nil)
        }
        return (fixes, speed * fixes.first!.timestamp.seconds(to: fixes.last!.timestamp))
    }

    @Test(arguments: [8.0, 10.0, 15.0])
    func aDriveLoggedEverySecondsMeasuresTheTurnsBetweenItsFixes(seconds: Double) {
        // The chords cut 0.67 / 1.04 / 2.3 % of each step's arc at 8 / 10 / 15 s; the smoothed track's chords
        // measured −0.8 / −1.2 / −2.5 %, its curves −0.13 / −0.17 / −0.18 %.
        let (fixes, truth) = Self.circle(seconds: seconds, withCourse: true, seed: 7)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        var chordsOnly = SmoothingOptions(profile: .driving)
        chordsOnly.countsCurveBetweenVelocityReadings = false
        let chords = WholeTrackSmoother(options: chordsOnly).smooth(fixes)
        let error = (track.distanceMetres - truth) / truth, chordError = (chords.distanceMetres - truth) / truth
        #expect(abs(error) < 0.25 * abs(chordError), "\(seconds) s: \(error) against the chords' \(chordError)")
        #expect(track.curveExcessMetres > 0 && chords.curveExcessMetres == 0)
    }

    @Test func theCurveCountsInTheDistancesSigma() {
        // What the curve adds is the motion model's account of the turns between fixes, so it counts as 1σ. The
        // chords alone cut 2.5 % here; without the readings' curve the smoothed velocities' curve (term 8) stands in
        // for it in σ, which then covers the cut (before term 8: 383 m off with σ 15 m).
        let (fixes, truth) = Self.circle(seconds: 15, withCourse: true, seed: 9)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        var chordsOnly = SmoothingOptions(profile: .driving)
        chordsOnly.countsCurveBetweenVelocityReadings = false
        let chords = WholeTrackSmoother(options: chordsOnly).smooth(fixes)
        #expect(track.distanceSigmaMetres >= track.curveExcessMetres)
        #expect(abs(track.distanceMetres - truth) <= 2 * track.distanceSigmaMetres)
        #expect(track.distanceModelCurveMetres == 0, "every step has its readings' curve")
        #expect(chords.distanceModelCurveMetres > 0 && chords.distanceSigmaMetres >= chords.distanceModelCurveMetres)
        #expect(abs(chords.distanceMetres - truth) <= 2 * chords.distanceSigmaMetres)
    }

    /// The same circle logged without speed or course (positions alone): the chords cut the arcs, the distance
    /// keeps them (the smoothed velocities are the model's, not readings), and σ covers the cut by the curve those
    /// velocities draw (term 8). Every 2 s (not longer than ``WholeTrackSmoother/modelCurveMinimumSeconds``) the
    /// term is not computed.
    @Test(arguments: [10.0, 15.0, 20.0])
    func aTrackWithoutReadingsWidensSigmaByTheSmoothedCurve(seconds: Double) throws {
        let (circle, truth) = Self.circle(seconds: seconds, withCourse: false, seed: 10)
        let fixes = try circle.map { fix in
            try Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: 3)
        }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.distanceMetres < truth, "the chords cut the arcs")
        #expect(
            track.distanceModelCurveMetres > 0.25 * (truth - track.distanceMetres), "\(track.distanceModelCurveMetres)")
        #expect(abs(track.distanceMetres - truth) <= 2 * track.distanceSigmaMetres)
        let dense = try Self.circle(seconds: 2, withCourse: false, seed: 10).fixes.map { fix in
            try Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: 3)
        }
        #expect(WholeTrackSmoother(profile: .driving).smooth(dense).distanceModelCurveMetres == 0)
    }

    /// A course column in radians (a code reviewer's case): term 7 rejects it, since its readings point elsewhere than
    /// the positions go, and those readings bent the smoothed velocities their own way (their curves summed to
    /// 1,673 m on this 15 km circle, whose chords cut 156 m), so term 8 takes the directions the positions
    /// themselves take across each state: as without the column, σ covers the cut and no more than a few times it
    /// (leaving those steps out had σ ± 13 m, a second reviewer's grids with such columns 10× narrower than without).
    @Test func aCourseColumnInRadiansDrawsTheCurveFromThePositions() {
        let (circle, truth) = Self.circle(seconds: 10, withCourse: true, seed: 11)
        let radians = circle.map { fix -> Fix in
            var fix = fix
            fix.courseDegrees = fix.courseDegrees.map { $0 * .pi / 180 }
            return fix
        }
        let track = WholeTrackSmoother(profile: .driving).smooth(radians)
        let cut = truth - track.distanceMetres
        #expect(track.curveExcessMetres == 0, "the column is rejected")
        #expect(
            cut > 0 && track.distanceModelCurveMetres > 0.25 * cut && track.distanceModelCurveMetres < 3 * cut,
            "\(track.distanceModelCurveMetres) for a cut of \(cut)")
        #expect(abs(track.distanceMetres - truth) <= 2 * track.distanceSigmaMetres)
    }

    @Test func aSpeedWithoutACourseKeepsTheChord() {
        // The direction of a speed-only reading is the track's own: the curve is not counted, whether every fix
        // lacks a course or every other one does (a reviewer's case: the first exercised only the early return).
        let (fixes, _) = Self.circle(seconds: 10, withCourse: false, seed: 8)
        #expect(WholeTrackSmoother(profile: .driving).smooth(fixes).curveExcessMetres == 0)
        let (withCourse, _) = Self.circle(seconds: 10, withCourse: true, seed: 8)
        let alternating = withCourse.indices.map { $0 % 2 == 0 ? withCourse[$0] : fixes[$0] }
        #expect(WholeTrackSmoother(profile: .driving).smooth(alternating).curveExcessMetres == 0)
    }

    /// `problem`'s states at their first fixes' positions (the band's layout: east block, then north) and a
    /// per-axis position variance of `variance` each: a solution to hand to `curveSteps`.
    static func solution(of problem: TrackProblem, variance: Double) -> (x: [Double], variances: [Double]) {
        let n = problem.stateCount
        var x = [Double](repeating: 0, count: 4 * n)
        for m in problem.positionState.indices.reversed() {
            x[2 * problem.positionState[m]] = problem.positionEast[m]
            x[2 * n + 2 * problem.positionState[m]] = problem.positionNorth[m]
        }
        return (x, [Double](repeating: variance, count: n))
    }

    @Test func onlyStepsBetweenReadingsMeasuredOnBothAxesCountTheirCurve() {
        // 100 m steps east (the readings' 10 m/s is not what this checks), a metre of noise: every chord resolved.
        let fixes = [
            S.fix(seconds: 0, east: 0, north: 0, speed: 10, course: 90),  // state 0
            S.fix(seconds: 1, east: 100, north: 0, speed: 10),  // state 1: speed only …
            S.fix(seconds: 1, east: 100, north: 0, speed: 10, course: 90),  // … and a course at the same time
            S.fix(seconds: 2, east: 200, north: 0, speed: 10),  // state 2: speed only
            S.fix(seconds: 3, east: 300, north: 0, speed: 10, course: 90),  // state 3
            S.fix(seconds: 4, east: 400, north: 0, speed: 0.1),  // state 4: at rest, read as zero velocity
            S.fix(seconds: 5, east: 500, north: 0, speed: 10, course: 90),  // state 5: an outlier, weight 0.3 below
            S.fix(seconds: 6, east: 600, north: 0, speed: 10, course: 90),  // state 6
            S.fix(seconds: 100, east: 700, north: 0, speed: 10, course: 90),  // state 7 opens a segment
            S.fix(seconds: 101, east: 800, north: 0, speed: 10, course: 90),  // state 8
        ]
        let problem = TrackProblem(fixes: fixes, options: SmoothingOptions(profile: .driving))
        var weights = [Double](repeating: 1, count: problem.velocityState.count)
        weights[problem.velocityState.firstIndex(of: 5)!] = 0.3
        let (x, variances) = Self.solution(of: problem, variance: 1)
        let steps =
            WholeTrackSmoother.curveSteps(
                problem, velocityWeights: weights, solution: x, positionVariances: variances) ?? []
        #expect(steps.indices.filter { steps[$0] } == [1, 4, 8])
        // With 20 m of noise per axis no 100 m chord is resolved (5 × √(2 × 400) = 141 m): none counts.
        let noisy = Self.solution(of: problem, variance: 400)
        #expect(
            WholeTrackSmoother.curveSteps(
                problem, velocityWeights: weights, solution: noisy.x, positionVariances: noisy.variances) == nil)
    }

    @Test func aWalkAtOneHertzKeepsItsChords() {
        // Steps of 1.4 m under 3 m of noise: the curve between them would bend with the noise (a reviewer's phone
        // walks read +0.3 … +2.4 points with it), so none is counted.
        var rng = TestRNG(state: 11)
        let fixes = stride(from: 0.0, through: 600, by: 1).map { t -> Fix in
            let a = 1.4 * t / 30
            return S.fix(
                seconds: t, east: 30 * cos(a) + 3 * rng.gaussian(), north: 30 * sin(a) + 3 * rng.gaussian(),
                accuracy: 4,
                speed: 1.4 + 0.1 * rng.gaussian(), course: Self.course(aroundCircleAt: a))
        }
        #expect(WholeTrackSmoother(profile: .walking).smooth(fixes).curveExcessMetres == 0)
    }

    @Test func aSwitchbackRoadLoggedEvery19SecondsKeepsItsCourseColumn() {
        // A mountain pass: legs of 100 m at 10 m/s joined by hairpins of radius 10 m taken at 5 m/s, a fix every
        // 19 s. The chord across a state often turns far from its course, while the step into it or out of it does
        // not (a reviewer's case: judged across the state alone the column was thrown out, and such passes read
        // −33 % instead of −13 %).
        let leg = 100.0, radius = 10.0, legSeconds = 10.0, turnSeconds = Double.pi * radius / 5
        let cycle = 2 * (legSeconds + turnSeconds)
        func pose(_ t: Double) -> (east: Double, north: Double, course: Double) {
            let k = (t / cycle).rounded(.down), x = t - k * cycle, base = 4 * radius * k
            if x < legSeconds { return (leg * x / legSeconds, base, 90) }
            if x < legSeconds + turnSeconds {
                let a = Double.pi * (x - legSeconds) / turnSeconds
                return (leg + radius * sin(a), base + radius - radius * cos(a), 90 - a * 180 / .pi + 360)
            }
            if x < 2 * legSeconds + turnSeconds {
                return (leg - leg * (x - legSeconds - turnSeconds) / legSeconds, base + 2 * radius, 270)
            }
            let a = Double.pi * (x - 2 * legSeconds - turnSeconds) / turnSeconds
            return (-radius * sin(a), base + 3 * radius - radius * cos(a), 270 + a * 180 / .pi)
        }
        var rng = TestRNG(state: 13)
        let fixes = stride(from: 0.0, through: 1_900, by: 19).map { t -> Fix in
            let p = pose(t), x = t - (t / cycle).rounded(.down) * cycle
            let turning = (x >= legSeconds && x < legSeconds + turnSeconds) || x >= 2 * legSeconds + turnSeconds
            return S.fix(
                seconds: t, east: p.east + rng.gaussian(), north: p.north + rng.gaussian(), accuracy: 2,
                speed: turning ? 5 : 10,
                course: p.course.truncatingRemainder(dividingBy: 360))
        }
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        #expect(track.curveExcessMetres > 0)
    }

    @Test func aCourseColumnInAnotherConventionBendsNoCurve() {
        // The circle's courses written counter-clockwise from the east (90° − course), and in radians: most
        // readings point away from where the positions go, and the step keeps its chord.
        let (fixes, _) = Self.circle(seconds: 10, withCourse: true, seed: 12)
        for convert in [{ (c: Double) in (450 - c).truncatingRemainder(dividingBy: 360) }, { $0 * .pi / 180 }] {
            let converted = fixes.map { fix in
                var f = fix
                f.courseDegrees = fix.courseDegrees.map(convert)
                return f
            }
            #expect(WholeTrackSmoother(profile: .driving).smooth(converted).curveExcessMetres == 0)
        }
        #expect(WholeTrackSmoother(profile: .driving).smooth(fixes).curveExcessMetres > 0)
    }

    @Test(arguments: [(0.3, 10.0), (2.0, 3.0)])
    func theDistanceGainsExactlyTheReportedCurve(noise: Double, accuracy: Double) {
        // Whatever the solver and readings (10 m claimed for 0.3 m of noise: the white-part re-solve), the distance
        // with the curve is the distance without it plus `curveExcessMetres` (a reviewer's invariant).
        var rng = TestRNG(state: 3)
        let fixes = stride(from: 0.0, through: 1_500, by: 10).map { t -> Fix in
            let a = t / 20
            return S.fix(
                seconds: t, east: 200 * cos(a) + noise * rng.gaussian(), north: 200 * sin(a) + noise * rng.gaussian(),
                accuracy: accuracy, speed: 10 + 0.1 * rng.gaussian(), course: Self.course(aroundCircleAt: a))
        }
        for variant in 0..<4 {
            var on = SmoothingOptions(profile: .driving)
            switch variant {
            case 1: on.solver = .rauchTungStriebel
            case 2: on.checksModelDependence = false
            case 3: on.estimatesNoise = true
            default: break
            }
            var off = on
            off.countsCurveBetweenVelocityReadings = false
            let with = WholeTrackSmoother(options: on).smooth(fixes)
            let without = WholeTrackSmoother(options: off).smooth(fixes)
            #expect(with.curveExcessMetres > 0, "variant \(variant)")
            if variant == 0, accuracy == 10 { #expect(with.distanceModelDifferenceMetres != 0) }
            #expect(
                abs(with.distanceMetres - without.distanceMetres - with.curveExcessMetres) < 1e-6,
                "variant \(variant)")
        }
    }
}
