import Foundation
import Testing

/// `truetrack bench` end to end: on a small manifest generated in a temporary folder, and on the real data sets.
@Suite struct BenchCommandLineTests {
    /// A drive (1 Hz, 15 m/s north, deterministic ±1.5 m noise) with exact truth, and a stationary log.
    static func makeDatasets() throws -> String {
        let root = Tool.temporaryPath("bench-datasets")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let start = 1_700_000_000.0
        func iso(_ seconds: Double) -> String {
            let f = ISO8601DateFormatter()
            return f.string(from: Date(timeIntervalSince1970: seconds))
        }
        var drive = "time,latitude,longitude,accuracy_m,speed_mps,course_deg\n"
        var truth = "time,latitude,longitude\n"
        var still = "time,latitude,longitude,accuracy_m,speed_mps\n"
        for i in 0..<300 {
            let t = start + Double(i)
            let lat = 45 + Double(i) * 15 / metresPerDegree
            let noise = 1.5 * sin(Double(i) * 1.7) / metresPerDegree
            drive += "\(iso(t)),\(lat + noise),7.0,3,15,0\n"
            truth += "\(iso(t)),\(lat),7.0\n"
            still += "\(iso(t)),\(46 + noise),8.0,4,0\n"
        }
        try drive.write(toFile: root + "/drive.csv", atomically: true, encoding: .utf8)
        try truth.write(toFile: root + "/truth.csv", atomically: true, encoding: .utf8)
        try still.write(toFile: root + "/still.csv", atomically: true, encoding: .utf8)
        let manifest: [String: Any] = [
            "recordings": [
                [
                    "id": "synthetic-drive", "path": "drive.csv", "format": "csv", "activity": "drive (synthetic)",
                    "ground_truth": "truth.csv", "ground_truth_format": "gsdc-ground-truth-csv (UTC)",
                    "reference_distance_m": 299 * 15.0,
                ],
                [
                    "id": "synthetic-still", "path": "still.csv", "format": "csv", "activity": "stationary",
                    "reference_distance_m": 0.0,
                ],
            ]
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: root + "/MANIFEST.json"))
        return root
    }

    @Test func measuresComparesWithItsBaselineAndFailsOnADegradedProfile() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let baseline = root + "/baseline.json", json = root + "/bench.json", markdown = root + "/bench.md"

        let create = try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--update-baseline"])
        #expect(create.status == 0, "\(create.stderr)")
        #expect(create.stdout.contains("baseline written to \(baseline) (2 recordings)"))
        #expect(create.stdout.contains("synthetic-drive"))

        let check = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--json", json,
            "--markdown", markdown,
        ])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("no regression against \(baseline)"))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
                as? [String: Any])
        let recordings = try #require(report["recordings"] as? [[String: Any]])
        #expect(recordings.map { $0["id"] as? String } == ["synthetic-drive", "synthetic-still"])
        let drive = recordings[0]
        #expect(drive["profile"] as? String == "driving")
        let trueTrack = try #require(drive["trueTrack"] as? [String: Any])
        #expect(abs(trueTrack["errorPercent"] as? Double ?? 99) < 2)
        let position = try #require(drive["position"] as? [String: Any])
        #expect(position["count"] as? Int == 300)
        #expect((position["p95Metres"] as? Double ?? 99) < 2)
        let still = try #require((recordings[1]["phantomMetresPer10Minutes"] as? [String: Any]))
        #expect((still["naive"] as? Double ?? 0) > 100)  // ±1.5 m jitter every second
        #expect((still["trueTrack"] as? Double ?? 99) < 1)
        let categories = try #require(report["categories"] as? [[String: Any]])
        #expect(categories.map { $0["category"] as? String } == ["drive", "stationary"])
        let md = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(md.hasPrefix("# TrueTrack accuracy on the recorded data sets"))
        #expect(md.contains("| synthetic-drive |"))
        #expect(md.contains("**Passed**: no regression against `\(baseline)`"))

        // The walking profile on a 15 m/s drive: its speed gate rejects the car; the baseline check bites, in the
        // Markdown report too (a CI job summary built from it looked green).
        let degraded = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--profile", "walking", "--markdown", markdown,
        ])
        #expect(degraded.status == 1)
        #expect(degraded.stdout.contains("REGRESSION synthetic-drive absDistanceErrorPercent"))
        let failedReport = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(failedReport.contains("**FAILED** against `\(baseline)`"))
        #expect(failedReport.contains("- REGRESSION synthetic-drive absDistanceErrorPercent"))
        #expect(degraded.stdout.contains("are not comparable"))
        // A --profile naming the drive's own profile runs it as the baseline did: comparable (a CI tester's bike
        // with --profile cycling failed against a baseline recorded without it).
        let own = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--profile", "driving", "--only", "synthetic-drive",
        ])
        #expect(own.status == 0 && !own.stdout.contains("not comparable"), "\(own.stdout)")

        let jsonToStdout = try Tool.run(["bench", "--datasets", root, "--only", "synthetic-still", "--json", "-"])
        #expect(jsonToStdout.status == 0)
        let onlyOne = try #require(
            try JSONSerialization.jsonObject(with: Data(jsonToStdout.stdout.utf8)) as? [String: Any])
        #expect((onlyOne["recordings"] as? [Any])?.count == 1)
        #expect(jsonToStdout.stderr.contains("synthetic-still"))
        // The layout's version and the toolkit's, which a CI job checks before it reads the figures.
        let version = try Tool.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(onlyOne["schemaVersion"] as? Int == 2)
        #expect(onlyOne["truetrackVersion"] as? String == version && !version.isEmpty)
    }

    /// `--json` carries the baseline comparison (path, passed, regressions and improvements with their
    /// recording, figure, value, baseline and allowance); `--update-baseline` shows the comparison with the
    /// file it replaces before writing, naming the regressions it records.
    @Test func theJSONCarriesTheComparisonAndAnUpdateShowsWhatItRecords() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let baseline = root + "/baseline.json", json = root + "/bench.json"
        let first = try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--update-baseline"])
        #expect(first.stdout.contains("baseline written to \(baseline) (2 recordings), a new one"))

        func comparison() throws -> [String: Any] {
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
            return try #require(report["baseline"] as? [String: Any])
        }
        let passing = try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--json", json])
        #expect(passing.status == 0)
        var c = try comparison()
        #expect(c["path"] as? String == baseline)
        #expect(c["passed"] as? Bool == true)
        #expect((c["regressions"] as? [Any])?.isEmpty == true)

        let failing = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--json", json, "--profile", "walking",
        ])
        #expect(failing.status == 1)
        c = try comparison()
        #expect(c["passed"] as? Bool == false)
        let regression = try #require((c["regressions"] as? [[String: Any]])?.first)
        #expect(regression["recording"] as? String == "synthetic-drive")
        #expect(regression["figure"] as? String == "absDistanceErrorPercent")
        #expect(regression["value"] is Double && regression["baseline"] is Double && regression["allowance"] is Double)

        let update = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--json", json, "--profile", "walking",
            "--update-baseline",
        ])
        #expect(update.status == 0, "\(update.stderr)")
        let lines = update.stdout.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex(of: "compared with the baseline about to be replaced:"))
        let regressionLine = try #require(lines.firstIndex { $0.hasPrefix("REGRESSION synthetic-drive") })
        let written = try #require(lines.firstIndex { $0.hasPrefix("baseline written to \(baseline)") })
        #expect(header < regressionLine && regressionLine < written)
        #expect(lines[written].contains("recording what the comparison found: "), "\(lines[written])")
        #expect(lines[written].contains("regression(s)"))
        c = try comparison()
        #expect(c["updated"] as? Bool == true && c["passed"] as? Bool == false)
    }

    /// A baseline that does not parse is refused both ways, before the run and without a report, and the hint says
    /// what `--update-baseline` does with it (it does not replace it: move it aside first), not the opposite.
    @Test func aBrokenBaselineHintMatchesWhatUpdateBaselineDoes() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let baseline = root + "/baseline.json"
        try #"{"recordings": 3"#.write(toFile: baseline, atomically: true, encoding: .utf8)
        // Read before anything is evaluated, and the run writes no report: a JSON without its `baseline` key read as
        // a run without --baseline (a CI tester's truncated file), and the error came after the whole report.
        let json = root + "/bench.json", markdown = root + "/bench.md"
        let check = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--json", json, "--markdown", markdown,
        ])
        #expect(!FileManager.default.fileExists(atPath: json) && !FileManager.default.fileExists(atPath: markdown))
        #expect(!check.stdout.contains("synthetic-drive"), "\(check.stdout)")
        #expect(check.status == 1)
        #expect(check.stderr.contains("cannot read baseline \(baseline)"))
        #expect(!check.stderr.contains("would replace it"))
        #expect(check.stderr.contains("--update-baseline does not replace a file it cannot read"))
        #expect(check.stderr.contains("move it aside"))
        let update = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--update-baseline", "--json", json,
        ])
        #expect(!FileManager.default.fileExists(atPath: json))
        #expect(update.status == 1)
        #expect(update.stderr.contains("cannot update baseline \(baseline)"))
        #expect(update.stderr.contains("move it aside"))
        #expect(try String(contentsOfFile: baseline, encoding: .utf8) == #"{"recordings": 3"#)
    }

    /// A key given twice read as its first here and as its last in Python or jq (a CI tester's repeated recording
    /// entry): an error naming the file, the key, its object and its line.
    @Test func aKeyGivenTwiceInTheBaselineIsAnError() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let baseline = root + "/baseline.json"
        #expect(try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--update-baseline"]).status == 0)
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        let repeated = text.replacingOccurrences(
            of: "\"recordings\" : {\n",
            with: "\"recordings\" : {\n\"synthetic-still\": {\"category\": \"stationary\", \"fixes\": 300},\n")
        #expect(repeated != text)
        try repeated.write(toFile: baseline, atomically: true, encoding: .utf8)
        let check = try Tool.run(["bench", "--datasets", root, "--baseline", baseline])
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "cannot read baseline \(baseline): key 'synthetic-still' given twice in 'recordings' (again at line"),
            "\(check.stderr)")
    }

    /// An `--export-csv` folder that cannot be made printed Foundation's error dump, after the whole run: the
    /// system's reason and the folder, before anything is evaluated.
    @Test func anExportFolderThatCannotBeMadeIsSaidInWords() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/drive.csv/fixes"
        let result = try Tool.run(["bench", "--datasets", root, "--export-csv", folder])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("cannot export fixes to \(folder): cannot create the folder: Not a directory"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stdout.contains("synthetic-drive"))
    }

    @Test func rejectsBadUsage() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for arguments in [
            ["bench", "--datasets", root, "--only", "nope"],
            ["bench", "--datasets", root, "--profile", "flying"],
            ["bench", "--datasets", root, "--update-baseline"],
        ] {
            let result = try Tool.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.stderr.isEmpty)
        }
        let missing = try Tool.run(["bench", "--datasets", root + "/nowhere"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("MANIFEST.json"))
        #expect(missing.stderr.contains("given with --datasets"))
    }

    /// The text shows the distance of a recording without a reference (the baseline watches it) and the damaged
    /// records the reader stepped over, with the first one's place; the Markdown report too.
    @Test func showsTheUnreferencedDistanceAndTheDamagedRecords() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var walk = "time,latitude,longitude,accuracy_m,speed_mps\n"
        for i in 0..<120 {
            walk += "2025-01-01T00:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z,"
            walk += i == 60 ? "49.x,11.0,5,1.3\n" : "49.\(String(format: "%06d", 100 + i * 12)),11.0,5,1.3\n"
        }
        try walk.write(toFile: root + "/walk.csv", atomically: true, encoding: .utf8)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/MANIFEST.json")))
                as? [String: Any])
        var recordings = try #require(manifest["recordings"] as? [[String: Any]])
        recordings.append(["id": "synthetic-walk", "path": "walk.csv", "format": "csv", "activity": "walk"])
        try JSONSerialization.data(withJSONObject: ["recordings": recordings])
            .write(to: URL(fileURLWithPath: root + "/MANIFEST.json"))

        let result = try Tool.run(["bench", "--datasets", root, "--markdown", root + "/bench.md"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let table = try #require(lines.firstIndex { $0.hasPrefix("Distance without a reference") })
        let row = try #require(lines[table...].first { $0.hasPrefix("  synthetic-walk") })
        #expect(row.split(separator: " ").prefix(3) == ["synthetic-walk", "walk", "walking"], "\(row)")
        let damaged = try #require(lines.firstIndex { $0.hasPrefix("Damaged records stepped over") })
        let first = try #require(lines[damaged...].first { $0.hasPrefix("  synthetic-walk") })
        #expect(first.split(separator: " ").prefix(3) == ["synthetic-walk", "1", "\(root)/walk.csv:62:22"], "\(first)")
        #expect(first.contains("field 'latitude'"), "\(first)")
        let markdown = try String(contentsOfFile: root + "/bench.md", encoding: .utf8)
        #expect(markdown.contains("### Distance without a reference"))
        #expect(markdown.contains("| synthetic-walk | 1 | \(root)/walk.csv:62:"))
    }

    /// A truth file cut short is named with its first damaged record (file:line:column, field) on standard
    /// error, recorded in the JSON, and the text says which figures it left unmeasured; a truth of a kind the
    /// bench does not read (a coordinate in a README) is said once in the text, not warned about.
    @Test func aDamagedTruthIsReportedAndAnUnusedOneSaidOnce() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cut = "time,latitude,longitude\n2023-11-14T22:13:22Z,45.00"
        try cut.write(toFile: root + "/truth.csv", atomically: true, encoding: .utf8)
        try "Reference coordinates: (46.0, 8.0)\n".write(toFile: root + "/README.md", atomically: true, encoding: .utf8)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/MANIFEST.json")))
                as? [String: Any])
        var recordings = try #require(manifest["recordings"] as? [[String: Any]])
        for id in ["still-a", "still-b"] {
            var still = recordings[1]
            still["id"] = id
            still["ground_truth"] = "README.md"
            still["ground_truth_format"] = "surveyed coordinate in the README"
            recordings.append(still)
        }
        try JSONSerialization.data(withJSONObject: ["recordings": recordings])
            .write(to: URL(fileURLWithPath: root + "/MANIFEST.json"))

        let result = try Tool.run(["bench", "--datasets", root, "--json", root + "/bench.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(result.stderr)")
        let warning = try #require(warnings.first)
        #expect(warning.hasPrefix("warning: synthetic-drive: ground truth truth.csv damaged"))
        #expect(warning.contains("\(root)/truth.csv:2:27 (byte "))
        #expect(warning.contains("field 'latitude'") || warning.contains("field 'longitude'"))
        #expect(warning.contains("not measured because of it: positionP50Metres, positionP95Metres"))
        #expect(result.stdout.contains("synthetic-drive  trajectory (damaged)  0"))
        #expect(result.stdout.contains("still-a, still-b: no truth used: README.md"))
        #expect(result.stdout.components(separatedBy: "no truth used").count == 2)

        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/bench.json")))
                as? [String: Any])
        let drive = try #require((report["recordings"] as? [[String: Any]])?.first)
        let reading = try #require(drive["truth"] as? [String: Any])
        #expect(reading["status"] as? String == "damaged")
        #expect(reading["damagedRecords"] as? Int == 1)
        #expect((reading["error"] as? String)?.contains("truth.csv:2:27") == true)
        #expect(reading["notMeasured"] as? [String] == ["positionP50Metres", "positionP95Metres"])
    }

    /// The help names the profile each activity gets, as the run applies it (it once said "anything else:
    /// walking" while run, car, bus and taxi got running and driving), and says that `--json` takes a file.
    @Test func helpStatesTheProfileEachActivityGets() throws {
        let root = Tool.temporaryPath("bench-activities")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var csv = "time,latitude,longitude,accuracy_m,speed_mps\n"
        for i in 0..<30 { csv += "2025-01-01T00:00:\(String(format: "%02d", i))Z,49.\(100_000 + i * 12),11.0,5,1.3\n" }
        try csv.write(toFile: root + "/a.csv", atomically: true, encoding: .utf8)
        let activities = [
            "run": "running", "car (taxi)": "driving", "bus": "driving", "taxi": "driving",
            "bicycle": "cycling", "hike": "walking", "stationary": "walking",
        ]
        let recordings = activities.keys.sorted().map { activity in
            ["id": activity, "path": "a.csv", "format": "csv", "activity": activity]
        }
        try JSONSerialization.data(withJSONObject: ["recordings": recordings])
            .write(to: URL(fileURLWithPath: root + "/MANIFEST.json"))
        let run = try Tool.run(["bench", "--datasets", root, "--json", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let help = try Tool.run(["bench", "--help"]).stdout
        for result in try #require(report["recordings"] as? [[String: Any]]) {
            let activity = try #require(result["id"] as? String)
            let profile = try #require(result["profile"] as? String)
            #expect(profile == activities[activity], "\(activity)")
            let word = String(activity.prefix { $0.isLetter })
            let rule = help.split(separator: "\n").first {
                $0.hasSuffix("profile \(profile)") && $0.split(separator: " ").contains { $0.hasPrefix(word) }
            }
            #expect(rule != nil || profile == "walking" && help.contains("anything else"), "\(activity): \(help)")
        }
        #expect(help.contains("run, running → category run, profile running"))
        let json = try #require(help.split(separator: "\n").first { $0.contains("--json <file>") })
        #expect(json.contains("takes a file"))
        #expect(try Tool.run(["datasets", "--help"]).stdout.contains("bench --json takes a FILE"))
    }

    /// A folder that does not hold the data sets is reported with where its path came from: a stale
    /// `TRUETRACK_DATASETS` in a CI job is named, not mistaken for a bad flag.
    @Test func aMissingDataSetFolderIsReportedWithWhereItsPathCameFrom() throws {
        for command in ["bench", "datasets"] {
            let result = try Tool.run([command], environment: ["TRUETRACK_DATASETS": "/nonexistent-tt-datasets"])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("/nonexistent-tt-datasets/MANIFEST.json"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("from the environment variable TRUETRACK_DATASETS"), "\(command)")
        }
        // (A folder of its own inside a fresh one, so that its `../shared` is absent whatever the temporary
        // directory holds: a `/tmp/shared` link made by hand had made the default resolve.)
        let parent = Tool.temporaryPath("no-default")
        let folder = parent + "/cwd"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let process = Process()
        process.executableURL = Tool.binary
        process.arguments = ["bench"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["TRUETRACK_DATASETS"] = nil
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr.contains("../shared/datasets/MANIFEST.json"), "\(stderr)")
        #expect(stderr.contains("neither --datasets nor TRUETRACK_DATASETS was given"), "\(stderr)")
    }

    /// A manifest that lists no recording checks nothing: both commands fail and name the manifest.
    @Test func aManifestWithoutRecordingsFailsNamingTheManifest() throws {
        let root = Tool.temporaryPath("no-recordings")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try #"{"recordings": []}"#.write(toFile: root + "/MANIFEST.json", atomically: true, encoding: .utf8)
        for arguments in [["bench"], ["datasets"], ["datasets", "--json"]] {
            let result = try Tool.run(arguments + ["--datasets", root])
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.contains("\(root)/MANIFEST.json"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("recordings: the list is empty"), "\(arguments)")
        }
    }

    /// Rewrites the generated manifest's recordings with `change`.
    static func editManifest(_ root: String, _ change: (inout [[String: Any]]) -> Void) throws {
        let url = URL(fileURLWithPath: root + "/MANIFEST.json")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var recordings = try #require(manifest["recordings"] as? [[String: Any]])
        change(&recordings)
        try JSONSerialization.data(withJSONObject: ["recordings": recordings]).write(to: url)
    }

    /// The CI tester's v/tol-driving: a drive written "driving" was a category of its own, judged by the default
    /// 1 pp instead of the drive's 0.05 pp, and passed a +0.30 pp error (exit 0; "drive": exit 1).
    @Test("a drive written 'driving' is recorded as a drive and judged by the drive tolerance")
    func aDrivingSynonymGetsTheDriveTolerance() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.editManifest(root) { recordings in
            recordings = [recordings[0]]
            recordings[0]["activity"] = "driving"
            recordings[0]["ground_truth"] = nil
            recordings[0]["ground_truth_format"] = nil
        }
        let baseline = root + "/baseline.json"
        let create = try Tool.run([
            "bench", "--datasets", root, "--baseline", baseline, "--update-baseline", "--json", root + "/b.json",
        ])
        #expect(create.status == 0, "\(create.stderr)")
        #expect(try String(contentsOfFile: baseline, encoding: .utf8).contains("\"category\" : \"drive\""))
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/b.json")))
                as? [String: Any])
        let drive = try #require((report["recordings"] as? [[String: Any]])?.first)
        #expect(drive["category"] as? String == "drive")
        let signed = try #require((drive["trueTrack"] as? [String: Any])?["errorPercent"] as? Double)
        // 0.3 pp more error than recorded: within the default 1 pp, beyond the drive's 0.05 pp.
        try Self.editManifest(root) { $0[0]["reference_distance_m"] = 299 * 15.0 * (signed >= 0 ? 1 / 1.003 : 1.003) }
        let check = try Tool.run(["bench", "--datasets", root, "--baseline", baseline])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("REGRESSION synthetic-drive absDistanceErrorPercent"))
        #expect(check.stdout.contains("(allowed +0.050)"))
    }

    /// The CI tester's m/ref700, m/typo and m/truthnoformat: a stated reference replaced by the truth's length,
    /// a misspelt key and a truth without its format were all silent.
    @Test("bench says when the truth's length replaces a differing reference, an unknown key, a truth without format")
    func manifestSurprisesAreSaid() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.editManifest(root) { recordings in
            recordings[0]["reference_distance_m"] = 5000.0
            recordings[1]["reference_distance"] = 0.0
            recordings[1]["ground_truth"] = "truth.csv"
        }
        let result = try Tool.run(["bench", "--datasets", root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: \(root)/MANIFEST.json: recordings[1] (id 'synthetic-still'): unknown key "
                    + "'reference_distance' ignored (did you mean 'reference_distance_m'?)"), "\(result.stderr)")
        #expect(
            result.stdout.contains("note: synthetic-drive: the manifest's reference_distance_m, 5000.0 m, differs"),
            "\(result.stdout)")
        #expect(result.stdout.contains("scored against the truth's 44"))
        #expect(
            result.stdout.contains("synthetic-still: no truth used: truth.csv: the entry gives no ground_truth_format"))
    }

    /// A CI tester's truth two hours late (another time zone) passed with its position figures silently missing,
    /// and `--update-baseline` recorded a baseline that gated none: now warned of with both spans, and not
    /// recorded.
    @Test("a truth that holds no time of the fixes is warned of, and not recorded into a baseline")
    func aTruthOnAnotherClockIsWarnedOfAndNotRecorded() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let truth = try String(contentsOfFile: root + "/truth.csv", encoding: .utf8)
        // 2023-11-14T22:13:20Z … read two hours later.
        let late = truth.replacingOccurrences(of: "2023-11-14T22:", with: "2023-11-15T00:")
            .replacingOccurrences(of: "2023-11-14T23:", with: "2023-11-15T01:")
        #expect(late != truth)
        try late.write(toFile: root + "/truth.csv", atomically: true, encoding: .utf8)
        let run = try Tool.run(["bench", "--datasets", root, "--only", "synthetic-drive", "--json", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("warning: synthetic-drive: ground truth truth.csv (300 samples, 2023-11-15T00:13:20Z"))
        #expect(run.stderr.contains("holds no time of the fixes (2023-11-14T22:13:20Z"), "\(run.stderr)")
        #expect(run.stderr.contains("not measured because of it: positionP50Metres, positionP95Metres"))
        #expect(run.stdout.contains("\"status\" : \"disjoint\""))
        let baseline = root + "/baseline.json"
        let update = try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--update-baseline"])
        #expect(update.status == 1, "\(update.stderr)")
        #expect(update.stderr.contains("the ground truth of synthetic-drive (positionP50Metres, positionP95Metres)"))
        #expect(!FileManager.default.fileExists(atPath: baseline))
    }

    /// A CI tester's manifests: an empty id or activity, a negative reference (the distance then gated by
    /// nothing), an unknown format (sniffed without a word); their baseline with a tolerance block "driv" (the
    /// drive judged by the default tolerances), a report written over the baseline; an "e-bike" at 6 m/s read
    /// 0 m under walking without a word; a truncated data file passed with its loss on standard output only.
    @Test("a manifest's and a baseline's mistakes are errors or warnings at their place")
    func manifestAndBaselineMistakesAreSaid() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let original = try Data(contentsOf: URL(fileURLWithPath: root + "/MANIFEST.json"))
        func restore() throws { try original.write(to: URL(fileURLWithPath: root + "/MANIFEST.json")) }
        for (key, value, message) in [
            ("id", " " as Any, "recordings[0].id: empty"),
            ("activity", "", "recordings[0] (id 'synthetic-drive').activity: empty"),
            ("reference_distance_m", -5.0, "reference_distance_m: expected a distance of 0 metres or more"),
        ] {
            try Self.editManifest(root) { $0[0][key] = value }
            let run = try Tool.run(["bench", "--datasets", root])
            #expect(run.status == 1 && run.stderr.contains(message), "\(key): \(run.stderr)")
            try restore()
        }
        try Self.editManifest(root) { $0[1]["format"] = "fooformat" }
        let format = try Tool.run(["bench", "--datasets", root])
        #expect(format.status == 0 && format.stderr.contains(".format: 'fooformat' names no format"))
        try restore()

        let baseline = root + "/baseline.json"
        #expect(try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--update-baseline"]).status == 0)
        let clash = try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--json", baseline])
        #expect(clash.status == 2 && clash.stderr.contains("is the same file as --baseline"), "\(clash.stderr)")
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [String: Any])
        var tolerances = document["tolerances"] as? [String: Any] ?? [:]
        tolerances["driv"] = tolerances["drive"] ?? tolerances["default"]
        document["tolerances"] = tolerances
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: baseline))
        // A block naming no category is an error (it was a warning, and the drive passed on the default tolerance),
        // and --update-baseline does not carry it into the new file.
        let typo = try Tool.run(["bench", "--datasets", root, "--baseline", baseline])
        #expect(typo.status == 1)
        #expect(
            typo.stderr.contains(
                "cannot read baseline \(baseline): tolerances.driv: no category 'driv' (did you mean 'drive'?"),
            "\(typo.stderr)")
        let typoUpdate = try Tool.run(["bench", "--datasets", root, "--baseline", baseline, "--update-baseline"])
        #expect(typoUpdate.status == 1)
        #expect(
            typoUpdate.stderr.contains("cannot update baseline \(baseline): tolerances.driv"), "\(typoUpdate.stderr)")
        tolerances["driv"] = nil
        // A category the manifest does not have but the tool knows (walk) is a warning only.
        tolerances["walk"] = tolerances["default"]
        document["tolerances"] = tolerances
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: baseline))
        let unused = try Tool.run(["bench", "--datasets", root, "--baseline", baseline])
        #expect(unused.status == 0, "\(unused.stdout)\(unused.stderr)")
        #expect(
            unused.stderr.contains("tolerances for 'walk', a category no recording of the manifest has"),
            "\(unused.stderr)")
        tolerances["walk"] = nil
        // A synonym's block beside the category's own: the category's figures win, the synonym's are unused.
        tolerances["driving"] = tolerances["drive"] ?? tolerances["default"]
        if tolerances["drive"] == nil { tolerances["drive"] = tolerances["default"] }
        document["tolerances"] = tolerances
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: baseline))
        let synonym = try Tool.run(["bench", "--datasets", root, "--baseline", baseline])
        #expect(
            synonym.stderr.contains("tolerances for 'driving' name the category 'drive', whose own block sets"),
            "\(synonym.stderr)")

        try Self.editManifest(root) { $0[0]["activity"] = "e-bike" }
        let vehicle = try Tool.run(["bench", "--datasets", root, "--only", "synthetic-drive"])
        #expect(vehicle.stderr.contains("warning: synthetic-drive: "), "\(vehicle.stderr)")
        #expect(vehicle.stderr.contains("(activity \"e-bike\", category e, profile walking)"), "\(vehicle.stderr)")
        try restore()
        #expect(!(try Tool.run(["bench", "--datasets", root]).stderr.contains("moved like a vehicle")))
        // However short: 11 fixes of the drive (the warning took 20; a tester's 11-fix drive read −92.3 % unsaid).
        let whole = try String(contentsOfFile: root + "/drive.csv", encoding: .utf8)
        let short = whole.split(separator: "\n").prefix(12).joined(separator: "\n") + "\n"
        try short.write(toFile: root + "/drive.csv", atomically: true, encoding: .utf8)
        try Self.editManifest(root) { $0[0]["activity"] = "e-bike" }
        let shortVehicle = try Tool.run(["bench", "--datasets", root, "--only", "synthetic-drive"])
        #expect(
            shortVehicle.stderr.contains("10 of 11 fixes were rejected as faster than the walking profile"),
            "\(shortVehicle.stderr)")
        try restore()
        try whole.write(toFile: root + "/drive.csv", atomically: true, encoding: .utf8)

        let drive = try String(contentsOfFile: root + "/drive.csv", encoding: .utf8)
        try String(drive.prefix(drive.count / 2)).write(toFile: root + "/drive.csv", atomically: true, encoding: .utf8)
        try Self.editManifest(root) { $0[0]["fixes"] = 300 }
        let cut = try Tool.run(["bench", "--datasets", root, "--only", "synthetic-drive"])
        #expect(cut.stderr.contains("of the 300 the manifest lists, 1 damaged record stepped over"), "\(cut.stderr)")
    }

    /// Benchmarks/README.md documents what a CI job comparing reports needs (a CI tester found none of it):
    /// `elapsedSeconds` is the one key that differs between identical runs, and `CI=true` changes nothing.
    @Test("two identical runs differ only in elapsedSeconds, as the README says, and CI=true changes nothing")
    func identicalRunsDifferOnlyInElapsedSeconds() throws {
        let root = try Self.makeDatasets()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var reports: [NSDictionary] = []
        for (index, ci) in ["false", "true"].enumerated() {
            let result = try Tool.run(
                ["bench", "--datasets", root, "--json", root + "/\(index).json"], environment: ["CI": ci])
            #expect(result.status == 0, "\(result.stderr)")
            var report = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/\(index).json")))
                    as? [String: Any])
            #expect(report["elapsedSeconds"] is Double)
            report["elapsedSeconds"] = nil
            reports.append(report as NSDictionary)
        }
        #expect(reports[0] == reports[1])
        let readme = try String(
            contentsOf: Tool.repository.appendingPathComponent("Benchmarks/README.md"), encoding: .utf8)
        #expect(readme.contains("except `elapsedSeconds`"))
        #expect(readme.contains("`CI=true` (or any `CI`) makes no difference to `truetrack bench`"))
        #expect(readme.contains("\"schemaVersion\": 1, \"truetrackVersion\""))
    }

    /// The shared manifest states the GnssAnalysis files' HDOP scale only in free text (`EA/10` in `notes`): the
    /// run keeps reading it so, and says so.
    @Test(
        "bench says when an accuracy scale was taken from the notes",
        .enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
    func anAccuracyScaleFromTheNotesIsSaid() throws {
        let result = try Tool.run(["bench", "--datasets", SharedDatasets.root!, "--only", "gsdc2020-mtv1-pixel4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "note: gsdc2020-mtv1-pixel4: NMEA HDOP read as accuracy / 10 m because its notes say \"EA/10\""))
    }

    /// `--markdown` and `--json` write through the path: a symbolic link keeps pointing at its file, which
    /// receives the report (an atomic write renamed a temporary file over the link, and over `/dev/full`).
    @Test(.enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
    func reportsAreWrittenThroughTheirPath() throws {
        let folder = Tool.temporaryPath("bench-links")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for option in ["--markdown", "--json"] {
            let target = folder + "/target" + option, link = folder + "/link" + option
            _ = FileManager.default.createFile(atPath: target, contents: nil)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let result = try Tool.run([
                "bench", "--datasets", SharedDatasets.root!, "--only", "gsdc2021-pixel4-sample", option, link,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
            #expect(try String(contentsOfFile: target, encoding: .utf8).contains("gsdc2021-pixel4-sample"))
        }
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try Tool.run([
                "bench", "--datasets", SharedDatasets.root!, "--only", "gsdc2021-pixel4-sample", "--json", "/dev/full",
            ])
            #expect(full.status == 1)
            #expect(full.stderr.contains("/dev/full: cannot write: No space left on device"))
        }
    }

    /// The whole shared data set against the checked-in baseline, within the issue's 2 minutes.
    @Test(.enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
    func holdsTheCheckedInBaselineOnTheRecordedDatasets() throws {
        let baseline = Tool.repository.appendingPathComponent("Benchmarks/accuracy-baseline.json").path
        let started = Date()
        let result = try Tool.run(["bench", "--datasets", SharedDatasets.root!, "--baseline", baseline])
        #expect(Date().timeIntervalSince(started) < 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("truetrack bench: 35 recordings"))
        #expect(result.stdout.contains("no regression against"))
        for id in ["gsdc2020-mtv1-pixel4", "ipin2023-t25r01", "gpsd-ublox-8", "geolife-010-20080402"] {
            #expect(result.stdout.contains(id), "\(id)")
        }
    }
}
