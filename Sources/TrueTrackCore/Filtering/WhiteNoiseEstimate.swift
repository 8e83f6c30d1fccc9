/// Measures, from the raw fixes alone, the per-axis variance of the part of their position error that changes
/// from one fix to the next (white noise), so that the net-displacement gate can tell a receiver whose fixes
/// scatter afresh every epoch from one whose error drifts.
///
/// ## Why
/// A reported accuracy says how large a fix's error is, not how it behaves in time. The recordings' receivers
/// drift (consecutive errors correlate at 0.87–0.999): their filtered position barely moves at rest. A receiver
/// whose error is white noise moves its filtered position by a fresh σ every few fixes, which the accuracy
/// threshold of ``NetDisplacementGate`` does not cover. ``MeasurementNoiseScale`` estimates the white share from
/// the filter's innovations, but only where the prediction is better than a fix (P⁻ ≤ r): without Doppler, at
/// 1 Hz with accuracies under ~7 m or with fixes seconds apart, it never runs. This estimate needs no filter.
///
/// ## How
/// Three consecutive accepted fixes z₁, z₂, z₃ at times t₁ < t₂ < t₃ (the tracker records the fixes without
/// Doppler, so the last two have none), neither step longer than ``maximumStepSeconds``: the middle one's
/// distance from the chord of the other two, d = z₂ − (w₁ z₁ + w₃ z₃) with w₁ = (t₃ − t₂)/(t₃ − t₁),
/// w₃ = (t₂ − t₁)/(t₃ − t₁). Steady motion cancels (a straight line at constant speed gives d = 0) and so does a
/// drifting error; white noise of per-axis variance σ² gives E|d|² = 2 σ² (1 + w₁² + w₃²). Acceleration adds
/// a·Δt₁·Δt₂/2, which reads as noise: 0.5 m for a walker turning at 1 m/s² with 1 s steps, a few metres for a
/// vehicle turning (the tracker caps what follows at the filter's own noise level), unbounded for sparse fixes
/// (hence ``maximumStepSeconds``). The average is exponential over ``TrackingProfile/measurementNoiseScaleFixes``
/// triples, a plain mean until that many.
public struct WhiteNoiseEstimate: Sendable, BitwiseCopyable, Hashable {
    /// The estimated per-axis variance of the fix-to-fix (white) part of the position error, m².
    @inlinable public var varianceMetres2: Double { storedVariance }
    /// Triples of fixes measured so far.
    @inlinable public var samples: Double { storedSamples }
    // Storage is `@usableFromInline internal` so that
    // ``record(eastMetres:northMetres:seconds:previousAccuracyMetres:averagingFixes:)``
    // can be `@inlinable` on the tracker's per-fix path.
    /// See ``varianceMetres2``.
    @usableFromInline var storedVariance = 0.0
    /// See ``samples``.
    @usableFromInline var storedSamples = 0.0
    /// The running mean of the clipped dot products of consecutive sparse steps, each over the middle fix's
    /// reported variance: see ``sparseVarianceRatio``.
    @usableFromInline var storedSparseProduct = 0.0
    /// See ``sparseSamples``.
    @usableFromInline var storedSparseSamples = 0.0
    /// The step into the newest fix: east, north (metres) and seconds; seconds 0 when there is none (the first
    /// fix, or after ``breakSequence()``).
    @usableFromInline var previousStep = SIMD3<Double>(0, 0, 0)

    /// The number of triples before ``varianceMetres2`` is used (five, as ``MeasurementNoiseScale``).
    public static let minimumSamples = 5.0

    /// The longest step (seconds) of a triple that is measured; a triple with a longer step is skipped.
    ///
    /// 2.5 s. Why: motion puts the middle fix a·Δt₁·Δt₂/2 off the chord, which this estimate cannot tell from
    /// noise: a walker turning at 1 m/s² is 0.5 m off at 1 s steps, 3 m at 2.5 s, 50 m at 10 s. With fixes 10–15 s
    /// apart a winding trail read as 17 m² of noise against 0.25 m² real, and the floor it raised took 80–95 %
    /// of the walk (a reviewer's generated GPX hikes and slow drives). 1 Hz and 2 Hz loggers, with an epoch or
    /// two missing, are measured; sparser ones get no estimate and keep the accuracy threshold.
    public static let maximumStepSeconds = 2.5

    /// An estimate with no samples.
    @inlinable
    public init() {}

    /// Records the step from the previous accepted fix to a new one: east and north displacement (metres)
    /// over `seconds` (> 0); `previousAccuracyMetres` is the reported accuracy (68 % radius) of the fix the step
    /// starts from, the fix between it and the previous step (the sparse estimate's unit). The previous step and
    /// this one measure the fix between them; the average runs over
    /// `averagingFixes` (the tracker passes ``TrackingProfile/measurementNoiseScaleFixes``). Two consecutive steps
    /// longer than ``maximumStepSeconds`` go to ``sparseVarianceRatio`` instead.
    @inlinable
    public mutating func record(
        eastMetres: Double, northMetres: Double, seconds: Double, previousAccuracyMetres: Double,
        averagingFixes: Double
    ) {
        defer { previousStep = SIMD3(eastMetres, northMetres, seconds) }
        let before = previousStep.z
        guard before > 0, seconds > 0, before <= Self.maximumStepSeconds, seconds <= Self.maximumStepSeconds
        else {
            if before > Self.maximumStepSeconds, seconds > Self.maximumStepSeconds {
                recordSparse(
                    eastMetres: eastMetres, northMetres: northMetres, middleAccuracyMetres: previousAccuracyMetres,
                    averagingFixes: averagingFixes)
            }
            return
        }
        let total = before + seconds
        let w1 = seconds / total, w3 = before / total
        // d = z₂ − (w₁ z₁ + w₃ z₃) = w₁ (z₂ − z₁) − w₃ (z₃ − z₂).
        let de = w1 * previousStep.x - w3 * eastMetres, dn = w1 * previousStep.y - w3 * northMetres
        let variance = (de * de + dn * dn) / (2 * (1 + w1 * w1 + w3 * w3))
        guard variance.isFinite else { return }
        storedSamples += 1
        storedVariance += (variance - storedVariance) / min(storedSamples, max(averagingFixes, 1))
    }

    /// The white part of a sparse logger's error as a share of the variance its fixes report: its per-axis
    /// variance over (accuracy / 1.51)², measured from pairs of consecutive steps both longer than
    /// ``maximumStepSeconds`` (recorded by ``record(eastMetres:northMetres:seconds:previousAccuracyMetres:averagingFixes:)``):
    /// minus half the mean of their dot products, each over the middle fix's reported variance and clipped, at
    /// least 0. The tracker raises a sparse step's net-displacement threshold to ``sparseThresholdSigmas`` standard
    /// deviations of the filtered track's white jitter by it (the smoother too, on the vehicle profiles:
    /// `StillnessGate.whiteNoiseSigmas`).
    ///
    /// ## Why
    /// Fixes 3–45 s apart leave one to a few in a trailing window, so the net displacement averages little: each
    /// step's chord is judged against the accuracy threshold alone, and a receiver whose error is white noise
    /// (fresh at every fix) moves its chord past that threshold on a quarter to a third of its steps at rest
    /// (generated still loggers every 12 s, 3 m of white noise per axis claiming 5 m: 1.6–1.9 km per 2 h on the
    /// walking profile). The triples of ``varianceMetres2`` cannot measure it there (a turn between fixes 12 s
    /// apart puts the middle one metres off the chord).
    ///
    /// ## How
    /// Two consecutive steps s₁ = z₂ − z₁ and s₂ = z₃ − z₂ share the middle fix's error with opposite signs:
    /// white noise of per-axis variance σ² gives E[s₁ · s₂] = −2σ², whatever the step lengths, while motion
    /// adds v₁ · v₂ Δt₁ Δt₂, positive unless the traveller turns by more than 90° between the steps, and an
    /// error that drifts adds little (its consecutive changes are nearly independent). So motion pulls the
    /// estimate *down*, to 0 for anything that keeps going, and only a receiver whose fixes scatter afresh gets
    /// a sizeable one. In units of the middle fix's reported variance, so that the estimate follows the fixes
    /// (a phone that scattered 12 m indoors, claiming 22 m, and walks out under 6 m fixes: measured in metres,
    /// the indoor scatter held the first minutes of the walk, −12 … −42 % of it in a reviewer's cases). Each
    /// product is clipped to − ``sparseClipVariances`` and + ``sparsePositiveClipVariances`` times the larger of the
    /// estimate so far and 1 (the reported variance), so that a U-turn or a multipath jump and its return shift it by a bounded amount (for white
    /// noise the clip keeps 92 % of the mean: the products are heavy-tailed, 1 % lie below −12.9σ²), and a pair
    /// whose two steps are both longer than ``sparseMotionAccuracies`` accuracies is motion, not noise, and
    /// skipped. The average is exponential over the `averagingFixes` pairs, a plain mean until that many.
    ///
    /// What it cannot tell from white noise: a path that turns back at every fix within a few accuracies (a
    /// walker pacing with the logger's period) or an error that alternates sideways at every fix; both read as
    /// noise, and a slow walk under them is held (docs/ARCHITECTURE.md 5f).
    @inlinable public var sparseVarianceRatio: Double { max(0, -storedSparseProduct / 2) }

    /// ``sparseVarianceRatio`` once it has its ``sparseMinimumSamples`` pairs; before, the pairs so far averaged
    /// with ``sparseWhitePriorPairs`` pairs of white noise at the reported accuracy (a ratio of 1): a fix's stated
    /// accuracy taken as white until its steps show otherwise. For a sparse step whose fix states its accuracy
    /// (the tracker's noise floor; see ``sparseWhitePriorPairs`` for why).
    @inlinable public var sparseVarianceRatioWithWhitePrior: Double {
        let n = storedSparseSamples
        if n >= Self.sparseMinimumSamples { return sparseVarianceRatio }
        let prior = Self.sparseWhitePriorPairs
        return max(0, -(storedSparseProduct * n - 2 * prior) / (n + prior) / 2)
    }

    /// Whether the last step recorded was longer than ``maximumStepSeconds`` (a sparse step): with the step into a
    /// new fix, not yet recorded, also sparse, the logger is a sparse one, whose pairs ``sparseVarianceRatio``
    /// measures (a dense logger's lone long step, a gap, pairs with nothing).
    @inlinable public var lastStepIsSparse: Bool { previousStep.z > Self.maximumStepSeconds }

    /// How many pairs of white noise (a ratio of 1: the stated accuracy scatters afresh at every fix) weigh on the
    /// sparse estimate until it has its ``sparseMinimumSamples`` pairs (``sparseVarianceRatioWithWhitePrior``): 3.
    /// Why: until then the sparse step's threshold was the accuracy threshold alone, and a logger every 3–15 s
    /// whose error is white noise (the stated accuracy honest) counted its first one to two minutes at rest:
    /// `tools/analysis/noisy_walks_and_desks.py`'s desks 8.7–36.9 m per 10 minutes (all of it before the estimate
    /// had its ten pairs), with the prior 0–12.1. The twelve families summed 223.8 m per 10 minutes before, 44.4 at
    /// 1 prior pair (seven of them above 3 m), 28.7 at 3 (four above 3 m: 3.2, 3.6, 4.7, 12.1).
    /// A walk's pairs are positive (motion) and pull the prior down within a pair or two where its steps are long
    /// against its noise: that tool's 30-minute walks were unchanged, its mall walks and paced corridor lost 0.5–2.6
    /// points. Where the steps are about the noise the products are mostly noise and the prior holds the first one
    /// to two minutes: a reviewer's 5-minute walks at 1.3 m/s every 5–15 s claiming 10–20 m, from their first fix,
    /// 4,828 → 4,446 m summed of 7,020 (one file 343 → 237 m), about the same at 1 or 2 pairs: the price of the
    /// desks. Only for fixes that state an
    /// accuracy (an assumed one, a GPX hike's 30 m, is no noise level, and the prior held the first 100 m of one)
    /// and whose logger is sparse (``lastStepIsSparse``: a 1 Hz walk's lone step over a gap held its fix a second,
    /// which the written track then showed as a halt, and a second pass over it read 559.5 m of the demo's 599.6 m
    /// instead of 591.1). (The blend weighs the estimate's mean by its pairs; under an averaging count below ten,
    /// a custom profile's, that mean is already exponential and the blend approximate.)
    public static let sparseWhitePriorPairs = 3.0

    /// Pairs of consecutive sparse steps measured so far.
    @inlinable public var sparseSamples: Double { storedSparseSamples }

    /// The number of pairs before ``sparseVarianceRatio`` is used: ten. Why: a single product's spread is
    /// several times its mean; ten pairs (2–7 minutes of a logger every 12–45 s) keep the first estimate within
    /// a factor of about two.
    public static let sparseMinimumSamples = 10.0

    /// The net-displacement threshold of a sparse step whose logger's fixes scatter afresh, in standard
    /// deviations of the white jitter of a net displacement: √(2 P s) per axis, P the filtered
    /// position's variance and s the white noise's share of the variance the filter assumed
    /// (``sparseVarianceRatio``, over the filter's own scale): 4. The tracker uses it where the net displacement
    /// decides (no Doppler in the window), on steps longer than ``maximumStepSeconds``, once the estimate has its
    /// ``sparseMinimumSamples`` pairs.
    /// At 12–45 s the filtered position is the fix (P ≈ its variance): 4 σ of a chord, √2 σ per axis; at 3–5 s
    /// the filter averages a few fixes and the threshold follows (as a chord's, a walk under 12 m of noise every
    /// 3 s lost 75–99 % of its distance in a reviewer's cases).
    ///
    /// Why: a logger every 3–45 s has one to a few fixes per window, and its chords passed the accuracy
    /// threshold (2 m + accuracy) on a quarter to a third of its steps at rest when its error is white noise
    /// (the recordings' receivers drift, and their thinned still logs count 0 m either way). Each passed step
    /// counted its chord and released the window's held jitter: generated desks claiming an honest accuracy
    /// counted 3–630 m per 10 minutes at σ 3–5 m (`tools/analysis/sparse_desks.py`). At 4 σ a still chord passes
    /// on e⁻⁸ ≈ 0.03 % of steps (at 3 σ the first form, in metres on a raw chord, left 4–73 m per 10 minutes). Moving loggers pay nothing, since their
    /// consecutive steps keep on and measure no white noise (docs/ARCHITECTURE.md 5f). (The dense floor's
    /// ``TrackingProfile/netDisplacementNoiseSigmas``, 5, is for 1 Hz windows that judge the same jitter over and
    /// over; at 0 it turns this floor off too.)
    public static let sparseThresholdSigmas = 4.0

    /// Where a product is clipped, either way, in units of ``sparseVarianceRatio`` (at least 1, the reported
    /// variance): 8. Why: it keeps 92 % of white noise's mean product (96 % at 10, 85 % at 6), and bounds what one
    /// U-turn or one jump can add to the estimate to 8 times the larger of the estimate and the reported variance,
    /// over the averaging count. Motion's products are clipped too (a drive's 200 m steps over 5 m fixes are
    /// +3,600 reported variances each): unclipped, they held the estimate near 0 for some 250 pairs after a
    /// vehicle parked; clipped, a parked logger reaches half its share after about 80 (the fleet set without
    /// speeds: summed error 427.1 → 420.6 km, phantom trips 850 → 818).
    public static let sparseClipVariances = 8.0
    /// Where a positive product is clipped, in units of ``sparseVarianceRatio`` (at least 1): 2. Why: motion's
    /// products are positive (two steps along the way: a walker's 7 m steps every 5 s under 5 m fixes give +4.5),
    /// and clipped at ``sparseClipVariances`` they pulled the average far above zero during a walk, so that a stop
    /// after it had no noise floor until dozens of pairs of its noise had brought the average back below zero: a
    /// timeline tester's 200 s standstills at 5 s under 3 m of white noise claiming 5 m had the 7 m threshold open
    /// on the noise and were cut short or split (12 seeds: 93 s stopped on average, 122 s with this; 142 s clipped
    /// at 1 and 183 s at 0, but white noise's own positive products are clipped too, which raises the estimate: a
    /// walk every 3 s under 8 m of noise claiming 14 m lost up to 24 % at 1, 19 % at 2, 16 % before). Measured at
    /// 2: regression sets 6 better, none worse; `sparse_desks.py` desks equal or lower (5 s at σ 3 m: 17.4 → 13.3 m
    /// per 10 minutes), its walks equal; `sparse_rhythm_thinned.py` within 0.1 point; `truetrack bench` identical.
    public static let sparsePositiveClipVariances = 2.0

    /// A pair whose two steps are both longer than this many of the middle fix's accuracies (68 % radii) is
    /// motion, not noise, and is not measured: 10. Why: a white noise of per-axis σ moves a fix by 1.8 σ on
    /// average, so even a receiver scattering five times its claim moves about 6 accuracies; but a cyclist on a
    /// 400 m track, a kart on an 800 m lap or a runner on a 200 m loop logged every 18–20 s turn by over 115° at
    /// every fix, and with steps of 60–300 m their products, each clipped at the growing estimate, doubled it
    /// pair after pair: a reviewer's laps at the start of a file counted 7–10 % of their distance.
    public static let sparseMotionAccuracies = 10.0

    /// Pairs the step (east and north metres) with the step before it, both longer than
    /// ``maximumStepSeconds``, into ``sparseVarianceRatio``; `middleAccuracy` is the reported accuracy of the fix
    /// between them. Out of line: only sparse loggers come here (called
    /// inside the record's guard, with the last fix's accuracy the tracker has at hand, it left the per-fix path
    /// nearly unchanged: 741.0 instructions per fix on the `track-walk` benchmark against 739.6; a call from the
    /// tracker itself cost 16–38, passing the new fix's accuracy 37).
    @usableFromInline @inline(never)
    mutating func recordSparse(
        eastMetres: Double, northMetres: Double, middleAccuracyMetres middleAccuracy: Double, averagingFixes: Double
    ) {
        let longest = Self.sparseMotionAccuracies * middleAccuracy
        let before = previousStep.x * previousStep.x + previousStep.y * previousStep.y
        let after = eastMetres * eastMetres + northMetres * northMetres
        guard middleAccuracy > 0, min(before, after) <= longest * longest else { return }
        let variance = MeasurementNoise.perAxisVariance(radius68: middleAccuracy)
        let product = (previousStep.x * eastMetres + previousStep.y * northMetres) / variance
        let scale = max(sparseVarianceRatio, 1)
        guard product.isFinite else { return }
        storedSparseSamples += 1
        storedSparseProduct +=
            (min(max(product, -Self.sparseClipVariances * scale), Self.sparsePositiveClipVariances * scale)
                - storedSparseProduct) / min(storedSparseSamples, max(averagingFixes, 1))
    }

    /// Forgets the last step (the filter restarted: the next fix does not continue the sequence); the estimate
    /// is kept, it describes the receiver.
    @inlinable @inline(__always)
    public mutating func breakSequence() {
        previousStep = SIMD3(0, 0, 0)
    }
}
