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
