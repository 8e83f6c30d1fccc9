import TrueTrackCore

/// A reader for any supported format, chosen at run time (by ``FixFormat/detect(path:explicit:)``).
///
/// An enum over the concrete readers rather than an existential (`any FixReader`): no box, and each `next()`
/// is a switch plus a direct call. Hot loops that know their format use the concrete reader type.
public struct AnyFixReader: FixReader {
    @usableFromInline
    enum Base {
        case csv(ReaderBox<CSVReader>)
        case gpx(ReaderBox<GPXReader>)
        case kml(ReaderBox<KMLReader>)
        case nmea(ReaderBox<NMEAReader>)
        case gnssLogger(ReaderBox<GnssLoggerReader>)
        case ipin(ReaderBox<IPINReader>)
        case geolife(ReaderBox<GeoLifePLTReader>)
        case geojson(ReaderBox<GeoJSONReader>)
        case jsonLines(ReaderBox<JSONLinesReader>)
    }

    @usableFromInline
    var base: Base

    /// The format being read.
    public let format: FixFormat
    /// The zone of times written without an offset the reader was given (``ReadOptions/localTimeZone``).
    public let localTimeZone: LocalTimeZone?

    /// Opens `path` (`-` for standard input) in `format`, or in the format sniffed from its content.
    ///
    /// - Throws: ``ReadError/io(path:message:)`` when the file cannot be opened,
    ///   ``ReadError/unsupportedFormat(path:reason:)`` when the format cannot be recognised, or when
    ///   ``ReadOptions/csvColumnNames`` are given, or ``ReadOptions/devices`` names one device, for a file that
    ///   does not read as CSV.
    public init(path: String, format explicit: FixFormat? = nil, options: ReadOptions = ReadOptions()) throws(ReadError)
    {
        let format = try FixFormat.detect(path: path, explicit: explicit)
        // Column names apply to CSV: given for a file read as another format, they would be ignored unseen (a
        // reviewer's GSDC truth CSV, which reads as GnssLogger, kept the accuracy its option had ignored).
        if !options.csvColumnNames.isEmpty, format != .csv {
            throw .unsupportedFormat(
                path: path,
                reason: "column names (--column, ReadOptions.csvColumnNames) apply to CSV, and this file reads as "
                    + "\(format.rawValue)" + (explicit == nil ? " (--format csv reads it as CSV)" : ""))
        }
        // A device picks records of a CSV's device column or a JSON record's device member; every other format
        // holds one device's fixes, and the option was ignored unseen (a reviewer's `--device` on a GPX read the
        // whole file).
        if case .only(let device) = options.devices, !format.namesDevices {
            throw .unsupportedFormat(
                path: path,
                reason: "a device ('\(device)': --device, ReadOptions.devices) is picked from a CSV's device column "
                    + "or a JSON record's device member, and this file reads as \(format.rawValue), which holds one "
                    + "device's fixes")
        }
        self.format = format
        localTimeZone = options.localTimeZone
        let stream = try ByteStream(path: path)
        base = AnyFixReader.make(format, stream, options)
    }

    /// Reads `stream` as `format`.
    public init(stream: ByteStream, format: FixFormat, options: ReadOptions = ReadOptions()) {
        self.format = format
        localTimeZone = options.localTimeZone
        base = AnyFixReader.make(format, stream, options)
    }

    static func make(_ format: FixFormat, _ stream: ByteStream, _ options: ReadOptions) -> Base {
        switch format {
        case .csv: .csv(ReaderBox(CSVReader(stream: stream, options: options)))
        case .gpx, .tcx: .gpx(ReaderBox(GPXReader(stream: stream, options: options)))
        case .kml: .kml(ReaderBox(KMLReader(stream: stream, options: options)))
        case .nmea:
            .nmea(
                ReaderBox(
                    NMEAReader(
                        stream: stream, options: options,
                        checksums: options.acceptsChecksumMismatches ? .acceptMismatches : .verify)))
        case .gnssLogger: .gnssLogger(ReaderBox(GnssLoggerReader(stream: stream, options: options)))
        case .ipin: .ipin(ReaderBox(IPINReader(stream: stream, options: options)))
        case .geolife: .geolife(ReaderBox(GeoLifePLTReader(stream: stream, options: options)))
        case .geojson: .geojson(ReaderBox(GeoJSONReader(stream: stream, options: options)))
        case .locationHistory:
            .geojson(
                ReaderBox(
                    {
                        var reader = GeoJSONReader(stream: stream, options: options)
                        reader.rootRecordsAreLocationHistory = true
                        return reader
                    }()))
        case .jsonLines: .jsonLines(ReaderBox(JSONLinesReader(stream: stream, options: options)))
        }
    }

    /// Returns the next fix of the underlying reader. Copies of an `AnyFixReader` share one reader (and so one
    /// position in the input): each fix is returned once, to whichever copy asks.
    public mutating func next() throws(ReadError) -> Fix? {
        try base.next()
    }

    /// CSV: the header's columns the reader does not read (unknown names, or a known quantity in a unit it
    /// does not take, such as `speed_kmh`), once the header has been read, except those the options left unread
    /// on purpose (``ReadOptions/csvColumnNames``' `ignore`); empty for other formats.
    public var unreadCSVColumns: [String] {
        guard case .csv(let box) = base else { return [] }
        let ignored = box.reader.ignoredColumns
        return zip(box.reader.headerNames, box.reader.columns).enumerated().compactMap { index, column in
            column.1 == nil && !ignored.contains(index) ? column.0 : nil
        }
    }

    /// GPX and TCX: the `speed` (TCX: `Speed`) elements inside points not read as a fix's speed
    /// (``GPXReader/unreadSpeedElements``); 0 for other formats.
    public var unreadGPXSpeedElements: Int {
        guard case .gpx(let box) = base else { return 0 }
        return box.reader.unreadSpeedElements
    }

    /// GPX: the `hAcc` and `vAcc` elements inside points not read as a fix's accuracies
    /// (``GPXReader/unreadAccuracyElements``); 0 for other formats.
    public var unreadGPXAccuracyElements: Int {
        guard case .gpx(let box) = base else { return 0 }
        return box.reader.unreadAccuracyElements
    }

    /// CSV: whether a course column is read (``CSVColumn/course``), once the header has been read; `false` for other
    /// formats.
    public var csvReadsCourse: Bool {
        guard case .csv(let box) = base else { return false }
        return box.reader.columns.contains(.course)
    }

    /// CSV: whether the fixes' accuracy comes from a column, an accuracy's (``CSVColumn/horizontalAccuracy``) or an
    /// HDOP's (``CSVColumn/hdop``, scaled), once the header has been read; `false` for other formats.
    public var csvReadsAccuracy: Bool {
        guard case .csv(let box) = base else { return false }
        return box.reader.columns.contains(.horizontalAccuracy) || box.reader.columns.contains(.hdop)
    }

    /// CSV: the header name of the column read as the speed (``CSVColumn/speed``, in whatever unit), once the header
    /// has been read; `nil` for other formats and files without one. For advice that names it
    /// (`--column NAME=ignore`).
    public var csvSpeedColumnName: String? {
        guard case .csv(let box) = base else { return nil }
        return box.reader.headerName(of: .speed)
    }

    /// CSV: the header's time columns, the one the fix times are read from first (see
    /// ``CSVColumn/timePreference(key:)``: a Traccar export's `fixtime`, then `devicetime` and `servertime`, not
    /// read), once the header has been read; empty for other formats.
    public var csvTimeColumns: [String] {
        guard case .csv(let box) = base, let chosen = box.reader.timeColumnName else { return [] }
        let others = box.reader.headerNames.filter { name in
            guard name != chosen, case .time? = CSVColumn(headerName: name) else { return false }
            return true
        }
        return [chosen] + others
    }

    /// CSV: the time column the fix times are read from, once read: its header name, how its values are read
    /// (``CSVReader/timeEncoding``), and whether its name decided that (`time_ms`, `timestamp_s`; else its first
    /// value did, see ``CSVTimeEncoding/automatic``); `nil` for other formats.
    public var csvTimeColumn: (name: String, encoding: CSVTimeEncoding, byName: Bool)? {
        guard case .csv(let box) = base, let name = box.reader.timeColumnName else { return nil }
        return (name, box.reader.timeEncoding, box.reader.timeEncodingDecidedBy == nil)
    }

    /// CSV: the lines of the first fix whose time was written with a zone (or as a Unix time) and of the first
    /// written without one, when the file holds both (``CSVReader/firstZonedTimeLine``); `nil` otherwise and for
    /// other formats.
    public var csvMixedTimeZones: (zonedLine: Int, localLine: Int)? {
        guard case .csv(let box) = base, let zoned = box.reader.firstZonedTimeLine,
            let local = box.reader.firstLocalTimeLine
        else { return nil }
        return (zoned, local)
    }

    /// The devices the file's records name, in the order of their first record, with the fixes read of each so far:
    /// a CSV's device column (``CSVColumn/device``, ``CSVReader/devices``), a JSON record's device member (Traccar's
    /// `deviceId`, Google's `deviceTag`, `device`, `imei`, `uniqueId`; ``GeoJSONReader/devices``,
    /// ``JSONLinesReader/devices``); empty for other formats and files that name none.
    public var devices: [(id: String, fixes: Int)] {
        switch base {
        case .csv(let box): box.reader.devices
        case .geojson(let box): box.reader.devices
        case .jsonLines(let box): box.reader.devices
        default: []
        }
    }

    /// The name the file gives its devices, once read: a CSV's device column header (``CSVReader/deviceColumnName``),
    /// a JSON record's device member as written (`deviceId`…); `nil` when it names none.
    public var deviceField: String? {
        switch base {
        case .csv(let box): box.reader.deviceColumnName
        case .geojson(let box): box.reader.decoder.deviceField
        case .jsonLines(let box): box.reader.decoder.deviceField
        default: nil
        }
    }

    /// The segment the most recently returned fix came from, where the format has them: GPX's `<trkseg>` or
    /// `<rte>` (0-based in document order, ``GPXReader/lastSegmentIndex``), a KML track
    /// (``KMLReader/lastSegmentIndex``), a CSV's segment column
    /// (``CSVReader/lastSegmentIndex``), a JSON Lines `segment` member (``JSONLinesReader/lastSegmentIndex``), a
    /// GeoJSON line feature (``GeoJSONReader/lastSegmentIndex``);
    /// `nil` otherwise. A change of value between two fixes marks a segment break.
    public var segmentIndex: Int? {
        switch base {
        case .gpx(let box): box.reader.lastSegmentIndex
        case .kml(let box): box.reader.lastSegmentIndex
        case .csv(let box): box.reader.lastSegmentIndex
        case .jsonLines(let box): box.reader.lastSegmentIndex
        case .geojson(let box): box.reader.lastSegmentIndex
        default: nil
        }
    }

    /// How many records the underlying reader has read (its ``ReadReport/recordsRead``), without copying its report
    /// (whose dictionaries and arrays cost retains): cheap enough to ask after every fix.
    public var recordsRead: Int { base.recordsRead }

    /// The underlying reader's report.
    public var report: ReadReport {
        switch base {
        case .csv(let box): box.reader.report
        case .gpx(let box): box.reader.report
        case .kml(let box): box.reader.report
        case .nmea(let box): box.reader.report
        case .gnssLogger(let box): box.reader.report
        case .ipin(let box): box.reader.report
        case .geolife(let box): box.reader.report
        case .geojson(let box): box.reader.report
        case .jsonLines(let box): box.reader.report
        }
    }
}

/// A reader kept in memory of its own, owned by a class, so that it is mutated in place behind an enum (see
/// ``AnyFixReader``).
///
/// The reader is reached through a pointer rather than a stored `var`: a class's stored property is checked for
/// exclusive access at run time on every mutation (`swift_beginAccess`, a thread-local access set), about 120
/// instructions per fix in the `end-to-end-csv` benchmark. Access through ``reader`` is as exclusive as the
/// caller makes it: an ``AnyFixReader`` is used by one caller at a time (it is not `Sendable`).
@usableFromInline
final class ReaderBox<Reader: FixReader> {
    @usableFromInline
    let storage: UnsafeMutablePointer<Reader>

    @usableFromInline
    init(_ reader: Reader) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: reader)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The reader, read and mutated in place.
    @usableFromInline
    var reader: Reader {
        _read { yield storage.pointee }
        _modify { yield &storage.pointee }
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
    ///
    /// - Parameter geoJSONGeometry: how GeoJSON holds the fixes: ``GeoJSONWriter/Geometry/points`` by default
    ///   (lossless), or LineStrings per segment (what a map draws as a track).
    /// - Parameter trackType: the activity the track declares (GPX `<type>`, see ``GPXWriter/trackType``);
    ///   default `nil`, none. The other formats have no place for it.
    /// - Parameter keepsSegments: CSV, JSON Lines and point GeoJSON: number the segments in a `segment` column,
    ///   member or property (``CSVWriter/init(sink:timeColumn:keepsSegments:)``), for a track that has them; `false`
    ///   by default. GPX and line-string GeoJSON keep them in their own structure whatever this says.
    public init(
        path: String, format: FixFormat, geoJSONGeometry: GeoJSONWriter.Geometry = .points, trackType: String? = nil,
        keepsSegments: Bool = false
    ) throws(WriteError) {
        let sink = try ByteSink(path: path)
        try self.init(
            sink: sink, format: format, geoJSONGeometry: geoJSONGeometry, trackType: trackType,
            keepsSegments: keepsSegments)
    }

    /// Writes `format` into `sink` (see ``init(path:format:geoJSONGeometry:trackType:keepsSegments:)``).
    public init(
        sink: ByteSink, format: FixFormat, geoJSONGeometry: GeoJSONWriter.Geometry = .points, trackType: String? = nil,
        keepsSegments: Bool = false
    ) throws(WriteError) {
        self.format = format
        switch format {
        case .csv: base = .csv(CSVWriter(sink: sink, keepsSegments: keepsSegments))
        case .gpx: base = .gpx(GPXWriter(sink: sink, trackType: trackType))
        case .geojson:
            base = .geojson(GeoJSONWriter(sink: sink, geometry: geoJSONGeometry, keepsSegments: keepsSegments))
        case .jsonLines: base = .jsonLines(JSONLinesWriter(sink: sink, keepsSegments: keepsSegments))
        default:
            throw .unrepresentable(
                path: sink.name, reason: "TrueTrack cannot write \(format) (writable: csv, gpx, geojson, jsonl)")
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

    /// Ends the current segment so that the next fix starts a new one (a recording gap, a lost signal): a new
    /// `<trkseg>` in GPX, a new LineString Feature in line-string GeoJSON, the next number in a CSV's or JSON
    /// Lines' `segment` when they keep segments; otherwise nothing.
    public mutating func startNewSegment() {
        switch base {
        case .gpx(var w): base = .moved; defer { base = .gpx(w) }; w.startNewSegment()
        case .geojson(var w): base = .moved; defer { base = .geojson(w) }; w.startNewSegment()
        case .csv(var w): base = .moved; defer { base = .csv(w) }; w.startNewSegment()
        case .jsonLines(var w): base = .moved; defer { base = .jsonLines(w) }; w.startNewSegment()
        case .moved: break
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

extension AnyFixReader.Base {
    /// The next fix of the boxed reader. Each reader lives in a box so it mutates in place: an enum payload
    /// would be copied out and back (hundreds of bytes per fix for the GPX reader). Not `mutating`, and called
    /// on `base` rather than switched over inside ``AnyFixReader/next()``: with the enum borrowed the switch
    /// binds the box without retaining it (a switch over `self.base` inside the `mutating` method retained and
    /// released it on every fix).
    @usableFromInline
    func next() throws(ReadError) -> Fix? {
        switch self {
        case .csv(let box): return try box.reader.next()
        case .gpx(let box): return try box.reader.next()
        case .kml(let box): return try box.reader.next()
        case .nmea(let box): return try box.reader.next()
        case .gnssLogger(let box): return try box.reader.next()
        case .ipin(let box): return try box.reader.next()
        case .geolife(let box): return try box.reader.next()
        case .geojson(let box): return try box.reader.next()
        case .jsonLines(let box): return try box.reader.next()
        }
    }

    /// The reader's ``ReadReport/recordsRead``, bound as ``next()`` binds it.
    var recordsRead: Int {
        switch self {
        case .csv(let box): box.reader.recordsRead
        case .gpx(let box): box.reader.recordsRead
        case .kml(let box): box.reader.recordsRead
        case .nmea(let box): box.reader.recordsRead
        case .gnssLogger(let box): box.reader.recordsRead
        case .ipin(let box): box.reader.recordsRead
        case .geolife(let box): box.reader.recordsRead
        case .geojson(let box): box.reader.recordsRead
        case .jsonLines(let box): box.reader.recordsRead
        }
    }
}
