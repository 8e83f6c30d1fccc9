import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO
import TrueTrackTestSupport

@testable import TrueTrackEvaluation

/// How `truetrack bench` reads a manifest entry: activity synonyms, the reference distance a truth replaces, the
/// accuracy scale, providers, unknown keys and missing or wrong formats (a CI tester's findings, 2026-12-04).
@Suite struct ManifestReadingTests {
    static let header = "time,latitude,longitude,accuracy_m,speed_mps\n"

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

    /// A 119 s walk north, 1.33 m/s (its own truth).
    static let walk = (0..<120).map { i in
        "2025-01-01T00:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z,49.\(String(format: "%06d", 100 + i * 12)),11.0,5,1.33\n"
    }.joined()

    @Test("a stated reference more than 1 % from the truth's length is named with both values and the one used")
    func referenceDisagreementIsSaid() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", Self.header + Self.walk)
        try data.write("truth.csv", Self.header + Self.walk)
        let entry: [String: Any] = [
            "id": "w", "path": "a.csv", "format": "csv", "activity": "walk", "ground_truth": "truth.csv",
            "ground_truth_format": "csv", "reference_distance_m": 700,
        ]
        let manifest = try data.manifest([entry])
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.referenceSource == "truth")
        #expect(result.manifestReferenceDistanceMetres == 700)
        let used = try #require(result.referenceDistanceMetres)
        #expect(abs(used - 159) < 2, "\(used)")
        let note = try #require(result.referenceDisagreement)
        #expect(note.hasPrefix("w: the manifest's reference_distance_m, 700.0 m, differs"))
        #expect(note.contains(String(format: "scored against the truth's %.1f m", used)))
        var close = entry
        close["reference_distance_m"] = used * 1.005
        let agreeing = try data.manifest([close])
        #expect(Evaluator.evaluate(agreeing.recordings[0], manifest: agreeing).referenceDisagreement == nil)
    }

    @Test("hdop_scale takes precedence over EA/10 in the notes, which alone still scales HDOP")
    func hdopScaleKey() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        let notes = "the NMEA HDOP field is EA/10, not a DOP"
        let manifest = try data.manifest([
            ["id": "notes", "path": "a.nmea", "format": "nmea", "activity": "drive", "notes": notes],
            ["id": "key", "path": "a.nmea", "format": "nmea", "activity": "drive", "hdop_scale": "accuracy10"],
            [
                "id": "both", "path": "a.nmea", "format": "nmea", "activity": "drive", "notes": notes,
                "hdop_scale": "dilution",
            ],
            ["id": "uere", "path": "a.nmea", "format": "nmea", "activity": "drive", "hdop_scale": 3],
        ])
        let r = manifest.recordings
        #expect(r[0].accuracyScaleFromNotes && r[0].readingPlan.options.hdop == .scaledAccuracy(metresPerUnit: 10))
        #expect(!r[1].accuracyScaleFromNotes && r[1].readingPlan.options.hdop == .scaledAccuracy(metresPerUnit: 10))
        #expect(!r[2].accuracyScaleFromNotes)
        #expect(r[2].readingPlan.options.hdop == .dilution(userEquivalentRangeErrorMetres: 5))
        #expect(r[3].readingPlan.options.hdop == .dilution(userEquivalentRangeErrorMetres: 3))
        #expect {
            _ = try data.manifest([
                ["id": "bad", "path": "a.nmea", "format": "nmea", "activity": "drive", "hdop_scale": "EA/10"]
            ])
        } throws: { error in
            "\(error)".contains("recordings[0].hdop_scale") && "\(error)".contains("accuracy10")
        }
    }

    @Test("a provider is read in any case, and an unknown one is an error naming the entry and its format")
    func providerFromTheFormat() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", Self.header + Self.walk)
        let manifest = try data.manifest([
            ["id": "lower", "path": "a.csv", "format": "gnsslogger (provider=flp)", "activity": "walk"],
            ["id": "typo", "path": "a.csv", "format": "gnsslogger (Provider=FPL)", "activity": "walk"],
        ])
        #expect(manifest.recordings[0].readingPlan.options.providers == [.fused])
        #expect(try manifest.readingPlan(of: manifest.recordings[0]).options.providers == [.fused])
        #expect {
            _ = try manifest.readingPlan(of: manifest.recordings[1])
        } throws: { error in
            let text = "\(error)"
            return text.contains("\(data.root)/MANIFEST.json") && text.contains("recordings[1] (id 'typo').format")
                && text.contains("unknown provider 'FPL'") && !text.contains("--provider")
        }
        let failed = Evaluator.evaluate(manifest.recordings[1], manifest: manifest)
        #expect(failed.status == .error && failed.note?.contains("unknown provider 'FPL'") == true)
        // A name with `_` is read whole, and an empty one is an error (it kept only the fixes without a provider).
        let more = try data.manifest([
            ["id": "under", "path": "a.csv", "format": "gnsslogger (Provider=ground_truth)", "activity": "walk"],
            ["id": "empty", "path": "a.csv", "format": "gnsslogger (Provider=)", "activity": "walk"],
        ])
        #expect(more.recordings[0].providerName == "ground_truth")
        #expect(try more.readingPlan(of: more.recordings[0]).options.providers == [.groundTruth])
        #expect {
            _ = try more.readingPlan(of: more.recordings[1])
        } throws: { error in "\(error)".contains("Provider= names no provider") }
    }

    @Test("an unknown manifest key is a warning naming the entry, the key and the nearest known key")
    func unknownKeysWarn() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        let manifest = try data.manifest([
            ["id": "w", "path": "a.csv", "format": "csv", "activity": "walk", "reference_distance": 600],
            ["id": "x", "path": "a.csv", "format": "csv", "activity": "walk", "colour": "red"],
        ])
        #expect(manifest.warnings.count == 2)
        #expect(
            manifest.warnings.first
                == "recordings[0] (id 'w'): unknown key 'reference_distance' ignored (did you mean "
                + "'reference_distance_m'?)")
        #expect(
            manifest.warnings.last?.hasPrefix("recordings[1] (id 'x'): unknown key 'colour' ignored (known keys:")
                == true)
    }

    @Test("the shared manifest holds no key the bench does not read", .enabled(if: Datasets.available))
    func sharedManifestHasNoUnknownKey() throws {
        let manifest = try DatasetManifest.load(folder: try #require(Datasets.rootPath))
        #expect(manifest.warnings.isEmpty, "\(manifest.warnings)")
    }

    @Test("a truth without ground_truth_format is reported as not used, like an unknown format")
    func truthWithoutFormat() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", Self.header + Self.walk)
        try data.write("truth.csv", Self.header + Self.walk)
        let manifest = try data.manifest([
            ["id": "w", "path": "a.csv", "format": "csv", "activity": "walk", "ground_truth": "truth.csv"]
        ])
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.status == .ok)
        #expect(result.truth?.status == .notUsed)
        #expect(
            result.truth?.summary?.hasPrefix("no truth used: truth.csv: the entry gives no ground_truth_format") == true
        )
    }

    @Test("a recording that reads no fix names its declared format and what the content looks like")
    func wrongFormatHint() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", Self.header + Self.walk)
        let manifest = try data.manifest([["id": "w", "path": "a.csv", "format": "gpx", "activity": "walk"]])
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.status == .error)
        let note = try #require(result.note)
        // (No GPX reader gets past a CSV's first line: the read ends there, naming it.)
        #expect(note.contains("a.csv:1:1"), "\(note)")
        #expect(note.contains("recordings[0] (id 'w') says \"format\": \"gpx\": check it"))
        #expect(note.contains("the file's content looks like csv"))
    }
}
