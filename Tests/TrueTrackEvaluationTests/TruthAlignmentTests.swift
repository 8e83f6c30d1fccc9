import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO

@testable import TrueTrackEvaluation

/// A throwaway data-set folder with a MANIFEST.json, removed by the caller.
struct TemporaryDatasets {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tt-eval-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
    }

    func manifest(_ recordings: [[String: Any]]) throws -> DatasetManifest {
        let data = try JSONSerialization.data(withJSONObject: ["recordings": recordings])
        try data.write(to: URL(fileURLWithPath: root + "/MANIFEST.json"))
        return try DatasetManifest.load(folder: root)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite struct TruthAlignmentTests {
    /// A truth of a walk's first and last 30 s only spans the fixes but holds no sample inside them: its length over
    /// their span is 0, and it was the reference a 1,678 m walk was scored against (a reviewer's). It is no
    /// reference for that span; a truth sampled through the span is.
    @Test func aTruthWithoutSamplesInsideTheSpanIsNoReferenceForIt() {
        let ends = TruthTrack(samples: [
            TruthSample(seconds: 0, latitude: 48, longitude: 11), TruthSample(seconds: 30, latitude: 48, longitude: 11),
            TruthSample(seconds: 1170, latitude: 48, longitude: 11),
            TruthSample(seconds: 1200, latitude: 48, longitude: 11),
        ])
        #expect(!ends.hasSamples(near: 99...1098, withinSeconds: 60))
        #expect(ends.pathLength(from: 99, to: 1098) == 0)
        let dense = TruthTrack(
            samples: (0...1200).map {
                TruthSample(seconds: Double($0), latitude: 48 + Double($0) * 1e-5, longitude: 11)
            })
        #expect(dense.hasSamples(near: 99...1098, withinSeconds: 60))
    }

    @Test func interpolatesBetweenSamplesAndExcludesGapsAndTheOutside() throws {
        let track = TruthTrack(samples: [
            TruthSample(seconds: 12, latitude: 1, longitude: 4),  // given out of order: sorted
            TruthSample(seconds: 10, latitude: 0, longitude: 0),
            TruthSample(seconds: 11, latitude: 1, longitude: 2),
            TruthSample(seconds: 20, latitude: 5, longitude: 5),  // 8 s after the previous: a gap
        ])
        let mid = try #require(track.position(at: 10.25))
        #expect(mid.latitude == 0.25 && mid.longitude == 0.5)
        let hit = try #require(track.position(at: 11))
        #expect(hit.latitude == 1 && hit.longitude == 2)
        #expect(track.position(at: 20)?.latitude == 5)  // an exact hit needs no bracket
        #expect(track.position(at: 15) == nil)  // inside the 8 s gap
        #expect(track.position(at: 9.999) == nil)
        #expect(track.position(at: 20.001) == nil)
        #expect(track.position(at: .nan) == nil)
        #expect(track.span == 10...20)
        let length = track.pathLength(from: 10, to: 11)
        #expect(abs(length - Geodesic.wgs84.distance(from: (0, 0), to: (1, 2))) < 1e-6)
    }

    /// A car at 20 m/s north; GSDC 2021 truth stamped in GPS time (18 s ahead of UTC in 2020). If the leap
    /// seconds were ignored, the truth would be 360 m ahead of the fixes.
    @Test func gpsTimeTruthMeetsUTCFixesAtTheSameInstant() throws {
        let folder = try TemporaryDatasets()
        defer { folder.remove() }
        let startUTC: Int64 = 1_589_494_200_000  // 2020-05-14T22:10:00Z
        let step = 20.0 / milliDegree * 0.001  // degrees of latitude per second at 20 m/s
        var device = "time,latitude,longitude,accuracy_m,speed_mps\n"
        var truth = "collectionName,phoneName,millisSinceGpsEpoch,latDeg,lngDeg,heightAboveWgs84EllipsoidM\n"
        for i in 0..<120 {
            let t = Timestamp(millisecondsSince1970: startUTC + Int64(i) * 1000)
            let iso = ISO8601.format(t)
            device += "\(iso),\(37 + Double(i) * step),-122,3,20\n"
            truth += "MTV,Pixel4,\(t.gpsMilliseconds),\(37 + Double(i) * step),-122,10\n"
        }
        #expect(
            Timestamp(millisecondsSince1970: startUTC).gpsMilliseconds
                == startUTC - Timestamp.gpsEpochMillisecondsSince1970 + 18_000)
        try folder.write("drive.csv", device)
        try folder.write("truth.csv", truth)
        let manifest = try folder.manifest([
            [
                "id": "drive", "path": "drive.csv", "format": "csv", "activity": "drive",
                "ground_truth": "truth.csv", "ground_truth_format": "gsdc-2021-ground-truth-csv (GPS time)",
            ]
        ])
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.status == .ok, "\(result.note ?? "")")
        #expect(result.truthKind == .trajectory)
        let raw = try #require(result.rawPosition)
        #expect(raw.count == 120)
        #expect(raw.p95Metres < 0.01)
        let filtered = try #require(result.position)
        #expect(filtered.p95Metres < 0.5)
        // No reference in the manifest: the truth's length over the fixes' span (119 s at 20 m/s on the sphere
        // the steps were drawn on), measured on the ellipsoid: the meridian arc between its ends.
        #expect(result.referenceSource == "truth")
        let arc = Geodesic.wgs84.distance(from: (37, -122), to: (37 + 119 * step, -122))
        #expect(abs((result.referenceDistanceMetres ?? 0) - arc) < 0.01)
        #expect(abs(arc - 2380) < 5)
    }

    /// IPIN: waypoints are stamped on the app clock; fix times (UTC) are far from it. Each fix must be placed
    /// by its own AppTimestamp.
    @Test func ipinFixesAreAlignedOnTheAppClock() throws {
        let folder = try TemporaryDatasets()
        defer { folder.remove() }
        var log = "% header\n"
        // Waypoints every 10 s, 10 m apart eastward at the equator; fixes every second exactly on the path.
        let east = 10.0 / milliDegree * 0.001
        for k in 0...6 { log += "POSI;\(60 + k * 10).0;\(k + 1);0.0;\(Double(k) * east);0;100\n" }
        for i in 0...60 {
            let app = 60.0 + Double(i), lon = Double(i) * east / 10
            log += "GNSS;\(app);\(1_686_000_000.0 + Double(i) * 1.7);0.0;\(lon);100.0;90.0;3.0;1.0;20;15\n"
        }
        try folder.write("walk.txt", log)
        let manifest = try folder.manifest([
            [
                "id": "walk", "path": "walk.txt", "format": "ipin-getsensordata", "activity": "walk",
                "ground_truth": "walk.txt", "ground_truth_format": "POSI rows in the same file",
                "reference_distance_m": 60.0,
            ]
        ])
        let aligned = try AlignedRecording.load(manifest.recordings[0], manifest: manifest)
        #expect(aligned.clock == .appTime)
        #expect(aligned.clockSeconds.first == 60 && aligned.clockSeconds.last == 120)
        let result = Evaluator.evaluate(manifest.recordings[0], manifest: manifest)
        #expect(result.status == .ok, "\(result.note ?? "")")
        #expect(result.truthKind == .waypoints)
        let raw = try #require(result.rawPosition)
        #expect(raw.count == 61)
        #expect(raw.p95Metres < 0.01)
        #expect(result.position?.gsdcScoreMetres == nil)
        #expect(abs((result.naive?.metres ?? 0) - 60) < 0.01)
    }

    /// Detected stops come in UTC; on the IPIN app clock they are moved through the nearest fix.
    @Test func stopTimesMoveOntoTheAppClockThroughTheNearestFix() throws {
        let fixes = [try fix(1_000_000, 0, 0), try fix(1_002_000, 0, 0), try fix(1_001_000, 0, 0)]
        let onApp = AlignedRecording(fixes: fixes, clockSeconds: [60, 62.5, 61], clock: .appTime)
        let map = ClockMap(onApp)
        #expect(map.seconds(at: Timestamp(millisecondsSince1970: 1_002_000)) == 62.5)
        #expect(map.seconds(at: Timestamp(millisecondsSince1970: 1_001_400)) == 61.4)  // nearest: the 61 s fix
        #expect(map.seconds(at: Timestamp(millisecondsSince1970: 999_000)) == 59)
        let onUTC = ClockMap(AlignedRecording(utcFixes: fixes))
        #expect(onUTC.seconds(at: Timestamp(millisecondsSince1970: 1_001_400)) == 1_001.4)
    }
}
