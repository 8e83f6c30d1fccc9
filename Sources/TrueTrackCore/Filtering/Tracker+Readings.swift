// Judging the Doppler speed readings: dropouts, readings the positions contradict, trusted zeros.
// Part of `Tracker` (Tracker.swift holds its state and the per-fix path).

extension Tracker {
    /// ``process(_:readingDroppedOut:planeMayBePolar:)`` on `fix` without its reading, a dropout (``readsDroppedOut(_:)``): the
    /// decision says the reading was not trusted. Out of line: only during such a dropout.
    @usableFromInline @inline(never)
    mutating func processWithoutReading(_ fix: Fix, planeMayBePolar: Bool) -> FixDecision {
        var withoutReading = fix
        withoutReading.storedSpeedMetresPerSecond = .nan
        var decision = process(withoutReading, readingDroppedOut: true, planeMayBePolar: planeMayBePolar)
        if decision.isAccepted { decision.isDopplerTrusted = false }
        return decision
    }

    /// Whether the reading of `fix`, under the deadband, is a dropout of the speed column rather than a halt
    /// (``ReadingDrop``): it fell from the last accepted fix's reading faster than any braking
    /// (``ReadingDrop/maximumDecelerationMetresPerSecondSquared``), or such a drop came before it and the window's
    /// net displacement still exceeds its threshold (the positions do not show the halt yet) with no reading
    /// above the deadband since. Out of line: only readings under the deadband are judged.
    @usableFromInline @inline(never)
    mutating func readsDroppedOut(_ fix: Fix) -> Bool {
        let now = fix.timestamp.millisecondsSince1970
        guard hasFilter else {
            // (A first fix, or one after a restart: no dropout to judge, and none goes on.)
            droppedOutSinceMilliseconds = .min
            return false
        }
        // (A fix the tracker rejects as out of order, a duplicate: judged as it is, the dropout goes on.)
        guard now > lastAcceptedMilliseconds else { return false }
        if droppedOutSinceMilliseconds != .min, !(lastReading >= profile.deadbandMetresPerSecond) {
            if let start = window.oldest() {
                let de = filter.east - start.east, dn = filter.north - start.north
                let threshold = NetDisplacementGate.threshold(
                    meanAccuracy: windowMeanAccuracy(orElse: lastAccuracy), profile: profile)
                guard
                    NetDisplacementGate.isMoving(
                        netDisplacement: (de * de + dn * dn).squareRoot(), threshold: threshold)
                else {
                    droppedOutSinceMilliseconds = .min
                    return false
                }
            }
            return true
        }
        let seconds = Double(now &- lastAcceptedMilliseconds) / 1000
        let dropped =
            lastReading - ReadingDrop.maximumDecelerationMetresPerSecondSquared * seconds
            > profile.deadbandMetresPerSecond
        droppedOutSinceMilliseconds = dropped ? now : .min
        return dropped
    }

    /// Whether a sub-deadband Doppler reading is a Samsung-style dropout rather than a halt: the receiver is
    /// moving by the window, the position filter moves, and the session's Doppler path falls short of
    /// ``TrackingProfile/dopplerConsistentRatio`` × the position path it is judged against (``readsShortWithItsZeros``:
    /// ``judgedDopplerEvidence`` with the dropouts' seconds read as zeros again; by the integrated path an honest
    /// receiver beside rough positions falls short,
    /// and its zeros as it halted were taken for dropouts, the noisy filtered speed counted instead), or a run
    /// overrules the readings as a placeholder (``ContradictedReadings``: a consistent receiver's column that died).
    @inlinable @inline(__always)
    func isDropout(_ speed: Double, isMoving: Bool, positionSpeed: Double) -> Bool {
        return isMoving && speed < profile.deadbandMetresPerSecond
            && positionSpeed >= profile.deadbandMetresPerSecond
            && (readsShortWithItsZeros || isOverrulingReadings)
    }

    /// Whether the session's evidence (``judgedDopplerEvidence``), its dropouts' seconds read as zeros again
    /// (``chordDropoutFillMetres``), falls short of ``TrackingProfile/dopplerConsistentRatio`` × its position path:
    /// its zeros while moving are then dropouts (``isDropout(_:isMoving:positionSpeed:)``), as before dropouts left the
    /// chords' readings.
    /// (Inlined always: an out-of-line non-mutating getter takes the tracker by value, and the simulated walk's
    /// caller copied all of it per call, 225 instructions per fix.)
    @inlinable
    var readsShortWithItsZeros: Bool {
        @inline(__always) get {
            let evidence = judgedDopplerEvidence
            let doppler = judgesByChordEvidence ? evidence.x - chordDropoutFillMetres : evidence.x
            return doppler < profile.dopplerConsistentRatio * evidence.y
        }
    }

    /// Bounds a Doppler dropout's (or a missing reading's) stand-in increment during a run of sub-deadband or
    /// missing readings: it may only fill
    /// what the window's Doppler readings (and the stand-ins already counted in it) leave unexplained of its net
    /// displacement, plus the net-displacement gate's base margin. Just after a real halt that is nothing (the
    /// window still holds the walk, which the readings already counted, and the position filter's speed is
    /// noise); mid-walk, the readings' shortfall. Only a reading the Doppler check trusts and that is a dropout
    /// (``isDropout(_:isMoving:positionSpeed:)``) is bounded: an untrusted one stands in as any untrusted reading.
    /// The caller then reports the speed actually integrated, and a bound to nothing as a net-displacement hold.
    /// Returns the bounded increment (metres; `increment` itself when the reading is no dropout), and whether it is
    /// nothing because a missing reading's stand-in is under the deadband (the decision's hold is then the deadband's).
    /// A reading the Doppler check trusts (`isTrusted`) is not bounded, only judged (`judgeTrustedStillReadings`). A
    /// missing reading (`reading` nil, from a receiver that reports Doppler; not a dropout, `droppedOut`) first takes
    /// the increment of its stand-in when the check trusts the readings (``trustedStandInForMissingReading()``),
    /// bounded as above from the run's third fix when the position filter's increment was positive (as before the
    /// stand-in). Out of line: called during runs of zeros or missing readings only.
    @usableFromInline @inline(never)
    mutating func dropoutBound(
        _ increment: Double, reading: Double?, droppedOut: Bool, isTrusted: Bool, isMoving: Bool, netMetres: Double,
        thresholdMetres: Double
    ) -> (metres: Double, isUnderDeadband: Bool) {
        var increment = increment
        if reading == nil {
            let seconds = Double(lastReceivedMilliseconds &- lastAcceptedMilliseconds) / 1000
            // (A step longer than the integration limit restarts the chord under way, as it does with a reading: see
            // `chordDopplerPath(now:)`. Here, out of line, rather than on the per-fix path, where the test cost the
            // tracker benchmark 16 instructions per fix.)
            if !droppedOut, seconds > profile.maximumIntegrationSeconds { chordStartMilliseconds = .min }
            if !droppedOut, let speed = trustedStandInForMissingReading() {
                // (Not a step the bridge floor raised: `increment` is then not the position filter's.)
                if increment
                    == SpeedIntegration.increment(
                        speed: positionFilter.speedMetresPerSecond, seconds: seconds, profile: profile)
                {
                    let standIn = SpeedIntegration.increment(speed: speed, seconds: seconds, profile: profile)
                    guard increment > 0, subDeadbandRun >= TrackingProfile.haltRunLength, standIn > 0 else {
                        return (standIn, standIn == 0)
                    }
                    increment = standIn
                }
            }
            // (Bounded as before the stand-in: from the run's third fix, when the position filter's increment was
            // positive.)
            if increment == 0 || subDeadbandRun < TrackingProfile.haltRunLength { return (increment, false) }
        }
        if isTrusted {
            judgeTrustedStillReadings(isMoving: isMoving, netMetres: netMetres, thresholdMetres: thresholdMetres)
            return (increment, false)
        }
        defer {
            // Then, whether the track keeps going under these zeros (`ContradictedReadings`): judged while they say
            // still or are overruled; readings that say moving, or a window under the displacement test, end a
            // run. (After the bound, which reads the window the judge may change.)
            judgeOrEndRun(
                isMoving: isMoving, netMetres: netMetres, thresholdMetres: thresholdMetres,
                isOverruling: contradiction.isOverruling)
            // Once the readings were overruled as a placeholder, a sub-deadband one just added to the session's
            // Doppler evidence (moving) leaves it: a placeholder says nothing of the receiver's unit or of its
            // dropouts (a reviewer's 600 s drive with true readings after 300 s under zeros had every reading
            // distrusted). Whether or not a run overrules this fix: after a run ends mid-move (its latest samples
            // turn, the track slows), the excluded readings keep the window on the net displacement for a while,
            // and those fixes left 191 m of zero evidence on a reviewer's walk.
            if positionOnlyBelowMetresPerSecond > 0, isMoving, let reading, reading < positionOnlyBelowMetresPerSecond {
                withdrawSessionEvidence(reading: reading, now: lastReceivedMilliseconds)
            }
        }
        // The window's quantities again, from its oldest sample (the caller's locals are not passed: keeping
        // them alive for this rare call cost the per-fix path registers). The window has not changed since.
        guard let start = window.oldest() else { return (increment, false) }
        // (The ring's samples: the window's fixes at most, and the one kept from before it.)
        if reading != nil, window.count <= Int(Tracker.sparseWindowFixes),
            sparseWindowSaysNothingOfMotion(netMetres: netMetres, thresholdMetres: thresholdMetres)
        {
            // A sparse window of readings under the deadband whose net displacement is within the threshold: the
            // position filter's speed stands in its noise for them (see `Tracker.sparseWindowFixes`).
            return (0, false)
        }
        if let reading {
            // (Not a reading a run overrules as a placeholder: then it is no dropout of a true column.)
            guard isDropout(reading, isMoving: isMoving, positionSpeed: positionFilter.speedMetresPerSecond),
                !isOverrulingReadings
            else { return (increment, false) }
        } else {
            // A missing reading (the run counts one only from a receiver that reports Doppler): its stand-in is
            // bounded alike, whatever the receiver's zeros are worth: at a halt iOS reports −1, and the position
            // filter's jitter (0.4-2.3 m/s under 1 m of noise) counted ~20 m per halt while the window held the
            // walk. Also while the window judges the device still: those stand-ins are held as candidates, and
            // the walk that follows released the halt's last 20 s of jitter (+12 m per halt).
            guard positionFilter.speedMetresPerSecond >= profile.deadbandMetresPerSecond else {
                return (increment, false)
            }
        }
        let windowDoppler = dopplerPath - start.dopplerPath
        let count = fixCount - start.fixCount
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: count > 0 ? (accuracySum - start.accuracySum) / count : 0, profile: profile)
        let evidence = judgedDopplerEvidence
        guard
            DopplerCheck.isTrusted(
                dopplerPathMetres: windowDoppler, positionPathMetres: positionPath - start.positionPath,
                thresholdMetres: threshold, sessionDopplerPathMetres: evidence.x,
                sessionPositionPathMetres: evidence.y, profile: profile),
            !readsInAnotherUnit
        else { return (increment, false) }
        let unexplained =
            netMetres + profile.netDisplacementBaseMetres - windowDoppler
            - (candidates.y - start.candidateFiltered)
        return (min(increment, max(0, unexplained)), false)
    }

    /// Judges a fix during a run of sub-deadband readings (``TrackingProfile/haltRunLength`` or more; from the
    /// first one for readings the Doppler check trusts, `judgeTrustedStillReadings`), whose filtered track moved
    /// more than ``ContradictedReadings/netThresholds`` net-displacement thresholds (`threshold`) over the window, against the run of fixes whose readings say still
    /// while the track travels (``ContradictedReadings``): the fix continues it when the window (at least half a
    /// span old, ending short of the vehicle latch and of a rest) has readings over half its span with a mean below
    /// ``TrackingProfile/motionDopplerSpeedMetresPerSecond`` (once overruled, the readings are out of the window and
    /// that is not asked again); any other fix ends it. While the run overrules the readings, they leave the window
    /// and the next fix is judged by its net displacement; the first time, the window's samples are lowered to the
    /// run's first window, so that the release counts what the run held back. Called from
    /// ``dropoutBound(_:reading:droppedOut:isTrusted:isMoving:netMetres:thresholdMetres:)`` after its bound, before the fix's sample
    /// is appended. Out of line: it runs only during runs of zeros.
    @usableFromInline @inline(never)
    mutating func judgeContradictedReadings(thresholdMetres threshold: Double, now: Int64) {
        guard let start = window.oldest(), now &- start.milliseconds >= windowSpanMilliseconds / 2,
            !isInVehicle, !isAroundRest || isDepartureFromStillReadings
        else { return contradiction.end() }
        if !contradiction.isOverruling {
            // (Once overruled, the readings are out of the window: judged still then, zeros since.)
            let seconds = dopplerSeconds - start.dopplerSeconds
            guard seconds >= profile.windowSeconds / 2,
                (dopplerPath - start.dopplerPath) / seconds < profile.motionDopplerSpeedMetresPerSecond
            else { return contradiction.end() }
        }
        let wasOverruling = contradiction.isOverruling
        guard
            contradiction.add(
                position: SIMD2(filter.east, filter.north), now: now,
                previousAcceptedMilliseconds: lastAcceptedMilliseconds,
                lastRejectedMilliseconds: lastRejectedMilliseconds, thresholdMetres: threshold,
                windowSpanMilliseconds: windowSpanMilliseconds,
                windowStartCandidates: SIMD2(start.candidateDoppler, start.candidateFiltered),
                windowStartPositionPath: start.positionPath)
        else { return }
        // Overruled: the readings so far leave the window, with a margin of the longest step integrated, so that
        // the next fix's window has too little Doppler and the net displacement decides. The fix's own sample is
        // appended now (its time then skips the caller's append), so that a window as short as the fixes' interval,
        // which keeps only the previous fix's sample, sees it too; its candidates are those before the fix's
        // increment: a release counts that increment too. The first time, the release counts from the run's
        // first window on.
        let excluded = dopplerSeconds + profile.maximumIntegrationSeconds
        window.excludeReadings(throughDopplerSeconds: excluded)
        window.append(
            TrailingWindow.Sample(
                milliseconds: now, east: filter.east, north: filter.north, dopplerPath: dopplerPath,
                dopplerSeconds: excluded, positionPath: positionPath, candidateDoppler: candidates.x,
                candidateFiltered: candidates.y, accuracySum: accuracySum, fixCount: fixCount))
        if !wasOverruling {
            window.lowerCandidates(toAtMost: contradiction.startCandidates)
            // From now on the recording's sub-deadband readings are no readings to the prediction and the white-noise
            // estimate (a multipath jump the Doppler σₐ accepted at 5–10 s counted out and back: a reviewer's drive
            // +5 … +21 %); the cached prediction step is recomputed (0 is never a key, as in `changeProfile`).
            positionOnlyBelowMetresPerSecond = profile.deadbandMetresPerSecond
            predictionStepKey = 0
        }
    }

    /// Judges the fix against the run of fixes whose readings say still while the track travels
    /// (`judgeContradictedReadings`) when the window's net displacement (`netMetres`) is beyond the run's
    /// ``ContradictedReadings/netThresholds`` thresholds (`thresholdMetres`) and the window reads still or the run
    /// overrules (`isOverruling`); otherwise readings that say moving, or a window under the displacement test, end
    /// the run. Returns whether the fix was judged.
    @usableFromInline @discardableResult
    mutating func judgeOrEndRun(isMoving: Bool, netMetres: Double, thresholdMetres: Double, isOverruling: Bool) -> Bool
    {
        guard netMetres > ContradictedReadings.netThresholds * thresholdMetres, !isMoving || isOverruling else {
            if contradiction.fixes != 0 { contradiction.end() }
            return false
        }
        judgeContradictedReadings(thresholdMetres: thresholdMetres, now: lastReceivedMilliseconds)
        return true
    }

    /// Judges a sub-deadband reading that the Doppler check trusts, during a run of them
    /// (``TrackingProfile/haltRunLength`` or more), against the run of fixes whose readings say still while the
    /// track travels (``ContradictedReadings``), as `judgeContradictedReadings` judges readings the check does not
    /// trust. Once the run overrules, the readings are dropouts (``isDropout(_:isMoving:positionSpeed:)``) while it
    /// lasts, not trusted, and the run is judged on in
    /// ``dropoutBound(_:reading:droppedOut:isTrusted:isMoving:netMetres:thresholdMetres:)``, as for any reading not trusted.
    /// Called from that bound (with `isTrusted`).
    ///
    /// Why: the check trusts a receiver whose session Doppler path matched its position path, and a zero from it
    /// is a halt. A speed column that dies partway (a logger that writes 0 from some point on) was therefore
    /// believed for the rest of the track: a reviewer's drives every 3–15 s whose column turns to zeros after
    /// 20–70 % of the fixes read 24–64 % of their distance (the window's net displacement 180 m against a 6 m
    /// threshold, fix after fix). The evidence that overrules is the same steady progress that overrules a column
    /// of zeros from the start, so a consistent receiver's real halt, or a parked one's multipath, is believed as
    /// before.
    ///
    /// When the run overrules, the shortfall of what the track counted since the window that began it (every
    /// increment is a candidate, held or not, and so is an earlier release) against the position filter's path
    /// there joins the held candidates, released as a later fix's window moves (or at ``finishTrack()``): the
    /// trusted zeros counted nothing, so lowering the window's candidates, as for readings not trusted, releases
    /// nothing.
    ///
    /// When the positions had agreed with these readings during their run (the window's net displacement within
    /// the threshold: a halt the track confirms, ``stillAgreedPosition``), on a profile with a departure hold
    /// (``TrackingProfile/departureConfirmationSeconds``: driving, cycling), and no run overruled the readings under
    /// a moving track yet in the session (``hasCountedOverruledTrustedReadings``), the release is a departure from
    /// there
    /// (``isDepartureFromStillReadings``), settled by `settleDepartureFromStillReadings`: given up when the track
    /// snaps back; counted two minutes on unless it did (also while parked), when trusted readings above the
    /// deadband are released (`leaveRest`), or at ``finishTrack()``. Why: a parked receiver's reflection that slides
    /// away in a straight line at 3–6 m/s for 20–60 s is the same steady progress, and a proven receiver's zeros were
    /// right; its slide and the snap back counted 2 × 100–360 m (a reviewer's 20 parked receivers with six slides
    /// each, +7.8 km; a sweep of 126 single slides, +10.1 km). A drive under a column that died while the car stood
    /// still is held, not lost (two reviewers' 327 tracks whose column dies, 170 of them at a halt: the same
    /// distance). The agreement counts in the same run of sub-deadband readings, or within two window spans of the
    /// overruling run's start (a stray reading of 0.3–0.55 m/s begins a new run of them).
    @usableFromInline @inline(never)
    mutating func judgeTrustedStillReadings(isMoving: Bool, netMetres: Double, thresholdMetres: Double) {
        let runStart = fixCount - Double(subDeadbandRun)
        let agrees = !NetDisplacementGate.isMoving(netDisplacement: netMetres, threshold: thresholdMetres)
        if agrees {
            stillAgreedPosition = SIMD2(filter.east, filter.north)
            stillAgreedMilliseconds = lastReceivedMilliseconds
            stillAgreedRunStart = runStart
        }
        if isDepartureFromStillReadings { settleDepartureFromStillReadings(agrees: agrees, threshold: thresholdMetres) }
        let wasOverruling = isOverrulingReadings
        guard
            judgeOrEndRun(
                isMoving: isMoving, netMetres: netMetres, thresholdMetres: thresholdMetres, isOverruling: wasOverruling)
        else { return }
        // (Only as the run begins to overrule: while it goes on, the fixes count as readings not trusted, and a
        // release at each would bring back the movement the deadband refused.)
        guard contradiction.isOverruling, !wasOverruling else { return }
        // (Agreed in the same run of sub-deadband readings, or within two window spans of the run's start: a parked
        // receiver's stray reading of 0.3–0.55 m/s began a new run of them, which never agreed, and the slide
        // counted.)
        // (`.min`, never agreed, would wrap round in the difference.)
        if stillAgreedRunStart == runStart
            || (stillAgreedMilliseconds != .min
                && contradiction.startMilliseconds &- stillAgreedMilliseconds <= 2 * windowSpanMilliseconds),
            departureMilliseconds == .min, profile.departureConfirmationSeconds > 0,
            !hasCountedOverruledTrustedReadings
        {
            restOrigin = stillAgreedPosition
            hasRest = true
            isDepartureFromStillReadings = true
        } else if !isDepartureFromStillReadings {
            hasCountedOverruledTrustedReadings = true
        }
        // (A run on a winding road overrules, turns, and overrules again: what it counted includes its releases.)
        let counted = candidates.x + candidates.y - contradiction.startCandidates.x - contradiction.startCandidates.y
        candidates.y += max(0, positionPath - contradiction.startPositionPathMetres - counted)
    }

    /// Settles a departure from where trusted still readings agreed (``isDepartureFromStillReadings``) at a trusted
    /// sub-deadband reading (`agrees`: the window's net displacement within `threshold`, metres): given up when the
    /// track is back (``isBackAtRest(away:threshold:)``: in a step from its farthest), or rests near there again
    /// within a window span and an integration step of being farthest (a slide's snap back, the fixes just after
    /// it refused or re-anchored; a drive round the block takes longer); counted (into ``countedWhileJudging``) once it
    /// has lasted ``maximumExcursionSeconds`` with the track away or resting anywhere (a hop that stopped away from
    /// where the column died; a lap that came back to it too slowly for a snap back). A run that ended before it released anything leaves no rest behind: given up when the track is back near
    /// where the readings agreed (a snap back that re-anchored the filter), else forgotten (its readings stay
    /// overruled for the smoother). Out of line: only while such a departure is held.
    @usableFromInline @inline(never)
    mutating func settleDepartureFromStillReadings(agrees: Bool, threshold: Double) {
        let now = lastReceivedMilliseconds
        guard departureMilliseconds != .min else {
            if !isOverrulingReadings { forgetUnreleasedDeparture(threshold: threshold) }
            return
        }
        let away = distanceFromRest(threshold: threshold)
        // (In seconds: an integration limit of ∞, "no limit", which validation allows, trapped as milliseconds.)
        let settleSeconds = profile.windowSeconds + profile.maximumIntegrationSeconds
        if isBackAtRest(away: away, threshold: threshold)
            || (agrees && Self.isNearStillOrigin(away: away, farthest: departureFarthestMetres, threshold: threshold)
                && Double(now &- departureFarthestMilliseconds) / 1000 <= settleSeconds)
        {
            giveUpDeparture()
        } else if Double(now &- departureMilliseconds) / 1000 >= Tracker.maximumExcursionSeconds,
            agrees || NetDisplacementGate.isMoving(netDisplacement: away, threshold: threshold)
        {
            // (Also resting back at its origin, when it came back too slowly for a snap back: a lap round the block
            // to where the column died, under 1 m of noise, waited for the next drive or the end of the track.)
            countedWhileJudging += endRest()
        }
    }

    /// Whether a track `away` metres from where trusted still readings agreed, having gone `farthest` metres from it, is
    /// back there: within twice `threshold` (the net-displacement gate's, metres) or a quarter of `farthest` (a slide's
    /// snap back lands on the receiver's scatter around the spot, not on it). Whether it came back as a snap back, the
    /// callers judge.
    static func isNearStillOrigin(away: Double, farthest: Double, threshold: Double) -> Bool {
        away <= max(2 * threshold, farthest / 4)
    }

    /// Forgets a departure from where trusted still readings agreed whose run ended before releasing anything: given
    /// up when the track is back near where they agreed (within twice `threshold` or a quarter of where the run
    /// got to: a snap back that re-anchored the filter), else the rest is dropped.
    @usableFromInline
    mutating func forgetUnreleasedDeparture(threshold: Double) {
        let d = SIMD2(filter.east, filter.north) - restOrigin, far = contradiction.last - restOrigin
        if Self.isNearStillOrigin(
            away: (d * d).sum().squareRoot(), farthest: (far * far).sum().squareRoot(), threshold: threshold)
        {
            giveUpDeparture()
        } else {
            hasRest = false
            isDepartureFromStillReadings = false
        }
    }

    /// Forgets the ``SpeedCheck`` span under way and the chain of slow or fast spans (the next fix with a reading starts a
    /// span); the count of slow spans and the verdict stay (a property of the column, not of the plane).
    @usableFromInline
    mutating func forgetSpeedSpan() {
        (speedSpanStartMilliseconds, speedSpanEndMilliseconds) = (.min, .min)
        previousSpeedSpanVote = 0
        speedChainMetres = 0
        speedSpanSawReanchor = false
    }

    /// Ends the ``SpeedCheck`` span under way at an accepted fix with a reading (at `east`, `north` on the plane, of
    /// accuracy `accuracy`, at `now`) and starts the next one there: a span of at most
    /// ``SpeedCheck/maximumSpanSeconds`` whose readings cover at least a third of it votes on the readings
    /// (``SpeedCheck/vote(chordMetres:seconds:startAccuracy:endAccuracy:meanReadingMetresPerSecond:deadband:)``).
    /// Out of line: once per span.
    ///
    /// At a re-anchor on refused fixes (`reanchorReading`: the anchor's reading) a span votes only to show the
    /// readings fast, else it runs on untouched (and a fast vote counts only in a span that saw a re-anchor, at its
    /// end or before): a column read 3.6 × fast (km/h read as m/s) with a course pins the
    /// filter ahead of every fix, each is refused and every third re-anchors it, so no fix is ever accepted to end
    /// a span (a tester's drives at 15–30 m/s counted 0 m). Such a span's readings are the anchors' (the refused
    /// fixes update nothing). Any other vote at a re-anchor (a multipath relocation's chord) is left to the next
    /// accepted fix, as before. The chain's shortfall is then returned, to be counted at once (a re-anchor's window
    /// restarts, and a held shortfall fell out of it before any window could release it), unless the chain (its
    /// chords over its time) moved faster than the profile sustains or a reading excludes the time (a vehicle
    /// under the walking profile).
    @usableFromInline @inline(never) @discardableResult
    mutating func judgeSpeedSpan(
        east: Double, north: Double, accuracy: Double, now: Int64, reanchorReading: Double? = nil
    ) -> Double {
        // (No span under way reads as one too long to judge.)
        let seconds =
            speedSpanStartMilliseconds == .min ? .infinity : Double(now &- speedSpanStartMilliseconds) / 1000
        let readSeconds = dopplerSeconds - speedSpanStartDopplerSeconds
        let d = SIMD2(east, north) - speedSpanStart
        let chord = (d * d).sum().squareRoot()
        let counted = countedSoFarMetres
        var isWrong = false, vote: Int8 = 0, toCount = 0.0
        let isCovered = 3 * readSeconds >= seconds
        if seconds <= SpeedCheck.maximumSpanSeconds, isCovered || reanchorReading != nil {
            vote = SpeedCheck.vote(
                chordMetres: chord, seconds: seconds, startAccuracy: speedSpanStartAccuracy,
                endAccuracy: accuracy,
                meanReadingMetresPerSecond: isCovered
                    ? (dopplerPath - speedSpanStartDopplerPath) / readSeconds : reanchorReading ?? 0,
                deadband: profile.deadbandMetresPerSecond)
            // Fast only across a re-anchor (see `speedSpanSawReanchor`), or while the readings are left out as fast
            // (then no fix is refused any more: the spans that show them fast keep them out); otherwise it agrees, as
            // before the vote.
            if vote == SpeedCheck.fastVote, !speedSpanSawReanchor,
                !(speedReadsWrong && speedWrongVote == SpeedCheck.fastVote)
            {
                vote = -1
            }
            if reanchorReading != nil, vote != SpeedCheck.fastVote { return 0 }
            isWrong = vote > 0
            // A slow (fast) span counts only after a slow (fast) one heading the same way (steady progress): a
            // multipath excursion's span out and span back point opposite ways.
            if isWrong, previousSpeedSpanVote == vote, SpeedCheck.continues(d, previousSpeedSpanChord) {
                speedChainMetres += chord
                if speedDisagreements < SpeedCheck.maximumDisagreements { speedDisagreements += 1 }
                if speedDisagreements >= SpeedCheck.disagreementsToDistrust, !speedReadsWrong {
                    speedReadsWrong = true
                    speedWrongVote = vote
                    if vote == SpeedCheck.slowVote { hasReadSpeedSlow = true } else { hasReadSpeedFast = true }
                    // The chain was counted at the wrong readings (and the filter they pinned: a fast column's
                    // refused every fix it could): what it counted short of its chords joins the held candidates,
                    // released by this or a later moving window. (Not when the slow-column run has counted it: see
                    // `readsSlowAllAlong(now:stepMetres:)`.)
                    let shortfall = max(0, speedChainMetres - (counted - speedChainStartCounted))
                    if reanchorReading != nil {
                        let chainSeconds = Double(now &- speedChainStartMilliseconds) / 1000
                        if speedChainMetres <= profile.maximumSustainedSpeedMetresPerSecond * chainSeconds,
                            !isInVehicle,
                            !readingExcludes(at: now)
                        {
                            toCount = shortfall
                        }
                    } else if !readsSlowColumn {
                        candidates.y += shortfall
                    }
                }
            } else if isWrong {
                (speedChainMetres, speedChainStartCounted) = (chord, speedSpanStartCounted)
                speedChainStartMilliseconds = speedSpanStartMilliseconds
            } else if vote < 0 {
                if speedDisagreements > 0 { speedDisagreements -= 1 }
                if speedDisagreements == 0 { speedReadsWrong = false }
            }
        }
        previousSpeedSpanVote = isWrong ? vote : 0
        previousSpeedSpanChord = d
        speedSpanStartCounted = counted
        speedSpanSawReanchor = false
        speedSpanStartMilliseconds = now
        speedSpanEndMilliseconds = now &+ SpeedCheck.spanMilliseconds(accuracy: accuracy)
        speedSpanStart = SIMD2(east, north)
        speedSpanStartDopplerPath = dopplerPath
        speedSpanStartAccuracy = accuracy
        speedSpanStartDopplerSeconds = dopplerSeconds
        return toCount
    }

    /// The filter's velocity update from a trusted reading of `speed` (m/s, accuracy `speedSigma`) along `grid`, its
    /// course on the plane's axes (``gridCourse(_:of:accuracy:)``, finite; its accuracy the fix's, else the profile's
    /// assumed one).
    @inlinable @inline(__always)
    mutating func updateVelocity(speed: Double, gridCourseDegrees grid: Double, speedSigma: Double, fix: Fix) {
        let courseSigma = fix.courseAccuracyDegrees ?? profile.assumedCourseAccuracyDegrees
        let c = grid * .pi / 180
        filter.updateVelocity(
            east: speed * sin(c), north: speed * cos(c),
            variance: MeasurementNoise.velocityVariance(
                speed: speed, speedSigma: speedSigma, courseSigmaDegrees: courseSigma))
    }

    /// The velocity update of a trusted reading of `speed` m/s above the deadband along `course` (degrees), after
    /// the course check of readings at ``CourseCheck/minimumSpeedMetresPerSecond`` or more (compared with the
    /// position filter's direction when that filter moves at half the reading or more, a disagreement counts one
    /// up, an agreement one down; ``readsCourseWrong`` from ``CourseCheck/disagreementsToDistrust`` up until the
    /// count is back at zero): no update while the column reads wrong. Out of line: inline, the check cost the
    /// simulated walk 25 instructions per fix, though a walker's readings never reach it.
    @usableFromInline @inline(never)
    mutating func updateVelocityCheckingCourse(
        speed: Double, courseDegrees course: Double, speedSigma: Double, fix: Fix
    ) {
        let grid = gridCourse(course, of: fix, accuracy: fix.horizontalAccuracyMetres ?? profile.assumedAccuracyMetres)
        guard grid.isFinite else { return }  // (a course a polar plane cannot turn: see `LocalFrame`)
        let c = grid * .pi / 180
        let sinCourse = sin(c), cosCourse = cos(c)
        let pe = positionFilter.velocityEast, pn = positionFilter.velocityNorth
        let share = CourseCheck.minimumPositionSpeedShare * speed
        if speed >= CourseCheck.minimumSpeedMetresPerSecond, pe * pe + pn * pn >= share * share {
            if CourseCheck.agrees(sinCourse: sinCourse, cosCourse: cosCourse, east: pe, north: pn) {
                if courseDisagreements > 0 { courseDisagreements -= 1 }
                if courseDisagreements == 0 { courseIsWrong = false }
            } else {
                if courseDisagreements < CourseCheck.maximumDisagreements { courseDisagreements += 1 }
                if courseDisagreements >= CourseCheck.disagreementsToDistrust { courseIsWrong = true }
            }
        }
        guard !courseIsWrong else {
            coursesLeftOut += 1
            return
        }
        let courseSigma = fix.courseAccuracyDegrees ?? profile.assumedCourseAccuracyDegrees
        filter.updateVelocity(
            east: speed * sinCourse, north: speed * cosCourse,
            variance: MeasurementNoise.velocityVariance(
                speed: speed, speedSigma: speedSigma, courseSigmaDegrees: courseSigma))
    }

    /// The motion-activity gate's verdict on the reading in force at `now` (``MotionGate/verdict(_:ageSeconds:profile:)``),
    /// whether it was a "still" the motion contradicts, taken as uncertain (``movesAgainstStillReading(now:)``), and
    /// whether it confidently names an activity the profile excludes. Out of line,
    /// called only with a reading: inline, the rule on a "still" cost the simulated walk (no readings) 18–39
    /// instructions per fix wherever it was placed (and writing into the decision through `inout`, 80).
    @usableFromInline @inline(never)
    mutating func activityVerdict(now: Int64) -> (motion: MotionGate.Verdict, isContradicted: Bool, excludes: Bool) {
        let verdict = MotionGate.verdict(
            activity, ageSeconds: Double(now &- activityMilliseconds) / 1000, profile: profile)
        if verdict == .still && movesAgainstStillReading(now: now) { return (.uncertain, true, false) }
        let excluded = verdict != .uncertain && activity.map { profile.excludedActivities.contains($0.kind) } == true
        if verdict == .moving, !excluded, isInVehicle, slowSinceMilliseconds != .min {
            // A slow spell inside the vehicle latch under a confident reading of the profile's own activity (on
            // foot for walking) has lasted: the traveller left the vehicle, and the latch ends at this fix. (A
            // tester's walk after a standstill read "in vehicle" was held for two minutes, and lost at the end of
            // the file.)
            // (An exit time of ∞, which `validate()` allows as "no limit", or one too long for Int64 milliseconds:
            // the spell put back a quarter of Int64's range, so that the latch holds by time for ever and the
            // arithmetic on it cannot overflow. Converted as it was, it trapped: an API tester's profile.)
            let exitMilliseconds = profile.vehicleExitSeconds * 1000
            // (Negative, from a profile never validated: 0.)
            let back = exitMilliseconds < Double(Int64.max / 4) ? Int64(max(exitMilliseconds, 0)) : Int64.max / 4
            slowSinceMilliseconds = min(slowSinceMilliseconds, now &- back)
        }
        return (verdict, false, excluded)
    }

    /// Whether the motion contradicts a confident "still" activity reading at this fix (at `now`), on both kinds of
    /// evidence over the trailing window (its oldest sample to now): the speed readings cover at least half the
    /// window and their mean is at ``TrackingProfile/motionDopplerSpeedMetresPerSecond`` or more, and the filtered
    /// track's net displacement exceeds the window's accuracy threshold (``NetDisplacementGate``), as the window's
    /// motion verdict judges them. The fix then counts as with no reading (``MotionGate/Verdict/uncertain``). Why: a
    /// classifier's "still" outlives the halt it was read at (Android holds it until the next transition, this
    /// tracker for ``TrackingProfile/activityValiditySeconds``), and one stray confident "still" held a 28 m/s drive
    /// for a minute; "still" on 2 % of a 40 km drive's fixes cut it by 76 %, silently (a column-mangling tester).
    /// Both kinds of evidence are needed: a phone on a desk whose positions wander (the reading's purpose) reads no
    /// speed, and a receiver without a speed column keeps the reading. It reads the tracker's own running sums (the
    /// window as it stands before this fix's sample): ``activityVerdict(now:)`` calls it for a "still" only.
    mutating func movesAgainstStillReading(now: Int64) -> Bool {
        guard let start = window.oldest(), 2 * (now &- start.milliseconds) >= windowSpanMilliseconds
        else { return false }
        let seconds = dopplerSeconds - start.dopplerSeconds
        guard 2 * seconds >= profile.windowSeconds,
            dopplerPath - start.dopplerPath >= profile.motionDopplerSpeedMetresPerSecond * seconds
        else { return false }
        let de = filter.east - start.east, dn = filter.north - start.north
        let threshold = NetDisplacementGate.threshold(
            meanAccuracy: windowMeanAccuracy(orElse: lastAccuracy), profile: profile)
        return (de * de + dn * dn).squareRoot() > threshold
    }

    /// The filter's velocity update from a trusted reading under the deadband (`speed`, of accuracy `speedSigma`):
    /// a halt, so a zero velocity (or, with a course, the reading along it), unless ``isJudgingStillReadings``.
    /// Standing still needs no direction: without a course a zero speed is a zero velocity. Out of line: only
    /// readings under the deadband take it.
    @usableFromInline @inline(never)
    mutating func updateVelocityWithStillReading(_ speed: Double, speedSigma: Double, fix: Fix) {
        guard !isJudgingStillReadings else { return }
        // (A course a polar plane cannot turn, near the pole, is no course: the halt is still a zero velocity.)
        if let course = fix.courseDegrees,
            case let grid = gridCourse(
                course, of: fix, accuracy: fix.horizontalAccuracyMetres ?? profile.assumedAccuracyMetres),
            grid.isFinite
        {
            updateVelocity(speed: speed, gridCourseDegrees: grid, speedSigma: speedSigma, fix: fix)
        } else {
            filter.updateVelocity(
                east: 0, north: 0,
                variance: MeasurementNoise.velocityVariance(speed: 0, speedSigma: speedSigma, courseSigmaDegrees: 0))
        }
    }

    /// Whether a run of fixes whose readings say still while the track travels overrules them now
    /// (``ContradictedReadings``): its verdict, as long as its last fix is the last accepted one (a run that a
    /// reading above the deadband left unjudged is over: its stale verdict made a consistent receiver's later
    /// halts count their first zeros as dropouts, 7–12 m per stop in a reviewer's test).
    @inlinable
    var isOverrulingReadings: Bool {
        contradiction.isOverruling && contradiction.lastMilliseconds == lastAcceptedMilliseconds
    }

    /// Whether trusted sub-deadband readings are no velocity measurement to the filter: while a run of fixes whose
    /// readings say still while the track travels (``ContradictedReadings``) is under way (its last fix is the last
    /// accepted one), and for the rest of the session once a run overruled them as a placeholder (as they are no
    /// readings to the prediction then: `positionOnlyBelowMetresPerSecond`). Why: at 1 Hz a speed column that died
    /// under a 12 m/s drive pinned the velocity at 0 fix after fix, the fixes fell outside the prediction (χ² 7–25),
    /// every rejection ended the run, and the drive after the column died counted nothing; and a run that ended at a
    /// corner, or a second death of the column, had the zeros pin the velocity again, with rejections and
    /// re-anchors that no new run survived (3,700 m of a 7,200 m drive). The position filter, which the run's
    /// distance comes from, takes no readings. The cost: once a column died and revived, the filtered velocity at a
    /// later true halt decays by the positions alone (a reviewer's test: 3–7 m/s five seconds into a stop at 1 Hz,
    /// three or four fixes refused as outliers; the distance unchanged). Tried instead, on a reviewer's 45 drives
    /// whose column dies (861 km; some revive, die again, halt): pinning again once the zeros are a new run of them
    /// (summed error 22.7 → 36.3 km) or once the window's net displacement falls under the run's thresholds
    /// (→ 57.6 km).
    @inlinable
    var isJudgingStillReadings: Bool {
        positionOnlyBelowMetresPerSecond > 0
            || (contradiction.fixes != 0 && contradiction.lastMilliseconds == lastAcceptedMilliseconds)
    }

    /// Takes a fix's reading and position-filter path back out of the session's Doppler evidence (``DopplerCheck``),
    /// where the fix, moving, had just added them (under chords the chord restarts at the fix instead, and its
    /// fix-by-fix unit evidence loses them). For sub-deadband readings once the readings were overruled as a
    /// placeholder (``dropoutBound(_:reading:droppedOut:isTrusted:isMoving:netMetres:thresholdMetres:)``).
    @usableFromInline
    mutating func withdrawSessionEvidence(reading: Double, now: Int64) {
        let step = min(Double(now &- lastAcceptedMilliseconds) / 1000, profile.maximumIntegrationSeconds)
        let evidence = SIMD2(reading, positionFilter.speedMetresPerSecond) * step
        if profile.judgesDopplerByChords {
            unitEvidence -= evidence
            startChord(now: now)
        } else {
            sessionDopplerPath -= evidence.x
            sessionPositionPath -= evidence.y
            startChord(now: now)  // (the chord evidence beside it: the chord restarts at the fix)
            // Nor is a placeholder's zero one of a receiver that reads zero while it travels: the fix held it
            // (`holdZeroReadingWhileMoving(now:)`) under the same tests.
            if reading < DopplerCheck.zeroReadingMetresPerSecond,
                positionFilter.speedMetresPerSecond >= profile.deadbandMetresPerSecond, heldZeroReadings > 0
            {
                heldZeroReadings -= 1
                if heldZeroReadings == 0 { dropHeldZeroReadings() }
            }
        }
    }

    /// `threshold` raised to the net-displacement gate's noise floor
    /// (``NetDisplacementGate/noiseFloor(positionVariance:profile:)``) for the filter's position variance scaled
    /// to the white noise the fixes show (``WhiteNoiseEstimate``) over the noise the filter assumed
    /// (`filterNoiseVariance`, m² per axis): the filter's variance follows the accuracy it was given, fixes whose
    /// error drifts or that are exact do not scatter from epoch to epoch, and white noise does, by as much as it
    /// does. Not capped at 1 (the filter's own noise level) since 2026-11-30: a receiver claiming 1–2 m whose
    /// fixes scatter 4 m per axis counted a reviewer's parked car 30.7 km per hour on the driving profile (68 m
    /// uncapped); the estimate only takes steps of at most 2.5 s, where a turning vehicle puts the middle fix
    /// a few decimetres off the chord, far below any floor that would cost it a window (every recording unchanged;
    /// of 1,194 generated cases all but three groups unchanged: a slow white-noise walk with 25 m accuracy −60 m of
    /// 950, the same at 10 m −23 m of an over-count of 196, doze bursts −3 m).
    /// Not raised before the estimate has its first ``WhiteNoiseEstimate/minimumSamples`` triples.
    /// A sparse step (longer than ``WhiteNoiseEstimate/maximumStepSeconds``) is also raised to
    /// ``WhiteNoiseEstimate/sparseThresholdSigmas`` standard deviations of the filtered track's white jitter by the
    /// sparse estimate (``WhiteNoiseEstimate/sparseVarianceRatio``, once it has its
    /// ``WhiteNoiseEstimate/sparseMinimumSamples`` pairs; before, for a fix that reads no speed and states its
    /// accuracy after a sparse step, ``WhiteNoiseEstimate/sparseVarianceRatioWithWhitePrior``; docs/ARCHITECTURE.md
    /// 5f).
    /// (`mutating` only so that `self` is passed by reference: see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``.)
    @usableFromInline @inline(never)
    mutating func raisedToNoiseFloor(_ threshold: Double, filterNoiseVariance: Double) -> Double {
        var threshold = threshold
        if predictionStep.seconds > WhiteNoiseEstimate.maximumStepSeconds,
            whiteNoise.sparseSamples >= WhiteNoiseEstimate.sparseMinimumSamples
                || (predictionStepKey & 1 == 1 && whiteNoise.lastStepIsSparse),
            profile.netDisplacementNoiseSigmas > 0, noise.scale > 0
        {
            // A sparse step: the white noise its logger's steps show, as a share of the reported variance
            // (`WhiteNoiseEstimate.sparseVarianceRatio`; before its tenth pair, with a prior of white noise for a fix
            // that states its accuracy), over the share the filter assumed (its scale).
            let share = whiteNoise.sparseVarianceRatioWithWhitePrior / noise.scale
            threshold = max(
                threshold,
                NetDisplacementGate.noiseFloor(
                    positionVariance: filter.positionVariance * share, sigmas: WhiteNoiseEstimate.sparseThresholdSigmas)
            )
        }
        guard whiteNoise.samples >= WhiteNoiseEstimate.minimumSamples, filterNoiseVariance > 0 else { return threshold }
        let share = whiteNoise.varianceMetres2 / filterNoiseVariance
        return max(
            threshold,
            NetDisplacementGate.noiseFloor(positionVariance: filter.positionVariance * share, profile: profile))
    }

    /// The net-displacement gate's threshold where the net displacement decides: ``raisedToNoiseFloor(_:filterNoiseVariance:)``,
    /// and at least the net displacement itself (not moving) for a fix at (`e`, `n`) on the plane that lies inside
    /// the trailing stretch while that reads still, within its edge (see ``StillScatter``); what the window holds is
    /// then given up (its steps lie in the stretch). The fix then joins the stretch, and the ``ChordOdometer``
    /// (``countChord(east:north:variance:now:)``), whose metres, already added to the total, are returned with the
    /// threshold.
    ///
    /// Only a fix that reads no speed and states an accuracy is judged and joins (the prediction step's key says so,
    /// ``predictionStepKey``); fixes join only here, where the net displacement decides (a window with Doppler
    /// judges by it). Off with the noise floor (``TrackingProfile/netDisplacementNoiseSigmas`` 0): both judge the
    /// fixes' own noise, and a profile that turns the floor off asks for the accuracy threshold alone. Its per-axis variance is `filterNoiseVariance` over the white share (``noise``), its time the
    /// last received (``lastReceivedMilliseconds``), the net displacement the window's (recomputed here).
    /// Out of line, and one call with the floor's, its arguments the fix's position only: a call of its own in that
    /// branch (never taken on the `tracker` benchmark, speeds on every fix), or this one with the net displacement,
    /// the variance and the time as arguments, cost it 24–29 instructions per fix (the per-fix function grew, and
    /// the compiler stopped inlining small getters into it). (`mutating` only so that `self` is passed by reference:
    /// see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``.)
    @usableFromInline @inline(never)
    mutating func movingThreshold(_ threshold: Double, filterNoiseVariance: Double, east e: Double, north n: Double)
        -> (threshold: Double, chordMetres: Double)
    {
        let raised = raisedToNoiseFloor(threshold, filterNoiseVariance: filterNoiseVariance)
        guard predictionStepKey & 1 == 1, profile.netDisplacementNoiseSigmas > 0, noise.scale > 0,
            let start = window.oldest()
        else { return (raised, 0) }
        let variance = filterNoiseVariance / noise.scale
        let chord = countChord(east: e, north: n, variance: variance, now: lastReceivedMilliseconds)
        let ne = filter.east - start.east, nn = filter.north - start.north
        let net = (ne * ne + nn * nn).squareRoot()
        let isStill =
            net > raised && stillScatter.startMilliseconds > lastAnchorMilliseconds
            && stillScatter.holds(east: e, north: n, variance: variance)
        if isStill { committed = candidates }
        stillScatter.add(
            east: e, north: n, variance: variance, now: lastReceivedMilliseconds, anchoredAt: lastAnchorMilliseconds)
        return (isStill ? net : raised, chord)
    }

    /// Feeds the fix at (`e`, `n`) on the plane, of per-axis variance `variance` (m², its stated accuracy's), taken
    /// at `now`, to the ``ChordOdometer`` and returns the metres it counts, already added to the total. Only where
    /// the net displacement decides (the trailing window holds no Doppler); it starts again after an anchor, or when
    /// another accepted fix came between, or when the gates gave up what they held (a departure, ``giveUpDeparture()``)
    /// or the track was restored. A reading of motion in force that excludes the fix excludes its chord (the
    /// odometer keeps its own vehicle latch, on block positions: the tracker's opens on noise).
    /// Called from ``movingThreshold(_:filterNoiseVariance:east:north:)`` (out of line), for the fixes it judges:
    /// called on its own after the gates, it cost the `tracker` benchmark 26–36 instructions per fix.
    @usableFromInline
    mutating func countChord(east e: Double, north n: Double, variance: Double, now: Int64) -> Double {
        if chordFixCount != fixCount - 1 || chordOdometer.startMilliseconds <= lastAnchorMilliseconds {
            chordOdometer.restart()
        }
        let start = window.oldest()
        if let start, start.dopplerSeconds != dopplerSeconds {
            // Readings in the window: they judge (the next fix without one starts the odometer again).
            chordFixCount = -1
            return 0
        }
        let excluded = activity != nil && readingExcludes(at: now)
        if let start, now > start.milliseconds {
            // The window's net displacement beyond three times its own noise (the filtered track's, both ends),
            // faster than the traveller sustains: vehicle evidence for the odometer's latch even before its first
            // block leg (a bus's first fast spell at a track's start; the tracker's own latch, judged without the
            // margin, also opens on a walk under 12–15 m of noise).
            let de = filter.east - start.east, dn = filter.north - start.north
            let margin = 3 * (2 * filter.positionVariance).squareRoot()
            if (de * de + dn * dn).squareRoot() - margin
                > profile.maximumSustainedSpeedMetresPerSecond * Double(now &- start.milliseconds) / 1000
            {
                chordOdometer.fastMilliseconds = max(chordOdometer.fastMilliseconds, now)
            }
        }
        chordFixCount = fixCount
        // The share of the fix's stated variance that is white (scatters afresh at every fix), as measured by
        // ``WhiteNoiseEstimate`` from the fixes' own steps (dense or sparse); none until it has enough samples (an
        // error that drifts does not average down over a block).
        var whiteShare = 0.0
        if predictionStep.seconds > WhiteNoiseEstimate.maximumStepSeconds {
            if whiteNoise.sparseSamples >= WhiteNoiseEstimate.sparseMinimumSamples {
                whiteShare = whiteNoise.sparseVarianceRatio
            }
        } else if whiteNoise.samples >= WhiteNoiseEstimate.minimumSamples {
            whiteShare = whiteNoise.varianceMetres2 / variance
        }
        // What the gates hold and may still count (the window's, a departure's, the vehicle latch's): a chord counts
        // only beyond it too, else the two would count the same metres when the hold is released.
        let windowStart = start.map { SIMD2($0.candidateDoppler, $0.candidateFiltered) } ?? candidates
        let held =
            (candidates - pointwiseMax(committed, windowStart)).sum() + departurePending.sum() + vehiclePendingDoppler
            + vehiclePendingFiltered
        let chord = chordOdometer.add(
            east: e, north: n, variance: variance, whiteShare: whiteShare, now: now,
            totalMetres: accumulator.totalMetres, heldMetres: held,
            blockSeconds: profile.windowSeconds, excluded: excluded,
            maximumSpeed: profile.maximumSustainedSpeedMetresPerSecond, vehicleExitSeconds: profile.vehicleExitSeconds)
        return accumulator.add(doppler: 0, filtered: chord)
    }

    /// Whether the filtered position lies farther than `threshold` (metres, the net-displacement gate's)
    /// from where the vehicle latch's slow spell started. Out of line: called once per spell (`mutating` only so
    /// that `self` is passed by reference: see ``continuesRejectionRun(east:north:predictedEast:predictedNorth:)``).
    @usableFromInline
    mutating func hasLeftSlowStart(threshold: Double) -> Bool {
        let d = SIMD2(filter.east, filter.north) - slowStart
        return NetDisplacementGate.isMoving(netDisplacement: (d * d).sum().squareRoot(), threshold: threshold)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
