import Foundation
import Testing
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
