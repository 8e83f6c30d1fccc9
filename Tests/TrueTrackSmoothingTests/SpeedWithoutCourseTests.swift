import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// A Doppler speed without a course (GPX bike computers and loggers, many CSV exports) is a velocity of
/// known length along the smoothed track's own direction.
@Suite struct SpeedWithoutCourseTests {
    typealias S = SmoothingSupport

    /// `fixes` with their course removed, and their speed too unless `keepingSpeed`.
    static func withoutCourse(_ fixes: [Fix], keepingSpeed: Bool) -> [Fix] {
        fixes.map { fix in
            try! Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: fix.horizontalAccuracyMetres,
                speedMetresPerSecond: keepingSpeed ? fix.speedMetresPerSecond : nil)
        }
    }

    /// A 15-minute walk of 60 s legs at 1.1–1.6 m/s, each turning up to 90° from the last (seeded).
    static func walkWithTurns(seed: UInt64) -> Scenario {
        var rng = TestRNG(state: seed)
        var heading = rng.uniform() * 360
        var legs: [Leg] = []
        for _ in 0..<15 {
            let speed = 1.1 + 0.5 * rng.uniform()
            legs.append(.walk(metres: 60 * speed, heading: heading, speed: speed))
            heading = (heading + 180 * rng.uniform() - 90 + 360).truncatingRemainder(dividingBy: 360)
        }
        return Scenario(name: "walk with turns", legs: legs)
    }

    @Test func theSmoothedSpeedFollowsASpeedWithoutACourse() {
        // A straight line east at 1.5 m/s for 5 minutes, positions with ±4 m of white noise, the speed exact.
        var rng = TestRNG(state: 11)
        func gaussian() -> Double {
            (-2 * log(max(rng.uniform(), 1e-300))).squareRoot() * cos(2 * .pi * rng.uniform())
        }
        var withSpeed: [Fix] = []
        var without: [Fix] = []
        for k in 0...300 {
            let t = Double(k)
            let e = 1.5 * t + 4 * gaussian(), n = 4 * gaussian()
            withSpeed.append(S.fix(seconds: t, east: e, north: n, accuracy: 6, speed: 1.5))
            without.append(S.fix(seconds: t, east: e, north: n, accuracy: 6))
        }
        let smoother = WholeTrackSmoother(profile: .walking)
        func speedRMS(_ track: SmoothedTrack) -> Double {
            let inner = track.points[20..<(track.points.count - 20)]
            let squares = inner.map { point -> Double in
                let v = point.velocityEastMetresPerSecond, w = point.velocityNorthMetresPerSecond
                let error = (v * v + w * w).squareRoot() - 1.5
                return error * error
            }
            return (squares.reduce(0, +) / Double(squares.count)).squareRoot()
        }
        let guided = smoother.smooth(withSpeed), free = smoother.smooth(without)
        // The speed pins the smoothed speed; from positions alone it wanders with the noise.
        #expect(speedRMS(guided) < 0.1)
        #expect(speedRMS(guided) < speedRMS(free) / 3)
        // The direction still comes from the positions: east.
        let middle = guided.points[150]
        #expect(middle.velocityEastMetresPerSecond > 1.4)
        #expect(abs(middle.velocityNorthMetresPerSecond) < 0.2)
    }

    @Test func aWalkWithTurnsMeasuresCloserToItsLengthWithItsSpeed() {
        // Rough positions (8 m, τ 30 s: the case where the smoothed length inflates most), speed ± 0.15 m/s.
        let errors = ErrorModel(accuracyMetres: 8, correlationSeconds: 30)
        let smoother = WholeTrackSmoother(profile: .walking)
        var withSpeedTotal = 0.0, withoutTotal = 0.0
        for seed: UInt64 in 1...5 {
            let scenario = Self.walkWithTurns(seed: seed)
            let track = Simulator.simulate(scenario, errors: errors, seed: seed)
            let truth = track.truthDistanceMetres
            let withSpeed = smoother.smooth(Self.withoutCourse(track.fixes, keepingSpeed: true))
            let without = smoother.smooth(Self.withoutCourse(track.fixes, keepingSpeed: false))
            let withSpeedError = abs(withSpeed.distanceMetres - truth) / truth
            let withoutError = abs(without.distanceMetres - truth) / truth
            #expect(
                withSpeedError < withoutError,
                "seed \(seed): \(withSpeed.distanceMetres) vs \(without.distanceMetres) m of \(truth)")
            withSpeedTotal += withSpeedError
            withoutTotal += withoutError
            // And its σ still covers the error (measured z 1.27 … 1.47).
            #expect(abs(withSpeed.distanceMetres - truth) <= 2 * withSpeed.distanceSigmaMetres, "seed \(seed)")
        }
        // Measured: mean |error| 12.7 % with the speed, 14.0 % from the positions alone. (The smoothed length of
        // such rough positions stays long either way: their wander reads as motion the speed cannot rule out.)
        #expect(withSpeedTotal < 0.95 * withoutTotal)
    }

    @Test func speedSpikesWithoutACourseDoNotMoveAStillPhone() {
        // A phone on a desk, 4 m of noise, Doppler 0.05 m/s with every tenth reading a 0.4–0.6 m/s spike and
        // no course: the spikes find no motion in the positions to lie along, and nothing is travelled.
        var rng = TestRNG(state: 5)
        var fixes: [Fix] = []
        for k in 0..<600 {
            let e = 4 * (rng.uniform() - 0.5), n = 4 * (rng.uniform() - 0.5)
            let speed = k % 10 == 0 ? 0.4 + 0.2 * rng.uniform() : 0.05
            fixes.append(S.fix(seconds: Double(k), east: e, north: n, accuracy: 5, speed: speed))
        }
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.distanceMetres < 1)
        // Where the spikes are, the smoothed speed is the positions' alone.
        let alone = WholeTrackSmoother(profile: .walking).smooth(Self.withoutCourse(fixes, keepingSpeed: false))
        for k in stride(from: 0, to: fixes.count, by: 10) {
            #expect(
                track.points[k].speedMetresPerSecond <= alone.points[k].speedMetresPerSecond + 0.05,
                "fix \(k): \(track.points[k].speedMetresPerSecond) m/s, \(alone.points[k].speedMetresPerSecond) without speeds"
            )
        }
    }

    /// A walk east/north-east with turns every 60 s, white per-axis noise 4 m stated exactly
    /// (accuracy = 4 · 1.50959), Doppler speed ± 0.5 m/s (the walking profile's assumed σ) and, when
    /// `course`, a course ± 20° (the profile's assumed σ): the smoother's model holds exactly.
    static func modelWalk(seed: UInt64, course: Bool) -> [Fix] {
        var rng = TestRNG(state: seed)
        func gaussian() -> Double {
            (-2 * log(max(rng.uniform(), 1e-300))).squareRoot() * cos(2 * .pi * rng.uniform())
        }
        var fixes: [Fix] = []
        var e = 0.0, n = 0.0
        for k in 0..<900 {
            let heading = Double((k / 60) % 4) * 40  // 0, 40, 80, 120°, …
            let h = heading * .pi / 180
            e += 1.4 * sin(h)
            n += 1.4 * cos(h)
            let speed = max(0, 1.4 + 0.5 * gaussian())
            let c = (heading + 20 * gaussian() + 360).truncatingRemainder(dividingBy: 360)
            fixes.append(
                S.fix(
                    seconds: Double(k), east: e + 4 * gaussian(), north: n + 4 * gaussian(),
                    accuracy: 4 * 1.50959, speed: speed, course: course ? c : nil))
        }
        return fixes
    }

    /// EM's Doppler scale is the same kind of estimate whether the speed comes with a course or not: a
    /// speed-only measurement's residual is along the track only (its cross-track component is zero by
    /// construction), so counting it as two degrees of freedom halves its variance estimate.
    @Test func emDopplerScaleOfASpeedWithoutCourseIsNotHalved() {
        var options = SmoothingOptions(profile: .walking)
        options.estimatesNoise = true
        let smoother = WholeTrackSmoother(options: options)
        let withCourse = smoother.smooth(Self.modelWalk(seed: 3, course: true)).noise.dopplerScale
        let speedOnly = smoother.smooth(Self.modelWalk(seed: 3, course: false)).noise.dopplerScale
        // Measured (a reviewer): with a course ≈ 0.65; speed only ≈ 0.42 when its residual counted two degrees of
        // freedom.
        #expect(speedOnly > 0.85 * withCourse, "speed only \(speedOnly), with course \(withCourse)")
    }

    /// The quadratic loss still aligns speed-only measurements (it iterates); a reviewer's guard: nothing else in
    /// the suite failed when `maximumIterations` went back to 1 for `.quadratic`.
    @Test func quadraticLossAlignsSpeedsWithoutCourse() {
        var options = SmoothingOptions(profile: .walking)
        options.loss = .quadratic
        let track = WholeTrackSmoother(options: options).smooth(Self.modelWalk(seed: 5, course: false))
        #expect(track.iterations > 1)
        let inner = track.points[100..<800]
        let meanSpeed = inner.map(\.speedMetresPerSecond).reduce(0, +) / Double(inner.count)
        #expect(abs(meanSpeed - 1.4) < 0.1, "mean smoothed speed \(meanSpeed)")
    }

    /// Banded and RTS paths agree with speed-only measurements (same alignment sequence).
    @Test func rtsAgreesWithBandedOnSpeedsWithoutCourse() {
        var options = SmoothingOptions(profile: .walking)
        let fixes = Self.modelWalk(seed: 7, course: false)
        let banded = WholeTrackSmoother(options: options).smooth(fixes)
        options.solver = .rauchTungStriebel
        let rts = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(banded.iterations == rts.iterations)
        #expect(abs(banded.distanceMetres - rts.distanceMetres) < 0.01)
    }
}
