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
