import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

/// A receiver at rest whose Doppler speed reads 0 (what the chipsets of the recordings do: the Pixel 4, the
/// Pixel 6a and the u-blox F9K read 0.0 on 81–95 % of their readings under 1 m/s, the Bangalore phone on all 1,800
/// of its stationary fixes), and one whose readings never fall to zero (0.3–0.6 m/s all the time, a tester's desk
/// phone): the readings' window mean says "moving", and their path, or the position filter's, is counted.
@Suite struct DopplerNoiseAtRestTests {
    /// `count` fixes a second apart of a receiver at rest whose position error is Gauss–Markov (3 m per axis,
    /// correlation 120 s) plus 0.3 m of white noise, claiming 4–8 m, with the Doppler speed `speed` draws.
    static func desk(count: Int, seed: UInt64, speed: (inout SplitMix64) -> Double) -> [Fix] {
        var random = SplitMix64(seed: seed)
        let sigma = 3.0, white = 0.3, a = exp(-1 / 120.0)
        let q = sigma * (1 - a * a).squareRoot()
        var ex = 0.0, ey = 0.0
        return (0..<count).map { i in
            ex = a * ex + q * random.gaussian()
            ey = a * ey + q * random.gaussian()
            let x = ex + white * random.gaussian(), y = ey + white * random.gaussian()
            let accuracy = 4 + 4 * random.uniform()
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                latitude: 45 + y / 111_132, longitude: 7 + x / (111_320 * cos(45 * Double.pi / 180)),
                horizontalAccuracyMetres: accuracy, speedMetresPerSecond: speed(&random))
        }
    }

    static func total(_ fixes: [Fix]) -> Double {
        var tracker = Tracker(profile: .walking)
        _ = tracker.process(batch: fixes)
        return tracker.distance.totalMetres
    }

    /// The same positions with readings of zero count nothing.
    @Test func aPhoneOnADeskReadingZeroCountsNothing() {
        let desk = Self.desk(count: 1800, seed: 1) { _ in 0 }
        #expect(Self.total(desk) == 0)
    }

    /// An hour on a desk, readings uniform in 0.3–0.6 m/s, seeds 1–3: 1,617–1,624 m per hour (1,936–1,953 m at a
    /// constant 0.2 m/s, whose readings are not trusted: the position filter's speed is counted). A known issue:
    /// a rule that takes readings adding up to four net-displacement thresholds while the track stays within one
    /// as saying nothing brought these to 46–102 m, but any such test on the tracker's per-fix path cost its
    /// benchmarks 17–31 instructions per fix (3–4 %; docs/ARCHITECTURE.md, "Doppler noise at rest"), for a
    /// behaviour none of the recordings' receivers shows. Judged once a chord instead (2026-12-05) it cost the
    /// tracker 1 instruction per fix (the simulated walk 12) and brought these to 32–112 m, but slow pacers lost up to
    /// 89 % and desks under white position noise read more: reverted (docs/ARCHITECTURE.md, "Doppler noise at rest
    /// judged by chords").
    @Test func aPhoneOnADeskWhoseDopplerReadsNoiseCountsItsReadings() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let desk = Self.desk(count: 3600, seed: seed) { random in 0.3 + 0.3 * random.uniform() }
            let total = Self.total(desk)
            // What is counted: the readings (or the filter's speed), within a quarter of their path.
            #expect(abs(total - 0.45 * 3600) < 0.25 * 0.45 * 3600, "seed \(seed): \(total) m")
            withKnownIssue("a desk whose Doppler reads 0.3–0.6 m/s counts its readings") {
                #expect(total < 150, "seed \(seed): \(total) m in an hour")
            }
        }
    }

    /// `count` fixes `seconds` apart of a phone on a desk under white position noise (σ per axis), claiming 10–25 m,
    /// its readings |N(0, `readingSigma`)| m/s; or, `walking`, of a walker going east at 1.4 m/s reading 1.4 ± 0.2 m/s
    /// but for 40 % of the readings, which drop out to |N(0, `readingSigma`)| (a Samsung-style column).
    static func sparse(
        count: Int, seconds: Int64, sigma: Double, readingSigma: Double, walking: Bool = false, seed: UInt64
    ) -> [Fix] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let x = (walking ? 1.4 * Double(i) * Double(seconds) : 0) + sigma * random.gaussian()
            let y = sigma * random.gaussian()
            let dropout = abs(readingSigma * random.gaussian())
            let reading = walking && random.uniform() >= 0.4 ? 1.4 + 0.2 * random.gaussian() : dropout
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * seconds * 1000),
                latitude: 45 + y / 111_132, longitude: 7 + x / (111_320 * cos(45 * Double.pi / 180)),
                horizontalAccuracyMetres: 10 + 15 * random.uniform(), speedMetresPerSecond: reading)
        }
    }

    /// A stops tester's desk phone logging every 5 or 10 s (σ 4 m, readings |N(0, 0.1)| m/s, 4 h): a window of four
    /// readings now and then averaged walking's motion speed (0.15 m/s), its readings were distrusted (the position
    /// filter's noise path against them) and the filter's noise stood in for them: 1,014 m and 24 stops at 5 s, 937 m
    /// at 10 s; here 880–1,497 m. Now a sparse window's sub-deadband run stands in nothing while its net displacement
    /// is within the noise (`Tracker.sparseWindowFixes`): 24–182 m in the 4 h (the tester's own files 95 and 47 m). A
    /// known issue against the stationary bar (1 m per 10 minutes): the first two readings after one at the deadband
    /// (0.27 % of these) still stand in the filter's noise. Holding the window's release instead read at most 32 m (the bar on five of six)
    /// but cost the tracker 14 % of its speed (21.9 → 18.9 M fixes/s: any test at the release did, code layout).
    @Test func aDeskLoggingEveryFewSecondsWhoseFewReadingsAverageUnderTheDeadbandCountsNoNoise() {
        for seed in 1...3 as ClosedRange<UInt64> {
            for seconds in [5, 10] as [Int64] {
                let desk = Self.sparse(
                    count: Int(4 * 3600 / seconds), seconds: seconds, sigma: 4, readingSigma: 0.1, seed: seed)
                let total = Self.total(desk)
                #expect(total <= 250, "seed \(seed), a fix every \(seconds) s: \(total) m in 4 h")
                withKnownIssue("the first readings after one at the deadband stand in the filter's noise") {
                    #expect(total <= 24, "seed \(seed), a fix every \(seconds) s: \(total) m in 4 h")
                }
            }
        }
    }

    /// The same rule leaves a walker logging every 5 s whose readings drop out (40 % under the deadband): a window of
    /// four readings averages the deadband or more, or its net displacement (28 m at 1.4 m/s) sees the walk.
    @Test func aWalkerLoggingEveryFiveSecondsWhoseReadingsDroppedOutStillCounts() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let walk = Self.sparse(count: 240, seconds: 5, sigma: 4, readingSigma: 0.15, walking: true, seed: seed)
            let truth = 1.4 * 239 * 5
            let total = Self.total(walk)
            #expect(abs(total - truth) < 0.15 * truth, "seed \(seed): \(total) m of \(truth)")
        }
    }
}
