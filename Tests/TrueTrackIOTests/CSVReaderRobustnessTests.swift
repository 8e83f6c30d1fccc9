import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackIO

/// Feeds thousands of seeded mutations of valid CSV (real recordings when present, plus a generated file in
/// every layout the reader knows) and checks that reading never crashes, always terminates, and that every
/// error names a line.
@Suite struct CSVReaderRobustnessTests {
    /// A file whose line ends were written as NUL bytes is one long header line: it said "a CSV header and no data
    /// rows", without a place. The NUL byte is named where it is, with the way to turn them into line ends.
    @Test("names the NUL byte of a header whose line ends were written as NUL bytes")
    func headerWithNULLineEnds() throws {
        let text = Array("time,latitude,longitude\u{0}2025-11-29T07:06:40Z,49.45,11.07\u{0}".utf8)
        var reader = CSVReader(stream: ByteStream(bytes: text, name: "nul.csv"), options: ReadOptions(lenient: true))
        let error = try #require(throws: ReadError.self) { _ = try reader.next() }
        guard case .unreadableHeader(let at, let expected, let found) = error else {
            Issue.record("expected a header error: \(error)")
            return
        }
        #expect(at.line == 1 && at.column == 24 && at.byteOffset == 23, "\(at)")
        #expect(found == "a NUL byte (0x00)" && expected.contains("tr '\\000' '\\n'"), "\(error)")
        // A header with ordinary line ends and a NUL byte in a row is no header error: the row's, at line 2.
        var rows = CSVReader(stream: ByteStream(bytes: Array("time,lat,lon\n".utf8) + [0, 0x0A], name: "row.csv"))
        let rowError = try #require(throws: ReadError.self) { _ = try rows.next() }
        if case .unreadableHeader = rowError { Issue.record("a row's NUL byte read as a header error: \(rowError)") }
        #expect(rowError.description.contains("row.csv:2"), "\(rowError)")
    }

    /// Binary garbage in a field is shown as the bytes that were there, valid UTF-8 text as text (a control or
    /// format character escaped byte by byte), and nothing shows the replacement character's bytes
    /// (`\xEF\xBF\xBD`) instead of the input's.
    @Test func errorMessagesShowTheBytesThatWereThere() throws {
        let text: [UInt8] =
            [0x74, 0x69, 0x6D, 0x65, 0x2C, 0x6C, 0x61, 0x74, 0x2C, 0x6C, 0x6F, 0x6E, 0x0A]  // "time,lat,lon\n"
            + [0x8F, 0xFF, 0x01] + Array("abc,4\u{E9},11\n".utf8)
        var reader = CSVReader(stream: ByteStream(bytes: text, name: "bin.csv"))
        let error = try #require(throws: ReadError.self) { _ = try reader.next() }
        #expect(error.description.contains("found \"\\x8F\\xFF\\x01abc\""), "\(error.description)")
        #expect(!error.description.contains("\\xEF\\xBF\\xBD"))
        #expect(ReadError.quote("4\u{E9}") == "\"4\u{E9}\"")
        // A right-to-left override (a format character) and a C1 control could rearrange a terminal's text.
        #expect(ReadError.quote("a\u{202E}b\u{85}") == "\"a\\xE2\\x80\\xAEb\\xC2\\x85\"")
        // Real text in the stand-ins' range (U+F701: EF 9C 81) shows its own three bytes.
        let privateUse: [UInt8] = [0x34, 0xEF, 0x9C, 0x81]
        let quoted = privateUse.withUnsafeBytes { ReadError.quote(ReadError.quote($0, 0, 4)) }
        #expect(quoted == "\"4\\xEF\\x9C\\x81\"", "\(quoted)")
    }

    /// A header name in UTF-8 (a German export's `Längengrad`) is printed as text in the header error, as the
    /// file shows it (a tester's `euro.csv` read `L\xC3\xA4ngengrad`).
    @Test func aHeaderErrorShowsUTF8NamesAsText() throws {
        var reader = CSVReader(
            stream: ByteStream(bytes: Array("Zeit;Breitengrad;Längengrad\n2024-03-05T22:40:00Z;37,4;-122,1\n".utf8)))
        let error = try #require(throws: ReadError.self) { _ = try reader.next() }
        #expect(error.description.contains("found \"Zeit;Breitengrad;Längengrad\""), "\(error.description)")
    }

    /// Valid inputs to mutate: the first lines of the real files, and generated ones.
    static func seeds() -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        var canonical = CSVWriter.header + "\n"
        for k in 0..<30 {
            canonical +=
                "2024-05-01T12:00:\(k < 10 ? "0" : "")\(k).250Z,37.\(k)5,-122.\(k)1,4.5,12,3,1.5,0.2,\(k * 12),5,"
                + "gps,9,false,walking,80\n"
        }
        seeds.append(Array(canonical.utf8))
        seeds.append(
            Array(
                ("MessageType;Provider;LatitudeDegrees;LongitudeDegrees;UnixTimeMillis\r\n"
                    + (0..<20).map {
                        "Fix;\($0 % 2 == 0 ? "GPS" : "\"FLP\"");37.\($0);-122.\($0);16197357\($0 + 10)999\r\n"
                    }
                    .joined()).utf8))
        seeds.append(
            Array(
                ("time\tlat\tlon\tnote\n"
                    + (0..<20).map { "1691599065.\($0)\t40.\($0)\t-75.\($0)\t\"a \"\"quoted\"\"\nnote\"\n" }.joined())
                    .utf8))
        if Datasets.available {
            for path in [
                "sensorlogger-pixel6a/20230809_163741/gps.csv", "gsdc2020-mtv1/ground_truth.csv",
                "gnsslogger-samples/ground_truth.csv",
            ] {
                if let data = FileManager.default.contents(atPath: Datasets.path(path)) {
                    seeds.append(Array(data.prefix(3000)))
                }
            }
        }
        return seeds
    }

    /// One mutation of `input`.
    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        let inserts: [String] = [
            "\"", "\"\"", ",", ";", "\t", "\n", "\r", "\r\n", "#", "\u{FEFF}", "nan", "inf",
            "-inf", "1e400", "-1e-400", String(repeating: "9", count: 400), "99999999999999999999",
            "2024-13-45T25:61:61Z", "9999-12-31T23:59:59.9999Z", "Fix", "Raw", "0x1p3", "\0",
            "-", ".", "e", "+-", "\u{00E9}", "\u{FFFD}",
        ]
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: bytes = Array(bytes[..<at])  // truncation
            case 1: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)  // bit flip
            case 2: bytes[at] = UInt8.random(in: 0...255, using: &rng)  // random byte
            case 3: bytes.insert(contentsOf: inserts.randomElement(using: &rng)!.utf8, at: at)  // garbage
            case 4: bytes.remove(at: at)  // deletion
            case 5:  // duplicated slice
                let end = min(bytes.count, at + Int.random(in: 1...80, using: &rng))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &rng))
            default:  // random run
                bytes.insert(
                    contentsOf: (0..<Int.random(in: 1...40, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }, at: at)
            }
        }
        return bytes
    }

    /// Reads `bytes` to the end, calling `next()` again after each error; checks termination and locations.
    /// - Returns: the number of fixes read and of errors seen (thrown or stepped over).
    @discardableResult
    static func check(_ bytes: [UInt8], lenient: Bool, stream: ByteStream) -> (fixes: Int, errors: Int) {
        var fixes = 0
        var errors = 0
        var reader = CSVReader(stream: stream, options: ReadOptions(lenient: lenient))
        var calls = 0
        let budget = bytes.count + 10  // each call consumes at least one line (or ends)
        var ended = false
        while calls < budget {
            calls += 1
            do {
                guard let fix = try reader.next() else { ended = true; break }
                fixes += 1
                #expect(fix.latitude.isFinite && abs(fix.latitude) <= 90)
                #expect(fix.longitude.isFinite && abs(fix.longitude) <= 180)
            } catch {
                errors += 1
                #expect(error.location.line > 0, "\(error)")
                #expect(
                    error.location.byteOffset >= 0 && error.location.byteOffset <= bytes.count,
                    "\(error) \(bytes.count)")
            }
        }
        #expect(ended, "reader did not terminate within \(budget) calls")
        let report = reader.report
        #expect(report.errors.allSatisfy { $0.location.line > 0 })
        #expect(report.bytesRead <= bytes.count)
        return (fixes, errors + report.errorCount)
    }

    @Test func survivesThousandsOfMutations() {
        let seeds = CSVReaderRobustnessTests.seeds()
        var rng = SplitMix64(seed: 0x5EED_C5F0)
        var totals = (fixes: 0, errors: 0)
        for round in 0..<3000 {
            let seed = seeds[round % seeds.count]
            let bytes = round % 100 == 0 ? [] : CSVReaderRobustnessTests.mutate(seed, &rng)
            let seen = CSVReaderRobustnessTests.check(bytes, lenient: round % 2 == 1, stream: ByteStream(bytes: bytes))
            totals.fixes += seen.fixes
            totals.errors += seen.errors
        }
        // The mutations must both break inputs and leave most rows readable, or the test proves nothing.
        #expect(totals.errors > 1000)
        #expect(totals.fixes > 30_000)
    }

    /// Mutations read through a file in tiny chunks: rows, quoted fields and the last line straddle refills.
    @Test func survivesMutationsReadInSmallChunks() throws {
        let seeds = CSVReaderRobustnessTests.seeds()
        var rng = SplitMix64(seed: 0xC4_0C4)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("csv-robust-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for round in 0..<200 {
            let bytes = CSVReaderRobustnessTests.mutate(seeds[round % seeds.count], &rng)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let stream = try ByteStream(path: path, chunkBytes: 64, maximumRecordBytes: 4096)
            CSVReaderRobustnessTests.check(bytes, lenient: round % 2 == 0, stream: stream)
        }
    }
}
