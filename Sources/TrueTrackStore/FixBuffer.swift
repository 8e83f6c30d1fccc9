import CSQLite
import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The on-disk buffer of fixes: every fix is written here, in a committed SQLite transaction, before anything
/// else (the sync, the UI) sees it.
///
/// ## Guarantees
/// - **Persisted means persisted**: when an `append` returns, its transaction is committed to the
///   write-ahead log; with ``Durability/full`` (the default) it survives a process kill, an OS crash and a
///   power loss, with ``Durability/normal`` a process kill (see ``Durability``).
/// - **Bounded**: at most ``StoreOptions/maxRecordsToPersist`` rows; past it the oldest rows are dropped in
///   the same transaction and counted (``BufferStatistics/droppedCount``), the rows of a batch being sent
///   last (its retry resends the same rows under the same key).
/// - **Nothing deleted unacknowledged**: rows leave the buffer only through the cap or age limit, ``clear()``,
///   ``acknowledge(_:)`` after the backend answered 2xx for exactly that batch, or ``dropDamagedRows()`` for rows
///   that no longer decode.
/// - **A damaged row never blocks the others**: a row that no longer decodes (edited by hand, a flipped bit) is set
///   aside when a batch is claimed (``claimNextBatch(size:)``, ``SyncState/damaged``), kept and never sent; rows in
///   flight under a batch no longer recorded (deleted by hand) are made pending again there
///   (``BatchClaim/orphanedCount``).
///
/// One `FixBuffer` owns one SQLite connection and is not `Sendable`: keep it inside one actor or thread.
/// Several buffers (in one or several processes) may open the same file: SQLite's WAL locking serialises
/// their writes.
public final class FixBuffer {
    /// The database file's path.
    public let path: String
    /// The options in force.
    public let options: StoreOptions
    let db: Connection
    /// When the age limit was last applied (seconds since 1970): an append applies it at most once a minute.
    var lastPruneSeconds = -Double.infinity

    /// Opens the buffer at `path`: for ``StoreAccess/readWrite`` (the default), creating the file and its schema
    /// when absent and migrating an older one; for ``StoreAccess/readOnly``, reading an existing buffer of this
    /// build's schema without writing anything (see ``StoreAccess/readOnly`` for a file whose folder cannot be
    /// written).
    ///
    /// - Parameters:
    ///   - path: the database file (`:memory:` for a throwaway in-memory store).
    ///   - options: cap, age limit, durability; see ``StoreOptions``. Read-only access neither applies the cap nor
    ///     prunes by age (both write); it uses the busy timeout.
    ///   - access: whether the buffer may be changed.
    /// - Throws: ``StoreError`` with kind `invalidOption` for an option out of range, `cannotOpen` (read-only: no
    ///   such file), `corrupt` (not an SQLite file, or damaged), `foreignDatabase` (another application's database,
    ///   left untouched), `newerSchema`, or `readOnly` (read-only access to an older schema or a new empty file,
    ///   which need writing first, or to a file whose write-ahead log cannot be read where it is).
    public init(path: String, options: StoreOptions = StoreOptions(), access: StoreAccess = .readWrite)
        throws(StoreError)
    {
        try options.validate(path: path)
        self.path = path
        self.options = options
        let timeout = Int32(options.busyTimeoutSeconds * 1000)
        switch access {
        case .readWrite:
            self.db = try Connection(path: path, busyTimeoutMilliseconds: timeout)
            try Schema.prepare(db, options: options)
            if options.maxAgeSeconds != nil { _ = try pruneExpired(now: FixBuffer.now()) }
        case .readOnly:
            self.db = try Schema.openForReading(path: path, busyTimeoutMilliseconds: timeout)
        }
    }

    /// Now, UTC.
    static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(millisecondsSince1970: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }

    // MARK: Appending

    /// Throws unless `decisions` holds one decision per fix, each with its fix's time, in the same order.
    private static func checkPairing(
        _ fixes: some Collection<Fix>, _ decisions: [FixDecision], path: String,
        nothingDone: String = "nothing was stored"
    ) throws(StoreError) {
        func refuse(_ value: String) -> StoreError {
            StoreError(
                kind: .invalidOption(
                    name: "decisions", value: value, expected: "one decision per fix, each with its fix's time"),
                path: path, message: nothingDone)
        }
        guard decisions.count == fixes.count else {
            throw refuse("\(decisions.count) decisions for \(fixes.count) fixes")
        }
        for (index, (fix, decision)) in zip(fixes, decisions).enumerated() where fix.timestamp != decision.timestamp {
            throw refuse("decision \(index) is for \(decision.timestamp), its fix is at \(fix.timestamp)")
        }
    }

    /// Throws unless every row `fixes` with `decisions` (and `sessionID`) make is one the buffer reads back as sound:
    /// checked by the decoder's own rules (``valueDamage(in:)``), so a value the buffer would later set aside as
    /// damage (a `FixDecision` built by an app with a negative or NaN total) is refused, naming the first such fix's
    /// index and field, instead of being stored. O(n), before anything is written.
    private static func checkValues(
        _ fixes: some Collection<Fix>, _ decisions: [FixDecision]?, sessionID: String?, path: String,
        nothingDone: String = "nothing was stored"
    ) throws(StoreError) {
        for (index, fix) in fixes.enumerated() {
            let row = WrittenRow(fix: fix, decision: decisions?[index], sessionID: sessionID)
            guard let (column, reason) = valueDamage(in: row) else { continue }
            throw StoreError(
                kind: .unstorableValue(index: index, field: column.field, column: column.name), path: path,
                message: "\(reason); \(nothingDone)")
        }
    }

    /// Appends one fix (and the tracker's decision about it) in its own transaction.
    ///
    /// - Returns: the row id given to it and the rows dropped to respect the limits.
    /// - Complexity: O(1) plus one device flush with ``Durability/full``; batch fixes with
    ///   ``append(_:decisions:sessionID:)`` when they arrive together.
    @discardableResult
    public func append(_ fix: Fix, decision: FixDecision? = nil, sessionID: String? = nil) throws(StoreError)
        -> AppendReceipt
    {
        try append(CollectionOfOne(fix), decisions: decision.map { [$0] }, sessionID: sessionID)
    }

    /// Appends fixes in one transaction: all are persisted, or (on error) none.
    ///
    /// - Parameters:
    ///   - fixes: the fixes, in the order their row ids should follow.
    ///   - decisions: the tracker's decisions, one per fix in the same order (as ``Tracker/process(batch:)``
    ///     returns them), or `nil` to store none.
    ///   - sessionID: the session they belong to, if any.
    ///   - skippingStored: leave out a fix the buffer already holds (a row of the same session with the same
    ///     time, latitude and longitude; one lookup in the time index per fix), so importing a file twice, or
    ///     again after an interrupted import, stores each fix once. Rows already synced and deleted cannot be
    ///     recognised. Off by default: a live app appends each delivery once, and the lookup costs time.
    /// - Throws: ``StoreError`` of kind `invalidOption(name: "decisions", …)`, storing nothing, when
    ///   `decisions` has not as many elements as `fixes` or one has not its fix's time (a decision stored beside
    ///   another fix would be a wrong record that nothing downstream could detect; an app's mistake used to be a
    ///   precondition failure, which lost the process and the fixes it had not stored yet); of kind
    ///   `unstorableValue(index:field:column:)`, storing nothing, when a fix or decision holds a value the buffer
    ///   would read back as damage (a decision's negative or NaN total, increment or speed, a filtered position off
    ///   the globe: the rules of ``decode(_:)``; such a row was stored, then set aside by the sync, never sent);
    ///   `diskFull`, `readOnly`,
    ///   `busy`, `corrupt` or `sqlite` when SQLite fails (nothing of the batch stored).
    /// - Complexity: O(n) (O(n log N) when skipping stored fixes) plus, when the cap is exceeded, O(k log N) to
    ///   drop k rows.
    @discardableResult
    public func append(
        _ fixes: some Collection<Fix>, decisions: [FixDecision]? = nil, sessionID: String? = nil,
        skippingStored: Bool = false
    ) throws(StoreError) -> AppendReceipt {
        try append(fixes, decisions: decisions, sessionID: sessionID, skippingStored: skippingStored, session: nil)
    }

    /// Appends fixes and updates their session in **one transaction**: the rows and the session's state (its
    /// counters, distance, last fix, checkpoints) are stored together, or (on error, a full disk, a kill) neither.
    ///
    /// Appending and then calling ``SessionStateStore/update(sessionID:_:)`` commits twice: a process killed
    /// between the two keeps the rows without the session's record of them, and although a resume replays them
    /// (``SessionSnapshot/resumed(from:trackingProfile:stopProfile:)``), the session's counters stayed short for
    /// good (a crash tester's session: 47,909 fixes accepted of 57,909 stored, after a full disk between the two).
    ///
    /// - Parameters:
    ///   - fixes, decisions, skippingStored: as ``append(_:decisions:sessionID:skippingStored:)``.
    ///   - sessionID: the session the rows belong to and whose state is updated (in the ``SessionStateStore``
    ///     tables of this file).
    ///   - update: changes the stored snapshot (a new running one when none is stored), given this append's
    ///     receipt (its row ids, for ``SessionSnapshot/saveCheckpoints(tracker:stopDetector:afterBufferRow:)``);
    ///     the result is merged as ``SessionStateStore/update(sessionID:_:)`` merges it (never backwards). It runs
    ///     inside the buffer's write transaction: it must not touch this buffer or a ``SessionStateStore`` (another
    ///     connection would wait for the lock the transaction holds until its busy timeout, then fail).
    ///
    /// A damaged session row (a value no TrueTrack build writes, edited by hand: ``DamagedSession``) never costs the
    /// fixes: they are stored, `update` is not called, the row is left as it is (not continued from garbage, not
    /// written over with values derived from it) and the receipt names it (``AppendReceipt/damagedSession``). Such a
    /// row used to roll the whole append back, so no fix of the session was stored any more.
    ///
    /// - Returns: the receipt and the session as stored now (`nil` when its row is damaged, left as it is).
    /// - Throws: as ``append(_:decisions:sessionID:skippingStored:)``; nothing is stored on error.
    @discardableResult
    public func append(
        _ fixes: some Collection<Fix>, decisions: [FixDecision]? = nil, sessionID: String,
        skippingStored: Bool = false, updatingSession update: (inout SessionSnapshot, AppendReceipt) -> Void
    ) throws(StoreError) -> (receipt: AppendReceipt, session: SessionSnapshot?) {
        var session: SessionSnapshot?
        var damage: DamagedSession?
        var receipt = try withoutActuallyEscaping(update) { update throws(StoreError) in
            try append(
                fixes, decisions: decisions, sessionID: sessionID, skippingStored: skippingStored,
                session: { receipt throws(StoreError) in
                    // (Read and checked once, before the update: a damaged row threw there, which rolled the fixes
                    // back.)
                    let stored = try SessionStateStore.stored(sessionID: sessionID, in: self.db)
                    if let found = stored?.damage {
                        damage = found
                        return
                    }
                    session = try SessionStateStore.update(
                        sessionID: sessionID, stored: stored?.snapshot, in: self.db
                    ) { update(&$0, receipt) }
                })
        }
        receipt.damagedSession = damage
        return (receipt, session)
    }

    /// The stored state of `sessionID` (the ``SessionStateStore`` tables of this file) read and checked once through
    /// this buffer's connection: its snapshot when sound, what is wrong with it when damaged (``DamagedSession``),
    /// `nil` when none was written. What an add reads before continuing the session (it read the row twice,
    /// ``sessionDamage(sessionID:)`` then ``sessionSnapshot(sessionID:)``).
    public func storedSession(sessionID: String) throws(StoreError) -> StoredSession? {
        try SessionStateStore.stored(sessionID: sessionID, in: db)
    }

    /// What is wrong with the stored state of `sessionID` (``DamagedSession``), or `nil` when it is sound or absent
    /// (``sessionSnapshot(sessionID:)`` throws on such a row; ``storedSession(sessionID:)`` gives either at once).
    ///
    /// Deprecated: ``storedSession(sessionID:)``'s ``StoredSession/damage`` is the same, and its
    /// ``StoredSession/snapshot`` comes with it from the same read.
    @available(*, deprecated, message: "use storedSession(sessionID:)?.damage (the same read gives the snapshot)")
    public func sessionDamage(sessionID: String) throws(StoreError) -> DamagedSession? {
        try storedSession(sessionID: sessionID)?.damage
    }

    /// The stored state of `sessionID` (the ``SessionStateStore`` tables of this file), read through this buffer's
    /// connection, or `nil` when none was written: what an add that updates the session with
    /// ``append(_:decisions:sessionID:skippingStored:updatingSession:)`` continues from, without a second connection.
    /// Throws ``StoreError/Kind/damagedRow(table:key:column:)`` when the session's row is damaged.
    ///
    /// Deprecated: ``storedSession(sessionID:)`` reads the row once and gives its ``StoredSession/snapshot`` when
    /// sound, its ``StoredSession/damage`` (instead of throwing) when damaged.
    @available(
        *, deprecated,
        message: "use storedSession(sessionID:): its snapshot when sound, its damage (not a throw) when damaged"
    )
    public func sessionSnapshot(sessionID: String) throws(StoreError) -> SessionSnapshot? {
        try SessionStateStore.snapshot(sessionID: sessionID, in: db)
    }

    /// Both appends: `session`, when given, runs inside the transaction after the rows (and the cap) with the
    /// receipt so far, and also for an empty `fixes`.
    private func append(
        _ fixes: some Collection<Fix>, decisions: [FixDecision]?, sessionID: String?, skippingStored: Bool,
        session: ((AppendReceipt) throws(StoreError) -> Void)?
    ) throws(StoreError) -> AppendReceipt {
        // One array for the loops below (no copy when `fixes` is one): over a generic collection each row's
        // `enumerated()` and `zip` looked up their tuples' type metadata at run time, behind a lock (`buffer add`
        // spent 7 % of its time there).
        let fixes = Array(fixes)
        if let decisions { try FixBuffer.checkPairing(fixes, decisions, path: path) }
        try FixBuffer.checkValues(fixes, decisions, sessionID: sessionID, path: path)
        if fixes.isEmpty {
            var receipt = AppendReceipt(ids: nil, droppedCount: 0)
            // (As for a batch skipped whole: the session's newest row, which a checkpoint taken now follows; the
            // CLI appends nothing when every fix of a batch was rejected, a reviewer's.)
            receipt.lastRowID = try newestRow(sessionID: sessionID)
            if let session { try db.transaction { () throws(StoreError) in try session(receipt) } }
            return receipt
        }
        // The age limit's prune (at most once a minute) runs in the append's own transaction: if the append
        // fails, the rows it would have dropped stay, to be dropped and counted by a later receipt (pruned in a
        // transaction of its own, they were gone and in no receipt: a reviewer's).
        var pruneTime: Timestamp?
        if options.maxAgeSeconds != nil {
            let now = FixBuffer.now()
            if now.secondsSince1970 - lastPruneSeconds >= 60 { pruneTime = now }
        }
        let appended = try db.transaction { () throws(StoreError) -> AppendReceipt in
            var dropped = 0
            var aged = RemovedRows()
            if let pruneTime {
                aged = try pruneExpiredInTransaction(now: pruneTime)
                dropped += aged.dropped
            }
            var capped = RemovedRows()
            let insert = try db.statement(FixBuffer.insertSQL)
            let lookup = skippingStored ? try db.statement(FixBuffer.storedSQL) : nil
            let storedMilliseconds = FixBuffer.now().millisecondsSince1970
            var first: Int64?
            var inserted = 0, skipped = 0
            for (index, fix) in fixes.enumerated() {
                if let lookup {
                    FixBuffer.bindStored(fix, sessionID: sessionID, to: lookup)
                    let isStored = try lookup.step()
                    lookup.reset()
                    if isStored {
                        skipped += 1
                        continue
                    }
                }
                sqlite3_reset(insert.raw)
                FixBuffer.bind(WrittenRow(fix: fix, decision: decisions?[index], sessionID: sessionID), to: insert)
                insert.bind(FixBuffer.storedMillisecondsParameter, storedMilliseconds)
                try insert.step()
                if first == nil { first = sqlite3_last_insert_rowid(db.handle) }
                inserted += 1
            }
            var ids: ClosedRange<Int64>?
            if let first {
                ids = first...sqlite3_last_insert_rowid(db.handle)
                let count = try db.statement("UPDATE buffer_counters SET row_count = row_count + ? WHERE id = 1")
                count.bind(1, Int64(inserted))
                try count.step()
                capped = try enforceCap(firstNewID: first)
                dropped += capped.dropped
            }
            var receipt = AppendReceipt(ids: ids, droppedCount: dropped, skippedCount: skipped)
            receipt.droppedRejectedCount = capped.rejected + aged.rejected
            receipt.droppedDamagedCount = capped.damaged + aged.damaged
            if let ids {
                receipt.lastRowID = ids.upperBound
            } else {
                // Nothing stored (every fix already held): the session's newest row, which a checkpoint taken
                // now follows (an API tester's re-delivered batch left a checkpoint with no row, and the resume
                // was no longer exact).
                receipt.lastRowID = try newestRow(sessionID: sessionID)
            }
            try session?(receipt)
            return receipt
        }
        if let pruneTime { lastPruneSeconds = pruneTime.secondsSince1970 }
        return appended
    }

    /// Drops the oldest rows past the cap, those of a batch being sent after the other rows stored before
    /// `firstNewID` (the append's own); inside a transaction.
    ///
    /// A batch being sent (claimed by ``nextBatch(size:)``, not acknowledged yet) keeps its rows while older unsent
    /// rows can go (then a batch rejected keeping its key, whole): its retry must carry the same rows under the same
    /// key, and a server following the Idempotency-Key draft refuses a key reused with another body (422), which
    /// rejected the rest of the batch (an app tester's offline phone whose cap dropped the front of the batch in
    /// flight). The append's own fixes are never dropped to keep a batch: when every older row is in flight (a cap not
    /// much larger than the batches), the batch goes, whole (a key is never sent again with fewer rows: a crash
    /// tester's retry carried a third of its batch under its key, which a strict server refused with 422, and a
    /// requeue sent the rest under a new one, stored twice); the next batch claimed closes it. So the cap can
    /// drop up to a batch more than the excess.
    ///
    /// No more than that: when the older rows claimed by no batch cannot make up the excess, the batches that must
    /// go are chosen first, and then only as many of those rows as the batches leave to drop, oldest first. Dropped
    /// in the order above, they all went before a batch that made most of them unnecessary (an app tester's cap of
    /// 100, rows 1…50 in flight and 81…130 pending: 70 new fixes dropped 100 rows, 81…130 and the batch, and left
    /// 70 where 100 fitted; now the batch and 81…100).
    ///
    /// Returns the rows dropped and, of them, those a backend had rejected and those a sync had set aside as damaged
    /// (which nothing but the cap, the age limit and ``dropDamagedRows()`` deletes: said, since a tester's add
    /// reported "150 rows dropped" while 40 rejected rows and a damaged one went with them).
    private func enforceCap(firstNewID: Int64) throws(StoreError) -> RemovedRows {
        let rows = try db.integer("SELECT row_count FROM buffer_counters WHERE id = 1")
        let excess = rows - Int64(options.maxRecordsToPersist)
        guard excess > 0 else { return RemovedRows() }
        // The older rows claimed by no batch, up to the excess (a count of at most that many rows, not a scan).
        let unclaimed = try db.integer(
            "SELECT count(*) FROM (SELECT 1 FROM fixes WHERE batch_id IS NULL AND id < ?2 ORDER BY id LIMIT ?1)",
            excess, firstNewID)
        var removed = RemovedRows()
        if unclaimed < excess {
            // Whole batches must go: those covering what the unclaimed rows cannot.
            for condition in [
                // A batch rejected keeping its key goes whole: its requeue resends it under that key, which a server
                // following the Idempotency-Key draft refuses with another body (422), and the rows went again under
                // a new one (a reviewer's point).
                """
                batch_id IN (SELECT batch_id FROM (SELECT batch_id FROM fixes
                    WHERE \(FixBuffer.keptKeyRows) AND id < ?2 ORDER BY id LIMIT ?1))
                """,
                // Then the batches in flight, oldest first, each whole.
                """
                batch_id IN (SELECT batch_id FROM (SELECT batch_id FROM fixes
                    WHERE batch_id IS NOT NULL AND id < ?2 ORDER BY id LIMIT ?1))
                """,
            ] where Int64(removed.dropped) < excess - unclaimed {
                removed += try deleteTallying(
                    where: condition, [excess - unclaimed - Int64(removed.dropped), firstNewID])
            }
        }
        // The older rows claimed by no batch, oldest first, as many as the batches left to drop; then, when every
        // older row is gone, the append's own.
        for condition in [
            "id IN (SELECT id FROM fixes WHERE batch_id IS NULL AND id < ?2 ORDER BY id LIMIT ?1)",
            "id IN (SELECT id FROM fixes WHERE batch_id IS NULL ORDER BY id LIMIT ?1)",
        ] where removed.dropped < excess {
            let remaining = excess - Int64(removed.dropped)
            removed += try deleteTallying(
                where: condition, condition.contains("?2") ? [remaining, firstNewID] : [remaining])
        }
        try countRemoval(removed.dropped, asDropped: true)
        return removed
    }

    /// Rows deleted, and of them those a backend had rejected and those a sync had set aside as damaged.
    struct RemovedRows {
        var dropped = 0, rejected = 0, damaged = 0

        static func += (lhs: inout RemovedRows, rhs: RemovedRows) {
            lhs.dropped += rhs.dropped
            lhs.rejected += rhs.rejected
            lhs.damaged += rhs.damaged
        }
    }

    /// Deletes the rows matching `condition` (SQL after `WHERE`, its `?1`, `?2`, … bound to `parameters`) and returns
    /// how many, with their states tallied before they go by the same condition in the same transaction (the caller's;
    /// not `DELETE … RETURNING`, which needs SQLite 3.35, nor `FILTER`, 3.30: Debian 11, Ubuntu 20.04 and iOS 14 have
    /// older ones). The counters are the caller's to update.
    private func deleteTallying(where condition: String, _ parameters: [Int64]) throws(StoreError) -> RemovedRows {
        var removed = RemovedRows()
        let states = try db.statement(
            "SELECT total(sync_state = 1), total(sync_state = \(FixBuffer.damagedState)) FROM fixes WHERE \(condition)")
        for (k, value) in parameters.enumerated() { states.bind(Int32(k + 1), value) }
        if try states.step() {
            removed.rejected = Int(states.double(0))
            removed.damaged = Int(states.double(1))
        }
        states.reset()
        let delete = try db.statement("DELETE FROM fixes WHERE \(condition)")
        for (k, value) in parameters.enumerated() { delete.bind(Int32(k + 1), value) }
        try delete.step()
        removed.dropped = db.changes
        return removed
    }

    /// The newest row the buffer holds of `sessionID` (rows without a session for `nil`), or `nil` when it holds
    /// none. (A scan: only for an append that stores nothing.)
    private func newestRow(sessionID: String?) throws(StoreError) -> Int64? {
        let newest = try db.statement("SELECT max(id) FROM fixes WHERE session_id IS ?1")
        defer { newest.reset() }
        newest.bind(1, sessionID)
        return try newest.step() && !newest.isNull(0) ? newest.int64(0) : nil
    }

    /// Updates the counters after `removed` rows were deleted; inside a transaction.
    private func countRemoval(_ removed: Int, asDropped: Bool) throws(StoreError) {
        guard removed > 0 else { return }
        let update = try db.statement(
            "UPDATE buffer_counters SET row_count = row_count - ?1, dropped = dropped + ?2 WHERE id = 1")
        update.bind(1, Int64(removed))
        update.bind(2, asDropped ? Int64(removed) : 0)
        try update.step()
    }

    /// Drops fixes stored longer than ``StoreOptions/maxAgeSeconds`` before `now` (no-op without an age limit)
    /// and returns how many; they count as dropped. (Rows stored before schema version 3 are dated at the
    /// migration; a row without a storage time, which no build writes, is judged by its fix's time.)
    ///
    /// - Complexity: O(N): a full scan (the age limit is checked at most once a minute by `append`).
    @discardableResult
    public func pruneExpired(now: Timestamp) throws(StoreError) -> Int {
        guard options.maxAgeSeconds != nil else { return 0 }
        let removed = try db.transaction { () throws(StoreError) -> RemovedRows in
            try pruneExpiredInTransaction(now: now)
        }
        lastPruneSeconds = now.secondsSince1970
        return removed.dropped
    }

    /// ``pruneExpired(now:)``'s deletion, inside the caller's transaction (an append's or its own), with how many of
    /// the rows dropped a backend had rejected and a sync had set aside as damaged (for the append's receipt); the
    /// caller notes the prune's time once that transaction has committed.
    private func pruneExpiredInTransaction(now: Timestamp) throws(StoreError) -> RemovedRows {
        guard let age = options.maxAgeSeconds else { return RemovedRows() }
        let cutoff = now.advanced(bySeconds: -age).millisecondsSince1970
        // A batch rejected keeping its key goes whole, as under the cap: first the batches with an expired row, then
        // the other expired rows. (In one statement, `expired OR batch_id IN (…expired…)`, SQLite 3.40 evaluated the
        // subquery after the expired rows were gone, found no batch, and left the rest of each: 3 of a 10-row batch
        // dropped, 7 later resent under its key with another body; a mutation tester's.)
        var removed = try deleteTallying(
            where: """
                batch_id IN (SELECT batch_id FROM fixes
                    WHERE \(FixBuffer.keptKeyRows) AND coalesce(stored_ms, time_ms) < ?1)
                """, [cutoff])
        removed += try deleteTallying(where: "coalesce(stored_ms, time_ms) < ?1", [cutoff])
        try countRemoval(removed.dropped, asDropped: true)
        return removed
    }

    /// The columns an append writes (``Column``'s but the id and the sync's), in ``insertSQL``'s order: each
    /// column's raw value is its parameter.
    static let insertColumns = Column.allCases.filter { $0 != .id && !syncColumns.contains($0) }
    /// ``insertColumns``' names, comma-separated.
    static let columns = insertColumns.map(\.name).joined(separator: ", ")
    /// A decision's nine columns, in the order ``bindDecision(of:to:from:)`` binds them.
    static let decisionColumns = Column.decision.map(\.name)
    /// ``insertSQL``'s parameter for `stored_ms`: the one after every ``insertColumns`` column's.
    static let storedMillisecondsParameter = (insertColumns.last?.rawValue ?? 0) + 1
    /// An append's insert: ``insertColumns`` (parameter `?n` is the column whose raw value is `n`), then `stored_ms`
    /// (``storedMillisecondsParameter``); both lists built from ``Column``, so a column added there cannot leave them
    /// apart.
    static let insertSQL =
        "INSERT INTO fixes (\(columns), stored_ms) VALUES ("
        + (insertColumns.map(\.rawValue) + [storedMillisecondsParameter]).map { "?\($0)" }.joined(separator: ", ") + ")"
    static let selectSQL = "SELECT \(Column.allCases.map(\.name).joined(separator: ", ")) FROM fixes"
    /// The columns of ``selectSQL`` that hold numbers (or NULL): times, coordinates, measurements, counts, the
    /// decision's figures and the sync state.
    static let numberColumns = Column.allCases.filter { !$0.isText }
    /// The columns of ``selectSQL`` that hold text (or NULL): the session, the provider, the activity and the
    /// decision's verdicts.
    static let textColumns = Column.allCases.filter(\.isText)
    /// The columns of ``selectSQL`` every fix has (its time, latitude and longitude): NULL there is damage.
    static let requiredColumns: [Column] = [.time, .latitude, .longitude]
    /// The columns of ``selectSQL`` that say where a row stands with the sync (`sync_state`, `sync_status`,
    /// `batch_id`), not what its fix is.
    static let syncColumns: [Column] = [.syncState, .syncStatus, .batchID]
    /// ``numberColumns`` but the ``syncColumns``: the fix's and its decision's numbers, and the row id.
    static let fixNumberColumns = numberColumns.filter { !syncColumns.contains($0) }
    /// ``integerColumns`` but the ``syncColumns`` (the decoder's per-row test, filtered once).
    static let fixIntegerColumns = integerColumns.filter { !syncColumns.contains($0) }
    /// The rows whose sync columns hold what no build writes (a `sync_state` outside 0–2 or not an integer, text or a
    /// blob in `sync_status` or `batch_id`): damaged (``decode(_:)`` says so too, which ``statistics()`` counts by),
    /// what ``requeueDamaged()`` looks at besides the rows set aside, whatever their fix columns hold.
    static let syncDamagedRows = """
        (typeof(sync_state) != 'integer' OR sync_state NOT BETWEEN 0 AND 2
            OR typeof(sync_status) NOT IN ('integer', 'null') OR typeof(batch_id) NOT IN ('integer', 'null'))
        """
    /// `sync_state` of a row set aside as damaged (``SyncState/damaged``); 0 is pending (or in flight, with a
    /// `batch_id`), 1 rejected. (A value older builds never wrote and skip: they send only state 0.)
    static let damagedState: Int64 = 2
    /// The rows of a batch rejected keeping its key (``markRejected(_:status:keepingItsKey:)``), which the cap and
    /// the age limit drop whole.
    static let keptKeyRows = "sync_state = 1 AND batch_id IS NOT NULL"
    /// The rows of one fix: its identity (`Fix.Identity`: time and position) and session
    /// (``bindStored(_:sessionID:to:)`` binds them; the time index narrows it to the rows of one millisecond).
    static let storedRows = "time_ms = ?1 AND latitude = ?2 AND longitude = ?3 AND session_id IS ?4"
    /// Whether a fix is stored already.
    static let storedSQL = "SELECT 1 FROM fixes WHERE \(storedRows) LIMIT 1"

    /// Whether the buffer holds `fix` already: a row of session `sessionID` with the same time, latitude and
    /// longitude (what ``append(_:decisions:sessionID:skippingStored:)`` skips). One lookup in the time index.
    public func contains(_ fix: Fix, sessionID: String?) throws(StoreError) -> Bool {
        let lookup = try db.statement(FixBuffer.storedSQL)
        defer { lookup.reset() }
        FixBuffer.bindStored(fix, sessionID: sessionID, to: lookup)
        return try lookup.step()
    }

    /// Binds the parameters of ``storedRows`` for `fix` of session `sessionID`.
    private static func bindStored(_ fix: Fix, sessionID: String?, to lookup: Statement) {
        lookup.bind(1, fix.timestamp.millisecondsSince1970)
        lookup.bind(2, fix.latitude)
        lookup.bind(3, fix.longitude)
        lookup.bind(4, sessionID)
    }

    /// Binds every parameter of ``insertSQL`` but the storage time (NULL when absent) to `row`'s values (those
    /// ``valueDamage(in:)`` checked), so rows need no `clear_bindings`.
    private static func bind(_ row: WrittenRow, to s: Statement) {
        for column in insertColumns { s.bind(column.rawValue, row.value(column)) }
    }

    /// Binds `row`'s decision's nine columns (rejection … total_distance_m, in ``columns``' order) from parameter
    /// `first` on; NULL for every one without a decision.
    private static func bindDecision(of row: WrittenRow, to s: Statement, from first: Int32) {
        for (offset, column) in Column.decision.enumerated() { s.bind(first + Int32(offset), row.value(column)) }
    }

    /// A fix's rows, oldest first, and whether each belongs to a batch.
    static let reviseRowsSQL = "SELECT id, batch_id IS NOT NULL FROM fixes WHERE \(storedRows) ORDER BY id"
    static let reviseUpdateSQL =
        "UPDATE fixes SET "
        + decisionColumns.enumerated().map { "\($1) = ?\($0 + 1)" }.joined(separator: ", ")
        + " WHERE id = ?\(decisionColumns.count + 1)"

    /// Replaces the stored decisions of fixes a ``RewindingTracker`` processed again because a late fix came
    /// before them (``RewindingTracker/BatchOutcome/revised`` about ``RewindingTracker/BatchOutcome/revisedFixes``),
    /// so that what the sync sends is the tracker's present view: an app that only appended kept each fix's first
    /// decision, and its backend received totals and filtered positions the tracker had since revised (an API
    /// tester, 2026-12-04).
    ///
    /// Each decision goes to the session's row of its fix (the same time, latitude and longitude, as
    /// ``contains(_:sessionID:)`` finds it); the n-th of several equal fixes in `fixes` (a repeated delivery) to the
    /// n-th such row by row id, when the buffer holds as many such rows as there are equal fixes: otherwise (one
    /// synced away or dropped, or a repeat `skippingStored` left out) no row can be told from another, and those
    /// decisions are left (``RevisionReceipt/ambiguousCount``). A row claimed by a batch (``nextBatch(size:)``,
    /// not acknowledged yet, or rejected keeping its key) is left as it is: its retry must send the same rows under
    /// the same Idempotency-Key, so the backend keeps the decision it was first sent for that fix. Rows synced away
    /// or dropped by the cap are gone. The receipt counts each case.
    ///
    /// Call it **before** appending the fixes of the batch whose processing revised them: the revised fixes were
    /// all delivered before that batch, and a repeat inside the batch (a fix delivered again) must have no row
    /// yet, or it is taken for a revised fix whose own row was synced away (an API tester's backend received such a
    /// fix accepted twice when the batch was appended first).
    ///
    /// - Parameters:
    ///   - decisions: the revised decisions; `decisions[i]` is about `fixes[i]`.
    ///   - fixes: the fixes they are about, in any order (equal fixes in the order they were appended).
    ///   - sessionID: the session the fixes were appended under.
    /// - Throws: ``StoreError`` of kind `invalidOption(name: "decisions", …)`, revising nothing, when the two do not
    ///   pair (another count, or a decision not at its fix's time); of kind `unstorableValue(index:field:column:)`,
    ///   revising nothing, when a decision holds a value the buffer would read back as damage (as
    ///   ``append(_:decisions:sessionID:skippingStored:)``); `sqlite` and the like when SQLite fails (nothing
    ///   revised).
    @discardableResult
    public func revise(_ decisions: [FixDecision], of fixes: [Fix], sessionID: String?) throws(StoreError)
        -> RevisionReceipt
    {
        try FixBuffer.checkPairing(fixes, decisions, path: path, nothingDone: "nothing was revised")
        try FixBuffer.checkValues(
            fixes, decisions, sessionID: sessionID, path: path, nothingDone: "nothing was revised")
        guard !decisions.isEmpty else { return RevisionReceipt() }
        return try db.transaction { () throws(StoreError) -> RevisionReceipt in
            let find = try db.statement(FixBuffer.reviseRowsSQL)
            let update = try db.statement(FixBuffer.reviseUpdateSQL)
            defer {
                find.reset()
                update.reset()
            }
            // Each fix's decisions (equal fixes: a repeated delivery), in order.
            var decisionsOf: [Fix.Identity: [FixDecision]] = [:]
            var order: [(key: Fix.Identity, fix: Fix)] = []
            for (fix, decision) in zip(fixes, decisions) {
                let key = Fix.Identity(fix)
                if decisionsOf[key] == nil { order.append((key, fix)) }
                decisionsOf[key, default: []].append(decision)
            }
            var receipt = RevisionReceipt()
            for (key, fix) in order {
                let decisions = decisionsOf[key]!
                find.reset()
                FixBuffer.bindStored(fix, sessionID: sessionID, to: find)
                var rows: [(id: Int64, isInBatch: Bool)] = []
                while try find.step() { rows.append((find.int64(0), find.int64(1) != 0)) }
                // Equal fixes pair with their rows in order only when the buffer holds as many rows of that fix as
                // there are decisions: one synced away or skipped, and no row can be told from another (the first
                // copy's accepted decision went to its repeat's row, a reviewer's).
                if decisions.count > 1, rows.count != decisions.count {
                    receipt.ambiguousCount += decisions.count
                    continue
                }
                for (n, decision) in decisions.enumerated() {
                    guard n < rows.count else {
                        receipt.missingCount += 1
                        continue
                    }
                    if rows[n].isInBatch {
                        receipt.inBatchCount += 1
                        continue
                    }
                    update.reset()
                    FixBuffer.bindDecision(
                        of: WrittenRow(fix: fix, decision: decision, sessionID: sessionID), to: update, from: 1)
                    update.bind(Int32(FixBuffer.decisionColumns.count + 1), rows[n].id)
                    _ = try update.step()
                    receipt.revisedCount += 1
                }
            }
            return receipt
        }
    }

    /// Decodes a row of ``selectSQL``; a row that no longer decodes (edited by hand) throws
    /// ``StoreError/Kind/damagedRow(table:key:column:)`` naming it.
    private func row(_ s: Statement) throws(StoreError) -> BufferedFix { try fix(decode(s)) }

    /// The fix of a decoded row; a damaged one throws as ``row(_:)`` does.
    private func fix(_ entry: BufferRow) throws(StoreError) -> BufferedFix {
        switch entry {
        case .fix(let row): return row
        case .damaged(let damaged): throw damagedRowError(damaged)
        }
    }

    /// The error a read that needs every row to decode throws for `damaged`.
    private func damagedRowError(_ damaged: DamagedRow) -> StoreError {
        StoreError(
            kind: .damagedRow(table: "fixes", key: "\(damaged.id)", column: damaged.column), path: path,
            sql: FixBuffer.selectSQL, message: damaged.description)
    }

    // MARK: Reading

    /// The newest rows first, at most `limit` of them.
    ///
    /// - Throws: ``StoreError`` of kind ``StoreError/Kind/damagedRow(table:key:column:)`` when one of them no longer
    ///   decodes (``newestRows(limit:)`` names such a row instead).
    /// - Complexity: O(limit).
    public func newest(limit: Int) throws(StoreError) -> [BufferedFix] {
        var result: [BufferedFix] = []
        for entry in try newestRows(limit: limit) { result.append(try fix(entry)) }
        return result
    }

    /// The rows of one session appended after row `rowID`, in the order they were appended: what a resumed
    /// session replays (see ``SessionSnapshot/resumed(from:trackingProfile:stopProfile:)``). `sessionID` `nil`
    /// selects the rows stored without a session.
    ///
    /// - Complexity: O(log N + k) (the row id is the table's key).
    public func rows(after rowID: Int64, sessionID: String?) throws(StoreError) -> [BufferedFix] {
        let s = try db.statement("\(FixBuffer.selectSQL) WHERE id > ? AND session_id IS ? ORDER BY id")
        s.bind(1, rowID)
        s.bind(2, sessionID)
        defer { s.reset() }
        var result: [BufferedFix] = []
        while try s.step() { result.append(try row(s)) }
        return result
    }

    /// Whether any row appended after row `rowID` has left the buffer (acknowledged by a sync, dropped by the
    /// cap or the age limit, cleared): row ids are never reused, so every id above `rowID` up to the highest
    /// ever given must still be present for nothing to be missing.
    public func hasRemovedRows(after rowID: Int64) throws(StoreError) -> Bool {
        let highest = try db.integer("SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'fixes'")
        let present = try db.integer("SELECT count(*) FROM fixes WHERE id > ?", rowID)
        return present != max(0, highest - rowID)
    }

    /// The number of fixes in the buffer (pending, in flight and rejected).
    ///
    /// - Complexity: O(1) (a maintained counter).
    public func count() throws(StoreError) -> Int {
        Int(try db.integer("SELECT row_count FROM buffer_counters WHERE id = 1"))
    }

    /// The newest rows first, at most `limit` of them, a row that no longer decodes named (``DamagedRow``) instead
    /// of failing the whole read as ``newest(limit:)`` does: what a listing shows.
    ///
    /// - Complexity: O(limit).
    public func newestRows(limit: Int) throws(StoreError) -> [BufferRow] {
        let s = try db.statement("\(FixBuffer.selectSQL) ORDER BY id DESC LIMIT ?")
        s.bind(1, Int64(max(0, limit)))
        // Reset on every exit, errors included: a statement left mid-read pins an old WAL snapshot.
        defer { s.reset() }
        var result: [BufferRow] = []
        while try s.step() { result.append(decode(s)) }
        return result
    }

    /// Every row that no longer decodes (set aside by a sync or not yet), oldest first. Read only.
    ///
    /// - Complexity: O(N) (every row decoded).
    public func damagedRows() throws(StoreError) -> [DamagedRow] {
        let s = try db.statement("\(FixBuffer.selectSQL) ORDER BY id")
        defer { s.reset() }
        var result: [DamagedRow] = []
        while try s.step() {
            if case .damaged(let row) = decode(s) { result.append(row) }
        }
        return result
    }

    /// Deletes every row whose fix no longer decodes (set aside by a sync or not yet: ``damagedRows()``) and returns
    /// them; the only way such a row leaves the buffer besides ``clear()``, the cap and the age limit. They are not
    /// counted as dropped (``BufferStatistics/droppedCount`` is the cap's and the age limit's). A damaged row in a
    /// batch already sent once leaves it: the batch goes again under its key without it. A row damaged only in its
    /// sync columns (``DamagedRow/isFixIntact``: a `sync_state` of 99) is kept: its fix is intact, and
    /// ``requeueDamaged()`` makes it pending (it was deleted, fix and all).
    ///
    /// - Complexity: O(N) (every row decoded).
    @discardableResult
    public func dropDamagedRows() throws(StoreError) -> [DamagedRow] {
        try dropDamagedRowsNamingTheKept().dropped
    }

    /// ``dropDamagedRows()``, and the damaged rows it keeps (``DamagedRow/isFixIntact``: damaged only in their sync
    /// columns, which ``requeueDamaged()`` repairs), found by the same decoding of the table: what `buffer
    /// drop-damaged` prints (it decoded the table twice, once to drop, once to name the rows kept).
    ///
    /// - Complexity: O(N) (every row decoded once).
    @discardableResult
    public func dropDamagedRowsNamingTheKept() throws(StoreError) -> (dropped: [DamagedRow], kept: [DamagedRow]) {
        try db.transaction { () throws(StoreError) -> (dropped: [DamagedRow], kept: [DamagedRow]) in
            let all = try damagedRows()
            let damaged = all.filter { !$0.isFixIntact }
            let delete = try db.statement("DELETE FROM fixes WHERE id = ?")
            defer { delete.reset() }
            for row in damaged {
                delete.reset()
                delete.bind(1, row.id)
                try delete.step()
            }
            try countRemoval(damaged.count, asDropped: false)
            return (damaged, all.filter(\.isFixIntact))
        }
    }

    /// Re-checks the rows a sync set aside as damaged: those that decode again (corrected by hand) become pending,
    /// sent by the next sync; the others stay set aside. Also repairs the rows damaged only in their sync columns
    /// (``DamagedRow/isFixIntact``: a `sync_state` of 99, text in `batch_id`), set aside or not: their fix is
    /// intact, so they become pending, out of any batch (such a row was counted nowhere, and stuck).
    ///
    /// - Returns: how many became pending, and the rows still damaged (their fix columns).
    @discardableResult
    public func requeueDamaged() throws(StoreError) -> (requeuedCount: Int, stillDamaged: [DamagedRow]) {
        try db.transaction { () throws(StoreError) -> (requeuedCount: Int, stillDamaged: [DamagedRow]) in
            let s = try db.statement(
                """
                \(FixBuffer.selectSQL) WHERE sync_state = \(FixBuffer.damagedState) OR \(FixBuffer.syncDamagedRows)
                ORDER BY id
                """)
            defer { s.reset() }
            var readable: [Int64] = [], stillDamaged: [DamagedRow] = []
            while try s.step() {
                switch decode(s) {
                case .fix(let row): readable.append(row.id)
                case .damaged(let row) where row.isFixIntact: readable.append(row.id)
                case .damaged(let row): stillDamaged.append(row)
                }
            }
            s.reset()
            let requeue = try db.statement(
                "UPDATE fixes SET sync_state = 0, sync_status = NULL, batch_id = NULL WHERE id = ?")
            defer { requeue.reset() }
            for id in readable {
                requeue.reset()
                requeue.bind(1, id)
                try requeue.step()
            }
            return (readable.count, stillDamaged)
        }
    }

    /// The buffer's counts, each row where ``newestRows(limit:)`` (`buffer list`) shows it: a row that no longer
    /// decodes counts as damaged whether a sync has set it aside yet or not (``BufferStatistics/notSetAsideCount``).
    ///
    /// - Complexity: O(N): one scan, every row decoded (a row no sync has met yet was counted pending by SQL alone,
    ///   while `buffer list` called it damaged).
    public func statistics() throws(StoreError) -> BufferStatistics {
        // (One snapshot: the rows and the dropped count read apart could count a row the cap dropped between
        // them in both; a reviewer's.)
        try db.readSnapshot { () throws(StoreError) -> BufferStatistics in
            var stats = BufferStatistics(
                rowCount: 0, pendingCount: 0, inFlightCount: 0, rejectedCount: 0, droppedCount: 0)
            let s = try db.statement(FixBuffer.selectSQL)
            defer { s.reset() }
            while try s.step() {
                stats.rowCount += 1
                switch decode(s) {
                case .fix(let row):
                    switch row.syncState {
                    case .pending: stats.pendingCount += 1
                    case .inFlight: stats.inFlightCount += 1
                    case .rejected: stats.rejectedCount += 1
                    case .damaged:
                        stats.damagedCount += 1
                        stats.setAsideCount += 1
                    }
                case .damaged(let row):
                    stats.damagedCount += 1
                    if row.isSetAside { stats.setAsideCount += 1 }
                    if !row.isSetAside && !row.isFixIntact { stats.notSetAsideCount += 1 }
                }
            }
            s.reset()
            stats.droppedCount = Int(try db.integer("SELECT dropped FROM buffer_counters WHERE id = 1"))
            return stats
        }
    }

    /// Deletes every row (pending, in flight and rejected) and every open sync batch; returns the rows removed.
    @discardableResult
    public func clear() throws(StoreError) -> Int {
        try db.transaction { () throws(StoreError) -> Int in
            try db.execute("DELETE FROM fixes")
            let removed = db.changes
            try db.execute("DELETE FROM sync_batches")
            try countRemoval(removed, asDropped: false)
            return removed
        }
    }

    /// Runs `PRAGMA integrity_check` and returns its verdict (`["ok"]` for a sound file).
    public func integrityCheck() throws(StoreError) -> [String] {
        let s = try db.statement("PRAGMA integrity_check")
        var lines: [String] = []
        while try s.step() { lines.append(s.text(0) ?? "") }
        return lines
    }

    // MARK: Sync batches

    /// The batch the sync must send next: the oldest open batch with pending rows when one exists (a retry, or a
    /// batch rejected keeping its key and requeued: the same rows under the same key, whatever `size` is now; one
    /// whose rows are still rejected waits), else up to `size` of the oldest pending rows, claimed
    /// under a new random idempotency key in one transaction. `nil` when nothing is pending.
    ///
    /// A row that no longer decodes is set aside (``claimNextBatch(size:)``, which also says which).
    ///
    /// - Parameter size: the most rows a new batch claims, 1 or more.
    /// - Throws: ``StoreError`` of kind `invalidOption(name: "size", …)`, claiming nothing, for a `size` below 1; the
    ///   kinds of any write otherwise.
    public func nextBatch(size: Int) throws(StoreError) -> SyncBatch? {
        try claimNextBatch(size: size).batch
    }

    /// ``nextBatch(size:)``, and the damaged rows set aside on the way.
    ///
    /// A row of the batch that no longer decodes (a file edited by hand, a flipped bit: ``DamagedRow``) is set
    /// aside in the same transaction: marked ``SyncState/damaged`` and taken out of the batch, its bytes left as
    /// they are, never sent and never deleted unasked (``dropDamagedRows()``); the batch goes with the other rows
    /// (a batch left without any is closed and the next one claimed). One such row used to fail every sync of the
    /// buffer with "damaged, move it aside", its batch claimed and nothing sent: moving the file aside lost every
    /// pending fix. A batch already sent that loses a row this way goes again under its key with fewer rows, which a
    /// server following the Idempotency-Key draft may refuse (the rows are then rejected, kept; a requeue sends
    /// them under a new key): only a row edited after its batch was sent does this.
    ///
    /// - Parameter size: the most rows a new batch claims, 1 or more.
    /// - Throws: ``StoreError`` of kind `invalidOption(name: "size", …)`, claiming nothing, for a `size` below 1 (it
    ///   trapped on a precondition, which lost the process: an API tester's `size: 0`); the kinds of any write
    ///   otherwise.
    public func claimNextBatch(size: Int) throws(StoreError) -> BatchClaim {
        guard size >= 1 else {
            throw StoreError(
                kind: .invalidOption(name: "size", value: String(size), expected: "1 or more rows per batch"),
                path: path, message: "no batch was claimed")
        }
        return try db.transaction { () throws(StoreError) -> BatchClaim in
            var setAside: [DamagedRow] = []
            let orphaned = try releaseOrphanedRows()
            while true {
                guard let batchID = try openOrClaimBatch(size: size) else {
                    return BatchClaim(batch: nil, setAside: setAside, orphanedCount: orphaned)
                }
                let s = try db.statement("\(FixBuffer.selectSQL) WHERE batch_id = ? ORDER BY id")
                s.bind(1, batchID)
                defer { s.reset() }
                var rows: [BufferedFix] = [], damaged: [DamagedRow] = []
                while try s.step() {
                    switch decode(s) {
                    case .fix(let row): rows.append(row)
                    case .damaged(let row): damaged.append(row)
                    }
                }
                s.reset()
                let mark = try db.statement(
                    "UPDATE fixes SET sync_state = \(FixBuffer.damagedState), batch_id = NULL WHERE id = ?")
                defer { mark.reset() }
                for var row in damaged {
                    mark.reset()
                    mark.bind(1, row.id)
                    try mark.step()
                    row.isSetAside = true
                    setAside.append(row)
                }
                guard !rows.isEmpty else {
                    try closeBatch(id: batchID)
                    continue
                }
                let info = try db.statement("SELECT idempotency_key, attempts FROM sync_batches WHERE id = ?")
                info.bind(1, batchID)
                defer { info.reset() }
                guard try info.step(), let key = info.text(0) else {
                    return BatchClaim(batch: nil, setAside: setAside, orphanedCount: orphaned)
                }
                let batch = SyncBatch(
                    id: batchID, idempotencyKey: key, rows: rows, previousAttempts: Int(info.int64(1)))
                return BatchClaim(batch: batch, setAside: setAside, orphanedCount: orphaned)
            }
        }
    }

    /// Releases the rows claimed by a batch that `sync_batches` no longer records (its row deleted by hand: no build
    /// closes a batch while a row names it) and returns how many of them were in flight, pending again now (the
    /// next claim sends them under a new key); rows rejected keeping such a batch's key stay rejected, out of it
    /// (a requeue sends them under a new key). Such rows were stuck for ever: no claim took them (they had a batch),
    /// no batch sent them (it had no key), and requeue and drop-damaged left them. A batch that exists keeps its
    /// rows: only a `batch_id` no row of `sync_batches` has is cleared. Inside ``claimNextBatch(size:)``'s
    /// transaction; O(k log N) for the k rows claimed by a batch (the batch index).
    private func releaseOrphanedRows() throws(StoreError) -> Int {
        let orphaned = """
            batch_id IS NOT NULL AND typeof(batch_id) = 'integer'
                AND NOT EXISTS (SELECT 1 FROM sync_batches WHERE sync_batches.id = fixes.batch_id)
            """
        try db.execute("UPDATE fixes SET batch_id = NULL WHERE sync_state = 0 AND \(orphaned)")
        let released = db.changes
        try db.execute("UPDATE fixes SET batch_id = NULL WHERE sync_state = 1 AND \(orphaned)")
        return released
    }

    /// The id of the oldest open batch with pending rows, else of a new batch claiming up to `size` of the oldest
    /// pending rows; `nil` when nothing is pending. Inside ``claimNextBatch(size:)``'s transaction.
    private func openOrClaimBatch(size: Int) throws(StoreError) -> Int64? {
        // Batches whose rows were all dropped or cleared are closed.
        try db.execute(
            "DELETE FROM sync_batches WHERE NOT EXISTS (SELECT 1 FROM fixes WHERE fixes.batch_id = sync_batches.id)"
        )
        // (A batch whose rows were rejected keeping its key waits for `requeueRejected`.)
        let open = try db.integer(
            """
            SELECT coalesce(min(id), 0) FROM sync_batches WHERE EXISTS
                (SELECT 1 FROM fixes WHERE fixes.batch_id = sync_batches.id AND sync_state = 0)
            """)
        if open != 0 { return open }
        let pending = try db.integer(
            "SELECT count(*) FROM (SELECT 1 FROM fixes WHERE sync_state = 0 AND batch_id IS NULL LIMIT 1)")
        guard pending > 0 else { return nil }
        var rng = SystemRandomNumberGenerator()
        let key = hex(rng.next()) + hex(rng.next())
        let create = try db.statement("INSERT INTO sync_batches (idempotency_key, created_ms) VALUES (?, ?)")
        create.bind(1, key)
        create.bind(2, FixBuffer.now().millisecondsSince1970)
        try create.step()
        let id = sqlite3_last_insert_rowid(db.handle)
        let claim = try db.statement(
            """
            UPDATE fixes SET batch_id = ?1 WHERE id IN
                (SELECT id FROM fixes WHERE sync_state = 0 AND batch_id IS NULL ORDER BY id LIMIT ?2)
            """)
        claim.bind(1, id)
        claim.bind(2, Int64(size))
        try claim.step()
        return id
    }

    /// Records one more attempt at sending `batch` (visible as ``SyncBatch/previousAttempts``).
    public func recordAttempt(_ batch: SyncBatch) throws(StoreError) {
        let s = try db.statement("UPDATE sync_batches SET attempts = attempts + 1 WHERE id = ?")
        s.bind(1, batch.id)
        try s.step()
    }

    /// Deletes the rows of `batch` after the backend answered 2xx for it, and closes the batch; returns the
    /// rows deleted (all of them, or none when the cap dropped the batch meanwhile: it drops a batch whole; never
    /// rows outside the batch).
    @discardableResult
    public func acknowledge(_ batch: SyncBatch) throws(StoreError) -> Int {
        try db.transaction { () throws(StoreError) -> Int in
            let delete = try db.statement("DELETE FROM fixes WHERE batch_id = ?")
            delete.bind(1, batch.id)
            try delete.step()
            let removed = db.changes
            try countRemoval(removed, asDropped: false)
            // Rows of the batch the cap or the age limit dropped while it was in flight (the batch still open: a
            // `clear` closes it) were delivered after all: no longer counted as dropped, which counts rows lost (a
            // sync tester's stats said 98 dropped and the sync 150 delivered, for 198 fixes of which 48 were lost).
            if batch.rows.count > removed,
                try db.integer("SELECT COUNT(*) FROM sync_batches WHERE id = ?", batch.id) > 0
            {
                let recount = try db.statement("UPDATE buffer_counters SET dropped = max(0, dropped - ?) WHERE id = 1")
                recount.bind(1, Int64(batch.rows.count - removed))
                try recount.step()
            }
            try closeBatch(batch)
            return removed
        }
    }

    /// Marks the rows of `batch` as rejected with HTTP `status` (a 4xx that will never succeed): they stay in
    /// the buffer, counted and visible, and are no longer sent. Returns the rows marked.
    ///
    /// - Parameter keepingItsKey: `false` (the default, for a batch the backend refused for what it holds): the
    ///   batch is closed, and ``requeueRejected()`` sends its rows again in new batches under new keys (the
    ///   backend may want them mapped anew). `true` (for a conflict that lasted, HTTP 409, or a 207 Multi-Status:
    ///   the backend may have stored the batch under its key while it answered): the rows stay in their batch, and
    ///   once requeued are sent again as that batch under that key, which the backend can recognise; under a new
    ///   key they were stored twice (a tester's 409 × 5, then `buffer requeue`). A backend that replays its stored
    ///   answer for a key answers the requeued batch as before: requeueing helps once the backend has changed.
    @discardableResult
    public func markRejected(_ batch: SyncBatch, status: Int, keepingItsKey: Bool = false) throws(StoreError) -> Int {
        try db.transaction { () throws(StoreError) -> Int in
            let mark = try db.statement(
                keepingItsKey
                    ? "UPDATE fixes SET sync_state = 1, sync_status = ?2 WHERE batch_id = ?1"
                    : "UPDATE fixes SET sync_state = 1, sync_status = ?2, batch_id = NULL WHERE batch_id = ?1")
            mark.bind(1, batch.id)
            mark.bind(2, Int64(status))
            try mark.step()
            let marked = db.changes
            if !keepingItsKey { try closeBatch(batch) }
            return marked
        }
    }

    /// Makes the rows of `batch` pending again and closes it, for a batch the backend refused whole without
    /// storing any of it (HTTP 413, too large): they are claimed again, in smaller batches under new keys.
    /// Returns the rows released.
    @discardableResult
    public func release(_ batch: SyncBatch) throws(StoreError) -> Int {
        try db.transaction { () throws(StoreError) -> Int in
            let release = try db.statement("UPDATE fixes SET batch_id = NULL WHERE batch_id = ?")
            release.bind(1, batch.id)
            try release.step()
            let released = db.changes
            try closeBatch(batch)
            return released
        }
    }

    /// Closes `batch` (its row in `sync_batches`), inside the caller's transaction.
    private func closeBatch(_ batch: SyncBatch) throws(StoreError) { try closeBatch(id: batch.id) }

    /// Closes the batch with id `id`, inside the caller's transaction.
    private func closeBatch(id: Int64) throws(StoreError) {
        let close = try db.statement("DELETE FROM sync_batches WHERE id = ?")
        close.bind(1, id)
        try close.step()
    }

    /// Makes every rejected row pending again (after the backend or the mapping was fixed); returns how many.
    @discardableResult
    public func requeueRejected() throws(StoreError) -> Int {
        try db.transaction { () throws(StoreError) -> Int in
            try db.execute("UPDATE fixes SET sync_state = 0, sync_status = NULL WHERE sync_state = 1")
            return db.changes
        }
    }
}

/// 16 lowercase hex digits.
private func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}
