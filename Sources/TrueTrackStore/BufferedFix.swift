import TrueTrackCore

/// The part of a ``FixDecision`` the buffer keeps beside each fix: whether the ``Tracker`` accepted it,
/// where the filter put it and what it added to the distance.
public struct StoredDecision: Sendable, Hashable {
    /// Why the fix was rejected, or `nil` when it was accepted.
    public var rejection: RejectionReason?
    /// Filtered latitude after this fix, degrees north (WGS-84); `nil` before the first accepted fix.
    public var filteredLatitude: Double?
    /// Filtered longitude after this fix, degrees east (WGS-84).
    public var filteredLongitude: Double?
    /// The speed integrated into distance, metres per second.
    public var speedMetresPerSecond: Double
    /// Where that speed came from (`nil` when rejected).
    public var speedSource: SpeedSource?
    /// Why less distance accrued than the speed suggests.
    public var hold: DistanceHold
    /// The motion-activity verdict in force.
    public var motion: MotionGate.Verdict
    /// The distance this fix added, metres.
    public var distanceIncrementMetres: Double
    /// The session's total distance after this fix, metres.
    public var totalDistanceMetres: Double

    /// Keeps the persisted part of a tracker decision.
    public init(_ decision: FixDecision) {
        self.rejection = decision.rejection
        self.filteredLatitude = decision.state?.latitude
        self.filteredLongitude = decision.state?.longitude
        self.speedMetresPerSecond = decision.speedMetresPerSecond
        self.speedSource = decision.speedSource
        self.hold = decision.hold
        self.motion = decision.motion
        self.distanceIncrementMetres = decision.distanceIncrementMetres
        self.totalDistanceMetres = decision.totalDistanceMetres
    }

    /// Creates a stored decision from its fields.
    public init(
        rejection: RejectionReason?, filteredLatitude: Double?, filteredLongitude: Double?,
        speedMetresPerSecond: Double, speedSource: SpeedSource?, hold: DistanceHold, motion: MotionGate.Verdict,
        distanceIncrementMetres: Double, totalDistanceMetres: Double
    ) {
        self.rejection = rejection
        self.filteredLatitude = filteredLatitude
        self.filteredLongitude = filteredLongitude
        self.speedMetresPerSecond = speedMetresPerSecond
        self.speedSource = speedSource
        self.hold = hold
        self.motion = motion
        self.distanceIncrementMetres = distanceIncrementMetres
        self.totalDistanceMetres = totalDistanceMetres
    }

    /// True when the tracker accepted the fix.
    public var isAccepted: Bool { rejection == nil }
}

/// Where a buffered fix stands with the sync.
public enum SyncState: Sendable, Hashable {
    /// Waiting to be sent.
    case pending
    /// Claimed by the sync batch with this id: sent (or about to be) and awaiting a 2xx; a retry resends it
    /// in the same batch under the same idempotency key.
    case inFlight(batchID: Int64)
    /// The backend refused it with a 4xx that will never succeed (the status is kept): kept, counted and
    /// visible, no longer sent. ``FixBuffer/requeueRejected()`` makes such rows pending again.
    case rejected(status: Int)
    /// Set aside by a sync because the row no longer decoded (edited by hand, a flipped bit; see ``DamagedRow``):
    /// kept with its bytes as they are, never sent. A row in this state that decodes again (corrected by hand)
    /// reads as such until ``FixBuffer/requeueDamaged()`` makes it pending; ``FixBuffer/dropDamagedRows()``
    /// deletes damaged rows.
    case damaged
}

extension SyncState: CustomStringConvertible {
    /// What `truetrack buffer list` shows: "pending", "in flight (batch 2)", "rejected (422)", "damaged" (it
    /// showed the enum's debug text, `inFlight(batchID: 2)`, a re-tester's).
    public var description: String {
        switch self {
        case .pending: "pending"
        case .inFlight(let batch): "in flight (batch \(batch))"
        case .rejected(let status): "rejected (\(status))"
        case .damaged: "damaged"
        }
    }
}

/// A buffer row that no longer decodes into a fix (a file edited by hand, a flipped bit): text in a number column,
/// a latitude past 90°, a time past the year 9999, a NULL time or position, a blob in a text column, any value an
/// append never writes (a REAL time, a negative accuracy or distance, a rejection reason no build knows: the rules
/// are `FixBuffer`'s decoder's). It is never sent, never deleted without being asked
/// (``FixBuffer/dropDamagedRows()``), and never stops the rows around it: a sync sets it aside
/// (``SyncState/damaged``) and sends the others.
public struct DamagedRow: Sendable, Hashable, CustomStringConvertible {
    /// The row id.
    public var id: Int64
    /// The first column found wrong (`latitude`, `time_ms`, …).
    public var column: String
    /// What is wrong with it, e.g. "latitude holds text or a blob, not a number".
    public var reason: String
    /// True when a sync has set the row aside (``SyncState/damaged``); false for a row found damaged while it is
    /// still pending or in a batch (the next sync sets it aside).
    public var isSetAside: Bool

    /// Creates a description of a damaged row.
    public init(id: Int64, column: String, reason: String, isSetAside: Bool) {
        self.id = id
        self.column = column
        self.reason = reason
        self.isSetAside = isSetAside
    }

    /// True when only the row's sync columns are wrong (``column`` is `sync_state`, `sync_status` or `batch_id`: a
    /// row's fix columns are checked first), so its fix is intact: ``FixBuffer/requeueDamaged()`` makes it pending
    /// again and ``FixBuffer/dropDamagedRows()`` keeps it.
    public var isFixIntact: Bool { FixBuffer.syncColumns.contains { $0.name == column } }

    /// "row 17: latitude holds text or a blob, not a number".
    public var description: String { "row \(id): \(reason)" }
}

/// One row of the buffer as a listing shows it: a fix, or a row that no longer decodes (``DamagedRow``), which a
/// listing names instead of failing on it.
public enum BufferRow: Sendable, Hashable {
    /// A row that decodes.
    case fix(BufferedFix)
    /// A row that does not.
    case damaged(DamagedRow)

    /// The row id.
    public var id: Int64 {
        switch self {
        case .fix(let row): row.id
        case .damaged(let row): row.id
        }
    }
}

/// One row of the buffer: a fix, the tracker's decision, and its sync state.
public struct BufferedFix: Sendable, Hashable {
    /// The row id: increases with every append and is never reused in one database file.
    public var id: Int64
    /// The session the fix belongs to, when the caller said.
    public var sessionID: String?
    /// The fix as appended (every measurement kept; accuracy `invalid` round-trips as `invalid`).
    public var fix: Fix
    /// What the tracker did with it, when the caller passed a decision.
    public var decision: StoredDecision?
    /// Where the row stands with the sync.
    public var syncState: SyncState
}

/// What one append did.
public struct AppendReceipt: Sendable, Hashable {
    /// The row ids given to the appended fixes, in order (empty for an empty batch).
    public var ids: ClosedRange<Int64>?
    /// Rows dropped by this transaction to respect the cap and age limit (the oldest first).
    public var droppedCount: Int
    /// Of ``droppedCount``, the rows the cap or the age limit dropped that a backend had rejected
    /// (``SyncState/rejected(status:)``): they leave the buffer unsent. (Rows the age limit drops when the buffer is
    /// opened are in no receipt: ``FixBuffer/pruneExpired(now:)`` at open counts them as dropped only.)
    public var droppedRejectedCount: Int = 0
    /// Of ``droppedCount``, the rows the cap or the age limit dropped that a sync had set aside as damaged
    /// (``SyncState/damaged``).
    public var droppedDamagedCount: Int = 0
    /// The buffer row a checkpoint taken after this append follows
    /// (``SessionSnapshot/saveCheckpoints(tracker:stopDetector:afterBufferRow:)``): the upper bound of ``ids``, or,
    /// when the append stored nothing (every fix already held: a re-delivered batch), the newest row the buffer
    /// holds of the same session; `nil` when it holds none.
    public var lastRowID: Int64?
    /// Fixes not stored because the buffer already held them (``FixBuffer/append(_:decisions:sessionID:skippingStored:)``
    /// with `skippingStored`); 0 otherwise.
    public var skippedCount: Int = 0
    /// The session this append was to update, when its stored row is damaged (``DamagedSession``): the fixes are
    /// stored all the same, and the row is left as it is (neither continued from nor written over); `nil` otherwise.
    public var damagedSession: DamagedSession?
}

/// What ``FixBuffer/revise(_:of:sessionID:)`` did with the revised decisions it was given.
public struct RevisionReceipt: Sendable, Hashable {
    /// Rows whose stored decision was replaced (by a decision that may equal it).
    public var revisedCount = 0
    /// Decisions whose row belongs to a batch (claimed and not acknowledged yet, or rejected keeping its key): left
    /// as they were sent, since the batch goes again with the same rows under the same key.
    public var inBatchCount = 0
    /// Decisions without a row: synced and deleted, dropped by the cap or age limit, or never appended.
    public var missingCount = 0
    /// Decisions of a fix given more than once (a repeated delivery) whose rows the buffer does not hold as many of
    /// (one synced away or dropped, or a repeat left out by `skippingStored`): left, since no row can be told from
    /// another.
    public var ambiguousCount = 0

    /// An empty receipt.
    public init() {}
}

/// Counts describing the buffer.
public struct BufferStatistics: Sendable, Hashable {
    /// Every row in the buffer (pending, in flight, rejected and damaged).
    public var rowCount: Int
    /// Rows waiting for the sync, not yet claimed by a batch.
    public var pendingCount: Int
    /// Rows claimed by a sync batch awaiting a 2xx.
    public var inFlightCount: Int
    /// Rows the backend rejected with a permanent 4xx (kept).
    public var rejectedCount: Int
    /// Rows a sync set aside because they no longer decoded (``SyncState/damaged``: kept, never sent), rows whose
    /// sync columns hold what no build writes (a `sync_state` of 99, text in `batch_id`), and rows that no longer
    /// decode which no sync has met yet (``notSetAsideCount``; counted pending before, while `buffer list` called
    /// them damaged). Never counted in another state as well.
    public var damagedCount: Int = 0
    /// Of ``damagedCount``, the rows whose fix no longer decodes and no sync has set aside yet (still pending, in
    /// flight or rejected in the table; the next claim that meets them sets them aside): what `buffer list` shows as
    /// "damaged, not set aside yet". A row damaged only in its sync columns (``DamagedRow/isFixIntact``) is not among
    /// them: no sync sets it aside, ``FixBuffer/requeueDamaged()`` repairs it.
    public var notSetAsideCount: Int = 0
    /// Rows a sync set aside (``SyncState/damaged``: `sync_state` 2), whether they still fail to decode or were
    /// corrected by hand since (``FixBuffer/requeueDamaged()`` makes those pending); the rest of ``damagedCount`` is
    /// damaged rows no sync has set aside: a rejected row damaged since (no sync claims it), one no sync has reached,
    /// one damaged only in its sync columns. What `sync` calls set aside (it called every damaged row so).
    public var setAsideCount: Int = 0
    /// Rows dropped since the file was created because of the cap or the age limit (never synced): the rows lost.
    /// Rows dropped while their batch was in flight and then acknowledged by the backend are taken off again when the
    /// acknowledgement comes (they were delivered), so the count can go down; the add that dropped them said it
    /// dropped them (``AppendReceipt/droppedCount``). (Rows of such a batch deleted by ``FixBuffer/dropDamagedRows()``
    /// are taken off too, though never counted: the count can read low by them.)
    public var droppedCount: Int
}

/// A batch claimed for the sync: fixed rows under one idempotency key, persisted, so a retry (even after
/// the process restarts) resends exactly these rows under the same key.
public struct SyncBatch: Sendable, Hashable {
    /// The batch's id in the database.
    public var id: Int64
    /// The `Idempotency-Key` header value: 32 random hex digits chosen when the batch was claimed, so a key
    /// never repeats even across re-created database files.
    public var idempotencyKey: String
    /// The rows, oldest first.
    public var rows: [BufferedFix]
    /// Attempts already made to send this batch (before the current one).
    public var previousAttempts: Int
}

/// What ``FixBuffer/claimNextBatch(size:)`` found: the batch to send, if any, and the damaged rows it set aside on
/// the way.
public struct BatchClaim: Sendable, Hashable {
    /// The batch to send next; `nil` when nothing (else) is pending.
    public var batch: SyncBatch?
    /// The rows set aside by this claim (``SyncState/damaged``): claimed, or in the open batch, but no longer
    /// decoding, so not in the batch. Empty almost always.
    public var setAside: [DamagedRow]
    /// Rows this claim found in flight under a batch no longer recorded (its `sync_batches` row deleted by hand) and
    /// made pending again, sent under a new key (in this batch or a later one). 0 almost always.
    public var orphanedCount: Int = 0
}
