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
/// Near the poles the east axis degenerates (meridians meet: within 11 km of a pole a walk's east scale is off
/// by tens of percent and one across the pole lands on the wrong side). A frame created with
/// `polarFromLatitudeDegrees` (the ``Tracker`` passes ``trackingPolarLatitudeDegrees``, 80°) is instead **polar**
/// when its anchor lies beyond that latitude (``isPolar``): positions are placed by their distance `ρ` from the
/// pole and their longitude, an azimuthal projection turned so that its axes are east and north at the anchor,
///
///     ρ = ρ₀ + M(φ₀) u + k u²      east = ρ sin(λ − λ₀)      north = s (ρ₀ − ρ cos(λ − λ₀))
///
/// (`s` = +1 about the north pole, −1 about the south pole; `u = −s (φ − φ₀)` in radians, how much farther from
/// the pole than the anchor; `ρ₀ = N(φ₀) cos φ₀`; `k` puts the pole at ρ = 0). Both scales are exact at the
/// anchor, as in the equirectangular frame; away from it the east scale is off by about `c · Δn / 2R` at
/// colatitude `c` (radians) rather than `Δn / (R c)`, so it is the better of the two at every latitude, and the
/// pole is a point like any other (a track crosses it). Its price is a sine and cosine per projection. In a polar frame true north turns against
/// the frame's north away from the anchor's meridian (by `s (λ − λ₀)`, the grid convergence): a course or
/// velocity read on a fix's own axes is turned onto the frame's with ``gridCourseDegrees(_:atLatitude:longitude:accuracyMetres:)``,
/// and a velocity in the frame back onto true east and north with ``trueVelocity(east:north:atEast:north:)``
/// (in an equirectangular frame both are the identity: the turn, `Δλ sin φ₀`, is under 0.5° within
/// ``reanchoringRadiusMetres`` below 80°).
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
    /// The latitude (degrees, either hemisphere) from which a frame is polar: `.infinity` (never) unless the
    /// creator chose one. Kept by ``reanchored(at:)``, so a frame moving towards a pole turns polar there.
    public let polarFromLatitudeDegrees: Double
    /// Whether the frame is polar (see the type's documentation): `|anchorLatitude|` ≥ ``polarFromLatitudeDegrees``.
    /// (Computed, as the polar frame's own constants are (``Polar``): each stored field made every copy of a
    /// frame dearer, the whole-track smoother's 2.7 % per fix for five of them.)
    @inlinable public var isPolar: Bool { Swift.abs(anchorLatitude) >= polarFromLatitudeDegrees }

    /// The latitude from which the ``Tracker``'s frames are polar: 80°. Beyond it the equirectangular frame's
    /// east scale would be off by more than 0.9 % at ``reanchoringRadiusMetres`` north or south of its anchor,
    /// and true north turns by up to 0.6° across it; the polar frame's scale is right to 0.1 % there. Below it
    /// nothing changes for the price of the polar frame's trigonometry.
    public static let trackingPolarLatitudeDegrees: Double = 80

    /// A frame as the ``Tracker`` makes them: polar from ``trackingPolarLatitudeDegrees``.
    @usableFromInline
    static func tracking(anchor: (latitude: Double, longitude: Double)) -> LocalFrame {
        LocalFrame(anchor: anchor, polarFromLatitudeDegrees: trackingPolarLatitudeDegrees)
    }

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
    ///   - polarFromLatitudeDegrees: the latitude (either hemisphere) from which the frame is polar; by default
    ///     never (`.infinity`): an equirectangular frame, as every frame was before polar frames existed.
    public init(
        anchor: (latitude: Double, longitude: Double), ellipsoid: Ellipsoid = .wgs84,
        polarFromLatitudeDegrees: Double = .infinity
    ) {
        let latitude = Swift.min(90, Swift.max(-90, anchor.latitude))
        self.ellipsoid = ellipsoid
        anchorLatitude = latitude
        anchorLongitude = GeoAngle.normalized(degrees: anchor.longitude)
        let degree = GeoAngle.radiansPerDegree
        metresPerDegreeNorth = ellipsoid.meridionalRadiusOfCurvature(latitude: latitude) * degree
        let cosLatitude = Swift.max(1e-6, GeoAngle.sinCos(degrees: latitude).cos)
        metresPerDegreeEast = ellipsoid.primeVerticalRadiusOfCurvature(latitude: latitude) * cosLatitude * degree
        self.polarFromLatitudeDegrees = polarFromLatitudeDegrees
    }

    /// Projects a position into the frame.
    ///
    /// - Parameters:
    ///   - latitude: degrees north.
    ///   - longitude: degrees east (any value; the difference from the anchor is reduced to ±180°).
    /// - Returns: metres east and north of the anchor.
    @inlinable
    public func project(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        if _slowPath(isPolar) { return projectPolar(latitude: latitude, longitude: longitude) }
        return projectEquirectangular(latitude: latitude, longitude: longitude)
    }

    /// ``project(latitude:longitude:)`` of a frame known not to be polar. For a caller whose hot path has
    /// decided that already (the tracker away from the poles, the smoother, whose frames are never polar): the
    /// polar test inside `project` cost the tracker 8 % per fix and the smoother 1.4 %.
    @inlinable @inline(__always)
    package func projectEquirectangular(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
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
        if _slowPath(isPolar) { return unprojectPolar(east: east, north: north) }
        return unprojectEquirectangular(east: east, north: north)
    }

    /// ``unproject(east:north:)`` of a frame known not to be polar (see ``projectEquirectangular(latitude:longitude:)``).
    @inlinable @inline(__always)
    package func unprojectEquirectangular(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
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
        LocalFrame(anchor: anchor, ellipsoid: ellipsoid, polarFromLatitudeDegrees: polarFromLatitudeDegrees)
    }

    // MARK: Polar frames

    /// How far true north at `longitude` is turned anticlockwise from the frame's north axis, in degrees: the
    /// grid convergence `s (λ − λ₀)` of a polar frame; 0 in an equirectangular one (which neglects it).
    @inlinable
    public func trueNorthTurnDegrees(atLongitude longitude: Double) -> Double {
        guard _slowPath(isPolar) else { return 0 }
        return (anchorLatitude < 0 ? -1 : 1) * GeoAngle.normalized(degrees: longitude - anchorLongitude)
    }

    /// A course read at a position (degrees clockwise from true north there) as a course on the frame's axes
    /// (degrees clockwise from the frame's north): the course less ``trueNorthTurnDegrees(atLongitude:)``. The
    /// identity in an equirectangular frame; NaN stays NaN.
    ///
    /// Near the pole the turn is only as certain as the position's longitude: a position `accuracyMetres` off
    /// at `ρ` metres from the pole's axis may be `accuracyMetres / ρ` radians off in longitude, and so may the
    /// turn. Where that exceeds ``maximumTurnUncertaintyDegrees`` (within about 11 times the accuracy of the
    /// pole) the course says nothing the frame can use: NaN (no course).
    @inlinable
    public func gridCourseDegrees(
        _ courseDegrees: Double, atLatitude latitude: Double, longitude: Double, accuracyMetres: Double
    ) -> Double {
        guard _slowPath(isPolar) else { return courseDegrees }
        return polarGridCourseDegrees(courseDegrees, latitude: latitude, longitude: longitude, accuracy: accuracyMetres)
    }

    /// How uncertain (degrees) the turn of true north may be for ``gridCourseDegrees(_:atLatitude:longitude:accuracyMetres:)``
    /// to turn a course onto the frame: 5°, about a phone's stated course accuracy on the move (the velocity
    /// update then weighs a course as good as it reads).
    public static let maximumTurnUncertaintyDegrees: Double = 5

    /// A polar frame's constants (see the type's documentation), computed when asked.
    @usableFromInline
    struct Polar {
        /// +1 about the north pole, −1 about the south pole.
        let sign: Double
        /// `ρ₀ = N(φ₀) cos φ₀`: the anchor's distance from the pole's axis, metres.
        let anchorDistanceMetres: Double
        /// Metres per radian of latitude at the anchor, `M(φ₀)`.
        let metresPerRadianNorth: Double
        /// The quadratic term `k` of ``distanceFromAxis(colatitudeFromAnchor:)``: `(M₀ c₀ − ρ₀) / c₀²` (0 at the
        /// pole itself), which brings the pole to ρ = 0 exactly for every anchor. (Linear, ρ = ρ₀ + M₀ u, the pole
        /// lay 5.4 km beyond ρ = 0 for an anchor at 80°, 44 m at 88°: a fix nearer the pole than that, in a plane
        /// reached by a step of more than 100 km, was placed on the opposite meridian, a reviewer's.)
        let curvature: Double

        init(_ frame: LocalFrame) {
            let latitude = frame.anchorLatitude
            sign = latitude < 0 ? -1 : 1
            anchorDistanceMetres =
                frame.ellipsoid.primeVerticalRadiusOfCurvature(latitude: latitude)
                * Swift.max(0, GeoAngle.sinCos(degrees: latitude).cos)
            metresPerRadianNorth = frame.ellipsoid.meridionalRadiusOfCurvature(latitude: latitude)
            let colatitude = (90 - Swift.abs(latitude)) * GeoAngle.radiansPerDegree
            curvature =
                colatitude > 0
                ? Swift.max(0, (metresPerRadianNorth * colatitude - anchorDistanceMetres) / (colatitude * colatitude))
                : 0
        }

        /// The distance from the pole's axis (metres) of a point `u` radians farther from the pole than the anchor
        /// (`u` = c − c₀): `ρ₀ + M₀ u + k u²`, so that the scale at the anchor is exact (ρ' = M₀) and the pole
        /// (u = −c₀) is at ρ = 0; increasing for every u ≥ −c₀ (ρ'(−c₀) = 2ρ₀/c₀ − M₀ ≈ M₀(1 − c₀²/3) > 0).
        func distanceFromAxis(colatitudeFromAnchor u: Double) -> Double {
            anchorDistanceMetres + u * (metresPerRadianNorth + curvature * u)
        }

        /// The inverse of ``distanceFromAxis(colatitudeFromAnchor:)``: `u` for a distance `rho` from the axis (the
        /// root of k u² + M₀ u − (ρ − ρ₀) = 0 written without cancellation).
        func colatitudeFromAnchor(distanceFromAxis rho: Double) -> Double {
            let d = rho - anchorDistanceMetres
            let m = metresPerRadianNorth
            return 2 * d / (m + Swift.max(0, m * m + 4 * curvature * d).squareRoot())
        }
    }

    /// ``gridCourseDegrees(_:atLatitude:longitude:accuracyMetres:)`` in a polar frame.
    @usableFromInline @inline(never)
    func polarGridCourseDegrees(_ course: Double, latitude: Double, longitude: Double, accuracy: Double) -> Double {
        let fromAxis = (90 - Swift.abs(latitude)) * GeoAngle.radiansPerDegree * Polar(self).metresPerRadianNorth
        let limit = Self.maximumTurnUncertaintyDegrees * GeoAngle.radiansPerDegree
        guard accuracy.isFinite, accuracy < fromAxis * limit else { return .nan }  // (at the pole, none)
        return course - trueNorthTurnDegrees(atLongitude: longitude)
    }

    /// A velocity on the frame's axes (metres per second east and north of the frame) as true east and north
    /// at the position (`atEast`, `north`) of the frame: turned by ``trueNorthTurnDegrees(atLongitude:)`` of that
    /// position's longitude. The identity in an equirectangular frame.
    @inlinable
    public func trueVelocity(east: Double, north: Double, atEast x: Double, north y: Double) -> (
        east: Double, north: Double
    ) {
        guard _slowPath(isPolar) else { return (east, north) }
        return polarTrueVelocity(east: east, north: north, atEast: x, north: y)
    }

    /// ``trueVelocity(east:north:atEast:north:)`` in a polar frame: the position's longitude offset is
    /// `atan2(east, ρ₀ − s · north)` (see ``unproject(east:north:)``).
    @usableFromInline @inline(never)
    func polarTrueVelocity(east: Double, north: Double, atEast x: Double, north y: Double) -> (
        east: Double, north: Double
    ) {
        let polar = Polar(self)
        let offset = GeoAngle.atan2Degrees(x, polar.anchorDistanceMetres - polar.sign * y)
        return Self.turned(east: east, north: north, byDegrees: polar.sign * offset)
    }

    /// The components of (`east`, `north`) along axes turned anticlockwise by `degrees`.
    @usableFromInline
    static func turned(east: Double, north: Double, byDegrees degrees: Double) -> (east: Double, north: Double) {
        let (s, c) = GeoAngle.sinCos(degrees: degrees)
        return (east * c + north * s, north * c - east * s)
    }

    /// ``project(latitude:longitude:)`` in a polar frame (out of line: rare, and it calls the trigonometry).
    @usableFromInline @inline(never)
    func projectPolar(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
        let polar = Polar(self)
        let rho = polar.distanceFromAxis(
            colatitudeFromAnchor: -polar.sign * (latitude - anchorLatitude) * GeoAngle.radiansPerDegree)
        let (s, c) = GeoAngle.sinCos(degrees: longitude - anchorLongitude)
        return (rho * s, polar.sign * (polar.anchorDistanceMetres - rho * c))
    }

    /// ``unproject(east:north:)`` in a polar frame.
    @usableFromInline @inline(never)
    func unprojectPolar(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        // ρ sin Δλ = east, ρ cos Δλ = ρ₀ − s · north.
        let polar = Polar(self)
        let y = polar.anchorDistanceMetres - polar.sign * north
        let rho = (east * east + y * y).squareRoot()
        let latitude =
            anchorLatitude - polar.sign * polar.colatitudeFromAnchor(distanceFromAxis: rho) / GeoAngle.radiansPerDegree
        let dLon = rho == 0 ? 0 : GeoAngle.atan2Degrees(east, y)
        return (
            Swift.min(90, Swift.max(-90, latitude)), GeoAngle.normalized(degrees: anchorLongitude + dLon)
        )
    }
}
