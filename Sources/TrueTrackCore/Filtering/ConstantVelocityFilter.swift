/// A constant-velocity Kalman filter in a local metre plane: state (east, north, east velocity, north
/// velocity), white-noise acceleration process model.
///
/// ## Model
/// Per axis the state is (p, v) with p' = p + v·dt. Process noise is white acceleration of spectral density
/// q = σₐ² (m²/s³), giving per axis Q = q · [[dt³/3, dt²/2], [dt²/2, dt]] (Bar-Shalom, Li & Kirubarajan 2001,
/// §6.2.2). Position measurements observe (east, north) with the same variance r on both axes (a horizontal
/// accuracy is a radius, not an ellipse); velocity measurements observe (v_east, v_north) likewise.
///
/// ## Why the 4×4 filter is stored as one 2×2 block
/// F, Q and H are block-diagonal with identical blocks for east and north, and every measurement noise is
/// isotropic (r·I). A covariance that starts as two identical blocks therefore stays two identical blocks
/// after any sequence of predictions and updates: the 4×4 covariance is diag(B, B) with one symmetric 2×2 B.
/// The filter stores B's three distinct entries and applies each step to both axes' means, which is the full
/// 4×4 Kalman filter computed exactly, hand-unrolled, in about 30 floating-point operations per step and with
/// no allocation.
///
/// ## Numerical safety
/// Updates use the Joseph form P⁺ = (I − KH) P (I − KH)ᵀ + K r Kᵀ, which keeps P symmetric (by storage) and
/// positive definite for any gain; the determinant after an update is det(P)·r/S > 0 in exact arithmetic.
/// Variances are floored at ``minimumVariance`` so rounding can never make them zero or negative.
public struct ConstantVelocityFilter: Sendable, BitwiseCopyable, Hashable {
    /// East position, metres from the plane's origin.
    public var east: Double
    /// North position, metres from the plane's origin.
    public var north: Double
    /// East velocity, metres per second.
    public var velocityEast: Double
    /// North velocity, metres per second.
    public var velocityNorth: Double
    /// Per-axis position variance, m² (the same for east and north).
    public var positionVariance: Double
    /// Per-axis velocity variance, m²/s². (Stored before the covariance: with the covariance right after the
    /// position variance, the tracker's prediction read the two with one 16-byte load that the update had written
    /// with two 8-byte stores a fix before, a store-forwarding stall; the tracker benchmark +0.5 % with this order.)
    public var velocityVariance: Double
    /// Per-axis position–velocity covariance, m²/s.
    public var positionVelocityCovariance: Double

    /// The smallest variance the filter keeps (10⁻⁹ m², i.e. 0.03 mm): a floor against rounding, far below
    /// any GNSS accuracy.
    public static let minimumVariance = 1e-9

    /// Creates a filter at a position with a velocity and the given per-axis variances.
    ///
    /// - Parameters:
    ///   - east: metres east of the origin.
    ///   - north: metres north of the origin.
    ///   - velocityEast: metres per second.
    ///   - velocityNorth: metres per second.
    ///   - positionVariance: per-axis position variance, m².
    ///   - velocityVariance: per-axis velocity variance, m²/s².
    @inlinable
    public init(
        east: Double, north: Double, velocityEast: Double = 0, velocityNorth: Double = 0,
        positionVariance: Double, velocityVariance: Double
    ) {
        self.east = east
        self.north = north
        self.velocityEast = velocityEast
        self.velocityNorth = velocityNorth
        self.positionVariance = max(positionVariance, Self.minimumVariance)
        self.positionVelocityCovariance = 0
        self.velocityVariance = max(velocityVariance, Self.minimumVariance)
    }

    /// The filtered speed, metres per second (the norm of the velocity).
    ///
    /// `@inline(__always)`: the ``Tracker`` reads it every fix, and left out of line (as the inliner chose) the
    /// call copied the whole filter to the stack and spilled every vector register.
    @inlinable @inline(__always)
    public var speedMetresPerSecond: Double {
        (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot()
    }

    /// Advances the state by `dt` seconds under white acceleration noise of spectral density
    /// `accelerationVariance` (σₐ², m²/s⁴·s = m²/s³). `dt ≤ 0` leaves the filter unchanged.
    @inlinable @inline(__always)
    public mutating func predict(seconds dt: Double, accelerationVariance q: Double) {
        predict(PredictionStep(seconds: dt, accelerationVariance: q))
    }

    /// Advances the state by a precomputed step (see ``PredictionStep``): the same arithmetic as
    /// ``predict(seconds:accelerationVariance:)``, bit for bit, without recomputing the step's noise terms.
    @inlinable @inline(__always)
    mutating func predict(_ step: PredictionStep) {
        let dt = step.seconds
        guard dt > 0 else { return }
        let dt2 = step.secondsSquared
        east += velocityEast * dt
        north += velocityNorth * dt
        let p00 = positionVariance, p01 = positionVelocityCovariance, p11 = velocityVariance
        positionVariance = p00 + 2 * dt * p01 + dt2 * p11 + step.positionNoise
        positionVelocityCovariance = p01 + dt * p11 + step.covarianceNoise
        velocityVariance = p11 + step.velocityNoise
    }

    /// The squared Mahalanobis distance of a position measurement from the predicted position:
    /// d² = (Δe² + Δn²) / S with S = P_pp + r, χ²-distributed with 2 degrees of freedom when the model holds.
    ///
    /// - Parameter variance: the measurement's per-axis variance r, m².
    @inlinable @inline(__always)
    public func normalisedInnovation(east e: Double, north n: Double, variance r: Double) -> Double {
        let de = e - east, dn = n - north
        return (de * de + dn * dn) / (positionVariance + r)
    }

    /// Updates the state with a position measurement of per-axis variance `r` (m²), Joseph form.
    @inlinable @inline(__always)
    public mutating func updatePosition(east e: Double, north n: Double, variance r: Double) {
        _ = updatePositionReturningGain(east: e, north: n, variance: r)
    }

    /// ``updatePosition(east:north:variance:)``, returning the gain (position, velocity) it applied: a filter
    /// with the same covariance can take it (see ``updatePositionMeans(east:north:gain:)``).
    @inlinable @inline(__always)
    mutating func updatePositionReturningGain(east e: Double, north n: Double, variance r: Double)
        -> (position: Double, velocity: Double)
    {
        let p00 = positionVariance, p01 = positionVelocityCovariance, p11 = velocityVariance
        let s = p00 + r
        let inverse = 1 / s
        let k0 = p00 * inverse, k1 = p01 * inverse
        updatePositionMeans(east: e, north: n, gain: (k0, k1))
        // Joseph form with A = I − K H = [[1 − k0, 0], [−k1, 1]]: P⁺ = A P Aᵀ + K r Kᵀ.
        let a = 1 - k0
        positionVariance = max(a * a * p00 + k0 * k0 * r, Self.minimumVariance)
        positionVelocityCovariance = a * (p01 - k1 * p00) + k0 * k1 * r
        velocityVariance = max(p11 - 2 * k1 * p01 + k1 * k1 * p00 + k1 * k1 * r, Self.minimumVariance)
        return (k0, k1)
    }

    /// The mean part of a position update with a given gain (position, velocity); the covariance is left as
    /// it is.
    @inlinable @inline(__always)
    mutating func updatePositionMeans(east e: Double, north n: Double, gain: (position: Double, velocity: Double)) {
        let de = e - east, dn = n - north
        east += gain.position * de
        north += gain.position * dn
        velocityEast += gain.velocity * de
        velocityNorth += gain.velocity * dn
    }

    /// The mean part of ``predict(_:)``; the covariance is left as it is.
    @inlinable @inline(__always)
    mutating func predictMeans(_ step: PredictionStep) {
        let dt = step.seconds
        guard dt > 0 else { return }
        east += velocityEast * dt
        north += velocityNorth * dt
    }

    /// True when `other`'s covariance equals this filter's bit for bit: the same predictions and position
    /// updates then give both the same gains and the same covariance, and only the means need computing
    /// twice (the ``Tracker``'s two filters, until a Doppler velocity update sets them apart).
    @inlinable @inline(__always)
    func hasSameCovariance(as other: ConstantVelocityFilter) -> Bool {
        positionVariance.bitPattern == other.positionVariance.bitPattern
            && positionVelocityCovariance.bitPattern == other.positionVelocityCovariance.bitPattern
            && velocityVariance.bitPattern == other.velocityVariance.bitPattern
    }

    /// Takes `other`'s covariance (see ``hasSameCovariance(as:)``).
    @inlinable @inline(__always)
    mutating func copyCovariance(from other: ConstantVelocityFilter) {
        positionVariance = other.positionVariance
        positionVelocityCovariance = other.positionVelocityCovariance
        velocityVariance = other.velocityVariance
    }

    /// Updates the state with a velocity measurement (m/s) of per-axis variance `r` (m²/s²), Joseph form.
    @inlinable @inline(__always)
    public mutating func updateVelocity(east ve: Double, north vn: Double, variance r: Double) {
        let p00 = positionVariance, p01 = positionVelocityCovariance, p11 = velocityVariance
        let s = p11 + r
        let inverse = 1 / s
        let k0 = p01 * inverse, k1 = p11 * inverse
        let de = ve - velocityEast, dn = vn - velocityNorth
        east += k0 * de
        north += k0 * dn
        velocityEast += k1 * de
        velocityNorth += k1 * dn
        // A = I − K H with H = [0, 1]: A = [[1, −k0], [0, 1 − k1]].
        let b = 1 - k1
        positionVariance = max(p00 - 2 * k0 * p01 + k0 * k0 * p11 + k0 * k0 * r, Self.minimumVariance)
        positionVelocityCovariance = b * (p01 - k0 * p11) + k0 * k1 * r
        velocityVariance = max(b * b * p11 + k1 * k1 * r, Self.minimumVariance)
    }

    /// Moves the plane's origin by (east, north) metres: the state's position is re-expressed relative to the
    /// new origin; velocities and covariance are unchanged.
    @inlinable
    public mutating func shiftOrigin(east de: Double, north dn: Double) {
        east -= de
        north -= dn
    }
}

/// One prediction interval of ``ConstantVelocityFilter`` with its process-noise terms computed once
/// (internal): q·dt³/3, q·dt²/2 and q·dt, exactly as ``ConstantVelocityFilter/predict(seconds:accelerationVariance:)``
/// evaluates them. Fixes usually arrive at a fixed interval, so the ``Tracker`` keeps the last step and reuses
/// it for both of its filters while the interval repeats: the per-fix divisions (ms → s and the /3) are then
/// skipped, with identical results.
@usableFromInline
struct PredictionStep: Sendable, BitwiseCopyable, Hashable {
    /// dt, seconds.
    @usableFromInline let seconds: Double
    /// dt², s².
    @usableFromInline let secondsSquared: Double
    /// q·dt²·dt / 3, the position variance added, m².
    @usableFromInline let positionNoise: Double
    /// q·dt² / 2, the position–velocity covariance added, m²/s.
    @usableFromInline let covarianceNoise: Double
    /// q·dt, the velocity variance added, m²/s².
    @usableFromInline let velocityNoise: Double

    /// The step of `dt` seconds under white acceleration noise of spectral density `q` (m²/s³).
    @inlinable @inline(__always)
    init(seconds dt: Double, accelerationVariance q: Double) {
        let dt2 = dt * dt
        seconds = dt
        secondsSquared = dt2
        positionNoise = q * dt2 * dt / 3
        covarianceNoise = q * dt2 / 2
        velocityNoise = q * dt
    }
}
