/// An instant in UTC with millisecond precision: milliseconds since 1970-01-01T00:00:00Z (the Unix epoch).
///
/// Fixes carry a `Timestamp` instead of Foundation's `Date` so the core stays free of Foundation, the value
/// is exact (a `Date` is a floating-point count of seconds) and comparing or subtracting two of them is an
/// integer operation. Leap seconds are not counted, as in Unix time and every phone API: GPS time is
/// converted on the way in (see ``Timestamp/init(gpsMilliseconds:)``).
public struct Timestamp: Sendable, BitwiseCopyable, Hashable, Comparable, Codable {
    /// Milliseconds since 1970-01-01T00:00:00Z, not counting leap seconds. Negative before 1970.
    public var millisecondsSince1970: Int64

    /// Creates a timestamp from milliseconds since the Unix epoch (Android's `Location.getTime()`, JavaScript's
    /// `Date.now()`).
    ///
    /// For seconds (iOS's `Date.timeIntervalSince1970`, Unix time in most JSON APIs), use
    /// ``init(secondsSince1970:)``: seconds passed here date every fix in January 1970 and a second apart read as
    /// a millisecond apart, so a walk counts nothing and nothing says why (an app developer's).
    @inlinable
    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Creates a timestamp from (possibly fractional) seconds since the Unix epoch (iOS's
    /// `location.timestamp.timeIntervalSince1970`), rounded to the nearest millisecond. Returns `nil` for a
    /// non-finite value or one outside years 0001–9999 (``representableMilliseconds``, after rounding:
    /// 253402300799.9996 rounds into year 10000). For milliseconds, use ``init(millisecondsSince1970:)``.
    @inlinable
    public init?(secondsSince1970 seconds: Double) {
        // (The first test keeps the conversion to Int64 in range; the second is the years' rule.)
        guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
        let milliseconds = Int64((seconds * 1000).rounded())
        guard Timestamp.representableMilliseconds.contains(milliseconds) else { return nil }
        self.millisecondsSince1970 = milliseconds
    }

    /// The instants a fix may carry: 0001-01-01T00:00:00Z up to (not including) 10000-01-01T00:00:00Z, the
    /// years ISO 8601 text, GPX and every writer can represent. ``Fix`` refuses anything outside, so no later
    /// stage (time differences, formatting) meets an absurd timestamp.
    public static let representableMilliseconds: Range<Int64> = -62_135_596_800_000..<253_402_300_800_000

    /// True when this instant lies in ``representableMilliseconds``.
    @inlinable
    public var isRepresentable: Bool { Timestamp.representableMilliseconds.contains(millisecondsSince1970) }

    /// Seconds since the Unix epoch, as a `Double` (exact to the millisecond for any realistic date).
    @inlinable
    public var secondsSince1970: Double { Double(millisecondsSince1970) / 1000 }

    /// Returns the time from `self` to `other` in seconds (positive when `other` is later).
    @inlinable
    public func seconds(to other: Timestamp) -> Double {
        Double(other.millisecondsSince1970 &- millisecondsSince1970) / 1000
    }

    /// Returns this timestamp moved by `seconds` (rounded to the millisecond). Saturates at the ends of `Int64`
    /// milliseconds (±292 million years) instead of trapping or wrapping; NaN moves nothing.
    @inlinable
    public func advanced(bySeconds seconds: Double) -> Timestamp {
        let milliseconds = (seconds * 1000).rounded()
        guard !milliseconds.isNaN else { return self }
        // 2⁶³ is exactly representable as a Double; anything at or beyond it saturates.
        if milliseconds >= 9_223_372_036_854_775_808.0 { return Timestamp(millisecondsSince1970: .max) }
        if milliseconds < -9_223_372_036_854_775_808.0 { return Timestamp(millisecondsSince1970: .min) }
        return Timestamp(millisecondsSince1970: Timestamp.saturatingSum(millisecondsSince1970, Int64(milliseconds)))
    }

    /// True when `lhs` is earlier than `rhs`.
    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}

// MARK: - GPS time

extension Timestamp {
    /// The GPS epoch, 1980-01-06T00:00:00Z, in Unix milliseconds.
    public static let gpsEpochMillisecondsSince1970: Int64 = 315_964_800_000

    /// Leap seconds inserted since the GPS epoch: (first UTC instant, in Unix ms, from which GPS − UTC has
    /// this value). From IERS Bulletin C; no leap second has been announced after 2016-12-31.
    public static let gpsMinusUTCSeconds: [(fromUnixMilliseconds: Int64, seconds: Int64)] = [
        (362_793_600_000, 1),  // 1981-07-01
        (394_329_600_000, 2),  // 1982-07-01
        (425_865_600_000, 3),  // 1983-07-01
        (489_024_000_000, 4),  // 1985-07-01
        (567_993_600_000, 5),  // 1988-01-01
        (631_152_000_000, 6),  // 1990-01-01
        (662_688_000_000, 7),  // 1991-01-01
        (709_948_800_000, 8),  // 1992-07-01
        (741_484_800_000, 9),  // 1993-07-01
        (773_020_800_000, 10),  // 1994-07-01
        (820_454_400_000, 11),  // 1996-01-01
        (867_715_200_000, 12),  // 1997-07-01
        (915_148_800_000, 13),  // 1999-01-01
        (1_136_073_600_000, 14),  // 2006-01-01
        (1_230_768_000_000, 15),  // 2009-01-01
        (1_341_100_800_000, 16),  // 2012-07-01
        (1_435_708_800_000, 17),  // 2015-07-01
        (1_483_228_800_000, 18),  // 2017-01-01
    ]

    /// GPS − UTC in whole seconds at the given UTC instant.
    public static func gpsMinusUTCSeconds(atUnixMilliseconds utc: Int64) -> Int64 {
        var result: Int64 = 0
        for entry in gpsMinusUTCSeconds where utc >= entry.fromUnixMilliseconds { result = entry.seconds }
        return result
    }

    /// Creates a UTC timestamp from GPS time: milliseconds since the GPS epoch (1980-01-06), which runs
    /// ahead of UTC by the leap seconds inserted since then (18 s from 2017 on). GSDC 2021's
    /// `millisSinceGpsEpoch` is such a value.
    public init(gpsMilliseconds: Int64) {
        // Saturating at the ends of Int64, like ``advanced(bySeconds:)`` (it wrapped to the other end).
        let unixGPS = Timestamp.saturatingSum(gpsMilliseconds, Timestamp.gpsEpochMillisecondsSince1970)
        // The offset is looked up at the approximate UTC instant; it changes at most once across a table step.
        var offset = Timestamp.gpsMinusUTCSeconds(atUnixMilliseconds: unixGPS)
        let candidate = unixGPS - offset * 1000
        offset = Timestamp.gpsMinusUTCSeconds(atUnixMilliseconds: candidate)
        self.init(millisecondsSince1970: unixGPS - offset * 1000)
    }

    /// Milliseconds since the GPS epoch for this UTC instant (the inverse of ``init(gpsMilliseconds:)``).
    /// Saturates at the ends of Int64 (it trapped on overflow).
    public var gpsMilliseconds: Int64 {
        let leap = Timestamp.gpsMinusUTCSeconds(atUnixMilliseconds: millisecondsSince1970) * 1000
        return Timestamp.saturatingSum(
            Timestamp.saturatingSum(millisecondsSince1970, leap), -Timestamp.gpsEpochMillisecondsSince1970)
    }

    /// `a + b`, or the end of Int64 it overflowed past.
    @usableFromInline
    static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }
}

extension Timestamp: CustomStringConvertible {
    /// The time in ISO 8601 UTC (`2023-06-14T09:47:51.485Z`, see ``ISO8601/format(_:)``), or the raw count of
    /// milliseconds for a time outside the years 0001–9999, which that form cannot hold.
    public var description: String {
        isRepresentable ? ISO8601.format(self) : "\(millisecondsSince1970) ms since 1970"
    }
}
