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
    public var overruledSpeedReadingsSince: Timestamp? {
        isOverrulingReadings ? Timestamp(millisecondsSince1970: contradiction.startMilliseconds) : nil
    }

    /// Whether the run that overrules the readings now (``overruledSpeedReadingsSince``), or the distance it released,
    /// is provisional: the positions had agreed with those readings that the receiver stood still before it, and a
    /// receiver whose readings the session proved right (a parked one whose fixes slide away and come back) shows the
    /// same steady progress. Its distance is held until two minutes away confirm it, and given up, with
    /// ``withdrawnOverrules`` growing by one, when the track comes back.
    public var isOverrulingProvisionally: Bool { isDepartureFromStillReadings }

    /// How many provisional overrules (``isOverrulingProvisionally``) were given up in the session, across session
    /// breaks: the readings were right, and a warning or a smoother that counted those fixes as overruled takes them
    /// back.
    public var withdrawnOverrules: Int { stillReadingDeparturesGivenUp }

    /// The session's Doppler path over the position path it is judged against (``DopplerCheck``): about 1 for a
    /// consistent receiver, well below for one that reads slow or zero while moving, well above for a speed in
    /// another unit (3.6 for km/h). `nil` until that position path reaches
    /// ``TrackingProfile/dopplerEvidenceMetres`` (or without Doppler speeds).
    public var sessionDopplerRatio: Double? {
        let (doppler, position) = dopplerUnitEvidence
        return position >= profile.dopplerEvidenceMetres ? doppler / position : nil
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
    @usableFromInline var projection = LocalFrame(anchor: (0, 0))
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
    /// The last rejected fix of the current run (plane metres, per-axis variance, time): a rejection counts
    /// towards a re-anchor only if it agrees with it (see ``countsTowardsReanchor(east:north:variance:now:)``).
    @usableFromInline var lastRejectedEast = 0.0, lastRejectedNorth = 0.0, lastRejectedVariance = 0.0
    @usableFromInline var lastRejectedMilliseconds: Int64 = 0
    /// The run of fixes far older than the last accepted one (see ``TrackingProfile/clockJumpSeconds``).
    @usableFromInline var staleRun = ClockJumpRun()
    /// Running sums (see ``TrailingWindow``).
    @usableFromInline var dopplerPath = 0.0
    @usableFromInline var dopplerSeconds = 0.0
    @usableFromInline var positionPath = 0.0
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
    /// Under the profiles that judge the Doppler by chords (``TrackingProfile/judgesDopplerByChords``), the
    /// Doppler path and the position filter's path summed fix by fix while moving, for the unit check alone
    /// (``DopplerCheck/readsTooFast(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``): a chord is
    /// far shorter than the path of a route that doubles back (a shuttle run read 4.2× its chords with good
    /// readings). One 16-byte value, written whole.
    @usableFromInline var unitEvidence = SIMD2<Double>(0, 0)
    /// The chord of the session evidence under way: its start (ms; `.min`: none), the position filter's position
    /// and the Doppler path then.
    @usableFromInline var chordStartMilliseconds: Int64 = .min
    @usableFromInline var chordStartEast = 0.0, chordStartNorth = 0.0, chordStartDopplerPath = 0.0
    @usableFromInline var window = TrailingWindow()
    /// The innovation-based estimate of how much of the reported variance is white noise.
    @usableFromInline var noise = MeasurementNoiseScale()
    /// The fixes' white noise measured from their own scatter (the net-displacement gate's noise floor).
    @usableFromInline var whiteNoise = WhiteNoiseEstimate()
    /// The last reset gap, waiting for the track after it to settle it (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``): its
    /// duration (seconds; 0: settled) and the speed before it (0: its chord is not to count, see
    /// ``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``).
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
    /// A run of fixes whose readings say still while the track travels (``ContradictedReadings``).
    @usableFromInline var contradiction = ContradictedReadings()
    /// Readings below this speed stand for no reading in the prediction's σₐ
    /// (``TrackingProfile/accelerationSigmaWithoutDoppler``) and the white-noise estimate: 0 (a missing reading
    /// only) until the readings are overruled as a placeholder (``ContradictedReadings``), then the deadband for
    /// the rest of the recording.
    @usableFromInline var positionOnlyBelowMetresPerSecond = 0.0

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

    /// Continues a session whose total was persisted: the larger of the persisted and current totals is kept
    /// (see ``DistanceAccumulator/restore(persistedTotalMetres:)``).
    public mutating func restore(persistedTotalMetres: Double) {
        accumulator.restore(persistedTotalMetres: persistedTotalMetres)
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
        accumulator.restore(persistedTotalMetres: persistedTotalMetres)
        guard timestamp.millisecondsSince1970 > lastAcceptedMilliseconds else { return }
        // (Its state describes fixes older than the persisted one: the next prediction would span the wrong
        // interval.)
        hasFilter = false
        lastAcceptedMilliseconds = timestamp.millisecondsSince1970
    }

    /// Continues a session from its persisted total and its last accepted fix: as
    /// ``restore(persistedTotalMetres:lastAccepted:)`` with the fix's time, and the filter anchored at the fix
    /// (its position and accuracy), so that the first fix after the restart faces the outlier gate instead of
    /// anchoring the filter unchecked: a multipath fix first after a restart was taken, and the good fix after
    /// it rejected (an API tester's worst resume, −114 m). The fix is not counted again, and a re-delivered copy
    /// of it is a duplicate. A fix not newer than the last accepted one changes nothing but the total.
    public mutating func restore(persistedTotalMetres: Double, lastAccepted fix: Fix) {
        accumulator.restore(persistedTotalMetres: persistedTotalMetres)
        guard fix.timestamp.millisecondsSince1970 > lastAcceptedMilliseconds else { return }
        hasFilter = false
        _ = process(fix)  // anchors: nothing is counted on an anchor
        if lastAcceptedMilliseconds < fix.timestamp.millisecondsSince1970 {
            // Rejected as a first fix (an accuracy the gate refuses): the time alone, as the other restore.
            lastAcceptedMilliseconds = fix.timestamp.millisecondsSince1970
        }
        // The restored fix is no forward jump: the fixes before it are in the persisted total, and re-delivered
        // they stay out of order (see `restartsOnClockJump`).
        beforeJumpMilliseconds = lastAcceptedMilliseconds
    }

    /// After a silence longer than ``TrackingProfile/sessionBreakSeconds``: counts a held departure and an
    /// overruling run's held metres (as ``finishTrack()``), then becomes a new tracker of the same profile that keeps the total, the last accepted
    /// and received times (out of order, duplicates), the clock-jump bookkeeping, the activity reading in force
    /// and the vehicle latch; the next fix anchors as a first fix. Returns the metres counted. Out of line: it runs once per recording.
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
        fresh.beforeJumpMilliseconds = beforeJumpMilliseconds
        fresh.replayedThroughMilliseconds = replayedThroughMilliseconds
        // The sparse steps' evidence of the readings' unit: a property of the device, not of the trip.
        fresh.sparseSteps = sparseSteps
        // So is a placeholder speed column (``ContradictedReadings``).
        fresh.positionOnlyBelowMetresPerSecond = positionOnlyBelowMetresPerSecond
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
    /// deliver a locked phone's deferred fixes before any newer live fix: a live fix first, then a 15-minute
    /// backlog, loses the whole backlog — or use ``RewindingTracker``, which takes such a backlog.
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
    /// the ride is the journey; the latch then ends. Returns the metres counted now (already in the total);
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
        guard isInVehicle, !newProfile.maximumSustainedSpeedMetresPerSecond.isFinite else { return 0 }
        let counted = accumulator.add(doppler: vehiclePendingDoppler, filtered: vehiclePendingFiltered)
        endVehicleLatch()
        return counted
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

    @inlinable @inline(__always)
    func currentState() -> FilteredState {
        let (lat, lon) = projection.unproject(east: filter.east, north: filter.north)
        return FilteredState(
            latitude: lat, longitude: lon, velocityEastMetresPerSecond: filter.velocityEast,
            velocityNorthMetresPerSecond: filter.velocityNorth,
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
        let now = fix.timestamp.millisecondsSince1970
        var decision = FixDecision(timestamp: fix.timestamp, rejection: nil, state: nil, total: distance.totalMetres)

        // 1. Validity and ordering.
        // (NaN and ±∞ fail these comparisons too: no separate finiteness test is needed.)
        guard abs(fix.latitude) <= 90, abs(fix.longitude) <= 180 else { return reject(&decision, .invalid) }
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
        let (e, n) = projection.project(latitude: fix.latitude, longitude: fix.longitude)
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
                latitude: fix.latitude, longitude: fix.longitude, doppler: doppler, seconds: dt, accuracy: accuracy)
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
                    course: fix.storedCourseDegrees, accuracy: displacementAccuracy, now: now)
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
                doppler: doppler, course: fix.storedCourseDegrees, now: now)
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
        } else if dopplerSeconds > 0 {
            // A receiver that reports Doppler fell silent: iOS says −1 (no speed) at a halt, so a missing
            // reading extends a run like a zero (see `dropoutBound`).
            subDeadbandRun &+= 1
        }
        positionPath += positionSpeed * step

        // Window quantities: net displacement of the filtered track, Doppler and position-filter paths.
        let span = Int64(profile.windowSeconds * 1000)
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
            let movingThreshold = raisedToNoiseFloor(threshold, filterNoiseVariance: rWhite)
            decision.netDisplacementThresholdMetres = movingThreshold
            isMoving = NetDisplacementGate.isMoving(netDisplacement: net, threshold: movingThreshold)
            if !isMoving, profile.departureConfirmationSeconds > 0 {
                decision.distanceIncrementMetres += recordRest(now: now, threshold: movingThreshold)
            }
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
                    let ce = positionFilter.east - chordStartEast, cn = positionFilter.north - chordStartNorth
                    sessionPositionPath += (ce * ce + cn * cn).squareRoot()
                    sessionDopplerPath += dopplerPath - chordStartDopplerPath
                    startChord(now: now)
                }
            } else {
                sessionDopplerPath += doppler * step
                sessionPositionPath += positionSpeed * step
            }
        } else {
            chordStartMilliseconds = .min
        }
        let isTrusted =
            doppler.map { speed in
                (DopplerCheck.isTrusted(
                    dopplerPathMetres: windowDoppler, positionPathMetres: windowPosition, thresholdMetres: threshold,
                    sessionDopplerPathMetres: sessionDopplerPath, sessionPositionPathMetres: sessionPositionPath,
                    profile: profile)
                    || DopplerCheck.filterFollowsAJump(
                        positionSpeedMetresPerSecond: positionSpeed, reading: speed, profile: profile))
                    && !readsInAnotherUnit
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
                updateVelocity(speed: speed, courseDegrees: course, speedSigma: speedSigma, fix: fix)
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
            isTrusted || (increment > 0 && subDeadbandRun >= TrackingProfile.haltRunLength)
        {
            // A run of dropouts (a halt's zeros run on; a dropout's are scattered among moving readings) may be a
            // halt: see `dropoutBound`. Out of line, and tested first on the run, so that the per-fix path pays
            // one comparison (inline, the bound cost the tracker benchmark ~10 %). A trusted reading's run is judged
            // there too, against a track that keeps going (`judgeTrustedStillReadings`).
            // (The decision is adjusted here, not handed to the out-of-line function: its address escaping would
            // make every field of it live on every fix.)
            let allowed = dropoutBound(
                increment, reading: doppler, isTrusted: isTrusted, isMoving: isMoving, netMetres: net,
                thresholdMetres: threshold)
            if _slowPath(countedWhileJudging > 0) {
                decision.distanceIncrementMetres += countedWhileJudging
                decision.hold = .none
                countedWhileJudging = 0
            }
            if allowed < increment {
                increment = allowed
                decision.speedMetresPerSecond = allowed / step  // the speed actually integrated
                if allowed == 0 { decision.hold = .netDisplacement }
            }
        }
        let motion = MotionGate.verdict(
            activity, ageSeconds: Double(now &- activityMilliseconds) / 1000, profile: profile)
        decision.motion = motion
        var isFast =
            windowMilliseconds >= span / 2
            && net / (Double(windowMilliseconds) / 1000) > profile.maximumSustainedSpeedMetresPerSecond
        if !isFast && windowMilliseconds > span {
            // The window reaches back past its span (sparse fixes: see TrailingWindow.dropOlder); a net speed
            // over that longer stretch dilutes a jump, so the span proper (from its oldest sample) is judged too.
            isFast = isFastOverSpanProper(now: now, spanMilliseconds: span)
        }
        let readsExcludedActivity =
            motion != .uncertain && activity.map { profile.excludedActivities.contains($0.kind) } == true
        // A confident in-vehicle reading latches only a profile that excludes it (walking, running, cycling):
        // for the driving profile a car is the journey itself, not a spell to hold.
        let readsVehicle = readsExcludedActivity && activity?.kind == .inVehicle
        if isFast || readsVehicle {
            // Faster over the window than the profile's traveller can sustain (GeoLife's taxi and bus average
            // 4.6-5.3 m/s), or a confident in-vehicle reading: the vehicle latch (re)starts, and the slow
            // spell so far was the vehicle's.
            isInVehicle = profile.vehicleExitSeconds > 0
            slowSinceMilliseconds = .min
            vehiclePendingDoppler = 0
            vehiclePendingFiltered = 0
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
            let releaseDoppler = candidates.x - max(committed.x, startCandidateDoppler)
            let releaseFiltered = candidates.y - max(committed.y, startCandidateFiltered)
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
        lastCourse = fix.storedCourseDegrees
        lastStepSeconds = dt
        recentreIfFar()
        decision.state = currentState()
        decision.totalDistanceMetres = distance.totalMetres
        return decision
    }

    /// How long after the last accepted fix a fix repeating its position exactly can be a stalled receiver's
    /// repeat, seconds: 5. Such a fix, while the track moved on by more than the fix's accuracy since (its
    /// Doppler speed, else the filter's, times the interval), is rejected as a ``RejectionReason/duplicate`` and the
    /// filter keeps predicting. Why: a stalled position engine (or an app polling the last known location)
    /// repeats its last fix for seconds while the vehicle moves on; fed to the filter, the repeats braked it, the
    /// first true fix after the stall failed the outlier gate, and the filter re-anchored there, giving up the
    /// stall's metres (a reviewer's drives repeating the last fix for 2–5 s about once a minute: −8.2 % of 22.4
    /// km under the position-only σₐ of 3 m/s², +0.05 % with this rule; cycling −5.6 → +0.3 %). Why a limit: the
    /// filter's speed stands still while repeats are rejected, so a real stop whose position a chipset holds
    /// (static hold) while the filter still lags the braking was rejected fix after fix for the whole stop (a
    /// reviewer's 60 s stop after braking at 8 m/s²: 59 of 60 fixes); after 5 s the repeats are accepted and
    /// the filter brakes. A still receiver holding its position, or a walker whose fixes repeat within their
    /// rounding, moves less than the accuracy in the meantime: accepted from the first repeat.
    @usableFromInline static let staleRepeatSeconds = 5.0

    /// Whether a fix at exactly the last accepted fix's position (`latitude`, `longitude`), `seconds` after it, is a
    /// stale repeat (see ``staleRepeatSeconds``). A repeat that is accepted is remembered as a hold, and later
    /// repeats of that position are accepted too: after the limit the filter has taken one repeat but still
    /// moves, and the next repeat, a second later, would start another 5 s of rejections (a reviewer's stop
    /// cycled through them, each accepted repeat integrating the frozen speed over 6 s). Out of line and
    /// `mutating` (by reference): exact repeats are rare.
    @usableFromInline @inline(never)
    mutating func isStaleRepeat(
        latitude: Double, longitude: Double, doppler: Double?, seconds dt: Double, accuracy: Double
    ) -> Bool {
        if latitude == heldLatitude && longitude == heldLongitude { return false }
        if dt <= Self.staleRepeatSeconds && (doppler ?? filter.speedMetresPerSecond) * dt > accuracy { return true }
        (heldLatitude, heldLongitude) = (latitude, longitude)
        return false
    }

    /// Whether a fix at (east, north) that passed the outlier gate right after a rejection continues the run of
    /// rejections instead of pulling the filter: when the receiver was at rest (over the trailing window up to
    /// the last accepted fix, the filtered track moved less than the net-displacement threshold) and the fix lies
    /// nearer the last rejected fix than the prediction (`predictedEast`, `predictedNorth`). The run may then
    /// re-anchor there (three agreeing fixes), which counts nothing, and so does the way back.
    ///
    /// Why: a multipath excursion holds its offset for seconds. Its first fix fails the gate, but the prediction
    /// for the next one spans two steps and passed it; the filter followed out and back at 20–40 m/s and the
    /// net-displacement gate released it. Generated parked receivers at 1 Hz without Doppler with 25–70 m
    /// excursions claiming 8 m (`tools/analysis/multipath_cases.py`, one every 200 / 50 s on average), per 2 h:
    /// - driving, every fix predicted under σₐ 8: 4.7 / 16.2 km, with this rule 1.8 / 6.3 km;
    /// - driving, fixes without Doppler under σₐ 3 (``TrackingProfile/accelerationSigmaWithoutDoppler``, the
    ///   preset now): 3.1 / 11.1 km without this rule, 0.6 / 2.1 km with it;
    /// - cycling 2.1 / 7.1 km → 0.27 / 1.5 km; walking 218 / 673 m → 9 / 31 m.
    ///
    /// Excursions whose first fix already passes the gate are not caught: they make most of what is left.
    ///
    /// Why only at rest: a moving receiver's rejected fix may be the right one. A receiver that repeats its last
    /// fix for 2–5 s while driving leaves the filter behind; the first true fix fails the gate, the next is
    /// nearer it than the lagging prediction, and continuing the run there cost 78–120 m per stall (a reviewer's
    /// cases: 22.4 km drives −8.6 % instead of +1.7 %; fixes flipping to a reflection 40 m away while cycling −46 %).
    /// Only for fixes without a Doppler speed (the caller checks): with one, the distance comes from the Doppler
    /// and an excursion costs nothing (parked receivers with speed count 0 m either way), while re-anchoring
    /// would give up the seconds the net-displacement gate holds.
    ///
    /// `mutating` only so that `self` is passed by reference: an out-of-line non-mutating method takes the
    /// tracker by value, and the caller copied the whole 3.5 KB tracker into a temporary for every such call
    /// (when this check was added non-mutating: 1,377 instructions per fix in the `tracker` benchmark, 648
    /// mutating; the getters ``distance`` and ``DistanceAccumulator/totalMetres`` are `@inline(__always)` for the
    /// same reason: once `process` grew past the inliner's budget they were called out of line, with a copy per
    /// fix).
    @usableFromInline @inline(never)
    mutating func continuesRejectionRun(
        east e: Double, north n: Double, predictedEast pe: Double, predictedNorth pn: Double
    ) -> Bool {
        // Only a receiver at rest: over the trailing window up to the last accepted fix, the filtered track has
        // not moved by the net-displacement threshold. (A window still filling counts: requiring half a window
        // after each re-anchor let the next excursions through, parked cars 2.0 / 7.6 km per 2 h instead of
        // 1.8 / 6.3.)
        guard let start = window.oldest() else { return false }
        let ne = filter.east - start.east, nn = filter.north - start.north
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: lastAccuracy), profile: profile)
        guard ne * ne + nn * nn < threshold * threshold else { return false }
        let re = e - lastRejectedEast, rn = n - lastRejectedNorth
        let fe = e - pe, fn = n - pn
        return re * re + rn * rn < fe * fe + fn * fn
    }

    /// Counts a rejected fix at (east, north) with per-axis variance `variance` into the run of rejections and
    /// returns whether the run now calls for a re-anchor (``TrackingProfile/rejectionsBeforeReanchor`` fixes).
    /// A fix extends the run only if it agrees with the run's previous fix: their distance, less what the
    /// profile's top speed covers in between, within the χ² gate of their two variances. Scattered multipath
    /// fixes (three outliers 300 m from the track and from each other) are not a relocation: each starts a
    /// new run (they re-anchored the filter 315 m off the path). Out of line: rejections are rare.
    @usableFromInline @inline(never)
    mutating func countsTowardsReanchor(east e: Double, north n: Double, variance r: Double, now: Int64) -> Bool {
        if consecutiveRejections > 0 {
            let seconds = Double(now &- lastRejectedMilliseconds) / 1000
            let de = e - lastRejectedEast, dn = n - lastRejectedNorth
            let reach = max(0, (de * de + dn * dn).squareRoot() - profile.maximumSpeedMetresPerSecond * seconds)
            let agrees = reach * reach <= profile.outlierChiSquare * (r + lastRejectedVariance)
            consecutiveRejections = agrees ? consecutiveRejections + 1 : 1
        } else {
            consecutiveRejections = 1
        }
        (lastRejectedEast, lastRejectedNorth, lastRejectedVariance) = (e, n, r)
        lastRejectedMilliseconds = now
        // (A fix refused while a departure is pending breaks its run: see `confirmDeparture`.)
        departureLastAwayMetres = 0
        departureAwayRun = 0
        return consecutiveRejections >= profile.rejectionsBeforeReanchor
    }

    /// Bridging, called before the filter update of a fix at (`east`, `north`) with per-axis variance `variance`
    /// (m²) `dt` seconds after the last accepted one when that step is longer than
    /// ``TrackingProfile/maximumIntegrationSeconds`` or a gap chord is pending. Returns (the least increment the
    /// step counts, the metres a confirmed gap chord added). (The fix's accuracy comes as the variance the caller
    /// keeps for the outlier gate anyway: passing its accuracy, or storing it for this call, made the compiler
    /// copy the whole tracker on every fix.)
    ///
    /// **A step longer than the clamp straight after a reset gap's lone anchor** is a link of a chain of sparse
    /// steps (``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``): the gap's chord counts if this step's chord
    /// agrees with it (or it agreed with the one before), and then this step counts at least its chord.
    ///
    /// **A step longer than the clamp** counts at least its chord, from the filtered position before it to the
    /// fix (capped at the profile's top speed), when the filter's velocity before the step was above the
    /// deadband, within 45° of that chord (``bridgeHeadingCosine``), and the chord's average speed at most
    /// ``bridgeSpeedRatio`` times it; the step then goes through every gate as usual. Why: the clamp keeps one
    /// speed reading from standing for a long silence, but a logger that records every 11–60 s (GPX hikes,
    /// Garmin's "smart" recording, which records less often exactly when the traveller goes straight) lost
    /// 10–80 % of every such step (`gpx-korita-zbevnica` counted 4,125 m of a 6,282 m fix path). The chord is a
    /// lower bound on the path whenever the positions are right; the heading and pace checks keep a still
    /// receiver's scatter out (its chords point anywhere, and back, and a jump is much faster than the drift
    /// before it).
    ///
    /// **Every reset gap** is settled at the first fix half a window after its anchor (any anchor in between
    /// drops it). If that fix is back within 2 m + twice the window's mean accuracy of the filtered position
    /// before the silence while the anchor was not, the track since was a cold fix converging (Android's doze
    /// wakes a still phone every few minutes, its first fixes tens of metres off): the distance held since the
    /// anchor is given up and the window starts again (a parked phone's doze bursts on the driving profile,
    /// 13,456 → 7,813 m per 4 hours in a reviewer's cases).
    ///
    /// **A pending gap chord** (``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``) then counts, straight
    /// into the total, when the track after the gap has moved from the anchor by more than the net-displacement
    /// threshold, the filter's velocity is above the deadband and does not head back along the chord (a
    /// non-negative dot product), the speeds before and after the gap are within ``bridgeSpeedRatio`` of each
    /// other (``bridgeVehicleSpeedRatio`` for a vehicle's profile) and the chord's average speed at most
    /// ``bridgeSpeedRatio`` times the faster, neither the track since the anchor nor the filter is faster than
    /// the traveller sustains, and neither the vehicle latch nor a reading in force
    /// excludes the movement. Why: a tunnel, an underpass or a building is crossed at about the pace of either
    /// side, and whatever turn the traveller took inside, it does not come out heading back to where it went in;
    /// a receiver that is still after the gap (a car parked in a garage), one whose first fixes after a silence
    /// start off and converge back (a cold fix after Android's doze, a multipath excursion's return), a walker
    /// whose silence hid a bus ride (twice the pace across it), and one who comes out of the silence on a bus
    /// or in a car (faster than a walker, or twice the pace it went in at: a second reviewer's cases, +563 m of
    /// bus counted as walk before this check) all fail.
    ///
    /// Out of line and mutating (`self` by reference): rare at 1 Hz.
    @usableFromInline @inline(never)
    mutating func bridge(
        east e: Double, north n: Double, seconds dt: Double, variance r: Double, isAccuracyAssumed: Bool,
        doppler: Double?, course: Double, now: Int64
    ) -> SIMD2<Double> {
        // A step that is no reset gap ends a run of them (see `resetGapHysteresis`); the first step after a gap
        // always comes here (`pendingGapSeconds`).
        resetGapThresholdSeconds = profile.filterResetGapSeconds
        let ve = filter.velocityEast, vn = filter.velocityNorth
        let speed = (ve * ve + vn * vn).squareRoot()
        // This fix's displacement accuracy: the reported radius, or the profile's displacement noise for none.
        let accuracy =
            isAccuracyAssumed
            ? profile.assumedDisplacementAccuracyMetres : r.squareRoot() * MeasurementNoise.radius68PerSigma
        var added = 0.0
        var floor = 0.0
        if pendingGapSeconds > 0, dt > profile.maximumIntegrationSeconds, let anchor = window.oldest(),
            anchor.fixCount == fixCount
        {
            // A sparse step straight after a reset gap's anchor: a link of a chain (see `beginGap`).
            pendingGapSeconds = 0
            let link = linkChain(
                point: SIMD2(anchor.east, anchor.north), pointMilliseconds: anchor.milliseconds,
                pointAccuracy: anchorAccuracy, pointIsExcluded: anchorIsExcluded, pointIsStill: subDeadbandRun > 0,
                east: e, north: n, seconds: dt, accuracy: accuracy, doppler: doppler, now: now)
            added = link.added
            // (At most what the traveller sustains: below the profile's top speed.)
            floor = link.secondSpeed * dt
        }
        if pendingGapSeconds > 0, let anchor = window.oldest(),
            Double(now &- anchor.milliseconds) / 1000 >= profile.windowSeconds / 2
        {
            let seconds = pendingGapSeconds
            pendingGapSeconds = 0
            // The gap's chord: from the filtered position before it to the anchor (its first fix).
            let gap = SIMD2(anchor.east, anchor.north) - gapOrigin
            let chord = pendingGapSpeedBefore > 0 ? (gap * gap).sum().squareRoot() : 0
            let me = e - anchor.east, mn = n - anchor.north
            let meanAccuracy = windowMeanAccuracy(orElse: profile.assumedDisplacementAccuracyMetres)
            let moved = (me * me + mn * mn).squareRoot()
            let hasMoved = moved > NetDisplacementGate.threshold(meanAccuracy: meanAccuracy, profile: profile)
            // Back where it was before the silence, from a first fix that was not: a cold fix converging (Android's
            // doze wakes a still phone every few minutes, its first fixes tens of metres off), not travel. The
            // distance held since the anchor is given up, before the window releases it, and the window starts
            // again here.
            let back = SIMD2(e, n) - gapOrigin
            let nearOrigin = NetDisplacementGate.threshold(meanAccuracy: 2 * meanAccuracy, profile: profile)
            if (back * back).sum().squareRoot() <= nearOrigin, (gap * gap).sum().squareRoot() > nearOrigin {
                committed = candidates
                restartWindow(milliseconds: now &- 1, east: filter.east, north: filter.north)
                return SIMD2(0, 0)
            }
            // Faster since the anchor than the traveller sustains (the vehicle rule, which has not judged this
            // track yet: it waits for half a window too), or a reading or the latch excluding it: a vehicle after
            // the gap, so the silence was most likely the vehicle's as well.
            let sustained = profile.maximumSustainedSpeedMetresPerSecond
            let isExcluded =
                isInVehicle || moved / (Double(now &- anchor.milliseconds) / 1000) > sustained || speed > sustained
                || readingExcludes(at: now)
            // The pace on both sides within `bridgeSpeedRatio` of each other (`bridgeVehicleSpeedRatio` for a
            // vehicle's profile), and across the gap at most `bridgeSpeedRatio` times the faster.
            let slower = min(pendingGapSpeedBefore, speed), faster = max(pendingGapSpeedBefore, speed)
            let sidesRatio = sustained.isFinite ? Self.bridgeSpeedRatio : Self.bridgeVehicleSpeedRatio
            if hasMoved, !isExcluded, chord > 0, speed >= profile.deadbandMetresPerSecond, ve * gap.x + vn * gap.y >= 0,
                faster <= sidesRatio * slower, chord / seconds <= Self.bridgeSpeedRatio * faster
            {
                added = accumulator.add(doppler: 0, filtered: chord)
            }
        }
        if dt > profile.maximumIntegrationSeconds {
            let de = e - filter.east, dn = n - filter.north
            let chord = (de * de + dn * dn).squareRoot()
            if chord > 0, speed >= profile.deadbandMetresPerSecond,
                ve * de + vn * dn >= Self.bridgeHeadingCosine * speed * chord,
                chord <= Self.bridgeSpeedRatio * speed * dt
            {
                floor = max(floor, min(chord, profile.maximumSpeedMetresPerSecond * dt))
            }
            // A step of the recording's rhythm without readings: its chord, when it keeps on from the step before.
            // (The step straight after an anchor counts nothing by it: no step before it was judged, see
            // ``lastSparseChordMilliseconds``. Its chord is noted for the step after it.)
            if doppler == nil, lastReading.isNaN {
                floor = max(
                    floor,
                    sparseChordFloor(
                        east: e, north: n, seconds: dt, accuracy: accuracy, isAccuracyAssumed: isAccuracyAssumed,
                        now: now))
            }
            // A sparse step with readings at both ends (see `sparseStepEstimate`): judged now, counted after the
            // gates (`commitSparseStep`); the floor comes back as −1 − floor to say so.
            if lastReading >= 0,
                let step = sparseStepEstimate(
                    east: e, north: n, seconds: dt, doppler: doppler, course: course.isNaN ? nil : course,
                    accuracy: accuracy, now: now)
            {
                pendingSparseStep = step
                return SIMD2(-1 - floor, added)
            }
        }
        return SIMD2(floor, added)
    }

    /// The least a sparse step without speed readings counts (metres): its chord, from the last accepted fix to
    /// the fix at (`east`, `north`) with displacement accuracy `accuracy`, `dt` seconds later; 0 when the rule
    /// does not apply. Notes the chord for the step after (``lastSparseChord``).
    ///
    /// It applies (never to the step straight after an anchor, which has no judged step before it; its chord is
    /// noted all the same) when the step is of the recording's rhythm (at most ``sparseRhythmRatio`` times the step
    /// before: a logger's cadence, not a silence that may hide a stop), outside the vehicle latch, and its chord
    /// lies beyond the fixes' noise (the net-displacement threshold of both ends' accuracies), no faster than the
    /// traveller sustains, and *keeps on* from the step before: that step was judged here too, ended at the last
    /// accepted fix, was beyond its noise and within the pace, and the two chords do not turn by more than 90°
    /// (a non-negative dot product).
    ///
    /// Why: a logger without readings every 12–45 s (a phone app's GPX, a tracker without a speed column) had
    /// each step longer than the 10 s clamp counted as 10 s of the position filter's speed unless its chord from
    /// the *filtered* position kept within 45° of the filter's heading (the bridge): on paths that turn at most
    /// fixes, most steps failed that test. Recordings thinned without their speeds, against their full-rate
    /// count: the Pixel 6 walk every 30 s −23.5 → −9.9 %, the Edge 800 ride every 15 s −8.7 → −3.7 %, the F9K
    /// drive every 15 s −14.4 → −9.2 %; generated city tracks every 18–45 s −7 … −19 % → −2 … −8 %
    /// (docs/ARCHITECTURE.md 5e). The chord between the fixes themselves does not lag as the filtered position
    /// does. The test against the step before keeps jumps out: a multipath excursion off a still logger's
    /// position is entered by a chord whose predecessor lay within the noise and left by one that turns back or
    /// follows one within the noise. Without it, generated still loggers whose fixes sit 25–70 m off for 1–5
    /// minutes counted 309 → 996 m per 2 h (walking, every 45 s) and 674 → 1,320 m (cycling, every 25 s); with
    /// it +0 … +20 m (+50 … +95 m where the fixes claim less than their scatter or the error drifts fast, on top
    /// of the 0.5–2.8 km such loggers already count: docs/ARCHITECTURE.md 5e).
    /// Not counted as the filter's speed over the whole step instead: a filter without velocity readings keeps
    /// its momentum into a halt, and a fleet van logging every 15 s read +13 % (−7 % with the clamp).
    @usableFromInline @inline(never)
    mutating func sparseChordFloor(
        east e: Double, north n: Double, seconds dt: Double, accuracy: Double, isAccuracyAssumed: Bool, now: Int64
    ) -> Double {
        let previous = lastSparseChord
        let keepsOn = lastSparseChordMilliseconds == lastAcceptedMilliseconds
        lastSparseChord = SIMD2(.nan, .nan)
        lastSparseChordMilliseconds = now
        guard lastStepSeconds > 0, dt <= Self.sparseRhythmRatio * lastStepSeconds, !isInVehicle else { return 0 }
        let chord = SIMD2(e - lastRawEast, n - lastRawNorth)
        let length = (chord * chord).sum().squareRoot()
        // (A fix without an accuracy stands for a file without them: the fix before is taken as unknown too, at
        // the profile's displacement noise, not the accuracy gate's fallback that `lastAccuracy` holds.)
        let before = isAccuracyAssumed ? accuracy : lastAccuracy
        let noise = NetDisplacementGate.threshold(meanAccuracy: before + accuracy, profile: profile)
        let fastest = min(profile.maximumSustainedSpeedMetresPerSecond, profile.maximumSpeedMetresPerSecond)
        guard length > noise, length <= fastest * dt else { return 0 }
        lastSparseChord = chord
        // (NaN, for a step before that was not beyond its noise, fails the test.)
        return keepsOn && (previous * chord).sum() >= 0 ? length : 0
    }

    /// Whether slow readings `first` and `second` at the ends of a sparse step whose chord (`east`, `north`,
    /// `chord` metres long) lies within the fixes' noise describe a walker's movement: both at least
    /// ``paceReadingMetresPerSecond``, the chord at least ``paceChordShare`` of their `integral`, and the courses
    /// read at both ends, when there are both, within 45° of the chord (``bridgeHeadingCosine``).
    @usableFromInline
    func readingsDescribe(
        _ first: Double, _ second: Double, integral: Double, east de: Double, north dn: Double, chord: Double,
        course: Double?
    ) -> Bool {
        guard min(first, second) >= Self.paceReadingMetresPerSecond, chord >= Self.paceChordShare * integral else {
            return false
        }
        guard let course else { return true }
        return coursesHeadAlong(east: de, north: dn, chord: chord, course: course, cosine: Self.bridgeHeadingCosine)
            ?? true
    }

    /// Whether the courses read at both ends of a step (`course` at this fix, ``lastCourse`` at the one before)
    /// both head along its chord (`east`, `north`, `chord` metres long) within the angle whose cosine is
    /// `cosine`; `nil` when the fix before read no course.
    @usableFromInline
    func coursesHeadAlong(east de: Double, north dn: Double, chord: Double, course: Double, cosine: Double) -> Bool? {
        guard lastCourse.isFinite else { return nil }
        let a = lastCourse * .pi / 180, b = course * .pi / 180
        let limit = cosine * chord
        return sin(a) * de + cos(a) * dn >= limit && sin(b) * de + cos(b) * dn >= limit
    }

    /// The distance of a sparse step (longer than ``TrackingProfile/maximumIntegrationSeconds``) onto a fix at
    /// (`east`, `north`) with Doppler speed `doppler`, course `course` and displacement accuracy `accuracy`, `dt`
    /// seconds after the last accepted fix, from the speed readings at both its ends: the trapezoid
    /// (v₁ + v₂) / 2 × dt; on a straight step (both courses within 20° of the chord) the chord, which is its path
    /// there. Returns the step (``SparseStep/nothing`` for one that counts nothing and whose chord no other rule
    /// counts either), or `nil` when the rule does not apply (the clamp, the chord rules, the gates and the chains
    /// decide as before). ``commitSparseStep(floor:)`` counts it.
    ///
    /// It applies when both ends read a speed, the step is at most ``TrackingProfile/maximumBridgedGapSeconds``
    /// and at most ``sparseRhythmRatio`` times the step before it (a logger's cadence; a 1 Hz recording's first
    /// silence longer than the clamp is ten times its step, and keeps the older rules, as a silence may hide a
    /// stop), the session's Doppler check does not read another unit, neither the readings nor the chord are
    /// faster than the traveller sustains, and neither the vehicle latch nor a reading in force excludes the
    /// movement; and, for readings below the deadband at both ends, when the chord is within the fixes' noise
    /// (then it counts nothing), or for slow readings (under ``stillChordSpeedLimit``), when the chord is within
    /// the noise (nothing) or at most ``jumpChordRatio`` times their integral.
    ///
    /// Why: a fleet tracker reports every 15–120 s, and one reading standing for at most 10 s of its step lost
    /// most of each step, while the chords between its fixes cut every corner (docs/ARCHITECTURE.md, "Sparse
    /// steps with readings", for the figures).
    ///
    /// **The unit.** A speed in another unit (knots, km/h read as m/s) would multiply every sparse step, and
    /// such a track has no dense stretch for the Doppler check's evidence. The sparse steps keep their own
    /// (``sparseUnit``): in another unit, a step counts at most its chord; undecided, at most 1.3 chords.
    @usableFromInline
    func sparseStepEstimate(
        east e: Double, north n: Double, seconds dt: Double, doppler: Double?, course: Double?, accuracy: Double,
        now: Int64
    ) -> SparseStep? {
        guard let reading = doppler, lastReading >= 0, dt <= profile.maximumBridgedGapSeconds, lastStepSeconds > 0,
            !readsInAnotherUnit
        else { return nil }
        // The vehicle latch or a reading in force excluding the movement: the gates and the chains judge the step
        // as before.
        if isInVehicle || readingExcludes(at: now) || readingExcludes(at: lastAcceptedMilliseconds) { return nil }
        let de = e - lastRawEast, dn = n - lastRawNorth
        let chord = (de * de + dn * dn).squareRoot()
        let noise = NetDisplacementGate.threshold(meanAccuracy: lastAccuracy + accuracy, profile: profile)
        if dt > Self.sparseRhythmRatio * lastStepSeconds {
            guard dt > profile.filterResetGapSeconds else { return nil }
            return silenceChord(chord: chord, noise: noise, seconds: dt, reading: reading)
        }
        // A reading faster than the traveller sustains (a bus in a walk, a reading the speed gate set aside as
        // another unit): the gates and the chains judge the step as before (counted here, a walker's 30 s logger
        // on a bus counted the bus: a reviewer's 1,654 → 4,670 m).
        let sustained = profile.fastestSustainedSpeedMetresPerSecond
        if lastReading > sustained || reading > sustained { return nil }
        let first = lastReading, second = reading
        let deadband = profile.deadbandMetresPerSecond
        // A chord faster than the traveller sustains under readings it sustains (a tram that stops and goes
        // between a walker's fixes): the vehicle rules judge it.
        if chord / dt > sustained { return nil }
        if first < deadband && second < deadband {
            // Still at both ends: no movement across a chord within the fixes' noise; across a longer one the
            // readings do not tell (a delivery van stopped at both fixes drove 180–370 m between them; a column of
            // zeros under a moving track read 39,527 → 0 m when believed): the chains judge it as before.
            return chord <= noise ? .nothing : nil
        }
        let integral = (first + second) / 2 * dt
        // Slow readings at both ends of a chord within the fixes' noise (a parked receiver's Doppler jitter, 0.3–0.6
        // m/s), or of one far longer than they cover (a jump away and back: a reviewer's parked tracker counted
        // 1,536 m in 8 h): no movement (as a chain judges a still chord, ``stillChordSpeedLimit``).
        if integral / dt < Self.stillChordSpeedLimit {
            // (Unless both read a walker's pace, the chord bears them out, at least ¾ of their integral, and the
            // courses read at both ends, if any, head along it within 45°: a walker's steps every 10–15 s lie
            // within the noise of 8 m fixes, or of fixes without accuracies, and counted nothing; see
            // ``paceReadingMetresPerSecond``.)
            if chord <= noise,
                !readingsDescribe(first, second, integral: integral, east: de, north: dn, chord: chord, course: course)
            {
                return .nothing
            }
            // A chord far longer than slow readings cover: a jump, or a vehicle slow at both fix times and fast
            // between them; the readings do not tell which, the older rules judge it (counted as a jump's 0, a
            // reviewer's stop-and-go van lost its steps; as an integral, a parked tracker's jumps counted).
            if chord > Self.jumpChordRatio * integral + noise { return nil }
        }
        // A straight step: both ends moving, their courses within 20° of the chord's direction. Its chord is its
        // path; any other step's path is the speed integral.
        var isStraight = false
        let isMoving = first >= deadband && second >= deadband && chord > noise
        // Unit evidence from steps fast at both ends only: a step slow at both fix times and fast between them
        // lands within 1.3 chords whatever the unit (a reviewer's knots: one such step let ten count in full).
        let isEvidence = isMoving && min(first, second) >= Self.sparseEvidenceSpeedMetresPerSecond
        if isMoving, let course {
            isStraight =
                coursesHeadAlong(east: de, north: dn, chord: chord, course: course, cosine: Self.straightCosine)
                ?? false
        }
        return SparseStep(
            integralMetres: integral, chordMetres: chord, isStraight: isStraight, isUnitEvidence: isEvidence)
    }

    /// A reset gap out of the recording's rhythm (longer than ``sparseRhythmRatio`` × the step before and than
    /// ``TrackingProfile/filterResetGapSeconds``: a tunnel, a garage, an urban canyon in a 1 Hz or 10 s track)
    /// `dt` seconds long with a speed reading at both ends (`reading` at this one), its chord `chord` and the
    /// fixes' noise `noise` (metres; the caller has ruled out the vehicle latch and readings in force), on a
    /// vehicle's profile
    /// (no sustained-speed limit): its chord, as a straight sparse step, when one end reads under way (at least
    /// ``stillChordSpeedLimit``, 2 m/s: a parked tracker's noisy readings of 0.3–2 km/h say nothing, and its
    /// heartbeats' multipath jumps counted), the chord is beyond the fixes' noise and its pace at most ``bridgeVehicleSpeedRatio`` × the
    /// faster reading; else `nil` (the gap rules judge it, as before).
    ///
    /// Why: the path across a silence is at least its chord, and the readings say the vehicle was under way at
    /// one end. The gap rules count the chord only when the track after the silence confirms it (moving, heading
    /// on, at about the pace before), so a van that came out of a 60–100 s outage stopped at a light, or set off
    /// from one inside it, or looped round a block, counted nothing: a fleet re-tester's van logging every 10 s,
    /// with outages of 40–90 s cut into it at six places (truth 9,584 m across the 13 that moved), counted about
    /// 3,700 m across them. The chord is what every peer counts there (Traccar's totalDistance sums chords). Not
    /// the speed integral: a silence may hide a stop (a minute at a light inside a 90 s outage), which a trapezoid
    /// of the readings at its ends fills with driving; it also hides loops, which the chord cuts (the re-tester's
    /// holes: chords 5,904 m, the trapezoid 9,481 m, per hole −38 … +148 %). Not for shorter silences, where the
    /// clamp counts the reading for 10 s (the F9K drive's 19 s halt and start, truth 57 m: 106 m by the clamp, 58
    /// by the chord; measured, and left to the rules that govern those steps).
    @usableFromInline
    func silenceChord(chord: Double, noise: Double, seconds dt: Double, reading: Double) -> SparseStep? {
        let faster = max(lastReading, reading)
        guard !profile.maximumSustainedSpeedMetresPerSecond.isFinite, faster >= Self.stillChordSpeedLimit,
            chord > noise, chord <= Self.bridgeVehicleSpeedRatio * faster * dt
        else { return nil }
        return SparseStep(integralMetres: chord, chordMetres: chord, isStraight: true, isUnitEvidence: false)
    }

    /// Takes the sparse step ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)`` judged
    /// (``pendingSparseStep``): adds to the evidence of the readings' unit (``sparseUnit``) and returns the metres
    /// the step counts, at least `floor`: its estimate as far as that unit allows.
    @usableFromInline @inline(never)
    mutating func commitSparseStep(floor: Double) -> Double {
        let step = pendingSparseStep
        guard !step.countsNothing else { return 0 }
        let (integral, chord) = (step.integralMetres, step.chordMetres)
        if step.isUnitEvidence { sparseSteps += SIMD2(1, integral <= Self.sparseUnitRatio * chord ? 1 : 0) }
        let estimate = step.isStraight ? chord : integral
        let metres: Double
        switch sparseUnit {
        case .metresPerSecond: metres = estimate
        case .another: metres = min(integral, chord)
        case .undecided: metres = min(estimate, Self.sparseUnitRatio * chord)
        }
        return max(metres, floor)
    }

    /// A reset gap that is a sparse step with a reading at both ends: its speed integral
    /// (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``) counted, and its chord not
    /// counted again by a chain or the gap rule. Returns the metres counted. (Out of line, one call: written in
    /// `process` it cost the tracker benchmark 28 instructions per fix on its dense path.)
    @usableFromInline @inline(never)
    mutating func countSparseGap(
        east e: Double, north n: Double, seconds dt: Double, reading: Double, course: Double, accuracy: Double,
        now: Int64
    ) -> Double {
        guard
            let step = sparseStepEstimate(
                east: e, north: n, seconds: dt, doppler: reading.isNaN ? nil : reading,
                course: course.isNaN ? nil : course, accuracy: accuracy, now: now)
        else { return 0 }
        gapOriginIsExcluded = true
        pendingGapSpeedBefore = 0
        pendingSparseStep = step
        return accumulator.add(doppler: commitSparseStep(floor: 0), filtered: 0)
    }

    /// What the sparse steps show of their readings' unit (``sparseSteps``).
    @usableFromInline enum SparseUnit { case undecided, metresPerSecond, another }

    /// A sparse step as ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)`` judges it.
    @usableFromInline struct SparseStep: Sendable, BitwiseCopyable {
        /// The trapezoid of its two readings, metres (negative: ``countsNothing``).
        @usableFromInline var integralMetres: Double
        /// The straight line between its fixes, metres.
        @usableFromInline var chordMetres: Double
        /// Both courses within 20° of the chord: the chord is its path.
        @usableFromInline var isStraight: Bool
        /// Evidence of the readings' unit (``sparseSteps``): moving beyond the noise, cruising at both ends.
        @usableFromInline var isUnitEvidence: Bool

        /// A step that counts nothing and whose chord no other rule counts either.
        @usableFromInline static let nothing = SparseStep(
            integralMetres: -1, chordMetres: 0, isStraight: false, isUnitEvidence: false)

        /// See ``nothing``.
        @usableFromInline var countsNothing: Bool { integralMetres < 0 }
    }

    /// What the sparse steps show of their readings' unit: metres per second while the evidence steps (moving
    /// beyond the noise at ``sparseEvidenceSpeedMetresPerSecond`` or more at both ends) that integrate at
    /// most ``sparseUnitRatio`` times their chords are at least two and at least ``sparseUnitConsistentShare`` of
    /// them; another unit once there are ``sparseUnitMinimumSteps`` and fewer than that share do; else undecided.
    /// Why: a step's path is at least its chord, so readings in m/s integrate close to the chord on every fairly
    /// straight step, while readings in knots (1.94×), miles per hour (2.24×) or km/h (3.6×) integrate far above
    /// it on all of them. Real drives thinned to 15–120 s (`tools/analysis/sparse_steps.py`): the u-blox F9K's
    /// urban loop 79 / 67 / 50 % of its evidence steps within 1.3× at 15 / 20 / 30 s (none of its 7 and 3 at 60
    /// and 120 s: undecided), GSDC Pixel 4 92–100 %, Pixel 6a 69–97 %; the same readings as knots, mph or km/h
    /// 0–11 %.
    var sparseUnit: SparseUnit {
        let (steps, consistent) = (sparseSteps.x, sparseSteps.y)
        if consistent >= 2, consistent >= Self.sparseUnitConsistentShare * steps {
            return .metresPerSecond
        }
        return steps >= Self.sparseUnitMinimumSteps ? .another : .undecided
    }

    /// The share of the evidence steps that must integrate within ``sparseUnitRatio`` of their chords for the
    /// readings to be in m/s (``sparseUnit``): 0.15, between the lowest share of readings in m/s that shows any
    /// (33 %, a fleet tester's van at 60 s; the F9K at 30 s 50 %) and readings in another unit (at most 11 %: the
    /// F9K at 30 s as knots, 2 of 18).
    @usableFromInline static let sparseUnitConsistentShare = 0.15

    /// The evidence steps without a consistent share that make the readings another unit (``sparseUnit``): 8.
    /// Until then (or two consistent steps) a step counts at most ``sparseUnitRatio`` times its chord.
    @usableFromInline static let sparseUnitMinimumSteps = 8.0

    /// The slower reading at both ends of a sparse step for it to be unit evidence (``sparseUnit``), m/s: 5. A
    /// step slow at either fix time may have been fast between them, and then integrates within 1.3 chords in any
    /// unit; a step at 5 m/s or more at both ends is cruising.
    @usableFromInline static let sparseEvidenceSpeedMetresPerSecond = 5.0

    /// How much longer than its speed integral a slow sparse step's chord may be before the readings no longer
    /// describe the step (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``; the older rules
    /// judge it): 2. A car pulling away from a halt within a step covers up to about twice the integral of its
    /// readings (0 and its cruising speed), and is left to the older rules too; a multipath jump of 56–150 m under
    /// readings of 0.3–0.9 m/s is 2–15 times it (a reviewer's parked tracker counted 392 m in 8 h at 3).
    @usableFromInline static let jumpChordRatio = 2.0

    /// The cosine of the largest angle between a sparse step's chord and the course read at either end for the
    /// step to be straight, its chord then its path
    /// (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``): 0.94, about 20°.
    @usableFromInline static let straightCosine = 0.94

    /// The longest sparse step, relative to the step before it, whose readings are integrated across it
    /// (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``): 4. A tracker's cadence varies (reports on a
    /// turn, a missed report doubles a step), but a 1 Hz recording's first silence longer than the 10 s clamp is
    /// at least ten times its step: it keeps the clamp and the chord rules (a second silence right after it is
    /// judged by the first).
    @usableFromInline static let sparseRhythmRatio = 4.0

    /// The share of ``TrackingProfile/filterResetGapSeconds`` beyond which a step after a reset gap opens one too,
    /// when the step before that gap was also longer than this share: 0.8 (16 s on driving, 24 s on cycling, 48 s
    /// on walking). The run ends at the first step that is no reset gap (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``
    /// restores the profile's gap, even for a step the outlier gate then refuses) and at any other anchor (a step
    /// too fast for the profile within the run anchors at once, as a reset gap would, and ends it).
    ///
    /// Why: a logger whose cadence straddles the reset gap (a tracker every 20 s ± 1 s on driving) alternated
    /// between the chain rules of reset gaps (``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``)
    /// and the dense path's bridge, and neither judged the steps the other had seen: generated city drives every
    /// 19 / 20 / 21 s counted −11.5 / −9.0 / −9.4 % (now −3.1 / −2.1 / −3.0 %), against −3.6 % where every step
    /// is a gap (22 s) and about −6 % where none is (18 s); the u-blox F9K drive thinned to 20 s without speeds
    /// −23.1 → −16.6 % (its chords −9.8 %). A dense track's silences leave the gap alone: the step before them is
    /// short (`tools/analysis/sparse_chain_cases.py OUT --gap`, docs/ARCHITECTURE.md 5g).
    @usableFromInline static let resetGapHysteresis = 0.8

    /// The most a sparse step's speed integral may exceed its chord for the step to show readings in m/s
    /// (``sparseUnit``), and what an undecided step counts at most, in chords: 1.3. On a straight step the chord
    /// is the path (real drives thinned to 15–120 s: 0.89–1.13 on straight steps).
    @usableFromInline static let sparseUnitRatio = 1.3

    /// The most a bridged chord's average speed may exceed the speed before it (for a gap: the faster of the
    /// speeds on either side): 1.5 times. A traveller that keeps its heading keeps roughly its pace too; a
    /// multipath jump after a still spell is many times faster than the drift the filter read before it, and a
    /// bus ride hidden in a walker's silence twice the walking pace.
    @usableFromInline static let bridgeSpeedRatio = 1.5

    /// The most the speeds on either side of a gap may differ for its chord to count when the profile's traveller
    /// is a vehicle (no ``TrackingProfile/maximumSustainedSpeedMetresPerSecond``: driving, cycling): 2.5 times.
    /// Why: a car slows or speeds up inside a tunnel (a queue at its exit), and the reason for
    /// ``bridgeSpeedRatio`` on the sides, a walker's silence hiding a bus ride, does not apply. A reviewer's drives
    /// with 25–60 s tunnels whose speed changes to 10–25 m/s inside (5 seeds, 31.4 km) counted −14.2 % with 1.5,
    /// −3.2 % with 2.5; every other generated case (about 1,100) and every recording is unchanged. The price, on
    /// cycling (by the rule, not measured): a car ride hidden in a silence at up to 2.5 times the riding pace
    /// (5 → 12 m/s) can now be bridged; the cycling profile counts such a car anyway once its fixes resume (it
    /// excludes only `in vehicle` readings).
    @usableFromInline static let bridgeVehicleSpeedRatio = 2.5

    /// The cosine of the largest turn between the heading before a long step and the step's chord for the chord
    /// to count (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``): 0.7, about 45°. A still receiver's chords have random
    /// headings (and a jump's return points back), so at most a quarter pass by chance. Measured on the first
    /// version of the bridge (the chord between filtered positions, no pace check): the simulator's still phone
    /// logging every 7–25 s counted the same with any cosine from 0 to 0.9, and the GPX hike
    /// `gpx-korita-zbevnica` 5,117 m at 0.7 against 4,961 m at 0.9 and 5,138 m at 0 (switchbacks fail the check);
    /// as first built it counted 5,156 m at 0.7 (not re-measured at the other cosines; 5,437 m with chains).
    @usableFromInline static let bridgeHeadingCosine = 0.7

    /// Begins a reset gap before the fix at (`east`, `north`) `dt` seconds after the last accepted one anchors the
    /// filter: settles a chain (below), then sets the gap's origin and the speed before it
    /// (``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``, or the chain's pace). Returns the metres
    /// the chain added.
    ///
    /// **A chain of sparse steps**: a logger whose every step is a reset gap (a fleet tracker reporting every 30 s
    /// on the driving profile, a GPX logger every 2 minutes on walking) gives the filter no two fixes together, so
    /// it never measures a velocity, no gap rule applies, and such a track counted nothing at all (53.9 km of
    /// driving logged every 22–60 s: 0 m). Here the previous gap is still pending and its anchor was a point: a
    /// lone fix (no fix accepted since it), or a segment too short to settle that did not move by the
    /// net-displacement gate's test (a logger writing two or three fixes at each wake; not a burst whose first fix
    /// is converging from far off: its end is wherever that convergence stopped); its chord, from the previous gap's origin to that fix, counts
    /// (``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``) when this gap's
    /// chord agrees with it, or when it agreed with the chord before it. A step after a lone anchor that is
    /// shorter than the reset gap but longer than the clamp is a link too (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``):
    /// a logger every 59–61 s on walking. When this gap's chord agrees, its pace stands as the speed before
    /// this gap, so a dense track after it confirms it like any gap's.
    @usableFromInline @inline(never)
    mutating func beginGap(
        east e: Double, north n: Double, seconds dt: Double, displacementAccuracy: Double, doppler: Double?, now: Int64
    ) -> Double {
        let origin = SIMD2(filter.east, filter.north)
        let isLone = window.oldest()?.fixCount == fixCount
        let accuracyHere = isLone ? anchorAccuracy : windowMeanAccuracy(orElse: anchorAccuracy)
        // A point of a chain: a lone anchor, or (a logger writing two or three fixes at each wake) a segment too
        // short to settle that did not move by the net-displacement gate's own test (its anchor within the
        // threshold of their mean accuracy from where it ended): not a cold fix converging.
        var isPoint = isLone
        if !isLone, let anchor = window.oldest() {
            let spread = SIMD2(anchor.east, anchor.north) - origin
            isPoint =
                (spread * spread).sum().squareRoot()
                <= NetDisplacementGate.threshold(meanAccuracy: (anchorAccuracy + accuracyHere) / 2, profile: profile)
        }
        // (The run of sub-deadband readings: 1 or more if the segment's last reading is below the deadband.)
        let originIsStill = isPoint && subDeadbandRun > 0
        // The reading in force at the segment's end: a lone anchor's own, else the last fix's unless this fix
        // carries a newer one.
        let originIsExcluded =
            isLone
            ? anchorIsExcluded
            : (isPoint && pendingGapSeconds > 0 && anchorIsExcluded) || readingExcludes(at: lastAcceptedMilliseconds)
        var added = 0.0
        var chainSpeed = 0.0
        var isSpike = false
        var isExcursion = false
        let isLink = pendingGapSeconds > 0 && isPoint
        let deadband = profile.deadbandMetresPerSecond
        if isLink {
            // A spike (one fix out and back to the gap's origin), or a two-fix excursion (the origin and the point
            // out, this fix back to the chain point before them): no chord of it counts.
            // Only from a settled home, out to points and back to a fix none of which read moving, within
            // `maximumExcursionSeconds`: a van's U-turn inside a moving chain, or a trip whose readings say it drove,
            // is no excursion.
            let limit = Int64(Self.maximumExcursionSeconds * 1000)
            let readsStill = !(lastReading >= deadband) && !((doppler ?? 0) >= deadband)
            isSpike =
                readsStill && gapOriginIsSettled && now &- gapOriginMilliseconds <= limit
                && returnsFromExcursion(
                    home: gapOrigin, homeAccuracy: gapOriginAccuracy, first: origin, firstAccuracy: accuracyHere,
                    east: e, north: n, accuracy: displacementAccuracy)
            isExcursion =
                !isSpike && readsStill && !gapOriginReadsMoving && hasChainHome && chainHomeIsSettled
                && now &- chainHomeMilliseconds <= limit
                && returnsFromExcursion(
                    home: chainHome, homeAccuracy: chainHomeAccuracy, first: gapOrigin,
                    firstAccuracy: gapOriginAccuracy, second: origin, secondAccuracy: accuracyHere, east: e, north: n,
                    accuracy: displacementAccuracy)
            if isSpike || isExcursion {
                recordVehicleEvidence(at: now, doppler: doppler)
            } else {
                (added, chainSpeed) = linkChain(
                    point: origin, pointMilliseconds: lastAcceptedMilliseconds, pointAccuracy: accuracyHere,
                    pointIsExcluded: originIsExcluded, pointIsStill: originIsStill, east: e, north: n, seconds: dt,
                    accuracy: displacementAccuracy, doppler: doppler, now: now)
            }
        }
        chainCertified = chainSpeed > 0
        lastExcursionStartMilliseconds = isSpike ? gapOriginMilliseconds : isExcursion ? chainHomeMilliseconds : .min
        let speedBefore = gapChordSpeedBefore(
            east: e, north: n, seconds: dt, displacementAccuracy: displacementAccuracy)
        pendingGapSpeedBefore = speedBefore > 0 ? speedBefore : chainSpeed
        // After a spike the chain goes on from the origin before it, as if the spike had not been; after a two-fix
        // excursion from the point it came back to (this fix: the next link's first chord is within the noise).
        if isSpike { return added }
        // Settled: back after an excursion; within the return zone of the chain point before or the one before
        // that; or, starting a chain, neither the reading nor the filter says moving.
        func isNear(_ point: SIMD2<Double>, _ pointAccuracy: Double) -> Bool {
            let d = origin - point
            return (d * d).sum().squareRoot() <= returnZoneMetres(pointAccuracy, accuracyHere)
        }
        let isSettled =
            isExcursion
            || (isLink
                ? isNear(gapOrigin, gapOriginAccuracy) || (hasChainHome && isNear(chainHome, chainHomeAccuracy))
                : !(lastReading >= deadband) && filter.speedMetresPerSecond < deadband)
        chainHome = gapOrigin
        chainHomeAccuracy = gapOriginAccuracy
        chainHomeMilliseconds = gapOriginMilliseconds
        chainHomeIsSettled = gapOriginIsSettled
        hasChainHome = isLink && !isExcursion
        gapOriginIsSettled = isSettled
        gapOriginReadsMoving = lastReading >= deadband
        gapOrigin = isExcursion ? SIMD2(e, n) : origin
        gapOriginMilliseconds = lastAcceptedMilliseconds
        gapOriginAccuracy = accuracyHere
        gapOriginIsStill = originIsStill
        gapOriginIsExcluded = originIsExcluded
        return added
    }

    /// Whether a chain's last points at `first` (and `second`, for a two-fix excursion), with their displacement
    /// accuracies, were an excursion from `home`, judged at the fix after them at (`east`, `north`) with
    /// displacement accuracy `accuracy`: this fix is back inside the *return zone* of `home`
    /// (``excursionReturnNoiseFactor`` × the net-displacement threshold of both ends' accuracies, the noise by
    /// which ``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``
    /// judges a chord), and each point of the excursion lay beyond twice its own return zone.
    /// ``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)`` asks it only when `home` was settled (the
    /// chain reached it by a chord inside the zone, or started there with nothing moving), no fix out or back
    /// read a Doppler speed at or above the deadband, and the excursion lasted at most
    /// ``maximumExcursionSeconds``; it then counts no chord of the excursion, whatever the chain had agreed before
    /// (the chord into a halt counts, but not into an excursion), starts the next link where the track came back
    /// to, and says so in the decision (``FixDecision/excursionStart``).
    ///
    /// Why: a multipath excursion jumps out and back, and two of them one good fix apart (on opposite sides), or
    /// one that lasts two fixes, lay out chords at a driving pace that keep a heading, which the chain took for
    /// travel: a fleet tester's van parked 8 h with a fix every 30 s, 5 % of them 50–300 m off, counted 1,708 m
    /// (now 151 m: a three-fix excursion is not caught, since the chain counts a chord one link after it and the
    /// total never decreases). *Twice the return zone*: with the noise alone as the bar, a walker's last chord
    /// into a halt (31 m, then 9 m of noise) was an excursion to the return zone of its start (generated city
    /// walks every 65 s lost up to 51 m in 7.7 km). *Settled, still, short*: without them two reviewers' U-turns
    /// of moving chains and deliveries out and back every 120 s read as excursions (80 depot–dead-end–depot trips
    /// lost 107.5 → 94.7 km of 164.5). The price left: a logger without usable readings (no speed column, or a
    /// column of zeros) that leaves where it stood and is back within 120 s after one or two fixes (a van round
    /// the block every 30 s: 379 of 1,160 m lost).
    @usableFromInline
    func returnsFromExcursion(
        home: SIMD2<Double>, homeAccuracy: Double, first: SIMD2<Double>, firstAccuracy: Double,
        second: SIMD2<Double>? = nil, secondAccuracy: Double = 0, east e: Double, north n: Double, accuracy: Double
    ) -> Bool {
        func distance(_ point: SIMD2<Double>) -> Double {
            let d = point - home
            return (d * d).sum().squareRoot()
        }
        // Out beyond twice the return zone of each of its points, back inside this fix's.
        return distance(first) > 2 * returnZoneMetres(homeAccuracy, firstAccuracy)
            && (second.map { distance($0) > 2 * returnZoneMetres(homeAccuracy, secondAccuracy) } ?? true)
            && distance(SIMD2(e, n)) <= returnZoneMetres(homeAccuracy, accuracy)
    }

    /// The return zone around a chain point of displacement accuracy `a` for a point of accuracy `b` (metres):
    /// ``excursionReturnNoiseFactor`` × the net-displacement threshold of both accuracies.
    @usableFromInline
    func returnZoneMetres(_ a: Double, _ b: Double) -> Double {
        Self.excursionReturnNoiseFactor * NetDisplacementGate.threshold(meanAccuracy: a + b, profile: profile)
    }

    /// The longest excursion, from the fix it left to the fix back, that
    /// ``returnsFromExcursion(home:homeAccuracy:first:firstAccuracy:second:secondAccuracy:east:north:accuracy:)``
    /// judges (seconds): 120. A multipath excursion is one or two fixes whatever the logger's rhythm (at 30 s: 60
    /// or 90 s); a van's trip to a neighbour and back takes its drive and its delivery, minutes (a fleet
    /// re-tester's delivery out and back every 120 s without a speed column, 700 m, read as an excursion lost its
    /// 309 m before this limit). At 60 s a two-fix excursion (180 s) is no longer caught.
    @usableFromInline static let maximumExcursionSeconds = 120.0

    /// The return zone of an excursion (``returnsFromExcursion(home:homeAccuracy:first:firstAccuracy:second:secondAccuracy:east:north:accuracy:)``)
    /// in units of the net-displacement threshold of its two ends' accuracies: 2. The threshold alone (2 m plus
    /// both accuracies, 8–12 m there) missed the fleet tester's parked van, whose fixes wander 10–15 m from each
    /// other between excursions (5 m Gauss–Markov error, τ 60 s, fixes 30–90 s apart).
    @usableFromInline static let excursionReturnNoiseFactor = 2.0

    /// One link of a chain of sparse steps (see ``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``),
    /// judged at a fix at (`east`, `north`), `dt` seconds after the chain's point at `point` (its time, displacement
    /// accuracy, whether the reading in force there excludes the movement, whether it read a Doppler speed below
    /// the deadband), with displacement accuracy `accuracy` and Doppler speed `doppler`: counts the *first* chord,
    /// from the gap's origin (``gapOrigin`` and the fields after it) to the point, when the *second*, from the point
    /// to this fix, agrees with it, or when the first agreed with the chord before it (``chainCertified``). Records
    /// this fix's vehicle evidence first (``recordVehicleEvidence(at:doppler:)``). Returns (the metres added, the
    /// second chord's pace when it agrees with the first, else 0). A chord is *excluded* when the reading in force at
    /// either of its ends excludes the movement (``readingExcludes(at:)``: each fix's own reading, kept with it,
    /// since a reading 30–120 s old has expired by the next fix), and *still* when both its ends read a Doppler
    /// speed below the deadband.
    ///
    /// A chord counts only if it is longer than the net-displacement threshold of its ends' accuracies, its pace
    /// is between the deadband and what the traveller sustains, its silence is at most
    /// ``TrackingProfile/maximumBridgedGapSeconds`` (plus a window for the first), it is not excluded, the chain's
    /// vehicle latch (``recordVehicleEvidence(at:doppler:)``; the dense path's latch, if on, becomes it) does not
    /// hold it,
    /// and if still, its pace is at least ``stillChordSpeedLimit``. The second agrees when it passes the same tests and does not head back along
    /// the first (a non-negative dot product: a turn of up to 90°, as at a street corner). Why: a still receiver's
    /// chords are within its noise, and the one in 25–50 that is not (white noise) is followed by one that is or
    /// that heads back (two in a row that pass by chance and keep a heading: about one in a thousand); a multipath
    /// excursion jumps out and stays (the next chord is noise) or jumps straight back; a moving logger's chords
    /// exceed the noise and keep going. Agreeing with the chord before is enough, so the chord into a halt counts
    /// (the next one is noise). No pace ratio between the two: on generated city drives logged every 25–60 s
    /// (lights, turns, stops) a ratio of 3 counted 2–22 % less, and no still logger counted less with it.
    @usableFromInline
    mutating func linkChain(
        point: SIMD2<Double>, pointMilliseconds: Int64, pointAccuracy: Double, pointIsExcluded: Bool,
        pointIsStill: Bool, east e: Double, north n: Double, seconds dt: Double, accuracy: Double, doppler: Double?,
        now: Int64
    ) -> (added: Double, secondSpeed: Double) {
        recordVehicleEvidence(at: now, doppler: doppler)
        let first = point - gapOrigin, second = SIMD2(e, n) - point
        let firstSeconds = Double(pointMilliseconds &- gapOriginMilliseconds) / 1000, secondSeconds = dt
        let firstAccuracy = gapOriginAccuracy + pointAccuracy, secondAccuracy = pointAccuracy + accuracy
        let firstIsExcluded = gapOriginIsExcluded || pointIsExcluded
        let secondIsExcluded = pointIsExcluded || readingExcludes(at: now)
        let firstIsStill = gapOriginIsStill && pointIsStill
        let secondIsStill = pointIsStill && doppler.map { $0 < profile.deadbandMetresPerSecond } == true
        // A chain cannot see the slow spell that releases the dense path's latch (every fix is an anchor, and every
        // reset gap restarts the spell): the latch becomes the chain's own, from the last fix it held.
        if isInVehicle {
            chainVehicleMilliseconds = max(chainVehicleMilliseconds, lastAcceptedMilliseconds)
            endVehicleLatch()
        }
        // The chain's vehicle latch: a chord that starts within the exit time of vehicle evidence (and ends at or
        // after it) is the vehicle's. (In seconds, as a Double: an exit time of ∞ holds for ever, a negative one
        // never, NaN never.)
        let exit = max(profile.vehicleExitSeconds, 0)
        let hasEvidence = chainVehicleMilliseconds != .min
        let firstIsLatched =
            hasEvidence && pointMilliseconds >= chainVehicleMilliseconds
            && Double(gapOriginMilliseconds &- chainVehicleMilliseconds) / 1000 < exit
        let secondIsLatched =
            hasEvidence && now >= chainVehicleMilliseconds
            && Double(pointMilliseconds &- chainVehicleMilliseconds) / 1000 < exit
        let firstLength = (first * first).sum().squareRoot(), secondLength = (second * second).sum().squareRoot()
        let firstSpeed = firstLength / firstSeconds, secondSpeed = secondLength / secondSeconds
        let fastest = profile.fastestSustainedSpeedMetresPerSecond
        let slowest = profile.deadbandMetresPerSecond
        let stillLimit = Self.stillChordSpeedLimit
        guard !firstIsExcluded, !firstIsLatched, !(firstIsStill && firstSpeed < stillLimit),
            firstSeconds <= profile.maximumBridgedGapSeconds + profile.windowSeconds, firstSpeed >= slowest,
            firstSpeed <= fastest,
            firstLength > NetDisplacementGate.threshold(meanAccuracy: firstAccuracy, profile: profile)
        else { return (0, 0) }
        let agrees =
            !secondIsExcluded && !secondIsLatched && !(secondIsStill && secondSpeed < stillLimit)
            && secondSeconds <= profile.maximumBridgedGapSeconds && secondSpeed >= slowest
            && secondSpeed <= fastest
            && secondLength > NetDisplacementGate.threshold(meanAccuracy: secondAccuracy, profile: profile)
            && (first * second).sum() >= 0
        guard agrees || chainCertified else { return (0, 0) }
        return (accumulator.add(doppler: 0, filtered: firstLength), agrees ? secondSpeed : 0)
    }

    /// The pace (m/s) below which a chain's chord between two fixes that both read a Doppler speed below the
    /// deadband is no movement (``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``):
    /// 2 m/s. A parked receiver reading 0 while its position wanders (a reviewer's parked car logging every 30 s
    /// whose fixes drift 20 m a step: 0.7 m/s; multipath jumps of 30–60 m at 30 s, 1–2 m/s) stays below it; a car
    /// stopped at a light at both ends of a 60 s chord covered it faster (generated city drives with speed every
    /// 60 s: 11,337 m counted with no limit, 13,376 m at 2 m/s, of 15,384; parked cases 0 m either way).
    @usableFromInline static let stillChordSpeedLimit = 2.0

    /// The reading (m/s) at both ends of a slow sparse step whose chord lies within the fixes' noise from which
    /// the readings still describe the step (``readingsDescribe(_:_:integral:east:north:chord:course:)``, in
    /// ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``): 1 m/s, a slow walker's pace. A
    /// parked receiver's Doppler jitter reads 0.3–0.6 m/s, and its chord, noise, does not follow its readings.
    /// Measured (`tools/analysis/sparse_chain_cases.py OUT --rhythm --claim 8`, and `--no-accuracy`: the walks
    /// with readings): a walker at 1.4 m/s every 12 / 15 s claiming 8 m counted −47.2 / −18.0 % (now
    /// −9.4 / −7.7 %); without accuracies every 12 / 15 / 20 / 30 s −99.8 / −99.8 / −99.7 / −49.1 % (now −14.9 /
    /// −13.7 / −12.8 / −9.8 %). The price, still receivers every 12–15 s whose readings jitter (half-normal,
    /// σ 0.6 / 1.0 m/s, no course) at both ends: +3 … +30 / up to +156 m per 2 h (with half the integral as the
    /// chord's test: up to +411 m); a reviewer's still receivers reading 1–1.8 m/s at every fix under 6 m of
    /// white noise, every 12 s: 428 → 2,106 m per 2 h (3,646 without the course test; many such files count
    /// 3–5 km before either).
    @usableFromInline static let paceReadingMetresPerSecond = 1.0

    /// The least share of their speed integral a slow sparse step's chord must cover for readings at a walker's
    /// pace to describe it (``readingsDescribe(_:_:integral:east:north:chord:course:)``): ¾. A walker's chord
    /// covers nearly all of it on a straight step and most of it round a corner; a still receiver's chord is
    /// noise, whatever its readings. Measured against ½ (see ``paceReadingMetresPerSecond``): ½ counted the
    /// walkers within 0.4 % but let jittering still receivers add up to +411 m per 2 h, ¾ up to +156 m.
    @usableFromInline static let paceChordShare = 0.75

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
    @usableFromInline @inline(never)
    mutating func gapChordSpeedBefore(east e: Double, north n: Double, seconds dt: Double, displacementAccuracy: Double)
        -> Double
    {
        guard dt <= profile.maximumBridgedGapSeconds, !isInVehicle,
            !readingExcludes(at: lastAcceptedMilliseconds)
        else { return 0 }
        let de = e - filter.east, dn = n - filter.north
        let chord = (de * de + dn * dn).squareRoot()
        let ve = filter.velocityEast, vn = filter.velocityNorth
        let speedBefore = (ve * ve + vn * vn).squareRoot()
        let before = windowMeanAccuracy(orElse: displacementAccuracy)
        let speed = chord / dt
        let fastest = profile.fastestSustainedSpeedMetresPerSecond
        guard chord > NetDisplacementGate.threshold(meanAccuracy: before + displacementAccuracy, profile: profile),
            speedBefore >= profile.deadbandMetresPerSecond, speed >= profile.deadbandMetresPerSecond, speed <= fastest
        else { return 0 }
        return speedBefore
    }

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
        return true
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

    /// Anchors a new plane and filter at `fix`, as the first fix of a tracker (the first fix, a clock-jump
    /// restart, a session break), and completes its decision. Inlined: a call out of line cost the per-fix path.
    @inlinable @inline(__always)
    mutating func anchorAsFirstFix(
        _ decision: inout FixDecision, fix: Fix, variance r: Double, accuracy: Double, displacementAccuracy: Double,
        now: Int64
    ) -> FixDecision {
        projection = LocalFrame(anchor: (fix.latitude, fix.longitude))
        anchor(
            east: 0, north: 0, variance: r, fix: fix, accuracy: accuracy, displacementAccuracy: displacementAccuracy,
            now: now)
        decision.gateSpeedMetresPerSecond = fix.speedMetresPerSecond
        decision.gateSpeedSource = fix.speedMetresPerSecond == nil ? nil : .doppler
        return finishAnchor(&decision)
    }

    /// Starts a chord of the session evidence at the position filter's position now.
    @inlinable @inline(__always)
    mutating func startChord(now: Int64) {
        chordStartMilliseconds = now
        chordStartEast = positionFilter.east
        chordStartNorth = positionFilter.north
        chordStartDopplerPath = dopplerPath
    }

    /// Completes the decision of a fix that (re-)anchored the filter.
    @inlinable @inline(__always)
    func finishAnchor(_ decision: inout FixDecision) -> FixDecision {
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

    /// Whether a sub-deadband Doppler reading is a Samsung-style dropout rather than a halt: the receiver is
    /// moving by the window, the position filter moves, and the session's Doppler path falls short of
    /// ``TrackingProfile/dopplerConsistentRatio`` × its position-filter path, or a run overrules the readings as a
    /// placeholder (``ContradictedReadings``: a consistent receiver's column that died).
    @inlinable @inline(__always)
    func isDropout(_ speed: Double, isMoving: Bool, positionSpeed: Double) -> Bool {
        isMoving && speed < profile.deadbandMetresPerSecond && positionSpeed >= profile.deadbandMetresPerSecond
            && (sessionDopplerPath < profile.dopplerConsistentRatio * sessionPositionPath
                || isOverrulingReadings)
    }

    /// Bounds a Doppler dropout's (or a missing reading's) stand-in increment during a run of sub-deadband or
    /// missing readings: it may only fill
    /// what the window's Doppler readings (and the stand-ins already counted in it) leave unexplained of its net
    /// displacement, plus the net-displacement gate's base margin. Just after a real halt that is nothing (the
    /// window still holds the walk, which the readings already counted, and the position filter's speed is
    /// noise); mid-walk, the readings' shortfall. Only a reading the Doppler check trusts and that is a dropout
    /// (``isDropout(_:isMoving:positionSpeed:)``) is bounded: an untrusted one stands in as any untrusted reading.
    /// The caller then reports the speed actually integrated, and a bound to nothing as a net-displacement hold.
    /// Returns the bounded increment (metres; `increment` itself when the reading is no dropout). A reading the
    /// Doppler check trusts (`isTrusted`) is not bounded, only judged (`judgeTrustedStillReadings`). Out of line:
    /// called during runs of zeros only.
    @usableFromInline @inline(never)
    mutating func dropoutBound(
        _ increment: Double, reading: Double?, isTrusted: Bool, isMoving: Bool, netMetres: Double,
        thresholdMetres: Double
    ) -> Double {
        if isTrusted {
            judgeTrustedStillReadings(isMoving: isMoving, netMetres: netMetres, thresholdMetres: thresholdMetres)
            return increment
        }
        defer {
            // Then, whether the track keeps going under these zeros (`ContradictedReadings`): judged while they say
            // still or are overruled; readings that say moving, or a window under the displacement test, end a
            // run. (After the bound, which reads the window the judge may change.)
            judgeOrEndRun(
                isMoving: isMoving, netMetres: netMetres, thresholdMetres: thresholdMetres,
                isOverruling: contradiction.isOverruling)
            // Once the readings were overruled as a placeholder, a sub-deadband one just added to the session's
            // Doppler evidence (moving) leaves it: a placeholder says nothing of the receiver's unit or of its
            // dropouts (a reviewer's 600 s drive with true readings after 300 s under zeros had every reading
            // distrusted). Whether or not a run overrules this fix: after a run ends mid-move (its latest samples
            // turn, the track slows), the excluded readings keep the window on the net displacement for a while,
            // and those fixes left 191 m of zero evidence on a reviewer's walk.
            if positionOnlyBelowMetresPerSecond > 0, isMoving, let reading, reading < positionOnlyBelowMetresPerSecond {
                withdrawSessionEvidence(reading: reading, now: lastReceivedMilliseconds)
            }
        }
        // The window's quantities again, from its oldest sample (the caller's locals are not passed: keeping
        // them alive for this rare call cost the per-fix path registers). The window has not changed since.
        guard let start = window.oldest() else { return increment }
        if let reading {
            // (Not a reading a run overrules as a placeholder: then it is no dropout of a true column.)
            guard isDropout(reading, isMoving: isMoving, positionSpeed: positionFilter.speedMetresPerSecond),
                !isOverrulingReadings
            else { return increment }
        } else {
            // A missing reading (the run counts one only from a receiver that reports Doppler): its stand-in is
            // bounded alike, whatever the receiver's zeros are worth: at a halt iOS reports −1, and the position
            // filter's jitter (0.4-2.3 m/s under 1 m of noise) counted ~20 m per halt while the window held the
            // walk. Also while the window judges the device still: those stand-ins are held as candidates, and
            // the walk that follows released the halt's last 20 s of jitter (+12 m per halt).
            guard positionFilter.speedMetresPerSecond >= profile.deadbandMetresPerSecond else { return increment }
        }
        let windowDoppler = dopplerPath - start.dopplerPath
        let count = fixCount - start.fixCount
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: count > 0 ? (accuracySum - start.accuracySum) / count : 0, profile: profile)
        guard
            DopplerCheck.isTrusted(
                dopplerPathMetres: windowDoppler, positionPathMetres: positionPath - start.positionPath,
                thresholdMetres: threshold, sessionDopplerPathMetres: sessionDopplerPath,
                sessionPositionPathMetres: sessionPositionPath, profile: profile),
            !readsInAnotherUnit
        else { return increment }
        let unexplained =
            netMetres + profile.netDisplacementBaseMetres - windowDoppler
            - (candidates.y - start.candidateFiltered)
        return min(increment, max(0, unexplained))
    }

    /// Judges a fix during a run of sub-deadband readings (``TrackingProfile/haltRunLength`` or more; from the
    /// first one for readings the Doppler check trusts, `judgeTrustedStillReadings`), whose filtered track moved
    /// more than ``ContradictedReadings/netThresholds`` net-displacement thresholds (`threshold`) over the window, against the run of fixes whose readings say still
    /// while the track travels (``ContradictedReadings``): the fix continues it when the window (at least half a
    /// span old, ending short of the vehicle latch and of a rest) has readings over half its span with a mean below
    /// ``TrackingProfile/motionDopplerSpeedMetresPerSecond`` (once overruled, the readings are out of the window and
    /// that is not asked again); any other fix ends it. While the run overrules the readings, they leave the window
    /// and the next fix is judged by its net displacement; the first time, the window's samples are lowered to the
    /// run's first window, so that the release counts what the run held back. Called from
    /// ``dropoutBound(_:reading:isTrusted:isMoving:netMetres:thresholdMetres:)`` after its bound, before the fix's sample
    /// is appended. Out of line: it runs only during runs of zeros.
    @usableFromInline @inline(never)
    mutating func judgeContradictedReadings(thresholdMetres threshold: Double, now: Int64) {
        guard let start = window.oldest(), now &- start.milliseconds >= Int64(profile.windowSeconds * 500),
            !isInVehicle, !isAroundRest || isDepartureFromStillReadings
        else { return contradiction.end() }
        if !contradiction.isOverruling {
            // (Once overruled, the readings are out of the window: judged still then, zeros since.)
            let seconds = dopplerSeconds - start.dopplerSeconds
            guard seconds >= profile.windowSeconds / 2,
                (dopplerPath - start.dopplerPath) / seconds < profile.motionDopplerSpeedMetresPerSecond
            else { return contradiction.end() }
        }
        let wasOverruling = contradiction.isOverruling
        guard
            contradiction.add(
                position: SIMD2(filter.east, filter.north), now: now,
                previousAcceptedMilliseconds: lastAcceptedMilliseconds,
                lastRejectedMilliseconds: lastRejectedMilliseconds, thresholdMetres: threshold,
                windowSpanMilliseconds: Int64(profile.windowSeconds * 1000),
                windowStartCandidates: SIMD2(start.candidateDoppler, start.candidateFiltered),
                windowStartPositionPath: start.positionPath)
        else { return }
        // Overruled: the readings so far leave the window, with a margin of the longest step integrated, so that
        // the next fix's window has too little Doppler and the net displacement decides. The fix's own sample is
        // appended now (its time then skips the caller's append), so that a window as short as the fixes' interval,
        // which keeps only the previous fix's sample, sees it too; its candidates are those before the fix's
        // increment: a release counts that increment too. The first time, the release counts from the run's
        // first window on.
        let excluded = dopplerSeconds + profile.maximumIntegrationSeconds
        window.excludeReadings(throughDopplerSeconds: excluded)
        window.append(
            TrailingWindow.Sample(
                milliseconds: now, east: filter.east, north: filter.north, dopplerPath: dopplerPath,
                dopplerSeconds: excluded, positionPath: positionPath, candidateDoppler: candidates.x,
                candidateFiltered: candidates.y, accuracySum: accuracySum, fixCount: fixCount))
        if !wasOverruling {
            window.lowerCandidates(toAtMost: contradiction.startCandidates)
            // From now on the recording's sub-deadband readings are no readings to the prediction and the white-noise
            // estimate (a multipath jump the Doppler σₐ accepted at 5–10 s counted out and back: a reviewer's drive
            // +5 … +21 %); the cached prediction step is recomputed (0 is never a key, as in `changeProfile`).
            positionOnlyBelowMetresPerSecond = profile.deadbandMetresPerSecond
            predictionStepKey = 0
        }
    }

    /// Judges the fix against the run of fixes whose readings say still while the track travels
    /// (`judgeContradictedReadings`) when the window's net displacement (`netMetres`) is beyond the run's
    /// ``ContradictedReadings/netThresholds`` thresholds (`thresholdMetres`) and the window reads still or the run
    /// overrules (`isOverruling`); otherwise readings that say moving, or a window under the displacement test, end
    /// the run. Returns whether the fix was judged.
    @usableFromInline @discardableResult
    mutating func judgeOrEndRun(isMoving: Bool, netMetres: Double, thresholdMetres: Double, isOverruling: Bool) -> Bool
    {
        guard netMetres > ContradictedReadings.netThresholds * thresholdMetres, !isMoving || isOverruling else {
            if contradiction.fixes != 0 { contradiction.end() }
            return false
        }
        judgeContradictedReadings(thresholdMetres: thresholdMetres, now: lastReceivedMilliseconds)
        return true
    }

    /// Judges a sub-deadband reading that the Doppler check trusts, during a run of them
    /// (``TrackingProfile/haltRunLength`` or more), against the run of fixes whose readings say still while the
    /// track travels (``ContradictedReadings``), as `judgeContradictedReadings` judges readings the check does not
    /// trust. Once the run overrules, the readings are dropouts (``isDropout(_:isMoving:positionSpeed:)``) while it
    /// lasts, not trusted, and the run is judged on in
    /// ``dropoutBound(_:reading:isTrusted:isMoving:netMetres:thresholdMetres:)``, as for any reading not trusted.
    /// Called from that bound (with `isTrusted`).
    ///
    /// Why: the check trusts a receiver whose session Doppler path matched its position path, and a zero from it
    /// is a halt. A speed column that dies partway (a logger that writes 0 from some point on) was therefore
    /// believed for the rest of the track: a reviewer's drives every 3–15 s whose column turns to zeros after
    /// 20–70 % of the fixes read 24–64 % of their distance (the window's net displacement 180 m against a 6 m
    /// threshold, fix after fix). The evidence that overrules is the same steady progress that overrules a column
    /// of zeros from the start, so a consistent receiver's real halt, or a parked one's multipath, is believed as
    /// before.
    ///
    /// When the run overrules, the shortfall of what the track counted since the window that began it (every
    /// increment is a candidate, held or not, and so is an earlier release) against the position filter's path
    /// there joins the held candidates, released as a later fix's window moves (or at ``finishTrack()``): the
    /// trusted zeros counted nothing, so lowering the window's candidates, as for readings not trusted, releases
    /// nothing.
    ///
    /// When the positions had agreed with these readings during their run (the window's net displacement within
    /// the threshold: a halt the track confirms, ``stillAgreedPosition``), on a profile with a departure hold
    /// (``TrackingProfile/departureConfirmationSeconds``: driving, cycling), and no run overruled the readings under
    /// a moving track yet in the session (``hasCountedOverruledTrustedReadings``), the release is a departure from
    /// there
    /// (``isDepartureFromStillReadings``), settled by `settleDepartureFromStillReadings`: given up when the track
    /// snaps back; counted two minutes on unless it did (also while parked), when trusted readings above the
    /// deadband are released (`leaveRest`), or at ``finishTrack()``. Why: a parked receiver's reflection that slides
    /// away in a straight line at 3–6 m/s for 20–60 s is the same steady progress, and a proven receiver's zeros were
    /// right; its slide and the snap back counted 2 × 100–360 m (a reviewer's 20 parked receivers with six slides
    /// each, +7.8 km; a sweep of 126 single slides, +10.1 km). A drive under a column that died while the car stood
    /// still is held, not lost (two reviewers' 327 tracks whose column dies, 170 of them at a halt: the same
    /// distance). The agreement counts in the same run of sub-deadband readings, or within two window spans of the
    /// overruling run's start (a stray reading of 0.3–0.55 m/s begins a new run of them).
    @usableFromInline @inline(never)
    mutating func judgeTrustedStillReadings(isMoving: Bool, netMetres: Double, thresholdMetres: Double) {
        let runStart = fixCount - Double(subDeadbandRun)
        let agrees = !NetDisplacementGate.isMoving(netDisplacement: netMetres, threshold: thresholdMetres)
        if agrees {
            stillAgreedPosition = SIMD2(filter.east, filter.north)
            stillAgreedMilliseconds = lastReceivedMilliseconds
            stillAgreedRunStart = runStart
        }
        if isDepartureFromStillReadings { settleDepartureFromStillReadings(agrees: agrees, threshold: thresholdMetres) }
        let wasOverruling = isOverrulingReadings
        guard
            judgeOrEndRun(
                isMoving: isMoving, netMetres: netMetres, thresholdMetres: thresholdMetres, isOverruling: wasOverruling)
        else { return }
        // (Only as the run begins to overrule: while it goes on, the fixes count as readings not trusted, and a
        // release at each would bring back the movement the deadband refused.)
        guard contradiction.isOverruling, !wasOverruling else { return }
        // (Agreed in the same run of sub-deadband readings, or within two window spans of the run's start: a parked
        // receiver's stray reading of 0.3–0.55 m/s began a new run of them, which never agreed, and the slide
        // counted.)
        // (`.min`, never agreed, would wrap round in the difference.)
        if stillAgreedRunStart == runStart
            || (stillAgreedMilliseconds != .min
                && contradiction.startMilliseconds &- stillAgreedMilliseconds <= 2 * Int64(profile.windowSeconds * 1000)),
            departureMilliseconds == .min, profile.departureConfirmationSeconds > 0,
            !hasCountedOverruledTrustedReadings
        {
            restOrigin = stillAgreedPosition
            hasRest = true
            isDepartureFromStillReadings = true
        } else if !isDepartureFromStillReadings {
            hasCountedOverruledTrustedReadings = true
        }
        // (A run on a winding road overrules, turns, and overrules again: what it counted includes its releases.)
        let counted = candidates.x + candidates.y - contradiction.startCandidates.x - contradiction.startCandidates.y
        candidates.y += max(0, positionPath - contradiction.startPositionPathMetres - counted)
    }

    /// Settles a departure from where trusted still readings agreed (``isDepartureFromStillReadings``) at a trusted
    /// sub-deadband reading (`agrees`: the window's net displacement within `threshold`, metres): given up when the
    /// track is back (``isBackAtRest(away:threshold:)``: in a step from its farthest), or rests near there again
    /// within a window span and an integration step of being farthest (a slide's snap back, the fixes just after
    /// it refused or re-anchored; a drive round the block takes longer); counted (into ``countedWhileJudging``) once it
    /// has lasted ``maximumExcursionSeconds`` with the track away or resting anywhere (a hop that stopped away from
    /// where the column died; a lap that came back to it too slowly for a snap back). A run that ended before it released anything leaves no rest behind: given up when the track is back near
    /// where the readings agreed (a snap back that re-anchored the filter), else forgotten (its readings stay
    /// overruled for the smoother). Out of line: only while such a departure is held.
    @usableFromInline @inline(never)
    mutating func settleDepartureFromStillReadings(agrees: Bool, threshold: Double) {
        let now = lastReceivedMilliseconds
        guard departureMilliseconds != .min else {
            if !isOverrulingReadings { forgetUnreleasedDeparture(threshold: threshold) }
            return
        }
        let away = distanceFromRest(threshold: threshold)
        let settleMilliseconds = Int64((profile.windowSeconds + profile.maximumIntegrationSeconds) * 1000)
        if isBackAtRest(away: away, threshold: threshold)
            || (agrees && Self.isNearStillOrigin(away: away, farthest: departureFarthestMetres, threshold: threshold)
                && now &- departureFarthestMilliseconds <= settleMilliseconds)
        {
            giveUpDeparture()
        } else if Double(now &- departureMilliseconds) / 1000 >= Tracker.maximumExcursionSeconds,
            agrees || NetDisplacementGate.isMoving(netDisplacement: away, threshold: threshold)
        {
            // (Also resting back at its origin, when it came back too slowly for a snap back: a lap round the block
            // to where the column died, under 1 m of noise, waited for the next drive or the end of the track.)
            countedWhileJudging += endRest()
        }
    }

    /// Whether a track `away` metres from where trusted still readings agreed, having gone `farthest` metres from it, is
    /// back there: within twice `threshold` (the net-displacement gate's, metres) or a quarter of `farthest` (a slide's
    /// snap back lands on the receiver's scatter around the spot, not on it). Whether it came back as a snap back, the
    /// callers judge.
    static func isNearStillOrigin(away: Double, farthest: Double, threshold: Double) -> Bool {
        away <= max(2 * threshold, farthest / 4)
    }

    /// Forgets a departure from where trusted still readings agreed whose run ended before releasing anything: given
    /// up when the track is back near where they agreed (within twice `threshold` or a quarter of where the run
    /// got to: a snap back that re-anchored the filter), else the rest is dropped.
    @usableFromInline
    mutating func forgetUnreleasedDeparture(threshold: Double) {
        let d = SIMD2(filter.east, filter.north) - restOrigin, far = contradiction.last - restOrigin
        if Self.isNearStillOrigin(
            away: (d * d).sum().squareRoot(), farthest: (far * far).sum().squareRoot(), threshold: threshold)
        {
            giveUpDeparture()
        } else {
            hasRest = false
            isDepartureFromStillReadings = false
        }
    }

    /// The filter's velocity update from a trusted reading of `speed` (m/s, accuracy `speedSigma`) along `course`
    /// (degrees; its accuracy the fix's, else the profile's assumed one).
    @inlinable @inline(__always)
    mutating func updateVelocity(speed: Double, courseDegrees course: Double, speedSigma: Double, fix: Fix) {
        let courseSigma = fix.courseAccuracyDegrees ?? profile.assumedCourseAccuracyDegrees
        let c = course * .pi / 180
        filter.updateVelocity(
            east: speed * sin(c), north: speed * cos(c),
            variance: MeasurementNoise.velocityVariance(
                speed: speed, speedSigma: speedSigma, courseSigmaDegrees: courseSigma))
    }

    /// The filter's velocity update from a trusted reading under the deadband (`speed`, of accuracy `speedSigma`):
    /// a halt, so a zero velocity (or, with a course, the reading along it), unless ``isJudgingStillReadings``.
    /// Standing still needs no direction: without a course a zero speed is a zero velocity. Out of line: only
    /// readings under the deadband take it.
    @usableFromInline @inline(never)
    mutating func updateVelocityWithStillReading(_ speed: Double, speedSigma: Double, fix: Fix) {
        guard !isJudgingStillReadings else { return }
        if let course = fix.courseDegrees {
            updateVelocity(speed: speed, courseDegrees: course, speedSigma: speedSigma, fix: fix)
        } else {
            filter.updateVelocity(
                east: 0, north: 0,
                variance: MeasurementNoise.velocityVariance(speed: 0, speedSigma: speedSigma, courseSigmaDegrees: 0))
        }
    }

    /// Whether a run of fixes whose readings say still while the track travels overrules them now
    /// (``ContradictedReadings``): its verdict, as long as its last fix is the last accepted one (a run that a
    /// reading above the deadband left unjudged is over: its stale verdict made a consistent receiver's later
    /// halts count their first zeros as dropouts, 7–12 m per stop in a reviewer's test).
    @inlinable
    var isOverrulingReadings: Bool {
        contradiction.isOverruling && contradiction.lastMilliseconds == lastAcceptedMilliseconds
    }

    /// Whether trusted sub-deadband readings are no velocity measurement to the filter: while a run of fixes whose
    /// readings say still while the track travels (``ContradictedReadings``) is under way (its last fix is the last
    /// accepted one), and for the rest of the session once a run overruled them as a placeholder (as they are no
    /// readings to the prediction then: `positionOnlyBelowMetresPerSecond`). Why: at 1 Hz a speed column that died
    /// under a 12 m/s drive pinned the velocity at 0 fix after fix, the fixes fell outside the prediction (χ² 7–25),
    /// every rejection ended the run, and the drive after the column died counted nothing; and a run that ended at a
    /// corner, or a second death of the column, had the zeros pin the velocity again, with rejections and
    /// re-anchors that no new run survived (3,700 m of a 7,200 m drive). The position filter, which the run's
    /// distance comes from, takes no readings. The cost: once a column died and revived, the filtered velocity at a
    /// later true halt decays by the positions alone (a reviewer's test: 3–7 m/s five seconds into a stop at 1 Hz,
    /// three or four fixes refused as outliers; the distance unchanged). Tried instead, on a reviewer's 45 drives
    /// whose column dies (861 km; some revive, die again, halt): pinning again once the zeros are a new run of them
    /// (summed error 22.7 → 36.3 km) or once the window's net displacement falls under the run's thresholds
    /// (→ 57.6 km).
    @inlinable
    var isJudgingStillReadings: Bool {
        positionOnlyBelowMetresPerSecond > 0
            || (contradiction.fixes != 0 && contradiction.lastMilliseconds == lastAcceptedMilliseconds)
    }

    /// Takes a fix's reading and position-filter path back out of the session's Doppler evidence (``DopplerCheck``),
    /// where the fix, moving, had just added them (under chords the chord restarts at the fix instead, and its
    /// fix-by-fix unit evidence loses them). For sub-deadband readings once the readings were overruled as a
    /// placeholder (``dropoutBound(_:reading:isTrusted:isMoving:netMetres:thresholdMetres:)``).
    @usableFromInline
    mutating func withdrawSessionEvidence(reading: Double, now: Int64) {
        let step = min(Double(now &- lastAcceptedMilliseconds) / 1000, profile.maximumIntegrationSeconds)
        let evidence = SIMD2(reading, positionFilter.speedMetresPerSecond) * step
        if profile.judgesDopplerByChords {
            unitEvidence -= evidence
            startChord(now: now)
        } else {
            sessionDopplerPath -= evidence.x
            sessionPositionPath -= evidence.y
        }
    }

    /// `threshold` raised to the net-displacement gate's noise floor
    /// (``NetDisplacementGate/noiseFloor(positionVariance:profile:)``) for the filter's position variance scaled
    /// to the white noise the fixes show (``WhiteNoiseEstimate``) over the noise the filter assumed
    /// (`filterNoiseVariance`, m² per axis): the filter's variance follows the accuracy it was given, fixes whose
    /// error drifts or that are exact do not scatter from epoch to epoch, and white noise does, by as much as it
    /// does. Not capped at 1 (the filter's own noise level) since 2026-11-30: a receiver claiming 1–2 m whose
    /// fixes scatter 4 m per axis counted a reviewer's parked car 30.7 km per hour on the driving profile (68 m
    /// uncapped); the estimate only takes steps of at most 2.5 s, where a turning vehicle puts the middle fix
    /// a few decimetres off the chord, far below any floor that would cost it a window (every recording unchanged;
    /// of 1,194 generated cases all but three groups unchanged: a slow white-noise walk with 25 m accuracy −60 m of
    /// 950, the same at 10 m −23 m of an over-count of 196, doze bursts −3 m).
    /// Not raised before the estimate has its first ``WhiteNoiseEstimate/minimumSamples`` triples.
    /// A sparse step (longer than ``WhiteNoiseEstimate/maximumStepSeconds``) is also raised to
    /// ``WhiteNoiseEstimate/sparseThresholdSigmas`` standard deviations of the filtered track's white jitter by the
    /// sparse estimate (``WhiteNoiseEstimate/sparseVarianceRatio``, once it has its
    /// ``WhiteNoiseEstimate/sparseMinimumSamples`` pairs; docs/ARCHITECTURE.md 5f).
    /// (`mutating` only so that `self` is passed by reference: see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``.)
    @usableFromInline @inline(never)
    mutating func raisedToNoiseFloor(_ threshold: Double, filterNoiseVariance: Double) -> Double {
        var threshold = threshold
        if predictionStep.seconds > WhiteNoiseEstimate.maximumStepSeconds,
            whiteNoise.sparseSamples >= WhiteNoiseEstimate.sparseMinimumSamples, profile.netDisplacementNoiseSigmas > 0,
            noise.scale > 0
        {
            // A sparse step: the white noise its logger's steps show, as a share of the reported variance
            // (`WhiteNoiseEstimate.sparseVarianceRatio`), over the share the filter assumed (its scale).
            let share = whiteNoise.sparseVarianceRatio / noise.scale
            threshold = max(
                threshold,
                NetDisplacementGate.noiseFloor(
                    positionVariance: filter.positionVariance * share, sigmas: WhiteNoiseEstimate.sparseThresholdSigmas)
            )
        }
        guard whiteNoise.samples >= WhiteNoiseEstimate.minimumSamples, filterNoiseVariance > 0 else { return threshold }
        let share = whiteNoise.varianceMetres2 / filterNoiseVariance
        return max(
            threshold,
            NetDisplacementGate.noiseFloor(positionVariance: filter.positionVariance * share, profile: profile))
    }

    /// Whether the filtered position lies farther than `threshold` (metres, the net-displacement gate's)
    /// from where the vehicle latch's slow spell started. Out of line: called once per spell (`mutating` only so
    /// that `self` is passed by reference: see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``).
    @usableFromInline
    mutating func hasLeftSlowStart(threshold: Double) -> Bool {
        let d = SIMD2(filter.east, filter.north) - slowStart
        return NetDisplacementGate.isMoving(netDisplacement: (d * d).sum().squareRoot(), threshold: threshold)
    }

    /// Records a "not moving" verdict of the net-displacement gate (a window with too little Doppler) at `now`
    /// (see ``TrackingProfile/departureConfirmationSeconds``); a run of them a window long makes the window's
    /// oldest sample the rest the track may leave. A departure pending from an earlier rest is settled first:
    /// given up if the track is back at the rest (``isBackAtRest(away:threshold:)``: an excursion went out and
    /// came back; a verdict far from the rest, a U-turn's, gives nothing up), counted if it has lasted long enough
    /// (``confirmDeparture(now:away:threshold:)``), and otherwise kept, this rest not replacing the one left (an
    /// excursion resting at its far end for longer than the window still comes back to the rest it left; a car
    /// that moved up 1–1.5 thresholds in a queue and stopped is not back). Returns the metres counted. Out of
    /// line and `mutating` (by reference): it runs only without Doppler.
    @usableFromInline @inline(never)
    mutating func recordRest(now: Int64, threshold: Double) -> Double {
        // (`lastAcceptedMilliseconds` is still the previous accepted fix's time.)
        if isDepartureFromStillReadings, departureMilliseconds == .min, !isOverrulingReadings {
            // (A run that held a departure from where trusted zeros agreed ended before releasing anything.)
            forgetUnreleasedDeparture(threshold: threshold)
        }
        if restVerdictMilliseconds != lastAcceptedMilliseconds { restRunMilliseconds = now }
        restVerdictMilliseconds = now
        var counted = 0.0
        if departureMilliseconds != .min {
            let away = distanceFromRest(threshold: threshold)
            if isBackAtRest(away: away, threshold: threshold) {
                giveUpDeparture()
            } else {
                counted = confirmDeparture(now: now, away: away, threshold: threshold)
                if departureMilliseconds != .min { return 0 }
            }
        }
        if Double(now &- restRunMilliseconds) / 1000 >= profile.windowSeconds, let start = window.oldest() {
            restOrigin = SIMD2(start.east, start.north)
            hasRest = true
        }
        return counted
    }

    /// Whether the departure hold is at work: a rest to leave, or a departure from one pending.
    @inlinable @inline(__always)
    var isAroundRest: Bool { hasRest || departureMilliseconds != .min }

    /// Takes the metres (`doppler`, `filtered`) the gates released at `now` after a rest: a departure begins (or
    /// goes on) and holds them until ``confirmDeparture(now:away:threshold:)`` counts them, or, when the track is
    /// back at the rest from a farthest point one fix away (a jump), gives them up with the departure. A departure
    /// from where trusted still readings agreed (``isDepartureFromStillReadings``) counts at once when the metres
    /// released include more than `threshold` of trusted readings (the receiver's own readings say it moves: a
    /// first version gave up 840 m a revived column had counted). Returns the metres counted. Out of line and
    /// `mutating`: only on leaving a rest.
    @usableFromInline @inline(never)
    mutating func leaveRest(doppler: Double, filtered: Double, now: Int64, threshold: Double) -> Double {
        let isStart = departureMilliseconds == .min
        if isStart {
            departureMilliseconds = now
            departureFarthestMetres = 0
            departureLastAwayMetres = 0
            departureAwayRun = 0
            departureRunAtFarthest = 0
        }
        if isDepartureFromStillReadings, !isStart, doppler > threshold {
            // Trusted readings above the deadband released: the receiver's own readings say it moved.
            departurePending += SIMD2(doppler, filtered)
            return endRest()
        }
        let away = distanceFromRest(threshold: threshold)
        if !isStart, departureRunAtFarthest <= 1 || isDepartureFromStillReadings,
            isBackAtRest(away: away, threshold: threshold)
        {
            // Back where it rested while the window still reads motion, from a farthest point it reached on its
            // first fix away (a lone jump): an excursion, its way back included. (Not from one reached fix after
            // fix: a car that drives back past its parking place is on a trip, and a first version that gave up
            // any departure back here lost a reviewer's U-turns 30–90 m out at 1–5 s, 60–220 m each.)
            giveUpDeparture()
            return 0
        }
        departurePending += SIMD2(doppler, filtered)
        return confirmDeparture(now: now, away: away, threshold: threshold)
    }

    /// Gives up the pending departure: the track is back at its rest, so it was an excursion.
    @usableFromInline
    mutating func giveUpDeparture() {
        departureMilliseconds = .min
        departurePending = SIMD2(0, 0)
        if isDepartureFromStillReadings {
            hasRest = false
            isDepartureFromStillReadings = false
            stillReadingDeparturesGivenUp &+= 1
        }
    }

    /// Whether a track `away` metres from its rest is back there (see ``recordRest(now:threshold:)``). A departure
    /// from where trusted still readings agreed (``isDepartureFromStillReadings``) is back within twice `threshold`
    /// or a quarter of the farthest it went, reached within two accepted fixes of being within two thresholds of that
    /// farthest (a snap back, also after staying out; not a drive that comes round the block). Otherwise: within half
    /// of `threshold`; or within `threshold` and back by more than `threshold` from the farthest it went; or, when
    /// it reached its farthest in fewer than ``departureConfirmationFixes`` fixes away (a jump, not a drive:
    /// ``departureRunAtFarthest``), within twice `threshold` or a quarter of the farthest after going out beyond
    /// four times `threshold` (a jump out and back, whose fixes at the rest scatter by the receiver's noise).
    @usableFromInline
    func isBackAtRest(away: Double, threshold: Double) -> Bool {
        if isDepartureFromStillReadings {
            return Self.isNearStillOrigin(away: away, farthest: departureFarthestMetres, threshold: threshold)
                && fixCount - departureFarthestFixCount <= 2
        }
        return away <= threshold / 2 || (away <= threshold && away <= departureFarthestMetres - threshold)
            || (departureFarthestMetres >= 4 * threshold
                && departureRunAtFarthest < Tracker.departureConfirmationFixes
                && away <= max(2 * threshold, departureFarthestMetres / 4))
    }

    /// The filtered track's distance from ``restOrigin`` (metres), recorded in ``departureFarthestMetres`` with
    /// `threshold`.
    @usableFromInline
    mutating func distanceFromRest(threshold: Double) -> Double {
        let d = SIMD2(filter.east, filter.north) - restOrigin
        let away = (d * d).sum().squareRoot()
        departureFarthestMetres = max(departureFarthestMetres, away)
        if away >= departureFarthestMetres - 2 * threshold {
            // (Near its farthest: a slide that stays out and then snaps back left from there.)
            departureFarthestFixCount = fixCount
            departureFarthestMilliseconds = lastReceivedMilliseconds
        }
        departureThresholdMetres = threshold
        return away
    }

    /// The end of the track (or of the session): counts the metres a departure still holds unless the track is
    /// back at the rest it left (as ``recordRest(now:threshold:)`` judges it: then they are given up), and those a
    /// run that overrules its readings still holds (``releaseOverruledRun()``), and returns them.
    /// Why: a track ending within ``TrackingProfile/departureConfirmationSeconds`` of leaving a rest, before
    /// 100 m, lost those metres (a reviewer's drives ending 8 s after pulling away: 42 → 0 m of 61; rides
    /// ending 20 s on: 89 → 0 m of 95). Call it once, at the end: it forgets the rest, so fixes after it start
    /// without one (an excursion's way back would count). `truetrack process` calls it after the last fix; the
    /// per-fix totals of its decisions do not hold what it counts.
    public mutating func finishTrack() -> Double {
        let overruled = releaseOverruledRun()
        guard departureMilliseconds != .min else { return overruled }
        let threshold = departureThresholdMetres
        let away = distanceFromRest(threshold: threshold)
        guard !isBackAtRest(away: away, threshold: threshold) else {
            giveUpDeparture()
            return overruled
        }
        return overruled + endRest()
    }

    /// At the end of the track, counts what the window still holds when the last fix continued a run that overrules
    /// its readings (``ContradictedReadings``) and returns the metres counted: the run proved the track moving, and
    /// the release it lowered the window for comes with the next fix's moving window, which a track ending there
    /// never has (a reviewer's drive every 15 s whose column turned to zeros, overruled at its last fix: the last
    /// 60 s, 480 m, went uncounted).
    @usableFromInline
    mutating func releaseOverruledRun() -> Double {
        guard isOverrulingReadings, !isInVehicle, let start = window.oldest()
        else { return 0 }
        let held = candidates - pointwiseMax(committed, SIMD2(start.candidateDoppler, start.candidateFiltered))
        committed = candidates
        contradiction.end()
        return accumulator.add(doppler: max(held.x, 0), filtered: max(held.y, 0))
    }

    /// How far (metres) a departure from a rest must have gone, both from the rest and along the track, to count
    /// before ``TrackingProfile/departureConfirmationSeconds``: 100. Why: a multipath excursion that the
    /// outlier gate lets the filter follow goes out by less than the fixes' jump (25–70 m in the generated
    /// parked receivers), while a car pulling away covers 100 m in 7–10 s; the held metres of a real departure
    /// then count after seconds, not half a minute. Both conditions, because a re-anchor on a jump puts the
    /// track far from the rest without a path to it.
    @usableFromInline static let departureConfirmationMetres = 100.0

    /// How many accepted fixes in a row a departure from a rest must have been away for before it counts, each at
    /// least a quarter as far from the rest as the next (``departureAwayRun``): 3. Why: a multipath excursion of
    /// one or two fixes is 100 m out at once and back on the fix after; a jump that lands on a departure pending
    /// on the receiver's drift found it 30 s old, and is many times as far as the fix before; a car on its way
    /// is away fix after fix. Measured on a fleet re-tester's vans parked 8 h logging every 10–15 s without a
    /// speed column, 5 % of fixes jumping 50–500 m for one or two fixes (`tools/analysis/fleet/fleet_eval.py`).
    /// The cost: at 10 s a car pulling away counts its first metres two or three fixes later (at 1 Hz, 2 s).
    @usableFromInline static let departureConfirmationFixes = 3

    /// Counts a pending departure's held metres when it has lasted
    /// ``TrackingProfile/departureConfirmationSeconds`` and the track, `away` metres from its rest
    /// (``distanceFromRest(threshold:)``), is farther than `threshold`, or once it is
    /// ``departureConfirmationMetres`` on; the rest is then left for good. Either only when
    /// ``departureConfirmationFixes`` accepted fixes in a row were beyond `threshold`, each at least a quarter as
    /// far as the one after it, with no fix refused between them as an outlier or too fast
    /// (``departureAwayRun``). Without such a run, once the departure has been held
    /// ``maximumExcursionSeconds`` with the track beyond `threshold`. A departure from where trusted still readings
    /// agreed (``isDepartureFromStillReadings``) counts only after ``maximumExcursionSeconds``: its readings, proven
    /// by the session, said still. Returns the metres counted.
    @usableFromInline
    mutating func confirmDeparture(now: Int64, away: Double, threshold: Double) -> Double {
        let before = departureLastAwayMetres
        departureLastAwayMetres = away
        if !NetDisplacementGate.isMoving(netDisplacement: away, threshold: threshold) {
            departureAwayRun = 0
        } else if NetDisplacementGate.isMoving(netDisplacement: before, threshold: threshold), before >= away / 4 {
            departureAwayRun &+= 1
        } else {
            departureAwayRun = 1
        }
        if away >= departureFarthestMetres { departureRunAtFarthest = departureAwayRun }
        let seconds = Double(now &- departureMilliseconds) / 1000
        guard NetDisplacementGate.isMoving(netDisplacement: away, threshold: threshold),
            !isDepartureFromStillReadings || seconds >= Tracker.maximumExcursionSeconds,
            departureAwayRun >= Tracker.departureConfirmationFixes
                && (seconds >= profile.departureConfirmationSeconds
                    || (away > Tracker.departureConfirmationMetres
                        && departurePending.x + departurePending.y > Tracker.departureConfirmationMetres))
                // Held longer than any excursion lasts: a trip under multipath whose refused fixes kept breaking
                // the run (a reviewer's loop at 10 s with 30 % of fixes jumping: 2,400 m truth, 283 m counted).
                || seconds >= Tracker.maximumExcursionSeconds
        else { return 0 }
        return endRest()
    }

    /// Counts a pending departure's held metres and forgets the rest (a departure confirmed; a restart in
    /// another plane). Returns the metres counted.
    @usableFromInline
    mutating func endRest() -> Double {
        let counted = accumulator.add(doppler: departurePending.x, filtered: departurePending.y)
        departureMilliseconds = .min
        departurePending = SIMD2(0, 0)
        hasRest = false
        isDepartureFromStillReadings = false
        return counted
    }

    /// Resets the filter at a fix (first fix, long gap, rejection streak): position from the fix, velocity
    /// from its Doppler speed and course when both are present (else zero, with a variance spanning the
    /// profile's speed range); the window restarts, held-back distance is given up.
    @usableFromInline
    mutating func anchor(
        east e: Double, north n: Double, variance r: Double, fix: Fix, accuracy: Double, displacementAccuracy: Double,
        now: Int64
    ) {
        resetGapThresholdSeconds = profile.filterResetGapSeconds
        if !hasFilter || Double(now &- lastAcceptedMilliseconds) / 1000 > profile.filterResetGapSeconds {
            // A forward jump in time (see ``jumpMilliseconds``).
            beforeJumpMilliseconds = lastAcceptedMilliseconds
            jumpMilliseconds = now
        }
        let vmax = profile.maximumSpeedMetresPerSecond / 2
        filter = ConstantVelocityFilter(east: e, north: n, positionVariance: r, velocityVariance: vmax * vmax)
        if let speed = fix.speedMetresPerSecond, let course = fix.courseDegrees {
            let c = course * .pi / 180
            filter.velocityEast = speed * sin(c)
            filter.velocityNorth = speed * cos(c)
            let sigma = fix.speedAccuracyMetresPerSecond ?? profile.assumedSpeedAccuracyMetresPerSecond
            // Never looser than knowing nothing (the prior above): the prediction grows the variance by dt², and a
            // reported σ of 1e154 would overflow there.
            filter.velocityVariance = min(
                max(
                    MeasurementNoise.velocityVariance(
                        speed: speed, speedSigma: sigma,
                        courseSigmaDegrees: fix.courseAccuracyDegrees ?? profile.assumedCourseAccuracyDegrees),
                    ConstantVelocityFilter.minimumVariance),
                vmax * vmax)
        }
        positionFilter = ConstantVelocityFilter(east: e, north: n, positionVariance: r, velocityVariance: vmax * vmax)
        chordStartMilliseconds = .min
        anchorAccuracy = displacementAccuracy
        anchorIsExcluded = readingExcludes(at: now)
        recordVehicleEvidence(at: now, doppler: fix.speedMetresPerSecond)
        whiteNoise.breakSequence()
        // Any anchor after a reset gap (a re-anchor on outliers: the first fix after the gap was wrong) leaves
        // that gap's chord uncounted; the reset gap's own anchor sets it again after this.
        pendingGapSeconds = 0
        contradiction = ContradictedReadings()
        // A run of zeros starts again here, with this fix's own reading.
        subDeadbandRun = fix.speedMetresPerSecond.map { $0 < profile.deadbandMetresPerSecond ? 1 : 0 } ?? 0
        lastStepSeconds = hasFilter ? Double(now &- lastAcceptedMilliseconds) / 1000 : 0
        lastReading = fix.storedSpeedMetresPerSecond
        lastCourse = fix.storedCourseDegrees
        hasFilter = true
        consecutiveRejections = 0
        lastAcceptedMilliseconds = now
        lastSparseChordMilliseconds = .min
        lastRawEast = e
        lastRawNorth = n
        lastAccuracy = accuracy
        committed = candidates
        accuracySum += displacementAccuracy
        fixCount += 1
        restartWindow(milliseconds: now, east: e, north: n)
        recentreIfFar()
    }

    /// Re-anchors the plane at the filtered position when the state is farther from the anchor than
    /// ``LocalFrame/reanchoringRadiusMetres`` (LocalFrame's rule: within it distances in the plane are right
    /// to 0.03 % at 45° of latitude), re-expressing the filter, the window, the last raw position and the
    /// vehicle latch's slow-spell start in the new plane.
    @inlinable @inline(__always)
    mutating func recentreIfFar() {
        guard projection.needsReanchoring(eastMetres: filter.east, northMetres: filter.north) else { return }
        recentre()
    }

    /// Re-anchors the plane at the filtered position (see ``recentreIfFar()``); out of line, it is rare.
    @usableFromInline
    mutating func recentre() {
        let old = projection
        let origin = old.unproject(east: filter.east, north: filter.north)
        let new = old.reanchored(at: origin)
        func convert(_ e: Double, _ n: Double) -> (Double, Double) {
            let p = old.unproject(east: e, north: n)
            let q = new.project(latitude: p.latitude, longitude: p.longitude)
            return (q.east, q.north)
        }
        (lastRawEast, lastRawNorth) = convert(lastRawEast, lastRawNorth)
        let (slowEast, slowNorth) = convert(slowStart.x, slowStart.y)
        slowStart = SIMD2(slowEast, slowNorth)
        let (originEast, originNorth) = convert(gapOrigin.x, gapOrigin.y)
        gapOrigin = SIMD2(originEast, originNorth)
        let (homeEast, homeNorth) = convert(chainHome.x, chainHome.y)
        chainHome = SIMD2(homeEast, homeNorth)
        let (restEast, restNorth) = convert(restOrigin.x, restOrigin.y)
        restOrigin = SIMD2(restEast, restNorth)
        let (agreedEast, agreedNorth) = convert(stillAgreedPosition.x, stillAgreedPosition.y)
        stillAgreedPosition = SIMD2(agreedEast, agreedNorth)
        window.transformPositions(convert)
        contradiction.transformPositions(convert)
        positionFilter.shiftOrigin(east: filter.east, north: filter.north)
        chordStartMilliseconds = .min
        filter.east = 0
        filter.north = 0
        projection = new
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
