/// The length the smoothed track travels between two states, beyond the straight chord (internal).
///
/// Under the constant-velocity model (acceleration as white noise) the smoothed path between two states is the
/// cubic Hermite curve through their smoothed positions with their smoothed velocities as tangents: the
/// posterior mean of an integrated Wiener process given its value and derivative at both ends. The straight
/// chord between the two positions is the shortest path between them and cuts every turn made in between: the
/// u-blox F9K drive logged every 10 s measured 5.3 % short that way, 3.0 % with the curve
/// (`tools/analysis/curve_thinned.py`).
///
/// The curve is counted only between states whose velocity the receiver measured on both axes (an inlier
/// Doppler reading with a course, or a speed under the still speed without one, which the problem reads as a
/// velocity of zero: see ``WholeTrackSmoother/curveSteps(_:velocityWeights:solution:positionVariances:)``): there
/// the tangents are measurements, not the model's reading of the positions. Where the direction comes from the positions alone
/// (no reading, or a speed at or above the still speed without a course, whose direction is the track's own)
/// the curve would bend with the positions' noise and with every multipath jump the track half-follows, and
/// lengthen them: a straight 14.4 km drive every 5–15 s with 5 % of its fixes 100–300 m off read +0.5 … +1.5 %
/// longer (`tools/analysis/zero-column/jumpy.py --smooth`), a speed-only walk under 8 m of noise longer than
/// without its speeds (`SpeedWithoutCourseTests`; ARCHITECTURE "The curve between velocity readings").
/// A reading at rest gives a tangent near zero, along which the curve eases without bending.
enum CurveLength {
    /// How many times the noise of a step's chord (the root of the two smoothed positions' summed per-axis
    /// variances) the chord must be long for the curve to count: 5, so the chord's own direction is known to
    /// about 0.2 rad. Shorter steps (a walk's 1–10 s, a stop, a parked receiver's wander) hold turns the fixes
    /// cannot show, and the curve between them bent with the noise: a reviewer's phone walks every 5–10 s read
    /// +1.6 … +2.4 points, parked receivers with random low speeds +59–72 m per half hour, stop-and-go every 5 s
    /// +2.1 points (all now as without the curve).
    static let resolvedChordFactor = 5.0
    /// The cosine² of the largest angle, 30°, between a course reading and the positions' direction across its
    /// state (or along the step into or out of it) for the two to agree; a column of which fewer than half
    /// agree bends no curve.
    static let agreeingCosineSquared = 0.75
    /// How many course readings must be compared with the positions before the column can be judged: 10.
    static let minimumCourseComparisons = 10

    /// The excess (≥ 0), metres, of the cubic Hermite curve from a state to the next over the chord between
    /// them.
    ///
    /// - Parameters:
    ///   - east: The step's east displacement, metres (the later state's position minus the earlier's).
    ///   - north: The step's north displacement, metres.
    ///   - chord: The chord's length, metres (√(east² + north²), which the caller has).
    ///   - before: The earlier state's velocity (east, north), m/s.
    ///   - after: The later state's velocity (east, north), m/s.
    ///   - seconds: The step's duration.
    ///
    /// The speed along the curve, |p′(u)| over u ∈ [0, 1], is integrated by four-point Gauss–Legendre
    /// quadrature: exact when the curve is straight and runs one way (the speed is then a quadratic in u).
    /// Against an adaptive integral (a reviewer's, scipy `quad`): 0.006 % of the length on a 90° arc, 0.11 % on
    /// a semicircle, 0.4 % of the excess on a U-turn within a step, up to 4 % of a small excess for turns up to
    /// 90° with unequal tangents (five points: 0.1 / 0.3 % of the excess on 90° turns and the U-turn; the `smooth`
    /// benchmark counted 4,424.3 instructions per fix with five, 4,423.4 with four). Not capped by what the two
    /// speeds allow (their mean times the step): on a smooth drive the curve's length is close to that bound, and
    /// the positions' noise then pushes half the steps against it: on a 200 m circle logged every 10 s with 2 m of
    /// noise a capped curve added 94 m where the chords cut 156 m, the uncapped one 156 m. A curve that doubles
    /// back along its chord (two readings that both say the vehicle moved on, around a stop between fixes) is
    /// where the quadrature is poor: 0 for tangents of 3.2–4 chords (the true excess 2–22 m), about 10 % over from
    /// 12 chords on; the path there was most likely straight, so the low side is the nearer one.
    @inline(__always)
    static func excessMetres(
        east de: Double, north dn: Double, chord: Double, before: (east: Double, north: Double),
        after: (east: Double, north: Double), seconds dt: Double
    ) -> Double {
        // p′(u) = 6u(1 − u) Δ + (3u² − 4u + 1) m₀ + (3u² − 2u) m₁ = a + b u + c u², with mᵢ = vᵢ dt.
        let me0 = before.east * dt, mn0 = before.north * dt, me1 = after.east * dt, mn1 = after.north * dt
        let be = 6 * de - 4 * me0 - 2 * me1, bn = 6 * dn - 4 * mn0 - 2 * mn1
        let ce = 3 * (me0 + me1) - 6 * de, cn = 3 * (mn0 + mn1) - 6 * dn
        @inline(__always) func speed(_ u: Double) -> Double {
            let e = me0 + u * (be + u * ce), n = mn0 + u * (bn + u * cn)
            return (e * e + n * n).squareRoot()
        }
        // Gauss–Legendre on [0, 1]: nodes ½ ± ½·{0.3399810435848563, 0.8611363115940526}.
        let length =
            0.32607257743127320 * (speed(0.33000947820757187) + speed(0.66999052179242813))
            + 0.17392742256872679 * (speed(0.069431844202973713) + speed(0.93056815579702629))
        // (Readings are finite and capped by the profile, states at least 1 ms apart; a non-finite length
        // from anything else adds nothing rather than poisoning the distance.)
        return length.isFinite ? max(0, length - chord) : 0
    }
}

extension WholeTrackSmoother {
    /// The steps that count the curve between measured velocities (see ``CurveLength``): step s (from state
    /// s − 1 to s, in one segment) when both states hold a velocity reading measured on both axes (a course with
    /// its speed, or a speed under the still speed read as zero velocity; not a speed-only entry of
    /// `TrackProblem/speeds`) at robust weight ``inlierWeight`` or more, and the solution `x`'s chord between
    /// them is at least ``CurveLength/resolvedChordFactor`` times the root of their summed `positionVariances`
    /// (per axis); `nil` when no step does (every step then counts its chord), or when the course readings
    /// mostly disagree with the positions' direction across their states and along the steps beside them (see
    /// ``CurveLength/agreeingCosineSquared``).
    ///
    /// - Complexity: O(n); one array of n flags.
    static func curveSteps(
        _ p: TrackProblem, velocityWeights: [Double], solution x: [Double], positionVariances: [Double]
    ) -> [Bool]? {
        var rejected = false
        return curveSteps(
            p, velocityWeights: velocityWeights, solution: x, positionVariances: positionVariances,
            rejectsCourses: &rejected)
    }

    /// ``curveSteps(_:velocityWeights:solution:positionVariances:)``, setting `rejectsCourses` when the course
    /// readings mostly disagree with the positions (the column bends no curve, and `nil` is returned).
    static func curveSteps(
        _ p: TrackProblem, velocityWeights: [Double], solution x: [Double], positionVariances: [Double],
        rejectsCourses: inout Bool
    ) -> [Bool]? {
        let n = p.stateCount
        guard p.speeds.count < p.velocityState.count, positionVariances.count == n else { return nil }
        let order = x.count / 2
        let k2 = CurveLength.resolvedChordFactor * CurveLength.resolvedChordFactor
        /// Whether the smoothed positions of states a and b resolve the direction between them.
        func resolves(_ a: Int, _ b: Int) -> (east: Double, north: Double)? {
            let de = x[2 * b] - x[2 * a], dn = x[order + 2 * b] - x[order + 2 * a]
            let d2 = de * de + dn * dn
            return d2 >= k2 * (positionVariances[a] + positionVariances[b]) ? (de, dn) : nil
        }
        var steps = [Bool](repeating: false, count: n)
        var any = false
        var compared = 0, agreeing = 0
        var speedOnly = p.speeds.makeIterator()
        var nextSpeedOnly = speedOnly.next()?.entry
        // The measurements are in time order, so their states ascend: a step counts when its state's first
        // qualifying reading follows one of the state before.
        var lastMeasured = -2
        for v in p.velocityState.indices {
            if v == nextSpeedOnly {
                nextSpeedOnly = speedOnly.next()?.entry
                continue
            }
            let s = p.velocityState[v]
            let ve = p.velocityEast[v], vn = p.velocityNorth[v]
            // The course check, over every course reading (the robust weights leave out the wrong ones where the
            // fixes are dense, and pass them where they are sparse): the reading's direction against the
            // positions' own across the state, or along the step into it or out of it (on a hairpin or a tight
            // grid logged every 15–19 s the chord across the state turns away from both).
            if ve != 0 || vn != 0, s > 0, s + 1 < n, !p.opensSegment[s], !p.opensSegment[s + 1],
                let across = resolves(s - 1, s + 1)
            {
                compared += 1
                func agrees(_ d: (east: Double, north: Double)?) -> Bool {
                    guard let d else { return false }
                    let dot = ve * d.east + vn * d.north
                    return dot > 0
                        && dot * dot >= CurveLength.agreeingCosineSquared * (ve * ve + vn * vn)
                            * (d.east * d.east + d.north * d.north)
                }
                if agrees(across) || agrees(resolves(s - 1, s)) || agrees(resolves(s, s + 1)) { agreeing += 1 }
            }
            guard velocityWeights[v] >= inlierWeight else { continue }
            if s == lastMeasured + 1, !p.opensSegment[s], resolves(s - 1, s) != nil {
                steps[s] = true
                any = true
            }
            lastMeasured = s
        }
        // A course column most of whose readings point elsewhere than the positions go (another convention,
        // radians, a heading while reversing) bends no curve.
        if compared >= CurveLength.minimumCourseComparisons, 2 * agreeing < compared {
            rejectsCourses = true
            return nil
        }
        return any ? steps : nil
    }

    /// Term 8 of ``SmoothedTrack/distanceSigmaMetres`` (metres): over the counted steps inside a segment that last
    /// longer than ``modelCurveMinimumSeconds`` and whose curve term 7 does not count (`curveSteps`), the excess of
    /// the curve between the two states' velocities in `x` over the chord. Under a course column term 7 rejected
    /// (`coursesRejected`), whose readings bent those velocities their own way, the directions the positions
    /// themselves take across each state instead (the centred chord, or the one chord at a segment's end).
    ///
    /// - Complexity: O(n), no allocation.
    static func modelCurveMetres(
        _ p: TrackProblem, solution x: [Double], countedSteps: [Bool]?, curveSteps: [Bool]?, coursesRejected: Bool
    ) -> Double {
        let n = p.stateCount, order = x.count / 2
        func velocity(_ k: Int) -> (east: Double, north: Double) {
            guard coursesRejected else { return (x[2 * k + 1], x[order + 2 * k + 1]) }
            let a = k > 0 && !p.opensSegment[k] ? k - 1 : k
            let b = k + 1 < n && !p.opensSegment[k + 1] ? k + 1 : k
            guard b > a else { return (0, 0) }
            let seconds = p.times[b] - p.times[a]
            return ((x[2 * b] - x[2 * a]) / seconds, (x[order + 2 * b] - x[order + 2 * a]) / seconds)
        }
        var excess = 0.0
        for s in 1..<max(n, 1) {
            let seconds = p.times[s] - p.times[s - 1]
            guard seconds > modelCurveMinimumSeconds, !p.opensSegment[s], countedSteps?[s] ?? true,
                curveSteps?[s] != true
            else { continue }
            let de = x[2 * s] - x[2 * (s - 1)], dn = x[order + 2 * s] - x[order + 2 * (s - 1)]
            excess += CurveLength.excessMetres(
                east: de, north: dn, chord: (de * de + dn * dn).squareRoot(), before: velocity(s - 1),
                after: velocity(s), seconds: seconds)
        }
        return excess
    }
}
