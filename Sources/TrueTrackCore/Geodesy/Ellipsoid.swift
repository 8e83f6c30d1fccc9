#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ellipsoid of revolution (an oblate spheroid) that latitudes and longitudes refer to.
///
/// Stores the two defining constants, the equatorial radius `a` and the flattening `f`, and derives the
/// rest once. All lengths are in metres.
public struct Ellipsoid: Sendable, Hashable, BitwiseCopyable {
    /// The equatorial radius (semi-major axis) `a`, in metres.
    public let semiMajorAxisMetres: Double
    /// The flattening `f = (a − b) / a` (dimensionless; 0 for a sphere).
    public let flattening: Double

    /// The polar radius (semi-minor axis) `b = a (1 − f)`, in metres.
    public let semiMinorAxisMetres: Double
    /// The first eccentricity squared `e² = f (2 − f)`.
    public let eccentricitySquared: Double
    /// The second eccentricity squared `e′² = e² / (1 − e²)`.
    public let secondEccentricitySquared: Double
    /// The third flattening `n = f / (2 − f) = (a − b) / (a + b)`, the small parameter of Karney's series.
    public let thirdFlattening: Double

    /// Creates an ellipsoid from its equatorial radius in metres and its flattening.
    ///
    /// - Parameters:
    ///   - semiMajorAxisMetres: the equatorial radius `a`, in metres (positive).
    ///   - flattening: `f = (a − b) / a`. The geodesic series used by ``Geodesic`` are accurate to
    ///     round-off for `|f| ≤ 0.01` (Earth: 0.0034).
    public init(semiMajorAxisMetres: Double, flattening: Double) {
        self.semiMajorAxisMetres = semiMajorAxisMetres
        self.flattening = flattening
        semiMinorAxisMetres = semiMajorAxisMetres * (1 - flattening)
        eccentricitySquared = flattening * (2 - flattening)
        secondEccentricitySquared = eccentricitySquared / (1 - eccentricitySquared)
        thirdFlattening = flattening / (2 - flattening)
    }

    /// The WGS-84 ellipsoid (NIMA TR8350.2): `a = 6 378 137 m`, `f = 1 / 298.257223563`. GNSS receivers
    /// and phones report latitudes and longitudes on it.
    public static let wgs84 = Ellipsoid(semiMajorAxisMetres: 6_378_137, flattening: 1 / 298.257223563)

    /// The IUGG mean radius of the Earth `R₁ = (2a + b) / 3` for WGS-84, 6 371 008.8 metres.
    ///
    /// The radius of the sphere used by ``Haversine`` and by the data-set manifest's reference distances
    /// (`/work/shared/datasets/MANIFEST.json`: "haversine, sphere R=6371008.8 m"), so distances computed
    /// with it compare like for like with those references.
    public static let meanRadiusMetres: Double = 6_371_008.8

    /// The meridional radius of curvature `M = a (1 − e²) / (1 − e² sin²φ)^(3/2)` at a latitude, in metres:
    /// one radian of latitude spans `M` metres north–south there.
    ///
    /// - Parameter latitude: geodetic latitude in degrees.
    @inlinable
    public func meridionalRadiusOfCurvature(latitude: Double) -> Double {
        let s = GeoAngle.sinCos(degrees: latitude).sin
        let w2 = 1 - eccentricitySquared * s * s
        return semiMajorAxisMetres * (1 - eccentricitySquared) / (w2 * w2.squareRoot())
    }

    /// The prime-vertical radius of curvature `N = a / (1 − e² sin²φ)^(1/2)` at a latitude, in metres:
    /// one radian of longitude spans `N cos φ` metres east–west there.
    ///
    /// - Parameter latitude: geodetic latitude in degrees.
    @inlinable
    public func primeVerticalRadiusOfCurvature(latitude: Double) -> Double {
        let s = GeoAngle.sinCos(degrees: latitude).sin
        return semiMajorAxisMetres / (1 - eccentricitySquared * s * s).squareRoot()
    }

    /// The length of a short step between two positions on this ellipsoid, metres: a straight step in the plane
    /// tangent at the middle latitude, scaled by the radii of curvature there (`√((M Δφ)² + (N cos φₘ Δλ)²)`).
    ///
    /// Exact to second order in the step: the relative error is about `(d / R)²` (measured against ``Geodesic``:
    /// `EllipsoidTests`), where a sphere's haversine is off by up to 0.6 % of every step (+0.56 % north–south at
    /// the equator, −0.36 % east–west at 60°: the ellipsoid's radii against one mean radius). Use ``Geodesic`` for steps longer than a few
    /// kilometres or that pass near a pole (``isShortStep(from:to:)`` says when this one holds): the tangent plane
    /// bends away from the ellipsoid and the meridians converge.
    ///
    /// - Parameters:
    ///   - start: latitude and longitude in degrees.
    ///   - end: latitude and longitude in degrees (the longitude difference is reduced to ±180°).
    @inlinable
    public func shortStepLengthMetres(
        from start: (latitude: Double, longitude: Double), to end: (latitude: Double, longitude: Double)
    ) -> Double {
        let radians = GeoAngle.radiansPerDegree
        var dLon = end.longitude - start.longitude
        if !(abs(dLon) <= 180) { dLon = dLon.remainder(dividingBy: 360) }
        // One libm call: |φₘ| ≤ 90°, so cos is accurate without GeoAngle's quadrant reduction, and sin² = 1 − cos².
        let cosine = cos((start.latitude + end.latitude) / 2 * radians)
        let w2 = 1 - eccentricitySquared * (1 - cosine * cosine)
        let n = semiMajorAxisMetres / w2.squareRoot()
        let north = n * (1 - eccentricitySquared) / w2 * (end.latitude - start.latitude) * radians
        let east = n * cosine * dLon * radians
        return (north * north + east * east).squareRoot()
    }

    /// Whether ``shortStepLengthMetres(from:to:)`` measures the step between two positions to better than 10⁻⁷
    /// of its length: both within 0.05° of latitude and longitude of each other (about 5.6 km north–south), and
    /// not within 1° of a pole (where a short step spans many degrees of longitude).
    @inlinable
    public func isShortStep(
        from start: (latitude: Double, longitude: Double), to end: (latitude: Double, longitude: Double)
    ) -> Bool {
        var dLon = end.longitude - start.longitude
        if !(abs(dLon) <= 180) { dLon = dLon.remainder(dividingBy: 360) }
        return abs(end.latitude - start.latitude) <= 0.05 && abs(dLon) <= 0.05 && abs(start.latitude) < 89
    }
}
