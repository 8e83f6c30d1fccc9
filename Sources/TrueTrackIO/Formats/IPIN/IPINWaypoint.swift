import TrueTrackCore

/// A surveyed ground-truth point of an IPIN log (`POSI` row): where the walker was when they marked it.
///
/// `POSI;Timestamp(s);Counter;Latitude(degrees);Longitude(degrees);floor ID;Building ID`
///
/// The walked reference path is the polyline through consecutive waypoints (a lower bound of the distance when
/// the walker did not go straight between them).
public struct IPINWaypoint: Sendable, Hashable {
    /// When the walker marked the point, in seconds on the logging app's clock (the `AppTimestamp` of the
    /// `GNSS` rows, see ``IPINReader/lastAppTimestampSeconds``), not UTC.
    public var appTimestampSeconds: Double
    /// The waypoint's sequence number as the app wrote it (1, 2, …).
    public var counter: Int
    /// Latitude in degrees north (WGS-84), −90…90.
    public var latitude: Double
    /// Longitude in degrees east (WGS-84), −180…180.
    public var longitude: Double
    /// Floor number of the venue (0 = ground level, negative below), or `nil` when the row has none.
    public var floor: Int?
    /// Building identifier of the venue, or `nil` when the row has none.
    public var building: Int?

    /// Creates a waypoint.
    public init(
        appTimestampSeconds: Double, counter: Int, latitude: Double, longitude: Double,
        floor: Int? = nil, building: Int? = nil
    ) {
        self.appTimestampSeconds = appTimestampSeconds
        self.counter = counter
        self.latitude = latitude
        self.longitude = longitude
        self.floor = floor
        self.building = building
    }
}

/// Reads the `POSI` waypoints of an IPIN "GetSensorData" log, streaming (see ``IPINWaypoint``).
///
/// Every other line (`%` headers, `GNSS` and sensor rows) is skipped and counted. A `POSI` row needs its
/// timestamp, counter, latitude and longitude; floor and building may be empty or missing. A malformed row
/// throws ``ReadError`` naming the file, line, column and field (`app_time`, `counter`, `latitude`,
/// `longitude`, `floor`, `building`); with ``ReadOptions/lenient`` it is skipped and kept in ``report``.
public struct IPINWaypointReader: ByteStreamReader {
    /// What the reader has seen so far.
    public var report: ReadReport {
        var report = counts
        report.bytesRead = stream.bytesConsumed
        return report
    }

    private let stream: ByteStream
    private let options: ReadOptions
    private var counts: ReadReport

    /// Creates a reader over a byte stream.
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        self.options = options
        counts = ReadReport(source: stream.name)
    }

    /// Returns the next waypoint, or `nil` at the end of the input.
    /// - Throws: ``ReadError`` at the first malformed `POSI` row (unless reading leniently).
    public mutating func next() throws(ReadError) -> IPINWaypoint? {
        while let line = try stream.nextLine() {
            counts.recordsRead += 1
            let p = line.bytes
            guard line.start < line.end else { counts.skip(.blank); continue }
            if IPINFields.hasTag(p, line.start, line.end, "POSI") {
                do {
                    return try parse(line)
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

    private func parse(_ line: ByteStream.Line) throws(ReadError) -> IPINWaypoint {
        let p = line.bytes
        var fields = IPINFields(p, from: line.start, to: line.end)
        _ = fields.next()  // "POSI"
        guard let time = fields.next(), let counterField = fields.next(), let lat = fields.next(),
            let lon = fields.next()
        else {
            throw .malformedRecord(
                line.location(file: stream.name, at: line.end),
                expected: "a POSI row of 7 fields (at least 5)", found: "\(fields.count) fields")
        }
        let floorField = fields.next()
        let buildingField = fields.next()
        guard let seconds = NumberParsing.double(p, time.start, time.end), seconds.isFinite else {
            throw line.malformedField(in: stream.name, time.start, time.end, field: "app_time", expected: "seconds")
        }
        guard let counter = NumberParsing.int(p, counterField.start, counterField.end) else {
            throw line.malformedField(
                in: stream.name, counterField.start, counterField.end, field: "counter", expected: "a whole number")
        }
        guard let latitude = NumberParsing.double(p, lat.start, lat.end) else {
            throw line.malformedField(
                in: stream.name, lat.start, lat.end, field: "latitude", expected: "a number in degrees")
        }
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw .invalidFix(line.location(file: stream.name, at: lat.start), .latitudeOutOfRange(latitude))
        }
        guard let longitude = NumberParsing.double(p, lon.start, lon.end) else {
            throw line.malformedField(
                in: stream.name, lon.start, lon.end, field: "longitude", expected: "a number in degrees")
        }
        guard longitude.isFinite, abs(longitude) <= 180 else {
            throw .invalidFix(line.location(file: stream.name, at: lon.start), .longitudeOutOfRange(longitude))
        }
        return IPINWaypoint(
            appTimestampSeconds: seconds, counter: Int(truncatingIfNeeded: counter),
            latitude: latitude, longitude: longitude,
            floor: try wholeNumber(line, floorField, "floor"),
            building: try wholeNumber(line, buildingField, "building"))
    }

    private func wholeNumber(
        _ line: ByteStream.Line, _ field: (start: Int, end: Int)?,
        _ name: String
    ) throws(ReadError) -> Int? {
        guard let field, !SeparatorScan.isBlank(line.bytes, field.start, field.end) else { return nil }
        guard let value = NumberParsing.int(line.bytes, field.start, field.end) else {
            throw line.malformedField(in: stream.name, field.start, field.end, field: name, expected: "a whole number")
        }
        return Int(truncatingIfNeeded: value)
    }
}
