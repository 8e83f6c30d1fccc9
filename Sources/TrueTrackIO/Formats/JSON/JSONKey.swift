import TrueTrackCore

/// The member names the JSON readers understand, after normalisation.
///
/// Names are matched case-insensitively and with `_` and `-` ignored, so `accuracy_m`, `accuracyM` and
/// `ACCURACY-M` are one name, and `speedAccuracy` matches `speed_accuracy`. Aliases are the names common
/// exporters use (see ``JSONKeyTable/names``).
enum JSONKey: UInt8, Sendable {
    case unknown
    // GeoJSON structure
    case type, features, geometry, properties, coordinates, times, coordinateProperties
    // Fix fields
    case time, latitude, longitude, accuracy, altitude, verticalAccuracy, speed, speedAccuracy
    case course, courseAccuracy, provider, satellites, mocked, activity, activityConfidence
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
        ("speedmps", .speed), ("speed", .speed),
        ("speedaccuracymps", .speedAccuracy), ("speedaccuracy", .speedAccuracy),
        ("coursedeg", .course), ("course", .course), ("bearing", .course), ("bearingdeg", .course),
        ("heading", .course),
        ("courseaccuracydeg", .courseAccuracy), ("courseaccuracy", .courseAccuracy),
        ("bearingaccuracy", .courseAccuracy), ("bearingaccuracydeg", .courseAccuracy),
        ("provider", .provider),
        ("satellites", .satellites), ("sats", .satellites), ("satellitesused", .satellites),
        ("numsatellites", .satellites),
        ("mocked", .mocked), ("mock", .mocked), ("ismock", .mocked), ("ismocked", .mocked),
        ("isfrommockprovider", .mocked),
        ("activity", .activity), ("activityconfidence", .activityConfidence),
    ]

    /// Longest normalised name considered (longer names are unknown without hashing them).
    static let maximumLength = 32
    static let slotCount = 256

    var slots: [UInt8]          // entry index + 1, 0 = empty
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

    /// The key `p[start..<end]` names, or ``JSONKey/unknown``.
    func lookup(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> JSONKey {
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
            if hashes[e] == h, lengths[e] == length, verify(p, start, end, e) { return keys[e] }
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
        case (0x7467, 0), (0x6874757274, 0), (0x7274646e756f7267, 0x687475): return .groundTruth  // gt truth groundtr-uth
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
        case (0x6c6c697473, 0): return .still  // still
        case (0x676e696b6c6177, 0): return .walking  // walking
        case (0x676e696e6e7572, 0): return .running  // running
        case (0x746f6f666e6f, 0): return .onFoot  // onfoot
        case (0x6c63796369626e6f, 0x65): return .onBicycle  // onbicycl e
        case (0x656c6379636962, 0), (0x676e696c637963, 0): return .onBicycle  // bicycle cycling
        case (0x6c63696865766e69, 0x65): return .inVehicle  // invehicl e
        case (0x656c6369686576, 0), (0x676e6976697264, 0), (0x69746f6d6f747561, 0x6576): return .inVehicle  // vehicle driving automoti ve
        default: return .unknown
        }
    }
}
