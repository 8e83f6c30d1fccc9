import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackStore

/// `FixBuffer(path:options:access: .readOnly)`: a buffer read without writing anything (a tester's buffer in a
/// folder its user could not write failed `count`, `stats` and `list`: SQLite needs its `-shm` index beside a
/// write-ahead-log database even to read).
@Suite struct ReadOnlyAccessTests {
    /// A buffer of `count` walk fixes at `path`, closed again (its write-ahead log checkpointed into the file and
    /// removed).
    static func closedBuffer(_ path: String, count: Int = 150) throws {
        let buffer = try FixBuffer(path: path)
        try buffer.append((0..<count).map(walkFix))
    }

    /// Makes SQLite's `-shm` index beside `path` impossible to create, even for root: its name is a link into a
    /// folder that does not exist.
    static func blockIndex(of path: String) throws {
        try FileManager.default.createSymbolicLink(
            atPath: path + "-shm", withDestinationPath: "/nonexistent-\(UUID().uuidString)/shm")
    }

    @Test("reads what a writable buffer reads, and refuses every change")
    func readsWithoutWriting() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("buffer.sqlite")
        try Self.closedBuffer(path)
        let writable = try FixBuffer(path: path)
        let reader = try FixBuffer(path: path, access: .readOnly)
        #expect(try reader.count() == 150)
        #expect(try reader.statistics() == writable.statistics())
        #expect(try reader.newestRows(limit: 5) == writable.newestRows(limit: 5))
        #expect {
            try reader.append(walkFix(150))
        } throws: { ($0 as? StoreError)?.kind == .readOnly }
        #expect {
            _ = try reader.claimNextBatch(size: 10)
        } throws: { ($0 as? StoreError)?.kind == .readOnly }
        // A row the writable connection appends is seen by the reader's next read.
        try writable.append(walkFix(150))
        #expect(try reader.count() == 151)
        #expect(try writable.count() == 151)
    }

    @Test("refuses a missing file without creating it")
    func refusesAMissingFile() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("absent.sqlite")
        #expect {
            _ = try FixBuffer(path: path, access: .readOnly)
        } throws: { error in
            let error = error as? StoreError
            return error?.kind == .cannotOpen && error?.description.contains("no such file") == true
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("refuses an older schema instead of migrating it")
    func refusesAnOlderSchema() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("v2.sqlite")
        try olderStore(at: path, version: 2)
        #expect {
            _ = try FixBuffer(path: path, access: .readOnly)
        } throws: { error in
            let error = error as? StoreError
            return error?.kind == .readOnly && error?.description.contains("schema version 2 is older") == true
        }
        let db = try Connection(path: path, busyTimeoutMilliseconds: 100, mode: .readOnly)
        #expect(try db.integer("PRAGMA user_version") == 2)
    }

    /// Where SQLite cannot create the `-shm` index (here a link of that name into a missing folder stands in the
    /// way, as a folder that cannot be written does for another user) and no log is beside the file, the file is
    /// read as a snapshot, writing nothing; the folder's name holds the characters a `file:` URI gives a meaning to.
    @Test("reads a file whose index cannot be created as a snapshot when no log is beside it")
    func readsASnapshotWithoutAnIndex() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let odd = folder.file("a ?#%&=b")
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: false)
        let path = odd + "/buffer.sqlite"
        try Self.closedBuffer(path)
        try Self.blockIndex(of: path)
        let reader = try FixBuffer(path: path, access: .readOnly)
        #expect(try reader.count() == 150)
        #expect(try reader.newest(limit: 1).first?.fix == walkFix(149))
        // The same path spelt with a leading `//` (a `file:` URI's authority, which SQLite refused).
        #expect(try FixBuffer(path: "/" + path, access: .readOnly).count() == 150)
        // SQLite's read-only connection created an empty log before failing on the index: nothing was written.
        let log = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect(log == nil || log == 0)
        #expect(try reader.statistics().rowCount == 150)
        #expect(throws: StoreError.self) { try FixBuffer(path: path) }
    }

    /// A log with content beside the file holds commits the file lacks: read as a snapshot, the buffer would show
    /// fewer rows than it holds.
    @Test("refuses to read without an index when a log holds writes not in the file")
    func refusesALogItCannotRead() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("buffer.sqlite"), copy = folder.file("copy.sqlite")
        let writer = try FixBuffer(path: path)
        try writer.append((0..<150).map(walkFix))
        // A copy of the file and its log while the writer is open (as after a crash): the rows are in the log.
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        try Self.blockIndex(of: copy)
        #expect {
            _ = try FixBuffer(path: copy, access: .readOnly)
        } throws: { error in
            (error as? StoreError)?.description.contains("its write-ahead log (\(copy)-wal) holds writes") == true
        }
    }

    @Test("percent-encodes a path for a file: URI")
    func percentEncodesPaths() {
        #expect(Connection.percentEncoded("/tmp/a b/c?d#e%f.db") == "/tmp/a%20b/c%3Fd%23e%25f.db")
        #expect(Connection.percentEncoded("rel/ü.db") == "rel/%C3%BC.db")
    }
}
