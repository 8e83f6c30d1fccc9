import Foundation
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

    // MARK: Polar frames

    @Test("a frame is polar only from its polar latitude on, and an equirectangular frame is unchanged below it")
    func polarOnlyBeyondItsLatitude() {
        let polar = LocalFrame.trackingPolarLatitudeDegrees
        #expect(polar == 80)
        #expect(!LocalFrame(anchor: (89.99, 0)).isPolar)  // the default: never
        #expect(!LocalFrame(anchor: (79.99, 0), polarFromLatitudeDegrees: polar).isPolar)
        #expect(LocalFrame(anchor: (80, 0), polarFromLatitudeDegrees: polar).isPolar)
        #expect(LocalFrame(anchor: (-80, 0), polarFromLatitudeDegrees: polar).isPolar)
        var rng = SplitMix64(seed: 0x9014)
        for _ in 0..<200 {
            let anchor = (rng.uniform(-79.9, 79.9), rng.uniform(-180, 180))
            let plain = LocalFrame(anchor: anchor)
            let chosen = LocalFrame(anchor: anchor, polarFromLatitudeDegrees: polar)
            let latitude = anchor.0 + rng.uniform(-0.05, 0.05), longitude = anchor.1 + rng.uniform(-0.05, 0.05)
            #expect(
                plain.project(latitude: latitude, longitude: longitude)
                    == chosen.project(latitude: latitude, longitude: longitude))
            #expect(
                chosen.gridCourseDegrees(123.4, atLatitude: latitude, longitude: longitude, accuracyMetres: 5) == 123.4)
        }
        // Re-anchoring keeps the choice: towards the pole a frame turns polar.
        let moving = LocalFrame(anchor: (79.95, 10), polarFromLatitudeDegrees: polar)
        #expect(moving.reanchored(at: (80.05, 10)).isPolar)
        #expect(!LocalFrame(anchor: (79.95, 10)).reanchored(at: (80.05, 10)).isPolar)
    }

    @Test("a polar frame round-trips positions on both sides of the pole and keeps the pole a point")
    func polarRoundTrip() {
        var rng = SplitMix64(seed: 0x70_1E)
        for sign in [1.0, -1.0] {
            for anchorLatitude in [80.0, 85, 89.9, 89.999, 90] {
                let frame = LocalFrame(
                    anchor: (sign * anchorLatitude, rng.uniform(-180, 180)), polarFromLatitudeDegrees: 80)
                let origin = frame.project(latitude: frame.anchorLatitude, longitude: frame.anchorLongitude)
                #expect(abs(origin.east) < 1e-9 && abs(origin.north) < 1e-9)
                for _ in 0..<300 {
                    let east = rng.uniform(-10_000, 10_000), north = rng.uniform(-10_000, 10_000)
                    let p = frame.unproject(east: east, north: north)
                    let back = frame.project(latitude: p.latitude, longitude: p.longitude)
                    #expect(
                        abs(back.east - east) < 1e-6 && abs(back.north - north) < 1e-6,
                        "\(frame.anchorLatitude) \(east) \(north) → \(p) → \(back)")
                }
                if anchorLatitude >= 89.9 {
                    // The pole is one point whatever the longitude it is given with, and on the frame's north axis.
                    let pole = frame.project(latitude: sign * 90, longitude: 17)
                    let again = frame.project(latitude: sign * 90, longitude: -140)
                    #expect(abs(pole.east - again.east) < 1e-6 && abs(pole.north - again.north) < 1e-6)
                    #expect(abs(pole.east) < 1e-6)
                    let distance = geodesic.distance(
                        from: (frame.anchorLatitude, frame.anchorLongitude), to: (sign * 90, 0))
                    #expect(abs(pole.north - sign * distance) < 0.01, "\(pole) \(distance)")
                }
            }
        }
    }

    /// A plane anchored far from the pole (80–89.99°) still places every point about the pole right: the pole is
    /// one point and positions within 6 km of it come back as they went in (with a linear ρ the pole lay up to
    /// 5.4 km beyond ρ = 0, and nearer points came back on the opposite meridian: a reviewer's).
    @Test("a polar frame anchored anywhere beyond 80° places the pole and the points about it right")
    func polarCapFromAFarAnchor() {
        var rng = SplitMix64(seed: 0xCA9)
        for sign in [1.0, -1.0] {
            for anchorLatitude in [80.0, 82, 85, 88, 89, 89.5, 89.99] {
                let frame = LocalFrame(
                    anchor: (sign * anchorLatitude, rng.uniform(-180, 180)), polarFromLatitudeDegrees: 80)
                let pole = frame.project(latitude: sign * 90, longitude: 17)
                let again = frame.project(latitude: sign * 90, longitude: -140)
                #expect(
                    abs(pole.east - again.east) < 1e-6 && abs(pole.north - again.north) < 1e-6,
                    "\(anchorLatitude): \(pole) vs \(again)")
                for _ in 0..<200 {
                    let point = geodesic.destination(
                        from: (sign * 90, 0), azimuthDegrees: rng.uniform(0, 360), distanceMetres: rng.uniform(0, 6_000)
                    )
                    let q = frame.project(latitude: point.latitude, longitude: point.longitude)
                    let back = frame.unproject(east: q.east, north: q.north)
                    let apart = geodesic.distance(from: (point.latitude, point.longitude), to: back)
                    #expect(apart < 1e-6, "\(anchorLatitude): \(point) came back \(back), \(apart) m away")
                }
            }
        }
    }

    /// The equirectangular frame's distances fail near a pole; the polar frame's hold there as well as the
    /// equirectangular frame's do at 45°.
    @Test("a polar frame measures distances from its anchor as the geodesic does, up to and across the pole")
    func polarDistances() {
        var rng = SplitMix64(seed: 0xD157)
        var worst = 0.0, worstEquirectangular = 0.0
        for i in 0..<3000 {
            let latitude = (i % 2 == 0 ? 1.0 : -1.0) * rng.uniform(80, 90)
            let polar = LocalFrame(anchor: (latitude, rng.uniform(-180, 180)), polarFromLatitudeDegrees: 80)
            let plain = LocalFrame(anchor: (polar.anchorLatitude, polar.anchorLongitude))
            let d = rng.uniform(10, LocalFrame.reanchoringRadiusMetres)
            let p = geodesic.destination(
                from: (polar.anchorLatitude, polar.anchorLongitude), azimuthDegrees: rng.uniform(0, 360),
                distanceMetres: d)
            func error(_ frame: LocalFrame) -> Double {
                let q = frame.project(latitude: p.latitude, longitude: p.longitude)
                return abs((q.east * q.east + q.north * q.north).squareRoot() - d) / d
            }
            worst = max(worst, error(polar))
            worstEquirectangular = max(worstEquirectangular, error(plain))
        }
        #expect(worst < 1e-3, "worst \(worst)")
        #expect(worstEquirectangular > 0.1, "the equirectangular frame near the pole: \(worstEquirectangular)")
    }

    @Test("courses and velocities turn with the meridians in a polar frame")
    func polarCourses() {
        var rng = SplitMix64(seed: 0xC0_5E)
        for _ in 0..<500 {
            let sign = rng.uniform() < 0.5 ? 1.0 : -1.0
            let frame = LocalFrame(
                anchor: (sign * rng.uniform(80, 90), rng.uniform(-180, 180)), polarFromLatitudeDegrees: 80)
            let start = frame.unproject(east: rng.uniform(-8_000, 8_000), north: rng.uniform(-8_000, 8_000))
            guard abs(start.latitude) < 89.999 else { continue }  // (at the pole itself every course is south)
            let course = rng.uniform(0, 360)
            // A 1 m step along `course` (clockwise from true north at the start), read in the frame.
            let end = geodesic.destination(from: start, azimuthDegrees: course, distanceMetres: 1)
            let a = frame.project(latitude: start.latitude, longitude: start.longitude)
            let b = frame.project(latitude: end.latitude, longitude: end.longitude)
            let measured = atan2(b.east - a.east, b.north - a.north) * 180 / .pi
            let grid = frame.gridCourseDegrees(
                course, atLatitude: start.latitude, longitude: start.longitude, accuracyMetres: 0)
            let difference = (measured - grid).remainder(dividingBy: 360)
            #expect(abs(difference) < 0.01, "\(frame.anchorLatitude) \(start) \(course): \(measured) vs \(grid)")
            // And back: the frame's velocity along the grid course is the true course at the start.
            let c = grid * .pi / 180
            let v = frame.trueVelocity(east: sin(c), north: cos(c), atEast: a.east, north: a.north)
            let back = (atan2(v.east, v.north) * 180 / .pi - course).remainder(dividingBy: 360)
            #expect(abs(back) < 1e-9)
        }
    }

    @Test("a course read too near the pole for its position's accuracy turns into no course")
    func coursesAtThePole() {
        let frame = LocalFrame(anchor: (89.99, 0), polarFromLatitudeDegrees: 80)
        // 100 m from the pole: a 5 m position may be 2.9° off in longitude, a 10 m one 5.7°.
        let latitude = 90 - 100 / frame.metresPerDegreeNorth
        let turned = frame.gridCourseDegrees(10, atLatitude: latitude, longitude: 30, accuracyMetres: 5)
        #expect(abs(turned - (10 - 30)) < 1e-6)
        #expect(frame.gridCourseDegrees(10, atLatitude: latitude, longitude: 30, accuracyMetres: 10).isNaN)
        #expect(frame.gridCourseDegrees(10, atLatitude: 90, longitude: 30, accuracyMetres: 0.1).isNaN)
        #expect(frame.gridCourseDegrees(.nan, atLatitude: latitude, longitude: 30, accuracyMetres: 5).isNaN)
        // An equirectangular frame turns nothing, whatever the accuracy.
        #expect(
            LocalFrame(anchor: (89.99, 0)).gridCourseDegrees(10, atLatitude: 90, longitude: 30, accuracyMetres: 50)
                == 10)
    }
}
