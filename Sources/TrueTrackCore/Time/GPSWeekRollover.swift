/// The GPS week-number rollover: the legacy navigation message counts weeks in 10 bits, so every 1024 weeks
/// (19.6 years: 1999-08-22, 2019-04-07, next 2038-11-21) a receiver whose firmware does not resolve the
/// ambiguity dates its fixes 1024 weeks early. A file from such a receiver jumps by 1024 weeks where it starts
/// or stops resolving it (a reviewer's walk: 2006-05-18 for 600 fixes, then 2026-01-01 for the rest, read as
/// one 19-year stop). The jump has an exact length, which no real silence is likely to match to the day.
public enum GPSWeekRollover {
    /// One rollover period, 1024 weeks, in milliseconds.
    public static let periodMilliseconds: Int64 = 1024 * 7 * 86_400_000

    /// How far a jump may exceed a whole number of periods and still count as rollovers, milliseconds: one
    /// day. Why: the real time between the two fixes around the jump (a cold start, a phone left off overnight)
    /// adds to the period; two recordings a day or more away from exactly 19.6 years apart are too rare to
    /// mistake for it.
    public static let toleranceMilliseconds: Int64 = 86_400_000

    /// How far a jump may fall short of a whole number of periods, milliseconds: 10 minutes. Why: the real time
    /// between the fixes around a jump is not negative, but a batched delivery may put a fix a little before
    /// the one read before it; a full day short would let a re-dated file run backwards (a reviewer's jump of
    /// 1024 weeks less a day came out out of order).
    public static let shortfallMilliseconds: Int64 = 600_000

    /// The most periods one jump may span: 2 (39.2 years: firmware from before 1999 running after 2019). A third
    /// would put a fix of today before GPS time began.
    public static let maximumPeriods = 2

    /// How many weeks `periods` rollover periods span, as a warning says it: `1024 weeks`, `2048 weeks`.
    public static func weeks(_ periods: Int) -> String { "\(1024 * periods.magnitude) weeks" }

    /// A jump between two fixes read one after the other that spans whole rollover periods.
    public struct Jump: Sendable, Hashable {
        /// The number of the fix after the jump, 1-based, in read order.
        public var fixNumber: Int
        /// The number of the fix it was judged against: the one read before it, or the one before that when
        /// that one is a lone clock fault (``Detector``).
        public var beforeFixNumber: Int
        /// The time of the fix before the jump.
        public var before: Timestamp
        /// The time of the fix after it.
        public var after: Timestamp
        /// The signed number of periods (``GPSWeekRollover/periods(from:to:)``).
        public var periods: Int

        /// Creates a jump record.
        public init(fixNumber: Int, beforeFixNumber: Int, before: Timestamp, after: Timestamp, periods: Int) {
            self.fixNumber = fixNumber
            self.beforeFixNumber = beforeFixNumber
            self.before = before
            self.after = after
            self.periods = periods
        }

        /// How the jump reads in a warning: `fix 601 is dated 1024 weeks after fix 600 (2006-05-18T10:09:59Z →
        /// 2026-01-01T10:10:00Z)`.
        public var description: String {
            "fix \(fixNumber) is dated \(GPSWeekRollover.weeks(periods)) \(periods > 0 ? "after" : "before") fix "
                + "\(beforeFixNumber) (\(ISO8601.format(before)) → \(ISO8601.format(after)))"
        }
    }

    /// Finds the jumps of a sequence of times read in order, one time at a time (``next(_:)``), judging each
    /// time against the one before it, or, when that one is a lone clock fault (a day or more from the times on
    /// both sides of it, and no rollover from or to either), against the time before the fault: a rollover
    /// hidden behind a fix dated 1970 is still found (a reviewer's file).
    public struct Detector: Sendable, Hashable {
        private var beforePrevious: Timestamp?
        private var previous: Timestamp?

        /// Creates a detector that has seen no time.
        public init() {}

        /// The jump to `time`: its signed number of rollover periods, the time it was judged against and how
        /// many times back that one was read (1, or 2 across a lone fault); `nil` when there is none.
        public mutating func next(_ time: Timestamp) -> (periods: Int, from: Timestamp, back: Int)? {
            defer {
                beforePrevious = previous
                previous = time
            }
            guard let previous else { return nil }
            if let periods = GPSWeekRollover.periods(from: previous, to: time) { return (periods, previous, 1) }
            guard let before = beforePrevious, GPSWeekRollover.isLoneFault(previous, between: before, and: time),
                let periods = GPSWeekRollover.periods(from: before, to: time)
            else { return nil }
            return (periods, before, 2)
        }
    }

    /// The jumps of a sequence of times read in order (``Detector``): how many, and the first of them with the
    /// numbers of its fixes. What `info` and the commands that run the tracker report.
    public struct Tally: Sendable, Hashable {
        /// How many jumps.
        public private(set) var jumps = 0
        /// The first jump.
        public private(set) var first: Jump?
        private var detector = Detector()
        private var count = 0

        /// Creates a tally that has seen no time.
        public init() {}

        /// Adds the next time read.
        public mutating func add(_ time: Timestamp) {
            count += 1
            guard let jump = detector.next(time) else { return }
            jumps += 1
            if first == nil {
                first = Jump(
                    fixNumber: count, beforeFixNumber: count - jump.back, before: jump.from, after: time,
                    periods: jump.periods)
            }
        }
    }

    /// Whether `time` is a lone clock fault between its neighbours: a day or more from each, and no rollover
    /// from the one before nor to the one after.
    static func isLoneFault(_ time: Timestamp, between before: Timestamp, and after: Timestamp) -> Bool {
        func isADayOrMore(_ a: Timestamp, _ b: Timestamp) -> Bool {
            let (step, overflow) = b.millisecondsSince1970.subtractingReportingOverflow(a.millisecondsSince1970)
            return overflow || step.magnitude >= 86_400_000
        }
        return isADayOrMore(before, time) && isADayOrMore(time, after) && periods(from: before, to: time) == nil
            && periods(from: time, to: after) == nil
    }

    /// The signed number of rollover periods from `earlier` (the fix read before) to `later` (the fix read
    /// after), when the step between them is a nonzero whole number of periods (at most ``maximumPeriods``)
    /// plus up to ``toleranceMilliseconds`` or less up to ``shortfallMilliseconds``: positive when the times jump
    /// forward (the fixes before were dated early), negative when they jump back. `nil` for any other step.
    @inlinable
    public static func periods(from earlier: Timestamp, to later: Timestamp) -> Int? {
        let (step, overflow) = later.millisecondsSince1970.subtractingReportingOverflow(
            earlier.millisecondsSince1970)
        guard !overflow, step.magnitude >= UInt64(periodMilliseconds - toleranceMilliseconds) else { return nil }
        let periods = (Double(step) / Double(periodMilliseconds)).rounded()
        guard periods != 0, periods.magnitude <= Double(maximumPeriods) else { return nil }
        let n = Int64(periods)
        let excess = step - n * periodMilliseconds
        guard excess >= -shortfallMilliseconds, excess <= toleranceMilliseconds else { return nil }
        return Int(n)
    }

    /// The shift, in whole periods, that moves each of a sequence of times read in order into one era: the
    /// eras change at each jump ``periods(from:to:)`` finds between times read one after the other (a lone
    /// clock fault between two of them, see ``Detector``, is stepped over and keeps its time), and the one kept
    /// is the latest whose times are not after `now` plus a day (a lone fix dated 1024 weeks ahead is the faulty
    /// side, not the file: a reviewer's glitch moved 19 good fixes to 2045). Fixes dated 1024 weeks early move
    /// forward, a fix dated ahead moves back; 0 for every fix of a file without such jumps.
    public static func correctingShifts(_ times: some Sequence<Timestamp>, now: Timestamp) -> [Int] {
        let t = Array(times)
        guard !t.isEmpty else { return [] }
        var eras = [Int?](repeating: nil, count: t.count)
        var latestOfEra: [Int: Int64] = [:]
        var era = 0
        var last: Timestamp?
        for i in t.indices {
            if i > 0, i + 1 < t.count, isLoneFault(t[i], between: t[i - 1], and: t[i + 1]) { continue }
            if let last, let n = periods(from: last, to: t[i]) { era += n }
            eras[i] = era
            latestOfEra[era] = max(latestOfEra[era] ?? .min, t[i].millisecondsSince1970)
            last = t[i]
        }
        let horizon = now.millisecondsSince1970 &+ toleranceMilliseconds
        let target = latestOfEra.filter { $0.value <= horizon }.keys.max() ?? latestOfEra.keys.min() ?? 0
        return eras.map { $0.map { target - $0 } ?? 0 }
    }
}
