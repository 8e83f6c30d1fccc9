// Stale repeats and runs of rejected fixes: when the filter re-anchors instead of rejecting.
// Part of `Tracker` (Tracker.swift holds its state and the per-fix path).

extension Tracker {
    /// How long after the last accepted fix a fix repeating its position exactly can be a stalled receiver's
    /// repeat, seconds: 5. Such a fix, while the track moved on by more than the fix's accuracy since (its
    /// Doppler speed, else the filter's, times the interval), is rejected as a ``RejectionReason/duplicate`` and the
    /// filter keeps predicting. Why: a stalled position engine (or an app polling the last known location)
    /// repeats its last fix for seconds while the vehicle moves on; fed to the filter, the repeats braked it, the
    /// first true fix after the stall failed the outlier gate, and the filter re-anchored there, giving up the
    /// stall's metres (a reviewer's drives repeating the last fix for 2–5 s about once a minute: −8.2 % of 22.4
    /// km under the position-only σₐ of 3 m/s², +0.05 % with this rule; cycling −5.6 → +0.3 %). Why a limit: the
    /// filter's speed stands still while repeats are rejected, so a real stop whose position a chipset holds
    /// (static hold) while the filter still lags the braking was rejected fix after fix for the whole stop (a
    /// reviewer's 60 s stop after braking at 8 m/s²: 59 of 60 fixes); after 5 s the repeats are accepted and
    /// the filter brakes. A still receiver holding its position, or a walker whose fixes repeat within their
    /// rounding, moves less than the accuracy in the meantime: accepted from the first repeat.
    @usableFromInline static let staleRepeatSeconds = 5.0

    /// Whether a fix at exactly the last accepted fix's position (`latitude`, `longitude`), `seconds` after it, is a
    /// stale repeat (see ``staleRepeatSeconds``). A repeat that is accepted is remembered as a hold, and later
    /// repeats of that position are accepted too: after the limit the filter has taken one repeat but still
    /// moves, and the next repeat, a second later, would start another 5 s of rejections (a reviewer's stop
    /// cycled through them, each accepted repeat integrating the frozen speed over 6 s). The hold's start (the last
    /// accepted fix, at this position), its latest repeat (`now`, ms since 1970) and the total when it began are
    /// kept for a release by a jump (``holdReleaseMinimumSeconds``). Out of line and `mutating` (by reference):
    /// exact repeats are rare.
    @usableFromInline @inline(never)
    mutating func isStaleRepeat(
        latitude: Double, longitude: Double, doppler: Double?, seconds dt: Double, accuracy: Double, now: Int64
    ) -> Bool {
        if latitude == heldLatitude && longitude == heldLongitude {
            // (Back at a position held before, after other fixes were accepted: a new hold begins.)
            if heldLastMilliseconds != lastAcceptedMilliseconds {
                heldSinceMilliseconds = lastAcceptedMilliseconds
                heldSinceTotalMetres = accumulator.totalMetres
            }
            heldLastMilliseconds = now
            return false
        }
        if dt <= Self.staleRepeatSeconds && (doppler ?? filter.speedMetresPerSecond) * dt > accuracy { return true }
        (heldLatitude, heldLongitude) = (latitude, longitude)
        (heldSinceMilliseconds, heldLastMilliseconds) = (lastAcceptedMilliseconds, now)
        heldSinceTotalMetres = accumulator.totalMetres
        return false
    }

    /// How long a receiver must have held one position (exact repeats, accepted) for a refusal straight after it
    /// to be a release by a jump, seconds: 3. Such a chipset (a static hold, or a position engine pinned while its
    /// speed is low) freezes the position and reports 0–0.5 m/s while the walker sets off, then jumps to where it
    /// is; the jump fails the outlier (or speed) gate and the third fix re-anchors there, which counts nothing: the
    /// walk during the hold was lost. A reviewer's IPIN-like phone walks (60–150 m, a 10–18 s hold at each
    /// departure, a chipset's smooth error): median |error| 19.0 %, worst −42.8 %; with this rule 11.1 % and
    /// −19.3 %; walks with a stop every 100–200 m: median 6.5 % → 2.7 %. The jump's chord (from the filtered
    /// position at the hold to the re-anchor), less what was counted from the hold's start, counts half a window
    /// after the re-anchor when the track has gone on (``settleHoldRelease(seconds:east:north:now:)``). Not when a
    /// fix of the run is accepted instead (the prediction widens over sparser fixes): the filter then follows the
    /// jump, and its speed counts part of it when the readings are not trusted, so a chord there would count that
    /// part twice. Nor when the hold began within half a window of an anchor: it then holds a fix no track
    /// confirmed, such as a re-anchor onto a multipath offset that the chipset froze while the walker stood (its
    /// release counted the offset back, +22 to +53 m a time in a reviewer's urban walks), or a rounding logger's
    /// multipath excursion repeated exactly. Why 3 s: a logger rounding its coordinates repeats a slow walker's fix
    /// for a second or two.
    @usableFromInline static let holdReleaseMinimumSeconds = 3.0

    /// Settles a hold released by a jump (``holdReleaseMinimumSeconds``) for a fix at (`east`, `north`) at `now`,
    /// half a window after the jump ended (``holdReleaseEnd``); `seconds` from the hold's start to then. Counts
    /// (returns, added to the accumulator) the chord from ``holdReleaseOrigin`` to ``holdReleaseEnd`` less
    /// ``holdReleaseCountedMetres`` when the run re-anchored there, the jump is beyond the fixes' noise (the
    /// net-displacement threshold), the track since has moved beyond it too while the readings did not all say
    /// still (a still receiver's zeros under a reflection that drifts on), the track is not back nearer the hold, the
    /// track heads not back along the jump (the filter's velocity, or its net movement while the filter reads under
    /// the deadband), the jump's pace over the hold is at most ``bridgeSpeedRatio`` times
    /// the pace since (the filter's, or the track's net pace when more) and that pace at least the deadband, and
    /// nothing says vehicle (the latch, a reading in force, or a pace above what the traveller sustains). Why these:
    /// a multipath jump that holds for three fixes comes back (a still receiver's stays put), and a bus ride that a
    /// frozen phone hid is faster than the walk after it. Around a rest (the driving and cycling profiles'
    /// departure hold) the chord joins the departure's held metres, begun here if none is pending, and is confirmed
    /// or given up with them (``leaveRest(doppler:filtered:now:threshold:)``). Out of line: rare.
    @usableFromInline @inline(never)
    mutating func settleHoldRelease(seconds: Double, east e: Double, north n: Double, now: Int64) -> Double {
        let jump = holdReleaseEnd - holdReleaseOrigin
        let chord = (jump * jump).sum().squareRoot()
        let velocity = SIMD2(filter.velocityEast, filter.velocityNorth)
        let speed = (velocity * velocity).sum().squareRoot()
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: profile.assumedDisplacementAccuracyMetres), profile: profile)
        let moved = SIMD2(e, n) - holdReleaseEnd, back = SIMD2(e, n) - holdReleaseOrigin
        let movedMetres = (moved * moved).sum().squareRoot()
        let sustained = profile.maximumSustainedSpeedMetresPerSecond
        let elapsed = max(Double(now &- holdReleaseMilliseconds) / 1000, 1e-3)
        // The pace after the jump: the filter's, or the track's net pace since when more; and its heading, the
        // filter's unless it reads under the deadband (a filter still waking from the hold points anywhere).
        let pace = max(speed, movedMetres / elapsed)
        let heading = speed >= profile.deadbandMetresPerSecond ? velocity : moved
        // Every reading since the re-anchor under the deadband (or missing, from a receiver that reports them): the
        // receiver says still, whatever its reflection does.
        // (The re-anchor's own reading may be missing, which its anchor does not count: every reading after it.)
        let readsStill = subDeadbandRun > 0 && fixCount - Double(subDeadbandRun) <= holdReleaseFixCount
        guard isHoldReleaseAnchored, !readsStill, chord > threshold, movedMetres > threshold,
            (back * back).sum().squareRoot() > chord, pace >= profile.deadbandMetresPerSecond,
            (heading * jump).sum() >= 0, chord / max(seconds, 1e-3) <= Self.bridgeSpeedRatio * pace,
            speed <= sustained, movedMetres / elapsed <= sustained, !isInVehicle, !readingExcludes(at: now)
        else { return 0 }
        let metres = chord - holdReleaseCountedMetres
        guard metres > 0 else { return 0 }
        guard isAroundRest else { return accumulator.add(doppler: 0, filtered: metres) }
        // Leaving a rest: the chord joins the departure's held metres (begun here if none is pending), which the
        // fix's own release or rest verdict judges after its update (`leaveRest`, `recordRest`).
        if departureMilliseconds == .min {
            beginDeparture(at: now)
            departureThresholdMetres = threshold
        }
        departurePending += SIMD2(0, metres)
        return 0
    }

    /// Whether a fix at (east, north) that passed the outlier gate right after a rejection continues the run of
    /// rejections instead of pulling the filter: when the receiver was at rest (over the trailing window up to
    /// the last accepted fix, the filtered track moved less than the net-displacement threshold) and the fix lies
    /// nearer the last rejected fix than the prediction (`predictedEast`, `predictedNorth`). The run may then
    /// re-anchor there (three agreeing fixes), which counts nothing, and so does the way back.
    ///
    /// Why: a multipath excursion holds its offset for seconds. Its first fix fails the gate, but the prediction
    /// for the next one spans two steps and passed it; the filter followed out and back at 20–40 m/s and the
    /// net-displacement gate released it. Generated parked receivers at 1 Hz without Doppler with 25–70 m
    /// excursions claiming 8 m (`tools/analysis/multipath_cases.py`, one every 200 / 50 s on average), per 2 h:
    /// - driving, every fix predicted under σₐ 8: 4.7 / 16.2 km, with this rule 1.8 / 6.3 km;
    /// - driving, fixes without Doppler under σₐ 3 (``TrackingProfile/accelerationSigmaWithoutDoppler``, the
    ///   preset now): 3.1 / 11.1 km without this rule, 0.6 / 2.1 km with it;
    /// - cycling 2.1 / 7.1 km → 0.27 / 1.5 km; walking 218 / 673 m → 9 / 31 m.
    ///
    /// Excursions whose first fix already passes the gate are not caught: they make most of what is left.
    ///
    /// Why only at rest: a moving receiver's rejected fix may be the right one. A receiver that repeats its last
    /// fix for 2–5 s while driving leaves the filter behind; the first true fix fails the gate, the next is
    /// nearer it than the lagging prediction, and continuing the run there cost 78–120 m per stall (a reviewer's
    /// cases: 22.4 km drives −8.6 % instead of +1.7 %; fixes flipping to a reflection 40 m away while cycling −46 %).
    /// Only for fixes without a Doppler speed (the caller checks): with one, the distance comes from the Doppler
    /// and an excursion costs nothing (parked receivers with speed count 0 m either way), while re-anchoring
    /// would give up the seconds the net-displacement gate holds.
    ///
    /// `mutating` only so that `self` is passed by reference: an out-of-line non-mutating method takes the
    /// tracker by value, and the caller copied the whole 3.5 KB tracker into a temporary for every such call
    /// (when this check was added non-mutating: 1,377 instructions per fix in the `tracker` benchmark, 648
    /// mutating; the getters ``distance`` and ``DistanceAccumulator/totalMetres`` are `@inline(__always)` for the
    /// same reason: once `process` grew past the inliner's budget they were called out of line, with a copy per
    /// fix).
    @usableFromInline @inline(never)
    mutating func continuesRejectionRun(
        east e: Double, north n: Double, predictedEast pe: Double, predictedNorth pn: Double
    ) -> Bool {
        // Only a receiver at rest: over the trailing window up to the last accepted fix, the filtered track has
        // not moved by the net-displacement threshold. (A window still filling counts: requiring half a window
        // after each re-anchor let the next excursions through, parked cars 2.0 / 7.6 km per 2 h instead of
        // 1.8 / 6.3.)
        guard let start = window.oldest() else { return false }
        let ne = filter.east - start.east, nn = filter.north - start.north
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: lastAccuracy), profile: profile)
        guard ne * ne + nn * nn < threshold * threshold else { return false }
        let re = e - lastRejectedEast, rn = n - lastRejectedNorth
        let fe = e - pe, fn = n - pn
        return re * re + rn * rn < fe * fe + fn * fn
    }

    /// Counts a rejected fix at (east, north) with per-axis variance `variance` into the run of rejections and
    /// returns whether the run now calls for a re-anchor (``TrackingProfile/rejectionsBeforeReanchor`` fixes).
    /// A fix extends the run only if it agrees with the run's previous fix: their distance, less what the
    /// profile's top speed covers in between, within the χ² gate of their two variances. Scattered multipath
    /// fixes (three outliers 300 m from the track and from each other) are not a relocation: each starts a
    /// new run (they re-anchored the filter 315 m off the path). Out of line: rejections are rare.
    @usableFromInline @inline(never)
    mutating func countsTowardsReanchor(east e: Double, north n: Double, variance r: Double, now: Int64) -> Bool {
        if consecutiveRejections > 0 {
            let seconds = Double(now &- lastRejectedMilliseconds) / 1000
            let de = e - lastRejectedEast, dn = n - lastRejectedNorth
            let reach = max(0, (de * de + dn * dn).squareRoot() - profile.maximumSpeedMetresPerSecond * seconds)
            let agrees = reach * reach <= profile.outlierChiSquare * (r + lastRejectedVariance)
            consecutiveRejections = agrees ? consecutiveRejections + 1 : 1
        } else {
            consecutiveRejections = 1
            // The first refusal straight after an accepted repeat of a position held long enough: a hold released
            // by a jump (see `holdReleaseMinimumSeconds`), its chord pending from the hold to here.
            if heldLastMilliseconds == lastAcceptedMilliseconds, !isHoldReleasePending, pendingGapSeconds == 0,
                Double(heldLastMilliseconds &- heldSinceMilliseconds) / 1000 >= Self.holdReleaseMinimumSeconds,
                lastAnchorMilliseconds == .min
                    || Double(heldSinceMilliseconds &- lastAnchorMilliseconds) / 1000 >= profile.windowSeconds / 2
            {
                (isHoldReleasePending, isHoldReleaseAnchored) = (true, false)
                pendingGapSeconds = Double(now &- heldSinceMilliseconds) / 1000
                holdReleaseOrigin = SIMD2(filter.east, filter.north)
                (holdReleaseEnd, holdReleaseMilliseconds) = (SIMD2(e, n), now)
                holdReleaseCountedMetres = accumulator.totalMetres - heldSinceTotalMetres
            }
        }
        (lastRejectedEast, lastRejectedNorth, lastRejectedVariance) = (e, n, r)
        lastRejectedMilliseconds = now
        // (A fix refused while a departure is pending breaks its run: see `confirmDeparture`.)
        departureLastAwayMetres = 0
        departureAwayRun = 0
        return consecutiveRejections >= profile.rejectionsBeforeReanchor
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
