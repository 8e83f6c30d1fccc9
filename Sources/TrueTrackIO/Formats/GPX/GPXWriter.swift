import TrueTrackCore

/// Writes fixes as a GPX 1.1 document: one `<trk>` holding one `<trkseg>` per segment.
///
/// Each fix becomes a `<trkpt lat lon>` with `<ele>` (metres), `<time>` (ISO 8601 UTC, milliseconds when
/// not whole) and `<sat>`, and an `<extensions>` block in the TrueTrack namespace
/// (``GPXTrueTrackExtension``, prefix `tt`) for what GPX 1.1 lacks: accuracy, vertical accuracy, speed,
/// course, their accuracies, provider, mocked flag and activity. Numbers are written as the shortest text
/// that reads back to the identical `Double`, so ``GPXReader`` returns exactly the fixes written. Other
/// GPX software ignores the extension and still sees a valid track.
///
/// The track's `<type>` is ``trackType`` when given: the activity the recording declared (``DeclaredActivity``
/// reads it back, so a ride written here is still read as a ride).
///
/// The document is opened by the first ``write(_:)`` (or by ``finish()``, which writes an empty track) and
/// closed by ``finish()``; call ``startNewSegment()`` where the recording was interrupted.
public struct GPXWriter: FixWriter {
    /// Where the document goes.
    public let sink: ByteSink
    /// The `creator` attribute of `<gpx>` (the program that wrote the file).
    public let creator: String
    /// The track's `<type>` (`cycling`, `Running`, …), or `nil` for none.
    public let trackType: String?
    private var documentOpen = false
    private var pointsInSegment = 0
    private var finished = false

    /// The earliest timestamp GPX text can carry: 0001-01-01T00:00:00Z.
    static let earliest = Int64(CivilTime.daysSince1970(year: 1, month: 1, day: 1)) * 86_400_000
    /// The latest timestamp GPX text can carry: 9999-12-31T23:59:59.999Z.
    static let latest = Int64(CivilTime.daysSince1970(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1

    /// Creates a writer into `sink`.
    ///
    /// - Parameters:
    ///   - creator: the `creator` attribute; default `"TrueTrack"` (GPX requires one).
    ///   - trackType: the track's `<type>`; default `nil`, none (a type is what a recording declares, not
    ///     something to invent).
    public init(sink: ByteSink, creator: String = "TrueTrack", trackType: String? = nil) {
        self.sink = sink
        self.creator = creator
        self.trackType = trackType
    }

    /// Creates (truncating) the file at `path` (`-` for standard output) and a writer into it.
    ///
    /// - Throws: ``WriteError/io(path:message:)`` when the file cannot be created.
    public init(path: String, creator: String = "TrueTrack", trackType: String? = nil) throws(WriteError) {
        self.init(sink: try ByteSink(path: path), creator: creator, trackType: trackType)
    }

    /// Ends the current `<trkseg>` so that the next fix starts a new one (a segment break: a pause, a lost
    /// signal). Does nothing when the current segment is still empty.
    public mutating func startNewSegment() {
        guard documentOpen, pointsInSegment > 0, !finished else { return }
        sink.append("</trkseg>\n<trkseg>\n")
        pointsInSegment = 0
    }

    /// Writes one fix as a `<trkpt>`.
    ///
    /// - Throws: ``WriteError/unrepresentable(path:reason:)`` for a timestamp outside years 0001–9999,
    ///   ``WriteError/io(path:message:)`` when the output fails.
    public mutating func write(_ fix: Fix) throws(WriteError) {
        precondition(!finished, "GPXWriter.write(_:) after finish()")
        let ms = fix.timestamp.millisecondsSince1970
        guard ms >= GPXWriter.earliest, ms <= GPXWriter.latest else {
            throw .unrepresentable(
                path: sink.name,
                reason: "timestamp \(ms) ms since 1970 is outside the years 0001-9999 of GPX")
        }
        openDocument()
        pointsInSegment += 1
        append(fix)
        try sink.flushIfNeeded()
    }

    /// Closes the open elements and flushes the output. The writer must not be used afterwards.
    public mutating func finish() throws(WriteError) {
        guard !finished else { return }
        openDocument()
        finished = true
        sink.append("</trkseg>\n</trk>\n</gpx>\n")
        try sink.close()
    }

    /// Writes the XML declaration, the `<gpx>` element and the opening of the track, once.
    private mutating func openDocument() {
        guard !documentOpen else { return }
        documentOpen = true
        sink.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"")
        GPXWriter.appendEscaped(creator, to: &sink.buffer)
        sink.append("\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:\(GPXTrueTrackExtension.preferredPrefix)=\"")
        sink.append(GPXTrueTrackExtension.namespace)
        sink.append("\">\n<trk>\n")
        if let trackType {
            sink.append("<type>")
            GPXWriter.appendEscaped(trackType, to: &sink.buffer)
            sink.append("</type>\n")
        }
        sink.append("<trkseg>\n")
    }

    /// Appends one `<trkpt>` element (one record: under 1,000 bytes with every field at its longest).
    private func append(_ fix: Fix) {
        sink.appendRecord { r in
            func number(_ open: StaticString, _ value: Double?, _ close: StaticString) {
                guard let value else { return }
                r.put(open)
                r.put(value)
                r.put(close)
            }
            func text(_ open: StaticString, _ value: String, _ close: StaticString) {
                r.put(open)
                r.put(value)
                r.put(close)
            }
            r.put("<trkpt lat=\"")
            r.put(fix.latitude)
            r.put("\" lon=\"")
            r.put(fix.longitude)
            r.put("\">")
            number("<ele>", fix.altitudeMetres, "</ele>")
            r.put("<time>")
            r.put(fix.timestamp)
            r.put("</time>")
            if let satellites = fix.satellitesUsed {
                r.put("<sat>")
                r.put(Int64(satellites))
                r.put("</sat>")
            }
            r.put("<extensions>")
            switch fix.horizontalAccuracy {
            case .metres(let value): number("<tt:accuracy_m>", value, "</tt:accuracy_m>")
            // iOS's "invalid"; 0 reads as "exact" elsewhere
            case .invalid: number("<tt:accuracy_m>", -1, "</tt:accuracy_m>")
            case .absent: break
            }
            number("<tt:vertical_accuracy_m>", fix.verticalAccuracyMetres, "</tt:vertical_accuracy_m>")
            number("<tt:speed_mps>", fix.speedMetresPerSecond, "</tt:speed_mps>")
            number("<tt:speed_accuracy_mps>", fix.speedAccuracyMetresPerSecond, "</tt:speed_accuracy_mps>")
            number("<tt:course_deg>", fix.courseDegrees, "</tt:course_deg>")
            number("<tt:course_accuracy_deg>", fix.courseAccuracyDegrees, "</tt:course_accuracy_deg>")
            text("<tt:provider>", fix.provider.rawValue, "</tt:provider>")
            if let mocked = fix.isMocked { text("<tt:mocked>", mocked ? "true" : "false", "</tt:mocked>") }
            if let activity = fix.activity {
                text("<tt:activity>", activity.kind.rawValue, "</tt:activity>")
                number("<tt:activity_confidence>", Double(activity.confidence), "</tt:activity_confidence>")
            }
            r.put("</extensions></trkpt>\n")
        }
    }

    /// Appends `text` with the characters XML attribute values cannot hold as such (`& < > " '`) escaped,
    /// tab, line feed and carriage return as character references, and other control characters (which
    /// XML 1.0 cannot carry at all) as `?`.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): bytes.append(contentsOf: "&apos;".utf8)
            case 0x09, 0x0A, 0x0D: bytes.append(contentsOf: "&#\(byte);".utf8)
            case 0x00..<0x20: bytes.append(UInt8(ascii: "?"))  // not representable in XML 1.0
            default: bytes.append(byte)
            }
        }
    }
}
