import TrueTrackCore

/// A streaming reader of GPX 1.0 and 1.1 documents: track points (and, on request, route points and
/// waypoints) become fixes.
///
/// A hand-written byte scanner over a ``ByteStream``, not `XMLParser` and not a DOM: memory stays at one
/// chunk of input whatever the file size, nothing is allocated per fix, and a 100 MB track reads in a
/// fraction of a second. It understands the XML a GPX file can hold: the XML declaration, comments,
/// processing instructions, a DOCTYPE, CDATA sections, the predefined entities and numeric character
/// references, attributes in any order with either quote style, namespace prefixes, and any white space.
///
/// ## What becomes a fix
/// A *fix is a timed observation*: a point is turned into a ``Fix`` only when it has a `<time>`.
/// - `lat` / `lon` attributes (decimal degrees, WGS-84) → latitude / longitude. A missing attribute or a
///   value that is not a number is an error naming the line and column; so is a value out of range.
/// - `<time>` (ISO 8601, UTC) → timestamp. A point without one is skipped as ``SkipReason/missingTime``.
/// - `<ele>` (metres) → altitude.
/// - `<hdop>` → horizontal accuracy through ``ReadOptions/hdop`` (GPX has no accuracy of its own; with the
///   default, accuracy = HDOP × 5 m). Without `<hdop>` the accuracy is ``HorizontalAccuracy/absent``.
/// - `<vdop>` → vertical accuracy = VDOP × UERE, only when ``ReadOptions/hdop`` is
///   ``HDOPInterpretation/dilution(userEquivalentRangeErrorMetres:)`` (a scaled-accuracy HDOP says nothing
///   about VDOP). `<pdop>` is not used: HDOP and VDOP already carry its information.
/// - `<sat>` → satellites used.
/// - `<fix>none</fix>` → the point is skipped as ``SkipReason/noFix``; `2d`, `3d`, `dgps`, `pps` (or any
///   other value) are accepted.
/// - `<speed>` (GPX 1.0, metres per second) and `<course>` (degrees clockwise from true north) directly in
///   the point, and the same names inside `<extensions>` in the namespaces that define them
///   (``GPXNamespace/definesSpeedAndCourse``): GPX's own, unprefixed (Apple Health's route export, OsmAnd's older
///   files), Garmin's TrackPointExtension v1 or v2 under any prefix bound to it (`gpxtpx:speed`, Garmin Connect's
///   `ns3:course`, or its URI as the default namespace), in `<extensions>` or its `<TrackPointExtension>` (also
///   unprefixed), OsmAnd's (`osmand:speed`), ClueTrust's GPXDATA and myTracks' (``GPXNamespace/appWithSpeed``), and
///   a prefix the file never declares (``GPXNamespace/undeclared``). A `speed` or `course` of another declared
///   namespace, or inside an element the reader does not know (`<m:wind><m:speed>`), is another quantity and is not
///   read (``unreadSpeedElements`` counts the speeds).
/// - `hAcc` and `vAcc` (metres: horizontal and vertical accuracy) where Apple Health's route export writes them: in
///   `<extensions>` (or Garmin's `<TrackPointExtension>` there) in GPX's namespace (unprefixed) or a prefix never
///   declared (``GPXNamespace/definesAccuracies``). Elsewhere (at the point's own level, in another namespace, inside
///   an element the reader does not know) they are not read (``unreadAccuracyElements`` counts them). OpenTracks'
///   `accuracy_horizontal` and `accuracy_vertical` are read inside any element of the point.
/// - The TrueTrack extension (see ``GPXTrueTrackExtension``), recognised by its namespace URI bound to
///   any prefix on the `<gpx>` element or on an element inside the point, and not inside an element the reader
///   does not know; its values take precedence over the ones above, so files written by ``GPXWriter`` read back to
///   identical fixes.
/// - Provider: the extension's `provider`, else ``Provider/gps`` (a GPX file is a receiver's log).
/// - An empty element (`<ele/>`, `<ele> </ele>`) counts as absent.
///
/// ## TCX
/// A document whose root is `<TrainingCenterDatabase>` (Garmin Training Center XML: Garmin Connect, Strava and
/// watch exports) is read the same way: each `<Trackpoint>` (of an `Activity`'s laps or a `Course`) is a track
/// point with its `Time`, `Position`'s `LatitudeDegrees` / `LongitudeDegrees`, `AltitudeMeters` and the
/// activity extension's `Speed` (metres per second) where Garmin's schema puts it, `<Extensions><TPX><Speed>` with
/// `TPX` and `Speed` in the ActivityExtension's namespace (or written without one: unprefixed, or a prefix never
/// declared); a `Speed` elsewhere (another namespace, another element) is not read and is counted in
/// ``unreadSpeedElements``; every `<Track>` opens a segment (a watch paused), every
/// `Activity` or `Course` a track. A trackpoint without a `Position` (indoors, a paused watch; it may still carry
/// heart rate) is skipped as ``SkipReason/missingPosition``. TCX has no accuracy: the fixes have none.
///
/// Points are counted in ``ReadReport/recordsRead``. Kinds not asked for (waypoints by default) are skipped
/// as ``SkipReason/otherRecord``.
///
/// ## Well-formedness
/// The reader is no validating parser, but it refuses the XML damage that would lose or move data silently:
/// - Every end tag must match its start tag, for every element, known or not (`<a>1.5</b>` inside a point lost
///   its speed): checked against a stack of the open elements' names (copied outside points; window ranges
///   inside one, where nothing is allocated per fix). The error names both tags.
/// - An attribute the reader takes a value from (`lat`, `lon`, and an `xmlns:` binding of the TrueTrack
///   namespace) may appear once per element (`lat="49.45" lat="1"` moved a fix 5,400 km).
/// - Namespaces: a prefix keeps the namespace it was last bound to from where the binding is seen to the end of
///   the document (the scope of an `xmlns:` declaration is not tracked); a default namespace (`xmlns="…"`) given
///   inside a point holds for the element and its content. The prefixes are found by hashing (``XMLNameIndex``):
///   reading is linear in the declarations, however many one element holds; a document may bind at most
///   ``maximumPrefixes`` distinct prefixes (``maximumPrefixBytes`` of names), each remembered to its end.
/// - No NUL or other control byte (other than tab, line feed, carriage return) in character data: between
///   elements and in the text of elements the reader passes over (a `<desc>`); a value it reads must parse
///   anyway. Before the root element such a byte means the input is no GPX.
/// - The root element is looked for in the first ``ByteStream/maximumRecordBytes`` (16 MiB) only.
/// - After the root element closes (`</gpx>`, `</TrainingCenterDatabase>`), only white space, comments and
///   processing instructions may follow. Anything else is an error naming its line and byte; a second XML
///   declaration or root element says that documents were joined (`cat a.gpx b.gpx`) and to split them. This
///   error stops reading even with ``ReadOptions/lenient``: nothing after the root can be a record of the
///   document, and reading on would merge two tracks or count a whole document as one skipped record.
/// Elements nest at most 256 deep. Comments, CDATA sections, processing instructions, attribute values other
/// than the ones above, other duplicate attributes and the encoding of names are not checked.
///
/// ## Segments
/// After each fix, ``lastPointKind``, ``lastSegmentIndex`` and ``lastTrackIndex`` tell where it came from:
/// every `<trkseg>` and every `<rte>` opens a new segment index (0, 1, …, in document order, empty ones
/// included), so a caller can split the track where the recording was paused.
///
/// ## Errors
/// Errors carry the file, 1-based line and column, and byte offset. A bad point (a malformed number, a
/// mismatched end tag) throws after every fix before it was returned; with ``ReadOptions/lenient`` it is
/// counted in ``report`` and reading goes on after it (a broken point's further damage is not reported again).
/// Input that is not GPX (a first element other than `<gpx>`, a control byte before it, no root within 16 MiB),
/// elements nested too deep, more prefixes bound than ``maximumPrefixes``, and anything after the root element stop
/// reading even when lenient. The input ending
/// inside the document is ``ReadError/truncated(_:expected:)``.
public struct GPXReader: FixReader {
    /// What the reader has seen so far.
    public private(set) var report: ReadReport
    /// The options the reader was created with.
    public let options: ReadOptions
    /// The kinds of points turned into fixes.
    public let pointKinds: GPXPointKinds
    /// The conversion of times written without a zone (``ReadOptions/localTimeZone``), `nil` without one.
    private var localTimes: LocalTimeConversion?
    /// Whether ``localTimes`` is set: a `Bool` the per-point path tests. Measured with the conversion moved out of
    /// line in the same change: read-gpx 3,722.3 → 3,716.3 instructions per fix against testing the optional.
    private let convertsLocalTimes: Bool
    /// The kind of point the most recently returned fix came from (`nil` before the first fix).
    public private(set) var lastPointKind: GPXPointKind?
    /// The `speed` elements inside points that were not read as a fix's speed: in a declared namespace the reader
    /// does not know to hold it, or inside an element it does not know (a weather extension's wind). Counted so
    /// that a command can say so: an app's own namespace left out lost its speeds without a word (myTracks', before
    /// it was known; a regression hunt's).
    public private(set) var unreadSpeedElements = 0
    /// The `hAcc` and `vAcc` elements inside points that were not read as a fix's accuracies: at the point's own level,
    /// in a declared namespace other than GPX's, or inside an element the reader does not know (see the type's
    /// documentation). Counted so that a command can say so, as ``unreadSpeedElements`` are.
    public private(set) var unreadAccuracyElements = 0
    /// The 0-based index of the `<trkseg>` or `<rte>` the most recently returned fix came from, counting
    /// every `<trkseg>` and `<rte>` of the document in order (`nil` for a waypoint or before the first fix).
    /// A change of index between two fixes marks a segment break.
    public private(set) var lastSegmentIndex: Int?
    /// The 0-based index of the `<trk>` the most recently returned fix came from (`nil` for route points,
    /// waypoints, or before the first fix).
    public private(set) var lastTrackIndex: Int?

    // Note: the helpers of the scanning loop are `mutating` even when they only read: a non-mutating method
    // receives this (large) struct by value, which costs a 500-byte copy per call in the hot loop.
    private let stream: ByteStream
    /// `stream.window` and `stream.end`, cached (they change only when the stream is refilled).
    private var window: UnsafeRawBufferPointer
    private var windowEnd: Int
    /// The fix of the latest `.fix` step, and the error of the latest `.failed` step (kept out of ``Step``
    /// so that the steps passed around the hot loop stay a few words).
    private var producedFix: Fix?
    private var failure: ReadError?
    /// Window index of the next byte to scan. Newlines before `stream.start` are counted in the stream.
    private var position: Int
    /// Absolute offset of the first byte of the line holding `stream.start` (for columns).
    private var lineStartOffset: Int
    /// A window index at or after `stream.start` whose line (`checkpointLine`, 1-based) and line-start offset
    /// are known, so that locations are found without recounting from the start.
    private var checkpointIndex: Int
    private var checkpointLine = 1
    private var checkpointLineStart: Int
    private var sawRoot = false
    /// The root is `<TrainingCenterDatabase>`: a TCX document (see the type's documentation).
    private var isTCX = false
    private var rootClosed = false
    private var finished = false
    /// The names of the elements open outside a point, the root first: their bytes one after another in
    /// `openNameBytes` and where each ends there in `openNameEnds` (copies: the window moves on between a start
    /// tag and its end tag). Only structure is pushed here (`gpx`, `trk`, `trkseg`, `metadata`…), never a point.
    private var openNameBytes: [UInt8] = []
    private var openNameEnds: [Int] = []
    /// The window ranges (start, end, start, end, …) of the unknown elements open inside the point being read,
    /// by depth; its entries past the current depth are stale (never shrunk: nothing is allocated per fix).
    private var openChildren: [Int] = []
    /// After a point whose markup was broken (read leniently, or by a caller that goes on after the error), the
    /// scanning goes on inside it: the depth in `openNameEnds` at which it was opened, so that the rest of its
    /// damage (an end tag that matches nothing, a control byte) is not reported a second time. 0: none.
    private var quietDepth = 0
    /// After an end tag that matched no open element was passed over: the depth then (0: none; see `close`).
    private var strayEndDepth = 0
    /// The line on which the root element closed (for the error about what follows it).
    private var rootCloseLine = 0
    private var trackCount = 0
    private var segmentCount = 0
    private var currentTrack: Int?
    private var currentSegment: Int?
    /// How `<hdop>` becomes an accuracy: ``ReadOptions/hdop``, except in a file whose `creator` is OsmAnd or Locus
    /// (with the default option), which write Android's accuracy in metres there (OsmAnd's documentation says so).
    private var hdopReading: HDOPInterpretation
    /// The prefix bound to ``GPXTrueTrackExtension/namespace`` (empty until a declaration is seen).
    private var trueTrackPrefix: [UInt8] = []
    /// The prefixes bound to a namespace other than TrueTrack's (``GPXNamespace``, ``GPXNamespace/other`` for one
    /// the reader does not know), each with what it is bound to (`boundNamespaces`, by index); a prefix in neither is
    /// ``GPXNamespace/undeclared``. Grown only when a prefix is first bound, never per point; found by hashing, so
    /// that reading stays linear in the declarations (at most ``maximumPrefixes`` and ``maximumPrefixBytes``).
    private var boundPrefixes = XMLNameIndex()
    private var boundNamespaces: [GPXNamespace] = []
    /// The names of the `xmlns:` attributes of the start tag being scanned, once it binds the TrueTrack namespace
    /// (see `checkOnce`), and where each occurs first and second in the window (`2 * index`, `2 * index + 1`; -1:
    /// not twice). Reused from tag to tag.
    private var tagBindingNames = XMLNameIndex()
    private var tagBindingPlaces: [Int] = []
    /// For each unknown element open inside the point being read, by depth (as `openChildren`): the default
    /// namespace of its content (a ``GPXNamespace`` raw value, `scopeNamespaceMask`), and `knownPathBit` when it
    /// and every element around it inside the point is one whose `speed` and `course` children are read
    /// (`<extensions>`, Garmin's `<TrackPointExtension>`). Stale past the current depth, never shrunk.
    private var openScopes: [UInt8] = []
    /// In an `openScopes` entry: the bits of the default namespace, the bit of a path of known elements, and (TCX) the
    /// bit of the path to Garmin's activity extension (a trackpoint's `<Extensions>`, its `<TPX>`).
    private static let scopeNamespaceMask: UInt8 = 0x0F
    private static let knownPathBit: UInt8 = 0x80
    private static let activityPathBit: UInt8 = 0x40
    /// The scope of a point's own children: GPX's namespace (whatever the root declares: the reader takes `<gpx>`
    /// by its name), on a known path (and, in TCX, on the activity extension's).
    private static let pointScope: UInt8 = GPXNamespace.gpx.rawValue | knownPathBit | activityPathBit
    /// Reused buffer for text that needs decoding (entities, CDATA, comments inside a value).
    private var scratch: [UInt8] = []

    /// Decoded text longer than this is cut (no value of a point is anywhere near; memory stays bounded).
    static let scratchLimit = 1024
    /// Elements nested deeper than this (outside a point, or inside one) are an error: memory stays bounded
    /// (a GPX or TCX file nests under 10 deep; libxml2's default limit is 256 too).
    static let maximumDepth = 256
    /// A document may bind at most this many distinct namespace prefixes (a binding holds to its end, so each is
    /// remembered): memory stays bounded (a GPX file binds under 10; a root element of the 16 MiB the reader looks
    /// for it in could bind 1.5 million).
    static let maximumPrefixes = 1 << 20
    /// The names of the distinct prefixes a document binds may take at most this many bytes together.
    static let maximumPrefixBytes = 1 << 24
    /// ``maximumPrefixes`` and ``maximumPrefixBytes`` for this reader (tests lower them, rather than bind a million
    /// prefixes).
    var prefixLimits = (prefixes: GPXReader.maximumPrefixes, bytes: GPXReader.maximumPrefixBytes)

    /// Creates a reader over `stream`.
    ///
    /// - Parameters:
    ///   - options: shared reader options; ``ReadOptions/hdop`` turns `<hdop>` into an accuracy.
    ///   - pointKinds: which points become fixes; default `nil`: `options`' ``ReadOptions/gpxPointKinds``
    ///     (``GPXPointKinds/paths`` unless set: track and route points, not waypoints, which are marked places
    ///     outside the recorded path).
    public init(stream: ByteStream, options: ReadOptions = ReadOptions(), pointKinds: GPXPointKinds? = nil) {
        self.stream = stream
        self.options = options
        self.pointKinds = pointKinds ?? options.gpxPointKinds
        hdopReading = options.hdop
        localTimes = options.localTimeZone.map(LocalTimeConversion.init(zone:))
        convertsLocalTimes = options.localTimeZone != nil
        report = ReadReport(source: stream.name)
        position = stream.start
        window = stream.window
        windowEnd = stream.end
        lineStartOffset = stream.offset(ofIndex: stream.start)
        checkpointIndex = stream.start
        checkpointLine = stream.lineNumber + 1
        checkpointLineStart = lineStartOffset
        scratch.reserveCapacity(GPXReader.scratchLimit)
    }

    /// Opens the file at `path` (`-` for standard input) and creates a reader over it.
    ///
    /// - Throws: ``ReadError/io(path:message:)`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions(), pointKinds: GPXPointKinds? = nil)
        throws(ReadError)
    {
        self.init(stream: try ByteStream(path: path), options: options, pointKinds: pointKinds)
    }

    // MARK: - Reading

    /// Returns the next fix, or `nil` at the end of the document.
    ///
    /// - Throws: ``ReadError`` at the first bad point or broken markup (unless reading leniently), with the
    ///   line and column. A caller that catches the error may call `next()` again to go on after it.
    public mutating func next() throws(ReadError) -> Fix? {
        while !finished {
            let p = window
            let end = windowEnd
            let lt = XMLBytes.find(XMLBytes.lt, p, position, end)
            // The text up to the next markup: before and after the root nothing but white space (a CSV read with
            // --format gpx was scanned to its end and named there, with a hint to --lenient, which then read it as
            // empty: a stops tester's); elsewhere no byte XML forbids.
            let gapEnd = lt ?? end
            if position < gapEnd,
                let bad = rootClosed || !sawRoot
                    ? XMLBytes.firstNonSpace(p, position, gapEnd) : XMLBytes.firstForbidden(p, position, gapEnd)
            {
                position = gapEnd
                if let error = try textError(p, bad, end) { try report.reject(error, lenient: options.lenient) }
                continue
            }
            guard let lt else {
                position = end
                try needMore()
                continue
            }
            position = lt
            let step: Step
            do throws(ReadError) {
                step = try markup(p, lt, end)
            } catch {
                if finished { throw error }
                position = lt + 1
                try report.reject(error, lenient: options.lenient)
                continue
            }
            switch step {
            case .incomplete:
                try needMore()
            case .advanced(let next):
                position = next
            case .skipped(let reason, let next, let at):
                position = next
                // (Where, for a point that is no fix: a time or position missing, which a tester could not find.)
                if at >= 0 { report.skip(reason, at: location(at: at)) } else { report.skip(reason) }
            case .failed(let resume):
                position = resume
                guard let error = failure else { continue }
                failure = nil
                // (An error that stops reading, such as too many prefixes bound inside the point, even when lenient.)
                if finished { throw error }
                try report.reject(error, lenient: options.lenient)
            case .fix(let next, let kind):
                position = next
                guard let fix = producedFix.take() else { continue }
                report.fixesProduced += 1
                report.keepUnreadableFields()
                report.bytesRead = stream.offset(ofIndex: next)
                lastPointKind = kind
                switch kind {
                case .trackPoint:
                    lastSegmentIndex = currentSegment
                    lastTrackIndex = currentTrack
                case .routePoint:
                    lastSegmentIndex = currentSegment
                    lastTrackIndex = nil
                case .waypoint:
                    lastSegmentIndex = nil
                    lastTrackIndex = nil
                }
                return fix
            }
        }
        report.bytesRead = stream.offset(ofIndex: min(position, stream.end))
        return nil
    }

    /// The outcome of scanning one piece of markup.
    private enum Step {
        /// The window ends before the markup does.
        case incomplete
        /// Markup passed over; scanning goes on at the index.
        case advanced(Int)
        /// A point that is not a fix, for the reason given, and where it starts (−1: not said).
        case skipped(SkipReason, next: Int, at: Int = -1)
        /// A bad point (the error is in `failure`), and where to go on when reading leniently.
        case failed(resume: Int)
        /// A fix (in `producedFix`), and the index after its element.
        case fix(next: Int, kind: GPXPointKind)
    }

    /// Makes more input available, keeping the bytes from `position` on; at the end of the input, finishes.
    private mutating func needMore() throws(ReadError) {
        if stream.sourceExhausted {
            try endOfInput()
            return
        }
        if !sawRoot, stream.offset(ofIndex: position) >= stream.maximumRecordBytes {
            // (Standard input of /dev/zero or `yes` read as GPX never returned.)
            finished = true
            let bytes = stream.maximumRecordBytes
            let limit = bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
            throw .malformedRecord(
                location(at: position),
                expected: "a <gpx> (or TCX <TrainingCenterDatabase>) root element within the first \(limit), as far "
                    + "as the reader looks for one (is this a GPX file? is --format right?)",
                found: "none in \(stream.offset(ofIndex: position)) bytes")
        }
        // Count the lines of the bytes about to be dropped into the stream.
        let (line, lineStart) = lineInfo(at: position)
        stream.countLines(line - (stream.lineNumber + 1))
        lineStartOffset = lineStart
        stream.consume(upTo: position)
        do throws(ReadError) {
            try stream.refill()
        } catch {
            finished = true
            throw error
        }
        position = stream.start
        window = stream.window
        windowEnd = stream.end
        checkpointIndex = stream.start
    }

    /// Checks that the document is complete once the input is exhausted.
    private mutating func endOfInput() throws(ReadError) {
        finished = true
        report.bytesRead = stream.offset(ofIndex: stream.end)
        let error: ReadError
        if position < stream.end {
            error = .truncated(location(at: position), expected: pendingDescription())
        } else if !sawRoot {
            // Nothing of GPX in a whole input that held something: no "ends early" (a tester's CSV read with
            // --format gpx was told the file ended before its root element). An empty input did end early.
            error =
                report.bytesRead == 0
                ? .truncated(location(at: position), expected: "a <gpx> root element")
                : .malformedRecord(
                    location(at: position),
                    expected: "a <gpx> (or TCX <TrainingCenterDatabase>) root element (is this a GPX file? is --format "
                        + "right?)",
                    found: "none in \(report.bytesRead) bytes")
        } else if !rootClosed {
            error = .truncated(
                location(at: position),
                expected: isTCX ? "</TrainingCenterDatabase> closing the document" : "</gpx> closing the document")
        } else {
            return
        }
        try report.reject(error, lenient: options.lenient)
    }

    /// What the unfinished markup at `position` lacks, for a truncation error.
    private mutating func pendingDescription() -> String {
        let p = stream.window
        let end = stream.end
        if XMLBytes.matches(p, position, end, "<!--") == 1 { return "'-->' closing the comment" }
        if XMLBytes.matches(p, position, end, "<![CDATA[") == 1 { return "']]>' closing the CDATA section" }
        if XMLBytes.matches(p, position, end, "<?") == 1 { return "'?>' closing the processing instruction" }
        if XMLBytes.matches(p, position, end, "<!") == 1 { return "'>' closing the declaration" }
        var ne = position + 1
        while ne < end, XMLBytes.isNameChar(p[ne]) { ne += 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: p[(position + 1)..<ne]), as: UTF8.self)
        if pointKind(p, XMLBytes.localNameStart(p, position + 1, ne), ne) != nil {
            return "the rest of the <\(name)> element"
        }
        return "'>' closing the <\(name)> tag"
    }

    // MARK: - Lines and locations

    /// The line number and line-start offset of window index `index` (at or after `stream.start`), found by
    /// counting newlines from a checkpoint that then moves to `index`: every byte is counted once however
    /// many locations are asked for (a query before the checkpoint recounts from the stream's start).
    private mutating func lineInfo(at index: Int) -> (line: Int, lineStart: Int) {
        let index = min(max(index, stream.start), stream.end)
        if index < checkpointIndex {
            checkpointIndex = stream.start
            checkpointLine = stream.lineNumber + 1
            checkpointLineStart = lineStartOffset
        }
        let p = stream.window
        let count = XMLBytes.countNewlines(p, checkpointIndex, index)
        if count > 0 {
            checkpointLine += count
            var j = index - 1
            while j > checkpointIndex, p[j] != XMLBytes.newline { j -= 1 }
            checkpointLineStart = stream.offset(ofIndex: j + 1)
        }
        checkpointIndex = index
        return (checkpointLine, checkpointLineStart)
    }

    /// The location of window index `index` (at or after `stream.start`): line, column and byte offset.
    private mutating func location(at index: Int) -> SourceLocation {
        let (line, lineStart) = lineInfo(at: index)
        let offset = stream.offset(ofIndex: index)
        return SourceLocation(file: stream.name, line: line, column: offset - lineStart + 1, byteOffset: offset)
    }

    /// The element name `p[start..<end]`, for error messages.
    private static func name(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
    }

    /// Up to 64 bytes of `p[start..<end]` as text, for error messages.
    private static func text(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        ReadError.quote(p, start, max(start, end))
    }

    // MARK: - Markup outside points

    /// The error for the byte at `bad` in text between markup (``XMLBytes/firstForbidden(_:_:_:)``, or after the
    /// root ``XMLBytes/firstNonSpace(_:_:_:)``), or `nil` inside a broken point already reported.
    /// - Throws: the error itself, even when reading leniently, before the root and after it (reading stops).
    @inline(never)
    private mutating func textError(_ p: UnsafeRawBufferPointer, _ bad: Int, _ end: Int) throws(ReadError)
        -> ReadError?
    {
        if rootClosed { try afterRoot(p, bad, end) }
        if !sawRoot {
            finished = true
            var lineEnd = bad
            while lineEnd < min(end, bad + 48), p[lineEnd] != 0x0A, p[lineEnd] != 0x0D { lineEnd += 1 }
            throw .unreadableStructure(
                location(at: bad),
                expected: "a <gpx> (or TCX <TrainingCenterDatabase>) root element, with nothing but white space, "
                    + "comments and an XML declaration before it (is this a GPX file? is --format right?)",
                found: GPXReader.text(p, bad, lineEnd))
        }
        let found = GPXReader.text(p, bad, min(end, bad + 16))
        if quietDepth > 0, openNameEnds.count >= quietDepth { return nil }
        return .malformedRecord(
            location(at: bad),
            expected: GPXReader.controlBytesExpected, found: found)
    }

    /// Throws the error for something other than white space, a comment or a processing instruction at `at`,
    /// after the root element closed: nothing there can belong to the document, and reading stops, even when
    /// lenient. A second XML declaration or root element says that documents were joined.
    @inline(never)
    private mutating func afterRoot(_ p: UnsafeRawBufferPointer, _ at: Int, _ end: Int) throws(ReadError) -> Never {
        finished = true
        let rootEnd = isTCX ? "</TrainingCenterDatabase>" : "</gpx>"
        var second = false
        if XMLBytes.matches(p, at, end, "<?xml") == 1, at + 5 < end,
            XMLBytes.isSpace(p[at + 5]) || p[at + 5] == XMLBytes.question
        {
            second = true
        } else if at + 1 < end, XMLBytes.isNameStart(p[at + 1]) {
            var ne = at + 2
            while ne < end, XMLBytes.isNameChar(p[ne]) { ne += 1 }
            let local = XMLBytes.localNameStart(p, at + 1, ne)
            second =
                XMLBytes.equals(p, local, ne, "gpx") || XMLBytes.equals(p, local, ne, "TrainingCenterDatabase")
        }
        let found = GPXReader.text(p, at, min(end, at + 32))
        if second {
            throw .unreadableStructure(
                location(at: at),
                expected: "the end of the input after \(rootEnd)\(GPXReader.closedTheDocument)\(rootCloseLine): a "
                    + "second document starts here (files joined, as by 'cat a.gpx b.gpx'?); split the input into "
                    + "one file per document and read each",
                found: found)
        }
        throw .unreadableStructure(
            location(at: at),
            expected: "nothing but white space, comments and processing instructions after \(rootEnd)"
                + "\(GPXReader.closedTheDocument)\(rootCloseLine)",
            found: found)
    }

    /// What an error after the root element says of it.
    static let closedTheDocument = " closed the document on line "
    /// What an element nested past ``maximumDepth`` was expected to be.
    static let depthExpectation = "elements nested at most \(maximumDepth) deep"

    /// The error of a start tag at `at` (its name ending at `end`) nested past ``maximumDepth``.
    @inline(never)
    private mutating func depthError(_ p: UnsafeRawBufferPointer, _ at: Int, _ end: Int) -> ReadError {
        .unreadableStructure(location(at: at), expected: GPXReader.depthExpectation, found: GPXReader.text(p, at, end))
    }

    /// Pushes the element named `p[ns..<ne]` (whose start tag is at `lt`) on the stack of open elements.
    @inline(never)
    private mutating func open(_ p: UnsafeRawBufferPointer, _ lt: Int, _ ns: Int, _ ne: Int) throws(ReadError) {
        guard openNameEnds.count < GPXReader.maximumDepth else {
            finished = true
            throw depthError(p, lt, ne)
        }
        openNameBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: p[ns..<ne]))
        openNameEnds.append(openNameBytes.count)
    }

    /// True when the open element at `level` of the stack is named `p[ns..<ne]`.
    @inline(never)
    private func isOpen(_ level: Int, _ p: UnsafeRawBufferPointer, _ ns: Int, _ ne: Int) -> Bool {
        let start = level > 0 ? openNameEnds[level - 1] : 0
        let stop = openNameEnds[level]
        guard stop - start == ne - ns else { return false }
        for k in 0..<(ne - ns) where openNameBytes[start + k] != p[ns + k] { return false }
        return true
    }

    /// Pops the open elements from `level` on; closes the document when the root goes.
    @inline(never)
    private mutating func closeOpen(from level: Int, at lt: Int) {
        openNameBytes.removeSubrange((level > 0 ? openNameEnds[level - 1] : 0)...)
        openNameEnds.removeSubrange(level...)
        if level < quietDepth { quietDepth = 0 }
        if level == 0 {
            rootClosed = true
            rootCloseLine = location(at: lt).line
        }
    }

    /// Closes the open element with the end tag `p[lt..<next]` named `p[ns..<ne]`. An end tag that does not match
    /// the innermost open element is an error naming both (``Step/failed(resume:)``); for a caller that goes on,
    /// one that matches an element further out closes the ones inside it, any other is passed over (and when the
    /// next end tag closes the element around the innermost one, the one passed over is taken for a misspelling of
    /// the innermost's, not reported again).
    @inline(never)
    private mutating func close(_ p: UnsafeRawBufferPointer, _ lt: Int, _ ns: Int, _ ne: Int, _ next: Int)
        throws(ReadError) -> Step
    {
        let depth = openNameEnds.count
        guard depth > 0 else {
            finished = true
            throw .malformedRecord(
                location(at: lt),
                expected: "a <gpx> (or TCX <TrainingCenterDatabase>) root element (is this a GPX file?)",
                found: GPXReader.text(p, lt, next))
        }
        if isOpen(depth - 1, p, ns, ne) {
            strayEndDepth = 0
            closeOpen(from: depth - 1, at: lt)
            return .advanced(next)
        }
        if strayEndDepth == depth, depth > 1, isOpen(depth - 2, p, ns, ne) {
            // The end tag passed over misspelt the innermost element's (`<name>x</nam></metadata>`): one error.
            strayEndDepth = 0
            closeOpen(from: depth - 2, at: lt)
            return .advanced(next)
        }
        let quiet = quietDepth > 0 && depth >= quietDepth
        let start = depth > 1 ? openNameEnds[depth - 2] : 0
        let name = String(decoding: openNameBytes[start..<openNameEnds[depth - 1]], as: UTF8.self)
        let error = ReadError.malformedRecord(
            location(at: lt), expected: GPXReader.endTagExpected(closing: name), found: GPXReader.text(p, lt, next))
        var level = depth - 2
        while level >= 0, !isOpen(level, p, ns, ne) { level -= 1 }
        if level >= 0 {
            closeOpen(from: level, at: lt)
        } else {
            strayEndDepth = depth
        }
        if quiet { return .advanced(next) }
        failure = error
        return .failed(resume: next)
    }

    /// Scans the markup at `lt` after the root element closed: a comment or a processing instruction (a second XML
    /// declaration is none); anything else is ``afterRoot(_:_:_:)``'s error.
    @inline(never)
    private mutating func markupAfterRoot(_ p: UnsafeRawBufferPointer, _ lt: Int, _ end: Int) throws(ReadError) -> Step
    {
        let c = p[lt + 1]
        if c == XMLBytes.question {
            let declaration = XMLBytes.matches(p, lt, end, "<?xml")
            if declaration == -1 || declaration == 1 && lt + 5 >= end { return .incomplete }
            if declaration == 0 || !XMLBytes.isSpace(p[lt + 5]) && p[lt + 5] != XMLBytes.question {
                guard let next = try skipSpecial(p, lt, end) else { return .incomplete }
                return .advanced(next)
            }
        } else {
            switch XMLBytes.matches(p, lt, end, "<!--") {
            case -1: return .incomplete
            case 1:
                guard let next = try skipSpecial(p, lt, end) else { return .incomplete }
                return .advanced(next)
            default: break
            }
        }
        // (Enough of it to quote, and to tell a second root: `<TrainingCenterDatabase` is 23 bytes.)
        if lt + 32 > end, !stream.sourceExhausted { return .incomplete }
        try afterRoot(p, lt, end)
    }

    /// Scans the markup starting at the `<` at `lt`.
    private mutating func markup(_ p: UnsafeRawBufferPointer, _ lt: Int, _ end: Int) throws(ReadError) -> Step {
        guard lt + 1 < end else { return .incomplete }
        let c = p[lt + 1]
        if rootClosed { return try markupAfterRoot(p, lt, end) }
        if c == XMLBytes.slash {
            guard let (ns, ne, next) = try endTag(p, lt, end) else { return .incomplete }
            return try close(p, lt, ns, ne, next)
        }
        if c == XMLBytes.bang || c == XMLBytes.question {
            guard let next = try skipSpecial(p, lt, end) else { return .incomplete }
            return .advanced(next)
        }
        guard XMLBytes.isNameStart(c) else {
            throw .malformedRecord(
                location(at: lt), expected: "an element name, '/', '!' or '?' after '<'",
                found: GPXReader.text(p, lt, min(end, lt + 16)))
        }
        let ns = lt + 1
        var ne = ns + 1
        while ne < end, XMLBytes.isNameChar(p[ne]) { ne += 1 }
        guard ne < end else { return .incomplete }
        let local = XMLBytes.localNameStart(p, ns, ne)
        if !sawRoot {
            isTCX = XMLBytes.equals(p, local, ne, "TrainingCenterDatabase")
            guard isTCX || XMLBytes.equals(p, local, ne, "gpx") else {
                finished = true
                throw .unreadableStructure(
                    location(at: lt),
                    expected: "a <gpx> (or TCX <TrainingCenterDatabase>) root element (is this a GPX file?)",
                    found: GPXReader.text(p, lt, min(end, lt + 32)))
            }
            guard let tag = try scanTag(p, ne, end) else { return .incomplete }
            sawRoot = true
            if !isTCX, options.hdop == ReadOptions().hdop,
                XMLBytes.find("creator=\"OsmAnd", p, ne, tag.next) != nil
                    || XMLBytes.find("creator=\"Locus", p, ne, tag.next) != nil
            {
                hdopReading = .scaledAccuracy(metresPerUnit: 1)
            }
            if tag.selfClosing {
                rootClosed = true
                rootCloseLine = location(at: lt).line
            } else {
                try open(p, lt, ns, ne)
            }
            return .advanced(tag.next)
        }
        if let kind = pointKind(p, local, ne) {
            if pointKinds.contains(kind) { return point(p, lt, ne, end, kind) }
            // An unwanted point: its start tag is passed over here and its children as unknown elements.
            guard let tag = try scanTag(p, ne, end) else { return .incomplete }
            if !tag.selfClosing { try open(p, lt, ns, ne) }
            report.recordsRead += 1
            return .skipped(kind == .waypoint ? .gpxWaypoint : .otherRecord, next: tag.next)
        }
        guard let tag = try scanTag(p, ne, end) else { return .incomplete }
        if !tag.selfClosing { try open(p, lt, ns, ne) }
        if isTCX {
            if XMLBytes.equals(p, local, ne, "Track") {
                currentSegment = segmentCount
                segmentCount += 1
            } else if XMLBytes.equals(p, local, ne, "Activity") || XMLBytes.equals(p, local, ne, "Course") {
                currentTrack = trackCount
                trackCount += 1
            }
        } else if XMLBytes.equals(p, local, ne, "trkseg") || XMLBytes.equals(p, local, ne, "rte") {
            currentSegment = segmentCount
            segmentCount += 1
        } else if XMLBytes.equals(p, local, ne, "trk") {
            currentTrack = trackCount
            trackCount += 1
        }
        return .advanced(tag.next)
    }

    /// The point kind named by the local name `p[local..<end]`, or `nil`.
    @inline(__always)
    private mutating func pointKind(_ p: UnsafeRawBufferPointer, _ local: Int, _ end: Int) -> GPXPointKind? {
        // (The GPX names first: the TCX test costs a GPX document nothing on its hot path.)
        switch end - local {
        case 5:
            if XMLBytes.equals(p, local, end, "trkpt") { return isTCX ? nil : .trackPoint }
            if XMLBytes.equals(p, local, end, "rtept") { return isTCX ? nil : .routePoint }
        case 3:
            if XMLBytes.equals(p, local, end, "wpt") { return isTCX ? nil : .waypoint }
        case 10:
            if isTCX, XMLBytes.equals(p, local, end, "Trackpoint") { return .trackPoint }
        default:
            break
        }
        return nil
    }

    /// Skips a comment, CDATA section, processing instruction or declaration (DOCTYPE) starting at `lt`.
    /// - Returns: the index after it, or `nil` when the window ends first.
    private mutating func skipSpecial(_ p: UnsafeRawBufferPointer, _ lt: Int, _ end: Int) throws(ReadError) -> Int? {
        if p[lt + 1] == XMLBytes.question {
            guard let close = XMLBytes.find("?>", p, lt + 2, end) else { return nil }
            return close + 2
        }
        switch XMLBytes.matches(p, lt, end, "<!--") {
        case -1: return nil
        case 1:
            guard let close = XMLBytes.find("-->", p, lt + 4, end) else { return nil }
            return close + 3
        default: break
        }
        switch XMLBytes.matches(p, lt, end, "<![CDATA[") {
        case -1: return nil
        case 1:
            guard let close = XMLBytes.find("]]>", p, lt + 9, end) else { return nil }
            return close + 3
        default: break
        }
        // A declaration such as <!DOCTYPE gpx [ ... ]>: skip to its '>', passing over quoted strings and an
        // internal subset in brackets.
        guard lt + 2 < end else { return nil }
        guard XMLBytes.isNameStart(p[lt + 2]) else {
            throw .malformedRecord(
                location(at: lt), expected: "a comment, CDATA section or declaration after '<!'",
                found: GPXReader.text(p, lt, min(end, lt + 16)))
        }
        return XMLBytes.markupEnd(p, from: lt + 2, end)
    }

    /// Scans the end tag `</name  >` starting at `lt`.
    /// - Returns: the name range and the index after `>`, or `nil` when the window ends first.
    @inline(__always)
    private mutating func endTag(_ p: UnsafeRawBufferPointer, _ lt: Int, _ end: Int) throws(ReadError) -> (
        Int, Int, Int
    )? {
        let ns = lt + 2
        var ne = ns
        while ne < end, XMLBytes.isNameChar(p[ne]) { ne += 1 }
        var k = ne
        while k < end, XMLBytes.isSpace(p[k]) { k += 1 }
        guard k < end else { return nil }
        guard p[k] == XMLBytes.gt, ne > ns else {
            throw .malformedRecord(
                location(at: lt), expected: "an end tag '</name>'",
                found: GPXReader.text(p, lt, min(end, k + 1)))
        }
        return (ns, ne, k + 1)
    }

    /// What the attributes of a start tag held.
    private struct Tag {
        /// Index after the tag's `>`.
        var next = 0
        /// True for `<name ... />`.
        var selfClosing = false
        /// The value range of a `lat` attribute (-1 when absent), quotes excluded.
        var latStart = -1
        var latEnd = -1
        /// The value range of a `lon` attribute (-1 when absent), quotes excluded.
        var lonStart = -1
        var lonEnd = -1
        /// The namespace an `xmlns="…"` attribute makes the element's and its content's default (`nil`: none).
        var defaultNamespace: GPXNamespace?
    }

    /// Scans the attributes of a start tag from `from` (just after the element name) to its `>` or `/>`,
    /// noting `lat`, `lon`, a default namespace and the bindings of the namespaces ``GPXNamespace`` tells apart.
    /// - Returns: `nil` when the window ends first.
    private mutating func scanTag(_ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int) throws(ReadError) -> Tag? {
        var tag = Tag()
        var i = from
        var indexedBindings = false  // (`checkOnce`'s: whether `tagBindingNames` holds this tag's)
        while true {
            let before = i
            while i < end, XMLBytes.isSpace(p[i]) { i += 1 }
            guard i < end else { return nil }
            let c = p[i]
            if c == XMLBytes.gt {
                tag.next = i + 1
                return tag
            }
            if c == XMLBytes.slash {
                guard i + 1 < end else { return nil }
                guard p[i + 1] == XMLBytes.gt else {
                    throw .malformedRecord(location(at: i), expected: "'/>'", found: GPXReader.text(p, i, i + 2))
                }
                tag.selfClosing = true
                tag.next = i + 2
                return tag
            }
            guard XMLBytes.isNameStart(c), i > before else {
                throw .malformedRecord(
                    location(at: i), expected: "white space and an attribute name, '>' or '/>'",
                    found: GPXReader.text(p, i, min(end, i + 16)))
            }
            let ns = i
            while i < end, XMLBytes.isNameChar(p[i]) { i += 1 }
            let ne = i
            while i < end, XMLBytes.isSpace(p[i]) { i += 1 }
            guard i < end else { return nil }
            guard p[i] == XMLBytes.equals else {
                throw .malformedRecord(
                    location(at: i), expected: "'=' after the attribute name",
                    found: GPXReader.text(p, i, min(end, i + 16)))
            }
            i += 1
            while i < end, XMLBytes.isSpace(p[i]) { i += 1 }
            guard i < end else { return nil }
            let q = p[i]
            guard q == XMLBytes.quote || q == XMLBytes.apostrophe else {
                throw .malformedRecord(
                    location(at: i), expected: "a quoted attribute value",
                    found: GPXReader.text(p, i, min(end, i + 16)))
            }
            let vs = i + 1
            // A '<' inside a value (not allowed by XML) is not looked for: a missing quote shows up as a
            // malformed value or tag soon after.
            guard let k = XMLBytes.find(q, p, vs, end) else { return nil }
            if ne - ns == 3 {
                // XML allows an attribute once per element; the reader must not pick one of two positions.
                if XMLBytes.equals(p, ns, ne, "lat") {
                    if tag.latStart >= 0 { throw duplicate(p, ns, ne, k, first: tag.latStart, tag.latEnd) }
                    tag.latStart = vs
                    tag.latEnd = k
                } else if XMLBytes.equals(p, ns, ne, "lon") {
                    if tag.lonStart >= 0 { throw duplicate(p, ns, ne, k, first: tag.lonStart, tag.lonEnd) }
                    tag.lonStart = vs
                    tag.lonEnd = k
                }
            } else if ne - ns > 6, XMLBytes.matches(p, ns, ne, "xmlns:") == 1 {
                let namespace = GPXNamespace(uri: p, vs, k)
                if namespace == .trueTrack {
                    try bind(p, ns + 6, ne, to: .other)  // (no longer another namespace's prefix, if it was one)
                    trueTrackPrefix = Array(UnsafeRawBufferPointer(rebasing: p[(ns + 6)..<ne]))
                    try checkOnce(p, from, end, ns, indexed: &indexedBindings)
                } else {
                    try bind(p, ns + 6, ne, to: namespace)
                }
            } else if ne - ns == 5, XMLBytes.equals(p, ns, ne, "xmlns") {
                tag.defaultNamespace = GPXNamespace(uri: p, vs, k)
            }
            i = k + 1
        }
    }

    /// Binds the prefix `p[start..<end]` to `namespace` (other than TrueTrack's), a prefix bound before taking the
    /// new binding in place. Nothing is allocated when the prefix is already known (an app that declares its prefix
    /// on every point).
    ///
    /// - Throws: ``ReadError/unreadableStructure(_:expected:found:)`` (and reading stops, even when lenient) when a
    ///   new prefix would pass `prefixLimits` (``maximumPrefixes``, ``maximumPrefixBytes``).
    private mutating func bind(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, to namespace: GPXNamespace)
        throws(ReadError)
    {
        // (Foreign bindings are kept too: a prefix bound to none is ``GPXNamespace/undeclared``, not foreign.)
        if let k = boundPrefixes.index(of: p, start, end) {
            boundNamespaces[k] = namespace
        } else {
            guard boundPrefixes.count < prefixLimits.prefixes,
                boundPrefixes.byteCount + (end - start) <= prefixLimits.bytes
            else { throw prefixLimitError(p, start, end) }
            boundPrefixes.append(p, start, end)
            boundNamespaces.append(namespace)
        }
        // (The TrueTrack prefix bound again to another namespace is no longer TrueTrack's.)
        if XMLBytes.equals(p, start, end, trueTrackPrefix) { trueTrackPrefix = [] }
    }

    /// The namespace of an element named `p[ns..<ne]` whose local name starts at `local`, inside an element whose
    /// scope (an `openScopes` entry) is `scope`, with `ownDefault` from its own `xmlns` attribute.
    @inline(__always)
    private func namespace(
        _ p: UnsafeRawBufferPointer, _ ns: Int, _ local: Int, scope: UInt8, ownDefault: GPXNamespace?
    ) -> GPXNamespace {
        if local == ns { return ownDefault ?? GPXNamespace(rawValue: scope & GPXReader.scopeNamespaceMask) ?? .other }
        return prefixNamespace(p, ns, local - 1)
    }

    /// The namespace the prefix `p[start..<end]` is bound to: ``GPXNamespace/other`` for one bound to a URI the
    /// reader does not know, ``GPXNamespace/undeclared`` for one not bound at all.
    private func prefixNamespace(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> GPXNamespace {
        guard let k = boundPrefixes.index(of: p, start, end) else { return .undeclared }
        return boundNamespaces[k]
    }

    /// The error of the declaration of the prefix `p[start..<end]` (after its attribute's `xmlns:`) that would pass
    /// `prefixLimits`; reading stops.
    @inline(never)
    private mutating func prefixLimitError(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> ReadError {
        finished = true
        return .unreadableStructure(
            location(at: start - 6),
            expected: "at most \(prefixLimits.prefixes) distinct namespace prefixes bound in a document, of at most "
                + "\(prefixLimits.bytes) bytes together (the reader remembers every binding to the document's end; "
                + "\(boundPrefixes.count) bound before this one, of \(boundPrefixes.byteCount) bytes)",
            found: GPXReader.text(p, start - 6, end))
    }

    /// The error for a second attribute `p[ns..<ne]` (its value ends at `valueEnd`) whose first value was
    /// `p[firstStart..<firstEnd]`.
    @inline(never)
    private mutating func duplicate(
        _ p: UnsafeRawBufferPointer, _ ns: Int, _ ne: Int, _ valueEnd: Int, first firstStart: Int, _ firstEnd: Int
    ) -> ReadError {
        let name = GPXReader.name(p, ns, ne)
        return .malformedField(
            location(at: ns), field: name,
            expected: "the attribute once (XML allows each attribute once per element; the first said \(name)=\""
                + "\(GPXReader.text(p, firstStart, firstEnd))\")",
            found: GPXReader.text(p, ns, valueEnd + 1))
    }

    /// Checks that the attribute whose name starts at `binding` (one binding the TrueTrack namespace) appears once in
    /// the start tag whose attributes start at `from`, as far as `p[..<to]` holds them (the tag is scanned again
    /// when the window held only part of it; malformed markup is `scanTag`'s to report).
    ///
    /// The tag's `xmlns:` attributes are indexed once (`indexed`, false until then: its `scanTag`'s), at its first
    /// such binding: a tag binding it under thousands of prefixes was scanned whole for each (quadratic: 40,000 in a
    /// 1.8 MB root took 87 s).
    @inline(never)
    private mutating func checkOnce(
        _ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int, _ binding: Int, indexed: inout Bool
    ) throws(ReadError) {
        if !indexed {
            indexBindings(p, from, to)
            indexed = true
        }
        var bindingEnd = binding
        while XMLBytes.isNameChar(p[bindingEnd]) { bindingEnd += 1 }
        guard let k = tagBindingNames.index(of: p, binding, bindingEnd) else { return }
        // (The first attribute of the name other than the binding itself, as a scan from the tag's start finds it.)
        let other = tagBindingPlaces[2 * k] != binding ? tagBindingPlaces[2 * k] : tagBindingPlaces[2 * k + 1]
        guard other >= 0 else { return }
        let (first, second) = other < binding ? (other, binding) : (binding, other)
        /// The opening quote of the value of the attribute whose name starts at `name`, and where the value ends.
        func value(_ name: Int) -> (quote: Int, end: Int) {
            var quote = name
            while p[quote] != XMLBytes.quote && p[quote] != XMLBytes.apostrophe { quote += 1 }
            return (quote, XMLBytes.find(p[quote], p, quote + 1, to) ?? to)
        }
        let firstValue = value(first), secondValue = value(second)
        throw duplicate(
            p, second, second + (bindingEnd - binding), secondValue.end, first: firstValue.quote + 1, firstValue.end)
    }

    /// Notes in `tagBindingNames` and `tagBindingPlaces` the `xmlns:` attributes of the start tag whose attributes
    /// start at `from`, as far as `p[..<to]` holds them, and where each name occurs first and second (stopping, as
    /// `checkOnce` did, at markup it cannot pass over).
    private mutating func indexBindings(_ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int) {
        tagBindingNames.removeAll()
        tagBindingPlaces.removeAll(keepingCapacity: true)
        var i = from
        while i < to {
            while i < to, XMLBytes.isSpace(p[i]) { i += 1 }
            guard i < to, XMLBytes.isNameStart(p[i]) else { return }
            let ns = i
            while i < to, XMLBytes.isNameChar(p[i]) { i += 1 }
            let ne = i
            while i < to, p[i] != XMLBytes.quote && p[i] != XMLBytes.apostrophe { i += 1 }
            guard i < to else { return }
            let vs = i + 1
            guard let ve = XMLBytes.find(p[i], p, vs, to) else { return }
            i = ve + 1
            guard ne - ns > 6, XMLBytes.matches(p, ns, ne, "xmlns:") == 1 else { continue }
            if let k = tagBindingNames.index(of: p, ns, ne) {
                if tagBindingPlaces[2 * k + 1] < 0 { tagBindingPlaces[2 * k + 1] = ns }
            } else {
                tagBindingNames.append(p, ns, ne)
                tagBindingPlaces.append(ns)
                tagBindingPlaces.append(-1)
            }
        }
    }

    // MARK: - Points

    /// The values read from one point's children.
    private struct PointFields {
        var time: Timestamp?
        /// Whether ``time`` carried its own zone (see ``ReadOptions/localTimeZone``).
        var timeHasZone = false
        var elevation: Double?
        var hdop: Double?
        var vdop: Double?
        var satellites: Int?
        var noFix = false
        var speed: Double?
        var course: Double?
        var accuracy: Double?
        var verticalAccuracy: Double?
        var extensionSpeed: Double?
        var speedAccuracy: Double?
        var extensionCourse: Double?
        var courseAccuracy: Double?
        var provider: Provider?
        var mocked: Bool?
        var activity: ActivityKind?
        var activityConfidence: Int?
        /// TCX: the position's children (NaN when absent), and where their text starts (window indices, for
        /// errors). (Not optionals: every GPX point initialises these too, and the smaller stores showed.)
        var latitude = Double.nan
        var longitude = Double.nan
        var latitudeAt: Int32 = 0
        var longitudeAt: Int32 = 0
    }

    /// A child element of a point that carries a value.
    private enum Field: UInt8 {
        case none, time, elevation, hdop, vdop, satellites, fixType, speed, course
        case accuracy, verticalAccuracy, extensionSpeed, speedAccuracy, extensionCourse, courseAccuracy
        case provider, mocked, activity, activityConfidence
        case latitude, longitude

        /// The element's name, for error messages.
        var name: String {
            switch self {
            case .none: ""
            case .time: "time"
            case .elevation: "ele"
            case .hdop: "hdop"
            case .vdop: "vdop"
            case .satellites: "sat"
            case .fixType: "fix"
            case .speed: "speed"
            case .course: "course"
            case .accuracy: "accuracy_m"
            case .verticalAccuracy: "vertical_accuracy_m"
            case .extensionSpeed: "speed_mps"
            case .speedAccuracy: "speed_accuracy_mps"
            case .extensionCourse: "course_deg"
            case .courseAccuracy: "course_accuracy_deg"
            case .provider: "provider"
            case .mocked: "mocked"
            case .activity: "activity"
            case .activityConfidence: "activity_confidence"
            case .latitude: "LatitudeDegrees"
            case .longitude: "LongitudeDegrees"
            }
        }

        /// A measurement a point can do without: unreadable in a lenient read, it is read as missing and the
        /// point kept (``ReadReport/readAsMissing(_:lenient:)``). Time, position, fix type and provider are not.
        var isOptionalMeasurement: Bool {
            switch self {
            case .none, .time, .fixType, .provider, .latitude, .longitude: false
            default: true
            }
        }

        /// An altitude, a speed or a course: a value that is no finite number is read as missing in any mode
        /// (``ReadReport/readNonFiniteAsMissing(_:)``).
        var readsNonFiniteAsMissing: Bool {
            switch self {
            case .elevation, .speed, .course, .extensionSpeed, .extensionCourse: true
            default: false
            }
        }

        /// What the element must hold, for error messages.
        var expectation: String {
            switch self {
            case .time: "an ISO 8601 UTC time such as 2024-05-01T12:00:00Z"
            case .satellites: "a whole number of satellites"
            case .provider: "a provider (" + Provider.allCases.map(\.rawValue).joined(separator: ", ") + ")"
            case .mocked: "true or false"
            case .activity: "an activity (" + ActivityKind.allCases.map(\.rawValue).joined(separator: ", ") + ")"
            case .activityConfidence: "a whole number 0-100"
            default: "a decimal number"
            }
        }
    }

    /// Classifies the child element named `p[ns..<ne]` at `depth` below the point, inside an element whose scope (an
    /// `openScopes` entry, ``pointScope`` for the point's own children) is `scope`, with `ownDefault` from its own
    /// `xmlns` attribute.
    @inline(__always)
    private mutating func field(
        _ p: UnsafeRawBufferPointer, _ ns: Int, _ ne: Int, depth: Int, scope: UInt8, ownDefault: GPXNamespace?
    ) -> Field {
        let local = XMLBytes.localNameStart(p, ns, ne)
        if local > ns, !trueTrackPrefix.isEmpty, XMLBytes.equals(p, ns, local - 1, trueTrackPrefix) {
            // (Not inside an element the reader does not know, as GPX's own speed and course: another's content.)
            return scope & GPXReader.knownPathBit != 0 ? extensionField(p, local, ne) : .none
        }
        if isTCX { return tcxField(p, ns, local, ne, depth: depth, scope: scope, ownDefault: ownDefault) }
        switch ne - local {
        case 3 where depth == 0:
            if XMLBytes.equals(p, local, ne, "ele") { return .elevation }
            if XMLBytes.equals(p, local, ne, "sat") { return .satellites }
            if XMLBytes.equals(p, local, ne, "fix") { return .fixType }
        case 4:
            if depth == 0 {
                if XMLBytes.equals(p, local, ne, "time") { return .time }
                if XMLBytes.equals(p, local, ne, "hdop") { return .hdop }
                if XMLBytes.equals(p, local, ne, "vdop") { return .vdop }
            }
            // Apple Health's route export writes `hAcc` and `vAcc` (metres) in `<extensions>`, unprefixed; at the
            // point's own level, in another namespace or inside an element the reader does not know, they are another's
            // (counted). (They were read at any depth in any namespace.)
            let isHorizontal = XMLBytes.equals(p, local, ne, "hAcc")
            if isHorizontal || XMLBytes.equals(p, local, ne, "vAcc") {
                if depth > 0, scope & GPXReader.knownPathBit != 0,
                    namespace(p, ns, local, scope: scope, ownDefault: ownDefault).definesAccuracies
                {
                    return isHorizontal ? .accuracy : .verticalAccuracy
                }
                unreadAccuracyElements += 1
            }
        case 5:
            if XMLBytes.equals(p, local, ne, "speed") {
                if readsSpeedAndCourse(p, ns, local, scope, ownDefault) { return .speed }
                unreadSpeedElements += 1
            }
        case 6:
            if XMLBytes.equals(p, local, ne, "course"), readsSpeedAndCourse(p, ns, local, scope, ownDefault) {
                return .course
            }
        // In any element of the point: OpenTracks' `accuracy_horizontal` and `accuracy_vertical` (metres).
        case 17 where depth > 0:
            if XMLBytes.equals(p, local, ne, "accuracy_vertical") { return .verticalAccuracy }
        case 19 where depth > 0:
            if XMLBytes.equals(p, local, ne, "accuracy_horizontal") { return .accuracy }
        default:
            break
        }
        return .none
    }

    /// Whether a `speed` or `course` element (named `p[ns..<…]`, its local name from `local`) inside an element whose
    /// scope is `scope` is the fix's: in a namespace that defines them, and not inside an element the reader does not
    /// know (a weather tool's `<m:wind><m:speed>` is the wind's).
    @inline(__always)
    private func readsSpeedAndCourse(
        _ p: UnsafeRawBufferPointer, _ ns: Int, _ local: Int, _ scope: UInt8, _ ownDefault: GPXNamespace?
    ) -> Bool {
        scope & GPXReader.knownPathBit != 0
            && namespace(p, ns, local, scope: scope, ownDefault: ownDefault).definesSpeedAndCourse
    }

    /// The scope (an `openScopes` entry) of the content of an unknown element named `p[ns..<ne]` opened at `depth`
    /// below the point inside an element whose scope is `parent`: its default namespace (its own `xmlns`, else the
    /// parent's), the known path when the parent is on one and it is GPX's `<extensions>` or Garmin's
    /// `<TrackPointExtension>`, and in TCX the activity extension's path when it is the trackpoint's `<Extensions>` or
    /// the `<TPX>` in it (``GPXNamespace/mayHoldActivitySpeed``).
    private func containerScope(
        _ p: UnsafeRawBufferPointer, _ ns: Int, _ ne: Int, depth: Int, parent: UInt8, ownDefault: GPXNamespace?
    ) -> UInt8 {
        let inherited = ownDefault?.rawValue ?? (parent & GPXReader.scopeNamespaceMask)
        let onActivityPath = isTCX && depth < 2 && parent & GPXReader.activityPathBit != 0
        guard onActivityPath || parent & GPXReader.knownPathBit != 0 else { return inherited }
        let local = XMLBytes.localNameStart(p, ns, ne)
        if onActivityPath,
            depth == 0 ? XMLBytes.equals(p, local, ne, "Extensions") : XMLBytes.equals(p, local, ne, "TPX"),
            namespace(p, ns, local, scope: parent, ownDefault: ownDefault).mayHoldActivitySpeed
        {
            return inherited | GPXReader.activityPathBit
        }
        guard parent & GPXReader.knownPathBit != 0 else { return inherited }
        let known =
            switch ne - local {
            case 10:
                XMLBytes.equals(p, local, ne, "extensions")
                    && namespace(p, ns, local, scope: parent, ownDefault: ownDefault) == .gpx
            case 19:
                XMLBytes.equals(p, local, ne, "TrackPointExtension")
                    && namespace(p, ns, local, scope: parent, ownDefault: ownDefault).mayHoldTrackPointExtension
            default: false
            }
        return known ? inherited | GPXReader.knownPathBit : inherited
    }

    /// Classifies a child of a TCX `<Trackpoint>` named `p[ns..<ne]` (its local name from `local`) at `depth`, inside
    /// an element whose scope is `scope`: `Time`, `AltitudeMeters`, `Position`'s `LatitudeDegrees` and
    /// `LongitudeDegrees`, and the `Speed` of the activity extension (metres per second) where Garmin's schema puts it,
    /// `<Extensions><TPX><Speed>` (``GPXNamespace/mayHoldActivitySpeed``); a `Speed` elsewhere is counted in
    /// ``unreadSpeedElements`` (it was read at any depth in any namespace).
    private mutating func tcxField(
        _ p: UnsafeRawBufferPointer, _ ns: Int, _ local: Int, _ ne: Int, depth: Int, scope: UInt8,
        ownDefault: GPXNamespace?
    ) -> Field {
        switch ne - local {
        case 4 where depth == 0: if XMLBytes.equals(p, local, ne, "Time") { return .time }
        case 5:
            if XMLBytes.equals(p, local, ne, "Speed") {
                if depth == 2, scope & GPXReader.activityPathBit != 0,
                    namespace(p, ns, local, scope: scope, ownDefault: ownDefault).mayHoldActivitySpeed
                {
                    return .speed
                }
                unreadSpeedElements += 1
            }
        case 14 where depth == 0: if XMLBytes.equals(p, local, ne, "AltitudeMeters") { return .elevation }
        case 15 where depth == 1: if XMLBytes.equals(p, local, ne, "LatitudeDegrees") { return .latitude }
        case 16 where depth == 1: if XMLBytes.equals(p, local, ne, "LongitudeDegrees") { return .longitude }
        default: break
        }
        return .none
    }

    /// Classifies a TrueTrack extension element by its local name `p[local..<ne]`.
    private mutating func extensionField(_ p: UnsafeRawBufferPointer, _ local: Int, _ ne: Int) -> Field {
        if XMLBytes.equals(p, local, ne, "accuracy_m") { return .accuracy }
        if XMLBytes.equals(p, local, ne, "vertical_accuracy_m") { return .verticalAccuracy }
        if XMLBytes.equals(p, local, ne, "speed_mps") { return .extensionSpeed }
        if XMLBytes.equals(p, local, ne, "speed_accuracy_mps") { return .speedAccuracy }
        if XMLBytes.equals(p, local, ne, "course_deg") { return .extensionCourse }
        if XMLBytes.equals(p, local, ne, "course_accuracy_deg") { return .courseAccuracy }
        if XMLBytes.equals(p, local, ne, "provider") { return .provider }
        if XMLBytes.equals(p, local, ne, "mocked") { return .mocked }
        if XMLBytes.equals(p, local, ne, "activity") { return .activity }
        if XMLBytes.equals(p, local, ne, "activity_confidence") { return .activityConfidence }
        return .none
    }

    /// Reads the point element starting at `lt` (its name ends at `ne`) to its end tag.
    private mutating func point(
        _ p: UnsafeRawBufferPointer, _ lt: Int, _ ne: Int, _ end: Int,
        _ kind: GPXPointKind
    ) -> Step {
        do throws(ReadError) {
            // (A point read again after a refill counts its fields once.)
            report.dropUnreadableFields()
            guard let tag = try scanTag(p, ne, end) else { return .incomplete }
            var fields = PointFields()
            var firstError: ReadError?
            var latitude = 0.0
            var longitude = 0.0
            if isTCX {
                // The position comes in the children (`<Position>`), checked at the end.
            } else if tag.latStart < 0 || tag.lonStart < 0 {
                firstError = .malformedRecord(
                    location(at: lt), expected: "lat and lon attributes",
                    found: GPXReader.text(p, lt, tag.next))
            } else {
                let latitudeValue = coordinate(p, tag.latStart, tag.latEnd)
                let longitudeValue = coordinate(p, tag.lonStart, tag.lonEnd)
                latitude = latitudeValue ?? 0
                longitude = longitudeValue ?? 0
                // Report the first bad attribute in the text.
                if latitudeValue == nil, longitudeValue != nil || tag.latStart < tag.lonStart {
                    firstError = .malformedField(
                        location(at: tag.latStart), field: "lat",
                        expected: "a latitude in decimal degrees",
                        found: GPXReader.text(p, tag.latStart, tag.latEnd))
                } else if longitudeValue == nil {
                    firstError = .malformedField(
                        location(at: tag.lonStart), field: "lon",
                        expected: "a longitude in decimal degrees",
                        found: GPXReader.text(p, tag.lonStart, tag.lonEnd))
                }
            }
            var i = tag.next
            if !tag.selfClosing {
                var depth = 0
                children: while true {
                    guard let open = XMLBytes.find(XMLBytes.lt, p, i, end), open + 1 < end else { return .incomplete }
                    if i < open, let bad = XMLBytes.firstForbidden(p, i, open) {
                        throw .malformedRecord(
                            location(at: bad),
                            expected: GPXReader.controlBytesExpected,
                            found: GPXReader.text(p, bad, min(end, bad + 16)))
                    }
                    let c = p[open + 1]
                    if c == XMLBytes.slash {
                        guard let (ns2, ne2, next) = try endTag(p, open, end) else { return .incomplete }
                        i = next
                        if depth == 0 {
                            guard XMLBytes.equalRanges(p, ns2, ne2, lt + 1, ne) else {
                                throw .malformedRecord(
                                    location(at: open), expected: "</\(kind.elementName)>",
                                    found: GPXReader.text(p, open, next))
                            }
                            break children
                        }
                        depth -= 1
                        // An unknown element's end tag must match its start tag too (a mistyped one lost a speed).
                        let os = openChildren[2 * depth]
                        let oe = openChildren[2 * depth + 1]
                        guard XMLBytes.equalRanges(p, ns2, ne2, os, oe) else {
                            let name = GPXReader.name(p, os, oe)
                            throw .malformedRecord(
                                location(at: open), expected: GPXReader.endTagExpected(closing: name),
                                found: GPXReader.text(p, open, next))
                        }
                        continue
                    }
                    if c == XMLBytes.bang || c == XMLBytes.question {
                        guard let next = try skipSpecial(p, open, end) else { return .incomplete }
                        i = next
                        continue
                    }
                    guard XMLBytes.isNameStart(c) else {
                        throw .malformedRecord(
                            location(at: open), expected: "an element name, '/', '!' or '?' after '<'",
                            found: GPXReader.text(p, open, min(end, open + 16)))
                    }
                    let ns = open + 1
                    var nameEnd = ns + 1
                    while nameEnd < end, XMLBytes.isNameChar(p[nameEnd]) { nameEnd += 1 }
                    guard nameEnd < end else { return .incomplete }
                    var child = Tag()
                    if p[nameEnd] == XMLBytes.gt {
                        child.next = nameEnd + 1
                    } else {
                        // (Scanned before the element is classified: an `xmlns` of its own names its namespace.)
                        guard let scanned = try scanTag(p, nameEnd, end) else { return .incomplete }
                        child = scanned
                    }
                    let scope = depth == 0 ? GPXReader.pointScope : openScopes[depth - 1]
                    let field = field(p, ns, nameEnd, depth: depth, scope: scope, ownDefault: child.defaultNamespace)
                    i = child.next
                    if child.selfClosing { continue }
                    if field == .none {
                        guard depth < GPXReader.maximumDepth else {
                            throw depthError(p, open, nameEnd)
                        }
                        if openChildren.count <= 2 * depth {
                            openChildren.append(contentsOf: [0, 0])
                            openScopes.append(0)
                        }
                        openChildren[2 * depth] = ns
                        openChildren[2 * depth + 1] = nameEnd
                        openScopes[depth] = containerScope(
                            p, ns, nameEnd, depth: depth, parent: scope, ownDefault: child.defaultNamespace)
                        depth += 1
                        continue
                    }
                    guard var text = try readText(p, child.next, end, ns, nameEnd, field) else { return .incomplete }
                    i = text.next
                    var parsed: Bool
                    if text.inScratch {
                        parsed = scratch.withUnsafeBytes { GPXReader.parse(field, $0, 0, $0.count, &fields) }
                    } else {
                        parsed = GPXReader.parse(field, p, text.start, text.end, &fields)
                        if !parsed || field == .fixType,
                            XMLBytes.find(XMLBytes.amp, p, text.start, text.end) != nil
                        {
                            // Plain text with references: decode it and parse again.
                            guard let decoded = try readTextSlowly(p, child.next, end, ns, nameEnd, field) else {
                                return .incomplete
                            }
                            text = decoded
                            parsed = scratch.withUnsafeBytes { GPXReader.parse(field, $0, 0, $0.count, &fields) }
                        }
                    }
                    if field == .latitude { fields.latitudeAt = Int32(truncatingIfNeeded: child.next) }
                    if field == .longitude { fields.longitudeAt = Int32(truncatingIfNeeded: child.next) }
                    if !parsed, firstError == nil {
                        let found =
                            text.inScratch
                            ? String(decoding: scratch.prefix(64), as: UTF8.self)
                            : GPXReader.text(p, text.start, text.end)
                        // An altitude, speed or course that is no finite number (`NaN`, `inf`, `1e400`): read as
                        // missing in any mode, and counted (it was dropped without a word).
                        let isNonFinite =
                            field.readsNonFiniteAsMissing
                            && (text.inScratch
                                ? scratch.withUnsafeBytes { GPXReader.number($0, 0, $0.count) }
                                : GPXReader.number(p, text.start, text.end)).map { !$0.isFinite } == true
                        let error = ReadError.malformedField(
                            location(at: child.next), field: field.name,
                            expected: isNonFinite ? ReadReport.nonFiniteExpectation : field.expectation, found: found)
                        if isNonFinite {
                            report.readNonFiniteAsMissing(error)
                        } else if options.lenient, field.isOptionalMeasurement {
                            // Read leniently, an optional measurement is read as missing and the point kept.
                            try report.readAsMissing(error, lenient: true)
                        } else {
                            firstError = error
                        }
                    }
                }
            }
            report.recordsRead += 1
            if isTCX, firstError == nil {
                // A trackpoint without a position (indoors, a paused watch) is no fix; half a position is an error.
                switch (fields.latitude.isNaN, fields.longitude.isNaN) {
                case (false, false): (latitude, longitude) = (fields.latitude, fields.longitude)
                case (true, true):
                    return .skipped(fields.time == nil ? .missingTime : .missingPosition, next: i, at: lt)
                default:
                    firstError = .malformedRecord(
                        location(at: lt), expected: "LatitudeDegrees and LongitudeDegrees in the <Position>",
                        found: fields.latitude.isNaN ? "LongitudeDegrees only" : "LatitudeDegrees only")
                }
            }
            if let firstError {
                failure = firstError
                return .failed(resume: i)
            }
            return makeFix(&fields, latitude, longitude, tag, kind, next: i, start: lt)
        } catch {
            report.recordsRead += 1
            failure = error
            // Scanning goes on inside the point: it is an open element, whose further damage is not reported again.
            if openNameEnds.count < GPXReader.maximumDepth {
                openNameBytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: p[(lt + 1)..<ne]))
                openNameEnds.append(openNameBytes.count)
                if quietDepth == 0 { quietDepth = openNameEnds.count }
            }
            return .failed(resume: lt + 1)
        }
    }

    /// Parses a `lat`/`lon` attribute value (references such as `&#52;` are decoded when present).
    @inline(__always)
    private mutating func coordinate(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        let (s, e) = XMLBytes.trim(p, start, end)
        if let value = NumberParsing.double(p, s, e) { return value }
        guard XMLBytes.find(XMLBytes.amp, p, start, end) != nil else { return nil }
        scratch.removeAll(keepingCapacity: true)
        guard XMLBytes.appendDecoded(p, start, end, to: &scratch, limit: GPXReader.scratchLimit) else { return nil }
        return scratch.withUnsafeBytes { b in
            let (s, e) = XMLBytes.trim(b, 0, b.count)
            return NumberParsing.double(b, s, e)
        }
    }

    /// The text content of a value element.
    private struct TextSpan {
        /// Range of the text in the window, or in `scratch` when `inScratch`.
        var start: Int
        var end: Int
        var inScratch: Bool
        /// Index after the element's end tag.
        var next: Int
    }

    /// Reads the text of the element named `p[ns..<ne]` from `from` (after its start tag) through its end tag.
    ///
    /// Plain text is returned in place; text with references, CDATA sections, comments or processing
    /// instructions is assembled in `scratch`. A child element inside a value is an error.
    /// - Returns: `nil` when the window ends first.
    @inline(__always)
    private mutating func readText(
        _ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int, _ ns: Int, _ ne: Int,
        _ field: Field
    ) throws(ReadError) -> TextSpan? {
        guard let k = XMLBytes.find(XMLBytes.lt, p, from, end), k + 1 < end else { return nil }
        // References (`&…;`) are looked for only when the plain text does not parse (see `point`).
        if p[k + 1] == XMLBytes.slash {
            guard let next = try closeValue(p, k, end, ns, ne) else { return nil }
            return TextSpan(start: from, end: k, inScratch: false, next: next)
        }
        return try readTextSlowly(p, from, end, ns, ne, field)
    }

    /// ``readText(_:_:_:_:_:_:)`` for text that is not one plain run.
    private mutating func readTextSlowly(
        _ p: UnsafeRawBufferPointer, _ from: Int, _ end: Int, _ ns: Int, _ ne: Int,
        _ field: Field
    ) throws(ReadError) -> TextSpan? {
        scratch.removeAll(keepingCapacity: true)
        var i = from
        while true {
            guard let open = XMLBytes.find(XMLBytes.lt, p, i, end), open + 1 < end else { return nil }
            guard XMLBytes.appendDecoded(p, i, open, to: &scratch, limit: GPXReader.scratchLimit) else {
                throw .malformedField(
                    location(at: i), field: field.name,
                    expected: "text with valid references (&amp; &lt; &gt; &quot; &apos; &#…;)",
                    found: GPXReader.text(p, i, open))
            }
            let c = p[open + 1]
            if c == XMLBytes.slash {
                guard let next = try closeValue(p, open, end, ns, ne) else { return nil }
                return TextSpan(start: 0, end: scratch.count, inScratch: true, next: next)
            }
            switch XMLBytes.matches(p, open, end, "<![CDATA[") {
            case -1: return nil
            case 1:
                guard let close = XMLBytes.find("]]>", p, open + 9, end) else { return nil }
                XMLBytes.append(p, open + 9, close, to: &scratch, limit: GPXReader.scratchLimit)
                i = close + 3
                continue
            default: break
            }
            if c == XMLBytes.bang || c == XMLBytes.question {
                guard let next = try skipSpecial(p, open, end) else { return nil }
                i = next
                continue
            }
            throw .malformedRecord(
                location(at: open), expected: "text inside <\(field.name)>, not an element",
                found: GPXReader.text(p, open, min(end, open + 16)))
        }
    }

    /// What a control byte in character data broke (the same words wherever it is found).
    private static let controlBytesExpected =
        "text without control bytes (XML allows none but tab, line feed and carriage return)"

    /// What an end tag that does not close the open element `name` should have been.
    private static func endTagExpected(closing name: String) -> String { "</\(name)> closing <\(name)>" }

    /// Checks the end tag at `lt` closes the element named `p[ns..<ne]`; returns the index after it.
    @inline(__always)
    private mutating func closeValue(_ p: UnsafeRawBufferPointer, _ lt: Int, _ end: Int, _ ns: Int, _ ne: Int)
        throws(ReadError) -> Int?
    {
        guard let (cs, ce, next) = try endTag(p, lt, end) else { return nil }
        guard XMLBytes.equalRanges(p, cs, ce, ns, ne) else {
            throw .malformedRecord(
                location(at: lt), expected: "</" + GPXReader.text(p, ns, ne) + ">",
                found: GPXReader.text(p, lt, next))
        }
        return next
    }

    /// The number `b[start..<end]` holds (spaces around it trimmed), or `nil`.
    private static func number(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        let (s, e) = XMLBytes.trim(b, start, end)
        return NumberParsing.double(b, s, e)
    }

    /// Parses the text `b[start..<end]` of `field` into `fields`. Empty text leaves the value absent.
    /// - Returns: `false` when the text is not a valid value (an altitude, speed or course that is no finite number
    ///   too: the caller reads it as missing, ``Field/readsNonFiniteAsMissing``).
    @inline(__always)
    private static func parse(
        _ field: Field, _ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
        _ fields: inout PointFields
    ) -> Bool {
        let (s, e) = XMLBytes.trim(b, start, end)
        guard s < e else { return true }
        switch field {
        case .none:
            return true
        case .time:
            guard let t = ISO8601.parse(b, from: s, to: e, hasZone: &fields.timeHasZone) else { return false }
            fields.time = t
        case .elevation:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.elevation = v
        case .hdop:
            guard let v = NumberParsing.double(b, s, e) else { return false }
            fields.hdop = v
        case .vdop:
            guard let v = NumberParsing.double(b, s, e) else { return false }
            fields.vdop = v
        case .satellites:
            guard let v = NumberParsing.int(b, s, e) else { return false }
            fields.satellites = Int(v)
        case .fixType:
            fields.noFix =
                e - s == 4 && (b[s] | 0x20) == UInt8(ascii: "n") && (b[s + 1] | 0x20) == UInt8(ascii: "o")
                && (b[s + 2] | 0x20) == UInt8(ascii: "n") && (b[s + 3] | 0x20) == UInt8(ascii: "e")
        case .speed:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.speed = v
        case .course:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.course = v
        case .accuracy:
            guard let v = NumberParsing.double(b, s, e) else { return false }
            fields.accuracy = v
        case .verticalAccuracy:
            guard let v = NumberParsing.double(b, s, e) else { return false }
            fields.verticalAccuracy = v
        case .extensionSpeed:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.extensionSpeed = v
        case .speedAccuracy:
            guard let v = NumberParsing.double(b, s, e) else { return false }
            fields.speedAccuracy = v
        case .extensionCourse:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.extensionCourse = v
        case .courseAccuracy:
            guard let v = NumberParsing.double(b, s, e) else { return false }
            fields.courseAccuracy = v
        case .provider:
            guard let entry = GPXTrueTrackExtension.providerNames.first(where: { XMLBytes.equals(b, s, e, $0.1) })
            else { return false }
            fields.provider = entry.0
        case .mocked:
            if XMLBytes.equals(b, s, e, "true") || XMLBytes.equals(b, s, e, "1") {
                fields.mocked = true
            } else if XMLBytes.equals(b, s, e, "false") || XMLBytes.equals(b, s, e, "0") {
                fields.mocked = false
            } else {
                return false
            }
        case .activity:
            guard let entry = GPXTrueTrackExtension.activityNames.first(where: { XMLBytes.equals(b, s, e, $0.1) })
            else { return false }
            fields.activity = entry.0
        case .activityConfidence:
            guard let v = NumberParsing.int(b, s, e), (0...100).contains(v) else { return false }
            fields.activityConfidence = Int(v)
        // (A TCX position's NaN is no number: stored, it read as the element missing, and "LongitudeDegrees only"
        // was reported for a `<LatitudeDegrees>NaN</LatitudeDegrees>`: a batch tester's.)
        case .latitude:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.latitude = v
        case .longitude:
            guard let v = NumberParsing.double(b, s, e), v.isFinite else { return false }
            fields.longitude = v
        }
        return true
    }

    /// `time`, written without a zone, converted from ``localTimes``' zone (out of line, as JSON's: only with
    /// ``ReadOptions/localTimeZone``).
    @inline(never)
    private mutating func localTime(_ time: Timestamp) -> Timestamp {
        report.localTimesConverted += 1
        return localTimes!.utc(fromLocal: time)
    }

    /// Turns a complete point into a fix, or says why it is skipped or invalid.
    private mutating func makeFix(
        _ f: inout PointFields, _ latitude: Double, _ longitude: Double, _ tag: Tag,
        _ kind: GPXPointKind, next: Int, start: Int
    ) -> Step {
        var accuracy = f.accuracy
        if accuracy == nil, let hdop = f.hdop { accuracy = hdopReading.accuracyMetres(hdop: hdop) }
        var verticalAccuracy = f.verticalAccuracy
        if verticalAccuracy == nil, let vdop = f.vdop, vdop.isFinite, vdop > 0,
            case .dilution(let uere) = hdopReading
        {
            verticalAccuracy = vdop * uere
        }
        if _slowPath(convertsLocalTimes), !f.timeHasZone, let time = f.time { f.time = localTime(time) }
        let fix: Fix
        do throws(FixValidationError) {
            fix = try Fix(
                timestamp: f.time ?? Timestamp(millisecondsSince1970: 0),
                latitude: latitude,
                longitude: options.longitude(longitude),
                horizontalAccuracyMetres: accuracy,
                altitudeMetres: f.elevation,
                verticalAccuracyMetres: verticalAccuracy,
                speedMetresPerSecond: f.extensionSpeed ?? f.speed,
                speedAccuracyMetresPerSecond: f.speedAccuracy,
                courseDegrees: f.extensionCourse ?? f.course,
                courseAccuracyDegrees: f.courseAccuracy,
                provider: f.provider ?? .gps,
                satellitesUsed: f.satellites,
                isMocked: f.mocked,
                activity: f.activity.map { ActivityReading(kind: $0, confidence: f.activityConfidence ?? 100) })
        } catch {
            let isLatitude = if case .latitudeOutOfRange = error { true } else { false }
            let at =
                isLatitude
                ? (isTCX ? Int(f.latitudeAt) : tag.latStart) : (isTCX ? Int(f.longitudeAt) : tag.lonStart)
            // (Named as the file names it, as a value that is no number is: `lat`, not `latitude`.)
            let field =
                isTCX ? (isLatitude ? "LatitudeDegrees" : "LongitudeDegrees") : (isLatitude ? "lat" : "lon")
            failure = .invalidFix(location(at: at), error, field: field)
            return .failed(resume: next)
        }
        if f.noFix { return .skipped(.noFix, next: next) }
        if f.time == nil { return .skipped(.missingTime, next: next, at: start) }
        if let providers = options.providers, !providers.contains(fix.provider) {
            return .skipped(.providerFiltered, next: next)
        }
        producedFix = fix
        return .fix(next: next, kind: kind)
    }
}

extension GPXPointKind {
    /// The GPX element name: `trkpt`, `rtept` or `wpt`.
    public var elementName: String {
        switch self {
        case .trackPoint: "trkpt"
        case .routePoint: "rtept"
        case .waypoint: "wpt"
        }
    }
}
