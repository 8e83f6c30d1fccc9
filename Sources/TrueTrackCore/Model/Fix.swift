/// One position report from a GNSS receiver or a phone's location service, normalised.
///
/// A `Fix` is a plain value (no references inside), so arrays of fixes copy as bytes and the filters that
/// consume them never allocate. Construct one with ``init(timestamp:latitude:longitude:horizontalAccuracyMetres:altitudeMetres:verticalAccuracyMetres:speedMetresPerSecond:speedAccuracyMetresPerSecond:courseDegrees:courseAccuracyDegrees:provider:satellitesUsed:isMocked:activity:)``,
/// which validates the coordinates and applies the normalisation rules below once, so no later stage has to
/// re-check them.
///
/// ## Normalisation (explicit, applied by the initialiser)
/// - The timestamp must lie within the years 0001–9999; latitude and longitude must be finite and within
///   ±90° / ±180°: anything else throws
///   ``FixValidationError``, which a reader turns into an error naming the file, line and field.
/// - Horizontal accuracy: a positive finite value is kept; `≤ 0` or NaN (Android's "no accuracy", iOS's −1)
///   becomes ``HorizontalAccuracy/invalid`` so that the accuracy gate rejects the fix instead of treating it as
///   perfect; a missing value stays ``HorizontalAccuracy/absent``.
/// - Speed `< 0` (iOS reports −1 for "unknown"), non-finite, or above ``maximumSpeedMetresPerSecond`` (100 km/s:
///   no unit a logger writes a speed in reaches it) → absent (`nil`), never 0.
/// - Course outside 0..<360 is wrapped into it when finite; negative course (iOS −1) or non-finite → absent.
/// - Every other optional measurement that is negative where it cannot be (vertical accuracy, speed and course
///   accuracy, satellites) or non-finite → absent. Missing values stay `nil`, never 0.
public struct Fix: Sendable, Hashable {
    // Storage order and representation keep a fix at 104 bytes (it was 152): the one-byte fields share the
    // padding after `horizontalAccuracy`, and the optional measurements are stored as plain doubles with NaN
    // for "absent" (a stored measurement is never NaN: the initialiser turns non-finite values into absent).
    // Under 128 bytes a copy is a few vector moves instead of a `memcpy` call, and arrays of fixes stream a
    // third fewer bytes (the Tracker benchmark copies every fix it is handed).

    /// The time and coordinates, read through ``timestamp``, ``latitude`` and ``longitude``: read-only, since
    /// only a throwing function can check a new value (``moved(toLatitude:longitude:)``, or a new fix).
    @usableFromInline var storedTimestamp: Timestamp
    @usableFromInline var storedLatitude: Double
    @usableFromInline var storedLongitude: Double
    /// The reported horizontal accuracy (a 68 % radius in metres on Android and iOS), or why there is none.
    /// Setting ``HorizontalAccuracy/metres(_:)`` with a value that is not positive and finite stores
    /// ``HorizontalAccuracy/invalid``, as the initialiser does.
    public var horizontalAccuracy: HorizontalAccuracy {
        didSet {
            if case .metres(let m) = horizontalAccuracy { horizontalAccuracy = HorizontalAccuracy(reportedMetres: m) }
        }
    }
    /// Which location source produced the fix.
    public var provider: Provider
    /// True when the platform flagged the fix as mocked (simulated); `nil` when the source does not say.
    public var isMocked: Bool?
    /// A motion-activity reading attached to the fix, when the source has one.
    public var activity: ActivityReading?
    /// The optional measurements, NaN when absent (see the accessors below).
    @usableFromInline var storedAltitudeMetres: Double
    @usableFromInline var storedVerticalAccuracyMetres: Double
    @usableFromInline var storedSpeedMetresPerSecond: Double
    @usableFromInline var storedSpeedAccuracyMetresPerSecond: Double
    @usableFromInline var storedCourseDegrees: Double
    @usableFromInline var storedCourseAccuracyDegrees: Double
    /// Number of satellites (or signals) used in the solution; setting a negative count stores `nil`, as the
    /// initialiser does.
    public var satellitesUsed: Int? {
        didSet { satellitesUsed = Fix.count(satellitesUsed) }
    }

    /// When the receiver computed the position, UTC, millisecond precision (years 0001–9999).
    @inlinable public var timestamp: Timestamp { @inline(__always) get { storedTimestamp } }
    /// Latitude in degrees north on the WGS-84 ellipsoid, −90…90.
    @inlinable public var latitude: Double { @inline(__always) get { storedLatitude } }
    /// Longitude in degrees east on the WGS-84 ellipsoid, −180…180.
    @inlinable public var longitude: Double { @inline(__always) get { storedLongitude } }

    /// Altitude in metres (as the source reports it: above the WGS-84 ellipsoid for phones' `Location`,
    /// above mean sea level for NMEA GGA and GPX `<ele>`).
    ///
    /// Setting one applies the initialiser's rule for it, so a fix stays valid whichever way it was filled: a
    /// non-finite value stores "absent" (`nil`) here; below, a negative speed or accuracy (iOS's −1) is absent
    /// and a course is wrapped into 0..<360 (absent when negative).
    @inlinable public var altitudeMetres: Double? {
        @inline(__always) get { Fix.absentIfNaN(storedAltitudeMetres) }
        @inline(__always) set { storedAltitudeMetres = Fix.finite(newValue) ?? .nan }
    }
    /// Vertical accuracy in metres (68 %).
    @inlinable public var verticalAccuracyMetres: Double? {
        @inline(__always) get { Fix.absentIfNaN(storedVerticalAccuracyMetres) }
        @inline(__always) set { storedVerticalAccuracyMetres = Fix.nonNegative(newValue) ?? .nan }
    }
    /// Speed over ground in metres per second as the receiver measured it (Doppler), never derived.
    @inlinable public var speedMetresPerSecond: Double? {
        @inline(__always) get { Fix.absentIfNaN(storedSpeedMetresPerSecond) }
        @inline(__always) set { storedSpeedMetresPerSecond = Fix.speed(newValue) ?? .nan }
    }
    /// Accuracy of the speed in metres per second (68 %).
    @inlinable public var speedAccuracyMetresPerSecond: Double? {
        @inline(__always) get { Fix.absentIfNaN(storedSpeedAccuracyMetresPerSecond) }
        @inline(__always) set { storedSpeedAccuracyMetresPerSecond = Fix.nonNegative(newValue) ?? .nan }
    }
    /// Course over ground in degrees clockwise from true north, 0..<360.
    @inlinable public var courseDegrees: Double? {
        @inline(__always) get { Fix.absentIfNaN(storedCourseDegrees) }
        @inline(__always) set { storedCourseDegrees = Fix.course(newValue) ?? .nan }
    }
    /// Accuracy of the course in degrees (68 %).
    @inlinable public var courseAccuracyDegrees: Double? {
        @inline(__always) get { Fix.absentIfNaN(storedCourseAccuracyDegrees) }
        @inline(__always) set { storedCourseAccuracyDegrees = Fix.nonNegative(newValue) ?? .nan }
    }

    /// `nil` for the NaN that stores "absent", else the value.
    @inlinable @inline(__always)
    static func absentIfNaN(_ stored: Double) -> Double? { stored.isNaN ? nil : stored }

    /// Creates a fix, validating its coordinates and normalising every measurement (see the type's
    /// documentation for the rules).
    ///
    /// - Parameter horizontalAccuracyMetres: the reported accuracy in metres; `nil` when the source has none
    ///   (on Android when `hasAccuracy()` is false: `getAccuracy()` then reads 0, which, like any value ≤ 0, the
    ///   accuracy gate rejects; `nil` is taken with the profile's fallback accuracy).
    /// - Throws: ``FixValidationError`` when latitude or longitude is non-finite or out of range, or the
    ///   timestamp lies outside the years 0001–9999 (``Timestamp/representableMilliseconds``).
    @inlinable
    public init(
        timestamp: Timestamp,
        latitude: Double,
        longitude: Double,
        horizontalAccuracyMetres: Double? = nil,
        altitudeMetres: Double? = nil,
        verticalAccuracyMetres: Double? = nil,
        speedMetresPerSecond: Double? = nil,
        speedAccuracyMetresPerSecond: Double? = nil,
        courseDegrees: Double? = nil,
        courseAccuracyDegrees: Double? = nil,
        provider: Provider = .unknown,
        satellitesUsed: Int? = nil,
        isMocked: Bool? = nil,
        activity: ActivityReading? = nil
    ) throws(FixValidationError) {
        try Fix.check(timestamp)
        try Fix.check(latitude: latitude, longitude: longitude)
        self.storedTimestamp = timestamp
        self.storedLatitude = latitude
        self.storedLongitude = longitude
        self.horizontalAccuracy = HorizontalAccuracy(reportedMetres: horizontalAccuracyMetres)
        self.provider = provider
        self.isMocked = isMocked
        self.activity = activity
        self.storedAltitudeMetres = Fix.finite(altitudeMetres) ?? .nan
        self.storedVerticalAccuracyMetres = Fix.nonNegative(verticalAccuracyMetres) ?? .nan
        self.storedSpeedMetresPerSecond = Fix.speed(speedMetresPerSecond) ?? .nan
        self.storedSpeedAccuracyMetresPerSecond = Fix.nonNegative(speedAccuracyMetresPerSecond) ?? .nan
        self.storedCourseDegrees = Fix.course(courseDegrees) ?? .nan
        self.storedCourseAccuracyDegrees = Fix.nonNegative(courseAccuracyDegrees) ?? .nan
        self.satellitesUsed = Fix.count(satellitesUsed)
    }

    /// Two fixes are equal when every property is (absent measurements compare equal, as `nil`s).
    @inlinable
    public static func == (a: Fix, b: Fix) -> Bool {
        a.timestamp == b.timestamp && a.latitude == b.latitude && a.longitude == b.longitude
            && a.horizontalAccuracy == b.horizontalAccuracy && a.altitudeMetres == b.altitudeMetres
            && a.verticalAccuracyMetres == b.verticalAccuracyMetres
            && a.speedMetresPerSecond == b.speedMetresPerSecond
            && a.speedAccuracyMetresPerSecond == b.speedAccuracyMetresPerSecond
            && a.courseDegrees == b.courseDegrees && a.courseAccuracyDegrees == b.courseAccuracyDegrees
            && a.provider == b.provider && a.satellitesUsed == b.satellitesUsed && a.isMocked == b.isMocked
            && a.activity == b.activity
    }

    /// Hashes every property, consistently with ``==(_:_:)``.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(latitude)
        hasher.combine(longitude)
        hasher.combine(horizontalAccuracy)
        hasher.combine(altitudeMetres)
        hasher.combine(verticalAccuracyMetres)
        hasher.combine(speedMetresPerSecond)
        hasher.combine(speedAccuracyMetresPerSecond)
        hasher.combine(courseDegrees)
        hasher.combine(courseAccuracyDegrees)
        hasher.combine(provider)
        hasher.combine(satellitesUsed)
        hasher.combine(isMocked)
        hasher.combine(activity)
    }

    /// `value` when finite, else `nil`.
    @inlinable
    static func finite(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return value
    }

    /// `value` when finite and `≥ 0`, else `nil` (iOS's −1 "unknown" lands here).
    @inlinable
    static func nonNegative(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }

    /// The fastest speed a fix keeps, metres per second: 100,000. Why: a larger reading is damage, in any unit a
    /// logger writes (a car at 100 km/h reads 27,778 in mm/s), and one reading of 1e20 m/s (a batch user's damaged
    /// file) left the tracker's running sums (metres of Doppler path, differenced over its window) without a digit
    /// of the metres that follow: it counted nothing for the rest of a 40 km drive. Read as absent, such a fix is
    /// judged by its displacement, like iOS's −1. Not the 515 m/s (1,000 knots) civil receivers stop at: a speed
    /// column in cm/s or mm/s must reach the tracker's unit check, which distrusts it and says so (a reviewer's
    /// drive in cm/s read "speed 0 %" without a word under that cap).
    public static let maximumSpeedMetresPerSecond = 100_000.0

    /// A speed reading kept: finite, `0...maximumSpeedMetresPerSecond`; else `nil`.
    @inlinable
    static func speed(_ value: Double?) -> Double? {
        guard let value, value >= 0, value <= maximumSpeedMetresPerSecond else { return nil }
        return value
    }

    /// A course wrapped into 0..<360, or `nil` when negative (iOS's −1) or non-finite.
    @inlinable
    static func course(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0 else { return nil }
        if value < 360 { return value }
        let wrapped = value.truncatingRemainder(dividingBy: 360)
        return wrapped
    }

    /// Throws unless `timestamp` lies within the years 0001–9999 (the initialiser's and `retimed(to:)`'s rule).
    @inlinable @inline(__always)
    static func check(_ timestamp: Timestamp) throws(FixValidationError) {
        guard timestamp.isRepresentable else { throw .timestampOutOfRange(timestamp.millisecondsSince1970) }
    }

    /// Throws unless the coordinates are finite and within ±90° / ±180° (the initialiser's and
    /// `moved(toLatitude:longitude:)`'s rule).
    @inlinable @inline(__always)
    static func check(latitude: Double, longitude: Double) throws(FixValidationError) {
        guard latitude.isFinite, latitude >= -90, latitude <= 90 else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite, longitude >= -180, longitude <= 180 else { throw .longitudeOutOfRange(longitude) }
    }

    /// `value` when it is a count (`≥ 0`), else `nil`.
    @inlinable
    static func count(_ value: Int?) -> Int? { value.flatMap { $0 >= 0 ? $0 : nil } }

    /// A copy of this fix at another position, every other field kept (a multipath jump injected in a test, a
    /// position snapped to a map). The coordinates are checked as the initialiser checks them.
    ///
    /// - Throws: ``FixValidationError`` when latitude or longitude is non-finite or out of range.
    @inlinable
    public func moved(toLatitude latitude: Double, longitude: Double) throws(FixValidationError) -> Fix {
        try Fix.check(latitude: latitude, longitude: longitude)
        var copy = self
        copy.storedLatitude = latitude
        copy.storedLongitude = longitude
        return copy
    }

    /// A copy of this fix stamped with another time, every other field kept (a recording replayed later, a
    /// receiver's clock offset corrected).
    ///
    /// - Throws: ``FixValidationError/timestampOutOfRange(_:)`` outside the years 0001–9999.
    @inlinable
    public func retimed(to timestamp: Timestamp) throws(FixValidationError) -> Fix {
        try Fix.check(timestamp)
        var copy = self
        copy.storedTimestamp = timestamp
        return copy
    }

    /// Whether the fix sits at exactly 0° N 0° E ("null island"): the placeholder many devices and apps write
    /// before they have a position (Android's `Location` default, zeroed structs, empty form fields), not a place
    /// anyone is. The ``Tracker`` rejects such a fix as ``RejectionReason/invalid``, the stop detector and the
    /// smoother leave it out. A real position there, in the Gulf of Guinea, is never exactly zero in both
    /// coordinates: 10⁻⁷° is 1 cm. (A geography tester's three zeros mid-walk re-anchored the tracker 5,424 km
    /// away and back, and five leading ones dragged the smoothed start 273 km.)
    @inlinable
    public var isAtNullIsland: Bool { Fix.isNullIsland(latitude: latitude, longitude: longitude) }

    /// Whether a position is exactly 0° N 0° E (see ``isAtNullIsland``), for evidence built from coordinates.
    @inlinable
    public static func isNullIsland(latitude: Double, longitude: Double) -> Bool { latitude == 0 && longitude == 0 }

    /// The horizontal accuracy in metres when the source reported a valid one, else `nil`.
    @inlinable
    public var horizontalAccuracyMetres: Double? {
        if case .metres(let value) = horizontalAccuracy { return value }
        return nil
    }
}

/// A fix's reported horizontal accuracy: a value, nothing, or a value that cannot be trusted.
///
/// Kept apart from `Double?` on purpose: "the source said 0 or −1" (``invalid``) must be rejected by the
/// accuracy gate, while "the source has no accuracy field" (``absent``) gets a documented fallback there.
public enum HorizontalAccuracy: Sendable, Hashable {
    /// A positive, finite 68 % radius in metres.
    case metres(Double)
    /// The source has no accuracy for this fix.
    case absent
    /// The source reported a value that is not an accuracy: `≤ 0`, NaN or infinite.
    case invalid

    /// Classifies a reported value: `nil` → ``absent``; positive and finite → ``metres(_:)``; else ``invalid``.
    @inlinable
    public init(reportedMetres: Double?) {
        guard let value = reportedMetres else { self = .absent; return }
        if value.isFinite, value > 0 { self = .metres(value) } else { self = .invalid }
    }
}

/// The location source that produced a fix.
public enum Provider: String, Sendable, Hashable, CaseIterable, Codable {
    /// Not stated by the source.
    case unknown
    /// A GNSS receiver's own solution (Android `gps`, NMEA, GPX from a GPS device).
    case gps
    /// A fused solution (Android FLP / fused provider, iOS Core Location).
    case fused
    /// A network (Wi-Fi or cell) position: coarse, often with an older timestamp.
    case network
    /// Android's passive provider (fixes requested by other apps).
    case passive
    /// A reference trajectory (ground truth, e.g. NovAtel SPAN or GSDC `GT`).
    case groundTruth
    /// Any other named source.
    case other

    /// Maps a provider name as written by common loggers (`gps`, `GPS`, `FLP`, `fused`, `NLP`, `network`,
    /// Google location history's `WIFI` and `CELL`, `GT`, …) to a provider, case-insensitively; unknown names
    /// map to ``other``, an empty name to ``unknown``.
    public init(name: String) {
        switch name.lowercased() {
        case "": self = .unknown
        case "gps", "gnss": self = .gps
        case "flp", "fused": self = .fused
        case "nlp", "network", "wifi", "cell": self = .network
        case "passive": self = .passive
        case "gt", "groundtruth", "ground_truth", "truth": self = .groundTruth
        case "unknown": self = .unknown
        default: self = .other
        }
    }

    /// The names ``init(name:)`` knows, as a message lists them: what a filter by provider (`--provider`, a
    /// manifest's `Provider=`) may name.
    public static let knownNames = "gps, gnss, fused, flp, network, nlp, wifi, cell, passive, gt, truth, unknown, other"

    /// The provider a filter names, or `nil` for a name ``init(name:)`` does not know (it would read as ``other``
    /// and keep nothing a user meant) or an empty one. `other` itself is known.
    public init?(knownName name: String) {
        let provider = Provider(name: name)
        guard !name.isEmpty, provider != .other || name.lowercased() == "other" else { return nil }
        self = provider
    }
}

/// Why a fix could not be created.
public enum FixValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The latitude is not a finite number within −90…90 degrees.
    case latitudeOutOfRange(Double)
    /// The longitude is not a finite number within −180…180 degrees.
    case longitudeOutOfRange(Double)
    /// The time (Unix milliseconds) lies outside the years 0001–9999.
    case timestampOutOfRange(Int64)

    /// The field the error concerns: `latitude`, `longitude` or `time`.
    public var field: String {
        switch self {
        case .latitudeOutOfRange: "latitude"
        case .longitudeOutOfRange: "longitude"
        case .timestampOutOfRange: "time"
        }
    }

    /// A human description, e.g. `latitude 91.2 is outside -90...90 degrees`.
    public var description: String {
        switch self {
        case .latitudeOutOfRange(let v):
            v.isFinite ? "latitude \(v) is outside -90...90 degrees" : "latitude \(v) is not a finite number"
        case .longitudeOutOfRange(let v):
            v.isFinite ? "longitude \(v) is outside -180...180 degrees" : "longitude \(v) is not a finite number"
        case .timestampOutOfRange(let v): "time \(v) ms since 1970 is outside the years 0001-9999"
        }
    }
}

extension Fix {
    /// What makes two fixes the same fix: their time and position (compared as numbers: 0 and −0 are one value; a
    /// `Fix` holds no NaN). A repeated delivery of a fix has the same identity; a fix buffer finds a stored fix by
    /// it (`FixBuffer.contains(_:sessionID:)`), and the track summary counts repeats with it.
    public struct Identity: Hashable, Sendable {
        /// The fix's time, milliseconds since 1970 (UTC).
        public var milliseconds: Int64
        /// The fix's latitude, degrees.
        public var latitude: Double
        /// The fix's longitude, degrees.
        public var longitude: Double

        /// The identity of `fix`.
        public init(_ fix: Fix) {
            milliseconds = fix.timestamp.millisecondsSince1970
            latitude = fix.latitude
            longitude = fix.longitude
        }
    }
}
