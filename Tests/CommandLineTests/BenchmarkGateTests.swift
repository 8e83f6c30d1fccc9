import Foundation
import Testing

/// The gates of `truetrack-benchmarks` that CI relies on: each must fail when it should, not pass on less work or
/// on nothing (a CI tester's findings, 2026-12-04). The executable is the debug build next to `truetrack`
/// (`swift build --build-tests` builds every product).
@Suite struct BenchmarkGateTests {
    static let binary = Tool.binary.deletingLastPathComponent().appendingPathComponent("truetrack-benchmarks")

    /// Runs the benchmarks executable with `arguments`.
    static func run(_ arguments: [String]) throws -> Tool.Result {
        try Tool.run(arguments, executable: binary)
    }

    /// The checked-in baseline with `change` applied, written to a temporary file (the caller removes it).
    static func baseline(_ change: (inout [String: Any]) -> Void) throws -> String {
        let data = try Data(contentsOf: Tool.repository.appendingPathComponent("Benchmarks/baseline.json"))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&json)
        let path = Tool.temporaryPath("baseline.json")
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theExecutableIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "no \(Self.binary.path)")
    }

    /// The last `--baseline` won before: a strict baseline followed by the checked-in one passed.
    @Test func anOptionGivenTwiceIsAUsageError() throws {
        let result = try Self.run(["--quick", "--baseline", "a.json", "--baseline", "b.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--baseline given twice"), "\(result.stderr)")
    }

    /// `null` read as absent switched the zero-allocation check off.
    @Test func aNullFigureIsRefused() throws {
        let path = try Self.baseline { json in
            var quick = json["quick"] as? [String: Any] ?? [:]
            var entry = quick["read-csv"] as? [String: Any] ?? [:]
            entry["allocationsPerFix"] = NSNull()
            quick["read-csv"] = entry
            json["quick"] = quick
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["--quick", "--only", "read-csv", "--baseline", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("quick.read-csv.allocationsPerFix: null"), "\(result.stderr)")
    }

    /// A key given twice read as its first here and as its last in Python or jq (a CI tester's two `read-csv`
    /// entries): refused before anything runs, naming the file, the key, its object and its line.
    @Test func aKeyGivenTwiceIsRefused() throws {
        let text = try String(
            contentsOf: Tool.repository.appendingPathComponent("Benchmarks/baseline.json"), encoding: .utf8)
        let repeated = text.replacingOccurrences(
            of: "\"quick\" : {\n",
            with:
                "\"quick\" : {\n    \"read-csv\" : {\"ratio\": 99, \"tolerance\": 1, \"fixesPerSecondWhenRecorded\": 1},\n"
        )
        #expect(repeated != text)
        let path = Tool.temporaryPath("baseline.json")
        try repeated.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["--quick", "--only", "read-csv", "--baseline", path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "cannot read baseline \(path): key 'read-csv' given twice in 'quick' (again at line"),
            "\(result.stderr)")
    }

    /// A per-platform array's errors name the element at fault: a platform given twice was named one place past
    /// its entry (`tracker[2]` for the second of two), and an empty array at an element it does not have (`[0]`).
    @Test func aPlatformArraysErrorsNameTheirPlace() throws {
        let twice = try Self.baseline { json in
            var counts = json["instructionsQuick"] as? [String: Any] ?? [:]
            let entry = counts["tracker"] as? [String: Any] ?? [:]
            counts["tracker"] = [entry, entry]
            json["instructionsQuick"] = counts
        }
        defer { try? FileManager.default.removeItem(atPath: twice) }
        let empty = try Self.baseline { json in
            var counts = json["instructionsQuick"] as? [String: Any] ?? [:]
            counts["tracker"] = [Any]()
            json["instructionsQuick"] = counts
        }
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let first = try Self.run(["--quick", "--instructions", "--only", "tracker", "--baseline", twice])
        #expect(first.status == 1)
        #expect(first.stderr.contains("instructionsQuick.tracker[1]: two counts for platform"), "\(first.stderr)")
        let second = try Self.run(["--quick", "--instructions", "--only", "tracker", "--baseline", empty])
        #expect(second.status == 1)
        #expect(second.stderr.contains("instructionsQuick.tracker: an empty array"), "\(second.stderr)")
    }

    /// The `PATH` that finds the stand-in `valgrind` of ``fakeValgrind()`` in `folder` first.
    static func pathFinding(_ folder: String) -> String {
        folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// A folder holding a stand-in `valgrind` that runs the counted child directly and reports 1000 instructions
    /// per fix it read, so that `--instructions` is tested in seconds (the caller removes it).
    static func fakeValgrind() throws -> String {
        let folder = Tool.temporaryPath("fake-valgrind")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            # valgrind --tool=callgrind --callgrind-out-file=… --toggle-collect=… BINARY --child NAME INPUT
            shift 3
            out=$("$@") || exit $?
            echo "$out"
            echo "==1== Collected : $(( ${out%% *} * 1000 ))" >&2

            """
        try script.write(toFile: folder + "/valgrind", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/valgrind")
        return folder
    }

    /// The checked-in baseline with its quick instruction entries for `read-csv` and `read-gpx` edited.
    static func instructionBaseline(csv: [String: Any], gpx: [String: Any]) throws -> String {
        try baseline { json in
            var counts = json["instructionsQuick"] as? [String: Any] ?? [:]
            for (name, change) in [("read-csv", csv), ("read-gpx", gpx)] {
                var entry = counts[name] as? [String: Any] ?? [:]
                entry.merge(change) { _, new in new }
                counts[name] = entry
            }
            json["instructionsQuick"] = counts
        }
    }

    /// One case's count recorded on another platform passed under CI as "not checked" (only a run that checked
    /// nothing at all failed), though the README says "a failure under CI": each such case fails there.
    @Test func underCIEveryCaseCountedOnAnotherPlatformFails() throws {
        let valgrind = try Self.fakeValgrind()
        defer { try? FileManager.default.removeItem(atPath: valgrind) }
        let path = try Self.instructionBaseline(
            csv: ["instructionsPerFix": 1000.0], gpx: ["platform": "aarch64 musl 1.2 swift 9.9"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = ["--quick", "--instructions", "--only", "read-csv,read-gpx", "--baseline", path]
        let path_ = Self.pathFinding(valgrind)
        let ci = try Tool.run(arguments, environment: ["PATH": path_, "CI": "true"], executable: Self.binary)
        #expect(ci.status == 1, "\(ci.stdout)\(ci.stderr)")
        #expect(ci.stdout.contains("read-csv: 1000.0 instructions/fix, baseline 1000.0"), "\(ci.stdout)")
        #expect(
            ci.stdout.contains("FAILED: read-gpx not checked: \(path) holds its instruction count for aarch64 musl"),
            "\(ci.stdout)")
        #expect(!ci.stdout.contains("FAILED: read-csv"))
        let local = try Tool.run(arguments, environment: ["PATH": path_, "CI": nil], executable: Self.binary)
        #expect(local.status == 0, "\(local.stdout)\(local.stderr)")
        #expect(local.stdout.contains("read-gpx: not checked: its count was recorded on aarch64 musl 1.2 swift 9.9"))
    }

    /// `--update-baseline --only X` on another platform replaced X's entry, losing the other platform's count: it
    /// now adds this platform's (an array, one entry per platform), keeping the tolerance, and the other's stays.
    @Test func anInstructionUpdateKeepsTheOtherPlatformsCount() throws {
        let valgrind = try Self.fakeValgrind()
        defer { try? FileManager.default.removeItem(atPath: valgrind) }
        let path = try Self.instructionBaseline(
            csv: ["platform": "aarch64 musl 1.2 swift 9.9", "instructionsPerFix": 2000.0, "tolerance": 0.05], gpx: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = ["PATH": Self.pathFinding(valgrind)]
        let update = try Tool.run(
            ["--quick", "--instructions", "--only", "read-csv", "--baseline", path, "--update-baseline"],
            environment: environment, executable: Self.binary)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let counts = try #require(json["instructionsQuick"] as? [String: Any])
        let csv = try #require(counts["read-csv"] as? [[String: Any]], "\(String(describing: counts["read-csv"]))")
        #expect(csv.count == 2)
        let other = try #require(csv.first { $0["platform"] as? String == "aarch64 musl 1.2 swift 9.9" })
        #expect(other["instructionsPerFix"] as? Double == 2000)
        let this = try #require(csv.first { $0["platform"] as? String != "aarch64 musl 1.2 swift 9.9" })
        #expect(this["instructionsPerFix"] as? Double == 1000 && this["tolerance"] as? Double == 0.05)
        #expect(counts["read-gpx"] is [String: Any])
        // The file reads back, and this platform's count is the one checked.
        var ci = environment
        ci["CI"] = "true"
        let check = try Tool.run(
            ["--quick", "--instructions", "--only", "read-csv", "--baseline", path], environment: ci,
            executable: Self.binary)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("read-csv: 1000.0 instructions/fix, baseline 1000.0"), "\(check.stdout)")
    }

    /// A timing `--update-baseline` replaced the file's own note with the default one (an instruction update and
    /// `truetrack bench` kept theirs): it is kept.
    @Test func aTimingUpdateKeepsTheFilesNote() throws {
        let path = try Self.baseline { $0["note"] = "MY NOTE: CI gate of team X" }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let update = try Self.run([
            "--quick", "--only", "read-csv", "--runs", "1", "--baseline", path, "--update-baseline",
        ])
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(json["note"] as? String == "MY NOTE: CI gate of team X")
    }

    /// `--update-baseline` kept an entry naming no case (a renamed one) without a word, and the next comparison
    /// failed on it: an update of every case drops it and says so; one limited with `--only` keeps it, silently.
    /// (Counted with the stand-in valgrind: the quick cases once each, not three timed runs and reference loops.)
    @Test func aCompleteUpdateDropsAnEntryNamingNoCase() throws {
        let valgrind = try Self.fakeValgrind()
        defer { try? FileManager.default.removeItem(atPath: valgrind) }
        let path = try Self.baseline { json in
            for key in ["quick", "instructionsQuick"] {
                var entries = json[key] as? [String: Any] ?? [:]
                entries["read-cvs"] = entries["read-csv"]
                json[key] = entries
            }
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        func entries(_ key: String) throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(json[key] as? [String: Any])
        }
        let environment = ["PATH": Self.pathFinding(valgrind)]
        let only = try Self.run([
            "--quick", "--only", "read-csv", "--runs", "1", "--baseline", path, "--update-baseline",
        ])
        #expect(only.status == 0, "\(only.stdout)\(only.stderr)")
        #expect(!only.stdout.contains("dropped"), "\(only.stdout)")
        #expect(try entries("quick")["read-cvs"] != nil)
        let all = try Tool.run(
            ["--quick", "--instructions", "--baseline", path, "--update-baseline"], environment: environment,
            executable: Self.binary)
        #expect(all.status == 0, "\(all.stdout)\(all.stderr)")
        #expect(
            all.stdout.contains(
                "dropped the instruction count (instructionsQuick) for read-cvs: no benchmark case has that name"),
            "\(all.stdout)")
        #expect(try entries("instructionsQuick")["read-cvs"] == nil)
        #expect(try entries("instructionsQuick")["read-csv"] != nil)
        // (Timing entries are another mode's section: an instruction update leaves them.)
        #expect(try entries("quick")["read-cvs"] != nil)
    }

    /// A negative figure is refused when the file is read, naming its place (an instruction count's was not checked).
    @Test func aNegativeFigureIsRefusedWhenTheFileIsRead() throws {
        let path = try Self.instructionBaseline(csv: ["tolerance": -0.5], gpx: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.run(["--quick", "--only", "read-csv", "--baseline", path])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("instructionsQuick.read-csv.tolerance: -0.5 is not a number ≥ 0"), "\(result.stderr)"
        )
    }

    /// `--runs` did nothing with `--instructions` (each case is counted once), silently: a usage error.
    @Test func runsWithInstructionsIsAUsageError() throws {
        let result = try Self.run(["--quick", "--instructions", "--runs", "3"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--runs does not apply to --instructions"), "\(result.stderr)")
    }

    /// A partial input left under the final name (a run killed while generating it) measured a tenth of the work
    /// and passed as IMPROVED; a run now checks the fixes it read.
    @Test func aTruncatedInputFailsNamingTheFile() throws {
        let workdir = Tool.temporaryPath("workdir")
        try FileManager.default.createDirectory(atPath: workdir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: workdir) }
        // (The generated input's name: the case's input, its fix count and the generators' version.)
        let partial = workdir + "/fixes-200000-g2.csv"
        let demo = try String(contentsOfFile: Tool.demo, encoding: .utf8)
        try demo.write(toFile: partial, atomically: true, encoding: .utf8)
        let result = try Self.run(["--quick", "--only", "read-csv", "--runs", "1", "--workdir", workdir])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("expected 200000"), "\(result.stderr)")
        #expect(result.stderr.contains(partial))
    }

    /// A case run without an entry, and an entry naming no case (a renamed case), fail: the gate was dropped unseen.
    @Test func aCaseWithoutAnEntryAndAnEntryWithoutACaseFail() throws {
        let path = try Self.baseline { json in
            var quick = json["quick"] as? [String: Any] ?? [:]
            quick["read-csv-renamed"] = quick.removeValue(forKey: "read-csv")
            json["quick"] = quick
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let workdir = Tool.temporaryPath("workdir")
        defer { try? FileManager.default.removeItem(atPath: workdir) }
        let result = try Self.run([
            "--quick", "--only", "read-csv", "--runs", "1", "--workdir", workdir, "--baseline", path,
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAILED: read-csv has no quick entry in \(path)"), "\(result.stdout)")
        #expect(result.stdout.contains("holds a quick entry for read-csv-renamed, which is no benchmark case"))
    }

    /// `--datasets ""` fell back to `TRUETRACK_DATASETS` silently: a script whose variable was empty measured
    /// another folder than it named.
    @Test(arguments: ["bench", "datasets"])
    func anEmptyDatasetsFolderIsAUsageError(command: String) throws {
        let result = try Tool.run([command, "--datasets", ""])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--datasets needs a folder"), "\(result.stderr)")
    }
}
