/// A `Double?` stored in eight bytes: NaN stands for `nil`.
///
/// The epoch holds fifteen optional measurements; as `Double?` each takes sixteen bytes and resetting the
/// epoch becomes a `memcpy` call on every sentence. A NaN read from the input (`nan` in a field) is taken as
/// absent, which is what ``Fix`` makes of a non-finite measurement anyway.
@propertyWrapper
struct CompactDouble {
    private var raw: Double = .nan

    init(wrappedValue: Double?) { raw = wrappedValue ?? .nan }

    @inline(__always)
    var wrappedValue: Double? {
        get { raw.isNaN ? nil : raw }
        set { raw = newValue ?? .nan }
    }
}

/// An `Int64?` stored in eight bytes: `Int64.min` stands for `nil` (no date or clock reading is that value).
@propertyWrapper
struct CompactInt64 {
    private var raw: Int64 = .min

    init(wrappedValue: Int64?) { raw = wrappedValue ?? .min }

    @inline(__always)
    var wrappedValue: Int64? {
        get { raw == .min ? nil : raw }
        set { raw = newValue ?? .min }
    }
}

/// What the sentences of one epoch (one UTC time of day) said, gathered until a sentence with another time
/// arrives. A plain value of scalars: reset and refilled for every epoch without allocating.
struct NMEAEpoch {
    /// True once a timed sentence (RMC, GGA, GST, ZDA) opened the epoch.
    var isOpen = false
    /// True once an RMC, GGA or GST joined the epoch. An epoch of ZDA sentences alone gives a date, not a fix.
    var hasFixSentence = false
    /// True when RMC said `V` (or mode `N`) or GGA said quality 0.
    var noFix = false
    /// True when GGA said quality 8 (simulator).
    var simulated = false
    /// The epoch's UTC time of day in milliseconds since midnight.
    var timeOfDay: Int64 = 0
    /// The date from RMC or ZDA, in days since 1970-01-01.
    @CompactInt64 var dateDays: Int64? = nil
    /// The GnssLogger wrapper's Unix milliseconds of the first wrapped sentence of the epoch.
    @CompactInt64 var wrapperMillis: Int64? = nil

    /// Position from GGA (degrees); preferred: GGA carries more digits than RMC in SPAN truth files.
    @CompactDouble var ggaLatitude: Double? = nil
    @CompactDouble var ggaLongitude: Double? = nil
    /// Position from RMC (degrees).
    @CompactDouble var rmcLatitude: Double? = nil
    @CompactDouble var rmcLongitude: Double? = nil
    /// Where the position sentences are, for errors about the fix (line, byte offset).
    var ggaLine = 0
    var ggaByteOffset = 0
    var rmcLine = 0
    var rmcByteOffset = 0

    /// GGA altitude above mean sea level, metres.
    @CompactDouble var altitude: Double? = nil
    /// GGA satellites used (−1: none).
    var satellitesUsed = -1
    /// GGA HDOP.
    @CompactDouble var ggaHDOP: Double? = nil
    /// RMC speed over ground, metres per second, and course over ground, degrees from true north.
    @CompactDouble var rmcSpeed: Double? = nil
    @CompactDouble var rmcCourse: Double? = nil
    /// GST standard deviations, metres.
    @CompactDouble var sigmaLatitude: Double? = nil
    @CompactDouble var sigmaLongitude: Double? = nil
    @CompactDouble var sigmaAltitude: Double? = nil
    /// Data of the untimed sentences (VTG, GSA) that belong to this epoch.
    var untimed = NMEAUntimed()

    /// GGA satellites used, `nil` when not reported.
    var satellites: Int? {
        get { satellitesUsed >= 0 ? satellitesUsed : nil }
        set { satellitesUsed = newValue ?? -1 }
    }
}

/// The data of the sentences that carry no time (VTG, GSA): they are attached to the epoch they were
/// logged with (see ``NMEAReader`` for the rule).
struct NMEAUntimed {
    /// True when a VTG or GSA was seen.
    var isSet = false
    /// The GnssLogger wrapper's Unix milliseconds of the first such sentence, when wrapped.
    @CompactInt64 var wrapperMillis: Int64? = nil
    /// VTG speed over ground (metres per second) and true course (degrees).
    @CompactDouble var vtgSpeed: Double? = nil
    @CompactDouble var vtgCourse: Double? = nil
    /// GSA HDOP (used when GGA has none).
    @CompactDouble var gsaHDOP: Double? = nil

    /// Copies the values this one lacks from `other` (earlier sentences win).
    mutating func merge(_ other: NMEAUntimed) {
        guard other.isSet else { return }
        isSet = true
        if wrapperMillis == nil { wrapperMillis = other.wrapperMillis }
        if vtgSpeed == nil { vtgSpeed = other.vtgSpeed }
        if vtgCourse == nil { vtgCourse = other.vtgCourse }
        if gsaHDOP == nil { gsaHDOP = other.gsaHDOP }
    }
}
