import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Smooths a whole recorded track at once: every position uses the fixes before and after it, multipath
/// jumps lose their pull, and the distance comes with a 1σ uncertainty.
///
/// ## Model
/// The forward filter's constant-velocity model (``ConstantVelocityFilter``) in a local east/north plane
/// (``LocalFrame``, anchored at the first used fix; a track that leaves where that frame is accurate — beyond
/// 50 km, or about a pole — is smoothed in pieces, each in the ``LocalFrame`` at its first fix, or within 10° of a
/// pole in the plane tangent to the ellipsoid there, joined at seams like gaps without time: see
/// `smoothInPieces`): one state (east, north, v_east, v_north) per distinct
/// fix time; white acceleration of spectral density σₐ² (the profile's ``TrackingProfile/accelerationSigma``);
/// each fix's position with per-axis σ = accuracy / 1.50959 (``MeasurementNoise``); its Doppler speed and
/// course, where present, as a velocity with the forward filter's variance; a small speed without course as
/// a zero velocity; a larger speed without course (GPX bike computers and loggers, many CSV exports) as a
/// velocity of that speed along the smoothed track's own direction, with the variance a course of the
/// profile's ``TrackingProfile/assumedCourseAccuracyDegrees`` would give — re-aimed after every solve, and
/// only where the track already moves at half that speed or more (a still receiver's speed spikes have no
/// direction to lie along). A step longer than ``SmoothingOptions/gapSeconds`` splits the track into
/// independent segments.
///
/// ## Solution
/// The maximum a-posteriori track minimises one weighted least-squares cost over all states. Its normal
/// equations are a symmetric positive-definite band matrix (3 super-diagonals, the same for east and north)
/// factored by a banded Cholesky and solved for both axes at once — LAPACK `dpbtrf`/`dpbtrs`'s arithmetic
/// written out for the band's width (the LAPACK routines are the tests' reference): linear time and memory. With
/// all weights 1 the answer is exactly the Rauch–Tung–Striebel smoother's (tested to 10⁻⁶ m).
/// Iteratively reweighted least squares then applies the ``RobustLoss`` to each fix's normalised
/// residual (positions and velocities alike), starting from weights that check each fix against its
/// neighbours (``SmoothingOptions/warmStart``), until at most ``SmoothingOptions/unsettledFraction`` of the
/// weights (none on a track of fewer than 1000 measurements) moved by more than
/// ``SmoothingOptions/weightTolerance`` — counting as moved, too, each speed without a course whose direction
/// (re-aimed after every solve) moved by more than a tenth of its σ; such speeds make even the quadratic loss
/// iterate. The band and right-hand sides are allocated once; each iteration rewrites them, factors and
/// substitutes both axes in one pass.
///
/// ## Noise
/// The accuracies are taken as reported (times ``SmoothingOptions/accuracyScale``) and σₐ from the profile,
/// unless ``SmoothingOptions/estimatesNoise`` asks for both (and a Doppler scale) to be estimated from the
/// track by expectation–maximisation (``NoiseEstimate``; the result's ``SmoothedTrack/noise``). Measured on the
/// recordings (`truetrack bench`): phone fixes' errors are mostly a slowly varying bias (lag-1 correlation
/// 0.84–0.99 on the GSDC drives), which the white-noise model reads as motion, so the estimated accuracy scale
/// slides towards the white part of the error (0.05–0.2) and often onto its safety rail; it is therefore off
/// by default.
///
/// ## Distance
/// The length on the WGS-84 ellipsoid of the smoothed positions, measured on one more solve with the fixes' accuracy
/// scaled to their epoch-to-epoch scatter (the white part of their error, which alone blurs the fix-to-fix
/// shape), with a 1σ (see ``SmoothedTrack/distanceSigmaMetres``): first-order terms from the full smoothed covariance
/// (one more banded substitution), and the difference between the two solves as the model term
/// (``SmoothingOptions/checksModelDependence``). Unless the speed readings the forward filter trusts deny the second
/// solve's track (over the steps between them it is longer than their own path and farther from it than the first
/// solve's track by more than twice the path's σ: it follows the wander of a slowly varying error, see
/// ``TrustedReadingsPath``): the distance is then the first solve's length, and σ counts that track's disagreement with
/// the readings instead of the difference (``SmoothedTrack/distanceModelDifferenceIncludedMetres``,
/// ``SmoothedTrack/distanceModelSigmaMetres``, ``SmoothedTrack/speedReadingsCheck``). Steps where a window centred on
/// them is still (the forward filter's net-displacement rule, ``StillnessGate``) add nothing: a receiver at rest
/// measures no distance.
///
/// Steps that move like a vehicle (``VehicleGate``: faster over a centred window than the profile's traveller
/// sustains, or read `in vehicle`, with the slow spells of a ride) add nothing either, for the profiles with a
/// vehicle rule (walking, running; cycling's `in vehicle` readings): GeoLife's walk–taxi–bus day smoothed with
/// the walking profile measures 719.2 ± 223.2 m (the labelled walk 755.4 m; before the gate 9,767.7 ± 61,932 m).
///
/// ```swift
/// let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
/// print(track.distanceMetres, "±", track.distanceSigmaMetres)
/// ```
public struct WholeTrackSmoother: Sendable {
    /// The tuning in force.
    public var options: SmoothingOptions

    /// A smoother tuned like the forward filter for `profile` (see ``SmoothingOptions/init(profile:)``).
    public init(profile: TrackingProfile = .walking) {
        options = SmoothingOptions(profile: profile)
    }

    /// A smoother with explicit options.
    public init(options: SmoothingOptions) {
        self.options = options
    }

    /// Smooths `fixes` (any order; sorted by time here) and measures the smoothed track.
    ///
    /// Fixes whose accuracy is invalid or worse than ``SmoothingOptions/maximumAccuracyMetres`` are left out
    /// (counted in ``SmoothedTrack/excludedFixCount``); an input with no usable fix gives
    /// ``SmoothedTrack/empty``.
    ///
    /// - Complexity: O(n · iterations) time (n log n when unsorted), O(n) memory.
    public func smooth(_ fixes: [Fix]) -> SmoothedTrack {
        // Speed readings the forward tracker overrules as a placeholder are no measurements (see
        // `SmoothingOptions.speedReadingCheck`).
        var fixes = fixes
        if options.usesDoppler, let profile = options.speedReadingCheck,
            let overruled = Tracker.overruledSpeedReadings(in: fixes, profile: profile)
        {
            for i in fixes.indices where overruled[i] { fixes[i].speedMetresPerSecond = nil }
        }
        var problem = TrackProblem(fixes: fixes, options: options, givingUpOutsideLocalFrame: true)
        // A track that leaves the frame about its first fix (far from it, or about a pole) is smoothed in pieces.
        guard problem.fitsLocalFrame else { return smoothInPieces(fixes) }
        // A track that relocates (see ``TrackProblem/findRelocations(maximumSpeedMetresPerSecond:)``) is smoothed in
        // pieces cut there (``smoothInPieces(_:)`` finds them again in its one piece), the jumps counting nothing.
        guard problem.findRelocations(maximumSpeedMetresPerSecond: options.maximumSpeedMetresPerSecond).isEmpty else {
            return smoothInPieces(fixes)
        }
        return solve(problem, fixes: fixes)
    }

    /// Smooths the problem built from `fixes` (the body of ``smooth(_:)``, and of each piece of
    /// ``smoothInPieces(_:)``).
    ///
    /// - Parameter trackStates: the states of the whole track the problem is a piece of (nil: the problem's own),
    ///   which set the draws of term 6 (``noiseLengtheningDraws(stateCount:options:)``): a long track's pieces
    ///   draw as few times as the track would, their sum averaging over as many steps.
    func solve(_ problem: TrackProblem, fixes: [Fix], trackStates: Int? = nil) -> SmoothedTrack {
        var problem = problem
        guard problem.stateCount > 0 else {
            var empty = SmoothedTrack.empty
            empty.excludedFixCount = problem.excludedFixCount
            return empty
        }
        // A course column turned by a constant angle is turned back (see `SmoothingOptions.correctsCourseOffset`).
        let courseOffset = options.correctsCourseOffset ? problem.courseOffsetDegrees() : nil
        if let courseOffset { problem.turnCourses(byDegrees: -courseOffset) }
        let n = problem.stateCount
        // Speed-only measurements need a solution's direction, so they iterate whatever the loss.
        let maximumIterations =
            options.loss.isQuadratic && problem.speeds.isEmpty ? 1 : max(1, options.maximumIterations)
        var positionWeights = [Double](repeating: 1, count: problem.positionState.count)
        // Fixes of an excursion no allowed speed explains stay at the minimum weight (see
        // `WarmStart.markImpossibleExcursions`; found with the warm start, so `warmStart` false turns it off too;
        // judged once, on the stated accuracies, before any noise estimate rescales them).
        var heldAtMinimum: [Int] = []
        if options.warmStart && maximumIterations > 1 {
            (positionWeights, heldAtMinimum) = WarmStart.positionWeights(
                problem, loss: options.loss, gapSeconds: options.gapSeconds,
                maximumSpeedMetresPerSecond: options.maximumSpeedMetresPerSecond)
        }
        var velocityWeights = [Double](repeating: 1, count: problem.velocityState.count)

        var solver = options.solver
        // One band and one right-hand side for every iteration; the solution overwrites the right-hand side
        // (for the RTS reference it is copied there in the same layout).
        var system = BandedNormalEquations(stateCount: n)
        var rts: RauchTungStriebel?
        let measurementCount = problem.positionState.count + problem.velocityState.count
        var noise = NoiseEstimate(
            accuracyScale: options.accuracyScale, dopplerScale: options.dopplerScale,
            accelerationSigma: options.accelerationSigma,
            // (The σₐ a link without a reading used: σₐ itself when none did.)
            accelerationSigmaWithoutDoppler: options.accelerationSigma * problem.lowerProcessScale.squareRoot(),
            rounds: 0, isEstimated: false)
        let estimating = options.estimatesNoise && n >= NoiseEstimate.minimumStates
        var iterations = 0
        while true {
            // Robust iterations (IRLS) at the current noise parameters.
            var roundIterations = 0
            while roundIterations < maximumIterations {
                iterations += 1
                roundIterations += 1
                // The banded path reweights during its backward substitution (unless this is the last
                // iteration); the count of weights that moved is then already known.
                var fusedMoving: Int?
                if solver == .bandedCholesky {
                    if system.assembleFactorAndForwardSubstitute(
                        problem, positionWeights: positionWeights, velocityWeights: velocityWeights)
                    {
                        if roundIterations < maximumIterations {
                            fusedMoving = system.backSubstituteAndReweight(
                                problem, loss: options.loss, tolerance: options.weightTolerance,
                                positionWeights: &positionWeights, velocityWeights: &velocityWeights)
                        } else {
                            system.backSubstitute()
                        }
                    } else {
                        solver = .rauchTungStriebel
                    }
                }
                if solver == .rauchTungStriebel {
                    let r = RauchTungStriebel(
                        problem, positionWeights: positionWeights, velocityWeights: velocityWeights)
                    system.setSolution(r)
                    rts = r
                }
                guard roundIterations < maximumIterations else { break }
                var moving =
                    fusedMoving
                    ?? Self.reweight(
                        problem, loss: options.loss, solution: system.rhs, tolerance: options.weightTolerance,
                        positionWeights: &positionWeights, velocityWeights: &velocityWeights)
                // (A held fix the reweighting moved off the minimum was counted as moving: not counted, or every
                // round would run to its last iteration.)
                for m in heldAtMinimum {
                    if abs(positionWeights[m] - Self.minimumWeight) > options.weightTolerance { moving -= 1 }
                    positionWeights[m] = Self.minimumWeight
                }
                if !problem.speeds.isEmpty {
                    moving += problem.alignSpeeds(to: system.rhs, tolerance: Self.alignmentTolerance)
                }
                if Double(moving) <= options.unsettledFraction * Double(measurementCount) { break }
            }
            // Noise estimation (see ``NoiseEstimate``): one M-step per round, then the robust iterations again.
            guard estimating, solver == .bandedCholesky, noise.rounds < options.maximumEstimationRounds else { break }
            let moments = system.posteriorMoments(problem)
            var step = Self.maximisationStep(
                problem, solution: system.rhs, moments: moments, positionWeights: positionWeights,
                velocityWeights: velocityWeights)
            // Keep every factor within the safety rail relative to the given parameters.
            let range = NoiseEstimate.factorRange
            var limited = false
            func clamped(_ factor: Double, current: Double, given: Double) -> Double {
                guard factor.isFinite, factor > 0 else { return 1 }
                let wanted = current * factor.squareRoot()
                let next = min(max(wanted, given * range.lowerBound), given * range.upperBound)
                if next != wanted { limited = true }
                return (next / current) * (next / current)
            }
            step.position = clamped(step.position, current: noise.accuracyScale, given: options.accuracyScale)
            step.velocity = clamped(step.velocity, current: noise.dopplerScale, given: options.dopplerScale)
            step.process = clamped(step.process, current: noise.accelerationSigma, given: options.accelerationSigma)
            noise.isEstimated = true
            noise.isLimited = limited
            let change = max(abs(log(step.position)), abs(log(step.velocity)), abs(log(step.process)))
            if change < NoiseEstimate.convergenceLogRatio { break }
            noise.rounds += 1
            noise.accuracyScale *= step.position.squareRoot()
            noise.dopplerScale *= step.velocity.squareRoot()
            noise.accelerationSigma *= step.process.squareRoot()
            noise.accelerationSigmaWithoutDoppler *= step.process.squareRoot()
            problem.scaleVariances(position: step.position, velocity: step.velocity)
            problem.processDensity *= step.process
        }

        // The per-axis position variances, from the last factor (or the RTS covariances).
        let variances: [Double]
        if solver == .bandedCholesky {
            variances = system.positionVariances()
        } else {
            variances = rts?.pp ?? []
        }

        // The points, with the positions back to latitude/longitude (computed where they are used, here and in
        // the distance below, rather than kept in two more arrays of n).
        let order = system.order
        var points: [SmoothedPoint] = []
        points.reserveCapacity(problem.positionState.count)
        var segment = -1
        var lastState = -1
        var position = (latitude: 0.0, longitude: 0.0)
        var velocity = (east: 0.0, north: 0.0)
        for m in 0..<problem.positionState.count {
            let s = problem.positionState[m]
            if s != lastState {
                if problem.opensSegment[s] { segment += 1 }
                lastState = s
                position = problem.frame.unproject(east: system.rhs[2 * s], north: system.rhs[order + 2 * s])
                velocity = problem.frame.localVelocity(
                    east: system.rhs[2 * s + 1], north: system.rhs[order + 2 * s + 1],
                    atLatitude: position.latitude, longitude: position.longitude)
            }
            points.append(
                SmoothedPoint(
                    timestamp: fixes[problem.fixIndex[m]].timestamp, latitude: position.latitude,
                    longitude: position.longitude,
                    velocityEastMetresPerSecond: velocity.east,
                    velocityNorthMetresPerSecond: velocity.north,
                    positionSigmaMetres: max(variances[s], 0).squareRoot(), weight: positionWeights[m],
                    fixIndex: problem.fixIndex[m], segment: segment))
        }

        // The steps the distance counts, judged on the solution: not a ride's (see ``VehicleGate``), and not
        // still (see ``StillnessGate``). Both read the fixes' activity readings, on the problem's clock and
        // ascending: every fix's, also those the accuracy gate left out (the forward filter takes a rejected fix's
        // reading too).
        var readings: [TimedReading] = []
        if n > 0 {
            let origin = fixes[problem.fixIndex[0]].timestamp
            for fix in fixes {
                if let reading = fix.activity {
                    readings.append(TimedReading(seconds: origin.seconds(to: fix.timestamp), reading: reading))
                }
            }
            readings.sort { $0.seconds < $1.seconds }
        }
        // Each state's trusted speed reading (``TrustedReadingsPath/stateSpeeds(_:fixes:options:)``: a forward-filter
        // pass over the fixes), asked for by the vehicle gate at its first fast window and by the readings' path
        // below: computed once, on the first ask (`.none`: not asked yet).
        var trustedStateSpeeds: (speeds: [Double], sigmas: [Double])?? = .none
        func trustedSpeeds() -> (speeds: [Double], sigmas: [Double])? {
            if case .some(let known) = trustedStateSpeeds { return known }
            let computed = TrustedReadingsPath.stateSpeeds(problem, fixes: fixes, options: options)
            trustedStateSpeeds = .some(computed)
            return computed
        }
        let vehicleSteps: [Bool]? = options.vehicleGate.map { gate in
            gate.vehicleSteps(
                times: problem.times, opensSegment: problem.opensSegment, solution: system.rhs, order: order,
                readings: readings, positionVariances: variances, trustedSpeeds: trustedSpeeds)
        }
        var countedSteps: [Bool]?
        var jumps: JumpFinder?
        if let gate = options.stillnessGate {
            let totals = gate.totals(problem, fixes: fixes, options: options)
            jumps = gate.jumpFinder(problem, totals: totals, longestStepSeconds: options.recordingBreakSeconds)
            countedSteps = gate.countedSteps(
                times: problem.times, opensSegment: problem.opensSegment, solution: system.rhs, order: order,
                totals: totals, readings: readings, updating: &jumps,
                jitterVariances: gate.whiteJitterVariances(
                    problem, positionVariances: variances, longestStepSeconds: options.recordingBreakSeconds),
                stillByScatter: {
                    gate.stillByScatter(
                        problem, fixes: fixes, positionWeights: positionWeights, totals: totals,
                        breakSeconds: options.recordingBreakSeconds)
                })
        }
        if let vehicleSteps {
            var counted = countedSteps ?? [Bool](repeating: true, count: n)
            for s in counted.indices where vehicleSteps[s] { counted[s] = false }
            countedSteps = counted
        }
        // Stretches of the track further apart than a recording break are separate recordings
        // (``SmoothingOptions/recordingBreakSeconds``): the chord between them counts nowhere, and adds no gap term (a
        // GPS week rollover's 19.6-year gap gave σ ± 461,497,516 m, a reviewer's file).
        var separatedSteps: [Bool]?
        for s in problem.gapStates where problem.times[s] - problem.times[s - 1] > options.recordingBreakSeconds {
            if separatedSteps == nil { separatedSteps = [Bool](repeating: false, count: n) }
            separatedSteps?[s] = true
            if countedSteps == nil { countedSteps = [Bool](repeating: true, count: n) }
            countedSteps?[s] = false
        }

        // Model-error terms (see ``SmoothedTrack/distanceSigmaMetres``), while the solution is still in place.
        // Across each gap that splits the track the distance counts the chord (unless the stillness gate left it
        // out: a jump's, or one a `still` reading holds); the path travelled could be as long as the gap's duration
        // times the mean smoothed speed at its two ends, which this term adds either way.
        var gapExcess = 0.0
        system.rhs.withUnsafeBufferPointer { x in
            // The step into state k, metres east and north, its length, and the smoothed speed of state k.
            func step(_ k: Int) -> (east: Double, north: Double) {
                (x[2 * k] - x[2 * (k - 1)], x[order + 2 * k] - x[order + 2 * (k - 1)])
            }
            func chord(_ k: Int) -> Double {
                let d = step(k)
                return (d.east * d.east + d.north * d.north).squareRoot()
            }
            func smoothedSpeed(_ k: Int) -> Double {
                (x[2 * k + 1] * x[2 * k + 1] + x[order + 2 * k + 1] * x[order + 2 * k + 1]).squareRoot()
            }
            // The speeds of the chords into and out of state s (a segment of one fix): a chord the gates left out
            // (at rest, a jump's) as 0, one across a recording break or a ride's not at all; their mean, and the
            // lower of them (infinity when there is none).
            func chordSpeeds(_ s: Int) -> (mean: Double, lower: Double, count: Int) {
                var sum = 0.0, count = 0, lower = Double.infinity
                for k in s...s + 1 where k >= 1 && k < n && separatedSteps?[k] != true && vehicleSteps?[k] != true {
                    count += 1
                    let speed = countedSteps?[k] ?? true ? chord(k) / (problem.times[k] - problem.times[k - 1]) : 0
                    sum += speed
                    lower = min(lower, speed)
                }
                return (count > 0 ? sum / Double(count) : 0, lower, count)
            }
            // A lone fix's reading the smoother uses (Doppler on, not above the speed ceiling), or nil.
            func reading(atFirstFixOf s: Int) -> Double? {
                guard options.usesDoppler, let speed = Self.dopplerSpeed(atFirstFixOfState: s, problem, fixes),
                    speed <= options.maximumSpeedMetresPerSecond
                else { return nil }
                return speed
            }
            // A column of placeholder zeros under a moving logger: every lone fix between two chords of clear motion
            // reads under the still speed (at least five such fixes; an honest column reads motion at some of them,
            // while a postal van every 90 s may read 0 at most: it stands at the fix times); or a run of
            // ``placeholderRunFixes`` such fixes in a row reads so up to the column's last such fix (or from its
            // first), and then every lone fix from the run's first to its last is a placeholder: a column that dies
            // partway (a logger whose speed source fails, two devices' files joined) or starts dead, whose fixes
            // between slower chords (a detour, a halt between fixes) read 0 as well. A run between readings of motion
            // is a van that stood at those fix times.
            // (A run of every such fix is the whole column: then every lone fix is a placeholder.)
            var moving = 0
            var run: [Int] = [], placeholders: [Bool] = []
            func endRun(atEnd: Bool = false) {
                if run.count >= Self.placeholderRunFixes, atEnd || run.count == moving {
                    if placeholders.isEmpty { placeholders = [Bool](repeating: false, count: n) }
                    let wholeColumn = atEnd && run.count == moving
                    for s in wholeColumn ? 0...n - 1 : run[0]...run[run.count - 1] { placeholders[s] = true }
                }
                run.removeAll(keepingCapacity: true)
            }
            for s in problem.gapStates where s + 1 < n && problem.opensSegment[s + 1] {
                guard let reading = reading(atFirstFixOf: s) else { continue }
                let chords = chordSpeeds(s)
                guard chords.count == 2, chords.lower >= Self.clearMotionMetresPerSecond else { continue }
                moving += 1
                if reading < options.stillSpeedMetresPerSecond {
                    run.append(s)
                } else {
                    endRun()
                }
            }
            endRun(atEnd: true)
            func isPlaceholder(_ s: Int) -> Bool { !placeholders.isEmpty && placeholders[s] }
            // The angle (radians) between the chords into and out of state s, when both are counted, resolved
            // beyond the positions' noise and neither crosses a recording break or a ride; else 0.
            func turn(at s: Int) -> Double {
                guard s >= 1, s + 1 < n, variances.count == n else { return 0 }
                let k2 = CurveLength.resolvedChordFactor * CurveLength.resolvedChordFactor
                func direction(_ k: Int) -> (east: Double, north: Double)? {
                    guard separatedSteps?[k] != true, vehicleSteps?[k] != true, countedSteps?[k] ?? true else {
                        return nil
                    }
                    let d = step(k)
                    return d.east * d.east + d.north * d.north >= k2 * (variances[k] + variances[k - 1]) ? d : nil
                }
                guard let a = direction(s), let b = direction(s + 1) else { return 0 }
                return abs(atan2(a.east * b.north - a.north * b.east, a.east * b.east + a.north * b.north))
            }
            // A lone fix's speed: its reading, or the chords' mean without one (or under a placeholder column).
            func loneSpeed(_ s: Int) -> Double {
                guard let reading = reading(atFirstFixOf: s), !isPlaceholder(s) else { return chordSpeeds(s).mean }
                return reading
            }
            for s in problem.gapStates where vehicleSteps?[s] != true && separatedSteps?[s] != true {
                let length = chord(s)
                // At each edge the smoothed speed, or the receiver's own Doppler reading there when it is lower:
                // a segment's end carries the model's momentum into the gap, while a device that paused itself
                // (a bike computer's auto-pause at a café) read next to nothing as it stopped and set off. (With
                // the smoothed speeds alone a tester's 480 s café stop gave ± 620 m on a 20 km ride.)
                // A fix alone in its segment has no velocity but its reading's (without one, or with a speed alone,
                // the model leaves it at rest): its reading says how fast it went, else the chords into and out of it.
                let speedBefore =
                    problem.opensSegment[s - 1]
                    ? loneSpeed(s - 1)
                    : min(
                        smoothedSpeed(s - 1),
                        (options.usesDoppler ? Self.dopplerSpeed(atLastFixOfState: s - 1, problem, fixes) : nil)
                            ?? .infinity)
                let speedAfter =
                    s + 1 == n || problem.opensSegment[s + 1]
                    ? loneSpeed(s)
                    : min(
                        smoothedSpeed(s),
                        (options.usesDoppler ? Self.dopplerSpeed(atFirstFixOfState: s, problem, fixes) : nil)
                            ?? .infinity)
                let duration = problem.times[s] - problem.times[s - 1]
                gapExcess += max(0, duration * (speedBefore + speedAfter) / 2 - length)
                // Between two lone fixes without readings (or with placeholders) the chord cuts whatever corners the
                // vehicle turned between them, which the turns at its two ends show: half of each is taken for this
                // step's, as one corner anywhere along it (at most ``maximumCornerRadians``).
                if countedSteps?[s] ?? true, problem.opensSegment[s - 1], s + 1 == n || problem.opensSegment[s + 1],
                    isPlaceholder(s - 1) || reading(atFirstFixOf: s - 1) == nil,
                    isPlaceholder(s) || reading(atFirstFixOf: s) == nil
                {
                    let turning = (turn(at: s - 1) + turn(at: s)) / 2
                    gapExcess += length * Self.cornerExcessRatio(turning: min(turning, Self.maximumCornerRadians))
                }
            }
            // A jump read at rest that lasted longer than the gate's resting-jump time (one fix, any time) was left
            // out on readings taken at three instants: its chords out and back could be an errand's.
            if let jumps, let limit = options.stillnessGate?.restingJumpSeconds {
                for s in jumps.restJumpSteps(longerThan: limit)
                where vehicleSteps?[s] != true && separatedSteps?[s] != true {
                    gapExcess += chord(s)
                }
            }
        }
        // The model term's second reading of the fixes (see ``whiteAccuracyScale``), and the plane length of
        // the solution it is compared with.
        let whiteScale =
            options.checksModelDependence
            ? Self.whiteAccuracyScale(problem, solution: system.rhs) : nil
        let needsModelTerm = whiteScale.map(Self.modelTermIsNeeded(whiteScale:)) ?? false
        // The second reading's robust weights: a fix the first reading kept as an inlier (weight ≥
        // ``inlierWeight``) keeps its weight, so its information grows by 1 / ŝ² — the point of the reading;
        // a down-weighted one (a jump) has its weight multiplied by ŝ², so its pull stays what it was. Keeping
        // the weights alone would multiply a jump's pull by 1 / ŝ² (≈ 200 at the GSDC phones' ŝ); reweighting
        // from this solution would down-weight every fix (this smoother track's residuals are the bias, many
        // white σ), which undoes the reading. Only for ŝ < 1: a reading that finds the fixes noisier than
        // stated lowers every fix's information already. (A fix's pull changes by 1 / ŝ² where its weight
        // crosses ``inlierWeight``.)
        var whitePositionWeights = positionWeights
        if let whiteScale, needsModelTerm, whiteScale < 1 {
            let s2 = whiteScale * whiteScale
            for m in whitePositionWeights.indices where whitePositionWeights[m] < Self.inlierWeight {
                whitePositionWeights[m] *= s2
            }
        }
        // The states between which a step counts the curve of its measured velocities (see ``CurveLength``), and
        // whether the course column was rejected.
        var coursesRejected = false
        let curveSteps =
            options.countsCurveBetweenVelocityReadings
            ? Self.curveSteps(
                problem, velocityWeights: velocityWeights, solution: system.rhs, positionVariances: variances,
                rejectsCourses: &coursesRejected) : nil
        let times = problem.times
        let plane =
            needsModelTerm
            ? Self.planeLengths(
                problem, solution: system.rhs, countedSteps: countedSteps, vehicleSteps: vehicleSteps,
                separatedSteps: separatedSteps, curveSteps: curveSteps
            ) : nil
        let planeLength = plane?.counted ?? 0
        // The trusted readings' path that judges the second reading (see ``TrustedReadingsPath``), and this track's
        // length over its steps, taken before the gradient pass below writes over the solution.
        let readingsPath =
            needsModelTerm
            ? TrustedReadingsPath(problem, countedSteps: countedSteps, stateSpeeds: trustedSpeeds()) : nil
        let reportedOverReadings = readingsPath?.trackMetres(problem, solution: system.rhs, curveSteps: curveSteps)
        // Term 6, the noise's lengthening of the reported track, while its factor and solution are in place:
        // this track's, unless the white-part reading below replaces it.
        let draws =
            solver == .bandedCholesky ? Self.noiseLengtheningDraws(stateCount: trackStates ?? n, options: options) : 0
        var lengthening =
            needsModelTerm
            ? 0
            : system.noiseLengthening(
                problem, solution: system.rhs, positionWeights: positionWeights, velocityWeights: velocityWeights,
                countedSteps: countedSteps, draws: draws)
        // The process-noise sensitivity needs A_proc x (banded path).
        var processTimesSolution: [Double] = []
        if solver == .bandedCholesky { system.processTimesSolution(problem, into: &processTimesSolution) }

        // The sum of the steps on the ellipsoid, and in the same pass the length's gradient with respect to every
        // position, written over the solution (g at the position rows, 0 at the velocity rows): gₛ is the
        // unit vector of the step into state s minus that of the step out of it.
        var distance = 0.0, stillLength = 0.0, vehicleLength = 0.0
        // The reported track's curve: already summed by `planeLengths` when the model term needs it.
        var curveExcess = plane?.curve ?? 0
        let stepCurves = plane == nil ? curveSteps : nil
        var stillChords = StillRunChords()
        // Term 8, on the solution before the pass below writes the gradient over it.
        let modelCurve = Self.modelCurveMetres(
            problem, solution: system.rhs, countedSteps: countedSteps, curveSteps: curveSteps,
            coursesRejected: coursesRejected)
        // (Loaded once: the global's coefficient arrays, retained and released at every step, cost 110
        // instructions per fix of the `smooth` benchmark.)
        let geodesic = Geodesic.wgs84
        system.rhs.withUnsafeMutableBufferPointer { x in
            var eastBefore = x[0], northBefore = x[order]
            var unitEastBefore = 0.0, unitNorthBefore = 0.0
            var before = problem.frame.unproject(east: eastBefore, north: northBefore)
            for s in 1..<max(n, 1) {
                let e = x[2 * s], no = x[order + 2 * s]
                let de = e - eastBefore, dn = no - northBefore
                // Unprojected before the gradient below overwrites the previous state's entries.
                let here = problem.frame.unproject(east: e, north: no)
                // On the WGS-84 ellipsoid (a long step, or one near a pole, along the geodesic): the haversine's
                // one mean radius read a straight drive north–south at the equator 0.57 % long and east–west at
                // 60° 0.36 % short, 10–55σ (a geography tester's).
                let step = geodesic.stepLengthMetres(from: before, to: here)
                // A step the stillness gate leaves out adds nothing, and nothing to the gradient.
                let counted = countedSteps?[s] ?? true
                let separated = separatedSteps?[s] == true
                stillChords.step(
                    isStill: !counted && vehicleSteps?[s] != true && !separated, fromEast: eastBefore,
                    fromNorth: northBefore, toEast: e, toNorth: no)
                let length = counted ? (de * de + dn * dn).squareRoot() : 0
                if counted {
                    distance += step
                    if let stepCurves, stepCurves[s] {
                        curveExcess += CurveLength.excessMetres(
                            east: de, north: dn, chord: length,
                            before: (x[2 * s - 1], x[order + 2 * s - 1]), after: (x[2 * s + 1], x[order + 2 * s + 1]),
                            seconds: times[s] - times[s - 1])
                    }
                } else if vehicleSteps?[s] == true {
                    vehicleLength += step
                } else if !separated {
                    stillLength += step
                }
                before = here
                let ue = length > 0 ? de / length : 0, un = length > 0 ? dn / length : 0
                x[2 * (s - 1)] = unitEastBefore - ue
                x[order + 2 * (s - 1)] = unitNorthBefore - un
                x[2 * (s - 1) + 1] = 0
                x[order + 2 * (s - 1) + 1] = 0
                eastBefore = e
                northBefore = no
                unitEastBefore = ue
                unitNorthBefore = un
            }
            x[2 * (n - 1)] = unitEastBefore
            x[order + 2 * (n - 1)] = unitNorthBefore
            x[2 * (n - 1) + 1] = 0
            x[order + 2 * (n - 1) + 1] = 0
        }

        // Var(D) = gᵀ Σ g (white noise), and dD / d ln q = gᵀ A⁻¹ A_proc x (the process density's pull).
        let distanceVariance: Double
        let sensitivity: Double
        if solver == .bandedCholesky {
            let forms = system.quadraticForms(with: &processTimesSolution)
            distanceVariance = forms.gg
            sensitivity = forms.gh
        } else {
            var gEast = [Double](repeating: 0, count: n), gNorth = gEast
            for s in 0..<n {
                gEast[s] = system.rhs[2 * s]
                gNorth[s] = system.rhs[order + 2 * s]
            }
            let r =
                rts ?? RauchTungStriebel(problem, positionWeights: positionWeights, velocityWeights: velocityWeights)
            distanceVariance = r.quadraticForm(gEast: gEast, gNorth: gNorth)
            // The same derivative by a central difference of the RTS solution in ln q (fixed weights).
            let step = 0.01
            var up = problem, down = problem
            up.processDensity *= exp(step)
            down.processDensity *= exp(-step)
            let a = RauchTungStriebel(up, positionWeights: positionWeights, velocityWeights: velocityWeights)
            let b = RauchTungStriebel(down, positionWeights: positionWeights, velocityWeights: velocityWeights)
            var total = 0.0
            for s in 0..<n {
                total += gEast[s] * (a.east[s] - b.east[s]) + gNorth[s] * (a.north[s] - b.north[s])
            }
            sensitivity = total / (2 * step)
        }
        processTimesSolution = []

        // Term 4: the same track with the fixes' white part as their accuracy, at the weights set above —
        // only when that reading lies outside term 2's 1σ range (see ``modelTermIsNeeded(whiteScale:)``).
        var modelDifference = 0.0
        // The comparison with the trusted readings' path, which decides whether the distance takes the white-part
        // track's length (``SmoothedTrack/distanceModelDifferenceIncludedMetres``) and what term 4 counts in σ.
        var speedReadingsCheck: SmoothedTrack.SpeedReadingsCheck?
        var whiteLeftOut: (still: Double, vehicle: Double, stillChords: Double)?
        var whiteCurveExcess: Double?
        if let whiteScale, needsModelTerm {
            problem.scaleVariances(position: whiteScale * whiteScale, velocity: 1)
            // Speed-only measurements take the white track's own direction, solve after solve as in the robust
            // iterations (kept at the first track's, the white track was not at its own answer: a reviewer
            // measured the tester's walks 8.2 % mean |error| with 3 of 10 within 2σ that way, 11.4 % and 8 of 10
            // re-aimed).
            var solved = false
            for round in 1...maximumIterations {
                if solver == .bandedCholesky {
                    solved = system.assembleFactorAndForwardSubstitute(
                        problem, positionWeights: whitePositionWeights, velocityWeights: velocityWeights)
                    guard solved else { break }
                    system.backSubstitute()
                } else {
                    let r = RauchTungStriebel(
                        problem, positionWeights: whitePositionWeights, velocityWeights: velocityWeights)
                    system.setSolution(r)
                    solved = true
                }
                guard !problem.speeds.isEmpty, round < maximumIterations else { break }
                let moving = problem.alignSpeeds(to: system.rhs, tolerance: Self.alignmentTolerance)
                if Double(moving) <= options.unsettledFraction * Double(measurementCount) { break }
            }
            if solved {
                let white = Self.planeLengths(
                    problem, solution: system.rhs, countedSteps: countedSteps, vehicleSteps: vehicleSteps,
                    separatedSteps: separatedSteps, curveSteps: curveSteps)
                // The two lengths are the plane's; `distance` is the sphere's. The straight lines' ratio carries
                // the difference of the straight parts over (near a pole, or thousands of kilometres from the
                // plane's origin, the plane stretches lengths, and their plain difference exceeded the distance
                // itself: a fuzzer's cycling track at 89.99° N read −3.9 km, a drive with 55 h gaps −20,792 km);
                // the curves' difference is added as it is (the distance counts the curves in the plane too).
                let planeCurve = plane?.curve ?? 0
                let planeStraight = planeLength - planeCurve, whiteStraight = white.counted - white.curve
                modelDifference =
                    (planeStraight > 0
                        ? distance * (whiteStraight / planeStraight - 1) : whiteStraight - planeStraight)
                    + white.curve - planeCurve
                if let readingsPath, let reportedOverReadings {
                    // (The plane lengths brought to the ground as term 4's: near a pole, or far from the plane's
                    // origin, the plane stretches them by up to 1 %, against a path whose σ is 0.1–2 % of it.)
                    let ground = planeStraight > 0 ? distance / planeStraight : 1
                    speedReadingsCheck = SmoothedTrack.SpeedReadingsCheck(
                        readingsMetres: readingsPath.readingsMetres,
                        readingsSigmaMetres: readingsPath.readingsSigmaMetres,
                        reportedTrackMetres: ground * reportedOverReadings,
                        whitePartTrackMetres: ground
                            * readingsPath.trackMetres(problem, solution: system.rhs, curveSteps: curveSteps))
                }
                // Term 6 is this reading's either way: its draws are of the white part of the error, the part
                // that lengthens a track (the reported track's own draws, of the whole stated accuracy as white
                // noise, raised the GSDC Pixel 4's σ from 7.1 to 67.8 m: its error is mostly bias).
                lengthening = system.noiseLengthening(
                    problem, solution: system.rhs, positionWeights: whitePositionWeights,
                    velocityWeights: velocityWeights, countedSteps: countedSteps, draws: draws)
                if speedReadingsCheck?.deniesWhitePart != true {
                    whiteCurveExcess = white.curve
                    whiteLeftOut = (white.left, white.vehicle, white.leftChords)
                }
            }
            if !modelDifference.isFinite {
                modelDifference = 0
                speedReadingsCheck = nil
                whiteLeftOut = nil
                whiteCurveExcess = nil
            }
        }
        // The length left out of the reported distance: of the white-part track when the distance is its length.
        var stillChord = stillChords.total
        if let whiteLeftOut, whiteLeftOut.still.isFinite, whiteLeftOut.vehicle.isFinite,
            whiteLeftOut.stillChords.isFinite
        {
            (stillLength, vehicleLength, stillChord) = whiteLeftOut
        }

        // A denied difference stays out of the distance and counts in σ as the reported track's disagreement with
        // the readings.
        let denied = speedReadingsCheck?.deniesWhitePart == true
        let modelSigma = denied ? speedReadingsCheck?.modelSigmaMetres(modelDifferenceMetres: modelDifference) : nil
        let noiseSigma = max(distanceVariance, 0).squareRoot()
        if !lengthening.isFinite { lengthening = 0 }
        var result = SmoothedTrack(
            points: points,
            distanceMetres: max(distance + curveExcess + (denied ? 0 : modelDifference), 0),
            distanceSigmaMetres: 0,
            iterations: iterations, segmentCount: segment + 1, excludedFixCount: problem.excludedFixCount,
            solver: solver)
        result.setDistanceTerms(
            noiseSigma: noiseSigma, processSensitivity: sensitivity, gapExcess: gapExcess,
            modelDifference: modelDifference, modelSigma: modelSigma.flatMap { $0.isFinite ? $0 : nil },
            stillChord: stillChord, lengthening: lengthening,
            curve: whiteCurveExcess ?? curveExcess, modelCurve: modelCurve)
        result.stillLengthMetres = stillLength
        result.vehicleLengthMetres = vehicleLength
        result.courseOffsetDegrees = courseOffset ?? 0
        result.whiteAccuracyScale = whiteScale ?? 1
        result.distanceModelDifferenceIncludedMetres = denied ? 0 : modelDifference
        result.speedReadingsCheck = speedReadingsCheck
        result.noise = noise
        return result
    }

    /// The shortest step (seconds) whose curve between smoothed velocities term 8 of
    /// ``SmoothedTrack/distanceSigmaMetres`` counts: longer than 2.5 s. A chord of t seconds on a path turning at
    /// ω rad/s is (ω t)²/24 of its arc shorter: 2.3 % for a car turning at 0.3 rad/s with t = 2.5 s, but only on the
    /// steps of the turn, so a 90° corner at 10 m/s loses (π/2) v ω t²/24, 0.2 m to chords of 1 s and 1.2 m to chords
    /// of 2.5 s: nothing σ needs. 1–2 Hz tracks then pay little (the `smooth` benchmark, 1 Hz: 4,542.8 instructions
    /// per fix before the term, 4,555.3 with it and the rejected-column case, 4,612.2 with every step).
    static let modelCurveMinimumSeconds = 2.5

    /// The draws of term 6 for a track of `stateCount` states (see
    /// ``SmoothingOptions/noiseLengtheningDraws``).
    static func noiseLengtheningDraws(stateCount: Int, options: SmoothingOptions) -> Int {
        guard options.noiseLengtheningDraws > 0 else { return 0 }
        return min(options.noiseLengtheningDraws, max(1, 20_000 / max(stateCount, 1)))
    }

    /// Sets every weight from the current solution's residuals; returns how many changed by more than
    /// `tolerance`.
    static func reweight(
        _ p: TrackProblem, loss: RobustLoss, solution x: [Double], tolerance: Double,
        positionWeights: inout [Double], velocityWeights: inout [Double]
    ) -> Int {
        let order = x.count / 2
        // One pass per kind over the measurements' state, plane coordinates and variance (`residuals`), the
        // weights written through a buffer (no uniqueness check per element).
        func residuals(
            _ state: [Int], _ east: [Double], _ north: [Double], _ variance: [Double], offset: Int,
            weights: inout [Double]
        ) -> Int {
            var moving = 0
            x.withUnsafeBufferPointer { x in
                state.withUnsafeBufferPointer { state in
                    east.withUnsafeBufferPointer { east in
                        north.withUnsafeBufferPointer { north in
                            variance.withUnsafeBufferPointer { variance in
                                weights.withUnsafeMutableBufferPointer { weights in
                                    for m in 0..<state.count {
                                        let c = 2 * state[m] + offset
                                        let w = loss.weight(
                                            residualEast: east[m] - x[c], north: north[m] - x[order + c],
                                            variance: variance[m])
                                        if abs(w - weights[m]) > tolerance { moving += 1 }
                                        weights[m] = w
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return moving
        }
        return residuals(
            p.positionState, p.positionEast, p.positionNorth, p.positionVariance, offset: 0,
            weights: &positionWeights)
            + residuals(
                p.velocityState, p.velocityEast, p.velocityNorth, p.velocityVariance, offset: 1,
                weights: &velocityWeights)
    }

    /// The Doppler speed of the first fix of state `s` (the problem's own, so one the accuracy gate let in), or
    /// `nil` without one.
    static func dopplerSpeed(atFirstFixOfState s: Int, _ p: TrackProblem, _ fixes: [Fix]) -> Double? {
        let m = p.firstPositionMeasurement(ofState: s)
        return m < p.positionState.count ? fixes[p.fixIndex[m]].speedMetresPerSecond : nil
    }

    /// The Doppler speed of the last fix of state `s`, or `nil` without one.
    static func dopplerSpeed(atLastFixOfState s: Int, _ p: TrackProblem, _ fixes: [Fix]) -> Double? {
        let m = p.firstPositionMeasurement(ofState: s + 1) - 1
        return m >= 0 && m < p.positionState.count ? fixes[p.fixIndex[m]].speedMetresPerSecond : nil
    }

    /// How far a speed-only measurement's velocity may move between two solutions, in its standard deviations,
    /// and still count as settled: 0.1, the robust weights' ``SmoothingOptions/weightTolerance`` in kind.
    static let alignmentTolerance = 0.1

    /// The smallest robust weight: 10⁻⁶, so that a down-weighted fix keeps the system positive definite on
    /// its own (a lone fix in a segment) and a NaN residual cannot propagate.
    static let minimumWeight = 1e-6

    /// The speed, m/s, from which the chords into and out of a fix alone in its segment show it moving beyond doubt
    /// (60 m over 20 s, against fixes' noise of 5–10 m), for σ's test of a placeholder column of zeros: 3.
    static let clearMotionMetresPerSecond = 3.0

    /// How many lone fixes between chords of clear motion, in a row, must read under the still speed for σ to take
    /// them as placeholders (the whole column, or a run of them that reaches its last or first such fix): 5. An
    /// honest column reads motion at some of them; a postal van that stands at the fix times reads 0 at one,
    /// rarely at five in a row, and then between readings of motion (a reviewer's postal vans every 60–120 s
    /// with an honest Doppler column: σ 50–71 % of their distance before the runs, every track within ±2σ; a
    /// second reviewer's vans logged at five stops in a row, σ 0.7 → 16.5 % of the distance while runs anywhere
    /// counted, 0.7 % again with runs at the column's ends).
    static let placeholderRunFixes = 5

    /// The largest corner σ's gap term reads between two lone fixes without readings, radians: 2π/3 (120°, a path
    /// 52 % longer than its chord on average). A sharper turn at a fix is as often a reversal (out and back, or a
    /// multipath jump) as a corner, and the excess of a corner grows without bound towards 180°.
    static let maximumCornerRadians = 2 * Double.pi / 3

    /// The mean excess over the chord, as a share of it, of a path that turns by `phi` radians at one corner placed
    /// anywhere along it (uniformly): E[1 / √(u² + (1 − u)² + 2u(1 − u) cos φ)] − 1 over u ∈ [0, 1], the path's share
    /// u before the corner, by 8-point Gauss–Legendre (0 at 0°, 0.0986 at 60°, 0.2465 at 90°: √2 asinh 1 − 1 exactly,
    /// 0.5206 at 120°).
    static func cornerExcessRatio(turning phi: Double) -> Double {
        let c = cos(phi)
        @inline(__always) func term(_ v: Double) -> Double {
            1 / (v * v + (1 - v) * (1 - v) + 2 * v * (1 - v) * c).squareRoot()
        }
        var sum = 0.0
        for k in 0..<4 {
            let u = cornerNodes[k]
            sum += cornerWeights[k] * (term(u) + term(1 - u))
        }
        return sum - 1
    }

    /// Gauss–Legendre nodes on [0, ½) and their weights, for ``cornerExcessRatio(turning:)`` (the other four nodes
    /// mirror them).
    static let cornerNodes = [0.0198550717512319, 0.1016667612931866, 0.2372337950418355, 0.4082826787521751]
    static let cornerWeights = [0.0506142681451881, 0.1111905172266872, 0.1568533229389436, 0.1813418916891810]

}
