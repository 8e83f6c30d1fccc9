/// The tuning of the ``StopDetector`` for one kind of movement.
///
/// Use a preset (``walking``, ``running``, ``cycling``, ``driving``, or ``preset(_:)`` for a
/// ``TrackingProfile/Kind``) and change what you need; every preset value is documented with its reason.
///
/// How long a standstill must last before it is a stop: the still verdict needs a window of still fixes
/// (``windowSeconds``), then the countdown (``stopTimeoutSeconds``) must run out, so a standstill shorter
/// than `windowSeconds + stopTimeoutSeconds` never becomes a stop.
public struct StopDetectionProfile: Sendable, Hashable, BitwiseCopyable {
    /// A still verdict arms a countdown of this many seconds; when it runs out the stop commits.
    public var stopTimeoutSeconds: Double
    /// Once stopped, a fix farther than this from the stop's anchor (beyond its own accuracy) means the device
    /// has left, metres.
    public var stationaryRadiusMetres: Double
    /// A pending stop is cancelled by a fix farther than this from where the countdown was armed (beyond the
    /// fix's accuracy), metres. The issue fixes it at 50 m.
    public var pendingStopVetoMetres: Double
    /// A Doppler (or filtered) speed above this means moving, metres per second (``exitConfirmationFixes``
    /// fixes in a row). Derived speeds never trigger: position noise inflates them.
    public var triggerSpeedMetresPerSecond: Double
    /// The kinematic still verdict needs the mean speed over the window below this, metres per second.
    public var stillSpeedMetresPerSecond: Double
    /// The trailing window of the kinematic verdict, seconds. Kept within 1 s –
    /// ``MotionWindowLimits/longestHorizonSeconds`` whenever set (NaN gives the walking preset's 10 s): a profile
    /// loaded from remote configuration with ∞, NaN or 1e20 trapped converting it to milliseconds.
    public var windowSeconds: Double {
        didSet { windowSeconds = Self.clampedWindowSeconds(windowSeconds) }
    }

    /// `seconds` within 1 s – ``MotionWindowLimits/longestHorizonSeconds``; NaN gives 10 s.
    static func clampedWindowSeconds(_ seconds: Double) -> Double {
        seconds.isNaN ? 10 : min(max(seconds, 1), MotionWindowLimits.longestHorizonSeconds)
    }
    /// Still radius = ``stillRadiusBaseMetres`` + ``stillRadiusAccuracyFactor`` × the window's mean accuracy:
    /// the net displacement over the window must stay within it for a still verdict, metres.
    public var stillRadiusBaseMetres: Double
    /// See ``stillRadiusBaseMetres``.
    public var stillRadiusAccuracyFactor: Double
    /// The accuracy assumed for a fix that reports none, metres.
    public var assumedAccuracyMetres: Double
    /// How many consecutive fixes must show a speed or radius exit before it counts (an activity reading or a
    /// manual ``StopDetector/changePace(_:at:)`` counts at once).
    public var exitConfirmationFixes: Int
    /// A silence longer than this between fixes starts recovery: the window is emptied (the verdict is
    /// uncertain until it refills) and a pending countdown can only commit on a fix after the gap, seconds. A
    /// receiver that logs more sparsely is judged by its own rhythm: three of its typical steps
    /// (``StopDetector/gapSeconds``), and its window stretches to hold three fixes.
    public var gapSeconds: Double
    /// Evidence at least this much older than the latest, arriving ``clockJumpRun`` times in a row and in order
    /// among itself, says the latest time was wrong (a receiver's clock fault, a fix dated 9999): the detector
    /// restarts its time from the last of them, as after a gap, instead of ignoring every later fix. Seconds.
    ///
    /// Default one day, as ``TrackingProfile/clockJumpSeconds``: a delayed batch (minutes to an hour old) is
    /// still ignored.
    public var clockJumpSeconds: Double = 86_400
    /// How many such fixes in a row restart the clock: 3, as the tracker's
    /// ``TrackingProfile/rejectionsBeforeReanchor`` (one or two stale fixes are a late delivery).
    public static let clockJumpRun = 3
    /// Activities that mean moving (when read with at least ``activityConfidenceThreshold``).
    public var movingActivities: ActivityMask
    /// The confidence (0–100) from which an activity reading counts; below it the reading decides nothing (the
    /// kinematic verdict stands in, as without one).
    public var activityConfidenceThreshold: Int
    /// An activity reading older than this no longer applies, seconds.
    public var activityValiditySeconds: Double
    /// A heartbeat event is emitted this often, seconds; `nil` for none.
    public var heartbeatIntervalSeconds: Double?
    /// Evidence whose reported accuracy is coarser than this says nothing about where the device is: its
    /// activity reading is used, its position and speed are not (it neither moves the window nor ends a stop),
    /// metres.
    ///
    /// Default 200 m for every preset. Why: network-provider fixes (cell towers, Wi-Fi; 748-896 m on the IPIN
    /// Samsung) interleaved with GPS fixes gave a stop a 27.6 m radius (1.5 m without them) and cut a walk's moving time from 63 s to
    /// 39 s once a file was sorted by time; the coarsest GPS fixes here are 55 m (the underground IPIN walks),
    /// and a parked phone's indoor fixes (the radius exit's reason to see fixes the tracker rejects) are
    /// tens of metres, not hundreds.
    public var maximumAccuracyMetres: Double = 200
    /// Sets how far the kinematic verdict looks back: `radius / slowestMovement` seconds (at least
    /// ``windowSeconds``, at most ``horizonCapSeconds``), the time this speed needs to cross the still radius.
    /// The verdict compares the centroids of the horizon's first and last thirds, ⅔ of it apart, so a steady
    /// mover stops reading still from 1.5 × this speed on (0.75 m/s by default), metres per second.
    ///
    /// Default 0.5 m/s for every preset. Why: a window of fixed length cannot see a slow walker under coarse
    /// fixes: in 10 s a 0.8 m/s walker without accuracy (a 12 m radius) moves 8 m and reads still; GeoLife's
    /// labelled walk (0.66 m/s on average, faster between its halts) broke into a dozen false stops. Measured:
    /// a longer horizon (1.5 × radius / 0.5 m/s) delays real stops past the simulator's bars and misses the
    /// GSDC truth stop; 0.75 m/s seen is the compromise, above a pottering shopper's drift.
    public var slowestMovementMetresPerSecond: Double = 0.5
    /// The longest look-back of the kinematic verdict, seconds (the cap on the horizon above).
    ///
    /// Default 60 s. Why: it bounds how long a stop takes to be recognised under coarse fixes (a 32 m radius
    /// at 0.5 m/s would need 64 s). Values above ``MotionWindowLimits/longestHorizonSeconds`` are clamped (see
    /// ``horizonCapSeconds``): the window's ring is allocated once and thins fixes to about 480 per horizon.
    public var maximumWindowSeconds: Double = 60

    /// The horizon cap actually used, seconds: ``maximumWindowSeconds`` clamped to
    /// [``windowSeconds``, ``MotionWindowLimits/longestHorizonSeconds``] (non-finite values give the base window).
    public var horizonCapSeconds: Double {
        let base = windowSeconds
        guard maximumWindowSeconds.isFinite else { return min(base, MotionWindowLimits.longestHorizonSeconds) }
        return min(max(maximumWindowSeconds, base), max(base, MotionWindowLimits.longestHorizonSeconds))
    }

    /// Creates a profile with every value given; prefer a preset.
    public init(
        stopTimeoutSeconds: Double, stationaryRadiusMetres: Double, pendingStopVetoMetres: Double = 50,
        triggerSpeedMetresPerSecond: Double, stillSpeedMetresPerSecond: Double, windowSeconds: Double,
        stillRadiusBaseMetres: Double = 2, stillRadiusAccuracyFactor: Double = 1, assumedAccuracyMetres: Double = 10,
        exitConfirmationFixes: Int = 2, gapSeconds: Double = 30, movingActivities: ActivityMask = .moving,
        activityConfidenceThreshold: Int = 75, activityValiditySeconds: Double = 60,
        heartbeatIntervalSeconds: Double? = 60
    ) {
        self.stopTimeoutSeconds = stopTimeoutSeconds
        self.stationaryRadiusMetres = stationaryRadiusMetres
        self.pendingStopVetoMetres = pendingStopVetoMetres
        self.triggerSpeedMetresPerSecond = triggerSpeedMetresPerSecond
        self.stillSpeedMetresPerSecond = stillSpeedMetresPerSecond
        self.windowSeconds = Self.clampedWindowSeconds(windowSeconds)
        self.stillRadiusBaseMetres = stillRadiusBaseMetres
        self.stillRadiusAccuracyFactor = stillRadiusAccuracyFactor
        self.assumedAccuracyMetres = assumedAccuracyMetres
        self.exitConfirmationFixes = max(1, exitConfirmationFixes)
        self.gapSeconds = gapSeconds
        self.movingActivities = movingActivities
        self.activityConfidenceThreshold = activityConfidenceThreshold
        self.activityValiditySeconds = activityValiditySeconds
        self.heartbeatIntervalSeconds = heartbeatIntervalSeconds
    }

    /// Walking.
    ///
    /// - `stopTimeoutSeconds` 20 and `windowSeconds` 10: a walker standing for 30 s has stopped (the 37–39 s
    ///   pause at waypoint 13 of the `ipin2023-walk` trial 25 walks is a stop); waiting at a crossing for less
    ///   is not.
    /// - `stationaryRadiusMetres` 40: someone pottering around a shop stays within about 30 m of its middle;
    ///   10 m more for the fixes' error. A walker who leaves at 1.4 m/s is caught sooner by the speed trigger.
    /// - `triggerSpeedMetresPerSecond` 1.0: a slow walk is 1 m/s; pottering (0.3–0.6 m/s) stays under it.
    /// - `stillSpeedMetresPerSecond` 0.7: pottering in a shop averages 0.3–0.6 m/s and is a stop; half a slow
    ///   walk.
    /// - still radius `2 m + 1.0 × accuracy`, `assumedAccuracyMetres` 10: over 10 s a still receiver's
    ///   correlated error moves well under its 68 % radius, a walker covers 10–14 m; loggers without accuracy
    ///   (GPX, GeoLife) are consumer receivers outdoors (5–10 m); a larger guess would call a slow walk still.
    /// - `exitConfirmationFixes` 2: one Doppler spike or multipath jump is noise, two in a row are a departure.
    /// - `gapSeconds` 30: three windows without a fix; a walker may have gone 40 m.
    /// - moving activities: walking, running, on foot, on bicycle, in vehicle at confidence ≥ 75 (Android's
    ///   `DetectedActivity` calls ≥ 75 "likely"), valid 60 s; heartbeat every 60 s (the mobile SDKs' default).
    public static let walking = StopDetectionProfile(
        stopTimeoutSeconds: 20, stationaryRadiusMetres: 40, triggerSpeedMetresPerSecond: 1.0,
        stillSpeedMetresPerSecond: 0.7, windowSeconds: 10)

    /// Running: the walking values with a faster trigger (2 m/s: a jog is 2.5–3 m/s, a runner walking back to
    /// the car is not a new run yet) and still speed (1.0 m/s).
    public static let running: StopDetectionProfile = {
        var p = walking
        p.triggerSpeedMetresPerSecond = 2
        p.stillSpeedMetresPerSecond = 1.0
        return p
    }()

    /// Cycling: timeout 30 s (a red light is not a stop), trigger 2 m/s (pushing the bike is slower),
    /// stationary radius 50 m, gap 20 s (a cyclist covers 100 m in it).
    public static let cycling: StopDetectionProfile = {
        var p = walking
        p.stopTimeoutSeconds = 30
        p.triggerSpeedMetresPerSecond = 2
        p.stillSpeedMetresPerSecond = 1.0
        p.stationaryRadiusMetres = 50
        p.gapSeconds = 20
        return p
    }()

    /// Driving: timeout 60 s with the 10 s window, so a standstill must last 70 s: traffic-light halts of
    /// 20–60 s are not stops; trigger 3 m/s (a car rolling off; creeping in a queue at walking pace is not a
    /// departure), still speed 0.5 m/s (a halted car's Doppler reads < 0.1 m/s), stationary radius 50 m (a
    /// car park), gap 20 s.
    public static let driving: StopDetectionProfile = {
        var p = walking
        p.stopTimeoutSeconds = 60
        p.triggerSpeedMetresPerSecond = 3
        p.stillSpeedMetresPerSecond = 0.5
        p.stationaryRadiusMetres = 50
        p.gapSeconds = 20
        return p
    }()

    /// The preset for a tracking profile kind (``TrackingProfile/Kind/custom`` gives ``walking``).
    public static func preset(_ kind: TrackingProfile.Kind) -> StopDetectionProfile {
        switch kind {
        case .walking, .custom: walking
        case .running: running
        case .cycling: cycling
        case .driving: driving
        }
    }
}

extension ActivityMask {
    /// Every activity that means being carried somewhere: walking, running, on foot, on bicycle, in vehicle.
    public static let moving: ActivityMask = [
        ActivityMask(.walking), ActivityMask(.running), ActivityMask(.onFoot), ActivityMask(.onBicycle),
        ActivityMask(.inVehicle),
    ]
}
