import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// Tracks that end before the trailing window can judge their motion (within half a window span of an anchor): what
/// the window still holds is judged at ``Tracker/finishTrack()`` as a full window would judge it.
@Suite struct TrackerShortTrackTests {
    /// Fix `i`'s position error (seeded: the same for every call): 1.5 m of white noise per axis.
    static let noise: [(north: Double, east: Double)] = {
        var random = SplitMix64(seed: 77)
        return (0..<100).map { _ in (1.5 * random.gaussian(), 1.5 * random.gaussian()) }
    }()

    /// A traveller going north at `speed` m/s for `seconds` from `start` seconds on, one fix a second, 5 m accuracy,
    /// with ``noise``; readings of `speed` unless `readings` is false.
    static func leg(from start: Double = 0, north: Double = 0, seconds: Int, speed: Double, readings: Bool = true)
        -> [Fix]
    {
        (0...seconds).map { i in
            let j = noise[i % noise.count]
            return TrackerTests.fix(
                start + Double(i), north: north + speed * Double(i) + j.north, east: j.east,
                speed: readings ? speed : nil)
        }
    }

    /// `fixes` with every speed reading replaced by `speed` (`nil`: none).
    static func reading(_ speed: Double?, on fixes: [Fix]) -> [Fix] {
        fixes.map { fix in
            try! Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: fix.horizontalAccuracyMetres, speedMetresPerSecond: speed)
        }
    }

    /// The tracker's total after `fixes` and ``Tracker/finishTrack()``, and what `finishTrack()` counted.
    static func total(_ fixes: [Fix], profile: TrackingProfile = .walking) -> (total: Double, atFinish: Double) {
        var tracker = Tracker(profile: profile)
        for fix in fixes { _ = tracker.process(fix) }
        let atFinish = tracker.finishTrack()
        return (tracker.distance.totalMetres, atFinish)
    }

    @Test("counts a 7 s walk at its end", arguments: [true, false])
    func countsASevenSecondWalk(readings: Bool) {
        let (total, atFinish) = Self.total(Self.leg(seconds: 7, speed: 1.4, readings: readings))
        // 9.8 m walked; the per-fix path held all of it (the window was younger than half its span).
        #expect(atFinish == total)
        #expect(abs(total - 9.8) <= (readings ? 0.5 : 0.35 * 9.8), "counted \(total) of 9.8 m")
    }

    @Test("counts nothing of a vehicle's first seconds at the end of a short track")
    func countsNothingOfAVehiclesFirstSeconds() {
        // 7 s at 15 m/s on the walking profile: faster than a walker sustains.
        let (total, _) = Self.total(Self.leg(seconds: 7, speed: 15))
        #expect(total == 0)
    }

    @Test("counts nothing for a still receiver's short track", arguments: [true, false])
    func countsNothingForAStillReceiver(readings: Bool) {
        // Readings of 0.4 m/s (above the deadband) from a receiver that stays put: the net displacement says still.
        let fixes = Self.reading(readings ? 0.4 : nil, on: Self.leg(seconds: 7, speed: 0, readings: false))
        let (total, _) = Self.total(fixes)
        #expect(total == 0)
    }

    @Test("counts nothing when slow readings cover the window though the fixes move")
    func countsNothingWhenReadingsSayStill() {
        // Readings of 0.1 m/s (below the moving mean) on every fix: the full-window rule trusts them too.
        let fixes = Self.reading(0.1, on: Self.leg(seconds: 7, speed: 1.4))
        #expect(Self.total(fixes).total == 0)
    }

    @Test("counts a walk's last seconds after a gap's re-anchor, and the gap's chord")
    func countsAWalkEndingAfterAGap() {
        // 60 s of walking, 5 minutes without fixes (the filter re-anchors), then 7 s more, 400 m on: the gap's chord
        // (from 84 m to 400 m north) is settled at the end, half a window after the anchor never came (a reviewer's).
        let first = Self.leg(seconds: 60, speed: 1.4)
        let last = Self.leg(from: 360, north: 400, seconds: 7, speed: 1.4)
        let (whole, _) = Self.total(first)
        let (total, atFinish) = Self.total(first + last)
        #expect(abs(atFinish - (316 + 9.8)) <= 4, "counted \(atFinish) at the end")
        #expect(abs(total - (whole + 316 + 9.8)) <= 4, "counted \(total), the first walk \(whole)")
        // A parked phone's cold fix after the silence, converging back to where it lay: nothing.
        let parked = Self.leg(seconds: 60, speed: 0)
        let cold = [1.0, 0.5, 0.3, 0.15, 0.1, 0.05, 0.02].enumerated().map { i, share in
            TrackerTests.fix(360 + Double(i), north: 90 * share)
        }
        #expect(Self.total(parked + cold).total == 0)
    }

    @Test("counts the young window at a session break")
    func countsTheYoungWindowAtASessionBreak() {
        // Two 7 s walks two hours apart: the silence restarts the tracker (`startAfresh`), which ends the first.
        let fixes = Self.leg(seconds: 7, speed: 1.4) + Self.leg(from: 7_200, north: 5_000, seconds: 7, speed: 1.4)
        let (total, _) = Self.total(fixes)
        #expect(abs(total - 19.6) <= 1, "counted \(total) of 19.6 m")
    }

    @Test("counts a short walk's readings in another unit as its filtered path")
    func countsReadingsInAnotherUnitAsTheFilteredPath() {
        // A 7 s walk at 1.4 m/s whose column holds km/h (5.04): the unit checks need longer than the track.
        let fixes = Self.reading(5.04, on: Self.leg(seconds: 7, speed: 1.4))
        let (total, _) = Self.total(fixes)
        #expect(total <= 1.3 * 9.8, "counted \(total) of 9.8 m (the readings say 35.3)")
    }

    @Test("counts nothing of a parked car's last cold-fix burst", arguments: [false, true])
    func countsNothingOfAColdFixBurst(sessionBreaks: Bool) {
        // Woken every 120 s (every 2 h: each burst after a session break) for 4 fixes 1 s apart, the first 80 m off,
        // converging back (0.5, 0.3, 0.15 of it), no speed, driving profile.
        var fixes: [Fix] = []
        for burst in 0..<6 {
            let start = Double(burst) * (sessionBreaks ? 7_200 : 120)
            for (i, share) in [1.0, 0.5, 0.3, 0.15].enumerated() {
                let j = Self.noise[(burst * 4 + i) % Self.noise.count]
                fixes.append(
                    TrackerTests.fix(
                        start + Double(i), north: 80 * share + j.north / 3, east: j.east / 3, accuracy: 20))
            }
        }
        let (total, _) = Self.total(fixes, profile: .driving)
        #expect(total == 0, "counted \(total)")
    }
}
