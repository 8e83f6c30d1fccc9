import Foundation
import Testing

@testable import TrueTrackCore

/// ``Tracker/startNewLeg()``: an app's "Pause" … "Resume" with no fixes in between.
@Suite struct TrackerLegTests {
    /// A 600 s walk east at 1.4 m/s, a fix a second with ±2 m of deterministic jitter, claiming 5 m; with `readings`,
    /// Doppler speed and course.
    static func walk(readings: Bool) -> [Fix] {
        (0..<600).map { s in
            let jitter = 2 * sin(Double(s) * 1.7), across = 2 * cos(Double(s) * 2.3)
            return TrackerTests.fix(
                Double(s), north: across, east: 1.4 * Double(s) + jitter, speed: readings ? 1.4 : nil,
                course: readings ? 90 : nil)
        }
    }

    @Test(
        "does not count the way walked during a pause the app sent no fixes through",
        arguments: [true, false])
    func pauseIsNotBridged(readings: Bool) {
        let walk = Self.walk(readings: readings)
        let paused = 300..<420  // 168 m walked while paused
        var bridged = Tracker(profile: .walking), legs = Tracker(profile: .walking)
        for (i, fix) in walk.enumerated() where !paused.contains(i) {
            _ = bridged.process(fix)
            if i == paused.lowerBound - 1 {
                // "Pause" after the last fix before it (at "Resume", before the first fix after it, is the same).
                let before = legs.distance.totalMetres
                _ = legs.process(fix)
                let counted = legs.startNewLeg()
                #expect(counted >= 0 && legs.distance.totalMetres >= before)
                continue
            }
            _ = legs.process(fix)
        }
        _ = bridged.finishTrack()
        _ = legs.finishTrack()
        let walked = 1.4 * Double(walk.count - 1 - paused.count)  // 672 m outside the pause
        #expect(bridged.distance.totalMetres > walked + 150, "\(bridged.distance.totalMetres)")
        #expect(abs(legs.distance.totalMetres - walked) < 0.1 * walked, "\(legs.distance.totalMetres) of \(walked)")
    }

    @Test("keeps the total and the time order across a new leg")
    func keepsTotalAndOrder() {
        let walk = Self.walk(readings: true)
        var tracker = Tracker(profile: .walking)
        for fix in walk[..<200] { _ = tracker.process(fix) }
        let before = tracker.distance.totalMetres
        tracker.startNewLeg()
        #expect(tracker.distance.totalMetres >= before && before > 200)
        #expect(tracker.lastAcceptedTime == walk[199].timestamp)
        // A fix from before the break is still out of order; the next newer one anchors (counts nothing).
        #expect(tracker.process(walk[150]).rejection == .outOfOrder)
        let anchor = tracker.process(walk[400])
        #expect(anchor.isAccepted && anchor.distanceIncrementMetres == 0)
        #expect(tracker.distance.totalMetres == anchor.totalDistanceMetres)
    }

    /// `walk` in order through a plain tracker: to 299 s, "Pause", nothing until 420 s, "Resume".
    static func pausedInOrder(_ walk: [Fix]) -> Tracker {
        var plain = Tracker(profile: .walking)
        for fix in walk[..<300] { _ = plain.process(fix) }
        plain.startNewLeg()
        for fix in walk[420...] { _ = plain.process(fix) }
        return plain
    }

    @Test("a rewinding tracker replays a new leg where it fell in time")
    func rewindingReplaysTheBreak() {
        let walk = Self.walk(readings: true)
        let plain = Self.pausedInOrder(walk)
        // Delivered out of order: 200–249 s come last, after the break and the walk after the pause.
        var rewinding = RewindingTracker(profile: .walking)
        _ = rewinding.process(batch: Array(walk[..<200]))
        _ = rewinding.process(batch: Array(walk[250..<300]))
        rewinding.startNewLeg()
        _ = rewinding.process(batch: Array(walk[420...]))
        let late = rewinding.process(batch: Array(walk[200..<250]))
        #expect(late.decisions.allSatisfy { $0.isAccepted })
        #expect(rewinding.tracker.distance == plain.distance)
        #expect(rewinding.totalMetres < 1.4 * 500)  // the 168 m of the pause are not in it
    }

    /// Fixes dated inside a long pause that arrive after it (a late batch): out of order, and no proof of a clock fault
    /// (a reviewer's 10 fixes from inside a 700 s pause restarted the tracker and counted +125 m from the pause point).
    @Test("keeps fixes dated inside a pause out when they arrive after it")
    func lateFixesInsideAPauseAreOutOfOrder() {
        // Within two minutes of "Resume": inside a jump that recent, older fixes may still prove a wrong clock
        // (`ClockJumpRun.judgedJumpFollowSeconds`).
        let walk = (0..<1_060).map { s in
            TrackerTests.fix(Double(s), east: 1.4 * Double(s) + 2 * sin(Double(s) * 1.7), speed: 1.4, course: 90)
        }
        var tracker = Tracker(profile: .walking)
        for fix in walk[..<300] { _ = tracker.process(fix) }
        tracker.startNewLeg()
        for fix in walk[1_000...] { _ = tracker.process(fix) }
        let total = tracker.distance.totalMetres
        for fix in walk[400..<410] { #expect(tracker.process(fix).rejection == .outOfOrder) }
        #expect(tracker.distance.totalMetres == total)
        // A plain silence as long is still open to the clock-jump rule (its fixes may prove a wrong clock).
        var silent = Tracker(profile: .walking)
        for fix in walk[..<300] { _ = silent.process(fix) }
        for fix in walk[1_000...] { _ = silent.process(fix) }
        #expect(walk[400..<410].contains { silent.process($0).isAccepted })
    }

    /// A late fix dated inside a declared pause, delivered to a rewinding tracker after it: out of order, as for the
    /// plain tracker (anchoring the new leg, a reviewer's fix 70 s before "Resume" counted +99 m).
    @Test("a rewinding tracker keeps a late fix dated inside a pause out")
    func rewindingKeepsLateFixesInsideAPauseOut() {
        let walk = Self.walk(readings: true)
        let plain = Self.pausedInOrder(walk)
        var rewinding = RewindingTracker(profile: .walking)
        _ = rewinding.process(batch: Array(walk[..<300]))
        rewinding.startNewLeg()
        _ = rewinding.process(batch: Array(walk[420...]))
        let late = rewinding.process(batch: [walk[350]])
        #expect(late.decisions.first?.rejection == .outOfOrder)
        #expect(rewinding.tracker.distance == plain.distance)
        // A late fix from before the pause is still replayed.
        var gapped = RewindingTracker(profile: .walking)
        _ = gapped.process(batch: Array(walk[..<250]) + Array(walk[260..<300]))
        gapped.startNewLeg()
        _ = gapped.process(batch: Array(walk[420...]))
        let before = gapped.process(batch: Array(walk[250..<260]))
        #expect(before.decisions.allSatisfy { $0.isAccepted })
        #expect(gapped.tracker.distance == plain.distance)
    }
}
