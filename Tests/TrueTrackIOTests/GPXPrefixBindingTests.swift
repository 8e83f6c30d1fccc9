import Testing
import TrueTrackCore

@testable import TrueTrackIO

#if canImport(Glibc)
    import Glibc
#endif

/// How ``GPXReader`` resolves namespace prefixes when a document binds many (``XMLNameIndex``): each prefix resolves to
/// the namespace it was last bound to, however many there are, wherever they are declared. A linear search made
/// reading quadratic in the declarations (a performance tester's: a 2.6 MB root took 17 s); the speed itself is the
/// benchmarks' to measure, these tests check what is read.
@Suite struct GPXPrefixBindingTests {
    static let garmin = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"

    /// A track point at second `second` holding `body` after its time, with `attributes` on its start tag.
    static func point(_ second: Int, _ body: String, attributes: String = "") -> String {
        "<trkpt lat=\"52.5\" lon=\"13.4\"\(attributes)><time>2024-05-01T10:00:\(second < 10 ? "0" : "")\(second)Z"
            + "</time>\(body)</trkpt>\n"
    }

    /// `count` declarations binding the prefixes `f0`, `f1`, … to foreign namespaces (`urn:filler:0`, …).
    static func fillers(_ count: Int) -> String {
        (0..<count).map { " xmlns:f\($0)=\"urn:filler:\($0)\"" }.joined()
    }

    /// A reader of `text` and what it read.
    static func read(_ text: String) -> (result: ReadResult, unreadSpeeds: Int) {
        var reader = GPXReader(stream: ByteStream(bytes: Array(text.utf8)))
        let result = reader.readAll()
        return (result, reader.unreadSpeedElements)
    }

    /// A prefix bound again on an element inside a point takes the new namespace from there on, and keeps it after the
    /// element closes, to the end of the document (as the reader's documentation says: the scope of a declaration is
    /// not tracked), with a few prefixes bound (compared in order) and with many (found by hashing).
    @Test(arguments: [0, 2 * XMLNameIndex.linearLimit, 3_000])
    func aPrefixBoundAgainInsideAPointHoldsFromThereToTheEndOfTheDocument(fillerCount: Int) throws {
        let body =
            Self.point(1, "<extensions xmlns:g=\"\(Self.garmin)\"><g:speed>1</g:speed></extensions>")
            + Self.point(2, "<extensions><g:speed>2</g:speed></extensions>")
            + Self.point(3, "<extensions xmlns:g=\"urn:weather\"><g:speed>3</g:speed></extensions>")
            + Self.point(4, "<extensions><g:speed>4</g:speed></extensions>")
            + Self.point(5, "<extensions><g:speed>5</g:speed></extensions>", attributes: " xmlns:g=\"\(Self.garmin)\"")
            + Self.point(6, "<extensions><g:speed>6</g:speed></extensions>")
        let (result, unread) = Self.read(
            gpx11(body, namespaces: Self.fillers(fillerCount) + " xmlns:g=\"urn:weather\""))
        #expect(result.error == nil)
        #expect(result.fixes.map(\.speedMetresPerSecond) == [1, 2, nil, nil, 5, 6])
        #expect(unread == 2)
    }

    /// Thousands of prefixes bound on the root each resolve to their own namespace in every point after it: Garmin's
    /// (the speed read) or a foreign one (not read, counted); a prefix never declared, and one that only begins like a
    /// bound one, read as undeclared. A lost or confused binding reads a foreign speed, or drops Garmin's.
    @Test func thousandsOfPrefixesBoundOnTheRootEachResolveToTheirOwnNamespace() throws {
        let count = 3_000
        let namespaces = (0..<count).map { " xmlns:p\($0)=\"\($0 % 2 == 0 ? Self.garmin : "urn:weather:\($0)")\"" }
        var body = ""
        for k in 0..<count {
            body += Self.point(k % 60, "<extensions><p\(k):speed>\(k)</p\(k):speed></extensions>")
        }
        body += Self.point(0, "<extensions><q:speed>7</q:speed><p30000:course>8</p30000:course></extensions>")
        let (result, unread) = Self.read(gpx11(body, namespaces: namespaces.joined()))
        #expect(result.error == nil)
        #expect(result.fixes.count == count + 1)
        let speeds = result.fixes.prefix(count).map(\.speedMetresPerSecond)
        let expected: [Double?] = (0..<count).map { k in k % 2 == 0 ? Double(k) : nil }
        #expect(speeds == expected)
        #expect(result.fixes.last.map { $0.speedMetresPerSecond == 7 && $0.courseDegrees == 8 } == true)
        #expect(unread == count / 2)
    }

    /// Prefixes declared again on every point (an app's exports do so), each point binding a different one of them to
    /// Garmin's namespace: its speed is read, the others' course is not.
    @Test func prefixesDeclaredOnEveryPointResolveToThatPointsBindings() throws {
        let prefixes = 40
        var body = ""
        for i in 0..<200 {
            let garmin = i % prefixes
            let attributes = (0..<prefixes).map {
                " xmlns:p\($0)=\"\($0 == garmin ? Self.garmin : "urn:other:\($0)")\""
            }
            let other = (garmin + 1) % prefixes
            body += Self.point(
                i % 60,
                "<extensions><p\(garmin):speed>\(i)</p\(garmin):speed><p\(other):course>9</p\(other):course>"
                    + "</extensions>", attributes: attributes.joined())
        }
        let (result, _) = Self.read(gpx11(body))
        #expect(result.error == nil)
        #expect(result.fixes.map(\.speedMetresPerSecond) == (0..<200).map { Double($0) })
        #expect(result.fixes.allSatisfy { $0.courseDegrees == nil })
    }

    /// The TrueTrack namespace bound twice under one prefix in a start tag is an error naming the attribute, however
    /// many declarations are around the two and in either order, also when the tag is read across many chunks; bound
    /// under thousands of distinct prefixes it is no error, and the last one names the extension.
    @Test func theTrueTrackBindingIsCheckedOnceAmongThousandsOfDeclarations() throws {
        let ns = GPXTrueTrackExtension.namespace
        let filler = Self.fillers(3_000)
        for (first, second) in [(ns, "urn:x"), ("urn:x", ns)] {
            let text = gpx11(
                Self.point(0, ""),
                namespaces: filler + " xmlns:tt=\"\(first)\"" + filler + " xmlns:tt=\"\(second)\"" + filler)
            let line = 2
            let column =
                text.split(separator: "\n")[1].utf8.count - filler.utf8.count - " xmlns:tt=\"\(second)\">".utf8.count
                + 2
            for chunkBytes in [nil, 4_096] {
                var result: ReadResult
                if let chunkBytes {
                    let path = "/tmp/truetrack-prefix-binding-\(getpid()).gpx"
                    #expect(writeBytes(Array(text.utf8), to: path))
                    defer { unlink(path) }
                    var reader = try GPXReader(stream: ByteStream(path: path, chunkBytes: chunkBytes))
                    result = reader.readAll()
                } else {
                    result = Self.read(text).result
                }
                guard case .malformedField(let location, "xmlns:tt", let expected, let found) = result.error else {
                    Issue.record("unexpected \(String(describing: result.error))")
                    continue
                }
                #expect(location.line == line && location.column == column, "\(location)")
                #expect(expected.contains("xmlns:tt=\"\(first)\""))
                #expect(found == "xmlns:tt=\"\(second)\"")
            }
        }
        let many = (0..<3_000).map { " xmlns:t\($0)=\"\(ns)\"" }.joined()
        let (result, _) = Self.read(gpx11(Self.point(0, "<t2999:speed_mps>3.5</t2999:speed_mps>"), namespaces: many))
        #expect(result.error == nil)
        #expect(result.fixes.first?.speedMetresPerSecond == 3.5)
    }

    /// A document binding more distinct prefixes than the reader's limit (``GPXReader/maximumPrefixes``, here
    /// lowered: every one is remembered to the document's end), or longer ones than its limit of bytes, stops with an
    /// error naming the file, the declaration's line and byte, and the limit, even when lenient; a prefix bound again
    /// is no new one, and as many as the limit read.
    @Test func bindingMorePrefixesThanTheLimitStopsWithAnErrorNamingTheDeclaration() throws {
        // Line 2 binds p0…p9 (20 bytes) and p0 again; line 4 a point binding p10 (23 bytes in all).
        let text = gpx11(
            Self.point(0, "", attributes: " xmlns:p10=\"urn:x\""),
            namespaces: (0..<10).map { " xmlns:p\($0)=\"urn:x\"" }.joined() + " xmlns:p0=\"urn:y\"")
        let declaration = try #require(find(Array("xmlns:p10".utf8), in: Array(text.utf8)))
        for (limits, read) in [((10, 100), false), ((100, 22), false), ((11, 23), true)] {
            for lenient in [false, true] {
                var reader = GPXReader(
                    stream: ByteStream(bytes: Array(text.utf8), name: "prefixes.gpx"),
                    options: ReadOptions(lenient: lenient))
                reader.prefixLimits = (prefixes: limits.0, bytes: limits.1)
                let result = reader.readAll()
                #expect(result.fixes.count == (read ? 1 : 0), "\(limits)")
                if read {
                    #expect(result.error == nil, "\(limits)")
                    continue
                }
                guard case .unreadableStructure(let location, let expected, let found) = result.error else {
                    Issue.record("unexpected \(String(describing: result.error)) for \(limits)")
                    continue
                }
                #expect(location.file == "prefixes.gpx" && location.line == 4 && location.byteOffset == declaration)
                #expect(
                    expected.hasPrefix(
                        "at most \(limits.0) distinct namespace prefixes bound in a document, of at most \(limits.1) "
                            + "bytes together"), "\(expected)")
                #expect(expected.hasSuffix("10 bound before this one, of 20 bytes)"), "\(expected)")
                #expect(found == "xmlns:p10", "\(found)")
            }
        }
    }

    /// The name index finds every name it was given, by the index it was given, and no other (names that differ in
    /// their last byte, or are a prefix of another), below and past ``XMLNameIndex/linearLimit`` and across the hash
    /// table's growth; emptied, it finds none and indexes from 0 again.
    @Test func aNameIndexFindsEveryNameItWasGivenAndNoOther() {
        var index = XMLNameIndex()
        let names = (0..<5_000).map { Array("n\($0)".utf8) }
        func find(_ name: [UInt8], in index: XMLNameIndex) -> Int? {
            name.withUnsafeBytes { index.index(of: $0, 0, name.count) }
        }
        for (k, name) in names.enumerated() {
            #expect(find(name, in: index) == nil)
            let added = name.withUnsafeBytes { index.append($0, 0, name.count) }
            #expect(added == k)
            if k == XMLNameIndex.linearLimit || k % 997 == 0 {
                #expect(names[...k].enumerated().allSatisfy { find($1, in: index) == $0 }, "after \(k)")
            }
        }
        #expect(names.enumerated().allSatisfy { find($1, in: index) == $0 })
        #expect(find(Array("n5000".utf8), in: index) == nil && find(Array("n".utf8), in: index) == nil)
        #expect(find([], in: index) == nil && index.count == 5_000)
        #expect(index.byteCount == names.reduce(0) { $0 + $1.count })
        index.removeAll()
        #expect(index.count == 0 && find(names[3], in: index) == nil)
        #expect(names[3].withUnsafeBytes { index.append($0, 0, names[3].count) } == 0)
        #expect(find(names[3], in: index) == 0)
    }
}
