import Foundation
import TrueTrackCore
import TrueTrackIO

/// `truetrack info INPUT… [--json]`: what a recording holds, before any filtering.
enum InfoCommand {
    static let spec = CommandSpec(
        name: "info",
        abstract:
            "Describe recordings: format, declared activity, segments, fixes, time span, sampling, field coverage, "
            + "time-order faults, raw distance.",
        positionals: ["INPUT..."], minimumPositionals: 1, maximumPositionals: nil,
        options: [OptionSpec(name: "json", help: "Print JSON (an array, one object per input) instead of text.")]
            + InputOptions.specs,
        discussion: """
            INPUT is a file path, or '-' for standard input (then --format is required).
            The raw distance is the sum of haversine segments (R = 6,371,008.8 m) over every fix in input order:
            the naive figure TrueTrack's filters improve on.

            --json prints an array, one entry per input (also for one input). Keys: path, format, fixes,
            recordsRead, skipped (reason -> count), firstTime / lastTime (ISO 8601 UTC; absent without a fix),
            spanSeconds, medianIntervalSeconds (absent under two fixes or when every fix has one time), accuracyShare / speedShare / courseShare
            (0-1), invalidAccuracyFixes, providers (name -> fixes; 'unknown' where the file names none),
            exactDuplicates, backwardSteps, identicalTimestamps, weekRolloverJumps, gapsOver5Seconds,
            longestStepSeconds, rawDistanceMetres, error (absent when none), lenientErrors, fieldsReadAsMissing,
            warnings; only where they apply: segments (GPX, TCX, CSV and JSON Lines with a segment field),
            declaredActivity, timeColumns (CSV), deviceColumn and devices (a CSV's device column, a JSON record's device member),
            timeZone and localTimesConverted (with --time-zone).
            """)

    /// The JSON shape of one input's description.
    struct Report: Encodable {
        /// The input as given.
        var path: String
        /// The format read (sniffed, or `--format`); `?` when none could be told.
        var format: String
        /// The fixes read.
        var fixes: Int
        /// The records read: lines, sentences, points, features (fixes and the rest).
        var recordsRead: Int
        /// Records that gave no fix, by reason (only reasons with a count).
        var skipped: [String: Int]
        /// The earliest and latest fix time, ISO 8601 UTC; absent without a fix.
        var firstTime: String?
        var lastTime: String?
        /// From the earliest to the latest fix time, seconds (whatever the order in between).
        var spanSeconds: Double
        /// The median time between consecutive fixes, seconds; absent with fewer than two.
        var medianIntervalSeconds: Double?
        /// The share of fixes with a horizontal accuracy, 0…1 (the text output shows it in %).
        var accuracyShare: Double
        /// Fixes whose accuracy is 0 or negative (invalid: the tracker rejects them).
        var invalidAccuracyFixes: Int
        /// The shares of fixes with a speed reading and with a course, 0…1.
        var speedShare: Double
        var courseShare: Double
        /// Fixes by provider (`unknown` where the file names none).
        var providers: [String: Int]
        /// Fixes equal to the fix read just before (time and position).
        var exactDuplicates: Int
        /// Steps back in time between fixes read one after the other.
        var backwardSteps: Int
        /// Steps between fixes of the same time at different places.
        var identicalTimestamps: Int
        /// Steps between fixes read one after the other that span whole GPS week-rollover periods (1024 weeks):
        /// a receiver that dates part of the file 1024 weeks early.
        var weekRolloverJumps: Int
        /// Steps forward in time of more than 5 s.
        var gapsOver5Seconds: Int
        /// The longest step forward in time, seconds.
        var longestStepSeconds: Double
        /// The naive haversine sum over consecutive fixes as read (R = 6,371,008.8 m), metres.
        var rawDistanceMetres: Double
        /// Why the input failed (could not be opened, a read error cut it short, no fix); absent when it did not.
        var error: String?
        /// With `--lenient`: the malformed records skipped, the first hundred.
        var lenientErrors: [String]
        /// The optional fields read as missing because they could not be read (their fixes were kept: with `--lenient`,
        /// and in any read a speed, course or altitude that is no finite number), the first hundred
        /// (``ReadReport/unreadableFields``).
        var fieldsReadAsMissing: [String]
        /// GPX and TCX: how many track segments (`<trkseg>`, `<rte>`, TCX tracks) hold fixes; `nil` for formats
        /// without segments.
        var segments: Int?
        /// The activity the file declares (GPX trk `<type>`, TCX `Sport`), which picks the profile of `process`
        /// and `stops` when `--profile` is absent; `nil` when none.
        var declaredActivity: String?
        /// CSV: the header's time columns, the one the times are read from first (a Traccar export's
        /// `fixtime`, then `devicetime` and `servertime`); `nil` for other formats.
        var timeColumns: [String]?
        /// A CSV's device column or a JSON record's device member (`deviceId`, `deviceTag`…): its name and the
        /// devices in the order of their first record, with the fixes read of each (every device's unless `--device`
        /// names one); `nil` without one.
        var deviceColumn: String?
        var devices: [Device]?
        /// With `--time-zone`: the zone, and how many times written without an offset were read as local times
        /// there (converted to UTC); both `nil` without the option.
        var timeZone: String?
        var localTimesConverted: Int?
        /// The warnings printed on standard error (times that look wrong, a GPS week rollover, measurements
        /// read as missing), as `process --json` and `stops --json` carry theirs.
        var warnings: [String] = []
    }

    /// A device of a CSV's device column and the fixes read of it.
    struct Device: Encodable {
        var id: String
        var fixes: Int
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        var (format, options) = try InputOptions.from(arguments)
        // A census of every device (the figures merge them) unless --device names one: info lists them so that
        // a user can pick one, where process and stops refuse the merge.
        if options.devices == .single { options.devices = .all }
        var reports: [Report] = []
        var failed = false
        for path in arguments.positionals {
            let report = describe(path: path, format: format, options: options)
            if report.error != nil { failed = true }
            reports.append(report)
            // An input that could not be opened at all, or failed before it read anything but a header (one naming
            // no usable column), gets its error, not a report full of zeros. (One that skipped records, such as
            // sentences failing their checksum, keeps its report: it says what was skipped.)
            let unreadable =
                report.error != nil && report.fixes == 0 && report.skipped.keys.allSatisfy { $0 == "header" }
            if !arguments.has("json") && !unreadable { Terminal.out(text(report)) }
            if let error = report.error { Terminal.error("Error: \(error)\n") }
        }
        if arguments.has("json") { Terminal.out(Terminal.json(reports)) }
        return failed ? 1 : 0
    }

    static func describe(path: String, format explicit: FixFormat?, options: ReadOptions) -> Report {
        var summary = TrackSummary()
        var formatName = explicit?.rawValue ?? "?"
        var readReport = ReadReport(source: path)
        var failure: String?
        var segments: Int?
        var lastSegment: Int?
        var timeColumns: [String]?
        var deviceColumn: String?
        var devices: [Device]?
        var warnings: [String] = []
        do {
            var reader = try AnyFixReader(path: path, format: explicit, options: options)
            formatName = reader.format.rawValue
            defer {
                readReport = reader.report
                if reader.format == .csv, !reader.csvTimeColumns.isEmpty { timeColumns = reader.csvTimeColumns }
                if let column = reader.deviceField {
                    deviceColumn = column
                    devices = reader.devices.filter { $0.fixes > 0 }.map { Device(id: $0.id, fixes: $0.fixes) }
                }
            }
            // The time steps as the commands that run the tracker see them, for the clock-change questions
            // (every fix observed as accepted: `info` judges none).
            var diagnostics = RunDiagnostics()
            let noOverrules = RunDiagnostics.Overrules(isOverruling: false, isProvisional: false, withdrawn: 0)
            do {
                while let fix = try reader.next() {
                    summary.add(fix)
                    diagnostics.observe(fix, FixDecision(timestamp: fix.timestamp), overrules: noOverrules)
                    if let index = reader.segmentIndex, index != lastSegment {
                        segments = (segments ?? 0) + 1
                        lastSegment = index
                    }
                }
            }
            if let note = diagnostics.clockChangeNote(input: path, reader: reader) { warnings.append(note) }
            if let warning = diagnostics.springForwardWarning(input: path, reader: reader) { warnings.append(warning) }
            if let warning = InputOptions.unreadMeasurementWarning(reader, input: path) { warnings.append(warning) }
            if let warning = InputOptions.localTimeWarning(reader, input: path) { warnings.append(warning) }
            if let warning = RunDiagnostics.mixedZonesWarning(reader, input: path) { warnings.append(warning) }
            warnings += RunDiagnostics.pointsWithoutTimeOrPosition(reader.report)
            if diagnostics.nullIslandFixes > 0 {
                // (A tester's file with three read "raw distance 21768146.6 m" here and nothing more.)
                warnings.append(
                    RunDiagnostics.nullIslandWarning(diagnostics.nullIslandFixes, input: path, leftOut: false))
            }
            if let earliest = summary.earliest, let latest = summary.latest,
                let warning = RunDiagnostics.timeWarning(earliest: earliest, latest: latest, input: path)
            {
                warnings.append(warning)
            }
            if let warning = RunDiagnostics.weekRolloverWarning(
                summary.weekRollovers, input: path, format: reader.format)
            {
                warnings.append(warning)
            }
            for warning in warnings { Terminal.error(warning) }
        } catch {
            // (A header naming no time or position column: the option that reads it under another name.)
            var hint = ""
            if case .unreadableHeader = error { hint = error.lenientHint }
            failure = error.description + Terminal.afterReadError(0, "", "", were: "", hint: hint)
        }
        if failure == nil, readReport.fixesProduced == 0, let format = FixFormat(name: formatName),
            let empty = InputOptions.noFixes(readReport, format: format, options: options)
        {
            failure = empty.message
        }
        return Report(
            path: path, format: formatName, fixes: summary.fixCount, recordsRead: readReport.recordsRead,
            skipped: Dictionary(
                uniqueKeysWithValues: SkipReason.allCases.compactMap { reason in
                    let n = readReport.skipped(reason)
                    return n > 0 ? (reason.rawValue, n) : nil
                }),
            firstTime: summary.earliest.map(ISO8601.format), lastTime: summary.latest.map(ISO8601.format),
            spanSeconds: summary.spanSeconds, medianIntervalSeconds: summary.medianSamplingIntervalSeconds,
            accuracyShare: summary.share(summary.fixesWithAccuracy),
            invalidAccuracyFixes: summary.fixesWithInvalidAccuracy,
            speedShare: summary.share(summary.fixesWithSpeed), courseShare: summary.share(summary.fixesWithCourse),
            providers: Dictionary(uniqueKeysWithValues: summary.providers.map { ($0.key.rawValue, $0.value) }),
            exactDuplicates: summary.exactDuplicates, backwardSteps: summary.backwardSteps,
            identicalTimestamps: summary.identicalTimestamps, weekRolloverJumps: summary.weekRollovers.jumps,
            gapsOver5Seconds: summary.gaps,
            longestStepSeconds: summary.longestStepSeconds, rawDistanceMetres: summary.rawDistanceMetres,
            error: failure, lenientErrors: readReport.errors.map(\.description),
            fieldsReadAsMissing: readReport.unreadableFields.map(\.description), segments: segments,
            declaredActivity: DeclaredActivity.type(ofFileAt: path), timeColumns: timeColumns,
            deviceColumn: deviceColumn, devices: devices, timeZone: options.localTimeZone?.name,
            localTimesConverted: options.localTimeZone == nil ? nil : readReport.localTimesConverted,
            warnings: warnings.map(Terminal.warningText))
    }

    static func text(_ r: Report) -> String {
        func percent(_ share: Double) -> String { (share * 100).fixed(1) + " %" }
        var lines = ["\(r.path)"]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 20 - label.count)) + value)
        }
        row("format", r.format)
        if let declared = r.declaredActivity {
            let kind = DeclaredActivity.profileKind(declared)
            row(
                "activity",
                "'\(declared)' (declared; "
                    + (kind.map { "process and stops use the \($0.rawValue) profile" } ?? "names no profile") + ")")
        }
        if let segments = r.segments, segments > 1 { row("segments", "\(segments) (the file's track segments)") }
        func isNonFix(_ key: String) -> Bool { SkipReason(rawValue: key)?.isNonFixRecord == true }
        let skipped = r.skipped.filter { !isNonFix($0.key) }.sorted { $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        // (The waypoints have a row of their own below.)
        let other = r.skipped.filter { isNonFix($0.key) && $0.key != SkipReason.gpxWaypoint.rawValue }.values
            .reduce(0, +)
        row("fixes", "\(r.fixes)" + (skipped.isEmpty ? "" : " (records skipped: \(skipped))"))
        if other > 0 { row("other records", "\(other) (headers, comments, blank lines, records that hold no fix)") }
        if let waypoints = r.skipped[SkipReason.gpxWaypoint.rawValue], waypoints > 0 {
            row(
                "waypoints",
                "\(waypoints) \(r.format == FixFormat.kml.rawValue ? "placemark points" : "<wpt>") not read as fixes "
                    + "(--gpx-waypoints reads those that carry a time)")
        }
        if let columns = r.timeColumns, columns.count > 1 {
            row(
                "time column",
                "\(columns[0]) (not read: " + columns.dropFirst().joined(separator: ", ")
                    + "; a fix's own time first, then the device's, then the server's)")
        }
        if let devices = r.devices, let column = r.deviceColumn, !devices.isEmpty {
            let place = r.format == FixFormat.csv.rawValue ? "column" : "member"
            // The first 20 in the text (10,000 vans made one line of 200 KB, a re-tester's); --json lists them all.
            let shown = devices.prefix(20).map { "\($0.id) (\($0.fixes) fixes)" }.joined(separator: ", ")
            let list = shown + (devices.count > 20 ? " and \(devices.count - 20) more (--json lists every one)" : "")
            row(
                devices.count == 1 ? "device" : "devices",
                devices.count == 1
                    ? "\(list), \(place) \(column)"
                    : "\(devices.count) in \(place) \(column): \(list); the figures below merge them: process and "
                        + "stops read one, --device ID")
        }
        if let first = r.firstTime, let last = r.lastTime {
            row("time span", "\(first) → \(last) (\(r.spanSeconds.fixed(1)) s)")
        }
        if let zone = r.timeZone, let converted = r.localTimesConverted {
            row("local times", "\(converted) written without an offset, read in \(zone) (--time-zone)")
        }
        row("sampling interval", r.medianIntervalSeconds.map { "\($0.fixed(3)) s (median)" } ?? "–")
        row(
            "accuracy",
            percent(r.accuracyShare) + (r.invalidAccuracyFixes > 0 ? " (\(r.invalidAccuracyFixes) invalid)" : ""))
        row("speed", percent(r.speedShare))
        row("course", percent(r.courseShare))
        row("providers", r.providers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        row("duplicates", "\(r.exactDuplicates) exact")
        row(
            "time order",
            "\(r.backwardSteps) backward steps, \(r.identicalTimestamps) identical timestamps"
                + (r.weekRolloverJumps > 0
                    ? ", \(Terminal.count(r.weekRolloverJumps, "jump", "jumps")) of 1024 weeks or more (GPS week rollover)"
                    : ""))
        row("gaps > 5 s", "\(r.gapsOver5Seconds) (longest step \(r.longestStepSeconds.fixed(1)) s)")
        row("raw distance", "\(r.rawDistanceMetres.fixed(1)) m (sum of segments)")
        if !r.lenientErrors.isEmpty {
            row("skipped errors", "\(r.lenientErrors.count) (first: \(r.lenientErrors[0]))")
        }
        if !r.fieldsReadAsMissing.isEmpty {
            row(
                "read as missing",
                "\(r.fieldsReadAsMissing.count) unreadable field(s), fixes kept (first: \(r.fieldsReadAsMissing[0]))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
