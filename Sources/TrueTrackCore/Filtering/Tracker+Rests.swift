// Rests and departures: the departure hold, given up when the track comes back.
// Part of `Tracker` (Tracker.swift holds its state and the per-fix path).

extension Tracker {
    /// Records a "not moving" verdict of the net-displacement gate (a window with too little Doppler) at `now`
    /// (see ``TrackingProfile/departureConfirmationSeconds``); a run of them a window long makes the window's
    /// oldest sample the rest the track may leave. A departure pending from an earlier rest is settled first:
    /// given up if the track is back at the rest (``isBackAtRest(away:threshold:)``: an excursion went out and
    /// came back; a verdict far from the rest, a U-turn's, gives nothing up), counted if it has lasted long enough
    /// (``confirmDeparture(now:away:threshold:)``), and otherwise kept, this rest not replacing the one left (an
    /// excursion resting at its far end for longer than the window still comes back to the rest it left; a car
    /// that moved up 1–1.5 thresholds in a queue and stopped is not back). Returns the metres counted. Out of
    /// line and `mutating` (by reference): it runs only without Doppler.
    @usableFromInline @inline(never)
    mutating func recordRest(now: Int64, threshold: Double) -> Double {
        // (`lastAcceptedMilliseconds` is still the previous accepted fix's time.)
        if isDepartureFromStillReadings, departureMilliseconds == .min, !isOverrulingReadings {
            // (A run that held a departure from where trusted zeros agreed ended before releasing anything.)
            forgetUnreleasedDeparture(threshold: threshold)
        }
        if restVerdictMilliseconds != lastAcceptedMilliseconds { restRunMilliseconds = now }
        restVerdictMilliseconds = now
        var counted = 0.0
        if departureMilliseconds != .min {
            let away = distanceFromRest(threshold: threshold)
            if isBackAtRest(away: away, threshold: threshold) {
                giveUpDeparture()
            } else {
                counted = confirmDeparture(now: now, away: away, threshold: threshold)
                if departureMilliseconds != .min { return 0 }
            }
        }
        if Double(now &- restRunMilliseconds) / 1000 >= profile.windowSeconds, let start = window.oldest() {
            restOrigin = SIMD2(start.east, start.north)
            hasRest = true
        }
        return counted
    }

    /// Whether the departure hold is at work: a rest to leave, or a departure from one pending.
    @inlinable @inline(__always)
    var isAroundRest: Bool { hasRest || departureMilliseconds != .min }

    /// Takes the metres (`doppler`, `filtered`) the gates released at `now` after a rest: a departure begins (or
    /// goes on) and holds them until ``confirmDeparture(now:away:threshold:)`` counts them, or, when the track is
    /// back at the rest from a farthest point one fix away (a jump), gives them up with the departure. A departure
    /// from where trusted still readings agreed (``isDepartureFromStillReadings``) counts at once when the metres
    /// released include more than `threshold` of trusted readings (the receiver's own readings say it moves: a
    /// first version gave up 840 m a revived column had counted). Returns the metres counted. Out of line and
    /// `mutating`: only on leaving a rest.
    @usableFromInline @inline(never)
    mutating func leaveRest(doppler: Double, filtered: Double, now: Int64, threshold: Double) -> Double {
        let isStart = departureMilliseconds == .min
        if isStart { beginDeparture(at: now) }
        if isDepartureFromStillReadings, !isStart, doppler > threshold {
            // Trusted readings above the deadband released: the receiver's own readings say it moved.
            departurePending += SIMD2(doppler, filtered)
            return endRest()
        }
        let away = distanceFromRest(threshold: threshold)
        if !isStart, departureRunAtFarthest <= 1 || isDepartureFromStillReadings,
            isBackAtRest(away: away, threshold: threshold)
        {
            // Back where it rested while the window still reads motion, from a farthest point it reached on its
            // first fix away (a lone jump): an excursion, its way back included. (Not from one reached fix after
            // fix: a car that drives back past its parking place is on a trip, and a first version that gave up
            // any departure back here lost a reviewer's U-turns 30–90 m out at 1–5 s, 60–220 m each.)
            giveUpDeparture()
            return 0
        }
        departurePending += SIMD2(doppler, filtered)
        return confirmDeparture(now: now, away: away, threshold: threshold)
    }

    /// Begins a departure from the rest at `now` (ms since 1970): nothing held yet, nothing measured of it.
    @usableFromInline
    mutating func beginDeparture(at now: Int64) {
        departureMilliseconds = now
        departureFarthestMetres = 0
        departureLastAwayMetres = 0
        departureAwayRun = 0
        departureRunAtFarthest = 0
    }

    /// Gives up the pending departure: the track is back at its rest, so it was an excursion.
    @usableFromInline
    mutating func giveUpDeparture() {
        departureMilliseconds = .min
        departurePending = SIMD2(0, 0)
        // (The chords over it were the excursion's too: the odometer starts again.)
        chordFixCount = -1
        if isDepartureFromStillReadings {
            hasRest = false
            isDepartureFromStillReadings = false
            stillReadingDeparturesGivenUp &+= 1
        }
    }

    /// Whether a track `away` metres from its rest is back there (see ``recordRest(now:threshold:)``). A departure
    /// from where trusted still readings agreed (``isDepartureFromStillReadings``) is back within twice `threshold`
    /// or a quarter of the farthest it went, reached within two accepted fixes of being within two thresholds of that
    /// farthest (a snap back, also after staying out; not a drive that comes round the block). Otherwise: within half
    /// of `threshold`; or within `threshold` and back by more than `threshold` from the farthest it went; or, when
    /// it reached its farthest in fewer than ``departureConfirmationFixes`` fixes away (a jump, not a drive:
    /// ``departureRunAtFarthest``), within twice `threshold` or a quarter of the farthest after going out beyond
    /// four times `threshold` (a jump out and back, whose fixes at the rest scatter by the receiver's noise).
    @usableFromInline
    func isBackAtRest(away: Double, threshold: Double) -> Bool {
        if isDepartureFromStillReadings {
            return Self.isNearStillOrigin(away: away, farthest: departureFarthestMetres, threshold: threshold)
                && fixCount - departureFarthestFixCount <= 2
        }
        return away <= threshold / 2 || (away <= threshold && away <= departureFarthestMetres - threshold)
            || (departureFarthestMetres >= 4 * threshold
                && departureRunAtFarthest < Tracker.departureConfirmationFixes
                && away <= max(2 * threshold, departureFarthestMetres / 4))
    }

    /// The filtered track's distance from ``restOrigin`` (metres), recorded in ``departureFarthestMetres`` with
    /// `threshold`.
    @usableFromInline
    mutating func distanceFromRest(threshold: Double) -> Double {
        let d = SIMD2(filter.east, filter.north) - restOrigin
        let away = (d * d).sum().squareRoot()
        departureFarthestMetres = max(departureFarthestMetres, away)
        if away >= departureFarthestMetres - 2 * threshold {
            // (Near its farthest: a slide that stays out and then snaps back left from there.)
            departureFarthestFixCount = fixCount
            departureFarthestMilliseconds = lastReceivedMilliseconds
        }
        departureThresholdMetres = threshold
        return away
    }

    /// The end of the track (or of the session): counts the metres a departure still holds unless the track is
    /// back at the rest it left (as ``recordRest(now:threshold:)`` judges it: then they are given up), those a
    /// run that overrules its readings still holds (``releaseOverruledRun()``), a reset gap's chord not yet settled
    /// (``settleGapAtEnd()``), those a window too young to judge still holds if it moved (``releaseYoungWindow()``),
    /// and a chain's last chord if it agreed with the chord before it (``releaseCertifiedChainEnd()``), and returns
    /// them.
    /// Why: a track ending within ``TrackingProfile/departureConfirmationSeconds`` of leaving a rest, before
    /// 100 m, lost those metres (a reviewer's drives ending 8 s after pulling away: 42 → 0 m of 61; rides
    /// ending 20 s on: 89 → 0 m of 95). Call it once, at the end: it forgets the rest, so fixes after it start
    /// without one (an excursion's way back would count). `truetrack process` calls it after the last fix; the
    /// per-fix totals of its decisions do not hold what it counts.
    @discardableResult
    public mutating func finishTrack() -> Double {
        let overruled =
            releaseOverruledRun() + settleGapAtEnd() + releaseYoungWindow() + releaseCertifiedChainEnd()
        guard departureMilliseconds != .min else { return overruled }
        let threshold = departureThresholdMetres
        let away = distanceFromRest(threshold: threshold)
        guard !isBackAtRest(away: away, threshold: threshold) else {
            giveUpDeparture()
            return overruled
        }
        return overruled + endRest()
    }

    /// At the end of the track, counts what the window still holds when the last fix continued a run that overrules
    /// its readings (``ContradictedReadings``) and returns the metres counted: the run proved the track moving, and
    /// the release it lowered the window for comes with the next fix's moving window, which a track ending there
    /// never has (a reviewer's drive every 15 s whose column turned to zeros, overruled at its last fix: the last
    /// 60 s, 480 m, went uncounted).
    @usableFromInline
    mutating func releaseOverruledRun() -> Double {
        guard isOverrulingReadings, !isInVehicle, let start = window.oldest()
        else { return 0 }
        let held = candidates - pointwiseMax(committed, SIMD2(start.candidateDoppler, start.candidateFiltered))
        committed = candidates
        contradiction.end()
        return accumulator.add(doppler: max(held.x, 0), filtered: max(held.y, 0))
    }

    /// At the end of the track, counts what the window still holds when the track ended within half a window span of
    /// its anchor, before the window could tell a traveller from a vehicle pulling away (the per-fix path holds
    /// everything then, see `process`), and returns the metres counted. The young window counts when its filtered
    /// track moved beyond the accuracy threshold (``NetDisplacementGate/threshold(meanAccuracy:profile:)``, not the
    /// noise floor a full window adds) and, with readings over half of its time, when they average
    /// ``TrackingProfile/motionDopplerSpeedMetresPerSecond`` or more; never when its net speed is above
    /// ``TrackingProfile/maximumSustainedSpeedMetresPerSecond`` (a vehicle's first seconds) or during a vehicle
    /// spell; and for a profile that sustains any speed (driving, cycling), only with readings over half of it.
    /// (After a reset gap, ``settleGapAtEnd()`` has judged the window first: a cold fix converging back gave up what
    /// it held.) Readings count as the
    /// window's filtered path when the ``DopplerCheck`` distrusts them or when their path exceeds that path (or the
    /// net displacement) by more than 1 / ``TrackingProfile/dopplerTrustRatio`` (a short track's column in km/h:
    /// the unit checks need longer).
    /// Why: a 7 s walk of 9.8 m at 1.4 m/s, its readings 1.4 m/s, counted 0 m (a tester's), while the smoother read
    /// 9.8 m; a walk ending seconds after a gap's re-anchor lost those seconds the same way. (A reviewer's parked car
    /// woken for bursts of 4 fixes converging from 40-120 m off, driving: its last burst counted 85 m, and one at
    /// every session break 733 m a day, before the last two conditions; a 7 s walk read in km/h, 35.3 m of 9.8.)
    @usableFromInline
    mutating func releaseYoungWindow() -> Double {
        guard !isInVehicle, let start = window.oldest() else { return 0 }
        let milliseconds = lastAcceptedMilliseconds &- start.milliseconds
        guard milliseconds > 0, milliseconds < windowSpanMilliseconds / 2 else { return 0 }
        let held = candidates - pointwiseMax(committed, SIMD2(start.candidateDoppler, start.candidateFiltered))
        guard held.x + held.y > 0 else { return 0 }
        let seconds = Double(milliseconds) / 1000
        let d = SIMD2(filter.east, filter.north) - SIMD2(start.east, start.north)
        let net = (d * d).sum().squareRoot()
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: profile.assumedDisplacementAccuracyMetres), profile: profile)
        let readingsMetres = dopplerPath - start.dopplerPath
        let readingsSeconds = dopplerSeconds - start.dopplerSeconds
        let windowPosition = positionPath - start.positionPath
        let hasReadings = readingsSeconds >= seconds / 2
        guard NetDisplacementGate.isMoving(netDisplacement: net, threshold: threshold),
            net / seconds <= profile.maximumSustainedSpeedMetresPerSecond,
            hasReadings || profile.maximumSustainedSpeedMetresPerSecond.isFinite,
            !hasReadings || readingsMetres / readingsSeconds >= profile.motionDopplerSpeedMetresPerSecond
        else { return 0 }
        var release = (doppler: max(held.x, 0), filtered: max(held.y, 0))
        let evidence = judgedDopplerEvidence
        let isTrusted =
            DopplerCheck.isTrusted(
                dopplerPathMetres: readingsMetres, positionPathMetres: windowPosition, thresholdMetres: threshold,
                sessionDopplerPathMetres: evidence.x, sessionPositionPathMetres: evidence.y, profile: profile)
            && !readsInAnotherUnit && !speedReadsWrong
            && readingsMetres * profile.dopplerTrustRatio <= max(windowPosition, net)
        if !isTrusted {
            release = Self.releaseOfDistrustedReadings(
                doppler: release.doppler, filtered: release.filtered, windowDoppler: readingsMetres,
                windowPosition: windowPosition)
        }
        committed = candidates
        return accumulator.add(doppler: release.doppler, filtered: release.filtered)
    }

    /// At the end of the track, settles a reset gap still pending because the track ended within half a window of
    /// its anchor, before `bridge` settles it (``settlePendingGap(anchor:east:north:accuracy:now:)``, at the last
    /// fix): its chord counts by the same tests, or a cold fix converging back gives up what the window held.
    /// Returns the metres counted. Why: a walk ending 7 s after a 300 s silence lost the ~316 m chord across it (a
    /// reviewer's: 93.8 m counted).
    @usableFromInline
    mutating func settleGapAtEnd() -> Double {
        guard pendingGapSeconds > 0, !isHoldReleasePending, let anchor = window.oldest(),
            lastAcceptedMilliseconds > anchor.milliseconds
        else { return 0 }
        // (The window's mean displacement accuracy for the last fix's: `lastAccuracy` holds the accuracy gate's 30 m
        // fallback for a fix without one, where `bridge` takes the profile's 10 m displacement noise; a reviewer's.)
        return settlePendingGap(
            anchor: anchor, east: lastRawEast, north: lastRawNorth,
            accuracy: windowMeanAccuracy(orElse: profile.assumedDisplacementAccuracyMetres),
            now: lastAcceptedMilliseconds) ?? 0
    }

    /// At the end of the track, counts the chord of a chain of sparse steps that is still pending (the last fix is a
    /// lone anchor after a reset gap) when it agreed with the chord before it (``chainCertified``), and returns the
    /// metres counted. A chain counts each chord at the next fix, once the chord after it agrees
    /// (``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``);
    /// the last one has no chord after it, but agreeing with the one before is enough there too (the chord into a
    /// halt counts that way). Why: a logger every 60 s on the driving profile lost its last step, 900 m of 8,100 (a
    /// tester's straight drives every 20–120 s each lost one step; walking every 60 s, 66 m of 756). Not when that
    /// chord's step was counted already, from its readings (``countSparseGap(east:north:seconds:reading:course:accuracy:now:)``
    /// excludes the gap's origin, as a chain's next link would find it): three fixes 100 s apart reading 1.3 m/s
    /// counted their last step twice, 390 m of 260 (a CLI tester's). A step its readings judged to count nothing
    /// (``SparseStep/nothing``) excludes the origin too, but counted nothing: its chord still counts here (a reviewer's
    /// walk into a halt without accuracies, readings 1.3 then 0, its last 35 m: 130 m of 165 without this).
    @usableFromInline
    mutating func releaseCertifiedChainEnd() -> Double {
        guard pendingGapSeconds > 0, chainCertified, !gapOriginIsExcluded || pendingSparseStep.countsNothing,
            !isHoldReleasePending, isAtLoneAnchor()
        else { return 0 }
        chainCertified = false
        pendingGapSeconds = 0
        let chord = SIMD2(filter.east, filter.north) - gapOrigin
        return accumulator.add(doppler: 0, filtered: (chord * chord).sum().squareRoot())
    }

    /// How far (metres) a departure from a rest must have gone, both from the rest and along the track, to count
    /// before ``TrackingProfile/departureConfirmationSeconds``: 100. Why: a multipath excursion that the
    /// outlier gate lets the filter follow goes out by less than the fixes' jump (25–70 m in the generated
    /// parked receivers), while a car pulling away covers 100 m in 7–10 s; the held metres of a real departure
    /// then count after seconds, not half a minute. Both conditions, because a re-anchor on a jump puts the
    /// track far from the rest without a path to it.
    @usableFromInline static let departureConfirmationMetres = 100.0

    /// How many accepted fixes in a row a departure from a rest must have been away for before it counts, each at
    /// least a quarter as far from the rest as the next (``departureAwayRun``): 3. Why: a multipath excursion of
    /// one or two fixes is 100 m out at once and back on the fix after; a jump that lands on a departure pending
    /// on the receiver's drift found it 30 s old, and is many times as far as the fix before; a car on its way
    /// is away fix after fix. Measured on a fleet re-tester's vans parked 8 h logging every 10–15 s without a
    /// speed column, 5 % of fixes jumping 50–500 m for one or two fixes (`tools/analysis/fleet/fleet_eval.py`).
    /// The cost: at 10 s a car pulling away counts its first metres two or three fixes later (at 1 Hz, 2 s).
    @usableFromInline static let departureConfirmationFixes = 3

    /// Counts a pending departure's held metres when it has lasted
    /// ``TrackingProfile/departureConfirmationSeconds`` and the track, `away` metres from its rest
    /// (``distanceFromRest(threshold:)``), is farther than `threshold`, or once it is
    /// ``departureConfirmationMetres`` on; the rest is then left for good. Either only when
    /// ``departureConfirmationFixes`` accepted fixes in a row were beyond `threshold`, each at least a quarter as
    /// far as the one after it, with no fix refused between them as an outlier or too fast
    /// (``departureAwayRun``). Without such a run, once the departure has been held
    /// ``maximumExcursionSeconds`` with the track beyond `threshold`. A departure from where trusted still readings
    /// agreed (``isDepartureFromStillReadings``) counts only after ``maximumExcursionSeconds``: its readings, proven
    /// by the session, said still. Returns the metres counted.
    @usableFromInline
    mutating func confirmDeparture(now: Int64, away: Double, threshold: Double) -> Double {
        let before = departureLastAwayMetres
        departureLastAwayMetres = away
        if !NetDisplacementGate.isMoving(netDisplacement: away, threshold: threshold) {
            departureAwayRun = 0
        } else if NetDisplacementGate.isMoving(netDisplacement: before, threshold: threshold), before >= away / 4 {
            departureAwayRun &+= 1
        } else {
            departureAwayRun = 1
        }
        if away >= departureFarthestMetres { departureRunAtFarthest = departureAwayRun }
        let seconds = Double(now &- departureMilliseconds) / 1000
        guard NetDisplacementGate.isMoving(netDisplacement: away, threshold: threshold),
            !isDepartureFromStillReadings || seconds >= Tracker.maximumExcursionSeconds,
            departureAwayRun >= Tracker.departureConfirmationFixes
                && (seconds >= profile.departureConfirmationSeconds
                    || (away > Tracker.departureConfirmationMetres
                        && departurePending.x + departurePending.y > Tracker.departureConfirmationMetres))
                // Held longer than any excursion lasts: a trip under multipath whose refused fixes kept breaking
                // the run (a reviewer's loop at 10 s with 30 % of fixes jumping: 2,400 m truth, 283 m counted).
                || seconds >= Tracker.maximumExcursionSeconds
        else { return 0 }
        return endRest()
    }

    /// Counts a pending departure's held metres and forgets the rest (a departure confirmed; a restart in
    /// another plane). Returns the metres counted.
    @usableFromInline
    mutating func endRest() -> Double {
        let counted = accumulator.add(doppler: departurePending.x, filtered: departurePending.y)
        departureMilliseconds = .min
        departurePending = SIMD2(0, 0)
        hasRest = false
        isDepartureFromStillReadings = false
        return counted
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
