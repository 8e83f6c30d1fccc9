import TrueTrackCore

/// Reads fixes from KML (Keyhole Markup Language: Google Earth, Google's My Tracks, GPS loggers' KML exports),
/// streaming.
///
/// ## What becomes a fix
/// - A **track** (`<gx:Track>`, or KML 2.3's `<Track>`): its `<when>` times and `<gx:coord>` positions
///   (`longitude latitude altitude`, separated by spaces), paired in order. Every track is a segment
///   (``lastSegmentIndex``), also the tracks of a `<gx:MultiTrack>`. A track holds its times and positions until
///   it ends (KML writes all the times before all the positions): 24 bytes per position, at most 2 Mi positions
///   per track, beyond which the track is rejected. A `<when>` without a position or a position without a
///   `<when>` makes the track an error (the pairs would be shifted), as a time or a position that does not read.
/// - A **placemark with a time and a point** (`<Placemark>` with `<TimeStamp><when>` and `<Point><coordinates>`
///   `longitude,latitude[,altitude]`): one fix. A placemark with a point and no time stamp (a marked place,
///   or a `<TimeSpan>`'s interval) is skipped as ``SkipReason/missingTime``, as is a `<LineString>` (a path
///   without times: a planned route, or Google Timeline's day export).
///
/// Times are ISO 8601 (`2024-05-01T10:00:00Z`, with an offset, or without a zone: UTC). KML has no accuracy,
/// speed or course for a position: the fixes have none, and their provider is ``Provider/gps``.
///
/// ## XML
/// A byte scanner over a ``ByteStream`` (one chunk of memory plus a track's pairs), which understands comments,
/// CDATA sections, processing instructions, a DOCTYPE, the predefined entities and character references, any
/// namespace prefix and attributes in either quote style. The root element must be `<kml>`; every end tag must
/// match its start tag (an error naming both, which ends the reading even when lenient, as broken markup in
/// ``GPXReader`` does), and after `</kml>` only white space, comments and processing instructions may follow.
/// Elements nest at most 256 deep.
///
/// ## Errors
/// Errors name the file, line, column and byte. A track or placemark whose values do not read is an error; with
/// ``ReadOptions/lenient`` it is counted and skipped, and reading goes on after it. The input ending inside the
/// document is ``ReadError/truncated(_:expected:)``: a track that was being read is lost with it.
public struct KMLReader: FixReader, ByteStreamReader {
    /// What the reader has seen so far (``ReadReport/recordsRead`` counts tracks' positions and placemarks).
    public private(set) var report: ReadReport
    /// The options the reader was created with.
    public let options: ReadOptions
    /// The 0-based index of the track (`<gx:Track>`, in document order) the most recently returned fix came from;
    /// `nil` for a placemark's point or before the first fix. A change of index between two fixes marks a segment
    /// break.
    public private(set) var lastSegmentIndex: Int?

    let stream: ByteStream
    /// The 1-based line of `stream.start`, and the absolute offset of that line's first byte.
    var line = 1
    var lineStart = 0

    /// What an open element is to the reader.
    enum Element: Equatable {
        case root, placemark, timeStamp, when, point, coordinates, track, coord, lineString, other
    }

    /// The open elements, the root first: what each is, and its name's bytes (`openNames[openEnds[k - 1]..<openEnds[k]]`)
    /// to check its end tag against.
    var open: [Element] = []
    var openNames: [UInt8] = []
    var openEnds: [Int] = []
    var sawRoot = false
    var rootClosed = false
    var finished = false

    /// The text of the element being read for a value (`when`, `coord`, `coordinates`), decoded, and where it began.
    var text: [UInt8] = []
    var isCapturing = false
    var textLocation = SourceLocation(file: "", line: 0, byteOffset: 0)

    /// The track being read: its times and positions in document order (`nil` where a value did not read and the
    /// reading is lenient), where it began, and whether it already failed.
    var trackTimes: [Timestamp?] = []
    var trackPositions: [Position?] = []
    var trackLocation = SourceLocation(file: "", line: 0, byteOffset: 0)
    var trackFailed = false
    var trackCount = 0

    /// The placemark being read: its time stamp's time, its point's position, and where it began.
    var placemarkTime: Timestamp?
    var placemarkPosition: Position?
    /// Whether the placemark holds a track (whose fixes are the track's) or a line (a path without times).
    var placemarkHasTrack = false
    var placemarkHasLine = false
    var placemarkLocation = SourceLocation(file: "", line: 0, byteOffset: 0)

    /// Fixes ready to be returned (a finished track's), the next one's index, and their track.
    var pending: [Fix] = []
    var pendingIndex = 0
    var pendingSegment: Int?

    /// A position read from KML.
    struct Position {
        var longitude: Double
        var latitude: Double
        var altitude: Double?
        var location: SourceLocation
    }

    /// The most positions one track may hold (as ``GeoJSONReader``'s line features).
    static let maximumTrackPositions = 2 << 20
    /// Elements nested deeper than this are an error (memory stays bounded).
    static let maximumDepth = 256
    /// A value's text longer than this is cut (no time or position is anywhere near).
    static let textLimit = 4096

    /// Creates a reader over `stream`.
    ///
    /// - Parameter options: leniency and provider filter (defaults: strict, all providers).
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        self.options = options
        report = ReadReport(source: stream.name)
        lineStart = stream.bytesConsumed
    }

    // MARK: - Reading

    /// Returns the next fix, or `nil` at the end of the document.
    ///
    /// - Throws: ``ReadError`` at the first bad track or placemark (unless lenient), at broken markup, and when
    ///   the input ends inside the document.
    public mutating func next() throws(ReadError) -> Fix? {
        while true {
            if pendingIndex < pending.count {
                let fix = pending[pendingIndex]
                pendingIndex += 1
                lastSegmentIndex = pendingSegment
                report.fixesProduced += 1
                report.bytesRead = stream.bytesConsumed
                return fix
            }
            if finished {
                report.bytesRead = stream.bytesConsumed
                return nil
            }
            do throws(ReadError) {
                try step()
            } catch {
                finished = true
                throw error
            }
        }
    }

    /// Scans one piece of the document: character data up to the next markup, or one piece of markup.
    mutating func step() throws(ReadError) {
        var p = stream.window
        let start = stream.start
        if start == stream.end {
            if try stream.refill() { return }
            try endOfInput()
            return
        }
        if p[start] != XMLBytes.lt {
            guard let lt = XMLBytes.find(XMLBytes.lt, p, start, stream.end) else {
                // Text running past the window: read whole while it is a value's (an entity may straddle the
                // boundary); passed over otherwise.
                if isCapturing, try stream.refill() { return }
                try characterData(p, start, stream.end)
                advance(to: stream.end)
                return
            }
            try characterData(p, start, lt)
            advance(to: lt)
            return
        }
        // Markup: find its end in the window, refilling until it is there.
        var close = markupEnd(p, start, stream.end)
        if close == nil {
            if try stream.refill() { return }
            p = stream.window
            close = markupEnd(p, stream.start, stream.end)
        }
        guard let close else {
            finished = true
            throw ReadError.truncated(location(at: stream.start), expected: "the end of the markup")
        }
        try markup(p, stream.start, close)
        advance(to: close)
    }

    /// The index one past the end of the markup starting at `p[start]` (`<`), or `nil` when the window ends first.
    func markupEnd(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        // (`matches` is -1 when the window ends before it can tell: more input is needed.)
        switch XMLBytes.matches(p, start, end, "<!--") {
        case -1: return nil
        case 1: return XMLBytes.find("-->", p, start + 4, end).map { $0 + 3 }
        default: break
        }
        switch XMLBytes.matches(p, start, end, "<![CDATA[") {
        case -1: return nil
        case 1: return XMLBytes.find("]]>", p, start + 9, end).map { $0 + 3 }
        default: break
        }
        switch XMLBytes.matches(p, start, end, "<?") {
        case -1: return nil
        case 1: return XMLBytes.find("?>", p, start + 2, end).map { $0 + 2 }
        default: break
        }
        // A tag or a declaration: `>` outside quoted attribute values (a DOCTYPE's internal subset in brackets).
        var quote: UInt8 = 0
        var brackets = 0
        var k = start + 1
        while k < end {
            let c = p[k]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == XMLBytes.quote || c == XMLBytes.apostrophe {
                quote = c
            } else if c == UInt8(ascii: "[") {
                brackets += 1
            } else if c == UInt8(ascii: "]") {
                brackets -= 1
            } else if c == XMLBytes.gt, brackets <= 0 {
                return k + 1
            }
            k += 1
        }
        return nil
    }

    /// Character data `p[start..<end]`: a value's text is kept; outside the root only white space may stand.
    mutating func characterData(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        if isCapturing {
            guard XMLBytes.appendDecoded(p, start, end, to: &text, limit: KMLReader.textLimit) else {
                try failValue(
                    .malformedRecord(
                        location(at: start),
                        expected: "text with the predefined entities (&amp; &lt; &gt; &quot; &apos;)",
                        found: ReadError.quote(p, start, min(end, start + 24))))
                return
            }
            return
        }
        if !sawRoot || rootClosed, let bad = XMLBytes.firstNonSpace(p, start, end) {
            throw ReadError.malformedRecord(
                location(at: bad),
                expected: rootClosed ? "nothing after </kml> but white space and comments" : "a <kml> root element",
                found: ReadError.quote(p, bad, min(end, bad + 24)))
        }
    }

    /// One piece of markup `p[start..<end]` (from `<` through `>`).
    mutating func markup(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        if XMLBytes.matches(p, start, end, "<![CDATA[") > 0 {
            guard sawRoot, !rootClosed else {
                throw ReadError.malformedRecord(
                    location(at: start), expected: "a <kml> root element", found: ReadError.quote(p, start, end))
            }
            if isCapturing { XMLBytes.append(p, start + 9, end - 3, to: &text, limit: KMLReader.textLimit) }
            return
        }
        if XMLBytes.matches(p, start, end, "<!") > 0 || XMLBytes.matches(p, start, end, "<?") > 0 { return }
        if p[start + 1] == XMLBytes.slash {
            try endTag(p, start, end)
        } else {
            try startTag(p, start, end)
        }
    }

    /// The name of the tag at `p[from..<end]`: its bytes' range and its local name's start (after a prefix).
    func name(_ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int) -> (start: Int, end: Int, local: Int) {
        var k = from
        while k < end, XMLBytes.isNameChar(p[k]) { k += 1 }
        return (from, k, XMLBytes.localNameStart(p, from, k))
    }

    mutating func startTag(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        let (nameStart, nameEnd, local) = name(p, start + 1, end)
        guard nameEnd > nameStart, XMLBytes.isNameStart(p[nameStart]) else {
            throw ReadError.malformedRecord(
                location(at: start), expected: "an element's name after '<'", found: ReadError.quote(p, start, end))
        }
        let selfClosing = p[end - 2] == XMLBytes.slash
        if rootClosed {
            throw ReadError.malformedRecord(
                location(at: start),
                expected: "nothing after </kml> but white space and comments (two documents joined? split them)",
                found: ReadError.quote(p, start, end))
        }
        if !sawRoot {
            guard XMLBytes.equals(p, local, nameEnd, "kml") else {
                throw ReadError.malformedRecord(
                    location(at: start), expected: "a <kml> root element (is this a KML file?)",
                    found: ReadError.quote(p, start, end))
            }
            sawRoot = true
        }
        guard open.count < KMLReader.maximumDepth else {
            throw ReadError.malformedRecord(
                location(at: start), expected: "elements nested at most \(KMLReader.maximumDepth) deep",
                found: "deeper nesting")
        }
        let kind = classify(p, local, nameEnd)
        open.append(kind)
        for k in nameStart..<nameEnd { openNames.append(p[k]) }
        openEnds.append(openNames.count)
        try opened(kind, at: start)
        if selfClosing { try closed() }
    }

    /// What the element named `p[local..<end]` (its local name) is where it opens.
    func classify(_ p: UnsafeRawBufferPointer, _ local: Int, _ end: Int) -> Element {
        let parent = open.last
        if open.isEmpty { return .root }
        switch end - local {
        case 4 where XMLBytes.equals(p, local, end, "when"):
            return parent == .track || parent == .timeStamp ? .when : .other
        case 5 where XMLBytes.equals(p, local, end, "coord"):
            return parent == .track ? .coord : .other
        case 5 where XMLBytes.equals(p, local, end, "Track"):
            return .track
        case 5 where XMLBytes.equals(p, local, end, "Point"):
            return parent == .placemark ? .point : .other
        case 9 where XMLBytes.equals(p, local, end, "Placemark"):
            return .placemark
        case 9 where XMLBytes.equals(p, local, end, "TimeStamp"):
            return parent == .placemark ? .timeStamp : .other
        case 10 where XMLBytes.equals(p, local, end, "LineString"):
            return .lineString
        case 11 where XMLBytes.equals(p, local, end, "coordinates"):
            return parent == .point ? .coordinates : .other
        default:
            return .other
        }
    }

    /// An element of `kind` opened at `start`.
    mutating func opened(_ kind: Element, at start: Int) throws(ReadError) {
        switch kind {
        case .when, .coord, .coordinates:
            isCapturing = true
            text.removeAll(keepingCapacity: true)
            textLocation = location(at: start)
        case .track:
            trackTimes.removeAll(keepingCapacity: true)
            trackPositions.removeAll(keepingCapacity: true)
            trackLocation = location(at: start)
            trackFailed = false
            if open.contains(.placemark) { placemarkHasTrack = true }
        case .placemark:
            (placemarkTime, placemarkPosition, placemarkHasTrack, placemarkHasLine) = (nil, nil, false, false)
            placemarkLocation = location(at: start)
        case .lineString:
            if open.contains(.placemark) { placemarkHasLine = true }
        default:
            break
        }
    }

    mutating func endTag(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        let (nameStart, nameEnd, _) = name(p, start + 2, end)
        guard let last = openEnds.last else {
            throw ReadError.malformedRecord(
                location(at: start), expected: "a <kml> root element", found: ReadError.quote(p, start, end))
        }
        let first = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
        let matches =
            nameEnd - nameStart == last - first
            && (0..<(last - first)).allSatisfy { p[nameStart + $0] == openNames[first + $0] }
        guard matches else {
            let openName = String(decoding: openNames[first..<last], as: UTF8.self)
            throw ReadError.malformedRecord(
                location(at: start), expected: "</\(openName)> closing <\(openName)>",
                found: ReadError.quote(p, start, end))
        }
        try closed()
    }

    /// The innermost open element closed.
    mutating func closed() throws(ReadError) {
        let kind = open.removeLast()
        openEnds.removeLast()
        openNames.removeSubrange((openEnds.last ?? 0)...)
        switch kind {
        case .root:
            rootClosed = true
        case .when:
            isCapturing = false
            let time = try readTime()
            if open.last == .track {
                try keep { $0.trackTimes.append(time) }
            } else if open.count >= 2, open[open.count - 2] == .placemark {
                placemarkTime = time
            }
        case .coord:
            isCapturing = false
            let position = try readPosition(separator: 0x20)
            try keep { $0.trackPositions.append(position) }
        case .coordinates:
            isCapturing = false
            placemarkPosition = try readPosition(separator: UInt8(ascii: ","))
        case .track:
            try finishTrack()
        case .placemark:
            try finishPlacemark()
        default:
            break
        }
    }

    /// Appends to the track being read, unless it holds the most a track may.
    mutating func keep(_ append: (inout KMLReader) -> Void) throws(ReadError) {
        guard max(trackTimes.count, trackPositions.count) < KMLReader.maximumTrackPositions else {
            if !trackFailed {
                trackFailed = true
                try report.reject(
                    .malformedRecord(
                        trackLocation, expected: "at most \(KMLReader.maximumTrackPositions) positions per track",
                        found: "more"), lenient: options.lenient)
            }
            return
        }
        append(&self)
    }

    /// The time the captured text gives, or `nil` (after reporting it, when lenient) when it does not read.
    mutating func readTime() throws(ReadError) -> Timestamp? {
        let (s, e) = text.withUnsafeBytes { XMLBytes.trim($0, 0, $0.count) }
        let time = text.withUnsafeBytes { ISO8601.parse($0, from: s, to: e) }
        if time == nil {
            try failValue(
                .malformedField(
                    textLocation, field: "when", expected: "an ISO 8601 time such as 2024-05-01T12:00:00Z",
                    found: String(decoding: text[s..<e].prefix(40), as: UTF8.self)))
        }
        return time
    }

    /// The position the captured text gives (longitude, latitude and an optional altitude, `separator` between
    /// them; white space around it), or `nil` (after reporting it, when lenient) when it does not read.
    mutating func readPosition(separator: UInt8) throws(ReadError) -> Position? {
        let values: [Double]? = text.withUnsafeBytes { p in
            var values: [Double] = []
            var k = 0
            let n = p.count
            while k < n {
                while k < n, XMLBytes.isSpace(p[k]) { k += 1 }
                guard k < n else { break }
                var e = k
                while e < n, p[e] != separator, !XMLBytes.isSpace(p[e]) { e += 1 }
                guard let value = NumberParsing.double(p, k, e), value.isFinite else { return nil }
                values.append(value)
                k = e
                while k < n, XMLBytes.isSpace(p[k]) { k += 1 }
                if separator != 0x20, k < n {
                    guard p[k] == separator, values.count < 3 else { return nil }
                    k += 1
                }
            }
            return values
        }
        guard let values, values.count == 2 || values.count == 3 else {
            let (s, e) = text.withUnsafeBytes { XMLBytes.trim($0, 0, $0.count) }
            try failValue(
                .malformedField(
                    textLocation, field: separator == 0x20 ? "gx:coord" : "coordinates",
                    expected: separator == 0x20
                        ? "longitude latitude [altitude], separated by spaces"
                        : "longitude,latitude[,altitude]",
                    found: String(decoding: text[s..<e].prefix(40), as: UTF8.self)))
            return nil
        }
        return Position(
            longitude: values[0], latitude: values[1], altitude: values.count == 3 ? values[2] : nil,
            location: textLocation)
    }

    /// A value that does not read: an error (counted when lenient; its track or placemark then yields nothing for it).
    mutating func failValue(_ error: ReadError) throws(ReadError) {
        try report.reject(error, lenient: options.lenient)
    }

    /// A track ended: its pairs become the pending fixes.
    mutating func finishTrack() throws(ReadError) {
        let index = trackCount
        trackCount += 1
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        pendingSegment = index
        guard !trackFailed else { return }
        report.recordsRead += trackPositions.count
        guard trackTimes.count == trackPositions.count else {
            try report.reject(
                .malformedRecord(
                    trackLocation, expected: "one <when> per <gx:coord> in the track",
                    found: "\(trackTimes.count) <when> and \(trackPositions.count) <gx:coord>"),
                lenient: options.lenient)
            return
        }
        for (time, position) in zip(trackTimes, trackPositions) {
            guard let time, let position else { continue }  // reported when read
            if let fix = try makeFix(time, position) { pending.append(fix) }
        }
    }

    /// A placemark ended: with a time stamp and a point, a fix.
    mutating func finishPlacemark() throws(ReadError) {
        guard !placemarkHasTrack else { return }  // its track's fixes are the track's
        if placemarkHasLine, placemarkPosition == nil {
            // A path without times: a planned route, or Google Timeline's day export.
            report.recordsRead += 1
            report.skip(.missingTime)
            return
        }
        guard let position = placemarkPosition else { return }
        report.recordsRead += 1
        guard let time = placemarkTime else {
            report.skip(.missingTime)
            return
        }
        if let fix = try makeFix(time, position) {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            pendingSegment = nil
            pending.append(fix)
        }
    }

    /// The fix of a time and a position, or `nil` when the provider filter leaves it out or (lenient) it is invalid.
    mutating func makeFix(_ time: Timestamp, _ position: Position) throws(ReadError) -> Fix? {
        if let providers = options.providers, !providers.contains(.gps) {
            report.skip(.providerFiltered)
            return nil
        }
        do {
            return try Fix(
                timestamp: time, latitude: position.latitude, longitude: options.longitude(position.longitude),
                altitudeMetres: position.altitude, provider: .gps)
        } catch {
            try report.reject(.invalidFix(position.location, error), lenient: options.lenient)
            return nil
        }
    }

    /// The input ended.
    mutating func endOfInput() throws(ReadError) {
        finished = true
        if !sawRoot {
            throw ReadError.truncated(location(at: stream.start), expected: "a <kml> root element")
        }
        if !rootClosed {
            let openName = String(
                decoding: openNames[(openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0)...], as: UTF8.self)
            throw ReadError.truncated(location(at: stream.start), expected: "</\(openName)>")
        }
    }

    // MARK: - Places

    /// Consumes the window up to `index`, counting the lines passed.
    mutating func advance(to index: Int) {
        let p = stream.window
        var k = stream.start
        while k < index, let newline = XMLBytes.find(XMLBytes.newline, p, k, index) {
            line += 1
            lineStart = stream.offset(ofIndex: newline + 1)
            k = newline + 1
        }
        stream.consume(upTo: index)
    }

    /// The location of window index `index` (at or after `stream.start`).
    func location(at index: Int) -> SourceLocation {
        let p = stream.window
        var (line, lineStart) = (self.line, self.lineStart)
        var k = stream.start
        while k < index, let newline = XMLBytes.find(XMLBytes.newline, p, k, index) {
            line += 1
            lineStart = stream.offset(ofIndex: newline + 1)
            k = newline + 1
        }
        let offset = stream.offset(ofIndex: index)
        return SourceLocation(file: stream.name, line: line, column: offset - lineStart + 1, byteOffset: offset)
    }
}
