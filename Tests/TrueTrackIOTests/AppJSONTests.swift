import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// JSON as apps and servers write it: a web app's serialised W3C `GeolocationPosition`, TransistorSoft's
/// background-geolocation records and HTTP bodies, and Traccar's API positions.
@Suite struct AppJSONTests {
    func readDocument(_ text: String) -> ReadResult {
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(text.utf8)))
        return reader.readAll()
    }

    func readLines(_ text: String) -> ReadResult {
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array(text.utf8)))
        return reader.readAll()
    }

    func ms(_ iso: String) -> Int64 { ISO8601.parse(iso)!.millisecondsSince1970 }

    static let w3c = """
        {"timestamp":1714557600000,"coords":{"latitude":48.1,"longitude":11.5,"accuracy":5,"altitude":null,\
        "altitudeAccuracy":null,"heading":null,"speed":1.2}}
        {"timestamp":1714557601000,"coords":{"latitude":48.10001,"longitude":11.5,"accuracy":6,"altitude":510,\
        "altitudeAccuracy":4,"heading":350,"speed":null}}
        """

    @Test func readsAWebAppsSerialisedGeolocationPositionsFromTheirCoords() throws {
        let result = readLines(Self.w3c)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == 1_714_557_600_000)
        #expect(first.latitude == 48.1 && first.longitude == 11.5)
        #expect(first.horizontalAccuracy == .metres(5) && first.speedMetresPerSecond == 1.2)
        #expect(first.altitudeMetres == nil && first.courseDegrees == nil)
        let second = result.fixes[1]
        #expect(second.altitudeMetres == 510 && second.verticalAccuracyMetres == 4 && second.courseDegrees == 350)
        #expect(second.speedMetresPerSecond == nil)
    }

    static let transistorFirst = """
        {"timestamp":"2024-05-01T10:00:00.000Z","odometer":0,"is_moving":true,"uuid":"a","event":"motionchange",\
        "coords":{"latitude":48.1,"longitude":11.5,"accuracy":8,"speed":-1,"speed_accuracy":-1,"heading":-1,\
        "heading_accuracy":-1,"altitude":32.4,"altitude_accuracy":15,"ellipsoidal_altitude":32.4,"floor":null},\
        "activity":{"type":"on_foot","confidence":80},"battery":{"level":0.98,"is_charging":false},"extras":{}}
        """
    static let transistorSecond = """
        {"timestamp":"2024-05-01T10:00:05.000Z","odometer":5,"is_moving":true,"uuid":"b","coords":{"latitude":48.10004,\
        "longitude":11.5,"accuracy":6,"speed":1.3,"speed_accuracy":0.5,"heading":0,"heading_accuracy":10,\
        "altitude":32.4,"altitude_accuracy":15},"activity":{"type":"in_vehicle"},"battery":{"level":0.98},"extras":{}}
        """

    func expectTransistorFixes(_ result: ReadResult) throws {
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        #expect(first.horizontalAccuracy == .metres(8))
        // iOS's -1 for an unknown speed, speed accuracy, heading and heading accuracy: absent.
        #expect(first.speedMetresPerSecond == nil && first.courseDegrees == nil)
        #expect(first.speedAccuracyMetresPerSecond == nil && first.courseAccuracyDegrees == nil)
        #expect(first.verticalAccuracyMetres == 15)
        #expect(first.activity == ActivityReading(kind: .onFoot, confidence: 80))
        let second = result.fixes[1]
        #expect(second.speedMetresPerSecond == 1.3 && second.speedAccuracyMetresPerSecond == 0.5)
        #expect(second.courseDegrees == 0 && second.courseAccuracyDegrees == 10)
        // An activity object without a confidence is stated unqualified, as a bare name is.
        #expect(second.activity == ActivityReading(kind: .inVehicle, confidence: 100))
    }

    @Test func readsTransistorSoftRecordsWithTheirActivityObjects() throws {
        try expectTransistorFixes(readLines(Self.transistorFirst + "\n" + Self.transistorSecond))
        try expectTransistorFixes(readDocument("[" + Self.transistorFirst + "," + Self.transistorSecond + "]"))
    }

    @Test func readsTransistorSoftHTTPBodiesOfOneLocationAndOfABatch() throws {
        try expectTransistorFixes(
            readDocument("{\"location\": [" + Self.transistorFirst + "," + Self.transistorSecond + "]}"))
        let one = readLines("{\"location\": " + Self.transistorFirst + "}")
        #expect(one.error == nil && one.fixes.count == 1)
        #expect(one.fixes.first?.horizontalAccuracy == .metres(8))
        // A batch body on one line is one document, not a JSON Lines record.
        let body = "{\"location\": [" + Self.transistorFirst + "," + Self.transistorSecond + "]}"
        #expect(FixFormat.sniff(Array(body.utf8)) == .geojson)
        #expect(FixFormat.sniff(Array(("{\"location\": " + Self.transistorFirst + "}").utf8)) == .jsonLines)
    }

    @Test func aLocationMemberThatIsNotAnObjectIsNoFix() {
        // A place name under `location` (a feature's label) is not read, and does not reject the record.
        let result = readLines(#"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"location":"Munich"}"#)
        #expect(result.error == nil && result.fixes.count == 1)
    }

    static let traccar = """
        [{"id":1,"deviceId":3,"protocol":"osmand","serverTime":"2024-05-01T10:00:09.000+00:00",\
        "deviceTime":"2024-05-01T10:00:04.000+00:00","fixTime":"2024-05-01T10:00:00.000+00:00","outdated":false,\
        "valid":true,"latitude":48.1,"longitude":11.5,"altitude":500,"speed":10.0,"course":90,"address":null,\
        "accuracy":5,"network":null,"attributes":{"distance":0,"totalDistance":0,"motion":true}},
        {"id":2,"deviceId":3,"protocol":"osmand","serverTime":"2024-05-01T10:00:10.000+00:00",\
        "deviceTime":"2024-05-01T10:00:10.000+00:00","fixTime":"2024-05-01T10:00:00.000+00:00","outdated":false,\
        "valid":false,"latitude":48.1,"longitude":11.5,"altitude":500,"speed":0,"course":0,"accuracy":5},
        {"id":3,"deviceId":3,"protocol":"osmand","serverTime":"2024-05-01T10:00:12.000+00:00",\
        "deviceTime":"2024-05-01T10:00:11.000+00:00","fixTime":"2024-05-01T10:00:11.000+00:00","valid":true,\
        "latitude":48.1005,"longitude":11.5,"speed":9.5,"course":0,"accuracy":5}]
        """

    @Test func readsTraccarPositionsByTheirFixTimeWithKnotsAndWithoutRepeats() throws {
        let result = readDocument(Self.traccar)
        #expect(result.error == nil)
        // The second position repeats the first without a new fix (`valid` false).
        #expect(result.fixes.count == 2)
        #expect(result.report.skipped(.noFix) == 1)
        let first = try #require(result.fixes.first)
        // The fix's own time, not when the device sent it or the server received it.
        #expect(first.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        // Traccar's speed is in knots: 10 kn = 5.144 m/s.
        #expect(abs(first.speedMetresPerSecond! - 10 * 1852.0 / 3600) < 1e-12)
        #expect(first.horizontalAccuracy == .metres(5) && first.altitudeMetres == 500)
        #expect(result.fixes[1].timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:11Z"))
    }

    @Test func aPositionWithoutAFixTimeTakesTheDeviceTimeThenTheServerTime() throws {
        let device = readLines(
            #"{"deviceId":3,"deviceTime":"2024-05-01T10:00:04Z","serverTime":"2024-05-01T10:00:09Z","latitude":48.1,"longitude":11.5}"#
        )
        #expect(device.fixes.first?.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:04Z"))
        let server = readLines(#"{"deviceId":3,"serverTime":"2024-05-01T10:00:09Z","latitude":48.1,"longitude":11.5}"#)
        #expect(server.fixes.first?.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:09Z"))
    }

    @Test func speedAndValidityAreTraccarsOnlyBesideItsDeviceAndTimes() throws {
        // Without a device id a `speed` is metres per second and a `valid` is not read.
        let plain = readLines(
            #"{"fixTime":"2024-05-01T10:00:00Z","valid":false,"latitude":48.1,"longitude":11.5,"speed":10}"#)
        #expect(plain.fixes.count == 1)
        #expect(plain.fixes.first?.speedMetresPerSecond == 10)
        // A device id alone (an IoT export's) does not make a Traccar position either.
        let device = readLines(
            #"{"deviceId":7,"time":"2024-05-01T10:00:00Z","latitude":48.1,"longitude":11.5,"speed":10}"#)
        #expect(device.fixes.first?.speedMetresPerSecond == 10)
    }
}
