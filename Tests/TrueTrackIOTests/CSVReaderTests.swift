import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Reads `text` as CSV from memory.
private func readCSV(_ text: String, options: ReadOptions = ReadOptions()) -> ReadResult {
    var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)), options: options)
    return reader.readAll()
}

/// Milliseconds of an ISO 8601 text (test helper).
private func ms(_ iso: String) -> Int64 { ISO8601.parse(iso)!.millisecondsSince1970 }

@Suite struct CSVReaderTests {
    /// A `0` on the first row (a logger's placeholder before it had a time) made a column of Unix milliseconds "Unix
    /// seconds": an error at line 3, 299 of 300 rows skipped with --lenient. The next value decides again.
    @Test("reads Unix milliseconds after a lone 0 on the first row as milliseconds")
    func aLonePlaceholderDoesNotDecideTheTimeUnit() throws {
        var text = "time,lat,lon\n0,52.5,13.4\n"
        for i in 1...5 { text += "\(1_714_564_800_000 + i * 1000),52.5,13.4\n" }
        let result = readCSV(text)
        #expect(result.error == nil, "\(String(describing: result.error))")
        var expected: [Int64] = [0]
        for i in 1...5 { expected.append(1_714_564_800_000 + Int64(i) * 1000) }
        #expect(result.fixes.map(\.timestamp.millisecondsSince1970) == expected)
        // Microseconds too; and seconds counted from 0 stay seconds.
        let micro = readCSV("time,lat,lon\n0,52.5,13.4\n1714564801000000,52.5,13.4\n")
        #expect(micro.fixes.last?.timestamp.millisecondsSince1970 == 1_714_564_801_000)
        let elapsed = readCSV("time,lat,lon\n0,52.5,13.4\n1,52.5,13.4\n1000,52.5,13.4\n")
        #expect(elapsed.fixes.map(\.timestamp.millisecondsSince1970) == [0, 1000, 1_000_000])
    }

    /// Only a lone first value: a second Unix-seconds value settles the unit, and the error for a later value in
    /// milliseconds names the line whose value decided it (it did not say why line 3 was "Unix seconds").
    @Test("names the line whose value decided the time unit when a later value does not read in it")
    func namesTheValueThatDecidedTheTimeUnit() throws {
        let error = readCSV("time,lat,lon\n1714564800,52.5,13.4\n1714564801000,52.5,13.4\n").error
        let text = String(describing: error)
        #expect(
            text.contains("expected Unix seconds in the years 0001-9999 (as line 2's value \"1714564800\" decided"),
            "\(text)")
        #expect(text.contains(":3:"), "\(text)")
        let settled = readCSV("time,lat,lon\n0,52.5,13.4\n1,52.5,13.4\n1714564801000,52.5,13.4\n").error
        #expect(String(describing: settled).contains("line 2's value \"0\""), "\(String(describing: settled))")
        // A name decides without a value to name.
        let named = String(describing: readCSV("time_s,lat,lon\n1714564801000,52.5,13.4\n").error)
        #expect(!named.contains("decided"), "\(named)")
    }

    /// The CSV readers' ISO 8601 paths (the fast one and a time of day beside a date column) read a leap second as
    /// :59.999, as ``ISO8601/parse(_:from:to:)`` does, and keep the 00:00:00 fix after it.
    @Test("reads a leap second 23:59:60 as 23:59:59.999 in ISO times and times of day")
    func leapSecond() throws {
        let iso = readCSV(
            "time,lat,lon\n2016-12-31T23:59:59Z,52.5,13.4\n2016-12-31T23:59:60Z,52.5,13.4\n"
                + "2016-12-31T23:59:60.5Z,52.5,13.4\n2017-01-01T00:00:00Z,52.5,13.4\n")
        #expect(
            iso.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2016-12-31T23:59:59Z"), ms("2016-12-31T23:59:59.999Z"), ms("2016-12-31T23:59:59.999Z"),
                ms("2017-01-01T00:00:00Z"),
            ])
        let ofDay = readCSV("date,time,lat,lon\n2016-12-31,23:59:60,52.5,13.4\n2017-01-01,00:00:00,52.5,13.4\n")
        #expect(
            ofDay.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2016-12-31T23:59:59.999Z"), ms("2017-01-01T00:00:00Z"),
            ])
    }

    @Test func readsTheCanonicalLayout() throws {
        let text = """
            time,latitude,longitude,accuracy_m,altitude_m,vertical_accuracy_m,speed_mps,speed_accuracy_mps,course_deg,course_accuracy_deg,provider,satellites,mocked,activity,activity_confidence
            2024-05-01T12:00:00Z,37.5,-122.25,4.5,12.75,3,1.5,0.25,370,5,gps,9,false,walking,80
            2024-05-01T12:00:01.250Z,37.50001,-122.25002,,,,,,,,,,,,

            """
        let result = readCSV(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        let a = try #require(result.fixes.first)
        #expect(a.timestamp.millisecondsSince1970 == 1_714_564_800_000)
        #expect(a.latitude == 37.5)
        #expect(a.longitude == -122.25)
        #expect(a.horizontalAccuracy == .metres(4.5))
        #expect(a.altitudeMetres == 12.75)
        #expect(a.verticalAccuracyMetres == 3)
        #expect(a.speedMetresPerSecond == 1.5)
        #expect(a.speedAccuracyMetresPerSecond == 0.25)
        #expect(a.courseDegrees == 10)  // wrapped by Fix.init
        #expect(a.courseAccuracyDegrees == 5)
        #expect(a.provider == .gps)
        #expect(a.satellitesUsed == 9)
        #expect(a.isMocked == false)
        #expect(a.activity == ActivityReading(kind: .walking, confidence: 80))
        let b = try #require(result.fixes.last)
        #expect(b.timestamp.millisecondsSince1970 == 1_714_564_801_250)
        #expect(b.horizontalAccuracy == .absent)
        #expect(b.altitudeMetres == nil)
        #expect(b.provider == .unknown)
        #expect(b.isMocked == nil)
        #expect(b.activity == nil)
        #expect(result.report.fixesProduced == 2)
        #expect(result.report.recordsRead == 3)
        #expect(result.report.bytesRead == text.utf8.count)
    }

    @Test func recognisesAliases() {
        #expect(CSVColumn(headerName: "lat") == .latitude)
        #expect(CSVColumn(headerName: "LatitudeDegrees") == .latitude)
        #expect(CSVColumn(headerName: "latDeg") == .latitude)
        #expect(CSVColumn(headerName: "Latitude (deg)") == .latitude)
        #expect(CSVColumn(headerName: "lng") == .longitude)
        #expect(CSVColumn(headerName: "long") == .longitude)
        #expect(CSVColumn(headerName: "LongitudeDegrees") == .longitude)
        #expect(CSVColumn(headerName: "time") == .time(.automatic))
        #expect(CSVColumn(headerName: "date_time") == .time(.automatic))
        #expect(CSVColumn(headerName: "UnixTimeMillis") == .time(.unixMilliseconds))
        #expect(CSVColumn(headerName: "time_ms") == .time(.unixMilliseconds))
        #expect(CSVColumn(headerName: "(UTC)TimeInMs") == .time(.unixMilliseconds))
        #expect(CSVColumn(headerName: "millisSinceGpsEpoch") == .time(.gpsMilliseconds))
        #expect(CSVColumn(headerName: "seconds") == .time(.unixSeconds))
        #expect(CSVColumn(headerName: "seconds_elapsed") == nil)  // Sensor Logger: not an epoch
        #expect(CSVColumn(headerName: "accuracy_m") == .horizontalAccuracy)
        #expect(CSVColumn(headerName: "horizontalAccuracy") == .horizontalAccuracy)
        #expect(CSVColumn(headerName: "AccuracyMeters") == .horizontalAccuracy)
        #expect(CSVColumn(headerName: "hAcc") == .horizontalAccuracy)
        // A dilution, not an accuracy: read as its own column, the accuracy of a fix that states none.
        #expect(CSVColumn(headerName: "hDop") == .hdop)
        #expect(CSVColumn(headerName: "ele") == .altitude)
        #expect(CSVColumn(headerName: "heightAboveWgs84EllipsoidM") == .altitude)
        #expect(CSVColumn(headerName: "altitude [m]") == .altitude)
        #expect(CSVColumn(headerName: "speedMps") == .speed)
        #expect(CSVColumn(headerName: "Speed (m/s)") == .speed)
        #expect(CSVColumn(headerName: "speed (km/h)") == .speed)  // read in km/h (CSVRegionalLayoutTests)
        #expect(CSVColumn(headerName: "speed (furlongs/fortnight)") == nil)  // a unit not known: not read
        #expect(CSVColumn(headerName: "courseDegree") == .course)
        #expect(CSVColumn(headerName: "BearingDegrees") == .course)
        #expect(CSVColumn(headerName: "bearingAccuracy") == .courseAccuracy)
        #expect(CSVColumn(headerName: "speedAccuracy") == .speedAccuracy)
        #expect(CSVColumn(headerName: "verticalAccuracy") == .verticalAccuracy)
        #expect(CSVColumn(headerName: "Provider") == .provider)
        #expect(CSVColumn(headerName: "MessageType") == .messageType)
        #expect(CSVColumn(headerName: "activity_confidence") == .activityConfidence)
        for column in CSVColumn.allCases {
            if let name = column.canonicalName { #expect(CSVColumn(headerName: name) == column) }
        }
    }

    /// Every altitude name also with its metres (`elevation_m`, `alt_m`, as `altitude_m`), the altitude above mean
    /// sea level (`altitude_msl`), and a speed column named by its unit alone (`kmh`, read in km/h as `speed_kmh`):
    /// a formats tester's files had them left unread without a word.
    @Test func readsAltitudesWithTheirMetresAndASpeedNamedByItsUnit() throws {
        for name in ["elevation_m", "alt_m", "altitude_msl", "Elevation (m)", "height_meters", "ALT_MSL"] {
            let result = readCSV("time,lat,lon,\(name)\n2024-05-01T10:00:00Z,52.5,13.4,7\n")
            #expect(result.fixes.first?.altitudeMetres == 7, "\(name)")
        }
        for (name, metresPerSecond) in [("kmh", 10.0), ("km/h", 10), ("kph", 10), ("mph", 36 * 0.44704)] {
            let result = readCSV("time,lat,lon,\(name)\n2024-05-01T10:00:00Z,52.5,13.4,36\n")
            let speed = try #require(result.fixes.first?.speedMetresPerSecond, "\(name)")
            #expect(abs(speed - metresPerSecond) < 1e-9, "\(name)")
        }
        #expect(CSVColumn(headerName: "elem") == nil)  // not `ele` with its metres: an element, as likely
    }

    /// Two latitude or two longitude columns (`time,lat,lon,latitude`) are a header error naming the column and both
    /// names, as a GPX attribute given twice is, even when lenient: the second was left unread, with no more than a
    /// warning from `process` (a formats tester's c_dup_lat.csv). Two columns of another field read the leftmost, as
    /// before (refused too, common exports failed outright: `speed` beside `speed_kmh`, `alt` beside `elevation_m`,
    /// a reviewer's). Several time columns are read by preference, a column left unread or renamed by the options
    /// decides, and two renamed to one field are an error too.
    @Test func twoColumnsOfOneFieldAreAHeaderErrorNamingBoth() throws {
        let rows = "2024-05-01T10:00:00Z,52.5,13.4,1,7\n"
        for (header, column, names) in [
            ("time,lat,lon,latitude,ele", 14, ["2, 'lat'", "4, 'latitude'"]),
            ("time,lat,lon,ele,lng", 18, ["3, 'lon'", "5, 'lng'"]),
        ] {
            for lenient in [false, true] {
                let result = readCSV(header + "\n" + rows, options: ReadOptions(lenient: lenient))
                #expect(result.fixes.isEmpty)
                guard case .unreadableHeader(let location, let expected, _)? = result.error else {
                    Issue.record("\(header): expected a header error, got \(String(describing: result.error))")
                    continue
                }
                #expect(location.line == 1 && location.column == column, "\(header): \(location)")
                #expect(names.allSatisfy(expected.contains), "\(expected)")
            }
        }
        #expect(readCSV("time,lat,lon,timestamp_ms\n2024-05-01T10:00:00Z,52.5,13.4,1714557600000\n").fixes.count == 1)
        // Another field twice: the leftmost is read.
        #expect(readCSV("time,lat,lon,alt,elevation_m\n" + rows).fixes.first?.altitudeMetres == 1)
        let speeds = readCSV("time;lat;lon;\"speed (km/h)\";kmh\n" + rows.replacingOccurrences(of: ",", with: ";"))
        #expect(speeds.error == nil && speeds.fixes.first?.speedMetresPerSecond == 1 / 3.6)
        var ignoring = ReadOptions()
        ignoring.csvColumnNames = ["latitude": "ignore"]
        #expect(readCSV("time,lat,lon,latitude,ele\n" + rows, options: ignoring).fixes.first?.latitude == 52.5)
        var renaming = ReadOptions()
        renaming.csvColumnNames = ["latitude": "lat"]
        #expect(readCSV("time,lat,lon,latitude,ele\n" + rows, options: renaming).fixes.first?.latitude == 1)
        renaming.csvColumnNames = ["latitude": "lat", "ele": "latitude"]
        #expect(readCSV("time,lat,lon,latitude,ele\n" + rows, options: renaming).error != nil)
    }

    /// Two columns of one name (`time,latitude,longitude,latitude`): the header error's advice named the column,
    /// `--column 'latitude=ignore'`, which left the first unread, the real one (a tester's: every fix on the
    /// equator, exit 0). A name several columns hold is refused, naming their numbers; `#N` names the Nth column.
    @Test("tells apart two columns of one name by their numbers, and refuses the name")
    func columnsOfOneNameByNumber() throws {
        let text = "time,latitude,longitude,latitude\n2024-05-01T10:00:00Z,52.5,13.4,0.0\n"
        guard case .unreadableHeader(_, let advice, _)? = readCSV(text).error else {
            Issue.record("expected a header error")
            return
        }
        #expect(advice.contains("--column '#4=ignore' or '#2=ignore'"), "\(advice)")
        var byName = ReadOptions()
        byName.csvColumnNames = ["latitude": "ignore"]
        guard case .unreadableHeader(_, let refusal, _)? = readCSV(text, options: byName).error else {
            Issue.record("expected the name to be refused")
            return
        }
        #expect(refusal.contains("columns 2 and 4 are"), "\(refusal)")
        for (key, latitude) in [("#4", 52.5), ("#2", 0.0)] {
            var byNumber = ReadOptions()
            byNumber.csvColumnNames = [key: "ignore"]
            #expect(readCSV(text, options: byNumber).fixes.first?.latitude == latitude, "\(key)")
        }
        var outOfRange = ReadOptions()
        outOfRange.csvColumnNames = ["#5": "ignore"]
        #expect(readCSV(text, options: outOfRange).error != nil)
        // A name one column holds is read as before.
        var renaming = ReadOptions()
        renaming.csvColumnNames = ["#3": "longitude", "#4": "ignore"]
        #expect(readCSV(text, options: renaming).fixes.first?.longitude == 13.4)
    }

    /// Times written with a zone and without one in one file: the lines of the first of each are reported, as the
    /// fast path (one ISO layout) and the slow one (a space before the offset) read them; a file of one kind reports
    /// no mixture.
    @Test("reports the first line of times with a zone and of times without one")
    func reportsTimesWithAndWithoutZone() {
        func lines(_ times: [String]) -> (Int?, Int?) {
            let text = "time,latitude,longitude\n" + times.map { "\($0),52.5,13.4\n" }.joined()
            var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)), options: ReadOptions())
            _ = reader.readAll()
            return (reader.firstZonedTimeLine, reader.firstLocalTimeLine)
        }
        let mixed = lines(["2025-05-01T12:00:00+02:00", "2025-05-01T12:00:01+02:00", "2025-05-01T12:00:02"])
        #expect(mixed.0 == 2 && mixed.1 == 4)
        let slow = lines(["2025-05-01 12:00:00", "2025-05-01 12:00:01 +0200"])
        #expect(slow.0 == 3 && slow.1 == 2)
        let zoned = lines(["2025-05-01T12:00:00Z", "2025-05-01T12:00:01Z"])
        #expect(zoned.0 == 2 && zoned.1 == nil)
        let local = lines(["2025-05-01T12:00:00", "2025-05-01T12:00:01"])
        #expect(local.0 == nil && local.1 == 2)
    }

    /// A segment column (also GDAL's `track_seg_id`) names each fix's segment; an empty field or no column, none;
    /// a value that is no integer is an error naming the column.
    @Test func readsTheSegmentColumn() throws {
        var reader = CSVReader(
            stream: ByteStream(
                bytes: Array(
                    "lat,lon,time,track_seg_id\n1,2,2024-01-01T00:00:00Z,0\n1,2,2024-01-01T00:00:01Z,3\n"
                        .appending("1,2,2024-01-01T00:00:02Z,\n1,2,2024-01-01T00:00:03Z,x\n").utf8)))
        var segments: [Int?] = []
        for _ in 0..<3 {
            _ = try reader.next()
            segments.append(reader.lastSegmentIndex)
        }
        #expect(segments == [0, 3, nil])
        let error = #expect(throws: ReadError.self) { try reader.next() }
        #expect(error?.description.contains("field 'track_seg_id'") == true, "\(String(describing: error))")
        var plain = CSVReader(stream: ByteStream(bytes: Array("lat,lon,time\n1,2,2024-01-01T00:00:00Z\n".utf8)))
        #expect(try plain.next() != nil && plain.lastSegmentIndex == nil)
        // Written and read back.
        let sink = ByteSink()
        var writer = CSVWriter(sink: sink, keepsSegments: true)
        let fix = try Fix(timestamp: Timestamp(millisecondsSince1970: 0), latitude: 1, longitude: 2)
        try writer.write(fix)
        writer.startNewSegment()
        try writer.write(fix.retimed(to: Timestamp(millisecondsSince1970: 1_000)))
        try writer.finish()
        var back = CSVReader(stream: ByteStream(bytes: sink.memory ?? []))
        var written: [Int?] = []
        while let _ = try back.next() { written.append(back.lastSegmentIndex) }
        #expect(written == [0, 1])
    }

    @Test func sniffsSemicolonsAndTabs() throws {
        let semicolons = readCSV(
            "lat;lon;time\n48,5;2;x\n".replacingOccurrences(of: "48,5;2;x", with: "48.5;2.25;1700000000"))
        #expect(semicolons.error == nil)
        #expect(semicolons.fixes.first?.latitude == 48.5)
        #expect(semicolons.fixes.first?.timestamp.millisecondsSince1970 == 1_700_000_000_000)
        let tabs = readCSV("lat\tlon\ttime_ms\n48.5\t2.25\t1700000000123\n")
        #expect(tabs.error == nil)
        #expect(tabs.fixes.first?.longitude == 2.25)
        #expect(tabs.fixes.first?.timestamp.millisecondsSince1970 == 1_700_000_000_123)
    }

    /// Excel's `sep=;` line names the delimiter (a formats tester's export was refused: "expected a CSV header …
    /// found sep=;"); the header whose commas would have outvoted it is read by it.
    @Test("reads the delimiter an Excel sep= line names, before the header")
    func readsTheDelimiterASepLineNames() throws {
        for text in [
            "sep=;\ntime;lat;lon;note\n2024-05-01T10:00:00Z;48.5;2.25;a,b,c,d\n",
            "\u{FEFF}SEP=;\r\ntime;lat;lon;note\r\n2024-05-01T10:00:00Z;48.5;2.25;a,b,c,d\r\n",
            "\"sep=;\"\ntime;lat;lon;note\n2024-05-01T10:00:00Z;48.5;2.25;a,b,c,d\n",
        ] {
            let result = readCSV(text)
            #expect(result.error == nil, "\(text)")
            #expect(result.fixes.first?.latitude == 48.5 && result.fixes.first?.longitude == 2.25, "\(text)")
            #expect(result.report.skipped(.comment) == 1)
            #expect(FixFormat.sniff(Array(text.utf8)) == .csv, "\(text)")
        }
        let tabs = readCSV("sep=\t\ntime\tlat\tlon\n2024-05-01T10:00:00Z\t48.5\t2.25\n")
        #expect(tabs.fixes.count == 1)
        // As in Excel, on the first line only.
        let later = readCSV("# note\nsep=;\ntime;lat;lon\n2024-05-01T10:00:00Z;48.5;2.25\n")
        #expect(later.fixes.isEmpty && later.error != nil)
        // Only the whole line is the directive.
        #expect(CSVReader.declaredDelimiter(Array("sep=;x".utf8)) == nil)
        #expect(CSVReader.declaredDelimiter(Array("sep=a".utf8)) == nil)
        #expect(CSVReader.declaredDelimiter(Array("sep=|".utf8)) == UInt8(ascii: "|"))
    }

    /// Exports joined with `cat` repeat the header (and Excel's `sep=` line and byte-order mark) at each join: they
    /// were malformed rows, the read stopped at the second file's header. They are skipped as a header (a
    /// comment); a header that differs from the first still stops the read, since its columns may be others.
    @Test("skips the header repeated where CSV files were joined")
    func skipsARepeatedHeader() throws {
        let day1 = "time,lat,lon,accuracy\n2024-05-01T10:00:00Z,48.5,2.25,5\n2024-05-01T10:00:01Z,48.50001,2.25,5\n"
        let day2 = "time,lat,lon,accuracy\n2024-05-02T10:00:00Z,48.6,2.25,5\n"
        let joined = readCSV(day1 + day2 + day2)
        #expect(joined.error == nil)
        #expect(joined.fixes.map(\.latitude) == [48.5, 48.50001, 48.6, 48.6])
        #expect(joined.report.skipped(.header) == 3)
        #expect(joined.report.errors.isEmpty)
        let excel = "\u{FEFF}sep=;\r\ntime;lat;lon\r\n2024-05-01T10:00:00Z;48,5;2,25\r\n"
        let excelJoined = readCSV(excel + excel)
        #expect(excelJoined.error == nil)
        #expect(excelJoined.fixes.count == 2)
        #expect(excelJoined.report.skipped(.comment) == 2 && excelJoined.report.skipped(.header) == 2)
        // The same names in another case or quoting are a repeat (the read stopped there, a reviewer's).
        let recased = readCSV(
            day1 + "Time,LAT,\"lon\",Accuracy\n2024-05-02T10:00:00Z,48.6,2.25,5\n", options: ReadOptions(lenient: true))
        #expect(recased.error == nil && recased.fixes.count == 3 && recased.report.skipped(.header) == 2)
        // A header whose quoted name holds the delimiter repeats as well (split as the header was).
        let quotedHeader = "time,lat,lon,\"note, free\"\n2024-05-01T10:00:00Z,48.5,2.25,a\n"
        let quotedJoined = readCSV(quotedHeader + quotedHeader, options: ReadOptions(lenient: true))
        #expect(quotedJoined.error == nil && quotedJoined.fixes.count == 2 && quotedJoined.report.errorCount == 0)
        // A placeholder `0,0` with a decimal comma lets the next value decide the unit, as `0` does.
        let placeholder = readCSV("time;lat;lon\n0,0;48,1;11,5\n1714564801000,0;48,1;11,5\n")
        #expect(placeholder.error == nil && placeholder.fixes.count == 2)
        // Another header is no repeat: its columns may be in another order.
        let other = readCSV(day1 + "lat,lon,time,accuracy\n48.6,2.25,2024-05-02T10:00:00Z,5\n")
        #expect(other.fixes.count == 2)
        #expect(other.error?.location.line == 4)
        // Read leniently, its rows were read by the first header's columns (latitude and longitude swapped): another
        // header ends the reading whatever the option.
        let swapped = readCSV(
            day1 + "time,lon,lat,accuracy\n2024-05-02T10:00:00Z,2.25,48.6,5\n", options: ReadOptions(lenient: true))
        #expect(swapped.fixes.map(\.latitude) == [48.5, 48.50001])
        #expect(swapped.error?.endsReadingEvenWhenLenient == true)
        #expect(swapped.error?.location.line == 4)
        // A data row with a stray word is no header.
        let stray = readCSV(day1 + "2024-05-02T10:00:00Z,lat,2.25,5\n", options: ReadOptions(lenient: true))
        #expect(stray.error == nil && stray.report.errorCount == 1)
        // A `sep=` line naming another delimiter than the file's is no repeat either.
        #expect(readCSV(day1 + "sep=;\n").error != nil)
        // Read in small chunks, a header across a chunk boundary is still recognised.
        var long = ""
        for day in 1...3 {
            long += "time,lat,lon,accuracy\r\n"
            for i in 0..<40 { long += "2024-05-0\(day)T10:00:\(10 + i)Z,48.5\(i),2.25,5\r\n" }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("joined-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(long.utf8))
        var reader = CSVReader(stream: try ByteStream(path: path, chunkBytes: 64))
        let chunked = reader.readAll()
        #expect(chunked.error == nil && chunked.fixes.count == 120)
    }

    /// GPS loggers' exports carry an HDOP and no accuracy (a formats tester's file read every fix at the assumed
    /// 30 m): the HDOP gives the accuracy as in GPX and NMEA, and a stated accuracy wins where there is one.
    @Test("takes a fix's accuracy from its HDOP when it states none")
    func takesTheAccuracyFromTheHDOP() throws {
        let alone = readCSV("time,lat,lon,HDOP\n2024-05-01T10:00:00Z,48.5,2.25,1.2\n2024-05-01T10:00:01Z,48.5,2.25,\n")
        #expect(alone.error == nil && alone.fixes.count == 2)
        #expect(alone.fixes.first?.horizontalAccuracy == .metres(1.2 * HDOPInterpretation.defaultUEREMetres))
        #expect(alone.fixes.last?.horizontalAccuracy == .absent)
        let scaled = readCSV(
            "time,lat,lon,hdop\n2024-05-01T10:00:00Z,48.5,2.25,1.5\n",
            options: ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10)))
        #expect(scaled.fixes.first?.horizontalAccuracy == .metres(15))
        let both = readCSV(
            "time,lat,lon,accuracy,hdop\n2024-05-01T10:00:00Z,48.5,2.25,4,1.2\n2024-05-01T10:00:01Z,48.5,2.25,,2\n")
        #expect(both.fixes.first?.horizontalAccuracy == .metres(4))
        #expect(both.fixes.last?.horizontalAccuracy == .metres(2 * HDOPInterpretation.defaultUEREMetres))
        // A DOP of 0 (a logger without a fix) gives no accuracy, as in GPX; so does one that is no number (a file
        // read before the column was must still read).
        let zero = readCSV("time,lat,lon,hdop\n2024-05-01T10:00:00Z,48.5,2.25,0\n2024-05-01T10:00:01Z,48.5,2.25,N/A\n")
        #expect(zero.error == nil)
        #expect(zero.fixes.map(\.horizontalAccuracy) == [.absent, .absent])
    }

    /// A time without a zone followed by an integer column: the fast parser read `10:00:00,5` as a decimal comma's
    /// fraction in a comma-separated file (the time 500 ms late, the accuracy column lost, the row refused).
    @Test("reads a time without a zone followed by an integer column in a comma-separated file")
    func readsATimeWithoutAZoneBeforeAnIntegerColumn() throws {
        let result = readCSV(
            "timestamp,accuracy,lat,lon\n2024-05-01T10:00:00,5,48.1,11.5\n2024-05-01 10:00:01,7,48.2,11.5\n"
                + "2024-05-01T10:00:02,5,48.3,11.5\n")
        #expect(result.error == nil)
        #expect(result.fixes.map(\.timestamp.millisecondsSince1970) == [0, 1, 2].map { 1_714_557_600_000 + $0 * 1000 })
        #expect(result.fixes.map(\.horizontalAccuracy) == [.metres(5), .metres(7), .metres(5)])
        // A semicolon-separated file keeps its decimal comma.
        let semicolons = readCSV(
            "timestamp;lat;lon\n2024-05-01T10:00:00,5;48.1;11.5\n2024-05-01T10:00:01,25;48.1;11.5\n")
        #expect(semicolons.fixes.map(\.timestamp.millisecondsSince1970) == [1_714_557_600_500, 1_714_557_601_250])
    }

    /// A date-time cell saved as a number is a spreadsheet's serial date, days since 1899-12-30: read as Unix seconds
    /// it was a time on 1 January 1970 (a tester's walk: 689 of 715 fixes out of order, 0 m).
    @Test("reads a spreadsheet's serial dates")
    func readsSpreadsheetSerialDates() throws {
        let result = readCSV("time,lat,lon\n45996.5854977,48.1,11.5\n45996.58550926,48.10001,11.5\n")
        #expect(result.error == nil)
        // 2025-12-05T14:03:07Z and one second later (the first serial's seven decimals: within 5 ms).
        let times = result.fixes.map(\.timestamp.millisecondsSince1970)
        #expect(times.count == 2 && abs(times[0] - 1_764_943_387_000) <= 5 && abs(times[1] - 1_764_943_388_000) <= 5)
        // With a decimal comma in a `;` file too.
        let comma = readCSV("time;lat;lon\n45996,5854977;48,1;11,5\n")
        #expect(comma.fixes.count == 1 && abs(comma.fixes[0].timestamp.millisecondsSince1970 - 1_764_943_387_000) <= 5)
        // Outside 1970-2100 a number keeps its Unix reading: seconds of 2024, and a lone 0 placeholder.
        #expect(
            readCSV("time,lat,lon\n1714564800,48.1,11.5\n").fixes.first?.timestamp.millisecondsSince1970
                == 1_714_564_800_000)
        #expect(readCSV("time,lat,lon\n0,48.1,11.5\n").fixes.first?.timestamp.millisecondsSince1970 == 0)
        // A column so decided takes no value that is no serial date.
        #expect(readCSV("time,lat,lon\n45996.5,48.1,11.5\n2025-12-05T12:00:00Z,48.1,11.5\n").error != nil)
    }

    /// German Excel writes a time of day's fraction after a comma (`14:03:07,250`, as ISO 8601 allows) and a Unix
    /// time with a decimal comma in its `;` files: both were refused at row 1 ("expected an ISO 8601 time").
    @Test("reads a decimal comma in a time of day and in a Unix time")
    func readsADecimalCommaInTimes() throws {
        let ofDay = readCSV("date;time;lat;lon\n05.12.2025;14:03:07,250;48,1;11,5\n05.12.2025;14:03:08,75;48,2;11,5\n")
        #expect(ofDay.error == nil)
        #expect(ofDay.fixes.map(\.timestamp.millisecondsSince1970) == [1_764_943_387_250, 1_764_943_388_750])
        let unix = readCSV("timestamp;lat;lon\n1764943387,5;48,1;11,5\n1764943388,25;48,2;11,5\n")
        #expect(unix.error == nil)
        #expect(unix.fixes.map(\.timestamp.millisecondsSince1970) == [1_764_943_387_500, 1_764_943_388_250])
        // A quoted comma in a comma-separated file too (a time of day beside a date).
        let quoted = readCSV("date,time,lat,lon\n2025-12-05,\"14:03:07,250\",48.1,11.5\n")
        #expect(quoted.fixes.map(\.timestamp.millisecondsSince1970) == [1_764_943_387_250])
        // Two commas are no number.
        #expect(readCSV("timestamp;lat;lon\n1764943387,5,1;48,1;11,5\n").error != nil)
    }

    @Test func readsQuotedFieldsBOMAndCRLF() throws {
        let text =
            "\u{FEFF}\"lat\",\"lon\",\"time\",\"note\",\"provider\"\r\n"
            + "\"1.5\",2.5,\"2024-01-01T00:00:00Z\",\"say \"\"hi\"\", ok\",\"GT\"\r\n"
            + "3.5,4.5,2024-01-01T00:00:01Z,\"two\nlines\",gps\r\n"
            + "5.5,6.5,2024-01-01T00:00:02Z,x,gps\r\n"
            + "91,0,2024-01-01T00:00:03Z,x,gps"
        let result = readCSV(text)
        #expect(result.fixes.count == 3)
        #expect(result.fixes[0].latitude == 1.5)
        #expect(result.fixes[0].provider == .groundTruth)
        #expect(result.fixes[1].latitude == 3.5)
        #expect(result.fixes[2].timestamp.millisecondsSince1970 == ms("2024-01-01T00:00:02Z"))
        // The quoted line break counts: the bad latitude is on line 6 (header 1, rows 2, 3-4, 5, 6).
        let error = try #require(result.error)
        guard case .invalidFix(let place, .latitudeOutOfRange(91), let field) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        // The header's name, as for a value that is no number.
        #expect(field == "lat" && error.description.contains("field 'lat': latitude 91.0 is outside"))
        #expect(place.line == 6)
        #expect(place.column == 1)
    }

    @Test func emptyFieldsAreAbsentAndRowsWithoutTimeOrPositionAreSkipped() {
        let result = readCSV(
            """
            time,lat,lon,accuracy
            2024-01-01T00:00:00Z,1,2,
            ,1,2,3
            2024-01-01T00:00:02Z,,2,3
            2024-01-01T00:00:03Z,1,  ,3

            # a comment
            2024-01-01T00:00:04Z,1,2,0
            """)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.fixes[0].horizontalAccuracy == .absent)
        #expect(result.fixes[1].horizontalAccuracy == .invalid)
        #expect(result.report.skipped(.missingTime) == 1)
        #expect(result.report.skipped(.missingPosition) == 2)
        #expect(result.report.skipped(.blank) == 1)
        #expect(result.report.skipped(.comment) == 1)
        #expect(result.report.skipped(.header) == 1)
    }

    @Test func reportsMissingAndExtraColumnsWithTheirPlace() throws {
        let missing = readCSV("time,lat,lon,speed\n2024-01-01T00:00:00Z,1,2\n")
        guard case .malformedField(let place, let field, _, _) = try #require(missing.error) else {
            Issue.record("expected malformedField, got \(String(describing: missing.error))")
            return
        }
        #expect(place.line == 2)
        #expect(place.column == 25)
        #expect(field == "speed")

        let extra = readCSV("time,lat,lon\n2024-01-01T00:00:00Z,1,2,99\n")
        guard case .malformedField(let place2, let field2, _, let found2) = try #require(extra.error) else {
            Issue.record("expected malformedField, got \(String(describing: extra.error))")
            return
        }
        #expect(place2.line == 2)
        #expect(place2.column == 26)
        #expect(field2 == "column 4")
        #expect(found2 == "99")
    }

    /// A delimiter closing every row that the header does not close (an export's habit) ends the row: a CLI
    /// tester's file failed at its first row, and `--lenient` skipped every row. A field after it is still extra.
    @Test("reads rows closed by a delimiter the header lacks")
    func rowsClosedByADelimiter() {
        for ending in ["\n", "\r\n"] {
            let rows = ["2024-01-01T00:00:00Z,1,2,", "2024-01-01T00:00:01Z,1,2.0001,"]
            let closed = readCSV("time,lat,lon" + ending + rows.joined(separator: ending) + ending)
            #expect(closed.error == nil && closed.fixes.map(\.longitude) == [2, 2.0001], "\(ending.debugDescription)")
            // At the input's end without a line break too.
            #expect(readCSV("time,lat,lon" + ending + rows.joined(separator: ending)).fixes.count == 2)
        }
        #expect(readCSV("time,lat,lon\n2024-01-01T00:00:00Z,1,2,,\n").error != nil)
        #expect(readCSV("time,lat,lon\n2024-01-01T00:00:00Z,1,2, \n").error != nil)
    }

    /// A field read as missing is counted with a fix only: a row skipped for its position, or refused for its
    /// latitude, does not count its bad speed (a reviewer: the CLI said "its fix was kept" of a dropped row).
    @Test func aFieldReadAsMissingIsCountedOnlyWithAFix() {
        let text =
            "time,lat,lon,speed\n2024-01-01T00:00:00Z,1,2,x\n2024-01-01T00:00:01Z,,,x\n"
            + "2024-01-01T00:00:02Z,1x,2,x\n2024-01-01T00:00:03Z,1,2,3\n"
        let lenient = readCSV(text, options: ReadOptions(lenient: true))
        #expect(lenient.fixes.count == 2 && lenient.report.errorCount == 1)
        #expect(lenient.report.unreadableFields.map(\.location.line) == [2])
    }

    /// An activity confidence written as a share (`0.9`, `1.0`) is read as a percentage; a whole number is one
    /// already, and a fraction above 1 is rounded (a column-mangling tester's `0.9` failed at the first row).
    @Test func readsAnActivityConfidenceWrittenAsAShare() throws {
        let text =
            "time,lat,lon,activity,activity_confidence\n2024-01-01T00:00:00Z,1,2,still,0.9\n"
            + "2024-01-01T00:00:01Z,1,2,still,1.0\n2024-01-01T00:00:02Z,1,2,still,85\n"
            + "2024-01-01T00:00:03Z,1,2,still,87.6\n2024-01-01T00:00:04Z,1,2,still,1.5e3\n"
        let result = readCSV(text)
        #expect(result.fixes.map { $0.activity?.confidence } == [90, 100, 85, 88])
        guard case .malformedField(_, "activity_confidence", _, "1.5e3")? = result.error else {
            Issue.record("expected the out-of-range confidence's error, got \(String(describing: result.error))")
            return
        }
    }

    @Test func reportsMalformedValuesAndGoesOnWhenLenient() throws {
        let text =
            "time,lat,lon,speed\n2024-01-01T00:00:00Z,1,2,3\n2024-01-01T00:00:01Z,1,2,fast\n"
            + "2024-01-01T00:00:02Z,1x,2,3\nnot a time,1,2,3\n2024-01-01T00:00:04Z,1,2,3\n"
        let strict = readCSV(text)
        #expect(strict.fixes.count == 1)
        guard case .malformedField(let place, "speed", "a number", "fast") = try #require(strict.error) else {
            Issue.record("unexpected \(String(describing: strict.error))")
            return
        }
        #expect(place.line == 3)
        #expect(place.column == 26)
        #expect(place.byteOffset == 19 + 27 + 25)

        // Read leniently, the speed `fast` is read as missing and its fix kept; the rows without a latitude or a
        // time are skipped.
        let lenient = readCSV(text, options: ReadOptions(lenient: true))
        #expect(lenient.error == nil)
        #expect(lenient.fixes.count == 3)
        #expect(lenient.fixes[1].speedMetresPerSecond == nil && lenient.fixes[1].latitude == 1)
        #expect(lenient.report.errorCount == 2 && lenient.report.unreadableFieldCount == 1)
        #expect(lenient.report.skipped(.malformed) == 2)
        #expect(lenient.report.errors.map(\.location.line) == [4, 5])
        #expect(lenient.report.unreadableFields.map(\.location) == [place])
    }

    /// A stray quote (`"gps`) opens a quoted field that never closes: the error names its line, column and field,
    /// and in lenient mode only its line is skipped. Before, a batch tester's 51-line file lost the 40 rows after
    /// it, reported as "ends early" at column 1 with exit status 0; a file with more than the record limit after
    /// it stopped with "record longer than 16777216 bytes" even when lenient.
    @Test func aStrayQuoteIsNamedAndLenientReadingSkipsOnlyItsLine() throws {
        let rows = (0..<60).map { i in
            "2024-01-01T00:\(i < 10 ? "0" : "")\(i):00Z,1.\(i),2,\(i == 9 ? "\"gps" : "gps")\n"
        }
        let text = "time,lat,lon,provider\n" + rows.joined()
        let strict = readCSV(text)
        #expect(strict.fixes.count == 9)
        guard case .malformedField(let place, "provider", _, "\"gps") = try #require(strict.error) else {
            Issue.record("unexpected \(String(describing: strict.error))")
            return
        }
        #expect(place.line == 11 && place.column == 28, "\(place)")
        let lenient = readCSV(text, options: ReadOptions(lenient: true))
        #expect(lenient.error == nil && lenient.fixes.count == 59 && lenient.report.errorCount == 1)
        #expect(lenient.report.endOfInput == nil)
        // Two stray quotes pair up as one quoted field over 30 lines, closed by a quote with text after it: each is
        // its line's error (a reviewer's lost the 29 rows between them, named at the second).
        var two = rows
        two[39] = two[39].replacingOccurrences(of: ",gps", with: ",\"gps")
        let pair = readCSV("time,lat,lon,provider\n" + two.joined(), options: ReadOptions(lenient: true))
        #expect(pair.fixes.count == 58 && pair.report.errors.map(\.location.line) == [11, 41], "\(pair.report.errors)")
        // The same in a typed column (the latitude), whose parser refused the field over 30 lines first (a third
        // reviewer's lost the rows between).
        var typed = rows.map { $0.replacingOccurrences(of: "\"", with: "") }
        for k in [9, 39] { typed[k] = typed[k].replacingOccurrences(of: "Z,1.", with: "Z,\"1.") }
        let latitude = readCSV("time,lat,lon,provider\n" + typed.joined(), options: ReadOptions(lenient: true))
        #expect(
            latitude.fixes.count == 58 && latitude.report.errors.map(\.location.line) == [11, 41],
            "\(latitude.report.errors)")
        // The two in different columns (the provider, then the latitude), and in a file whose every field is quoted
        // (a `"gps` left open at a line's end, closed by the next line's first quote): each is its line's error (a
        // third reviewer's lost the 14 rows between, and the line after each stray).
        var mixed = rows
        mixed[39] = rows[39].replacingOccurrences(of: "Z,1.", with: "Z,\"1.")
        let columns = readCSV("time,lat,lon,provider\n" + mixed.joined(), options: ReadOptions(lenient: true))
        #expect(
            columns.fixes.count == 58 && columns.report.errors.map(\.location.line) == [11, 41],
            "\(columns.report.errors)")
        let quoted = (0..<60).map { i in
            let fields = ["2024-01-01T00:\(i < 10 ? "0" : "")\(i):00Z", "1.\(i)", "2", "gps"]
            return fields.map { "\"\($0)\"" }.joined(separator: ",").replacingOccurrences(
                of: "\"gps\"", with: i == 9 || i == 39 ? "\"gps" : "\"gps\"") + "\n"
        }
        let allQuoted = readCSV(
            "\"time\",\"lat\",\"lon\",\"provider\"\n" + quoted.joined(), options: ReadOptions(lenient: true))
        #expect(
            allQuoted.fixes.count == 58 && allQuoted.report.errors.map(\.location.line) == [11, 41],
            "\(allQuoted.report.errors)")
        // A multi-line quoted note closed by a quote with text after it is one bad row, as before: its second line
        // is not read as a row (a reviewer's, whose second line looked like one 130 km away).
        let note =
            "time,lat,lon,note\n2024-01-01T00:00:00Z,1,2,ok\n2024-01-01T00:00:01Z,1,2,\"copied from\n"
            + "2024-01-01T00:00:09Z,48,9,x\nend\" \n2024-01-01T00:00:02Z,1,2,ok\n"
        let noted = readCSV(note, options: ReadOptions(lenient: true))
        #expect(noted.fixes.map(\.latitude) == [1, 1] && noted.report.errors.map(\.location.line) == [5])
        // A properly quoted field holding a delimiter on the closing line is one field, not two (a second reviewer's
        // `"a, b"` counted as two, and the rows between the stray and it were lost).
        var quotedComma = rows
        quotedComma[39] = rows[39].replacingOccurrences(of: ",gps", with: ",\"g, ps\"")
        let comma = readCSV("time,lat,lon,provider\n" + quotedComma.joined(), options: ReadOptions(lenient: true))
        #expect(comma.fixes.count == 59 && comma.report.errors.map(\.location.line) == [11], "\(comma.report.errors)")
        // And a second stray followed by a properly quoted field on its line (a third reviewer's `"bad,"gps"`,
        // whose quotes read as pairs from the line's start lost the four rows between).
        var strayThenQuoted = rows
        strayThenQuoted[39] = rows[39].replacingOccurrences(of: ",2,gps", with: ",\"2,\"gps\"")
        let then = readCSV("time,lat,lon,provider\n" + strayThenQuoted.joined(), options: ReadOptions(lenient: true))
        #expect(then.fixes.count == 58 && then.report.errors.map(\.location.line) == [11, 41], "\(then.report.errors)")
        // So is one closed by a quote after a delimiter on a line that is no row (another reviewer's
        // `end of excerpt,"  (driver)",5` and `" (driver),5`: the 130 km line came back when any quote opening a
        // field was taken for a stray).
        for closing in ["end of excerpt,\"  (driver)\",ok\n", "\" (driver),ok\n"] {
            let excerpt =
                "time,lat,lon,note\n2024-01-01T00:00:00Z,1,2,ok\n2024-01-01T00:00:01Z,1,2,\"Log excerpt:\n"
                + "2024-01-01T00:00:09Z,48,9,x\n" + closing + "2024-01-01T00:00:02Z,1,2,ok\n"
            let read = readCSV(excerpt, options: ReadOptions(lenient: true))
            #expect(read.fixes.map(\.latitude) == [1, 1], "\(closing): \(read.fixes.map(\.latitude))")
        }
        // Every line read once: no empty line after the last (a reviewer's 51-line file read 52 records).
        #expect(lenient.report.recordsRead == 61 && lenient.report.skipped(.blank) == 0)
        // In the header, there is no row to skip: the header cannot be read, said at the quote.
        let clean = rows.map { $0.replacingOccurrences(of: "\"", with: "") }.joined()
        let header = readCSV("time,lat,lon,\"provider\n" + clean, options: ReadOptions(lenient: true))
        guard case .unreadableHeader(let at, _, _)? = header.error else {
            Issue.record("expected a header error: \(String(describing: header.error))")
            return
        }
        #expect(at.line == 1 && at.column == 14 && header.fixes.isEmpty)

        // More input after the quote than one record may hold, read in small chunks.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stray-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let long = text + (60..<600).map { rows[$0 % 60].replacingOccurrences(of: "\"", with: "") }.joined()
        try Data(long.utf8).write(to: URL(fileURLWithPath: path))
        for isLenient in [false, true] {
            var reader = CSVReader(
                stream: try ByteStream(path: path, chunkBytes: 64, maximumRecordBytes: 4096),
                options: ReadOptions(lenient: isLenient))
            let result = reader.readAll()
            if isLenient {
                #expect(result.error == nil && result.fixes.count == 599 && result.report.errorCount == 1)
            } else {
                #expect(result.fixes.count == 9)
                #expect(result.error?.location.line == 11, "\(String(describing: result.error))")
            }
        }
    }

    @Test func keepsReadingAfterAnErrorWhenCalledAgain() throws {
        var reader = CSVReader(
            stream: ByteStream(bytes: Array("time,lat,lon\n2024-01-01T00:00:00Z,x,1\n2024-01-01T00:00:01Z,1,1\n".utf8)))
        #expect(throws: ReadError.self) { _ = try reader.next() }
        let fix = try reader.next()
        #expect(fix?.timestamp.millisecondsSince1970 == ms("2024-01-01T00:00:01Z"))
        #expect(try reader.next() == nil)
    }

    /// A header TrueTrack does not recognise is read through ``ReadOptions/csvColumnNames``: a column renamed,
    /// one left unread, a renamed column taking the place of the file's own for its quantity; a mistyped key or
    /// an unknown name is a header error, not a file read without the column.
    @Test func readsColumnsUnderTheNamesTheOptionsGive() throws {
        let text = "T (ms),y,x,hdop_m,speed,km\n1700000000000,45.5,7.25,4,100,1\n1700000001000,45.5,7.25,5,200,2\n"
        #expect(readCSV(text).error != nil)
        var options = ReadOptions()
        options.csvColumnNames = [" t (MS) ": "time_ms", "y": "latitude", "x": "lon", "hdop_m": "accuracy_m"]
        let renamed = readCSV(text, options: options)
        #expect(renamed.error == nil && renamed.fixes.count == 2, "\(String(describing: renamed.error))")
        #expect(renamed.fixes.first?.timestamp.millisecondsSince1970 == 1_700_000_000_000)
        #expect(renamed.fixes.map(\.latitude) == [45.5, 45.5] && renamed.fixes.first?.longitude == 7.25)
        #expect(renamed.fixes.map(\.horizontalAccuracy) == [.metres(4), .metres(5)])
        // The speed in cm/s: left unread, or read from another column in its place.
        #expect(renamed.fixes.first?.speedMetresPerSecond == 100)
        options.csvColumnNames["speed"] = "ignore"
        #expect(readCSV(text, options: options).fixes.allSatisfy { $0.speedMetresPerSecond == nil })
        options.csvColumnNames["speed"] = nil
        options.csvColumnNames["km"] = "speed_kmh"
        let kilometresPerHour: [Double?] = [1 / 3.6, 2 / 3.6]
        #expect(readCSV(text, options: options).fixes.map(\.speedMetresPerSecond) == kilometresPerHour)
        // A key the header lacks, a name nothing reads.
        for wrong in [["t": "time_ms"], ["y": "latitud"]] {
            options.csvColumnNames = wrong
            guard case .unreadableHeader(let at, _, _)? = readCSV(text, options: options).error else {
                Issue.record("\(wrong): expected a header error")
                continue
            }
            #expect(at.line == 1)
        }
        // Two names for one column (matched ignoring case) are an error, not a choice made by sort order.
        options.csvColumnNames = ["Y": "latitude", "y": "ignore", "x": "longitude", "T (ms)": "time_ms"]
        #expect(readCSV(text, options: options).error != nil)
        // What kind of export a file is follows its own header: a Traccar export keeps its knots and its device
        // column's rule when a column is renamed (a reviewer's read 10 knots as 10 m/s).
        let traccar =
            "id,protocol,deviceid,fixtime,valid,latitude,longitude,speed,acc\n"
            + "0,teltonika,111,2024-03-05 22:40:00,true,37.4,-122,10,6.3\n"
        var renamedTraccar = ReadOptions()
        renamedTraccar.csvColumnNames = ["acc": "accuracy_m"]
        let knots = readCSV(traccar, options: renamedTraccar)
        #expect(knots.fixes.first?.speedMetresPerSecond == 10 * 1852.0 / 3600, "\(String(describing: knots.error))")
        #expect(knots.fixes.first?.horizontalAccuracy == .metres(6.3))
        // One device asked for, of a file whose device column is left unread: an error, not every device's rows.
        renamedTraccar.csvColumnNames = ["deviceid": "ignore"]
        renamedTraccar.devices = .only("111")
        guard case .unreadableHeader? = readCSV(traccar, options: renamedTraccar).error else {
            Issue.record("--device without a device column read the file")
            return
        }
        // Short names that mean other things in other files are read only when named: `acc` (an accelerometer's
        // magnitude in a sensor log), `t_ms` (milliseconds since boot), as a reviewer found.
        #expect(readCSV("t_ms,lat,lon\n1000,45.5,7.25\n").error != nil)
        let accelerometer = readCSV("time,lat,lon,acc,accuracy\n1700000000,45.5,7.25,9.81,4\n")
        #expect(accelerometer.fixes.first?.horizontalAccuracy == .metres(4))
    }

    @Test func requiresAHeaderWithPositionAndTime() throws {
        let result = readCSV("latitude,longitude,speed\n1,2,3\n")
        guard case .unreadableHeader(let place, let expected, _) = try #require(result.error) else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(place.line == 1)
        #expect(expected.contains("missing: time"))
        let empty = readCSV("")
        #expect(empty.error != nil)
        #expect(empty.error?.location.line == 1)
        let headerOnly = readCSV("time,lat,lon\n")
        #expect(headerOnly.error == nil)
        #expect(headerOnly.fixes.isEmpty)
    }

    /// The second latitude column is said where it starts, by the split that named it: after a quoted name holding
    /// a delimiter and an escaped quote, and names with a quote inside them (`screen 5" wide`, which opens no quoted
    /// field), the place came from a split of its own that toggled on every quote and named the header's start.
    @Test("names a second latitude column where it starts after names with quotes")
    func secondLatitudeIsPlacedByTheSplitThatNamedIt() throws {
        let header = "time,lat,lon,\"probe, 5\"\" deep\",screen 5\" wide,depth 2\" deep,latitude"
        let result = readCSV(header + "\n2024-01-01T00:00:00Z,1,2,x,y,z,1\n")
        guard case .unreadableHeader(let at, let expected, _) = try #require(result.error) else {
            Issue.record("expected a header error: \(String(describing: result.error))")
            return
        }
        let column = header.utf8.count - "latitude".utf8.count + 1
        #expect(at.line == 1 && at.column == column && at.byteOffset == column - 1, "\(at)")
        #expect(expected.contains("columns 2, 'lat', and 7, 'latitude'"), "\(expected)")
        // The names themselves: the quoted one unquoted, the others keep their quotes.
        let names = Array(header.utf8).withUnsafeBytes { CSVReader.split($0, UInt8(ascii: ",")).names }
        #expect(names == ["time", "lat", "lon", "probe, 5\" deep", "screen 5\" wide", "depth 2\" deep", "latitude"])
    }

    /// An altitude, speed or course that is no finite number (`NaN`, `inf`, `1e400`: a program's "no value") is read
    /// as missing and counted with the fields read as missing, strict or lenient, its fix kept: it was dropped without
    /// a word, and `info` counted nothing.
    @Test("reads a non-finite altitude, speed or course as missing and counts it, strict or lenient")
    func nonFiniteMeasurementsAreReadAsMissingAndCounted() throws {
        let text =
            "time,lat,lon,altitude,speed,course\n2024-01-01T00:00:00Z,1,2,NaN,inf,-Infinity\n"
            + "2024-01-01T00:00:01Z,1,2,1e400,1,2\n2024-01-01T00:00:02Z,1,2,10,1,2\n"
        for lenient in [false, true] {
            let result = readCSV(text, options: ReadOptions(lenient: lenient))
            #expect(result.error == nil && result.fixes.count == 3, "\(String(describing: result.error))")
            #expect(result.fixes.map(\.altitudeMetres) == [nil, nil, 10])
            #expect(result.fixes[0].speedMetresPerSecond == nil && result.fixes[0].courseDegrees == nil)
            #expect(result.report.unreadableFieldCount == 4 && result.report.errorCount == 0)
            let places = result.report.unreadableFields.map { error -> String in
                guard case .malformedField(let at, let field, _, let found) = error else { return "\(error)" }
                return "\(at.line):\(at.column) \(field) \(found)"
            }
            #expect(
                places == [
                    "2:26 altitude NaN", "2:30 speed inf", "2:34 course -Infinity", "3:26 altitude 1e400",
                ],
                "\(places)")
        }
    }

    @Test func readsEveryTimeEncoding() {
        func first(_ text: String) -> Int64? { readCSV(text).fixes.first?.timestamp.millisecondsSince1970 }
        // ISO 8601 with a space and an offset (Sensor Logger), a fraction rounded on its fourth digit.
        #expect(first("time,lat,lon\n2023-08-09 12:37:45-04:00,1,2\n") == ms("2023-08-09T16:37:45Z"))
        #expect(first("time,lat,lon\n2023-08-09T12:37:45.12345+0530,1,2\n") == ms("2023-08-09T07:07:45.123Z"))
        #expect(first("time,lat,lon\n2023-08-09T12:37:45.9996Z,1,2\n") == ms("2023-08-09T12:37:46Z"))
        #expect(first("time,lat,lon\n2023-08-09,1,2\n") == ms("2023-08-09T00:00:00Z"))
        // Unix seconds (fractional, exact decimal rounding), milliseconds, micro- and nanoseconds by magnitude.
        #expect(first("time,lat,lon\n1691599065.1235,1,2\n") == 1_691_599_065_124)
        #expect(first("time,lat,lon\n1691599065123,1,2\n") == 1_691_599_065_123)
        #expect(first("time,lat,lon\n1691599065123456,1,2\n") == 1_691_599_065_123)
        #expect(first("time,lat,lon\n1691599065123556789,1,2\n") == 1_691_599_065_124)
        #expect(first("unix_time,lat,lon\n1.6915990651e9,1,2\n") == 1_691_599_065_100)
        #expect(first("UnixTimeMillis,lat,lon\n1619735725999,1,2\n") == 1_619_735_725_999)
        // GPS milliseconds: 18 leap seconds behind since 2017, 17 in 2016.
        #expect(first("millisSinceGpsEpoch,lat,lon\n1273529463442,1,2\n") == 1_589_494_245_442)
        let gps2015: Int64 = 1_135_000_000_000 + 315_964_800_000 - 17_000
        #expect(first("millisSinceGpsEpoch,lat,lon\n1135000000000,1,2\n") == gps2015)
        // Out of range or not a time.
        #expect(readCSV("time_ms,lat,lon\n999999999999999999,1,2\n").error != nil)
        #expect(readCSV("time,lat,lon\n2023-02-30T00:00:00Z,1,2\n").error != nil)
        #expect(readCSV("time,lat,lon\n2023-08-09T12:37:45Z,1,2\n1691599065,1,2\n").error != nil)
    }

    @Test func skipsOtherMessageTypesAndFiltersProviders() {
        let text = """
            MessageType,Provider,LatitudeDegrees,LongitudeDegrees,UnixTimeMillis
            Fix,GPS,37.1,-122.1,1619735725999
            Raw,1,2,3,4,5,6,7,8
            Fix,NLP,37.2,-122.2,1619735726999
            "Fix",FLP,37.3,-122.3,1619735727999
            """
        let all = readCSV(text)
        #expect(all.error == nil)
        #expect(all.fixes.map(\.provider) == [.gps, .network, .fused])
        #expect(all.report.skipped(.otherRecord) == 1)
        let gpsOnly = readCSV(text, options: ReadOptions(providers: [.gps]))
        #expect(gpsOnly.fixes.map(\.latitude) == [37.1])
        #expect(gpsOnly.report.skipped(.providerFiltered) == 2)
    }

    @Test func readsMockedActivityAndSatellites() {
        let result = readCSV(
            """
            time,lat,lon,mocked,activity,activity_confidence,satellites
            2024-01-01T00:00:00Z,1,2,TRUE,IN_VEHICLE,,12
            2024-01-01T00:00:01Z,1,2,0,tilting,30,
            2024-01-01T00:00:02Z,1,2,maybe,still,30,
            """)
        #expect(result.fixes.count == 2)
        #expect(result.fixes[0].isMocked == true)
        #expect(result.fixes[0].activity == ActivityReading(kind: .inVehicle, confidence: 100))
        #expect(result.fixes[0].satellitesUsed == 12)
        #expect(result.fixes[1].isMocked == false)
        #expect(result.fixes[1].activity == ActivityReading(kind: .unknown, confidence: 30))
        #expect(result.error?.location.line == 4)
    }

    @Test func numbersMatchTheGeneralParser() {
        // Fast-path and fallback values (exponents, long significands, signs, spaces) agree with NumberParsing.
        let values = [
            "0", "-0", "+1.5", "37.4235897", "-122.0941320350", "40.182190879527845", "1e-3", "1.5E2",
            " 2.25 ", "0.000000000000000000001", "123456789.123", "7.", ".5", "12345678901234567890",
        ]
        for value in values {
            let result = readCSV("time,lat,lon,alt\n2024-01-01T00:00:00Z,0,0,\(value)\n")
            #expect(result.error == nil, "\(value)")
            #expect(result.fixes.first?.altitudeMetres == NumberParsing.double(value), "\(value)")
        }
        for bad in ["1.2.3", "--1", "1e", "0x10", "1,5"] {
            #expect(readCSV("time,lat,lon,alt\n2024-01-01T00:00:00Z,0,0,\(bad)\n").error != nil, "\(bad)")
        }
    }

    /// The same input read through 64-byte chunks (rows straddling refills, quoted fields spanning them,
    /// a last line without a line end) gives the same fixes and report as read from memory.
    @Test func chunkBoundariesDoNotChangeTheResult() throws {
        var text = "time,lat,lon,note,accuracy\r\n"
        for k in 0..<300 {
            let note = k % 7 == 0 ? "\"multi\nline \"\"note\"\" \(k)\"" : "n\(k)"
            text +=
                "2024-01-01T00:\(String(format: "%02d:%02d", k / 60, k % 60)).\(k % 1000)Z,\(Double(k) / 7),\(-Double(k) / 3),\(note),\(k % 5)\r\n"
            if k % 50 == 0 { text += "\n" }
        }
        text += "2024-01-01T01:00:00Z,1,2,last,3"
        let memory = readCSV(text)
        #expect(memory.error == nil)
        #expect(memory.fixes.count == 301)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csv-chunks-\(UUID().uuidString).csv")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for chunk in [64, 100, 4096] {
            var reader = CSVReader(stream: try ByteStream(path: path, chunkBytes: chunk))
            let chunked = reader.readAll()
            #expect(chunked.error == nil)
            #expect(chunked.fixes == memory.fixes)
            #expect(chunked.report.skipped(.blank) == 6)
            #expect(chunked.report.bytesRead == text.utf8.count)
        }
    }

    @Test func reportsAnUnclosedQuoteAndOverlongRows() throws {
        let unclosed = readCSV("time,lat,lon\n2024-01-01T00:00:00Z,1,2\n2024-01-01T00:00:01Z,\"1,2\n")
        #expect(unclosed.fixes.count == 1)
        // The quote opened on the last row's line and left open: named as a stray quote in its field.
        guard case .malformedField(let place, "lat", _, "\"1,2") = try #require(unclosed.error) else {
            Issue.record("unexpected \(String(describing: unclosed.error))")
            return
        }
        #expect(place.line == 3 && place.column == 22)
        // A row longer than the record limit is an error, not unbounded memory.
        let long = [UInt8]("time,lat,lon\n".utf8) + [UInt8](repeating: UInt8(ascii: "1"), count: 5000) + [0x0A]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csv-long-\(UUID().uuidString).csv")
            .path
        try Data(long).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = CSVReader(stream: try ByteStream(path: path, chunkBytes: 256, maximumRecordBytes: 1024))
        let result = reader.readAll()
        guard case .recordTooLong(let place, 1024) = try #require(result.error) else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(place.line == 2)
        #expect(try reader.next() == nil)
    }
}

@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct CSVReaderDatasetTests {
    @Test func readsTheSensorLoggerExport() throws {
        var reader = try CSVReader(path: Datasets.path("sensorlogger-pixel6a/20230809_163741/gps.csv"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 2536)  // MANIFEST: fixes 2536, duration 2535.0 s
        #expect(reader.timeEncoding == .iso8601)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == ms("2023-08-09T16:37:45Z"))
        #expect(first.latitude == 40.182190879527845)
        #expect(first.longitude == -75.08315780740286)
        #expect(first.horizontalAccuracy == .metres(12.057886123657228))
        #expect(first.altitudeMetres == 65.44687616925147)
        #expect(first.verticalAccuracyMetres == 12.64353370666504)
        #expect(first.speedMetresPerSecond == 0)
        #expect(first.speedAccuracyMetresPerSecond == 0.8618167042732239)
        #expect(first.courseDegrees == 0)
        #expect(first.courseAccuracyDegrees == 0)
        let last = try #require(result.fixes.last)
        #expect(last.timestamp.millisecondsSince1970 == ms("2023-08-09T17:20:00Z"))
        #expect(last.latitude == 40.03144754969794)
        #expect(last.longitude == -75.22070396886433)
        #expect(last.speedMetresPerSecond == 9.379033088684082)
        #expect(last.courseDegrees == 319.0116271972656)
        #expect(first.timestamp.seconds(to: last.timestamp) == 2535)
    }

    @Test func readsGSDC2021GroundTruthInUTC() throws {
        var reader = try CSVReader(path: Datasets.path("gsdc2020-mtv1/ground_truth.csv"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 1740)
        #expect(reader.timeEncoding == .gpsMilliseconds)
        let first = try #require(result.fixes.first)
        // millisSinceGpsEpoch 1273529463442 is GPS time; UTC = GPS − 18 s = 2020-05-14T22:10:45.442Z.
        #expect(first.timestamp.millisecondsSince1970 == 1_589_494_245_442)
        #expect(ISO8601.format(first.timestamp) == "2020-05-14T22:10:45.442Z")
        #expect(first.latitude == 37.4235759540)
        #expect(first.longitude == -122.0941320350)
        #expect(first.altitudeMetres == 33.21)
        #expect(first.speedMetresPerSecond == 0)
        #expect(first.courseDegrees == 12.70)
        // No accuracy column: the accuracy from hDop 1.10 (× 5 m, the default HDOP interpretation, as in GPX).
        #expect(first.horizontalAccuracy == .metres(1.10 * HDOPInterpretation.defaultUEREMetres))
        let last = try #require(result.fixes.last)
        #expect(last.timestamp.millisecondsSince1970 == 1_589_495_984_442)
        #expect(last.latitude == 37.6458230433)
        #expect(last.courseDegrees == 161.70)

        var sample = try CSVReader(path: Datasets.path("gnsslogger-samples/Pixel4_ground_truth.csv"))
        let excerpt = sample.readAll()
        #expect(excerpt.error == nil)
        #expect(excerpt.fixes.count == 199)  // PROVENANCE: 199 rows, 198.0 s
        #expect(excerpt.fixes.first?.timestamp.millisecondsSince1970 == 1_589_494_245_442)
        #expect(excerpt.fixes.last?.timestamp.millisecondsSince1970 == 1_589_494_443_442)
        #expect(excerpt.fixes.last?.speedMetresPerSecond == 25.31)
    }

    @Test func readsGSDC2022GroundTruth() throws {
        var reader = try CSVReader(path: Datasets.path("gnsslogger-samples/ground_truth.csv"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 200)  // MANIFEST: fixes 200, duration 199.0 s
        #expect(result.fixes.allSatisfy { $0.provider == .groundTruth && $0.horizontalAccuracy == .metres(0.1) })
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == 1_619_735_725_999)
        #expect(first.latitude == 37.395817)
        #expect(first.longitude == -122.102916)
        #expect(first.altitudeMetres == -4.488)
        #expect(first.speedMetresPerSecond == 0.0014129388)
        #expect(first.courseDegrees == 118.020386)
        let last = try #require(result.fixes.last)
        #expect(last.timestamp.millisecondsSince1970 == 1_619_735_924_999)
        #expect(last.latitude == 37.3944207)
        #expect(last.altitudeMetres == -4.801007727622986)
        #expect(first.timestamp.seconds(to: last.timestamp) == 199)
    }
}

/// Longitudes written 0…360 (``ReadOptions/longitudesFrom0To360``): read as −180…180 with the option, an error
/// naming the convention and the option without it.
@Suite struct LongitudeConventionTests {
    @Test("reads longitudes written 0…360 as the value − 360 east of 180 with longitudesFrom0To360")
    func readsZeroTo360() throws {
        let text = """
            time,latitude,longitude
            2024-05-01T12:00:00Z,-16.8,10
            2024-05-01T12:00:01Z,-16.8,180
            2024-05-01T12:00:02Z,-16.8,180.5
            2024-05-01T12:00:03Z,-16.8,190
            2024-05-01T12:00:04Z,-16.8,359.5
            2024-05-01T12:00:05Z,-16.8,360

            """
        let result = readCSV(text, options: ReadOptions(longitudesFrom0To360: true))
        #expect(result.error == nil)
        #expect(result.fixes.map(\.longitude) == [10, 180, -179.5, -170, -0.5, 0])
        // Without the option the file stops at its first longitude over 180 (the default stays strict).
        let strict = readCSV(text)
        #expect(strict.fixes.map(\.longitude) == [10, 180])
        guard case .invalidFix(let location, .longitudeOutOfRange(180.5), let field)? = strict.error else {
            Issue.record("expected the longitude to be rejected: \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 4 && field == "longitude")
    }

    @Test("names the 0…360 convention, how to convert and the option when a longitude is over 180 and up to 360")
    func theMessageNamesTheConvention() throws {
        let result = readCSV("time,latitude,longitude\n2024-05-01T12:00:00Z,-16.8,180.000013895\n")
        let message = try #require(result.error).description
        #expect(message.hasPrefix("<memory>:2:"), "\(message)")
        #expect(message.contains("field 'longitude': longitude 180.000013895 is outside -180...180 degrees"))
        #expect(message.contains("may write longitudes 0...360"))
        #expect(message.contains("east of 180 is the value - 360 (190 is -170)"))
        #expect(message.contains("--longitude-0-360 (ReadOptions.longitudesFrom0To360)"))
        // Beyond 360 or below −180 it is no convention's: the plain error, with the option too.
        for (value, options) in [
            ("360.5", ReadOptions()), ("360.5", ReadOptions(longitudesFrom0To360: true)), ("-190", ReadOptions()),
            ("-190", ReadOptions(longitudesFrom0To360: true)),
        ] {
            let other = readCSV("time,latitude,longitude\n2024-05-01T12:00:00Z,0,\(value)\n", options: options)
            let text = try #require(other.error).description
            #expect(other.fixes.isEmpty && text.contains("is outside -180...180") && !text.contains("0...360"))
        }
    }

    static let inputs: [(FixFormat, String)] = [
        (.csv, "time,latitude,longitude\n2024-05-01T12:00:00Z,-16.8,190\n"),
        (
            .gpx,
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
                + "<trk><trkseg><trkpt lat=\"-16.8\" lon=\"190\"><time>2024-05-01T12:00:00Z</time></trkpt>"
                + "</trkseg></trk></gpx>\n"
        ),
        (
            .tcx,
            "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">"
                + "<Activities><Activity Sport=\"Running\"><Lap StartTime=\"2024-05-01T12:00:00Z\"><Track><Trackpoint>"
                + "<Time>2024-05-01T12:00:00Z</Time><Position><LatitudeDegrees>-16.8</LatitudeDegrees>"
                + "<LongitudeDegrees>190</LongitudeDegrees></Position></Trackpoint></Track></Lap></Activity>"
                + "</Activities></TrainingCenterDatabase>\n"
        ),
        (
            .geojson,
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[190,-16.8]},"
                + "\"properties\":{\"time\":\"2024-05-01T12:00:00Z\"}}\n"
        ),
        (
            .geojson,
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[190,-16.8],[190,-16.7]]},"
                + "\"properties\":{\"coordTimes\":[\"2024-05-01T12:00:00Z\",\"2024-05-01T12:00:01Z\"]}}\n"
        ),
        (.jsonLines, "{\"time\":\"2024-05-01T12:00:00Z\",\"latitude\":-16.8,\"longitude\":190}\n"),
        (
            .geolife,
            "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"
                + "-16.8,190,0,0,45413.5,2024-05-01,12:00:00\n"
        ),
        (
            .gnssLogger,
            "# Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,"
                + "UnixTimeMillis\nFix,GPS,-16.8,190,10,0.5,4,,1714564800000\n"
        ),
        (.ipin, "GNSS;2.8043;1714564800.0000;-16.8;190;362.000;0.000;14.0;0.5;17;16\n"),
    ]

    /// (NMEA writes a longitude 0…180 with E or W: no file of it holds the convention, and its reader rejects a
    /// longitude over 180 as a malformed field, option or not.)
    @Test(
        "reads longitudes written 0…360 in every reader with the option, and stops at them without it",
        arguments: 0..<LongitudeConventionTests.inputs.count)
    func everyReader(_ index: Int) throws {
        let (format, text) = LongitudeConventionTests.inputs[index]
        func read(_ options: ReadOptions) -> ReadResult {
            var reader = AnyFixReader(
                stream: ByteStream(bytes: Array(text.utf8), name: "t"), format: format, options: options)
            return reader.readAll()
        }
        let converted = read(ReadOptions(longitudesFrom0To360: true))
        #expect(converted.error == nil, "\(format): \(String(describing: converted.error))")
        #expect(!converted.fixes.isEmpty && converted.fixes.allSatisfy { $0.longitude == -170 }, "\(format)")
        let strict = read(ReadOptions())
        #expect(strict.fixes.isEmpty, "\(format)")
        guard case .invalidFix(_, .longitudeOutOfRange(190), _)? = strict.error else {
            Issue.record("\(format): expected the longitude to be rejected: \(String(describing: strict.error))")
            return
        }
        #expect(strict.error?.description.contains("--longitude-0-360") == true)
    }
}
