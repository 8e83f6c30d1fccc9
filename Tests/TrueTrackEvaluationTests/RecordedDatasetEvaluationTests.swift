import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO
import TrueTrackTestSupport

@testable import TrueTrackEvaluation

/// Finds the shared recorded data sets: `TRUETRACK_DATASETS`, else `../shared/datasets` beside the checkout.
enum EvaluationDatasets {
    static var root: String? { Datasets.rootPath }
    static var available: Bool { Datasets.available }
    static let missingReason = Datasets.missingReason
    static let baselinePath = Datasets.repository.appendingPathComponent("Benchmarks/accuracy-baseline.json").path
}

@Suite(.enabled(if: EvaluationDatasets.available, EvaluationDatasets.missingReason))
struct RecordedDatasetEvaluationTests {
    let manifest: DatasetManifest

    init() throws { manifest = try DatasetManifest.load(folder: EvaluationDatasets.root!) }

    func evaluate(_ id: String, profile: EvaluationProfile? = nil) throws -> RecordingResult {
        let recording = try #require(manifest.recordings.first { $0.id == id })
        return Evaluator.evaluate(recording, manifest: manifest, profile: profile)
    }

    /// The reference measures reproduce the peers' note (PEERS-ACCURACY.md), computed independently.
    @Test func naiveAndDopplerMatchThePeerFigures() throws {
        let walk = try evaluate("ipin2023-t01r02")
        #expect(walk.status == .ok)
        #expect(walk.referenceDistanceMetres == 101.5)
        #expect(abs((walk.naive?.errorPercent ?? 0) - 2296) < 1)
        #expect(abs((walk.doppler?.errorPercent ?? 0) - -53.3) < 0.1)
        #expect(walk.rejections["duplicate"] == 201)
        let still = try evaluate("gmt-stationary-2016-06-30")
        #expect(abs((still.phantomMetresPer10Minutes?.naive ?? 0) - 10.12) < 0.01)
        #expect(abs((still.phantomMetresPer10Minutes?.doppler ?? 0) - 2.54) < 0.01)
        let drive = try evaluate("ublox-f9k-span-mtv")
        #expect(abs((drive.naive?.errorPercent ?? 0) - -1.48) < 0.01)
        // The raw fixes against SPAN (manifest: median 0.49 m, p95 0.83 m).
        #expect(abs((drive.rawPosition?.p50Metres ?? 0) - 0.49) < 0.01)
        #expect(abs((drive.rawPosition?.p95Metres ?? 0) - 0.83) < 0.01)
        // A recording without a single speed reading has no Doppler figure (its 0 m read −100 %).
        let hike = try evaluate("gpx-korita-zbevnica")
        #expect(hike.status == .ok && hike.naive != nil)
        #expect(hike.doppler == nil)
    }

    /// The 10 Hz SPAN truth (all RMC checksums wrong) aligns with the phone: the manifest's raw error
    /// median 0.8 m, p95 1.73 m; and the GSDC 2021 sample, whose truth is in GPS time, is within metres
    /// (ignoring the 18 leap seconds would put it tens of metres off).
    @Test func spanAndGPSTimeTruthAlign() throws {
        let phone = try evaluate("gsdc2020-mtv1-pixel4")
        #expect(phone.truthKind == .trajectory)
        #expect(phone.rawPosition?.count == 1737)
        #expect(abs((phone.rawPosition?.p50Metres ?? 0) - 0.80) < 0.01)
        #expect(abs((phone.rawPosition?.p95Metres ?? 0) - 1.73) < 0.01)
        let score = try #require(phone.position?.gsdcScoreMetres)
        #expect(score < 2)
        let sample = try evaluate("gsdc2021-pixel4-sample")
        #expect(sample.readErrors == 0 && sample.fieldsReadAsMissing == 1)  // the corrupt altitude, read as missing
        let raw = try #require(sample.rawPosition)
        #expect(raw.count >= 3)
        #expect(raw.p95Metres < 5)
    }

    @Test func truthStopsFromWaypointsLabelsAndStationaryLogs() throws {
        let t25 = try evaluate("ipin2023-t25r01")
        let stops = try #require(t25.stops?.truthStops)
        #expect(stops.contains { abs($0.durationSeconds - 39.38) < 0.01 && $0.source == "repeated waypoint 13-14" })
        let geolife = try evaluate("geolife-010-20080402")
        // The labels leave 152 s (walk → taxi) and 17,401 s (taxi → bus) unlabelled, but the logger recorded no
        // fix inside either: silence, unobservable, so neither is a truth stop a detector could be scored on.
        #expect(geolife.stops?.truthStops.isEmpty == true)
        let labels = try GeoLifeLabels.read(path: Datasets.path("geolife-010-mixed/labels.txt"))
        let gaps = GroundTruth.stops(labels: labels, recording: 1_207_116_566...1_207_160_000)
        #expect(gaps.map(\.durationSeconds) == [152, 17401])
        let still = try evaluate("rtk-reach-open")
        #expect(still.stops?.truthStops.count == 1)
        #expect(try evaluate("gsdc2022-ground-truth-sample").status == .skipped)
    }

    /// Every recording loads and the checked-in baseline holds; a wrong profile (walking on the drives) is a
    /// regression the check catches.
    @Test func checkedInBaselineHoldsAndCatchesADegradedConfiguration() throws {
        let baseline = try AccuracyBaseline.load(path: EvaluationDatasets.baselinePath)
        let results = manifest.recordings.map { Evaluator.evaluate($0, manifest: manifest) }
        #expect(results.allSatisfy { $0.status != .error }, "\(results.filter { $0.status == .error }.map(\.id))")
        let report = BenchReport(datasets: manifest.root, profileOverride: nil, recordings: results, elapsedSeconds: 0)
        let regressions = baseline.regressions(in: report)
        #expect(regressions.isEmpty, "\(regressions)")
        let drives = manifest.recordings.filter { $0.activityCategory == "drive" }
            .map { Evaluator.evaluate($0, manifest: manifest, profile: .walking) }
        let degraded = baseline.regressions(
            in: BenchReport(
                datasets: manifest.root, profileOverride: .walking,
                recordings: drives, elapsedSeconds: 0))
        #expect(degraded.contains { $0.recording == "gsdc2020-mtv1-pixel4" && $0.metric == .absDistanceErrorPercent })
    }
}
