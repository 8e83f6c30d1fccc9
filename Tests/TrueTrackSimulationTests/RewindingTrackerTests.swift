import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackCore

/// The rewinding tracker: late fixes within the horizon are taken as if they had arrived in order.
@Suite struct RewindingTrackerTests {
    /// The walk with stops on the degraded phone, in time order (no duplicates: the delivery model's are
    /// the plain tracker's business, tested elsewhere).
    static func walk(seed: UInt64) -> [Fix] {
        Simulator.simulate(.walkWithStops, errors: .degradedPhone, seed: seed).fixes
    }

    static func inOrder(_ fixes: [Fix]) -> (Tracker, [FixDecision]) {
        var tracker = Tracker(profile: .walking)
        let decisions = fixes.map { tracker.process($0) }
        return (tracker, decisions)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func fixesInOrderGetThePlainTrackersDecisions(seed: UInt64) {
        let fixes = Self.walk(seed: seed)
        let (plain, expected) = Self.inOrder(fixes)
        var rewinding = RewindingTracker(profile: .walking)
        var decisions: [FixDecision] = []
        var start = 0
        var rng = SplitMix64(seed: seed)
        while start < fixes.count {
            let end = min(fixes.count, start + Int.random(in: 1...40, using: &rng))
            let result = rewinding.process(batch: Array(fixes[start..<end]))
            #expect(result.revised.isEmpty)
            decisions += result.decisions
            start = end
        }
        #expect(decisions == expected)
        #expect(rewinding.tracker.distance == plain.distance)
        // Memory stays at the horizon: 900 s at 1 Hz and two copies' worth of fixes.
        #expect(rewinding.history.count <= 900 + 2 * rewinding.snapshotInterval)
        #expect(rewinding.snapshots.count <= 900 / rewinding.snapshotInterval + 3)
    }

    /// A phone woken after 10 minutes delivers a fresh fix first, then the 10 minutes it deferred: the plain
    /// tracker rejects the whole backlog as out of order; the rewinding one ends exactly where in-order
    /// processing does, and revises the fresh fix's decision.
    @Test(arguments: [1, 2] as [UInt64])
    func aBacklogAfterAFreshFixIsNotLost(seed: UInt64) throws {
        let fixes = Self.walk(seed: seed)
        let (plain, expected) = Self.inOrder(fixes)
        let wake = fixes.count / 2
        let backlogStart = try #require(
            fixes.firstIndex { $0.timestamp.seconds(to: fixes[wake].timestamp) <= 600 })
        var rewinding = RewindingTracker(profile: .walking)
        var naive = Tracker(profile: .walking)
        for fix in fixes[..<backlogStart] {
            _ = rewinding.process(fix)
            _ = naive.process(fix)
        }
        let fresh = rewinding.process(fixes[wake])
        _ = naive.process(fixes[wake])
        let backlog = Array(fixes[backlogStart..<wake])
        let result = rewinding.process(batch: backlog)
        let naiveDecisions = naive.process(batch: backlog)
        #expect(naiveDecisions.allSatisfy { $0.rejection == .outOfOrder })
        #expect(result.decisions == Array(expected[backlogStart..<wake]))
        // Revised: the fixes since the copy the tracker rewound to (the same decisions again) and the fresh fix,
        // whose decision changes (it had followed a 10-minute gap: an anchor).
        let replayed = result.revised.count - 1
        #expect(replayed < rewinding.snapshotInterval)
        #expect(result.revised == Array(expected[(backlogStart - replayed)..<backlogStart]) + [expected[wake]])
        #expect(fresh.decisions[0].isAnchor && !expected[wake].isAnchor)
        for fix in fixes[(wake + 1)...] {
            _ = rewinding.process(fix)
            _ = naive.process(fix)
        }
        #expect(rewinding.tracker.distance == plain.distance)
        #expect(naive.distance.totalMetres < plain.distance.totalMetres - 100, "\(naive.distance.totalMetres)")
    }

    /// Batches delivered late by up to five minutes in random order: the total ends where in-order processing
    /// ends (or above it, where a delivery order had shown more: the total never decreases), never below.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func shuffledDeliveryWithinTheHorizonEndsWhereInOrderDoes(seed: UInt64) {
        let fixes = Self.walk(seed: seed)
        let (plain, _) = Self.inOrder(fixes)
        var rng = SplitMix64(seed: seed &+ 100)
        var batches: [(due: Double, fixes: [Fix])] = []
        var start = 0
        while start < fixes.count {
            let end = min(fixes.count, start + Int.random(in: 1...30, using: &rng))
            let due =
                fixes[end - 1].timestamp.seconds(to: fixes[0].timestamp) * -1 + Double.random(in: 0...300, using: &rng)
            batches.append((due, Array(fixes[start..<end])))
            start = end
        }
        batches.sort { $0.due < $1.due }
        var rewinding = RewindingTracker(profile: .walking)
        var shown = 0.0
        for batch in batches {
            _ = rewinding.process(batch: batch.fixes)
            #expect(rewinding.tracker.distance.totalMetres >= shown)
            shown = rewinding.tracker.distance.totalMetres
        }
        let total = rewinding.tracker.distance.totalMetres
        print("seed \(seed): shuffled \(total) m, in order \(plain.distance.totalMetres) m")
        #expect(total >= plain.distance.totalMetres)
        #expect(total - plain.distance.totalMetres < 0.01 * plain.distance.totalMetres)
    }

    /// A clock jump (the fixes so far were dated a day ahead): the plain tracker restarts on the third fix of
    /// the right time; the kept fixes of the wrong time line are let go, and the walk goes on from there.
    @Test func aClockJumpLetsTheKeptFixesGo() throws {
        let fixes = Self.walk(seed: 1)
        func shifted(_ fix: Fix, days: Double) throws -> Fix {
            try fix.retimed(
                to: Timestamp(millisecondsSince1970: fix.timestamp.millisecondsSince1970 + Int64(days * 86_400_000)))
        }
        var rewinding = RewindingTracker(profile: .walking)
        for fix in fixes[0..<100] { _ = rewinding.process(try shifted(fix, days: 2)) }
        let result = rewinding.process(batch: Array(fixes[100..<103]))
        #expect(result.decisions.map(\.rejection) == [.outOfOrder, .outOfOrder, nil])
        #expect(rewinding.history.isEmpty)
        let next = rewinding.process(fixes[103])
        #expect(next.decisions[0].isAccepted)
        #expect(rewinding.history.count == 1)
    }

    /// A fix older than the horizon is rejected as out of order, as by the plain tracker, and is not kept.
    @Test func aFixOlderThanTheHorizonIsRejected() {
        let fixes = Self.walk(seed: 1)
        var rewinding = RewindingTracker(profile: .walking, horizonSeconds: 60)
        for fix in fixes[100..<400] { _ = rewinding.process(fix) }
        let kept = rewinding.history.count
        let result = rewinding.process(fixes[50])
        #expect(result.decisions[0].rejection == .outOfOrder)
        #expect(result.revised.isEmpty)
        #expect(rewinding.history.count == kept)
    }
}
