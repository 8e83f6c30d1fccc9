import Foundation
import Testing

/// `truetrack stops` end to end.
@Suite struct StopsCommandTests {
    @Test func printsTheIssuesJSONShape() throws {
        let out = Tool.temporaryPath("stops.geojson")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try Tool.run(["stops", Tool.demo, "--json", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["stops"] is [Any])
        #expect(json["trips"] is [Any])
        #expect(json["movingSeconds"] is Double || json["movingSeconds"] is Int)
        #expect(json["elapsedSeconds"] is Double || json["elapsedSeconds"] is Int)
        // Moving, stopped and unobserved add up to the elapsed time; the demo's one stop is 121 s (truth: 120 s, 07:11:40–07:13:40).
        func seconds(_ key: String) -> Double { (json[key] as? NSNumber)?.doubleValue ?? .nan }
        #expect(seconds("stoppedSeconds") == 121)
        #expect(
            seconds("movingSeconds") + seconds("stoppedSeconds") + seconds("unobservedSeconds")
                == seconds("elapsedSeconds"))
        let geo = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        #expect(geo["type"] as? String == "FeatureCollection")
        // The stop as a Point, then each trip as a LineString of its accepted fixes, with its figures: the
        // demo's walk to the stop and the walk after it, their distances as the report's.
        let features = try #require(geo["features"] as? [[String: Any]])
        let geometries = features.map { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(geometries == ["Point", "LineString", "LineString"], "\(geometries)")
        // Every feature says what it is, and the stop its number, as a trip does (a fleet tester's pipeline).
        let stop = try #require(features.first?["properties"] as? [String: Any])
        #expect(stop["kind"] as? String == "stop" && stop["stop"] as? Int == 1, "\(stop)")
        let trips = try #require(json["trips"] as? [[String: Any]])
        for (k, feature) in features.dropFirst().enumerated() {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["trip"] as? Int == k + 1 && properties["kind"] as? String == "trip")
            #expect(properties["distanceMetres"] as? Double == trips[k]["distanceMetres"] as? Double)
            #expect(properties["start"] as? String == trips[k]["start"] as? String)
            let line = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
            #expect(line.count > 100 && line.allSatisfy { $0.count == 2 })
        }
    }

    /// An --out in a folder that does not exist fails at once, naming the path, before the input is read: it was
    /// written after the whole analysis, whose report was then lost (a stops tester's long track; before that a
    /// reviewer's, whose warnings were printed after it).
    @Test("refuses an --out in a missing folder before reading the input")
    func refusesAnOutInAMissingFolderBeforeReading() throws {
        let path = try Tool.walkIn1901("stops-1901.csv", count: 10)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["stops", path, "--out", "/nonexistent-dir/x.geojson"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent-dir/x.geojson: cannot write"), "\(result.stderr)")
        #expect(!result.stderr.contains("before 1970") && result.stdout.isEmpty, "\(result.stderr)")
    }

    /// Fixes delivered in batches newest first (rows 300–419 of the demo walk, its stop among them, in reversed
    /// 30-row batches): fewer than a fifth of the file is out of order, so no warning said the stop was lost (a
    /// stops tester's drive). A run of late fixes spanning a minute or more inside a silence of the accepted
    /// track is warned of, with its times; swapped neighbours are not, nor an overlapping re-export (rows 200–299
    /// again after 299: nothing is missing, a reviewer's).
    @Test func warnsOfABlockOfLateFixes() throws {
        let lines = try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0], rows = Array(lines.dropFirst())
        let batches = stride(from: 300, to: 420, by: 30).map { rows[$0..<$0 + 30] }
        let late = [header] + rows[..<300] + batches.reversed().joined() + rows[420...]
        var swapped = rows
        for i in stride(from: 10, to: swapped.count - 1, by: 20) { swapped.swapAt(i, i + 1) }
        let lateFile = try Tool.temporaryFile("late.csv", contents: late.joined(separator: "\n") + "\n")
        let swappedFile = try Tool.temporaryFile(
            "swapped.csv", contents: ([header] + swapped).joined(separator: "\n") + "\n")
        defer { for path in [lateFile, swappedFile] { try? FileManager.default.removeItem(atPath: path) } }
        let r = try Tool.run(["stops", lateFile])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("in a row, dated 2025-11-29T07:11:"), "\(r.stderr)")
        #expect(r.stderr.contains("were rejected as out of order"), "\(r.stderr)")
        #expect(r.stderr.contains("--sort"), "\(r.stderr)")
        let fine = try Tool.run(["stops", swappedFile])
        #expect(fine.status == 0 && !fine.stderr.contains("out of order"), "\(fine.stderr)")
        let overlapping = try Tool.temporaryFile(
            "overlap.csv",
            contents: ([header] + rows[..<300] + rows[200..<300] + rows[300...]).joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: overlapping) }
        let repeated = try Tool.run(["stops", overlapping])
        #expect(repeated.status == 0 && !repeated.stderr.contains("in a row"), "\(repeated.stderr)")
    }

    /// A walk north at 1.4 m/s (1 Hz, speeds read), 5 s still, 10 minutes of silence, 5 s still at the same place,
    /// and the walk on: a possible stop across the gap between two trips.
    static let stayAcrossAGap: String = {
        var csv = "time,latitude,longitude,accuracy,speed\n"
        var t = 1_767_261_600, north = 0.0
        func row(_ speed: Double) {
            csv += "\(t),\(47 + north / 111_132),8.0,4,\(speed)\n"
            t += 1
            north += speed
        }
        for _ in 0..<60 { row(1.4) }
        for _ in 0..<5 { row(0) }
        t += 600
        for _ in 0..<5 { row(0) }
        for _ in 0..<60 { row(1.4) }
        return csv
    }()

    /// A walk, 10 minutes of silence at one place, and a walk on: a possible stop (`staysAcrossGaps`), whose
    /// GeoJSON feature says so (`kind` "possibleStop", `acrossGap`), between two trips.
    @Test func aStayAcrossAGapIsAPossibleStopFeature() throws {
        let path = Tool.temporaryPath("gap-stay.csv"), out = Tool.temporaryPath("gap-stay.geojson")
        defer {
            for file in [path, out] { try? FileManager.default.removeItem(atPath: file) }
        }
        try Self.stayAcrossAGap.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try Tool.run(["stops", path, "--json", "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((json["stops"] as? [Any])?.isEmpty == true && (json["staysAcrossGaps"] as? [Any])?.count == 1)
        let geo = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let kinds = (geo["features"] as? [[String: Any]])?.map {
            ($0["properties"] as? [String: Any])?["kind"] as? String
        }
        #expect(kinds == ["possibleStop", "trip", "trip"], "\(kinds ?? [])")
    }

    /// Local times across the autumn change (02:59:55 then 02:00:00, logged every 5 s): a walk, a stop, and after
    /// the change the stop's last minutes and a walk on, all rejected as out of order. The warning says the stops leave those fixes out, but they
    /// reached the analysis and split the stop before the change in two (a timeline tester's): the stops are those
    /// of the file cut before the change.
    @Test func fixesRejectedAsOutOfOrderStayOutOfTheStops() throws {
        // 3 m of noise per axis claiming 5 m.
        var rng = SeededNoise(seed: 7)
        func noise() -> Double { 3 * rng.gaussian() }
        func row(_ seconds: Int, north: Double, east: Double) -> String {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let time = "2024-10-27 \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
            return "\(time),\(52.52 + north / 111_260),\(13.4 + east / 67_800),5\n"
        }
        var before = "time,latitude,longitude,accuracy\n"
        for i in 0..<120 {
            let north = noise(), east = 1.4 * 5 * Double(min(i, 58)) + noise()
            before += row(2 * 3600 + 50 * 60 + 5 * i, north: north, east: east)
        }
        var after = before
        for j in 0..<120 {
            // Five more minutes at the stop, then a walk north.
            let north = 1.4 * 5 * Double(max(0, j - 60)) + noise(), east = 1.4 * 5 * 58 + noise()
            after += row(2 * 3600 + 5 * j, north: north, east: east)
        }
        let cut = try Tool.temporaryFile("autumn-cut.csv", contents: before)
        let whole = try Tool.temporaryFile("autumn-whole.csv", contents: after)
        defer { for path in [cut, whole] { try? FileManager.default.removeItem(atPath: path) } }
        func stops(_ path: String) throws -> [[String: String]] {
            let run = try Tool.run(["stops", path, "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            return try #require(json["stops"] as? [[String: Any]]).map {
                ["start": "\($0["start"] ?? "")", "end": "\($0["end"] ?? "")"]
            }
        }
        let expected = try stops(cut)
        #expect(!expected.isEmpty)
        #expect(try stops(whole) == expected)
    }

    /// A walker logged every 5 s under 3 m of white noise per axis claiming 5 m stands 200 s between two walks (a
    /// timeline tester's couriers): the sparse white-noise estimate, pulled to zero by the walk's aligned steps, left
    /// the stop without its noise floor for its first minutes, the 7 m threshold opened on the noise, and the stop
    /// was cut short or split (93 s stopped on average over 12 seeds). Motion's products are clipped at two
    /// variances now: 122 s (`WhiteNoiseEstimate.sparsePositiveClipVariances`).
    @Test func aStandstillBetweenSparseNoisyWalksIsMostlyStopped() throws {
        var total = 0.0
        for seed in 1...12 {
            var rng = SeededNoise(seed: UInt64(seed))
            func noise() -> Double { 3 * rng.gaussian() }
            var csv = "time,latitude,longitude,accuracy\n", east = 0.0
            for i in 0..<160 {
                if i < 60 || i >= 100 { east += 7 }
                let north = noise(), jitter = noise()
                csv += "\(1_714_546_800 + 5 * i),\(48.85 + north / 111_195),\(2.35 + (east + jitter) / 73_200),5\n"
            }
            let path = try Tool.temporaryFile("standstill-\(seed).csv", contents: csv)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let run = try Tool.run(["stops", path, "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            total += (json["stoppedSeconds"] as? NSNumber)?.doubleValue ?? 0
        }
        #expect(total / 12 >= 115, "\(total / 12) s stopped of 200 on average")
    }

    /// `--out FILE.csv` writes the report's records as a timeline, one row each in time order, with the report's
    /// figures: the demo's walk, stop and walk; a stay across a gap between two walks is a `possibleStop` row,
    /// all of it unobserved. Another extension is refused, naming both formats.
    @Test func writesTheStopsAndTripsAsACSVTimeline() throws {
        let out = Tool.temporaryPath("timeline.csv")
        let gap = Tool.temporaryPath("timeline-gap.csv"), gapOut = Tool.temporaryPath("timeline-gap-out.csv")
        defer { for file in [out, gap, gapOut] { try? FileManager.default.removeItem(atPath: file) } }
        let r = try Tool.run(["stops", Tool.demo, "--json", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let stop = try #require((json["stops"] as? [[String: Any]])?.first)
        let trips = try #require(json["trips"] as? [[String: Any]])
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(
            lines.first?.joined(separator: ",") == "kind,number,start,end,durationSeconds,latitude,longitude,"
                + "radiusMetres,fixes,unobservedSeconds,distanceMetres")
        #expect(lines.allSatisfy { $0.count == 11 }, "\(lines)")
        #expect(lines.dropFirst().map { $0[0] + $0[1] } == ["trip1", "stop1", "trip2"], "\(lines)")
        #expect(lines[1][2] == trips[0]["start"] as? String && lines[1][10] == "\(trips[0]["distanceMetres"]!)")
        #expect(lines[1][5...9].allSatisfy { $0.isEmpty })
        #expect(lines[2][2] == stop["start"] as? String && lines[2][8] == "\(stop["fixes"]!)")
        #expect(Double(lines[2][5]).map { abs($0 - (stop["latitude"] as? Double ?? 0)) < 1e-7 } == true)
        #expect(lines[2][9].isEmpty && lines[2][10].isEmpty)
        #expect(lines[3][2] == trips[1]["start"] as? String)

        try Self.stayAcrossAGap.write(toFile: gap, atomically: true, encoding: .utf8)
        let stay = try Tool.run(["stops", gap, "--out", gapOut])
        #expect(stay.status == 0, "\(stay.stderr)")
        let rows = try String(contentsOfFile: gapOut, encoding: .utf8).split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        #expect(rows.map { $0[0] + $0[1] } == ["trip1", "possibleStop", "trip2"], "\(rows)")
        #expect(rows.count == 3 && rows[1][9] == rows[1][4] && !rows[1][9].isEmpty, "\(rows)")

        let refused = try Tool.run(["stops", Tool.demo, "--out", Tool.temporaryPath("timeline.txt")])
        #expect(refused.status == 2 && refused.stderr.contains(".csv") && refused.stderr.contains(".geojson"))
    }

    /// A car without Doppler parked 2 minutes, moving 60 m in 15 s and parking again (a reviewer's case): the
    /// departure hold counts the move up to 30 s late, inside the second stop, and the trip read 0 m. A trip's
    /// distance now runs to the end of the stop after it.
    /// The demo walk's 121 s stop: a timeout longer than the stop leaves none, in `stops` and in `process`; a
    /// value that is not a positive number is a usage error naming the option.
    @Test func theStopTimeoutAndRadiusOptionsTuneTheDetector() throws {
        func stopCount(_ arguments: [String]) throws -> Int {
            let r = try Tool.run(arguments + ["--json"])
            #expect(r.status == 0, "\(r.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return (json?["stops"] as? [Any])?.count ?? -1
        }
        for command in ["stops", "process"] {
            #expect(try stopCount([command, Tool.demo]) == 1)
            #expect(try stopCount([command, Tool.demo, "--stop-timeout", "200"]) == 0)
            #expect(try stopCount([command, Tool.demo, "--stop-radius", "80"]) == 1)
        }
        for value in ["-3", "1e-300", "0x10", "nan"] {
            let bad = try Tool.run(["stops", Tool.demo, "--stop-radius", value])
            #expect(bad.status == 2 && bad.stderr.contains("--stop-radius needs a positive number"), "\(bad.stderr)")
        }
        // Past a week, or a town, no stop or one stop (a tester's 1e308 made every stop vanish without a word).
        for (name, value) in [
            ("stop-timeout", "1e308"), ("stop-timeout", "604801"), ("stop-timeout", "inf"), ("stop-radius", "10001"),
            ("stop-radius", "1e308"),
        ] {
            let bad = try Tool.run(["process", Tool.demo, "--\(name)", value])
            #expect(bad.status == 2 && bad.stderr.contains("--\(name) takes at most"), "\(bad.stderr)")
        }
        #expect(try stopCount(["stops", Tool.demo, "--stop-timeout", "604800"]) == 0)
    }

    @Test func aTripCountsTheMetresADepartureHeld() throws {
        let path = Tool.temporaryPath("hop.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var csv = "time,latitude,longitude,accuracy_m\n"
        for i in 0..<420 {
            let north = i < 120 ? 0 : Double(min(i - 120, 15)) * 4
            let jitter = 2 * sin(Double(i) * 2.3)
            csv += String(
                format: "2024-05-01T08:%02d:%02dZ,%.8f,11.0,8\n", i / 60, i % 60, 49 + (north + jitter) / 111_200)
        }
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Tool.run(["stops", path, "--json", "--profile", "driving"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let trips = try #require(json["trips"] as? [[String: Any]])
        #expect((json["stops"] as? [Any])?.count == 2)
        let moved = trips.compactMap { $0["distanceMetres"] as? Double }.max() ?? 0
        #expect(moved > 40 && moved < 90, "\(trips)")
    }

    /// `stops --json` of `path`: its elapsed, moving, stopped and unobserved seconds, and its standard error.
    static func times(_ path: String) throws -> (
        elapsed: Double, moving: Double, stopped: Double, unobserved: Double, stderr: String
    ) {
        let r = try Tool.run(["stops", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        return (
            try #require(json["elapsedSeconds"] as? Double), try #require(json["movingSeconds"] as? Double),
            try #require(json["stoppedSeconds"] as? Double), try #require(json["unobservedSeconds"] as? Double),
            r.stderr
        )
    }

    /// A walk, an hour's silence, a walk: the report said "elapsed 3659 s, moving 118 s" with no word of the
    /// gap. The unobserved time is reported, and elapsed = moving + stopped + unobserved.
    @Test func reportsTheUnobservedTimeOfARecordingGap() throws {
        let path = Tool.temporaryPath("gap.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var csv = "time,latitude,longitude,accuracy_m\n"
        for i in 0..<60 { csv += String(format: "2025-06-01T10:00:%02dZ,46.%06d,13.8,5\n", i, 400_000 + i * 12) }
        for i in 0..<60 { csv += String(format: "2025-06-01T11:00:%02dZ,46.%06d,13.8,5\n", i, 420_000 + i * 12) }
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let (elapsed, moving, _, unobserved, _) = try Self.times(path)
        #expect(elapsed == 3659)
        #expect(unobserved == 3541)  // 10:00:59 → 11:00:00
        #expect(abs(elapsed - moving - unobserved) < 1e-9)  // no stop in a walk
        #expect(try Tool.run(["stops", path]).stdout.contains("unobserved 3541.0 s (recording gaps)"))
    }

    /// Two walks two days apart: the elapsed time counts each stretch on its own, as `process`'s duration (a stops
    /// tester's read 173,640 s elapsed, 171,960 of them unobserved), and the warning says so.
    @Test func theElapsedTimeCountsStretchesDaysApartEachOnItsOwn() throws {
        let path = Tool.temporaryPath("two-days.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var csv = "time,latitude,longitude,accuracy_m\n"
        for day in [1, 3] {
            for i in 0..<60 {
                csv += String(format: "2025-06-%02dT10:00:%02dZ,46.%06d,13.8,5\n", day, i, 400_000 + i * 12)
            }
        }
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let (elapsed, moving, stopped, unobserved, stderr) = try Self.times(path)
        #expect(elapsed == 118)
        #expect(unobserved == 0 && stopped == 0)
        #expect(abs(elapsed - moving - stopped - unobserved) < 1e-9)
        #expect(stderr.contains("fall into 2 stretches of time a day or more apart"), "\(stderr)")
    }

    /// A walker who stands 20 s, falls silent 600 s at the same place and stands 20 s more: the standstill on both
    /// sides reaches the stop timeout, so a stop spans the silence, but its silent part is unobserved, not stopped (a
    /// stops tester's read 639 s stopped and 0 unobserved; silence never means stopped).
    @Test func aStopSpanningASilenceCountsItsSilentPartUnobserved() throws {
        let path = Tool.temporaryPath("silent-stop.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var csv = "time_ms,latitude,longitude,accuracy_m,speed\n"
        var t: Int64 = 1_750_000_000_000
        var east = 0.0
        func add(_ seconds: Int, speed: Double) {
            for _ in 0..<seconds {
                csv += "\(t),46.4,\(13.8 + east / 76_800),5,\(speed)\n"
                east += speed
                t += 1000
            }
        }
        add(120, speed: 1.4)
        add(20, speed: 0)
        t += 600_000
        add(20, speed: 0)
        add(120, speed: 1.4)
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Tool.run(["stops", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let stops = try #require(json["stops"] as? [[String: Any]])
        try #require(stops.count == 1, "\(stops)")
        let silent = try #require(stops[0]["unobservedSeconds"] as? Double)
        #expect(silent >= 600)
        let stopped = try #require(json["stoppedSeconds"] as? Double)
        let unobserved = try #require(json["unobservedSeconds"] as? Double)
        #expect(unobserved == silent)
        #expect(stopped <= 41, "only the standstill seen: \(stopped) s")
        #expect(try Tool.run(["stops", path]).stdout.contains("s of it unobserved"))
    }

    /// `stops --json` printed nothing on standard output for a file without fixes (a header alone) but a report
    /// for an empty file: like `process --json`, it always prints its JSON, with the failure in `error`.
    @Test func printsItsJSONWithTheErrorWhenTheInputHasNoFix() throws {
        let path = Tool.temporaryPath("header-only.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "time,latitude,longitude\n".write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["stops", "process"] {
            let result = try Tool.run([command, path, "--json"])
            #expect(result.status == 1, "\(command)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(command)")
            #expect((json["error"] as? String)?.contains("no fixes") == true, "\(command): \(json)")
            #expect(result.stderr.contains("no fixes"))
        }
    }

    @Test func rejectsAnUnknownProfile() throws {
        let r = try Tool.run(["stops", Tool.demo, "--profile", "flying"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown profile 'flying'"))
    }
}

/// Seeded normal draws for generated tracks: SplitMix64 (Steele et al. 2014) and Box–Muller's cosine branch, two
/// uniforms per draw, so that a case reproduces (and a Python copy of it draws the same numbers).
struct SeededNoise {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) * 0x1.0p-53
    }
    /// A standard normal draw.
    mutating func gaussian() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform()) }
}

/// `stops`' distance accounting: its `distanceMetres` is `process`'s, and the trips' distances plus
/// `distanceOutsideTripsMetres` add up to it (a tester's walk read 359.9 m in `process` and trips of 329.9 m, the
/// 30 m counted during the first stop in no trip and not said).
@Suite struct StopsDistanceAccountingTests {
    static func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try Tool.run(arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Checks the accounting on `path` and returns the metres outside the trips.
    static func outsideTrips(_ path: String, profile: String = "walking") throws -> Double {
        let stops = try json(["stops", path, "--profile", profile])
        let process = try json(["process", path, "--profile", profile])
        let distance = try #require(stops["distanceMetres"] as? Double)
        let outside = try #require(stops["distanceOutsideTripsMetres"] as? Double)
        let trips = try #require(stops["trips"] as? [[String: Any]]).compactMap { $0["distanceMetres"] as? Double }
        #expect(distance == (process["distanceMetres"] as? Double), "\(path)")
        #expect(abs(trips.reduce(0, +) + outside - distance) < 0.001 * Double(trips.count + 1), "\(path)")
        #expect(outside >= 0)
        return outside
    }

    @Test func theDemoWalksTripsHoldItsWholeDistance() throws {
        #expect(try Self.outsideTrips(Tool.demo) == 0)
        // The text says the distance either way.
        #expect(try Tool.run(["stops", Tool.demo]).stdout.contains("  distance 600 m, all of it in the trips"))
    }

    @Test(.enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
    func metresCountedWhereNoTripIsAreReportedOutsideTheTrips() throws {
        // The tester's walk: 30 m counted during its first stop.
        let walk = try Self.outsideTrips(SharedDatasets.path("gpx-devices/24173415.gpx"))
        #expect(walk > 20 && walk < 40, "\(walk) m")
        // An underground walk the stop detector judges stopped throughout: everything is outside (no trip).
        let underground = SharedDatasets.path("ipin2023-walk/IPIN2023_T3_TrainingTrial22_repetition01.txt")
        let stops = try Self.json(["stops", underground])
        #expect((stops["trips"] as? [Any])?.isEmpty == true)
        #expect(try Self.outsideTrips(underground) == (stops["distanceMetres"] as? Double))
        let text = try Tool.run(["stops", underground])
        #expect(text.stdout.contains("outside the trips: there is none"), "\(text.stdout)")
    }
}

/// `stops --to`: the format `--out` writes when its path does not say it (a tester could not write to `/dev/full`).
@Suite struct StopsOutputFormatTests {
    @Test func toNamesTheFormatOfAPathWithoutAnExtension() throws {
        let path = Tool.temporaryPath("timeline")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (format, start) in [("csv", "kind,number,start,end"), ("geojson", "{\"type\":\"FeatureCollection\"")] {
            let result = try Tool.run(["stops", Tool.demo, "--out", path, "--to", format])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix(start), "\(format)")
        }
        let unnamed = try Tool.run(["stops", Tool.demo, "--out", path])
        #expect(unnamed.status == 2 && unnamed.stderr.contains("give --to csv or --to geojson"), "\(unnamed.stderr)")
        let gpx = try Tool.run(["stops", Tool.demo, "--out", path, "--to", "gpx"])
        #expect(gpx.status == 2 && gpx.stderr.contains("--to is csv (the timeline) or geojson"), "\(gpx.stderr)")
        let alone = try Tool.run(["stops", Tool.demo, "--to", "csv"])
        #expect(alone.status == 2 && alone.stderr.contains("give --out FILE"), "\(alone.stderr)")
    }
}
