import TrueTrackCore
import TrueTrackIO
import TrueTrackSmoothing

/// `truetrack process INPUT [--profile P] [--json] [--out FILE] [--decisions FILE]`: run the ``Tracker`` over a
/// recording and report its distance against the naive sum, with the filtered track and every decision.
enum ProcessCommand {
    static let spec = CommandSpec(
        name: "process",
        abstract: "Filter a recording: TrueTrack's distance, the filtered track and a decision per fix.",
        positionals: ["INPUT..."], minimumPositionals: 1, maximumPositionals: nil,
        options: [
            OptionSpec(
                name: "profile", short: "p", valueName: "PROFILE",
                help:
                    "walking, running, cycling or driving: the gates' and filter's tuning. Default: the one the file's own "
                    + "activity names (GPX <type>, TCX Sport: cycling, running, hiking…), else walking."),
            OptionSpec(name: "json", help: "Print the summary as JSON instead of text."),
            OptionSpec(
                name: "out", short: "o", valueName: "FILE",
                help: "Write the filtered track (accepted fixes, filtered positions; with --smooth the smoothed "
                    + "track: one point per fix time the smoother used, in time order); format by extension: "
                    + ".csv, .geojson, .gpx, .jsonl (or --to); '-' writes CSV to standard output (the summary then goes to "
                    + "standard error)."),
            OptionSpec(
                name: "to", valueName: "FORMAT",
                help: "The format --out writes (csv, gpx, geojson, jsonl); default: from its extension, CSV for '-'."),
            InputOptions.linesSpec("the track"),
            OptionSpec(
                name: "decisions", valueName: "FILE",
                help: "Write one CSV row per input fix: its decision, reason and every gate's value."),
            OptionSpec(
                name: "smooth",
                help: "Batch mode: smooth the whole track (robust banded least squares, LAPACK) instead of the "
                    + "forward filter; the summary gains distanceSigmaMetres (1σ, from the fixes' stated "
                    + "accuracy: an accuracy the receiver understates, or all of the corners a sparse track without "
                    + "course readings cuts, are not in it; README \"How far to trust the smoothed distance\"), "
                    + "stillLengthMetres (smoothed length left out where the receiver was at rest; the straight line "
                    + "across each such run counts in the σ), vehicleLengthMetres (left out as rides: walking and "
                    + "running profiles), modelDifferenceMetres (how much longer the track smoothed with the white "
                    + "part of the fixes' error is than the track --out writes; it counts in the σ as "
                    + "modelSigmaMetres), "
                    + "modelDifferenceIncludedMetres (the part of it in distanceMetres: all of it, as the distance is "
                    + "measured on that track, unless the speed readings the forward filter trusts deny that track's "
                    + "extra length: then 0; speedReadingsCheck gives the readings' own path and both tracks' lengths over "
                    + "the steps between such readings, and modelSigmaMetres what the term then counts in the σ), "
                    + "curveExcessMetres (the curves between speed-and-course readings beyond "
                    + "the straight lines, included), modelCurveMetres (the curves between the smoothed velocities "
                    + "where no readings say them, in the σ only) and, when the course column was turned from the "
                    + "direction of travel by a constant angle and turned back, courseOffsetDegrees. With a good "
                    + "Doppler speed the forward filter's distance is usually the closer."),
            OptionSpec(
                name: "estimate-noise",
                help: "With --smooth: estimate the accuracy scale, Doppler scale and acceleration noise from the "
                    + "track itself (expectation-maximisation) instead of the profile's; the summary gains noise (a track of fewer "
                    + "than 30 fix times keeps the profile's, with a warning)."),
        ] + StopsCommand.tuningSpecs + InputOptions.specs,
        discussion: """
            INPUT is a file path, or '-' for standard input (then --format is required). Several inputs are
            processed one by one, each on its own as if given alone (--json then prints an array, one summary per
            input; an input that fails does not stop the others; --format applies to every one of them; --out and
            --decisions take one input). Fixes are processed in
            input order, as a live stream would deliver them (a fix not newer than the last accepted one, older or
            at the same time in another place, is rejected as out of order; the same time and place as the fix
            read just before is a duplicate).

            The summary (--json keys): input, profile and profileSource (option, file: TYPE, default),
            distanceMetres (TrueTrack's distance), rawPathMetres (the naive haversine
            sum over consecutive fixes as read, R = 6,371,008.8 m, for comparison), durationSeconds (the time
            the fixes span, but not a fix the tracker rejected as out of order, nor its repeat on the next
            line, so a file written newest first
            spans little: sort it first; stretches a day or more apart, a clock fault or
            recordings days apart, count each without the time between them; a time a clock jump proved wrong
            is left out), fixes.read / fixes.accepted / fixes.rejected (reason -> count),
            distanceBySourceMetres (doppler, filtered, derived), skippedRecords (records meant as fixes
            that could not be used: no fix, no time, bad checksum, malformed with --lenient) and skippedByReason
            (reason -> count), fieldsReadAsMissing (optional fields that could not be read, their fixes kept: with
            --lenient, and in any read a speed, course or altitude that is no finite number; absent when none),
            movingSeconds and stops (as `truetrack stops --json` prints them, from the stop detector of the same profile), warnings (as
            printed on standard error) and error (why the run failed; absent when it did not); with --smooth
            also distanceSigmaMetres, forwardDistanceMetres (the forward filter's distance, which
            distanceBySourceMetres breaks down) and the smoother's terms (README, "What the outputs hold").

            The filtered track's CSV header starts 'timestamp,latitude,longitude' (ISO 8601 UTC times); its
            accuracy_m is the filter's 68 % radius, speed_mps and course_deg the filtered velocity (speed 0, no course,
            where the tracker judged the device at rest: below the deadband or the net-displacement gate closed). The decisions
            CSV's columns are explained in the README ("What the outputs hold").
            """)

    /// The JSON summary.
    struct Summary: Encodable {
        struct Fixes: Encodable {
            var read: Int
            var accepted: Int
            var rejected: [String: Int]
        }
        var input: String
        var profile: String
        /// Where the profile came from: `option` (`--profile`), `file: TYPE` (the recording's declared activity,
        /// see `DeclaredActivity`) or `default` (walking).
        var profileSource: String
        var distanceMetres: Double
        var rawPathMetres: Double
        var durationSeconds: Double
        var fixes: Fixes
        var distanceBySourceMetres: [String: Double]
        var skippedRecords: Int
        /// `skippedRecords` by reason (`missingTime`, `noFix`, `checksumMismatch`, `binaryNoise`, `malformed`, …),
        /// the reasons with a count only: a GPX that lost 41 % of its points to missing times said only "skipped
        /// records: 358" (a tester; `truetrack info` gave the reason).
        var skippedByReason: [String: Int] = [:]
        /// The optional fields (a speed, an accuracy…) read as missing because they could not be read, their fixes kept
        /// (``ReadReport/unreadableFieldCount``: with `--lenient`, and in any read a speed, course or altitude that is
        /// no finite number); absent when there were none.
        var fieldsReadAsMissing: Int?
        /// Elapsed time minus time spent in stops (the stop detector of the same profile).
        var movingSeconds: Double
        /// With `--smooth`: the 1σ uncertainty of `distanceMetres` from the smoother's posterior covariance.
        var distanceSigmaMetres: Double?
        /// With `--smooth`: the forward filter's distance (the `Tracker`'s, what `distanceMetres` is without
        /// `--smooth`), which `distanceBySourceMetres` breaks down. The text report printed it; `--json` had only its
        /// parts, which did not add up to `distanceMetres` (a CLI tester's).
        var forwardDistanceMetres: Double? = nil
        /// With `--smooth`: the length of the smoothed track left out of `distanceMetres` because a window
        /// centred on it was still (a receiver at rest; see `StillnessGate`).
        var stillLengthMetres: Double?
        /// With `--smooth`: the length of the smoothed track left out of `distanceMetres` because it moved like
        /// a vehicle (walking and running profiles; see `VehicleGate`).
        var vehicleLengthMetres: Double?
        /// With `--smooth`: the part of `distanceMetres` that comes from measuring it on the track smoothed with the
        /// white part of the fixes' error rather than on the track `--out` writes (the model term of
        /// `distanceSigmaMetres`, see `SmoothedTrack.distanceModelDifferenceMetres`): the written track's length
        /// plus `modelDifferenceIncludedMetres` is about the distance (a tester found an IPIN walk's written track
        /// 74 m against 127.5 m reported, with nothing saying why).
        var modelDifferenceMetres: Double?
        /// With `--smooth`: the part of `modelDifferenceMetres` included in `distanceMetres` (see
        /// `SmoothedTrack.distanceModelDifferenceIncludedMetres`): all of it, or 0 where the trusted speed readings
        /// denied the white-part track.
        var modelDifferenceIncludedMetres: Double?
        /// With `--smooth`: the model term as it counts in `distanceSigmaMetres` (see
        /// `SmoothedTrack.distanceModelSigmaMetres`): |`modelDifferenceMetres`|, or, where the trusted speed readings
        /// denied the white-part track, the written track's disagreement with them.
        var modelSigmaMetres: Double?
        /// With `--smooth`, when measured: over the steps between speed readings the forward filter trusts, the
        /// readings' own path and the lengths of the written and the white-part tracks (see
        /// `SmoothedTrack.speedReadingsCheck`); the white-part track is denied when it exceeds the readings' path and
        /// lies farther from it than the written track by more than twice the path's σ (`readingsSigmaMetres`).
        var speedReadingsCheck: SmoothedTrack.SpeedReadingsCheck?
        /// With `--smooth`: how much the curves between velocity readings add to the straight lines between the
        /// fixes, included in `distanceMetres` (see `SmoothedTrack.curveExcessMetres`).
        var curveExcessMetres: Double?
        /// With `--smooth`: the curves between the smoothed velocities where no velocity readings say the curve,
        /// beyond the straight lines, counted in `distanceSigmaMetres` only (see
        /// `SmoothedTrack.distanceModelCurveMetres`).
        var modelCurveMetres: Double?
        /// With `--smooth`, when the course column was turned by a constant angle from the fixes' direction of
        /// travel and turned back before smoothing: that angle, degrees clockwise (see
        /// `SmoothingOptions.correctsCourseOffset`).
        var courseOffsetDegrees: Double?
        /// With `--smooth --estimate-noise`: the noise parameters the track was smoothed with.
        var noise: Noise?
        /// The stops found, in the shape `truetrack stops --json` prints.
        var stops: [StopsCommand.StopJSON]
        /// The read error that ended the input early (the summary covers the fixes before it; exit status 1).
        var error: String?
        /// The warnings printed on standard error (wrong profile, speed unit, delivery order, …), so that a batch's
        /// JSON carries them too.
        var warnings: [String] = []
    }

    /// The smoother's noise parameters, as `--json` prints them.
    struct Noise: Codable {
        /// The factor applied to every reported accuracy.
        var accuracyScale: Double
        /// The factor applied to every Doppler σ.
        var dopplerScale: Double
        /// The acceleration noise σₐ, m/s².
        var accelerationSigma: Double
        /// The acceleration noise of a step into a fix without a speed reading, m/s² (lower on driving).
        var accelerationSigmaWithoutDoppler: Double
        /// Expectation-maximisation rounds.
        var rounds: Int
        /// Whether a factor ended on the estimation's safety rail.
        var isLimited: Bool
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let inputs = arguments.positionals
        guard inputs.count > 1 else {
            try Batch.runOne(
                inputs[0], json: arguments.has("json"),
                toStandardError: reportsToStandardError(arguments)
            ) { (collect: @escaping (Summary) -> Void) in
                try run(inputs[0], arguments, collect: collect, batched: false)
            }
            return 0
        }
        try Batch.check(arguments, singleOutputs: ["out", "decisions"])
        return try Batch.run(inputs: inputs, json: arguments.has("json"), total: total) {
            (input, collect: @escaping (Summary) -> Void) in
            try run(input, arguments, collect: collect, batched: true)
        }
    }

    /// Whether the summary goes to standard error: the decisions or the track took standard output (`-`).
    static func reportsToStandardError(_ arguments: ParsedArguments) -> Bool {
        arguments.value("decisions") == "-" || arguments.value("out") == "-"
    }

    /// The text line that sums several inputs' summaries.
    static func total(_ summaries: [Summary]) -> String {
        let distance = summaries.reduce(0) { $0 + $1.distanceMetres }
        let raw = summaries.reduce(0) { $0 + $1.rawPathMetres }
        let duration = summaries.reduce(0) { $0 + $1.durationSeconds }
        let moving = summaries.reduce(0) { $0 + $1.movingSeconds }
        let stops = summaries.reduce(0) { $0 + $1.stops.count }
        let sigma = summaries.compactMap(\.distanceSigmaMetres)
        // The inputs' errors are independent: their σ add in quadrature.
        let spread =
            sigma.count == summaries.count
            ? " ± \(sigma.reduce(0) { $0 + $1 * $1 }.squareRoot().fixed(1)) m" : ""
        return
            "total of \(Terminal.count(summaries.count, "input", "inputs")): distance \(distance.fixed(1)) m\(spread), raw path \(raw.fixed(1)) m, "
            + "duration \(duration.fixed(1)) s, moving \(moving.fixed(1)) s, \(stops) stop(s)\n"
    }

    /// Processes one input, hands its summary to `collect` and prints it, as text; as JSON only when not
    /// `batched` (several inputs: ``Batch`` prints the array).
    static func run(_ input: String, _ arguments: ParsedArguments, collect: (Summary) -> Void, batched: Bool) throws {
        let (format, options) = try InputOptions.from(arguments)
        let profileChoice = try InputOptions.profileChoice(arguments, input: input)
        let profile = TrackingProfile.preset(profileChoice.kind)
        // A usage error before anything is opened or created.
        let smooth = arguments.has("smooth")
        if arguments.has("estimate-noise") && !smooth {
            throw UsageError(message: "--estimate-noise needs --smooth")
        }

        var reader: AnyFixReader
        do { reader = try AnyFixReader(path: input, format: format, options: options) } catch {
            throw CommandFailure(message: error.description)
        }
        var track: TrackOutput?
        try OutputPaths.checkDistinct(
            inputs: [input],
            outputs: [("--out", arguments.value("out")), ("--decisions", arguments.value("decisions"))])
        if let path = arguments.value("out") {
            track = try TrackOutput(
                path: path, lines: arguments.has("lines"),
                format: try arguments.value("to").map(OutputPaths.writableFormat(named:)),
                trackType: InputOptions.trackType(profileChoice))
        } else if arguments.value("to") != nil {
            throw UsageError(message: "--to is the format of the track --out writes: give --out FILE")
        } else if arguments.has("lines") {
            throw UsageError(message: "--lines shapes the track --out writes: give --out FILE.geojson")
        }
        var decisions: DecisionsOutput?
        if let path = arguments.value("decisions") {
            do { decisions = try DecisionsOutput(path: path) } catch {
                throw CommandFailure(message: error.description)
            }
        }

        var read = 0, accepted = 0
        var rejected: [RejectionReason: Int] = [:]
        var raw = 0.0
        var previous: Fix?
        var collected: [Fix] = []
        // With --smooth, the fixes (read order, from 1) rejected as out of order: left out of the smoother when the
        // times step back by a clock change (see below).
        var outOfOrderFixes: [Int] = []
        // The smoother needs every fix in memory anyway: then nothing is analysed before the end, so that every
        // wrong fix a clock jump proves is left out however far back it lies.
        var evidence = EvidenceStream(
            input: input, profile: try StopsCommand.stopProfile(arguments, kind: profile.kind),
            holdBack: smooth ? .max : EvidenceStream.defaultHoldBack)
        // Reading, tracking and diagnosing on one thread; the rest here (``TwoStages``).
        var stage = TrackingStage(
            reader: reader, tracker: Tracker(profile: profile), diagnostics: RunDiagnostics(profile: profile))
        // A write failure ends that output (a file written under a temporary name keeps what was at its path) but
        // not the run: the summary is reported with the failure, as a read error's is, and the command fails. Each
        // output's failure is named (`--out` and `--decisions` both on a full disk: a second tester saw only one).
        var outputFailure: CommandFailure?
        func failed(writing error: WriteError, fix: Int? = nil, line: Int? = nil) {
            let place = fix.map { " (while writing fix \($0) of \(input), near line \(line ?? 0))" } ?? ""
            outputFailure = CommandFailure.joining(outputFailure, CommandFailure(message: "\(error)\(place)"))
        }
        /// Runs `write` on `output` while it is open; a failure is noted and ends that output (`nil` from then on).
        /// The output is written in place (a copy would copy its buffer). (Not on the per-fix path: there it cost
        /// `process` 83 instructions per fix, with neither output open.)
        func attempt<Output>(_ output: inout Output?, _ write: (inout Output) throws(WriteError) -> Void) {
            guard output != nil else { return }
            do throws(WriteError) { try write(&output!) } catch {
                failed(writing: error)
                output = nil
            }
        }
        TwoStages.run(&stage, produce: TrackingStage.run) { (output: TrackingStage.Output) in
            read += 1
            if let p = previous {
                let step = p.haversineDistance(to: output.fix)
                if step.isFinite { raw += step }
            }
            previous = output.fix
            evidence.add(
                index: read, evidence: MotionEvidence(fix: output.fix, decision: output.decision),
                decision: output.decision)
            if smooth { collected.append(output.fix) }
            if let reason = output.decision.rejection {
                rejected[reason, default: 0] += 1
                if smooth, reason == .outOfOrder { outOfOrderFixes.append(read) }
            } else {
                accepted += 1
                if !smooth, let state = output.decision.state {
                    // The filter restarted (a gap, a relocation, a clock jump): the filtered track is
                    // broken there, a new GPX segment.
                    if output.decision.isAnchor, accepted > 1 { track?.startNewSegment() }
                    do throws(WriteError) {
                        try track?.write(
                            state, at: output.decision.timestamp, from: output.fix,
                            isAtRest: output.decision.hold == .deadband || output.decision.hold == .netDisplacement)
                    } catch {
                        failed(writing: error, fix: read, line: output.recordsRead)
                        track = nil
                    }
                }
            }
            do throws(WriteError) { try decisions?.write(output.fix, output.decision) } catch {
                failed(writing: error, fix: read, line: output.recordsRead)
                decisions = nil
            }
        }
        reader = stage.reader
        var tracker = stage.tracker
        var diagnostics = stage.diagnostics
        let readFailure = stage.failure
        // The wrong times a clock jump proved are out of everything computed after the stream: the stop
        // analysis, the smoother, the time span.
        let stops = evidence.finish(rereading: input, format: reader.format, options: options, profile: profile)
        // Times that step back once by a clock change (local times across daylight saving time's end): the fixes
        // the tracker rejected as out of order are left out of the smoother too, as the warning says. Sorted by
        // time, the two stretches interleave (a CLI tester's walk across the autumn change in Berlin: 3,183.7 m
        // ± 1,138.1 of 1,560, the forward filter 948.5 m of the first stretch).
        var leftOut = smooth ? evidence.wrongFixes : []
        if smooth, diagnostics.clockChangeBack != nil { leftOut.formUnion(outOfOrderFixes) }
        if !leftOut.isEmpty {
            collected = collected.enumerated().filter { !leftOut.contains($0.offset + 1) }.map(\.element)
        }
        var smoothed: SmoothedTrack?
        if smooth {
            var options = SmoothingOptions(profile: profile)
            options.estimatesNoise = arguments.has("estimate-noise")
            let result = WholeTrackSmoother(options: options).smooth(collected)
            smoothed = result
            attempt(&track) { track throws(WriteError) in
                var segment = result.points.first?.segment
                var previousTime: Timestamp?
                for point in result.points where point.timestamp != previousTime {
                    // The smoother splits the track at gaps: one GPX segment each. (Two fixes of the same time, a
                    // duplicate delivery, are one point of the track: the first is written.)
                    if point.segment != segment { track.startNewSegment() }
                    segment = point.segment
                    previousTime = point.timestamp
                    try track.write(point, from: collected[point.fixIndex])
                }
            }
        }
        // A run that fails without a fix read (or, for the track, written) leaves no empty output behind, as
        // `convert` does; what a read error cut short keeps what came before it.
        let fails = readFailure != nil || read == 0
        if fails, track?.written == 0 { track?.discard() }
        if fails, read == 0 { decisions?.discard() }
        attempt(&track) { track throws(WriteError) in try track.finish() }
        attempt(&decisions) { decisions throws(WriteError) in try decisions.finish() }

        // (A departure still held at the end counts when the track is away from the rest it left.)
        _ = tracker.finishTrack()
        diagnostics.settleOverrules(tracker.overrules)
        let d = tracker.distance
        var rejectedByName: [String: Int] = [:]
        for reason in RejectionReason.allCases { rejectedByName[reason.rawValue] = rejected[reason] ?? 0 }
        var summary = Summary(
            input: input, profile: profile.kind.rawValue, profileSource: profileChoice.source,
            distanceMetres: Terminal.millimetres(smoothed?.distanceMetres ?? d.totalMetres),
            rawPathMetres: Terminal.millimetres(raw),
            durationSeconds: evidence.durationSeconds(of: stops),
            fixes: .init(read: read, accepted: accepted, rejected: rejectedByName),
            distanceBySourceMetres: [
                SpeedSource.doppler.rawValue: Terminal.millimetres(d.dopplerMetres),
                SpeedSource.filtered.rawValue: Terminal.millimetres(d.filteredMetres),
                SpeedSource.derived.rawValue: Terminal.millimetres(d.derivedMetres),
            ],
            skippedRecords: reader.report.unusableRecords,
            movingSeconds: 0, distanceSigmaMetres: smoothed.map { Terminal.millimetres($0.distanceSigmaMetres) },
            stillLengthMetres: smoothed.map { Terminal.millimetres($0.stillLengthMetres) },
            vehicleLengthMetres: smoothed.map { Terminal.millimetres($0.vehicleLengthMetres) },
            modelDifferenceMetres: smoothed.map { Terminal.millimetres($0.distanceModelDifferenceMetres) },
            modelDifferenceIncludedMetres: smoothed.map {
                Terminal.millimetres($0.distanceModelDifferenceIncludedMetres)
            },
            modelSigmaMetres: smoothed.map { Terminal.millimetres($0.distanceModelSigmaMetres) },
            speedReadingsCheck: smoothed?.speedReadingsCheck.map { check in
                SmoothedTrack.SpeedReadingsCheck(
                    readingsMetres: Terminal.millimetres(check.readingsMetres),
                    readingsSigmaMetres: Terminal.millimetres(check.readingsSigmaMetres),
                    reportedTrackMetres: Terminal.millimetres(check.reportedTrackMetres),
                    whitePartTrackMetres: Terminal.millimetres(check.whitePartTrackMetres))
            },
            curveExcessMetres: smoothed.map { Terminal.millimetres($0.curveExcessMetres) },
            modelCurveMetres: smoothed.map { Terminal.millimetres($0.distanceModelCurveMetres) },
            courseOffsetDegrees: smoothed.flatMap { s in
                s.courseOffsetDegrees != 0 ? TrackOutput.rounded(s.courseOffsetDegrees, to: 0.01) : nil
            },
            noise: smoothed.flatMap { s in
                s.noise.isEstimated
                    ? Noise(
                        accuracyScale: s.noise.accuracyScale, dopplerScale: s.noise.dopplerScale,
                        accelerationSigma: s.noise.accelerationSigma,
                        accelerationSigmaWithoutDoppler: s.noise.accelerationSigmaWithoutDoppler,
                        rounds: s.noise.rounds,
                        isLimited: s.noise.isLimited)
                    : nil
            }, stops: [])
        summary.movingSeconds = Terminal.milliseconds(stops.movingSeconds)
        if smoothed != nil { summary.forwardDistanceMetres = Terminal.millimetres(d.totalMetres) }
        if reader.report.unreadableFieldCount > 0 { summary.fieldsReadAsMissing = reader.report.unreadableFieldCount }
        for (reason, count) in reader.report.skipped where !reason.isNonFixRecord && count > 0 {
            summary.skippedByReason[reason.rawValue] = count
        }
        // The failure the command ends with, if any: an output that could not be written, the read error that cut
        // the input short, or no fix at all.
        let readEnding =
            readFailure.map {
                CommandFailure(
                    message:
                        "\($0)\(Terminal.afterReadError(read, "fix", "fixes", were: "processed", hint: $0.lenientHint(input: input, isLenient: options.lenient)))"
                )
            }
            ?? InputOptions.noFixes(reader.report, format: reader.format, options: options)
        let failure = CommandFailure.joining(outputFailure, readEnding)
        summary.error = failure?.message
        summary.stops = stops.stops.map(StopsCommand.StopJSON.init)
        // With the decisions or the track on standard output ('-'), the summary goes to standard error so that
        // stdout stays pure CSV.
        var warnings = diagnostics.warnings(
            profile: profile, reader: reader, input: input, rawPathMetres: raw, smoothed: smooth,
            tracker: tracker, timeSpan: evidence.timeSpan)
        if !smooth, let warning = diagnostics.silenceWarning(profile: profile, input: input) {
            warnings.append(warning)
        }
        if let smoothed,
            let warning = Self.sparseSmoothingWarning(
                smoothed, fixes: collected.count, forwardMetres: d.totalMetres, profile: profile, input: input,
                hasSpeedReadings: collected.contains { $0.speedMetresPerSecond != nil })
        {
            warnings.append(warning)
        }
        // Asked for and not estimated (too short a track): said, since the summary then has no `noise` (a smoother
        // tester's 11 fixes read without a word).
        if let smoothed, arguments.has("estimate-noise"), !smoothed.noise.isEstimated, !collected.isEmpty {
            warnings.append(
                "warning: the noise of \(input) was not estimated (--estimate-noise): the smoother needs \(NoiseEstimate.minimumStates) "
                    + "fix times or more; the \(profile.kind.rawValue) profile's noise was used\n")
        }
        warnings += evidence.reportedWarnings(duration: true)
        if let track, track.written > 0, profileChoice.source != "option",
            let warning = InputOptions.lostActivityWarning(
                declared: profileChoice.declared, writtenAs: track.format, to: arguments.value("out") ?? "-",
                input: input)
        {
            warnings.append(warning)
        }
        summary.warnings = warnings.map(Terminal.warningText)
        collect(summary)
        // (A text summary of nothing, before an error that let no fix through, says nothing.)
        let saysSomething = read > 0 || failure == nil || arguments.has("json")
        let toStandardError = reportsToStandardError(arguments)
        if !batched || !arguments.has("json"), saysSomething {
            let summaryText = arguments.has("json") ? Terminal.json(summary) : text(summary)
            if toStandardError { Terminal.error(summaryText) } else { Terminal.out(summaryText) }
        }
        // With the JSON summary on standard error, the warnings and the error are in it, and printed beside it
        // they left standard error unparseable (a batch tester's `--json --out -`, a reviewer's failing run).
        let jsonOnStandardError = arguments.has("json") && !batched && toStandardError
        if !jsonOnStandardError {
            for warning in warnings { Terminal.error(warning) }
        }
        if var failure {
            failure.isReported = jsonOnStandardError
            throw failure
        }
    }

    /// A warning when the whole-track smoother split the track at most of its steps (each longer than the
    /// profile's reset gap: a fleet tracker every 30 s on driving, a logger every minute on walking). Across each
    /// split it counts the chord, so its distance is about the naive sum of the fixes: it cuts every corner, and
    /// follows every multipath jump its speed readings do not show it stood through, where the forward tracker's
    /// sparse-step rules integrate the speed readings and leave out excursions. On the generated fleet set
    /// (`tools/analysis/fleet/fleet_smooth.py`) working days every 30 / 60 / 120 s with a column of zeros read
    /// 5.6 / 11.7 / 16.9 km summed |error| of 100.8 smoothed, 13.8 / 28.8 / 40.3 forward; a van parked 8 h every
    /// 30 s with 5 % multipath and no speed column 15,530 m smoothed (its scatter held by three fixes at rest, its
    /// jumps not), 1,662 m forward. (Splitting at three of the
    /// logger's own steps instead, so that the model spans them, was tried: on a fleet tester's van every 30 / 60
    /// / 120 s 14,405 / 12,372 / 10,559 m against 14,748 / 12,565 / 10,661 m (truth 17,462), σ 43 m on a highway
    /// 717 m short: not adopted. Tried again, centred and bounded to twice the gap, and reverted after review: a
    /// placeholder column of zeros then read 0 m; docs/ARCHITECTURE.md, "A sparse logger's rhythm kept in one
    /// problem: tried, reverted".)
    static func sparseSmoothingWarning(
        _ smoothed: SmoothedTrack, fixes: Int, forwardMetres: Double, profile: TrackingProfile, input: String,
        hasSpeedReadings: Bool
    ) -> String? {
        guard fixes >= 4, 2 * smoothed.segmentCount > fixes else { return nil }
        return "warning: \(input): the whole-track smoother split the track at \(smoothed.segmentCount - 1) of its "
            + "\(fixes - 1) steps (each longer than the \(profile.filterResetGapSeconds.fixed(0)) s the model spans), "
            + "so its distance is about the sum of the chords between the fixes: corners cut, and multipath "
            + "included where no speed reading says it stood; without --smooth the tracker counts "
            + "\(forwardMetres.fixed(1)) m "
            + (hasSpeedReadings
                ? "from the speed readings and chains of steps\n"
                : "from chains of steps, leaving out excursions (the fixes carry no speed)\n")
    }

    static func text(_ s: Summary) -> String {
        let declared = InputOptions.declaredNote(s.profileSource)
        var t = "\(s.input) (\(s.profile) profile\(declared.isEmpty ? "" : "," + declared))\n"
        t += "  distance:       \(s.distanceMetres.fixed(1)) m"
        if let sigma = s.distanceSigmaMetres {
            t += " ± \(sigma.fixed(1)) m (1σ, whole-track smoother)\n"
            if let rides = s.vehicleLengthMetres, rides > 0 {
                t += "  left out:       \(rides.fixed(1)) m moved like a vehicle (rides are not \(s.profile))\n"
            }
            if let n = s.noise {
                t +=
                    "  noise:          accuracy × \(n.accuracyScale.fixed(3)), Doppler × \(n.dopplerScale.fixed(3)), "
                    + "σₐ \(n.accelerationSigma.fixed(2)) m/s²"
                    + (n.accelerationSigmaWithoutDoppler < n.accelerationSigma
                        ? " (\(n.accelerationSigmaWithoutDoppler.fixed(2)) without Doppler)" : "")
                    + " (estimated, \(n.rounds) rounds"
                    + (n.isLimited ? ", on the safety rail" : "") + ")\n"
            }
            t += "  forward filter: \(s.distanceBySourceMetres.values.reduce(0, +).fixed(1)) m"
        }
        t += " (doppler \(s.distanceBySourceMetres["doppler", default: 0].fixed(1)) m,"
        t += " filtered \(s.distanceBySourceMetres["filtered", default: 0].fixed(1)) m)\n"
        t += "  raw path:       \(s.rawPathMetres.fixed(1)) m (naive sum of consecutive fixes)\n"
        t +=
            "  duration:       \(s.durationSeconds.fixed(1)) s, moving \(s.movingSeconds.fixed(1)) s, \(s.stops.count) stop(s)\n"
        t += "  fixes:          \(s.fixes.read) read, \(s.fixes.accepted) accepted"
        let rejected = s.fixes.rejected.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        if !rejected.isEmpty { t += ", rejected: " + rejected.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
        t += "\n"
        if s.skippedRecords > 0 {
            let reasons = s.skippedByReason.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            t += "  skipped records: \(s.skippedRecords)\(reasons.isEmpty ? "" : " (\(reasons))")\n"
        }
        if let count = s.fieldsReadAsMissing { t += "  fields read as missing: \(count) (unreadable, --lenient)\n" }
        return t
    }
}

/// The filtered track writer: `timestamp,latitude,longitude,…` CSV, or any other writable format by extension.
struct TrackOutput {
    enum Writer {
        case csv(CSVWriter)
        case other(AnyFixWriter)
    }
    var writer: Writer
    /// Where the writer writes (``discard()``).
    let sink: ByteSink
    /// The format written.
    let format: FixFormat
    /// How many fixes were written.
    private(set) var written = 0

    /// - Parameters:
    ///   - lines: GeoJSON as LineStrings per segment (see ``GeoJSONWriter/Geometry/lineString``).
    ///   - format: the format to write (`--to`); `nil`: by `path`'s extension.
    ///   - trackType: the activity a GPX declares (``InputOptions/trackType(_:)``); `nil`: none.
    init(path: String, lines: Bool = false, format given: FixFormat? = nil, trackType: String? = nil) throws {
        guard let format = given ?? OutputPaths.format(of: path), FixFormat.writable.contains(format) else {
            throw UsageError(
                message:
                    "cannot tell the track format from '\(path)' (use .csv, .geojson, .gpx or .jsonl, or give --to)")
        }
        if lines, format != .geojson {
            throw UsageError(message: "--lines is for GeoJSON: give --out a .geojson file, got '\(path)'")
        }
        self.format = format
        do {
            sink = try ByteSink(path: path)
            if format == .csv {
                writer = .csv(CSVWriter(sink: sink))
            } else {
                writer = .other(
                    try AnyFixWriter(
                        sink: sink, format: format, geoJSONGeometry: lines ? .lineString : .points,
                        trackType: trackType))
            }
        } catch { throw CommandFailure(message: error.description) }
    }

    /// Gives the output up: the path is left as it was (see ``ByteSink/discard()``). For a run that read no fix
    /// and fails: an empty track beside the error read as an empty layer in a batch tester's map.
    func discard() { sink.discard() }

    /// Writes the filter's state after an accepted fix: filtered position, the 68 % radius of its
    /// uncertainty, the filtered speed and course, each of the last three only where `source` carried one (an
    /// accuracy, a speed reading, a course): the filter's speed or its assumed 30 m accuracy written where the fix
    /// had none were read back as a reading and a stated accuracy, and a sparse hike's track read 2,512.5 m of
    /// its 5,437.6.
    /// The measurements the filter does not change (altitude, provider, satellites, mocked flag, activity) are
    /// carried over from `source`, the fix the state was computed from.
    ///
    /// - Parameter isAtRest: the tracker counted nothing because it judged the device at rest (below the
    ///   deadband, or the net-displacement gate closed): the speed written is 0, without a course. The filtered
    ///   velocity there is the fixes' wander (0.3 m/s on average, up to 2.5, during the demo walk's stop), and
    ///   a second `process` of the written track took it for a Doppler speed and counted it: 608 → 644 m.
    mutating func write(_ state: FilteredState, at time: Timestamp, from source: Fix, isAtRest: Bool = false)
        throws(WriteError)
    {
        // Written to the precision they carry (see ``rounded(_:to:)``), not to the last bit of a Double.
        let radius = Self.rounded(state.positionSigmaMetres * MeasurementNoise.radius68PerSigma, to: 0.01)
        let speed: Double =
            if source.speedMetresPerSecond == nil { .nan } else if isAtRest { 0 } else {
                Self.rounded(state.speedMetresPerSecond, to: 0.01)
            }
        guard
            var fix = try? Fix(
                timestamp: time, latitude: Self.rounded(state.latitude, to: 1e-7),
                longitude: Self.rounded(state.longitude, to: 1e-7),
                horizontalAccuracyMetres: source.horizontalAccuracyMetres != nil && radius.isFinite && radius > 0
                    ? radius : nil,
                speedMetresPerSecond: speed.isFinite ? speed : nil,
                courseDegrees: source.courseDegrees != nil && speed > 0 && speed.isFinite
                    ? Self.rounded(state.courseDegrees, to: 0.1).truncatingRemainder(dividingBy: 360) : nil,
                provider: source.provider, satellitesUsed: source.satellitesUsed, isMocked: source.isMocked,
                activity: source.activity)
        else { return }
        fix.altitudeMetres = source.altitudeMetres
        fix.verticalAccuracyMetres = source.verticalAccuracyMetres
        switch writer {
        case .csv(var w): try w.write(fix); writer = .csv(w)
        case .other(var w): try w.write(fix); writer = .other(w)
        }
        written += 1
    }

    /// `value` to the nearest multiple of `step`: the filtered and smoothed track is written with latitude and
    /// longitude to 10⁻⁷ degrees (within 0.6 cm, far inside any filter's uncertainty), accuracy and speed to
    /// 0.01 and course to 0.1°. Written to the last bit of a Double (17 digits) a smoothed GPX of 3 M fixes was
    /// larger than its input (a tester: 934 MB from 810 MB).
    static func rounded(_ value: Double, to step: Double) -> Double {
        guard value.isFinite else { return value }
        // Dividing by the inverse of a power of ten keeps 49.4521084 exact where multiplying by 1e-7 would not.
        let inverse = (1 / step).rounded()
        return (value * inverse).rounded() / inverse
    }

    /// Writes one point of the whole-track smoother: smoothed position, its 68 % radius, smoothed velocity.
    mutating func write(_ point: SmoothedPoint, from source: Fix) throws(WriteError) {
        let state = FilteredState(
            latitude: point.latitude, longitude: point.longitude,
            velocityEastMetresPerSecond: point.velocityEastMetresPerSecond,
            velocityNorthMetresPerSecond: point.velocityNorthMetresPerSecond,
            positionSigmaMetres: point.positionSigmaMetres, velocitySigmaMetresPerSecond: .nan)
        try write(state, at: point.timestamp, from: source)
    }

    /// Starts a new segment (GPX) before the next point.
    mutating func startNewSegment() {
        if case .other(var w) = writer {
            w.startNewSegment()
            writer = .other(w)
        }
    }

    mutating func finish() throws(WriteError) {
        switch writer {
        case .csv(var w): try w.finish(); writer = .csv(w)
        case .other(var w): try w.finish(); writer = .other(w)
        }
    }
}

/// The `--decisions` CSV: one row per input fix.
struct DecisionsOutput {
    static let header =
        "timestamp,latitude,longitude,decision,reason,accuracy_m,accuracy_assumed,gate_speed_mps,"
        + "gate_speed_source,chi_square,anchor,speed_mps,speed_source,doppler_trusted,net_displacement_m,"
        + "net_threshold_m,motion,hold,increment_m,total_m,filtered_latitude,filtered_longitude,chord_m"
    let sink: ByteSink

    init(path: String) throws(WriteError) {
        sink = try ByteSink(path: path)
        sink.append(Self.header + "\n")
    }

    func write(_ fix: Fix, _ d: FixDecision) throws(WriteError) {
        // (One record: a 32-byte time, 15 numbers of at most 24 bytes and 8 words of at most 16: under 800 bytes.)
        sink.appendRecord { r in
            func number(_ v: Double?) {
                r.put(UInt8(ascii: ","))
                if let v, v.isFinite { r.put(v) }
            }
            func word(_ s: String?) {
                r.put(UInt8(ascii: ","))
                if let s { r.put(s) }
            }
            r.put(d.timestamp)
            number(fix.latitude)
            number(fix.longitude)
            word(d.isAccepted ? "accepted" : "rejected")
            word(d.rejection?.rawValue)
            number(d.accuracyMetres > 0 ? d.accuracyMetres : nil)
            word(d.isAccuracyAssumed ? "true" : "false")
            number(d.gateSpeedMetresPerSecond)
            word(d.gateSpeedSource?.rawValue)
            number(d.innovationChiSquare)
            word(d.isAnchor ? "true" : "false")
            number(d.speedMetresPerSecond)
            word(d.speedSource?.rawValue)
            word(d.isDopplerTrusted ? "true" : "false")
            number(d.netDisplacementMetres)
            number(d.netDisplacementThresholdMetres)
            word(d.motion.rawValue)
            word(d.hold.rawValue)
            number(d.distanceIncrementMetres)
            number(d.totalDistanceMetres)
            number(d.state?.latitude)
            number(d.state?.longitude)
            number(d.chordMetres)
            r.put(UInt8(0x0A))
        }
        try sink.flushIfNeeded()
    }

    func finish() throws(WriteError) { try sink.close() }

    /// Gives the output up, the path left as it was (see ``ByteSink/discard()``).
    func discard() { sink.discard() }
}
