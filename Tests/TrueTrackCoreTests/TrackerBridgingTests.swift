import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// Steps longer than the integration clamp and reset gaps: the path across them is at least their chord (see
/// ``Tracker``, "Bridging").
@Suite struct TrackerBridgingTests {
    /// A walker heading north at 1.4 m/s with Doppler, fixes every second from `from` to `to` (inclusive).
    static func walk(_ from: Int, _ to: Int, north offset: Double = 0) -> [Fix] {
        (from...to).map { TrackerTests.fix(Double($0), north: offset + Double($0) * 1.4, speed: 1.4, course: 0) }
    }

    static func total(_ fixes: [Fix], profile: TrackingProfile = .walking) -> (Double, [FixDecision]) {
        var t = Tracker(profile: profile)
        let decisions = fixes.map { t.process($0) }
        return (t.distance.totalMetres, decisions)
    }

    /// A walk due east at 1.2 m/s logged every 20 s without speed readings: 16 fixes, 24 m apart, from 0 to
    /// 300 s (the sparse-step tests' track).
    static let straightSparseWalk = (0...15).map { TrackerTests.fix(Double($0 * 20), east: Double($0) * 24) }

    static var unbridged: TrackingProfile {
        var p = TrackingProfile.walking
        p.maximumBridgedGapSeconds = 0
        return p
    }

    /// 40 s of walking, 90 s without fixes (a reset gap for the walking profile), 40 s more: the gap's 127.4 m
    /// (91 s × 1.4 m/s, from the last filtered position, at 39 s, to the first fix after it, at 130 s) count once the track after
    /// it has lasted half a window, and not before.
    @Test func aResetGapOnAWalkCountsItsChordOnceTheTrackAfterItIsConfirmed() {
        let fixes = Self.walk(0, 39) + Self.walk(130, 170)
        let (bridged, decisions) = Self.total(fixes)
        let (plain, _) = Self.total(fixes, profile: Self.unbridged)
        #expect(abs(bridged - plain - 127.4) < 1, "bridged \(bridged) m, unbridged \(plain) m")
        let afterGap = decisions[40...]
        #expect(afterGap.first!.isAnchor)
        let confirming = afterGap.firstIndex { $0.distanceIncrementMetres > 100 }
        let confirmedAt = try! #require(confirming.map { fixes[$0].timestamp })
        #expect(fixes[40].timestamp.seconds(to: confirmedAt) >= TrackingProfile.walking.windowSeconds / 2)
    }

    /// A chord faster than a walker sustains (5 m/s over the 91 s) was a ride: not counted by the walking
    /// profile; neither is one at twice the walker's pace on both sides (a bus at 2.8 m/s, under the 3 m/s a
    /// walker sustains): the bridge asks for the pace of either side (``Tracker/bridgeSpeedRatio``).
    @Test func aGapCrossedFasterThanTheTravellerMovesIsNotBridged() {
        for chord in [455.0, 254.8] {
            let fixes = Self.walk(0, 39) + Self.walk(130, 170, north: chord - 91 * 1.4)
            let (bridged, _) = Self.total(fixes)
            let (plain, _) = Self.total(fixes, profile: Self.unbridged)
            #expect(bridged == plain, "chord \(chord) m: \(bridged) vs \(plain)")
        }
        // The same gap at the walker's own pace counts.
        let fixes = Self.walk(0, 39) + Self.walk(130, 170)
        #expect(Self.total(fixes).0 > Self.total(fixes, profile: Self.unbridged).0 + 120)
    }

    /// A car enters a 40 s tunnel at 20 m/s and leaves it at 10 m/s (a queue at the exit; no Doppler, 1 Hz): the
    /// speeds on either side differ by 2×, within the driving profile's ``Tracker/bridgeVehicleSpeedRatio``, so the
    /// chord counts (it did not under ``Tracker/bridgeSpeedRatio``); for a walker, twice the pace across a
    /// silence stays a ride and is not bridged (above).
    @Test func aCarLeavingATunnelSlowerThanItWentInCountsTheTunnel() {
        var fixes: [Fix] = []
        for i in 0...60 { fixes.append(TrackerTests.fix(Double(i), north: 20 * Double(i), accuracy: 5)) }
        // In the tunnel from 60 s to 100 s: 20 s at 20 m/s, then 20 s at 10 m/s (600 m); out at 1,800 m.
        for i in 100...160 {
            fixes.append(TrackerTests.fix(Double(i), north: 1_800 + 10 * Double(i - 100), accuracy: 5))
        }
        var unbridged = TrackingProfile.driving
        unbridged.maximumBridgedGapSeconds = 0
        let (bridged, _) = Self.total(fixes, profile: .driving)
        let (plain, _) = Self.total(fixes, profile: unbridged)
        // The chord (600 m, from 1,200 m at 60 s to 1,800 m at 100 s) counts.
        #expect(bridged - plain > 500, "bridged \(bridged) m, unbridged \(plain) m")
        #expect(abs(bridged - 2_400) < 0.03 * 2_400, "\(bridged) m of 2,400")
    }

    /// A walker's silence of 151 s ends on a bus already moving at 6 m/s (with Doppler, under the walking
    /// ceiling): the track after the gap is faster than a walker sustains, so the gap was most likely the bus's
    /// too and its chord is not counted (a reviewer's case counted +563 m of bus as walk before this check);
    /// a walker coming out at twice the pace it went in is not bridged either.
    @Test func aGapThatEndsInAVehicleIsNotBridged() {
        let before = Self.walk(0, 39)
        let start = 39 * 1.4 + 300
        let bus = (190...230).map {
            TrackerTests.fix(Double($0), north: start + Double($0 - 190) * 6, speed: 6, course: 0)
        }
        let (bridged, _) = Self.total(before + bus)
        let (plain, _) = Self.total(before + bus, profile: Self.unbridged)
        #expect(bridged == plain, "\(bridged) vs \(plain)")
        let jog = (130...170).map {
            TrackerTests.fix(Double($0), north: 130 * 1.4 + Double($0 - 130) * 2.9, speed: 2.9, course: 0)
        }
        #expect(Self.total(before + jog).0 == Self.total(before + jog, profile: Self.unbridged).0)
    }

    /// A parked phone without speed, woken after a minute's silence (Android's doze): the burst's first fix is
    /// 50 m off and the next ones converge back (τ 2 s) as the reported accuracy shrinks. Half a window after the
    /// anchor the track is back where it was before the silence, so the distance held since the anchor is given
    /// up (the driving profile, which has no vehicle rule to take it, counted the convergence). A car that drives
    /// away from where it was parked after the same silence still counts.
    @Test func aColdFixConvergingBackAfterASilenceIsNotTravel() {
        let parked = (0...40).map { TrackerTests.fix(Double($0)) }
        let burst = (100...130).map { t -> Fix in
            let off = 50 * exp(-Double(t - 100) / 2)
            return TrackerTests.fix(Double(t), east: off, accuracy: 5 + 15 * exp(-Double(t - 100) / 2))
        }
        let (total, _) = Self.total(parked + burst, profile: .driving)
        #expect(total < 1, "\(total)")
        let away = (100...130).map { TrackerTests.fix(Double($0), east: Double($0 - 100) * 5) }
        let (driven, _) = Self.total(parked + away, profile: .driving)
        #expect(driven > 100, "\(driven)")
    }

    /// The same cold fix, when its first fix lands beyond the local plane's re-anchoring radius (10 km from where
    /// the plane was anchored) and the plane re-centres at that anchor: the position before the silence must be
    /// re-expressed in the new plane too, or the return is never seen (it stayed in the old plane's numbers,
    /// ~10 km off, and the convergence counted 50 m).
    @Test func aColdFixIsRecognisedAcrossARecentredPlane() {
        let drive = (0...666).map { TrackerTests.fix(Double($0), north: Double($0) * 15, speed: 15, course: 0) }
        let parked = (667...707).map { TrackerTests.fix(Double($0), north: 9_990, speed: 0) }
        let burst = (770...800).map { t -> Fix in
            let off = 50 * exp(-Double(t - 770) / 2)
            return TrackerTests.fix(Double(t), north: 9_990 + off, accuracy: 5 + 15 * exp(-Double(t - 770) / 2))
        }
        var t = Tracker(profile: .driving)
        for fix in drive + parked { _ = t.process(fix) }
        let before = t.distance.totalMetres
        let decisions = burst.map { t.process($0) }
        #expect(decisions[0].isAnchor)
        #expect(t.distance.totalMetres - before < 1, "\(t.distance.totalMetres - before)")
    }

    /// A drive into a garage: moving before the gap, parked after it (Doppler 0): the first fix after the
    /// silence is 63 m from where the car went in. The track after it is still, so the gap rule bridges nothing;
    /// the silence counts its chord once (``Tracker/silenceChord(chord:noise:seconds:reading:)``: the
    /// reading before it says the car was under way, and the path is at least the chord), and the still track
    /// after it nothing. (Before that rule, nothing: a van stopped at a light after a 60–90 s outage lost
    /// 700–1,150 m.)
    @Test func aReceiverStillAfterAGapCountsTheChordOnly() {
        let before = (0...40).map { TrackerTests.fix(Double($0), north: Double($0) * 8, speed: 8, course: 0) }
        let after = (100...140).map { TrackerTests.fix(Double($0), north: 380, east: 20, speed: 0) }
        let (total, _) = Self.total(before + after, profile: .driving)
        var unbridged = TrackingProfile.driving
        unbridged.maximumBridgedGapSeconds = 0
        let chord = (60.0 * 60 + 20 * 20).squareRoot()
        let counted = total - Self.total(before + after, profile: unbridged).0
        #expect(abs(counted - chord) < 0.01 * chord, "\(counted) m across the gap")
    }

    /// After a 71 s silence the first fixes start 30 m off and converge back to where the receiver is (a cold
    /// fix after Android's doze; τ 8 s, slower than a walker sustains, so the vehicle rule does not take it):
    /// the track after the gap heads back along the chord, so it is not bridged.
    @Test func aTrackHeadingBackAfterAGapIsNotBridged() {
        let before = Self.walk(0, 39)
        let end = 39 * 1.4
        let after = (110...150).map { t -> Fix in
            let off = 30 * exp(-Double(t - 110) / 8)
            return TrackerTests.fix(Double(t), north: end + off, east: 0, accuracy: 5 + off / 5)
        }
        let (bridged, _) = Self.total(before + after)
        let (plain, _) = Self.total(before + after, profile: Self.unbridged)
        #expect(bridged == plain, "\(bridged) vs \(plain)")
    }

    /// A receiver at rest, fixes of 5 m accuracy, silent for two minutes and back 8 m away: within both
    /// fixes' noise (2 m + 5 m + 5 m), so nothing is bridged.
    @Test func aStillReceiversGapWithinItsNoiseIsNotBridged() {
        let before = (0...40).map { TrackerTests.fix(Double($0), speed: 0) }
        let after = (160...200).map { TrackerTests.fix(Double($0), east: 8, speed: 0) }
        let (total, _) = Self.total(before + after)
        #expect(total == 0)
    }

    /// A silence longer than ``TrackingProfile/maximumBridgedGapSeconds`` (15 minutes at 1.4 m/s: 1,260 m) is
    /// not bridged: across it the way of travel is unknown.
    @Test func aSilenceLongerThanTheBridgeIsNotBridged() {
        let fixes = Self.walk(0, 39) + Self.walk(940, 980)
        let (bridged, _) = Self.total(fixes)
        let (plain, _) = Self.total(fixes, profile: Self.unbridged)
        #expect(bridged == plain)
        var longer = TrackingProfile.walking
        longer.maximumBridgedGapSeconds = 1000
        let (allowed, _) = Self.total(fixes, profile: longer)
        #expect(abs(allowed - plain - 1260) < 2, "\(allowed) vs \(plain)")
    }

    /// The first fix after the gap is 150 m off (multipath after a tunnel); the fixes after it agree with each
    /// other, not with it, and re-anchor the filter. The wrong fix's chord never counts; the re-anchor, on the run
    /// of refusals straight after the gap's anchor, becomes the gap's end, and the chord to it counts once the track
    /// after it confirms it (before 2026-12-05 the re-anchor cancelled the chord: 106.4 m of the walk's 238, an API
    /// tester's tunnels −18 … −25 %).
    @Test func aWrongFirstFixAfterAGapIsNotBridgedToButTheFixAfterItIs() {
        let wrong = TrackerTests.fix(130, north: 130 * 1.4, east: 150, speed: 1.4, course: 0)
        let fixes = Self.walk(0, 39) + [wrong] + Self.walk(131, 170)
        let (bridged, decisions) = Self.total(fixes)
        let (plain, _) = Self.total(fixes, profile: Self.unbridged)
        #expect(decisions[41...].contains { $0.isAnchor })
        #expect(abs(plain - 106.4) < 1)
        #expect(abs(bridged - 170 * 1.4) < 2, "\(bridged) vs \(170 * 1.4)")
    }

    /// Fixes every 20 s without speed on a straight walk at 1.2 m/s: each step counts its 24 m chord, not the
    /// 12 m of the clamped speed integral; a turn of 135° between two steps heads back and is not bridged (that
    /// step counts its clamped integral only).
    @Test func aSparseLoggersStepsCountTheirChordsWhileTheWalkerKeepsItsHeading() {
        let straight = Self.straightSparseWalk
        let (total, decisions) = Self.total(straight)
        let counted = decisions.filter { $0.distanceIncrementMetres > 0 }.count
        // Every step but the first few (the anchor, half a window, a heading to compare with) counts 24 m.
        #expect(counted >= 10)
        #expect(abs(total - 24 * Double(15)) < 24 * 4, "\(total)")
        let bridgedSteps = decisions.filter { abs($0.distanceIncrementMetres - 24) < 1.5 }.count
        #expect(bridgedSteps >= 10, "\(decisions.map(\.distanceIncrementMetres))")
        // Turning back north-west at the end: the first step after the turn heads back on the step before it.
        let turned =
            straight
            + (1...3).map {
                TrackerTests.fix(Double(300 + $0 * 20), north: Double($0) * 17, east: 360 - Double($0) * 17)
            }
        let (_, turnDecisions) = Self.total(turned)
        #expect(turnDecisions[16].distanceIncrementMetres < 20, "\(turnDecisions[16])")
    }

    /// A logger without speeds every 20 s (driving, 15 m/s east) or 60 s (walking, 1.4 m/s north): the track's first
    /// step counted 10 s of the filter's speed (the clamp), and is made up to its chord by the step after it when
    /// that step keeps on from it (a tester's drive lost 131 m of 2,700, the walk 66 m of 756). A first step that
    /// jumps out and back (multipath off a parked logger) is not made up: the step back heads back along it.
    @Test("makes a sparse logger's first step up to its chord once the step after keeps on from it")
    func makesTheFirstSparseStepUpToItsChord() {
        let drive = (0..<10).map { TrackerTests.fix(Double($0 * 20), east: Double($0) * 300) }
        let (driven, driveDecisions) = Self.total(drive, profile: .driving)
        #expect(abs(driven - 2_700) < 0.005 * 2_700, "\(driven) of 2,700 m")
        #expect(driveDecisions[1].distanceIncrementMetres < 200, "\(driveDecisions[1])")  // the clamp's, at first
        let walk = (0..<10).map { TrackerTests.fix(Double($0 * 60), north: Double($0) * 84) }
        let (walked, _) = Self.total(walk)
        #expect(abs(walked - 756) < 0.01 * 756, "\(walked) of 756 m")
        // Parked (within 3 m), the first step jumping 150 m out and the second back: the step back counts at most
        // its own chord (made up, it would add the first step's 73 m shortfall). (The jump itself counts as the
        // filter follows it: a first step has nothing to be judged against.)
        let parked = (0..<10).map { (i: Int) -> Fix in
            let east: Double = i == 1 ? 150 : Double(i % 3)
            return TrackerTests.fix(Double(i * 20), north: Double(i % 2) * 2, east: east)
        }
        let (_, parkedDecisions) = Self.total(parked, profile: .driving)
        #expect(parkedDecisions[2].distanceIncrementMetres <= 150, "\(parkedDecisions[2])")
    }

    /// The same walk turning by 60° at the end: the step after the turn keeps on from the step before (the
    /// chords between the fixes turn by less than 90°) and counts its 24 m chord, although the filter, which
    /// kept its heading east, is more than 45° off it (the bridge's test: 13.8 m counted before the rule).
    @Test func aSparseLoggersStepThatTurnsCountsItsChordWhenItKeepsOn() {
        let straight = Self.straightSparseWalk
        let turned =
            straight
            + (1...3).map {
                TrackerTests.fix(Double(300 + $0 * 20), north: Double($0) * 24 * 0.866, east: 360 + Double($0) * 12)
            }
        let (_, decisions) = Self.total(turned)
        #expect(abs(decisions[16].distanceIncrementMetres - 24) < 1, "\(decisions[16])")
        #expect(abs(decisions[17].distanceIncrementMetres - 24) < 1, "\(decisions[17])")
    }

    /// The walk of the tests above every 20 s, with one silence of 70 s (a reset gap: the fix after it anchors
    /// the filter, the step after that is the chain rules'), turning by 60° two steps after the silence: the
    /// turning step keeps on from the step after the anchor, whose chord was noted, and counts its 24 m chord
    /// (before, no step straight after a gap's anchor was noted, and the turn counted the clamped integral).
    @Test func theSecondStepAfterASilenceKeepsOnFromTheFirst() {
        let before = Self.straightSparseWalk
        let after = [TrackerTests.fix(370, east: 444), TrackerTests.fix(390, east: 468)]
        let turned = (1...3).map { k -> Fix in
            let step = Double(k)
            return TrackerTests.fix(390 + step * 20, north: step * 20.78, east: 468 + step * 12)
        }
        let (_, decisions) = Self.total(before + after + turned)
        #expect(decisions[16].isAnchor)
        #expect(abs(decisions[18].distanceIncrementMetres - 24) < 1, "\(decisions[18])")
    }

    /// The walk every 20 s with one short step (5 s, within the clamp: no chord is noted for it) before a step
    /// that turns by 60°: the turning step has no judged step just before it (the chord noted two steps back
    /// ends at an older fix), so it counts what the older rules count, not its 24 m chord.
    @Test func aStepAfterAShortStepHasNoStepToKeepOnFrom() {
        let straight = Self.straightSparseWalk
        let short = TrackerTests.fix(305, east: 366)
        let turned = TrackerTests.fix(325, north: 20.78, east: 378)
        let (_, decisions) = Self.total(straight + [short, turned])
        #expect(decisions[17].distanceIncrementMetres < 20, "\(decisions[17])")
    }

    /// A still receiver logging every 20 s whose fixes sit 50 m off for two minutes (a multipath reflection),
    /// on the cycling profile: the chord into the excursion follows steps within the noise, the chord out of it
    /// one within the noise too, so neither counts as a chord (both would add 100 m); what the speed integral
    /// lets through is the older rules' (63 m).
    @Test func aSparseStillLoggersExcursionCountsNoChords() {
        let fixes = (0..<60).map { k in
            let away = (300..<420).contains(k * 20)
            return TrackerTests.fix(
                Double(k * 20), north: Double(k % 3) * 0.7 + (away ? 30 : 0),
                east: Double(k % 2) * 0.8 + (away ? 40 : 0))
        }
        let (total, _) = Self.total(fixes, profile: .cycling)
        #expect(total < 75, "\(total)")
    }

    /// A walker's logger every 12 s without speed that falls silent for 50 s (more than four of its steps: no
    /// step of its rhythm, a silence may hide a stop) and comes out 60 m on, turned by 60°: the step onto it
    /// gets no chord from the rhythm rule (it would count 60 m), only what the older rules count.
    @Test func aSilenceOutOfRhythmGetsNoSparseChord() {
        let before = (0..<20).map { TrackerTests.fix(Double($0 * 12), east: Double($0) * 14.4) }
        let turn = SIMD2(0.5, 0.866)
        let after = (0..<10).map { k in
            let along = 60 + Double(k) * 14.4
            return TrackerTests.fix(
                Double(19 * 12 + 50 + k * 12), north: along * turn.y, east: 19 * 14.4 + along * turn.x)
        }
        let (_, decisions) = Self.total(before + after)
        #expect(decisions[20].distanceIncrementMetres < 40, "\(decisions[20])")
    }

    /// A fleet tracker on the driving profile reports every 30 s (every step a reset gap: the filter never sees
    /// two fixes together) at about 15 m/s due east: each chord (450 m in the fixture's degrees, its geodesic
    /// length below) counts once the next one agrees with it, so ten fixes count their first eight chords; the
    /// last one waits for a next fix that never comes.
    @Test func aLoggerWhoseEveryStepIsAResetGapCountsItsChainOfChords() {
        let fixes = (0..<10).map { TrackerTests.fix(Double($0 * 30), east: Double($0) * 450) }
        let chords = zip(fixes, fixes.dropFirst()).map { $0.geodesicDistance(to: $1) }
        let (total, decisions) = Self.total(fixes, profile: .driving)
        #expect(decisions.allSatisfy { $0.isAnchor })
        #expect(abs(total - chords.dropLast().reduce(0, +)) < 0.5, "\(total) vs \(chords)")
        #expect(decisions[..<2].allSatisfy { $0.distanceIncrementMetres == 0 })
        for i in 2..<10 {
            #expect(abs(decisions[i].distanceIncrementMetres - chords[i - 2]) < 0.1, "fix \(i)")
        }
        // Halting after the sixth fix: the chord into the halt is followed by none (the fixes stay put), but it
        // agreed with the chord before it, so it counts: all five.
        let halting = fixes[..<6] + (6..<10).map { TrackerTests.fix(Double($0 * 30), east: 5 * 450) }
        let (halted, _) = Self.total(Array(halting), profile: .driving)
        #expect(abs(halted - chords[..<5].reduce(0, +)) < 0.5, "\(halted)")
    }

    /// A walker's logger every 59–61 s (the walking profile's reset gap is 60 s: every other step is one): the
    /// steps after a lone anchor are links of the chain too, and the walk counts within 5 % of its 1.3 m/s.
    @Test func aLoggerAtTheResetGapCountsItsChordsWhicheverSideOfItEachStepFalls() {
        var seconds = 0.0
        var fixes: [Fix] = []
        for i in 0..<40 {
            fixes.append(TrackerTests.fix(seconds, north: seconds * 1.3))
            seconds += i.isMultiple(of: 2) ? 59 : 61
        }
        let truth = zip(fixes, fixes.dropFirst()).map { $0.geodesicDistance(to: $1) }.reduce(0, +)
        let (total, _) = Self.total(fixes)
        #expect(abs(total - truth) < 0.05 * truth, "\(total) of \(truth)")
    }

    /// A still logger every 30 s for two hours on the driving profile, 3 m of white noise per axis (5 m
    /// reported): its chords are within the noise, and the few that are not are followed by one that is or
    /// that heads back. Nothing counts (20 seeds).
    @Test func aStillLoggersChainOfChordsCountsNothing() {
        for seed in 1...20 {
            var random = SplitMix64(seed: UInt64(seed))
            let fixes = (0..<240).map {
                TrackerTests.fix(Double($0 * 30), north: 3 * random.gaussian(), east: 3 * random.gaussian())
            }
            let (total, _) = Self.total(fixes, profile: .driving)
            #expect(total == 0, "seed \(seed): \(total) m")
        }
    }

    /// A still logger every 30 s whose fixes jump 60 m east for three fixes (multipath claiming 5 m) and back:
    /// the way out is followed by a chord within the noise, and so is the way back. Neither counts; nor do jumps
    /// out and back on alternate fixes (each chord heads back along the one before it).
    @Test func aMultipathExcursionInAChainOfResetGapsCountsNothing() {
        for offsets: [Double] in [[0, 0, 0, 60, 60, 60, 0, 0, 0, 0], [0, 0, 60, 0, 60, 0, 60, 0, 0]] {
            let fixes = offsets.enumerated().map { TrackerTests.fix(Double($0.offset * 30), east: $0.element) }
            let (total, _) = Self.total(fixes, profile: .driving)
            #expect(total == 0, "\(offsets): \(total)")
        }
    }

    /// A parked van's logger every 30 s reading 0 (driving profile), with multipath excursions of 150–260 m that
    /// claim 5 m: two single-fix jumps on opposite sides one good fix apart (their chords in and out keep one
    /// heading at 8 m/s: a fleet tester's van counted 1,708 m a night this way), and an excursion of two fixes
    /// that turns by less than 90° on its way. No chord of an excursion counts, with or without the readings.
    /// The same shapes spread along a road (a van driving east, stopped at each fix) count their chords.
    @Test func multipathExcursionsOfAParkedChainCountNothing() {
        // (east, north) of each fix, metres.
        let opposite: [(Double, Double)] = [(0, 0), (0, 0), (-240, 100), (0, 0), (170, -70), (0, 0), (0, 0), (0, 0)]
        let twoFixes: [(Double, Double)] = [(0, 0), (0, 0), (-265, 75), (-40, 80), (0, 0), (0, 0), (0, 0)]
        for (name, points) in [("opposite jumps", opposite), ("two-fix excursion", twoFixes)] {
            for speed: Double? in [0, nil] {
                let fixes = points.enumerated().map {
                    TrackerTests.fix(Double($0.offset * 30), north: $0.element.1, east: $0.element.0, speed: speed)
                }
                let (total, _) = Self.total(fixes, profile: .driving)
                #expect(total == 0, "\(name), speed \(String(describing: speed)): \(total) m")
            }
        }
        // A van every 30 s that drives 240 m east, turns 120 m on and comes back past where it was: the point it
        // turned from was reached moving (not settled), so the turn is no excursion, and its chords count as a
        // moving chain's (readings 0 or none, as above). Without the settled test the turn read as an excursion
        // and the chain lost 476 m.
        for speed: Double? in [0, nil] {
            let east: [Double] = [0, 240, 480, 720, 960, 1_080, 960, 720, 480, 240]
            let fixes = east.enumerated().map {
                TrackerTests.fix(Double($0.offset * 30), east: $0.element, speed: speed)
            }
            let (total, _) = Self.total(fixes, profile: .driving)
            // 1,920 m of chords, less the last (a chain's last chord counts only at `finishTrack()`).
            #expect(abs(total - 1_680) < 0.01 * 1_680, "U-turn, speed \(String(describing: speed)): \(total) m")
        }
        // A zero-reading logger on a van driving east 240 m a step: every chord but the last counts (within the
        // test fixes' degree-to-metre approximation).
        let driving = (0..<8).map { TrackerTests.fix(Double($0 * 30), east: Double($0) * 240, speed: 0) }
        #expect(abs(Self.total(driving, profile: .driving).0 - 6 * 240) < 0.005 * 6 * 240)
    }

    /// A van logging every 10 s (driving profile) at 12 m/s east, then a 70 s outage (a tunnel) after which it
    /// stands at a light 600 m on, reading 0: the track after the outage confirms nothing, and the gap rules
    /// counted 0 m of it; now the outage counts its chord (path ≥ chord; one end read moving). Standing at both
    /// ends (readings 0, a chord within the noise) it counts nothing, and so does a chord faster than 2.5 × the
    /// faster reading (a jump after the outage).
    @Test func anOutageWithAMovingReadingAtOneEndCountsItsChord() {
        func van(after east: Double, reading: Double, before: Double = 12) -> [Fix] {
            var fixes = (0...10).map {
                TrackerTests.fix(Double($0 * 10), east: Double($0) * 10 * before, speed: before, course: 90)
            }
            let start = 100 * before
            fixes += (0..<6).map {
                TrackerTests.fix(Double(170 + $0 * 10), east: start + east, speed: reading, course: 90)
            }
            return fixes
        }
        let beforeOutage = 100.0 * 12
        let (stopped, _) = Self.total(van(after: 600, reading: 0), profile: .driving)
        #expect(abs(stopped - beforeOutage - 600) < 0.01 * 600, "\(stopped - beforeOutage) m across the outage")
        let (still, _) = Self.total(van(after: 3, reading: 0, before: 0), profile: .driving)
        #expect(still == 0, "\(still)")
        let (jump, _) = Self.total(van(after: 2_500, reading: 0), profile: .driving)
        #expect(jump - beforeOutage < 1, "\(jump - beforeOutage) m across the outage")
    }

    /// A chain at a bus's pace (5 m/s every 90 s) on the walking profile: faster than a walker sustains (3 m/s),
    /// so none of its chords counts; the same chain at 1.4 m/s counts all but its last chord (until `finishTrack()`).
    @Test func aChainFasterThanTheTravellerSustainsIsNotCounted() {
        let bus = (0..<10).map { TrackerTests.fix(Double($0 * 90), north: Double($0) * 450) }
        #expect(Self.total(bus).0 == 0)
        let walk = (0..<10).map { TrackerTests.fix(Double($0 * 90), north: Double($0) * 126) }
        let chords = zip(walk, walk.dropFirst()).map { $0.geodesicDistance(to: $1) }
        let (walked, _) = Self.total(walk)
        #expect(abs(walked - chords.dropLast().reduce(0, +)) < 0.5, "\(walked)")
    }

    /// A phone's cached last-known location delivered first (iOS), 300 s old, 400 m from where the live walk starts
    /// and reading 1.4 m/s from its old trip: the chord from it is not counted (an API tester's: 849 → 1,249 m).
    @Test("counts no gap chord from a lone first fix, a phone's cached location")
    func countsNoGapChordFromACachedFirstFix() {
        let live = (0...600).map { TrackerTests.fix(300 + Double($0), north: 1.4 * Double($0), speed: 1.4) }
        let cached = TrackerTests.fix(0, north: -400, speed: 1.4)
        let (alone, _) = Self.total(live)
        let (withCached, _) = Self.total([cached] + live)
        #expect(abs(withCached - alone) < 1, "\(withCached) m with the cached fix, \(alone) m without")
        #expect(abs(alone - 840) < 0.03 * 840, "\(alone)")
        // A session resumed from its total and last fix, 120 s before the walk goes on 168 m further: its chord
        // counts (a reviewer's: with the first fix's count alone it was lost).
        var resumed = Tracker()
        resumed.restore(persistedTotalMetres: 500, lastAccepted: TrackerTests.fix(0, speed: 1.4, course: 0))
        for i in 0...60 {
            _ = resumed.process(TrackerTests.fix(120 + Double(i), north: 168 + 1.4 * Double(i), speed: 1.4))
        }
        #expect(abs(resumed.distance.totalMetres - (500 + 168 + 84)) < 0.05 * 252, "\(resumed.distance.totalMetres)")
    }

    /// At the end of the track (``Tracker/finishTrack()``) a chain's last chord counts when it agreed with the chord
    /// before it, as a chord into a halt does (a tester's drives every 20–120 s each lost their last step: 900 m of
    /// 8,100 at 60 s); a last chord that jumps off a parked logger's noise, or one faster than the traveller
    /// sustains, still counts nothing.
    @Test("counts a chain's last chord at the end of the track when it agreed with the one before")
    func countsAChainsLastChordAtTheEnd() {
        func finished(_ fixes: [Fix], profile: TrackingProfile = .walking) -> (total: Double, atFinish: Double) {
            var t = Tracker(profile: profile)
            for fix in fixes { _ = t.process(fix) }
            let atFinish = t.finishTrack()
            return (t.distance.totalMetres, atFinish)
        }
        let walk = (0..<10).map { TrackerTests.fix(Double($0 * 90), north: Double($0) * 126) }
        let chords = zip(walk, walk.dropFirst()).map { $0.geodesicDistance(to: $1) }
        let walked = finished(walk)
        #expect(abs(walked.atFinish - chords.last!) < 0.5, "\(walked.atFinish) of \(chords.last!) m")
        #expect(abs(walked.total - chords.reduce(0, +)) < 0.5, "\(walked.total)")
        let drive = (0..<10).map { TrackerTests.fix(Double($0 * 60), east: Double($0) * 900, speed: nil) }
        let driven = finished(drive, profile: .driving)
        #expect(abs(driven.total - 8_100) < 0.005 * 8_100, "\(driven.total) of 8,100 m")
        // Faster than a walker sustains: nothing, at the end either.
        let bus = (0..<10).map { TrackerTests.fix(Double($0 * 90), north: Double($0) * 450) }
        #expect(finished(bus).total == 0)
        // A parked logger (within its noise) whose last fix jumps 300 m: its chord agreed with none.
        let parked = (0..<10).map { (i: Int) -> Fix in
            let north: Double = i == 9 ? 300 : Double(i % 2) * 3
            return TrackerTests.fix(Double(i * 60), north: north, east: Double(i % 3) * 2)
        }
        #expect(finished(parked, profile: .driving).total == 0)
        // A chain that turns back at its last fix: the last chord heads back along the one before (no agreement).
        let back = (0..<6).map { (i: Int) -> Fix in
            let north: Double = i == 5 ? 204 : Double(i) * 126
            return TrackerTests.fix(Double(i * 90), north: north)
        }
        let turned = finished(back)
        #expect(turned.atFinish == 0, "\(turned.atFinish)")
    }

    /// A chain's last step that its readings counted already (a sparse step read at both ends) does not count again
    /// at the end of the track: three fixes 100 s apart reading 1.3 m/s counted 390 m of 260 (a CLI tester's; a
    /// drive of three fixes 30 s apart at 15 m/s, 1,352 m of 900), while the decisions' running total said 260.
    @Test("counts a chain's last step once when its readings counted it already")
    func countsAChainsLastStepOnceWhenItsReadingsCountedIt() {
        for (profile, step, speed) in [(TrackingProfile.walking, 100.0, 1.3), (.driving, 30, 15)] {
            for count in 3...5 {
                var t = Tracker(profile: profile)
                let fixes = (0..<count).map {
                    TrackerTests.fix(Double($0) * step, east: Double($0) * step * speed, speed: speed)
                }
                let running = fixes.map { t.process($0).totalDistanceMetres }.last!
                t.finishTrack()
                let truth = Double(count - 1) * step * speed
                #expect(
                    abs(t.distance.totalMetres - truth) < 0.01 * truth,
                    "\(step) s steps, \(count) fixes: \(t.distance.totalMetres) m of \(truth) (running \(running))")
            }
        }
        // A last step its readings judged to count nothing (1.3 then 0 m/s, 35 m in 100 s, no accuracies: within the
        // fallback's noise) still counts as the chain's last chord: a walk into a halt (a reviewer's, 130 m of 165).
        var halt = Tracker(profile: .walking)
        for (seconds, north, speed) in [(0.0, 0.0, 1.3), (100, 130, 1.3), (200, 165, 0)] {
            _ = halt.process(TrackerTests.fix(seconds, north: north, accuracy: nil, speed: speed))
        }
        halt.finishTrack()
        #expect(abs(halt.distance.totalMetres - 165) < 0.01 * 165, "\(halt.distance.totalMetres) m of 165")
    }

    /// A parked phone woken every 1–3 minutes for a burst of four fixes a second apart, the first one 40–120 m off
    /// (a cold fix, 20 m claimed) and the next converging back slowly (the last still 30 % off: Android's doze, a
    /// car in a garage): a burst is not a sparse logger's fix (its end is wherever the convergence stopped), so
    /// the ends of bursts make no chain. Nothing counts (20 seeds of an hour each, driving profile; chaining
    /// the bursts' ends counted 128–287 m on five of them).
    @Test func burstsAfterSilencesAreNoChain() {
        for seed in 1...20 {
            var random = SplitMix64(seed: UInt64(seed))
            var fixes: [Fix] = []
            var seconds = 0.0
            while seconds < 3600 {
                let off = 40 + 80 * random.uniform(), angle = 2 * Double.pi * random.uniform()
                for k in 0..<4 {
                    let shrink = exp(-0.4 * Double(k))
                    fixes.append(
                        TrackerTests.fix(
                            seconds + Double(k), north: off * shrink * cos(angle), east: off * shrink * sin(angle),
                            accuracy: 20 - 4.5 * Double(k)))
                }
                seconds += 60 + 120 * random.uniform()
            }
            let (total, _) = Self.total(fixes, profile: .driving)
            #expect(total == 0, "seed \(seed): \(total) m")
        }
    }

    /// A chain of 30 s fixes (driving, 15 m/s east) that turns into 1 Hz fixes: the chord into the first dense fix
    /// agreed with the one before it, and its pace stands as the speed before that gap, so the dense track after
    /// it confirms it like any gap's: its 450 m count once, half a window into the dense track, and the whole drive
    /// counts (all four chords and the dense track).
    @Test func aChainsLastChordIsConfirmedByADenseTrackAfterIt() {
        let sparse = (0..<5).map { TrackerTests.fix(Double($0 * 30), east: Double($0) * 450) }
        let dense = (121...180).map { TrackerTests.fix(Double($0), east: Double($0) * 15, speed: 15, course: 90) }
        let chords = zip(sparse, sparse.dropFirst()).map { $0.geodesicDistance(to: $1) }
        let (total, decisions) = Self.total(sparse + dense, profile: .driving)
        // (The confirming fix also releases the dense track's first 75 m, held until then.)
        let confirming = decisions[5...].filter { $0.distanceIncrementMetres >= chords[3] }
        #expect(confirming.count == 1, "\(decisions[5...].map(\.distanceIncrementMetres))")
        let expected = chords.reduce(0, +) + dense.first!.geodesicDistance(to: dense.last!)
        #expect(abs(total - expected) < 0.01 * expected, "\(total) vs \(expected)")
    }

    /// A chain at 2 m/s (a slow vehicle, under the 3 m/s a walker sustains) every 90 s, on the walking profile,
    /// with a confident `in vehicle` reading on every other fix: every chord has a reading at one end, so none
    /// counts (each fix's own reading was read as 90 s old, expired, before: 541 m of ride counted as walk); the
    /// same chain without readings counts.
    @Test func aReadingAtEitherEndOfAChainsChordExcludesIt() {
        func ride(reading: ActivityReading?) -> [Fix] {
            (0..<9).map {
                TrackerTests.fix(
                    Double($0 * 90), east: Double($0) * 180, activity: $0.isMultiple(of: 2) ? reading : nil)
            }
        }
        #expect(Self.total(ride(reading: ActivityReading(kind: .inVehicle, confidence: 100))).0 == 0)
        #expect(Self.total(ride(reading: nil)).0 > 1000)
    }

    /// A parked car's logger every 30 s reporting a Doppler speed of 0 at every fix while its position drifts 20 m
    /// a step (driving profile): a chord between two fixes that both read below the deadband is no movement.
    /// Without the speeds the same drift is indistinguishable from a slow crawl and counts.
    @Test func aChainsChordBetweenTwoStillDopplerReadingsIsNoMovement() {
        func parked(speed: Double?) -> [Fix] {
            (0..<9).map { TrackerTests.fix(Double($0 * 30), east: Double($0) * 20, speed: speed) }
        }
        #expect(Self.total(parked(speed: 0), profile: .driving).0 == 0)
        #expect(Self.total(parked(speed: nil), profile: .driving).0 > 100)
    }

    /// A walker at 0.9 m/s whose logger reports no accuracy, every 45 and 75 s in turn (walking: every other step a
    /// reset gap): both kinds of link judge a fix without accuracy by the profile's displacement noise (10 m), as
    /// the gap rules do, not by the accuracy gate's 30 m fallback (a 45 s chord, 40.5 m, is then within a 42 m
    /// threshold; at 1.2 m/s a reviewer's case counted 506 of 3,600 m).
    @Test func aChainWithoutAccuraciesIsJudgedByTheDisplacementNoise() {
        var seconds = 0.0
        var fixes: [Fix] = []
        for i in 0..<40 {
            fixes.append(TrackerTests.fix(seconds, east: seconds * 0.9, accuracy: nil))
            seconds += i.isMultiple(of: 2) ? 45 : 75
        }
        let truth = zip(fixes, fixes.dropFirst()).map { $0.geodesicDistance(to: $1) }.reduce(0, +)
        let (total, _) = Self.total(fixes)
        #expect(abs(total - truth) < 0.05 * truth, "\(total) of \(truth)")
    }

    /// Each chord of a chain is judged by the accuracies of its own two fixes (a reviewer's case, walking, a fix
    /// every 65 s): a still receiver claiming 3 m, one fix 27 m west claiming 28 m (an excursion that says so),
    /// one 21 m north claiming 9 m. Judged by its own ends, each jump is within its noise; judged by the next
    /// fix's accuracy (the window holds no fix but the lone anchor, whose accuracy its sums leave out) the way
    /// back from the first and out to the second counted 48 m.
    @Test func aChainsChordsAreJudgedByTheirOwnEndsAccuracies() {
        let steps: [(east: Double, north: Double, accuracy: Double)] = [
            (0, 0, 3), (0, 0, 3), (-27, 0, 28), (0, 0, 3), (0, 21, 9), (0, 0, 3), (0, 0, 3),
        ]
        let fixes = steps.enumerated().map {
            TrackerTests.fix(
                Double($0.offset * 65), north: $0.element.north, east: $0.element.east, accuracy: $0.element.accuracy)
        }
        #expect(Self.total(fixes).0 == 0)
    }

    /// A logger that writes two fixes a second apart at each wake, every 2 minutes (walking at 1.4 m/s): each pair
    /// is a point of the chain (its two fixes agree within their noise), so the walk counts its chords but the
    /// last (counted nothing before: the anchor was not lone).
    @Test func pairsOfFixesAtEachWakeAreAChainsPoints() {
        var fixes: [Fix] = []
        for k in 0..<20 {
            let wake = Double(120 * k)
            fixes.append(TrackerTests.fix(wake, east: 1.4 * wake))
            fixes.append(TrackerTests.fix(wake + 1, east: 1.4 * (wake + 1)))
        }
        let (total, _) = Self.total(fixes)
        let truth = fixes.first!.geodesicDistance(to: fixes.last!)
        #expect(total > 0.9 * truth && total < truth, "\(total) of \(truth)")
    }

    /// A bus logged every 90 s on the walking profile, 225 m a step (2.5 m/s on average: under the 3 m/s a walker
    /// sustains) with a Doppler speed of 6.5 m/s at every fix: the Doppler says vehicle at both ends of every
    /// chord, so nothing counts (1,350 m of walk before); without the speeds the chain counts it.
    @Test func aChainWhoseFixesReadAVehiclesDopplerIsNotAWalk() {
        func bus(speed: Double?) -> [Fix] {
            (0..<8).map { TrackerTests.fix(Double($0 * 90), north: Double($0) * 225, speed: speed, course: 0) }
        }
        #expect(Self.total(bus(speed: 6.5)).0 == 0)
        #expect(Self.total(bus(speed: nil)).0 > 1000)
    }

    /// A car on the cycling profile logged every 35 s, `in vehicle` on every fix but confident (90 %) only on
    /// every fourth: the chain's vehicle latch holds the chords starting within the exit time (120 s) of the
    /// last confident reading, as the dense path's latch does (840 m counted as a ride without it; at 1 Hz, 0).
    @Test func aConfidentVehicleReadingLatchesTheChain() {
        let fixes = (0..<10).map {
            TrackerTests.fix(
                Double($0 * 35), north: Double($0) * 420,
                activity: ActivityReading(kind: .inVehicle, confidence: $0.isMultiple(of: 4) ? 90 : 60))
        }
        #expect(Self.total(fixes, profile: .cycling).0 == 0)
        // The same ride read at 60 % throughout says nothing, and counts.
        let unsure = (0..<10).map {
            TrackerTests.fix(
                Double($0 * 35), north: Double($0) * 420, activity: ActivityReading(kind: .inVehicle, confidence: 60))
        }
        #expect(Self.total(unsure, profile: .cycling).0 > 2000)
    }

    /// A bus at 1 Hz (5 m/s, over a walker's sustained 3 m/s: the dense vehicle latch), then a walk logged every
    /// 90 s for an hour: the chain cannot see the slow spell that would release the dense latch, so the latch
    /// becomes the chain's own and holds only the chords starting within its exit time (it held the whole walk
    /// before: 0 m of 4.4 km). A profile whose exit time is ∞ holds the chain for good (it trapped converting the
    /// time); one whose exit time is negative never holds it (it held every chord).
    @Test func aVehicleLatchedOnADenseTrackReleasesAChainAfterItsExitTime() {
        let bus = (0...300).map { TrackerTests.fix(Double($0), north: Double($0) * 5, speed: 5, course: 0) }
        let walk = (1...40).map { TrackerTests.fix(300 + Double($0 * 90), north: 1500 + Double($0) * 117) }
        let (alone, _) = Self.total(walk)
        let (after, _) = Self.total(bus + walk)
        #expect(alone > 4000)
        #expect(after > alone - 3 * 117, "\(after) after the bus, \(alone) alone")
        var never = TrackingProfile.walking
        never.vehicleExitSeconds = .infinity
        // Never released: the walk after the bus counts nothing (and the exit time's conversion does not trap).
        #expect(Self.total(bus + walk, profile: never).0 == Self.total(bus, profile: never).0)
        var instant = TrackingProfile.walking
        instant.vehicleExitSeconds = -1
        #expect(Self.total(walk, profile: instant).0 == alone)
    }

    /// A car driving a 600 m square at 12 m/s, logged every 19.5 and 20.5 s in turn (a tracker reporting every
    /// 20 s with jitter) with 2 m of noise and no speeds: every step from the first reset gap on stays a reset
    /// gap (16 s after one, ``Tracker/resetGapHysteresis``), so the chain rules judge them all; alternating
    /// between the chains and the dense path's bridge, it counted 83–88 % of the drive (measured here, four seeds),
    /// now 91.4–91.6 % (the chords cut the square's corners: without the noise their sum is 93.8 %).
    @Test func aLoggerWhoseStepsStraddleTheResetGapStaysInOneRegime() {
        func position(_ t: Double) -> (east: Double, north: Double) {
            let d = (12 * t).truncatingRemainder(dividingBy: 2400), side = Int(d / 600), along = d - Double(side) * 600
            switch side {
            case 0: return (along, 0)
            case 1: return (600, along)
            case 2: return (600 - along, 600)
            default: return (0, 600 - along)
            }
        }
        let times = Self.straddlingTimes(60)
        for seed: UInt64 in 1...4 {
            var random = SplitMix64(seed: seed)
            let fixes = times.map { t in
                let p = position(t)
                return TrackerTests.fix(t, north: p.north + 2 * random.gaussian(), east: p.east + 2 * random.gaussian())
            }
            let (total, decisions) = Self.total(fixes, profile: .driving)
            let truth = 12 * times.last!
            print("straddling logger, seed \(seed): \(total) m of \(truth)")
            let firstGap = decisions.firstIndex { $0.isAnchor && $0.timestamp != fixes[0].timestamp }!
            #expect(decisions[firstGap...].allSatisfy { $0.isAnchor }, "seed \(seed)")
            #expect(total > 0.9 * truth && total < 0.93 * truth, "seed \(seed): \(total) m of \(truth)")
        }
    }

    /// A 1 Hz drive with silences: one of 25 s (a reset gap), straight followed by one of 17 s, and later another
    /// of 17 s. A silence after a dense step lowers nothing, so both 17 s steps are bridged, not reset gaps (the
    /// hysteresis is for a logger's cadence: the u-blox F9K's 1 Hz drive with 6–40 s outages read −2.1 % instead
    /// of −0.9 % when every reset gap lowered it).
    @Test func aDenseTracksSilencesKeepTheResetGap() {
        var times = Array(0...60).map(Double.init)
        times += [85, 102] + Array(103...160).map(Double.init)
        times += [177] + Array(178...200).map(Double.init)
        let fixes = times.map { TrackerTests.fix($0, east: 12 * $0) }
        let (_, decisions) = Self.total(fixes, profile: .driving)
        func decision(at seconds: Double) -> FixDecision { decisions[times.firstIndex(of: seconds)!] }
        #expect(decision(at: 85).isAnchor)
        #expect(!decision(at: 102).isAnchor)
        #expect(!decision(at: 177).isAnchor)
    }

    /// The run of reset gaps ends at the first step that is none (a 1 Hz stretch after the straddling logger: a
    /// later 17 s silence is bridged again) and when the profile changes.
    @Test func aShortStepOrAProfileChangeEndsTheRunOfResetGaps() {
        func straddling() -> Tracker {
            var tracker = Tracker(profile: .driving)
            for t in Self.straddlingTimes(6) { _ = tracker.process(TrackerTests.fix(t, east: 12 * t)) }
            return tracker
        }
        var tracker = straddling()
        #expect(tracker.resetGapThresholdSeconds == 16)
        var t = Self.straddlingTimes(6).last!
        for _ in 0..<5 {
            t += 1
            _ = tracker.process(TrackerTests.fix(t, east: 12 * t))
        }
        #expect(tracker.resetGapThresholdSeconds == 20)
        t += 17
        #expect(!tracker.process(TrackerTests.fix(t, east: 12 * t)).isAnchor)
        var other = straddling()
        other.changeProfile(to: .cycling)
        #expect(other.resetGapThresholdSeconds == TrackingProfile.cycling.filterResetGapSeconds)
    }

    /// `count` fix times from 0 s, 19.5 and 20.5 s apart in turn: a tracker reporting every 20 s with jitter,
    /// its steps either side of the driving profile's 20 s reset gap.
    static func straddlingTimes(_ count: Int) -> [Double] {
        (0..<count).map { i -> Double in
            let pair = Double(i / 2) * 40
            return i % 2 == 1 ? pair + 19.5 : pair
        }
    }
}
