import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO
import TrueTrackTestSupport

@testable import TrueTrackEvaluation

/// How `truetrack bench` reads a manifest entry: activity synonyms, the reference distance a truth replaces, the
/// accuracy scale, providers, unknown keys and missing or wrong formats (a CI tester's findings, 2026-12-04).
@Suite struct ManifestReadingTests {
    @Test("every activity synonym is its category's, for the profile and the tolerance alike")
    func synonymsMapToOneCategory() {
        let baseline = AccuracyBaseline(recordings: [:])
        let drive = baseline.tolerance(.absDistanceErrorPercent, category: "drive")
        #expect(drive.absolute == 0.05)
        for (category, words) in ActivityCategory.synonyms {
            for word in words {
                for activity in [word, word.uppercased() + " (x)", word.replacingOccurrences(of: "-", with: "_")] {
                    #expect(ActivityCategory.category(of: activity) == category, "\(activity)")
                }
                #expect(EvaluationProfile.forCategory(word) == EvaluationProfile.forCategory(category), "\(word)")
                #expect(
                    baseline.tolerance(.absDistanceErrorPercent, category: word)
                        == baseline.tolerance(.absDistanceErrorPercent, category: category), "\(word)")
            }
        }
        #expect(ActivityCategory.category(of: "driving") == "drive")
        #expect(ActivityCategory.category(of: "drive-highway") == "drive")
        #expect(ActivityCategory.category(of: "stationary-indoor") == "stationary")
        #expect(EvaluationProfile.forCategory("cycling") == .cycling)
        #expect(EvaluationProfile.categoryRules.contains("run, running → category run, profile running"))
    }

    @Test("Benchmarks/README.md lists the same activity words with their category as the help")
    func readmeListsTheSynonyms() throws {
        let readme = try String(
            contentsOf: Datasets.repository.appendingPathComponent("Benchmarks/README.md"), encoding: .utf8)
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `activity` |") })
        for (category, words) in ActivityCategory.synonyms {
            let listed = words.map { "`\($0)`" }.joined(separator: ", ") + " → category `\(category)`"
            #expect(row.contains(listed), "\(listed)")
        }
    }

    @Test("a baseline entry written with a synonym category reads as its category and gets its tolerance")
    func oldSynonymBaselinesStayReadable() throws {
        // The tester's v/tol-driving: baseline 0.001 % under "driving", now 0.30 %: passed at the default 1 pp.
        let json = #"{"recordings": {"p4": {"category": "driving", "absDistanceErrorPercent": 0.001, "fixes": 10}}}"#
        let baseline = try JSONDecoder().decode(AccuracyBaseline.self, from: Data(json.utf8))
        #expect(baseline.recordings["p4"]?.category == "drive")
        var now = RecordingResult(id: "p4", category: "drive", profile: .driving, status: .ok)
        now.trueTrack = DistanceFigures(metres: 100.30, reference: 100)
        now.fixes = 10
        let report = BenchReport(datasets: "/tmp", profileOverride: nil, recordings: [now], elapsedSeconds: 0)
        let comparison = BaselineComparison(baseline: baseline, path: "b.json", report: report, limited: false)
        #expect(comparison.categoryChanges.isEmpty)
        #expect(comparison.regressions.map(\.metric) == [.absDistanceErrorPercent])
        #expect(!comparison.passed)
        // A tolerance table keyed by a synonym counts for its category.
        let keyed = AccuracyBaseline(
            tolerances: ["driving": ["absDistanceErrorPercent": Tolerance(absolute: 0.2, relative: 0)]],
            recordings: [:])
        #expect(keyed.tolerance(.absDistanceErrorPercent, category: "drive").absolute == 0.2)
    }
}
