// Anchoring the filter at a fix, and re-centring the local projection.
// Part of `Tracker` (Tracker.swift holds its state and the per-fix path).

extension Tracker {
    /// Resets the filter at a fix (first fix, long gap, rejection streak): position from the fix, velocity
    /// from its Doppler speed and course when both are present (else zero, with a variance spanning the
    /// profile's speed range); the window restarts, held-back distance is given up.
    @usableFromInline
    mutating func anchor(
        east e: Double, north n: Double, variance r: Double, fix: Fix, accuracy: Double, displacementAccuracy: Double,
        now: Int64
    ) {
        // The re-anchor of the run of refusals that released a hold (see `holdReleaseMinimumSeconds`): the hold's
        // chord ends here. Any other anchor drops it.
        // (Its own run: no fix accepted since the hold's last repeat, and no re-anchor yet.)
        let releasesHold =
            isHoldReleasePending && !isHoldReleaseAnchored
            && consecutiveRejections >= profile.rejectionsBeforeReanchor
            && lastAcceptedMilliseconds == heldLastMilliseconds
            && Double(now &- lastAcceptedMilliseconds) / 1000 <= resetGapThresholdSeconds
        // A relocation (the run of refusals' re-anchor), while the filter still holds the state before it.
        relocationCountedMetres = 0
        // (Not the run that releases a hold, nor one while a hold's chord is pending: the hold's chord spans the run
        // and counts it, a reviewer's frozen positions counted twice.)
        if _slowPath(consecutiveRejections >= profile.rejectionsBeforeReanchor), !releasesHold,
            !isHoldReleasePending, let reading = fix.speedMetresPerSecond
        {
            relocationCountedMetres = readingsAcrossRelocation(
                reading, east: e, north: n, accuracy: accuracy, now: now)
        }
        resetGapThresholdSeconds = profile.filterResetGapSeconds
        if !hasFilter || Double(now &- lastAcceptedMilliseconds) / 1000 > profile.filterResetGapSeconds {
            // A forward jump in time (see ``jumpMilliseconds``), and where the track was before it (see
            // ``countRestartChord(to:accuracy:now:)``).
            beforeJumpMilliseconds = lastAcceptedMilliseconds
            jumpMilliseconds = now
            // (Without a filter, a session break's fresh tracker keeps what the break put there: see `startAfresh`.)
            if hasFilter { beforeJump = whereTheTrackIs() }
        }
        let vmax = profile.maximumSpeedMetresPerSecond / 2
        filter = ConstantVelocityFilter(east: e, north: n, positionVariance: r, velocityVariance: vmax * vmax)
        // (The course on the plane's axes: NaN where a polar plane cannot turn it; see `LocalFrame`.)
        if let speed = fix.speedMetresPerSecond, let course = fix.courseDegrees, !courseIsWrong,
            !speedReadsWrong,
            case let grid = gridCourse(course, of: fix, accuracy: accuracy), grid.isFinite
        {
            let c = grid * .pi / 180
            filter.velocityEast = speed * sin(c)
            filter.velocityNorth = speed * cos(c)
            let sigma = fix.speedAccuracyMetresPerSecond ?? profile.assumedSpeedAccuracyMetresPerSecond
            // Never looser than knowing nothing (the prior above): the prediction grows the variance by dt², and a
            // reported σ of 1e154 would overflow there.
            filter.velocityVariance = min(
                max(
                    MeasurementNoise.velocityVariance(
                        speed: speed, speedSigma: sigma,
                        courseSigmaDegrees: fix.courseAccuracyDegrees ?? profile.assumedCourseAccuracyDegrees),
                    ConstantVelocityFilter.minimumVariance),
                vmax * vmax)
        }
        positionFilter = ConstantVelocityFilter(east: e, north: n, positionVariance: r, velocityVariance: vmax * vmax)
        chordStartMilliseconds = .min
        anchorAccuracy = displacementAccuracy
        anchorIsExcluded = readingExcludes(at: now)
        recordVehicleEvidence(at: now, doppler: fix.speedMetresPerSecond)
        whiteNoise.breakSequence()
        // Any other anchor after a reset gap leaves that gap's chord uncounted; the reset gap's own anchor sets it
        // again after this. But a re-anchor on the run of refusals straight after the gap's anchor, within half a
        // window, moves the gap's end here: the first fix after the gap was wrong (a tunnel's exit, its multipath
        // tens of metres off while claiming 25 m: the fixes after it were refused as too fast from it), and the
        // chord from before the gap to this fix is judged as the gap's, over the gap and the run (an API tester's
        // tunnels without speed readings lost the chord: −18 %).
        let redoesGapEnd =
            pendingGapSeconds > 0 && !isHoldReleasePending && lastAcceptedMilliseconds == lastAnchorMilliseconds
            && consecutiveRejections >= profile.rejectionsBeforeReanchor - 1
            && Double(now &- lastAnchorMilliseconds) / 1000 <= profile.windowSeconds / 2
        if releasesHold {
            pendingGapSeconds += Double(now &- holdReleaseMilliseconds) / 1000
            (holdReleaseEnd, holdReleaseMilliseconds) = (SIMD2(e, n), now)
            isHoldReleaseAnchored = true
        } else if redoesGapEnd {
            pendingGapSeconds += Double(now &- lastAnchorMilliseconds) / 1000
        } else {
            pendingGapSeconds = 0
            isHoldReleasePending = false
        }
        contradiction = ContradictedReadings()
        // A run of zeros starts again here, with this fix's own reading.
        subDeadbandRun = fix.speedMetresPerSecond.map { $0 < profile.deadbandMetresPerSecond ? 1 : 0 } ?? 0
        zerosHeldInRun = 0
        lastStepSeconds = hasFilter ? Double(now &- lastAcceptedMilliseconds) / 1000 : 0
        lastReading = fix.storedSpeedMetresPerSecond
        lastCourse = gridCourse(fix.storedCourseDegrees, of: fix, accuracy: accuracy)
        hasFilter = true
        lastAnchorMilliseconds = now
        consecutiveRejections = 0
        lastAcceptedMilliseconds = now
        lastSparseChordMilliseconds = .min
        unjudgedStepOfferedBefore = .nan
        lastRawEast = e
        lastRawNorth = n
        lastAccuracy = accuracy
        committed = candidates
        accuracySum += displacementAccuracy
        fixCount += 1
        if releasesHold { holdReleaseFixCount = fixCount }
        restartWindow(milliseconds: now, east: e, north: n)
        recentreIfFar()
    }

    /// How far from the prediction a re-anchor's fix must lie for ``readingsAcrossRelocation(_:east:north:accuracy:now:)``
    /// to count, metres: 50, and at least this many times its accuracy, 5. A relocation that far is the positions'
    /// (a multipath excursion, an exit); nearer, the prediction may be what ran away: under a column that reads
    /// 1.2–1.3 × the speed (a tester's generated walkers with halts) the filter ran ahead of the fixes, 45 % of
    /// them were refused and every re-anchor counted the column's excess again (22 of 3,328 regression cases worse,
    /// up to +7 points, when it counted every re-anchor).
    static let relocationMetres = 50.0
    static let relocationAccuracies = 5.0
    /// The slowest readings (both, and the window's mean) that count across a relocation, in deadbands: 2 (0.6 m/s
    /// walking). A still receiver's Doppler jitter above the deadband (|N(0, 0.25)| m/s, a reviewer's) counted its
    /// multipath relocations at it: 3–10 m per 30 minutes with one deadband.
    static let relocationDeadbands = 2.0

    /// What trusted readings count across a relocation, the re-anchor after a run of refusals onto a fix at (`e`, `n`)
    /// beyond ``relocationMetres`` from the filter's prediction (returned, and added to the total; the anchor's
    /// decision reports it, ``relocationCountedMetres``): the run's time (since the last accepted fix, capped at the
    /// integration limit; nothing for a run longer than a reset gap) at the mean of the last accepted reading and
    /// this one, and the increments the window held back by its readings, when the window read motion by its
    /// readings (mean at least the profile's motion speed and ``relocationDeadbands``), the Doppler check trusts
    /// them there, both readings are at least ``relocationDeadbands`` and within what the traveller sustains, no gap
    /// lies in the window (a reset gap's anchor starts it, a bridged step inside it), and nothing holds the travel as
    /// a vehicle's or excludes it (the anchor would give those up). The anchor does not call it for the run that
    /// releases a hold, nor while a hold's chord is pending (that chord spans the run). Called from
    /// ``anchor(east:north:variance:fix:accuracy:displacementAccuracy:now:)`` before it resets the filter (called in
    /// the per-fix path's re-anchor branch instead, the tracker benchmark cost 24 more instructions per fix: code
    /// layout).
    ///
    /// Why: a relocation restarted the integral as a first fix does, and gave the window's held increments up. Under
    /// a receiver whose fixes leave the track for seconds while its readings go on (multipath in a city: a
    /// smoother tester's rides at 6 m/s with five excursions of 1–15 s, 170–250 m off), each excursion cost its
    /// run's seconds twice (out and back) and the fixes held between the two anchors: −92 to −289 m in 30 minutes
    /// on 20 of 20 rides, with the readings right all along. A still receiver's relocation, its readings under twice
    /// the deadband, counts nothing.
    @usableFromInline @inline(never)
    mutating func readingsAcrossRelocation(
        _ reading: Double, east e: Double, north n: Double, accuracy: Double, now: Int64
    ) -> Double {
        let last = lastReading
        // The run's time, at most the integration limit (as one step's), for a run within a reset gap.
        let run = Double(now &- lastAcceptedMilliseconds) / 1000
        let seconds = min(run, profile.maximumIntegrationSeconds)
        // (The filter's prediction to now, its mean: the state before the relocation.)
        let oe = e - (filter.east + filter.velocityEast * seconds)
        let on = n - (filter.north + filter.velocityNorth * seconds)
        let offMetres = (oe * oe + on * on).squareRoot()
        let slowest = Self.relocationDeadbands * profile.deadbandMetresPerSecond
        guard offMetres > max(Self.relocationMetres, Self.relocationAccuracies * accuracy), hasFilter, !isInVehicle,
            last.isFinite, reading >= slowest, last >= slowest,
            max(reading, last) <= profile.maximumSustainedSpeedMetresPerSecond, !readsInAnotherUnit,
            !speedReadsWrong, !readingExcludes(at: now), let start = window.oldest()
        else { return 0 }
        let windowSeconds = dopplerSeconds - start.dopplerSeconds
        let windowDoppler = dopplerPath - start.dopplerPath
        guard run > 0, run <= profile.filterResetGapSeconds, windowSeconds > 0,
            windowDoppler / windowSeconds >= max(profile.motionDopplerSpeedMetresPerSecond, slowest)
        else { return 0 }
        // Not within a window of a gap: the gap's chord, counted to the first fix after it, holds whatever offset
        // that fix had, and the run's readings would count the way back again (a reviewer's tunnel exits on
        // multipath 80–160 m off: +12 … +48 m per tunnel). A reset gap's anchor starts the window; a bridged step
        // lies inside it.
        if jumpMilliseconds == lastAnchorMilliseconds, start.milliseconds == lastAnchorMilliseconds { return 0 }
        var previous = start.milliseconds
        for i in 1..<max(1, window.count) {
            let time = window.sample(i).milliseconds
            if Double(time &- previous) / 1000 > profile.maximumIntegrationSeconds { return 0 }
            previous = time
        }
        let meanAccuracy = windowMeanAccuracy(orElse: lastAccuracy)
        let judged = judgedDopplerEvidence
        guard
            DopplerCheck.isTrusted(
                dopplerPathMetres: windowDoppler, positionPathMetres: positionPath - start.positionPath,
                thresholdMetres: NetDisplacementGate.threshold(meanAccuracy: meanAccuracy, profile: profile),
                sessionDopplerPathMetres: judged.x, sessionPositionPathMetres: judged.y, profile: profile)
        else { return 0 }
        let held = max(0, candidates.x - max(committed.x, start.candidateDoppler))
        return accumulator.add(doppler: held + (reading + last) / 2 * seconds, filtered: 0)
    }

    /// Re-anchors the plane at the filtered position when the state is farther from the anchor than
    /// ``LocalFrame/reanchoringRadiusMetres`` (LocalFrame's rule: within it distances in the plane are right
    /// to 0.03 % at 45° of latitude), re-expressing the filter, the window, the last raw position and the
    /// vehicle latch's slow-spell start in the new plane.
    @inlinable @inline(__always)
    mutating func recentreIfFar() {
        guard projection.needsReanchoring(eastMetres: filter.east, northMetres: filter.north) else { return }
        recentre()
    }

    /// Re-anchors the plane at the filtered position (see ``recentreIfFar()``); out of line, it is rare.
    @usableFromInline
    mutating func recentre() {
        let old = projection
        let origin = old.unproject(east: filter.east, north: filter.north)
        let new = old.reanchored(at: origin)
        func convert(_ e: Double, _ n: Double) -> (Double, Double) {
            let p = old.unproject(east: e, north: n)
            let q = new.project(latitude: p.latitude, longitude: p.longitude)
            return (q.east, q.north)
        }
        func converted(_ point: SIMD2<Double>) -> SIMD2<Double> {
            let (east, north) = convert(point.x, point.y)
            return SIMD2(east, north)
        }
        (lastRawEast, lastRawNorth) = convert(lastRawEast, lastRawNorth)
        slowStart = converted(slowStart)
        gapOrigin = converted(gapOrigin)
        holdReleaseOrigin = converted(holdReleaseOrigin)
        holdReleaseEnd = converted(holdReleaseEnd)
        chainHome = converted(chainHome)
        restOrigin = converted(restOrigin)
        stillAgreedPosition = converted(stillAgreedPosition)
        speedSpanStart = converted(speedSpanStart)
        window.transformPositions(convert)
        stillScatter.transformPosition(convert)
        chordOdometer.restart(isSamePlane: false)
        contradiction.transformPositions(convert)
        if old.isPolar {
            // The new plane's axes are turned against the old one's: velocities and the last course turn with them.
            let turn = old.trueNorthTurnDegrees(atLongitude: origin.longitude)
            (filter.velocityEast, filter.velocityNorth) = LocalFrame.turned(
                east: filter.velocityEast, north: filter.velocityNorth, byDegrees: turn)
            (positionFilter.east, positionFilter.north) = convert(positionFilter.east, positionFilter.north)
            (positionFilter.velocityEast, positionFilter.velocityNorth) = LocalFrame.turned(
                east: positionFilter.velocityEast, north: positionFilter.velocityNorth, byDegrees: turn)
            lastCourse += turn
            // (The last sparse chord is a vector on the plane's axes too, compared with the next one's.)
            let chord = LocalFrame.turned(east: lastSparseChord.x, north: lastSparseChord.y, byDegrees: turn)
            lastSparseChord = SIMD2(chord.east, chord.north)
            let span = LocalFrame.turned(
                east: previousSpeedSpanChord.x, north: previousSpeedSpanChord.y, byDegrees: turn)
            previousSpeedSpanChord = SIMD2(span.east, span.north)
        } else {
            positionFilter.shiftOrigin(east: filter.east, north: filter.north)
        }
        chordStartMilliseconds = .min
        filter.east = 0
        filter.north = 0
        projection = new
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
