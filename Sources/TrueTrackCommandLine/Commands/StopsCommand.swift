import Foundation
import TrueTrackCore
import TrueTrackIO

/// `truetrack stops INPUT [--profile P] [--json] [--out stops.geojson]`: the stops and trips of a recording.
enum StopsCommand {
    static let spec = CommandSpec(
        name: "stops",
        abstract: "Find the stops and trips of a recording, and its moving versus elapsed time.",
        positionals: ["INPUT..."], minimumPositionals: 1, maximumPositionals: nil,
        options: [
            OptionSpec(
                name: "profile", short: "p", valueName: "PROFILE",
                help:
                    "walking, running, cycling or driving: the tracker's and the stop detector's tuning. Default: the one "
                    + "the file's own activity names (GPX <type>, TCX Sport), else walking."),
            OptionSpec(name: "json", help: "Print JSON instead of text."),
            OptionSpec(
                name: "out", short: "o", valueName: "FILE",
                help:
                    "Also write the stops as GeoJSON points (properties: kind \"stop\", stop (its number), start, end, "
                    + "durationSeconds, radiusMetres, fixes, latitude, longitude: its centre, unobservedSeconds: its silent "
                    + "part, when a gap lies inside it), the possible stops in recording gaps (kind "
                    + "\"possibleStop\", acrossGap: true, fixes: those between back-to-back gaps, often 0), and the trips as LineStrings of the accepted fixes "
                    + "(properties: kind \"trip\", trip, start, end, durationSeconds, distanceMetres). A .csv file "
                    + "gets the same records as a timeline instead, one row each in time order (columns kind, number, "
                    + "start, end, durationSeconds, latitude, longitude, radiusMetres, fixes, unobservedSeconds, "
                    + "distanceMetres; a field that does not apply to the row's kind is empty; a possible stop lies "
                    + "inside the trip whose span holds its gap, so durations do not add up to the elapsed time: "
                    + "movingSeconds, stoppedSeconds and unobservedSeconds do). '-' writes the GeoJSON to standard "
                    + "output (the report then goes to standard error)."
            ),
            OptionSpec(
                name: "to", valueName: "FORMAT",
                help: "What --out writes: geojson (the map) or csv (the timeline); default: by its extension, GeoJSON "
                    + "for '-'."),
        ] + StopsCommand.tuningSpecs + InputOptions.specs,
        discussion: """
            INPUT is a file path, or '-' for standard input (then --format is required).
            Several inputs are analysed one by one, each on its own as if given alone (--json then prints an
            array, one report per input; an input that fails does not stop the others; --out takes one input).
            Every fix is run through the Tracker and, accepted or not, into the stop detector (the same
            MOVING/STATIONARY state machine an app runs live), with the distance the Tracker counted on it as
            evidence of movement; fixes coarser than 200 m (network-provider fixes) and positions the Tracker
            rejected as outliers give only their activity. A
            stop needs a still verdict over the profile's window, then its stop timeout (walking: 10 s + 20 s;
            cycling 10 s + 30 s; driving: 10 s + 60 s, so halts under about 70 s are not stops, and a traffic
            light of 70 s or more is); a halt shorter than that counts as moving time. The bound is approximate,
            by a few seconds either way: the window can read still before the traveller has stood its whole length
            (a stops tester's 28 s walking halts were stops of 26-28 s; 72 s driving halts were not). For deliveries, raise
            --stop-timeout above the longest wait you do not want (a tester's van days: 90 driving, 60 cycling
            or walking, made every reported stop a delivery). A sparse logger needs about four fixes at one place
            for a stop: about 2 minutes at a fix every 30 s, 3-4 minutes every 60 s, and a timeout shorter than
            one logging step changes nothing. A stop's times are the device's: a courier's phone stops when the
            courier stands still, inside, not when the van parked. With Doppler speeds the window must first hold no reading of the approach,
            so a halt needs a few seconds more (about 50 s cycling; --stop-timeout shortens it). Times are ISO-8601 UTC; a trip's distance is the Tracker's from the end of the stop before it
            to the end of the stop after it (metres it counts late, a departure's held ones, land in their trip),
            and a trip's duration spans any recording gap inside it up to 10 minutes (a longer one ends the trip). Elapsed time = moving + stopped + unobserved
            (recording gaps, also inside a stop: silence is neither). A recording gap is a silence longer than 30 s
            (walking, running; 20 s cycling, driving), or than three steps of a logger that writes a fix less
            often (its window then holds three fixes: stops are found for loggers writing up to one fix every
            100 s). A stop's radiusMetres is the root-mean-square distance of its fixes from its centre. A
            recording gap whose fixes before and after lie at the same place (within the stationary radius and
            0.5 m/s of travel) and that lasts at least a stop's shortest span is listed as a possible stop
            (staysAcrossGaps in --json; acrossGap in the GeoJSON): not a stop, its time stays unobserved (silence
            never means stopped), but the device likely stayed there: a delivery in an underground car park may be
            listed only there. Back-to-back gaps at one place are one possible stop, holding the fixes between
            them (its fixes count; 0 for a single gap).

            --json keys: input, profile, profileSource (option, file: TYPE, default), fixes (the fixes read),
            stops (start, end, latitude, longitude, durationSeconds, radiusMetres, fixes, unobservedSeconds when a
            gap lies inside it), trips (start, end, durationSeconds, distanceMetres), staysAcrossGaps (possible
            stops, as stops), distanceMetres (the Tracker's whole count, which the trips' distances are parts of, as
            process reports it), distanceOutsideTripsMetres (the part no trip holds: counted while the stop
            detector judged the device stopped before its first trip, across a gap that ended a trip, or in a
            recording with no trip at all: the
            two judge motion differently, and a coarse receiver's drift can count as movement to the one and not to
            the other), movingSeconds, stoppedSeconds, unobservedSeconds, elapsedSeconds (the three before
            add up to it: from the first fix to the last, stretches a day or more apart counted each on its own),
            error (absent when none), warnings, fieldsReadAsMissing (optional fields that could not be read, their
            fixes kept: with --lenient, and in any read a speed, course or altitude that is no finite number; absent
            when none).
            """)

    /// Options that tune the stop detector's profile (`stops` and `process`).
    static let tuningSpecs = [
        OptionSpec(
            name: "stop-timeout", valueName: "SECONDS",
            help: "Seconds a still spell must last after the still window before it is a stop (walking and running "
                + "20, cycling 30, driving 60): a stop needs the window (10 s) plus this. At most 604800 (a week)."),
        OptionSpec(
            name: "stop-radius", valueName: "METRES",
            help: "How far a fix may lie from a stop's centre (beyond its accuracy) before the stop ends (walking "
                + "and running 40, cycling and driving 50). At most 10000."),
    ]

    /// The largest `--stop-timeout`: a week (604,800 s). Longer, a stop could only be found in a recording of more
    /// than a week at one place; a tester's 1e308 made every stop vanish without a word.
    static let maximumStopTimeoutSeconds = 604_800.0
    /// The largest `--stop-radius`: 10 km, a town. Wider, a drive across it is a stop.
    static let maximumStopRadiusMetres = 10_000.0

    /// The stop detector's profile for `kind`, with `--stop-timeout` and `--stop-radius` applied.
    ///
    /// - Throws: ``UsageError`` for a value that is not a decimal number of at least 1, or above
    ///   ``maximumStopTimeoutSeconds`` / ``maximumStopRadiusMetres``.
    static func stopProfile(_ arguments: ParsedArguments, kind: TrackingProfile.Kind) throws -> StopDetectionProfile {
        var profile = StopDetectionProfile.preset(kind)
        // A decimal number of at least 1 (Double("0x10") is 16; a radius of 1e-300 m ended every stop on its
        // next fix) and at most `maximum`.
        func atLeastOne(_ name: String, atMost maximum: Double, _ unit: String, _ why: String) throws -> Double? {
            guard let text = arguments.value(name) else { return nil }
            // (`inf` and 1e400 are too large, not "no number": they are read as +∞ and meet the maximum below.)
            guard text.lowercased().allSatisfy({ "0123456789.e+-infty".contains($0) }), let value = Double(text),
                !value.isNaN, value >= 1
            else {
                throw UsageError(message: "--\(name) needs a positive number of at least 1, not '\(text)'")
            }
            guard value <= maximum else {
                throw UsageError(
                    message: "--\(name) takes at most \(Int(maximum)) \(unit), not '\(text)': \(why)")
            }
            return value
        }
        if let seconds = try atLeastOne(
            "stop-timeout", atMost: maximumStopTimeoutSeconds, "seconds (a week)",
            "a stop would need a week at one place")
        {
            profile.stopTimeoutSeconds = seconds
        }
        if let metres = try atLeastOne(
            "stop-radius", atMost: maximumStopRadiusMetres, "metres", "a drive across a town would be a stop")
        {
            profile.stationaryRadiusMetres = metres
        }
        return profile
    }

    struct StopJSON: Encodable {
        var start: String
        var end: String
        var latitude: Double
        var longitude: Double
        var durationSeconds: Double
        var radiusMetres: Double
        var fixes: Int
        /// How much of a stop no fix saw (silences inside it longer than the detector's gap), seconds; absent when
        /// none. (A possible stop across a gap is all unobserved: `acrossGap` says it.)
        var unobservedSeconds: Double? = nil
        /// True for a possible stop inside a recording gap (`staysAcrossGaps`); absent for a stop.
        var acrossGap: Bool?
        /// Its number from 1, in the GeoJSON's stop features only (the report's list is in order).
        var stop: Int? = nil
        /// What the GeoJSON feature is, `stop` or `possibleStop` (GeoJSON only): a pipeline filters on it.
        var kind: String? = nil
    }

    struct TripJSON: Encodable {
        var start: String
        var end: String
        var durationSeconds: Double
        var distanceMetres: Double
        /// Its number from 1, in the GeoJSON's trip features only (the report's list is in order).
        var trip: Int? = nil
        /// `trip`, in the GeoJSON's trip features only.
        var kind: String? = nil
    }

    struct Report: Encodable {
        var input: String
        var profile: String
        /// Where the profile came from, as `process --json` says it (`option`, `file: TYPE`, `default`).
        var profileSource: String
        var fixes: Int
        var stops: [StopJSON]
        var trips: [TripJSON]
        /// Possible stops inside recording gaps (the fixes before and after at the same place): not in `stops`,
        /// their time unobserved.
        var staysAcrossGaps: [StopJSON]
        /// The Tracker's whole count (``Tracker/finishTrack()`` included), as `process` reports it: the trips'
        /// distances are parts of it.
        var distanceMetres: Double
        /// What the Tracker counted outside every trip: while the stop detector judged the device stopped before
        /// the first trip, on the first fix after a recording gap long enough to end a trip (the chord across it),
        /// or all of it when there is no trip. (A trip runs to the end of the stop after it.)
        var distanceOutsideTripsMetres: Double
        var movingSeconds: Double
        /// Time in stops: elapsed − moving − unobserved, so the three add up to the elapsed time.
        var stoppedSeconds: Double
        var elapsedSeconds: Double
        /// Time inside recording gaps (longer than the detector's gap: 30 s walking, or three steps of a sparse
        /// logger), also inside a stop that spans one (its `unobservedSeconds`): neither moving nor stopped, since
        /// silence proves neither.
        var unobservedSeconds: Double
        /// The failure the command ends with (a read error that cut the input short, or no fix at all), as
        /// `process --json` reports it: the JSON is printed either way.
        var error: String?
        /// The warnings printed on standard error, as `process --json` carries them.
        var warnings: [String]
        /// With `--lenient`, how many optional fields could not be read (their fixes kept), as `process --json`
        /// counts them; absent when there were none.
        var fieldsReadAsMissing: Int?
    }

    /// Reads `path` and analyses it with the tracker and the stop detector of `kind`.
    /// - Parameter keepsPositions: also return the accepted fixes' positions in time order (for the trips'
    ///   lines in the GeoJSON: 24 bytes more per fix, kept only when it is written).
    static func analyse(
        path: String, format: FixFormat?, options: ReadOptions, kind: TrackingProfile.Kind,
        stopProfile: StopDetectionProfile, keepsPositions: Bool = false
    )
        throws -> (
            analysis: StopAnalysis, fixes: Int, totals: [(Timestamp, Double)], failure: CommandFailure?,
            warnings: [String], positions: [(Timestamp, Double, Double)], fieldsReadAsMissing: Int,
            elapsedSeconds: Double
        )
    {
        var reader: AnyFixReader
        do { reader = try AnyFixReader(path: path, format: format, options: options) } catch {
            throw CommandFailure(message: error.description)
        }
        var evidence = EvidenceStream(input: path, profile: stopProfile)
        // The tracker's total after each accepted fix that reaches the analysis, in time order (the trips'
        // distances are looked up in it): 16 bytes per fix, the one thing kept per fix.
        var totals: [(Timestamp, Double)] = []
        var positions: [(Timestamp, Double, Double)] = []
        func record(_ entry: EvidenceStream.Entry) {
            guard let time = entry.acceptedTime else { return }
            // A wrong fix found too late to be held back is dated after this one: out of the totals, whose
            // search needs time order.
            while let last = totals.last, last.0 > time { totals.removeLast() }
            totals.append((time, entry.totalMetres))
            if keepsPositions {
                while let last = positions.last, last.0 > time { positions.removeLast() }
                positions.append((time, entry.evidence.latitude, entry.evidence.longitude))
            }
        }
        // Reading, tracking and diagnosing on one thread; the analysis here (``TwoStages``). A read error ends the
        // input, not the analysis: the fixes before it are analysed and reported, and the caller exits 1 with the
        // error (nothing already read is lost).
        var stage = TrackingStage(
            reader: reader, tracker: Tracker(profile: .preset(kind)),
            diagnostics: RunDiagnostics(profile: .preset(kind)))
        var count = 0
        TwoStages.run(&stage, produce: TrackingStage.run) { (output: TrackingStage.Output) in
            count += 1
            evidence.add(
                index: count, evidence: MotionEvidence(fix: output.fix, decision: output.decision),
                decision: output.decision, analysed: record)
        }
        reader = stage.reader
        var tracker = stage.tracker, diagnostics = stage.diagnostics
        let failure = stage.failure
        let analysis = evidence.finish(
            rereading: path, format: reader.format, options: options, profile: .preset(kind),
            startingOver: {
                totals.removeAll()
                positions.removeAll()
            }, analysed: record)
        // What a departure still held at the end counts in the last trip (``Tracker/finishTrack()``).
        let held = tracker.finishTrack()
        diagnostics.settleOverrules(tracker.overrules)
        if held > 0, let last = totals.last { totals.append((last.0, last.1 + held)) }
        let ending =
            failure.map {
                CommandFailure(
                    message:
                        "\($0)\(Terminal.afterReadError(count, "fix", "fixes", were: "analysed", hint: $0.lenientHint(input: path, isLenient: options.lenient)))"
                )
            }
            ?? InputOptions.noFixes(reader.report, format: reader.format, options: options)
        // (The elapsed time counts stretches a day or more apart each on its own, as `process`'s duration: a
        // tester's two walks two days apart read 173,640 s elapsed, 171,960 of them unobserved.)
        let warnings =
            evidence.reportedWarnings(duration: true)
            + diagnostics.warnings(
                profile: .preset(kind), reader: reader, input: path, rawPathMetres: nil,
                tracker: tracker, timeSpan: evidence.timeSpan)
        return (
            analysis, count, totals, ending, warnings, positions, reader.report.unreadableFieldCount,
            evidence.durationSeconds(of: analysis)
        )
    }

    /// The tracker's total at `time`: the last accepted fix's total at or before it.
    static func total(at time: Timestamp, in totals: [(Timestamp, Double)]) -> Double {
        var lo = 0, hi = totals.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if totals[mid].0 <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? 0 : totals[lo - 1].1
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let inputs = arguments.positionals
        guard inputs.count > 1 else {
            try Batch.runOne(
                inputs[0], json: arguments.has("json"), toStandardError: arguments.value("out") == "-"
            ) { (collect: @escaping (Report) -> Void) in
                try run(inputs[0], arguments, collect: collect, batched: false)
            }
            return 0
        }
        try Batch.check(arguments, singleOutputs: ["out"])
        return try Batch.run(inputs: inputs, json: arguments.has("json"), total: total) {
            (input, collect: @escaping (Report) -> Void) in
            try run(input, arguments, collect: collect, batched: true)
        }
    }

    /// The text line that sums several inputs' reports.
    static func total(_ reports: [Report]) -> String {
        func sum(_ value: (Report) -> Double) -> String { reports.reduce(0) { $0 + value($1) }.fixed(1) }
        let stops = reports.reduce(0) { $0 + $1.stops.count }, trips = reports.reduce(0) { $0 + $1.trips.count }
        return
            "total of \(Terminal.count(reports.count, "input", "inputs")): elapsed \(sum(\.elapsedSeconds)) s, moving \(sum(\.movingSeconds)) s, "
            + "stopped \(sum(\.stoppedSeconds)) s, unobserved \(sum(\.unobservedSeconds)) s, "
            + "\(stops) stop\(stops == 1 ? "" : "s"), \(trips) trip\(trips == 1 ? "" : "s")\n"
    }

    /// Analyses one input, hands its report to `collect` and prints it, as text; as JSON only when not `batched`
    /// (several inputs: ``Batch`` prints the array).
    static func run(_ input: String, _ arguments: ParsedArguments, collect: (Report) -> Void, batched: Bool) throws {
        let (format, options) = try InputOptions.from(arguments)
        let choice = try InputOptions.profileChoice(arguments, input: input)
        let kind = choice.kind
        let out = arguments.value("out"), lowercasedOut = out?.lowercased() ?? ""
        // `--to` names the format (a path without the extension: a device, a pipe, a name the caller chose), by the
        // names `process --to` takes.
        let to = arguments.value("to")
        let writesCSV: Bool
        if let name = to {
            switch FixFormat(name: name) {
            case .csv?: writesCSV = true
            case .geojson?: writesCSV = false
            default:
                throw UsageError(message: "--to is csv (the timeline) or geojson (the map) for stops, not '\(name)'")
            }
        } else {
            writesCSV = lowercasedOut.hasSuffix(".csv")
        }
        if out == nil, to != nil {
            throw UsageError(message: "--to is the format of what --out writes: give --out FILE")
        }
        if let out, out != "-", to == nil, !writesCSV, !lowercasedOut.hasSuffix(".geojson"),
            !lowercasedOut.hasSuffix(".json")
        {
            throw UsageError(
                message: "--out writes GeoJSON (a .geojson or .json file) or a CSV timeline (a .csv file), got '\(out)'"
                    + " (or give --to csv or --to geojson)"
            )
        }
        try OutputPaths.checkDistinct(inputs: [input], outputs: [("--out", arguments.value("out"))])
        try OutputPaths.checkFolderWritable(arguments.value("out"))
        let (analysis, count, totals, readFailure, warningLines, positions, fieldsReadAsMissing, elapsed) = try analyse(
            path: input, format: format, options: options, kind: kind,
            stopProfile: try stopProfile(arguments, kind: kind),
            keepsPositions: arguments.value("out") != nil && !writesCSV)
        var failure = readFailure  // (an output that cannot be written joins it below)
        // The time between stretches a day or more apart is left out of the elapsed time, and so of the unobserved.
        let unobserved = max(0, analysis.unobservedSeconds - (analysis.elapsedSeconds - elapsed))
        // Each stop's end by its start (a lookup per trip, not a scan of the stops).
        let stopEnds = Dictionary(analysis.stops.map { ($0.start, $0.end) }, uniquingKeysWith: max)
        let trips = analysis.trips.map { trip in
            // To the end of the stop that ends the trip: metres the tracker counts late (a departure's
            // held ones, up to 30 s on) land in the trip they belong to, and a stop counts nothing of its own.
            let end = stopEnds[trip.end] ?? trip.end
            return TripJSON(
                start: ISO8601.format(trip.start), end: ISO8601.format(trip.end),
                durationSeconds: trip.durationSeconds,
                distanceMetres: Terminal.millimetres(total(at: end, in: totals) - total(at: trip.start, in: totals))
            )
        }
        let distance = totals.last?.1 ?? 0
        var report = Report(
            input: input, profile: kind.rawValue, profileSource: choice.source, fixes: count,
            stops: analysis.stops.map(StopJSON.init), trips: trips,
            staysAcrossGaps: analysis.staysAcrossGaps.map {
                var stay = StopJSON($0)
                stay.acrossGap = true
                stay.unobservedSeconds = nil  // (all of it: `acrossGap` says so)
                return stay
            },
            distanceMetres: Terminal.millimetres(distance),
            distanceOutsideTripsMetres: Terminal.millimetres(
                max(0, distance - trips.reduce(0) { $0 + $1.distanceMetres })),
            // To the millisecond (the fixes' resolution): sums of seconds printed 69.00000000000003.
            movingSeconds: Terminal.milliseconds(analysis.movingSeconds),
            stoppedSeconds: Terminal.milliseconds(max(0, elapsed - analysis.movingSeconds - unobserved)),
            elapsedSeconds: Terminal.milliseconds(elapsed),
            unobservedSeconds: Terminal.milliseconds(unobserved), error: failure?.message,
            warnings: warningLines.map(Terminal.warningText),
            fieldsReadAsMissing: fieldsReadAsMissing > 0 ? fieldsReadAsMissing : nil)
        // With the JSON report on standard error ('--out -'), the warnings and the error are in it, and printed
        // beside it they left standard error unparseable (a batch tester's `--json --out -`). Otherwise they are
        // printed before the GeoJSON is written, so that a failed write does not drop them (a reviewer's).
        let jsonOnStandardError = arguments.has("json") && arguments.value("out") == "-" && !batched
        if !jsonOnStandardError {
            for warning in warningLines { Terminal.error(warning) }
        }
        // A run that fails without a fix read writes no empty collection (as `convert` and `process` do not).
        if let out = arguments.value("out"), report.fixes > 0 || failure == nil {
            do {
                let sink = try ByteSink(path: out)
                if writesCSV {
                    writeCSV(
                        report,
                        starts: (
                            analysis.stops.map(\.start), analysis.staysAcrossGaps.map(\.start),
                            analysis.trips.map(\.start)
                        ), to: sink)
                } else {
                    try writeGeoJSON(
                        report, tripRanges: tripRanges(analysis.trips, in: positions), positions: positions, to: sink)
                }
                try sink.close()
            } catch {
                // The report is still printed, with the failure (as a read error's is), and the command fails.
                failure = CommandFailure.joining(CommandFailure(message: error.description), failure)
                report.error = failure?.message
            }
        }
        // With the GeoJSON on standard output ('--out -'), the report goes to standard error.
        collect(report)
        // (A text report of nothing, before an error that let no fix through, says nothing.)
        let saysSomething = report.fixes > 0 || failure == nil || arguments.has("json")
        if !batched || !arguments.has("json"), saysSomething {
            let reportText = arguments.has("json") ? Terminal.json(report) : text(report)
            if arguments.value("out") == "-" { Terminal.error(reportText) } else { Terminal.out(reportText) }
        }
        if var failure {
            failure.isReported = jsonOnStandardError
            throw failure
        }
    }

    /// Each trip's accepted fixes, from its start to its end (binary searches in time order), as index ranges into
    /// `positions`: the GeoJSON's lines are written from them, not built in memory.
    static func tripRanges(_ trips: [TripRecord], in positions: [(Timestamp, Double, Double)]) -> [Range<Int>] {
        func index(_ time: Timestamp) -> Int {
            var lo = 0, hi = positions.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if positions[mid].0 < time { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        return trips.map { trip in
            let from = index(trip.start)
            var to = index(trip.end)
            while to < positions.count, positions[to].0 == trip.end { to += 1 }
            return from..<max(from, to)
        }
    }

    static func text(_ r: Report) -> String {
        var lines = ["\(r.input) (\(r.profile)\(InputOptions.declaredNote(r.profileSource)), \(r.fixes) fixes)"]
        lines.append(
            "  elapsed \(r.elapsedSeconds.fixed(1)) s, moving \(r.movingSeconds.fixed(1)) s, "
                + "stopped \(r.stoppedSeconds.fixed(1)) s, "
                + (r.unobservedSeconds > 0 ? "unobserved \(r.unobservedSeconds.fixed(1)) s (recording gaps), " : "")
                + "\(r.stops.count) stop\(r.stops.count == 1 ? "" : "s"), \(r.trips.count) trip\(r.trips.count == 1 ? "" : "s")"
        )
        for (i, s) in r.stops.enumerated() {
            lines.append(
                "  stop \(i + 1): \(s.start) → \(s.end) (\(s.durationSeconds.fixed(0)) s"
                    + (s.unobservedSeconds.map { ", \($0.fixed(0)) s of it unobserved" } ?? "") + ") at "
                    + "\(s.latitude.fixed(6)), \(s.longitude.fixed(6)), radius \(s.radiusMetres.fixed(1)) m, \(s.fixes) fixes"
            )
        }
        for s in r.staysAcrossGaps {
            lines.append(
                "  possible stop in a recording gap: \(s.start) → \(s.end) (\(s.durationSeconds.fixed(0)) s, "
                    + (s.fixes == 0 ? "no fixes" : "\(Terminal.count(s.fixes, "fix", "fixes")) between its gaps") + ") "
                    + "at \(s.latitude.fixed(6)), \(s.longitude.fixed(6)): the fixes around it lie within "
                    + "\(s.radiusMetres.fixed(1)) m of it"
            )
        }
        for (i, t) in r.trips.enumerated() {
            lines.append(
                "  trip \(i + 1): \(t.start) → \(t.end) (\(t.durationSeconds.fixed(0)) s, \(t.distanceMetres.fixed(0)) m)"
            )
        }
        // (Whole metres, as the trips: under half a metre outside them is rounding.)
        if r.distanceOutsideTripsMetres >= 0.5 {
            lines.append(
                "  distance \(r.distanceMetres.fixed(0)) m, \(r.distanceOutsideTripsMetres.fixed(0)) m of it outside the "
                    + (r.trips.isEmpty
                        ? "trips: there is none (the stop detector judged the device stopped throughout)"
                        : "trips (counted where the stop detector saw no trip: while stopped before the first, or on "
                            + "the first fix after a gap that ended one)"))
        } else if r.distanceMetres >= 0.5 {
            // (Always said: a reader of the trips should not have to add them up to learn the distance.)
            lines.append("  distance \(r.distanceMetres.fixed(0)) m, all of it in the trips")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `degrees` to 7 decimals (a centimetre), as the GeoJSON and the CSV timeline write positions.
    static func roundedDegrees(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    /// The CSV timeline's header (`stops --out FILE.csv`).
    static let csvHeader =
        "kind,number,start,end,durationSeconds,latitude,longitude,radiusMetres,fixes,unobservedSeconds,distanceMetres"

    /// Writes the report's stops, possible stops and trips as a CSV timeline: one row each, in time order (by start; at
    /// one start a stop, then a possible stop, then a trip), under ``csvHeader``. A stop's row is its `--json` record
    /// (its centre to 7 decimals, a centimetre; `unobservedSeconds` empty when no gap lies inside it); a possible
    /// stop's (`possibleStop`, number empty: it is not a stop) is all unobserved, its `unobservedSeconds` its duration;
    /// a trip's has its times, duration and distance, the place fields empty. What a spreadsheet of a day wants; the
    /// GeoJSON draws the trips' lines. `starts` are the records' start times in the report's order, which sort the rows
    /// (the ISO-8601 texts do not: `…:40.5Z` sorts before `…:40Z`).
    static func writeCSV(
        _ r: Report, starts: (stops: [Timestamp], stays: [Timestamp], trips: [Timestamp]), to sink: ByteSink
    ) {
        var rows: [(start: Timestamp, rank: Int, index: Int)] = []
        rows += r.stops.indices.map { (starts.stops[$0], 0, $0) }
        rows += r.staysAcrossGaps.indices.map { (starts.stays[$0], 1, $0) }
        rows += r.trips.indices.map { (starts.trips[$0], 2, $0) }
        rows.sort { ($0.start, $0.rank, $0.index) < ($1.start, $1.rank, $1.index) }
        sink.append(csvHeader + "\n")
        for row in rows {
            sink.withBuffer { bytes in
                func number(_ value: Double?) {
                    bytes.append(UInt8(ascii: ","))
                    if let value { NumberFormatting.append(value, to: &bytes) }
                }
                func text(_ value: String) {
                    bytes.append(UInt8(ascii: ","))
                    bytes.append(contentsOf: value.utf8)
                }
                if row.rank == 2 {
                    let trip = r.trips[row.index]
                    bytes.append(contentsOf: "trip,\(row.index + 1)".utf8)
                    text(trip.start)
                    text(trip.end)
                    number(trip.durationSeconds)
                    bytes.append(contentsOf: ",,,,,".utf8)
                    number(trip.distanceMetres)
                } else {
                    let stop = row.rank == 0 ? r.stops[row.index] : r.staysAcrossGaps[row.index]
                    bytes.append(contentsOf: (row.rank == 0 ? "stop,\(row.index + 1)" : "possibleStop,").utf8)
                    text(stop.start)
                    text(stop.end)
                    number(stop.durationSeconds)
                    number(roundedDegrees(stop.latitude))
                    number(roundedDegrees(stop.longitude))
                    number(stop.radiusMetres)
                    bytes.append(UInt8(ascii: ","))
                    NumberFormatting.append(Int64(stop.fixes), to: &bytes)
                    number(row.rank == 0 ? stop.unobservedSeconds : stop.durationSeconds)
                    bytes.append(UInt8(ascii: ","))
                }
                bytes.append(UInt8(ascii: "\n"))
            }
        }
    }

    /// Writes the stops as a GeoJSON FeatureCollection of points, then the trips as LineStrings of the accepted
    /// fixes between them (`positions[tripRanges[i]]`, time, latitude and longitude, for `r.trips[i]`; properties:
    /// `trip` (its number, from 1), start, end, durationSeconds, distanceMetres): what a map of a day shows, places
    /// and the ways between them. A trip with fewer than two accepted fixes has no line; one crossing the
    /// antimeridian is a MultiLineString cut at ±180 (``Antimeridian``, RFC 7946 §3.1.9). The lines are streamed
    /// into `sink` (coordinates to 1e-7 degrees, a centimetre): built as arrays and one string, a reviewer's 2 M-fix
    /// walk peaked at 645 MB instead of 64.
    static func writeGeoJSON(
        _ r: Report, tripRanges: [Range<Int>], positions: [(Timestamp, Double, Double)], to sink: ByteSink
    ) throws(WriteError) {
        struct Point: Encodable {
            var type = "Point"
            var coordinates: [Double]
        }
        struct Feature: Encodable {
            var type = "Feature"
            var geometry: Point
            var properties: StopJSON
        }
        func json(_ value: some Encodable) -> String { Terminal.json(value, compact: true) }
        sink.append("{\"type\":\"FeatureCollection\",\"features\":[")
        var first = true
        func separate() {
            if !first { sink.append(",") }
            first = false
            sink.append("\n")
        }
        func point(_ properties: StopJSON) {
            separate()
            sink.append(
                json(
                    Feature(
                        geometry: Point(coordinates: [properties.longitude, properties.latitude]),
                        properties: properties)
                ))
        }
        for (i, stop) in r.stops.enumerated() {
            var numbered = stop
            numbered.stop = i + 1
            numbered.kind = "stop"
            point(numbered)
        }
        for stay in r.staysAcrossGaps {
            var possible = stay
            possible.kind = "possibleStop"
            point(possible)
        }
        for (i, (trip, range)) in zip(r.trips, tripRanges).enumerated() where range.count >= 2 {
            separate()
            var numbered = trip
            numbered.trip = i + 1
            numbered.kind = "trip"
            // A trip crossing the antimeridian is cut there (RFC 7946 §3.1.9): a MultiLineString whose parts end
            // at ±180 and start again on the other side (``Antimeridian``), decided on the rounded coordinates
            // written.
            let rounded = roundedDegrees
            func crossing(before k: Int) -> Antimeridian.Crossing? {
                guard k > range.lowerBound else { return nil }
                return Antimeridian.crossing(
                    fromLatitude: rounded(positions[k - 1].1), fromLongitude: rounded(positions[k - 1].2),
                    toLatitude: rounded(positions[k].1), toLongitude: rounded(positions[k].2))
            }
            let isCut = range.dropFirst().contains {
                Antimeridian.crosses(from: rounded(positions[$0 - 1].2), to: rounded(positions[$0].2))
            }
            sink.append(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":"
                    + (isCut ? "\"MultiLineString\",\"coordinates\":[[" : "\"LineString\",\"coordinates\":["))
            func appendPosition(_ longitude: Double, _ latitude: Double, to bytes: inout [UInt8]) {
                bytes.append(UInt8(ascii: "["))
                NumberFormatting.append(longitude, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                NumberFormatting.append(latitude, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
            }
            for k in range {
                let cut = isCut ? crossing(before: k) : nil
                sink.withBuffer { bytes in
                    if let cut {
                        let latitude = rounded(cut.latitude)
                        bytes.append(UInt8(ascii: ","))
                        appendPosition(cut.endLongitude, latitude, to: &bytes)
                        bytes.append(contentsOf: "],[".utf8)
                        appendPosition(cut.startLongitude, latitude, to: &bytes)
                    }
                    if k != range.lowerBound { bytes.append(UInt8(ascii: ",")) }
                    appendPosition(rounded(positions[k].2), rounded(positions[k].1), to: &bytes)
                }
                try sink.flushIfNeeded()
            }
            sink.append((isCut ? "]]},\"properties\":" : "]},\"properties\":") + json(numbered) + "}")
        }
        sink.append("\n]}\n")
    }
}

extension StopsCommand.StopJSON {
    /// The JSON shape of a stop record (times ISO-8601 UTC).
    init(_ stop: StopRecord) {
        self.init(
            start: ISO8601.format(stop.start), end: ISO8601.format(stop.end), latitude: stop.latitude,
            longitude: stop.longitude, durationSeconds: stop.durationSeconds,
            radiusMetres: Terminal.millimetres(stop.radiusMetres), fixes: stop.fixes,
            unobservedSeconds: stop.unobservedSeconds > 0 ? Terminal.milliseconds(stop.unobservedSeconds) : nil)
    }
}
