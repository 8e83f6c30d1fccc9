import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Milliseconds of an ISO 8601 text (UTC when it names no zone).
private func ms(_ iso: String) -> Int64 { ISO8601.parse(iso)!.millisecondsSince1970 }

/// The UTC times (ISO 8601) that `locals` (written without a zone, in file order) convert to in `zone`.
private func converted(_ locals: [String], in zone: String) -> [String] {
    var conversion = LocalTimeConversion(zone: LocalTimeZone(zone)!)
    return locals.map {
        ISO8601.format(Timestamp(millisecondsSince1970: conversion.utcMilliseconds(fromLocal: ms($0))))
    }
}

/// Reads `text` with `format` from memory, local times in `zone`.
private func read(_ text: String, _ format: FixFormat, zone: String?) -> ReadResult {
    var options = ReadOptions()
    options.localTimeZone = zone.flatMap(LocalTimeZone.init)
    var reader = AnyFixReader(stream: ByteStream(bytes: Array(text.utf8)), format: format, options: options)
    return reader.readAll()
}

/// The fixes' times of a read, ISO 8601.
private func times(_ result: ReadResult) -> [String] { result.fixes.map { ISO8601.format($0.timestamp) } }

/// `--time-zone`: local times written without an offset, converted to UTC (``LocalTimeZone``,
/// ``LocalTimeConversion``, ``ReadOptions/localTimeZone``).
@Suite struct LocalTimeZoneTests {
    @Test("reads fixed offsets in the usual spellings and refuses what is none")
    func readsFixedOffsets() {
        let cases: [(String, Int)] = [
            ("+02:00", 7200), ("-0530", -19_800), ("+2", 7200), ("-03", -10_800), ("UTC", 0), ("Z", 0), ("gmt", 0),
            ("UTC+1", 3600), ("+14:00", 50_400),
        ]
        for (text, seconds) in cases {
            #expect(LocalTimeZone.fixedOffsetSeconds(text) == seconds, "\(text)")
            #expect(LocalTimeZone(text) != nil, "\(text)")
        }
        for text in ["+15", "+02:5", "+02:60", "2", "abc", "", "+", "Europe/Nowhere", "+0a:00"] {
            #expect(LocalTimeZone(text) == nil, "\(text)")
        }
    }

    /// ICU takes its own three-letter IDs as zones (`BST` Asia/Dhaka, `IST` Asia/Kolkata, `PST` Los Angeles with
    /// summer time), which a user writing an abbreviation does not mean: refused, while the tz database's own names
    /// without an area are zones (a reviewer's: `--time-zone BST` read London times six hours off).
    @Test("refuses abbreviations and takes the tz database's names without an area")
    func refusesAbbreviations() {
        for text in ["BST", "IST", "PST", "CEST", "EDT", "AEST"] { #expect(LocalTimeZone(text) == nil, "\(text)") }
        for text in ["CET", "EST5EDT", "UTC", "GMT", "US/Eastern", "Etc/GMT+2"] {
            #expect(LocalTimeZone(text) != nil, "\(text)")
        }
        #expect(converted(["2024-07-15T12:00:00"], in: "CET") == ["2024-07-15T10:00:00Z"])
    }

    @Test("suggests a zone name that differs only in case")
    func suggestsAZoneNameThatDiffersOnlyInCase() {
        #expect(LocalTimeZone("europe/berlin") == nil)
        #expect(LocalTimeZone.suggestion(for: "europe/berlin") == "Europe/Berlin")
        #expect(LocalTimeZone.suggestion(for: "Mars/Base") == nil)
    }

    @Test("converts a named zone's winter and summer times with their own offsets")
    func convertsWinterAndSummerTimes() {
        #expect(
            converted(["2024-01-15T12:00:00", "2024-07-15T12:00:00"], in: "Europe/Berlin") == [
                "2024-01-15T11:00:00Z", "2024-07-15T10:00:00Z",
            ])
        #expect(converted(["2024-07-15T12:00:00"], in: "America/New_York") == ["2024-07-15T16:00:00Z"])
        #expect(converted(["2024-07-15T12:00:00"], in: "-05:30") == ["2024-07-15T17:30:00Z"])
    }

    /// The hour repeated at the end of summer time: the first pass is summer time, the second (after the file went
    /// past it) standard time, and the times go on one hour apart from the first pass, in order.
    @Test("reads the hour repeated at summer time's end as two hours in order")
    func readsTheRepeatedHourInOrder() {
        let locals = [
            "2023-10-29T02:00:00", "2023-10-29T02:30:00", "2023-10-29T02:59:00", "2023-10-29T02:00:00",
            "2023-10-29T02:30:00", "2023-10-29T03:00:00",
        ]
        #expect(
            converted(locals, in: "Europe/Berlin") == [
                "2023-10-29T00:00:00Z", "2023-10-29T00:30:00Z", "2023-10-29T00:59:00Z", "2023-10-29T01:00:00Z",
                "2023-10-29T01:30:00Z", "2023-10-29T02:00:00Z",
            ])
    }

    /// In the repeated hour a time is the instant nearer the one before it: a fix a second back from 02:40 summer
    /// time stays summer time, and so does the rest of the first pass (the first rule, "the earlier unless the file
    /// went past it", put them an hour late); a file written newest first reads both passes right, as `--sort` then
    /// needs (a reviewer's).
    @Test("keeps a step back and a file written newest first in the right pass of the repeated hour")
    func repeatedHourWithStepsBack() {
        #expect(
            converted(
                [
                    "2023-10-29T02:40:00", "2023-10-29T02:39:59", "2023-10-29T02:41:00", "2023-10-29T02:59:00",
                    "2023-10-29T02:00:00",
                ], in: "Europe/Berlin") == [
                    "2023-10-29T00:40:00Z", "2023-10-29T00:39:59Z", "2023-10-29T00:41:00Z", "2023-10-29T00:59:00Z",
                    "2023-10-29T01:00:00Z",
                ])
        // 02:10Z back to 00:40Z every 10 minutes, written newest first (it begins after the change: one that begins
        // inside the second pass reads it as summer time, as nothing in it tells).
        let newestFirst = [
            "2023-10-29T03:10:00", "2023-10-29T03:00:00", "2023-10-29T02:50:00", "2023-10-29T02:10:00",
            "2023-10-29T02:00:00", "2023-10-29T02:50:00", "2023-10-29T02:40:00",
        ]
        #expect(
            converted(newestFirst, in: "Europe/Berlin") == [
                "2023-10-29T02:10:00Z", "2023-10-29T02:00:00Z", "2023-10-29T01:50:00Z", "2023-10-29T01:10:00Z",
                "2023-10-29T01:00:00Z", "2023-10-29T00:50:00Z", "2023-10-29T00:40:00Z",
            ])
    }

    /// South of the equator summer time ends in April (Sydney: 03:00 AEDT back to 02:00 AEST), Lord Howe Island
    /// changes by half an hour, and times before 1970 follow their year's rules (New York kept summer time in July
    /// 1965 too).
    @Test("converts southern, half-hour and pre-1970 changes")
    func convertsOtherZonesChanges() {
        #expect(
            converted(["2024-04-07T02:30:00", "2024-04-07T02:59:00", "2024-04-07T02:10:00"], in: "Australia/Sydney")
                == ["2024-04-06T15:30:00Z", "2024-04-06T15:59:00Z", "2024-04-06T16:10:00Z"])
        // Lord Howe: +11 in summer, +10:30 after 02:00 on 2024-04-07 (01:30–02:00 is repeated).
        #expect(
            converted(["2024-04-07T01:45:00", "2024-04-07T01:59:00", "2024-04-07T01:31:00"], in: "Australia/Lord_Howe")
                == ["2024-04-06T14:45:00Z", "2024-04-06T14:59:00Z", "2024-04-06T15:01:00Z"])
        #expect(converted(["1965-07-01T12:00:00"], in: "America/New_York") == ["1965-07-01T16:00:00Z"])
        #expect(converted(["1965-01-01T12:00:00"], in: "America/New_York") == ["1965-01-01T17:00:00Z"])
    }

    /// The hour skipped at the start of summer time holds no local time: one written there is read with the offset
    /// before the change, as a clock not yet moved means it (02:30 is 03:30 summer time).
    @Test("reads a time in the hour skipped at summer time's start with the offset before it")
    func readsTheSkippedHourWithTheOffsetBefore() {
        #expect(
            converted(["2024-03-31T01:59:00", "2024-03-31T02:30:00", "2024-03-31T03:00:00"], in: "Europe/Berlin") == [
                "2024-03-31T00:59:00Z", "2024-03-31T01:30:00Z", "2024-03-31T01:00:00Z",
            ])
    }

    /// The quarter-hour cache gives what a look-up of every time gives, across both changes of a year at 1 Hz.
    @Test("gives every second of a day of change what a fresh conversion gives")
    func cacheAgreesWithFreshConversions() {
        let zone = LocalTimeZone("Europe/Berlin")!
        for start in [ms("2024-03-31T00:00:00"), ms("2024-10-27T00:00:00"), ms("2024-06-01T00:00:00")] {
            var running = LocalTimeConversion(zone: zone)
            var seconds: Int64 = 0
            while seconds < 6 * 3600 {
                let local = start + seconds * 1000
                var fresh = LocalTimeConversion(zone: zone)
                fresh.previousUTC = running.previousUTC
                let expected = fresh.utcMilliseconds(fromLocal: local)
                #expect(running.utcMilliseconds(fromLocal: local) == expected)
                seconds += 7
            }
        }
    }

    @Test("parses whether an ISO 8601 time carries a zone")
    func parsesWhetherATimeCarriesAZone() {
        for (text, expected) in [
            ("2024-05-01T12:00:00Z", true), ("2024-05-01T12:00:00+02:00", true), ("2024-05-01 12:00:00 UTC", true),
            ("2024-05-01T12:00:00", false), ("2024-05-01T12:00:00.250", false), ("2024-05-01", false),
        ] {
            var hasZone = false
            var bytes = Array(text.utf8)
            let time = bytes.withUnsafeMutableBytes {
                ISO8601.parse(UnsafeRawBufferPointer($0), from: 0, to: $0.count, hasZone: &hasZone)
            }
            #expect(time != nil && hasZone == expected, "\(text)")
        }
    }

    // MARK: - Readers

    /// Every reader of text times converts those written without a zone, and only those: a time with `Z` or an
    /// offset, and an epoch number, stay as they are; without the option nothing changes (the CSV's fast path).
    @Test("converts only the times written without a zone, in every reader of text times")
    func readersConvertOnlyZonelessTimes() {
        let csv = "time,lat,lon\n2024-07-15 12:00:00,52.5,13.4\n2024-07-15T12:00:01Z,52.5,13.4\n"
        let csvRead = read(csv, .csv, zone: "Europe/Berlin")
        #expect(times(csvRead) == ["2024-07-15T10:00:00Z", "2024-07-15T12:00:01Z"])
        #expect(csvRead.report.localTimesConverted == 1)
        #expect(times(read(csv, .csv, zone: nil)) == ["2024-07-15T12:00:00Z", "2024-07-15T12:00:01Z"])
        // A column whose name says UTC is UTC (a reviewer's `time_utc`, `Time (UTC)`, `utc_date,utc_time`).
        for header in ["time_utc", "\"Time (UTC)\"", "utc_time"] {
            let named = read("\(header),lat,lon\n2024-07-15 12:00:00,52.5,13.4\n", .csv, zone: "Europe/Berlin")
            #expect(times(named) == ["2024-07-15T12:00:00Z"] && named.report.localTimesConverted == 0, "\(header)")
        }
        let epoch = read("time,lat,lon\n1721044802,52.5,13.4\n", .csv, zone: "Europe/Berlin")
        #expect(times(epoch) == ["2024-07-15T12:00:02Z"] && epoch.report.localTimesConverted == 0)

        let jsonl = """
            {"time":"2024-07-15T12:00:00","lat":52.5,"lon":13.4}
            {"time":"2024-07-15T12:00:01+02:00","lat":52.5,"lon":13.4}
            {"time":1721044802000,"lat":52.5,"lon":13.4}

            """
        let jsonRead = read(jsonl, .jsonLines, zone: "Europe/Berlin")
        #expect(times(jsonRead) == ["2024-07-15T10:00:00Z", "2024-07-15T10:00:01Z", "2024-07-15T12:00:02Z"])
        #expect(jsonRead.report.localTimesConverted == 1)
        // A record's other times (Traccar's serverTime) are converted apart: not counted, and not steering the
        // repeated hour (the server's time a quarter hour on put the next fix an hour late, a reviewer's).
        let traccar = """
            {"fixTime":"2023-10-29 02:30:00","serverTime":"2023-10-29 02:45:00","latitude":52.5,"longitude":13.4}
            {"fixTime":"2023-10-29 02:31:00","serverTime":"2023-10-29 02:46:00","latitude":52.5,"longitude":13.4}

            """
        let traccarRead = read(traccar, .jsonLines, zone: "Europe/Berlin")
        #expect(times(traccarRead) == ["2023-10-29T00:30:00Z", "2023-10-29T00:31:00Z"])
        #expect(traccarRead.report.localTimesConverted == 2)

        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="52.5" lon="13.4"><time>2024-07-15T12:00:00</time></trkpt>
            <trkpt lat="52.5" lon="13.4"><time>2024-07-15T10:00:01Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let gpxRead = read(gpx, .gpx, zone: "Europe/Berlin")
        #expect(times(gpxRead) == ["2024-07-15T10:00:00Z", "2024-07-15T10:00:01Z"])
        #expect(gpxRead.report.localTimesConverted == 1)

        let kml = """
            <?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Placemark><gx:Track><when>2024-07-15T12:00:00</when><when>2024-07-15T10:00:01Z</when>
            <gx:coord>13.4 52.5 0</gx:coord><gx:coord>13.4 52.5 0</gx:coord></gx:Track></Placemark></kml>
            """
        let kmlRead = read(kml, .kml, zone: "Europe/Berlin")
        #expect(times(kmlRead) == ["2024-07-15T10:00:00Z", "2024-07-15T10:00:01Z"])
        #expect(kmlRead.report.localTimesConverted == 1)
    }

    /// A CSV's other local shapes: a date and a time of day in one field (day first), a date column beside a time
    /// of day, and Excel's day numbers (a spreadsheet's times are local by nature).
    @Test("converts a CSV's split dates, date columns and Excel days")
    func convertsCSVDateShapes() {
        let split = read(
            "time,lat,lon\n15.07.2024 12:00:00,52.5,13.4\n15.07.2024 12:00:01 +01:00,52.5,13.4\n", .csv,
            zone: "Europe/Berlin")
        #expect(times(split) == ["2024-07-15T10:00:00Z", "2024-07-15T11:00:01Z"])
        let columns = read("date,time,lat,lon\n2024-07-15,12:00:00,52.5,13.4\n", .csv, zone: "Europe/Berlin")
        #expect(times(columns) == ["2024-07-15T10:00:00Z"])
        // 45488.5 is 2024-07-15 12:00 (Excel's days since 1899-12-30).
        let excel = read("time,lat,lon\n45488.5,52.5,13.4\n", .csv, zone: "Europe/Berlin")
        #expect(times(excel) == ["2024-07-15T10:00:00Z"])
    }

    /// A file across the autumn change written in local time: read as UTC its times step back an hour, with the
    /// zone they are one track in order.
    @Test("reads a local-time file across the autumn change in order")
    func readsAnAutumnChangeFileInOrder() {
        var csv = "time,lat,lon\n"
        // 02:30 summer time (00:30Z) to 02:29 standard time (01:29Z), every minute.
        for minute in 0..<120 {
            let utc = ms("2023-10-29T00:30:00Z") + Int64(minute) * 60_000
            let offset: Int64 = utc < ms("2023-10-29T01:00:00Z") ? 7_200_000 : 3_600_000
            let local = ISO8601.format(Timestamp(millisecondsSince1970: utc + offset)).dropLast()  // without its Z
            csv += "\(local),\(52.5 + Double(minute) * 1e-4),13.4\n"
        }
        let result = read(csv, .csv, zone: "Europe/Berlin")
        let stamps = result.fixes.map(\.timestamp.millisecondsSince1970)
        #expect(stamps.count == 120)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 == 60_000 })
        #expect(stamps.first == ms("2023-10-29T00:30:00Z"))
    }
}
