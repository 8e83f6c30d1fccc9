import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Garmin Training Center XML, read by ``GPXReader``.
@Suite struct TCXReaderTests {
    static let activity = """
        <?xml version="1.0" encoding="UTF-8"?>
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
          xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
          <Activities>
            <Activity Sport="Running">
              <Id>2024-05-01T12:00:00.000Z</Id>
              <Lap StartTime="2024-05-01T12:00:00.000Z">
                <TotalTimeSeconds>3.0</TotalTimeSeconds>
                <Track>
                  <Trackpoint>
                    <Time>2024-05-01T12:00:00.000Z</Time>
                    <Position><LatitudeDegrees>48.1</LatitudeDegrees><LongitudeDegrees>-11.5</LongitudeDegrees></Position>
                    <AltitudeMeters>520.4</AltitudeMeters>
                    <DistanceMeters>0.0</DistanceMeters>
                    <HeartRateBpm><Value>120</Value></HeartRateBpm>
                    <Extensions><ns3:TPX><ns3:Speed>3.2</ns3:Speed></ns3:TPX></Extensions>
                  </Trackpoint>
                  <Trackpoint>
                    <Time>2024-05-01T12:00:01.000Z</Time>
                    <HeartRateBpm><Value>121</Value></HeartRateBpm>
                  </Trackpoint>
                </Track>
                <Track>
                  <Trackpoint>
                    <Time>2024-05-01T12:00:02.000Z</Time>
                    <Position><LatitudeDegrees>48.10003</LatitudeDegrees><LongitudeDegrees>-11.5</LongitudeDegrees></Position>
                  </Trackpoint>
                </Track>
              </Lap>
            </Activity>
          </Activities>
        </TrainingCenterDatabase>
        """

    /// The activity extension's `Speed` is read where Garmin's schema puts it, `<Extensions><TPX><Speed>` in the
    /// ActivityExtension's namespace (v2 or v1, under any prefix, as the `TPX`'s default namespace, or written without
    /// one); a `Speed` elsewhere (in another namespace, inside another element, at the trackpoint's own level) is
    /// another's, not read and counted (``GPXReader/unreadSpeedElements``). It was read at any depth in any namespace,
    /// where GPX's `speed` had been narrowed to the places its schemas put it.
    @Test func readsTheActivityExtensionsSpeedOnlyWhereItsSchemaPutsIt() throws {
        func read(_ extensions: String) -> (speed: Double?, unread: Int) {
            let text = Self.activity.replacingOccurrences(
                of: "<Extensions><ns3:TPX><ns3:Speed>3.2</ns3:Speed></ns3:TPX></Extensions>", with: extensions)
            var reader = GPXReader(stream: ByteStream(bytes: Array(text.utf8)))
            let result = reader.readAll()
            #expect(result.error == nil && result.fixes.count == 2, "\(extensions)")
            return (result.fixes.first?.speedMetresPerSecond, reader.unreadSpeedElements)
        }
        for extensions in [
            "<Extensions><ns3:TPX><ns3:Speed>3.2</ns3:Speed></ns3:TPX></Extensions>",
            "<Extensions><TPX xmlns=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\"><Speed>3.2</Speed></TPX>"
                + "</Extensions>",
            "<Extensions><a:TPX xmlns:a=\"http://www.garmin.com/xmlschemas/ActivityExtension/v1\"><a:Speed>3.2</a:Speed>"
                + "</a:TPX></Extensions>",
            "<Extensions><TPX><Speed>3.2</Speed></TPX></Extensions>",
            "<Extensions><x:TPX><x:Speed>3.2</x:Speed></x:TPX></Extensions>",
        ] {
            let (speed, unread) = read(extensions)
            #expect(speed == 3.2 && unread == 0, "\(extensions)")
        }
        for extensions in [
            "<Extensions><w:Wind xmlns:w=\"urn:weather\"><w:Speed>9</w:Speed></w:Wind></Extensions>",
            "<Extensions><w:TPX xmlns:w=\"urn:weather\"><w:Speed>9</w:Speed></w:TPX></Extensions>",
            "<Extensions><ns3:TPX><w:Speed xmlns:w=\"urn:weather\">9</w:Speed></ns3:TPX></Extensions>",
            "<Extensions><ns3:Speed>9</ns3:Speed></Extensions>",
            "<Speed>9</Speed>",
        ] {
            let (speed, unread) = read(extensions)
            #expect(speed == nil && unread == 1, "\(extensions)")
        }
    }

    @Test func readsTrackpointsWithTimePositionAltitudeAndSpeed() throws {
        var reader = GPXReader(stream: ByteStream(bytes: Array(Self.activity.utf8)))
        let first = try #require(try reader.next())
        #expect(first.timestamp == ISO8601.parse("2024-05-01T12:00:00Z"))
        #expect(first.latitude == 48.1 && first.longitude == -11.5)
        #expect(first.altitudeMetres == 520.4 && first.speedMetresPerSecond == 3.2)
        #expect(first.horizontalAccuracy == .absent && first.provider == .gps)
        #expect(reader.lastSegmentIndex == 0 && reader.lastTrackIndex == 0)
        // The second trackpoint has no position (a paused watch still logs heart rate): skipped.
        let second = try #require(try reader.next())
        #expect(second.latitude == 48.10003)
        #expect(reader.lastSegmentIndex == 1)  // a new <Track>: the watch was paused
        #expect(try reader.next() == nil)
        #expect(reader.report.skipped(.missingPosition) == 1)
        #expect(reader.report.recordsRead == 3)
    }

    @Test func rejectsHalfAPositionAndAnOutOfRangeOneNamingTheLine() {
        let half = Self.activity.replacingOccurrences(of: "<LatitudeDegrees>48.10003</LatitudeDegrees>", with: "")
        let strict = readGPX(half)
        #expect(strict.fixes.count == 1)
        guard case .malformedRecord(let location, let expected, _)? = strict.error else {
            Issue.record("expected a malformed record, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 24 && expected.contains("LatitudeDegrees and LongitudeDegrees"))
        let outside = readGPX(
            Self.activity.replacingOccurrences(of: "48.10003", with: "98.1"), options: ReadOptions(lenient: true))
        #expect(outside.fixes.count == 1)
        #expect(outside.report.errorCount == 1)
        guard case .invalidFix(let at, .latitudeOutOfRange, "LatitudeDegrees")? = outside.report.errors.first else {
            Issue.record("expected an out-of-range latitude, got \(String(describing: outside.report.errors.first))")
            return
        }
        #expect(at.line == 26)
        // A NaN is a malformed number in its field, not a missing element ("LongitudeDegrees only": a tester's).
        let nan = readGPX(Self.activity.replacingOccurrences(of: "48.10003", with: "NaN"))
        guard case .malformedField(let place, "LatitudeDegrees", _, "NaN")? = nan.error else {
            Issue.record("expected a malformed LatitudeDegrees, got \(String(describing: nan.error))")
            return
        }
        #expect(place.line == 26 && nan.fixes.count == 1)
    }

    /// A TCX cut after a whole `<Trackpoint>` said it expected "</gpx>", a name the file never uses.
    @Test func aTCXCutBetweenTrackpointsNamesItsOwnRootElement() {
        let cut = String(Self.activity[..<Self.activity.range(of: "</Track>")!.lowerBound])
        let read = readGPX(cut)
        #expect(read.fixes.count == 1)
        guard case .truncated(_, let expected)? = read.error else {
            Issue.record("expected a truncation, got \(String(describing: read.error))")
            return
        }
        #expect(expected == "</TrainingCenterDatabase> closing the document")
        let gpx = readGPX("<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt>\n")
        guard case .truncated(_, let gpxExpected)? = gpx.error else {
            Issue.record("expected a truncation, got \(String(describing: gpx.error))")
            return
        }
        #expect(gpxExpected == "</gpx> closing the document")
    }

    @Test func sniffsAndNamesTheFormat() {
        #expect(FixFormat.sniff(Array(Self.activity.utf8)) == .tcx)
        #expect(FixFormat.guess(fromExtensionOf: "run.TCX") == .tcx)
        #expect(FixFormat(name: "tcx") == .tcx && !FixFormat.writable.contains(.tcx))
    }

    /// GPX element names mean nothing in a TCX document, and TCX names nothing in GPX.
    @Test func keepsTheTwoVocabulariesApart() {
        let gpxWithTCXNames = """
            <gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><time>2024-05-01T12:00:00Z</time>
            <Time>2030-01-01T00:00:00Z</Time><AltitudeMeters>9</AltitudeMeters></trkpt></trkseg></trk></gpx>
            """
        let gpx = readGPX(gpxWithTCXNames)
        #expect(gpx.fixes.first?.timestamp == ISO8601.parse("2024-05-01T12:00:00Z"))
        #expect(gpx.fixes.first?.altitudeMetres == nil)
        let tcxWithGPXNames = Self.activity.replacingOccurrences(
            of: "<AltitudeMeters>520.4</AltitudeMeters>", with: "<ele>9</ele><trkpt lat=\"3\" lon=\"4\"/>")
        let tcx = readGPX(tcxWithGPXNames)
        #expect(tcx.error == nil && tcx.fixes.count == 2)
        #expect(tcx.fixes.first?.altitudeMetres == nil && tcx.fixes.first?.latitude == 48.1)
    }
}
