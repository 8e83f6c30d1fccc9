import TrueTrackCore

/// Writes fixes as JSON Lines: one object per line with the canonical keys (`time`, `latitude`,
/// `longitude`, `accuracy_m`, …, as ``GeoJSONWriter`` names its properties), absent fields left out. ``JSONLinesReader``
/// reads it back to identical fixes. Kept segments (``init(sink:keepsSegments:)``) add a `segment` member numbering
/// them from 0 (``JSONLinesReader/lastSegmentIndex``).
public struct JSONLinesWriter: FixWriter {
    let sink: ByteSink
    var isFinished = false
    /// The current segment's number, written as `segment`; `nil`: segments not kept.
    var segment: Int?

    /// Creates a writer into `sink`.
    ///
    /// - Parameter keepsSegments: whether each line carries its segment's number (`segment`), so that a GPX's
    ///   segment breaks survive; `false` by default.
    public init(sink: ByteSink, keepsSegments: Bool = false) {
        self.sink = sink
        segment = keepsSegments ? 0 : nil
    }

    /// Ends the current segment: the next fix's `segment` is one more. Does nothing unless the writer keeps
    /// segments.
    public mutating func startNewSegment() {
        segment? += 1
    }

    /// Creates (truncating) the file at `path` (`-` for standard output).
    ///
    /// - Throws: ``WriteError/io(path:message:)`` when it cannot be created.
    public init(path: String) throws(WriteError) {
        self.init(sink: try ByteSink(path: path))
    }

    /// Writes one fix as one line (buffered).
    public mutating func write(_ fix: Fix) throws(WriteError) {
        precondition(!isFinished, "JSONLinesWriter used after finish()")
        guard fix.timestamp.isRepresentable else {
            throw .unrepresentable(
                path: sink.name,
                reason: "time \(fix.timestamp.millisecondsSince1970) ms since 1970 is "
                    + "outside the years 0001-9999")
        }
        sink.buffer.append(UInt8(ascii: "{"))
        JSONFixEncoding.appendFields(of: fix, withPosition: true, to: &sink.buffer)
        if let segment {
            sink.buffer.append(contentsOf: ",\"segment\":".utf8)
            NumberFormatting.append(Int64(segment), to: &sink.buffer)
        }
        sink.buffer.append(UInt8(ascii: "}"))
        sink.buffer.append(UInt8(ascii: "\n"))
        try sink.flushIfNeeded()
    }

    /// Flushes (for a file, syncs it to storage).
    public mutating func finish() throws(WriteError) {
        precondition(!isFinished, "JSONLinesWriter.finish() called twice")
        isFinished = true
        try sink.close()
    }
}
