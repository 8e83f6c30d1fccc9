import TrueTrackCore

/// Crash-safe session state in SQLite: every write is a serialised read-modify-write (`BEGIN IMMEDIATE`
/// takes the write lock before the read) that merges monotonically (see ``SessionSnapshot``), so two
/// writers in two processes never overwrite each other's progress and distance never decreases.
///
/// One `SessionStateStore` owns one SQLite connection and is not `Sendable`: keep it inside one actor or
/// thread. It may share its file with a ``FixBuffer``.
public final class SessionStateStore {
    /// The database file's path.
    public let path: String
    let db: Connection

    /// Opens the store at `path` (creating or migrating it); only ``StoreOptions/durability`` and
    /// ``StoreOptions/busyTimeoutSeconds`` matter here.
    ///
    /// - Throws: ``StoreError`` as ``FixBuffer/init(path:options:)`` does.
    public init(path: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
        try options.validate(path: path)
        self.path = path
        self.db = try Connection(path: path, busyTimeoutMilliseconds: Int32(options.busyTimeoutSeconds * 1000))
        try Schema.prepare(db, options: options)
    }

    private static let selectSQL = """
        SELECT session_id, distance_m, elapsed_s, fix_count, accepted_count, motion, phase, phase_revision,
               last_time_ms, last_latitude, last_longitude, last_accuracy_m, write_count, tracker_checkpoint,
               stop_detector_checkpoint, checkpoint_row_id
        FROM sessions
        """

    /// The stored snapshot of `sessionID`, or `nil` when none was written.
    public func snapshot(sessionID: String) throws(StoreError) -> SessionSnapshot? {
        try SessionStateStore.snapshot(sessionID: sessionID, in: db)
    }

    /// The stored snapshot of `sessionID` read through `db` (this store's connection, or a ``FixBuffer``'s inside
    /// its transaction), or `nil`.
    static func snapshot(sessionID: String, in db: Connection) throws(StoreError) -> SessionSnapshot? {
        let s = try db.statement("\(SessionStateStore.selectSQL) WHERE session_id = ?")
        s.bind(1, sessionID)
        guard try s.step() else { return nil }
        defer { s.reset() }
        return try decode(s, path: db.path)
    }

    /// The most recently written session that has not ended and whose row is sound (what a relaunched app
    /// resumes), if any.
    ///
    /// A damaged session (a value no TrueTrack build writes: ``damagedSessions()``) is skipped, so an app still
    /// resumes the newest sound one: one hand-edited row made every launch fail to resume any session.
    public func latestOpenSession() throws(StoreError) -> SessionSnapshot? {
        let s = try db.statement(
            "\(SessionStateStore.selectSQL) WHERE phase != 'ended' ORDER BY updated_ms DESC, rowid DESC")
        defer { s.reset() }
        while try s.step() {
            // (Checked once: `decode` would check the row again.)
            if SessionStateStore.damage(s) == nil { return SessionStateStore.snapshot(from: s) }
        }
        return nil
    }

    /// Every session whose row holds a value no TrueTrack build writes (see ``DamagedSession``), in the order of
    /// their IDs. Read only.
    ///
    /// - Complexity: O(S) for S sessions.
    public func damagedSessions() throws(StoreError) -> [DamagedSession] {
        let s = try db.statement("\(SessionStateStore.selectSQL) ORDER BY session_id")
        defer { s.reset() }
        var result: [DamagedSession] = []
        while try s.step() {
            if let damage = SessionStateStore.damage(s) { result.append(damage) }
        }
        return result
    }

    /// Deletes the stored state of `sessionID` (its distance, counters, last fix and checkpoints), damaged or not;
    /// its fixes in the buffer stay. The next write to the session starts it anew, from an empty snapshot: the way
    /// out of a ``DamagedSession`` besides correcting the value by hand.
    ///
    /// - Returns: whether a session row was deleted.
    @discardableResult
    public func deleteSession(_ sessionID: String) throws(StoreError) -> Bool {
        let s = try db.statement("DELETE FROM sessions WHERE session_id = ?")
        defer { s.reset() }
        s.bind(1, sessionID)
        try s.step()
        return db.changes > 0
    }

    /// What is wrong with the stored row of `sessionID`, read through `db` (inside the caller's transaction), or
    /// `nil` when it is sound or absent.
    static func damage(sessionID: String, in db: Connection) throws(StoreError) -> DamagedSession? {
        if case .damaged(let damage) = try stored(sessionID: sessionID, in: db) { return damage }
        return nil
    }

    /// The stored row of a session, read and checked once.
    enum StoredRow {
        /// A sound row's snapshot.
        case sound(SessionSnapshot)
        /// What is wrong with a damaged row.
        case damaged(DamagedSession)
    }

    /// The stored row of `sessionID` read through `db` (inside the caller's transaction) and checked once, or
    /// `nil` when none was written.
    static func stored(sessionID: String, in db: Connection) throws(StoreError) -> StoredRow? {
        let s = try db.statement("\(SessionStateStore.selectSQL) WHERE session_id = ?")
        defer { s.reset() }
        s.bind(1, sessionID)
        guard try s.step() else { return nil }
        if let damage = damage(s) { return .damaged(damage) }
        return .sound(snapshot(from: s))
    }

    /// The most a count (fixes, accepted fixes, phase changes, writes) may read: a fix a second for 30,000 years.
    /// Past it a count is damaged (and `Int64.max` would trap the next `+= 1`).
    static let maximumCount: Int64 = 1_000_000_000_000

    /// Throws ``StoreError/Kind/damagedRow(table:key:column:)`` unless every column of a ``selectSQL`` row holds
    /// what TrueTrack writes there: numbers (or NULL) in the number columns, a finite distance and time within
    /// ``SessionSnapshot``'s limits, counts within ``maximumCount``, a last fix within the years 0001–9999 and
    /// ±90° / ±180°, a row id not negative, a `motion` and `phase` that name a ``MotionGate/Verdict`` and a
    /// ``SessionPhase``. A session edited by hand (a distance of 1e308 m, a last time of
    /// `Int64.max`) was continued from those values: the distance could never grow again, and the tracker took a
    /// time no fix can follow. (``damage(_:)`` says what is wrong, without throwing.)
    private static func check(_ s: Statement, path: String) throws(StoreError) {
        guard let damage = damage(s) else { return }
        throw StoreError(
            kind: .damagedRow(table: "sessions", key: damage.sessionID, column: damage.column), path: path,
            sql: SessionStateStore.selectSQL, message: damage.description)
    }

    /// What is wrong with a ``selectSQL`` row (see ``check(_:path:)``), or `nil` when it is sound.
    static func damage(_ s: Statement) -> DamagedSession? {
        let sessionID = s.text(0) ?? ""
        func refuse(_ column: String, _ problem: String) -> DamagedSession {
            DamagedSession(sessionID: sessionID, column: column, reason: "\(column) \(problem)")
        }
        let names: [(index: Int32, name: String)] = [
            (1, "distance_m"), (2, "elapsed_s"), (3, "fix_count"), (4, "accepted_count"), (7, "phase_revision"),
            (8, "last_time_ms"), (9, "last_latitude"), (10, "last_longitude"), (11, "last_accuracy_m"),
            (12, "write_count"), (15, "checkpoint_row_id"),
        ]
        for (index, name) in names where !s.isNumberOrNull(index) {
            return refuse(name, "holds text or a blob, not a number")
        }
        let distance = s.double(1)
        guard distance.isFinite, (0...SessionSnapshot.maximumDistanceMetres).contains(distance) else {
            return refuse("distance_m", "\(distance) m is outside 0...\(SessionSnapshot.maximumDistanceMetres) m")
        }
        let elapsed = s.double(2)
        guard elapsed.isFinite, (0...SessionSnapshot.maximumElapsedSeconds).contains(elapsed) else {
            return refuse("elapsed_s", "\(elapsed) s is outside 0...\(SessionSnapshot.maximumElapsedSeconds) s")
        }
        for (index, name) in [
            (Int32(3), "fix_count"), (4, "accepted_count"), (7, "phase_revision"), (12, "write_count"),
        ]
        where !(0...maximumCount).contains(s.int64(index)) {
            return refuse(name, "\(s.int64(index)) is outside 0...\(maximumCount)")
        }
        if let time = s.optionalInt64(8) {
            guard Timestamp.representableMilliseconds.contains(time) else {
                return refuse("last_time_ms", "\(time) ms since 1970 is outside the years 0001-9999")
            }
            let latitude = s.double(9), longitude = s.double(10)
            guard !s.isNull(9), latitude.isFinite, (-90...90).contains(latitude) else {
                return refuse("last_latitude", "\(s.optionalDouble(9).map { "\($0)" } ?? "NULL") is not within ±90°")
            }
            guard !s.isNull(10), longitude.isFinite, (-180...180).contains(longitude) else {
                return refuse(
                    "last_longitude", "\(s.optionalDouble(10).map { "\($0)" } ?? "NULL") is not within ±180°")
            }
            if let accuracy = s.optionalDouble(11), !(accuracy.isFinite && accuracy >= 0) {
                return refuse("last_accuracy_m", "\(accuracy) m is not a finite accuracy of 0 m or more")
            }
        }
        if let row = s.optionalInt64(15), row < 0 {
            return refuse("checkpoint_row_id", "\(row) is negative")
        }
        // The verdict and the phase a build writes are those of its enums: 'flying' was read as uncertain, an
        // unknown phase as paused.
        for (index, name, isKnown) in [
            (Int32(5), "motion", { MotionGate.Verdict(rawValue: $0) != nil }),
            (6, "phase", { (text: String) in SessionPhase(rawValue: text) != nil }),
        ] as [(Int32, String, (String) -> Bool)] {
            guard !s.isBlob(index), let text = s.text(index) else {
                return refuse(name, s.isBlob(index) ? "holds a blob, not text" : "is NULL")
            }
            guard isKnown(text) else { return refuse(name, "'\(text)' is not a value TrueTrack writes there") }
        }
        return nil
    }

    /// The snapshot a ``selectSQL`` row holds; throws ``StoreError/Kind/damagedRow(table:key:column:)`` unless
    /// ``check(_:path:)`` finds it sound.
    private static func decode(_ s: Statement, path: String) throws(StoreError) -> SessionSnapshot {
        try check(s, path: path)
        return snapshot(from: s)
    }

    /// The snapshot a ``selectSQL`` row holds, which ``damage(_:)`` found sound.
    private static func snapshot(from s: Statement) -> SessionSnapshot {
        var snapshot = SessionSnapshot(sessionID: s.text(0) ?? "")
        snapshot.distanceMetres = s.double(1)
        snapshot.elapsedSeconds = s.double(2)
        snapshot.fixCount = Int(truncatingIfNeeded: s.int64(3))
        snapshot.acceptedFixCount = Int(truncatingIfNeeded: s.int64(4))
        // (Both checked above: an unknown verdict or phase is damage.)
        snapshot.motion = s.text(5).flatMap(MotionGate.Verdict.init(rawValue:)) ?? .uncertain
        snapshot.phase = s.text(6).flatMap(SessionPhase.init(rawValue:)) ?? .paused
        snapshot.phaseRevision = Int(truncatingIfNeeded: s.int64(7))
        if let time = s.optionalInt64(8) {
            snapshot.lastFix = SessionLastFix(
                timestamp: Timestamp(millisecondsSince1970: time), latitude: s.double(9), longitude: s.double(10),
                accuracyMetres: s.optionalDouble(11))
        }
        snapshot.writeCount = Int(truncatingIfNeeded: s.int64(12))
        snapshot.trackerCheckpoint = s.blob(13).map(TrackerCheckpoint.init(bytes:))
        snapshot.stopDetectorCheckpoint = s.blob(14).map(StopDetectorCheckpoint.init(bytes:))
        snapshot.checkpointRowID = s.optionalInt64(15)
        return snapshot
    }

    private static func write(_ snapshot: SessionSnapshot, in db: Connection) throws(StoreError) {
        let s = try db.statement(
            """
            INSERT OR REPLACE INTO sessions (session_id, distance_m, elapsed_s, fix_count, accepted_count, motion,
                phase, phase_revision, last_time_ms, last_latitude, last_longitude, last_accuracy_m, write_count,
                updated_ms, tracker_checkpoint, stop_detector_checkpoint, checkpoint_row_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
            """)
        s.bind(1, snapshot.sessionID)
        s.bind(2, snapshot.distanceMetres)
        s.bind(3, snapshot.elapsedSeconds)
        s.bind(4, Int64(snapshot.fixCount))
        s.bind(5, Int64(snapshot.acceptedFixCount))
        s.bind(6, snapshot.motion.rawValue)
        s.bind(7, snapshot.phase.rawValue)
        s.bind(8, Int64(snapshot.phaseRevision))
        s.bind(9, snapshot.lastFix?.timestamp.millisecondsSince1970)
        s.bind(10, snapshot.lastFix?.latitude)
        s.bind(11, snapshot.lastFix?.longitude)
        s.bind(12, snapshot.lastFix?.accuracyMetres)
        s.bind(13, Int64(snapshot.writeCount))
        s.bind(14, FixBuffer.now().millisecondsSince1970)
        s.bind(15, snapshot.trackerCheckpoint?.bytes)
        s.bind(16, snapshot.stopDetectorCheckpoint?.bytes)
        s.bind(17, snapshot.checkpointRowID)
        try s.step()
    }

    /// Merges `snapshot` into the stored state (into a new, empty session when there is none) and returns what
    /// is stored now. A stale snapshot cannot lower the distance or revert a newer phase; non-finite or negative
    /// distances and times are ignored (see ``SessionSnapshot/merged(with:)``).
    @discardableResult
    public func merge(_ snapshot: SessionSnapshot) throws(StoreError) -> SessionSnapshot {
        try db.transaction { () throws(StoreError) -> SessionSnapshot in
            // A new session is merged into an empty one, so its values get the same cleaning (a NaN or negative
            // distance or time is ignored) as a write to a stored session.
            let stored =
                try SessionStateStore.snapshot(sessionID: snapshot.sessionID, in: db)
                ?? SessionSnapshot(sessionID: snapshot.sessionID)
            var result = stored.merged(with: snapshot)
            result.writeCount += 1
            try SessionStateStore.write(result, in: db)
            return result
        }
    }

    /// The serialised read-modify-write: reads the stored snapshot (a new running one when absent) under the
    /// write lock, lets `body` change it, bumps ``SessionSnapshot/phaseRevision`` when `body` changed the
    /// phase, merges the result into the stored state (so `body` cannot make distance go backwards or
    /// reopen an ended session) and returns what is stored now.
    @discardableResult
    public func update(sessionID: String, _ body: (inout SessionSnapshot) -> Void) throws(StoreError)
        -> SessionSnapshot
    {
        try db.transaction { () throws(StoreError) -> SessionSnapshot in
            try SessionStateStore.update(sessionID: sessionID, in: db, body)
        }
    }

    /// ``update(sessionID:_:)``'s read-modify-write through `db`, inside a transaction the caller holds (this
    /// store's, or a ``FixBuffer`` append's: ``FixBuffer/append(_:decisions:sessionID:skippingStored:updatingSession:)``).
    static func update(sessionID: String, in db: Connection, _ body: (inout SessionSnapshot) -> Void)
        throws(StoreError) -> SessionSnapshot
    {
        try update(
            sessionID: sessionID, stored: try SessionStateStore.snapshot(sessionID: sessionID, in: db), in: db, body)
    }

    /// ``update(sessionID:in:_:)`` from `stored`, the sound snapshot the caller read inside its transaction (`nil`
    /// when none is stored): the row is not read again.
    static func update(
        sessionID: String, stored: SessionSnapshot?, in db: Connection, _ body: (inout SessionSnapshot) -> Void
    ) throws(StoreError) -> SessionSnapshot {
        let stored = stored ?? SessionSnapshot(sessionID: sessionID)
        var changed = stored
        body(&changed)
        changed.sessionID = sessionID
        if changed.phase != stored.phase { changed.phaseRevision = stored.phaseRevision + 1 }
        var result = stored.merged(with: changed)
        result.writeCount = stored.writeCount + 1
        try SessionStateStore.write(result, in: db)
        return result
    }

    /// Sets the phase of `sessionID` (a read-modify-write; ``SessionPhase/ended`` is final).
    @discardableResult
    public func setPhase(_ phase: SessionPhase, sessionID: String) throws(StoreError) -> SessionSnapshot {
        try update(sessionID: sessionID) { $0.phase = phase }
    }

    /// Decides what a restarted process does with `sessionID`, given what the backend said, and persists the
    /// outcome: open → resume (distance merged upwards with the backend's); not found → resume (the backend
    /// has simply not received it yet); ended → marked ended locally; unreachable → the local snapshot is
    /// kept unchanged. Returns `nil` when there is no local snapshot of the session.
    public func recover(sessionID: String, remote: RemoteSessionStatus) throws(StoreError) -> SessionRecovery? {
        guard let local = try snapshot(sessionID: sessionID) else { return nil }
        switch remote {
        case .unreachable(let reason):
            return .unreachable(local, reason: reason)
        case .notFound:
            return .resume(local)
        case .open(let distance):
            var incoming = local
            if let distance { incoming.distanceMetres = distance }
            return .resume(try merge(incoming))
        case .ended:
            return .ended(try setPhase(.ended, sessionID: sessionID))
        }
    }
}

/// A session row that holds a value no TrueTrack build writes (a file edited by hand, a flipped bit): text in a
/// number column, a distance of 1e308 m, a last fix past the year 9999 (the limits are ``SessionStateStore``'s
/// checks). It is never continued from, nor written over with values derived from it: a read that needs it throws
/// ``StoreError/Kind/damagedRow(table:key:column:)``, an append that updates it stores its fixes and leaves the row
/// as it is (``AppendReceipt/damagedSession``), ``SessionStateStore/latestOpenSession()`` skips it. Correct the value
/// by hand, or delete the session's state (``SessionStateStore/deleteSession(_:)``, `truetrack buffer forget-session`).
public struct DamagedSession: Sendable, Hashable, CustomStringConvertible {
    /// The session's ID.
    public var sessionID: String
    /// The first column found wrong (`distance_m`, `last_time_ms`, …).
    public var column: String
    /// What is wrong with it, e.g. "distance_m 1e+308 m is outside 0...1000000000.0 m".
    public var reason: String

    /// Creates a description of a damaged session.
    public init(sessionID: String, column: String, reason: String) {
        self.sessionID = sessionID
        self.column = column
        self.reason = reason
    }

    /// "session 'walk': distance_m 1e+308 m is outside 0...1000000000.0 m".
    public var description: String { "session '\(sessionID)': \(reason)" }
}
