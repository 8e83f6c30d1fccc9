import TrueTrackCore

/// Relocations: steps no speed the profile allows explains, after which the track goes on from where it landed
/// instead of coming back (a receiver's position that jumps hundreds of metres or kilometres for good: a fix
/// source switched, a lasting multipath shift, a wrong-but-consistent position after a tunnel). The forward
/// filter re-anchors there after three rejected fixes and counts nothing for the jump; the smoother, bridging it
/// with one continuous track, counted a walk's relocation of 389 km as travel, and for a 222 m one judged the
/// walk around it a vehicle ride (23.8 m of an 82.6 m walk; a tester's).
extension TrackProblem {
    /// The fixes (indices into the caller's array) that follow a relocation: a step (≤
    /// ``WarmStart/maximumExcursionStepSeconds``, within a segment) longer than the ceiling × its time by more than
    /// ``WarmStart/excursionSigmas`` of the two fixes' noise (at least ``WarmStart/minimumImpossibleExcessMetres``:
    /// the bound of ``WarmStart/markImpossibleExcursions(_:maximumSpeedMetresPerSecond:weights:)``), after a step
    /// the ceiling explains, and followed by two steps it explains into fixes it does not reach from the fix before
    /// the jump (the forward filter re-anchors after three such fixes), with no impossible step within
    /// ``WarmStart/maximumExcursionSeconds`` into a fix the ceiling reaches from the fix before the jump, nor one
    /// within that window before it out of a fix the ceiling reaches the jump's from (the jump would open or close
    /// an excursion, which the warm start holds out instead). Empty when more than
    /// ``WarmStart/excursionLooseShare`` of the judged steps are impossible (the wrong profile: a train read as
    /// walking).
    ///
    /// - Complexity: O(n): one pass over the steps with no square root for a step within the ceiling's travel.
    func relocations(maximumSpeedMetresPerSecond ceiling: Double) -> [Int] {
        let count = positionState.count
        guard count >= 4, ceiling.isFinite, ceiling > 0 else { return [] }
        let sigmasSquared = WarmStart.excursionSigmas * WarmStart.excursionSigmas
        let minimumSquared = WarmStart.minimumImpossibleExcessMetres * WarmStart.minimumImpossibleExcessMetres
        /// Whether measurement `b` lies beyond what the ceiling reaches from the earlier measurement `a`.
        func isBeyondReach(from a: Int, to b: Int) -> Bool {
            let de = positionEast[b] - positionEast[a], dn = positionNorth[b] - positionNorth[a]
            let squared = de * de + dn * dn
            let travel = ceiling * (times[positionState[b]] - times[positionState[a]])
            guard squared > travel * travel else { return false }
            let reach =
                travel
                + max(sigmasSquared * 2 * (positionVariance[a] + positionVariance[b]), minimumSquared).squareRoot()
            return squared > reach * reach
        }
        /// Whether the step from measurement `m - 1` into `m` is judged: a later state of the same segment.
        func isJudged(_ m: Int) -> Bool {
            m > 0 && m < count && positionState[m] > positionState[m - 1] && !opensSegment[positionState[m]]
        }
        var impossible: [Int] = []
        var judged = 0
        // The one pass over every step, without bounds checks and with a square root only beyond the ceiling's
        // travel (through the helpers above, it cost the `smooth` benchmark 75 instructions per fix).
        positionState.withUnsafeBufferPointer { st in
            times.withUnsafeBufferPointer { t in
                opensSegment.withUnsafeBufferPointer { op in
                    positionEast.withUnsafeBufferPointer { e in
                        positionNorth.withUnsafeBufferPointer { no in
                            positionVariance.withUnsafeBufferPointer { r in
                                for m in 1..<count {
                                    let sa = st[m - 1], sb = st[m]
                                    guard sb > sa, !op[sb] else { continue }
                                    let dt = t[sb] - t[sa]
                                    guard dt <= WarmStart.maximumExcursionStepSeconds else { continue }
                                    judged += 1
                                    let de = e[m] - e[m - 1], dn = no[m] - no[m - 1]
                                    let squared = de * de + dn * dn
                                    let travel = ceiling * dt
                                    guard squared > travel * travel else { continue }
                                    let reach =
                                        travel
                                        + max(sigmasSquared * 2 * (r[m - 1] + r[m]), minimumSquared).squareRoot()
                                    if squared > reach * reach { impossible.append(m) }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard !impossible.isEmpty, Double(impossible.count) <= WarmStart.excursionLooseShare * Double(judged) else {
            return []
        }
        var found: [Int] = []
        for m in impossible {
            // The step before explains itself (or the jump opens the track's first step or its segment's).
            if isJudged(m - 1), isBeyondReach(from: m - 2, to: m - 1) { continue }
            // Two steps after it that the ceiling explains, into fixes it does not reach from before the jump
            // either: the track goes on from where it landed (a lone fix off and back, which the ceiling may let
            // back in one step, is no relocation: the jumpy drives' 100-300 m fixes every 5 s were read as such).
            guard m + 2 < count, isJudged(m + 1), isJudged(m + 2), !isBeyondReach(from: m, to: m + 1),
                !isBeyondReach(from: m + 1, to: m + 2), isBeyondReach(from: m - 1, to: m + 1),
                isBeyondReach(from: m - 1, to: m + 2)
            else { continue }
            // No way back within the excursion window.
            let start = times[positionState[m]]
            var k = m + 1
            var returns = false
            while k < count, times[positionState[k]] - start <= WarmStart.maximumExcursionSeconds {
                if positionState[k] > positionState[k - 1], opensSegment[positionState[k]] { break }
                if isJudged(k), isBeyondReach(from: k - 1, to: k), !isBeyondReach(from: m - 1, to: k) {
                    returns = true
                    break
                }
                k += 1
            }
            // Nor the way back of an excursion: an impossible step within the window before, out of a fix the
            // ceiling reaches this one from.
            k = m - 1
            while !returns, k > 0, start - times[positionState[k]] <= WarmStart.maximumExcursionSeconds {
                if positionState[k] > positionState[k - 1], opensSegment[positionState[k]] { break }
                if isJudged(k), isBeyondReach(from: k - 1, to: k), !isBeyondReach(from: k - 1, to: m) {
                    returns = true
                }
                k -= 1
            }
            if !returns { found.append(fixIndex[m]) }
        }
        return found
    }
}
