import Foundation
import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

/// The stop detector's trailing window: its verdict read from exact running sums against the definition, a
/// scan over the horizon's entries.
@Suite struct MotionWindowTests {
    /// A generated receiver: walks, crawls and halts at a rate, with or without Doppler speeds, its fixes
    /// scattered by `noiseMetres` and stating accuracies around `accuracyMetres`, appended to a window as the
    /// stop detector appends them. `check` sees the window after every append.
    static func feed(
        seed: UInt64, latitude: Double, longitude: Double, stepMilliseconds: Int64, accuracyMetres: Double,
        noiseMetres: Double, hasSpeed: Bool, profile: StopDetectionProfile, fixes: Int, onGrid: Bool = false,
        check: (MotionWindow, Int64) -> Void
    ) {
        var random = SplitMix64(seed: seed)
        var window = MotionWindow()
        var east = 0.0, north = 0.0, speed = 0.0, heading = random.uniform() * 2 * .pi
        var milliseconds: Int64 = 1_700_000_000_000
        let metresPerDegree = Offsets.metresPerDegree
        let cosLatitude = cos(latitude * .pi / 180)
        for i in 0..<fixes {
            // A new pace every 40 fixes: halted, pottering, walking or riding.
            if i % 40 == 0 { speed = [0, 0, 0.4, 0.7, 1.3, 6][Int(random.uniform() * 6)] }
            heading += (random.uniform() - 0.5) * 0.3
            let seconds = Double(stepMilliseconds) / 1000
            east += speed * seconds * sin(heading)
            north += speed * seconds * cos(heading)
            var lon = longitude + (east + noiseMetres * random.gaussian()) / (metresPerDegree * cosLatitude)
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            // On a grid, as loggers write them: accuracies and speeds to 0.1, so that means land on thresholds (a
            // speed mean of exactly the still speed, a horizon of exactly 20 s).
            func written(_ x: Double) -> Double { onGrid ? (x * 10).rounded() / 10 : x }
            let entry = MotionWindow.Entry(
                milliseconds: milliseconds,
                latitude: latitude + (north + noiseMetres * random.gaussian()) / metresPerDegree, longitude: lon,
                accuracy: written(accuracyMetres * (0.7 + 0.6 * random.uniform())),
                speed: hasSpeed ? written(max(0, speed + 0.2 * random.gaussian())) : -1)
            window.append(entry, spanMilliseconds: Int64(profile.horizonCapSeconds * 1000))
            check(window, milliseconds)
            // An irregular rhythm: a step late now and then, and (off the grid) a step 137 ms late.
            milliseconds += stepMilliseconds * (random.chance(0.05) ? 3 : 1) + (!onGrid && random.chance(0.1) ? 137 : 0)
        }
    }

    /// Whether two verdicts agree: the same verdict over the same horizon with the same radius (both sum the
    /// accuracies in the same units), the centre to within the sums' unit of position (0.1 µm).
    static func agree(_ a: KinematicVerdict, _ b: KinematicVerdict) -> Bool {
        guard a.verdict == b.verdict, a.since == b.since, a.radius == b.radius || (a.radius.isNaN && b.radius.isNaN)
        else { return false }
        switch (a.centre, b.centre) {
        case (nil, nil): return true
        case let (x?, y?):
            var dl = abs(x.longitude - y.longitude)
            if dl > 180 { dl = 360 - dl }
            return abs(x.latitude - y.latitude) <= 1e-11 && dl <= 1e-11
        default: return false
        }
    }

    @Test(
        "reads the verdict of every horizon from its sums as a scan reads it",
        arguments: [
            (StopDetectionProfile.walking, 1000 as Int64, true, false), (.walking, 1000, false, false),
            (.walking, 200, true, false), (.cycling, 1000, true, false), (.driving, 1000, false, false),
            (.walking, 5000, false, false), (.driving, 100, true, false), (.walking, 1000, true, true),
            (.walking, 1000, false, true), (.driving, 1000, true, true),
        ])
    func readsTheVerdictOfEveryHorizonFromItsSumsAsAScanReadsIt(
        profile: StopDetectionProfile, stepMilliseconds: Int64, hasSpeed: Bool, onGrid: Bool
    ) {
        var compared = 0, disagreements = 0, verdicts = [MotionVerdict: Int]()
        for seed in 1...4 as ClosedRange<UInt64> {
            Self.feed(
                seed: seed, latitude: [47.3, -33.9, 0.1, 64.1][Int(seed - 1)], longitude: 8.5,
                stepMilliseconds: stepMilliseconds, accuracyMetres: [4, 8, 15, 25][Int(seed - 1)],
                noiseMetres: [1, 3, 6, 10][Int(seed - 1)], hasSpeed: hasSpeed, profile: profile, fixes: 600,
                onGrid: onGrid
            ) { window, now in
                guard let fromSums = window.verdictFromSums(now: now, profile: profile) else { return }
                let scanned = window.verdictByScanning(now: now, profile: profile)
                compared += 1
                verdicts[fromSums.verdict, default: 0] += 1
                if !Self.agree(fromSums, scanned) { disagreements += 1 }
            }
        }
        #expect(compared == 2_400)
        #expect(disagreements == 0)
        // The generated receivers halt and move: both verdicts are exercised, not only "uncertain".
        #expect(verdicts[.still, default: 0] > 100, "\(verdicts)")
        #expect(verdicts[.moving, default: 0] > 100, "\(verdicts)")
    }

    @Test("takes a window across the antimeridian as a scan wraps it")
    func takesAWindowAcrossTheAntimeridianAsAScanWrapsIt() {
        var compared = 0, disagreements = 0, stillAcross = 0
        for seed in 1...3 as ClosedRange<UInt64> {
            Self.feed(
                seed: seed, latitude: -17.7, longitude: 180 - 0.00002 * Double(seed), stepMilliseconds: 1000,
                accuracyMetres: 8, noiseMetres: 4, hasSpeed: seed != 2, profile: .walking, fixes: 400
            ) { window, now in
                // Read from the sums (a window they could not stand for would fall back to the scan).
                guard let fromSums = window.verdictFromSums(now: now, profile: .walking) else { return }
                let scanned = window.verdictByScanning(now: now, profile: .walking)
                compared += 1
                if !Self.agree(fromSums, scanned) { disagreements += 1 }
                var east = 0, west = 0
                for i in 0..<window.count { if window.entry(i).longitude > 0 { east += 1 } else { west += 1 } }
                if east > 0, west > 0, fromSums.verdict == .still { stillAcross += 1 }
            }
        }
        #expect(compared == 1_200)
        #expect(disagreements == 0)
        // Halts straddling ±180°: a sum of raw longitudes would put their centre half a world away.
        #expect(stillAcross > 20)
    }

    /// Speeds read to 0.1 m/s whose mean is exactly the walking preset's still speed (0.7 m/s): not below it, as
    /// exact arithmetic has it, so not still (pottering at the still speed, no trigger: uncertain); one reading
    /// lower and the mean, 0.673, is below it: still. In binary units the tie read still and the scan's doubles
    /// uncertain (a reviewer's): a pottering walk's stop came and went with the summation.
    @Test("decides speeds averaging exactly the still speed as exact arithmetic does")
    func decidesSpeedsAveragingExactlyTheStillSpeedAsExactArithmeticDoes() {
        for (speeds, expected) in [
            ([0.7, 0.4, 1.0, 0.6, 0.7, 0.8, 0.9, 0.7, 0.7, 0.7, 0.5], MotionVerdict.uncertain),
            ([0.7, 0.4, 1.0, 0.6, 0.7, 0.8, 0.9, 0.7, 0.7, 0.7, 0.2], .still),
        ] {
            var window = MotionWindow()
            var now: Int64 = 0
            for (i, speed) in speeds.enumerated() {
                now = 1_700_000_000_000 + Int64(i) * 1000
                window.append(
                    MotionWindow.Entry(milliseconds: now, latitude: 47.3, longitude: 8.5, accuracy: 3, speed: speed),
                    spanMilliseconds: 60_000)
            }
            #expect(window.verdictFromSums(now: now, profile: .walking)?.verdict == expected)
            #expect(window.verdictByScanning(now: now, profile: .walking).verdict == expected)
        }
    }

    /// A reviewer's window spanning 180° of longitude to within a unit of the sums (its steps add up to 180° less one
    /// unit, truncated; in doubles its ends lie a hair over 180° apart): the scan wraps the oldest to the other side.
    /// The sums leave it to the scan (the guard keeps 16 units to spare); without the margin the centre was 72°
    /// off.
    @Test("leaves a window spanning 180 degrees of longitude to the scan")
    func leavesAWindowSpanning180DegreesOfLongitudeToTheScan() {
        var window = MotionWindow()
        let longitudes = [-(90 - 0x1p-41), -45, 0, 45, 90 + 0.75 * 0x1p-40]
        var now: Int64 = 0
        for (i, longitude) in longitudes.enumerated() {
            now = 1_700_000_000_000 + Int64(i) * 3000
            window.append(
                MotionWindow.Entry(milliseconds: now, latitude: 10, longitude: longitude, accuracy: 5, speed: -1),
                spanMilliseconds: 60_000)
        }
        #expect(window.verdictFromSums(now: now, profile: .walking) == nil)
        let a = window.verdict(now: now, profile: .walking), b = window.verdictByScanning(now: now, profile: .walking)
        #expect(a.centre?.longitude == b.centre?.longitude && a.centre?.latitude == b.centre?.latitude)
    }

    @Test("leaves a window about a pole or holding an unusual entry to the scan")
    func leavesAWindowAboutAPoleOrHoldingAnUnusualEntryToTheScan() {
        var polar = MotionWindow()
        var odd = MotionWindow()
        for i in 0..<30 {
            let ms = 1_700_000_000_000 + Int64(i) * 1000
            let wobble = Double(i % 3) * 1e-5
            polar.append(
                MotionWindow.Entry(
                    milliseconds: ms, latitude: 89.99999 + wobble / 10, longitude: Double(i * 12 - 180),
                    accuracy: 5, speed: 0.1), spanMilliseconds: 60_000)
            // About the North Pole (1 m from it, at every longitude), and a longitude of 200° (beyond ±180°: the scan's wrapped offset, not an unwrapped sum) among still fixes.
            odd.append(
                MotionWindow.Entry(
                    milliseconds: ms, latitude: 10 + wobble, longitude: i == 20 ? 200 : 20 + wobble,
                    accuracy: 5, speed: -1), spanMilliseconds: 60_000)
            // (`odd` is compared once it holds the odd entry: before, the sums judge it.)
            for window in i >= 20 ? [polar, odd] : [polar] {
                let a = window.verdict(now: ms, profile: .walking)
                let b = window.verdictByScanning(now: ms, profile: .walking)
                // The same path: the same values bit for bit.
                #expect(a.verdict == b.verdict && a.since == b.since && a.radius == b.radius)
                #expect(a.centre?.latitude == b.centre?.latitude && a.centre?.longitude == b.centre?.longitude)
            }
        }
        #expect(polar.verdict(now: 1_700_000_029_000, profile: .walking).verdict == .still)
    }

    @Test("keeps its sums through a restore from a checkpoint")
    func keepsItsSumsThroughARestoreFromACheckpoint() {
        var original = MotionWindow()
        var restored = MotionWindow()
        Self.feed(
            seed: 9, latitude: 51.5, longitude: -0.1, stepMilliseconds: 1000, accuracyMetres: 6, noiseMetres: 2,
            hasSpeed: true, profile: .walking, fixes: 300
        ) { window, _ in original = window }
        for i in 0..<original.count { restored.restore(original.entry(i)) }
        let now = original.newest!.milliseconds
        let a = original.verdict(now: now, profile: .walking), b = restored.verdict(now: now, profile: .walking)
        #expect(a.verdict == b.verdict && a.since == b.since && a.radius == b.radius)
        #expect(a.centre?.latitude == b.centre?.latitude && a.centre?.longitude == b.centre?.longitude)
    }
}
