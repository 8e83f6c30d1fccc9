import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// The chords of averaged blocks (``ChordOdometer``): a slow walk under wide white noise without speeds, which the
/// net-displacement gate's window cannot tell from noise, is counted by the chords between blocks that stand out of
/// their noise; a still phone, a multipath excursion, a vehicle's chord and a walk the gates already measure add
/// nothing.
@Suite struct ChordOdometerTests {
    /// Fixes every `every` seconds for `seconds`, without speed, under white noise of `sigma` metres per axis,
    /// stating the honest 68 % radius (1.5096 σ); the truth walks legs of 240 s at `speed` m/s, turning 90° left
    /// after each (a square's sides: its chords lose nothing but its corners), seeded.
    static func walk(seconds: Int, every: Int, sigma: Double, speed: Double) -> [Fix] {
        let leg = 240
        var random = SplitMix64(seed: 11)
        var fixes: [Fix] = []
        var east = 0.0, north = 0.0, t = 0
        let headings: [(Double, Double)] = [(0, 1), (-1, 0), (0, -1), (1, 0)]
        for second in 0...seconds {
            if second == t {
                fixes.append(
                    TrackerTests.fix(
                        Double(second), north: north + sigma * random.gaussian(),
                        east: east + sigma * random.gaussian(),
                        accuracy: 1.509592 * sigma))
                t += every
            }
            let (de, dn) = headings[(second / leg) % 4]
            east += de * speed
            north += dn * speed
        }
        return fixes
    }

    static func counted(_ fixes: [Fix]) -> Double { SparseStepTests.counted(fixes, profile: .walking) }

    /// A 0.9 m/s walk (30 minutes, 1,620 m) under σ 8 m every 3 s, a 1.4 m/s walk under σ 12 m every 10 s (2,520 m)
    /// and a 0.9 m/s walk under σ 15 m every 10 s: the window gate's threshold (36 m over 20 s at σ 8 m) stays above
    /// the walk's net displacement. Without the chords the tracker counted 776, 848 and 193 m of them (48, 34 and
    /// 12 %); with them 1,412, 2,246 and 1,483 m (the square's corners, the blocks' lag and a single fix's spread
    /// for each block's position cost 8–13 %).
    @Test(arguments: [(8.0, 3, 0.9), (12.0, 10, 1.4), (15.0, 10, 0.9)])
    func countsASlowWalkUnderWideNoise(_ sigma: Double, _ every: Int, _ speed: Double) {
        let truth = 1800 * speed
        let metres = Self.counted(Self.walk(seconds: 1800, every: every, sigma: sigma, speed: speed))
        #expect(abs(metres - truth) < 0.15 * truth, "\(metres) m of \(truth)")
    }

    /// A resume's exact replay restores the total the tracker already has: the odometer runs on (restarting there lost
    /// a resumed walk's chords, 1,542 → 832 m in 40-fix batches, a reviewer's); a total that grew restarts it, and
    /// the walk after still counts.
    @Test func restoringTheSameTotalKeepsTheChords() {
        let fixes = Self.walk(seconds: 1800, every: 3, sigma: 8, speed: 0.9)
        var whole = Tracker(profile: .walking)
        _ = whole.process(batch: fixes)
        var resumed = Tracker(profile: .walking)
        for start in stride(from: 0, to: fixes.count, by: 40) {
            resumed.restore(persistedTotalMetres: resumed.distance.totalMetres)
            _ = resumed.process(batch: Array(fixes[start..<min(start + 40, fixes.count)]))
        }
        #expect(resumed.distance.totalMetres == whole.distance.totalMetres)
        var grown = Tracker(profile: .walking)
        _ = grown.process(batch: Array(fixes[..<300]))
        grown.restore(persistedTotalMetres: grown.distance.totalMetres + 100)
        let before = grown.distance.totalMetres
        _ = grown.process(batch: Array(fixes[300...]))
        #expect(grown.distance.totalMetres - before > 0.5 * 0.9 * 3 * Double(fixes.count - 300))
    }

    /// A phone at rest under the same noise: its blocks' means stay within their noise of the anchor, and the
    /// chords add at most a few metres to what the gates count.
    @Test(arguments: [(8.0, 3), (12.0, 10), (15.0, 10)])
    func addsNothingForAStillPhone(_ sigma: Double, _ every: Int) {
        let fixes = Self.walk(seconds: 1800, every: every, sigma: sigma, speed: 0)
        var tracker = Tracker(profile: .walking)
        _ = tracker.process(batch: fixes)
        _ = tracker.finishTrack()
        #expect(tracker.chordOdometer.chordsMetres == 0, "\(tracker.chordOdometer.chordsMetres) m of chords")
    }

    /// A bus on the walking profile without speed readings (σ 3 m every second, stating 4.5 m): 30 s at 9 m/s, 90 s
    /// crawling at 2 m/s, for 30 minutes. The tracker's vehicle latch holds it; the chords of the crawl, which a
    /// walker could make, are the bus's too (the odometer's own latch on block legs, kept across the re-anchors that
    /// end each fast spell, or the tracker's window beyond its noise at the track's start): a reviewer's buses
    /// counted 2.6–4.8 km an hour before it (the chords counted 85 m here before the window's evidence).
    @Test func aBusOnTheWalkingProfileCountsAlmostNothing() {
        var random = SplitMix64(seed: 5)
        var fixes: [Fix] = []
        var north = 0.0, speed = 0.0
        for t in 0...1800 {
            let target = t % 120 < 30 ? 9.0 : 2.0
            speed += max(-1.5, min(1.0, target - speed))
            north += speed
            fixes.append(
                TrackerTests.fix(
                    Double(t), north: north + 3 * random.gaussian(), east: 3 * random.gaussian(), accuracy: 4.5))
        }
        var tracker = Tracker(profile: .walking)
        let chords = tracker.process(batch: fixes).reduce(0) { $0 + $1.chordMetres }
        #expect(chords == 0, "\(chords) m of chords")
        let metres = Self.counted(fixes)
        #expect(metres < 10, "\(metres) m of walking on a bus")
    }

    /// Feeds an odometer alone a fix every 10 s from 0 through `seconds` at `north(t)` metres (variance 4 m²,
    /// blocks of 20 s, at most 3 m/s), the tracker's total `total(t)`; returns what it owed in all, and the odometer.
    static func run(
        through seconds: Int, excluded: Bool = false, vehicleExitSeconds: Double = 0,
        total: (Int) -> Double = { _ in 0 }, north: (Int) -> Double
    ) -> (metres: Double, odometer: ChordOdometer) {
        var odometer = ChordOdometer()
        var owed = 0.0
        for t in stride(from: 0, through: seconds, by: 10) {
            owed += odometer.add(
                east: 0, north: north(t), variance: 4, now: Int64(t) * 1000, totalMetres: total(t), blockSeconds: 20,
                excluded: excluded, maximumSpeed: 3, vehicleExitSeconds: vehicleExitSeconds)
        }
        return (owed, odometer)
    }

    /// By hand: blocks of three fixes 10 s apart with no noise on a line at 1 m/s (20 m per block's span). The first
    /// block anchors at t = 10 s, the second (t = 40 s, 30 m away) stands out and waits, the third confirms it: 30 m
    /// count, owed at the next fix (90 s).
    @Test func countsAConfirmedChordByHand() {
        let (metres, odometer) = Self.run(through: 90) { Double($0) }
        #expect(abs(metres - 30) < 1e-9, "\(metres)")
        #expect(odometer.anchor?.milliseconds == 40_000)
        #expect(Self.run(through: 80) { Double($0) }.metres == 0, "confirmed at 80 s, not yet owed")
    }

    /// A block that stands out for one block only (the fixes jump 60 m and come back: multipath the outlier gate
    /// let through) is forgotten; one fix 60 m off its block's line drops the block (its residual χ² is far
    /// beyond the stated accuracy).
    @Test func forgetsAnExcursionAndDropsABlockWithAFixOffItsLine() {
        // Fixes 30–50 s (the second block) 60 m north: the block stands out, the next is back by the anchor.
        let excursion = Self.run(through: 200) { (30...50).contains($0) ? 60 : 0 }
        #expect(excursion.metres == 0)
        #expect(excursion.odometer.pending == nil)
        // One fix (40 s) 60 m north inside the second block: the block is dropped, so nothing stands out.
        let offLine = Self.run(through: 200) { $0 == 40 ? 60 : 0 }
        #expect(offLine.metres == 0)
        #expect(offLine.odometer.anchor?.milliseconds == 10_000)
    }

    /// A chord faster than the traveller sustains (a vehicle's) and a chord under a reading that excludes it move the
    /// anchor without counting; what the tracker counted since the odometer started is subtracted (the larger of
    /// the two stands).
    @Test func neitherAVehiclesChordNorAnExcludedOneCountsAndTheTrackersOwnCountStands() {
        #expect(Self.run(through: 90) { 5 * Double($0) }.metres == 0)
        #expect(Self.run(through: 90, excluded: true) { Double($0) }.metres == 0)
        // The tracker's total moved from 0 to 40 m after the odometer's first fix: more than the chords' 30 m; at
        // 20 m, the chords' 10 m more are owed.
        #expect(Self.run(through: 90, total: { $0 == 0 ? 0 : 40 }) { Double($0) }.metres == 0)
        #expect(abs(Self.run(through: 90, total: { $0 == 0 ? 0 : 20 }) { Double($0) }.metres - 10) < 1e-9)
    }

    /// A car leaving a 10-minute halt: the chord from the halt's anchor to the first block away is 150 m over
    /// 10 minutes (0.25 m/s), but its last leg, from the newest block still at the halt, is 5 m/s: not counted (it
    /// was, while the chord's speed was taken over the time since the anchor: a reviewer's hops 47 → 452 m).
    @Test func aCarLeavingAHaltCountsNoChord() {
        let drive = Self.run(through: 720) { t in t <= 600 ? 0 : 5 * Double(t - 600) }
        #expect(drive.metres == 0, "\(drive.metres)")
        // The same departure at 1 m/s, a walk: counted.
        let walk = Self.run(through: 720) { t in t <= 600 ? 0 : Double(t - 600) }
        #expect(walk.metres > 50, "\(walk.metres)")
    }

    /// A bus on a walker's track: 30 s at 9 m/s, then a crawl at 2 m/s (a walker's speed). The block leg over the fast
    /// spell latches the odometer's own vehicle latch for the exit time (120 s on foot): the crawl counts nothing; with
    /// no latch (exit 0) the crawl's chords count.
    @Test func aCrawlAfterAFastLegCountsNothingForTheExitTime() {
        func bus(_ t: Int) -> Double { t <= 30 ? 9 * Double(t) : 270 + 2 * Double(t - 30) }
        #expect(Self.run(through: 150, vehicleExitSeconds: 120, north: bus).metres == 0)
        #expect(Self.run(through: 150, vehicleExitSeconds: 0, north: bus).metres > 100)
    }

    /// The block's line by hand: three fixes at t = 0, 10, 20 s at 0, 10 and 50 m north, weight 1 each: the
    /// line's slope is 2.5 m/s, its value at the mean time (10 s) 20 m, its residuals 5, −10, 5 (χ² 150 with weight
    /// 1, 15 with weight 0.1), the variance of the position a single fix's, 1 / w (no credit for averaging).
    @Test func fitsABlocksLineByHand() throws {
        func fit(weight: Double) -> (position: ChordOdometer.Position?, chiSquared: Double) {
            var block = ChordOdometer.Block()
            block.start(east: 100, north: 0, now: 0)
            for (t, n) in [(0, 0.0), (10, 10), (20, 50)] {
                block.add(east: 100, north: n, weight: weight, now: Int64(t) * 1000)
            }
            return block.fit()
        }
        let tight = fit(weight: 1)
        #expect(abs(tight.chiSquared - 150) < 1e-9)
        #expect(tight.position == nil, "χ² 150 against 17 at two degrees of freedom")
        let loose = try #require(fit(weight: 0.1).position, "χ² 15 at σ 3.2 m")
        #expect(abs(loose.north - 20) < 1e-9)
        #expect(abs(loose.east - 100) < 1e-9)
        #expect(abs(loose.variance - 1 / 0.1) < 1e-9, "a single fix's variance, 1 / w: no credit for averaging")
        #expect(loose.milliseconds == 10_000)
    }
}

/// A chord's metres are owed a block or two after the walk that made them: they count in the total and the trips,
/// but they are no evidence for the stop detector that the device moves at the fix (paid 30–60 s into a halt,
/// they split a reviewer's halts of noisy walks in two, 4 of 16).
@Suite struct ChordMetresEvidenceTests {
    @Test func chordMetresAreNoMotionAtTheFix() throws {
        let fix = TrackerTests.fix(10)
        var decision = FixDecision(timestamp: fix.timestamp)
        decision.distanceIncrementMetres = 30
        decision.chordMetres = 30
        decision.hold = .netDisplacement
        let chordOnly = MotionEvidence(fix: fix, decision: decision)
        #expect(chordOnly.countedMetres == 0)
        #expect(!chordOnly.isMovingForTracker)
        decision.distanceIncrementMetres = 34
        let both = MotionEvidence(fix: fix, decision: decision)
        #expect(both.countedMetres == 4)
        #expect(both.isMovingForTracker)
    }
}
