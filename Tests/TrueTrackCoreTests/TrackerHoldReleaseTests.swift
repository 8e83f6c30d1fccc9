import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// A receiver that freezes its position (exact repeats) while the walker sets off, then jumps to where it is: the
/// jump's chord counts once the track goes on (`Tracker.holdReleaseMinimumSeconds`), and nothing else does.
@Suite struct TrackerHoldReleaseTests {
    /// Fix `i`'s position error (seeded: the same for every call): a phone chipset's, a slow drift (Gauss–Markov,
    /// 2 m per axis, τ 30 s, per second) plus 0.3 m of white noise.
    static let noise: [(north: Double, east: Double)] = {
        var random = SplitMix64(seed: 38)
        let a = exp(-1 / 30.0), drive = 2 * (1 - a * a).squareRoot()
        var drift = (north: 0.0, east: 0.0)
        return (0..<1000).map { _ in
            drift = (a * drift.north + drive * random.gaussian(), a * drift.east + drive * random.gaussian())
            return (drift.north + 0.3 * random.gaussian(), drift.east + 0.3 * random.gaussian())
        }
    }()

    static func jitter(_ i: Int) -> (north: Double, east: Double) { noise[i % noise.count] }

    /// How the receiver reports speed after its hold.
    enum Readings: CaseIterable, Sendable { case honest, absent }

    /// A walk north at 1.4 m/s from a 30 s standing start, with a halt of 40 s at 60 m, ending with 20 s standing:
    /// at each departure the receiver holds its last position for `holdSeconds` and reads 0.2 m/s (a static hold),
    /// then jumps to where the walker is. Fixes every `interval` seconds, 5 m accuracy. Returns the fixes and the
    /// true distance (metres).
    static func walk(holdSeconds: Double, interval: Double, readings: Readings, readingsInHold: Double = 0.2)
        -> (fixes: [Fix], truthMetres: Double)
    {
        let pace = 1.4
        // (start, end, seconds, moving) legs along north.
        let legs: [(from: Double, to: Double, seconds: Double)] = [
            (0, 0, 30), (0, 60, 60 / pace), (60, 60, 40), (60, 150, 90 / pace), (150, 150, 20),
        ]
        var fixes: [Fix] = []
        var t = 0.0, i = 0
        var legStart = 0.0
        for leg in legs {
            let moving = leg.to != leg.from
            var held: (north: Double, east: Double)?
            while t < legStart + leg.seconds {
                let s = t - legStart
                let north = leg.from + (leg.to - leg.from) * s / leg.seconds
                let j = jitter(i)
                var position = (north: north + j.north, east: j.east)
                var speed: Double? = moving ? pace : 0
                if moving && s < holdSeconds {
                    if held == nil, let last = fixes.last {
                        held = (
                            (last.latitude - 49) * TrackerTests.metresPerDegree,
                            (last.longitude - 11) * TrackerTests.metresPerDegree * 0.656
                        )
                    }
                    if let h = held { position = h }
                    speed = readingsInHold
                }
                if readings == .absent { speed = nil }
                fixes.append(TrackerTests.fix(t, north: position.north, east: position.east, speed: speed))
                t += interval
                i += 1
            }
            legStart += leg.seconds
        }
        return (fixes, 150)
    }

    static func total(_ fixes: [Fix], profile: TrackingProfile = .walking) -> Double {
        var tracker = Tracker(profile: profile)
        for fix in fixes { _ = tracker.process(fix) }
        return tracker.distance.totalMetres + tracker.finishTrack()
    }

    @Test(
        "counts the walk a frozen receiver hid once its position jumps after the walker",
        arguments: Readings.allCases, [1.0])
    func countsTheWalkAFrozenReceiverHid(readings: Readings, interval: Double) {
        let held = Self.walk(holdSeconds: 15, interval: interval, readings: readings)
        let unheld = Self.walk(holdSeconds: 0, interval: interval, readings: readings)
        let counted = Self.total(held.fixes)
        let reference = Self.total(unheld.fixes)
        // Two holds of 15 s at 1.4 m/s hide 42 m of 150: without the rule the re-anchors gave them up.
        #expect(abs(counted - held.truthMetres) <= 0.1 * held.truthMetres, "counted \(counted) of 150 m")
        #expect(abs(counted - reference) <= 12, "counted \(counted), without holds \(reference)")
    }

    @Test("does not count a hold twice when its readings counted the walk")
    func doesNotCountAHoldTwiceWhenItsReadingsCountedTheWalk() {
        let held = Self.walk(holdSeconds: 15, interval: 1, readings: .honest, readingsInHold: 1.4)
        let counted = Self.total(held.fixes)
        #expect(abs(counted - held.truthMetres) <= 0.1 * held.truthMetres, "counted \(counted) of 150 m")
    }

    /// A still receiver (±1.5 m of scatter) that holds its position for 20 s, then jumps `jumpMetres` east for
    /// `awaySeconds` (multipath claiming 5 m), then comes back (or, `staysAway`, stays there), still, to the end.
    static func stillWithJump(jumpMetres: Double, awaySeconds: Double, staysAway: Bool, speed: Double?) -> [Fix] {
        var fixes: [Fix] = []
        for i in 0..<200 {
            let t = Double(i)
            let j = jitter(i)
            var east = j.east, north = j.north
            if (60..<80).contains(t) { (north, east) = (jitter(59).north, jitter(59).east) }
            if t >= 80 && (staysAway || t < 80 + awaySeconds) { east += jumpMetres }
            fixes.append(TrackerTests.fix(t, north: north, east: east, speed: speed))
        }
        return fixes
    }

    @Test(
        "counts nothing for a still receiver whose hold ends in a multipath jump",
        arguments: [(30.0, 8.0, false), (40.0, 15.0, false), (30.0, 0.0, true)], [0.0, nil] as [Double?])
    func countsNothingForAStillReceiversJump(jump: (metres: Double, seconds: Double, staysAway: Bool), speed: Double?) {
        let fixes = Self.stillWithJump(
            jumpMetres: jump.metres, awaySeconds: jump.seconds, staysAway: jump.staysAway, speed: speed)
        #expect(Self.total(fixes) <= 2, "a still receiver counted \(Self.total(fixes)) m")
    }

    /// A walker who stops for 40 s after 60 m while the chipset freezes a fix carrying a multipath offset of
    /// `offsetMetres` east for the whole stop and the first 5 s of the walk on (reading 0), then walks 90 m more.
    static func heldOffset(offsetMetres: Double) -> [Fix] {
        var fixes: [Fix] = []
        let walkOut = 60 / 1.4, stopEnd = 60 / 1.4 + 40
        for i in 0..<170 {
            let t = Double(i)
            let north = t < walkOut ? 1.4 * t : t < stopEnd ? 60 : 60 + 1.4 * (t - stopEnd)
            let j = jitter(i)
            var position = (north: north + j.north, east: j.east)
            var speed = t < walkOut || t >= stopEnd ? 1.4 : 0
            if t >= walkOut + 2 && t < stopEnd + 5 {
                position = (60 + jitter(50).north, offsetMetres + jitter(50).east)
                speed = 0
            }
            fixes.append(TrackerTests.fix(t, north: position.north, east: position.east, speed: speed))
        }
        return fixes
    }

    @Test("counts no offset that a hold froze while the walker stood", arguments: [25.0, 40.0])
    func countsNoOffsetAHoldFroze(offsetMetres: Double) {
        let counted = Self.total(Self.heldOffset(offsetMetres: offsetMetres))
        let reference = Self.total(Self.heldOffset(offsetMetres: 0))
        // (The walk is 60 + 1.4 × 127 ≈ 238 m; the offset out and back is no walk.)
        #expect(counted <= reference + 8, "counted \(counted), the same walk without the offset \(reference)")
    }

    /// `fixes` with those from `start` to `end` seconds (after the suite's start) moved `eastMetres` east.
    static func shifted(_ fixes: [Fix], from start: Double, to end: Double, eastMetres: Double) -> [Fix] {
        fixes.map { fix in
            let t = Double(fix.timestamp.millisecondsSince1970 - TrackerTests.t0) / 1000
            guard t >= start && t < end else { return fix }
            let north = (fix.latitude - 49) * TrackerTests.metresPerDegree
            let east = (fix.longitude - 11) * TrackerTests.metresPerDegree * 0.656 + eastMetres
            return TrackerTests.fix(t, north: north, east: east, speed: fix.speedMetresPerSecond)
        }
    }

    @Test("counts a hold's chord once when a multipath excursion re-anchors the filter again soon after")
    func countsAHoldsChordOnceAfterASecondReanchor() {
        let held = Self.walk(holdSeconds: 15, interval: 1, readings: .honest)
        // The first departure's hold ends at 45 s and its run re-anchors at 47 s; a reflection 35 m east from 50 s
        // to 56 s re-anchors again while the hold's chord is pending.
        let fixes = Self.shifted(held.fixes, from: 50, to: 56, eastMetres: 35)
        let counted = Self.total(fixes)
        // (The fault was an over-count: the second re-anchor ended the hold's chord, stretched to the reflection
        // 35 m east. Short of the walk, the two re-anchors and the reflection's 6 s cost 16 m: 134.1 m; 140.9 m
        // while the last halt's first seconds counted the filter's jitter.)
        #expect(
            counted <= 1.1 * held.truthMetres && counted >= 0.85 * held.truthMetres, "counted \(counted) of 150 m")
    }

    @Test("counts nothing when a still receiver's zeros say still while its jump drifts on", arguments: [25.0, 35.0])
    func countsNothingWhenZerosSayStillAfterAJump(jumpMetres: Double) {
        // Held 60-79 s, then a reflection `jumpMetres` east drifting on east at 1 m/s for 20 s, then back; the
        // re-anchor's own reading (82 s) present, or missing.
        for readsAtReanchor in [true, false] {
            let fixes = (0..<200).map { i -> Fix in
                let t = Double(i)
                var (north, east) = Self.jitter(i)
                if (60..<80).contains(t) { (north, east) = Self.jitter(59) }
                if (80..<100).contains(t) { east += jumpMetres + (t - 80) }
                return TrackerTests.fix(t, north: north, east: east, speed: readsAtReanchor || t != 82 ? 0 : nil)
            }
            #expect(Self.total(fixes) <= 2, "a still receiver counted \(Self.total(fixes)) m (\(readsAtReanchor))")
        }
    }

    @Test("counts a car's frozen departure from where it rested once")
    func countsAFrozenDepartureFromARest() {
        // Parked 60 s (readings 0), then drives north at 15 m/s for 90 s; its receiver holds the parked fix for the
        // first 10 s of the drive (reading 0.2), then jumps to where the car is (150 m: refused, then re-anchored).
        let fixes = (0..<150).map { i -> Fix in
            let t = Double(i)
            let j = Self.jitter(i)
            let moving = t >= 60
            var position = (north: (moving ? 15 * (t - 60) : 0) + j.north, east: j.east)
            var speed = moving ? 15.0 : 0
            if moving && t < 70 {
                position = Self.jitter(59)
                speed = 0.2
            }
            return TrackerTests.fix(t, north: position.north, east: position.east, speed: speed)
        }
        let counted = Self.total(fixes, profile: .driving)
        // 89 s at 15 m/s: 1,335 m.
        #expect(abs(counted - 1335) <= 0.05 * 1335, "counted \(counted) of 1,335 m")
    }
}
