import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// The forward still stretch by scatter (``StillScatter``): a phone at rest whose error drifts and which reads no
/// speed counts (almost) nothing once its fixes have scattered within their stated accuracy for minutes, and a walk
/// that leaves such a rest is counted.
@Suite struct StillScatterTests {
    /// Fixes every `every` seconds for `seconds`, without speed, stating `accuracy` (metres, the 68 % radius), whose
    /// error is Gauss–Markov of σ 5 m per axis and time constant `tau` (seconds), seeded; from `walkFrom` seconds on
    /// the truth walks north at `speed` m/s.
    static func fixes(
        seconds: Int, every: Int = 1, tau: Double, accuracy: Double = 7.5, walkFrom: Int = .max, speed: Double = 0,
        seed: UInt64 = 7
    ) -> [Fix] {
        var random = SplitMix64(seed: seed)
        let sigma = 5.0, phi = exp(-Double(every) / tau), step = sigma * (1 - phi * phi).squareRoot()
        var errorNorth = sigma * random.gaussian(), errorEast = sigma * random.gaussian()
        var fixes: [Fix] = []
        for t in stride(from: 0, through: seconds, by: every) {
            let north = t > walkFrom ? speed * Double(t - walkFrom) : 0
            fixes.append(TrackerTests.fix(Double(t), north: north + errorNorth, east: errorEast, accuracy: accuracy))
            errorNorth = phi * errorNorth + step * random.gaussian()
            errorEast = phi * errorEast + step * random.gaussian()
        }
        return fixes
    }

    /// Metres a walking tracker counts on `fixes`, what it still holds at the end included.
    static func counted(_ fixes: [Fix]) -> Double { SparseStepTests.counted(fixes, profile: .walking) }

    /// Half an hour at a desk whose error drifts with a 30 s time constant, at 1 Hz and every 5 s: without the still
    /// stretch the net-displacement gate opened on the drift (430 / 145 m per 10 minutes over three generated hours
    /// at 1 / 5 s; on this seed 1,258 / 389 m per half hour when it was written, 139 / 23 with it: the history
    /// behind the limits): what is left is the stretch's first two minutes and the drift's excursions beyond its edge.
    @Test func aDriftingDeskWithoutSpeedCountsAlmostNothing() {
        let dense = Self.counted(Self.fixes(seconds: 1800, tau: 30))
        let sparse = Self.counted(Self.fixes(seconds: 1800, every: 5, tau: 30))
        #expect(dense < 250, "1 Hz desk: \(dense) m per half hour")
        #expect(sparse < 100, "5 s desk: \(sparse) m per half hour")
    }

    /// An hour at rest (an error drifting over 5 minutes, which the window gate holds still), then 10 minutes
    /// walking at 1.2 m/s (720 m): the walk's first fixes lie beyond the stretch's edge and the stretch stops
    /// reading still as the walk spreads it, so the walk counts about as it did without the rule (at most the edge's
    /// radius, ~15 m, may be lost).
    @Test func aWalkAfterAnHourAtRestIsCounted() {
        let fixes = Self.fixes(seconds: 4200, tau: 300, walkFrom: 3600, speed: 1.2)
        let withRule = Self.counted(fixes)
        #expect(withRule > 690 && withRule < 780, "\(withRule) m of 720")
    }

    /// A fix without a stated accuracy is never judged: the same desk with its accuracies missing opens no stretch.
    @Test func fixesWithoutAnAccuracyAreNeverJudgedStill() {
        let stated = Self.fixes(seconds: 900, tau: 30)
        let unstated = stated.map { fix in
            try! Fix(
                timestamp: fix.timestamp, latitude: fix.latitude, longitude: fix.longitude,
                horizontalAccuracyMetres: nil)
        }
        var tracker = Tracker(profile: .walking)
        _ = tracker.process(batch: unstated)
        #expect(tracker.stillScatter.startMilliseconds == .min)
        var control = Tracker(profile: .walking)
        _ = control.process(batch: stated)
        #expect(control.stillScatter.startMilliseconds != .min, "the same desk stating its accuracy opens a stretch")
    }

    /// A checkpoint taken inside a still stretch resumes exactly: the stretch is part of the tracker's bytes.
    @Test func aCheckpointInsideAStillStretchResumesExactly() throws {
        let fixes = Self.fixes(seconds: 1200, tau: 30)
        var whole = Tracker(profile: .walking)
        let expected = whole.process(batch: fixes)
        var first = Tracker(profile: .walking)
        _ = first.process(batch: Array(fixes[..<700]))
        #expect(first.stillScatter.edgeBound >= 0, "the stretch reads still at the checkpoint")
        var resumed = try Tracker(resuming: first.checkpoint())
        let rest = resumed.process(batch: Array(fixes[700...]))
        #expect(rest == Array(expected[700...]))
    }

    /// The scatter's bookkeeping: white noise at its stated accuracy reads still once the stretch spans
    /// ``StillScatter/minimumSpanSeconds``, with an edge near ``StillScatter/edgeChiSquared``; a walk at 0.7 m/s
    /// under the same noise never does.
    @Test func whiteNoiseAtItsStatedAccuracyReadsStillAndAWalkDoesNot() {
        var random = SplitMix64(seed: 3)
        var desk = StillScatter(), walk = StillScatter()
        let variance = 25.0
        var deskReadStill = false, walkReadStill = false
        for t in 0...600 {
            let now = Int64(t) * 1000
            let e = 5 * random.gaussian(), n = 5 * random.gaussian()
            desk.add(east: e, north: n, variance: variance, now: now, anchoredAt: -1)
            walk.add(east: e, north: n + 0.7 * Double(t), variance: variance, now: now, anchoredAt: -1)
            if Double(t) < StillScatter.minimumSpanSeconds { #expect(desk.edgeBound < 0) }
            deskReadStill = deskReadStill || desk.edgeBound >= 0
            walkReadStill = walkReadStill || walk.edgeBound >= 0
        }
        #expect(deskReadStill)
        #expect(
            desk.edgeBound > 0.7 * StillScatter.edgeChiSquared && desk.edgeBound < 1.3 * StillScatter.edgeChiSquared)
        #expect(!walkReadStill)
        // A fix without an accuracy ends the stretch.
        desk.add(east: 0, north: 0, variance: 0, now: 601_000, anchoredAt: -1)
        #expect(desk.edgeBound < 0 && desk.startMilliseconds == .min)
    }

    /// Fixes every `cadence` seconds for `seconds` along `position(t)` (east, north), without speed, whose error is
    /// Gauss–Markov of `sigma` m per axis and time constant `tau` s plus white noise of `white` m, stating `stated`
    /// times the honest 68 % radius; seeded.
    static func logger(
        seconds: Double, cadence: Double, sigma: Double, tau: Double, white: Double = 0, stated: Double = 1,
        seed: UInt64, position: (Double) -> (Double, Double) = { _ in (0, 0) }
    ) -> [Fix] {
        var random = SplitMix64(seed: seed)
        let a = exp(-cadence / tau), q = sigma * (1 - a * a).squareRoot()
        var drift = (sigma * random.gaussian(), sigma * random.gaussian())
        let accuracy = 1.509592 * (sigma * sigma + white * white).squareRoot() * stated
        return stride(from: 0.0, through: seconds, by: cadence).map { t in
            drift = (a * drift.0 + q * random.gaussian(), a * drift.1 + q * random.gaussian())
            let (e, n) = position(t)
            return TrackerTests.fix(
                t, north: n + drift.1 + white * random.gaussian(), east: e + drift.0 + white * random.gaussian(),
                accuracy: accuracy)
        }
    }

    /// Round a `width` × `height` m rectangle at `speed` m/s, from its south-west corner eastwards.
    static func laps(width: Double, height: Double, speed: Double) -> (Double) -> (Double, Double) {
        { t in
            let s = (t * speed).truncatingRemainder(dividingBy: 2 * (width + height))
            if s < width { return (s, 0) }
            if s < width + height { return (width, s - width) }
            if s < 2 * width + height { return (2 * width + height - s, height) }
            return (0, 2 * (width + height) - s)
        }
    }

    /// Feeds every fix to a stretch of its own (as the tracker feeds those whose net displacement decides) and
    /// returns whether the stretch ever read as a course walked round (``StillScatter/comesBack``).
    static func everComesBack(_ fixes: [Fix]) -> Bool {
        var stretch = StillScatter()
        var cameBack = false
        for fix in fixes {
            guard case .metres(let accuracy) = fix.horizontalAccuracy else { continue }
            // (TrackerTests.fix's plane, inverted.)
            let n = (fix.latitude - 49) * TrackerTests.metresPerDegree
            let e = (fix.longitude - 11) * TrackerTests.metresPerDegree * 0.656
            stretch.add(
                east: e, north: n, variance: MeasurementNoise.perAxisVariance(radius68: accuracy),
                now: fix.timestamp.millisecondsSince1970, anchoredAt: .min)
            cameBack = cameBack || stretch.comesBack
        }
        return cameBack
    }

    @Test(arguments: [(1.0, 3.0, 8.0, 31 as UInt64), (5.0, 0.0, 10.0, 32), (1.0, 3.0, 8.0, 33)])
    func lapsOfASmallYardUnderCorrelatedNoiseCount(cadence: Double, white: Double, sigma: Double, seed: UInt64) {
        // Twenty minutes round a 40 × 20 m yard at 1 m/s (1,200 m) under a Gauss–Markov error (τ 60 s) stated 1.5
        // times: the fixes spread no further than a desk's, and before the return test the stretch held nearly every
        // lap (51–187 m of 1,200 on these seeds).
        let fixes = Self.logger(
            seconds: 1200, cadence: cadence, sigma: sigma, tau: 60, white: white, stated: 1.5, seed: seed,
            position: Self.laps(width: 40, height: 20, speed: 1))
        let counted = Self.counted(fixes)
        let cameBack = Self.everComesBack(fixes)
        #expect(counted > 400, "\(counted) m of 1,200")
        #expect(cameBack)
    }

    @Test(arguments: [(1.0, 20.0), (1.0, 60.0), (5.0, 30.0), (1.0, 300.0), (15.0, 60.0), (5.0, 300.0)])
    func aDriftingDeskNeverReadsAsACourse(cadence: Double, tau: Double) {
        // An hour at rest under a Gauss–Markov error of σ 5 m, three seeds: its squared displacement only grows with
        // the lag, so no bucket's pairs fall back from an earlier band's.
        for seed: UInt64 in [34, 35, 36] {
            let fixes = Self.logger(seconds: 3600, cadence: cadence, sigma: 5, tau: tau, seed: seed)
            let cameBack = Self.everComesBack(fixes)
            #expect(!cameBack, "seed \(seed)")
        }
    }

    @Test(arguments: [41 as UInt64, 42, 43, 44, 45, 46])
    func aDeskBesideAReflectorNeverReadsAsACourse(seed: UInt64) {
        // Half an hour at rest every 5 s, honest accuracy: multipath from four satellites off reflectors 10–40 m
        // away (3 m each, ±50 %), each oscillating with the period its geometry gives (λ / (2 h cos el · el rate):
        // 40 s to 20 minutes), on a 2 m drift of τ 120 s and 1.5 m of white noise. Its squared displacement falls
        // back as the reflections come and go, as a course's does, but by less than the 400 m² floor
        // (``LagBands/returnSquareMetres``).
        var random = SplitMix64(seed: seed)
        let satellites = (0..<4).map { _ in
            let h = 10 + 30 * random.uniform(), elevation = 0.2 + random.uniform()
            let rate = 0.3e-4 + 1.15e-4 * random.uniform(), azimuth = 2 * Double.pi * random.uniform()
            return (
                period: 0.19 / (2 * h * cos(elevation) * rate), amplitude: 3 * (0.5 + random.uniform()),
                phase: 2 * Double.pi * random.uniform(), east: sin(azimuth), north: cos(azimuth)
            )
        }
        let a = exp(-5.0 / 120), q = 2 * (1 - a * a).squareRoot()
        var drift = (2 * random.gaussian(), 2 * random.gaussian())
        var errors: [(Double, Double)] = []
        for t in stride(from: 0.0, through: 1800, by: 5) {
            drift = (a * drift.0 + q * random.gaussian(), a * drift.1 + q * random.gaussian())
            var e = drift.0 + 1.5 * random.gaussian(), n = drift.1 + 1.5 * random.gaussian()
            for s in satellites {
                let x = s.amplitude * sin(s.phase + 2 * Double.pi * t / s.period)
                e += x * s.east
                n += x * s.north
            }
            errors.append((e, n))
        }
        let sigma = (errors.map { ($0.0 * $0.0 + $0.1 * $0.1) / 2 }.reduce(0, +) / Double(errors.count)).squareRoot()
        let fixes = errors.enumerated().map { i, p in
            TrackerTests.fix(5 * Double(i), north: p.1, east: p.0, accuracy: 1.509592 * sigma)
        }
        let cameBack = Self.everComesBack(fixes)
        #expect(!cameBack)
    }

    @Test func bucketsArePairedAsTheyClose() {
        // Ten fixes of variance 4 m² at (0, 0) in bucket 0, then ten at (10, 0) in bucket 1: when bucket 2 opens,
        // bucket 1 pairs with bucket 0 at a lag of 10 s (band 1): |Δp|² = 100 m², term 100 / (2 (4 + 4)) = 6.25.
        var course = CourseReturn()
        for t in 0..<20 {
            let closed = course.add(
                east: t < 10 ? 0 : 10, north: 0, inverseVariance: 0.25, now: Int64(t) * 1000)
            #expect(closed == (t == 10))
        }
        #expect(course.bands.count(band: 1) == 0, "bucket 0 had nothing before it")
        var closed = course.add(east: 10, north: 0, inverseVariance: 0.25, now: 20_000)
        #expect(closed)
        #expect(abs(course.bands.count(band: 1) - 1) < 1e-12)
        #expect(abs(course.bands.meanSquareMetres(band: 1) - 100) < 1e-9)
        #expect(abs(course.bands.meanTerm(band: 1) - 6.25) < 1e-9)
        // Bucket 2 closes 25 buckets later, faded by 300 / (300 + 250): it pairs with bucket 1 (one pair more in
        // band 1, 0 m²) and bucket 0 (band 2, 100 m²); the next bucket's slot and those passed over are emptied, so
        // the bucket opened then (27) finds none of the old ones (its slot's bucket 11, those of 12–26).
        closed = course.add(east: 0, north: 0, inverseVariance: 0.25, now: 270_000)
        #expect(closed)
        let faded = 300.0 / 550
        #expect(abs(course.bands.count(band: 1) - (faded + 1) * (faded + 1) / (faded * faded + 1)) < 1e-12)
        #expect(abs(course.bands.meanSquareMetres(band: 1) - 100 * faded / (faded + 1)) < 1e-9)
        #expect(abs(course.bands.meanSquareMetres(band: 2) - 100) < 1e-9)
        closed = course.add(east: 0, north: 0, inverseVariance: 0.25, now: 280_000)
        #expect(closed)
        #expect(course.bands.count(band: 1) < 2, "bucket 27 paired with nothing")
        // Buckets only: the bands hold displacements; moving the plane moves the buckets' means.
        course.transformPositions { e, n in (e + 5, n - 5) }
        let slot = course.buckets[CourseReturn.slot(28)]
        #expect(abs(slot.x / slot.z - 5) < 1e-12 && abs(slot.y / slot.z + 5) < 1e-12)
    }
}
