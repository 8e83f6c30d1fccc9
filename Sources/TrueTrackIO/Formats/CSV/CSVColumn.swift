/// A column of a CSV file that ``CSVReader`` understands, recognised from its header name.
///
/// ## How a header name is matched
/// The name is *normalised* before it is looked up in the alias lists below:
/// 1. surrounding spaces (and a UTF-8 byte-order mark on the first name) are removed;
/// 2. text in round or square brackets is taken as a **unit** and set aside (`speed (m/s)`, `ele[m]`,
///    `(UTC)TimeInMs`); the column is recognised only when that unit is the one the column is read in
///    (listed per case); a speed is converted from its unit (`speed (km/h)` is read as km/h), and a unit a
///    column is not known in (`altitude (ft)`) leaves the column unread rather than misread;
/// 3. the rest is lower-cased (ASCII) and every `_`, `-`, `.` and space is dropped
///    (`Accuracy_M`, `accuracy m` and `accuracyM` all become `accuracym`).
///
/// Columns whose name matches nothing are ignored. Two latitude or two longitude columns are an error of the header
/// (``CSVReader``); of two columns of another field the leftmost is read, and of several time columns (a Traccar
/// export's `servertime,devicetime,fixtime`, GPSLogger's `time` and `timestamp_ms`) the one that is the fix's own
/// time, see ``timePreference(key:)``.
public enum CSVColumn: Sendable, Hashable, CaseIterable {
    /// Latitude in degrees north. Aliases: `lat`, `latitude`, `latDeg`, `LatitudeDegrees`, `latitude_deg`,
    /// `LATITUDE N/S` (Columbus loggers, whose values end in their hemisphere: `52.123456N`; any latitude value
    /// may). Units: `deg`, `degrees`, `°`.
    case latitude
    /// Longitude in degrees east. Aliases: `lon`, `lng`, `long`, `longitude`, `lngDeg`, `lonDeg`,
    /// `LongitudeDegrees`, `longitude_deg`, `LONGITUDE E/W` (values such as `13.123456E`, `0.5W`). Units: `deg`,
    /// `degrees`, `°`.
    case longitude
    /// The fix time; how its values are read is given by the associated ``CSVTimeEncoding``, chosen by the
    /// name: see ``CSVTimeEncoding`` for each alias. A fleet tracker's times (Traccar's export, named
    /// `fixtime`, `devicetime`, `servertime`, also with `_`) are read in the automatic encoding, the fix's own
    /// time first (see ``timePreference(key:)``).
    case time(CSVTimeEncoding)
    /// The fix's UTC calendar date, for files that keep the date and the time of day in two columns
    /// (`date,time,…`: GPS loggers, spreadsheet exports). Aliases: `date`, `utc_date`, `date_utc`,
    /// `gps_date`. Unit: `utc`.
    ///
    /// - Values: `2024-05-01` (also with `/` or `.` between the parts), `20240501`, `01.05.2024` (day first
    ///   with dots), and the forms that do not say their order: six digits (`240501`: YYMMDD as GPS loggers
    ///   such as Columbus write it, or DDMMYY as NMEA's RMC) and a day and month with the year last and `/` or
    ///   `-` (`05/01/2024`). Those are read in ``ReadOptions/dateOrder``, else in the order the file's first
    ///   value that allows only one shows (`13/05/2024`, `990315`); a value before that is an error naming the
    ///   field. A two-digit year is 1980–2079 (as NMEA's).
    /// - With a time column whose first value is a time of day (`12:00:00`, `120000`), the two make the
    ///   fix's time (see ``CSVTimeEncoding/timeOfDay``); when the time column holds whole times, the date
    ///   column is ignored.
    /// - A file with a date column and no time column reads the date column as its time column, as ISO 8601 or
    ///   a date and a time of day in one field (`01.05.2024 12:00:00`): many exports write the whole date and
    ///   time under `date`.
    case date
    /// The hemisphere of a latitude written without its sign: `N` or `S` (any case; a word starting with
    /// either). Aliases: `N/S`, `NS indicator`, `lat_ref`, `latitude_ref`, `lat_hemisphere`,
    /// `latitude_hemisphere` (Qstarz and other loggers' exports; not a bare `NS`, which may be anything). The
    /// hemisphere decides the sign: `S` makes the latitude negative, `N` positive, whatever its own sign.
    case latitudeHemisphere
    /// The hemisphere of a longitude written without its sign: `E` or `W`. Aliases: `E/W`, `EW indicator`,
    /// `lon_ref`, `longitude_ref`, `lon_hemisphere`, `longitude_hemisphere`. `W` makes the longitude negative,
    /// `E` positive.
    case longitudeHemisphere
    /// Horizontal accuracy in metres (68 %). Aliases: `accuracy`, `accuracy_m`, `horizontalAccuracy`,
    /// `horizontal_accuracy_m`, `AccuracyMeters`, `hAcc`. Unit: `m`.
    case horizontalAccuracy
    /// Altitude in metres. Aliases: `altitude`, `alt`, `ele`, `elevation`, `height`, each also with the metres in its
    /// name (`altitude_m`, `alt_m`, `elevation_m`, `AltitudeMeters`, `height_metres`…), `altitude_msl`, `alt_msl`,
    /// `elevation_msl`, `heightAboveWgs84EllipsoidM`. Unit: `m`.
    case altitude
    /// Vertical accuracy in metres (68 %). Aliases: `verticalAccuracy`, `vertical_accuracy_m`,
    /// `VerticalAccuracyMeters`, `vAcc`, `altitudeAccuracy`. Unit: `m`.
    case verticalAccuracy
    /// Speed over ground, read in metres per second. Aliases: `speed`, `speed_mps`, `SpeedMps`, `speedMps`,
    /// `speed_m_s`; in another unit, converted: `speed_kmh` (`_kph`, `_kmph`), `speed_knots` (`_kn`, `_kt`),
    /// `speed_mph`, and a column named by its unit alone: `kmh`, `kph`, `kmph`, `km/h`, `mph`, `knots`. Units: `m/s`,
    /// `mps`; `km/h`, `kmh`, `kph`; `kn`, `kt`, `knots`; `mph`. A bare `SPEED` beside
    /// a GPS logger export's own columns is km/h: an `RCR` column (BT747, Qstarz, Holux: the MTK loggers'
    /// exports), or `INDEX`, `TAG` and `LATITUDE N/S` (Columbus); their manuals give km/h, and read as m/s a walk
    /// was a drive. A bare `speed` of a Traccar export (a `deviceid` column beside `fixtime`, `devicetime`,
    /// `servertime` or `protocol`: its positions table, as a database dump or its API writes it) is knots,
    /// Traccar's unit.
    case speed
    /// Speed accuracy in metres per second. Aliases: `speedAccuracy`, `speed_accuracy_mps`,
    /// `SpeedAccuracyMps`, `sAcc`. Units: `m/s`, `mps`.
    case speedAccuracy
    /// Course over ground in degrees clockwise from true north. Aliases: `course`, `course_deg`,
    /// `courseDegree`, `courseDegrees`, `bearing`, `bearing_deg`, `BearingDegrees`. Units: `deg`,
    /// `degrees`, `°`.
    case course
    /// Course accuracy in degrees. Aliases: `courseAccuracy`, `course_accuracy_deg`, `bearingAccuracy`,
    /// `BearingAccuracyDegrees`. Units: `deg`, `degrees`, `°`.
    case courseAccuracy
    /// Horizontal dilution of precision, a number without a unit. Alias: `hdop`. A fix without a horizontal
    /// accuracy (no ``horizontalAccuracy`` column, or an empty one in its row) takes its accuracy from it through
    /// ``ReadOptions/hdop`` (by default HDOP × 5 m, as in GPX and NMEA): GPS loggers' exports (Qstarz, BT747,
    /// Columbus, GPSLogger) carry an HDOP and no accuracy, and read without it every fix had the assumed 30 m. A
    /// value that is not a number (`-`, `N/A`) is no HDOP, without an error. A large HDOP gives a large accuracy,
    /// which the accuracy gate refuses: a reference receiver's file (the GSDC SPAN truth CSV, whose `hDop` reaches
    /// 655 where the INS carries the solution) reads best with `--column hDop=ignore`.
    case hdop
    /// The location provider, read with `Provider(name:)` (`gps`, `FLP`, `NLP`, `GT`, a ``Provider``
    /// raw value…). Alias: `provider`.
    case provider
    /// Satellites (or signals) used, an integer. Aliases: `satellites`, `satellitesUsed`, `sats`,
    /// `numSats`, `NumberOfUsedSignals`.
    case satellites
    /// Mocked-location flag: `true`/`false`, `1`/`0`, `yes`/`no` (any case). Aliases: `mocked`, `mock`,
    /// `isMocked`, `MockLocation`.
    case mocked
    /// Motion activity: an ``ActivityKind`` raw value or a platform label (see ``CSVReader``).
    /// Alias: `activity`.
    case activity
    /// Activity confidence, an integer 0–100. Aliases: `activity_confidence`, `activityConfidence`.
    case activityConfidence
    /// Whether the row is a fix: `true`/`false`, `1`/`0`, `yes`/`no`, `t`/`f` (any case). A row whose value is
    /// false is skipped as ``SkipReason/noFix`` (a tracker that repeats its last position without a new fix);
    /// an empty value is a fix. Read from the `valid` column of a Traccar export only (see ``CSVReader``):
    /// other files' `VALID` may hold anything (Qstarz writes the fix type there: `SPS`, `DGPS`, `Estimated`), so
    /// ``init(headerName:)`` does not recognise the name alone.
    case fixValidity
    /// The device (tracker) a row comes from, as text compared byte for byte (spaces around it trimmed): a
    /// fleet export holds several. Aliases: `deviceid`, `device_id`, `device`, `imei`, `uniqueid`, `unique_id`.
    /// A file of more than one device is read one device at a time (see ``ReadOptions/devices``).
    case device
    /// The record type of GnssLogger-style files (GSDC 2022 `MessageType`): rows whose value is not
    /// `Fix` are skipped as ``SkipReason/otherRecord``. Aliases: `MessageType`, `message_type`.
    case messageType
    /// The segment (a GPX `<trkseg>`: a pause, a lost signal) a row belongs to, an integer label: a change of
    /// value between two fixes is a segment break (``CSVReader/lastSegmentIndex``). Aliases: `segment`,
    /// `segment_index`, `track_segment`, `trkseg`, and GDAL's `track_seg_id` (`ogr2ogr` of a GPX's track
    /// points). ``CSVWriter`` writes it when asked to keep segments (`truetrack convert` of a GPX).
    case segment

    /// Every field once, with the time column in its automatic encoding.
    public static var allCases: [CSVColumn] {
        [
            .latitude, .longitude, .time(.automatic), .date, .latitudeHemisphere, .longitudeHemisphere,
            .horizontalAccuracy, .altitude, .verticalAccuracy, .speed,
            .speedAccuracy, .course, .courseAccuracy, .hdop, .provider, .satellites, .mocked, .activity,
            .activityConfidence, .messageType, .fixValidity, .device, .segment,
        ]
    }

    /// Recognises a header name (see the type's documentation for the matching rules); `nil` when the
    /// column is not one the reader uses.
    public init?(headerName: String) {
        guard let (key, unit) = CSVColumn.normalise(headerName) else { return nil }
        self.init(key: key, unit: unit)
    }

    /// The column a header name normalised to `key` and `unit` (``normalise(_:)``) stands for.
    init?(key: String, unit: String?) {
        guard let column = CSVColumn.aliases[key], column.accepts(unit: unit) else { return nil }
        self = column
    }

    /// True when a bracketed unit (normalised: lower-cased, spaces removed; `nil` when none) fits the column.
    func accepts(unit: String?) -> Bool {
        guard let unit else { return true }
        switch self {
        case .latitude, .longitude, .course, .courseAccuracy:
            return ["deg", "degree", "degrees", "°"].contains(unit)
        case .horizontalAccuracy, .altitude, .verticalAccuracy:
            return ["m", "metres", "meters"].contains(unit)
        case .speed:
            return CSVColumn.metresPerSecond(perSpeedUnit: unit) != nil
        case .speedAccuracy:
            return ["m/s", "mps", "ms-1", "m·s-1"].contains(unit)
        case .time(let encoding):
            switch encoding {
            case .automatic, .iso8601: return ["utc", "iso8601", "iso"].contains(unit)
            case .unixSeconds: return ["s", "sec", "seconds", "utc"].contains(unit)
            case .unixMilliseconds, .gpsMilliseconds: return ["ms", "utc", "milliseconds"].contains(unit)
            case .unixMicroseconds: return ["us", "µs", "utc", "microseconds"].contains(unit)
            case .unixNanoseconds: return ["ns", "utc", "nanoseconds"].contains(unit)
            case .timeOfDay, .excelDays: return unit == "utc"
            }
        case .date: return unit == "utc"
        case .latitudeHemisphere, .longitudeHemisphere: return false
        case .activityConfidence: return ["%", "percent"].contains(unit)
        case .hdop, .provider, .satellites, .mocked, .activity, .messageType, .fixValidity, .device, .segment:
            return false
        }
    }

    /// The canonical header name this project writes for the field (`timestamp`, `latitude`, `accuracy_m`…);
    /// `nil` for ``date``, the hemispheres, ``hdop``, ``messageType``, ``fixValidity`` and ``device``, which
    /// ``CSVWriter`` does not write (it writes whole times, signed coordinates, the accuracy and the fixes of one
    /// device).
    public var canonicalName: String? {
        switch self {
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .time: "timestamp"
        case .date, .latitudeHemisphere, .longitudeHemisphere: nil
        case .horizontalAccuracy: "accuracy_m"
        case .altitude: "altitude_m"
        case .verticalAccuracy: "vertical_accuracy_m"
        case .speed: "speed_mps"
        case .speedAccuracy: "speed_accuracy_mps"
        case .course: "course_deg"
        case .courseAccuracy: "course_accuracy_deg"
        case .provider: "provider"
        case .satellites: "satellites"
        case .mocked: "mocked"
        case .activity: "activity"
        case .activityConfidence: "activity_confidence"
        case .segment: "segment"
        case .hdop, .messageType, .fixValidity, .device: nil
        }
    }

    /// Splits a header name into its lookup key and its bracketed unit (see the type's documentation).
    /// Returns `nil` for a name that is empty once normalised.
    /// Metres per second in one speed unit as a header writes it (lower-cased, spaces dropped): m/s (`m/s`,
    /// `mps`, `ms-1`), km/h (`km/h`, `kmh`, `kph`, `kmph`, `km/hr`), knots (`kn`, `kt`, `kts`, `knot`, `knots`)
    /// and mph; `nil` for any other unit.
    static func metresPerSecond(perSpeedUnit unit: String) -> Double? {
        switch unit {
        case "m/s", "mps", "ms-1", "m·s-1": 1
        case "km/h", "kmh", "kph", "kmph", "km/hr": SpeedUnit.metresPerSecondPerKilometrePerHour
        case "kn", "kt", "kts", "knot", "knots": SpeedUnit.metresPerSecondPerKnot
        case "mph", "mi/h": SpeedUnit.metresPerSecondPerMilePerHour
        default: nil
        }
    }

    /// Metres per second in one unit of a speed column normalised to `key` with a bracketed `unit`: the unit,
    /// else the one the name is (`kmh`) or ends in (`speed_kmh`), else 1 (metres per second; ``CSVReader`` reads a
    /// bare `SPEED` of GPS loggers' exports as km/h).
    static func speedMetresPerSecond(key: String, unit: String?) -> Double {
        if let unit, let factor = metresPerSecond(perSpeedUnit: unit) { return factor }
        if let factor = metresPerSecond(perSpeedUnit: key) { return factor }
        if key.hasPrefix("speed"), let factor = metresPerSecond(perSpeedUnit: String(key.dropFirst(5))) {
            return factor
        }
        return 1
    }

    static func normalise(_ name: String) -> (key: String, unit: String?)? {
        var key = ""
        var unit: String? = nil
        var bracketDepth = 0
        var unitText = ""
        for scalar in name.unicodeScalars {
            if scalar == "\u{FEFF}" { continue }
            switch scalar {
            case "(", "[":
                bracketDepth += 1
                if bracketDepth == 1 { unitText = "" }
            case ")", "]":
                if bracketDepth > 0 {
                    bracketDepth -= 1
                    if bracketDepth == 0 {
                        let trimmed = unitText.lowercased().filter { $0 != " " }
                        // Two bracketed parts (e.g. "(UTC)TimeInMs[ms]"): keep the one that is not "utc".
                        if unit == nil || unit == "utc" { unit = trimmed }
                    }
                }
            default:
                if bracketDepth > 0 {
                    unitText.unicodeScalars.append(scalar)
                } else if scalar != "_" && scalar != "-" && scalar != "." && scalar != " " && scalar != "\t" {
                    if scalar.isASCII, (65...90).contains(scalar.value) {
                        key.unicodeScalars.append(Unicode.Scalar(scalar.value + 32)!)
                    } else {
                        key.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        guard !key.isEmpty else { return nil }
        return (key, unit)
    }

    /// Normalised alias → column.
    static let aliases: [String: CSVColumn] = {
        var table: [String: CSVColumn] = [:]
        func add(_ column: CSVColumn, _ names: [String]) {
            for name in names { table[name] = column }
        }
        // (`LATITUDE N/S`, `LONGITUDE E/W`: Columbus loggers write the hemisphere after the number, `52.1N`.)
        add(.latitude, ["lat", "latitude", "latdeg", "latitudedeg", "latitudedegrees", "latituden/s"])
        add(
            .longitude,
            [
                "lon", "lng", "long", "longitude", "lngdeg", "londeg", "longitudedeg",
                "longitudedegrees", "longitudee/w",
            ])
        add(.time(.automatic), ["time", "timestamp", "datetime", "utctime", "timeutc"])
        // A fleet tracker's (Traccar's) three times: see `timePreference(key:)`.
        add(.time(.automatic), ["fixtime", "devicetime", "servertime"])
        add(.date, ["date", "utcdate", "dateutc", "gpsdate"])
        add(
            .latitudeHemisphere,
            ["n/s", "latref", "latituderef", "lathemisphere", "latitudehemisphere", "nsindicator"])
        add(
            .longitudeHemisphere,
            ["e/w", "lonref", "longituderef", "lonhemisphere", "longitudehemisphere", "ewindicator"])
        add(.time(.iso8601), ["isotime", "iso8601", "timeiso", "timeiso8601"])
        add(
            .time(.unixSeconds),
            [
                "seconds", "unixtime", "unixseconds", "unixtimeseconds", "epoch",
                "epochseconds", "epochs", "times", "timesec", "timeseconds",
                "timestamps", "timestampsec",
            ])
        add(
            .time(.unixMilliseconds),
            [
                "unixtimemillis", "unixtimems", "unixms", "unixmillis", "timems",
                "timemillis", "timeinms", "timestampms", "timestampmillis", "epochms",
                "epochmillis", "utctimemillis", "utctimems", "millis",
            ])
        add(.time(.unixMicroseconds), ["unixtimemicros", "timeus", "timestampus", "epochus"])
        add(.time(.unixNanoseconds), ["unixtimenanos", "timens", "timestampns", "epochns", "utctimenanos"])
        add(
            .time(.gpsMilliseconds),
            [
                "millissincegpsepoch", "gpsmillis", "gpstimemillis", "gpstimems",
                "gpsms",
            ])
        add(
            .horizontalAccuracy,
            [
                "accuracy", "accuracym", "horizontalaccuracy", "horizontalaccuracym",
                "accuracymeters", "accuracymetres", "horizontalaccuracymeters",
                "hacc", "haccuracy",
            ])
        // (Every name also with its metres, as `altitude_m`: a formats tester's `elevation_m` and `alt_m` were left
        // unread without a word, and so was `altitude_msl`, the altitude above mean sea level NMEA's GGA gives.)
        add(.altitude, ["heightabovewgs84ellipsoidm", "altitudemsl", "altmsl", "elevationmsl"])
        for name in ["altitude", "alt", "ele", "elevation", "height"] {
            add(.altitude, [name] + (name == "ele" ? [] : ["m", "meters", "metres"].map { name + $0 }))
        }
        add(
            .verticalAccuracy,
            [
                "verticalaccuracy", "verticalaccuracym", "verticalaccuracymeters",
                "vacc", "altitudeaccuracy", "altitudeaccuracym",
            ])
        // (`velocity`: phyphox's `Velocity (m/s)`.)
        add(.speed, ["speed", "speedmps", "speedms", "speedmetrespersecond", "speedmeterspersecond", "velocity"])
        // A unit in the name (read in it, see ``speedMetresPerSecond(key:unit:)``).
        // (Also with the unit's own slash: `Speed km/h`, `speed_km/h`, a tester's exports, were not read.)
        add(
            .speed,
            [
                "speedkmh", "speedkph", "speedkmph", "speedknots", "speedkn", "speedkt", "speedmph", "speedkm/h",
                "speedkm/hr", "speedm/s", "speedmi/h",
            ])
        // A column named by its unit alone, of units that measure nothing but a speed (a formats tester's `kmh`).
        add(.speed, ["kmh", "kph", "kmph", "km/h", "km/hr", "mph", "mi/h", "knots"])
        add(.speedAccuracy, ["speedaccuracy", "speedaccuracymps", "speedaccuracyms", "sacc"])
        add(
            .course,
            [
                "course", "coursedeg", "coursedegree", "coursedegrees", "bearing", "bearingdeg",
                "bearingdegrees", "cog", "direction",  // (phyphox's `Direction (°)`)
            ])
        add(
            .courseAccuracy,
            [
                "courseaccuracy", "courseaccuracydeg", "courseaccuracydegrees", "bearingaccuracy",
                "bearingaccuracydeg", "bearingaccuracydegrees",
            ])
        add(.hdop, ["hdop"])
        add(.provider, ["provider"])
        add(
            .satellites,
            [
                "satellites", "satellitesused", "sats", "numsats", "numberofusedsignals",
                "numsatellites",
            ])
        add(.mocked, ["mocked", "mock", "ismocked", "mocklocation", "ismock"])
        add(.activity, ["activity"])
        add(.activityConfidence, ["activityconfidence"])
        add(.messageType, ["messagetype"])
        add(.device, ["deviceid", "device", "imei", "uniqueid"])
        add(.segment, ["segment", "segmentindex", "tracksegment", "trkseg", "tracksegid"])
        return table
    }()

    /// Which of several time columns is read (the lowest value; on a tie the leftmost), for a header name
    /// normalised to `key`: 0 for the fix's own time (`time`, `timestamp`, `fixtime`… every time alias but
    /// two), 1 for `devicetime` (when the tracker sent the record: the fix's time, or later for a position it
    /// repeats or sends from its memory), 2 for `servertime` (when the server received it: minutes or hours
    /// late for a tracker that buffers while out of coverage). A GNSS fix's time is the measurement; the other
    /// two are a record's travel.
    public static func timePreference(key: String) -> Int {
        switch key {
        case "devicetime": 1
        case "servertime": 2
        default: 0
        }
    }

    /// The field as a key ignoring the time encoding (for "first column wins" de-duplication).
    var fieldKey: Int {
        switch self {
        case .latitude: 0
        case .longitude: 1
        case .time: 2
        case .horizontalAccuracy: 3
        case .altitude: 4
        case .verticalAccuracy: 5
        case .speed: 6
        case .speedAccuracy: 7
        case .course: 8
        case .courseAccuracy: 9
        case .provider: 10
        case .satellites: 11
        case .mocked: 12
        case .activity: 13
        case .activityConfidence: 14
        case .messageType: 15
        case .date: 16
        case .latitudeHemisphere: 17
        case .longitudeHemisphere: 18
        case .fixValidity: 19
        case .device: 20
        case .segment: 21
        case .hdop: 22
        }
    }
}

/// How the values of a CSV time column are read, chosen by the column's name.
public enum CSVTimeEncoding: Sendable, Hashable {
    /// Decided from the first non-empty value, then kept for the whole file: text with a `-` after the first
    /// character or a `:` is ISO 8601; a number is Unix time in a unit chosen by its magnitude: below 10¹¹
    /// seconds (10¹¹ s is the year 5138), below 10¹⁴ milliseconds, below 10¹⁷ microseconds, else
    /// nanoseconds. In a file with a ``CSVColumn/date`` column, a first value that is a time of day makes it
    /// ``timeOfDay``. Except for a lone placeholder: a first number that reads as a date before 1980 in seconds
    /// (`0`) is followed by one in a finer unit that reads as a date from 1980 on (`1714564801000`), the second
    /// decides (the first keeps its reading, 1970, which `process` leaves out of the summary's times). An error for
    /// a later value names the line whose value decided. Names: `time`, `timestamp`, `datetime`, `date_time`, `utc_time`, `time_utc`.
    case automatic
    /// ISO 8601 / RFC 3339 text (`2024-05-01T12:00:00.250Z`, also with a space separator and a `±hh:mm`
    /// offset as Sensor Logger writes: `2023-08-09 12:37:45-04:00`; no zone means UTC).
    /// Names: `iso_time`, `iso8601`, `time_iso`.
    case iso8601
    /// Unix seconds, possibly fractional (rounded to the millisecond). Names: `seconds`, `unix_time`,
    /// `unix_seconds`, `epoch`, `epoch_s`, `time_s`, `time_sec`, `time_seconds`, `timestamp_s`.
    case unixSeconds
    /// Unix milliseconds. Names: `UnixTimeMillis`, `unix_time_ms`, `time_ms`, `time_millis`,
    /// `(UTC)TimeInMs`, `timestamp_ms`, `epoch_ms`, `millis`.
    case unixMilliseconds
    /// Unix microseconds (rounded to the millisecond). Names: `time_us`, `timestamp_us`, `epoch_us`.
    case unixMicroseconds
    /// Unix nanoseconds (rounded to the millisecond). Names: `time_ns`, `timestamp_ns`, `epoch_ns`,
    /// `UnixTimeNanos`.
    case unixNanoseconds
    /// GPS time: milliseconds since 1980-01-06T00:00:00Z *including* leap seconds (GSDC 2021's
    /// `millisSinceGpsEpoch`), converted to UTC with ``Timestamp/init(gpsMilliseconds:)`` (18 s
    /// behind GPS time from 2017 on). Names: `millisSinceGpsEpoch`, `gps_millis`, `gps_time_ms`.
    case gpsMilliseconds
    /// A time of day, `hh:mm:ss` (also `h:mm:ss`, `hh:mm`, `hhmmss`), with an optional fraction of a second
    /// (rounded to the millisecond) and an optional trailing `Z`, on the date of the row's ``CSVColumn/date``
    /// column, in UTC. Never chosen by a name: an ``automatic`` time column of a file with a date column
    /// becomes this when its first value is a time of day (with a `:` and no date part, or six digits or fewer
    /// before an optional fraction). A row whose date is empty is skipped as ``SkipReason/missingTime``.
    case timeOfDay
    /// A spreadsheet's serial date and time: days since 1899-12-30 (Excel's and LibreOffice's 1900 date system),
    /// the fraction the time of day (`45996.58549768` is 2025-12-05T14:03:07Z), rounded to the millisecond, in UTC
    /// (a local time with ``ReadOptions/localTimeZone``: a spreadsheet's cells hold no zone).
    /// Never chosen by a name: an ``automatic`` column becomes this when its first value is a number from 25,569
    /// (1970-01-01) to below 73,051 (2100-01-01), which as Unix seconds would be a time on 1 January 1970, long
    /// before GPS; a date-time cell saved as a number reads so (a tester's export was read as 1970 and refused as
    /// out of order).
    case excelDays

    /// How many of its units a second holds, for a Unix time (1, 1000, 10⁶, 10⁹: exact, and so are
    /// `1000 / unitsPerSecond`, the milliseconds per unit, and `unitsPerSecond / 1000`, the units per
    /// millisecond); `nil` for the other encodings.
    var unitsPerSecond: Double? {
        switch self {
        case .unixSeconds: 1
        case .unixMilliseconds: 1000
        case .unixMicroseconds: 1_000_000
        case .unixNanoseconds: 1_000_000_000
        case .automatic, .iso8601, .gpsMilliseconds, .timeOfDay, .excelDays: nil
        }
    }

    /// What a value of this encoding looks like, for error messages.
    var expectation: String {
        switch self {
        case .automatic: "an ISO 8601 time or a Unix time"
        case .iso8601: "an ISO 8601 time such as 2024-05-01T12:00:00Z"
        case .unixSeconds: "Unix seconds"
        case .unixMilliseconds: "Unix milliseconds"
        case .unixMicroseconds: "Unix microseconds"
        case .unixNanoseconds: "Unix nanoseconds"
        case .gpsMilliseconds: "GPS milliseconds since 1980-01-06"
        case .timeOfDay: "a time of day such as 12:00:00, 120000 or 10:00:00 PM (hours 1-12 on a 12-hour clock)"
        case .excelDays: "a spreadsheet's serial date and time (days since 1899-12-30, such as 45996.5854977)"
        }
    }
}
