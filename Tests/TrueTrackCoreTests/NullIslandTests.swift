import Testing

@testable import TrueTrackCore

/// Fixes at exactly 0° N 0° E, the placeholder of a device without a position (`Fix.isAtNullIsland`).
@Suite struct NullIslandTests {
    typealias T = TrackerTests

    /// A walk at 1.4 m/s with `zeros` placeholder fixes (0, 0, claiming 5 m) from fix `at` on.
    static func walk(zerosAt at: Int, count zeros: Int) -> [Fix] {
        (0..<300).map { k in
            let fix = T.fix(Double(k), north: 1.4 * Double(k), speed: 1.4)
            guard k >= at && k < at + zeros else { return fix }
            return try! Fix(
                timestamp: fix.timestamp, latitude: 0, longitude: 0, horizontalAccuracyMetres: 5,
                speedMetresPerSecond: 1.4)
        }
    }

    @Test func aFixAtZeroZeroIsAtNullIslandAndOneNearItIsNot() throws {
        let time = Timestamp(millisecondsSince1970: 0)
        let zero = try Fix(timestamp: time, latitude: 0, longitude: 0)
        let north = try Fix(timestamp: time, latitude: 1e-7, longitude: 0)
        let west = try Fix(timestamp: time, latitude: 0, longitude: -1e-7)
        #expect(zero.isAtNullIsland && !north.isAtNullIsland && !west.isAtNullIsland)
    }

    /// Three zeros mid-walk: each is rejected as invalid, the walk's fixes around them are accepted, and the
    /// distance is the walk's (the third zero re-anchored the tracker 5,424 km away, a geography tester's).
    @Test func rejectsFixesAtZeroZeroAsInvalidAndTheWalkGoesOn() {
        var tracker = Tracker(profile: .walking), clean = Tracker(profile: .walking)
        let fixes = Self.walk(zerosAt: 100, count: 3)
        let decisions = fixes.map { tracker.process($0) }
        for k in 100..<103 { #expect(decisions[k].rejection == .invalid) }
        #expect(decisions[103...].allSatisfy { $0.isAccepted })
        for fix in fixes where !fix.isAtNullIsland { _ = clean.process(fix) }
        #expect(abs(tracker.distance.totalMetres - clean.distance.totalMetres) < 1e-9)
        #expect(tracker.distance.totalMetres > 350)
    }

    /// Evidence at 0, 0 is no position for the stop detector.
    @Test func evidenceAtZeroZeroIsARejectedPosition() {
        let zero = Self.walk(zerosAt: 0, count: 1)[0]
        #expect(MotionEvidence(fix: zero).isPositionRejected)
        #expect(!MotionEvidence(fix: Self.walk(zerosAt: 0, count: 0)[0]).isPositionRejected)
    }
}
