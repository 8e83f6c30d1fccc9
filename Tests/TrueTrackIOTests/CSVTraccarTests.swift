import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// Traccar's CSV export (its positions table): three times, a speed in knots, a `valid` flag, a device column.
@Suite struct CSVTraccarTests {
    /// The header of Traccar's positions export.
    static let header =
        "id,protocol,deviceid,servertime,devicetime,fixtime,valid,latitude,longitude,altitude,speed,course,"
        + "address,attributes,accuracy,network"

    /// One row of a Traccar export: the fix at `fixtime`, sent 1 s later (device time) and received 2 s later
    /// (server time); `speedKnots` as Traccar writes it.
    static func row(
        id: Int, device: String = "861234050001234", fixtime: String, valid: Bool = true,
        latitude: Double, longitude: Double, speedKnots: Double = 0
    ) -> String {
        // "2024-03-05 22:40:00" + 1 s and + 2 s, on the same minute in these tests.
        let seconds = Int(fixtime.suffix(2))!
        let prefix = fixtime.dropLast(2)
        let later = { (k: Int) in prefix + String(format: "%02d", seconds + k) }
        return "\(id),teltonika,\(device),\(later(2)),\(later(1)),\(fixtime),\(valid),\(latitude),\(longitude),"
            + "31.1,\(speedKnots),284,,\"{\"\"ignition\"\": true, \"\"sat\"\": 9}\",6.3,"
    }

    static func read(_ text: String, options: ReadOptions = ReadOptions()) -> ReadResult {
        var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8), name: "traccar.csv"), options: options)
        return reader.readAll()
    }

    /// `fixtime` is read, not `servertime` (leftmost, but when the server received the record) nor
    /// `devicetime`; without `fixtime` the device's time, and the server's only when it is the only one.
    @Test func readsTheFixTimeOfSeveralTimeColumns() throws {
        let text = Self.header + "\n" + Self.row(id: 1, fixtime: "2024-03-05 22:40:10", latitude: 37.4, longitude: -122)
        let result = Self.read(text + "\n")
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.fixes.first?.timestamp == ISO8601.parse("2024-03-05T22:40:10Z"))
        var reader = CSVReader(stream: ByteStream(bytes: Array((text + "\n").utf8)))
        _ = try reader.next()
        #expect(reader.timeColumnName == "fixtime")

        let withoutFix = "servertime,devicetime,lat,lon\n2024-03-05 22:40:12,2024-03-05 22:40:11,37.4,-122\n"
        #expect(Self.read(withoutFix).fixes.first?.timestamp == ISO8601.parse("2024-03-05T22:40:11Z"))
        let serverOnly = "server_time,lat,lon\n2024-03-05 22:40:12,37.4,-122\n"
        #expect(Self.read(serverOnly).fixes.first?.timestamp == ISO8601.parse("2024-03-05T22:40:12Z"))
        // A generic time name is the fix's time too, wherever it stands.
        let renamed =
            "servertime,devicetime,time,lat,lon\n2024-03-05 22:40:12,2024-03-05 22:40:11,2024-03-05 22:40:10,37.4,-122\n"
        #expect(Self.read(renamed).fixes.first?.timestamp == ISO8601.parse("2024-03-05T22:40:10Z"))
        #expect(CSVColumn.timePreference(key: "fixtime") < CSVColumn.timePreference(key: "devicetime"))
        #expect(CSVColumn.timePreference(key: "devicetime") < CSVColumn.timePreference(key: "servertime"))
    }

    /// Traccar writes its speed in knots: a Traccar export's bare `speed` is read as knots (10 kn = 5.144 m/s),
    /// the same column in any other CSV as metres per second, and a device column alone does not make an export
    /// Traccar's.
    @Test func readsATraccarExportsSpeedInKnots() throws {
        let text =
            Self.header + "\n"
            + Self.row(id: 1, fixtime: "2024-03-05 22:40:10", latitude: 37.4, longitude: -122, speedKnots: 10) + "\n"
        var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)))
        let fix = try #require(try reader.next())
        #expect(reader.isTraccarExport)
        #expect(abs(try #require(fix.speedMetresPerSecond) - 10 * 1852.0 / 3600) < 1e-9)
        #expect(fix.courseDegrees == 284 && fix.horizontalAccuracyMetres == 6.3 && fix.altitudeMetres == 31.1)
        // Upper case (a database dump's header), and the API's camel case without the `valid` column.
        let dump =
            "ID,PROTOCOL,DEVICEID,DEVICETIME,LATITUDE,LONGITUDE,SPEED\n1,osmand,3,2024-03-05 22:40:10,37.4,-122,10\n"
        #expect(abs((Self.read(dump).fixes.first?.speedMetresPerSecond ?? 0) - 5.144_444) < 1e-6)
        let api = "deviceId,fixTime,latitude,longitude,speed\n3,2024-03-05T22:40:10Z,37.4,-122,10\n"
        #expect(abs((Self.read(api).fixes.first?.speedMetresPerSecond ?? 0) - 5.144_444) < 1e-6)
        // Not Traccar's: metres per second.
        for other in [
            "time,lat,lon,speed\n2024-03-05T22:40:10Z,37.4,-122,10\n",
            "deviceid,time,lat,lon,speed\n3,2024-03-05T22:40:10Z,37.4,-122,10\n",
        ] {
            #expect(Self.read(other).fixes.first?.speedMetresPerSecond == 10, "\(other)")
        }
        // A unit in the name still decides.
        let named = "deviceid,fixtime,lat,lon,speed_kmh\n3,2024-03-05T22:40:10Z,37.4,-122,36\n"
        #expect(abs((Self.read(named).fixes.first?.speedMetresPerSecond ?? 0) - 10) < 1e-9)
    }

    /// A database dump writes `valid` as 1 / 0 after a time without a zone: the fast time parser took `,1` for a
    /// decimal comma's fraction (100 ms) and ate the column, and the file failed at its second row quoting the
    /// latitude (a reviewer's). And an accuracy of 0 (a tracker that reports none) is none, not invalid.
    @Test func readsAValidColumnOfDigitsAfterATimeAndAnAccuracyOfZeroAsNone() throws {
        var text = Self.header + "\n"
        for k in 0..<4 {
            text +=
                "\(k + 1),osmand,3,2024-05-01 10:00:0\(k + 5),2024-05-01 10:00:0\(k),2024-05-01 10:00:0\(k),"
                + "\(k == 2 ? 0 : 1),48.1000\(k),11.5,500,1.0,90,,{},\(k == 3 ? "4.5" : "0"),\n"
        }
        let result = Self.read(text)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.fixes.map(\.timestamp.millisecondsSince1970) == [0, 1, 3].map { 1_714_557_600_000 + $0 * 1000 })
        #expect(result.report.skipped(.noFix) == 1)
        #expect(result.fixes.map(\.horizontalAccuracy) == [.absent, .absent, .metres(4.5)])
    }

    /// A `valid=false` row (a tracker repeating its last position without a new fix) is no fix: skipped and
    /// counted as ``SkipReason/noFix``; an empty `valid` is a fix, and a value that is no boolean is an error
    /// naming the line and the field.
    @Test func skipsRowsThatAreNotAFix() throws {
        var text = Self.header + "\n"
        for k in 0..<6 {
            text +=
                Self.row(
                    id: k + 1, fixtime: "2024-03-05 22:40:\(10 + k * 5)", valid: k % 3 != 2,
                    latitude: 37.4 + Double(k) * 1e-4,
                    longitude: -122, speedKnots: 8) + "\n"
        }
        let result = Self.read(text)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.fixes.count == 4)
        #expect(result.report.skipped(.noFix) == 2)
        #expect(result.fixes.map { $0.timestamp.millisecondsSince1970 / 1000 % 60 } == [10, 15, 25, 30])
        // Postgres writes t and f; an empty value says nothing against the fix.
        let dump =
            "deviceid,fixtime,valid,lat,lon\n3,2024-03-05 22:40:10,t,37.4,-122\n3,2024-03-05 22:40:11,f,37.4,-122\n"
            + "3,2024-03-05 22:40:12,,37.4,-122\n"
        let dumped = Self.read(dump)
        #expect(dumped.fixes.count == 2 && dumped.report.skipped(.noFix) == 1)
        let bad = Self.read("deviceid,fixtime,valid,lat,lon\n3,2024-03-05 22:40:10,A,37.4,-122\n")
        guard case .malformedField(let place, let field, _, let found)? = bad.error else {
            Issue.record("unexpected \(String(describing: bad.error))")
            return
        }
        #expect(place.line == 2 && field == "valid" && found == "A")
        // Outside a Traccar export a `valid` column is not read (Qstarz's holds SPS, DGPS…).
        let other = Self.read("time,lat,lon,valid\n2024-03-05T22:40:10Z,37.4,-122,false\n")
        #expect(other.fixes.count == 1 && other.error == nil)
    }

    /// Two vans, their rows interleaved by time, as a fleet export writes them.
    static func twoVans() -> String {
        var text = Self.header + "\n"
        for k in 0..<4 {
            let time = "2024-03-05 22:40:\(10 + k * 10)"
            text +=
                Self.row(
                    id: 2 * k + 1, device: "861234050001234", fixtime: time, latitude: 37.4 + Double(k) * 1e-3,
                    longitude: -122) + "\n"
            text +=
                Self.row(
                    id: 2 * k + 2, device: "861234050009999", fixtime: time, latitude: 48.1,
                    longitude: 11.5 + Double(k) * 1e-3) + "\n"
        }
        return text
    }

    /// A file of two devices read as one device's is an error at the first row of the second device, naming the
    /// file, the line, the field and the devices seen; the first device's fixes before it are kept, and nothing
    /// after it is read (merged, two vans made one track of jumps between cities).
    @Test func aSecondDeviceIsAnErrorNamingTheDevices() throws {
        let result = Self.read(Self.twoVans(), options: ReadOptions(lenient: true))
        guard case .severalDevices(let place, let field, let devices)? = result.error else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(place.file == "traccar.csv" && place.line == 3 && place.column == 13)
        #expect(field == "deviceid")
        #expect(devices == ["861234050001234", "861234050009999"])
        #expect(result.fixes.count == 1)
        let message = try #require(result.error).description
        #expect(message.hasPrefix("traccar.csv:3:13 (byte "), "\(message)")
        #expect(message.contains("field 'deviceid'") && message.contains("\"861234050009999\""), "\(message)")
        #expect(message.contains("--device ID"), "\(message)")
        // One device, however many rows: no error.
        let one = Self.read(
            Self.header + "\n" + Self.row(id: 1, fixtime: "2024-03-05 22:40:10", latitude: 37.4, longitude: -122) + "\n"
                + Self.row(id: 2, fixtime: "2024-03-05 22:40:20", latitude: 37.401, longitude: -122) + "\n")
        #expect(one.error == nil && one.fixes.count == 2)
    }

    /// ``DeviceSelection/only(_:)`` keeps one device's rows and counts the others' as
    /// ``SkipReason/deviceFiltered``; ``DeviceSelection/all`` reads every row and counts each device's fixes.
    @Test func readsOneDeviceOrCountsThemAll() throws {
        let second = Self.read(Self.twoVans(), options: ReadOptions(devices: .only("861234050009999")))
        #expect(second.error == nil)
        #expect(second.fixes.count == 4)
        #expect(second.fixes.allSatisfy { $0.latitude == 48.1 })
        #expect(second.report.skipped(.deviceFiltered) == 4)
        let none = Self.read(Self.twoVans(), options: ReadOptions(devices: .only("86123405000")))
        #expect(none.fixes.isEmpty && none.report.skipped(.deviceFiltered) == 8)

        var reader = CSVReader(
            stream: ByteStream(bytes: Array(Self.twoVans().utf8)), options: ReadOptions(devices: .all))
        let all = reader.readAll()
        #expect(all.error == nil && all.fixes.count == 8)
        #expect(reader.deviceColumnName == "deviceid")
        #expect(reader.devices.map(\.id) == ["861234050001234", "861234050009999"])
        #expect(reader.devices.map(\.fixes) == [4, 4])
        // The device column's other names.
        for name in ["device_id", "Device", "IMEI", "uniqueId", "unique_id"] {
            #expect(CSVColumn(headerName: name) == .device, "\(name)")
        }
    }

    /// Thousands of devices interleaved (a fleet export by time) are told apart by their whole id, found by a hash
    /// of its bytes: a scan of every id seen made a different id on every row quadratic (a performance tester's
    /// 100,000 rows took 26 s). Ids that share a prefix or a length stay apart.
    @Test("tells thousands of interleaved devices apart") func tellsThousandsOfInterleavedDevicesApart() throws {
        var text = "fixtime,deviceid,latitude,longitude\n"
        for i in 0..<20_000 {
            let device = i % 5_000
            text += "\(1_700_000_000 + i),van\(device),48.\(1000 + device % 100),11.5\n"
        }
        var reader = CSVReader(stream: ByteStream(bytes: Array(text.utf8)), options: ReadOptions(devices: .all))
        let all = reader.readAll()
        #expect(all.error == nil && all.fixes.count == 20_000)
        #expect(reader.devices.count == 5_000)
        #expect(reader.devices.allSatisfy { $0.fixes == 4 })
        #expect(reader.devices.prefix(3).map(\.id) == ["van0", "van1", "van2"])
        let one = Self.read(text, options: ReadOptions(devices: .only("van12")))
        #expect(one.fixes.count == 4 && one.report.skipped(.deviceFiltered) == 19_996)
    }

    /// Device ids whose hashes collide share a slot and are still told apart by their bytes (every id forced into
    /// one slot: ``DeviceTable/hashMask``), counted and filtered as when each has its own.
    @Test("tells devices apart whose hashes collide") func tellsDevicesApartWhoseHashesCollide() throws {
        func reader(_ devices: DeviceSelection) -> CSVReader {
            var reader = CSVReader(
                stream: ByteStream(bytes: Array(Self.twoVans().utf8)), options: ReadOptions(devices: devices))
            reader.deviceTable.hashMask = 0
            return reader
        }
        var all = reader(.all)
        let read = all.readAll()
        #expect(read.error == nil && read.fixes.count == 8)
        #expect(
            all.deviceTable.slots.count == 1 && all.deviceTable.slots.first?.value == [0, 1], "\(all.deviceTable.slots)"
        )
        #expect(all.devices.map(\.id) == ["861234050001234", "861234050009999"])
        #expect(all.devices.map(\.fixes) == [4, 4])
        var second = reader(.only("861234050009999"))
        let kept = second.readAll()
        #expect(second.deviceTable.slots.count == 1)
        #expect(kept.fixes.count == 4 && kept.fixes.allSatisfy { $0.latitude == 48.1 })
        #expect(kept.report.skipped(.deviceFiltered) == 4)
    }

    /// A header without a usable column is an ``ReadError/unreadableHeader(_:expected:found:)``, which reading
    /// leniently does not get past either.
    @Test func aHeaderWithoutTimeIsUnreadableEvenLeniently() throws {
        let result = Self.read("id,deviceid,latitude,longitude\n1,7,37.4,-122\n", options: ReadOptions(lenient: true))
        guard case .unreadableHeader(let place, let expected, _)? = result.error else {
            Issue.record("unexpected \(String(describing: result.error))")
            return
        }
        #expect(place.line == 1 && place.file == "traccar.csv")
        #expect(expected.contains("missing: time"))
        #expect(result.fixes.isEmpty)
    }
}
