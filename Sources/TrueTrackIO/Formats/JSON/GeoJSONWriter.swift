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
/// `time` (a LineString needs two positions, RFC 7946 §3.1.4).
///
/// A segment that crosses the antimeridian (two consecutive fixes whose longitudes differ by more than 180°) is
/// cut there, as RFC 7946 §3.1.9 asks, so that no map draws the step as a line around the globe: its Feature's
/// geometry is a `MultiLineString` whose parts end at `180` (or `−180`) and start again on the other side, at
/// the latitude ``Antimeridian/crossing(fromLatitude:fromLongitude:toLatitude:toLongitude:)`` interpolates,
/// and its `coordTimes` are an array per part (the togeojson convention for a MultiLineString). The two
/// vertices a cut adds are not fixes: their time is `null`, and ``GeoJSONReader`` reads the file back to the
/// fixes written, without them. A segment that does not cross is written as before, byte for byte.
///
/// Memory: because the geometry's type comes before its coordinates and a crossing can come at any fix, a
/// segment's positions and times (32 bytes per fix) are held until it ends; points mode holds nothing.
public struct GeoJSONWriter: FixWriter {
    /// How fixes become features.
    public enum Geometry: Sendable, Hashable {
        /// One Point Feature per fix with every field as a property (lossless).
        case points
        /// One LineString Feature per segment, times in `coordTimes` (time, position and altitude only); a
        /// segment crossing the antimeridian is one MultiLineString Feature cut at ±180.
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
        /// The current segment's positions (written when it ends: whether it is a LineString, a
        /// MultiLineString or a Point is known only then).
        var positions: [Position] = []
        /// The features written so far.
        var features = 0
        /// ``startNewSegment()`` was called: the segment's ending is written before the next fix (or by
        /// ``finish()``), where a write can throw.
        var isEnded = false
        /// Points mode: the current segment's number, written as each point's `segment` property; `nil`: segments
        /// not kept (``init(sink:geometry:keepsSegments:)``). (Here, not in the writer: see ``lines``.)
        var pointSegment: Int?
    }

    /// A position held until its segment is written.
    struct Position {
        var longitude: Double
        var latitude: Double
        /// The altitude in metres, NaN when the fix has none (a `Fix` holds no NaN).
        var altitude: Double

        init(_ fix: Fix) {
            longitude = fix.longitude
            latitude = fix.latitude
            altitude = fix.altitudeMetres ?? .nan
        }

        init(longitude: Double, latitude: Double, altitude: Double) {
            self.longitude = longitude
            self.latitude = latitude
            self.altitude = altitude
        }

        /// Appends `[longitude,latitude(,altitude)]`, as ``JSONFixEncoding/appendPosition(of:to:)`` does.
        func append(to out: inout [UInt8]) {
            JSONFixEncoding.appendPosition(
                longitude: longitude, latitude: latitude, altitude: altitude.isNaN ? nil : altitude, to: &out)
        }
    }

    /// Creates a writer into `sink`.
    ///
    /// - Parameter geometry: ``Geometry/points`` by default, because it keeps every field.
    /// - Parameter keepsSegments: points mode: whether each point carries its segment's number as its `segment`
    ///   property (from 0, one more at each ``startNewSegment()``), as ``JSONLinesWriter`` and ``CSVWriter`` number
    ///   them, so that a GPX's segment breaks survive (a converted Edge 800 ride's 8 segments read back as one; an
    ///   operations tester's); `false` by default. Line-string mode keeps them as its features.
    public init(sink: ByteSink, geometry: Geometry = .points, keepsSegments: Bool = false) {
        self.sink = sink
        self.geometry = geometry
        if keepsSegments, geometry == .points { lines.pointSegment = 0 }
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
            if let segment = lines.pointSegment {
                sink.buffer.append(contentsOf: ",\"segment\":".utf8)
                NumberFormatting.append(Int64(segment), to: &sink.buffer)
            }
            sink.buffer.append(contentsOf: "}}".utf8)
        case .lineString:
            if lines.isEnded {
                try endSegment()
                lines.isEnded = false
            }
            lines.positions.append(Position(fix))
            lines.times.append(fix.timestamp)
        }
        count += 1
        try sink.flushIfNeeded()
    }

    /// Ends the current segment (line-string mode: its Feature); the next fix starts a new one. In points mode, the
    /// next point's `segment` is one more when segments are kept (``init(sink:geometry:keepsSegments:)``); nothing
    /// happens otherwise, or when the segment is empty.
    public mutating func startNewSegment() {
        precondition(!isFinished, "GeoJSONWriter used after finish()")
        if geometry == .lineString, !lines.times.isEmpty { lines.isEnded = true }
        lines.pointSegment? += 1
    }

    /// Opens the collection before the first feature, or separates this one from the previous, then writes
    /// `text`.
    mutating func beginFeature(_ text: String) {
        sink.buffer.append(contentsOf: ((lines.features == 0 ? GeoJSONWriter.header + "\n" : ",\n") + text).utf8)
        lines.features += 1
    }

    /// Writes the current segment: its LineString (a MultiLineString when it crosses the antimeridian) with its
    /// times, or its one fix as a Point.
    mutating func endSegment() throws(WriteError) {
        // Taken out of `lines` while they are written, so that emptying them afterwards keeps their buffers
        // (emptied while a copy was alive, each array would allocate a new buffer per segment).
        var positions: [Position] = [], times: [Timestamp] = []
        swap(&positions, &lines.positions)
        swap(&times, &lines.times)
        defer {
            positions.removeAll(keepingCapacity: positions.capacity <= 1 << 16)
            times.removeAll(keepingCapacity: times.capacity <= 1 << 16)
            swap(&positions, &lines.positions)
            swap(&times, &lines.times)
        }
        if positions.count == 1 {
            beginFeature("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":")
            positions[0].append(to: &sink.buffer)
            sink.buffer.append(contentsOf: "},\"properties\":{\"time\":\"".utf8)
            ISO8601.append(times[0], to: &sink.buffer)
            sink.buffer.append(contentsOf: "\"}}".utf8)
            return
        }
        guard positions.count > 1 else { return }
        // The steps that cross: the cut goes before position `k`.
        var cuts: [(k: Int, crossing: Antimeridian.Crossing)] = []
        for k in 1..<positions.count {
            let a = positions[k - 1], b = positions[k]
            if let crossing = Antimeridian.crossing(
                fromLatitude: a.latitude, fromLongitude: a.longitude, toLatitude: b.latitude,
                toLongitude: b.longitude)
            {
                cuts.append((k, crossing))
            }
        }
        let isCut = !cuts.isEmpty
        beginFeature(
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\""
                + (isCut ? "MultiLineString\",\"coordinates\":[[\n" : "LineString\",\"coordinates\":[\n"))
        var next = 0  // the next cut in `cuts`
        for (k, position) in positions.enumerated() {
            if next < cuts.count, cuts[next].k == k {
                // The part before ends at ±180, the next starts on the other side, both at the crossing's
                // latitude (with the altitude interpolated as the latitude is, when both fixes have one).
                let crossing = cuts[next].crossing
                let a = positions[k - 1]
                let altitude = a.altitude + crossing.fraction * (position.altitude - a.altitude)  // NaN: none
                sink.buffer.append(contentsOf: ",\n".utf8)
                Position(longitude: crossing.endLongitude, latitude: crossing.latitude, altitude: altitude)
                    .append(to: &sink.buffer)
                sink.buffer.append(contentsOf: "\n],[\n".utf8)
                Position(longitude: crossing.startLongitude, latitude: crossing.latitude, altitude: altitude)
                    .append(to: &sink.buffer)
                next += 1
            }
            if k > 0 { sink.buffer.append(contentsOf: ",\n".utf8) }
            position.append(to: &sink.buffer)
            try sink.flushIfNeeded()
        }
        sink.buffer.append(
            contentsOf: (isCut ? "\n]]},\"properties\":{\"coordTimes\":[[" : "\n]},\"properties\":{\"coordTimes\":[")
                .utf8)
        // The times, an array per part when cut: each cut vertex's is `null`. `column` counts the values of the
        // current part (a line break before every eighth).
        next = 0
        var column = 0
        func value(_ text: (inout [UInt8]) -> Void) {
            if column > 0 { sink.buffer.append(UInt8(ascii: ",")) }
            if column % 8 == 0 { sink.buffer.append(UInt8(ascii: "\n")) }
            text(&sink.buffer)
            column += 1
        }
        for (k, time) in times.enumerated() {
            if next < cuts.count, cuts[next].k == k {
                value { $0.append(contentsOf: "null".utf8) }
                sink.buffer.append(contentsOf: "\n],[".utf8)
                column = 0
                value { $0.append(contentsOf: "null".utf8) }
                next += 1
            }
            value {
                $0.append(UInt8(ascii: "\""))
                ISO8601.append(time, to: &$0)
                $0.append(UInt8(ascii: "\""))
            }
            try sink.flushIfNeeded()
        }
        sink.buffer.append(contentsOf: (isCut ? "\n]]}}" : "\n]}}").utf8)
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
