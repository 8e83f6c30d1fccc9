import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// A run of fixes without a reading (iOS −1) from a receiver whose readings the Doppler check trusts: their
/// stand-ins are held (`Tracker.holdMissingReading(_:now:)`) and the run counts when it ends
/// (`Tracker.settleMissingReadings(continuing:)`): at a reading, in pieces of a window span, at an anchor and at
/// `finishTrack()`.
@Suite struct MissingReadingRunTests {
    /// A straight walk east at 1.2 m/s, one fix a second from `start` on (skipping the seconds in `gap`), under 2 m
    /// of white noise (stated 5 m), reading the speed (σ 0.1 m/s) except where `missing` says −1.
    static func walk(
        seconds: Int, gap: Range<Int> = 0..<0, seed: UInt64 = 7, missing: (Int) -> Bool
    ) -> [Fix] {
        var rng = SplitMix64(seed: seed)
        let metresPerDegree = 111_195.0
        return (0..<seconds).filter { !gap.contains($0) }.map { i in
            let east = 1.2 * Double(i) + 2 * rng.gaussian(), north = 2 * rng.gaussian()
            let reading = 1.2 + 0.1 * rng.gaussian()
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                latitude: 45 + north / metresPerDegree,
                longitude: 10 + east / (metresPerDegree * cos(45 * Double.pi / 180)),
                horizontalAccuracyMetres: 5, speedMetresPerSecond: missing(i) ? nil : reading,
                courseDegrees: missing(i) ? nil : 90)
        }
    }

    /// Feeds `fixes` and returns the tracker and the held metres and fixes just before the fix at `index`.
    static func run(_ fixes: [Fix], until index: Int) -> (tracker: Tracker, held: Double, heldFixes: Int) {
        var tracker = Tracker(profile: .walking)
        for fix in fixes[..<index] { _ = tracker.process(fix) }
        return (tracker, tracker.heldMissingMetres, tracker.missingRunFixes)
    }

    @Test("holds a trusted receiver's missing readings and labels them")
    func holdsAndLabels() {
        let fixes = Self.walk(seconds: 400) { (300..<310).contains($0) }
        var tracker = Tracker(profile: .walking)
        for (i, fix) in fixes.enumerated() {
            let decision = tracker.process(fix)
            if (300..<310).contains(i) {
                #expect(decision.hold == .missingReadings, "fix \(i): \(decision.hold)")
                #expect(decision.speedMetresPerSecond == 0)
            }
        }
        #expect(tracker.missingRunFixes == 0 && tracker.heldMissingMetres == 0)
    }

    /// A walk that keeps going through its missing readings: the run's chord is about its path, and the reading that
    /// ends the run adds that to the candidates. (The stand-ins, the lower of the two filters' speeds, read the
    /// 12 m of these 10 s runs as 12.2–16.6 m under 2 m of noise; the chords counted 8.8–14.4 m, 11.6 on average.)
    @Test("counts a walking run about its path when a reading ends it")
    func walkingRunCountsItsPath() {
        var counted = 0.0
        for seed in 1...12 as ClosedRange<UInt64> {
            let fixes = Self.walk(seconds: 400, seed: seed) { (300..<310).contains($0) }
            var (tracker, held, heldFixes) = Self.run(fixes, until: 310)
            #expect(heldFixes == 10 && held > 0)
            let candidates = tracker.candidates.y
            _ = tracker.process(fixes[310])
            #expect(tracker.missingRunFixes == 0 && tracker.heldMissingMetres == 0)
            let added = tracker.candidates.y - candidates
            #expect(added > 0 && added <= held, "seed \(seed): \(added) m of \(held) held")
            counted += added
        }
        #expect(abs(counted / 12 / 12 - 1) < 0.1, "\(counted / 12) m per 12 m run")
    }

    /// A run that halts: the walker stops where the readings go missing, so the chord is the positions' noise and
    /// the run counts the chord less that noise, far less than the filters' jitter it held.
    @Test("counts a halt's run as its chord less the positions' noise")
    func haltingRunCountsItsChord() {
        // Truth: walking to 300 s, standing 300–330 s (−1 throughout), walking on; the positions stand still too.
        var rng = SplitMix64(seed: 3)
        let metresPerDegree = 111_195.0
        let fixes = (0..<400).map { i in
            let along = 1.2 * Double(min(i, 300) + max(0, i - 330))
            let east = along + 2 * rng.gaussian(), north = 2 * rng.gaussian()
            let halted = (300..<330).contains(i)
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                latitude: 45 + north / metresPerDegree,
                longitude: 10 + east / (metresPerDegree * cos(45 * Double.pi / 180)),
                horizontalAccuracyMetres: 5, speedMetresPerSecond: halted ? nil : 1.2 + 0.1 * rng.gaussian(),
                courseDegrees: halted ? nil : 90)
        }
        var tracker = Tracker(profile: .walking)
        var settledInRun = 0.0
        for (i, fix) in fixes.enumerated() {
            let candidates = tracker.candidates.y
            let held = tracker.heldMissingMetres
            _ = tracker.process(fix)
            if (300...330).contains(i), tracker.heldMissingMetres < held {
                settledInRun += tracker.candidates.y - candidates
            }
        }
        // The 30 s halt in two pieces (20 s, then 10 s ended by the reading): each counts at most its chord less
        // the noise, a few metres, not the tens of metres of jitter the stand-ins held.
        #expect(settledInRun < 6, "\(settledInRun) m counted for a 30 s halt")
        #expect(abs(tracker.distance.totalMetres / (1.2 * 369) - 1) < 0.05, "\(tracker.distance.totalMetres) m")
    }

    /// A run longer than the window's span settles a piece at a time, so no more than a span's stand-ins wait.
    @Test("settles a long run a window span at a time")
    func longRunSettlesInPieces() {
        let fixes = Self.walk(seconds: 400) { (250..<320).contains($0) }
        var tracker = Tracker(profile: .walking)
        var mostHeld = 0.0
        for fix in fixes {
            _ = tracker.process(fix)
            mostHeld = max(mostHeld, tracker.heldMissingMetres)
        }
        // (A span's stand-ins, 24 m at 1.2 m/s and up to a fifth more under the positions' noise; the run's whole
        // 70 s would be 84 m.)
        let span = tracker.profile.windowSeconds * 1.2
        #expect(mostHeld > 0 && mostHeld <= 1.5 * span, "\(mostHeld) m held at most")
        // The straight walk's pieces' chords reach their stand-ins: the run counts its path.
        #expect(abs(tracker.distance.totalMetres / (1.2 * 399) - 1) < 0.05, "\(tracker.distance.totalMetres) m")
    }

    /// A reset gap (70 s of silence) right after a run: the anchor settles the run (its positions are the track's
    /// before the gap) and the fix after the gap reports it; it was given up, and a walker's tunnel of −1 followed
    /// by a gap lost the whole run (a reviewer's).
    @Test("settles a run at the anchor after a reset gap")
    func anchorSettlesTheRun() {
        let fixes = Self.walk(seconds: 500, gap: 300..<370) { (285..<300).contains($0) }
        // (Index 300 is the first fix after the gap, at 370 s.)
        var (tracker, held, heldFixes) = Self.run(fixes, until: 300)
        #expect(heldFixes == 15 && held > 15, "\(heldFixes) fixes, \(held) m")
        let decision = tracker.process(fixes[300])
        #expect(decision.isAnchor)
        #expect(tracker.missingRunFixes == 0 && tracker.heldMissingMetres == 0)
        // The run walked 18 m (the gap's chord counts on its own, later: `bridge`).
        #expect(
            decision.distanceIncrementMetres >= 0.8 * 18 && decision.distanceIncrementMetres <= held,
            "\(decision.distanceIncrementMetres) m of \(held) held")
    }

    /// A re-anchor after refused fixes gives a run up with the window's held-back distance: a halt under white
    /// noise whose jumps the speed gate refused settled chords of the positions' jitter into the total.
    @Test("gives a run up at a re-anchor after refused fixes")
    func reanchorGivesTheRunUp() {
        var fixes = Self.walk(seconds: 310) { $0 >= 300 }
        // Three fixes 400 m north, a second apart, without a reading: refused as too fast, then re-anchored on.
        for i in 310..<313 {
            fixes.append(
                try! Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(i) * 1000),
                    latitude: 45 + 400 / 111_195.0, longitude: 10 + 1.2 * 300 / (111_195.0 * cos(45 * Double.pi / 180)),
                    horizontalAccuracyMetres: 5, speedMetresPerSecond: nil))
        }
        var (tracker, held, heldFixes) = Self.run(fixes, until: 310)
        #expect(heldFixes == 10 && held > 0)
        let decisions = fixes[310...].map { tracker.process($0) }
        #expect(decisions.map(\.isAnchor) == [false, false, true], "\(decisions.map(\.rejection))")
        #expect(decisions.last?.distanceIncrementMetres == 0)
        #expect(tracker.missingRunFixes == 0 && tracker.heldMissingMetres == 0)
    }

    /// A track that ends in a run: `finishTrack()` settles it.
    @Test("settles a run under way at the end of the track")
    func finishTrackSettlesTheRun() {
        let fixes = Self.walk(seconds: 320) { $0 >= 305 }
        var (tracker, held, heldFixes) = Self.run(fixes, until: fixes.count)
        #expect(heldFixes == 15 && held > 15, "\(heldFixes) fixes, \(held) m")
        let total = tracker.distance.totalMetres
        let counted = tracker.finishTrack()
        // The run walked 18 m.
        #expect(counted >= 0.8 * 18 && counted <= held, "\(counted) m of \(held) held")
        #expect(tracker.distance.totalMetres == total + counted)
        #expect(tracker.missingRunFixes == 0 && tracker.heldMissingMetres == 0)
    }

    /// A checkpoint taken mid-run resumes the held run: the same decisions, bit for bit.
    @Test("resumes a held run from a checkpoint")
    func checkpointCarriesTheRun() throws {
        let fixes = Self.walk(seconds: 400) { (300..<312).contains($0) }
        var (tracker, _, heldFixes) = Self.run(fixes, until: 306)
        #expect(heldFixes == 6)
        var resumed = try Tracker(resuming: tracker.checkpoint())
        for fix in fixes[306...] {
            #expect(tracker.process(fix) == resumed.process(fix))
        }
        #expect(tracker.distance.totalMetres == resumed.distance.totalMetres)
    }
}
