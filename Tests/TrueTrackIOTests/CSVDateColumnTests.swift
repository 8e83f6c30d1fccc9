import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Reads `text` as CSV from memory.
private func read(_ text: String) -> ReadResult {
    var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)))
    return reader.readAll()
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

    @Test func readsPackedDatesAndTimesAsGPSLoggersWriteThem() {
        let result = read("DATE;TIME;LATITUDE;LONGITUDE\n240501;120000;48.1;11.5\n20240501;120001.5;48.1;11.5\n")
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
        #expect(expected.contains("ambiguous"))
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
        for bad in ["2023-02-29", "2024-13-01", "31.04.2024", "2024-05", "20240501T", "2024-05/01"] {
            let text = Array(bad.utf8)
            let days = text.withUnsafeBufferPointer { CSVReader.daysSince1970($0.baseAddress!, 0, text.count) }
            #expect(days == nil, "\(bad)")
        }
        let leap = Array("2024-02-29".utf8)
        #expect(leap.withUnsafeBufferPointer { CSVReader.daysSince1970($0.baseAddress!, 0, leap.count) } == 19_782)
    }
}
