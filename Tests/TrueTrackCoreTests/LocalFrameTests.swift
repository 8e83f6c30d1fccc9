import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

@Suite struct LocalFrameTests {
    let geodesic = Geodesic.wgs84

    @Test func radiiOfCurvatureAtTheEquatorAndPole() {
        let e = Ellipsoid.wgs84
        // M(0) = a (1 − e²), N(0) = a, M(90°) = N(90°) = a / √(1 − e²).
        #expect(abs(e.meridionalRadiusOfCurvature(latitude: 0) - 6_335_439.327_292_82) < 1e-6)
        #expect(abs(e.primeVerticalRadiusOfCurvature(latitude: 0) - 6_378_137) < 1e-6)
        #expect(abs(e.meridionalRadiusOfCurvature(latitude: 90) - 6_399_593.625_758_49) < 1e-6)
        #expect(abs(e.primeVerticalRadiusOfCurvature(latitude: -90) - 6_399_593.625_758_49) < 1e-6)
    }

    @Test func anchorIsTheOriginAndProjectionRoundTrips() {
        var rng = SplitMix64(seed: 0x10CA1)
        for _ in 0..<1000 {
            let frame = LocalFrame(anchor: (rng.uniform(-85, 85), rng.uniform(-180, 180)))
            let origin = frame.project(latitude: frame.anchorLatitude, longitude: frame.anchorLongitude)
            #expect(origin.east == 0 && origin.north == 0)
            let east = rng.uniform(-20_000, 20_000), north = rng.uniform(-20_000, 20_000)
            let p = frame.unproject(east: east, north: north)
            let back = frame.project(latitude: p.latitude, longitude: p.longitude)
            #expect(abs(back.east - east) < 1e-8 && abs(back.north - north) < 1e-8, "\(frame) \(east) \(north)")
        }
    }

    /// The documented bound: within the 10 km re-anchoring radius and up to 70° of latitude, the distance
    /// from the anchor read off the frame is within 0.1 % of the geodesic distance.
    @Test func distanceFromTheAnchorIsWithinATenthOfAPercent() {
        var rng = SplitMix64(seed: 0xF4A3E)
        var worst = 0.0
        for i in 0..<3000 {
            // Every third anchor right at ±70°, where the bound is tightest.
            let latitude = i % 3 == 0 ? (i % 2 == 0 ? 70.0 : -70.0) : rng.uniform(-70, 70)
            let frame = LocalFrame(anchor: (latitude, rng.uniform(-180, 180)))
            let d = rng.uniform(10, LocalFrame.reanchoringRadiusMetres)
            let p = geodesic.destination(
                from: (frame.anchorLatitude, frame.anchorLongitude), azimuthDegrees: rng.uniform(0, 360),
                distanceMetres: d)
            let q = frame.project(latitude: p.latitude, longitude: p.longitude)
            let relative = abs((q.east * q.east + q.north * q.north).squareRoot() - d) / d
            worst = max(worst, relative)
        }
        // Measured: 0.083 % (at 70°, 10 km, azimuth ≈ 55° off north or south).
        #expect(worst < 1e-3, "worst \(worst)")
        #expect(worst > 5e-4)  // the bound in the documentation is tight, not a wild overestimate
    }

    /// The documented east–west scale error far from the anchor: tan φ₀ · Δn / R.
    @Test func eastWestScaleErrorAtTheEdgeMatchesTheDocumentation() {
        for (latitude, expected) in [(45.0, 0.0016), (70.0, 0.0043)] {
            let frame = LocalFrame(anchor: (latitude, 5))
            // A 10 m step due east, 10 km north of the anchor.
            let start = frame.unproject(east: 0, north: 10_000)
            let end = geodesic.destination(from: start, azimuthDegrees: 90, distanceMetres: 10)
            let a = frame.project(latitude: start.latitude, longitude: start.longitude)
            let b = frame.project(latitude: end.latitude, longitude: end.longitude)
            let projected = ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north))
                .squareRoot()
            let error = abs(projected / 10 - 1)
            #expect(abs(error - expected) < 0.0002, "\(latitude)°: \(error)")
        }
    }

    @Test func longitudeWrapsAcrossTheAntimeridian() {
        let frame = LocalFrame(anchor: (10, 179.999))
        let q = frame.project(latitude: 10, longitude: -179.999)
        #expect(abs(q.east - 0.002 * frame.metresPerDegreeEast) < 1e-6)
        #expect(q.east > 200 && q.east < 250)
        let back = frame.unproject(east: q.east, north: q.north)
        #expect(abs(back.longitude - -179.999) < 1e-9)
        // Against the geodesic across the antimeridian.
        let d = geodesic.distance(from: (10, 179.999), to: (10, -179.999))
        #expect(abs(q.east - d) / d < 1e-6)
        // An anchor given as −180 and a point at +179.9.
        let west = LocalFrame(anchor: (0, -180)).project(latitude: 0, longitude: 179.9)
        #expect(west.east < 0 && abs(west.east + 0.1 * 111_319.490_793) < 1e-3)
    }

    @Test func reanchoringRule() {
        let frame = LocalFrame(anchor: (48.1, 11.6))
        #expect(LocalFrame.reanchoringRadiusMetres == 10_000)
        #expect(!frame.needsReanchoring(eastMetres: 9_999, northMetres: 0))
        #expect(!frame.needsReanchoring(eastMetres: 0, northMetres: -10_000))
        #expect(frame.needsReanchoring(eastMetres: 7_100, northMetres: 7_100))  // 10 041 m
        #expect(frame.needsReanchoring(eastMetres: -12_000, northMetres: 0))
        let p = frame.unproject(east: 7_100, north: 7_100)
        let next = frame.reanchored(at: p)
        #expect(next.anchorLatitude == p.latitude && next.anchorLongitude == p.longitude)
        #expect(next.ellipsoid == frame.ellipsoid)
        let q = next.project(latitude: p.latitude, longitude: p.longitude)
        #expect(q.east == 0 && q.north == 0)
    }

    @Test func degenerateAnchorsDoNotTrap() {
        for frame in [LocalFrame(anchor: (90, 0)), LocalFrame(anchor: (-90, 45)), LocalFrame(anchor: (120, 400))] {
            let p = frame.unproject(east: 100, north: -100)
            #expect(p.latitude.isFinite && p.longitude.isFinite)
            #expect(p.latitude >= -90 && p.latitude <= 90 && p.longitude >= -180 && p.longitude <= 180)
        }
    }
}
