import Foundation
import Testing

/// `truetrack process` end to end: the summary's keys and values, the filtered track in every format, the
/// per-fix decisions, usage errors, and real recordings.
@Suite struct ProcessCommandTests {
    static func summary(_ arguments: [String]) throws -> [String: Any] {
        let result = try Tool.run(["process", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func summarisesTheDemoWalkWithEveryKey() throws {
        let s = try Self.summary([Tool.demo])
        let fixes = try #require(s["fixes"] as? [String: Any])
        let rejected = try #require(fixes["rejected"] as? [String: Int])
        let read = try #require(fixes["read"] as? Int), accepted = try #require(fixes["accepted"] as? Int)
        #expect(read == 560)
        #expect(accepted + rejected.values.reduce(0, +) == read)
        // The demo holds one exact duplicate and one step back in time (see `info`).
        #expect(rejected["duplicate"] == 1 && rejected["outOfOrder"] == 1)
        #expect(Set(rejected.keys) == ["invalid", "duplicate", "outOfOrder", "accuracy", "speed", "outlier"])
        let distance = try #require(s["distanceMetres"] as? Double)
        let raw = try #require(s["rawPathMetres"] as? Double)
        #expect(s["durationSeconds"] as? Double == 583)
        #expect(s["profile"] as? String == "walking")
        // The naive sum is inflated by noise and the injected jumps; TrueTrack's distance is a walk's.
        #expect(raw > 5000 && distance > 400 && distance < 800)
        let bySource = try #require(s["distanceBySourceMetres"] as? [String: Double])
        #expect(abs(bySource.values.reduce(0, +) - distance) < 1e-6)
        // The text summary says the same.
        let text = try Tool.run(["process", Tool.demo])
        #expect(text.status == 0)
        #expect(text.stdout.contains("distance:       \(String(format: "%.1f", distance)) m"))
    }

    /// A fix out of order is left out of the summary's duration, and so is its repeat on the next line (rejected as
    /// a duplicate of it): a batch tester's old fix written twice made a 59 s walk last 159 s, while `stops` said 59.
    @Test("leaves a repeated out-of-order fix out of the duration") func leavesARepeatedOutOfOrderFixOutOfTheDuration()
        throws
    {
        for copies in 1...2 {
            var text = "time,latitude,longitude,accuracy_m\n"
            for i in 0..<60 {
                text += "2024-05-01T12:01:\(String(format: "%02d", i))Z,48.0,\(11 + Double(i) * 2e-5),5\n"
                if i == 30 {
                    for _ in 0..<copies { text += "2024-05-01T11:59:20Z,48.0,11.0,5\n" }
                }
            }
            let path = try Tool.temporaryFile("old-fix-\(copies).csv", contents: text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let s = try Self.summary([path])
            #expect(s["durationSeconds"] as? Double == 59, "\(copies) copies")
            let stops = try Tool.run(["stops", "--json", path])
            #expect(stops.stdout.contains("\"elapsedSeconds\" : 59"), "\(stops.stdout)")
        }
    }

    /// A file whose points all carry one time (a GPX written with a 32-bit epoch underflow) counts next to
    /// nothing, since distance integrates speed over time: the user is told why instead of reading a silent 0 m.
    @Test func warnsWhenMostFixesAreOutOfOrderBecauseTheirTimesRepeat() throws {
        let path = try Tool.walkIn1901("one-time.csv", count: 30, oneTime: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in ["process", "stops"] {
            let result = try Tool.run([command, path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("29 of 30 fixes (97 %)"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("29 of them carry the same time as the fix before"))
            #expect(result.stderr.contains("times look broken"))
            #expect(!result.stderr.contains("--sort"))  // sorting cannot help fixes that share one time
        }
        let demo = try Tool.run(["process", Tool.demo])
        #expect(!demo.stderr.contains("out of order"), "\(demo.stderr)")
    }

    /// A walk whose every other fix is dated three days early (52 of them, each after a fix on time): each is
    /// named a clock jump. The first five are printed, the rest counted; only those five are kept (one string per
    /// backdated fix held 381 MB for a million fixes of a file written newest first, a performance tester's, before
    /// such a file's fixes stopped counting as clock jumps), and the count is still every one of them.
    @Test("names the first five clock jumps and counts the rest")
    func namesTheFirstFiveClockJumpsAndCountsTheRest() throws {
        var text = "time,latitude,longitude,accuracy_m\n"
        let start = 1_714_694_400.0  // 2024-05-03T00:00:00Z
        for i in 0..<104 {
            let time = Date(timeIntervalSince1970: start + 30 * Double(i) - (i % 2 == 1 ? 3 * 86_400 : 0))
            text += "\(time.ISO8601Format()),48.0,\(11 + Double(i) * 1e-5),5\n"
        }
        let path = try Tool.temporaryFile("every-other-backdated.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let s = try Self.summary([path])
        let warnings = try #require(s["warnings"] as? [String])
        #expect(warnings.filter { $0.contains("a day or more before the fixes around it") }.count == 5)
        #expect(warnings.last == "and 47 more clock jumps", "\(warnings)")
    }

    /// With the track or the decisions on standard output, the JSON summary goes to standard error, and the
    /// warnings (inside it) are not printed beside it: a batch tester's standard error did not parse. `stops` too.
    @Test("keeps standard error parseable when the JSON summary goes there")
    func keepsStandardErrorParseableWhenTheJSONSummaryGoesThere() throws {
        let path = try Tool.walkIn1901("one-time-json.csv", count: 30, oneTime: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["process", "--out", "-"], ["process", "--decisions", "-"], ["stops", "--out", "-"]] {
            let result = try Tool.run(arguments + ["--json", path])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
            let warnings = try #require(json?["warnings"] as? [String], "\(arguments): \(result.stderr)")
            #expect(warnings.contains { $0.contains("times look broken") }, "\(warnings)")
            // Without --json the warnings are printed as before.
            let plain = try Tool.run(arguments + [path])
            #expect(plain.stderr.contains("warning:") && plain.stderr.contains("times look broken"))
        }
        // A run that fails (a read error after some fixes; a missing input) too: its error is in the JSON, and no
        // `Error:` line follows it (a reviewer's).
        let broken = try Tool.temporaryFile(
            "broken-json.csv", contents: try String(contentsOfFile: path, encoding: .utf8) + "not,a,row,at,all,x\n")
        let missing = Tool.temporaryPath("missing-json.csv")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        for input in [broken, missing] {
            for arguments in [["process", "--out", "-"], ["stops", "--out", "-"]] {
                let result = try Tool.run(arguments + ["--json", input])
                #expect(result.status == 1, "\(arguments) \(input)")
                let json = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
                #expect(json?["error"] is String, "\(arguments) \(input): \(result.stderr)")
            }
        }
    }

    /// `--provider gps` on a file that names no provider (its fixes read as `unknown`) keeps nothing: the error says
    /// why and how to keep them (a batch tester's run failed on every IPIN and GeoLife file without a reason).
    @Test("explains a provider filter that kept nothing of a file without providers")
    func explainsAProviderFilterThatKeptNothingOfAFileWithoutProviders() throws {
        var text = "time,latitude,longitude,accuracy_m\n"
        for i in 0..<20 { text += "2024-05-01T12:01:\(String(format: "%02d", i))Z,48.0,\(11 + Double(i) * 2e-5),5\n" }
        let path = try Tool.temporaryFile("no-provider.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let gps = try Tool.run(["process", "--provider", "gps", path])
        #expect(gps.status == 1)
        #expect(gps.stderr.contains("--provider kept none of them"), "\(gps.stderr)")
        #expect(gps.stderr.contains("add --provider unknown"), "\(gps.stderr)")
        let both = try Tool.run(["process", "--provider", "gps", "--provider", "unknown", path])
        #expect(both.status == 0, "\(both.stderr)")
        // A file whose fixes name their provider (all fused) gets no such hint: 'unknown' would keep none either.
        var fused = "time,latitude,longitude,accuracy_m,provider\n"
        for i in 0..<20 {
            fused += "2024-05-01T12:01:\(String(format: "%02d", i))Z,48.0,\(11 + Double(i) * 2e-5),5,fused\n"
        }
        let named = try Tool.temporaryFile("fused-provider.csv", contents: fused)
        defer { try? FileManager.default.removeItem(atPath: named) }
        let none = try Tool.run(["process", "--provider", "gps", named])
        #expect(none.status == 1 && none.stderr.contains("--provider kept none of them"), "\(none.stderr)")
        #expect(!none.stderr.contains("--provider unknown"), "\(none.stderr)")
    }

    /// A run that reads no fix fails and leaves no empty track, decisions or stops file behind (a batch tester's
    /// map had an empty layer per bad file), as `convert` does; an existing file at the path is left as it was.
    @Test("leaves no output behind when no fix was read") func leavesNoOutputBehindWhenNoFixWasRead() throws {
        let input = try Tool.temporaryFile("header-only.csv", contents: "time,latitude,longitude\n")
        let track = Tool.temporaryPath("no-fix.geojson"), decisions = Tool.temporaryPath("no-fix-decisions.csv")
        let stops = Tool.temporaryPath("no-fix-stops.geojson"), kept = Tool.temporaryPath("kept.gpx")
        try "old".write(toFile: kept, atomically: true, encoding: .utf8)
        defer { for p in [input, track, decisions, stops, kept] { try? FileManager.default.removeItem(atPath: p) } }
        let process = try Tool.run(["process", input, "--out", track, "--decisions", decisions])
        #expect(process.status == 1 && process.stderr.contains("no fixes"), "\(process.stderr)")
        let stopsRun = try Tool.run(["stops", input, "--out", stops])
        #expect(stopsRun.status == 1)
        let again = try Tool.run(["process", input, "--out", kept])
        #expect(again.status == 1)
        for p in [track, decisions, stops] { #expect(!FileManager.default.fileExists(atPath: p), "\(p)") }
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "old")
    }

    /// `--decisions` carries the chord metres in its last column (`chord_m`): a 0.9 m/s walk under σ 8 m of white noise
    /// every 3 s without speeds (30 minutes, 1,620 m), about half of whose distance the chords count (759 of the
    /// 1,538 m counted when written); the rows' increments add up to the last row's total.
    @Test func theDecisionsCarryTheChordMetres() throws {
        var text = "time,latitude,longitude,accuracy\n"
        for fix in ChordWalk.fixes() { text += "\(fix.0),\(fix.1),\(fix.2),12.1\n" }
        let input = try Tool.temporaryFile("noisy-walk.csv", contents: text)
        let decisions = Tool.temporaryPath("noisy-walk-decisions.csv")
        defer { for p in [input, decisions] { try? FileManager.default.removeItem(atPath: p) } }
        let result = try Tool.run(["process", input, "--decisions", decisions])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try String(contentsOfFile: decisions, encoding: .utf8).split(separator: "\n")
        let header = rows[0].split(separator: ",", omittingEmptySubsequences: false)
        #expect(header.last == "chord_m")
        let chordColumn = header.count - 1
        let incrementColumn = try #require(header.firstIndex(of: "increment_m"))
        let totalColumn = try #require(header.firstIndex(of: "total_m"))
        var chords = 0.0, increments = 0.0, total = 0.0
        for row in rows.dropFirst() {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            chords += Double(cells[chordColumn]) ?? 0
            increments += Double(cells[incrementColumn]) ?? 0
            total = Double(cells[totalColumn]) ?? total
        }
        #expect(chords > 0.35 * 1620 && increments > 0.85 * 1620, "chords \(chords) m of \(increments) m")
        #expect(abs(increments - total) < 0.01, "increments \(increments) m, total \(total) m")
    }

    /// Positions that jump between two places (two receivers in one file, a swapped column): a third of the fixes
    /// refused as outliers and the distance cut without a word (a tester's swapped header: 74 of 200 refused, half
    /// the drive lost). The warning says how many and what may cause it; a clean file says nothing of outliers.
    @Test func warnsWhenManyFixesAreOutliers() throws {
        var text = "time,latitude,longitude,accuracy\n"
        for i in 0..<60 {
            // A fix every 5 s of a walk north at 1.4 m/s; every third one 25 m east (5 m/s from the fix before: not
            // too fast for a walker, far outside the filter's prediction).
            let north = 7 * Double(i) / 111_132, east = i % 3 == 2 ? 25 / (111_320 * 0.656) : 0
            text += "\(1_700_000_000 + 5 * i),\(49 + north),\(11 + east),5\n"
        }
        let path = try Tool.temporaryFile("two-places.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["process", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rejected = try #require((summary["fixes"] as? [String: Any])?["rejected"] as? [String: Int])
        let outliers = try #require(rejected["outlier"])
        #expect(outliers >= 10, "\(rejected)")
        #expect(result.stderr.contains("\(outliers) of 60 fixes of \(path)"), "\(result.stderr)")
        #expect(result.stderr.contains("were rejected as outliers"))
        let demo = try Tool.run(["process", Tool.demo])
        #expect(!demo.stderr.contains("outliers"), "\(demo.stderr)")
    }

    /// `process --json` with `profile` on 600 fixes a second apart heading north at `speed` m/s, whose `speed_kmh`
    /// column holds that speed in m/s (read as 0.28 ×) and, when `course` is set, a `course` column; returns its
    /// standard error and summary once the run succeeded and counted the drive within 3 %.
    static func processSlowColumn(speed: Double, course: Double?, profile: String) throws -> (
        stderr: String, summary: [String: Any]
    ) {
        var text = "time,latitude,longitude,accuracy,speed_kmh" + (course == nil ? "\n" : ",course\n")
        for i in 0..<600 {
            text += "\(1_700_000_000 + i),\(49 + speed * Double(i) / 111_132),11,5,\(speed)"
            text += course.map { ",\($0)\n" } ?? "\n"
        }
        let path = try Tool.temporaryFile("slow-column-\(profile).csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["process", "--json", "--profile", profile, path])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let distance = try #require(summary["distanceMetres"] as? Double)
        #expect(abs(distance - speed * 599) < 0.03 * speed * 599, "\(distance) m")
        return (result.stderr, summary)
    }

    /// m/s values in a column named `speed_kmh` (read as 0.28 × the speed) under a 25 m/s drive: distrusted, the
    /// distance from the positions, and a warning with the ratio (a tester's drive read 11.7 of 40.8 km, silently).
    @Test func warnsOfASpeedColumnThatReadsSlow() throws {
        let (stderr, summary) = try Self.processSlowColumn(speed: 25, course: nil, profile: "driving")
        #expect(stderr.contains("reads 0.28 × the speed its positions move at"), "\(stderr)")
        #expect((summary["warnings"] as? [String])?.contains { $0.contains("reads 0.28 ×") } == true)
    }

    /// A ride at 8 m/s whose m/s speeds sit in a km/h column (read as 0.28 ×) with a course: the readings pinned the
    /// filter's velocity and the ride read a fraction of its length without a word; the speed check leaves them out
    /// and says so (``SpeedCheck``).
    @Test func warnsOfReadingsTheChordsShowSlow() throws {
        let (stderr, _) = try Self.processSlowColumn(speed: 8, course: 0, profile: "cycling")
        #expect(stderr.contains("the speed column of"), "\(stderr)")
        #expect(stderr.contains("the distance comes from the positions"), "\(stderr)")
    }

    /// A damaged file read with --lenient is not told to try --lenient (a tester's HTML page saved as .gpx). Nor is
    /// it read without: a document whose root is no <gpx> ends the read even when lenient, which cannot help.
    @Test func aLenientReadIsNotToldToBeLenient() throws {
        let path = try Tool.temporaryFile("page.gpx", contents: "<html><body>404 Not Found</body></html>\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let strict = try Tool.run(["process", path])
        #expect(strict.status == 1 && strict.stderr.contains("an HTML page"), "\(strict.stderr)")
        #expect(!strict.stderr.contains("--lenient"), "\(strict.stderr)")
        // Read as GPX, as asked: its root is no <gpx>.
        let asked = try Tool.run(["process", path, "--format", "gpx"])
        #expect(asked.status == 1 && asked.stderr.contains("is this a GPX file?"), "\(asked.stderr)")
        #expect(!asked.stderr.contains("--lenient"), "\(asked.stderr)")
        let lenient = try Tool.run(["process", path, "--lenient"])
        #expect(lenient.status == 1, "\(lenient.stderr)")
        #expect(!lenient.stderr.contains("--lenient"), "\(lenient.stderr)")
    }

    /// Two GPX files joined with `cat` stop at the second document, with advice to split them and no offer of
    /// --lenient, which stops there too (a fuzz tester's file read as its first half, exit 0).
    @Test("two joined GPX files are an error that suggests splitting them, not --lenient")
    func joinedGPXFilesAreAnErrorWithoutTheLenientHint() throws {
        let document = """
            <?xml version="1.0"?>
            <gpx version="1.1"><trk><trkseg>
            <trkpt lat="49.45" lon="11.07"><time>2025-11-29T07:00:00Z</time></trkpt>
            <trkpt lat="49.4501" lon="11.07"><time>2025-11-29T07:00:01Z</time></trkpt>
            </trkseg></trk></gpx>

            """
        let path = try Tool.temporaryFile("joined.gpx", contents: document + document)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for lenient in [false, true] {
            let result = try Tool.run(["process", path] + (lenient ? ["--lenient"] : []))
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains(":6:1 (byte "), "\(result.stderr)")
            #expect(result.stderr.contains("split the input into one file per document"), "\(result.stderr)")
            #expect(!result.stderr.contains("--lenient"), "\(result.stderr)")
        }
    }

    /// A CSV read with `--format gpx` is no GPX "ending early" (a tester was told the input ended before its root
    /// element), and an empty GPX read leniently is only empty (it was also said to be cut, "whatever followed is
    /// missing").
    @Test func aFileWithoutGPXIsNotCalledTruncated() throws {
        let csv = try Tool.temporaryFile("not.csv", contents: "time,latitude,longitude\n1700000000,49,11\n")
        let empty = try Tool.temporaryFile("empty.gpx", contents: "")
        defer {
            try? FileManager.default.removeItem(atPath: csv)
            try? FileManager.default.removeItem(atPath: empty)
        }
        let wrong = try Tool.run(["process", csv, "--format", "gpx"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("is --format right?") && !wrong.stderr.contains("ends early"), "\(wrong.stderr)")
        let lenient = try Tool.run(["process", empty, "--lenient"])
        #expect(lenient.status == 1 && lenient.stderr.contains("the input is empty"), "\(lenient.stderr)")
        #expect(!lenient.stderr.contains("whatever followed is missing"), "\(lenient.stderr)")
    }

    /// A course column written as a math angle (counter-clockwise from east) is left out with a warning, and the
    /// drive counts as with its right course (the GSDC Pixel 4 drive so written counted 3 % of its distance).
    @Test func warnsOfACourseColumnPointingElsewhere() throws {
        func drive(count: Int = 300, _ course: (Double, Int) -> Double) -> String {
            var text = "time,latitude,longitude,accuracy,speed,course\n"
            var east = 0.0, north = 0.0, heading = 90.0
            for i in 0..<count {
                text += "\(1_700_000_000 + i),\(49 + north / 111_209.7),\(11 + east / 73_171.8),5,12,"
                text += "\((course(heading, i) + 360).truncatingRemainder(dividingBy: 360))\n"
                east += 12 * sin(heading * .pi / 180)
                north += 12 * cos(heading * .pi / 180)
                if i % 20 == 19 { heading += i % 40 == 19 ? -90 : 90 }
            }
            return text
        }
        let right = try Tool.temporaryFile("course-right.csv", contents: drive { h, _ in h })
        let math = try Tool.temporaryFile("course-math.csv", contents: drive { h, _ in 90 - h })
        // Wrong for the first half only (a logger that switched its source): said too.
        let half = try Tool.temporaryFile("course-half.csv", contents: drive { h, i in i < 150 ? h + 180 : h })
        defer { for path in [right, math, half] { try? FileManager.default.removeItem(atPath: path) } }
        func distance(_ result: Tool.Result) throws -> Double {
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return try #require(json?["distanceMetres"] as? Double)
        }
        let good = try Tool.run(["process", right, "--profile", "driving", "--json"])
        let wrong = try Tool.run(["process", math, "--profile", "driving", "--json"])
        #expect(!good.stderr.contains("course column"), "\(good.stderr)")
        #expect(wrong.stderr.contains("the course column of \(math) does not point where its fixes travel ("))
        let halfWrong = try Tool.run(["process", half, "--profile", "driving", "--json"])
        #expect(
            halfWrong.stderr.contains("the course column of \(half) does not point where its fixes travel for a while"),
            "\(halfWrong.stderr)")
        let a = try distance(good), b = try distance(wrong)
        #expect(abs(b - a) < 0.005 * a, "\(b) m against \(a) m")
        // A right column wrong for a moment (20 of 3,000 fixes): 20 courses left out, under 1 % of the fixes, not a
        // column to warn of (a smoother tester's 10 Hz drive of 1.2 M fixes was told its courses were radians).
        let moment = try Tool.temporaryFile(
            "course-moment.csv", contents: drive(count: 3000) { h, i in (700..<720).contains(i) ? h + 180 : h })
        defer { try? FileManager.default.removeItem(atPath: moment) }
        let brief = try Tool.run(["process", moment, "--profile", "driving"])
        #expect(brief.status == 0 && !brief.stderr.contains("course column"), "\(brief.stderr)")
    }

    /// More than a tenth of the fixes refused for their accuracy (an accuracy column ×10: a walk lost 95 % of its
    /// distance without a word, a column-mangling tester) is said; a walk whose fixes pass is not warned.
    @Test func warnsWhenManyFixesAreRefusedForTheirAccuracy() throws {
        func walk(_ accuracy: (Int) -> Double) -> String {
            var text = "time,latitude,longitude,accuracy,speed\n"
            for i in 0..<60 {
                text += "\(1_700_000_000 + i),\(49 + 1.4 * Double(i) / 111_209.7),11,\(accuracy(i)),1.4\n"
            }
            return text
        }
        let coarse = try Tool.temporaryFile("coarse.csv", contents: walk { $0 % 5 == 0 ? 25 : 45 })
        let fine = try Tool.temporaryFile("fine.csv", contents: walk { _ in 4.5 })
        defer { for path in [coarse, fine] { try? FileManager.default.removeItem(atPath: path) } }
        let warned = try Tool.run(["process", coarse])
        #expect(warned.stderr.contains("48 of 60 fixes of \(coarse) (80 %) were rejected for their accuracy"))
        let quiet = try Tool.run(["process", fine])
        #expect(!quiet.stderr.contains("rejected for their accuracy"), "\(quiet.stderr)")
    }

    /// A temporary CSV file `name` of a 30-fix walk north at 1.4 m/s from 49° N, 11° E, one fix a second: `header`,
    /// then a row per fix from `row(time, index, latitude)` (Unix seconds, 0…29, the latitude as text).
    static func walkFile(_ name: String, header: String, row: (Int, Int, String) -> String) throws -> String {
        var text = header + "\n"
        for i in 0..<30 { text += row(1_700_000_000 + i, i, "\(49 + 1.4 * Double(i) / 111_132)") + "\n" }
        return try Tool.temporaryFile(name, contents: text)
    }

    /// More damaged records than the five listed: the rest are counted (a tester's 50,000 bad rows showed five).
    @Test func countsTheDamagedRecordsNotListed() throws {
        let path = try Self.walkFile("bad-latitudes.csv", header: "time,latitude,longitude,accuracy,speed") {
            "\($0),\($1 % 3 == 0 ? "x" : $2),11,5,1.4"
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["process", path, "--lenient"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "  skipped: ").count - 1 == 5, "\(result.stderr)")
        #expect(result.stderr.contains("… and 5 more damaged records skipped"), "\(result.stderr)")
    }

    /// Read with `--lenient`, a fix whose optional field cannot be read (a speed `x`) is kept without it, with its
    /// position and time, and the field is named: the tester's reads dropped whole fixes for one bad speed, and
    /// the strict read's hint says so.
    @Test func keepsAFixWhoseSpeedCannotBeReadWhenLenient() throws {
        let path = try Self.walkFile("bad-speeds.csv", header: "time,latitude,longitude,accuracy,speed") {
            "\($0),\($2),11,5,\($1 % 3 == 0 ? "x" : "1.4")"
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["process", path, "--lenient", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let fixes = try #require(summary["fixes"] as? [String: Any])
        #expect(fixes["read"] as? Int == 30 && summary["fieldsReadAsMissing"] as? Int == 10, "\(result.stdout)")
        #expect(summary["skippedRecords"] as? Int == 0)
        #expect(result.stderr.contains("10 unreadable fields of \(path) read as missing"), "\(result.stderr)")
        #expect(result.stderr.contains("read as missing: \(path):2:"), "\(result.stderr)")
        #expect(result.stderr.contains("… and 5 more read as missing"), "\(result.stderr)")
        // `stops --json` counts them too (a docs tester found the key in `process` and `info` only).
        let stops = try Tool.run(["stops", path, "--lenient", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stops.stdout.utf8)) as? [String: Any])
        #expect(report["fieldsReadAsMissing"] as? Int == 10, "\(stops.stdout)")
        let strict = try Tool.run(["process", path])
        #expect(strict.status == 1 && strict.stderr.contains("unreadable speed, accuracy"), "\(strict.stderr)")
        // A value out of range is skipped with its fix whatever the option: the hint promises no more.
        let range = try Self.walkFile("bad-latitude.csv", header: "time,latitude,longitude,accuracy") {
            "\($0),\($1 == 7 ? "95" : $2),11,5"
        }
        defer { try? FileManager.default.removeItem(atPath: range) }
        let outOfRange = try Tool.run(["process", range])
        #expect(outOfRange.status == 1 && outOfRange.stderr.contains("--lenient skips such records and reads on"))
        #expect(!outOfRange.stderr.contains("read as missing"), "\(outOfRange.stderr)")
    }

    /// An altitude written as `nan` (a program's "no value") is read as missing in a strict read too, and `info` and
    /// `process` count it with the fields read as missing and name it: it was dropped without a word.
    @Test func countsAnAltitudeThatIsNoFiniteNumber() throws {
        let path = try Self.walkFile("nan-altitudes.csv", header: "time,latitude,longitude,accuracy,altitude") {
            "\($0),\($2),11,5,\($1 % 10 == 3 ? "nan" : "100")"
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let info = try Tool.run(["info", "--json", path])
        #expect(info.status == 0, "\(info.stderr)")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])
        let missing = try #require(reports.first?["fieldsReadAsMissing"] as? [String])
        #expect(missing.count == 3 && missing.first?.contains("\(path):5:") == true, "\(missing)")
        let process = try Tool.run(["process", path, "--json"])
        #expect(process.status == 0, "\(process.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(process.stdout.utf8)) as? [String: Any])
        #expect(summary["fieldsReadAsMissing"] as? Int == 3, "\(process.stdout)")
        #expect(process.stderr.contains("3 unreadable fields of \(path) read as missing: "), "\(process.stderr)")
    }

    /// The records skipped, by reason: a CSV whose rows lack a latitude said only "skipped records: 3" (a tester;
    /// `info` gave the reason).
    @Test func namesWhySkippedRecordsWereSkipped() throws {
        let path = try Self.walkFile("no-latitude.csv", header: "time,latitude,longitude,accuracy") {
            "\($0),\($1 % 10 == 5 ? "" : $2),11,5"
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try Self.summary([path])
        #expect(summary["skippedRecords"] as? Int == 3)
        #expect(summary["skippedByReason"] as? [String: Int] == ["missingPosition": 3], "\(summary)")
        let result = try Tool.run(["process", path])
        #expect(result.stdout.contains("skipped records: 3 (missingPosition 3)"), "\(result.stdout)")
    }

    /// With `--smooth` the summary says how much of the distance comes from measuring it on the white-part track
    /// rather than the track `--out` writes (a tester found a walk's written track 74 m against 127.5 m reported).
    /// `--smooth --estimate-noise` adds `noise` to the summary; a track too short to estimate it from (11 fixes)
    /// dropped the key without a word (a smoother tester's): a warning says the profile's noise was used.
    @Test func estimatingTheNoiseOfATooShortTrackIsSaid() throws {
        let lines = try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n")
        let short = try Tool.temporaryFile("short.csv", contents: lines.prefix(12).joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: short) }
        let few = try Tool.run(["process", short, "--smooth", "--estimate-noise", "--json"])
        #expect(few.status == 0, "\(few.stderr)")
        #expect(few.stderr.contains("was not estimated (--estimate-noise): the smoother needs 30 fix times or more"))
        #expect(!few.stdout.contains("\"noise\""))
        let whole = try Tool.run(["process", Tool.demo, "--smooth", "--estimate-noise", "--json"])
        #expect(whole.stdout.contains("\"noise\"") && !whole.stderr.contains("not estimated"), "\(whole.stderr)")
    }

    @Test func theSmoothedSummaryGivesTheModelDifference() throws {
        let smoothed = try Self.summary([Tool.demo, "--smooth"])
        let difference = try #require(smoothed["modelDifferenceMetres"] as? Double)
        #expect(difference.isFinite)
        // The part in the distance, and what σ counts: the whole difference, unless trusted speed readings denied
        // the white-part track (their comparison is then in the summary).
        let included = try #require(smoothed["modelDifferenceIncludedMetres"] as? Double)
        let sigma = try #require(smoothed["modelSigmaMetres"] as? Double)
        if included == difference {
            #expect(abs(sigma - abs(difference)) <= 0.001)
        } else {
            #expect(included == 0)
            #expect(smoothed["speedReadingsCheck"] is [String: Any])
        }
        #expect(try Self.summary([Tool.demo])["modelDifferenceMetres"] == nil)
    }

    /// Every fix rejected (accuracy 5,000 m) read as 0 m, exit 0, without a word (a tester): the warning names the
    /// reasons and the gate (whose range said "within 0–30 m", while an accuracy of 0 is refused: a smoother tester).
    @Test func warnsWhenNoFixIsAccepted() throws {
        let path = Tool.temporaryPath("all-coarse.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "time,latitude,longitude,accuracy_m\n"
        for i in 0..<3 { text += "2024-05-01T10:00:\(10 + i * 10)Z,48.13\(70 + i),11.575,5000\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["process", "stops"] {
            let result = try Tool.run([command, path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(
                result.stderr.contains("none of the 3 fixes") && result.stderr.contains("accuracy 3")
                    && result.stderr.contains("accepts an accuracy above 0 m up to 30 m"),
                "\(command): \(result.stderr)")
        }
        let demo = try Tool.run(["process", Tool.demo])
        #expect(!demo.stderr.contains("none of the"), "\(demo.stderr)")
    }

    /// A file written newest first read as 1 accepted fix and 0 m (`stops`: "elapsed 0.0 s", exit 0): the
    /// warning names `convert --sort`, whose output processes like the file in time order.
    @Test func aNewestFirstFileIsSortedByConvertAndThenProcessesLikeTheOriginal() throws {
        let reversed = Tool.temporaryPath("newest-first.csv"), sorted = Tool.temporaryPath("sorted.csv")
        defer { for path in [reversed, sorted] { try? FileManager.default.removeItem(atPath: path) } }
        let lines = try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n")
        let header = lines.firstIndex { $0.hasPrefix("time") || $0.hasPrefix("timestamp") } ?? 0
        let text = (lines[...header] + lines[(header + 1)...].reversed()).joined(separator: "\n") + "\n"
        try text.write(toFile: reversed, atomically: true, encoding: .utf8)
        for command in ["process", "stops"] {
            let result = try Tool.run([command, reversed])
            #expect(result.stderr.contains("convert \(reversed) SORTED.csv --sort"), "\(command): \(result.stderr)")
        }
        // The smoother sorts by time: its distance is not "next to nothing", the forward figures follow the file.
        let smoothed = try Tool.run(["process", reversed, "--smooth"])
        #expect(smoothed.stderr.contains("the smoothed distance takes them in time order"), "\(smoothed.stderr)")
        #expect(!smoothed.stderr.contains("counts next to nothing"))
        #expect(try Tool.run(["convert", reversed, sorted, "--sort"]).status == 0)
        // The demo itself has one fix out of order, which sorting puts back: one more fix accepted, same walk.
        func summary(_ path: String) throws -> (distance: Double, accepted: Int) {
            let json = try JSONSerialization.jsonObject(
                with: Data(try Tool.run(["process", path, "--json"]).stdout.utf8))
            let object = json as? [String: Any] ?? [:]
            let fixes = object["fixes"] as? [String: Any] ?? [:]
            return (object["distanceMetres"] as? Double ?? 0, fixes["accepted"] as? Int ?? 0)
        }
        let (original, fixed) = (try summary(Tool.demo), try summary(sorted))
        #expect(fixed.accepted == original.accepted + 1)
        #expect(abs(fixed.distance - original.distance) < 0.01 * original.distance, "\(fixed) vs \(original)")
    }

    /// `convert --sort` on a GPX whose segments overlap in time: they merge from where they overlap (alternating
    /// points gave one segment per point); a segment later in time than all before still starts its own.
    @Test func sortingAGPXKeepsOnlyTheSegmentBreaksTimeStillShows() throws {
        let path = Tool.temporaryPath("overlapping.gpx")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func point(_ lat: Double, _ time: String) -> String {
            "<trkpt lat=\"\(lat)\" lon=\"11\"><time>2025-01-01T\(time)Z</time></trkpt>"
        }
        var segments: [String] = []
        segments.append((0..<20).map { point(49 + Double($0) * 1e-4, String(format: "10:00:%02d", 2 * $0)) }.joined())
        segments.append(
            (0..<20).map { point(49.1 + Double($0) * 1e-4, String(format: "10:00:%02d", 2 * $0 + 1)) }.joined())
        segments.append(point(49.2, "11:00:00"))
        let gpx =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\"><trk>"
            + segments.map { "<trkseg>\($0)</trkseg>" }.joined() + "</trk></gpx>\n"
        try gpx.write(toFile: path, atomically: true, encoding: .utf8)
        let sorted = try Tool.run(["convert", path, "-", "--to", "gpx", "--sort"])
        #expect(sorted.status == 0)
        #expect(sorted.stdout.components(separatedBy: "<trkseg>").count - 1 == 3)
    }

    /// Fixes of two location providers interleaved (GnssLogger's gps and fused, 12 m apart): the warning names
    /// the mix and `--provider`, not another profile (which read a Pixel 6 walk 4× too long).
    @Test func warnsWhenTheAcceptedFixesMixLocationProviders() throws {
        let path = Tool.temporaryPath("mixed.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "time,latitude,longitude,accuracy_m,provider\n"
        for i in 0..<120 {
            let north = Double(i) * 1.2 + (i % 2 == 0 ? 0 : 12)
            text += "\(1_735_725_600 + i),\(49 + north / 111_200),11.0,5,\(i % 2 == 0 ? "gps" : "fused")\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["process", "stops"] {
            let mixed = try Tool.run([command, path])
            #expect(mixed.status == 0)
            #expect(
                mixed.stderr.contains("several location providers (") && mixed.stderr.contains("--provider gps"),
                "\(command): \(mixed.stderr)")
            #expect(!mixed.stderr.contains("--profile driving"))
            let one = try Tool.run([command, path, "--provider", "gps"])
            #expect(!one.stderr.contains("location providers"), "\(one.stderr)")
        }
        #expect(!(try Tool.run(["process", Tool.demo])).stderr.contains("location providers"))
    }

    /// `--out -` writes the filtered track as CSV to standard output and the summary to standard error (it was
    /// refused: no extension); two outputs on standard output are a usage error, not interleaved text.
    @Test func writesTheTrackToStandardOutputAndRefusesTwoOutputsThere() throws {
        let piped = try Tool.run(["process", Tool.demo, "--out", "-", "--json"])
        #expect(piped.status == 0, "\(piped.stderr)")
        let lines = piped.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("timestamp,latitude,longitude,") == true)
        #expect(lines.count == 555)  // the header and the 554 accepted fixes
        #expect(piped.stderr.contains("\"distanceMetres\""))
        for arguments in [
            ["process", Tool.demo, "--out", "-", "--decisions", "-"],
            ["bench", "--json", "-", "--markdown", "-"],
        ] {
            let both = try Tool.run(arguments)
            #expect(both.status == 2, "\(arguments)")
            #expect(both.stderr.contains("both write to standard output"), "\(arguments): \(both.stderr)")
        }
    }

    @Test func profilesChangeTheAnswer() throws {
        let walking = try #require(try Self.summary([Tool.demo])["distanceMetres"] as? Double)
        let driving = try Self.summary([Tool.demo, "--profile", "driving"])
        #expect(driving["profile"] as? String == "driving")
        #expect(try #require(driving["distanceMetres"] as? Double) != walking)
    }

    @Test func writesTheFilteredTrackInEveryFormat() throws {
        let accepted = try #require((try Self.summary([Tool.demo])["fixes"] as? [String: Any])?["accepted"] as? Int)
        for ext in ["csv", "gpx", "geojson", "jsonl"] {
            let path = Tool.temporaryPath("track.\(ext)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try Tool.run(["process", Tool.demo, "--out", path])
            #expect(result.status == 0, "\(ext): \(result.stderr)")
            if ext == "csv" {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(text.hasPrefix("timestamp,latitude,longitude,"))
                let lines = text.split(separator: "\n")
                #expect(lines.count == accepted + 1)
                #expect(lines[1].hasPrefix("2025-11-29T07:06:40Z,"))
            }
            // Every format reads back with one fix per accepted input fix.
            let info = try Tool.run(["info", "--json", path])
            #expect(info.status == 0, "\(ext): \(info.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])
            #expect(json.first?["fixes"] as? Int == accepted, "\(ext)")
        }
    }

    /// The filtered and smoothed tracks are written to the precision they carry: 7 decimals of a degree
    /// (steps of 1.1 cm at most), two of a metre or metre per second, one of a degree of course. At a Double's 17 digits a
    /// smoothed GPX was larger than the GPX it came from (a tester).
    @Test func writesTheTrackToThePrecisionItCarries() throws {
        for smooth in [false, true] {
            let path = Tool.temporaryPath("precise.csv")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try Tool.run(["process", Tool.demo, "--out", path] + (smooth ? ["--smooth"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
            #expect(rows.count > 500)
            func decimals(_ field: Substring) -> Int { field.split(separator: ".").dropFirst().first?.count ?? 0 }
            for row in rows.dropFirst() {
                let f = row.split(separator: ",", omittingEmptySubsequences: false)
                #expect(decimals(f[1]) <= 7 && decimals(f[2]) <= 7, "\(row)")
                #expect(decimals(f[3]) <= 2 && decimals(f[6]) <= 2 && decimals(f[8]) <= 1, "\(row)")
                if let course = Double(f[8]) { #expect(course >= 0 && course < 360, "\(row)") }
            }
        }
    }

    /// Where the tracker judged the device at rest, the filtered track says speed 0 (its filtered velocity
    /// there is the fixes' wander): processing the written track again took that wander for a Doppler speed,
    /// 608 → 609 → 644 m over three passes. Now each pass stays within a few per cent of the first. (A fix the
    /// net-displacement gate's noise floor holds a second longer before releasing it also says 0: the passes
    /// read 607.9 → 584.0 → 590.9 m, before the floor 607.9 → 597.8 → 613.5 m; the wander written as a speed
    /// made the third +5.9 %, +7.4 % of the walk.)
    @Test func theFilteredTrackSaysSpeedZeroWhereTheDeviceWasAtRest() throws {
        let first = Tool.temporaryPath("pass1.csv"), second = Tool.temporaryPath("pass2.csv")
        let decisions = Tool.temporaryPath("pass1-decisions.csv")
        defer { for p in [first, second, decisions] { try? FileManager.default.removeItem(atPath: p) } }
        let d0 = try #require(
            try Self.summary([Tool.demo, "--out", first, "--decisions", decisions])["distanceMetres"] as? Double)
        // Rows of the track and accepted decisions correspond one to one.
        let track = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n").dropFirst()
        let accepted = try String(contentsOfFile: decisions, encoding: .utf8).split(separator: "\n").dropFirst()
            .filter { $0.contains(",accepted,") }
        #expect(track.count == accepted.count)
        let header = try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n")[0].split(separator: ",")
        let speedColumn = try #require(header.firstIndex(of: "speed_mps"))
        // The demo's fixes whose speed reads -1 (iOS: none): the track writes no speed for them (2026-12-07).
        let unread = Set(
            try String(contentsOfFile: Tool.demo, encoding: .utf8).split(separator: "\n").filter {
                $0.contains(",-1.00,")
            }.map { String($0.prefix(20)) })
        var atRest = 0
        for (row, decision) in zip(track, accepted)
        where decision.contains(",deadband,") || decision.contains(",netDisplacement,") {
            atRest += 1
            let speed = row.split(separator: ",", omittingEmptySubsequences: false)[speedColumn]
            if unread.contains(String(row.prefix(20))) {
                #expect(speed.isEmpty, "\(row)")
            } else {
                #expect(Double(speed) == 0, "\(row)")
            }
        }
        #expect(atRest > 100)  // the demo walk's stops
        let d1 = try #require(try Self.summary([first, "--out", second])["distanceMetres"] as? Double)
        let d2 = try #require(try Self.summary([second])["distanceMetres"] as? Double)
        // Each pass reads the walk (599.6 m, its truth file) within 5 %: 599.9 → 605.5 → 604.9 m (2026-12-07; with
        // the filter's speed written for the fixes that read none, 599.9 → 594.7 → 590.6).
        for d in [d0, d1, d2] { #expect(abs(d - 599.6) / 599.6 < 0.05, "\(d0) → \(d1) → \(d2)") }
    }

    /// The track writes the filter's accuracy, speed and course only for the fixes that carried them: a sparse
    /// hike without either (a tester's korita-zbevnica, a fix every 11–60 s: 5,437.6 m) got the filter's speeds,
    /// which a second `process` integrated as readings over at most 10 s a step, and the assumed 30 m accuracy
    /// written as if stated, which its net-displacement gate took at its word: 2,512.5 m; now 5,439.3 m.
    @Test func aTrackFromFixesWithoutSpeedOrAccuracyReadsBackToItsDistance() throws {
        // A walk at 1.2 m/s logged every 20 s, 3 m of noise, no accuracy and no speed; heading changing slowly.
        var rows = ["time,latitude,longitude"]
        var east = 0.0, north = 0.0, heading = 0.0
        var noise = SeededNoise(seed: 11)
        for i in 0..<180 {
            heading += 0.3 * (2 * noise.uniform() - 1)
            east += 24 * cos(heading)
            north += 24 * sin(heading)
            let x = east + 3 * (2 * noise.uniform() - 1), y = north + 3 * (2 * noise.uniform() - 1)
            rows.append("\(1_700_000_000 + 20 * i),\(46 + y / 111_132),\(14 + x / 77_400)")
        }
        let input = try Tool.temporaryFile("sparse-hike.csv", contents: rows.joined(separator: "\n") + "\n")
        let track = Tool.temporaryPath("sparse-hike-track.csv")
        defer { for p in [input, track] { try? FileManager.default.removeItem(atPath: p) } }
        let first = try #require(try Self.summary([input, "--out", track])["distanceMetres"] as? Double)
        let lines = try String(contentsOfFile: track, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        for name in ["accuracy_m", "speed_mps", "course_deg"] {
            let column = try #require(header.firstIndex(of: name))
            #expect(
                lines.dropFirst().allSatisfy {
                    $0.split(separator: ",", omittingEmptySubsequences: false)[column].isEmpty
                },
                "\(name) written for fixes that carried none")
        }
        let second = try #require(try Self.summary([track])["distanceMetres"] as? Double)
        #expect(first > 0.8 * 24 * 179)
        #expect(abs(second / first - 1) < 0.02, "\(first) m → \(second) m")
    }

    /// The tester's hike itself: 5,437.6 m, read back 2,512.5 m before, 5,439.3 m now.
    @Test(.enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
    func theSparseHikesTrackReadsBackToItsDistance() throws {
        let track = Tool.temporaryPath("korita-track.gpx")
        defer { try? FileManager.default.removeItem(atPath: track) }
        let first = try #require(
            try Self.summary([SharedDatasets.path("gpx-devices/korita-zbevnica.gpx"), "--out", track])["distanceMetres"]
                as? Double)
        let second = try #require(try Self.summary([track])["distanceMetres"] as? Double)
        #expect(abs(second / first - 1) < 0.02, "\(first) m → \(second) m")
    }

    /// A GPX whose logger wrote its positions as waypoints read as "no fixes … is --format right?": the error
    /// now says what the file holds, and --gpx-waypoints reads them.
    @Test func aWaypointOnlyGPXSaysSoAndReadsWithGPXWaypoints() throws {
        let path = Tool.temporaryPath("waypoints.gpx")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        for i in 0..<30 {
            text +=
                "<wpt lat=\"46.\(4000 + i * 3)\" lon=\"13.8\"><time>2025-06-01T10:00:\(String(format: "%02d", i))Z</time></wpt>\n"
        }
        try (text + "</gpx>\n").write(toFile: path, atomically: true, encoding: .utf8)
        let plain = try Tool.run(["process", path])
        #expect(plain.status == 1)
        #expect(
            plain.stderr.contains("only 30 waypoints") && plain.stderr.contains("--gpx-waypoints"), "\(plain.stderr)")
        let s = try Self.summary([path, "--gpx-waypoints"])
        #expect((s["fixes"] as? [String: Any])?["read"] as? Int == 30)
        // Track points without times beside one waypoint: the missing times are the story, not the waypoint.
        let untimed = Tool.temporaryPath("untimed.gpx")
        defer { try? FileManager.default.removeItem(atPath: untimed) }
        let gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
            + "<wpt lat=\"46.4\" lon=\"13.8\"/><trk><trkseg><trkpt lat=\"46.4\" lon=\"13.8\"/>"
            + "<trkpt lat=\"46.41\" lon=\"13.8\"/></trkseg></trk></gpx>\n"
        try gpx.write(toFile: untimed, atomically: true, encoding: .utf8)
        let result = try Tool.run(["process", untimed])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("waypoint") && result.stderr.contains("missingTime"), "\(result.stderr)")
    }

    /// A CSV of `header` (it starts `time,lat,lon,`) and 20 rows a second apart going north, each ending in `rest`:
    /// the files of the column tests.
    private static func twentyRows(header: String, rest: String) -> String {
        var text = header + "\n"
        for i in 0..<20 { text += "2025-06-01T10:00:\(String(format: "%02d", i))Z,46.\(4000 + i * 3),13.8,\(rest)\n" }
        return text
    }

    /// An accuracy in feet was left unread without a word (`info` showed its share 0 %): the columns that look
    /// like such a measurement are named; other unknown columns stay silent. A speed in km/h is read in it
    /// (2026-12-01), so the speed columns after it repeat its quantity.
    @Test func namesMeasurementColumnsItDoesNotRead() throws {
        let path = Tool.temporaryPath("units.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = Self.twentyRows(
            header: "time,lat,lon,speed_kmh,accuracy_ft,battery,note,acc_x,elevation_gain,speed,speed_mps",
            rest: "5,10,80,x,0.1,3,1,1")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["process", "stops", "info"] {
            let result = try Tool.run([command, path])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("column 'accuracy_ft' not read"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("battery") && !result.stderr.contains("'note'"))
            // Accelerometer axes and an elevation gain are not measurements in the wrong unit; a second speed
            // column is named as a repeat.
            #expect(!result.stderr.contains("acc_x") && !result.stderr.contains("elevation_gain"))
            #expect(
                result.stderr.contains("columns 'speed', 'speed_mps' not read: they repeat the quantity of an earlier"))
        }
        #expect(!(try Tool.run(["process", Tool.demo])).stderr.contains("not read"))
        // A speed in feet per second is named with the option that reads a column under another name.
        let feet = Tool.temporaryPath("feet.csv")
        defer { try? FileManager.default.removeItem(atPath: feet) }
        try "time,lat,lon,speed (ft/s)\n2024-05-01T06:00:00Z,48.1,11.5,4\n".write(
            toFile: feet, atomically: true, encoding: .utf8)
        let named = try Tool.run(["process", feet])
        #expect(
            named.stderr.contains("--column 'speed (ft/s)=speed_kmh' for a speed in km/h, speed_mph or speed_knots"),
            "\(named.stderr)")
        // A second time column (GPSLogger's `timestamp_ms` beside its `time`) is named by `info`, not warned of.
        let gpsLogger = Tool.temporaryPath("gpslogger.csv")
        defer { try? FileManager.default.removeItem(atPath: gpsLogger) }
        try "time,lat,lon,accuracy,speed,timestamp_ms\n2024-05-01T06:00:00.123Z,48.1,11.5,4.0,1.4,1714543200123\n"
            .write(toFile: gpsLogger, atomically: true, encoding: .utf8)
        let run = try Tool.run(["process", gpsLogger])
        #expect(run.status == 0 && !run.stderr.contains("timestamp_ms"), "\(run.stderr)")
        // A Timeline of semanticSegments alone says what is read, not "a planned route?".
        let timeline = Tool.temporaryPath("Timeline.json")
        defer { try? FileManager.default.removeItem(atPath: timeline) }
        try #"{"semanticSegments":[{"startTime":"2024-04-01T08:00:00.000+02:00","visit":{}}]}"#.write(
            toFile: timeline, atomically: true, encoding: .utf8)
        let segments = try Tool.run(["process", timeline])
        #expect(segments.status != 0 && segments.stderr.contains("semanticSegments"), "\(segments.stderr)")
        #expect(!segments.stderr.contains("planned route"))
        // An iPhone's Timeline export and Takeout's Semantic Location History are named as what they are (both were
        // "a planned route?").
        for (name, text) in [
            (
                "location-history.json",
                #"[{"startTime":"2024-05-01T10:00:00.000+02:00","endTime":"2024-05-01T10:30:00.000+02:00","timelinePath":[{"point":"geo:48.100000,11.500000","durationMinutesOffsetFromStartTime":"0"}]}]"#
            ),
            (
                "2024_MAY.json",
                #"{"timelineObjects":[{"activitySegment":{"duration":{"startTimestamp":"2024-05-01T08:00:00Z"}}}]}"#
            ),
        ] {
            let path = Tool.temporaryPath(name)
            defer { try? FileManager.default.removeItem(atPath: path) }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try Tool.run(["process", path])
            #expect(run.status != 0 && run.stderr.contains("Google's inferred visits and paths"), "\(run.stderr)")
            #expect(!run.stderr.contains("planned route"), "\(run.stderr)")
        }
    }

    /// The README opens with `make demo`'s summary; a new user's first run printed 599.9 m where it showed 621.5 m
    /// (a docs tester's): its lines are the tool's, as printed.
    @Test func theReadmesDemoSummaryIsWhatTheToolPrints() throws {
        let readme = try String(
            contentsOf: Tool.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("datasets/demo/walk-with-noise.csv (") })
        let shown = lines[start..<(start + 5)].map(String.init)
        let result = try Tool.run(["process", Tool.demo])
        #expect(result.status == 0)
        let printed = result.stdout.replacingOccurrences(of: Tool.demo, with: "datasets/demo/walk-with-noise.csv")
            .split(separator: "\n").prefix(5).map(String.init)
        #expect(printed == shown)
    }

    /// A `heading` column (a formats tester's) was left unread without a word: it may be a compass's, so it is
    /// named with the `--column` that reads it as the course, and read once that is given.
    @Test func namesAHeadingColumnAndReadsItAsTheCourseWhenTold() throws {
        let path = Tool.temporaryPath("heading.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = Self.twentyRows(header: "time,lat,lon,hdop,heading,speed", rest: "1.2,0,1.3")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Tool.run(["process", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("column 'heading' not read") && result.stderr.contains("--column 'heading=course'"))
        #expect(!result.stderr.contains("'hdop'"))
        let told = try Tool.run(["process", path, "--column", "heading=course"])
        #expect(told.status == 0 && !told.stderr.contains("not read"), "\(told.stderr)")
        // Beside a course column it is not missed (the advice would replace the course).
        try text.replacingOccurrences(of: "hdop,heading,speed", with: "course,heading,speed")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!(try Tool.run(["process", path])).stderr.contains("'heading'"))
    }

    /// An `acc` column (a CLI tester's) was left unread without a word, in a file no other column gives the accuracy
    /// of: it is named with the `--column` that reads it as the accuracy (it is read only when named: sensor logs
    /// give an accelerometer's reading that name), and `info` says the same. Beside an accuracy column it is not
    /// missed.
    @Test("names an unread acc column when no column gives the accuracy")
    func namesAnUnreadAccColumn() throws {
        let path = Tool.temporaryPath("acc.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = Self.twentyRows(header: "time,lat,lon,acc,speed", rest: "6,1.3")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for command in ["process", "info"] {
            let result = try Tool.run([command, path])
            #expect(result.stderr.contains("column 'acc' not read"), "\(command): \(result.stderr)")
            #expect(result.stderr.contains("--column 'acc=accuracy_m'"), "\(command): \(result.stderr)")
        }
        let told = try Tool.run(["process", path, "--column", "acc=accuracy_m"])
        #expect(told.status == 0 && !told.stderr.contains("not read"), "\(told.stderr)")
        try text.replacingOccurrences(of: "acc,speed", with: "acc,accuracy,speed")
            .replacingOccurrences(of: ",6,1.3", with: ",9.81,6,1.3")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!(try Tool.run(["process", path])).stderr.contains("'acc'"))
        // Nor beside an HDOP column, which gives the accuracy (the advice would replace it with 9.81 m; a reviewer's).
        try text.replacingOccurrences(of: "acc,speed", with: "acc,hdop,speed")
            .replacingOccurrences(of: ",6,1.3", with: ",9.81,1.2,1.3")
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!(try Tool.run(["process", path])).stderr.contains("'acc'"))
    }

    /// A walk, an hour's pause, a walk 2 km away, as two GPX segments: `convert` and `process --out` (forward
    /// and smoothed) wrote one segment, a straight line across the pause. The break is kept: the reader's
    /// segment in `convert`, the filter's restart in `process`, the smoother's split with `--smooth`.
    @Test func gpxSegmentBreaksSurviveConvertAndProcess() throws {
        let path = Tool.temporaryPath("two-segments.gpx")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for i in 0..<60 {
            gpx +=
                "<trkpt lat=\"46.\(400_000 + i * 12)\" lon=\"13.8\"><time>2025-06-01T10:00:\(String(format: "%02d", i))Z</time></trkpt>\n"
        }
        gpx += "</trkseg><trkseg>\n"
        for i in 0..<60 {
            gpx +=
                "<trkpt lat=\"46.\(420_000 + i * 12)\" lon=\"13.8\"><time>2025-06-01T11:00:\(String(format: "%02d", i))Z</time></trkpt>\n"
        }
        try (gpx + "</trkseg></trk></gpx>\n").write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [["convert", path], ["process", path, "--out"], ["process", path, "--smooth", "--out"]] {
            let out = Tool.temporaryPath("segments-out.gpx")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let result = try Tool.run(arguments + [out])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let written = try String(contentsOfFile: out, encoding: .utf8)
            #expect(written.components(separatedBy: "<trkseg>").count - 1 == 2, "\(arguments)")
        }
        // Without a gap, one segment.
        let demo = Tool.temporaryPath("demo-one-segment.gpx")
        defer { try? FileManager.default.removeItem(atPath: demo) }
        #expect(try Tool.run(["process", Tool.demo, "--out", demo]).status == 0)
        #expect(try String(contentsOfFile: demo, encoding: .utf8).components(separatedBy: "<trkseg>").count - 1 == 1)
    }

    @Test func writesOneDecisionRowPerInputFix() throws {
        let path = Tool.temporaryPath("decisions.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["process", Tool.demo, "--decisions", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 561)
        #expect(lines[0].hasPrefix("timestamp,latitude,longitude,decision,reason,"))
        let columns = lines[0].split(separator: ",", omittingEmptySubsequences: false).count
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == columns })
        #expect(lines.filter { $0.contains(",rejected,duplicate,") }.count == 1)
        #expect(lines.filter { $0.contains(",rejected,outOfOrder,") }.count == 1)
        // The first fix anchors the filter.
        #expect(lines[1].contains(",accepted,,") && lines[1].contains(",anchor,"))
    }

    @Test func rejectsBadOptionsWithExitTwo() throws {
        for arguments in [
            ["process"], ["process", Tool.demo, "--profile", "flying"],
            ["process", Tool.demo, "--out", "track.xyz"], ["process", Tool.demo, Tool.demo, "--out", "track.csv"],
        ] {
            let result = try Tool.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty && !result.stderr.isEmpty, "\(arguments)")
        }
        #expect(try Tool.run(["process", "/nonexistent/walk.csv"]).status == 1)
    }

    @Test(.enabled(if: SharedDatasets.available, "recorded data sets not found"))
    func countsNothingOnAStillReceiverAndTheDriveWithinPointTwoPercent() throws {
        let still = try Self.summary([SharedDatasets.path("gpsd-nmea/ublox-8.log"), "--lenient"])
        #expect(still["distanceMetres"] as? Double == 0)
        #expect((still["rawPathMetres"] as? Double ?? 0) > 15)
        let drive = try Self.summary([
            SharedDatasets.path("gsdc2020-mtv1/Pixel4_chipset.nmea"), "--profile", "driving",
            "--hdop-scale", "accuracy10",
        ])
        let metres = try #require(drive["distanceMetres"] as? Double)
        #expect(abs(metres - 40137.1) / 40137.1 < 0.002)
    }

    /// A speed column in km/h read as m/s is named (the check distrusts it and the distance comes from the
    /// positions).
    @Test func namesASpeedColumnInAnotherUnit() throws {
        var csv = "time,latitude,longitude,accuracy,speed\n"
        for i in 0..<600 { csv += "\(1_767_261_600 + i),\(47 + Double(i) * 1.4 / 111_132),8.0,4,5.04\n" }
        let walk = try Tool.temporaryFile("kmh-walk.csv", contents: csv)
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let kmh = try Tool.run(["process", walk])
        #expect(kmh.stderr.contains("reads 3.60 × the speed its positions move at"), "\(kmh.stderr)")
        #expect(!kmh.stderr.contains("counted from it"), "\(kmh.stderr)")
        // A knots column is trusted for the walk's first 23 s (1.94 × is within the window's check until the
        // positions show it): the warning says what it counted by then (a tester's was told "the distance comes
        // from the positions"), as the summary's Doppler part does.
        let knotsWalk = try Tool.temporaryFile(
            "knots-walk.csv", contents: csv.replacingOccurrences(of: ",5.04\n", with: ",2.72\n"))
        defer { try? FileManager.default.removeItem(atPath: knotsWalk) }
        let summary = try Self.summary([knotsWalk])
        let doppler = try #require((summary["distanceBySourceMetres"] as? [String: Any])?["doppler"] as? Double)
        #expect(doppler > 10, "\(summary)")
        let said =
            "but for the \(String(format: "%.1f", doppler)) m counted from it before the positions showed it wrong"
        #expect((summary["warnings"] as? [String] ?? []).contains { $0.contains(said) }, "\(summary)")
    }

    /// A walk whose first half carries `+02:00` and whose second half carries no zone (a CLI tester's): read as UTC,
    /// the halves lie two hours apart, a 7,201 s stop in the gap, and nothing said why. Now a warning names the
    /// first line of each kind and `--time-zone`, which silences it (and joins the halves).
    @Test("warns of times written with a zone and without one")
    func warnsOfMixedZones() throws {
        var csv = "time,latitude,longitude,accuracy_m,speed_mps\n"
        for i in 0..<60 {
            let time = String(format: "2025-05-01T12:00:%02d", i) + (i < 30 ? "+02:00" : "")
            csv += "\(time),49.0,\(11 + Double(i) * 1.4 / (111_320 * 0.656)),5,1.4\n"
        }
        let file = try Tool.temporaryFile("mixed-zones.csv", contents: csv)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let plain = try Self.summary([file])
        let said =
            "some times are written with a zone or UTC offset (the first at line 2) and some without one (the "
            + "first at line 32)"
        #expect((plain["warnings"] as? [String] ?? []).contains { $0.contains(said) }, "\(plain)")
        let info = try Tool.run(["info", file])
        #expect(info.stderr.contains(said), "\(info.stderr)")
        #expect(!(try Tool.run(["info", file, "--time-zone", "Europe/Berlin"]).stderr.contains("some times are")))
        let zoned = try Self.summary([file, "--time-zone", "Europe/Berlin"])
        #expect(!(zoned["warnings"] as? [String] ?? []).contains { $0.contains("some times are written") })
        #expect(zoned["durationSeconds"] as? Double == 59, "\(zoned)")
    }

    /// A column of zeros under a drive is overruled, counted from the positions, and named; the same drive with
    /// its true speeds is not named.
    @Test func namesASpeedColumnOfZerosUnderADrive() throws {
        for (name, reading) in [("zeros", "0"), ("true", "12")] {
            var csv = "time,latitude,longitude,accuracy,speed\n"
            for i in 0..<300 { csv += "\(1_767_261_600 + i),\(47 + Double(i) * 12 / 111_132),8.0,5,\(reading)\n" }
            let drive = try Tool.temporaryFile("\(name)-drive.csv", contents: csv)
            defer { try? FileManager.default.removeItem(atPath: drive) }
            let summary = try Self.summary([drive, "--profile", "driving"])
            let metres = try #require(summary["distanceMetres"] as? Double)
            #expect(abs(metres - 3_588) < 0.05 * 3_588, "\(name): \(metres) m")
            let warnings = summary["warnings"] as? [String] ?? []
            #expect(
                warnings.contains { $0.contains("read still (under 0.3 m/s) while the positions moved") }
                    == (name == "zeros"), "\(name): \(warnings)")
        }
    }

    /// A walk at 1.4 m/s under 3 m of white noise (honest 4.5 m accuracy) whose `speed_mps` column reads 0 on every
    /// fix: no run of it overrules the zeros (a walker's window moves about 4 thresholds, the overrule needs more
    /// all along), so the walk counts nothing, and the warning says why and names the column to ignore. Controls: the
    /// same phone still on a desk, a still phone scattering twice its claim (σ 9 m claiming 4.5 m: a quarter of its
    /// windows twice the threshold, a reviewer's case, whose block means make no progress), the same on the
    /// antimeridian (its block means once averaged raw longitudes across ±180°), and the walk with its true speeds,
    /// are not named; and the advice works (read without the column, the walk counts).
    @Test func namesAZeroSpeedColumnUnderAWalkThatNothingOverruled() throws {
        for kind in ["zeros", "desk", "scatter", "scatter at 180°", "true"] {
            var noise = SeededNoise(seed: 7)
            var csv = "time,latitude,longitude,accuracy_m,speed_mps\n"
            let still = kind == "desk" || kind.hasPrefix("scatter"), sigma = kind.hasPrefix("scatter") ? 9.0 : 3.0
            // (At 180° the fixes straddle the antimeridian: block means of raw longitudes averaged near 0°.)
            let meridian = kind == "scatter at 180°" ? 180.0 : 8.0
            for i in 0..<600 {
                let east = still ? 0 : 1.4 * Double(min(i, 300))
                let north = still ? 0 : 1.4 * Double(max(0, i - 300))
                let e = east + sigma * noise.gaussian(), n = north + sigma * noise.gaussian()
                var longitude = meridian + e / 75_800
                if longitude > 180 { longitude -= 360 }
                csv +=
                    "\(1_767_261_600 + i),\(47 + n / 111_132),\(longitude),4.5,\(kind == "true" ? "1.4" : "0")\n"
            }
            let file = try Tool.temporaryFile("\(kind.prefix(7))-zero-column-walk.csv", contents: csv)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let summary = try Self.summary([file])
            let warnings = summary["warnings"] as? [String] ?? []
            let named = warnings.filter { $0.contains("every speed reading of") }
            #expect(named.count == (kind == "zeros" ? 1 : 0), "\(kind): \(warnings)")
            guard kind == "zeros" else { continue }
            #expect(named[0].contains("`--column speed_mps=ignore`"), "\(named)")
            #expect(summary["distanceMetres"] as? Double == 0, "the zeros held the walk (else the warning is moot)")
            let without = try Self.summary([file, "--column", "speed_mps=ignore"])
            let metres = try #require(without["distanceMetres"] as? Double)
            #expect(metres > 0.8 * 840, "read without the column, the 840 m walk counts: \(metres) m")
            // A GPX takes no `--column`: the advice converts it to CSV first.
            let gpx = Tool.temporaryPath("zero-column-walk.gpx")
            defer { try? FileManager.default.removeItem(atPath: gpx) }
            #expect(try Tool.run(["convert", file, gpx]).status == 0)
            let gpxWarnings = try Self.summary([gpx])["warnings"] as? [String] ?? []
            #expect(
                gpxWarnings.contains {
                    $0.contains("every speed reading of") && $0.contains("`truetrack convert \(gpx) OUT.csv`")
                        && $0.contains("`--column speed_mps=ignore` on OUT.csv")
                }, "\(gpxWarnings)")
        }
    }

    /// The zero-column warning asks for a walker's pace, not an extent: laps of an 80 × 50 m block at 1.4 m/s for 20
    /// minutes under zeros (never 100 m from their start; they count nothing) are named, a still phone under zeros
    /// whose scatter (σ 9 m claiming 4.5 m) drifts away at 0.04 m/s for an hour (144 m) is not (a reviewer's cases:
    /// an extent of 100 m named the drift and missed the laps).
    @Test func theZeroColumnWarningAsksForAPace() throws {
        for kind in ["laps", "drift"] {
            var noise = SeededNoise(seed: 11)
            var csv = "time,latitude,longitude,accuracy_m,speed_mps\n"
            let count = kind == "laps" ? 1_200 : 3_600
            for i in 0..<count {
                var east = 0.0, north = 0.0, sigma = 9.0
                if kind == "laps" {
                    sigma = 3
                    var along = (1.4 * Double(i)).truncatingRemainder(dividingBy: 260)
                    if along < 80 {
                        east = along
                    } else if along < 130 {
                        (east, north) = (80, along - 80)
                    } else if along < 210 {
                        along -= 130
                        (east, north) = (80 - along, 50)
                    } else {
                        north = 50 - (along - 210)
                    }
                } else {
                    east = 0.04 * Double(i)
                }
                let e = east + sigma * noise.gaussian(), n = north + sigma * noise.gaussian()
                csv += "\(1_767_261_600 + i),\(47 + n / 111_132),\(8 + e / 75_800),4.5,0\n"
            }
            let file = try Tool.temporaryFile("\(kind)-zero-column.csv", contents: csv)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let warnings = try Self.summary([file])["warnings"] as? [String] ?? []
            let named = warnings.contains { $0.contains("every speed reading of") }
            #expect(named == (kind == "laps"), "\(kind): \(warnings)")
        }
    }

    /// A consistent receiver (true speeds while it drives) parked with zeros whose fixes slide away at 4 m/s for
    /// 40 s and come back: the tracker overrules the zeros provisionally, then gives the slide up, and the warning
    /// no longer calls those readings a placeholder (it did: "at 1 of its 360 fixes").
    @Test func doesNotNameTheReadingsOfASlideThatCameBack() throws {
        var csv = "time,latitude,longitude,accuracy,speed\n"
        for i in stride(from: 0, to: 1_800, by: 5) {
            let slide = i >= 900 && i < 940 ? 4 * Double(i - 900) : 0
            let north = Double(min(i, 590)) * 12 + slide
            csv += "\(1_767_261_600 + i),\(47 + north / 111_132),8.0,5,\(i < 590 ? 12 : 0)\n"
        }
        let parked = try Tool.temporaryFile("slide-parked.csv", contents: csv)
        defer { try? FileManager.default.removeItem(atPath: parked) }
        let summary = try Self.summary([parked, "--profile", "driving"])
        let metres = try #require(summary["distanceMetres"] as? Double)
        #expect(abs(metres - 7_080) < 0.02 * 7_080, "\(metres) m")
        let warnings = summary["warnings"] as? [String] ?? []
        #expect(!warnings.contains { $0.contains("read still (under 0.3 m/s)") }, "\(warnings)")
    }
}

/// Times a unit or a clock off: the tester's `epoch/` and `dst/` files in small.
@Suite struct TimeUnitAndClockChangeTests {
    /// A walk of `count` fixes 1.4 m apart, one a `step`, its times `time(i)` under the header `column`.
    private static func walk(_ column: String, count: Int = 300, time: (Int) -> String) -> String {
        var text = "\(column),lat,lon\n"
        for i in 0..<count { text += "\(time(i)),\(52.5 + Double(i) * 1.4 / 111_195),13.4\n" }
        return text
    }

    /// Elapsed milliseconds under a bare `time` were read as seconds: 299,000 s and 0 m, with a warning that
    /// distances and speeds did not depend on it.
    @Test("warns that a millisecond column read as seconds is milliseconds, and names --column time=time_ms")
    func warnsOfMillisecondsReadAsSeconds() throws {
        let path = try Tool.temporaryFile("elapsed-ms.csv", contents: Self.walk("time") { "\($0 * 1000)" })
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in ["process", "stops"] {
            let run = try Tool.run([command, path])
            #expect(run.stderr.contains("the time column 'time' was read as seconds (as its first value decided)"))
            #expect(run.stderr.contains("step 1000 s apart"), "\(run.stderr)")
            #expect(run.stderr.contains("1.4 m/s if they are milliseconds"), "\(run.stderr)")
            #expect(run.stderr.contains("'--column time=time_ms'"), "\(run.stderr)")
            #expect(!run.stderr.contains("do not depend on it"), "\(run.stderr)")
        }
        // The option it names reads the walk.
        let fixed = try Tool.run(["process", path, "--column", "time=time_ms", "--json"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stdout.contains("\"durationSeconds\" : 299,"), "\(fixed.stdout)")
        #expect(!fixed.stderr.contains("time column"), "\(fixed.stderr)")
    }

    /// Unix seconds under `timestamp_ms` were read as milliseconds: 0.119 s, 0 m.
    @Test("warns that Unix seconds under a _ms name are seconds, and names --column timestamp_ms=time_s")
    func warnsOfSecondsUnderAMillisecondName() throws {
        let text = Self.walk("timestamp_ms", count: 120) { "\(1_714_564_800 + $0)" }
        let path = try Tool.temporaryFile("seconds-as-ms.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Tool.run(["process", path])
        #expect(run.stderr.contains("'timestamp_ms' was read as milliseconds (as its name says)"), "\(run.stderr)")
        #expect(run.stderr.contains("from 2024-05-01T12:00:00Z as seconds"), "\(run.stderr)")
        #expect(run.stderr.contains("'--column timestamp_ms=time_s'"), "\(run.stderr)")
        #expect(!run.stderr.contains("do not depend on it"), "\(run.stderr)")
        let fixed = try Tool.run(["process", path, "--column", "timestamp_ms=time_s"])
        #expect(fixed.status == 0 && fixed.stderr.isEmpty, "\(fixed.stderr)")
        // Elapsed seconds under `_ms`: moving at 1,400 m/s.
        let elapsed = try Tool.temporaryFile(
            "elapsed-s-as-ms.csv", contents: Self.walk("time_ms", count: 120) { "\($0)" })
        defer { try? FileManager.default.removeItem(atPath: elapsed) }
        let second = try Tool.run(["process", elapsed])
        #expect(second.stderr.contains("step 1 ms apart"), "\(second.stderr)")
        #expect(second.stderr.contains("1.4 m/s if they are seconds"), "\(second.stderr)")
    }

    /// Files read right keep what they said: seconds from the start are dated 1970 and say so; Unix times nothing.
    @Test("says nothing of the unit of times read right")
    func saysNothingOfRightUnits() throws {
        let seconds = try Tool.temporaryFile("elapsed-s.csv", contents: Self.walk("time") { "\($0)" })
        let named = try Tool.temporaryFile("elapsed-ms-named.csv", contents: Self.walk("time_ms") { "\($0 * 1000)" })
        let unix = try Tool.temporaryFile(
            "unix-ms.csv", contents: Self.walk("time") { "\(1_714_564_800_000 + $0 * 1000)" })
        defer { for path in [seconds, named, unix] { try? FileManager.default.removeItem(atPath: path) } }
        for path in [seconds, named] {
            let run = try Tool.run(["process", path])
            #expect(run.stderr.contains("before GPS began (1980)"), "\(run.stderr)")
            #expect(!run.stderr.contains("time column"), "\(run.stderr)")
        }
        #expect(try Tool.run(["process", unix]).stderr.isEmpty)
        // `info` measures no distance: its warning says the unit must be right (it said distances did not depend
        // on it, whatever the unit).
        let info = try Tool.run(["info", seconds])
        #expect(info.stderr.contains("as long as the time unit is right"), "\(info.stderr)")
    }

    /// `date` (2024-10-27, the autumn change in Berlin, unless given) at `seconds` after midnight, without an offset.
    private static func wallClock(_ seconds: Int, on date: String = "2024-10-27") -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date)T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }

    /// Berlin wall-clock times across the autumn change, written without an offset: one step back of 3600 s, then
    /// 1 s steps again. 300 of 600 fixes are rejected as out of order; the warning said "next to nothing" and
    /// suggested --sort, which interleaves the two hours.
    @Test("names a single step back of one hour at the file's cadence as a clock change, and suggests no --sort")
    func namesAClockChange() throws {
        let start = 2 * 3600 + 55 * 60
        let text = Self.walk("time", count: 600) { i in Self.wallClock(start + i - (i >= 300 ? 3600 : 0)) }
        let path = try Tool.temporaryFile("fall-naive-local.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in ["process", "stops"] {
            let run = try Tool.run([command, path])
            #expect(run.stderr.contains("step back once, by 1 h (fix 301 in read order, 02:59:59Z then 02:00:00Z"))
            #expect(run.stderr.contains("go on every 1 s: a clock change"), "\(run.stderr)")
            #expect(run.stderr.contains("300 of 600 fixes (50 %)"), "\(run.stderr)")
            #expect(!run.stderr.contains("--sort"), "\(run.stderr)")
            #expect(!run.stderr.contains("next to nothing"), "\(run.stderr)")
        }
        // `--smooth` leaves those fixes out too, as the warning says: sorted by time, the hour written twice put the
        // second stretch before the first, 1,677.0 m ± 3,364.3 of the 418.6 m walked up to the step (a CLI tester's).
        let smoothed = try Tool.run(["process", path, "--smooth", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(smoothed.stdout.utf8)) as? [String: Any])
        let metres = try #require(json["distanceMetres"] as? Double)
        #expect(abs(metres - 299 * 1.4) < 0.02 * 299 * 1.4, "\(metres) m")
        #expect(smoothed.stderr.contains("the distance, duration and stops leave them out"), "\(smoothed.stderr)")
        // A block delivered late steps back at the cadence too, but its first fix lies where the block began, not one
        // step on from the fix before: no clock change, and `--smooth` takes both blocks in time order (told a clock
        // change, it left out the late block's half: a reviewer's ride, 2,506 m of 6,490).
        let late = Self.walk("time", count: 600) { i in Self.wallClock(start + (i < 300 ? 3600 + i : i)) }
        let reordered = late.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { k, line in
            // (Row k > 0 is fix k - 1; the late block's positions begin the walk, the first block's go on from them.)
            guard k > 0, k <= 600, case let fields = line.split(separator: ","), fields.count == 3 else {
                return String(line)
            }
            let position = k - 1 < 300 ? k - 1 + 300 : k - 1 - 300
            return "\(fields[0]),\(52.5 + Double(position) * 1.4 / 111_195),13.4"
        }.joined(separator: "\n")
        let latePath = try Tool.temporaryFile("late-block.csv", contents: reordered)
        defer { try? FileManager.default.removeItem(atPath: latePath) }
        let lateRun = try Tool.run(["process", latePath, "--smooth", "--json"])
        #expect(!lateRun.stderr.contains("clock change"), "\(lateRun.stderr)")
        let lateJSON = try #require(try JSONSerialization.jsonObject(with: Data(lateRun.stdout.utf8)) as? [String: Any])
        let lateMetres = try #require(lateJSON["distanceMetres"] as? Double)
        #expect(abs(lateMetres - 599 * 1.4) < 0.02 * 599 * 1.4, "\(lateMetres) m")
        // `info`, which runs no tracker, asks the same question (it said "1 backward steps").
        let info = try Tool.run(["info", path])
        #expect(info.stderr.contains("step back once, by 1 h (fix 301 in read order, 02:59:59Z then 02:00:00Z"))
        #expect(info.stderr.contains("go on every 1 s: a clock change"), "\(info.stderr)")
        // A step back that is no clock change (17 min) keeps the general warning, with the share it measured.
        let odd = Self.walk("time", count: 600) { i in Self.wallClock(start + i - (i >= 300 ? 1020 : 0)) }
        let oddPath = try Tool.temporaryFile("step-back.csv", contents: odd)
        defer { try? FileManager.default.removeItem(atPath: oddPath) }
        let run = try Tool.run(["process", oddPath])
        #expect(!run.stderr.contains("clock change"), "\(run.stderr)")
        #expect(run.stderr.contains("only the stretches of the 300 accepted fixes (50 %)"), "\(run.stderr)")
        #expect(run.stderr.contains("--sort"), "\(run.stderr)")
    }

    /// A clock that steps back 90 s and runs on: the 90 fixes after the step repeat times the track had passed and
    /// are rejected as out of order, fewer than a fifth of the file and from no silence (a stops tester's van, its
    /// clock back 120 s as it halted: the stop 79 s of 200 and nothing said). Warned of, with their span; a step back
    /// of 20 s (its fixes span under a minute) is not.
    @Test("warns of fixes whose clock stepped back a minute or more and repeat times already passed")
    func warnsOfAClockThatSteppedBack() throws {
        func time(_ seconds: Int) -> String { Self.wallClock(36_000 + seconds, on: "2024-05-01") + "Z" }
        for (back, warned) in [(90, true), (20, false)] {
            let text = Self.walk("time", count: 600) { i in time(i - (i >= 300 ? back : 0)) }
            let path = try Tool.temporaryFile("clock-back-\(back).csv", contents: text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            for command in ["process", "stops"] {
                let run = try Tool.run([command, path])
                #expect(run.stderr.contains("repeat times the track had already passed") == warned, "\(run.stderr)")
                if warned {
                    #expect(run.stderr.contains("90 fixes of"), "\(run.stderr)")
                    #expect(run.stderr.contains("dated 2024-05-01T10:03:30Z to 2024-05-01T10:04:59Z"), "\(run.stderr)")
                }
            }
        }
    }

    /// The same autumn-change file read with `--time-zone Europe/Berlin`: one track in order (no fix out of order,
    /// no clock-change warning), its span the true 600 s; the warning names the option. The option on a file whose
    /// times state their offset changes nothing, and says so; an unknown zone is a usage error naming the spelling
    /// that differs only in case.
    @Test("reads local times across the autumn change in order with --time-zone")
    func readsLocalTimesWithATimeZone() throws {
        let start = 2 * 3600 + 55 * 60
        let text = Self.walk("time", count: 600) { i in Self.wallClock(start + i - (i >= 300 ? 3600 : 0)) }
        let path = try Tool.temporaryFile("fall-local-zone.csv", contents: text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let plain = try Tool.run(["process", path])
        #expect(plain.stderr.contains("--time-zone Europe/Berlin"), "\(plain.stderr)")
        let run = try Tool.run(["process", path, "--time-zone", "Europe/Berlin", "--json"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let fixes = try #require(json["fixes"] as? [String: Any])
        #expect(fixes["accepted"] as? Int == 600)
        #expect((json["durationSeconds"] as? Double).map { abs($0 - 599) < 0.001 } == true, "\(json)")
        let info = try Tool.run(["info", path, "--time-zone", "Europe/Berlin"])
        #expect(info.stdout.contains("2024-10-27T00:55:00Z → 2024-10-27T01:04:59Z"), "\(info.stdout)")
        #expect(info.stdout.contains("600 written without an offset, read in Europe/Berlin"), "\(info.stdout)")
        // A fixed offset has no summer time: the file still steps back, and the warning says in which offset the
        // times were read (it said "read as UTC") and to give the zone's name instead.
        for command in ["process", "info"] {
            let fixed = try Tool.run([command, path, "--time-zone", "+02:00"])
            #expect(fixed.stderr.contains("00:59:59Z then 00:00:00Z, read in +02:00, shown in UTC)"), "\(fixed.stderr)")
            #expect(fixed.stderr.contains("--time-zone +02:00 is a fixed offset"), "\(fixed.stderr)")
            #expect(!fixed.stderr.contains("read as UTC"), "\(fixed.stderr)")
        }

        let utc = Self.walk("time", count: 10) { i in Self.wallClock(start + i) + "Z" }
        let utcPath = try Tool.temporaryFile("utc-times.csv", contents: utc)
        defer { try? FileManager.default.removeItem(atPath: utcPath) }
        let unchanged = try Tool.run(["process", utcPath, "--time-zone", "+02:00"])
        #expect(unchanged.stderr.contains("--time-zone +02:00 changed no time of"), "\(unchanged.stderr)")
        let wrong = try Tool.run(["process", utcPath, "--time-zone", "europe/berlin"])
        #expect(wrong.status == 2 && wrong.stderr.contains("did you mean Europe/Berlin?"), "\(wrong.stderr)")
    }

    /// Berlin wall-clock times across the spring change, written without an offset: 01:59:59 then 03:00:00, on at
    /// 1 s from where the walk left off. Read as UTC that is an hour of silence (a recording gap in the duration
    /// and the stops) that nothing said. A real hour's silence after which the walker is elsewhere, a step that
    /// is no clock change (47 min), and an hour's step that does not land just after a half hour are not warned of.
    @Test("names a single step forward of one hour onto the hour, the walk going on where it was, as a clock change")
    func namesASpringForwardClockChange() throws {
        func wallClock(_ seconds: Int) -> String {
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "2024-03-31T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
        }
        let start = 3600 + 55 * 60
        func file(_ name: String, skip: Int, at: Int = 300, jumpMetres: Double = 0) throws -> String {
            var text = "time,lat,lon\n"
            for i in 0..<600 {
                let north = Double(i) * 1.4 + (i >= at ? jumpMetres : 0)
                text += "\(wallClock(start + i + (i >= at ? skip : 0))),\(52.5 + north / 111_195),13.4\n"
            }
            return try Tool.temporaryFile(name, contents: text)
        }
        let spring = try file("spring-naive-local.csv", skip: 3600)
        let moved = try file("spring-moved.csv", skip: 3600, jumpMetres: 3000)
        let odd = try file("spring-odd.csv", skip: 2820)
        let offHour = try file("spring-off-hour.csv", skip: 3600, at: 500)
        defer { for path in [spring, moved, odd, offHour] { try? FileManager.default.removeItem(atPath: path) } }
        for command in ["process", "stops", "info"] {
            let run = try Tool.run([command, spring])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stderr.contains("step forward once, by 1 h (fix 301 in read order, 01:59:59Z then 03:00:00Z"),
                "\(run.stderr)")
            #expect(run.stderr.contains("go on every 1 s from where the fixes left off"), "\(run.stderr)")
        }
        for path in [moved, odd, offHour] {
            let run = try Tool.run(["process", path])
            #expect(run.status == 0 && !run.stderr.contains("step forward"), "\(path): \(run.stderr)")
        }
        // A logger every 90 s (a timeline tester's: not warned above 60 s, while the step back was).
        var sparse = "time,lat,lon\n"
        for i in 0..<80 {
            let seconds = 3600 + 90 * i  // 01:00:00 on, 02:00:00 written 03:00:00
            let written = seconds >= 2 * 3600 ? seconds + 3600 : seconds
            sparse += "\(wallClock(written)),\(52.5 + Double(i) * 126 / 111_195),13.4\n"
        }
        // A real hour's pause at one place, 09:59:59 → 11:00:00 on 5 June (a reviewer's parked tracker): no
        // change is made at that hour or in that month.
        let june = Self.walk("time", count: 600) { i in
            let seconds = 9 * 3600 + 55 * 60 + i + (i >= 300 ? 3600 : 0)
            return wallClock(seconds).replacingOccurrences(of: "2024-03-31", with: "2024-06-05") + "Z"
        }
        let juneFile = try Tool.temporaryFile("june-pause.csv", contents: june)
        defer { try? FileManager.default.removeItem(atPath: juneFile) }
        let juneRun = try Tool.run(["process", juneFile])
        #expect(juneRun.status == 0 && !juneRun.stderr.contains("step forward"), "\(juneRun.stderr)")
        // The spring file's shape in Unix milliseconds: UTC by definition, no local time (a reviewer's epoch logs).
        var epoch = "time_ms,lat,lon\n"
        for i in 0..<600 {
            let seconds = 1_711_843_200 + start + i + (i >= 300 ? 3600 : 0)  // 2024-03-31T00:00:00Z + wall clock
            epoch += "\(Int64(seconds) * 1000),\(52.5 + Double(i) * 1.4 / 111_195),13.4\n"
        }
        let epochFile = try Tool.temporaryFile("spring-epoch.csv", contents: epoch)
        defer { try? FileManager.default.removeItem(atPath: epochFile) }
        let epochRun = try Tool.run(["process", epochFile])
        #expect(epochRun.status == 0 && !epochRun.stderr.contains("step forward"), "\(epochRun.stderr)")
        let sparseFile = try Tool.temporaryFile("spring-90s.csv", contents: sparse)
        defer { try? FileManager.default.removeItem(atPath: sparseFile) }
        let sparseRun = try Tool.run(["stops", sparseFile])
        #expect(sparseRun.stderr.contains("step forward once, by 1 h"), "\(sparseRun.stderr)")
    }
}

/// A 0.9 m/s walk north under σ 8 m of white noise per axis, a fix every 3 s for 30 minutes (seeded): time (s since
/// 1970), latitude, longitude.
enum ChordWalk {
    static func fixes() -> [(Int, Double, Double)] {
        var noise = SeededNoise(seed: 42)
        return stride(from: 0, through: 1800, by: 3).map { t in
            let north = 0.9 * Double(t) + 8 * noise.gaussian(), east = 8 * noise.gaussian()
            return (1_700_000_000 + t, 49 + north / 111_132, 11 + east / (111_320 * 0.656))
        }
    }
}
