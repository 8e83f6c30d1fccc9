// Steps longer than the integration clamp: bridging gaps, sparse steps, excursions and chains.
// Part of `Tracker` (Tracker.swift holds its state and the per-fix path).

extension Tracker {
    /// Bridging, called before the filter update of a fix at (`east`, `north`) with per-axis variance `variance`
    /// (m²) `dt` seconds after the last accepted one when that step is longer than
    /// ``TrackingProfile/maximumIntegrationSeconds`` or a gap chord is pending. Returns (the least increment the
    /// step counts, the metres a confirmed gap chord added). (The fix's accuracy comes as the variance the caller
    /// keeps for the outlier gate anyway: passing its accuracy, or storing it for this call, made the compiler
    /// copy the whole tracker on every fix.)
    ///
    /// **A step longer than the clamp straight after a reset gap's lone anchor** is a link of a chain of sparse
    /// steps (``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``): the gap's chord counts if this step's chord
    /// agrees with it (or it agreed with the one before), and then this step counts at least its chord.
    ///
    /// **A step longer than the clamp** counts at least its chord, from the filtered position before it to the
    /// fix (capped at the profile's top speed), when the filter's velocity before the step was above the
    /// deadband, within 45° of that chord (``bridgeHeadingCosine``), and the chord's average speed at most
    /// ``bridgeSpeedRatio`` times it; the step then goes through every gate as usual. Why: the clamp keeps one
    /// speed reading from standing for a long silence, but a logger that records every 11–60 s (GPX hikes,
    /// Garmin's "smart" recording, which records less often exactly when the traveller goes straight) lost
    /// 10–80 % of every such step (`gpx-korita-zbevnica` counted 4,125 m of a 6,282 m fix path). The chord is a
    /// lower bound on the path whenever the positions are right; the heading and pace checks keep a still
    /// receiver's scatter out (its chords point anywhere, and back, and a jump is much faster than the drift
    /// before it).
    ///
    /// **Every reset gap** is settled at the first fix half a window after its anchor (any anchor in between
    /// drops it). If that fix is back within 2 m + twice the window's mean accuracy of the filtered position
    /// before the silence while the anchor was not, the track since was a cold fix converging (Android's doze
    /// wakes a still phone every few minutes, its first fixes tens of metres off): the distance held since the
    /// anchor is given up and the window starts again (a parked phone's doze bursts on the driving profile,
    /// 13,456 → 7,813 m per 4 hours in a reviewer's cases).
    ///
    /// **A pending gap chord** (``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``) then counts, straight
    /// into the total, when the track after the gap has moved from the anchor by more than the net-displacement
    /// threshold, the filter's velocity is above the deadband and does not head back along the chord (a turn of at
    /// most 120° from it where the readings give the pace, ``gapExitHeadingCosine``; 90° where they do not), the
    /// speeds before and after the gap are within ``bridgeSpeedRatio`` of each
    /// other (``bridgeVehicleSpeedRatio`` for a vehicle's profile) and the chord's average speed at most
    /// ``bridgeSpeedRatio`` times the faster, neither the track since the anchor (less what the two fixes'
    /// accuracies explain: a first fix after a tunnel tens of metres off converges that fast) nor the filter is
    /// faster than the traveller sustains, and neither the vehicle latch nor a reading in force
    /// excludes the movement. Why: a tunnel, an underpass or a building is crossed at about the pace of either
    /// side, and whatever turn the traveller took inside, it does not come out heading back to where it went in;
    /// a receiver that is still after the gap (a car parked in a garage), one whose first fixes after a silence
    /// start off and converge back (a cold fix after Android's doze, a multipath excursion's return), a walker
    /// whose silence hid a bus ride (twice the pace across it), and one who comes out of the silence on a bus
    /// or in a car (faster than a walker, or twice the pace it went in at: a second reviewer's cases, +563 m of
    /// bus counted as walk before this check) all fail.
    ///
    /// Out of line and mutating (`self` by reference): rare at 1 Hz.
    @usableFromInline @inline(never)
    mutating func bridge(
        east e: Double, north n: Double, seconds dt: Double, variance r: Double, isAccuracyAssumed: Bool,
        doppler: Double?, course: Double, now: Int64
    ) -> SIMD2<Double> {
        // A step that is no reset gap ends a run of them (see `resetGapHysteresis`); the first step after a gap
        // always comes here (`pendingGapSeconds`).
        resetGapThresholdSeconds = profile.filterResetGapSeconds
        let ve = filter.velocityEast, vn = filter.velocityNorth
        let speed = (ve * ve + vn * vn).squareRoot()
        // This fix's displacement accuracy: the reported radius, or the profile's displacement noise for none.
        let accuracy =
            isAccuracyAssumed
            ? profile.assumedDisplacementAccuracyMetres : r.squareRoot() * MeasurementNoise.radius68PerSigma
        var added = 0.0
        var floor = 0.0
        if pendingGapSeconds > 0, !isHoldReleasePending, dt > profile.maximumIntegrationSeconds,
            let anchor = window.oldest(), anchor.fixCount == fixCount
        {
            // A sparse step straight after a reset gap's anchor: a link of a chain (see `beginGap`).
            pendingGapSeconds = 0
            let link = linkChain(
                point: SIMD2(anchor.east, anchor.north), pointMilliseconds: anchor.milliseconds,
                pointAccuracy: anchorAccuracy, pointIsExcluded: anchorIsExcluded, pointIsStill: subDeadbandRun > 0,
                east: e, north: n, seconds: dt, accuracy: accuracy, doppler: doppler, now: now)
            added = link.added
            // (At most what the traveller sustains: below the profile's top speed.)
            floor = link.secondSpeed * dt
        }
        if isHoldReleasePending {
            // A hold released by a jump (see `holdReleaseMinimumSeconds`), settled half a window after its end.
            if Double(now &- holdReleaseMilliseconds) / 1000 >= profile.windowSeconds / 2 {
                let seconds = pendingGapSeconds
                (pendingGapSeconds, isHoldReleasePending) = (0, false)
                added = settleHoldRelease(seconds: seconds, east: e, north: n, now: now)
            }
        } else if pendingGapSeconds > 0, let anchor = window.oldest(),
            Double(now &- anchor.milliseconds) / 1000 >= profile.windowSeconds / 2
        {
            guard let settled = settlePendingGap(anchor: anchor, east: e, north: n, accuracy: accuracy, now: now) else {
                return SIMD2(0, 0)
            }
            added = settled
        }
        if dt > profile.maximumIntegrationSeconds {
            let de = e - filter.east, dn = n - filter.north
            let chord = (de * de + dn * dn).squareRoot()
            if chord > 0, speed >= profile.deadbandMetresPerSecond,
                ve * de + vn * dn >= Self.bridgeHeadingCosine * speed * chord,
                chord <= Self.bridgeSpeedRatio * speed * dt
            {
                floor = max(floor, min(chord, profile.maximumSpeedMetresPerSecond * dt))
            }
            // A step of the recording's rhythm without readings: its chord, when it keeps on from the step before.
            // (The step straight after an anchor counts nothing by it: no step before it was judged, see
            // ``lastSparseChordMilliseconds``. Its chord is noted for the step after it, which adds what it fell
            // short of its chord if it keeps on from it.)
            if doppler == nil, lastReading.isNaN {
                floor = max(
                    floor,
                    sparseChordFloor(
                        east: e, north: n, seconds: dt, accuracy: accuracy, isAccuracyAssumed: isAccuracyAssumed,
                        now: now))
            }
            // A sparse step with readings at both ends (see `sparseStepEstimate`): judged now, counted after the
            // gates (`commitSparseStep`); the floor comes back as −1 − floor to say so.
            if lastReading >= 0,
                let step = sparseStepEstimate(
                    east: e, north: n, seconds: dt, doppler: doppler, course: course.isNaN ? nil : course,
                    accuracy: accuracy, now: now)
            {
                pendingSparseStep = step
                return SIMD2(-1 - floor, added)
            }
        }
        return SIMD2(floor, added)
    }

    /// Settles the pending reset gap (see ``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``,
    /// "Every reset gap" and "A pending gap chord") at a fix at (`east`, `north`) with displacement accuracy
    /// `accuracy`, judged with the filter's velocity as it stands, the window's oldest sample `anchor` being the
    /// gap's anchor. Returns the metres its chord added (0 when it does not count), or `nil` when the track since the
    /// anchor was a cold fix converging back to where it was before the silence: the metres held since the anchor
    /// are then given up and the window starts again. Also at the end of a track (``finishTrack()``), at its last fix:
    /// the filter's velocity and the readings' pace then include that fix.
    @usableFromInline
    mutating func settlePendingGap(
        anchor: TrailingWindow.Sample, east e: Double, north n: Double, accuracy: Double, now: Int64
    ) -> Double? {
        let ve = filter.velocityEast, vn = filter.velocityNorth
        let speed = (ve * ve + vn * vn).squareRoot()
        let seconds = pendingGapSeconds
        pendingGapSeconds = 0
        // The gap's chord: from the filtered position before it to the anchor (its first fix).
        let gap = SIMD2(anchor.east, anchor.north) - gapOrigin
        let chord = pendingGapSpeedBefore > 0 ? (gap * gap).sum().squareRoot() : 0
        let me = e - anchor.east, mn = n - anchor.north
        let meanAccuracy = windowMeanAccuracy(orElse: profile.assumedDisplacementAccuracyMetres)
        let moved = (me * me + mn * mn).squareRoot()
        let hasMoved = moved > NetDisplacementGate.threshold(meanAccuracy: meanAccuracy, profile: profile)
        // Back where it was before the silence, from a first fix that was not: a cold fix converging (Android's
        // doze wakes a still phone every few minutes, its first fixes tens of metres off), not travel. The
        // distance held since the anchor is given up, before the window releases it, and the window starts
        // again here.
        let back = SIMD2(e, n) - gapOrigin
        let nearOrigin = NetDisplacementGate.threshold(meanAccuracy: 2 * meanAccuracy, profile: profile)
        if (back * back).sum().squareRoot() <= nearOrigin, (gap * gap).sum().squareRoot() > nearOrigin {
            committed = candidates
            restartWindow(milliseconds: now &- 1, east: filter.east, north: filter.north)
            return nil
        }
        // Faster since the anchor than the traveller sustains (the vehicle rule, which has not judged this
        // track yet: it waits for half a window too), or a reading or the latch excluding it: a vehicle after
        // the gap, so the silence was most likely the vehicle's as well.
        // (The move since the anchor less what the two fixes' errors explain: a first fix after a tunnel tens of
        // metres off, its multipath claiming 25 m, read 40 m of convergence in 10 s as a vehicle's 4 m/s and lost
        // the tunnel's chord; an API tester's walks.)
        let sustained = profile.maximumSustainedSpeedMetresPerSecond
        let explained = NetDisplacementGate.threshold(meanAccuracy: anchorAccuracy + accuracy, profile: profile)
        // The pace since the anchor: the readings' mean where they give it (see `readingsGivePace`), else the
        // filter's speed.
        let readingsPace = readingPace(since: anchor)
        let pace = readingsPace ?? speed
        let isExcluded =
            isInVehicle || (moved - explained) / (Double(now &- anchor.milliseconds) / 1000) > sustained
            || pace > sustained || readingExcludes(at: now)
        // The pace on both sides within `bridgeSpeedRatio` of each other (`bridgeVehicleSpeedRatio` for a
        // vehicle's profile), and across the gap at most `bridgeSpeedRatio` times the faster.
        let slower = min(pendingGapSpeedBefore, pace), faster = max(pendingGapSpeedBefore, pace)
        let sidesRatio = sustained.isFinite ? Self.bridgeSpeedRatio : Self.bridgeVehicleSpeedRatio
        if hasMoved, !isExcluded, chord > 0, pace >= profile.deadbandMetresPerSecond,
            ve * gap.x + vn * gap.y >= (readingsPace == nil ? 0 : Self.gapExitHeadingCosine) * speed * chord,
            faster <= sidesRatio * slower, chord / seconds <= Self.bridgeSpeedRatio * faster
        {
            return accumulator.add(doppler: 0, filtered: chord)
        }
        return 0
    }

    /// The least a sparse step without speed readings counts (metres): its chord, from the last accepted fix to
    /// the fix at (`east`, `north`) with displacement accuracy `accuracy`, `dt` seconds later; 0 when the rule
    /// does not apply. Notes the chord for the step after (``lastSparseChord``).
    ///
    /// It applies (never to the step straight after an anchor, which has no judged step before it; its chord is
    /// noted all the same) when the step is of the recording's rhythm (at most ``sparseRhythmRatio`` times the step
    /// before: a logger's cadence, not a silence that may hide a stop), outside the vehicle latch, and its chord
    /// lies beyond the fixes' noise (the net-displacement threshold of both ends' accuracies), no faster than the
    /// traveller sustains, and *keeps on* from the step before: that step was judged here too, ended at the last
    /// accepted fix, was beyond its noise and within the pace, and the two chords do not turn by more than 90°
    /// (a non-negative dot product).
    ///
    /// Why: a logger without readings every 12–45 s (a phone app's GPX, a tracker without a speed column) had
    /// each step longer than the 10 s clamp counted as 10 s of the position filter's speed unless its chord from
    /// the *filtered* position kept within 45° of the filter's heading (the bridge): on paths that turn at most
    /// fixes, most steps failed that test. Recordings thinned without their speeds, against their full-rate
    /// count: the Pixel 6 walk every 30 s −23.5 → −9.9 %, the Edge 800 ride every 15 s −8.7 → −3.7 %, the F9K
    /// drive every 15 s −14.4 → −9.2 %; generated city tracks every 18–45 s −7 … −19 % → −2 … −8 %
    /// (docs/ARCHITECTURE.md 5e). The chord between the fixes themselves does not lag as the filtered position
    /// does. The test against the step before keeps jumps out: a multipath excursion off a still logger's
    /// position is entered by a chord whose predecessor lay within the noise and left by one that turns back or
    /// follows one within the noise. Without it, generated still loggers whose fixes sit 25–70 m off for 1–5
    /// minutes counted 309 → 996 m per 2 h (walking, every 45 s) and 674 → 1,320 m (cycling, every 25 s); with
    /// it +0 … +20 m (+50 … +95 m where the fixes claim less than their scatter or the error drifts fast, on top
    /// of the 0.5–2.8 km such loggers already count: docs/ARCHITECTURE.md 5e).
    /// Not counted as the filter's speed over the whole step instead: a filter without velocity readings keeps
    /// its momentum into a halt, and a fleet van logging every 15 s read +13 % (−7 % with the clamp).
    ///
    /// **The step straight after an anchor** (the track's first, or the first after a re-anchor) has no step
    /// before it: it counts what the clamp allows (10 s of the filter's speed), and its chord is noted
    /// (``unjudgedStepOfferedBefore``). The step after it, if it keeps on from it, adds to its own chord what that
    /// step's offered increments fell short of its chord: judged by the same test one step late, as a chain counts
    /// its first chord once the second agrees. (Of a track's first step no rhythm is known: it is noted whatever
    /// its length.) Why: every track of such a logger lost most of its first step, (dt − 10 s) × the speed (a
    /// tester's straight drives without speeds every 20 s: 131 m of 2,700; walks every 60 s: 66 m of 756). The
    /// price: a first fix off by more than the noise in the direction of travel (a cold fix of a logger without
    /// accuracies, which the accuracy gate cannot refuse) has its offset counted (a reviewer's drive every 15 s
    /// whose first fix lay 300 m behind: ~150 m more than before).
    @usableFromInline @inline(never)
    mutating func sparseChordFloor(
        east e: Double, north n: Double, seconds dt: Double, accuracy: Double, isAccuracyAssumed: Bool, now: Int64
    ) -> Double {
        let previous = lastSparseChord
        let keepsOn = lastSparseChordMilliseconds == lastAcceptedMilliseconds
        let offeredBefore = unjudgedStepOfferedBefore
        let isAfterAnchor = isAtLoneAnchor()  // (no step before this one)
        lastSparseChord = SIMD2(.nan, .nan)
        lastSparseChordMilliseconds = now
        unjudgedStepOfferedBefore = .nan
        let isFirstStep = isAfterAnchor && lastStepSeconds == 0
        guard isFirstStep || (lastStepSeconds > 0 && dt <= Self.sparseRhythmRatio * lastStepSeconds), !isInVehicle
        else { return 0 }
        let chord = SIMD2(e - lastRawEast, n - lastRawNorth)
        let length = (chord * chord).sum().squareRoot()
        // (A fix without an accuracy stands for a file without them: the fix before is taken as unknown too, at
        // the profile's displacement noise, not the accuracy gate's fallback that `lastAccuracy` holds.)
        let before = isAccuracyAssumed ? accuracy : lastAccuracy
        let noise = NetDisplacementGate.threshold(meanAccuracy: before + accuracy, profile: profile)
        let fastest = min(profile.maximumSustainedSpeedMetresPerSecond, profile.maximumSpeedMetresPerSecond)
        guard length > noise, length <= fastest * dt else { return 0 }
        lastSparseChord = chord
        if isAfterAnchor {
            unjudgedStepOfferedBefore = candidates.x + candidates.y
            return 0
        }
        // (NaN, for a step before that was not beyond its noise, fails the test.)
        guard keepsOn, (previous * chord).sum() >= 0 else { return 0 }
        // The step before was the first after an anchor: what its offered increments fell short of its chord.
        let shortfall =
            offeredBefore.isNaN
            ? 0 : max(0, (previous * previous).sum().squareRoot() - (candidates.x + candidates.y - offeredBefore))
        return length + shortfall
    }

    /// Whether slow readings `first` and `second` at the ends of a sparse step whose chord (`east`, `north`,
    /// `chord` metres long) lies within the fixes' noise describe a walker's movement: both at least
    /// ``paceReadingMetresPerSecond``, the chord at least ``paceChordShare`` of their `integral`, and the courses
    /// read at both ends, when there are both, within 45° of the chord (``bridgeHeadingCosine``).
    @usableFromInline
    func readingsDescribe(
        _ first: Double, _ second: Double, integral: Double, east de: Double, north dn: Double, chord: Double,
        course: Double?
    ) -> Bool {
        guard min(first, second) >= Self.paceReadingMetresPerSecond, chord >= Self.paceChordShare * integral else {
            return false
        }
        guard let course else { return true }
        return coursesHeadAlong(east: de, north: dn, chord: chord, course: course, cosine: Self.bridgeHeadingCosine)
            ?? true
    }

    /// Whether the courses read at both ends of a step (`course` at this fix, ``lastCourse`` at the one before)
    /// both head along its chord (`east`, `north`, `chord` metres long) within the angle whose cosine is
    /// `cosine`; `nil` when the fix before read no course.
    @usableFromInline
    func coursesHeadAlong(east de: Double, north dn: Double, chord: Double, course: Double, cosine: Double) -> Bool? {
        guard lastCourse.isFinite, !courseIsWrong else { return nil }  // (a wrong column heads nowhere)
        let a = lastCourse * .pi / 180, b = course * .pi / 180
        let limit = cosine * chord
        return sin(a) * de + cos(a) * dn >= limit && sin(b) * de + cos(b) * dn >= limit
    }

    /// The distance of a sparse step (longer than ``TrackingProfile/maximumIntegrationSeconds``) onto a fix at
    /// (`east`, `north`) with Doppler speed `doppler`, course `course` and displacement accuracy `accuracy`, `dt`
    /// seconds after the last accepted fix, from the speed readings at both its ends: the trapezoid
    /// (v₁ + v₂) / 2 × dt; on a straight step (both courses within 20° of the chord) the chord, which is its path
    /// there. Returns the step (``SparseStep/nothing`` for one that counts nothing and whose chord no other rule
    /// counts either), or `nil` when the rule does not apply (the clamp, the chord rules, the gates and the chains
    /// decide as before). ``commitSparseStep(floor:)`` counts it.
    ///
    /// It applies when both ends read a speed, the step is at most ``TrackingProfile/maximumBridgedGapSeconds``
    /// and at most ``sparseRhythmRatio`` times the step before it (a logger's cadence; a 1 Hz recording's first
    /// silence longer than the clamp is ten times its step, and keeps the older rules, as a silence may hide a
    /// stop), the session's Doppler check does not read another unit, neither the readings nor the chord are
    /// faster than the traveller sustains, and neither the vehicle latch nor a reading in force excludes the
    /// movement; and, for readings below the deadband at both ends, when the chord is within the fixes' noise
    /// (then it counts nothing), or for slow readings (under ``stillChordSpeedLimit``), when the chord is within
    /// the noise (nothing) or at most ``jumpChordRatio`` times their integral.
    ///
    /// Why: a fleet tracker reports every 15–120 s, and one reading standing for at most 10 s of its step lost
    /// most of each step, while the chords between its fixes cut every corner (docs/ARCHITECTURE.md, "Sparse
    /// steps with readings", for the figures).
    ///
    /// **The unit.** A speed in another unit (knots, km/h read as m/s) would multiply every sparse step, and
    /// such a track has no dense stretch for the Doppler check's evidence. The sparse steps keep their own
    /// (``sparseUnit``): in another unit, a step counts at most its chord; undecided, at most 1.3 chords.
    @usableFromInline
    func sparseStepEstimate(
        east e: Double, north n: Double, seconds dt: Double, doppler: Double?, course: Double?, accuracy: Double,
        now: Int64
    ) -> SparseStep? {
        guard let reading = doppler, lastReading >= 0, dt <= profile.maximumBridgedGapSeconds, lastStepSeconds > 0,
            !readsInAnotherUnit
        else { return nil }
        // The vehicle latch or a reading in force excluding the movement: the gates and the chains judge the step
        // as before.
        if isInVehicle || readingExcludes(at: now) || readingExcludes(at: lastAcceptedMilliseconds) { return nil }
        let de = e - lastRawEast, dn = n - lastRawNorth
        let chord = (de * de + dn * dn).squareRoot()
        let noise = NetDisplacementGate.threshold(meanAccuracy: lastAccuracy + accuracy, profile: profile)
        if dt > Self.sparseRhythmRatio * lastStepSeconds {
            guard dt > profile.filterResetGapSeconds else { return nil }
            return silenceChord(chord: chord, noise: noise, seconds: dt, reading: reading)
        }
        // A reading faster than the traveller sustains (a bus in a walk, a reading the speed gate set aside as
        // another unit): the gates and the chains judge the step as before (counted here, a walker's 30 s logger
        // on a bus counted the bus: a reviewer's 1,654 → 4,670 m).
        let sustained = profile.fastestSustainedSpeedMetresPerSecond
        if lastReading > sustained || reading > sustained { return nil }
        let first = lastReading, second = reading
        let deadband = profile.deadbandMetresPerSecond
        // A chord faster than the traveller sustains under readings it sustains (a tram that stops and goes
        // between a walker's fixes): the vehicle rules judge it.
        if chord / dt > sustained { return nil }
        if first < deadband && second < deadband {
            // Still at both ends: no movement across a chord within the fixes' noise; across a longer one the
            // readings do not tell (a delivery van stopped at both fixes drove 180–370 m between them; a column of
            // zeros under a moving track read 39,527 → 0 m when believed): the chains judge it as before.
            return chord <= noise ? .nothing : nil
        }
        let integral = (first + second) / 2 * dt
        // Slow readings at both ends of a chord within the fixes' noise (a parked receiver's Doppler jitter, 0.3–0.6
        // m/s), or of one far longer than they cover (a jump away and back: a reviewer's parked tracker counted
        // 1,536 m in 8 h): no movement (as a chain judges a still chord, ``stillChordSpeedLimit``).
        if integral / dt < Self.stillChordSpeedLimit {
            // (Unless both read a walker's pace, the chord bears them out, at least ¾ of their integral, and the
            // courses read at both ends, if any, head along it within 45°: a walker's steps every 10–15 s lie
            // within the noise of 8 m fixes, or of fixes without accuracies, and counted nothing; see
            // ``paceReadingMetresPerSecond``.)
            if chord <= noise,
                !readingsDescribe(first, second, integral: integral, east: de, north: dn, chord: chord, course: course)
            {
                return .nothing
            }
            // A chord far longer than slow readings cover: a jump, or a vehicle slow at both fix times and fast
            // between them; the readings do not tell which, the older rules judge it (counted as a jump's 0, a
            // reviewer's stop-and-go van lost its steps; as an integral, a parked tracker's jumps counted).
            if chord > Self.jumpChordRatio * integral + noise { return nil }
        }
        // A straight step: both ends moving, their courses within 20° of the chord's direction. Its chord is its
        // path; any other step's path is the speed integral.
        var isStraight = false
        let isMoving = first >= deadband && second >= deadband && chord > noise
        // Unit evidence from steps fast at both ends only: a step slow at both fix times and fast between them
        // lands within 1.3 chords whatever the unit (a reviewer's knots: one such step let ten count in full).
        let isEvidence = isMoving && min(first, second) >= Self.sparseEvidenceSpeedMetresPerSecond
        if isMoving, let course {
            isStraight =
                coursesHeadAlong(east: de, north: dn, chord: chord, course: course, cosine: Self.straightCosine)
                ?? false
        }
        return SparseStep(
            integralMetres: integral, chordMetres: chord, isStraight: isStraight, isUnitEvidence: isEvidence)
    }

    /// A reset gap out of the recording's rhythm (longer than ``sparseRhythmRatio`` × the step before and than
    /// ``TrackingProfile/filterResetGapSeconds``: a tunnel, a garage, an urban canyon in a 1 Hz or 10 s track)
    /// `dt` seconds long with a speed reading at both ends (`reading` at this one), its chord `chord` and the
    /// fixes' noise `noise` (metres; the caller has ruled out the vehicle latch and readings in force), on a
    /// vehicle's profile
    /// (no sustained-speed limit): its chord, as a straight sparse step, when one end reads under way (at least
    /// ``stillChordSpeedLimit``, 2 m/s: a parked tracker's noisy readings of 0.3–2 km/h say nothing, and its
    /// heartbeats' multipath jumps counted), the chord is beyond the fixes' noise and its pace at most ``bridgeVehicleSpeedRatio`` × the
    /// faster reading; else `nil` (the gap rules judge it, as before).
    ///
    /// Why: the path across a silence is at least its chord, and the readings say the vehicle was under way at
    /// one end. The gap rules count the chord only when the track after the silence confirms it (moving, heading
    /// on, at about the pace before), so a van that came out of a 60–100 s outage stopped at a light, or set off
    /// from one inside it, or looped round a block, counted nothing: a fleet re-tester's van logging every 10 s,
    /// with outages of 40–90 s cut into it at six places (truth 9,584 m across the 13 that moved), counted about
    /// 3,700 m across them. The chord is what every peer counts there (Traccar's totalDistance sums chords). Not
    /// the speed integral: a silence may hide a stop (a minute at a light inside a 90 s outage), which a trapezoid
    /// of the readings at its ends fills with driving; it also hides loops, which the chord cuts (the re-tester's
    /// holes: chords 5,904 m, the trapezoid 9,481 m, per hole −38 … +148 %). Not for shorter silences, where the
    /// clamp counts the reading for 10 s (the F9K drive's 19 s halt and start, truth 57 m: 106 m by the clamp, 58
    /// by the chord; measured, and left to the rules that govern those steps).
    @usableFromInline
    func silenceChord(chord: Double, noise: Double, seconds dt: Double, reading: Double) -> SparseStep? {
        let faster = max(lastReading, reading)
        guard !profile.maximumSustainedSpeedMetresPerSecond.isFinite, faster >= Self.stillChordSpeedLimit,
            chord > noise, chord <= Self.bridgeVehicleSpeedRatio * faster * dt
        else { return nil }
        return SparseStep(integralMetres: chord, chordMetres: chord, isStraight: true, isUnitEvidence: false)
    }

    /// Takes the sparse step ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)`` judged
    /// (``pendingSparseStep``): adds to the evidence of the readings' unit (``sparseUnit``) and returns the metres
    /// the step counts, at least `floor`: its estimate as far as that unit allows.
    @usableFromInline @inline(never)
    mutating func commitSparseStep(floor: Double) -> Double {
        let step = pendingSparseStep
        guard !step.countsNothing else { return 0 }
        let (integral, chord) = (step.integralMetres, step.chordMetres)
        if step.isUnitEvidence { sparseSteps += SIMD2(1, integral <= Self.sparseUnitRatio * chord ? 1 : 0) }
        let estimate = step.isStraight ? chord : integral
        let metres: Double
        switch sparseUnit {
        case .metresPerSecond: metres = estimate
        case .another: metres = min(integral, chord)
        case .undecided: metres = min(estimate, Self.sparseUnitRatio * chord)
        }
        return max(metres, floor)
    }

    /// A reset gap that is a sparse step with a reading at both ends: its speed integral
    /// (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``) counted, and its chord not
    /// counted again by a chain or the gap rule. Returns the metres counted. (Out of line, one call: written in
    /// `process` it cost the tracker benchmark 28 instructions per fix on its dense path.)
    @usableFromInline @inline(never)
    mutating func countSparseGap(
        east e: Double, north n: Double, seconds dt: Double, reading: Double, course: Double, accuracy: Double,
        now: Int64
    ) -> Double {
        guard
            let step = sparseStepEstimate(
                east: e, north: n, seconds: dt, doppler: reading.isNaN ? nil : reading,
                course: course.isNaN ? nil : course, accuracy: accuracy, now: now)
        else { return 0 }
        gapOriginIsExcluded = true
        pendingGapSpeedBefore = 0
        pendingSparseStep = step
        return accumulator.add(doppler: commitSparseStep(floor: 0), filtered: 0)
    }

    /// What the sparse steps show of their readings' unit (``sparseSteps``).
    @usableFromInline enum SparseUnit { case undecided, metresPerSecond, another }

    /// A sparse step as ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)`` judges it.
    @usableFromInline struct SparseStep: Sendable, BitwiseCopyable {
        /// The trapezoid of its two readings, metres (negative: ``countsNothing``).
        @usableFromInline var integralMetres: Double
        /// The straight line between its fixes, metres.
        @usableFromInline var chordMetres: Double
        /// Both courses within 20° of the chord: the chord is its path.
        @usableFromInline var isStraight: Bool
        /// Evidence of the readings' unit (``sparseSteps``): moving beyond the noise, cruising at both ends.
        @usableFromInline var isUnitEvidence: Bool

        /// A step that counts nothing and whose chord no other rule counts either.
        @usableFromInline static let nothing = SparseStep(
            integralMetres: -1, chordMetres: 0, isStraight: false, isUnitEvidence: false)

        /// See ``nothing``.
        @usableFromInline var countsNothing: Bool { integralMetres < 0 }
    }

    /// What the sparse steps show of their readings' unit: metres per second while the evidence steps (moving
    /// beyond the noise at ``sparseEvidenceSpeedMetresPerSecond`` or more at both ends) that integrate at
    /// most ``sparseUnitRatio`` times their chords are at least two and at least ``sparseUnitConsistentShare`` of
    /// them; another unit once there are ``sparseUnitMinimumSteps`` and fewer than that share do; else undecided.
    /// Why: a step's path is at least its chord, so readings in m/s integrate close to the chord on every fairly
    /// straight step, while readings in knots (1.94×), miles per hour (2.24×) or km/h (3.6×) integrate far above
    /// it on all of them. Real drives thinned to 15–120 s (`tools/analysis/sparse_steps.py`): the u-blox F9K's
    /// urban loop 79 / 67 / 50 % of its evidence steps within 1.3× at 15 / 20 / 30 s (none of its 7 and 3 at 60
    /// and 120 s: undecided), GSDC Pixel 4 92–100 %, Pixel 6a 69–97 %; the same readings as knots, mph or km/h
    /// 0–11 %.
    var sparseUnit: SparseUnit {
        let (steps, consistent) = (sparseSteps.x, sparseSteps.y)
        if consistent >= 2, consistent >= Self.sparseUnitConsistentShare * steps {
            return .metresPerSecond
        }
        return steps >= Self.sparseUnitMinimumSteps ? .another : .undecided
    }

    /// The share of the evidence steps that must integrate within ``sparseUnitRatio`` of their chords for the
    /// readings to be in m/s (``sparseUnit``): 0.15, between the lowest share of readings in m/s that shows any
    /// (33 %, a fleet tester's van at 60 s; the F9K at 30 s 50 %) and readings in another unit (at most 11 %: the
    /// F9K at 30 s as knots, 2 of 18).
    @usableFromInline static let sparseUnitConsistentShare = 0.15

    /// The evidence steps without a consistent share that make the readings another unit (``sparseUnit``): 8.
    /// Until then (or two consistent steps) a step counts at most ``sparseUnitRatio`` times its chord.
    @usableFromInline static let sparseUnitMinimumSteps = 8.0

    /// The slower reading at both ends of a sparse step for it to be unit evidence (``sparseUnit``), m/s: 5. A
    /// step slow at either fix time may have been fast between them, and then integrates within 1.3 chords in any
    /// unit; a step at 5 m/s or more at both ends is cruising.
    @usableFromInline static let sparseEvidenceSpeedMetresPerSecond = 5.0

    /// How much longer than its speed integral a slow sparse step's chord may be before the readings no longer
    /// describe the step (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``; the older rules
    /// judge it): 2. A car pulling away from a halt within a step covers up to about twice the integral of its
    /// readings (0 and its cruising speed), and is left to the older rules too; a multipath jump of 56–150 m under
    /// readings of 0.3–0.9 m/s is 2–15 times it (a reviewer's parked tracker counted 392 m in 8 h at 3).
    @usableFromInline static let jumpChordRatio = 2.0

    /// The cosine of the largest angle between a sparse step's chord and the course read at either end for the
    /// step to be straight, its chord then its path
    /// (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``): 0.94, about 20°.
    @usableFromInline static let straightCosine = 0.94

    /// The longest sparse step, relative to the step before it, whose readings are integrated across it
    /// (``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``): 4. A tracker's cadence varies (reports on a
    /// turn, a missed report doubles a step), but a 1 Hz recording's first silence longer than the 10 s clamp is
    /// at least ten times its step: it keeps the clamp and the chord rules (a second silence right after it is
    /// judged by the first).
    @usableFromInline static let sparseRhythmRatio = 4.0

    /// The share of ``TrackingProfile/filterResetGapSeconds`` beyond which a step after a reset gap opens one too,
    /// when the step before that gap was also longer than this share: 0.8 (16 s on driving, 24 s on cycling, 48 s
    /// on walking). The run ends at the first step that is no reset gap (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``
    /// restores the profile's gap, even for a step the outlier gate then refuses) and at any other anchor (a step
    /// too fast for the profile within the run anchors at once, as a reset gap would, and ends it).
    ///
    /// Why: a logger whose cadence straddles the reset gap (a tracker every 20 s ± 1 s on driving) alternated
    /// between the chain rules of reset gaps (``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``)
    /// and the dense path's bridge, and neither judged the steps the other had seen: generated city drives every
    /// 19 / 20 / 21 s counted −11.5 / −9.0 / −9.4 % (now −3.1 / −2.1 / −3.0 %), against −3.6 % where every step
    /// is a gap (22 s) and about −6 % where none is (18 s); the u-blox F9K drive thinned to 20 s without speeds
    /// −23.1 → −16.6 % (its chords −9.8 %). A dense track's silences leave the gap alone: the step before them is
    /// short (`tools/analysis/sparse_chain_cases.py OUT --gap`, docs/ARCHITECTURE.md 5g).
    @usableFromInline static let resetGapHysteresis = 0.8

    /// The most a sparse step's speed integral may exceed its chord for the step to show readings in m/s
    /// (``sparseUnit``), and what an undecided step counts at most, in chords: 1.3. On a straight step the chord
    /// is the path (real drives thinned to 15–120 s: 0.89–1.13 on straight steps).
    @usableFromInline static let sparseUnitRatio = 1.3

    /// The most a bridged chord's average speed may exceed the speed before it (for a gap: the faster of the
    /// speeds on either side): 1.5 times. A traveller that keeps its heading keeps roughly its pace too; a
    /// multipath jump after a still spell is many times faster than the drift the filter read before it, and a
    /// bus ride hidden in a walker's silence twice the walking pace.
    @usableFromInline static let bridgeSpeedRatio = 1.5

    /// The most the speeds on either side of a gap may differ for its chord to count when the profile's traveller
    /// is a vehicle (no ``TrackingProfile/maximumSustainedSpeedMetresPerSecond``: driving, cycling): 2.5 times.
    /// Why: a car slows or speeds up inside a tunnel (a queue at its exit), and the reason for
    /// ``bridgeSpeedRatio`` on the sides, a walker's silence hiding a bus ride, does not apply. A reviewer's drives
    /// with 25–60 s tunnels whose speed changes to 10–25 m/s inside (5 seeds, 31.4 km) counted −14.2 % with 1.5,
    /// −3.2 % with 2.5; every other generated case (about 1,100) and every recording is unchanged. The price, on
    /// cycling (by the rule, not measured): a car ride hidden in a silence at up to 2.5 times the riding pace
    /// (5 → 12 m/s) can now be bridged; the cycling profile counts such a car anyway once its fixes resume (it
    /// excludes only `in vehicle` readings).
    @usableFromInline static let bridgeVehicleSpeedRatio = 2.5

    /// The cosine of the largest turn between the heading before a long step and the step's chord for the chord
    /// to count (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``): 0.7, about 45°. A still receiver's chords have random
    /// headings (and a jump's return points back), so at most a quarter pass by chance. Measured on the first
    /// version of the bridge (the chord between filtered positions, no pace check): the simulator's still phone
    /// logging every 7–25 s counted the same with any cosine from 0 to 0.9, and the GPX hike
    /// `gpx-korita-zbevnica` 5,117 m at 0.7 against 4,961 m at 0.9 and 5,138 m at 0 (switchbacks fail the check);
    /// as first built it counted 5,156 m at 0.7 (not re-measured at the other cosines; 5,437 m with chains).
    @usableFromInline static let bridgeHeadingCosine = 0.7
    /// The least cosine between the filter's velocity half a window after a reset gap's anchor and the gap's chord
    /// for the chord to count (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``) where
    /// the readings give the pace since the anchor: −0.5, a turn of up to 120° on the way out (else 0: 90°). Why: a
    /// receiver whose first fixes after a silence start off and converge back (a cold fix, a multipath excursion's
    /// return) heads back at about 180°; a walker who comes out of an underpass and turns the corner heads off at
    /// 90–110°, and at 0 a tester's walks with readings that turned within 5 s of the exit lost the chord on two of
    /// three seeds at 90° and on every seed at 110° (−13 … −23 %); a reviewer's 150 random exits with readings
    /// (turns 0–135°, the exit fix 15–60 m off) 32 better, none worse. Without readings the filter's velocity is the
    /// positions' own, and a first fix off to the side converging at 90–120° passed: the same reviewer's exits
    /// without readings 3 worse, none better (a straight walk 830 → 964 m of 795), still phones' doze bursts on the
    /// driving profile +3 %; there it stays 0.
    @usableFromInline static let gapExitHeadingCosine = -0.5

    /// Begins a reset gap before the fix at (`east`, `north`) `dt` seconds after the last accepted one anchors the
    /// filter: settles a chain (below), then sets the gap's origin and the speed before it
    /// (``gapChordSpeedBefore(east:north:seconds:displacementAccuracy:)``, or the chain's pace). Returns the metres
    /// the chain added.
    ///
    /// **A chain of sparse steps**: a logger whose every step is a reset gap (a fleet tracker reporting every 30 s
    /// on the driving profile, a GPX logger every 2 minutes on walking) gives the filter no two fixes together, so
    /// it never measures a velocity, no gap rule applies, and such a track counted nothing at all (53.9 km of
    /// driving logged every 22–60 s: 0 m). Here the previous gap is still pending and its anchor was a point: a
    /// lone fix (no fix accepted since it), or a segment too short to settle that did not move by the
    /// net-displacement gate's test (a logger writing two or three fixes at each wake; not a burst whose first fix
    /// is converging from far off: its end is wherever that convergence stopped); its chord, from the previous gap's origin to that fix, counts
    /// (``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``) when this gap's
    /// chord agrees with it, or when it agreed with the chord before it. A step after a lone anchor that is
    /// shorter than the reset gap but longer than the clamp is a link too (``bridge(east:north:seconds:variance:isAccuracyAssumed:doppler:course:now:)``):
    /// a logger every 59–61 s on walking. When this gap's chord agrees, its pace stands as the speed before
    /// this gap, so a dense track after it confirms it like any gap's.
    @usableFromInline @inline(never)
    mutating func beginGap(
        east e: Double, north n: Double, seconds dt: Double, displacementAccuracy: Double, doppler: Double?, now: Int64
    ) -> Double {
        // (A hold released by a jump and still pending is no gap's: dropped.)
        if isHoldReleasePending { (pendingGapSeconds, isHoldReleasePending) = (0, false) }
        let origin = SIMD2(filter.east, filter.north)
        let isLone = isAtLoneAnchor()
        let accuracyHere = isLone ? anchorAccuracy : windowMeanAccuracy(orElse: anchorAccuracy)
        // A point of a chain: a lone anchor, or (a logger writing two or three fixes at each wake) a segment too
        // short to settle that did not move by the net-displacement gate's own test (its anchor within the
        // threshold of their mean accuracy from where it ended): not a cold fix converging.
        var isPoint = isLone
        if !isLone, let anchor = window.oldest() {
            let spread = SIMD2(anchor.east, anchor.north) - origin
            isPoint =
                (spread * spread).sum().squareRoot()
                <= NetDisplacementGate.threshold(meanAccuracy: (anchorAccuracy + accuracyHere) / 2, profile: profile)
        }
        // (The run of sub-deadband readings: 1 or more if the segment's last reading is below the deadband.)
        let originIsStill = isPoint && subDeadbandRun > 0
        // The reading in force at the segment's end: a lone anchor's own, else the last fix's unless this fix
        // carries a newer one.
        let originIsExcluded =
            isLone
            ? anchorIsExcluded
            : (isPoint && pendingGapSeconds > 0 && anchorIsExcluded) || readingExcludes(at: lastAcceptedMilliseconds)
        var added = 0.0
        var chainSpeed = 0.0
        var isSpike = false
        var isExcursion = false
        let isLink = pendingGapSeconds > 0 && isPoint
        let deadband = profile.deadbandMetresPerSecond
        if isLink {
            // A spike (one fix out and back to the gap's origin), or a two-fix excursion (the origin and the point
            // out, this fix back to the chain point before them): no chord of it counts.
            // Only from a settled home, out to points and back to a fix none of which read moving, within
            // `maximumExcursionSeconds`: a van's U-turn inside a moving chain, or a trip whose readings say it drove,
            // is no excursion.
            let limit = Int64(Self.maximumExcursionSeconds * 1000)
            let readsStill = !(lastReading >= deadband) && !((doppler ?? 0) >= deadband)
            isSpike =
                readsStill && gapOriginIsSettled && now &- gapOriginMilliseconds <= limit
                && returnsFromExcursion(
                    home: gapOrigin, homeAccuracy: gapOriginAccuracy, first: origin, firstAccuracy: accuracyHere,
                    east: e, north: n, accuracy: displacementAccuracy)
            isExcursion =
                !isSpike && readsStill && !gapOriginReadsMoving && hasChainHome && chainHomeIsSettled
                && now &- chainHomeMilliseconds <= limit
                && returnsFromExcursion(
                    home: chainHome, homeAccuracy: chainHomeAccuracy, first: gapOrigin,
                    firstAccuracy: gapOriginAccuracy, second: origin, secondAccuracy: accuracyHere, east: e, north: n,
                    accuracy: displacementAccuracy)
            if isSpike || isExcursion {
                recordVehicleEvidence(at: now, doppler: doppler)
            } else {
                (added, chainSpeed) = linkChain(
                    point: origin, pointMilliseconds: lastAcceptedMilliseconds, pointAccuracy: accuracyHere,
                    pointIsExcluded: originIsExcluded, pointIsStill: originIsStill, east: e, north: n, seconds: dt,
                    accuracy: displacementAccuracy, doppler: doppler, now: now)
            }
        }
        chainCertified = chainSpeed > 0
        lastExcursionStartMilliseconds = isSpike ? gapOriginMilliseconds : isExcursion ? chainHomeMilliseconds : .min
        let speedBefore = gapChordSpeedBefore(
            east: e, north: n, seconds: dt, displacementAccuracy: displacementAccuracy)
        pendingGapSpeedBefore = speedBefore > 0 ? speedBefore : chainSpeed
        // After a spike the chain goes on from the origin before it, as if the spike had not been; after a two-fix
        // excursion from the point it came back to (this fix: the next link's first chord is within the noise).
        if isSpike { return added }
        // Settled: back after an excursion; within the return zone of the chain point before or the one before
        // that; or, starting a chain, neither the reading nor the filter says moving.
        func isNear(_ point: SIMD2<Double>, _ pointAccuracy: Double) -> Bool {
            let d = origin - point
            return (d * d).sum().squareRoot() <= returnZoneMetres(pointAccuracy, accuracyHere)
        }
        let isSettled =
            isExcursion
            || (isLink
                ? isNear(gapOrigin, gapOriginAccuracy) || (hasChainHome && isNear(chainHome, chainHomeAccuracy))
                : !(lastReading >= deadband) && filter.speedMetresPerSecond < deadband)
        chainHome = gapOrigin
        chainHomeAccuracy = gapOriginAccuracy
        chainHomeMilliseconds = gapOriginMilliseconds
        chainHomeIsSettled = gapOriginIsSettled
        hasChainHome = isLink && !isExcursion
        gapOriginIsSettled = isSettled
        gapOriginReadsMoving = lastReading >= deadband
        gapOrigin = isExcursion ? SIMD2(e, n) : origin
        gapOriginMilliseconds = lastAcceptedMilliseconds
        gapOriginAccuracy = accuracyHere
        gapOriginIsStill = originIsStill
        gapOriginIsExcluded = originIsExcluded
        return added
    }

    /// Whether a chain's last points at `first` (and `second`, for a two-fix excursion), with their displacement
    /// accuracies, were an excursion from `home`, judged at the fix after them at (`east`, `north`) with
    /// displacement accuracy `accuracy`: this fix is back inside the *return zone* of `home`
    /// (``excursionReturnNoiseFactor`` × the net-displacement threshold of both ends' accuracies, the noise by
    /// which ``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``
    /// judges a chord), and each point of the excursion lay beyond twice its own return zone.
    /// ``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)`` asks it only when `home` was settled (the
    /// chain reached it by a chord inside the zone, or started there with nothing moving), no fix out or back
    /// read a Doppler speed at or above the deadband, and the excursion lasted at most
    /// ``maximumExcursionSeconds``; it then counts no chord of the excursion, whatever the chain had agreed before
    /// (the chord into a halt counts, but not into an excursion), starts the next link where the track came back
    /// to, and says so in the decision (``FixDecision/excursionStart``).
    ///
    /// Why: a multipath excursion jumps out and back, and two of them one good fix apart (on opposite sides), or
    /// one that lasts two fixes, lay out chords at a driving pace that keep a heading, which the chain took for
    /// travel: a fleet tester's van parked 8 h with a fix every 30 s, 5 % of them 50–300 m off, counted 1,708 m
    /// (now 151 m: a three-fix excursion is not caught, since the chain counts a chord one link after it and the
    /// total never decreases). *Twice the return zone*: with the noise alone as the bar, a walker's last chord
    /// into a halt (31 m, then 9 m of noise) was an excursion to the return zone of its start (generated city
    /// walks every 65 s lost up to 51 m in 7.7 km). *Settled, still, short*: without them two reviewers' U-turns
    /// of moving chains and deliveries out and back every 120 s read as excursions (80 depot–dead-end–depot trips
    /// lost 107.5 → 94.7 km of 164.5). The price left: a logger without usable readings (no speed column, or a
    /// column of zeros) that leaves where it stood and is back within 120 s after one or two fixes (a van round
    /// the block every 30 s: 379 of 1,160 m lost).
    @usableFromInline
    func returnsFromExcursion(
        home: SIMD2<Double>, homeAccuracy: Double, first: SIMD2<Double>, firstAccuracy: Double,
        second: SIMD2<Double>? = nil, secondAccuracy: Double = 0, east e: Double, north n: Double, accuracy: Double
    ) -> Bool {
        func distance(_ point: SIMD2<Double>) -> Double {
            let d = point - home
            return (d * d).sum().squareRoot()
        }
        // Out beyond twice the return zone of each of its points, back inside this fix's.
        return distance(first) > 2 * returnZoneMetres(homeAccuracy, firstAccuracy)
            && (second.map { distance($0) > 2 * returnZoneMetres(homeAccuracy, secondAccuracy) } ?? true)
            && distance(SIMD2(e, n)) <= returnZoneMetres(homeAccuracy, accuracy)
    }

    /// The return zone around a chain point of displacement accuracy `a` for a point of accuracy `b` (metres):
    /// ``excursionReturnNoiseFactor`` × the net-displacement threshold of both accuracies.
    @usableFromInline
    func returnZoneMetres(_ a: Double, _ b: Double) -> Double {
        Self.excursionReturnNoiseFactor * NetDisplacementGate.threshold(meanAccuracy: a + b, profile: profile)
    }

    /// The longest excursion, from the fix it left to the fix back, that
    /// ``returnsFromExcursion(home:homeAccuracy:first:firstAccuracy:second:secondAccuracy:east:north:accuracy:)``
    /// judges (seconds): 120. A multipath excursion is one or two fixes whatever the logger's rhythm (at 30 s: 60
    /// or 90 s); a van's trip to a neighbour and back takes its drive and its delivery, minutes (a fleet
    /// re-tester's delivery out and back every 120 s without a speed column, 700 m, read as an excursion lost its
    /// 309 m before this limit). At 60 s a two-fix excursion (180 s) is no longer caught.
    @usableFromInline static let maximumExcursionSeconds = 120.0

    /// The return zone of an excursion (``returnsFromExcursion(home:homeAccuracy:first:firstAccuracy:second:secondAccuracy:east:north:accuracy:)``)
    /// in units of the net-displacement threshold of its two ends' accuracies: 2. The threshold alone (2 m plus
    /// both accuracies, 8–12 m there) missed the fleet tester's parked van, whose fixes wander 10–15 m from each
    /// other between excursions (5 m Gauss–Markov error, τ 60 s, fixes 30–90 s apart).
    @usableFromInline static let excursionReturnNoiseFactor = 2.0

    /// One link of a chain of sparse steps (see ``beginGap(east:north:seconds:displacementAccuracy:doppler:now:)``),
    /// judged at a fix at (`east`, `north`), `dt` seconds after the chain's point at `point` (its time, displacement
    /// accuracy, whether the reading in force there excludes the movement, whether it read a Doppler speed below
    /// the deadband), with displacement accuracy `accuracy` and Doppler speed `doppler`: counts the *first* chord,
    /// from the gap's origin (``gapOrigin`` and the fields after it) to the point, when the *second*, from the point
    /// to this fix, agrees with it, or when the first agreed with the chord before it (``chainCertified``). Records
    /// this fix's vehicle evidence first (``recordVehicleEvidence(at:doppler:)``). Returns (the metres added, the
    /// second chord's pace when it agrees with the first, else 0). A chord is *excluded* when the reading in force at
    /// either of its ends excludes the movement (``readingExcludes(at:)``: each fix's own reading, kept with it,
    /// since a reading 30–120 s old has expired by the next fix), and *still* when both its ends read a Doppler
    /// speed below the deadband.
    ///
    /// A chord counts only if it is longer than the net-displacement threshold of its ends' accuracies, its pace
    /// is between the deadband and what the traveller sustains, its silence is at most
    /// ``TrackingProfile/maximumBridgedGapSeconds`` (plus a window for the first), it is not excluded, the chain's
    /// vehicle latch (``recordVehicleEvidence(at:doppler:)``; the dense path's latch, if on, becomes it) does not
    /// hold it,
    /// and if still, its pace is at least ``stillChordSpeedLimit``. The second agrees when it passes the same tests and does not head back along
    /// the first (a non-negative dot product: a turn of up to 90°, as at a street corner). Why: a still receiver's
    /// chords are within its noise, and the one in 25–50 that is not (white noise) is followed by one that is or
    /// that heads back (two in a row that pass by chance and keep a heading: about one in a thousand); a multipath
    /// excursion jumps out and stays (the next chord is noise) or jumps straight back; a moving logger's chords
    /// exceed the noise and keep going. Agreeing with the chord before is enough, so the chord into a halt counts
    /// (the next one is noise). No pace ratio between the two: on generated city drives logged every 25–60 s
    /// (lights, turns, stops) a ratio of 3 counted 2–22 % less, and no still logger counted less with it.
    @usableFromInline
    mutating func linkChain(
        point: SIMD2<Double>, pointMilliseconds: Int64, pointAccuracy: Double, pointIsExcluded: Bool,
        pointIsStill: Bool, east e: Double, north n: Double, seconds dt: Double, accuracy: Double, doppler: Double?,
        now: Int64
    ) -> (added: Double, secondSpeed: Double) {
        recordVehicleEvidence(at: now, doppler: doppler)
        let first = point - gapOrigin, second = SIMD2(e, n) - point
        let firstSeconds = Double(pointMilliseconds &- gapOriginMilliseconds) / 1000, secondSeconds = dt
        let firstAccuracy = gapOriginAccuracy + pointAccuracy, secondAccuracy = pointAccuracy + accuracy
        let firstIsExcluded = gapOriginIsExcluded || pointIsExcluded
        let secondIsExcluded = pointIsExcluded || readingExcludes(at: now)
        let firstIsStill = gapOriginIsStill && pointIsStill
        let secondIsStill = pointIsStill && doppler.map { $0 < profile.deadbandMetresPerSecond } == true
        // A chain cannot see the slow spell that releases the dense path's latch (every fix is an anchor, and every
        // reset gap restarts the spell): the latch becomes the chain's own, from the last fix it held.
        if isInVehicle {
            chainVehicleMilliseconds = max(chainVehicleMilliseconds, lastAcceptedMilliseconds)
            endVehicleLatch()
        }
        // The chain's vehicle latch: a chord that starts within the exit time of vehicle evidence (and ends at or
        // after it) is the vehicle's. (In seconds, as a Double: an exit time of ∞ holds for ever, a negative one
        // never, NaN never.)
        let exit = max(profile.vehicleExitSeconds, 0)
        let hasEvidence = chainVehicleMilliseconds != .min
        let firstIsLatched =
            hasEvidence && pointMilliseconds >= chainVehicleMilliseconds
            && Double(gapOriginMilliseconds &- chainVehicleMilliseconds) / 1000 < exit
        let secondIsLatched =
            hasEvidence && now >= chainVehicleMilliseconds
            && Double(pointMilliseconds &- chainVehicleMilliseconds) / 1000 < exit
        let firstLength = (first * first).sum().squareRoot(), secondLength = (second * second).sum().squareRoot()
        let firstSpeed = firstLength / firstSeconds, secondSpeed = secondLength / secondSeconds
        let fastest = profile.fastestSustainedSpeedMetresPerSecond
        let slowest = profile.deadbandMetresPerSecond
        let stillLimit = Self.stillChordSpeedLimit
        guard !firstIsExcluded, !firstIsLatched, !(firstIsStill && firstSpeed < stillLimit),
            firstSeconds <= profile.maximumBridgedGapSeconds + profile.windowSeconds, firstSpeed >= slowest,
            firstSpeed <= fastest,
            firstLength > NetDisplacementGate.threshold(meanAccuracy: firstAccuracy, profile: profile)
        else { return (0, 0) }
        let agrees =
            !secondIsExcluded && !secondIsLatched && !(secondIsStill && secondSpeed < stillLimit)
            && secondSeconds <= profile.maximumBridgedGapSeconds && secondSpeed >= slowest
            && secondSpeed <= fastest
            && secondLength > NetDisplacementGate.threshold(meanAccuracy: secondAccuracy, profile: profile)
            && (first * second).sum() >= 0
        guard agrees || chainCertified else { return (0, 0) }
        return (accumulator.add(doppler: 0, filtered: firstLength), agrees ? secondSpeed : 0)
    }

    /// The pace (m/s) below which a chain's chord between two fixes that both read a Doppler speed below the
    /// deadband is no movement (``linkChain(point:pointMilliseconds:pointAccuracy:pointIsExcluded:pointIsStill:east:north:seconds:accuracy:doppler:now:)``):
    /// 2 m/s. A parked receiver reading 0 while its position wanders (a reviewer's parked car logging every 30 s
    /// whose fixes drift 20 m a step: 0.7 m/s; multipath jumps of 30–60 m at 30 s, 1–2 m/s) stays below it; a car
    /// stopped at a light at both ends of a 60 s chord covered it faster (generated city drives with speed every
    /// 60 s: 11,337 m counted with no limit, 13,376 m at 2 m/s, of 15,384; parked cases 0 m either way).
    @usableFromInline static let stillChordSpeedLimit = 2.0

    /// The reading (m/s) at both ends of a slow sparse step whose chord lies within the fixes' noise from which
    /// the readings still describe the step (``readingsDescribe(_:_:integral:east:north:chord:course:)``, in
    /// ``sparseStepEstimate(east:north:seconds:doppler:course:accuracy:now:)``): 1 m/s, a slow walker's pace. A
    /// parked receiver's Doppler jitter reads 0.3–0.6 m/s, and its chord, noise, does not follow its readings.
    /// Measured (`tools/analysis/sparse_chain_cases.py OUT --rhythm --claim 8`, and `--no-accuracy`: the walks
    /// with readings): a walker at 1.4 m/s every 12 / 15 s claiming 8 m counted −47.2 / −18.0 % (now
    /// −9.4 / −7.7 %); without accuracies every 12 / 15 / 20 / 30 s −99.8 / −99.8 / −99.7 / −49.1 % (now −14.9 /
    /// −13.7 / −12.8 / −9.8 %). The price, still receivers every 12–15 s whose readings jitter (half-normal,
    /// σ 0.6 / 1.0 m/s, no course) at both ends: +3 … +30 / up to +156 m per 2 h (with half the integral as the
    /// chord's test: up to +411 m); a reviewer's still receivers reading 1–1.8 m/s at every fix under 6 m of
    /// white noise, every 12 s: 428 → 2,106 m per 2 h (3,646 without the course test; many such files count
    /// 3–5 km before either).
    @usableFromInline static let paceReadingMetresPerSecond = 1.0

    /// The least share of their speed integral a slow sparse step's chord must cover for readings at a walker's
    /// pace to describe it (``readingsDescribe(_:_:integral:east:north:chord:course:)``): ¾. A walker's chord
    /// covers nearly all of it on a straight step and most of it round a corner; a still receiver's chord is
    /// noise, whatever its readings. Measured against ½ (see ``paceReadingMetresPerSecond``): ½ counted the
    /// walkers within 0.4 % but let jittering still receivers add up to +411 m per 2 h, ¾ up to +156 m.
    @usableFromInline static let paceChordShare = 0.75
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif
