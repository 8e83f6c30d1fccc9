/// A ``Tracker`` that takes late fixes: a fix older than the last one accepted, but within
/// ``horizonSeconds`` of the newest fix, rewinds the tracker to a state from before it and the recent fixes are
/// processed again with it in time order, as if they had all arrived in order.
///
/// A plain ``Tracker`` rejects such a fix as out of order (counting its stretch after the newer fixes would
/// count the stretch twice), so a phone that delivers a fresh fix and then the backlog it deferred while the
/// screen was off loses the whole backlog. This type keeps the fixes of the last ``horizonSeconds`` and a copy
/// of the tracker every ``snapshotInterval`` fixes (the tracker is a 3.4 KB value: a copy is a `memcpy`), so a
/// late batch costs one replay of the fixes since the snapshot before it.
///
/// Guarantees:
/// - Fixes that arrive in time order get exactly the plain tracker's decisions.
/// - Any delivery order within the horizon ends in exactly the state (decisions, distance) of the same fixes
///   processed in time order, unless an earlier delivery order had already shown a larger total: the total
///   never decreases (``Tracker/restore(persistedTotalMetres:)`` keeps the larger value), so a total that a
///   late fix lowers stays where it was shown.
/// - A fix older than the horizon is rejected as out of order, as the plain tracker rejects it.
///
/// Decisions already returned for fixes that are processed again may change (the late fix changes the
/// filter's view of them): ``Result/revised`` holds their new decisions, in time order.
///
/// Memory: the fixes of the horizon (about 100 B each: 90 KB for 15 minutes at 1 Hz) and one tracker copy per
/// ``snapshotInterval`` fixes (3.4 KB each: 52 KB for 15 minutes at 1 Hz). In-order fixes cost one append and,
/// every ``snapshotInterval`` fixes, one copy; no allocation once the buffers have grown to the horizon.
public struct RewindingTracker: Sendable {
    /// The outcome of processing fixes.
    public struct Result: Sendable {
        /// One decision per fix given, in the order given.
        public var decisions: [FixDecision]
        /// The new decisions of fixes processed before that a late fix made the tracker process again, in time
        /// order (empty when nothing was late): they replace the decisions returned for those fixes.
        public var revised: [FixDecision]
    }

    /// The tracker in its current state (after every fix in time order).
    public private(set) var tracker: Tracker
    /// How far back (seconds, from the newest fix) a late fix is still taken. Default 900 s: Android and iOS
    /// defer location updates while the screen is off for minutes (Android's batching intervals are usually
    /// set to 1–15 minutes); older fixes are rejected as out of order.
    public let horizonSeconds: Double
    /// How many fixes between two copies of the tracker. Default 64: a late fix replays at most this many
    /// fixes more than it must, for a copy of 3.4 KB every 64 fixes (55 bytes per fix).
    public let snapshotInterval: Int

    /// The fixes processed, in time order (stable: equal times in arrival order), from the oldest snapshot on.
    var history: [Fix] = []
    /// Copies of the tracker, each taken before `history[index]` was processed, oldest first.
    var snapshots: [(tracker: Tracker, index: Int)] = []
    /// The largest total shown so far (the total never decreases).
    var shownTotalMetres = 0.0

    /// A rewinding tracker with `profile`.
    ///
    /// - Parameters:
    ///   - horizonSeconds: see ``horizonSeconds`` (clamped to 0 … the profile's ``TrackingProfile/clockJumpSeconds``:
    ///     a fix older than that is the tracker's clock-jump business).
    ///   - snapshotInterval: see ``snapshotInterval`` (at least 1).
    public init(profile: TrackingProfile = .walking, horizonSeconds: Double = 900, snapshotInterval: Int = 64) {
        tracker = Tracker(profile: profile)
        let horizon = horizonSeconds.isNaN ? 0 : horizonSeconds
        self.horizonSeconds = min(max(horizon, 0), profile.clockJumpSeconds)
        self.snapshotInterval = max(snapshotInterval, 1)
    }

    /// Processes one fix (see ``process(batch:)``).
    public mutating func process(_ fix: Fix) -> Result {
        process(batch: [fix])
    }

    /// Processes a batch: fixes newer than every fix so far go straight to the tracker (in time order); a late
    /// one, within the horizon, rewinds the tracker to the newest copy taken before it, and every fix since that
    /// copy is processed again together with the batch, in time order. Fixes older than the horizon go to the
    /// tracker as they are (it rejects them as out of order, or restarts on a clock jump, which lets the kept
    /// fixes go).
    public mutating func process(batch: [Fix]) -> Result {
        var decisions = [FixDecision?](repeating: nil, count: batch.count)
        var order = batch.indicesInTimeOrder(by: \.timestamp)[...]
        // Older than the horizon: not rewound.
        if let newest = history.last?.timestamp {
            let acceptedBefore = tracker.lastAcceptedTime
            while let i = order.first, batch[i].timestamp.seconds(to: newest) > horizonSeconds {
                decisions[i] = tracker.process(batch[i])
                order = order.dropFirst()
            }
            if let before = acceptedBefore, let after = tracker.lastAcceptedTime, after < before {
                // The tracker restarted on a clock jump: the kept fixes belong to the wrong time line.
                history.removeAll(keepingCapacity: true)
                snapshots.removeAll(keepingCapacity: true)
            }
        }
        var revised: [FixDecision] = []
        if let first = order.first, let newest = history.last?.timestamp, batch[first].timestamp < newest,
            let start = rewindPoint(before: batch[first].timestamp)
        {
            // Rewind: the fixes since the copy, merged with the batch in time order (a batch fix after kept fixes
            // of the same time, which the tracker then judges as it would have in that order).
            let snapshot = snapshots[start]
            let kept = Array(history[snapshot.index...])
            history.removeSubrange(snapshot.index...)
            snapshots.removeSubrange((start + 1)...)
            tracker = snapshot.tracker
            revised.reserveCapacity(kept.count)
            var k = 0
            for i in order {
                while k < kept.count && kept[k].timestamp <= batch[i].timestamp {
                    revised.append(record(kept[k]))
                    k += 1
                }
                decisions[i] = record(batch[i])
            }
            while k < kept.count {
                revised.append(record(kept[k]))
                k += 1
            }
        } else {
            for i in order { decisions[i] = record(batch[i]) }
        }
        finish()
        return Result(decisions: decisions.map { $0! }, revised: revised)
    }

    /// The index in `snapshots` of the newest copy taken after no kept fix newer than `time` (so that a fix at
    /// `time` can be merged after the fixes it had seen), or `nil` when there is none.
    func rewindPoint(before time: Timestamp) -> Int? {
        var found: Int?
        for (s, snapshot) in snapshots.enumerated() {
            // The copy taken before history[index]: every fix before it is older than `time` or equal (equal
            // times keep arrival order).
            if snapshot.index == 0 || history[snapshot.index - 1].timestamp <= time { found = s } else { break }
        }
        return found
    }

    /// Processes `fix` with the tracker, keeping it (and a copy of the tracker every ``snapshotInterval``
    /// fixes).
    mutating func record(_ fix: Fix) -> FixDecision {
        if history.count - (snapshots.last?.index ?? -snapshotInterval) >= snapshotInterval {
            snapshots.append((tracker, history.count))
        }
        history.append(fix)
        return tracker.process(fix)
    }

    /// After a batch: the total never decreases, and what is older than the horizon is let go (keeping the
    /// newest copy from before it, so that a fix just inside the horizon can still rewind).
    mutating func finish() {
        tracker.restore(persistedTotalMetres: shownTotalMetres)
        shownTotalMetres = tracker.distance.totalMetres
        guard let newest = history.last?.timestamp, snapshots.count > 1 else { return }
        var drop = 0
        while drop + 1 < snapshots.count {
            let next = snapshots[drop + 1]
            // The copy after the next one must still reach back to the horizon's start.
            guard next.index > 0, history[next.index - 1].timestamp.seconds(to: newest) > horizonSeconds else {
                break
            }
            drop += 1
        }
        guard drop > 0 else { return }
        let removed = snapshots[drop].index
        snapshots.removeFirst(drop)
        history.removeFirst(removed)
        for s in snapshots.indices { snapshots[s].index -= removed }
    }
}
