import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

/// Positions that jump further than the profile allows: a lone fix far off (left out), and a relocation, a jump
/// the track goes on from (counts nothing, as the forward filter's re-anchoring). A tester's 60 s walk of 82.6 m
/// smoothed to 778,784 m with one fix 389 km off, to 389,430 m when the walk's second half moved there, and to
/// 23.8 m, 2.8 m or 0 m when it moved 222 m, 2.2 km or 22 km (the walk around the jump read as a vehicle ride).
@Suite("Smoothing across jumps no allowed speed explains")
struct RelocationTests {
    /// A 120 s walk east at 1.4 m/s at 49° N, a fix a second with a speed and course reading and 5 m of noise.
    static func walk() -> (truth: [(latitude: Double, longitude: Double)], fixes: [Fix]) {
        FarFromAnchorTests.straightDrive(
            from: (49, 11), azimuth: 90, speed: 1.4, seconds: 120, interval: 1, seed: 7)
    }

    /// `fix` moved `metres` north.
    static func moved(_ fix: Fix, north metres: Double) -> Fix {
        let p = Geodesic.wgs84.destination(
            from: (fix.latitude, fix.longitude), azimuthDegrees: 0, distanceMetres: metres)
        return try! fix.moved(toLatitude: p.latitude, longitude: p.longitude)
    }

    @Test(
        "leaves out a lone fix far off, in the frame or beyond it",
        arguments: [300.0, 20_000, 111_000, 2_000_000])
    func loneFixFarOff(metres: Double) {
        let (_, fixes) = Self.walk()
        let smoother = WholeTrackSmoother(profile: .walking)
        let clean = smoother.smooth(fixes)
        var spiked = fixes
        spiked[60] = Self.moved(fixes[60], north: metres)
        let track = smoother.smooth(spiked)
        #expect(abs(track.distanceMetres - clean.distanceMetres) < 2, "clean \(clean.distanceMetres)")
        let worst =
            track.points.map { point in
                Geodesic.wgs84.distance(
                    from: (point.latitude, point.longitude), to: (fixes[60].latitude, fixes[60].longitude))
            }.max() ?? 0
        #expect(worst < metres / 2 + 200, "a smoothed point \(worst) m from the spike's true place")
    }

    @Test(
        "counts nothing for a relocation the track goes on from",
        arguments: [250.0, 2_200, 22_000, 389_000])
    func relocation(metres: Double) {
        let (truth, fixes) = Self.walk()
        var shifted = fixes
        for k in 60..<shifted.count { shifted[k] = Self.moved(fixes[k], north: metres) }
        let track = WholeTrackSmoother(profile: .walking).smooth(shifted)
        // The truth's two halves, the second moved as its fixes were (further north, a degree of longitude is
        // shorter), without the step the jump hides.
        let after = truth[60...].map {
            Geodesic.wgs84.destination(from: $0, azimuthDegrees: 0, distanceMetres: metres)
        }.map { (latitude: $0.latitude, longitude: $0.longitude) }
        let expected = FarFromAnchorTests.length(Array(truth[..<60])) + FarFromAnchorTests.length(after)
        #expect(abs(track.distanceMetres - expected) < 4, "expected about \(expected) m")
        #expect(track.segmentCount >= 2)
    }

    @Test("finds a relocation, not a lone fix the ceiling lets back")
    func findsRelocationsOnly() throws {
        let (_, fixes) = Self.walk()
        let options = SmoothingOptions(profile: .walking)
        func relocations(_ fixes: [Fix]) -> [Int] {
            var problem = TrackProblem(fixes: fixes, options: options)
            return problem.findRelocations(maximumSpeedMetresPerSecond: options.maximumSpeedMetresPerSecond)
        }
        #expect(relocations(fixes).isEmpty)
        var spiked = fixes
        spiked[60] = Self.moved(fixes[60], north: 300)
        #expect(relocations(spiked).isEmpty)
        var shifted = fixes
        for k in 60..<shifted.count { shifted[k] = Self.moved(fixes[k], north: 300) }
        #expect(relocations(shifted) == [60])
        // A lasting shift that comes back within 30 s is an excursion (the warm start's), not a relocation.
        var excursion = fixes
        for k in 60..<80 { excursion[k] = Self.moved(fixes[k], north: 300) }
        #expect(relocations(excursion).isEmpty)
        // A drive's lone fix 300 m off every 5 s: the driving ceiling (70 m/s) lets it back in one step.
        let drive = FarFromAnchorTests.straightDrive(
            from: (52.5, 13.4), azimuth: 90, speed: 12, seconds: 600, interval: 5, seed: 3
        ).fixes
        var jumpy = drive
        jumpy[40] = Self.moved(drive[40], north: 340)
        let driving = SmoothingOptions(profile: .driving)
        var jumpyProblem = TrackProblem(fixes: jumpy, options: driving)
        #expect(jumpyProblem.findRelocations(maximumSpeedMetresPerSecond: driving.maximumSpeedMetresPerSecond).isEmpty)
    }

    /// A relocation inside a track longer than one frame (smoothed in 50 km pieces): a reviewer's 64 km ride at
    /// 8 m/s whose second half moved 2.2 km north counted the jump (66,341 m against 64,331 without it).
    @Test("counts nothing for a relocation inside a track smoothed in pieces")
    func relocationInsideAPiece() {
        let (_, fixes) = FarFromAnchorTests.straightDrive(
            from: (49, 11), azimuth: 90, speed: 8, seconds: 8_000, interval: 1, seed: 11)
        let smoother = WholeTrackSmoother(profile: .cycling)
        let clean = smoother.smooth(fixes)
        var shifted = fixes
        for k in 4_000..<shifted.count { shifted[k] = Self.moved(fixes[k], north: 2_200) }
        let track = smoother.smooth(shifted)
        #expect(abs(track.distanceMetres - clean.distanceMetres) < 40, "clean \(clean.distanceMetres) m")
    }

    /// A ride faster than the profile allows, with impossible steps scattered through it (5 minutes in a car at 29-37
    /// m/s inside a ride under the cycling profile's 25, 1 m of noise claiming 1.5 m): a reviewer's had its noisier steps read as
    /// relocations, each dropping a step, 639 m of 35 km. None is now: the steps around a relocation must be
    /// within half the ceiling.
    @Test("finds no relocation in a ride faster than the profile")
    func noRelocationInAFastRide() {
        var rng = TestRNG(state: 5)
        var east = 0.0
        // (Inside an hour's ride at 6 m/s: on the car leg alone, more than 5 % of the steps are impossible, and the
        // profile is judged wrong for the whole track.)
        let fixes = (0..<4_500).map { s -> Fix in
            let speed = (3_600..<3_900).contains(s) ? 33 + 4 * sin(Double(s) / 20) : 6
            east += speed
            let p = Geodesic.wgs84.destination(
                from: (49, 11), azimuthDegrees: 90, distanceMetres: east + rng.gaussian())
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(s) * 1000),
                latitude: p.latitude + rng.gaussian() / 111_000, longitude: p.longitude, horizontalAccuracyMetres: 1.5)
        }
        let options = SmoothingOptions(profile: .cycling)
        var problem = TrackProblem(fixes: fixes, options: options)
        let judged = problem.stepJudgement(maximumSpeedMetresPerSecond: options.maximumSpeedMetresPerSecond)
        #expect(judged.impossible > 0, "the ride must hold impossible steps for the test to say anything")
        #expect(problem.findRelocations(maximumSpeedMetresPerSecond: options.maximumSpeedMetresPerSecond).isEmpty)
    }
}
