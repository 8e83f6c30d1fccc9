import TrueTrackCore

/// Which steps of a smoothed track moved like a vehicle and so are not the profile's travel: the whole-track
/// form of the forward filter's vehicle rule (its fast-window hold, its `in vehicle` readings and its latch,
/// ``DistanceHold/vehicle``). Configure it through ``SmoothingOptions/vehicleGate``; the smoother applies it.
///
/// Without it a walk smoothed with the walking profile counted every ride in it (GeoLife's walk–taxi–bus day:
/// 9,767.7 m smoothed against 668.7 m forward, with a 1σ of 61,932 m from the five-hour gap between the rides).
/// The rule, judged on the smoothed track with the whole track at hand:
/// 1. **Fast**: a step is fast when the window of ``windowSeconds`` centred on it (reaching at least half its
///    length on each side, as ``StillnessGate``'s does, within the step's segment, and spanning at least half
///    its length) has a net speed above ``maximumSustainedSpeedMetresPerSecond``, the forward filter's rule.
///    (An allowance for the fixes' noise, 2 σ of the smoothed positions, kept a network-provider log's 33 m
///    fixes from reading as rides, but let GeoLife's taxi pull away at 3.5 m/s as a walk: 892 m, 889 m at 1 σ,
///    instead of 719 m for its 755 m walk.) The chord across a gap that splits the track is judged alike, on
///    its own: a bus seen every 90 s is a string of chords no walker covers. A fast window the trusted speed
///    readings explain is not (``ReadingsVeto``: a jog at 2.9 m/s on the walking profile), and one whose readings
///    are clearly faster than the sustained speed backs the ride it marks.
/// 2. **Read**: a step is a ride's when the activity reading in force at either of its states (the newest
///    reading at or before it, for ``activityValiditySeconds``, as the forward filter keeps one) is a
///    confident `in vehicle` and the profile excludes that activity.
/// 3. **Latch** (``exitSeconds`` > 0): after a ride, the slow steps belong to the ride until a slow spell
///    lasts ``exitSeconds``: bus stops, lights, a crawl in traffic; a fast window the readings explained renews a
///    latch a backed ride holds (a bus's crawl reads like a jog). A gap keeps the latch, as the forward
///    latch's does: the chord across a lone gap crossed while latched is the ride's (a bus through a tunnel
///    at 2.5 m/s is no walk), and the spell starts again after it. In a run of gaps (a sparse log, every step a
///    chord) a chord of at least ``movingChordSpeedMetresPerSecond`` on average is slow travel whose time
///    counts (a walk logged every 90 s would otherwise never end the ride); a slower one starts the spell
///    again. The track's last slow steps after a ride belong to it too unless such a spell is among them (the
///    forward filter gives up an unfinished spell at a track's end); slow steps before the first ride are the
///    traveller's.
/// 4. **Gaps**: the chord across a gap that splits the track is a ride's when the step before or after it is
///    by rules 1–3 (judged before this rule, so a run of gaps after a ride is not given to it chord by chord).
///
/// A ride's steps add nothing to ``SmoothedTrack/distanceMetres`` and nothing to its σ: their length is
/// reported as ``SmoothedTrack/vehicleLengthMetres``.
public struct VehicleGate: Sendable, Hashable {
    /// The window's length, seconds. From ``TrackingProfile/windowSeconds``.
    public var windowSeconds: Double
    /// A window faster than this is a vehicle's, m/s; `.infinity` turns rule 1 off. From
    /// ``TrackingProfile/maximumSustainedSpeedMetresPerSecond``.
    public var maximumSustainedSpeedMetresPerSecond: Double
    /// How long a slow spell after a ride must last, without a gap, to end it, seconds; 0 turns the latch
    /// (rule 3) off. From ``TrackingProfile/vehicleExitSeconds``.
    public var exitSeconds: Double
    /// In a run of gaps, a chord that averages at least this is travel that continues a slow spell, m/s. From
    /// ``TrackingProfile/deadbandMetresPerSecond`` (the slowest speed the forward filter counts).
    public var movingChordSpeedMetresPerSecond: Double
    /// Whether a confident `in vehicle` reading marks a ride: the profile excludes ``ActivityKind/inVehicle``.
    public var excludesInVehicleReadings: Bool
    /// The confidence (0–100) from which a reading counts. From ``TrackingProfile/activityConfidenceThreshold``.
    public var activityConfidenceThreshold: Int
    /// How long a reading stays in force, seconds. From ``TrackingProfile/activityValiditySeconds``.
    public var activityValiditySeconds: Double

    /// The gate with the forward filter's values for `profile` (see each property), or `nil` when the
    /// profile has no vehicle rule: no sustained-speed limit and `in vehicle` not excluded (driving).
    public init?(profile: TrackingProfile) {
        let excludes = profile.excludedActivities.contains(.inVehicle)
        guard profile.maximumSustainedSpeedMetresPerSecond.isFinite || excludes else { return nil }
        windowSeconds = profile.windowSeconds
        maximumSustainedSpeedMetresPerSecond = profile.maximumSustainedSpeedMetresPerSecond
        exitSeconds = max(profile.vehicleExitSeconds, 0)
        movingChordSpeedMetresPerSecond = profile.deadbandMetresPerSecond
        excludesInVehicleReadings = excludes
        activityConfidenceThreshold = profile.activityConfidenceThreshold
        activityValiditySeconds = profile.activityValiditySeconds
    }

    /// Whether the smoothed track moves from state `low` to state `high` faster than
    /// ``maximumSustainedSpeedMetresPerSecond``, by more than `allowanceMetres` (≥ 0) over their seconds.
    func isFaster(
        from low: Int, to high: Int, times: [Double], solution x: [Double], order: Int, allowanceMetres: Double = 0
    ) -> Bool {
        let de = x[2 * high] - x[2 * low], dn = x[order + 2 * high] - x[order + 2 * low]
        let limit = maximumSustainedSpeedMetresPerSecond * (times[high] - times[low]) + allowanceMetres
        return de * de + dn * dn > limit * limit
    }

    /// The straight line from state `low` to state `high` of solution `x`, metres.
    static func netMetres(from low: Int, to high: Int, solution x: [Double], order: Int) -> Double {
        let de = x[2 * high] - x[2 * low], dn = x[order + 2 * high] - x[order + 2 * low]
        return (de * de + dn * dn).squareRoot()
    }

    /// For each state `s ≥ 1`, whether the step from state `s − 1` into it belongs to a ride (index 0 is
    /// always `false`).
    ///
    /// - Parameters:
    ///   - times: the state times, seconds, ascending.
    ///   - opensSegment: whether each state opens a segment (the step into it crosses a gap).
    ///   - x: the solution, east and north columns of `order` rows each (state s at rows 2s).
    ///   - readings: the fixes' activity readings (of every fix, used or not: the forward filter takes a
    ///     rejected fix's reading too), ascending in time.
    ///   - positionVariances: the solution's per-axis position variance at each state, m² (empty: unknown, taken
    ///     as 0), for the readings' veto's allowance.
    ///   - trustedSpeeds: each state's trusted speed reading and its σ, m/s (NaN and 0: none), or `nil` when the smoother takes no
    ///     readings (Doppler off, or no ``SmoothingOptions/speedReadingCheck`` profile to trust them with); called
    ///     only once a window is fast (see ``ReadingsVeto``).
    /// - Complexity: O(n): the window edges only move forward; allocates the result, the readings in force, a copy
    ///   of the result and the latched chords, and with a fast window the readings' running sums.
    func vehicleSteps(
        times: [Double], opensSegment: [Bool], solution x: [Double], order: Int,
        readings: [TimedReading], positionVariances: [Double] = [],
        trustedSpeeds: () -> (speeds: [Double], sigmas: [Double])? = { nil }
    ) -> [Bool] {
        let n = times.count
        var vehicle = [Bool](repeating: false, count: n)
        guard n > 1 else { return vehicle }
        var window = CentredWindow(seconds: windowSeconds)
        // The reading in force (rule 2): the newest at or before the state, within its validity.
        let reads = TimedReading.inForce(
            excludesInVehicleReadings ? readings : [], of: .inVehicle, confidenceThreshold: activityConfidenceThreshold,
            validitySeconds: activityValiditySeconds, times: times)
        // Rule 1's readings veto (built at the first fast window): which fast steps the trusted readings explain,
        // and which rides they back (the latch's question below).
        var veto: ReadingsVeto?, vetoBuilt = false
        // (`backed` starts as the readings in force per state; a backed fast window marks its step's state too.)
        var explained: [Bool] = [], backed = reads
        var long = CentredWindow(seconds: 2 * ReadingsVeto.longWindowSeconds(of: self))
        for s in 1..<n {
            let (low, high) = window.states(ofStep: s, times: times, opensSegment: opensSegment)
            let longWindow = long.states(ofStep: s, times: times, opensSegment: opensSegment)
            if reads[s] || reads[s - 1] {
                vehicle[s] = true
            } else if !maximumSustainedSpeedMetresPerSecond.isFinite {
                continue
            } else if opensSegment[s] {
                // The chord across the gap: a ride's if no traveller of the profile could have covered it.
                vehicle[s] = isFaster(from: s - 1, to: s, times: times, solution: x, order: order)
            } else if times[high] - times[low] >= window.halfSeconds,
                isFaster(from: low, to: high, times: times, solution: x, order: order)
            {
                if !vetoBuilt {
                    vetoBuilt = true
                    veto = trustedSpeeds().map {
                        ReadingsVeto(speeds: $0.speeds, sigmas: $0.sigmas, times: times, opensSegment: opensSegment)
                    }
                    explained = [Bool](repeating: false, count: n)
                }
                let verdict =
                    veto?.judge(
                        from: low, to: high, step: s, longWindow: longWindow, times: times, solution: x, order: order,
                        positionVariances: positionVariances, gate: self) ?? .unexplained
                switch verdict {
                case .explained: explained[s] = true
                case .backed:
                    vehicle[s] = true
                    backed[s] = true
                case .unexplained: vehicle[s] = true
                }
            }
        }
        // Rule 3: the slow steps after a ride are the ride's until a slow spell lasts `exitSeconds`. A gap keeps
        // the latch: a lone gap's chord, crossed while latched, is the ride's and the spell starts again after
        // it; in a run of gaps (a sparse log) a chord at the deadband speed or more is slow travel, its time
        // counts, and a slower one starts the spell again.
        if exitSeconds > 0 {
            var slowFrom = -1  // the first slow step after the last ride step (-1: no ride yet)
            var spellStart = 0.0, longest = 0.0
            var latchedChords: [Int] = []
            var isBacked = false  // a ride step of the latch in force was backed by readings
            for s in 1..<n {
                if !vehicle[s], !explained.isEmpty, explained[s], isBacked, slowFrom >= 0,
                    max(longest, times[s - 1] - spellStart) < exitSeconds
                {
                    // A fast window the readings explain renews a latch they backed: a bus's crawl between its
                    // fast spells reads like a jog (see ``ReadingsVeto``).
                    vehicle[s] = true
                }
                if vehicle[s] {
                    let isLatched = slowFrom >= 0 && max(longest, times[s - 1] - spellStart) < exitSeconds
                    if isLatched, slowFrom < s {
                        for t in slowFrom..<s { vehicle[t] = true }
                    }
                    isBacked = (isLatched && isBacked) || backed[s] || backed[s - 1]
                    slowFrom = s + 1
                    spellStart = times[s]
                    longest = 0
                    continue
                }
                guard slowFrom >= 0, opensSegment[s] else { continue }
                // Still latched: no slow spell since the ride has lasted the exit time.
                let isLatched = max(longest, times[s - 1] - spellStart) < exitSeconds
                let inRun = (s >= 2 && opensSegment[s - 1]) || (s + 1 < n && opensSegment[s + 1])
                let de = x[2 * s] - x[2 * (s - 1)], dn = x[order + 2 * s] - x[order + 2 * (s - 1)]
                let travel = movingChordSpeedMetresPerSecond * (times[s] - times[s - 1])
                if inRun && de * de + dn * dn >= travel * travel { continue }
                if isLatched && !inRun { latchedChords.append(s) }
                longest = max(longest, times[s - 1] - spellStart)
                spellStart = times[s]
            }
            if slowFrom >= 0, slowFrom < n, max(longest, times[n - 1] - spellStart) < exitSeconds {
                for t in slowFrom..<n { vehicle[t] = true }
            }
            for s in latchedChords { vehicle[s] = true }
        }
        // Rule 4, on the steps as rules 1–3 left them.
        let judged = vehicle
        for s in 1..<n where opensSegment[s] && !judged[s] {
            vehicle[s] = (s >= 2 && judged[s - 1]) || (s + 1 < n && judged[s + 1])
        }
        return vehicle
    }
}

/// Rule 1's veto by the speed readings (internal; see ``VehicleGate``): a window faster than the traveller
/// sustains is the smoothed track's own error, not travel, when the trusted speed readings inside it (the forward
/// filter's, ``Tracker/trustedSpeedReadings(in:profile:)``) stand for at least half the profile's window, their
/// mean is within the sustained speed, they account for two thirds of its net displacement, and the net is within
/// four times the noise of its two ends (√(σ²ₗₒ + σ²ₕᵢ) per axis, the smoothed variances) of the sustained speed:
/// the forward filter's rule (``Tracker``'s jog veto), judged on the smoothed track; and, with the whole track at
/// hand, when the longer stretches before and after the step (``longWindowSeconds(of:)`` each, within its segment)
/// are within that allowance of the sustained speed too. A jog at 2.9 m/s on the walking profile (3 m/s) whose smoothed track strayed 2 m over a
/// 20 s window latched 120 s of it, and again after: a tester's three 1 Hz jogs under white noise of 3 m read
/// −46 … −75 % smoothed (the forward filter's within 1.1 %).
///
/// The longer window is for a vehicle its readings under-read: a ride at 3.2 m/s read at 2.9 m/s for ten minutes
/// strays over 3 m/s in a window as a jog does, and a reviewer's such rides (walks of 840 m around them) read
/// +170 … +229 % when the veto judged the short window alone; over two minutes the ride is 24 m over the sustained
/// speed, a jog's error a few metres. Each side on its own: a window centred on the step averaged the ride's first
/// and last minutes with the walks beside them (+26 … +42 %).
///
/// A reading stands for the time nearer its fix than any other reading's of its segment, at most 5 s each way
/// (``coverageSeconds``); with a reading at every state that is half of each step beside it. Needing a reading at
/// both ends of a step, a jog read on every other fix had none (−53 … −82 % at 2.9 m/s); standing for its own
/// half-steps alone, readings on every third fix covered a third of the window (1–90 %).
///
/// A window whose readings average above the sustained speed by more than twice their own noise (each reading's
/// σ, stated or ``SmoothingOptions/assumedSpeedAccuracyMetresPerSecond``, for the seconds it stands for) *backs*
/// the ride it marks, as a confident `in vehicle` reading does; a latch a backed ride holds is renewed by a fast
/// window the readings explain: a bus's crawl at 2.7–2.9 m/s between fast spells reads like a jog, and is the
/// bus's. Within that noise the net decides, as below the sustained speed: a jog's readings at 2.9 m/s averaged
/// 3.003 m/s over one window by their noise, and backed, the latch held the rest of the jog. Only forward: a crawl
/// before the bus's first fast spell, or after a slow spell longer than the latch's exit, is judged as a jog (the
/// forward filter's too). The cost: a vehicle within the readings' noise of the sustained speed is judged by its
/// positions over two minutes, and one at 3.05 m/s read honestly counts more of itself as walking (a reviewer's
/// three: the 840 m walked around it +7.2 … +8.0 → +14.1 … +25.2 %).
struct ReadingsVeto {
    /// Running sums of the readings over the steps: each step's seconds go to the nearest reading of its segment
    /// within ``coverageSeconds`` (time farther from every reading goes to none, so the readings may stand for less
    /// than a window: `judge` asks for half of it), its speed times those seconds (metres) and the seconds. Index s
    /// holds the sums of steps 1…s.
    let pathMetres: [Double], pathSeconds: [Double]
    /// Running sums over the states of each reading's variance in the path, (σ × the seconds it stands for)²: a
    /// reading's seconds add before squaring, for they share its error (as ``TrustedReadingsPath``'s σ). Index s holds
    /// the sum over states 0…s.
    let stateVariance: [Double]
    /// Each state's reading σ, m/s (0 where none), and the span of time it stands for (see ``coverageSeconds``; empty
    /// where none).
    let sigmas: [Double], spans: [(from: Double, to: Double)]
    /// For each state, the last state at or before it with a reading in its segment, and the first at or after it
    /// (−1: none).
    let previousReading: [Int], nextReading: [Int]

    /// A fast window's verdict.
    enum Verdict {
        /// The readings explain it: not a ride.
        case explained
        /// A ride the readings back (their mean is above the sustained speed).
        case backed
        /// A ride the readings neither explain nor back (too few, or too far below the track).
        case unexplained
    }

    /// The longer window's length for `gate`, seconds: the latch's exit time, at least the window's (120 s on the
    /// walking profile): a spell as long as the one that ends a ride.
    static func longWindowSeconds(of gate: VehicleGate) -> Double {
        max(gate.exitSeconds, gate.windowSeconds)
    }

    /// The most a reading stands for on either side of its fix, seconds: 5, so at most 10 s in all, as one fix's
    /// speed stands for at most 10 s in the forward filter on every preset profile
    /// (``TrackingProfile/maximumIntegrationSeconds``); a constant, the same for every profile. (Two readings at the
    /// same time, which the tracker never keeps, would share the time between them: the earlier the time before.)
    static let coverageSeconds = 5.0

    /// The sums for `speeds` (a trusted reading per state, NaN where none) and their σ `sigmas` (m/s) on the states
    /// at `times`; the steps that open a segment (chords across gaps) hold none.
    ///
    /// A reading stands for the time nearer its fix than any other reading's of the segment, at most
    /// ``coverageSeconds`` on each side: with a reading at every state, half of each step beside it. With a speed on
    /// every third fix a reading at the fix alone stood for a third of the window, and no jog read that way was
    /// explained (a jog at 2.9 m/s so read, three seeds: 37 / 1 / 90 % of it).
    init(speeds: [Double], sigmas: [Double], times: [Double], opensSegment: [Bool]) {
        let n = times.count
        var path = [Double](repeating: 0, count: n), seconds = path, variance = path, readSigmas = path
        var previous = [Int](repeating: -1, count: n), next = previous
        func reads(_ s: Int) -> Bool { s < speeds.count && s < sigmas.count && !speeds[s].isNaN }
        for s in 0..<n {
            if reads(s) { readSigmas[s] = sigmas[s] }
            previous[s] = reads(s) ? s : (s >= 1 && !opensSegment[s] ? previous[s - 1] : -1)
        }
        for s in stride(from: n - 1, through: 0, by: -1) {
            next[s] = reads(s) ? s : (s + 1 < n && !opensSegment[s + 1] ? next[s + 1] : -1)
        }
        // Each reading's span: to the midpoints with its neighbours in the segment, at most `coverageSeconds` away,
        // and not beyond the segment's ends.
        var spans = [(from: Double, to: Double)](repeating: (0, 0), count: n)
        // (The segments' first and last times, for the first and last readings of each.)
        var segmentEnd = [Double](repeating: 0, count: n)
        for s in stride(from: n - 1, through: 0, by: -1) {
            segmentEnd[s] = s + 1 < n && !opensSegment[s + 1] ? segmentEnd[s + 1] : times[s]
        }
        var segmentStart = 0.0
        for s in 0..<n {
            if s == 0 || opensSegment[s] { segmentStart = times[s] }
            guard reads(s) else { continue }
            let before = s >= 1 && !opensSegment[s] ? previous[s - 1] : -1
            let after = s + 1 < n && !opensSegment[s + 1] ? next[s + 1] : -1
            let from = before >= 0 ? (times[before] + times[s]) / 2 : segmentStart
            let to = after >= 0 ? (times[s] + times[after]) / 2 : segmentEnd[s]
            spans[s] = (max(from, times[s] - Self.coverageSeconds), min(to, times[s] + Self.coverageSeconds))
        }
        for s in 0..<n {
            let standsFor = readSigmas[s] * (spans[s].to - spans[s].from)
            variance[s] = (s >= 1 ? variance[s - 1] : 0) + standsFor * standsFor
        }
        for s in 1..<max(n, 1) {
            path[s] = path[s - 1]
            seconds[s] = seconds[s - 1]
            guard !opensSegment[s] else { continue }
            // The step's seconds in the spans of the readings either side of it (none lies between).
            func add(_ k: Int) {
                guard k >= 0 else { return }
                let overlap = min(spans[k].to, times[s]) - max(spans[k].from, times[s - 1])
                guard overlap > 0 else { return }
                path[s] += speeds[k] * overlap
                seconds[s] += overlap
            }
            add(previous[s - 1])
            if next[s] != previous[s - 1] { add(next[s]) }
        }
        pathMetres = path
        pathSeconds = seconds
        stateVariance = variance
        self.sigmas = readSigmas
        self.spans = spans
        previousReading = previous
        nextReading = next
    }

    /// The variance of the readings' path over the window from state `low` to state `high` (`low < high`, in one
    /// segment), m²: the readings that stand for time inside it, each for that time.
    func pathVariance(from low: Int, to high: Int, times: [Double]) -> Double {
        let (start, end) = (times[low], times[high])
        func inside(_ k: Int) -> Double { max(0, min(spans[k].to, end) - max(spans[k].from, start)) }
        // The first and last readings whose spans reach into the window.
        var first = previousReading[low]
        if first < 0 || inside(first) == 0 { first = nextReading[low] }
        var last = nextReading[high]
        if last < 0 || inside(last) == 0 { last = previousReading[high] }
        guard first >= 0, last >= 0, first <= last else { return 0 }
        let a = sigmas[first] * inside(first)
        guard first < last else { return a * a }
        let b = sigmas[last] * inside(last)
        // The readings between them stand for time inside the window only.
        let between = last - first >= 2 ? stateVariance[last - 1] - stateVariance[first] : 0
        return a * a + b * b + max(between, 0)
    }

    /// The verdict on the window from state `low` to state `high` (in one segment) of step `step`, which `gate`
    /// judged fast; `longWindow` reaches ``longWindowSeconds(of:)`` before and after the step's middle, and each of
    /// its halves is judged.
    func judge(
        from low: Int, to high: Int, step: Int, longWindow: (low: Int, high: Int), times: [Double],
        solution x: [Double], order: Int, positionVariances: [Double], gate: VehicleGate
    ) -> Verdict {
        let readingsSeconds = pathSeconds[high] - pathSeconds[low]
        guard readingsSeconds >= gate.windowSeconds / 2 else { return .unexplained }
        let mean = (pathMetres[high] - pathMetres[low]) / readingsSeconds
        let sustained = gate.maximumSustainedSpeedMetresPerSecond
        // Backed when the mean is above the sustained speed by more than twice its own noise: a jog's readings at
        // 2.9 m/s averaged 3.003 over one 23 s window by their noise, and the latch that backed held the whole jog (a
        // reviewer's fixes every 2–5 s: 2,609 of 2,610 m on one seed, 58 m on the next). Within it, the net decides.
        let meanSigma = pathVariance(from: low, to: high, times: times).squareRoot() / readingsSeconds
        if mean - 2 * meanSigma > sustained { return .backed }
        // Within four times the noise of each stretch's two ends of the sustained speed (√(σ²ₗₒ + σ²ₕᵢ) per axis).
        func isWithinSustainedSpeed(from low: Int, to high: Int) -> Bool {
            let variance =
                positionVariances.count == times.count ? max(positionVariances[low] + positionVariances[high], 0) : 0
            return !gate.isFaster(
                from: low, to: high, times: times, solution: x, order: order, allowanceMetres: 4 * variance.squareRoot()
            )
        }
        return VehicleGate.netMetres(from: low, to: high, solution: x, order: order)
            <= 1.5 * mean * (times[high] - times[low])
            && isWithinSustainedSpeed(from: low, to: high)
            && isWithinSustainedSpeed(from: longWindow.low, to: step)
            && isWithinSustainedSpeed(from: step - 1, to: longWindow.high)
            ? .explained : .unexplained
    }
}
