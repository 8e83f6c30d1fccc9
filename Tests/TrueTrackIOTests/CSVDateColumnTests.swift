import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Reads `text` as CSV from memory.
private func read(_ text: String, options: ReadOptions = ReadOptions()) -> ReadResult {
    var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)), options: options)
    return reader.readAll()
}

/// The date `text` reads as (days since 1970), with `order` known.
private func date(_ text: String, order: DateOrder? = nil) -> CSVReader.DateReading {
    var reader = CSVReader(stream: ByteStream(bytes: []), options: ReadOptions(dateOrder: order))
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { reader.readDate($0.baseAddress!, 0, bytes.count) }
}

/// The days of a reading, `nil` for an ambiguous or invalid one.
private func days(_ reading: CSVReader.DateReading) -> Int64? {
    if case .days(let d) = reading { return d }
    return nil
}

/// Milliseconds of an ISO 8601 text.
private func ms(_ iso: String) -> Int64 { ISO8601.parse(iso)!.millisecondsSince1970 }

/// Files that keep the date and the time of day in two columns (`date,time,…`).
@Suite struct CSVDateColumnTests {
    @Test func joinsADateColumnAndATimeOfDayIntoOneUTCTimeAcrossMidnight() {
        let result = read(
            """
            date,time,lat,lon,accuracy
            2024-05-01,23:59:58,48.1,11.5,5
            2024-05-01,23:59:59.5,48.1,11.5,5
            2024/05/02,00:00:01Z,48.1,11.5,5
            02.05.2024,0:00:02.25,48.1,11.5,5
            """)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T23:59:58Z"), ms("2024-05-01T23:59:59.500Z"), ms("2024-05-02T00:00:01Z"),
                ms("2024-05-02T00:00:02.250Z"),
            ])
    }

    @Test func readsPackedDatesAndTimesAsGPSLoggersWriteThemInTheOrderGiven() {
        let text = "DATE;TIME;LATITUDE;LONGITUDE\n240501;120000;48.1;11.5\n20240501;120001.5;48.1;11.5\n"
        let result = read(text, options: ReadOptions(dateOrder: .yearMonthDay))
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T12:00:00Z"), ms("2024-05-01T12:00:01.500Z"),
            ])
    }

    @Test func readsALoneDateColumnAsTheTimeColumn() {
        let result = read("Date,Latitude,Longitude\n2024-05-01 12:00:00,48.1,11.5\n")
        #expect(result.error == nil)
        #expect(result.fixes.map(\.timestamp.millisecondsSince1970) == [ms("2024-05-01T12:00:00Z")])
    }

    @Test func ignoresTheDateColumnWhenTheTimeColumnHoldsWholeTimes() {
        let result = read(
            "date,timestamp,lat,lon\n01.05.2024,2024-05-01T12:00:00Z,48.1,11.5\nnot a date,2024-05-01T12:00:01Z,48.1,11.5\n"
        )
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T12:00:00Z"), ms("2024-05-01T12:00:01Z"),
            ])
    }

    @Test func refusesADayAndMonthInEitherOrderNamingTheLineAndField() {
        let result = read("date,time,lat,lon\n2024-05-01,12:00:00,48.1,11.5\n05/01/2024,12:00:01,48.1,11.5\n")
        #expect(result.fixes.count == 1)
        guard case .malformedField(let location, let field, let expected, let found)? = result.error else {
            Issue.record("expected a malformed field, got \(String(describing: result.error))")
            return
        }
        #expect(location.line == 3)
        #expect(field == "date")
        #expect(expected.contains("--date-order dmy or mdy"))
        #expect(found.contains("05/01/2024"))
    }

    @Test func skipsARowWithATimeOfDayAndNoDateAsMissingTime() {
        let result = read("date,time,lat,lon\n2024-05-01,12:00:00,48.1,11.5\n,12:00:01,48.1,11.5\n")
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.report.skipped(.missingTime) == 1)
    }

    @Test func refusesATimeOfDayOutOfRange() {
        for bad in ["24:00:00", "12:60:00", "12:00:61", "1234567", "12:00:00:00", "12.5", "12:0:00"] {
            let result = read("date,time,lat,lon\n2024-05-01,00:00:00,48.1,11.5\n2024-05-01,\(bad),48.1,11.5\n")
            #expect(result.fixes.count == 1, "\(bad)")
            guard case .malformedField(_, let field, _, _)? = result.error else {
                Issue.record("\(bad): expected a malformed time, got \(String(describing: result.error))")
                continue
            }
            #expect(field == "time", "\(bad)")
        }
    }

    @Test func roundsAFractionOfASecondToTheMillisecond() {
        let text = Array("12:00:00.9995".utf8)
        let value = text.withUnsafeBufferPointer { CSVReader.millisecondsOfDay($0.baseAddress!, 0, text.count) }
        #expect(value == 43_201_000)
    }

    @Test func refusesDatesThatDoNotExist() {
        for bad in ["2023-02-29", "2024-13-01", "31.04.2024", "2024-05", "20240501T", "2024-05/01", "13/13/2024"] {
            guard case .invalid = date(bad) else {
                Issue.record("\(bad) read as \(date(bad))")
                continue
            }
        }
        #expect(days(date("2024-02-29")) == 19_782)
    }

    /// `240501` is 2024-05-01 or 2001-05-24, `05/01/2024` 5 January or 1 May: read in the order given or
    /// shown by the file, never guessed.
    @Test func readsADateThatDoesNotSayItsOrderOnlyInAKnownOne() {
        #expect(days(date("240501", order: .yearMonthDay)) == days(date("2024-05-01")))
        #expect(days(date("010524", order: .dayMonthYear)) == days(date("2024-05-01")))
        #expect(days(date("05/01/2024", order: .monthDayYear)) == days(date("2024-05-01")))
        #expect(days(date("05/01/2024", order: .dayMonthYear)) == days(date("2024-01-05")))
        #expect(days(date("05/05/2024")) == days(date("2024-05-05")))  // the same day either way
        #expect(days(date("991231", order: .yearMonthDay)) == days(date("1999-12-31")))  // as NMEA: 1980-2079
        guard case .ambiguous(let orders) = date("240501") else {
            Issue.record("240501 read without an order")
            return
        }
        #expect(orders == [.yearMonthDay, .dayMonthYear])
        // The file's first value that allows one order decides the rest.
        let result = read("date,time,lat,lon\n13/05/2024,12:00:00,48.1,11.5\n05/06/2024,12:00:00,48.1,11.5\n")
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-13T12:00:00Z"), ms("2024-06-05T12:00:00Z"),
            ])
        // 990315 can only be YYMMDD (no day 99): 240501 after it reads in that order too.
        let packed = read("date,time,lat,lon\n990315,120000,48.1,11.5\n240501,120000,48.1,11.5\n")
        #expect(packed.error == nil)
        #expect(
            packed.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("1999-03-15T12:00:00Z"), ms("2024-05-01T12:00:00Z"),
            ])
    }

    /// A file of several days whose first are the 1st to the 12th of a month (a formats tester's) was refused at its
    /// first row, though a later value decides: the first ambiguous value looks ahead at the column's values.
    @Test("decides the order of ambiguous dates by the values read ahead in their column")
    func decidesTheOrderByTheValuesReadAhead() {
        let columns = read(
            "date,time,lat,lon\n05/01/2024,23:59:59,48.1,11.5\n05/12/2024,00:00:00,48.1,11.5\n"
                + "05/13/2024,00:00:01,48.1,11.5\n")
        #expect(columns.error == nil)
        #expect(
            columns.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T23:59:59Z"), ms("2024-05-12T00:00:00Z"), ms("2024-05-13T00:00:01Z"),
            ])
        // A date and a time of day in one field; a row of another shape, a quoted value and a value read the same
        // either way (05/05) on the way say nothing.
        let combined = read(
            "time,lat,lon\n01/02/2024 10:00:00,48.1,11.5\nnot a date,48.1,11.5\n\"01/02/2024 10:00:01\",48.1,11.5\n"
                + "05/05/2024 10:00:02,48.1,11.5\n28/02/2024 10:00:03,48.1,11.5\n", options: ReadOptions(lenient: true))
        #expect(combined.fixes.first?.timestamp.millisecondsSince1970 == ms("2024-02-01T10:00:00Z"))
        #expect(combined.fixes.last?.timestamp.millisecondsSince1970 == ms("2024-02-28T10:00:03Z"))
        // The first value read ahead that allows one order decides, as a value read in turn does; a later value
        // out of that order is refused where it stands.
        let contradictory = read(
            "date,time,lat,lon\n01/02/2024,12:00:00,48.1,11.5\n13/02/2024,12:00:00,48.1,11.5\n"
                + "02/13/2024,12:00:00,48.1,11.5\n")
        #expect(
            contradictory.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-02-01T12:00:00Z"), ms("2024-02-13T12:00:00Z"),
            ])
        guard case .malformedField(let location, _, _, _)? = contradictory.error else {
            Issue.record("expected a malformed date, got \(String(describing: contradictory.error))")
            return
        }
        #expect(location.line == 4)
        // Nothing ahead decides (a file of one day, the 1st to the 12th): refused at its first row, naming the option.
        let undecided = read("date,time,lat,lon\n01/02/2024,12:00:00,48.1,11.5\n01/02/2024,12:00:01,48.1,11.5\n")
        guard case .malformedField(let first, _, let expected, _)? = undecided.error else {
            Issue.record("expected a malformed date, got \(String(describing: undecided.error))")
            return
        }
        #expect(first.line == 2 && expected.contains("--date-order dmy or mdy"))
    }

    @Test func namesTheOptionThatDecidesAnAmbiguousDate() {
        let result = read("date,time,lat,lon\n240501,120000,48.1,11.5\n")
        guard case .malformedField(_, let field, let expected, _)? = result.error else {
            Issue.record("expected a malformed date, got \(String(describing: result.error))")
            return
        }
        #expect(field == "date" && expected.contains("--date-order ymd or dmy"))
    }

    @Test func appliesAnOffsetAfterATimeOfDay() {
        let result = read(
            "date,time,lat,lon\n2024-05-01,12:00:00+02:00,48.1,11.5\n2024-05-01,12:00:01-0130,48.1,11.5\n"
                + "2024-05-01,01:00:00+02,48.1,11.5\n")
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T10:00:00Z"), ms("2024-05-01T13:30:01Z"), ms("2024-04-30T23:00:00Z"),
            ])
    }

    @Test func readsADateAndATimeOfDayInOneField() {
        let result = read("Date,Latitude,Longitude\n01.05.2024 12:00:00,48.1,11.5\n13/05/2024 06:00,48.1,11.5\n")
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T12:00:00Z"), ms("2024-05-13T06:00:00Z"),
            ])
    }

    /// Spreadsheet and database exports: a 12-hour clock, a zone named or after a space.
    @Test func readsATwelveHourClockAndAZoneAfterADateAndATimeOfDay() {
        let oneField = read(
            "time,lat,lon\n5/1/2024 10:00:00 PM,48.1,11.5\n5/13/2024 12:00:00 AM,48.1,11.5\n"
                + "5/13/2024 12:30:05pm UTC,48.1,11.5\n05/14/2024 10:00:00 UTC,48.1,11.5\n"
                + "05/14/2024 10:00:00 +0200,48.1,11.5\n05/14/2024 10:00:00 GMT-01:30,48.1,11.5\n")
        #expect(oneField.error == nil)
        #expect(
            oneField.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T22:00:00Z"), ms("2024-05-13T00:00:00Z"), ms("2024-05-13T12:30:05Z"),
                ms("2024-05-14T10:00:00Z"), ms("2024-05-14T08:00:00Z"), ms("2024-05-14T11:30:00Z"),
            ])
        let twoColumns = read("date,time,lat,lon\n2024-05-01,11:59:59 AM,48.1,11.5\n2024-05-01,1:00 pm UTC,48.1,11.5\n")
        #expect(twoColumns.error == nil)
        #expect(
            twoColumns.fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T11:59:59Z"), ms("2024-05-01T13:00:00Z"),
            ])
        // A 12-hour clock has no hour 13 nor 0.
        for bad in ["13:00:00 PM", "0:30 AM", "10:00:00 UTCZ"] {
            #expect(read("date,time,lat,lon\n2024-05-01,\(bad),48.1,11.5\n").fixes.isEmpty, "\(bad)")
        }
    }

    /// A number beside a date column is a time of day unless it is a Unix time: 1234567 seconds is January
    /// 1970, and the date would have been dropped without a word.
    @Test func refusesANumberBesideADateThatIsNeitherATimeOfDayNorAUnixTime() {
        let result = read("date,time,lat,lon\n2024-05-01,1234567,48.1,11.5\n")
        guard case .malformedField(_, let field, let expected, _)? = result.error else {
            Issue.record("expected a malformed time, got \(String(describing: result.error))")
            return
        }
        #expect(field == "time" && expected.contains("time of day"))
        let unix = read("date,time,lat,lon\n2024-06-01,1714564800,48.1,11.5\n")
        #expect(unix.fixes.map(\.timestamp.millisecondsSince1970) == [ms("2024-05-01T12:00:00Z")])
    }

    /// A date column before a column of whole times is not judged before the times are known (a reviewer's file
    /// failed on every row), and a lone date column is read as dates and times, never as Unix numbers.
    @Test func readsADateColumnBesideWholeTimesAndALoneOneAsDatesAndTimes() {
        let beside = read(
            "date,timestamp,lat,lon\n2024-05-01 12:00:00,1714564800000,52.5,13.4\nWed May 1,1714564801000,52.5,13.4\n")
        #expect(beside.error == nil)
        #expect(beside.fixes.map(\.timestamp.millisecondsSince1970) == [1_714_564_800_000, 1_714_564_801_000])
        let lone = read("date,lat,lon\n20240501,52.5,13.4\n")
        #expect(lone.fixes.isEmpty && lone.error != nil)
        guard case .ambiguous = date("24/05/01") else {
            Issue.record("24/05/01 read without an order: \(date("24/05/01"))")
            return
        }
    }

    @Test func saysATimeOfDayAloneNeedsADateColumn() {
        let result = read("time,lat,lon\n12:00:00,48.1,11.5\n")
        guard case .malformedField(_, _, let expected, _)? = result.error else {
            Issue.record("expected a malformed time, got \(String(describing: result.error))")
            return
        }
        #expect(expected.contains("needs a date column"))
    }
}

/// Loggers' and spreadsheets' other habits: hemisphere columns, decimal commas.
@Suite struct CSVRegionalLayoutTests {
    /// Qstarz writes unsigned coordinates with `N/S` and `E/W` columns: California read as China before.
    @Test func signsCoordinatesByTheirHemisphereColumns() throws {
        let result = read(
            """
            INDEX,RCR,UTC DATE,UTC TIME,VALID,LATITUDE,N/S,LONGITUDE,E/W,HEIGHT
            1,T,2024/05/01,22:30:00,SPS,37.4,N,122.1,W,50
            2,T,2024/05/01,22:30:01,SPS,33.9,S,151.2,E,50
            3,T,2024/05/01,22:30:02,SPS,-33.9,s,-151.2,east,50
            """)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [37.4, -33.9, -33.9])
        #expect(result.fixes.map(\.longitude) == [-122.1, 151.2, 151.2])
        let bad = read("time,lat,N/S,lon\n2024-05-01T00:00:00Z,1,X,2\n")
        guard case .malformedField(_, let field, let expected, _)? = bad.error else {
            Issue.record("expected a malformed hemisphere, got \(String(describing: bad.error))")
            return
        }
        #expect(field == "N/S" && expected == "N or S")
    }

    /// Columbus loggers: `LATITUDE N/S` columns whose values end in their hemisphere, YYMMDD dates, SPEED in
    /// km/h (the file read 0 fixes: "missing: latitude, longitude").
    @Test func readsAColumbusLoggersExport() throws {
        let result = read(
            """
            INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING
            1,T,240501,120000,33.9S,151.2E,50,36,90
            2,T,240501,120001,40.7N,74.0W,50,18,90
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.fixes.map(\.latitude) == [-33.9, 40.7])
        #expect(result.fixes.map(\.longitude) == [151.2, -74.0])
        #expect(result.fixes.map(\.timestamp.millisecondsSince1970) == [1_714_564_800_000, 1_714_564_801_000])
        #expect(result.fixes.map(\.speedMetresPerSecond) == [10, 5])
        // A letter that is no hemisphere of the column is an error at its field.
        let bad = read("time,lat,lon\n2024-05-01T00:00:00Z,52.5E,13\n")
        guard case .malformedField(_, let field, let expected, _)? = bad.error else {
            Issue.record("expected a malformed latitude, got \(String(describing: bad.error))")
            return
        }
        #expect(field == "lat" && expected.contains("N or S"))
    }

    /// A speed in another unit is read in it: named in brackets or in the name, or a bare SPEED of an MTK
    /// logger's export (an `RCR` column: BT747, Qstarz, Holux), which is km/h (a walk read as a drive).
    @Test func readsSpeedsInTheirUnit() {
        func speed(_ header: String, _ value: String, extra: String = "") -> Double? {
            read(
                "time,lat,lon,\(header)\(extra.isEmpty ? "" : ",RCR")\n2024-05-01T00:00:00Z,52,13,\(value)"
                    + (extra.isEmpty ? "" : ",\(extra)") + "\n"
            ).fixes.first?.speedMetresPerSecond
        }
        #expect(speed("speed", "10") == 10)
        #expect(speed("speed (km/h)", "36") == 10)
        #expect(speed("speed_kmh", "36") == 10)
        // The unit with its own slash, outside brackets (a tester's `Speed km/h` and `speed_km/h` were not read).
        #expect(speed("Speed km/h", "36") == 10)
        #expect(speed("speed_km/h", "36") == 10)
        #expect(speed("speed m/s", "10") == 10)
        #expect(abs((speed("speed mi/h", "10") ?? 0) - 4.4704) < 1e-9)
        #expect(speed("Speed[kph]", "36") == 10)
        #expect(abs((speed("speed_knots", "10") ?? 0) - 10.0 * 1852 / 3600) < 1e-12)
        #expect(speed("speed (mph)", "10") == 4.4704)
        #expect(speed("SPEED", "36", extra: "T") == 10)
        #expect(speed("speed_mps", "10", extra: "T") == 10)  // a unit said is the unit
        #expect(speed("speed (furlongs/fortnight)", "10") == nil)  // an unknown unit is not read
    }

    @Test func readsDecimalCommasInASemicolonSeparatedFile() {
        let result = read(
            "time;lat;lon;accuracy\n2024-05-01T00:00:00Z;52,5;13,25;4,5\n")
        #expect(result.error == nil)
        #expect(result.fixes.first?.latitude == 52.5 && result.fixes.first?.longitude == 13.25)
        #expect(result.fixes.first?.horizontalAccuracy == .metres(4.5))
        // Not where a comma could be a thousands separator beside a point, nor in a comma-separated file.
        #expect(read("time;lat;lon\n2024-05-01T00:00:00Z;1,000.5;13\n").error != nil)
        #expect(read("time,lat,lon\n2024-05-01T00:00:00Z,\"52,5\",13\n").error != nil)
    }
}
