import TrueTrackCore

/// Formats a fix's fields as JSON members with the canonical names, shared by ``GeoJSONWriter`` and
/// ``JSONLinesWriter``.
///
/// Absent values are left out (they read back absent); ``HorizontalAccuracy/invalid`` is written as
/// `"accuracy_m":0`, which reads back as invalid; the provider is always written (its raw value);
/// numbers use ``NumberFormatting/append(_:to:)`` and the time ``ISO8601/append(_:to:)``, so every value
/// reads back identical. Only ASCII names and raw values are written: no string needs escaping.
enum JSONFixEncoding {
    static func appendMember(_ name: StaticString, _ value: Double, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
        NumberFormatting.append(value, to: &out)
    }

    static func appendString(_ name: StaticString, _ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out.append(contentsOf: "\":\"".utf8)
        out.append(contentsOf: value.utf8)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `"time":"…"` and (when `withPosition`) latitude and longitude, then every present field
    /// as `,"name":value`. The caller writes the surrounding braces.
    static func appendFields(of fix: Fix, withPosition: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: "\"time\":\"".utf8)
        ISO8601.append(fix.timestamp, to: &out)
        out.append(UInt8(ascii: "\""))
        if withPosition {
            appendMember("latitude", fix.latitude, to: &out)
            appendMember("longitude", fix.longitude, to: &out)
        }
        switch fix.horizontalAccuracy {
        case .metres(let v): appendMember("accuracy_m", v, to: &out)
        case .invalid: appendMember("accuracy_m", -1, to: &out)  // iOS's "invalid"; 0 reads as "exact" elsewhere
        case .absent: break
        }
        if let v = fix.altitudeMetres { appendMember("altitude_m", v, to: &out) }
        if let v = fix.verticalAccuracyMetres { appendMember("vertical_accuracy_m", v, to: &out) }
        if let v = fix.speedMetresPerSecond { appendMember("speed_mps", v, to: &out) }
        if let v = fix.speedAccuracyMetresPerSecond { appendMember("speed_accuracy_mps", v, to: &out) }
        if let v = fix.courseDegrees { appendMember("course_deg", v, to: &out) }
        if let v = fix.courseAccuracyDegrees { appendMember("course_accuracy_deg", v, to: &out) }
        appendString("provider", fix.provider.rawValue, to: &out)
        if let v = fix.satellitesUsed {
            out.append(contentsOf: ",\"satellites\":".utf8)
            NumberFormatting.append(Int64(v), to: &out)
        }
        if let v = fix.isMocked { out.append(contentsOf: (v ? ",\"mocked\":true" : ",\"mocked\":false").utf8) }
        if let activity = fix.activity {
            appendString("activity", activity.kind.rawValue, to: &out)
            out.append(contentsOf: ",\"activity_confidence\":".utf8)
            NumberFormatting.append(Int64(activity.confidence), to: &out)
        }
    }

    /// Appends a GeoJSON position `[longitude,latitude(,altitude)]`.
    static func appendPosition(of fix: Fix, to out: inout [UInt8]) {
        appendPosition(longitude: fix.longitude, latitude: fix.latitude, altitude: fix.altitudeMetres, to: &out)
    }

    /// Appends a GeoJSON position `[longitude,latitude(,altitude)]`.
    static func appendPosition(longitude: Double, latitude: Double, altitude: Double?, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        NumberFormatting.append(longitude, to: &out)
        out.append(UInt8(ascii: ","))
        NumberFormatting.append(latitude, to: &out)
        if let altitude {
            out.append(UInt8(ascii: ","))
            NumberFormatting.append(altitude, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}
