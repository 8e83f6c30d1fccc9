import Testing
import TrueTrackCore
import TrueTrackSimulation

@Suite struct ScenarioPipelineTests {
    static func run(_ track: SimulatedTrack, profile: TrackingProfile) -> (Tracker, [FixDecision]) {
        var tracker = Tracker(profile: profile)
        var decisions: [FixDecision] = []
        for batch in track.batches { decisions += tracker.process(batch: batch) }
        return (tracker, decisions)
    }

    @Test func debugDrive() {
        for delivery in [DeliveryModel(), DeliveryModel.lockedPhone] {
            let track = Simulator.simulate(.drive, errors: .carReceiver, delivery: delivery, seed: 1)
            let (t, d) = Self.run(track, profile: .driving)
            var reasons: [String: Int] = [:]
            for x in d { reasons[x.rejection?.rawValue ?? "ok", default: 0] += 1; reasons["hold." + x.hold.rawValue, default: 0] += 1 }
            print("drive", t.distance.totalMetres, reasons)
        }
    }

    @Test func printTable() {
        let cases: [(Scenario, ErrorModel, TrackingProfile)] = [
            (.walk, .cleanPhone, .walking), (.walk, .degradedPhone, .walking), (.run, .cleanPhone, .running),
            (.drive, .carReceiver, .driving), (.walkWithStops, .cleanPhone, .walking),
            (.walkWithStops, .degradedPhone, .walking), (.busRideInsideWalk, .cleanPhone, .walking),
            (.tunnelDrive, .carReceiver, .driving), (.stationary, .cleanPhone, .walking),
            (.stationary, .degradedPhone, .walking),
        ]
        for (s, e, p) in cases {
            for seed: UInt64 in 1...3 {
                let track = Simulator.simulate(s, errors: e, delivery: .lockedPhone, seed: seed)
                let (t, d) = Self.run(track, profile: p)
                let rej = d.filter { !$0.isAccepted }.count
                print("\(s.name) \(e.accuracyMetres) seed \(seed): truth \(s.truthDistanceMetres) got \(t.distance.totalMetres) dop \(t.distance.dopplerMetres) filt \(t.distance.filteredMetres) rejected \(rej)/\(d.count)")
            }
        }
    }
}
