import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO

@testable import TrueTrackEvaluation

@Suite struct AccuracyBaselineTests {
    func result(
        _ id: String, category: String, errorPercent: Double? = nil, phantom: Double? = nil,
        p50: Double? = nil, recall: Double? = nil
    ) -> RecordingResult {
        var r = RecordingResult(id: id, category: category, profile: .walking, status: .ok)
        if let errorPercent { r.trueTrack = DistanceFigures(metres: 100 + errorPercent, reference: 100) }
        if let phantom { r.phantomMetresPer10Minutes = MethodFigures(trueTrack: phantom, naive: 9, doppler: 1) }
        if let p50 { r.position = PositionErrorSummary(errors: [p50], withScore: true) }
        if let recall {
            r.stops = StopFigures(truthStops: [], score: nil)
            r.stops?.score = StopScore(
                truth: [TruthStop(startSeconds: 0, endSeconds: 10, source: "t")],
                detected: recall > 0 ? [DetectedStop(startSeconds: 0, endSeconds: 10)] : [])
        }
        return r
    }

    func report(_ results: [RecordingResult]) -> BenchReport {
        BenchReport(datasets: "/tmp", profileOverride: nil, recordings: results, elapsedSeconds: 0)
    }

    /// The comparison a CI job reads from the JSON: path, passed, each regression and improvement with its
    /// recording, figure, value, baseline and allowance; a figure that broke (NaN) is `null`, not a JSON error.
    @Test func theComparisonEncodesEveryRegressionAndImprovementAndWhetherItPassed() throws {
        let base = AccuracyBaseline(
            report: report([
                result("walk1", category: "walk", errorPercent: -20), result("walk2", category: "walk", p50: 5),
                result("drive1", category: "drive", errorPercent: 1),
            ]), previous: nil, merge: false)
        var broken = result("drive1", category: "drive")
        broken.trueTrack = DistanceFigures(metres: .nan, reference: 100)
        let now = report([
            result("walk1", category: "walk", errorPercent: 25), result("walk2", category: "walk", p50: 1), broken,
        ])
        let comparison = BaselineComparison(baseline: base, path: "b.json", report: now, limited: false)
        #expect(!comparison.passed && comparison.failures == ["2 regression(s)"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(comparison)) as? [String: Any])
        #expect(json["path"] as? String == "b.json")
        #expect(json["passed"] as? Bool == false)
        #expect(json["updated"] as? Bool == false)
        let regressions = try #require(json["regressions"] as? [[String: Any]])
        #expect(regressions.count == 2)
        #expect(regressions[0]["recording"] as? String == "walk1")
        #expect(regressions[0]["figure"] as? String == "absDistanceErrorPercent")
        #expect(regressions[0]["value"] as? Double == 25)
        #expect(regressions[0]["baseline"] as? Double == 20)
        #expect(regressions[0]["allowance"] as? Double == 2)
        #expect(regressions[1]["recording"] as? String == "drive1")
        #expect(regressions[1]["value"] is NSNull)
        let improvements = try #require(json["improvements"] as? [[String: Any]])
        #expect(improvements.map { $0["figure"] as? String } == ["positionP50Metres", "positionP95Metres"])
        #expect(improvements[0]["value"] as? Double == 1)
        #expect(improvements[0]["allowance"] as? Double == 0.5)
        let same = BaselineComparison(
            baseline: base, path: "b.json", report: report([result("walk1", category: "walk", errorPercent: 20)]),
            limited: true)
        #expect(same.passed && same.regressions.isEmpty && same.missingFromRun.isEmpty)
        #expect(same.lines.last == "compared 1 figures of 1 recordings and 1 fix counts with b.json")
    }

    /// What a CI job must tell apart (a tester's): a recording that could not be evaluated is data missing, not
    /// three regressions and a fix count of 0; a truth file cut short at a line end reads without an error, and
    /// its sample count, kept in the baseline, fails the run.
    @Test func missingDataAndAShortenedTruthFailAsSuchNotAsRegressions() {
        var drive = result("drive1", category: "drive", errorPercent: 0.1, p50: 1)
        drive.fixes = 1653
        drive.truth = TruthReading(file: "t.gga", format: "nmea", status: .read, samples: 1748)
        let base = AccuracyBaseline(report: report([drive]), previous: nil, merge: false)
        #expect(base.recordings["drive1"]?.truthSamples == 1748 && base.recordings["drive1"]?.fixes == 1653)
        #expect(BaselineComparison(baseline: base, path: "b.json", report: report([drive]), limited: false).passed)

        var missing = RecordingResult(id: "drive1", category: "drive", profile: .walking, status: .error)
        missing.note = "ground truth: t.gga: cannot read: No such file or directory"
        let gone = BaselineComparison(baseline: base, path: "b.json", report: report([missing]), limited: false)
        #expect(gone.regressions.isEmpty && gone.fixCountChanges.isEmpty)
        #expect(gone.unreadable.map(\.id) == ["drive1"])
        #expect(!gone.passed && gone.failures.count == 1 && gone.failures[0].contains("could not be evaluated"))
        #expect(gone.lines.contains("ERROR drive1 not evaluated: \(missing.note!)"))

        var short = drive
        short.truth = TruthReading(file: "t.gga", format: "nmea", status: .read, samples: 874)
        let cut = BaselineComparison(baseline: base, path: "b.json", report: report([short]), limited: false)
        #expect(!cut.passed && cut.regressions.isEmpty)
        #expect(cut.truthSampleChanges.map(\.now) == [874])
        #expect(cut.lines.contains("CHANGED drive1 ground-truth samples: 874 vs baseline 1748"))
    }

    @Test func flagsOnlyFiguresWorseThanTheirTolerance() {
        let base = AccuracyBaseline(
            report: report([
                result("walk1", category: "walk", errorPercent: -20),
                result("drive1", category: "drive", errorPercent: 0.1, p50: 1.0),
                result("still", category: "stationary", phantom: 0.2),
            ]), previous: nil, merge: false)
        #expect(base.recordings["walk1"]?.figures[.absDistanceErrorPercent] == 20)
        // walk: allowance max(1 pp, 10 % of 20) = 2 pp; drive: max(0.05, 25 % of 0.1) = 0.05 pp;
        // phantom: max(0.5, 25 %) = 0.5; p50: max(0.1, 10 %) = 0.1.
        #expect(
            base.regressions(
                in: report([
                    result("walk1", category: "walk", errorPercent: 21.9),
                    result("drive1", category: "drive", errorPercent: -0.149, p50: 1.09),
                    result("still", category: "stationary", phantom: 0.69),
                ])
            ).isEmpty)
        let worse = base.regressions(
            in: report([
                result("walk1", category: "walk", errorPercent: -22.1),
                result("drive1", category: "drive", errorPercent: 0.16, p50: 1.11),
                result("still", category: "stationary", phantom: 0.71),
            ]))
        #expect(worse.map(\.recording) == ["walk1", "drive1", "drive1", "still"])
        #expect(
            worse.map(\.metric) == [
                .absDistanceErrorPercent, .absDistanceErrorPercent, .positionP50Metres,
                .phantomMetresPer10Minutes,
            ])
        #expect(worse[0].description.hasPrefix("REGRESSION walk1 absDistanceErrorPercent: 22.100 vs baseline 20.000"))
        // Better is never a regression, but it is reported as an improvement.
        let better = report([result("walk1", category: "walk", errorPercent: 5)])
        #expect(base.regressions(in: better).isEmpty)
        #expect(base.improvements(in: better).count == 1)
    }

    @Test func higherIsBetterForStopsAndAMissingFigureRegresses() {
        let base = AccuracyBaseline(
            report: report([result("s", category: "walk", recall: 1)]), previous: nil, merge: false)
        #expect(base.recordings["s"]?.figures[.stopRecall] == 1)
        let lost = base.regressions(in: report([result("s", category: "walk", recall: 0)]))
        #expect(lost.map(\.metric) == [.stopRecall])
        let gone = base.regressions(in: report([result("s", category: "walk")]))
        #expect(gone.count == 3 && gone.allSatisfy { $0.current == nil })  // recall, precision, time precision
        // A recording not in this run (--only) is not compared.
        #expect(base.regressions(in: report([result("other", category: "walk", errorPercent: 99)])).isEmpty)
    }

    /// A recording nobody can score still has a distance: it may move 1 m or 5 % either way, no more.
    @Test func aDistanceWithoutAReferenceRegressesWhenItMovesEitherWay() {
        func unscored(_ id: String, _ metres: Double) -> RecordingResult {
            var r = RecordingResult(id: id, category: "walk", profile: .walking, status: .ok)
            r.trueTrack = DistanceFigures(metres: metres, reference: nil)
            return r
        }
        var desk = RecordingResult(id: "desk", category: "stationary", profile: .walking, status: .ok)
        desk.trueTrack = DistanceFigures(metres: 0.4, reference: 0)
        let base = AccuracyBaseline(report: report([unscored("nlp", 69.8), desk]), previous: nil, merge: false)
        #expect(base.recordings["nlp"]?.figures == [.unreferencedDistanceMetres: 69.8])
        // A zero reference is a reference: a stationary log is watched by its phantom figure instead.
        #expect(base.recordings["desk"]?.figures.isEmpty == true)
        // Allowance max(1 m, 5 % of 69.8 m) = 3.49 m.
        #expect(base.regressions(in: report([unscored("nlp", 73.2)])).isEmpty)
        #expect(base.regressions(in: report([unscored("nlp", 66.4)])).isEmpty)
        let silenced = base.regressions(in: report([unscored("nlp", 0)]))
        #expect(silenced.map(\.metric) == [.unreferencedDistanceMetres])
        #expect(silenced.first?.description.contains("allowed ±3.490") == true)
        #expect(base.regressions(in: report([unscored("nlp", 73.4)])).count == 1)
        // Neither way is better: never listed as an improvement.
        #expect(base.improvements(in: report([unscored("nlp", 0)])).isEmpty)
    }

    @Test func fileTolerancesOverrideTheDefaultsAndSurviveAnUpdate() throws {
        var base = AccuracyBaseline(
            report: report([result("w", category: "walk", errorPercent: 10)]), previous: nil,
            merge: false)
        base.tolerances["walk"] = [BaselineMetric.absDistanceErrorPercent.rawValue: Tolerance(absolute: 0, relative: 0)]
        #expect(base.regressions(in: report([result("w", category: "walk", errorPercent: 10.001)])).count == 1)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tt-baseline-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try base.save(path: path)
        let loaded = try AccuracyBaseline.load(path: path)
        #expect(loaded == base)
        // --update-baseline keeps the tolerances; with --only (merge) it keeps the other recordings too.
        let updated = AccuracyBaseline(
            report: report([result("x", category: "walk", errorPercent: 3)]),
            previous: loaded, merge: true)
        #expect(updated.tolerances == base.tolerances)
        #expect(Set(updated.recordings.keys) == ["w", "x"])
        #expect(
            AccuracyBaseline(
                report: report([result("x", category: "walk", errorPercent: 3)]), previous: loaded,
                merge: false
            ).recordings.keys.sorted() == ["x"])
    }

    /// A typo in a baseline must not switch a check off unseen (a CI tester's misspelt figure, extra key, `null`
    /// figure and negative tolerance all passed): each is an error naming the place; the note may be left out.
    @Test func refusesBaselinesWhoseTyposWouldSwitchChecksOff() throws {
        func load(_ json: String) -> String? {
            do {
                _ = try JSONDecoder().decode(AccuracyBaseline.self, from: Data(json.utf8))
                return nil
            } catch { return DecodingFailure.describe(error, data: Data(json.utf8)) }
        }
        let entry = #""w": {"category": "walk", "absDistanceErrorPercent": 3}"#
        #expect(load(#"{"recordings": {\#(entry)}}"#) == nil)
        let wrong = [
            (#"{"recordings": {"w": {"category": "walk", "absDistanceErrorPercnt": 3}}}"#, "absDistanceErrorPercnt"),
            (#"{"recordings": {"w": {"category": "walk", "positionP50Metres": null}}}"#, "positionP50Metres"),
            (#"{"recordings": {\#(entry)}, "bogus": 1}"#, "bogus"),
            (
                #"{"recordings": {\#(entry)}, "tolerances": {"walk": {"absDistanceErrorPercent": {"absolute": -1, "relative": 0}}}}"#,
                "tolerances.walk.absDistanceErrorPercent"
            ),
            (
                #"{"recordings": {\#(entry)}, "tolerances": {"walk": {"p50": {"absolute": 1, "relative": 0}}}}"#,
                "tolerances.walk.p50"
            ),
            // A negative figure gates against a value no run reaches; a profile no run has was named in Swift's words.
            (
                #"{"recordings": {"w": {"category": "walk", "positionP95Metres": -1}}}"#,
                "recordings.w.positionP95Metres: -1.0 is not a figure (a finite number, 0 or more)"
            ),
            (#"{"recordings": {"w": {"category": "walk", "fixes": -3}}}"#, "recordings.w.fixes: -3 is not a count"),
            (
                #"{"recordings": {\#(entry)}, "profile": "flying"}"#,
                "profile: 'flying' is no profile (expected one of: walking, running, cycling, driving)"
            ),
            (
                #"{"recordings": {"w": {"category": "walk", "positionP95Metres": "1.7"}}}"#,
                #"recordings.w.positionP95Metres: expected Double, found "1.7""#
            ),
        ]
        for (json, place) in wrong {
            let failure = load(json)
            #expect(failure?.contains(place) == true, "\(json): \(String(describing: failure))")
        }
    }

    /// A tolerance block for a misspelt category (`drvie`) left the drives on the default tolerance, 1 pp instead of
    /// 0.05 pp, with only a warning (a CI tester's drive regression passed): an error naming the file, the block and
    /// the known categories. A category of the user's own is known once their manifest or the baseline's entries
    /// have it.
    @Test func aToleranceBlockNamingNoCategoryIsAnError() throws {
        var base = AccuracyBaseline(
            report: report([result("d", category: "drive", errorPercent: 0.1)]), previous: nil, merge: false)
        let table = [BaselineMetric.absDistanceErrorPercent.rawValue: Tolerance(absolute: 0.05, relative: 0.25)]
        base.tolerances["drvie"] = table
        let error = #expect(throws: BaselineError.self) {
            try base.checkToleranceCategories(["drive"], path: "acc.json")
        }
        let message = error?.description ?? ""
        #expect(message.contains("cannot read baseline acc.json: tolerances.drvie: no category 'drvie'"), "\(message)")
        #expect(message.contains("did you mean 'drive'?"), "\(message)")
        #expect(message.contains("known categories: default, bike, drive, run, walk"), "\(message)")
        base.tolerances["drvie"] = nil
        // The user's own category, in the manifest or in the baseline's entries; a synonym of a built-in one.
        base.tolerances["hike"] = table
        base.tolerances["driving"] = table
        #expect(throws: Never.self) { try base.checkToleranceCategories(["drive", "hike"], path: "acc.json") }
        base.recordings["h"] = .init(category: "hike", figures: [:])
        #expect(throws: Never.self) { try base.checkToleranceCategories(["drive"], path: "acc.json") }
    }

    /// A run with another profile than the baseline's, or a recording whose category (which picks its
    /// tolerances) changed, fails as such (a tester's driving-profile baseline read as 21 regressions without a
    /// word of the profile; a category edited in the file loosened a drive's tolerance 20-fold).
    @Test func anotherProfileOrCategoryThanTheBaselinesFailsTheRun() {
        let base = AccuracyBaseline(
            report: report([result("d", category: "drive", errorPercent: 0.1)]), previous: nil, merge: false)
        #expect(base.profileOverride == nil)
        var driving = report([result("d", category: "drive", errorPercent: 0.1)])
        driving.profileOverride = .driving
        let other = BaselineComparison(baseline: base, path: "b.json", report: driving, limited: false)
        #expect(!other.passed && other.failures.contains { $0.contains("--profile driving") })
        #expect(AccuracyBaseline(report: driving, previous: nil, merge: false).profileOverride == .driving)
        // Re-recorded with another profile, the file keeps no entry of the old one: not a recording that failed
        // to load (a reviewer's kept its own-profile entry under "profile": "driving"), nor with --only.
        var failed = RecordingResult(id: "w", category: "walk", profile: .driving, status: .error)
        failed.note = "missing"
        let mixed = AccuracyBaseline(
            report: report([result("w", category: "walk", errorPercent: 1)]), previous: nil, merge: false)
        var rerun = report([result("d", category: "drive", errorPercent: 0.1), failed])
        rerun.profileOverride = .driving
        #expect(AccuracyBaseline(report: rerun, previous: mixed, merge: false).recordings.keys.sorted() == ["d"])
        #expect(AccuracyBaseline(report: rerun, previous: mixed, merge: true).recordings.keys.sorted() == ["d"])
        #expect(
            AccuracyBaseline(report: report([failed]), previous: mixed, merge: false).recordings.keys.sorted() == ["w"])
        let walk = report([result("d", category: "walk", errorPercent: 0.1)])
        let recategorised = BaselineComparison(baseline: base, path: "b.json", report: walk, limited: false)
        #expect(recategorised.categoryChanges == ["d: drive in the baseline, walk in the manifest"])
        #expect(!recategorised.passed)
    }
}
