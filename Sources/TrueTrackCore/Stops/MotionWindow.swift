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

/// What the trailing window says (``MotionWindow/verdict(now:profile:minimumHorizonSeconds:)``).
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

/// What a horizon of the window adds up to, in metres east and north of the newest entry (the verdict's plane):
/// every position, the first and last thirds' positions, the accuracies and the speeds.
struct WindowTotals {
    /// Entries in the horizon, and in each of its thirds.
    var count: Int
    var third: Int
    var sumEast: Double
    var sumNorth: Double
    var firstEast: Double
    var firstNorth: Double
    var lastEast: Double
    var lastNorth: Double
    var accuracySum: Double
    var speedSum: Double
    var speedCount: Int
    /// The speeds' sum in ``WindowSums`` units when every speed was within their range (then the still and
    /// trigger speeds are compared in integers: exactly, for readings of up to six decimals).
    var speedUnits: Int64?
}

/// A sum of accuracies or speeds as the scan takes it: in ``WindowSums`` units, as the running sums take them,
/// while every value is within ±``WindowSums/largestValue``; in doubles once one is not.
struct ReadingSum {
    var units: Int64 = 0
    var value = 0.0
    var isInUnits = true

    @inline(__always)
    mutating func add(_ x: Double) {
        if x.magnitude <= WindowSums.largestValue { units &+= WindowSums.nearestUnits(x) } else { isInUnits = false }
        value += x
    }

    /// The sum: the units' when every value was within range.
    var total: Double { isInUnits ? Double(units) / WindowSums.unitsPerMetre : value }
}

/// Exact sums over a run of ``MotionWindow`` entries, in fixed-point integers: the sum over any run of the
/// window is the difference of two running sums, in a few instructions whatever the run's length, and exact
/// (integers do not round as a running sum of doubles drifts). Wrapping arithmetic: a difference is right
/// whenever the run's true sum fits in 64 bits, however large the running sums grew before it.
struct WindowSums: Sendable, BitwiseCopyable {
    /// Latitudes in units of 2⁻⁴⁰ degree (0.1 µm).
    var latitude: Int64 = 0
    /// Longitudes unwrapped across ±180° (each entry its predecessor's plus the shorter way round), 2⁻⁴⁰ degree.
    var longitude: Int64 = 0
    /// The magnitudes of the longitude steps from each entry's predecessor, 2⁻⁴⁰ degree: a run whose steps add
    /// up to under 180° (less a few units: positions are truncated to units) lies within 180° of its newest
    /// entry, as the scanning verdict's wrapped offsets assume.
    var longitudeSteps: Int64 = 0
    /// Stated accuracies in micrometres (see ``nearestUnits(_:)``).
    var accuracy: Int64 = 0
    /// Speeds of the entries that have one, micrometres per second.
    var speed: Int64 = 0
    /// The entries that have a speed.
    var speedCount: Int64 = 0
    /// Entries whose values the sums cannot stand for (an accuracy or speed beyond 2³⁰; a latitude beyond ±90° or
    /// a longitude beyond ±180°, which the stop detector refuses before): a run holding one is judged by scanning.
    var unusual: Int64 = 0

    /// 2⁴⁰ units per degree: every latitude is below 2⁷ degrees and every longitude of a run within 180° of its
    /// newest (checked), so a run of the window's 512 entries sums below 2⁵⁷ about its newest.
    static let unitsPerDegree = 1_099_511_627_776.0
    /// 10⁶ units per metre (or metre per second): values up to 2³⁰ (a run of 512 sums below 2⁶⁰).
    static let unitsPerMetre = 1_000_000.0
    /// The largest accuracy or speed the sums stand for, 2³⁰.
    static let largestValue = 1_073_741_824.0
    /// `metres` (or metres per second, at most ``largestValue`` in magnitude) in micrometres, to the nearest.
    /// Decimal units, to the nearest: readings on a decimal grid (accuracies and speeds of up to six decimals, as
    /// every logger writes them) are taken exactly, so a mean on a threshold (speeds averaging exactly the still
    /// speed of 0.7 m/s, accuracies averaging 8.0 m and a horizon of exactly 20 s) is decided as exact
    /// arithmetic decides it. In binary units (2⁻²⁰) or in doubles such a tie fell either way: the scan's double
    /// sums and binary running sums disagreed on 30 % of a reviewer's windows on a 0.1 grid, and a pottering
    /// walk's stop came and went. The scan sums the same units (``ReadingSum``), so both agree exactly.
    @inline(__always)
    static func nearestUnits(_ metres: Double) -> Int64 {
        let units = metres * unitsPerMetre
        return Int64(units < 0 ? units - 0.5 : units + 0.5)
    }

    /// 180° and 360° in units (180 × 2⁴⁰, 360 × 2⁴⁰).
    static let halfTurn: Int64 = 197_912_092_999_680
    static let fullTurn: Int64 = 395_824_185_999_360
}

/// The trailing window of the kinematic verdict: a fixed ring of recent fixes (allocated once), with the exact
/// running sums the verdict reads its runs from (``WindowSums``).
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
    /// The running sums of every entry stored before the `k`-th stored (since the last ``removeAll()``), at
    /// `k & sumsMask`: entry `i` of the window is the `stored - count + i`-th, and the sums over entries `a..<b`
    /// are the sums before `b` less the sums before `a`. Twice the entries' ring, so that the sums through the
    /// newest entry (before the next one) have a slot even when the window is full.
    var sumsBefore: [WindowSums]
    static let sumsMask = 2 * capacity - 1
    /// Entries stored since the last ``removeAll()`` (wrapping).
    var stored = 0
    /// The newest entry's latitude and unwrapped longitude in ``WindowSums`` units (the next entry's longitude
    /// step is taken from it).
    var newestLatitudeUnits: Int64 = 0
    var newestLongitudeUnits: Int64 = 0
    /// The newest usual entry's longitude in ``WindowSums`` units, within ±180°.
    var newestWrappedLongitudeUnits: Int64 = 0
    var head = 0
    var count = 0

    init() {
        entries = Array(
            repeating: Entry(milliseconds: 0, latitude: 0, longitude: 0, accuracy: 0, speed: -1),
            count: MotionWindow.capacity)
        sumsBefore = Array(repeating: WindowSums(), count: MotionWindow.sumsMask + 1)
    }

    mutating func removeAll() {
        head = 0
        count = 0
        stored = 0
        sumsBefore[0] = WindowSums()
    }

    /// Puts back an entry a checkpoint held, after the ones already restored (no thinning: they were thinned
    /// when first appended).
    mutating func restore(_ e: Entry) {
        store(e)
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
        store(e)
    }

    /// Stores `e` after the newest entry (room made by the caller) and adds it to the running sums.
    private mutating func store(_ e: Entry) {
        let slot = (head &+ count) & MotionWindow.mask
        entries[slot] = e
        var sums = sumsBefore[stored & MotionWindow.sumsMask]
        let hasSpeed = e.speed >= 0
        if e.latitude.magnitude <= 90, e.longitude.magnitude <= 180, e.accuracy.magnitude <= WindowSums.largestValue,
            !hasSpeed || e.speed <= WindowSums.largestValue
        {
            let latitude = Int64(e.latitude * WindowSums.unitsPerDegree)
            let longitude = Int64(e.longitude * WindowSums.unitsPerDegree)
            var step: Int64 = 0
            if count > 0 {
                step = longitude &- newestWrappedLongitudeUnits
                if step > WindowSums.halfTurn { step &-= WindowSums.fullTurn }
                if step < -WindowSums.halfTurn { step &+= WindowSums.fullTurn }
            }
            newestLatitudeUnits = latitude
            newestLongitudeUnits = count > 0 ? newestLongitudeUnits &+ step : longitude
            newestWrappedLongitudeUnits = longitude
            sums.latitude &+= latitude
            sums.longitude &+= newestLongitudeUnits
            sums.longitudeSteps &+= Int64(step.magnitude)
            sums.accuracy &+= WindowSums.nearestUnits(e.accuracy)
            if hasSpeed {
                sums.speed &+= WindowSums.nearestUnits(e.speed)
                sums.speedCount &+= 1
            }
        } else {
            sums.unusual &+= 1
        }
        stored &+= 1
        sumsBefore[stored & MotionWindow.sumsMask] = sums
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
    /// still radius used (∞ when the window is too short to judge): the rules are
    /// ``verdictByScanning(now:profile:minimumHorizonSeconds:)``'s, the horizon's totals read from the running
    /// sums (``WindowSums``) in two binary searches and a few differences instead of a pass over up to 300 s of
    /// entries (the stop detector spent 73 % of its time in that pass: 1,480 instructions per fix at 1 Hz).
    /// Both sum the accuracies and speeds in the same decimal units (``WindowSums/nearestUnits(_:)``), so they
    /// agree on the verdict, its start and its radius exactly, and on the centre to within the position's unit
    /// (0.1 µm; tests compare them on generated tracks, readings on a 0.1 grid among them). About a pole, when
    /// the window holds an entry the sums cannot stand for, or when the horizon spans 180° of longitude, the scan
    /// judges.
    func verdict(now: Int64, profile: StopDetectionProfile, minimumHorizonSeconds: Double = 0)
        -> KinematicVerdict
    {
        verdictFromSums(now: now, profile: profile, minimumHorizonSeconds: minimumHorizonSeconds)
            ?? verdictByScanning(now: now, profile: profile, minimumHorizonSeconds: minimumHorizonSeconds)
    }

    /// ``verdict(now:profile:minimumHorizonSeconds:)`` from the running sums, or nil when they cannot stand for
    /// the horizon (an empty window, about a pole, an unusual entry, longitudes more than 180° apart).
    func verdictFromSums(now: Int64, profile: StopDetectionProfile, minimumHorizonSeconds: Double = 0)
        -> KinematicVerdict?
    {
        guard count > 0 else { return nil }
        return entries.withUnsafeBufferPointer { ring in
            sumsBefore.withUnsafeBufferPointer { before in
                verdictFromSums(
                    now: now, profile: profile, minimumHorizonSeconds: minimumHorizonSeconds, ring: ring,
                    before: before)
            }
        }
    }

    /// ``verdictFromSums(now:profile:minimumHorizonSeconds:)`` over the ring's and the sums' storage.
    private func verdictFromSums(
        now: Int64, profile: StopDetectionProfile, minimumHorizonSeconds: Double, ring: UnsafeBufferPointer<Entry>,
        before: UnsafeBufferPointer<WindowSums>
    ) -> KinematicVerdict? {
        let head = self.head, count = self.count, oldest = stored &- count
        @inline(__always) func entry(_ i: Int) -> Entry { ring[(head &+ i) & MotionWindow.mask] }
        /// The running sums before entry `i` (`count`: through the newest).
        @inline(__always) func sums(before i: Int) -> UnsafePointer<WindowSums> {
            before.baseAddress.unsafelyUnwrapped + ((oldest &+ i) & MotionWindow.sumsMask)
        }
        let through = sums(before: count)
        // The oldest entry whose age at `now` passes `isWithin`, or `count` when none does (entries are in time
        // order: ages fall toward the newest). Halving the whole window cost fewer instructions than galloping
        // back from the newest, though a horizon is usually a small part of it.
        @inline(__always) func oldestWithin(_ isWithin: (Int64) -> Bool) -> Int {
            var low = 0, high = count
            while low < high {
                let middle = (low &+ high) >> 1
                if isWithin(now - entry(middle).milliseconds) { high = middle } else { low = middle &+ 1 }
            }
            return low
        }
        let last = entry(count - 1)
        let ref = Offsets(latitude: last.latitude, longitude: last.longitude)
        guard !ref.isPolar, through.pointee.unusual &- sums(before: 0).pointee.unusual == 0 else { return nil }
        let base = Int64(profile.windowSeconds * 1000)
        let baseFirst = oldestWithin { $0 <= base }
        let horizonSeconds = MotionWindow.horizonSeconds(
            baseAccuracySum: Double(through.pointee.accuracy &- sums(before: baseFirst).pointee.accuracy)
                / WindowSums.unitsPerMetre,
            baseCount: count - baseFirst, profile: profile, minimumHorizonSeconds: minimumHorizonSeconds)
        var start = min(oldestWithin { Double($0) / 1000 <= horizonSeconds }, count - 1)
        if start > 0,
            MotionWindow.takesOneMore(
                now: now, start: entry(start).milliseconds, beforeStart: entry(start - 1).milliseconds,
                horizonSeconds: horizonSeconds)
        {
            start -= 1
        }
        // Every entry within 180° of longitude of the newest, as the scan's wrapped offsets take them (with a few
        // units to spare: truncated to units, a difference a hair over 180° in doubles read a unit under it).
        guard
            through.pointee.longitudeSteps &- sums(before: start + 1).pointee.longitudeSteps
                < WindowSums.halfTurn - 16
        else { return nil }
        let n = count - start, third = max(1, n / 3)
        let first = sums(before: start), firstEnd = sums(before: start + third), lastStart = sums(before: count - third)
        let eastPerUnit = ref.cosLatitude * Offsets.metresPerDegree / WindowSums.unitsPerDegree
        let northPerUnit = Offsets.metresPerDegree / WindowSums.unitsPerDegree
        /// East and north metres summed over the `k` entries between two running sums.
        @inline(__always) func east(_ from: UnsafePointer<WindowSums>, _ to: UnsafePointer<WindowSums>, _ k: Int)
            -> Double
        {
            Double(to.pointee.longitude &- from.pointee.longitude &- Int64(k) &* newestLongitudeUnits) * eastPerUnit
        }
        @inline(__always) func north(_ from: UnsafePointer<WindowSums>, _ to: UnsafePointer<WindowSums>, _ k: Int)
            -> Double
        {
            Double(to.pointee.latitude &- from.pointee.latitude &- Int64(k) &* newestLatitudeUnits) * northPerUnit
        }
        return MotionWindow.judge(
            WindowTotals(
                count: n, third: third, sumEast: east(first, through, n), sumNorth: north(first, through, n),
                firstEast: east(first, firstEnd, third), firstNorth: north(first, firstEnd, third),
                lastEast: east(lastStart, through, third), lastNorth: north(lastStart, through, third),
                accuracySum: Double(through.pointee.accuracy &- first.pointee.accuracy) / WindowSums.unitsPerMetre,
                speedSum: Double(through.pointee.speed &- first.pointee.speed) / WindowSums.unitsPerMetre,
                speedCount: Int(through.pointee.speedCount &- first.pointee.speedCount),
                speedUnits: through.pointee.speed &- first.pointee.speed),
            reference: ref, now: now, since: entry(start).milliseconds, horizonSeconds: horizonSeconds,
            profile: profile)
    }

    /// ``verdict(now:profile:minimumHorizonSeconds:)`` by scanning the entries of the horizon: the definition
    /// the running sums stand in for, and what judges a window they cannot (about a pole, holding an unusual
    /// entry, or spanning 180° of longitude).
    ///
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
    func verdictByScanning(now: Int64, profile: StopDetectionProfile, minimumHorizonSeconds: Double = 0)
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
        let base = Int64(profile.windowSeconds * 1000)
        var baseAccuracySum = ReadingSum(), baseCount = 0
        for i in stride(from: count - 1, through: 0, by: -1) {
            let x = entry(i)
            if now - x.milliseconds > base { break }
            baseAccuracySum.add(x.accuracy)
            baseCount += 1
        }
        let horizonSeconds = MotionWindow.horizonSeconds(
            baseAccuracySum: baseAccuracySum.total, baseCount: baseCount, profile: profile,
            minimumHorizonSeconds: minimumHorizonSeconds)
        // From the newest back (the ring holds up to the cap; the horizon is usually much shorter).
        var start = count - 1
        while start > 0 && Double(now - entry(start - 1).milliseconds) / 1000 <= horizonSeconds { start -= 1 }
        if start > 0,
            MotionWindow.takesOneMore(
                now: now, start: entry(start).milliseconds, beforeStart: entry(start - 1).milliseconds,
                horizonSeconds: horizonSeconds)
        {
            start -= 1
        }
        let used = start..<count
        let n = used.count
        let ref = Offsets(latitude: last.latitude, longitude: last.longitude)
        // One pass: the mean position, the first and last thirds' centroids, the accuracy and speed sums.
        let third = max(1, n / 3)
        let firstEnd = start + third, lastStart = count - third
        // (The plane's kind asked once, each kind its own loop: asked per fix of the window, it cost the stop
        // detector's benchmark 137–245 instructions per fix.)
        @inline(__always) func sums(_ metres: (Entry) -> (east: Double, north: Double)) -> (
            sumEast: Double, sumNorth: Double, firstEast: Double, firstNorth: Double, lastEast: Double,
            lastNorth: Double, accuracySum: ReadingSum, speedSum: ReadingSum, speedCount: Int
        ) {
            var sumEast = 0.0, sumNorth = 0.0, firstEast = 0.0, firstNorth = 0.0, lastEast = 0.0, lastNorth = 0.0
            var accuracySum = ReadingSum(), speedSum = ReadingSum(), speedCount = 0
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
                accuracySum.add(x.accuracy)
                if x.speed >= 0 {
                    speedSum.add(x.speed)
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
        return MotionWindow.judge(
            WindowTotals(
                count: n, third: third, sumEast: sumEast, sumNorth: sumNorth, firstEast: firstEast,
                firstNorth: firstNorth, lastEast: lastEast, lastNorth: lastNorth, accuracySum: accuracySum.total,
                speedSum: speedSum.total, speedCount: speedCount, speedUnits: speedSum.isInUnits ? speedSum.units : nil),
            reference: ref, now: now, since: entry(start).milliseconds, horizonSeconds: horizonSeconds,
            profile: profile)
    }

    /// The horizon judged: the base window, stretched until the slowest movement of interest would leave the
    /// still radius of the base window's mean accuracy (see ``StopDetectionProfile/slowestMovementMetresPerSecond``),
    /// and at least `minimumHorizonSeconds` (a sparse logger's horizon holds three fixes:
    /// ``StopDetector/sparseHorizonSeconds``).
    @inline(__always)
    static func horizonSeconds(
        baseAccuracySum: Double, baseCount: Int, profile: StopDetectionProfile, minimumHorizonSeconds: Double
    ) -> Double {
        let baseRadius =
            profile.stillRadiusBaseMetres
            + profile.stillRadiusAccuracyFactor * baseAccuracySum / Double(max(baseCount, 1))
        let slowest = profile.slowestMovementMetresPerSecond
        let stretched = slowest.isFinite && slowest > 0 ? baseRadius / slowest : profile.horizonCapSeconds
        return max(min(max(profile.windowSeconds, stretched), profile.horizonCapSeconds), minimumHorizonSeconds)
    }

    /// Whether the entry just past the horizon joins it. A logger whose steps fit the horizon only twice with room
    /// to spare (a fix every 4.7–5.25 s against a 14 s horizon: a 10 s span, under the shortest span judged) never
    /// had a verdict, and a phone still for 10 minutes at 5 s read as moving all along (a reviewer's): the fix just
    /// past the horizon joins when the horizon's span is short of ¾ of it and that fix lies within half a horizon
    /// more.
    @inline(__always)
    static func takesOneMore(now: Int64, start: Int64, beforeStart: Int64, horizonSeconds: Double) -> Bool {
        Double(now - start) / 1000 < 0.75 * horizonSeconds && Double(now - beforeStart) / 1000 <= 1.5 * horizonSeconds
    }

    /// The verdict from a horizon's totals (``verdictByScanning(now:profile:minimumHorizonSeconds:)`` says how).
    @inline(__always)
    static func judge(
        _ t: WindowTotals, reference ref: Offsets, now: Int64, since: Int64, horizonSeconds: Double,
        profile: StopDetectionProfile
    ) -> KinematicVerdict {
        let n = t.count, speedSum = t.speedSum, speedCount = t.speedCount
        let k = Double(max(n, 1))
        let centre = ref.point(east: t.sumEast / k, north: t.sumNorth / k)
        let span = Double(now - since) / 1000
        guard n >= 3, span >= 0.75 * horizonSeconds else {
            return KinematicVerdict(verdict: .uncertain, centre: centre, since: now, radius: .infinity)
        }
        let radius = profile.stillRadiusBaseMetres + profile.stillRadiusAccuracyFactor * t.accuracySum / Double(n)
        let kt = Double(t.third)
        let a = (east: t.firstEast / kt, north: t.firstNorth / kt)
        let b = (east: t.lastEast / kt, north: t.lastNorth / kt)
        let net = ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north)).squareRoot()
        let hasSpeed = 2 * speedCount >= n
        /// Whether the speeds' mean is below `threshold`: in integers when the speeds and the threshold are in
        /// the units' range (exact for readings of up to six decimals), else in doubles.
        @inline(__always) func meanSpeedIsBelow(_ threshold: Double) -> Bool {
            if let units = t.speedUnits, threshold.magnitude <= WindowSums.largestValue {
                // (Below 2⁶⁰ and 2³⁰ × 10⁶ × 512 < 2⁵⁹: no overflow.)
                return units < WindowSums.nearestUnits(threshold) * Int64(speedCount)
            }
            return speedSum / Double(speedCount) < threshold
        }
        let slow = !hasSpeed || meanSpeedIsBelow(profile.stillSpeedMetresPerSecond)
        if net <= radius && slow {
            return KinematicVerdict(verdict: .still, centre: centre, since: since, radius: radius)
        }
        if net > radius && (!hasSpeed || !slow) {
            return KinematicVerdict(verdict: .moving, centre: centre, since: since, radius: radius)
        }
        if hasSpeed && !meanSpeedIsBelow(profile.triggerSpeedMetresPerSecond) {
            return KinematicVerdict(verdict: .moving, centre: centre, since: since, radius: radius)
        }
        return KinematicVerdict(verdict: .uncertain, centre: centre, since: since, radius: radius)
    }
}
