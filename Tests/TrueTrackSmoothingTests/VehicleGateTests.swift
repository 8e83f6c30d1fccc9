import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// The smoother's vehicle gate: which smoothed steps are a ride's, left out of a walk's distance.
@Suite struct VehicleGateTests {
    /// The walking profile's gate: window 20 s, sustained limit 3 m/s, exit after 120 s slow.
    static let gate = VehicleGate(profile: .walking)!

    /// Runs the gate on a 1-D track along east: state i at `times[i]` (1 Hz when `nil`), `speeds[i]` from
    /// state i to i + 1; `opens` are the states that open a segment, `reads` those whose fix reads `in vehicle`
    /// with confidence `confidence`.
    static func vehicle(
        speeds: [Double], times: [Double]? = nil, opens: Set<Int> = [], reads: Set<Int> = [], confidence: Int = 90,
        gate: VehicleGate = gate
    ) -> [Bool] {
        let n = speeds.count + 1
        let t = times ?? (0..<n).map(Double.init)
        var east = [0.0]
        for i in speeds.indices { east.append(east[i] + speeds[i] * (t[i + 1] - t[i])) }
        var x = [Double](repeating: 0, count: 4 * n)
        for s in 0..<n { x[2 * s] = east[s] }
        return gate.vehicleSteps(
            times: t, opensSegment: (0..<n).map { $0 == 0 || opens.contains($0) }, solution: x, order: 2 * n,
            readings: reads.sorted().map {
                TimedReading(seconds: t[$0], reading: ActivityReading(kind: .inVehicle, confidence: confidence))
            })
    }

    static let walk = Array(repeating: 1.0, count: 60), ride = Array(repeating: 10.0, count: 60)

    @Test func isOffOnlyForProfilesWithoutAVehicleRule() throws {
        #expect(VehicleGate(profile: .driving) == nil)
        // Cycling has no sustained-speed limit but excludes `in vehicle` readings, as the forward filter does.
        let cycling = try #require(VehicleGate(profile: .cycling))
        #expect(cycling.maximumSustainedSpeedMetresPerSecond == .infinity && cycling.excludesInVehicleReadings)
        #expect(!Self.vehicle(speeds: Array(repeating: 15.0, count: 60), gate: cycling).contains(true))
        #expect(Self.vehicle(speeds: Array(repeating: 6.0, count: 60), reads: [30], gate: cycling)[30])
        // Without the latch the fast steps are still a ride's, the slow ones between them not.
        var latchOff = TrackingProfile.walking
        latchOff.vehicleExitSeconds = 0
        let free = Self.vehicle(
            speeds: Self.walk + Self.ride + Array(repeating: 0.0, count: 60) + Self.ride,
            gate: try #require(VehicleGate(profile: latchOff)))
        #expect(free[100] && !free[150] && free[200])
        #expect(VehicleGate(profile: .running)?.maximumSustainedSpeedMetresPerSecond == 8)
        #expect(SmoothingOptions(profile: .walking).vehicleGate == Self.gate)
        #expect(SmoothingOptions(profile: .driving).vehicleGate == nil)
    }

    /// Hand-worked: 100 s walking at 1 m/s, 100 s by bus at 10 m/s, 150 s walking. The step into state s
    /// (middle s − 0.5) is judged on states s − 11 … s + 10 (21 s): fast when 5 or more of its 21 seconds are
    /// on the bus (10 b + 21 − b > 63 m), so from step 95 to step 206; the walks' other steps are not.
    @Test func aRideIsLeftOutAndTheWalksAroundItAreNot() {
        let speeds =
            Array(repeating: 1.0, count: 100) + Array(repeating: 10.0, count: 100)
            + Array(repeating: 1.0, count: 150)
        let v = Self.vehicle(speeds: speeds)
        for s in 1...350 {
            let low = max(s - 11, 0), high = min(s + 10, 350)
            let bus = max(0, min(high, 200) - max(low, 100))
            let net = Double(bus) * 10 + Double(high - low - bus)
            #expect(v[s] == (net > 3 * Double(high - low)), "step \(s): net \(net) m")
        }
        #expect(!v[94] && v[95] && v[206] && !v[207])
    }

    /// A bus stop (60 s still between two fast stretches) is the ride's; a 150 s walk between two rides
    /// (longer than the 120 s exit) is not.
    @Test func slowSpellsShorterThanTheExitBelongToTheRide() {
        let walkAway = Array(repeating: 1.0, count: 150)
        let halt = Self.vehicle(
            speeds: Self.walk + Self.ride + Array(repeating: 0.0, count: 60) + Self.ride + walkAway)
        #expect((61...240).allSatisfy { halt[$0] }, "the halt is the ride's")
        #expect(!halt[20] && !halt[300])
        let between = Self.vehicle(
            speeds: Self.walk + Self.ride + Array(repeating: 1.0, count: 150) + Self.ride + walkAway)
        #expect(between[110] && between[300])
        #expect((140...260).allSatisfy { !between[$0] }, "the walk between the rides counts")
    }

    /// The track's last slow steps after a ride are the ride's unless they last the exit (the forward filter
    /// gives up an unfinished spell); slow steps before the first ride are the traveller's.
    @Test func aTrackThatEndsSlowAfterARideEndsInIt() {
        let crawl = Self.vehicle(speeds: Self.walk + Self.ride + Array(repeating: 1.5, count: 90))
        #expect(!crawl[30] && (70...210).allSatisfy { crawl[$0] })
        let walkAway = Self.vehicle(speeds: Self.walk + Self.ride + Array(repeating: 1.5, count: 150))
        #expect((140...270).allSatisfy { !walkAway[$0] })
    }

    /// A gap inside a ride: its chord, 1,000 m in 150 s, is no walk, and the crawls beside it (40 s each) stay
    /// the ride's; a bus standing through a 150 s gap (its chord 0 m) does not add the gap's time to the slow
    /// spell either (80 s of crawl: the ride's). A walk after a ride logged every 90 s (every step a gap, each
    /// chord 117 m) ends the ride and counts, chord by chord.
    @Test func gapsNeitherEndARideNorSpreadIt() {
        let crawl = Array(repeating: 1.5, count: 40)
        // States 0 … 300 at 1 Hz (ride, then 40 s of crawl), a 150 s gap, states 301 … 381 (80 s of crawl), then
        // the ride again from 531 s to 830 s.
        let times = (0...300).map(Double.init) + (450...530).map(Double.init) + (531...830).map(Double.init)
        let speeds =
            Array(repeating: 10.0, count: 260) + crawl + [1000.0 / 150] + crawl + crawl + [1.0]
            + Array(repeating: 10.0, count: 299)
        #expect(speeds.count == times.count - 1)
        let tunnel = Self.vehicle(speeds: speeds, times: times, opens: [301])
        #expect((250...420).allSatisfy { tunnel[$0] }, "the crawls and the chord are the ride's")
        var standing = speeds
        standing[300] = 0
        let stopped = Self.vehicle(speeds: standing, times: times, opens: [301])
        #expect((250...420).allSatisfy { stopped[$0] }, "a standing bus's gap is no walk")
        // A ride, then a walk logged every 90 s.
        let sparseTimes = (0...300).map(Double.init) + (1...20).map { 300 + 90 * Double($0) }
        let sparse = Self.vehicle(
            speeds: Array(Self.ride.prefix(60)) + Array(repeating: 10.0, count: 240) + Array(repeating: 1.3, count: 20),
            times: sparseTimes, opens: Set(301...320))
        #expect(sparse[300] && !sparse[305] && !sparse[320])
        #expect(sparse[301] && !sparse[302], "the chord after the ride is its, the next ones are not")
    }

    /// A confident `in vehicle` reading is in force for the profile's 60 s (as in the forward filter), on gap
    /// steps too; a reading below the confidence threshold says nothing.
    @Test func aConfidentInVehicleReadingHoldsForItsValidity() {
        let v = Self.vehicle(speeds: Array(repeating: 1.0, count: 300), reads: [30])
        #expect(!v[29] && v[30] && v[91] && !v[92], "the steps into and out of states 30 … 90")
        let weak = Self.vehicle(speeds: Array(repeating: 1.0, count: 200), reads: [30], confidence: 50)
        #expect(!weak.contains(true))
        // Every state 90 s apart (every step a gap), the middle three reading `in vehicle`.
        let gaps = Self.vehicle(
            speeds: Array(repeating: 8.0, count: 4), times: [0, 90, 180, 270, 360], opens: Set(1...4),
            reads: [1, 2, 3])
        #expect(gaps == [false, true, true, true, true])
    }

    /// The chord across a gap is a ride's when the step before or after it is; between two walks it counts.
    @Test func theChordAcrossAGapFollowsItsNeighbours() {
        // States 0 … 120 at 1 Hz, a gap, states 121 … 180 from 200 s: the step into state 121 is the chord.
        let times = (0...120).map(Double.init) + (200...259).map(Double.init)
        let rest = Array(repeating: 1.0, count: 59), rideOn = Array(repeating: 10.0, count: 59)
        // (A walk of 150 s after the ride: longer than the exit, so the latch does not take the chord.)
        let afterRide = Self.vehicle(
            speeds: Self.walk + Self.ride + [0.5] + Array(repeating: 1.0, count: 150),
            times: (0...120).map(Double.init) + (200...350).map(Double.init), opens: [121])
        #expect(afterRide[120] && afterRide[121] && !afterRide[130], "after a ride")
        let beforeRide = Self.vehicle(speeds: Self.walk + Self.walk + [0.5] + rideOn, times: times, opens: [121])
        #expect(beforeRide[122] && beforeRide[121], "before a ride")
        let betweenWalks = Self.vehicle(speeds: Self.walk + Self.walk + [0.5] + rest, times: times, opens: [121])
        #expect(!betweenWalks.contains(true))
    }

    /// A track built leg by leg at 1 Hz (east/north metres, 5 m fixes without noise): each leg is
    /// (seconds, east m/s, north m/s, gap: the leg is one chord across a gap of that many seconds).
    static func fixes(_ legs: [(seconds: Int, east: Double, north: Double, gap: Bool)]) throws -> [Fix] {
        var result: [Fix] = []
        var t = 0, east = 0.0, north = 0.0
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        func append(_ activity: ActivityReading? = nil, accuracy: Double = 5, extraMilliseconds: Int64 = 0) throws {
            result.append(
                try Fix(
                    timestamp: Timestamp(
                        millisecondsSince1970: 1_700_000_000_000 + Int64(t) * 1000 + extraMilliseconds),
                    latitude: 48 + north / metresPerDegree,
                    longitude: 11 + east / (metresPerDegree * cos(48 * Double.pi / 180)),
                    horizontalAccuracyMetres: accuracy, activity: activity))
        }
        try append()
        for leg in legs {
            let steps = leg.gap ? 1 : leg.seconds
            let stepSeconds = leg.gap ? leg.seconds : 1
            for _ in 0..<steps {
                t += stepSeconds
                east += leg.east * Double(stepSeconds)
                north += leg.north * Double(stepSeconds)
                try append()
            }
        }
        return result
    }

    /// Three cases a reviewer found, through the smoother (walking profile; truth in the comments).
    @Test func aReviewersRidesThroughGapsAndReadings() throws {
        let smoother = WholeTrackSmoother(profile: .walking)
        // A bus through a 300 s tunnel at 2.5 m/s average after a 30 s crawl, then a 200 s walk: the chord was
        // counted as a walk (1,150.8 m for a 384 m walk; the forward filter 398 m). The chord is the ride's now.
        let tunnel = smoother.smooth(
            try Self.fixes([
                (120, 0, 1.2, false), (300, 10, 0, false), (30, 1, 0, false), (300, 2.5, 0, true),
                (200, 0, -1.2, false),
            ]))
        #expect(abs(tunnel.distanceMetres - 414) < 25, "\(tunnel.distanceMetres) m (walk 384 m, crawl 30 m)")
        // A walk, a 2 km chord across a 200 s gap, a 125 s walk; one `in vehicle` reading on the last fix before
        // the gap: the first walking steps after it were judged on a window reaching back across the gap
        // (117.6 m for a 270 m walk).
        var gapped = try Self.fixes([(99, 0, 1.2, false), (200, 10, 0, true), (125, 0, 1.2, false)])
        gapped[99].activity = ActivityReading(kind: .inVehicle, confidence: 90)
        let afterGap = smoother.smooth(gapped)
        #expect(abs(afterGap.distanceMetres - 270) < 15, "\(afterGap.distanceMetres) m")
        // A bus at 2.8 m/s (under the walker's 3 m/s) known only by `in vehicle` readings on coarse (60 m) fixes
        // the smoother leaves out: the forward filter takes a rejected fix's reading, so does the gate now
        // (1,320.0 m for a 480 m walk).
        var slowBus = try Self.fixes([(200, 0, 1.2, false), (300, 2.8, 0, false), (200, 0, -1.2, false)])
        for k in stride(from: 201, to: 500, by: 30) {
            var coarse = try slowBus[k].retimed(
                to: Timestamp(millisecondsSince1970: slowBus[k].timestamp.millisecondsSince1970 + 500))
            coarse.horizontalAccuracy = .metres(60)
            coarse.activity = ActivityReading(kind: .inVehicle, confidence: 95)
            slowBus.append(coarse)
        }
        let bus = smoother.smooth(slowBus)
        #expect(abs(bus.distanceMetres - 480) < 40, "\(bus.distanceMetres) m")
        #expect(bus.vehicleLengthMetres > 800)
    }

    /// The simulator's bus ride inside a walk (400 m on foot, 3 km by bus with two halts, 300 m on foot) and
    /// a bus crawling at walking pace between fast stretches: smoothed with the walking profile, the distance
    /// is the walk's (measured +0.1 … +1.2 % clean, +0.1 … +4.3 % degraded; crawl +1.8 … +4.2 % and
    /// +3.2 … +7.2 %) and the left-out length the ride's.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aWalkSmoothedWithItsRidesCountsOnlyTheWalk(seed: UInt64) {
        let crawl = Scenario(
            name: "bus crawling in traffic, then a walk",
            legs: [
                .walk(metres: 200, heading: 0), .stop(seconds: 60), .drive(metres: 800, heading: 90, speed: 8),
                .drive(metres: 60, heading: 90, speed: 1.0), .drive(metres: 800, heading: 90, speed: 8),
                .stop(seconds: 30, activity: .inVehicle), .walk(metres: 300, heading: 180), .stop(seconds: 30),
            ])
        for (scenario, ride) in [(Scenario.busRideInsideWalk, 3000.0), (crawl, 1660.0)] {
            let walked = scenario.truthDistanceMetres(activities: [.walking])
            for (errors, bound) in [(ErrorModel.cleanPhone, 0.05), (.degradedPhone, 0.10)] {
                let track = WholeTrackSmoother(profile: .walking)
                    .smooth(Simulator.simulate(scenario, errors: errors, seed: seed).fixes)
                let error = (track.distanceMetres - walked) / walked
                #expect(abs(error) < bound, "\(scenario.name), seed \(seed): \(error)")
                #expect(abs(track.vehicleLengthMetres - ride) < 0.03 * ride, "\(track.vehicleLengthMetres) m")
                #expect(track.distanceSigmaMetres < 0.1 * walked)
            }
        }
    }
}
