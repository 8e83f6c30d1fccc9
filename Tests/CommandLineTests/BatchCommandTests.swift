import Foundation
import Testing

/// Several inputs to `process` and `stops`: each reported as if given alone, one array with `--json`, a failing
/// input reported without stopping the others, and the options that write one input's output refused.
@Suite struct BatchCommandTests {
    /// A short GPX walk with a speed extension: 100 points 1 s apart going east.
    static func gpxWalkText() -> String {
        var points = ""
        for k in 0..<100 {
            let second = String(format: "%02d", k % 60), minute = String(format: "%02d", k / 60)
            points +=
                "<trkpt lat=\"48.1\" lon=\"\(11.5 + Double(k) * 1.4 / 74_300)\"><time>2024-05-01T10:\(minute):\(second)Z"
                + "</time><extensions><speed>1.4</speed></extensions></trkpt>\n"
        }
        return "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\"><trk><trkseg>\n" + points
            + "</trkseg></trk></gpx>\n"
    }

    /// The walk of `gpxWalkText()` written to a temporary file; returns its path (the caller removes it).
    static func gpxWalk() throws -> String {
        try Tool.temporaryFile("walk.gpx", contents: gpxWalkText())
    }

    /// The `--json` array `command` prints for `inputs`, after checking it succeeded with one entry each.
    static func entries(_ command: String, _ inputs: [String]) throws -> [[String: Any]] {
        let batch = try Tool.run([command, "--json"] + inputs)
        #expect(batch.status == 0, "\(batch.stderr)")
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == inputs.count)
        return entries
    }

    @Test func processPrintsOneSummaryPerInputLikeSeparateRuns() throws {
        let walk = try Self.gpxWalk()
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let entries = try Self.entries("process", [Tool.demo, walk])
        for (entry, input) in zip(entries, [Tool.demo, walk]) {
            let alone = try ProcessCommandTests.summary([input])
            #expect(entry["input"] as? String == input)
            #expect(entry["distanceMetres"] as? Double == alone["distanceMetres"] as? Double)
            #expect(entry["durationSeconds"] as? Double == alone["durationSeconds"] as? Double)
        }
        // The text form ends with the totals.
        let text = try Tool.run(["process", Tool.demo, walk])
        #expect(text.status == 0)
        #expect(text.stdout.contains("walk-with-noise.csv (walking profile)"))
        #expect(text.stdout.contains("walk.gpx (walking profile)"))
        let first = try #require(entries[0]["distanceMetres"] as? Double)
        let second = try #require(entries[1]["distanceMetres"] as? Double)
        #expect(text.stdout.contains("total of 2 inputs: distance \(String(format: "%.1f", first + second)) m"))
    }

    /// The text total leaves out what failed, and says so; an input given twice is said.
    @Test func theTotalSaysWhatFailedAndWhatIsRepeated() throws {
        let missing = Tool.temporaryPath("missing.csv")
        let result = try Tool.run(["process", Tool.demo, Tool.demo, missing])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(Tool.demo) is given more than once"), "\(result.stderr)")
        #expect(result.stdout.contains("total of 2 inputs:"), "\(result.stdout)")
        #expect(result.stdout.contains("(1 more failed: not in the total)"), "\(result.stdout)")
    }

    @Test func anInputThatFailsDoesNotStopTheOthers() throws {
        let missing = Tool.temporaryPath("missing.csv")
        let truncated = Tool.temporaryPath("truncated.gpx")
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        let walk = Self.gpxWalkText()
        try String(walk.prefix(walk.count / 2)).write(toFile: truncated, atomically: true, encoding: .utf8)
        for command in ["process", "stops"] {
            let result = try Tool.run([command, "--json", missing, truncated, Tool.demo])
            #expect(result.status == 1, "\(command)")
            let entries = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(entries.count == 3, "\(command)")
            // The missing file: its input and error only.
            #expect(entries[0]["input"] as? String == missing)
            #expect((entries[0]["error"] as? String)?.contains("cannot read") == true, "\(entries[0])")
            #expect(entries[0]["distanceMetres"] == nil && entries[0]["stops"] == nil)
            // The truncated file: what was read before the break, with the error.
            #expect(entries[1]["input"] as? String == truncated)
            #expect(entries[1]["error"] is String, "\(command): \(entries[1])")
            #expect(entries[1]["stops"] is [Any], "\(command)")
            // The demo, whole.
            #expect(entries[2]["input"] as? String == Tool.demo)
            #expect(entries[2]["error"] == nil || entries[2]["error"] is NSNull)
            // Each error went to standard error as well.
            #expect(result.stderr.contains(missing) && result.stderr.contains(truncated), "\(result.stderr)")
        }
    }

    /// One input that gives no report prints with `--json` the entry several inputs' array would hold for it: a
    /// batch tester's loop over single files found nothing to parse for a missing or unrecognised file.
    @Test("prints the error as JSON for one input that gives no report")
    func printsTheErrorAsJSONForOneInputThatGivesNoReport() throws {
        let missing = Tool.temporaryPath("missing-one.csv")
        for command in ["process", "stops"] {
            let result = try Tool.run([command, "--json", missing])
            #expect(result.status == 1, "\(command)")
            let entry = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(command)")
            #expect(entry["input"] as? String == missing)
            #expect((entry["error"] as? String)?.contains("cannot read") == true, "\(entry)")
            #expect(result.stderr.contains("cannot read"))
            // Without --json nothing is printed on standard output.
            #expect(try Tool.run([command, missing]).stdout.isEmpty)
        }
    }

    @Test func stopsPrintsOneReportPerInputLikeSeparateRuns() throws {
        let walk = try Self.gpxWalk()
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let entries = try Self.entries("stops", [Tool.demo, walk])
        for (entry, input) in zip(entries, [Tool.demo, walk]) {
            let alone = try Tool.run(["stops", "--json", input])
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any])
            #expect((entry["stops"] as? [Any])?.count == (report["stops"] as? [Any])?.count)
            #expect(entry["movingSeconds"] as? Double == report["movingSeconds"] as? Double)
        }
        let text = try Tool.run(["stops", Tool.demo, walk])
        #expect(text.stdout.contains("total of 2 inputs: elapsed"))
    }

    @Test func refusesOneInputsOutputsForSeveralInputs() throws {
        let walk = try Self.gpxWalk()
        let track = Tool.temporaryPath("t.csv"), decisions = Tool.temporaryPath("d.csv")
        let stops = Tool.temporaryPath("s.geojson")
        defer { for path in [walk, track, decisions, stops] { try? FileManager.default.removeItem(atPath: path) } }
        let cases: [[String]] = [
            ["process", Tool.demo, walk, "--out", track],
            ["process", Tool.demo, walk, "--decisions", decisions],
            ["stops", Tool.demo, walk, "--out", stops],
            ["process", "-", "-", "--format", "csv"],
        ]
        for arguments in cases {
            let result = try Tool.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
    }
}

/// Without `--profile`, a file that declares its activity is read with the profile it names.
@Suite struct DeclaredProfileTests {
    /// A 10-minute ride at `speed` m/s (7) with a speed extension, written to a temporary file; `type` is the
    /// track's declared activity. Returns its path (the caller removes it).
    static func ride(type: String?, speed: Double = 7) throws -> String {
        var points = ""
        for k in 0..<600 {
            let time = String(format: "2024-05-01T10:%02d:%02dZ", k / 60, k % 60)
            points +=
                "<trkpt lat=\"48.1\" lon=\"\(11.5 + Double(k) * speed / 74_300)\"><time>\(time)</time>"
                + "<extensions><speed>\(speed)</speed></extensions></trkpt>\n"
        }
        let path = Tool.temporaryPath("ride.gpx")
        try
            ("<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\"><trk><name>Ride</name>"
            + (type.map { "<type>\($0)</type>" } ?? "") + "<trkseg>\n" + points + "</trkseg></trk></gpx>\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aRideThatSaysCyclingIsReadAsOne() throws {
        let declared = try Self.ride(type: "cycling")
        defer { try? FileManager.default.removeItem(atPath: declared) }
        let summary = try ProcessCommandTests.summary([declared])
        #expect(summary["profile"] as? String == "cycling")
        #expect(summary["profileSource"] as? String == "file: cycling")
        let distance = try #require(summary["distanceMetres"] as? Double)
        #expect(abs(distance - 4193) < 50, "\(distance)")
        // Without the declaration the walking profile holds it as a vehicle, and the JSON carries the warning.
        let undeclared = try Self.ride(type: nil)
        defer { try? FileManager.default.removeItem(atPath: undeclared) }
        let bare = try ProcessCommandTests.summary([undeclared])
        #expect(bare["profile"] as? String == "walking" && bare["profileSource"] as? String == "default")
        #expect((bare["distanceMetres"] as? Double ?? .nan) < 500)
        let warnings = try #require(bare["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("--profile cycling") }, "\(warnings)")
        // An explicit --profile wins over the file.
        let forced = try ProcessCommandTests.summary([declared, "--profile", "walking"])
        #expect(forced["profile"] as? String == "walking" && forced["profileSource"] as? String == "option")
        // stops reads the declaration too.
        let stops = try Tool.run(["stops", declared])
        #expect(stops.stdout.hasPrefix("\(declared) (cycling from the file's activity 'cycling',"), "\(stops.stdout)")
        let stopsJSON = try Tool.run(["stops", "--json", declared])
        #expect(stopsJSON.stdout.contains("\"profileSource\" : \"file: cycling\""), "\(stopsJSON.stdout)")
        let text = try Tool.run(["process", declared])
        #expect(text.stdout.contains("(cycling profile, from the file's activity 'cycling')"), "\(text.stdout)")
        // So does `buffer add` (a tester's GPX ride was added as a walk: 0 m of the session, held as a vehicle).
        let db = Tool.temporaryPath("declared.sqlite")
        defer { for suffix in Tool.databaseFiles { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let added = try Tool.run(["buffer", "add", declared, "--db", db, "--session", "ride"])
        let session = try #require(added.stderr.split(separator: "\n").first { $0.hasPrefix("session 'ride': ") })
        let metres = Double(session.dropFirst("session 'ride': ".count).prefix { $0 != " " }) ?? .nan
        #expect(abs(metres - distance) < 1, "\(added.stderr)")
    }

    /// A GPX that `process --out` or `convert` writes keeps the activity: a ride read back as a walk (the
    /// writer dropped its `<type>`) and measured next to nothing.
    @Test func aWrittenGPXKeepsTheDeclaredActivity() throws {
        let declared = try Self.ride(type: "cycling"), undeclared = try Self.ride(type: nil)
        let sailing = try Self.ride(type: "Sailing &amp; more")
        let processed = Tool.temporaryPath("processed.gpx"), converted = Tool.temporaryPath("converted.gpx")
        let forced = Tool.temporaryPath("forced.gpx"), bare = Tool.temporaryPath("bare.gpx")
        let other = Tool.temporaryPath("other.gpx")
        defer {
            for path in [declared, undeclared, sailing, processed, converted, forced, bare, other] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        #expect(try Tool.run(["process", declared, "--out", processed]).status == 0)
        #expect(try Tool.run(["convert", declared, converted]).status == 0)
        for path in [processed, converted] {
            let summary = try ProcessCommandTests.summary([path])
            #expect(summary["profileSource"] as? String == "file: cycling", "\(path)")
            let distance = try #require(summary["distanceMetres"] as? Double)
            #expect(abs(distance - 4193) < 60, "\(path): \(distance)")
        }
        // --profile is what the written track declares; the walking default declares nothing; a type that names
        // no profile is kept as it was.
        #expect(try Tool.run(["process", declared, "--profile", "driving", "--out", forced]).status == 0)
        #expect(try String(contentsOfFile: forced, encoding: .utf8).contains("<trk>\n<type>driving</type>\n<trkseg>"))
        #expect(try Tool.run(["process", undeclared, "--out", bare]).status == 0)
        #expect(try !String(contentsOfFile: bare, encoding: .utf8).contains("<type>"))
        #expect(try Tool.run(["convert", sailing, other]).status == 0)
        let info = try Tool.run(["info", "--json", other])
        #expect(info.stdout.contains("\"declaredActivity\" : \"Sailing & more\""), "\(info.stdout)")
        #expect(try String(contentsOfFile: other, encoding: .utf8).contains("<type>Sailing &amp; more</type>"))
    }

    /// A track written from a ride that declares itself, in a format with no place for the activity (CSV, JSON
    /// Lines, GeoJSON), is read back as a walk: `convert` and `process --out` say so and name the profile to give
    /// (a batch tester's Edge 800 ride read 0 m of 25 km through them); GPX keeps it and says nothing.
    @Test("warns when a written track loses the declared activity")
    func warnsWhenAWrittenTrackLosesTheDeclaredActivity() throws {
        let declared = try Self.ride(type: "cycling"), undeclared = try Self.ride(type: nil)
        let csv = Tool.temporaryPath("ride-out.csv"), gpx = Tool.temporaryPath("ride-out.gpx")
        defer { for path in [declared, undeclared, csv, gpx] { try? FileManager.default.removeItem(atPath: path) } }
        for format in ["csv", "jsonl", "geojson"] {
            let out = Tool.temporaryPath("ride-converted.\(format)")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let converted = try Tool.run(["convert", declared, out])
            #expect(converted.status == 0)
            #expect(converted.stderr.contains("with --profile cycling"), "\(format): \(converted.stderr)")
            let plain = try Tool.run(["convert", undeclared, out])
            #expect(!plain.stderr.contains("warning"), "\(plain.stderr)")
        }
        let processed = try ProcessCommandTests.summary([declared, "--out", csv])
        let warnings = try #require(processed["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("with --profile cycling") }, "\(warnings)")
        // Read back with the profile named, the written track measures the ride again.
        let again = try ProcessCommandTests.summary([csv, "--profile", "cycling"])
        #expect(abs((again["distanceMetres"] as? Double ?? 0) - 4193) < 60, "\(again)")
        #expect(try Tool.run(["convert", declared, gpx]).stderr.contains("warning") == false)
        let forced = try ProcessCommandTests.summary([declared, "--profile", "cycling", "--out", csv])
        #expect((forced["warnings"] as? [String] ?? []).allSatisfy { !$0.contains("declares its activity") })
    }

    /// `info` says what the file declares and which profile that picks, and how many segments it has.
    @Test func infoShowsTheDeclaredActivityAndTheSegments() throws {
        let declared = try Self.ride(type: "cycling"), other = try Self.ride(type: "Other")
        let split = Tool.temporaryPath("two-segments.gpx")
        defer { for path in [declared, other, split] { try? FileManager.default.removeItem(atPath: path) } }
        let text = try Tool.run(["info", declared])
        #expect(
            text.stdout.contains("'cycling' (declared; process and stops use the cycling profile)"), "\(text.stdout)")
        let gpx = try String(contentsOfFile: declared, encoding: .utf8)
        try gpx.replacingOccurrences(
            of: "\n<trkpt lat=\"48.1\" lon=\"11.5028", with: "\n</trkseg><trkseg><trkpt lat=\"48.1\" lon=\"11.5028"
        )
        .write(toFile: split, atomically: true, encoding: .utf8)
        let json = try Tool.run(["info", "--json", split, other])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(reports.count == 2)
        #expect(reports[0]["segments"] as? Int == 2, "\(reports[0])")
        #expect(reports[1]["segments"] as? Int == 1)
        #expect(reports[1]["declaredActivity"] as? String == "Other")
        #expect(try Tool.run(["info", Tool.demo]).stdout.contains("declared") == false)
    }

    /// A GPX's segment breaks survive `convert` through CSV and JSON Lines (a `segment` column, member) and back to
    /// GPX: they were lost there, and the track read back as one segment. A file without segments keeps the
    /// canonical header.
    @Test func segmentsSurviveCSVAndJSONLines() throws {
        let declared = try Self.ride(type: "cycling")
        let split = Tool.temporaryPath("split.gpx")
        let csv = Tool.temporaryPath("split.csv"), jsonl = Tool.temporaryPath("split.jsonl")
        let back = Tool.temporaryPath("back.gpx"), plain = Tool.temporaryPath("plain.csv")
        defer {
            for path in [declared, split, csv, jsonl, back, plain] { try? FileManager.default.removeItem(atPath: path) }
        }
        try String(contentsOfFile: declared, encoding: .utf8).replacingOccurrences(
            of: "\n<trkpt lat=\"48.1\" lon=\"11.5028", with: "\n</trkseg><trkseg><trkpt lat=\"48.1\" lon=\"11.5028"
        )
        .write(toFile: split, atomically: true, encoding: .utf8)
        #expect(try Tool.run(["convert", split, csv]).status == 0)
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(rows.first?.hasSuffix(",activity_confidence,segment") == true, "\(rows.first ?? "")")
        #expect(
            Set(rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).last! }) == [
                "0", "1",
            ])
        #expect(try Tool.run(["convert", csv, jsonl]).status == 0)
        #expect(try String(contentsOfFile: jsonl, encoding: .utf8).contains("\"segment\":1}"))
        #expect(try Tool.run(["convert", jsonl, back]).status == 0)
        let json = try Tool.run(["info", "--json", back])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(reports.first?["segments"] as? Int == 2, "\(reports)")
        #expect(try Tool.run(["convert", Tool.demo, plain]).status == 0)
        let header = try String(contentsOfFile: plain, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.hasSuffix(",activity_confidence"), "\(header)")
    }

    /// A "ride" at 30 m/s, faster than the cycling profile allows: the hint names the driving profile, not the
    /// cycling one in use (a tester was told to use the profile they were using).
    @Test func theTooFastHintDoesNotNameTheProfileInUse() throws {
        let drive = try Self.ride(type: "cycling", speed: 30)
        defer { try? FileManager.default.removeItem(atPath: drive) }
        let result = try Tool.run(["process", drive])
        #expect(result.stderr.contains("faster than the cycling profile allows"), "\(result.stderr)")
        #expect(result.stderr.contains("for a drive use --profile driving"), "\(result.stderr)")
        #expect(!result.stderr.contains("--profile cycling"), "\(result.stderr)")
    }
}

/// A file that ends inside a record, read with `--lenient`: the break is skipped, and the warning says the rest
/// is missing (a tester's truncated GPX, 40 % of the ride gone, read as one skipped record).
@Suite struct TruncatedInputTests {
    @Test func aTruncatedFileReadLenientlySaysWhatIsMissing() throws {
        let walk = BatchCommandTests.gpxWalkText()
        let truncated = Tool.temporaryPath("cut.gpx")
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        try String(walk.prefix(walk.count / 2)).write(toFile: truncated, atomically: true, encoding: .utf8)
        let result = try Tool.run(["process", truncated, "--lenient", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ends early, inside a record (truncated?)"), "\(result.stderr)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let warnings = try #require(summary["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("whatever followed is missing") }, "\(warnings)")
    }

    /// The break is said even after more damaged records than the report keeps (100; a code reviewer's file of
    /// 150 bad latitudes and then a cut lost the warning).
    @Test func theBreakIsSaidAfterManyDamagedRecords() throws {
        let walk = BatchCommandTests.gpxWalkText()
        var lines = walk.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let bad = "<trkpt lat=\"abc\" lon=\"11.5\"><time>2024-05-01T09:00:00Z</time></trkpt>"
        lines.insert(contentsOf: Array(repeating: bad, count: 150), at: 1)
        let text = lines.joined(separator: "\n")
        let path = Tool.temporaryPath("bad-then-cut.gpx")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(text.prefix(text.count - 200)).write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Tool.run(["process", path, "--lenient"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ends early, inside a record (truncated?)"), "\(result.stderr)")
    }

    /// One JSON Lines record cut short in the middle of a file (a tester's: the warning said the file ended early
    /// and "whatever followed is missing", though every line after it was read; without --lenient the error gave
    /// no hint, though --lenient reads on).
    @Test func aRecordCutShortMidFileIsNoTruncatedFile() throws {
        var lines = (0..<40).map { i in
            "{\"time\":\"2024-05-01T09:00:\(String(format: "%02d", i))Z\",\"latitude\":49.\(String(format: "%05d", 100 + 13 * i)),"
                + "\"longitude\":11.5,\"accuracy\":5}"
        }
        lines[20] = String(lines[20].prefix(25))
        let path = try Tool.temporaryFile("cut-mid.jsonl", contents: lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let strict = try Tool.run(["process", path])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("--lenient skips such records and reads on"), "\(strict.stderr)")
        let lenient = try Tool.run(["process", path, "--lenient", "--json"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("cut short in the middle of the input"), "\(lenient.stderr)")
        #expect(!lenient.stderr.contains("whatever followed is missing"), "\(lenient.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(lenient.stdout.utf8)) as? [String: Any])
        #expect((summary["fixes"] as? [String: Any])?["read"] as? Int == 39)
    }
}
