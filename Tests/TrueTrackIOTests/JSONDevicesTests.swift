import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// The device a JSON record names (Traccar's `deviceId`, `device_id`, `device`, `imei`, `uniqueId`, Google's
/// `deviceTag`): a file of several devices is read one device at a time, as a CSV's device column.
@Suite struct JSONDevicesTests {
    func read(_ text: String, lines: Bool, devices: DeviceSelection = .single) -> (ReadResult, [(String, Int)]) {
        let options = ReadOptions(devices: devices)
        if lines {
            var reader = JSONLinesReader(stream: ByteStream(bytes: Array(text.utf8)), options: options)
            return (reader.readAll(), reader.devices.map { ($0.id, $0.fixes) })
        }
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(text.utf8)), options: options)
        return (reader.readAll(), reader.devices.map { ($0.id, $0.fixes) })
    }

    /// Traccar's `/api/positions` for two trackers, interleaved by time: device 1 walks north from 48°, device 2
    /// from 52°.
    static func traccar(records: Int = 6) -> [String] {
        (0..<records).map { i in
            let device = i % 2 + 1
            return #"{"id":\#(i + 1),"deviceId":\#(device),"protocol":"osmand","fixTime":"2024-05-01T10:00:0\#(i)Z","#
                + #""latitude":\#(device == 1 ? 48 : 52).000\#(i),"longitude":11.0,"accuracy":5,"valid":true}"#
        }
    }

    @Test func aSecondDevicesFirstRecordEndsTheReadingNamingTheDevicesAndTheMember() throws {
        let records = Self.traccar()
        for lines in [true, false] {
            let text = lines ? records.joined(separator: "\n") : "[" + records.joined(separator: ",\n") + "]"
            let (result, devices) = read(text, lines: lines)
            #expect(result.fixes.map(\.latitude) == [48.0000], "merged, two trackers made one track 4° long")
            guard case .severalDevices(let location, let field, let ids)? = result.error else {
                Issue.record("expected several devices, got \(String(describing: result.error))")
                continue
            }
            #expect(field == "deviceId" && ids == ["1", "2"])
            #expect(location.line == 2)
            #expect(location.column == 20, "at the second record's device value")
            #expect(devices.map(\.0) == ["1", "2"])
            #expect(result.error?.endsReadingEvenWhenLenient == false)
        }
    }

    @Test func aNamedDeviceKeepsItsRecordsAndSkipsTheOthers() throws {
        let text = Self.traccar().joined(separator: "\n")
        for lines in [true, false] {
            let input = lines ? text : "[" + Self.traccar().joined(separator: ",") + "]"
            let (two, devices) = read(input, lines: lines, devices: .only("2"))
            #expect(two.error == nil)
            #expect(two.fixes.map(\.latitude) == [52.0001, 52.0003, 52.0005])
            #expect(two.report.skipped(.deviceFiltered) == 3)
            #expect(devices.map(\.0) == ["1", "2"] && devices.map(\.1) == [0, 3])
            let (all, census) = read(input, lines: lines, devices: .all)
            #expect(all.error == nil && all.fixes.count == 6)
            #expect(census.map(\.1) == [3, 3])
            let (none, _) = read(input, lines: lines, devices: .only("3"))
            #expect(none.fixes.isEmpty && none.report.skipped(.deviceFiltered) == 6)
        }
    }

    @Test func otherNamesOfTheDeviceAreReadAndAnObjectNamesNone() throws {
        for name in ["device_id", "device", "imei", "uniqueId", "IMEI"] {
            let text = """
                {"time":"2024-05-01T10:00:00Z","lat":48.0,"lon":11.0,"\(name)":"A"}
                {"time":"2024-05-01T10:00:01Z","lat":48.0,"lon":11.0,"\(name)":"B"}
                """
            let (result, _) = read(text, lines: true)
            guard case .severalDevices(_, let field, ["A", "B"])? = result.error else {
                Issue.record("\(name): expected several devices, got \(String(describing: result.error))")
                continue
            }
            #expect(field == name)
        }
        // TransistorSoft's HTTP body carries the phone's `device` as an object of its model: no device ID.
        let body = """
            {"device":{"model":"Pixel 7","uuid":"x"},"location":{"timestamp":"2024-05-01T10:00:00Z",\
            "coords":{"latitude":48.0,"longitude":11.0,"accuracy":5}}}
            {"device":{"model":"Pixel 7","uuid":"y"},"location":{"timestamp":"2024-05-01T10:00:01Z",\
            "coords":{"latitude":48.00001,"longitude":11.0,"accuracy":5}}}
            """
        let (transistor, devices) = read(body, lines: true)
        #expect(transistor.error == nil && transistor.fixes.count == 2 && devices.isEmpty)
        // A device member inside a nested object (a place's) is not the record's.
        let nested = """
            {"time":"2024-05-01T10:00:00Z","lat":48.0,"lon":11.0,"place":{"device":"A"}}
            {"time":"2024-05-01T10:00:01Z","lat":48.0,"lon":11.0,"place":{"device":"B"}}
            """
        #expect(read(nested, lines: true).0.fixes.count == 2)
        // With a device named, a record naming none is not that device's.
        let (mixed, _) = read(
            """
            {"time":"2024-05-01T10:00:00Z","lat":48.0,"lon":11.0,"device":"A"}
            {"time":"2024-05-01T10:00:01Z","lat":48.0,"lon":11.0}
            """, lines: true, devices: .only("A"))
        #expect(mixed.fixes.count == 1 && mixed.report.skipped(.deviceFiltered) == 1)
    }

    @Test func aTakeoutRecordsFileOfTwoPhonesIsReadOnePhoneAtATime() throws {
        let records = """
            {"locations":[
            {"latitudeE7":481000000,"longitudeE7":115000000,"accuracy":10,"deviceTag":-1111,"timestamp":"2024-05-01T10:00:00Z"},
            {"latitudeE7":521000000,"longitudeE7":134000000,"accuracy":10,"deviceTag":2222,"timestamp":"2024-05-01T10:00:05Z"},
            {"latitudeE7":481000100,"longitudeE7":115000000,"accuracy":10,"deviceTag":-1111,"timestamp":"2024-05-01T10:00:10Z"}
            ]}
            """
        var reader = GeoJSONReader(stream: ByteStream(bytes: Array(records.utf8)))
        reader.rootRecordsAreLocationHistory = true
        let merged = reader.readAll()
        #expect(merged.fixes.count == 1)
        guard case .severalDevices(_, "deviceTag", ["-1111", "2222"])? = merged.error else {
            Issue.record("expected several devices, got \(String(describing: merged.error))")
            return
        }
        var one = GeoJSONReader(
            stream: ByteStream(bytes: Array(records.utf8)), options: ReadOptions(devices: .only("-1111")))
        one.rootRecordsAreLocationHistory = true
        let phone = one.readAll()
        #expect(phone.error == nil && phone.fixes.map(\.latitude) == [48.1, 48.10001])
    }

    @Test func aPathReaderTakesADeviceForJSONAndStillRefusesItForGPX() throws {
        let path = NSTemporaryDirectory() + "truetrack-json-devices-\(getpid()).jsonl"
        defer { unlink(path) }
        try Self.traccar().joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        var reader = try AnyFixReader(path: path, options: ReadOptions(devices: .only("1")))
        let result = reader.readAll()
        #expect(result.error == nil && result.fixes.count == 3)
        #expect(reader.deviceField == "deviceId" && reader.devices.map(\.fixes) == [3, 0])
        let gpx = NSTemporaryDirectory() + "truetrack-json-devices-\(getpid()).gpx"
        defer { unlink(gpx) }
        try #"<gpx version="1.1"></gpx>"#.write(toFile: gpx, atomically: false, encoding: .utf8)
        #expect(throws: ReadError.self) { try AnyFixReader(path: gpx, options: ReadOptions(devices: .only("1"))) }
    }

    /// A reviewer's records naming their tracker twice (`deviceId` and `uniqueId`; Overland's `device_id` and
    /// `unique_id`) were two devices at the first record: the first member names the record's device.
    @Test func aRecordNamingItsDeviceTwiceIsOneDevice() throws {
        let twice = (0..<3).map { i in
            #"{"time":"2024-05-01T10:00:0\#(i)Z","lat":48.0,"lon":11.0,"deviceId":3,"uniqueId":"358899051234567"}"#
        }.joined(separator: "\n")
        let (result, devices) = read(twice, lines: true)
        #expect(result.error == nil && result.fixes.count == 3)
        #expect(devices.map(\.0) == ["3"] && devices.map(\.1) == [3])
        let (three, _) = read(twice, lines: true, devices: .only("3"))
        #expect(three.fixes.count == 3)
    }

    /// A record rejected (or giving no fix) names no device to the file: a reviewer's A, B with a bad latitude, A, A
    /// read leniently ended at the third record with "a second device" naming B.
    @Test func aRecordGivingNoFixNamesNoDevice() throws {
        let text = """
            {"time":"2024-05-01T10:00:00Z","lat":48.0,"lon":11.0,"device":"A"}
            {"time":"2024-05-01T10:00:01Z","lat":"x","lon":11.0,"device":"B"}
            {"time":"2024-05-01T10:00:01Z","lat":95.0,"lon":11.0,"device":"D"}
            {"time":"2024-05-01T10:00:02Z","lat":48.0,"lon":11.0,"device":"A"}
            {"lat":48.0,"lon":11.0,"device":"C"}
            {"time":"2024-05-01T10:00:03Z","lat":48.0,"lon":11.0,"device":"A"}
            """
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array(text.utf8)), options: ReadOptions(lenient: true))
        let result = reader.readAll()
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.fixes.count == 3)
        #expect(reader.devices.map(\.id) == ["A"])
    }

    /// A device member whose value names no device (an object, `null`, `""`) leaves the file without a device
    /// field: `info --json` reported `deviceColumn: "device"` with no devices for a TransistorSoft body.
    @Test func aDeviceMemberNamingNoDeviceIsNoDeviceField() throws {
        let text = """
            {"time":"2024-05-01T10:00:00Z","lat":48.0,"lon":11.0,"device":{"model":"Pixel 7"}}
            {"time":"2024-05-01T10:00:01Z","lat":48.0,"lon":11.0,"device_id":""}
            {"time":"2024-05-01T10:00:02Z","lat":48.0,"lon":11.0,"imei":null}
            """
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array(text.utf8)))
        #expect(reader.readAll().fixes.count == 3)
        #expect(reader.decoder.deviceField == nil && reader.devices.isEmpty)
    }

    /// A file cut inside a second tracker's LineString: its salvaged positions bypassed the device choice (a
    /// reviewer's: both trackers read as one track, `--device A` kept B's positions).
    @Test func positionsSalvagedFromACutLineAreTheirDevices() throws {
        func line(_ device: String, _ n: Int, from second: Int) -> String {
            let coordinates = (0..<n).map { "[11.0, 48.\(1000 + second + $0)]" }.joined(separator: ",")
            let times = (0..<n).map { "\"2024-05-01T10:00:\(10 + second + $0)Z\"" }.joined(separator: ",")
            return #"{"type":"Feature","properties":{"deviceId":"\#(device)","times":[\#(times)]},"#
                + #""geometry":{"type":"LineString","coordinates":[\#(coordinates)]}}"#
        }
        let whole = #"{"type":"FeatureCollection","features":["# + line("A", 3, from: 0) + "," + line("B", 5, from: 10)
        let cut = String(whole.prefix(whole.count - 30))
        let (merged, _) = read(cut, lines: false)
        #expect(merged.fixes.count == 3, "\(merged.fixes.count) fixes")
        guard case .severalDevices(_, "deviceId", ["A", "B"])? = merged.error else {
            Issue.record("expected several devices, got \(String(describing: merged.error))")
            return
        }
        let (a, devices) = read(cut, lines: false, devices: .only("A"))
        #expect(a.fixes.count == 3)
        #expect(devices.map(\.0) == ["A", "B"])
    }
}
