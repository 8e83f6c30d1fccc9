import Foundation
import Testing

@testable import TrueTrackCore

/// The speed check (``SpeedCheck``): speed readings far slower than the fixes travel, span after span of steady
/// progress, are left out.
@Suite struct SpeedCheckTests {
    /// A straight track at `speed` m/s heading north-east, one fix a second for `seconds`, positions scattered by
    /// up to ±`noise` m (a fixed pseudo-random sequence), accuracy 5 m, the speed column reading `factor(t)` × the
    /// speed with the true course; `excursion(t)` moves a fix east by that many metres (multipath).
    static func track(
        speed: Double, seconds: Int = 600, noise: Double = 3, accuracy: Double = 5,
        factor: (Int) -> Double = { _ in 1 }, excursion: (Int) -> Double = { _ in 0 }
    ) -> [Fix] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func jitter() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * noise
        }
        let step = speed / 2.squareRoot()
        return (0..<seconds).map { s in
            TrackerTests.fix(
                Double(s), north: Double(s) * step + jitter(), east: Double(s) * step + jitter() + excursion(s),
                accuracy: accuracy, speed: speed * factor(s), course: 45)
        }
    }

    /// The distance a tracker of `profile` counts over `fixes`, and whether it read the speeds slow then and at the end.
    static func run(_ fixes: [Fix], profile: TrackingProfile) -> (metres: Double, everSlow: Bool, slowAtEnd: Bool) {
        var tracker = Tracker(profile: profile)
        for fix in fixes { _ = tracker.process(fix) }
        _ = tracker.finishTrack()
        return (tracker.distance.totalMetres, tracker.hasReadSpeedSlow, tracker.readsSpeedSlow)
    }

    /// Hand-worked votes: an 80 m chord in 10 s between fixes of 5 m is 6 m/s once their noise (2 × (5 + 5) m) is
    /// taken off: slow against readings of 1.6 and 2.2 m/s (m/s read as km/h: 0.2 and 0.28 × 8), neither for 3 m/s,
    /// agreeing with 8 m/s (and with 4 m/s: at most 1.5 ×); readings under the deadband do not vote.
    @Test func votesOnHandWorkedSpans() {
        func vote(_ reading: Double, chord: Double = 80) -> Int8 {
            SpeedCheck.vote(
                chordMetres: chord, seconds: 10, startAccuracy: 5, endAccuracy: 5,
                meanReadingMetresPerSecond: reading, deadband: 0.3)
        }
        #expect(vote(1.6) == 1 && vote(2.2) == 1)
        #expect(vote(3) == 0)
        #expect(vote(8) == -1 && vote(4) == -1)
        #expect(vote(0.2) == 0 && vote(0) == 0)
        // Slower than 4 m/s is never shown slow, whatever the readings: a walker's noise.
        #expect(vote(0.5, chord: 55) == 0)  // (55 − 20) / 10 = 3.5 m/s
        #expect(vote(0.5, chord: 65) == 1)  // 4.5 m/s
        // Fast: above 2.5 × the chord's speed with the noise added, (80 + 20) / 10 = 10 m/s: km/h read as m/s
        // (3.6 × 8 = 28.8) is; 24 m/s (2.4 ×) agrees, as before (at most 1.5 × the chord less the noise).
        #expect(vote(28.8) == SpeedCheck.fastVote)
        #expect(vote(24) == -1)
        // Under 4 m/s never fast: a walker's readings over a span of noise.
        #expect(vote(3.9, chord: 2) != SpeedCheck.fastVote)
    }

    /// A ride whose speed column is in km/h read as m/s (3.6 ×), with a course: the readings pinned the filter ahead
    /// of every fix, each was refused and every third re-anchored it, and nothing was counted (a tester's drives at
    /// 15–30 m/s: 0 m). The re-anchors' spans show the readings fast; the chain's chords are counted.
    @Test(arguments: [15.0, 20, 28])
    func aRideReadInKilometresPerHourAsMetresPerSecondCountsItsDistance(speed: Double) {
        let fixes = Self.track(speed: speed, seconds: 600, noise: 1, factor: { _ in 3.6 })
        var tracker = Tracker(profile: .driving)
        for fix in fixes { _ = tracker.process(fix) }
        _ = tracker.finishTrack()
        let truth = 599 * speed
        #expect(
            abs(tracker.distance.totalMetres - truth) < 0.03 * truth, "\(tracker.distance.totalMetres) m of \(truth)")
        #expect(tracker.hasReadSpeedFast && tracker.readsSpeedFast && !tracker.hasReadSpeedSlow)
        // The same ride with its readings right: never shown fast.
        var honest = Tracker(profile: .driving)
        for fix in Self.track(speed: speed, seconds: 600, noise: 1) { _ = honest.process(fix) }
        #expect(!honest.hasReadSpeedFast && !honest.hasReadSpeedSlow)
    }

    /// A walk at 1.4 m/s whose speed column is in km/h read as m/s (5.04): the net-displacement window held 19 s of
    /// steps counted at 5.04 m/s and released them, 95.8 m, at the fix that distrusted the readings (a CLI tester's:
    /// 230.4 m of 166.6). Released then, they count as the window's filtered path.
    @Test("a walk whose speed column reads 3.6 × counts its positions' way, not what the window held on the readings")
    func heldReadingsReleasedWhenDistrustedCountThePath() {
        let fixes = (0..<120).map { s in TrackerTests.fix(Double(s), east: 1.4 * Double(s), speed: 5.04) }
        var tracker = Tracker(profile: .walking)
        for fix in fixes { _ = tracker.process(fix) }
        _ = tracker.finishTrack()
        let truth = 119 * 1.4
        #expect(abs(tracker.distance.totalMetres - truth) < 0.05 * truth, "\(tracker.distance.totalMetres) m")
        #expect(tracker.distance.dopplerMetres == 0)
        // Hand-worked: 95.8 m held of the window's 95.8 m of readings over a 26.6 m path counts 26.6 m, filtered;
        // 30 m held of 60 m of readings over a 24 m path counts 12 m (the window's first half was released before);
        // held readings slower than the path (a dropout's zeros) are released as they are.
        let fast = Tracker.releaseOfDistrustedReadings(
            doppler: 95.8, filtered: 0, windowDoppler: 95.8, windowPosition: 26.6)
        #expect(fast.doppler == 0 && abs(fast.filtered - 26.6) < 1e-12)
        let part = Tracker.releaseOfDistrustedReadings(doppler: 30, filtered: 10, windowDoppler: 60, windowPosition: 24)
        #expect(part.doppler == 0 && part.filtered == 22)
        let slow = Tracker.releaseOfDistrustedReadings(doppler: 10, filtered: 4, windowDoppler: 10, windowPosition: 20)
        #expect(slow.doppler == 10 && slow.filtered == 4)
    }

    /// Honest readings above their chords in steady progress: a drive at 20 m/s whose positions creep at a quarter
    /// of it for 60 s (a tunnel's or a canyon's lag) and catch up over the next minute. No fix is refused, so no span shows the
    /// readings fast (counting such spans, a reviewer's lagging drives lost their right readings: −0.9 → −4.5 %).
    @Test func honestReadingsAbovePositionsThatLagAreKept() {
        var fixes: [Fix] = []
        var north = 0.0
        for s in 0..<360 {
            // (Behind by 900 m after the lag, caught up at 35 m/s over the next minute.)
            north = (60..<120).contains(s) ? north + 5 : (120..<180).contains(s) ? north + 35 : Double(s) * 20
            fixes.append(TrackerTests.fix(Double(s), north: north, east: 0, accuracy: 5, speed: 20, course: 0))
        }
        var tracker = Tracker(profile: .driving)
        for fix in fixes { _ = tracker.process(fix) }
        _ = tracker.finishTrack()
        #expect(!tracker.hasReadSpeedFast && !tracker.hasReadSpeedSlow)
        #expect(abs(tracker.distance.totalMetres - 359 * 20) < 0.05 * 359 * 20, "\(tracker.distance.totalMetres) m")
    }

    /// Steady progress: the next span's chord within 60° of the last one's.
    @Test func aSpanContinuesOnlyWithinSixtyDegrees() {
        let east = SIMD2<Double>(100, 0)
        #expect(SpeedCheck.continues(SIMD2(50, 80), east))  // 58°
        #expect(!SpeedCheck.continues(SIMD2(40, 80), east))  // 63°
        #expect(!SpeedCheck.continues(SIMD2(0, 100), east))
        #expect(!SpeedCheck.continues(SIMD2(-100, 5), east))  // an excursion's way back
        #expect(!SpeedCheck.continues(.zero, east))
    }

    /// A ride at 8 m/s whose speed column reads 0.2 or 0.28 × (m/s read as km/h) with a course: counted from its
    /// positions. Before the check the readings pinned the filter's velocity, the fixes ahead of it failed the
    /// outlier gate and every third re-anchored it: 0 m of 4.8 km at 0.2 ×, −70 % at 0.28 ×. The shortfall of the
    /// four slow spans that showed it is counted too.
    @Test(arguments: [0.2, 1 / 3.6])
    func aRideWhoseSpeedsReadSlowIsCountedFromItsPositions(factor: Double) {
        let fixes = Self.track(speed: 8, factor: { _ in factor })
        let truth = 8.0 * 599
        let (metres, everSlow, slowAtEnd) = Self.run(fixes, profile: .cycling)
        #expect(everSlow && slowAtEnd)
        #expect(abs(metres - truth) / truth < 0.03, "\(metres) m of \(truth)")
        // Honest readings stay trusted and count the same ride.
        let honest = Self.run(Self.track(speed: 8), profile: .cycling)
        #expect(!honest.everSlow && abs(honest.metres - truth) / truth < 0.01, "\(honest.metres) m of \(truth)")
    }

    /// Two fixes stamped two hours ahead early in the ride (a clock fault): the tracker restarts when the right
    /// times return, and the span begun in the wrong clock (and the old plane) is forgotten with it. It was not: the
    /// check stayed off until the clock reached the wrong stamps, and the 0.28 × ride read 1,609 m of 4,800 (a
    /// reviewer).
    @Test func aClockJumpRestartStartsTheSpansAgain() {
        var fixes = Self.track(speed: 8, factor: { _ in 1 / 3.6 })
        for i in [15, 16] {
            let step = 8 / 2.squareRoot()
            fixes[i] = TrackerTests.fix(
                Double(i) + 7_200, north: Double(i) * step, east: Double(i) * step, speed: 8 / 3.6, course: 45)
        }
        let truth = 8.0 * 599
        let (metres, everSlow, _) = Self.run(fixes, profile: .cycling)
        #expect(everSlow)
        #expect(abs(metres - truth) / truth < 0.05, "\(metres) m of \(truth)")
    }

    /// The same ride at 0.28 × under fixes stating 8 or 12 m (scattered by ±5 / ±7 m): spans begun at such fixes last
    /// two seconds per metre of accuracy, so the chord outgrows the allowance. Over 10 s spans it was not reached
    /// from 8 m on (a reviewer's sweep: 1,200 m of 4,800 at 8 m).
    @Test(arguments: [(8.0, 5.0), (12, 7)])
    func aRideUnderCoarseFixesIsShownSlowToo(accuracy: Double, noise: Double) {
        let fixes = Self.track(speed: 8, noise: noise, accuracy: accuracy, factor: { _ in 1 / 3.6 })
        let truth = 8.0 * 599
        let (metres, everSlow, _) = Self.run(fixes, profile: .cycling)
        #expect(everSlow)
        #expect(abs(metres - truth) / truth < 0.03, "\(metres) m of \(truth)")
    }

    /// A logger that switched its speed column from km/h-read m/s to the right unit halfway: left out, then believed
    /// again once spans at speed agree.
    @Test func aColumnRightAgainIsBelievedAgain() {
        let fixes = Self.track(speed: 12, factor: { $0 < 300 ? 1 / 3.6 : 1 })
        let truth = 12.0 * 599
        let (metres, everSlow, slowAtEnd) = Self.run(fixes, profile: .driving)
        #expect(everSlow && !slowAtEnd)
        #expect(abs(metres - truth) / truth < 0.03, "\(metres) m of \(truth)")
    }

    /// Spans judged one by one (``Tracker/judgeSpeedSpan(east:north:accuracy:now:reanchorReading:)``, readings of 1.5 m/s, fixes of
    /// 5 m): a vehicle crawling 15 m north per span through a multipath excursion 100 m east every other span makes
    /// every span slow, out and back in turn, heading opposite ways: none counts, the readings stay. (Counting every
    /// slow span, a tester's crawls lost their right readings for 20–36 s per jump and counted the jumps: +0.7 →
    /// +44.5 %.) Then 100 m north per span, steady progress: the fourth slow span in a row (the third to continue
    /// one) shows the readings slow, and what the chain counted short of its chords is held for the distance.
    @Test func onlySteadyProgressShowsTheReadingsSlow() {
        var tracker = Tracker(profile: .driving)
        var seconds = 0
        func span(east: Double, north: Double) {
            seconds += 10
            tracker.dopplerPath += 1.5 * 10
            tracker.dopplerSeconds += 10
            tracker.judgeSpeedSpan(
                east: east, north: north, accuracy: 5, now: TrackerTests.t0 + Int64(seconds) * 1000)
        }
        span(east: 0, north: 0)  // the first span starts
        for k in 1...8 { span(east: k % 2 == 1 ? 100 : 0, north: 15 * Double(k)) }
        #expect(!tracker.readsSpeedSlow && !tracker.hasReadSpeedSlow)
        let held = tracker.candidates.y
        for k in 1...3 { span(east: 0, north: 120 + 100 * Double(k)) }
        #expect(!tracker.readsSpeedSlow)
        span(east: 0, north: 520)
        #expect(tracker.readsSpeedSlow && tracker.hasReadSpeedSlow)
        // The chain's chords (400 m) less what it counted (nothing here): held for the distance.
        #expect(tracker.candidates.y - held == 400)
    }
}
