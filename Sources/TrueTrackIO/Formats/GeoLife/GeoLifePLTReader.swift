import TrueTrackCore

/// Reads a GeoLife trajectory (`.plt`, Microsoft Research Asia GeoLife 1.3), streaming.
///
/// A PLT file has 6 header lines (`Geolife trajectory`, `WGS 84`, `Altitude is in Feet`, `Reserved 3`, a
/// track-style line and `0`), skipped and counted as header lines unless one reads as a point (a file cut without
/// its header), then one point per line:
///
/// `latitude,longitude,0,altitude_feet,days_since_1899-12-30,yyyy-MM-dd,HH:mm:ss`
///
/// - Latitude and longitude in degrees (WGS-84); the third field is always 0 and ignored.
/// - Altitude in **feet**, converted to metres (× 0.3048); −777 is GeoLife's "invalid altitude" and becomes
///   absent, as does an empty field.
/// - The time is the date and time columns, in GMT (UTC), whole seconds. When both are empty the
///   days-since-1899-12-30 column (a spreadsheet serial date, also GMT) is used instead, rounded to the
///   millisecond.
/// - GeoLife records no accuracy, speed, course or provider: fixes have ``HorizontalAccuracy/absent`` and
///   ``Provider/unknown`` (the data come from several GPS loggers and GPS phones, not stated per file).
///
/// A malformed point throws ``ReadError`` naming the file, line, column and field (`latitude`, `longitude`,
/// `altitude`, `days`, `date`, `time`); with ``ReadOptions/lenient`` it is skipped and kept in ``report``.
public struct GeoLifePLTReader: FixReader, ByteStreamReader {
    /// What the reader has seen so far.
    public var report: ReadReport {
        var report = counts
        report.bytesRead = stream.bytesConsumed
        return report
    }

    /// How many records the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { counts.recordsRead }

    /// Number of header lines before the first point, fixed by the format.
    public static let headerLineCount = 6
    /// The altitude GeoLife writes when it has none, in feet.
    public static let invalidAltitudeFeet = -777.0
    /// Metres per international foot (exact by definition).
    public static let metresPerFoot = 0.3048

    private let stream: ByteStream
    private let options: ReadOptions
    private var counts: ReadReport

    /// Creates a reader over a byte stream.
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        self.options = options
        counts = ReadReport(source: stream.name)
    }

    /// Returns the next point as a fix, or `nil` at the end of the input.
    /// - Throws: ``ReadError`` at the first malformed point (unless reading leniently).
    public mutating func next() throws(ReadError) -> Fix? {
        while let line = try stream.nextLine() {
            counts.recordsRead += 1
            if line.number <= GeoLifePLTReader.headerLineCount {
                // A line of the header's place that reads as a point is one: a file cut without its header, or
                // with a short one, lost up to six points as "header" lines (a CLI tester's: 1,001 of 1,004, and
                // 998 without the header). No header line of the format reads as a point.
                counts.dropUnreadableFields()
                if options.providers?.contains(.unknown) ?? true, let fix = try? parse(line) {
                    counts.fixesProduced += 1
                    counts.keepUnreadableFields()
                    return fix
                }
                counts.skip(.header)
                continue
            }
            if SeparatorScan.isBlank(line.bytes, line.start, line.end) {
                counts.skip(.blank)
                continue
            }
            do {
                counts.dropUnreadableFields()
                if let fix = try parse(line) {
                    counts.fixesProduced += 1
                    counts.keepUnreadableFields()
                    return fix
                }
            } catch {
                try counts.reject(error, lenient: options.lenient)
            }
        }
        return nil
    }

    private mutating func parse(_ line: ByteStream.Line) throws(ReadError) -> Fix? {
        if let providers = options.providers, !providers.contains(.unknown) {
            counts.skip(.providerFiltered)
            return nil
        }
        let p = line.bytes
        // Field ranges: latitude, longitude, zero, altitude, days, date, time.
        // A missing field is an empty range at the end of the line (so an error about it points there).
        let e = line.end
        var starts = (e, e, e, e, e, e, e)
        var ends = (e, e, e, e, e, e, e)
        var count = 0
        var s = line.start
        while count < 7 {
            let j = SeparatorScan.next(UInt8(ascii: ","), in: p, from: s, to: line.end)
            switch count {
            case 0: starts.0 = s; ends.0 = j
            case 1: starts.1 = s; ends.1 = j
            case 2: starts.2 = s; ends.2 = j
            case 3: starts.3 = s; ends.3 = j
            case 4: starts.4 = s; ends.4 = j
            case 5: starts.5 = s; ends.5 = j
            default: starts.6 = s; ends.6 = j
            }
            count += 1
            if j >= line.end { break }
            s = j + 1
        }
        guard count >= 5 else {
            throw .malformedRecord(
                line.location(file: stream.name, at: line.end),
                expected: "a point of 7 fields (latitude,longitude,0,altitude,days,date,time)",
                found: "\(count) fields")
        }
        if SeparatorScan.isBlank(p, starts.0, ends.0) || SeparatorScan.isBlank(p, starts.1, ends.1) {
            counts.skip(.missingPosition, at: line.location(file: stream.name, at: starts.0))
            return nil
        }
        guard let latitude = NumberParsing.double(p, starts.0, ends.0) else {
            throw line.malformedField(
                in: stream.name, starts.0, ends.0, field: "latitude", expected: "a number in degrees")
        }
        guard let longitude = NumberParsing.double(p, starts.1, ends.1) else {
            throw line.malformedField(
                in: stream.name, starts.1, ends.1, field: "longitude", expected: "a number in degrees")
        }
        var altitude: Double? = nil
        if !SeparatorScan.isBlank(p, starts.3, ends.3) {
            if let number = NumberParsing.double(p, starts.3, ends.3) {
                // (No finite number, `NaN`, `1e400`: read as missing and counted in any mode; it was dropped without a
                // word.)
                if let feet = counts.finiteOrMissing(
                    number, line, in: stream.name, starts.3, ends.3, field: "altitude"),
                    feet != GeoLifePLTReader.invalidAltitudeFeet
                {
                    altitude = feet * GeoLifePLTReader.metresPerFoot
                }
            } else {
                // Read leniently: read as missing, the point kept (``ReadReport/readAsMissing(_:lenient:)``).
                try counts.readAsMissing(
                    line.malformedField(
                        in: stream.name, starts.3, ends.3, field: "altitude", expected: "a number in feet"),
                    lenient: options.lenient)
            }
        }
        let hasDate = count >= 6 && !SeparatorScan.isBlank(p, starts.5, ends.5)
        let hasTime = count >= 7 && !SeparatorScan.isBlank(p, starts.6, ends.6)
        let timestamp: Timestamp
        if hasDate || hasTime {
            guard hasDate, let day = GeoLifeText.date(p, starts.5, ends.5, separator: UInt8(ascii: "-")) else {
                throw line.malformedField(
                    in: stream.name, starts.5, ends.5, field: "date", expected: "a date yyyy-MM-dd")
            }
            guard hasTime, let seconds = GeoLifeText.timeOfDay(p, starts.6, ends.6) else {
                throw line.malformedField(
                    in: stream.name, starts.6, ends.6, field: "time", expected: "a time of day HH:mm:ss")
            }
            timestamp = Timestamp(millisecondsSince1970: day.millisecondsSince1970 + Int64(seconds) * 1000)
        } else {
            guard !SeparatorScan.isBlank(p, starts.4, ends.4) else {
                counts.skip(.missingTime, at: line.location(file: stream.name, at: starts.4))
                return nil
            }
            guard let days = NumberParsing.double(p, starts.4, ends.4),
                let stamp = Timestamp(secondsSince1970: (days - GeoLifeText.unixEpochSerialDay) * 86_400)
            else {
                throw line.malformedField(
                    in: stream.name, starts.4, ends.4, field: "days", expected: "days since 1899-12-30")
            }
            timestamp = stamp
        }
        do {
            return try Fix(
                timestamp: timestamp, latitude: latitude, longitude: options.longitude(longitude),
                altitudeMetres: altitude)
        } catch {
            let at = error.field == "latitude" ? starts.0 : starts.1
            throw .invalidFix(line.location(file: stream.name, at: at), error)
        }
    }
}

/// Byte-level parsing of GeoLife's dates and times.
enum GeoLifeText {
    /// 1970-01-01 as a spreadsheet serial day (days since 1899-12-30).
    static let unixEpochSerialDay = 25_569.0

    /// Parses `yyyy<sep>MM<sep>dd` (surrounding spaces ignored) as midnight UTC of that day.
    static func date(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, separator: UInt8) -> Timestamp? {
        var s = start
        var e = end
        while s < e, p[s] == 0x20 || p[s] == 0x09 { s += 1 }
        while e > s, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        guard e - s == 10, p[s + 4] == separator, p[s + 7] == separator,
            let year = digits(p, s, 4), let month = digits(p, s + 5, 2), let day = digits(p, s + 8, 2)
        else {
            return nil
        }
        return Timestamp(civil: CivilTime(year: year, month: month, day: day))
    }

    /// Parses `HH:mm:ss` (surrounding spaces ignored) as seconds since midnight (0…86 399).
    static func timeOfDay(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        var s = start
        var e = end
        while s < e, p[s] == 0x20 || p[s] == 0x09 { s += 1 }
        while e > s, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        guard e - s == 8, p[s + 2] == UInt8(ascii: ":"), p[s + 5] == UInt8(ascii: ":"),
            let hour = digits(p, s, 2), let minute = digits(p, s + 3, 2), let second = digits(p, s + 6, 2),
            hour < 24, minute < 60, second < 60
        else {
            return nil
        }
        return hour * 3600 + minute * 60 + second
    }

    /// The decimal value of the `count` digits at `p[s...]`, or `nil` when one is not a digit.
    private static func digits(_ p: UnsafeRawBufferPointer, _ s: Int, _ count: Int) -> Int? {
        var value = 0
        for k in s..<(s + count) {
            let d = Int(p[k]) - 48
            guard d >= 0, d <= 9 else { return nil }
            value = value * 10 + d
        }
        return value
    }
}
