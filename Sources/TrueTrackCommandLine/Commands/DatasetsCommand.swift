import Foundation
import TrueTrackCore
import TrueTrackIO

/// `truetrack datasets [--datasets DIR] [--json]`: list the recordings of a manifest and check each loads.
enum DatasetsCommand {
    static let spec = CommandSpec(
        name: "datasets",
        abstract: "List the recorded data sets of a MANIFEST.json and check that each one loads.",
        positionals: [], minimumPositionals: 0, maximumPositionals: 0,
        options: [
            OptionSpec(
                name: "datasets", valueName: "DIR",
                help: "Data-set folder (default: $TRUETRACK_DATASETS, else ../shared/datasets)."),
            OptionSpec(
                name: "json", help: "Print JSON to stdout instead of a table (a flag: bench --json takes a FILE)."),
        ],
        discussion: """
            Each recording is read with the format and options its manifest entry calls for, leniently: a real
            recording with a damaged record still loads, and the damaged records are counted and reported with
            their file, line and field. 'unique' leaves out repeated fixes (same time and position); 'manifest' is
            the manifest's own count of unique fixes.
            """)

    /// One recording's check.
    struct Row: Encodable {
        var id: String
        var path: String
        var format: String
        var activity: String
        var loads: Bool
        var fixes: Int
        var uniqueFixes: Int
        var manifestFixes: Int?
        var skipped: [String: Int]
        var rawDistanceMetres: Double
        var badRecords: [String]
        /// Optional fields that could not be read, read as missing (their fixes kept).
        var fieldsReadAsMissing: [String]
        var error: String?
    }

    /// Whether the manifest's fix count matches neither the fixes read nor the unique ones.
    static func differsFromManifest(_ row: Row) -> Bool {
        guard let expected = row.manifestFixes else { return false }
        return expected != row.fixes && expected != row.uniqueFixes
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let location = try datasetsLocation(arguments)
        let folder = location.folder
        let manifest: DatasetManifest
        do {
            manifest = try DatasetManifest.load(location)
        } catch {
            throw CommandFailure(message: error.description)
        }
        for warning in manifest.warnings { Terminal.error("warning: \(manifest.path): \(warning)\n") }
        var rows: [Row] = []
        for recording in manifest.recordings {
            var plan: (format: FixFormat?, options: ReadOptions)
            do { plan = try manifest.readingPlan(of: recording) } catch {
                // The entry itself is wrong: reading the file every other way would hide it.
                rows.append(
                    Row(
                        id: recording.id, path: recording.path, format: recording.declaredFormat?.rawValue ?? "?",
                        activity: recording.activityCategory, loads: false, fixes: 0, uniqueFixes: 0,
                        manifestFixes: recording.fixes, skipped: [:], rawDistanceMetres: 0, badRecords: [],
                        fieldsReadAsMissing: [], error: error.description))
                continue
            }
            plan.options.lenient = true
            let path = manifest.path(of: recording)
            let info = InfoCommand.describe(path: path, format: plan.format, options: plan.options)
            rows.append(
                Row(
                    id: recording.id, path: recording.path, format: info.format,
                    activity: recording.activityCategory, loads: info.error == nil, fixes: info.fixes,
                    uniqueFixes: info.fixes - info.exactDuplicates, manifestFixes: recording.fixes,
                    skipped: info.skipped, rawDistanceMetres: info.rawDistanceMetres, badRecords: info.lenientErrors,
                    fieldsReadAsMissing: info.fieldsReadAsMissing, error: info.error))
        }
        if arguments.has("json") {
            Terminal.out(Terminal.json(rows))
        } else {
            var text = "recordings in \(folder)/MANIFEST.json\n\n"
            let header = ["id", "format", "activity", "fixes", "unique", "manifest", "raw m", "status", "skipped"]
            var table = [header]
            for row in rows {
                table.append([
                    row.id, row.format, row.activity, "\(row.fixes)", "\(row.uniqueFixes)",
                    row.manifestFixes.map(String.init) ?? "–", row.rawDistanceMetres.fixed(1),
                    !row.loads ? "ERROR" : Self.differsFromManifest(row) ? "ok ≠" : "ok",
                    row.skipped.sorted { $0.key < $1.key }.filter {
                        SkipReason(rawValue: $0.key)?.isNonFixRecord != true
                    }
                    .map { "\($0.value) \($0.key)" }.joined(separator: ", "),
                ])
            }
            let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
            for line in table {
                text +=
                    line.enumerated().map { $1 + String(repeating: " ", count: widths[$0] - $1.count) }
                    .joined(separator: "  ") + "\n"
            }
            let loaded = rows.filter(\.loads).count
            text += "\n\(loaded) of \(rows.count) recordings load.\n"
            let differing = rows.filter { $0.loads && Self.differsFromManifest($0) }
            if !differing.isEmpty {
                text +=
                    "ok ≠: the fixes read (all or unique) differ from the manifest's count (\(differing.map(\.id).joined(separator: ", "))): "
                    + "the manifest counts with its own tool's rules (see each PROVENANCE.md), so a difference is "
                    + "worth a look, not an error.\n"
            }
            for row in rows where !row.badRecords.isEmpty {
                text += "\(row.id): \(row.badRecords.count) damaged record(s) skipped: \(row.badRecords[0])\n"
            }
            for row in rows where !row.fieldsReadAsMissing.isEmpty {
                text +=
                    "\(row.id): \(row.fieldsReadAsMissing.count) unreadable field(s) read as missing, fixes kept: "
                    + "\(row.fieldsReadAsMissing[0])\n"
            }
            Terminal.out(text)
            for row in rows where !row.loads { Terminal.error("Error: \(row.id): \(row.error ?? "")\n") }
        }
        return rows.allSatisfy(\.loads) ? 0 : 1
    }
}

/// Where `--datasets` (else `TRUETRACK_DATASETS`, else `../shared/datasets`) says the data sets are. An empty
/// `--datasets ""` is a usage error: it fell back to the environment's folder silently (a CI tester, 2026-12-04), so
/// a script whose variable was unset measured another folder than it named.
func datasetsLocation(_ arguments: ParsedArguments) throws -> DatasetManifest.Location {
    if let flag = arguments.value("datasets"), flag.isEmpty {
        throw UsageError(message: "--datasets needs a folder, not an empty value")
    }
    return DatasetManifest.locate(flag: arguments.value("datasets"))
}
