import Foundation
import Testing

@testable import TrueTrackCore

/// Leaving a rest without Doppler (``TrackingProfile/departureConfirmationSeconds``): metres released as the
/// track leaves a rest are held until the departure is confirmed, and given up when the track comes back.
@Suite struct TrackerDepartureTests {
    /// A fix `seconds` after the suite's start, `north`/`east` metres from the origin, 8 m accuracy, no speed.
    static func fix(_ seconds: Double, north: Double = 0, east: Double = 0) -> Fix {
        TrackerTests.fix(seconds, north: north, east: east, accuracy: 8)
    }

    /// A parked receiver's jitter (±2 m, deterministic).
    static func jitter(_ i: Int) -> (north: Double, east: Double) {
        (2 * sin(Double(i) * 2.3), 2 * cos(Double(i) * 1.7))
    }

    /// The driving preset with the rule off (as before it).
    static let drivingWithoutHold = TrackingProfile.custom(from: .driving) { $0.departureConfirmationSeconds = 0 }

    /// A parked receiver whose fixes drift 30 m out over 6 s, stay there for 8 s and come back over 6 s (a
    /// reflection that builds up and fades, claiming 8 m all along): the gate lets the filter follow, and the
    /// net-displacement gate opens on the way out and again on the way back. The metres are held as a
    /// departure and given up when the track is back at its rest.
    static func parkedWithExcursion(profile: TrackingProfile, seconds: Int = 180) -> (Tracker, [FixDecision]) {
        var t = Tracker(profile: profile)
        var decisions: [FixDecision] = []
        for i in 0..<seconds {
            let k = i - 90
            let offset =
                k < 0 || k > 20 ? 0 : k <= 6 ? 5 * Double(k) : k <= 14 ? 30 : 30 - 5 * Double(k - 14)
            let j = jitter(i)
            decisions.append(t.process(fix(Double(i), north: offset + j.north, east: j.east)))
        }
        return (t, decisions)
    }

    @Test func aParkedReceiversExcursionIsGivenUpWhenTheTrackComesBack() {
        let (before, _) = Self.parkedWithExcursion(profile: Self.drivingWithoutHold)
        #expect(before.distance.totalMetres > 20, "the excursion no longer counts without the rule")
        let (t, decisions) = Self.parkedWithExcursion(profile: .driving)
        #expect(decisions.contains { $0.hold == .departure }, "the excursion no longer opens the gate")
        #expect(t.distance.totalMetres == 0, "counted \(t.distance.totalMetres) m")
        #expect(t.pendingDepartureMetres == 0)
    }

    /// A car pulling away from a rest at 2 m/s² to 14 m/s: its first metres are held, counted once it is 100 m
    /// on (``Tracker/departureConfirmationMetres``), and the total is the one without the rule.
    @Test func aCarPullingAwayCountsItsFirstMetresOnceItIsOnItsWay() {
        func drive(_ profile: TrackingProfile) -> (Tracker, [FixDecision]) {
            var t = Tracker(profile: profile)
            var decisions: [FixDecision] = []
            var north = 0.0, speed = 0.0
            for i in 0..<180 {
                if i > 60 {
                    speed = min(speed + 2, 14)
                    north += speed
                }
                let j = Self.jitter(i)
                decisions.append(t.process(Self.fix(Double(i), north: north + j.north, east: j.east)))
            }
            return (t, decisions)
        }
        let (t, decisions) = drive(.driving)
        let (plain, _) = drive(Self.drivingWithoutHold)
        let held = decisions.indices.filter { decisions[$0].hold == .departure }
        #expect(!held.isEmpty, "nothing was held")
        // Counted within 15 s of pulling away (not half a minute later).
        #expect(held.allSatisfy { $0 < 76 }, "held at \(held)")
        #expect(t.pendingDepartureMetres == 0)
        #expect(abs(t.distance.totalMetres - plain.distance.totalMetres) < 1e-6)
        let truth = 14.0 * (119 - 7) + 2 * (1 + 2 + 3 + 4 + 5 + 6)
        #expect(abs(t.distance.totalMetres - truth) < 0.03 * truth, "\(t.distance.totalMetres) m of \(truth)")
    }

    /// A car that moves 40 m at 2 m/s and parks again (a parking manoeuvre): the departure never reaches
    /// 100 m, so its metres count once it has lasted ``TrackingProfile/departureConfirmationSeconds`` with the
    /// track still away from the rest.
    @Test func aShortMoveToAnotherRestCountsAfterTheConfirmationTime() {
        var t = Tracker(profile: .driving)
        var decisions: [FixDecision] = []
        for i in 0..<180 {
            let north = i < 60 ? 0 : Double(min(i - 60, 20)) * 2
            let j = Self.jitter(i)
            decisions.append(t.process(Self.fix(Double(i), north: north + j.north, east: j.east)))
        }
        guard let last = decisions.lastIndex(where: { $0.hold == .departure }) else {
            Issue.record("nothing was held")
            return
        }
        #expect(last >= 60 + 20, "counted before the departure could be told from an excursion (\(last))")
        #expect(t.pendingDepartureMetres == 0)
        #expect(abs(t.distance.totalMetres - 40) < 12, "counted \(t.distance.totalMetres) m of 40")
    }

    /// A car moving up 20 m in a queue under 15 m fixes (threshold 17 m) whose error then drifts 4 m back: the
    /// track rests within the threshold of where it was, but it never went farther and came back, so this is
    /// no excursion. Its metres stay held (not given up: a reviewer's jams at 15 m lost half their distance when
    /// any rest within the threshold gave them up) and count when the car moves on, or at the track's end.
    @Test func aShortMoveUpUnderCoarseFixesIsNotAnExcursion() {
        func queue(movingOn: Bool) -> Tracker {
            var t = Tracker(profile: .driving)
            for i in 0..<240 {
                // Still, 20 m up over 8 s, the error drifting 4 m back over the next 20 s, still; then 150 m on.
                var north = i < 60 ? 0 : i < 68 ? 2.5 * Double(i - 60) : 20 - 4 * min(1, Double(i - 68) / 20)
                if movingOn, i >= 180 { north += 10 * Double(i - 179) }
                let j = Self.jitter(i)
                _ = t.process(TrackerTests.fix(Double(i), north: north + j.north, east: j.east, accuracy: 15))
            }
            return t
        }
        var stopped = queue(movingOn: false)
        #expect(stopped.pendingDepartureMetres > 10, "held \(stopped.pendingDepartureMetres) m")
        let before = stopped.distance.totalMetres
        let counted = stopped.finishTrack()
        #expect(counted > 10 && stopped.distance.totalMetres == before + counted)
        #expect(abs(stopped.distance.totalMetres - 20) < 10, "\(stopped.distance.totalMetres) m of 20")
        let movedOn = queue(movingOn: true)
        #expect(movedOn.pendingDepartureMetres == 0)
        #expect(abs(movedOn.distance.totalMetres - 620) < 0.1 * 620, "\(movedOn.distance.totalMetres) m of 620")
    }

    /// A track ending 8 s after pulling away, before 100 m: ``Tracker/finishTrack()`` counts what the departure
    /// held (a reviewer's drives lost those metres: 42 → 0 m of 61); an excursion still out at the end counts
    /// too, one that came back does not.
    @Test func theTracksEndCountsADepartureStillHeld() {
        // 60 s parked, then pulling away at 2 m/s² for 8 s.
        var north = 0.0, speed = 0.0
        let fixes = (0..<69).map { i in
            if i > 60 {
                speed += 2
                north += speed
            }
            let j = Self.jitter(i)
            return Self.fix(Double(i), north: north + j.north, east: j.east)
        }
        var t = Tracker(profile: .driving)
        for fix in fixes { _ = t.process(fix) }
        #expect(t.pendingDepartureMetres > 20)
        let counted = t.finishTrack()
        #expect(counted > 20 && t.pendingDepartureMetres == 0)
        #expect(t.finishTrack() == 0)
        // The rewinding tracker passes it on to its in-order tracker.
        var rewinding = RewindingTracker(profile: .driving)
        for fix in fixes { _ = rewinding.process(fix) }
        #expect(rewinding.finishTrack() == counted && rewinding.totalMetres == t.distance.totalMetres)
        // An excursion still out when the track ends counts (nothing says it would have come back); one that
        // came back does not (given up on the fix back, or by `finishTrack` when no fix judged it yet).
        var (out, _) = Self.parkedWithExcursion(profile: .driving, seconds: 101)
        #expect(out.pendingDepartureMetres > 0)
        #expect(out.finishTrack() > 0)
        for seconds in 111...114 {
            var (back, _) = Self.parkedWithExcursion(profile: .driving, seconds: seconds)
            #expect(back.finishTrack() == 0 && back.distance.totalMetres == 0, "ending after \(seconds) s")
        }
    }

    /// A van parked for an hour, its receiver logging every 10 s without speed (8 m claimed, ±2 m jitter): at 10 s
    /// the filter follows a jump of 150–250 m, and the metres of the way out (and back) were held as a departure.
    /// Before ``Tracker/departureConfirmationFixes``, a one-fix jump was 100 m on at once and counted; a two-fix
    /// one counted on its second fix; and a jump landing when the receiver's drift had held a departure for 30 s
    /// found it old enough. None of them counts now.
    @Test func aParkedReceiversJumpsEveryTenSecondsCountNothing() {
        func parked(jumps: [Int: (north: Double, east: Double)], drift: Range<Int> = 0..<0) -> Tracker {
            var t = Tracker(profile: .driving)
            for i in 0..<360 {
                let j = Self.jitter(i)
                let jump = jumps[i] ?? (0, 0)
                // The drift: 12 m east (beyond the 10 m threshold) for the fixes in `drift`.
                let east = drift.contains(i) ? 12.0 : 0
                _ = t.process(Self.fix(Double(10 * i), north: jump.north + j.north, east: jump.east + east + j.east))
            }
            return t
        }
        let oneFix = parked(jumps: [30: (200, 0), 120: (-250, 40), 250: (0, 150)])
        #expect(oneFix.distance.totalMetres == 0, "one-fix jumps counted \(oneFix.distance.totalMetres) m")
        let twoFixes = parked(jumps: [60: (0, 180), 61: (10, 170), 200: (-160, -60), 201: (-150, -70)])
        #expect(twoFixes.distance.totalMetres == 0, "two-fix jumps counted \(twoFixes.distance.totalMetres) m")
        let onDrift = parked(jumps: [100: (220, 0)], drift: 94..<100)
        #expect(onDrift.distance.totalMetres < 15, "a jump on the drift counted \(onDrift.distance.totalMetres) m")
    }

    /// A van parked for an hour logging every 10 s without speed, its fixes jumping 180 m for two fixes (which the
    /// stop detector takes for a departure: two fixes beyond its 50 m radius) and back: the tracker gives the
    /// departure up and counts nothing, so the stop analysis of its decisions (a dense track that came back
    /// with nothing counted) reads one stop of the whole hour, not two stops and a trip; raw fixes, two stops.
    @Test func aParkedReceiversTwoFixJumpIsOneStop() {
        var t = Tracker(profile: .driving)
        var evidence: [MotionEvidence] = []
        var fixes: [Fix] = []
        for i in 0..<360 {
            let j = Self.jitter(i)
            let east = i == 180 || i == 181 ? 180.0 : 0
            let fix = Self.fix(Double(10 * i), north: j.north, east: east + j.east)
            fixes.append(fix)
            evidence.append(MotionEvidence(fix: fix, decision: t.process(fix)))
        }
        #expect(t.distance.totalMetres == 0, "counted \(t.distance.totalMetres) m")
        let stops = StopAnalysis(evidence: evidence, profile: .driving)
        #expect(stops.stops.count == 1 && stops.trips.isEmpty, "\(stops.stops.count) stops, \(stops.trips)")
        let raw = StopAnalysis(fixes: fixes, profile: .driving)
        #expect(raw.stops.count == 2, "raw fixes: \(raw.stops.count) stops")
    }

    /// The same receiver in a van that pulls away after 5 minutes parked and drives at 14 m/s: its first metres
    /// are held for three fixes, then counted, and the total is the one without the rule.
    @Test func aVanLoggingEveryTenSecondsCountsItsDepartureThreeFixesOn() {
        func drive(_ profile: TrackingProfile) -> (Tracker, [FixDecision]) {
            var t = Tracker(profile: profile)
            var decisions: [FixDecision] = []
            for i in 0..<120 {
                let north = i < 30 ? 0 : 14 * 10 * Double(i - 30)
                let j = Self.jitter(i)
                decisions.append(t.process(Self.fix(Double(10 * i), north: north + j.north, east: j.east)))
            }
            return (t, decisions)
        }
        let (t, decisions) = drive(.driving)
        let (plain, _) = drive(Self.drivingWithoutHold)
        let held = decisions.indices.filter { decisions[$0].hold == .departure }
        #expect(!held.isEmpty && held.allSatisfy { $0 <= 33 }, "held at \(held)")
        #expect(t.pendingDepartureMetres == 0)
        #expect(abs(t.distance.totalMetres - plain.distance.totalMetres) < 1e-6)
        #expect(abs(t.distance.totalMetres - 14 * 10 * 89) < 0.02 * 14 * 10 * 89, "\(t.distance.totalMetres) m")
    }

    /// A U-turn's window reads "not moving" for a moment: that is no rest to leave, so a car turning back on a
    /// road loses nothing (a rest needs a window's length of such verdicts).
    @Test func aUTurnIsNoRest() {
        var t = Tracker(profile: .driving)
        var plain = Tracker(profile: Self.drivingWithoutHold)
        for i in 0..<120 {
            // 10 m/s north for 60 s, then back south.
            let north = i < 60 ? 10 * Double(i) : 10 * Double(120 - i)
            let j = Self.jitter(i)
            let d = t.process(Self.fix(Double(i), north: north + j.north, east: j.east))
            _ = plain.process(Self.fix(Double(i), north: north + j.north, east: j.east))
            #expect(d.hold != .departure, "fix \(i)")
        }
        #expect(t.distance.totalMetres == plain.distance.totalMetres)
    }
}
