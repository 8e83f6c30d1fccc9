extension Fix {
    /// The WGS-84 geodesic distance in metres from this fix to another (accurate to nanometres; about
    /// 1 µs). See ``Geodesic/inverse(from:to:)``.
    ///
    /// - Parameter other: the other fix.
    public func geodesicDistance(to other: Fix) -> Double {
        Geodesic.wgs84.distance(from: (latitude, longitude), to: (other.latitude, other.longitude))
    }

    /// The haversine distance in metres from this fix to another on the sphere of radius
    /// ``Ellipsoid/meanRadiusMetres`` (fast; up to about 0.56 % off the geodesic). See ``Haversine``.
    ///
    /// - Parameter other: the other fix.
    @inlinable
    public func haversineDistance(to other: Fix) -> Double {
        Haversine.distance(from: (latitude, longitude), to: (other.latitude, other.longitude))
    }
}
