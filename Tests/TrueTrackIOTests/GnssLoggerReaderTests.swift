import Testing
import TrueTrackCore

@testable import TrueTrackIO

@Suite struct GnssLoggerReaderTests {
    private static let v3Header =
        "# Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,"
        + "BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees,elapsedRealtimeNanos,"
        + "VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,VerticalSpeedAccuracyMps,SolutionType"

    private func read(_ text: String, options: ReadOptions = ReadOptions()) -> ReadResult {
        var reader = GnssLoggerReader(stream: ByteStream(bytes: Array(text.utf8), name: "test.txt"), options: options)
        return reader.readAll()
    }

    // MARK: - Real recordings

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func pixel6CountsEachProviderAndEveryOtherLine() throws {
        let path = Datasets.path("gnsslogger-samples/pixel6.txt")
        var reader = try GnssLoggerReader(path: path)
        let all = reader.readAll()
        #expect(all.error == nil)
        #expect(all.fixes.count == 243)
        #expect(all.report.recordsRead == 1322)
        #expect(all.report.skipped(.comment) == 28)
        #expect(all.report.skipped(.blank) == 1)
        #expect(all.report.skipped(.otherRecord) == 1050)
        #expect(all.report.fixesProduced == 243)
        #expect(reader.loggerVersion == "v3.0.6.4")
        #expect(reader.layout?.columnNames.count == 17)

        for (provider, expected) in [(Provider.gps, 94), (.fused, 95), (.network, 54)] {
            var filtered = try GnssLoggerReader(path: path, options: ReadOptions(providers: [provider]))
            let result = filtered.readAll()
            #expect(result.error == nil)
            #expect(result.fixes.count == expected, "\(provider)")
            #expect(result.fixes.allSatisfy { $0.provider == provider })
            #expect(result.report.skipped(.providerFiltered) == 243 - expected)
        }
        var two = try GnssLoggerReader(path: path, options: ReadOptions(providers: [.gps, .fused]))
        #expect(two.readAll().fixes.count == 189)
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func pixel6FirstAndLastValues() throws {
        var reader = try GnssLoggerReader(path: Datasets.path("gnsslogger-samples/pixel6.txt"))
        let fixes = reader.readAll().fixes
        // Fix,GPS,37.4265079783,-122.1737079613,23.67296474531974,0.0,4.2366138,,1699400582000,0.19259089,,
        //   16124559129000,3.0,0,,,
        let first = try #require(fixes.first)
        #expect(first.provider == .gps)
        #expect(first.timestamp == Timestamp(millisecondsSince1970: 1_699_400_582_000))
        #expect(first.latitude == 37.4265079783)
        #expect(first.longitude == -122.1737079613)
        #expect(first.altitudeMetres == 23.67296474531974)
        #expect(first.speedMetresPerSecond == 0.0)
        #expect(first.horizontalAccuracy == .metres(4.2366138))
        #expect(first.courseDegrees == nil)
        #expect(first.speedAccuracyMetresPerSecond == 0.19259089)
        #expect(first.courseAccuracyDegrees == nil)
        #expect(first.verticalAccuracyMetres == 3.0)
        #expect(first.isMocked == false)
        #expect(first.satellitesUsed == nil)
        // Fix,FLP,37.4265039000,-122.1737035000,2.026186860813528,0.62183976,6.154,350.41818,1699401140587,,,
        //   16682673834222,4.7595787,0,,,
        let last = try #require(fixes.last)
        #expect(last.provider == .fused)
        #expect(last.timestamp == Timestamp(millisecondsSince1970: 1_699_401_140_587))
        #expect(last.latitude == 37.4265039)
        #expect(last.longitude == -122.1737035)
        #expect(last.altitudeMetres == 2.026186860813528)
        #expect(last.speedMetresPerSecond == 0.62183976)
        #expect(last.horizontalAccuracyMetres == 6.154)
        #expect(last.courseDegrees == 350.41818)
        #expect(last.speedAccuracyMetresPerSecond == nil)
        #expect(last.verticalAccuracyMetres == 4.7595787)
        // The last GPS row carries a bearing and a bearing accuracy.
        let lastGPS = try #require(fixes.last { $0.provider == .gps })
        #expect(lastGPS.timestamp == Timestamp(millisecondsSince1970: 1_699_401_140_000))
        #expect(lastGPS.courseDegrees == 20.880743)
        #expect(lastGPS.courseAccuracyDegrees == 180.0)
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func pixel6NetworkRowsHaveNoSpeed() throws {
        var reader = try GnssLoggerReader(path: Datasets.path("gnsslogger-samples/pixel6.txt"))
        let fixes = reader.readAll().fixes
        let network = fixes.filter { $0.provider == .network }
        #expect(network.count == 54)
        #expect(network.allSatisfy { $0.speedMetresPerSecond == nil && $0.speedAccuracyMetresPerSecond == nil })
        #expect(fixes.filter { $0.provider != .network }.allSatisfy { $0.speedMetresPerSecond != nil })
        // Fix,NLP,37.4266753000,-122.1735596000,8.300000190734863,,22.147,,1699401137500,,,…
        let lastNetwork = try #require(network.last)
        #expect(lastNetwork.latitude == 37.4266753)
        #expect(lastNetwork.horizontalAccuracyMetres == 22.147)
        #expect(lastNetwork.timestamp == Timestamp(millisecondsSince1970: 1_699_401_137_500))
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func pixel4CorruptAltitudeNamesFileLineAndField() throws {
        let path = Datasets.path("gnsslogger-samples/Pixel4_GnssLog.txt")
        var strict = try GnssLoggerReader(path: path)
        let result = strict.readAll()
        #expect(result.fixes.isEmpty)  // the corrupt row is the first Fix row
        let error = try #require(result.error)
        guard case .malformedField(let location, let field, _, let found) = error else {
            Issue.record("expected malformedField, got \(error)")
            return
        }
        #expect(location.file == path)
        #expect(location.line == 88)
        #expect(location.column == 33)
        #expect(field == "altitude")
        #expect(found == "-29co.199999")
        #expect(error.description.contains("Pixel4_GnssLog.txt:88:33"))
        #expect(error.description.contains("'altitude'"))

        var lenient = try GnssLoggerReader(path: path, options: ReadOptions(lenient: true))
        let all = lenient.readAll()
        // Read leniently, the row keeps its fix without the altitude (a tester: the whole fix was dropped).
        #expect(all.error == nil)
        #expect(all.fixes.count == 5)
        #expect(all.report.errorCount == 0 && all.report.unreadableFieldCount == 1)
        #expect(all.report.unreadableFields.first?.location.line == 88)
        #expect(lenient.loggerVersion == "v2.0.4.2")
        // Fix,NLP,37.4239073,-122.0944650,-29co.199999,0.000000,44.319000,0.000000,1589494244403,0.000000,0.000000
        let kept = try #require(all.fixes.first)
        #expect(kept.provider == .network && kept.altitudeMetres == nil && kept.horizontalAccuracyMetres == 44.319)
        #expect(kept.timestamp == Timestamp(millisecondsSince1970: 1_589_494_244_403))
        // Fix,FLP,37.4235845,-122.0941221,-29.199999,0.001390,3.900000,181.537094,1589494246000,0.086023,0.000000
        let first = all.fixes[1]
        #expect(first.provider == .fused)
        #expect(first.altitudeMetres == -29.199999)
        #expect(first.courseDegrees == 181.537094)
        #expect(first.timestamp == Timestamp(millisecondsSince1970: 1_589_494_246_000))
        #expect(all.fixes.map(\.provider) == [.network, .fused, .gps, .gps, .fused])

        // Filtering out NLP skips the corrupt row before it is examined.
        var gpsOnly = try GnssLoggerReader(path: path, options: ReadOptions(providers: [.gps]))
        let gps = gpsOnly.readAll()
        #expect(gps.error == nil)
        #expect(gps.fixes.count == 2)
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func gmtStationaryVersion1Layout() throws {
        var reader = try GnssLoggerReader(
            path: Datasets.path("gmt-stationary-2016/pseudoranges_log_2016_06_30_21_26_07.txt"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(reader.loggerVersion == "1.4.0.0")
        #expect(result.fixes.count == 216)
        #expect(result.report.skipped(.otherRecord) == 1379)
        #expect(result.fixes.allSatisfy { $0.provider == .gps })
        // Accuracy 3.0 m on 211 fixes; 4.0 m on the 5 fixes from 1467321988000 to 1467321993000 (PROVENANCE
        // says "a constant 3.0 m", which these five contradict).
        #expect(result.fixes.filter { $0.horizontalAccuracy == .metres(3.0) }.count == 211)
        let coarser = result.fixes.filter { $0.horizontalAccuracy == .metres(4.0) }
        #expect(
            coarser.map(\.timestamp.millisecondsSince1970)
                == [1_467_321_988_000, 1_467_321_990_000, 1_467_321_991_000, 1_467_321_992_000, 1_467_321_993_000])
        #expect(result.fixes.allSatisfy { $0.courseDegrees == nil && $0.verticalAccuracyMetres == nil })
        // Speed is 0 on every fix but one (0.94 m/s at 1467321973000).
        let moving = result.fixes.filter { $0.speedMetresPerSecond != 0 }
        #expect(moving.count == 1)
        #expect(moving.first?.speedMetresPerSecond == 0.94)
        #expect(moving.first?.timestamp == Timestamp(millisecondsSince1970: 1_467_321_973_000))
        // Fix,gps,37.422541,-122.081659,-33.000000,0.000000,3.000000,1467321969000
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 37.422541)
        #expect(first.longitude == -122.081659)
        #expect(first.altitudeMetres == -33.0)
        #expect(first.timestamp == Timestamp(millisecondsSince1970: 1_467_321_969_000))
        // Fix,gps,37.422544,-122.081647,-34.000000,0.000000,3.000000,1467322191000
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 37.422544)
        #expect(last.longitude == -122.081647)
        #expect(last.altitudeMetres == -34.0)
        #expect(last.timestamp == Timestamp(millisecondsSince1970: 1_467_322_191_000))
        #expect(first.timestamp.seconds(to: last.timestamp) == 222.0)
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func gsdcGroundTruthWithMessageTypeHeader() throws {
        var reader = try GnssLoggerReader(path: Datasets.path("gnsslogger-samples/ground_truth.csv"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 200)
        #expect(result.fixes.allSatisfy { $0.provider == .groundTruth && $0.horizontalAccuracyMetres == 0.1 })
        // Fix,GT,37.395817,-122.102916,-4.488,0.0014129388,0.1,118.020386,1619735725999
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 37.395817)
        #expect(first.courseDegrees == 118.020386)
        #expect(first.timestamp == Timestamp(millisecondsSince1970: 1_619_735_725_999))
    }

    // MARK: - Hand-worked inputs

    @Test func mapsColumnsByHeaderNameNotPosition() throws {
        let text = """
            # Fix,UnixTimeMillis,AccuracyMeters,Provider,LongitudeDegrees,LatitudeDegrees,Extra,SpeedMps
            Fix,1700000000123,4.5,fused,-1.25,51.5,whatever,2.5
            """
        let result = read(text)
        #expect(result.error == nil)
        let fix = try #require(result.fixes.first)
        #expect(fix.latitude == 51.5)
        #expect(fix.longitude == -1.25)
        #expect(fix.provider == .fused)
        #expect(fix.horizontalAccuracyMetres == 4.5)
        #expect(fix.speedMetresPerSecond == 2.5)
        #expect(fix.timestamp == Timestamp(millisecondsSince1970: 1_700_000_000_123))
        #expect(fix.altitudeMetres == nil)
    }

    /// An altitude, speed or bearing that is no finite number (`NaN`, `Infinity`, `1e400`) is read as missing and
    /// counted with the fields read as missing, strict or lenient, the fix kept: it was dropped without a word.
    @Test func nonFiniteMeasurementsAreReadAsMissingAndCounted() throws {
        let text =
            Self.v3Header + "\nFix,gps,10.5,20.25,NaN,Infinity,30,1e400,1700000000000\n"
            + "Fix,gps,10.5,20.25,5,1,30,90,1700000001000\n"
        for lenient in [false, true] {
            let result = read(text, options: ReadOptions(lenient: lenient))
            #expect(result.error == nil && result.fixes.map(\.altitudeMetres) == [nil, 5])
            #expect(result.fixes[0].speedMetresPerSecond == nil && result.fixes[0].courseDegrees == nil)
            #expect(result.fixes[0].horizontalAccuracyMetres == 30)
            let fields = result.report.unreadableFields.map { error -> String in
                guard case .malformedField(let at, let field, _, _) = error else { return "\(error)" }
                return "\(at.line) \(field)"
            }
            #expect(fields == ["2 altitude", "2 speed", "2 bearing"], "\(fields)")
        }
    }

    @Test func emptyAndMissingTrailingFieldsAreAbsent() throws {
        let text =
            Self.v3Header + "\n"
            + "Fix,GPS,10.5,20.25,,,,,1700000000000,,,,,,,,\n"
            + "Fix,network,10.5,20.25,5,1,30,90,1700000001000\n"
            + "Fix,gps,10.5,20.25,5,1,30,90,1700000002000,0.5,10,123,2.5,1,17,0.1,1\n"
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 3)
        let empty = result.fixes[0]
        #expect(empty.altitudeMetres == nil && empty.speedMetresPerSecond == nil && empty.courseDegrees == nil)
        #expect(empty.horizontalAccuracy == .absent)
        #expect(empty.isMocked == nil && empty.satellitesUsed == nil && empty.verticalAccuracyMetres == nil)
        let short = result.fixes[1]
        #expect(short.provider == .network)
        #expect(short.courseDegrees == 90 && short.verticalAccuracyMetres == nil)
        let full = result.fixes[2]
        #expect(full.provider == .gps)
        #expect(full.speedAccuracyMetresPerSecond == 0.5 && full.courseAccuracyDegrees == 10)
        #expect(full.verticalAccuracyMetres == 2.5 && full.isMocked == true && full.satellitesUsed == 17)
    }

    @Test func providerNamesInAnyCase() {
        let text =
            "# Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs\n"
            + ["gps", "GPS", "FLP", "fused", "NLP", "network", "GT", "passive", "", "weird"].map {
                "Fix,\($0),1,2,3,0,5,1700000000000"
            }.joined(separator: "\n")
        let result = read(text)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.provider)
                == [.gps, .gps, .fused, .fused, .network, .network, .groundTruth, .passive, .unknown, .other])
    }

    @Test func rowsBeforeAnyHeaderUseTheLayoutTheirFieldCountImplies() throws {
        let text = """
            Fix,gps,1.5,2.5,3.5,0.5,4.5,1467321969000
            Fix,GPS,1.5,2.5,3.5,0.5,4.5,45.0,1589494246000,0.1,0.2
            """
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.fixes[0].timestamp == Timestamp(millisecondsSince1970: 1_467_321_969_000))
        #expect(result.fixes[0].courseDegrees == nil)
        #expect(result.fixes[1].timestamp == Timestamp(millisecondsSince1970: 1_589_494_246_000))
        #expect(result.fixes[1].courseDegrees == 45)
    }

    @Test func skipsRowsWithoutPositionOrTime() {
        let text =
            Self.v3Header + "\nFix,GPS,,20,1,1,1,1,1700000000000\nFix,GPS,10,20,1,1,1,1,\n"
            + "Raw,1,2,3\nStatus,1\n\n#\nFix,GPS,10,20,1,1,1,1,1700000000000"
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.report.skipped(.missingPosition) == 1)
        #expect(result.report.skipped(.missingTime) == 1)
        #expect(result.report.skipped(.otherRecord) == 2)
        #expect(result.report.skipped(.blank) == 1)
        #expect(result.report.skipped(.comment) == 2)
    }

    @Test func rejectsMalformedFieldsWithTheirNames() {
        let cases: [(String, String, Int)] = [
            ("Fix,GPS,1x,20,1,1,1,1,1700000000000", "latitude", 9),
            ("Fix,GPS,10,20,1,1,1,1,17000000000x0", "time", 23),
            ("Fix,GPS,10,20,1,fast,1,1,1700000000000", "speed", 17),
            ("Fix,GPS,10,20,1,1,1,1,1700000000000,1,1,1,1,maybe", "mock_location", 45),
            ("Fix,GPS,10,20,1,1,1,1,1700000000000,1,1,1,1,0,1.5", "used_signals", 47),
            ("Fix,GPS,10,20,1,1,1,1,99999999999999999", "time", 23),
        ]
        for (row, field, column) in cases {
            let result = read(Self.v3Header + "\n" + row)
            guard case .malformedField(let location, let name, _, _)? = result.error else {
                Issue.record("\(row): expected a malformed field, got \(String(describing: result.error))")
                continue
            }
            #expect(name == field, "\(row)")
            #expect(location.line == 2, "\(row)")
            #expect(location.column == column, "\(row)")
            #expect(location.file == "test.txt")
        }
    }

    @Test func rejectsOutOfRangeCoordinatesAndShortRows() {
        let outOfRange = read(Self.v3Header + "\nFix,GPS,91,20,1,1,1,1,1700000000000")
        guard case .invalidFix(let location, .latitudeOutOfRange(91), _)? = outOfRange.error else {
            Issue.record("expected invalidFix, got \(String(describing: outOfRange.error))")
            return
        }
        #expect(location.line == 2 && location.column == 9)

        let short = read(Self.v3Header + "\nFix,GPS,10,20")
        guard case .malformedRecord(let shortLocation, _, _)? = short.error else {
            Issue.record("expected malformedRecord, got \(String(describing: short.error))")
            return
        }
        #expect(shortLocation.line == 2)

        let badHeader = read("# Fix,Provider,Speed\nFix,GPS,1")
        guard case .malformedRecord(let headerLocation, _, _)? = badHeader.error else {
            Issue.record("expected malformedRecord, got \(String(describing: badHeader.error))")
            return
        }
        #expect(headerLocation.line == 1)
    }

    @Test func lenientModeKeepsReadingAfterBadRows() {
        let text =
            Self.v3Header + "\nFix,GPS,1x,20,1,1,1,1,1700000000000\nFix,GPS,10,20,1,1,1,1,1700000000000\n"
            + "Fix,GPS,10,200,1,1,1,1,1700000001000\nFix,GPS,10,20,1,1,1,1,1700000002000"
        let result = read(text, options: ReadOptions(lenient: true))
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.report.errorCount == 2)
        #expect(result.report.errors.map(\.location.line) == [2, 4])
    }

    @Test func crlfLinesAndSpacesAroundNumbers() throws {
        let text = Self.v3Header + "\r\nFix, GPS , 10.5 , 20.25 ,1,1,1,1, 1700000000000 \r\n"
        let result = read(text)
        #expect(result.error == nil)
        let fix = try #require(result.fixes.first)
        #expect(fix.provider == .gps && fix.latitude == 10.5 && fix.longitude == 20.25)
    }
}
