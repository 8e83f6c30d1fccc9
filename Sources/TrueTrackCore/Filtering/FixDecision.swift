/// Why the ``Tracker`` rejected a fix.
public enum RejectionReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// Coordinates not finite or out of range (a `Fix` changed after validation), or exactly 0° N 0° E, the
    /// placeholder of a device without a position (``Fix/isAtNullIsland``).
    case invalid
    /// The same time and position as the fix received just before (loggers that write every fix twice).
    case duplicate
    /// Not newer than the last accepted fix.
    case outOfOrder
    /// Accuracy invalid (≤ 0, NaN) or worse than the profile's ``TrackingProfile/maximumAccuracyMetres``.
    case accuracy
    /// Faster than the profile's ``TrackingProfile/maximumSpeedMetresPerSecond``.
    case speed
    /// Too far from the filter's prediction (normalised innovation above the profile's χ² threshold).
    case outlier
}

/// Where a speed comes from.
public enum SpeedSource: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
    /// The receiver's Doppler speed: a measurement.
    case doppler
    /// Displacement between two fixes over their time difference: an estimate that noise inflates.
    case derived
    /// The Kalman filter's velocity.
    case filtered
}

/// Why an accepted fix added less distance than its speed would suggest (or none).
public enum DistanceHold: String, Sendable, Hashable, CaseIterable, Codable {
    /// Nothing held: the increment accrued.
    case none
    /// The fix was rejected.
    case rejected
    /// The first fix of the session, or the first after the filter was reset or re-anchored: there is no
    /// interval to integrate over.
    case anchor
    /// The speed was under the profile's deadband.
    case deadband
    /// The net displacement over the window is within the noise: the increment is held back, and released if
    /// the gate opens within the window.
    case netDisplacement
    /// The activity recogniser confidently reads an activity the profile excludes (e.g. in vehicle), or the
    /// track moves faster than the profile's traveller can sustain.
    case activity
    /// The track has been faster than the profile's traveller can sustain and has slowed down for less than
    /// ``TrackingProfile/vehicleExitSeconds``: a vehicle in traffic or at a stop until proven otherwise. The
    /// increment is held and released once the slow spell lasts that long (the traveller got out and walks),
    /// or given up when the track speeds up again.
    case vehicle
    /// A receiver without Doppler left a rest and the departure is not confirmed yet
    /// (``TrackingProfile/departureConfirmationSeconds``: held that long, or 100 m on, after three fixes in a row
    /// away): the increment is held and counts once it is, or is given up if the track comes back to the rest
    /// first (a multipath excursion).
    case departure
}

/// The filter's estimate after a fix.
public struct FilteredState: Sendable, Hashable {
    /// Filtered latitude, degrees north (WGS-84).
    public var latitude: Double
    /// Filtered longitude, degrees east (WGS-84).
    public var longitude: Double
    /// East velocity, metres per second.
    public var velocityEastMetresPerSecond: Double
    /// North velocity, metres per second.
    public var velocityNorthMetresPerSecond: Double
    /// Per-axis standard deviation of the position, metres.
    public var positionSigmaMetres: Double
    /// Per-axis standard deviation of the velocity, metres per second.
    public var velocitySigmaMetresPerSecond: Double

    /// Creates a state.
    @inlinable
    public init(
        latitude: Double, longitude: Double, velocityEastMetresPerSecond: Double,
        velocityNorthMetresPerSecond: Double, positionSigmaMetres: Double, velocitySigmaMetresPerSecond: Double
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.velocityEastMetresPerSecond = velocityEastMetresPerSecond
        self.velocityNorthMetresPerSecond = velocityNorthMetresPerSecond
        self.positionSigmaMetres = positionSigmaMetres
        self.velocitySigmaMetresPerSecond = velocitySigmaMetresPerSecond
    }

    /// The filtered speed, metres per second.
    @inlinable
    public var speedMetresPerSecond: Double {
        (velocityEastMetresPerSecond * velocityEastMetresPerSecond
            + velocityNorthMetresPerSecond * velocityNorthMetresPerSecond).squareRoot()
    }

    /// The filtered course, degrees clockwise from true north in 0..<360 (0 when not moving).
    @inlinable
    public var courseDegrees: Double {
        let c = atan2(velocityEastMetresPerSecond, velocityNorthMetresPerSecond) * 180 / .pi
        return c < 0 ? c + 360 : c
    }
}

/// What the ``Tracker`` did with one fix and why, with every gate's value.
///
/// A plain value (no references): producing one allocates nothing.
public struct FixDecision: Sendable, Hashable {
    /// The fix's time, UTC.
    public var timestamp: Timestamp
    /// Why the fix was rejected, or `nil` when it was accepted.
    public var rejection: RejectionReason?
    /// The filter's state after this fix (unchanged by a rejected fix); `nil` until a fix has been accepted.
    public var state: FilteredState?

    /// The accuracy the gates used, metres (the reported one, or the assumed one); 0 when the fix was rejected
    /// before the gates took an accuracy: as a duplicate, out of order, invalid, or by the accuracy gate itself.
    public var accuracyMetres: Double
    /// True when the fix reported no accuracy and the profile's assumed value was used.
    public var isAccuracyAssumed: Bool
    /// The speed the speed gate judged, metres per second (`nil` when the gate was not reached).
    public var gateSpeedMetresPerSecond: Double?
    /// Where ``gateSpeedMetresPerSecond`` came from.
    public var gateSpeedSource: SpeedSource?
    /// The normalised innovation d² of the outlier gate (χ², 2 degrees of freedom); `nil` when not reached.
    public var innovationChiSquare: Double?
    /// True when this fix reset or re-anchored the filter (first fix, long gap, or a rejection streak).
    public var isAnchor: Bool
    /// True when this fix restarted the tracker after a clock jump (see ``TrackingProfile/clockJumpSeconds``): it
    /// is older than the last fix accepted before it, whose time was the wrong one. An anchor too. A store of
    /// the session's last fix moves it back to this one (``TrueTrackStore``'s `SessionSnapshot.record`), and
    /// only then: any other accepted fix older than the last one was recorded out of the tracker's order.
    public var isClockRestart: Bool
    /// When the tracker judged, at this fix, that the fixes since a settled place were a multipath excursion: the
    /// time of the fix the excursion left from (every fix after it, before this one, was the excursion: one or
    /// two points of a chain of sparse steps that jumped out and came back here, reading still, within
    /// ``Tracker/maximumExcursionSeconds``; see
    /// ``Tracker/returnsFromExcursion(home:homeAccuracy:first:firstAccuracy:second:secondAccuracy:east:north:accuracy:)``),
    /// none of whose chords counted; `nil` otherwise. ``StopAnalysis`` lets those fixes, and only those, lie away
    /// from a stop it joins with the next.
    public var excursionStart: Timestamp?

    /// The speed integrated into distance, metres per second (after deadband and ceiling, or the share a halt's
    /// net-displacement bound left of a Doppler dropout's stand-in; 0 when rejected).
    public var speedMetresPerSecond: Double
    /// Where ``speedMetresPerSecond`` came from (`nil` when rejected).
    public var speedSource: SpeedSource?
    /// False when the Doppler check found the receiver's speed inconsistent with its positions.
    public var isDopplerTrusted: Bool
    /// The filtered track's net displacement over the trailing window, metres.
    public var netDisplacementMetres: Double
    /// The net-displacement threshold, metres: the accuracy threshold
    /// (``NetDisplacementGate/threshold(meanAccuracy:profile:)``; the Doppler check and the vehicle latch's exit
    /// use it), raised to the filtered track's noise floor
    /// (``NetDisplacementGate/noiseFloor(positionVariance:profile:)``) when the net displacement decides the
    /// motion verdict (too little Doppler in the window).
    public var netDisplacementThresholdMetres: Double
    /// The motion-activity verdict in force.
    public var motion: MotionGate.Verdict
    /// Whether a confident "still" reading was in force and the motion contradicted it, so that it counted as no
    /// reading (``motion`` is then ``MotionGate/Verdict/uncertain``): the speed readings and the net
    /// displacement over the trailing window both said moving (see ``Tracker``'s contradicted still readings).
    /// ``MotionEvidence/init(fix:decision:)`` passes it on to the stop detector, which believed the reading.
    public var isStillReadingContradicted: Bool
    /// Why less distance accrued than the speed suggests.
    public var hold: DistanceHold

    /// The distance this fix added to the total, metres (includes held-back increments released now).
    public var distanceIncrementMetres: Double
    /// Of ``distanceIncrementMetres``, the metres the chords of averaged blocks added (a slow walk under wide noise
    /// without speed readings, see the ``Tracker``'s chord odometer): distance covered a block or two ago, owed
    /// once the next block confirmed it, not evidence that the device moves at this fix (the stop detector does not
    /// take it for motion). 0 on most fixes.
    public var chordMetres: Double
    /// The total distance after this fix, metres.
    public var totalDistanceMetres: Double

    /// True when the fix was accepted.
    @inlinable
    public var isAccepted: Bool { rejection == nil }

    /// A decision with every gate value empty, for tests, previews and replaying stored decisions (set the
    /// fields you need): hold ``DistanceHold/none`` when accepted, ``DistanceHold/rejected`` otherwise; no
    /// increment; the Doppler speed counted as trusted (nothing contradicted it).
    @inlinable
    public init(
        timestamp: Timestamp, rejection: RejectionReason? = nil, state: FilteredState? = nil,
        totalDistanceMetres: Double = 0
    ) {
        self.init(timestamp: timestamp, rejection: rejection, state: state, total: totalDistanceMetres)
    }

    /// A decision with every gate value empty (the ``Tracker``'s starting point for each fix).
    @inlinable
    init(timestamp: Timestamp, rejection: RejectionReason?, state: FilteredState?, total: Double) {
        self.timestamp = timestamp
        self.rejection = rejection
        self.state = state
        self.accuracyMetres = 0
        self.isAccuracyAssumed = false
        self.gateSpeedMetresPerSecond = nil
        self.gateSpeedSource = nil
        self.innovationChiSquare = nil
        self.isAnchor = false
        self.isClockRestart = false
        self.excursionStart = nil
        self.speedMetresPerSecond = 0
        self.speedSource = nil
        self.isDopplerTrusted = true
        self.netDisplacementMetres = 0
        self.netDisplacementThresholdMetres = 0
        self.motion = .uncertain
        self.isStillReadingContradicted = false
        self.hold = rejection == nil ? .none : .rejected
        self.distanceIncrementMetres = 0
        self.chordMetres = 0
        self.totalDistanceMetres = total
    }

    /// Whether an accepted fix's distance was held as travel in a vehicle: the vehicle latch, or the activity hold
    /// for a fast window or a confident in-vehicle reading (not for a confident still one). Accepted, but not counted
    /// as the profile's own movement: what `process`'s and `truetrack bench`'s "moved like a vehicle" warnings count.
    @inlinable
    public var movedLikeAVehicle: Bool { hold == .vehicle || (hold == .activity && motion != .still) }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
