import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The store's schema: numbered migrations, applied in order, each in its own transaction that also sets
/// `PRAGMA user_version`. A file's `application_id` marks it as a TrueTrack store.
enum Schema {
    /// `PRAGMA application_id` of a TrueTrack store: "TTRK" in ASCII.
    static let applicationID: Int32 = 0x5454_524B

    /// Migration `i` brings the schema from version `i` to `i + 1`. Never edit a shipped migration: append.
    static let migrations: [String] = [
        // 1: the fix buffer, its counters and the sync batches.
        """
        CREATE TABLE fixes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT,
            time_ms INTEGER NOT NULL,
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            accuracy_m REAL,
            altitude_m REAL,
            vertical_accuracy_m REAL,
            speed_mps REAL,
            speed_accuracy_mps REAL,
            course_deg REAL,
            course_accuracy_deg REAL,
            provider TEXT NOT NULL,
            satellites INTEGER,
            mocked INTEGER,
            activity TEXT,
            activity_confidence INTEGER,
            rejection TEXT,
            filtered_latitude REAL,
            filtered_longitude REAL,
            speed_used_mps REAL,
            speed_source TEXT,
            hold TEXT,
            motion TEXT,
            distance_increment_m REAL,
            total_distance_m REAL,
            sync_state INTEGER NOT NULL DEFAULT 0,
            sync_status INTEGER,
            batch_id INTEGER
        );
        CREATE INDEX fixes_batch ON fixes(batch_id) WHERE batch_id IS NOT NULL;
        CREATE TABLE sync_batches (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            idempotency_key TEXT NOT NULL UNIQUE,
            created_ms INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE buffer_counters (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            row_count INTEGER NOT NULL,
            dropped INTEGER NOT NULL
        );
        INSERT INTO buffer_counters (id, row_count, dropped) VALUES (1, 0, 0);
        """,
        // 2: session state.
        """
        CREATE TABLE sessions (
            session_id TEXT PRIMARY KEY,
            distance_m REAL NOT NULL,
            elapsed_s REAL NOT NULL,
            fix_count INTEGER NOT NULL,
            accepted_count INTEGER NOT NULL,
            motion TEXT NOT NULL,
            phase TEXT NOT NULL,
            phase_revision INTEGER NOT NULL,
            last_time_ms INTEGER,
            last_latitude REAL,
            last_longitude REAL,
            last_accuracy_m REAL,
            write_count INTEGER NOT NULL,
            updated_ms INTEGER NOT NULL
        );
        """,
        // 3: when each fix was stored (wall clock, ms since 1970), which the age limit prunes by: a fix's own
        // time can be wrong by years (a phone's clock, an imported old track). Rows stored before are dated at
        // the migration: left NULL, they fell back to their fix time and the first open with an age limit
        // dropped exactly the rows this protects; kept up to one age limit longer instead.
        """
        ALTER TABLE fixes ADD COLUMN stored_ms INTEGER;
        UPDATE fixes SET stored_ms = CAST(strftime('%s', 'now') AS INTEGER) * 1000;
        """,
        // 4: the tracker's and the stop detector's checkpoints (TrackerCheckpoint, StopDetectorCheckpoint), so a
        // restarted process resumes them exactly; NULL for sessions written before.
        """
        ALTER TABLE sessions ADD COLUMN tracker_checkpoint BLOB;
        ALTER TABLE sessions ADD COLUMN stop_detector_checkpoint BLOB;
        """,
        // 5: fixes by time, so an append can skip fixes already stored (the same session, time and position):
        // `truetrack buffer add` run twice on a file, or re-run after it was interrupted, stored every fix twice.
        """
        CREATE INDEX fixes_time ON fixes(time_ms);
        """,
        // 6: the buffer row the checkpoints were taken after (SessionSnapshot.checkpointRowID), so a resume
        // replays the rows appended since; NULL when unknown.
        """
        ALTER TABLE sessions ADD COLUMN checkpoint_row_id INTEGER;
        """,
        // 7: the time of a session's earliest accepted fix (SessionSnapshot.firstFixTime), so an add of fixes older
        // than the session is told from an add of the session's own fixes again; NULL for sessions written before.
        """
        ALTER TABLE sessions ADD COLUMN first_time_ms INTEGER;
        """,
    ]

    /// Sets `PRAGMA journal_mode = WAL` and returns the mode SQLite reports, retrying while another connection's
    /// lock keeps it from switching, until `busyTimeoutSeconds` have passed.
    ///
    /// SQLite answers a switch that meets another process's write lock on a file still in rollback mode (a new file
    /// another `truetrack buffer add` is creating at the same instant) with SQLITE_BUSY at once, without calling
    /// the busy handler: one of two adds creating one new file failed "database is locked (in: PRAGMA journal_mode =
    /// WAL)" (34 of 60 pairs on a loaded machine). The pause doubles from 1 ms to 50 ms.
    static func switchToWAL(_ db: Connection, busyTimeoutSeconds: Double) throws(StoreError) -> String {
        let deadline = monotonicSeconds() + busyTimeoutSeconds
        var pauseMicroseconds: UInt32 = 1000
        while true {
            do {
                let mode = try db.statement("PRAGMA journal_mode = WAL")
                defer { mode.reset() }
                return try mode.step() ? (mode.text(0) ?? "") : ""
            } catch  where error.kind == .busy && monotonicSeconds() < deadline {
                usleep(pauseMicroseconds)
                pauseMicroseconds = min(pauseMicroseconds * 2, 50_000)
            }
        }
    }

    /// Seconds on the monotonic clock (for deadlines: unaffected by a change of the wall clock).
    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The schema version this build writes.
    static var currentVersion: Int32 { Int32(migrations.count) }

    /// Configures a fresh connection (WAL, durability) and brings the file's schema to
    /// ``currentVersion``, refusing corrupt, foreign and newer files.
    static func prepare(
        _ db: Connection, options: StoreOptions, upTo target: Int32 = Schema.currentVersion
    ) throws(StoreError) {
        let version = try inspect(db)
        let journal = try switchToWAL(db, busyTimeoutSeconds: options.busyTimeoutSeconds)
        if journal.lowercased() != "wal" && db.path != ":memory:" {
            throw StoreError(
                kind: .sqlite, path: db.path, sql: "PRAGMA journal_mode = WAL", message: "journal mode is \(journal)")
        }
        try db.execute("PRAGMA synchronous = \(options.durability.pragmaValue)")
        try db.execute("PRAGMA foreign_keys = ON")
        var current = version
        while current < target {
            let step = migrations[Int(current)]
            let next = current + 1
            try db.transaction { () throws(StoreError) in
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let seen = Int32(truncatingIfNeeded: try db.integer("PRAGMA user_version"))
                guard seen == current else { return }
                try db.execute(step)
                try db.execute("PRAGMA user_version = \(next)")
                try db.execute("PRAGMA application_id = \(applicationID)")
            }
            current = Int32(truncatingIfNeeded: try db.integer("PRAGMA user_version"))
        }
    }

    /// Checks a connection opened for reading only: the file must be a sound TrueTrack store of this build's
    /// schema (an older one needs a migration, which is a write). Nothing is written.
    static func check(readOnly db: Connection) throws(StoreError) {
        let version = try inspect(db)
        guard version == currentVersion else {
            throw StoreError(
                kind: .readOnly, path: db.path,
                message: version == 0
                    ? "not a TrueTrack store yet (an empty database), and opened for reading only"
                    : "schema version \(version) is older than this build's (\(currentVersion)): it is migrated when "
                        + "the file is first opened for writing, and it was opened for reading only")
        }
        try db.execute("PRAGMA foreign_keys = ON")
    }

    /// Opens the store at `path` for reading only and checks it (``check(readOnly:)``). When SQLite cannot create
    /// the `-shm` index it needs beside a write-ahead-log database (a folder that cannot be written, a full disk)
    /// and no log with content is beside the file, so that everything committed is in the file itself, the file is
    /// opened again as immutable (no lock, no index). With a log there, the error says to read it where
    /// the log can be read.
    static func openForReading(path: String, busyTimeoutMilliseconds: Int32) throws(StoreError) -> Connection {
        let db = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, mode: .readOnly)
        do {
            try check(readOnly: db)
            return db
        } catch  where error.resultCode != 0 && [.readOnly, .cannotOpen, .diskFull].contains(error.kind) {
            var log = stat()
            if stat(path + "-wal", &log) == 0 && log.st_size > 0 {
                throw StoreError(
                    kind: error.kind, path: path, resultCode: error.resultCode,
                    message:
                        "its write-ahead log (\(path)-wal) holds writes not yet in the file, and SQLite cannot create "
                        + "the -shm index it reads the log through (\(error.message)): read it where its folder can "
                        + "be written, or after a process that can write it has closed it")
            }
            let frozen = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, mode: .immutable)
            try check(readOnly: frozen)
            return frozen
        }
    }

    /// Reads the file's header and checks it: refuses a foreign, damaged or newer file; returns its schema version
    /// (0 for a new file). Writes nothing.
    private static func inspect(_ db: Connection) throws(StoreError) -> Int32 {
        // The first read of the header: SQLITE_NOTADB here means a foreign or damaged file. One statement, so one
        // snapshot: read apart, another process creating the file committed its tables between the reads, and the
        // file read as tables without TrueTrack's application_id, another application's (once in 40 pairs of
        // processes creating one new file).
        let header = try db.statement(
            """
            SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version),
                (SELECT count(*) FROM sqlite_schema)
            """)
        try header.step()
        let appID = Int32(truncatingIfNeeded: header.int64(0))
        let version = Int32(truncatingIfNeeded: header.int64(1))
        let tables = header.int64(2)
        header.reset()
        if appID != applicationID && (appID != 0 || tables > 0 || version != 0) {
            throw StoreError(
                kind: .foreignDatabase(applicationID: appID), path: db.path,
                message: "refusing to modify a database written by another application")
        }
        if version < 0 {
            throw StoreError(
                kind: .corrupt, path: db.path, sql: "PRAGMA user_version",
                message: "schema version \(version) is negative: not a TrueTrack buffer TrueTrack wrote")
        }
        if version > currentVersion {
            throw StoreError(
                kind: .newerSchema(found: version, supported: currentVersion), path: db.path,
                message: "upgrade TrueTrack or open another file")
        }
        if tables > 0 {
            let check = try db.statement("PRAGMA quick_check(1)")
            let verdict = try check.step() ? (check.text(0) ?? "") : ""
            check.reset()
            guard verdict == "ok" else {
                throw StoreError(kind: .corrupt, path: db.path, sql: "PRAGMA quick_check", message: verdict)
            }
        }
        return version
    }
}
