import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

@Suite struct GeoJSONTests {
    typealias Support = JSONTestSupport

    func read(_ text: String, lenient: Bool = false) -> ReadResult {
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(text.utf8)), options: ReadOptions(lenient: lenient))
        return reader.readAll()
    }

    func time(_ iso: String) -> Timestamp { ISO8601.parse(iso)! }

    // MARK: - Round trips

    /// A LineString file (`--lines`) cut inside its times: the positions read with a time are returned, then the
    /// error. Before, a batch tester's file cut before its last time gave 0 of 50 fixes.
    @Test func aLineStringCutInsideItsTimesKeepsThePositionsWithATime() throws {
        let coordinates = (0..<5).map { "[14.5\($0),46.1]" }.joined(separator: ",")
        let times = (0..<5).map { "\"2024-05-01T12:00:0\($0)Z\"" }.joined(separator: ",")
        let whole = """
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString",\
            "coordinates":[\(coordinates)]},"properties":{"coordTimes":[\(times)]}}]}
            """
        #expect(read(whole).fixes.count == 5)
        let cut = String(whole[..<whole.range(of: "\"2024-05-01T12:00:03Z\"")!.lowerBound])
        let result = read(cut)
        #expect(result.fixes.map(\.timestamp) == (0..<3).map { time("2024-05-01T12:00:0\($0)Z") })
        #expect(result.fixes.map(\.longitude) == [14.50, 14.51, 14.52])
        guard case .truncated? = result.error else {
            Issue.record("expected the cut to be reported: \(String(describing: result.error))")
            return
        }
        // Cut inside the positions, with the times not yet read: nothing to pair, the error alone.
        let early = read(String(whole[..<whole.range(of: "[14.53")!.lowerBound]))
        #expect(early.fixes.isEmpty)
        #expect(early.error != nil)
    }

    @Test func pointFeaturesRoundTripEveryField() throws {
        let fixes = Support.generatedFixes(count: 400, seed: 42)
        let bytes = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        var reader = GeoJSONReader(stream: ByteStream(bytes: bytes))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes == fixes)
        #expect(result.report.recordsRead == 400)
        #expect(result.report.fixesProduced == 400)
        #expect(result.report.bytesRead == bytes.count)
        // Invalid accuracy is written as -1 (not 0: "exact" to other tools) and reads back invalid; absent stays absent.
        #expect(result.fixes[1].horizontalAccuracy == .invalid)
        #expect(result.fixes[0].horizontalAccuracy == .absent)
        #expect(result.fixes[2].horizontalAccuracy == .metres(1e-7))
        // The document is valid JSON for Foundation too, with the canonical property names.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 400)
        let properties = try #require(features[1]["properties"] as? [String: Any])
        #expect(properties["accuracy_m"] as? Double == -1)
        #expect(properties["provider"] as? String == fixes[1].provider.rawValue)
    }

    /// Kept segments in points mode: each point carries a `segment` property, read back as the reader's segment of
    /// the fix (a converted ride's 8 GPX segments read back as one before; an operations tester's); without, none.
    @Test("point features keep their segments in a segment property when asked")
    func pointFeaturesKeepSegments() throws {
        let fixes = Support.generatedFixes(count: 4, seed: 3)
        let sink = ByteSink()
        var writer = GeoJSONWriter(sink: sink, keepsSegments: true)
        for (k, fix) in fixes.enumerated() {
            if k == 2 { writer.startNewSegment() }
            try writer.write(fix)
        }
        try writer.finish()
        var reader = GeoJSONReader(stream: ByteStream(bytes: sink.memory ?? []))
        var segments: [Int?] = []
        while let fix = try reader.next() {
            #expect(fix == fixes[segments.count])
            segments.append(reader.lastSegmentIndex)
        }
        #expect(segments == [0, 0, 1, 1])
        let plain = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        #expect(!String(decoding: plain, as: UTF8.self).contains("segment"))
    }

    @Test func roundTripSurvivesTinyReadChunks() throws {
        // A file read 64 bytes at a time: every token straddles a refill somewhere.
        let fixes = Support.generatedFixes(count: 60, seed: 7)
        let bytes = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("geojson-chunks-\(UUID()).geojson")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = GeoJSONReader(stream: try ByteStream(path: path, chunkBytes: 64))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes == fixes)
    }

    @Test func lineStringModeRoundTripsTimeAndPosition() throws {
        let fixes = Support.generatedFixes(count: 50, seed: 3).map {
            try! Fix(
                timestamp: $0.timestamp, latitude: $0.latitude, longitude: $0.longitude,
                altitudeMetres: $0.altitudeMetres)
        }
        let bytes = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0, geometry: .lineString) }
        var reader = GeoJSONReader(stream: ByteStream(bytes: bytes))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes == fixes)
        #expect(result.report.recordsRead == 1)
    }

    /// Segments (a gap, a restart of the filter) are one LineString Feature each, so a map does not draw a line
    /// across the gap; a one-fix segment is a Point (a LineString needs two positions). Everything reads back.
    /// (Longitudes within ±90°: the generated ones, anywhere on the globe, cross the antimeridian, and such a
    /// segment is a MultiLineString.)
    @Test func lineStringModeWritesAFeaturePerSegment() throws {
        let fixes = Support.generatedFixes(count: 12, seed: 5).map {
            try! Fix(timestamp: $0.timestamp, latitude: $0.latitude, longitude: $0.longitude / 2)
        }
        let sink = ByteSink()
        var writer = GeoJSONWriter(sink: sink, geometry: .lineString)
        for (i, fix) in fixes.enumerated() {
            if i == 5 || i == 6 { writer.startNewSegment() }  // segments 0–4, 5 alone, 6–11
            try writer.write(fix)
        }
        writer.startNewSegment()  // at the end: nothing more
        try writer.finish()
        let bytes = sink.memory ?? []
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        let kinds = features.compactMap { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(kinds == ["LineString", "Point", "LineString"])
        let times = features.map { (($0["properties"] as? [String: Any])?["coordTimes"] as? [Any])?.count ?? 1 }
        #expect(times == [5, 1, 6])
        var reader = GeoJSONReader(stream: ByteStream(bytes: bytes))
        let result = reader.readAll()
        #expect(result.error == nil && result.fixes == fixes)
    }

    @Test func emptyCollectionsWriteAndReadNothing() throws {
        for geometry in [GeoJSONWriter.Geometry.points, .lineString] {
            let bytes = try Support.write([], sink: ByteSink()) { GeoJSONWriter(sink: $0, geometry: geometry) }
            #expect(String(decoding: bytes, as: UTF8.self) == "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
            var reader = GeoJSONReader(stream: ByteStream(bytes: bytes))
            let result = reader.readAll()
            #expect(result.fixes.isEmpty && result.error == nil && result.report.totalSkipped == 0)
        }
    }

    // MARK: - Lines across the antimeridian

    /// Writes fixes at `points` (latitude, longitude), one second apart from 12:00:00, as line-string GeoJSON in
    /// one segment; `altitudes` gives each one its altitude.
    func writeLine(_ points: [(Double, Double)], altitudes: [Double]? = nil) throws -> (text: String, fixes: [Fix]) {
        let fixes = try points.enumerated().map { k, point in
            try Fix(
                timestamp: Timestamp(
                    millisecondsSince1970: time("2024-05-01T12:00:00Z").millisecondsSince1970
                        + Int64(k) * 1000),
                latitude: point.0, longitude: point.1, altitudeMetres: altitudes?[k])
        }
        let bytes = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0, geometry: .lineString) }
        return (String(decoding: bytes, as: UTF8.self), fixes)
    }

    /// The parts of the first feature's line (one for a LineString) as [[longitude, latitude]] and its times
    /// (`nil` for a `null`), parsed with Foundation.
    func lineParts(_ text: String) throws -> (type: String, parts: [[[Double]]], times: [[String?]]) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let feature = try #require((json["features"] as? [[String: Any]])?.first)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let type = try #require(geometry["type"] as? String)
        let properties = try #require(feature["properties"] as? [String: Any])
        let coordinates = try #require(geometry["coordinates"] as? [Any])
        let times = try #require(properties["coordTimes"] as? [Any])
        func positions(_ line: [Any]) -> [[Double]] { line.map { ($0 as? [NSNumber] ?? []).map(\.doubleValue) } }
        func texts(_ line: [Any]) -> [String?] { line.map { $0 as? String } }
        if type == "MultiLineString" {
            return (
                type, coordinates.map { positions($0 as? [Any] ?? []) }, times.map { texts($0 as? [Any] ?? []) }
            )
        }
        return (type, [positions(coordinates)], [texts(times)])
    }

    /// Reads `text` back: the fixes written, and nothing counted as skipped for the vertices of the cuts.
    func expectReadsBack(_ text: String, _ fixes: [Fix]) {
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes == fixes)
        #expect(result.report.totalSkipped == 0)
        #expect(result.report.recordsRead == 1)
    }

    @Test("finds where a step crosses the antimeridian by hand-worked interpolation, and no crossing otherwise")
    func antimeridianCrossingLatitude() throws {
        // 179° → −179° is 179° → 181° unwrapped: ±180 is halfway, latitude 11°.
        let east = try #require(
            Antimeridian.crossing(fromLatitude: 10, fromLongitude: 179, toLatitude: 12, toLongitude: -179))
        #expect(east == Antimeridian.Crossing(endLongitude: 180, latitude: 11, fraction: 0.5))
        #expect(east.startLongitude == -180)
        // −179.25° → 179.75° is −179.25° → −180.25° unwrapped: −180 is three quarters along, latitude 3°.
        let west = try #require(
            Antimeridian.crossing(fromLatitude: 0, fromLongitude: -179.25, toLatitude: 4, toLongitude: 179.75))
        #expect(west == Antimeridian.Crossing(endLongitude: -180, latitude: 3, fraction: 0.75))
        // Steps of exactly 180° or less do not cross (a meridian's two sides, a step along ±180).
        #expect(Antimeridian.crossing(fromLatitude: 0, fromLongitude: -90, toLatitude: 1, toLongitude: 90) == nil)
        #expect(Antimeridian.crossing(fromLatitude: 0, fromLongitude: 180, toLatitude: 1, toLongitude: 180) == nil)
        #expect(Antimeridian.crossing(fromLatitude: 0, fromLongitude: 179.9, toLatitude: 1, toLongitude: 180) == nil)
        // Both ends on the antimeridian, spelled 180 and −180: cut at the first end.
        #expect(
            Antimeridian.crossing(fromLatitude: 5, fromLongitude: 180, toLatitude: 6, toLongitude: -180)
                == Antimeridian.Crossing(endLongitude: 180, latitude: 5, fraction: 0))
    }

    @Test("cuts a line that crosses the antimeridian eastwards into two parts at ±180, byte for byte")
    func cutsAnEastwardCrossing() throws {
        let (text, fixes) = try writeLine([(10, 179), (12, -179)])
        #expect(
            text == """
                {"type":"FeatureCollection","features":[
                {"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[
                [179,10],
                [180,11]
                ],[
                [-180,11],
                [-179,12]
                ]]},"properties":{"coordTimes":[[
                "2024-05-01T12:00:00Z",null
                ],[
                null,"2024-05-01T12:00:01Z"
                ]]}}
                ]}

                """)
        expectReadsBack(text, fixes)
    }

    @Test("cuts a line that crosses the antimeridian westwards, ending its first part at −180")
    func cutsAWestwardCrossing() throws {
        let (text, fixes) = try writeLine([(-1, -179), (0, -179.25), (4, 179.75), (5, 179)])
        let line = try lineParts(text)
        #expect(line.type == "MultiLineString")
        #expect(line.parts == [[[-179, -1], [-179.25, 0], [-180, 3]], [[180, 3], [179.75, 4], [179, 5]]])
        #expect(
            line.times == [
                ["2024-05-01T12:00:00Z", "2024-05-01T12:00:01Z", nil],
                [nil, "2024-05-01T12:00:02Z", "2024-05-01T12:00:03Z"],
            ])
        expectReadsBack(text, fixes)
    }

    @Test("cuts a line at every crossing: back and forth over the antimeridian makes one part more per crossing")
    func cutsSeveralCrossings() throws {
        let points = [(0.0, 179.5), (1, -179.5), (2, 179.5), (3, -179.5), (4, -179.0)]
        let (text, fixes) = try writeLine(points, altitudes: [100, 200, 300, 400, 500])
        let line = try lineParts(text)
        #expect(line.type == "MultiLineString")
        #expect(line.parts.count == 4)
        #expect(line.parts.map(\.count) == [2, 3, 3, 3])
        for part in line.parts {
            for (a, b) in zip(part, part.dropFirst()) { #expect(abs(a[0] - b[0]) <= 180, "\(part)") }
        }
        // Each cut at the step's midpoint (half a degree each side), in latitude and altitude.
        #expect(line.parts[0][1] == [180, 0.5, 150] && line.parts[1][0] == [-180, 0.5, 150])
        #expect(line.parts[1][2] == [-180, 1.5, 250] && line.parts[2][0] == [180, 1.5, 250])
        #expect(line.parts[2][2] == [180, 2.5, 350] && line.parts[3][0] == [-180, 2.5, 350])
        #expect(line.times.map(\.count) == line.parts.map(\.count))
        #expect(line.times.joined().filter { $0 == nil }.count == 6)
        // One feature, one segment: the parts read back as the five fixes, nothing skipped.
        expectReadsBack(text, fixes)
    }

    @Test("leaves a line on exactly 180 uncut, and ends a part with a fix that lies on it before crossing")
    func aLineOnTheAntimeridian() throws {
        // Along 180 (both ends on it, spelled alike): not a crossing, the LineString as before.
        let along = try writeLine([(0, 180), (1, 180), (2, 179.99)])
        #expect(try lineParts(along.text).type == "LineString")
        expectReadsBack(along.text, along.fixes)
        // 179.9 → 180 → −179.9: the step from 180 crosses at its start, so the first part ends at the fix on 180
        // (the cut's vertex there, at its latitude) and the second starts at −180 at the same latitude.
        let touching = try writeLine([(0, 179.9), (1, 180), (2, -179.9)])
        let line = try lineParts(touching.text)
        #expect(line.type == "MultiLineString")
        #expect(line.parts == [[[179.9, 0], [180, 1], [180, 1]], [[-180, 1], [-179.9, 2]]])
        expectReadsBack(touching.text, touching.fixes)
        // The same fix on the antimeridian written both ways (180, then −180): a cut, with two positions in
        // every part.
        let both = try writeLine([(0, 179.9), (1, 180), (1, -180), (2, -179.9)])
        let parts = try lineParts(both.text).parts
        #expect(parts == [[[179.9, 0], [180, 1], [180, 1]], [[-180, 1], [-180, 1], [-179.9, 2]]])
        expectReadsBack(both.text, both.fixes)
    }

    @Test("writes a line that does not cross the antimeridian as the LineString it always was, byte for byte")
    func aLineThatDoesNotCrossIsUnchanged() throws {
        // 179.9 → −179.9 crosses; 179.9 → 0.1 → −179.9 goes the long way round in steps under 180°: no cut.
        let (text, fixes) = try writeLine([(0, 179.9), (0.5, 0.1), (1, -179.9)])
        #expect(
            text == """
                {"type":"FeatureCollection","features":[
                {"type":"Feature","geometry":{"type":"LineString","coordinates":[
                [179.9,0],
                [0.1,0.5],
                [-179.9,1]
                ]},"properties":{"coordTimes":[
                "2024-05-01T12:00:00Z","2024-05-01T12:00:01Z","2024-05-01T12:00:02Z"
                ]}}
                ]}

                """)
        expectReadsBack(text, fixes)
    }

    /// The vertex a reader passes over is only the one a cut makes: a `null` time elsewhere is still a vertex
    /// without a time, counted.
    @Test("reads a vertex without a time as skipped unless it lies on ±180, where a line was cut")
    func onlyTheCutVerticesGoUncounted() throws {
        let text = """
            {"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[179,10],[180,11]],\
            [[-180,11],[-179,12],[-178,13]]]},"properties":{"coordTimes":[["2024-05-01T12:00:00Z",null],\
            [null,"2024-05-01T12:00:01Z",null]]}}
            """
        let result = read(text)
        #expect(result.fixes.map(\.longitude) == [179, -179])
        #expect(result.report.skipped(.missingTime) == 1)
    }

    // MARK: - Hand-written documents

    @Test func readsAliasesInAnyMemberOrder() throws {
        let text = """
            {"features": [
              {"properties": {"timestamp": 1714564800, "accuracy": 4.5, "bearing": 370, "speed": "1.25",
                              "provider": "FLP", "mock": 1, "sats": 9.0, "activity": "ON_FOOT",
                              "extra": {"deep": [[[{"a": [1, {"b": null}]}]]], "s": "x\\"y"}},
               "geometry": {"coordinates": [13.5, 52.25, 34.5], "type": "Point"}, "type": "Feature", "id": 17},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-0.1, 51.5]},
               "properties": {"time": 1714564801500, "altitude": 12, "course": -1, "Speed_MPS": -1}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [2, 48]},
               "properties": {"time": "2024-05-01T14:00:02.250+02:00", "ele": 7, "provider": null}}
            ], "type": "FeatureCollection", "bbox": [0, 0, 1, 1]}
            """
        let result = read(text)
        #expect(result.error == nil)
        let fixes = result.fixes
        try #require(fixes.count == 3)
        #expect(fixes[0].timestamp == time("2024-05-01T12:00:00Z"))
        #expect(fixes[0].longitude == 13.5 && fixes[0].latitude == 52.25)
        #expect(fixes[0].altitudeMetres == 34.5)
        #expect(fixes[0].horizontalAccuracy == .metres(4.5))
        #expect(fixes[0].courseDegrees == 10)
        #expect(fixes[0].speedMetresPerSecond == 1.25)
        #expect(fixes[0].provider == .fused)
        #expect(fixes[0].isMocked == true)
        #expect(fixes[0].satellitesUsed == 9)
        #expect(fixes[0].activity == ActivityReading(kind: .onFoot, confidence: 100))
        // Milliseconds since 1970 (≥ 10^11), iOS's −1 speed/course → absent, explicit altitude property.
        #expect(fixes[1].timestamp == time("2024-05-01T12:00:01.500Z"))
        #expect(fixes[1].altitudeMetres == 12)
        #expect(fixes[1].courseDegrees == nil && fixes[1].speedMetresPerSecond == nil)
        #expect(fixes[1].provider == .unknown)
        #expect(fixes[2].timestamp == time("2024-05-01T12:00:02.250Z"))
        #expect(fixes[2].altitudeMetres == 7)
    }

    /// Two members of one field in one object are an error naming both (a formats tester's two `geometry` members
    /// read as the last): in a document's root feature, in a feature's properties, in a collection's feature (then the
    /// others are read when lenient).
    @Test func twoMembersOfOneFieldAreAnErrorNamingBoth() throws {
        let root = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},
             "geometry":{"type":"Point","coordinates":[0.1,0.1]},"properties":{"time":"2024-05-01T10:00:00Z"}}
            """
        guard case .malformedField(let place, "geometry", let expected, _)? = read(root).error else {
            Issue.record("expected the second geometry, got \(String(describing: read(root).error))")
            return
        }
        #expect(place.line == 2 && place.column == 2 && expected.contains("already has one"))
        let feature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
        let collection = """
            {"type":"FeatureCollection","features":[
            \(feature)"properties":{"time":"2024-05-01T10:00:00Z"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5],"coordinates":[0,0]},"properties":{"time":"2024-05-01T10:00:01Z"}},
            \(feature)"properties":{"time":"2024-05-01T10:00:02Z"}}]}
            """
        let strict = read(collection)
        #expect(strict.fixes.count == 1)
        guard case .malformedField(let location, "coordinates", let message, _)? = strict.error else {
            Issue.record("expected the second coordinates, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 3 && message.contains("already has one"))
        // A time given twice (`timestamp` and `time`) is read as before: not the record's error (a reviewer's).
        let times = """
            {"type":"FeatureCollection","features":[
            \(feature)"properties":{"timestamp":"2024-05-01T10:00:01Z","time":"2024-05-01T10:00:01Z"}}]}
            """
        #expect(read(times).error == nil && read(times).fixes.count == 1)
        let lenient = read(collection, lenient: true)
        #expect(lenient.fixes.count == 2 && lenient.report.skipped(.malformed) == 1)
    }

    /// The check of a second member of one field keeps a bit per key in one word (`JSONMemberSet`): every key's raw
    /// value must be below 64.
    @Test func everyJSONKeyHasABitOfAWord() {
        #expect(JSONKey.allCases.allSatisfy { $0.rawValue < 64 })
    }

    @Test func decodesEscapesInNamesAndValues() throws {
        // "t\u0069me" is "time"; a surrogate pair and escapes in an unknown member are decoded and skipped.
        let text = #"""
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},
             "properties":{"name":"\ud83d\ude00 \"quoted\" \\ \/ \b\f\n\r\t \u00e9\u4e2d","t\u0069me":"2024-05-01T12:00:00Z",
             "\u0070rovider":"g\u0070s"}}
            """#
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.fixes.first?.provider == .gps)
        #expect(result.fixes.first?.timestamp == time("2024-05-01T12:00:00Z"))
    }

    @Test func tokenizerUnescapesStrings() throws {
        let text = #"["\ud83d\ude00", "a\u00e9\u4e2d\n", "\ud800x", "\\\"\/"]"#
        var tokens = JSONTokenizer(stream: ByteStream(bytes: Array(text.utf8)))
        #expect(try tokens.next() == .beginArray)
        var strings: [String] = []
        while try tokens.next() == .string { strings.append(tokens.text) }
        #expect(strings == ["😀", "aé中\n", "\u{FFFD}x", "\\\"/"])
    }

    @Test func readsNumbersInEveryForm() throws {
        let text = """
            [{"geometry":{"coordinates":[1e-7,-0,1E+2]},"properties":{"time":0,"accuracy_m":1e400,"speed_mps":2.5e-3,
              "course_deg":720.5,"vertical_accuracy_m":-0.0,"satellites":-3}},
             {"geometry":{"coordinates":[-180,90]},"properties":{"time":1.5,"accuracy_m":1E2,"altitude_m":-1.25e+3}}]
            """
        let result = read(text)
        #expect(result.error == nil)
        try #require(result.fixes.count == 2)
        let a = result.fixes[0]
        #expect(a.longitude == 1e-7 && a.latitude == 0 && a.altitudeMetres == 100)
        #expect(a.timestamp.millisecondsSince1970 == 0)
        #expect(a.horizontalAccuracy == .invalid)  // infinity
        #expect(a.speedMetresPerSecond == 0.0025)
        #expect(a.courseDegrees == 0.5)
        #expect(a.verticalAccuracyMetres == 0)
        #expect(a.satellitesUsed == nil)
        let b = result.fixes[1]
        #expect(b.longitude == -180 && b.latitude == 90)
        #expect(b.timestamp.millisecondsSince1970 == 1500)
        #expect(b.horizontalAccuracy == .metres(100))
        #expect(b.altitudeMetres == -1250)
    }

    @Test func readsLineStringsWithPerVertexTimes() throws {
        let text = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","properties":{"name":"run","coordTimes":["2024-05-01T12:00:00Z","2024-05-01T12:00:01Z",null]},
              "geometry":{"type":"LineString","coordinates":[[10,50,100],[10.001,50.001,101],[10.002,50.002]]}},
             {"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[11,51],[11.1,51.1]],[[11.2,51.2]]]},
              "properties":{"provider":"gps","coordinateProperties":{"times":[[1714564810,1714564811],[1714564812000]],
                                                                     "heart":[[90,91],[92]]}}},
             {"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,1],[2,2]]},"properties":{"name":"no times"}}
            ]}
            """
        let result = read(text)
        #expect(result.error == nil)
        let fixes = result.fixes
        try #require(fixes.count == 5)
        #expect(fixes[0].timestamp == time("2024-05-01T12:00:00Z") && fixes[0].altitudeMetres == 100)
        #expect(fixes[1].longitude == 10.001 && fixes[1].altitudeMetres == 101)
        #expect(fixes[2].timestamp == time("2024-05-01T12:00:10Z") && fixes[2].provider == .gps)
        #expect(fixes[4].timestamp == time("2024-05-01T12:00:12Z") && fixes[4].latitude == 51.2)
        #expect(result.report.skipped(.missingTime) == 3)  // the null time, and both vertices of the last
        #expect(result.report.recordsRead == 3)
    }

    @Test func mismatchedTimesAreAnErrorNamingTheFeature() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"times":[1,2,3]},"geometry":{"type":"LineString","coordinates":[[1,1],[2,2]]}}]}
            """
        let result = read(text)
        guard case .malformedRecord(let location, let expected, let found)? = result.error else {
            Issue.record("expected a malformed record, got \(String(describing: result.error))")
            return
        }
        #expect(location.line == 2 && location.column == 1)
        #expect(expected == "2 times, one per position")
        #expect(found == "3 times")
    }

    @Test func skipsFeaturesWithoutTimeOrPosition() throws {
        let text = """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"no time"}},
             {"type":"Feature","geometry":null,"properties":{"time":"2024-05-01T12:00:00Z"}},
             {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},"properties":null},
             {"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[]},"properties":{"time":5}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"time":"2024-05-01T12:00:09Z"}}
            ]}
            """
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.fixes.first?.latitude == 4)
        #expect(result.report.skipped(.missingTime) == 5)  // the Point without time and the polygon's 4 vertices
        #expect(result.report.skipped(.missingPosition) == 2)
    }

    @Test func readsBareGeometryAndSingleFeature() throws {
        let feature = read(
            #"{"type":"Feature","properties":{"time":"2024-05-01T12:00:00Z"},"geometry":{"type":"Point","coordinates":[5,6]}}"#
        )
        #expect(feature.fixes.map(\.latitude) == [6])
        let geometry = read(#" {"type":"LineString","coordinates":[[5,6],[7,8]],"times":[1714564800,1714564801]} "#)
        #expect(geometry.fixes.map(\.longitude) == [5, 7])
        #expect(geometry.error == nil)
    }

    @Test func outOfRangeLatitudeIsAnInvalidFixAtItsPlace() throws {
        let text = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"time":1}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[13.4, 91.5]},"properties":{"time":2}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[3,4]},"properties":{"time":3}}]}
            """
        let strict = read(text)
        #expect(strict.fixes.count == 1)
        guard case .invalidFix(let location, .latitudeOutOfRange(91.5), _)? = strict.error else {
            Issue.record("expected invalidFix, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 3 && location.column == 67)
        #expect(strict.error?.description.contains("<memory>:3:67") == true)
        let lenient = read(text, lenient: true)
        #expect(lenient.fixes.map(\.latitude) == [2, 4])
        #expect(lenient.report.errorCount == 1 && lenient.report.skipped(.malformed) == 1)
    }

    @Test func wrongValueKindsAreFieldErrors() throws {
        let text = """
            [{"geometry":{"coordinates":[1,2]},"properties":{"time":3,"accuracy_m":true}},
             {"geometry":{"coordinates":[1,2]},"properties":{"time":"yesterday"}},
             {"geometry":{"coordinates":[1,"2"]},"properties":{"time":4}},
             {"geometry":{"coordinates":[5,6]},"properties":{"time":5}}]
            """
        let strict = read(text)
        guard case .malformedField(let location, let field, _, let found)? = strict.error else {
            Issue.record("expected a field error, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 1 && location.column == 72 && field == "accuracy_m" && found == "true")
        // Read leniently, the accuracy `true` is read as missing and its fix kept.
        let lenient = read(text, lenient: true)
        #expect(lenient.fixes.map(\.latitude) == [2, 6])
        #expect(lenient.fixes.first?.horizontalAccuracyMetres == nil)
        #expect(lenient.report.errorCount == 2 && lenient.report.unreadableFieldCount == 1)
        #expect(lenient.report.errors.map { $0.location.line } == [2, 3])
        #expect(lenient.report.unreadableFields.map { $0.location.line } == [1])
    }

    @Test func syntaxErrorsNameLineAndColumn() throws {
        let cases: [(String, Int, Int, String)] = [
            ("{\"features\":[{},]}", 1, 17, "a JSON value"),
            ("{\"features\"\n  [", 2, 3, "':' after the member name"),
            ("{\"a\":01}", 1, 7, "',' or '}'"),
            ("{\"a\":\"x\ny\"}", 1, 8, "a string character (control characters must be escaped)"),
            ("{\"a\":\"\\x\"}", 1, 7, "an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"),
            ("{\"a\":-}", 1, 6, "a JSON number"),
            ("{\"a\":tru}", 1, 6, "a JSON value"),
            ("{} x", 1, 4, "another JSON object or array, or the end of the input, after the JSON value"),
            ("\n\n   <gpx>", 3, 4, "a JSON value"),
        ]
        for (text, line, column, expected) in cases {
            let result = read(text)
            guard case .malformedRecord(let location, let what, _)? = result.error else {
                Issue.record(
                    "\(text.debugDescription): expected a malformed record, got \(String(describing: result.error))")
                continue
            }
            #expect(location.line == line && location.column == column, "\(text.debugDescription): \(location)")
            #expect(what == expected, "\(text.debugDescription)")
        }
    }

    @Test func truncatedDocumentKeepsEarlierFixes() throws {
        let fixes = Support.generatedFixes(count: 10, seed: 11)
        let bytes = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        var reader = GeoJSONReader(stream: ByteStream(bytes: bytes.dropLast(40)))
        let result = reader.readAll()
        #expect(result.fixes == Array(fixes.prefix(9)))
        guard case .truncated(let location, _)? = result.error else {
            Issue.record("expected truncated, got \(String(describing: result.error))")
            return
        }
        #expect(location.line == 11 && location.byteOffset == bytes.count - 40)
        // Empty input is truncated at line 1.
        #expect(
            read("").error
                == .truncated(
                    SourceLocation(file: "<memory>", line: 1, column: 1, byteOffset: 0),
                    expected: "a JSON value"))
    }

    @Test func absurdNestingIsAnErrorNotACrash() throws {
        let text = "{\"features\":" + String(repeating: "[", count: 200_000)
        let result = read(text)
        guard case .malformedRecord(let location, let expected, _)? = result.error else {
            Issue.record("expected a nesting error, got \(String(describing: result.error))")
            return
        }
        #expect(location.column == 13 + JSONTokenizer.defaultMaximumDepth - 1)
        #expect(expected.contains("nested at most 512 deep"))
        // Deep but legal nesting in an unknown member is skipped.
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let ok = read(
            "{\"type\":\"Feature\",\"x\":\(deep),\"geometry\":{\"coordinates\":[1,2]},\"properties\":{\"time\":1}}")
        #expect(ok.error == nil && ok.fixes.count == 1)
    }

    @Test func providerFilterSkipsOtherProviders() throws {
        let fixes = Support.generatedFixes(count: 30, seed: 5)
        let bytes = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        var reader = GeoJSONReader(stream: ByteStream(bytes: bytes), options: ReadOptions(providers: [.gps]))
        let result = reader.readAll()
        #expect(result.fixes == fixes.filter { $0.provider == .gps })
        #expect(result.report.skipped(.providerFiltered) == 30 - result.fixes.count)
    }

    @Test func longStringsGrowTheWindow() throws {
        // A 300 kB unknown string member read through 64-byte chunks.
        let long = String(repeating: "x", count: 300_000)
        let text =
            "{\"type\":\"Feature\",\"name\":\"\(long)\",\"geometry\":{\"coordinates\":[1,2]},\"properties\":{\"time\":1}}"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("geojson-long-\(UUID()).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = GeoJSONReader(stream: try ByteStream(path: path, chunkBytes: 64))
        let result = reader.readAll()
        #expect(result.error == nil && result.fixes.count == 1)
        // Past the stream's record limit it is an error with a place, not unbounded memory.
        var limited = GeoJSONReader(stream: try ByteStream(path: path, chunkBytes: 64, maximumRecordBytes: 4096))
        let failed = limited.readAll()
        guard case .recordTooLong(let location, 4096)? = failed.error else {
            Issue.record("expected recordTooLong, got \(String(describing: failed.error))")
            return
        }
        #expect(location.line == 1 && location.column == 26)
    }

    /// Every feature of a file with line features is a segment (what `--lines` writes: a LineString per segment, a
    /// Point for a segment of one fix): a formats tester's three GPX segments written with `--lines` read back as one.
    /// A file of Point features alone tells no segments (each Point is a fix).
    @Test func readsEachFeatureOfALinesFileAsASegment() throws {
        let lines = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[14,46],[14,46.001]]},
             "properties":{"coordTimes":["2024-05-01T06:00:00Z","2024-05-01T06:00:10Z"]}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[14,46.002],[14,46.003]]},
             "properties":{"coordTimes":["2024-05-01T06:05:00Z","2024-05-01T06:05:10Z"]}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[14,46.004]},"properties":{"time":"2024-05-01T07:00:00Z"}}
            ]}
            """
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(lines.utf8)))
        var segments: [Int?] = []
        while try reader.next() != nil { segments.append(reader.lastSegmentIndex) }
        #expect(segments == [0, 0, 1, 1, 2])
        let points = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[14,46]},"properties":{"time":"2024-05-01T07:00:00Z"}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[14,46.1]},"properties":{"time":"2024-05-01T07:00:01Z"}}
            ]}
            """
        var pointReader = GeoJSONReader(stream: ByteStream(bytes: Array(points.utf8)))
        while try pointReader.next() != nil { #expect(pointReader.lastSegmentIndex == nil) }
    }
}
