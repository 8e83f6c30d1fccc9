import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// ``Tracker/trustedSpeedReadings(in:profile:)``: which readings the forward filter integrated as trusted Doppler.
@Suite struct TrustedReadingsTests {
    static func share(_ flags: [Bool], of fixes: [Fix]) -> Double {
        let read = fixes.indices.filter { fixes[$0].speedMetresPerSecond != nil }
        return Double(read.count(where: { flags[$0] })) / Double(max(read.count, 1))
    }

    @Test func trustsAnHonestReceiversReadings() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let fixes = Simulator.simulate(.walk, errors: .cleanPhone, seed: seed).fixes
            let trusted = Tracker.trustedSpeedReadings(in: fixes, profile: .walking)
            #expect(trusted.count == fixes.count)
            #expect(Self.share(trusted, of: fixes) > 0.9, "seed \(seed)")
        }
    }

    /// Readings at 45 % of the walking speed (a Samsung-like column) disagree with the positions' progress.
    @Test func distrustsReadingsAtHalfTheSpeed() {
        for seed in 1...3 as ClosedRange<UInt64> {
            var fixes = Simulator.simulate(.walk, errors: .cleanPhone, seed: seed).fixes
            for i in fixes.indices { fixes[i].speedMetresPerSecond = fixes[i].speedMetresPerSecond.map { $0 * 0.45 } }
            let trusted = Tracker.trustedSpeedReadings(in: fixes, profile: .walking)
            #expect(Self.share(trusted, of: fixes) < 0.5, "seed \(seed)")
        }
    }

    @Test func aFixWithoutAReadingIsNeverTrusted() {
        var fixes = Simulator.simulate(.walk, errors: .cleanPhone, seed: 1).fixes
        for i in fixes.indices where i % 3 == 0 { fixes[i].speedMetresPerSecond = nil }
        let trusted = Tracker.trustedSpeedReadings(in: fixes, profile: .walking)
        #expect(fixes.indices.allSatisfy { fixes[$0].speedMetresPerSecond != nil || !trusted[$0] })
        #expect(Self.share(trusted, of: fixes) > 0.5)
    }

    /// The fixes are taken in time order: delivered newest first, each fix gets the flag it gets in order.
    @Test func readsTheFixesInTimeOrder() {
        let fixes = Simulator.simulate(.walk, errors: .cleanPhone, seed: 2).fixes
        let inOrder = Tracker.trustedSpeedReadings(in: fixes, profile: .walking)
        let reversed = Tracker.trustedSpeedReadings(in: fixes.reversed(), profile: .walking)
        #expect(Array(reversed.reversed()) == inOrder)
    }
}
