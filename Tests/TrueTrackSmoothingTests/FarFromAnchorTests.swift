import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

/// Tracks that leave the ``LocalFrame`` about their first fix: about a pole, across one, or hundreds of
/// kilometres long (a geography tester's cases: the smoother posed them in one equirectangular frame, and a
/// drive circling the South Pole 2 km out, 9,000 m, measured 20,847 m with positions 4 km off).
@Suite("Smoothing far from the first fix")
struct FarFromAnchorTests {
    /// A fix at a truth position with `noise` metres of Gaussian error (68 % radius, as an accuracy states it) in a seeded random direction
    /// (moved along the geodesic, so that it is valid at a pole), claiming 5 m, with a speed and course reading
    /// when `speed` is given.
    static func fix(
        at truth: (latitude: Double, longitude: Double), seconds: Double, noise: Double, rng: inout TestRNG,
        speed: Double? = nil, course: Double? = nil
    ) -> Fix {
        let sigma = noise / 1.50959  // per axis
        let east = sigma * rng.gaussian(), north = sigma * rng.gaussian()
        let metres = (east * east + north * north).squareRoot()
        let azimuth = atan2(east, north) * 180 / .pi
        let p = Geodesic.wgs84.destination(from: truth, azimuthDegrees: azimuth, distanceMetres: metres)
        return try! Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64((seconds * 1000).rounded())),
            latitude: p.latitude, longitude: p.longitude, horizontalAccuracyMetres: 5,
            speedMetresPerSecond: speed, courseDegrees: course)
    }

    /// The truth's geodesic length.
    static func length(_ truth: [(latitude: Double, longitude: Double)]) -> Double {
        zip(truth, truth.dropFirst()).reduce(0) { $0 + Geodesic.wgs84.distance(from: $1.0, to: $1.1) }
    }

    /// A geodesic drive at `speed` from `start` along `azimuth`, a fix every `interval` seconds with a speed and
    /// course reading, 5 m of noise: the truth and the fixes.
    static func straightDrive(
        from start: (latitude: Double, longitude: Double), azimuth: Double, speed: Double, seconds: Double,
        interval: Double, seed: UInt64
    ) -> (truth: [(latitude: Double, longitude: Double)], fixes: [Fix]) {
        var rng = TestRNG(state: seed)
        var truth: [(latitude: Double, longitude: Double)] = [], fixes: [Fix] = []
        for k in 0...Int(seconds / interval) {
            let t = Double(k) * interval
            let d = Geodesic.wgs84.destination(from: start, azimuthDegrees: azimuth, distanceMetres: speed * t)
            truth.append((d.latitude, d.longitude))
            fixes.append(
                fix(
                    at: (d.latitude, d.longitude), seconds: t, noise: 5, rng: &rng, speed: speed,
                    course: (d.finalAzimuthDegrees + 360).truncatingRemainder(dividingBy: 360)))
        }
        return (truth, fixes)
    }

    /// A circle about the South Pole at `latitude`, `laps`, at `speed`, a fix a second with 5 m of noise and no
    /// speed reading.
    static func poleCircle(latitude: Double, speed: Double, seconds: Double, seed: UInt64) -> (
        truth: [(latitude: Double, longitude: Double)], fixes: [Fix]
    ) {
        var rng = TestRNG(state: seed)
        let radius = Ellipsoid.wgs84.primeVerticalRadiusOfCurvature(latitude: latitude) * cos(latitude * .pi / 180)
        var truth: [(latitude: Double, longitude: Double)] = [], fixes: [Fix] = []
        for k in 0...Int(seconds) {
            let longitude = (Double(k) * speed / radius * 180 / .pi + 180).truncatingRemainder(dividingBy: 360) - 180
            truth.append((latitude, longitude))
            fixes.append(fix(at: (latitude, longitude), seconds: Double(k), noise: 5, rng: &rng))
        }
        return (truth, fixes)
    }

    /// The largest distance between a smoothed point and the truth at its fix, metres (NaN if any is NaN).
    static func worstError(_ track: SmoothedTrack, _ truth: [(latitude: Double, longitude: Double)]) -> Double {
        var worst = 0.0
        for p in track.points {
            guard p.latitude.isFinite, p.longitude.isFinite else { return .nan }
            worst = max(worst, Geodesic.wgs84.distance(from: (p.latitude, p.longitude), to: truth[p.fixIndex]))
        }
        return worst
    }

    @Test("smooths a drive around the South Pole to its length")
    func southPoleCircle() {
        // 2 km from the pole (−89.982°), 15 m/s for 600 s: 9,000 m, every longitude crossed.
        let (truth, fixes) = Self.poleCircle(latitude: -89.982, speed: 15, seconds: 600, seed: 7)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        let truthLength = Self.length(truth)
        #expect(track.points.count == fixes.count)
        #expect(abs(track.distanceMetres - truthLength) < max(3 * track.distanceSigmaMetres, 0.01 * truthLength))
        #expect(abs(track.distanceMetres - truthLength) < 0.02 * truthLength)
        #expect(Self.worstError(track, truth) < 12)
    }

    @Test("smooths a walk around the South Pole 200 m out")
    func southPoleSmallCircle() {
        let latitude = -89.998_2  // about 200 m from the pole
        let (truth, fixes) = Self.poleCircle(latitude: latitude, speed: 1.4, seconds: 900, seed: 11)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        let truthLength = Self.length(truth)
        #expect(abs(track.distanceMetres - truthLength) < max(3 * track.distanceSigmaMetres, 0.05 * truthLength))
        #expect(Self.worstError(track, truth) < 12)
    }

    @Test("smooths a transpolar drive to its length")
    func transpolarDrive() {
        // From 89.1° N along a meridian across the North Pole, 40 m/s for 5,000 s: 200 km.
        let (truth, fixes) = Self.straightDrive(
            from: (89.1, 20), azimuth: 0, speed: 40, seconds: 5_000, interval: 1, seed: 3)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        let truthLength = Self.length(truth)
        #expect(track.segmentCount == 1)
        #expect(abs(track.distanceMetres - truthLength) < max(3 * track.distanceSigmaMetres, 0.001 * truthLength))
        #expect(Self.worstError(track, truth) < 12)
        // The velocities are on the local axes: north before the pole, south after it.
        #expect(track.points[100].velocityNorthMetresPerSecond > 35)
        #expect(track.points[track.points.count - 100].velocityNorthMetresPerSecond < -35)
    }

    @Test("smooths a 1,000 km drive to its length")
    func longDrive() {
        // 40° N 100° W, azimuth 80°, 30 m/s for 33,333 s, a fix every 2 s.
        let (truth, fixes) = Self.straightDrive(
            from: (40, -100), azimuth: 80, speed: 30, seconds: 33_333, interval: 2, seed: 5)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        let truthLength = Self.length(truth)
        #expect(track.points.count == fixes.count)
        #expect(track.segmentCount == 1)
        #expect(abs(track.distanceMetres - truthLength) < max(3 * track.distanceSigmaMetres, 0.001 * truthLength))
        #expect(Self.worstError(track, truth) < 12)
    }

    @Test("keeps one local frame for a track that stays near its first fix, and not about a pole")
    func frameChoice() {
        let options = SmoothingOptions(profile: .driving)
        let drive = Self.straightDrive(from: (48, 11), azimuth: 45, speed: 20, seconds: 2_000, interval: 1, seed: 1)
        #expect(TrackProblem(fixes: drive.fixes, options: options).fitsLocalFrame)
        let far = Self.straightDrive(from: (48, 11), azimuth: 45, speed: 30, seconds: 3_000, interval: 1, seed: 1)
        #expect(!TrackProblem(fixes: far.fixes, options: options).fitsLocalFrame)
        let circle = Self.poleCircle(latitude: -89.982, speed: 15, seconds: 600, seed: 7)
        #expect(!TrackProblem(fixes: circle.fixes, options: options).fitsLocalFrame)
        let circlePieces = WholeTrackSmoother(profile: .driving).pieces(of: circle.fixes)
        #expect(circlePieces.count == 1 && circlePieces[0].isTangent)
        let farPieces = WholeTrackSmoother(profile: .driving).pieces(of: far.fixes)
        #expect(farPieces.count == 2 && !farPieces[0].isTangent)
        #expect(farPieces.map(\.fixes.count).reduce(0, +) == far.fixes.count)
    }

    @Test(
        "gives up building a track's problem at its first position beyond the piece radius, and counts its states in pieces"
    )
    func givingUpOutsideTheFrame() {
        let options = SmoothingOptions(profile: .driving)
        // 30 m/s north-east from 48° N: 50 km north of the start after ~2,360 s of 6,000.
        var far = Self.straightDrive(from: (48, 11), azimuth: 45, speed: 30, seconds: 6_000, interval: 1, seed: 3)
        // Two fixes share each of the first 100 times: states, not fixes, must add up.
        far.fixes.insert(contentsOf: far.fixes[0..<100], at: 100)
        let whole = TrackProblem(fixes: far.fixes, options: options)
        let givenUp = TrackProblem(fixes: far.fixes, options: options, givingUpOutsideLocalFrame: true)
        #expect(givenUp.wasGivenUp && !givenUp.fitsLocalFrame && !whole.wasGivenUp)
        #expect(givenUp.positionEast.count < far.fixes.count / 2)
        #expect(givenUp.positionEast.allSatisfy { abs($0) <= TrackProblem.pieceRadiusMetres })
        // Up to where it gave up, the problem is the whole one's.
        #expect(givenUp.positionNorth == Array(whole.positionNorth.prefix(givenUp.positionNorth.count)))
        let pieces = WholeTrackSmoother(profile: .driving).pieces(of: far.fixes)
        #expect(pieces.count > 1)
        #expect(pieces.reduce(0) { $0 + $1.stateCount } == whole.stateCount)
        #expect(whole.stateCount == far.fixes.count - 100)
        // A track that fits is built whole either way.
        let near = Self.straightDrive(from: (48, 11), azimuth: 45, speed: 20, seconds: 2_000, interval: 1, seed: 1)
        let kept = TrackProblem(fixes: near.fixes, options: options, givingUpOutsideLocalFrame: true)
        #expect(!kept.wasGivenUp && kept.fitsLocalFrame)
        #expect(kept.positionEast == TrackProblem(fixes: near.fixes, options: options).positionEast)
    }

    @Test("a tangent plane projects and unprojects back, also at a pole")
    func tangentPlaneRoundTrip() {
        for anchor in [(90.0, 0.0), (-90.0, 45.0), (89.99, -170.0), (48.0, 11.0), (-16.8, 180.0)] {
            let plane = TangentPlane(anchor: anchor)
            for (east, north) in [(0.0, 0.0), (1_000.0, -2_000.0), (-30_000.0, 40_000.0)] {
                let g = plane.unproject(east: east, north: north)
                let p = plane.project(latitude: g.latitude, longitude: g.longitude)
                #expect(abs(p.east - east) < 1e-6 && abs(p.north - north) < 1e-6)
            }
            let g = plane.unproject(east: -30_000, north: 40_000)
            let v = plane.localVelocity(east: 3, north: -4, atLatitude: g.latitude, longitude: g.longitude)
            // (Right to the plane's scale there: 3·10⁻⁵ at 50 km.)
            #expect(abs((v.east * v.east + v.north * v.north).squareRoot() - 5) < 5e-4)
            let back = plane.planeVelocity(east: v.east, north: v.north, atLatitude: g.latitude, longitude: g.longitude)
            #expect(abs(back.east - 3) < 5e-4 && abs(back.north + 4) < 5e-4)
            let p = plane.project(latitude: anchor.0, longitude: anchor.1)
            #expect(abs(p.east) < 1e-6 && abs(p.north) < 1e-6)
        }
    }
}
