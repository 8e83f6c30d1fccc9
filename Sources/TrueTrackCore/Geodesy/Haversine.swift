#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Great-circle distances on a sphere by the haversine formula: fast (four trigonometric calls, an
/// `asin` and a square root) and adequate where a fraction of a percent does not matter.
///
/// ## Error against the ellipsoid
/// The Earth is not a sphere: one degree of latitude spans 110.57 km at the equator but 111.69 km at the
/// poles, while the sphere of radius ``Ellipsoid/meanRadiusMetres`` gives 111.19 km everywhere. Compared with
/// the WGS-84 geodesic (``Geodesic``), haversine distances on that sphere are therefore off by up to about
/// **0.56 %**: +0.56 % for north–south steps near the equator, −0.45 % for north–south steps near the
/// poles, −0.11 % for east–west steps along the equator, and in between elsewhere.
/// `HaversineTests` measures the worst case over 200 reference pairs. Use ``Geodesic`` for distances that
/// must be right to the millimetre; use this where speed matters more or to reproduce the data-set
/// manifest's reference distances, which were computed this way.
public enum Haversine {
    /// The great-circle distance in metres between two points on a sphere.
    ///
    /// - Parameters:
    ///   - start: the first point, latitude and longitude in degrees.
    ///   - end: the second point, in degrees. Longitudes need not be reduced: the formula is periodic.
    ///   - radiusMetres: the sphere's radius in metres. The default, ``Ellipsoid/meanRadiusMetres``
    ///     (6 371 008.8 m, the IUGG mean radius), is the one behind the data sets' reference distances.
    /// - Returns: the distance in metres, `0…π·radius`; NaN when an input is not finite.
    @inlinable
    public static func distance(
        from start: (latitude: Double, longitude: Double),
        to end: (latitude: Double, longitude: Double),
        radiusMetres: Double = Ellipsoid.meanRadiusMetres
    ) -> Double {
        let degrees = Double.pi / 180
        let phi1 = start.latitude * degrees
        let phi2 = end.latitude * degrees
        let sinHalfDPhi = sin((phi2 - phi1) / 2)
        let sinHalfDLambda = sin((end.longitude - start.longitude) * degrees / 2)
        let h = sinHalfDPhi * sinHalfDPhi + cos(phi1) * cos(phi2) * sinHalfDLambda * sinHalfDLambda
        let root = h.squareRoot()
        return 2 * radiusMetres * asin(root > 1 ? 1 : root)  // round-off can push h past 1; NaN stays NaN
    }
}
