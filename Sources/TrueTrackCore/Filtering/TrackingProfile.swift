/// The tuning of every gate and of the filter for one kind of movement.
///
/// Use one of the presets (``walking``, ``running``, ``cycling``, ``driving``) or start from one and change
/// the values you need (``custom(from:_:)``). Every preset value is documented with the reason it has that
/// value; the walking values are the defaults and were checked on the shared recordings
/// (`ipin2023-walk`, the stationary logs, `geolife-010-mixed`).
public struct TrackingProfile: Sendable, BitwiseCopyable, Hashable {
    /// Which preset the profile started from.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
        /// On foot, walking pace.
        case walking
        /// On foot, running pace.
        case running
        /// On a bicycle.
        case cycling
        /// In a car or other road vehicle.
        case driving
        /// Changed from a preset by the caller.
        case custom
    }

    /// The preset this profile comes from (``Kind/custom`` once changed through ``custom(from:_:)``).
    public var kind: Kind

    // MARK: Accuracy gate

    /// Fixes whose reported horizontal accuracy (68 % radius) exceeds this are rejected, metres.
    public var maximumAccuracyMetres: Double
    /// The accuracy assumed for a fix that reports none, metres; such fixes are flagged in their decision.
    public var assumedAccuracyMetres: Double

    // MARK: Speed gate

    /// Fixes moving faster than this (Doppler speed, else the speed derived from displacement) are rejected,
    /// metres per second. The same value caps the speed integrated into distance.
    public var maximumSpeedMetresPerSecond: Double

    // MARK: Outlier gate and filter

    /// The filter's white-acceleration standard deviation σₐ, m/s² (process noise q = σₐ² m²/s³).
    public var accelerationSigma: Double
    /// The largest σₐ (m/s²) the filter predicts with for a fix that carries no Doppler speed but reports its
    /// accuracy: the prediction to such a fix uses `min(accelerationSigma, accelerationSigmaWithoutDoppler)`, and
    /// its outlier gate takes at least the fixes' own scatter as their variance (see ``Tracker``). Default ∞ (the
    /// same σₐ for every fix); the driving preset sets 3: see ``driving``. Fixes without an accuracy keep
    /// `accelerationSigma`: judged by the gate's 30 m fallback, a GPX drive logged every 2–5 s cut the bends of a
    /// winding road under σₐ 3 (a reviewer's 18 km: −3.1 % under σₐ 8, −13.6 % under 3). A value that is not
    /// above 0 (or NaN) is ignored, like ∞: a zero process noise would freeze the velocity of a track without
    /// Doppler.
    public var accelerationSigmaWithoutDoppler: Double = .infinity
    /// The largest σₐ (m/s²) of the position filter: the filter fed positions only, whose path the Doppler check
    /// compares the Doppler path with and whose speed stands in for a missing or untrusted Doppler speed (see
    /// ``DopplerCheck``). It predicts with `min(σₐ of the fix's step, positionFilterAccelerationSigma)`.
    /// Default ∞ (the output filter's σₐ); the running and cycling presets set 1, the walking value. Why: a
    /// position filter that follows the fixes' noise has a path longer than the way travelled, and a receiver
    /// with a good Doppler speed then looked inconsistent: an API tester's 1.4 m/s walks under the running
    /// profile counted 2,352–2,708 m of 1,680 (the filter's noisy speed integrated instead of the Doppler),
    /// and a running app's warm-up walk +37 %. The output filter keeps its own σₐ (a runner's pace changes). A
    /// value that is not above 0 (or NaN) is ignored, like ∞.
    public var positionFilterAccelerationSigma: Double = .infinity
    /// Whether the Doppler check's session evidence (see ``DopplerCheck``) is the position filter's chords: the
    /// straight line it moved over each window span (``windowSeconds``) while the receiver was moving with
    /// Doppler, against the Doppler path over the same span, instead of the position filter's speed integrated
    /// fix by fix. Default false; the running and cycling presets set it. Why: noise lengthens an integrated
    /// speed path (a norm never cancels it) but hardly a 20–30 m chord, and a receiver with a good Doppler speed
    /// and rough positions looked inconsistent under the running profile's larger σₐ (simulated walks with 2 m
    /// of white noise: +71 to +78 %; with ``positionFilterAccelerationSigma`` alone still +16 % on one seed of
    /// five; with chords within 3 % on all). Walking keeps the speed path: with chords the IPIN ground-level
    /// walks lost 3–5 points (−22.7 / −15.2 % instead of −19.9 / −9.8 %) while the underground ones gained.
    public var judgesDopplerByChords = false
    /// Under the integrated path (``judgesDopplerByChords`` false), whether chords that show the readings consistent
    /// judge them however many zeros the receiver reads in runs while the window says moving (scattered zeros, between
    /// readings of motion, still keep to ``DopplerCheck/zeroReadingShare``)
    /// (``DopplerCheck/chordsShowConsistentReadings(sums:moments:measuredChordMetres:shownBefore:profile:)``).
    /// Default true (walking); the driving preset sets it false. Why: a walker's noise lengthens its integrated path
    /// by half or more (an honest walker halting every minute read 0.60 of it, distrusted: +72 … +91 %), a vehicle's
    /// a few per cent, while the zeros a vehicle's logger writes for 5–30 s at speed, taken for halts under the
    /// chords, lost up to 18 % of an adversarial tester's drives logged every 3–5 s (54 of 432 worse).
    public var consistentChordsOutweighZeros = true
    /// The χ² (2 degrees of freedom) threshold above which a fix is an outlier of the filter's prediction.
    public var outlierChiSquare: Double
    /// This many consecutive speed or outlier rejections re-anchor the filter at the latest fix.
    public var rejectionsBeforeReanchor: Int
    /// A gap between accepted fixes longer than this resets the filter at the new fix, seconds. (After a reset
    /// gap that followed a step nearly as long, the tracker takes 0.8 of it, so that a logger whose cadence
    /// straddles it keeps one regime: `Tracker.resetGapHysteresis`.)
    public var filterResetGapSeconds: Double
    /// Fixes at least this much older than the last accepted one, and newer than each other, say that the
    /// last accepted time was wrong once ``rejectionsBeforeReanchor`` of them arrive with no fix accepted in
    /// between: the tracker starts again from the last of them instead of rejecting every later fix as out of
    /// order. Seconds.
    ///
    /// Default one day. Why: a receiver whose clock jumps (a GPS week-number rollover, a corrupt record
    /// dated 9999) would otherwise freeze the session for good, while a phone's delayed batches are minutes
    /// to an hour old and must stay out-of-order rejections (taking them would count their path twice).
    /// Fixes of any age count when they lie inside the last forward jump in time (the first fix after a reset
    /// gap) and that jump is longer than ``maximumBridgedGapSeconds`` with fixes accepted after it
    /// for no longer than that: a fix or a short block stamped hours ahead (a time-zone slip) is wrong by less
    /// than a day and froze the session until the clock caught up.
    public var clockJumpSeconds: Double = 86_400
    /// The longest silence the tracker bridges with its chord, seconds: after a gap longer than
    /// ``filterResetGapSeconds`` (and up to this long) the straight line from the last filtered position to the
    /// first fix after the gap counts once the new track is confirmed, when it is beyond the fixes' noise and its
    /// average speed is one the profile's traveller moves at (see ``Tracker``, "Bridging").
    ///
    /// Default 600 s (10 minutes). Why: tunnels, underpasses, buildings and parking garages silence a receiver
    /// for seconds to minutes, and the traveller's way of moving is the one on both sides (the u-blox F9K drive
    /// in `ublox-f9k-span-mtv` loses 211 m in one 40 s outage); across a longer silence (a killed process, a
    /// phone in a bag all afternoon) the mode of travel is anyone's guess, and a commute bridged as a walk would
    /// count kilometres. 0 turns the gap bridge off.
    public var maximumBridgedGapSeconds: Double = 600
    /// A silence longer than this ends a recording, seconds: the fix after it starts the tracker afresh, as the
    /// first fix of a new tracker would, keeping only the total, the time order (a fix not newer than the last
    /// accepted one stays out of order), the clock-jump bookkeeping and the vehicle latch (which only holds
    /// distance: GeoLife's bus ride 4.8 hours after a taxi counted its first 40 m as a walk without it). A held
    /// departure is counted first, as by ``Tracker/finishTrack()``.
    ///
    /// Default 3,600 s (an hour). Why: two recordings of a day joined in one file (or one buffer session) gave
    /// the second a different distance than on its own, because what the tracker had learnt of the first
    /// receiver (its Doppler's trust, its white noise, a vehicle latch, the windows) carried over: a tester's
    /// demo walk after a three-fix recording 659.2 m instead of 621.5. An hour is longer than the silences those
    /// states are kept for (tunnels, underground car parks and subway legs, bridged up to
    /// ``maximumBridgedGapSeconds``), and shorter than the breaks between the recordings of a day. 0 never
    /// starts afresh.
    public var sessionBreakSeconds: Double = 3600
    /// The Doppler speed accuracy assumed when a fix reports none, m/s (velocity measurement noise).
    public var assumedSpeedAccuracyMetresPerSecond: Double
    /// The course accuracy assumed when a fix reports none, degrees.
    public var assumedCourseAccuracyDegrees: Double

    // MARK: Distance

    /// Speeds below this count as standing still for the distance, metres per second.
    public var deadbandMetresPerSecond: Double
    /// The longest interval one fix's speed is integrated over, seconds: after a longer gap the distance
    /// across it is not guessed.
    public var maximumIntegrationSeconds: Double
    /// The trailing window of the net-displacement gate and the Doppler check, seconds, kept within 1–30 s
    /// whenever it is set (the window holds 30 s of 1 Hz samples; a longer one never reached half its span and
    /// counted nothing), NaN read as the walking preset's 20 s.
    public var windowSeconds: Double {
        didSet {
            windowSeconds = TrackingProfile.clampedWindowSeconds(windowSeconds)
            windowMilliseconds = TrackingProfile.milliseconds(ofWindowSeconds: windowSeconds)
        }
    }

    /// ``windowSeconds`` in milliseconds, kept with it: the tracker asks for it on every fix, and converting there
    /// (with the conversion's range checks) cost the `tracker` benchmark 18 instructions per fix (734.7 against
    /// 716.9, 2026-12-07; the simulated walk's placement of code moved it 4 the other way).
    @usableFromInline var windowMilliseconds: Int64

    /// `seconds` within 1 s–``TrailingWindow/maximumSpanSeconds``; NaN gives 20 s (the walking preset's).
    static func clampedWindowSeconds(_ seconds: Double) -> Double {
        seconds.isNaN ? 20 : min(max(seconds, 1), TrailingWindow.maximumSpanSeconds)
    }

    /// A clamped window's `seconds` (``clampedWindowSeconds(_:)``) in whole milliseconds, as the tracker's window
    /// compares times.
    static func milliseconds(ofWindowSeconds seconds: Double) -> Int64 { Int64(seconds * 1000) }

    /// Net displacement threshold = ``netDisplacementBaseMetres`` + ``netDisplacementAccuracyFactor`` × the
    /// mean accuracy over the window, metres.
    public var netDisplacementBaseMetres: Double
    /// See ``netDisplacementBaseMetres``.
    public var netDisplacementAccuracyFactor: Double
    /// The Doppler speed is not trusted while the Doppler path over the window is below this fraction of the
    /// filtered track's net displacement beyond its threshold.
    public var dopplerTrustRatio: Double
    /// Once the position filter has travelled this far (metres) while the receiver was moving, the Doppler
    /// check judges the session's whole Doppler-to-position ratio instead of the window's. 20 m: a walker's
    /// quarter-minute, enough that the position filter's noise averages out; a Doppler scale is a property
    /// of the chipset and does not change within a session.
    public var dopplerEvidenceMetres: Double = 20
    /// A receiver whose session Doppler path is at least this fraction of the position path the Doppler check
    /// judges it by (its position filter's integrated path, or its chords: `Tracker`'s `judgedDopplerEvidence`) is
    /// consistent: its zero readings while moving are believed as halts. Below it (but above
    /// ``dopplerTrustRatio``) a sub-deadband reading while moving and while the position filter moves is a
    /// dropout, and the position filter's speed stands in for that fix; from the ``haltRunLength``-th
    /// sub-deadband reading in a row, only up to what the window's Doppler readings leave unexplained of its net
    /// displacement (plus ``netDisplacementBaseMetres``), so that a halt read as a dropout counts next to
    /// nothing. 0.9: a consistent receiver (Pixel 4 on `gsdc2020-mtv1`, Pixel 7 walk) matches within a few per
    /// cent; 25 % zero readings (the simulator's degraded phone) bring the ratio to about 0.75.
    public var dopplerConsistentRatio: Double = 0.9
    /// A reading of at least this many deadbands (``deadbandMetresPerSecond``) is one of motion, which ends a run of
    /// zeros (`Tracker`'s `scatteredZeroReadings`; a reading between the deadband and this counts into the run): 2
    /// (0.6 m/s on foot). Why: an honest receiver's readings at a halt are noise clipped at 0 (σ 0.2 m/s: over the
    /// deadband on one fix in 15, which cut a halt into short runs of zeros that looked like dropouts, and a
    /// second tester's walks logged every 3–5 s lost the rule again, +22 … +78 %; over 0.6 m/s on one in 740),
    /// while a walker reads 1–1.5 m/s and a Samsung-style receiver about half of it.
    public static let motionReadingFactor = 2.0

    /// From the how-manyth sub-deadband Doppler reading in a row (a fix without a Doppler speed extends the run
    /// once the receiver has reported one, since iOS reports −1 at a halt, and never breaks it; an anchor starts
    /// it again) a dropout's or a missing reading's stand-in speed is bounded by the net displacement (see
    /// ``dopplerConsistentRatio``): 3. Why: a halt's zeros run on, while dropouts are scattered
    /// among moving readings (at 25 % independent dropouts, 1.6 % of readings end a run of three), and bounding a
    /// scattered dropout by the net displacement undercounts every walk that turns within the window. Counted in
    /// readings, it is tuned for the 1 Hz of phones and receivers: a 10 s logger's halt is bounded from its
    /// twentieth second.
    public static let haltRunLength = 3
    /// While the mean Doppler speed over the window is at least this, the receiver is moving whatever the
    /// net displacement says (a walker pacing back and forth), metres per second.
    public var motionDopplerSpeedMetresPerSecond: Double

    // MARK: Measurement noise

    /// The smallest share of the reported per-axis variance the filter may use for a position update once the
    /// innovations show the fixes are steadier than their accuracy says (see ``MeasurementNoiseScale``);
    /// 1 turns the adaptation off.
    ///
    /// Default 0.01 (σ down to a tenth of the reported one). Why: the white part of real receivers' error is
    /// about a tenth of their reported accuracy (GSDC Pixel 4: 0.17-0.25 m per axis for a reported 1.9 m; the
    /// stationary recordings: 1 s increments of 0.00-0.26 m), so the floor leaves room for what the
    /// innovations measure while a receiver whose positions are pinned is never trusted absolutely.
    public var minimumMeasurementNoiseScale: Double = 0.01
    /// How many accepted fixes the noise-scale estimate averages over (an exponential window). Default 30:
    /// half a minute at 1 Hz, long enough to average the χ² scatter of single innovations (the estimate's
    /// relative error is about 1/√30 ≈ 18 %), short enough to follow a walk from open sky under a roof.
    public var measurementNoiseScaleFixes: Double = 30

    // MARK: Motion-activity gate

    /// Activities during which no distance accrues (when read with at least
    /// ``activityConfidenceThreshold``).
    public var excludedActivities: ActivityMask
    /// A net displacement over (at least half) the window faster than this means a vehicle: no distance
    /// accrues, metres per second (`.infinity` disables the rule).
    public var maximumSustainedSpeedMetresPerSecond: Double
    /// The fastest the traveller moves for a while: ``maximumSustainedSpeedMetresPerSecond``, at most
    /// ``maximumSpeedMetresPerSecond`` (a driving profile sustains any speed up to its ceiling).
    @inlinable public var fastestSustainedSpeedMetresPerSecond: Double {
        min(maximumSustainedSpeedMetresPerSecond, maximumSpeedMetresPerSecond)
    }
    /// The confidence (0–100) from which an activity reading counts; below it the reading is "uncertain".
    public var activityConfidenceThreshold: Int
    /// An activity reading older than this no longer applies, seconds.
    public var activityValiditySeconds: Double
    /// How long (seconds) a track that was faster than ``maximumSustainedSpeedMetresPerSecond`` must stay
    /// slower before its distance counts again (``DistanceHold/vehicle``); the increments of that spell are
    /// released retroactively when it ends, so a walk after leaving a vehicle loses nothing.
    ///
    /// Default 120 s. Why: leaving a vehicle needs it to stop, and a walk away from it is slow for minutes;
    /// a vehicle is slow only at stops, lights and in short stretches of traffic, which rarely last two
    /// minutes (GeoLife's taxi and bus crawl at walking pace for 10-90 s between faster stretches). A jam
    /// crawling at walking pace for longer does count as walking: with positions alone the two look the same.
    /// A gap keeps the latch (silence says nothing about the mode of travel) and restarts the slow spell.
    public var vehicleExitSeconds: Double = 120
    /// How long (seconds) distance released as a receiver without Doppler leaves a rest is held before it counts,
    /// while the filtered track is away from where it rested (``DistanceHold/departure``); 0 turns the rule off.
    /// Held metres count once the track has been on its way that long and is farther from the rest than the
    /// net-displacement threshold, or once it is 100 m on (``Tracker``'s `departureConfirmationMetres`), in
    /// either case only after three accepted fixes in a row away (`departureConfirmationFixes`); they are given
    /// up if the track comes back to the rest first: a multipath excursion, which goes out and comes back, not a
    /// departure. ``Tracker/finishTrack()`` counts what is still held when a track ends away from
    /// its rest.
    ///
    /// Default 0 (off: a walker's rests are brief and a walk to a shelf and back is a walk); 30 s on
    /// ``driving`` and ``cycling``. Why: a parked receiver without Doppler whose fixes take excursions of
    /// 25–70 m for 2–20 s while claiming 8 m (reflections off buildings) looks like a departure to the
    /// net-displacement gate, which opens on the way out and again on the way back; a car or a bicycle that
    /// leaves its parking place is not back there within half a minute. 30 s covers the longest excursion
    /// generated (20 s) with the window's 10–15 s to see the return. The cost: the first metres of every
    /// departure from a rest count late, until the track is 100 m on (7–10 s for a car pulling away) or the
    /// departure has lasted this long; and a traveller who comes back to the rest within it without getting
    /// 100 m away (a lap round a small block) is read as an excursion. Only fixes without Doppler are
    /// concerned. Measured on generated 1 Hz receivers without Doppler (`tools/analysis/multipath_cases.py`, 5
    /// seeds): parked cars with an excursion every 200 / 50 s 605 / 2,130 → 29 / 401 m per 2 h, parked
    /// bicycles 273 / 1,519 → 23 / 155 m; clean drives unchanged, clean rides (turning back every ~150 s)
    /// −0.25 → −0.37 %; every recording unchanged (docs/ARCHITECTURE.md, 4c).
    public var departureConfirmationSeconds: Double = 0
    /// The accuracy (metres) the net-displacement gate assumes for fixes that report none (the accuracy gate
    /// still applies its own ``assumedAccuracyMetres`` fallback and flags them).
    ///
    /// Default 10 m. Why: the gate compares a displacement with the noise of a displacement, and consumer
    /// receivers' 68 % error under open sky is 3-10 m, mostly a bias that moves little within the window; the
    /// accuracy gate's 30 m fallback is a bound for accepting a fix, not a noise level, and as a threshold it
    /// hides any walk slower than 1.6 m/s (GeoLife's labelled 0.66 m/s walk read 4 % of its length). Measured:
    /// the stationary recordings without accuracy (gpsd, phone NMEA) stay at 0.00 m per 10 minutes with 10 m.
    public var assumedDisplacementAccuracyMetres: Double = 10
    /// How many standard deviations of the filtered track's own displacement noise a net displacement must
    /// exceed, besides the accuracy threshold, for the net-displacement gate to read motion (see
    /// ``NetDisplacementGate/noiseFloor(positionVariance:profile:)``); 0 turns the floor off.
    ///
    /// Default 5. Why: the accuracy threshold assumes what the recordings show, an error that drifts and mostly
    /// cancels in a displacement; a receiver whose error is white noise moves its filtered position by a
    /// fresh σ every few fixes, and without Doppler the gate then opened on noise and released the window's
    /// held jitter (20-40 m at a time): the simulator's desk with 3 m white noise and no speed counted 380-530 m
    /// per 10 minutes. The floor compares the displacement with the filter's position variance scaled to the
    /// scatter the fixes show from epoch to epoch (``WhiteNoiseEstimate``), so receivers whose error drifts, and
    /// exact fixes, keep the accuracy threshold. The gate tests every fix, so the nominal χ² level is not the
    /// false-alarm rate: measured on 20 generated 10-minute desks (white noise σ 1-10 m per axis, 1 Hz, no
    /// speed; `truetrack process`), 3.7 σ (the nominal 0.1 % of a 2-D displacement) still released noise on 12
    /// of them (14-95 m), 5 σ on one (41 m); walks at 1.3 m/s under the same noise are unchanged and so is every
    /// recording's distance.
    public var netDisplacementNoiseSigmas: Double = 5

    /// Creates a profile with every value given explicitly; prefer a preset.
    public init(
        kind: Kind, maximumAccuracyMetres: Double, assumedAccuracyMetres: Double,
        maximumSpeedMetresPerSecond: Double, accelerationSigma: Double, outlierChiSquare: Double,
        rejectionsBeforeReanchor: Int, filterResetGapSeconds: Double,
        assumedSpeedAccuracyMetresPerSecond: Double, assumedCourseAccuracyDegrees: Double,
        deadbandMetresPerSecond: Double, maximumIntegrationSeconds: Double, windowSeconds: Double,
        netDisplacementBaseMetres: Double, netDisplacementAccuracyFactor: Double, dopplerTrustRatio: Double,
        motionDopplerSpeedMetresPerSecond: Double,
        excludedActivities: ActivityMask, maximumSustainedSpeedMetresPerSecond: Double,
        activityConfidenceThreshold: Int, activityValiditySeconds: Double
    ) {
        self.kind = kind
        self.maximumAccuracyMetres = maximumAccuracyMetres
        self.assumedAccuracyMetres = assumedAccuracyMetres
        self.maximumSpeedMetresPerSecond = maximumSpeedMetresPerSecond
        self.accelerationSigma = accelerationSigma
        self.outlierChiSquare = outlierChiSquare
        self.rejectionsBeforeReanchor = rejectionsBeforeReanchor
        self.filterResetGapSeconds = filterResetGapSeconds
        self.assumedSpeedAccuracyMetresPerSecond = assumedSpeedAccuracyMetresPerSecond
        self.assumedCourseAccuracyDegrees = assumedCourseAccuracyDegrees
        self.deadbandMetresPerSecond = deadbandMetresPerSecond
        self.maximumIntegrationSeconds = maximumIntegrationSeconds
        self.windowSeconds = TrackingProfile.clampedWindowSeconds(windowSeconds)
        self.windowMilliseconds = TrackingProfile.milliseconds(ofWindowSeconds: self.windowSeconds)
        self.netDisplacementBaseMetres = netDisplacementBaseMetres
        self.netDisplacementAccuracyFactor = netDisplacementAccuracyFactor
        self.dopplerTrustRatio = dopplerTrustRatio
        self.motionDopplerSpeedMetresPerSecond = motionDopplerSpeedMetresPerSecond
        self.excludedActivities = excludedActivities
        self.maximumSustainedSpeedMetresPerSecond = maximumSustainedSpeedMetresPerSecond
        self.activityConfidenceThreshold = activityConfidenceThreshold
        self.activityValiditySeconds = activityValiditySeconds
    }

    /// The χ² value with 2 degrees of freedom exceeded with probability 0.1 % (−2 ln 0.001 = 13.8155):
    /// a fix this far from the prediction is a multipath jump or a relocation, not noise; real phone errors
    /// are correlated and heavier-tailed than the model, so a stricter threshold (99 %: 9.21) rejected good
    /// fixes on the recordings.
    public static let chiSquare2DOF999: Double = 13.815_510_557_964_274

    /// Walking (the defaults).
    ///
    /// - `maximumAccuracyMetres` 30: the phones in `ipin2023-walk` report 4–6 m outdoors and 8–27 m on the
    ///   underground level; network fixes (748–896 m) and worse are rejected.
    /// - `assumedAccuracyMetres` 30: a fix without accuracy (NMEA without GST, GPX) is trusted no more than the
    ///   worst fix the gate admits, so it never outweighs a fix that reports its accuracy.
    /// - `maximumSpeedMetresPerSecond` 8: faster than any walker (a sprint is ~ 10 m/s only for elite runners);
    ///   anything above is a vehicle or an error.
    /// - `accelerationSigma` 1 m/s²: a walker's speed changes by about 1 m/s within a second when starting,
    ///   stopping or turning.
    /// - `outlierChiSquare` 13.82 (χ², 2 dof, 99.9 %), `rejectionsBeforeReanchor` 3: see
    ///   ``chiSquare2DOF999``; three fixes in a row far from the prediction agree with each other, not with
    ///   the filter, so the filter is what is wrong (tunnel exit, relocation after a gap).
    /// - `filterResetGapSeconds` 60: after a minute without fixes a walker may be anywhere within ~ 80 m; the
    ///   constant-velocity prediction carries no information any more.
    /// - `assumedSpeedAccuracyMetresPerSecond` 0.5, `assumedCourseAccuracyDegrees` 20: Android's typical
    ///   reported speed and bearing accuracy for a phone at walking pace.
    /// - `deadbandMetresPerSecond` 0.3: below a third of a slow walk (~ 1 m/s); a still phone's Doppler
    ///   jitter and filter velocity noise stay under it.
    /// - `maximumIntegrationSeconds` 10: one fix's speed stands for at most 10 s of travel; beyond that the
    ///   path across the gap is unknown.
    /// - `windowSeconds` 20, net displacement `2 m + 1.0 × accuracy`: a stationary phone's correlated error
    ///   drifts by well under its 68 % radius in 20 s, while a walker at ≥ 0.5 m/s covers ≥ 10 m.
    /// - `dopplerTrustRatio` 0.7: a consistent Doppler path over the window matches the path of the
    ///   position-only filter; 30 % margin for that filter's noise and lag (the Samsung phones of
    ///   `ipin2023-walk` read about half).
    /// - `motionDopplerSpeedMetresPerSecond` 0.15: still receivers average 0.005–0.05 m/s of Doppler speed
    ///   (`rtk-reach-neu`, `gpsd-nmea`, `gmt-stationary-2016`), walkers 0.3–1.4 m/s even with Samsung zeros;
    ///   with Doppler over at least half the window its mean decides moving vs still, else the net
    ///   displacement does (this is what keeps `gpsd-ublox-8`, whose fixes wander 13 m, at 0 m).
    /// - `excludedActivities` still + in vehicle at confidence ≥ 75 valid 60 s: a walk does not include the
    ///   bus; Android's `DetectedActivity` calls ≥ 75 "likely"; below it the reading is uncertain, which is
    ///   not "still".
    /// - `maximumSustainedSpeedMetresPerSecond` 3: a brisk walk is 1.8 m/s and nobody walks 3 m/s for ten
    ///   seconds or more; a net displacement that fast is a bus, a taxi or a train (GeoLife user 010's taxi
    ///   and bus legs average 5.3 and 4.6 m/s, under the 8 m/s gate).
    public static let walking = TrackingProfile(
        kind: .walking, maximumAccuracyMetres: 30, assumedAccuracyMetres: 30, maximumSpeedMetresPerSecond: 8,
        accelerationSigma: 1.0, outlierChiSquare: chiSquare2DOF999, rejectionsBeforeReanchor: 3,
        filterResetGapSeconds: 60, assumedSpeedAccuracyMetresPerSecond: 0.5, assumedCourseAccuracyDegrees: 20,
        deadbandMetresPerSecond: 0.3, maximumIntegrationSeconds: 10, windowSeconds: 20,
        netDisplacementBaseMetres: 2, netDisplacementAccuracyFactor: 1.0, dopplerTrustRatio: 0.7,
        motionDopplerSpeedMetresPerSecond: 0.15,
        excludedActivities: [.still, .inVehicle], maximumSustainedSpeedMetresPerSecond: 3,
        activityConfidenceThreshold: 75, activityValiditySeconds: 60)

    /// Running: the walking values except a faster ceiling (12 m/s: beyond a fast runner's ~ 7 m/s with margin
    /// for sprints), a larger acceleration σ (2 m/s²: strides and pace changes) and a shorter reset gap (30 s:
    /// a runner covers ~ 100 m in it).
    public static let running: TrackingProfile = {
        var p = walking
        p.kind = .running
        p.maximumSpeedMetresPerSecond = 12
        p.maximumSustainedSpeedMetresPerSecond = 8
        p.accelerationSigma = 2
        p.positionFilterAccelerationSigma = 1
        p.judgesDopplerByChords = true
        p.filterResetGapSeconds = 30
        return p
    }()

    /// Cycling: ceiling 25 m/s (a fast descent reaches 20 m/s), acceleration σ 2 m/s², accuracy gate 50 m and
    /// assumed accuracy 30 m (bike computers often report no accuracy), window 15 s (a cyclist covers ≥ 30 m
    /// in it), reset gap 30 s, departure hold 30 s (``departureConfirmationSeconds``); `in vehicle` is excluded
    /// (the bike carried by car), `still` too.
    public static let cycling: TrackingProfile = {
        var p = walking
        p.kind = .cycling
        p.maximumSpeedMetresPerSecond = 25
        p.maximumSustainedSpeedMetresPerSecond = .infinity
        p.accelerationSigma = 2
        p.positionFilterAccelerationSigma = 1
        p.judgesDopplerByChords = true
        p.maximumAccuracyMetres = 50
        p.filterResetGapSeconds = 30
        p.windowSeconds = 15
        p.departureConfirmationSeconds = 30
        return p
    }()

    /// Driving: ceiling 70 m/s (250 km/h), acceleration σ 8 m/s² (hard braking and a junction turn both reach
    /// ~ 8 m/s²; with 3 m/s² the filter lagged the GSDC Pixel 4 fixes: p95 1.83 m vs 1.69 m now, raw 1.73 m),
    /// but 3 m/s² for fixes without a Doppler speed (``accelerationSigmaWithoutDoppler``: there the velocity
    /// comes from the positions alone, and under σₐ 8 the one-step prediction spread 11.5 m per axis at 8 m
    /// accuracy (7.9 m at 3 m, 15.9 m at 15 m), so the outlier gate passed any jump under ~ 47 m at 8 m
    /// (30 m at 3 m, 70 m at 15 m) and the filter's speed followed the fixes' noise; generated 1 Hz drives
    /// without speed (`tools/analysis/multipath_cases.py`, 5 seeds) counted +1.4 % on clean fixes and +4.0 /
    /// +9.7 % with multipath excursions, parked cars with excursions 1.8 / 6.3 km per 2 h; with 3 m/s²: −0.1 %,
    /// +0.2 / +0.7 %, 0.6 / 2.1 km),
    /// accuracy gate 50 m (urban canyons), reset gap 20 s (a car covers up to ~ 1 km in it), window 10 s,
    /// course accuracy 5° (a car's Doppler course is steady at speed), no activity excluded but `still`
    /// (a car is a vehicle), a departure hold of 30 s (``departureConfirmationSeconds``), and a window Doppler mean
    /// of 0.8 m/s for moving (``motionDopplerSpeedMetresPerSecond``; 0.15 on foot): a vehicle tracker at rest may
    /// read 0.3–2 km/h of noise, which the walker's 0.15 took for movement while the Doppler check, finding the
    /// readings below the position filter's drift, counted the filter's speed instead (a fleet re-tester's van
    /// parked 8 h with such readings every 10 s: 7,715 m and 100 trips; its working day 14,790 m of 11,200).
    /// With 0.8: 0 m, and 11,072 m; what a vehicle creeping slower covers in a 10 s window is under 8 m. Every
    /// recording in `truetrack bench` within a metre except the MTK logger's drive, 9,749 → 9,703 m (no truth);
    /// the F9K drive thinned to a fix every 20 s −6.4 → −7.3 % (`tools/analysis/sparse_steps.py`).
    public static let driving: TrackingProfile = {
        var p = walking
        p.kind = .driving
        p.maximumSpeedMetresPerSecond = 70
        p.maximumSustainedSpeedMetresPerSecond = .infinity
        p.accelerationSigma = 8
        p.accelerationSigmaWithoutDoppler = 3
        p.maximumAccuracyMetres = 50
        p.filterResetGapSeconds = 20
        p.windowSeconds = 10
        p.motionDopplerSpeedMetresPerSecond = 0.8
        p.assumedCourseAccuracyDegrees = 5
        p.excludedActivities = [.still]
        p.departureConfirmationSeconds = 30
        p.consistentChordsOutweighZeros = false
        return p
    }()

    /// The preset of a kind (``Kind/custom`` gives ``walking``).
    public static func preset(_ kind: Kind) -> TrackingProfile {
        switch kind {
        case .walking, .custom: walking
        case .running: running
        case .cycling: cycling
        case .driving: driving
        }
    }

    /// A custom profile: `base` changed by `change`, marked ``Kind/custom``.
    public static func custom(from base: TrackingProfile, _ change: (inout TrackingProfile) -> Void)
        -> TrackingProfile
    {
        var p = base
        change(&p)
        p.kind = .custom
        return p
    }
}
