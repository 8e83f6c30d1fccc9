import TrueTrackCore

/// One fix's smoothed position.
public struct SmoothedPoint: Sendable, Hashable {
    /// The fix's time, UTC.
    public var timestamp: Timestamp
    /// Smoothed latitude, degrees north (WGS-84).
    public var latitude: Double
    /// Smoothed longitude, degrees east (WGS-84).
    public var longitude: Double
    /// Smoothed east velocity, metres per second.
    public var velocityEastMetresPerSecond: Double
    /// Smoothed north velocity, metres per second.
    public var velocityNorthMetresPerSecond: Double
    /// Per-axis 1σ of the smoothed position, metres (from the diagonal of the smoothed covariance; the
    /// same for east and north because every noise in the model is isotropic).
    public var positionSigmaMetres: Double
    /// The robust weight (0…1) the fix's position ended with: near 0 for a fix the smoother treated as an
    /// outlier, 1 for one it trusted fully.
    public var weight: Double
    /// The index of the fix in the array given to ``WholeTrackSmoother/smooth(_:)``.
    public var fixIndex: Int
    /// Which segment (0-based) of the track the fix belongs to: a gap longer than
    /// ``SmoothingOptions/gapSeconds`` starts a new one.
    public var segment: Int

    /// Smoothed speed, metres per second.
    public var speedMetresPerSecond: Double {
        (velocityEastMetresPerSecond * velocityEastMetresPerSecond
            + velocityNorthMetresPerSecond * velocityNorthMetresPerSecond).squareRoot()
    }
}

/// The outcome of smoothing a whole track.
public struct SmoothedTrack: Sendable {
    /// One point per used fix, oldest first (fixes with the same time share a position). Fixes the accuracy
    /// gate left out (invalid accuracy, or above ``SmoothingOptions/maximumAccuracyMetres``) have none.
    public var points: [SmoothedPoint]
    /// The length of the smoothed track: the haversine sum (sphere of radius
    /// ``Ellipsoid/meanRadiusMetres``, the data sets' convention) over consecutive distinct smoothed
    /// positions, metres. Across a gap that splits the track the straight line is counted (a lower bound of
    /// the path travelled there).
    public var distanceMetres: Double
    /// The 1σ uncertainty of ``distanceMetres``, metres, propagated from the smoothed covariance to first
    /// order: Var(D) = gᵀ Σ g, with g the gradient of the length with respect to every position (the
    /// difference of the unit vectors of the two segments meeting there) and Σ the full posterior
    /// covariance at the final robust weights (obtained as one extra banded solve Σ g = A⁻¹ g, or the RTS
    /// cross-covariance recursion). It covers the noise the model knows; it assumes white position errors.
    public var distanceSigmaMetres: Double
    /// Least-squares solves performed (1 with ``RobustLoss/quadratic``).
    public var iterations: Int
    /// Segments the track was split into.
    public var segmentCount: Int
    /// Fixes the accuracy gate left out.
    public var excludedFixCount: Int
    /// The solver that produced the track (the banded solver falls back to RTS if LAPACK ever reports the
    /// system not positive definite, which exact arithmetic rules out).
    public var solver: SmoothingOptions.Solver

    /// An empty track (no usable fix).
    public static let empty = SmoothedTrack(
        points: [], distanceMetres: 0, distanceSigmaMetres: 0, iterations: 0, segmentCount: 0,
        excludedFixCount: 0, solver: .bandedCholesky)
}
