import Testing
import TrueTrackCore
import TrueTrackTestSupport

@testable import TrueTrackSmoothing

/// A jog just under the walking profile's sustained speed (3 m/s), smoothed with the walking profile: the vehicle
/// gate must not take a window the smoothed track strays over for a ride where the trusted speed readings explain it
/// (``ReadingsVeto``), and must still hold a ride its readings back.
@Suite struct JogSmoothedOnTheWalkingProfileTests {
    /// 2.8 and 2.9 m/s under 3 m of white noise, three seeds each, smoothed within 1 % of the 2,520 / 2,610 m jogged.
    /// Before (2026-12-06) a 20 s window the smoothed track strayed 2 m over latched 120 s of the jog: these seeds
    /// read 2,525–2,527 m at 2.8 m/s but 649–1,413 m at 2.9 m/s (a tester's, `/tmp/s66/testerA` f2).
    @Test(arguments: [2.8, 2.9])
    func countsAJogJustUnderTheSustainedSpeed(speed: Double) {
        let smoother = WholeTrackSmoother(profile: .walking)
        for seed in 1...3 as ClosedRange<UInt64> {
            let track = smoother.smooth(JogTracks.jog(speed: speed, sigma: 3, seed: seed))
            let truth = 900 * speed
            #expect(
                abs(track.distanceMetres - truth) < 0.01 * truth, "seed \(seed): \(track.distanceMetres) m of \(truth)")
            #expect(track.vehicleLengthMetres < 0.01 * truth, "seed \(seed): \(track.vehicleLengthMetres) m as a ride")
        }
    }

    /// Readings that say a ride is fast keep it a ride: 4 m/s read as 4 m/s counts nothing as walking.
    @Test func stillLeavesOutARideItsReadingsCallFast() {
        let track = WholeTrackSmoother(profile: .walking).smooth(JogTracks.jog(speed: 4, sigma: 3, seed: 1))
        #expect(track.distanceMetres < 0.05 * 3_600, "\(track.distanceMetres) m")
    }

    /// A bus whose crawls at 2.95 m/s last 150 s between 40 s spells at 7 m/s: the crawl's windows that the smoothed
    /// track strays over 3 m/s in are explained by its readings, but they renew the latch the fast spells' readings
    /// backed, as they did before the veto, so the crawls stay the bus's (renewed by none, the latch lets each crawl go
    /// once it outlasts its 120 s exit: 2,376–2,904 m on these seeds, 0 before and now).
    @Test func aBusCrawlBetweenFastSpellsStaysTheBuss() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let bus = JogTracks.busWithCrawls(crawlSpeed: 2.95, seed: seed)
            let track = WholeTrackSmoother(profile: .walking).smooth(bus)
            #expect(track.distanceMetres < 300, "seed \(seed): \(track.distanceMetres) m of the bus's as walking")
        }
    }
}
