import TrueTrackCore
import TrueTrackIO

/// A recording's fixes, in file order, each with its time on the evaluation clock.
public struct AlignedRecording: Sendable {
    /// Which clock ``clockSeconds`` is on.
    public enum Clock: String, Sendable, Hashable, Codable {
        /// UTC seconds since 1970 (the fix time).
        case utc
        /// The logging app's clock (IPIN `AppTimestamp`), the clock of the IPIN waypoints.
        case appTime
    }

    /// The fixes as read, in file order (duplicates and backward steps included: the Tracker must cope).
    public var fixes: [Fix]
    /// Each fix's time on the evaluation clock, seconds (NaN when the row had none).
    public var clockSeconds: [Double]
    /// The clock.
    public var clock: Clock
    /// What the reader skipped or stepped over.
    public var report: ReadReport?

    /// Creates a recording from fixes and their clock times (`clockSeconds.count == fixes.count`).
    public init(fixes: [Fix], clockSeconds: [Double], clock: Clock, report: ReadReport? = nil) {
        precondition(fixes.count == clockSeconds.count, "one clock time per fix")
        self.fixes = fixes
        self.clockSeconds = clockSeconds
        self.clock = clock
        self.report = report
    }

    /// Creates a recording on the UTC clock.
    public init(utcFixes fixes: [Fix], report: ReadReport? = nil) {
        self.init(fixes: fixes, clockSeconds: fixes.map(\.timestamp.secondsSince1970), clock: .utc, report: report)
    }

    /// The earliest and latest clock times, or `nil` without fixes.
    public var clockSpan: ClosedRange<Double>? {
        var low = Double.infinity, high = -Double.infinity
        for t in clockSeconds where t.isFinite {
            low = min(low, t)
            high = max(high, t)
        }
        return low <= high ? low...high : nil
    }

    /// Reads a manifest recording with the format and options its entry calls for, leniently (a damaged
    /// record is counted, not fatal). IPIN logs are read on the app clock, everything else on UTC.
    /// - Throws: ``ReadError`` when the file cannot be opened, or the entry names a provider TrueTrack does not
    ///   know (``DatasetManifest/readingPlan(of:)``).
    public static func load(_ recording: DatasetManifest.Recording, manifest: DatasetManifest) throws(ReadError)
        -> AlignedRecording
    {
        var plan = try manifest.readingPlan(of: recording)
        plan.options.lenient = true
        let path = manifest.path(of: recording)
        if plan.format == .ipin {
            var reader = try IPINReader(path: path, options: plan.options)
            var fixes: [Fix] = [], clock: [Double] = []
            while let fix = try reader.next() {
                fixes.append(fix)
                clock.append(reader.lastAppTimestampSeconds ?? .nan)
            }
            return AlignedRecording(fixes: fixes, clockSeconds: clock, clock: .appTime, report: reader.report)
        }
        var reader = try AnyFixReader(path: path, format: plan.format, options: plan.options)
        var fixes: [Fix] = []
        while let fix = try reader.next() { fixes.append(fix) }
        return AlignedRecording(utcFixes: fixes, report: reader.report)
    }
}
