import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// What apps' exports hold where the formats' standards say otherwise (a new user's files).
@Suite struct AppExportTests {
    static func gpx(creator: String, point: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="\(creator)" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2024-05-01T06:00:00Z</time>\(point)</trkpt>
        </trkseg></trk></gpx>
        """
    }

    func first(_ text: String, options: ReadOptions = ReadOptions()) throws -> Fix {
        var reader = GPXReader(stream: ByteStream(bytes: Array(text.utf8)), options: options)
        return try #require(try reader.next())
    }

    /// OsmAnd and Locus write Android's accuracy in metres as `<hdop>` (OsmAnd's documentation says so): read as
    /// HDOP × 5 m, 60 % of a tester's OsmAnd walk was refused for accuracy.
    @Test func readsOsmAndsAndLocusHDOPAsTheAccuracyInMetres() throws {
        for creator in ["OsmAnd~ 4.7.9", "OsmAnd+ 4.6", "Locus Map 4.20"] {
            #expect(try first(Self.gpx(creator: creator, point: "<hdop>3.9</hdop>")).horizontalAccuracyMetres == 3.9)
        }
        #expect(try first(Self.gpx(creator: "GPSLogger", point: "<hdop>0.9</hdop>")).horizontalAccuracyMetres == 4.5)
        // An option given decides.
        let scaled = ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10))
        #expect(
            try first(Self.gpx(creator: "OsmAnd", point: "<hdop>3.9</hdop>"), options: scaled).horizontalAccuracyMetres
                == 39)
    }

    /// Apple Health's route export (`hAcc`, `vAcc`) and OpenTracks (`accuracy_horizontal`, `accuracy_vertical`)
    /// write the accuracies in metres inside `<extensions>`.
    @Test func readsTheAccuraciesAppleHealthAndOpenTracksWriteInExtensions() throws {
        let apple = try first(
            Self.gpx(
                creator: "Apple Health Export",
                point:
                    "<extensions><speed>3.0</speed><course>90.0</course><hAcc>3.5</hAcc><vAcc>3.1</vAcc></extensions>"))
        #expect(apple.horizontalAccuracyMetres == 3.5 && apple.verticalAccuracyMetres == 3.1)
        #expect(apple.speedMetresPerSecond == 3 && apple.courseDegrees == 90)
        let openTracks = try first(
            Self.gpx(
                creator: "OpenTracks",
                point: "<extensions><gpxtpx:TrackPointExtension xmlns:gpxtpx=\"x\"><gpxtpx:speed>1.1</gpxtpx:speed>"
                    + "</gpxtpx:TrackPointExtension><opentracks:accuracy_horizontal xmlns:opentracks=\"y\">4"
                    + "</opentracks:accuracy_horizontal><opentracks:accuracy_vertical xmlns:opentracks=\"y\">6"
                    + "</opentracks:accuracy_vertical></extensions>"))
        #expect(openTracks.horizontalAccuracyMetres == 4 && openTracks.verticalAccuracyMetres == 6)
        // At the point's own level those names are nobody's.
        #expect(try first(Self.gpx(creator: "x", point: "<hAcc>3.5</hAcc>")).horizontalAccuracy == .absent)
    }

    /// `jq .` or `jq '.locations[]'` of a Takeout `Records.json`: pretty-printed, refused as JSON Lines before.
    @Test func readsTakeoutRecordsPrettyPrinted() throws {
        let record = """
            {
              "latitudeE7": 481370983,
              "longitudeE7": 115753652,
              "accuracy": 12,
              "timestamp": "2024-05-01T06:00:00Z"
            }
            """
        let document =
            "{\n  \"locations\": [\n" + record + ",\n" + record.replacingOccurrences(of: "06:00:00", with: "06:00:10")
            + "\n  ]\n}\n"
        let stream = record + "\n" + record.replacingOccurrences(of: "06:00:00", with: "06:00:10") + "\n"
        for text in [document, stream] {
            #expect(FixFormat.sniff(Array(text.utf8)) == .locationHistory)
            var reader = AnyFixReader(stream: ByteStream(bytes: Array(text.utf8)), format: .locationHistory)
            let result = reader.readAll()
            #expect(result.error == nil && result.fixes.map(\.latitude) == [48.1370983, 48.1370983])
            #expect(result.fixes.first?.horizontalAccuracyMetres == 12)
        }
        // One per line stays JSON Lines.
        let lines =
            #"{"latitudeE7": 481370983, "longitudeE7": 115753652, "timestamp": "2024-05-01T06:00:00Z"}"# + "\n"
            + #"{"latitudeE7": 481370983, "longitudeE7": 115753652, "timestamp": "2024-05-01T06:00:10Z"}"# + "\n"
        #expect(FixFormat.sniff(Array(lines.utf8)) == .jsonLines)
    }

    /// phyphox's location export names its speed `Velocity (m/s)` and its course `Direction (°)`.
    @Test func readsPhyphoxsVelocityAndDirection() throws {
        let text =
            "time,Latitude (°),Longitude (°),Velocity (m/s),Direction (°),Horizontal Accuracy (m)\n"
            + "2024-05-01T06:00:00Z,48.1,11.5,1.4,90,4\n"
        var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)))
        let fix = try #require(try reader.next())
        #expect(fix.speedMetresPerSecond == 1.4 && fix.courseDegrees == 90 && fix.horizontalAccuracyMetres == 4)
    }

    /// A log whose lines start with a bracketed time is no JSON array.
    @Test func aLogOfBracketedTimesIsNoJSONArray() {
        let log = "[2024-05-01 08:00:00.123] $GNRMC,060000.00,A,4807.0,N,01134.5,E,0.1,,010524,,,A*64\n"
        #expect(FixFormat.sniff(Array(log.utf8)) == .nmea)
        #expect(FixFormat.sniff(Array("[\n  {\"time\": 1}\n]".utf8)) == .geojson)
        #expect(FixFormat.sniff(Array("[]".utf8)) == .geojson)
    }
}
