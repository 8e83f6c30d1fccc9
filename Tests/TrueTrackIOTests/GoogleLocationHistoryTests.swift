import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Google location history: a Takeout `Records.json` and the on-device `Timeline.json` export.
@Suite struct GoogleLocationHistoryTests {
    func read(_ text: String, lenient: Bool = false) -> ReadResult {
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(text.utf8)), options: ReadOptions(lenient: lenient))
        return reader.readAll()
    }

    func ms(_ iso: String) -> Int64 { ISO8601.parse(iso)!.millisecondsSince1970 }

    static let records = """
        {
          "locations": [{
            "latitudeE7": 481234567,
            "longitudeE7": -1150000000,
            "accuracy": 12,
            "activity": [{
              "activity": [{"type": "STILL", "confidence": 20}, {"type": "IN_ROAD_VEHICLE", "confidence": 77}],
              "timestamp": "2022-01-12T17:18:20.000Z"
            }, {
              "activity": [{"type": "WALKING", "confidence": 100}],
              "timestamp": "2022-01-12T17:17:20.000Z"
            }],
            "source": "WIFI",
            "deviceTag": 12345,
            "timestamp": "2022-01-12T17:18:24.190Z"
          }, {
            "latitudeE7": 481235567, "longitudeE7": -1150001000, "accuracy": 5, "velocity": 3, "heading": 90,
            "altitude": 520, "verticalAccuracy": 3, "source": "GPS", "timestampMs": "1642007910000"
          }, {
            "latitudeE7": 481236567, "longitudeE7": -1150002000, "accuracy": 5, "source": "CELL",
            "activity": [{"activity": [{"type": "IN_BUS", "confidence": 90}], "timestampMs": "1642007910000"}],
            "timestamp": "2022-01-12T17:18:40Z"
          }]
        }
        """

    @Test func readsATakeoutRecordsFileWithItsScaledCoordinatesSourcesAndActivities() throws {
        let result = read(Self.records)
        #expect(result.error == nil)
        #expect(result.fixes.count == 3)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == ms("2022-01-12T17:18:24.190Z"))
        #expect(abs(first.latitude - 48.1234567) < 1e-12 && abs(first.longitude + 115.0) < 1e-12)
        #expect(first.horizontalAccuracy == .metres(12))
        #expect(first.provider == .network)
        // The newest reading's most confident type, with its confidence.
        #expect(first.activity == ActivityReading(kind: .inVehicle, confidence: 77))
        let second = result.fixes[1]
        #expect(second.timestamp.millisecondsSince1970 == 1_642_007_910_000)
        #expect(second.speedMetresPerSecond == 3 && second.courseDegrees == 90)
        #expect(second.altitudeMetres == 520 && second.verticalAccuracyMetres == 3)
        #expect(second.provider == .gps && second.activity == nil)
        #expect(result.fixes[2].provider == .network)
        #expect(result.fixes[2].activity == ActivityReading(kind: .inVehicle, confidence: 90))
    }

    /// Takeout's records one per line (`jq -c '.locations[]'`, a formats tester's): sniffed as JSON Lines and read
    /// with Takeout's names (refused at line 2 as one JSON value before, and read without positions as JSON Lines);
    /// a negative E7 coordinate written as an unsigned 32-bit number (4,233,738,877 for −6.1228419°) is taken back
    /// below zero (the whole read stopped at "latitude 423.37 is outside -90...90").
    @Test func readsTakeoutRecordsOnePerLineAndUnwrapsUnsignedCoordinates() throws {
        let lines = """
            {"latitudeE7":460000000,"longitudeE7":140000000,"accuracy":12,"timestamp":"2024-05-01T06:00:00Z"}
            {"latitudeE7":4233738877,"longitudeE7":2994967296,"accuracy":12,"timestampMs":"1714543210000"}

            """
        #expect(FixFormat.sniff(Array(lines.utf8)) == .jsonLines)
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array(lines.utf8)), options: ReadOptions())
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.fixes.first?.latitude == 46 && result.fixes.first?.longitude == 14)
        let second = try #require(result.fixes.last)
        #expect(abs(second.latitude - -6.1228419) < 1e-9 && abs(second.longitude - -130) < 1e-9)
        #expect(second.timestamp.millisecondsSince1970 == 1_714_543_210_000)
        // One record alone stays a Takeout file's to read (one JSON value).
        #expect(FixFormat.sniff(Array(#"{"locations":[{"latitudeE7":1,"longitudeE7":2}]}"#.utf8)) == .locationHistory)
    }

    @Test func readsTheTimelineExportsRawPositionsAndSkipsItsOtherSignals() throws {
        let text = """
            {
              "semanticSegments": [{"startTime": "2024-05-01T10:00:00.000+02:00",
                "timelinePath": [{"point": "48.1°, 11.5°", "time": "2024-05-01T10:00:00.000+02:00"}]}],
              "rawSignals": [
                {"position": {"LatLng": "48.1234567°, 11.5000000°", "accuracyMeters": 13, "altitudeMeters": 520.3,
                  "source": "GPS", "timestamp": "2024-05-01T12:00:00.000+02:00", "speedMetersPerSecond": 1.2}},
                {"activityRecord": {"probableActivities": [{"type": "WALKING", "confidence": 0.9}],
                  "timestamp": "2024-05-01T12:00:01.000+02:00"}},
                {"wifiScan": {"deliveryTime": "2024-05-01T12:00:02.000+02:00", "devicesRecords": []}},
                {"position": {"LatLng": "-48.1235567°, -11.5001°", "accuracyMeters": 8, "source": "WIFI",
                  "timestamp": "2024-05-01T12:00:10.000+02:00"}}
              ],
              "userLocationProfile": {"frequentPlaces": [{"placeLocation": "48.1°, 11.5°", "label": "HOME"}]}
            }
            """
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.report.skipped(.otherRecord) == 2)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        #expect(first.latitude == 48.1234567 && first.longitude == 11.5)
        #expect(first.horizontalAccuracy == .metres(13) && first.altitudeMetres == 520.3)
        #expect(first.speedMetresPerSecond == 1.2 && first.provider == .gps)
        #expect(result.fixes[1].latitude == -48.1235567 && result.fixes[1].longitude == -11.5001)
        #expect(result.fixes[1].provider == .network)
    }

    @Test func rejectsAPositionThatIsNotTwoNumbersNamingTheField() {
        let text = """
            {"rawSignals": [
              {"position": {"LatLng": "48.1°, 11.5°", "timestamp": "2024-05-01T10:00:00Z"}},
              {"position": {"LatLng": "somewhere", "timestamp": "2024-05-01T10:00:01Z"}}
            ]}
            """
        let strict = read(text)
        #expect(strict.fixes.count == 1)
        guard case .malformedField(let location, let field, _, _)? = strict.error else {
            Issue.record("expected a malformed field, got \(String(describing: strict.error))")
            return
        }
        #expect(field == "LatLng" && location.line == 3)
        let lenient = read(text, lenient: true)
        #expect(lenient.error == nil && lenient.fixes.count == 1 && lenient.report.errorCount == 1)
    }

    /// A Timeline's `semanticSegments` (Google's visits and inferred paths) are records without fixes of the phone's:
    /// counted as such, and the document is no record of its own (it was one "without a time").
    @Test func countsATimelinesSemanticSegmentsAsRecordsWithoutFixes() throws {
        let text =
            #"{"semanticSegments":[{"startTime":"2024-04-01T08:00:00.000+02:00","timelinePath":"#
            + #"[{"point":"48.1°, 11.5°","time":"2024-04-01T08:00:00.000+02:00"}]},{"startTime":"x","visit":{}}]}"#
        var reader = AnyFixReader(stream: ByteStream(bytes: Array(text.utf8)), format: .locationHistory)
        let result = reader.readAll()
        #expect(result.error == nil && result.fixes.isEmpty)
        #expect(result.report.skipped(.otherRecord) == 2 && result.report.skipped(.missingTime) == 0)
    }

    @Test func sniffsBothExportsAndNamesTheFormat() {
        #expect(FixFormat.sniff(Array(Self.records.utf8)) == .locationHistory)
        #expect(FixFormat.sniff(Array("{\"rawSignals\": []}".utf8)) == .locationHistory)
        #expect(FixFormat.sniff(Array("{\n  \"semanticSegments\": [\n".utf8)) == .locationHistory)
        #expect(FixFormat(name: "google") == .locationHistory && FixFormat(name: "takeout") == .locationHistory)
        #expect(!FixFormat.writable.contains(.locationHistory))
    }

    /// The aliases taken for location history do not break other JSON: a `velocity` or `source` object is
    /// not a speed or a provider, and the record still reads.
    @Test func otherExportersVelocityAndSourceMeanNothing() {
        let lines = [
            #"{"time": "2024-05-01T10:00:00Z", "lat": 48.1, "lon": 11.5, "velocity": {"x": 1, "y": 2}, "source": {"app": "x"}}"#,
            #"{"time": "2024-05-01T10:00:01Z", "lat": 48.1, "lon": 11.5, "provider": "gps", "source": "strava", "velocity": 36}"#,
            #"{"time": "2024-05-01T10:00:02Z", "lat": 48.1, "lon": 11.5, "velocity": "n/a", "timestampMs": 1, "latitudeE7": 1}"#,
        ]
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array((lines.joined(separator: "\n") + "\n").utf8)))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.map(\.provider) == [.unknown, .gps, .unknown])
        #expect(result.fixes.allSatisfy { $0.speedMetresPerSecond == nil && $0.latitude == 48.1 })
        #expect(result.fixes.last?.timestamp == ISO8601.parse("2024-05-01T10:00:02Z"))
    }
}
