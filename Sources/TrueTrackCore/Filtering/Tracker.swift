/// Turns a stream of fixes into filtered positions and an honest distance, one decision per fix.
///
/// ## Pipeline (one pass per fix, no allocation)
/// 1. **Validity and ordering**: non-finite or out-of-range coordinates → ``RejectionReason/invalid``; the
///    same time and position as the previous fix → ``RejectionReason/duplicate``; not newer than the last
///    accepted fix → ``RejectionReason/outOfOrder`` (so dt > 0 from here on and nothing divides by zero),
///    unless ``TrackingProfile/rejectionsBeforeReanchor`` fixes, in order among themselves with none accepted
///    between them, are all at least ``TrackingProfile/clockJumpSeconds`` older (or lie inside a long forward
///    jump shortly after it: ``isInsideForwardJump(_:latitude:longitude:)``): then the last accepted time was
///    wrong (a fix dated 9999, or an hour ahead) and the tracker starts again from the last of them.
/// 2. **Accuracy gate** (``AccuracyGate``).
/// 3. **Speed gate** (``SpeedGate``): Doppler speed when present, else derived; above the ceiling →
///    ``RejectionReason/speed``.
/// 4. **Outlier gate**: the normalised innovation against the filter's prediction above
///    ``TrackingProfile/outlierChiSquare`` → ``RejectionReason/outlier``. The
///    ``TrackingProfile/rejectionsBeforeReanchor``-th consecutive outlier (or derived-speed) rejection
///    re-anchors the filter at that fix instead: several fixes agreeing with each other and not with the
///    filter mean the device really is there (tunnel exit, relocation). A rejected fix that does not agree
///    with the previous one of the run (scattered multipath) starts a new run.
/// 5. **Kalman filter** (``ConstantVelocityFilter``) in a local metre plane: position update with the
///    per-axis variance of the reported accuracy (σ = accuracy / 1.50959, ``MeasurementNoise``) scaled by the
///    white-noise share the innovations show (``MeasurementNoiseScale``); a Doppler velocity update when the
///    fix has speed and course and the Doppler speed is trusted; a reset after
///    ``TrackingProfile/filterResetGapSeconds``.
/// 6. **Speed choice** (``DopplerCheck``): the Doppler speed when trusted, else the filter's speed (a reading above
///    the deadband is believed when the position filter runs far ahead of it:
///    ``DopplerCheck/filterFollowsAJump(positionSpeedMetresPerSecond:reading:profile:)``).
/// 7. **Distance** (``SpeedIntegration``; a step longer than ``TrackingProfile/maximumIntegrationSeconds``
///    counts at least its chord, see "Bridging"), then the **motion-activity gate** (``MotionGate``), the
///    **net-displacement gate** (``NetDisplacementGate``; nothing is released before half a window), the
///    **vehicle latch** (``DistanceHold/vehicle``, speeds above the sustainable one held until judged), the
///    **departure hold** (``DistanceHold/departure``: without Doppler, metres released after a rest held until
///    the track is on its way, given up if it comes back; ``TrackingProfile/departureConfirmationSeconds``) and
///    the **accumulator** (``DistanceAccumulator``).
///
/// ## Bridging
/// The speed integral is clamped to ``TrackingProfile/maximumIntegrationSeconds`` per step (one reading must not
/// stand for a long silence), but a step's path is at least the straight line between its ends. So a step longer
/// than the clamp counts its chord when that is more, if the traveller kept its heading (within 45°) and pace
/// (at most 1.5 times the speed before it); and a reset gap (longer than ``TrackingProfile/filterResetGapSeconds``,
/// or 0.8 of it in a run of them, ``resetGapHysteresis``,
/// up to ``TrackingProfile/maximumBridgedGapSeconds``) counts the chord from the last filtered position to the
/// first fix after it, once the track after the gap has moved on for half a window at about the pace of either
/// side and not back along the chord, when the traveller was moving before it and nothing excludes the movement
/// (``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``, ``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``). Measured
/// (`truetrack bench`): the u-blox F9K drive −3.3 % → −0.9 % (a 40 s outage, 211 m); the GPX hike
/// `gpx-korita-zbevnica` (a fix every 11–60 s) 4,125 → 5,156 m of a 6,282 m fix path (5,437 m with chains, below); the Garmin Oregon ride
/// 19,391 → 21,372 m of 22,180 m; every 1 Hz recording with a reference unchanged (docs/ARCHITECTURE.md, 5d).
/// A step of the recording's rhythm without speed readings (a logger every 12–45 s) also counts the chord
/// between its fixes when that keeps on from the step before (turns by at most 90°), whatever the filter's
/// heading: ``sparseChordFloor(east:north:seconds:accuracy:isAccuracyAssumed:now:)``.
///
/// ## Sparse steps
/// A step longer than the clamp in the recording's own rhythm (a fleet tracker every 15–120 s) with a speed
/// reading at both ends counts the integral of its readings, where the readings describe it and the session shows
/// them in m/s (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``, ``sparseUnit``); the
/// rules above decide everywhere else. A fleet tester's urban van logged every 30 / 60 / 120 s: 13,345 / 10,621 /
/// 8,498 → 16,310 / 15,107 / 11,934 m of 17,462 (docs/ARCHITECTURE.md, "Sparse steps with readings").
///
/// ## Batches
/// ``process(batch:)`` sorts a delivered batch oldest first (stable) and processes it fix by fix: its
/// decisions are bit-identical to feeding the sorted fixes to ``process(_:)`` one at a time.
///
/// ## Restarts
/// ``checkpoint()`` captures the whole state (``TrackerCheckpoint``) and ``init(resuming:)`` brings it back,
/// so a killed process resumes exactly; ``restore(persistedTotalMetres:lastAccepted:)`` is the fallback when
/// only the total and the last fix time were kept. The tracker is `BitwiseCopyable` (plain numbers, fixed-size
/// storage, no references): that is what makes its bytes its value, and keeps the per-fix path free of
/// allocation and reference counting.
public struct Tracker: Sendable, BitwiseCopyable {
    /// The profile in force.
    public private(set) var profile: TrackingProfile
    /// The distance so far.
    @inlinable public var distance: DistanceAccumulator { @inline(__always) get { accumulator } }
    /// See ``distance``; `@usableFromInline` (like the rest of the state) so that ``process(_:)`` is `@inlinable`.
    @usableFromInline var accumulator = DistanceAccumulator()

    /// While the tracker overrules the speed readings as a placeholder (sub-deadband readings, a column of zeros,
    /// under a track that keeps going: ``ContradictedReadings``), the time of the first fix of the run that showed
    /// it (its readings, and those of every fix after it up to the last accepted one, were not believed); `nil`
    /// otherwise. A whole-track smoother leaves those readings out likewise (`WholeTrackSmoother`), and an app may
    /// tell its user that the speed column looks like a placeholder.
    @inlinable
    public var overruledSpeedReadingsSince: Timestamp? {
        isOverrulingReadings ? Timestamp(millisecondsSince1970: contradiction.startMilliseconds) : nil
    }

    /// Whether the run that overrules the readings now (``overruledSpeedReadingsSince``), or the distance it released,
    /// is provisional: the positions had agreed with those readings that the receiver stood still before it, and a
    /// receiver whose readings the session proved right (a parked one whose fixes slide away and come back) shows the
    /// same steady progress. Its distance is held until two minutes away confirm it, and given up, with
    /// ``withdrawnOverrules`` growing by one, when the track comes back.
    @inlinable
    public var isOverrulingProvisionally: Bool { isDepartureFromStillReadings }

    /// How many provisional overrules (``isOverrulingProvisionally``) were given up in the session, across session
    /// breaks: the readings were right, and a warning or a smoother that counted those fixes as overruled takes them
    /// back.
    @inlinable
    public var withdrawnOverrules: Int { stillReadingDeparturesGivenUp }

    /// The session's Doppler path over the position path it is judged against (``DopplerCheck``): about 1 for a
    /// consistent receiver, well below for one that reads slow or zero while moving, well above for a speed in
    /// another unit (3.6 for km/h). `nil` until that position path reaches
    /// ``TrackingProfile/dopplerEvidenceMetres`` (or without Doppler speeds).
    public var sessionDopplerRatio: Double? {
        let (doppler, position) = dopplerUnitEvidence
        return position >= profile.dopplerEvidenceMetres ? doppler / position : nil
    }

    /// The per-axis standard deviation (metres) of the fix-to-fix (white) part of the position error, measured
    /// from the latest fixes without speed readings taken at most ``WhiteNoiseEstimate/maximumStepSeconds``
    /// apart (``WhiteNoiseEstimate``, averaged over about ``TrackingProfile/measurementNoiseScaleFixes`` of
    /// them); `nil` until it has ``WhiteNoiseEstimate/minimumSamples`` of them.
    ///
    /// Always inlined: `process` and `stops` read it after every fix, and out of line the call copied the whole
    /// tracker (5,440 bytes) first: 7,467 → 6,410 instructions per fix in the `process-csv` benchmark, 8 % of its
    /// time. (`@inlinable` alone left it out of line in `stops`, whose loop is larger: a reviewer found the copy
    /// there with `objdump`.)
    @inlinable public var whiteNoiseSigmaMetres: Double? {
        @inline(__always) get {
            whiteNoise.samples >= WhiteNoiseEstimate.minimumSamples ? whiteNoise.varianceMetres2.squareRoot() : nil
        }
    }

    /// `course` (degrees, `fix`'s true north; NaN: none) on the plane's axes, with `fix`'s position of accuracy
    /// `accuracy` metres (see ``LocalFrame/gridCourseDegrees(_:atLatitude:longitude:accuracyMetres:)``: the identity
    /// away from the poles, NaN where a polar plane cannot turn it).
    @inlinable @inline(__always)
    func gridCourse(_ course: Double, of fix: Fix, accuracy: Double) -> Double {
        projection.gridCourseDegrees(
            course, atLatitude: fix.latitude, longitude: fix.longitude, accuracyMetres: accuracy)
    }

    /// The session's evidence the Doppler check judges the readings by (Doppler path, position path): under the
    /// integrated path (walking, driving), its chords of a window span (``chordEvidence``) once they reach
    /// ``TrackingProfile/dopplerEvidenceMetres`` and as long as the zero readings while moving
    /// (``zeroReadingsWhileMoving``), one more than counted, are at most one in ``DopplerCheck/zeroReadingShare`` of
    /// the fixes of the completed chords (so never before 50 such fixes), or, on a profile whose
    /// ``TrackingProfile/consistentChordsOutweighZeros`` (walking), whatever the zeros in runs once the chords show
    /// the readings consistent while the scattered zeros (``scatteredZeroReadings``) keep within that share
    /// (``chordsShowConsistentReadings``, see
    /// ``DopplerCheck/chordsShowConsistentReadings(sums:moments:measuredChordMetres:shownBefore:profile:)``; a
    /// walker halting every minute reads zero in each halt's first seconds, while the window still says moving):
    /// noise lengthens an integrated path, and an honest Doppler beside rough positions looked short (a tester's
    /// 1 m/s walk under 4 m of white noise +38 %; walks with halts of 10–40 s every 30–90 s +72 … +91 %). The
    /// integrated path (``sessionDopplerPath``, ``sessionPositionPath``) otherwise: the Samsung-style receivers read 0
    /// on 8–17 % of their moving fixes and about half their speed on the rest. (The unit checks keep the integrated
    /// path, ``dopplerUnitEvidence``: a winding walk's chords are shorter than its path and would read a good column
    /// as too fast.)
    @inlinable
    var judgedDopplerEvidence: SIMD2<Double> {
        @inline(__always) get {
            judgesByChordEvidence ? chordEvidence : SIMD2(sessionDopplerPath, sessionPositionPath)
        }
    }

    /// The trailing window's span, milliseconds (``TrackingProfile/windowSeconds``).
    @inlinable
    var windowSpanMilliseconds: Int64 { @inline(__always) get { profile.windowMilliseconds } }

    /// Holds a (nearly) zero reading while moving (see ``judgedDopplerEvidence``) until a window span after the first
    /// held one, when ``settleHeldZeroReadings(isMoving:now:)`` counts them if the receiver still moves: an honest
    /// receiver's zeros as it halts come while the window still says moving, and a walk with 30 s stops every 150 s
    /// under 4 m of noise was judged by its integrated path (81 zeros in 1,000 chord fixes, +62 %).
    @usableFromInline @inline(never)
    mutating func holdZeroReadingWhileMoving(now: Int64) {
        if zerosHeldInRun == 0 {
            firstHeldZeroFixCount = fixCount
            // Where the run stands (see `endReadingRunAtSpeed`), before this fix's step: its step is in the path
            // already (taken out again), its increment not yet in the sums.
            let seconds = min(Double(now &- lastAcceptedMilliseconds) / 1000, profile.maximumIntegrationSeconds)
            readingRunStartMilliseconds = lastAcceptedMilliseconds
            readingRunStart = SIMD2(filter.east, filter.north)
            readingRunStartPath = positionPath - positionFilter.speedMetresPerSecond * max(seconds, 0)
            readingRunStartCounted = candidates.x + candidates.y
            readingRunSpeedBefore = lastReading
            readingRunFollowsGap = seconds >= profile.maximumIntegrationSeconds
            readingRunStartDopplerPath = dopplerPath
        }
        zerosHeldInRun &+= 1
        if heldZeroReadings == 0 {
            heldZeroReadingsDeadlineMilliseconds = now &+ windowSpanMilliseconds
        }
        heldZeroReadings &+= 1
    }

    /// Counts the held zero readings (``holdZeroReadingWhileMoving(now:)``) if the window a span after the first
    /// says moving (the receiver kept going: a Samsung-style column of zeros under a walk), drops them if it says
    /// still (it halted).
    @usableFromInline @inline(never)
    mutating func settleHeldZeroReadings(isMoving: Bool, now: Int64) {
        // Not while the window is too short to judge, just after an anchor: its verdict is "still" by rule, and
        // zeros held before a gap were dropped whether the walk went on or not (a reviewer's). (Asked here, out of
        // line: on the per-fix path the window's span kept alive for it cost the tracker benchmark 20 instructions
        // per fix.)
        guard let start = window.oldest(), now - start.milliseconds >= windowSpanMilliseconds / 2 else {
            return
        }
        if isMoving {
            zeroReadingsWhileMoving &+= heldZeroReadings
            updateJudgedEvidence()
        }
        dropHeldZeroReadings()
    }

    /// Called at a reading above the deadband while zeros are held (``zerosHeldInRun``): at a reading of motion
    /// (``TrackingProfile/motionReadingFactor`` times the deadband) the held zeros read while moving are scattered
    /// (``scatteredZeroReadings``) when fewer than ``TrackingProfile/haltRunLength`` fixes passed from the first of
    /// them to the one before: a dropout between
    /// readings of motion, not a halt. A reading between the deadband and motion counts into the run, and once the
    /// run can no longer be short its zeros are a halt's and let go. (From the first held zero, not from the last
    /// reading of motion: kept per fix, that reading's count cost the tracker benchmark 15 instructions per fix, and
    /// a test of every reading of motion 10.) Zeros that were no readings (iOS −1) before the first held one are not
    /// counted into the run: 0, −1, −1 before motion is a halt's, −1, −1, 0 a dropout's.
    @usableFromInline @inline(never)
    mutating func endZeroReadingRun(reading: Double, now: Int64) {
        guard reading >= TrackingProfile.motionReadingFactor * profile.deadbandMetresPerSecond else {
            // A reading between the deadband and motion counts into the run; once even the next fix could not leave
            // it short, it is a halt's (a reviewer's: left open, the run took every later zero for a halt's).
            if fixCount - firstHeldZeroFixCount + 2 >= Double(TrackingProfile.haltRunLength) { zerosHeldInRun = 0 }
            return
        }
        if fixCount - firstHeldZeroFixCount + 1 >= Double(TrackingProfile.haltRunLength) {
            endReadingRunAtSpeed(reading: reading, now: now)
        } else if readingRunFollowsGap {
            // (Neither a dropout nor scattered: see `readingRunFollowsGap`.)
        } else if isDropoutRun(endedBy: reading, now: now) {
            takeDropoutRun(endedBy: reading, now: now)
        } else {
            scatteredZeroReadings &+= zerosHeldInRun
            updateJudgedEvidence()
        }
        zerosHeldInRun = 0
    }

    /// At a reading above the deadband that ends a run of ``TrackingProfile/haltRunLength`` or more zero readings
    /// held while moving (``holdZeroReadingWhileMoving(now:)``): when the filtered track went on at speed through
    /// the run, its readings were no halt's but a receiver's that dropped out (or a logger writing 0 while the phone
    /// had no speed), and what the run left uncounted of the position filter's path, at most the faster of the
    /// readings on either side of the run times its time, joins the held candidates, released as the gates release
    /// the fixes after it.
    ///
    /// At speed means, with no anchor and no outlier refused since the fix before the run: the chord from the run's
    /// first fix to this one is at least ``ContradictedReadings/chordThresholds`` net-displacement thresholds long,
    /// at least ``readingRunChordSpeedMetresPerSecond`` over the run's time, and at least half of what the faster of
    /// the readings on either side of the run covers in that time. A halt inside the run takes time the chord does
    /// not cover (a dropout at 13 m/s into a 45 s halt: 0.5 × 13 m/s × 55 s against a chord of about 130 m), and a
    /// halt's fixes that slide with multipath 50–70 m over a minute move about 1 m/s (an adversarial tester's slides
    /// through the restart counted 45–92 m each with neither test). ``ContradictedReadings`` overrules such a run only
    /// after two window spans of steady progress (20 s driving, from the first window that reads still: 30 s into
    /// the run), so a run of 10–30 s at speed counted nothing: `tester50`'s `GD2_drive` (runs of 20–30 s of zeros
    /// every 40–150 s) read −22 … −25 %. Walking never meets the chord at a walker's pace.
    @usableFromInline @inline(never)
    mutating func endReadingRunAtSpeed(reading: Double, now: Int64) {
        let start = readingRunStartMilliseconds
        readingRunStartMilliseconds = .min
        guard start != .min, start > lastAnchorMilliseconds, lastRejectedMilliseconds < start else { return }
        let seconds = Double(now &- start) / 1000
        let d = SIMD2(filter.east, filter.north) - readingRunStart
        let chord = (d * d).sum().squareRoot()
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: lastAccuracy), profile: profile)
        // (NaN before: a run after a fix without reading is judged by the reading ending it.)
        let speed = readingRunSpeedBefore > reading ? readingRunSpeedBefore : reading
        guard chord >= ContradictedReadings.chordThresholds * threshold,
            chord >= Self.readingRunChordSpeedMetresPerSecond * seconds, chord >= 0.5 * speed * seconds
        else { return }
        // The run's path (from the fix before it to its last fix: this fix's step is not in it yet), at most what
        // the faster reading covers over that time: the position filter's path lengthens with the fixes' noise
        // (a drive at 8 m/s under 5 m of white noise at 1 Hz, runs of 10–20 s: +2.6 → +2.1 % with the cap).
        fillReadingRun(from: start, atMetresPerSecond: speed)
    }

    /// Adds to the held candidates what the run of zero readings that began after the fix at `start` (ms) left
    /// uncounted of the position filter's path to its last fix (this fix's step is not in it yet), at most `speed`
    /// times its seconds (see ``endReadingRunAtSpeed(reading:now:)``, ``takeDropoutRun(endedBy:now:)``).
    @inlinable @inline(__always)
    mutating func fillReadingRun(from start: Int64, atMetresPerSecond speed: Double) {
        let runSeconds = Double(lastAcceptedMilliseconds &- start) / 1000
        let counted = candidates.x + candidates.y - readingRunStartCounted
        candidates.y += max(0, min(positionPath - readingRunStartPath, speed * runSeconds) - counted)
    }

    /// The slower of the readings on either side of the run of zero readings ended by `reading` (m/s); after a fix
    /// without a reading (``readingRunSpeedBefore`` NaN), `reading` alone: −1, 0, motion is a dropout's, as in
    /// ``endZeroReadingRun(reading:now:)``.
    @inlinable @inline(__always)
    func slowerReadingAroundRun(endedBy reading: Double) -> Double {
        readingRunSpeedBefore < reading ? readingRunSpeedBefore : reading
    }

    /// Whether the run of zero readings held while moving (``holdZeroReadingWhileMoving(now:)``), shorter than
    /// ``TrackingProfile/haltRunLength`` fixes and ended by `reading` (a reading of motion) at `now`, is a dropout: its
    /// fixes span at most ``dropoutRunMaximumMilliseconds`` from the fix before it, that fix's reading is one of motion
    /// too or none (``slowerReadingAroundRun(endedBy:)``; iOS's −1, 0 before motion is a dropout's: an adversarial
    /// tester's runs mixing them 16.4 % → 3.4 %), and this fix comes within as long of its last zero.
    /// ``endZeroReadingRun(reading:now:)`` asks (not after a step of ``TrackingProfile/maximumIntegrationSeconds`` or
    /// more, ``readingRunFollowsGap``) and then takes it (``takeDropoutRun(endedBy:now:)``) instead of counting it as
    /// scattered zeros.
    ///
    /// Why: a receiver whose readings drop to zero for a fix or two between readings of motion (an Android logger
    /// writing 0 where a fix had no speed) is no receiver that reads short, and its zeros are no halt. Taken for
    /// scattered zeros, they kept honest readings under 4 m of white noise judged by the noise-lengthened integrated
    /// path, and the position filter's speed counted: `tester50`'s `GS_samsung_walk` +38 … +39 %. Not runs of three
    /// at 1 Hz, though they are a halt's once the readings are trusted, and count nothing (an adversarial tester's
    /// walks under 0.5–2 m of noise with dropouts of 1–3 fixes, 17 of 30 worse, to −6 %): taken for dropouts, the
    /// Columbus V-900 slow walk (`gpx-devices/24173415.gpx`, readings in threes of motion and zero) read 373.9 m,
    /// over its naive path (361.8 m; 351.6 m before the rule, 359.9 m with it). (Inlined: an out-of-line non-mutating
    /// method takes the tracker by value.)
    @inlinable @inline(__always)
    func isDropoutRun(endedBy reading: Double, now: Int64) -> Bool {
        let start = readingRunStartMilliseconds
        return start != .min
            && slowerReadingAroundRun(endedBy: reading)
                >= TrackingProfile.motionReadingFactor * profile.deadbandMetresPerSecond
            && lastAcceptedMilliseconds &- start <= Self.dropoutRunMaximumMilliseconds
            && now &- lastAcceptedMilliseconds <= Self.dropoutRunMaximumMilliseconds
    }

    /// Takes the run of zero readings under way, ended by `reading` at `now`, as a dropout
    /// (``isDropoutRun(endedBy:now:)``): its seconds inside the chord under way, and the readings' path over them, are
    /// no readings for the chord's evidence (``chordDropoutSeconds``, ``chordDropoutDopplerMetres``,
    /// ``chordDopplerPath(now:readingDropouts:)``), and what it left uncounted of the position filter's path, at most
    /// the slower of the readings on either side times its seconds, joins the held candidates. Not where its zeros were
    /// dropouts already (``readsShortWithItsZeros``: the position filter's speed stood in for them), nor across an
    /// anchor. The price: a real halt of 1–3 s between two readings of motion is filled too (a reviewer's walks with
    /// 2 s halts every 60 s under 3 m of noise +2.8 … +3.2 %, +0.4 … +0.9 % without the fill, +3.4 … +4.8 % before the
    /// rule).
    @usableFromInline
    mutating func takeDropoutRun(endedBy reading: Double, now: Int64) {
        let start = readingRunStartMilliseconds
        readingRunStartMilliseconds = .min
        if chordStartMilliseconds != .min {
            let inChord = Double(lastAcceptedMilliseconds &- max(start, chordStartMilliseconds)) / 1000
            if inChord > 0 {
                // (With its readings' path: a reading under motion inside the run, 0.55 m/s, say, is no reading
                // either. This fix's step is in the Doppler path already.)
                let step = min(Double(now &- lastAcceptedMilliseconds) / 1000, profile.maximumIntegrationSeconds)
                chordDropoutSeconds += inChord
                chordDropoutDopplerMetres += max(
                    0, dopplerPath - reading * step - max(readingRunStartDopplerPath, chordStartDopplerPath))
            }
        }
        // (A fix refused inside the run does not matter: the position filter's path holds accepted fixes only.)
        guard start > lastAnchorMilliseconds, !readsShortWithItsZeros, !isOverrulingReadings else { return }
        fillReadingRun(from: start, atMetresPerSecond: slowerReadingAroundRun(endedBy: reading))
    }

    /// The longest run of zero readings ``isDropoutRun(endedBy:now:)`` takes for a dropout (from the fix before its
    /// first zero to its last), and the longest step from its last zero to the reading of motion that ends it: 3 s.
    /// Why (chosen, not measured against other limits): a walker seldom halts and sets off again within 3 s, and such
    /// a halt, filled, adds at most the slower reading's 3 s, while zeros of 3–15 s from loggers every 3–5 s may well
    /// be halts. At 2–5 Hz the fix count (fewer than three) keeps a run under 1.5 s: taking any run of up to 3 s
    /// filled real halts of 1–3 s there (an adversarial tester's walks +0.4 → +2.3 %).
    @usableFromInline static let dropoutRunMaximumMilliseconds: Int64 = 3000

    /// The slowest chord over a run of zero readings that ``endReadingRunAtSpeed(reading:now:)`` takes for travel:
    /// 3 m/s. Why: a halted vehicle's fixes that slide with multipath move about 1 m/s (50–70 m over a minute); a
    /// vehicle whose readings drop out at a crawl loses little.
    @usableFromInline static let readingRunChordSpeedMetresPerSecond = 3.0

    /// Drops the held zero readings (``holdZeroReadingWhileMoving(now:)``) unjudged: at a clock restart (their
    /// deadline on the wrong clock held every later zero unsettled: a reviewer's walk stamped a day ahead for 30 s
    /// was judged by chords with 60 zeros held) and over a restored session.
    @usableFromInline
    mutating func dropHeldZeroReadings() {
        heldZeroReadings = 0
        heldZeroReadingsDeadlineMilliseconds = .max
    }

    /// Ends the chord under way when it spans a window (adding it to ``chordEvidence``), or starts one (none under
    /// way, or a step longer than the integration limit: the Doppler path counts at most that long a step).
    @usableFromInline @inline(never)
    mutating func advanceChordEvidence(now: Int64, seconds dt: Double) {
        if chordStartMilliseconds != .min, dt <= profile.maximumIntegrationSeconds {
            // The chord freed of the position filter's noise at its two ends (independent: their per-axis
            // variances, twice for the two axes): a noisy chord is on average longer than the true one, by
            // √(c² + 2(σ₀² + σ₁²)), and an honest slow walk's readings looked short of it (0.5 m/s under 4 m of
            // white noise 0.90–0.95 of its chords, 1.07–1.15 of these). The variances are the filter's, from the
            // stated accuracy: fixes that scatter more than they state are corrected too little (8 m per axis
            // stated as 6 m: 0.86–0.93).
            let ce = positionFilter.east - chordStartEast, cn = positionFilter.north - chordStartNorth
            let squared = ce * ce + cn * cn - 2 * (positionFilter.positionVariance + chordStartPositionVariance)
            if let chordDoppler = chordDopplerPath(now: now) {
                let chord = max(0, squared).squareRoot()
                chordEvidence += SIMD2(chordDoppler, chord)
                // (Read as zeros, the dropouts' seconds leave fewer seconds unread than read as none, so the chord
                // has a path that way too whenever it has one this way: the fallback is never taken.)
                if chordDropoutSeconds > 0 {
                    chordDropoutFillMetres +=
                        chordDoppler - (chordDopplerPath(now: now, readingDropouts: true) ?? chordDoppler)
                }
                chordMoments += SIMD4(chordDoppler * chordDoppler, chordDoppler * chord, chord * chord, 1)
                measuredChordMetres += (ce * ce + cn * cn).squareRoot()
                chordFixes += fixCount - chordStartFixCount
                if !chordsShownOnce, profile.consistentChordsOutweighZeros {
                    chordsShownOnce = chordsShowConsistentReadings(shownBefore: false)
                }
                updateJudgedEvidence()
            }
        }
        startChord(now: now)
    }

    /// Sets ``judgesByChordEvidence`` (see ``judgedDopplerEvidence``).
    @usableFromInline
    mutating func updateJudgedEvidence() {
        /// Whether `zeros`, one more than counted, are at most one in ``DopplerCheck/zeroReadingShare`` chord fixes.
        func withinShare(_ zeros: Int) -> Bool { Double(zeros + 1) * DopplerCheck.zeroReadingShare <= chordFixes }
        judgesByChordEvidence =
            !profile.judgesDopplerByChords
            && chordEvidence.y >= profile.dopplerEvidenceMetres
            && (withinShare(zeroReadingsWhileMoving)
                // (The chords' verdict last: computed only where the zeros' share fails.)
                || (profile.consistentChordsOutweighZeros && withinShare(scatteredZeroReadings)
                    && chordsShowConsistentReadings))
    }

    /// Whether the chords so far show the readings consistent beyond their scatter under the current profile (see
    /// ``DopplerCheck/chordsShowConsistentReadings(sums:moments:measuredChordMetres:shownBefore:profile:)`` and
    /// ``judgedDopplerEvidence``), the point ratio asked only until they first have at a chord's end
    /// (``chordsShownOnce``). Computed where it is needed, not kept: where the zeros' share fails
    /// (``updateJudgedEvidence()``), and at a chord's end until first shown (kept at every chord's end, the verdict
    /// cost the tracker benchmark 0.6 M fixes/s).
    /// (Inlined, as is the function below: an out-of-line non-mutating method takes the tracker by value, and its
    /// callers copied all 4.8 KB of it per call, 7 instructions per fix on the simulated walk.)
    @inlinable
    var chordsShowConsistentReadings: Bool {
        @inline(__always) get { chordsShowConsistentReadings(shownBefore: chordsShownOnce) }
    }

    /// ``chordsShowConsistentReadings``, the point ratio asked unless `shownBefore`.
    @inlinable @inline(__always)
    func chordsShowConsistentReadings(shownBefore: Bool) -> Bool {
        DopplerCheck.chordsShowConsistentReadings(
            sums: chordEvidence, moments: chordMoments, measuredChordMetres: measuredChordMetres,
            shownBefore: shownBefore, profile: profile)
    }

    /// The session's Doppler path and the position path its unit is judged against: the Doppler check's session
    /// evidence, or under chords its fix-by-fix path (``unitEvidence``).
    @inlinable
    var dopplerUnitEvidence: (doppler: Double, position: Double) {
        @inline(__always) get {
            profile.judgesDopplerByChords
                ? (unitEvidence.x, unitEvidence.y) : (sessionDopplerPath, sessionPositionPath)
        }
    }

    /// Whether a fix at `now` whose reading the position filter's speed runs far ahead of
    /// (``DopplerCheck/filterFollowsAJump(positionSpeedMetresPerSecond:reading:profile:)``) belongs to a column that
    /// reads slow all along, not to a jump: once the session's evidence is in, its Doppler path covers less than
    /// 1 / ``DopplerCheck/jumpSpeedFactor`` of its position path (``dopplerUnitEvidence``), and such fixes have
    /// followed each other, accepted fix after accepted fix, for ``slowColumnRunSeconds``. Then (and for the rest
    /// of the session: ``readsSlowColumn``) the reading is not believed, and the position filter's speed counts as
    /// for any reading not trusted.
    ///
    /// Why: a drive whose m/s speeds sat in a column named `speed_kmh` (read as 0.28 × the speed) had every fix
    /// taken for the filter "following a jump" (25 m/s of filter speed against 2 × 7 + 3: the reading believed)
    /// and counted 11.7 of 40.8 km without a word, while columns at 0.5–0.7 × were distrusted and read right (a
    /// tester's sweep: 0.2 × 8.3 km, 0.4 × 19.9 km; m/s in a column named `speed_mph`, 0.45 ×, 38.0 km). A jump the
    /// filter follows lasts a few fixes; a slow column at speed, every fix. The session's ratio alone does not tell
    /// them apart: a van whose fix every minute lies 210 m off has half its position path in those jumps (ratio
    /// 0.46); and scaling the reading by the ratio let walkers' jumps count (on foot the ratio is the positions'
    /// noise: a reviewer's degraded walks +4 %). Out of line: only such fixes ask.
    ///
    /// When the run shows it, what the run counted short of the position filter's path along it (`stepMetres`, this
    /// fix's step on that path, is the fix's own to count) joins the held candidates, released by this or a later
    /// moving window: the run read at the slow readings (a minute or more) cost a 15 km drive at 0.28 × 7 %.
    @usableFromInline @inline(never)
    mutating func readsSlowAllAlong(now: Int64, stepMetres: Double) -> Bool {
        // (Shown slow by the speed check's spans too: its chain's shortfall is counted there, not again here.)
        if readsSlowColumn || speedReadsWrong { return true }
        // Everything counted so far: the total, and what the window still holds (sparse steps go to the total
        // directly, and were counted twice as a shortfall: a reviewer's drive every 12 s, +719 m of 22.5 km).
        let counted = countedSoFarMetres
        // (The step into this fix is the claimed one: a run starts at the accepted fix before it.)
        if lastJumpClaimMilliseconds == .min || lastJumpClaimMilliseconds != lastAcceptedMilliseconds {
            jumpClaimRunStartMilliseconds = lastAcceptedMilliseconds
            jumpClaimRunStart = SIMD2(positionPath - stepMetres, counted)
        }
        lastJumpClaimMilliseconds = now
        let evidence = dopplerUnitEvidence
        readsSlowColumn =
            evidence.position >= profile.dopplerEvidenceMetres
            && DopplerCheck.jumpSpeedFactor * evidence.doppler < evidence.position
            && Double(now) - Double(jumpClaimRunStartMilliseconds) >= Self.slowColumnRunSeconds * 1000
        if readsSlowColumn {
            let path = positionPath - stepMetres - jumpClaimRunStart.x
            candidates.y += max(0, path - (counted - jumpClaimRunStart.y))
        }
        return readsSlowColumn
    }

    /// Everything counted so far, metres: the total, and what the window still holds (held candidates not yet
    /// committed). What a shortfall is measured against (``readsSlowAllAlong(now:stepMetres:)``, the speed check's
    /// chain in ``judgeSpeedSpan(east:north:accuracy:now:reanchorReading:)``).
    @inlinable
    var countedSoFarMetres: Double {
        accumulator.totalMetres + (candidates.x + candidates.y) - (committed.x + committed.y)
    }

    /// How long (seconds) fixes whose readings the position filter runs far ahead of must follow each other for the
    /// column to read slow all along (``readsSlowAllAlong(now:stepMetres:)``): 60. Why: a jump the filter follows lasts a few
    /// fixes (a van's 210 m multipath fix at 10 s: two steps, out and back), a drive under a column at 0.2–0.45 × its
    /// speed minutes at a time; the first minute counts the readings.
    public static let slowColumnRunSeconds = 60.0

    /// Fewer fixes than this in the trailing window make it sparse (walking's 20 s window: a fix every 3 s or
    /// more): 8. In a sparse window whose readings average under the deadband and whose net displacement is within
    /// the noise, from a column whose readings average under the deadband over the whole session (a still device's),
    /// a run of untrusted sub-deadband readings stands in nothing for them
    /// (``sparseWindowSaysNothingOfMotion(netMetres:thresholdMetres:)``).
    ///
    /// Why: a degraded receiver's walk reads 0.2–0.5 m/s (the IPIN Samsungs), so a window whose readings average
    /// 0.15 m/s (walking's motion speed) moves. Over 20 readings (1 Hz) a still phone's 0–0.3 m/s never averages
    /// that; over four (a fix every 5 s) it does now and then: a stops tester's phone on a desk (σ 4 m, readings
    /// |N(0, 0.1)| m/s) read "moving" in ~1 % of its windows, distrusted its readings (its position filter's noise
    /// path, 1–2.7 m/s, against them) and the filter's noise stood in for them: 1,014 m and 24 stops in 4 h at 5 s,
    /// 937 m at 10 s (0 m at 1 and 2 s); now 95 and 47 m. A walker's 1.4 m/s covers 28 m of net displacement in the
    /// window, beyond the threshold at 12 m fixes but not at 20–25 m (a reviewer's generated walkers at 5 s, whose
    /// dropouts are runs of zeros: 19 of 72 lost more, up to −8.9 → −21.3 %, before the session condition; 4 of 72
    /// now, by 1–3 points). What is left: the first two readings after one at the deadband, which start no run
    /// (docs/ARCHITECTURE.md, "Sparse windows of sub-deadband readings").
    public static let sparseWindowFixes = 8.0

    /// Whether the window is sparse and neither its readings nor its net displacement say it moves (see
    /// ``sparseWindowFixes``): fewer than that many fixes, readings over half the window whose mean is under the
    /// deadband, as is the session's, and a net displacement (`netMetres`) within the threshold raised to the filtered
    /// track's noise floor (at the window's mean accuracy), as where no readings decide. Called from
    /// ``dropoutBound(_:reading:droppedOut:isTrusted:isMoving:netMetres:thresholdMetres:)`` for a window of few
    /// samples only (on the per-fix path, or at the window's release, any such test cost the tracker benchmark
    /// 14 % of its speed: code layout).
    @usableFromInline
    mutating func sparseWindowSaysNothingOfMotion(netMetres: Double, thresholdMetres: Double) -> Bool {
        guard let start = window.oldest() else { return false }
        let fixes = fixCount - start.fixCount
        let seconds = dopplerSeconds - start.dopplerSeconds
        guard fixes > 0, fixes < Tracker.sparseWindowFixes, seconds >= profile.windowSeconds / 2,
            dopplerPath - start.dopplerPath < profile.deadbandMetresPerSecond * seconds,
            dopplerPath < profile.deadbandMetresPerSecond * dopplerSeconds
        else { return false }
        let variance =
            MeasurementNoise.perAxisVariance(radius68: windowMeanAccuracy(orElse: lastAccuracy)) * noise.scale
        let threshold = raisedToNoiseFloor(thresholdMetres, filterNoiseVariance: variance)
        return !NetDisplacementGate.isMoving(netDisplacement: netMetres, threshold: threshold)
    }

    /// Whether the session shows the readings to be in another unit: ``DopplerCheck`` on
    /// ``dopplerUnitEvidence``.
    @inlinable
    var readsInAnotherUnit: Bool {
        @inline(__always) get {
            let evidence = dopplerUnitEvidence
            return DopplerCheck.readsTooFast(
                sessionDopplerPathMetres: evidence.doppler, sessionPositionPathMetres: evidence.position,
                profile: profile)
        }
    }

    /// The local metre plane the filters work in (see ``LocalFrame``), re-anchored at the filtered position
    /// whenever the state leaves ``LocalFrame/reanchoringRadiusMetres``.
    @usableFromInline var projection = LocalFrame.tracking(anchor: (0, 0))
    @usableFromInline var filter = ConstantVelocityFilter(east: 0, north: 0, positionVariance: 1, velocityVariance: 1)
    /// A second filter fed positions only: its speed is the Doppler check's reference and the distance's
    /// fallback speed, independent of the Doppler speed it judges.
    @usableFromInline var positionFilter = ConstantVelocityFilter(
        east: 0, north: 0, positionVariance: 1, velocityVariance: 1)
    @usableFromInline var hasFilter = false
    /// Time of the last accepted fix (ms since 1970).
    @usableFromInline var lastAcceptedMilliseconds: Int64 = .min
    /// The last accepted fix's raw position in the plane and accuracy.
    @usableFromInline var lastRawEast = 0.0
    @usableFromInline var lastRawNorth = 0.0
    @usableFromInline var lastAccuracy = 0.0
    /// The previous fix received (for duplicates).
    @usableFromInline var lastReceivedMilliseconds: Int64 = .min
    @usableFromInline var lastReceivedLatitude = Double.nan
    @usableFromInline var lastReceivedLongitude = Double.nan
    @usableFromInline var consecutiveRejections = 0
    /// What trusted readings counted across the last anchor's relocation (``readingsAcrossRelocation(_:east:north:accuracy:now:)``;
    /// 0 for any other anchor), for its decision.
    @usableFromInline var relocationCountedMetres = 0.0
    /// The last rejected fix of the current run (plane metres, per-axis variance, time): a rejection counts
    /// towards a re-anchor only if it agrees with it (see ``countsTowardsReanchor(east:north:variance:now:)``).
    @usableFromInline var lastRejectedEast = 0.0, lastRejectedNorth = 0.0, lastRejectedVariance = 0.0
    @usableFromInline var lastRejectedMilliseconds: Int64 = .min
    /// The run of fixes far older than the last accepted one (see ``TrackingProfile/clockJumpSeconds``).
    @usableFromInline var staleRun = ClockJumpRun()
    /// Running sums (see ``TrailingWindow``). In this order: the optimiser stores the Doppler pair
    /// (``dopplerPath``, ``dopplerSeconds``) with one 16-byte store and the position path with an 8-byte one; with
    /// the position path after the pair, the window's differences read (``dopplerSeconds``, ``positionPath``) with one
    /// 16-byte load across both stores a few dozen instructions later, which waited for them to leave the store buffer
    /// (the tracker benchmark 20.1 → 22.0 M fixes/s with this order, 2026-12-07).
    @usableFromInline var positionPath = 0.0
    @usableFromInline var dopplerPath = 0.0
    @usableFromInline var dopplerSeconds = 0.0
    /// The candidate sums (Doppler, filtered): every increment the speed integral produced, before the
    /// net-displacement gate decides. One 16-byte value, always written whole, like ``committed``: the
    /// optimiser reads the pair with one 16-byte load, and an 8-byte store into one half just before made that
    /// load wait on store forwarding (12 % of the tracker benchmark's samples under `perf`, 2026-12-01). `.x` is
    /// the Doppler sum, `.y` the filtered one (read as fields: computed accessors were not inlined into
    /// `process` and copied the whole tracker per call).
    @usableFromInline var candidates = SIMD2<Double>(0, 0)
    @usableFromInline var accuracySum = 0.0
    @usableFromInline var fixCount = 0.0
    /// Candidate sums (Doppler, filtered) up to which increments have been committed or given up. One 16-byte
    /// value, always written whole: the optimiser reads the pair with one 16-byte load, which stalls on store
    /// forwarding when the two halves were written by separate 8-byte stores shortly before.
    @usableFromInline var committed = SIMD2<Double>(0, 0)
    /// Doppler and position-filter paths summed over the session while the net-displacement gate was open
    /// (the Doppler check's long-term evidence).
    @usableFromInline var sessionDopplerPath = 0.0
    @usableFromInline var sessionPositionPath = 0.0
    /// Under the profiles that judge the Doppler by its integrated path (walking, driving), the same evidence by
    /// chords of a window span, gathered beside it (Doppler path, chord): what the Doppler check judges by unless the
    /// receiver reads (nearly) zero while it travels (``zeroReadingsWhileMoving``) and the chords do not show its
    /// readings consistent (``chordsShowConsistentReadings``; see ``judgedDopplerEvidence``).
    @usableFromInline var chordEvidence = SIMD2<Double>(0, 0)
    /// The completed chords' second moments and count (ΣD², ΣDC, ΣC², n; D a chord's Doppler path, C the chord)
    /// for the standard error of their ratio (``DopplerCheck/chordRatioLowerBound(sums:moments:)``). One 32-byte
    /// value, written whole.
    @usableFromInline var chordMoments = SIMD4<Double>(0, 0, 0, 0)
    /// The completed chords as measured, not freed of the filter's noise (metres; see
    /// ``DopplerCheck/chordsShowConsistentReadings(sums:moments:measuredChordMetres:shownBefore:profile:)``).
    @usableFromInline var measuredChordMetres = 0.0
    /// Whether the chords showed the readings consistent at a chord's end, point ratio and all (see
    /// ``chordsShowConsistentReadings``; asked there until it is true, on a profile whose
    /// ``TrackingProfile/consistentChordsOutweighZeros``, and again at a change of profile).
    @usableFromInline var chordsShownOnce = false
    /// Readings under ``DopplerCheck/zeroReadingMetresPerSecond`` (or taken out as a dropout) while the receiver
    /// moved (by the window) and the position filter moved at the deadband or more, counted once the window a span
    /// later still said moving (held until then: ``holdZeroReadingWhileMoving(now:)``): a receiver that reports zero
    /// while it travels.
    @usableFromInline var zeroReadingsWhileMoving = 0
    /// Zero readings read while moving (held: ``holdZeroReadingWhileMoving(now:)``) in runs shorter than
    /// ``TrackingProfile/haltRunLength`` fixes before a reading of motion (``endZeroReadingRun(reading:now:)``): a
    /// dropout's, not a halt's. More than one in ``DopplerCheck/zeroReadingShare`` of the chord fixes keeps the
    /// integrated path judging whatever the chords show (a receiver with a zero on one fix in 12 read 4–6 % short
    /// with its isolated zeros taken for halts; Samsung-like receivers on winding routes, whose chords are short of
    /// their path, had their short readings trusted). A run that is a dropout (``isDropoutRun(endedBy:now:)``: at most
    /// 3 s between readings of motion) or followed a step of 10 s or more (``readingRunFollowsGap``) is not counted.
    @usableFromInline var scatteredZeroReadings = 0
    /// The zero readings held since the last reading of motion (see ``scatteredZeroReadings``), and the first one's
    /// fix (``fixCount`` then).
    @usableFromInline var zerosHeldInRun = 0
    @usableFromInline var firstHeldZeroFixCount = 0.0
    /// Zero readings while moving held until the window a span after the first tells a halt from travel, and when
    /// (``Int64/max``: none held; see ``holdZeroReadingWhileMoving(now:)``).
    @usableFromInline var heldZeroReadings = 0
    @usableFromInline var heldZeroReadingsDeadlineMilliseconds = Int64.max
    /// Fixes of the completed chords of ``chordEvidence`` (read while moving), and the fix count at the chord's start.
    @usableFromInline var chordFixes = 0.0, chordStartFixCount = 0.0
    /// Whether the Doppler check judges by ``chordEvidence`` now (see ``judgedDopplerEvidence``); set where that
    /// evidence or the zeros change, out of line, so the per-fix path only selects.
    @usableFromInline var judgesByChordEvidence = false
    /// Under the profiles that judge the Doppler by chords (``TrackingProfile/judgesDopplerByChords``), the
    /// Doppler path and the position filter's path summed fix by fix while moving, for the unit check alone
    /// (``DopplerCheck/readsTooFast(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``): a chord is
    /// far shorter than the path of a route that doubles back (a shuttle run read 4.2× its chords with good
    /// readings). One 16-byte value, written whole.
    @usableFromInline var unitEvidence = SIMD2<Double>(0, 0)
    /// The chord of the session evidence under way: its start (ms; `.min`: none), the position filter's position,
    /// its per-axis variance (m²) and the Doppler path then.
    @usableFromInline var chordStartMilliseconds: Int64 = .min
    @usableFromInline var chordStartEast = 0.0, chordStartNorth = 0.0, chordStartDopplerPath = 0.0
    @usableFromInline var chordStartPositionVariance = 0.0
    /// The Doppler seconds (``dopplerSeconds``) at the start of the chord under way, and the seconds of its dropouts
    /// (``readsDroppedOut(_:)``), which read as zeros in it: the rest of its span came without readings
    /// (``chordDopplerPath(now:)``).
    @usableFromInline var chordStartDopplerSeconds = 0.0, chordZeroSeconds = 0.0
    @usableFromInline var window = TrailingWindow()
    /// The innovation-based estimate of how much of the reported variance is white noise.
    @usableFromInline var noise = MeasurementNoiseScale()
    /// The fixes' white noise measured from their own scatter (the net-displacement gate's noise floor).
    @usableFromInline var whiteNoise = WhiteNoiseEstimate()
    /// The last reset gap, waiting for the track after it to settle it (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``): its
    /// duration (seconds; 0: settled) and the speed before it (0: its chord is not to count, see
    /// ``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``). Also the seconds of a hold released by a
    /// jump while one is pending (``isHoldReleasePending``): `bridge` is called for every fix while either is.
    @usableFromInline var pendingGapSeconds = 0.0
    /// The step (seconds) beyond which a fix opens a reset gap: ``TrackingProfile/filterResetGapSeconds``, or
    /// ``resetGapHysteresis`` of it after a reset gap that followed a step nearly as long (a logger whose cadence
    /// straddles the gap keeps one regime). Lowered after such a gap's anchor; back to the profile's at every other
    /// anchor and at the first step that is no reset gap (in ``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``,
    /// which that step always calls). Kept here so that the per-fix test stays one comparison (testing the step
    /// before on every fix cost the `tracker` benchmark 12–34 instructions per fix).
    @usableFromInline var resetGapThresholdSeconds: Double
    /// See ``pendingGapSeconds``.
    @usableFromInline var pendingGapSpeedBefore = 0.0
    /// The filtered position before the last reset gap, in the plane (re-expressed when it re-centres): where a
    /// receiver whose first fixes after the silence converge back was all along, and the start of the gap's
    /// chord (which ends at the window's oldest sample, the gap's anchor).
    @usableFromInline var gapOrigin = SIMD2<Double>(0, 0)
    /// When the track was at ``gapOrigin`` (ms since 1970: the last accepted fix before the gap).
    @usableFromInline var gapOriginMilliseconds: Int64 = 0
    /// The mean displacement accuracy of the window that ended at ``gapOrigin`` (metres): the noise of that end
    /// of a chain's chord (``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``).
    @usableFromInline var gapOriginAccuracy = 0.0
    /// Whether the pending gap's chord agreed with the chord before it in a chain (it counts at the next gap of the
    /// chain whatever follows it).
    @usableFromInline var chainCertified = false
    /// The chain's point before ``gapOrigin`` and its displacement accuracy, when the link that made ``gapOrigin``
    /// was a chain's (``hasChainHome``): where a two-fix excursion would come back to (see
    /// ``returnsFromExcursion(home:homeAccuracy:first:firstAccuracy:second:secondAccuracy:east:north:accuracy:)``).
    @usableFromInline var chainHome = SIMD2<Double>(0, 0)
    @usableFromInline var chainHomeAccuracy = 0.0
    @usableFromInline var chainHomeMilliseconds: Int64 = 0
    @usableFromInline var hasChainHome = false
    /// Whether the chain reached ``gapOrigin`` (``chainHome``) by a chord inside its return zone: a receiver at rest
    /// there, from which an excursion may leave (see ``beginGap``).
    @usableFromInline var gapOriginIsSettled = false
    @usableFromInline var chainHomeIsSettled = false
    /// Whether ``gapOrigin``'s fix read a Doppler speed at or above the deadband.
    @usableFromInline var gapOriginReadsMoving = false
    /// The time (ms since 1970) of the fix the excursion the last ``beginGap`` judged left from (`.min`: none;
    /// ``FixDecision/excursionStart``).
    @usableFromInline var lastExcursionStartMilliseconds: Int64 = .min
    /// Whether the chain's point at ``gapOrigin`` (a lone fix, or a short segment's last fixes: the tracker's run
    /// of sub-deadband readings, which counts a missing reading from a receiver that reports Doppler) read a
    /// Doppler speed below the deadband (a chain's chord between two such points is no movement).
    @usableFromInline var gapOriginIsStill = false
    /// Whether the reading in force at ``gapOrigin``'s fix excluded the movement (a chain's chord from it is not
    /// the traveller's).
    @usableFromInline var gapOriginIsExcluded = false
    /// Whether the reading in force at the last anchor's fix excluded the movement (``readingExcludes(at:)``).
    @usableFromInline var anchorIsExcluded = false
    /// The last vehicle evidence at a chain's fix (a confident `in vehicle` reading, or a Doppler speed above what
    /// the traveller sustains), ms since 1970, or `.min`: chords starting within
    /// ``TrackingProfile/vehicleExitSeconds`` of it are the vehicle's (the chain's vehicle latch).
    @usableFromInline var chainVehicleMilliseconds: Int64 = .min
    /// The last fix (ms since 1970; `.min`: none) whose reading the position filter ran far ahead of
    /// (``DopplerCheck/filterFollowsAJump(positionSpeedMetresPerSecond:reading:profile:)``), and the start of the run
    /// of such fixes it ends: see ``readsSlowAllAlong(now:stepMetres:)``.
    @usableFromInline var lastJumpClaimMilliseconds: Int64 = .min
    @usableFromInline var jumpClaimRunStartMilliseconds: Int64 = .min
    /// At the start of that run: the position filter's path (``positionPath``) and what was counted so far (the
    /// total and the candidates the window still holds), metres.
    @usableFromInline var jumpClaimRunStart = SIMD2<Double>.zero
    /// Whether the session's speed column reads slow all along (``readsSlowAllAlong(now:stepMetres:)``): its readings
    /// are then never taken for a jump the filter follows. What a caller warns of (m/s values in a km/h column).
    public internal(set) var readsSlowColumn = false
    /// Whether the session's course column is shown not to point where the fixes travel (``CourseCheck``): its
    /// courses are then left out (no velocity measurement, no heading for a gap's bridge), the speeds still used.
    /// What a caller warns of (a course written as a math angle, or turned by 90° or 180°).
    public var readsCourseWrong: Bool { courseIsWrong }
    /// ``readsCourseWrong``'s storage (beside ``readsSlowColumn``, in the padding before the next `Double`).
    @usableFromInline var courseIsWrong = false
    /// Whether the speed readings are shown far slower or far faster than the fixes travel, span after span
    /// (``SpeedCheck``): they are then left out (no velocity measurement, not trusted for the distance).
    @usableFromInline var speedReadsWrong = false
    /// How the readings were last shown wrong: ``SpeedCheck/slowVote`` or ``SpeedCheck/fastVote`` (0: never).
    @usableFromInline var speedWrongVote: Int8 = 0
    /// The last ``SpeedCheck`` span's vote (its chord is ``previousSpeedSpanChord``).
    @usableFromInline var previousSpeedSpanVote: Int8 = 0
    /// Whether the speed readings were shown far slower than the fixes travel at some point of the session
    /// (``SpeedCheck``): they were then left out, and the distance came from the positions. What a caller warns of
    /// (m/s values read as km/h); ``readsSpeedSlow`` says whether they still are.
    public internal(set) var hasReadSpeedSlow = false
    /// Whether the speed readings are shown far slower than the fixes travel now (``SpeedCheck``): left out.
    public var readsSpeedSlow: Bool { speedReadsWrong && speedWrongVote == SpeedCheck.slowVote }
    /// Whether the speed readings were shown far faster than the fixes travel at some point of the session
    /// (``SpeedCheck``: km/h values read as m/s, 3.6 ×): they were then left out, and the distance came from the
    /// positions. ``readsSpeedFast`` says whether they still are.
    public internal(set) var hasReadSpeedFast = false
    /// Whether the speed readings are shown far faster than the fixes travel now (``SpeedCheck``): left out.
    public var readsSpeedFast: Bool { speedReadsWrong && speedWrongVote == SpeedCheck.fastVote }
    /// Disagreements of the course readings with the position filter's direction, less agreements, in a row
    /// (``CourseCheck``; 0 … ``CourseCheck/maximumDisagreements``).
    @usableFromInline var courseDisagreements: Int8 = 0
    /// Spans that showed the readings slow or fast (``SpeedCheck``), less spans that agreed with them, in a row
    /// (0 … ``SpeedCheck/maximumDisagreements``).
    @usableFromInline var speedDisagreements: Int8 = 0
    /// The course readings left out so far because the column read wrong (``readsCourseWrong`` at their fix):
    /// what a caller warns of when the column was wrong only for a while, which ``readsCourseWrong`` at the end
    /// of the session no longer says (a reviewer's point).
    public internal(set) var coursesLeftOut = 0
    /// The ``SpeedCheck`` span under way: when it began (ms since 1970; `.min`: none yet), and its first fix's position on
    /// the plane (east, north; metres, moved with the plane by ``recentre()``), accuracy, and ``dopplerPath`` and
    /// ``dopplerSeconds`` then.
    @usableFromInline var speedSpanStartMilliseconds: Int64 = .min
    /// When that span may end (``SpeedCheck/spanMilliseconds(accuracy:)`` after its start; `.min`: at the next fix
    /// with a reading).
    @usableFromInline var speedSpanEndMilliseconds: Int64 = .min
    @usableFromInline var speedSpanStart = SIMD2<Double>.zero
    /// The chord of the last span judged (east, north; metres, on the plane's axes).
    @usableFromInline var previousSpeedSpanChord = SIMD2<Double>.zero
    /// What was counted when the span under way began (the total plus the window's held candidates, metres), and
    /// the chain of slow spans heading one way up to the last one: what was counted when it began and its chords'
    /// length (metres). What the chain counted short of its chords is counted when it shows the readings slow.
    @usableFromInline var speedSpanStartCounted = 0.0, speedChainStartCounted = 0.0, speedChainMetres = 0.0
    /// When the chain of slow (or fast) spans began (ms since 1970): its pace is its chords over the time since.
    @usableFromInline var speedChainStartMilliseconds: Int64 = 0
    /// Whether the span under way saw an outlier re-anchor: only then may it show the readings fast (readings
    /// far above an honest track's chords, where its positions lag or it turns back within a span, left the
    /// filter's fixes accepted: a reviewer's lagging drives and hairpin rides lost their right readings).
    @usableFromInline var speedSpanSawReanchor = false
    @usableFromInline var speedSpanStartAccuracy = 0.0
    @usableFromInline var speedSpanStartDopplerPath = 0.0, speedSpanStartDopplerSeconds = 0.0
    /// The displacement accuracy of the last anchor's fix (metres): a lone anchor's, which the trailing window's
    /// sums leave out.
    @usableFromInline var anchorAccuracy = 0.0
    /// Distance held by the vehicle latch, waiting for its slow spell to last ``TrackingProfile/vehicleExitSeconds``
    /// (metres): released if it does, given up if the track speeds up again or a vehicle is read.
    @inlinable public var pendingVehicleMetres: Double { vehiclePendingDoppler + vehiclePendingFiltered }
    /// Distance held by a departure from a rest that is not yet confirmed
    /// (``TrackingProfile/departureConfirmationSeconds``), metres: counted once it is, given up if the track
    /// comes back to the rest first.
    @inlinable public var pendingDepartureMetres: Double { departurePending.x + departurePending.y }
    /// Vehicle latch (see ``DistanceHold/vehicle``): set while the track has been too fast for the profile's
    /// traveller and has not been slow for ``TrackingProfile/vehicleExitSeconds`` since.
    @usableFromInline var isInVehicle = false
    /// Whether a (re)start of the vehicle latch since it last started from off was backed by readings: a confident
    /// `in vehicle` reading, or trusted speed readings over the window faster than the traveller sustains. A latch
    /// the filtered track alone started (its readings slower) may still be vetoed by them
    /// (``isExplainedByReadings(netMetres:windowMilliseconds:readingsMetres:readingsSeconds:now:)``); a backed one is
    /// renewed by any fast window (a bus's crawl after its fast spell).
    @usableFromInline var isLatchBackedByReadings = false
    /// Start of the current slow spell inside the latch (ms since 1970), or `.min` while fast.
    @usableFromInline var slowSinceMilliseconds: Int64 = .min
    /// Increments released by the gates during the slow spell, waiting for the spell to prove a walk.
    @usableFromInline var vehiclePendingDoppler = 0.0
    @usableFromInline var vehiclePendingFiltered = 0.0
    /// The activity reading in force and when it was taken.
    @usableFromInline var activity: ActivityReading?
    @usableFromInline var activityMilliseconds: Int64 = 0
    /// The key of the cached prediction step (twice the interval in ms between the last accepted fix and the
    /// fix, plus 1 for a position-only fix: ``readsNoSpeed(_:)`` with a reported accuracy) and the step (seconds and process noise for the profile's
    /// acceleration σ for that fix), reused while the key repeats (see ``PredictionStep``).
    @usableFromInline var predictionStepKey: Int64 = 0
    @usableFromInline var predictionStep = PredictionStep(seconds: 0, accelerationVariance: 0)
    /// Whether ``predictionStep`` uses the profile's position-only σₐ
    /// (``TrackingProfile/accelerationSigmaWithoutDoppler``): a fix that reads no speed (``readsNoSpeed(_:)``) and
    /// has a reported accuracy.
    @usableFromInline var isPositionOnlyStep = false
    /// Whether the position filter predicts with a smaller σₐ than the output filter
    /// (``TrackingProfile/positionFilterAccelerationSigma``), and its step then.
    @usableFromInline var positionStepDiffers = false
    @usableFromInline var positionPredictionStep = PredictionStep(seconds: 0, accelerationVariance: 0)
    // Rarely written state last, after the fields every fix reads and writes (the layout of those is measured:
    // see ARCHITECTURE.md, "Tracker speed").
    /// How many Doppler readings in a row were below the deadband or missing (once the receiver has reported
    /// one): a halt's zeros (or iOS's −1) run on; a dropout's are scattered among moving readings.
    @usableFromInline var subDeadbandRun = 0
    /// The filtered position (east, north; metres in ``projection``) where the current slow spell started: the
    /// spell's held distance is released as a walk only if the track has left it by then.
    @usableFromInline var slowStart = SIMD2<Double>(0, 0)
    /// The position of the last exact repeat that was accepted (a hold: see
    /// ``isStaleRepeat(latitude:longitude:doppler:seconds:accuracy:)``), as received.
    @usableFromInline var heldLatitude = Double.nan, heldLongitude = Double.nan
    /// Where the track last rested by the net-displacement gate (the window's oldest sample at a "not moving"
    /// verdict of a window with too little Doppler, in the plane), and whether there is such a rest to leave:
    /// see ``TrackingProfile/departureConfirmationSeconds``.
    @usableFromInline var restOrigin = SIMD2<Double>(0, 0)
    @usableFromInline var hasRest = false
    /// The current run of "not moving" verdicts: when it began and its latest verdict (ms since 1970); a rest
    /// needs a run of a window's length (a U-turn's window reads "not moving" for a moment).
    @usableFromInline var restRunMilliseconds: Int64 = .min, restVerdictMilliseconds: Int64 = .min
    /// When the track left ``restOrigin`` (ms since 1970, `.min`: no departure pending) and the metres released
    /// since (Doppler, filtered), held until the departure is confirmed or turns out an excursion.
    @usableFromInline var departureMilliseconds: Int64 = .min
    @usableFromInline var departurePending = SIMD2<Double>(0, 0)
    /// The farthest the filtered track has been from ``restOrigin`` during the pending departure (metres, as seen
    /// at its releases and verdicts), and the net-displacement threshold of the last of them.
    @usableFromInline var departureFarthestMetres = 0.0, departureThresholdMetres = 0.0
    /// How far (metres) the pending departure's last accepted fix was from ``restOrigin``, and how many accepted
    /// fixes in a row were beyond the threshold, each at least a quarter as far as the one after it; both 0 after
    /// a fix refused as an outlier or too fast (see ``confirmDeparture(now:away:threshold:)``). And that run's
    /// length when the track was farthest from the rest (see ``isBackAtRest(away:threshold:)``).
    @usableFromInline var departureLastAwayMetres = 0.0, departureAwayRun = 0, departureRunAtFarthest = 0
    /// Whether the pending departure (or the rest it leaves) is one from where trusted still readings agreed with
    /// the track (``stillAgreedPosition``), begun when a run overruled those readings: it counts once it has lasted
    /// ``maximumExcursionSeconds`` with the track away, or when trusted readings say the receiver moves, and is given
    /// up when the track comes back (see `judgeTrustedStillReadings` and `settleDepartureFromStillReadings`).
    @usableFromInline var isDepartureFromStillReadings = false
    /// The ``fixCount`` and the time (ms since 1970) when the pending departure was last found within two thresholds
    /// of its farthest from ``restOrigin``.
    @usableFromInline var departureFarthestFixCount = 0.0
    @usableFromInline var departureFarthestMilliseconds: Int64 = .min
    /// Whether a run overruled trusted sub-deadband readings where the track had not just agreed with them (a column
    /// that died under a moving track): the column is shown to be a placeholder for the session, and later runs count
    /// at once (no ``isDepartureFromStillReadings``). (Not set by a held departure that counted: one slide that
    /// stayed out two minutes turned every later slide of the session back into counted distance.)
    @usableFromInline var hasCountedOverruledTrustedReadings = false
    /// Metres counted by `judgeTrustedStillReadings` (a held departure confirmed while the zeros rest away from its
    /// origin), for the caller to add to the fix's decision.
    @usableFromInline var countedWhileJudging = 0.0
    /// How many departures from where trusted still readings agreed (``isDepartureFromStillReadings``) were given
    /// up: read by ``overruledSpeedReadings(in:profile:)``.
    @usableFromInline var stillReadingDeparturesGivenUp = 0
    /// Where and when (ms since 1970; `.min`: never) the filtered track last agreed with trusted sub-deadband
    /// readings (the window's net displacement within the net-displacement threshold: a halt the positions confirm).
    @usableFromInline var stillAgreedPosition = SIMD2<Double>(0, 0)
    @usableFromInline var stillAgreedMilliseconds: Int64 = .min
    /// The run of sub-deadband readings the track last agreed in (``fixCount`` less ``subDeadbandRun`` then, constant
    /// along a run; −1: none).
    @usableFromInline var stillAgreedRunStart = -1.0
    /// The last forward jump in time: the time of the fix that anchored the filter after a reset gap (or first)
    /// (ms since 1970), and the last accepted time before it (`.min` for a session's first fix: a jump from
    /// nowhere): fixes between the two, shortly after the jump, say the jump's time was wrong
    /// (``isInsideForwardJump(_:latitude:longitude:)``).
    @usableFromInline var jumpMilliseconds: Int64 = .min, beforeJumpMilliseconds: Int64 = .min
    /// Where the track was before the last forward jump (``beforeJumpMilliseconds``): the filtered latitude and
    /// longitude (NaN when there was no filter), the displacement accuracy there (metres, see ``whereTheTrackIs()``)
    /// and the filter's speed (m/s). See ``countRestartChord(to:accuracy:now:)``.
    @usableFromInline var beforeJump = SIMD4<Double>(.nan, .nan, 0, 0)

    /// The filtered latitude and longitude, the window's mean displacement accuracy (the net-displacement gate's
    /// noise level; the anchor's alone when the window is empty) and the filter's speed, as ``beforeJump`` keeps
    /// them. (The accuracy gate's value was the wrong kind: a file without accuracies took its 30 m fallback, and a
    /// reviewer's walk lost the 28 m chord the restart should count.)
    @usableFromInline
    mutating func whereTheTrackIs() -> SIMD4<Double> {
        let here = projection.unproject(east: filter.east, north: filter.north)
        return SIMD4(
            here.latitude, here.longitude, windowMeanAccuracy(orElse: anchorAccuracy), filter.speedMetresPerSecond)
    }
    /// After a restart on fixes inside a forward jump: the latest time accepted before it (`.max`: none). The
    /// first fix newer than it re-anchors the filter without counting the step onto it: when the jump was real
    /// (a backlog from inside a long silence, delivered after fresh fixes), those fresh fixes were counted
    /// already, and a step from the backlog's end to the next fresh fix counted them again (a reviewer's drives:
    /// +7 % with 300 s of fresh fixes before the backlog).
    @usableFromInline var replayedThroughMilliseconds: Int64 = .max
    /// The last accepted fix's Doppler speed (m/s; NaN: none) and the step onto it (seconds; 0: none, a first
    /// fix): what a sparse step's speed integral starts from (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``).
    @usableFromInline var lastReading = Double.nan, lastStepSeconds = 0.0
    /// The last accepted fix's course (degrees; NaN: none).
    @usableFromInline var lastCourse = Double.nan
    /// Since when the speed readings under the deadband are taken for a dropout of the column (``ReadingDrop``;
    /// `.min`: they are not): from a drop no braking makes until the positions show the halt or a reading above the
    /// deadband comes.
    @usableFromInline var droppedOutSinceMilliseconds = Int64.min
    /// The session's sparse evidence steps (moving beyond the fixes' noise at
    /// ``sparseEvidenceSpeedMetresPerSecond`` or more at both ends,
    /// ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``), and how many of them integrate at
    /// most ``sparseUnitRatio`` times their chords: the evidence of the readings' unit (``sparseUnit``).
    @usableFromInline var sparseSteps = SIMD2<Double>(0, 0)
    /// A dense-path sparse step judged before the gates (in ``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``),
    /// counted after them if the fix passes (``commitSparseStep(floor:)``).
    @usableFromInline var pendingSparseStep = SparseStep.nothing
    /// The chord of the last step ``sparseChordFloor(east:north:seconds:accuracy:isAccuracyAssumed:now:)`` judged (east, north metres,
    /// from the fix before to its fix; NaN when it was not beyond the fixes' noise or faster than the traveller
    /// sustains), and the time of the fix it ends at (`.min`: none): the step after it is judged against it only
    /// when that fix was accepted (the time is then ``lastAcceptedMilliseconds``), not re-anchored (``anchor``
    /// clears the time: a re-anchor's fix is no step of the track before it).
    @usableFromInline var lastSparseChord = SIMD2<Double>(.nan, .nan), lastSparseChordMilliseconds: Int64 = .min
    /// When the step ``lastSparseChord`` was noted for was the first after an anchor (no judged step before it, so
    /// it counted what the clamp let it): the candidates offered before it (Doppler plus filtered, metres), so
    /// that the step after, if it keeps on from it, adds its chord's shortfall (see
    /// ``sparseChordFloor(east:north:seconds:accuracy:isAccuracyAssumed:now:)``); NaN otherwise.
    @usableFromInline var unjudgedStepOfferedBefore = Double.nan
    /// A run of fixes whose readings say still while the track travels (``ContradictedReadings``).
    @usableFromInline var contradiction = ContradictedReadings()
    /// Readings below this speed stand for no reading in the prediction's σₐ
    /// (``TrackingProfile/accelerationSigmaWithoutDoppler``) and the white-noise estimate: 0 (a missing reading
    /// only) until the readings are overruled as a placeholder (``ContradictedReadings``), then the deadband for
    /// the rest of the recording.
    @usableFromInline var positionOnlyBelowMetresPerSecond = 0.0
    /// The hold at ``heldLatitude``/``heldLongitude``: the time of its first fix and of its latest repeat (ms since
    /// 1970; `.min`: none; written before the later gates judge the repeat, so a refused one can only end a pending
    /// release), and the distance total when it began (metres): what a hold released by a jump counts from (see
    /// ``holdReleaseMinimumSeconds``).
    @usableFromInline var heldSinceMilliseconds: Int64 = .min, heldLastMilliseconds: Int64 = .min
    @usableFromInline var heldSinceTotalMetres = 0.0
    /// Whether the pending chord (``pendingGapSeconds``: its seconds) is a hold's released by a jump, not a reset
    /// gap's: from ``holdReleaseOrigin`` (the filtered position at the hold, in the plane) to ``holdReleaseEnd`` (the
    /// first fix refused after the hold, or the re-anchor of its run) at ``holdReleaseMilliseconds``, less
    /// ``holdReleaseCountedMetres`` (what the tracker counted from the hold's start to that refusal).
    @usableFromInline var isHoldReleasePending = false
    /// Whether the run of refusals that released the pending hold re-anchored the filter (see
    /// ``holdReleaseMinimumSeconds``).
    @usableFromInline var isHoldReleaseAnchored = false
    @usableFromInline var holdReleaseOrigin = SIMD2<Double>(0, 0), holdReleaseEnd = SIMD2<Double>(0, 0)
    @usableFromInline var holdReleaseMilliseconds: Int64 = .min
    @usableFromInline var holdReleaseCountedMetres = 0.0
    /// The ``fixCount`` of the hold's re-anchor: readings all still since then refuse its chord (see
    /// ``settleHoldRelease(seconds:east:north:now:)``).
    @usableFromInline var holdReleaseFixCount = 0.0
    /// When the filter was last anchored (ms since 1970; `.min`: never): a hold that began within half a window of
    /// it holds a fix no track confirmed (see ``holdReleaseMinimumSeconds``).
    @usableFromInline var lastAnchorMilliseconds: Int64 = .min
    /// The trailing stretch of fixes without speed readings, and whether it scatters as a receiver at rest's (the
    /// net-displacement gate's still stretches; see ``StillScatter``). Last: placed among the per-fix fields, it
    /// moved their offsets and cost the `tracker` benchmark instructions on a path that never reads it.
    @usableFromInline var stillScatter = StillScatter()
    /// The chords of averaged blocks of fixes without speed, a lower bound on the distance where the net displacement
    /// decides (see ``ChordOdometer``), and the ``fixCount`` of the last fix it took (another accepted fix between
    /// starts it again).
    @usableFromInline var chordOdometer = ChordOdometer()
    @usableFromInline var chordFixCount = -1.0
    /// The run of zero readings held while moving (``zerosHeldInRun``) under way: the time of the fix before it (ms
    /// since 1970; `.min`: none), the filtered position at its first fix (metres in ``projection``), and the position
    /// filter's path and the candidate sums (Doppler + filtered) before that fix's step. Last, as ``stillScatter``.
    /// See ``endReadingRunAtSpeed(reading:now:)``.
    @usableFromInline var readingRunStartMilliseconds: Int64 = .min
    @usableFromInline var readingRunStart = SIMD2<Double>(0, 0)
    @usableFromInline var readingRunStartPath = 0.0, readingRunStartCounted = 0.0
    /// The reading before that run (m/s; NaN: none).
    @usableFromInline var readingRunSpeedBefore = Double.nan
    /// The seconds of dropouts' zero readings (``isDropoutRun(endedBy:now:)``) inside the chord under way: no
    /// readings for its Doppler path (``chordDopplerPath(now:readingDropouts:)``).
    @usableFromInline var chordDropoutSeconds = 0.0
    /// What the dropouts' seconds, read as no readings, added to ``chordEvidence``'s Doppler path (metres): taken off
    /// again where a zero is judged a dropout (``readsShortWithItsZeros``).
    @usableFromInline var chordDropoutFillMetres = 0.0
    /// Whether the run of zero readings under way began after a step of ``TrackingProfile/maximumIntegrationSeconds``
    /// or longer: then it is neither a dropout nor scattered zeros (``endZeroReadingRun(reading:now:)``). Why: at a
    /// cadence of 10 s a halt is one or two fixes, which the scattered-zeros test cannot tell from a dropout, and
    /// counted as scattered they kept the readings distrusted (`tester49`'s `S_walkhalt` at 10 s: +6.2 … +13.9 % →
    /// −0.1 … +3.8 %, nothing else moved).
    @usableFromInline var readingRunFollowsGap = false
    /// The Doppler path (``dopplerPath``) at the first zero of that run, and the Doppler path of the dropouts
    /// (``isDropoutRun(endedBy:now:)``) inside the chord under way, left out of it with their seconds
    /// (``chordDropoutSeconds``).
    @usableFromInline var readingRunStartDopplerPath = 0.0, chordDropoutDopplerMetres = 0.0
    /// The last fix accepted before ``startNewLeg()`` (ms; `.min`: none): the forward jump from it to the next leg's
    /// first fix is the app's pause, never a clock fault, so fixes dated inside it do not restart the tracker
    /// (``isInsideForwardJump(_:latitude:longitude:)``). Last among the fields: the per-fix path's are laid out for
    /// store forwarding ("Tracker speed" in docs/ARCHITECTURE.md).
    @usableFromInline var legBreakMilliseconds: Int64 = .min

    /// Whether `fix` counts as reading no speed for the prediction's σₐ and the white-noise estimate: no reading, or
    /// one under ``positionOnlyBelowMetresPerSecond`` (a missing reading is stored as NaN, at or above no speed).
    /// One comparison on the stored reading: as `(doppler ?? -1) < …` the end-to-end benchmark read 29
    /// instructions more per fix than a nil test; as written, the tracker benchmark reads 7 fewer and the
    /// end-to-end one 26 more, the inliner's arrangement of the loop.
    @inlinable @inline(__always)
    func readsNoSpeed(_ fix: Fix) -> Bool {
        !(fix.storedSpeedMetresPerSecond >= positionOnlyBelowMetresPerSecond)
    }

    /// Creates a tracker.
    ///
    /// - Parameter profile: the tuning; ``TrackingProfile/walking`` by default (the commonest use: a phone
    ///   counting a walker's distance).
    public init(profile: TrackingProfile = .walking) {
        self.profile = profile
        resetGapThresholdSeconds = profile.filterResetGapSeconds
    }

    /// The time of the last fix the tracker accepted (or that a resumed session had accepted,
    /// ``restore(persistedTotalMetres:lastAccepted:)``); `nil` before any. Fixes not newer than it are rejected
    /// as out of order.
    public var lastAcceptedTime: Timestamp? {
        lastAcceptedMilliseconds == .min ? nil : Timestamp(millisecondsSince1970: lastAcceptedMilliseconds)
    }

    /// The persisted total restored into the accumulator; a total that grew restarts the chord odometer (its chords
    /// are compared with what was counted since it started), one that did not (a resume's exact replay restores the
    /// total it already has) leaves it running.
    mutating func restoreTotal(_ persistedTotalMetres: Double) {
        let before = accumulator.totalMetres
        accumulator.restore(persistedTotalMetres: persistedTotalMetres)
        if accumulator.totalMetres != before { chordFixCount = -1 }
    }

    /// Continues a session whose total was persisted: the larger of the persisted and current totals is kept
    /// (see ``DistanceAccumulator/restore(persistedTotalMetres:)``).
    public mutating func restore(persistedTotalMetres: Double) {
        restoreTotal(persistedTotalMetres)
    }

    /// Continues a session a killed process had persisted: its total as ``restore(persistedTotalMetres:)`` does,
    /// and the time of the last fix it had accepted, so that fixes the platform delivers again after the restart
    /// (a batch re-sent, a replayed buffer) are rejected as ``RejectionReason/outOfOrder`` instead of counted a
    /// second time. The first newer fix anchors the filter; the distance between the persisted last fix and it
    /// is not counted (the filter's state was not persisted).
    ///
    /// Meant before the first fix; called later with a time newer than the last fix accepted here, it wins the
    /// same way: the filter is dropped (the next newer fix anchors it), so no fix older than the persisted one
    /// is accepted after it. An older persisted time changes nothing but the total.
    ///
    /// A persisted time more than ``TrackingProfile/clockJumpSeconds`` in the future (a corrupt record) does not
    /// freeze the session: three ordered fixes that far behind it restart as after any clock jump.
    public mutating func restore(persistedTotalMetres: Double, lastAccepted timestamp: Timestamp) {
        restoreTotal(persistedTotalMetres)
        guard timestamp.millisecondsSince1970 > lastAcceptedMilliseconds else { return }
        forgetTheRestoredOverSession()
        lastAcceptedMilliseconds = timestamp.millisecondsSince1970
    }

    /// What both `restore` overloads drop of the session they resume over: the filter (its state describes fixes
    /// older than the persisted one: the next prediction would span the wrong interval), the slow spell and the
    /// place where still readings agreed (the old plane's: the next fix starts a new one), and where the track was
    /// before an older jump (no place to count a restart's chord from: a reviewer's backlog after a restore counted
    /// 8.5 km back to it).
    mutating func forgetTheRestoredOverSession() {
        hasFilter = false
        slowSinceMilliseconds = .min
        stillAgreedMilliseconds = .min
        droppedOutSinceMilliseconds = .min
        beforeJump = SIMD4(.nan, .nan, 0, 0)
        dropHeldZeroReadings()
    }

    /// Continues a session from its persisted total and its last accepted fix: as
    /// ``restore(persistedTotalMetres:lastAccepted:)`` with the fix's time, and the filter anchored at the fix
    /// (its position and accuracy), so that the first fix after the restart faces the outlier gate instead of
    /// anchoring the filter unchecked: a multipath fix first after a restart was taken, and the good fix after
    /// it rejected (an API tester's worst resume, −114 m). The fix is not counted again, and a re-delivered copy
    /// of it is a duplicate. A fix not newer than the last accepted one changes nothing but the total.
    public mutating func restore(persistedTotalMetres: Double, lastAccepted fix: Fix) {
        restoreTotal(persistedTotalMetres)
        guard fix.timestamp.millisecondsSince1970 > lastAcceptedMilliseconds else { return }
        forgetTheRestoredOverSession()
        _ = process(fix)  // anchors: nothing is counted on an anchor
        if lastAcceptedMilliseconds < fix.timestamp.millisecondsSince1970 {
            // Rejected as a first fix (an accuracy the gate refuses): the time alone, as the other restore.
            lastAcceptedMilliseconds = fix.timestamp.millisecondsSince1970
        }
        // The restored fix is no forward jump: the fixes before it are in the persisted total, and re-delivered
        // they stay out of order (see `restartsOnClockJump`).
        beforeJumpMilliseconds = lastAcceptedMilliseconds
    }

    /// Starts a new leg: the next fix anchors the filter as a first fix, and the way from the last fix before it is
    /// not counted. For an app's "Pause" … "Resume" when it sends no fixes in between (call it at either tap, before
    /// the first fix after the pause), or any stretch whose distance must not count (a ferry the app does not track).
    /// Without it the tracker bridges a pause like any gap, and counts the way walked while paused (an API tester's
    /// 120 s pause: the 168 m walked during it were counted, 1,263.6 m instead of 1,090.6 m).
    ///
    /// What the leg held is counted first, as at the end of a track (``finishTrack()``: a departure's held metres, a
    /// young window's), and returned. Everything else is kept, as after a silence longer than
    /// ``TrackingProfile/sessionBreakSeconds``: the total (which never decreases), the time order (a fix not newer
    /// than the last accepted one is still out of order), what the tracker learnt of the device's speed and course
    /// readings, the activity reading in force and the vehicle latch. (``restore(persistedTotalMetres:lastAccepted:)``
    /// on a new tracker does the same break but forgets the device.) Fixes the app goes on sending while paused are
    /// counted as any fixes: stop sending them, or call this again at "Resume". Fixes dated inside the pause that
    /// arrive after it (a late batch) are out of order, and never taken for proof of a clock fault that would restart
    /// the tracker there and count the way from the last fix before the pause (a reviewer's 10 fixes from inside a
    /// 700 s pause counted +125 m before that rule).
    @discardableResult
    public mutating func startNewLeg() -> Double {
        let counted = startAfresh()
        legBreakMilliseconds = lastAcceptedMilliseconds
        return counted
    }

    /// After a silence longer than ``TrackingProfile/sessionBreakSeconds`` (and at ``startNewLeg()``): counts a held
    /// departure, an overruling run's and a young window's held metres, a pending gap's chord and a chain's last
    /// chord (as ``finishTrack()``), then becomes a new tracker of the same
    /// profile that keeps the total, the last accepted and received times (out of order, duplicates), the clock-jump
    /// bookkeeping, the activity reading in force and the vehicle latch; the next fix anchors as a first fix. Returns
    /// the metres counted. Out of line: it runs once per recording.
    @usableFromInline @inline(never)
    mutating func startAfresh() -> Double {
        let counted = finishTrack()
        var fresh = Tracker(profile: profile)
        fresh.accumulator = accumulator
        fresh.lastAcceptedMilliseconds = lastAcceptedMilliseconds
        fresh.lastReceivedMilliseconds = lastReceivedMilliseconds
        fresh.lastReceivedLatitude = lastReceivedLatitude
        fresh.lastReceivedLongitude = lastReceivedLongitude
        fresh.staleRun = staleRun
        fresh.jumpMilliseconds = jumpMilliseconds
        // (Where the track was before the silence: a restart may prove the fix after it wrongly dated.)
        fresh.beforeJump = hasFilter ? whereTheTrackIs() : SIMD4(.nan, .nan, 0, 0)
        fresh.beforeJumpMilliseconds = beforeJumpMilliseconds
        fresh.replayedThroughMilliseconds = replayedThroughMilliseconds
        fresh.legBreakMilliseconds = legBreakMilliseconds
        // The sparse steps' evidence of the readings' unit: a property of the device, not of the trip.
        fresh.sparseSteps = sparseSteps
        // So is a placeholder speed column (``ContradictedReadings``).
        fresh.positionOnlyBelowMetresPerSecond = positionOnlyBelowMetresPerSecond
        // And a column shown to read slow all along (a reviewer's drive after a 2 h break read −72 %).
        fresh.readsSlowColumn = readsSlowColumn
        // (And a course column shown wrong, the evidence with it.)
        fresh.courseIsWrong = courseIsWrong
        fresh.courseDisagreements = courseDisagreements
        fresh.speedReadsWrong = speedReadsWrong
        fresh.hasReadSpeedSlow = hasReadSpeedSlow
        fresh.hasReadSpeedFast = hasReadSpeedFast
        fresh.speedWrongVote = speedWrongVote
        fresh.speedDisagreements = speedDisagreements
        fresh.coursesLeftOut = coursesLeftOut
        fresh.hasCountedOverruledTrustedReadings = hasCountedOverruledTrustedReadings
        // (What `overruledSpeedReadings(in:profile:)` compares fix by fix.)
        fresh.stillReadingDeparturesGivenUp = stillReadingDeparturesGivenUp
        // The vehicle latch stays, as across any gap: a silence proves nothing about the mode of travel, and the
        // latch only holds distance (a walk after it is released once it lasts). GeoLife's taxi, then a bus
        // ride 4.8 hours later: with the latch given up, the bus's first 40 m counted as walking.
        // The reading in force too: it was taken from this very fix (or the stream just before it), and a
        // reviewer's walk starting "still" after a break counted 154.7 m instead of its 76.7 alone.
        fresh.activity = activity
        fresh.activityMilliseconds = activityMilliseconds
        fresh.isInVehicle = isInVehicle
        fresh.isLatchBackedByReadings = isLatchBackedByReadings
        fresh.vehiclePendingDoppler = vehiclePendingDoppler
        fresh.vehiclePendingFiltered = vehiclePendingFiltered
        self = fresh
        return counted
    }

    /// Starts a new session: distance zero, filter, anchor, window and activity forgotten; the profile kept.
    public mutating func reset() {
        self = Tracker(profile: profile)
    }

    /// Supplies a motion-activity reading from a separate timed stream (e.g. Android's activity
    /// recognition); it applies to fixes from `timestamp` for ``TrackingProfile/activityValiditySeconds``.
    /// A reading older than the one in force is ignored, unless the one in force is dated
    /// ``TrackingProfile/clockJumpSeconds`` or more after it: then that one's time was wrong (a fix dated 9999
    /// carrying "walking" outranked every later reading, and a bus ride was counted as a walk).
    @inlinable
    public mutating func process(activity reading: ActivityReading, at timestamp: Timestamp) {
        let t = timestamp.millisecondsSince1970
        if activity == nil || t >= activityMilliseconds
            || Double(activityMilliseconds) - Double(t) >= profile.clockJumpSeconds * 1000
        {
            activity = reading
            activityMilliseconds = timestamp.millisecondsSince1970
        }
    }

    /// Processes a batch as delivered: in time order, oldest first (a stable sort, so equal times keep their
    /// order), fix by fix. Returns one decision per fix **in the batch's own order**: `decisions[i]` is about
    /// `batch[i]`, so `zip(batch, decisions)` pairs them (in processing order it paired a newest-first batch's
    /// fixes with other fixes' decisions, and a store kept them so).
    ///
    /// A batch only reaches as far back as the last fix accepted before it: a fix older than that is rejected
    /// as out of order (``RejectionReason/outOfOrder``), because counting it would count its stretch twice. So
    /// deliver a locked phone's deferred fixes before any newer live fix, or use ``RewindingTracker``, which takes
    /// a backlog behind newer fixes. A plain tracker recovers such a backlog only when it lies inside a forward
    /// jump longer than ``TrackingProfile/maximumBridgedGapSeconds`` (10 minutes walking) with no more than that
    /// of fixes accepted after the jump (``TrackingProfile/clockJumpSeconds``): it restarts on the backlog's first
    /// ``TrackingProfile/rejectionsBeforeReanchor`` fixes in order, which are lost with a new anchor's window (an
    /// API tester's 10-minute backlog behind 1–60 live fixes lost 7–19 m of 1,520 m). A shorter
    /// backlog, or one behind a longer run of live fixes, is lost whole.
    ///
    /// - Complexity: O(n log n) for the sort; the batch's array of decisions (and, for an unsorted batch, its
    ///   sorted order) are the only allocations.
    public mutating func process(batch: [Fix]) -> [FixDecision] {
        if batch.isInTimeOrder(by: \.timestamp) {
            var result: [FixDecision] = []
            result.reserveCapacity(batch.count)
            for fix in batch { result.append(process(fix)) }
            return result
        }
        let order = batch.indicesInTimeOrder(by: \.timestamp)
        // Every index appears once in `order`: each slot is initialised exactly once.
        return [FixDecision](unsafeUninitializedCapacity: batch.count) { slots, count in
            for i in order { (slots.baseAddress! + i).initialize(to: process(batch[i])) }
            count = batch.count
        }
    }

    /// Processes a whole recorded track in its given order (as a live stream would deliver it) and returns
    /// the decisions in the same order. Identical to calling ``process(_:)`` for each fix.
    public mutating func process(track: some Sequence<Fix>) -> [FixDecision] {
        var result: [FixDecision] = []
        result.reserveCapacity(track.underestimatedCount)
        for fix in track { result.append(process(fix)) }
        return result
    }

    /// Goes on with another profile from the next fix: a running app's walk break, a rider who boards a train.
    /// Everything the tracker holds is kept (the total, the filter, the windows and the distance they hold back, a
    /// rest and a departure, the time order and the clock-jump bookkeeping, the activity reading, what it has
    /// learnt of the receiver), and the new profile's gates, ceilings and σₐ apply from the next fix on. One
    /// exception: a vehicle latch's held metres are counted when the new profile has no sustainable-speed limit
    /// (``TrackingProfile/maximumSustainedSpeedMetresPerSecond`` ∞: driving, cycling), since the app has said
    /// the ride is the journey; the latch then ends (and so does a sparse logger's chain latch, and an anchor's
    /// exclusion the new profile does not share). Returns the metres counted now (already in the total);
    /// nothing happens when `newProfile` is the current one. A checkpoint taken after the change carries it.
    ///
    /// Why a method and not a settable ``profile``: cached per-profile quantities (the prediction step, the
    /// Doppler check's chord) must be dropped with it, and the latch decided. A first version started the
    /// tracker afresh at its filtered position; a reviewer found it froze sessions in the middle of a clock
    /// jump, lost the first fix's next step, gave up what the windows held back and kept a bus ride latched
    /// under driving.
    @discardableResult
    public mutating func changeProfile(to newProfile: TrackingProfile) -> Double {
        guard newProfile != profile else { return 0 }
        profile = newProfile
        resetGapThresholdSeconds = newProfile.filterResetGapSeconds
        // (An interval of 0 ms is never a key: the next fix computes the step under the new σₐ.)
        predictionStepKey = 0
        chordStartMilliseconds = .min
        // Whether the chords have shown the readings consistent is the new profile's to say, from its point ratio (a
        // reviewer's: the old profile's verdict stood a chord long and, as shown before, skipped the point ratio).
        chordsShownOnce = newProfile.consistentChordsOutweighZeros && chordsShowConsistentReadings(shownBefore: false)
        updateJudgedEvidence()  // (the choice depends on the profile: a reviewer's walk turned run kept it)
        // The anchor's exclusion was judged under the old profile: it stands only if the new one excludes the
        // reading in force then too.
        if anchorIsExcluded, lastAnchorMilliseconds != .min {
            anchorIsExcluded = readingExcludes(at: lastAnchorMilliseconds)
        }
        guard !newProfile.maximumSustainedSpeedMetresPerSecond.isFinite else { return 0 }
        // A profile whose traveller has no sustainable-speed limit (driving, cycling) takes the ride as the journey:
        // the sparse logger's chain latch ends with the dense one (it refused every chord within the exit time of
        // the last in-vehicle reading: a bus ride's logger every 25 s after the switch to driving lost four 375 m
        // chords, an auditor's test).
        chainVehicleMilliseconds = .min
        guard isInVehicle else { return 0 }
        let counted = accumulator.add(doppler: vehiclePendingDoppler, filtered: vehiclePendingFiltered)
        endVehicleLatch()
        return counted
    }

    /// What the net-displacement window releases at a fix whose reading is not trusted (`doppler`, `filtered`: the
    /// held candidates of each source): readings that read faster than the window's filtered path
    /// (`windowDoppler` > `windowPosition`) count what they accrued while held scaled by the window's path over
    /// their path, filtered (a CLI tester's km/h column read as m/s under a 1.4 m/s walk released 95.8 m of 19 s at
    /// 5.04 m/s at the fix that distrusted it: 230.4 m of 166.6). Scaled, not capped at the window's path: what was
    /// held starts where the window last released, and the window's path before that was counted then (a
    /// reviewer's point). Out of line, a call only for a distrusted reading. (Added, the code first pushed
    /// ``MeasurementNoiseScale/scale`` out of line: the tracker benchmark read 753.7 instructions per fix with the
    /// release inline, 748.6 out of line; with that getter always inline, 720.9 against 716.9 before.)
    @usableFromInline @inline(never)
    static func releaseOfDistrustedReadings(
        doppler: Double, filtered: Double, windowDoppler: Double, windowPosition: Double
    ) -> (doppler: Double, filtered: Double) {
        guard doppler > 0, windowDoppler > windowPosition, windowDoppler > 0 else { return (doppler, filtered) }
        return (0, filtered + doppler * (max(0, windowPosition) / windowDoppler))
    }

    /// Ends the vehicle latch and drops what it held (the caller has counted it or given it up). The latch's exit
    /// on the per-fix path clears the same fields around its own decision.
    @usableFromInline
    mutating func endVehicleLatch() {
        isInVehicle = false
        slowSinceMilliseconds = .min
        vehiclePendingDoppler = 0
        vehiclePendingFiltered = 0
    }

    /// The share of the reported position variance the filter currently uses (see ``MeasurementNoiseScale``).
    @inlinable public var measurementNoiseScale: Double { noise.scale }

    /// The filter's current state as a ``FilteredState``, or `nil` before the first accepted fix.
    @inlinable public var state: FilteredState? { hasFilter ? currentState() : nil }

    /// `planeMayBePolar`: whether to ask the plane's kind (see ``process(_:planeMayBePolar:)``).
    @inlinable @inline(__always)
    func currentState(planeMayBePolar: Bool = true) -> FilteredState {
        let (lat, lon) =
            planeMayBePolar
            ? projection.unproject(east: filter.east, north: filter.north)
            : projection.unprojectEquirectangular(east: filter.east, north: filter.north)
        // True east and north where the track is (they turn against a polar plane's axes).
        // (From the plane's coordinates, not from `lon`: then a caller that reads no position computes none.)
        let velocity =
            planeMayBePolar
            ? projection.trueVelocity(
                east: filter.velocityEast, north: filter.velocityNorth, atEast: filter.east, north: filter.north)
            : (east: filter.velocityEast, north: filter.velocityNorth)
        return FilteredState(
            latitude: lat, longitude: lon, velocityEastMetresPerSecond: velocity.east,
            velocityNorthMetresPerSecond: velocity.north,
            positionSigmaMetres: filter.positionVariance.squareRoot(),
            velocitySigmaMetresPerSecond: filter.velocityVariance.squareRoot())
    }

    /// Processes one fix and returns what was done with it and why.
    ///
    /// - Complexity: O(1) amortised (the trailing window holds at most 32 samples); no allocation.
    ///
    /// `@inlinable` (with the state `@usableFromInline`): inlined into a caller's loop, the fields of the
    /// decision the caller does not read are not computed (see ARCHITECTURE.md, "Tracker speed").
    @inlinable @inline(__always)
    public mutating func process(_ fix: Fix) -> FixDecision {
        // Near a pole, or near enough that the plane may turn polar during this fix: out of line, where the plane's
        // kind is asked at every use (see `LocalFrame`'s polar frames); everywhere else the plane is known to be
        // equirectangular (asking per use cost the tracker 57 instructions per fix, 8 %).
        if _slowPath(projection.isPolar || abs(fix.latitude) >= Self.polarPathLatitudeDegrees) {
            return processNearPole(fix)
        }
        return process(fix, planeMayBePolar: false)
    }

    /// From this latitude (degrees, either hemisphere) on, fixes take ``processNearPole(_:)``: a degree short of
    /// ``LocalFrame/trackingPolarLatitudeDegrees``, so that no plane anchored or re-centred during a fix on the
    /// other path is polar (the filter re-centres 10 km from its anchor, a degree is 111 km).
    @usableFromInline static let polarPathLatitudeDegrees = LocalFrame.trackingPolarLatitudeDegrees - 1

    /// ``process(_:)`` near a pole (see there). Out of line: only within 1,200 km of a pole.
    @usableFromInline @inline(never)
    mutating func processNearPole(_ fix: Fix) -> FixDecision {
        process(fix, planeMayBePolar: true)
    }

    /// ``process(_:)`` once the path is chosen; `planeMayBePolar`: whether the plane's kind is asked at each use
    /// (a constant once inlined).
    @inlinable @inline(__always)
    mutating func process(_ fix: Fix, planeMayBePolar: Bool) -> FixDecision {
        // (A reading under the deadband after one above it, or in a dropout, may be a dropout of the column: judged
        // out of line.)
        if _slowPath(fix.storedSpeedMetresPerSecond < profile.deadbandMetresPerSecond),
            _slowPath(droppedOutSinceMilliseconds != .min || lastReading >= profile.deadbandMetresPerSecond),
            readsDroppedOut(fix)
        {
            return processWithoutReading(fix, planeMayBePolar: planeMayBePolar)
        }
        return process(fix, readingDroppedOut: false, planeMayBePolar: planeMayBePolar)
    }

    /// ``process(_:)`` once its reading was judged; `readingDroppedOut`: the fix comes without the reading it had,
    /// a dropout of the column (``readsDroppedOut(_:)``), which counts as a zero in the session's evidence of the
    /// column's consistency (the Doppler check) for a window span from the drop, and nowhere else.
    @inlinable @inline(__always)
    mutating func process(_ fix: Fix, readingDroppedOut: Bool, planeMayBePolar: Bool) -> FixDecision {
        let now = fix.timestamp.millisecondsSince1970
        var decision = FixDecision(timestamp: fix.timestamp, rejection: nil, state: nil, total: distance.totalMetres)

        // 1. Validity and ordering.
        // (NaN and ±∞ fail these comparisons too: no separate finiteness test is needed.)
        guard abs(fix.latitude) <= 90, abs(fix.longitude) <= 180 else { return reject(&decision, .invalid) }
        if _slowPath(fix.isAtNullIsland) { return reject(&decision, .invalid) }
        let isDuplicate =
            now == lastReceivedMilliseconds && fix.latitude == lastReceivedLatitude
            && fix.longitude == lastReceivedLongitude
        lastReceivedMilliseconds = now
        lastReceivedLatitude = fix.latitude
        lastReceivedLongitude = fix.longitude
        if isDuplicate { return reject(&decision, .duplicate) }
        // Not newer: out of order, unless it ends a clock jump's run, which restarts the tracker (the fix is then
        // anchored below like a first fix). Without a filter too: a resumed session's last accepted time (see
        // `restore(persistedTotalMetres:lastAccepted:)`).
        if now <= lastAcceptedMilliseconds
            && !restartsOnClockJump(at: now, latitude: fix.latitude, longitude: fix.longitude)
        {
            return reject(&decision, .outOfOrder)
        }
        // (A fix rejected by a later gate still carries a valid reading: an indoor "still" on a 40 m fix.)
        if let reading = fix.activity { process(activity: reading, at: fix.timestamp) }

        // 2. Accuracy gate.
        let accuracy: Double
        // The net-displacement gate's noise level: the reported accuracy, or for a fix without one the
        // profile's displacement noise (not the accuracy gate's acceptance fallback).
        let displacementAccuracy: Double
        switch AccuracyGate.evaluate(fix.horizontalAccuracy, profile: profile) {
        case .rejected: return reject(&decision, .accuracy)
        case .accepted(let metres, let isAssumed):
            accuracy = metres
            displacementAccuracy = isAssumed ? profile.assumedDisplacementAccuracyMetres : metres
            decision.accuracyMetres = metres
            decision.isAccuracyAssumed = isAssumed
        }
        let r = MeasurementNoise.perAxisVariance(radius68: accuracy)
        let doppler = fix.speedMetresPerSecond

        // First fix: anchor the plane and the filter.
        guard hasFilter else {
            // (A first fix anchors whatever its reading: an anchor counts nothing, and the fixes after it are
            // judged against it, where a reading that is too fast for the motion is refused and one far above it,
            // a speed in another unit, is set aside. Refused here, a ride whose km/h readings lay above the
            // ceiling had every fix refused in turn.)
            // (A rest from before a restart is in another plane: a departure from it counts now.)
            if _slowPath(isAroundRest) {
                decision.distanceIncrementMetres = endRest()
            }
            // Not newer than the last accepted fix: a clock-jump restart (`restartsOnClockJump`).
            decision.isClockRestart = now <= lastAcceptedMilliseconds
            if decision.isClockRestart {
                decision.distanceIncrementMetres += countRestartChord(to: fix, accuracy: displacementAccuracy, now: now)
            }
            return anchorAsFirstFix(
                &decision, fix: fix, variance: r, accuracy: accuracy, displacementAccuracy: displacementAccuracy,
                now: now)
        }

        let interval = now &- lastAcceptedMilliseconds
        // (The prediction step is cached by interval and by whether the fix is position-only: it reads no speed, or
        // once the readings were overruled as a placeholder one under the deadband, and has a reported accuracy;
        // see `readsNoSpeed` and `TrackingProfile.accelerationSigmaWithoutDoppler`.)
        let stepKey = interval &* 2 &+ (readsNoSpeed(fix) && !decision.isAccuracyAssumed ? 1 : 0)
        if stepKey != predictionStepKey {
            let limit = profile.accelerationSigmaWithoutDoppler
            isPositionOnlyStep =
                stepKey & 1 == 1 && limit > 0 && limit < profile.accelerationSigma
            let sigma = isPositionOnlyStep ? limit : profile.accelerationSigma
            predictionStep = PredictionStep(seconds: Double(interval) / 1000, accelerationVariance: sigma * sigma)
            predictionStepKey = stepKey
            let positionSigma = profile.positionFilterAccelerationSigma
            positionStepDiffers = positionSigma > 0 && positionSigma < sigma
            if _slowPath(positionStepDiffers) {
                positionPredictionStep = PredictionStep(
                    seconds: Double(interval) / 1000, accelerationVariance: positionSigma * positionSigma)
            }
        }
        let dt = predictionStep.seconds
        let (e, n) =
            planeMayBePolar
            ? projection.project(latitude: fix.latitude, longitude: fix.longitude)
            : projection.projectEquirectangular(latitude: fix.latitude, longitude: fix.longitude)
        if _slowPath(now > replayedThroughMilliseconds) {
            // Past the stretch a restart inside a forward jump went back over (see
            // `replayedThroughMilliseconds`): a new anchor, the step onto it not counted.
            replayedThroughMilliseconds = .max
            anchor(
                east: e, north: n, variance: r, fix: fix, accuracy: accuracy,
                displacementAccuracy: displacementAccuracy, now: now)
            return finishAnchor(&decision)
        }

        // 3. Speed gate.
        let de = e - lastRawEast, dn = n - lastRawNorth
        let squaredDisplacement = de * de + dn * dn
        // A stalled receiver repeating the last accepted position while the track moves on (see
        // `isStaleRepeat`).
        if _slowPath(squaredDisplacement == 0),
            isStaleRepeat(
                latitude: fix.latitude, longitude: fix.longitude, doppler: doppler, seconds: dt, accuracy: accuracy,
                now: now)
        {
            return reject(&decision, .duplicate)
        }
        if _slowPath(dt > profile.sessionBreakSeconds), profile.sessionBreakSeconds > 0 {
            // A silence that ends a recording: the tracker starts afresh (see `startAfresh`), this fix its first.
            // (Unlike a first fix, one with a Doppler speed above the ceiling anchors too: the speed gate refuses
            // the fixes after it, and an anchor counts nothing. Refusing it here cost the `track-walk` benchmark
            // 28 instructions per fix, however it was written.)
            decision.distanceIncrementMetres = startAfresh()
            return anchorAsFirstFix(
                &decision, fix: fix, variance: r, accuracy: accuracy, displacementAccuracy: displacementAccuracy,
                now: now)
        }
        var gate = SpeedGate.speed(
            doppler: doppler, displacementMetres: squaredDisplacement.squareRoot(), seconds: dt,
            accuracy: accuracy, previousAccuracy: lastAccuracy)
        if _slowPath(!SpeedGate.passes(gate.metresPerSecond, profile: profile)), gate.source == .doppler {
            // A reading the session shows to be in another unit (km/h read as m/s) says nothing of "too fast":
            // the displacement does. (Out of line and only where a reading is too fast: judged on every fix it
            // cost the `track-walk` benchmark 32 instructions.)
            gate = speedGateIgnoringAWrongUnit(
                gate, displacementMetres: squaredDisplacement.squareRoot(), seconds: dt, accuracy: accuracy)
        }
        decision.gateSpeedMetresPerSecond = gate.metresPerSecond
        decision.gateSpeedSource = gate.source
        let isLongGap = dt > resetGapThresholdSeconds
        if !SpeedGate.passes(gate.metresPerSecond, profile: profile) {
            // A Doppler speed above the ceiling says "too fast" wherever the fix is: never re-anchor on it.
            if gate.source == .doppler { return reject(&decision, .speed) }
            if !countsTowardsReanchor(east: e, north: n, variance: r, now: now) && !isLongGap {
                return reject(&decision, .speed)
            }
            anchor(
                east: e, north: n, variance: r, fix: fix, accuracy: accuracy,
                displacementAccuracy: displacementAccuracy, now: now)
            return finishAnchor(&decision)
        }

        if isLongGap {
            // A silence proves nothing about the mode of travel: a vehicle latch stays (a walk after it
            // loses nothing, its spell is released once it lasts), but its slow spell restarts.
            slowSinceMilliseconds = .min
            // Before the anchor, which may re-centre the plane (and re-expresses the gap's origin with it).
            decision.distanceIncrementMetres = beginGap(
                east: e, north: n, seconds: dt, displacementAccuracy: displacementAccuracy, doppler: doppler, now: now)
            if lastExcursionStartMilliseconds != .min {
                decision.excursionStart = Timestamp(millisecondsSince1970: lastExcursionStartMilliseconds)
            }
            if _slowPath(lastReading >= 0) {
                decision.distanceIncrementMetres += countSparseGap(
                    east: e, north: n, seconds: dt, reading: fix.storedSpeedMetresPerSecond,
                    course: gridCourse(fix.storedCourseDegrees, of: fix, accuracy: accuracy),
                    accuracy: displacementAccuracy, now: now)
            }
            let stepBeforeSeconds = lastStepSeconds  // (the anchor sets it to this gap)
            anchor(
                east: e, north: n, variance: r, fix: fix, accuracy: accuracy,
                displacementAccuracy: displacementAccuracy, now: now)
            // A logger whose steps straddle the gap: the steps after it stay gaps (see `resetGapHysteresis`).
            if stepBeforeSeconds > Self.resetGapHysteresis * profile.filterResetGapSeconds {
                resetGapThresholdSeconds = Self.resetGapHysteresis * profile.filterResetGapSeconds
            }
            // Every reset gap is settled half a window on (see `bridge`), with or without a chord to count.
            pendingGapSeconds = dt
            return finishAnchor(&decision)
        }

        // 4. Outlier gate against the prediction.
        // Bridging (see "Bridging"), while `filter` still holds the state before this step. One out-of-line call
        // under one rare condition: every other arrangement tried (a call after the update, the confirmation
        // after the gates, inline code) made the compiler copy the whole tracker in and out on every fix, twice
        // the per-fix cost (the cause, found later: helpers and getters called out of line on a `self` taken by
        // value; see `continuesRejectionRun`).
        var bridgeFloor = 0.0
        if _slowPath(dt > profile.maximumIntegrationSeconds || pendingGapSeconds > 0) {
            let bridged = bridge(
                east: e, north: n, seconds: dt, variance: r, isAccuracyAssumed: decision.isAccuracyAssumed,
                doppler: doppler,
                course: gridCourse(fix.storedCourseDegrees, of: fix, accuracy: accuracy),
                now: now)
            bridgeFloor = bridged.x
            decision.distanceIncrementMetres = bridged.y
        }
        var predicted = filter
        predicted.predict(predictionStep)
        // Under the position-only σₐ, the gate's measurement variance is at least the scatter the fixes show from
        // epoch to epoch (once the white-noise estimate has its triples): a receiver claiming 1–2 m with 4 m of
        // white noise per axis failed the gate on a quarter of its fixes, and each re-anchor restarted the windows
        // (parked, per hour: 66–221 m, 0–133 m under σₐ 8, 31–79 m with this). Only there: the estimate comes from
        // the fixes the gate let through, and for a slow walker logging every 2 s on such a receiver the wider
        // gate fed the estimate, which raised the moving threshold too (a reviewer's 0.6 m/s walk: 778 → 197 m of
        // 720).
        let gateVariance =
            isPositionOnlyStep && whiteNoise.samples >= WhiteNoiseEstimate.minimumSamples
            ? max(r, whiteNoise.varianceMetres2) : r
        let d2 = predicted.normalisedInnovation(east: e, north: n, variance: gateVariance)
        decision.innovationChiSquare = d2
        // (A fix after a rejection that is nearer the rejected fix than the prediction continues the run: see
        // `continuesRejectionRun`.)
        if !(d2 <= profile.outlierChiSquare)
            || (_slowPath(consecutiveRejections > 0) && doppler == nil
                && continuesRejectionRun(
                    east: e, north: n, predictedEast: predicted.east, predictedNorth: predicted.north))
        {
            if !countsTowardsReanchor(east: e, north: n, variance: r, now: now) {
                return reject(&decision, .outlier)
            }
            anchor(
                east: e, north: n, variance: r, fix: fix, accuracy: accuracy,
                displacementAccuracy: displacementAccuracy, now: now)
            // (Readings far too fast refuse every fix but the re-anchors': they end spans too. See `judgeSpeedSpan`.)
            speedSpanSawReanchor = true
            if _slowPath(now >= speedSpanEndMilliseconds), let doppler, !speedReadsWrong {
                let shortfall = judgeSpeedSpan(
                    east: e, north: n, accuracy: accuracy, now: now, reanchorReading: doppler)
                if shortfall > 0 {
                    decision.distanceIncrementMetres += accumulator.add(doppler: 0, filtered: shortfall)
                }
            }
            return finishAnchor(&decision)
        }
        consecutiveRejections = 0

        // 5. Kalman update (position), in both filters, with the white-noise share of the reported variance
        // estimated so far (this fix's innovation only counts from the next fix on).
        let rWhite = r * noise.scale
        var predictedVariance = predicted.positionVariance
        if _slowPath(positionStepDiffers) {
            // Judged as under the position filter's σₐ (`TrackingProfile.positionFilterAccelerationSigma`): the
            // larger σₐ's process noise overstated P⁻, ν² − P⁻ read rough fixes as nearly noise-free (scale 0.15
            // for 2 m of white noise under the running profile, 0.35–0.65 under walking), and the position
            // filter followed the noise.
            predictedVariance -= predictionStep.positionNoise - positionPredictionStep.positionNoise
        }
        if predictedVariance <= r {
            // Only where the innovation says something about r: with P⁻ ≤ r, r is at least half of the
            // innovation variance; with P⁻ ≫ r (after an anchor or a gap, or under a large process noise)
            // ν² − P⁻ is a difference of large numbers dominated by its own scatter.
            let ie = e - predicted.east, iN = n - predicted.north
            noise.record(
                squaredInnovationMetres: ie * ie + iN * iN, predictedVariance: predictedVariance,
                reportedVariance: r, profile: profile)
        }
        // The position filter's covariance follows the same recursion as the output filter's until a Doppler
        // velocity update (or an anchor with a Doppler velocity) sets them apart: while the two are equal bit
        // for bit, its predicted and updated covariance and its gain are the output filter's, so only its
        // means are computed (the same arithmetic on the same inputs: identical results, fewer operations).
        // (Not while it predicts with its own σₐ: `TrackingProfile.positionFilterAccelerationSigma`.)
        let sharesCovariance = !positionStepDiffers && positionFilter.hasSameCovariance(as: filter)
        let gain = predicted.updatePositionReturningGain(east: e, north: n, variance: rWhite)
        filter = predicted
        if sharesCovariance {
            positionFilter.predictMeans(predictionStep)
            positionFilter.updatePositionMeans(east: e, north: n, gain: gain)
            positionFilter.copyCovariance(from: filter)
        } else {
            positionFilter.predict(positionStepDiffers ? positionPredictionStep : predictionStep)
            positionFilter.updatePosition(east: e, north: n, variance: rWhite)
        }
        let positionSpeed = positionFilter.speedMetresPerSecond
        let step = min(dt, profile.maximumIntegrationSeconds)
        if let doppler {
            dopplerPath += doppler * step
            dopplerSeconds += step
            subDeadbandRun = doppler < profile.deadbandMetresPerSecond ? subDeadbandRun &+ 1 : 0
            if _slowPath(zerosHeldInRun > 0), doppler >= profile.deadbandMetresPerSecond {
                endZeroReadingRun(reading: doppler, now: now)
            }
        } else if dopplerSeconds > 0 {
            // A receiver that reports Doppler fell silent: iOS says −1 (no speed) at a halt, so a missing
            // reading extends a run like a zero (see `dropoutBound`).
            subDeadbandRun &+= 1
        }
        positionPath += positionSpeed * step

        // Window quantities: net displacement of the filtered track, Doppler and position-filter paths.
        let span = windowSpanMilliseconds
        window.dropOlder(than: now, spanMilliseconds: span)
        accuracySum += displacementAccuracy
        fixCount += 1
        var net = 0.0
        var meanAccuracy = displacementAccuracy
        var windowDoppler = 0.0, windowDopplerSeconds = 0.0, windowPosition = 0.0
        var startCandidateDoppler = candidates.x, startCandidateFiltered = candidates.y
        var windowMilliseconds: Int64 = 0
        if let start = window.oldest() {
            windowMilliseconds = now - start.milliseconds
            let ne = filter.east - start.east, nn = filter.north - start.north
            net = (ne * ne + nn * nn).squareRoot()
            let count = fixCount - start.fixCount
            if count > 0 { meanAccuracy = (accuracySum - start.accuracySum) / count }
            windowDoppler = dopplerPath - start.dopplerPath
            windowDopplerSeconds = dopplerSeconds - start.dopplerSeconds
            windowPosition = positionPath - start.positionPath
            startCandidateDoppler = start.candidateDoppler
            startCandidateFiltered = start.candidateFiltered
        }
        let threshold = NetDisplacementGate.threshold(meanAccuracy: meanAccuracy, profile: profile)
        decision.netDisplacementMetres = net
        decision.netDisplacementThresholdMetres = threshold
        // Doppler motion evidence is tri-state: with Doppler over at least half the window, its mean speed
        // says moving or still; without, it says nothing and the net displacement decides.
        let isMoving: Bool
        if windowMilliseconds < span / 2 {
            // Too short a window to judge the speed (just after an anchor): hold, so that a vehicle's first
            // seconds are given up and a walker's are released once the window can tell them apart.
            isMoving = false
        } else if windowDopplerSeconds >= profile.windowSeconds / 2 {
            isMoving = windowDoppler / windowDopplerSeconds >= profile.motionDopplerSpeedMetresPerSecond
        } else {
            // (Also while the readings are overruled: a column of placeholder zeros under a track that keeps going,
            // taken out of the window, see `ContradictedReadings`.)
            // The net displacement decides: above the accuracy threshold and above the filtered track's own
            // noise, as far as the fixes scatter from epoch to epoch (white-noise receivers). The Doppler check
            // and the vehicle latch's exit keep the accuracy threshold: it says where the fixes can be, not how
            // much the filtered track jitters.
            // (Out of line: inline, the floor cost the tracker benchmark 15 instructions per fix on its Doppler
            // path, which never takes this branch.)
            // (A fix inside a still stretch raises it to the net displacement: see `movingThreshold`.)
            // (And the chords of averaged blocks beyond what was counted, added to the total: see `ChordOdometer`.)
            let (movingThreshold, chord) = movingThreshold(threshold, filterNoiseVariance: rWhite, east: e, north: n)
            decision.distanceIncrementMetres += chord
            decision.chordMetres = chord
            decision.netDisplacementThresholdMetres = movingThreshold
            isMoving = NetDisplacementGate.isMoving(netDisplacement: net, threshold: movingThreshold)
            if !isMoving, profile.departureConfirmationSeconds > 0 {
                decision.distanceIncrementMetres += recordRest(now: now, threshold: movingThreshold)
            }
        }
        if _slowPath(now >= heldZeroReadingsDeadlineMilliseconds) {
            settleHeldZeroReadings(isMoving: isMoving, now: now)
        }
        if _slowPath(now >= speedSpanEndMilliseconds), doppler != nil {
            judgeSpeedSpan(east: e, north: n, accuracy: accuracy, now: now)
        }
        // Session evidence for the Doppler check while moving: the Doppler path and the position filter's path,
        // or its chords of a window span (`TrackingProfile.judgesDopplerByChords`).
        if isMoving, let doppler {
            if _slowPath(profile.judgesDopplerByChords) {
                // (A step longer than the integration limit restarts the chord: the Doppler path counts at most
                // that long a step, the chord the whole way; fixes every 15 s distrusted a good Doppler.)
                unitEvidence += SIMD2(doppler, positionSpeed) * step
                if chordStartMilliseconds == .min || dt > profile.maximumIntegrationSeconds {
                    startChord(now: now)
                } else if now &- chordStartMilliseconds >= span {
                    completeUnitChord(now: now)
                }
            } else {
                sessionDopplerPath += doppler * step
                sessionPositionPath += positionSpeed * step
                // (Both out of line: zeros are rare, a chord ends once a window span. Inline, the chord evidence cost
                // the tracker benchmark 54 instructions per fix.)
                if _slowPath(doppler < DopplerCheck.zeroReadingMetresPerSecond),
                    positionSpeed >= profile.deadbandMetresPerSecond
                {
                    holdZeroReadingWhileMoving(now: now)
                }
                if _slowPath(
                    chordStartMilliseconds == .min || dt > profile.maximumIntegrationSeconds
                        || now &- chordStartMilliseconds >= span)
                {
                    advanceChordEvidence(now: now, seconds: dt)
                }
            }
        } else if _slowPath(readingDroppedOut) {
            if isMoving, !profile.judgesDopplerByChords, now &- droppedOutSinceMilliseconds <= span {
                // (A dropout's zeros are evidence against the column for a window span: zeros in one of every few
                // stretches at speed, the column is no measurement, while one long glitch, recognised, does not
                // condemn the halts after it. By chords they read as zeros already: the Doppler path did not grow.)
                sessionPositionPath += positionSpeed * step
                chordZeroSeconds += step
                // (A dropout is a zero read while moving: held as one, as a Samsung-style receiver's.)
                if positionSpeed >= profile.deadbandMetresPerSecond { holdZeroReadingWhileMoving(now: now) }
            } else {
                chordStartMilliseconds = .min
            }
        } else if !isMoving {
            chordStartMilliseconds = .min
        }
        // (A fix without a reading while moving, from a receiver that reports Doppler (iOS −1, an Android fix without
        // speed), leaves the chord under way, unless its step is longer than the integration limit, which restarts a
        // chord with readings too (in `dropoutBound`, out of line): see `chordDopplerPath(now:)`.)
        let judgedEvidence = judgedDopplerEvidence
        let isTrusted =
            doppler.map { speed in
                (DopplerCheck.isTrusted(
                    dopplerPathMetres: windowDoppler, positionPathMetres: windowPosition,
                    thresholdMetres: threshold,
                    sessionDopplerPathMetres: judgedEvidence.x, sessionPositionPathMetres: judgedEvidence.y,
                    profile: profile)
                    // (Out of line, only for a fix the reading alone takes for a jump: whether the column reads
                    // slow all along. Inline, such a test cost the simulated walk 13 instructions per fix.)
                    || (DopplerCheck.filterFollowsAJump(
                        positionSpeedMetresPerSecond: positionSpeed, reading: speed, profile: profile)
                        && !readsSlowAllAlong(now: now, stepMetres: positionSpeed * step)))
                    && !readsInAnotherUnit
                    // (Readings the fixes' chords show far too slow or fast, span after span: see ``SpeedCheck``.)
                    && !speedReadsWrong
                    // A zero (or sub-deadband) reading while the receiver moves and the position filter agrees,
                    // from a receiver whose session Doppler path falls short of its position path: a
                    // Samsung-style dropout, not a halt (a consistent receiver's zero is believed).
                    && !isDropout(speed, isMoving: isMoving, positionSpeed: positionSpeed)
                    // (A reading the speed gate set aside, see `speedGateIgnoringAWrongUnit`.)
                    && decision.gateSpeedSource != .derived
            } ?? false

        // 5b. Kalman update (Doppler velocity), only when trusted.
        if isTrusted, let speed = doppler {
            let speedSigma = fix.speedAccuracyMetresPerSecond ?? profile.assumedSpeedAccuracyMetresPerSecond
            if _slowPath(speed < profile.deadbandMetresPerSecond) {
                // A halt (out of line: see `updateVelocityWithStillReading`).
                updateVelocityWithStillReading(speed, speedSigma: speedSigma, fix: fix)
            } else if let course = fix.courseDegrees {
                updateVelocityCheckingCourse(speed: speed, courseDegrees: course, speedSigma: speedSigma, fix: fix)
            }
        }

        // 6. Speed choice and 7. distance.
        let source: SpeedSource = isTrusted ? .doppler : .filtered
        let speed = isTrusted ? doppler! : positionSpeed
        var increment = SpeedIntegration.increment(speed: speed, seconds: dt, profile: profile)
        decision.speedSource = source
        decision.speedMetresPerSecond = increment > 0 ? min(speed, profile.maximumSpeedMetresPerSecond) : 0
        decision.isDopplerTrusted = isTrusted || doppler == nil
        if increment == 0 { decision.hold = .deadband }
        if _slowPath(bridgeFloor > increment), increment > 0 {
            // A step longer than the clamp whose chord says more (see ``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``).
            increment = bridgeFloor
            decision.speedMetresPerSecond = bridgeFloor / dt  // the speed actually integrated
        } else if _slowPath(bridgeFloor < 0) {
            // A sparse step with a reading at both ends: its speed integral (see `sparseStepEstimate`), at least the
            // chord of a step that kept its heading (the bridge floor), counted at once. (The window gates judge a
            // dense track: at a 15 s cadence a 10 s window holds one fix, and every step was held, then given up.)
            let counted = commitSparseStep(floor: -1 - bridgeFloor)
            decision.distanceIncrementMetres += accumulator.add(doppler: counted, filtered: 0)
            increment = 0
            decision.speedMetresPerSecond = counted / dt  // the speed actually integrated
            decision.speedSource = .doppler
            decision.hold = counted > 0 ? .none : .deadband
        }
        if _slowPath(subDeadbandRun > 0),
            isTrusted || doppler == nil || (increment > 0 && subDeadbandRun >= TrackingProfile.haltRunLength)
        {
            // A run of dropouts (a halt's zeros run on; a dropout's are scattered among moving readings) may be a
            // halt: see `dropoutBound`. Out of line, and tested first on the run, so that the per-fix path pays
            // one comparison (inline, the bound cost the tracker benchmark ~10 %). A trusted reading's run is judged
            // there too, against a track that keeps going (`judgeTrustedStillReadings`).
            // (The decision is adjusted here, not handed to the out-of-line function: its address escaping would
            // make every field of it live on every fix.)
            let (allowed, isUnderDeadband) = dropoutBound(
                increment, reading: doppler, droppedOut: readingDroppedOut, isTrusted: isTrusted, isMoving: isMoving,
                netMetres: net, thresholdMetres: threshold)
            if _slowPath(countedWhileJudging > 0) {
                decision.distanceIncrementMetres += countedWhileJudging
                decision.hold = .none
                countedWhileJudging = 0
            }
            if allowed != increment {
                // (Bounded, or a missing reading's stand-in: see `trustedStandInForMissingReading()`.)
                decision.speedMetresPerSecond = allowed / step  // the speed actually integrated
                if allowed == 0 {
                    decision.hold = isUnderDeadband ? .deadband : .netDisplacement
                } else if increment == 0 {
                    decision.hold = .none
                }
                increment = allowed
            }
        }
        // (The reading's verdict out of line, only with a reading: see `activityVerdict(now:)`.)
        var readsExcludedActivity = false
        if _slowPath(activity != nil) {
            let reading = activityVerdict(now: now)
            decision.motion = reading.motion
            decision.isStillReadingContradicted = reading.isContradicted
            readsExcludedActivity = reading.excludes
        }
        var isFast =
            windowMilliseconds >= span / 2
            && net / (Double(windowMilliseconds) / 1000) > profile.maximumSustainedSpeedMetresPerSecond
        if !isFast && windowMilliseconds > span {
            // The window reaches back past its span (sparse fixes: see TrailingWindow.dropOlder); a net speed
            // over that longer stretch dilutes a jump, so the span proper (from its oldest sample) is judged too.
            isFast = isFastOverSpanProper(now: now, spanMilliseconds: span)
        }
        if _slowPath(isFast),
            isExplainedByReadings(
                netMetres: net, windowMilliseconds: windowMilliseconds, readingsMetres: windowDoppler,
                readingsSeconds: windowDopplerSeconds, isTrusted: isTrusted, hasReading: doppler != nil, now: now)
        {
            // (Trusted readings over the window that say the traveller is not that fast, near a gap's anchor or
            // covering most of the window: the filtered track's own error, not travel; see `isExplainedByReadings`.)
            isFast = false
        }
        // A confident in-vehicle reading latches only a profile that excludes it (walking, running, cycling):
        // for the driving profile a car is the journey itself, not a spell to hold.
        let readsVehicle = readsExcludedActivity && activity?.kind == .inVehicle
        if isFast || readsVehicle {
            // Faster over the window than the profile's traveller can sustain (GeoLife's taxi and bus average
            // 4.6-5.3 m/s), or a confident in-vehicle reading: the vehicle latch (re)starts, and the slow
            // spell so far was the vehicle's.
            startVehicleLatch(
                readsVehicle: readsVehicle, isTrusted: isTrusted, readingsMetres: windowDoppler,
                readingsSeconds: windowDopplerSeconds)
        } else if isInVehicle, slowSinceMilliseconds == .min {
            slowSinceMilliseconds = now
            slowStart = SIMD2(filter.east, filter.north)
        }
        if readsExcludedActivity || isFast {
            increment = 0
            decision.hold = .activity
        }
        candidates += source == .doppler ? SIMD2(increment, 0) : SIMD2(0, increment)

        if decision.hold == .activity {
            // Excluded (in a vehicle, or still): the increments still held back in the window were accrued
            // during the same movement, so they are given up rather than released later.
            committed = candidates
        } else if isMoving && speed <= profile.maximumSustainedSpeedMetresPerSecond {
            // (A speed the traveller cannot sustain is held until the window can tell a sprint, released
            // here later, from a vehicle pulling away, given up when the window turns fast.)
            var releaseDoppler = candidates.x - max(committed.x, startCandidateDoppler)
            var releaseFiltered = candidates.y - max(committed.y, startCandidateFiltered)
            if _slowPath(!isTrusted), doppler != nil {
                (releaseDoppler, releaseFiltered) = Self.releaseOfDistrustedReadings(
                    doppler: releaseDoppler, filtered: releaseFiltered, windowDoppler: windowDoppler,
                    windowPosition: windowPosition)
            }
            committed = candidates
            if isInVehicle {
                vehiclePendingDoppler += releaseDoppler
                vehiclePendingFiltered += releaseFiltered
                decision.hold = .vehicle
            } else if _slowPath(isAroundRest) {
                // Leaving a rest, or on the way from one (see `leaveRest`).
                decision.distanceIncrementMetres += leaveRest(
                    doppler: releaseDoppler, filtered: releaseFiltered, now: now,
                    threshold: decision.netDisplacementThresholdMetres)
                if departureMilliseconds != .min, increment > 0 { decision.hold = .departure }
            } else {
                decision.distanceIncrementMetres += accumulator.add(doppler: releaseDoppler, filtered: releaseFiltered)
            }
        } else if increment > 0 {
            decision.hold = isInVehicle ? .vehicle : .netDisplacement
        }
        // (Appended before the latch's exit, which calls out of line: the sums just written are still in
        // registers here; read back after the call, they stalled on store forwarding.)
        window.append(
            TrailingWindow.Sample(
                milliseconds: now, east: filter.east, north: filter.north, dopplerPath: dopplerPath,
                dopplerSeconds: dopplerSeconds, positionPath: positionPath, candidateDoppler: candidates.x,
                candidateFiltered: candidates.y, accuracySum: accuracySum,
                fixCount: fixCount))
        if isInVehicle, slowSinceMilliseconds != .min,
            Double(now &- slowSinceMilliseconds) / 1000 >= profile.vehicleExitSeconds
        {
            // Slow for long enough: the traveller left the vehicle; the spell's distance was a walk if the
            // track has left where the spell started (else a multipath excursion set the latch off and the
            // held metres were its return: given up).
            isInVehicle = false
            slowSinceMilliseconds = .min
            if hasLeftSlowStart(threshold: threshold) {
                decision.distanceIncrementMetres += accumulator.add(
                    doppler: vehiclePendingDoppler, filtered: vehiclePendingFiltered)
                if decision.hold == .vehicle { decision.hold = .none }
            }
            vehiclePendingDoppler = 0
            vehiclePendingFiltered = 0
        }

        // Only fixes without Doppler (or with a placeholder's, as above) need the white-noise estimate (the noise
        // floor applies when the window has too little Doppler to judge by); a Doppler fix breaks the triple (one
        // store on the usual path).
        // (The step is recomputed here rather than kept from the speed gate: keeping it alive over the whole
        // update cost the tracker benchmark 18 instructions per fix: 647 against 629.)
        if readsNoSpeed(fix) {
            whiteNoise.record(
                eastMetres: e - lastRawEast, northMetres: n - lastRawNorth, seconds: predictionStep.seconds,
                previousAccuracyMetres: lastAccuracy, averagingFixes: profile.measurementNoiseScaleFixes)
        } else {
            whiteNoise.breakSequence()
        }
        lastAcceptedMilliseconds = now
        lastRawEast = e
        lastRawNorth = n
        lastAccuracy = accuracy
        // (The stored fields, NaN for none: unwrapping the optionals here cost the tracker benchmark 6 instructions.)
        lastReading = fix.storedSpeedMetresPerSecond
        // (A wrong column's: its readers check `courseIsWrong`. On the plane's axes: see `LocalFrame`'s polar frames.)
        lastCourse =
            planeMayBePolar ? gridCourse(fix.storedCourseDegrees, of: fix, accuracy: accuracy) : fix.storedCourseDegrees
        lastStepSeconds = dt
        recentreIfFar()
        decision.state = currentState(planeMayBePolar: planeMayBePolar)
        decision.totalDistanceMetres = distance.totalMetres
        return decision
    }

    /// (Re)starts the vehicle latch at a fast window or a confident `in vehicle` reading (`readsVehicle`): the slow
    /// spell so far was the vehicle's. The latch is backed by readings (``isLatchBackedByReadings``) when this
    /// (re)start is (the reading, or `isTrusted` readings over half the window, `readingsMetres` over
    /// `readingsSeconds`, faster than the traveller sustains) or an earlier one since it started from off was. Out of
    /// line: rare, and the per-fix function's size costs every fix. (`mutating` only so that `self` is passed by
    /// reference: see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``.)
    @usableFromInline @inline(never)
    mutating func startVehicleLatch(
        readsVehicle: Bool, isTrusted: Bool, readingsMetres: Double, readingsSeconds: Double
    ) {
        let mean = windowReadingsMean(metres: readingsMetres, seconds: readingsSeconds)
        // (Above the sustained speed by more than twice the mean's noise, the profile's assumed speed accuracy per
        // reading, each standing for the last step's seconds (at most the integration limit): a jog's readings at
        // 2.9 m/s averaged over 3 m/s in one window by their noise, and the latch that backed held the rest of the
        // jog. The assumed accuracy, not the fix's: read here, it cost the `tracker` benchmark instructions on
        // every fix.)
        // (At least a second: the step is 0 just after an anchor, which would drop the margin; a receiver faster than
        // 1 Hz is judged as if at 1 Hz, a wider margin, which only makes a backing rarer.)
        let step = min(max(lastStepSeconds, 1), profile.maximumIntegrationSeconds)
        let noise = 2 * profile.assumedSpeedAccuracyMetresPerSecond * (step / readingsSeconds).squareRoot()
        let backed = readsVehicle || (isTrusted && mean - noise > profile.maximumSustainedSpeedMetresPerSecond)
        isLatchBackedByReadings = (isInVehicle && isLatchBackedByReadings) || backed
        isInVehicle = profile.vehicleExitSeconds > 0
        slowSinceMilliseconds = .min
        vehiclePendingDoppler = 0
        vehiclePendingFiltered = 0
    }

    /// Whether a window faster than the traveller sustains (its net displacement `netMetres` over
    /// `windowMilliseconds`) is the filtered track's own error beside trusted readings (`readingsMetres` over
    /// `readingsSeconds`, at least half the window, their mean within the sustained speed), not travel, so that it
    /// does not latch the vehicle latch:
    /// - within two windows of a gap's anchor (the first fix, or the first after a silence: ``jumpMilliseconds``):
    ///   the track converges from an anchor at a fix tens of metres off (the first fix after a tunnel, its
    ///   multipath claiming 25 m). Latched, a walk read 120 s as a vehicle's and lost its gap's chord (an API
    ///   tester's: 569 m of 757).
    /// - elsewhere (also after a re-anchor on outliers), while the latch is off or was started by the filtered track
    ///   alone (not ``isLatchBackedByReadings``), when the readings' mean over the window covers two thirds of the net
    ///   displacement and it is within four times the track's noise (its two ends', √(2P) per axis) of the sustained
    ///   speed: a jog at 2.7–2.9 m/s on the walking profile (its 3 m/s limit) whose filtered track swung 5–8 m past
    ///   the readings after a turn read 60 m over a 20 s window and latched 120 s of it (a tester's: 2.8 m/s −29 …
    ///   −96 %, now −0.1 … +0.2 %). A rough track beside slow readings keeps its latch, which keeps its noise out:
    ///   generated Samsung-style walks under 9–10 m of white noise, readings of a walk and zeros, the track twice and
    ///   more what they cover (−8.6 → +27.8 % and +5.9 → +20.0 % with the veto judged against the sustained speed
    ///   alone). A latch its readings backed is renewed by any fast window: a bus's crawl at 2.7–2.9 m/s after a
    ///   fast spell reads the same as a jog, and vetoed there its 150 s crawls were released as walking (a
    ///   reviewer's: 0 → 3,045 m); a latch the track alone started (a jog's first seconds under untrusted readings of
    ///   3.0–3.1 m/s, a noisy window) renewed that way held the rest of a jog (a second reviewer's: 2,578 → 0 m).
    ///   Four times the noise, not three (measured before the backing rule): a drifting error's 2.8 m/s jog latched at
    ///   3 (−86.7 %; +0.1 % at 4), and the regression sets were identical.
    /// - for a fix without a reading of its own (`hasReading` false), when the session trusts the receiver's readings
    ///   (``sessionTrustsReadings``), the window's readings judge it as they judge the fixes beside it: a jog read on
    ///   every other fix (Android fused fixes without a speed between GPS ones) latched at the fixes without one (a
    ///   reviewer's 2.8–2.9 m/s jogs −54 … −100 %, now −0.9 … −15.6 %). A fix whose own reading is not trusted is not
    ///   asked, as before.
    ///
    /// Out of line, and the whole check here: inline, the second rule cost the `tracker` benchmark 24–26 instructions
    /// per fix though never taken there (the per-fix function grew). (`mutating` only so that `self` is passed by
    /// reference: see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``.)
    @usableFromInline @inline(never)
    mutating func isExplainedByReadings(
        netMetres net: Double, windowMilliseconds: Int64, readingsMetres: Double, readingsSeconds: Double,
        isTrusted: Bool, hasReading: Bool, now: Int64
    ) -> Bool {
        // (A fix without a reading of its own, from a receiver whose readings the session trusts: the window's
        // readings judge it as they judge the fixes beside it. A jog read on every other fix latched at the others.)
        guard isTrusted || (!hasReading && sessionTrustsReadings) else { return false }
        let sustained = profile.maximumSustainedSpeedMetresPerSecond
        let mean = windowReadingsMean(metres: readingsMetres, seconds: readingsSeconds)
        guard mean <= sustained else { return false }
        if now &- jumpMilliseconds <= 2 * windowSpanMilliseconds { return true }
        guard !isInVehicle || !isLatchBackedByReadings else { return false }
        let seconds = Double(windowMilliseconds) / 1000
        return net - 4 * (2 * filter.positionVariance).squareRoot() <= sustained * seconds
            && net <= 1.5 * mean * seconds
    }

    /// Whether the session's evidence (``judgedDopplerEvidence``) says the receiver's readings are consistent with its
    /// track: enough of it (``TrackingProfile/dopplerEvidenceMetres``) and the readings' path at least
    /// ``TrackingProfile/dopplerTrustRatio`` of the positions', and the column not shown wrong (``speedReadsWrong``, a
    /// column in another unit): what a fix's own trust asks of the column. For a fix without a reading of its own.
    @usableFromInline
    var sessionTrustsReadings: Bool { !speedReadsWrong && !readsInAnotherUnit && sessionReadingsVerdict == true }

    /// The Doppler check's verdict on the session's evidence (``judgedDopplerEvidence``,
    /// ``DopplerCheck/sessionVerdict(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``): `nil` while
    /// there is too little of it.
    @usableFromInline
    var sessionReadingsVerdict: Bool? {
        let evidence = judgedDopplerEvidence
        return DopplerCheck.sessionVerdict(
            sessionDopplerPathMetres: evidence.x, sessionPositionPathMetres: evidence.y, profile: profile)
    }

    /// The mean speed (m/s) of the window's readings, `metres` over `seconds`, where they cover half the window or
    /// more (NaN where they do not: no comparison holds), for the latch's two questions: do they explain a fast
    /// window, do they back a latch.
    @inline(__always)
    func windowReadingsMean(metres: Double, seconds: Double) -> Double {
        seconds >= profile.windowSeconds / 2 ? metres / seconds : .nan
    }

    /// Records vehicle evidence at a chain's fix at `now` (a confident `in vehicle` reading in force, or a Doppler
    /// speed faster than the traveller sustains) for the chain's vehicle latch (``chainVehicleMilliseconds``).
    /// Why: a reading excludes only the chords that touch its own fix, and a car on the cycling profile whose
    /// every fourth reading was confident (the others 60 %) counted 4.6–6.8 km per 2 hours as a ride in a
    /// reviewer's cases, where the dense path's latch holds it all (1.4–1.5 km now: readings under 75 % say
    /// nothing); a bus read at 6.5 m/s by Doppler under a walker's 3 m/s, its fixes 90 s apart averaging 2.5 m/s,
    /// counted 1,350 m of walk.
    @usableFromInline
    mutating func recordVehicleEvidence(at now: Int64, doppler: Double?) {
        if (activity?.kind == .inVehicle && readingExcludes(at: now))
            || (doppler ?? 0) > profile.maximumSustainedSpeedMetresPerSecond
        {
            chainVehicleMilliseconds = now
        }
    }

    /// Whether the reading in force at `time` (ms since 1970) excludes the movement for this profile
    /// (``MotionGate/excludes(_:ageSeconds:profile:)``); false when the last reading is newer than `time` (the one
    /// in force then was replaced).
    @usableFromInline
    func readingExcludes(at time: Int64) -> Bool {
        activityMilliseconds <= time
            && MotionGate.excludes(activity, ageSeconds: Double(time &- activityMilliseconds) / 1000, profile: profile)
    }

    /// Whether the chord of a reset gap (a silence longer than ``TrackingProfile/filterResetGapSeconds``), from
    /// the last filtered position to the first fix after it at (`east`, `north`), may count: the filter's speed
    /// before the gap, or 0 when it may not: the gap is longer than ``TrackingProfile/maximumBridgedGapSeconds``;
    /// the vehicle latch is on, or the reading in force at the last fix before the gap excludes the movement (the
    /// silence was the ride's or the rest's); the traveller was not moving before it (the filter's speed below the
    /// deadband); the chord is within the fixes' noise (2 m plus the accuracy factor times the last window's mean
    /// accuracy and this fix's, both ends' errors added up); or its average speed is below the deadband or above
    /// what the profile's traveller sustains. The track after the gap must confirm it
    /// (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``). No heading check here, unlike a sparse step's: a vehicle turns
    /// inside an outage (the F9K drive goes in southwards and comes out northwards, 207 m west: the chord is
    /// across both headings). Out of line: gaps are rare. (Mutating so that `self` is passed by reference.)
    ///
    /// Nor from a new session's first fix when it is alone before the gap (``fixCount`` 1 and nothing counted yet):
    /// that is how a phone's cached last-known location arrives, minutes old and elsewhere, before the live fixes
    /// (iOS delivers it first), and its reading is from another trip; the walk from there was counted (an API
    /// tester's: a cached fix 300 s old and 400 m away, reading 1.4 m/s, 849 → 1,249 m). A session resumed with a
    /// total (``restore(persistedTotalMetres:lastAccepted:)``, after a session break) keeps its gap chords (a
    /// reviewer's resume 120 s after its restored fix lost the chord with `fixCount` alone). The price: a real
    /// first fix followed by a silence longer than the reset gap (a cold start whose next fixes the accuracy gate
    /// refused) loses that chord too. A chain of such fixes still counts its first chord once the second agrees
    /// (``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``).
    @usableFromInline @inline(never)
    mutating func gapChordSpeedBefore(east e: Double, north n: Double, seconds dt: Double, displacementAccuracy: Double)
        -> Double
    {
        guard dt <= profile.maximumBridgedGapSeconds, !isInVehicle,
            !readingExcludes(at: lastAcceptedMilliseconds), fixCount > 1 || accumulator.totalMetres > 0
        else { return 0 }
        let de = e - filter.east, dn = n - filter.north
        let chord = (de * de + dn * dn).squareRoot()
        let ve = filter.velocityEast, vn = filter.velocityNorth
        // The pace before the gap: the last fix's reading where the readings are trusted (the filter's speed, from
        // positions alone without a course, read 0.8–3.2 m/s for a 1.4 m/s walker under 3 m of noise, and the pace
        // check dropped a stops tester's 504 m tunnel on 3 seeds of 10), else the filter's speed.
        let speedBefore =
            lastReading.isFinite && readingsGivePace
            ? lastReading : (ve * ve + vn * vn).squareRoot()
        let before = windowMeanAccuracy(orElse: displacementAccuracy)
        let speed = chord / dt
        let fastest = profile.fastestSustainedSpeedMetresPerSecond
        guard chord > NetDisplacementGate.threshold(meanAccuracy: before + displacementAccuracy, profile: profile),
            speedBefore >= profile.deadbandMetresPerSecond, speed >= profile.deadbandMetresPerSecond, speed <= fastest
        else { return 0 }
        return speedBefore
    }

    /// Whether the speed readings may stand for the traveller's pace on either side of a gap
    /// (``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``, ``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``):
    /// not shown wrong by the session's evidence (``DopplerCheck/sessionVerdict(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``
    /// not false: a Samsung-style column with dropouts keeps the filter's speed), in no other unit, not read wrong
    /// span after span, not overruled as a placeholder.
    @usableFromInline
    var readingsGivePace: Bool {
        !readsInAnotherUnit && !speedReadsWrong && !isOverrulingReadings && sessionReadingsVerdict != false
    }

    /// The mean of the readings since `start` (m/s) where they give the pace (``readingsGivePace``), else `nil`.
    @usableFromInline
    func readingPace(since start: TrailingWindow.Sample) -> Double? {
        let seconds = dopplerSeconds - start.dopplerSeconds
        guard seconds > 0, readingsGivePace else { return nil }
        return (dopplerPath - start.dopplerPath) / seconds
    }

    /// Whether the last accepted fix is a lone anchor: the trailing window's oldest sample is that fix (no fix accepted
    /// since an anchor or a restart of the window), so no step ends at it.
    @usableFromInline
    mutating func isAtLoneAnchor() -> Bool { window.oldest()?.fixCount == fixCount }

    /// The mean displacement accuracy of the fixes the trailing window spans (since its oldest sample), metres,
    /// or `fallback` when it spans none.
    @usableFromInline
    mutating func windowMeanAccuracy(orElse fallback: Double) -> Double {
        guard let oldest = window.oldest(), fixCount > oldest.fixCount else { return fallback }
        return (accuracySum - oldest.accuracySum) / (fixCount - oldest.fixCount)
    }

    /// Empties the trailing window and starts it again with one sample of the running sums at `milliseconds`,
    /// (`east`, `north`) (an anchor; a cold fix's convergence given up).
    @usableFromInline
    mutating func restartWindow(milliseconds: Int64, east: Double, north: Double) {
        window.removeAll()
        window.append(
            TrailingWindow.Sample(
                milliseconds: milliseconds, east: east, north: north, dopplerPath: dopplerPath,
                dopplerSeconds: dopplerSeconds, positionPath: positionPath, candidateDoppler: candidates.x,
                candidateFiltered: candidates.y, accuracySum: accuracySum, fixCount: fixCount))
    }

    /// Fills a rejection into `decision` and returns it.
    @inlinable @inline(__always)
    func reject(_ decision: inout FixDecision, _ reason: RejectionReason) -> FixDecision {
        decision.rejection = reason
        decision.hold = .rejected
        decision.speedSource = nil
        decision.state = hasFilter ? currentState() : nil
        decision.totalDistanceMetres = distance.totalMetres
        return decision
    }

    /// Whether the net speed from the oldest window sample inside the span (not the one kept from before it)
    /// to the filter exceeds the sustainable speed, judged once that sample is at least half a span old. Out of
    /// line: it runs only when the fixes are sparser than the window keeps by itself.
    @usableFromInline @inline(never)
    mutating func isFastOverSpanProper(now: Int64, spanMilliseconds span: Int64) -> Bool {
        guard window.count > 1 else { return false }
        let inner = window.sample(1)
        let innerMilliseconds = now &- inner.milliseconds
        guard innerMilliseconds >= span / 2 else { return false }
        let ie = filter.east - inner.east, iN = filter.north - inner.north
        return (ie * ie + iN * iN).squareRoot() / (Double(innerMilliseconds) / 1000)
            > profile.maximumSustainedSpeedMetresPerSecond
    }

    /// Whether a fix at `now`, not newer than the last accepted fix, ends a run of
    /// ``TrackingProfile/rejectionsBeforeReanchor`` fixes that are each at least
    /// ``TrackingProfile/clockJumpSeconds`` older than the last accepted one, newer than each other, with no
    /// fix accepted in between (fixes rejected for other reasons may come between): then the last accepted
    /// time was the wrong one, and the tracker starts again from this fix. Fixes of any age count when they lie
    /// inside the last forward jump (``isInsideForwardJump(_:latitude:longitude:)``): a fix stamped an hour ahead
    /// (a time-zone slip) was accepted after a "gap", and every later fix was rejected until the clock caught up (a tester's
    /// demo walk 132.7 m of 621.5; 388.7 of 778.7 m with the fix 1, 3 or 23 hours ahead). Out of line: it runs
    /// only for out-of-order fixes, and keeps the inlined per-fix path short.
    @usableFromInline @inline(never)
    mutating func restartsOnClockJump(at now: Int64, latitude: Double, longitude: Double) -> Bool {
        // Inside the last forward jump, shortly after it: any age counts (see `isInsideForwardJump`).
        let isInsideJump = isInsideForwardJump(now, latitude: latitude, longitude: longitude)
        guard
            staleRun.completes(
                at: now, latest: lastAcceptedMilliseconds, seconds: isInsideJump ? 0 : profile.clockJumpSeconds,
                length: profile.rejectionsBeforeReanchor)
        else { return false }
        if isInsideJump { replayedThroughMilliseconds = lastAcceptedMilliseconds }
        // The last accepted time was the wrong one (a receiver's clock fault, a corrupt record): start again
        // from this fix as from a first fix (accuracy gate, Doppler ceiling, a new plane); the distance is kept.
        hasFilter = false
        slowSinceMilliseconds = .min
        // A reading stamped with the wrong time would shadow every later one.
        activity = nil
        activityMilliseconds = 0
        // So would the other stamps of the wrong clock, and positions of the old plane (an auditor): a rejection
        // stamped ahead kept the placeholder-zeros rule off until the next rejection, a chain's vehicle evidence
        // ahead held its latch, and a place where still readings agreed, in the old plane, was never "back".
        lastRejectedMilliseconds = .min
        chainVehicleMilliseconds = .min
        stillAgreedMilliseconds = .min
        lastJumpClaimMilliseconds = .min
        droppedOutSinceMilliseconds = .min
        dropHeldZeroReadings()
        return true
    }

    /// At a clock-jump restart (`fix`, at `now`, of displacement accuracy `accuracy`): counts the chord from where the
    /// track was before the forward jump the restart proved wrong (``beforeJump``, at ``beforeJumpMilliseconds``) to
    /// the fix, as a silence that long would count it, and returns the metres counted. Only when the fix is newer
    /// than that, the silence bridgeable (``TrackingProfile/maximumBridgedGapSeconds``), the track was moving before
    /// it (the filter's speed at the deadband or more), not in a vehicle the profile excludes, the chord beyond
    /// the two ends' noise (``NetDisplacementGate/threshold(meanAccuracy:profile:)`` of their accuracies added up)
    /// and its speed within the deadband and what the traveller sustains.
    ///
    /// Why: one fix of a GPX drive dated 2200 (a logger's clock fault) was accepted after a "gap", the next two were
    /// refused as out of order, and the third restarted the tracker as a first fix: the 35 s and 814 m between the
    /// last right fix and the restart were never counted (a tester: 1,907.8 of 2,717 m; the same at 1 hour or 1 day
    /// ahead; 3 % of a 1 Hz CSV). The wrong fix's own step counted nothing (an anchor), so nothing counts twice.
    @usableFromInline
    mutating func countRestartChord(to fix: Fix, accuracy: Double, now: Int64) -> Double {
        guard beforeJumpMilliseconds != .min, beforeJump.x.isFinite, now > beforeJumpMilliseconds, !isInVehicle
        else { return 0 }
        let seconds = Double(now &- beforeJumpMilliseconds) / 1000
        guard seconds <= profile.maximumBridgedGapSeconds, beforeJump.w >= profile.deadbandMetresPerSecond else {
            return 0
        }
        let chord = Haversine.distance(
            from: (beforeJump.x, beforeJump.y), to: (fix.latitude, fix.longitude))
        let speed = chord / seconds
        guard chord > NetDisplacementGate.threshold(meanAccuracy: beforeJump.z + accuracy, profile: profile),
            speed >= profile.deadbandMetresPerSecond, speed <= profile.fastestSustainedSpeedMetresPerSecond
        else { return 0 }
        return accumulator.add(doppler: 0, filtered: chord)
    }

    /// Whether a time `now` lies inside the last forward jump (``beforeJumpMilliseconds`` to
    /// ``jumpMilliseconds``) and that jump can be judged wrong (``ClockJumpRun/isInsideForwardJump(_:before:jump:latest:minimumJumpSeconds:metresFromLatest:)``):
    /// longer than ``TrackingProfile/maximumBridgedGapSeconds``, because such a silence's chord is never counted,
    /// so processing the fixes inside it counts nothing twice and gives no chord up (a reviewer's 30 s tunnel
    /// whose late fixes arrived after the exit lost the tunnel, 3,730 → 3,280 m of 3,735, when any reset gap
    /// counted). A session's first fix is a jump from nowhere: fixes more than that long before it and within
    /// ``ClockJumpRun/firstJumpReachMetres`` of the filter count (a first fix stamped an hour ahead lost the
    /// whole track).
    @usableFromInline
    func isInsideForwardJump(_ now: Int64, latitude: Double, longitude: Double) -> Bool {
        // How far the fix lies from the filter (only a session's first jump asks; without a filter, a restored
        // session, there is no first jump).
        // (A pause the app declared is no clock fault: see ``legBreakMilliseconds``.)
        if beforeJumpMilliseconds != .min, beforeJumpMilliseconds == legBreakMilliseconds { return false }
        var metres = Double.infinity
        if beforeJumpMilliseconds == .min, hasFilter {
            let (e, n) = projection.project(latitude: latitude, longitude: longitude)
            let de = e - filter.east, dn = n - filter.north
            metres = (de * de + dn * dn).squareRoot()
        }
        return ClockJumpRun.isInsideForwardJump(
            now, before: beforeJumpMilliseconds, jump: jumpMilliseconds, latest: lastAcceptedMilliseconds,
            minimumJumpSeconds: profile.maximumBridgedGapSeconds, metresFromLatest: metres)
    }

    /// Whether `fix`, not newer than the last accepted fix, lies inside the tracker's last forward jump in time,
    /// which fixes like it may yet prove a clock fault (see ``TrackingProfile/clockJumpSeconds``): the tracker
    /// takes such fixes after a run of them. A caller that skips fixes it has seen before by their time (a file
    /// added again to a session whose rows a sync deleted) lets these through: after a last fix dated ahead,
    /// the real fixes that follow are inside its jump.
    public func liesInsideLastForwardJump(_ fix: Fix) -> Bool {
        isInsideForwardJump(fix.timestamp.millisecondsSince1970, latitude: fix.latitude, longitude: fix.longitude)
    }

    /// Anchors a new plane and filter at `fix`, as the first fix of a tracker (the first fix, a clock-jump
    /// restart, a session break), and completes its decision. Inlined: a call out of line cost the per-fix path.
    @inlinable @inline(__always)
    mutating func anchorAsFirstFix(
        _ decision: inout FixDecision, fix: Fix, variance r: Double, accuracy: Double, displacementAccuracy: Double,
        now: Int64
    ) -> FixDecision {
        projection = LocalFrame.tracking(anchor: (fix.latitude, fix.longitude))
        // (A span begun in the old plane, or at a time a clock-jump restart proved wrong, says nothing: a reviewer's
        // ride with two fixes stamped two hours ahead had the speed check off until the clock reached them.)
        forgetSpeedSpan()
        anchor(
            east: 0, north: 0, variance: r, fix: fix, accuracy: accuracy, displacementAccuracy: displacementAccuracy,
            now: now)
        decision.gateSpeedMetresPerSecond = fix.speedMetresPerSecond
        decision.gateSpeedSource = fix.speedMetresPerSecond == nil ? nil : .doppler
        return finishAnchor(&decision)
    }

    /// The speed integrated for a fix without a reading from a receiver that reports Doppler (iOS −1, an Android
    /// fix without speed) when the Doppler check trusts the receiver's readings (by the session's evidence,
    /// ``judgedDopplerEvidence``, or before it by the trailing window, as for a reading) and no run overrules them
    /// as a placeholder: the lower of the output filter's and the position filter's speeds; `nil` otherwise, and
    /// the position filter's speed stands in, as for a reading not trusted. Why: the output filter follows the
    /// trusted readings' velocity (with their course), the position filter only the positions, whose noise lengthens
    /// its speed: a walk under 3–5 m of white noise with −1 on 20 % of its fixes counted +9.5 to +16.6 % on the
    /// position filter's speed, +3.3 to +5.9 % on the output filter's. The lower of the two: where the receiver
    /// halts and reports −1 from the first still fix, the output filter keeps the last reading's velocity longer
    /// than the position filter (a reviewer's 12 m/s drive with −1 through each 30 s halt counted 9.7 m on the
    /// halt's first fix against the position filter's 4.2 m), so a stand-in never counts more than before. Called
    /// from ``dropoutBound(_:reading:droppedOut:isTrusted:isMoving:netMetres:thresholdMetres:)``, which the per-fix
    /// path calls for such fixes (out of line); it reads the window as it stands (this fix's sample not appended
    /// yet).
    @usableFromInline
    mutating func trustedStandInForMissingReading() -> Double? {
        guard !readsInAnotherUnit, !isOverrulingReadings else { return nil }
        // (The session's evidence first, as the check weighs it: the window is read only before it is in.)
        if let verdict = sessionReadingsVerdict { return verdict ? lowerFilterSpeed : nil }
        guard let start = window.oldest() else { return nil }
        let evidence = judgedDopplerEvidence
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: lastAccuracy), profile: profile)
        let trusted = DopplerCheck.isTrusted(
            dopplerPathMetres: dopplerPath - start.dopplerPath, positionPathMetres: positionPath - start.positionPath,
            thresholdMetres: threshold, sessionDopplerPathMetres: evidence.x, sessionPositionPathMetres: evidence.y,
            profile: profile)
        return trusted ? lowerFilterSpeed : nil
    }

    /// The lower of the output filter's and the position filter's speeds (m/s): see
    /// ``trustedStandInForMissingReading()``.
    @inlinable
    var lowerFilterSpeed: Double {
        min(filter.speedMetresPerSecond, positionFilter.speedMetresPerSecond)
    }

    /// Under the profiles that judge the Doppler by chords (``TrackingProfile/judgesDopplerByChords``), adds the chord
    /// under way, a window span long, to the session's evidence (its Doppler path over the whole span:
    /// ``chordDopplerPath(now:)``, none when fixes without a reading left most of it unread) and starts the next.
    /// Out of line: once a window span.
    @usableFromInline @inline(never)
    mutating func completeUnitChord(now: Int64) {
        if let chordDoppler = chordDopplerPath(now: now) {
            let ce = positionFilter.east - chordStartEast, cn = positionFilter.north - chordStartNorth
            sessionPositionPath += (ce * ce + cn * cn).squareRoot()
            sessionDopplerPath += chordDoppler
        }
        startChord(now: now)
    }

    /// Starts a chord of the session evidence at the position filter's position now.
    @inlinable @inline(__always)
    mutating func startChord(now: Int64) {
        chordStartPositionVariance = positionFilter.positionVariance
        chordStartMilliseconds = now
        chordStartFixCount = fixCount
        chordStartEast = positionFilter.east
        chordStartNorth = positionFilter.north
        chordStartDopplerPath = dopplerPath
        chordStartDopplerSeconds = dopplerSeconds
        chordZeroSeconds = 0
        chordDropoutSeconds = 0
        chordDropoutDopplerMetres = 0
    }

    /// The Doppler path of the chord under way, ending `now`, over its whole span: the readings' path scaled by the
    /// span over the seconds they cover when fixes without a reading (not dropouts: those read as zeros,
    /// ``chordZeroSeconds``) left part of it unread; `nil` when they left more than half of it (the chord says
    /// nothing then). Why: a receiver that reports no speed on some fixes (iOS −1 on 20 % of a walk's fixes)
    /// restarted its chord at each until 2026-12-05, so at 1 Hz its chords of a window span were almost never
    /// completed, and its honest readings were judged by the position filter's noise-lengthened path instead,
    /// distrusted, and that noisy speed counted (+41 to +118 % under 3–8 m of noise). A dropout's zeros
    /// (``chordDropoutSeconds``, ``isDropoutRun(endedBy:now:)``) are no readings either, unless
    /// `readingDropouts`.
    @inlinable @inline(__always)
    func chordDopplerPath(now: Int64, readingDropouts: Bool = false) -> Double? {
        let read = dopplerPath - chordStartDopplerPath - (readingDropouts ? 0 : chordDropoutDopplerMetres)
        let span = Double(now &- chordStartMilliseconds) / 1000
        let dropouts = readingDropouts ? 0 : chordDropoutSeconds
        let unread = span - (dopplerSeconds - chordStartDopplerSeconds - dropouts) - chordZeroSeconds
        // (Under a millisecond: sums of steps, all read.)
        guard unread >= 0.001 else { return read }
        guard 2 * unread <= span else { return nil }
        return read * span / (span - unread)
    }

    /// Completes the decision of a fix that (re-)anchored the filter.
    @inlinable @inline(__always)
    func finishAnchor(_ decision: inout FixDecision) -> FixDecision {
        // (What trusted readings counted across a relocation: see `readingsAcrossRelocation`.)
        decision.distanceIncrementMetres += relocationCountedMetres
        decision.isAnchor = true
        decision.hold = .anchor
        decision.state = currentState()
        decision.totalDistanceMetres = distance.totalMetres
        return decision
    }

    /// The speed gate's verdict on a fix whose Doppler reading is above the ceiling: the speed derived from its
    /// displacement instead when the session shows the readings to be in another unit
    /// (``DopplerCheck/readsTooFast(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``), else `gate`.
    @usableFromInline
    @inline(never)
    func speedGateIgnoringAWrongUnit(
        _ gate: (metresPerSecond: Double, source: SpeedSource), displacementMetres: Double, seconds: Double,
        accuracy: Double
    ) -> (metresPerSecond: Double, source: SpeedSource) {
        // Before the session has evidence (a ride whose readings in km/h lie above the ceiling from the start
        // had every fix refused: a re-tester's rides at 29–36 km/h lost 12–80 %): a reading far above what the
        // positions moved since the last accepted fix, while they moved within the ceiling, is no proof of
        // "too fast" either. The fix is then judged by its displacement, and its reading is not trusted for its
        // distance (the decision says `.derived`).
        let moved = seconds > 0 ? displacementMetres / seconds : .infinity
        let readsAboveTheMotion =
            moved <= profile.maximumSpeedMetresPerSecond
            && profile.dopplerTrustRatio * gate.metresPerSecond > moved
        guard readsAboveTheMotion || readsInAnotherUnit else { return gate }
        return SpeedGate.speed(
            doppler: nil, displacementMetres: displacementMetres, seconds: seconds, accuracy: accuracy,
            previousAccuracy: lastAccuracy)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
