import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// KML as Google Earth and GPS loggers write it: `<gx:Track>` pairs of times and positions, timed placemarks.
@Suite struct KMLReaderTests {
    func read(_ text: String, lenient: Bool = false, waypoints: Bool = false) -> ReadResult {
        var options = ReadOptions(lenient: lenient)
        if waypoints { options.gpxPointKinds = .all }
        var reader = KMLReader(stream: ByteStream(bytes: Array(text.utf8)), options: options)
        return reader.readAll()
    }

    func ms(_ iso: String) -> Int64 { ISO8601.parse(iso)!.millisecondsSince1970 }

    static func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document>
        \(body)
        </Document>
        </kml>

        """
    }

    static let walk = document(
        """
          <name>Walk &amp; back</name>
          <!-- a comment with <markup> -->
          <Placemark>
            <description><![CDATA[<b>Track</b> from <gpx> logger]]></description>
            <gx:MultiTrack>
              <gx:Track>
                <altitudeMode>absolute</altitudeMode>
                <when>2024-05-01T10:00:00Z</when>
                <when>2024-05-01T10:00:01.5Z</when>
                <gx:coord>11.5 48.1 500</gx:coord>
                <gx:coord>  11.50001   48.10001 </gx:coord>
                <ExtendedData><SchemaData schemaUrl="#s"><gx:SimpleArrayData name="speed"><gx:value>1.2</gx:value>
                </gx:SimpleArrayData></SchemaData></ExtendedData>
              </gx:Track>
              <gx:Track>
                <when>2024-05-01T12:00:00+02:00</when>
                <gx:coord>11.5 48.1 501</gx:coord>
              </gx:Track>
            </gx:MultiTrack>
          </Placemark>
        """)

    @Test func pairsATracksTimesAndPositionsInOrderEachTrackASegment() throws {
        var reader = KMLReader(stream: ByteStream(bytes: Array(Self.walk.utf8)))
        var fixes: [Fix] = []
        var segments: [Int?] = []
        while let fix = try reader.next() {
            fixes.append(fix)
            segments.append(reader.lastSegmentIndex)
        }
        #expect(
            fixes.map(\.timestamp.millisecondsSince1970) == [
                ms("2024-05-01T10:00:00Z"), ms("2024-05-01T10:00:01.500Z"), ms("2024-05-01T10:00:00Z"),
            ])
        #expect(fixes.map(\.longitude) == [11.5, 11.50001, 11.5] && fixes.map(\.latitude) == [48.1, 48.10001, 48.1])
        #expect(fixes.map(\.altitudeMetres) == [500, nil, 501])
        #expect(fixes.allSatisfy { $0.provider == .gps && $0.horizontalAccuracy == .absent })
        #expect(segments == [0, 0, 1])
        #expect(reader.report.recordsRead == 3 && reader.report.errorCount == 0)
    }

    static let placemarks = document(
        """
        <Placemark><TimeStamp><when>2024-05-01T10:00:05Z</when></TimeStamp>
          <Point><coordinates>11.5001,48.1001,12</coordinates></Point></Placemark>
        <Placemark><name>Home</name><Point><coordinates> 11.5,48.1 </coordinates></Point></Placemark>
        <Placemark><TimeSpan><begin>2024-05-01T09:00:00Z</begin></TimeSpan>
          <LineString><coordinates>11.5,48.1 11.6,48.2</coordinates></LineString></Placemark>
        <Placemark><TimeStamp><when>2024-05-01T10:00:06Z</when></TimeStamp>
          <MultiGeometry><Point><coordinates>11.5002, 48.1002</coordinates></Point></MultiGeometry></Placemark>
        """)

    /// Placemarks' points are marked places, as GPX waypoints: read with `--gpx-waypoints` only (OpenTracks writes
    /// its markers before the track, which they would have put out of time order: half a tester's track was lost).
    @Test func readsTimedPlacemarksAsWaypointsAndSkipsPathsWithoutTimes() throws {
        let byDefault = read(Self.placemarks)
        #expect(byDefault.error == nil && byDefault.fixes.isEmpty)
        #expect(byDefault.report.skipped(.gpxWaypoint) == 3 && byDefault.report.skipped(.missingTime) == 1)
        let result = read(Self.placemarks, waypoints: true)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [48.1001, 48.1002])
        #expect(result.fixes.first?.altitudeMetres == 12)
        #expect(result.report.skipped(.missingTime) == 2)
    }

    @Test func readsKML23TracksAndAnyPrefix() throws {
        let result = read(
            """
            <?xml version="1.0"?>
            <!DOCTYPE kml [ <!ENTITY x "y"> ]>
            <k:kml xmlns:k="http://www.opengis.net/kml/2.2"><k:Placemark><k:Track>
            <k:when>2024-05-01T10:00:00Z</k:when><k:coord>11.5 48.1 0</k:coord>
            </k:Track></k:Placemark></k:kml>
            """)
        #expect(result.error == nil && result.fixes.count == 1)
    }

    @Test func aTrackWhoseTimesAndPositionsDoNotPairIsAnErrorNamingIt() throws {
        let text = Self.document(
            """
            <Placemark><gx:Track>
              <when>2024-05-01T10:00:00Z</when><when>2024-05-01T10:00:01Z</when>
              <gx:coord>11.5 48.1 0</gx:coord>
            </gx:Track></Placemark>
            <Placemark><gx:Track><when>2024-05-01T11:00:00Z</when><gx:coord>11.5 48.1 0</gx:coord></gx:Track></Placemark>
            """)
        let strict = read(text)
        guard case .malformedRecord(let location, let expected, let found)? = strict.error else {
            Issue.record("expected a malformed record, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 4 && location.column == 12, "\(location)")
        #expect(expected.contains("one <when> per <coord>") && found == "2 <when> and 1 <coord>")
        let lenient = read(text, lenient: true)
        #expect(lenient.error == nil && lenient.fixes.count == 1 && lenient.report.errorCount == 1)
    }

    @Test func aTimeOrPositionThatDoesNotReadIsAnErrorNamingItsField() throws {
        let text = Self.document(
            """
            <Placemark><gx:Track>
              <when>2024-05-01T10:00:00Z</when><when>yesterday</when><when>2024-05-01T10:00:02Z</when>
              <gx:coord>11.5 48.1 0</gx:coord><gx:coord>11.5 48.1 0</gx:coord><gx:coord>11.5,48.1</gx:coord>
            </gx:Track></Placemark>
            """)
        let strict = read(text)
        guard case .malformedField(let location, let field, _, let found)? = strict.error else {
            Issue.record("expected a malformed field, got \(String(describing: strict.error))")
            return
        }
        #expect(location.line == 5 && location.column == 36 && field == "when" && found == "yesterday", "\(location)")
        // Leniently, both bad values are counted and their pairs left out; the pairs stay aligned.
        let lenient = read(text, lenient: true)
        #expect(lenient.fixes.map(\.timestamp.millisecondsSince1970) == [ms("2024-05-01T10:00:00Z")])
        #expect(lenient.report.errorCount == 2)
        // A latitude out of range is an invalid fix.
        let invalid = read(
            Self.document(
                "<Placemark><gx:Track><when>2024-05-01T10:00:00Z</when><gx:coord>11.5 95 0</gx:coord></gx:Track></Placemark>"
            ))
        guard case .invalidFix? = invalid.error else {
            Issue.record("expected an invalid fix, got \(String(describing: invalid.error))")
            return
        }
    }

    /// A non-finite altitude (`NaN`, `inf`, `1e400`) is read as missing and counted, strict or lenient, the position
    /// kept, as every reader does (it failed the whole position); a non-finite longitude still fails it.
    @Test func readsANonFiniteAltitudeAsMissingAndCountsIt() throws {
        let text = Self.document(
            """
            <Placemark><gx:Track>
              <when>2024-05-01T10:00:00Z</when><when>2024-05-01T10:00:01Z</when><when>2024-05-01T10:00:02Z</when>
              <gx:coord>11.5 48.1 NaN</gx:coord><gx:coord>11.5 48.1 1e400</gx:coord><gx:coord>11.5 48.1 7</gx:coord>
            </gx:Track></Placemark>
            <Placemark><TimeStamp><when>2024-05-01T10:00:03Z</when></TimeStamp>
              <Point><coordinates>11.5,48.1,inf</coordinates></Point></Placemark>
            """)
        for lenient in [false, true] {
            let result = read(text, lenient: lenient, waypoints: true)
            #expect(result.error == nil)
            #expect(result.fixes.map(\.altitudeMetres) == [nil, nil, 7, nil])
            #expect(result.report.unreadableFieldCount == 3)
            #expect(result.report.errorCount == 0)
        }
        let longitude = read(
            Self.document(
                "<Placemark><gx:Track><when>2024-05-01T10:00:00Z</when><gx:coord>inf 48.1 0</gx:coord></gx:Track></Placemark>"
            ))
        guard case .malformedField(_, let field, _, _)? = longitude.error else {
            Issue.record("expected a malformed field, got \(String(describing: longitude.error))")
            return
        }
        #expect(field == "coord")
    }

    @Test func brokenMarkupEndsTheReadingEvenWhenLenient() throws {
        let mismatched = read(
            Self.document("<Placemark><TimeStamp><when>2024-05-01T10:00:00Z</TimeStamp></when></Placemark>"),
            lenient: true)
        guard case .unreadableStructure(_, let expected, _)? = mismatched.error else {
            Issue.record("expected an unreadable structure, got \(String(describing: mismatched.error))")
            return
        }
        #expect(expected.hasSuffix("</when>") && mismatched.error!.endsReadingEvenWhenLenient)
        let joined = read(Self.document("") + Self.document(""), lenient: true)
        guard case .unreadableStructure(_, let what, _)? = joined.error else {
            Issue.record("expected an unreadable structure, got \(String(describing: joined.error))")
            return
        }
        #expect(what.contains("two documents joined"))
        let notKML = read("<gpx version=\"1.1\"></gpx>", lenient: true)
        guard case .unreadableStructure(_, let root, _)? = notKML.error else {
            Issue.record("expected an unreadable structure, got \(String(describing: notKML.error))")
            return
        }
        #expect(root.contains("<kml> root element"))
        let deep = String(repeating: "<Folder>", count: 300) + String(repeating: "</Folder>", count: 300)
        let nested = read(Self.document(deep), lenient: true)
        guard case .unreadableStructure(_, let depth, _)? = nested.error else {
            Issue.record("expected an unreadable structure, got \(String(describing: nested.error))")
            return
        }
        #expect(depth.contains("nested at most"))
    }

    @Test func aDocumentCutShortKeepsTheFixesBeforeIt() throws {
        let whole = Self.walk
        let cut = String(whole.prefix(whole.range(of: "<when>2024-05-01T12")!.lowerBound.utf16Offset(in: whole)))
        let result = read(cut)
        #expect(result.fixes.count == 2)
        guard case .truncated? = result.error else {
            Issue.record("expected truncated, got \(String(describing: result.error))")
            return
        }
        #expect(read("").error != nil)
        // Cut inside a track: its complete pairs are kept (all were lost), then the error.
        let track = Self.document(
            """
            <Placemark><Track>
              <when>2024-05-01T10:00:00Z</when><coord>11.5 48.1 0</coord>
              <when>2024-05-01T10:00:01Z</when><coord>11.50001 48.1 0</coord>
              <when>2024-05-01T10:00:02Z</when><coord>11.50002 48.1 0</coord>
            </Track></Placemark>
            """)
        let inside = read(String(track.prefix(track.range(of: "11.50002")!.upperBound.utf16Offset(in: track))))
        #expect(inside.fixes.map(\.longitude) == [11.5, 11.50001])
        guard case .truncated? = inside.error else {
            Issue.record("expected truncated, got \(String(describing: inside.error))")
            return
        }
        // Cut inside a tag: the same, the error placed at the input's end (at the tag's start it read as one record
        // cut short, and --lenient was offered).
        let tagText = String(track.prefix(track.range(of: "11.50002 48.1 0</co")!.upperBound.utf16Offset(in: track)))
        let inTag = read(tagText)
        #expect(inTag.fixes.count == 2)
        #expect(inTag.error?.location.byteOffset == tagText.utf8.count)
        // gx:Track's times first, positions after: cut among the positions, the pairs with both.
        let gx = Self.walk
        let amongPositions = read(String(gx.prefix(gx.range(of: "</gx:coord>")!.upperBound.utf16Offset(in: gx))))
        #expect(amongPositions.fixes.count == 1 && amongPositions.error != nil)
    }

    @Test func readsTheSameAcrossEveryChunkBoundary() throws {
        let path = NSTemporaryDirectory() + "truetrack-kml-\(getpid()).kml"
        try Self.walk.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = read(Self.walk).fixes
        for chunk in [64, 65, 67, 100, 128] {
            var reader = KMLReader(stream: try ByteStream(path: path, chunkBytes: chunk))
            let result = reader.readAll()
            #expect(result.error == nil && result.fixes == expected, "chunk \(chunk)")
        }
    }

    @Test func isSniffedByItsRootAndReadThroughAnyFixReader() throws {
        #expect(FixFormat.sniff(Array(Self.walk.utf8)) == .kml)
        let gpxMentioningKML = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><metadata><desc>from <kml></desc>"
        #expect(FixFormat.sniff(Array(gpxMentioningKML.utf8)) == .gpx)
        #expect(FixFormat.guess(fromExtensionOf: "day.kml") == .kml)
        var reader = AnyFixReader(stream: ByteStream(bytes: Array(Self.walk.utf8)), format: .kml)
        var segments: [Int?] = []
        while try reader.next() != nil { segments.append(reader.segmentIndex) }
        #expect(segments == [0, 0, 1])
        // A KMZ is a ZIP archive: named as one.
        #expect(FixFormat.binaryReason([0x50, 0x4B, 0x03, 0x04, 0x14]) != nil)
    }

    // MARK: After a reviewer

    /// The root element decides between the XML formats, and a note quoting one does not make a CSV one.
    @Test func theRootElementDecidesTheFormat() {
        #expect(
            FixFormat.sniff(Array("time,lat,lon,note\n2024-05-01T10:00:00Z,48.1,11.5,from <kml> file\n".utf8)) == .csv)
        #expect(FixFormat.sniff(Array("<?xml version=\"1.0\"?>\n<!-- from <gpx> -->\n<kml></kml>".utf8)) == .kml)
        #expect(FixFormat.sniff(Array("<!DOCTYPE kml [ <!ENTITY a \"<gpx>\"> ]>\n<kml:kml></kml:kml>".utf8)) == .kml)
        #expect(FixFormat.sniff(Array("\u{FEFF}<?xml version=\"1.0\"?><gpx version=\"1.1\"></gpx>".utf8)) == .gpx)
        #expect(FixFormat.xmlRootName(ArraySlice("PK\u{3}\u{4}<kml>".utf8)) == nil)  // a KMZ stored uncompressed
    }

    /// OpenTracks writes an empty `<coord/>` where it had no position; KML allows a date alone in `<when>`.
    @Test func skipsEmptyPositionsAndDatesWithoutATimeOfDayKeepingThePairs() throws {
        let result = read(
            Self.document(
                """
                <Placemark><gx:Track>
                  <when>2024-05-01T10:00:00Z</when><when>2024-05-01T10:00:01Z</when><when>2024-05-01</when>
                  <when>2024-05-01T10:00:03Z</when>
                  <gx:coord>11.5 48.1 0</gx:coord><gx:coord/><gx:coord>11.5 48.1 0</gx:coord>
                  <gx:coord>11.5 48.2 0</gx:coord>
                </gx:Track></Placemark>
                """))
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [48.1, 48.2])
        #expect(result.report.skipped(.missingPosition) == 1 && result.report.skipped(.missingTime) == 1)
    }

    /// A value with a reference that does not read is reported once and makes no fix (leniently it made one from the
    /// text before the reference).
    @Test func aValueWithABrokenReferenceMakesNoFix() throws {
        let text = Self.document(
            """
            <Placemark><gx:Track><when>2024-05-01T10:00&bogus;:00Z</when><when>2024-05-01T10:00:01Z</when>
            <gx:coord>11.5 48.1 0</gx:coord><gx:coord>11.5 48.2 0</gx:coord></gx:Track></Placemark>
            """)
        let lenient = read(text, lenient: true)
        #expect(lenient.fixes.map(\.latitude) == [48.2] && lenient.report.errorCount == 1)
        #expect(read(text).error != nil)
    }

    /// A placemark whose time does not read is counted once (an error), not also as without a time.
    @Test func aPlacemarkWhoseTimeDoesNotReadIsCountedOnce() throws {
        let result = read(
            Self.document(
                "<Placemark><TimeStamp><when>noon</when></TimeStamp><Point><coordinates>11.5,48.1</coordinates></Point></Placemark>"
            ), lenient: true, waypoints: true)
        #expect(result.report.errorCount == 1 && result.report.skipped(.missingTime) == 0)
    }

    /// OpenTracks' KML 2.3 track: three pairs, then per-pair arrays in its `<ExtendedData>` (speed in m/s, accuracies
    /// in metres, an empty `<value/>` where it had none), beside arrays the reader does not read.
    static let openTracks = document(
        """
          <Schema id="schema"><SimpleArrayField name="speed" type="float"/></Schema>
          <Placemark><MultiTrack><Track>
            <when>2024-05-01T10:00:00+02:00</when><coord>11.5 48.1 500</coord>
            <when>2024-05-01T10:00:01+02:00</when><coord/>
            <when>2024-05-01T10:00:02+02:00</when><coord>11.50002 48.1 500</coord>
            <ExtendedData><SchemaData schemaUrl="#schema">
              <SimpleArrayData name="trackpoint_type"><value>SEGMENT_START_MANUAL</value><value>TRACKPOINT</value>
                <value>SEGMENT_END_MANUAL</value></SimpleArrayData>
              <SimpleArrayData name="speed"><value>1.4</value><value>1.3</value><value /></SimpleArrayData>
              <SimpleArrayData name="heart_rate"><value>90</value><value>91</value><value>92</value></SimpleArrayData>
              <SimpleArrayData name='accuracy_horizontal'><value> 4.5 </value><value>5</value><value>6.5</value>
              </SimpleArrayData>
              <SimpleArrayData name="accuracy_vertical"><value>9</value><value>9</value></SimpleArrayData>
            </SchemaData></ExtendedData>
          </Track></MultiTrack></Placemark>
        """)

    /// Before, a track's arrays were not read: OpenTracks' Doppler speed and accuracies were lost, and a walk of 999.6 m
    /// with exact speeds counted 1,209 m on positions alone (999.1 m with them).
    @Test func readsATracksSpeedAndAccuracyArrays() throws {
        let result = read(Self.openTracks)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.fixes.map(\.speedMetresPerSecond) == [1.4, nil])
        #expect(result.fixes.map(\.horizontalAccuracyMetres) == [4.5, 6.5])
        // An array shorter than the track's pairs cannot be placed: not read.
        #expect(result.fixes.allSatisfy { $0.verticalAccuracyMetres == nil })
        #expect(result.fixes.allSatisfy { $0.courseDegrees == nil })
        // KML 2.2's gx: arrays, Google's style.
        let google = read(
            Self.document(
                """
                <Placemark><gx:Track>
                  <when>2024-05-01T10:00:00Z</when><when>2024-05-01T10:00:01Z</when>
                  <gx:coord>11.5 48.1</gx:coord><gx:coord>11.50001 48.1</gx:coord>
                  <ExtendedData><SchemaData schemaUrl="#s">
                    <gx:SimpleArrayData name="bearing"><gx:value>90</gx:value><gx:value>91.5</gx:value></gx:SimpleArrayData>
                    <gx:SimpleArrayData kind="x" name="speed"><gx:value>0.8</gx:value><gx:value>0.9</gx:value>
                    </gx:SimpleArrayData>
                  </SchemaData></ExtendedData>
                </gx:Track></Placemark>
                """))
        #expect(google.error == nil)
        #expect(google.fixes.map(\.courseDegrees) == [90, 91.5])
        #expect(google.fixes.map(\.speedMetresPerSecond) == [0.8, 0.9])
        // The arrays belong to their own track only.
        let two = read(
            Self.document(
                """
                <Placemark><gx:MultiTrack>
                  <gx:Track><when>2024-05-01T10:00:00Z</when><gx:coord>11.5 48.1</gx:coord>
                    <ExtendedData><SchemaData><gx:SimpleArrayData name="speed"><gx:value>2</gx:value>
                    </gx:SimpleArrayData></SchemaData></ExtendedData></gx:Track>
                  <gx:Track><when>2024-05-01T10:01:00Z</when><gx:coord>11.5 48.2</gx:coord></gx:Track>
                </gx:MultiTrack></Placemark>
                """))
        #expect(two.fixes.map(\.speedMetresPerSecond) == [2, nil])
    }

    /// A read array with a value that is no number (`fast`, a published script's `5 km/h`) is left unread: the pairs
    /// keep their fixes without it (an error at first, which lost the whole track of a file that read before: a
    /// reviewer's).
    @Test func anArrayWithAValueThatIsNoNumberIsLeftUnread() throws {
        let text = Self.document(
            """
            <Placemark><gx:Track>
              <when>2024-05-01T10:00:00Z</when><when>2024-05-01T10:00:01Z</when>
              <gx:coord>11.5 48.1</gx:coord><gx:coord>11.50001 48.1</gx:coord>
              <ExtendedData><SchemaData><gx:SimpleArrayData name="speed"><gx:value>1.2</gx:value>
              <gx:value>fast</gx:value></gx:SimpleArrayData></SchemaData></ExtendedData>
            </gx:Track></Placemark>
            """)
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.speedMetresPerSecond) == [nil, nil])
        #expect(result.fixes.map(\.longitude) == [11.5, 11.50001])
    }
}
