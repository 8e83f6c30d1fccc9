/// A ``Tracker`` that takes late fixes: a fix older than the newest one processed, but within
/// ``horizonSeconds`` of the last one accepted, rewinds the tracker to a copy of itself from before that fix and
/// the fixes since are processed again with it in time order, as if they had all arrived in order.
///
/// A plain ``Tracker`` rejects such a fix as out of order (counting its stretch after the newer fixes would
/// count the stretch twice), so a phone that delivers a fresh fix and then the backlog it deferred while the
/// screen was off loses the whole backlog once a fix newer than the fresh one has been accepted (before that,
/// the fresh fix is a forward jump nothing confirmed, and the backlog's third fix restarts the plain tracker:
/// see ``TrackingProfile/clockJumpSeconds``; two fixes and a new anchor's window are lost). This type keeps the recent fixes and a copy of the tracker every
/// ``snapshotInterval`` fixes (the tracker is a 5.3 KB value: a copy is a `memcpy`), so a late batch costs one
/// replay of the fixes since the copy before it.
///
/// Guarantees:
/// - Fixes that arrive in time order get exactly the plain tracker's decisions.
/// - After any delivery order within the horizon (and within the last ``maximumKeptFixes`` fixes), ``tracker``
///   is exactly the tracker that processed the same fixes in time order (decisions, distance). ``totalMetres``,
///   the total to show, never decreases: it is the larger of that tracker's total and the largest total shown
///   before (an earlier order can show a larger one for a while; it does not add up: the tracker's own total
///   goes on from the in-order value).
///   Show ``totalMetres``: a decision's ``FixDecision/totalDistanceMetres`` is the running total at its fix in
///   time order, so a late fix's is below the present total.
/// - A fix older than the horizon (from the last accepted fix), or than a fix already let go, goes to the
///   tracker as it is, after the rest of its batch: rejected as out of order, or the end of a clock-jump run
///   that restarts it (the kept fixes are then let go). It is not kept, so a later rewind forgets its effect
///   on the tracker (a clock-jump run then counts again from the rewind).
/// - A rejected fix dated further ahead of the last accepted one than the horizon is not kept either (kept, it
///   would make every later fix rewind until the clock caught up).
///
/// Decisions already returned for fixes that are processed again may change (the late fix changes the
/// filter's view of them): ``BatchOutcome/revised`` holds their new decisions, in time order.
///
/// Activity readings reach the tracker on the fixes (``Fix/activity``), so that a replay sees them again.
///
/// Memory: the fixes of up to about twice the horizon (about 100 B each: 90–180 KB for 15 minutes at 1 Hz), up
/// to about twice ``maximumKeptFixes`` (old fixes are let go once half the kept ones can go, so that each is
/// moved about once), and one tracker copy per ``snapshotInterval`` fixes (5.3 KB each: 75–150 KB). A fix in
/// order costs one append and, every ``snapshotInterval`` fixes, one copy, and letting go of old fixes moves the
/// kept ones down (about once each): 1,310 instructions per fix against the plain tracker's 745 (2026-12-06, callgrind,
/// `truetrack-benchmarks --instructions`, the `rewinding-tracker` case; the tracker is called out of line, see
/// ``process(_:with:)``), and no allocation once the buffers have grown to the horizon.
public struct RewindingTracker: Sendable {
    /// The outcome of processing a batch.
    public struct BatchOutcome: Sendable {
        /// One decision per fix given, in the order given.
        public var decisions: [FixDecision]
        /// The new decisions of fixes processed before that a late fix made the tracker process again, in time
        /// order (empty when nothing was late): they replace the decisions returned for those fixes.
        public var revised: [FixDecision]
        /// The fixes ``revised`` is about, in the same order (`revised[i]` is the new decision of
        /// `revisedFixes[i]`): what `FixBuffer.revise(_:of:sessionID:)` matches stored rows with. Every fix of a
        /// time is in it or none (a rewind never starts between two fixes of one time, nor are the fixes before
        /// such a point let go), unless the cap (``maximumKeptFixes``) let go of some (a stopped clock's fixes).
        public var revisedFixes: [Fix] = []
    }

    /// The outcome of processing one fix.
    public struct Outcome: Sendable {
        /// The fix's decision.
        public var decision: FixDecision
        /// As ``BatchOutcome/revised``: new decisions of fixes processed again because this one was late (empty
        /// when it was not).
        public var revised: [FixDecision] { revision?.decisions ?? [] }
        /// As ``BatchOutcome/revisedFixes``: the fixes ``revised`` is about, in the same order.
        public var revisedFixes: [Fix] { revision?.fixes ?? [] }
        /// Both, `nil` for a fix in order (the usual case): one reference the caller releases, where two arrays
        /// cost the `rewinding-tracker` benchmark 27 instructions per fix.
        let revision: Revision?

        /// A late fix's revision: the new decisions and the fixes they are about.
        final class Revision: Sendable {
            let decisions: [FixDecision]
            let fixes: [Fix]

            init(decisions: [FixDecision], fixes: [Fix]) {
                self.decisions = decisions
                self.fixes = fixes
            }
        }
    }

    /// The tracker in its current state: exactly the tracker that processed every fix so far in time order.
    public private(set) var tracker: Tracker
    /// How far back (seconds, from the last accepted fix) a late fix is still taken. Default 900 s: Android and
    /// iOS defer location updates while the screen is off for minutes (Android's batching intervals are usually
    /// set to 1–15 minutes); older fixes are rejected as out of order.
    public let horizonSeconds: Double
    /// How many fixes between two copies of the tracker. Default 64: a late fix replays at most this many
    /// fixes more than it must, for a copy of 5.3 KB every 64 fixes (84 bytes per fix).
    public let snapshotInterval: Int
    /// How many fixes a late fix may reach back, whatever their times say; up to about twice as many are kept.
    /// Default 36,000 (the 900 s horizon at 20 Hz, 3.6–7.2 MB): a receiver whose clock stands still would
    /// otherwise be kept for ever.
    public let maximumKeptFixes: Int

    /// The fixes processed, in time order (stable: equal times in arrival order), from the oldest copy on.
    var history: [Fix] = []
    /// Copies of the tracker, each taken before `history[index]` was processed, oldest first, with the number of
    /// ``timelineChanges`` made before it.
    var snapshots: [(tracker: Tracker, index: Int, changes: Int)] = []
    /// A change made between fixes (``changeProfile(to:)``, ``startNewLeg()``), which a replay makes again at the same
    /// point of the time line.
    enum TimelineChange: Sendable {
        case profile(TrackingProfile)
        case newLeg
    }
    /// The changes since the oldest copy, in the order made: each applies to the fixes dated after `after` (the
    /// newest fix processed when it was made; `nil`: before any), so that a replay makes it at the same point of the
    /// time line.
    var timelineChanges: [(after: Timestamp?, change: TimelineChange)] = []
    /// How many of ``timelineChanges`` the tracker has made: all of them but during a replay.
    var appliedChanges = 0
    /// The largest total shown so far.
    var shownTotalMetres = 0.0
    /// The time of the newest fix let go (before the oldest kept): a late fix older than it cannot be replayed.
    var droppedThrough: Timestamp?

    /// A rewinding tracker with `profile`.
    ///
    /// - Parameters:
    ///   - horizonSeconds: see ``horizonSeconds`` (clamped to 0 … the profile's ``TrackingProfile/clockJumpSeconds``:
    ///     a fix older than that is the tracker's clock-jump business).
    ///   - snapshotInterval: see ``snapshotInterval`` (at least 1).
    ///   - maximumKeptFixes: see ``maximumKeptFixes`` (at least 2 × `snapshotInterval`).
    public init(
        profile: TrackingProfile = .walking, horizonSeconds: Double = 900, snapshotInterval: Int = 64,
        maximumKeptFixes: Int = 36_000
    ) {
        tracker = Tracker(profile: profile)
        let horizon = horizonSeconds.isNaN ? 0 : horizonSeconds
        self.horizonSeconds = min(max(horizon, 0), profile.clockJumpSeconds)
        self.snapshotInterval = max(snapshotInterval, 1)
        self.maximumKeptFixes = max(maximumKeptFixes, 2 * self.snapshotInterval)
    }

    /// A rewinding tracker that continues `tracker` (one resumed after a restart, ``Tracker/init(resuming:)`` or
    /// a session's `resumedTracker()`), with the same horizon, copy interval and cap as
    /// ``init(profile:horizonSeconds:snapshotInterval:maximumKeptFixes:)``. It keeps nothing from before: a late
    /// fix older than the tracker's last accepted one is rejected as out of order until the fixes kept from
    /// here on reach back to it.
    ///
    /// `shownTotalMetres`: the largest total shown before the restart (a session's distance, which records the
    /// decisions' totals, a late fix's temporary lead included), so that ``totalMetres`` never goes below it, while
    /// `tracker` keeps its own in-order total: restored into the tracker instead, that lead was counted for good
    /// (an API tester's shuffled deliveries, +1.3 … +14.8 m on a 600 m walk). `nil`: `tracker`'s total.
    public init(
        continuing tracker: Tracker, shownTotalMetres: Double? = nil, horizonSeconds: Double = 900,
        snapshotInterval: Int = 64, maximumKeptFixes: Int = 36_000
    ) {
        self.init(
            profile: tracker.profile, horizonSeconds: horizonSeconds, snapshotInterval: snapshotInterval,
            maximumKeptFixes: maximumKeptFixes)
        self.tracker = tracker
        let shown = shownTotalMetres.map { $0.isFinite ? $0 : 0 } ?? 0
        self.shownTotalMetres = max(tracker.distance.totalMetres, shown)
    }

    /// The distance to show, metres: the larger of ``tracker``'s total and the largest total shown before, so
    /// it never decreases.
    public var totalMetres: Double { max(shownTotalMetres, tracker.distance.totalMetres) }

    /// Changes the tracker's profile (``Tracker/changeProfile(to:)``: a run's walking break, a ride after a walk) for
    /// the fixes dated after the newest one processed. A late fix that rewinds to before the change replays it at
    /// the same point of the time line: the fixes after that point are processed again under the new profile, those
    /// before under the old. Returns the metres the change counted (a vehicle latch given up under a profile without
    /// a sustainable-speed limit), already in the total.
    @discardableResult
    public mutating func changeProfile(to newProfile: TrackingProfile) -> Double {
        guard newProfile != tracker.profile else { return 0 }
        return make(.profile(newProfile))
    }

    /// Starts a new leg (``Tracker/startNewLeg()``: an app's "Pause" … "Resume" with no fixes in between) for the
    /// fixes dated after the newest one processed: the way from it to the next fix is not counted. A late fix that
    /// rewinds to before the break replays it at the same point of the time line. A late fix dated inside the pause
    /// (after the newest fix at the call, before the first after it) is rejected as out of order, as ``Tracker``
    /// rejects it: anchoring the new leg, it counted its way to the first fix after the pause (a reviewer's fix 70 s
    /// before "Resume": +99 m). (The one exception to "the tracker that processed the same fixes in time order": in
    /// time order such a fix came before "Resume" and counted.) Returns the metres the old leg still held, already in
    /// the total.
    @discardableResult
    public mutating func startNewLeg() -> Double {
        make(.newLeg)
    }

    /// Records `change` at the newest fix processed and makes it on the tracker.
    private mutating func make(_ change: TimelineChange) -> Double {
        timelineChanges.append((history.last?.timestamp, change))
        appliedChanges = timelineChanges.count
        let counted = apply(change)
        shownTotalMetres = totalMetres
        return counted
    }

    private mutating func apply(_ change: TimelineChange) -> Double {
        switch change {
        case .profile(let profile): tracker.changeProfile(to: profile)
        case .newLeg: tracker.startNewLeg()
        }
    }

    /// The pauses declared with ``startNewLeg()`` among the kept changes: from the newest fix processed at the call to
    /// the first fix after it (none yet: open). A late fix dated inside one is rejected as out of order, as the plain
    /// ``Tracker`` rejects it, instead of anchoring the new leg and counting its way to the first fix after the
    /// pause (a reviewer's fix 70 s before "Resume": +99 m).
    func declaredPauses() -> [(after: Timestamp, resume: Timestamp)] {
        var pauses: [(after: Timestamp, resume: Timestamp)] = []
        for change in timelineChanges {
            guard case .newLeg = change.change, let after = change.after else { continue }
            let resume = StopAnalysis.partitionPoint(history.count) { history[$0].timestamp > after }
            pauses.append(
                (after, resume < history.count ? history[resume].timestamp : Timestamp(millisecondsSince1970: .max)))
        }
        return pauses
    }

    /// Makes, on the tracker being replayed, the changes not yet made that apply before a fix at `time` (all of them
    /// when `time` is `nil`: the replay's end).
    mutating func replayChanges(before time: Timestamp?) {
        while appliedChanges < timelineChanges.count {
            let change = timelineChanges[appliedChanges]
            if let time, let after = change.after, after >= time { return }
            _ = apply(change.change)
            appliedChanges += 1
        }
    }

    /// The end of the track or session: ``Tracker/finishTrack()`` on the in-order tracker (a departure's held
    /// metres count unless the track is back at its rest; a window too young to judge counts if it moved, a pending
    /// gap's chord and a chain's last chord if their tests pass). Returns the metres counted. Call it once, at the end:
    /// a late fix after it rewinds to a copy from before it.
    @discardableResult
    public mutating func finishTrack() -> Double {
        let counted = tracker.finishTrack()
        shownTotalMetres = totalMetres
        return counted
    }

    /// Processes one fix (see ``process(batch:)``). A fix not older than every fix so far (the usual case) takes
    /// the plain tracker's path with no allocation once the buffers have grown to the horizon.
    public mutating func process(_ fix: Fix) -> Outcome {
        if let newest = history.last?.timestamp, fix.timestamp < newest {
            let result = process(batch: [fix])
            let revision =
                result.revised.isEmpty
                ? nil : Outcome.Revision(decisions: result.revised, fixes: result.revisedFixes)
            return Outcome(decision: result.decisions[0], revision: revision)
        }
        let outcome = record(fix)
        shownTotalMetres = totalMetres
        return outcome
    }

    /// Processes a batch: fixes newer than every fix so far go straight to the tracker (in time order); a late
    /// one, within the horizon of the last accepted fix, rewinds the tracker to the newest copy taken before it,
    /// and every fix since that copy is processed again together with the batch, in time order. Fixes older than
    /// the horizon go to the tracker afterwards as they are (it rejects them as out of order, or restarts on a
    /// clock jump, which lets the kept fixes go).
    public mutating func process(batch: [Fix]) -> BatchOutcome {
        var decisions = [FixDecision?](repeating: nil, count: batch.count)
        let sorted = batch.indicesInTimeOrder(by: \.timestamp)
        // Older than the horizon from the last accepted fix: not rewound (taken last, below).
        var tooOld = 0
        if let latest = tracker.lastAcceptedTime {
            while tooOld < sorted.count, isTooOld(batch[sorted[tooOld]].timestamp, latest: latest) { tooOld += 1 }
        }
        let order = sorted[tooOld...]
        var revised: [FixDecision] = []
        var revisedFixes: [Fix] = []
        if let first = order.first, let newest = history.last?.timestamp, batch[first].timestamp < newest,
            let start = rewindPoint(before: batch[first].timestamp)
        {
            // Rewind: the fixes since the copy, merged with the batch in time order (a batch fix after kept fixes
            // of the same time, which the tracker then judges as it would have in that order).
            let pauses = declaredPauses()
            let snapshot = snapshots[start]
            let kept = Array(history[snapshot.index...])
            history.removeSubrange(snapshot.index...)
            snapshots.removeSubrange((start + 1)...)
            tracker = snapshot.tracker
            revisedFixes = kept
            revised.reserveCapacity(kept.count)
            var k = 0
            // (Profile changes made since the copy are made again where they fell in the time line.)
            appliedChanges = snapshot.changes
            for i in order {
                while k < kept.count && kept[k].timestamp <= batch[i].timestamp {
                    replayChanges(before: kept[k].timestamp)
                    revised.append(record(kept[k]).decision)
                    k += 1
                }
                if pauses.contains(where: { $0.after < batch[i].timestamp && batch[i].timestamp < $0.resume }) {
                    // Dated inside a pause the app declared (``startNewLeg()``): out of order, as for ``Tracker``.
                    var decision = FixDecision(
                        timestamp: batch[i].timestamp, rejection: nil, state: nil, total: tracker.distance.totalMetres)
                    decisions[i] = tracker.reject(&decision, .outOfOrder)
                    continue
                }
                replayChanges(before: batch[i].timestamp)
                decisions[i] = record(batch[i]).decision
            }
            while k < kept.count {
                replayChanges(before: kept[k].timestamp)
                revised.append(record(kept[k]).decision)
                k += 1
            }
            replayChanges(before: nil)
        } else {
            for i in order { decisions[i] = record(batch[i]).decision }
        }
        for i in sorted[..<tooOld] {
            if history.isEmpty {
                // After a clock-jump restart below: the new time line is kept from here.
                decisions[i] = record(batch[i]).decision
                continue
            }
            let acceptedBefore = tracker.lastAcceptedTime
            decisions[i] = tracker.process(batch[i])
            if let before = acceptedBefore, let after = tracker.lastAcceptedTime, after < before {
                // The tracker restarted on a clock jump: the kept fixes belong to the wrong time line.
                history.removeAll(keepingCapacity: true)
                snapshots.removeAll(keepingCapacity: true)
                timelineChanges.removeAll()
                appliedChanges = 0
                droppedThrough = nil
            }
        }
        shownTotalMetres = totalMetres
        return BatchOutcome(decisions: decisions.map { $0! }, revised: revised, revisedFixes: revisedFixes)
    }

    /// Whether a fix at `time` is too late to replay: further back than the horizon from the last accepted fix
    /// (`latest`), or older than a fix already let go (``maximumKeptFixes``).
    func isTooOld(_ time: Timestamp, latest: Timestamp) -> Bool {
        time.seconds(to: latest) > horizonSeconds || droppedThrough.map { time < $0 } == true
    }

    /// The index in `snapshots` of the newest copy taken after no kept fix newer than `time` (so that a fix at
    /// `time` can be merged after the fixes it had seen), or `nil` when there is none.
    ///
    /// A copy taken between two fixes of one time is passed over for the one before it: replayed from there, the
    /// second fix of that time would be revised without the first, and nothing could tell which stored fix a
    /// revised decision is about (a reviewer's repeated fix got its copy's `duplicate` on its row).
    func rewindPoint(before time: Timestamp) -> Int? {
        var found: Int?
        for (s, snapshot) in snapshots.enumerated() {
            // The copy taken before history[index]: every fix before it is older than `time` or equal (equal
            // times keep arrival order).
            guard snapshot.index == 0 || history[snapshot.index - 1].timestamp <= time else { break }
            if !splitsATime(at: snapshot.index) { found = s }
        }
        return found
    }

    /// Whether `history[index - 1]` and `history[index]` are fixes of one time: a copy taken there must not be
    /// rewound to, nor the fixes before it let go (the kept ones would begin with the second fix of that time).
    func splitsATime(at index: Int) -> Bool {
        index > 0 && index < history.count && history[index - 1].timestamp == history[index].timestamp
    }

    /// Processes `fix` with the tracker, keeping it (and a copy of the tracker every ``snapshotInterval``
    /// fixes, when what the horizon no longer needs is also let go).
    @inline(__always)
    mutating func record(_ fix: Fix) -> Outcome {
        if _slowPath(history.count - (snapshots.last?.index ?? -snapshotInterval) >= snapshotInterval) {
            takeSnapshot()
        }
        history.append(fix)
        let latest = tracker.lastAcceptedMilliseconds
        // (The outcome built around the call: building it from a decision held across the check below copied the
        // 192-byte decision twice, 120 instructions per fix. One copy comes and goes with unrelated changes in the
        // module: ARCHITECTURE.md, where it names `RewindingTracker.process(_:with:)`.)
        let outcome = Outcome(decision: Self.process(fix, with: &tracker), revision: nil)
        if _slowPath(outcome.decision.rejection != nil) { forgetIfDatedAhead(fix, lastAccepted: latest) }
        return outcome
    }

    /// After `fix` (the newest kept) was rejected: forgets it when it is dated further ahead of the last accepted
    /// fix (`latest`, in milliseconds) than the horizon.
    @inline(never)
    mutating func forgetIfDatedAhead(_ fix: Fix, lastAccepted latest: Int64) {
        if latest != .min, Double(fix.timestamp.millisecondsSince1970 &- latest) / 1000 > horizonSeconds {
            // Rejected, and dated further ahead of the last accepted fix than the horizon (a fix with a wrong
            // clock): kept, it would stay the newest fix and make every later one rewind until the clock caught
            // up (35 × slower for a year, a reviewer measured). Its effects on the tracker (the duplicate check
            // against it, an activity reading it carried) are lost at the next rewind.
            history.removeLast()
        }
    }

    /// `tracker.process(fix)`, not inlined: inlined into ``record(_:)``, the tracker's per-fix path made the compiler
    /// copy the whole tracker (3.7 KB then, 5.3 KB now) in and out on every fix (1,785 instructions per fix in the
    /// `rewinding-tracker` benchmark against 1,051 before the tracker's bridging; the call costs a few).
    @inline(never)
    static func process(_ fix: Fix, with tracker: inout Tracker) -> FixDecision {
        tracker.process(fix)
    }

    /// Appends a copy of the tracker, then lets go of the copies (and their fixes) that a late fix can no
    /// longer need: all but the newest copy taken before the horizon's start (from the last accepted fix: a
    /// rejected fix dated ahead moves nothing), and any beyond ``maximumKeptFixes``. Out of line: once per
    /// ``snapshotInterval`` fixes.
    @inline(never)
    mutating func takeSnapshot() {
        snapshots.append((tracker, history.count, appliedChanges))
        let latest = tracker.lastAcceptedTime
        var drop = 0
        while drop + 1 < snapshots.count {
            let next = snapshots[drop + 1]
            // The copy after the next one must still reach back to the horizon's start.
            let isPast =
                next.index > 0
                && latest.map { history[next.index - 1].timestamp.seconds(to: $0) > horizonSeconds } == true
            guard isPast || history.count - next.index >= maximumKeptFixes else { break }
            drop += 1
        }
        // Removing shifts the kept fixes down: done once half the history can go, so each fix is moved about
        // once (removing whenever a copy expired moved the whole horizon every 64 fixes: +40 % per fix).
        // (Not at a copy between two fixes of one time, which the history kept would begin with the second of,
        // unless keeping more would pass the cap: a stopped clock's fixes are all of one time.)
        while drop > 0 && splitsATime(at: snapshots[drop].index)
            && history.count - snapshots[drop - 1].index <= maximumKeptFixes
        {
            drop -= 1
        }
        guard drop > 0, 2 * snapshots[drop].index >= history.count else { return }
        let removed = snapshots[drop].index
        droppedThrough = history[removed - 1].timestamp
        snapshots.removeFirst(drop)
        history.removeFirst(removed)
        // (The changes made before the oldest copy left are in every copy: no replay makes them again.)
        let settled = snapshots[0].changes
        timelineChanges.removeFirst(settled)
        appliedChanges -= settled
        for s in snapshots.indices {
            snapshots[s].index -= removed
            snapshots[s].changes -= settled
        }
    }
}
