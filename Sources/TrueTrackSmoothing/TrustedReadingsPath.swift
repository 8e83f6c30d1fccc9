import TrueTrackCore

/// The speed readings that judge term 4's second reading of the fixes (internal; see
/// ``SmoothedTrack/distanceModelDifferenceIncludedMetres``).
///
/// Term 4 measures the distance on the track smoothed with the fixes' accuracy scaled to their epoch-to-epoch
/// scatter, the white part of their error, because a phone's error is mostly a slowly varying bias that the fix-to-fix
/// shape does not hold. But a slowly varying error *moves* (a Gauss–Markov error of 3–10 m with τ 30–120 s wanders
/// about a metre per second), and the white-part track, trusting the fixes many times more, follows that motion:
/// a tester's walks with honest Doppler readings under such an error read +6 … +42 % with it (the forward filter,
/// which integrates the readings, mostly +0 … +5 %). The positions alone cannot tell that wander from motion; the
/// speed readings can, where they are honest: over the steps between two readings the forward filter trusts
/// (``Tracker/trustedSpeedReadings(in:profile:)``), the readings integrate to a path of their own (the trapezoid
/// of their speeds), which a track that follows the wander exceeds. So the two tracks' lengths over those steps
/// (chords, and the curves between velocity readings the distance counts) are compared with it: when the
/// white-part track's is longer than the readings' path and farther from it than the reported track's by more than
/// twice the path's σ (``SmoothedTrack/SpeedReadingsCheck/deniesWhitePart``), the readings deny its extra length,
/// and the distance is the reported track's (term 4 then counts in σ as the reported track's disagreement with the
/// readings, ``SmoothedTrack/SpeedReadingsCheck/modelSigmaMetres(modelDifferenceMetres:)``). The tracks' plane
/// lengths are brought to the ground by the reported track's ratio of its ellipsoid length to its plane length, as
/// term 4 is.
///
/// The trusted flags come from a forward filter fed the fixes the problem was built from: with the placeholder
/// readings the forward filter overrules already removed (``SmoothingOptions/speedReadingCheck``), and, for a track
/// smoothed in pieces, each piece's own fixes, from a fresh filter.
///
/// Lengths, not velocities: a velocity misfit favours whichever track weights the readings more against the
/// positions, and took the reported track on honest white noise whose accuracy was overstated (a tester's
/// 5–10 s walks with corners: −2 … −3 % → −8 … −9 %), where the white-part track was the right one and the
/// readings' path says so.
///
/// Only when the compared steps are at least ``WholeTrackSmoother/minimumTrustedSteps`` and cover at least half of
/// the seconds of the steps the distance counts inside segments (not the chords across gaps): a receiver whose
/// readings the forward filter mostly distrusts (the IPIN Samsung phones read half the walking speed, or 0, on
/// 20–46 % of their fixes, and the filter trusts 2–25 % of them) leaves the choice to the positions, as before.
struct TrustedReadingsPath {
    /// For each step s (from state s − 1 to s), whether it is compared.
    let comparedSteps: [Bool]
    /// The readings' path over the compared steps, metres: Σ (vₛ₋₁ + vₛ) / 2 × (tₛ − tₛ₋₁), each state's speed its
    /// first trusted reading.
    let readingsMetres: Double
    /// The standard deviation of ``readingsMetres``, metres: each reading's speed σ (its own accuracy, or
    /// ``SmoothingOptions/assumedSpeedAccuracyMetresPerSecond``) times the seconds it stands for (half of each
    /// compared step beside it), in quadrature. The readings of a walk logged every 5 s stand for 5 s each: the
    /// path of 481 honest readings of σ 0.4 m/s read 2 % short of the truth by chance (a tester's).
    let readingsSigmaMetres: Double

    /// The compared steps of `p`, among those the distance counts (`countedSteps`, every step of a segment when
    /// `nil`), of the trusted readings `stateSpeeds` (``stateSpeeds(_:fixes:options:)``'s result, which the smoother
    /// computes once for this and the vehicle gate), or `nil` when there are too few (see the type's description) or
    /// no readings (`stateSpeeds` `nil`: the options leave the readings out, or name no
    /// ``SmoothingOptions/speedReadingCheck`` profile to trust them with).
    ///
    /// - Complexity: O(n): three arrays of n.
    init?(_ p: TrackProblem, countedSteps: [Bool]?, stateSpeeds: (speeds: [Double], sigmas: [Double])?) {
        let n = p.stateCount
        guard n > WholeTrackSmoother.minimumTrustedSteps, let (speeds, sigmas) = stateSpeeds else { return nil }
        var compared = [Bool](repeating: false, count: n)
        var path = 0.0, variance = 0.0, steps = 0, comparedSeconds = 0.0, countedSeconds = 0.0
        // The seconds the reading of state s − 1 stands for: half of each compared step beside it.
        var standsFor = 0.0
        for s in 1..<n {
            let counted = !p.opensSegment[s] && countedSteps?[s] ?? true
            let seconds = p.times[s] - p.times[s - 1]
            if counted { countedSeconds += seconds }
            compared[s] = counted && !speeds[s - 1].isNaN && !speeds[s].isNaN
            if compared[s] {
                path += (speeds[s - 1] + speeds[s]) / 2 * seconds
                steps += 1
                comparedSeconds += seconds
                standsFor += seconds / 2
            }
            variance += sigmas[s - 1] * sigmas[s - 1] * standsFor * standsFor
            standsFor = compared[s] ? seconds / 2 : 0
        }
        variance += sigmas[n - 1] * sigmas[n - 1] * standsFor * standsFor
        guard steps >= WholeTrackSmoother.minimumTrustedSteps, 2 * comparedSeconds >= countedSeconds,
            path.isFinite, variance.isFinite
        else { return nil }
        comparedSteps = compared
        readingsMetres = path
        readingsSigmaMetres = variance.squareRoot()
    }

    /// Each state of `p` (built from `fixes` with `options`)'s first trusted reading the problem takes, m/s (NaN:
    /// none), and its speed σ (0 where none): trusted by a forward filter with the options'
    /// ``SmoothingOptions/speedReadingCheck`` profile fed `fixes`; `nil` when the options leave the readings out or
    /// name no such profile.
    ///
    /// - Complexity: O(n): one forward-filter pass and two arrays of the state count.
    static func stateSpeeds(_ p: TrackProblem, fixes: [Fix], options: SmoothingOptions)
        -> (speeds: [Double], sigmas: [Double])?
    {
        guard options.usesDoppler, let profile = options.speedReadingCheck else { return nil }
        let n = p.stateCount
        let trustedFix = Tracker.trustedSpeedReadings(in: fixes, profile: profile)
        var speeds = [Double](repeating: .nan, count: n), sigmas = [Double](repeating: 0, count: n)
        for m in p.positionState.indices {
            let s = p.positionState[m], fix = fixes[p.fixIndex[m]]
            guard speeds[s].isNaN, trustedFix[p.fixIndex[m]], TrackProblem.takesReading(of: fix, options: options),
                let speed = fix.speedMetresPerSecond
            else { continue }
            speeds[s] = speed
            // (A speed accuracy of 0 is a logger's "unknown", as Android's when it has none: the assumed one then.)
            let accuracy = fix.speedAccuracyMetresPerSecond ?? 0
            sigmas[s] = accuracy > 0 ? accuracy : options.assumedSpeedAccuracyMetresPerSecond
        }
        return (speeds, sigmas)
    }

    /// The length of solution `x` (the band's layout) over the compared steps, metres: their chords, and the curves
    /// between velocity readings on those of them `curveSteps` marks (as the distance counts them).
    func trackMetres(_ p: TrackProblem, solution x: [Double], curveSteps: [Bool]?) -> Double {
        WholeTrackSmoother.planeLengths(
            p, solution: x, countedSteps: comparedSteps, vehicleSteps: nil, separatedSteps: nil,
            curveSteps: curveSteps
        ).counted
    }
}

extension WholeTrackSmoother {
    /// How many steps between trusted readings (``TrustedReadingsPath``) it takes to judge the white-part track: 30,
    /// half a minute of a 1 Hz phone.
    static let minimumTrustedSteps = 30
}
