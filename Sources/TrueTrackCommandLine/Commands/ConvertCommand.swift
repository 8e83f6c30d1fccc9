import TrueTrackCore
import TrueTrackIO

/// `truetrack convert INPUT OUTPUT [--from F] [--to F] [--sort] [--week-rollover]`: rewrite fixes in another
/// format.
enum ConvertCommand {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert fixes between formats (reads any supported format; writes csv, gpx, geojson, jsonl).",
        positionals: ["INPUT", "OUTPUT"], minimumPositionals: 2, maximumPositionals: 2,
        options: [
            OptionSpec(name: "from", valueName: "FORMAT", help: "Input format (same as --format); default: sniffed."),
            OptionSpec(
                name: "to", valueName: "FORMAT",
                help: "Output format (csv, gpx, geojson, jsonl); default: from OUTPUT's extension, CSV for '-'."),
            InputOptions.linesSpec("the fixes"),
            OptionSpec(
                name: "sort",
                help: "Write the fixes in time order, oldest first (stable): for a file written newest first or "
                    + "shuffled, which process and stops read as out of order. Holds the fixes in memory."),
            OptionSpec(
                name: "week-rollover",
                help: "Re-date the fixes of a GPS week-number rollover: where the times jump by 1024 weeks (or "
                    + "2048) between fixes read one after the other, the fixes on one side move by whole periods "
                    + "into the latest era that is not in the future (early fixes forward, a fix dated ahead "
                    + "back; before --sort). Holds the fixes in memory."),
        ] + InputOptions.specs,
        discussion: """
            INPUT or OUTPUT may be '-' for standard input/output. A damaged input is converted up to the damage,
            then the error is reported (exit 1): nothing read before it is lost. The output file appears only
            when complete (written under a temporary name, then renamed).
            """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let (input, output) = (arguments.positionals[0], arguments.positionals[1])
        if arguments.value("from") != nil && arguments.value("format") != nil {
            throw UsageError(message: "give the input format once: --from or --format")
        }
        let (from, options) = try InputOptions.from(
            arguments, formatOption: arguments.value("from") != nil ? "from" : "format", inputs: [input])
        let to: FixFormat
        let guessed = OutputPaths.format(of: output)
        if let name = arguments.value("to") {
            to = try OutputPaths.writableFormat(named: name)
        } else if let guessed, FixFormat.writable.contains(guessed) {
            to = guessed
        } else {
            // (A format TrueTrack reads but does not write is named as such: `o.kml` was "cannot tell".)
            let writable = FixFormat.writable.map(\.rawValue).sorted().joined(separator: ", ")
            if let guessed {
                throw UsageError(
                    message: "'\(output)': TrueTrack reads \(guessed.rawValue) but does not write it; it writes "
                        + "\(writable) (by the output's extension, or --to)")
            }
            throw UsageError(message: "cannot tell the output format from '\(output)': give --to (\(writable))")
        }
        if arguments.has("lines"), to != .geojson {
            throw UsageError(message: "--lines is for GeoJSON output, not \(to.rawValue)")
        }
        try OutputPaths.checkDistinct(inputs: [input], outputs: [("the output", output)])
        var reader: AnyFixReader
        do {
            reader = try AnyFixReader(path: input, format: from, options: options)
        } catch {
            throw CommandFailure(message: error.description)
        }
        // The first fix is read before the output is opened: whether a CSV or JSON Lines input numbers its
        // segments shows only there (a failure to read it is reported as any later one, with nothing written).
        let first = Result { () throws(ReadError) -> Fix? in try reader.next() }
        var writer: AnyFixWriter
        let sink: ByteSink
        let declared = DeclaredActivity.type(ofFileAt: input)
        do {
            sink = try ByteSink(path: output)
            // The activity the input declares stays with the track (a converted ride still reads as a ride).
            // Segment breaks stay too (a GPX's or TCX's, a CSV's or JSON Lines' `segment`): as `<trkseg>`s,
            // LineStrings, or a CSV's and JSON Lines' `segment` (they were lost through CSV and JSON Lines before).
            writer = try AnyFixWriter(
                sink: sink, format: to, geoJSONGeometry: arguments.has("lines") ? .lineString : .points,
                trackType: declared,
                keepsSegments: [.gpx, .tcx, .kml].contains(reader.format) || reader.segmentIndex != nil)
        } catch {
            throw CommandFailure(message: error.description)
        }
        var count = 0
        var readFailure: ReadError?
        var segment: Int?
        let sorts = arguments.has("sort")
        let redates = arguments.has("week-rollover")
        var held: [(fix: Fix, segment: Int?)] = []
        func write(_ fix: Fix, segment index: Int?) throws(WriteError) {
            // A segment break (a pause, a lost signal) in the input starts a new segment in the output.
            if let index {
                if let previous = segment, index != previous { writer.startNewSegment() }
                segment = index
            }
            try writer.write(fix)
            count += 1
        }
        // What a failed write left at the output: a file written under a temporary name is untouched.
        func leftBehind(_ writtenThrough: String) -> String {
            sink.isWrittenAtomically ? "nothing was written: \(output) is as it was" : writtenThrough
        }
        // Reading on one thread, writing on this one (``TwoStages``).
        var stage = ReadingStage(reader: reader)
        switch first {
        case .success(let fix): stage.next = fix
        case .failure(let error): stage.failure = error
        }
        try TwoStages.run(&stage, produce: ReadingStage.run) { (read: ReadingStage.Output) throws(CommandFailure) in
            if sorts || redates {
                held.append((read.fix, read.segment))
                return
            }
            do throws(WriteError) { try write(read.fix, segment: read.segment) } catch {
                // Name the input record too: the output cannot say which fix it could not hold.
                throw CommandFailure(
                    message:
                        "\(error) (fix \(count + 1) of \(input), near line \(read.recordsRead); "
                        + "\(leftBehind("\(Terminal.before(count, "fix", "fixes", were: "written"))")))"
                )
            }
        }
        reader = stage.reader
        readFailure = stage.failure
        var redated = 0
        if redates {
            let shifts = GPSWeekRollover.correctingShifts(held.lazy.map(\.fix.timestamp), now: Terminal.now())
            for i in held.indices where shifts[i] != 0 {
                let milliseconds =
                    held[i].fix.timestamp.millisecondsSince1970
                    + Int64(shifts[i]) * GPSWeekRollover.periodMilliseconds
                do {
                    held[i].fix = try held[i].fix.retimed(to: Timestamp(millisecondsSince1970: milliseconds))
                } catch {
                    throw CommandFailure(
                        message:
                            "fix \(i + 1) of \(input) cannot be re-dated by \(GPSWeekRollover.weeks(shifts[i])): \(error); nothing was "
                            + "written")
                }
                redated += 1
            }
        }
        if sorts || redates {
            // Sorted, stable: fixes with equal times keep their order. A segment break is kept where the sorted
            // track reaches a segment later than any before (a pause between segments in time); segments that
            // overlap in time merge (alternating, they gave one segment per point). In read order the segments
            // only grow, and every break is kept.
            let order = sorts ? held.indicesInTimeOrder(by: \.fix.timestamp) : Array(held.indices)
            var latest = Int.min
            do {
                for i in order {
                    let index = held[i].segment.map { max($0, latest) }
                    if let index { latest = index }
                    try write(held[i].fix, segment: index)
                }
            } catch {
                throw CommandFailure(
                    message: "\(error) (fix \(count + 1) of \(input)\(sorts ? " in time order" : ""); "
                        + "\(leftBehind("output incomplete")))")
            }
        }
        // An input without a single fix leaves no output behind (an empty GPX after "no fixes" misled a tester).
        if count == 0 { sink.discard() }
        do { try writer.finish() } catch {
            throw CommandFailure(
                message: "\(error) (\(count) fixes read from \(input); \(leftBehind("the output is incomplete")))")
        }
        let report = reader.report
        // (Without a fix nothing is written: "converted 0 fixes" before the error read as a contradiction.)
        var note =
            count == 0
            ? "nothing converted from \(reader.format): no output written"
            : "converted \(Terminal.count(count, "fix", "fixes")) from \(reader.format) to \(to)"
        if report.unusableRecords > 0 {
            note += " (\(report.unusableRecords) record\(report.unusableRecords == 1 ? "" : "s") skipped)"
        }
        if report.localTimesConverted > 0, let zone = reader.localTimeZone {
            note += "; \(Terminal.count(report.localTimesConverted, "time", "times")) read as local times in \(zone)"
        }
        if redates {
            note +=
                redated > 0
                ? "; \(Terminal.count(redated, "fix", "fixes")) re-dated by whole periods of 1024 weeks (GPS week rollover)"
                : "; no jump of 1024 weeks between fixes, none re-dated"
        }
        Terminal.error(note + "\n")
        if count > 0,
            let warning = InputOptions.lostActivityWarning(
                declared: declared, writtenAs: to, to: output, input: input)
        {
            Terminal.error(warning)
        }
        if let warning = InputOptions.localTimeWarning(reader, input: input) { Terminal.error(warning) }
        for error in report.errors.prefix(5) { Terminal.error("  skipped: \(error)\n") }
        for line in InputOptions.unreadableFieldLines(report, input: input) { Terminal.error(line) }
        if let readFailure {
            throw CommandFailure(
                message:
                    "\(readFailure)\(Terminal.afterReadError(count, "fix", "fixes", were: "written", hint: readFailure.lenientHint(input: input, isLenient: options.lenient)))"
            )
        }
        if let failure = InputOptions.noFixes(report, format: reader.format, options: options) { throw failure }
        return 0
    }
}

extension ConvertCommand {
    /// The first of `convert`'s two stages (``TwoStages``): reads the input, handing on each fix with the segment it
    /// came from; the writing is the second's.
    struct ReadingStage {
        /// A fix read, its segment (``AnyFixReader/segmentIndex``) and how many records the reader had read then
        /// (where a failure to write it is reported).
        struct Output {
            let fix: Fix
            let segment: Int?
            let recordsRead: Int
        }

        var reader: AnyFixReader
        /// The fix to hand on next (the first is read before the output is opened).
        var next: Fix?
        /// The read error that ended the input, if one did.
        var failure: ReadError?

        /// Hands on ``next`` and every later fix through `emit` until it returns `false` or the input ends.
        static func run(_ stage: inout ReadingStage, emit: (Output) -> Bool) {
            do {
                while let fix = stage.next {
                    let read = Output(
                        fix: fix, segment: stage.reader.segmentIndex, recordsRead: stage.reader.recordsRead)
                    guard emit(read) else { return }
                    stage.next = try stage.reader.next()
                }
            } catch {
                stage.failure = error
            }
        }
    }
}
