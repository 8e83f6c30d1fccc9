/// A proleptic-Gregorian calendar date and time of day in UTC, the broken-down form of a ``Timestamp``.
///
/// Conversions use Howard Hinnant's `days_from_civil` / `civil_from_days` algorithms: exact integer
/// arithmetic, no tables, valid for every year 0001–9999 that ISO 8601 text can carry.
public struct CivilTime: Sendable, Hashable {
    /// Year (1–9999).
    public var year: Int
    /// Month (1–12).
    public var month: Int
    /// Day of month (1–31).
    public var day: Int
    /// Hour (0–23).
    public var hour: Int
    /// Minute (0–59).
    public var minute: Int
    /// Second (0–60; 60 is accepted on input as a leap second and reads as 59.999, see
    /// ``Timestamp/init(civil:)``).
    public var second: Int
    /// Millisecond (0–999).
    public var millisecond: Int

    /// Creates a civil time; values are not range-checked here (see ``Timestamp/init(civil:)``).
    @inlinable
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0)
    {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// The year a two-digit year (0–99) of a GNSS record stands for: 1980–2079, since no GNSS record predates
    /// GPS (1980). NMEA's RMC dates and the CSV reader's six-digit dates read them so.
    @inlinable
    public static func year(twoDigits value: Int) -> Int {
        value >= 80 ? 1900 + value : 2000 + value
    }

    /// Days from 1970-01-01 to the given proleptic-Gregorian date (negative before).
    @inlinable
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// True when `day` exists in `month` of `year`.
    @inlinable
    public static func isValidDate(year: Int, month: Int, day: Int) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        let lengths = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let length: Int
        switch month {
        case 1: length = lengths.0
        case 2: length = isLeap ? 29 : lengths.1
        case 3: length = lengths.2
        case 4: length = lengths.3
        case 5: length = lengths.4
        case 6: length = lengths.5
        case 7: length = lengths.6
        case 8: length = lengths.7
        case 9: length = lengths.8
        case 10: length = lengths.9
        case 11: length = lengths.10
        default: length = lengths.11
        }
        return day <= length
    }
}

extension Timestamp {
    /// Creates a timestamp from a UTC civil time, or `nil` when a field is out of range
    /// (a second of 60, a leap second, is accepted and reads as `:59.999` whatever its millisecond: ``Timestamp``
    /// does not count leap seconds, and on the next minute's first second it took the place of the real one, whose
    /// fix was then lost as out of order).
    @inlinable
    public init?(civil c: CivilTime) {
        guard CivilTime.isValidDate(year: c.year, month: c.month, day: c.day),
            (0...23).contains(c.hour), (0...59).contains(c.minute), (0...60).contains(c.second),
            (0...999).contains(c.millisecond)
        else { return nil }
        let days = Int64(CivilTime.daysSince1970(year: c.year, month: c.month, day: c.day))
        let leap = c.second == 60
        let seconds = days * 86_400 + Int64(c.hour * 3600 + c.minute * 60 + (leap ? 59 : c.second))
        self.init(millisecondsSince1970: seconds * 1000 + Int64(leap ? 999 : c.millisecond))
    }

    /// The UTC calendar date and time of day of this instant.
    public var civil: CivilTime {
        let ms = millisecondsSince1970
        // Floor division without overflow for every Int64 (dates beyond year 9999 are not meaningful, but
        // computing them must not trap).
        var days = ms >= 0 ? ms / 86_400_000 : -((-(ms &+ 1)) / 86_400_000) - 1
        let msOfDay = ms &- days &* 86_400_000
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let doe = days - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return CivilTime(
            year: Int(year), month: Int(month), day: Int(day),
            hour: Int(msOfDay / 3_600_000), minute: Int(msOfDay / 60_000 % 60),
            second: Int(msOfDay / 1000 % 60), millisecond: Int(msOfDay % 1000))
    }
}
