import Foundation
import Testing

/// A fleet tracker's export (Traccar's positions table) end to end: the time column `info` names, and header
/// errors that do not send the user to `--lenient`.
@Suite struct TraccarCommandLineTests {
    /// The header of Traccar's positions export.
    static let header =
        "id,protocol,deviceid,servertime,devicetime,fixtime,valid,latitude,longitude,altitude,speed,course,"
        + "address,attributes,accuracy,network"

    /// One row of the export: `time` the fix's (`servertime` and `devicetime` a second or two later, as a tracker
    /// delivers), `speed` in knots.
    static func row(
        _ id: Int, protocol: String = "teltonika", device: String = "7", time: String, valid: Bool = true,
        latitude: String, longitude: String, speed: String, course: String = "0"
    ) -> String {
        let later = { (seconds: Int) -> String in
            let second = Int(time.suffix(2))! + seconds
            return String(time.dropLast(2)) + String(format: "%02d", second)
        }
        return "\(id),\(`protocol`),\(device),\(later(2)),\(later(1)),\(time),\(valid),\(latitude),\(longitude),3,"
            + "\(speed),\(course),,{},5,\n"
    }

    /// Writes `text` to a temporary file `name`; returns its path.
    static func write(_ text: String, name: String) throws -> String {
        let path = Tool.temporaryPath(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `info` says which of the three times it reads (the fix's), and `process` reads the file without a
    /// warning about the two it does not.
    @Test func infoNamesTheTimeColumnItReads() throws {
        let path = try Self.write(
            Self.header + "\n"
                + Self.row(
                    1, protocol: "osmand", time: "2024-03-05 22:40:00", latitude: "37.4", longitude: "-122.1",
                    speed: "0")
                + Self.row(
                    2, protocol: "osmand", time: "2024-03-05 22:40:10", latitude: "37.4001", longitude: "-122.1",
                    speed: "0"),
            name: "times.traccar.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let info = try Tool.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("time column         fixtime (not read: servertime, devicetime"), "\(info.stdout)")
        #expect(info.stdout.contains("2024-03-05T22:40:00Z → 2024-03-05T22:40:10Z"))
        let process = try Tool.run(["process", path, "--profile", "driving"])
        #expect(process.status == 0, "\(process.stderr)")
        #expect(!process.stderr.contains("not read"), "\(process.stderr)")
    }

    /// `convert` of a Traccar export writes its knots as metres per second (it wrote 8.74 kn as `speed_mps`
    /// 8.74), and leaves out the rows that are not a fix.
    @Test func convertWritesTheSpeedInMetresPerSecond() throws {
        let path = try Self.write(
            Self.header + "\n"
                + Self.row(1, time: "2024-03-05 22:40:00", latitude: "37.4", longitude: "-122.1", speed: "10.00")
                + Self.row(
                    2, time: "2024-03-05 22:40:10", valid: false, latitude: "37.4", longitude: "-122.1", speed: "0"),
            name: "knots.traccar.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["convert", path, "-", "--to", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stdout)")
        let columns = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let values = lines[1].split(separator: ",", omittingEmptySubsequences: false)
        let speed = try #require(columns.firstIndex(of: "speed_mps"))
        #expect(values[speed] == "5.144444444444445", "\(lines[1])")
        #expect(result.stderr.contains("1 record skipped"), "\(result.stderr)")
    }

    /// Two vans in one export: `process` refuses the merge (exit 1, the message names the file, the line of the
    /// second device's first row, the field, both IDs and `--device`), `--device` reads one (the other's rows
    /// counted as skipped), and `info` lists both with their fixes instead of failing.
    @Test func aFileOfTwoDevicesNeedsDeviceAndInfoListsThem() throws {
        var text = Self.header + "\n"
        for k in 0..<6 {
            let time = "2024-03-05 22:40:\(10 + k * 5)"
            text += "\(2 * k + 1),teltonika,van-a,\(time),\(time),\(time),true,37.4\(k),-122.1,3,10,0,,{},5,\n"
            text += "\(2 * k + 2),teltonika,van-b,\(time),\(time),\(time),true,48.1,11.5\(k),3,10,90,,{},5,\n"
        }
        let path = try Self.write(text, name: "two-vans.traccar.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merged = try Tool.run(["process", path, "--profile", "driving"])
        #expect(merged.status == 1)
        #expect(merged.stderr.contains("\(path):3:"), "\(merged.stderr)")
        #expect(merged.stderr.contains("field 'deviceid'") && merged.stderr.contains("\"van-a\", \"van-b\""))
        #expect(merged.stderr.contains("--device ID") && !merged.stderr.contains("--lenient"), "\(merged.stderr)")

        let one = try Tool.run(["process", path, "--profile", "driving", "--device", "van-b", "--json"])
        #expect(one.status == 0, "\(one.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let fixes = try #require(summary["fixes"] as? [String: Any])
        #expect(fixes["read"] as? Int == 6)
        let missing = try Tool.run(["process", path, "--device", "van-c"])
        #expect(missing.status == 1 && missing.stderr.contains("--device matched none"), "\(missing.stderr)")

        let info = try Tool.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("2 in column deviceid: van-a (6 fixes), van-b (6 fixes)"), "\(info.stdout)")
        let json = try Tool.run(["info", "--json", path, "--device", "van-a"])
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"deviceFiltered\" : 6"), "\(json.stdout)")

        // Of many devices the text names 20 and counts the rest (10,000 vans made one line of 200 KB); --json lists
        // every one.
        var fleet = "fixtime,deviceid,latitude,longitude\n"
        for i in 0..<30 { fleet += "\(1_700_000_000 + i),van\(i),48.1,11.5\n" }
        let many = try Tool.temporaryFile("fleet-30.csv", contents: fleet)
        defer { try? FileManager.default.removeItem(atPath: many) }
        let fleetInfo = try Tool.run(["info", many])
        #expect(
            fleetInfo.stdout.contains("van19 (1 fixes) and 10 more (--json lists every one)"), "\(fleetInfo.stdout)")
        #expect(!fleetInfo.stdout.contains("van20 "))
        #expect(try Tool.run(["info", "--json", many]).stdout.contains("\"van29\""))

        // Another format holds one device: --device there is an error, not ignored (a reviewer's GPX read whole).
        let gpx = Tool.temporaryPath("one-device.gpx")
        defer { try? FileManager.default.removeItem(atPath: gpx) }
        #expect(try Tool.run(["convert", path, gpx, "--device", "van-a"]).status == 0)
        let onGPX = try Tool.run(["process", gpx, "--device", "van-a"])
        #expect(onGPX.status == 1 && onGPX.stderr.contains("this file reads as gpx"), "\(onGPX.stderr)")
        let named = try Tool.run(["process", "-", "--format", "gpx", "--device", "van-a"])
        #expect(named.status == 2 && named.stderr.contains("--format gpx holds one device's fixes"), "\(named.stderr)")
    }

    /// A van on a winding road at 12 m/s for 20 minutes (14,400 m), logged by a Traccar tracker every 10 s with
    /// a few metres of noise, its speed in knots: `process` counts within 4 % of the true length. (Read as m/s,
    /// the knots were 1.94 times the van's speed and were not trusted; with no time column the file did not read
    /// at all.)
    @Test func processCountsATraccarVansDistance() throws {
        let trueLength = 12.0 * 1200
        var text = Self.header + "\n"
        var north = 0.0, east = 0.0
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Double {  // roughly normal, σ ≈ 3 m (sum of four uniforms)
            var sum = 0.0
            for _ in 0..<4 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                sum += Double(seed >> 11) / Double(1 << 53) - 0.5
            }
            return sum * 3 / 0.577
        }
        let start = try #require(ISO8601DateFormatter().date(from: "2024-03-05T22:40:00Z"))
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm:ss"
        format.timeZone = TimeZone(identifier: "UTC")
        format.locale = Locale(identifier: "en_US_POSIX")
        for second in 0...1200 {
            let heading = 0.9 * sin(Double(second) / 70)  // radians from north: bends every few hundred metres
            if second % 10 == 0 {
                let latitude = 37.4 + (north + noise()) / 111_320
                let longitude = -122.1 + (east + noise()) / (111_320 * cos(37.4 * .pi / 180))
                let time = format.string(from: start.addingTimeInterval(Double(second)))
                let knots = 12 * 3600 / 1852.0
                let course = (heading * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
                text +=
                    "\(second / 10 + 1),teltonika,861234050001234,\(time),\(time),\(time),true,"
                    + String(format: "%.6f,%.6f,30.0,%.2f,%.0f,,{},4.0,\n", latitude, longitude, knots, course)
            }
            north += 12 * cos(heading)
            east += 12 * sin(heading)
        }
        let path = try Self.write(text, name: "van.traccar.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Tool.run(["process", path, "--profile", "driving", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let distance = try #require(summary["distanceMetres"] as? Double)
        #expect(abs(distance - trueLength) / trueLength < 0.04, "\(distance) m against \(trueLength) m")
        #expect(!result.stderr.contains("not trusted"), "\(result.stderr)")
    }

    /// A header naming no time column is an error no option skips: the message names what is missing and does
    /// not suggest `--lenient` (which cannot help there), for every reading command.
    @Test func aHeaderErrorDoesNotSuggestLenient() throws {
        let path = try Self.write("id,deviceid,latitude,longitude\n1,7,37.4,-122.1\n", name: "no-time.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in [["process"], ["stops"], ["info"], ["convert", "-", "--to", "csv"]] {
            let arguments = [command[0], path] + command.dropFirst()
            let result = try Tool.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("\(path):1:1"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("missing: time"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("--lenient"), "\(arguments): \(result.stderr)")
        }
    }
}
