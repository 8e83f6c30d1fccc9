import TrueTrackCore

/// A streaming source of fixes: call ``next()`` until it returns `nil`.
///
/// Readers hold one chunk of input in memory (see ``ByteStream``), never the whole file. A reader that hits
/// damaged input throws a ``ReadError`` naming the place, after having returned every fix before it, so
/// nothing already read is lost; with ``ReadOptions/lenient`` it counts the bad record in ``report`` and
/// goes on instead.
public protocol FixReader {
    /// Returns the next fix, or `nil` at the end of the input.
    /// - Throws: ``ReadError`` at the first record that cannot be read (unless reading leniently).
    mutating func next() throws(ReadError) -> Fix?

    /// What the reader has seen so far: records read, skipped by reason, errors stepped over.
    var report: ReadReport { get }

    /// How many records the reader has read so far, as ``report`` counts them (``ReadReport/recordsRead``), without
    /// building the report: a caller that notes the position of every fix asks this. The default reads the report.
    var recordsRead: Int { get }
}

extension FixReader {
    /// How many records the reader has read so far, read from its ``report``.
    public var recordsRead: Int { report.recordsRead }
}

/// A reader built over a ``ByteStream``: it gets ``init(path:options:)`` (open a file, or `-` for standard
/// input) from this protocol instead of writing it again.
public protocol ByteStreamReader {
    /// Creates a reader over `stream`.
    init(stream: ByteStream, options: ReadOptions)
}

extension ByteStreamReader {
    /// Opens the file at `path` (`-` for standard input) and creates a reader over it.
    ///
    /// - Throws: ``ReadError/io(path:message:)`` when the file cannot be opened.
    public init(path: String, options: ReadOptions = ReadOptions()) throws(ReadError) {
        self.init(stream: try ByteStream(path: path), options: options)
    }
}

/// Options shared by every reader. Defaults are what a user reading an unknown file would want.
public struct ReadOptions: Sendable, Hashable {
    /// Skip malformed records (counting them and keeping the first errors in the report) instead of stopping
    /// at the first one. Default `false`: a damaged file is reported, not silently thinned.
    public var lenient: Bool = false

    /// Keep only fixes from these providers (`nil`, the default, keeps all). Multi-provider logs such as
    /// GnssLogger's hold GPS, FLP and NLP fixes of one walk; mixing them triples the distance.
    public var providers: Set<Provider>? = nil

    /// How an NMEA reader turns HDOP into a horizontal accuracy when no GST sentence gives one.
    public var hdop: HDOPInterpretation = .dilution(
        userEquivalentRangeErrorMetres: HDOPInterpretation.defaultUEREMetres)

    /// NMEA: keep sentences whose checksum does not match instead of skipping them. Default `false`: a bad
    /// checksum usually means a corrupted sentence. Some exporters write wrong checksums on every sentence of
    /// a kind (the NovAtel SPAN truth files' RMC): then nothing is dated and nothing reads without this.
    public var acceptsChecksumMismatches: Bool = false

    /// GPX: which points become fixes. Default ``GPXPointKinds/paths`` (track and route points); a file whose
    /// logger writes its positions as `<wpt>` needs ``GPXPointKinds/all`` (see ``GPXPointKinds``).
    public var gpxPointKinds: GPXPointKinds = .paths

    /// CSV: the order of the parts of a date that does not say it itself (`240501`, `05/01/2024`; see
    /// ``CSVColumn/date``). Default `nil`: such a date is read only once a value of the file decides the order
    /// (`13/05/2024` can only be day first, `990315` only YYMMDD; most six-digit dates of this century read both as YYMMDD and DDMMYY, so a logger's file needs the option), and an undecided one is an error naming the
    /// field: a silent guess put fixes years or months off.
    public var dateOrder: DateOrder? = nil

    /// CSV: which device's rows are read from a file with a device column (``CSVColumn/device``). Default
    /// ``DeviceSelection/single``: a file of one device reads as usual, one holding a second device is an error.
    public var devices: DeviceSelection = .single

    /// CSV: header names to read as other names, for a file whose columns TrueTrack does not recognise by their
    /// own (`["t_ms": "time_ms", "acc": "accuracy_m"]`): each key is a name in the file's header (matched
    /// ignoring case and surrounding spaces; a name several columns hold is refused), or `#N` for the Nth column
    /// (from 1: `["#6": "ignore"]` tells apart two columns of one name), each value a name TrueTrack reads (any of ``CSVColumn``'s, with a
    /// unit where it takes one: `time`, `time_ms`, `latitude`, `speed_kmh`, `accuracy_m`…) or `ignore` to leave
    /// the column unread (a speed in a unit no name says). A renamed column takes precedence over a column of
    /// the file already named for the same quantity, which is then not read. Default empty. A key the header
    /// does not hold, or a value that names nothing TrueTrack reads, is a
    /// ``ReadError/unreadableHeader(_:expected:found:)``: a mistyped name would otherwise read the file without
    /// the column.
    public var csvColumnNames: [String: String] = [:]

    /// Every reader of decimal longitudes (all but NMEA, which writes 0…180 with E or W): read a longitude above
    /// 180 and up to 360 degrees as east of 180 in the 0…360 convention some exporters use (tools from the
    /// ocean and weather sciences, some loggers): it becomes the value − 360
    /// (`180.0000139` is `−179.9999861`, `350` is `−10`), the −180…180 longitude every fix holds. Values from 0
    /// to 180 read as they are. Default `false`: a longitude over 180 is an error naming its file, line and field
    /// (``ReadError/invalidFix(_:_:field:)``, whose message names this option for a value up to 360), because a
    /// −180…180 file holding one is damaged, and a guess would move its fix half around the world.
    public var longitudesFrom0To360: Bool = false

    /// CSV, JSON, GeoJSON, GPX, TCX and KML: the zone of times written without a UTC offset (``LocalTimeZone``);
    /// such a time is read as a local time there and converted to UTC, in file order (``LocalTimeConversion``'s
    /// rules for the hour repeated and the hour skipped at a change of summer time). Default `nil`: such times
    /// are UTC, as GPX requires and as most exports that omit the zone mean. Times with their own zone, epoch
    /// numbers and the formats whose times are UTC by definition (NMEA, GnssLogger, IPIN, GeoLife) are never
    /// changed. A reader's ``ReadReport/localTimesConverted`` counts the times it converted.
    public var localTimeZone: LocalTimeZone? = nil

    /// Creates options with the defaults above.
    public init(
        lenient: Bool = false, providers: Set<Provider>? = nil,
        hdop: HDOPInterpretation = .dilution(userEquivalentRangeErrorMetres: HDOPInterpretation.defaultUEREMetres),
        acceptsChecksumMismatches: Bool = false, gpxPointKinds: GPXPointKinds = .paths, dateOrder: DateOrder? = nil,
        devices: DeviceSelection = .single, longitudesFrom0To360: Bool = false
    ) {
        self.lenient = lenient
        self.providers = providers
        self.hdop = hdop
        self.acceptsChecksumMismatches = acceptsChecksumMismatches
        self.gpxPointKinds = gpxPointKinds
        self.dateOrder = dateOrder
        self.devices = devices
        self.longitudesFrom0To360 = longitudesFrom0To360
    }

    /// The longitude a reader gives its fix for the `value` it read: with ``longitudesFrom0To360``, a value in
    /// 180 < λ ≤ 360 less 360; otherwise (and any other value) `value` itself, which `Fix` then checks.
    @inlinable
    public func longitude(_ value: Double) -> Double {
        longitudesFrom0To360 && value > 180 && value <= 360 ? value - 360 : value
    }
}

/// Which device's rows a reader keeps from a file holding several trackers' (see ``ReadOptions/devices``): a CSV's
/// device column, a JSON record's device member.
public enum DeviceSelection: Sendable, Hashable {
    /// The file's one device: the first row of a second device is a
    /// ``ReadError/severalDevices(_:field:devices:)`` naming the devices seen (merged, two vans read as one
    /// track with wrong distances), after which the reader returns no more fixes.
    case single
    /// Only the rows of the device with this ID (compared as text, byte for byte: a JSON number as written); the
    /// others, and rows with an empty device field (JSON records naming none), are skipped as
    /// ``SkipReason/deviceFiltered``.
    case only(String)
    /// Every row, whatever its device: a census of the file (`truetrack info` lists the devices and their
    /// fixes this way), not a track: the fixes of several devices make no track together.
    case all
}

/// The order of a date's year, month and day where the text does not say it (see ``ReadOptions/dateOrder``).
public enum DateOrder: String, Sendable, Hashable, CaseIterable {
    /// Year, month, day: `240501` (YYMMDD, GPS loggers such as Columbus).
    case yearMonthDay = "ymd"
    /// Day, month, year: `010524` (DDMMYY, as NMEA's RMC), `01/05/2024`.
    case dayMonthYear = "dmy"
    /// Month, day, year: `05/01/2024` (US spreadsheets).
    case monthDayYear = "mdy"
}

/// How to read the HDOP field of an NMEA GGA/GSA sentence as a horizontal accuracy.
public enum HDOPInterpretation: Sendable, Hashable {
    /// HDOP is a dilution of precision: accuracy (68 % radius) = HDOP × UERE.
    case dilution(userEquivalentRangeErrorMetres: Double)
    /// The exporter wrote an accuracy in the HDOP field, scaled: accuracy = HDOP × `metresPerUnit`
    /// (Google's GnssAnalysis "chipset" NMEA export writes accuracy / 10, so `metresPerUnit` = 10).
    case scaledAccuracy(metresPerUnit: Double)
    /// Ignore HDOP: fixes without GST have no accuracy.
    case ignored

    /// Default user-equivalent range error, 5 m: the 1σ pseudorange error of a consumer single-frequency
    /// receiver in open sky (typical published UERE 4–6 m), so HDOP 1 ≈ a 5 m accuracy, in line with what
    /// phones report for the same conditions.
    public static let defaultUEREMetres = 5.0

    /// The accuracy in metres for a given HDOP, or `nil` when HDOP is ignored or not positive.
    @inlinable
    public func accuracyMetres(hdop: Double) -> Double? {
        guard hdop.isFinite, hdop > 0 else { return nil }
        switch self {
        case .dilution(let uere): return hdop * uere
        case .scaledAccuracy(let scale): return hdop * scale
        case .ignored: return nil
        }
    }
}

/// Everything read from one input: the fixes, the report, and the error that stopped reading, if any.
///
/// A damaged file still yields every fix before the damage (`fixes`) together with the error.
public struct ReadResult: Sendable {
    /// The fixes read, in input order.
    public var fixes: [Fix]
    /// What the reader saw.
    public var report: ReadReport
    /// The error that stopped reading early, or `nil` when the whole input was read.
    public var error: ReadError?
}

extension FixReader {
    /// Reads to the end (or to the first error), collecting the fixes.
    ///
    /// - Complexity: O(n) time; memory for the returned fixes only.
    public mutating func readAll() -> ReadResult {
        var fixes: [Fix] = []
        do {
            while let fix = try next() { fixes.append(fix) }
            return ReadResult(fixes: fixes, report: report, error: nil)
        } catch {
            return ReadResult(fixes: fixes, report: report, error: error)
        }
    }
}
