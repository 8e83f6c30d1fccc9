import Foundation
import TrueTrackCore
import TrueTrackEvaluation
import TrueTrackIO

/// `truetrack bench`: accuracy of the pipeline on every recording of a data-set manifest, against its
/// reference distance and ground truth, with a regression check against a checked-in baseline.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench",
        abstract: "Measure accuracy on the recorded data sets (distance, position, phantom distance, stops).",
        positionals: [], minimumPositionals: 0, maximumPositionals: 0,
        options: [
            OptionSpec(
                name: "datasets", valueName: "DIR",
                help: "Data-set folder (default: $TRUETRACK_DATASETS, else ../shared/datasets)."),
            OptionSpec(
                name: "json", valueName: "FILE",
                help: "Also write the figures as JSON to FILE ('-': stdout; unlike info/datasets --json, takes a file)."
            ),
            OptionSpec(name: "markdown", valueName: "FILE", help: "Also write the tables as a Markdown report."),
            OptionSpec(
                name: "baseline", valueName: "FILE",
                help: "Compare with this accuracy baseline; exit 1 on a regression beyond its tolerance. The file is "
                    + "read strictly and first: a key given twice, a misspelt tolerance category or a bad value stops "
                    + "the run before any recording is evaluated, and no --json or --markdown is written."),
            OptionSpec(
                name: "update-baseline",
                help: "Write the figures into the --baseline file (after showing what changed against it)."),
            OptionSpec(
                name: "only", valueName: "ID", help: "Evaluate only this recording (repeatable, or comma-separated).",
                repeatable: true),
            OptionSpec(
                name: "export-csv", valueName: "DIR",
                help: "Also write each recording's fixes, as read, to DIR/<id>.csv (for the peer comparison)."),
            OptionSpec(
                name: "profile", valueName: "NAME",
                help:
                    "Force one profile (\(EvaluationProfile.allCases.map(\.rawValue).joined(separator: ", "))) on every recording."
            ),
        ],
        discussion: """
            Every recording of MANIFEST.json is read as its entry says and run through the Tracker with the
            profile of its activity's category: its first word (its letters: drive-highway is drive), a synonym
            counting as its category, which also picks the baseline's tolerances (a "driving" entry is a drive):
              \(EvaluationProfile.categoryRules.joined(separator: "\n  "))
            Reported beside TrueTrack's distance: the naive sum of segments over every fix as read, and the
            Doppler-only integral (speed × time step ≤ 10 s, speeds < 0.3 m/s as 0). A ground truth that is a
            trajectory covering the fixes' span (≥ 60 s) gives the reference distance, its ellipsoidal length,
            instead of reference_distance_m (a note says when the two differ by more than 1 %). Position errors
            compare the filtered positions of accepted fixes with the truth interpolated at each fix's time (UTC;
            GPS-time truth converted with the leap-second table; IPIN on the app clock; fixes in truth gaps > 2 s
            left out). Stationary recordings report phantom metres per 10 minutes. Exit status 1 when the manifest
            lists no recording, when a recording fails to load or, with --baseline, when a figure is worse than the
            baseline beyond its tolerance, a recording reads another number of fixes or truth samples, a baselined
            recording is missing from the run (without --only) or cannot be read, its category or the profile it
            runs with differs from the baseline's (a --profile naming each compared recording's own is comparable),
            or nothing was compared; with --update-baseline the figures are recorded whatever they compare to, and
            the exit status is 1 only when a recording fails to load or a ground truth measured nothing it
            should (empty, damaged, or holding no time of the fixes: not recorded, or the baseline would gate
            none of its figures). Exit status 2: a usage error. CI=true changes nothing
            here (the Makefile's test target reads it). Warned about on standard error: unknown manifest keys and
            formats, a truth that holds no time of the fixes (another clock or time zone?), a damaged data file
            that lost fixes the manifest lists, and a recording that moved like a vehicle under its profile (an
            activity naming no category of what it was).
            """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let started = Date()
        // The baseline is one of the files: a report written over it replaced the baseline (a CI tester's
        // `--baseline b.json --json b.json`; the next run could not read it).
        try OutputPaths.checkDistinct(
            inputs: [],
            outputs: [
                ("--baseline", arguments.value("baseline")), ("--json", arguments.value("json")),
                ("--markdown", arguments.value("markdown")),
            ])
        let location = try datasetsLocation(arguments)
        let folder = location.folder
        let manifest: DatasetManifest
        do {
            manifest = try DatasetManifest.load(location)
        } catch {
            throw CommandFailure(message: error.description)
        }
        var profile: EvaluationProfile?
        if let name = arguments.value("profile") {
            guard let parsed = EvaluationProfile(rawValue: name) else {
                throw UsageError(
                    message:
                        "unknown profile '\(name)' (expected one of: \(EvaluationProfile.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            profile = parsed
        }
        if arguments.has("update-baseline"), arguments.value("baseline") == nil {
            throw UsageError(message: "--update-baseline needs --baseline FILE")
        }
        if arguments.all("only").contains(where: { $0.split(separator: ",").isEmpty }) {
            throw UsageError(message: "--only needs a recording id (or several, separated by commas)")
        }
        let only = Set(arguments.all("only").flatMap { $0.split(separator: ",").map(String.init) })
        let known = Set(manifest.recordings.map(\.id))
        if let unknown = only.subtracting(known).sorted().first {
            throw UsageError(message: "no recording '\(unknown)' in \(folder)/MANIFEST.json")
        }
        let selected = manifest.recordings.filter { only.isEmpty || only.contains($0.id) }

        for warning in manifest.warnings { Terminal.error("warning: \(manifest.path): \(warning)\n") }
        // The baseline is read and checked before anything is evaluated, and a run that stops on it writes no
        // report (as truetrack-benchmarks): a JSON without its `baseline` key read as a run without --baseline (a
        // CI tester's truncated baseline), and the error came after the whole report.
        let loaded = try loadBaseline(arguments, manifest: manifest, profile: profile, limited: !only.isEmpty)
        if let directory = arguments.value("export-csv") { try createExportFolder(directory) }
        let results = selected.map {
            Evaluator.evaluate($0, manifest: manifest, profile: profile, smoothing: .estimatedNoise)
        }
        var report = BenchReport(
            datasets: folder, profileOverride: profile, recordings: results,
            elapsedSeconds: Date().timeIntervalSince(started))

        var text =
            "truetrack bench: \(results.count) recordings in \(folder)/MANIFEST.json"
            + (profile.map { " (profile forced: \($0.rawValue))" } ?? "") + "\n\n"
        text += BenchTables.render(report, style: .terminal)
        let remarks = manifestRemarks(selected, results: results)
        if !remarks.isEmpty {
            text += "Notes on how the manifest was read\n" + remarks.map { "  note: \($0)\n" }.joined() + "\n"
        }
        text += String(format: "evaluated in %.1f s\n", report.elapsedSeconds)

        var status: Int32 = 0
        for r in results where r.status == .error {
            Terminal.error("Error: \(r.id): \(r.note ?? "")\n")
            status = 1
        }
        // A damaged or empty truth file changes what is measured: said on standard error too. A truth of a kind
        // the bench does not read (a coordinate in a README) is no failure: the report's truth section says so.
        for r in results where r.status == .ok {
            if let truth = r.truth, truth.isFaulty, let summary = truth.summary {
                Terminal.error("warning: \(r.id): \(summary)\n")
            }
        }
        // A damaged data file that lost fixes the manifest lists (cut short, a bad copy) is read leniently, and
        // without a baseline nothing else said so (a CI tester's truncated GPX and NMEA logs passed, their loss in
        // a table on standard output only).
        for (recording, r) in zip(selected, results) where r.status == .ok && r.readErrors > 0 {
            guard let listed = recording.fixes, r.fixes < listed else { continue }
            Terminal.error(
                "warning: \(r.id): \(r.fixes) fixes read of the \(listed) the manifest lists, \(r.readErrors) damaged "
                    + "record\(r.readErrors == 1 ? "" : "s") stepped over, the first: \(r.firstReadError ?? "?")\n")
        }
        // A recording that moved like a vehicle or faster than its profile allows: its activity named no category
        // of what it was (a CI tester's "e-bike", category "e", read 0 m under walking without a word, where
        // `process` warns). Most of it: a mixed day's vehicle legs (GeoLife's taxi and bus under walking, 41 % of
        // its fixes) are what such a recording measures. However short, from three such fixes (a tester's 11-fix
        // drive under walking read −92.3 % without a word while it took 20).
        for (recording, r) in zip(selected, results) where r.status == .ok {
            let tooFast = r.rejections["speed", default: 0]
            let held = r.heldAsVehicleFixes
            guard max(tooFast, held) >= 3,
                Double(tooFast) > 0.5 * Double(r.fixes) || Double(held) > 0.75 * Double(max(r.acceptedFixes, 1))
            else { continue }
            let what =
                held > tooFast
                ? "\(held) of \(r.acceptedFixes) accepted fixes moved like a vehicle and were not counted as "
                    + r.profile.rawValue
                : "\(tooFast) of \(r.fixes) fixes were rejected as faster than the \(r.profile.rawValue) profile allows"
            // (Under a forced --profile the profile is the cause, not the activity's name: a reviewer's.)
            let advice =
                profile == nil
                ? "name its activity by a category of the right profile (drive, bike, run, walk or a synonym: see --help)"
                : "the forced --profile \(r.profile.rawValue) does not fit it"
            Terminal.error(
                "warning: \(r.id): \(what) (activity \"\(recording.activity)\", category \(r.category), profile "
                    + "\(r.profile.rawValue)\(profile == nil ? "" : ", forced")): \(advice)\n")
        }
        if let path = arguments.value("baseline") {
            if arguments.has("update-baseline") {
                let previous = loaded
                // A truth that measured nothing it should have (empty, damaged, or holding no time of the fixes)
                // would record a baseline without those figures, which then gates none of them (a CI tester's
                // truth two hours late): not recorded.
                let unmeasured = results.compactMap { r in
                    r.truth.flatMap {
                        $0.isFaulty && !$0.notMeasured.isEmpty
                            ? "\(r.id) (\($0.notMeasured.map(\.rawValue).joined(separator: ", ")))" : nil
                    }
                }
                if !unmeasured.isEmpty {
                    try writeOutputs(report, text: text, arguments: arguments)
                    throw CommandFailure(
                        message: "cannot update baseline \(path): the ground truth of "
                            + unmeasured.joined(separator: "; ")
                            + " measured nothing (the warning above says why); fix "
                            + "the truth, or remove ground_truth from the entry to record it without")
                }
                // What is about to be recorded is shown first: a regression written into the baseline is a
                // decision, not a side effect.
                var replaced = ""
                if let previous {
                    let comparison = BaselineComparison(
                        baseline: previous, path: path, report: report, limited: !only.isEmpty, updated: true)
                    report.baseline = comparison
                    text += "compared with the baseline about to be replaced:\n"
                    for line in comparison.lines { text += line + "\n" }
                    if !comparison.passed {
                        replaced =
                            ", recording what the comparison found: " + comparison.failures.joined(separator: "; ")
                    }
                }
                let baseline = AccuracyBaseline(report: report, previous: previous, merge: !only.isEmpty)
                do { try baseline.save(path: path) } catch {
                    throw CommandFailure(message: "cannot write \(path): \(error.localizedDescription)")
                }
                text +=
                    "baseline written to \(path) (\(baseline.recordings.count) recordings)"
                    + (previous == nil ? ", a new one with the default tolerances" : replaced) + "\n"
            } else if let baseline = loaded {  // (loadBaseline returns nil only with --update-baseline)
                let comparison = BaselineComparison(
                    baseline: baseline, path: path, report: report, limited: !only.isEmpty)
                report.baseline = comparison
                for line in comparison.lines { text += line + "\n" }
                if comparison.passed {
                    text += "no regression against \(path)\n"
                } else {
                    text += "FAILED against \(path): \(comparison.failures.joined(separator: "; "))\n"
                    status = 1
                }
            }
        }
        if let directory = arguments.value("export-csv") {
            try exportFixes(selected, manifest: manifest, to: directory)
        }
        try writeOutputs(report, text: text, arguments: arguments)
        return status
    }

    /// The `--baseline` file, read and checked before the recordings are evaluated; `nil` without `--baseline`, and
    /// with `--update-baseline` when the file does not exist yet (it is created).
    /// - Throws: ``CommandFailure`` naming the file when it is missing (without `--update-baseline`), does not read,
    ///   holds a tolerance block naming no category (``AccuracyBaseline/checkToleranceCategories(_:path:)``), or,
    ///   for an update limited with `--only` (`limited`), was recorded with another profile than `profile`.
    static func loadBaseline(
        _ arguments: ParsedArguments, manifest: DatasetManifest, profile: EvaluationProfile?, limited: Bool
    ) throws -> AccuracyBaseline? {
        guard let path = arguments.value("baseline") else { return nil }
        let categories = Set(manifest.recordings.map(\.activityCategory))
        guard arguments.has("update-baseline") else {
            do {
                let baseline = try AccuracyBaseline.load(path: path)
                // A tolerance block naming no category (a misspelt `drvie`) would leave its recordings on the
                // default tolerances: an error, not a warning (a CI tester's drive regression passed on it).
                try baseline.checkToleranceCategories(categories, path: path)
                for warning in baseline.toleranceWarnings(categories: categories) {
                    Terminal.error("warning: \(path): \(warning)\n")
                }
                return baseline
            } catch .missing {
                throw CommandFailure(message: "no baseline at \(path) (create it with --update-baseline)")
            } catch {
                throw CommandFailure(
                    message: "\(error) (an accuracy baseline of `truetrack bench`, see Benchmarks/README.md; "
                        + "--update-baseline does not replace a file it cannot read: fix it, or move it aside and "
                        + "run with --update-baseline to start a new one with the default tolerances)")
            }
        }
        let previous: AccuracyBaseline?
        do { previous = try AccuracyBaseline.load(path: path) } catch .missing {
            previous = nil
        } catch {
            // A file that does not parse is not silently replaced (its tolerances would be lost).
            throw CommandFailure(
                message: "cannot update baseline \(path): \(error.reason) (its tolerances would be lost: fix it, or "
                    + "move it aside and re-run to start a new one with the default tolerances)")
        }
        // A misspelt tolerance category would be kept into the new file, its recordings still judged by the
        // default tolerances.
        do { try previous?.checkToleranceCategories(categories, path: path) } catch {
            throw CommandFailure(message: "cannot update baseline \(path): \(error.reason)")
        }
        // A run limited with --only keeps the other recordings' entries: they must have run with the same
        // profile, which the file records once.
        if let previous, limited, previous.profileOverride != profile {
            throw CommandFailure(
                message: "cannot update baseline \(path) with --only: it was recorded with "
                    + EvaluationProfile.describe(override: previous.profileOverride) + ", this run used "
                    + EvaluationProfile.describe(override: profile)
                    + " (run every recording to record it with this profile, or keep the file's)")
        }
        return previous
    }

    /// What the run took from the manifest in a way its figures depend on and a reader might not expect, one
    /// line per recording and remark: an accuracy scale taken from free-text notes (`EA/10`, no `hdop_scale`), a
    /// stated reference distance set aside for the truth's length when the two differ by more than 1 %.
    static func manifestRemarks(_ recordings: [DatasetManifest.Recording], results: [RecordingResult]) -> [String] {
        var remarks: [String] = []
        for (recording, result) in zip(recordings, results) {
            if recording.accuracyScaleFromNotes {
                remarks.append(
                    "\(recording.id): NMEA HDOP read as accuracy / 10 m because its notes say \"EA/10\" (the entry "
                        + "has no \"hdop_scale\"; \"hdop_scale\": \"accuracy10\" says it in a field, and takes precedence)"
                )
            }
            if let disagreement = result.referenceDisagreement { remarks.append(disagreement) }
        }
        return remarks
    }

    /// Writes the Markdown and JSON reports the options ask for, and the text report (to standard error when
    /// either goes to standard output).
    static func writeOutputs(_ report: BenchReport, text: String, arguments: ParsedArguments) throws {
        if let path = arguments.value("markdown") {
            try write(markdown(report), to: path)
        }
        if let path = arguments.value("json") {
            try write(Terminal.json(report), to: path)
        }
        if arguments.value("json") == "-" || arguments.value("markdown") == "-" {
            Terminal.error(text)
        } else {
            Terminal.out(text)
        }
    }

    /// The Markdown report (committed as Benchmarks/results/accuracy.md).
    static func markdown(_ report: BenchReport) -> String {
        var text = """
            # TrueTrack accuracy on the recorded data sets

            Generated by `truetrack bench` over \(report.recordings.count) recordings of \
            `\(report.datasets)/MANIFEST.json`\(report.profileOverride.map { " (profile forced: \($0.rawValue))" } ?? ""). \
            Do not edit by hand. Definitions: Benchmarks/README.md. "naive" = sum of segments over every fix as read; \
            "Doppler" = Doppler-only integral; a reference marked * is the truth's length over the fixes' span on the WGS-84 ellipsoid (the manifest's are haversine sums).


            """
        text += BenchTables.render(report, style: .markdown)
        // The verdict too: a report without it looked green to a CI job summary built from it while the run
        // failed (a CI tester, 2026-12-04).
        if let comparison = report.baseline {
            text += "\n## Against the baseline\n\n"
            if comparison.updated {
                text += "Compared with `\(comparison.path)` before this run replaced it"
                text += comparison.passed ? ": no regression.\n" : ": \(comparison.failures.joined(separator: "; ")).\n"
            } else if comparison.passed {
                text += "**Passed**: no regression against `\(comparison.path)`.\n"
            } else {
                text += "**FAILED** against `\(comparison.path)`: \(comparison.failures.joined(separator: "; ")).\n"
            }
            if !comparison.lines.isEmpty { text += "\n" + comparison.lines.map { "- \($0)\n" }.joined() }
        }
        return text
    }

    /// Writes each recording's fixes, as read (file order), as canonical CSV: the peers get the same input.
    static func exportFixes(
        _ recordings: [DatasetManifest.Recording], manifest: DatasetManifest,
        to directory: String
    ) throws {
        do {
            for recording in recordings where !Evaluator.isTruthOnly(recording) {
                let aligned = try AlignedRecording.load(recording, manifest: manifest)
                var writer = try AnyFixWriter(
                    path: (directory as NSString).appendingPathComponent(recording.id + ".csv"),
                    format: .csv)
                for fix in aligned.fixes { try writer.write(fix) }
                try writer.finish()
            }
        } catch {
            throw CommandFailure(message: "cannot export fixes to \(directory): \(error)")
        }
    }

    /// Creates the `--export-csv` folder (before the run: a folder that cannot be made failed after it).
    /// - Throws: ``CommandFailure`` naming the folder and the system's reason (``SystemErrorReason``; Foundation's
    ///   error read as a dump).
    static func createExportFolder(_ directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(
                message: "cannot export fixes to \(directory): cannot create the folder: "
                    + SystemErrorReason.describe(error))
        }
    }

    /// Writes `text` through `path` (`-`: standard output): a device or a symbolic link is written to, not
    /// replaced (an atomic write renamed a temporary file over `--markdown /dev/full`).
    static func write(_ text: String, to path: String) throws {
        do {
            let sink = try ByteSink(path: path)
            sink.append(text)
            try sink.close()
        } catch {
            throw CommandFailure(message: "\(error)")
        }
    }
}
