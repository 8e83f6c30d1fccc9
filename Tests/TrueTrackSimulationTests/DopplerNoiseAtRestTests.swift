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
}
