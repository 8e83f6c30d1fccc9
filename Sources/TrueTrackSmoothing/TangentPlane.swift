import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The plane tangent to the WGS-84 ellipsoid at an anchor, in metres east and north of it (internal): the
/// smoother's frame for a piece of a track that ``LocalFrame`` does not suit (near a pole, across one, or far
/// from the track's first fix; see ``PlaneFrame``).
///
/// A position is projected orthographically: its Earth-centred (ECEF) point minus the anchor's, on the anchor's
/// east and north unit vectors. Unprojecting lifts a plane point along the anchor's up vector back onto the
/// ellipsoid (a quadratic) and reads its geodetic latitude exactly (a point on the surface has
/// tan φ = z / ((1 − e²) p)). Unlike the equirectangular ``LocalFrame`` it has no singular point: the pole is an
/// ordinary point of the plane, and a path across it is a straight line. Its scale is exact along circles about
/// the anchor and cos(d / R) along radii, so at d = 50 km every length is right to 3·10⁻⁵ (``LocalFrame`` at
/// 45° is off by up to 0.8 % there, and it cannot represent a circle about the pole at all: its longitudes wrap).
/// It costs trigonometry per call (an `atan2` pair and a square root when unprojecting), which the forward
/// tracker's per-fix path does not pay: it keeps ``LocalFrame``.
///
/// At the anchor the plane's axes are local east and north; away from it they are the anchor's, which turn
/// against the local ones by the meridians' convergence (up to 180° across a pole):
/// ``localVelocity(east:north:atLatitude:longitude:)`` turns a plane velocity into the local axes. At a pole
/// itself, where east is undefined, the anchor's east is that of the given longitude.
struct TangentPlane: Sendable, Hashable {
    private let a2: Double, b2: Double, e2: Double
    private let ellipsoid: Ellipsoid
    /// The anchor's ECEF point, metres.
    private let x0: Double, y0: Double, z0: Double
    /// The anchor's east, north and up unit vectors (ECEF).
    private let ex: Double, ey: Double
    private let nx: Double, ny: Double, nz: Double
    private let ux: Double, uy: Double, uz: Double

    /// Creates the plane tangent at `anchor` (degrees).
    init(anchor: (latitude: Double, longitude: Double), ellipsoid: Ellipsoid = .wgs84) {
        self.ellipsoid = ellipsoid
        let a = ellipsoid.semiMajorAxisMetres, b = ellipsoid.semiMinorAxisMetres
        (a2, b2, e2) = (a * a, b * b, ellipsoid.eccentricitySquared)
        let (sp, cp) = GeoAngle.sinCos(degrees: min(90, max(-90, anchor.latitude)))
        let (sl, cl) = GeoAngle.sinCos(degrees: anchor.longitude)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        (x0, y0, z0) = (n * cp * cl, n * cp * sl, n * (1 - e2) * sp)
        (ex, ey) = (-sl, cl)
        (nx, ny, nz) = (-sp * cl, -sp * sl, cp)
        (ux, uy, uz) = (cp * cl, cp * sl, sp)
    }

    /// The ECEF point of a position on the ellipsoid (height 0).
    private func ecef(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let (sp, cp) = GeoAngle.sinCos(degrees: min(90, max(-90, latitude)))
        let (sl, cl) = GeoAngle.sinCos(degrees: longitude)
        let n = ellipsoid.semiMajorAxisMetres / (1 - e2 * sp * sp).squareRoot()
        return (n * cp * cl, n * cp * sl, n * (1 - e2) * sp)
    }

    /// The square of the straight line (through the Earth) from the anchor to a position, m²: a distance that,
    /// unlike the projection, grows on past a quarter of the globe.
    func chordSquaredMetres(latitude: Double, longitude: Double) -> Double {
        let p = ecef(latitude: latitude, longitude: longitude)
        let dx = p.x - x0, dy = p.y - y0, dz = p.z - z0
        return dx * dx + dy * dy + dz * dz
    }

    /// Metres east and north of the anchor (orthographic: the ECEF offset on the anchor's east and north axes).
    func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        let p = ecef(latitude: latitude, longitude: longitude)
        let dx = p.x - x0, dy = p.y - y0, dz = p.z - z0
        return (dx * ex + dy * ey, dx * nx + dy * ny + dz * nz)
    }

    /// The position whose projection is (`east`, `north`): the plane point lifted along the anchor's up vector
    /// onto the ellipsoid. Latitude −90…90, longitude −180…180 (0 at a pole).
    func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        // The plane point, then U with (x² + y²) / a² + z² / b² = 1 at p + U u: A U² + B U + C = 0, the root
        // nearest 0 in the form that loses no digits when C is small.
        let px = x0 + east * ex + north * nx
        let py = y0 + east * ey + north * ny
        let pz = z0 + north * nz
        let qa = (ux * ux + uy * uy) / a2 + uz * uz / b2
        let qb = 2 * ((px * ux + py * uy) / a2 + pz * uz / b2)
        let qc = (px * px + py * py) / a2 + pz * pz / b2 - 1
        let root = (max(qb * qb - 4 * qa * qc, 0)).squareRoot()
        let u = qb >= 0 ? -2 * qc / (qb + root) : (-qb + root) / (2 * qa)
        let x = px + u * ux, y = py + u * uy, z = pz + u * uz
        let p = (x * x + y * y).squareRoot()
        let latitude = atan2(z, (1 - e2) * p) * 180 / .pi
        let longitude = p == 0 ? 0 : atan2(y, x) * 180 / .pi
        return (latitude, longitude)
    }

    /// A velocity given on the local east and north axes at a position (a Doppler reading's) on the plane's
    /// axes: the inverse of ``localVelocity(east:north:atLatitude:longitude:)``.
    func planeVelocity(east: Double, north: Double, atLatitude latitude: Double, longitude: Double) -> (
        east: Double, north: Double
    ) {
        let (sp, cp) = GeoAngle.sinCos(degrees: latitude)
        let (sl, cl) = GeoAngle.sinCos(degrees: longitude)
        let vx = -sl * east - sp * cl * north, vy = cl * east - sp * sl * north, vz = cp * north
        return (vx * ex + vy * ey, vx * nx + vy * ny + vz * nz)
    }

    /// A velocity given on the plane's axes (m/s east and north of the anchor) on the local east and north axes
    /// at a position (at a pole: those of its longitude).
    func localVelocity(east: Double, north: Double, atLatitude latitude: Double, longitude: Double) -> (
        east: Double, north: Double
    ) {
        let vx = east * ex + north * nx, vy = east * ey + north * ny, vz = north * nz
        let (sp, cp) = GeoAngle.sinCos(degrees: latitude)
        let (sl, cl) = GeoAngle.sinCos(degrees: longitude)
        return (-sl * vx + cl * vy, -sp * cl * vx - sp * sl * vy + cp * vz)
    }
}

/// The plane a ``TrackProblem`` is posed in (internal): the equirectangular ``LocalFrame`` about the track's
/// first fix, as it has always been, for a track that stays where that frame is accurate (see
/// ``TrackProblem/fitsLocalFrame``); else a ``TangentPlane`` about each piece's first fix (see
/// ``WholeTrackSmoother``'s pieces).
///
/// The tangent case is `indirect`: its plane inline (20 doubles, 160 bytes) made every `switch` over the frame
/// copy the payload with a `memcpy` call (four a fix in building and solving a problem; the `smooth` benchmark
/// 275 instructions per fix).
enum PlaneFrame: Sendable {
    case local(LocalFrame)
    indirect case tangent(TangentPlane)

    @inline(__always)
    func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        switch self {
        // (The smoother's frames are never polar: made without `polarFromLatitudeDegrees`. See LocalFrame.)
        case .local(let frame): frame.projectEquirectangular(latitude: latitude, longitude: longitude)
        case .tangent(let plane): plane.project(latitude: latitude, longitude: longitude)
        }
    }

    @inline(__always)
    func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        switch self {
        case .local(let frame): frame.unprojectEquirectangular(east: east, north: north)
        case .tangent(let plane): plane.unproject(east: east, north: north)
        }
    }

    /// A plane velocity on the local east and north axes at a position: unchanged in a ``LocalFrame`` (whose
    /// axes are the local ones everywhere), turned in a ``TangentPlane``.
    @inline(__always)
    func localVelocity(east: Double, north: Double, atLatitude latitude: Double, longitude: Double) -> (
        east: Double, north: Double
    ) {
        switch self {
        case .local: (east, north)
        case .tangent(let plane):
            plane.localVelocity(east: east, north: north, atLatitude: latitude, longitude: longitude)
        }
    }
}
