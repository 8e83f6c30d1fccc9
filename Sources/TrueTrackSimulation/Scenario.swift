import TrueTrackCore

/// One leg of a simulated journey: a straight stretch at constant speed, or a stop.
public struct Leg: Sendable, Hashable {
    /// How long the leg lasts, seconds.
    public var seconds: Double
    /// Speed over ground, metres per second (0 for a stop).
    public var speedMetresPerSecond: Double
    /// Heading, degrees clockwise from true north.
    public var headingDegrees: Double
    /// What the traveller is doing (attached to fixes as the activity truth).
    public var activity: ActivityKind
    /// False inside a tunnel or building: no fixes are produced, the traveller still moves.
    public var hasSignal: Bool

    /// Creates a leg.
    public init(
        seconds: Double, speedMetresPerSecond: Double, headingDegrees: Double, activity: ActivityKind,
        hasSignal: Bool = true
    ) {
        self.seconds = seconds
        self.speedMetresPerSecond = speedMetresPerSecond
        self.headingDegrees = headingDegrees
        self.activity = activity
        self.hasSignal = hasSignal
    }

    /// Walking `metres` at `speed` m/s (1.4 m/s: an average adult's pace) on `heading` degrees.
    public static func walk(metres: Double, heading: Double, speed: Double = 1.4) -> Leg {
        Leg(seconds: metres / speed, speedMetresPerSecond: speed, headingDegrees: heading, activity: .walking)
    }

    /// Running `metres` at `speed` m/s (3 m/s: an easy jog).
    public static func run(metres: Double, heading: Double, speed: Double = 3.0) -> Leg {
        Leg(seconds: metres / speed, speedMetresPerSecond: speed, headingDegrees: heading, activity: .running)
    }

    /// Driving `metres` at `speed` m/s (14 m/s ≈ 50 km/h).
    public static func drive(metres: Double, heading: Double, speed: Double = 14) -> Leg {
        Leg(seconds: metres / speed, speedMetresPerSecond: speed, headingDegrees: heading, activity: .inVehicle)
    }

    /// Standing still for `seconds`.
    public static func stop(seconds: Double, activity: ActivityKind = .still) -> Leg {
        Leg(seconds: seconds, speedMetresPerSecond: 0, headingDegrees: 0, activity: activity)
    }

    /// A tunnel: moving `metres` at `speed` without any fix.
    public static func tunnel(metres: Double, heading: Double, speed: Double, activity: ActivityKind) -> Leg {
        Leg(
            seconds: metres / speed, speedMetresPerSecond: speed, headingDegrees: heading, activity: activity,
            hasSignal: false)
    }
}

/// The truth at one instant of a scenario.
public struct TruthPoint: Sendable, Hashable {
    /// UTC time.
    public var timestamp: Timestamp
    /// Metres east of the scenario's origin.
    public var east: Double
    /// Metres north of the scenario's origin.
    public var north: Double
    /// Latitude, degrees.
    public var latitude: Double
    /// Longitude, degrees.
    public var longitude: Double
    /// True speed, m/s.
    public var speedMetresPerSecond: Double
    /// True heading, degrees clockwise from north.
    public var headingDegrees: Double
    /// True activity.
    public var activity: ActivityKind
    /// False inside a tunnel (no fix is produced).
    public var hasSignal: Bool
    /// Distance travelled since the start, metres (exact).
    public var distanceMetres: Double
}

/// A journey: legs from an origin, sampled at a fixed interval.
public struct Scenario: Sendable, Hashable {
    /// A name for reports.
    public var name: String
    /// Start latitude, degrees.
    public var originLatitude: Double
    /// Start longitude, degrees.
    public var originLongitude: Double
    /// Start time.
    public var start: Timestamp
    /// Interval between fixes, seconds.
    public var intervalSeconds: Double
    /// The legs, in order.
    public var legs: [Leg]

    /// Creates a scenario (default origin: Nuremberg, where the IPIN walks were recorded; start
    /// 2023-06-14T10:00:00Z; 1 Hz).
    public init(
        name: String, legs: [Leg], originLatitude: Double = 49.4612, originLongitude: Double = 11.1109,
        start: Timestamp = Timestamp(millisecondsSince1970: 1_686_736_800_000), intervalSeconds: Double = 1
    ) {
        self.name = name
        self.legs = legs
        self.originLatitude = originLatitude
        self.originLongitude = originLongitude
        self.start = start
        self.intervalSeconds = intervalSeconds
    }

    /// The exact distance travelled, metres (including tunnels).
    public var truthDistanceMetres: Double {
        legs.reduce(0) { $0 + $1.seconds * $1.speedMetresPerSecond }
    }

    /// The exact distance travelled in legs of the given activities, metres.
    public func truthDistanceMetres(activities: Set<ActivityKind>) -> Double {
        legs.reduce(0) { activities.contains($1.activity) ? $0 + $1.seconds * $1.speedMetresPerSecond : $0 }
    }

    /// Total duration, seconds.
    public var durationSeconds: Double { legs.reduce(0) { $0 + $1.seconds } }

    /// The largest |latitude| a scenario's truth may reach, degrees: 89. The truth is laid out in a plane about
    /// the origin (metres per degree at the origin's latitude), which a pole's neighbourhood does not suit: its
    /// longitudes would spin and its latitudes pass ±90°. A scenario for a pole needs another generator.
    public static let maximumLatitudeDegrees = 89.0

    /// `longitude` in −180…180 (the identity there, so that every truth within that range keeps its bits).
    static func normalizedLongitude(_ longitude: Double) -> Double {
        longitude >= -180 && longitude <= 180 ? longitude : GeoAngle.normalized(degrees: longitude)
    }

    /// The truth sampled every ``intervalSeconds`` from the start to the end inclusive.
    ///
    /// Longitudes are reduced to −180…180, so a scenario may cross the antimeridian.
    ///
    /// - Precondition: every point lies within ``maximumLatitudeDegrees`` of the equator (a scenario near or
    ///   across a pole is refused rather than given latitudes beyond ±90°).
    public func truth() -> [TruthPoint] {
        let a = 6_378_137.0, e2 = (1 / 298.257223563) * (2 - 1 / 298.257223563)
        let phi = originLatitude * .pi / 180
        let w2 = 1 - e2 * sin(phi) * sin(phi)
        let metresPerDegreeNorth = a * (1 - e2) / (w2 * w2.squareRoot()) * .pi / 180
        let metresPerDegreeEast = a / w2.squareRoot() * cos(phi) * .pi / 180
        var points: [TruthPoint] = []
        let total = durationSeconds
        let steps = Int((total / intervalSeconds).rounded(.down))
        points.reserveCapacity(steps + 1)
        var legIndex = 0, legStart = 0.0
        var legEast = 0.0, legNorth = 0.0, legDistance = 0.0
        for k in 0...steps {
            let t = Double(k) * intervalSeconds
            while legIndex < legs.count - 1 && t >= legStart + legs[legIndex].seconds {
                let leg = legs[legIndex]
                let d = leg.seconds * leg.speedMetresPerSecond
                let h = leg.headingDegrees * .pi / 180
                legEast += d * sin(h)
                legNorth += d * cos(h)
                legDistance += d
                legStart += leg.seconds
                legIndex += 1
            }
            let leg = legs[legIndex]
            let into = min(t - legStart, leg.seconds)
            let h = leg.headingDegrees * .pi / 180
            let d = into * leg.speedMetresPerSecond
            let east = legEast + d * sin(h), north = legNorth + d * cos(h)
            let latitude = originLatitude + north / metresPerDegreeNorth
            precondition(
                abs(latitude) <= Self.maximumLatitudeDegrees,
                "Scenario \(name) reaches latitude \(latitude)°: the simulator's truth is a plane about the origin, "
                    + "not valid within \(90 - Self.maximumLatitudeDegrees)° of a pole")
            points.append(
                TruthPoint(
                    timestamp: start.advanced(bySeconds: t), east: east, north: north,
                    latitude: latitude,
                    longitude: Self.normalizedLongitude(originLongitude + east / metresPerDegreeEast),
                    speedMetresPerSecond: leg.speedMetresPerSecond, headingDegrees: leg.headingDegrees,
                    activity: leg.activity, hasSignal: leg.hasSignal, distanceMetres: legDistance + d))
        }
        return points
    }
}

// MARK: - Presets

extension Scenario {
    /// A 10-minute walk around a block: 4 legs of 210 m at 1.4 m/s (840 m).
    public static let walk = Scenario(
        name: "walk",
        legs: [
            .walk(metres: 210, heading: 90), .walk(metres: 210, heading: 180), .walk(metres: 210, heading: 270),
            .walk(metres: 210, heading: 0),
        ])

    /// A 2-km run at 3 m/s, out and back.
    public static let run = Scenario(
        name: "run", legs: [.run(metres: 1000, heading: 45), .run(metres: 1000, heading: 225)])

    /// A 5-km drive with two traffic-light halts of 30 s.
    public static let drive = Scenario(
        name: "drive",
        legs: [
            .drive(metres: 2000, heading: 10), .stop(seconds: 30, activity: .inVehicle),
            .drive(metres: 1500, heading: 100, speed: 20), .stop(seconds: 30, activity: .inVehicle),
            .drive(metres: 1500, heading: 190, speed: 10),
        ])

    /// A walk with stops of 1, 5 and 10 minutes (600 m walked).
    public static let walkWithStops = Scenario(
        name: "walk with stops",
        legs: [
            .stop(seconds: 60), .walk(metres: 200, heading: 30), .stop(seconds: 300),
            .walk(metres: 200, heading: 120), .stop(seconds: 600), .walk(metres: 200, heading: 200),
            .stop(seconds: 60),
        ])

    /// A bus ride inside a walk: 400 m on foot, 3 km by bus at 10 m/s with two halts, 300 m on foot.
    public static let busRideInsideWalk = Scenario(
        name: "bus ride inside a walk",
        legs: [
            .walk(metres: 400, heading: 0), .stop(seconds: 120), .drive(metres: 1500, heading: 80, speed: 10),
            .stop(seconds: 40, activity: .inVehicle), .drive(metres: 1500, heading: 100, speed: 10),
            .walk(metres: 300, heading: 180),
        ])

    /// A drive through a 600 m tunnel (no fixes for 40 s).
    public static let tunnelDrive = Scenario(
        name: "tunnel drive",
        legs: [
            .drive(metres: 1500, heading: 60, speed: 15),
            .tunnel(
                metres: 600, heading: 60, speed: 15,
                activity: .inVehicle),
            .drive(metres: 1500, heading: 60, speed: 15),
        ])

    /// Standing still for 10 minutes.
    public static let stationary = Scenario(name: "stationary", legs: [.stop(seconds: 600)])
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
