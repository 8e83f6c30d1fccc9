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
    /// cycled through them, each accepted repeat integrating the frozen speed over 6 s). Out of line and
    /// `mutating` (by reference): exact repeats are rare.
    @usableFromInline @inline(never)
    mutating func isStaleRepeat(
        latitude: Double, longitude: Double, doppler: Double?, seconds dt: Double, accuracy: Double
    ) -> Bool {
        if latitude == heldLatitude && longitude == heldLongitude { return false }
        if dt <= Self.staleRepeatSeconds && (doppler ?? filter.speedMetresPerSecond) * dt > accuracy { return true }
        (heldLatitude, heldLongitude) = (latitude, longitude)
        return false
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
