import Foundation
import TrueTrackCore
import TrueTrackIO

/// One benchmark's figures.
struct BenchmarkResult: Codable {
    var name: String
    var fixes: Int
    /// The input file's size; `nil` when the timed work does not read it (``BenchmarkCase/measuresInputBytes``).
    var inputBytes: Int?
    var runs: Int
    var medianSeconds: Double
    var minSeconds: Double
    var maxSeconds: Double
    var fixesPerSecond: Double
    /// Input megabytes (10⁶ bytes) per median wall second; `nil` with ``inputBytes``.
    var megabytesPerSecond: Double?
    /// Median CPU seconds (user + system) of the child.
    var medianCPUSeconds: Double
    /// Fixes per CPU second: throughput with other processes' interference taken out.
    var fixesPerCPUSecond: Double
    /// The child's peak resident memory (`VmHWM`) in MiB (2²⁰ bytes), as the table's "peak MiB"; the key keeps
    /// its first name, which the checked-in baselines use.
    var peakResidentMegabytes: Double
    /// Minimum CPU seconds of the runs (the host's noise only adds time).
    var minCPUSeconds: Double
    /// ``minCPUSeconds`` divided by the reference loop's minimum CPU time over the same run (lower is faster).
    var ratioToReference: Double
    /// The peak memory this benchmark must stay under, when it has a bound.
    var memoryLimitMegabytes: Double?
    /// Median heap allocations per fix over the measured work (malloc & co., counted on Linux/glibc).
    var allocationsPerFix: Double?
}

/// All figures of one run, and (what `--json` writes) its comparison with the baseline and verdict.
struct BenchmarkReport: Codable {
    /// The version of this JSON layout: 1, raised when a key changes meaning or goes away (not when one is added).
    var schemaVersion = 1
    /// The TrueTrack version measured (``TrueTrack/version``).
    var truetrackVersion = TrueTrack.version
    var referenceSeconds: Double
    var quick: Bool
    var results: [BenchmarkResult]
    /// The comparison with `--baseline`'s entries; absent without `--baseline` (or when `--update-baseline`
    /// creates the file).
    var comparison: Comparison? = nil
    /// What fails the run, one line each as printed: regressions, a baseline that checks none of the cases, a
    /// memory bound exceeded.
    var failures: [String] = []
    /// No failure: the exit status is 0.
    var passed = true

    func table() -> String {
        func f(_ v: Double, _ d: Int) -> String { String(format: "%.\(d)f", v) }
        var rows = [
            [
                "benchmark", "fixes", "MB", "median s", "min s", "max s", "M fixes/s", "MB/s", "M fixes/cpu-s",
                "peak MiB", "allocs/fix", "ratio",
            ]
        ]
        for r in results {
            rows.append([
                r.name, "\(r.fixes)", r.inputBytes.map { f(Double($0) / 1e6, 1) } ?? "–", f(r.medianSeconds, 3),
                f(r.minSeconds, 3), f(r.maxSeconds, 3), f(r.fixesPerSecond / 1e6, 2),
                r.megabytesPerSecond.map { f($0, 0) } ?? "–", f(r.fixesPerCPUSecond / 1e6, 2),
                f(r.peakResidentMegabytes, 1),
                r.allocationsPerFix.map { f($0, 3) } ?? "–", f(r.ratioToReference, 2),
            ])
        }
        let widths = rows[0].indices.map { c in rows.map { $0[c].count }.max()! }
        var text = rows.map { row in
            row.enumerated().map { c, cell in
                c == 0
                    ? cell + String(repeating: " ", count: widths[c] - cell.count)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
        text +=
            "\nMB, MB/s: – where the timed work does not read the input file (--help: read first, untimed, or none)"
        text +=
            "\nwall-clock median/min/max of \(results.first?.runs ?? 0) runs, one child process each; reference loop (FNV-1a over 64 MiB): \(f(referenceSeconds * 1000, 1)) ms CPU (minimum); ratio = minimum CPU time / reference"
        return text
    }

    func memoryViolations() -> [String] {
        results.compactMap { r in
            guard let limit = r.memoryLimitMegabytes, r.peakResidentMegabytes > limit else { return nil }
            return
                "MEMORY: \(r.name) peaked at \(String(format: "%.1f", r.peakResidentMegabytes)) MiB, over its \(limit) MiB bound"
        }
    }
}

/// The checked-in baseline: per benchmark, the ratio to the reference loop and the tolerance allowed, and the
/// allocations per fix and peak memory when recorded.
///
/// A benchmark regresses when its ratio exceeds `ratio × (1 + tolerance)`. Default tolerances: 0.35 for full runs
/// (5 runs: wider than the ±15–25 % run-to-run spread measured on this 2-core VM) and 1.0 for `--quick` (what CI
/// runs: 3 runs, on a host whose noisy phases stretched every run of a case by 1.7×, which failed CI at 0.75):
/// noise alone does not fail CI, a case ≥ 2× slower does. Smaller regressions are the instruction counts' to
/// catch (`--instructions`, exact, checked at 2 %); a change that adds few instructions but a long chain of
/// dependent ones (divides, square roots) passes both and shows only in full-mode times on a quiet host
/// (Benchmarks/README.md, "What the gates do not catch"). Edit a tolerance in the file to change it;
/// `--update-baseline` keeps tolerances already there.
struct Baseline: Codable {
    struct Entry: Codable {
        var ratio: Double
        var tolerance: Double
        var fixesPerSecondWhenRecorded: Double
        /// Heap allocations per fix when recorded: a run fails above it by more than
        /// ``Baseline/allocationsPerFixTolerance``. Absent from entries written before it was kept (not checked).
        var allocationsPerFix: Double?
        /// Peak resident memory in MiB when recorded: a run fails above it by more than
        /// ``Baseline/peakRelativeTolerance`` and ``Baseline/peakAbsoluteToleranceMegabytes``. Absent likewise.
        var peakResidentMegabytes: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case ratio, tolerance, fixesPerSecondWhenRecorded, allocationsPerFix, peakResidentMegabytes
        }

        /// The ratio above which a run regresses: `ratio × (1 + tolerance)`.
        var ratioLimit: Double { ratio * (1 + tolerance) }

        /// The allocations per fix a run may reach: the recorded value + 0.01.
        var allocationsLimit: Double? { allocationsPerFix.map { $0 + Baseline.allocationsPerFixTolerance } }

        /// The peak a run may reach, in MiB: the recorded peak + 25 % + 16 MiB.
        var peakLimitMegabytes: Double? {
            peakResidentMegabytes.map {
                $0 * (1 + Baseline.peakRelativeTolerance) + Baseline.peakAbsoluteToleranceMegabytes
            }
        }
    }
    /// What the figures mean, for a reader of the file; optional (`{}` is a baseline).
    var note: String?
    var quick: [String: Entry]
    var full: [String: Entry]
    /// Instructions per fix (`--instructions`) in `--quick` mode and in full mode; absent from baselines
    /// written before they were counted (then `--instructions` has nothing to compare and fails).
    /// Each case's counts, one per platform (``PlatformCounts``).
    var instructionsQuick: [String: PlatformCounts]?
    var instructionsFull: [String: PlatformCounts]?

    static let defaultTolerance = 0.35
    static let defaultQuickTolerance = 1.0
    /// Allocations are counted exactly (the same count on every run of the same binary), so this is no noise
    /// allowance: it lets a case allocate once more per hundred fixes (an array that grows now and then) but fails
    /// an allocation per fix, which keeps ARCHITECTURE's "no allocation per fix" (the Tracker's 0) enforced.
    static let allocationsPerFixTolerance = 0.01
    /// The peak resident set barely moves between runs (±0.2 MiB here), so the margin is not for noise but for
    /// what moves it without a change in TrueTrack: the ~18–20 MiB every case starts with (Swift runtime,
    /// Foundation, glibc's malloc arenas) shifts by megabytes with a toolchain or C library (the 16 MiB), and the
    /// in-memory cases hold arrays grown by doubling, so a small change in a count or a layout can cross a capacity
    /// step (the 25 %). What it is for still fails: a second copy of the tracker cases' 1 M fixes (+100 MiB on
    /// 126), a full-mode reader that buffers its 53 MB input.
    static let peakRelativeTolerance = 0.25
    static let peakAbsoluteToleranceMegabytes = 16.0

    /// The note written into a new baseline.
    static let defaultNote =
        "ratio = benchmark minimum CPU time / reference loop minimum CPU time (same run). Regression when ratio > ratio × (1 + tolerance). Update with --update-baseline."

    /// The baseline `previous` updated with `report`'s figures: its note (a file's own note was replaced by the
    /// default before, where `--instructions` and `truetrack bench` kept theirs: a CI tester), tolerances and the
    /// other mode's and cases' entries kept.
    ///
    /// On a `complete` update (every case of the mode run: no `--only`), the mode's entries naming no benchmark case
    /// (``dropDeadEntries(_:)``: a renamed or removed case) are dropped, and listed in `dropped`; an update limited
    /// with `--only` keeps them (the next comparison names them).
    init(report: BenchmarkReport, previous: Baseline?, complete: Bool = false) {
        note = previous?.note ?? Baseline.defaultNote
        quick = previous?.quick ?? [:]
        full = previous?.full ?? [:]
        if complete {
            if report.quick {
                dropped = Baseline.dropDeadEntries(&quick)
            } else {
                dropped = Baseline.dropDeadEntries(&full)
            }
        }
        instructionsQuick = previous?.instructionsQuick
        instructionsFull = previous?.instructionsFull
        for r in report.results {
            let tolerance =
                (report.quick ? quick[r.name] : full[r.name])?.tolerance
                ?? (report.quick ? Baseline.defaultQuickTolerance : Baseline.defaultTolerance)
            let entry = Entry(
                ratio: r.ratioToReference, tolerance: tolerance, fixesPerSecondWhenRecorded: r.fixesPerSecond,
                allocationsPerFix: r.allocationsPerFix, peakResidentMegabytes: r.peakResidentMegabytes)
            if report.quick { quick[r.name] = entry } else { full[r.name] = entry }
        }
    }

    /// The entries a complete update dropped (names no benchmark case has); not in the file.
    var dropped: [String] = []

    /// Removes from `entries` those that no benchmark case has (a case renamed or removed since) and returns their
    /// names, sorted: what a complete update drops, of timings and of instruction counts alike.
    static func dropDeadEntries<Entry>(_ entries: inout [String: Entry]) -> [String] {
        let known = Set(BenchmarkCase.all.map(\.name))
        let dead = entries.keys.filter { !known.contains($0) }.sorted()
        for name in dead { entries[name] = nil }
        return dead
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case note, quick, full, instructionsQuick, instructionsFull
    }

    /// Decodes a baseline file. `{}` is an empty baseline (to start one with `--update-baseline`); any other
    /// object must hold `quick` and `full` (each may be `{}`), so that another JSON file (the accuracy baseline)
    /// is named for what it lacks ("quick: missing"), not read as a baseline that holds nothing.
    init(from decoder: any Decoder) throws {
        let isEmpty = try decoder.container(keyedBy: AnyKey.self).allKeys.isEmpty
        try rejectUnknownKeys(decoder, known: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Every entry's keys first: a misspelt one (`"tolerence"`) is an error, not a tolerance left at its default.
        for key in [CodingKeys.quick, .full] {
            _ = try container.decodeIfPresent([String: KnownKeys<Entry.CodingKeys>].self, forKey: key)
        }
        for key in [CodingKeys.instructionsQuick, .instructionsFull] {
            _ = try container.decodeIfPresent(
                [String: OneOrMany<KnownKeys<InstructionEntry.CodingKeys>>].self, forKey: key)
        }
        note = try container.decodeIfPresent(String.self, forKey: .note)
        quick = isEmpty ? [:] : try container.decode([String: Entry].self, forKey: .quick)
        full = isEmpty ? [:] : try container.decode([String: Entry].self, forKey: .full)
        instructionsQuick = try container.decodeIfPresent([String: PlatformCounts].self, forKey: .instructionsQuick)
        instructionsFull = try container.decodeIfPresent([String: PlatformCounts].self, forKey: .instructionsFull)
    }

    /// Reads the baseline at `path`; the error names the file and, in the document, where and what is wrong
    /// (`quick.tracker.tolerance: missing (required)`, `full.read-csv.ratio: 0 is not a positive number`, a key
    /// given twice in one object with its line).
    static func load(_ path: String) throws -> Baseline {
        func failure(_ what: String) -> BenchmarkFailure {
            BenchmarkFailure(
                "cannot read baseline \(path): \(what) (a baseline of truetrack-benchmarks: see Benchmarks/README.md; "
                    + "`{}` starts an empty one with --update-baseline)")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw BenchmarkFailure("cannot read baseline \(path): \(reason(error))")
        }
        let baseline: Baseline
        do { baseline = try JSONDecoder().decode(Baseline.self, from: data) } catch {
            throw failure(DecodingFailure.describe(error, data: data))
        }
        // A key given twice reads as its first here and as its last in Python or jq: refused, not guessed.
        if let duplicate = DuplicateJSONKey.first(in: data) { throw failure(duplicate.description) }
        // A ratio of 0 would fail every run, a negative tolerance too: named here rather than as a regression.
        for (mode, entries) in [("quick", baseline.quick), ("full", baseline.full)] {
            for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
                if !(entry.ratio > 0 && entry.ratio.isFinite) {
                    throw failure("\(mode).\(name).ratio: \(entry.ratio) is not a positive number")
                }
                if !(entry.tolerance >= 0 && entry.tolerance.isFinite) {
                    throw failure("\(mode).\(name).tolerance: \(entry.tolerance) is not a number ≥ 0")
                }
                if let allocations = entry.allocationsPerFix, !(allocations >= 0 && allocations.isFinite) {
                    throw failure("\(mode).\(name).allocationsPerFix: \(allocations) is not a number ≥ 0")
                }
                if let peak = entry.peakResidentMegabytes, !(peak > 0 && peak.isFinite) {
                    throw failure("\(mode).\(name).peakResidentMegabytes: \(peak) is not a positive number")
                }
            }
        }
        // Instruction counts likewise: a count of 0 or less would fail every run, a negative tolerance too.
        for (mode, counts) in [
            ("instructionsQuick", baseline.instructionsQuick ?? [:]),
            ("instructionsFull", baseline.instructionsFull ?? [:]),
        ] {
            for (name, platforms) in counts.sorted(by: { $0.key < $1.key }) {
                for entry in platforms.entries {
                    let at =
                        "\(mode).\(name)" + (platforms.entries.count > 1 ? " (\(entry.platform ?? "no platform"))" : "")
                    if !(entry.instructionsPerFix > 0 && entry.instructionsPerFix.isFinite) {
                        throw failure("\(at).instructionsPerFix: \(entry.instructionsPerFix) is not a positive number")
                    }
                    if !(entry.tolerance >= 0 && entry.tolerance.isFinite) {
                        throw failure("\(at).tolerance: \(entry.tolerance) is not a number ≥ 0")
                    }
                    if entry.fixes <= 0 { throw failure("\(at).fixes: \(entry.fixes) is not a positive count") }
                }
            }
        }
        return baseline
    }

    func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}

/// Any key of a JSON object (to tell `{}` from an object holding only keys a baseline does not know, and to find
/// the keys no field reads).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Throws when the JSON object `decoder` reads holds a key not in `known`, naming it and the keys expected: a
/// misspelt key in a baseline would otherwise leave its check at a default unseen.
func rejectUnknownKeys(_ decoder: any Decoder, known: [String]) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    for key in container.allKeys where !known.contains(key.stringValue) {
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container,
            debugDescription: "unknown key '\(key.stringValue)' (expected \(known.joined(separator: ", ")))")
    }
}

/// Decodes nothing: checks that a JSON object holds only the keys of `Keys` (an entry's `CodingKeys`), so that
/// the entry itself keeps its synthesised decoding.
/// A `null` is refused too: decoded as absent, `"allocationsPerFix": null` switched the zero-allocation check off
/// unseen (a CI tester, 2026-12-04); an entry recorded before a figure was kept leaves the key out.
struct KnownKeys<Keys: CodingKey & CaseIterable>: Decodable {
    init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, known: Keys.allCases.map(\.stringValue))
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where try container.decodeNil(forKey: key) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "null (a figure is a number; leave the key out only where the entry predates it)")
        }
    }
}
