import TrueTrackCore

/// Writes fixes as CSV with this project's canonical header, which ``CSVReader`` reads back to identical
/// fixes:
///
/// `timestamp,latitude,longitude,accuracy_m,altitude_m,vertical_accuracy_m,speed_mps,speed_accuracy_mps,course_deg,course_accuracy_deg,provider,satellites,mocked,activity,activity_confidence`
///
/// - `timestamp`: ISO 8601 UTC (`2024-05-01T12:00:00Z`, with `.SSS` when the milliseconds are not zero).
/// - Numbers: the shortest text that reads back to the identical `Double` (``NumberFormatting``); metres,
///   metres per second, degrees clockwise from true north.
/// - An absent value is an empty field; a ``HorizontalAccuracy/invalid`` accuracy is written `-1` (iOS's
///   "invalid"; other tools read a `0` as exact), which reads back as invalid.
/// - `provider` and `activity` are the ``Provider`` and ``ActivityKind`` raw values, `mocked` is
///   `true`/`false`, `activity_confidence` 0–100 (empty with the activity when there is none).
/// - Lines end in `\n`; no field needs quoting (no value can hold a comma, quote or line end).
/// - Kept segments (``init(sink:timeColumn:keepsSegments:)``): a last column, `segment`, numbers them from 0;
///   ``startNewSegment()`` starts the next (``CSVReader`` reads the column back as ``CSVReader/lastSegmentIndex``).
public struct CSVWriter: FixWriter {
    /// The canonical header line (without its line end). Every CSV of fixes this project writes (`truetrack
    /// convert`, `process --out`, the bench's export) starts `timestamp,latitude,longitude`, the filtered
    /// track's header that issue 3 specifies.
    public static let header =
        "timestamp,latitude,longitude,accuracy_m,altitude_m,vertical_accuracy_m,speed_mps,"
        + "speed_accuracy_mps,course_deg,course_accuracy_deg,provider,satellites,mocked,activity,activity_confidence"

    /// The name of the time column: both read back with ``CSVReader`` (it accepts either).
    public enum TimeColumn: String, Sendable, Hashable {
        /// `timestamp`: the canonical header (the default).
        case timestamp
        /// `time`: the name `truetrack convert` wrote until 2026-11 (the CSV header of the fixes, while the
        /// filtered track's said `timestamp`), for a consumer that still expects it.
        case time
    }

    private let sink: ByteSink
    private var finished = false
    /// The current segment's number, written in the `segment` column; `nil`: segments not kept.
    private var segment: Int?

    /// Creates a writer on `sink` and buffers the header line.
    ///
    /// - Parameter timeColumn: the time column's name; ``TimeColumn/timestamp`` by default (the canonical
    ///   header).
    /// - Parameter keepsSegments: whether to add the `segment` column (after the canonical ones), so that a GPX's
    ///   segment breaks (pauses, lost signal) survive the CSV; `false` by default (the canonical header alone,
    ///   for a track that has no segments).
    public init(sink: ByteSink, timeColumn: TimeColumn = .timestamp, keepsSegments: Bool = false) {
        self.sink = sink
        switch timeColumn {
        case .timestamp: sink.append(CSVWriter.header)
        case .time: sink.append("time" + CSVWriter.header.dropFirst("timestamp".count))
        }
        if keepsSegments {
            sink.append(",segment")
            segment = 0
        }
        sink.buffer.append(0x0A)
    }

    /// Ends the current segment: the next fix's `segment` is one more. Does nothing unless the writer keeps
    /// segments.
    public mutating func startNewSegment() {
        segment? += 1
    }

    /// Creates (truncating) the file at `path` (`-` for standard output) and a writer on it.
    ///
    /// - Throws: ``WriteError/io(path:message:)`` when the file cannot be created.
    public init(path: String) throws(WriteError) {
        self.init(sink: try ByteSink(path: path))
    }

    /// Appends one row (buffered; the sink writes in 1 MiB blocks).
    ///
    /// - Throws: ``WriteError/unrepresentable(path:reason:)`` for a time outside the years 0001–9999 (ISO
    ///   8601 text cannot hold it), ``WriteError/io(path:message:)`` when a block cannot be written.
    public mutating func write(_ fix: Fix) throws(WriteError) {
        let ms = fix.timestamp.millisecondsSince1970
        guard ms >= CSVScan.earliestMilliseconds, ms < CSVScan.endMilliseconds else {
            throw .unrepresentable(
                path: sink.name,
                reason: "time \(ms) ms since 1970 is outside the years 0001-9999")
        }
        let comma = UInt8(ascii: ",")
        // (One record: at most a 32-byte time, eight numbers of at most 24 bytes, a provider, the satellites, a
        // flag, an activity, its confidence and the segment: under 700 bytes.)
        sink.appendRecord { r in
            r.put(fix.timestamp)
            r.put(comma)
            r.put(fix.latitude)
            r.put(comma)
            r.put(fix.longitude)
            r.put(comma)
            switch fix.horizontalAccuracy {
            case .metres(let value): r.put(value)
            // iOS's "invalid" (−1): a 0 reads as "exact" in other tools (it read back invalid here, but a
            // spreadsheet or a peer took the fix for a perfect one).
            case .invalid:
                r.put(UInt8(ascii: "-"))
                r.put(UInt8(ascii: "1"))
            case .absent: break
            }
            @inline(__always) func field(_ value: Double?, _ r: inout RecordBytes) {
                r.put(comma)
                if let value { r.put(value) }
            }
            field(fix.altitudeMetres, &r)
            field(fix.verticalAccuracyMetres, &r)
            field(fix.speedMetresPerSecond, &r)
            field(fix.speedAccuracyMetresPerSecond, &r)
            field(fix.courseDegrees, &r)
            field(fix.courseAccuracyDegrees, &r)
            r.put(comma)
            r.put(fix.provider.rawValue)
            r.put(comma)
            if let satellites = fix.satellitesUsed { r.put(Int64(satellites)) }
            r.put(comma)
            if let mocked = fix.isMocked { r.put(mocked ? "true" : "false") }
            r.put(comma)
            if let activity = fix.activity { r.put(activity.kind.rawValue) }
            r.put(comma)
            if let activity = fix.activity { r.put(Int64(activity.confidence)) }
            if let segment {
                r.put(comma)
                r.put(Int64(segment))
            }
            r.put(UInt8(0x0A))
        }
        try sink.flushIfNeeded()
    }

    /// Flushes everything and closes the output (a file is synced to storage). Calling it again does nothing.
    public mutating func finish() throws(WriteError) {
        guard !finished else { return }
        finished = true
        try sink.close()
    }
}
