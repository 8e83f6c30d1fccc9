/// A local east/north plane about an anchor point, in metres: the frame in which a track filter can work
/// with plain Cartesian arithmetic.
///
/// The projection is equirectangular on the WGS-84 ellipsoid, using the radii of curvature at the anchor:
///
///     east  = N(φ₀) cos φ₀ · (λ − λ₀)        north = M(φ₀) · (φ − φ₀)        (angles in radians)
///
/// where `M` is the meridional and `N` the prime-vertical radius of curvature (see
/// ``Ellipsoid/meridionalRadiusOfCurvature(latitude:)``). Projecting and unprojecting are a subtraction
/// and a multiplication each (no trigonometry, no allocation) and are exact inverses of each other up to
/// rounding. The longitude difference is reduced to −180…180°, so a frame whose neighbourhood straddles
/// the antimeridian works unchanged.
///
/// ## Error bound
/// Distances are exact to first order at the anchor; the error grows linearly with the distance `d` from
/// it and with `tan φ₀`, because meridians converge:
/// - the distance from the anchor to a projected point is off by at most about `0.19 · tan|φ₀| · d / R`
///   (R ≈ 6371 km; worst for azimuths about 55° off the meridian). Measured against the geodesic at
///   d = 10 km: 0.0000 % at the equator, 0.030 % at 45°, 0.052 % at 60°, 0.083 % at 70°
///   (`LocalFrameTests` checks < 0.1 % up to 70°);
/// - the east–west *scale* at a point `Δn` metres north of the anchor is off by `tan φ₀ · Δn / R`: up
///   to 0.16 % at 45° and 0.43 % at 70° for a point 10 km north or south of the anchor, so short steps far
///   from the anchor are stretched or shrunk by that much.
///
/// Hence the intended use: project fixes into the frame, filter there (where a fraction of a percent of
/// the noise model is irrelevant), unproject the result and measure distances along the track with
/// ``Geodesic`` (or ``Haversine``), not from frame coordinates; re-anchor when a track leaves
/// ``reanchoringRadiusMetres`` (see ``needsReanchoring(eastMetres:northMetres:)``).
///
/// Near the poles (within a few kilometres) the east axis degenerates: the frame is not meant for them.
public struct LocalFrame: Sendable, BitwiseCopyable, Hashable {
    /// The anchor's latitude in degrees (clamped to −90…90).
    public let anchorLatitude: Double
    /// The anchor's longitude in degrees, −180…180.
    public let anchorLongitude: Double
    /// The ellipsoid whose radii of curvature scale the axes.
    public let ellipsoid: Ellipsoid
    /// Metres per degree of latitude at the anchor, `M(φ₀) · π / 180`.
    public let metresPerDegreeNorth: Double
    /// Metres per degree of longitude at the anchor, `N(φ₀) cos φ₀ · π / 180` (never below 1e−6 of its
    /// equatorial value, so that an anchor at a pole does not divide by zero).
    public let metresPerDegreeEast: Double

    /// How far from the anchor, in metres, a position may be before the frame should be re-anchored:
    /// 10 km. Within it the distance from the anchor is right to better than 0.1 % up to 70° of latitude
    /// (0.083 % measured) and to 0.03 % at 45°; see the type's documentation for the bounds.
    public static let reanchoringRadiusMetres: Double = 10_000

    /// Creates a frame about an anchor.
    ///
    /// - Parameters:
    ///   - anchor: the origin of the frame, latitude and longitude in degrees.
    ///   - ellipsoid: the ellipsoid whose radii of curvature scale the axes; WGS-84 by default, the datum
    ///     of GNSS fixes.
    public init(anchor: (latitude: Double, longitude: Double), ellipsoid: Ellipsoid = .wgs84) {
        let latitude = Swift.min(90, Swift.max(-90, anchor.latitude))
        self.ellipsoid = ellipsoid
        anchorLatitude = latitude
        anchorLongitude = GeoAngle.normalized(degrees: anchor.longitude)
        let degree = GeoAngle.radiansPerDegree
        metresPerDegreeNorth = ellipsoid.meridionalRadiusOfCurvature(latitude: latitude) * degree
        let cosLatitude = Swift.max(1e-6, GeoAngle.sinCos(degrees: latitude).cos)
        metresPerDegreeEast = ellipsoid.primeVerticalRadiusOfCurvature(latitude: latitude) * cosLatitude * degree
    }

    /// Projects a position into the frame.
    ///
    /// - Parameters:
    ///   - latitude: degrees north.
    ///   - longitude: degrees east (any value; the difference from the anchor is reduced to ±180°).
    /// - Returns: metres east and north of the anchor.
    @inlinable
    public func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        var dLon = longitude - anchorLongitude
        // Only a difference beyond ±180° needs reducing (across the antimeridian, or a longitude given
        // outside −180…180); within it `remainder` returns its argument unchanged, so skipping the call there
        // gives identical results and keeps the per-fix path free of a libm call.
        if !(abs(dLon) <= 180) { dLon = dLon.remainder(dividingBy: 360) }
        return (dLon * metresPerDegreeEast, (latitude - anchorLatitude) * metresPerDegreeNorth)
    }

    /// Converts frame coordinates back to a position (the exact inverse of
    /// ``project(latitude:longitude:)`` up to rounding).
    ///
    /// - Parameters:
    ///   - east: metres east of the anchor.
    ///   - north: metres north of the anchor.
    /// - Returns: latitude in degrees (clamped to −90…90) and longitude in degrees, −180…180.
    @inlinable
    public func unproject(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        let latitude = Swift.min(90, Swift.max(-90, anchorLatitude + north / metresPerDegreeNorth))
        let raw = anchorLongitude + east / metresPerDegreeEast
        // Within −180 < λ ≤ 180 the normalisation is the identity: skip its libm call there.
        let longitude = raw > -180 && raw <= 180 ? raw : GeoAngle.normalized(degrees: raw)
        return (latitude, longitude)
    }

    /// Whether a position in the frame is farther from the anchor than ``reanchoringRadiusMetres``, so that
    /// the frame should be replaced by one anchored nearer (see ``reanchored(at:)``).
    ///
    /// - Parameters:
    ///   - eastMetres: metres east of the anchor.
    ///   - northMetres: metres north of the anchor.
    @inlinable
    public func needsReanchoring(eastMetres: Double, northMetres: Double) -> Bool {
        let r = LocalFrame.reanchoringRadiusMetres
        return eastMetres * eastMetres + northMetres * northMetres > r * r
    }

    /// A frame on the same ellipsoid anchored at another point.
    ///
    /// A filter re-anchoring mid-track converts its state with ``unproject(east:north:)`` on the old frame
    /// and ``project(latitude:longitude:)`` on the new one (velocities in metres per second carry over
    /// unchanged to within the frames' scale difference, < 0.5 % for anchors 10 km apart).
    ///
    /// - Parameter anchor: the new anchor, latitude and longitude in degrees (typically the latest fix).
    public func reanchored(at anchor: (latitude: Double, longitude: Double)) -> LocalFrame {
        LocalFrame(anchor: anchor, ellipsoid: ellipsoid)
    }
}
