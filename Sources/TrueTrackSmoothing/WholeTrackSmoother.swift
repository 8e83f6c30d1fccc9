#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrueTrackCore

/// Smooths a whole recorded track at once: every position uses the fixes before and after it, multipath
/// jumps lose their pull, and the distance comes with a 1σ uncertainty.
///
/// ## Model
/// The forward filter's constant-velocity model (``ConstantVelocityFilter``) in a local east/north plane
/// (``LocalFrame``, anchored at the first used fix): one state (east, north, v_east, v_north) per distinct
/// fix time; white acceleration of spectral density σₐ² (the profile's ``TrackingProfile/accelerationSigma``);
/// each fix's position with per-axis σ = accuracy / 1.50959 (``MeasurementNoise``); its Doppler speed and
/// course, where present, as a velocity with the forward filter's variance; a small speed without course as
/// a zero velocity. A step longer than ``SmoothingOptions/gapSeconds`` splits the track into independent
/// segments.
///
/// ## Solution
/// The maximum a-posteriori track minimises one weighted least-squares cost over all states. Its normal
/// equations are a symmetric positive-definite band matrix (3 super-diagonals, the same for east and north)
/// factored by LAPACK `dpbtrf` and solved by `dpbtrs` for both axes at once: linear time and memory. With
/// all weights 1 the answer is exactly the Rauch–Tung–Striebel smoother's (tested to 10⁻⁶ m).
/// Iteratively reweighted least squares then applies the ``RobustLoss`` to each fix's normalised
/// residual (positions and velocities alike) until no weight moves by more than
/// ``SmoothingOptions/weightTolerance``.
///
/// ## Distance
/// The haversine length of the smoothed positions, with a first-order 1σ from the full smoothed covariance
/// (see ``SmoothedTrack/distanceSigmaMetres``): one more banded solve.
///
/// ```swift
/// let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
/// print(track.distanceMetres, "±", track.distanceSigmaMetres)
/// ```
public struct WholeTrackSmoother: Sendable {
    /// The tuning in force.
    public var options: SmoothingOptions

    /// A smoother tuned like the forward filter for `profile` (see ``SmoothingOptions/init(profile:)``).
    public init(profile: TrackingProfile = .walking) {
        options = SmoothingOptions(profile: profile)
    }

    /// A smoother with explicit options.
    public init(options: SmoothingOptions) {
        self.options = options
    }

    /// Smooths `fixes` (any order; sorted by time here) and measures the smoothed track.
    ///
    /// Fixes whose accuracy is invalid or worse than ``SmoothingOptions/maximumAccuracyMetres`` are left out
    /// (counted in ``SmoothedTrack/excludedFixCount``); an input with no usable fix gives
    /// ``SmoothedTrack/empty``.
    ///
    /// - Complexity: O(n · iterations) time (n log n when unsorted), O(n) memory.
    public func smooth(_ fixes: [Fix]) -> SmoothedTrack {
        let problem = TrackProblem(fixes: fixes, options: options)
        guard problem.stateCount > 0 else {
            var empty = SmoothedTrack.empty
            empty.excludedFixCount = problem.excludedFixCount
            return empty
        }
        var positionWeights = [Double](repeating: 1, count: problem.positionState.count)
        var velocityWeights = [Double](repeating: 1, count: problem.velocityState.count)
        let maximumIterations = options.loss.isQuadratic ? 1 : max(1, options.maximumIterations)

        var solver = options.solver
        var east: [Double] = [], north: [Double] = [], vEast: [Double] = [], vNorth: [Double] = []
        var system = BandedNormalEquations(stateCount: 0)
        var rts: RauchTungStriebel?
        var iterations = 0
        while iterations < maximumIterations {
            iterations += 1
            if solver == .bandedCholesky {
                system = BandedNormalEquations(stateCount: problem.stateCount)
                system.assemble(problem, positionWeights: positionWeights, velocityWeights: velocityWeights)
                if system.factor() {
                    var x = system.rhs
                    system.solve(&x, columns: 2)
                    Self.unpack(x, states: problem.stateCount, &east, &north, &vEast, &vNorth)
                } else {
                    solver = .rauchTungStriebel
                }
            }
            if solver == .rauchTungStriebel {
                let r = RauchTungStriebel(problem, positionWeights: positionWeights, velocityWeights: velocityWeights)
                east = r.east
                north = r.north
                vEast = r.velocityEast
                vNorth = r.velocityNorth
                rts = r
            }
            guard iterations < maximumIterations else { break }
            let change = Self.reweight(
                problem, loss: options.loss, east: east, north: north, velocityEast: vEast,
                velocityNorth: vNorth, positionWeights: &positionWeights, velocityWeights: &velocityWeights)
            if change <= options.weightTolerance { break }
        }

        // Positions back to latitude/longitude, and the distance with its gradient.
        let n = problem.stateCount
        var latitudes = [Double](repeating: 0, count: n), longitudes = latitudes, cosines = latitudes
        let radians = Double.pi / 180
        for s in 0..<n {
            let g = problem.frame.unproject(east: east[s], north: north[s])
            latitudes[s] = g.latitude
            longitudes[s] = g.longitude
            cosines[s] = cos(g.latitude * radians)
        }
        // The haversine sum (as ``Haversine/distance(from:to:radiusMetres:)``, with each latitude's cosine
        // computed once instead of twice).
        var distance = 0.0
        var gEast = [Double](repeating: 0, count: n), gNorth = gEast
        for s in 1..<max(n, 1) {
            let sinHalfDPhi = sin((latitudes[s] - latitudes[s - 1]) * radians / 2)
            let sinHalfDLambda = sin((longitudes[s] - longitudes[s - 1]) * radians / 2)
            let h = sinHalfDPhi * sinHalfDPhi + cosines[s - 1] * cosines[s] * sinHalfDLambda * sinHalfDLambda
            distance += 2 * Ellipsoid.meanRadiusMetres * asin(min(h.squareRoot(), 1))
            let de = east[s] - east[s - 1], dn = north[s] - north[s - 1]
            let length = (de * de + dn * dn).squareRoot()
            guard length > 0 else { continue }
            let ue = de / length, un = dn / length
            gEast[s] += ue
            gNorth[s] += un
            gEast[s - 1] -= ue
            gNorth[s - 1] -= un
        }

        var variances: [Double]
        var distanceVariance: Double
        if solver == .bandedCholesky {
            var y = [Double](repeating: 0, count: 4 * n)
            for s in 0..<n {
                y[2 * s] = gEast[s]
                y[2 * n + 2 * s] = gNorth[s]
            }
            system.solve(&y, columns: 2)
            distanceVariance = 0
            for s in 0..<n { distanceVariance += gEast[s] * y[2 * s] + gNorth[s] * y[2 * n + 2 * s] }
            variances = system.positionVariances()
        } else {
            let r = rts ?? RauchTungStriebel(problem, positionWeights: positionWeights, velocityWeights: velocityWeights)
            distanceVariance = r.quadraticForm(gEast: gEast, gNorth: gNorth)
            variances = r.pp
        }

        var points: [SmoothedPoint] = []
        points.reserveCapacity(problem.positionState.count)
        var segment = -1
        var lastState = -1
        for m in 0..<problem.positionState.count {
            let s = problem.positionState[m]
            if s != lastState {
                if problem.opensSegment[s] { segment += 1 }
                lastState = s
            }
            points.append(
                SmoothedPoint(
                    timestamp: problem.timestamps[s], latitude: latitudes[s], longitude: longitudes[s],
                    velocityEastMetresPerSecond: vEast[s], velocityNorthMetresPerSecond: vNorth[s],
                    positionSigmaMetres: max(variances[s], 0).squareRoot(), weight: positionWeights[m],
                    fixIndex: problem.fixIndex[m], segment: segment))
        }
        return SmoothedTrack(
            points: points, distanceMetres: distance, distanceSigmaMetres: max(distanceVariance, 0).squareRoot(),
            iterations: iterations, segmentCount: segment + 1, excludedFixCount: problem.excludedFixCount,
            solver: solver)
    }

    /// Splits a solution (p, v interleaved; east column then north column) into per-state arrays.
    static func unpack(
        _ x: [Double], states n: Int, _ east: inout [Double], _ north: inout [Double], _ vEast: inout [Double],
        _ vNorth: inout [Double]
    ) {
        east = [Double](repeating: 0, count: n)
        north = east
        vEast = east
        vNorth = east
        for s in 0..<n {
            east[s] = x[2 * s]
            vEast[s] = x[2 * s + 1]
            north[s] = x[2 * n + 2 * s]
            vNorth[s] = x[2 * n + 2 * s + 1]
        }
    }

    /// Sets every weight from the current solution's residuals; returns the largest change.
    static func reweight(
        _ p: TrackProblem, loss: RobustLoss, east: [Double], north: [Double], velocityEast: [Double],
        velocityNorth: [Double], positionWeights: inout [Double], velocityWeights: inout [Double]
    ) -> Double {
        var change = 0.0
        for m in 0..<p.positionState.count {
            let s = p.positionState[m]
            let de = p.positionEast[m] - east[s], dn = p.positionNorth[m] - north[s]
            let d = ((de * de + dn * dn) / p.positionVariance[m]).squareRoot()
            let w = max(loss.weight(normalisedResidual: d), minimumWeight)
            change = max(change, abs(w - positionWeights[m]))
            positionWeights[m] = w
        }
        for m in 0..<p.velocityState.count {
            let s = p.velocityState[m]
            let de = p.velocityEast[m] - velocityEast[s], dn = p.velocityNorth[m] - velocityNorth[s]
            let d = ((de * de + dn * dn) / p.velocityVariance[m]).squareRoot()
            let w = max(loss.weight(normalisedResidual: d), minimumWeight)
            change = max(change, abs(w - velocityWeights[m]))
            velocityWeights[m] = w
        }
        return change
    }

    /// The smallest robust weight: 10⁻⁶, so that a down-weighted fix keeps the system positive definite on
    /// its own (a lone fix in a segment) and a NaN residual cannot propagate.
    static let minimumWeight = 1e-6
}
