/// Why a store operation failed: what went wrong, where (the database file and the SQL statement), and
/// SQLite's own result code and message.
///
/// Modelled on GRDB's `DatabaseError`: the result code, the message and the SQL travel together, so a
/// report names the file and the statement. A corrupt file or a file that is not a TrueTrack store is a
/// thrown error, never a crash.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The file could not be opened or created (missing folder, no permission).
        case cannotOpen
        /// The file is not an SQLite database, or SQLite found it damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`,
        /// or a failed `PRAGMA quick_check`). Remedy: move the file aside; a new store starts empty.
        case corrupt
        /// The file is a valid SQLite database written by another application (its `application_id` is not
        /// TrueTrack's and it already holds tables). Nothing was changed in it.
        case foreignDatabase(applicationID: Int32)
        /// The file was written by a newer TrueTrack whose schema this build does not know.
        case newerSchema(found: Int32, supported: Int32)
        /// Another connection held the write lock for longer than the busy timeout.
        case busy
        /// The disk (or the file system's quota) is full (`SQLITE_FULL`, or an I/O error for want of space, as
        /// when the `-shm` index cannot grow even to read): the failed transaction was rolled back, every row
        /// committed before it is intact. Remedy: free space, then run the command again (a sync cannot free it:
        /// claiming a batch for sending is a write, and fails the same way).
        case diskFull
        /// The file or its folder cannot be written (`SQLITE_READONLY`: a read-only mount, a file without
        /// write permission); nothing was changed.
        case readOnly
        /// One row holds a value no TrueTrack build writes (a file edited by hand, a flipped bit): text in a number
        /// column, a latitude past 90°, a session's distance of 1e308 m. `table` is `fixes` or `sessions`, `key`
        /// the row's (a fix's row id, a session's ID), `column` the first column found wrong; ``StoreError/message``
        /// says what is wrong with it. Only that row is affected, and nothing was changed: a damaged row of the
        /// buffer is set aside by a sync (kept, never sent; ``FixBuffer/nextBatch(size:)``) and deleted only on
        /// request (``FixBuffer/dropDamagedRows()``); a damaged session is refused rather than continued from
        /// garbage (correct the value by hand, or delete the session's state: ``SessionStateStore/deleteSession(_:)``),
        /// though an append to it still stores its fixes (``AppendReceipt/damagedSession``).
        case damagedRow(table: String, key: String, column: String)
        /// An append (or a revision) was given a value the buffer would read back as damage (the rules of
        /// ``FixBuffer``'s decoder, e.g. a `FixDecision` with a negative or NaN total): `index` is the position in
        /// the batch of the first fix found so, `field` the value's property (`FixDecision.totalDistanceMetres`),
        /// `column` its column (`total_distance_m`); ``StoreError/message`` says what is wrong with it. Nothing of
        /// the batch was written (nothing stored before it is affected): such a row was stored, then set aside by
        /// the sync as damaged, never sent.
        case unstorableValue(index: Int, field: String, column: String)
        /// The database file has `links` names (hard links; `ln FILE OTHER`). SQLite keeps a database's
        /// write-ahead log beside the name it was opened by (`NAME-wal`), so two processes writing through two
        /// names keep two logs of one file and damage it (a tester's `buffer add` through one name and `sync`
        /// through the other: every row unreadable). Nothing was opened or changed; ``StoreError/message`` lists
        /// the names in the file's folder and which has a `-wal` file beside it. Remedy: keep that name (its log
        /// holds writes not yet in the file) and remove the others, or copy the file (`cp`, not `ln`) for a second
        /// buffer.
        case severalNames(links: Int)
        /// An option was out of its documented range.
        case invalidOption(name: String, value: String, expected: String)
        /// Any other SQLite failure (see ``StoreError/resultCode`` and ``StoreError/message``).
        case sqlite
    }

    /// The kind of failure.
    public var kind: Kind
    /// The path of the database file concerned (`:memory:` for an in-memory store).
    public var path: String
    /// The SQL statement that failed, when one did.
    public var sql: String?
    /// SQLite's extended result code (`SQLITE_OK`, 0, when the failure is not SQLite's).
    public var resultCode: Int32
    /// SQLite's message, or a description of the failure.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, path: String, sql: String? = nil, resultCode: Int32 = 0, message: String) {
        self.kind = kind
        self.path = path
        self.sql = sql
        self.resultCode = resultCode
        self.message = message
    }

    /// A one-line description: the file, the kind, SQLite's code and message, and the statement.
    public var description: String {
        var text = "\(path): "
        switch kind {
        case .cannotOpen: text += "cannot open the database"
        case .corrupt: text += "not a database or damaged (move it aside; a new store starts empty)"
        case .foreignDatabase(let id): text += "not a TrueTrack store (application_id \(id))"
        case .newerSchema(let found, let supported):
            text += "schema version \(found) is newer than this build supports (\(supported))"
        case .busy: text += "the database stayed locked by another connection past the busy timeout"
        case .diskFull:
            text +=
                "the disk is full (or the file reached a size limit): the write that failed changed nothing, "
                + "everything committed before it is intact "
                + "(free space and run it again; a sync cannot drain a full buffer: marking a batch as sent is a "
                + "write too)"
        case .readOnly:
            text +=
                "the database cannot be written (read-only file, folder or mount, or opened for reading only); "
                + "nothing changed"
        case .damagedRow(let table, _, _):
            text +=
                table == "fixes"
                ? "a row of the buffer is damaged; the other rows are intact (a sync sets it aside, never sending it; "
                    + "FixBuffer.dropDamagedRows(), 'truetrack buffer drop-damaged', deletes it)"
                : "a row of table \(table) is damaged, and not read as it stands; nothing else in the file is affected "
                    + "(correct the value by hand; for a session, 'truetrack buffer forget-session ID' or "
                    + "SessionStateStore.deleteSession(_:) deletes its state, its fixes kept)"
        case .unstorableValue(let index, let field, let column):
            text +=
                "fix \(index) of the batch holds in \(field) (column \(column)) a value the buffer would read back as "
                + "damaged, so the batch was refused"
        case .severalNames(let links):
            text +=
                "the database file has \(links) names (hard links), and SQLite keeps its write-ahead log beside the "
                + "name it is opened by: two processes using two names would damage it, so it was not opened (keep "
                + "one name, the one with a -wal file beside it if any, and remove the other links; or copy the file "
                + "for a second buffer)"
        case .invalidOption(let name, let value, let expected):
            text += "option \(name) = \(value) is invalid: expected \(expected)"
        case .sqlite: text += "SQLite error"
        }
        if resultCode != 0 { text += " [code \(resultCode)]" }
        if !message.isEmpty { text += ": \(message)" }
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
