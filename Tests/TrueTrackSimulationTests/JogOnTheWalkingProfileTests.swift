import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation
import TrueTrackTestSupport

/// A jog just under the walking profile's sustained speed (3 m/s), read with the walking profile (the CLI's default
/// for a CSV): honest speed readings, so the vehicle latch must not take the filtered track's swing after a turn
/// for a vehicle (`Tracker.isExplainedByReadings`).
@Suite struct JogOnTheWalkingProfileTests {
    /// 2.7 and 2.8 m/s under 3 and 8 m of white noise, three seeds each, count within 1 % of the 2,430 / 2,520 m
    /// jogged. Before (2026-12-06), the window's net speed read just over 3 m/s after a turn and each latch held
    /// 120 s of the jog: these seeds −24 / −55 % at 2.7 m/s under 8 m, −4.5 … −91 % at 2.8 m/s; and with the veto
    /// but a latch once on renewed by any fast window, one seed under 8 m kept latching (2,032 of 2,430 m, 1,493 of
    /// 2,520): a latch the filtered track alone started is vetoed like a fresh one (``Tracker``'s
    /// `isLatchBackedByReadings`).
    @Test(arguments: [(2.7, 3.0), (2.8, 3.0), (2.7, 8.0), (2.8, 8.0)])
    func countsAJogJustUnderTheSustainedSpeed(speed: Double, sigma: Double) {
        for seed in 1...3 as ClosedRange<UInt64> {
            var tracker = Tracker(profile: .walking)
            _ = tracker.process(batch: JogTracks.jog(speed: speed, sigma: sigma, seed: seed))
            tracker.finishTrack()
            let truth = 900 * speed, total = tracker.distance.totalMetres
            #expect(abs(total - truth) < 0.01 * truth, "seed \(seed): \(total) m of \(truth)")
        }
    }

    /// A jog whose speed is read on every other fix: the fixes without a reading of their own are judged by the
    /// window's readings when the session trusts the column (`Tracker.sessionTrustsReadings`). Before (2026-12-06)
    /// the veto asked only fixes with a trusted reading, and the others latched: these seeds 3–54 % of the jog at
    /// 2.8 m/s, now 97–99 %.
    @Test(arguments: [2.7, 2.8])
    func countsAJogReadOnEveryOtherFix(speed: Double) {
        for seed in 1...4 as ClosedRange<UInt64> {
            var tracker = Tracker(profile: .walking)
            _ = tracker.process(batch: JogTracks.jog(speed: speed, sigma: 3, seed: seed, readingEvery: 2))
            tracker.finishTrack()
            let truth = 900 * speed, total = tracker.distance.totalMetres
            #expect(abs(total - truth) < 0.035 * truth, "seed \(seed): \(total) m of \(truth)")
        }
    }

    /// A jog at 2.9 m/s logged every 2–5 s under 6 m of noise: over a window of a few fixes the readings' mean strays
    /// over 3 m/s by their noise alone, and a latch that backed on it was renewed by every fast window after (these
    /// seeds 0–43 % of the jog). A latch is backed only by a mean more than twice its noise over the sustained speed
    /// (`Tracker.startVehicleLatch`): 82–95 % now (the rest still latched by windows the readings do not explain).
    @Test func countsMostOfAJogLoggedEveryFewSeconds() {
        for seed in 1...4 as ClosedRange<UInt64> {
            let fixes = JogTracks.jogLoggedEveryFewSeconds(speed: 2.9, sigma: 6, seed: seed)
            var tracker = Tracker(profile: .walking)
            _ = tracker.process(batch: fixes)
            tracker.finishTrack()
            #expect(
                tracker.distance.totalMetres > 0.8 * 2_610, "seed \(seed): \(tracker.distance.totalMetres) m of 2,610")
        }
    }

    /// The latch still holds a ride whose readings say it: 4 m/s read as 4 m/s is faster than a walker sustains,
    /// and nothing of it counts as walking.
    @Test func stillLatchesARideItsReadingsCallFast() {
        var tracker = Tracker(profile: .walking)
        _ = tracker.process(batch: JogTracks.jog(speed: 4, sigma: 3, seed: 1))
        tracker.finishTrack()
        #expect(tracker.distance.totalMetres < 0.05 * 3_600, "\(tracker.distance.totalMetres) m")
    }

    /// A bus on the walking profile: 40 s at 7 m/s, then 150 s crawling at 2.9 m/s, then 20 s stopped, eight times,
    /// its readings honest (σ 0.15 m/s), under 3 m of white noise. The crawl reads like a jog, but the latch the fast
    /// spell set, backed by its readings of 7 m/s, stays on through it: vetoed there too, the crawls were released as
    /// walking (a reviewer's: about 3,045 m of 3,720 per file, 0 before and now).
    @Test func aBusCrawlBetweenFastSpellsStaysTheBuss() {
        let fixes = JogTracks.busWithCrawls()
        var tracker = Tracker(profile: .walking)
        _ = tracker.process(batch: fixes)
        tracker.finishTrack()
        #expect(tracker.distance.totalMetres < 300, "\(tracker.distance.totalMetres) m of the bus's 5,720 m as walking")
    }
}
