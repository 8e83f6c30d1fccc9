import Testing

@testable import TrueTrackCore

/// The radii of curvature and the short-step length against the geodesic.
@Suite struct EllipsoidTests {
    /// Steps of 1 m to 5 km in every direction at latitudes from the equator to 88°: the short-step length
    /// agrees with the geodesic to a relative 10⁻⁷ (4.9 × 10⁻⁸ measured) wherever `isShortStep` holds (the smoother measures with it).
    @Test func aShortStepMeasuresAsTheGeodesic() {
        var worst = 0.0, checked = 0
        for latitude in stride(from: -88.0, through: 88.0, by: 8) {
            for azimuth in stride(from: 0.0, to: 360, by: 15) {
                for metres in [1.0, 30, 300, 1_000, 5_000] {
                    let start = (latitude: latitude, longitude: 179.999)
                    let end = Geodesic.wgs84.destination(from: start, azimuthDegrees: azimuth, distanceMetres: metres)
                    let to = (latitude: end.latitude, longitude: end.longitude)
                    guard Ellipsoid.wgs84.isShortStep(from: start, to: to) else { continue }
                    let step = Ellipsoid.wgs84.shortStepLengthMetres(from: start, to: to)
                    worst = max(worst, abs(step - metres) / metres)
                    checked += 1
                }
            }
        }
        #expect(worst < 1e-7, "worst relative error \(worst)")
        // (Most steps are short ones: a test that skipped them all would pass with nothing measured.)
        #expect(checked > 500, "\(checked) of 2,760 steps short")
    }

    /// Where a sphere of the mean radius is off (north–south at the equator, east–west at 60°), the step is the
    /// ellipsoid's: the haversine reads 100 km north at the equator 0.56 % long.
    @Test func aStepNorthAtTheEquatorIsTheMeridiansNotTheMeanSpheres() {
        let start = (latitude: 0.0, longitude: 10.0)
        let end = Geodesic.wgs84.destination(from: start, azimuthDegrees: 0, distanceMetres: 1_000)
        let to = (latitude: end.latitude, longitude: end.longitude)
        let step = Ellipsoid.wgs84.shortStepLengthMetres(from: start, to: to)
        #expect(abs(step - 1_000) < 1e-6)
        let sphere = Haversine.distance(from: start, to: to)
        #expect(abs(sphere / 1_000 - 1.0056) < 0.0002, "\(sphere)")
    }

    /// Steps that span degrees, or start within 1° of a pole, are left to the geodesic.
    @Test func aLongOrPolarStepIsNotShort() {
        #expect(!Ellipsoid.wgs84.isShortStep(from: (0, 0), to: (0.06, 0)))
        #expect(!Ellipsoid.wgs84.isShortStep(from: (0, 0), to: (0, -0.06)))
        #expect(!Ellipsoid.wgs84.isShortStep(from: (89.5, 0), to: (89.5, 0.01)))
        #expect(Ellipsoid.wgs84.isShortStep(from: (10, 179.99), to: (10, -179.99)))
    }
}
