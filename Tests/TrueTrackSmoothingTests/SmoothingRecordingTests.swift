import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO
import TrueTrackSmoothing

/// Reads the shared recordings and measures the smoother against their truth.
enum RecordingEvaluation {
    static func read<R: FixReader>(_ reader: R) throws -> [Fix] {
        var reader = reader
        let result = reader.readAll()
        if let error = result.error { throw error }
        return result.fixes
    }

    static let manifest: DatasetManifest? = Datasets.root.flatMap { try? DatasetManifest.load(folder: $0.path) }

    static func recording(_ id: String) throws -> DatasetManifest.Recording {
        try #require(manifest?.recordings.first { $0.id == id })
    }

    /// A recording's fixes, read as its manifest entry says.
    static func fixes(_ id: String) throws -> [Fix] {
        let r = try recording(id)
        var (format, options) = r.readingPlan
        options.lenient = true
        return try read(AnyFixReader(path: Datasets.path(r.path), format: format, options: options))
    }

    /// SPAN truth (GGA positions, 10 Hz); its RMC checksums are wrong on purpose.
    static func spanTruth(_ path: String) throws -> [Fix] {
        try read(
            NMEAReader(path: Datasets.path(path), options: ReadOptions(lenient: true), checksums: .acceptMismatches))
    }

    /// Horizontal errors (metres) of timed positions against a truth track interpolated linearly in time
    /// (only where the truth's samples bracket the time within 1.5 s).
    static func errors(_ points: [(Timestamp, Double, Double)], truth: [Fix]) -> [Double] {
        var result: [Double] = []
        var j = 0
        for (t, lat, lon) in points {
            while j + 1 < truth.count && truth[j + 1].timestamp <= t { j += 1 }
            guard j + 1 < truth.count, truth[j].timestamp <= t else { continue }
            let a = truth[j], b = truth[j + 1]
            let span = a.timestamp.seconds(to: b.timestamp)
            guard span > 0, span <= 1.5 else { continue }
            let w = a.timestamp.seconds(to: t) / span
            let tl = a.latitude + (b.latitude - a.latitude) * w, tn = a.longitude + (b.longitude - a.longitude) * w
            result.append(Haversine.distance(from: (lat, lon), to: (tl, tn)))
        }
        return result
    }

    static func profile(for r: DatasetManifest.Recording) -> TrackingProfile {
        switch r.activityCategory {
        case "drive": .driving
        case "bike": .cycling
        default: .walking
        }
    }

    /// Forward-filter distance (the Tracker), for comparison.
    static func forwardDistance(_ fixes: [Fix], profile: TrackingProfile) -> Double {
        var tracker = Tracker(profile: profile)
        _ = tracker.process(track: fixes)
        return tracker.distance.totalMetres
    }

    static let ipinIDs = [
        "ipin2023-t01r02", "ipin2023-t01r03", "ipin2023-t02r01", "ipin2023-t02r04",
        "ipin2023-t22r01", "ipin2023-t25r01", "ipin2023-t25r04",
    ]
}

@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct SmoothingRecordingTests {
    typealias E = RecordingEvaluation

    /// gsdc2020-mtv1 against the SPAN truth (raw fixes 0.80 / 1.73 m p50 / p95 for the Pixel 4 and
    /// 1.81 / 3.41 m for the Pixel 4 XL, per the manifest): the smoothed track's p95 is below the raw one's,
    /// its p50 no worse than 5 cm above it (measured 0.84 / 1.55 m and 1.82 / 3.40 m: these chipset fixes
    /// are already a filtered solution whose error is a slowly varying bias, which no smoother of the same
    /// fixes removes), and its distance is within 0.1 % of the reference (40137.1 m and 40135.3 m; measured
    /// +0.005 % and +0.026 %).
    @Test(arguments: [
        ("gsdc2020-mtv1-pixel4", "gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea", 0.80, 1.73),
        ("gsdc2020-mtv1-pixel4xlmodded", "gsdc2020-mtv1/SPAN_Pixel4XLModded_10Hz.nmea", 1.81, 3.41),
    ])
    func gsdcBeatsRawFixesAndMeasuresTheDistance(id: String, truthPath: String, rawP50: Double, rawP95: Double)
        throws
    {
        let r = try E.recording(id)
        let fixes = try E.fixes(id)
        #expect(fixes.count == r.fixes)
        let truth = try E.spanTruth(truthPath)
        let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
        let raw = E.errors(fixes.map { ($0.timestamp, $0.latitude, $0.longitude) }, truth: truth)
        let smoothed = E.errors(track.points.map { ($0.timestamp, $0.latitude, $0.longitude) }, truth: truth)
        let p = SmoothingSupport.percentile
        let reference = try #require(r.referenceDistanceMetres)
        let relative = (track.distanceMetres - reference) / reference
        print(
            String(
                format:
                    "%@: raw p50 %.2f p95 %.2f | smoothed p50 %.2f p95 %.2f (n %d, it %d) | distance %.1f ± %.1f m (%+.3f %%), reference %.1f, forward %.1f",
                id, p(raw, 0.5), p(raw, 0.95), p(smoothed, 0.5), p(smoothed, 0.95), smoothed.count,
                track.iterations, track.distanceMetres, track.distanceSigmaMetres, relative * 100, reference,
                E.forwardDistance(fixes, profile: .driving)))
        #expect(abs(p(raw, 0.5) - rawP50) < 0.02)
        #expect(abs(p(raw, 0.95) - rawP95) < 0.05)
        #expect(smoothed.count >= fixes.count - 5)
        #expect(p(smoothed, 0.5) < p(raw, 0.5) + 0.05)
        #expect(p(smoothed, 0.95) < p(raw, 0.95))
        #expect(abs(relative) < 0.001)
    }

    /// Noise estimation (EM) on the GSDC drives, reported per recording. The phones' errors are mostly a slowly
    /// varying bias (lag-1 correlation 0.84–0.90 for the Pixel 4, 0.98–0.99 for the 4 XL; white part
    /// √(Var(Δe)/2) ≈ 0.25 and 0.17 m per axis against 2.5 m reported): EM finds accuracy scales near that
    /// white part (measured 0.085 and 0.05 = the rail) and σₐ ≈ 0.5 m/s², and the track it gives is no better
    /// than the profile's (0.83 / 1.58 m vs 0.82 / 1.56 m; 1.81 / 3.39 vs 1.80 / 3.40): why it is off by default.
    @Test(arguments: [
        ("gsdc2020-mtv1-pixel4", "gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea", 1.73),
        ("gsdc2020-mtv1-pixel4xlmodded", "gsdc2020-mtv1/SPAN_Pixel4XLModded_10Hz.nmea", 3.41),
    ])
    func gsdcNoiseEstimateIsReportedAndReadsTheWhitePart(id: String, truthPath: String, rawP95: Double) throws {
        let fixes = try E.fixes(id)
        let truth = try E.spanTruth(truthPath)
        var options = SmoothingOptions(profile: .driving)
        options.estimatesNoise = true
        let track = WholeTrackSmoother(options: options).smooth(fixes)
        let smoothed = E.errors(track.points.map { ($0.timestamp, $0.latitude, $0.longitude) }, truth: truth)
        let p = SmoothingSupport.percentile
        print(
            String(
                format:
                    "%@ estimated noise: accuracy × %.3f%@, Doppler × %.3f, σₐ %.2f m/s² (%d rounds, %d solves) | p50 %.2f p95 %.2f | distance %.1f ± %.1f m",
                id, track.noise.accuracyScale, track.noise.isLimited ? " (rail)" : "", track.noise.dopplerScale,
                track.noise.accelerationSigma, track.noise.rounds, track.iterations, p(smoothed, 0.5),
                p(smoothed, 0.95), track.distanceMetres, track.distanceSigmaMetres))
        #expect(track.noise.isEstimated)
        #expect(track.noise.accuracyScale < 0.2)  // the reported accuracy is pessimistic for the white part
        #expect(track.noise.accelerationSigma < 2)
        #expect(p(smoothed, 0.95) < rawP95)
        let reference = try #require(try E.recording(id).referenceDistanceMetres)
        #expect(abs(track.distanceMetres - reference) / reference < 0.001)
    }

    /// ipin2023-walk: the median |distance error| of the smoothed track against the waypoint references.
    @Test func ipinWalksMedianDistanceError() throws {
        var smoothedErrors: [Double] = [], forwardErrors: [Double] = []
        for id in E.ipinIDs {
            let r = try E.recording(id)
            let fixes = try E.fixes(id)
            let reference = try #require(r.referenceDistanceMetres)
            let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
            let forward = E.forwardDistance(fixes, profile: .walking)
            smoothedErrors.append(abs(track.distanceMetres - reference))
            forwardErrors.append(abs(forward - reference))
            print(
                String(
                    format: "%@: smoothed %.1f ± %.1f m, forward %.1f m, reference %.1f m (%d fixes, %d used)",
                    id, track.distanceMetres, track.distanceSigmaMetres, forward, reference, fixes.count,
                    track.points.count))
        }
        let p = SmoothingSupport.percentile
        print(
            String(
                format: "ipin median |error|: smoothed %.1f m, forward %.1f m", p(smoothedErrors, 0.5),
                p(forwardErrors, 0.5)))
        // Measured 14.1 m (forward filter 27.0 m); the references are waypoint polylines, lower bounds.
        #expect(p(smoothedErrors, 0.5) < p(forwardErrors, 0.5))
        #expect(p(smoothedErrors, 0.5) < 20)
    }

    /// GeoLife user 010's walk–taxi–bus day smoothed with the walking profile: the labelled walk is 755.4 m
    /// (haversine of its fixes), the taxi and bus ~ 9 km. Without the vehicle gate the smoother counted them
    /// all (9,767.7 m, σ 61,932 m from the five-hour gap between the rides). Measured 719.2 ± 223.2 m (the
    /// forward filter 668.7 m), 9,065 m left out as rides; with the noise estimated 871.3 m (in a bus crawling
    /// for three minutes in traffic the estimated track is slow enough to read as a walk).
    @Test func geolifeWalkingProfileSmoothsOnlyTheWalk() throws {
        let track = WholeTrackSmoother(profile: .walking).smooth(try E.fixes("geolife-010-20080402"))
        print(
            String(
                format: "geolife smoothed: %.1f ± %.1f m, rides %.1f m, still %.1f m", track.distanceMetres,
                track.distanceSigmaMetres, track.vehicleLengthMetres, track.stillLengthMetres))
        #expect(abs(track.distanceMetres - 755.4) / 755.4 <= 0.20, "\(track.distanceMetres) m")
        #expect(track.vehicleLengthMetres > 8000)
        #expect(track.distanceSigmaMetres < 0.5 * 755.4)
        var options = SmoothingOptions(profile: .walking)
        options.estimatesNoise = true
        let estimated = WholeTrackSmoother(options: options).smooth(try E.fixes("geolife-010-20080402"))
        #expect(abs(estimated.distanceMetres - 755.4) / 755.4 <= 0.20, "\(estimated.distanceMetres) m")
    }

    /// The stationary recordings (reference 0 m): the smoothed track follows part of the fixes' wander
    /// (1.5–44 m of the white-part track's length on these seven: 1.5–26 m of the stated-accuracy track's),
    /// the stillness gate leaves it out.
    @Test func stationaryRecordingsMeasureAlmostNothing() throws {
        let manifest = try #require(E.manifest)
        let stationary = manifest.recordings.filter { $0.referenceDistanceMetres == 0 }
        try #require(stationary.count >= 7)
        for r in stationary {
            let track = WholeTrackSmoother(profile: .walking).smooth(try E.fixes(r.id))
            print(
                String(
                    format: "stationary %@: %.2f m counted, %.2f m left out as still, σ %.2f m", r.id,
                    track.distanceMetres, track.stillLengthMetres, track.distanceSigmaMetres))
            // Measured 0.00 m on six, 1.19 m on the u-blox F9P (11 minutes).
            #expect(track.distanceMetres < 2, "\(r.id)")
            #expect(track.distanceMetres <= 2 * track.distanceSigmaMetres || track.distanceMetres == 0, "\(r.id)")
        }
    }

    /// Calibration: the share of moving recordings with a reference distance whose reference lies within
    /// ±2σ of the smoothed distance.
    @Test func distanceSigmaCalibrationOnRecordings() throws {
        let manifest = try #require(E.manifest)
        var inside = 0, total = 0
        for r in manifest.recordings {
            guard var reference = r.referenceDistanceMetres, reference > 0, let truthPath = r.groundTruth else {
                continue
            }
            let fixes = try E.fixes(r.id)
            // The SPAN drives' truth on the ellipsoid, as the smoother measures (the manifest's reference is a
            // haversine sum, 0.042 % shorter there: 2.9σ).
            if r.id.hasPrefix("gsdc2020"), let first = fixes.first?.timestamp, let last = fixes.last?.timestamp {
                let truth = try E.spanTruth(truthPath).filter { $0.timestamp >= first && $0.timestamp <= last }
                reference = zip(truth, truth.dropFirst()).reduce(0) { sum, step in
                    sum
                        + Geodesic.wgs84.stepLengthMetres(
                            from: (step.0.latitude, step.0.longitude), to: (step.1.latitude, step.1.longitude))
                }
            }
            let track = WholeTrackSmoother(profile: E.profile(for: r)).smooth(fixes)
            let z = (track.distanceMetres - reference) / track.distanceSigmaMetres
            total += 1
            if abs(z) <= 2 { inside += 1 }
            print(
                String(
                    format:
                        "calibration %@: %.1f ± %.1f (noise %.1f, dD/dlnq %+.1f, gaps %.1f, model %+.1f at white × %.3f) vs %.1f (z %+.2f)",
                    r.id, track.distanceMetres, track.distanceSigmaMetres, track.distanceNoiseSigmaMetres,
                    track.distanceProcessSensitivityMetres, track.distanceGapExcessMetres,
                    track.distanceModelDifferenceMetres, track.whiteAccuracyScale, reference, z))
        }
        print("calibration: \(inside) of \(total) within ±2σ")
        // Measured 11 of 11. The model term (SmoothedTrack.distanceModelDifferenceMetres) is the step from the
        // stated-accuracy track to the white-part track the distance is measured on: 11–79 m on the IPIN walks,
        // whose indoor fixes report 11–18 m while moving smoothly from one fix to the next (white part 0.05–0.24
        // of the stated accuracy), 3–4 m on the GSDC drives (Doppler fixes their shape); it stays in σ as 1σ.
        #expect(inside >= 10)
    }
}
