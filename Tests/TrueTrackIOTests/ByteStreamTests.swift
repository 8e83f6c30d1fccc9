import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO

@Suite struct ByteStreamTests {
    func lines(_ stream: ByteStream) throws -> [String] {
        var out: [String] = []
        while let line = try stream.nextLine() { out.append(line.text) }
        return out
    }

    @Test func splitsLinesWithEveryTerminator() throws {
        let stream = ByteStream(bytes: Array("a\nbb\r\n\nlast".utf8))
        #expect(try lines(stream) == ["a", "bb", "", "last"])
        #expect(stream.lineNumber == 4)
    }

    /// Classic Mac OS line endings (a lone CR): every format reads the same fixes as with LF, from memory and
    /// from a file read in small chunks (a CSV was read as one long header line, "missing: longitude").
    @Test func everyLineFormatReadsLoneCarriageReturnLines() throws {
        let samples: [(FixFormat, String)] = [
            (.csv, "time,lat,lon,accuracy\n2025-01-01T10:00:00Z,49,11,5\n2025-01-01T10:00:01Z,49.0001,11,5\n"),
            (.jsonLines, "{\"time\":\"2025-01-01T10:00:00Z\",\"lat\":49,\"lon\":11}\n"),
            (
                .nmea,
                nmea("GPRMC,100000.00,A,4900.000,N,01100.000,E,0.0,0.0,010125,,,A")
                    + nmea("GPRMC,100001.00,A,4900.001,N,01100.000,E,0.0,0.0,010125,,,A")
            ),
        ]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cr-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (format, text) in samples {
            func fixes(_ stream: ByteStream) throws -> [Fix] {
                var reader = AnyFixReader(stream: stream, format: format)
                var out: [Fix] = []
                while let fix = try reader.next() { out.append(fix) }
                return out
            }
            let plain = try fixes(ByteStream(bytes: Array(text.utf8)))
            #expect(!plain.isEmpty, "\(format)")
            let mac = Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)
            #expect(try fixes(ByteStream(bytes: mac)) == plain, "\(format) from memory")
            _ = FileManager.default.createFile(atPath: path, contents: Data(mac))
            #expect(try fixes(ByteStream(path: path, chunkBytes: 64)) == plain, "\(format) from a file")
        }
    }

    /// A CRLF file whose CR ends one read and LF starts the next is not taken for a lone-CR file.
    @Test func aCRLFSplitAcrossReadsStaysCRLF() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crlf-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = String(repeating: "x", count: 63) + "\r\nsecond\r\nthird\r"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        #expect(
            try lines(ByteStream(path: path, chunkBytes: 64)) == [String(repeating: "x", count: 63), "second", "third"])
        #expect(try lines(ByteStream(bytes: Array("a\rb\r\rc".utf8))) == ["a", "b", "", "c"])
    }

    /// Line endings an editor mixed (LF, CR and CRLF in one file): every one ends a line, whichever came first
    /// (a GnssLogger log lost a third of its rows without a word, a CSV stopped at its second line).
    @Test func mixedLineEndingsAllEndLines() throws {
        let text = "a\nb\rc\r\nd\re\n\rf"
        #expect(try lines(ByteStream(bytes: Array(text.utf8))) == ["a", "b", "c", "d", "e", "", "f"])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var csv = "time,lat,lon,accuracy\n"
        let endings = ["\n", "\r", "\r\n"]
        for i in 0..<300 { csv += "\(1_700_000_000 + i),49.\(1000 + i),11,5" + endings[i % 3] }
        _ = FileManager.default.createFile(atPath: path, contents: Data(csv.utf8))
        var reader = AnyFixReader(stream: try ByteStream(path: path, chunkBytes: 64), format: .csv)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 300)
    }

    /// `body` as an NMEA sentence line with its checksum.
    func nmea(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", sum) + "\n"
    }

    /// A UTF-8 byte-order mark at the start (Windows tools write one) is consumed before any reader sees it:
    /// every format reads the same fixes with and without it (GeoJSON was refused at byte 0, JSON Lines read no
    /// fix, NMEA lost its first sentence), from a file and from memory.
    @Test func everyFormatReadsTheSameFixesAfterAByteOrderMark() throws {
        let samples: [(FixFormat, String)] = [
            (.csv, "time,lat,lon,accuracy\n2025-01-01T10:00:00Z,49,11,5\n2025-01-01T10:00:01Z,49.0001,11,5\n"),
            (
                .jsonLines,
                "{\"time\":\"2025-01-01T10:00:00Z\",\"lat\":49,\"lon\":11}\n"
                    + "{\"time\":\"2025-01-01T10:00:01Z\",\"lat\":49.0001,\"lon\":11}\n"
            ),
            (
                .geojson,
                "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":"
                    + "\"Point\",\"coordinates\":[11,49]},\"properties\":{\"time\":\"2025-01-01T10:00:00Z\"}}]}\n"
            ),
            (
                .nmea,
                nmea("GPRMC,100000.00,A,4900.000,N,01100.000,E,0.0,0.0,010125,,,A")
                    + nmea("GPRMC,100001.00,A,4900.001,N,01100.000,E,0.0,0.0,010125,,,A")
            ),
            (
                .gpx,
                "<?xml version=\"1.0\"?><gpx><trk><trkseg><trkpt lat=\"49\" lon=\"11\">"
                    + "<time>2025-01-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>\n"
            ),
        ]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (format, text) in samples {
            func fixes(_ stream: ByteStream) throws -> [Fix] {
                var reader = AnyFixReader(stream: stream, format: format, options: ReadOptions(lenient: true))
                var out: [Fix] = []
                while let fix = try reader.next() { out.append(fix) }
                #expect(reader.report.unusableRecords == 0, "\(format): \(reader.report)")
                return out
            }
            let plain = try fixes(ByteStream(bytes: Array(text.utf8)))
            #expect(!plain.isEmpty, "\(format)")
            let marked = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
            #expect(try fixes(ByteStream(bytes: marked)) == plain, "\(format) from memory")
            let path = folder + "/sample"
            _ = FileManager.default.createFile(atPath: path, contents: Data(marked))
            #expect(try fixes(ByteStream(path: path, chunkBytes: 64)) == plain, "\(format) from a file")
        }
    }

    /// A pipe that delivers the byte-order mark's first byte alone, then the rest: the stream reads on before
    /// deciding (the JSON tokenizer saw the lone 0xEF and refused the document at byte 0).
    @Test func aByteOrderMarkSplitAcrossPipeReadsIsStillConsumed() throws {
        let document =
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":"
            + "\"Point\",\"coordinates\":[11,49]},\"properties\":{\"time\":\"2025-01-01T10:00:00Z\"}}]}\n"
        for split in [1, 2] {
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            let bytes = [0xEF, 0xBB, 0xBF] + Array(document.utf8)
            let writer = fds[1]
            let thread = Thread {
                bytes[..<split].withUnsafeBytes { _ = write(writer, $0.baseAddress!, $0.count) }
                usleep(50_000)
                bytes[split...].withUnsafeBytes { _ = write(writer, $0.baseAddress!, $0.count) }
                close(writer)
            }
            thread.start()
            var reader = AnyFixReader(stream: try ByteStream(path: "/dev/fd/\(fds[0])"), format: .geojson)
            var count = 0
            while try reader.next() != nil { count += 1 }
            #expect(count == 1, "split after \(split) byte(s)")
            close(fds[0])
        }
    }

    @Test func streamsAFileLargerThanItsChunkWithoutLosingALine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bytestream-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = (0..<5000).map { "line \($0) " + String(repeating: "x", count: $0 % 97) }
        try (expected.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let stream = try ByteStream(path: path, chunkBytes: 256)
        var count = 0
        var offsets: [Int] = []
        while let line = try stream.nextLine() {
            #expect(line.text == expected[count])
            #expect(line.number == count + 1)
            offsets.append(line.byteOffset)
            count += 1
        }
        #expect(count == expected.count)
        #expect(offsets[1] == expected[0].utf8.count + 1)
    }

    @Test func refusesALineLongerThanTheRecordLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(repeating: "y", count: 10_000).write(toFile: path, atomically: true, encoding: .utf8)
        let stream = try ByteStream(path: path, chunkBytes: 128, maximumRecordBytes: 1024)
        #expect(throws: ReadError.self) { try stream.nextLine() }
    }

    @Test func namesTheFileThatCannotBeOpened() {
        #expect(throws: ReadError.io(path: "/nonexistent/x.csv", message: "No such file or directory")) {
            try ByteStream(path: "/nonexistent/x.csv")
        }
        #expect(throws: ReadError.io(path: "/tmp", message: "is a directory")) { try ByteStream(path: "/tmp") }
    }
}
