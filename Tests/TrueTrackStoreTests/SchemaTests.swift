import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackStore

@Suite struct SchemaTests {
    @Test func garbageFileIsReportedAsCorrupt() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("garbage.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        do {
            _ = try FixBuffer(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .corrupt)
            #expect(error.path == path)
            #expect(error.description.contains("garbage.sqlite"))
        }
        // The file was left as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x5A, count: 8192))
    }

    /// SQLite says only "unable to open database file" (an app tester read "cannot open the database [code 14]").
    @Test func aPathThatCannotHoldADatabaseSaysWhichPartIsWrong() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let cases = [
            (folder.file("missing/buffer.sqlite"), "the folder \(folder.file("missing")) does not exist"),
            (folder.file("plain/buffer.sqlite"), "\(folder.file("plain")) is not a folder"),
            (folder.file("sub"), "the path is a folder, not a database file"),
        ]
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file("plain")))
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: false)
        for (path, reason) in cases {
            #expect {
                _ = try FixBuffer(path: path)
            } throws: { error in
                let error = error as? StoreError
                return error?.kind == .cannotOpen && error?.path == path && error?.message.hasPrefix(reason) == true
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
    }

    @Test func foreignDatabaseIsRefusedAndLeftUntouched() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("other.sqlite")
        do {
            let db = try Connection(path: path, busyTimeoutMilliseconds: 100)
            try db.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
        }
        do {
            _ = try SessionStateStore(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .foreignDatabase(applicationID: 0))
        }
        let db = try Connection(path: path, busyTimeoutMilliseconds: 100)
        #expect(try db.integer("SELECT count(*) FROM sqlite_schema") == 1)
        #expect(try db.integer("PRAGMA user_version") == 0)
    }

    /// SQLite keeps a database's write-ahead log beside the name it was opened by: a tester's `buffer add` through
    /// one hard link while `sync` ran through another left every row unreadable. A file of several names is
    /// refused by both stores, through every name, and left as it was; with one name again it opens.
    @Test func aDatabaseFileWithSeveralNamesIsRefused() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("buffer.sqlite"), other = folder.file("other-name.sqlite")
        do {
            let buffer = try FixBuffer(path: path)
            try buffer.append(Fix(timestamp: Timestamp(millisecondsSince1970: 1_000), latitude: 1, longitude: 2))
        }
        try FileManager.default.linkItem(atPath: path, toPath: other)
        // A symbolic link to the file is no name of it: not listed (removing it as advised would change nothing).
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.sqlite"), withDestinationPath: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for name in [path, other] {
            do {
                _ = try FixBuffer(path: name)
                Issue.record("\(name) opened as a buffer")
            } catch {
                #expect(error.kind == .severalNames(links: 2))
                #expect(error.description.contains("2 names (hard links)"), "\(error)")
                #expect(
                    error.message.contains("its names in \(folder.path): \(path), \(other);")
                        || error.message.contains("its names in \(folder.path): \(other), \(path);"), "\(error)")
                #expect(!error.message.contains("link.sqlite"), "\(error)")
            }
            do {
                _ = try SessionStateStore(path: name)
                Issue.record("\(name) opened as a session store")
            } catch {
                #expect(error.kind == .severalNames(links: 2))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // While a process holds writes in its log beside one name, the error names that one to keep.
        try FileManager.default.removeItem(atPath: other)
        let open = try FixBuffer(path: path)
        try open.append(Fix(timestamp: Timestamp(millisecondsSince1970: 2_000), latitude: 1, longitude: 2))
        try FileManager.default.linkItem(atPath: path, toPath: other)
        do {
            _ = try FixBuffer(path: other)
            Issue.record("\(other) opened as a buffer")
        } catch {
            #expect(error.message.contains("keep \(path): its -wal file holds writes"), "\(error)")
        }
        withExtendedLifetime(open) {}
        #expect(!FileManager.default.fileExists(atPath: other + "-wal"))
        try FileManager.default.removeItem(atPath: other)
        #expect(try FixBuffer(path: path).count() == 2)
    }

    @Test func newerSchemaIsRefused() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("new.sqlite")
        do {
            let buffer = try FixBuffer(path: path)
            try buffer.db.execute("PRAGMA user_version = 99")
        }
        do {
            _ = try FixBuffer(path: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .newerSchema(found: 99, supported: Schema.currentVersion))
        }
    }

    @Test func migratesAVersion1FileKeepingItsFixes() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("v1.sqlite")
        try olderStore(
            at: path, version: 1,
            statements: [
                "INSERT INTO fixes (time_ms, latitude, longitude, provider) VALUES (1000, 10.5, 20.25, 'gps')",
                "UPDATE buffer_counters SET row_count = 1",
            ])
        #expect(try Connection(path: path, busyTimeoutMilliseconds: 100).integer("PRAGMA user_version") == 1)
        let buffer = try FixBuffer(path: path)
        #expect(try buffer.db.integer("PRAGMA user_version") == Schema.currentVersion)
        #expect(try buffer.count() == 1)
        let row = try #require(try buffer.newest(limit: 1).first)
        #expect(row.fix.latitude == 10.5)
        #expect(row.fix.horizontalAccuracy == .absent)
        let sessions = try SessionStateStore(path: path)
        #expect(try sessions.setPhase(.paused, sessionID: "s").phase == .paused)
    }

    /// Upgrading a version-2 buffer dates its rows at the migration: a row whose fix says 2001 (a phone's
    /// clock), stored just before the upgrade, survives the first open with an age limit (left without a
    /// storage time it fell back to its fix time and was dropped).
    @Test func upgradingFromVersionTwoKeepsRowsWhateverTheirFixTime() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("v2.sqlite")
        try olderStore(
            at: path, version: 2,
            statements: [
                "INSERT INTO fixes (time_ms, latitude, longitude, provider) VALUES (978307200000, 1, 2, 'gps')",
                "UPDATE buffer_counters SET row_count = 1",
            ])
        let buffer = try FixBuffer(path: path, options: StoreOptions(maxAgeSeconds: 86_400))
        #expect(try buffer.db.integer("PRAGMA user_version") == Schema.currentVersion)
        #expect(try buffer.count() == 1)
        #expect(try buffer.statistics().droppedCount == 0)
    }

    @Test func truncatedAndFlippedFilesNeverCrash() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let good = folder.file("good.sqlite")
        do {
            let buffer = try FixBuffer(path: good, options: StoreOptions(durability: .normal))
            try buffer.append((0..<2000).map(walkFix))
            try buffer.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let original = try Data(contentsOf: URL(fileURLWithPath: good))
        var rng = SplitMix64(seed: 42)
        var outcomes: [String: Int] = [:]
        for i in 0..<60 {
            var bytes = original
            if i % 2 == 0 {
                bytes = bytes.prefix(Int(rng.next() % UInt64(bytes.count)))
            } else {
                for _ in 0..<8 {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                }
            }
            let path = folder.file("mutant-\(i).sqlite")
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                let buffer = try FixBuffer(path: path, options: StoreOptions(maxRecordsToPersist: 1_000_000))
                _ = try buffer.count()
                _ = try buffer.newest(limit: 3000)
                _ = try buffer.statistics()
                outcomes["opened", default: 0] += 1
            } catch {
                outcomes["\(error.kind)", default: 0] += 1
                #expect(error.path == path)
            }
        }
        #expect(outcomes.values.reduce(0, +) == 60)
        #expect(outcomes["corrupt", default: 0] > 0)
    }
}
