import TrueTrackCore

/// The activity a recording declares for itself, and the tracking profile it names: GPX's `<type>` of its
/// first track (Garmin Connect and Strava write `cycling`, `running`, `walking`, `hiking`…; GPX 1.0 and 1.1)
/// and TCX's `<Activity Sport="Biking">`.
///
/// A ride read with the walking profile measures next to nothing (its speed is a vehicle's for a walker): a
/// tester's GPX ride that said `<type>cycling</type>` read 5.7 m of 19.7 km without `--profile cycling`.
public enum DeclaredActivity {
    /// The declared type in the first 64 KiB of the file at `path` (where GPX and TCX put it: before the first
    /// point, the bytes the format sniff reads: `FixFormat.leadingBytes`), trimmed; `nil` when
    /// there is none, or when `path` is not a regular file (standard input, a pipe: reading would consume what
    /// the reader needs).
    public static func type(ofFileAt path: String) -> String? {
        guard path != "-", let sample = try? FixFormat.leadingBytes(ofRegularFile: path) else { return nil }
        return find(in: sample)
    }

    /// The declared type in the start of a GPX or TCX document: the text of the first `<type>` after the first
    /// `<trk>` and before its first point, or the first `<Activity … Sport="…">`.
    static func find(in sample: [UInt8]) -> String? {
        let text = String(decoding: sample, as: UTF8.self)
        if let track = text.range(of: "<trk>") ?? text.range(of: "<trk ") {
            let rest = text[track.upperBound...]
            let end = rest.range(of: "<trkpt")?.lowerBound ?? rest.endIndex
            var head = rest[..<end]
            // A track's <link> (GPX 1.1) comes before its <type> and has a <type> of its own: a MIME type.
            while let link = head.range(of: "<link"), let close = head[link.upperBound...].range(of: "</link>"),
                head.range(of: "<type>").map({ $0.lowerBound > link.lowerBound }) ?? false
            {
                head = head[close.upperBound...]
            }
            if let open = head.range(of: "<type>"), let close = head[open.upperBound...].range(of: "</type>") {
                return trimmed(head[open.upperBound..<close.lowerBound])
            }
            return nil
        }
        if let activity = text.range(of: "<Activity "), let sport = text[activity.upperBound...].range(of: "Sport=") {
            let value = text[sport.upperBound...]
            guard let quote = value.first, quote == "\"" || quote == "'" else { return nil }
            let inner = value.dropFirst()
            guard let close = inner.firstIndex(of: quote) else { return nil }
            return trimmed(inner[..<close])
        }
        return nil
    }

    /// The profile a declared type names, or `nil` for one that names none (`Other`, `swimming`, `cardio`):
    /// anything motorised (`motorcycling`, `driving`, a `car`, `bus` or `taxi` ride) is driving; `cycling`,
    /// `biking`, a ride (Strava's `Ride`, `VirtualRide`…) cycling; `run`, `jog` running; `walk`, `hik` walking.
    /// Strava's GPX export writes a number: `1` a ride, `9` a run (cpfair/tapiriik#574 shows a "Morning Run" of
    /// type 9). Case and separators do not matter.
    public static func profileKind(_ declared: String) -> TrackingProfile.Kind? {
        let trimmedType = declared.trimmingPrefix(while: \.isWhitespace)
        switch trimmedType {
        case "1": return .cycling
        case "9": return .running
        default: break
        }
        let lower = declared.lowercased()
        let words = lower.split(whereSeparator: { !$0.isLetter }).map(String.init)
        let joined = words.joined()
        let motorised: Set<String> = ["car", "bus", "taxi", "train", "truck", "van", "vehicle", "auto", "automotive"]
        if joined.contains("motor") || joined.contains("driv") || joined.contains("automotive")
            || words.contains(where: motorised.contains)
        {
            return .driving
        }
        // (Strava's ride types: Ride, VirtualRide, GravelRide; EBikeRide and MountainBikeRide say "bik". A ride
        // of something else, "Boat ride", "Horse ride", names no profile.)
        let rides: Set<String> = ["ride", "virtualride", "gravelride"]
        if joined.contains("cycl") || joined.contains("bik") || (words.count == 1 && rides.contains(words[0])) {
            return .cycling
        }
        // ("Run", "TrailRun", "running", "jogging"; not "Rundfahrt", a round trip.)
        if words.contains(where: { $0.hasSuffix("run") || $0.hasPrefix("running") || $0.contains("trailrun") })
            || joined.contains("running") || joined.contains("jog")
        {
            return .running
        }
        if joined.contains("walk") || joined.contains("hik") { return .walking }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String? {
        var value = text.trimmingPrefix(while: \.isWhitespace)
        while let last = value.last, last.isWhitespace { value = value.dropLast() }
        // CDATA around the type (some exporters); else the text's character references are read, so that a
        // type written back (``GPXWriter`` escapes it) is the same text, not "&amp;amp;".
        if value.hasPrefix("<![CDATA["), value.hasSuffix("]]>") {
            value = value.dropFirst(9).dropLast(3)
            return value.isEmpty ? nil : String(value)
        }
        // (A malformed reference leaves the text as written.)
        var decoded: [UInt8] = []
        let bytes = Array(value.utf8)
        let isWellFormed = bytes.withUnsafeBytes { XMLBytes.appendDecoded($0, 0, $0.count, to: &decoded, limit: .max) }
        let text = isWellFormed ? String(decoding: decoded, as: UTF8.self) : String(value)
        return text.isEmpty ? nil : text
    }
}
