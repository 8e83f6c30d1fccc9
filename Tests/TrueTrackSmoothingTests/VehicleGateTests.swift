import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// The smoother's vehicle gate: which smoothed steps are a ride's, left out of a walk's distance.
@Suite struct VehicleGateTests {
    /// The walking profile's gate: window 20 s, sustained limit 3 m/s, exit after 120 s slow.
    static let gate = VehicleGate(profile: .walking)!

    /// Runs the gate on a 1-D track along east at 1 Hz (`speeds[i]` from state i to i + 1), with optional
    /// segment openings and `in vehicle` readings.
    static func vehicle(speeds: [Double], opens: Set<Int> = [], reads: Set<Int> = [], gate: VehicleGate = gate)
        -> [Bool]
    {
        let n = speeds.count + 1
        var east = [0.0]
        for v in speeds { east.append(east.last! + v) }
        var x = [Double](repeating: 0, count: 4 * n)
        for s in 0..<n { x[2 * s] = east[s] }
        let opensSegment = (0..<n).map { $0 == 0 || opens.contains($0) }
        return gate.vehicleSteps(
            times: (0..<n).map(Double.init), opensSegment: opensSegment, solution: x, order: 2 * n,
            readsVehicle: (0..<n).map { reads.contains($0) })
    }

    @Test func isOffForProfilesWithoutAVehicleRule() {
        #expect(VehicleGate(profile: .driving) == nil)
        #expect(VehicleGate(profile: .cycling) == nil)
        var latchOff = TrackingProfile.walking
        latchOff.vehicleExitSeconds = 0
        #expect(VehicleGate(profile: latchOff) == nil)
        #expect(VehicleGate(profile: .running)?.maximumSustainedSpeedMetresPerSecond == 8)
        #expect(SmoothingOptions(profile: .walking).vehicleGate == Self.gate)
        #expect(SmoothingOptions(profile: .driving).vehicleGate == nil)
    }

    /// Hand-worked: 100 s walking at 1 m/s, 100 s by bus at 10 m/s, 150 s walking. The step into state s
    /// (middle s − 0.5) is judged on states s − 11 … s + 10 (21 s): fast when more than 6.7 of its 21 seconds
    /// are on the bus (net > 63 m), so from step 94 to step 210; the walks' other steps are not.
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
        #expect(!v[90] && v[100] && v[200] && !v[215])
    }

    /// A bus stop (60 s still between two fast stretches) is the ride's; a 150 s walk between two rides
    /// (longer than the 120 s exit) is not.
    @Test func slowSpellsShorterThanTheExitBelongToTheRide() {
        let walk = Array(repeating: 1.0, count: 60), ride = Array(repeating: 10.0, count: 60)
        let halt = Self.vehicle(speeds: walk + ride + Array(repeating: 0.0, count: 60) + ride + walk)
        #expect((61...240).allSatisfy { halt[$0] }, "the halt is the ride's")
        #expect(!halt[20] && !halt[280])
        let between = Self.vehicle(speeds: walk + ride + Array(repeating: 1.0, count: 150) + ride + walk)
        #expect(between[110] && between[300])
        #expect((140...260).allSatisfy { !between[$0] }, "the walk between the rides counts")
    }

    /// A confident `in vehicle` reading marks the steps into and out of its state (a slow bus still reads as
    /// one); a reading below the profile's confidence threshold says nothing.
    @Test func aConfidentInVehicleReadingMarksItsSteps() throws {
        let v = Self.vehicle(speeds: Array(repeating: 1.0, count: 60), reads: [30])
        #expect(v[30] && v[31])
        #expect(v.enumerated().filter(\.element).count == 2)
        var fix = try Fix(
            timestamp: Timestamp(millisecondsSince1970: 0), latitude: 0, longitude: 0, horizontalAccuracyMetres: 5,
            activity: ActivityReading(kind: .inVehicle, confidence: 80))
        #expect(Self.gate.readsVehicle(fix))
        fix.activity = ActivityReading(kind: .inVehicle, confidence: 50)
        #expect(!Self.gate.readsVehicle(fix))
        fix.activity = ActivityReading(kind: .walking, confidence: 100)
        #expect(!Self.gate.readsVehicle(fix))
    }

    /// The chord across a gap is a ride's when the step on either side of it is; between two walks it counts.
    @Test func theChordAcrossAGapFollowsItsNeighbours() {
        let walk = Array(repeating: 1.0, count: 60), ride = Array(repeating: 10.0, count: 60)
        // The gap opens state 120 (the step into it is the chord).
        let afterRide = Self.vehicle(speeds: walk + ride + walk, opens: [120])
        #expect(afterRide[119] && afterRide[120])
        let betweenWalks = Self.vehicle(speeds: walk + walk, opens: [60])
        #expect(!betweenWalks[60])
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
