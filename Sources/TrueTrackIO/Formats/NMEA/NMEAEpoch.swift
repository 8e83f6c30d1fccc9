/// What the sentences of one epoch (one UTC time of day) said, gathered until a sentence with another time
/// arrives. A plain value of scalars: reset and refilled for every epoch without allocating.
struct NMEAEpoch {
    /// True once a timed sentence (RMC, GGA, GST) opened the epoch.
    var isOpen = false
    /// The epoch's UTC time of day in milliseconds since midnight.
    var timeOfDay: Int64 = 0
    /// The date from RMC, in days since 1970-01-01.
    var dateDays: Int64?
    /// The GnssLogger wrapper's Unix milliseconds of the first wrapped sentence of the epoch.
    var wrapperMillis: Int64?

    /// Position from GGA (degrees); preferred: GGA carries more digits than RMC in SPAN truth files.
    var ggaLatitude: Double?
    var ggaLongitude: Double?
    /// Position from RMC (degrees).
    var rmcLatitude: Double?
    var rmcLongitude: Double?
    /// Where the position sentences are, for errors about the fix (line, column 1, byte offset).
    var ggaLine = 0
    var ggaByteOffset = 0
    var rmcLine = 0
    var rmcByteOffset = 0

    /// GGA altitude above mean sea level, metres.
    var altitude: Double?
    /// GGA satellites used.
    var satellites: Int?
    /// GGA HDOP.
    var ggaHDOP: Double?
    /// RMC speed over ground, metres per second, and course over ground, degrees from true north.
    var rmcSpeed: Double?
    var rmcCourse: Double?
    /// GST standard deviations, metres.
    var sigmaLatitude: Double?
    var sigmaLongitude: Double?
    var sigmaAltitude: Double?
    /// Data of the untimed sentences (VTG, GSA) that belong to this epoch.
    var untimed = NMEAUntimed()

    /// True when RMC said `V` (or mode `N`) or GGA said quality 0.
    var noFix = false
    /// True when GGA said quality 8 (simulator).
    var simulated = false
}

/// The data of the sentences that carry no time (VTG, GSA): they are attached to the epoch they were
/// logged with (see ``NMEAReader`` for the rule).
struct NMEAUntimed {
    /// True when a VTG or GSA was seen.
    var isSet = false
    /// The GnssLogger wrapper's Unix milliseconds of the first such sentence, when wrapped.
    var wrapperMillis: Int64?
    /// VTG speed over ground (metres per second) and true course (degrees).
    var vtgSpeed: Double?
    var vtgCourse: Double?
    /// GSA HDOP (used when GGA has none).
    var gsaHDOP: Double?

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
