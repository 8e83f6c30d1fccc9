/// What one fix says about whether the device is moving: the input of the ``StopDetector``.
///
/// A small plain value, independent of the ``Tracker``'s internals: build it from a raw ``Fix``
/// (``init(fix:)``), from a fix and the tracker's decision on it (``init(fix:decision:)``), or by hand from any
/// other source. Every fix should be passed, including the ones the tracker rejects: the stationary-radius exit
/// is checked on raw fixes *before* any accuracy gate, because a parked device's fixes are coarse.
public struct MotionEvidence: Sendable, Hashable, BitwiseCopyable {
    /// Where a speed comes from (the tracker's ``TrueTrackCore/SpeedSource``); only `doppler` is a measurement
    /// of the receiver's own, and a `derived` speed (noise inflates it) never triggers motion.
    public typealias SpeedSource = TrueTrackCore.SpeedSource

    /// When the fix was taken, UTC.
    public var timestamp: Timestamp
    /// Raw latitude, degrees north (WGS-84).
    public var latitude: Double
    /// Raw longitude, degrees east (WGS-84).
    public var longitude: Double
    /// The fix's reported 68 % horizontal radius, metres; `nil` when absent (the profile's
    /// ``StopDetectionProfile/assumedAccuracyMetres`` then stands in) or invalid (then the position is no evidence:
    /// ``isPositionRejected``).
    public var accuracyMetres: Double?
    /// Speed over ground, metres per second; `nil` when unknown (never 0 for "unknown").
    public var speedMetresPerSecond: Double?
    /// Where ``speedMetresPerSecond`` comes from (`nil` when there is no speed).
    public var speedSource: SpeedSource?
    /// A motion-activity reading attached to this fix, if any.
    public var activity: ActivityReading?
    /// Distance the ``Tracker`` counted on this fix (its ``FixDecision/distanceIncrementMetres``, less the chord
    /// metres owed for blocks of fixes before it, ``FixDecision/chordMetres``), metres; 0 when unknown. The tracker
    /// counts only what its net-displacement gate vouches for (0.00 m on every stationary recording), so distance
    /// counted within the detector's horizon is evidence of movement even when the Doppler speed reads slow (see
    /// ``StopDetectionProfile``); a chord is owed a block or two after the walk that made it, when the walker may
    /// have halted, so it is no evidence of movement at the fix (it split halts in two). Trip distances take the
    /// tracker's totals, chords included.
    public var countedMetres: Double = 0
    /// True when the ``Tracker`` judged the fix's position a jump it would not follow: rejected as an
    /// ``RejectionReason/outlier``. The ``StopDetector`` then treats
    /// the position as it treats a fix coarser than ``StopDetectionProfile/maximumAccuracyMetres``: it neither
    /// moves the window nor ends or vetoes a stop. Why: a burst of scattered multipath fixes 150–250 m from a
    /// phone on a desk, each claiming 5–6 m, passed the radius exit twice in a row and broke an hour's stop
    /// into five to eleven stops 0 m apart (a tester's desk), though the tracker rejected every one of them.
    /// A real departure is not lost: the tracker re-anchors on the third fix of a run that agrees with itself,
    /// and accepts it. Fixes rejected for a speed above the ceiling are not included: a ride too fast for the
    /// profile is rejected on almost every fix and never re-anchors, and left out it read as "recording gaps"
    /// instead of moving (a reviewer's 20 m/s ride under the walking profile: moving 3 s, unobserved 298 s).
    /// Also true when the position is no coordinate (a latitude or longitude NaN, infinite or out of range), as
    /// every initialiser sets it: evidence built by hand with a NaN position put a stop's centre at latitude NaN
    /// (an API tester, 2026-12-04). And true when the source marked the position invalid by its accuracy (`≤ 0`,
    /// NaN or infinite: iOS's −1, "latitude and longitude are invalid"; ``HorizontalAccuracy/invalid``), as every
    /// initialiser sets it: such a fix was judged with the profile's assumed accuracy, and two of them at a
    /// cell tower 1.1 km from a phone still for 10 minutes passed the radius exit and split its stop in two (an
    /// API tester, 2026-12-06), while an honest fix claiming 500 m is ignored. Like any rejected position, only
    /// its activity reading counts: its time and speed do not (a coarse fix's do not either). Set it yourself
    /// when you change ``latitude``, ``longitude`` or ``accuracyMetres`` of evidence afterwards (the detector does
    /// not check them again: at the initialiser the check costs its per-fix path nothing). False otherwise when
    /// unknown (``init(fix:)``).
    public var isPositionRejected = false
    /// True when the evidence carries the ``Tracker``'s decision (``init(fix:decision:)``): ``countedMetres`` is
    /// then what the tracker counted on the fix, 0 included. False when unknown (``init(fix:)``, or by hand).
    /// ``StopAnalysis`` joins two stops at one place between which the tracker counted nothing, which it can
    /// only tell from this.
    public var isCountedByTracker = false
    /// When the ``Tracker`` judged, at this fix, the fixes since then a multipath excursion: the time of the fix
    /// it left from (``FixDecision/excursionStart``); `nil` when none or unknown.
    public var excursionStart: Timestamp?
    /// True when the ``Tracker`` rejected the fix as too coarse (``RejectionReason/accuracy``): the tracker took
    /// nothing of it, so its position is evidence only within its claimed accuracy (``StopAnalysis`` does not
    /// read such a fix as having left a stop while its accuracy reaches back into the stop). False when unknown.
    public var isTooCoarseForTracker = false
    /// True when the ``Tracker`` judged the device moving at this fix: it counted distance, or held it as a
    /// departure it has yet to confirm (``DistanceHold/departure``: driving and cycling hold the first metres
    /// from a rest). A committed stop is left on its window's displacement alone only after such a fix
    /// (``StopDetector``). False when unknown (``init(fix:)``, or by hand): then the displacement decides alone.
    public var isMovingForTracker = false

    /// Creates evidence from its parts.
    ///
    /// - Parameters:
    ///   - accuracyMetres: a 68 % radius in metres; `nil` when the source has none. A non-positive or non-finite
    ///     value is the source's mark of an invalid position: the evidence's position is rejected
    ///     (``isPositionRejected``) and ``accuracyMetres`` is `nil`.
    ///   - speedMetresPerSecond: metres per second; negative or non-finite values, or values above
    ///     ``Fix/maximumSpeedMetresPerSecond``, are treated as absent (as a ``Fix`` treats them).
    @inlinable
    public init(
        timestamp: Timestamp, latitude: Double, longitude: Double, accuracyMetres: Double? = nil,
        speedMetresPerSecond: Double? = nil, speedSource: SpeedSource? = nil, activity: ActivityReading? = nil
    ) {
        self.timestamp = timestamp
        self.latitude = latitude
        self.longitude = longitude
        if let a = accuracyMetres, a.isFinite, a > 0 { self.accuracyMetres = a } else { self.accuracyMetres = nil }
        if let s = speedMetresPerSecond, s >= 0, s <= Fix.maximumSpeedMetresPerSecond {
            self.speedMetresPerSecond = s
            self.speedSource = speedSource ?? .doppler
        } else {
            self.speedMetresPerSecond = nil
            self.speedSource = nil
        }
        self.activity = activity
        self.isPositionRejected =
            !(abs(latitude) <= 90 && abs(longitude) <= 180)
            || Fix.isNullIsland(latitude: latitude, longitude: longitude)
            || (accuracyMetres != nil && self.accuracyMetres == nil)
    }

    /// Evidence from a raw fix alone: its position, reported accuracy, Doppler speed and activity reading. A fix
    /// whose accuracy the source marked invalid (``HorizontalAccuracy/invalid``) gives evidence whose position is
    /// rejected (``isPositionRejected``).
    @inlinable
    public init(fix: Fix) {
        self.init(
            timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
            accuracyMetres: fix.horizontalAccuracyMetres, speedMetresPerSecond: fix.speedMetresPerSecond,
            speedSource: .doppler, activity: fix.activity)
        if case .invalid = fix.horizontalAccuracy { isPositionRejected = true }
    }
}
