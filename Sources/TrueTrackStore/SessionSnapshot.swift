import TrueTrackCore

/// Where a session stands.
public enum SessionPhase: String, Sendable, Hashable, CaseIterable, Codable {
    /// Recording: fixes accrue distance.
    case running
    /// Paused by the user: fixes may arrive but the session is not moving on.
    case paused
    /// Finished. Final: an ended session never reopens (a new walk is a new session).
    case ended

    /// The phase kept when two writers changed the phase from the same revision: the more stopped one
    /// (ended over paused over running), so a concurrent pause is never lost.
    var stoppedness: Int {
        switch self {
        case .running: 0
        case .paused: 1
        case .ended: 2
        }
    }
}

/// The last fix a session saw (its position only: enough to resume and to draw).
public struct SessionLastFix: Sendable, Hashable {
    /// The fix's time, UTC.
    public var timestamp: Timestamp
    /// Latitude, degrees north (WGS-84).
    public var latitude: Double
    /// Longitude, degrees east (WGS-84).
    public var longitude: Double
    /// Horizontal accuracy, metres (68 %), when reported.
    public var accuracyMetres: Double?

    /// Creates a last-fix record.
    public init(timestamp: Timestamp, latitude: Double, longitude: Double, accuracyMetres: Double?) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMetres = accuracyMetres
    }

    /// The position and time of `fix`.
    public init(_ fix: Fix) {
        self.init(
            timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
            accuracyMetres: fix.horizontalAccuracyMetres)
    }

    /// The record as a fix (time, position, accuracy), or `nil` when its coordinates are not valid.
    public var fix: Fix? {
        try? Fix(
            timestamp: timestamp, latitude: latitude, longitude: longitude, horizontalAccuracyMetres: accuracyMetres)
    }
}

/// The state a restarted process trusts: what a session had accumulated when it was last written.
///
/// ## Merging (``merged(with:)``)
/// Every write merges the incoming snapshot into the stored one, so the result never depends on who
/// writes last:
/// - distance, elapsed time and the fix counters take the larger value: they never move backwards;
/// - the last fix (and the motion state that goes with it) is the one of the snapshot that has accepted more
///   fixes (the later state of the same tracker), the newer by fix time at equal counts. Not by time alone: after
///   a fix dated 9999 the tracker restarts at the right time (see ``Tracker``), and a 9999 last fix kept by time
///   would stay for good, so a resumed session would take it as its last accepted time and count the fixes the
///   platform re-delivers a second time;
/// - the first fix time takes the earlier one (a stored session with fixes and none keeps none);
/// - the phase follows ``phaseRevision``: a snapshot whose revision is older than the stored one (a stale
///   copy taken before another writer paused) cannot change the phase; at equal revisions with different
///   phases the more stopped phase wins; ``SessionPhase/ended`` is final;
/// - the checkpoints are those of the snapshot that has recorded more fixes (``fixCount``: a rejected fix
///   changes a tracker's state too), the incoming one at equal counts; a snapshot without a checkpoint never
///   erases one.
public struct SessionSnapshot: Sendable, Hashable {
    /// The session's identifier (chosen by the app, e.g. a UUID string).
    public var sessionID: String
    /// Distance accrued so far, metres.
    public var distanceMetres: Double
    /// Time spent running (pauses excluded, as the app counts it), seconds.
    public var elapsedSeconds: Double
    /// Fixes received by the tracker.
    public var fixCount: Int
    /// Fixes the tracker accepted.
    public var acceptedFixCount: Int
    /// The motion verdict at the last fix.
    public var motion: MotionGate.Verdict
    /// Running, paused or ended.
    public var phase: SessionPhase
    /// How many phase changes the phase has been through; bumped by ``SessionStateStore/update(sessionID:_:)``
    /// whenever a writer changes the phase, and what makes a stale snapshot's phase lose.
    public var phaseRevision: Int
    /// The last fix the tracker accepted, if any (rejected fixes are not recorded): what a resumed
    /// ``Tracker/restore(persistedTotalMetres:lastAccepted:)`` takes as its last accepted time.
    public var lastFix: SessionLastFix?
    /// The time of the earliest fix the session has recorded, accepted or not (``record(_:decision:)``), if any;
    /// `nil` too for a session recorded before the store kept it, which keeps none. A fix older than it is not one
    /// the session has seen: `truetrack buffer add` refuses such fixes (a file older than the session's) instead of
    /// skipping them as "already in the session".
    public var firstFixTime: Timestamp?
    /// How many writes the store has merged into this session (set by the store).
    public internal(set) var writeCount: Int
    /// The tracker's state after the last fix recorded (``Tracker/checkpoint()``): a restarted process resumes
    /// it exactly with ``Tracker/init(resuming:)`` (see ``resumedTracker(profile:)``). `nil` until the app sets it.
    public var trackerCheckpoint: TrackerCheckpoint?
    /// The stop detector's state after the last fix recorded (``StopDetector/checkpoint()``); `nil` until set.
    public var stopDetectorCheckpoint: StopDetectorCheckpoint?
    /// The ``FixBuffer`` row the checkpoints were taken after (the last row id of the append that carried the
    /// last fix they saw): ``resumed(from:trackingProfile:stopProfile:)`` replays the session's rows appended
    /// since. Set with the checkpoints by ``saveCheckpoints(tracker:stopDetector:afterBufferRow:)``.
    public var checkpointRowID: Int64?

    /// The largest distance a session may hold, metres: a million kilometres (25 times around the Earth). A larger
    /// one is not a distance travelled: ``merged(with:)`` ignores it, and a stored one is refused as damaged
    /// (``StoreError/Kind/damagedRow(table:key:column:)``), as is a negative or non-finite one.
    public static let maximumDistanceMetres = DistanceAccumulator.maximumRestoredMetres
    /// The longest time a session may have run, seconds: a century. Longer is ignored and refused as
    /// ``maximumDistanceMetres`` is.
    public static let maximumElapsedSeconds = 100 * 365.25 * 86400

    /// A new running session with nothing accrued.
    public init(sessionID: String) {
        self.sessionID = sessionID
        self.distanceMetres = 0
        self.elapsedSeconds = 0
        self.fixCount = 0
        self.acceptedFixCount = 0
        self.motion = .uncertain
        self.phase = .running
        self.phaseRevision = 0
        self.lastFix = nil
        self.firstFixTime = nil
        self.writeCount = 0
        self.trackerCheckpoint = nil
        self.stopDetectorCheckpoint = nil
        self.checkpointRowID = nil
    }

    /// Takes both checkpoints and the buffer row they follow: checkpointing every few fixes (or batches) then
    /// resumes exactly with ``resumed(from:trackingProfile:stopProfile:)``, which replays the rows appended
    /// after `rowID`.
    ///
    /// - Parameter rowID: the row the last ``FixBuffer`` append leaves the session at (``AppendReceipt/lastRowID``:
    ///   the upper bound of its ``AppendReceipt/ids``, or the session's newest row when it stored nothing), or `nil`
    ///   when the app keeps no buffer. (`ids`' upper bound alone is `nil` after a re-delivered batch, and the
    ///   resume then was not exact.)
    public mutating func saveCheckpoints(tracker: Tracker, stopDetector: StopDetector, afterBufferRow rowID: Int64?) {
        trackerCheckpoint = tracker.checkpoint()
        stopDetectorCheckpoint = stopDetector.checkpoint()
        checkpointRowID = rowID
    }

    /// The tracker to continue this session with.
    ///
    /// - With a checkpoint this build can read: the checkpointed tracker, exactly; when `profile` names another
    ///   profile than the checkpoint's, it goes on with that one (``Tracker/changeProfile(to:)``: an earlier
    ///   version discarded such a checkpoint, and an API tester's 6 km of intervals lost 2.5–3 km). A checkpoint
    ///   older than the session's last fix (the app checkpoints less often than it records, or another writer
    ///   recorded without one) is brought to that fix as the fallback is: the stretch after the
    ///   checkpoint, counted in ``distanceMetres`` already, is not counted twice (a stale checkpoint counted it
    ///   again: +17 to +64 m on a reviewer's walk) and fixes delivered again are rejected; not exact.
    /// - Otherwise (no checkpoint, or one written by another build): a new tracker with `profile` (walking when
    ///   `nil`).
    ///
    /// Either way the persisted total is restored and so is the last fix
    /// (``Tracker/restore(persistedTotalMetres:lastAccepted:)`` with the fix: the filter anchored at it, so the
    /// next fix is gated), unless the tracker has already accepted it.
    ///
    /// - Parameter profile: the profile the session is in now (the app changed it after the checkpoint, or the
    ///   checkpoint is missing); `nil`: the checkpoint's, else walking.
    public func resumedTracker(profile: TrackingProfile? = nil) -> Tracker {
        var tracker = checkpointedTracker ?? Tracker(profile: profile ?? .walking)
        if let profile { tracker.changeProfile(to: profile) }
        // (Both restores leave a tracker alone whose last accepted fix is not older than the one given.)
        if let last = lastFix, let fix = last.fix {
            tracker.restore(persistedTotalMetres: distanceMetres, lastAccepted: fix)
        } else if let last = lastFix {
            tracker.restore(persistedTotalMetres: distanceMetres, lastAccepted: last.timestamp)
        } else {
            tracker.restore(persistedTotalMetres: distanceMetres)
        }
        return tracker
    }

    /// The session's ``RewindingTracker`` after a restart: the checkpointed tracker with its own, in-order total
    /// when the checkpoint is current (it has accepted the session's last fix), and ``distanceMetres`` as the
    /// total already shown (``RewindingTracker/init(continuing:shownTotalMetres:horizonSeconds:snapshotInterval:maximumKeptFixes:)``);
    /// otherwise ``resumedTracker(profile:)``'s, the persisted total restored into it.
    ///
    /// Why not `RewindingTracker(continuing: resumedTracker())`: a session records the rewinding tracker's
    /// decisions, whose totals include a late fix's temporary lead over the in-order total, and restoring that
    /// into the tracker counted the lead for good (an API tester's shuffled deliveries: +1.3 … +14.8 m on a
    /// 600 m walk against the same deliveries without a restart).
    public func resumedRewindingTracker(
        profile: TrackingProfile? = nil, horizonSeconds: Double = 900, snapshotInterval: Int = 64,
        maximumKeptFixes: Int = 36_000
    ) -> RewindingTracker {
        var tracker: Tracker
        if var checkpointed = checkpointedTracker, let last = lastFix?.timestamp,
            checkpointed.lastAcceptedTime.map({ $0 >= last }) == true
        {
            if let profile { checkpointed.changeProfile(to: profile) }
            tracker = checkpointed
        } else {
            tracker = resumedTracker(profile: profile)
        }
        return RewindingTracker(
            continuing: tracker, shownTotalMetres: distanceMetres, horizonSeconds: horizonSeconds,
            snapshotInterval: snapshotInterval, maximumKeptFixes: maximumKeptFixes)
    }

    /// The session's tracker and stop detector, resumed **exactly** from checkpoints taken every few fixes or
    /// batches: the checkpoints, then the session's rows appended to `buffer` after
    /// ``checkpointRowID`` replayed through both (their decisions and events were seen before the restart and
    /// are not returned). The replay takes the rows as one batch, in time order (``Tracker/process(batch:)``):
    /// the same as the original processing when the fixes were processed one at a time in time order, or in
    /// batches that do not overlap in time. A replayed fix whose decision differs from the one stored with its row
    /// (a fix delivered a batch late and rejected as out of order then) makes the resume not exact
    /// (``ResumedSession/isExact`` false); rows stored without a decision cannot be checked. So do rows whose
    /// decisions a ``RewindingTracker`` revised while they were in a sync batch (``FixBuffer/revise(_:of:sessionID:)``
    /// keeps those as sent) and a total raised by a restore after the checkpoint: their stored decisions are not the
    /// replay's.
    ///
    /// Falls back to ``resumedTracker(profile:)`` and ``resumedStopDetector(profile:)`` (not exact,
    /// ``ResumedSession/isExact`` false) when a checkpoint or its row id is missing or unreadable, or a row
    /// appended after the checkpoint has left the buffer (acknowledged by a sync, dropped by the cap): replaying
    /// without it would not be exact either; or when the replayed rows do not reach the session's ``lastFix``
    /// (rows appended without this ``sessionID``, or the session recorded before the buffer append that a kill
    /// cut off). A profile named other than a checkpoint's is taken after the replay
    /// (``Tracker/changeProfile(to:)``, the detector's ``StopDetector/profile``), and the resume is then not
    /// exact either: the rows do not say when the app changed it (a reviewer's run replayed as a walk: 1,259 m
    /// of 2,609, "exact"). Save the checkpoints after a profile change to keep resumes exact.
    ///
    /// - Parameters:
    ///   - trackingProfile: the tracker's profile now; `nil`: the checkpoint's, else walking.
    ///   - stopProfile: the stop detector's profile now; `nil`: the checkpoint's, else walking.
    public func resumed(
        from buffer: FixBuffer, trackingProfile: TrackingProfile? = nil, stopProfile: StopDetectionProfile? = nil
    ) throws(StoreError) -> ResumedSession {
        if let rowID = checkpointRowID, var tracker = checkpointedTracker,
            var detector = checkpointedStopDetector, try !buffer.hasRemovedRows(after: rowID)
        {
            let rows = try buffer.rows(after: rowID, sessionID: sessionID)
            let fixes = rows.map(\.fix)
            let decisions = tracker.process(batch: fixes)
            // The replay must reach the last fix recorded: rows appended without this session's ID (or under
            // another) are not replayed, and the stretch after the checkpoint counted again (an API tester who
            // appended without the ID: +12 to +18 m per restart, re-delivered fixes accepted, "exact").
            if lastFix.map({ last in tracker.lastAcceptedTime.map { $0 >= last.timestamp } ?? false }) ?? true {
                _ = detector.process(batch: zip(fixes, decisions).map(MotionEvidence.init(fix:decision:)))
                tracker.restore(persistedTotalMetres: distanceMetres)
                // Every replayed fix decided as the stored decision says it was: batches that overlapped in time
                // (a fix delivered a batch late, rejected as out of order then, sorted into place now) replay
                // otherwise (an API tester's resume read "exact" 2.5 m short of the run without the kill).
                let replayedAsRecorded = zip(rows, decisions).allSatisfy { row, decision in
                    guard let stored = row.decision else { return true }
                    // (A fix delivered again is refused either way, as out of order or as a duplicate depending on
                    // what came before it in its batch: the same fix refused, not another decision.)
                    if let live = stored.rejection, let now = decision.rejection,
                        Self.refusalsOfARepeat.contains(live), Self.refusalsOfARepeat.contains(now)
                    {
                        return true
                    }
                    return stored == StoredDecision(decision)
                }
                let isExact =
                    replayedAsRecorded && (trackingProfile.map { $0 == tracker.profile } ?? true)
                    && (stopProfile.map { $0 == detector.profile } ?? true)
                if let trackingProfile { tracker.changeProfile(to: trackingProfile) }
                if let stopProfile { detector.profile = stopProfile }
                return ResumedSession(
                    tracker: tracker, stopDetector: detector, replayedFixCount: fixes.count, isExact: isExact)
            }
        }
        return ResumedSession(
            tracker: resumedTracker(profile: trackingProfile), stopDetector: resumedStopDetector(profile: stopProfile),
            replayedFixCount: 0, isExact: false)
    }

    /// The refusals of a fix not newer than the last one (a repeat), which ``resumed(from:trackingProfile:stopProfile:)``
    /// takes for one decision.
    static let refusalsOfARepeat: Set<RejectionReason> = [.outOfOrder, .duplicate]

    /// The stop detector to continue this session with: the checkpointed one when it can be read (with `profile`
    /// when one is named, as ``resumedTracker(profile:)``), else a new detector with `profile` (walking when
    /// `nil`; it starts STATIONARY and re-learns the window, see ``StopDetectorCheckpoint``). A checkpoint older
    /// than the last fix is still used: the detector then lacks the evidence in between (a gap: its window restarts), which is closer to
    /// the truth than a detector that forgot a committed stop.
    public func resumedStopDetector(profile: StopDetectionProfile? = nil) -> StopDetector {
        var detector = checkpointedStopDetector ?? StopDetector(profile: profile ?? .walking)
        if let profile { detector.profile = profile }
        return detector
    }

    /// The checkpointed tracker as it was (with its profile), when there is a checkpoint this build reads.
    private var checkpointedTracker: Tracker? { trackerCheckpoint.flatMap { try? Tracker(resuming: $0) } }

    /// The checkpointed stop detector (with its profile), when there is a checkpoint this build reads.
    private var checkpointedStopDetector: StopDetector? {
        stopDetectorCheckpoint.flatMap { try? StopDetector(resuming: $0) }
    }

    /// Records one tracker decision: counters, distance (the decision's total when larger), motion and last
    /// fix. Elapsed time is the app's to set (it knows about pauses); so are the checkpoints
    /// (``trackerCheckpoint``, ``stopDetectorCheckpoint``), taken after the fix.
    ///
    /// Record decisions in the order the tracker made them; for a batch, ``record(batch:decisions:)`` does
    /// (``Tracker/process(batch:)`` processes oldest first but returns the decisions in the batch's order).
    /// In that order an accepted fix is always the new last fix: the tracker accepts only fixes newer than its
    /// last accepted one, except when it restarts after a clock jump (a fix dated 9999 followed by fixes at the
    /// right time), and then the last fix must move back with it (``FixDecision/isClockRestart``). So any other
    /// accepted fix older than the last fix was recorded out of that order, and the newer last fix and motion
    /// are kept: an API tester's newest-first batches recorded pair by pair left the oldest fix as the last one,
    /// and a restart from it counted the batch again (+82 m).
    public mutating func record(_ fix: Fix, decision: FixDecision) {
        // Every fix seen, accepted or not (a file whose first fixes were rejected, added again, is the session's
        // own: a reviewer's cold start at 80 m was refused), from the session's first fix on: a session recorded
        // before its first fix was kept has none, and keeps none (its next add's first fix is not its first).
        // (Not a fix rejected as invalid: a placeholder's date, 1970 or 1980, would leave no fix older than it.)
        if decision.rejection != .invalid { noteFixSeen(at: fix.timestamp) }
        fixCount += 1
        guard decision.isAccepted else { return }
        acceptedFixCount += 1
        distanceMetres = Swift.max(distanceMetres, decision.totalDistanceMetres)
        if let last = lastFix, fix.timestamp < last.timestamp, !decision.isClockRestart { return }
        motion = decision.motion
        lastFix = SessionLastFix(fix)
    }

    /// Lowers ``firstFixTime`` to `time`, the time of a fix the session saw (``record(_:decision:)`` calls it for
    /// each fix it records; an app that stores only the accepted fixes, as `truetrack buffer add` does, calls it with
    /// the earliest rejected one before recording them). A session recorded before first times were kept (fixes
    /// and no first time) keeps none.
    public mutating func noteFixSeen(at time: Timestamp) {
        if firstFixTime.map({ time < $0 }) ?? (fixCount == 0) { firstFixTime = time }
    }

    /// Records the end of the session: the phase ``SessionPhase/ended`` and the total the tracker reached after
    /// ``Tracker/finishTrack()``, which can lie above every decision's ``FixDecision/totalDistanceMetres``: the end
    /// counts what a departure still held (driving and cycling hold a departure's first metres until it is
    /// confirmed) on no fix's decision, so recording decisions alone stored 0 m for a drive whose tracker ended at
    /// 77.7 m (an API tester, 2026-12-04). The total only rises (a non-finite one is ignored).
    ///
    /// - Parameter totalMetres: the tracker's total after `finishTrack()`: `tracker.distance.totalMetres`, or a
    ///   ``RewindingTracker``'s ``RewindingTracker/totalMetres``.
    public mutating func recordEnd(totalMetres: Double) {
        if totalMetres.isFinite, totalMetres > distanceMetres { distanceMetres = totalMetres }
        phase = .ended
    }

    /// Records a batch's decisions as ``Tracker/process(batch:)`` made them: in time order, oldest first (a
    /// stable sort, as the tracker's), whatever the batch's own order. `decisions[i]` is about `batch[i]`.
    ///
    /// - Precondition: `decisions.count == batch.count`. (A programming error, unlike ``FixBuffer``'s append, which
    ///   throws for it: a throwing `record` would need its thrown type spelled out in every
    ///   ``SessionStateStore/update(sessionID:_:)`` closure, which Swift 6 does not infer.)
    public mutating func record(batch: [Fix], decisions: [FixDecision]) {
        precondition(decisions.count == batch.count, "one decision per fix of the batch")
        for i in batch.indicesInTimeOrder(by: \.timestamp) { record(batch[i], decision: decisions[i]) }
    }

    /// The monotonic merge of `other` (an incoming write) into `self` (the stored state); see the type's
    /// documentation. Non-finite or negative distances and times in `other` are ignored, and so are those past
    /// ``maximumDistanceMetres`` and ``maximumElapsedSeconds`` (which a read would refuse as damaged).
    ///
    /// - Precondition: both snapshots have the same ``sessionID``.
    public func merged(with other: SessionSnapshot) -> SessionSnapshot {
        precondition(sessionID == other.sessionID, "merging snapshots of different sessions")
        var result = self
        if other.distanceMetres.isFinite, other.distanceMetres > result.distanceMetres,
            other.distanceMetres <= SessionSnapshot.maximumDistanceMetres
        {
            result.distanceMetres = other.distanceMetres
        }
        if other.elapsedSeconds.isFinite, other.elapsedSeconds > result.elapsedSeconds,
            other.elapsedSeconds <= SessionSnapshot.maximumElapsedSeconds
        {
            result.elapsedSeconds = other.elapsedSeconds
        }
        if other.fixCount >= fixCount {
            if other.trackerCheckpoint != nil { result.checkpointRowID = other.checkpointRowID }
            result.trackerCheckpoint = other.trackerCheckpoint ?? trackerCheckpoint
            result.stopDetectorCheckpoint = other.stopDetectorCheckpoint ?? stopDetectorCheckpoint
        }
        result.fixCount = Swift.max(fixCount, other.fixCount)
        result.acceptedFixCount = Swift.max(acceptedFixCount, other.acceptedFixCount)
        if let incoming = other.lastFix,
            lastFix.map({
                other.acceptedFixCount > acceptedFixCount
                    || (other.acceptedFixCount == acceptedFixCount && $0.timestamp < incoming.timestamp)
            }) ?? true
        {
            result.lastFix = incoming
            result.motion = other.motion
        } else if lastFix == nil && other.lastFix == nil {
            result.motion = other.motion
        }
        if phase == .ended || other.phase == .ended {
            result.phase = .ended
        } else if other.phaseRevision > phaseRevision {
            result.phase = other.phase
        } else if other.phaseRevision == phaseRevision, other.phase.stoppedness > phase.stoppedness {
            result.phase = other.phase
        }
        // (A stored session with fixes and no first time, recorded before it was kept, stays without one.)
        if let incoming = other.firstFixTime, firstFixTime.map({ incoming < $0 }) ?? (fixCount == 0) {
            result.firstFixTime = incoming
        }
        result.phaseRevision = Swift.max(phaseRevision, other.phaseRevision)
        result.writeCount = Swift.max(writeCount, other.writeCount)
        return result
    }
}

/// What the backend says about a session when a restarted process asks (see
/// ``SessionStateStore/recover(sessionID:remote:)``).
public enum RemoteSessionStatus: Sendable, Hashable {
    /// The backend knows the session and it is still open; its distance in metres when it reports one.
    case open(distanceMetres: Double?)
    /// The backend knows the session and it has ended.
    case ended
    /// The backend has never heard of the session (every fix is still in the local buffer).
    case notFound
    /// The backend could not be reached (offline, timeout, 5xx); the reason for logs.
    case unreachable(reason: String)
}

/// The three-way answer a restarted process acts on.
public enum SessionRecovery: Sendable, Hashable {
    /// Found and open (or unknown to the backend, which has simply not received it yet): resume from this
    /// snapshot (its distance is the larger of the local and the backend's).
    case resume(SessionSnapshot)
    /// Found and ended: the local snapshot is now marked ended too; start a new session for new fixes.
    case ended(SessionSnapshot)
    /// The backend could not be reached: the local snapshot is kept unchanged and resumed locally, never
    /// discarded; ask again when the network is back.
    case unreachable(SessionSnapshot, reason: String)
}

/// A session's tracker and stop detector after a restart (``SessionSnapshot/resumed(from:trackingProfile:stopProfile:)``).
public struct ResumedSession: Sendable {
    /// The tracker to continue with.
    public var tracker: Tracker
    /// The stop detector to continue with.
    public var stopDetector: StopDetector
    /// Fixes replayed from the buffer after the checkpoints.
    public var replayedFixCount: Int
    /// True when both were resumed from their checkpoints and every fix after them was replayed with the decision
    /// stored for it: the next fixes get the decisions and events they would have got without the restart. False
    /// for the fallback, and when a replayed decision differs from the stored one.
    public var isExact: Bool
}
