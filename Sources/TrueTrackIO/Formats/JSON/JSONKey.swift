import TrueTrackCore

/// The member names the JSON readers understand, after normalisation.
///
/// Names are matched case-insensitively and with `_` and `-` ignored, so `accuracy_m`, `accuracyM` and
/// `ACCURACY-M` are one name, and `speedAccuracy` matches `speed_accuracy`. Aliases are the names common
/// exporters use (see ``JSONKeyTable/names``).
enum JSONKey: UInt8, Sendable, CaseIterable {
    case unknown
    // GeoJSON structure
    case type, features, geometry, properties, coordinates, times, coordinateProperties
    // Fix fields
    case time, latitude, longitude, accuracy, altitude, verticalAccuracy, speed, speedAccuracy
    /// A speed whose name says metres per second (`speed_mps`): never converted, where a bare `speed` may be
    /// (a Traccar position's knots).
    case speedMetresPerSecond
    /// A speed whose name gives its unit (`speed_kmh`, `speed_knots`, `speed_mph`), converted; as a CSV column so
    /// named (a tester's JSON Lines `speed_kmh` was left unread without a word).
    case speedKilometresPerHour, speedKnots, speedMilesPerHour
    case course, courseAccuracy, provider, satellites, mocked, activity, activityConfidence, segment
    // Google location history (Takeout `Records.json`, the on-device `Timeline.json`)
    // (Read as fields only inside those arrays: see ``JSONFixDecoder/readsLocationHistory``.)
    case locations, rawSignals, position, latitudeE7, longitudeE7, latLng, velocity, source, timestampMs, confidence
    // An object holding a fix's fields inside a record: the W3C Geolocation API's `coords` (a serialised
    // `GeolocationPosition`, TransistorSoft's background-geolocation records) and `location` (their HTTP body).
    case coords, location
    // A Traccar position (its API's JSON): three times, the device, the protocol, whether the fix is new.
    case fixTime, deviceTime, serverTime, deviceID, protocolName, valid
    // An OwnTracks message (`_type`, told from GeoJSON's `type` by its underscore) and its location's short names:
    // `tst` (Unix seconds), `acc`, `vac` (m), `vel` (km/h), `cog` (degrees). Read only in a message whose `_type` is
    // `location`: elsewhere such names may mean anything.
    case ownTracksType, ownTracksTime, ownTracksAccuracy, ownTracksVerticalAccuracy, ownTracksVelocity, ownTracksCourse
    /// Overland's `motion`: the Core Motion activities set when the fix was taken (`["walking"]`, `["driving",
    /// "stationary"]`, `[]`). A value of another kind (Traccar's attribute `motion: true`) is another app's and skipped.
    case motion
    /// A horizontal dilution of precision (`hdop`): the accuracy of a fix that states none, as in the other formats.
    case hdop
    /// The on-device Timeline's `semanticSegments` (Google's visits and inferred paths: no fixes of the phone's).
    case semanticSegments
    /// The device (tracker) a record comes from under a name other than Traccar's `deviceId` (``deviceID``): `device`,
    /// `imei`, `uniqueId`, Google's `deviceTag` (a Takeout `Records.json` holds every phone of the account). As a
    /// CSV's device column (``CSVColumn/device``): a file of several devices is read one at a time.
    case device
}

/// A small open-addressing hash table from normalised member names to ``JSONKey``, built once per reader.
///
/// Lookup hashes the name's bytes (FNV-1a over the lower-cased bytes, `_` and `-` skipped) and verifies
/// the hit byte by byte: no allocation, no `String`.
struct JSONKeyTable {
    /// Every accepted name (already normalised) and its meaning.
    static let names: [(String, JSONKey)] = [
        ("type", .type), ("features", .features), ("geometry", .geometry), ("properties", .properties),
        ("coordinates", .coordinates),
        ("times", .times), ("coordtimes", .times),
        ("coordinateproperties", .coordinateProperties),
        ("time", .time), ("timestamp", .time), ("datetime", .time), ("utctime", .time), ("timeutc", .time),
        ("latitude", .latitude), ("lat", .latitude),
        ("longitude", .longitude), ("lon", .longitude), ("lng", .longitude), ("long", .longitude),
        ("accuracym", .accuracy), ("accuracy", .accuracy), ("horizontalaccuracy", .accuracy),
        ("horizontalaccuracym", .accuracy), ("hacc", .accuracy),
        ("altitudem", .altitude), ("altitude", .altitude), ("alt", .altitude), ("ele", .altitude),
        ("elevation", .altitude),
        ("verticalaccuracym", .verticalAccuracy), ("verticalaccuracy", .verticalAccuracy),
        ("vacc", .verticalAccuracy), ("altitudeaccuracy", .verticalAccuracy),
        ("speedmps", .speedMetresPerSecond), ("speed", .speed),
        ("speedaccuracymps", .speedAccuracy), ("speedaccuracy", .speedAccuracy),
        ("coursedeg", .course), ("course", .course), ("bearing", .course), ("bearingdeg", .course),
        ("heading", .course),
        ("courseaccuracydeg", .courseAccuracy), ("courseaccuracy", .courseAccuracy),
        ("bearingaccuracy", .courseAccuracy), ("bearingaccuracydeg", .courseAccuracy),
        ("headingaccuracy", .courseAccuracy),
        ("provider", .provider),
        ("satellites", .satellites), ("sats", .satellites), ("satellitesused", .satellites),
        ("numsatellites", .satellites),
        ("mocked", .mocked), ("mock", .mocked), ("ismock", .mocked), ("ismocked", .mocked),
        ("isfrommockprovider", .mocked),
        ("activity", .activity), ("activityconfidence", .activityConfidence),
        ("segment", .segment), ("segmentindex", .segment), ("tracksegment", .segment), ("tracksegid", .segment),
        // Google location history: Takeout `Records.json` (`locations`: latitudeE7, longitudeE7, accuracy,
        // velocity, heading, altitude, verticalAccuracy, source, activity, timestamp or timestampMs) and the
        // on-device `Timeline.json` (`rawSignals`: position.LatLng, accuracyMeters, altitudeMeters,
        // speedMetersPerSecond, source, timestamp).
        ("locations", .locations), ("rawsignals", .rawSignals), ("position", .position),
        ("latitudee7", .latitudeE7), ("longitudee7", .longitudeE7), ("latlng", .latLng),
        ("timestampms", .timestampMs), ("velocity", .velocity), ("source", .source),
        ("accuracymeters", .accuracy), ("altitudemeters", .altitude), ("verticalaccuracymeters", .verticalAccuracy),
        ("speedmeterspersecond", .speedMetresPerSecond), ("confidence", .confidence),
        ("speedkmh", .speedKilometresPerHour), ("speedkph", .speedKilometresPerHour),
        ("speedkmph", .speedKilometresPerHour), ("speedknots", .speedKnots), ("speedkn", .speedKnots),
        ("speedkt", .speedKnots), ("speedmph", .speedMilesPerHour),
        ("coords", .coords), ("location", .location),
        ("fixtime", .fixTime), ("devicetime", .deviceTime), ("servertime", .serverTime),
        ("deviceid", .deviceID), ("protocol", .protocolName), ("valid", .valid),
        ("tst", .ownTracksTime), ("acc", .ownTracksAccuracy), ("vac", .ownTracksVerticalAccuracy),
        ("vel", .ownTracksVelocity), ("cog", .ownTracksCourse), ("motion", .motion),
        ("hdop", .hdop), ("semanticsegments", .semanticSegments),
        ("device", .device), ("imei", .device), ("uniqueid", .device), ("devicetag", .device),
    ]

    /// Longest normalised name considered (longer names are unknown without hashing them).
    static let maximumLength = 32
    static let slotCount = 256

    var slots: [UInt8]  // entry index + 1, 0 = empty
    var hashes: [UInt64]
    var starts: [Int]
    var lengths: [Int]
    var flat: [UInt8]
    var keys: [JSONKey]

    init() {
        slots = [UInt8](repeating: 0, count: JSONKeyTable.slotCount)
        hashes = []
        starts = []
        lengths = []
        flat = []
        keys = []
        for (name, key) in JSONKeyTable.names {
            let bytes = Array(name.utf8)
            let h = JSONKeyTable.hash(bytes)
            var slot = Int(truncatingIfNeeded: h) & (JSONKeyTable.slotCount - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (JSONKeyTable.slotCount - 1) }
            slots[slot] = UInt8(keys.count + 1)
            hashes.append(h)
            starts.append(flat.count)
            lengths.append(bytes.count)
            flat.append(contentsOf: bytes)
            keys.append(key)
        }
    }

    @inline(__always)
    static func normalised(_ b: UInt8) -> UInt8 {
        b &- 65 < 26 ? b | 0x20 : b
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return h
    }

    /// Exact byte match of the spellings our writers and common exporters use (canonical names, GeoJSON
    /// members, the usual aliases), by length and 8-byte words; `nil` sends the name to the normalising
    /// table. Reads up to 24 bytes from `start`, so it needs that many bytes of buffer (else `nil`).
    /// The constants are the names' bytes packed little-endian (generated, names in the comments).
    static func exactKey(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> JSONKey? {
        let length = end - start
        guard length > 0, length <= 24, start + 24 <= p.count, let base = p.baseAddress else { return nil }
        let w0 = (base + start).loadUnaligned(as: UInt64.self)
        let w1 = (base + start).loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        let w2 = (base + start).loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        @inline(__always) func masked(_ w: UInt64, _ bytes: Int) -> UInt64 {
            bytes >= 8 ? w : (bytes <= 0 ? 0 : w & ((1 << UInt64(8 * bytes)) - 1))
        }
        let a = masked(w0, length)
        let b = masked(w1, length - 8)
        let c = masked(w2, length - 16)
        switch length {
        case 2:
            switch (a, b, c) {
            case (0x6469, 0x0, 0x0): return .unknown  // id
            default: return nil
            }
        case 3:
            switch (a, b, c) {
            case (0x74616c, 0x0, 0x0): return .latitude  // lat
            case (0x6e6f6c, 0x0, 0x0): return .longitude  // lon
            case (0x676e6c, 0x0, 0x0): return .longitude  // lng
            case (0x656c65, 0x0, 0x0): return .altitude  // ele
            default: return nil
            }
        case 4:
            switch (a, b, c) {
            case (0x656d6974, 0x0, 0x0): return .time  // time
            case (0x65707974, 0x0, 0x0): return .type  // type
            case (0x786f6262, 0x0, 0x0): return .unknown  // bbox
            case (0x656d616e, 0x0, 0x0): return .unknown  // name
            default: return nil
            }
        case 5:
            switch (a, b, c) {
            case (0x73656d6974, 0x0, 0x0): return .times  // times
            case (0x6465657073, 0x0, 0x0): return .speed  // speed
            // OwnTracks' `_type`, which the normalising table reads as GeoJSON's `type` (it drops `_`).
            case (0x657079745f, 0x0, 0x0): return .ownTracksType  // _type
            default: return nil
            }
        case 6:
            switch (a, b, c) {
            case (0x64656b636f6d, 0x0, 0x0): return .mocked  // mocked
            case (0x657372756f63, 0x0, 0x0): return .course  // course
            default: return nil
            }
        case 7:
            switch (a, b, c) {
            case (0x676e6972616562, 0x0, 0x0): return .course  // bearing
            default: return nil
            }
        case 8:
            switch (a, b, c) {
            case (0x656475746974616c, 0x0, 0x0): return .latitude  // latitude
            case (0x72656469766f7270, 0x0, 0x0): return .provider  // provider
            case (0x7974697669746361, 0x0, 0x0): return .activity  // activity
            case (0x7365727574616566, 0x0, 0x0): return .features  // features
            case (0x797274656d6f6567, 0x0, 0x0): return .geometry  // geometry
            case (0x7963617275636361, 0x0, 0x0): return .accuracy  // accuracy
            case (0x6564757469746c61, 0x0, 0x0): return .altitude  // altitude
            default: return nil
            }
        case 9:
            switch (a, b, c) {
            case (0x64757469676e6f6c, 0x65, 0x0): return .longitude  // longitude
            case (0x706d5f6465657073, 0x73, 0x0): return .speedMetresPerSecond  // speed_mps
            case (0x6d617473656d6974, 0x70, 0x0): return .time  // timestamp
            default: return nil
            }
        case 10:
            switch (a, b, c) {
            case (0x7963617275636361, 0x6d5f, 0x0): return .accuracy  // accuracy_m
            case (0x6564757469746c61, 0x6d5f, 0x0): return .altitude  // altitude_m
            case (0x645f657372756f63, 0x6765, 0x0): return .course  // course_deg
            case (0x74696c6c65746173, 0x7365, 0x0): return .satellites  // satellites
            case (0x69747265706f7270, 0x7365, 0x0): return .properties  // properties
            case (0x6d695464726f6f63, 0x7365, 0x0): return .times  // coordTimes
            default: return nil
            }
        case 11:
            switch (a, b, c) {
            case (0x616e6964726f6f63, 0x736574, 0x0): return .coordinates  // coordinates
            default: return nil
            }
        case 18:
            switch (a, b, c) {
            case (0x63615f6465657073, 0x6d5f796361727563, 0x7370): return .speedAccuracy  // speed_accuracy_mps
            default: return nil
            }
        case 19:
            switch (a, b, c) {
            case (0x6c61636974726576, 0x636172756363615f, 0x6d5f79): return .verticalAccuracy  // vertical_accuracy_m
            case (0x615f657372756f63, 0x5f79636172756363, 0x676564): return .courseAccuracy  // course_accuracy_deg
            case (0x7974697669746361, 0x656469666e6f635f, 0x65636e): return .activityConfidence  // activity_confidence
            default: return nil
            }
        case 20:
            switch (a, b, c) {
            // coordinateProperties
            case (0x616e6964726f6f63, 0x7265706f72506574, 0x73656974): return .coordinateProperties
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The key `p[start..<end]` names, or ``JSONKey/unknown``.
    func lookup(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> JSONKey {
        if let key = JSONKeyTable.exactKey(p, start, end) { return key }
        guard end - start <= 2 * JSONKeyTable.maximumLength else { return .unknown }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var length = 0
        for k in start..<end {
            let b = p[k]
            if b == UInt8(ascii: "_") || b == UInt8(ascii: "-") { continue }
            h = (h ^ UInt64(JSONKeyTable.normalised(b))) &* 0x100_0000_01b3
            length += 1
        }
        guard length > 0, length <= JSONKeyTable.maximumLength else { return .unknown }
        var slot = Int(truncatingIfNeeded: h) & (JSONKeyTable.slotCount - 1)
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { return .unknown }
            let e = entry - 1
            if hashes[e] == h, lengths[e] == length, verify(p, start, end, e) {
                // (`_type` is OwnTracks', not GeoJSON's `type`: ``exactKey(_:_:_:)`` tells them apart, and so does
                // this path, which it takes near the end of the input.)
                return keys[e] == .type && p[start] == UInt8(ascii: "_") ? .ownTracksType : keys[e]
            }
            slot = (slot + 1) & (JSONKeyTable.slotCount - 1)
        }
    }

    func verify(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ e: Int) -> Bool {
        var j = starts[e]
        for k in start..<end {
            let b = p[k]
            if b == UInt8(ascii: "_") || b == UInt8(ascii: "-") { continue }
            if JSONKeyTable.normalised(b) != flat[j] { return false }
            j += 1
        }
        return true
    }

    /// The provider a name stands for, matched like ``Provider/init(name:)`` (case-insensitive; `gps`,
    /// `gnss`, `fused`, `flp`, `network`, `nlp`, `passive`, `groundTruth`, `gt`, `truth`, `unknown`; an
    /// empty name is ``Provider/unknown``, any other name ``Provider/other``) without making a `String`.
    ///
    /// The names are compared as up to 16 lower-cased bytes packed little-endian into two words.
    static func provider(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Provider {
        if start == end { return .unknown }
        guard let (word, tail) = packed(p, start, end) else { return .other }
        switch (word, tail) {
        case (0x737067, 0), (0x73736e67, 0): return .gps  // gps gnss
        case (0x6465737566, 0), (0x706c66, 0): return .fused  // fused flp
        case (0x6b726f7774656e, 0), (0x706c6e, 0): return .network  // network nlp
        case (0x65766973736170, 0): return .passive  // passive
        case (0x69666977, 0), (0x6c6c6563, 0): return .network  // wifi cell (Google location history)
        // gt truth groundtr-uth
        case (0x7467, 0), (0x6874757274, 0), (0x7274646e756f7267, 0x687475): return .groundTruth
        case (0x6e776f6e6b6e75, 0): return .unknown  // unknown
        default: return .other
        }
    }

    /// Packs `p[start..<end]`, lower-cased with `_` and `-` dropped, little-endian into two words; `nil`
    /// when longer than 16 bytes.
    static func packed(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (UInt64, UInt64)? {
        guard end - start <= 24 else { return nil }
        var word: UInt64 = 0
        var tail: UInt64 = 0
        var count = 0
        for k in start..<end {
            let b = normalised(p[k])
            if b == UInt8(ascii: "_") || b == UInt8(ascii: "-") { continue }
            if count < 8 {
                word |= UInt64(b) << UInt64(8 * count)
            } else if count < 16 {
                tail |= UInt64(b) << UInt64(8 * (count - 8))
            } else {
                return nil
            }
            count += 1
        }
        return (word, tail)
    }

    /// The activity a name stands for: an ``ActivityKind`` raw value or Android's constant name
    /// (`ON_FOOT`, `IN_VEHICLE`, `ON_BICYCLE`, `TILTING`…), case-insensitive, `_` ignored; any other
    /// name is ``ActivityKind/unknown``.
    static func activity(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> ActivityKind {
        guard let (word, tail) = packed(p, start, end) else { return .unknown }
        switch (word, tail) {
        case (0x6c6c697473, 0), (0x616e6f6974617473, 0x7972): return .still  // still, stationa ry (Core Motion)
        case (0x676e696b6c6177, 0): return .walking  // walking
        case (0x676e696e6e7572, 0): return .running  // running
        case (0x746f6f666e6f, 0): return .onFoot  // onfoot
        case (0x6c63796369626e6f, 0x65): return .onBicycle  // onbicycl e
        case (0x656c6379636962, 0), (0x676e696c637963, 0): return .onBicycle  // bicycle cycling
        case (0x6c63696865766e69, 0x65): return .inVehicle  // invehicl e
        // vehicle driving automoti ve
        case (0x656c6369686576, 0), (0x676e6976697264, 0), (0x69746f6d6f747561, 0x6576): return .inVehicle
        // inroadve hicle, inrailve hicle, incar, inbus (Google location history)
        case (0x657664616f726e69, 0x656c636968), (0x65766c6961726e69, 0x656c636968), (0x7261636e69, 0),
            (0x7375626e69, 0):
            return .inVehicle
        default: return .unknown
        }
    }
}
