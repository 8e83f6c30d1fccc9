/// The series expansions of Karney (2013), "Algorithms for geodesics", J. Geodesy 87:43–55, used by
/// ``Geodesic``: the distance integral `I₁`, its inverse, the reduced-length integral `I₂` (all to order 6
/// in `ε`) and the longitude integral `I₃` (to order 5 in `ε` and `n` together).
///
/// Each integral over the auxiliary sphere's arc length σ is written `I(σ) = A (σ + Σ_l C_l sin 2lσ)`.
/// The coefficients are transcribed from the paper's series (one misremembered term was caught by the
/// check below): `tools/geodesy/check_series.py` integrates each integral
/// numerically with 50-digit arithmetic and confirms that the truncation error falls at the expected
/// order, which a single wrong coefficient would break.
@usableFromInline
enum GeodesicSeries {
    /// Six Fourier coefficients `C₁…C₆` (unused ones are zero).
    @usableFromInline
    typealias Coefficients = (Double, Double, Double, Double, Double, Double)

    /// `ε = (√(1 + k²) − 1) / (√(1 + k²) + 1)` written without cancellation, for `k² ≥ 0`.
    @inlinable
    static func epsilon(kSquared k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }

    /// `A₁ − 1`, where `I₁(σ) = ∫₀^σ √(1 + k² sin²σ′) dσ′ = A₁ (σ + B₁(σ))`.
    @inlinable
    static func a1Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 * (1.0 / 256)))
        return (t + eps) / (1 - eps)
    }

    /// `C₁ₗ`, the coefficients of `B₁(σ) = Σ C₁ₗ sin 2lσ`.
    @inlinable
    static func c1(_ eps: Double) -> Coefficients {
        let e2 = eps * eps
        return (
            eps * (-1.0 / 2 + e2 * (3.0 / 16 + e2 * (-1.0 / 32))),
            e2 * (-1.0 / 16 + e2 * (1.0 / 32 + e2 * (-9.0 / 2048))),
            eps * e2 * (-1.0 / 48 + e2 * (3.0 / 256)),
            e2 * e2 * (-5.0 / 512 + e2 * (3.0 / 512)),
            eps * e2 * e2 * (-7.0 / 1280),
            e2 * e2 * e2 * (-7.0 / 2048)
        )
    }

    /// `C′₁ₗ`, the coefficients of the inverse series `σ = τ + Σ C′₁ₗ sin 2lτ` with `τ = I₁(σ) / A₁`.
    @inlinable
    static func c1Inverse(_ eps: Double) -> Coefficients {
        let e2 = eps * eps
        return (
            eps * (1.0 / 2 + e2 * (-9.0 / 32 + e2 * (205.0 / 1536))),
            e2 * (5.0 / 16 + e2 * (-37.0 / 96 + e2 * (1335.0 / 4096))),
            eps * e2 * (29.0 / 96 + e2 * (-75.0 / 128)),
            e2 * e2 * (539.0 / 1536 + e2 * (-2391.0 / 2560)),
            eps * e2 * e2 * (3467.0 / 7680),
            e2 * e2 * e2 * (38081.0 / 61440)
        )
    }

    /// `A₂ − 1`, where `I₂(σ) = ∫₀^σ dσ′ / √(1 + k² sin²σ′) = A₂ (σ + B₂(σ))`.
    @inlinable
    static func a2Minus1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = -e2 * (3.0 / 4 + e2 * (7.0 / 64 + e2 * (11.0 / 256)))
        return (t - eps) / (1 + eps)
    }

    /// `C₂ₗ`, the coefficients of `B₂(σ) = Σ C₂ₗ sin 2lσ`.
    @inlinable
    static func c2(_ eps: Double) -> Coefficients {
        let e2 = eps * eps
        return (
            eps * (1.0 / 2 + e2 * (1.0 / 16 + e2 * (1.0 / 32))),
            e2 * (3.0 / 16 + e2 * (1.0 / 32 + e2 * (35.0 / 2048))),
            eps * e2 * (5.0 / 48 + e2 * (5.0 / 256)),
            e2 * e2 * (35.0 / 512 + e2 * (7.0 / 512)),
            eps * e2 * e2 * (63.0 / 1280),
            e2 * e2 * e2 * (77.0 / 2048)
        )
    }

    /// `Σ_{l=1}^{6} c_l sin 2lσ` by Clenshaw summation, from a normalised pair `sin σ`, `cos σ`.
    @inlinable
    static func sineSeries(_ c: Coefficients, sin s: Double, cos co: Double) -> Double {
        let sin2 = 2 * s * co
        let x = 2 * (co - s) * (co + s)  // 2 cos 2σ
        var b1 = c.5
        var b2 = 0.0
        var t = c.4 + x * b1 - b2
        b2 = b1; b1 = t
        t = c.3 + x * b1 - b2
        b2 = b1; b1 = t
        t = c.2 + x * b1 - b2
        b2 = b1; b1 = t
        t = c.1 + x * b1 - b2
        b2 = b1; b1 = t
        t = c.0 + x * b1 - b2
        return t * sin2
    }
}

/// The longitude series `I₃`, whose coefficients depend on the ellipsoid's third flattening
/// `n` and are therefore prepared once per ellipsoid.
@usableFromInline
struct LongitudeSeries: Sendable {
    /// Coefficients of `A₃` in powers of ε, `ε⁰…ε⁵`.
    @usableFromInline let a3: GeodesicSeries.Coefficients
    /// Coefficients of `C₃₁` in `ε¹…ε⁵`.
    @usableFromInline let c31: (Double, Double, Double, Double, Double)
    /// Coefficients of `C₃₂` in `ε²…ε⁵`.
    @usableFromInline let c32: (Double, Double, Double, Double)
    /// Coefficients of `C₃₃` in `ε³…ε⁵`.
    @usableFromInline let c33: (Double, Double, Double)
    /// Coefficients of `C₃₄` in `ε⁴…ε⁵`.
    @usableFromInline let c34: (Double, Double)
    /// Coefficient of `C₃₅` in `ε⁵`.
    @usableFromInline let c35: Double

    /// Prepares the series for an ellipsoid of third flattening `n`.
    @usableFromInline
    init(thirdFlattening n: Double) {
        let n2 = n * n
        a3 = (
            1,
            -(1.0 / 2 - n / 2),
            -(1.0 / 4 + n / 8 - 3 * n2 / 8),
            -(1.0 / 16 + 3 * n / 16 + n2 / 16),
            -(3.0 / 64 + n / 32),
            -3.0 / 128
        )
        c31 = (1.0 / 4 - n / 4, 1.0 / 8 - n2 / 8, 3.0 / 64 + 3 * n / 64 - n2 / 64, 5.0 / 128 + n / 64, 3.0 / 128)
        c32 = (1.0 / 16 - 3 * n / 32 + n2 / 32, 3.0 / 64 - n / 32 - 3 * n2 / 64, 3.0 / 128 + n / 128, 5.0 / 256)
        c33 = (5.0 / 192 - 3 * n / 64 + 5 * n2 / 192, 3.0 / 128 - 5 * n / 192, 7.0 / 512)
        c34 = (7.0 / 512 - 7 * n / 256, 7.0 / 512)
        c35 = 21.0 / 2560
    }

    /// `A₃(ε)`.
    @inlinable
    func a3(_ eps: Double) -> Double {
        a3.0 + eps * (a3.1 + eps * (a3.2 + eps * (a3.3 + eps * (a3.4 + eps * a3.5))))
    }

    /// `C₃ₗ(ε)` for `l = 1…5` (the sixth is zero).
    @inlinable
    func c3(_ eps: Double) -> GeodesicSeries.Coefficients {
        let e2 = eps * eps
        let e3 = e2 * eps
        let e4 = e2 * e2
        return (
            eps * (c31.0 + eps * (c31.1 + eps * (c31.2 + eps * (c31.3 + eps * c31.4)))),
            e2 * (c32.0 + eps * (c32.1 + eps * (c32.2 + eps * c32.3))),
            e3 * (c33.0 + eps * (c33.1 + eps * c33.2)),
            e4 * (c34.0 + eps * c34.1),
            e4 * eps * c35,
            0
        )
    }
}
