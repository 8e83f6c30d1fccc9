import Foundation
import Testing
import TrueTrackCore

/// `process` and `stops` read a file a second time when a clock jump proved fixes wrong that had already reached
/// the stop analysis (more than the 512 fixes held back). The second reading leaves out the fixes the first
/// reading proved wrong as it reads them, and keeps those it proved right; its stops, times and clock-jump
/// warnings are those of a reading that holds every fix back to the end, as `process --smooth` does.
@Suite struct SecondReadingTests {
    /// Two days, seconds: a clock jump.
    static let days2 = 172_800
    /// 1024 weeks, seconds: a GPS week rollover.
    static let weeks1024 = 619_315_200

    /// A fix as written: its time, seconds after 2024-05-01T08:00:00Z, and metres north of the start.
    typealias Row = (seconds: Int, north: Int)

    /// `count` fixes a second apart from `from` seconds (shifted by `offset` seconds), walking north 1.4 m a
    /// second from `north` metres, except for a stop from the 100th fix to the 219th.
    static func walk(from: Int, count: Int, north: Int = 0, offset: Int = 0) -> [Row] {
        (0..<count).map { i in (from + i + offset, north + Int(Double(min(i, 100) + max(0, i - 220)) * 1.4)) }
    }

    /// A CSV of `rows` (accuracy 5 m, along 13.8° E).
    static func csv(_ rows: [Row]) -> String {
        var text = "time,latitude,longitude,accuracy_m\n"
        for row in rows {
            let time = ISO8601.format(Timestamp(millisecondsSince1970: (1_714_550_400 + Int64(row.seconds)) * 1000))
            text += "\(time),\(String(format: "%.7f", 46.4 + Double(row.north) / 111_200)),13.8,5\n"
        }
        return text
    }

    /// The clock-fault files whose wrong fixes reach the analysis before they are proven wrong, by name.
    static let files: [String: [Row]] = {
        let d = days2, w = weeks1024
        var files: [String: [Row]] = [:]
        // A run of 700 fixes dated two days ahead, proven wrong by the restart onto the true time after it; a
        // fix early in the run dated before it (rejected as out of order, a day or more behind the wrong time)
        // is proven right by that restart, after 600 repeats of the fix before it (rejected as duplicates).
        var run = walk(from: 0, count: 300) + walk(from: 300, count: 700, north: 400, offset: d)
        run.insert(contentsOf: [(150, 200)] + Array(repeating: run[304], count: 600), at: 305)
        files["long wrong run"] = run + walk(from: 1000, count: 400, north: 1400)
        // A fix dated three days early (rejected, a day or more behind), 600 repeats of the fix before it
        // (rejected as duplicates), then the rest of the file 1024 weeks early: the 800 accepted fixes before
        // that restart are wrong, the early fix stays wrong, and its warning follows the restart's.
        var rollover = walk(from: 0, count: 800)
        rollover.insert(contentsOf: [(100 - 3 * 86_400, 140)] + Array(repeating: rollover[100], count: 600), at: 101)
        files["rollover back"] = rollover + walk(from: 800, count: 400, north: 1100, offset: -w)
        // Two fixes 1024 weeks early, 600 repeats of the second, then the walk (a forward jump its fixes confirm:
        // the two before it are wrong), then a run of 700 fixes two days ahead.
        files["forward jump first"] =
            walk(from: 0, count: 2, offset: -w) + Array(repeating: (1 - w, 1), count: 600)
            + walk(from: 2, count: 600, north: 2) + walk(from: 602, count: 700, north: 800, offset: d)
            + walk(from: 1302, count: 300, north: 1800)
        // A run of 700 fixes two days ahead first; at the end one fix 1024 weeks ahead that no later fix
        // confirms, then a fix back on time and 600 repeats of it (out of order only against the wrong time:
        // in the stops).
        files["forward jump last"] =
            walk(from: 0, count: 700, offset: d) + walk(from: 700, count: 500, north: 1000)
            + [(1200 + w, 1700), (1201, 1700)] + Array(repeating: (1201, 1700), count: 600)
        return files
    }()

    /// The clock-jump warnings that name fixes (in read order) left out, as `process --json` reports them.
    static func namedFixes(_ summary: [String: Any]) -> [String] {
        (summary["warnings"] as? [String] ?? []).filter { $0.contains("(in read order)") }
    }

    /// Runs `process --json` on `path` with `extra` arguments and returns its summary.
    static func summary(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        try ProcessCommandTests.summary([path] + extra)
    }

    @Test(
        "a file read a second time gives the stops, times and clock-jump warnings of a reading that holds every fix",
        arguments: ["long wrong run", "rollover back", "forward jump first", "forward jump last"])
    func secondReadingEqualsHoldingEveryFix(name: String) throws {
        let text = Self.csv(try #require(Self.files[name]))
        let path = try Tool.temporaryFile("second-reading.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The file is one that is read a second time: from standard input, the warning says the analysis holds
        // wrong fixes.
        let piped = try Tool.run(["process", "-", "--format", "csv"], stdin: Data(text.utf8))
        #expect(piped.stderr.contains("from standard input the stops and times hold them"), "\(name): \(piped.stderr)")
        let streamed = try Self.summary(path)
        let held = try Self.summary(path, ["--smooth"])
        for key in ["stops", "durationSeconds", "movingSeconds"] {
            #expect(
                (streamed[key] as? NSObject) == (held[key] as? NSObject),
                "\(name) \(key): \(streamed[key] ?? "nil") vs \(held[key] ?? "nil")")
        }
        #expect(Self.namedFixes(streamed) == Self.namedFixes(held), "\(name)")
        #expect(!Self.namedFixes(streamed).isEmpty, "\(name)")
    }

    /// The restart after a run of 700 wrong fixes leaves out exactly those 700 (one warning counts them all),
    /// however long the run; the fix rejected in the run and proven right by the restart is named by no warning of
    /// its own (it would be a second one); the duration is the walk's, without the two days.
    @Test func leavesOutExactlyTheFixesTheFirstReadingProvedWrongInARunLongerThanTheHoldBack() throws {
        let path = try Tool.temporaryFile(
            "long-wrong-run.csv", contents: Self.csv(try #require(Self.files["long wrong run"])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try Self.summary(path)
        let named = Self.namedFixes(summary)
        #expect(named.count == 1, "\(named)")
        #expect(named.first?.contains("fix 301 (in read order)") == true, "\(named)")
        #expect(named.first?.contains("(and 699 more accepted fixes after it)") == true, "\(named)")
        // 0…1399 s: the run's fixes are out.
        #expect(summary["durationSeconds"] as? Double == 1399, "\(summary["durationSeconds"] ?? "nil")")
        let stops = try Tool.run(["stops", path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stops.stdout.utf8)) as? [String: Any])
        #expect(report["elapsedSeconds"] as? Double == 1399)
        #expect((report["stops"] as? [Any])?.count == (summary["stops"] as? [Any])?.count)
    }

    /// A fix dated days before the fixes around it, rejected, is named after the restart that a later clock
    /// jump made, as when every fix is held back: in the order the fixes were proven wrong, not as the second
    /// reading analysed them.
    @Test func namesABackdatedFixAfterTheRestartThatCameLater() throws {
        let path = try Tool.temporaryFile(
            "rollover-back.csv", contents: Self.csv(try #require(Self.files["rollover back"])))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let named = Self.namedFixes(try Self.summary(path))
        #expect(named.count == 2, "\(named)")
        #expect(named.first?.contains("the tracker started again at fix 1404") == true, "\(named)")
        #expect(named.last?.contains("fix 102 (in read order)") == true, "\(named)")
    }
}

/// A file written newest first is out of order from its second fix on; the smoother takes its fixes in time order.
/// Its fixes lie a minute apart, so none is a clock jump, however far it lies before the first (`EvidenceStream`'s
/// backdated fixes: a run of fixes behind that steps back in time continues the file, not a clock fault).
@Suite struct NewestFirstFileTests {
    @Test func aFileWrittenNewestFirstOverTwoDaysIsSmoothedWhole() throws {
        // 50 hours, a fix a minute, 60 m north each: 3,000 fixes, 179,940 m.
        let rows = (0..<3000).map { i in (seconds: 60 * i, north: 60 * i) }
        let sorted = try Tool.temporaryFile("oldest-first.csv", contents: SecondReadingTests.csv(rows))
        let reversed = try Tool.temporaryFile("newest-first.csv", contents: SecondReadingTests.csv(rows.reversed()))
        defer {
            try? FileManager.default.removeItem(atPath: sorted)
            try? FileManager.default.removeItem(atPath: reversed)
        }
        let inOrder = try SecondReadingTests.summary(sorted, ["--smooth"])
        let newestFirst = try SecondReadingTests.summary(reversed, ["--smooth"])
        let expected = try #require(inOrder["distanceMetres"] as? Double)
        let measured = try #require(newestFirst["distanceMetres"] as? Double)
        #expect(abs(measured - expected) < 0.001 * expected, "\(measured) m, \(expected) m in time order")
        #expect(SecondReadingTests.namedFixes(newestFirst).isEmpty, "\(SecondReadingTests.namedFixes(newestFirst))")
        let warnings = newestFirst["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("--sort") }, "\(warnings)")
    }

    /// A run of fixes dated 1024 weeks early inside a file written newest first is a GPS week rollover to its last
    /// fix: the run steps back from its own first fix a little at a time, but the chain of a newest-first file runs
    /// on the fixes that were not left out (a reviewer's: the run's later fixes passed as continuing the file, and
    /// the smoother counted them as a recording of their own, +3 %).
    @Test func aWeekRolloverInsideAFileWrittenNewestFirstStaysLeftOut() throws {
        // 400 fixes 30 s apart, 42 m north each (16,758 m), fixes 180–199 dated 1024 weeks early; newest first.
        let clean = (0..<400).map { i in (seconds: 30 * i, north: 42 * i) }
        var rolled = clean
        for i in 180..<200 { rolled[i].seconds -= SecondReadingTests.weeks1024 }
        let cleanPath = try Tool.temporaryFile(
            "clean-newest-first.csv", contents: SecondReadingTests.csv(clean.reversed()))
        let rolledPath = try Tool.temporaryFile(
            "rolled-newest-first.csv", contents: SecondReadingTests.csv(rolled.reversed()))
        defer {
            try? FileManager.default.removeItem(atPath: cleanPath)
            try? FileManager.default.removeItem(atPath: rolledPath)
        }
        let expected = try #require(
            try SecondReadingTests.summary(cleanPath, ["--smooth"])["distanceMetres"] as? Double)
        let summary = try SecondReadingTests.summary(rolledPath, ["--smooth"])
        let measured = try #require(summary["distanceMetres"] as? Double)
        #expect(abs(measured - expected) < 0.005 * expected, "\(measured) m, \(expected) m without the rollover")
        let warnings = summary["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("and 15 more clock jumps") }, "\(warnings)")
    }
}
