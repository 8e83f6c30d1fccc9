import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// `$body*hh` with the correct checksum.
func nmeaSentence(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    let hex = String(sum, radix: 16, uppercase: true)
    return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
}

/// Reads NMEA text held in memory.
func readNMEA(
    _ text: String, options: ReadOptions = ReadOptions(),
    checksums: NMEAReader.ChecksumPolicy = .verify
) -> ReadResult {
    readNMEA(bytes: Array(text.utf8), options: options, checksums: checksums)
}

/// Reads NMEA bytes held in memory.
func readNMEA(
    bytes: [UInt8], options: ReadOptions = ReadOptions(),
    checksums: NMEAReader.ChecksumPolicy = .verify
) -> ReadResult {
    var reader = NMEAReader(stream: ByteStream(bytes: bytes), options: options, checksums: checksums)
    return reader.readAll()
}

/// Degrees from NMEA `ddmm.mmmm` parts, computed as the reader does (degrees + minutes / 60).
private func degrees(_ whole: Double, _ minutes: Double, negative: Bool = false) -> Double {
    let value = whole + minutes / 60
    return negative ? -value : value
}

private func time(_ text: String) -> Timestamp { ISO8601.parse(text)! }

/// The timestamps of ISO 8601 `texts`, in order (what a read's `fixes.map(\.timestamp)` is compared with).
private func times(_ texts: String...) -> [Timestamp] { texts.map(time) }

private let knot = 1852.0 / 3600.0

// MARK: - Recorded data sets

@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct NMEAReaderRecordingTests {
    struct Expected: Sendable, CustomStringConvertible {
        var path: String
        var fixes: Int
        var firstTime: String
        var firstLatitude: Double
        var firstLongitude: Double
        var lastTime: String
        var lastLatitude: Double
        var lastLongitude: Double
        var description: String { path }
    }

    /// Fix counts equal the MANIFEST "fixes" of every NMEA recording except the gpsd ZED-F9P log (see
    /// ``zedF9PMixedWithUBX()``); first and last values are the sentences' own text, converted by hand.
    static let recordings: [Expected] = [
        Expected(
            path: "gsdc2020-mtv1/Pixel4_chipset.nmea", fixes: 1737,
            firstTime: "2020-05-14T22:10:46Z", firstLatitude: degrees(37, 25.415069),
            firstLongitude: degrees(122, 5.647326, negative: true),
            lastTime: "2020-05-14T22:39:44Z", lastLatitude: degrees(37, 38.749445),
            lastLongitude: degrees(122, 24.336006, negative: true)),
        Expected(
            path: "gsdc2020-mtv1/Pixel4XLModded_chipset.nmea", fixes: 1743,
            firstTime: "2020-05-14T22:10:49Z", firstLatitude: 37.42357968333334, firstLongitude: -122.0941179,
            lastTime: "2020-05-14T22:39:51Z", lastLatitude: 37.6458334, lastLongitude: -122.4056185),
        Expected(
            path: "ublox-f9k-span-mtv/MTV.Local1.ublox-F9K.20200206-181434.nmea", fixes: 1653,
            firstTime: "2020-02-07T02:14:17Z", firstLatitude: degrees(37, 25.58362),
            firstLongitude: degrees(122, 5.61915, negative: true),
            lastTime: "2020-02-07T02:43:04Z", lastLatitude: 37.426391, lastLongitude: -122.09365),
        Expected(
            path: "gpsd-nmea/telit-he910.log", fixes: 187,
            firstTime: "2019-03-12T10:51:53.710Z", firstLatitude: degrees(50, 50.4122),
            firstLongitude: degrees(4, 20.8266),
            lastTime: "2019-03-12T10:54:59.408Z", lastLatitude: degrees(50, 50.4126),
            lastLongitude: degrees(4, 20.8228)),
        Expected(
            path: "gpsd-nmea/haicom-305N.log", fixes: 68,
            firstTime: "2007-04-08T09:53:04.802Z", firstLatitude: degrees(27, 12.6520, negative: true),
            firstLongitude: degrees(153, 3.1397),
            lastTime: "2007-04-08T09:54:15.787Z", lastLatitude: degrees(27, 12.6404, negative: true),
            lastLongitude: degrees(153, 3.1200)),
        Expected(
            path: "gpsd-nmea/ublox-8.log", fixes: 72,
            firstTime: "2017-01-10T00:09:41Z", firstLatitude: degrees(44, 4.13387),
            firstLongitude: degrees(121, 18.85628, negative: true),
            lastTime: "2017-01-10T00:10:52Z", lastLatitude: 44.0690135, lastLongitude: -121.31431566666667),
        Expected(
            path: "phone-stationary-nmea/gnss_log_2026_03_12_11_29_27.nmea", fixes: 1800,
            firstTime: "2026-03-12T05:59:27Z", firstLatitude: degrees(13, 4.090654),
            firstLongitude: degrees(77, 35.506458),
            lastTime: "2026-03-12T06:29:26Z", lastLatitude: 13.068188233333334, lastLongitude: 77.5917604),
        Expected(
            path: "rtk-reach-neu/openRTK.txt", fixes: 322,
            firstTime: "2024-02-02T16:50:16Z", firstLatitude: degrees(42, 20.2947808),
            firstLongitude: degrees(71, 5.1903342, negative: true),
            lastTime: "2024-02-02T16:55:37Z", lastLatitude: degrees(42, 20.2943333),
            lastLongitude: degrees(71, 5.1904799, negative: true)),
        Expected(
            path: "rtk-reach-neu/occludedRTK.txt", fixes: 309,
            firstTime: "2024-02-02T17:27:05Z", firstLatitude: 42.33725498333333, firstLongitude: -71.08685219333333,
            lastTime: "2024-02-02T17:32:16Z", lastLatitude: 42.337234341666665, lastLongitude: -71.08692109),
        Expected(
            path: "rtk-reach-neu/walkingRTK.txt", fixes: 76,
            firstTime: "2024-02-02T17:02:09Z", firstLatitude: 42.33811456, firstLongitude: -71.08660974833333,
            lastTime: "2024-02-02T17:03:24Z", lastLatitude: 42.33858507, lastLongitude: -71.08604302666667),
        Expected(
            path: "gnsslogger-samples/pixel6.nmea", fixes: 48,
            firstTime: "2023-11-07T23:42:57Z", firstLatitude: degrees(37, 25.590397),
            firstLongitude: degrees(122, 10.422534, negative: true),
            lastTime: "2023-11-07T23:52:21Z", lastLatitude: degrees(37, 25.588958),
            lastLongitude: degrees(122, 10.424069, negative: true)),
    ]

    @Test(arguments: recordings)
    func countsAndEndsMatchTheRecording(_ expected: Expected) throws {
        var reader = try NMEAReader(path: Datasets.path(expected.path))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == expected.fixes)
        #expect(result.report.fixesProduced == expected.fixes)
        let first = try #require(result.fixes.first)
        let last = try #require(result.fixes.last)
        #expect(first.timestamp == time(expected.firstTime))
        #expect(abs(first.latitude - expected.firstLatitude) < 1e-12)
        #expect(abs(first.longitude - expected.firstLongitude) < 1e-12)
        #expect(last.timestamp == time(expected.lastTime))
        #expect(abs(last.latitude - expected.lastLatitude) < 1e-12)
        #expect(abs(last.longitude - expected.lastLongitude) < 1e-12)
        #expect(result.fixes.allSatisfy { $0.provider == .gps })
    }

    @Test func gsdcChipsetHDOPIsAccuracyOverTen() throws {
        var reader = try NMEAReader(
            path: Datasets.path("gsdc2020-mtv1/Pixel4_chipset.nmea"),
            options: ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10)))
        let result = reader.readAll()
        #expect(result.fixes.count == 1737)
        // HDOP 0.38 on the first fix = the KML's "EA3.8m"; the KML's EA is HDOP × 10 on every fix.
        let first = try #require(result.fixes.first)
        #expect(abs(try #require(first.horizontalAccuracyMetres) - 3.8) < 1e-9)
        #expect(first.altitudeMetres == -32.83)
        #expect(first.satellitesUsed == nil)  // the export leaves GGA's satellite field empty
        let median = result.fixes.compactMap(\.horizontalAccuracyMetres).sorted()[1737 / 2]
        #expect(abs(median - 3.8) < 1e-9)  // PROVENANCE: accuracy median 3.8 m
        let moving = result.fixes.filter { ($0.speedMetresPerSecond ?? 0) > 0 }.count
        #expect(Double(moving) / 1737 > 0.93 && Double(moving) / 1737 < 0.95)  // "speed > 0 on 94 %"
    }

    @Test func spanTruthAt10HzReadsWithFractionalTimes() throws {
        let path = Datasets.path("gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea")
        // Every RMC of the SPAN export has a wrong checksum (GGA's are right): verified reading finds no date.
        var strict = try NMEAReader(path: path)
        let verified = strict.readAll()
        #expect(verified.fixes.isEmpty)
        #expect(verified.report.skipped(.checksumMismatch) == 23771)
        #expect(verified.report.skipped(.missingTime) == 23771)

        var reader = try NMEAReader(path: path, checksums: .acceptMismatches)
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 23771)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp == time("2020-05-14T22:01:34Z"))
        // GGA's 7-decimal minutes, not RMC's 3 (3725.417 / 12205.650).
        #expect(first.latitude == degrees(37, 25.4168121))
        #expect(first.longitude == degrees(122, 5.6498009, negative: true))
        #expect(result.fixes[1].timestamp == time("2020-05-14T22:01:34.100Z"))
        #expect(result.fixes[2].timestamp == time("2020-05-14T22:01:34.200Z"))
        #expect(result.fixes.last?.timestamp == time("2020-05-14T22:41:11Z"))
        var steps = Set<Int64>()
        for k in 1..<result.fixes.count {
            steps.insert(result.fixes[k].timestamp.millisecondsSinceEpochDifference(result.fixes[k - 1].timestamp))
        }
        #expect(steps == [100])
    }

    @Test func ublox9KCountsCorruptSentences() throws {
        var reader = try NMEAReader(path: Datasets.path("ublox-f9k-span-mtv/MTV.Local1.ublox-F9K.20200206-181434.nmea"))
        let result = reader.readAll()
        #expect(result.fixes.count == 1653)
        // 13 sentences in the file fail their checksum (e.g. `$GGPGSV…`, a doubled byte).
        #expect(result.report.skipped(.checksumMismatch) == 13)
        let first = try #require(result.fixes.first)
        #expect(first.speedMetresPerSecond == 0.028 * knot)
        #expect(first.courseDegrees == 65.13)
        #expect(first.altitudeMetres == 4.4)
        #expect(first.satellitesUsed == 12)
        #expect(first.horizontalAccuracyMetres == 0.76 * HDOPInterpretation.defaultUEREMetres)
    }

    /// The gpsd ZED-F9P log interleaves UBX binary with NMEA, sometimes on one "line". MANIFEST says 645
    /// epochs over 644 s; every valid-checksum GGA/RMC in the file gives 655 distinct epochs from 01:19:03 to
    /// 01:29:57 (654 s) at exactly 1 s, so 655 is right (an independent regex scan of the bytes agrees).
    @Test func zedF9PMixedWithUBX() throws {
        var reader = try NMEAReader(path: Datasets.path("gpsd-nmea/ublox-zed-f9p_hpg1.11.log"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 655)
        // (A CR byte inside the UBX binary now ends a "line" as any lone CR does: more, shorter runs of binary
        // noise, and 70 lines that held binary bytes and a sentence's tail no longer count as bad checksums;
        // the fixes are the same.)
        #expect(result.report.skipped(.binaryNoise) == 15434)
        #expect(result.report.skipped(.checksumMismatch) == 267)
        #expect(result.report.skipped(.comment) == 12)
        #expect(result.fixes.first?.timestamp == time("2019-04-12T01:19:03Z"))
        #expect(result.fixes.last?.timestamp == time("2019-04-12T01:29:57Z"))
        for k in 1..<result.fixes.count {
            #expect(result.fixes[k].timestamp.millisecondsSinceEpochDifference(result.fixes[k - 1].timestamp) == 1000)
        }
    }

    @Test func telitHasOneNonIncreasingStepAndEmptySentences() throws {
        var reader = try NMEAReader(path: Datasets.path("gpsd-nmea/telit-he910.log"))
        let result = reader.readAll()
        #expect(result.fixes.count == 187)
        // `$GPGGA,,,,,,0,…` / `$GPRMC,,V,…` before the first fix.
        #expect(result.report.skipped(.noFix) == 111)
        var backwards = 0
        for k in 1..<result.fixes.count where result.fixes[k].timestamp <= result.fixes[k - 1].timestamp {
            backwards += 1
        }
        #expect(backwards == 1)  // 10:51:53.710 then 10:51:53.408
    }

    @Test func ublox8IncompleteLastLineIsReportedNotFatal() throws {
        var reader = try NMEAReader(path: Datasets.path("gpsd-nmea/ublox-8.log"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 72)
        #expect(result.report.errors.count == 1)
        guard case .truncated(let location, _) = result.report.errors.first else {
            Issue.record("expected a truncated error, got \(result.report.errors)")
            return
        }
        #expect(location.line == 1019)
        #expect(result.report.skipped(.binaryNoise) == 1)  // the UBX bytes before the first `$GNRMC`
    }

    @Test func gnssLoggerWrappedPhoneLog() throws {
        var reader = try NMEAReader(path: Datasets.path("phone-stationary-nmea/gnss_log_2026_03_12_11_29_27.nmea"))
        let result = reader.readAll()
        #expect(result.fixes.count == 1800)
        let first = try #require(result.fixes.first)
        #expect(first.horizontalAccuracyMetres == 0.3 * HDOPInterpretation.defaultUEREMetres)
        #expect(first.altitudeMetres == 954.8)
        #expect(first.satellitesUsed == 12)
        #expect(first.speedMetresPerSecond == 0)
        #expect(first.courseDegrees == nil)  // RMC course field empty
        #expect(result.fixes.allSatisfy { $0.speedMetresPerSecond == 0 })  // "speed 0.0 on every fix"
    }

    @Test func reachGSTGivesAccuracy() throws {
        var reader = try NMEAReader(path: Datasets.path("rtk-reach-neu/openRTK.txt"))
        let result = reader.readAll()
        let first = try #require(result.fixes.first)
        // $GNGST,165016.00,0.989,,,,0.387,0.307,1.074
        #expect(first.horizontalAccuracyMetres == (0.387 * 0.387 + 0.307 * 0.307).squareRoot())
        #expect(first.verticalAccuracyMetres == 1.074)
        #expect(first.altitudeMetres == 24.733)
        #expect(first.satellitesUsed == 20)
        #expect(result.fixes.allSatisfy { $0.horizontalAccuracyMetres != nil })
    }

    @Test func chipsetKMLAddsNothingOverHDOP() throws {
        // The KML's per-fix "EA" (one decimal) equals HDOP × 10: spot-check the first placemarks of Pixel 4.
        var reader = try NMEAReader(
            path: Datasets.path("gsdc2020-mtv1/Pixel4_chipset.nmea"),
            options: ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10)))
        let result = reader.readAll()
        let accuracies = result.fixes.compactMap(\.horizontalAccuracyMetres)
        #expect(accuracies.count == 1737)
        // Values are multiples of 0.1 m as in the KML (3.8, 3.9, 4.0 …).
        #expect(accuracies.allSatisfy { abs(($0 * 10).rounded() - $0 * 10) < 1e-6 })
    }
}

private extension Timestamp {
    func millisecondsSinceEpochDifference(_ earlier: Timestamp) -> Int64 {
        millisecondsSince1970 - earlier.millisecondsSince1970
    }
}

// MARK: - Hand-written inputs

@Suite struct NMEAReaderTests {
    @Test func mergesTheSentencesOfAnEpoch() throws {
        let text = [
            nmeaSentence("GPRMC,123519.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"),
            nmeaSentence("GPVTG,090.0,T,,M,010.0,N,018.5,K,A"),
            nmeaSentence("GPGGA,123519.00,4807.0381234,N,01131.0004321,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPGST,123519.00,0.5,,,,1.5,2.0,3.0"),
            nmeaSentence("GPRMC,123520.00,A,4807.040,S,01131.002,W,,,230394,,"),
            "",
        ].joined(separator: "\r\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        let a = result.fixes[0]
        #expect(a.timestamp == time("1994-03-23T12:35:19Z"))
        #expect(a.latitude == degrees(48, 7.0381234))  // GGA preferred over RMC
        #expect(a.longitude == degrees(11, 31.0004321))
        #expect(a.speedMetresPerSecond == 22.4 * knot)  // RMC preferred over VTG
        #expect(a.courseDegrees == 84.4)
        #expect(a.altitudeMetres == 545.4)
        #expect(a.satellitesUsed == 8)
        #expect(a.horizontalAccuracyMetres == 2.5)  // hypot(1.5, 2.0), not HDOP 0.9
        #expect(a.verticalAccuracyMetres == 3.0)
        #expect(a.provider == .gps)
        #expect(a.isMocked == nil)
        let b = result.fixes[1]
        #expect(b.timestamp == time("1994-03-23T12:35:20Z"))
        #expect(b.latitude == degrees(48, 7.040, negative: true))
        #expect(b.longitude == degrees(11, 31.002, negative: true))
        #expect(b.horizontalAccuracy == .absent)
        #expect(b.speedMetresPerSecond == nil)
        #expect(b.courseDegrees == nil)
        #expect(b.altitudeMetres == nil)
        #expect(result.report.recordsRead == 5)
        #expect(result.report.totalSkipped == 0)
    }

    /// `nan`, `inf` and a number beyond the doubles (what a program's printf writes for "no value") in an altitude, a
    /// speed or a course: read as missing and counted, strict or lenient, the fix kept, as every other reader does.
    /// They were read as missing without a word.
    @Test func readsANonFiniteMeasurementAsMissingAndCountsIt() throws {
        let huge = "1" + String(repeating: "0", count: 400)
        let text = [
            nmeaSentence("GPRMC,123519.00,A,4807.038,N,01131.000,E,nan,084.4,230394,003.1,W"),
            nmeaSentence("GPGGA,123519.00,4807.038,N,01131.000,E,1,08,0.9,inf,M,46.9,M,,"),
            nmeaSentence("GPRMC,123520.00,A,4807.040,N,01131.002,E,001.0,\(huge),230394,,"),
            nmeaSentence("GPGGA,123520.00,4807.040,N,01131.002,E,1,08,0.9,545.4,M,46.9,M,,"),
            "",
        ].joined(separator: "\r\n")
        for lenient in [false, true] {
            let result = readNMEA(text, options: ReadOptions(lenient: lenient))
            #expect(result.error == nil)
            #expect(result.fixes.count == 2)
            #expect(result.fixes.first?.speedMetresPerSecond == nil && result.fixes.first?.altitudeMetres == nil)
            #expect(result.fixes.first?.courseDegrees == 84.4)
            #expect(result.fixes.last?.courseDegrees == nil && result.fixes.last?.altitudeMetres == 545.4)
            #expect(result.report.unreadableFieldCount == 3)
            let fields = result.report.unreadableFields.compactMap { error -> String? in
                guard case .malformedField(let at, let field, let expected, _) = error,
                    expected == ReadReport.nonFiniteExpectation
                else { return nil }
                return "\(at.line) \(field)"
            }
            #expect(fields == ["1 speed_knots", "2 altitude_m", "3 course_deg"])
        }
        // A VTG whose knots are NaN and whose km/h give the speed lost nothing: not counted.
        let vtg = [
            nmeaSentence("GPRMC,123519.00,A,4807.038,N,01131.000,E,,084.4,230394,003.1,W"),
            nmeaSentence("GPVTG,084.4,T,,M,nan,N,003.6,K,A"), "",
        ].joined(separator: "\r\n")
        let result = readNMEA(vtg)
        #expect(result.fixes.first?.speedMetresPerSecond == 1 && result.report.unreadableFieldCount == 0)
    }

    @Test func vtgFillsWhatRMCLacks() {
        let text = [
            nmeaSentence("GNRMC,000001.00,A,4807.038,N,01131.000,E,,,010120,,,A"),
            nmeaSentence("GNVTG,090.5,T,,M,,N,36.0,K,A"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.fixes.count == 1)
        #expect(result.fixes.first?.speedMetresPerSecond == 10.0)  // 36 km/h
        #expect(result.fixes.first?.courseDegrees == 90.5)
    }

    @Test func carriesTheDayOverMidnight() {
        let text = [
            nmeaSentence("GPRMC,235959.50,A,4807.038,N,01131.000,E,0.0,0.0,311219,,"),
            nmeaSentence("GPGGA,235959.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPGGA,000000.50,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPGGA,000001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2019-12-31T23:59:59.500Z", "2020-01-01T00:00:00.500Z", "2020-01-01T00:00:01Z"))
    }

    /// Epochs before the log's first date (GGA before its first RMC: a formats tester's log lost them) are held and
    /// dated backwards from it, across midnight too; with no date at all they stay missing times.
    @Test func epochsBeforeTheFirstDateAreDatedFromIt() {
        let text = [
            nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPGGA,120001,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPRMC,120002,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPGGA,120003,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.report.skipped(.missingTime) == 0)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2024-02-29T12:00:00Z", "2024-02-29T12:00:01Z", "2024-02-29T12:00:02Z", "2024-02-29T12:00:03Z")
        )
        let midnight = readNMEA(
            [
                nmeaSentence("GPGGA,235959,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
                nmeaSentence("GPRMC,000000,A,4807.038,N,01131.000,E,0.0,0.0,010324,,"), "",
            ].joined(separator: "\n"))
        #expect(midnight.fixes.map(\.timestamp) == times("2024-02-29T23:59:59Z", "2024-03-01T00:00:00Z"))
        let undated = readNMEA(
            [nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"), ""].joined(separator: "\n"))
        #expect(undated.fixes.isEmpty && undated.report.skipped(.missingTime) == 1)
    }

    /// Two logs joined with `cat`: the second opens with GGA before its first RMC, at a time of day hours before the
    /// first log's last epoch. Dated nearest that epoch, it fell on the first log's day, 5 h back, and was refused as
    /// out of order without a word (a tester's); it is held and dated from the second log's first date.
    @Test func aSecondLogsEpochsBeforeItsFirstDateAreDatedFromIt() {
        let text = [
            nmeaSentence("GPRMC,141501,A,4806.000,N,01130.001,E,2.72,90.0,051225,,"),
            nmeaSentence("GPGGA,141501,4806.000,N,01130.001,E,1,08,1.0,500.0,M,47.0,M,,"),
            nmeaSentence("GPGGA,090307,4812.000,N,01130.000,E,1,08,1.0,500.0,M,47.0,M,,"),
            nmeaSentence("GPGGA,090308,4812.000,N,01130.000,E,1,08,1.0,500.0,M,47.0,M,,"),
            nmeaSentence("GPRMC,090309,A,4812.000,N,01130.001,E,2.72,90.0,061225,,"),
            // Within the hour before, a GGA-only epoch is the same log's (a receiver that dropped its RMC).
            nmeaSentence("GPGGA,085000,4812.000,N,01130.000,E,1,08,1.0,500.0,M,47.0,M,,"), "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(
            result.fixes.map(\.timestamp)
                == times(
                    "2025-12-05T14:15:01Z", "2025-12-06T09:03:07Z", "2025-12-06T09:03:08Z", "2025-12-06T09:03:09Z",
                    "2025-12-06T08:50:00Z"))
    }

    /// A receiver that does not know the date writes `000000` (a formats tester's log stopped there: "expected a
    /// date ddmmyy"): no date, so its epoch is dated as a GGA-only one is, nearest the dated epoch before it (or
    /// after it, for one before the log's first date).
    @Test("reads an RMC date of 000000 as no date, not as a malformed one")
    func rmcDateOfZerosIsNoDate() {
        let text = [
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,000000,,"),
            nmeaSentence("GPRMC,120001,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPRMC,120002,A,4807.038,N,01131.000,E,0.0,0.0,000000,,"),
            nmeaSentence("GPRMC,120003,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        // The first epoch is dated from the date after it.
        #expect(result.report.skipped(.missingTime) == 0)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2024-02-29T12:00:00Z", "2024-02-29T12:00:01Z", "2024-02-29T12:00:02Z", "2024-02-29T12:00:03Z")
        )
    }

    // MARK: ZDA (a tester's GGA + ZDA logs gave no fix: ZDA was skipped and GGA has a time of day only)

    /// `GPGGA` at `time` (hhmmss[.ss]) at 48°07.038′ N 11°31.000′ E.
    private static func gga(_ time: String) -> String {
        nmeaSentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    }

    @Test("dates the GGA fix of an epoch by the ZDA before it")
    func zdaBeforeGGA() {
        let text = [
            nmeaSentence("GPZDA,235958.00,31,12,2024,00,00"), Self.gga("235958.00"),
            nmeaSentence("GPZDA,235959.00,31,12,2024,00,00"), Self.gga("235959.00"),
            nmeaSentence("GPZDA,000000.00,01,01,2025,00,00"), Self.gga("000000.00"),
            "",
        ].joined(separator: "\r\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2024-12-31T23:59:58Z", "2024-12-31T23:59:59Z", "2025-01-01T00:00:00Z"))
        #expect(result.fixes.first?.latitude == degrees(48, 7.038))
        #expect(result.fixes.first?.altitudeMetres == 545.4)
        #expect(result.report.recordsRead == 6)
        #expect(result.report.totalSkipped == 0)  // a ZDA that dates an epoch is part of its fix, as an RMC is
    }

    @Test("dates the GGA fix of an epoch by the ZDA after it")
    func zdaAfterGGA() {
        let text = [
            Self.gga("120000.00"), nmeaSentence("GNZDA,120000.00,15,06,2023,00,00"),
            Self.gga("120001.00"), nmeaSentence("GNZDA,120001.00,15,06,2023,00,00"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.timestamp) == times("2023-06-15T12:00:00Z", "2023-06-15T12:00:01Z"))
        #expect(result.report.totalSkipped == 0)
    }

    /// The tester's `leap_long.nmea` in small: the leap second 23:59:60 reads as 23:59:59.999, and the real 00:00:00
    /// after it is kept (folded onto it, that fix was rejected as out of order).
    @Test("reads a leap second 235960 as 23:59:59.999 and keeps the 000000 fix after it")
    func leapSecond() {
        func rmc(_ time: String, _ date: String) -> String {
            nmeaSentence("GPRMC,\(time),A,5230.0000,N,01324.0000,E,2.7,0.0,\(date),,,A")
        }
        let text = [
            rmc("235959.00", "311216"), rmc("235960.50", "311216"), rmc("000000.00", "010117"), "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2016-12-31T23:59:59Z", "2016-12-31T23:59:59.999Z", "2017-01-01T00:00:00Z"))
    }

    /// The tester's `zda_gga.nmea` in small: one ZDA, then GGA only, across UTC midnight and a year's end.
    @Test("reads the date of a ZDA sentence for the GGA fixes after it, the date advancing at UTC midnight")
    func oneZDAThenGGAAcrossMidnight() {
        let text = [
            nmeaSentence("GPZDA,235959.00,31,12,2024,00,00"), Self.gga("235959.00"),
            Self.gga("235959.50"), Self.gga("000000.00"), Self.gga("000001.25"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(
            result.fixes.map(\.timestamp)
                == times(
                    "2024-12-31T23:59:59Z", "2024-12-31T23:59:59.500Z", "2025-01-01T00:00:00Z",
                    "2025-01-01T00:00:01.250Z"))
        #expect(result.report.totalSkipped == 0)
        // A leap year's February: 28 February 23:59:59 is followed by 29 February.
        let leap = readNMEA(
            [nmeaSentence("GPZDA,235959,28,02,2024,00,00"), Self.gga("235959"), Self.gga("000000"), ""]
                .joined(separator: "\n"))
        #expect(leap.fixes.map(\.timestamp) == times("2024-02-28T23:59:59Z", "2024-02-29T00:00:00Z"))
    }

    /// A ZDA at a time of day no GGA shares (a receiver writing ZDA at its own instant) is no fix of its own,
    /// but its date still dates the GGA epochs after it.
    @Test("a ZDA alone in its epoch gives no fix but dates the GGA fixes after it")
    func zdaAloneInItsEpoch() {
        let text = [
            nmeaSentence("GPZDA,235959.50,31,12,2024,00,00"), Self.gga("000000.00"), Self.gga("000001.00"), "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.fixes.map(\.timestamp) == times("2025-01-01T00:00:00Z", "2025-01-01T00:00:01Z"))
        #expect(result.report.skipped(.otherRecord) == 1)
        #expect(result.report.skipped(.missingPosition) == 0)
        #expect(result.report.skipped(.missingTime) == 0)
    }

    @Test("a ZDA with empty date fields gives no date")
    func zdaWithEmptyDate() {
        let text = [
            nmeaSentence("GPZDA,,,,,,"),  // a receiver that knows neither time nor date
            nmeaSentence("GPZDA,120000.00,,,,,"), Self.gga("120000.00"),
            nmeaSentence("GPZDA,120001.00,01,05,2024,00,00"), Self.gga("120001.00"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        // The 12:00:00 GGA, undated when it closed, is dated from the ZDA after it.
        #expect(result.fixes.map(\.timestamp) == times("2024-05-01T12:00:00Z", "2024-05-01T12:00:01Z"))
        #expect(result.report.skipped(.missingTime) == 0)
        #expect(result.report.skipped(.otherRecord) == 2)  // the two ZDA without a date
    }

    /// Malformed ZDA fields are malformed fields like RMC's date: strict, an error naming line, column and field
    /// after the fix of the epoch before; lenient, the ZDA is skipped (counted) and reading goes on, the GGA
    /// epochs dated by the last good date.
    @Test("a malformed ZDA field throws with its line and column, or is skipped when lenient")
    func malformedZDA() throws {
        let text = [
            nmeaSentence("GPZDA,120000.00,01,05,2024,00,00"), Self.gga("120000.00"),
            nmeaSentence("GPZDA,120001.00,32,05,2024,00,00"),  // 32 May
            Self.gga("120001.00"),
            nmeaSentence("GPZDA,120002.00,01,5x,2024,00,00"),
            nmeaSentence("GPZDA,120003.00,01,05,24,00,00"),  // a two-digit year
            nmeaSentence("GPZDA,120004.00,01,05,,00,00"),  // no year
            Self.gga("120004.00"),
            nmeaSentence("GPZDA,1200x5.00,01,05,2024,00,00"),
            "",
        ].joined(separator: "\n")
        var strict = NMEAReader(stream: ByteStream(bytes: Array(text.utf8)))
        #expect(try strict.next()?.timestamp == time("2024-05-01T12:00:00Z"))
        // "$GPZDA,120001.00," is 17 characters.
        Self.expectMalformedField(in: &strict, line: 3, column: 18, field: "date", found: "32,05,2024")
        let lenient = readNMEA(text, options: ReadOptions(lenient: true))
        #expect(lenient.error == nil)
        #expect(lenient.report.errorCount == 5)
        let located = lenient.report.errors.compactMap { error -> String? in
            guard case .malformedField(let location, let field, _, _) = error else { return nil }
            return "\(location.line):\(location.column) \(field)"
        }
        #expect(located == ["3:18 date", "5:21 month", "6:24 year", "7:18 date", "9:8 time"])
        #expect(
            lenient.fixes.map(\.timestamp)
                == times("2024-05-01T12:00:00Z", "2024-05-01T12:00:01Z", "2024-05-01T12:00:04Z"))
    }

    @Test("a ZDA failing its checksum gives no date")
    func zdaChecksumIsVerified() {
        let good = nmeaSentence("GPZDA,120000.00,01,05,2024,00,00")
        let bad = String(good.dropLast(2)) + (good.hasSuffix("00") ? "01" : "00")
        let text = [bad, Self.gga("120000.00"), ""].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.fixes.isEmpty)
        #expect(result.report.skipped(.checksumMismatch) == 1)
        #expect(result.report.skipped(.missingTime) == 1)
        let accepted = readNMEA(text, checksums: .acceptMismatches)
        #expect(accepted.fixes.map(\.timestamp) == times("2024-05-01T12:00:00Z"))
    }

    @Test("RMC and ZDA agreeing in one epoch give its date, and either alone dates the epochs after")
    func rmcAndZDAAgreeing() {
        let text = [
            nmeaSentence("GPRMC,235959.00,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            Self.gga("235959.00"),
            nmeaSentence("GPZDA,235959.00,29,02,2024,00,00"),
            nmeaSentence("GPZDA,000000.00,01,03,2024,00,00"), Self.gga("000000.00"),
            nmeaSentence("GPRMC,000001.00,A,4807.038,N,01131.000,E,0.0,0.0,010324,,"),
            Self.gga("000001.00"),
            Self.gga("000002.00"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2024-02-29T23:59:59Z", "2024-03-01T00:00:00Z", "2024-03-01T00:00:01Z", "2024-03-01T00:00:02Z")
        )
        #expect(result.fixes.first?.speedMetresPerSecond == 0)  // the RMC's data is kept beside the ZDA
        #expect(result.report.totalSkipped == 0)
    }

    /// The local zone fields (`zh,zm`) say how far a local time the receiver was told is from UTC; the time
    /// and date fields are UTC whatever they say. ZDA is read from any talker (`IN`: an inertial system).
    @Test("ignores ZDA's local zone fields and reads ZDA from any talker")
    func zdaZoneFieldsAndTalkers() {
        let text = [
            nmeaSentence("INZDA,230000.00,31,12,2024,-05,30"), Self.gga("230000.00"),
            nmeaSentence("IIZDA,230001.00,31,12,2024,+13,00"), Self.gga("230001.00"),
            nmeaSentence("GPZDA,230002.00,31,12,2024,xx,yy"), Self.gga("230002.00"),
            "$GPZDA,230003.00,31,12,2024,00,00", Self.gga("230003.00"),  // complete, without checksum
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp)
                == times("2024-12-31T23:00:00Z", "2024-12-31T23:00:01Z", "2024-12-31T23:00:02Z", "2024-12-31T23:00:03Z")
        )
        #expect(result.report.totalSkipped == 0)
    }

    @Test("a proprietary sentence ending in ZDA gives no date")
    func proprietaryZDAIsNoDate() {
        let text = [nmeaSentence("PGZDA,230000.00,31,12,2024,00,00"), Self.gga("230000.00"), ""].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.fixes.isEmpty)
    }

    /// Expects the reader's next call to throw a malformed-field error at `line`:`column` naming `field`, whose
    /// found text contains `found`.
    static func expectMalformedField(
        in reader: inout NMEAReader, line: Int, column: Int, field expected: String, found text: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try reader.next()
            Issue.record("expected an error", sourceLocation: sourceLocation)
        } catch {
            guard case .malformedField(let location, let field, _, let found) = error else {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(location.line == line && location.column == column, sourceLocation: sourceLocation)
            #expect(field == expected && found.contains(text), "\(field): \(found)", sourceLocation: sourceLocation)
        }
    }

    @Test func hdopFallbackFollowsTheOptions() throws {
        let text = [
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,1,08,1.2,545.4,M,46.9,M,,"),
            nmeaSentence("GPRMC,120001,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPGGA,120001,4807.038,N,01131.000,E,1,08,,545.4,M,46.9,M,,"),
            nmeaSentence("GPGSA,A,3,04,07,08,09,16,26,31,,,,,,2.1,2.0,1.0"),
            "",
        ].joined(separator: "\n")
        let dilution = readNMEA(text).fixes.map(\.horizontalAccuracy)
        let expectedDilution: [HorizontalAccuracy] = [.metres(1.2 * 5), .metres(2.0 * 5)]
        #expect(dilution == expectedDilution)  // GGA HDOP, then GSA's when GGA has none
        let scaled = readNMEA(text, options: ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10))).fixes
        let expectedScaled: [HorizontalAccuracy] = [.metres(1.2 * 10), .metres(2.0 * 10)]
        #expect(scaled.map(\.horizontalAccuracy) == expectedScaled)
        let ignored = readNMEA(text, options: ReadOptions(hdop: .ignored)).fixes
        let expectedIgnored: [HorizontalAccuracy] = [.absent, .absent]
        #expect(ignored.map(\.horizontalAccuracy) == expectedIgnored)
        let custom = readNMEA(text, options: ReadOptions(hdop: .dilution(userEquivalentRangeErrorMetres: 3))).fixes
        #expect(custom.first?.horizontalAccuracyMetres == 1.2 * 3)
    }

    @Test func emptyFieldsAreAbsent() throws {
        let text = [
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,,,290224,,"),
            nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,1,,,,M,,M,,"),
            "",
        ].joined(separator: "\n")
        let fix = try #require(readNMEA(text).fixes.first)
        #expect(fix.speedMetresPerSecond == nil)
        #expect(fix.courseDegrees == nil)
        #expect(fix.altitudeMetres == nil)
        #expect(fix.satellitesUsed == nil)
        #expect(fix.horizontalAccuracy == .absent)
        #expect(fix.verticalAccuracyMetres == nil)
    }

    @Test func noFixEpochsAreSkipped() {
        let text = [
            nmeaSentence("GPRMC,120000,V,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPGGA,120001,4807.038,N,01131.000,E,0,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPRMC,120002,A,4807.038,N,01131.000,E,0.0,0.0,290224,,,N"),  // mode N: not valid
            nmeaSentence("GPRMC,,V,,,,,,,,,,N"),
            nmeaSentence("GNGGA,,,,,,,,,,,,,,"),  // Emlid Reach without a fix
            nmeaSentence("GPRMC,120003,A,4807.038,N,01131.000,E,0.0,0.0,290224,,,A"),
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.fixes.count == 1)
        #expect(result.report.skipped(.noFix) == 5)
    }

    @Test func simulatorQualityMarksTheFixMocked() {
        let text =
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,") + "\n"
            + nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,8,08,0.9,545.4,M,46.9,M,,") + "\n"
        #expect(readNMEA(text).fixes.first?.isMocked == true)
    }

    @Test func checksumsAreVerified() {
        var corrupted = nmeaSentence("GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        corrupted = corrupted.replacingOccurrences(of: "545.4", with: "545.5")
        let text = [
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            corrupted,
            "$GPRMC,120001,A,4807.038,N,01131.000,E,0.0,0.0,290224,,*ZZ",
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.fixes.count == 1)
        #expect(result.fixes.first?.altitudeMetres == nil)  // the GGA was dropped, the RMC kept
        #expect(result.report.skipped(.checksumMismatch) == 2)
        // The first one is located, so that a user can look at it.
        let first = result.report.firstSkipped[.checksumMismatch]
        #expect(first?.line == 2 && first?.column == 1, "\(String(describing: first))")
        // Lower-case hex digits are accepted.
        let sentence = nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,")
        let star = sentence.firstIndex(of: "*")!
        let lower = String(sentence[..<star]) + sentence[star...].lowercased()
        #expect(readNMEA(lower + "\n").fixes.count == 1)
    }

    @Test func sentencesWithoutChecksum() {
        // Complete: accepted.
        let complete =
            "$GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,\n"
            + "$GPGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,\n"
        let ok = readNMEA(complete)
        #expect(ok.fixes.count == 1)
        #expect(ok.fixes.first?.altitudeMetres == 545.4)
        // Cut off: reported as truncated, never fatal, even in strict mode.
        let cut =
            complete + "$GPRMC,120001,A,4807.0\n"
            + nmeaSentence("GPRMC,120002,A,4807.038,N,01131.000,E,0.0,0.0,290224,,")
            + "\n$GPGGA,120003,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M"
        let result = readNMEA(cut)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.report.errors.count == 2)
        #expect(result.report.errors.map(\.location.line) == [3, 5])
        #expect(result.report.skipped(.malformed) == 2)
    }

    @Test func gnssLoggerWrapping() throws {
        // GGA-only, no RMC at all: the date comes from the wrapper's Unix milliseconds.
        let gga = nmeaSentence("GPGGA,234257.00,3725.590397,N,12210.422534,W,1,24,0.4,51.9,M,-28.4,M,,")
        let text = "# Header\n" + "NMEA," + gga + ",1699400577561\n"
        let result = readNMEA(text)
        #expect(result.report.skipped(.comment) == 1)
        let fix = try #require(result.fixes.first)
        #expect(fix.timestamp == time("2023-11-07T23:42:57Z"))
        #expect(fix.latitude == degrees(37, 25.590397))
        #expect(fix.satellitesUsed == 24)
    }

    @Test func untimedSentencesLoggedBeforeRMCJoinTheNextEpoch() throws {
        // Phones log GSA/VTG before the RMC of their epoch; the wrapper time tells them apart.
        let lines = [
            "NMEA," + nmeaSentence("GNRMC,055927.00,A,1304.090654,N,07735.506458,E,,,120326,,,A") + ",1773295168237",
            "NMEA," + nmeaSentence("GNGGA,055927.00,1304.090654,N,07735.506458,E,1,12,,954.8,M,-85.8,M,,")
                + ",1773295168237",
            "NMEA," + nmeaSentence("GNGSA,A,3,06,07,11,13,14,17,19,20,22,24,30,,0.5,0.7,0.4,1") + ",1773295169240",
            "NMEA," + nmeaSentence("GNVTG,45.0,T,,M,10.0,N,18.52,K,A") + ",1773295169240",
            "NMEA," + nmeaSentence("GNRMC,055928.00,A,1304.090654,N,07735.506460,E,,,120326,,,A") + ",1773295169240",
            "NMEA," + nmeaSentence("GNGGA,055928.00,1304.090654,N,07735.506460,E,1,12,,954.8,M,-85.8,M,,")
                + ",1773295169240",
            "",
        ]
        let result = readNMEA(lines.joined(separator: "\n"))
        #expect(result.fixes.count == 2)
        #expect(result.fixes[0].speedMetresPerSecond == nil)
        #expect(result.fixes[0].horizontalAccuracy == .absent)
        #expect(result.fixes[1].speedMetresPerSecond == 10 * knot)
        #expect(result.fixes[1].courseDegrees == 45)
        #expect(result.fixes[1].horizontalAccuracyMetres == 0.7 * 5)
    }

    @Test func binaryNoiseIsSkippedAndCounted() throws {
        let rmc = nmeaSentence("GNRMC,011903.00,A,4552.65550,S,17030.00756,E,0.214,,120419,,,A,V")
        let gga = nmeaSentence("GNGGA,011903.00,4552.65550,S,17030.00756,E,1,12,1.17,16.7,M,1.8,M,,")
        var bytes: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x5C, 0x00, 0x0A]  // a UBX header, then `\n`
        bytes += [0xB5, 0x62, 0x24, 0x2A, 0x31, 0x32, 0x00] + Array(rmc.utf8)  // `$*12` inside the binary
        bytes += Array("\r\n".utf8) + Array(gga.utf8) + [0x0D, 0x0A]
        bytes += Array("M\n".utf8)  // printable binary fragment
        bytes += [0xFF, 0xFE, 0x0A]
        let result = readNMEA(bytes: bytes)
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        let fix = try #require(result.fixes.first)
        #expect(fix.latitude == degrees(45, 52.65550, negative: true))
        #expect(fix.speedMetresPerSecond == 0.214 * knot)
        #expect(result.report.skipped(.binaryNoise) == 4)
    }

    /// NUL bytes written into a sentence leave its checksum as it was (a byte XORed with 0): a run of 50 inside an
    /// RMC's longitude passed the check and stopped the read there (a CLI tester's: 20 of 60 fixes). It is binary
    /// noise, skipped, and the fixes after it are read; a sentence broken without NULs still stops the read.
    @Test("skips a sentence whose checksum NUL bytes inside it left intact")
    func nulBytesInsideASentence() {
        let rmc = nmeaSentence("GPRMC,100020.00,A,4900.00000,N,01100.02301,E,2.72,90.0,010525,,,A")
        let cut = rmc.index(rmc.startIndex, offsetBy: 40)
        var bytes = Array(rmc[..<cut].utf8) + [UInt8](repeating: 0, count: 50) + Array(rmc[cut...].utf8) + [0x0A]
        bytes += Array((nmeaSentence("GPRMC,100021.00,A,4900.00000,N,01100.02500,E,2.72,90.0,010525,,,A") + "\n").utf8)
        let result = readNMEA(bytes: bytes)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.fixes.count == 1 && result.report.skipped(.binaryNoise) == 1)
        // The same sentence broken by printable bytes under a right checksum is still an error.
        let broken = nmeaSentence("GPRMC,100020.00,A,4900.00000,N,01100.02xx301,E,2.72,90.0,010525,,,A")
        #expect(readNMEA(broken + "\n").error != nil)
    }

    /// A logger that dropped its CR LF writes sentences one after another on a line: every one is read (a formats
    /// tester's three RMCs on one line gave one fix and a "binaryNoise").
    @Test func sentencesGluedOnOneLineAreEachRead() throws {
        func rmc(_ second: Int) -> String {
            nmeaSentence("GPRMC,10000\(second).00,A,5230.000\(second),N,01324.0000,E,5.0,90.0,010524,,,A")
        }
        let gga = nmeaSentence("GPGGA,100001.00,5230.0001,N,01324.0000,E,1,08,0.9,545.4,M,46.9,M,,")
        for text in [
            rmc(0) + rmc(1) + rmc(2) + "\n",
            rmc(0) + rmc(1) + "\r\n" + rmc(2) + "\n",
            rmc(0) + " " + rmc(1) + "\t" + rmc(2),
            rmc(0) + "\n" + gga + rmc(1) + "\n" + rmc(2) + "\n",
        ] {
            let result = readNMEA(text)
            #expect(result.error == nil, "\(text)")
            #expect(
                result.fixes.map(\.timestamp)
                    == times(
                        "2024-05-01T10:00:00Z", "2024-05-01T10:00:01Z", "2024-05-01T10:00:02Z"), "\(text)")
            #expect(result.report.totalSkipped == 0, "\(text)")
        }
        // GGA and RMC of one epoch on one line make one fix, GGA's altitude with RMC's speed.
        let epoch = readNMEA(rmc(0) + "\n" + rmc(1) + gga + "\n" + rmc(2) + "\n")
        #expect(epoch.fixes.count == 3 && epoch.fixes[1].altitudeMetres == 545.4)
        #expect(epoch.fixes[1].speedMetresPerSecond == 5 * knot)
        // Bytes between two sentences are still noise, and a whole line of them with no sentence after too.
        let noisy = readNMEA(rmc(0) + "garbage" + rmc(1) + "\n" + rmc(2) + " trailing words\n")
        #expect(noisy.fixes.count == 3 && noisy.report.skipped(.binaryNoise) == 2)
    }

    /// A sentence glued on after a comment's text (a logger that dropped the line end after its `#` line) is read, as
    /// one glued on after another sentence is: the whole line was taken for a comment, its fix lost without a word. A
    /// `$` whose sentence has no checksum that verifies (`# logs $GPRMC sentences`) is the comment's text.
    @Test("reads a sentence glued on after a comment's text, not a $ the comment quotes")
    func aSentenceGluedOnAfterACommentIsRead() throws {
        let rmc = (0...2).map {
            nmeaSentence("GPRMC,10000\($0).00,A,5230.000\($0),N,01324.0000,E,5.0,90.0,010524,,,A")
        }
        for comment in ["# note", "#", "# cost $5 ", "# \(rmc[0].prefix(20))"] {
            let result = readNMEA(rmc[0] + "\n" + comment + rmc[1] + "\n" + rmc[2] + "\n")
            #expect(result.error == nil, "\(comment)")
            #expect(
                result.fixes.map(\.timestamp)
                    == times("2024-05-01T10:00:00Z", "2024-05-01T10:00:01Z", "2024-05-01T10:00:02Z"), "\(comment)")
            #expect(result.report.skipped(.comment) == 1 && result.report.totalSkipped == 1, "\(comment)")
        }
        // The comment's own `$`s: no sentence, no checksum, a wrong one.
        for comment in ["# logs $GPRMC sentences", "# $GPRMC,100001.00,A*00", "# price $5 *1A", "# $*"] {
            let result = readNMEA(rmc[0] + "\n" + comment + "\n" + rmc[2] + "\n")
            #expect(result.error == nil && result.fixes.count == 2, "\(comment)")
            #expect(result.report.skipped(.comment) == 1 && result.report.totalSkipped == 1, "\(comment)")
        }
    }

    /// A sentence split over two lines (a lost line break, or a logger that flushed mid-sentence): the cut part and
    /// the line holding its rest are skipped and reported, and the read goes on; a formats tester's line 3, the tail
    /// `,01324.0030,E,…*65` of line 2, stopped the read with an error. The cut part's note says the sentence was cut
    /// short, not that the input ended early.
    @Test func aSentenceSplitOverTwoLinesIsSkippedAndReportedAndTheReadGoesOn() throws {
        let first = nmeaSentence("GPRMC,100000.00,A,5230.0000,N,01324.0000,E,5.0,90.0,010524,,,A")
        let split = nmeaSentence("GPRMC,100001.00,A,5230.0006,N,01324.0030,E,5.0,90.0,010524,,,A")
        let last = nmeaSentence("GPRMC,100002.00,A,5230.0012,N,01324.0060,E,5.0,90.0,010524,,,A")
        let cut = split.index(split.startIndex, offsetBy: 30)
        let star = split.index(split.endIndex, offsetBy: -1)
        for (head, tail) in [(split[..<cut], split[cut...]), (split[..<star], split[star...])] {
            let text = first + "\r\n" + head + "\r\n" + tail + "\r\n" + last + "\r\n"
            let result = readNMEA(text)
            #expect(result.error == nil, "\(head) | \(tail)")
            #expect(result.fixes.map(\.timestamp) == times("2024-05-01T10:00:00Z", "2024-05-01T10:00:02Z"))
            #expect(result.report.skipped(.malformed) + result.report.skipped(.checksumMismatch) == 2)
            #expect(result.report.errors.last?.location.line == 3, "\(result.report.errors)")
            #expect(result.report.endOfInput == nil)
            #expect(!result.report.errors.contains { $0.description.contains("input ends early") })
        }
        // The tester's file: the cut part is line 2 at its end, the rest line 3.
        let text = first + "\n" + split[..<cut] + "\n" + split[cut...] + "\n" + last + "\n"
        let result = readNMEA(text)
        guard case .malformedRecord(let location, let expected, let found) = result.report.errors.first else {
            Issue.record("expected the cut sentence as a malformed record, got \(result.report.errors)")
            return
        }
        #expect(location.line == 2 && location.column == 31 && found.contains("$GPRMC,100001.00"))
        #expect(expected.contains("cut short") && expected.contains("11 fields"))
        #expect(result.report.errors.map(\.location.line) == [2, 3])
        // Cut off on the last line, the input did end early (the gpsd ublox-8 log).
        let end = readNMEA(first + "\n" + split[..<cut] + "\n\n")
        #expect(end.fixes.count == 1)
        guard case .truncated(let place, _)? = end.report.endOfInput else {
            Issue.record("expected a truncated input, got \(end.report.errors)")
            return
        }
        #expect(place.line == 2)
        // A line of text without '$' elsewhere is still an error.
        #expect(readNMEA(first + "\n" + split + "\n" + split[cut...] + "\n").error != nil)
    }

    /// `gpspipe -w` (and `-r`, with its preamble) logs hold gpsd's JSON reports between the sentences: skipped as
    /// comments (a formats tester's logs were refused at the first `{"class":"TPV",…}`).
    @Test func gpsdJSONReportsBetweenSentencesAreSkippedAsComments() throws {
        let text = """
            {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
            {"class":"WATCH","enable":true,"json":false,"nmea":true,"raw":0}
            \(nmeaSentence("GPGGA,202640.000,4404.1306,N,12118.8515,W,2,10,0.98,1127.7,M,-19.6,M,0000,0000"))
            {"class":"TPV","status":2,"mode":3,"lat":44.068843333,"lon":-121.314191667,"alt":1127.700}\t
            \(nmeaSentence("GPRMC,202640.000,A,4404.1306,N,12118.8515,W,0.03,225.97,130415,,,D"))
            \(nmeaSentence("GPRMC,202641.000,A,4404.1305,N,12118.8515,W,0.01,201.71,130415,,,D"))

            """
        let result = readNMEA(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2 && result.fixes.first?.altitudeMetres == 1127.7)
        #expect(result.report.skipped(.comment) == 3)
        // Not any text in braces: a line cut inside its JSON is still a malformed record.
        #expect(readNMEA(text + "{\"class\":\"TPV\",\"mode\":\n").error != nil)
    }

    /// A tab after the checksum is white space, as a space is (it was counted as binary noise).
    @Test func aTabAfterTheChecksumIsWhiteSpace() {
        let rmc = nmeaSentence("GPRMC,100000.00,A,5230.0000,N,01324.0000,E,5.0,90.0,010524,,,A")
        let next = nmeaSentence("GPRMC,100001.00,A,5230.0006,N,01324.0030,E,5.0,90.0,010524,,,A")
        let result = readNMEA(rmc + "\t\r\n" + next + " \t \n")
        #expect(result.fixes.count == 2 && result.report.totalSkipped == 0)
    }

    @Test func printableGarbageIsMalformedInATextFile() {
        let text = nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,") + "\nhello world\n"
        let result = readNMEA(text)
        #expect(result.fixes.count == 1)  // the epoch before the bad line is returned first
        guard case .malformedRecord(let location, _, _) = result.error else {
            Issue.record("expected malformedRecord, got \(String(describing: result.error))")
            return
        }
        #expect(location.line == 2)
        #expect(location.column == 1)
    }

    @Test func malformedFieldsThrowWithLocationOrAreCountedWhenLenient() throws {
        let text = [
            nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPRMC,120001,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            nmeaSentence("GPGGA,120001,48x7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmeaSentence("GPRMC,120002,A,4875.038,N,01131.000,E,0.0,0.0,290224,,"),  // minutes 75
            nmeaSentence("GPRMC,120003,A,4807.038,N,01131.000,E,abc,0.0,290224,,"),
            nmeaSentence("GPRMC,120004,A,4807.038,N,01131.000,E,0.0,0.0,320224,,"),  // 32 February
            nmeaSentence("GPRMC,250005,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),  // hour 25
            nmeaSentence("GPRMC,120006,A,9107.038,N,01131.000,E,0.0,0.0,290224,,"),  // 91° N
            nmeaSentence("GPRMC,120007,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            "",
        ].joined(separator: "\n")
        var strict = NMEAReader(stream: ByteStream(bytes: Array(text.utf8)))
        #expect(try strict.next()?.timestamp == time("2024-02-29T12:00:00Z"))
        // The epoch read before the bad line comes first, then the error.
        #expect(try strict.next()?.timestamp == time("2024-02-29T12:00:01Z"))
        Self.expectMalformedField(in: &strict, line: 3, column: 15, field: "latitude", found: "48x7.038")
        let lenient = readNMEA(text, options: ReadOptions(lenient: true))
        #expect(lenient.error == nil)
        #expect(lenient.report.errorCount == 6)
        #expect(lenient.report.errors.map(\.location.line) == [3, 4, 5, 6, 7, 8])
        if case .malformedField(let location, let field, _, let found) = lenient.report.errors.last {
            // 91° N: out of range is a malformed field of its sentence, column 17.
            #expect(field == "latitude" && location.column == 17 && found.contains("9107.038"))
        } else {
            Issue.record("expected a malformed latitude, got \(String(describing: lenient.report.errors.last))")
        }
        // 120001 keeps its RMC (the bad GGA is dropped); 120002…120006 have nothing usable.
        #expect(
            lenient.fixes.map(\.timestamp)
                == times("2024-02-29T12:00:00Z", "2024-02-29T12:00:01Z", "2024-02-29T12:00:07Z"))
    }

    /// A tester's logs: an epoch with a valid RMC and a GGA at 99°30′ N. The GGA is the malformed record (its
    /// line and column); strict, the error comes after the epochs before it and before any later one (a later
    /// epoch's fix was returned first); lenient, the epoch keeps the RMC's position. A second RMC of the same
    /// epoch no longer hides a first one out of range.
    @Test func aPositionOutOfRangeIsItsSentencesFaultAndTheEpochKeepsTheOther() throws {
        let text = [
            nmeaSentence("GPRMC,120000,A,5130.0000,N,00006.0000,W,1.0,0.0,010524,,"),
            nmeaSentence("GPRMC,120001,A,5130.0001,N,00006.0000,W,1.0,0.0,010524,,"),
            nmeaSentence("GPGGA,120001,9930.0000,N,00006.0000,W,1,08,0.9,10.0,M,47.0,M,,"),
            nmeaSentence("GPRMC,120002,A,9930.0000,N,00006.0000,W,1.0,0.0,010524,,"),
            nmeaSentence("GPRMC,120002,A,5130.0002,N,00006.0000,W,1.0,0.0,010524,,"),
            nmeaSentence("GPRMC,120003,A,5130.0003,N,00006.0000,W,1.0,0.0,010524,,"),
            "",
        ].joined(separator: "\n")
        var strict = NMEAReader(stream: ByteStream(bytes: Array(text.utf8)))
        var before: [Fix] = []
        do {
            while let fix = try strict.next() { before.append(fix) }
            Issue.record("expected an error")
        } catch {
            guard case .malformedField(let location, let field, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(location.line == 3 && field == "latitude")
        }
        #expect(before.map(\.timestamp) == times("2024-05-01T12:00:00Z", "2024-05-01T12:00:01Z"))
        let lenient = readNMEA(text, options: ReadOptions(lenient: true))
        #expect(lenient.report.errors.map(\.location.line) == [3, 4])
        #expect(lenient.fixes.count == 4)
        #expect(lenient.fixes.allSatisfy { abs($0.latitude - 51.5) < 0.001 })
    }

    @Test func otherTalkersAndSentencesAreOtherRecords() {
        let text = [
            nmeaSentence(
                "PUBX,00,081350.00,4717.113210,N,00833.915187,E,546.589,G3,2.1,2.0,0.007,77.52,0.007,,0.92,1.19,0.77,9,0,0"
            ),
            nmeaSentence("GPGSV,3,1,10,02,25,181,42,06,45,146,45,12,19,292,47,13,17,209,43,1"),
            nmeaSentence("XXGGA,120000,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            "!AIVDM,1,1,,B,15M67FC000G?ufbE`FepT@3n00Sa,0*5C",
            nmeaSentence("GQRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,"),
            "",
            "",
        ].joined(separator: "\n")
        let result = readNMEA(text)
        #expect(result.report.skipped(.otherRecord) == 4)
        #expect(result.report.skipped(.blank) == 1)
        #expect(result.fixes.count == 1)  // QZSS talker GQ is read
    }

    @Test func providerFilterAppliesToEveryEpoch() {
        let text = nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,") + "\n"
        let result = readNMEA(text, options: ReadOptions(providers: [.fused]))
        #expect(result.fixes.isEmpty)
        #expect(result.report.skipped(.providerFiltered) == 1)
        #expect(readNMEA(text, options: ReadOptions(providers: [.gps])).fixes.count == 1)
    }

    @Test func emptyInputAndReportBytes() {
        let empty = readNMEA("")
        #expect(empty.fixes.isEmpty && empty.error == nil && empty.report.recordsRead == 0)
        let text = nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,") + "\n"
        #expect(readNMEA(text).report.bytesRead == text.utf8.count)
    }

    @Test func smallChunksGiveTheSameFixesAsOneBuffer() throws {
        // A real file through a 64-byte refill window: lines straddle every refill.
        let text = (0..<50).map { k -> String in
            let t = String(format: "1200%02d.%02d", k / 10 % 60, k % 10 * 10)
            return nmeaSentence("GPRMC,\(t),A,4807.038,N,01131.000,E,1.0,2.0,290224,,") + "\r\n"
                + nmeaSentence("GPGGA,\(t),4807.0\(k % 10)8,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + "\r\n"
        }.joined()
        let path = "/tmp/nmea-reader-tests-\(getpid())-\(text.utf8.count).nmea"
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            let handle = fopen(path, "wb")
            defer { fclose(handle) }
            fwrite(buffer.baseAddress, 1, buffer.count, handle)
        }
        defer { remove(path) }
        var reader = NMEAReader(stream: try ByteStream(path: path, chunkBytes: 64))
        let chunked = reader.readAll()
        let whole = readNMEA(text)
        #expect(chunked.error == nil)
        #expect(chunked.fixes.count == 50)
        #expect(chunked.fixes == whole.fixes)
        #expect(chunked.report.bytesRead == text.utf8.count)
    }
}
