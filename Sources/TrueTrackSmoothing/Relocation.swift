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
    /// half the ceiling explains, and followed by two steps it explains into fixes the ceiling does not reach from
    /// the fix before the jump (the forward filter re-anchors after three such fixes), with no impossible step within
    /// ``WarmStart/maximumExcursionSeconds`` into a fix the ceiling reaches from the fix before the jump, nor one
    /// within that window before it out of a fix the ceiling reaches the jump's from (the jump would open or close
    /// an excursion, which the warm start holds out instead). Empty when more than
    /// ``WarmStart/excursionLooseShare`` of the judged steps are impossible (the wrong profile: a train read as
    /// walking).
    ///
    /// The steps' judgement is kept in ``judgedSteps``, so that the warm start of the solve that follows does not
    /// judge them again.
    ///
    /// - Complexity: O(n): one pass over the steps with no square root for a step within the ceiling's travel.
    mutating func findRelocations(maximumSpeedMetresPerSecond ceiling: Double) -> [Int] {
        let count = positionState.count
        guard count >= 4, ceiling.isFinite, ceiling > 0 else { return [] }
        /// Whether measurement `b` lies beyond what the ceiling reaches from the earlier measurement `a`.
        func isBeyondReach(from a: Int, to b: Int) -> Bool { self.isBeyondReach(from: a, to: b, ceiling: ceiling) }
        /// Whether the step from measurement `m - 1` into `m` is judged: a later state of the same segment.
        func isJudged(_ m: Int) -> Bool {
            m > 0 && m < count && positionState[m] > positionState[m - 1] && !opensSegment[positionState[m]]
        }
        let (code, judged, impossibleCount) = stepJudgement(maximumSpeedMetresPerSecond: ceiling)
        judgedSteps = (ceiling, code, judged, impossibleCount)
        guard impossibleCount > 0, Double(impossibleCount) <= WarmStart.excursionLooseShare * Double(judged) else {
            return []
        }
        let impossible = code.indices.filter { code[$0] == 2 }
        var found: [Int] = []
        /// Whether the step from measurement `a` to `b` lies within what half the ceiling explains: a traveller's
        /// step, not one of a ride faster than the profile (a reviewer's car at 29-37 m/s under the cycling
        /// profile's 25 had its noisier steps read as relocations, 639 m of 35 km lost).
        func isSlow(from a: Int, to b: Int) -> Bool { !self.isBeyondReach(from: a, to: b, ceiling: ceiling / 2) }
        for m in impossible {
            // The step before within half the ceiling (or the jump opens the track's first step or its segment's).
            if isJudged(m - 1), !isSlow(from: m - 2, to: m - 1) { continue }
            // Two steps after it within half the ceiling, into fixes it does not reach from before the jump either:
            // the track goes on from where it landed (a lone fix off and back, which the ceiling may let back in one
            // step, is no relocation: the jumpy drives' 100-300 m fixes every 5 s were read as such).
            guard m + 2 < count, isJudged(m + 1), isJudged(m + 2), isSlow(from: m, to: m + 1),
                isSlow(from: m + 1, to: m + 2), isBeyondReach(from: m - 1, to: m + 1),
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

/// The steps no speed the profile allows explains, judged once for the warm start's excursions
/// (``WarmStart/markImpossibleExcursions(_:maximumSpeedMetresPerSecond:weights:)``) and the relocations.
extension TrackProblem {
    /// Whether measurement `b` lies beyond what `ceiling` (m/s) reaches from the earlier measurement `a` by more than
    /// ``WarmStart/excursionSigmas`` of the two fixes' noise (at least ``WarmStart/minimumImpossibleExcessMetres``).
    @inline(__always)
    func isBeyondReach(from a: Int, to b: Int, ceiling: Double) -> Bool {
        let de = positionEast[b] - positionEast[a], dn = positionNorth[b] - positionNorth[a]
        return Self.isBeyondReach(
            squared: de * de + dn * dn, seconds: times[positionState[b]] - times[positionState[a]],
            variances: positionVariance[a] + positionVariance[b], ceiling: ceiling)
    }

    /// Whether a displacement of `squared` m² over `seconds` lies beyond what `ceiling` reaches by more than the
    /// bound of two fixes whose variances sum to `variances` (the one test of every judgement of a step).
    @inline(__always)
    static func isBeyondReach(squared: Double, seconds: Double, variances: Double, ceiling: Double) -> Bool {
        let travel = ceiling * seconds
        // (Almost every step stays within the ceiling's travel: no square root for those.)
        guard squared > travel * travel else { return false }
        let sigmasSquared = WarmStart.excursionSigmas * WarmStart.excursionSigmas
        let minimum = WarmStart.minimumImpossibleExcessMetres
        let reach = travel + max(sigmasSquared * 2 * variances, minimum * minimum).squareRoot()
        return squared > reach * reach
    }

    /// Each step into a measurement judged once: `code` 0 not judged (the same state, a gap, longer than
    /// ``WarmStart/maximumExcursionStepSeconds``), 1 possible, 2 impossible under `ceiling`; with how many were judged
    /// and how many impossible. The judgement stored in ``judgedSteps`` for the same ceiling is returned as it is (the
    /// smoother judges a track once for its relocations and its warm start).
    ///
    /// - Complexity: O(n), one pass without bounds checks (judged by a call per step, the pass cost the `smooth`
    ///   benchmark 67 instructions per fix, 30 so).
    func stepJudgement(maximumSpeedMetresPerSecond ceiling: Double) -> (code: [UInt8], judged: Int, impossible: Int) {
        if let judgedSteps, judgedSteps.ceiling == ceiling {
            return (judgedSteps.code, judgedSteps.judged, judgedSteps.impossible)
        }
        let count = positionState.count
        var code = [UInt8](repeating: 0, count: count)
        var judged = 0, impossible = 0
        guard count > 1 else { return (code, 0, 0) }
        positionState.withUnsafeBufferPointer { st in
            times.withUnsafeBufferPointer { t in
                opensSegment.withUnsafeBufferPointer { op in
                    positionEast.withUnsafeBufferPointer { e in
                        positionNorth.withUnsafeBufferPointer { no in
                            positionVariance.withUnsafeBufferPointer { r in
                                code.withUnsafeMutableBufferPointer { c in
                                    for m in 1..<count {
                                        let sa = st[m - 1], sb = st[m]
                                        guard sb > sa, !op[sb] else { continue }
                                        let dt = t[sb] - t[sa]
                                        guard dt > 0, dt <= WarmStart.maximumExcursionStepSeconds else { continue }
                                        let de = e[m] - e[m - 1], dn = no[m] - no[m - 1]
                                        judged += 1
                                        if Self.isBeyondReach(
                                            squared: de * de + dn * dn, seconds: dt, variances: r[m - 1] + r[m],
                                            ceiling: ceiling)
                                        {
                                            c[m] = 2
                                            impossible += 1
                                        } else {
                                            c[m] = 1
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (code, judged, impossible)
    }
}
