import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

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

    /// An hour on a desk, readings uniform in 0.3–0.6 m/s, seeds 1–3: 1,617–1,624 m per hour until 2026-12-05 (the
    /// window's Doppler mean said moving and the readings were counted; 1,936–1,953 m at a constant 0.2 m/s, whose
    /// readings are not trusted). Now chords whose readings claim the net-displacement threshold at under 0.6 m/s
    /// while the track moved less than half of it, three in a row, leave the motion verdict to the net displacement
    /// (`Tracker.judgeRestNoise`): 112 / 32 / 32 m per hour, the first minute's and a drift's.
    @Test func aPhoneOnADeskWhoseDopplerReadsNoiseCountsLittle() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let desk = Self.desk(count: 3600, seed: seed) { random in 0.3 + 0.3 * random.uniform() }
            var tracker = Tracker(profile: .walking)
            _ = tracker.process(batch: desk)
            #expect(tracker.distance.totalMetres < 150, "seed \(seed): \(tracker.distance.totalMetres) m in an hour")
            #expect(tracker.readingsSayNothingOfMotion == .infinity)
        }
    }

    /// The same desk for ten minutes, then a walk east at 1.2 m/s for ten minutes with honest readings: the first
    /// chord that moves ends the rule, and the walk counts.
    @Test func aWalkAfterTheDeskCounts() {
        var fixes = Self.desk(count: 600, seed: 4) { random in 0.3 + 0.3 * random.uniform() }
        var random = SplitMix64(seed: 5)
        for i in 600..<1200 {
            let east = 1.2 * Double(i - 600) + 2 * random.gaussian(), north = 2 * random.gaussian()
            fixes.append(
                try! Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                    latitude: 45 + north / 111_132, longitude: 7 + east / (111_320 * cos(45 * Double.pi / 180)),
                    horizontalAccuracyMetres: 5, speedMetresPerSecond: 1.2 + 0.1 * random.gaussian(),
                    courseDegrees: 90))
        }
        var tracker = Tracker(profile: .walking)
        var atDesk = 0.0
        for (i, fix) in fixes.enumerated() {
            _ = tracker.process(fix)
            if i == 599 {
                atDesk = tracker.distance.totalMetres
                #expect(tracker.readingsSayNothingOfMotion == .infinity)
            }
        }
        #expect(tracker.readingsSayNothingOfMotion == 0)
        let walked = tracker.distance.totalMetres - atDesk
        #expect(abs(walked / 719 - 1) < 0.05, "\(walked) m of 719 walked, \(atDesk) m at the desk")
    }

    /// The desk, then a walker pacing 15 m back and forth at 1.2 m/s with honest readings: its window never moves
    /// the threshold, so no chord completes to end the rule, but its readings of motion do (a reviewer's: ignored for
    /// good before). And a change of profile ends the rule.
    @Test func pacingAfterTheDeskCountsAndAProfileChangeEndsTheRule() {
        var fixes = Self.desk(count: 600, seed: 7) { random in 0.3 + 0.3 * random.uniform() }
        var random = SplitMix64(seed: 8)
        for i in 600..<1200 {
            let phase = Double(i - 600).truncatingRemainder(dividingBy: 25)  // 15 m out and back at 1.2 m/s
            let along = phase < 12.5 ? 1.2 * phase : 1.2 * (25 - phase)
            let east = along + 2 * random.gaussian(), north = 2 * random.gaussian()
            fixes.append(
                try! Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                    latitude: 45 + north / 111_132, longitude: 7 + east / (111_320 * cos(45 * Double.pi / 180)),
                    horizontalAccuracyMetres: 5, speedMetresPerSecond: 1.2 + 0.1 * random.gaussian(),
                    courseDegrees: phase < 12.5 ? 90 : 270))
        }
        var tracker = Tracker(profile: .walking)
        var atDesk = 0.0
        for (i, fix) in fixes.enumerated() {
            _ = tracker.process(fix)
            if i == 599 {
                atDesk = tracker.distance.totalMetres
                #expect(tracker.readingsSayNothingOfMotion == .infinity)
                var other = tracker
                _ = other.changeProfile(to: .running)
                #expect(other.readingsSayNothingOfMotion == 0)
                #expect(other.dopplerDecisionSeconds == TrackingProfile.running.windowSeconds / 2)
            }
        }
        #expect(tracker.readingsSayNothingOfMotion == 0)
        let paced = tracker.distance.totalMetres - atDesk
        #expect(abs(paced / 720 - 1) < 0.15, "\(paced) m of 720 paced")
    }

    /// A slow walker (0.5 m/s, straight, honest readings) is never taken for a desk: its chords move.
    @Test func aSlowWalkIsNotRestNoise() {
        var random = SplitMix64(seed: 6)
        let fixes = (0..<1200).map { i in
            let east = 0.5 * Double(i) + 2 * random.gaussian(), north = 2 * random.gaussian()
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                latitude: 45 + north / 111_132, longitude: 7 + east / (111_320 * cos(45 * Double.pi / 180)),
                horizontalAccuracyMetres: 5, speedMetresPerSecond: max(0, 0.5 + 0.1 * random.gaussian()),
                courseDegrees: 90)
        }
        var tracker = Tracker(profile: .walking)
        for fix in fixes {
            _ = tracker.process(fix)
            #expect(tracker.restNoiseChords == 0)
        }
        #expect(abs(tracker.distance.totalMetres / 599.5 - 1) < 0.05, "\(tracker.distance.totalMetres) m")
    }
}
