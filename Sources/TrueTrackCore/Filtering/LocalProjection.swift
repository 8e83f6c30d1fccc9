/// A local east/north plane in metres around an origin on the WGS-84 ellipsoid (internal).
///
/// The filter works in metres, not degrees. Within a few kilometres of its origin the plane tangent to the
/// ellipsoid is an excellent approximation: east = Δλ · N(φ₀) · cos φ₀, north = Δφ · M(φ₀), where M and N are
/// the meridian and prime-vertical radii of curvature at the origin's latitude φ₀. Its scale error grows as
/// (distance / Earth radius) · tan φ₀: 1.6 × 10⁻⁴ at 1 km and 45°, which is why the ``Tracker`` moves the
/// origin to the filtered position once the state is farther than
/// ``LocalProjection/recentringDistanceMetres`` from it.
///
/// Everything the filter needs from geodesy goes through ``project(latitude:longitude:)`` and
/// ``unproject(east:north:)``, so switching to the library-wide `LocalFrame` is a change in this file only.
@usableFromInline
struct LocalProjection: Sendable, Hashable {
    /// WGS-84 semi-major axis a, in metres.
    @usableFromInline static let semiMajorAxisMetres = 6_378_137.0
    /// WGS-84 first eccentricity squared e² = f(2 − f), f = 1/298.257223563.
    @usableFromInline static let eccentricitySquared = (1 / 298.257223563) * (2 - 1 / 298.257223563)
    /// Distance from the origin beyond which the tracker re-centres the plane: 1 km keeps the scale error
    /// below 2 × 10⁻⁴ at mid latitudes, far below every distance bar, while re-centring stays rare (once per
    /// kilometre travelled).
    @usableFromInline static let recentringDistanceMetres = 1_000.0

    /// Origin latitude, degrees.
    @usableFromInline var originLatitude: Double
    /// Origin longitude, degrees.
    @usableFromInline var originLongitude: Double
    /// Metres per degree of longitude at the origin (N cos φ₀ · π/180).
    @usableFromInline var metresPerDegreeEast: Double
    /// Metres per degree of latitude at the origin (M · π/180).
    @usableFromInline var metresPerDegreeNorth: Double

    /// Creates a plane tangent at the given origin (degrees).
    @usableFromInline
    init(originLatitude: Double, originLongitude: Double) {
        self.originLatitude = originLatitude
        self.originLongitude = originLongitude
        let phi = originLatitude * .pi / 180
        let s = sin(phi)
        let w2 = 1 - LocalProjection.eccentricitySquared * s * s
        let w = w2.squareRoot()
        let n = LocalProjection.semiMajorAxisMetres / w
        let m = LocalProjection.semiMajorAxisMetres * (1 - LocalProjection.eccentricitySquared) / (w2 * w)
        // At the poles cos φ₀ = 0: clamp so that east stays finite (a pole is not a place to track on a plane).
        metresPerDegreeEast = max(n * cos(phi), 1e-3) * .pi / 180
        metresPerDegreeNorth = m * .pi / 180
    }

    /// The (east, north) offset in metres of a point from the origin. Longitude differences are wrapped into
    /// −180…180°, so a track crossing the antimeridian stays continuous.
    @inlinable @inline(__always)
    func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        var dLon = longitude - originLongitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegreeEast, (latitude - originLatitude) * metresPerDegreeNorth)
    }

    /// The latitude and longitude (degrees) of a point given in metres from the origin; longitude wrapped
    /// into −180…180°, latitude clamped to ±90°.
    @inlinable @inline(__always)
    func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        var lon = originLongitude + east / metresPerDegreeEast
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let lat = min(max(originLatitude + north / metresPerDegreeNorth, -90), 90)
        return (lat, lon)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
