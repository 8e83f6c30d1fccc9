import TrueTrackCore

/// Reads the `GNSS` rows of an IPIN competition log written by the "GetSensorData" Android app (CAR-CSIC),
/// streaming.
///
/// The log holds one `;`-separated record per line, tagged by its first field (`ACCE`, `GYRO`, `MAGN`, `WIFI`,
/// `GNSS`, `POSI`, …), after `%` header lines. Only `GNSS` rows become fixes:
///
/// `GNSS;AppTimestamp(s);SensorTimeStamp(s);Latit(deg);Long(deg);Altitude(m);Bearing(deg);Accuracy(m);Speed(m/s);SatInView;SatInUse`
///
/// - The fix time is `SensorTimeStamp`: Android's `Location.getTime()`, UTC seconds since 1970 with decimals,
///   rounded to the millisecond. `AppTimestamp` is the logging app's clock (seconds since the app started,
///   shared by every sensor and by the `POSI` ground-truth rows): it is exposed, for the last fix returned, as
///   ``lastAppTimestampSeconds`` — align fixes with waypoints on it, not on the fix time.
/// - Every `GNSS` row is returned as written, in file order. The app logs each fix twice (two listeners; the
///   copies differ at most in `AppTimestamp` and `SatInUse`), and on some phones network-provider fixes with an
///   older time are interleaved, so fix times repeat and go backwards: these are facts of the recording, left
///   for later stages (or the `info` command) to report, never dropped here.
/// - `%` lines are skipped as comments, `POSI` and every other record as ``SkipReason/otherRecord`` (read
///   waypoints with ``IPINWaypointReader`` or ``waypoints(path:options:)``).
///
/// ## Zeros that mean "none"
/// The app writes `Location.getAltitude()`, `getBearing()` and `getSpeed()` unconditionally, and Android returns
/// `0.0` from each when the fix has no such value. In the IPIN 2023 logs, 770 of 2 884 rows have a bearing of
/// exactly `0.000` — 762 of them with speed 0 (standing still, where Android reports no bearing) — and every
/// network fix (accuracy 748–896 m) has altitude, bearing and speed all exactly 0. So:
/// - a bearing of exactly 0 is read as absent (a measured course of exactly 0.000° is a 1-in-360 000 event);
/// - an altitude of exactly 0 is read as absent (the app writes three decimals; a measured 0.000 m is rarer
///   still, and all such rows in the data are network fixes);
/// - a speed of 0 is kept (a walker standing still reports 0), except on a row whose altitude and bearing are
///   also exactly 0: that is a `Location` with none of the three (the network provider), so speed is absent.
///
/// The provider is not in the file: fixes carry ``Provider/unknown``.
public struct IPINReader: FixReader, ByteStreamReader {
    /// What the reader has seen so far.
    public var report: ReadReport {
        var report = counts
        report.bytesRead = stream.bytesConsumed
        return report
    }

    /// How many records the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { counts.recordsRead }
    /// `AppTimestamp` of the last fix returned by ``next()``: seconds on the logging app's clock (the clock of
    /// the `POSI` waypoints), or `nil` when the row left it empty or no fix was returned yet.
    public private(set) var lastAppTimestampSeconds: Double?
    /// `SatInView` of the last fix returned: satellites in view, or `nil` when empty.
    public private(set) var lastSatellitesInView: Int?

    private let stream: ByteStream
    private let options: ReadOptions
    private var counts: ReadReport

    /// Creates a reader over a byte stream.
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        self.options = options
        counts = ReadReport(source: stream.name)
    }

    /// Returns the next `GNSS` row as a fix, or `nil` at the end of the input.
    /// - Throws: ``ReadError`` at the first malformed `GNSS` row (unless reading leniently).
    public mutating func next() throws(ReadError) -> Fix? {
        while let line = try stream.nextLine() {
            counts.recordsRead += 1
            let p = line.bytes
            guard line.start < line.end else { counts.skip(.blank); continue }
            if IPINFields.hasTag(p, line.start, line.end, "GNSS") {
                do {
                    counts.dropUnreadableFields()
                    if let fix = try parseGNSS(line) {
                        counts.fixesProduced += 1
                        counts.keepUnreadableFields()
                        return fix
                    }
                } catch {
                    try counts.reject(error, lenient: options.lenient)
                }
            } else if p[line.start] == UInt8(ascii: "%") {
                counts.skip(.comment)
            } else if SeparatorScan.isBlank(p, line.start, line.end) {
                counts.skip(.blank)
            } else {
                counts.skip(.otherRecord)
            }
        }
        return nil
    }

    /// Reads every `POSI` waypoint of the log at `path`, in file order.
    ///
    /// Waypoints are few (one per surveyed point passed), so they are returned together; use
    /// ``IPINWaypointReader`` to stream them.
    /// - Throws: ``ReadError`` when the file cannot be read or a `POSI` row is malformed (unless lenient).
    public static func waypoints(path: String, options: ReadOptions = ReadOptions()) throws(ReadError) -> [IPINWaypoint]
    {
        var reader = try IPINWaypointReader(path: path, options: options)
        var waypoints: [IPINWaypoint] = []
        while let waypoint = try reader.next() { waypoints.append(waypoint) }
        return waypoints
    }

    /// Parses one `GNSS` row; `nil` when skipped (no position, no time, provider filtered).
    private mutating func parseGNSS(_ line: ByteStream.Line) throws(ReadError) -> Fix? {
        if let providers = options.providers, !providers.contains(.unknown) {
            counts.skip(.providerFiltered)
            return nil
        }
        let p = line.bytes
        var fields = IPINFields(p, from: line.start, to: line.end)
        _ = fields.next()  // "GNSS"
        guard let app = fields.next(), let time = fields.next(), let lat = fields.next(), let lon = fields.next(),
            let alt = fields.next(), let bearingField = fields.next(), let acc = fields.next(),
            let speedField = fields.next()
        else {
            throw .malformedRecord(
                line.location(file: stream.name, at: line.end),
                expected: "a GNSS row of 11 fields (at least 9)",
                found: "\(fields.count) fields")
        }
        let inView = fields.next()
        let inUse = fields.next()

        if SeparatorScan.isBlank(p, lat.start, lat.end) || SeparatorScan.isBlank(p, lon.start, lon.end) {
            counts.skip(.missingPosition, at: line.location(file: stream.name, at: lat.start))
            return nil
        }
        if SeparatorScan.isBlank(p, time.start, time.end) {
            counts.skip(.missingTime, at: line.location(file: stream.name, at: time.start))
            return nil
        }
        // (The app clock aligns fixes with the truth: no measurement to read as missing.)
        var appSeconds: Double? = nil
        if let value = NumberParsing.double(p, app.start, app.end) {
            appSeconds = value
        } else if !SeparatorScan.isBlank(p, app.start, app.end) {
            throw line.malformedField(in: stream.name, app.start, app.end, field: "app_time", expected: "seconds")
        }
        guard let seconds = NumberParsing.double(p, time.start, time.end),
            let timestamp = Timestamp(secondsSince1970: seconds)
        else {
            throw line.malformedField(
                in: stream.name, time.start, time.end, field: "time", expected: "UTC seconds since 1970")
        }
        guard let latitude = NumberParsing.double(p, lat.start, lat.end) else {
            throw line.malformedField(
                in: stream.name, lat.start, lat.end, field: "latitude", expected: "a number in degrees")
        }
        guard let longitude = NumberParsing.double(p, lon.start, lon.end) else {
            throw line.malformedField(
                in: stream.name, lon.start, lon.end, field: "longitude", expected: "a number in degrees")
        }
        var altitude = try measurement(line, alt, "altitude", "a number in metres")
        var bearing = try measurement(line, bearingField, "bearing", "a number in degrees")
        let accuracy = try number(line, acc, "accuracy", "a number in metres")
        var speed = try measurement(line, speedField, "speed", "a number in metres per second")
        // Android's 0.0 for "none" (see the type's documentation).
        if altitude == 0, bearing == 0, speed == 0 { speed = nil }
        if altitude == 0 { altitude = nil }
        if bearing == 0 { bearing = nil }
        let satellitesInView = try count(line, inView, "satellites_in_view")
        let satellitesUsed = try count(line, inUse, "satellites_used")
        let fix: Fix
        do {
            fix = try Fix(
                timestamp: timestamp, latitude: latitude, longitude: options.longitude(longitude),
                horizontalAccuracyMetres: accuracy, altitudeMetres: altitude,
                speedMetresPerSecond: speed, courseDegrees: bearing, provider: .unknown,
                satellitesUsed: satellitesUsed)
        } catch {
            throw .invalidFix(
                line.location(file: stream.name, at: error.field == "latitude" ? lat.start : lon.start),
                error)
        }
        lastAppTimestampSeconds = appSeconds
        lastSatellitesInView = satellitesInView
        return fix
    }

    /// An optional number: `nil` when empty; throws when not a number, unless reading leniently: then it is read as
    /// missing (``ReadReport/readAsMissing(_:lenient:)``).
    @inline(__always)
    private mutating func number(
        _ line: ByteStream.Line, _ field: (start: Int, end: Int), _ name: String,
        _ expected: String
    ) throws(ReadError) -> Double? {
        if let value = NumberParsing.double(line.bytes, field.start, field.end) { return value }
        if SeparatorScan.isBlank(line.bytes, field.start, field.end) { return nil }
        // Read leniently: read as missing, the fix kept (``ReadReport/readAsMissing(_:lenient:)``).
        try counts.readAsMissing(
            line.malformedField(in: stream.name, field.start, field.end, field: name, expected: expected),
            lenient: options.lenient)
        return nil
    }

    /// An altitude, speed or bearing: ``number(_:_:_:_:)``, and `nil` for one that is no finite number (`NaN`,
    /// `Infinity`, `1e400`), read as missing and counted in any mode
    /// (``ReadReport/finiteOrMissing(_:_:in:_:_:field:)``; it was dropped without a word).
    private mutating func measurement(
        _ line: ByteStream.Line, _ field: (start: Int, end: Int), _ name: String, _ expected: String
    ) throws(ReadError) -> Double? {
        counts.finiteOrMissing(
            try number(line, field, name, expected), line, in: stream.name, field.start, field.end, field: name)
    }

    /// An optional whole number (satellite count): `nil` when the field is missing or empty.
    private mutating func count(
        _ line: ByteStream.Line, _ field: (start: Int, end: Int)?, _ name: String
    ) throws(ReadError) -> Int? {
        guard let field, !SeparatorScan.isBlank(line.bytes, field.start, field.end) else { return nil }
        guard let value = NumberParsing.int(line.bytes, field.start, field.end) else {
            try counts.readAsMissing(
                line.malformedField(in: stream.name, field.start, field.end, field: name, expected: "a whole number"),
                lenient: options.lenient)
            return nil
        }
        return Int(truncatingIfNeeded: value)
    }
}
