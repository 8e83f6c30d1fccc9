import TrueTrackCore

/// Reads fixes from KML (Keyhole Markup Language: Google Earth, Google's My Tracks, OpenTracks, GPS loggers' KML
/// exports), streaming.
///
/// ## What becomes a fix
/// - A **track** (`<gx:Track>`, or KML 2.3's `<Track>`): its `<when>` times and `<gx:coord>` positions
///   (`longitude latitude altitude`, separated by spaces), paired in order. Every track is a segment
///   (``lastSegmentIndex``), also the tracks of a `<gx:MultiTrack>`. A track holds its times and positions until
///   it ends (KML writes all the times before all the positions): about 64 bytes per pair, at most 2 Mi pairs per
///   track, beyond which the track is rejected. A `<when>` without a position or a position without a `<when>`
///   makes the track an error (the pairs would be shifted), as a time or a position that does not read. An
///   empty `<coord/>` (OpenTracks writes one where it had no position) skips its pair as
///   ``SkipReason/missingPosition``; a `<when>` that is a date without a time of day (KML allows `2024-05-01`,
///   `2024-05`, `2024`) skips its pair as ``SkipReason/missingTime``.
/// - A **placemark's point** (`<Placemark>` with `<Point><coordinates>` `longitude,latitude[,altitude]`, also in a
///   `<MultiGeometry>`, its first point) is a marked place, like a GPX waypoint: skipped as
///   ``SkipReason/gpxWaypoint`` unless ``ReadOptions/gpxPointKinds`` asks for waypoints (`--gpx-waypoints`), when
///   one with a `<TimeStamp><when>` is a fix (OpenTracks writes its markers before the track: read in document
///   order they would fall out of time order). A `<LineString>` (a path without times: a planned route, or
///   Google Timeline's day export) is skipped as ``SkipReason/missingTime``.
///
/// Times are ISO 8601 (`2024-05-01T10:00:00Z`, with an offset, or without a zone: UTC). KML has no element for a
/// position's accuracy, speed or course; a track may carry them as per-pair arrays in its `<ExtendedData>`
/// (`<SimpleArrayData name="speed">` of `<value>`s, `gx:` in KML 2.2), as OpenTracks writes `speed` (m/s) and
/// `accuracy_horizontal` / `accuracy_vertical` (m): those named in ``ArrayField`` are read, an empty `<value/>`
/// as none, and an array whose length is not the track's pair count, or with a value that is no number, is left
/// unread (its values cannot be placed, or read).
/// Other fixes have none. The provider is ``Provider/gps``.
///
/// ## XML
/// A byte scanner over a ``ByteStream`` (one chunk of memory plus a track's pairs), which understands comments, CDATA
/// sections, processing instructions, a DOCTYPE, the predefined entities and character references, any namespace
/// prefix and attributes in either quote style. The root element must be `<kml>`; every end tag must match its start
/// tag (an error naming both), and after `</kml>` only white space, comments and processing instructions may follow:
/// these end the reading even when lenient (``ReadError/unreadableStructure(_:expected:found:)``), since no later
/// element can be placed. Elements nest at most 256 deep.
///
/// ## Errors
/// Errors name the file, line, column and byte. A track or placemark whose values do not read is an error; with
/// ``ReadOptions/lenient`` it is counted and its pair left out, and reading goes on after it. The input ending
/// inside the document is ``ReadError/truncated(_:expected:)``, thrown after the complete pairs of a track it cut
/// (as many as both its times and its positions hold) are returned.
public struct KMLReader: FixReader, ByteStreamReader {
    /// What the reader has seen so far (``ReadReport/recordsRead`` counts tracks' positions and placemarks).
    public private(set) var report: ReadReport
    /// The options the reader was created with.
    public let options: ReadOptions
    /// The conversion of times written without a zone (``ReadOptions/localTimeZone``), `nil` without one.
    private var localTimes: LocalTimeConversion?
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
        case root, placemark, timeStamp, when, point, coordinates, track, coord, lineString, multiGeometry
        /// A track's per-pair array (`<SimpleArrayData>`, `<gx:SimpleArrayData>`) and one of its `<value>`s.
        case simpleArrayData, arrayValue
        case other
    }

    /// The quantity of a track's per-pair array that the reader reads, by the array's `name` (OpenTracks writes
    /// `speed`, in m/s, and `accuracy_horizontal` / `accuracy_vertical`, in metres).
    enum ArrayField {
        case speed, accuracy, verticalAccuracy, course

        /// The field an array named `name` holds, or `nil` for one the reader does not read (heart rate, power…).
        init?(name: String) {
            switch name.lowercased() {
            case "speed", "speed_mps", "speed_ms": self = .speed
            case "accuracy", "accuracy_horizontal", "horizontal_accuracy", "hacc": self = .accuracy
            case "accuracy_vertical", "vertical_accuracy", "vacc": self = .verticalAccuracy
            case "course", "bearing": self = .course
            default: return nil
            }
        }

        /// The field's name in an error.
        var label: String {
            switch self {
            case .speed: "speed"
            case .accuracy: "accuracy_horizontal"
            case .verticalAccuracy: "accuracy_vertical"
            case .course: "course"
            }
        }
    }

    /// The open elements, the root first: what each is, and its name's bytes
    /// (`openNames[openEnds[k - 1]..<openEnds[k]]`) to check its end tag against.
    var open: [Element] = []
    var openNames: [UInt8] = []
    var openEnds: [Int] = []
    var sawRoot = false
    var rootClosed = false
    var finished = false

    /// The text of the element being read for a value (`when`, `coord`, `coordinates`), decoded, where it began, and
    /// whether it held a reference that does not read (reported then: the value is none).
    var text: [UInt8] = []
    var isCapturing = false
    var textFailed = false
    var textLocation = Place(line: 0, column: 0, byteOffset: 0)

    /// The track being read: its times and positions in document order (`nil` where a value did not read, or was a
    /// date or an empty `<coord/>`), where it began, and whether it already failed.
    var trackTimes: [Timestamp?] = []
    var trackPositions: [Position?] = []
    var trackLocation = Place(line: 0, column: 0, byteOffset: 0)
    var trackFailed = false
    var trackCount = 0
    /// The track's per-pair arrays read so far (in its `<ExtendedData>`, after its pairs): speed (m/s), accuracies
    /// (m) and course (°), `nil` where a value is empty; an array whose length is not the track's pair count is not
    /// used (its values cannot be placed).
    var trackArrays: [ArrayField: [Double?]] = [:]
    /// The array being read (`nil`: none, or one the reader does not read).
    var arrayField: ArrayField?
    /// The finished track's pair returned next, while its pairs are being returned (`nil` otherwise).
    var emitIndex: Int?

    /// The placemark being read: its time stamp's time, whether that failed to read, its point's position.
    var placemarkTime: Timestamp?
    var placemarkTimeFailed = false
    var placemarkPosition: Position?
    /// Whether the placemark holds a track (whose fixes are the track's) or a line (a path without times).
    var placemarkHasTrack = false
    var placemarkHasLine = false
    /// A placemark's fix waiting to be returned.
    var placemarkFix: Fix?
    /// The input's end inside the document, thrown once the pairs of the track it cut are returned.
    var pendingError: ReadError?

    /// Where a value began (a `SourceLocation` without the file's name, which each would copy).
    struct Place {
        var line: Int32
        var column: Int32
        var byteOffset: Int
    }

    /// A position read from KML.
    struct Position {
        var longitude: Double
        var latitude: Double
        var altitude: Double?
        var place: Place
        /// The altitude was a number but no finite one: read as missing, and counted when the position makes a fix.
        var nonFiniteAltitude = false
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
        localTimes = options.localTimeZone.map(LocalTimeConversion.init(zone:))
    }

    // MARK: - Reading

    /// Returns the next fix, or `nil` at the end of the document.
    ///
    /// - Throws: ``ReadError`` at the first bad track or placemark (unless lenient), at broken markup, and when
    ///   the input ends inside the document.
    public mutating func next() throws(ReadError) -> Fix? {
        while true {
            if emitIndex != nil, let fix = try nextTrackFix() { return fix }
            if let fix = placemarkFix {
                placemarkFix = nil
                lastSegmentIndex = nil
                return produced(fix)
            }
            if finished {
                report.bytesRead = stream.bytesConsumed
                if let error = pendingError {
                    pendingError = nil
                    throw error
                }
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

    /// Counts `fix` as returned.
    mutating func produced(_ fix: Fix) -> Fix {
        report.fixesProduced += 1
        report.bytesRead = stream.bytesConsumed
        return fix
    }

    /// The finished track's next pair that makes a fix, or `nil` (and the emission over) after its last.
    mutating func nextTrackFix() throws(ReadError) -> Fix? {
        while let index = emitIndex, index < trackPositions.count {
            emitIndex = index + 1
            // (`nil`s were reported or counted as they were read.)
            guard let time = trackTimes[index], let position = trackPositions[index] else { continue }
            if let fix = try makeFix(time, position, readings: trackArrays.isEmpty ? nil : readings(at: index)) {
                lastSegmentIndex = trackCount - 1
                return produced(fix)
            }
        }
        emitIndex = nil
        return nil
    }

    /// Scans one piece of the document: character data up to the next markup, or one piece of markup.
    mutating func step() throws(ReadError) {
        var p = stream.window
        if stream.start == stream.end {
            if try stream.refill() { return }
            try endOfInput()
            return
        }
        let start = stream.start
        if p[start] != XMLBytes.lt {
            guard let lt = XMLBytes.find(XMLBytes.lt, p, start, stream.end) else {
                // Text running past the window: read whole while it is a value's (an entity may straddle the
                // boundary); passed over otherwise.
                if isCapturing, try stream.refill() { return }
                p = stream.window
                try characterData(p, stream.start, stream.end)
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
            // (At the input's end, where it was cut: at the markup's start, a few bytes before the end, the
            // error read as one record cut short, and `--lenient` was offered.)
            try endInside(expected: "the end of the markup", at: stream.end)
            return
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
        // A tag or a declaration.
        return XMLBytes.markupEnd(p, from: start + 1, end)
    }

    /// Character data `p[start..<end]`: a value's text is kept; outside the root only white space may stand.
    mutating func characterData(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        if isCapturing {
            guard textFailed || XMLBytes.appendDecoded(p, start, end, to: &text, limit: KMLReader.textLimit) else {
                textFailed = true
                try report.reject(
                    .malformedRecord(
                        location(at: start),
                        expected: "text with the predefined entities (&amp; &lt; &gt; &quot; &apos;)",
                        found: ReadError.quote(p, start, min(end, start + 24))), lenient: options.lenient)
                return
            }
            return
        }
        if !sawRoot || rootClosed, let bad = XMLBytes.firstNonSpace(p, start, end) {
            throw outsideTheRoot(p, bad, min(end, bad + 24))
        }
    }

    /// The error for markup or text at `p[start..<end]` outside the root element.
    func outsideTheRoot(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> ReadError {
        .unreadableStructure(
            location(at: start),
            expected: rootClosed ? KMLReader.afterTheRoot : KMLReader.rootExpectation,
            found: ReadError.quote(p, start, end))
    }

    /// What may follow `</kml>` (an ``ReadError/unreadableStructure(_:expected:found:)``'s expectation).
    static let afterTheRoot =
        "nothing after </kml> but white space, comments and processing instructions (two documents joined? split them)"
    /// What the first element must be.
    static let rootExpectation = "a <kml> root element (is this a KML file?)"
    /// The expectation of an end tag that does not match its start tag, before the start tag's name.
    static let closingExpectation = "the end tag closing KML's <"

    /// One piece of markup `p[start..<end]` (from `<` through `>`).
    mutating func markup(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        if XMLBytes.matches(p, start, end, "<![CDATA[") > 0 {
            guard sawRoot, !rootClosed else { throw outsideTheRoot(p, start, end) }
            if isCapturing, !textFailed {
                XMLBytes.append(p, start + 9, end - 3, to: &text, limit: KMLReader.textLimit)
            }
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
        if rootClosed { throw outsideTheRoot(p, start, end) }
        if !sawRoot {
            guard XMLBytes.equals(p, local, nameEnd, "kml") else { throw outsideTheRoot(p, start, end) }
            sawRoot = true
        }
        guard open.count < KMLReader.maximumDepth else {
            throw ReadError.unreadableStructure(
                location(at: start), expected: GPXReader.depthExpectation, found: "deeper nesting")
        }
        let kind = classify(p, local, nameEnd)
        if kind == .simpleArrayData {
            arrayField = KMLReader.attribute("name", p, nameEnd, end).flatMap(ArrayField.init(name:))
            if let arrayField { trackArrays[arrayField] = [] }
        }
        open.append(kind)
        for k in nameStart..<nameEnd { openNames.append(p[k]) }
        openEnds.append(openNames.count)
        opened(kind, at: start)
        if selfClosing { try closed() }
    }

    /// What the element named `p[local..<end]` (its local name) is where it opens.
    func classify(_ p: UnsafeRawBufferPointer, _ local: Int, _ end: Int) -> Element {
        guard let parent = open.last else { return .root }
        let name = UnsafeRawBufferPointer(rebasing: p[local..<end])
        switch end - local {
        case 4 where name.elementsEqual("when".utf8):
            return parent == .track || parent == .timeStamp ? .when : .other
        case 5 where name.elementsEqual("coord".utf8):
            return parent == .track ? .coord : .other
        case 5 where name.elementsEqual("Track".utf8):
            return .track
        case 5 where name.elementsEqual("value".utf8):
            return parent == .simpleArrayData ? .arrayValue : .other
        case 15 where name.elementsEqual("SimpleArrayData".utf8):
            return open.contains(.track) ? .simpleArrayData : .other
        case 5 where name.elementsEqual("Point".utf8):
            return parent == .placemark || parent == .multiGeometry ? .point : .other
        case 9 where name.elementsEqual("Placemark".utf8):
            return .placemark
        case 9 where name.elementsEqual("TimeStamp".utf8):
            return parent == .placemark ? .timeStamp : .other
        case 10 where name.elementsEqual("LineString".utf8):
            return .lineString
        case 11 where name.elementsEqual("coordinates".utf8):
            return parent == .point ? .coordinates : .other
        case 13 where name.elementsEqual("MultiGeometry".utf8):
            return parent == .placemark ? .multiGeometry : .other
        default:
            return .other
        }
    }

    /// An element of `kind` opened at `start`.
    mutating func opened(_ kind: Element, at start: Int) {
        switch kind {
        case .when, .coord, .coordinates, .arrayValue:
            isCapturing = true
            textFailed = false
            text.removeAll(keepingCapacity: true)
            textLocation = place(at: start)
        case .track:
            trackTimes.removeAll(keepingCapacity: true)
            trackPositions.removeAll(keepingCapacity: true)
            trackLocation = place(at: start)
            trackFailed = false
            trackArrays.removeAll(keepingCapacity: true)
            if open.contains(.placemark) { placemarkHasTrack = true }
        case .placemark:
            (placemarkTime, placemarkTimeFailed, placemarkPosition) = (nil, false, nil)
            (placemarkHasTrack, placemarkHasLine) = (false, false)
        case .lineString:
            if open.contains(.placemark) { placemarkHasLine = true }
        default:
            break
        }
    }

    mutating func endTag(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) throws(ReadError) {
        let (nameStart, nameEnd, _) = name(p, start + 2, end)
        guard let last = openEnds.last else { throw outsideTheRoot(p, start, end) }
        let first = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
        let matches =
            nameEnd - nameStart == last - first
            && (0..<(last - first)).allSatisfy { p[nameStart + $0] == openNames[first + $0] }
        guard matches else {
            let openName = String(decoding: openNames[first..<last], as: UTF8.self)
            throw ReadError.unreadableStructure(
                location(at: start), expected: KMLReader.closingExpectation + "\(openName)>: </\(openName)>",
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
                if try hasRoom(trackTimes.count) { trackTimes.append(time) }
            } else if open.count >= 2, open[open.count - 2] == .placemark {
                placemarkTime = time
                placemarkTimeFailed = time == nil && textFailed
            }
        case .coord:
            isCapturing = false
            let position = try readPosition(separator: 0x20)
            if try hasRoom(trackPositions.count) { trackPositions.append(position) }
        case .coordinates:
            isCapturing = false
            let position = try readPosition(separator: UInt8(ascii: ","))
            if placemarkPosition == nil { placemarkPosition = position }
        case .arrayValue:
            isCapturing = false
            if let field = arrayField, let count = trackArrays[field]?.count, try hasRoom(count) {
                let value = readArrayValue(field)
                trackArrays[field]?.append(value)
            }
        case .simpleArrayData:
            arrayField = nil
        case .track:
            try finishTrack()
        case .placemark:
            try finishPlacemark()
        default:
            break
        }
    }

    /// Whether a list of the track being read that holds `count` values may take one more; the first time it may not,
    /// the track is rejected (reported, or thrown unless lenient).
    mutating func hasRoom(_ count: Int) throws(ReadError) -> Bool {
        guard count >= KMLReader.maximumTrackPositions else { return true }
        if !trackFailed {
            trackFailed = true
            try report.reject(
                .malformedRecord(
                    location(trackLocation),
                    expected: "at most \(KMLReader.maximumTrackPositions) positions per track", found: "more"),
                lenient: options.lenient)
        }
        return false
    }

    /// The time the captured text gives, or `nil`: after reporting it (when lenient) when it does not read, and
    /// after counting it as ``SkipReason/missingTime`` when it is a date without a time of day.
    mutating func readTime() throws(ReadError) -> Timestamp? {
        guard !textFailed else { return nil }
        let (s, e) = text.withUnsafeBytes { XMLBytes.trim($0, 0, $0.count) }
        // (KML's dates alone, `2024-05-01`, `2024-05`, `2024`: a day, not a time of a fix.)
        if e - s <= 10, !text[s..<e].contains(UInt8(ascii: "T")), !text[s..<e].contains(UInt8(ascii: ":")),
            text[s..<e].allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) })
        {
            report.skip(.missingTime)
            return nil
        }
        var hasZone = false
        var time = text.withUnsafeBytes { ISO8601.parse($0, from: s, to: e, hasZone: &hasZone) }
        if let local = time, !hasZone, localTimes != nil {
            report.localTimesConverted += 1
            time = localTimes!.utc(fromLocal: local)
        }
        if time == nil {
            textFailed = true
            try report.reject(
                .malformedField(
                    location(textLocation), field: "when", expected: "an ISO 8601 time such as 2024-05-01T12:00:00Z",
                    found: String(decoding: text[s..<e].prefix(40), as: UTF8.self)), lenient: options.lenient)
        }
        return time
    }

    /// The position the captured text gives (longitude, latitude and an optional altitude, `separator` between
    /// them; white space around it), or `nil`: after reporting it (when lenient) when it does not read, and after
    /// counting it as ``SkipReason/missingPosition`` when it is empty (OpenTracks' `<coord/>`).
    mutating func readPosition(separator: UInt8) throws(ReadError) -> Position? {
        guard !textFailed else { return nil }
        let (s, e) = text.withUnsafeBytes { XMLBytes.trim($0, 0, $0.count) }
        if s == e {
            report.skip(.missingPosition)
            return nil
        }
        // Up to three numbers, without an array per position. A non-finite altitude (`NaN`, `inf`, `1e400`) is read
        // as missing and counted, as every reader does (it failed the whole position); a non-finite longitude or
        // latitude fails it.
        var numbers = (0.0, 0.0, 0.0)
        var count = 0
        let readable: Bool = text.withUnsafeBytes { p in
            var k = s
            while k < e {
                var end = k
                while end < e, p[end] != separator, !XMLBytes.isSpace(p[end]) { end += 1 }
                guard let value = NumberParsing.double(p, k, end), value.isFinite || count == 2, count < 3 else {
                    return false
                }
                switch count {
                case 0: numbers.0 = value
                case 1: numbers.1 = value
                default: numbers.2 = value
                }
                count += 1
                k = end
                while k < e, XMLBytes.isSpace(p[k]) { k += 1 }
                if separator != 0x20, k < e {
                    guard p[k] == separator else { return false }
                    k += 1
                    while k < e, XMLBytes.isSpace(p[k]) { k += 1 }
                    guard k < e else { return false }  // a separator with nothing after it
                }
            }
            return true
        }
        guard readable, count >= 2 else {
            try report.reject(
                .malformedField(
                    location(textLocation), field: separator == 0x20 ? "coord" : "coordinates",
                    expected: separator == 0x20
                        ? "longitude latitude [altitude], separated by spaces"
                        : "longitude,latitude[,altitude]",
                    found: String(decoding: text[s..<e].prefix(40), as: UTF8.self)), lenient: options.lenient)
            return nil
        }
        let nonFiniteAltitude = count == 3 && !numbers.2.isFinite
        return Position(
            longitude: numbers.0, latitude: numbers.1, altitude: count == 3 && !nonFiniteAltitude ? numbers.2 : nil,
            place: textLocation, nonFiniteAltitude: nonFiniteAltitude)
    }

    /// The number a track's array `<value>` holds, or `nil` when it is empty; one that is no number leaves the whole
    /// array unread.
    mutating func readArrayValue(_ field: ArrayField) -> Double? {
        guard !textFailed else { return nil }
        let (s, e) = text.withUnsafeBytes { XMLBytes.trim($0, 0, $0.count) }
        if s == e { return nil }
        if let value = text.withUnsafeBytes({ NumberParsing.double($0, s, e) }), value.isFinite { return value }
        // An optional measurement in a form not read (`5 km/h`, a published script's): the array is left unread, as
        // one of another length, and the pairs keep their fixes (a file that read before failed as a whole).
        trackArrays[field] = nil
        arrayField = nil
        return nil
    }

    /// The readings of the finished track's pair `index` from its arrays (those as long as its pair list).
    func readings(at index: Int) -> Readings {
        func value(_ field: ArrayField) -> Double? {
            guard let values = trackArrays[field], values.count == trackPositions.count else { return nil }
            return values[index]
        }
        return Readings(
            speed: value(.speed), accuracy: value(.accuracy), verticalAccuracy: value(.verticalAccuracy),
            course: value(.course))
    }

    /// A pair's readings from its track's arrays.
    struct Readings {
        var speed: Double?
        var accuracy: Double?
        var verticalAccuracy: Double?
        var course: Double?
    }

    /// The value of the attribute `name` in the start tag whose name ends at `p[from]` (the tag ends at `end`, after
    /// its `>`), or `nil` when the tag has none. Entities are not decoded (an array's name has none).
    static func attribute(_ name: StaticString, _ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int) -> String? {
        var k = from
        while k < end {
            while k < end, XMLBytes.isSpace(p[k]) { k += 1 }
            let nameStart = k
            while k < end, XMLBytes.isNameChar(p[k]) { k += 1 }
            let nameEnd = k
            guard nameEnd > nameStart else { return nil }
            while k < end, XMLBytes.isSpace(p[k]) { k += 1 }
            guard k < end, p[k] == UInt8(ascii: "=") else { return nil }
            k += 1
            while k < end, XMLBytes.isSpace(p[k]) { k += 1 }
            guard k < end, p[k] == UInt8(ascii: "\"") || p[k] == UInt8(ascii: "'") else { return nil }
            let quote = p[k]
            let valueStart = k + 1
            guard let valueEnd = XMLBytes.find(quote, p, valueStart, end) else { return nil }
            if XMLBytes.equals(p, nameStart, nameEnd, name) {
                return String(decoding: UnsafeRawBufferPointer(rebasing: p[valueStart..<valueEnd]), as: UTF8.self)
            }
            k = valueEnd + 1
        }
        return nil
    }

    /// A track ended: its pairs are returned next, one by one (``nextTrackFix()``).
    mutating func finishTrack() throws(ReadError) {
        trackCount += 1
        guard !trackFailed else { return }
        report.recordsRead += trackPositions.count
        guard trackTimes.count == trackPositions.count else {
            try report.reject(
                .malformedRecord(
                    location(trackLocation), expected: "one <when> per <coord> in the track",
                    found: "\(trackTimes.count) <when> and \(trackPositions.count) <coord>"),
                lenient: options.lenient)
            return
        }
        emitIndex = 0
    }

    /// A placemark ended: its point is a waypoint (a fix with its time stamp when waypoints are read).
    mutating func finishPlacemark() throws(ReadError) {
        guard !placemarkHasTrack else { return }  // its track's fixes are the track's
        guard let position = placemarkPosition else {
            if placemarkHasLine {
                // A path without times: a planned route, or Google Timeline's day export.
                report.recordsRead += 1
                report.skip(.missingTime)
            }
            return
        }
        report.recordsRead += 1
        guard options.gpxPointKinds.contains(.waypoint) else {
            report.skip(.gpxWaypoint)
            return
        }
        guard let time = placemarkTime else {
            if !placemarkTimeFailed { report.skip(.missingTime) }  // (one that failed was reported)
            return
        }
        placemarkFix = try makeFix(time, position)
    }

    /// The fix of a time and a position (and the readings of its track's arrays), or `nil` when the provider filter
    /// leaves it out or (lenient) it is invalid.
    mutating func makeFix(_ time: Timestamp, _ position: Position, readings: Readings? = nil) throws(ReadError) -> Fix?
    {
        if let providers = options.providers, !providers.contains(.gps) {
            report.skip(.providerFiltered)
            return nil
        }
        do {
            let fix = try Fix(
                timestamp: time, latitude: position.latitude, longitude: options.longitude(position.longitude),
                horizontalAccuracyMetres: readings?.accuracy, altitudeMetres: position.altitude,
                verticalAccuracyMetres: readings?.verticalAccuracy, speedMetresPerSecond: readings?.speed,
                courseDegrees: readings?.course, provider: .gps)
            if position.nonFiniteAltitude {
                report.readNonFiniteAsMissing(
                    .malformedField(
                        location(position.place), field: "altitude", expected: ReadReport.nonFiniteExpectation,
                        found: "a number that is not finite"))
                report.keepUnreadableFields()
            }
            return fix
        } catch {
            try report.reject(.invalidFix(location(position.place), error), lenient: options.lenient)
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
            let first = openEnds.count > 1 ? openEnds[openEnds.count - 2] : 0
            let openName = String(decoding: openNames[first...], as: UTF8.self)
            try endInside(expected: "</\(openName)>", at: stream.start)
        }
    }

    /// The input ended inside the document (at window index `index`), where `expected` was: the error, thrown after
    /// the complete pairs of the track being read are returned (a tester's OpenTracks file cut at 40 KB lost its 310
    /// whole pairs).
    mutating func endInside(expected: String, at index: Int) throws(ReadError) {
        let error = ReadError.truncated(location(at: index), expected: expected)
        let pairs = min(trackTimes.count, trackPositions.count)
        guard open.contains(.track), !trackFailed, pairs > 0 else { throw error }
        trackTimes.removeSubrange(pairs...)
        trackPositions.removeSubrange(pairs...)
        try finishTrack()  // (as a track that ended: its pairs are whole now)
        pendingError = error
    }

    // MARK: - Places

    /// The line and the offset of its first byte at window index `index` (at or after `stream.start`).
    func line(at index: Int) -> (line: Int, lineStart: Int) {
        let p = stream.window
        var (line, lineStart) = (self.line, self.lineStart)
        var k = stream.start
        while k < index, let newline = XMLBytes.find(XMLBytes.newline, p, k, index) {
            line += 1
            lineStart = stream.offset(ofIndex: newline + 1)
            k = newline + 1
        }
        return (line, lineStart)
    }

    /// Consumes the window up to `index`, counting the lines passed.
    mutating func advance(to index: Int) {
        (line, lineStart) = line(at: index)
        stream.consume(upTo: index)
    }

    /// The location of window index `index` (at or after `stream.start`).
    func location(at index: Int) -> SourceLocation {
        let (line, lineStart) = line(at: index)
        let offset = stream.offset(ofIndex: index)
        return SourceLocation(file: stream.name, line: line, column: offset - lineStart + 1, byteOffset: offset)
    }

    /// The place of window index `index`, kept for a later error.
    func place(at index: Int) -> Place {
        let location = location(at: index)
        return Place(line: Int32(location.line), column: Int32(location.column), byteOffset: location.byteOffset)
    }

    /// The location of a place kept.
    func location(_ place: Place) -> SourceLocation {
        SourceLocation(
            file: stream.name, line: Int(place.line), column: Int(place.column), byteOffset: place.byteOffset)
    }
}
