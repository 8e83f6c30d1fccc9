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
    // Storage is `@usableFromInline internal` so that ``record(eastMetres:northMetres:seconds:averagingFixes:)``
    // can be `@inlinable` on the tracker's per-fix path.
    /// See ``varianceMetres2``.
    @usableFromInline var storedVariance = 0.0
    /// See ``samples``.
    @usableFromInline var storedSamples = 0.0
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
    /// over `seconds` (> 0). The previous step and this one measure the fix between them; the average runs over
    /// `averagingFixes` (the tracker passes ``TrackingProfile/measurementNoiseScaleFixes``).
    @inlinable
    public mutating func record(eastMetres: Double, northMetres: Double, seconds: Double, averagingFixes: Double) {
        defer { previousStep = SIMD3(eastMetres, northMetres, seconds) }
        let before = previousStep.z
        guard before > 0, seconds > 0, before <= Self.maximumStepSeconds, seconds <= Self.maximumStepSeconds
        else { return }
        let total = before + seconds
        let w1 = seconds / total, w3 = before / total
        // d = z₂ − (w₁ z₁ + w₃ z₃) = w₁ (z₂ − z₁) − w₃ (z₃ − z₂).
        let de = w1 * previousStep.x - w3 * eastMetres, dn = w1 * previousStep.y - w3 * northMetres
        let variance = (de * de + dn * dn) / (2 * (1 + w1 * w1 + w3 * w3))
        guard variance.isFinite else { return }
        storedSamples += 1
        storedVariance += (variance - storedVariance) / min(storedSamples, max(averagingFixes, 1))
    }

    /// Forgets the last step (the filter restarted: the next fix does not continue the sequence); the estimate
    /// is kept, it describes the receiver.
    @inlinable
    public mutating func breakSequence() {
        previousStep = SIMD3(0, 0, 0)
    }
}
