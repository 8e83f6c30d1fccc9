/// Starting weights for the robust iterations (internal): each position fix is checked against what its
/// neighbours in time predict, before any solve, so that an isolated multipath jump starts down-weighted
/// instead of first pulling the least-squares track towards it and being discovered over several solves.
///
/// ## Method
/// For position measurement m, three predictions from the neighbouring measurements of the same segment:
/// the linear interpolation between m − 1 and m + 1, the extrapolation from m − 2 and m − 1, and the one
/// from m + 1 and m + 2. Each gives a 2-D residual normalised by the standard deviation of the difference
/// of the fixes alone (their variances through the interpolation weights). The median of the available
/// normalised residuals goes through the loss (the larger of two when only two predictions exist): with three,
/// one bad neighbour cannot make a good fix look bad, nor a bad fix look good, and a real manoeuvre keeps its
/// weight: a corner's fix lies off the chord of its neighbours but where both extrapolations meet.
///
/// The model's process variance over the span (q·τ³/3) is not in the normalisation (2026-12-02). With it, the span's
/// motion allowance dominated between fixes seconds apart (a car's σ of 50 m at 5 s, 150 m at 10 s), a jump of
/// 100–300 m started at weight 0.4–0.8, the first solve went through it, and the iterations stayed there. A manoeuvre that
/// starts down-weighted is still taken back: the same loose allowance lets the first solve follow it, and its weight
/// returns (docs/ARCHITECTURE.md, "Multipath jumps between sparse fixes"). A fix with fewer than two predictions keeps
/// weight 1. The iterations then continue from these weights as usual: the fixed point they converge to is the same
/// kind of minimum. Measured: on the `smooth` benchmark the share of weights still moving by > 0.01 after each solve is
/// 65 % → 12 % → 0.9 % → 0.08 %, so the convergence rule stops after 4 solves (the old "no weight moves" rule needed
/// 8); the gsdc2020-mtv1 drives stop after 2 with unchanged p50/p95 and distance. (Measured with the process term;
/// without it, 2026-12-02, the `smooth` benchmark stops after 4 solves where the per-link density alone took 5.)
///
/// - Complexity: O(measurements), no allocation besides the result.
enum WarmStart {
    static func positionWeights(
        _ p: TrackProblem, loss: RobustLoss, gapSeconds: Double, maximumSpeedMetresPerSecond: Double = .infinity
    ) -> (weights: [Double], held: [Int]) {
        let count = p.positionState.count
        var weights = [Double](repeating: 1, count: count)
        guard count >= 3 else { return (weights, []) }
        p.times.withUnsafeBufferPointer { times in
            p.positionState.withUnsafeBufferPointer { state in
                p.positionEast.withUnsafeBufferPointer { e in
                    p.positionNorth.withUnsafeBufferPointer { no in
                        p.positionVariance.withUnsafeBufferPointer { r in
                            weights.withUnsafeMutableBufferPointer { w in
                                /// The normalised residual of m against the line through a and b (any order
                                /// in time), or nil when a prediction is not defined (same time, too far).
                                func residual(_ m: Int, _ a: Int, _ b: Int) -> Double? {
                                    guard a >= 0, b >= 0, a < count, b < count else { return nil }
                                    let ta = times[state[a]], tb = times[state[b]], tm = times[state[m]]
                                    let span = tb - ta
                                    guard abs(span) > 0, abs(tm - ta) <= gapSeconds, abs(tm - tb) <= gapSeconds
                                    else { return nil }
                                    let f = (tm - ta) / span
                                    let pe = e[a] + (e[b] - e[a]) * f, pn = no[a] + (no[b] - no[a]) * f
                                    let variance = (1 - f) * (1 - f) * r[a] + f * f * r[b] + r[m]
                                    let de = e[m] - pe, dn = no[m] - pn
                                    return ((de * de + dn * dn) / variance).squareRoot()
                                }
                                for m in 0..<count {
                                    let d0 = residual(m, m - 1, m + 1)
                                    let d1 = residual(m, m - 2, m - 1)
                                    let d2 = residual(m, m + 1, m + 2)
                                    let d: Double
                                    switch (d0, d1, d2) {
                                    case let (x?, y?, z?): d = max(min(x, y), min(max(x, y), z))
                                    case let (x?, y?, nil), let (x?, nil, y?), let (nil, x?, y?): d = max(x, y)
                                    default: continue
                                    }
                                    w[m] = max(loss.weight(normalisedResidual: d), WholeTrackSmoother.minimumWeight)
                                }
                            }
                        }
                    }
                }
            }
        }
        markExcursions(p, weights: &weights)
        let held = markImpossibleExcursions(
            p, maximumSpeedMetresPerSecond: maximumSpeedMetresPerSecond, weights: &weights)
        return (weights, held)
    }

    /// The longest excursion ``markExcursions(_:weights:)`` looks for, seconds: 30 (urban multipath holds a
    /// receiver off for seconds, rarely half a minute; a longer departure and return may be a real detour).
    static let maximumExcursionSeconds = 30.0
    /// The longest step between fixes it judges, seconds: 5 (dense tracks; jumps between sparse fixes are the
    /// neighbour checks' and the process scale's, docs/ARCHITECTURE.md "Multipath jumps between sparse fixes").
    static let maximumExcursionStepSeconds = 5.0
    /// The smallest disagreement of a step with its velocity readings that may open an excursion, metres: 30,
    /// beyond a car's metre per step of reading noise and a walker's whole step.
    static let minimumExcursionMetres = 30.0
    /// How many standard deviations of the two fixes' noise a step must disagree by: 6.
    static let excursionSigmas = 6.0
    /// The largest share of a track's judged steps that may disagree with their readings by more than half the
    /// bound for excursions to be looked for: 5 %. Honest readings under 5 m fixes: about 0.6 % (the fixes' noise
    /// alone); a course in another convention: most steps at speed.
    static let excursionLooseShare = 0.05

    /// Starts at the minimum weight the fixes of an excursion that the velocity readings deny: a step whose
    /// position change disagrees with the dead reckoning of the readings at its ends (their mean velocity × the
    /// step) by more than ``minimumExcursionMetres`` and ``excursionSigmas`` of the fixes' noise, after a step that
    /// agrees (within half that bound), and a later step within ``maximumExcursionSeconds`` after which the
    /// positions agree with the dead reckoning from before the first again (the disagreements summed over the steps
    /// between come back within the bound), followed by a step that agrees: the fixes between left the track and
    /// came back to it. Nothing is marked on a track where more than ``excursionLooseShare`` of the judged steps
    /// disagree by half the bound: its readings do not describe its positions.
    ///
    /// Why: a multipath excursion of several fixes (a cyclist's 1–15 s excursions of 170–250 m claiming 5 m,
    /// under readings of a steady 6 m/s: a smoother tester's) agrees with itself, so each of its fixes looks
    /// good to its neighbours, and the smoother followed it: +820 m on a 30-minute ride, positions 113–207 m off
    /// claiming 3–7 m. The readings deny its two steps, out and back, and nothing else does. A real manoeuvre
    /// moves as its readings say; readings that are wrong (a column of zeros under motion, a course in another
    /// convention: a reviewer's math-angle courses opened "excursions" on true fixes, 300 m off for 30 s, before
    /// the share test) disagree on many steps, and nothing is marked.
    static func markExcursions(_ p: TrackProblem, weights: inout [Double]) {
        let count = p.positionState.count
        guard count >= 4, !p.velocityState.isEmpty else { return }
        // Each state's velocity reading (its index), when it has one with a direction.
        var velocityOf = [Int](repeating: -1, count: p.times.count)
        for k in p.velocityState.indices where p.velocityVariance[k] < TrackProblem.unalignedVariance / 2 {
            velocityOf[p.velocityState[k]] = k
        }
        // The step into each measurement m (from m − 1): its disagreement (east, north, metres) and bound, or nil
        // when the readings cannot judge it.
        struct Step {
            var east: Double, north: Double, bound: Double
            var isBreak: Bool { east * east + north * north > bound * bound }
            /// Within half the bound: the positions move as the readings say.
            var agrees: Bool { 4 * (east * east + north * north) <= bound * bound }
        }
        let states = p.positionState, times = p.times, opens = p.opensSegment
        let positionEast = p.positionEast, positionNorth = p.positionNorth, positionVariance = p.positionVariance
        let velocityEast = p.velocityEast, velocityNorth = p.velocityNorth, velocityVariance = p.velocityVariance
        let minimumSquared = minimumExcursionMetres * minimumExcursionMetres
        func step(_ m: Int) -> Step? {
            let a = states[m - 1], b = states[m]
            guard b > a, !opens[b] else { return nil }
            let dt = times[b] - times[a]
            let va = velocityOf[a], vb = velocityOf[b]
            guard dt > 0, dt <= maximumExcursionStepSeconds, va >= 0, vb >= 0 else { return nil }
            let east = positionEast[m] - positionEast[m - 1] - (velocityEast[va] + velocityEast[vb]) / 2 * dt
            let north = positionNorth[m] - positionNorth[m - 1] - (velocityNorth[va] + velocityNorth[vb]) / 2 * dt
            let variance =
                positionVariance[m] + positionVariance[m - 1] + (velocityVariance[va] + velocityVariance[vb]) / 4 * dt
                * dt
            // (The bound squared unless it is the minimum: a square root only for the fixes' own.)
            let squared = excursionSigmas * excursionSigmas * 2 * variance
            return Step(
                east: east, north: north,
                bound: squared > minimumSquared ? squared.squareRoot() : minimumExcursionMetres)
        }
        // Readings that do not describe the track (a course in another convention, turned: a reviewer's drives with
        // courses written as math angles agree near 45° and 225° and turn away and back, which opened "excursions"
        // on true fixes, 300 m off for 30 s) disagree on many steps: then nothing is marked. The excursions are
        // found first and marked once the share is known (the steps judged once each: a pass of its own for the
        // share cost the `smooth` benchmark 109 instructions per fix).
        var judged = 0, loose = 0
        var excursions: [Range<Int>] = []
        // One step judged per measurement: the step before the one judged is carried (whether it agreed).
        var previousAgrees = false
        var m = 1
        while m < count {
            guard let entry = step(m) else {
                previousAgrees = false
                m += 1
                continue
            }
            judged += 1
            if !entry.agrees { loose += 1 }
            guard entry.isBreak, previousAgrees, m < count - 1 else {
                previousAgrees = entry.agrees
                m += 1
                continue
            }
            // Sum the disagreements from the entry on until they come back within the bound.
            let start = times[states[m]]
            var east = entry.east, north = entry.north
            var exit: Int?
            var k = m + 1
            while k < count, times[states[k]] - start <= maximumExcursionSeconds {
                guard let s = step(k) else { break }
                east += s.east
                north += s.north
                if s.isBreak, (east * east + north * north).squareRoot() <= max(entry.bound, s.bound) {
                    if k + 1 < count, let after = step(k + 1), after.agrees { exit = k }
                    break
                }
                k += 1
            }
            guard let exit else {
                previousAgrees = false
                m += 1
                continue
            }
            excursions.append(m..<exit)
            // (The step after the exit agreed: judged on from the one after it.)
            previousAgrees = true
            m = exit + 2
        }
        guard !excursions.isEmpty, Double(loose) <= Self.excursionLooseShare * Double(judged) else { return }
        for excursion in excursions {
            for j in excursion { weights[j] = WholeTrackSmoother.minimumWeight }
        }
    }

    /// The smallest distance beyond the profile's speed ceiling that makes a step impossible, metres: 10 (beside
    /// ``excursionSigmas`` of the two fixes' noise; the ceiling itself is far beyond how any track moves).
    static let minimumImpossibleExcessMetres = 10.0

    /// Starts at the minimum weight the fixes of an excursion that no speed the profile allows explains (on every
    /// track; it matters where ``markExcursions(_:weights:)`` has no readings to judge by): a step (≤
    /// ``maximumExcursionStepSeconds``) longer than the profile's ceiling × its time by more than
    /// ``excursionSigmas`` of the two fixes' noise (at least ``minimumImpossibleExcessMetres``), after a step that is
    /// not, and a later impossible step within ``maximumExcursionSeconds`` into a fix that the ceiling does reach
    /// from the fix before the first, followed by a possible step: the fixes between left the track faster than the
    /// profile moves and came back as fast. Of those, the fixes off the chord across the excursion by half the
    /// excursion's median offset (and the noise) are marked. Nothing is marked on a track where more than
    /// ``excursionLooseShare`` of the judged steps are impossible (the wrong profile: a train read as walking; such
    /// a departure does not come back either).
    ///
    /// Why: a burst of multipath fixes held 200 m off for 10 s, claiming 3 m, agrees with itself, and without a
    /// course reading nothing else denies it: a smoother tester's 1 Hz ride at 6 m/s without readings (or with a
    /// speed column and no course) read 3,930 ± 31 m of 3,600 (forward filter 3,580 m, its speed gate rejecting
    /// the burst), the smoothed track 200 m off the road claiming 2–5 m.
    /// - Returns: the measurements marked, which the iterations hold at the minimum weight: with no reading to hold
    ///   the track, the robust weights of a 15-fix excursion 230 m off settled where the track followed it 84 m.
    static func markImpossibleExcursions(
        _ p: TrackProblem, maximumSpeedMetresPerSecond ceiling: Double, weights: inout [Double]
    ) -> [Int] {
        let count = p.positionState.count
        guard count >= 4, ceiling.isFinite, ceiling > 0 else { return [] }
        let states = p.positionState, times = p.times, opens = p.opensSegment
        let east = p.positionEast, north = p.positionNorth, variance = p.positionVariance
        let sigmasSquared = excursionSigmas * excursionSigmas
        let minimumSquared = minimumImpossibleExcessMetres * minimumImpossibleExcessMetres
        /// Whether the ceiling reaches fix `b` from the earlier fix `a`.
        func reaches(from a: Int, to b: Int) -> Bool { !p.isBeyondReach(from: a, to: b, ceiling: ceiling) }
        /// Whether a gap opens between measurements `a` and `b` (a < b).
        func crossesGap(_ a: Int, _ b: Int) -> Bool {
            var s = states[a] + 1
            while s <= states[b] {
                if opens[s] { return true }
                s += 1
            }
            return false
        }
        let (code, judged, impossible) = p.stepJudgement(maximumSpeedMetresPerSecond: ceiling)
        guard impossible > 0, Double(impossible) <= excursionLooseShare * Double(judged) else { return [] }
        var excursions: [(before: Int, range: Range<Int>)] = []
        var previousPossible = false
        var m = 1
        while m < count {
            guard code[m] != 0 else {
                previousPossible = false
                m += 1
                continue
            }
            let out = code[m] == 2
            guard out, previousPossible, m < count - 1 else {
                previousPossible = !out
                m += 1
                continue
            }
            // The way back: an impossible step into a fix the ceiling reaches from the one before the excursion.
            let start = times[states[m]]
            var exit: Int?
            var k = m + 1
            while k < count, times[states[k]] - start <= maximumExcursionSeconds, !crossesGap(k - 1, k) {
                if code[k] == 2, reaches(from: m - 1, to: k) {
                    if k + 1 < count, code[k + 1] == 1 { exit = k }
                    break
                }
                k += 1
            }
            guard let exit else {
                previousPossible = false
                m += 1
                continue
            }
            excursions.append((m - 1, m..<exit))
            previousPossible = true
            m = exit + 2
        }
        guard !excursions.isEmpty else { return [] }
        var held: [Int] = []
        for excursion in excursions {
            // Only the fixes off the chord across the excursion (from the fix before it to the first fix back) by
            // half the excursion's median offset or more, and by more than the fixes' noise: a fix on the track that
            // shares a time with an excursion's (two sources at one instant) keeps its weight. (Reachability from
            // the two ends was tried: at 70 m/s it reaches most of a 200 m excursion, and a drive's bursts were
            // followed again, 116 → 2,989 m summed |error| on the tester's.)
            let a = excursion.before, b = excursion.range.upperBound
            let ta = times[states[a]], span = times[states[b]] - ta
            func squaredOffset(_ j: Int) -> Double {
                let f = span > 0 ? (times[states[j]] - ta) / span : 0
                let de = east[j] - (east[a] + (east[b] - east[a]) * f)
                let dn = north[j] - (north[a] + (north[b] - north[a]) * f)
                return de * de + dn * dn
            }
            // Half the excursion's median offset (a burst whose first fix is its farthest, 500 m then 200 m, held
            // only the first by half of that one's: a reviewer's).
            let offsets = excursion.range.map(squaredOffset)
            let half = offsets.sorted()[offsets.count / 2] / 4
            for (j, offset) in zip(excursion.range, offsets)
            where offset > max(half, sigmasSquared * 2 * (variance[a] + variance[j]), minimumSquared) {
                weights[j] = WholeTrackSmoother.minimumWeight
                held.append(j)
            }
        }
        return held
    }
}
