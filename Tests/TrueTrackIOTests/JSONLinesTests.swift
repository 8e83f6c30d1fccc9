import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO

@Suite struct JSONLinesTests {
    typealias Support = JSONTestSupport

    func read(_ text: String, lenient: Bool = false) -> ReadResult {
        var reader = JSONLinesReader(
            stream: ByteStream(bytes: Array(text.utf8)), options: ReadOptions(lenient: lenient))
        return reader.readAll()
    }

    /// An altitude, speed or course that is no finite number (`"NaN"`, `"inf"`, `1e400`) is read as missing and
    /// counted with the fields read as missing, strict or lenient, the record kept: it was dropped without a word.
    @Test func nonFiniteMeasurementsAreReadAsMissingAndCounted() throws {
        let text =
            #"{"time":"2024-05-01T10:00:00Z","lat":52.5,"lon":13.4,"altitude":"NaN","speed":1e400,"course":"-inf"}"#
            + "\n" + #"{"time":"2024-05-01T10:00:01Z","lat":52.5,"lon":13.4,"altitude":5,"speed_kmh":"Infinity"}"#
            + "\n"
        for lenient in [false, true] {
            let result = read(text, lenient: lenient)
            #expect(result.error == nil && result.fixes.map(\.altitudeMetres) == [nil, 5])
            #expect(result.fixes.allSatisfy { $0.speedMetresPerSecond == nil } && result.fixes[0].courseDegrees == nil)
            let fields = result.report.unreadableFields.map { error -> String in
                guard case .malformedField(let at, let field, _, _) = error else { return "\(error)" }
                return "\(at.line) \(field)"
            }
            #expect(result.report.unreadableFieldCount == 4 && result.report.errorCount == 0)
            #expect(fields == ["1 altitude_m", "1 speed_mps", "1 course_deg", "2 speed_kmh"], "\(fields)")
        }
        // A GeoJSON position's altitude beyond Double's range.
        var reader = GeoJSONReader(
            stream: ByteStream(
                bytes: Array(
                    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5,1e400]},"properties":{"time":"2024-05-01T10:00:00Z"}}"#
                        .utf8)))
        let point = reader.readAll()
        #expect(point.error == nil && point.fixes.first?.altitudeMetres == nil)
        #expect(point.report.unreadableFieldCount == 1)
    }

    @Test func roundTripsEveryField() throws {
        let fixes = Support.generatedFixes(count: 400, seed: 99)
        let bytes = try Support.write(fixes, sink: ByteSink()) { JSONLinesWriter(sink: $0) }
        var reader = JSONLinesReader(stream: ByteStream(bytes: bytes))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes == fixes)
        #expect(result.report.recordsRead == 400 && result.report.bytesRead == bytes.count)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 400)
        // Every line is a JSON object Foundation agrees with.
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(first["accuracy_m"] as? Double == -1)  // invalid accuracy written as iOS's -1 (0 reads "exact")
        #expect(first["time"] as? String == ISO8601.format(fixes[1].timestamp))
        // (Foundation's Linux parser may be off by an ulp at 16-17 digits; the reader is exact, see above.)
        let latitude = try #require(first["latitude"] as? Double)
        #expect(abs(latitude - fixes[1].latitude) <= 4 * fixes[1].latitude.ulp)
    }

    /// Kept segments: each line carries `segment`, read back as the reader's segment of the fix; without, none.
    @Test func keepsSegmentsInASegmentMember() throws {
        let fixes = Support.generatedFixes(count: 4, seed: 3)
        let sink = ByteSink()
        var writer = JSONLinesWriter(sink: sink, keepsSegments: true)
        for (k, fix) in fixes.enumerated() {
            if k == 2 { writer.startNewSegment() }
            try writer.write(fix)
        }
        try writer.finish()
        var reader = JSONLinesReader(stream: ByteStream(bytes: sink.memory ?? []))
        var segments: [Int?] = []
        while let fix = try reader.next() {
            #expect(fix == fixes[segments.count])
            segments.append(reader.lastSegmentIndex)
        }
        #expect(segments == [0, 0, 1, 1])
        let plain = try Support.write(fixes, sink: ByteSink()) { JSONLinesWriter(sink: $0) }
        #expect(!String(decoding: plain, as: UTF8.self).contains("segment"))
    }

    @Test func writesCanonicalKeysInOrder() throws {
        let fix = try Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_564_800_250), latitude: 52.5, longitude: 13.25,
            horizontalAccuracyMetres: 4.5, altitudeMetres: 34, verticalAccuracyMetres: 3,
            speedMetresPerSecond: 1.25, speedAccuracyMetresPerSecond: 0.5, courseDegrees: 271.5,
            courseAccuracyDegrees: 10, provider: .gps, satellitesUsed: 12, isMocked: false,
            activity: ActivityReading(kind: .walking, confidence: 80))
        let bytes = try Support.write([fix], sink: ByteSink()) { JSONLinesWriter(sink: $0) }
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                {"time":"2024-05-01T12:00:00.250Z","latitude":52.5,"longitude":13.25,"accuracy_m":4.5,"altitude_m":34,\
                "vertical_accuracy_m":3,"speed_mps":1.25,"speed_accuracy_mps":0.5,"course_deg":271.5,\
                "course_accuracy_deg":10,"provider":"gps","satellites":12,"mocked":false,"activity":"walking",\
                "activity_confidence":80}

                """)
    }

    @Test func skipsBlankLinesAndAcceptsCRLFAndRecordSeparators() throws {
        let text =
            "\n   \r\n{\"time\":1714564800,\"lat\":1,\"lng\":2}\r\n\t\n\u{1E}{\"timestamp\":\"2024-05-01T12:00:01Z\",\"latitude\":3,\"lon\":4}"
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [1, 3])
        #expect(result.fixes.map(\.longitude) == [2, 4])
        #expect(result.report.skipped(.blank) == 3)
        #expect(result.report.recordsRead == 5)
    }

    @Test func badLineIsAnErrorWithItsLineNumber() throws {
        let text = """
            {"time":1,"latitude":1,"longitude":1}
            {"time":2,"latitude":2,"longitude":2
            {"time":3,"latitude":3,"longitude":3} x
            [1,2]
            {"time":4,"latitude":95,"longitude":4}
            {"time":5,"latitude":5,"longitude":"east"}
            {"time":6,"latitude":6,"longitude":6}
            """
        let strict = read(text)
        #expect(strict.fixes.map(\.latitude) == [1])
        guard case .truncated(let location, let expected)? = strict.error else {
            Issue.record("expected truncated, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 2 && location.column == 37 && expected == "',' or '}'")
        let lenient = read(text, lenient: true)
        #expect(lenient.error == nil)
        #expect(lenient.fixes.map(\.latitude) == [1, 6])
        #expect(lenient.report.errorCount == 5)
        #expect(lenient.report.errors.map { $0.location.line } == [2, 3, 4, 5, 6])
        #expect(lenient.report.errors.map { $0.location.column } == [37, 39, 1, 22, 36])
        if case .invalidFix(_, .latitudeOutOfRange(95), _) = lenient.report.errors[3] {
        } else {
            Issue.record("expected an invalid latitude, got \(lenient.report.errors[3])")
        }
    }

    @Test func readsGeoJSONFeaturesPerLine() throws {
        let text = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5,40]},"properties":{"time":"2024-05-01T12:00:00Z","accuracy_m":5}}
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"times":[1714564801,1714564802]}}
            """
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [52.5, 2, 4])
        #expect(result.fixes.first?.altitudeMetres == 40)
        #expect(result.fixes.first?.horizontalAccuracy == .metres(5))
    }

    @Test func missingFieldsAreSkippedNotErrors() throws {
        let text = """
            {"latitude":1,"longitude":2}
            {"time":"2024-05-01T12:00:00Z","latitude":1}
            {"time":"","latitude":1,"longitude":2,"accuracy_m":null,"speed_mps":"","mocked":null}
            {"time":"2024-05-01T12:00:00Z","latitude":1,"longitude":2,"accuracy_m":null,"speed_mps":"","mocked":"TRUE"}
            """
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.fixes.first?.horizontalAccuracy == .absent)
        #expect(result.fixes.first?.speedMetresPerSecond == nil)
        #expect(result.fixes.first?.isMocked == true)
        #expect(result.report.skipped(.missingTime) == 2)
        #expect(result.report.skipped(.missingPosition) == 1)
    }

    /// Two members of one position field in one object (`"lat":52.5,"lat":1.0`, the alias pair `"lat"` and
    /// `"latitude"`, two `geometry` members) were read as whichever came last, without a word (a formats tester's
    /// l_dupkey.jsonl, l_alias_dup.jsonl, l_dupgeom.jsonl): an error naming the line, the column and both names, as a
    /// GPX attribute given twice is; lenient, the record is skipped and the others read. Other fields given twice
    /// are read as before.
    @Test func twoMembersOfOneFieldAreAnErrorNamingBoth() throws {
        let good = #"{"time":"2024-05-01T10:00:00Z","lat":52.5,"lon":13.4}"#
        let cases: [(line: String, field: String, column: Int, first: String)] = [
            (#"{"time":"2024-05-01T10:00:01Z","lat":52.50001,"lat":1.0,"lon":13.40005}"#, "lat", 47, "one"),
            (#"{"time":"2024-05-01T10:00:01Z","lat":52.5,"latitude":1.0,"lon":13.4}"#, "latitude", 43, #""lat""#),
            (
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
                    + #""geometry":{"type":"Point","coordinates":[0.1,0.1]},"properties":{"time":1714557601}}"#,
                "geometry", 73, "one"
            ),
            (
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5],"coordinates":[0,0]},"#
                    + #""properties":{"time":1714557601}}"#, "coordinates", 72, "one"
            ),
            (#"{"time":1714557601,"coords":{"latitude":52.5,"lat":1,"longitude":13.4}}"#, "lat", 46, #""latitude""#),
        ]
        for (line, field, column, first) in cases {
            let strict = read(good + "\n" + line + "\n")
            #expect(strict.fixes.count == 1, "\(line)")
            guard case .malformedField(let location, let name, let expected, _)? = strict.error else {
                Issue.record("\(line): expected an error, got \(String(describing: strict.error))")
                continue
            }
            #expect(location.line == 2 && location.column == column && name == field, "\(location) \(name)")
            #expect(expected.contains(first), "\(expected)")
            let lenient = read(good + "\n" + line + "\n" + good + "\n", lenient: true)
            #expect(lenient.fixes.count == 2 && lenient.report.skipped(.malformed) == 1, "\(line)")
        }
        // Not the record's error: members of two objects, a speed in m/s beside a bare one, two names of a tracker, a
        // member the reader does not know, a time and a course given twice.
        let fine = [
            #"{"type":"Feature","time":1714557601,"geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
                + #""properties":{"time":1714557601}}"#,
            #"{"time":1714557601,"lat":52.5,"lon":13.4,"speed":3,"speed_mps":2,"note":1,"note":2}"#,
            #"{"time":1714557601,"lat":52.5,"lon":13.4,"deviceId":3,"uniqueId":"a","device":"b","imei":"c"}"#,
            // A time and a course named twice (GPSLogger for Android's full custom-URL template sends "timestamp" and
            // "time"; a reviewer's): read as before, not the record's error.
            #"{"timestamp":1714557601,"lat":52.5,"lon":13.4,"time":"2024-05-01T10:00:01Z","heading":90,"course":90}"#,
        ]
        for line in fine {
            let result = read(line + "\n")
            #expect(result.error == nil && result.fixes.count == 1, "\(line): \(String(describing: result.error))")
        }
    }
}

/// Real values through the JSON writers and readers: the GSDC 2021 ground truth of the 2020-05-14
/// Mountain View drive (gsdc2020-mtv1/ground_truth.csv, 1740 rows, 10-decimal coordinates).
@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct JSONRecordedDataTests {
    static func groundTruth() throws -> [Fix] {
        let text = try String(contentsOfFile: Datasets.path("gsdc2020-mtv1/ground_truth.csv"), encoding: .utf8)
        return try text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return try Fix(
                timestamp: Timestamp(gpsMilliseconds: Int64(f[2])!), latitude: Double(f[3])!,
                longitude: Double(f[4])!, altitudeMetres: Double(f[5])!, speedMetresPerSecond: Double(f[9])!,
                courseDegrees: Double(f[10])!, provider: .groundTruth)
        }
    }

    @Test func groundTruthRoundTripsThroughJSONLinesAndGeoJSON() throws {
        let fixes = try JSONRecordedDataTests.groundTruth()
        try #require(fixes.count == 1740)
        let jsonl = try JSONTestSupport.write(fixes, sink: ByteSink()) { JSONLinesWriter(sink: $0) }
        var lines = JSONLinesReader(stream: ByteStream(bytes: jsonl))
        let fromLines = lines.readAll()
        let geojson = try JSONTestSupport.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        var points = GeoJSONReader(stream: ByteStream(bytes: geojson))
        let fromPoints = points.readAll()
        for result in [fromLines, fromPoints] {
            #expect(result.error == nil)
            #expect(result.fixes == fixes)
            let first = try #require(result.fixes.first)
            let last = try #require(result.fixes.last)
            #expect(first.timestamp == ISO8601.parse("2020-05-14T22:10:45.442Z"))
            #expect(first.latitude == 37.4235759540 && first.longitude == -122.0941320350)
            #expect(first.altitudeMetres == 33.21 && first.courseDegrees == 12.70)
            #expect(last.timestamp == ISO8601.parse("2020-05-14T22:39:44.442Z"))
            #expect(last.latitude == 37.6458230433 && last.longitude == -122.4056081833)
            #expect(last.provider == .groundTruth)
        }
        // The LineString form keeps time, position and altitude.
        let line = try JSONTestSupport.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0, geometry: .lineString) }
        var track = GeoJSONReader(stream: ByteStream(bytes: line))
        let fromTrack = track.readAll()
        #expect(fromTrack.fixes.map(\.timestamp) == fixes.map(\.timestamp))
        #expect(fromTrack.fixes.map(\.latitude) == fixes.map(\.latitude))
        #expect(fromTrack.fixes.map(\.altitudeMetres) == fixes.map(\.altitudeMetres))
    }

    /// A speed whose name gives its unit is read in it, as a CSV column so named (a tester's `speed_kmh` was left
    /// unread without a word: a walk counted on positions alone, 1,280 m of 1,000).
    @Test func readsASpeedInTheUnitItsNameGives() throws {
        var reader = JSONLinesReader(
            stream: ByteStream(
                bytes: Array(
                    """
                            {"time":"2025-12-05T14:00:00Z","lat":48.1,"lon":11.5,"speed_kmh":36}
                    {"time":"2025-12-05T14:00:01Z","lat":48.1,"lon":11.5,"speedKnots":10}
                    {"time":"2025-12-05T14:00:02Z","lat":48.1,"lon":11.5,"speed_mph":10}
                    {"time":"2025-12-05T14:00:03Z","lat":48.1,"lon":11.5,"speed_mps":2,"speed_kmh":36}
                    {"time":"2025-12-05T14:00:04Z","lat":48.1,"lon":11.5,"speed_kmh":36,"speed":99}
                    """.utf8)))
        let result = reader.readAll()
        #expect(result.error == nil)
        let speeds = result.fixes.map { $0.speedMetresPerSecond ?? -1 }
        #expect(speeds.count == 5)
        #expect(abs(speeds[0] - 10) < 1e-9 && abs(speeds[1] - 5.144444) < 1e-6 && abs(speeds[2] - 4.4704) < 1e-9)
        // A speed in m/s wins; a bare speed after one in a named unit does not replace it.
        #expect(speeds[3] == 2 && abs(speeds[4] - 10) < 1e-9)
    }
}
