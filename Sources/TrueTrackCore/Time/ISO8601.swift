/// Parsing and formatting of ISO 8601 / RFC 3339 timestamps without Foundation.
///
/// Hand-written for the hot path of the readers (GPX, CSV, GeoJSON): `ISO8601DateFormatter` costs ~37 µs a
/// call on Linux and Foundation's format styles ~0.7 µs; this parser is a few nanoseconds.
///
/// Accepted: `YYYY-MM-DD[T| ]hh:mm[:ss[.fraction]][ ][Z|z|±hh[:mm|mm]|UTC|GMT|UTC±hh[:mm|mm]]` (the zone name any
/// case; one space before the zone, as database exports write `2024-05-01 10:00:00 UTC`), and a date alone
/// (midnight UTC).
/// A time without a zone designator is taken as UTC (GPX requires UTC; CSV exports that omit the zone are
/// almost always UTC). A fraction is rounded to the nearest millisecond. A leap second (`:60`, with any
/// fraction) reads as the last millisecond before the next minute, `:59.999`: ``Timestamp`` does not count leap
/// seconds, and folded onto the next minute's `:00` it lost the real `:00` fix after it as out of order (a
/// tester's NMEA and ISO files across 2016-12-31T23:59:60Z).
public enum ISO8601 {
    /// Parses the bytes `text[start..<end]`; returns `nil` when they are not a valid timestamp.
    @inlinable
    public static func parse(_ p: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Timestamp? {
        var hasZone = false
        return parse(p, from: start, to: end, hasZone: &hasZone)
    }

    /// Parses the bytes `text[start..<end]` as ``parse(_:from:to:)`` does, and says whether they carried a zone
    /// designator (`Z`, an offset, `UTC`): a time without one is a local time to a reader given the zone it was
    /// written in, and is returned here as if it were UTC.
    @inlinable
    public static func parse(_ p: UnsafeRawBufferPointer, from start: Int, to end: Int, hasZone: inout Bool)
        -> Timestamp?
    {
        var i = start
        @inline(__always) func digit(_ k: Int) -> Int? {
            guard k < end else { return nil }
            let d = Int(p[k]) &- 48
            return (0...9).contains(d) ? d : nil
        }
        @inline(__always) func two(_ k: Int) -> Int? {
            guard let a = digit(k), let b = digit(k + 1) else { return nil }
            return a * 10 + b
        }
        // Date
        guard let y0 = digit(i), let y1 = digit(i + 1), let y2 = digit(i + 2), let y3 = digit(i + 3) else { return nil }
        let year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
        i += 4
        guard i < end, p[i] == UInt8(ascii: "-"), let month = two(i + 1) else { return nil }
        i += 3
        guard i < end, p[i] == UInt8(ascii: "-"), let day = two(i + 1) else { return nil }
        i += 3
        var hour = 0, minute = 0, second = 0, millisecond = 0
        var offsetMinutes = 0
        if i < end {
            guard p[i] == UInt8(ascii: "T") || p[i] == UInt8(ascii: "t") || p[i] == UInt8(ascii: " ") else {
                return nil
            }
            i += 1
            guard let h = two(i), i + 2 < end, p[i + 2] == UInt8(ascii: ":"), let m = two(i + 3) else { return nil }
            hour = h
            minute = m
            i += 5
            if i < end, p[i] == UInt8(ascii: ":") {
                guard let s = two(i + 1) else { return nil }
                second = s
                i += 3
                if i < end, p[i] == UInt8(ascii: ".") || p[i] == UInt8(ascii: ",") {
                    i += 1
                    var digits = 0
                    var value = 0
                    var roundUp = false
                    while let d = digit(i) {
                        if digits < 3 { value = value * 10 + d } else if digits == 3 { roundUp = d >= 5 }
                        digits += 1
                        i += 1
                    }
                    guard digits > 0 else { return nil }
                    if digits == 1 { value *= 100 } else if digits == 2 { value *= 10 }
                    millisecond = value + (roundUp ? 1 : 0)
                }
            }
            if i < end {
                guard let zone = zoneOffsetMinutes(p, from: i, to: end) else { return nil }
                offsetMinutes = zone
                hasZone = true
            }
        }
        // A rounded-up fraction (.9996) may carry into the next second; not a leap second's, which reads as :59.999
        // (see ``Timestamp/init(civil:)``).
        var carry: Int64 = 0
        if second == 60 {
            millisecond = 0
        } else if millisecond == 1000 {
            millisecond = 0
            carry = 1000
        }
        guard
            let t = Timestamp(
                civil: CivilTime(
                    year: year, month: month, day: day, hour: hour, minute: minute,
                    second: second, millisecond: millisecond))
        else { return nil }
        return Timestamp(millisecondsSince1970: t.millisecondsSince1970 + carry - Int64(offsetMinutes) * 60_000)
    }

    /// The offset from UTC, in minutes, of the zone designator that is exactly `p[start..<end]`: `Z` or `z`, `±hh`,
    /// `±hhmm`, `±hh:mm` (hours to 23), `UTC` or `GMT` (any case) alone or before such an offset, with one space before
    /// it or none (database and spreadsheet exports write `10:00:00 +0200`, `10:00:00 UTC`, `GMT+02:00`); `nil` for
    /// anything else. What follows the time of ``parse(_:from:to:)``, and of the CSV reader's times of day.
    @inlinable @inline(__always)
    public static func zoneOffsetMinutes(_ p: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        // (The usual zone first: a single `Z`.)
        if start + 1 == end, p[start] | 0x20 == UInt8(ascii: "z") { return 0 }
        var i = start
        @inline(__always) func two(_ k: Int) -> Int? {
            guard k + 1 < end else { return nil }
            let a = Int(p[k]) &- 48, b = Int(p[k + 1]) &- 48
            return (0...9).contains(a) && (0...9).contains(b) ? a * 10 + b : nil
        }
        if i < end, p[i] == UInt8(ascii: " ") { i += 1 }
        guard i < end else { return nil }
        var named = false
        if i + 3 <= end {
            let name = (p[i] | 0x20, p[i + 1] | 0x20, p[i + 2] | 0x20)
            if name == (0x75, 0x74, 0x63) || name == (0x67, 0x6d, 0x74) {  // utc, gmt
                named = true
                i += 3
            }
        }
        let c = i < end ? p[i] : 0
        if i == end && named { return 0 }
        if !named && (c == UInt8(ascii: "Z") || c == UInt8(ascii: "z")) { return i + 1 == end ? 0 : nil }
        guard c == UInt8(ascii: "+") || c == UInt8(ascii: "-"), let oh = two(i + 1) else { return nil }
        i += 3
        var om = 0
        if i < end, p[i] == UInt8(ascii: ":") {
            guard let v = two(i + 1) else { return nil }
            om = v
            i += 3
        } else if let v = two(i) {
            om = v
            i += 2
        }
        guard i == end, oh <= 23, om <= 59 else { return nil }
        return (oh * 60 + om) * (c == UInt8(ascii: "-") ? -1 : 1)
    }

    /// Parses a string; returns `nil` when it is not a valid timestamp.
    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { utf8 in
            parse(UnsafeRawBufferPointer(utf8), from: 0, to: utf8.count)
        }
    }

    /// Formats `timestamp` as `YYYY-MM-DDThh:mm:ssZ`, with `.SSS` milliseconds when they are not zero
    /// (so whole-second data stays as its source wrote it and every value reads back exactly).
    public static func format(_ timestamp: Timestamp) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        append(timestamp, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the formatted `timestamp` (see ``format(_:)``) to a byte buffer: formatted in a stack buffer by
    /// ``write(_:to:)`` and appended at once.
    public static func append(_ timestamp: Timestamp, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: write(timestamp, to: base)))
        }
    }

    /// The most bytes ``write(_:to:)`` writes: a year of up to nine digits and its sign (a ``Timestamp`` spans
    /// about ±292 million years) and `-MM-DDThh:mm:ss.SSSZ`.
    @inlinable public static var maximumLength: Int { 32 }

    /// Writes the formatted `timestamp` (see ``format(_:)``) at `start`, which must have room for
    /// ``maximumLength`` bytes, and returns how many it wrote. Digits are written in place with constant
    /// divisors: appended a byte at a time, with a division by a variable power of ten for each, a timestamp
    /// cost about 1,000 instructions (a fifth of `convert`'s CSV writer).
    public static func write(_ timestamp: Timestamp, to start: UnsafeMutablePointer<UInt8>) -> Int {
        let c = timestamp.civil
        var p = start
        @inline(__always) func two(_ v: Int, then separator: UInt8) {
            p[0] = 48 &+ UInt8(truncatingIfNeeded: v / 10)
            p[1] = 48 &+ UInt8(truncatingIfNeeded: v % 10)
            p[2] = separator
            p += 3
        }
        if (0...9999).contains(c.year) {
            p[0] = 48 &+ UInt8(truncatingIfNeeded: c.year / 1000)
            p[1] = 48 &+ UInt8(truncatingIfNeeded: c.year / 100 % 10)
            p[2] = 48 &+ UInt8(truncatingIfNeeded: c.year / 10 % 10)
            p[3] = 48 &+ UInt8(truncatingIfNeeded: c.year % 10)
            p += 4
        } else {
            // ISO 8601 expanded years (a sign, then the digits). Fix refuses such times; a caller may still
            // format any Timestamp, and that must not trap.
            for byte in ((c.year < 0 ? "-" : "+") + String(c.year.magnitude)).utf8 {
                p.pointee = byte
                p += 1
            }
        }
        p.pointee = UInt8(ascii: "-")
        p += 1
        two(c.month, then: UInt8(ascii: "-"))
        two(c.day, then: UInt8(ascii: "T"))
        two(c.hour, then: UInt8(ascii: ":"))
        two(c.minute, then: UInt8(ascii: ":"))
        if c.millisecond != 0 {
            two(c.second, then: UInt8(ascii: "."))
            p[0] = 48 &+ UInt8(truncatingIfNeeded: c.millisecond / 100)
            p[1] = 48 &+ UInt8(truncatingIfNeeded: c.millisecond / 10 % 10)
            p[2] = 48 &+ UInt8(truncatingIfNeeded: c.millisecond % 10)
            p += 3
            p.pointee = UInt8(ascii: "Z")
            p += 1
        } else {
            two(c.second, then: UInt8(ascii: "Z"))
        }
        return p - start
    }
}
