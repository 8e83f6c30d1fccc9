/// The accuracy gate: which fixes are precise enough to use, and what a missing accuracy stands for.
public enum AccuracyGate {
    /// The gate's verdict on one fix.
    public enum Verdict: Sendable, Hashable {
        /// Use the fix with this accuracy (metres, a 68 % radius); `isAssumed` when the fix reported none and
        /// the profile's ``TrackingProfile/assumedAccuracyMetres`` stands in.
        case accepted(metres: Double, isAssumed: Bool)
        /// The fix's accuracy is invalid (≤ 0, NaN, infinite) or worse than the profile admits.
        case rejected
    }

    /// Judges a reported accuracy: invalid → rejected; above ``TrackingProfile/maximumAccuracyMetres`` →
    /// rejected; absent → accepted with the assumed value, flagged.
    @inlinable
    public static func evaluate(_ accuracy: HorizontalAccuracy, profile: TrackingProfile) -> Verdict {
        switch accuracy {
        case .metres(let m):
            return m <= profile.maximumAccuracyMetres ? .accepted(metres: m, isAssumed: false) : .rejected
        case .absent:
            return .accepted(metres: profile.assumedAccuracyMetres, isAssumed: true)
        case .invalid:
            return .rejected
        }
    }
}

/// Converts a reported horizontal accuracy into the filter's measurement noise.
public enum MeasurementNoise {
    /// The ratio between a 68 % horizontal radius and the per-axis standard deviation of a circular 2-D
    /// Gaussian: P(‖e‖ ≤ ρ) = 1 − exp(−ρ²/2σ²) = 0.68 gives ρ = σ·√(−2 ln 0.32) = 1.50959 σ. (A 1-D
    /// "1σ" reading of the radius would overstate σ by 51 %.)
    public static let radius68PerSigma = 1.509_592_185_451_663_4

    /// The per-axis standard deviation (metres) of a fix reporting a 68 % radius of `radius` metres.
    @inlinable
    public static func perAxisSigma(radius68 radius: Double) -> Double { radius / radius68PerSigma }

    /// The per-axis variance (m²) of a fix reporting a 68 % radius of `radius` metres.
    @inlinable
    public static func perAxisVariance(radius68 radius: Double) -> Double {
        let s = radius / radius68PerSigma
        return s * s
    }

    /// The per-axis variance (m²/s²) of a velocity measured as a Doppler speed `speed` (m/s) with standard
    /// deviation `speedSigma` along the track and a course with standard deviation `courseSigmaDegrees`
    /// across it. The across-track error is `speed · σ_course` (radians); the filter takes the larger of the
    /// two as an isotropic variance, a conservative circle around the error ellipse. A σ so large that its
    /// square would overflow (a reported 1e155 m/s) gives the largest finite variance instead: a measurement
    /// that says nothing, which an update then barely moves (as +∞, the update's 0 · ∞ made the state NaN).
    @inlinable
    public static func velocityVariance(speed: Double, speedSigma: Double, courseSigmaDegrees: Double) -> Double {
        let across = speed * courseSigmaDegrees * .pi / 180
        let m = min(max(speedSigma, across), 1.3e154)  // (1.3e154)² < Double.greatestFiniteMagnitude
        return m * m
    }
}

/// The course check: whether a session's course column points where its fixes travel.
///
/// ## Why
/// A trusted Doppler speed with a course is a velocity measurement (the filter's step 5b). A course column in
/// another convention (counter-clockwise from east, as a math angle; the GSDC 2021 truth's `BearingDegrees`),
/// turned by 90° or 180° (a logger mounted askew, a "heading" of the rear) pulls every velocity sideways: the
/// filter's prediction then misses every fix, and the outlier gate refuses them. The GSDC Pixel 4 drive with its
/// course written as a math angle counted 1,256 m of 40,137 (1,011 fixes refused), turned 180° 1,120 m, silently.
/// The check compares each course read at ``minimumSpeedMetresPerSecond`` or more with the direction of the
/// position filter (fixes alone, no Doppler): a run of disagreements marks the column wrong
/// (``Tracker/readsCourseWrong``) and its courses are then left out, as a fix without a course is (the speeds
/// still count).
public enum CourseCheck {
    /// The slowest reading compared, m/s: 5, as the smoother's course-offset estimate (below it a receiver's course
    /// scatters with its noise, a walker's by ± 30–90°, and positions move too little between fixes to give a
    /// direction). A walker's wrong column costs nothing measurable (the Pixel 6 walk, its course turned by 90°,
    /// 180° or written as a math angle: 603.4 m each time).
    public static let minimumSpeedMetresPerSecond = 5.0
    /// The position filter's speed must be at least this share of the reading, 0.5, for its direction to be compared:
    /// slower, it is still catching up (after an anchor, a halt) and points anywhere.
    public static let minimumPositionSpeedShare = 0.5
    /// How many more disagreements than agreements, counted in a row of comparisons (each agreement takes one
    /// back, never below zero), mark the column wrong: 6. A good column's corners add two or three, which the
    /// straight after them takes back; a wrong one's add up within seconds.
    public static let disagreementsToDistrust: Int8 = 6
    /// The most disagreements kept, 12: a column shown wrong for a long time is trusted again after as many
    /// agreements, a column right again (a logger that switched its source) within a dozen fixes of it.
    public static let maximumDisagreements: Int8 = 12

    /// The largest angle between the course and the position filter's direction that agrees, 45°, as its cosine
    /// squared (½), what ``agrees(sinCourse:cosCourse:east:north:)`` compares with. In a corner the position filter
    /// lags the course by a few tens of degrees for a fix or two; a wrong convention is off by 90° or more except
    /// where the two conventions meet.
    public static let agreementCosineSquared = 0.5

    /// Whether a course whose unit vector is (`sinCourse`, `cosCourse`) (east, north) agrees with a position
    /// filter's velocity (`east`, `north`, m/s): within 45° (``agreementCosineSquared``: dot ≥ |v| cos 45°, squared).
    @inlinable
    public static func agrees(sinCourse: Double, cosCourse: Double, east: Double, north: Double) -> Bool {
        let dot = east * sinCourse + north * cosCourse
        return dot > 0 && dot * dot >= agreementCosineSquared * (east * east + north * north)
    }
}

/// Whether the speed readings are far slower, or far faster, than the fixes travel (a speed column in another
/// unit: m/s values read as km/h, 0.28 ×; km/h read as m/s, 3.6 ×): judged span by span, the chord between the
/// first and last accepted fix of a span of at least ``spanSeconds`` against the readings' mean over it, as
/// ``CourseCheck`` judges the course. Readings shown slow or fast are left out (no velocity measurement, not trusted
/// for the distance: the position filter's speed counts); without this, a ride at 8 m/s whose course-carrying
/// readings said 1.6 m/s had its velocity pinned at 1.6 m/s, every fix ahead of it failed the outlier gate, every
/// third re-anchored the filter, and no window or chord ever filled to show the column slow: 0 m of 5 km. A km/h column read as m/s at 15–30 m/s did the same from
/// the other side (the filter pinned ahead of every fix): its spans end at the re-anchors
/// (``Tracker/judgeSpeedSpan(east:north:accuracy:now:reanchorReading:)``).
public enum SpeedCheck {
    /// The shortest span judged, seconds: 10. Over it a wrong unit's shortfall (a ride at 8 m/s read at 1.6–2.2
    /// m/s: 58–64 m) is far beyond the noise of fixes stating 5 m.
    public static let spanSeconds = 10.0
    /// The longest of the shortest spans, begun at the coarsest fixes, seconds: 25.
    public static let coarseSpanSeconds = 25.0
    /// The shortest span begun at a fix of `accuracy` metres, milliseconds: ``spanSeconds``, or two seconds per metre
    /// of stated accuracy up to ``coarseSpanSeconds``. The allowance (2 × the two accuracies) over a 10 s span is
    /// 0.4 × the accuracy in m/s, so with 10 s spans a ride at 8 m/s whose column read 0.28 × was not shown slow
    /// under fixes stating 8 m or more (a reviewer's sweep: 1,200 m of 4,800 at 8 m); with spans growing with the
    /// accuracy a 0.28 × column is shown slow from about 6.7 m/s up to 12.5 m (4,805–4,817 m under 5–12 m fixes).
    @inlinable
    public static func spanMilliseconds(accuracy: Double) -> Int64 {
        Int64(max(spanSeconds, min(2 * accuracy, coarseSpanSeconds)) * 1000)
    }
    /// The longest span judged, seconds: 30. A longer one crosses a gap, whose chord says nothing of the readings.
    public static let maximumSpanSeconds = 30.0
    /// How many times the readings' mean the chord's speed (less the noise allowance) must be for the span to read
    /// slow: 2.5. A unit read wrong is off by 3.6 (km/h) or more; honest readings, by the chord's noise.
    public static let slowFactor = 2.5
    /// The slowest chord speed (less the allowance) that can show readings slow, m/s: 4. Above a walk, so a
    /// walker's readings are never judged on position noise (a tester's walker every 3 s under 5.4 m of white
    /// noise, stated as 3 m, read +136 % when a position filter's speed judged them).
    public static let minimumChordSpeedMetresPerSecond = 4.0
    /// The span agrees with the readings when its chord's speed (less the allowance) is at most this many times
    /// their mean: 1.5.
    public static let agreementFactor = 1.5
    /// The widest turn between two slow spans' chords that still counts as steady progress, as its cosine: 0.5
    /// (60°; a road's corner can take the next span a few tens of degrees off, a multipath excursion's way back
    /// points about 180° from its way out).
    public static let continuationCosine = 0.5
    /// Slow (or fast) spans, less agreeing ones, in a row that show the readings slow (fast), each after one of the
    /// same kind heading the same way (``continues(_:_:)``): 3, so four spans of steady progress (40 s at 1 Hz). A
    /// multipath excursion makes its span
    /// out and its span back slow, but they point opposite ways: none counts. (Counting every slow span, a
    /// tester's crawling vehicles with a multipath jump every few minutes lost their right readings for 20–36 s
    /// per jump and counted the jumps: +0.7 → +44.5 %, 67 of 80 heavy-multipath crawls worse; with 2 such
    /// counts the heaviest multipath, 2–4 jumps a minute, still chained by chance.)
    public static let disagreementsToDistrust: Int8 = 3
    /// Whether a span's chord `chord` (east, north; metres) heads within 60° of the span's before it, `previous`
    /// (``continuationCosine``).
    @inlinable
    public static func continues(_ chord: SIMD2<Double>, _ previous: SIMD2<Double>) -> Bool {
        let dot = (chord * previous).sum()
        return dot > 0
            && dot * dot >= continuationCosine * continuationCosine * (chord * chord).sum()
                * (previous * previous).sum()
    }
    /// The most slow or fast spans kept: 4 (a column shown wrong is believed again after as many agreeing spans).
    public static let maximumDisagreements: Int8 = 4
    /// The readings' mean must be more than this many times the chord's speed, with the noise allowance added, for
    /// the span to read fast: 2.5, as ``slowFactor``. km/h read as m/s is 3.6 ×. Honest readings exceed their
    /// span's chord too, in steady progress, where the positions lag (a tunnel, an urban canyon) or the road turns
    /// back within a span (hairpins): so a span shows them fast only across an outlier re-anchor
    /// (``Tracker/judgeSpeedSpan(east:north:accuracy:now:reanchorReading:)``), where readings that fast refuse the
    /// fixes; elsewhere such a span agrees, as before (a reviewer's lagging drives and hairpin rides).
    public static let fastFactor = 2.5
    /// The slowest mean reading that can show the readings fast, m/s: 4 (above a walk, as
    /// ``minimumChordSpeedMetresPerSecond``).
    public static let minimumFastReadingMetresPerSecond = 4.0
    /// ``vote(chordMetres:seconds:startAccuracy:endAccuracy:meanReadingMetresPerSecond:deadband:)``'s votes: the
    /// readings far slower than the chord (1), far faster (2).
    public static let slowVote: Int8 = 1
    public static let fastVote: Int8 = 2

    /// The verdict on one span: its chord (`chordMetres`, between fixes of accuracy `startAccuracy` and
    /// `endAccuracy`, metres), its duration (`seconds`) and the readings' mean over it (m/s). ``slowVote`` (1),
    /// ``fastVote`` (2), −1 agrees, 0 neither. The chord is discounted by twice the two accuracies (a fix's noise at
    /// either end) to show the readings slow, lengthened by as much to show them fast. Readings under
    /// the `deadband` (m/s) vote neither way: a column of zeros under a moving track is ``ContradictedReadings``' to
    /// judge, a parked receiver's zeros under multipath jumps are right, and a halt agrees with any unit (a
    /// tester's drive at 0.28 × was believed again at each stop, and its shortfall counted twice).
    @inlinable
    public static func vote(
        chordMetres: Double, seconds: Double, startAccuracy: Double, endAccuracy: Double,
        meanReadingMetresPerSecond reading: Double, deadband: Double
    ) -> Int8 {
        let speed = (chordMetres - 2 * (startAccuracy + endAccuracy)) / seconds
        guard reading >= deadband else { return 0 }
        if speed > max(slowFactor * reading, minimumChordSpeedMetresPerSecond) { return slowVote }
        let longest = (chordMetres + 2 * (startAccuracy + endAccuracy)) / seconds
        if reading > max(fastFactor * longest, minimumFastReadingMetresPerSecond) { return fastVote }
        return speed <= agreementFactor * reading ? -1 : 0
    }
}

/// The speed gate: the speed a fix moves at, where it comes from, and whether it is plausible.
public enum SpeedGate {
    /// The speed a fix claims: its Doppler speed when present (``SpeedSource/doppler``), else the speed
    /// derived from its displacement from the last accepted fix (``SpeedSource/derived``).
    ///
    /// The derived speed discounts the two fixes' combined accuracy: (d − √(a₁² + a₂²))⁺ / dt, so that a fix
    /// that moved no farther than its reported error is not "speeding" (that is the outlier gate's job);
    /// `dt ≤ 0` never divides (the speed is then 0 when within the accuracy, else infinite).
    ///
    /// - Parameters:
    ///   - doppler: the fix's Doppler speed, m/s, or `nil`.
    ///   - displacementMetres: the distance from the last accepted fix, metres.
    ///   - seconds: the time since the last accepted fix.
    ///   - accuracy, previousAccuracy: the two fixes' 68 % radii, metres.
    @inlinable
    public static func speed(
        doppler: Double?, displacementMetres d: Double, seconds dt: Double, accuracy: Double,
        previousAccuracy: Double
    ) -> (metresPerSecond: Double, source: SpeedSource) {
        if let doppler { return (doppler, .doppler) }
        let excess = d - (accuracy * accuracy + previousAccuracy * previousAccuracy).squareRoot()
        if excess <= 0 { return (0, .derived) }
        return (dt > 0 ? excess / dt : .infinity, .derived)
    }

    /// True when `speed` (m/s) is within the profile's ceiling.
    @inlinable
    public static func passes(_ speed: Double, profile: TrackingProfile) -> Bool {
        speed <= profile.maximumSpeedMetresPerSecond
    }
}

/// The net-displacement gate: distance accrues only while the filtered track has moved, over the trailing
/// window, farther than its noise could carry it.
///
/// A path length grows with every wobble; a net displacement does not. A still receiver's error is
/// correlated in time (it drifts rather than jumps), so over ``TrackingProfile/windowSeconds`` its filtered
/// position moves by less than its reported 68 % radius, while anyone moving at walking pace covers more.
/// Increments held back while the gate is closed are released when it opens within the window, so the
/// first metres of a walk are not lost.
public enum NetDisplacementGate {
    /// The threshold in metres for a mean reported accuracy of `meanAccuracy` metres over the window:
    /// `base + factor × meanAccuracy`.
    @inlinable
    public static func threshold(meanAccuracy: Double, profile: TrackingProfile) -> Double {
        profile.netDisplacementBaseMetres + profile.netDisplacementAccuracyFactor * meanAccuracy
    }

    /// The least net displacement (metres) that the filtered track's own noise does not explain:
    /// ``TrackingProfile/netDisplacementNoiseSigmas`` × √(2 `positionVariance`), the per-axis spread of the
    /// difference of two filtered positions each of per-axis variance `positionVariance` (m²).
    ///
    /// The tracker raises its threshold to this floor when the net displacement decides (too little Doppler in
    /// the window), with the filter's position variance scaled to the white noise the fixes show
    /// (``WhiteNoiseEstimate``; the filter's own variance follows the accuracy it was given, reported or assumed).
    /// It is below the accuracy threshold for a receiver whose error drifts or whose fixes are exact, and above
    /// it for one whose error is white noise.
    @inlinable
    public static func noiseFloor(positionVariance: Double, profile: TrackingProfile) -> Double {
        noiseFloor(positionVariance: positionVariance, sigmas: profile.netDisplacementNoiseSigmas)
    }

    /// `sigmas` × √(2 `positionVariance`): the spread of the difference of two positions each of per-axis variance
    /// `positionVariance` (m²), in metres. The dense floor takes the profile's
    /// ``TrackingProfile/netDisplacementNoiseSigmas``, a sparse step ``WhiteNoiseEstimate/sparseThresholdSigmas``.
    @inlinable
    public static func noiseFloor(positionVariance: Double, sigmas: Double) -> Double {
        sigmas * (2 * max(positionVariance, 0)).squareRoot()
    }

    /// True when the net displacement (metres) exceeds the threshold (metres).
    @inlinable
    public static func isMoving(netDisplacement: Double, threshold: Double) -> Bool {
        netDisplacement > threshold
    }
}

/// The Doppler check: is the receiver's speed consistent with where its positions went?
///
/// Several phones (the Samsung A5 and S7 in `ipin2023-walk`) report speed 0 on 20–46 % of walking fixes and
/// about half the true speed on the rest, while their positions advance steadily. The check compares the
/// Doppler path (Σ Doppler speed × dt) with the path of a filter fed positions only (Σ its speed × dt):
/// - over the **session**, summed only while the receiver is moving (the tracker's motion verdict), once that
///   position path reaches ``TrackingProfile/dopplerEvidenceMetres``: a chipset's Doppler scale is a property
///   of the device, so the whole session's evidence decides (on the underground IPIN walks the trailing
///   window never gathers enough evidence, since the noise threshold is 15–30 m there);
/// - before that, over the trailing window, when the position path exceeds the net-displacement threshold.
///
/// Under the running and cycling profiles the session's position path is the position filter's chords of a
/// window span instead (``TrackingProfile/judgesDopplerByChords``): noise lengthens an integrated speed path,
/// and with their larger σₐ a good Doppler speed beside rough positions looked inconsistent.
///
/// The Doppler speed is not trusted while its path is shorter than ``TrackingProfile/dopplerTrustRatio``
/// times the position path: the position filter's speed is then used for distance and the Doppler velocity
/// is not fed to the output filter. A consistent receiver (the Pixel 4 of `gsdc2020-mtv1`: Doppler integral
/// within 0.1 m of truth over 40 km) passes at any speed.
///
/// Nor (the tracker asks ``readsTooFast(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)`` beside
/// this check), once the session's evidence is in, while its path is longer than the position filter's path
/// divided by that ratio: a speed column in km/h (3.6×), knots (1.94×) or mph (2.24×) read as m/s; the speed
/// gate then judges the speed derived from the displacement, since the reading would refuse every fix of a ride
/// faster than the ceiling's third. Under chords the position path for this is still the filter's integrated
/// path, not the chords: a route that doubles back has chords far shorter than its path (a code reviewer's
/// shuttle run read 4.2× its chords with good readings, and lost 19 %). Not over the trailing window before the
/// session's evidence: there the position filter still lags a start, and even at twice the bound the first
/// metres of the Pixel 6's NMEA walk went to it (−7 m). Measured on the recordings (`truetrack bench`): session
/// ratios 0.43–0.66 on the IPIN Samsungs, 0.91–1.12 on every other receiver, so the bound (1 / 0.7 ≈ 1.43)
/// leaves them all as they were. A scale error of ±15 % (a bike computer's wrong wheel size) lies inside the
/// positions' own error and is not caught. (Before the session has evidence, the tracker's speed gate sets aside a
/// reading far above what the positions moved: see `Tracker.speedGateIgnoringAWrongUnit`.)
public enum DopplerCheck {
    /// True when the Doppler speed can be trusted.
    ///
    /// - Parameters:
    ///   - dopplerPathMetres: Σ Doppler speed × dt over the window, metres.
    ///   - positionPathMetres: Σ position-filter speed × dt over the window, metres.
    ///   - thresholdMetres: the net-displacement threshold, metres.
    ///   - sessionDopplerPathMetres: Σ Doppler speed × dt over the session while moving, metres.
    ///   - sessionPositionPathMetres: Σ position-filter speed × dt over the session while moving, metres.
    @inlinable
    public static func isTrusted(
        dopplerPathMetres: Double, positionPathMetres: Double, thresholdMetres: Double,
        sessionDopplerPathMetres: Double, sessionPositionPathMetres: Double, profile: TrackingProfile
    ) -> Bool {
        if let verdict = sessionVerdict(
            sessionDopplerPathMetres: sessionDopplerPathMetres, sessionPositionPathMetres: sessionPositionPathMetres,
            profile: profile)
        {
            return verdict
        }
        guard positionPathMetres > thresholdMetres else { return true }
        return dopplerPathMetres >= profile.dopplerTrustRatio * positionPathMetres
    }

    /// The session's part of ``isTrusted(dopplerPathMetres:positionPathMetres:thresholdMetres:sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``:
    /// `nil` until the session's position path reaches ``TrackingProfile/dopplerEvidenceMetres`` (the trailing window
    /// decides then), else whether its Doppler path is at least ``TrackingProfile/dopplerTrustRatio`` × that path.
    @inlinable
    public static func sessionVerdict(
        sessionDopplerPathMetres: Double, sessionPositionPathMetres: Double, profile: TrackingProfile
    ) -> Bool? {
        guard sessionPositionPathMetres >= profile.dopplerEvidenceMetres else { return nil }
        return sessionDopplerPathMetres >= profile.dopplerTrustRatio * sessionPositionPathMetres
    }

    /// True when the position filter's speed runs more than ``jumpSpeedFactor`` times a Doppler `reading` above
    /// the deadband, plus ten deadbands, ahead of it: the filter follows a position jump, and the reading is
    /// believed whatever ``isTrusted(dopplerPathMetres:positionPathMetres:thresholdMetres:sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``
    /// says. A reading below the deadband (a dropout) never is.
    @inlinable
    public static func filterFollowsAJump(
        positionSpeedMetresPerSecond: Double, reading: Double, profile: TrackingProfile
    ) -> Bool {
        reading >= profile.deadbandMetresPerSecond
            && positionSpeedMetresPerSecond > jumpSpeedFactor * reading + 10 * profile.deadbandMetresPerSecond
    }

    /// A reading under this (m/s) while the receiver travels is a zero (``Tracker``'s evidence of a receiver that
    /// reports zero while moving): 0.05, far below any walker's speed and a noisy honest Doppler's spread about it.
    public static let zeroReadingMetresPerSecond = 0.05

    /// One in this many fixes read while moving may read zero and the receiver still be judged by chords
    /// (``Tracker``'s `judgedDopplerEvidence`): 50 (2 %). The IPIN Samsungs read zero on 8–17 % of their moving
    /// fixes; an honest Doppler of σ 0.2 m/s at a 0.5 m/s walk on 1.2 %, at 0.3 m/s on 10 %. More zeros are allowed
    /// once the chords themselves show the readings consistent
    /// (``chordsShowConsistentReadings(sums:moments:measuredChordMetres:shownBefore:profile:)``) and the scattered
    /// ones (between readings of motion, `Tracker`'s `scatteredZeroReadings`) stay within this share: a walker who
    /// halts every minute reads zero at each halt's first seconds.
    public static let zeroReadingShare = 50.0

    /// Whether chords of a window span show a receiver's readings consistent, so that on foot its zeros while the
    /// window says moving do not keep it from being judged by chords as long as they come in runs, not scattered
    /// between readings of motion (``Tracker``'s `judgedDopplerEvidence`, `scatteredZeroReadings`): their ratio
    /// (ΣD / ΣC) reaches ``TrackingProfile/dopplerConsistentRatio`` (once the chords have shown the readings
    /// consistent, `shownBefore`, it need not), its lower bound
    /// (``chordRatioLowerBound(sums:moments:)``) holds ``TrackingProfile/dopplerTrustRatio``, and the Doppler path
    /// is at most the chords *as measured* over the consistent ratio (1 / 0.9 ≈ 1.11).
    ///
    /// Why a bound at the trust ratio: what must not pass is a receiver that reads short (the Samsungs: 0.43–0.66 of
    /// their integrated paths), so the ratio must clear the trust ratio beyond its scatter; an honest walk's ratio
    /// under 4 m of noise is 0.97–1.0, and a bound at the consistent ratio took it 140–940 s (a halting walk of 30
    /// minutes read +6 … +47 % instead of +6 … +9 %). Why the point ratio only until the chords have shown it: kept
    /// from a first version whose bound itself had to reach 0.9, where an honest Gauss–Markov walk's bound wandered
    /// about it and flipped the evidence three times (+31.3 % against +23.8 % with it); dropped, an adversarial
    /// tester's Samsung-like walk with halts read +37.0 % instead of +26.0 % (2 others moved by 0.5 point, 3,325 of
    /// 3,328 identical). Why the upper limit: only chords as long as the readings' path vouch for its zeros; on a
    /// route that turns within a window span the chords are short of the path and hide the distance a dropout's zero
    /// leaves out (the simulator's winding walks with a quarter of the readings zero, read as halts: −10 … −20 %
    /// instead of within 8 %). As measured, because noise lengthens a chord and never shortens it, so a measured chord
    /// short of the readings is a turn; the chords freed of the noise are short wherever the stated accuracy
    /// overstates the scatter (a tester's walks stated at 10 m under 3 m of noise: ratios 1.22–1.26 so, 1.00–1.04 as
    /// measured; with the freed chords they lost the rule, +10 … +15 % instead of +1 … +4 %).
    ///
    /// - Parameters:
    ///   - sums: (ΣD, ΣC), metres: the chords' Doppler paths and lengths freed of the filter's noise.
    ///   - moments: (ΣD², ΣDC, ΣC², n), the second moments and the number of chords.
    ///   - measuredChordMetres: the chords' lengths as measured (filtered position to filtered position).
    ///   - shownBefore: whether the chords showed the readings consistent at an earlier chord's end.
    @inlinable
    public static func chordsShowConsistentReadings(
        sums: SIMD2<Double>, moments: SIMD4<Double>, measuredChordMetres: Double, shownBefore: Bool,
        profile: TrackingProfile
    ) -> Bool {
        // (The ratios first: the bound's square root only where they pass.)
        guard shownBefore || sums.x >= profile.dopplerConsistentRatio * sums.y,
            sums.x * profile.dopplerConsistentRatio <= measuredChordMetres,
            let lower = chordRatioLowerBound(sums: sums, moments: moments)
        else { return false }
        return lower >= profile.dopplerTrustRatio
    }

    /// The lower end of the Doppler-to-chord ratio that chords of a window span show: their summed Doppler path
    /// over their summed chord, less ``chordRatioSigmas`` standard errors of that ratio estimated from the chords'
    /// own scatter about it (`√(Σ(D − rC)² · n / (n − 1)) / ΣC`, the ratio estimator's); `nil` under
    /// ``minimumChordsForRatioBound`` chords, with no chord length (ΣC ≤ 0) or non-finite sums. (Consecutive chords
    /// share an end fix, which makes the chords' part of the scatter conservative; a Doppler error correlated over
    /// minutes goes the other way.)
    ///
    /// Why: an honest receiver that halts often reads zero while the window still says moving (a halt's first
    /// seconds), more than one fix in ``zeroReadingShare`` of them, and was judged by its noise-lengthened
    /// integrated path and distrusted (a tester's walks with halts of 10–40 s every 30–90 s under 3 m of noise
    /// +72 … +91 %). Its chords show its readings consistent (ratio 1.00–1.05 over hundreds of chords, the bound
    /// 0.90–0.99), while a receiver that reads zero in motion and half its speed otherwise shows a short ratio
    /// or a wide scatter (the IPIN Samsungs: ratio 0.51–0.80 on the ground-level walks; 0.68–1.24 over 7–9 chords
    /// underground, the bound at most 0.77).
    ///
    /// - Parameters:
    ///   - sums: (ΣD, ΣC), metres: the chords' Doppler paths and lengths.
    ///   - moments: (ΣD², ΣDC, ΣC², n), the second moments and the number of chords.
    @inlinable
    public static func chordRatioLowerBound(sums: SIMD2<Double>, moments: SIMD4<Double>) -> Double? {
        let count = moments.w
        guard count >= minimumChordsForRatioBound, sums.y > 0 else { return nil }
        let ratio = sums.x / sums.y
        let residualSquares = moments.x - 2 * ratio * moments.y + ratio * ratio * moments.z
        // (Non-finite sums, from a damaged state, prove nothing: `max(0, .nan)` is 0, no scatter at all.)
        guard residualSquares.isFinite else { return nil }
        let standardError = (max(0, residualSquares) * count / (count - 1)).squareRoot() / sums.y
        return ratio - chordRatioSigmas * standardError
    }

    /// See ``chordRatioLowerBound(sums:moments:)``: 5 chords (about 100 s of walking). Why: the scatter of fewer
    /// is itself too uncertain to bound anything (two or three chords can agree by chance), and an honest walk
    /// reaches five in its first minutes (a tester's walks with frequent halts: 110–140 s).
    public static let minimumChordsForRatioBound = 5.0

    /// See ``chordRatioLowerBound(sums:moments:)``: 2 standard errors (one-sided, about 98 %): a chance agreement
    /// of a short receiver's few chords must not pass for consistency.
    public static let chordRatioSigmas = 2.0

    /// See ``filterFollowsAJump(positionSpeedMetresPerSecond:reading:profile:)``: 2. A receiver that reads low
    /// reads about half its speed (the IPIN Samsungs' session ratios 0.43–0.66), not less; a filter speed far
    /// above that follows a jump (a fleet tester's 210 m multipath fix at 10 s: 57 m/s counted under a reading
    /// of 13.75 m/s, 570 m in one step).
    public static let jumpSpeedFactor = 2.0

    /// True when the session's evidence is in and its Doppler path exceeds the position path divided by
    /// ``TrackingProfile/dopplerTrustRatio``: the speed is in another unit, or scaled (see the type's
    /// documentation). The speed gate then judges the derived speed instead of the reading.
    @inlinable
    public static func readsTooFast(
        sessionDopplerPathMetres: Double, sessionPositionPathMetres: Double, profile: TrackingProfile
    ) -> Bool {
        sessionPositionPathMetres >= profile.dopplerEvidenceMetres
            && profile.dopplerTrustRatio * sessionDopplerPathMetres > sessionPositionPathMetres
    }
}

/// The motion-activity gate: what the device's activity recogniser says, in three states.
public enum MotionGate {
    /// A tri-state motion verdict: only a confident reading is an answer; "uncertain" is not "still".
    public enum Verdict: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
        /// A confident reading of ``ActivityKind/still``.
        case still
        /// A confident reading of a moving activity.
        case moving
        /// No reading, a stale one, a low-confidence one, or ``ActivityKind/unknown``.
        case uncertain
    }

    /// The verdict of a reading taken `age` seconds ago.
    @inlinable
    public static func verdict(_ reading: ActivityReading?, ageSeconds age: Double, profile: TrackingProfile)
        -> Verdict
    {
        guard let reading, age >= 0, age <= profile.activityValiditySeconds,
            Int(reading.confidence) >= profile.activityConfidenceThreshold
        else { return .uncertain }
        switch reading.kind {
        case .still: return .still
        case .unknown: return .uncertain
        default: return .moving
        }
    }

    /// True when the reading (taken `age` seconds ago) confidently names an activity the profile excludes
    /// from its distance.
    @inlinable
    public static func excludes(_ reading: ActivityReading?, ageSeconds age: Double, profile: TrackingProfile)
        -> Bool
    {
        guard let reading, verdict(reading, ageSeconds: age, profile: profile) != .uncertain else { return false }
        return profile.excludedActivities.contains(reading.kind)
    }
}

/// The distance one fix adds by integrating a speed: `min(speed, ceiling) × clamp(dt, 0, maximum)`, and
/// nothing below the deadband.
public enum SpeedIntegration {
    /// The increment in metres for `speed` (m/s) held over `seconds`.
    @inlinable
    public static func increment(speed: Double, seconds dt: Double, profile: TrackingProfile) -> Double {
        guard speed.isFinite, speed >= profile.deadbandMetresPerSecond, dt > 0 else { return 0 }
        return min(speed, profile.maximumSpeedMetresPerSecond) * min(dt, profile.maximumIntegrationSeconds)
    }
}

/// A speed reading that falls to a halt faster than any vehicle brakes is a dropout of the speed column, not a
/// halt (``Tracker``'s `readsDroppedOut`): a logger that writes 0 while the receiver has no speed, a fused provider's
/// fixes without one. The zeros after such a drop stand for no reading until the positions show the halt (the
/// window's net displacement under its threshold) or a reading above the deadband comes; the distance there comes
/// from the positions, bounded as any missing reading's. Without this, 20–60 s stretches of zeros in a drive were
/// believed as halts: the GSDC Pixel 4 drive with 30 s of every 120 s zeroed counted 30,600 m of 40,137
/// (a column-mangling tester), too short for the placeholder rule (``ContradictedReadings``), which needs a run
/// of two window spans with steady progress.
public enum ReadingDrop {
    /// The fastest deceleration taken for a real halt: 6 m/s² (0.6 g). Why: drivers' hard braking is 0.4–0.7 g,
    /// only an emergency stop with ABS reaches 0.8–1 g, and a walker, a runner or a cyclist never falls 6 m/s in a
    /// second. At 1 Hz a reading falls from 6.3 m/s or more to under the 0.3 m/s deadband only in a dropout (or a
    /// halt no Doppler reports so abruptly: its zeros are then held for no reading while the window still holds
    /// the approach, and the position filter's decay counts, 31 m from 14 m/s in `ReadingDropTests`).
    public static let maximumDecelerationMetresPerSecondSquared = 6.0
}
