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
    /// Better than the entry by more than half its tolerance: informational, `--update-baseline` records it.
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
    /// The `REGRESSION`, `IMPROVED` lines printed for this case, in order.
    var findings: [String]

    /// The line the log shows for every case: the margin between its ratio and the limit.
    var marginLine: String {
        guard let baselineRatio, let limit else { return "\(name): not in the baseline, not checked" }
        return "\(name): ratio \(String(format: "%.2f", ratio)), baseline \(String(format: "%.2f", baselineRatio)), "
            + "limit \(String(format: "%.2f", limit))"
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
        let cases = report.results.map { r in
            guard let entry = entries[r.name] else {
                return CaseComparison(name: r.name, verdict: .unchecked, ratio: r.ratioToReference, findings: [])
            }
            let limit = entry.ratio * (1 + entry.tolerance)
            let improvedBelow = entry.ratio * (1 - entry.tolerance / 2)
            func f(_ v: Double) -> String { String(format: "%.2f", v) }
            var verdict = Verdict.ok
            var findings: [String] = []
            if r.ratioToReference > limit {
                verdict = .regression
                findings.append(
                    "\(regression): \(r.name) ratio \(f(r.ratioToReference)) > \(f(limit)) (baseline "
                        + "\(f(entry.ratio)) + \(String(format: "%g", entry.tolerance * 100)) %)")
            } else if r.ratioToReference < improvedBelow {
                verdict = .improved
                findings.append(
                    "IMPROVED: \(r.name) ratio \(f(r.ratioToReference)) < \(f(improvedBelow)) (baseline "
                        + "\(f(entry.ratio)) − \(String(format: "%g", entry.tolerance * 50)) %)"
                        + (recording ? ", recording it" : ": faster than recorded; --update-baseline records it"))
            }
            return CaseComparison(
                name: r.name, verdict: verdict, ratio: r.ratioToReference, baselineRatio: entry.ratio,
                tolerance: entry.tolerance, limit: limit, improvedBelow: improvedBelow, findings: findings)
        }
        var failures: [String] = []
        if !recording {
            failures = cases.filter { $0.verdict == .regression }.flatMap(\.findings)
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
