/// A run of fixes whose Doppler readings say "still" while the filtered track travels: the evidence that a speed
/// column is a placeholder (a logger writing 0 on every fix) rather than a measurement.
///
/// ## Why
/// With readings over half the trailing window, their mean decides whether the receiver moves: a consistent
/// receiver's zeros mean a halt, and a parked van's multipath excursions are held back by them. A column of zeros
/// under a moving track then counted nothing: a reviewer's 7.2 km drive at 12 m/s, every reading 0, read 0 m
/// (the window's net displacement 120 m against a 7 m threshold).
///
/// Net displacement alone is no proof: a parked tracker's multipath jumps (150–500 m every 15 s, accepted by a
/// filter whose prediction after 15 s allows them) pass any displacement test, and two earlier versions that
/// trusted the displacement against the readings added 29 and 128 phantom trips to the fleet evaluation. What a
/// jump does not give is **steady progress**: a drive keeps going, fix after fix, in a straight enough line; a
/// jump goes out and comes back. So the readings are overruled only after a run of accepted fixes, with no outlier
/// rejected between them, spanning ``minimumWindowSpans`` window spans, every one of them with the window's readings
/// still and its net displacement above ``netThresholds`` thresholds, whose latest ``minimumSamples`` samples
/// (``sampleSpacingWindowShare``) are straight (``minimumStraightness``) and even (``maximumStepShare``), and whose
/// chord is at least ``chordThresholds`` thresholds long. An anchor (a re-anchor after a rejection streak, a gap)
/// ends the run.
///
/// Once a run has overruled the readings, the recording's sub-deadband readings stand for no reading in the
/// prediction's σₐ and the white-noise estimate (the tracker's `positionOnlyBelowMetresPerSecond`): a placeholder
/// column is one everywhere, and a receiver without readings predicts with the position-only σₐ, which rejects
/// the multipath jumps the Doppler σₐ accepts. And every sub-deadband reading the tracker counted as moving from
/// then on leaves the session's Doppler evidence again, so that true readings later in the session are judged on
/// their own.
///
/// Once overruled, the run's distance since the window that began it is released, and the readings stay
/// overruled while the run lasts (they leave the trailing window, and the net displacement decides, as for a
/// receiver without readings): the first fix whose window is back under the displacement test (a halt) ends it,
/// and the readings are believed again. The tracker judges the run only during a run of sub-deadband readings,
/// inside its existing out-of-line dropout bound: readings it does not trust (a column of zeros from the start, a
/// Samsung's dropouts), and readings the Doppler check trusts (a consistent receiver's column that dies partway:
/// ``Tracker``'s `judgeTrustedStillReadings`). See docs/ARCHITECTURE.md, "A speed column of zeros under a moving
/// track".
@usableFromInline
struct ContradictedReadings: Sendable, BitwiseCopyable {
    /// Net displacement over the window, in net-displacement thresholds, that a fix of the run must show: 4.
    /// A parked receiver's correlated error stays within one threshold per window (the net-displacement gate's
    /// design, ``NetDisplacementGate``); a drive at 12 m/s under 5 m fixes moves 17 thresholds per 10 s window, a walker at
    /// 1.4 m/s under 3 m fixes about 5.6 per 20 s window (counted), under 8 m fixes about 2.8 (not: a tester's
    /// walking couriers under zeros read 0 m). 2 thresholds, tried, covered part of those walks but let a parked
    /// receiver's reflection drifting steadily at 3 m/s count 5.4 km per hour.
    @usableFromInline static let netThresholds = 4.0
    /// The run's samples: its positions at least a quarter of a window span apart (2.5 s driving, 5 s walking;
    /// every fix of a sparser track), so that the run is judged over about the same time whatever the cadence
    /// (five steps at 1 Hz under a walker's noise were wiggles).
    @usableFromInline static let sampleSpacingWindowShare = 0.25
    /// Samples the run must hold before it overrules the readings, and over which its latest steps are judged:
    /// 5 (four steps; a jump and its return are two).
    @usableFromInline static let minimumSamples = 5
    /// Window spans the run must cover: 2 (20 s on the driving profile).
    @usableFromInline static let minimumWindowSpans: Int64 = 2
    /// The chord over the filtered path of the run's latest samples: at least 0.7 (a jump out and back reads near
    /// 0; a drive between two turns near 1; five equal steps in random directions about √5/5 ≈ 0.45 on average). Over the latest ones,
    /// not the whole run: a long run on a winding road reads 0.3–0.7 from its start (a tester's rural trip at 10 s
    /// was never overruled).
    @usableFromInline static let minimumStraightness = 0.7
    /// The longest step between the latest samples over their chord: at most 0.5. A drive moves about evenly, so
    /// each of four steps is about a quarter of the chord; a jump to a reflection that drifts, and back, makes its
    /// chord of the two jumps (a tester's parked receiver at 10 s: 487 m out, three steps of 36–96 m, 436 m back,
    /// straight enough, counted 1,649 m).
    @usableFromInline static let maximumStepShare = 0.5
    /// The run's chord, in net-displacement thresholds: at least 12.
    @usableFromInline static let chordThresholds = 12.0

    /// The filtered position where the run began (metres, local frame).
    @usableFromInline var start = SIMD2<Double>(0, 0)
    /// The filtered position at the run's last fix.
    @usableFromInline var last = SIMD2<Double>(0, 0)
    /// The filtered path along the run (metres).
    @usableFromInline var pathMetres = 0.0
    /// When the run began, its last fix and its last sample (ms since 1970).
    @usableFromInline var startMilliseconds: Int64 = 0, lastMilliseconds: Int64 = .min
    @usableFromInline var lastSampleMilliseconds: Int64 = 0
    /// The run's fixes (0: no run) and samples (the first fix is sample 0).
    @usableFromInline var fixes = 0, samples = 0
    /// The run's latest ``minimumSamples`` samples: filtered position and the path up to it (east, north, path;
    /// metres), sample `i` in slot `i % minimumSamples`.
    @usableFromInline var recent = InlineArray<5, SIMD3<Double>>(repeating: .zero)
    /// The window's start candidates (Doppler, filtered) at the run's first fix: what the release counts from.
    @usableFromInline var startCandidates = SIMD2<Double>(0, 0)
    /// The position filter's path (metres) at the window's start at the run's first fix: what a release of
    /// trusted readings counts from (``Tracker``'s `judgeTrustedStillReadings(isMoving:netMetres:thresholdMetres:)`;
    /// a window sample an earlier run lowered only makes that release smaller, never larger).
    @usableFromInline var startPositionPathMetres = 0.0
    /// Whether the run has overruled the readings.
    @usableFromInline var isOverruling = false

    @usableFromInline init() {}

    /// Ends the run (a fix that does not continue it).
    @usableFromInline
    mutating func end() {
        fixes = 0
        isOverruling = false
    }

    /// Re-expresses the run's positions through `transform` (used when the tracker's local plane is re-centred).
    @usableFromInline
    mutating func transformPositions(_ transform: (Double, Double) -> (Double, Double)) {
        func converted(_ p: SIMD2<Double>) -> SIMD2<Double> {
            let (east, north) = transform(p.x, p.y)
            return SIMD2(east, north)
        }
        start = converted(start)
        last = converted(last)
        for i in recent.indices {
            let p = converted(SIMD2(recent[i].x, recent[i].y))
            recent[i] = SIMD3(p.x, p.y, recent[i].z)
        }
    }

    /// Adds a fix whose window reads still and travelled more than ``netThresholds`` thresholds; returns whether
    /// the readings are overruled now. A run continues only when its last fix is at most a sample spacing before
    /// the tracker's last accepted fix before this one (`previousAcceptedMilliseconds`; an anchor resets the run
    /// itself) and no outlier was rejected since (`lastRejectedMilliseconds`, the tracker's last: a drive under
    /// zeros is accepted fix after fix, while a parked receiver's jumps at 5 s were rejected between the fixes of a
    /// run that went out and came back, and counted 1.6 km for one excursion). Once the run overrules, a rejection
    /// no longer ends it: a drive's multipath jump is rejected between its fixes too, and at 1 Hz each one gave up
    /// the window the restarted run held (a reviewer's drive with 5 % of its fixes 100–300 m off: −11 … −17 %);
    /// the latest samples, judged at every sample, still end it for a jump out and back.
    @usableFromInline
    mutating func add(
        position: SIMD2<Double>, now: Int64, previousAcceptedMilliseconds: Int64, lastRejectedMilliseconds: Int64,
        thresholdMetres: Double, windowSpanMilliseconds: Int64, windowStartCandidates: SIMD2<Double>,
        windowStartPositionPath: Double
    ) -> Bool {
        // (A fix the judge did not see, one whose increment was nothing, may come between: a walker's filtered speed
        // dips under the deadband now and then, and each dip restarted the run: 135 m of a 1,680 m walk.)
        let spacing = Int64(Self.sampleSpacingWindowShare * Double(windowSpanMilliseconds))
        guard fixes > 0, previousAcceptedMilliseconds &- lastMilliseconds <= spacing,
            isOverruling || lastRejectedMilliseconds < lastMilliseconds
        else {
            self = ContradictedReadings()
            start = position
            last = position
            startMilliseconds = now
            lastMilliseconds = now
            lastSampleMilliseconds = now
            fixes = 1
            samples = 1
            startCandidates = windowStartCandidates
            startPositionPathMetres = windowStartPositionPath
            recent[0] = SIMD3(position.x, position.y, 0)
            return false
        }
        let step = position - last
        pathMetres += (step * step).sum().squareRoot()
        last = position
        lastMilliseconds = now
        fixes += 1
        guard now &- lastSampleMilliseconds >= spacing else { return isOverruling }
        lastSampleMilliseconds = now
        recent[samples % Self.minimumSamples] = SIMD3(position.x, position.y, pathMetres)
        samples += 1
        // (Judged again at every sample once overruled too: a reflection that drifted away steadily and snapped
        // back counted its return, 208 m at 41.6 m/s, when the first verdict held for the rest of the run.)
        guard samples >= Self.minimumSamples,
            now &- startMilliseconds >= Self.minimumWindowSpans * windowSpanMilliseconds
        else { return isOverruling }
        // The latest samples, oldest first.
        let first = samples - Self.minimumSamples
        let oldest = recent[first % Self.minimumSamples]
        let latest = position - SIMD2(oldest.x, oldest.y)
        let latestChord = (latest * latest).sum().squareRoot()
        var longestStep = 0.0
        for i in (first + 1)..<samples {
            let a = recent[(i - 1) % Self.minimumSamples], b = recent[i % Self.minimumSamples]
            let d = SIMD2(b.x - a.x, b.y - a.y)
            longestStep = max(longestStep, (d * d).sum())
        }
        let d = position - start
        let chord = Self.chordThresholds * thresholdMetres
        isOverruling =
            latestChord >= Self.minimumStraightness * (pathMetres - oldest.z)
            && longestStep.squareRoot() <= Self.maximumStepShare * latestChord && (d * d).sum() >= chord * chord
        return isOverruling
    }
}

extension Tracker {
    /// Which fixes of a recorded track carry speed readings that a ``Tracker`` with `profile`, fed the fixes in
    /// time order, overrules as a placeholder (sub-deadband readings, a column of zeros, under a track that keeps
    /// going: ``overruledSpeedReadingsSince``): `result[i]` is about `fixes[i]`, true for the sub-deadband readings
    /// of each overruled run from its first fix on, and for those the tracker took for a dropout of the column
    /// (``ReadingDrop``: zeros after a fall no braking makes; a drive with 20 s of every minute zeroed smoothed
    /// 34.2 km of 40.1). `nil` when there is none, the common case, found without
    /// running the tracker unless the screen passes (``mayHaveOverruledSpeedReadings(_:profile:)``).
    ///
    /// For a whole-track smoother, which would otherwise take the zeros as measurements of a standing receiver.
    /// - Complexity: O(n); the tracker's pass (about 50 ns per fix) and the result only when the check passes.
    public static func overruledSpeedReadings(in fixes: [Fix], profile: TrackingProfile) -> [Bool]? {
        guard mayHaveOverruledSpeedReadings(fixes, profile: profile) else { return nil }
        // In time order (stable), as the smoother takes them: fed in a file's reversed order the tracker rejected
        // all but one fix as out of order and overruled nothing (a reviewer's reversed drive smoothed to 0 m).
        let order = fixes.indicesInTimeOrder(by: \.timestamp)
        var tracker = Tracker(profile: profile)
        var overruled = [Bool](repeating: false, count: fixes.count)
        var visitedThrough = -1  // positions in `order` the marking has passed already
        // Fixes marked while an overrule is provisional (`isOverrulingProvisionally`): unmarked when the tracker
        // withdraws it (a reflection that drifted and came back, whose readings were right).
        var held: [Int] = []
        for (k, i) in order.enumerated() {
            let withdrawn = tracker.withdrawnOverrules
            _ = tracker.process(fixes[i])
            // A reading the tracker took for a dropout of the column (``ReadingDrop``): no measurement either.
            if let speed = fixes[i].speedMetresPerSecond, speed < profile.deadbandMetresPerSecond,
                tracker.droppedOutSinceMilliseconds != .min
            {
                overruled[i] = true
            }
            if tracker.withdrawnOverrules != withdrawn { unmark(held, in: &overruled) }
            if !tracker.isOverrulingProvisionally { held.removeAll() }
            guard let since = tracker.overruledSpeedReadingsSince else { continue }
            // The run's fixes from its first one on, back from this one: only those reading under the deadband (a
            // fix between with a real reading keeps it).
            var j = k
            while j > visitedThrough, fixes[order[j]].timestamp >= since {
                if let speed = fixes[order[j]].speedMetresPerSecond, speed < profile.deadbandMetresPerSecond {
                    overruled[order[j]] = true
                    if tracker.isOverrulingProvisionally { held.append(order[j]) }
                }
                j -= 1
            }
            visitedThrough = k
        }
        // (The end of the track settles a provisional overrule as the forward filter's total does.)
        let withdrawn = tracker.withdrawnOverrules
        _ = tracker.finishTrack()
        if tracker.withdrawnOverrules != withdrawn { unmark(held, in: &overruled) }
        return overruled.contains(true) ? overruled : nil
    }

    /// Clears the marks of `fixes` (indices into `overruled`).
    private static func unmark(_ fixes: [Int], in overruled: inout [Bool]) {
        for j in fixes { overruled[j] = false }
    }

    /// The screen of ``overruledSpeedReadings(in:profile:)``: within a run of consecutive sub-deadband readings,
    /// the mean position of its latest ``ContradictedReadings/minimumSamples`` fixes lies farther from that of its
    /// first ones than ``ContradictedReadings/chordThresholds`` net-displacement thresholds at the latest fix's
    /// accuracy. (Means, so that a multipath jump of a fix or two among a halt's fixes does not run the tracker
    /// over a whole drive: it did on the `smooth` benchmark, +1,100 instructions per fix.)
    static func mayHaveOverruledSpeedReadings(_ fixes: [Fix], profile: TrackingProfile) -> Bool {
        let k = ContradictedReadings.minimumSamples
        var recent = [SIMD2<Double>](repeating: .zero, count: k)
        var runLength = 0
        var frame = LocalFrame.tracking(anchor: (0, 0))
        var first = SIMD2<Double>.zero, latest = SIMD2<Double>.zero
        for fix in fixes {
            guard let speed = fix.speedMetresPerSecond, speed < profile.deadbandMetresPerSecond else {
                runLength = 0
                continue
            }
            if runLength == 0 {
                frame = LocalFrame.tracking(anchor: (fix.latitude, fix.longitude))
                first = .zero
                latest = .zero
            }
            let (east, north) = frame.project(latitude: fix.latitude, longitude: fix.longitude)
            let p = SIMD2(east, north)
            if runLength < k {
                first += p
            } else {
                latest -= recent[runLength % k]
            }
            latest += p
            recent[runLength % k] = p
            runLength += 1
            guard runLength >= 2 * k else { continue }
            let d = (latest - first) / Double(k)
            let accuracy = fix.horizontalAccuracyMetres ?? profile.assumedDisplacementAccuracyMetres
            let chord =
                ContradictedReadings.chordThresholds
                * NetDisplacementGate.threshold(meanAccuracy: accuracy, profile: profile)
            if (d * d).sum() > chord * chord { return true }
        }
        return false
    }
}
