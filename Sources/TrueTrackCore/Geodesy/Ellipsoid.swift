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
}
