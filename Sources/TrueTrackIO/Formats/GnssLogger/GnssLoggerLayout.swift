import TrueTrackCore

/// Which column of a GnssLogger `Fix` row holds which measurement, read from the log's `# Fix,…` header.
///
/// GnssLogger has changed its `Fix` layout twice, and GSDC ground-truth files reuse it, so columns are found
/// by name, never by position:
/// - v1.4: `Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs`
/// - v2.x: `Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,
///   UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees`
/// - v3.x: v2.x plus `elapsedRealtimeNanos,VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,
///   VerticalSpeedAccuracyMps,SolutionType`
/// - GSDC 2022/2023 `ground_truth.csv`: `MessageType,Provider,LatitudeDegrees,…,UnixTimeMillis` (no `#`).
///
/// Column names are matched case-insensitively; unknown names are ignored.
public struct GnssLoggerLayout: Sendable, Hashable {
    /// What one column holds.
    @usableFromInline
    enum Role: UInt8, Sendable {
        case ignored, provider, latitude, longitude, altitude, speed, accuracy, bearing, time
        case speedAccuracy, bearingAccuracy, verticalAccuracy, mockLocation, usedSignals
    }

    /// Role of each column, column 0 being the record type (`Fix`).
    @usableFromInline
    var roles: [Role]
    /// One past the last column with a role: scanning a row stops there.
    @usableFromInline
    var usefulColumns: Int

    /// The column names as the header gave them (record type first), for messages.
    public let columnNames: [String]

    /// Builds a layout from the header's column names (the first being the record type, `Fix` or
    /// `MessageType`); returns `nil` when latitude, longitude or time is missing.
    public init?(columnNames: [String]) {
        var roles: [Role] = []
        roles.reserveCapacity(columnNames.count)
        for (index, name) in columnNames.enumerated() {
            roles.append(index == 0 ? .ignored : GnssLoggerLayout.role(forColumn: name))
        }
        guard roles.contains(.latitude), roles.contains(.longitude), roles.contains(.time) else { return nil }
        // A repeated name keeps its first column only, so a row maps each role once.
        var seen = Set<Role>()
        for k in roles.indices where roles[k] != .ignored {
            if !seen.insert(roles[k]).inserted { roles[k] = .ignored }
        }
        self.roles = roles
        self.columnNames = columnNames
        usefulColumns = (roles.lastIndex { $0 != .ignored } ?? 0) + 1
    }

    /// The v1.4 layout (`Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs`).
    public static let version1 = GnssLoggerLayout(columnNames: [
        "Fix", "Provider", "Latitude", "Longitude", "Altitude", "Speed", "Accuracy", "(UTC)TimeInMs",
    ])!

    /// The v3.x layout (the v2.x columns followed by six more); v2.x rows read correctly with it too, the
    /// missing trailing columns being absent.
    public static let version3 = GnssLoggerLayout(columnNames: [
        "Fix", "Provider", "LatitudeDegrees", "LongitudeDegrees", "AltitudeMeters", "SpeedMps", "AccuracyMeters",
        "BearingDegrees", "UnixTimeMillis", "SpeedAccuracyMps", "BearingAccuracyDegrees", "elapsedRealtimeNanos",
        "VerticalAccuracyMeters", "MockLocation", "NumberOfUsedSignals", "VerticalSpeedAccuracyMps", "SolutionType",
    ])!

    /// The role of a column name (case-insensitive; surrounding spaces ignored).
    static func role(forColumn name: String) -> Role {
        switch trimmed(name).lowercased() {
        case "provider": .provider
        case "latitude", "latitudedegrees": .latitude
        case "longitude", "longitudedegrees": .longitude
        case "altitude", "altitudemeters": .altitude
        case "speed", "speedmps": .speed
        case "accuracy", "accuracymeters": .accuracy
        case "bearing", "bearingdegrees": .bearing
        case "(utc)timeinms", "unixtimemillis", "utctimemillis": .time
        case "speedaccuracymps": .speedAccuracy
        case "bearingaccuracydegrees": .bearingAccuracy
        case "verticalaccuracymeters": .verticalAccuracy
        case "mocklocation": .mockLocation
        case "numberofusedsignals": .usedSignals
        default: .ignored
        }
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmed(_ text: String) -> Substring {
        var rest = Substring(text)
        while let first = rest.first, first == " " || first == "\t" { rest.removeFirst() }
        while let last = rest.last, last == " " || last == "\t" { rest.removeLast() }
        return rest
    }
}
