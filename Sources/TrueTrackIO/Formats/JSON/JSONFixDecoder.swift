import TrueTrackCore

/// A place in the input, kept as plain integers until an error needs a ``SourceLocation``.
struct JSONPlace {
    var line: Int = 0
    var column: Int = 0
    var offset: Int = 0
}

/// The members of one JSON object read so far, by meaning (``JSONKey``), to refuse a second member of a position
/// meaning (``checkedKeys``): two values for the position (`"lat":52.5,"lat":1.0`, the alias pair
/// `"lat":52.5,"latitude":1.0`, two `geometry` members) were read as whichever came last, without a word (a formats
/// tester's), where a GPX attribute given twice is an error. Where each first member's name is, is kept in
/// ``JSONMemberNames`` for the error to quote it. A bit set, not a set: nothing is allocated per key.
struct JSONMemberSet {
    /// Bit `k` set once a member whose key's raw value is `k` was read.
    var seen: UInt64 = 0

    /// The keys whose repetition is refused: those of the position (latitude, longitude, their E7 and `latLng`
    /// forms, `geometry`, `coordinates`), where two values leave the fix's place undecided. Other fields given twice
    /// are read as before, the last one: GPSLogger for Android's full custom-URL template sends `"timestamp"` and
    /// `"time"`, `heading` and `course` come together, a device is named by `deviceId` and `uniqueId` (a reviewer:
    /// refusing every repeated meaning lost every record of such files, `--lenient` or not).
    static let checkedKeys: UInt64 = [
        JSONKey.latitude, .longitude, .latitudeE7, .longitudeE7, .latLng, .geometry, .coordinates,
    ].reduce(0) { $0 | 1 &<< UInt64($1.rawValue) }

    /// Notes a member of meaning `key`; `false` when the object already had one and its repetition is refused
    /// (``checkedKeys``). (``JSONKey``'s raw values are below 64: a test checks. Branch-free but for the answer: on
    /// every member of every record, the check cost read-jsonl 2 % with a test per step.)
    @inline(__always)
    mutating func insert(_ key: JSONKey) -> Bool {
        let bit = UInt64(1) &<< UInt64(key.rawValue)
        guard seen & bit & JSONMemberSet.checkedKeys == 0 else { return false }
        seen |= bit
        return true
    }
}

/// Where the first member of each meaning of the objects being read has its name (the input offset of its opening
/// quote, by nesting depth and ``JSONKey`` raw value), allocated once per decoder: an entry is read only where the
/// object's ``JSONMemberSet`` says it wrote it, and two objects open at once are at two depths. Objects nested deeper
/// than ``depths`` keep none (their error names the member alone).
///
/// A class only because it owns memory. (A buffer on the stack per object, `withUnsafeTemporaryAllocation` around
/// the member loop, cost read-jsonl 4,703 → 8,221 instructions per fix.)
final class JSONMemberNames {
    /// The nesting depths kept (a record, its properties or geometry, and a few more).
    static let depths = 8
    /// The entries, 64 per depth, and a row written by deeper objects and never read (no test per member).
    let slots: UnsafeMutablePointer<Int>

    init() {
        slots = .allocate(capacity: 64 * (JSONMemberNames.depths + 1))
        slots.initialize(repeating: 0, count: 64 * (JSONMemberNames.depths + 1))
    }

    deinit {
        slots.deallocate()
    }

    /// The entries of the objects at nesting `depth` (``JSONTokenizer/depth`` inside them); past ``depths``, the row
    /// never read.
    @inline(__always)
    func row(depth: Int) -> UnsafeMutablePointer<Int> {
        slots + min(depth, JSONMemberNames.depths) &* 64
    }
}

/// One position of a LineString / MultiLineString / MultiPoint waiting for its time.
struct JSONVertex {
    var longitude: Double
    var latitude: Double
    /// Altitude in metres, NaN when the position has no third coordinate.
    var altitude: Double
    var place: JSONPlace
}

/// What one record (a GeoJSON Feature or bare geometry, a JSON Lines object) said about its fix.
struct JSONRecordFields {
    var start = JSONPlace()
    var time: Timestamp?
    var latitude: Double?
    var longitude: Double?
    var latitudePlace = JSONPlace()
    var longitudePlace = JSONPlace()
    var accuracy: Double?
    var altitude: Double?
    var verticalAccuracy: Double?
    /// The speed; ``speedIsInMetresPerSecond`` when its name said so (`speed_mps`, or OwnTracks' `vel` converted),
    /// which a bare `speed` does not replace; a bare one (a Traccar position's is knots) leaves it false.
    var speed: Double?
    var speedIsInMetresPerSecond = false
    var speedAccuracy: Double?
    var course: Double?
    var courseAccuracy: Double?
    var provider: Provider = .unknown
    var satellites: Int?
    var mocked: Bool?
    var activity: ActivityKind?
    var activityConfidence: Int?
    /// The record's segment label (`segment`), when given.
    var segment: Int?
    /// Whether the record names its device (its first device member's value is in ``JSONFixDecoder/deviceKey``).
    var hasDevice = false
    /// The position of a Point geometry (`coordinates: [lon, lat, alt?]`).
    var pointLongitude: Double?
    var pointLatitude: Double?
    var pointAltitude: Double?
    var pointLongitudePlace = JSONPlace()
    var pointLatitudePlace = JSONPlace()
    /// True once a `times` / `coordTimes` array was read.
    var hasTimes = false
    /// Whether the record has a position of its own (a Point, or a latitude or longitude member; a LineString's
    /// vertices are the decoder's).
    var hasOwnPosition: Bool { pointLatitude != nil || pointLongitude != nil || latitude != nil || longitude != nil }

    /// Takes the fields `other` has and this record lacks (a nested object's, for a record without a position).
    @inline(never)
    mutating func fillGaps(from other: JSONRecordFields) {
        if time == nil { time = other.time }
        if latitude == nil, let value = other.latitude { (latitude, latitudePlace) = (value, other.latitudePlace) }
        if longitude == nil, let value = other.longitude { (longitude, longitudePlace) = (value, other.longitudePlace) }
        if accuracy == nil { accuracy = other.accuracy }
        if altitude == nil { altitude = other.altitude }
        if verticalAccuracy == nil { verticalAccuracy = other.verticalAccuracy }
        if speed == nil { (speed, speedIsInMetresPerSecond) = (other.speed, other.speedIsInMetresPerSecond) }
        if speedAccuracy == nil { speedAccuracy = other.speedAccuracy }
        if course == nil { course = other.course }
        if courseAccuracy == nil { courseAccuracy = other.courseAccuracy }
        if provider == .unknown { provider = other.provider }
        if satellites == nil { satellites = other.satellites }
        if mocked == nil { mocked = other.mocked }
        if activity == nil {
            activity = other.activity
            if activityConfidence == nil { activityConfidence = other.activityConfidence }
        }
        if segment == nil { segment = other.segment }
        if error == nil { error = other.error }
    }
    /// The first problem found in the record's values; the record is rejected at its end.
    var error: ReadError?

    /// True when the record said nothing about a fix: no time, no position, no error.
    var isEmpty: Bool {
        time == nil && latitude == nil && longitude == nil && pointLatitude == nil && pointLongitude == nil
            && !hasTimes && error == nil
    }
}

/// What a record said that few records say (a Traccar position's members), kept out of ``JSONRecordFields``, which
/// every record resets: ``JSONFixDecoder/extras``, reset only after a record that used it.
struct JSONRecordExtras {
    /// A Traccar position's `fixTime`, `deviceTime` and `serverTime`. The fix's time is `fixTime`, else `time`, else
    /// `deviceTime`, else `serverTime` (``CSVColumn/timePreference(key:)``), whatever their order; the last two are
    /// read only where they parse (they say when a record travelled: an unreadable one is no error of the fix).
    var fixTime: Timestamp?
    var deviceTime: Timestamp?
    var serverTime: Timestamp?
    /// Whether the record has a `deviceId`, and a `fixTime` or `protocol`: together, a Traccar position (see
    /// ``isTraccarPosition``).
    var hasDeviceID = false
    var hasTraccarMember = false
    /// A Traccar position's `valid` (false: the tracker repeated its last position without a new fix).
    var isValid: Bool?
    /// An OwnTracks message's `_type`: `true` for `location` (a fix), `false` for another (a transition, a waypoint,
    /// a card…: no fix), `nil` when the record has none.
    var isOwnTracksLocation: Bool?
    /// Its location's `tst`, `acc`, `vac`, `vel` (km/h) and `cog`, read into the fix only when it is one.
    var ownTracksTime: Timestamp?
    var ownTracksAccuracy: Double?
    var ownTracksVerticalAccuracy: Double?
    var ownTracksVelocity: Double?
    var ownTracksCourse: Double?
    /// The record's `hdop`: its accuracy when it states none (``ReadOptions/hdop`` says how, HDOP × 5 m by default);
    /// `nil` without one or when it does not read as a number (as a CSV's `hdop` column).
    var hdop: Double?

    /// Whether the record is a Traccar position (its API's JSON, `/api/positions`): a `deviceId` beside `fixTime` or
    /// `protocol`, Traccar's own names. Its bare `speed` is in knots (Traccar's unit), its `valid` is read, and an
    /// accuracy of 0 is none (Traccar writes 0 for a tracker that reports no accuracy).
    var isTraccarPosition: Bool { hasDeviceID && hasTraccarMember }
}

/// The record decoding shared by ``GeoJSONReader`` and ``JSONLinesReader``: member names to fix fields,
/// GeoJSON geometries and per-vertex times, and turning a finished record into fixes.
///
/// ## How values are read
/// - Fix fields are accepted in a Feature's `properties` and at the record's top level (JSON Lines, or foreign members
///   of a Feature), under the canonical names and the aliases of ``JSONKeyTable/names``. A position field given twice
///   in one object, under one name or two (`lat` and `latitude`; two `geometry` members), is the record's error naming
///   both (``JSONMemberSet/checkedKeys``); another field given twice in one object, or a field given in two objects (a
///   Feature's top level and its `properties`), the later wins. The explicit `altitude_m` property wins over a third
///   coordinate.
/// - Numbers may also be written as strings (`"4.5"`); `null` and `""` mean absent.
/// - A time is an ISO 8601 string or a number of Unix seconds or milliseconds: a magnitude of 10^11 or
///   more is milliseconds (10^11 s is the year 5138, 10^11 ms is 1973-03-03, so no real recording is
///   ambiguous), anything smaller is seconds (fractions kept to the millisecond).
/// - `activity` without `activity_confidence` gets confidence 100: the source states it unqualified.
/// - Geometries: a position (`[lon, lat, alt?]`, extra members ignored) is a Point; nested arrays of
///   positions (LineString, MultiPoint, MultiLineString, Polygon) are flattened in order and paired with
///   the flattened `times` / `coordTimes` / `coordinateProperties.times` array, whose elements are ISO
///   strings, epoch numbers or `null` (that vertex is skipped as ``SkipReason/missingTime``; at longitude
///   exactly ±180 it is where a line crossing the antimeridian was cut, RFC 7946 §3.1.9, as ``GeoJSONWriter``
///   writes it, and is passed over without being counted). A vertex fix
///   takes the record's provider, mocked flag and activity; per-point measurements (accuracy, speed…)
///   are not copied to every vertex.
/// - Memory: a Point record holds nothing beyond its fields; a multi-position record buffers its
///   positions and times until its end (48 + 8 bytes per position, at most
///   ``maximumPositionsPerRecord``), because GeoJSON may put the times before or after the coordinates.
struct JSONFixDecoder {
    /// Most positions one record may hold (2 Mi positions, about 120 MB of buffers): far above a day of
    /// 1 Hz fixes in one LineString, low enough that a hostile file cannot exhaust memory.
    static let maximumPositionsPerRecord = 1 << 21
    /// OwnTracks' message types other than `location` (its documentation's `_type` values): no fix.
    static let ownTracksMessageTypes: Set<String> = [
        "transition", "waypoint", "waypoints", "card", "lwt", "beacon", "cmd", "steps", "encrypted", "configuration",
        "status", "request", "dump",
    ]
    /// A vertex time that is `null`.
    static let missingTime = Int64.min

    enum Scope {
        /// `nested`: a `coords` or `location` object inside a record, read into ``JSONFixDecoder/nested``.
        case record, properties, geometry, coordinateProperties, nested
    }

    var tokens: JSONTokenizer
    let options: ReadOptions
    /// True while the records are Google location history's (the `locations` / `rawSignals` arrays): only then
    /// are its member names fields. Elsewhere they may mean anything: another exporter's `source` is an app's
    /// name (it replaced the provider, and `--provider gps` then dropped every fix), its `velocity` text or
    /// km/h, its `timestampMs` another clock.
    var readsLocationHistory = false

    /// An E7 coordinate of Google location history, with a negative value some exports wrote as an unsigned 32-bit
    /// one (above `limit`, 90° or 180° in E7, and below 2³²) taken back below zero: a tester's `latitudeE7`
    /// 4,233,738,877 is −6.1228419°, refused as 423.37° before.
    static func unwrappedE7(_ value: Double, limit: Double) -> Double {
        value > limit && value < 4_294_967_296 ? value - 4_294_967_296 : value
    }
    var report: ReadReport
    /// The devices the records name (``ReadOptions/devices`` keeps one, see ``selectDevice(fixes:)``), and the member
    /// name the first was read from, as written (`deviceId`, `deviceTag`…), once a record naming one gave a fix.
    var devices: DeviceTable
    var deviceField: String?
    /// Whether a record of a second device ended a file read as one device's: the readers return no more fixes.
    var endedAtSecondDevice = false
    /// The record's device as read (its first device member's value: a record naming its tracker twice, `deviceId`
    /// and `uniqueId`, is one device's), the name of the device member read last (the one that gave the value: later
    /// members of a record that names its device are not kept), and where the value is; kept out of
    /// ``JSONRecordFields``, which every record resets. The buffers keep their capacity: no allocation per record.
    var deviceKey: [UInt8] = []
    var deviceMemberName: [UInt8] = []
    var devicePlace = JSONPlace()
    let keys = JSONKeyTable()
    /// Where the first member of each meaning of the open objects has its name (see ``JSONMemberNames``).
    let memberNames = JSONMemberNames()
    var record = JSONRecordFields()
    /// The fields of the record's nested `coords` / `location` objects (the W3C Geolocation API's `coords`,
    /// TransistorSoft's records), used only by a record without a position of its own, to fill what it lacks: a
    /// record's own fields win, whatever the members' order, and a place or geofence object beside a fix's
    /// position (`"location": {"name": "Office", "lat": …}`) neither moves the fix nor rejects it.
    var nested = JSONRecordFields()
    /// Whether ``nested`` holds anything to clear at the next record (and so whether the record had a nested object).
    var nestedWasUsed = false
    /// True while a nested object is decoded; its optional fields that do not read (leniently) wait in
    /// ``nestedReadAsMissing``, reported only if the record takes its fields.
    var decodingNested = false
    var nestedReadAsMissing: [ReadError] = []
    /// The record's rarer members (see ``JSONRecordExtras``), and whether it had any.
    var extras = JSONRecordExtras()
    var extrasUsed = false
    var vertices: [JSONVertex] = []
    var times: [Int64] = []
    /// Next vertex to emit while ``isEmitting``.
    var emitIndex = 0
    /// True while the vertices of a finished multi-position record are being returned.
    var isEmitting = false

    /// The conversion of times written without a zone (``ReadOptions/localTimeZone``), `nil` without one; and a
    /// second for the times a record travelled with (``decodeTravelTime(_:)``), so that they neither count as the
    /// fixes' times converted nor steer the choice in the repeated autumn hour (a reviewer's Traccar rows: the
    /// server's time a quarter hour on put the next fix an hour late under the first rule).
    var localTimes: LocalTimeConversion?
    var travelLocalTimes: LocalTimeConversion?

    init(tokens: JSONTokenizer, options: ReadOptions) {
        self.tokens = tokens
        self.options = options
        self.localTimes = options.localTimeZone.map(LocalTimeConversion.init(zone:))
        self.travelLocalTimes = localTimes
        self.report = ReadReport(source: tokens.name)
        self.devices = DeviceTable(selection: options.devices)
    }

    var place: JSONPlace {
        JSONPlace(line: tokens.tokenLine, column: tokens.tokenColumn, offset: tokens.tokenOffset)
    }

    func location(_ place: JSONPlace) -> SourceLocation {
        SourceLocation(file: tokens.name, line: place.line, column: place.column, byteOffset: place.offset)
    }

    /// Resets ``nested`` and ``extras`` after a record that used them (out of line: most records use neither).
    @inline(never)
    mutating func clearRareFields() {
        nested = JSONRecordFields()
        nestedReadAsMissing.removeAll()
        extras = JSONRecordExtras()
        (nestedWasUsed, extrasUsed) = (false, false)
    }

    /// Starts a record at the `{` (or value) just read.
    mutating func beginRecord() {
        record = JSONRecordFields()
        if nestedWasUsed || extrasUsed { clearRareFields() }
        report.dropUnreadableFields()
        record.start = place
        if !vertices.isEmpty { vertices.removeAll(keepingCapacity: vertices.capacity <= 1 << 16) }
        if !times.isEmpty { times.removeAll(keepingCapacity: times.capacity <= 1 << 16) }
    }

    // MARK: - Members

    /// Reads the members of the object whose `{` was just read, through its `}`. A second member of a position meaning
    /// is the record's error (``JSONMemberSet/checkedKeys``).
    mutating func decodeObject(scope: Scope) throws(ReadError) {
        var members = JSONMemberSet()
        let names = memberNames.row(depth: tokens.depth)
        while true {
            let t = try tokens.next()
            if t == .endObject { return }
            let key = keys.lookup(tokens.bytes, tokens.valueStart, tokens.valueEnd)
            try decodeMember(key, of: &members, names: names, scope: scope)
        }
    }

    /// Reads the member named `key` (its name the last token) of an object whose members so far are `members`, the
    /// places of their names kept in `names` (the object's ``JSONMemberNames`` row): a second member of a position
    /// meaning is the record's error (``duplicateMember(_:)``, its value passed over); any other member is noted and
    /// read (``decodeMember(_:scope:)``, a repeated one of another meaning as ``JSONMemberSet/checkedKeys`` says). The
    /// one check of ``decodeObject(scope:)`` and of a GeoJSON document's own members (``GeoJSONReader``'s root object).
    @inline(__always)
    mutating func decodeMember(
        _ key: JSONKey, of members: inout JSONMemberSet, names: UnsafeMutablePointer<Int>, scope: Scope
    ) throws(ReadError) {
        guard members.insert(key) else {
            try duplicateMember(key)
            return
        }
        names[Int(key.rawValue)] = tokens.tokenOffset
        try decodeMember(key, scope: scope)
    }

    /// A second member of meaning `key` in one object (its name the last token): the record's error, naming both (the
    /// value is passed over). Which of the two values the file means cannot be told.
    @inline(never)
    mutating func duplicateMember(_ key: JSONKey) throws(ReadError) {
        let second = tokens.text
        let at = place
        // (The first's name is quoted while the input still holds it, to its closing quote, and when it reads as the
        // same key: a GeoJSON feature larger than the window may have moved on, and a name unescaped in place is
        // followed by what its escapes left.)
        var first = "a member"
        if tokens.depth < JSONMemberNames.depths {
            let offset = memberNames.row(depth: tokens.depth)[Int(key.rawValue)]
            let start = offset - tokens.base + 1
            if start > 0, start <= tokens.n,
                let end = tokens.bytes[start..<tokens.n].firstIndex(of: UInt8(ascii: "\"")),
                keys.lookup(tokens.bytes, start, end) == key
            {
                first =
                    "\"" + String(decoding: UnsafeRawBufferPointer(rebasing: tokens.bytes[start..<end]), as: UTF8.self)
                    + "\""
            }
        }
        let t = try tokens.next()
        let found = "\"" + second + "\": " + describe(t)
        try tokens.skip(t)
        if record.error == nil {
            let already =
                first == "\"" + second + "\""
                ? "the object already has one (JSON names should be unique)"
                : "the object already has \(first), which names the same field"
            record.error = .malformedField(
                location(at), field: second,
                expected: "one member for it per object (\(already): which of the two values to read cannot be told)",
                found: found)
        }
    }

    /// Reads the value of a member named `key` (the key was just read).
    mutating func decodeMember(_ key: JSONKey, scope: Scope) throws(ReadError) {
        if _slowPath(key == .deviceID || key == .device) { keepDeviceMemberName(scope: scope) }
        try decodeMember(key, scope: scope, valueToken: try tokens.next())
    }

    /// Reads the value of a member named `key` whose first token, `t`, was just read.
    mutating func decodeMember(_ key: JSONKey, scope: Scope, valueToken t: JSONTokenizer.Token) throws(ReadError) {
        let isFieldScope = scope == .record || scope == .properties || scope == .nested
        // (Traccar's and OwnTracks' members are their records' own: inside a nested object they are a place's.)
        let isOwnScope = scope == .record || scope == .properties
        switch key {
        case .time where isFieldScope:
            record.time = try decodeTime(t)
        case .fixTime where isOwnScope:
            extrasUsed = true
            extras.hasTraccarMember = true
            extras.fixTime = try decodeTime(t)
        case .deviceTime where isOwnScope:
            extrasUsed = true
            extras.deviceTime = try decodeTravelTime(t)
        case .serverTime where isOwnScope:
            extrasUsed = true
            extras.serverTime = try decodeTravelTime(t)
        case .protocolName where isOwnScope:
            extrasUsed = true
            extras.hasTraccarMember = true
            try tokens.skip(t)
        case .deviceID where isOwnScope:
            extrasUsed = true
            extras.hasDeviceID = true
            try decodeDevice(t)
        case .device where isOwnScope:
            try decodeDevice(t)
        case .ownTracksType where isOwnScope:
            // OwnTracks' own message types only: another serialiser's `_type` tag says nothing of a fix.
            if t == .string {
                let name = tokens.text
                if name == "location" {
                    extrasUsed = true
                    extras.isOwnTracksLocation = true
                } else if JSONFixDecoder.ownTracksMessageTypes.contains(name) {
                    extrasUsed = true
                    extras.isOwnTracksLocation = false
                }
            } else {
                try tokens.skip(t)
            }
        case .ownTracksTime where isOwnScope:
            extrasUsed = true
            extras.ownTracksTime = try decodeTravelTime(t)
        case .ownTracksAccuracy where isOwnScope: try decodeLooseNumber(t, into: \.ownTracksAccuracy)
        case .ownTracksVerticalAccuracy where isOwnScope: try decodeLooseNumber(t, into: \.ownTracksVerticalAccuracy)
        case .ownTracksVelocity where isOwnScope: try decodeLooseNumber(t, into: \.ownTracksVelocity)
        case .ownTracksCourse where isOwnScope: try decodeLooseNumber(t, into: \.ownTracksCourse)
        case .hdop where isOwnScope: try decodeLooseNumber(t, into: \.hdop)
        case .valid where isOwnScope:
            // Read as a Traccar position's only (another exporter's `valid` may mean anything); a value that is not
            // a boolean is not a Traccar one, and is ignored.
            if t == .true || t == .false {
                extrasUsed = true
                extras.isValid = t == .true
            } else {
                try tokens.skip(t)
            }
        case .coords where isFieldScope, .location where isFieldScope:
            // A fix's fields one level down (W3C `coords`, a `location` object), into `nested`; anything else by that
            // name is not. (Inside a nested object, a further one is read into the same fields.)
            try decodeNested(t, scope: scope)
        case .latitude where isFieldScope:
            record.latitudePlace = place
            record.latitude = try decodeNumber(t, "latitude")
        case .longitude where isFieldScope:
            record.longitudePlace = place
            record.longitude = try decodeNumber(t, "longitude")
        case .accuracy where isFieldScope:
            record.accuracy = try decodeNumber(t, "accuracy_m", isOptional: true)
        case .altitude where isFieldScope:
            record.altitude = try decodeMeasurement(t, "altitude_m")
        case .verticalAccuracy where isFieldScope:
            record.verticalAccuracy = try decodeNumber(t, "vertical_accuracy_m", isOptional: true)
        case .speed where isFieldScope:
            let value = try decodeMeasurement(t, "speed_mps")
            if !record.speedIsInMetresPerSecond { record.speed = value }
        case .speedMetresPerSecond where isFieldScope:
            record.speed = try decodeMeasurement(t, "speed_mps")
            record.speedIsInMetresPerSecond = true
        case .speedKilometresPerHour where isFieldScope, .speedKnots where isFieldScope,
            .speedMilesPerHour where isFieldScope:
            // (Not over a speed in m/s read before it; a bare `speed` after it does not replace it.)
            let factor =
                key == .speedKnots
                ? SpeedUnit.metresPerSecondPerKnot
                : key == .speedMilesPerHour
                    ? SpeedUnit.metresPerSecondPerMilePerHour : SpeedUnit.metresPerSecondPerKilometrePerHour
            let name = key == .speedKnots ? "speed_knots" : key == .speedMilesPerHour ? "speed_mph" : "speed_kmh"
            if let value = try decodeMeasurement(t, name), !record.speedIsInMetresPerSecond {
                (record.speed, record.speedIsInMetresPerSecond) = (value * factor, true)
            }
        case .speedAccuracy where isFieldScope:
            record.speedAccuracy = try decodeNumber(t, "speed_accuracy_mps", isOptional: true)
        case .course where isFieldScope:
            record.course = try decodeMeasurement(t, "course_deg")
        case .courseAccuracy where isFieldScope:
            record.courseAccuracy = try decodeNumber(t, "course_accuracy_deg", isOptional: true)
        case .provider where isFieldScope:
            switch t {
            case .string: record.provider = JSONKeyTable.provider(tokens.bytes, tokens.valueStart, tokens.valueEnd)
            case .null: record.provider = .unknown
            // TransistorSoft's `provider` object (its providerchange records: whether GPS and network are enabled)
            // names no provider of the fix.
            case .beginObject: try tokens.skip(t)
            default: try fieldError("provider", expected: "a provider name", t)
            }
        case .satellites where isFieldScope:
            record.satellites = try decodeInteger(t, "satellites", isOptional: true)
        case .mocked where isFieldScope:
            record.mocked = try decodeBool(t, "mocked", isOptional: true)
        case .activity where isFieldScope:
            switch t {
            case .string:
                // A name that is no activity does not replace one read (Overland's `activity` is the app's
                // setting, `other_navigation`, `fitness`, beside the `motion` Core Motion read).
                let kind = JSONKeyTable.activity(tokens.bytes, tokens.valueStart, tokens.valueEnd)
                if kind != .unknown || record.activity == nil { record.activity = kind }
            case .null: record.activity = nil
            case .beginArray: try decodeActivityReadings()
            case .beginObject: try decodeActivityObject()
            default: try fieldError("activity", expected: "an activity name", t)
            }
        case .motion where isFieldScope:
            if t == .beginArray { try decodeMotionFlags() } else { try tokens.skip(t) }
        case .activityConfidence where isFieldScope:
            // (A share 0.0-1.0, as some exports write it, is read as a percentage: `ActivityConfidence`.)
            if t == .number, let share = tokens.number(), share != share.rounded(),
                let percent = ActivityConfidence.percent(share)
            {
                record.activityConfidence = percent
            } else {
                record.activityConfidence = try decodeInteger(t, "activity_confidence", isOptional: true)
            }
        case .segment where isFieldScope:
            record.segment = try decodeInteger(t, "segment")
        // Google location history's names are fields only in its records (see `readsLocationHistory`); elsewhere
        // they fall to `default` and are skipped.
        case .timestampMs where isFieldScope && readsLocationHistory:
            record.time = try decodeTime(t)
        case .latitudeE7 where isFieldScope && readsLocationHistory:
            record.latitudePlace = place
            record.latitude = try decodeNumber(t, "latitudeE7").map {
                Self.unwrappedE7($0, limit: 900_000_000) / 10_000_000
            }
        case .longitudeE7 where isFieldScope && readsLocationHistory:
            record.longitudePlace = place
            record.longitude = try decodeNumber(t, "longitudeE7").map {
                Self.unwrappedE7($0, limit: 1_800_000_000) / 10_000_000
            }
        case .latLng where isFieldScope && readsLocationHistory:
            try decodeLatLng(t)
        case .velocity where isFieldScope && readsLocationHistory:
            // Google location history's speed (m/s).
            if t == .number || t == .string {
                record.speed = try decodeMeasurement(t, "velocity")
            } else {
                try tokens.skip(t)
            }
        case .source where isFieldScope && readsLocationHistory:
            // Google location history's provider (GPS, WIFI, CELL).
            if t == .string {
                record.provider = JSONKeyTable.provider(tokens.bytes, tokens.valueStart, tokens.valueEnd)
            } else {
                try tokens.skip(t)
            }
        case .position where scope == .record && readsLocationHistory:
            // The on-device Timeline's raw signal: {"position": {"LatLng": …, "accuracyMeters": …, …}}.
            if t == .beginObject { try decodeObject(scope: .properties) } else { try tokens.skip(t) }
        case .geometry where scope == .record:
            if t == .beginObject {
                try decodeObject(scope: .geometry)
            } else if t != .null {
                try fieldError("geometry", expected: "a geometry object or null", t)
            }
        case .properties where scope == .record:
            if t == .beginObject {
                try decodeObject(scope: .properties)
            } else if t != .null {
                try fieldError("properties", expected: "an object or null", t)
            }
        case .coordinateProperties where scope == .properties:
            if t == .beginObject {
                try decodeObject(scope: .coordinateProperties)
            } else if t != .null {
                try fieldError("coordinateProperties", expected: "an object or null", t)
            }
        case .coordinates where scope == .record || scope == .geometry:
            try decodeCoordinates(t)
        case .times where scope != .geometry && scope != .nested:
            try decodeTimes(t)
        default:
            try tokens.skip(t)
        }
    }

    /// Reads a `coords` / `location` member's value (its first token `t`) into ``nested`` (see there); anything but
    /// an object is passed over. Inside a nested object a further one is read into the same fields.
    @inline(never)
    mutating func decodeNested(_ t: JSONTokenizer.Token, scope: Scope) throws(ReadError) {
        guard t == .beginObject else {
            try tokens.skip(t)
            return
        }
        if scope == .nested {
            try decodeObject(scope: .nested)
        } else {
            // (Marked first: a syntax error inside leaves fields behind, which the next record must not find.)
            nestedWasUsed = true
            swap(&record, &nested)
            decodingNested = true
            defer {
                swap(&record, &nested)
                decodingNested = false
            }
            try decodeObject(scope: .nested)
        }
    }

    // MARK: - Google location history

    /// Reads Takeout's `activity` array (its `[` just read): `[{"timestamp": …, "activity": [{"type": "STILL",
    /// "confidence": 100}, …]}, …]`, newest reading first. The fix takes the first reading's most confident type
    /// and its confidence (the reading nearest the fix; Google stamps it within seconds to minutes of it).
    mutating func decodeActivityReadings() throws(ReadError) {
        var first = true
        while true {
            let t = try tokens.next()
            if t == .endArray { return }
            guard first, t == .beginObject else {
                try tokens.skip(t)
                continue
            }
            first = false
            // One reading: its `activity` member is the array of {type, confidence}.
            while true {
                let k = try tokens.next()
                if k == .endObject { break }
                let isTypes = keys.lookup(tokens.bytes, tokens.valueStart, tokens.valueEnd) == .activity
                let v = try tokens.next()
                guard isTypes, v == .beginArray else {
                    try tokens.skip(v)
                    continue
                }
                var best: (kind: ActivityKind, confidence: Int)?
                while true {
                    let e = try tokens.next()
                    if e == .endArray { break }
                    guard e == .beginObject else {
                        try tokens.skip(e)
                        continue
                    }
                    let reading = try decodeActivityMembers()
                    let confidence = reading.confidence ?? 0
                    if let kind = reading.kind, confidence > (best?.confidence ?? -1) { best = (kind, confidence) }
                }
                if let best {
                    record.activity = best.kind
                    record.activityConfidence = best.confidence
                }
            }
        }
    }

    /// Reads Overland's `motion` array (its `[` just read): the Core Motion activities that were set, which Overland
    /// writes without Core Motion's confidence. One activity is read as a bare name is (confidence 100: it is Core
    /// Motion's verdict); with several, `stationary` when it is among them (a phone at rest in a car or on a walk
    /// Core Motion still names: at rest is what it reads now), else the first, at confidence 50, below the gates'
    /// 75: Core Motion was not decided. An empty array, or names that are no activity, leave the record's activity
    /// as it was, and an `activity` that names none does not replace it.
    mutating func decodeMotionFlags() throws(ReadError) {
        var chosen: ActivityKind?
        var count = 0
        while true {
            let t = try tokens.next()
            if t == .endArray { break }
            guard t == .string else {
                try tokens.skip(t)
                continue
            }
            let kind = JSONKeyTable.activity(tokens.bytes, tokens.valueStart, tokens.valueEnd)
            guard kind != .unknown else { continue }
            count += 1
            if chosen == nil || kind == .still { chosen = kind }
        }
        guard let chosen else { return }
        record.activity = chosen
        record.activityConfidence = count == 1 ? 100 : 50
    }

    /// Reads an activity object (its `{` just read), TransistorSoft's `{"type": "on_foot", "confidence": 100}`: the
    /// confidence when given, else 100 as for a bare name.
    mutating func decodeActivityObject() throws(ReadError) {
        let reading = try decodeActivityMembers()
        record.activity = reading.kind
        if let confidence = reading.confidence { record.activityConfidence = confidence }
    }

    /// The members of an activity object whose `{` was just read, through its `}`: `type` by
    /// ``JSONKeyTable/activity(_:_:_:)`` and `confidence` clamped to 0–100 (Takeout's readings and TransistorSoft's
    /// object share this shape); others skipped.
    mutating func decodeActivityMembers() throws(ReadError) -> (kind: ActivityKind?, confidence: Int?) {
        var kind: ActivityKind?
        var confidence: Int?
        while true {
            let m = try tokens.next()
            if m == .endObject { return (kind, confidence) }
            let name = keys.lookup(tokens.bytes, tokens.valueStart, tokens.valueEnd)
            let value = try tokens.next()
            if name == .type, value == .string {
                kind = JSONKeyTable.activity(tokens.bytes, tokens.valueStart, tokens.valueEnd)
            } else if name == .confidence, value == .number, let c = tokens.number(), c.isFinite {
                confidence = Int(max(0, min(100, c)))
            } else {
                try tokens.skip(value)
            }
        }
    }

    /// Reads the Timeline's `"LatLng": "48.1234567°, 11.1234567°"` (degrees, the `°` optional).
    mutating func decodeLatLng(_ t: JSONTokenizer.Token) throws(ReadError) {
        guard t == .string else {
            if t != .null { try fieldError("LatLng", expected: "\"latitude°, longitude°\"", t) }
            return
        }
        let p = tokens.bytes
        // The numbers in the text (no array: one per fix); a third means it is not a position.
        var values = (0.0, 0.0), count = 0
        var k = tokens.valueStart
        let end = tokens.valueEnd
        while k < end, count < 3 {
            // Skip to a number's first byte.
            while k < end, !(p[k] == UInt8(ascii: "-") || p[k] == UInt8(ascii: "+") || (p[k] >= 0x30 && p[k] <= 0x39)) {
                k += 1
            }
            let start = k
            while k < end,
                p[k] == UInt8(ascii: "-") || p[k] == UInt8(ascii: "+") || p[k] == UInt8(ascii: ".")
                    || (p[k] >= 0x30 && p[k] <= 0x39)
            {
                k += 1
            }
            if k > start, let v = NumberParsing.double(p, start, k) {
                if count == 0 { values.0 = v } else if count == 1 { values.1 = v }
                count += 1
            }
        }
        guard count == 2 else {
            try fieldError("LatLng", expected: "\"latitude°, longitude°\"", t)
            return
        }
        record.latitudePlace = place
        record.longitudePlace = place
        record.latitude = values.0
        record.longitude = values.1
    }

    // MARK: - Values

    /// Notes a value of the wrong kind (the first problem of a record is kept) and skips it. An optional
    /// measurement's (`isOptional`) read leniently is read as missing instead, the record kept
    /// (``ReadReport/readAsMissing(_:lenient:)``).
    mutating func fieldError(
        _ field: String, expected: String, _ t: JSONTokenizer.Token, isOptional: Bool = false
    ) throws(ReadError) {
        if isOptional, options.lenient, decodingNested {
            nestedReadAsMissing.append(
                .malformedField(tokens.tokenLocation, field: field, expected: expected, found: describe(t)))
        } else if isOptional, options.lenient {
            try report.readAsMissing(
                .malformedField(tokens.tokenLocation, field: field, expected: expected, found: describe(t)),
                lenient: true)
        } else if record.error == nil {
            record.error = .malformedField(tokens.tokenLocation, field: field, expected: expected, found: describe(t))
        }
        try tokens.skip(t)
    }

    /// The text of token `t` for an error message.
    func describe(_ t: JSONTokenizer.Token) -> String {
        switch t {
        case .string: "\"" + tokens.text + "\""
        case .number, .key: tokens.text
        case .beginObject: "{"
        case .beginArray: "["
        case .endObject: "}"
        case .endArray: "]"
        case .true: "true"
        case .false: "false"
        case .null: "null"
        case .end: "end of input"
        }
    }

    mutating func decodeNumber(
        _ t: JSONTokenizer.Token, _ field: String, isOptional: Bool = false
    ) throws(ReadError) -> Double? {
        switch t {
        case .number:
            if let v = tokens.number() { return v }
        case .string:
            if tokens.valueStart == tokens.valueEnd { return nil }
            if let v = tokens.number() { return v }
        case .null:
            return nil
        default:
            break
        }
        try fieldError(field, expected: "a number", t, isOptional: isOptional)
        return nil
    }

    mutating func decodeInteger(
        _ t: JSONTokenizer.Token, _ field: String, isOptional: Bool = false
    ) throws(ReadError) -> Int? {
        switch t {
        case .number, .string:
            if t == .string, tokens.valueStart == tokens.valueEnd { return nil }
            if let v = tokens.number(), v == v.rounded(), abs(v) < 1e15 { return Int(v) }
        case .null:
            return nil
        default:
            break
        }
        try fieldError(field, expected: "an integer", t, isOptional: isOptional)
        return nil
    }

    mutating func decodeBool(
        _ t: JSONTokenizer.Token, _ field: String, isOptional: Bool = false
    ) throws(ReadError) -> Bool? {
        switch t {
        case .true: return true
        case .false: return false
        case .null: return nil
        case .number, .string:
            let p = tokens.bytes
            let s = tokens.valueStart
            let count = tokens.valueEnd - s
            if t == .string, count == 0 { return nil }
            if count == 1, p[s] == UInt8(ascii: "1") { return true }
            if count == 1, p[s] == UInt8(ascii: "0") { return false }
            if count == 4, JSONKeyTable.normalised(p[s]) == UInt8(ascii: "t"),
                JSONKeyTable.normalised(p[s + 1]) == UInt8(ascii: "r"),
                JSONKeyTable.normalised(p[s + 2]) == UInt8(ascii: "u"),
                JSONKeyTable.normalised(p[s + 3]) == UInt8(ascii: "e")
            {
                return true
            }
            if count == 5, JSONKeyTable.normalised(p[s]) == UInt8(ascii: "f"),
                JSONKeyTable.normalised(p[s + 1]) == UInt8(ascii: "a"),
                JSONKeyTable.normalised(p[s + 2]) == UInt8(ascii: "l"),
                JSONKeyTable.normalised(p[s + 3]) == UInt8(ascii: "s"),
                JSONKeyTable.normalised(p[s + 4]) == UInt8(ascii: "e")
            {
                return false
            }
        default:
            break
        }
        try fieldError(field, expected: "true or false", t, isOptional: isOptional)
        return nil
    }

    /// An altitude, a speed or a course in the token `t` just read (``decodeNumber(_:_:isOptional:)``, an optional
    /// measurement), or `nil` for one that is no finite number (`"NaN"`, `"Infinity"`, `1e400`): read as missing and
    /// counted in any mode (``ReadReport/readNonFiniteAsMissing(_:)``; it was dropped without a word).
    @inline(__always)
    mutating func decodeMeasurement(_ t: JSONTokenizer.Token, _ field: String) throws(ReadError) -> Double? {
        guard let value = try decodeNumber(t, field, isOptional: true) else { return nil }
        guard value.isFinite else {
            readNonFiniteAsMissing(field, t)
            return nil
        }
        return value
    }

    /// Notes the value of `field` in the token `t` just read, no finite number, as read as missing (out of line).
    @inline(never)
    mutating func readNonFiniteAsMissing(_ field: String, _ t: JSONTokenizer.Token) {
        let error = ReadError.malformedField(
            tokens.tokenLocation, field: field, expected: ReadReport.nonFiniteExpectation, found: describe(t))
        // (A nested object's fields are kept until the record knows whether it takes them, as its other fields read
        // as missing are.)
        if decodingNested {
            nestedReadAsMissing.append(error)
        } else {
            report.readNonFiniteAsMissing(error)
        }
    }

    /// A Unix time in seconds or milliseconds (see the type's documentation), or `nil` out of range.
    static func epochTimestamp(_ v: Double) -> Timestamp? {
        guard v.isFinite else { return nil }
        if abs(v) >= 1e11 {
            guard abs(v) < Double(Timestamp.representableMilliseconds.upperBound) else { return nil }
            return Timestamp(millisecondsSince1970: Int64(v.rounded()))
        }
        return Timestamp(secondsSince1970: v)
    }

    /// The time in the token just read; `nil` for `null` / `""` or after noting an error.
    mutating func decodeTime(_ t: JSONTokenizer.Token) throws(ReadError) -> Timestamp? {
        if t == .null || (t == .string && tokens.valueStart == tokens.valueEnd) { return nil }
        if let time = _slowPath(localTimes != nil) ? localTime(t) : timeOfToken(t) { return time }
        try fieldError("time", expected: "an ISO 8601 time or a number of Unix seconds or milliseconds", t)
        return nil
    }

    /// The time the string or number token just read holds (ISO 8601, or Unix seconds or milliseconds); `nil` for
    /// one that holds none, and for other tokens. (Always inlined: as a call from the per-record `decodeTime`,
    /// read-jsonl cost 5,014 instructions per fix against 4,656.)
    @inline(__always)
    func timeOfToken(_ t: JSONTokenizer.Token) -> Timestamp? {
        switch t {
        case .string:
            if let time = ISO8601.parse(tokens.bytes, from: tokens.valueStart, to: tokens.valueEnd) { return time }
            return tokens.number().flatMap(JSONFixDecoder.epochTimestamp)
        case .number:
            return tokens.number().flatMap(JSONFixDecoder.epochTimestamp)
        default:
            return nil
        }
    }

    /// A number, or a string holding one; `nil` for anything else, without an error (OwnTracks' short names, which
    /// in another record may hold anything: an accelerometer's `acc` object).
    mutating func decodeLooseNumber(_ t: JSONTokenizer.Token) throws(ReadError) -> Double? {
        switch t {
        case .number, .string: return tokens.number()
        default:
            try tokens.skip(t)
            return nil
        }
    }

    /// Reads a rare member's number loosely (``decodeLooseNumber(_:)``) into `field` of ``extras``.
    mutating func decodeLooseNumber(
        _ t: JSONTokenizer.Token, into field: WritableKeyPath<JSONRecordExtras, Double?>
    ) throws(ReadError) {
        extrasUsed = true
        extras[keyPath: field] = try decodeLooseNumber(t)
    }

    /// A time a record travelled with (Traccar's `deviceTime`, `serverTime`): read as ``decodeTime(_:)`` reads one,
    /// `nil` where it does not parse, without an error (the fix's own time is another member).
    mutating func decodeTravelTime(_ t: JSONTokenizer.Token) throws(ReadError) -> Timestamp? {
        guard t == .string || t == .number else {
            try tokens.skip(t)
            return nil
        }
        return travelLocalTimes != nil ? localTime(t, travelled: true) : timeOfToken(t)
    }

    /// The time in the token `t` just read (``timeOfToken(_:)``), converted from ``localTimes``' zone when it is text
    /// without a zone of its own (a number, or a number in a string, is a Unix time: UTC); the text is parsed once
    /// (it was parsed again to learn whether it carried a zone). Out of line: only with the option. `travelled`: a
    /// time the record travelled with, through ``travelLocalTimes`` and not counted.
    @inline(never)
    mutating func localTime(_ t: JSONTokenizer.Token, travelled: Bool = false) -> Timestamp? {
        var hasZone = false
        guard t == .string,
            let time = ISO8601.parse(
                tokens.bytes, from: tokens.valueStart, to: tokens.valueEnd, hasZone: &hasZone)
        else { return t == .string || t == .number ? tokens.number().flatMap(JSONFixDecoder.epochTimestamp) : nil }
        if hasZone { return time }
        if travelled { return travelLocalTimes!.utc(fromLocal: time) }
        report.localTimesConverted += 1
        return localTimes!.utc(fromLocal: time)
    }

    // MARK: - Geometry and per-vertex times

    /// Reads a `coordinates` value: one position (a Point) or nested arrays of positions.
    mutating func decodeCoordinates(_ t: JSONTokenizer.Token) throws(ReadError) {
        if t == .null { return }
        guard t == .beginArray else {
            try fieldError("coordinates", expected: "an array of positions", t)
            return
        }
        let outer = tokens.depth
        var u = try tokens.next()
        if u == .number {
            if try !decodePosition(first: u, single: true) { try skipTo(depthBelow: outer) }
            return
        }
        while true {
            switch u {
            case .beginArray:
                let w = try tokens.next()
                if w != .number {
                    u = w
                    continue
                }
                if try !decodePosition(first: w, single: false) {
                    try skipTo(depthBelow: outer)
                    return
                }
            case .endArray:
                if tokens.depth < outer { return }
            default:
                noteError(
                    .malformedField(
                        tokens.tokenLocation, field: "coordinates",
                        expected: "a position [longitude, latitude] or an array of positions",
                        found: describe(u)))
                try tokens.skip(u)
                try skipTo(depthBelow: outer)
                return
            }
            u = try tokens.next()
        }
    }

    /// Pulls tokens until the array or object at depth `depth` has closed.
    mutating func skipTo(depthBelow depth: Int) throws(ReadError) {
        while tokens.depth >= depth { _ = try tokens.next() }
    }

    mutating func noteError(_ error: ReadError) {
        if record.error == nil { record.error = error }
    }

    /// Reads a position whose first number was just read, through its `]`; `false` after noting an error.
    mutating func decodePosition(first: JSONTokenizer.Token, single: Bool) throws(ReadError) -> Bool {
        let longitudePlace = place
        guard let longitude = tokens.number() else { return positionError(first) }
        let t = try tokens.next()
        guard t == .number else { return positionError(t) }
        let latitudePlace = place
        guard let latitude = tokens.number() else { return positionError(t) }
        var altitude = Double.nan
        var u = try tokens.next()
        if u == .number {
            guard let a = tokens.number() else { return positionError(u) }
            // (An altitude beyond Double's range, `1e400`, is read as missing and counted.)
            if a.isFinite { altitude = a } else { readNonFiniteAsMissing("coordinates", u) }
            u = try tokens.next()
            // Further members (a measure, a timestamp some exporters add) are allowed and ignored.
            while u == .number { u = try tokens.next() }
        }
        guard u == .endArray else { return positionError(u) }
        if single {
            record.pointLongitude = longitude
            record.pointLatitude = latitude
            record.pointAltitude = altitude.isNaN ? nil : altitude
            record.pointLongitudePlace = longitudePlace
            record.pointLatitudePlace = latitudePlace
            return true
        }
        guard vertices.count < JSONFixDecoder.maximumPositionsPerRecord else {
            noteError(
                .malformedRecord(
                    location(record.start),
                    expected: "at most \(JSONFixDecoder.maximumPositionsPerRecord) positions in one record",
                    found: "more"))
            return false
        }
        vertices.append(JSONVertex(longitude: longitude, latitude: latitude, altitude: altitude, place: longitudePlace))
        return true
    }

    mutating func positionError(_ t: JSONTokenizer.Token) -> Bool {
        noteError(
            .malformedField(
                tokens.tokenLocation, field: "coordinates",
                expected: "a position of numbers [longitude, latitude, altitude?]", found: describe(t)))
        return false
    }

    /// Reads a `times` / `coordTimes` value: an array (possibly nested, flattened) of times.
    mutating func decodeTimes(_ t: JSONTokenizer.Token) throws(ReadError) {
        if t == .null { return }
        guard t == .beginArray else {
            try fieldError("times", expected: "an array of times", t)
            return
        }
        // The last `times` member wins.
        times.removeAll(keepingCapacity: true)
        record.hasTimes = true
        let outer = tokens.depth
        while true {
            let u = try tokens.next()
            switch u {
            case .endArray:
                if tokens.depth < outer { return }
            case .beginArray:
                continue
            case .null:
                times.append(JSONFixDecoder.missingTime)
            case .string where tokens.valueStart == tokens.valueEnd:
                times.append(JSONFixDecoder.missingTime)
            case .string, .number:
                if let time = try decodeTime(u) {
                    times.append(time.millisecondsSince1970)
                } else {
                    // decodeTime noted the error; keep the count aligned.
                    times.append(JSONFixDecoder.missingTime)
                }
            default:
                try fieldError("times", expected: "an ISO 8601 time or a number of Unix seconds or milliseconds", u)
                times.append(JSONFixDecoder.missingTime)
            }
            guard times.count <= JSONFixDecoder.maximumPositionsPerRecord else {
                noteError(
                    .malformedRecord(
                        location(record.start),
                        expected: "at most \(JSONFixDecoder.maximumPositionsPerRecord) times in one record",
                        found: "more"))
                try skipTo(depthBelow: outer)
                return
            }
        }
    }

    // MARK: - Fixes

    /// The accuracy of a record that used its rarer members: none for a Traccar position's 0 (its trackers without one
    /// write 0), else the stated one, else the one its `hdop` gives.
    func extrasAccuracy() -> Double? {
        let stated = extras.isTraccarPosition && record.accuracy == 0 ? nil : record.accuracy
        return stated ?? extras.hdop.flatMap { options.hdop.accuracyMetres(hdop: $0) }
    }

    /// Keeps the name of the device member just read (its value not yet), for messages, until a record naming a
    /// device gives a fix. Out of line: inline, it made ``decodeMember(_:scope:)`` too large to inline, and the JSON
    /// readers paid 117–190 instructions per fix.
    @inline(never)
    mutating func keepDeviceMemberName(scope: Scope) {
        guard !record.hasDevice, deviceField == nil, scope == .record || scope == .properties else { return }
        deviceMemberName.removeAll(keepingCapacity: true)
        deviceMemberName.append(contentsOf: tokens.bytes[tokens.valueStart..<tokens.valueEnd])
    }

    /// Reads a device member's value `t`: a string or a number (Traccar's `deviceId: 3`, compared as written: `3` and
    /// `3.0` are two devices) names the record's device, unless an earlier member of the record did; anything else
    /// (TransistorSoft's `device` object of the phone's model, `null`, `""`) names none.
    @inline(never)
    mutating func decodeDevice(_ t: JSONTokenizer.Token) throws(ReadError) {
        guard !record.hasDevice, t == .string || t == .number, tokens.valueEnd > tokens.valueStart else {
            try tokens.skip(t)
            return
        }
        deviceKey.removeAll(keepingCapacity: true)
        deviceKey.append(contentsOf: tokens.bytes[tokens.valueStart..<tokens.valueEnd])
        record.hasDevice = true
        devicePlace = place
    }

    /// Applies ``ReadOptions/devices`` to a finished record about to give `fixes` fixes (its other checks passed:
    /// a record that gives none, rejected or skipped, names no device to the file): `true` to read it on, `false`
    /// when it is skipped as another device's (or as naming none when one is wanted); throws at the first record of a
    /// second device in a file read as one device's (merged, two devices' fixes make one wrong track: a tester's
    /// Traccar positions of two trackers read as one track of 17,344 km).
    @inline(never)
    mutating func selectDevice(fixes: Int) throws(ReadError) -> Bool {
        var index = -1
        if record.hasDevice {
            let produced = report.fixesProduced
            index = deviceKey.withUnsafeBytes {
                devices.index(of: $0.baseAddress!, 0, $0.count, fixesProduced: produced)
            }
            if deviceField == nil { deviceField = String(decoding: deviceMemberName, as: UTF8.self) }
        }
        switch options.devices {
        case .all:
            return true
        case .only:
            if index >= 0, devices.kept[index] { return true }
            report.skip(.deviceFiltered, count: fixes)
            return false
        case .single:
            guard devices.ids.count > 1 else { return true }
            endedAtSecondDevice = true
            throw .severalDevices(
                location(devicePlace), field: deviceField ?? "device", devices: devices.ids)
        }
    }

    /// Turns the finished record into its fix, or starts emitting its vertices; `nil` when the record was
    /// skipped (counted in the report) or has vertices (fetch them with ``nextVertexFix()``).
    ///
    /// - Throws: the record's first error, or ``ReadError/invalidFix(_:_:)``, unless reading leniently.
    mutating func finishRecord() throws(ReadError) -> Fix? {
        if nestedWasUsed && vertices.isEmpty && !record.hasOwnPosition {
            record.fillGaps(from: nested)
            for error in nestedReadAsMissing { try report.readAsMissing(error, lenient: true) }
        }
        if let error = record.error {
            try report.reject(error, lenient: options.lenient)
            return nil
        }
        if !vertices.isEmpty {
            guard record.hasTimes else {
                report.skip(.missingTime, count: vertices.count)
                return nil
            }
            guard times.count == vertices.count else {
                try report.reject(
                    .malformedRecord(
                        location(record.start),
                        expected: "\(vertices.count) times, one per position",
                        found: "\(times.count) times"), lenient: options.lenient)
                return nil
            }
            if let providers = options.providers, !providers.contains(record.provider) {
                report.skip(.providerFiltered, count: vertices.count)
                return nil
            }
            if _slowPath(record.hasDevice || devices.wanted != nil), !(try selectDevice(fixes: vertices.count)) {
                return nil
            }
            isEmitting = true
            emitIndex = 0
            return try nextVertexFix()
        }
        if extrasUsed, extras.isTraccarPosition, extras.isValid == false {
            report.skip(.noFix)
            return nil
        }
        if extrasUsed, let isLocation = extras.isOwnTracksLocation {
            // An OwnTracks message: a location is a fix with its short names; any other message is none.
            guard isLocation else {
                report.skip(.otherRecord)
                return nil
            }
            if record.time == nil { record.time = extras.ownTracksTime }
            if record.accuracy == nil { record.accuracy = extras.ownTracksAccuracy }
            if record.verticalAccuracy == nil { record.verticalAccuracy = extras.ownTracksVerticalAccuracy }
            if record.speed == nil, let kmh = extras.ownTracksVelocity {
                (record.speed, record.speedIsInMetresPerSecond) = (
                    kmh * SpeedUnit.metresPerSecondPerKilometrePerHour, true
                )
            }
            if record.course == nil { record.course = extras.ownTracksCourse }
        }
        guard
            let time = extrasUsed
                ? extras.fixTime ?? record.time ?? extras.deviceTime ?? extras.serverTime : record.time
        else {
            report.skip(.missingTime, at: location(record.start))
            return nil
        }
        let longitude: Double
        let latitude: Double
        let longitudePlace: JSONPlace
        let latitudePlace: JSONPlace
        if let lon = record.pointLongitude, let lat = record.pointLatitude {
            longitude = lon
            latitude = lat
            longitudePlace = record.pointLongitudePlace
            latitudePlace = record.pointLatitudePlace
        } else if let lon = record.longitude, let lat = record.latitude {
            longitude = lon
            latitude = lat
            longitudePlace = record.longitudePlace
            latitudePlace = record.latitudePlace
        } else {
            report.skip(.missingPosition, at: location(record.start))
            return nil
        }
        if let providers = options.providers, !providers.contains(record.provider) {
            report.skip(.providerFiltered)
            return nil
        }
        let fix: Fix
        do {
            fix = try Fix(
                timestamp: time, latitude: latitude, longitude: options.longitude(longitude),
                horizontalAccuracyMetres: extrasUsed ? extrasAccuracy() : record.accuracy,
                altitudeMetres: record.altitude ?? record.pointAltitude,
                verticalAccuracyMetres: record.verticalAccuracy,
                speedMetresPerSecond: extrasUsed && extras.isTraccarPosition && !record.speedIsInMetresPerSecond
                    ? record.speed.map { $0 * SpeedUnit.metresPerSecondPerKnot } : record.speed,
                speedAccuracyMetresPerSecond: record.speedAccuracy,
                courseDegrees: record.course,
                courseAccuracyDegrees: record.courseAccuracy,
                provider: record.provider,
                satellitesUsed: record.satellites,
                isMocked: record.mocked,
                activity: record.activity.map {
                    ActivityReading(kind: $0, confidence: record.activityConfidence ?? 100)
                })
        } catch {
            let at = error.field == "latitude" ? latitudePlace : longitudePlace
            try report.reject(.invalidFix(location(at), error), lenient: options.lenient)
            return nil
        }
        // (After the fix's own checks: a record out of range gives no fix and names no device, a reviewer's. Out of
        // line: files naming no device pay a test per record.)
        if _slowPath(record.hasDevice || devices.wanted != nil), !(try selectDevice(fixes: 1)) { return nil }
        report.fixesProduced += 1
        report.keepUnreadableFields()
        return fix
    }

    /// After the input ended inside a record: when it had positions (a LineString's) and times already read,
    /// starts returning the positions that have their time (the first `min(positions, times)`) and returns
    /// `true`; `false` when there is nothing to pair. The record's other members after the cut are missing.
    ///
    /// - Throws: ``ReadError/severalDevices(_:field:devices:)`` when the record is a second device's in a file read as
    ///   one device's: the salvaged positions pass ``selectDevice(fixes:)`` as a whole record's do (a reviewer's
    ///   file cut inside a second tracker's line read both trackers as one track, and `--device` kept the other's).
    mutating func salvagesCutVertices() throws(ReadError) -> Bool {
        let count = min(vertices.count, times.count)
        guard count > 0, record.error == nil else { return false }
        if let providers = options.providers, !providers.contains(record.provider) { return false }
        if record.hasDevice || devices.wanted != nil, !(try selectDevice(fixes: count)) { return false }
        vertices.removeLast(vertices.count - count)
        times.removeLast(times.count - count)
        isEmitting = true
        emitIndex = 0
        return true
    }

    /// The next fix of the record being emitted, or `nil` (and ``isEmitting`` false) after its last vertex.
    mutating func nextVertexFix() throws(ReadError) -> Fix? {
        while emitIndex < vertices.count {
            let k = emitIndex
            emitIndex += 1
            let ms = times[k]
            let v = vertices[k]
            guard ms != JSONFixDecoder.missingTime else {
                // A vertex without a time on the antimeridian is where a writer cut a line crossing it
                // (``GeoJSONWriter``): not a fix, and no record went missing.
                if abs(v.longitude) != 180 { report.skip(.missingTime) }
                continue
            }
            do {
                let fix = try Fix(
                    timestamp: Timestamp(millisecondsSince1970: ms), latitude: v.latitude,
                    longitude: options.longitude(v.longitude),
                    altitudeMetres: v.altitude.isNaN ? nil : v.altitude,
                    provider: record.provider, isMocked: record.mocked,
                    activity: record.activity.map {
                        ActivityReading(kind: $0, confidence: record.activityConfidence ?? 100)
                    })
                report.fixesProduced += 1
                report.keepUnreadableFields()
                return fix
            } catch {
                try report.reject(.invalidFix(location(v.place), error), lenient: options.lenient)
            }
        }
        isEmitting = false
        return nil
    }
}
