/// The GPS week-number rollover: the legacy navigation message counts weeks in 10 bits, so every 1024 weeks
/// (19.6 years: 1999-08-22, 2019-04-07, next 2038-11-21) a receiver whose firmware does not resolve the
/// ambiguity dates its fixes 1024 weeks early. A file from such a receiver jumps by 1024 weeks where it starts
/// or stops resolving it (a reviewer's walk: 2006-05-18 for 600 fixes, then 2026-01-01 for the rest, read as
/// one 19-year stop). The jump has an exact length, which no real silence is likely to match to the day.
public enum GPSWeekRollover {
    /// One rollover period, 1024 weeks, in milliseconds.
    public static let periodMilliseconds: Int64 = 1024 * 7 * 86_400_000

    /// How far a jump may be from a whole number of periods and still count as rollovers, milliseconds: one
    /// day. Why: the real time between the two fixes around the jump (a cold start, a phone left off
    /// overnight) adds to the period; two recordings a day or more away from exactly 19.6 years apart are too
    /// rare to mistake for it.
    public static let toleranceMilliseconds: Int64 = 86_400_000

    /// The most periods one jump may span: 3 (58.8 years). Further is a broken clock, not a rollover.
    public static let maximumPeriods = 3

    /// A jump between two fixes read one after the other that spans whole rollover periods.
    public struct Jump: Sendable, Hashable {
        /// The number of the fix after the jump, 1-based, in read order.
        public var fixNumber: Int
        /// The time of the fix before the jump.
        public var before: Timestamp
        /// The time of the fix after it.
        public var after: Timestamp
        /// The signed number of periods (``GPSWeekRollover/periods(from:to:)``).
        public var periods: Int

        /// Creates a jump record.
        public init(fixNumber: Int, before: Timestamp, after: Timestamp, periods: Int) {
            self.fixNumber = fixNumber
            self.before = before
            self.after = after
            self.periods = periods
        }

        /// How the jump reads in a warning: `fix 601 is dated 1024 weeks after fix 600 (2006-05-18T10:09:59Z →
        /// 2026-01-01T10:10:00Z)`.
        public var description: String {
            let weeks = 1024 * periods.magnitude
            return "fix \(fixNumber) is dated \(weeks) weeks \(periods > 0 ? "after" : "before") fix \(fixNumber - 1) "
                + "(\(ISO8601.format(before)) → \(ISO8601.format(after)))"
        }
    }

    /// The signed number of rollover periods from `earlier` (the fix read before) to `later` (the fix read
    /// after), when the step between them is within ``toleranceMilliseconds`` of a nonzero whole number of
    /// periods (at most ``maximumPeriods``): positive when the times jump forward (the fixes before were
    /// dated early), negative when they jump back. `nil` for any other step.
    @inlinable
    public static func periods(from earlier: Timestamp, to later: Timestamp) -> Int? {
        let (step, overflow) = later.millisecondsSince1970.subtractingReportingOverflow(
            earlier.millisecondsSince1970)
        guard !overflow, step.magnitude >= UInt64(periodMilliseconds - toleranceMilliseconds) else { return nil }
        let periods = (Double(step) / Double(periodMilliseconds)).rounded()
        guard periods.magnitude <= Double(maximumPeriods) else { return nil }
        let n = Int64(periods)
        guard (step - n * periodMilliseconds).magnitude <= UInt64(toleranceMilliseconds) else { return nil }
        return Int(n)
    }

    /// The times of fixes read in order, each moved by whole rollover periods so that every fix lies in the
    /// latest era the file reaches (an era changes at each jump ``periods(from:to:)`` recognises): fixes dated
    /// 1024 weeks early move forward by 1024 weeks, whether the jump is forward (the receiver began resolving
    /// the week) or back (it stopped). The shift per fix, in periods (0 for a file without such jumps).
    public static func correctingShifts(_ times: some Sequence<Timestamp>) -> [Int] {
        var eras: [Int] = []
        var previous: Timestamp?
        var era = 0
        for time in times {
            if let previous, let n = periods(from: previous, to: time) { era += n }
            eras.append(era)
            previous = time
        }
        let latest = eras.max() ?? 0
        return eras.map { latest - $0 }
    }
}
