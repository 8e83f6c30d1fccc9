import Foundation
import Testing

@testable import TrueTrackIO

/// A file output appears whole or not at all, and a path that is not a plain file is written through.
@Suite struct ByteSinkTests {
    static func folder() -> String {
        let path = NSTemporaryDirectory() + "truetrack-sink-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    static func entries(_ folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder))?.sorted() ?? []
    }

    /// A failed export (a full disk, a crash) used to leave a file cut off mid-element at the path.
    @Test func anOutputAbandonedBeforeCloseLeavesThePathAsItWas() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/track.gpx"
        do {
            let sink = try ByteSink(path: path)
            sink.append(String(repeating: "x", count: 3 << 20))
            try sink.flush()  // on disk, under a temporary name
            #expect(Self.entries(folder).count == 1 && !FileManager.default.fileExists(atPath: path))
        }
        #expect(Self.entries(folder).isEmpty)  // nothing at the path, no temporary file left
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            let sink = try ByteSink(path: path)
            sink.append("new")
            try sink.flush()
        }
        #expect(Self.contents(path) == "old")
        let sink = try ByteSink(path: path)
        sink.append("new")
        sink.discard()
        try sink.close()
        #expect(Self.contents(path) == "old" && Self.entries(folder) == ["track.gpx"])
    }

    @Test func closeReplacesTheFileKeepingItsPermissions() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/track.csv"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o640) == 0)
        let sink = try ByteSink(path: path)
        sink.append("new")
        try sink.close()
        #expect(Self.contents(path) == "new" && Self.entries(folder) == ["track.csv"])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o640)
        // A new file gets the default permissions (the umask applies), not a temporary file's 0600.
        let fresh = try ByteSink(path: folder + "/fresh.csv")
        try fresh.close()
        let mask = umask(0)
        umask(mask)
        #expect(stat(folder + "/fresh.csv", &info) == 0 && info.st_mode & 0o777 == 0o666 & ~mask)
    }

    /// A rename would hand another user's file to this process and skip the file's own write permission: such
    /// a file is written through, keeping its owner; a set-user-ID bit is not carried to a replaced file.
    @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func anotherUsersFileIsWrittenThroughAndKeepsItsOwner() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/theirs.csv"
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        try #require(chown(path, 65534, 65534) == 0)
        let sink = try ByteSink(path: path)
        #expect(!sink.isWrittenAtomically)
        sink.append("new")
        try sink.close()
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_uid == 65534 && Self.contents(path) == "new")
        let mine = folder + "/mine.csv"
        try "old".write(toFile: mine, atomically: false, encoding: .utf8)
        #expect(chmod(mine, 0o4755) == 0)
        let replacing = try ByteSink(path: mine)
        #expect(replacing.isWrittenAtomically)
        try replacing.close()
        #expect(stat(mine, &info) == 0 && info.st_mode & 0o7777 == 0o755)
    }

    /// A symlink is followed and kept (a rename would replace it with a file), a device written through.
    @Test func aSymlinkOrADeviceIsWrittenThrough() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "old".write(toFile: folder + "/target.csv", atomically: false, encoding: .utf8)
        #expect(symlink(folder + "/target.csv", folder + "/link.csv") == 0)
        let sink = try ByteSink(path: folder + "/link.csv")
        sink.append("new")
        try sink.close()
        #expect(Self.contents(folder + "/target.csv") == "new")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/link.csv")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        // Discarded before anything was flushed: the symlink's target keeps its content.
        let discarded = try ByteSink(path: folder + "/link.csv")
        discarded.append("header only")
        discarded.discard()
        discarded.append("footer")
        try discarded.close()
        #expect(Self.contents(folder + "/target.csv") == "new")
        let null = try ByteSink(path: "/dev/null")
        null.append("gone")
        try null.close()
        var info = stat()
        #expect(lstat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }
}
