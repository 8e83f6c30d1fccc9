import Foundation
import Testing
import TrueTrackIO

/// ``FixReader/recordsRead``: each reader's count without building its report, which the commands ask after every
/// fix, must be the report's.
@Suite struct RecordsReadTests {
    /// Reads `path` to its end (leniently: damaged records stepped over count as read) and returns the first fix
    /// after which the two counts differ, or `nil`.
    static func firstDisagreement(_ path: String) throws -> String? {
        var options = ReadOptions()
        options.lenient = true
        var reader = try AnyFixReader(path: path, options: options)
        var fixes = 0
        while let _ = try reader.next() {
            fixes += 1
            if reader.recordsRead != reader.report.recordsRead {
                return "after fix \(fixes): \(reader.recordsRead) vs the report's \(reader.report.recordsRead)"
            }
        }
        let (quick, report) = (reader.recordsRead, reader.report.recordsRead)
        return quick == report ? nil : "at the end: \(quick) vs the report's \(report)"
    }

    @Test func theDemoWalkCountsItsRowsAsItsReportDoes() throws {
        #expect(
            try Self.firstDisagreement(
                Datasets.repository.appendingPathComponent("datasets/demo/walk-with-noise.csv").path) == nil)
    }

    /// Every format the shared recordings hold: CSV, GPX, TCX, KML, NMEA, GnssLogger, IPIN, GeoLife, GeoJSON, JSON
    /// Lines.
    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func everySharedRecordingCountsItsRecordsAsItsReportDoes() throws {
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Datasets.root!.appendingPathComponent("MANIFEST.json")))
                as? [String: Any])
        let recordings = try #require(manifest["recordings"] as? [[String: Any]])
        var formats = Set<FixFormat>()
        for recording in recordings {
            let path = Datasets.path(try #require(recording["path"] as? String))
            guard let reader = try? AnyFixReader(path: path) else { continue }
            formats.insert(reader.format)
            #expect(try Self.firstDisagreement(path) == nil, "\(path)")
        }
        #expect(formats.count >= 6, "\(formats)")
    }
}
