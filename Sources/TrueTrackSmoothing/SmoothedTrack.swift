import TrueTrackCore

/// One fix's smoothed position.
public struct SmoothedPoint: Sendable, Hashable {
    /// The fix's time, UTC.
    public var timestamp: Timestamp
    /// Smoothed latitude, degrees north (WGS-84).
    public var latitude: Double
    /// Smoothed longitude, degrees east (WGS-84).
    public var longitude: Double
    /// Smoothed east velocity, metres per second.
    public var velocityEastMetresPerSecond: Double
    /// Smoothed north velocity, metres per second.
    public var velocityNorthMetresPerSecond: Double
    /// Per-axis 1σ of the smoothed position, metres (from the diagonal of the smoothed covariance; the
    /// same for east and north because every noise in the model is isotropic).
    public var positionSigmaMetres: Double
    /// The robust weight (0…1) the fix's position ended with: near 0 for a fix the smoother treated as an
    /// outlier, 1 for one it trusted fully.
    public var weight: Double
    /// The index of the fix in the array given to ``WholeTrackSmoother/smooth(_:)``.
    public var fixIndex: Int
    /// Which segment (0-based) of the track the fix belongs to: a gap longer than
    /// ``SmoothingOptions/gapSeconds`` starts a new one.
    public var segment: Int

    /// Smoothed speed, metres per second.
    public var speedMetresPerSecond: Double {
        (velocityEastMetresPerSecond * velocityEastMetresPerSecond
            + velocityNorthMetresPerSecond * velocityNorthMetresPerSecond).squareRoot()
    }
}

/// The outcome of smoothing a whole track.
public struct SmoothedTrack: Sendable {
    /// One point per used fix, oldest first (fixes with the same time share a position). Fixes the accuracy
    /// gate left out (invalid accuracy, or above ``SmoothingOptions/maximumAccuracyMetres``) and fixes at
    /// 0° N 0° E (``Fix/isAtNullIsland``) have none.
    public var points: [SmoothedPoint]
    /// The length of the smoothed track: the sum of the steps between consecutive distinct smoothed positions on
    /// the WGS-84 ellipsoid (``Ellipsoid/shortStepLengthMetres(from:to:)``, ``Geodesic`` for long steps), metres, leaving out the steps the ``SmoothingOptions/stillnessGate`` finds still (see
    /// ``stillLengthMetres``) and those the ``SmoothingOptions/vehicleGate`` finds a ride's (see
    /// ``vehicleLengthMetres``), plus, between states with velocity readings, the curve beyond each step's
    /// straight line (see ``curveExcessMetres``), plus ``distanceModelDifferenceIncludedMetres``: the length is
    /// that of the track smoothed with the white part of the fixes' error (see
    /// ``SmoothingOptions/checksModelDependence``), unless the speed readings deny that track (``speedReadingsCheck``).
    /// Across a gap that splits the track the straight line is counted (a lower bound of the path travelled
    /// there), unless the vehicle gate gives it to a ride.
    public var distanceMetres: Double
    /// The length of the smoothed steps the ``StillnessGate`` left out of ``distanceMetres`` (a receiver at
    /// rest, whose fixes' wander the smoothed track still follows), metres, on the track ``distanceMetres`` is
    /// measured on (the white-part track when term 4 is computed and included); 0 without the gate.
    public var stillLengthMetres: Double = 0
    /// The straight lines across the runs of steps the ``StillnessGate`` left out, summed, metres (term 5 of
    /// ``distanceSigmaMetres``), on the same track as ``stillLengthMetres``: what a slow walk hidden in a
    /// still run would have covered, not the wander of the fixes there.
    public var stillChordMetres: Double = 0
    /// The length of the smoothed steps the ``SmoothingOptions/vehicleGate`` left out of ``distanceMetres``
    /// (rides: faster than the profile's traveller sustains, or read `in vehicle`), metres, on the same track
    /// as ``stillLengthMetres``; 0 without the gate. Not part of ``distanceSigmaMetres``: a ride is not an
    /// uncertain walk.
    public var vehicleLengthMetres: Double = 0
    /// How much longer than the chords between them the curves between states with measured velocities are,
    /// metres (see ``SmoothingOptions/countsCurveBetweenVelocityReadings``): the turns the fixes' straight lines
    /// would cut, included in ``distanceMetres`` and counted as term 7 of ``distanceSigmaMetres``; on the track
    /// ``distanceMetres`` is measured on (the white-part track when term 4 is computed and included, as for
    /// ``stillLengthMetres``: the length of ``points`` plus this plus ``distanceModelDifferenceMetres``
    /// then differs from ``distanceMetres`` by the two tracks' difference in curve, which term 4 holds). 0 when
    /// no step lies between two such states.
    public var curveExcessMetres: Double = 0
    /// The angle, degrees clockwise, by which the course readings were turned from the fixes' direction of travel
    /// and turned back before smoothing (see ``SmoothingOptions/correctsCourseOffset``); 0 when they were not.
    public var courseOffsetDegrees: Double = 0
    /// The 1σ uncertainty of ``distanceMetres``, metres: the root sum of squares of seven terms.
    ///
    /// 1. **White noise** (``distanceNoiseSigmaMetres``): propagated from the smoothed covariance to first
    ///    order, Var(D) = gᵀ Σ g, with g the gradient of the length with respect to every position (the
    ///    difference of the unit vectors of the two steps meeting there) and Σ the full posterior covariance
    ///    at the final robust weights (one forward substitution with the Cholesky factor, or the RTS
    ///    cross-covariance recursion). It assumes the model: independent fix errors of the stated accuracy.
    /// 2. **Process model** (``distanceProcessSensitivityMetres`` × ``processDensityLogSigma``): the smoothed
    ///    length depends on the assumed acceleration noise — too little and corners are cut, too much and
    ///    noise is kept as wiggles. Its derivative with respect to ln q, dD/d ln q = gᵀ A⁻¹ A_proc x (one
    ///    more substitution with the same factor), times the 1σ spread of ln q.
    /// 3. **Gaps** (``distanceGapExcessMetres``): across a gap that splits the track the straight chord is
    ///    counted; the path could be as long as the gap's duration times the mean speed at its two ends (at
    ///    each, the smoothed speed, or the fix's Doppler reading where lower: a device that paused itself read
    ///    next to nothing as it stopped and set off, while the segment's end carries the model's momentum; at a
    ///    fix alone in its segment, whose velocity the model takes from its reading alone, the reading (one the
    ///    smoother uses: Doppler on, at most the speed ceiling), and without one the mean speed of the chords into
    ///    and out of it, a chord the stillness gate left out as 0; the chords too under a column of placeholder
    ///    zeros: every one of at least five lone fixes between two chords of 3 m/s or more reading under the
    ///    still speed, or five such fixes in a row, a column that dies partway). Between two lone fixes without
    ///    readings (or with placeholders) the chord also cuts whatever corners the vehicle turned between them: the
    ///    term adds the mean excess of one corner anywhere along the step, turning by half the turns of the chords
    ///    at its two ends (at most 120°; see
    ///    ``WholeTrackSmoother/cornerExcessRatio(turning:)``). The
    ///    excess over the chord is one-sided, so the gaps' excesses add linearly into one term. A gap the vehicle
    ///    gate gives to a ride adds nothing (its chord is not counted either). A jump of one fix read at rest
    ///    that the stillness gate left out although it lasted longer than
    ///    ``StillnessGate/restingJumpSeconds`` adds its chords out and back: readings at three instants cannot
    ///    rule out an errand (a reviewer's errands every 60–300 s, 29 → 32 of 32 within ±2σ; a van parked 8 h
    ///    with such jumps now reads about 0 ± 4 km).
    ///
    /// 4. **Model** (``distanceModelDifferenceMetres``, with ``SmoothingOptions/checksModelDependence``): the
    ///    reported accuracy describes a phone's whole error, mostly a slowly varying bias, while the
    ///    white-noise model needs the part that changes from fix to fix. The track is smoothed once more with
    ///    the accuracies scaled to that part (``whiteAccuracyScale``, measured from the fixes' epoch-to-epoch
    ///    scatter about this track; its inliers keep their robust weights, its down-weighted fixes their
    ///    pull), and the distance is that track's length; the difference of the two lengths is the part of
    ///    the distance the noise model decides (corners cut, or noise kept as wiggles) and counts as 1σ.
    ///    Unless the speed readings the forward filter trusts deny that track (2026-12-05, ``speedReadingsCheck``):
    ///    where, over the steps between such readings, it is longer than the readings' own path and farther from it
    ///    than the reported track by more than twice the path's σ, it follows a wander of the fixes' slowly varying error that the
    ///    readings say is no motion, and the distance is the reported track's length; the term then counts as that
    ///    track's disagreement with the readings (``distanceModelSigmaMetres``;
    ///    ``distanceModelDifferenceIncludedMetres`` says which length was taken).
    ///    Not computed (0) when ``whiteAccuracyScale`` is within 1/√2 … √2: that is a change of ln q within
    ///    term 2's 1σ, which term 2 already covers to first order. Measured (`truetrack bench`): 3–4 m on the
    ///    40 km GSDC drives, where Doppler fixes the shape; 11–79 m on the IPIN walks.
    /// 5. **Stillness** (``stillChordMetres``): the straight line across each run of steps the ``StillnessGate``
    ///    left out counts as 1σ — a run judged still may hold a slow walk whose net displacement the fixes'
    ///    noise hides, and such a walk covers at least that line. Until 2026-12-01 the run's whole smoothed
    ///    length counted, the fixes' wander included: a phone on a desk for an hour read 0.0 ± 1,785 m and a
    ///    drive with stops ± 698 m for an error of 140 m (a tester's tracks).
    ///
    /// 6. **Noise lengthening** (``distanceNoiseLengtheningMetres``, 2026-12-02): a norm never cancels noise,
    ///    so the smoothed track, which keeps part of the fixes' noise as wiggles, is longer than the path it
    ///    estimates; terms 1 and 2 are first-order and centred and miss this. Draws of the stated noise, solved
    ///    with the factor of the track the noise is read on (the stated accuracy, scaled to the white part
    ///    whenever term 4 re-reads the fixes, also where the readings deny the white-part track's length: its
    ///    draws are of the part of the error that lengthens a track), measure how much it adds (one-sided, counted as 1σ, not
    ///    subtracted: the smoother also cuts corners, which shortens it, and on the IPIN walks, which it
    ///    already under-counts at departures, subtracting it moved the median |error| from 10.2 to 13.2 %).
    ///    A tester's white-noise walks without Doppler read +3.1 % (median) with σ 1.7 %, 0 of 20 within ±1σ; now
    ///    σ 4.1 %, 20 of 20.
    /// 7. **Curves** (``curveExcessMetres``, 2026-12-03): the length the curves between velocity readings add
    ///    to the chords counts as 1σ: it is what the motion model, not the fixes, says happened between them
    ///    (the recordings thinned to 10–19 s still read 0.04–4.7 % short with it,
    ///    `tools/analysis/curve_thinned.py`). The GSDC Pixel 4 thinned to 19 s read −0.24 % with σ 4.9 m (z −19.7);
    ///    with the term σ 144 m (z −0.7).
    /// 8. **Curves the model draws** (``distanceModelCurveMetres``, 2026-12-03): where term 7 does not count a
    ///    step's curve (no velocity readings at its two ends, a speed without a course, a chord too short to
    ///    resolve, or the curve option off) and the step lies inside a segment and lasts longer than
    ///    ``WholeTrackSmoother/modelCurveMinimumSeconds``, the excess of the curve between the *smoothed*
    ///    velocities over the chord, summed, counts as 1σ (under a course column term 7 rejected, whose readings
    ///    bent the velocities their own way, the curve between the positions' own centred directions); not added to the
    ///    distance (the smoothed velocities come from the same positions and under-turn). On a noisy track it
    ///    measures some of the noise too (no minimum chord: term 7's would leave out slow turns and switchbacks).
    ///    Recordings thinned without their speeds (`tools/analysis/curve_thinned.py … --strip`): the GSDC Pixel 4
    ///    every 10 / 15 / 20 s read −0.22 / −0.26 / −0.60 % with σ 0.01–0.02 % (z −11 … −42), now σ
    ///    0.13 / 0.19 / 0.36 % (z −1.7 / −1.4 / −1.7); the Pixel 6a drive (z −15 … −50 → −2.0 … −2.7).
    ///
    /// What σ does not cover: an accuracy the receiver understates (σ follows the stated accuracy, and the
    /// white-part reading of term 4 sees only the part of the error that changes from fix to fix), and the
    /// part of the corners a sparse track without course readings cuts that the smoothed velocities do not turn
    /// through (term 8 covers a third to two thirds of it on the thinned drives).
    ///
    /// Terms 1–3 and 8 are computed on the track of ``points`` (the first reading); term 4 is the step from it to
    /// the white-part track's length; terms 5 and 7 are measured on the track whose length is reported, term 6 on
    /// the white-part track whenever term 4 is computed (its draws are of the white part of the error, the part
    /// that lengthens a track).
    public var distanceSigmaMetres: Double
    /// The white-noise part of ``distanceSigmaMetres`` (term 1), metres.
    public var distanceNoiseSigmaMetres: Double = 0
    /// dD / d ln q: how much the distance changes per unit change of the logarithm of the process noise
    /// density (term 2), metres. Negative when more smoothing shortens the track.
    public var distanceProcessSensitivityMetres: Double = 0
    /// The summed excess of speed × duration over the chord across the gaps, with the chords of long jumps read
    /// at rest (term 3), metres.
    public var distanceGapExcessMetres: Double = 0
    /// The model term (term 4), metres, signed: the length of the track smoothed with the fixes' accuracy
    /// scaled by ``whiteAccuracyScale`` minus the length of ``points`` (positive when trusting the fixes more
    /// lengthens the track); included in ``distanceMetres`` as ``distanceModelDifferenceIncludedMetres`` says.
    /// 0 when ``SmoothingOptions/checksModelDependence`` is off or the white part is within 1/√2 … √2 of the
    /// accuracies in force (term 2 covers that range).
    public var distanceModelDifferenceMetres: Double = 0
    /// The part of ``distanceModelDifferenceMetres`` included in ``distanceMetres``, metres: all of it when the
    /// distance is the white-part track's length, 0 when it is the length of ``points`` — no model term, or one
    /// the trusted speed readings denied (``speedReadingsCheck``: the white-part track follows a wander of the fixes'
    /// error that the readings say is no motion; a tester's walks with honest readings under a Gauss–Markov error
    /// read +6 … +42 % on the white-part track). A track smoothed in pieces sums its pieces'. The length of ``points`` plus this, plus the curves (``curveExcessMetres``), is about
    /// ``distanceMetres``.
    public var distanceModelDifferenceIncludedMetres: Double = 0
    /// Term 4 as it counts in ``distanceSigmaMetres``, metres (≥ 0): |``distanceModelDifferenceMetres``|, or, where
    /// the trusted speed readings denied the white-part track (``speedReadingsCheck``), the reported track's
    /// disagreement with them (``SpeedReadingsCheck/modelSigmaMetres(modelDifferenceMetres:)``: over the compared
    /// steps, with their path's σ, plus the white-part excess where there were no readings). A track smoothed in
    /// pieces adds its pieces' differences with their signs (as ever), and a denied piece's term as its own.
    public var distanceModelSigmaMetres: Double = 0
    /// Over the steps between speed readings the forward filter trusts: the readings' own path and the lengths of
    /// the two tracks term 4 compares, which decided whether the distance is the white-part track's length (see
    /// ``SpeedReadingsCheck``). `nil` when not measured: no model term (or a second solve that failed or gave a
    /// non-finite length), Doppler off or no ``SmoothingOptions/speedReadingCheck`` profile, fewer than 30 such
    /// steps, or such steps covering less than half of the counted seconds inside segments (the forward filter
    /// distrusts the column: the positions decide). A track smoothed in pieces reports its largest piece's (each
    /// piece decides for itself; ``distanceModelDifferenceIncludedMetres`` sums what they included).
    public var speedReadingsCheck: SpeedReadingsCheck?
    /// How much the fixes' noise lengthens the smoothed track on average (term 6: the white-part track's whenever
    /// term 4 is computed), metres, ≥ 0 but for the
    /// sampling: the mean over draws of the stated noise (``SmoothingOptions/noiseLengtheningDraws``) of the
    /// length its smoothed effect adds. Not subtracted from ``distanceMetres``; 0 without draws.
    public var distanceNoiseLengtheningMetres: Double = 0
    /// The summed excess over their chords of the curves between the smoothed velocities at the two ends of the
    /// steps whose readings' curve term 7 does not count (term 8), metres, ≥ 0. Not included in ``distanceMetres``.
    public var distanceModelCurveMetres: Double = 0
    /// The factor on the accuracies in force that matches the fixes' epoch-to-epoch scatter about the
    /// smoothed track (the white part of their error; term 4), dimensionless, within
    /// ``NoiseEstimate/factorRange``: ≈ 1 for honest white noise, ≪ 1 for a slowly varying error. 1 when not
    /// measured.
    public var whiteAccuracyScale: Double = 1

    /// The 1σ spread of ln q assumed for term 2 of ``distanceSigmaMetres``: ln 2, i.e. the profile's
    /// acceleration noise σₐ is right to within a factor √2 (1σ) — the profiles' σₐ are round figures
    /// chosen for a class of movement (walking 1 m/s², running and cycling 2, driving 8), not fitted to a recording.
    public static let processDensityLogSigma = 0.6931471805599453

    /// The noise parameters the track was computed with (estimated from it with
    /// ``SmoothingOptions/estimatesNoise``).
    public var noise = NoiseEstimate(
        accuracyScale: 1, dopplerScale: 1, accelerationSigma: 0, rounds: 0,
        isEstimated: false)
    /// Least-squares solves performed (1 with ``RobustLoss/quadratic``).
    public var iterations: Int
    /// Segments the track was split into.
    public var segmentCount: Int
    /// Fixes the accuracy gate left out, and fixes at 0° N 0° E (``Fix/isAtNullIsland``).
    public var excludedFixCount: Int
    /// The solver that produced the track (the banded solver falls back to RTS if LAPACK ever reports the
    /// system not positive definite, which exact arithmetic rules out).
    public var solver: SmoothingOptions.Solver

    /// Stores the distance's uncertainty terms and ``distanceSigmaMetres``, their sum in quadrature (one formula
    /// for a track and for one smoothed in pieces): the white noise (``distanceNoiseSigmaMetres``), the process
    /// noise's (``distanceProcessSensitivityMetres`` × ``processDensityLogSigma``), the gaps, the model difference,
    /// the still runs' chords, the noise lengthening, the curve between readings (``curveExcessMetres``) and the
    /// model's curves.
    /// Term 4 counts as `modelSigma` (``distanceModelSigmaMetres``), by default |`modelDifference`|.
    mutating func setDistanceTerms(
        noiseSigma: Double, processSensitivity: Double, gapExcess: Double, modelDifference: Double,
        modelSigma: Double? = nil, stillChord: Double, lengthening: Double, curve: Double, modelCurve: Double
    ) {
        distanceNoiseSigmaMetres = noiseSigma
        distanceProcessSensitivityMetres = processSensitivity
        distanceGapExcessMetres = gapExcess
        distanceModelDifferenceMetres = modelDifference
        let modelSigma = modelSigma ?? abs(modelDifference)
        distanceModelSigmaMetres = modelSigma
        stillChordMetres = stillChord
        distanceNoiseLengtheningMetres = lengthening
        curveExcessMetres = curve
        distanceModelCurveMetres = modelCurve
        let processSigma = abs(processSensitivity) * Self.processDensityLogSigma
        let variance = noiseSigma * noiseSigma + processSigma * processSigma + gapExcess * gapExcess
        distanceSigmaMetres =
            (variance + modelSigma * modelSigma + stillChord * stillChord + lengthening * lengthening
            + curve * curve + modelCurve * modelCurve)
            .squareRoot()
    }

    /// Term 4's two tracks against the speed readings the forward filter trusts, over the steps between two such
    /// readings (``SmoothedTrack/speedReadingsCheck``).
    public struct SpeedReadingsCheck: Sendable, Hashable, Codable {
        /// The readings' own path over those steps, metres: the trapezoid of their speeds over each step's seconds.
        public var readingsMetres: Double
        /// The standard deviation of ``readingsMetres``, metres: each reading's speed σ (its own accuracy, or the
        /// profile's assumed one) times the seconds it stands for, in quadrature.
        public var readingsSigmaMetres: Double
        /// The length of the reported track (``SmoothedTrack/points``) over those steps, metres (chords, and the
        /// curves between velocity readings that the distance counts).
        public var reportedTrackMetres: Double
        /// The length of the white-part track (term 4's second reading) over those steps, metres.
        public var whitePartTrackMetres: Double

        /// Creates a comparison from its lengths.
        public init(
            readingsMetres: Double, readingsSigmaMetres: Double, reportedTrackMetres: Double,
            whitePartTrackMetres: Double
        ) {
            self.readingsMetres = readingsMetres
            self.readingsSigmaMetres = readingsSigmaMetres
            self.reportedTrackMetres = reportedTrackMetres
            self.whitePartTrackMetres = whitePartTrackMetres
        }

        /// How many ``readingsSigmaMetres`` make a difference from the readings' path: 2, so that readings which
        /// integrate short by chance (481 readings of σ 0.4 m/s every 5 s read 2.0 % short, 1.5σ of their noise: a
        /// tester's) do not deny a right track.
        public static let deniedSigmas = 2.0

        /// Whether the readings deny the white-part track: it is longer than their path, and farther from it than
        /// the reported track (either way) by more than ``deniedSigmas`` times the path's σ. Then its extra length
        /// is a wander of the fixes' error, not motion, and the distance is the reported track's length: of two
        /// defensible readings of the fixes, the one the readings side with. (Readings that agree with neither
        /// track still side with the nearer: the Garmin Oregon's speed column, 4.2 % under the reported track and
        /// 5.5 % under the white-part one, takes the reported track, which moves the distance towards the forward
        /// filter's.)
        public var deniesWhitePart: Bool {
            whitePartTrackMetres - readingsMetres - abs(reportedTrackMetres - readingsMetres)
                > Self.deniedSigmas * readingsSigmaMetres
        }

        /// Term 4 as σ counts it where the readings deny the white-part track (``deniesWhitePart``), metres: the
        /// reported track's disagreement with the readings over the compared steps, in quadrature with their path's
        /// σ, plus the white-part track's excess where there were no readings to compare — `modelDifferenceMetres`
        /// (the whole excess, ``SmoothedTrack/distanceModelDifferenceMetres``) less the part over the compared
        /// steps, at least 0.
        public func modelSigmaMetres(modelDifferenceMetres: Double) -> Double {
            let disagreement = reportedTrackMetres - readingsMetres
            let compared = (disagreement * disagreement + readingsSigmaMetres * readingsSigmaMetres).squareRoot()
            return compared + max(0, modelDifferenceMetres - (whitePartTrackMetres - reportedTrackMetres))
        }
    }

    /// An empty track (no usable fix).
    public static let empty = SmoothedTrack(
        points: [], distanceMetres: 0, distanceSigmaMetres: 0, iterations: 0, segmentCount: 0,
        excludedFixCount: 0, solver: .bandedCholesky)
}
