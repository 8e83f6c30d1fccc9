import TrueTrackCore

/// Everything the whole-track smoother is tuned by. Build it from a ``TrackingProfile`` (the same process
/// noise, accuracy gate, gap and Doppler assumptions as the forward filter) and change what you need.
public struct SmoothingOptions: Sendable, Hashable {
    /// Which algorithm solves each iteration's least-squares problem.
    public enum Solver: String, Sendable, Hashable, CaseIterable {
        /// The whole track as one banded symmetric positive-definite system, factored by banded Cholesky and
        /// solved by forward and back substitution, written out for the band of width 3 (the default); LAPACK's
        /// `dpbtrf`/`dpbtrs` compute the same factor and solution and are its tested reference.
        case bandedCholesky
        /// The Rauch–Tung–Striebel (1965) smoother: a forward Kalman filter and a backward pass on the same
        /// model. The reference the banded solver is tested against; same answer, same complexity.
        case rauchTungStriebel
    }

    /// White-acceleration standard deviation σₐ of the constant-velocity model, m/s² (spectral density
    /// q = σₐ² m²/s³). From ``TrackingProfile/accelerationSigma``.
    public var accelerationSigma: Double
    /// The largest σₐ (m/s²) of a step into a fix that carries no speed reading but reports its accuracy: such a
    /// step's process density is `min(accelerationSigma, accelerationSigmaWithoutDoppler)²`, as in the forward
    /// filter's prediction (a reading counts whatever its value, and whether or not ``usesDoppler`` takes it as a
    /// measurement). From ``TrackingProfile/accelerationSigmaWithoutDoppler`` (∞, the same σₐ for every
    /// step, except 3 on ``TrackingProfile/driving``). Why: a car's 8 m/s² lets the constant-velocity model swing
    /// 50 m aside within 5 s and 150 m within 10 s at little cost, so between fixes without a Doppler speed the
    /// smoothed track followed every multipath jump, whatever the robust loss (a jumpy 14.4 km drive at 5 s read
    /// 17.3–18.5 km; see docs/ARCHITECTURE.md, "Multipath jumps between sparse fixes"). A value that is not
    /// above 0 (or NaN) is ignored, like ∞.
    public var accelerationSigmaWithoutDoppler: Double
    /// Fixes whose reported 68 % radius exceeds this are left out, metres.
    /// From ``TrackingProfile/maximumAccuracyMetres``.
    public var maximumAccuracyMetres: Double
    /// The 68 % radius assumed for a fix that reports none, metres. From
    /// ``TrackingProfile/assumedAccuracyMetres``.
    public var assumedAccuracyMetres: Double
    /// A time step longer than this splits the track into independent segments, seconds: across it the
    /// constant-velocity model says nothing useful. From ``TrackingProfile/filterResetGapSeconds``.
    public var gapSeconds: Double
    /// Whether Doppler speed and course enter as velocity measurements. Default `true`. (The process model does
    /// not change with it: see ``accelerationSigmaWithoutDoppler``.)
    public var usesDoppler: Bool
    /// The profile of the forward ``Tracker`` that judges the speed readings before smoothing: readings it
    /// overrules as a placeholder (a column of zeros under a track that keeps going,
    /// ``Tracker/overruledSpeedReadings(in:profile:)``) are left out, as if the fixes had none. Default: the
    /// profile the options were made for (a reviewer's 7,800 m drive under a column of zeros read 0 m ± 7,183 m,
    /// the zeros taken as a standing receiver's; now 7,819.4 ± 162.0 m, the zeros at its halts still believed;
    /// without the column 7,983.1 m). The same profile's tracker says which readings it trusts, and those judge
    /// the white-part track (``SmoothedTrack/speedReadingsCheck``). `nil` takes every reading as a measurement and
    /// judges nothing.
    public var speedReadingCheck: TrackingProfile?
    /// A Doppler speed above this is ignored, metres per second. From
    /// ``TrackingProfile/maximumSpeedMetresPerSecond``.
    public var maximumSpeedMetresPerSecond: Double
    /// The Doppler speed accuracy (1σ) assumed when a fix reports none, m/s. From
    /// ``TrackingProfile/assumedSpeedAccuracyMetresPerSecond``.
    public var assumedSpeedAccuracyMetresPerSecond: Double
    /// The course accuracy (1σ) assumed when a fix reports none, degrees. From
    /// ``TrackingProfile/assumedCourseAccuracyDegrees``.
    public var assumedCourseAccuracyDegrees: Double
    /// A Doppler speed below this without a course is a zero-velocity measurement, m/s (a receiver at rest
    /// reports no course). From ``TrackingProfile/deadbandMetresPerSecond``.
    public var stillSpeedMetresPerSecond: Double
    /// The robust loss. Default ``RobustLoss/standard``.
    public var loss: RobustLoss
    /// The most IRLS iterations (least-squares solves). Default 8: on the recordings the weights settle
    /// (change < ``weightTolerance``) in 3–6. Speeds without a course re-aim after every solve; a code reviewer
    /// measured a tester's rough walks settling in 3–12 solves, those at the cap 2.8 m at most from where they
    /// settle.
    public var maximumIterations: Int
    /// A weight that changed by more than this between iterations is still settling (see
    /// ``unsettledFraction``). Default 0.01.
    public var weightTolerance: Double
    /// IRLS stops once at most this fraction of the weights (positions and velocities) changed by more than
    /// ``weightTolerance`` in the last iteration (a speed without a course whose direction moved counts as
    /// one). Default 0.001: on a track of fewer than 1000 measurements
    /// no weight may move (the strict rule); on long tracks the largest change is always some fix near the
    /// loss's knee, and waiting for it cost the `smooth` benchmark 8 solves instead of 4 while moving the
    /// recordings' distances by less than a millimetre per kilometre.
    public var unsettledFraction: Double
    /// Whether the robust iterations start from weights that check each fix against its neighbours (see
    /// the module's `WarmStart`) instead of all 1. Default `true`: the same kind of answer in fewer solves.
    /// Has no effect with ``RobustLoss/quadratic``.
    public var warmStart: Bool
    /// The prior standard deviation of the first position of each segment about its first fix, metres.
    /// Default 10 km: weak enough to change nothing, strong enough to keep the system positive definite.
    public var initialPositionSigmaMetres: Double
    /// The prior standard deviation of the first velocity of each segment about zero, m/s. Default 100 m/s:
    /// every preset's speed ceiling (≤ 70 m/s) is within 1σ, so the prior biases a segment's first velocity
    /// by < 10⁻³ m/s on the tests' straight line, while keeping a lone or two-fix segment positive definite.
    public var initialVelocitySigmaMetresPerSecond: Double
    /// The solver. Default ``Solver/bandedCholesky``.
    public var solver: Solver
    /// The factor applied to every fix's reported accuracy (the position noise's σ), dimensionless.
    /// Default 1 (the accuracy as reported). With ``estimatesNoise`` it is the starting value.
    public var accuracyScale: Double
    /// The factor applied to every Doppler velocity's σ, dimensionless. Default 1. With ``estimatesNoise``
    /// it is the starting value.
    public var dopplerScale: Double
    /// Whether the accuracy scale, the Doppler scale and the acceleration noise σₐ are estimated from the
    /// track itself by expectation–maximisation (see ``NoiseEstimate``) instead of taken as given.
    /// Default `false`: the library answers with the profile's noise unless asked; `truetrack process
    /// --smooth` turns it on (`--fixed-noise` turns it off).
    public var estimatesNoise: Bool
    /// The most expectation–maximisation rounds (each one more least-squares solve) when ``estimatesNoise``.
    /// Default 12: on the recordings the parameters settle (every one moves < 1 % in a round) within that.
    public var maximumEstimationRounds: Int

    /// Whether the fixes are read a second time with their white part (one more solve, with the accuracies
    /// scaled to their epoch-to-epoch scatter, when that scatter is outside 1/√2 … √2 of the stated accuracy):
    /// the distance is then measured on that track and the difference from this one counts as 1σ
    /// (``SmoothedTrack/distanceModelDifferenceMetres``), unless the speed readings the forward filter trusts
    /// deny that track's extra length (``SmoothedTrack/speedReadingsCheck``: the distance is then this track's, and
    /// σ counts its disagreement with the readings instead, ``SmoothedTrack/distanceModelSigmaMetres``). Default
    /// `true`. Why: a length is made of the
    /// fix-to-fix shape, which only the white part of the error blurs, while the stated accuracy is mostly a
    /// slowly varying bias that makes the smoother cut a walk's corners (measured, `truetrack bench`: median
    /// |error| on the seven IPIN walks 10.2 % instead of 22.4 % with the stillness gate on both; GSDC drives
    /// +0.008 / +0.025 % instead of +0.001 / +0.014 %). The positions stay those of the stated accuracy: over
    /// the longer spans that weigh a position the bias does average out (GSDC p95 1.56 m vs 1.73 m raw).
    /// σ keeps the term as 1σ: the two readings are both defensible (`truetrack bench`: 10 of 10 moving
    /// recordings within ±2σ with it, 8 of 10 without).
    public var checksModelDependence: Bool
    /// The most draws of the fixes' stated noise that measure how much it lengthens the smoothed track (term 6
    /// of ``SmoothedTrack/distanceSigmaMetres``); 0 leaves the term out. Default 8. A track gets
    /// `min(noiseLengtheningDraws, max(1, 20,000 / states))` draws: a long track's sum over its many steps
    /// averages itself, and each draw costs two substitutions (about 370 instructions per fix with one draw: the
    /// `smooth` benchmark's 2 × 10⁵ fixes get one), while a short walk's figure would scatter with one.
    public var noiseLengtheningDraws: Int
    /// Whether a step between two states that both hold a Doppler velocity reading with a course (or a speed
    /// under ``stillSpeedMetresPerSecond``, read as at rest; at robust weight 0.5 or more) counts the length of
    /// the smoothed curve between them, the cubic Hermite curve of their smoothed positions and velocities (the
    /// module's `CurveLength`), instead of the straight chord, where the positions resolve the step's direction
    /// (a chord of 5 times its positions' noise or more) and the course column agrees with them. Default `true`.
    /// Why: the chord cuts every turn made between two fixes, and the cut grows with the square of the time
    /// between them. Measured (`tools/analysis/curve_thinned.py`), the u-blox F9K drive thinned to 10 / 15 s went
    /// −5.3 / −7.0 % → −3.0 / −3.4 % of the truth, the GSDC Pixel 4 −0.21 / −0.26 % → −0.04 / −0.04 %, the
    /// Pixel 6a −0.64 / −1.17 % → −0.23 / −0.29 % of its full-rate count; at 1 Hz (`truetrack bench`) the GSDC
    /// drives +0.008 / +0.022 % → +0.009 / +0.023 % of the truth. Not where the direction comes from the
    /// positions alone (no reading, or a speed without a course), nor on short steps under the positions' noise
    /// (walks, stops, parked receivers): the curve bent with the noise there.
    public var countsCurveBetweenVelocityReadings: Bool
    /// Whether a course column turned from the fixes' direction of travel by a constant angle is turned back before
    /// smoothing (the angle reported as ``SmoothedTrack/courseOffsetDegrees``). Default `true`. The angle is the
    /// median, over the readings at 5 m/s or faster (20 at least, among up to 3,000 velocity entries spread evenly over
    /// the track), of each reading's bearing less that of the chord between the fixes before and after it, where that
    /// chord is at least 5 times its noise and the track runs straight (the steps into and out of the fix within 10°);
    /// corrected when it is at least 5° and 80 % of the readings in each third of the track lie within 10° of it (an
    /// offset of part of the track is left as it is). Why: a magnetic course (10–25° from true in much of the world) or
    /// a receiver mounted askew passes the curve's course check (within 30°) and pulls every smoothed velocity
    /// sideways; good columns read within ±0.5° (the GSDC Pixel 4 −0.12°, the u-blox F9K −0.02°, the Pixel 6a +0.09°)
    /// and are left as they are. Measured on a reviewer's drives with an offset (`/tmp/review-s32/round2`, scratch): a
    /// highway with a course 20° off every 1 / 5 / 10 s +0.24 / +0.83 / +1.01 % → +0.03 / −0.02 / +0.00 % of the truth,
    /// a town drive 25° off every 1 / 5 s +1.34 / +1.53 % → +0.44 / −0.07 %, each what the same drive reads with its
    /// true course; of 1,626 other tracks none changed.
    public var correctsCourseOffset: Bool
    /// Stretches of the track further apart in time than this are separate recordings, seconds: the chord
    /// between them is not counted (nor left out as still or a ride) and adds no gap term to σ. Default: the
    /// profile's ``TrackingProfile/sessionBreakSeconds`` (an hour), after which the forward ``Tracker`` starts a
    /// recording afresh and never counts the chord; a day when that is 0. Why: a reviewer's two walks 23 hours
    /// and 4 km apart read 5,876.9 ± 111,749 m smoothed against 1,688 m forward with a day's break, and a GPS
    /// week rollover's 19.6-year jump gave σ ± 461,497,516 m before there was one. A pause of an hour or less
    /// keeps its chord and its σ (an hour's pause and 2.2 km further: counted, and widened by the gap term).
    public var recordingBreakSeconds: Double

    /// Which steps of the smoothed track count towards its distance (see ``StillnessGate``); `nil` counts
    /// every step (the plain length of the smoothed track). Default: the gate with the profile's
    /// net-displacement values, so a receiver at rest measures no distance here either.
    public var stillnessGate: StillnessGate?

    /// Which steps of the smoothed track moved like a vehicle and are left out of the distance (see
    /// ``VehicleGate``); `nil` leaves none out. Default: the gate with the profile's vehicle values
    /// (``TrackingProfile/maximumSustainedSpeedMetresPerSecond``, ``TrackingProfile/vehicleExitSeconds``, its
    /// `in vehicle` readings), so the walking and running profiles measure a day's walk without its rides and
    /// cycling leaves out what reads `in vehicle`, as the forward filter does; `nil` for driving (a car is the
    /// journey itself).
    public var vehicleGate: VehicleGate?

    /// The smallest per-axis variance a measurement is given, m² (or m²/s²): 10⁻⁶ (1 mm), so that an
    /// absurdly small reported accuracy cannot make the system singular.
    public static let minimumVariance = 1e-6

    /// Options matching a tracking profile (see each property for the value it takes).
    public init(profile: TrackingProfile = .walking) {
        accelerationSigma = profile.accelerationSigma
        accelerationSigmaWithoutDoppler = profile.accelerationSigmaWithoutDoppler
        maximumAccuracyMetres = profile.maximumAccuracyMetres
        assumedAccuracyMetres = profile.assumedAccuracyMetres
        gapSeconds = profile.filterResetGapSeconds
        usesDoppler = true
        speedReadingCheck = profile
        maximumSpeedMetresPerSecond = profile.maximumSpeedMetresPerSecond
        assumedSpeedAccuracyMetresPerSecond = profile.assumedSpeedAccuracyMetresPerSecond
        assumedCourseAccuracyDegrees = profile.assumedCourseAccuracyDegrees
        stillSpeedMetresPerSecond = profile.deadbandMetresPerSecond
        loss = .standard
        maximumIterations = 8
        weightTolerance = 0.01
        unsettledFraction = 0.001
        warmStart = true
        initialPositionSigmaMetres = 10_000
        initialVelocitySigmaMetresPerSecond = 100
        solver = .bandedCholesky
        accuracyScale = 1
        dopplerScale = 1
        estimatesNoise = false
        maximumEstimationRounds = 12
        checksModelDependence = true
        noiseLengtheningDraws = 8
        countsCurveBetweenVelocityReadings = true
        correctsCourseOffset = true
        recordingBreakSeconds = profile.sessionBreakSeconds > 0 ? profile.sessionBreakSeconds : 86_400
        stillnessGate = StillnessGate(profile: profile)
        vehicleGate = VehicleGate(profile: profile)
    }
}
