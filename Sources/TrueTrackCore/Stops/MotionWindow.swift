#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The tri-state motion verdict: only a confident ``MotionGate/Verdict/still`` arms a stop; uncertain is never
/// rounded to "not moving". The same type as the tracker's motion gate verdict.
public typealias MotionVerdict = MotionGate.Verdict

/// Small-offset conversions between degrees and metres around a reference point (equirectangular on the mean
/// sphere): exact enough over the few hundred metres a stop or a window spans. About a pole (a reference from
/// ``LocalFrame/trackingPolarLatitudeDegrees``, 80°) the tracker's polar frame anchored there instead: the
/// equirectangular plane's east scale follows the reference's latitude, and a stop 3 m from the North Pole was
/// centred 1.0 m off with a radius of 12.1 m (3.2 m at 45°).
@usableFromInline
struct Offsets: Sendable, Hashable, BitwiseCopyable {
    @usableFromInline static let metresPerDegree = Ellipsoid.meanRadiusMetres * .pi / 180
    @usableFromInline var latitude: Double
    @usableFromInline var longitude: Double
    @usableFromInline var cosLatitude: Double

    @usableFromInline
    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.cosLatitude = cos(latitude * .pi / 180)
    }

    /// East and north metres of a point from the reference.
    @usableFromInline
    func metres(latitude lat: Double, longitude lon: Double) -> (east: Double, north: Double) {
        if _slowPath(isPolar) { return polarMetres(latitude: lat, longitude: lon) }
        return equirectangularMetres(latitude: lat, longitude: lon)
    }

    /// ``metres(latitude:longitude:)`` away from the poles, for a loop that asked ``isPolar`` once.
    @usableFromInline @inline(__always)
    func equirectangularMetres(latitude lat: Double, longitude lon: Double) -> (east: Double, north: Double) {
        var dl = lon - longitude
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        return (dl * cosLatitude * Offsets.metresPerDegree, (lat - latitude) * Offsets.metresPerDegree)
    }

    /// The point halfway between `a` and `b` (on the plane around `a`).
    @usableFromInline
    static func midpoint(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double))
        -> (latitude: Double, longitude: Double)
    {
        let plane = Offsets(latitude: a.latitude, longitude: a.longitude)
        let offset = plane.metres(latitude: b.latitude, longitude: b.longitude)
        return plane.point(east: offset.east / 2, north: offset.north / 2)
    }

    /// The point `east`, `north` metres from the reference.
    @usableFromInline
    func point(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        if _slowPath(isPolar) { return polarPoint(east: east, north: north) }
        let lat = latitude + north / Offsets.metresPerDegree
        var lon = longitude + (cosLatitude > 1e-9 ? east / (cosLatitude * Offsets.metresPerDegree) : 0)
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return (min(max(lat, -90), 90), lon)
    }

    /// Whether the reference lies from ``LocalFrame/trackingPolarLatitudeDegrees`` on, where the conversions
    /// take the tracker's polar frame.
    @usableFromInline
    var isPolar: Bool { abs(latitude) >= LocalFrame.trackingPolarLatitudeDegrees }

    /// The tracker's polar frame anchored at the reference, in which the conversions about a pole are made (a loop
    /// over a window makes it once).
    @usableFromInline
    var polarFrame: LocalFrame { LocalFrame.tracking(anchor: (latitude, longitude)) }

    /// ``metres(latitude:longitude:)`` about a pole: in ``polarFrame`` (made per call; out of line, so that the
    /// equirectangular path stays as short as it was).
    @usableFromInline @inline(never)
    func polarMetres(latitude lat: Double, longitude lon: Double) -> (east: Double, north: Double) {
        polarFrame.project(latitude: lat, longitude: lon)
    }

    /// ``point(east:north:)`` about a pole (see ``polarMetres(latitude:longitude:)``).
    @usableFromInline @inline(never)
    func polarPoint(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        polarFrame.unproject(east: east, north: north)
    }
}

/// Limits of the stop detector's trailing window.
public enum MotionWindowLimits {
    /// The longest horizon the kinematic verdict may look back, seconds (300: five minutes of fixes thinned
    /// to at most 480 entries, 0.625 s apart; a longer look-back would make a stop wait minutes to be seen).
    public static let longestHorizonSeconds = 300.0
}

/// What the trailing window says (``MotionWindow/verdict(now:profile:)``).
struct KinematicVerdict {
    /// Still, moving or uncertain.
    var verdict: MotionVerdict
    /// The window's mean position, when it holds a fix.
    var centre: (latitude: Double, longitude: Double)?
    /// The time of the horizon's first entry (`now` when the window is too short to judge).
    var since: Int64
    /// The still radius used, metres (∞ when the window is too short to judge).
    var radius: Double
}

/// The trailing window of the kinematic verdict: a fixed ring of recent fixes (allocated once).
struct MotionWindow: Sendable {
    struct Entry: Sendable, BitwiseCopyable {
        var milliseconds: Int64
        var latitude: Double
        var longitude: Double
        var accuracy: Double
        /// Negative when the fix has no usable speed.
        var speed: Double
        /// Distance the tracker counted on this fix (and on fixes thinned out after it), metres.
        var counted: Double = 0
    }

    /// A power of two: a slot is `(head + i) & mask`.
    static let capacity = 512
    static let mask = capacity - 1
    var entries: [Entry]
    var head = 0
    var count = 0

    init() {
        entries = Array(
            repeating: Entry(milliseconds: 0, latitude: 0, longitude: 0, accuracy: 0, speed: -1),
            count: MotionWindow.capacity)
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }

    /// Puts back an entry a checkpoint held, after the ones already restored (no thinning: they were thinned
    /// when first appended).
    mutating func restore(_ e: Entry) {
        entries[(head &+ count) & MotionWindow.mask] = e
        count += 1
    }

    func entry(_ i: Int) -> Entry { entries[(head &+ i) & MotionWindow.mask] }

    var newest: Entry? { count > 0 ? entry(count - 1) : nil }

    /// Appends a fix, dropping entries older than `span` milliseconds before it. Fixes closer than
    /// `span / 480` to the newest entry are not stored, so a window holds at most about 480 entries whatever
    /// the receiver's rate.
    mutating func append(_ e: Entry, spanMilliseconds span: Int64) {
        while count > 0 && e.milliseconds - entry(0).milliseconds > span {
            head = (head &+ 1) & MotionWindow.mask
            count -= 1
        }
        if let last = newest, e.milliseconds - last.milliseconds < span / 480 {
            // Thinned out: its counted distance still belongs to the window.
            entries[(head &+ count &- 1) & MotionWindow.mask].counted += e.counted
            return
        }
        if count == MotionWindow.capacity {
            head = (head &+ 1) & MotionWindow.mask
            count -= 1
        }
        entries[(head &+ count) & MotionWindow.mask] = e
        count += 1
    }

    /// The distance the tracker counted on the entries newer than `milliseconds` (and the fixes thinned into
    /// them), metres.
    func countedMetres(after milliseconds: Int64) -> Double {
        var sum = 0.0
        var i = count - 1
        while i >= 0 && entry(i).milliseconds > milliseconds {
            sum += entry(i).counted
            i -= 1
        }
        return sum
    }

    /// The kinematic verdict at `now`, the window's mean position, the start of the horizon judged and the
    /// still radius used (∞ when the window is too short to judge).
    ///
    /// - still: the window covers at least ¾ of its horizon with ≥ 3 fixes (so just after a start or a gap a
    ///   stretched horizon is judged on ¾ of its length); the net displacement between the
    ///   mean positions of its first and last thirds is within the still radius (base + factor × mean
    ///   accuracy); and, when at least half its fixes carry a speed, their mean speed is under the still speed.
    /// - moving: the window is covered and the net displacement exceeds the still radius while the mean speed
    ///   (if known) is not under the still speed.
    /// - uncertain: otherwise (short window after a gap, speed and displacement disagreeing).
    ///
    /// The window judged is the trailing horizon described at
    /// ``StopDetectionProfile/slowestMovementMetresPerSecond``; `since` is the time of its first entry.
    func verdict(now: Int64, profile: StopDetectionProfile, minimumHorizonSeconds: Double = 0)
        -> KinematicVerdict
    {
        guard count > 0, let last = newest else {
            return KinematicVerdict(verdict: .uncertain, centre: nil, since: now, radius: .infinity)
        }
        // The loops read the ring through its buffer (no bounds or uniqueness checks; slots are masked).
        return entries.withUnsafeBufferPointer { ring in
            verdict(now: now, profile: profile, minimumHorizonSeconds: minimumHorizonSeconds, last: last, ring: ring)
        }
    }

    /// ``verdict(now:profile:)`` over the ring's storage.
    private func verdict(
        now: Int64, profile: StopDetectionProfile, minimumHorizonSeconds: Double, last: Entry,
        ring: UnsafeBufferPointer<Entry>
    ) -> KinematicVerdict {
        let head = self.head, count = self.count
        func entry(_ i: Int) -> Entry { ring[(head &+ i) & MotionWindow.mask] }
        // The horizon: the base window, stretched until the slowest movement of interest would leave the
        // still radius of the base window's accuracy (see StopDetectionProfile.slowestMovementMetresPerSecond).
        let base = Int64(profile.windowSeconds * 1000)
        var baseAccuracySum = 0.0, baseCount = 0
        for i in stride(from: count - 1, through: 0, by: -1) {
            let x = entry(i)
            if now - x.milliseconds > base { break }
            baseAccuracySum += x.accuracy
            baseCount += 1
        }
        let baseRadius =
            profile.stillRadiusBaseMetres
            + profile.stillRadiusAccuracyFactor * baseAccuracySum / Double(max(baseCount, 1))
        let slowest = profile.slowestMovementMetresPerSecond
        let stretched = slowest.isFinite && slowest > 0 ? baseRadius / slowest : profile.horizonCapSeconds
        // A sparse logger's horizon holds three fixes (``StopDetector/sparseHorizonSeconds``).
        let horizonSeconds = max(
            min(max(profile.windowSeconds, stretched), profile.horizonCapSeconds), minimumHorizonSeconds)
        // From the newest back (the ring holds up to the cap; the horizon is usually much shorter).
        var start = count - 1
        while start > 0 && Double(now - entry(start - 1).milliseconds) / 1000 <= horizonSeconds { start -= 1 }
        // A logger whose steps fit the horizon only twice with room to spare (a fix every 4.7–5.25 s against a 14 s
        // horizon: a 10 s span, under the shortest span asked below) never had a verdict, and a phone still for
        // 10 minutes at 5 s read as moving all along (a reviewer's): the fix just past the horizon joins, if it
        // lies within half a horizon more.
        let shortestSpanSeconds = 0.75 * horizonSeconds
        if start > 0, Double(now - entry(start).milliseconds) / 1000 < shortestSpanSeconds,
            Double(now - entry(start - 1).milliseconds) / 1000 <= 1.5 * horizonSeconds
        {
            start -= 1
        }
        let used = start..<count
        let n = used.count
        let ref = Offsets(latitude: last.latitude, longitude: last.longitude)
        // One pass: the mean position, the first and last thirds' centroids, the accuracy and speed sums (the
        // same additions in the same order as separate passes, so the same values bit for bit).
        let third = max(1, n / 3)
        let firstEnd = start + third, lastStart = count - third
        // (The plane's kind asked once, each kind its own loop: asked per fix of the window, it cost the stop
        // detector's benchmark 137–245 instructions per fix.)
        @inline(__always) func sums(_ metres: (Entry) -> (east: Double, north: Double)) -> (
            sumEast: Double, sumNorth: Double, firstEast: Double, firstNorth: Double, lastEast: Double,
            lastNorth: Double, accuracySum: Double, speedSum: Double, speedCount: Int
        ) {
            var sumEast = 0.0, sumNorth = 0.0, firstEast = 0.0, firstNorth = 0.0, lastEast = 0.0, lastNorth = 0.0
            var accuracySum = 0.0, speedSum = 0.0, speedCount = 0
            for i in used {
                let x = entry(i)
                let m = metres(x)
                sumEast += m.east
                sumNorth += m.north
                if i < firstEnd {
                    firstEast += m.east
                    firstNorth += m.north
                }
                if i >= lastStart {
                    lastEast += m.east
                    lastNorth += m.north
                }
                accuracySum += x.accuracy
                if x.speed >= 0 {
                    speedSum += x.speed
                    speedCount += 1
                }
            }
            return (sumEast, sumNorth, firstEast, firstNorth, lastEast, lastNorth, accuracySum, speedSum, speedCount)
        }
        // (About a pole the frame is made once for the window, not per fix. The polar branch builds it inside its
        // own closure: an optional frame tested on the common path cost the stop detector 111 instructions per fix.)
        let (sumEast, sumNorth, firstEast, firstNorth, lastEast, lastNorth, accuracySum, speedSum, speedCount) =
            _slowPath(ref.isPolar)
            ? {
                let frame = ref.polarFrame
                return sums { frame.project(latitude: $0.latitude, longitude: $0.longitude) }
            }()
            : sums { ref.equirectangularMetres(latitude: $0.latitude, longitude: $0.longitude) }
        let k = Double(max(n, 1))
        let centre = ref.point(east: sumEast / k, north: sumNorth / k)
        let span = Double(now - entry(start).milliseconds) / 1000
        guard n >= 3, span >= shortestSpanSeconds else {
            return KinematicVerdict(verdict: .uncertain, centre: centre, since: now, radius: .infinity)
        }
        let radius = profile.stillRadiusBaseMetres + profile.stillRadiusAccuracyFactor * accuracySum / Double(n)
        let kt = Double(third)
        let a = (east: firstEast / kt, north: firstNorth / kt), b = (east: lastEast / kt, north: lastNorth / kt)
        let net = ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north)).squareRoot()
        let hasSpeed = 2 * speedCount >= n
        let slow = !hasSpeed || speedSum / Double(speedCount) < profile.stillSpeedMetresPerSecond
        if net <= radius && slow {
            return KinematicVerdict(verdict: .still, centre: centre, since: entry(start).milliseconds, radius: radius)
        }
        if net > radius && (!hasSpeed || !slow) {
            return KinematicVerdict(verdict: .moving, centre: centre, since: entry(start).milliseconds, radius: radius)
        }
        if hasSpeed && speedSum / Double(speedCount) >= profile.triggerSpeedMetresPerSecond {
            return KinematicVerdict(verdict: .moving, centre: centre, since: entry(start).milliseconds, radius: radius)
        }
        return KinematicVerdict(verdict: .uncertain, centre: centre, since: entry(start).milliseconds, radius: radius)
    }
}
