import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole-track least-squares problem in a local metre plane, structure of arrays (internal).
///
/// One *state* (east, north, v_east, v_north) per distinct fix time; fixes with the same timestamp observe
/// the same state. States are in time order; a step longer than ``SmoothingOptions/gapSeconds`` starts a new
/// segment (no process term links it to the state before; it gets the weak prior instead).
struct TrackProblem {
    /// The plane the problem is posed in, anchored at the first used fix: a ``LocalFrame`` unless the problem
    /// was built for a piece of a track (see ``PlaneFrame``).
    var frame: PlaneFrame
    /// The largest |east| and |north| of a position measurement in ``frame``, metres (for ``fitsLocalFrame``).
    var extentEast = 0.0, extentNorth = 0.0
    /// Whether building stopped at the first position beyond ``pieceRadiusMetres`` (asked for with
    /// `givingUpOutsideLocalFrame`): the problem holds the fixes before it only, and ``fitsLocalFrame`` is false.
    private(set) var wasGivenUp = false
    /// The steps judged against a speed ceiling (``stepJudgement(maximumSpeedMetresPerSecond:)``), when the smoother
    /// judged them before solving (for the relocations), so that the warm start does not judge them again.
    var judgedSteps: (ceiling: Double, code: [UInt8], judged: Int, impossible: Int)?
    /// Time of each state, seconds after the first state.
    var times: [Double] = []
    /// Whether a state opens a segment. Its prior position is its first fix's (the first position
    /// measurement of the state: every state has at least one, see ``firstPositionMeasurement(ofState:)``);
    /// a state's timestamp is any of its fixes' (`fixIndex`) — neither is stored again per state.
    var opensSegment: [Bool] = []
    /// The states after the first that open a segment (each after a gap), ascending: the passes that concern
    /// only gaps read these instead of every state.
    var gapStates: [Int] = []

    /// Position measurements, in time order: state index, plane coordinates, per-axis variance (m²), and
    /// the index of the fix in the caller's array.
    var positionState: [Int] = []
    var positionEast: [Double] = []
    var positionNorth: [Double] = []
    var positionVariance: [Double] = []
    var fixIndex: [Int] = []

    /// Velocity measurements (Doppler), in time order: state index, m/s, per-axis variance (m²/s²).
    var velocityState: [Int] = []
    var velocityEast: [Double] = []
    var velocityNorth: [Double] = []
    var velocityVariance: [Double] = []

    /// Speed-only measurements (a Doppler speed of at least ``SmoothingOptions/stillSpeedMetresPerSecond``
    /// without a course), in time order. Each has an entry in the velocity arrays: a velocity of its speed along
    /// the current solution's direction (``alignSpeeds(to:tolerance:)``), or of variance ``unalignedVariance``
    /// until a solution gives it one.
    var speeds: [SpeedMeasurement] = []

    /// The variance of a speed-only measurement that has no direction yet: information 10⁻¹², nothing next
    /// to any real measurement, but finite, so every formula (Kalman gains, robust weights) stays defined.
    static let unalignedVariance = 1e12
    /// The smallest smoothed speed whose direction a speed-only measurement takes, m/s: below it the direction
    /// is the noise's, and the measurement waits (unaligned) for the next solution.
    static let minimumAlignmentSpeed = 0.05
    /// The share of a speed-only measurement's speed that the smoothed track must already move at for the
    /// measurement to take a direction: 0.5, midway between a moving track (whose speed from the positions
    /// alone scatters about the true one) and a still one (about zero). Without it a desk phone's 0.4–0.6 m/s
    /// spikes made the track circle at that speed (`SpeedWithoutCourseTests`). Once aligned, the track moves
    /// at about the measured speed, so a measurement keeps its direction.
    static let corroboratedSpeedShare = 0.5

    /// Fixes left out by the accuracy gate, and those at exactly 0° N 0° E (``Fix/isAtNullIsland``).
    var excludedFixCount = 0
    /// Process-noise spectral density q = σₐ², m²/s³.
    var processDensity: Double
    /// Per state, the factor on ``processDensity`` of the link into it (see
    /// ``SmoothingOptions/accelerationSigmaWithoutDoppler``); empty when every link has the factor 1 (then
    /// nothing is stored or read per state).
    var processScale: [Double] = []
    /// The factor ``processScale`` holds for the links into states without a speed reading (1 when it is empty).
    /// (Stored by ``setProcessScales(_:fixes:)``: read as `processScale.min()` in `WholeTrackSmoother.smooth`, it
    /// cost the `smooth` benchmark 22 instructions per fix.)
    var lowerProcessScale = 1.0
    /// Prior variances of a segment's first position (m²) and velocity (m²/s²).
    var initialPositionVariance: Double
    var initialVelocityVariance: Double

    var stateCount: Int { times.count }

    /// The factor on ``processDensity`` of the link into state `s` (1 when ``processScale`` is empty).
    @inline(__always)
    func processScale(intoState s: Int) -> Double {
        processScale.isEmpty ? 1 : processScale[s]
    }

    /// The process density of the link into state `s` (m²/s³).
    @inline(__always)
    func processDensity(intoState s: Int) -> Double {
        processDensity * processScale(intoState: s)
    }

    /// Multiplies every position variance by `position` and every velocity variance by `velocity` (the
    /// estimation's M-step), keeping the floor ``SmoothingOptions/minimumVariance``.
    mutating func scaleVariances(position: Double, velocity: Double) {
        if position != 1 {
            for i in positionVariance.indices {
                positionVariance[i] = max(positionVariance[i] * position, SmoothingOptions.minimumVariance)
            }
        }
        if velocity != 1 {
            for i in velocityVariance.indices where velocityVariance[i] < Self.unalignedVariance {
                velocityVariance[i] = max(velocityVariance[i] * velocity, SmoothingOptions.minimumVariance)
            }
            for i in speeds.indices {
                speeds[i].variance = max(speeds[i].variance * velocity, SmoothingOptions.minimumVariance)
                speeds[i].speedVariance = max(
                    speeds[i].speedVariance * velocity, SmoothingOptions.minimumVariance)
            }
        }
    }
    /// The index of the first position measurement of state `s` (O(log n): position measurements are in
    /// state order and every state has at least one). The loops over all states walk the measurements
    /// alongside instead.
    func firstPositionMeasurement(ofState s: Int) -> Int {
        var low = 0, high = positionState.count
        while low < high {
            let middle = (low + high) / 2
            if positionState[middle] < s { low = middle + 1 } else { high = middle }
        }
        return low
    }
    var segmentCount: Int { opensSegment.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// Builds the problem from fixes in any order (sorted by time here, ties kept in input order).
    ///
    /// - Complexity: O(n) for sorted input, O(n log n) otherwise.
    /// - Parameters:
    ///   - tangentPlane: pose the problem in a ``TangentPlane`` about the first used fix (a piece of a track
    ///     ``fitsLocalFrame`` refused) instead of a ``LocalFrame``.
    ///   - givingUpOutsideLocalFrame: stop at the first position farther than ``pieceRadiusMetres`` from the
    ///     anchor on either axis (``wasGivenUp``), for a caller that uses the problem only if it
    ///     ``fitsLocalFrame``. (The `smooth` benchmark's 13,000 km drive built all of its 200,000 fixes' problem
    ///     before being cut into pieces: 690 instructions per fix.)
    init(fixes: [Fix], options: SmoothingOptions, tangentPlane: Bool = false, givingUpOutsideLocalFrame: Bool = false) {
        precondition(
            options.accelerationSigma > 0 && options.accelerationSigma.isFinite,
            "SmoothingOptions.accelerationSigma must be positive and finite")
        processDensity = options.accelerationSigma * options.accelerationSigma
        initialPositionVariance = options.initialPositionSigmaMetres * options.initialPositionSigmaMetres
        initialVelocityVariance = max(
            options.initialVelocitySigmaMetresPerSecond * options.initialVelocitySigmaMetresPerSecond, 1e-6)
        frame = .local(LocalFrame(anchor: (0, 0)))
        precondition(
            options.accuracyScale > 0 && options.accuracyScale.isFinite
                && options.dopplerScale > 0 && options.dopplerScale.isFinite,
            "SmoothingOptions.accuracyScale and dopplerScale must be positive and finite")
        let positionScale2 = options.accuracyScale * options.accuracyScale
        let velocityScale2 = options.dopplerScale * options.dopplerScale

        let order: [Int] =
            fixes.isInTimeOrder(by: \.timestamp) ? Array(fixes.indices) : fixes.indicesInTimeOrder(by: \.timestamp)

        let n = fixes.count
        positionState.reserveCapacity(n)
        positionEast.reserveCapacity(n)
        positionNorth.reserveCapacity(n)
        positionVariance.reserveCapacity(n)
        fixIndex.reserveCapacity(n)
        times.reserveCapacity(n)
        opensSegment.reserveCapacity(n)

        var hasFrame = false
        var firstMilliseconds: Int64 = 0
        var lastMilliseconds: Int64 = .min
        let degrees = Double.pi / 180
        for index in order {
            let fix = fixes[index]
            guard let accuracy = Self.accuracy(of: fix, options: options) else {
                excludedFixCount += 1
                continue
            }
            if !hasFrame {
                let anchor = (fix.latitude, fix.longitude)
                frame = tangentPlane ? .tangent(TangentPlane(anchor: anchor)) : .local(LocalFrame(anchor: anchor))
                firstMilliseconds = fix.timestamp.millisecondsSince1970
                hasFrame = true
            }
            let p = frame.project(latitude: fix.latitude, longitude: fix.longitude)
            extentEast = max(extentEast, abs(p.east))
            extentNorth = max(extentNorth, abs(p.north))
            if givingUpOutsideLocalFrame, max(extentEast, extentNorth) > Self.pieceRadiusMetres {
                wasGivenUp = true
                return
            }
            let ms = fix.timestamp.millisecondsSince1970
            if ms != lastMilliseconds {
                let t = Double(ms &- firstMilliseconds) / 1000
                let opens = times.isEmpty || t - times[times.count - 1] > options.gapSeconds
                if opens && !times.isEmpty { gapStates.append(times.count) }
                times.append(t)
                opensSegment.append(opens)
                lastMilliseconds = ms
            }
            let state = times.count - 1
            positionState.append(state)
            positionEast.append(p.east)
            positionNorth.append(p.north)
            positionVariance.append(
                max(
                    MeasurementNoise.perAxisVariance(radius68: accuracy) * positionScale2,
                    SmoothingOptions.minimumVariance))
            fixIndex.append(index)

            guard Self.takesReading(of: fix, options: options), let speed = fix.speedMetresPerSecond else { continue }
            let speedSigma = fix.speedAccuracyMetresPerSecond ?? options.assumedSpeedAccuracyMetresPerSecond
            let east: Double, north: Double, variance: Double
            if let course = fix.courseDegrees {
                let courseSigma = fix.courseAccuracyDegrees ?? options.assumedCourseAccuracyDegrees
                let c = course * degrees
                if case .tangent(let plane) = frame {
                    // The course is on the fix's local axes; the plane's turn against them away from its anchor.
                    (east, north) = plane.planeVelocity(
                        east: speed * sin(c), north: speed * cos(c), atLatitude: fix.latitude,
                        longitude: fix.longitude)
                } else {
                    east = speed * sin(c)
                    north = speed * cos(c)
                }
                variance = max(
                    MeasurementNoise.velocityVariance(
                        speed: speed, speedSigma: speedSigma, courseSigmaDegrees: courseSigma)
                        * velocityScale2, SmoothingOptions.minimumVariance)
            } else if speed < options.stillSpeedMetresPerSecond {
                // At rest a receiver reports no course: a small speed without one is a zero velocity.
                (east, north) = (0, 0)
                variance = max(speedSigma * speedSigma * velocityScale2, SmoothingOptions.minimumVariance)
            } else {
                // A speed without a course: a velocity of that speed along the solution's direction, once there
                // is a solution (see `alignSpeeds(to:tolerance:)`); until then it carries no information.
                speeds.append(
                    SpeedMeasurement(
                        entry: velocityState.count, metresPerSecond: speed,
                        variance: max(
                            MeasurementNoise.velocityVariance(
                                speed: speed, speedSigma: speedSigma,
                                courseSigmaDegrees: options.assumedCourseAccuracyDegrees) * velocityScale2,
                            SmoothingOptions.minimumVariance),
                        speedVariance: max(speedSigma * speedSigma * velocityScale2, SmoothingOptions.minimumVariance)))
                (east, north, variance) = (0, 0, Self.unalignedVariance)
            }
            velocityState.append(state)
            velocityEast.append(east)
            velocityNorth.append(north)
            velocityVariance.append(variance)
        }
        // (Only when some fix has no velocity measurement: a reading the options leave out still keeps σₐ, which
        // `setProcessScales` reads from the fixes.)
        if velocityState.count < positionState.count { setProcessScales(options, fixes: fixes) }
    }

    /// Whether the problem takes `fix`'s speed reading as a velocity entry (appended after the fix's position
    /// entry): Doppler on, a reading, and at most ``SmoothingOptions/maximumSpeedMetresPerSecond``.
    @inline(__always)
    static func takesReading(of fix: Fix, options: SmoothingOptions) -> Bool {
        guard options.usesDoppler, let speed = fix.speedMetresPerSecond else { return false }
        return speed <= options.maximumSpeedMetresPerSecond
    }

    /// The accuracy (metres) the problem takes for a fix's position, or nil for a fix it leaves out: one at
    /// exactly 0° N 0° E (a device's placeholder, ``Fix/isAtNullIsland``), or whose accuracy is invalid or above
    /// ``SmoothingOptions/maximumAccuracyMetres`` (a fix without one takes
    /// ``SmoothingOptions/assumedAccuracyMetres``).
    @inline(__always)
    static func accuracy(of fix: Fix, options: SmoothingOptions) -> Double? {
        if fix.isAtNullIsland { return nil }
        switch fix.horizontalAccuracy {
        case .metres(let m) where m <= options.maximumAccuracyMetres: return m
        case .absent: return options.assumedAccuracyMetres
        default: return nil
        }
    }

    /// How far (metres, in its own plane) a position may lie from a problem's anchor for the problem to keep
    /// one plane: 50 km. Within it a ``TangentPlane``'s lengths are right to 3·10⁻⁵; a track that leaves it is
    /// smoothed in pieces (see `WholeTrackSmoother.pieces(of:)`).
    static let pieceRadiusMetres = 50_000.0
    /// The largest error of a ``LocalFrame``'s east scale, relative, that ``fitsLocalFrame`` accepts anywhere on
    /// the track: 1 % (its east axis is scaled for the anchor's latitude; at latitude φ the ratio is
    /// cos φ₀ / cos φ). At 45° that is 64 km north or south of the anchor; at 78° (Svalbard), 13 km; within
    /// 2 km of a pole, metres.
    static let maximumEastScaleError = 0.01
    /// The largest longitude difference from the anchor (degrees) that ``fitsLocalFrame`` accepts: 10°. At
    /// ordinary latitudes the radius binds first (50 km is 2.6° at 80°); about a pole, where a few kilometres
    /// span every longitude and ``LocalFrame``'s east wraps at ±180°, this does.
    static let maximumLongitudeSpanDegrees = 10.0

    /// Whether the problem's ``LocalFrame`` about the first fix suits the whole track (a problem in a
    /// ``TangentPlane`` always does: its pieces were cut to fit): every position within ``pieceRadiusMetres`` of
    /// the anchor on both axes, within ``maximumLongitudeSpanDegrees`` of its longitude, and where the frame's
    /// east scale is right to ``maximumEastScaleError``. Read from the extents of the positions (two
    /// comparisons per fix while building), so every track that fits is posed and solved exactly as before.
    var fitsLocalFrame: Bool {
        if wasGivenUp { return false }
        guard case .local(let local) = frame else { return true }
        let span = extentNorth / local.metresPerDegreeNorth
        let anchorCosine = cos(local.anchorLatitude * Double.pi / 180)
        return Self.localFrame(
            local, anchorCosine: anchorCosine, holdsEast: extentEast, north: extentNorth,
            atLatitude: local.anchorLatitude - span)
            && Self.localFrame(
                local, anchorCosine: anchorCosine, holdsEast: extentEast, north: extentNorth,
                atLatitude: local.anchorLatitude + span)
    }

    /// ``fitsLocalFrame``'s rules for one position (`east`, `north` metres from the anchor of `frame`, at
    /// `latitude` degrees; `anchorCosine` the cosine of the anchor's latitude): within ``pieceRadiusMetres`` on
    /// both axes, within ``maximumLongitudeSpanDegrees`` of the anchor's longitude, and where the frame's east scale
    /// is right to ``maximumEastScaleError``. The track's extents ask it (``fitsLocalFrame``), and so does each fix
    /// when a track is cut into pieces (`WholeTrackSmoother.pieces(of:)`).
    @inline(__always)
    static func localFrame(
        _ frame: LocalFrame, anchorCosine: Double, holdsEast east: Double, north: Double, atLatitude latitude: Double
    ) -> Bool {
        let radius = pieceRadiusMetres
        guard abs(east) <= radius, abs(north) <= radius,
            abs(east) / frame.metresPerDegreeEast <= maximumLongitudeSpanDegrees
        else { return false }
        let c = cos(min(90, max(-90, latitude)) * Double.pi / 180)
        return c > 0 && abs(anchorCosine / c - 1) <= maximumEastScaleError
    }

    /// Fills ``processScale``: the factor (σ_without / σₐ)² (``SmoothingOptions/accelerationSigmaWithoutDoppler``)
    /// on the link into every state none of whose fixes has a speed reading and all of whose fixes report their
    /// accuracy: the forward filter's rule for its prediction step, which asks whether a fix carries a reading,
    /// whatever its value (a reading above the ceiling, or one ``SmoothingOptions/usesDoppler`` leaves out, still
    /// keeps σₐ; one overruled as a placeholder was removed before). Not called when every fix has a reading (the
    /// usual 1 Hz phone or logger: no cost per state); nothing is stored when no link takes the factor.
    /// σ_without below σₐ / 1000 counts as σₐ / 1000 (a vanishing density would make the band singular).
    private mutating func setProcessScales(_ options: SmoothingOptions, fixes: [Fix]) {
        let withoutDoppler = options.accelerationSigmaWithoutDoppler
        guard withoutDoppler > 0, withoutDoppler < options.accelerationSigma else { return }
        let ratio = max(withoutDoppler / options.accelerationSigma, 1e-3)
        var scales = [Double](repeating: ratio * ratio, count: stateCount)
        for (m, s) in positionState.enumerated() {
            let fix = fixes[fixIndex[m]]
            if fix.speedMetresPerSecond != nil || fix.horizontalAccuracy == .absent { scales[s] = 1 }
        }
        if scales.contains(where: { $0 != 1 }) {
            processScale = scales
            lowerProcessScale = ratio * ratio
        }
    }
}

/// A Doppler speed without a course (see ``TrackProblem/speeds``): its entry in the problem's velocity arrays,
/// the speed (m/s) and its variance (m²/s²).
struct SpeedMeasurement {
    var entry: Int
    var metresPerSecond: Double
    /// The isotropic variance the velocity entry takes once aligned (that of a course at the assumed accuracy).
    var variance: Double
    /// The speed's own variance, along its direction: what its error is (term 6 of σ draws it).
    var speedVariance: Double
}

extension TrackProblem {
    /// Points every speed-only measurement along the direction of the smoothed velocity of its state in `x`
    /// (the band's layout), and returns how many moved by more than `tolerance` of their standard deviation
    /// (or gained or lost a direction).
    ///
    /// The speed-only cost (‖v‖ − s)² / σ² is not quadratic in v; its stationary points are those of the
    /// quadratic ‖v − s û‖² / σ² with û = v / ‖v‖ (the two gradients agree there), so the iterations that
    /// realign û converge to the speed's least-squares answer. The quadratic also pulls the direction towards
    /// û, which is where it already is: the cost is only a stiffer curvature across the track, so the
    /// smoothed covariance is somewhat too sure of the direction (and so of the length at turns, whose
    /// gradient there lies across the track).
    mutating func alignSpeeds(to x: [Double], tolerance: Double) -> Int {
        let order = x.count / 2
        var moving = 0
        for speed in speeds {
            let m = speed.entry, s = velocityState[m]
            let ve = x[2 * s + 1], vn = x[order + 2 * s + 1]
            let norm = (ve * ve + vn * vn).squareRoot()
            let east: Double, north: Double, variance: Double
            if norm >= max(Self.minimumAlignmentSpeed, Self.corroboratedSpeedShare * speed.metresPerSecond) {
                east = speed.metresPerSecond * ve / norm
                north = speed.metresPerSecond * vn / norm
                variance = speed.variance
            } else {
                (east, north, variance) = (0, 0, Self.unalignedVariance)
            }
            let de = east - velocityEast[m], dn = north - velocityNorth[m]
            if variance != velocityVariance[m] || de * de + dn * dn > tolerance * tolerance * variance {
                moving += 1
            }
            velocityEast[m] = east
            velocityNorth[m] = north
            velocityVariance[m] = variance
        }
        return moving
    }

    /// Read-only views of the problem's per-state and per-measurement arrays, for the hot loops of the banded
    /// solver: one closure instead of one nested closure per array.
    struct Buffers {
        let times: UnsafeBufferPointer<Double>
        let opensSegment: UnsafeBufferPointer<Bool>
        let positionState: UnsafeBufferPointer<Int>
        let positionEast: UnsafeBufferPointer<Double>
        let positionNorth: UnsafeBufferPointer<Double>
        let positionVariance: UnsafeBufferPointer<Double>
        let velocityState: UnsafeBufferPointer<Int>
        let velocityEast: UnsafeBufferPointer<Double>
        let velocityNorth: UnsafeBufferPointer<Double>
        let velocityVariance: UnsafeBufferPointer<Double>
    }

    /// Calls `body` with views of the arrays, valid only inside it.
    @inline(__always)
    func withBuffers<R>(_ body: (Buffers) throws -> R) rethrows -> R {
        try times.withUnsafeBufferPointer { t in
            try opensSegment.withUnsafeBufferPointer { o in
                try positionState.withUnsafeBufferPointer { ps in
                    try positionEast.withUnsafeBufferPointer { pe in
                        try positionNorth.withUnsafeBufferPointer { pn in
                            try positionVariance.withUnsafeBufferPointer { pr in
                                try velocityState.withUnsafeBufferPointer { vs in
                                    try velocityEast.withUnsafeBufferPointer { ve in
                                        try velocityNorth.withUnsafeBufferPointer { vn in
                                            try velocityVariance.withUnsafeBufferPointer { vr in
                                                try body(
                                                    Buffers(
                                                        times: t, opensSegment: o, positionState: ps, positionEast: pe,
                                                        positionNorth: pn, positionVariance: pr, velocityState: vs,
                                                        velocityEast: ve, velocityNorth: vn, velocityVariance: vr))
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
