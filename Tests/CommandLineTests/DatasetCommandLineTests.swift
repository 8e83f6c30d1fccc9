import Foundation
import Testing
import TrueTrackTestSupport

/// The shared recorded data sets, as the CLI sees them (skipped with a reason when absent).
enum SharedDatasets {
    static var root: String? { Datasets.rootPath }
    static var available: Bool { Datasets.available }
    static func path(_ relative: String) -> String { Datasets.path(relative) }
    /// Why the tests that need them are skipped: the folder tried and where it came from.
    static var missingReason: Comment { Datasets.missingReason }
}

@Suite(.enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
struct DatasetCommandLineTests {
    func info(_ relative: String, _ extra: [String] = []) throws -> [String: Any] {
        let result = try Tool.run(["info", "--json", SharedDatasets.path(relative)] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return try #require(json.first)
    }

    @Test func loadsEveryRecordingOfTheManifest() throws {
        let result = try Tool.run(["datasets", "--json", "--datasets", SharedDatasets.root!])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 35)
        for row in rows {
            #expect(row["loads"] as? Bool == true, "\(row["id"] ?? "?")")
            #expect((row["fixes"] as? Int ?? 0) > 0, "\(row["id"] ?? "?")")
        }
        // Unique fixes equal the manifest's count except where the manifest is knowingly different:
        // korita's 358 trackpoints without <time>, and the F9P log whose 655 epochs the manifest's tool
        // under-counted (lines starting with binary noise).
        for row in rows {
            let id = row["id"] as? String ?? ""
            guard let expected = row["manifestFixes"] as? Int,
                ![
                    "gpx-korita-zbevnica", "gpsd-ublox-zed-f9p_hpg1.11",
                    "gsdc2021-pixel4-sample", "gpx-mtk_logger_m241", "gpx-24173415",
                ].contains(id)
            else { continue }
            #expect(row["uniqueFixes"] as? Int == expected, "\(id)")
        }
        let sample = try #require(rows.first { $0["id"] as? String == "gsdc2021-pixel4-sample" })
        // (Its corrupt altitude is read as missing: the fix is kept.)
        #expect((sample["badRecords"] as? [String])?.isEmpty == true)
        let bad = try #require(sample["fieldsReadAsMissing"] as? [String])
        #expect(bad.count == 1)
        #expect(bad.first?.contains("Pixel4_GnssLog.txt:88:33") == true)
        #expect(bad.first?.contains("'altitude'") == true)
        #expect(bad.first?.contains("-29co.199999") == true)
        // The table marks the recordings whose counts differ from the manifest's and says what that means.
        let text = try Tool.run(["datasets", "--datasets", SharedDatasets.root!])
        let korita = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("gpx-korita-zbevnica") })
        #expect(korita.contains("ok ≠"))
        #expect(text.stdout.contains("differ from the manifest's count"))
    }

    @Test func countsTheIPINDuplicatesAndBackwardTimestamps() throws {
        let r = try info("ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition02.txt")
        #expect(r["format"] as? String == "ipin")
        #expect(r["fixes"] as? Int == 406)
        #expect(r["exactDuplicates"] as? Int == 201)
        #expect(r["backwardSteps"] as? Int == 8)
        #expect(abs((r["rawDistanceMetres"] as? Double ?? 0) - 2432.4) < 0.05)
    }

    @Test func reportsMojstrovkasIdenticalTimestamps() throws {
        let r = try info("gpx-devices/Mojstrovka.gpx")
        #expect(r["fixes"] as? Int == 184)
        #expect(r["identicalTimestamps"] as? Int == 183)
        #expect(r["spanSeconds"] as? Double == 0)
        #expect(r["firstTime"] as? String == "1901-12-13T20:45:52.207Z")
    }

    @Test func reportsTheCorruptAltitudeWithItsLineNumber() throws {
        let path = SharedDatasets.path("gnsslogger-samples/Pixel4_GnssLog.txt")
        let strict = try Tool.run(["info", path])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("\(path):88:33"))
        #expect(strict.stderr.contains("field 'altitude'"))
        let lenient = try info("gnsslogger-samples/Pixel4_GnssLog.txt", ["--lenient"])
        #expect(lenient["fixes"] as? Int == 5)
        #expect((lenient["fieldsReadAsMissing"] as? [String])?.first?.contains("\(path):88:33") == true)
    }

    @Test func alignsGSDC2021TruthToUTC() throws {
        let r = try info("gsdc2020-mtv1/ground_truth.csv")
        #expect(r["firstTime"] as? String == "2020-05-14T22:10:45.442Z")  // millisSinceGpsEpoch 1273529463442 − 18 s
        #expect(r["fixes"] as? Int == 1740)
    }

    @Test func sniffsEveryFormatFromContent() throws {
        let cases = [
            "gpx-devices/wahoo-element-bolt.gpx": "gpx", "gpsd-nmea/ublox-8.log": "nmea",
            "gnsslogger-samples/pixel6.nmea": "nmea", "gnsslogger-samples/pixel6.txt": "gnsslogger",
            "geolife-010-mixed/Trajectory/20080402060926.plt": "plt",
            "sensorlogger-pixel6a/20230809_163741/gps.csv": "csv",
            "ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition04.txt": "ipin",
        ]
        for (file, format) in cases {
            #expect(try info(file)["format"] as? String == format, "\(file)")
        }
    }

    @Test func convertsAGnssLoggerLogToGPXKeepingOneProvider() throws {
        let out = Tool.temporaryPath("pixel6-gps.gpx")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try Tool.run([
            "convert", SharedDatasets.path("gnsslogger-samples/pixel6.txt"), out, "--provider", "gps",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("converted 94 fixes"))
        let back = try Tool.run(["info", "--json", out])
        #expect(back.stdout.contains("\"fixes\" : 94,"))
        #expect(back.stdout.contains("\"gps\" : 94"))
    }
}

@Suite(.enabled(if: SharedDatasets.available, SharedDatasets.missingReason))
struct CommandLineGuidanceTests {
    @Test func readsTruthWithWrongChecksumsOnlyWhenAskedAndSaysHow() throws {
        let path = SharedDatasets.path("gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea")
        let strict = try Tool.run(["info", path])
        #expect(strict.stdout.contains("fixes               0"))
        #expect(strict.stderr.contains("--accept-bad-checksums"))
        let accepted = try Tool.run(["info", "--json", "--accept-bad-checksums", path])
        #expect(accepted.status == 0)
        #expect(accepted.stdout.contains("\"fixes\" : 23771,"))
    }

    @Test func warnsWhenTheProfileRejectsADriveAsTooFast() throws {
        let path = SharedDatasets.path("gsdc2020-mtv1/Pixel4_chipset.nmea")
        let walking = try Tool.run(["process", path])
        #expect(walking.status == 0)
        #expect(walking.stderr.contains("--profile driving") && walking.stderr.contains("Pixel4_chipset.nmea"))
        let driving = try Tool.run(["process", "--profile", "driving", path])
        #expect(!driving.stderr.contains("warning"))
    }

    /// The CI tester's v/fmt: `provider=flp` in lower case was ignored (243 fixes of every provider, 4200 m,
    /// instead of FLP's 95 and 631 m), and a misspelt provider failed naming `--provider`, never passed.
    @Test("a manifest's provider is read in any case, and an unknown one is an error naming the entry")
    func readsTheManifestsProviderInAnyCase() throws {
        let root = Tool.temporaryPath("datasets-provider")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let log = SharedDatasets.path("gnsslogger-samples/pixel6.txt")
        let recordings = [
            ["id": "upper", "path": log, "format": "gnsslogger-fix (Provider=FLP)", "activity": "walk"],
            ["id": "lower", "path": log, "format": "gnsslogger (provider=flp)", "activity": "walk"],
            ["id": "typo", "path": log, "format": "gnsslogger (Provider=FPL)", "activity": "walk"],
        ]
        try JSONSerialization.data(withJSONObject: ["recordings": recordings])
            .write(to: URL(fileURLWithPath: root + "/MANIFEST.json"))
        let result = try Tool.run(["datasets", "--datasets", root, "--json"])
        #expect(result.status == 1)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["fixes"] as? Int } == [95, 95, 0])
        let error = try #require(rows[2]["error"] as? String)
        #expect(error.contains("\(root)/MANIFEST.json: recordings[2] (id 'typo').format"), "\(error)")
        #expect(error.contains("unknown provider 'FPL'") && !error.contains("--provider"), "\(error)")
    }

    @Test func refusesAProviderNameItDoesNotKnow() throws {
        let result = try Tool.run(["info", SharedDatasets.path("gnsslogger-samples/pixel6.txt"), "--provider", "bogus"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown provider 'bogus'"))
    }
}
