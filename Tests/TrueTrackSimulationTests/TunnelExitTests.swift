import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

/// A walker through a tunnel: 121 s east at 1.4 m/s, two minutes of silence, then 300 s more, each fix under 2 m of
/// white noise claiming 5 m; the first fix after the silence may be tens of metres off while claiming 25 m (multipath
/// at the exit). The gap's chord should count whether or not the fixes carry speed readings (an API tester's cases).
@Suite struct TunnelExitTests {
    /// The walk's truth, metres: the walker keeps its pace through the tunnel.
    static let truth = 1.4 * Double(121 + 120 + 300)

    static func fix(_ t: Int, east: Double, north: Double, accuracy: Double, readings: Bool) -> Fix {
        try! Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_543_200_000 + Int64(t) * 1000),
            latitude: 48.1 + north / 111_132, longitude: 11.5 + east / (111_320 * cos(48.1 * Double.pi / 180)),
            horizontalAccuracyMetres: accuracy, speedMetresPerSecond: readings ? 1.4 : nil,
            courseDegrees: readings ? 90 : nil, provider: .gps)
    }

    /// The walk, its first fix after the silence `exitOffNorth` metres off.
    static func walk(seed: UInt64, readings: Bool, exitOffNorth: Double) -> [Fix] {
        var random = SplitMix64(seed: seed)
        func noisy(_ t: Int) -> Fix {
            fix(
                t, east: 1.4 * Double(t) + 2 * random.gaussian(), north: 2 * random.gaussian(), accuracy: 5,
                readings: readings)
        }
        let exit = 121 + 120
        return (0...120).map(noisy)
            + [fix(exit, east: 1.4 * Double(exit), north: exitOffNorth, accuracy: 25, readings: readings)]
            + ((exit + 1)...(exit + 300)).map(noisy)
    }

    static func run(_ fixes: [Fix]) -> (total: Double, holds: [DistanceHold]) {
        var tracker = Tracker(profile: .walking)
        let holds = fixes.map { tracker.process($0).hold }
        tracker.finishTrack()
        return (tracker.distance.totalMetres, holds)
    }

    /// With readings, a first fix 40 m off: the filtered track converging from it read 4 m/s over the window, the
    /// vehicle latch held 120 s of walk and the tunnel's chord was excluded as a vehicle's (569 m of 757). Trusted
    /// readings of walking pace over the window now say it is no vehicle, and the move since the anchor is judged
    /// less what the two fixes' accuracies explain.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func anExitFixOffByTensOfMetresIsNoVehicle(seed: UInt64) {
        let (total, holds) = Self.run(Self.walk(seed: seed, readings: true, exitOffNorth: 40))
        #expect(!holds.contains(.vehicle))
        #expect(abs(total / Self.truth - 1) < 0.02, "\(total) m of \(Self.truth)")
    }

    /// A stops tester's walk (300 s east at 1.4 m/s, 360 s of silence walking on, 300 s more; 3 m of noise claiming
    /// 5 m; speed readings 1.4 ± 0.1 m/s but no course): the pace check compared the filter's speeds, from positions
    /// alone 0.8–3.2 m/s on either side, and dropped the 504 m chord on 3 seeds of 10 (837–844 m of 1,344; here 7 of
    /// 10). Trusted readings now give the pace on both sides: 9 of these 10 count it. Seed 7 still loses it: half a
    /// window after the anchor its fixes' noise leaves the move since the anchor within the threshold and the
    /// filter's velocity pointing back (the direction has no reading without a course).
    @Test func theChordCountsWithReadingsButNoCourse() {
        var counted = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            func noisy(_ t: Int) -> Fix {
                try! Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_714_543_200_000 + Int64(t) * 1000),
                    latitude: 48.1 + 3 * random.gaussian() / 111_132,
                    longitude: 11.5 + (1.4 * Double(t) + 3 * random.gaussian())
                        / (111_320 * cos(48.1 * Double.pi / 180)),
                    horizontalAccuracyMetres: 5, speedMetresPerSecond: 1.4 + 0.1 * random.gaussian(), provider: .gps)
            }
            let (total, _) = Self.run((0...300).map(noisy) + (661...960).map(noisy))
            let truth = 1.4 * 960
            if abs(total / truth - 1) < 0.02 { counted += 1 }
            #expect(total / truth - 1 > -0.4 && total / truth - 1 < 0.02, "seed \(seed): \(total) m of \(truth)")
        }
        #expect(counted >= 9, "the chord counted on \(counted) of 10 seeds")
    }

    /// Without readings under 2 m of noise the pace check across the gap (the filter's speeds at the last fix before
    /// it and half a window after, within 1.5 times) is a coin toss: the chord counts on 9 of 16 seeds (a reviewer's).
    /// Tried and reverted (2026-12-05): the filter's mean speed over the window before the gap, 13 of 16, but a walker
    /// who stopped a few seconds before the silence then counted a chord to a drifting first fix (+40 m on 6 seeds).
    /// A known issue: the speed after the gap is as noisy, and a sturdier pace needs a rule for both sides.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func theChordCountsWithoutReadingsUnderNoise(seed: UInt64) {
        let (total, _) = Self.run(Self.walk(seed: seed, readings: false, exitOffNorth: 0))
        // At worst the chord is lost (−18 %); when it counts, positions alone over-count a little (+4 … +6 %).
        #expect(total / Self.truth - 1 > -0.2 && total / Self.truth - 1 < 0.08, "\(total) m of \(Self.truth)")
        withKnownIssue("the pace check across a gap is a coin toss without readings", isIntermittent: true) {
            #expect(total / Self.truth - 1 > -0.02, "\(total) m of \(Self.truth)")
        }
    }

    /// Without readings, a first fix 40 m off: the fixes after it were refused as too fast from it, the third
    /// re-anchored and the anchor cancelled the chord (−18 %). That re-anchor is now the gap's end.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aReanchorStraightAfterTheExitEndsTheGap(seed: UInt64) {
        let (total, holds) = Self.run(Self.walk(seed: seed, readings: false, exitOffNorth: 40))
        #expect(holds.filter { $0 == .anchor }.count == 3)  // the first fix, the exit, the re-anchor
        #expect(total / Self.truth - 1 > -0.02 && total / Self.truth - 1 < 0.08, "\(total) m of \(Self.truth)")
    }

    /// A walker who turns the corner as the tunnel ends (a tester's): 121 s east at 1.4 m/s, two minutes of
    /// silence walking on east, then 300 s heading `exitHeading` (degrees from north) from the first fix after it,
    /// under 2 m of noise claiming 5 m, readings of the pace and course. Half a window after the exit the filter's
    /// velocity points south (a 90° turn) or south-south-west (110°): its dot product with the chord, the test of a
    /// track heading back, was 0 or below and the 168 m chord was dropped on most seeds (−13 … −23 % of such walks);
    /// it counts up to a 120° turn (``Tracker/gapExitHeadingCosine``). Straight back west (180°) still counts no
    /// chord: a track after a silence that heads back the way it came is most likely converging from a wrong fix.
    @Test(arguments: [180.0, 200.0, 270.0])
    func aTurnAtTheExitKeepsTheChordUnlessItHeadsBack(exitHeading: Double) {
        let exit = 121 + 120, chord = 1.4 * 120
        let truth = 1.4 * Double(121 + 300) + chord
        let radians = exitHeading * Double.pi / 180
        var counted = 0
        for seed in 1...3 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            var fixes: [Fix] = []
            for t in 0...(exit + 300) where t <= 120 || t >= exit {
                let walked = Double(max(0, t - exit))
                let east = 1.4 * Double(min(t, exit)) + 1.4 * walked * sin(radians) + 2 * random.gaussian()
                let north = 1.4 * walked * cos(radians) + 2 * random.gaussian()
                fixes.append(
                    try! Fix(
                        timestamp: Timestamp(millisecondsSince1970: 1_714_543_200_000 + Int64(t) * 1000),
                        latitude: 48.1 + north / 111_132,
                        longitude: 11.5 + east / (111_320 * cos(48.1 * Double.pi / 180)), horizontalAccuracyMetres: 5,
                        speedMetresPerSecond: 1.4, courseDegrees: t < exit ? 90 : exitHeading, provider: .gps))
            }
            let total = Self.run(fixes).total
            if abs(total / truth - 1) < 0.03 { counted += 1 }
            // Without the chord the walk reads about 589 m of 757.
            #expect(total < 1.03 * truth, "seed \(seed): \(total) m of \(truth)")
        }
        #expect(counted == (exitHeading < 250 ? 3 : 0), "\(counted) of 3 seeds count the chord")
    }
}
