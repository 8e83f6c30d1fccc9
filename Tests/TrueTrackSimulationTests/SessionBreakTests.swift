import Testing
import TrueTrackCore
import TrueTrackSimulation

/// Two recordings joined in one stream (files concatenated, one buffer session over a day): after a silence
/// longer than ``TrackingProfile/sessionBreakSeconds`` the second is measured as on its own.
@Suite struct SessionBreakTests {
    /// Every fix of `track` moved by `seconds`.
    static func shifted(_ track: SimulatedTrack, seconds: Double) throws -> [Fix] {
        try track.fixes.map { try $0.retimed(to: $0.timestamp.advanced(bySeconds: seconds)) }
    }

    static func run(_ fixes: [Fix], profile: TrackingProfile) -> (tracker: Tracker, decisions: [FixDecision]) {
        var tracker = Tracker(profile: profile)
        let decisions = fixes.map { tracker.process($0) }
        return (tracker, decisions)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aRecordingAnHourAfterAnotherMeasuresWhatItMeasuresAlone(seed: UInt64) throws {
        for (first, second, errors, profile) in [
            (Scenario.walk, Scenario.walkWithStops, ErrorModel.degradedPhone, TrackingProfile.walking),
            (Scenario.busRideInsideWalk, Scenario.walk, ErrorModel.degradedPhone, TrackingProfile.walking),
            (Scenario.drive, Scenario.drive, ErrorModel.carReceiver, TrackingProfile.driving),
        ] {
            let a = Simulator.simulate(first, errors: errors, seed: seed)
            let b = Simulator.simulate(second, errors: errors, seed: seed + 100)
            let gap = profile.sessionBreakSeconds + 60
            let offset = a.fixes.last!.timestamp.seconds(to: b.fixes.first!.timestamp)
            let later = try Self.shifted(b, seconds: gap - offset)
            var alone = Self.run(a.fixes, profile: profile)
            let heldAtTheEnd = alone.tracker.finishTrack()
            let bAlone = Self.run(later, profile: profile)
            let joined = Self.run(a.fixes + later, profile: profile)
            let before = alone.tracker.distance.totalMetres
            // The second recording's decisions are its own: the same increments (to rounding: an increment is a
            // difference of totals), on top of the first's total and what the first still held at its end, counted
            // at the break.
            let increments = joined.decisions[a.fixes.count...].map(\.distanceIncrementMetres)
            var expected = bAlone.decisions.map(\.distanceIncrementMetres)
            expected[0] += heldAtTheEnd
            let worst = zip(increments, expected).map { abs($0 - $1) }.max() ?? 0
            #expect(increments.count == expected.count && worst < 1e-9, "\(first.name) then \(second.name): \(worst)")
            #expect(
                abs(joined.tracker.distance.totalMetres - (before + heldAtTheEnd + bAlone.tracker.distance.totalMetres))
                    < 1e-6)
            #expect(joined.decisions[a.fixes.count...].map(\.rejection) == bAlone.decisions.map(\.rejection))
        }
    }

    /// The reading that comes with the first fix after the break holds for the new recording too.
    @Test func theActivityReadingAtTheBreakHolds() throws {
        let a = Simulator.simulate(.walk, errors: .cleanPhone, seed: 4)
        let b = Simulator.simulate(.walk, errors: .cleanPhone, seed: 5)
        let offset = a.fixes.last!.timestamp.seconds(to: b.fixes.first!.timestamp)
        var later = try Self.shifted(b, seconds: TrackingProfile.walking.sessionBreakSeconds * 3 - offset)
        later[0].activity = ActivityReading(kind: .still, confidence: 100)
        let joined = Self.run(a.fixes + later, profile: .walking)
        let bAlone = Self.run(later, profile: .walking)
        let increments = joined.decisions[a.fixes.count...].map(\.distanceIncrementMetres)
        let expected = bAlone.decisions.map(\.distanceIncrementMetres)
        #expect(zip(increments, expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    /// Below the break the tracker carries on: what it learnt of the receiver still applies.
    @Test func aShorterSilenceIsAGapNotANewRecording() throws {
        let a = Simulator.simulate(.walk, errors: .degradedPhone, seed: 7)
        let b = Simulator.simulate(.walk, errors: .degradedPhone, seed: 8)
        let offset = a.fixes.last!.timestamp.seconds(to: b.fixes.first!.timestamp)
        let later = try Self.shifted(b, seconds: TrackingProfile.walking.sessionBreakSeconds / 2 - offset)
        let joined = Self.run(a.fixes + later, profile: .walking)
        let bAlone = Self.run(later, profile: .walking)
        let worst =
            zip(
                joined.decisions[a.fixes.count...].map(\.distanceIncrementMetres),
                bAlone.decisions.map(\.distanceIncrementMetres)
            ).map { abs($0 - $1) }.max() ?? 0
        #expect(worst > 1e-3)
    }
}
