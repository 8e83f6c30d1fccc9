import Foundation

// A run compared with the baseline: the lines the log shows and the figures `--json` writes (the layouts are in
// Benchmarks/README.md). The same comparison is printed before `--update-baseline` writes new entries, its
// regressions marked "(recording)", so that the log shows what a recording changed.

/// How one case stands against its baseline entry.
enum Verdict: String, Codable {
    /// Worse than the entry by more than its tolerance: the run fails (unless recording).
    case regression
    /// Within the tolerance.
    case ok
    /// Better than the entry by more than half its tolerance (timing: or fewer allocations per fix by more than
    /// 0.01), and nothing worse: informational, `--update-baseline` records it.
    case improved
    /// No entry for the case (or, counting instructions, one recorded on another platform): not compared.
    case unchecked
    /// Counting instructions only: not comparable with its entry (counted over other fixes, or under half the
    /// entry's count, which more often means the case stopped doing part of its work than a real speed-up).
    case failed
}

/// One timing case compared with its baseline entry.
struct CaseComparison: Codable {
    var name: String
    var verdict: Verdict
    /// The run's ratio (minimum CPU time / the reference loop's).
    var ratio: Double
    /// The entry's ratio, tolerance and limit (`ratio × (1 + tolerance)`), and the ratio under which the case is
    /// reported improved (`ratio × (1 − tolerance / 2)`); absent when unchecked.
    var baselineRatio: Double?
    var tolerance: Double?
    var limit: Double?
    var improvedBelow: Double?
    /// The run's allocations per fix, the entry's and the limit (entry + 0.01); the entry's two are absent when
    /// it holds none (written before they were kept), and then not checked.
    var allocationsPerFix: Double?
    var baselineAllocationsPerFix: Double?
    var allocationsLimit: Double?
    /// The run's peak resident memory in MiB, the entry's and the limit (entry × 1.25 + 16 MiB), likewise.
    var peakResidentMegabytes: Double
    var baselinePeakResidentMegabytes: Double?
    var peakLimitMegabytes: Double?
    /// The `REGRESSION` lines for this case: they fail the run (unless recording).
    var regressions: [String]
    /// The `IMPROVED` lines for this case: information only.
    var improvements: [String]

    /// The line the log shows for every case: the margin between its figures and their limits.
    var marginLine: String {
        guard let baselineRatio, let limit else { return "\(name): not in the baseline, not checked" }
        var line =
            "\(name): ratio \(String(format: "%.2f", ratio)), baseline \(String(format: "%.2f", baselineRatio)), "
            + "limit \(String(format: "%.2f", limit))"
        if let allocationsPerFix, let allocationsLimit {
            line +=
                "; allocs/fix \(String(format: "%.3f", allocationsPerFix)) (limit \(String(format: "%.3f", allocationsLimit)))"
        }
        if let peakLimitMegabytes {
            line +=
                "; peak \(String(format: "%.1f", peakResidentMegabytes)) MiB (limit \(String(format: "%.1f", peakLimitMegabytes)))"
        }
        return line
    }
}

/// A timing run compared with the baseline (`--baseline`), as written under `comparison` in the JSON.
struct Comparison: Codable {
    /// The baseline file's path, as given.
    var baseline: String
    /// `quick` or `full`: the entries compared.
    var mode: String
    /// `--update-baseline`: the comparison is with the entries being replaced, and a regression does not fail.
    var recording: Bool
    var cases: [CaseComparison]
    /// What fails the run, one line each (empty when recording). Not in the JSON: the report's `failures` holds
    /// them, with the run's other failures.
    var failures: [String] = []

    enum CodingKeys: String, CodingKey {
        case baseline, mode, recording, cases
    }
}

extension Baseline {
    /// Compares `report` with the entries of its mode. The IMPROVED threshold is half the tolerance below the
    /// entry (a ratio under half the recorded one in `--quick`, 17.5 % under it in full mode): a gain the run's
    /// noise does not produce, worth recording so that a later regression is measured from it.
    func compare(_ report: BenchmarkReport, path: String, recording: Bool) -> Comparison {
        let entries = report.quick ? quick : full
        let regression = recording ? "REGRESSION (recording)" : "REGRESSION"
        let improvedAdvice = recording ? ", recording it" : ": --update-baseline records it"
        let cases = report.results.map { r in
            var c = CaseComparison(
                name: r.name, verdict: .unchecked, ratio: r.ratioToReference, allocationsPerFix: r.allocationsPerFix,
                peakResidentMegabytes: r.peakResidentMegabytes, regressions: [],
                improvements: [])
            guard let entry = entries[r.name] else { return c }
            let limit = entry.ratioLimit
            let improvedBelow = entry.ratio * (1 - entry.tolerance / 2)
            c.baselineRatio = entry.ratio
            c.tolerance = entry.tolerance
            c.limit = limit
            c.improvedBelow = improvedBelow
            c.baselineAllocationsPerFix = entry.allocationsPerFix
            c.allocationsLimit = entry.allocationsLimit
            c.baselinePeakResidentMegabytes = entry.peakResidentMegabytes
            c.peakLimitMegabytes = entry.peakLimitMegabytes
            func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
            if r.ratioToReference > limit {
                c.regressions.append(
                    "\(regression): \(r.name) ratio \(f(r.ratioToReference)) > \(f(limit)) (baseline "
                        + "\(f(entry.ratio)) + \(String(format: "%g", entry.tolerance * 100)) %)")
            } else if r.ratioToReference < improvedBelow {
                c.improvements.append(
                    "IMPROVED: \(r.name) ratio \(f(r.ratioToReference)) < \(f(improvedBelow)) (baseline "
                        + "\(f(entry.ratio)) − \(String(format: "%g", entry.tolerance * 50)) %): faster than "
                        + "recorded" + improvedAdvice)
            }
            if let allocations = r.allocationsPerFix, let recorded = entry.allocationsPerFix,
                let allocationsLimit = entry.allocationsLimit
            {
                if allocations > allocationsLimit {
                    c.regressions.append(
                        "\(regression): \(r.name) \(f(allocations, 3)) allocations/fix > \(f(allocationsLimit, 3)) "
                            + "(baseline \(f(recorded, 3)) + \(Baseline.allocationsPerFixTolerance))")
                } else if allocations < recorded - Baseline.allocationsPerFixTolerance {
                    // Locks a gain in: until recorded, the case could lose it again unseen.
                    c.improvements.append(
                        "IMPROVED: \(r.name) \(f(allocations, 3)) allocations/fix, baseline \(f(recorded, 3))"
                            + improvedAdvice)
                }
            }
            if let recorded = entry.peakResidentMegabytes, let peakLimit = entry.peakLimitMegabytes,
                r.peakResidentMegabytes > peakLimit
            {
                c.regressions.append(
                    "\(regression): \(r.name) peak \(f(r.peakResidentMegabytes, 1)) MiB > \(f(peakLimit, 1)) MiB "
                        + "(baseline \(f(recorded, 1)) MiB + \(String(format: "%g", Baseline.peakRelativeTolerance * 100)) % "
                        + "+ \(String(format: "%g", Baseline.peakAbsoluteToleranceMegabytes)) MiB)")
            }
            c.verdict = !c.regressions.isEmpty ? .regression : !c.improvements.isEmpty ? .improved : .ok
            return c
        }
        var failures: [String] = []
        if !recording {
            failures = cases.flatMap(\.regressions)
            failures += unmatchedEntries(
                run: report.results.map(\.name), entries: Array(entries.keys), path: path,
                what: "\(report.quick ? "quick" : "full") entry")
            // A baseline that holds none of the cases run (a --quick run against full-only entries) checks nothing.
            if !cases.isEmpty, cases.allSatisfy({ $0.verdict == .unchecked }) {
                failures.append(
                    "FAILED: \(path) holds none of the cases run (\(report.quick ? "quick" : "full") mode)")
            }
        }
        return Comparison(
            baseline: path, mode: report.quick ? "quick" : "full", recording: recording, cases: cases,
            failures: failures)
    }
}

/// The failures of a baseline and a run that do not match: a case run without an entry (a new or renamed case,
/// whose gate would otherwise be "not checked" for good), and an entry naming no case this executable has (a
/// renamed or removed case: its gate is gone). A case merely not selected (`--only`, full-only cases with
/// `--quick`) is neither. Why: renaming a case dropped its gate unseen, exit 0 (a CI tester, 2026-12-04).
func unmatchedEntries(run: [String], entries: [String], path: String, what: String) -> [String] {
    let known = Set(BenchmarkCase.all.map(\.name))
    let recorded = Set(entries)
    var failures: [String] = []
    for name in run where !recorded.contains(name) {
        failures.append("FAILED: \(name) has no \(what) in \(path) (record it with --update-baseline)")
    }
    for name in entries.sorted() where !known.contains(name) {
        failures.append(
            "FAILED: \(path) holds a \(what) for \(name), which is no benchmark case (renamed or removed? "
                + "remove the entry, or run --update-baseline without --only, which drops it, and record the new "
                + "name with --update-baseline)")
    }
    return failures
}

/// Whether this runs in continuous integration, where a case not checked fails: `CI` set to anything
/// but empty, `false`, `0` or `no` (CI systems set `CI=true`; `CI=false` read as CI before, a CI tester found).
let isContinuousIntegration: Bool = {
    guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
    return !["", "false", "0", "no"].contains(value)
}()
