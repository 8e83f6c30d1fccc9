import TrueTrackCore

/// A span of time labelled with what the user was doing (a transport mode), from a ground-truth file.
public struct LabelledInterval: Sendable, Hashable {
    /// First instant of the span, UTC.
    public var start: Timestamp
    /// Last instant of the span, UTC (inclusive: GeoLife labels name the last second of a segment).
    public var end: Timestamp
    /// The label as the file wrote it (`walk`, `bike`, `bus`, `taxi`, …).
    public var mode: String

    /// Creates an interval.
    public init(start: Timestamp, end: Timestamp, mode: String) {
        self.start = start
        self.end = end
        self.mode = mode
    }

    /// The span's length in seconds.
    public var durationSeconds: Double { start.seconds(to: end) }

    /// True when `timestamp` lies within the span, both ends included.
    public func contains(_ timestamp: Timestamp) -> Bool { start <= timestamp && timestamp <= end }

    /// True when the span shares at least one instant with `start...end`.
    public func overlaps(from start: Timestamp, to end: Timestamp) -> Bool { self.start <= end && start <= self.end }

    /// The motion activity the mode implies (see ``GeoLifeLabels/activityKind(forMode:)``).
    public var activity: ActivityKind { GeoLifeLabels.activityKind(forMode: mode) }
}

/// Reads a GeoLife `labels.txt` file: the transport modes a user labelled, as ``LabelledInterval``s.
///
/// Layout (tab-separated, times in GMT = UTC):
/// ```
/// Start Time<TAB>End Time<TAB>Transportation Mode
/// 2008/04/02 06:09:26<TAB>2008/04/02 06:28:25<TAB>walk
/// ```
/// The header line is skipped (counted as a comment), as are blank lines. A row whose times are malformed, or
/// whose end is before its start, throws ``ReadError`` naming the file, line, column and field (`start`, `end`,
/// `mode`); with ``ReadOptions/lenient`` it is skipped and counted in the report.
public enum GeoLifeLabels {
    /// Reads every interval of the file at `path`, in file order.
    /// - Throws: ``ReadError`` when the file cannot be read or a row is malformed (unless lenient).
    public static func read(path: String, options: ReadOptions = ReadOptions()) throws(ReadError) -> [LabelledInterval]
    {
        try read(stream: try ByteStream(path: path), options: options).intervals
    }

    /// Reads every interval of a stream, with the report of what was read and skipped.
    /// - Throws: ``ReadError`` at the first malformed row (unless lenient).
    public static func read(stream: ByteStream, options: ReadOptions = ReadOptions())
        throws(ReadError) -> (intervals: [LabelledInterval], report: ReadReport)
    {
        var report = ReadReport(source: stream.name)
        var intervals: [LabelledInterval] = []
        while let line = try stream.nextLine() {
            report.recordsRead += 1
            let p = line.bytes
            if SeparatorScan.isBlank(p, line.start, line.end) {
                report.skip(.blank)
                continue
            }
            if line.number == 1, p[line.start] == UInt8(ascii: "S") || p[line.start] == UInt8(ascii: "s") {
                report.skip(.header)  // "Start Time	End Time	Transportation Mode"
                continue
            }
            do {
                intervals.append(try parse(line, file: stream.name))
            } catch {
                try report.reject(error, lenient: options.lenient)
            }
        }
        report.bytesRead = stream.bytesConsumed
        return (intervals, report)
    }

    /// The motion activity a GeoLife transport mode implies: `walk` → walking, `run` → running, `bike` →
    /// onBicycle, `bus`/`car`/`taxi`/`train`/`subway`/`railway`/`motorcycle`/`boat`/`airplane` → inVehicle,
    /// anything else (GeoLife has `other`) → unknown. Case-insensitive.
    public static func activityKind(forMode mode: String) -> ActivityKind {
        switch mode.lowercased() {
        case "walk", "walking": .walking
        case "run", "running": .running
        case "bike", "bicycle", "cycling": .onBicycle
        case "bus", "car", "taxi", "train", "subway", "railway", "motorcycle", "boat", "airplane", "drive": .inVehicle
        default: .unknown
        }
    }

    private static func parse(_ line: ByteStream.Line, file: String) throws(ReadError) -> LabelledInterval {
        let p = line.bytes
        var tabs = (line.end, line.end)
        var found = 0
        for k in line.start..<line.end where p[k] == 0x09 {
            if found == 0 { tabs.0 = k } else if found == 1 { tabs.1 = k }
            found += 1
            if found == 2 { break }
        }
        guard found == 2 else {
            throw .malformedRecord(
                line.location(file: file, at: line.start),
                expected: "start, end and mode separated by tabs",
                found: ReadError.quote(p, line.start, line.end))
        }
        guard let start = dateTime(p, line.start, tabs.0) else {
            throw .malformedField(
                line.location(file: file, at: line.start), field: "start",
                expected: "a time yyyy/MM/dd HH:mm:ss", found: ReadError.quote(p, line.start, tabs.0))
        }
        guard let end = dateTime(p, tabs.0 + 1, tabs.1) else {
            throw .malformedField(
                line.location(file: file, at: tabs.0 + 1), field: "end",
                expected: "a time yyyy/MM/dd HH:mm:ss", found: ReadError.quote(p, tabs.0 + 1, tabs.1))
        }
        guard start <= end else {
            throw .malformedField(
                line.location(file: file, at: tabs.0 + 1), field: "end",
                expected: "a time not before the start", found: ReadError.quote(p, tabs.0 + 1, tabs.1))
        }
        var s = tabs.1 + 1
        var e = line.end
        while s < e, p[s] == 0x20 || p[s] == 0x09 { s += 1 }
        while e > s, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        guard s < e else {
            throw .malformedField(
                line.location(file: file, at: s), field: "mode", expected: "a transport mode",
                found: "")
        }
        let mode = String(decoding: UnsafeRawBufferPointer(rebasing: p[s..<e]), as: UTF8.self)
        return LabelledInterval(start: start, end: end, mode: mode)
    }

    /// `yyyy/MM/dd HH:mm:ss` (GMT) in `p[s..<e]`.
    private static func dateTime(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Timestamp? {
        var a = s
        var b = e
        while a < b, p[a] == 0x20 { a += 1 }
        while b > a, p[b - 1] == 0x20 { b -= 1 }
        guard b - a == 19, p[a + 10] == 0x20,
            let day = GeoLifeText.date(p, a, a + 10, separator: UInt8(ascii: "/")),
            let seconds = GeoLifeText.timeOfDay(p, a + 11, b)
        else { return nil }
        return Timestamp(millisecondsSince1970: day.millisecondsSince1970 + Int64(seconds) * 1000)
    }
}
