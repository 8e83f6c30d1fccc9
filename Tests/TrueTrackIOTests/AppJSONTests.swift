import Foundation
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
    // MARK: After a reviewer

    @Test func aTraccarAccuracyOfZeroIsNone() throws {
        // Traccar writes 0 for a tracker that reports no accuracy: read as invalid, every fix was rejected.
        let result = readDocument(
            #"[{"deviceId":3,"protocol":"gt06","fixTime":"2024-05-01T10:00:00Z","valid":true,"latitude":48.1,"longitude":11.5,"speed":2.0,"accuracy":0.0}]"#
        )
        #expect(result.fixes.first?.horizontalAccuracy == .absent)
        // Elsewhere an accuracy of 0 stays what it says (invalid).
        let plain = readLines(#"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"accuracy":0}"#)
        #expect(plain.fixes.first?.horizontalAccuracy == .invalid)
    }

    @Test func aNestedObjectNeitherMovesNorRejectsARecordWithItsOwnPosition() throws {
        // A place beside the fix's position, before or after it: the record's own fields are the fix.
        for line in [
            #"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"accuracy":5,"location":{"name":"Office","lat":52.5,"lon":13.4,"accuracy":100}}"#,
            #"{"location":{"name":"Office","lat":52.5,"lon":13.4,"accuracy":100},"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"accuracy":5}"#,
            #"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"accuracy":5,"location":{"provider":{"name":"Acme"}}}"#,
        ] {
            let result = readLines(line)
            #expect(result.error == nil, "\(line)")
            let fix = try #require(result.fixes.first)
            #expect(fix.latitude == 48.1 && fix.longitude == 11.5 && fix.horizontalAccuracy == .metres(5), "\(line)")
        }
        // A Point feature's properties holding a nested object with a time, an accuracy and a speed of its own.
        let feature = readDocument(
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[11.5,48.1]},"properties":{"time":"2024-05-01T10:00:00Z","accuracy":5,"location":{"time":"2023-01-01T00:00:00Z","accuracy":2000,"speed":30},"coords":{"altitude":-999}}}"#
        )
        let fix = try #require(feature.fixes.first)
        #expect(fix.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        #expect(fix.horizontalAccuracy == .metres(5) && fix.speedMetresPerSecond == nil && fix.altitudeMetres == nil)
    }

    @Test func aLocationArrayOfNumbersIsARecordsMemberNotItsRecords() throws {
        let lines = """
            {"location":[11.5,48.1],"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5}
            {"location":[11.5001,48.1],"time":"2024-05-01T10:00:05Z","lat":48.1,"lon":11.5001}
            """
        #expect(FixFormat.sniff(Array(lines.utf8)) == .jsonLines)
        #expect(readLines(lines).fixes.count == 2)
        let one = #"{"location":[11.5,48.1],"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5}"#
        #expect(FixFormat.sniff(Array(one.utf8)) == .jsonLines)
        #expect(readDocument(one).fixes.count == 1)
        let feature = readDocument(
            #"{"type":"Feature","location":[11.5,48.1],"geometry":{"type":"Point","coordinates":[11.5,48.1]},"properties":{"time":"2024-05-01T10:00:00Z"}}"#
        )
        #expect(feature.error == nil && feature.fixes.count == 1)
    }

    @Test func travelTimesNeitherRejectNorReplaceTheFixTime() throws {
        let unreadable = readLines(
            #"{"time":"2024-05-01T10:00:00Z","serverTime":"01.05.2024 10:00:03","lat":48.1,"lon":11.5}"#)
        #expect(unreadable.error == nil)
        #expect(unreadable.fixes.first?.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        let nullFixTime = readLines(#"{"time":"2024-05-01T10:00:00Z","fixTime":null,"lat":48.1,"lon":11.5}"#)
        #expect(nullFixTime.fixes.first?.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        // fixTime is the fix's time whichever member comes first.
        for line in [
            #"{"fixTime":"2024-05-01T10:00:00Z","time":"2024-05-01T10:00:09Z","lat":48.1,"lon":11.5}"#,
            #"{"time":"2024-05-01T10:00:09Z","fixTime":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5}"#,
        ] {
            #expect(readLines(line).fixes.first?.timestamp.millisecondsSince1970 == ms("2024-05-01T10:00:00Z"))
        }
    }

    @Test func aProviderChangeRecordIsAFix() throws {
        let result = readDocument(
            #"[{"timestamp":"2024-05-01T10:00:00.000Z","event":"providerchange","coords":{"latitude":48.1,"longitude":11.5,"accuracy":8},"provider":{"enabled":true,"status":3,"network":true,"gps":true}}]"#
        )
        #expect(result.error == nil && result.fixes.count == 1)
        #expect(result.fixes.first?.provider == .unknown)
    }

    @Test func onlyABareSpeedOfATraccarPositionIsKnots() throws {
        let named = readLines(
            #"{"deviceId":3,"protocol":"osmand","fixTime":"2024-05-01T10:00:00Z","latitude":48.1,"longitude":11.5,"speed_mps":10}"#
        )
        #expect(named.fixes.first?.speedMetresPerSecond == 10)
        // A device id and a server time are not Traccar's alone.
        let other = readLines(
            #"{"device_id":"abc","server_time":"2024-05-01T10:00:03Z","time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"speed":10}"#
        )
        #expect(other.fixes.first?.speedMetresPerSecond == 10)
    }
    // MARK: OwnTracks and Overland

    static let ownTracks = """
        {"_type":"location","acc":12,"alt":50,"batt":80,"cog":120,"lat":48.1,"lon":11.5,"tid":"ab","tst":1714557600,"vac":3,"vel":18}
        {"_type":"transition","event":"enter","lat":48.1,"lon":11.5,"tst":1714557605,"acc":10}
        {"_type":"location","acc":10,"lat":48.1001,"lon":11.5,"tid":"ab","tst":1714557610,"vel":18}
        """

    @Test func readsOwnTracksLocationsWithTheirShortNamesAndSkipsItsOtherMessages() throws {
        let result = readLines(Self.ownTracks)
        #expect(result.error == nil)
        #expect(result.fixes.count == 2 && result.report.skipped(.otherRecord) == 1)
        let first = try #require(result.fixes.first)
        #expect(first.timestamp.millisecondsSince1970 == 1_714_557_600_000)
        #expect(first.horizontalAccuracy == .metres(12) && first.verticalAccuracyMetres == 3)
        // `vel` is km/h: 18 km/h = 5 m/s.
        #expect(
            abs(first.speedMetresPerSecond! - 5) < 1e-12 && first.courseDegrees == 120 && first.altitudeMetres == 50)
        // The short names mean nothing without OwnTracks' `_type`.
        let other = readLines(#"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"acc":12,"vel":18}"#)
        #expect(other.fixes.first?.horizontalAccuracy == .absent && other.fixes.first?.speedMetresPerSecond == nil)
    }

    @Test func readsTheOwnTracksRecordersLines() throws {
        let rec = Self.ownTracks.split(separator: "\n").enumerated().map { index, json in
            "2024-05-01T10:00:\(String(format: "%02d", index * 5))Z\t*                 \t\(json)"
        }.joined(separator: "\n")
        #expect(FixFormat.sniff(Array(rec.utf8)) == .jsonLines)
        let result = readLines(rec)
        #expect(result.error == nil && result.fixes.count == 2)
        #expect(result.fixes.last?.timestamp.millisecondsSince1970 == 1_714_557_610_000)
    }

    @Test func readsAnOverlandBatchWrittenOnOneLine() throws {
        let body =
            #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[11.5,48.1]},"properties":{"timestamp":"2024-05-01T10:00:00Z","speed":1.3,"horizontal_accuracy":5,"motion":["walking"]}},"#
            + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[11.5,48.1001]},"properties":{"timestamp":"2024-05-01T10:00:10Z","speed":1.3,"horizontal_accuracy":5}}]}"#
        #expect(FixFormat.sniff(Array(body.utf8)) == .geojson)
        let result = readDocument(body)
        #expect(result.error == nil && result.fixes.count == 2)
        #expect(result.fixes.first?.horizontalAccuracy == .metres(5) && result.fixes.first?.speedMetresPerSecond == 1.3)
    }
    // MARK: After a second reviewer

    @Test func otherRecordsShortNamesAndTypeTagsReadAsBefore() throws {
        // An accelerometer's `acc`, a word under `vel` or `cog`: not OwnTracks', so neither read nor refused.
        let sensors = readLines(
            #"""
            {"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"acc":{"x":0.1,"y":0.2,"z":9.8}}
            {"time":"2024-05-01T10:00:01Z","lat":48.1001,"lon":11.5,"acc":[0.1,0.2,9.8]}
            {"time":"2024-05-01T10:00:02Z","lat":48.1002,"lon":11.5,"vel":"fast","cog":"N"}
            """#)
        #expect(sensors.error == nil && sensors.fixes.count == 3)
        #expect(sensors.report.unreadableFieldCount == 0)
        // Another serialiser's `_type` tag is no OwnTracks message.
        let tagged = readLines(
            #"""
            {"_type":"gpsfix","time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5}
            {"_type":"Location","time":"2024-05-01T10:00:01Z","lat":48.1,"lon":11.5}
            """#)
        #expect(tagged.fixes.count == 2)
        // An OwnTracks message other than a location is skipped even with a value that does not read.
        let transition = readLines(#"{"_type":"transition","lat":48.1,"lon":11.5,"tst":1714557600,"acc":"bad"}"#)
        #expect(transition.error == nil && transition.report.skipped(.otherRecord) == 1)
    }

    @Test func aBrokenLinesNestedFieldsDoNotReachTheNextRecord() throws {
        var reader = JSONLinesReader(
            stream: ByteStream(
                bytes: Array(
                    #"""
                    {"timestamp":"2024-05-01T10:00:00Z","coords":{"latitude":48.1,"longitude":11.5,"accuracy":5,]}
                    {"timestamp":"2024-05-01T10:00:01Z","coords":{"accuracy":7}}
                    """#.utf8)), options: ReadOptions(lenient: true))
        let result = reader.readAll()
        #expect(result.fixes.isEmpty)
        #expect(result.report.skipped(.missingPosition) == 1)
    }

    @Test func aNestedObjectsTraccarOrOwnTracksMembersAreAPlacesNotTheRecords() throws {
        let result = readLines(
            #"""
            {"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"location":{"_type":"waypoint","desc":"Office"}}
            {"time":"2024-05-01T10:00:01Z","lat":48.1,"lon":11.5,"location":{"name":"Office","valid":false,"deviceId":3,"protocol":"x"}}
            {"time":"2024-05-01T10:00:02Z","lat":48.1,"lon":11.5,"location":{"name":"Office","fixTime":"2020-01-01T00:00:00Z"}}
            """#)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [0, 1, 2].map { 1_714_557_600_000 + $0 * 1000 })
    }

    @Test func anUnusedNestedObjectsUnreadableFieldsAreNotCounted() throws {
        let line =
            #"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"location":{"name":"Office","accuracy":"high","altitude":"x"}}"#
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array(line.utf8)), options: ReadOptions(lenient: true))
        let result = reader.readAll()
        #expect(result.fixes.count == 1 && result.report.unreadableFieldCount == 0)
        // Taken by a record without a position, they are.
        let taken =
            #"{"time":"2024-05-01T10:00:00Z","coords":{"latitude":48.1,"longitude":11.5,"accuracy":"high"}}"#
        var second = JSONLinesReader(stream: ByteStream(bytes: Array(taken.utf8)), options: ReadOptions(lenient: true))
        let read = second.readAll()
        #expect(read.fixes.count == 1 && read.report.unreadableFieldCount == 1)
    }

    @Test func theRecordersLinesAreSniffedAfterABlankLineOrAByteOrderMark() {
        let line = "2024-05-01T10:00:00Z\t*   \t{\"_type\":\"location\",\"lat\":48.1,\"lon\":11.5,\"tst\":1714557600}\n"
        #expect(FixFormat.sniff(Array(("\n" + line).utf8)) == .jsonLines)
        #expect(FixFormat.sniff(Array(("\u{FEFF}" + line).utf8)) == .jsonLines)
    }

    // MARK: Sequences of documents

    @Test func readsALogOfBatchBodiesOnePerLine() throws {
        let log = #"""
            {"location":[{"timestamp":"2024-05-01T10:00:00Z","coords":{"latitude":48.1,"longitude":11.5,"accuracy":5}},{"timestamp":"2024-05-01T10:00:01Z","coords":{"latitude":48.10001,"longitude":11.5,"accuracy":5}}]}
            {"location":[{"timestamp":"2024-05-01T10:00:02Z","coords":{"latitude":48.10002,"longitude":11.5,"accuracy":5}}]}
            """#
        #expect(FixFormat.sniff(Array(log.utf8)) == .geojson)
        let result = readDocument(log)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [48.1, 48.10001, 48.10002])
    }

    @Test func readsOwnTracksExportOfLocationsOnOneLine() throws {
        let export =
            #"{"count":2,"locations":[{"_type":"location","tst":1714557600,"lat":48.1,"lon":11.5,"acc":5},{"_type":"location","tst":1714557601,"lat":48.10001,"lon":11.5,"acc":5}]}"#
        #expect(FixFormat.sniff(Array(export.utf8)) == .geojson)
        let result = readDocument(export)
        #expect(result.error == nil && result.fixes.count == 2)
        #expect(result.fixes.last?.timestamp.millisecondsSince1970 == 1_714_557_601_000)
        // A `locations` array deeper down is a member of a record, not the file's records.
        let record = #"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"meta":{"locations":[{"a":1}]}}"#
        #expect(FixFormat.sniff(Array(record.utf8)) == .jsonLines)
        let quoted = #"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"note":"\"locations\":[{"}"#
        #expect(FixFormat.sniff(Array(quoted.utf8)) == .jsonLines)
    }

    @Test func readsRecordsPrettyPrintedOneAfterAnother() throws {
        // What `jq '.[]'` prints: each record over several lines, one after another.
        let stream = """
            {
              "time": "2024-05-01T10:00:00Z",
              "lat": 48.1,
              "lon": 11.5
            }
            {
              "time": "2024-05-01T10:00:01Z",
              "lat": 48.10001,
              "lon": 11.5
            }
            \u{1E}[{"type":"Feature","geometry":{"type":"Point","coordinates":[11.5,48.10002]},"properties":{"time":"2024-05-01T10:00:02Z"}}]
            """
        #expect(FixFormat.sniff(Array(stream.utf8)) == .geojson)
        let result = readDocument(stream)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.latitude) == [48.1, 48.10001, 48.10002])
        #expect(result.report.recordsRead == 3)
        // A broken second record is an error naming its line; the first is kept.
        let broken = readDocument(
            "{\"time\":\"2024-05-01T10:00:00Z\",\"lat\":48.1,\"lon\":11.5}\n{\"time\": 5,\n  \"lat\" 48}")
        #expect(broken.fixes.count == 1)
        guard case .malformedRecord(let location, _, _)? = broken.error else {
            Issue.record("expected a malformed record, got \(String(describing: broken.error))")
            return
        }
        #expect(location.line == 3 && location.column == 9)
    }

    @Test func aJSONLinesNameDoesNotMakeADocumentJSONLines() throws {
        let folder = NSTemporaryDirectory() + "truetrack-batch-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/batch.jsonl"
        try #"{"location":[{"timestamp":"2024-05-01T10:00:00Z","coords":{"latitude":48.1,"longitude":11.5}}]}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: path) == .geojson)
    }

    // MARK: Overland's motion, an hdop

    @Test func readsOverlandsMotionAsTheActivity() throws {
        func feature(_ second: Int, _ motion: String) -> String {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[11.5,48.1]},"properties":{"timestamp":"2024-05-01T10:00:0\#(second)Z","horizontal_accuracy":5,"motion":\#(motion)}}"#
        }
        let motions = [#"["walking"]"#, #"["driving"]"#, #"["driving","stationary"]"#, "[]", #"["other"]"#, "true"]
        let body = #"{"locations":["# + motions.enumerated().map { feature($0, $1) }.joined(separator: ",") + "]}"
        let result = readDocument(body)
        #expect(result.error == nil && result.fixes.count == 6)
        #expect(
            result.fixes.map(\.activity?.kind) == [.walking, .inVehicle, .still, nil, nil, nil])
        // One activity is Core Motion's verdict; several, an undecided one (under the gates' 75).
        #expect(result.fixes.prefix(3).map(\.activity?.confidence) == [100, 100, 50])
    }

    @Test func anHDOPGivesTheAccuracyOfARecordThatStatesNone() throws {
        let result = readLines(
            #"""
            {"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"hdop":1.2}
            {"time":"2024-05-01T10:00:01Z","lat":48.1,"lon":11.5,"hdop":1.2,"accuracy":4}
            {"time":"2024-05-01T10:00:02Z","lat":48.1,"lon":11.5,"hdop":"n/a"}
            {"time":"2024-05-01T10:00:03Z","lat":48.1,"lon":11.5}
            """#)
        #expect(result.error == nil && result.report.unreadableFieldCount == 0)
        #expect(result.fixes.map(\.horizontalAccuracyMetres) == [6, 4, nil, nil])
        var scaled = JSONLinesReader(
            stream: ByteStream(bytes: Array(#"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"hdop":1.2}"#.utf8)),
            options: ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10)))
        #expect(scaled.readAll().fixes.first?.horizontalAccuracyMetres == 12)
    }

    // MARK: After a reviewer

    @Test func aRecordWithAPositionAndALocationsArrayIsAJSONLinesRecord() throws {
        let lines = #"""
            {"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"geofences":"x","location":[{"name":"home"}]}
            {"time":"2024-05-01T10:00:01Z","lat":48.2,"lon":11.6}
            """#
        #expect(FixFormat.sniff(Array(lines.utf8)) == .jsonLines)
        #expect(readLines(lines).fixes.count == 2)
        let places = #"{"time":"2024-05-01T10:00:00Z","latitude":48.1,"longitude":11.5,"locations":[{"name":"a"}]}"#
        #expect(FixFormat.sniff(Array(places.utf8)) == .jsonLines)
    }

    @Test func aLogOfBatchBodiesIsToldByAnyOfItsLines() throws {
        let batch =
            #"{"location":[{"timestamp":"2024-05-01T10:00:01Z","coords":{"latitude":48.1,"longitude":11.5}},{"timestamp":"2024-05-01T10:00:02Z","coords":{"latitude":48.1,"longitude":11.5}}]}"#
        let single = #"{"location":{"timestamp":"2024-05-01T10:00:00Z","coords":{"latitude":48.1,"longitude":11.5}}}"#
        for (first, fixes) in [(#"{"location":[]}"#, 2), (single, 3)] {
            let log = first + "\n" + batch + "\n"
            #expect(FixFormat.sniff(Array(log.utf8)) == .geojson, "\(first)")
            let result = readDocument(log)
            #expect(result.error == nil && result.fixes.count == fixes, "\(first)")
        }
    }

    @Test func aLongFirstLineNamedJSONLinesIsReadAsJSONLines() throws {
        let folder = NSTemporaryDirectory() + "truetrack-long-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/long.jsonl"
        let note = String(repeating: "x", count: 70_000)
        try (#"{"time":"2024-05-01T10:00:00Z","lat":48.1,"lon":11.5,"note":"\#(note)"}"# + "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: path) == .jsonLines)
    }

    @Test func overlandsActivitySettingDoesNotReplaceItsMotion() throws {
        let feature =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[11.5,48.1]},"properties":{"timestamp":"2024-05-01T10:00:00Z","motion":["driving","stationary"],"pauses":false,"activity":"other_navigation","horizontal_accuracy":5}}"#
        let fix = try #require(readDocument(#"{"locations":["# + feature + "]}").fixes.first)
        #expect(fix.activity?.kind == .still && fix.activity?.confidence == 50)
    }

    @Test func recordsOneAfterAnotherKeepTheirSegments() throws {
        let stream = """
            {"time": "2024-05-01T10:00:00Z", "lat": 48.1, "lon": 11.5, "segment": 0}
            {
              "time": "2024-05-01T10:00:01Z", "lat": 48.1, "lon": 11.5, "segment": 1
            }
            """
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(stream.utf8)))
        var segments: [Int?] = []
        while let _ = try reader.next() { segments.append(reader.lastSegmentIndex) }
        #expect(segments == [0, 1])
    }
}
