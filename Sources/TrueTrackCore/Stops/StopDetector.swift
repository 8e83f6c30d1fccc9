/// Whether the device is moving or stationary.
public enum MotionState: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
    /// Moving: fixes are expected to travel.
    case moving
    /// Stationary: at a stop (or, at the start of a session, not yet proven to move).
    case stationary
}

/// What ended a stationary period.
public enum DepartureTrigger: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
    /// A confident moving activity reading.
    case activity
    /// A Doppler or filtered speed above the trigger speed.
    case speed
    /// A raw fix outside the stationary radius around the anchor.
    case radius
    /// The kinematic verdict (no activity reading in force): the window moved beyond its still radius — the
    /// stand-in for a moving activity reading. With the tracker's evidence (``MotionEvidence/isCountedByTracker``)
    /// at a dense cadence, a committed stop is left on it only once the tracker has judged the device moving
    /// within the window's horizon (``MotionEvidence/isMovingForTracker``): a still phone without speed readings
    /// under 4 m of white noise had its window's thirds drift beyond the radius 6–9 times an hour, each a false
    /// departure and a new stop 20 s later, while the tracker counted nothing (an app tester's). Fixes the
    /// tracker rejects as too coarse, and sparse loggers, are judged by the displacement alone, as before.
    case displacement
    /// ``StopDetector/changePace(_:at:)`` with `true`.
    case manual
}

/// A point on the WGS-84 ellipsoid, degrees.
public struct StopPoint: Sendable, Hashable, BitwiseCopyable {
    /// Latitude, degrees north.
    public var latitude: Double
    /// Longitude, degrees east.
    public var longitude: Double

    /// Creates a point.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One stop: where and when the device stayed.
public struct StopRecord: Sendable, Hashable {
    /// When the stop began, UTC: the oldest fix of the still window that armed the countdown (the kinematic
    /// verdict looks back over its horizon, ``StopDetectionProfile/windowSeconds`` stretched up to
    /// ``StopDetectionProfile/horizonCapSeconds`` under coarse fixes; an activity reading's still holds the
    /// base window), never before the fix that ended the previous stationary period. A kinematic window's
    /// leading fixes that were still arriving are left out: a Doppler speed at or above the still speed, or a
    /// position farther from the window's centre than its accuracy and the still radius's base (stops began
    /// 5 s early on the simulator's walks, 3–14 s on a tester's; now within half a second with Doppler).
    public var start: Timestamp
    /// When it ended, UTC: the last fix before the one that began the departure (or the track's last fix).
    public var end: Timestamp
    /// Latitude of the centre (the mean of the stop's fixes), degrees north.
    public var latitude: Double
    /// Longitude of the centre, degrees east.
    public var longitude: Double
    /// Root-mean-square distance of the stop's fixes from its centre, metres.
    public var radiusMetres: Double
    /// How many fixes the stop holds (fixes that were starting a departure are not counted).
    public var fixes: Int
    /// How much of the stop no fix saw, seconds: for a stop the ``StopDetector`` reported, the silences longer than
    /// its ``StopDetector/gapSeconds`` between the stop's fixes (a stop that went on after an hour without fixes, at
    /// the same place: the hour is in the stop, and said here; an API tester's read "1272 s, unobserved 0" with
    /// 1201 s of it silent), a silence before a fix held out as an unconfirmed departure included; for a stop
    /// ``StopAnalysis`` joined from pieces, the silences between them too; the whole of a possible stop inside a
    /// recording gap (``StopAnalysis/staysAcrossGaps``).
    public var unobservedSeconds: Double = 0

    /// `end − start`, seconds.
    public var durationSeconds: Double { start.seconds(to: end) }

    /// Creates a record.
    public init(
        start: Timestamp, end: Timestamp, latitude: Double, longitude: Double, radiusMetres: Double,
        fixes: Int, unobservedSeconds: Double = 0
    ) {
        self.start = start
        self.end = end
        self.latitude = latitude
        self.longitude = longitude
        self.radiusMetres = radiusMetres
        self.fixes = fixes
        self.unobservedSeconds = unobservedSeconds
    }
}

/// What the ``StopDetector`` reports.
public enum MotionEvent: Sendable, Hashable {
    /// The state changed: `isMoving` is the new state; `fix` is the evidence that caused it, or the last one
    /// received (`nil` when no fix has been seen, e.g. a manual change before the first fix).
    case motionChange(isMoving: Bool, fix: MotionEvidence?)
    /// A stop was committed (its countdown ran out): the record so far (its end is the latest fix).
    case stopCommitted(StopRecord)
    /// The device left a committed stop, or the session finished inside one: the complete record.
    case stopEnded(StopRecord)
    /// The periodic heartbeat, with the last fix received (`nil` before any).
    case heartbeat(fix: MotionEvidence?)
    /// A manual pause (``StopDetector/changePace(_:at:)`` with `false`) was called off before its countdown ran
    /// out, by what happened after the tap: `trigger` says what (``DepartureTrigger/activity``: a confident moving
    /// reading; ``DepartureTrigger/speed`` or ``DepartureTrigger/displacement``: a confirmed speed or kinematic
    /// trigger, the tracker's counted distance with the fix beyond the still radius from where the pause was armed
    /// (see `isCounting`); ``DepartureTrigger/radius``: a fix beyond
    /// ``StopDetectionProfile/pendingStopVetoMetres`` from where the pause was armed), `fix` the evidence (the last
    /// one received for an activity reading). The state stays MOVING; an app showing "Paused" learns here that it
    /// is not (an app tester's pause was dropped silently). Only manual pauses are reported: an automatic
    /// countdown called off is no change the app asked for.
    case pauseOverruled(by: DepartureTrigger, fix: MotionEvidence?)
}

/// The MOVING/STATIONARY state machine: stops and departures from raw fixes, activity readings and time.
///
/// A value type with no timers or threads: the caller supplies the time (each evidence's timestamp,
/// ``advance(to:)`` between fixes), so a recorded track replays exactly as it happened live.
///
/// ## Transitions
/// - The session starts **STATIONARY** without a committed stop: nothing proves movement yet.
/// - **STATIONARY → MOVING** on any one of: a confident moving activity; a Doppler or filtered speed above
///   ``StopDetectionProfile/triggerSpeedMetresPerSecond``; a raw fix farther than
///   ``StopDetectionProfile/stationaryRadiusMetres`` from the anchor, beyond its own accuracy (checked on every
///   fix whatever its accuracy: a parked device's fixes are coarse); without a fresh activity reading, a
///   kinematic *moving* verdict (the stand-in for a moving activity); ``changePace(_:at:)`` with `true`.
///   Speed, radius and kinematic exits need ``StopDetectionProfile/exitConfirmationFixes`` fixes in a row.
/// - **MOVING → STATIONARY** has one path: a confident *still* verdict arms a countdown of
///   ``StopDetectionProfile/stopTimeoutSeconds``; further still verdicts do not restart it; when it runs out the stop
///   commits (a ``StopRecord``, the anchor at the stop's centre, a ``MotionEvent/motionChange(isMoving:fix:)``).
/// - **Vetoes** cancel a pending countdown: a fix more than ``StopDetectionProfile/pendingStopVetoMetres``
///   (beyond its accuracy) from where it was armed, and the evidence that would end a stop (a confident moving
///   activity, a confirmed speed or kinematic trigger, a manual change to moving). A single *moving* or an
///   *uncertain* verdict does not cancel it (else a shop visit would never complete).
/// - The verdict is tri-state (``MotionVerdict``). A fresh activity reading at or above the confidence
///   threshold decides it. Without one (none, a low-confidence or unknown reading: "uncertain" is not "still",
///   nor is it a veto) the kinematic verdict of the trailing window stands in (see ``StopDetectionProfile``),
///   and so it does against a confident moving reading (in a vehicle, on foot) when the evidence reads a speed
///   under the still speed and the window reads still: a phone in a parked car goes on reading "in vehicle".
/// - **Silence is never a stop**: a gap longer than ``gapSeconds`` (the profile's
///   ``StopDetectionProfile/gapSeconds``, or three typical steps of a sparse logger) empties the window (the
///   verdict is uncertain until it refills); a countdown armed before the gap runs on observed time only: the
///   gap does not count towards it, and it commits only on fixes after it that do not veto it, never by time
///   alone.
public struct StopDetector: Sendable {
    /// The tuning. Settable mid-session (a running app's walk break, a rider who boards a train): the state,
    /// a committed stop, an armed countdown and the window are kept, and the new profile's thresholds apply
    /// from the next evidence on (an API tester's workaround, a new detector, forgot a committed stop).
    public var profile: StopDetectionProfile
    /// The current state.
    public internal(set) var state: MotionState = .stationary
    /// True while stationary at a committed stop (false in the initial, unproven stationary state).
    public internal(set) var isStopCommitted = false
    /// Where the device is parked: the committed stop's centre, or the first fix of the session; `nil` while
    /// moving.
    public internal(set) var anchor: StopPoint?
    /// When the pending countdown was armed, or `nil` when none is running.
    public internal(set) var countdownArmedAt: Timestamp?
    /// The verdict on the latest evidence.
    public internal(set) var verdict: MotionVerdict = .uncertain
    /// What ended the last stationary period.
    public internal(set) var lastDepartureTrigger: DepartureTrigger?
    /// The latest evidence received (in time order).
    public internal(set) var lastEvidence: MotionEvidence?

    var window = MotionWindow()
    var armPoint: StopPoint?
    var accumulator: StopAccumulator?
    var triggerStreak = 0
    /// When ``changePace(_:at:)`` with `false` armed (or took over) the pending countdown (ms since 1970; `.min`:
    /// none pending): a kinematic "moving" verdict whose horizon reaches back before it judges the walk the user
    /// just ended, and does not veto the pause.
    var manualPauseMilliseconds: Int64 = .min

    /// Since when a kinematic "moving" verdict may judge the device moving: a window reaching back before a
    /// manual pause (pending: the tap; committed: the stop's start) judges the walk the user ended. `.min` otherwise.
    var pausedSinceMilliseconds: Int64 {
        if _slowPath(manualPauseMilliseconds != .min) { return manualPauseMilliseconds }
        if _slowPath(isPausedByUser) { return accumulator?.startMilliseconds ?? .min }
        return .min
    }
    /// The silences (steps longer than a gap) inside the pending automatic countdown, ms: the countdown runs on
    /// observed time only (silence never makes a stop: 20 s of standstill, ten minutes of silence and 40 s
    /// more at the same place committed a 657 s stop, a stops tester's, where neither side lasted a countdown;
    /// it is a stay across a gap now, ``StopAnalysis/staysAcrossGaps``). A manual pause's countdown runs through
    /// silence (the user said so).
    var countdownSilenceMilliseconds: Int64 = 0
    /// True while the committed stop is one a manual pause made (set at its commit, cleared at its departure, the
    /// only end of a committed stop: so never without ``isStopCommitted``, and never with a pause pending, which a
    /// committed stop does not take): "Resume" ends it at the tap, through any silence
    /// since its last fix (the user said they were stopped); an automatic stop ends at its last fix (silence is
    /// not stopped time: a second reviewer's automatic stop stretched over 80 silent minutes to a tap).
    var isPausedByUser = false
    var lastHeartbeatMilliseconds: Int64?
    /// When the last stationary period ended: a new stop never reaches back before it.
    var departureMilliseconds: Int64 = .min
    /// The time of the last evidence the tracker judged moving (``MotionEvidence/isMovingForTracker``; `.min`:
    /// none yet).
    var trackerMovingMilliseconds: Int64 = .min
    var activity: ActivityReading?
    var activityMilliseconds: Int64 = 0
    /// The run of evidence far older than the latest (see ``StopDetectionProfile/clockJumpSeconds``).
    var staleRun = ClockJumpRun()
    /// The last forward jump in time: the time of the first evidence after a gap (ms since 1970) and the time
    /// of the evidence before it (`.min`: the first evidence): evidence between the two, shortly after the jump,
    /// says the jump's time was wrong (see ``restartsOnClockJump(at:latest:metresFromLast:)``).
    var jumpMilliseconds: Int64 = .min, beforeJumpMilliseconds: Int64 = .min
    /// The shortest forward jump whose evidence inside it can restart the detector, seconds: 600
    /// (``TrackingProfile/maximumBridgedGapSeconds``' default, as the tracker judges it; see
    /// ``ClockJumpRun/isInsideForwardJump(_:before:jump:latest:minimumJumpSeconds:metresFromLatest:)``).
    static let judgedJumpSeconds = 600.0
    /// The receiver's recent steps between fixes (see ``typicalStepSeconds``).
    var rhythm = StepRhythm()
    /// The first fix of the current run of still speed readings (every fix since read one under the still speed),
    /// `nil` when the latest fix read none or a moving one, and after a gap: where a stop armed while moving begins
    /// when the window no longer holds it (``arm(at:centre:since:trimRadius:)``).
    var stillReadingsStart: MotionWindow.Entry?
    /// How many typical steps without a fix make a gap, and how many a sparse logger's window holds: 3.
    static let sparseSteps = 3.0

    /// The receiver's typical step between fixes, seconds: the lower median of its last five steps (0 before
    /// the second evidence). Steps longer than ``StepRhythm/slowestCadenceSeconds`` (100 s) are silences, not a
    /// rhythm, and never enter it; each step is judged against the rhythm of the steps before it. Why a median of
    /// five: one long step (a tunnel, a stale first fix 400 s before a 1 Hz walk) does not move it, a logger that
    /// changes its rate is followed within three fixes, and a logger mixing short and long steps (a GPX "smart"
    /// recording) is judged by the majority. (An exponential mean, the first version, let a stale first fix set a
    /// 1 Hz phone's rhythm to minutes for a minute: stops were missed and a silence counted as stopped.)
    public var typicalStepSeconds: Double { rhythm.typical }

    /// The silence that counts as a gap, seconds: ``StopDetectionProfile/gapSeconds``, or three typical steps
    /// for a receiver that logs more sparsely than that allows (``typicalStepSeconds``).
    ///
    /// Why: a logger that writes a fix every 10–60 s (battery-saving trackers, many GPX hikes) lost every stop:
    /// a tester's 10-minute stand, 60 fixes reading speed 0, found nothing from one fix every 9 s on (three fixes
    /// never fitted the window) and read as "unobserved" from every 40 s on (each step was a gap). Silence is
    /// still never a stop: a gap is judged against the receiver's own rhythm, not a 1 Hz phone's; a sparse
    /// logger's first step, before it has a rhythm, is judged by the profile's.
    public var gapSeconds: Double {
        max(profile.gapSeconds, StopDetector.sparseSteps * rhythm.typical)
    }

    /// Creates a detector in the initial STATIONARY state.
    ///
    /// - Parameter profile: the tuning; ``StopDetectionProfile/walking`` by default (as the ``Tracker``).
    public init(profile: StopDetectionProfile = .walking) {
        self.profile = profile
    }

    // MARK: Inputs

    /// Processes a delivered batch's evidence in time order, oldest first (a stable sort, as
    /// ``Tracker/process(batch:)`` does), and returns the events in the order they happened. Feeding a
    /// newest-first batch to ``process(_:)`` in its own order ignored all but its first piece of evidence (each
    /// older than the one before): an app zipping `tracker.process(batch:)`'s decisions with its batch found
    /// no stop at all (API tester, 2026-11-30).
    public mutating func process(batch evidence: [MotionEvidence]) -> [MotionEvent] {
        var events: [MotionEvent] = []
        if evidence.isInTimeOrder(by: \.timestamp) {
            for e in evidence { events += process(e) }
        } else {
            for i in evidence.indicesInTimeOrder(by: \.timestamp) { events += process(evidence[i]) }
        }
        return events
    }

    /// Processes one fix's evidence and returns the events it caused (usually none: the empty array does not allocate).
    /// Evidence coarser than ``StopDetectionProfile/maximumAccuracyMetres``, or whose position the tracker rejected as
    /// an outlier, that is no coordinate or that the source marked invalid by its accuracy
    /// (``MotionEvidence/isPositionRejected``), contributes only its activity reading. Evidence must come in time order
    /// (see ``process(batch:)`` for a delivered batch). Evidence not newer than the previous one is ignored, unless it
    /// is the third in a row a day or more older, or inside a long forward jump shortly after it (see
    /// ``StopDetectionProfile/clockJumpSeconds``): then the previous time was the wrong one and the detector's time
    /// restarts from it.
    public mutating func process(_ evidence: MotionEvidence) -> [MotionEvent] {
        let now = evidence.timestamp.millisecondsSince1970
        var events: [MotionEvent] = []
        // A fix coarser than the profile's maximum (a network-provider fix) says nothing about the position:
        // only its activity reading counts (see ``StopDetectionProfile/maximumAccuracyMetres``).
        // So does a position the tracker rejected as an outlier, that is no coordinate, or whose accuracy the
        // source marked invalid (``MotionEvidence/isPositionRejected``).
        if evidence.isPositionRejected
            || evidence.accuracyMetres.map({ !($0 <= profile.maximumAccuracyMetres) }) ?? false
        {
            if let reading = evidence.activity, lastEvidence.map({ now > $0.timestamp.millisecondsSince1970 }) ?? true {
                events += process(activity: reading, at: evidence.timestamp)
            }
            return events
        }
        // A silence longer than a gap before this evidence: unobserved, if a committed stop takes the evidence.
        var silenceSeconds = 0.0
        if let last = lastEvidence {
            let lastMilliseconds = last.timestamp.millisecondsSince1970
            if now <= lastMilliseconds {
                // (How far it lies from the latest matters only to a session's first jump.)
                let metres =
                    beforeJumpMilliseconds == .min
                    ? Haversine.distance(
                        from: (last.latitude, last.longitude), to: (evidence.latitude, evidence.longitude))
                    : .infinity
                guard restartsOnClockJump(at: now, latest: lastMilliseconds, metresFromLast: metres) else {
                    return events
                }
            } else {
                let step = Double(now &- lastMilliseconds) / 1000
                if step > gapSeconds {
                    silenceSeconds = step
                    if countdownArmedAt != nil, manualPauseMilliseconds == .min {
                        countdownSilenceMilliseconds &+= now &- lastMilliseconds
                    }
                    window.removeAll()
                    stillReadingsStart = nil
                    triggerStreak = 0
                    beforeJumpMilliseconds = lastMilliseconds
                    jumpMilliseconds = now
                }
                rhythm.add(step)
            }
        } else {
            // The first evidence is a jump from nowhere (see `ClockJumpRun.isInsideForwardJump`).
            jumpMilliseconds = now
        }
        lastEvidence = evidence
        if evidence.isMovingForTracker { trackerMovingMilliseconds = now }
        if let reading = evidence.activity { process(activity: reading, milliseconds: now) }
        let accuracy = evidence.accuracyMetres ?? profile.assumedAccuracyMetres
        let isTriggerSource = evidence.speedSource == .doppler || evidence.speedSource == .filtered
        let speed = isTriggerSource ? (evidence.speedMetresPerSecond ?? -1) : -1
        let sparseHorizon = sparseHorizonSeconds
        window.append(
            MotionWindow.Entry(
                milliseconds: now, latitude: evidence.latitude, longitude: evidence.longitude, accuracy: accuracy,
                speed: speed, counted: evidence.countedMetres),
            spanMilliseconds: Int64(max(profile.horizonCapSeconds, sparseHorizon) * 1000))
        if speed >= 0 && speed < profile.stillSpeedMetresPerSecond {
            if stillReadingsStart == nil { stillReadingsStart = window.newest }
        } else {
            stillReadingsStart = nil
        }
        let reading = self.activityVerdict(at: now)
        // (A moving reading the evidence contradicts is no reading: see `stillAgainstMovingReading`.)
        let contradicting =
            _slowPath(reading == .moving) && speed >= 0 && speed < profile.stillSpeedMetresPerSecond
            ? stillAgainstMovingReading(now: now, sparseHorizon: sparseHorizon) : nil
        let activityVerdict = contradicting == nil ? reading : nil
        // The kinematic verdict stands in only while no activity reading decides.
        let kinematic =
            contradicting
            ?? (activityVerdict == nil
                ? window.verdict(now: now, profile: profile, minimumHorizonSeconds: sparseHorizon) : nil)
        verdict = activityVerdict ?? kinematic?.verdict ?? .uncertain
        let isSpeedTrigger = speed > profile.triggerSpeedMetresPerSecond
        // (After a manual pause, only a window wholly after it: see `pausedSinceMilliseconds`.)
        let isDisplaced =
            kinematic.map { $0.verdict == .moving && $0.since >= pausedSinceMilliseconds } == true
            || isCounting(kinematic, now: now, at: evidence)

        if anchor == nil && state == .stationary {
            anchor = StopPoint(latitude: evidence.latitude, longitude: evidence.longitude)
        }
        var departed = false
        if state == .stationary, let anchor {
            let isOutside = distance(anchor, evidence) - accuracy > profile.stationaryRadiusMetres
            if activityVerdict == .moving {
                depart(.activity, evidence, &events)
                departed = true
            } else if isSpeedTrigger || isOutside
                || (isDisplaced
                    && mayLeaveOnDisplacement(evidence, since: kinematic?.since ?? now, sparseHorizon: sparseHorizon))
            {
                triggerStreak += 1
                if triggerStreak >= profile.exitConfirmationFixes {
                    depart(isSpeedTrigger ? .speed : isOutside ? .radius : .displacement, evidence, &events)
                    departed = true
                } else if isStopCommitted {
                    accumulator?.holdOut(at: now, afterSilenceOf: silenceSeconds)
                }
            } else {
                triggerStreak = 0
                if isStopCommitted { accumulator?.add(evidence, afterSilenceOf: silenceSeconds) }
            }
        } else {
            triggerStreak = isSpeedTrigger || isDisplaced ? triggerStreak + 1 : 0
        }
        if !isStopCommitted && !departed {
            // MOVING, or the initial unproven STATIONARY: the countdown's vetoes, expiry and arming.
            if countdownArmedAt != nil {
                let isVetoed =
                    activityVerdict == .moving
                    || triggerStreak >= profile.exitConfirmationFixes
                    || armPoint.map { distance($0, evidence) - accuracy > profile.pendingStopVetoMetres } ?? false
                if isVetoed {
                    if manualPauseMilliseconds != .min {
                        let trigger: DepartureTrigger =
                            activityVerdict == .moving
                            ? .activity
                            : triggerStreak >= profile.exitConfirmationFixes
                                ? (isSpeedTrigger ? .speed : .displacement) : .radius
                        events.append(.pauseOverruled(by: trigger, fix: evidence))
                    }
                    cancelCountdown()
                } else {
                    if armPoint == nil {
                        armPoint = StopPoint(latitude: evidence.latitude, longitude: evidence.longitude)
                    }
                    if accumulator == nil {
                        // A pause tapped before any fix: the stop begins at the first one (without it, the stop
                        // committed with no event and its "Resume" ended nothing, a reviewer found).
                        accumulator = StopAccumulator(
                            latitude: evidence.latitude, longitude: evidence.longitude, milliseconds: now)
                    }
                    // (A countdown that commits on the first fix after a silence: the silence is in the stop.)
                    accumulator?.add(evidence, afterSilenceOf: silenceSeconds)
                    commitIfExpired(now: now, fix: evidence, &events)
                }
            } else if verdict == .still {
                // An activity reading's still arms on the base window, not on the kinematic horizon.
                arm(
                    at: now, centre: kinematic?.centre, since: kinematic?.since,
                    // (A session's first stop has no approach to leave out.)
                    trimRadius: state == .moving ? kinematic.map { _ in profile.stillRadiusBaseMetres } : nil)
                commitIfExpired(now: now, fix: evidence, &events)
            }
        }
        heartbeat(now: now, &events)
        return events
    }

    /// Supplies a motion-activity reading from a separate timed stream; it applies from `timestamp` for
    /// ``StopDetectionProfile/activityValiditySeconds``. A confident moving reading ends a stationary period
    /// (or cancels a pending countdown) at once; a confident still reading arms the countdown.
    public mutating func process(activity reading: ActivityReading, at timestamp: Timestamp) -> [MotionEvent] {
        let now = timestamp.millisecondsSince1970
        var events: [MotionEvent] = []
        process(activity: reading, milliseconds: now)
        guard let v = activityVerdict(at: now) else { return events }
        verdict = v
        if v == .moving {
            if state == .stationary && lastEvidence != nil {
                depart(.activity, lastEvidence, &events)
            } else if countdownArmedAt != nil {
                if manualPauseMilliseconds != .min { events.append(.pauseOverruled(by: .activity, fix: lastEvidence)) }
                cancelCountdown()
            }
        } else if v == .still && !isStopCommitted && countdownArmedAt == nil, lastEvidence != nil {
            arm(at: now, centre: nil)
        }
        heartbeat(now: now, &events)
        return events
    }

    /// Lets time pass without a fix: a countdown that runs out commits (only if the last fix is no older than
    /// ``gapSeconds``, the profile's or three steps of a sparse logger's rhythm: silence alone never makes a
    /// stop), and heartbeats are due. A manual pause (``changePace(_:at:)``) is the exception: the user said
    /// "stopped", and an app that pauses its location updates with the button sends no fix after the tap, so
    /// its countdown commits when it runs out however long the silence after the tap (before, it waited for the
    /// first fix after the silence, a reviewer's 45 m away), provided the last fix came no more than
    /// ``gapSeconds`` before the tap: it says where the user stopped (a tap after an hour of silence placed the
    /// stop at the hour-old fix, a second reviewer's).
    public mutating func advance(to time: Timestamp) -> [MotionEvent] {
        let now = time.millisecondsSince1970
        var events: [MotionEvent] = []
        commitIfDueWithoutFix(now: now, &events)
        heartbeat(now: now, &events)
        return events
    }

    /// Commits the pending countdown at `now` without a new fix when it has run out and the last fix still
    /// places it (see ``advance(to:)``).
    mutating func commitIfDueWithoutFix(now: Int64, _ events: inout [MotionEvent]) {
        if hasCountdownRunOut(at: now), let last = lastEvidence,
            Double(now &- last.timestamp.millisecondsSince1970) / 1000 <= gapSeconds
                || (manualPauseMilliseconds != .min
                    && Double(manualPauseMilliseconds &- last.timestamp.millisecondsSince1970) / 1000 <= gapSeconds)
        {
            commit(fix: last, &events)
        }
    }

    /// A manual change of pace. `true`: MOVING now (a stationary period ends with trigger ``DepartureTrigger/manual``,
    /// the stop ending at the tap; a pending countdown is cancelled). `false`: arms the stop countdown as a confident
    /// still verdict would, from the last fix before the tap (or takes over the countdown already pending, which keeps
    /// its time) — the one path to STATIONARY is kept, so the stop commits ``StopDetectionProfile/stopTimeoutSeconds``
    /// after the tap (after the earlier arming) unless vetoed by what happens after it: a confident moving reading, a
    /// confirmed speed trigger, the tracker's counted distance (``MotionEvidence/countedMetres``) with the fix beyond
    /// the still radius from where the pause was armed (the last fix before the tap, or the still window's centre when
    /// it took over a pending countdown; the tracker goes on counting the walk up to a tap at the halt: see
    /// `isCounting`), a fix beyond ``StopDetectionProfile/pendingStopVetoMetres`` from where it was armed, or a
    /// kinematic window wholly after the tap that moves. The stop it commits is not left on counted distance either (a
    /// window wholly after the stop's start that moves, the stationary radius, a speed trigger, an activity reading or
    /// "Resume" end it). The trailing window still holds the walk the tap ended: its "moving" verdict vetoed every
    /// pause at the next fix (an API tester's "Pause" button committed when the detector would have committed anyway,
    /// 28 s after the halt instead of 20 s after the tap). The tap is a command, not a guess: evidence without speed
    /// and without the tracker's count, whose kinematic window after the tap is longer than the timeout (fixes of 7.5 m
    /// or coarser under the walking profile: horizon (2 m + accuracy) / 0.5 m/s), cannot veto it, and a user walking on
    /// slowly after the tap gets the stop they asked for. Further calls while the pause is pending change nothing.
    ///
    /// Stamp the tap on the fixes' clock: the last fix's time plus the time elapsed since it (on Android
    /// `SystemClock.elapsedRealtimeNanos` against the fix's `elapsedRealtimeNanos`), not the wall clock, which can
    /// differ from the fixes' GNSS time by seconds. A tap dated before the last fix is taken at that fix: it cannot
    /// have come before a fix already given (an API tester's tap stamped 30 s early began the stop 30 s back into the
    /// walk, and the halt made a second stop).
    public mutating func changePace(_ isMoving: Bool, at time: Timestamp) -> [MotionEvent] {
        var now = time.millisecondsSince1970
        if let last = lastEvidence { now = max(now, last.timestamp.millisecondsSince1970) }
        var events: [MotionEvent] = []
        if isMoving {
            // A pause whose countdown ran out in silence, with no `advance(to:)` since (an app that stops its timer
            // with its location updates): it commits first, so the resume ends a stop (a second reviewer's pause,
            // silence and resume made none).
            if manualPauseMilliseconds != .min { commitIfDueWithoutFix(now: now, &events) }
            if state == .stationary {
                // The user says a paused stop lasted until now, through any silence since its last fix (an app that
                // paused its location updates: a reviewer's stop read 0 s after eight minutes paused).
                if isStopCommitted, isPausedByUser, let end = accumulator?.endMilliseconds, now > end {
                    accumulator?.endMilliseconds = now
                }
                depart(.manual, lastEvidence, &events)
            } else {
                cancelCountdown()
            }
        } else if !isStopCommitted, manualPauseMilliseconds == .min {
            // (A second tap while the pause is pending changes nothing: restarting the streak at every call kept
            // the speed and counted-distance vetoes, which need two fixes in a row, from ever firing.)
            if countdownArmedAt == nil { arm(at: now, centre: nil, since: now) }
            manualPauseMilliseconds = now
            triggerStreak = 0
        }
        heartbeat(now: now, &events)
        return events
    }

    /// Ends the session: a committed stop the track never left is reported (``MotionEvent/stopEnded(_:)``,
    /// ending at the last fix). The state is kept.
    ///
    /// A departure the last fix began and did not confirm (fewer than
    /// ``StopDetectionProfile/exitConfirmationFixes`` triggers in a row) is no departure when that fix came within
    /// ``gapSeconds`` of the stop's last one, lies within the stationary radius of its anchor (beyond its
    /// accuracy) and the tracker counted nothing on it: the stop runs to that fix, without taking its position (a
    /// fleet tester's 60 s trackers ended with a "trip" of 60 s and 0 m after the van's last stop, its last fix
    /// 8 m off). Not across a silence (a reviewer's app, resumed after 40 minutes with one fix 20 km away, had its
    /// stop run over the drive), nor over a fix away or one the tracker counted (a last fix 900 m on).
    public mutating func finish() -> [MotionEvent] {
        guard isStopCommitted, var stop = accumulator else { return [] }
        if triggerStreak > 0, let last = lastEvidence, let anchor,
            Double(last.timestamp.millisecondsSince1970 &- stop.endMilliseconds) / 1000 <= gapSeconds,
            last.countedMetres == 0,
            distance(anchor, last) - (last.accuracyMetres ?? profile.assumedAccuracyMetres)
                <= profile.stationaryRadiusMetres
        {
            stop.endMilliseconds = max(stop.endMilliseconds, last.timestamp.millisecondsSince1970)
        }
        guard let record = stop.record else { return [] }
        return [.stopEnded(record)]
    }

    // MARK: Internals

    /// Whether a displaced window may count towards leaving the stop (``DepartureTrigger/displacement``): always
    /// before a stop is committed, for raw evidence, for a fix the tracker rejected as too coarse and for a sparse
    /// logger (`sparseHorizon` beyond the window); otherwise only when the tracker judged the device moving at or
    /// after `since`, the window's horizon (``MotionEvidence/isMovingForTracker``).
    func mayLeaveOnDisplacement(_ evidence: MotionEvidence, since: Int64, sparseHorizon: Double) -> Bool {
        !isStopCommitted || !evidence.isCountedByTracker || evidence.isTooCoarseForTracker
            || sparseHorizon > profile.windowSeconds || trackerMovingMilliseconds >= since
    }

    /// The horizon a sparse logger's window needs to hold three fixes, seconds: 2.5 typical steps (jitter
    /// allowed), at most ``MotionWindowLimits/longestHorizonSeconds``; under the profile's horizon for a 1 Hz
    /// receiver, so nothing changes there.
    var sparseHorizonSeconds: Double {
        min((StopDetector.sparseSteps - 0.5) * typicalStepSeconds, MotionWindowLimits.longestHorizonSeconds)
    }

    /// The kinematic verdict at `now` when it is still, for a confident moving activity reading (in a vehicle, on
    /// foot) whose evidence reads a speed under the still speed: the reading is then not believed, as the tracker
    /// does not believe a "still" both kinds of motion evidence contradict. A phone in a parked car goes on reading
    /// "in vehicle" (iOS's automotive stays on at a standstill; a stops tester's parked car, Doppler 0 and its
    /// positions still, made no stop for 30 minutes of it, and a drive read "in vehicle" throughout made none at
    /// all). Out of line: only for a moving reading at a still speed.
    @inline(never)
    func stillAgainstMovingReading(now: Int64, sparseHorizon: Double) -> KinematicVerdict? {
        let judged = window.verdict(now: now, profile: profile, minimumHorizonSeconds: sparseHorizon)
        return judged.verdict == .still ? judged : nil
    }

    func activityVerdict(at now: Int64) -> MotionVerdict? {
        guard let reading = activity else { return nil }
        let age = Double(now &- activityMilliseconds) / 1000
        guard age >= 0, age <= profile.activityValiditySeconds else { return nil }
        guard Int(reading.confidence) >= profile.activityConfidenceThreshold else { return nil }
        if reading.kind == .still { return .still }
        return profile.movingActivities.contains(reading.kind) ? .moving : nil
    }

    mutating func process(activity reading: ActivityReading, milliseconds: Int64) {
        if activity == nil || milliseconds >= activityMilliseconds {
            activity = reading
            activityMilliseconds = milliseconds
        }
    }

    func distance(_ point: StopPoint, _ evidence: MotionEvidence) -> Double {
        Haversine.distance(
            from: (point.latitude, point.longitude), to: (evidence.latitude, evidence.longitude))
    }

    mutating func arm(
        at now: Int64, centre: (latitude: Double, longitude: Double)?, since: Int64? = nil, trimRadius: Double? = nil
    ) {
        countdownArmedAt = Timestamp(millisecondsSince1970: now)
        countdownSilenceMilliseconds = 0
        if let centre {
            armPoint = StopPoint(latitude: centre.latitude, longitude: centre.longitude)
        } else if let last = lastEvidence {
            armPoint = StopPoint(latitude: last.latitude, longitude: last.longitude)
        } else {
            armPoint = nil
        }
        // The stop holds the still window that armed it (the base window for an activity reading).
        // (Saturating: an activity reading dated near the start of Int64's range trapped here, an API tester's.)
        let from = since ?? Timestamp.saturatingSum(now, -Int64(profile.windowSeconds * 1000))
        var acc: StopAccumulator?
        var start = trimRadius.flatMap { r in centre.map { stopStart(from: from, centre: $0, baseMetres: r) } } ?? from
        // Still readings that began before the window's first fix of the stop, at the stop's place, are the
        // stop's: it begins at the first still reading, as README says (a stops tester's vans logging every 30 s:
        // the still verdict needs a horizon of three steps, by when the window no longer held the first still
        // fix, and stops began 30–150 s late on 9–11 % of stops). Armed while moving only, on a still verdict
        // (`trimRadius`). Its place need only be within the stationary radius that keeps a stop's fixes plus its
        // accuracy up to the profile's assumed one (the still radius's base left out a first still fix 9 m off
        // under 3 m of noise; an accuracy in full let a still glitch claiming 80 m, 110 m short, begin it there).
        if trimRadius != nil, let centre, let run = stillReadingsStart, run.milliseconds < start,
            run.milliseconds > departureMilliseconds,
            Haversine.distance(from: (run.latitude, run.longitude), to: centre)
                <= profile.stationaryRadiusMetres + min(run.accuracy, profile.assumedAccuracyMetres)
        {
            start = run.milliseconds
            if window.count == 0 || run.milliseconds < window.entry(0).milliseconds {
                // (Out of the window already: the stop begins at its time, and its place is the window's fixes'.)
                acc = StopAccumulator(
                    latitude: centre.latitude, longitude: centre.longitude, milliseconds: run.milliseconds)
            }
        }
        for i in 0..<window.count {
            let e = window.entry(i)
            if e.milliseconds <= departureMilliseconds || e.milliseconds < start { continue }
            if acc == nil {
                acc = StopAccumulator(latitude: e.latitude, longitude: e.longitude, milliseconds: e.milliseconds)
            }
            acc?.add(latitude: e.latitude, longitude: e.longitude, milliseconds: e.milliseconds)
        }
        if acc == nil, let last = lastEvidence {
            // At the last fix's place; from its time, unless a stop the user ended after it ("Resume" ends a paused
            // stop at the tap) already holds that time: then from now (a third reviewer's pause soon after a
            // resume made a stop that contained the one before).
            let lastTime = last.timestamp.millisecondsSince1970
            acc = StopAccumulator(
                latitude: last.latitude, longitude: last.longitude,
                milliseconds: lastTime <= departureMilliseconds ? max(now, departureMilliseconds &+ 1) : lastTime)
            acc?.add(last)
        }
        accumulator = acc
    }

    /// `stop` without its way out, when the fixes show one. Over the fixes the stop took in its last
    /// ``departureSpanSeconds`` (after any it held out: ``StopAccumulator/heldOutMilliseconds``), fewer than half of
    /// them carrying a speed, it fits "still at c up to fix k, then moving at v from c" for every k with
    /// ``departureReferenceFixes`` or more fixes before it and ``departureLegFixes`` or more after (c their mean, v
    /// the least-squares velocity of the rest from c). The k with the least squared residual ends the stop when the
    /// way out moved farther than the still radius's base and three times the still part's scatter, at the profile's
    /// slowest movement of interest or faster, and the fit explains more than nine times the still part's variance
    /// on two axes over staying still; the fixes after it leave the stop's sums.
    /// Why: without Doppler, the exit needs fixes beyond the stationary radius (40 m + accuracy) or a window that
    /// moved beyond its still radius, and the stop took the fixes of the way out until then: ends 9–18 s late at
    /// 15 m fixes (3–7 s at 5 m), the mirror of the approach ``stopStart(from:centre:baseMetres:)`` leaves out. Not
    /// with a speed on most fixes (the readings end the stop within a second; the positions' drift cut a reviewer's
    /// honest Doppler stops up to 33 s early), not for a way out holding a still reading, and only for a departure
    /// the positions confirmed (radius, displacement): a speed trigger, an activity reading or the user say when.
    func withoutDeparture(_ stop: StopAccumulator) -> StopAccumulator {
        let r = profile.stillRadiusBaseMetres
        // Only fixes the stop took: after any it held out before its last (those held out after it are the
        // unconfirmed triggers of this departure).
        let heldOut = stop.heldOutMilliseconds < stop.endMilliseconds ? stop.heldOutMilliseconds &+ 1 : .min
        let from = max(stop.startMilliseconds, departureMilliseconds &+ 1, heldOut)
        var last = -1
        for i in 0..<window.count {
            let ms = window.entry(i).milliseconds
            if ms > stop.endMilliseconds { break }
            if ms >= from { last = i }
        }
        guard last >= 0 else { return stop }
        // The span judged: the fixes the stop took (after any it held out) in its last `departureSpanSeconds`.
        let spanStart = window.entry(last).milliseconds - Int64(StopDetector.departureSpanSeconds * 1000)
        var first = last, withSpeed = 0
        while first > 0, window.entry(first - 1).milliseconds >= max(from, spanStart) { first -= 1 }
        for i in first...last where window.entry(i).speed >= 0 { withSpeed += 1 }
        let m = StopDetector.departureReferenceFixes
        // With a speed on most fixes the departure is the readings' (exact already): the positions' drift is no
        // way out (a reviewer's Doppler stops, cut up to 33 s early when this judged them too).
        guard last - first + 1 >= m + StopDetector.departureLegFixes, 2 * withSpeed < last - first + 1 else {
            return stop
        }
        let reference = Offsets(latitude: window.entry(last).latitude, longitude: window.entry(last).longitude)
        let origin = window.entry(last).milliseconds
        let n = last - first + 1
        var east = [Double](repeating: 0, count: n), north = east, seconds = east
        for k in 0..<n {
            let e = window.entry(first + k)
            let o = reference.metres(latitude: e.latitude, longitude: e.longitude)
            east[k] = o.east
            north[k] = o.north
            seconds[k] = Double(e.milliseconds - origin) / 1000
        }
        // A change point: still at c up to fix k, then moving at v from c. For each k, c is the mean of the fixes
        // up to k, v the least-squares velocity of the fixes after it from c; the k with the least squared residual
        // wins, against staying still throughout.
        func squares(_ range: Range<Int>, _ ce: Double, _ cn: Double) -> Double {
            var sum = 0.0
            for q in range { sum += (east[q] - ce) * (east[q] - ce) + (north[q] - cn) * (north[q] - cn) }
            return sum
        }
        let allE = east.reduce(0, +) / Double(n), allN = north.reduce(0, +) / Double(n)
        let still = squares(0..<n, allE, allN)
        // A way out holds no still reading (a reviewer's tracks with a speed on 40 % of the fixes lost 33 s of a stop
        // to a drift whose fixes read 0): k is at the last still reading or later.
        let lastStillReading =
            (0..<n).last { q in
                let speed = window.entry(first + q).speed
                return speed >= 0 && speed < profile.stillSpeedMetresPerSecond
            } ?? 0
        var best: (k: Int, residual: Double, stillResidual: Double, moved: Double, speed: Double)?
        var sumE = 0.0, sumN = 0.0
        for k in 0..<(n - StopDetector.departureLegFixes) {
            sumE += east[k]
            sumN += north[k]
            guard k + 1 >= m else { continue }
            let ce = sumE / Double(k + 1), cn = sumN / Double(k + 1)
            var tt = 0.0, te = 0.0, tn = 0.0
            for q in (k + 1)..<n {
                let dt = seconds[q] - seconds[k]
                tt += dt * dt
                te += dt * (east[q] - ce)
                tn += dt * (north[q] - cn)
            }
            guard tt > 0 else { continue }
            let ve = te / tt, vn = tn / tt
            var moving = 0.0
            for q in (k + 1)..<n {
                let dt = seconds[q] - seconds[k]
                let de = east[q] - ce - ve * dt, dn = north[q] - cn - vn * dt
                moving += de * de + dn * dn
            }
            let stillPart = squares(0..<(k + 1), ce, cn)
            let residual = stillPart + moving
            if k >= lastStillReading, best.map({ residual < $0.residual }) ?? true {
                let speed = (ve * ve + vn * vn).squareRoot()
                best = (k, residual, stillPart, speed * (seconds[n - 1] - seconds[k]), speed)
            }
        }
        guard let best else { return stop }
        // Accepted when the fixes before it scatter less than the way out moved (2 m + three times their
        // root-mean-square distance from their place), and the change explains far more than noise: the squared
        // residual falls by more than 9 × two axes' variance of the still part.
        let variance = best.stillResidual / Double(2 * max(best.k, 1))
        let spread = 3 * (2 * variance).squareRoot()
        // And the way out is a movement of interest (the profile's slowest, 0.5 m/s walking), not a drift of the
        // error (a reviewer's fast-wandering 15 m phone lost up to 36 s of its stops to a drift read as a way out).
        guard best.moved > r + spread, still - best.residual > 18 * variance,
            best.speed >= profile.slowestMovementMetresPerSecond
        else { return stop }
        var trimmed = stop
        for q in (best.k + 1)..<n {
            let e = window.entry(first + q)
            trimmed.remove(latitude: e.latitude, longitude: e.longitude)
        }
        trimmed.endMilliseconds = window.entry(first + best.k).milliseconds
        return trimmed
    }

    /// The fixes before a departure a change point needs to stand on: 8.
    static let departureReferenceFixes = 8
    /// The last seconds of a stop ``withoutDeparture(_:)`` judges: 40 (the way out of a stop without Doppler is
    /// confirmed within 9–43 s at 5–25 m fixes; in fixes, a 2 s logger's 40 reached back 80 s, over which the error
    /// drifted like a way out).
    static let departureSpanSeconds = 40.0
    /// The fewest fixes a way out ``withoutDeparture(_:)`` leaves out: 3 (two could be a drift's jump).
    static let departureLegFixes = 3

    /// The fewest fixes in the still window's last third whose scatter ``stopStart(from:centre:baseMetres:)``
    /// trusts: 4 (six degrees of freedom about their mean). Why: a sparse logger's window holds three fixes, and
    /// the spread of one or two read 0 m, so every fix but the last was taken for the approach (a fleet's stops
    /// within 60 s of the truth fell by a fifth).
    static let scatterFixes = 4

    /// When a stop armed while MOVING begins: the first fix of the still window (from `from`, after the last
    /// departure) that is not its approach; `Int64.max` when every one is. The approach is the leading fixes whose
    /// Doppler speed is not still, or that lie farther from the window's `centre` than their accuracy and
    /// `baseMetres` (the still radius's base); and then, when fewer than half the fixes from there carry a speed,
    /// the fixes after those moved and the last third holds ``scatterFixes`` or more, the ones that lie farther from
    /// where the window's last third stands than `baseMetres` and the spread that third shows (three times its
    /// fixes' root-mean-square distance from their mean; at most the fix's accuracy). With a speed on most fixes the
    /// readings decide (the first test), as they do for the end (``withoutDeparture(_:)``).
    /// Why the second: a 15 m fix's accuracy kept the last 13–22 s of a walk without Doppler in the stop (its start
    /// that much early; 19–35 s at 25 m), while a still phone's fixes scatter by a metre or two about the slowly
    /// moving error they share: now 2–9 s (4–17 s). Why "moved" (farther than the same bound from the first to the
    /// last of them): an underground receiver (IPIN t25r04) held one position 11 m from where it then settled,
    /// still, for 11 s of a standing start; cut off, the standing stop broke in two.
    func stopStart(from: Int64, centre: (latitude: Double, longitude: Double), baseMetres r: Double) -> Int64 {
        let reference = Offsets(latitude: centre.latitude, longitude: centre.longitude)
        var first = window.count
        for i in 0..<window.count {
            let e = window.entry(i)
            if e.milliseconds <= departureMilliseconds || e.milliseconds < from { continue }
            guard e.speed < profile.stillSpeedMetresPerSecond else { continue }
            let m = reference.metres(latitude: e.latitude, longitude: e.longitude)
            if (m.east * m.east + m.north * m.north).squareRoot() <= r + e.accuracy {
                first = i
                break
            }
        }
        // No fix of the window is the stop's: it starts at the latest evidence (``arm``).
        guard first < window.count else { return .max }
        let start = window.entry(first).milliseconds
        // With a speed on most fixes the readings decide (the first pass); the positions' drift is no approach.
        var withSpeed = 0
        for i in first..<window.count where window.entry(i).speed >= 0 { withSpeed += 1 }
        guard 2 * withSpeed < window.count - first else { return start }
        // Where the last third of the fixes from `first` stands, and their spread about it.
        let n = window.count - first
        let last = window.count - max(1, n / 3)
        var east = 0.0, north = 0.0
        for i in last..<window.count {
            let m = reference.metres(latitude: window.entry(i).latitude, longitude: window.entry(i).longitude)
            east += m.east
            north += m.north
        }
        // Too few fixes to measure a scatter by (a sparse logger's window holds three): the accuracy bounds it.
        guard window.count - last >= StopDetector.scatterFixes else { return start }
        let k = Double(window.count - last)
        east /= k
        north /= k
        var squares = 0.0
        for i in last..<window.count {
            let m = reference.metres(latitude: window.entry(i).latitude, longitude: window.entry(i).longitude)
            squares += (m.east - east) * (m.east - east) + (m.north - north) * (m.north - north)
        }
        let spread = 3 * (squares / k).squareRoot()
        func offset(_ i: Int) -> (east: Double, north: Double) {
            let m = reference.metres(latitude: window.entry(i).latitude, longitude: window.entry(i).longitude)
            return (m.east - east, m.north - north)
        }
        var settled = first
        while settled < last {
            let e = window.entry(settled), m = offset(settled)
            if e.speed < profile.stillSpeedMetresPerSecond
                && (m.east * m.east + m.north * m.north).squareRoot() <= r + min(e.accuracy, spread)
            {
                break
            }
            settled += 1
        }
        guard settled > first else { return start }
        let a = offset(first), b = offset(settled - 1)
        let moved = ((a.east - b.east) * (a.east - b.east) + (a.north - b.north) * (a.north - b.north)).squareRoot()
        return moved > r + spread ? window.entry(settled).milliseconds : start
    }

    /// Counts evidence far older than the latest (see ``StopDetectionProfile/clockJumpSeconds``); on the
    /// ``StopDetectionProfile/clockJumpRun``-th in a row, in order among themselves, the latest time was the wrong
    /// one: every time taken from it is pulled back to `now` (a countdown armed then is cancelled, a stop's end
    /// and the last departure are clamped, a reading and a heartbeat forgotten), the window is emptied as after
    /// a gap, and the caller goes on with this evidence. The state and the anchor are kept. Evidence of any age
    /// counts when it lies inside the last forward jump (the first evidence after a gap) of more than
    /// ``judgedJumpSeconds``, shortly after it: one fix stamped an hour ahead (a time-zone slip) froze the detector
    /// until the clock caught up, as it froze the ``Tracker``.
    /// `metresFromLast`: how far the evidence lies from the latest (a session's first jump judges only evidence
    /// near it, see ``ClockJumpRun/firstJumpReachMetres``).
    mutating func restartsOnClockJump(at now: Int64, latest: Int64, metresFromLast: Double) -> Bool {
        let isInsideJump = ClockJumpRun.isInsideForwardJump(
            now, before: beforeJumpMilliseconds, jump: jumpMilliseconds, latest: latest,
            minimumJumpSeconds: StopDetector.judgedJumpSeconds, metresFromLatest: metresFromLast)
        guard
            staleRun.completes(
                at: now, latest: latest, seconds: isInsideJump ? 0 : profile.clockJumpSeconds,
                length: StopDetectionProfile.clockJumpRun)
        else { return false }
        window.removeAll()
        triggerStreak = 0
        if let armed = countdownArmedAt, armed.millisecondsSince1970 > now { cancelCountdown() }
        if isStopCommitted, var stop = accumulator {
            stop.startMilliseconds = min(stop.startMilliseconds, now)
            stop.endMilliseconds = min(stop.endMilliseconds, now)
            accumulator = stop
        }
        departureMilliseconds = min(departureMilliseconds, now &- 1)
        if let beat = lastHeartbeatMilliseconds, beat > now { lastHeartbeatMilliseconds = nil }
        if activity != nil && activityMilliseconds > now {
            activity = nil
            activityMilliseconds = 0
        }
        return true
    }

    mutating func cancelCountdown() {
        countdownArmedAt = nil
        manualPauseMilliseconds = .min
        armPoint = nil
        accumulator = nil
    }

    /// Whether a pending countdown has run out at `now`: ``StopDetectionProfile/stopTimeoutSeconds`` since it was
    /// armed, less the silences inside it (``countdownSilenceMilliseconds``).
    func hasCountdownRunOut(at now: Int64) -> Bool {
        guard let armed = countdownArmedAt else { return false }
        return Double(now &- armed.millisecondsSince1970 &- countdownSilenceMilliseconds) / 1000
            >= profile.stopTimeoutSeconds
    }

    mutating func commitIfExpired(now: Int64, fix: MotionEvidence, _ events: inout [MotionEvent]) {
        guard hasCountdownRunOut(at: now) else { return }
        commit(fix: fix, &events)
    }

    mutating func commit(fix: MotionEvidence?, _ events: inout [MotionEvent]) {
        countdownArmedAt = nil
        isPausedByUser = manualPauseMilliseconds != .min
        manualPauseMilliseconds = .min
        armPoint = nil
        isStopCommitted = true
        triggerStreak = 0
        if let record = accumulator?.record {
            anchor = StopPoint(latitude: record.latitude, longitude: record.longitude)
            events.append(.stopCommitted(record))
        } else if let fix {
            anchor = StopPoint(latitude: fix.latitude, longitude: fix.longitude)
        }
        if state == .moving {
            state = .stationary
            events.append(.motionChange(isMoving: false, fix: fix))
        }
    }

    mutating func depart(_ trigger: DepartureTrigger, _ fix: MotionEvidence?, _ events: inout [MotionEvent]) {
        // (Not when a reading decided either: a speed trigger confirmed it, and the stop holds no way out.)
        if isStopCommitted, trigger == .radius || trigger == .displacement, let stop = accumulator {
            accumulator = withoutDeparture(stop)
        }
        if isStopCommitted, let record = accumulator?.record { events.append(.stopEnded(record)) }
        if let last = lastEvidence { departureMilliseconds = last.timestamp.millisecondsSince1970 &- 1 }
        // A stop ended at a "Resume" tap after its last fix: the next stop starts after the tap (a second
        // reviewer's next stop began half a second before the first one's end).
        if isStopCommitted, let end = accumulator?.endMilliseconds, let last = lastEvidence,
            end > last.timestamp.millisecondsSince1970
        {
            departureMilliseconds = end
        }
        isPausedByUser = false
        state = .moving
        isStopCommitted = false
        anchor = nil
        triggerStreak = 0
        lastDepartureTrigger = trigger
        cancelCountdown()
        events.append(.motionChange(isMoving: true, fix: fix))
    }

    /// Whether the tracker counted real travel (``MotionEvidence/countedMetres``): more than the kinematic still
    /// radius since the horizon began, or since a pending countdown was armed if later, at the still speed or
    /// faster to leave a stationary period, at ``StopDetectionProfile/slowestMovementMetresPerSecond`` or
    /// faster to veto a pending stop. A displacement trigger like the kinematic "moving" (confirmed on
    /// ``StopDetectionProfile/exitConfirmationFixes`` fixes). The tracker counts only what its net-displacement
    /// gate vouches for, so this catches a walk whose Doppler speed reads slow and whose positions lag (the
    /// IPIN Samsungs: half the walking speed, many zeros; their walks read as one long stop), while 0.4 m/s
    /// pottering (under the still speed) stays a stop. The count is taken since the arm time, not over a fixed
    /// span, so the distance counted on the approach to a halt cannot veto the halt; what the tracker releases
    /// after it (its trailing window can release held increments up to half a window late) must itself reach
    /// the radius at the slowest speed of interest.
    ///
    /// A manual pause is judged on what the tracker counted only with `evidence` beyond the still radius from where the
    /// pause was armed (``armPoint``: the last fix before the tap) while it is pending, and not at all once it
    /// committed its stop: a countdown armed by a still verdict comes a window after the halt, but a tap comes at the
    /// halt, and without Doppler the tracker goes on counting the walk up to it for most of its own window (20 s
    /// walking: its window's net displacement still holds the walk, the position filter's speed decays) and then counts
    /// noise at rest now and then. Judged on the count alone, 6 of 8 taps made at the halt were overruled 16–19 s after
    /// the tap, the stop coming 10–50 s late (an API tester's walks, 2026-12-04); without the count while pending
    /// (tried first) a walk on after the tap was overruled only after 14–20 s, and at 8–10 m fixes a false stop
    /// committed 20 s into the walk (a reviewer's); with the count after the commit, the paused stop was left 2–30 s
    /// after it on 3 to 7 of 8 seeds. A walker who goes on leaves the radius within seconds; a paused stop is left by
    /// "Resume", the window's moving verdict (a window wholly after the stop's start), the stationary radius, a speed
    /// trigger or an activity reading (a walk on without "Resume" is seen 6–13 s after it starts, at 5 m fixes without
    /// Doppler, instead of 4–8 s).
    func isCounting(_ kinematic: KinematicVerdict?, now: Int64, at evidence: MotionEvidence) -> Bool {
        guard let kinematic, kinematic.radius.isFinite else { return false }
        if _slowPath(isPausedByUser) { return false }
        if _slowPath(manualPauseMilliseconds != .min) {
            guard let armPoint, distance(armPoint, evidence) > kinematic.radius else { return false }
        }
        let from = max(kinematic.since, countdownArmedAt?.millisecondsSince1970 ?? .min)
        let seconds = Double(now &- from) / 1000
        guard seconds > 0 else { return false }
        let counted = window.countedMetres(after: from)
        // Leaving a stop takes the still speed; keeping a pending stop from committing, the slowest movement of
        // interest (a walker slowed by the Samsungs' lagging positions still vetoes it).
        let pace = countdownArmedAt == nil ? profile.stillSpeedMetresPerSecond : profile.slowestMovementMetresPerSecond
        return counted > kinematic.radius && counted >= pace * seconds
    }

    /// Emits a heartbeat when ``StopDetectionProfile/heartbeatIntervalSeconds`` have passed since the last one.
    /// A time before the last heartbeat restarts the interval from it: one ``advance(to:)`` with a wrong clock
    /// (9999) would otherwise silence the heartbeat for the rest of the session.
    mutating func heartbeat(now: Int64, _ events: inout [MotionEvent]) {
        guard let interval = profile.heartbeatIntervalSeconds else { return }
        guard let last = lastHeartbeatMilliseconds, last <= now else {
            lastHeartbeatMilliseconds = now
            return
        }
        if Double(now &- last) / 1000 >= interval {
            lastHeartbeatMilliseconds = now
            events.append(.heartbeat(fix: lastEvidence))
        }
    }
}

/// Running sums of a stop's fixes in metres around its first fix: centre, RMS radius, count, time span.
struct StopAccumulator: Sendable, BitwiseCopyable {
    var reference: Offsets
    var startMilliseconds: Int64
    var endMilliseconds: Int64
    var sumEast = 0.0
    var sumNorth = 0.0
    var sumSquares = 0.0
    var count = 0
    /// The time of the last evidence a committed stop did not take (a trigger not yet confirmed); `Int64.min`
    /// when none. ``StopDetector/withoutDeparture(_:)`` removes only fixes after it, all of which the stop took.
    var heldOutMilliseconds = Int64.min
    /// The silences longer than a gap before fixes the stop took, seconds (``StopRecord/unobservedSeconds``).
    var unobservedSeconds = 0.0
    /// The silences before fixes held out (``heldOutMilliseconds``), seconds: unobserved once the stop takes a fix
    /// after them (the departure they began was not confirmed); a reviewer's point, they were lost.
    var heldOutSilenceSeconds = 0.0

    init(latitude: Double, longitude: Double, milliseconds: Int64) {
        reference = Offsets(latitude: latitude, longitude: longitude)
        startMilliseconds = milliseconds
        endMilliseconds = milliseconds
    }

    mutating func add(latitude: Double, longitude: Double, milliseconds: Int64) {
        let m = reference.metres(latitude: latitude, longitude: longitude)
        sumEast += m.east
        sumNorth += m.north
        sumSquares += m.east * m.east + m.north * m.north
        count += 1
        endMilliseconds = max(endMilliseconds, milliseconds)
    }

    /// Takes back a fix ``add(latitude:longitude:milliseconds:)`` took (the end is set by the caller).
    mutating func remove(latitude: Double, longitude: Double) {
        let m = reference.metres(latitude: latitude, longitude: longitude)
        sumEast -= m.east
        sumNorth -= m.north
        sumSquares -= m.east * m.east + m.north * m.north
        count -= 1
    }

    /// Takes evidence `e`, and the silence before it (seconds; 0 when none longer than a gap) as unobserved.
    mutating func add(_ e: MotionEvidence, afterSilenceOf silenceSeconds: Double = 0) {
        add(latitude: e.latitude, longitude: e.longitude, milliseconds: e.timestamp.millisecondsSince1970)
        unobservedSeconds += silenceSeconds + heldOutSilenceSeconds
        heldOutSilenceSeconds = 0
    }

    /// Holds out evidence at `milliseconds` (a departure trigger not yet confirmed) that came after a silence of
    /// `silenceSeconds` (0: none longer than a gap).
    mutating func holdOut(at milliseconds: Int64, afterSilenceOf silenceSeconds: Double) {
        heldOutMilliseconds = milliseconds
        heldOutSilenceSeconds += silenceSeconds
    }

    var record: StopRecord? {
        guard count > 0 else { return nil }
        let k = Double(count)
        let me = sumEast / k, mn = sumNorth / k
        let centre = reference.point(east: me, north: mn)
        let variance = max(0, sumSquares / k - me * me - mn * mn)
        return StopRecord(
            start: Timestamp(millisecondsSince1970: startMilliseconds),
            end: Timestamp(millisecondsSince1970: endMilliseconds), latitude: centre.latitude,
            longitude: centre.longitude, radiusMetres: variance.squareRoot(), fixes: count,
            unobservedSeconds: min(unobservedSeconds, Double(endMilliseconds - startMilliseconds) / 1000))
    }
}

/// A receiver's last five steps between fixes and their lower median (``StopDetector/typicalStepSeconds``): a
/// fixed ring, no allocation.
struct StepRhythm: Sendable, BitwiseCopyable {
    /// The longest step that belongs to a rhythm, seconds: 100 (three such steps fill the longest window,
    /// ``MotionWindowLimits/longestHorizonSeconds``); a longer one is a silence and is not recorded.
    static let slowestCadenceSeconds = MotionWindowLimits.longestHorizonSeconds / StopDetector.sparseSteps
    /// The steps, seconds (∞ in a slot not yet written).
    var steps: (Double, Double, Double, Double, Double) = (.infinity, .infinity, .infinity, .infinity, .infinity)
    /// The slot the next step goes to, and how many are written (at most 5).
    var next = 0, count = 0
    /// The lower median of the steps written, seconds; 0 before any.
    private(set) var typical = 0.0

    /// Records a step (seconds): one longer than ``slowestCadenceSeconds`` or not positive is left out.
    mutating func add(_ seconds: Double) {
        guard seconds > 0, seconds <= StepRhythm.slowestCadenceSeconds else { return }
        switch next {
        case 0: steps.0 = seconds
        case 1: steps.1 = seconds
        case 2: steps.2 = seconds
        case 3: steps.3 = seconds
        default: steps.4 = seconds
        }
        next = next == 4 ? 0 : next + 1
        count = min(count + 1, 5)
        // A sorting network of five (unwritten slots are ∞ and sort last); the lower median of the written ones.
        var (a, b, c, d, e) = steps
        func order(_ x: inout Double, _ y: inout Double) { if y < x { swap(&x, &y) } }
        order(&a, &b); order(&d, &e); order(&c, &e); order(&c, &d); order(&b, &e)
        order(&a, &d); order(&a, &c); order(&b, &d); order(&b, &c)
        switch (count - 1) / 2 {
        case 0: typical = a
        case 1: typical = b
        default: typical = c
        }
    }
}
