import TrueTrackCore

/// The velocity readings that judge term 4's second reading of the fixes (internal; see
/// ``SmoothedTrack/distanceModelDifferenceIncludedMetres``).
///
/// Term 4 measures the distance on the track smoothed with the fixes' accuracy scaled to their epoch-to-epoch
/// scatter, the white part of their error, because a phone's error is mostly a slowly varying bias that the fix-to-fix
/// shape does not hold. But a slowly varying error *moves* (a Gauss–Markov error of 3–10 m with τ 30–120 s wanders
/// about a metre per second), and the white-part track, trusting the fixes many times more, follows that motion:
/// a tester's walks with honest Doppler readings under such an error read +6 … +42 % with it (the forward filter,
/// which integrates the readings, mostly +0 … +5 %; with it the smoother +0.4 … +5.7 %). The positions alone cannot tell that wander from motion; the Doppler
/// readings can, where they are honest. So the two tracks' velocities are compared with the readings the forward
/// filter trusts (``Tracker/trustedSpeedReadings(in:profile:)``): when the white-part track's misfit them more
/// than ``WholeTrackSmoother/deniedMisfitRatio`` times as badly as the reported track's, the readings deny its
/// extra motion, and the distance is the reported track's length (term 4 still counts in σ).
///
/// Only readings with a direction are compared (a course with its speed, or a speed under the still speed, read as
/// a zero velocity): a speed alone takes its direction from the track it is compared with. Only readings at the
/// final robust weights' inliers (``WholeTrackSmoother/inlierWeight``), and only when the trusted ones are at least
/// ``WholeTrackSmoother/minimumTrustedVelocities`` and half of the readings with a direction: a receiver whose
/// readings the forward filter mostly distrusts (the IPIN Samsung phones read half the walking speed, or 0, on
/// 20–46 % of their fixes, and the filter trusts 2–25 % of them) leaves the choice to the positions, as before.
struct TrustedVelocities {
    /// For each velocity entry of the problem, whether it is compared.
    let isCompared: [Bool]

    /// The readings of `p` (built from `fixes` with `options`) to compare, or `nil` when there are too few (see
    /// the type's description), when the options have no ``SmoothingOptions/speedReadingCheck`` profile to run
    /// the forward filter with, or when they leave the readings out.
    ///
    /// - Complexity: O(n): one forward-filter pass and two arrays of n flags.
    init?(_ p: TrackProblem, fixes: [Fix], options: SmoothingOptions) {
        guard options.usesDoppler, let profile = options.speedReadingCheck else { return nil }
        let directed = p.velocityState.count - p.speeds.count
        guard directed >= WholeTrackSmoother.minimumTrustedVelocities else { return nil }
        let trustedFix = Tracker.trustedSpeedReadings(in: fixes, profile: profile)
        // The velocity entries follow the position entries in order, one for each fix that carries a reading the
        // problem took (`TrackProblem.init`'s rule); speed-only entries are left out.
        var compared = [Bool](repeating: false, count: p.velocityState.count)
        var speedOnly = p.speeds.makeIterator()
        var nextSpeedOnly = speedOnly.next()?.entry
        var v = 0, count = 0
        for m in p.positionState.indices where v < compared.count {
            guard TrackProblem.takesReading(of: fixes[p.fixIndex[m]], options: options) else { continue }
            if v == nextSpeedOnly {
                nextSpeedOnly = speedOnly.next()?.entry
            } else if trustedFix[p.fixIndex[m]] {
                compared[v] = true
                count += 1
            }
            v += 1
        }
        guard count >= WholeTrackSmoother.minimumTrustedVelocities, 2 * count >= directed else { return nil }
        isCompared = compared
    }

    /// The mean, over the compared readings whose robust weight is at least ``WholeTrackSmoother/inlierWeight``,
    /// of ‖v̂ − z‖² / r: the squared distance between the velocity of solution `x` (the band's layout) at the
    /// reading's state and the reading, in units of the reading's per-axis variance r. `nil` with fewer than
    /// ``WholeTrackSmoother/minimumTrustedVelocities`` such readings.
    ///
    /// - Complexity: O(n), no allocation.
    func misfit(_ p: TrackProblem, solution x: [Double], velocityWeights: [Double]) -> Double? {
        let order = x.count / 2
        var sum = 0.0, count = 0
        for v in isCompared.indices where isCompared[v] && velocityWeights[v] >= WholeTrackSmoother.inlierWeight {
            let s = p.velocityState[v]
            let de = x[2 * s + 1] - p.velocityEast[v], dn = x[order + 2 * s + 1] - p.velocityNorth[v]
            let term = (de * de + dn * dn) / p.velocityVariance[v]
            guard term.isFinite else { continue }
            sum += term
            count += 1
        }
        return count >= WholeTrackSmoother.minimumTrustedVelocities ? sum / Double(count) : nil
    }
}

extension WholeTrackSmoother {
    /// How many trusted velocity readings (``TrustedVelocities``) it takes to judge the white-part track: 30, half
    /// a minute of a 1 Hz phone. (The IPIN walks' forward filter trusts 9–80 of their 300–500 readings; a sparse
    /// cycling file with 8 readings in all says nothing either way.)
    static let minimumTrustedVelocities = 30

    /// How many times as badly as the reported track's the white-part track's velocities must misfit the trusted
    /// readings for the readings to deny it: 2. Measured: the tester's walks under a Gauss–Markov error with honest
    /// readings 4.4–12.6 (the white-part track following the error's wander); honest white noise whose white part
    /// is the stated accuracy or more (the white-part track the smoother one) 0.56–0.80; the GSDC drives, whose
    /// chipset positions move as their readings say, 3.0 and 1.7 (the two lengths within 3.2 and 3.8 m of 40 km).
    static let deniedMisfitRatio = 2.0
}
