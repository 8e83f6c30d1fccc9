import Testing
import TrueTrackCore
import TrueTrackSimulation

/// Scenarios across the antimeridian (a geography tester's Fiji walk, 840 m east from 179.9995° E, gave 96
/// fixes of 721: the truth's longitudes ran past 180° and the simulator dropped every fix `Fix` refused).
@Suite("Simulating across the antimeridian")
struct AntimeridianScenarioTests {
    static let fijiWalk = Scenario(
        name: "fiji walk", legs: [.walk(metres: 840, heading: 90)], originLatitude: -16.8,
        originLongitude: 179.9995)

    @Test("keeps every fix of a walk across the antimeridian")
    func keepsEveryFix() {
        let track = Simulator.simulate(Self.fijiWalk, seed: 1)
        #expect(track.truth.count == 601)
        #expect(track.fixes.count == track.truth.count)
        #expect(track.truth.allSatisfy { $0.longitude >= -180 && $0.longitude <= 180 })
        #expect(track.truth.last!.longitude < -179.99)
        // The truth's steps are the walk's: 1.4 m each, none across the globe.
        let length = zip(track.truth, track.truth.dropFirst()).reduce(0.0) {
            $0 + Geodesic.wgs84.distance(from: ($1.0.latitude, $1.0.longitude), to: ($1.1.latitude, $1.1.longitude))
        }
        #expect(abs(length - 840) < 1)
    }

    @Test("takes a westward origin past −180° back to the east")
    func westward() {
        let walk = Scenario(
            name: "chukotka walk", legs: [.walk(metres: 840, heading: 270)], originLatitude: 66,
            originLongitude: -179.9995)
        let track = Simulator.simulate(walk, errors: .degradedPhone, seed: 2)
        #expect(track.fixes.count == track.truth.count)
        #expect(track.truth.last!.longitude > 179.98)
    }
}
