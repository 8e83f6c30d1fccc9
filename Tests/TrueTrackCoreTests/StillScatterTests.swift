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

    /// A desk whose first 20 minutes are dated 36 h ahead (a clock that jumped back mid-desk): the tracker restarts
    /// on the fixes dated right, and the still stretch starts again with them, so the desk counts about what its two
    /// halves count alone. Before, the stretch dated ahead went on (its anchor is dated before it): its decay turned
    /// negative, its span stayed negative, and the second half never read still (188 m against 119 on a reviewer's
    /// desk).
    @Test func aClockThatJumpsBackStartsTheStretchAgain() {
        let desk = Self.fixes(seconds: 2399, tau: 30, seed: 11)
        let ahead = desk[..<1200].map { fix in
            try! Fix(
                timestamp: Timestamp(millisecondsSince1970: fix.timestamp.millisecondsSince1970 + 36 * 3_600_000),
                latitude: fix.latitude, longitude: fix.longitude, horizontalAccuracyMetres: 7.5)
        }
        let rest = Array(desk[1200...])
        // One fix at a time, in the order received (a batch is taken oldest first, and would put them right).
        var tracker = Tracker(profile: .walking)
        for fix in ahead + rest { _ = tracker.process(fix) }
        let stillAtTheEnd = tracker.stillScatter.edgeBound >= 0
        _ = tracker.finishTrack()
        let jumped = tracker.distance.totalMetres
        let halves = Self.counted(ahead) + Self.counted(rest)
        #expect(jumped <= halves + 10, "\(jumped) m against \(halves) m for the halves alone")
        #expect(stillAtTheEnd, "the stretch reads still again after the restart")
    }
}
