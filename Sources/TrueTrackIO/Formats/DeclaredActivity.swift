import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The activity a recording declares for itself, and the tracking profile it names: GPX's `<type>` of its
/// first track (Garmin Connect and Strava write `cycling`, `running`, `walking`, `hiking`…; GPX 1.0 and 1.1)
/// and TCX's `<Activity Sport="Biking">`.
///
/// A ride read with the walking profile measures next to nothing (its speed is a vehicle's for a walker): a
/// tester's GPX ride that said `<type>cycling</type>` read 5.7 m of 19.7 km without `--profile cycling`.
public enum DeclaredActivity {
    /// The declared type in the first 64 KiB of the file at `path` (where GPX and TCX put it: before the first
    /// point), trimmed; `nil` when there is none, or when `path` is not a regular file (standard input, a pipe:
    /// reading would consume what the reader needs).
    public static func type(ofFileAt path: String) -> String? {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var sample = [UInt8](repeating: 0, count: 65_536)
        let n = sample.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { return nil }
        sample.removeSubrange(n...)
        return find(in: sample)
    }

    /// The declared type in the start of a GPX or TCX document: the text of the first `<type>` after the first
    /// `<trk>` and before its first point, or the first `<Activity … Sport="…">`.
    static func find(in sample: [UInt8]) -> String? {
        let text = String(decoding: sample, as: UTF8.self)
        if let track = text.range(of: "<trk>") ?? text.range(of: "<trk ") {
            let rest = text[track.upperBound...]
            let end = rest.range(of: "<trkpt")?.lowerBound ?? rest.endIndex
            let head = rest[..<end]
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

    /// The profile a declared type names, or `nil` for one that names none (`Other`, `swimming`, a number):
    /// anything motorised (`motorcycling`, `driving`, `car`; not `cardio`) is driving; `cycling`, `biking`, `ride` (Strava's
    /// `Ride`, `VirtualRide`…) cycling; `run`, `jog` running; `walk`, `hik` walking. Case and separators do not
    /// matter.
    public static func profileKind(_ declared: String) -> TrackingProfile.Kind? {
        let word = declared.lowercased().filter(\.isLetter)
        if word.contains("motor") || word.contains("driv") || word == "car" || word.contains("automotive") {
            return .driving
        }
        if word.contains("cycl") || word.contains("bik") || word.contains("ride") { return .cycling }
        if word.contains("run") || word.contains("jog") { return .running }
        if word.contains("walk") || word.contains("hik") { return .walking }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String? {
        var value = text.trimmingPrefix(while: \.isWhitespace)
        while let last = value.last, last.isWhitespace { value = value.dropLast() }
        // CDATA around the type (some exporters).
        if value.hasPrefix("<![CDATA["), value.hasSuffix("]]>") { value = value.dropFirst(9).dropLast(3) }
        return value.isEmpty ? nil : String(value)
    }
}
