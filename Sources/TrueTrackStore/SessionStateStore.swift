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

    /// The columns of ``selectSQL``, in its order (a column's raw value is its position in a row read with it): the
    /// one table the checks' and the snapshot's positions and the names a ``DamagedSession`` gives come from, as
    /// ``FixBuffer``'s `Column` is for the buffer. (The checks named them by numbers beside their names.)
    enum Column: Int32, CaseIterable {
        case sessionID, distance, elapsed, fixCount, acceptedCount, motion, phase, phaseRevision
        case lastTime, lastLatitude, lastLongitude, lastAccuracy, writeCount, trackerCheckpoint
        case stopDetectorCheckpoint, checkpointRowID, firstTime

        /// The column's name in the `sessions` table.
        var name: String {
            switch self {
            case .sessionID: "session_id"
            case .distance: "distance_m"
            case .elapsed: "elapsed_s"
            case .fixCount: "fix_count"
            case .acceptedCount: "accepted_count"
            case .motion: "motion"
            case .phase: "phase"
            case .phaseRevision: "phase_revision"
            case .lastTime: "last_time_ms"
            case .lastLatitude: "last_latitude"
            case .lastLongitude: "last_longitude"
            case .lastAccuracy: "last_accuracy_m"
            case .writeCount: "write_count"
            case .trackerCheckpoint: "tracker_checkpoint"
            case .stopDetectorCheckpoint: "stop_detector_checkpoint"
            case .checkpointRowID: "checkpoint_row_id"
            case .firstTime: "first_time_ms"
            }
        }

        /// The columns that hold numbers (or NULL): text or a blob there is damage.
        static let numbers: [Column] = [
            .distance, .elapsed, .fixCount, .acceptedCount, .phaseRevision, .lastTime, .lastLatitude, .lastLongitude,
            .lastAccuracy, .writeCount, .checkpointRowID, .firstTime,
        ]
        /// The counts, each within 0...``SessionStateStore/maximumCount``.
        static let counts: [Column] = [.fixCount, .acceptedCount, .phaseRevision, .writeCount]
    }

    /// ``Column``'s names in its order, comma-separated (the select's and the insert's column list).
    private static let columnList = Column.allCases.map(\.name).joined(separator: ", ")
    private static let selectSQL = "SELECT \(columnList) FROM sessions"
    /// ``selectSQL`` for one session (built once: it is the statement cache's key on every append with a session).
    private static let selectOneSQL = "\(selectSQL) WHERE session_id = ?"

    /// The stored snapshot of `sessionID`, or `nil` when none was written.
    public func snapshot(sessionID: String) throws(StoreError) -> SessionSnapshot? {
        try SessionStateStore.snapshot(sessionID: sessionID, in: db)
    }

    /// The stored snapshot of `sessionID` read through `db` (this store's connection, or a ``FixBuffer``'s inside
    /// its transaction), or `nil`: what ``stored(sessionID:in:)`` reads, a damaged row thrown as
    /// ``damagedRowError(_:path:)``.
    static func snapshot(sessionID: String, in db: Connection) throws(StoreError) -> SessionSnapshot? {
        switch try stored(sessionID: sessionID, in: db) {
        case .sound(let snapshot): return snapshot
        case .damaged(let damage): throw damagedRowError(damage, path: db.path)
        case nil: return nil
        }
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
            // (Checked once, then read without a second check.)
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

    /// The stored row of `sessionID` read through `db` (inside the caller's transaction) and checked once, or
    /// `nil` when none was written.
    static func stored(sessionID: String, in db: Connection) throws(StoreError) -> StoredSession? {
        let s = try db.statement(SessionStateStore.selectOneSQL)
        defer { s.reset() }
        s.bind(1, sessionID)
        guard try s.step() else { return nil }
        if let damage = damage(s) { return .damaged(damage) }
        return .sound(snapshot(from: s))
    }

    /// The most a count (fixes, accepted fixes, phase changes, writes) may read: a fix a second for 30,000 years.
    /// Past it a count is damaged (and `Int64.max` would trap the next `+= 1`).
    static let maximumCount: Int64 = 1_000_000_000_000

    /// The error a read that needs a damaged row throws: ``StoreError/Kind/damagedRow(table:key:column:)`` for the
    /// row `damage` describes, in the database at `path`.
    private static func damagedRowError(_ damage: DamagedSession, path: String) -> StoreError {
        StoreError(
            kind: .damagedRow(table: "sessions", key: damage.sessionID, column: damage.column), path: path,
            sql: SessionStateStore.selectSQL, message: damage.description)
    }

    /// What is wrong with a ``selectSQL`` row, or `nil` when it is sound: every column holds what TrueTrack writes
    /// there, numbers (or NULL) in the number columns, a finite distance and time within ``SessionSnapshot``'s
    /// limits, counts within ``maximumCount``, a last fix within the years 0001–9999 and ±90° / ±180°, a row id not
    /// negative, a `motion` and `phase` that name a ``MotionGate/Verdict`` and a ``SessionPhase``. A session edited
    /// by hand (a distance of 1e308 m, a last time of `Int64.max`) was continued from those values: the distance
    /// could never grow again, and the tracker took a time no fix can follow. (A read that needs a damaged row
    /// throws ``damagedRowError(_:path:)``.)
    static func damage(_ s: Statement) -> DamagedSession? {
        let sessionID = s.text(Column.sessionID) ?? ""
        func refuse(_ column: Column, _ problem: String) -> DamagedSession {
            DamagedSession(sessionID: sessionID, column: column.name, reason: "\(column.name) \(problem)")
        }
        for column in Column.numbers where !s.isNumberOrNull(column) {
            return refuse(column, "holds text or a blob, not a number")
        }
        let distance = s.double(.distance)
        guard distance.isFinite, (0...SessionSnapshot.maximumDistanceMetres).contains(distance) else {
            return refuse(.distance, "\(distance) m is outside 0...\(SessionSnapshot.maximumDistanceMetres) m")
        }
        let elapsed = s.double(.elapsed)
        guard elapsed.isFinite, (0...SessionSnapshot.maximumElapsedSeconds).contains(elapsed) else {
            return refuse(.elapsed, "\(elapsed) s is outside 0...\(SessionSnapshot.maximumElapsedSeconds) s")
        }
        for column in Column.counts where !(0...maximumCount).contains(s.int64(column)) {
            return refuse(column, "\(s.int64(column)) is outside 0...\(maximumCount)")
        }
        if let time = s.optionalInt64(.lastTime) {
            guard Timestamp.representableMilliseconds.contains(time) else {
                return refuse(.lastTime, "\(time) ms since 1970 is outside the years 0001-9999")
            }
            /// `column`'s value as the message shows it.
            func shown(_ column: Column) -> String { s.optionalDouble(column).map { "\($0)" } ?? "NULL" }
            let latitude = s.double(.lastLatitude), longitude = s.double(.lastLongitude)
            guard !s.isNull(.lastLatitude), latitude.isFinite, (-90...90).contains(latitude) else {
                return refuse(.lastLatitude, "\(shown(.lastLatitude)) is not within ±90°")
            }
            guard !s.isNull(.lastLongitude), longitude.isFinite, (-180...180).contains(longitude) else {
                return refuse(.lastLongitude, "\(shown(.lastLongitude)) is not within ±180°")
            }
            if let accuracy = s.optionalDouble(.lastAccuracy), !(accuracy.isFinite && accuracy >= 0) {
                return refuse(.lastAccuracy, "\(accuracy) m is not a finite accuracy of 0 m or more")
            }
        }
        if let time = s.optionalInt64(.firstTime), !Timestamp.representableMilliseconds.contains(time) {
            return refuse(.firstTime, "\(time) ms since 1970 is outside the years 0001-9999")
        }
        if let row = s.optionalInt64(.checkpointRowID), row < 0 {
            return refuse(.checkpointRowID, "\(row) is negative")
        }
        // The verdict and the phase a build writes are those of its enums: 'flying' was read as uncertain, an
        // unknown phase as paused.
        for (column, isKnown) in [
            (Column.motion, { MotionGate.Verdict(rawValue: $0) != nil }),
            (.phase, { (text: String) in SessionPhase(rawValue: text) != nil }),
        ] as [(Column, (String) -> Bool)] {
            guard !s.isBlob(column), let text = s.text(column) else {
                return refuse(column, s.isBlob(column) ? "holds a blob, not text" : "is NULL")
            }
            guard isKnown(text) else { return refuse(column, "'\(text)' is not a value TrueTrack writes there") }
        }
        return nil
    }

    /// The snapshot a ``selectSQL`` row holds, which ``damage(_:)`` found sound.
    private static func snapshot(from s: Statement) -> SessionSnapshot {
        var snapshot = SessionSnapshot(sessionID: s.text(Column.sessionID) ?? "")
        snapshot.distanceMetres = s.double(.distance)
        snapshot.elapsedSeconds = s.double(.elapsed)
        snapshot.fixCount = Int(truncatingIfNeeded: s.int64(.fixCount))
        snapshot.acceptedFixCount = Int(truncatingIfNeeded: s.int64(.acceptedCount))
        // (Both checked above: an unknown verdict or phase is damage.)
        snapshot.motion = s.text(Column.motion).flatMap(MotionGate.Verdict.init(rawValue:)) ?? .uncertain
        snapshot.phase = s.text(Column.phase).flatMap(SessionPhase.init(rawValue:)) ?? .paused
        snapshot.phaseRevision = Int(truncatingIfNeeded: s.int64(.phaseRevision))
        if let time = s.optionalInt64(.lastTime) {
            snapshot.lastFix = SessionLastFix(
                timestamp: Timestamp(millisecondsSince1970: time), latitude: s.double(.lastLatitude),
                longitude: s.double(.lastLongitude), accuracyMetres: s.optionalDouble(.lastAccuracy))
        }
        snapshot.writeCount = Int(truncatingIfNeeded: s.int64(.writeCount))
        snapshot.trackerCheckpoint = s.blob(.trackerCheckpoint).map(TrackerCheckpoint.init(bytes:))
        snapshot.stopDetectorCheckpoint = s.blob(.stopDetectorCheckpoint).map(StopDetectorCheckpoint.init(bytes:))
        snapshot.checkpointRowID = s.optionalInt64(.checkpointRowID)
        snapshot.firstFixTime = s.optionalInt64(.firstTime).map(Timestamp.init(millisecondsSince1970:))
        return snapshot
    }

    /// The session row's insert: ``Column``'s columns in its order (parameter `?n` is column `n − 1`), then
    /// `updated_ms`, which no read needs.
    private static let writeSQL =
        "INSERT OR REPLACE INTO sessions (\(columnList), updated_ms) VALUES ("
        + (1...Column.allCases.count + 1).map { "?\($0)" }.joined(separator: ", ") + ")"

    private static func write(_ snapshot: SessionSnapshot, in db: Connection) throws(StoreError) {
        let s = try db.statement(SessionStateStore.writeSQL)
        func parameter(_ column: Column) -> Int32 { column.rawValue + 1 }
        s.bind(parameter(.sessionID), snapshot.sessionID)
        s.bind(parameter(.distance), snapshot.distanceMetres)
        s.bind(parameter(.elapsed), snapshot.elapsedSeconds)
        s.bind(parameter(.fixCount), Int64(snapshot.fixCount))
        s.bind(parameter(.acceptedCount), Int64(snapshot.acceptedFixCount))
        s.bind(parameter(.motion), snapshot.motion.rawValue)
        s.bind(parameter(.phase), snapshot.phase.rawValue)
        s.bind(parameter(.phaseRevision), Int64(snapshot.phaseRevision))
        s.bind(parameter(.lastTime), snapshot.lastFix?.timestamp.millisecondsSince1970)
        s.bind(parameter(.lastLatitude), snapshot.lastFix?.latitude)
        s.bind(parameter(.lastLongitude), snapshot.lastFix?.longitude)
        s.bind(parameter(.lastAccuracy), snapshot.lastFix?.accuracyMetres)
        s.bind(parameter(.writeCount), Int64(snapshot.writeCount))
        s.bind(parameter(.trackerCheckpoint), snapshot.trackerCheckpoint?.bytes)
        s.bind(parameter(.stopDetectorCheckpoint), snapshot.stopDetectorCheckpoint?.bytes)
        s.bind(parameter(.checkpointRowID), snapshot.checkpointRowID)
        s.bind(parameter(.firstTime), snapshot.firstFixTime?.millisecondsSince1970)
        s.bind(Int32(Column.allCases.count + 1), FixBuffer.now().millisecondsSince1970)  // updated_ms
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

extension Statement {
    /// Whether `column` holds a number or NULL (not text or a blob, which reads as 0).
    fileprivate func isNumberOrNull(_ column: SessionStateStore.Column) -> Bool { isNumberOrNull(column.rawValue) }
    /// Whether `column` is NULL.
    fileprivate func isNull(_ column: SessionStateStore.Column) -> Bool { isNull(column.rawValue) }
    /// Whether `column` holds a blob.
    fileprivate func isBlob(_ column: SessionStateStore.Column) -> Bool { isBlob(column.rawValue) }
    /// `column` as an integer.
    fileprivate func int64(_ column: SessionStateStore.Column) -> Int64 { int64(column.rawValue) }
    /// `column` as a double.
    fileprivate func double(_ column: SessionStateStore.Column) -> Double { double(column.rawValue) }
    /// `column` as a double, `nil` when NULL.
    fileprivate func optionalDouble(_ column: SessionStateStore.Column) -> Double? { optionalDouble(column.rawValue) }
    /// `column` as an integer, `nil` when NULL.
    fileprivate func optionalInt64(_ column: SessionStateStore.Column) -> Int64? { optionalInt64(column.rawValue) }
    /// `column` as text, `nil` when NULL.
    fileprivate func text(_ column: SessionStateStore.Column) -> String? { text(column.rawValue) }
    /// `column` as bytes, `nil` when NULL.
    fileprivate func blob(_ column: SessionStateStore.Column) -> [UInt8]? { blob(column.rawValue) }
}

/// The stored row of a session, read and checked once: its snapshot when sound, what is wrong with it when damaged
/// (``FixBuffer/storedSession(sessionID:)``).
public enum StoredSession: Sendable, Hashable {
    /// A sound row's snapshot.
    case sound(SessionSnapshot)
    /// What is wrong with a damaged row (it is not read as it stands).
    case damaged(DamagedSession)

    /// A sound row's snapshot, `nil` when the row is damaged.
    public var snapshot: SessionSnapshot? { if case .sound(let snapshot) = self { snapshot } else { nil } }

    /// What is wrong with a damaged row, `nil` when the row is sound.
    public var damage: DamagedSession? { if case .damaged(let damage) = self { damage } else { nil } }
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
