#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Angle helpers in degrees shared by the geodesy code: exact reduction to a quadrant before the
/// trigonometry, so that `sin 180° = 0` and `cos 90° = 0` exactly and the poles, the equator and the
/// antimeridian are represented without rounding noise.
@usableFromInline
package enum GeoAngle {
    /// Radians per degree.
    @usableFromInline
    package static let radiansPerDegree = Double.pi / 180

    /// Sine and cosine of an angle in degrees, exact at multiples of 90°.
    ///
    /// The angle is reduced exactly into ±45° (IEEE `remainder` is exact) before converting to radians,
    /// so no multiple of π is ever rounded. A non-finite angle gives NaNs.
    @inlinable
    package static func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        var r = x.remainder(dividingBy: 360)  // −180…180, exact
        let quadrant = (r / 90).rounded()  // −2…2
        r -= 90 * quadrant  // −45…45, exact
        let radians = r * radiansPerDegree
        let s = sin(radians)
        let c = cos(radians)
        // `+ 0.0` turns −0 into +0 where a negated zero would otherwise leak out.
        switch Int(quadrant) & 3 {
        case 0: return (s, c + 0.0)
        case 1: return (c + 0.0, 0.0 - s)
        case 2: return (0.0 - s, 0.0 - c)
        default: return (0.0 - c, s + 0.0)
        }
    }

    /// `atan2(y, x)` in degrees, −180…180.
    @inlinable
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        atan2(y, x) / radiansPerDegree
    }

    /// An angle in degrees reduced to −180 < result ≤ 180 (exact).
    @inlinable
    package static func normalized(degrees x: Double) -> Double {
        let y = x.remainder(dividingBy: 360)
        return y == -180 ? 180 : y
    }

    /// `y − x` in degrees reduced to −180 < result ≤ 180, with one rounding at most.
    @inlinable
    static func difference(from x: Double, to y: Double) -> Double {
        normalized(degrees: y.remainder(dividingBy: 360) - x.remainder(dividingBy: 360))
    }

    /// An azimuth in degrees mapped to 0 ≤ result < 360 (the project's convention for courses).
    @inlinable
    static func azimuth(degrees x: Double) -> Double {
        var y = x.remainder(dividingBy: 360)
        if y < 0 { y += 360 }
        // −1e−17 + 360 rounds to 360: that is north, 0.
        return y >= 360 ? 0 : y + 0.0
    }

    /// Rounds angles smaller than 1/16° so that their sum with 1/16 is exact (Karney 2013, §7).
    ///
    /// Very small angles (e.g. 1e−20°) otherwise produce sines and cosines whose tiny parts are lost
    /// inconsistently in later sums; rounding them to the grid of `1/16 + ulp` keeps the results symmetric
    /// and costs at most 1e−18°, about 0.1 picometre.
    @inlinable
    static func rounded(degrees x: Double) -> Double {
        let z = 1.0 / 16
        let y = Swift.abs(x)
        let w = y < z ? z - (z - y) : y
        return x < 0 ? -w : w
    }
}
