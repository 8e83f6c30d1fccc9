import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns (the macro is not imported).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection and its prepared statements: the only place that holds the C handle.
///
/// Never shared: each ``FixBuffer`` and ``SessionStateStore`` owns its own connection, and SQLite's file
/// locks (WAL mode, a busy timeout) serialise writers across connections and processes.
final class Connection {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]

    /// How a connection opens its file.
    enum OpenMode {
        /// Reading and writing, creating the file when absent.
        case readWrite
        /// Reading an existing file (SQLite creates the `-wal` and `-shm` files beside it when absent, if it can).
        case readOnly
        /// Reading an existing file SQLite takes as unchanging (`immutable=1`: no lock, no `-shm`, no log read):
        /// for a file whose folder cannot be written and that has no write-ahead log beside it, so that everything
        /// committed is in the file itself.
        case immutable
    }

    /// Opens the database at `path` (for `.readWrite`, creating it when absent).
    init(path: String, busyTimeoutMilliseconds: Int32, mode: OpenMode = .readWrite) throws(StoreError) {
        // A file of several names is refused before SQLite opens it (opening can already replay or checkpoint the
        // log of the name in use): see ``StoreError/Kind/severalNames(links:)``.
        if let links = Connection.linkCount(path), links > 1 {
            throw StoreError(kind: .severalNames(links: links), path: path, message: Connection.namesAdvice(path))
        }
        // Without the create flag SQLite says only "unable to open database file" of a missing file.
        if mode != .readWrite, path != ":memory:", access(path, F_OK) != 0 {
            throw StoreError(
                kind: .cannotOpen, path: path,
                message: Connection.unopenableReason(path) ?? "no such file (opened for reading only)")
        }
        var db: OpaquePointer?
        let rc: Int32
        switch mode {
        case .readWrite:
            rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        case .readOnly: rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        case .immutable:
            // (An absolute path after `file://`, an empty authority: after `file:` alone, `//tmp/b.db`, a valid
            // path, read `tmp` as the authority, which SQLite refuses; a reviewer's.)
            let uri = (path.hasPrefix("/") ? "file://" : "file:") + "\(Connection.percentEncoded(path))?immutable=1"
            rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        }
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            // A new file in a folder that cannot be written says so, as an existing one's commands do (a batch
            // tester's read-only mount read "cannot open the database [code 14]").
            let kind: StoreError.Kind =
                rc & 0xFF == SQLITE_CANTOPEN && Connection.isInReadOnlyFolder(path) ? .readOnly : .cannotOpen
            // SQLite says only "unable to open database file" (an app tester's missing folder read that and
            // "[code 14]"): say which part of the path is wrong.
            let reason =
                kind == .cannotOpen ? Connection.unopenableReason(path).map { "\($0) (SQLite: \(message))" } : nil
            throw StoreError(kind: kind, path: path, resultCode: rc, message: reason ?? message)
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        self.handle = db
        self.path = path
    }

    /// `path` with every byte but letters, digits, `-._~` and `/` percent-encoded, for a `file:` URI (a path
    /// holding `?`, `#` or `%` would otherwise be read as the URI's query, fragment or an escape).
    static func percentEncoded(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                text.unicodeScalars.append("%")
                text.unicodeScalars.append(hex[Int(byte >> 4)])
                text.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return text
    }

    deinit {
        statements.removeAll()  // finalize before closing
        sqlite3_close_v2(handle)
    }

    /// The error for result code `rc` from `sql`, classified.
    func error(_ rc: Int32, sql: String?) -> StoreError {
        let message = String(cString: sqlite3_errmsg(handle))
        let kind: StoreError.Kind
        switch rc & 0xFF {
        case SQLITE_NOTADB, SQLITE_CORRUPT: kind = .corrupt
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
        case SQLITE_CANTOPEN: kind = Connection.isInReadOnlyFolder(path) ? .readOnly : .cannotOpen
        case SQLITE_FULL: kind = .diskFull
        case SQLITE_READONLY: kind = .readOnly
        // An I/O error for want of space: growing the `-shm` index (`SQLITE_IOERR_SHMSIZE`), which even a read of a
        // WAL database needs (a batch tester's full disk read "disk I/O error [code 4874]" on count, stats, clear).
        // A file-size limit (`ulimit -f`) is a full disk for this file: SQLite keeps no errno for the short write
        // it makes then (the system's EFBIG), so a write, truncate or -shm growth error under a finite limit is
        // taken for it (not every I/O error: a reviewer's point, EIO or a lock error is no full disk).
        case SQLITE_IOERR
        where sqlite3_system_errno(handle) == ENOSPC
            || (Connection.hasFileSizeLimit && Connection.sizeLimitedWrites.contains(rc)):
            kind = .diskFull
        default: kind = .sqlite
        }
        // The statement says nothing a read-only file system or a full disk needs (an INSERT of 26 columns).
        let statement = kind == .readOnly || kind == .diskFull ? nil : sql
        let companions = kind == .readOnly ? Connection.unwritableCompanions(path) : []
        let hint =
            companions.isEmpty
            ? ""
            : "; the file can be written, but not \(companions.joined(separator: " and ")) beside it (another user's: "
                + "a read by that user makes them when they are missing): remove \(companions.count == 1 ? "it" : "them") "
                + "once no one has the buffer open, SQLite makes them again"
        return StoreError(kind: kind, path: path, sql: statement, resultCode: rc, message: message + hint)
    }

    /// The write-ahead log and index beside the database at `path` (`-wal`, `-shm`; beside the file a symbolic link
    /// leads to, where SQLite keeps them) that exist and cannot be written by this process while the file itself
    /// can: another user's read of the buffer, in a folder both can write, makes them when they are missing, owned
    /// by that user, and the owner's writes then fail "read-only" (an operations tester's). Empty otherwise.
    static func unwritableCompanions(_ path: String) -> [String] {
        guard path != ":memory:", !path.isEmpty, let real = realpath(path, nil) else { return [] }
        defer { free(real) }
        let file = String(cString: real)
        guard access(file, W_OK) == 0 else { return [] }
        return ["-wal", "-shm"].map { file + $0 }.filter { access($0, F_OK) == 0 && access($0, W_OK) != 0 }
    }

    /// SQLite's extended codes of a failed write, truncate and `-shm` growth (`SQLITE_IOERR_WRITE`,
    /// `SQLITE_IOERR_TRUNCATE`, `SQLITE_IOERR_SHMSIZE`: their macros do not import).
    static let sizeLimitedWrites: Set<Int32> = [10 | 3 << 8, 10 | 6 << 8, 10 | 19 << 8]

    /// Whether the process may not write files past a size (`ulimit -f`, `RLIMIT_FSIZE`).
    static var hasFileSizeLimit: Bool {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
            let infinity = rlim_t.max  // RLIM_INFINITY, all ones (its macro does not import)
        #else
            let resource = RLIMIT_FSIZE
            let infinity = RLIM_INFINITY
        #endif
        return getrlimit(resource, &limit) == 0 && limit.rlim_cur != infinity
    }

    /// Whether the folder holding `path` cannot be written: a WAL database needs its `-shm` file beside it even
    /// to read, so on a read-only mount SQLite reports "unable to open" for every command, reads included.
    static func isInReadOnlyFolder(_ path: String) -> Bool {
        guard path != ":memory:", !path.isEmpty else { return false }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        // Only a refusal to write (a read-only mount, no permission); a missing folder is "cannot open".
        return access(folder.isEmpty ? "/" : folder, W_OK) != 0 && (errno == EROFS || errno == EACCES)
    }

    /// Why a database file cannot be opened at `path`, when the path itself says: its folder is missing or is
    /// not a folder, or the path is a folder. `nil` otherwise (SQLite's message stands).
    static func unopenableReason(_ path: String) -> String? {
        guard path != ":memory:", !path.isEmpty else { return nil }
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? "the path is a folder, not a database file" : nil
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard !folder.isEmpty else { return nil }
        if stat(folder, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(folder) is not a folder"
        }
        guard errno == ENOENT || errno == ENOTDIR else { return nil }
        return "the folder \(folder) does not exist (the store creates its file, not its folders)"
    }

    /// The number of names (hard links) of the regular file at `path`, symlinks followed; `nil` when there is no
    /// such file (a new store, `:memory:`).
    static func linkCount(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_nlink)
    }

    /// Which of the file's names to keep, for the error: the names in its folder (other links elsewhere are not
    /// searched) and which of them has a write-ahead log beside it, which holds writes not yet in the file (keep
    /// that name: a reviewer removed it and the buffer read 99 of 198 rows without a word).
    static func namesAdvice(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let prefix = slash.map { String(path[...$0]) } ?? ""
        guard let directory = opendir(folder.isEmpty ? "/" : folder) else { return "" }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            // (`lstat`: a symbolic link to the file is no name of it, and removing it as advised changes nothing; an
            // operations tester's `ln.sqlite` was listed.)
            var other = stat()
            if name != ".", name != "..", lstat(prefix + name, &other) == 0, other.st_ino == info.st_ino,
                other.st_dev == info.st_dev
            {
                names.append(prefix + name)
            }
        }
        names.sort()
        guard !names.isEmpty else { return "" }
        let logged = names.filter { name in
            var log = stat()
            return stat(name + "-wal", &log) == 0 && log.st_size > 0
        }
        let listed = "its names in \(folder.isEmpty ? "/" : folder): " + names.joined(separator: ", ")
        switch logged.count {
        case 0: return listed + "; none has a write-ahead log beside it, so any may be kept"
        case 1: return listed + "; keep \(logged[0]): its -wal file holds writes not yet in the database file"
        default:
            return listed + "; \(logged.joined(separator: " and ")) each have a -wal file (written through both "
                + "names: the file may already be damaged; keep a copy of everything before removing any)"
        }
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
    }

    /// The cached prepared statement for `sql` (prepared once per connection), reset and unbound.
    func statement(_ sql: String) throws(StoreError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw error(rc, sql: sql) }
        let statement = Statement(raw, connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The single integer the query returns (0 when it returns no row or NULL).
    func integer(_ sql: String, _ bindings: Int64...) throws(StoreError) -> Int64 {
        let s = try statement(sql)
        for (i, value) in bindings.enumerated() { s.bind(Int32(i + 1), value) }
        defer { sqlite3_reset(s.raw) }  // ends the statement's read transaction
        guard try s.step() else { return 0 }
        return s.int64(0)
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` takes the write lock first, so a read-modify-write
    /// inside cannot interleave with another writer's; rolled back when `body` throws.
    func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try inTransaction(begin: "BEGIN IMMEDIATE", body)
    }

    /// Runs `body`'s reads in one read transaction (`BEGIN`, deferred: no lock until the first read, which fixes
    /// the snapshot under WAL), so that several statements see the file as of one moment; ended when `body` returns
    /// or throws.
    func readSnapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try inTransaction(begin: "BEGIN", body)
    }

    /// `body` between `begin` and `COMMIT`, rolled back when it throws.
    private func inTransaction<T>(begin: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement owned by a ``Connection``.
final class Statement {
    let raw: OpaquePointer
    unowned let connection: Connection
    let sql: String

    init(_ raw: OpaquePointer, connection: Connection, sql: String) {
        self.raw = raw
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(raw) }

    func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(raw, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(raw, index, value) }
    /// Binds the string's UTF-8 bytes with their count: a NUL inside (a session identifier from user input)
    /// is kept, not taken for the end of the text.
    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(raw, index, value, Int32(value.utf8.count), sqliteTransient)
    }
    func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(raw, index, value) } else { sqlite3_bind_null(raw, index) }
    }
    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(raw, index, value) } else { sqlite3_bind_null(raw, index) }
    }
    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(raw, index) }
    }
    /// Binds bytes as a BLOB (SQLite copies them); `nil` as NULL.
    func bind(_ index: Int32, _ value: [UInt8]?) {
        guard let value else {
            sqlite3_bind_null(raw, index)
            return
        }
        value.withUnsafeBytes { _ = sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
    }

    /// Advances: true when a row is available, false when done.
    @discardableResult
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(raw)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let failure = connection.error(rc, sql: sql)
        sqlite3_reset(raw)
        throw failure
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }
    /// Whether the column holds a blob (which `text` reads as if it were UTF-8).
    func isBlob(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_BLOB }
    /// Whether the column holds a number or NULL (not text or a blob, which `double` and `int64` read as 0).
    func isNumberOrNull(_ column: Int32) -> Bool {
        let type = sqlite3_column_type(raw, column)
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT || type == SQLITE_NULL
    }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }
    /// A BLOB column's bytes (`nil` when NULL; an empty BLOB is `[]`).
    func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        let count = Int(sqlite3_column_bytes(raw, column))
        guard let start = sqlite3_column_blob(raw, column), count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }
    func text(_ column: Int32) -> String? {
        guard let c = sqlite3_column_text(raw, column) else { return nil }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: c, count: count), as: UTF8.self)
    }
}
