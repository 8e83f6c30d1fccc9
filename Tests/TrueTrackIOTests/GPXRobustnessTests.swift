import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

#if canImport(Glibc)
    import Glibc
#endif

/// Seeded random damage to valid GPX documents: the reader must never crash, must terminate, must only
/// produce valid fixes, and every error must say where it happened.
@Suite struct GPXRobustnessTests {
    /// Markup and values most likely to confuse a scanner.
    static let fragments: [String] = [
        "<", ">", "&", "\"", "'", "/", "\n", "\r", "\0", "]]>", "-->", "?>", "<!--", "<![CDATA[", "<?", "<!DOCTYPE x [",
        "</trkpt>", "<trkpt lat='1' lon='2'>", "<trkpt lat=\"", "</gpx>", "<gpx>", "<trkseg>", "<ele>", "</ele>",
        "<time>", "</time>", "&#x;", "&#99999999;", "&#0;", "&bogus;", "&amp", "1e400", "-1e309", "nan", "inf",
        "-inf", String(repeating: "9", count: 400), "0x1p3", "+", "-", ".", "e", "\u{FEFF}", "\u{00E9}", "\u{FFFF}",
        "<tt:accuracy_m>", "<tt:provider>gps</tt:provider>", "<fix>none</fix>", "<sat>-3</sat>",
        "<sat>99999999999999999999</sat>", "<speed>-1</speed>", "<course>1e300</course>",
    ]

    /// Valid starting documents: a generated track with every field, generated XML variety, and real data.
    static func seeds() -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        var r = GPXTestRandom(seed: 99)
        var fixes: [Fix] = []
        while fixes.count < 12 {
            if let fix = randomFix(&r) { fixes.append(fix) }
        }
        if let written = try? writeGPX(fixes, breaks: [5]) { seeds.append(written) }
        for seed in [3, 11, 27] as [UInt64] {
            var generator = GPXDocumentGenerator(seed: seed)
            seeds.append(Array(generator.document().utf8))
        }
        seeds.append(
            Array(
                gpx11(
                    """
                    <trkpt lat="41.805591583" lon="12.679831505">
                      <ele>374.813</ele>
                      <time>2008-05-04T12:52:47Z</time>
                      <speed>0.240410</speed>
                      <name>TP000001</name>
                      <fix>3d</fix>
                      <sat>11</sat>
                      <hdop>0.850000</hdop>
                    </trkpt>
                    <trkpt lat="45.6" lon="13.26"><time>2020-01-02T03:04:06Z</time>
                      <extensions><ns3:TrackPointExtension><ns3:speed>5</ns3:speed></ns3:TrackPointExtension></extensions></trkpt>
                    """
                ).utf8))
        return seeds
    }

    /// Applies 1–3 random mutations.
    static func mutate(_ input: [UInt8], _ r: inout GPXTestRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + r.below(3)) {
            let at = bytes.isEmpty ? 0 : r.below(bytes.count + 1)
            switch r.below(8) {
            case 0:  // truncate
                bytes.removeSubrange(at...)
            case 1:  // flip a byte
                if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: r.next()) }
            case 2:  // set a byte to markup
                let markup = Array("<>&\"'/=;#:!?[]- \n".utf8)
                if at < bytes.count { bytes[at] = markup[r.below(markup.count)] }
            case 3:  // insert a fragment
                bytes.insert(contentsOf: Array(fragments[r.below(fragments.count)].utf8), at: at)
            case 4:  // insert random garbage
                bytes.insert(
                    contentsOf: (0..<(1 + r.below(40))).map { _ in UInt8(truncatingIfNeeded: r.next()) }, at: at)
            case 5:  // delete a range
                let end = min(bytes.count, at + r.below(60))
                if at < end { bytes.removeSubrange(at..<end) }
            case 6:  // duplicate a range
                let end = min(bytes.count, at + r.below(300))
                if at < end { bytes.insert(contentsOf: Array(bytes[at..<end]), at: end) }
            default:  // replace a value between '>' and '<' or between quotes with a fragment
                guard at < bytes.count,
                    let open = bytes[at...].firstIndex(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") }),
                    let close = bytes[(open + 1)...].firstIndex(where: {
                        $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "\"")
                    })
                else { break }
                bytes.replaceSubrange((open + 1)..<close, with: Array(fragments[r.below(fragments.count)].utf8))
            }
        }
        return bytes
    }

    /// Reads `bytes` to the end, going on after every error, and checks the invariants.
    static func check(
        _ bytes: [UInt8], options: ReadOptions, chunkBytes: Int? = nil, file: String = "",
        context: String
    ) throws {
        var reader: GPXReader
        if let chunkBytes {
            let path = "/tmp/truetrack-gpx-robustness-\(getpid())\(file).gpx"
            try #require(writeBytes(bytes, to: path))
            defer { unlink(path) }  // (the stream below has it open: removing the name loses nothing)
            reader = GPXReader(
                stream: try ByteStream(path: path, chunkBytes: chunkBytes, maximumRecordBytes: 1 << 16),
                options: options, pointKinds: .all)
        } else {
            reader = GPXReader(stream: ByteStream(bytes: bytes), options: options, pointKinds: .all)
        }
        // Every call either consumes input or ends, so more calls than bytes means a loop that makes no progress.
        var calls = 0
        var errors: [ReadError] = []
        while calls <= bytes.count + 10 {
            calls += 1
            do {
                guard let fix = try reader.next() else { break }
                #expect(fix.latitude.isFinite && abs(fix.latitude) <= 90, "\(context)")
                #expect(fix.longitude.isFinite && abs(fix.longitude) <= 180, "\(context)")
                #expect(fix.altitudeMetres?.isFinite ?? true, "\(context)")
                #expect((fix.courseDegrees ?? 0) >= 0 && (fix.courseDegrees ?? 0) < 360, "\(context)")
                #expect((fix.satellitesUsed ?? 0) >= 0, "\(context)")
            } catch {
                errors.append(error)
            }
        }
        #expect(calls <= bytes.count + 10, "no progress: \(context)")
        for error in errors + reader.report.errors {
            let location = error.location
            #expect(
                location.line > 0 && location.column > 0 && location.byteOffset >= 0
                    && location.byteOffset <= bytes.count,
                "\(context): \(error) (\(bytes.count) bytes)")
            _ = error.description
        }
        if options.lenient { #expect(reader.report.errorCount == reader.report.skipped(.malformed), "\(context)") }
    }

    @Test(arguments: [0, 1, 2])
    func seededMutationsNeverCrashOrLoop(part: Int) throws {
        let seeds = GPXRobustnessTests.seeds()
        var r = GPXTestRandom(seed: 0xC0FFEE + UInt64(part))
        for iteration in 0..<1000 {
            let base = seeds[r.below(seeds.count)]
            let mutated = GPXRobustnessTests.mutate(base, &r)
            let context = "part \(part) mutation \(iteration)"
            try GPXRobustnessTests.check(mutated, options: ReadOptions(lenient: iteration % 2 == 0), context: context)
            if iteration % 50 == 0 {
                try GPXRobustnessTests.check(
                    mutated, options: ReadOptions(), chunkBytes: 64 + r.below(64),
                    file: "-\(part)", context: context)
            }
        }
    }

    @Test func emptyAndTinyInputs() throws {
        for text in [
            "", " ", "<", "<g", "<gpx", "<gpx ", "<gpx>", "<gpx><", "<gpx></", "<gpx/>", "\u{FEFF}<gpx/>",
            "<?xml", "<!--", "<![CDATA[", "<!", "<!D", "<gpx><trkpt", "<gpx><trkpt lat", "<gpx><trkpt lat=",
            "<gpx><trkpt lat='1", "<gpx><trkpt lat='1' lon='2'", "<gpx><trkpt lat='1' lon='2'>",
            "<gpx><trkpt lat='1' lon='2'><time>", "<gpx><trkpt lat='1' lon='2'><time>2000-01-01T00:00:00Z</time>",
            "<gpx><trkpt lat='1' lon='2'><time>2000-01-01T00:00:00Z</time></trkpt>",
        ] {
            try GPXRobustnessTests.check(Array(text.utf8), options: ReadOptions(), context: text)
            try GPXRobustnessTests.check(Array(text.utf8), options: ReadOptions(lenient: true), context: text)
        }
        let last = readGPX("<gpx><trkpt lat='1' lon='2'><time>2000-01-01T00:00:00Z</time></trkpt>")
        #expect(last.fixes.count == 1)
        #expect(last.error != nil)  // no </gpx>
    }

    @Test func anEndlessElementHitsTheRecordLimitWithALine() throws {
        let text = "<gpx>\n<trk>\n<!-- " + String(repeating: "x", count: 5000)
        let path = "/tmp/truetrack-gpx-record-limit-\(getpid()).gpx"
        try #require(writeBytes(Array(text.utf8), to: path))
        defer { unlink(path) }
        var reader = GPXReader(stream: try ByteStream(path: path, chunkBytes: 256, maximumRecordBytes: 1024))
        do {
            _ = try reader.next()
            Issue.record("expected an error")
        } catch {
            guard case .recordTooLong(let location, 1024) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(location.line == 3)
        }
        #expect(try reader.next() == nil)
    }

    /// A field read as missing is counted once, with its point, and only when the point is kept: a point read
    /// again after a buffer refill counted it again, and a point dropped for its time counted it anyway (a
    /// reviewer: one `<ele>1o0</ele>` read in 64-byte chunks counted 5).
    @Test func aFieldReadAsMissingIsCountedOnceWithItsPoint() throws {
        let text = gpx11(
            """
            <trk><trkseg>
            <trkpt lat="1" lon="2"><ele>1o0</ele><time>2000-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="2"><ele>1o0</ele><time>yesterday</time></trkpt>
            </trkseg></trk>
            """)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tt-chunks-\(UUID()).gpx").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = GPXReader(stream: try ByteStream(path: path, chunkBytes: 64), options: ReadOptions(lenient: true))
        let result = reader.readAll()
        #expect(result.fixes.count == 1 && result.fixes.first?.altitudeMetres == nil)
        #expect(result.report.unreadableFieldCount == 1 && result.report.errorCount == 1)
    }

    @Test func hugeAndNonFiniteNumbersAreHandled() throws {
        let result = readGPX(
            gpx11(
                """
                <trkpt lat="1e400" lon="2"><time>2000-01-01T00:00:00Z</time></trkpt>
                <trkpt lat="nan" lon="2"><time>2000-01-01T00:00:00Z</time></trkpt>
                <trkpt lat="1" lon="2"><time>2000-01-01T00:00:00Z</time><ele>1e400</ele><speed>inf</speed><course>nan</course><sat>-1</sat></trkpt>
                <trkpt lat="1" lon="2"><time>2000-01-01T00:00:00Z</time><sat>99999999999999999999</sat></trkpt>
                """), options: ReadOptions(lenient: true))
        // (The satellite count beyond Int is read as missing: the point is kept without it.)
        #expect(result.fixes.count == 2)
        for fix in result.fixes {
            #expect(fix.altitudeMetres == nil && fix.speedMetresPerSecond == nil && fix.courseDegrees == nil)
            #expect(fix.satellitesUsed == nil)
        }
        // (The non-finite altitude, speed and course are read as missing and counted too, in any mode.)
        #expect(result.report.errorCount == 2 && result.report.unreadableFieldCount == 4)
        let unreadable = result.report.unreadableFields.map { error -> String in
            if case .malformedField(_, let field, _, _) = error { field } else { "other" }
        }
        #expect(unreadable == ["ele", "speed", "course", "sat"], "\(result.report.unreadableFields)")
        let kinds = result.report.errors.map { error -> String in
            switch error {
            case .invalidFix: "invalid"
            case .malformedField(_, let field, _, _): field
            default: "other"
            }
        }
        #expect(kinds == ["invalid", "invalid"])
    }
}
