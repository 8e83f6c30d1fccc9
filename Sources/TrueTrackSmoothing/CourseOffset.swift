import Foundation

/// A constant offset between a track's course column and the direction its fixes travel (internal; see
/// ``SmoothingOptions/correctsCourseOffset``).
///
/// A course is the direction of travel clockwise from true north. A column that is consistently turned from it by
/// the same angle (a magnetic course, 10–25° from true in much of the world; a logger mounted askew) passes every
/// test of a wrong column that looks for disagreement (the curve's course check accepts readings within 30°), and
/// its velocity readings pull every smoothed velocity sideways: a straight highway logged every 5 / 10 s with a
/// course 20° off read +0.8 / +1.0 % long (the curves between the sideways tangents), a reviewer's case.
enum CourseOffset {
    /// The slowest reading compared, m/s: 5. Below it a receiver's course scatters with its noise (a walker's
    /// reads ± 30–90°) and the positions move too little between fixes to give a direction.
    static let minimumSpeedMetresPerSecond = 5.0
    /// How many times the noise of the chord between the fixes before and after a reading the chord must be
    /// long to give a direction: 5 (its direction then within about 0.2 rad), as the curve's rule 2.
    static let resolvedChordFactor = 5.0
    /// The fewest compared readings for an estimate: 20. With 10 (the curve's course check) the median of a column
    /// with 10° of honest noise passed 5° on two of a reviewer's town drives every 15 s (10 and 11 readings).
    static let minimumComparisons = 20
    /// The most readings compared, 1,001: an offset that is constant needs no more, and the median of the
    /// angles is a sort (a million angles would cost the smoother 10 % of its time).
    static let maximumComparisons = 1001
    /// The smallest median offset corrected, degrees: 5. Good columns read within ±0.5° (measured: GSDC Pixel 4
    /// −0.12°, u-blox F9K −0.02°, Pixel 6a +0.09°; a reviewer's generated columns within ±0.5°).
    static let minimumDegrees = 5.0
    /// The angle, degrees, within which ``concentratedShare`` of the compared readings must lie of the median for
    /// the column to have *an* offset: 10. A column in another convention (counter-clockwise from east, a
    /// reflection whose offset changes with the heading) has a median that means nothing: a reviewer's 252 such
    /// drives had 42–73 % of their readings within 15° of it, the offset ones 92–100 % within 15°, 97–100 %
    /// within 10°. Such a column is left as it is (the curve's course check leaves it out).
    static let concentrationDegrees = 10.0
    /// The share of the compared readings that must lie within ``concentrationDegrees`` of the median: 0.8.
    static let concentratedShare = 0.8
    /// The cosine², for the largest angle between the steps into and out of a state, 10°, at which the track
    /// counts as running straight through it: only there is the chord across the state its direction of travel.
    static let straightCosineSquared = cos(10.0 * .pi / 180) * cos(10.0 * .pi / 180)
}

extension TrackProblem {
    /// The median angle, degrees, by which the course readings (at ``CourseOffset/minimumSpeedMetresPerSecond`` or
    /// faster) are turned clockwise from the direction of the chord between the fixes before and after them (in
    /// the same segment, the chord resolved, the track straight through the state: see ``CourseOffset``), when it
    /// is at least ``CourseOffset/minimumDegrees`` and ``CourseOffset/concentratedShare`` of the readings lie
    /// within ``CourseOffset/concentrationDegrees`` of it; `nil` otherwise (too few readings, a good column, or one
    /// without a single offset).
    ///
    /// - Complexity: O(n), stopping after ``CourseOffset/maximumComparisons`` readings.
    func courseOffsetDegrees() -> Double? {
        guard velocityState.count > speeds.count else { return nil }
        let n = stateCount
        let minimumSpeed2 = CourseOffset.minimumSpeedMetresPerSecond * CourseOffset.minimumSpeedMetresPerSecond
        let factor2 = CourseOffset.resolvedChordFactor * CourseOffset.resolvedChordFactor
        var angles: [Double] = []
        // The first position measurement of states s − 1, s and s + 1, as `m` walks the positions in time order.
        var m = 0
        var firstOf = (before: -1, here: -1, after: -1)
        var lastState = -1
        for v in velocityState.indices {
            let s = velocityState[v]
            let ve = velocityEast[v], vn = velocityNorth[v]
            guard ve * ve + vn * vn >= minimumSpeed2, s > 0, s + 1 < n, !opensSegment[s], !opensSegment[s + 1]
            else { continue }
            if s != lastState {
                // (Positions and states ascend together: every state has a position measurement.)
                while m < positionState.count && positionState[m] < s - 1 { m += 1 }
                let before = m
                var here = before
                while here < positionState.count && positionState[here] < s { here += 1 }
                var after = here
                while after < positionState.count && positionState[after] < s + 1 { after += 1 }
                guard after < positionState.count else { break }
                firstOf = (before, here, after)
                lastState = s
            }
            let de = positionEast[firstOf.after] - positionEast[firstOf.before]
            let dn = positionNorth[firstOf.after] - positionNorth[firstOf.before]
            let d2 = de * de + dn * dn
            guard d2 >= factor2 * (positionVariance[firstOf.before] + positionVariance[firstOf.after]) else {
                continue
            }
            // Only where the track runs straight through the state: the steps into and out of it within
            // the straight angle of each other (on a bend the chord across the state turns from its tangent
            // wherever the speed or the curvature changes, by a few degrees on switchbacks and roundabouts logged
            // every 10–19 s, all the same way).
            let ae = positionEast[firstOf.here] - positionEast[firstOf.before]
            let an = positionNorth[firstOf.here] - positionNorth[firstOf.before]
            let be = positionEast[firstOf.after] - positionEast[firstOf.here]
            let bn = positionNorth[firstOf.after] - positionNorth[firstOf.here]
            let stepDot = ae * be + an * bn
            guard stepDot > 0,
                stepDot * stepDot >= CourseOffset.straightCosineSquared * (ae * ae + an * an) * (be * be + bn * bn)
            else { continue }
            // The reading's bearing minus the chord's, clockwise positive (bearings run clockwise from north:
            // the angle from the chord to the reading is atan2(chord × reading, chord · reading) with the cross
            // product taken east-north, negated).
            let cross = de * vn - dn * ve, dot = de * ve + dn * vn
            angles.append(-atan2(cross, dot) * 180 / .pi)
            if angles.count == CourseOffset.maximumComparisons { break }
        }
        guard angles.count >= CourseOffset.minimumComparisons else { return nil }
        angles.sort()
        let median = angles[angles.count / 2]
        guard abs(median) >= CourseOffset.minimumDegrees else { return nil }
        let concentrated = angles.lazy.filter { abs($0 - median) <= CourseOffset.concentrationDegrees }.count
        return Double(concentrated) >= CourseOffset.concentratedShare * Double(angles.count) ? median : nil
    }

    /// Turns every velocity reading with a course by `degrees` clockwise (a negative angle turns it back
    /// anticlockwise); readings at rest (zero) and speed-only entries are unchanged.
    mutating func turnCourses(byDegrees degrees: Double) {
        let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180)
        // A bearing θ has (east, north) = (sin θ, cos θ); θ + δ gives (e cos δ + n sin δ, n cos δ − e sin δ).
        for v in velocityState.indices {
            let e = velocityEast[v], n = velocityNorth[v]
            velocityEast[v] = e * c + n * s
            velocityNorth[v] = n * c - e * s
        }
    }
}
