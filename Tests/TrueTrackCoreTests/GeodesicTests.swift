import Testing
import TrueTrackSimulation

@testable import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The smallest difference between two angles in degrees, 0…180.
func angularDifference(_ a: Double, _ b: Double) -> Double {
    abs((a - b).remainder(dividingBy: 360))
}

@Suite struct GeodesicTests {
    let geodesic = Geodesic.wgs84

    // MARK: Against Karney's GeographicLib

    @Test func distancesMatchGeographicLibToTheMillimetre() {
        var worst = 0.0
        var worstCase = ""
        for c in geodesicReferenceCases {
            let r = geodesic.inverse(from: (c.latitude1, c.longitude1), to: (c.latitude2, c.longitude2))
            let error = abs(r.distanceMetres - c.distance)
            #expect(error < 1e-3, "\(c): \(r.distanceMetres) vs \(c.distance)")
            if error > worst { worst = error; worstCase = c.description }
        }
        // Measured: 3.7e−9 m (3.7 nm, two ulps of a 10 782 km distance). 1 µm guards regressions with a
        // margin for other platforms' libm.
        #expect(worst < 1e-6, "worst \(worst) m at \(worstCase)")
    }

    /// Azimuths agree to 1e−9°, or, for lines shorter than a few metres, to within what the coordinates
    /// themselves determine: a latitude difference of 1e−8° between two doubles of ~45 has a relative
    /// round-off of ~1e−8, so the azimuth of a 4 cm line is only defined to ~1e−7°. There the test bounds
    /// the sideways offset the azimuth error makes at the far end: under 1 nanometre.
    @Test func azimuthsMatchGeographicLibWhereUnique() {
        var worstDegrees = 0.0
        for c in geodesicReferenceCases where c.azimuthsUnique {
            let r = geodesic.inverse(from: (c.latitude1, c.longitude1), to: (c.latitude2, c.longitude2))
            let e1 = angularDifference(r.initialAzimuthDegrees, c.azimuth1)
            let e2 = angularDifference(r.finalAzimuthDegrees, c.azimuth2)
            let sidewaysMetres = max(e1, e2) * .pi / 180 * c.distance
            #expect(max(e1, e2) < 1e-9 || sidewaysMetres < 1e-9, "\(c): \(r) vs \(c.azimuth1), \(c.azimuth2)")
            if c.distance > 10 { worstDegrees = max(worstDegrees, e1, e2) }
        }
        // Measured: 2.3e−11° for lines over 10 m.
        #expect(worstDegrees < 1e-10)
    }

    /// Whatever the azimuth convention (poles, coincident or exactly antipodal points), the returned
    /// azimuth and distance must lead from the first point to the second.
    @Test func returnedAzimuthAndDistanceReachTheSecondPoint() {
        for c in geodesicReferenceCases {
            let r = geodesic.inverse(from: (c.latitude1, c.longitude1), to: (c.latitude2, c.longitude2))
            let end = geodesic.destination(
                from: (c.latitude1, c.longitude1), azimuthDegrees: r.initialAzimuthDegrees,
                distanceMetres: r.distanceMetres)
            let miss = geodesic.distance(from: (end.latitude, end.longitude), to: (c.latitude2, c.longitude2))
            #expect(miss < 1e-3, "\(c): lands \(miss) m away")
            // At and next to a pole the azimuth of travel turns with the smallest change of position.
            if abs(c.latitude2) < 89.999 {
                #expect(angularDifference(end.finalAzimuthDegrees, r.finalAzimuthDegrees) < 1e-8, "\(c)")
            }
        }
    }

    @Test func directProblemMatchesGeographicLib() {
        var worst = 0.0
        for c in geodesicReferenceCases {
            let end = geodesic.destination(
                from: (c.latitude1, c.longitude1), azimuthDegrees: c.azimuth1, distanceMetres: c.distance)
            let miss = geodesic.distance(from: (end.latitude, end.longitude), to: (c.latitude2, c.longitude2))
            #expect(miss < 1e-3, "\(c): lands \(miss) m away")
            worst = max(worst, miss)
        }
        // Measured: 7.6e−9 m.
        #expect(worst < 1e-6, "worst miss \(worst) m")
    }

    // MARK: Karney (2013), worked examples (values as printed in the paper)

    /// The paper's short-line example: φ₁ = −30.12345°, φ₂ = −30.12344°, λ₁₂ = 0.00005°.
    @Test func paperShortLineExample() {
        let r = geodesic.inverse(from: (-30.12345, 0), to: (-30.12344, 0.00005))
        // The paper prints six decimals (truncated: GeographicLib gives 77.0435335…, 77.0435084…).
        #expect(abs(r.distanceMetres - 4.944208) < 1e-6)
        #expect(abs(r.initialAzimuthDegrees - 77.043533) < 1e-6)
        #expect(abs(r.finalAzimuthDegrees - 77.043508) < 1e-6)
    }

    /// The paper's nearly antipodal example, solved from the astroid starting guess: φ₁ = −30°,
    /// φ₂ = 29.9°, λ₁₂ = 179.8°.
    @Test func paperNearlyAntipodalExample() {
        let r = geodesic.inverse(from: (-30, 0), to: (29.9, 179.8))
        #expect(abs(r.distanceMetres - 19_989_832.827610) < 0.5e-6)
        #expect(abs(r.initialAzimuthDegrees - 161.890524736) < 0.5e-9)
        #expect(abs(r.finalAzimuthDegrees - 18.090737246) < 0.5e-9)
    }

    /// The paper's direct-problem example: φ₁ = 40°, α₁ = 30°, s₁₂ = 10 000 km.
    @Test func paperDirectExample() {
        let end = geodesic.destination(from: (40, 0), azimuthDegrees: 30, distanceMetres: 10_000_000)
        #expect(abs(end.latitude - 41.79331020506) < 0.5e-11)
        #expect(abs(end.longitude - 137.84490004377) < 0.5e-11)
        #expect(abs(end.finalAzimuthDegrees - 149.09016931807) < 0.5e-11)
    }

    // MARK: Hand-checked values and edge cases

    @Test func quarterMeridianAndEquatorialDegree() {
        // Quarter meridian of WGS-84: 10 001 965.7293 m (equator to pole along any meridian).
        let quarter = geodesic.inverse(from: (0, 17), to: (90, 17))
        #expect(abs(quarter.distanceMetres - 10_001_965.729_3) < 1e-4)
        #expect(quarter.initialAzimuthDegrees == 0)
        // One degree along the equator is a·π/180.
        let degree = geodesic.inverse(from: (0, 0), to: (0, 1))
        #expect(abs(degree.distanceMetres - 6_378_137 * Double.pi / 180) < 1e-9)
        #expect(degree.initialAzimuthDegrees == 90 && degree.finalAzimuthDegrees == 90)
        // Westwards.
        let west = geodesic.inverse(from: (0, 1), to: (0, 0))
        #expect(west.initialAzimuthDegrees == 270 && west.finalAzimuthDegrees == 270)
    }

    @Test func coincidentPointsAreZeroApart() {
        for (lat, lon) in [(0.0, 0.0), (51.5, -0.12), (-90.0, 45.0), (90.0, 180.0), (-33.9, 151.2)] {
            let r = geodesic.inverse(from: (lat, lon), to: (lat, lon))
            #expect(r.distanceMetres == 0)
            #expect(r.initialAzimuthDegrees.isFinite && r.finalAzimuthDegrees.isFinite)
        }
        // The same place written with longitudes 360° apart, and ±180.
        #expect(geodesic.distance(from: (10, 190), to: (10, -170)) == 0)
        #expect(geodesic.distance(from: (10, 180), to: (10, -180)) == 0)
    }

    @Test func swappingThePointsReversesTheGeodesic() {
        for c in geodesicReferenceCases where c.azimuthsUnique {
            let forward = geodesic.inverse(from: (c.latitude1, c.longitude1), to: (c.latitude2, c.longitude2))
            let back = geodesic.inverse(from: (c.latitude2, c.longitude2), to: (c.latitude1, c.longitude1))
            #expect(abs(forward.distanceMetres - back.distanceMetres) < 1e-8, "\(c)")
            #expect(angularDifference(back.initialAzimuthDegrees, forward.reverseAzimuthDegrees) < 1e-9, "\(c)")
        }
    }

    @Test func azimuthsAreInZeroTo360() {
        for c in geodesicReferenceCases {
            let r = geodesic.inverse(from: (c.latitude1, c.longitude1), to: (c.latitude2, c.longitude2))
            #expect(r.initialAzimuthDegrees >= 0 && r.initialAzimuthDegrees < 360)
            #expect(r.finalAzimuthDegrees >= 0 && r.finalAzimuthDegrees < 360)
            #expect(r.reverseAzimuthDegrees >= 0 && r.reverseAzimuthDegrees < 360)
        }
    }

    @Test func nonFiniteInputGivesNaNNotATrap() {
        let r = geodesic.inverse(from: (.nan, 0), to: (1, 1))
        #expect(r.distanceMetres.isNaN && r.initialAzimuthDegrees.isNaN)
        #expect(geodesic.distance(from: (0, .infinity), to: (1, 1)).isNaN)
        let end = geodesic.destination(from: (0, 0), azimuthDegrees: .nan, distanceMetres: 1)
        #expect(end.latitude.isNaN && end.longitude.isNaN)
        // Out-of-range latitudes are clamped to the pole.
        #expect(geodesic.distance(from: (95, 0), to: (90, 0)) == 0)
    }

    /// Seeded random lines of every length, solved forwards with the direct problem and back with the
    /// inverse: the inverse must recover the distance (it is the shortest path when shorter than about
    /// half the meridian) to the millimetre.
    @Test func inverseRecoversRandomDirectLines() {
        var rng = SplitMix64(seed: 0x6E0D_E51C)
        for _ in 0..<2000 {
            let lat1 = rng.uniform(-90, 90)
            let lon1 = rng.uniform(-180, 180)
            let azi1 = rng.uniform(0, 360)
            let s12 = pow(10, rng.uniform(-3, 7.2))  // 1 mm … 15 800 km
            let end = geodesic.destination(from: (lat1, lon1), azimuthDegrees: azi1, distanceMetres: s12)
            let r = geodesic.inverse(from: (lat1, lon1), to: (end.latitude, end.longitude))
            // Longer lines may have a shorter alternative; never a longer one.
            #expect(r.distanceMetres <= s12 + 1e-3)
            if s12 < 9_000_000 {
                #expect(abs(r.distanceMetres - s12) < 1e-3, "\(lat1) \(lon1) \(azi1) \(s12)")
            }
        }
    }
}

extension SplitMix64 {
    /// A uniform value in `lower..<upper`.
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double { lower + (upper - lower) * uniform() }
}
