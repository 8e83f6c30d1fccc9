import TrueTrackCore

/// A reader for any supported format, chosen at run time (by ``FixFormat/detect(path:explicit:)``).
///
/// An enum over the concrete readers rather than an existential (`any FixReader`): no box, and each `next()`
/// is a switch plus a direct call. Hot loops that know their format use the concrete reader type.
public struct AnyFixReader: FixReader {
    @usableFromInline
    enum Base {
        case csv(CSVReader)
        case gpx(GPXReader)
        case nmea(NMEAReader)
        case gnssLogger(GnssLoggerReader)
        case ipin(IPINReader)
        case geolife(GeoLifePLTReader)
        case geojson(GeoJSONReader)
        case jsonLines(JSONLinesReader)
        case moved
    }

    @usableFromInline
    var base: Base

    /// The format being read.
    public let format: FixFormat

    /// Opens `path` (`-` for standard input) in `format`, or in the format sniffed from its content.
    ///
    /// - Throws: ``ReadError/io(path:message:)`` when the file cannot be opened,
    ///   ``ReadError/unsupportedFormat(path:reason:)`` when the format cannot be recognised.
    public init(path: String, format explicit: FixFormat? = nil, options: ReadOptions = ReadOptions()) throws(ReadError) {
        let format = try FixFormat.detect(path: path, explicit: explicit)
        self.format = format
        let stream = try ByteStream(path: path)
        base = AnyFixReader.make(format, stream, options)
    }

    /// Reads `stream` as `format`.
    public init(stream: ByteStream, format: FixFormat, options: ReadOptions = ReadOptions()) {
        self.format = format
        base = AnyFixReader.make(format, stream, options)
    }

    static func make(_ format: FixFormat, _ stream: ByteStream, _ options: ReadOptions) -> Base {
        switch format {
        case .csv: .csv(CSVReader(stream: stream, options: options))
        case .gpx: .gpx(GPXReader(stream: stream, options: options))
        case .nmea: .nmea(NMEAReader(stream: stream, options: options))
        case .gnssLogger: .gnssLogger(GnssLoggerReader(stream: stream, options: options))
        case .ipin: .ipin(IPINReader(stream: stream, options: options))
        case .geolife: .geolife(GeoLifePLTReader(stream: stream, options: options))
        case .geojson: .geojson(GeoJSONReader(stream: stream, options: options))
        case .jsonLines: .jsonLines(JSONLinesReader(stream: stream, options: options))
        }
    }

    /// Returns the next fix of the underlying reader.
    public mutating func next() throws(ReadError) -> Fix? {
        // Move the reader out so it is uniquely referenced while it mutates, then put it back.
        switch base {
        case .csv(var r): base = .moved; defer { base = .csv(r) }; return try r.next()
        case .gpx(var r): base = .moved; defer { base = .gpx(r) }; return try r.next()
        case .nmea(var r): base = .moved; defer { base = .nmea(r) }; return try r.next()
        case .gnssLogger(var r): base = .moved; defer { base = .gnssLogger(r) }; return try r.next()
        case .ipin(var r): base = .moved; defer { base = .ipin(r) }; return try r.next()
        case .geolife(var r): base = .moved; defer { base = .geolife(r) }; return try r.next()
        case .geojson(var r): base = .moved; defer { base = .geojson(r) }; return try r.next()
        case .jsonLines(var r): base = .moved; defer { base = .jsonLines(r) }; return try r.next()
        case .moved: preconditionFailure("AnyFixReader used re-entrantly")
        }
    }

    /// The underlying reader's report.
    public var report: ReadReport {
        switch base {
        case .csv(let r): r.report
        case .gpx(let r): r.report
        case .nmea(let r): r.report
        case .gnssLogger(let r): r.report
        case .ipin(let r): r.report
        case .geolife(let r): r.report
        case .geojson(let r): r.report
        case .jsonLines(let r): r.report
        case .moved: preconditionFailure("AnyFixReader used re-entrantly")
        }
    }
}

/// A writer for any writable format (see ``FixFormat/writable``), chosen at run time.
public struct AnyFixWriter: FixWriter {
    @usableFromInline
    enum Base {
        case csv(CSVWriter)
        case gpx(GPXWriter)
        case geojson(GeoJSONWriter)
        case jsonLines(JSONLinesWriter)
        case moved
    }

    @usableFromInline
    var base: Base

    /// The format being written.
    public let format: FixFormat

    /// Creates (truncating) `path` (`-` for standard output) for writing `format`.
    ///
    /// - Throws: ``WriteError/io(path:message:)`` when it cannot be created,
    ///   ``WriteError/unrepresentable(path:reason:)`` when `format` is not writable.
    public init(path: String, format: FixFormat) throws(WriteError) {
        let sink = try ByteSink(path: path)
        try self.init(sink: sink, format: format)
    }

    /// Writes `format` into `sink`.
    public init(sink: ByteSink, format: FixFormat) throws(WriteError) {
        self.format = format
        switch format {
        case .csv: base = .csv(CSVWriter(sink: sink))
        case .gpx: base = .gpx(GPXWriter(sink: sink))
        case .geojson: base = .geojson(GeoJSONWriter(sink: sink))
        case .jsonLines: base = .jsonLines(JSONLinesWriter(sink: sink))
        default:
            throw .unrepresentable(path: sink.name, reason: "TrueTrack cannot write \(format) (writable: csv, gpx, geojson, jsonl)")
        }
    }

    /// Writes one fix.
    public mutating func write(_ fix: Fix) throws(WriteError) {
        switch base {
        case .csv(var w): base = .moved; defer { base = .csv(w) }; try w.write(fix)
        case .gpx(var w): base = .moved; defer { base = .gpx(w) }; try w.write(fix)
        case .geojson(var w): base = .moved; defer { base = .geojson(w) }; try w.write(fix)
        case .jsonLines(var w): base = .moved; defer { base = .jsonLines(w) }; try w.write(fix)
        case .moved: preconditionFailure("AnyFixWriter used re-entrantly")
        }
    }

    /// Writes the closing text and flushes.
    public mutating func finish() throws(WriteError) {
        switch base {
        case .csv(var w): base = .moved; defer { base = .csv(w) }; try w.finish()
        case .gpx(var w): base = .moved; defer { base = .gpx(w) }; try w.finish()
        case .geojson(var w): base = .moved; defer { base = .geojson(w) }; try w.finish()
        case .jsonLines(var w): base = .moved; defer { base = .jsonLines(w) }; try w.finish()
        case .moved: preconditionFailure("AnyFixWriter used re-entrantly")
        }
    }
}
