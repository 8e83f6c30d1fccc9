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
        let fixes = Self.leg(seconds: 7, speed: 0, readings: false).map { fix in
            try! Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: fix.horizontalAccuracyMetres, speedMetresPerSecond: readings ? 0.4 : nil)
        }
        let (total, _) = Self.total(fixes)
        #expect(total == 0)
    }

    @Test("counts nothing when slow readings cover the window though the fixes move")
    func countsNothingWhenReadingsSayStill() {
        // Readings of 0.1 m/s (below the moving mean) on every fix: the full-window rule trusts them too.
        let fixes = Self.leg(seconds: 7, speed: 1.4).map { fix in
            try! Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: fix.horizontalAccuracyMetres, speedMetresPerSecond: 0.1)
        }
        #expect(Self.total(fixes).total == 0)
    }

    @Test("counts a walk that ends seconds after a gap's re-anchor")
    func countsAWalkEndingAfterAGap() {
        // 60 s of walking, 5 minutes without fixes (the filter re-anchors), then 7 s more, 400 m on.
        let first = Self.leg(seconds: 60, speed: 1.4)
        let last = Self.leg(from: 360, north: 400, seconds: 7, speed: 1.4)
        let (whole, _) = Self.total(first)
        let (total, atFinish) = Self.total(first + last)
        #expect(abs(atFinish - 9.8) <= 0.5, "counted \(atFinish) at the end")
        #expect(abs(total - (whole + 9.8)) <= 0.5, "counted \(total), the first walk \(whole)")
    }
}
