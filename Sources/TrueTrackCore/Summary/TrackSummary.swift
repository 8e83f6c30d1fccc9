/// Facts about a sequence of fixes as recorded, before any filtering: what `truetrack info` prints.
///
/// Fed one fix at a time in input order with ``add(_:)``; memory is a fixed interval histogram of the steps under a
/// minute, the steps of a minute or more counted by length (a logger at a fixed longer interval: a few entries; at
/// most one per fix), and a short window of recent fixes, so it summarises a file of any size while it streams.
///
/// Definitions (chosen to match the data sets' PROVENANCE facts):
/// - an **exact duplicate** repeats the time, latitude and longitude of one of the previous ``duplicateWindow``
///   fixes (loggers with two listeners write every fix twice, not always adjacently, and the copies may differ
///   in side fields such as satellites in use — the IPIN logs do);
/// - a **backward step** is a non-duplicate fix whose time is earlier than the previous non-duplicate fix's;
/// - an **identical timestamp** is a non-duplicate fix with the same time as the previous non-duplicate fix;
/// - a **gap** is a forward step longer than ``gapThresholdSeconds``;
/// - the **sampling interval** is the median forward step between consecutive non-duplicate fixes;
/// - the **raw distance** is the sum of haversine segments over every fix in input order (duplicates and
///   time-travellers included), the naive figure every filter is measured against.
public struct TrackSummary: Sendable {
    /// Forward steps longer than this many seconds count as gaps. Default 5 s: phones deliver 1 Hz, and the
    /// data-set manifest counts gaps above 5 s.
    public var gapThresholdSeconds: Double

    /// How many recent fixes are compared for exact duplicates (16: enough for the double-logging apps,
    /// constant cost per fix).
    public static let duplicateWindow = 16

    /// Number of fixes seen.
    public private(set) var fixCount = 0
    /// The first fix in input order.
    public private(set) var first: Fix?
    /// The last fix in input order.
    public private(set) var last: Fix?
    /// The earliest timestamp seen.
    public private(set) var earliest: Timestamp?
    /// The latest timestamp seen.
    public private(set) var latest: Timestamp?
    /// Fixes with a valid reported horizontal accuracy.
    public private(set) var fixesWithAccuracy = 0
    /// Fixes whose reported accuracy was invalid (≤ 0 or not finite).
    public private(set) var fixesWithInvalidAccuracy = 0
    /// Fixes with a receiver speed.
    public private(set) var fixesWithSpeed = 0
    /// Fixes with a course.
    public private(set) var fixesWithCourse = 0
    /// Exact duplicates (see the type's definitions).
    public private(set) var exactDuplicates = 0
    /// Backward steps in time.
    public private(set) var backwardSteps = 0
    /// Steps with an identical timestamp.
    public private(set) var identicalTimestamps = 0
    /// Forward steps longer than ``gapThresholdSeconds``.
    public private(set) var gaps = 0
    /// The longest forward step, in seconds.
    public private(set) var longestStepSeconds = 0.0
    /// Sum of haversine segments over every fix in input order, in metres.
    public private(set) var rawDistanceMetres = 0.0
    /// Fixes per provider.
    public private(set) var providers: [Provider: Int] = [:]
    /// Steps between fixes read one after the other that span whole GPS week-rollover periods
    /// (``GPSWeekRollover/Detector``): a receiver that dates fixes 1024 weeks early part of the time.
    public private(set) var weekRollovers = GPSWeekRollover.Tally()

    private var recent: [Fix.Identity] = []
    private var recentNext = 0
    private var previousDistinct: Fix?
    /// Forward steps under ``histogramMilliseconds``, one bucket per millisecond (exact, in constant memory).
    private var stepHistogram: [UInt32]
    /// Forward steps of ``histogramMilliseconds`` or more, by their length in whole seconds, with how many there were.
    /// (A single overflow bucket reported every longer median as 60 s: a formats tester's files logged every 90 s, 5
    /// and 30 minutes, or days apart, all said 60 s.) By the second, not the millisecond: a sparse tracker whose times
    /// jitter by milliseconds made an entry per fix (a reviewer's 841,142 fixes: 30 → 80 MB); a logger at a fixed
    /// longer interval makes a handful, and a median of a minute or more needs no finer grain.
    private var longSteps: [Int64: Int] = [:]
    private var steps = 0

    /// Steps shorter than this many milliseconds (a minute) are counted in the histogram.
    static let histogramMilliseconds: Int64 = 60_000

    /// Creates an empty summary.
    public init(gapThresholdSeconds: Double = 5) {
        self.gapThresholdSeconds = gapThresholdSeconds
        stepHistogram = [UInt32](repeating: 0, count: Int(TrackSummary.histogramMilliseconds))
        recent.reserveCapacity(TrackSummary.duplicateWindow)
    }

    /// Adds the next fix in input order.
    public mutating func add(_ fix: Fix) {
        if let last { rawDistanceMetres += TrackSummary.segmentMetres(last, fix) }
        weekRollovers.add(fix.timestamp)
        fixCount += 1
        if first == nil { first = fix }
        last = fix
        earliest = min(earliest ?? fix.timestamp, fix.timestamp)
        latest = max(latest ?? fix.timestamp, fix.timestamp)
        switch fix.horizontalAccuracy {
        case .metres: fixesWithAccuracy += 1
        case .invalid: fixesWithInvalidAccuracy += 1
        case .absent: break
        }
        if fix.speedMetresPerSecond != nil { fixesWithSpeed += 1 }
        if fix.courseDegrees != nil { fixesWithCourse += 1 }
        providers[fix.provider, default: 0] += 1

        let key = Fix.Identity(fix)
        if recent.contains(key) {
            exactDuplicates += 1
            return
        }
        if recent.count < TrackSummary.duplicateWindow {
            recent.append(key)
        } else {
            recent[recentNext] = key
            recentNext = (recentNext + 1) % TrackSummary.duplicateWindow
        }
        defer { previousDistinct = fix }
        guard let previous = previousDistinct else { return }
        let stepMilliseconds = fix.timestamp.millisecondsSince1970 &- previous.timestamp.millisecondsSince1970
        if stepMilliseconds < 0 {
            backwardSteps += 1
        } else if stepMilliseconds == 0 {
            identicalTimestamps += 1
        } else {
            let seconds = Double(stepMilliseconds) / 1000
            if seconds > gapThresholdSeconds { gaps += 1 }
            longestStepSeconds = max(longestStepSeconds, seconds)
            if stepMilliseconds < TrackSummary.histogramMilliseconds {
                stepHistogram[Int(stepMilliseconds)] += 1
            } else {
                longSteps[stepMilliseconds / 1000, default: 0] += 1
            }
            steps += 1
        }
    }

    /// Time from the earliest to the latest fix, in seconds (0 for fewer than two fixes).
    public var spanSeconds: Double {
        guard let earliest, let latest else { return 0 }
        return earliest.seconds(to: latest)
    }

    /// The median forward step between consecutive distinct fixes, in seconds (the lower of the two middle ones for
    /// an even count), exact to the millisecond under a minute and to the second (rounded down) from a minute on;
    /// `nil` without any forward step.
    public var medianSamplingIntervalSeconds: Double? {
        guard steps > 0 else { return nil }
        let target = (steps + 1) / 2
        var seen = 0
        for (milliseconds, count) in stepHistogram.enumerated() where count > 0 {
            seen += Int(count)
            if seen >= target { return Double(milliseconds) / 1000 }
        }
        for seconds in longSteps.keys.sorted() {
            seen += longSteps[seconds, default: 0]
            if seen >= target { return Double(seconds) }
        }
        return nil
    }

    /// The share (0–1) of fixes for which `count` holds.
    public func share(_ count: Int) -> Double {
        fixCount == 0 ? 0 : Double(count) / Double(fixCount)
    }

    @inline(__always)
    static func segmentMetres(_ a: Fix, _ b: Fix) -> Double {
        a.haversineDistance(to: b)
    }
}
