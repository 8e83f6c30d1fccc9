// ADAPTER: the ONLY place where the evaluation will call a stop detector.
// No stop detector exists on this branch (it is being written in Sources/TrueTrackCore/Stops/, branch `stops`).
// When it is merged, make `detectStops` run it over the fixes and return its stops on the evaluation clock
// (see `AlignedRecording.clockSeconds`): the stop metrics (precision, recall, start/end errors) are then
// computed and reported by `truetrack bench` with no other change.
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
    public static var isAvailable: Bool { false }

    /// The stops the detector finds in `recording`, or `nil` when no stop detector is available.
    ///
    /// - Parameters:
    ///   - recording: the fixes in file order, each with its time on the evaluation clock.
    ///   - profile: the profile the recording is evaluated with.
    public static func detectStops(in recording: AlignedRecording, profile: EvaluationProfile) -> [DetectedStop]? {
        // TODO(stops): run the stop detector over `recording.fixes` and map each stop's start and end fix to
        // `recording.clockSeconds` of that fix (not the fix time: IPIN truth is on the app clock).
        nil
    }
}
