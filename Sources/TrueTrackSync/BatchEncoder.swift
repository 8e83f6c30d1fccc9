import TrueTrackCore
import TrueTrackStore

/// Writes a batch of buffered fixes as a JSON array (see ``FieldNames`` for the fields).
public struct BatchEncoder: Sendable {
    /// The field names in force.
    public let fieldNames: FieldNames
    /// Each canonical field's quoted, escaped key followed by a colon, or `nil` when the field is left out.
    private let keys: [String: [UInt8]]

    /// Creates an encoder for `fieldNames`.
    public init(fieldNames: FieldNames = FieldNames()) {
        self.fieldNames = fieldNames
        var keys: [String: [UInt8]] = [:]
        for name in FieldNames.canonical {
            guard let mapped = fieldNames.name(for: name) else { continue }
            var bytes: [UInt8] = []
            BatchEncoder.appendString(mapped, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            keys[name] = bytes
        }
        self.keys = keys
    }

    /// The JSON array for `rows`, oldest first as given.
    ///
    /// - Complexity: O(n); one growing byte array.
    public func encode(_ rows: [BufferedFix]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 320)
        out.append(UInt8(ascii: "["))
        for (i, row) in rows.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            encode(row, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    private func encode(_ row: BufferedFix, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: String) -> Bool {
            guard let k = keys[name] else { return false }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(contentsOf: k)
            return true
        }
        func number(_ name: String, _ value: Double?) {
            guard let value, value.isFinite, key(name) else { return }
            out.append(contentsOf: value.description.utf8)
        }
        func integer(_ name: String, _ value: Int64?) {
            guard let value, key(name) else { return }
            out.append(contentsOf: String(value).utf8)
        }
        func string(_ name: String, _ value: String?) {
            guard let value, key(name) else { return }
            BatchEncoder.appendString(value, to: &out)
        }
        func boolean(_ name: String, _ value: Bool?) {
            guard let value, key(name) else { return }
            out.append(contentsOf: (value ? "true" : "false").utf8)
        }
        let fix = row.fix
        integer("id", row.id)
        string("session_id", row.sessionID)
        if key("time") {
            out.append(UInt8(ascii: "\""))
            ISO8601.append(fix.timestamp, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        number("latitude", fix.latitude)
        number("longitude", fix.longitude)
        switch fix.horizontalAccuracy {
        case .metres(let m): number("accuracy_m", m)
        case .invalid: number("accuracy_m", 0)
        case .absent: break
        }
        number("altitude_m", fix.altitudeMetres)
        number("vertical_accuracy_m", fix.verticalAccuracyMetres)
        number("speed_mps", fix.speedMetresPerSecond)
        number("speed_accuracy_mps", fix.speedAccuracyMetresPerSecond)
        number("course_deg", fix.courseDegrees)
        number("course_accuracy_deg", fix.courseAccuracyDegrees)
        string("provider", fix.provider.rawValue)
        integer("satellites", fix.satellitesUsed.map { Int64($0) })
        boolean("mocked", fix.isMocked)
        string("activity", fix.activity?.kind.rawValue)
        integer("activity_confidence", fix.activity.map { Int64($0.confidence) })
        if let decision = row.decision {
            boolean("accepted", decision.isAccepted)
            string("rejection", decision.rejection?.rawValue)
            number("filtered_latitude", decision.filteredLatitude)
            number("filtered_longitude", decision.filteredLongitude)
            number("distance_increment_m", decision.distanceIncrementMetres)
            number("total_distance_m", decision.totalDistanceMetres)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `text` as a JSON string literal (quotes, backslashes and control characters escaped).
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
