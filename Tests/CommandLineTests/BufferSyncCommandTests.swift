import Dispatch
import Foundation
import Testing
import TrueTrackCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The project's loopback receiver (Tests/Support/receiver.py), for the `sync` command's end-to-end test.
final class LoopbackReceiver {
    let process = Process()
    let port: Int

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Tool.repository.appendingPathComponent("Tests/Support/receiver.py").path,
            "--lifetime", "120",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = pipe.fileHandleForReading.readData(ofLength: 1)
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "receiver: \(text)"])
        }
        self.port = port
    }

    /// Sets the receiver's fault script (see receiver.py's `/control`).
    func control(_ body: [String: Any]) throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/control")!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, _, _ in done.signal() }.resume()
        done.wait()
    }

    func stats() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/stats")!)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

@Suite struct BufferSyncCommandTests {
    /// `truetrack` with `arguments` as the user nobody (through util-linux's `setpriv`, which the test requires): the
    /// executable and its arguments. For tests that need a second user, run as root (permissions do not bind root).
    static func asNobody(_ arguments: [String]) throws -> (executable: URL, arguments: [String]) {
        let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
        try #require(
            FileManager.default.isExecutableFile(atPath: setpriv.path),
            "running as root, the test needs /usr/bin/setpriv (util-linux) to run the commands as nobody")
        return (setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", Tool.binary.path] + arguments)
    }

    /// Runs `truetrack` with `arguments` as the user nobody (``asNobody(_:)``).
    static func runAsNobody(_ arguments: [String]) throws -> Tool.Result {
        let (executable, arguments) = try asNobody(arguments)
        return try Tool.run(arguments, executable: executable)
    }

    /// Runs `executable` with `arguments` while this process holds an exclusive `flock` on `lockPath` (made 0644 when
    /// missing), released 1.5 s after the start: whether the command was still running then (it waited), its exit
    /// status and its standard error.
    static func run(_ executable: URL, _ arguments: [String], holding lockPath: String) throws -> (
        waited: Bool, status: Int32, stderr: String
    ) {
        let held = open(lockPath, O_RDWR | O_CREAT, 0o644)
        try #require(held >= 0)
        try #require(flock(held, LOCK_EX) == 0)
        let child = Process()
        child.executableURL = executable
        child.arguments = arguments
        let errors = Pipe()
        child.standardError = errors
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        usleep(1_500_000)
        let waited = child.isRunning
        close(held)  // releases the lock
        child.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (waited, child.terminationStatus, stderr)
    }

    /// Two adds into one session at once each continued the state they had read, and the last one's overwrote the
    /// other's (a re-tester's halves of 20,000 fixes: 13,998.6 m of 27,998.6, both exit 0). An add with --session
    /// now waits for the database's session lock, which this test holds, and continues from the state it finds:
    /// the demo walk's second half added while the lock is held ends with the session distance of the whole walk.
    @Test("an add into a session waits while another add holds the database's sessions")
    func sessionAddsWaitForEachOther() throws {
        let db = Tool.temporaryPath("session-lock.sqlite"), whole = Tool.temporaryPath("session-lock-whole.sqlite")
        let (first, second) = try Tool.demoHalves("lock")
        defer {
            for path in [first, second] { try? FileManager.default.removeItem(atPath: path) }
            for suffix in Tool.databaseFiles {
                for file in [db, whole] { try? FileManager.default.removeItem(atPath: file + suffix) }
            }
        }
        let once = try Tool.run(["buffer", "add", Tool.demo, "--db", whole, "--session", "walk"])
        let total = try #require(once.stderr.split(separator: "\n").first { $0.hasPrefix("session 'walk': ") })
            .dropFirst("session 'walk': ".count).prefix { $0 != " " }
        #expect(try Tool.run(["buffer", "add", first, "--db", db, "--session", "walk"]).status == 0)
        let lockPath = URL(fileURLWithPath: db).resolvingSymlinksInPath().path + "-session.lock"
        let (waited, status, stderr) = try Self.run(
            Tool.binary, ["buffer", "add", second, "--db", db, "--session", "walk"], holding: lockPath)
        #expect(waited, "the add did not wait for the session lock")
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("waiting for it, so that session 'walk' continues from its state"), "\(stderr)")
        #expect(stderr.contains("session 'walk': \(total) m"), "\(stderr) (whole walk: \(total) m)")
        #expect(
            try Tool.run(["buffer", "count", "--db", db]).stdout
                == (try Tool.run(["buffer", "count", "--db", whole])).stdout)
    }

    /// The session lock of a buffer shared by two users (a group's): the lock file, made 0644 by the user who added
    /// first, could not be opened for writing by the other, whose `--session` adds then ran without the lock, unsaid
    /// (a reviewer's). It is locked through a read-only descriptor now: the other user's add waits for it too. (As
    /// root: root holds the lock file, the add runs as the user nobody.)
    @Test(
        "an add into a session waits for a session lock file another user made",
        .enabled(if: getuid() == 0, "needs two users: run as root, the add runs as nobody"))
    func sessionAddsWaitForAnotherUsersLockFile() throws {
        let folder = Tool.temporaryPath("shared-lock")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let (first, second) = try Tool.demoHalves("shared-lock")
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            for path in [first, second] { try? FileManager.default.removeItem(atPath: path) }
        }
        try #require(chmod(folder, 0o1777) == 0)
        let db = folder + "/buffer.sqlite"
        let added = try Self.runAsNobody(["buffer", "add", first, "--db", db, "--session", "walk"])
        #expect(added.status == 0, "\(added.stderr)")
        let lockPath = db + "-session.lock"
        try? FileManager.default.removeItem(atPath: lockPath)
        let (executable, arguments) = try Self.asNobody(["buffer", "add", second, "--db", db, "--session", "walk"])
        let (waited, status, stderr) = try Self.run(executable, arguments, holding: lockPath)
        #expect(waited, "the add did not wait for the session lock")
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("waiting for it, so that session 'walk' continues from its state"), "\(stderr)")
    }

    /// SQLite needs its `-shm` index beside a write-ahead-log database even to read, and creates it: in a folder
    /// its user cannot write (another user's buffer, a read-only mount), `count`, `stats` and `list` all failed "the
    /// database cannot be written" (a tester's). They now read the buffer without writing; an add still fails.
    @Test("count, stats and list read a buffer in a folder its user cannot write")
    func readsABufferItCannotWrite() throws {
        let folder = Tool.temporaryPath("read-only")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let db = folder + "/buffer.sqlite"
        defer {
            chmod(folder, 0o755)
            try? FileManager.default.removeItem(atPath: folder)
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        let commands = [["count"], ["stats"], ["list", "--limit", "3"]].map { ["buffer"] + $0 + ["--db", db] }
        let expected = try commands.map { try Tool.run($0).stdout }
        try #require(chmod(db, 0o444) == 0 && chmod(folder, 0o555) == 0)
        // Permissions do not bind root: as root, the commands run as the user nobody.
        func run(_ arguments: [String]) throws -> Tool.Result {
            getuid() == 0 ? try Self.runAsNobody(arguments) : try Tool.run(arguments)
        }
        for (command, output) in zip(commands, expected) {
            let result = try run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stdout == output, "\(command)")
        }
        let add = try run(["buffer", "add", Tool.demo, "--db", db])
        #expect(add.status != 0 && add.stderr.contains("cannot be written"), "\(add.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["buffer.sqlite"])
    }

    /// Another user's read of a buffer in a folder both can write (`/tmp`, a shared folder) lets SQLite make the `-wal`
    /// and `-shm` files beside it when they are missing, owned by the reader: the owner's next add, sync and clear
    /// failed "cannot be written" with no word of them (an operations tester's). The owner's error now names them
    /// and says to remove them. (As root the commands run as the user nobody, the buffer's owner here; root makes the
    /// files. The reads themselves still make them when they are missing: the README says why that is left.)
    @Test(
        "the owner's error names the log and index another user left beside the buffer",
        .enabled(if: getuid() == 0, "needs two users: run as root, the owner is nobody"))
    func theOwnersErrorNamesFilesAnotherUserLeft() throws {
        let folder = Tool.temporaryPath("shared")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(chmod(folder, 0o1777) == 0)
        let db = folder + "/buffer.sqlite"
        #expect(try Self.runAsNobody(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        for suffix in ["-wal", "-shm"] {
            try #require(FileManager.default.createFile(atPath: db + suffix, contents: nil))
            try #require(chmod(db + suffix, 0o644) == 0)
        }
        let blocked = try Self.runAsNobody(["buffer", "add", Tool.demo, "--db", db])
        #expect(blocked.status != 0, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("\(db)-wal and \(db)-shm beside it"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("remove them"), "\(blocked.stderr)")
    }

    /// On a full disk SQLite cannot create the `-shm` index it reads a write-ahead-log database through, and
    /// `count`, `stats` and `list` failed "the disk is full" (a batch tester's). A file-size limit below the index's
    /// 32 KB (`ulimit -f 40`: 20 KB) stands in for the full disk: they read the buffer, which has no log beside it.
    @Test("count, stats and list read a buffer where its index cannot be written")
    func readsABufferOnAFullDisk() throws {
        let folder = Tool.temporaryPath("full")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = folder + "/buffer.sqlite"
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        for command in ["count", "stats", "list --limit 3"] {
            let expected = try Tool.run(["buffer"] + command.split(separator: " ").map(String.init) + ["--db", db])
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/bin/sh")
            child.arguments = [
                "-c",
                "ulimit -f 40; exec \"\(Tool.binary.path)\" buffer \(command) --db \(db) >\(folder)/out 2>\(folder)/err",
            ]
            try child.run()
            child.waitUntilExit()
            let stderr = (try? String(contentsOfFile: folder + "/err", encoding: .utf8)) ?? ""
            #expect(child.terminationStatus == 0, "\(command): \(stderr)")
            #expect(try String(contentsOfFile: folder + "/out", encoding: .utf8) == expected.stdout, "\(command)")
        }
    }

    @Test func persistsAcceptedFixesListsCountsAndClears() throws {
        let db = Tool.temporaryPath("buffer.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        let add = try Tool.run(["buffer", "add", Tool.demo, "--db", db])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("persisted 554 of 560 fixes"))
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "554\n")
        // Added again (or after an interrupted add): each fix is stored once.
        let again = try Tool.run(["buffer", "add", Tool.demo, "--db", db])
        #expect(
            again.stderr.contains("persisted 0 of 560 fixes (6 rejected by the tracker, 554 already in the buffer)"))
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "554\n")
        let list = try Tool.run(["buffer", "list", "--db", db, "--limit", "2", "--json"])
        let rows = list.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.first?.contains("\"time\":\"2025-11-29T07:16:23Z\"") == true)  // newest first
        #expect(try Tool.run(["buffer", "clear", "--db", db]).stdout == "554\n")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "0\n")
    }

    /// An empty `--session` is refused, nothing stored: read as no session, a script whose `$SESSION` was unset lost
    /// the session's protection without a word (a file added again after a sync was stored and sent twice; an
    /// operations tester's).
    @Test("refuses an empty session ID")
    func refusesAnEmptySessionID() throws {
        let db = Tool.temporaryPath("empty-session.sqlite")
        defer { for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) } }
        for blank in ["", " "] {
            let add = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", blank])
            #expect(add.status != 0 && add.stderr.contains("--session needs an ID"), "\(add.stderr)")
            #expect(!FileManager.default.fileExists(atPath: db))
        }
    }

    /// A session added in two parts continues where the first part left it: each add restarted the tracker,
    /// so the second part's running totals began at 0 again and its first fix anchored a new filter. Now the
    /// session's tracker and stop detector are kept with it and the second add resumes them: the rows' totals and
    /// the session's distance are those of the whole file added at once, and the part added again adds nothing.
    @Test func aSessionAddedInPartsContinuesItsTracker() throws {
        let (first, second) = try Tool.demoHalves("half")
        let whole = Tool.temporaryPath("whole.sqlite"), parts = Tool.temporaryPath("parts.sqlite")
        defer {
            for path in [first, second] { try? FileManager.default.removeItem(atPath: path) }
            for db in [whole, parts] {
                for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
            }
        }
        let once = try Tool.run(["buffer", "add", Tool.demo, "--db", whole, "--session", "walk"])
        #expect(once.status == 0, "\(once.stderr)")
        let total = try #require(once.stderr.split(separator: "\n").first { $0.hasPrefix("session 'walk': ") })
            .dropFirst("session 'walk': ".count).prefix { $0 != " " }
        let processed = try Tool.run(["process", Tool.demo])
        #expect(processed.stdout.contains("distance:       \(total) m"), "\(once.stderr) vs \(processed.stdout)")
        #expect(try Tool.run(["buffer", "add", first, "--db", parts, "--session", "walk"]).status == 0)
        let rest = try Tool.run(["buffer", "add", second, "--db", parts, "--session", "walk"])
        #expect(rest.stderr.contains("session 'walk': \(total) m"), "\(rest.stderr)")
        #expect(!rest.stderr.contains("not exactly"), "\(rest.stderr)")
        // Row by row, the same decisions and running totals as the whole file added at once.
        let wholeRows = try Tool.run(["buffer", "list", "--db", whole, "--limit", "1000", "--json"]).stdout
        let partRows = try Tool.run(["buffer", "list", "--db", parts, "--limit", "1000", "--json"]).stdout
        #expect(wholeRows.split(separator: "\n").count == 554)
        #expect(wholeRows == partRows)
        // The second part again: every fix is older than the session's last, nothing is added.
        let again = try Tool.run(["buffer", "add", second, "--db", parts, "--session", "walk"])
        #expect(again.stderr.contains("session 'walk': \(total) m (0.0 m from this add)"), "\(again.stderr)")
        #expect(again.stderr.contains("skipped: already in the session (not newer than its last before this add)"))
        // Said once, not as broken times (an API tester read "times look broken … shuffled" first).
        #expect(!again.stderr.contains("look broken"), "\(again.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", parts]).stdout == "554\n")
        // An ended session is final (an app ended it in the same file): adding to it is refused, nothing stored.
        _ = try sqlite(parts, "UPDATE sessions SET phase = 'ended'")
        let ended = try Tool.run(["buffer", "add", Tool.demo, "--db", parts, "--session", "walk"])
        #expect(ended.status == 1)
        #expect(ended.stderr.contains("session 'walk' has ended"), "\(ended.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", parts]).stdout == "554\n")
    }

    /// A session whose stored distance was edited to 1e308 m stopped `buffer add --session` from storing anything
    /// (exit 1, none of the fixes stored). Now the fixes are stored, the session is named with its column and what
    /// to do, its row is left as it is (exit 1), and `forget-session` deletes its state so the next add starts it
    /// anew.
    @Test("an add to a damaged session stores its fixes and names the session")
    func anAddToADamagedSessionStoresItsFixesAndNamesTheSession() throws {
        let (first, second) = try Tool.demoHalves("damaged")
        let db = Tool.temporaryPath("damaged-session.sqlite")
        defer {
            for path in [first, second] { try? FileManager.default.removeItem(atPath: path) }
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", first, "--db", db, "--session", "s1"]).status == 0)
        let stored = Int(try Tool.run(["buffer", "count", "--db", db]).stdout.dropLast()) ?? -1
        try sqlite(db, "UPDATE sessions SET distance_m = 1e308")
        let add = try Tool.run(["buffer", "add", second, "--db", db, "--session", "s1"])
        #expect(add.status == 1, "\(add.stderr)")
        #expect(add.stderr.contains("Error: session 's1': distance_m 1e+308 m is outside"), "\(add.stderr)")
        #expect(add.stderr.contains("its fixes are stored") && add.stderr.contains("buffer forget-session s1 --db"))
        let all = Int(try Tool.run(["buffer", "count", "--db", db]).stdout.dropLast()) ?? -1
        #expect(stored > 0 && all > stored, "\(stored) then \(all)")
        #expect(try sqlite(db, "SELECT distance_m FROM sessions") == "1e+308")
        let forget = try Tool.run(["buffer", "forget-session", "s1", "--db", db])
        #expect(forget.status == 0 && forget.stdout == "1\n", "\(forget.stderr)")
        #expect(try Tool.run(["buffer", "forget-session", "s1", "--db", db]).stdout == "0\n")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "\(all)\n")
        let anew = try Tool.run(["buffer", "add", second, "--db", db, "--session", "s1"])
        #expect(anew.status == 0 && anew.stderr.contains("session 's1': "), "\(anew.stderr)")
        #expect(try Tool.run(["buffer", "forget-session", "--db", db]).status == 2)
    }

    /// A session whose last fix was dated far ahead (a hand edit, a clock set years ahead) made every later fix of it
    /// "not newer" and skipped, and the add exited 0. Now an add that skips fixes for a session's last fix more than
    /// a day ahead of the wall clock fails (exit 1), naming the session, its last time and the way out; the fixes
    /// newer than it, if any, are stored as before.
    @Test("fails an add whose fixes a session's last fix dated far ahead skips")
    func failsAnAddWhoseFixesASessionsLastFixDatedFarAheadSkips() throws {
        let (first, second) = try Tool.demoHalves("ahead")
        let db = Tool.temporaryPath("ahead-session.sqlite")
        defer {
            for path in [first, second] { try? FileManager.default.removeItem(atPath: path) }
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", first, "--db", db, "--session", "s1"]).status == 0)
        // 2100-01-01.
        try sqlite(db, "UPDATE sessions SET last_time_ms = 4102444800000")
        let add = try Tool.run(["buffer", "add", second, "--db", db, "--session", "s1"])
        #expect(add.status == 1, "\(add.stderr)")
        #expect(add.stderr.contains("Error: session 's1' ends at 2100-01-01T00:00:00"), "\(add.stderr)")
        #expect(add.stderr.contains("buffer forget-session s1 --db"), "\(add.stderr)")
        // A session a little ahead (within the day's tolerance: 12 h) still skips quietly what it holds.
        #expect(try Tool.run(["buffer", "forget-session", "s1", "--db", db]).stdout == "1\n")
        #expect(try Tool.run(["buffer", "add", first, "--db", db, "--session", "s2"]).status == 0)
        let halfADayAhead = Int64((Date().timeIntervalSince1970 + 43_200) * 1000)
        try sqlite(db, "UPDATE sessions SET last_time_ms = \(halfADayAhead)")  // (s2 alone: s1 forgotten)
        let again = try Tool.run(["buffer", "add", first, "--db", db, "--session", "s2"])
        #expect(again.status == 0 && again.stderr.contains("skipped"), "\(again.stderr)")
    }

    /// A file of fixes dated days ahead (a phone's clock set ahead) added to its session again skips its own fixes
    /// and exits 0, as any file added again: the guard for a session's last fix dated ahead fired on any skipped
    /// fix (a reviewer's second add exited 1, "a clock set ahead, or an edit by hand").
    @Test("adds a file of fixes dated ahead to its session again without an error")
    func addsAFileDatedAheadAgain() throws {
        var rows = ["time,latitude,longitude,accuracy_m"]
        let start = (Date().timeIntervalSince1970 + 3 * 86_400).rounded()
        for s in 0..<300 {
            let time = ISO8601.format(Timestamp(millisecondsSince1970: Int64((start + Double(s)) * 1000)))
            rows.append("\(time),\(49 + 1.2 * Double(s) / 111_200),11,5")
        }
        let future = try Tool.temporaryFile("future.csv", contents: rows.joined(separator: "\n") + "\n")
        let db = Tool.temporaryPath("future-session.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: future)
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        let add = try Tool.run(["buffer", "add", future, "--db", db, "--session", "s1"])
        #expect(add.status == 0, "\(add.stderr)")
        let again = try Tool.run(["buffer", "add", future, "--db", db, "--session", "s1"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("300 fixes were skipped"), "\(again.stderr)")
        #expect(!again.stderr.contains("Error"), "\(again.stderr)")
    }

    /// Runs `sql` on the file `db` with Python's sqlite3 (an edit by hand) and returns the first column of its first
    /// row, if any, as Python prints it.
    @discardableResult
    private func sqlite(_ db: String, _ sql: String) throws -> String {
        let edit = Process()
        edit.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        edit.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); r = c.execute(sys.argv[2]).fetchone(); "
                + "c.commit(); print('' if r is None else r[0], end='')", db, sql,
        ]
        let output = Pipe()
        edit.standardOutput = output
        try edit.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        edit.waitUntilExit()
        #expect(edit.terminationStatus == 0, "\(sql)")
        return String(decoding: data, as: UTF8.self)
    }

    /// Only `add` creates a buffer: `count` on a mistyped path fails and leaves nothing behind.
    @Test func readingCommandsDoNotCreateABuffer() throws {
        let db = Tool.temporaryPath("mistyped.sqlite")
        defer { try? FileManager.default.removeItem(atPath: db) }
        for action in ["count", "list", "clear"] {
            let result = try Tool.run(["buffer", action, "--db", db])
            #expect(result.status == 1, "\(action)")
            #expect(result.stderr.contains("no such buffer"), "\(action): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: db), "\(action)")
        }
    }

    /// An empty file is a database to SQLite: `count` and `sync` on one made it a new, empty buffer (a sync tester's
    /// 0-byte file became 40 KB, exit 0). Refused like a missing buffer, the file left empty.
    @Test func anEmptyFileIsNotTakenForABuffer() throws {
        let db = Tool.temporaryPath("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: db, contents: Data()))
        defer { for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) } }
        for arguments in [["buffer", "count"], ["buffer", "stats"], ["sync", "--url", "http://localhost:9/fixes"]] {
            let result = try Tool.run(arguments + ["--db", db])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("an empty file, not a buffer"), "\(arguments): \(result.stderr)")
            #expect(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int == 0, "\(arguments)")
        }
        // `add` makes a buffer of it.
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
    }

    /// An add that fails before persisting anything (a missing input, an unknown profile) leaves no buffer behind: a
    /// tester's mistyped input created an empty buffer, which count and sync then took silently (exit 0).
    @Test func aFailedAddDoesNotCreateABuffer() throws {
        let db = Tool.temporaryPath("failed-add.sqlite")
        defer { try? FileManager.default.removeItem(atPath: db) }
        let missing = try Tool.run(["buffer", "add", Tool.temporaryPath("no-such-input.csv"), "--db", db])
        #expect(missing.status == 1 && missing.stderr.contains("cannot read"), "\(missing.stderr)")
        let profile = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--profile", "bogus"])
        #expect(profile.status == 2, "\(profile.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
        // A failure at the first read (a header alone) removes the buffer the add created (a reviewer's).
        let header = Tool.temporaryPath("header-only-add.csv")
        defer { try? FileManager.default.removeItem(atPath: header) }
        try "time,latitude,longitude\n".write(toFile: header, atomically: true, encoding: .utf8)
        let empty = try Tool.run(["buffer", "add", header, "--db", db])
        #expect(empty.status == 1, "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    /// A file of the session added again after a later day's (a tester's export re-added): its fixes, over a day
    /// older than the session's last, were rejected as out of order, but three in a row restarted the tracker as
    /// after a clock jump, and the session counted the file again (130 → 260 → 390 km). The session holds them:
    /// they are skipped.
    @Test func skipsASessionsFixesAddedAgainDaysLater() throws {
        let text = try String(contentsOfFile: Tool.demo, encoding: .utf8)
        let later = try Tool.temporaryFile(
            "later.csv", contents: text.replacingOccurrences(of: "2025-11-29T", with: "2025-12-01T"))
        let db = Tool.temporaryPath("session-again.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: later)
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", "walk"]).status == 0)
        let second = try Tool.run(["buffer", "add", later, "--db", db, "--session", "walk"])
        #expect(second.status == 0, "\(second.stderr)")
        let total = try #require(second.stderr.split(separator: "\n").first { $0.hasPrefix("session 'walk': ") })
            .dropFirst("session 'walk': ".count).prefix { $0 != " " }
        let again = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", "walk"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("session 'walk': \(total) m (0.0 m from this add)"), "\(again.stderr)")
        #expect(again.stderr.contains("persisted 0 of "), "\(again.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "1108\n")
    }

    /// A file of the session added again after its rows left the buffer (a sync deleted them, or the cap dropped
    /// them): nothing finds them by their rows, and the session counted the file again (a 3-day hike 120.9 →
    /// 241.8 km; a crash tester's capped session's fix count 60,000 → 104,465 with "out of order" warnings).
    /// Fixes the tracker counted are skipped by time, outside its last forward jump.
    @Test func skipsASessionsFixesAddedAgainAfterTheirRowsLeft() throws {
        let db = Tool.temporaryPath("session-synced.sqlite")
        defer { for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let first = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", "walk"])
        #expect(first.status == 0, "\(first.stderr)")
        let total = try #require(first.stderr.split(separator: "\n").first { $0.hasPrefix("session 'walk': ") })
            .dropFirst("session 'walk': ".count).prefix { $0 != " " }
        #expect(try Tool.run(["buffer", "clear", "--db", db]).status == 0)
        let again = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", "walk"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("session 'walk': \(total) m (0.0 m from this add)"), "\(again.stderr)")
        #expect(again.stderr.contains("persisted 0 of "), "\(again.stderr)")
        #expect(!again.stderr.contains("out of order"), "\(again.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "0\n")
    }

    /// A late batch (the walk's middle third added after its last) was skipped as "already in the session", exit 0,
    /// though the session never held it (a buffer tester's 200 fixes lost). With none of its fixes in a buffer no
    /// row ever left, it is refused, named with its span, exit 1; a part added again is still skipped quietly, and
    /// once rows have left the buffer (synced) the skip no longer says "already in the session".
    @Test("refuses a late batch the session never held instead of skipping it as held")
    func refusesALateBatch() throws {
        let lines = try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n").map(String.init)
        let third = (lines.count - 1) / 3
        let parts = try [1..<(1 + third), (1 + third)..<(1 + 2 * third), (1 + 2 * third)..<lines.count].enumerated()
            .map { index, range in
                try Tool.temporaryFile(
                    "late-\(index).csv", contents: ([lines[0]] + lines[range]).joined(separator: "\n") + "\n")
            }
        let db = Tool.temporaryPath("late-batch.sqlite")
        defer {
            for part in parts { try? FileManager.default.removeItem(atPath: part) }
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        for part in [parts[0], parts[2]] {
            #expect(try Tool.run(["buffer", "add", part, "--db", db, "--session", "walk"]).status == 0)
        }
        let stored = try Tool.run(["buffer", "count", "--db", db]).stdout
        let late = try Tool.run(["buffer", "add", parts[1], "--db", db, "--session", "walk"])
        #expect(late.status == 1, "\(late.stderr)")
        #expect(late.stderr.contains("\(third) fixes of \(parts[1]) (2025-11-29T"), "\(late.stderr)")
        #expect(late.stderr.contains("were never in the buffer: a late batch, not stored"), "\(late.stderr)")
        #expect(late.stderr.contains("unless the tracker rejected them when they were added before"))
        #expect(!late.stderr.contains("already in the session"), "\(late.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == stored)
        let again = try Tool.run(["buffer", "add", parts[0], "--db", db, "--session", "walk"])
        #expect(again.status == 0 && again.stderr.contains("already in the session"), "\(again.stderr)")
        // The late third overlapping the session by one stored fix (a chunked upload's): not refused, but its
        // fixes not stored are named (a reviewer's: "already in the session", 39 of 40 lost unsaid).
        let overlapping = try Tool.temporaryFile(
            "late-overlap.csv",
            contents: ([lines[0], lines[third]] + lines[(1 + third)..<(1 + 2 * third)])
                .joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: overlapping) }
        let overlap = try Tool.run(["buffer", "add", overlapping, "--db", db, "--session", "walk"])
        #expect(overlap.status == 0, "\(overlap.stderr)")
        #expect(
            overlap.stderr.contains("\(third) of the \(third + 1) fixes skipped (2025-11-29T")
                && overlap.stderr.contains("are not in the buffer and were not stored"), "\(overlap.stderr)")
        // A row gone (as after a sync): the late batch cannot be told from fixes synced since; skipped, and said so.
        _ = try sqlite(db, "DELETE FROM fixes WHERE id = (SELECT min(id) FROM fixes)")
        let unknown = try Tool.run(["buffer", "add", parts[1], "--db", db, "--session", "walk"])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("none of them in the buffer (synced or dropped since"), "\(unknown.stderr)")
    }

    /// A file older than the session's (day 1 added after day 2, or after it won the session lock) was skipped as
    /// "already in the session", exit 0, though the session never held it: every fix lost (a buffer tester's).
    /// Fixes older than the session's first are refused, named with their span, exit 1; the rest of the input is
    /// stored, and the session's own fixes added again are still skipped quietly. A session written before the
    /// store kept its first fix (no `first_time_ms`) skips them as before.
    @Test func refusesFixesOlderThanTheSessionInsteadOfSkippingThem() throws {
        let text = try String(contentsOfFile: Tool.demo, encoding: .utf8)
        let later = try Tool.temporaryFile(
            "day2.csv", contents: text.replacingOccurrences(of: "2025-11-29T", with: "2025-12-01T"))
        let db = Tool.temporaryPath("session-older.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: later)
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", later, "--db", db, "--session", "walk"]).status == 0)
        let older = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", "walk"])
        #expect(older.status == 1, "\(older.stderr)")
        #expect(older.stderr.contains("560 older than the session, not stored"), "\(older.stderr)")
        #expect(
            older.stderr.contains("560 fixes of \(Tool.demo) (2025-11-29T"), "\(older.stderr)")
        #expect(older.stderr.contains("are older than the session's first fix (2025-12-01T"), "\(older.stderr)")
        #expect(!older.stderr.contains("already in the session"), "\(older.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "554\n")
        // The session's own fixes again: skipped, exit 0.
        let again = try Tool.run(["buffer", "add", later, "--db", db, "--session", "walk"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("already in the session"), "\(again.stderr)")
        // A session stored before its first fix was kept: the older file cannot be told older than the session, but
        // none of its fixes is in a buffer no row left: refused as a late batch (it was skipped, exit 0). A newer
        // add does not make its own first fix the session's (a reviewer's: the session's own file, added again
        // after it, was refused).
        _ = try sqlite(db, "UPDATE sessions SET first_time_ms = NULL")
        let unknown = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--session", "walk"])
        #expect(unknown.status == 1 && unknown.stderr.contains("a late batch, not stored"), "\(unknown.stderr)")
        let day3 = try Tool.temporaryFile(
            "day3.csv", contents: text.replacingOccurrences(of: "2025-11-29T", with: "2025-12-03T"))
        defer { try? FileManager.default.removeItem(atPath: day3) }
        #expect(try Tool.run(["buffer", "add", day3, "--db", db, "--session", "walk"]).status == 0)
        #expect(try sqlite(db, "SELECT first_time_ms IS NULL FROM sessions") == "1")
        let ownAgain = try Tool.run(["buffer", "add", later, "--db", db, "--session", "walk"])
        #expect(ownAgain.status == 0, "\(ownAgain.stderr)")
    }

    /// A file whose first fixes the tracker rejected (a cold start at 80 m), added again to its session: those fixes
    /// are the session's own, older than its first *accepted* fix; skipped, exit 0 (a reviewer's: refused, exit 1).
    @Test func aFileWhoseFirstFixesWereRejectedAddsAgainQuietly() throws {
        var lines = try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n").map(String.init)
        for i in 1...10 {
            var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[3] = "80"
            lines[i] = fields.joined(separator: ",")
        }
        let cold = try Tool.temporaryFile("cold-start.csv", contents: lines.joined(separator: "\n") + "\n")
        let db = Tool.temporaryPath("session-cold.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: cold)
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        let first = try Tool.run(["buffer", "add", cold, "--db", db, "--session", "walk"])
        #expect(first.status == 0 && first.stderr.contains("rejected by the tracker"), "\(first.stderr)")
        let again = try Tool.run(["buffer", "add", cold, "--db", db, "--session", "walk"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("older than the session"), "\(again.stderr)")
    }

    /// A session whose last fix was dated an hour ahead (a clock fault) takes the real fixes after it: skipped by
    /// time alone, as not newer than its last, the session took nothing more (a reviewer's: "persisted 0 of 260").
    @Test func aSessionRecoversFromALastFixDatedAhead() throws {
        let lines = try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n").map(String.init)
        var first = Array(lines[..<301])
        var fields = first[300].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let time = try #require(ISO8601.parse(fields[0]))
        fields[0] = ISO8601.format(Timestamp(millisecondsSince1970: time.millisecondsSince1970 + 3_600_000))
        first[300] = fields.joined(separator: ",")
        let a = try Tool.temporaryFile("ahead-a.csv", contents: first.joined(separator: "\n") + "\n")
        let b = try Tool.temporaryFile(
            "ahead-b.csv", contents: ([lines[0]] + lines[301...]).joined(separator: "\n") + "\n")
        let db = Tool.temporaryPath("ahead.sqlite")
        defer {
            for path in [a, b] { try? FileManager.default.removeItem(atPath: path) }
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", a, "--db", db, "--session", "w"]).status == 0)
        let rest = try Tool.run(["buffer", "add", b, "--db", db, "--session", "w"])
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(!rest.stderr.contains("persisted 0 of"), "\(rest.stderr)")
        let added = try #require(rest.stderr.split(separator: "\n").first { $0.hasPrefix("session 'w': ") })
        let fromThisAdd = added.split(separator: "(").last.flatMap { Double($0.prefix { $0 != " " }) } ?? 0
        #expect(fromThisAdd > 150, "\(rest.stderr)")
    }

    /// A buffer filled under a larger cap is not cut to the default one by an add that forgot `--max-records` (a
    /// tester's 20,000 rows became 10,000, exit 0): the add is refused, nothing changes.
    @Test func refusesToCutABufferFilledUnderALargerCap() throws {
        let long = try Tool.secondlyFixes("long.csv", count: 10_100) { "49.0,\(11 + 1.3 * Double($0) / 73_000)" }
        let db = Tool.temporaryPath("large-cap.sqlite")
        defer {
            try? FileManager.default.removeItem(atPath: long)
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", long, "--db", db, "--max-records", "20000"]).status == 0)
        let held = try Tool.run(["buffer", "count", "--db", db]).stdout
        #expect((Int(held.dropLast()) ?? 0) > 10_000, "\(held)")
        let forgot = try Tool.run(["buffer", "add", Tool.demo, "--db", db])
        #expect(forgot.status == 2, "\(forgot.stderr)")
        #expect(forgot.stderr.contains("more than the default cap of 10000"), "\(forgot.stderr)")
        #expect(forgot.stderr.contains("give --max-records"), "\(forgot.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == held)
        // A cap given too low (a sync tester's typo, 1000 for 1000000, cut 531,959 unsent rows to 1,000) is refused
        // the same way; --shrink drops them on purpose.
        let typo = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--max-records", "1000"])
        #expect(typo.status == 2, "\(typo.stderr)")
        #expect(typo.stderr.contains("more than --max-records 1000"), "\(typo.stderr)")
        #expect(typo.stderr.contains("--shrink"), "\(typo.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == held)
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--max-records", "20000"]).status == 0)
        // (The demo's fixes are held already, and an add that stores nothing drops nothing: new fixes.)
        let more = try Tool.secondlyFixes("more.csv", count: 200) { "48.0,\(11 + 1.3 * Double($0) / 73_000)" }
        defer { try? FileManager.default.removeItem(atPath: more) }
        let shrunk = try Tool.run(["buffer", "add", more, "--db", db, "--max-records", "1000", "--shrink"])
        #expect(shrunk.status == 0, "\(shrunk.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "1000\n")
    }

    @Test func keepsOnlyTheNewestRowsUnderTheCap() throws {
        let db = Tool.temporaryPath("capped.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        let add = try Tool.run(["buffer", "add", Tool.demo, "--db", db, "--max-records", "100"])
        #expect(add.status == 0)
        #expect(add.stderr.contains("454 rows stored earliest dropped by the cap"))
        #expect(!add.stderr.contains("among them"), "\(add.stderr)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "100\n")
        // Rows a backend rejected and a row set aside as damaged go with the oldest, and the add says so (a
        // tester's 40 rejected rows and a damaged one went under "150 rows dropped" alone).
        _ = try sqlite(
            db,
            "UPDATE fixes SET sync_state = 1, sync_status = 422 WHERE id IN (SELECT id FROM fixes ORDER BY id LIMIT 10)"
        )
        _ = try sqlite(db, "UPDATE fixes SET sync_state = 2 WHERE id = (SELECT max(id) FROM fixes)")
        let text = try String(contentsOfFile: Tool.demo, encoding: .utf8)
        let later = try Tool.temporaryFile(
            "capped-later.csv", contents: text.replacingOccurrences(of: "2025-11-29T", with: "2025-12-01T"))
        defer { try? FileManager.default.removeItem(atPath: later) }
        let next = try Tool.run(["buffer", "add", later, "--db", db, "--max-records", "100"])
        #expect(
            next.stderr.contains("among them 10 rejected by the backend and 1 set aside as damaged"), "\(next.stderr)")
    }

    @Test func syncsEveryRowExactlyOnceAndEmptiesTheBuffer() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("sync.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        // The token from a file (`--header @FILE`: kept out of ps and shell history, a backend tester's).
        // (Windows line ends: "\r\n" is one Character, and a split at "\n" read the file as one line.)
        let headers = try Tool.temporaryFile(
            "headers.txt", contents: "# the token\r\nAuthorization: Bearer s3cret\r\nX-Device-Id: phone-1\r\n\r\n")
        defer { try? FileManager.default.removeItem(atPath: headers) }
        let sync = try Tool.run([
            "sync", "--db", db, "--url", "http://127.0.0.1:\(receiver.port)/fixes",
            "--header", "@" + headers, "--batch-size", "100",
        ])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("delivered 554, rejected 0"))
        #expect(!sync.stdout.contains("s3cret") && !sync.stderr.contains("s3cret"))
        let stats = try receiver.stats()
        #expect(stats["stored_fixes"] as? Int == 554)
        #expect(stats["stored_batches"] as? Int == 6)
        #expect(stats["authorization"] as? [String] == ["Bearer s3cret"])
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "0\n")
        // A malformed line is named by file and line, never with its value.
        let broken = try Tool.temporaryFile("headers-broken.txt", contents: "X-Ok: 1\nBearer s3cret\n")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let refused = try Tool.run(["sync", "--db", db, "--url", "http://127.0.0.1:1/fixes", "--header", "@" + broken])
        #expect(refused.status == 2 && refused.stderr.contains("@\(broken), line 2:"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("s3cret"))
        // So is a header the client sets itself (it was refused only later, without the file's line).
        let clients = try Tool.temporaryFile("headers-client.txt", contents: "X-Ok: 1\nContent-Length: 5\n")
        defer { try? FileManager.default.removeItem(atPath: clients) }
        let own = try Tool.run(["sync", "--db", db, "--url", "http://127.0.0.1:1/fixes", "--header", "@" + clients])
        #expect(own.status == 2 && own.stderr.contains("@\(clients), line 2:"), "\(own.stderr)")
        #expect(own.stderr.contains("set by the client"))
    }

    /// A server asking for a day's wait (`Retry-After: 86400`) held a CI job 300 s an attempt, with no way to lower it:
    /// `--max-wait` caps it, and the line says the server's wait was cut (a sync tester's).
    @Test func maxWaitCapsTheServersRetryAfter() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("max-wait.sqlite")
        defer { for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) } }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        try receiver.control(["script": ["429:86400"]])
        let url = "http://127.0.0.1:\(receiver.port)/fixes"
        let started = Date()
        let sync = try Tool.run(["sync", "--db", db, "--url", url, "--batch-size", "1000", "--max-wait", "0.5"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("delivered 554"), "\(sync.stdout)")
        #expect(
            sync.stderr.contains("(the server's Retry-After: 86400.0 s, cut to the longest wait)"), "\(sync.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        let refused = try Tool.run(["sync", "--db", db, "--url", url, "--max-wait", "90000"])
        #expect(refused.status == 2 && refused.stderr.contains("outside 0...86400"), "\(refused.stderr)")
    }

    /// A backend that rejects every batch (422): sync exits 0 with "delivered 0" (a cron job read success), and
    /// the rejected rows could not be sent again from the command line. Now it exits 1 naming them, `buffer
    /// stats` shows them, `buffer requeue` makes them pending, and the next sync delivers them.
    @Test func rejectedRowsFailTheSyncAndCanBeRequeued() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("rejected.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        try receiver.control(["faults": ["422"], "fail_rate": 1.0])
        let url = "http://127.0.0.1:\(receiver.port)/fixes"
        let sync = try Tool.run(["sync", "--db", db, "--url", url, "--batch-size", "200"])
        #expect(sync.status == 1, "\(sync.stdout)")
        #expect(sync.stdout.contains("delivered 0, rejected 554"))
        #expect(sync.stderr.contains("rejected 554 fixes") && sync.stderr.contains("buffer requeue"))
        // What the server said is passed on (a backend tester's reason for a 400 never reached the user).
        #expect(sync.stderr.contains(#"(the server said: {"error": "fault 422"})"#), "\(sync.stderr)")
        let stats = try Tool.run(["buffer", "stats", "--db", db])
        #expect(
            stats.stdout == "rows 554: pending 0, in flight 0, rejected 554, damaged 0; dropped by the cap so far 0\n")
        // A later sync that finds only those rejected rows left still fails, naming them (it exited 0).
        try receiver.control(["faults": [], "fail_rate": 0.0])
        let later = try Tool.run(["sync", "--db", db, "--url", url])
        #expect(later.status == 1 && later.stdout.contains("delivered 0, rejected 0"))
        #expect(
            later.stderr.contains("the buffer holds 554 fixes a backend rejected (0 in this sync)"), "\(later.stderr)")
        #expect(try Tool.run(["buffer", "requeue", "--db", db]).stdout == "554\n")
        let again = try Tool.run(["sync", "--db", db, "--url", url, "--batch-size", "200"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("delivered 554, rejected 0"))
        #expect(try receiver.stats()["user_agents"] as? [String] == ["truetrack/0.1.0"])
    }

    /// One row edited by hand (text in its latitude) stopped every `sync` with "damaged, move it aside", its
    /// batch claimed and nothing sent, and `buffer list` failed on it. Now `list` names it, `sync` sets it aside
    /// (naming it) and delivers the rest, exiting 1 while it stays, `stats` counts it and `drop-damaged` removes
    /// exactly it.
    @Test("sets a damaged row aside, lists and counts it, and drops it on request")
    func setsADamagedRowAsideListsAndCountsItAndDropsItOnRequest() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("damaged.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        _ = try sqlite(db, "UPDATE fixes SET latitude = 'abc' WHERE id = 17")
        let reason = "latitude holds text or a blob, not a number"
        let before = try Tool.run(["buffer", "list", "--db", db, "--limit", "1000"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("\n17\tdamaged: \(reason)\t"), "\(before.stdout.prefix(300))")
        #expect(before.stdout.split(separator: "\n").count == 555)
        // (Counted as damaged, not pending, before any sync has reached it: as `list` shows it.)
        let unmet = try Tool.run(["buffer", "stats", "--db", db])
        #expect(
            unmet.stdout == "rows 554: pending 553, in flight 0, rejected 0, damaged 1 (1 not set aside yet); "
                + "dropped by the cap so far 0\n")
        let url = "http://127.0.0.1:\(receiver.port)/fixes"
        let sync = try Tool.run(["sync", "--db", db, "--url", url, "--batch-size", "100"])
        #expect(sync.status == 1, "\(sync.stdout)")
        #expect(sync.stdout.contains("delivered 553, rejected 0"), "\(sync.stdout)")
        #expect(sync.stdout.contains("set aside as damaged 1"), "\(sync.stdout)")
        #expect(sync.stderr.contains("set aside 1 damaged row") && sync.stderr.contains("row 17: \(reason)"))
        #expect(!sync.stderr.contains("move it aside"), "\(sync.stderr)")
        #expect(try receiver.stats()["stored_fixes"] as? Int == 553)
        let stats = try Tool.run(["buffer", "stats", "--db", db])
        #expect(stats.stdout == "rows 1: pending 0, in flight 0, rejected 0, damaged 1; dropped by the cap so far 0\n")
        let json = try Tool.run(["buffer", "list", "--db", db, "--json"])
        #expect(json.stdout == #"{"column":"latitude","damaged":"\#(reason)","id":17,"sync":"damaged"}"# + "\n")
        // A later sync with nothing else to send still fails while the damaged row stays, naming what to do.
        let later = try Tool.run(["sync", "--db", db, "--url", url])
        #expect(
            later.status == 1 && later.stderr.contains("holds 1 damaged row") && later.stderr.contains("drop-damaged"))
        let dropped = try Tool.run(["buffer", "drop-damaged", "--db", db])
        #expect(dropped.status == 0 && dropped.stdout == "1\n" && dropped.stderr.contains("row 17: \(reason)"))
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "0\n")
        #expect(try Tool.run(["buffer", "drop-damaged", "--db", db]).stdout == "0\n")
        #expect(try Tool.run(["sync", "--db", db, "--url", url]).status == 0)
    }

    /// A rejected row whose fix was damaged since counts as damaged, not rejected, and no sync sets it aside (a sync
    /// claims pending rows only): the end of a sync counted it among the "damaged rows set aside". Now the rows a
    /// sync set aside are counted apart from the damaged rows none has.
    @Test("the end of a sync calls set aside only the rows a sync set aside")
    func theEndOfASyncCallsSetAsideOnlyTheRowsASyncSetAside() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("rejected-damaged.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        _ = try sqlite(db, "UPDATE fixes SET sync_state = 1, sync_status = 422, latitude = 'abc' WHERE id = 17")
        _ = try sqlite(db, "UPDATE fixes SET latitude = 'abc' WHERE id = 18")
        let url = "http://127.0.0.1:\(receiver.port)/fixes"
        let sync = try Tool.run(["sync", "--db", db, "--url", url])
        #expect(sync.status == 1)
        #expect(sync.stdout.contains("delivered 552, rejected 0") && sync.stdout.contains("set aside as damaged 1"))
        let notSetAside =
            "1 damaged row no sync has set aside (rejected before it was damaged, not reached, or damaged in its sync "
            + "columns), never sent"
        #expect(sync.stderr.contains("Error: the buffer holds \(notSetAside)"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("rows set aside"), "\(sync.stderr)")
        let later = try Tool.run(["sync", "--db", db, "--url", url])
        #expect(later.status == 1)
        #expect(
            later.stderr.contains(
                "Error: the buffer holds 1 damaged row set aside (0 in this sync) and \(notSetAside)"),
            "\(later.stderr)")
    }

    /// Rows in flight whose batch's row was deleted by hand were stuck for ever: `sync` exited 0 without a word and
    /// never sent them, and `requeue` and `drop-damaged` did nothing. Now the sync makes them pending again, sends
    /// them under a new key and says how many.
    @Test("sync sends rows of a batch no longer recorded and says how many")
    func syncSendsRowsOfABatchNoLongerRecordedAndSaysHowMany() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("orphaned.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        try sqlite(db, "UPDATE fixes SET batch_id = 999 WHERE id <= 10")
        #expect(try Tool.run(["buffer", "stats", "--db", db]).stdout.contains("in flight 10,"))
        let sync = try Tool.run(["sync", "--db", db, "--url", "http://127.0.0.1:\(receiver.port)/fixes"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("delivered 554, rejected 0"), "\(sync.stdout)")
        #expect(sync.stdout.contains("released from a lost batch 10"), "\(sync.stdout)")
        #expect(sync.stderr.contains("note: 10 rows were in flight under a batch the buffer no longer records"))
        #expect(try receiver.stats()["stored_fixes"] as? Int == 554)
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "0\n")
    }

    /// A `sync_state` of 99 (a hand edit) was counted nowhere by `stats` and deleted, fix and all, by
    /// `drop-damaged`. Now `stats` counts it damaged, `drop-damaged` keeps it and says `requeue` repairs it, and
    /// `requeue` makes it pending.
    @Test("keeps a row damaged only in its sync state and requeues it")
    func keepsARowDamagedOnlyInItsSyncStateAndRequeuesIt() throws {
        let db = Tool.temporaryPath("sync-state.sqlite")
        defer {
            for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        try sqlite(db, "UPDATE fixes SET sync_state = 99 WHERE id = 5")
        let stats = try Tool.run(["buffer", "stats", "--db", db]).stdout
        #expect(stats.hasPrefix("rows 554: pending 553, in flight 0, rejected 0, damaged 1;"), "\(stats)")
        let drop = try Tool.run(["buffer", "drop-damaged", "--db", db])
        #expect(drop.stdout == "0\n" && drop.stderr.contains("kept 1 row damaged only in the sync state"))
        #expect(drop.stderr.contains("row 5: sync_state 99 is not a state"), "\(drop.stderr)")
        #expect(try Tool.run(["buffer", "requeue", "--db", db]).stdout == "1\n")
        let after = try Tool.run(["buffer", "stats", "--db", db]).stdout
        #expect(after.hasPrefix("rows 554: pending 554, in flight 0, rejected 0, damaged 0;"), "\(after)")
    }

    @Test func keepsEveryRowWhenTheServerIsDead() throws {
        let db = Tool.temporaryPath("dead.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let sync = try Tool.run(["sync", "--db", db, "--url", "http://127.0.0.1:1/fixes", "--timeout", "1"])
        #expect(sync.status == 1)
        #expect(sync.stdout.contains("delivered 0"))
        #expect(sync.stderr.contains("cannot connect"))
        #expect(sync.stderr.contains("; next attempt in "), "\(sync.stderr)")  // said, not silent
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "554\n")
    }

    @Test func rejectsBadUsageWithExitTwo() throws {
        for arguments in [
            ["buffer"], ["buffer", "frob", "--db", "x"], ["buffer", "count"], ["buffer", "add", "--db", "x"],
            ["buffer", "count", "--db", "x", "--max-records", "5"],
            ["sync", "--db", "x"], ["sync", "--url", "http://127.0.0.1:1/"],
            ["sync", "--db", "x", "--url", "ftp://host/x"],
            ["sync", "--db", "x", "--url", "http://h/x", "--batch-size", "0"],
            ["sync", "--db", "x", "--url", "http://h/x", "--header", "no colon"],
            ["sync", "--db", "x", "--url", "http://h/x", "--method", "GET"],
        ] {
            let result = try Tool.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
    }

    @Test func refusesAnOptionOfAnotherActionNamingWhichActionReadsIt() throws {
        let db = Tool.temporaryPath("options.sqlite")
        defer {
            for suffix in Tool.databaseFiles {
                try? FileManager.default.removeItem(atPath: db + suffix)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        for (arguments, users) in [
            (["buffer", "count", "--db", db, "--limit", "5"], "list"),
            (["buffer", "clear", "--db", db, "--json"], "list"),
            (["buffer", "list", "--db", db, "--profile", "driving"], "add"),
            (["buffer", "stats", "--db", db, "--max-records", "500"], "add"),
        ] {
            let result = try Tool.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("does not apply to 'buffer \(arguments[1])' (it is for: \(users))"))
        }
        // Nothing was cleared by the refused `clear --json`.
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "554\n")
        #expect(try Tool.run(["buffer", "list", "--db", db, "--limit", "1", "--json"]).status == 0)
    }

    @Test func namesAFileThatIsNotABuffer() throws {
        let result = try Tool.run(["buffer", "count", "--db", Tool.demo])
        #expect(result.status == 1)
        #expect(result.stderr.contains(Tool.demo))
    }

    /// Ctrl-C during a sync: the tool ends with 130 and says what it delivered and that the rest stays queued (it
    /// printed nothing); the batch it was sending goes again under its key.
    @Test func anInterruptedSyncSaysWhatItDelivered() throws {
        let receiver = try LoopbackReceiver()
        let db = Tool.temporaryPath("interrupted.sqlite")
        let errPath = Tool.temporaryPath("sync-stderr")
        defer {
            for path in [db, db + "-wal", db + "-shm", db + "-sync.lock", errPath] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        #expect(try Tool.run(["buffer", "add", Tool.demo, "--db", db]).status == 0)
        // The first batch is stored, the second hangs.
        try receiver.control(["script": ["ok", "slow:60"]])
        let child = Process()
        child.executableURL = Tool.binary
        child.arguments = [
            "sync", "--db", db, "--url", "http://127.0.0.1:\(receiver.port)/fixes", "--timeout", "120",
        ]
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        child.standardError = err
        child.standardOutput = FileHandle.nullDevice
        try child.run()
        var said = ""
        for _ in 0..<400 where child.isRunning && !said.contains("sent 50 fixes") {
            usleep(25_000)
            said = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        }
        #expect(said.contains("sent 50 fixes"), "\(said)")
        usleep(200_000)  // the second batch is on its way
        kill(child.processIdentifier, SIGINT)
        child.waitUntilExit()
        try err.close()
        said = try String(contentsOfFile: errPath, encoding: .utf8)
        #expect(child.terminationStatus == 130)
        #expect(said.contains("interrupted: 50 fixes delivered in this sync; the rest stays in \(db)"), "\(said)")
        #expect(try Tool.run(["buffer", "count", "--db", db]).stdout == "504\n")
    }
}
