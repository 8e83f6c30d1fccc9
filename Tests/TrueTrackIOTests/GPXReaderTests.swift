import Testing
import TrueTrackCore

@testable import TrueTrackIO

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a GPX document held in a string.
func readGPX(_ text: String, options: ReadOptions = ReadOptions(), pointKinds: GPXPointKinds? = .paths) -> ReadResult {
    var reader = GPXReader(stream: ByteStream(bytes: Array(text.utf8)), options: options, pointKinds: pointKinds)
    return reader.readAll()
}

/// `YYYY-MM-DDThh:mm:ss[.SSS]Z` as a timestamp (test inputs are always valid).
func utc(_ text: String) -> Timestamp {
    ISO8601.parse(text) ?? Timestamp(millisecondsSince1970: .min)
}

/// Wraps track points in a minimal GPX 1.1 document.
func gpx11(_ body: String, namespaces: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"\(namespaces)>
    <trk><trkseg>
    \(body)
    </trkseg></trk>
    </gpx>
    """
}

@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct GPXReaderRecordingsTests {
    /// Reads a recording to the end; fails the test on an error.
    func read(
        _ name: String, options: ReadOptions = ReadOptions(), pointKinds: GPXPointKinds = .paths,
        chunkBytes: Int = ByteStream.defaultChunkBytes
    ) throws -> (
        fixes: [Fix], report: ReadReport,
        segments: [Int?], kinds: [GPXPointKind?]
    ) {
        let stream = try ByteStream(path: Datasets.path("gpx-devices/" + name), chunkBytes: chunkBytes)
        var reader = GPXReader(stream: stream, options: options, pointKinds: pointKinds)
        var fixes: [Fix] = []
        var segments: [Int?] = []
        var kinds: [GPXPointKind?] = []
        while let fix = try reader.next() {
            fixes.append(fix)
            segments.append(reader.lastSegmentIndex)
            kinds.append(reader.lastPointKind)
        }
        return (fixes, reader.report, segments, kinds)
    }

    @Test(arguments: [
        // file, fixes (MANIFEST "fixes" = trackpoints with a time), trackpoints without time, waypoints skipped
        ("garmin-edge-800-output.gpx", 1286, 0, 1),
        ("garmin-oregon-700-output.gpx", 997, 0, 0),
        ("wahoo-element-bolt.gpx", 1101, 0, 0),
        ("mtk_logger_m241.gpx", 1199, 0, 7),
        ("24173415.gpx", 689, 0, 58),
        ("korita-zbevnica.gpx", 513, 358, 2),
        ("around-visnjan-with-car.gpx", 104, 0, 0),
        ("Mojstrovka.gpx", 184, 0, 0),
    ])
    func countsMatchTheManifest(file: String, fixes: Int, untimed: Int, waypoints: Int) throws {
        let result = try read(file)
        #expect(result.fixes.count == fixes)
        #expect(result.report.fixesProduced == fixes)
        #expect(result.report.skipped(.missingTime) == untimed)
        #expect(result.report.skipped(.gpxWaypoint) == waypoints)
        #expect(result.report.recordsRead == fixes + untimed + waypoints)
        #expect(result.report.errorCount == 0)
        #expect(result.report.totalSkipped == untimed + waypoints)
        #expect(result.fixes.allSatisfy { $0.provider == .gps })
        #expect(result.kinds.allSatisfy { $0 == .trackPoint })
    }

    @Test func koritaSkipsTheUntimedSegmentAndKeepsSegmentIndices() throws {
        let result = try read("korita-zbevnica.gpx")
        // Four <trkseg>: #0 empty, #1 358 points without <time>, #2 176 points, #3 337 points.
        #expect(result.segments.filter { $0 == 2 }.count == 176)
        #expect(result.segments.filter { $0 == 3 }.count == 337)
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 45.452595614)
        #expect(first.longitude == 14.018194014)
        #expect(first.altitudeMetres == 753.330322)
        #expect(first.timestamp == utc("2010-10-03T09:36:30Z"))
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 45.452453708)
        #expect(last.longitude == 14.018215053)
        #expect(last.altitudeMetres == 770.634033)
        #expect(last.timestamp == utc("2010-10-03T13:19:31Z"))
        #expect(result.fixes.allSatisfy { $0.speedMetresPerSecond == nil && $0.horizontalAccuracy == .absent })
    }

    @Test func edge800FirstLastAndEightSegments() throws {
        let result = try read("garmin-edge-800-output.gpx")
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 48.189526470)
        #expect(first.longitude == 11.858895309)
        #expect(first.altitudeMetres == 512.8)
        #expect(first.timestamp == utc("2012-04-12T12:53:58Z"))
        #expect(first.speedMetresPerSecond == 6.823)
        #expect(first.horizontalAccuracy == .absent)
        #expect(first.satellitesUsed == nil)
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 48.186895391)
        #expect(last.longitude == 11.858545868)
        #expect(last.altitudeMetres == 529)
        #expect(last.timestamp == utc("2012-04-12T13:54:19Z"))
        #expect(last.speedMetresPerSecond == 0)
        var sizes: [Int] = []
        var previous: Int?? = .none
        for segment in result.segments {
            if previous != .some(segment) { sizes.append(0) }
            sizes[sizes.count - 1] += 1
            previous = segment
        }
        #expect(sizes == [47, 438, 13, 196, 4, 32, 3, 553])
        #expect(result.segments.first == 0)
        #expect(result.segments.last == 7)
        #expect(first.timestamp.seconds(to: last.timestamp) == 3621)
    }

    @Test func wahooSegmentsAndAMissingElevation() throws {
        let result = try read("wahoo-element-bolt.gpx")
        #expect((0..<4).map { s in result.segments.filter { $0 == s }.count } == [315, 6, 775, 5])
        let first = try #require(result.fixes.first)
        #expect(first.altitudeMetres == nil)
        #expect(first.latitude == 51.695178347)
        #expect(first.longitude == 8.707621666)
        #expect(first.speedMetresPerSecond == 0)
        #expect(result.fixes[1].altitudeMetres == 118.2)
        let last = try #require(result.fixes.last)
        #expect(last.timestamp == utc("2018-03-20T07:27:30Z"))
        #expect(last.altitudeMetres == 168)
        #expect(first.timestamp.seconds(to: last.timestamp) == 1126)
    }

    @Test func oregonFirstAndLast() throws {
        let result = try read("garmin-oregon-700-output.gpx")
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 59.938334534)
        #expect(first.longitude == 10.686133699)
        #expect(first.altitudeMetres == 76.2)
        #expect(first.timestamp == utc("2018-09-19T08:52:13Z"))
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 59.938297234)
        #expect(last.longitude == 10.686079888)
        #expect(last.altitudeMetres == 65)
        #expect(last.timestamp == utc("2018-09-19T10:32:56Z"))
        #expect(first.timestamp.seconds(to: last.timestamp) == 6043)
    }

    @Test func mtkLoggerGPX10SpeedHDOPSatellitesAndFix() throws {
        let result = try read("mtk_logger_m241.gpx")
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 41.805591583)
        #expect(first.longitude == 12.679831505)
        #expect(first.altitudeMetres == 374.813)
        #expect(first.timestamp == utc("2008-05-04T12:52:47Z"))
        #expect(first.speedMetresPerSecond == 0.240410)
        #expect(first.satellitesUsed == 11)
        // Default HDOP interpretation: accuracy = HDOP × 5 m, vertical accuracy = VDOP × 5 m.
        #expect(first.horizontalAccuracyMetres == 0.85 * 5)
        #expect(first.verticalAccuracyMetres == 0.74 * 5)
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 41.805969238)
        #expect(last.longitude == 12.679401398)
        #expect(last.altitudeMetres == 384.406)
        #expect(last.timestamp == utc("2008-05-04T13:22:35Z"))
        #expect(last.speedMetresPerSecond == 5.111051)
        #expect(last.satellitesUsed == 9)
        #expect(last.horizontalAccuracyMetres == 1.12 * 5)
        // 78 non-increasing time steps (duplicated timestamps), per the MANIFEST.
        let steps = zip(result.fixes, result.fixes.dropFirst()).filter { $1.timestamp <= $0.timestamp }.count
        #expect(steps == 78)
        #expect(result.fixes.allSatisfy { $0.horizontalAccuracyMetres != nil && $0.satellitesUsed != nil })
        #expect(first.timestamp.seconds(to: last.timestamp) == 1788)
    }

    @Test func mtkWithHDOPIgnoredAndWaypointsIncluded() throws {
        let ignored = try read("mtk_logger_m241.gpx", options: ReadOptions(hdop: .ignored))
        #expect(ignored.fixes.allSatisfy { $0.horizontalAccuracy == .absent && $0.verticalAccuracyMetres == nil })
        let scaled = try read("mtk_logger_m241.gpx", options: ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10)))
        #expect(scaled.fixes.first?.horizontalAccuracyMetres == 0.85 * 10)
        #expect(scaled.fixes.first?.verticalAccuracyMetres == nil)

        let all = try read("mtk_logger_m241.gpx", pointKinds: .all)
        #expect(all.fixes.count == 1199 + 7)
        #expect(all.kinds.prefix(7).allSatisfy { $0 == .waypoint })
        #expect(all.segments.prefix(7).allSatisfy { $0 == nil })
        #expect(all.kinds[7] == .trackPoint)
        #expect(all.segments[7] == 0)
        // WP000002: 41.799690247, 12.703538895, 615.656 m, 2008-05-04T13:01:06Z, 10 satellites, HDOP 0.9.
        let second = all.fixes[1]
        #expect(second.latitude == 41.799690247)
        #expect(second.longitude == 12.703538895)
        #expect(second.altitudeMetres == 615.656)
        #expect(second.timestamp == utc("2008-05-04T13:01:06Z"))
        #expect(second.satellitesUsed == 10)
        #expect(second.horizontalAccuracyMetres == 0.9 * 5)
        let waypointsOnly = try read("mtk_logger_m241.gpx", pointKinds: .waypoints)
        #expect(waypointsOnly.fixes.count == 7)
        #expect(waypointsOnly.report.skipped(.otherRecord) == 1199)
    }

    @Test func columbusCourseAndSpeed() throws {
        let result = try read("24173415.gpx")
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 49.073333600)
        #expect(first.longitude == -125.764855100)
        #expect(first.altitudeMetres == 38)
        #expect(first.timestamp == utc("2025-07-25T00:34:18Z"))
        #expect(first.courseDegrees == 0)
        #expect(first.speedMetresPerSecond == 0.055556)
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 49.073399800)
        #expect(last.longitude == -125.764665800)
        #expect(last.courseDegrees == 64)
        #expect(last.speedMetresPerSecond == 0)
        #expect(last.timestamp == utc("2025-07-25T00:45:41Z"))
        let steps = zip(result.fixes, result.fixes.dropFirst()).filter { $1.timestamp <= $0.timestamp }.count
        #expect(steps == 5)
        #expect(result.fixes.allSatisfy { $0.courseDegrees != nil && $0.speedMetresPerSecond != nil })
    }

    @Test func mojstrovkaHasOneBrokenTimestampForEveryPoint() throws {
        let result = try read("Mojstrovka.gpx")
        #expect(result.fixes.count == 184)
        // 183 points say 1901-12-13T20:45:52.2073437Z and one 1901-12-13T20:45:52.207Z: with millisecond
        // precision all are the same instant, 2^31 s before the epoch plus 0.207 s (a 32-bit time underflow).
        let broken = Timestamp(millisecondsSince1970: -2_147_483_648_000 + 207)
        #expect(utc("1901-12-13T20:45:52.207Z") == broken)
        #expect(result.fixes.allSatisfy { $0.timestamp == broken })
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 46.434981)
        #expect(first.longitude == 13.748273)
        #expect(first.altitudeMetres == 1614.678)
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 46.435231)
        #expect(last.longitude == 13.748253)
        #expect(last.altitudeMetres == 1643.51208)
    }

    @Test func visnjanIsOneLongLine() throws {
        let result = try read("around-visnjan-with-car.gpx")
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 45.2735188510)
        #expect(first.longitude == 13.7142099626)
        #expect(first.altitudeMetres == 211.15)
        #expect(first.timestamp == utc("2020-12-18T06:15:50Z"))
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 45.2733349521)
        #expect(last.longitude == 13.7139970623)
        #expect(last.altitudeMetres == 210.67)
        #expect(last.timestamp == utc("2020-12-18T06:24:24Z"))
        #expect(result.segments.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [
        "garmin-edge-800-output.gpx", "mtk_logger_m241.gpx", "korita-zbevnica.gpx",
        "around-visnjan-with-car.gpx",
    ])
    func tinyChunksGiveTheSameFixes(file: String) throws {
        let whole = try read(file, pointKinds: .all)
        let chunked = try read(file, pointKinds: .all, chunkBytes: 64)
        #expect(chunked.fixes == whole.fixes)
        #expect(chunked.segments == whole.segments)
        #expect(chunked.report == whole.report)
    }

    @Test func aDamagedLatitudeInARealFileIsReportedWithLineAndColumn() throws {
        let path = Datasets.path("gpx-devices/garmin-oregon-700-output.gpx")
        var bytes = try #require(readBytes(path))
        // Point 3 is at line 17: `      <trkpt lat="59.938335456" lon="10.686121462">`; damage its latitude.
        let target = Array("lat=\"59.938335456\"".utf8)
        let at = try #require(find(target, in: bytes))
        bytes[at + 7] = UInt8(ascii: "x")
        for chunk in [ByteStream.defaultChunkBytes, 50] {
            let path = "/tmp/truetrack-gpx-test-\(getpid())-\(chunk).gpx"
            try #require(writeBytes(bytes, to: path))
            defer { unlink(path) }
            var reader = GPXReader(stream: try ByteStream(path: path, chunkBytes: chunk))
            #expect(try reader.next() != nil)
            #expect(try reader.next() != nil)
            do {
                _ = try reader.next()
                Issue.record("expected an error")
            } catch {
                guard case .malformedField(let location, let field, _, let found) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(location.line == 17)
                #expect(location.column == 19)
                #expect(location.byteOffset == at + 5)
                #expect(field == "lat")
                #expect(found == "59x938335456")
            }
            // The caller may go on after the error: the rest of the file reads normally.
            var rest = 0
            while try reader.next() != nil { rest += 1 }
            #expect(rest == 997 - 3)
        }
    }

    @Test func aDamagedLatitudeOnTheSingleLineFileHasAColumn() throws {
        let path = Datasets.path("gpx-devices/around-visnjan-with-car.gpx")
        var bytes = try #require(readBytes(path))
        let target = Array("lat=\"45.2734133229\"".utf8)
        let at = try #require(find(target, in: bytes))
        bytes[at + 5] = UInt8(ascii: "9")  // 95.27…: out of range
        let result = readGPXBytes(bytes)
        #expect(result.fixes.count == 1)
        guard case .invalidFix(let location, .latitudeOutOfRange(let value), let field) = result.error else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(value == 95.2734133229)
        // Named as the file names it, as a value that is no number is (it said 'latitude' here, 'lat' there).
        #expect(field == "lat" && result.error?.description.contains("field 'lat': latitude 95.2734133229") == true)
        #expect(location.line == 1)
        #expect(location.column == at + 6)
        #expect(location.byteOffset == at + 5)
    }
}

/// Reads a document held in bytes.
func readGPXBytes(_ bytes: [UInt8], options: ReadOptions = ReadOptions(), pointKinds: GPXPointKinds = .paths)
    -> ReadResult
{
    var reader = GPXReader(stream: ByteStream(bytes: bytes), options: options, pointKinds: pointKinds)
    return reader.readAll()
}

/// The index of the first occurrence of `needle` in `haystack`.
func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
        if Array(haystack[i..<(i + needle.count)]) == needle { return i }
    }
    return nil
}

/// The bytes of a file, through a ByteStream (no Foundation needed).
func readBytes(_ path: String) -> [UInt8]? {
    guard let stream = try? ByteStream(path: path) else { return nil }
    var bytes: [UInt8] = []
    while (try? stream.refill()) == true {}
    bytes.append(contentsOf: stream.window[stream.start..<stream.end])
    return bytes
}

/// Writes bytes to a file through a ByteSink.
func writeBytes(_ bytes: [UInt8], to path: String) -> Bool {
    guard let sink = try? ByteSink(path: path) else { return false }
    sink.buffer = bytes
    return (try? sink.close()) != nil
}

@Suite struct GPXReaderTests {
    @Test func garminTrackPointExtensionSpeedAndCourseWithAnyPrefix() throws {
        let text = gpx11(
            """
            <trkpt lat="45.5" lon="13.25"><ele>12.5</ele><time>2020-01-02T03:04:05Z</time>
              <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:speed>4.25</gpxtpx:speed>
              <gpxtpx:course>271.5</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="45.6" lon="13.26"><time>2020-01-02T03:04:06Z</time>
              <extensions><ns3:TrackPointExtension><ns3:speed>5</ns3:speed><ns3:course>361</ns3:course></ns3:TrackPointExtension></extensions></trkpt>
            """,
            // (Garmin Connect binds its `ns3` on the root, to v1 or v2.)
            namespaces: " xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\""
                + " xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"")
        let result = readGPX(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.fixes[0].speedMetresPerSecond == 4.25)
        #expect(result.fixes[0].courseDegrees == 271.5)
        #expect(result.fixes[0].altitudeMetres == 12.5)
        #expect(result.fixes[0].timestamp == utc("2020-01-02T03:04:05Z"))
        #expect(result.fixes[1].speedMetresPerSecond == 5)
        #expect(result.fixes[1].courseDegrees == 1)  // 361° wraps to 1°
    }

    /// A `speed` or `course` of another namespace is another quantity: a formats tester's weather extension
    /// (`<m:wind><m:speed>20</m:speed><m:course>270</m:course></m:wind>`, `urn:weather`) was read as a fix moving at
    /// 20 m/s towards the west, and a tool's own `<m:speed>77</m:speed>` beside it as 77 m/s.
    @Test func aSpeedOrCourseOfAnotherNamespaceOrInsideAnUnknownElementIsNotTheFixs() throws {
        let points = [
            // The tester's two files.
            "<extensions><m:wind><m:speed>20</m:speed><m:course>270</m:course></m:wind></extensions>",
            "<extensions><m:time>1999-01-01T00:00:00Z</m:time><m:ele>999</m:ele><m:speed>77</m:speed></extensions>",
            // GPX's own names inside an element the reader does not know.
            "<extensions><wind><speed>20</speed><course>270</course></wind></extensions>",
            "<extensions><m:wind><gpxtpx:speed>20</gpxtpx:speed></m:wind></extensions>",
            "<extensions><gpxtpx:TrackPointExtension><m:wind><gpxtpx:speed>20</gpxtpx:speed></m:wind>"
                + "</gpxtpx:TrackPointExtension></extensions>",
            // An element of its own namespace.
            "<extensions><speed xmlns=\"urn:weather\">20</speed><course xmlns=\"urn:weather\">270</course></extensions>",
            "<m:speed>20</m:speed><m:course>270</m:course>",
            // Garmin's own element moved into another namespace by a default of its own.
            "<extensions><TrackPointExtension xmlns=\"urn:weather\"><speed>20</speed></TrackPointExtension></extensions>",
            // TrueTrack's own, inside another's element.
            "<extensions><m:wind><tt:speed_mps>20</tt:speed_mps><tt:course_deg>270</tt:course_deg></m:wind></extensions>",
        ]
        for point in points {
            let result = readGPX(
                gpx11(
                    "<trkpt lat=\"52.5\" lon=\"13.4\"><ele>5</ele><time>2024-05-01T10:00:00Z</time>\(point)</trkpt>",
                    namespaces: " xmlns:m=\"urn:weather\" xmlns:tt=\"https://truetrack.dev/xmlns/1\""
                        + " xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\""))
            let fix = try #require(result.fixes.first, "\(point): \(String(describing: result.error))")
            #expect(fix.speedMetresPerSecond == nil && fix.courseDegrees == nil, "\(point)")
            #expect(fix.altitudeMetres == 5 && fix.timestamp == utc("2024-05-01T10:00:00Z"), "\(point)")
        }
    }

    /// Exporters that leave their extension's namespace undeclared (`<gpxtpx:speed>` without `xmlns:gpxtpx`, an
    /// unprefixed `<TrackPointExtension>` in GPX's default), ClueTrust's `gpxdata:speed` (Waterspeed) and myTracks'
    /// `mytracks:speed` are read, as before namespaces were told apart (a reviewer's and a regression hunt's: their
    /// speed went to 0 % without a word).
    @Test func undeclaredPrefixesAndClueTrustsSpeedAreRead() throws {
        let cases: [(namespaces: String, point: String)] = [
            (
                "",
                "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>4.5</gpxtpx:speed></gpxtpx:TrackPointExtension></extensions>"
            ),
            ("", "<extensions><TrackPointExtension><speed>4.5</speed></TrackPointExtension></extensions>"),
            ("", "<extensions><w:speed>4.5</w:speed></extensions>"),
            (
                " xmlns:gpxdata=\"http://www.cluetrust.com/XML/GPXDATA/1/0\"",
                "<extensions><gpxdata:speed>4.5</gpxdata:speed></extensions>"
            ),
            (
                " xmlns:mytracks=\"http://mytracks.stichling.info/myTracksGPX/1/0\"",
                "<extensions><mytracks:speed>4.5</mytracks:speed><mytracks:length>10</mytracks:length></extensions>"
            ),
        ]
        for (namespaces, point) in cases {
            #expect(try Self.onePoint(point, namespaces: namespaces).speedMetresPerSecond == 4.5, "\(point)")
        }
    }

    /// `hAcc` and `vAcc` are read where Apple Health's route export writes them (unprefixed in `<extensions>`; also in
    /// a `<TrackPointExtension>` there, or under a prefix never declared); at the point's own level, in another
    /// declared namespace or inside an element the reader does not know they are another's, not read and counted
    /// (``GPXReader/unreadAccuracyElements``). They were read at any depth in any namespace: a weather extension's
    /// `<m:hAcc>` became the fix's accuracy, as its `<m:speed>` had become the fix's speed.
    @Test func accuraciesAreReadWhereAppleHealthWritesThemAndCountedElsewhere() throws {
        func read(_ point: String) throws -> (fix: Fix, unread: Int) {
            let text = gpx11(
                "<trkpt lat=\"52.5\" lon=\"13.4\"><time>2024-05-01T10:00:00Z</time>\(point)</trkpt>",
                namespaces: " xmlns:m=\"urn:weather\""
                    + " xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\"")
            var reader = GPXReader(stream: ByteStream(bytes: Array(text.utf8)))
            let fix = try #require(try reader.next(), "\(point)")
            return (fix, reader.unreadAccuracyElements)
        }
        for point in [
            "<extensions><hAcc>3.5</hAcc><vAcc>3.1</vAcc></extensions>",
            "<extensions><gpxtpx:TrackPointExtension><hAcc>3.5</hAcc><vAcc>3.1</vAcc></gpxtpx:TrackPointExtension>"
                + "</extensions>",
            "<extensions><a:hAcc>3.5</a:hAcc><a:vAcc>3.1</a:vAcc></extensions>",
        ] {
            let (fix, unread) = try read(point)
            #expect(fix.horizontalAccuracyMetres == 3.5 && fix.verticalAccuracyMetres == 3.1, "\(point)")
            #expect(unread == 0, "\(point)")
        }
        for (point, count) in [
            ("<extensions><m:hAcc>50</m:hAcc><m:vAcc>60</m:vAcc></extensions>", 2),
            ("<extensions><m:wind><hAcc>50</hAcc></m:wind></extensions>", 1),
            ("<extensions><hAcc xmlns=\"urn:weather\">50</hAcc></extensions>", 1),
            ("<hAcc>50</hAcc><vAcc>60</vAcc>", 2),
        ] {
            let (fix, unread) = try read(point)
            #expect(fix.horizontalAccuracy == .absent && fix.verticalAccuracyMetres == nil, "\(point)")
            #expect(unread == count, "\(point)")
        }
    }

    /// An altitude, speed or course that is no finite number (`NaN`, `inf`, `1e400`) is read as missing and counted with
    /// the fields read as missing, strict or lenient, the point kept; a TCX `AltitudeMeters` too. They were dropped
    /// without a word.
    @Test func nonFiniteMeasurementsAreReadAsMissingAndCounted() throws {
        let gpx = gpx11(
            "<trkpt lat=\"52.5\" lon=\"13.4\"><ele>NaN</ele><time>2024-05-01T10:00:00Z</time>"
                + "<speed> inf </speed><course>1e400</course></trkpt>"
                + "<trkpt lat=\"52.5\" lon=\"13.4\"><ele>5</ele><time>2024-05-01T10:00:01Z</time></trkpt>")
        let tcx = TCXReaderTests.activity.replacingOccurrences(of: "520.4", with: "-inf")
        for lenient in [false, true] {
            let result = readGPX(gpx, options: ReadOptions(lenient: lenient))
            #expect(result.error == nil && result.fixes.map(\.altitudeMetres) == [nil, 5])
            #expect(result.fixes.first?.speedMetresPerSecond == nil && result.fixes.first?.courseDegrees == nil)
            #expect(result.report.unreadableFieldCount == 3 && result.report.errorCount == 0)
            let fields = result.report.unreadableFields.map { error -> String in
                guard case .malformedField(let at, let field, let expected, _) = error else { return "\(error)" }
                return "\(at.line) \(field)" + (expected == ReadReport.nonFiniteExpectation ? "" : " \(expected)")
            }
            #expect(fields == ["4 ele", "4 speed", "4 course"], "\(fields)")
            let activity = readGPX(tcx, options: ReadOptions(lenient: lenient))
            #expect(activity.error == nil && activity.fixes.first?.altitudeMetres == nil)
            #expect(activity.report.unreadableFieldCount == 1)
        }
    }

    /// The fix of a GPX 1.1 file with one point holding `point` after its time, the root declaring `namespaces`.
    static func onePoint(_ point: String, namespaces: String) throws -> Fix {
        let result = readGPX(
            gpx11(
                "<trkpt lat=\"52.5\" lon=\"13.4\"><time>2024-05-01T10:00:00Z</time>\(point)</trkpt>",
                namespaces: namespaces))
        return try #require(result.fixes.first, "\(point): \(String(describing: result.error))")
    }

    /// The namespaces that define a speed and a course are read under any prefix, bound on the root or inside the
    /// point, or as a default namespace: Garmin's TrackPointExtension (v1, v2, and the schema address OsmAnd 5 writes
    /// as its URI), OsmAnd's `osmand:speed`, GPX's own (also under a prefix of its own).
    @Test func speedAndCourseAreReadInTheNamespacesThatDefineThem() throws {
        let cases: [(namespaces: String, point: String)] = [
            (
                "",
                "<extensions><TrackPointExtension xmlns=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\">"
                    + "<speed>4.5</speed><course>10</course></TrackPointExtension></extensions>"
            ),
            (
                "",
                "<extensions><g:TrackPointExtension xmlns:g=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\">"
                    + "<g:speed>4.5</g:speed><g:course>10</g:course></g:TrackPointExtension></extensions>"
            ),
            (
                " xmlns:gpxtpx=\"https://www8.garmin.com/xmlschemas/TrackPointExtensionv1.xsd\"",
                "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>4.5</gpxtpx:speed>"
                    + "<gpxtpx:course>10</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>"
            ),
            (
                " xmlns:osmand=\"https://osmand.net\"",
                "<extensions><osmand:speed>4.5</osmand:speed><course>10</course></extensions>"
            ),
            (" xmlns:g=\"http://www.topografix.com/GPX/1/1\"", "<g:speed>4.5</g:speed><g:course>10</g:course>"),
            ("", "<extensions><speed>4.5</speed><course>10</course></extensions>"),
        ]
        for (namespaces, point) in cases {
            let fix = try Self.onePoint(point, namespaces: namespaces)
            #expect(fix.speedMetresPerSecond == 4.5 && fix.courseDegrees == 10, "\(namespaces) \(point)")
        }
        // A prefix bound again to another namespace is no longer Garmin's.
        let rebound = readGPX(
            gpx11(
                "<trkpt lat=\"52.5\" lon=\"13.4\"><time>2024-05-01T10:00:00Z</time><extensions>"
                    + "<g:TrackPointExtension xmlns:g=\"urn:weather\"><g:speed>20</g:speed></g:TrackPointExtension>"
                    + "</extensions></trkpt>",
                namespaces: " xmlns:g=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\""))
        #expect(rebound.fixes.first.map { $0.speedMetresPerSecond == nil } == true)
    }

    @Test func gpx10SpeedCourseHDOPSatellitesAndFixNone() throws {
        let text = """
            <?xml version="1.0"?>
            <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>
            <trkpt lat="10" lon="20"><time>2008-05-04T12:52:47.5Z</time><course>90</course><speed>2.5</speed>
              <fix>3d</fix><sat>7</sat><hdop>2</hdop><vdop>3</vdop><pdop>4</pdop></trkpt>
            <trkpt lat="10.1" lon="20"><time>2008-05-04T12:52:48Z</time><fix>none</fix><sat>0</sat></trkpt>
            <trkpt lat="10.2" lon="20"><time>2008-05-04T12:52:49Z</time><fix>dgps</fix></trkpt>
            </trkseg></trk></gpx>
            """
        let result = readGPX(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.report.skipped(.noFix) == 1)
        let fix = try #require(result.fixes.first)
        #expect(
            fix.timestamp == Timestamp(millisecondsSince1970: utc("2008-05-04T12:52:47Z").millisecondsSince1970 + 500))
        #expect(fix.courseDegrees == 90)
        #expect(fix.speedMetresPerSecond == 2.5)
        #expect(fix.satellitesUsed == 7)
        #expect(fix.horizontalAccuracyMetres == 10)
        #expect(fix.verticalAccuracyMetres == 15)
        #expect(result.fixes[1].latitude == 10.2)
    }

    @Test func pointsWithoutTimeAreSkipped() throws {
        let result = readGPX(
            gpx11(
                """
                <trkpt lat="1" lon="2"><ele>5</ele></trkpt>
                <trkpt lat="1" lon="2"/>
                <trkpt lat="1" lon="2"><time></time></trkpt>
                <trkpt lat="1" lon="2"><time>2001-01-01T00:00:00Z</time></trkpt>
                """))
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
        #expect(result.report.skipped(.missingTime) == 3)
        #expect(result.report.recordsRead == 4)
    }

    @Test func attributesInAnyOrderAndQuoteStyleCommentsCDATAAndEntities() throws {
        let text = gpx11(
            """
            <!-- a comment with <trkpt lat="0" lon="0"> inside -->
            <trkpt  lon = '13.5'
               foo="a>b" lat="&#52;5.25" ><?pi stuff?>
              <ele><![CDATA[ 101.5 ]]></ele>
              <time>2019-&#x30;6-01T10:00:00<!-- c -->Z</time>
              <name>A &amp; B &lt;3</name>
              <desc><![CDATA[<b>bold</b>]]></desc>
            </trkpt>
            <trkpt lat="45.26" lon="13.51"><time>2019-06-01T10:00:01Z</time></trkpt>
            """)
        let result = readGPX(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        let fix = try #require(result.fixes.first)
        #expect(fix.latitude == 45.25)
        #expect(fix.longitude == 13.5)
        #expect(fix.altitudeMetres == 101.5)
        #expect(fix.timestamp == utc("2019-06-01T10:00:00Z"))
    }

    @Test func routesAndTracksGetTheirOwnSegmentIndices() throws {
        let text = """
            <gpx version="1.1" creator="x">
            <wpt lat="1" lon="1"><time>2000-01-01T00:00:00Z</time></wpt>
            <rte><rtept lat="2" lon="2"><time>2000-01-01T00:00:01Z</time></rtept></rte>
            <trk><trkseg><trkpt lat="3" lon="3"><time>2000-01-01T00:00:02Z</time></trkpt></trkseg>
                 <trkseg/>
                 <trkseg><trkpt lat="4" lon="4"><time>2000-01-01T00:00:03Z</time></trkpt></trkseg></trk>
            <trk><trkseg><trkpt lat="5" lon="5"><time>2000-01-01T00:00:04Z</time></trkpt></trkseg></trk>
            </gpx>
            """
        var reader = GPXReader(stream: ByteStream(bytes: Array(text.utf8)), pointKinds: .all)
        var seen: [(Double, GPXPointKind?, Int?, Int?)] = []
        while let fix = try reader.next() {
            seen.append((fix.latitude, reader.lastPointKind, reader.lastSegmentIndex, reader.lastTrackIndex))
        }
        #expect(seen.map(\.0) == [1, 2, 3, 4, 5])
        #expect(seen.map(\.1) == [.waypoint, .routePoint, .trackPoint, .trackPoint, .trackPoint])
        #expect(seen.map(\.2) == [nil, 0, 1, 3, 4])
        #expect(seen.map(\.3) == [nil, nil, 0, 0, 1])
        // Default kinds: the waypoint is passed over.
        let paths = readGPX(text)
        #expect(paths.fixes.map(\.latitude) == [2, 3, 4, 5])
        #expect(paths.report.skipped(.gpxWaypoint) == 1)
        #expect(paths.report.unusableRecords == 0)  // left out by choice, not a problem
        // The read options choose too (they were ignored by the reader's own default).
        var options = ReadOptions()
        options.gpxPointKinds = .all
        #expect(readGPX(text, options: options, pointKinds: nil).fixes.count == 5)
    }

    @Test func aBadLatitudeIsAnErrorWithLineAndColumn() throws {
        let text =
            "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:00Z</time></trkpt>\n"
            + "  <trkpt lon=\"2\" lat=\"4x\"><time>2000-01-01T00:00:01Z</time></trkpt>\n"
            + "<trkpt lat=\"3\" lon=\"2\"><time>2000-01-01T00:00:02Z</time></trkpt>\n</trkseg></trk></gpx>"
        let strict = readGPX(text)
        #expect(strict.fixes.count == 1)
        guard case .malformedField(let location, "lat", _, "4x") = strict.error else {
            Issue.record("unexpected \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 4)
        #expect(location.column == 23)
        #expect(location.file == "<memory>")
        let lenient = readGPX(text, options: ReadOptions(lenient: true))
        #expect(lenient.error == nil)
        #expect(lenient.fixes.map(\.latitude) == [1, 3])
        #expect(lenient.report.errorCount == 1)
        #expect(lenient.report.skipped(.malformed) == 1)
    }

    @Test func whenBothCoordinatesAreBadTheFirstInTheTextIsReported() throws {
        let result = readGPX("<gpx><trkpt lon=\"x\" lat=\"y\"><time>2000-01-01T00:00:00Z</time></trkpt></gpx>")
        guard case .malformedField(let location, "lon", _, "x") = result.error else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(location.column == 18)
    }

    @Test func anOutOfRangeLongitudeIsAnInvalidFix() throws {
        let result = readGPX(
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"180.5\"><time>2000-01-01T00:00:00Z</time></trkpt>")
        guard case .invalidFix(let location, .longitudeOutOfRange(180.5), _) = result.error else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(location.line == 1)
        #expect(location.column == 39)
    }

    @Test func otherMalformedValuesNameTheirField() throws {
        let cases: [(String, String)] = [
            ("<time>2000-13-01T00:00:00Z</time>", "time"),
            ("<time>2000-01-01T00:00:00Z</time><ele>1,5</ele>", "ele"),
            ("<time>2000-01-01T00:00:00Z</time><sat>7.5</sat>", "sat"),
            ("<time>2000-01-01T00:00:00Z</time><speed>fast</speed>", "speed"),
            ("<time>2000-01-01T00:00:00Z</time><hdop>&bogus;</hdop>", "hdop"),
        ]
        for (body, field) in cases {
            let result = readGPX(gpx11("<trkpt lat=\"1\" lon=\"2\">\(body)</trkpt>"))
            guard case .malformedField(let location, let name, _, _) = result.error else {
                Issue.record("\(body): unexpected \(String(describing: result.error))")
                continue
            }
            #expect(name == field)
            #expect(location.line == 4)
        }
    }

    @Test func structuralErrors() throws {
        let missingLat = readGPX(gpx11("<trkpt lon=\"2\"><time>2000-01-01T00:00:00Z</time></trkpt>"))
        guard case .malformedRecord(let l1, _, _) = missingLat.error else {
            Issue.record("unexpected \(String(describing: missingLat.error))")
            return
        }
        #expect(l1.line == 4 && l1.column == 1)
        let mismatched = readGPX(gpx11("<trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:00Z</ele></trkpt>"))
        guard case .malformedRecord(let l2, "</time>", "</ele>") = mismatched.error else {
            Issue.record("unexpected \(String(describing: mismatched.error))")
            return
        }
        #expect(l2.column == 50)
        let notGPX = readGPX("<?xml version=\"1.0\"?><kml><Placemark/></kml>")
        guard case .unreadableStructure(let l3, _, _) = notGPX.error else {
            Issue.record("unexpected \(String(describing: notGPX.error))")
            return
        }
        #expect(l3.column == 22)
        // Not GPX stops reading even when lenient.
        let lenientNotGPX = readGPX("<kml><gpx></gpx></kml>", options: ReadOptions(lenient: true))
        #expect(lenientNotGPX.error != nil)
    }

    @Test func truncatedAndEmptyInputs() throws {
        let full = gpx11(
            "<trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:00Z</time></trkpt><trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:01Z</time></trkpt>"
        )
        let cut = String(full.prefix(full.count - 60))  // inside the second point
        let result = readGPX(cut)
        #expect(result.fixes.count == 1)
        guard case .truncated(let location, let expected) = result.error else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(location.line == 4)
        #expect(expected.contains("<trkpt>"))
        let noEnd = readGPX(String(full.prefix(full.count - 7)))
        #expect(noEnd.fixes.count == 2)
        guard case .truncated(_, let expected2) = noEnd.error else {
            Issue.record("unexpected \(String(describing: noEnd.error))")
            return
        }
        #expect(expected2.contains("</gpx>"))
        let empty = readGPX("")
        guard case .truncated(let location3, _) = empty.error else {
            Issue.record("unexpected \(String(describing: empty.error))")
            return
        }
        #expect(location3.line == 1 && location3.column == 1)
        #expect(readGPX("   \n ").error != nil)
        #expect(readGPX("<gpx/>").error == nil)
        #expect(readGPX("<gpx></gpx> \n<!-- after --><?pi?>\n").error == nil)
    }

    @Test func trueTrackExtensionUnderAnyPrefixButOnlyThatNamespace() throws {
        let point = """
            <trkpt lat="1" lon="2"><time>2000-01-01T00:00:00Z</time><hdop>1</hdop><speed>9</speed><extensions>
            <x:accuracy_m>3.5</x:accuracy_m><x:vertical_accuracy_m>4.5</x:vertical_accuracy_m>
            <x:speed_mps>1.25</x:speed_mps><x:speed_accuracy_mps>0.5</x:speed_accuracy_mps>
            <x:course_deg>180</x:course_deg><x:course_accuracy_deg>10</x:course_accuracy_deg>
            <x:provider>fused</x:provider><x:mocked>true</x:mocked>
            <x:activity>onBicycle</x:activity><x:activity_confidence>80</x:activity_confidence></extensions></trkpt>
            """
        let bound = readGPX(gpx11(point, namespaces: " xmlns:x=\"https://truetrack.dev/xmlns/1\""))
        let fix = try #require(bound.fixes.first)
        #expect(fix.horizontalAccuracyMetres == 3.5)
        #expect(fix.verticalAccuracyMetres == 4.5)
        #expect(fix.speedMetresPerSecond == 1.25)
        #expect(fix.speedAccuracyMetresPerSecond == 0.5)
        #expect(fix.courseDegrees == 180)
        #expect(fix.courseAccuracyDegrees == 10)
        #expect(fix.provider == .fused)
        #expect(fix.isMocked == true)
        #expect(fix.activity == ActivityReading(kind: .onBicycle, confidence: 80))
        let other = readGPX(gpx11(point, namespaces: " xmlns:x=\"https://example.com/other\""))
        let plain = try #require(other.fixes.first)
        #expect(plain.horizontalAccuracyMetres == 5)
        #expect(plain.speedMetresPerSecond == 9)
        #expect(plain.provider == .gps)
        #expect(plain.isMocked == nil)
        #expect(plain.activity == nil)
        let filtered = readGPX(
            gpx11(point, namespaces: " xmlns:x=\"https://truetrack.dev/xmlns/1\""),
            options: ReadOptions(providers: [.gps]))
        #expect(filtered.fixes.isEmpty)
        #expect(filtered.report.skipped(.providerFiltered) == 1)
        let badProvider = readGPX(
            gpx11(
                "<trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:00Z</time><extensions><tt:provider>GPS!</tt:provider></extensions></trkpt>",
                namespaces: " xmlns:tt=\"https://truetrack.dev/xmlns/1\""))
        guard case .malformedField(_, "provider", _, "GPS!") = badProvider.error else {
            Issue.record("unexpected \(String(describing: badProvider.error))")
            return
        }
    }

    @Test func anInvalidAccuracyReadsAsInvalid() throws {
        let result = readGPX(
            gpx11(
                "<trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:00Z</time><extensions><tt:accuracy_m>0</tt:accuracy_m></extensions></trkpt>",
                namespaces: " xmlns:tt=\"https://truetrack.dev/xmlns/1\""))
        #expect(result.fixes.first?.horizontalAccuracy == .invalid)
    }

    @Test func everyOffsetOfAChunkBoundaryReadsTheSame() throws {
        let text = gpx11(
            """
            <!-- lead --><trkpt lat='1.5' lon="2.5"><ele><![CDATA[7]]></ele><time>2000-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1.6" lon="2.6"><time>2000-01-01T00:00:01&#x5A;</time><extensions><a:speed>3</a:speed></extensions></trkpt>
            """)
        let expected = readGPX(text)
        #expect(expected.fixes.count == 2)
        let path = "/tmp/truetrack-gpx-chunks-\(getpid()).gpx"
        try #require(writeBytes(Array(text.utf8), to: path))
        defer { unlink(path) }
        for chunk in [64, 65, 67, 71, 80, 97, 128] {
            var reader = GPXReader(stream: try ByteStream(path: path, chunkBytes: chunk))
            let result = reader.readAll()
            #expect(result.error == nil)
            #expect(result.fixes == expected.fixes)
        }
    }

    // MARK: Well-formedness (a fuzz tester's files: each was read, silently losing or corrupting fixes)

    /// The `.malformedRecord` parts of `error`, or `nil`.
    private func record(_ error: ReadError?) -> (location: TrueTrackIO.SourceLocation, expected: String, found: String)?
    {
        guard case .malformedRecord(let location, let expected, let found) = error else { return nil }
        return (location, expected, found)
    }

    /// The `.unreadableStructure` parts of `error` (an error that ends the reading even when lenient), or `nil`.
    private func structure(_ error: ReadError?) -> (
        location: TrueTrackIO.SourceLocation, expected: String, found: String
    )? {
        guard case .unreadableStructure(let location, let expected, let found) = error else { return nil }
        #expect(error?.endsReadingEvenWhenLenient == true)
        return (location, expected, found)
    }

    private static let point =
        #"<trkpt lat="49.45" lon="11.07"><time>2025-11-29T07:00:00Z</time></trkpt>"#

    @Test("only white space, comments and processing instructions may follow the root element")
    func textAfterTheRootElementIsAnError() throws {
        let document = gpx11(Self.point)
        let fine = readGPX(document + "\n<!-- exported by x -->\n<?x-tool done?>\n\t \n")
        #expect(fine.error == nil)
        #expect(fine.fixes.count == 1)
        for (trailer, found) in [
            ("junk", "junk"), ("<trkpt lat=\"1\" lon=\"2\"/>", "<trkpt"), ("</gpx>", "</gpx>"),
            ("<![CDATA[x]]>", "<![CDATA["),
            ("\0", "\0"),
        ] {
            let result = readGPX(document + "\n \(trailer)")
            let error = try #require(structure(result.error), "\(trailer)")
            #expect(result.fixes.count == 1)
            #expect(error.location.line == 7 && error.location.column == 2)
            #expect(error.location.byteOffset == document.utf8.count + 2)
            #expect(error.expected.contains("after </gpx> closed the document on line 6"))
            #expect(error.found.hasPrefix(found))
            // Nothing after the root can be a record of the document: lenient reading stops there too.
            let lenient = readGPX(document + "\n \(trailer)", options: ReadOptions(lenient: true))
            #expect(lenient.error == result.error)
            #expect(lenient.report.errorCount == 0)
        }
        // An unclosed comment after the root is input that ends early.
        guard case .truncated = readGPX(document + "<!-- cut").error else {
            Issue.record("an unclosed comment after </gpx> was accepted")
            return
        }
    }

    @Test("two joined GPX or TCX documents are an error that says so and suggests splitting them")
    func concatenatedDocumentsAreAnError() throws {
        let first = gpx11(Self.point) + "\n"
        for second in [gpx11(Self.point), "<gpx version=\"1.1\"></gpx>", "<g:gpx xmlns:g=\"x\"/>"] {
            let result = readGPX(first + second, options: ReadOptions(lenient: true))
            #expect(result.fixes.count == 1)
            let error = try #require(structure(result.error))
            #expect(error.location.line == 7 && error.location.column == 1)
            #expect(error.expected.contains("a second document starts here"))
            #expect(error.expected.contains("split the input into one file per document"))
        }
        let tcx = TCXReaderTests.activity + "\n"
        var reader = GPXReader(stream: ByteStream(bytes: Array((tcx + tcx).utf8)))
        let result = reader.readAll()
        #expect(result.fixes.count == 2)
        let error = try #require(structure(result.error))
        #expect(error.expected.contains("after </TrainingCenterDatabase> closed the document"))
        #expect(error.expected.contains("a second document starts here"))
        #expect(error.location.byteOffset == tcx.utf8.count)
    }

    @Test("elements nested past the limit end the reading even when lenient, keeping the fixes before them")
    func nestingPastTheLimitEndsTheReading() throws {
        let deep = String(repeating: "<x>", count: GPXReader.maximumDepth) + String(repeating: "</x>", count: 300)
        let document = gpx11(Self.point).replacingOccurrences(
            of: "</gpx>", with: "<extensions>\(deep)</extensions></gpx>")
        for lenient in [false, true] {
            let result = readGPX(document, options: ReadOptions(lenient: lenient))
            #expect(result.fixes.count == 1)
            let error = try #require(structure(result.error), "lenient: \(lenient)")
            #expect(error.expected == "elements nested at most \(GPXReader.maximumDepth) deep")
            #expect(result.report.errorCount == 0)
        }
    }

    @Test("trailing text and a second document are found across every chunk boundary")
    func afterTheRootAcrossChunkBoundaries() throws {
        let document = gpx11(Self.point) + "<!-- c -->\n"
        let path = "/tmp/truetrack-gpx-trailing-\(getpid()).gpx"
        defer { unlink(path) }
        for (trailer, second) in [
            ("", false), ("<?xml version=\"1.0\"?><gpx/>", true), ("<?xml-stylesheet x?> x", false),
        ] {
            try #require(writeBytes(Array((document + trailer).utf8), to: path))
            for chunk in [64, 65, 67, 71, 80, 97, 128] {
                var reader = GPXReader(stream: try ByteStream(path: path, chunkBytes: chunk))
                let result = reader.readAll()
                #expect(result.fixes.count == 1)
                if trailer.isEmpty {
                    #expect(result.error == nil)
                } else {
                    let error = try #require(structure(result.error), "\(trailer), chunk \(chunk)")
                    #expect(error.expected.contains("a second document starts here") == second)
                }
            }
        }
    }

    @Test("an end tag that does not match its start tag is an error naming both, for any element")
    func mismatchedEndTagsOfEveryElement() throws {
        let tt = " xmlns:tt=\"\(GPXTrueTrackExtension.namespace)\""
        let cases: [(body: String, expected: String, found: String)] = [
            (
                "<extensions><tt:speed_mpz>1.5</tt:speed_mps></extensions>", "</tt:speed_mpz> closing <tt:speed_mpz>",
                "</tt:speed_mps>"
            ),
            ("<extensions><a>1.5</b><tt:accuracy_m>4</tt:accuracy_m></extensions>", "</a> closing <a>", "</b>"),
            ("<extensions><a><b>1</b></extension></a></extensions>", "</a> closing <a>", "</extension>"),
        ]
        for c in cases {
            let body =
                Self.point + "\n<trkpt lat=\"1\" lon=\"2\"><time>2025-11-29T07:00:01Z</time>\(c.body)</trkpt>\n"
                + Self.point
            let result = readGPX(gpx11(body, namespaces: tt))
            #expect(result.fixes.count == 1)
            let error = try #require(record(result.error), "\(c.body)")
            #expect(error.location.line == 5)
            #expect(error.expected == c.expected)
            #expect(error.found == c.found)
            // Leniently the point is skipped once (its damage not reported twice), and the rest read.
            let lenient = readGPX(gpx11(body, namespaces: tt), options: ReadOptions(lenient: true))
            #expect(lenient.error == nil)
            #expect(lenient.fixes.count == 2)
            #expect(lenient.report.errorCount == 1)
            #expect(lenient.fixes.allSatisfy { $0.speedMetresPerSecond == nil })
        }
        // Bytes that are no UTF-8 in the name (`</extension\xff\xfes>`).
        let text = Array(
            gpx11(#"<trkpt lat="1" lon="2"><time>2025-11-29T07:00:01Z</time><extensions>@</trkpt>"#).utf8)
        let at = try #require(text.firstIndex(of: UInt8(ascii: "@")))
        let bytes =
            Array(text[..<at]) + Array("</extension".utf8) + [0xFF, 0xFE] + Array("s>".utf8) + text[(at + 1)...]
        let binary = readGPXBytes(bytes)
        #expect(record(binary.error)?.expected == "</extensions> closing <extensions>")
        #expect(binary.error?.description.hasSuffix(#"found "</extension\xFF\xFEs>""#) == true)
        // Elements outside the points.
        let outside = readGPX(
            "<gpx><metadata><name>walk</nam></metadata><trk><trkseg>\(Self.point)</trkseg></trk></gpx>")
        let error = try #require(record(outside.error))
        #expect(error.expected == "</name> closing <name>")
        #expect(error.found == "</nam>")
        #expect(error.location.column == 26)
        // Read leniently, a misspelt, a stray and a missing end tag are each one error, and the rest is read.
        for damaged in ["<name>walk</nam>", "<name>walk</x></name>", "<name>walk"] {
            let lenient = readGPX(
                "<gpx><metadata>\(damaged)</metadata><trk><trkseg>\(Self.point)</trkseg></trk></gpx>",
                options: ReadOptions(lenient: true))
            #expect(lenient.fixes.count == 1, "\(damaged)")
            #expect(lenient.report.errorCount == 1, "\(damaged)")
            #expect(lenient.error == nil, "\(damaged)")
        }
        let wrongRoot = readGPX("<gpx><trk><trkseg>\(Self.point)</trkseg></trkk></gpx>")
        #expect(record(wrongRoot.error)?.expected == "</trk> closing <trk>")
    }

    @Test("a duplicate lat, lon or namespace attribute is an error naming it")
    func duplicateAttributesAreAnError() throws {
        let dup = readGPX(
            gpx11(Self.point + #"<trkpt lat="49.4501" lat="1" lon="11.0701"><time>2025-11-29T07:00:01Z</time></trkpt>"#)
        )
        #expect(dup.fixes.count == 1)
        guard case .malformedField(let location, "lat", let expected, let found) = dup.error else {
            Issue.record("unexpected \(String(describing: dup.error))")
            return
        }
        #expect(location.line == 4 && location.column == 94)
        #expect(expected.contains(#"lat="49.4501""#))
        #expect(found == #"lat="1""#)
        let lon = readGPX(gpx11(#"<trkpt lon='1' lat="2" lon="3"><time>2025-11-29T07:00:01Z</time></trkpt>"#))
        guard case .malformedField(_, "lon", _, _) = lon.error else {
            Issue.record("unexpected \(String(describing: lon.error))")
            return
        }
        let ns = GPXTrueTrackExtension.namespace
        for namespaces in [" xmlns:tt=\"\(ns)\" xmlns:tt=\"urn:x\"", " xmlns:tt=\"urn:x\" xmlns:tt='\(ns)'"] {
            let result = readGPX(gpx11(Self.point, namespaces: namespaces))
            guard case .malformedField(_, "xmlns:tt", _, _) = result.error else {
                Issue.record("unexpected \(String(describing: result.error)) for \(namespaces)")
                continue
            }
        }
        #expect(readGPX(gpx11(Self.point, namespaces: " xmlns:tt=\"\(ns)\" xmlns:t=\"\(ns)\"")).error == nil)
    }

    @Test("a NUL or other control byte between elements is an error at its byte")
    func controlBytesBetweenElements() throws {
        let body =
            Self.point + "\n\0" + Self.point
            + "\n<trkpt lat=\"1\" lon=\"2\">\u{1}<time>2025-11-29T07:00:02Z</time></trkpt>"
        let result = readGPX(gpx11(body))
        #expect(result.fixes.count == 1)
        let error = try #require(record(result.error))
        #expect(error.location.line == 5 && error.location.column == 1)
        #expect(error.found.hasPrefix("\0"))
        let lenient = readGPX(gpx11(body), options: ReadOptions(lenient: true))
        #expect(lenient.fixes.count == 2)
        #expect(lenient.report.errorCount == 2)
        #expect(lenient.report.errors.last?.location.line == 6)
        // Before the root the input is no GPX: reading stops, even leniently.
        let binary = readGPX("\0\0\0" + gpx11(Self.point), options: ReadOptions(lenient: true))
        #expect(binary.fixes.isEmpty)
        #expect(structure(binary.error)?.expected.contains("is this a GPX file?") == true)
        // So is text before it (a CSV read with --format gpx): named at its first line, not at the end of the input
        // as "none in N bytes" with a hint to --lenient, which then read it as empty (a stops tester's).
        let csv = readGPX(
            "timestamp,latitude,longitude\n2024-05-01T10:00:00Z,52.5,13.4\n", options: ReadOptions(lenient: true))
        let text = try #require(structure(csv.error))
        #expect(text.location.line == 1 && text.found == "timestamp,latitude,longitude", "\(text)")
    }

    @Test("the reader looks no further than the record limit for the root element")
    func theRootIsLookedForUpToTheRecordLimit() throws {
        let path = "/tmp/truetrack-gpx-noroot-\(getpid()).gpx"
        defer { unlink(path) }
        // (White space, which may come before the root; any other text is an error at once.)
        try #require(writeBytes(Array(String(repeating: " \n", count: 2000).utf8), to: path))
        var reader = GPXReader(stream: try ByteStream(path: path, chunkBytes: 64, maximumRecordBytes: 1 << 10))
        let result = reader.readAll()
        let error = try #require(record(result.error))
        #expect(error.expected.contains("root element within the first 1024 bytes"))
        #expect(result.report.bytesRead <= 1 << 11)
        // The same bytes under the limit: the whole input, no GPX in it.
        var whole = GPXReader(stream: try ByteStream(path: path, chunkBytes: 64))
        #expect(record(whole.readAll().error)?.found == "none in 4000 bytes")
    }

    @Test func aDOCTYPEWithAnInternalSubsetIsSkipped() throws {
        let result = readGPX(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [ <!ENTITY x \"]>\"> ]>\n<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2000-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"
        )
        #expect(result.error == nil)
        #expect(result.fixes.count == 1)
    }
}
