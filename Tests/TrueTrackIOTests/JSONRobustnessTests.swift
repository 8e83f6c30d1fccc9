import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO
import TrueTrackSimulation

/// Thousands of seeded mutations of valid GeoJSON and JSON Lines: no crash, reading terminates, and every
/// error names a place (line ≥ 1, column ≥ 1, a byte offset inside the input).
@Suite struct JSONRobustnessTests {
    typealias Support = JSONTestSupport

    static let fixes = Support.generatedFixes(count: 5, seed: 1234)

    static func documents() throws -> [[UInt8]] {
        let points = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0) }
        let line = try Support.write(fixes, sink: ByteSink()) { GeoJSONWriter(sink: $0, geometry: .lineString) }
        let handWritten = Array(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"coordTimes":[[1714564800,null],\
            ["2024-05-01T12:00:02Z"]],"x":{"y":["\\ud83d\\ude00",1e5]}},"geometry":{"type":"MultiLineString",\
            "coordinates":[[[1,2,3],[4,5]],[[6,7]]]}},{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},\
            "properties":{"time":"2024-05-01T12:00:03Z","accuracy":"4.5","mock":true,"activity":"IN_VEHICLE"}}]}
            """.utf8)
        return [points, line, handWritten]
    }

    /// Reads `bytes` to the end or the first error (bounded: a reader that never ends fails the test).
    @discardableResult
    static func check<R: FixReader>(_ reader: inout R, size: Int, label: String) -> Int {
        var count = 0
        do {
            while try reader.next() != nil {
                count += 1
                if count > 100_000 {
                    Issue.record("\(label): reader does not terminate")
                    return 1
                }
            }
        } catch {
            checkPlace(error, size: size, label: label)
            return 1 + reader.report.errors.count
        }
        for error in reader.report.errors { checkPlace(error, size: size, label: label) }
        return reader.report.errors.count
    }

    static func checkPlace(_ error: ReadError, size: Int, label: String) {
        let l = error.location
        #expect(
            l.line >= 1 && l.column >= 1 && l.byteOffset >= 0 && l.byteOffset <= size,
            "\(label): \(error)")
    }

    @Test func mutatedGeoJSONNeverCrashesAndErrorsHavePlaces() throws {
        let documents = try JSONRobustnessTests.documents()
        var rng = SplitMix64(seed: 0xC0FFEE)
        var errors = 0
        for round in 0..<2000 {
            let source = documents[round % documents.count]
            let bytes = Support.mutate(source, using: &rng)
            for lenient in [false, true] {
                var reader = GeoJSONReader(stream: ByteStream(bytes: bytes), options: ReadOptions(lenient: lenient))
                errors += JSONRobustnessTests.check(
                    &reader, size: bytes.count, label: "GeoJSON round \(round) lenient \(lenient)")
            }
        }
        #expect(errors > 2000)  // the mutations do reach the error paths
    }

    @Test func mutatedJSONLinesNeverCrashesAndErrorsHavePlaces() throws {
        let source = try Support.write(JSONRobustnessTests.fixes, sink: ByteSink()) { JSONLinesWriter(sink: $0) }
        var rng = SplitMix64(seed: 0xBEEF)
        var errors = 0
        for round in 0..<2000 {
            let bytes = Support.mutate(source, using: &rng)
            for lenient in [false, true] {
                var reader = JSONLinesReader(stream: ByteStream(bytes: bytes), options: ReadOptions(lenient: lenient))
                errors += JSONRobustnessTests.check(
                    &reader, size: bytes.count, label: "JSONL round \(round) lenient \(lenient)")
            }
        }
        #expect(errors > 2000)  // the mutations do reach the error paths
    }

    @Test func lenientJSONLinesKeepsEveryUndamagedLine() throws {
        // Damage exactly one line at a time: the other lines' fixes all survive.
        let fixes = JSONRobustnessTests.fixes
        let source = try Support.write(fixes, sink: ByteSink()) { JSONLinesWriter(sink: $0) }
        var lines = String(decoding: source, as: UTF8.self).split(separator: "\n").map(String.init)
        lines[2] = String(lines[2].dropLast(5))
        var reader = JSONLinesReader(
            stream: ByteStream(bytes: Array(lines.joined(separator: "\n").utf8)),
            options: ReadOptions(lenient: true))
        let result = reader.readAll()
        #expect(result.fixes == fixes.enumerated().filter { $0.offset != 2 }.map(\.element))
        #expect(result.report.errors.map { $0.location.line } == [3])
    }
}
