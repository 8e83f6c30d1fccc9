import Foundation
import TrueTrackCore
import TrueTrackSimulation

/// Generated tracks at a jog's pace just under the walking profile's sustained speed (3 m/s), where the vehicle
/// rule must tell a jog from a ride by the speed readings: the forward filter's (`JogOnTheWalkingProfileTests`)
/// and the smoother's (`JogSmoothedOnTheWalkingProfileTests`).
public enum JogTracks {
    /// Legs of 300 s east, north and east at `speed` m/s, a fix a second under `sigma` m of white noise per axis
    /// (stating the honest 68 % radius, 1.5096 σ), the speed read with 0.15 m/s of noise and the leg's course on
    /// every `readingEvery`-th fix (the others read none).
    public static func jog(speed: Double, sigma: Double, seed: UInt64, readingEvery: Int = 1) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var east = 0.0, north = 0.0
        return (0...900).map { i in
            let heading = i <= 300 || i > 600 ? 90.0 : 0.0
            if i > 0 {
                east += heading == 90 ? speed : 0
                north += heading == 0 ? speed : 0
            }
            let x = east + sigma * random.gaussian(), y = north + sigma * random.gaussian()
            let reading = speed + 0.15 * random.gaussian(), reads = i % readingEvery == 0
            return fix(
                second: i, east: x, north: y, accuracy: 1.5096 * sigma, speed: reads ? reading : nil,
                course: reads ? heading : nil)
        }
    }

    /// ``jog(speed:sigma:seed:readingEvery:)`` with a reading on every fix, thinned to one fix every 2–5 s (seeded
    /// by `seed`, uniformly), as a logger in power-saving mode keeps them.
    public static func jogLoggedEveryFewSeconds(speed: Double, sigma: Double, seed: UInt64) -> [Fix] {
        var gaps = SplitMix64(seed: seed + 100)
        var next = 0
        return jog(speed: speed, sigma: sigma, seed: seed).enumerated().compactMap { i, fix -> Fix? in
            guard i == next else { return nil }
            next += 2 + Int(gaps.next() % 4)
            return fix
        }
    }

    /// A walk of 300 s east at 1.4 m/s, a ride of 600 s north at `rideSpeed` m/s whose readings stay under
    /// `readingCap` m/s (a vehicle its receiver under-reads), and 300 s east on foot again (840 m walked), a fix a
    /// second under 3 m of white noise (stating 4.5 m), the readings honest on foot (σ 0.15 m/s).
    public static func walkWithUnderReadRide(rideSpeed: Double, readingCap: Double = 2.9, seed: UInt64) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var east = 0.0, north = 0.0
        return (0...1200).map { i in
            let riding = i > 300 && i <= 900
            let speed = riding ? rideSpeed : 1.4
            if i > 0 {
                if riding { north += speed } else { east += speed }
            }
            let x = east + 3 * random.gaussian(), y = north + 3 * random.gaussian()
            var reading = max(0, speed + 0.15 * random.gaussian())
            if riding { reading = min(reading, readingCap + 0.05 * random.gaussian()) }
            return fix(second: i, east: x, north: y, accuracy: 4.5, speed: reading, course: riding ? 0 : 90)
        }
    }

    /// A bus: 40 s at 7 m/s, then 150 s crawling at `crawlSpeed` m/s, then 20 s stopped, eight times (5,720 m at
    /// 2.9 m/s), a fix a second, its readings honest (σ 0.15 m/s), under 3 m of white noise (stating 4.5 m). The crawl
    /// reads like a jog; the fast spells' readings say it is a ride.
    public static func busWithCrawls(crawlSpeed: Double = 2.9, seed: UInt64 = 3) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var north = 0.0, fixes: [Fix] = []
        for i in 0..<(8 * 210) {
            let phase = i % 210
            let speed = phase < 40 ? 7.0 : phase < 190 ? crawlSpeed : 0
            north += speed
            let y = north + 3 * random.gaussian(), x = 3 * random.gaussian()
            fixes.append(
                fix(
                    second: i, east: x, north: y, accuracy: 4.5, speed: max(0, speed + 0.15 * random.gaussian()),
                    course: speed > 0 ? 0 : nil))
        }
        return fixes
    }

    /// The fix `second` seconds after 2024-05-01 06:00 UTC at (`east`, `north`) metres from (48.1° N, 11.5° E),
    /// stating `accuracy` metres, with its speed and course readings.
    static func fix(second: Int, east: Double, north: Double, accuracy: Double, speed: Double?, course: Double?) -> Fix
    {
        try! Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_543_200_000 + Int64(second) * 1000),
            latitude: 48.1 + north / 111_132, longitude: 11.5 + east / (111_320 * cos(48.1 * Double.pi / 180)),
            horizontalAccuracyMetres: accuracy, speedMetresPerSecond: speed, courseDegrees: course)
    }
}
