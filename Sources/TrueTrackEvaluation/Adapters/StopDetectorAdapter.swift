// ADAPTER: the ONLY place where the evaluation calls the stop detector (TrueTrackCore/Stops). If its surface
// changes, fix it here: the stop metrics (precision, recall, start/end errors) follow with no other change.
import TrueTrackCore

/// A stop found by the stop detector, on the evaluation clock.
public struct DetectedStop: Sendable, Hashable, Codable {
    /// When the stop began, seconds on the evaluation clock (see ``AlignedRecording/clockSeconds``).
    public var startSeconds: Double
    /// When the stop ended, seconds on the same clock.
    public var endSeconds: Double

    /// Creates a stop.
    public init(startSeconds: Double, endSeconds: Double) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
    }
}

/// Runs the stop detector for the evaluation.
public enum StopDetectorAdapter {
    /// True when a stop detector is wired in (``detectStops(in:profile:)`` returns stops).
    public static var isAvailable: Bool { true }

    /// The stops the detector finds in `recording`, or `nil` when no stop detector is available.
    ///
    /// The detector runs over the raw fixes in file order, each with the ``Tracker``'s decision on it (the
    /// evaluation profile's tracker: the distance it counted is evidence of movement), with the stop-detection
    /// preset of the same kind as the evaluation profile (what `truetrack stops` and `process` do). Its stop times are UTC; on a
    /// recording whose evaluation clock is not UTC (IPIN's app clock) each time is moved onto that clock
    /// through the fix nearest to it in time (offset kept), so stops and truth stops are compared on one clock.
    public static func detectStops(in recording: AlignedRecording, profile: EvaluationProfile) -> [DetectedStop]? {
        var tracker = Tracker(profile: profile.trackingProfile)
        let evidence = recording.fixes.lazy.map { MotionEvidence(fix: $0, decision: tracker.process($0)) }
        let analysis = StopAnalysis(evidence: evidence, profile: .preset(profile.trackingProfile.kind))
        let clock = ClockMap(recording)
        return analysis.stops.map {
            DetectedStop(startSeconds: clock.seconds(at: $0.start), endSeconds: clock.seconds(at: $0.end))
        }
    }
}

/// Maps a UTC instant onto a recording's evaluation clock through the fix nearest to it in time.
struct ClockMap {
    private var pairs: [(utc: Int64, clock: Double)]
    private let isUTC: Bool

    init(_ recording: AlignedRecording) {
        isUTC = recording.clock == .utc
        pairs =
            isUTC
            ? []
            : zip(recording.fixes, recording.clockSeconds)
                .filter { $0.1.isFinite }
                .map { ($0.0.timestamp.millisecondsSince1970, $0.1) }
                .sorted { $0.utc < $1.utc }
    }

    func seconds(at instant: Timestamp) -> Double {
        let ms = instant.millisecondsSince1970
        guard !isUTC, !pairs.isEmpty else { return instant.secondsSince1970 }
        var low = 0, high = pairs.count
        while low < high {
            let mid = (low + high) / 2
            if pairs[mid].utc < ms { low = mid + 1 } else { high = mid }
        }
        var best = min(low, pairs.count - 1)
        if low > 0, abs(pairs[low - 1].utc - ms) <= abs(pairs[best].utc - ms) { best = low - 1 }
        return pairs[best].clock + Double(ms - pairs[best].utc) / 1000
    }
}
