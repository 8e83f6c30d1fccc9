import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO

@testable import TrueTrackEvaluation

/// A CI user's own data set: the manifest's rules and the baseline's coverage checks.
@Suite struct OwnDataTests {
    static let walk = (0..<120).map { i in
        "2025-01-01T00:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z,49.\(String(format: "%06d", 100 + i * 12)),11.0,5,1.33\n"
    }.joined()

    @Test func aRepeatedIdIsAnErrorNamingBothEntries() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", "time,latitude,longitude,accuracy_m,speed_mps\n" + Self.walk)
        let entry: [String: Any] = ["id": "x", "path": "a.csv", "format": "csv", "activity": "walk"]
        #expect {
            _ = try data.manifest([entry, entry])
        } throws: { error in
            "\(error)".contains("recordings[0] and recordings[1] share the id 'x'")
        }
    }

    @Test func everyActivityWordInTheProfileRulesGetsThatProfile() {
        for (profile, categories) in EvaluationProfile.categories {
            for category in categories { #expect(EvaluationProfile.forCategory(category) == profile, "\(category)") }
        }
        for category in ["walk", "stationary", "hike", "mixed", "sail"] {
            #expect(EvaluationProfile.forCategory(category) == .walking, "\(category)")
        }
        #expect(EvaluationProfile.categoryRules.contains("run, running → category run, profile running"))
        #expect(EvaluationProfile.categoryRules.last?.hasSuffix("profile walking") == true)
    }

    @Test func aManifestWithoutRecordingsIsAnError() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        #expect {
            _ = try data.manifest([])
        } throws: { error in
            "\(error)".contains("\(data.root)/MANIFEST.json") && "\(error)".contains("recordings: the list is empty")
        }
    }

    @Test func theDataSetFolderIsLocatedWithWhereItCameFrom() {
        let fromFlag = DatasetManifest.locate(flag: "/a", environment: ["TRUETRACK_DATASETS": "/b"])
        #expect(fromFlag == DatasetManifest.Location(folder: "/a", source: .flag))
        let fromEnvironment = DatasetManifest.locate(flag: nil, environment: ["TRUETRACK_DATASETS": "/b"])
        #expect(fromEnvironment == DatasetManifest.Location(folder: "/b", source: .environment))
        let byDefault = DatasetManifest.locate(flag: "", environment: [:])
        #expect(byDefault == DatasetManifest.Location(folder: "../shared/datasets", source: .defaultFolder))
        #expect {
            _ = try DatasetManifest.load(fromEnvironment)
        } throws: { error in
            "\(error)".contains("/b/MANIFEST.json") && "\(error)".contains("TRUETRACK_DATASETS")
        }
    }

    @Test func anAbsolutePathACsvTruthAndAnInVehicleActivityAreRead() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", "time,latitude,longitude,accuracy_m,speed_mps\n" + Self.walk)
        try data.write("truth.csv", "time,latitude,longitude,accuracy_m,speed_mps\n" + Self.walk)
        let manifest = try data.manifest([
            [
                "id": "abs", "path": data.root + "/a.csv", "format": "csv", "activity": "in-vehicle (bus)",
                "ground_truth": "truth.csv", "ground_truth_format": "csv",
            ]
        ])
        let recording = try #require(manifest.recordings.first)
        #expect(recording.activityCategory == "drive")
        var other = recording
        for (activity, category) in [
            ("drive-highway", "drive"), ("stationary-indoor", "stationary"), ("in_vehicle", "drive"),
        ] {
            other.activity = activity
            #expect(other.activityCategory == category)
        }
        #expect(EvaluationProfile.forCategory(recording.activityCategory) == .driving)
        let result = Evaluator.evaluate(recording, manifest: manifest)
        #expect(result.status == .ok && result.fixes == 120, "\(result.note ?? "")")
        #expect(
            result.position != nil,
            "the CSV truth was read: \(String(describing: result.truthKind)) \(result.note ?? "")")
    }

    @Test func aTruthFileIsReadWholeDamagedEmptyOrNotUsedAndSaysWhichFiguresItLeftOut() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        let header = "time,latitude,longitude,accuracy_m,speed_mps\n"
        try data.write("a.csv", header + Self.walk)
        try data.write("whole.csv", header + Self.walk)
        try data.write("cut.csv", header + "2025-01-01T00:00:00Z,49.1")
        try data.write("empty.csv", header)
        try data.write("README.md", "start (49.0, 11.0)\n")
        let manifest = try data.manifest(
            ["whole.csv", "cut.csv", "empty.csv", "README.md"].map { truth in
                [
                    "id": truth, "path": "a.csv", "format": "csv", "activity": "walk",
                    "ground_truth": truth, "ground_truth_format": truth.hasSuffix(".md") ? "coordinates" : "csv",
                ]
            })
        let results = manifest.recordings.map { Evaluator.evaluate($0, manifest: manifest) }
        #expect(results.allSatisfy { $0.status == .ok })
        let (whole, cut, empty, readme) = (results[0], results[1], results[2], results[3])
        #expect(whole.truth?.status == .read && whole.truth?.samples == 120 && whole.truth?.summary == nil)
        #expect(whole.position != nil)
        #expect(cut.truth?.status == .damaged && cut.truth?.damagedRecords == 1)
        #expect(cut.truth?.error?.contains("\(data.root)/cut.csv:2:") == true, "\(cut.truth?.error ?? "")")
        #expect(cut.truthKind == .trajectory && cut.position == nil)
        #expect(cut.truth?.notMeasured == [.positionP50Metres, .positionP95Metres, .absDistanceErrorPercent])
        #expect(empty.truth?.status == .empty && empty.truth?.isFaulty == true)
        #expect(empty.truth?.summary?.contains("empty.csv holds no truth sample") == true)
        #expect(readme.truth?.status == .notUsed && readme.truth?.isFaulty == false)
        #expect(readme.truth?.summary == "no truth used: README.md (coordinates) is not a truth format the bench reads")
    }

    @Test func aMissingTruthFileIsAnErrorThatSaysItIsTheTruth() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("a.csv", "time,latitude,longitude,accuracy_m,speed_mps\n" + Self.walk)
        let manifest = try data.manifest([
            [
                "id": "x", "path": "a.csv", "format": "csv", "activity": "walk", "ground_truth": "gone.csv",
                "ground_truth_format": "csv",
            ]
        ])
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.status == .error)
        #expect(result.note?.hasPrefix("ground truth: \(data.root)/gone.csv") == true, "\(result.note ?? "")")
    }

    @Test func aRecordingWithoutFixesIsAnError() throws {
        let data = try TemporaryDatasets()
        defer { data.remove() }
        try data.write("empty.csv", "time,latitude,longitude\n")
        let manifest = try data.manifest([["id": "e", "path": "empty.csv", "format": "csv", "activity": "walk"]])
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.status == .error && result.note?.hasPrefix("no fixes read") == true)
    }

    func result(_ id: String, fixes: Int) -> RecordingResult {
        var r = RecordingResult(id: id, category: "walk", profile: .walking, status: .ok)
        r.fixes = fixes
        return r
    }

    @Test func theCoverageNamesMissingUncheckedAndChangedRecordings() {
        let baseline = AccuracyBaseline(recordings: [
            "a": .init(category: "walk", figures: [.absDistanceErrorPercent: 5], fixes: 100),
            "b": .init(category: "walk", figures: [:], fixes: 50),
        ])
        let report = BenchReport(
            datasets: "/tmp", profileOverride: nil, recordings: [result("a", fixes: 99), result("c", fixes: 10)],
            elapsedSeconds: 0)
        let c = baseline.coverage(of: report)
        #expect(c.comparedRecordings == 1 && c.comparedFigures == 1 && c.comparedFixCounts == 1)
        #expect(c.missingFromReport == ["b"] && c.notInBaseline == ["c"])
        #expect(c.fixCountChanges.count == 1 && c.fixCountChanges[0].now == 99 && c.fixCountChanges[0].baseline == 100)
        // In JSON the entry names its recording and value as a regression does (schema 2).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: (try? encoder.encode(c.fixCountChanges[0])) ?? Data(), as: UTF8.self)
        #expect(json == #"{"baseline":100,"recording":"a","value":99}"#)
        let none = AccuracyBaseline(recordings: [:]).coverage(of: report)
        #expect(none.comparedRecordings == 0)
    }

    @Test func aFailedRecordingKeepsItsPreviousBaselineEntry() {
        let previous = AccuracyBaseline(recordings: [
            "a": .init(category: "walk", figures: [.absDistanceErrorPercent: 5])
        ])
        var failed = result("a", fixes: 0)
        failed.status = .error
        let updated = AccuracyBaseline(
            report: BenchReport(datasets: "/tmp", profileOverride: nil, recordings: [failed], elapsedSeconds: 0),
            previous: previous, merge: false)
        #expect(updated.recordings["a"] == previous.recordings["a"])
    }
}
