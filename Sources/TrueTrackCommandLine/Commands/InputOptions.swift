import Foundation
import TrueTrackCore
import TrueTrackIO

/// Options every command that reads fixes shares.
enum InputOptions {
    /// The `--profile` value of `process`, `stops` and `buffer add`; without one, the profile the input's own
    /// declared activity names (``DeclaredActivity``: GPX `<type>`, TCX `Sport`), else walking.
    static func profileKind(_ arguments: ParsedArguments, input: String? = nil) throws(UsageError)
        -> TrackingProfile.Kind
    {
        try profileChoice(arguments, input: input).kind
    }

    /// " from the file's activity 'TYPE'" (a GPX `<type>`, a TCX `Sport`) for a profile whose source
    /// (``profileChoice(_:input:)``) is the file's declared activity, else "": how the text reports of `process` and
    /// `stops` say so.
    static func declaredNote(_ source: String) -> String {
        source.hasPrefix("file: ") ? " from the file's activity '\(source.dropFirst(6))'" : ""
    }

    /// The profile (see ``profileKind(_:input:)``) and where it came from: `option`, `file: TYPE` (the declared
    /// type) or `default`; and the activity the file declares, if any, whether it names a profile or not (what a
    /// written GPX keeps, see ``trackType(_:)``). The file is not looked at when `--profile` is given.
    static func profileChoice(_ arguments: ParsedArguments, input: String?) throws(UsageError) -> (
        kind: TrackingProfile.Kind, source: String, declared: String?
    ) {
        guard let name = arguments.value("profile") else {
            let declared = input.flatMap(DeclaredActivity.type(ofFileAt:))
            if let declared, let kind = DeclaredActivity.profileKind(declared) {
                return (kind, "file: \(declared)", declared)
            }
            return (.walking, "default", declared)
        }
        guard let kind = TrackingProfile.Kind(rawValue: name.lowercased()), kind != .custom else {
            throw UsageError(message: "unknown profile '\(name)' (expected walking, running, cycling or driving)")
        }
        return (kind, "option", nil)
    }

    /// The activity a GPX written from the input declares (its track's `<type>`): the profile `--profile`
    /// named, else what the input declares (a ride processed without options still reads as a ride), else none
    /// (walking by default is not a declaration).
    static func trackType(_ choice: (kind: TrackingProfile.Kind, source: String, declared: String?)) -> String? {
        choice.source == "option" ? choice.kind.rawValue : choice.declared
    }

    /// A warning when a track is written from an input that declares its activity (a GPX `<type>`, a TCX
    /// `Sport`) in a format with no place for it (only GPX has one): read back, the written track takes the
    /// walking profile (a batch tester's ride through CSV, JSON Lines and GeoJSON: 0 m of 25 km). `nil` when the
    /// format keeps it, or the declaration names no profile or the walking one.
    static func lostActivityWarning(declared: String?, writtenAs format: FixFormat, to output: String, input: String)
        -> String?
    {
        guard format != .gpx, let declared, let kind = DeclaredActivity.profileKind(declared), kind != .walking
        else { return nil }
        return "warning: \(input) declares its activity as '\(declared)', which \(format) has no place for: process "
            + "\(output == "-" ? "the written track" : output) with --profile \(kind.rawValue) (without it, the walking "
            + "profile reads it)\n"
    }

    static let specs: [OptionSpec] = [
        OptionSpec(
            name: "format", short: "f", valueName: "FORMAT",
            help: "Input format (\(FixFormat.allCases.map(\.rawValue).joined(separator: ", "))); default: sniffed."),
        OptionSpec(name: "lenient", help: "Skip malformed records (counted and reported) instead of stopping."),
        OptionSpec(
            name: "provider", valueName: "NAME",
            help: "Keep only fixes from this provider (gps, fused, network, …); repeatable. A fix whose file names "
                + "no provider reads as 'unknown' (IPIN and GeoLife logs, a CSV or JSON without a provider field; "
                + "NMEA and GPX are a receiver's own: gps).", repeatable: true),
        OptionSpec(
            name: "accept-bad-checksums",
            help: "NMEA: keep sentences whose checksum is wrong (e.g. NovAtel SPAN truth files' RMC)."),
        OptionSpec(
            name: "gpx-waypoints",
            help: "GPX: read <wpt> points as fixes too (loggers that write their positions as waypoints; KML: timed "
                + "placemarks' points), in file "
                + "order: waypoints written before a track they fall inside are out of order there ('convert "
                + "--gpx-waypoints --sort' writes them in time order)."),
        OptionSpec(
            name: "hdop-scale", valueName: "METRES",
            help:
                "NMEA/GPX/CSV/JSON: accuracy = HDOP × METRES where a fix states none (default 5, a UERE); 'accuracy10' "
                + "for HDOP = accuracy/10."),
        OptionSpec(
            name: "device", valueName: "ID",
            help: "CSV and JSON: keep only this device's records (a fleet export's deviceid, device_id, device, imei "
                + "or uniqueid column or member, Google's deviceTag); a file of several devices needs it ('info' lists "
                + "them)."),
        OptionSpec(
            name: "column", valueName: "NAME=AS",
            help: "CSV: read the header's column NAME (or #N, the Nth column, for two columns of one name) as AS, a "
                + "name TrueTrack reads (time, time_ms, latitude, longitude, accuracy_m, speed_kmh, course…), or "
                + "'ignore' to leave it unread; repeatable (--column t_ms=time_ms --column acc=accuracy_m).",
            repeatable: true),
        OptionSpec(
            name: "date-order", valueName: "ORDER",
            help: "CSV: ymd, dmy or mdy for dates that do not say it (240501, 05/01/2024); default: decided by the "
                + "file's first value that allows one order, else an error."),
        OptionSpec(
            name: "time-zone", valueName: "ZONE",
            help: "CSV, JSON, GeoJSON, GPX, TCX, KML: read times written without a UTC offset as local times in ZONE, "
                + "an IANA name (Europe/Berlin: summer time included) or an offset (+02:00, -0530, UTC), and convert "
                + "them to UTC; times with their own offset, epoch numbers and NMEA are UTC already. Default: such "
                + "times are UTC."),
        OptionSpec(
            name: "longitude-0-360",
            help: "Read longitudes written 0…360: one over 180 (up to 360) is east of 180, read as the value − 360 "
                + "(190 is −170); default: a longitude over 180 is an error."),
    ]

    /// The read options and explicit format from parsed arguments.
    /// - Parameter inputs: the positional arguments that name inputs (all of them by default).
    static func from(_ arguments: ParsedArguments, formatOption: String = "format", inputs: [String]? = nil)
        throws(UsageError) -> (FixFormat?, ReadOptions)
    {
        var options = ReadOptions(lenient: arguments.has("lenient"))
        if arguments.has("gpx-waypoints") { options.gpxPointKinds = .all }
        options.longitudesFrom0To360 = arguments.has("longitude-0-360")
        var format: FixFormat?
        if let name = arguments.value(formatOption) {
            guard let parsed = FixFormat(name: name) else {
                throw UsageError(
                    message:
                        "unknown format '\(name)' (expected one of: \(FixFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            format = parsed
        }
        let providers = arguments.all("provider")
        for name in providers where Provider(knownName: name) == nil {
            throw UsageError(message: "unknown provider '\(name)' (expected one of: \(Provider.knownNames))")
        }
        if !providers.isEmpty { options.providers = Set(providers.map(Provider.init(name:))) }
        options.acceptsChecksumMismatches = arguments.has("accept-bad-checksums")
        if format == nil, (inputs ?? arguments.positionals).contains("-") {
            throw UsageError(
                message: "reading standard input ('-') needs --\(formatOption) (the format cannot be sniffed)")
        }
        if let device = arguments.value("device") {
            guard !device.isEmpty else { throw UsageError(message: "--device expects a device ID, got ''") }
            options.devices = .only(device)
        }
        for mapping in arguments.all("column") {
            // (At the last '=': a header name may hold one, the names TrueTrack reads never do.)
            guard let equals = mapping.lastIndex(of: "="), equals != mapping.startIndex,
                mapping.index(after: equals) != mapping.endIndex
            else {
                throw UsageError(message: "--column expects NAME=AS (e.g. t_ms=time_ms), got '\(mapping)'")
            }
            let name = String(mapping[..<equals]), target = String(mapping[mapping.index(after: equals)...])
            guard target.lowercased() == "ignore" || CSVColumn(headerName: target) != nil else {
                throw UsageError(
                    message: "--column \(mapping): TrueTrack reads no column named '\(target)' (names such as time, "
                        + "time_ms, time_s, latitude, longitude, accuracy_m, speed, speed_kmh, course, altitude_m, "
                        + "or ignore)")
            }
            guard options.csvColumnNames.updateValue(target, forKey: name) == nil else {
                throw UsageError(message: "--column names '\(name)' twice")
            }
        }
        if let name = arguments.value("date-order") {
            guard let order = DateOrder(rawValue: name.lowercased()) else {
                throw UsageError(message: "--date-order expects ymd, dmy or mdy, got '\(name)'")
            }
            options.dateOrder = order
        }
        if let zone = arguments.value("time-zone") {
            guard let local = LocalTimeZone(zone) else {
                let hint = LocalTimeZone.suggestion(for: zone).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError(
                    message: "--time-zone: unknown time zone '\(zone)'\(hint): expected an IANA name such as "
                        + "Europe/Berlin or America/New_York (an abbreviation such as CEST or BST names no zone), or an "
                        + "offset such as +02:00, -0530 or UTC")
            }
            options.localTimeZone = local
        }
        if let scale = arguments.value("hdop-scale") {
            if scale == "accuracy10" {
                options.hdop = .scaledAccuracy(metresPerUnit: 10)
            } else if let metres = Double(scale), metres > 0, metres.isFinite {
                options.hdop = .dilution(userEquivalentRangeErrorMetres: metres)
            } else {
                throw UsageError(
                    message: "--hdop-scale expects a positive number of metres or 'accuracy10', got '\(scale)'")
            }
        }
        // Options of a CSV's columns with another format named: a file's reader says so when it opens the file,
        // standard input's here (its reader cannot refuse).
        if let format, format != .csv {
            if arguments.value("device") != nil, !format.namesDevices {
                throw UsageError(
                    message: "--device picks a device of a CSV's device column or a JSON record's device member; "
                        + "--\(formatOption) \(format.rawValue) holds one device's fixes")
            }
            if !arguments.all("column").isEmpty {
                throw UsageError(
                    message: "--column names a CSV's columns; --\(formatOption) \(format.rawValue) is not CSV")
            }
        }
        return (format, options)
    }

    /// The failure of an input that gave no fix at all (an empty file, another format, a receiver that never
    /// had a fix): a job that read nothing did not do what was asked, so it exits 1 with what the reader saw
    /// instead of a summary of zeros. `nil` when there was a fix.
    /// Whether the file at `path` names no provider: its first thousand fixes, read again without the provider
    /// filter, are all `unknown` (`false` when it cannot be read again: standard input, or no `options`).
    static func namesNoProvider(_ path: String, format: FixFormat, options: ReadOptions?) -> Bool {
        guard path != "-", var options else { return false }
        options.providers = nil
        guard var reader = try? AnyFixReader(path: path, format: format, options: options) else { return false }
        var read = 0
        while read < 1000, let fix = try? reader.next() {
            if fix.provider != .unknown { return false }
            read += 1
        }
        return read > 0
    }

    static func noFixes(_ report: ReadReport, format: FixFormat, options: ReadOptions? = nil) -> CommandFailure? {
        guard report.fixesProduced == 0 else { return nil }
        if format == .locationHistory, report.unusableRecords == 0 {
            // (A tester's Timeline of 20 days of semanticSegments was "a planned route rather than a recording?".)
            return CommandFailure(
                message: "\(report.source): no fixes: TrueTrack reads a Timeline export's rawSignals (the phone's own "
                    + "positions) and a Takeout Records.json's locations, and this file holds none; a Timeline's "
                    + "semanticSegments (Google's visits and inferred paths) are not read")
        }
        guard report.recordsRead > 0 else {
            // (Bytes read but no record in them: a FeatureCollection with no features, `[]`. "The input is empty" of a
            // file of 42 bytes puzzled a CLI tester.)
            let what =
                report.bytesRead == 0
                ? "the input is empty"
                : [.geojson, .locationHistory, .gpx, .tcx, .kml].contains(format)
                    ? "the document holds no point" : "the input holds no record"
            return CommandFailure(message: "\(report.source): no fixes: \(what)")
        }
        if [.geojson, .locationHistory, .jsonLines].contains(format),
            let kind = FixFormat.semanticTimelineKind(ofFileAt: report.source)
        {
            // (A tester's iPhone Timeline export was "none of its 1 points has a time: a planned route?".)
            return CommandFailure(
                message: "\(report.source): no fixes: \(kind) holds Google's inferred visits and paths, not the "
                    + "phone's own positions, and is not read; TrueTrack reads an Android Timeline.json's rawSignals "
                    + "and a Takeout Records.json's locations")
        }
        let skipped = report.skipped.filter { $0.value > 0 }
            .sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
            .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        if report.skipped(.deviceFiltered) > 0 {
            return CommandFailure(
                message: "\(report.source): no fixes: --device matched none of them (skipped: \(skipped)); "
                    + "'truetrack info \(report.source)' lists the file's devices")
        }
        if report.skipped(.providerFiltered) > 0 {
            return CommandFailure(
                message: "\(report.source): no fixes: --provider kept none of them (skipped: \(skipped))"
                    // (A batch tester's --provider gps failed on every IPIN and GeoLife file without saying why.)
                    + (namesNoProvider(report.source, format: format, options: options)
                        ? "; the file names no provider, so its fixes read as 'unknown' (as IPIN and GeoLife logs, a "
                            + "CSV or JSON without a provider field): add --provider unknown to keep them"
                        : ""))
        }
        // Only when nothing else was skipped: track points without a time are the likelier story then.
        if report.skipped(.gpxWaypoint) > 0, report.unusableRecords == 0 {
            let n = report.skipped(.gpxWaypoint)
            let what = format == .kml ? "placemark point\(n == 1 ? "" : "s")" : "waypoint\(n == 1 ? "" : "s") (<wpt>)"
            return CommandFailure(
                message: "\(report.source): no fixes: the file holds no track or route point, only \(n) "
                    + "\(what); add --gpx-waypoints to read \(n == 1 ? "it" : "them") as fixes")
        }
        if report.skipped(.checksumMismatch) > 0 {
            return CommandFailure(
                message: "\(report.source): no fixes: \(report.skipped(.checksumMismatch)) sentences failed their "
                    + "checksum (skipped: \(skipped)); if the file is known to carry wrong checksums (NovAtel SPAN "
                    + "truth exports), add --accept-bad-checksums")
        }
        // NMEA epochs with a time of day and no date: GGA carries times of day only, and only RMC or ZDA give the
        // date. Blaming the format sent a tester with a GGA-only log looking for another format.
        if format == .nmea, report.skipped(.missingTime) > 0 {
            return CommandFailure(
                message: "\(report.source): no fixes: its sentences carry times of day only and no RMC or ZDA "
                    + "sentence gives a date (an RMC date 000000 is a receiver's that does not know it yet), so none of "
                    + "its fixes can be placed in time (skipped: \(skipped)); "
                    + "TrueTrack has no option to supply the date: the receiver must log RMC or ZDA sentences too")
        }
        // Every point without a time (a planned route from Komoot or a route planner, not a recording): the format
        // is right, the times are missing (a formats tester was asked whether --format was right).
        if format != .nmea, report.skipped(.missingTime) > 0, report.skipped(.missingTime) == report.unusableRecords {
            // (A JSON file may name its time otherwise: a tester's `"when"` was asked whether it was a route.)
            let names =
                format == .jsonLines || format == .geojson
                ? " (a JSON point's time is read from a member named time, timestamp, timestampMs, datetime, utcTime, "
                    + "fixTime, deviceTime or serverTime, in any case, with _ or -: is the file's named otherwise?)"
                : ""
            // (A KML <LineString> is one record however many coordinates it holds: "none of its 1 points", a
            // formats tester's three.)
            let count = report.skipped(.missingTime)
            let what = format == .kml ? ("placemark", "placemarks") : ("point", "points")
            let none = count == 1 ? "its one \(what.0) has no time" : "none of its \(count) \(what.1) has a time"
            return CommandFailure(
                message: "\(report.source): no fixes: \(none) (skipped: \(skipped)); a planned route rather than a "
                    + "recording? TrueTrack needs each fix's time" + names)
        }
        // JSON records whose position no member gives (a CLI tester's `"x"` and `"y"` were asked whether --format was
        // right): the format is right, the names are not the ones read.
        if format == .jsonLines || format == .geojson, report.skipped(.missingPosition) > 0,
            report.skipped(.missingPosition) == report.unusableRecords
        {
            let count = report.skipped(.missingPosition)
            let none = count == 1 ? "its one record has no position" : "none of its \(count) records has a position"
            return CommandFailure(
                message: "\(report.source): no fixes: \(none) TrueTrack reads (skipped: \(skipped)); a JSON point's "
                    + "position is read from members named latitude or lat and longitude, lon, lng or long, in any "
                    + "case, or from a GeoJSON geometry: is the file's named otherwise?")
        }
        // A CSV whose only non-blank record is its header: the format is right, the data is missing.
        if format == .csv, report.skipped(.header) == 1, report.unusableRecords == 0,
            report.recordsRead == 1 + report.skipped(.blank)
        {
            return CommandFailure(message: "\(report.source): no fixes: the file holds a CSV header and no data rows")
        }
        return CommandFailure(
            message: "\(report.source): no fixes in \(report.recordsRead) records read as \(format.rawValue)"
                + (skipped.isEmpty ? "" : " (skipped: \(skipped))") + "; is --format right?")
    }

    /// A note naming where the first NMEA sentence failing its checksum is, and how many did (they are
    /// skipped: a serial line's corruption), with the option that reads them anyway; `nil` when none failed.
    static func checksumWarning(_ report: ReadReport) -> String? {
        let count = report.skipped(.checksumMismatch)
        guard count > 0, let first = report.firstSkipped[.checksumMismatch] else { return nil }
        return "  skipped: \(count) NMEA sentence\(count == 1 ? "" : "s") failing the checksum, the first at \(first) "
            + "(--accept-bad-checksums reads them)\n"
    }

    /// What a read says of the optional fields it read as missing (``ReadReport/unreadableFields``: with `--lenient`,
    /// a value that is no number; in any read, an altitude, speed or course that is no finite number): how many, the
    /// first five with where they are, and how many more; empty when there were none. Their fixes were kept without
    /// them (a tester's `--lenient` read had dropped whole fixes for a speed `x`).
    static func unreadableFieldLines(_ report: ReadReport, input: String) -> [String] {
        let count = report.unreadableFieldCount
        guard count > 0 else { return [] }
        var lines = [
            "warning: \(count) unreadable field\(count == 1 ? "" : "s") of \(input) read as missing: "
                + (count == 1
                    ? "its fix was kept, with its position and time\n"
                    : "their fixes were kept, with their positions and times\n")
        ]
        let listed = report.unreadableFields.prefix(5)
        for error in listed { lines.append("  read as missing: \(error)\n") }
        if count > listed.count { lines.append("  … and \(count - listed.count) more read as missing\n") }
        return lines
    }

    /// A warning when `--time-zone` was given and changed no time of the input (every fix read): its times state
    /// their own offset, are epoch numbers, or are UTC by definition (NMEA, GnssLogger, IPIN, GeoLife), so the
    /// option did nothing the user asked for; `nil` otherwise.
    static func localTimeWarning(_ reader: AnyFixReader, input: String) -> String? {
        let report = reader.report
        guard let zone = reader.localTimeZone, report.localTimesConverted == 0, report.fixesProduced > 0 else {
            return nil
        }
        let why: String =
            switch reader.format {
            case .nmea, .gnssLogger, .ipin, .geolife: "\(reader.format.rawValue) times are UTC by definition"
            default:
                "its times state their own offset (Z, +01:00), are epoch numbers or stand in a column whose name says "
                    + "UTC: UTC either way"
            }
        return "warning: --time-zone \(zone) changed no time of \(input): \(why)\n"
    }

    /// A warning naming the CSV columns not read that a user would expect to be: a measurement TrueTrack reads
    /// (speed, accuracy, course, altitude) in a unit it does not take (`speed_kmh`, `accuracy_ft`,
    /// `speed (mph)`), a `heading` (a compass's or the course: the user says which), an `acc` in a file whose
    /// accuracy no other column gives (an accelerometer's or the accuracy: the user says which), and a second column
    /// of a quantity already read (only the first is); and GPX's and TCX's speed, `hAcc` and `vAcc` elements left unread
    /// (``AnyFixReader/unreadGPXSpeedElements``, ``AnyFixReader/unreadGPXAccuracyElements``); `nil` when there is
    /// none. Other unknown columns (a note, a battery level, accelerometer axes) are ignored silently, as
    /// documented.
    static func unreadMeasurementWarning(_ reader: AnyFixReader, input: String) -> String? {
        let measurements: Set<String> = [
            "speed", "velocity", "accuracy", "course", "bearing", "heading", "altitude", "alt", "elevation", "ele",
        ]
        let units: Set<String> = [
            "kmh", "kph", "km", "mph", "kn", "kt", "knots", "ft", "feet", "foot", "mi", "miles", "yd", "rad",
            "radians", "cm", "mm",
        ]
        var inUnits: [String] = [], repeated: [String] = [], headings: [String] = [], shortAccuracy: String?
        for name in reader.unreadCSVColumns {
            // A heading may be a compass's (where the phone points), not the direction of travel: named, not read.
            let key = name.lowercased().filter { $0.isLetter }
            // `acc` is an accelerometer's magnitude in sensor logs, so it is read only when named; in a file whose
            // accuracy no other column gives (an accuracy's or an HDOP's), it is likely the accuracy (a CLI tester's
            // `acc`, unread without a word: 1,002.2 m, 1,013.3 m read).
            if ["acc", "accm"].contains(key), !reader.csvReadsAccuracy {
                shortAccuracy = shortAccuracy ?? name
                continue
            }
            if ["heading", "headingdeg", "headingdegrees"].contains(key) {
                // (Beside a course column that is read, a heading is not missed.)
                if reader.csvReadsCourse { continue }
                headings.append(name)
                continue
            }
            if let column = CSVColumn(headerName: name) {
                // Another time column (a fleet tracker's device and server times, GPSLogger's `timestamp_ms` beside
                // its `time`): one time is read, `info` names the others; every run warning of it was noise.
                if case .time = column { continue }
                repeated.append(name)
                continue
            }
            let words = name.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
            if let first = words.first, measurements.contains(first), words.dropFirst().contains(where: units.contains)
            {
                inUnits.append(name)
            }
        }
        var lines: [String] = []
        if !inUnits.isEmpty {
            lines.append(
                "warning: \(input): column\(inUnits.count == 1 ? "" : "s") "
                    + inUnits.map { "'\($0)'" }.joined(separator: ", ")
                    + " not read: TrueTrack reads accuracy and altitude in metres, course in degrees, speed in m/s "
                    + "or in km/h, knots or mph when the name says so (names such as speed, speed_mps, speed_kmh, "
                    + "accuracy_m, altitude_m, course_deg); convert the column, rename it, or read it under such a name "
                    + "with --column NAME=AS"
                    + (inUnits[0].lowercased().hasPrefix("speed")
                        ? " (--column '\(inUnits[0])=speed_kmh' for a speed in km/h, speed_mph or speed_knots as its unit "
                            + "is)" : "") + "\n")
        }
        if let name = shortAccuracy {
            lines.append(
                "warning: \(input): column '\(name)' not read: a short name some logs give an accelerometer's reading; "
                    + "if it holds the fixes' accuracy (metres), add --column '\(name)=accuracy_m'\n")
        }
        if let heading = headings.first {
            lines.append(
                "warning: \(input): column '\(heading)' not read: TrueTrack reads the course over ground from a "
                    + "course or bearing column, and a heading may be a compass's (where the device points); if it is "
                    + "the direction of travel, add --column '\(heading)=course'\n")
        }
        if !repeated.isEmpty {
            lines.append(
                "warning: \(input): column\(repeated.count == 1 ? "" : "s") "
                    + repeated.map { "'\($0)'" }.joined(separator: ", ")
                    + " not read: \(repeated.count == 1 ? "it repeats" : "they repeat") the quantity of an earlier "
                    + "column, and only the first is read\n")
        }
        let unreadSpeeds = reader.unreadGPXSpeedElements
        if unreadSpeeds > 0, reader.format == .tcx {
            lines.append(
                "warning: \(input): \(unreadSpeeds) <Speed> element\(unreadSpeeds == 1 ? "" : "s") not read as the fixes' "
                    + "speed: outside a trackpoint's <Extensions><TPX> (Garmin's ActivityExtension, where TrueTrack reads "
                    + "it), or in a namespace it does not know to hold it\n")
        } else if unreadSpeeds > 0 {
            lines.append(
                "warning: \(input): \(unreadSpeeds) <speed> element\(unreadSpeeds == 1 ? "" : "s") not read as the fixes' "
                    + "speed: in a namespace TrueTrack does not know to hold it, or inside an element it does not know "
                    + "(a weather extension's wind); it reads GPX's own, Garmin's TrackPointExtension, OsmAnd's, "
                    + "ClueTrust's GPXDATA and myTracks' (convert the file's speeds into one of those to use them)\n")
        }
        let unreadAccuracies = reader.unreadGPXAccuracyElements
        if unreadAccuracies > 0 {
            lines.append(
                "warning: \(input): \(unreadAccuracies) <hAcc>/<vAcc> element\(unreadAccuracies == 1 ? "" : "s") not read "
                    + "as the fixes' accuracy: TrueTrack reads them where Apple Health's route export writes them, in a "
                    + "point's <extensions> in GPX's namespace, not at the point's own level, in another namespace or "
                    + "inside an element it does not know\n")
        }
        return lines.isEmpty ? nil : lines.joined()
    }

    /// Fails unless a buffer database exists at `path`: only `buffer add` creates one, so the commands that
    /// read, clear or sync a buffer must not leave an empty database behind at a mistyped path and answer 0.
    static func requireExistingBuffer(_ path: String) throws(CommandFailure) {
        guard path != ":memory:" else { return }
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(message: "\(path): no such buffer (create it with 'truetrack buffer add')")
        }
        // An empty file is a database to SQLite, which made it a new, empty buffer (a sync tester's 0-byte file
        // became 40 KB, exit 0): a file that is no buffer yet is refused like a missing one.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path), attributes[.size] as? Int == 0 {
            throw CommandFailure(
                message: "\(path): an empty file, not a buffer (create one with 'truetrack buffer add'); left as it is")
        }
    }
}

extension InputOptions {
    /// `--lines`, for a command writing `what` (the track, the fixes): GeoJSON as LineStrings per segment.
    static func linesSpec(_ what: String) -> OptionSpec {
        OptionSpec(
            name: "lines",
            help: "GeoJSON output: \(what) as LineString features, one per segment (times in coordTimes; a "
                + "one-fix segment is a Point; one crossing the antimeridian is a MultiLineString cut at ±180), "
                + "what a map draws as a track, instead of a Point feature per fix with every field.")
    }
}

extension ReadError {
    /// What to do about a CSV header naming no time or position column (`found`: the line as quoted in the
    /// error): a line of fields gets `--column`; a line whose fields are mostly numbers (or ISO 8601 times) is
    /// data, and the file needs a header; binary bytes get nothing.
    static func headerHint(_ found: String) -> String {
        guard !found.contains("\\x"), found.contains(where: ",;\t|".contains) else { return "" }
        let fields = found.trimmingCharacters(in: CharacterSet(charactersIn: "\"…"))
            .split(whereSeparator: { ",;\t|".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
        let numeric = fields.filter { Double($0) != nil || ($0.first?.isNumber == true && $0.contains("T")) }
        if 2 * numeric.count > fields.count {
            return "; the first line looks like data, not a header: add a header line naming the columns (time, "
                + "latitude, longitude…), or, if they are its names, read them with --column (--column 0=time)"
        }
        return "; --column NAME=AS reads a column under a name TrueTrack knows, e.g. --column y=latitude"
    }

    /// Whether this error is a record cut short before the end of an input of `inputBytes` bytes: more than a line
    /// break of the input lies after the break, so records followed it (a record cut short, not a truncated file).
    /// `process` and `stops` say so instead of "whatever followed is missing" (a tester's NMEA and JSON Lines files
    /// with one line cut), and offer `--lenient`, which reads on past it.
    func isCutShortBefore(inputBytes: Int) -> Bool {
        guard case .truncated(let location, _) = self else { return false }
        return inputBytes - location.byteOffset > 2
    }

    /// ``lenientHint``, and for a record cut short in the middle of the file `input`
    /// (``isCutShortBefore(inputBytes:)``) the same `--lenient` advice (a tester's JSON Lines file with one line cut
    /// short stopped with no hint); nothing of `--lenient` when the user gave it (`isLenient`: a tester's HTML page
    /// read with --lenient was told to try it).
    func lenientHint(input: String, isLenient: Bool = false) -> String {
        guard isSkippedLeniently || isCutShortBefore(endOf: input) else { return lenientHint }
        return isLenient ? "" : lenientAdvice
    }

    /// ``isCutShortBefore(inputBytes:)`` with the size of the file `input` (never for standard input, `-`).
    func isCutShortBefore(endOf input: String) -> Bool {
        guard case .truncated = self, input != "-",
            let size = (try? FileManager.default.attributesOfItem(atPath: input))?[.size] as? Int
        else { return false }
        return isCutShortBefore(inputBytes: size)
    }

    /// What `--lenient` does for a record that failed so, as the hints say it: it skips it and reads on. A field
    /// that is not a number may be an optional measurement, which is only read as missing
    /// (``ReadReport/readAsMissing(_:lenient:)``), except in NMEA, where the sentence goes; a value out of range
    /// (an invalid fix) is always skipped with its record (a reviewer's point: the hint promised more).
    var lenientAdvice: String {
        let skips = "; --lenient skips such records and reads on"
        guard case .malformedField = self else { return skips }
        return skips
            + ", but reads an unreadable speed, accuracy, altitude or course as missing and keeps its fix, "
            + "except in NMEA"
    }

    /// Whether `--lenient` skips a record that failed so and reads on: a malformed field or record, an invalid fix
    /// (not an ``unreadableStructure(_:expected:found:)``, which ``endsReadingEvenWhenLenient``).
    var isSkippedLeniently: Bool {
        switch self {
        case .malformedField, .invalidFix, .malformedRecord: true
        default: false
        }
    }

    /// What the user can do about a damaged record, appended to its message: `--lenient` skips malformed
    /// records (counted and reported) and reads on; a CSV header that names no time, latitude or longitude
    /// column is read with `--column`. Empty for errors no option gets past (I/O, truncation, an unsupported
    /// format, a record longer than the reader holds, another header error, a file holding several devices).
    var lenientHint: String {
        switch self {
        case .malformedField, .malformedRecord, .invalidFix:
            lenientAdvice
        case .unreadableHeader(_, let expected, let found) where expected.contains("(missing: "):
            ReadError.headerHint(found)
        case .io, .truncated, .unsupportedFormat, .recordTooLong, .unreadableHeader, .severalDevices,
            .unreadableStructure:
            // (A record too long for memory ends the reading whatever the option.)
            ""
        }
    }
}
