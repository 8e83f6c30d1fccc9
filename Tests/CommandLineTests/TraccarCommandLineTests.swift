import Foundation
import Testing

/// A fleet tracker's export (Traccar's positions table) end to end: the time column `info` names, and header
/// errors that do not send the user to `--lenient`.
@Suite struct TraccarCommandLineTests {
    /// The header of Traccar's positions export.
    static let header =
        "id,protocol,deviceid,servertime,devicetime,fixtime,valid,latitude,longitude,altitude,speed,course,"
        + "address,attributes,accuracy,network"

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
                + "1,osmand,7,2024-03-05 22:40:02,2024-03-05 22:40:01,2024-03-05 22:40:00,true,37.4,-122.1,3,0,0,,{},5,\n"
                + "2,osmand,7,2024-03-05 22:40:12,2024-03-05 22:40:11,2024-03-05 22:40:10,true,37.4001,-122.1,3,0,0,,{},5,\n",
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
                + "1,teltonika,7,2024-03-05 22:40:02,2024-03-05 22:40:01,2024-03-05 22:40:00,true,37.4,-122.1,3,10.00,0,,{},5,\n"
                + "2,teltonika,7,2024-03-05 22:40:12,2024-03-05 22:40:11,2024-03-05 22:40:10,false,37.4,-122.1,3,0,0,,{},5,\n",
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
