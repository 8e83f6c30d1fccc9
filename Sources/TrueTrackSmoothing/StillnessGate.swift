import TrueTrackCore

/// Which steps of a smoothed track count towards its distance: the whole-track form of the forward filter's
/// motion verdict (the net-displacement gate, ``TrackingProfile/netDisplacementBaseMetres``, and its Doppler
/// evidence), on a window centred on each step. Configure it through ``SmoothingOptions/stillnessGate``; the
/// smoother applies it.
///
/// A smoother fed a receiver at rest still draws a track: the fixes' slowly wandering error becomes slow,
/// smooth motion that no robust weight removes (measured, `truetrack bench`: the stated-accuracy track is 1.5–26 m
/// long on the seven stationary recordings, up to 111 m per 10 minutes; the forward filter reports 0.00 m on
/// every one). A step counts when the window of ``windowSeconds`` centred on it is moving, decided as the
/// forward filter decides. The window reaches from the last state at or before half its length before the
/// step's middle to the first at or after half its length after it, so it spans at least its length however
/// sparse the fixes (the forward filter's trailing window keeps one sample from before its span likewise):
/// - when at least half the window's fixes carry a Doppler speed the smoother uses, their mean speed does:
///   moving from ``motionDopplerSpeedMetresPerSecond`` (a walker pacing back and forth is moving, a still
///   receiver's jitter is not);
/// - otherwise the smoothed track's net displacement across the window does: moving above ``baseMetres`` +
///   ``accuracyFactor`` × the mean reported accuracy of the window's fixes (``assumedAccuracyMetres`` for a
///   fix that reports none).
///
/// On the vehicle profiles a step out to or back from a jump of a receiver at rest counts nothing either (see
/// ``jumpSeconds``): the model follows a multipath jump between fixes 10–15 s apart, and the window spans it.
///
/// A step also counts for nothing when the activity reading in force at either of its states (the newest at or
/// before it, for ``activityValiditySeconds``) confidently reads `still` and the profile excludes that activity,
/// as the forward filter's motion gate holds such a fix's distance, unless the motion over its window contradicts
/// the reading (``isStillReadingContradicted(step:low:high:solution:order:totals:)``).
///
/// The window never reaches across a gap that splits the track (the chord across a gap counts, see
/// ``SmoothedTrack/distanceMetres``, unless it goes out to or back from a jump, a `still` reading holds it, or
/// both its ends read at rest and it lies within the two fixes' noise: see ``restNoiseFactor``; or it lies among
/// three fixes within each other's noise on a vehicle's profile: see ``infersRestFromPositions``).
/// The forward filter needs a trailing window and releases held distance later; with the whole track at hand
/// the window is centred, so a walk's first and last metres are judged with the fixes on both sides of them.
public struct StillnessGate: Sendable, Hashable {
    /// The window's length, seconds. From ``TrackingProfile/windowSeconds``.
    public var windowSeconds: Double
    /// The still threshold's constant part, metres. From ``TrackingProfile/netDisplacementBaseMetres``.
    public var baseMetres: Double
    /// The still threshold's share of the mean accuracy. From ``TrackingProfile/netDisplacementAccuracyFactor``.
    public var accuracyFactor: Double
    /// The 68 % radius assumed for a fix without one, metres. From
    /// ``TrackingProfile/assumedDisplacementAccuracyMetres``.
    public var assumedAccuracyMetres: Double
    /// A window whose Doppler speeds average at least this is moving, m/s. From
    /// ``TrackingProfile/motionDopplerSpeedMetresPerSecond``.
    public var motionDopplerSpeedMetresPerSecond: Double
    /// Whether a confident `still` reading leaves its steps out: the profile excludes ``ActivityKind/still``.
    public var excludesStillReadings: Bool
    /// The confidence (0–100) from which a reading counts. From ``TrackingProfile/activityConfidenceThreshold``.
    public var activityConfidenceThreshold: Int
    /// How long a reading stays in force, seconds. From ``TrackingProfile/activityValiditySeconds``.
    public var activityValiditySeconds: Double
    /// The longest a jump of a receiver at rest may last, seconds, from the fix before it to the fix after it, for
    /// its steps to count nothing; 0 turns the rules of jumps off (also those read at rest). A jump is one or two
    /// fixes beyond four still thresholds from the fixes before and after them, which agree within one threshold
    /// and are at rest on one far side at least (the threshold as the gate's, from the larger of their two
    /// accuracies; the two fixes' summed noise instead when the jump is out of a vehicle's reach, see
    /// ``reachAccelerationMetresPerSecondSquared``), and whose fixes read no Doppler speed of motion; the steps
    /// out to it and back from it count nothing. A jump whose every state reads at rest has rules of its own
    /// (``restNoiseFactor``).
    ///
    /// ``TrackingProfile/departureConfirmationSeconds``: 30 s on driving and cycling, off on walking and running,
    /// the forward filter's excursion window. Why: without a Doppler speed the constant-velocity model follows a
    /// jump of 50–500 m between fixes 10–15 s apart, and the gate's window spans it, so a parked van's multipath
    /// counted out and back (`tools/analysis/fleet/fleet_smooth.py`: without speeds 929 → 741 km summed over the
    /// fleet set, no cell worse). Why not longer: a courier who drives 50–110 m down a lane and back, or a car
    /// that circles a block to the spot it waited at, within the window, is such a jump too; at 60 s a
    /// reviewer's 450 such tracks lost 35 trips of 50–350 m (summed |error| 65.5 → 67.1 km), at 30 s four
    /// (63.1 km), while the fleet set gained 929 → 671 km at 60 s. A walker's walk to a shelf and back is a walk.
    public var jumpSeconds: Double
    /// How many still thresholds (``baseMetres`` + ``accuracyFactor`` × the *sum* of the two fixes' accuracies,
    /// each at most ``restAccuracyCeilingMetres``: the forward filter's noise for a sparse step) tell two fixes
    /// of a receiver that reads at rest apart from its noise: 2 (0 turns these rules off). Where the states at
    /// both ends of a step carry Doppler speeds the smoother uses (on at least half their fixes) averaging below
    /// ``motionDopplerSpeedMetresPerSecond``:
    /// - a chord across a gap within this many thresholds counts nothing;
    /// - a jump (see ``jumpSeconds``) whose every state reads at rest needs its fixes beyond this many thresholds
    ///   from the fix before and the fix after it, which lie within this many of each other; the readings, not
    ///   the fixes beside them, say the receiver is at rest. Such a jump of one fix may last any time, of two
    ///   fixes ``restingJumpSeconds``; one that lasts longer widens σ by its chords (term 3 of
    ///   ``SmoothedTrack/distanceSigmaMetres``: readings at three instants cannot rule out an errand).
    ///
    /// Why: a sparse logger's steps are longer than ``SmoothingOptions/gapSeconds``, so each fix is a segment of
    /// its own, the window holds the step alone and the readings decided nothing: every chord counted. A van
    /// parked 8 hours logging every 30–300 s with a speed column (zeros, or 0.3–2 km/h of noise) and 5 % of its
    /// fixes 20–500 m off counted 11–85 km per cell of five (`tools/analysis/fleet/fleet_smooth.py`). Why twice:
    /// a reported accuracy is a 68 % radius, and the difference of two independent fixes with radius a lies
    /// beyond 2 a about one time in ten (Rayleigh), within 4 a all but once in 10⁴; the fleet's fixes (error
    /// σ 5 m per axis, τ 60 s, stating about 5 m) passed one threshold on 4 / 11 / 19 / 21 % of their parked steps
    /// every 30 / 60 / 120 / 300 s. The
    /// forward filter counts nothing on such a step either: within one threshold by its sparse rule, beyond it
    /// because no chain confirms a still chord.
    public var restNoiseFactor: Double
    /// The longest a jump of two fixes whose every state reads at rest may last, from the fix before it to the
    /// fix after it, seconds: 120, the forward filter's excursion limit. Longer, a van that drove out to a
    /// customer, stood there for two fixes and drove back (the fleet's out-and-back days every 60–120 s) was
    /// read as a jump (summed |error| of those days every 60 and 120 s, noisy and zero speed columns, 21.4 km
    /// before the rule, 16.7 with this limit, 45.1 without); a single fix read at rest away from
    /// a place the fixes before and after it agree on is a jump at any cadence.
    public var restingJumpSeconds: Double
    /// The most of a fix's reported accuracy the rest threshold takes (see ``restNoiseFactor``), metres: 10.
    /// Why: the factor 2 covers fixes noisier than they state (a 68 % radius of 5 m on the fleet set's 5 m
    /// per axis); a receiver that states 20–45 m at rest more often overstates (an accuracy from HDOP × a
    /// generous UERE, a balanced-power fix), and twice its sum hid a courier's 20–150 m hops. A reviewer's 1,040
    /// generated tracks (`/tmp/review-s33`, scratch; summed |error| over 33 families, measured before a jump read
    /// at rest needed a far side at rest, which brought 1,351 to 1,339): without a ceiling 1,494 km,
    /// 20 m 1,405, 15 m 1,376, 10 m 1,351 (couriers claiming 20–45 m for 3 m of error 62.4 → 21.3 km, a town
    /// drive claiming 35 m 65.2 → 9.6 km); the cost, a parked receiver honestly stating 20 m (12 m per axis),
    /// 18.6 → 29.2 km of 331 before the rule. The same summed noise is the looser threshold of a jump out of
    /// reach (``reachAccelerationMetresPerSecondSquared``). Below 0 it counts as 0.
    public var restAccuracyCeilingMetres: Double
    /// The acceleration no vehicle starting from rest exceeds, m/s²: 4 (a brisk car's 0–100 km/h in 7 s; a delivery
    /// van's is under 3); 0 turns the rule off. A jump without readings each of whose fixes lies, beyond the two
    /// fixes' summed noise (as ``restNoiseFactor``'s threshold, once), further from the fix before or after it
    /// than ½ a τ² (τ the time between them), or from both than a vehicle reaches that must be back at rest where
    /// it started (a τ²/4 for a fix halfway, see ``JumpFinder/roundTripReach(_:_:acceleration:)``), is out of a
    /// vehicle's reach, and its "back" and "at rest" tests take that summed noise instead of one threshold.
    ///
    /// Why: fixes noisier than they state (5 m per axis stating 5 m) failed the one-threshold tests on half the
    /// fleet set's parked multipath jumps; the summed noise for every jump (740.6 → 675.1 km summed |error|
    /// without speeds) took 210 more real trips for jumps on a reviewer's 624 tracks every 5–15 s (couriers down
    /// a lane and back, dead-end U-turns: `/tmp/review-s33b`, scratch), which come back within the same few
    /// metres. A jump out of reach is no trip: with the rule the fleet set reads 731.1 km and none of the
    /// reviewer's families is worse (1,066.4 → 1,031.2 km). The round trip (2026-12-03) halves the reach of a jump
    /// out and back halfway (225 m at 15 s each way instead of 450): the fleet set without speeds 731.1 → 707.1 km
    /// (parked every 10–15 s 144.4 → 127.9), the reviewer's tracks 1,031.2 → 1,007.7 km with no family worse.
    public var reachAccelerationMetresPerSecondSquared: Double
    /// Whether three consecutive states none of which reads motion (see ``readsMotion(_:totals:)``), each two
    /// within ``restNoiseFactor`` rest thresholds of each other, say a receiver at rest without readings: a gap's
    /// chord among them counts nothing,
    /// unless the states drift away from where they stood (see ``releaseDrift(_:held:solution:order:totals:)``).
    /// On the profiles that judge jumps of a receiver at rest (``jumpSeconds`` above 0: driving and cycling), off
    /// on foot.
    ///
    /// Why: a logger without speeds every 30–300 s has each fix as a segment of its own (see ``restNoiseFactor``), and
    /// every chord of a parked van's scatter counted (the fleet set's vans parked 8 h every 30–300 s without speeds:
    /// 168.0 km summed over 20 files; with the rule as first built, before the drift rule below, 114.5, the rest their
    /// multipath jumps; the fleet set without speeds 731.1 → 631.7 km). A vehicle whose three fixes, one step between
    /// them longer than the smoother's gap (20 s on driving), lie within twice their noise (24 m for fixes stating 5 m,
    /// 44 m at the ceiling) has moved less than that over their span: under 1.2 m/s at the most, 0.4 m/s for a fix
    /// every 30 s stating 5 m: it stood, or crept in a queue. A queue creeping on drifts away from where it stood, and
    /// its steps count again: an adversarial reviewer's queues, drive-throughs and crowds at 20–60 s had lost 83–100 %
    /// of their slow metres to the three fixes alone (a noise-free crawl of 10 m every 30 s read 0 m of 390; with the
    /// drift rule 360); their 210 tracks, summed |error| 125.5 km before the rule, 168.6 with it, 151.5 with the drift
    /// rule (the rest mostly the parked scatter that had made up for corners the chords cut, and stop-and-go hops of
    /// 12–25 m between halts, which no three fixes tell from a receiver at rest; the fleet set, with the round trip's
    /// reach, 607.7 → 612.2 km, its parked vans' wander drifting now and then). Not on foot: a hiker climbing at
    /// 0.25 m/s with a fix every 80 s stays within that noise when the handheld states no accuracy, which is
    /// given 10 m (a Garmin hike in `truetrack bench` lost 352 of its 6,135 smoothed metres to the rule, chords of
    /// 26–33 m over a minute or more).
    public var infersRestFromPositions: Bool
    /// How many standard deviations of the smoothed track's white jitter a window's net displacement must exceed,
    /// besides the accuracy threshold, for its step to count where the net displacement decides: 4, the forward
    /// filter's sparse floor (``WhiteNoiseEstimate/sparseThresholdSigmas``), on driving and cycling; 0 (off) on
    /// foot, and when the profile turns its own floor off (``TrackingProfile/netDisplacementNoiseSigmas`` 0). The
    /// jitter of a state is its smoothed per-axis position variance times the white share of its fixes' variance
    /// that the logger's consecutive steps show (``whiteJitterVariances(_:positionVariances:longestStepSeconds:)``),
    /// so the floor is 4 √(v₁ + v₂) over the window's two end states; a receiver whose error drifts (every
    /// recording in `truetrack bench`) shows no white share and keeps the accuracy threshold.
    ///
    /// Why: a vehicle logger every 3–20 s without speeds whose error is white noise draws a smoothed track that
    /// follows each fix (the position-only acceleration noise lets it), and the accuracy threshold of a 15 s window
    /// passed on its parked hours. Measured (`tools/analysis/sparse_desks.py OUT A,B --profile driving --smooth`):
    /// desks at σ 3–5 m every 3–20 s counted 34–283 m per 10 minutes on driving and 55–227 m on cycling, now
    /// 0–2 m; a reviewer's 624 generated vehicle tracks every 5–15 s without speeds (`/tmp/review-s33b`, scratch)
    /// 1,007.7 → 649.2 km summed |error| (parked phantom: working days 75.1 → 13.6 km, car parks 56.2 → 10.2 km),
    /// the forward filter's 597.7. Not on foot: two earlier trials of the same floor (docs/ARCHITECTURE.md 5f) held
    /// the walks that turn back at every fix (pacing, switchbacks, small loops, mall walks under Wi-Fi noise), whose
    /// consecutive steps read as white noise; a vehicle does not turn back every few seconds. A third trial
    /// (2026-12-06, with a ceiling on the white share for walks that pace between fixes) took desks to 0 but held
    /// honest noisy walks as desks (0.9 m/s under σ 8 m every 3–5 s: 242–633 m of 1,620; docs/ARCHITECTURE.md).
    public var whiteNoiseSigmas: Double
    /// How many pairs of consecutive steps the white-share estimate averages over each way (see
    /// ``whiteNoiseSigmas``): ``TrackingProfile/measurementNoiseScaleFixes``, 30, as the forward filter's.
    public var whiteNoiseAveragingPairs: Double
    /// The shortest stretch, seconds, whose fixes' scatter about their mean can show that the receiver stood
    /// still all along (``stillScatterRatio``): 600; 0 turns the rule off. Such a stretch's steps count nothing
    /// where the net displacement decides (not where the window's Doppler speeds do), nor do the chords across the
    /// gaps inside it (``stillByScatter(_:fixes:positionWeights:totals:breakSeconds:)`` says which fixes it takes).
    ///
    /// Why: a logger every 3–45 s without speeds whose error is white noise draws a smoothed track that wanders
    /// beyond any window's still threshold, and on foot no white-noise floor (``whiteNoiseSigmas``) tells it from
    /// an honest noisy walk inside a window. Over ten minutes the two part: a walker's fixes spread with the walk,
    /// a still receiver's stay within the accuracy they state. Measured with a prototype of the rule over the
    /// files of `tools/analysis/noisy_walks_and_desks.py` (30 minutes, three seeds): at 600 s no fix of a walk at
    /// 0.7–1.4 m/s under σ 3–15 m every 3–20 s lay in such a stretch, nor of a mall walk (0.7 m/s, turns of
    /// 60–120° every 10–30 s under σ 10 m), against every desk's; at 300 s 6 % of the mall walks' fixes did, at
    /// 120 s 65 %: why not shorter. Over the recordings of `truetrack bench` only stationary ones held such
    /// stretches.
    public var stillScatterSeconds: Double
    /// The largest scatter of a still stretch, as a multiple of what white noise with the stated accuracies gives:
    /// 1.5. The scatter is χ² = Σ w |p − p̄|² over the stretch's fixes (w the inverse per-axis variance of the
    /// stated 68 % radius, p̄ the w-weighted mean), against its 2(m − 1) degrees of freedom for m fixes. Why 1.5: a
    /// still receiver with honest accuracies scatters 1 ± √(1 / (m − 1)) times that, and 1.5 lies 1.5 standard
    /// deviations above at 10 fixes, 3.8 at 60 (ten minutes every 10 s); the prototype above held every desk at
    /// it, and at 1.3 still no mall walk.
    public var stillScatterRatio: Double
    /// The shortest whole recording that is judged as one still stretch when it is shorter than
    /// ``stillScatterSeconds``, seconds: 300; `.infinity` turns this off. A whole recording runs from the track's
    /// first fix, or a recording break, to its last fix or the next break, every fix stating an accuracy and none
    /// reading motion; its stretch passes the scatter test and the return test (``stillScatterReturnDip``) as any.
    ///
    /// Why: a phone at rest for a recording of under ten minutes held no stretch of ``stillScatterSeconds``, and its
    /// smoothed track counted its wander (a calibration tester's desks, every 5 s for 10 minutes: 36–52 m; the
    /// forward filter's 0). The whole recording, not any five minutes of it: the 300 s stretches of a 30-minute
    /// mall walk lie among its own turns, while a whole recording must be still from end to end. Tried first
    /// without the return test (2026-12-06) and reverted: a small course under correlated or overstated noise
    /// spreads no further than a desk, and read 0 m. Measured with the return test: see `docs/ARCHITECTURE.md`.
    public var stillScatterWholeRecordingSeconds: Double
    /// The fewest fixes a still stretch needs: 10 (with fewer, χ² scatters too widely to judge at
    /// ``stillScatterRatio``).
    public var stillScatterMinimumFixes: Int
    /// How far the squared displacement between a stretch's fixes must fall back from one band of time lag to a
    /// longer one (up to 150 s) for the stretch to be a course walked round, not a receiver at rest: 0.7, in units
    /// of the stretch's scatter ratio (see ``stillScatterRatio``); 0 turns the test off.
    ///
    /// Why: the scatter says how far fixes spread, not whether they move, and a small course (laps of a 40 × 20 m
    /// yard, a loop of 20 m radius) under correlated or overstated noise spreads no further than a desk: such
    /// walks read 0 m through this rule. At rest the squared displacement only grows with the lag (an error whose
    /// correlation fades with time); on a course it falls back as the walker comes round. Measured with a
    /// prototype on 600 s stretches (`docs/ARCHITECTURE.md`): Gauss–Markov desks (σ 5–10 m, τ 20–300 s, every
    /// 1–15 s) fell back by at most 0.66, courses by 0.5–1.9 (a 25 m corridor under correlated noise stated 1.5
    /// times: 0.13–0.8). The fall must also be 600 m² in plain squared metres (`LagScatter.returnSquareMetres`):
    /// multipath at rest swings back and forth as the satellites move and falls back too, by at most 4A² for a
    /// swing of amplitude A. So smaller courses (corridors paced, loops of 12 m radius and less) stay held, and a
    /// periodic error as large as a course (a circle of about 13 m radius or more every 40–150 s) may not be told
    /// from one. A stretch the return test lets go still has its fixes judged far or not, so the test only ever
    /// lets more count. Fixes faster than 1 Hz pair lags up to 144 fixes only (29 s at 5 Hz).
    public var stillScatterReturnDip: Double

    /// The gate with the forward filter's values for `profile` (see each property).
    public init(profile: TrackingProfile) {
        windowSeconds = profile.windowSeconds
        baseMetres = profile.netDisplacementBaseMetres
        accuracyFactor = profile.netDisplacementAccuracyFactor
        assumedAccuracyMetres = profile.assumedDisplacementAccuracyMetres
        motionDopplerSpeedMetresPerSecond = profile.motionDopplerSpeedMetresPerSecond
        excludesStillReadings = profile.excludedActivities.contains(.still)
        activityConfidenceThreshold = profile.activityConfidenceThreshold
        activityValiditySeconds = profile.activityValiditySeconds
        jumpSeconds = profile.departureConfirmationSeconds
        restNoiseFactor = 2
        restingJumpSeconds = 120
        restAccuracyCeilingMetres = 10
        reachAccelerationMetresPerSecondSquared = 4
        infersRestFromPositions = profile.departureConfirmationSeconds > 0
        whiteNoiseSigmas =
            infersRestFromPositions && profile.netDisplacementNoiseSigmas > 0
            ? WhiteNoiseEstimate.sparseThresholdSigmas : 0
        whiteNoiseAveragingPairs = profile.measurementNoiseScaleFixes
        stillScatterSeconds = 600
        stillScatterRatio = 1.5
        stillScatterWholeRecordingSeconds = 300
        stillScatterMinimumFixes = 10
        stillScatterReturnDip = 0.7
    }

    /// For each state `s ≥ 1`, whether the step from state `s − 1` into it counts (index 0 is always `false`;
    /// a step that opens a segment, the chord across a gap, counts unless it goes out to or back from a jump or a
    /// `still` reading holds it).
    ///
    /// - Parameters:
    ///   - times: the state times, seconds, ascending.
    ///   - opensSegment: whether each state opens a segment.
    ///   - x: the solution, east and north columns of `order` rows each (state s at rows 2s).
    ///   - totals: the running totals of the fixes' evidence: `totals[s]` sums the fixes of states before s
    ///     (`count == times.count + 1`, see ``Totals``).
    ///   - readings: the fixes' activity readings (of every fix, used or not), ascending in time.
    ///   - jumps: finds the steps that go out to or back from a jump of a receiver at rest (``JumpFinder``); such
    ///     a step counts for nothing. `nil` for none.
    ///   - jitterVariances: each state's white jitter, per axis, m² (see
    ///     ``whiteJitterVariances(_:positionVariances:longestStepSeconds:)``): a window's net displacement must exceed
    ///     ``whiteNoiseSigmas`` times the root of its two end states' sum as well. `nil` for no such floor.
    ///   - stillByScatter: finds the steps inside a stretch whose fixes scatter as a receiver at rest's
    ///     (``stillByScatter(_:fixes:positionWeights:totals:breakSeconds:)``): where the net displacement decides,
    ///     they count nothing, and neither does a gap's chord inside one. Called at most once, on the first step
    ///     that asks. `nil` for none.
    ///
    /// A chord across a gap between two states that read at rest counts nothing within their noise (see
    /// ``restNoiseFactor``), on every profile (walking's gap is 60 s, cycling's 30 s); on the vehicle profiles
    /// neither does one among three states within each other's noise (``infersRestFromPositions``).
    /// - Complexity: O(n): both window edges only move forward; no allocation but the result and, where the
    ///   positional rule holds a step, n flags.
    func countedSteps(
        times: [Double], opensSegment: [Bool], solution x: [Double], order: Int, totals: [Totals],
        readings: [TimedReading] = [], jumps: JumpFinder? = nil, jitterVariances: [Double]? = nil,
        stillByScatter: (() -> [Bool]?)? = nil
    ) -> [Bool] {
        var jumps = jumps
        return countedSteps(
            times: times, opensSegment: opensSegment, solution: x, order: order, totals: totals, readings: readings,
            updating: &jumps, jitterVariances: jitterVariances, stillByScatter: stillByScatter)
    }

    /// ``countedSteps(times:opensSegment:solution:order:totals:readings:jumps:jitterVariances:)``, leaving in `jumps`
    /// which jump held each step it left out (see ``JumpFinder/restJumpSteps(longerThan:)``).
    func countedSteps(
        times: [Double], opensSegment: [Bool], solution x: [Double], order: Int, totals: [Totals],
        readings: [TimedReading], updating jumps: inout JumpFinder?, jitterVariances: [Double]? = nil,
        stillByScatter: (() -> [Bool]?)? = nil
    ) -> [Bool] {
        let n = times.count
        var counts = [Bool](repeating: false, count: n)
        guard n > 1 else { return counts }
        let readsStill =
            readings.isEmpty || !excludesStillReadings
            ? nil
            : TimedReading.inForce(
                readings, of: .still, confidenceThreshold: activityConfidenceThreshold,
                validitySeconds: activityValiditySeconds, times: times)
        var window = CentredWindow(seconds: windowSeconds)
        var heldByPosition: [Bool] = []
        // The still stretches, found on the first step the net displacement decides (none where Doppler speeds
        // decide every window: the `smooth` benchmark's drive pays nothing for them).
        var scatterAnswer: [Bool]??
        func scatterHeld(asking find: () -> [Bool]?) -> [Bool]? {
            if scatterAnswer == nil { scatterAnswer = .some(find()) }
            return scatterAnswer ?? nil
        }
        for s in 1..<n {
            let (low, high) = window.states(ofStep: s, times: times, opensSegment: opensSegment)
            if let readsStill, readsStill[s] || readsStill[s - 1],
                !isStillReadingContradicted(
                    step: s, low: low, high: high, solution: x, order: order, totals: totals)
            {
                continue
            }
            if opensSegment[s] {
                // A gap's chord inside a still stretch (see ``stillScatterSeconds``; asked only of a chord within
                // a few accuracies, so that a drive's gaps do not pay for the stretches).
                if let stillByScatter, isWithinStretchNoise(s, solution: x, order: order, totals: totals),
                    scatterHeld(asking: stillByScatter)?[s] == true
                {
                    continue
                }
                // A gap's chord between two states read at rest, within their noise: the noise.
                if restNoiseFactor > 0, readsRest(s - 1, totals: totals), readsRest(s, totals: totals),
                    isWithinRestNoise(s - 1, s, solution: x, order: order, totals: totals)
                {
                    continue
                }
                if infersRestFromPositions, restNoiseFactor > 0,
                    restsByPosition(s, stateCount: n, solution: x, order: order, totals: totals)
                {
                    if heldByPosition.isEmpty { heldByPosition = [Bool](repeating: false, count: n) }
                    heldByPosition[s] = true
                    continue
                }
                counts[s] = !(jumps?.isJumpStep(s) ?? false)
                continue
            }
            let inside = totals[high + 1].minus(totals[low])
            if inside.speedsDecide {
                counts[s] = inside.meanSpeedReaches(motionDopplerSpeedMetresPerSecond)
            } else if let stillByScatter, scatterHeld(asking: stillByScatter)?[s] == true {
                // Inside a stretch whose fixes scatter as a receiver at rest's (see ``stillScatterSeconds``).
                continue
            } else {
                let de = x[2 * high] - x[2 * low], dn = x[order + 2 * high] - x[order + 2 * low]
                var threshold = stillThreshold(meanAccuracyMetres: inside.meanAccuracyMetres)
                if let jitterVariances {
                    // The white-noise floor (see ``whiteNoiseSigmas``): the jitter of the window's two ends.
                    threshold = max(
                        threshold, whiteNoiseSigmas * (jitterVariances[low] + jitterVariances[high]).squareRoot())
                }
                // (The jump test only where the net displacement decides and finds motion: a window of Doppler
                // speeds judges a jump by its readings.)
                counts[s] = de * de + dn * dn > threshold * threshold && !(jumps?.isJumpStep(s) ?? false)
            }
        }
        if !heldByPosition.isEmpty {
            releaseDrift(&counts, held: heldByPosition, solution: x, order: order, totals: totals)
        }
        return counts
    }

    /// Counts again the steps the positional rule (``infersRestFromPositions``) held where the states drift away from
    /// where they stood. Along the track the states gather in clusters round the mean of their first ones; a state
    /// further from that mean than ``restNoiseFactor`` rest thresholds of its own (twice its noise against a place)
    /// starts the next cluster. The cluster drifted when the step into that state lies within the noise
    /// (``restNoiseFactor`` rest thresholds of its two fixes) and the rule holds a step of the next cluster (or the
    /// step into it) too: a queue creeping 10 m every 30 s, or every 12–28 s, keeps every three fixes within 24 m of
    /// each other, but not within 24 m of where it stood. Then the held steps from the drifted cluster's first state
    /// to the next one's count (not the steps other rules left out). A cluster left by a longer step (a departure at
    /// a sparse rate, a jump), or by a short one into steps the rule does not hold (a 1 Hz recording pulling away),
    /// stood, and its held steps stay held, as do those of the last cluster.
    /// - Complexity: O(n), no allocation.
    func releaseDrift(_ counts: inout [Bool], held: [Bool], solution x: [Double], order: Int, totals: [Totals]) {
        let n = held.count
        var first = 0
        var east = x[0], north = x[order], count = 1.0
        // The steps of the cluster before, when a step within the noise left it: counted once this cluster holds one.
        var pending: ClosedRange<Int>?
        func release(_ steps: ClosedRange<Int>) { for step in steps where held[step] { counts[step] = true } }
        for s in 1..<n {
            let de = x[2 * s] - east / count, dn = x[order + 2 * s] - north / count
            let radius = restNoiseFactor * restThreshold(s, s, totals: totals)
            if de * de + dn * dn > radius * radius {
                pending = isWithinRestNoise(s - 1, s, solution: x, order: order, totals: totals) ? first + 1...s : nil
                first = s
                (east, north, count) = (x[2 * s], x[order + 2 * s], 1)
            } else {
                east += x[2 * s]
                north += x[order + 2 * s]
                count += 1
            }
            if held[s], let steps = pending {
                release(steps)
                pending = nil
            }
        }
    }

    /// Whether the chord into state `s` (from `s − 1`) lies among three consecutive states, s − 2 … s or
    /// s − 1 … s + 1, none of which reads motion (``readsMotion(_:totals:)``) and each two of which lie within
    /// ``restNoiseFactor`` rest thresholds of each other (see ``infersRestFromPositions``).
    func restsByPosition(_ s: Int, stateCount n: Int, solution x: [Double], order: Int, totals: [Totals]) -> Bool {
        func near(_ a: Int, _ b: Int) -> Bool { isWithinRestNoise(a, b, solution: x, order: order, totals: totals) }
        func still(_ a: Int) -> Bool { !readsMotion(a, totals: totals) }
        guard still(s - 1), still(s), near(s - 1, s) else { return false }
        if s >= 2, still(s - 2), near(s - 2, s - 1), near(s - 2, s) { return true }
        if s + 1 < n, still(s + 1), near(s, s + 1), near(s - 1, s + 1) { return true }
        return false
    }

    /// Whether states `a` and `b` of the solution lie within ``restNoiseFactor`` rest thresholds of each other
    /// (``restThreshold(_:_:totals:)``): what two fixes of a receiver at rest differ by.
    func isWithinRestNoise(_ a: Int, _ b: Int, solution x: [Double], order: Int, totals: [Totals]) -> Bool {
        let de = x[2 * b] - x[2 * a], dn = x[order + 2 * b] - x[order + 2 * a]
        let noise = restNoiseFactor * restThreshold(a, b, totals: totals)
        return de * de + dn * dn <= noise * noise
    }

    /// Whether state `s`'s fixes carry Doppler speeds the smoother uses, averaging at least
    /// ``motionDopplerSpeedMetresPerSecond``.
    func readsMotion(_ s: Int, totals: [Totals]) -> Bool {
        let own = totals[s + 1].minus(totals[s])
        return own.speeds > 0 && own.meanSpeedReaches(motionDopplerSpeedMetresPerSecond)
    }

    /// Whether the motion of step `s`, over its window from state `low` to `high`, contradicts a confident `still`
    /// reading, so that the reading counts as none, as the forward filter's (`Tracker`'s contradicted still
    /// readings): the Doppler speeds of both its states read motion (``readsMotion(_:totals:)``), the window's
    /// speeds decide its motion (``Totals/speedsDecide``) and average ``motionDopplerSpeedMetresPerSecond`` or
    /// more, and the smoothed track's net displacement across the window exceeds the still threshold of its mean
    /// accuracy. All are needed: a phone on a desk whose positions wander reads no speed (the reading's purpose
    /// stands), a receiver without speeds keeps the reading, and the first seconds of a halt, whose centred window
    /// still holds the walk before it, read rest themselves (with the window's evidence alone a walk with halts and a
    /// "still" stream 3 s late read +1.2 % instead of −0.9 %, `tools/analysis/adversarial/activity_stream.py`).
    /// Why: "still" on every row of a walk at 1.4 m/s with its Doppler speeds (a performance tester's TransistorSoft
    /// file, a reading flipping still / walking every fix) smoothed to 0 m against the forward filter's 2,786 of
    /// 2,800 m (now 2,804 m); "still" on 10 % of the GSDC Pixel 4 drive's rows smoothed to 0 m, on 2 % to 14,925 m,
    /// now 40,153–40,154 m on every row, 10 % or 2 % (40,158 m without the column). The walks with halts and a late
    /// "still" stream of `activity_stream.py`, mean |error| over 10 seeds: 0.99 → 1.01 % (halts), 1.40 → 0.86 %
    /// (halts and moving), 1.19 → 1.10 % (noisy halts).
    func isStillReadingContradicted(
        step s: Int, low: Int, high: Int, solution x: [Double], order: Int, totals: [Totals]
    ) -> Bool {
        guard readsMotion(s - 1, totals: totals), readsMotion(s, totals: totals) else { return false }
        let inside = totals[high + 1].minus(totals[low])
        guard inside.speedsDecide, inside.meanSpeedReaches(motionDopplerSpeedMetresPerSecond) else { return false }
        let de = x[2 * high] - x[2 * low], dn = x[order + 2 * high] - x[order + 2 * low]
        let threshold = stillThreshold(meanAccuracyMetres: inside.meanAccuracyMetres)
        return de * de + dn * dn > threshold * threshold
    }

    /// Whether the step into state `s` is short enough to lie inside a still stretch: within four times the sum
    /// of its two states' mean stated accuracies (68 % radii, about six standard deviations each; a stretch's
    /// fixes lie within about three of its mean). A cheap test before the stretches are found.
    func isWithinStretchNoise(_ s: Int, solution x: [Double], order: Int, totals: [Totals]) -> Bool {
        let de = x[2 * s] - x[2 * (s - 1)], dn = x[order + 2 * s] - x[order + 2 * (s - 1)]
        let reach = 4 * (meanAccuracy(s - 1, totals: totals) + meanAccuracy(s, totals: totals))
        return de * de + dn * dn <= reach * reach
    }

    /// The net displacement (metres) a window whose fixes report `meanAccuracyMetres` must exceed to be moving:
    /// ``baseMetres`` + ``accuracyFactor`` × the mean accuracy.
    func stillThreshold(meanAccuracyMetres: Double) -> Double { baseMetres + accuracyFactor * meanAccuracyMetres }

    /// Whether state `s`'s fixes read at rest: at least half of them carry a Doppler speed the smoother uses, and
    /// those average below ``motionDopplerSpeedMetresPerSecond``.
    func readsRest(_ s: Int, totals: [Totals]) -> Bool {
        let own = totals[s + 1].minus(totals[s])
        return own.speedsDecide && !own.meanSpeedReaches(motionDopplerSpeedMetresPerSecond)
    }

    /// The mean reported accuracy of state `s`'s fixes (the assumed one for a fix without), metres.
    func meanAccuracy(_ s: Int, totals: [Totals]) -> Double { totals[s + 1].minus(totals[s]).meanAccuracyMetres }

    /// The still threshold of a step between states `a` and `b` read at rest (before ``restNoiseFactor``): from
    /// the sum of their mean accuracies, each at most ``restAccuracyCeilingMetres``, as the forward filter's noise
    /// of a sparse step.
    func restThreshold(_ a: Int, _ b: Int, totals: [Totals]) -> Double {
        let ceiling = max(restAccuracyCeilingMetres, 0)
        return stillThreshold(
            meanAccuracyMetres: min(meanAccuracy(a, totals: totals), ceiling)
                + min(meanAccuracy(b, totals: totals), ceiling))
    }

    /// The finder of jumps (``JumpFinder``) for a problem, or `nil` when the rule is off (``jumpSeconds`` 0); no
    /// jump spans a step longer than `longestStepSeconds` (the smoother's recording break).
    func jumpFinder(_ p: TrackProblem, totals: [Totals], longestStepSeconds: Double = .infinity) -> JumpFinder? {
        jumpSeconds > 0 && p.stateCount > 2
            ? JumpFinder(gate: self, problem: p, totals: totals, longestStepSeconds: longestStepSeconds) : nil
    }

    /// Running totals of what the fixes say for the gate (one per state boundary).
    struct Totals {
        /// The sum of the fixes' reported accuracies (the assumed one for a fix without), metres.
        var accuracySumMetres = 0.0
        /// The sum of their Doppler speeds, m/s.
        var speedSumMetresPerSecond = 0.0
        /// How many fixes.
        var fixes = 0
        /// How many carry a speed.
        var speeds = 0

        /// These totals less `other`'s.
        func minus(_ other: Totals) -> Totals {
            Totals(
                accuracySumMetres: accuracySumMetres - other.accuracySumMetres,
                speedSumMetresPerSecond: speedSumMetresPerSecond - other.speedSumMetresPerSecond,
                fixes: fixes - other.fixes, speeds: speeds - other.speeds)
        }

        /// The mean reported accuracy of the fixes, metres; 0 for none.
        var meanAccuracyMetres: Double { fixes > 0 ? accuracySumMetres / Double(fixes) : 0 }

        /// Whether the speeds average at least `speed` (m/s); true for none.
        func meanSpeedReaches(_ speed: Double) -> Bool { speedSumMetresPerSecond >= speed * Double(speeds) }

        /// Whether the fixes' Doppler speeds decide their motion, as the forward filter's window: at least half
        /// the fixes carry one.
        var speedsDecide: Bool { speeds > 0 && 2 * speeds >= fixes }
    }

    /// The running totals over a problem's position fixes (`fixes` is the caller's array the problem's
    /// `fixIndex` points into): `result[s]` sums the fixes of the states before `s`. A speed counts only where
    /// the smoother uses it (`options`: Doppler on, not above the speed ceiling).
    func totals(_ p: TrackProblem, fixes: [Fix], options: SmoothingOptions) -> [Totals] {
        var totals = [Totals](repeating: Totals(), count: p.stateCount + 1)
        for m in 0..<p.positionState.count {
            let fix = fixes[p.fixIndex[m]]
            let s = p.positionState[m] + 1
            if case .metres(let accuracy) = fix.horizontalAccuracy {
                totals[s].accuracySumMetres += accuracy
            } else {
                totals[s].accuracySumMetres += assumedAccuracyMetres
            }
            totals[s].fixes += 1
            if options.usesDoppler, let speed = fix.speedMetresPerSecond, speed.isFinite, speed >= 0,
                speed <= options.maximumSpeedMetresPerSecond
            {
                totals[s].speedSumMetresPerSecond += speed
                totals[s].speeds += 1
            }
        }
        for s in 1..<totals.count {
            totals[s].accuracySumMetres += totals[s - 1].accuracySumMetres
            totals[s].speedSumMetresPerSecond += totals[s - 1].speedSumMetresPerSecond
            totals[s].fixes += totals[s - 1].fixes
            totals[s].speeds += totals[s - 1].speeds
        }
        return totals
    }
}

/// Finds the steps of a smoothed track that go out to or back from a jump of a receiver at rest, for the
/// ``StillnessGate`` (the rules: ``StillnessGate/jumpSeconds``, ``StillnessGate/restNoiseFactor``). The receiver's
/// own fixes show the jump: the fix before it and the fix after it agree; that the receiver is at rest around it,
/// the fixes next to them on one far side at least say, or, where every state of the jump reads at rest, the
/// readings.
///
/// Asked only for the steps the gate would count without it (a gap's chord, or a net displacement beyond the
/// threshold), so that a track whose windows hold Doppler speeds pays nothing: the positions are gathered on the
/// first question (O(n)), and a question about the step into state s reads states s − 4 … s + 3, each state's
/// answer kept. (`TrackProblem` opens a state only with a position fix, so every state has one.)
///
/// What it cannot tell from a jump: a vehicle that really leaves its resting place and is back there, at rest,
/// one or two fixes later (a courier down a lane and back, a block circled, within ``StillnessGate/jumpSeconds``;
/// read at rest, an errand between two fixes at any cadence). The steps out and back then count nothing
/// (``SmoothedTrack/stillLengthMetres`` shows them); σ widens by them only for a jump read at rest that lasted
/// longer than ``StillnessGate/restingJumpSeconds`` (``restJumpSteps(longerThan:)``).
struct JumpFinder {
    let gate: StillnessGate
    let problem: TrackProblem
    let totals: [StillnessGate.Totals]
    /// The longest step a jump may span (from one state to the next), seconds: the smoother's recording break,
    /// beyond which the fix before belongs to another recording.
    let longestStepSeconds: Double
    /// Each state's fix (its first position, should it have several); empty until the first question.
    var east: [Double] = [], north: [Double] = []
    /// For each state, the jump that starts after it, once asked: 0 none, 1 or 2 its fixes (positions judged), 3 or
    /// 4 its fixes plus 2 (read at rest), −1 not yet known (each state is asked about by the three steps after it).
    var jumpAfter: [Int8] = []
    /// The steps the finder held (``isJumpStep(_:)`` answered `true`: the gate left them out for the jump), each
    /// with the state its jump starts after, in the order asked (ascending: the gate asks each step once, in
    /// order).
    var held: [(step: Int, before: Int)] = []

    init(gate: StillnessGate, problem: TrackProblem, totals: [StillnessGate.Totals], longestStepSeconds: Double) {
        self.gate = gate
        self.problem = problem
        self.totals = totals
        self.longestStepSeconds = longestStepSeconds
    }

    /// The number of fixes of a jump from its code in ``jumpAfter`` (1 or 2; 0 for none).
    static func fixes(_ code: Int8) -> Int { code > 2 ? Int(code) - 2 : max(Int(code), 0) }

    /// Whether the step into state `s` (from `s − 1`) goes out to or back from a jump; the gate leaves such a step
    /// out, and the finder keeps which jump held it (``restJumpSteps(longerThan:)``).
    mutating func isJumpStep(_ s: Int) -> Bool {
        let n = problem.stateCount
        if east.isEmpty {
            east = [Double](repeating: 0, count: n)
            north = east
            jumpAfter = [Int8](repeating: -1, count: n)
            for m in problem.positionState.indices.reversed() {
                east[problem.positionState[m]] = problem.positionEast[m]
                north[problem.positionState[m]] = problem.positionNorth[m]
            }
        }
        // The jumps that hold this step: from the fix before it (`before`) out over k = 1 or 2 fixes and back.
        for before in max(0, s - 3)..<s {
            if jumpAfter[before] < 0 {
                let one = jump(from: before, fixes: 1)
                jumpAfter[before] = one > 0 ? one : jump(from: before, fixes: 2)
            }
            if jumpAfter[before] > 0, s <= before + 1 + Self.fixes(jumpAfter[before]) {
                held.append((s, before))
                return true
            }
        }
        return false
    }

    /// The steps, ascending, that a jump read at rest held and that lasted longer than `seconds` from the fix
    /// before it to the fix after it (not steps left out for another reason: a window of Doppler speeds, a `still`
    /// reading, the chord rule, a jump the positions judged).
    func restJumpSteps(longerThan seconds: Double) -> [Int] {
        held.lazy.filter { step, before in
            let code = jumpAfter[before]
            return code > 2
                && problem.times[before + 1 + Self.fixes(code)] - problem.times[before] > seconds
        }.map(\.step)
    }

    /// Whether the `fixes` states after `before` are a jump and the state after them is back (see the type): 0 no,
    /// `k` a jump the positions judged, `k` + 2 one read at rest (the code ``jumpAfter`` keeps).
    func jump(from before: Int, fixes k: Int) -> Int8 {
        let after = before + k + 1, n = problem.stateCount
        guard after < n else { return 0 }
        for j in before..<after where problem.times[j + 1] - problem.times[j] > longestStepSeconds { return 0 }
        let seconds = problem.times[after] - problem.times[before]
        // Read at rest throughout, the readings say what the fixes beside it would (see
        // ``StillnessGate/restNoiseFactor``); else the positions must, within ``StillnessGate/jumpSeconds``.
        let atRest =
            gate.restNoiseFactor > 0 && (k == 1 || seconds <= gate.restingJumpSeconds)
            && (before...after).allSatisfy { gate.readsRest($0, totals: totals) }
        guard atRest || seconds <= gate.jumpSeconds else { return 0 }
        let factor = atRest ? gate.restNoiseFactor : 4
        let f2 = factor * factor
        // Cheap tests first, on squared distances: a jump's first step lies beyond `factor` thresholds, each at
        // least the base; the fix after it comes back within a `factor`th of that.
        let out = squared(before, before + 1), back = squared(before, after)
        let base = gate.baseMetres
        guard out > f2 * base * base, f2 * back < out else { return 0 }
        let threshold =
            atRest
            ? gate.restThreshold(before, after, totals: totals)
            : gate.stillThreshold(meanAccuracyMetres: max(accuracy(before), accuracy(after)))
        let t2 = threshold * threshold
        if atRest {
            // Back within `factor` thresholds, and at rest on one far side at least (a van shuttling between two
            // stops, away at every other fix, is on neither; a parked receiver's jumps come one or two at a time).
            let near = f2 * t2
            guard back <= near, restsBeside(before: before, after: after, within: near) else { return 0 }
        } else {
            // "Back" and "at rest" on one far side at least, within one threshold; within the rest threshold (the
            // two fixes' noise summed) when no vehicle at rest could have made the jump (see
            // ``isOutOfReach(_:before:after:noise:)``). One side, as above: of two jumps one good fix apart, or of a
            // jump next to the first or last step of a drive, the other side is not at rest.
            let loose = gate.restThreshold(before, after, totals: totals)
            let near =
                loose > threshold && isOutOfReach(k, before: before, after: after, noise: loose)
                ? loose * loose : t2
            guard back <= near, restsBeside(before: before, after: after, within: near) else { return 0 }
        }
        for j in before + 1..<after {
            guard squared(before, j) > f2 * t2, squared(j, after) > f2 * t2, !readsMotion(j) else { return 0 }
        }
        return Int8(atRest ? k + 2 : k)
    }

    /// Whether the receiver rests on one far side of a jump at least: the step into `before`, or the one out of
    /// `after`, lies within √`within` metres (squared) and within ``longestStepSeconds`` (a fix across a recording
    /// break, the same place the evening before, says nothing of this rest). A track's first or last fix has no
    /// far side: a jump at a three-fix track's middle is no jump.
    func restsBeside(before: Int, after: Int, within squaredMetres: Double) -> Bool {
        let n = problem.stateCount
        return
            (before > 0 && problem.times[before] - problem.times[before - 1] <= longestStepSeconds
            && squared(before - 1, before) <= squaredMetres)
            || (after < n - 1 && problem.times[after + 1] - problem.times[after] <= longestStepSeconds
                && squared(after, after + 1) <= squaredMetres)
    }

    /// Whether each of the `k` fixes after `before` lies, beyond `noise` metres, further from the fix before or the
    /// fix after it than a vehicle at rest there reaches in the time between them (½ a τ² with a =
    /// ``StillnessGate/reachAccelerationMetresPerSecondSquared``), or from both further than a vehicle reaches that
    /// is at rest at both (``roundTripReach(_:_:acceleration:)``); never, when a is 0 or less.
    func isOutOfReach(_ k: Int, before: Int, after: Int, noise: Double) -> Bool {
        let a = gate.reachAccelerationMetresPerSecondSquared
        guard a > 0 else { return false }
        for j in before + 1...before + k {
            let outward = problem.times[j] - problem.times[before], inward = problem.times[after] - problem.times[j]
            let fromBefore = squared(before, j).squareRoot() - noise, toAfter = squared(j, after).squareRoot() - noise
            guard
                fromBefore > a / 2 * outward * outward || toAfter > a / 2 * inward * inward
                    || min(fromBefore, toAfter) > Self.roundTripReach(outward, inward, acceleration: a)
            else { return false }
        }
        return true
    }

    /// The farthest a vehicle at rest reaches at `outward` seconds when it is at rest again at the same place
    /// `inward` seconds later, accelerating and braking at most `acceleration` (m/s²), metres: full throttle out, then
    /// braking, and back alike (one dimension: a straight line is the farthest). With the speed v at the far point
    /// free, the reach is max over v of min(R(τ₁, v), R(τ₂, −v)), R(τ, v) = ((aτ + v)²/2 − v²)/(2a) the farthest a
    /// start from rest reaches in τ ending at speed v (outward positive): the two meet at v = a(τ₂ − τ₁)/2, which
    /// gives a((τ₁ + τ₂)² − 2(τ₂ − τ₁)²)/16 (a τ²/4 for τ₁ = τ₂, half the one-way reach ½ a τ²), while that speed
    /// is within reach (τ₂ ≤ 3 τ₁); beyond, ½ a τ₁², the one-way reach.
    static func roundTripReach(_ outward: Double, _ inward: Double, acceleration a: Double) -> Double {
        let short = min(outward, inward), long = max(outward, inward)
        guard long < 3 * short else { return a / 2 * short * short }
        let sum = short + long, difference = long - short
        return a * (sum * sum - 2 * difference * difference) / 16
    }

    func squared(_ a: Int, _ b: Int) -> Double {
        let de = east[b] - east[a], dn = north[b] - north[a]
        return de * de + dn * dn
    }

    /// The mean reported accuracy of state `s`'s fixes (the assumed one for a fix without), metres.
    func accuracy(_ s: Int) -> Double { gate.meanAccuracy(s, totals: totals) }

    /// Whether state `s`'s fixes carry Doppler speeds the smoother uses, averaging at least the gate's motion speed.
    func readsMotion(_ s: Int) -> Bool { gate.readsMotion(s, totals: totals) }
}

/// The window of states centred on each step of a smoothed track, for the gates that judge a step by its
/// neighbourhood (``StillnessGate``, ``VehicleGate``): the states of the step's segment within ±half the window
/// of the step's middle, at least the step's own two, reaching at least half its length on each side: from the
/// last state at or before middle − half to the first at or after middle + half (within the segment), however
/// sparse the fixes (with one every 11 s a window of the states inside ±10 s would hold one step, and judge a
/// 1 m/s hiker still).
struct CentredWindow {
    /// Half the window's length, seconds.
    let halfSeconds: Double
    var segmentStart = 0, low = 0, high = 0

    /// A window of `seconds`.
    init(seconds: Double) { halfSeconds = seconds / 2 }

    /// The first and last state of the window of step `s` (from state `s − 1` to `s`); `(s, s)` for a step that
    /// opens a segment, where the window starts again. Call it for every step in order: the edges only move
    /// forward, so a pass over the track is O(n).
    mutating func states(ofStep s: Int, times: [Double], opensSegment: [Bool]) -> (low: Int, high: Int) {
        if opensSegment[s] {
            segmentStart = s
            low = s
            high = s
            return (s, s)
        }
        let middle = (times[s - 1] + times[s]) / 2
        low = max(low, segmentStart)
        while low < s - 1 && times[low + 1] <= middle - halfSeconds { low += 1 }
        high = max(high, s)
        while high + 1 < times.count && !opensSegment[high + 1] && times[high] < middle + halfSeconds { high += 1 }
        return (low, high)
    }
}

/// An activity reading and when it was taken, seconds on the smoothing problem's clock (after its first state).
struct TimedReading {
    var seconds: Double
    var reading: ActivityReading

    /// For each state (times ascending), whether the reading in force there is a confident `kind`: the newest of
    /// `readings` (ascending in time) taken at or before it, no older than `validitySeconds` and of at least
    /// `confidenceThreshold` — ``MotionGate/verdict(_:ageSeconds:profile:)``'s rule, with the values the gates
    /// copied from the profile.
    static func inForce(
        _ readings: [TimedReading], of kind: ActivityKind, confidenceThreshold: Int, validitySeconds: Double,
        times: [Double]
    ) -> [Bool] {
        var result = [Bool](repeating: false, count: times.count)
        var current: (matches: Bool, seconds: Double)?
        var next = 0
        for s in times.indices {
            while next < readings.count && readings[next].seconds <= times[s] {
                let reading = readings[next].reading
                current = (
                    reading.kind == kind && Int(reading.confidence) >= confidenceThreshold, readings[next].seconds
                )
                next += 1
            }
            result[s] = current.map { $0.matches && times[s] - $0.seconds <= validitySeconds } ?? false
        }
        return result
    }
}
