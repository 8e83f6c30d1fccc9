import TrueTrackCore

/// One ground-truth position on the evaluation clock.
public struct TruthSample: Sendable, Hashable {
    /// Time on the evaluation clock, seconds (see ``AlignedRecording/clockSeconds``).
    public var seconds: Double
    /// Latitude, degrees north (WGS-84).
    public var latitude: Double
    /// Longitude, degrees east (WGS-84).
    public var longitude: Double

    /// Creates a sample.
    public init(seconds: Double, latitude: Double, longitude: Double) {
        self.seconds = seconds
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A ground-truth track, interpolated at the times of the device's fixes.
///
/// ## Time alignment
/// Truth and fixes are compared on one **evaluation clock**, in seconds:
/// - **UTC** (seconds since 1970, leap seconds not counted, like every ``Timestamp``) for trajectory truth.
///   NovAtel SPAN NMEA is UTC already. GSDC 2021 `ground_truth.csv` stamps `millisSinceGpsEpoch`, which is
///   **GPS time**: it runs ahead of UTC by the leap seconds inserted since 1980 (18 s from 2017 on, 17 s in
///   2015–16); the CSV reader converts it with ``Timestamp/init(gpsMilliseconds:)`` (the IERS table in
///   ``Timestamp/gpsMinusUTCSeconds``), so a fix and its truth meet at the same UTC instant. Without the
///   conversion a car at 30 m/s would be judged 540 m off.
/// - **The logging app's clock** for IPIN logs: the `POSI` waypoints carry the app's timestamp, not UTC, so
///   each fix is placed by its own `AppTimestamp` (``IPINReader/lastAppTimestampSeconds``), never by its fix
///   time (which lags and, on some phones, goes backwards).
///
/// ## Interpolation and gaps
/// The truth at a time `t` is the linear interpolation (in latitude and longitude: samples are metres apart)
/// between the two samples around `t`. A fix is **excluded** — not counted as an error of any size — when
/// `t` lies before the first or after the last sample, or when the two samples around it are more than
/// ``maximumGapSeconds`` apart (a truth outage: the path across it is unknown). An exact hit on a sample
/// takes that sample.
public struct TruthTrack: Sendable, Hashable {
    /// The samples, sorted by time (stable).
    public private(set) var samples: [TruthSample]
    /// Samples further apart than this do not bracket a fix (a truth gap), seconds.
    public var maximumGapSeconds: Double

    /// The gap limit for dense trajectory truth (SPAN at 1 or 10 Hz, GSDC at 1 Hz), seconds: one missing
    /// 1 Hz epoch is bridged (a car moves in a near-straight line over 2 s), a longer outage is not.
    public static let trajectoryGapSeconds = 2.0

    /// Creates a track; `samples` need not be sorted.
    public init(samples: [TruthSample], maximumGapSeconds: Double = TruthTrack.trajectoryGapSeconds) {
        self.samples = samples.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }
            .map(\.element)
        self.maximumGapSeconds = maximumGapSeconds
    }

    /// The first and last sample times, or `nil` for an empty track.
    public var span: ClosedRange<Double>? {
        guard let first = samples.first, let last = samples.last else { return nil }
        return first.seconds...last.seconds
    }

    /// The truth position at `seconds`, or `nil` when it is outside the track or inside a gap.
    public func position(at seconds: Double) -> (latitude: Double, longitude: Double)? {
        guard seconds.isFinite, let first = samples.first, let last = samples.last,
            seconds >= first.seconds, seconds <= last.seconds
        else { return nil }
        // First sample with time > seconds.
        var low = 0, high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].seconds <= seconds { low = mid + 1 } else { high = mid }
        }
        let before = samples[low - 1]
        if before.seconds == seconds { return (before.latitude, before.longitude) }
        guard low < samples.count else { return nil }
        let after = samples[low]
        let span = after.seconds - before.seconds
        guard span > 0, span <= maximumGapSeconds else { return nil }
        let w = (seconds - before.seconds) / span
        return (
            before.latitude + (after.latitude - before.latitude) * w,
            before.longitude + (after.longitude - before.longitude) * w
        )
    }

    /// Whether the truth has samples inside `span` within `seconds` of both its ends (a truth that covers a
    /// recording's span only by samples before and after it measures no length over it: a reviewer's truth of its
    /// first and last 30 s scored a 1,678 m walk against 0.0 m).
    public func hasSamples(near span: ClosedRange<Double>, withinSeconds seconds: Double) -> Bool {
        let inside = samples.lazy.filter { span.contains($0.seconds) }
        guard let first = inside.first, let last = inside.reversed().first else { return false }
        return first.seconds - span.lowerBound <= seconds && span.upperBound - last.seconds <= seconds
    }

    /// The length of the truth between two times on the WGS-84 ellipsoid, metres (what the truth travelled): the
    /// sum over consecutive samples inside `start...end` (steps across a gap included, as the manifest's reference
    /// distances do), each step by ``Geodesic/stepLengthMetres(from:to:)``. The manifest's haversine convention
    /// (R = 6,371,008.8 m) reads a drive at 37° N 0.042 % shorter (the GSDC drives' 40,153.9 m as 40,137.1 m).
    public func pathLength(from start: Double, to end: Double) -> Double {
        var total = 0.0
        var previous: TruthSample?
        let geodesic = Geodesic.wgs84
        for sample in samples where sample.seconds >= start && sample.seconds <= end {
            if let previous {
                total += geodesic.stepLengthMetres(
                    from: (previous.latitude, previous.longitude), to: (sample.latitude, sample.longitude))
            }
            previous = sample
        }
        return total
    }
}
