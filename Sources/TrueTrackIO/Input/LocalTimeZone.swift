import Foundation
import TrueTrackCore

/// The time zone a file's local times were written in: times without a UTC offset (`2024-05-01 14:03:07`, an
/// Excel day number, a date and a time of day in two columns) are read as local times there and converted to UTC
/// (``ReadOptions/localTimeZone``; the CLI's `--time-zone`).
///
/// Without one, such times are taken as UTC (GPX requires UTC, and most exports that omit the zone write UTC);
/// a file written in local time then holds a gap or a step back of an hour where summer time starts or ends,
/// which the tracker reads as a recording gap or as fixes out of order. A time that carries its own zone (`Z`,
/// `+02:00`, `UTC`) and a time UTC by definition (NMEA, an epoch number) is never changed.
///
/// Either an IANA name (`Europe/Berlin`, `America/New_York`, or one of the tz database's own names without a `/`:
/// `UTC`, `CET`, `EST5EDT`…), whose summer time follows the tz rules Foundation carries (ICU's copy of the tz
/// database on Linux, not `/usr/share/zoneinfo`), or a fixed offset (`+02:00`, `-0530`, `+2`, `UTC`, `Z`).
/// Abbreviations are refused: ICU reads `BST` as Bangladesh and `IST` as India, while `CEST` names no zone.
public struct LocalTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// How offsets are found.
    enum Rule: Sendable, Hashable {
        /// The same offset all year (seconds east of UTC).
        case fixed(seconds: Int)
        /// The tz database's rules for a named zone.
        case named(TimeZone)
    }

    let rule: Rule
    /// The zone as given (`Europe/Berlin`, `+02:00`).
    public let name: String

    /// A zone from its name or offset; `nil` for text that is neither an IANA name known to the machine's tz
    /// database nor an offset (``suggestion(for:)`` finds a name that differs only in case).
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        name = trimmed
        if let seconds = LocalTimeZone.fixedOffsetSeconds(trimmed) {
            rule = .fixed(seconds: seconds)
        } else if trimmed.contains("/") || LocalTimeZone.namesWithoutArea.contains(trimmed),
            let zone = TimeZone(identifier: trimmed)
        {
            rule = .named(zone)
        } else {
            return nil
        }
    }

    public var description: String { name }

    /// Whether the zone is a fixed offset (`+01:00`, `UTC`): the same offset all year, without daylight saving time.
    public var isFixedOffset: Bool {
        if case .fixed = rule { return true }
        return false
    }

    /// The tz database's zone names without an area (`Area/Location`) that it defines itself; any other name without
    /// a `/` is refused, since ICU also takes its own three-letter IDs (`BST` is Asia/Dhaka, `IST` Asia/Kolkata, `PST`
    /// America/Los_Angeles with its summer time), which a user writing an abbreviation does not mean (a reviewer's).
    static let namesWithoutArea: Set<String> = [
        "UTC", "UCT", "GMT", "Zulu", "Universal", "Greenwich", "CET", "EET", "WET", "MET", "EST", "MST", "HST",
        "EST5EDT", "CST6CDT", "MST7MDT", "PST8PDT",
    ]

    /// A known zone name equal to `text` but for case (`europe/berlin` → `Europe/Berlin`), for an error message.
    public static func suggestion(for text: String) -> String? {
        let lowered = text.lowercased()
        return TimeZone.knownTimeZoneIdentifiers.first { $0.lowercased() == lowered }
    }

    /// `UTC`, `GMT`, `Z`, `UTC+2`, `+02:00`, `+0200`, `+02`, `+2`, `-05:30`: seconds east of UTC (hours to 14).
    static func fixedOffsetSeconds(_ text: String) -> Int? {
        var rest = Substring(text.uppercased())
        if rest == "Z" { return 0 }
        for prefix in ["UTC", "GMT"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            if rest.isEmpty { return 0 }
        }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        var hours: Int?, minutes = 0
        if parts.count == 2 {
            hours = Int(parts[0])
            guard parts[0].count <= 2, parts[1].count == 2, let m = Int(parts[1]) else { return nil }
            minutes = m
        } else if rest.count == 4 {
            hours = Int(rest.prefix(2))
            guard let m = Int(rest.suffix(2)) else { return nil }
            minutes = m
        } else if rest.count <= 2 {
            hours = Int(rest)
        }
        guard let h = hours, rest.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }), h <= 14, minutes < 60
        else { return nil }
        return (h * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
    }

    /// The zone's offset from UTC, in milliseconds, at the instant `utc` (Unix milliseconds).
    public func offsetMilliseconds(atUTC utc: Int64) -> Int64 {
        switch rule {
        case .fixed(let seconds): return Int64(seconds) * 1000
        case .named(let zone):
            return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc) / 1000))) * 1000
        }
    }

    /// The instants (Unix milliseconds) whose local time here is `local` (a local time written as if it were UTC):
    /// one in the usual case, two in the hour repeated where summer time ends (earlier first), none in the hour
    /// skipped where it starts; and the offset a day before it (the one a time in the skipped hour is read with).
    /// `transitionNear` is whether the offset changes within a day of it.
    func instants(ofLocal local: Int64) -> (
        first: Int64?, second: Int64?, offsetBefore: Int64, transitionNear: Bool
    ) {
        let day: Int64 = 86_400_000
        let before = offsetMilliseconds(atUTC: local &- day), after = offsetMilliseconds(atUTC: local &+ day)
        func instant(_ offset: Int64) -> Int64? {
            offsetMilliseconds(atUTC: local &- offset) == offset ? local &- offset : nil
        }
        let withBefore = instant(before), withAfter = before == after ? nil : instant(after)
        // (The larger offset gives the earlier instant: summer time's, before the change in autumn.)
        switch (withBefore, withAfter) {
        case (let a?, let b?): return (min(a, b), max(a, b), before, true)
        case (let a, let b): return (a ?? b, nil, before, before != after)
        }
    }
}

/// Converts one file's local times to UTC in file order (``LocalTimeZone``); a reader keeps one.
///
/// In the hour repeated where summer time ends, a local time is the instant nearer the one converted before it (the
/// later of two as near; the earlier for a file's first): the second pass of 02:00–02:59 follows 02:59 summer time, so
/// it is standard time, and a fix a second back from 02:40 summer time is summer time too, as is each fix of a file
/// written newest first once it is back in summer time (a rule of "the earlier unless the file went past it", the
/// first, put a fix after a step back an hour late, and every fix of the first pass after it). A file that begins
/// inside the second pass reads it as summer time: nothing in it tells. In the hour skipped where summer time starts
/// (02:30 does not exist in Europe/Berlin on that night), a time is read with the offset before the change (02:30
/// becomes 03:30 summer time), as a clock not yet moved would mean it.
public struct LocalTimeConversion: Sendable {
    /// The zone.
    public let zone: LocalTimeZone
    /// The last local quarter hour converted with no change of offset within a day, and that offset: the next
    /// time in it needs no look-up (a look-up costs a few hundred nanoseconds on Linux).
    var cachedQuarter: Int64 = .min
    var cachedOffsetMilliseconds: Int64 = 0
    /// The last instant returned, for the repeated hour.
    var previousUTC: Int64 = .min

    /// A conversion to `zone`.
    public init(zone: LocalTimeZone) { self.zone = zone }

    /// The UTC instant (Unix milliseconds) of the local time `local`, written as if it were UTC.
    public mutating func utcMilliseconds(fromLocal local: Int64) -> Int64 {
        let quarterMilliseconds: Int64 = 900_000
        let quarter = local >= 0 ? local / quarterMilliseconds : (local &+ 1) / quarterMilliseconds &- 1
        if quarter == cachedQuarter {
            previousUTC = local &- cachedOffsetMilliseconds
            return previousUTC
        }
        let found = zone.instants(ofLocal: local)
        let utc: Int64
        switch (found.first, found.second) {
        case (let first?, let second?):
            // (The nearer of the two to the instant before, the one after it when they are as near; the earlier
            // when there is none before.)
            if previousUTC == .min {
                utc = first
            } else {
                let toFirst = abs(Double(first) - Double(previousUTC))
                let toSecond = abs(Double(second) - Double(previousUTC))
                utc = toSecond < toFirst || (toSecond == toFirst && second >= previousUTC) ? second : first
            }
        case (let only?, nil):
            utc = only
            if !found.transitionNear {
                cachedQuarter = quarter
                cachedOffsetMilliseconds = local &- only
            }
        default:
            // The skipped hour: the offset before the change.
            utc = local &- found.offsetBefore
        }
        previousUTC = utc
        return utc
    }

    /// The UTC instant of the local time `time`, written as if it were UTC (``utcMilliseconds(fromLocal:)``).
    public mutating func utc(fromLocal time: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: utcMilliseconds(fromLocal: time.millisecondsSince1970))
    }
}
