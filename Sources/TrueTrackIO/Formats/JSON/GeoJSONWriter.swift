import TrueTrackCore

/// Writes fixes as a GeoJSON (RFC 7946) FeatureCollection, streamed through a ``ByteSink``.
///
/// In ``Geometry/points`` mode (the default) every fix is a Point Feature on its own line, coordinates
/// `[longitude, latitude(, altitude)]`, with every field as a canonical property (`time`, `accuracy_m`,
/// `altitude_m`, …; absent values left out, invalid accuracy written as `-1`); ``GeoJSONReader`` reads it
/// back to identical fixes. Nothing is held back: memory stays at the sink's buffer.
///
/// ``Geometry/lineString`` mode writes one LineString Feature per segment (``startNewSegment()``: a gap, a
/// restart of the filter) with the times in `properties.coordTimes` (the togeojson convention read by most
/// tools), which keeps only time and position (and altitude); a segment of one fix is a Point Feature with its
/// `time` (a LineString needs two positions, RFC 7946 §3.1.4). The coordinates stream out, the segment's times
/// (8 bytes per fix) are held until it ends.
public struct GeoJSONWriter: FixWriter {
    /// How fixes become features.
    public enum Geometry: Sendable, Hashable {
        /// One Point Feature per fix with every field as a property (lossless).
        case points
        /// One LineString Feature per segment, times in `coordTimes` (time, position and altitude only).
        case lineString
    }

    let sink: ByteSink
    /// The mode chosen at creation.
    public let geometry: Geometry
    var count = 0
    var isFinished = false
    /// Line-string mode's state, behind a reference: the writer stays small, because ``AnyFixWriter`` moves its
    /// largest writer's size on every fix (a `Fix` held inline cost the GPX-to-CSV conversion 8 % more
    /// instructions per fix).
    let lines = LineState()

    /// Line-string mode's state.
    final class LineState {
        /// The current segment's times.
        var times: [Timestamp] = []
        /// The features written so far.
        var features = 0
        /// The current segment's first fix while it is its only one (not written yet: one fix is a Point, two
        /// begin a LineString).
        var first: Fix?
        /// ``startNewSegment()`` was called: the segment's ending is written before the next fix (or by
        /// ``finish()``), where a write can throw.
        var isEnded = false
    }

    /// Creates a writer into `sink`.
    ///
    /// - Parameter geometry: ``Geometry/points`` by default, because it keeps every field.
    public init(sink: ByteSink, geometry: Geometry = .points) {
        self.sink = sink
        self.geometry = geometry
    }

    /// Creates (truncating) the file at `path` (`-` for standard output).
    ///
    /// - Throws: ``WriteError/io(path:message:)`` when it cannot be created.
    public init(path: String, geometry: Geometry = .points) throws(WriteError) {
        self.init(sink: try ByteSink(path: path), geometry: geometry)
    }

    static let header = "{\"type\":\"FeatureCollection\",\"features\":["

    /// Writes one fix (buffered).
    public mutating func write(_ fix: Fix) throws(WriteError) {
        precondition(!isFinished, "GeoJSONWriter used after finish()")
        guard fix.timestamp.isRepresentable else {
            throw .unrepresentable(
                path: sink.name,
                reason: "time \(fix.timestamp.millisecondsSince1970) ms since 1970 is "
                    + "outside the years 0001-9999")
        }
        switch geometry {
        case .points:
            sink.buffer.append(contentsOf: (count == 0 ? GeoJSONWriter.header + "\n" : ",\n").utf8)
            sink.buffer.append(
                contentsOf: "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":".utf8)
            JSONFixEncoding.appendPosition(of: fix, to: &sink.buffer)
            sink.buffer.append(contentsOf: "},\"properties\":{".utf8)
            JSONFixEncoding.appendFields(of: fix, withPosition: false, to: &sink.buffer)
            sink.buffer.append(contentsOf: "}}".utf8)
        case .lineString:
            if lines.isEnded {
                try endSegment()
                lines.isEnded = false
            }
            if lines.times.isEmpty {
                lines.first = fix
            } else {
                if let first = lines.first {
                    beginFeature("{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\n")
                    JSONFixEncoding.appendPosition(of: first, to: &sink.buffer)
                    lines.first = nil
                }
                sink.buffer.append(contentsOf: ",\n".utf8)
                JSONFixEncoding.appendPosition(of: fix, to: &sink.buffer)
            }
            lines.times.append(fix.timestamp)
        }
        count += 1
        try sink.flushIfNeeded()
    }

    /// Ends the current segment (line-string mode: its Feature); the next fix starts a new one. Nothing
    /// happens in points mode, or when the segment is empty.
    public mutating func startNewSegment() {
        precondition(!isFinished, "GeoJSONWriter used after finish()")
        if geometry == .lineString, !lines.times.isEmpty { lines.isEnded = true }
    }

    /// Opens the collection before the first feature, or separates this one from the previous, then writes
    /// `text`.
    mutating func beginFeature(_ text: String) {
        sink.buffer.append(contentsOf: ((lines.features == 0 ? GeoJSONWriter.header + "\n" : ",\n") + text).utf8)
        lines.features += 1
    }

    /// Writes the current segment's ending: its LineString's times, or its one fix as a Point.
    mutating func endSegment() throws(WriteError) {
        if let first = lines.first {
            beginFeature("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":")
            JSONFixEncoding.appendPosition(of: first, to: &sink.buffer)
            sink.buffer.append(contentsOf: "},\"properties\":{\"time\":\"".utf8)
            ISO8601.append(first.timestamp, to: &sink.buffer)
            sink.buffer.append(contentsOf: "\"}}".utf8)
            lines.first = nil
        } else if !lines.times.isEmpty {
            sink.buffer.append(contentsOf: "\n]},\"properties\":{\"coordTimes\":[".utf8)
            for (k, time) in lines.times.enumerated() {
                if k > 0 { sink.buffer.append(UInt8(ascii: ",")) }
                if k % 8 == 0 { sink.buffer.append(UInt8(ascii: "\n")) }
                sink.buffer.append(UInt8(ascii: "\""))
                ISO8601.append(time, to: &sink.buffer)
                sink.buffer.append(UInt8(ascii: "\""))
                try sink.flushIfNeeded()
            }
            sink.buffer.append(contentsOf: "\n]}}".utf8)
        }
        lines.times.removeAll(keepingCapacity: true)
    }

    /// Writes the closing brackets and flushes (for a file, syncs it to storage).
    public mutating func finish() throws(WriteError) {
        precondition(!isFinished, "GeoJSONWriter.finish() called twice")
        isFinished = true
        if geometry == .lineString { try endSegment() }
        if count == 0 {
            sink.buffer.append(contentsOf: (GeoJSONWriter.header + "]}\n").utf8)
        } else {
            sink.buffer.append(contentsOf: "\n]}\n".utf8)
        }
        try sink.close()
    }
}
