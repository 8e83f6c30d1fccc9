import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

@Suite struct HaversineTests {
    @Test func knownDistances() {
        // Computed independently in Python (math.asin form, R = 6 371 008.8 m).
        let jfkToHeathrow = Haversine.distance(from: (40.6, -73.8), to: (51.6, -0.5))
        #expect(abs(jfkToHeathrow - 5_536_891.987_227_633) < 1e-6)
        let degree = Haversine.distance(from: (0, 0), to: (0, 1))
        #expect(abs(degree - 111_195.080_233_532_9) < 1e-8)
        #expect(abs(Haversine.distance(from: (0, 0), to: (0, 180)) - Double.pi * 6_371_008.8) < 1e-6)
        #expect(Haversine.distance(from: (12.5, 99.1), to: (12.5, 99.1)) == 0)
    }

    @Test func meanRadiusIsTheIUGGValue() {
        // R₁ = (2a + b) / 3 = 6 371 008.77 m for WGS-84, rounded to the decimetre by IUGG.
        let e = Ellipsoid.wgs84
        let r1 = (2 * e.semiMajorAxisMetres + e.semiMinorAxisMetres) / 3
        #expect(Ellipsoid.meanRadiusMetres == 6_371_008.8)
        #expect(abs(r1 - Ellipsoid.meanRadiusMetres) < 0.05)
    }

    @Test func symmetricAndPeriodicInLongitude() {
        var rng = SplitMix64(seed: 0xA5A5)
        for _ in 0..<500 {
            let p = (latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let q = (latitude: rng.uniform(-90, 90), longitude: rng.uniform(-180, 180))
            let d = Haversine.distance(from: p, to: q)
            #expect(abs(d - Haversine.distance(from: q, to: p)) <= 1e-9 * d)
            #expect(abs(d - Haversine.distance(from: p, to: (q.latitude, q.longitude + 360))) <= 1e-6 * max(d, 1))
            #expect(d >= 0 && d <= Double.pi * Ellipsoid.meanRadiusMetres * (1 + 1e-15))
        }
    }

    /// The documented error against the WGS-84 geodesic: at most ~0.56 %.
    @Test func errorAgainstTheEllipsoidIsWithinTheDocumentedBound() {
        var worst = 0.0
        for c in geodesicReferenceCases where c.distance > 0 {
            let h = Haversine.distance(from: (c.latitude1, c.longitude1), to: (c.latitude2, c.longitude2))
            worst = max(worst, abs(h - c.distance) / c.distance)
        }
        // Measured over the 200 reference pairs: 0.49 %.
        #expect(worst < 0.0057)
        // The extremes: a short north–south step on the equator (+0.56 %: R / M(0) − 1) and at a pole
        // (−0.45 %: R / M(90°) − 1), and an east–west step along the equator (−0.11 %: R / a − 1).
        let g = Geodesic.wgs84
        let equatorNS = Haversine.distance(from: (0, 0), to: (0.001, 0)) / g.distance(from: (0, 0), to: (0.001, 0)) - 1
        #expect(abs(equatorNS - 0.005_614) < 1e-5)
        let polarNS =
            Haversine.distance(from: (89.998, 0), to: (89.999, 0))
            / g.distance(from: (89.998, 0), to: (89.999, 0)) - 1
        #expect(abs(polarNS + 0.004_467) < 1e-5)
        let equatorEW = Haversine.distance(from: (0, 0), to: (0, 0.001)) / g.distance(from: (0, 0), to: (0, 0.001)) - 1
        #expect(abs(equatorEW + 0.001_118) < 1e-5)
    }

    @Test func fixHelpersUseTheSameFormulas() throws {
        let a = try Fix(timestamp: Timestamp(millisecondsSince1970: 0), latitude: 40.6, longitude: -73.8)
        let b = try Fix(timestamp: Timestamp(millisecondsSince1970: 1000), latitude: 51.6, longitude: -0.5)
        #expect(a.haversineDistance(to: b) == Haversine.distance(from: (40.6, -73.8), to: (51.6, -0.5)))
        #expect(abs(a.geodesicDistance(to: b) - 5_551_759.400_318_678_5) < 1e-6)  // GeographicLib
    }

    @Test func nonFiniteInputGivesNaN() {
        #expect(Haversine.distance(from: (.nan, 0), to: (0, 0)).isNaN)
        #expect(Haversine.distance(from: (0, .infinity), to: (0, 0)).isNaN)
    }
}
