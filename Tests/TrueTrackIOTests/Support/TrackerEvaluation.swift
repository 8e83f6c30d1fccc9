import Foundation
import TrueTrackCore
import TrueTrackIO

/// Measures the ``Tracker`` on the shared recordings: raw (naive sum of consecutive fixes) versus TrueTrack,
/// against the references the issue names (IPIN waypoint polylines, GSDC SPAN truth, GeoLife labels).
enum TrackerEvaluation {
    /// Haversine distance on the manifest's sphere (R = 6,371,008.8 m), metres.
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, d = Double.pi / 180
        let dLat = (lat2 - lat1) * d, dLon = (lon2 - lon1) * d
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * d) * cos(lat2 * d) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }

    /// The naive sum of consecutive fixes as read (the "raw" column; the CLI's `rawPathMetres`).
    static func rawPath(_ fixes: [Fix]) -> Double {
        var total = 0.0
        for i in fixes.indices.dropFirst() {
            total += haversine(fixes[i - 1].latitude, fixes[i - 1].longitude, fixes[i].latitude, fixes[i].longitude)
        }
        return total
    }

    /// One recording run through a tracker.
    struct Outcome {
        var fixes: [Fix]
        var decisions: [FixDecision]
        var raw: Double
        var distance: Double
        var durationSeconds: Double
        var tracker: Tracker
    }

    static func run(_ fixes: [Fix], profile: TrackingProfile) -> Outcome {
        var tracker = Tracker(profile: profile)
        let decisions = tracker.process(track: fixes)
        let times = fixes.map(\.timestamp)
        var duration = 0.0
        if let first = times.min(), let last = times.max() { duration = first.seconds(to: last) }
        return Outcome(
            fixes: fixes, decisions: decisions, raw: rawPath(fixes), distance: tracker.distance.totalMetres,
            durationSeconds: duration, tracker: tracker)
    }

    static func read<R: FixReader>(_ reader: R) throws -> [Fix] {
        var reader = reader
        let result = reader.readAll()
        if let error = result.error { throw error }
        return result.fixes
    }

    // MARK: Walks

    /// The seven IPIN walks: ground level (trials 01–02) and underground level (trials 22, 25).
    static let ipinWalks: [(id: String, file: String, ground: Bool)] = [
        ("ipin2023-t01r02", "IPIN2023_T3_TrainingTrial01_repetition02.txt", true),
        ("ipin2023-t01r03", "IPIN2023_T3_TrainingTrial01_repetition03.txt", true),
        ("ipin2023-t02r01", "IPIN2023_T3_TrainingTrial02_repetition01.txt", true),
        ("ipin2023-t02r04", "IPIN2023_T3_TrainingTrial02_repetition04.txt", true),
        ("ipin2023-t22r01", "IPIN2023_T3_TrainingTrial22_repetition01.txt", false),
        ("ipin2023-t25r01", "IPIN2023_T3_TrainingTrial25_repetition01.txt", false),
        ("ipin2023-t25r04", "IPIN2023_T3_TrainingTrial25_repetition04.txt", false),
    ]

    static func ipin(_ file: String) throws -> [Fix] {
        try read(IPINReader(path: Datasets.path("ipin2023-walk/\(file)")))
    }

    /// The reference distance of an IPIN walk: the haversine length of its surveyed waypoint polyline.
    static func ipinReference(_ file: String) throws -> Double {
        let w = try IPINReader.waypoints(path: Datasets.path("ipin2023-walk/\(file)"))
        var total = 0.0
        for i in w.indices.dropFirst() {
            total += haversine(w[i - 1].latitude, w[i - 1].longitude, w[i].latitude, w[i].longitude)
        }
        return total
    }

    /// The Pixel 7 loop of `gnsslogger-samples` (GPS provider; no truth).
    static func pixel7() throws -> [Fix] {
        try read(
            GnssLoggerReader(
                path: Datasets.path("gnsslogger-samples/pixel6.txt"),
                options: ReadOptions(providers: [.gps])))
    }

    // MARK: Stationary

    static func nmea(_ path: String, hdop: HDOPInterpretation = .dilution(userEquivalentRangeErrorMetres: 5))
        throws -> [Fix]
    {
        try read(NMEAReader(path: Datasets.path(path), options: ReadOptions(lenient: true, hdop: hdop)))
    }

    static func stationary() throws -> [(String, [Fix])] {
        [
            (
                "gmt-stationary-2016",
                try read(
                    GnssLoggerReader(
                        path: Datasets.path("gmt-stationary-2016/pseudoranges_log_2016_06_30_21_26_07.txt"),
                        options: ReadOptions(providers: [.gps])))
            ),
            ("phone-stationary-nmea", try nmea("phone-stationary-nmea/gnss_log_2026_03_12_11_29_27.nmea")),
            ("rtk-reach-open", try nmea("rtk-reach-neu/openRTK.txt")),
            ("rtk-reach-occluded", try nmea("rtk-reach-neu/occludedRTK.txt")),
            ("gpsd-ublox-zed-f9p", try nmea("gpsd-nmea/ublox-zed-f9p_hpg1.11.log")),
            ("gpsd-telit-he910", try nmea("gpsd-nmea/telit-he910.log")),
            ("gpsd-ublox-8", try nmea("gpsd-nmea/ublox-8.log")),
        ]
    }

    // MARK: Drives

    static let drives: [(id: String, file: String, truth: String, reference: Double)] = [
        ("gsdc2020-mtv1-pixel4", "gsdc2020-mtv1/Pixel4_chipset.nmea", "gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea", 40137.1),
        (
            "gsdc2020-mtv1-pixel4xlmodded", "gsdc2020-mtv1/Pixel4XLModded_chipset.nmea",
            "gsdc2020-mtv1/SPAN_Pixel4XLModded_10Hz.nmea", 40135.3
        ),
    ]

    /// A GSDC phone drive: the chipset NMEA with HDOP read as accuracy / 10 (see the recording's notes).
    static func drive(_ file: String) throws -> [Fix] {
        try nmea(file, hdop: .scaledAccuracy(metresPerUnit: 10))
    }

    /// The NovAtel SPAN truth (GGA positions; every RMC checksum is wrong on purpose, see
    /// `NMEAReader.ChecksumPolicy.acceptMismatches`).
    static func spanTruth(_ path: String) throws -> [Fix] {
        try read(NMEAReader(path: Datasets.path(path), checksums: .acceptMismatches))
    }

    /// Position errors (metres) of `points` against a truth track interpolated linearly in time.
    static func positionErrors(_ points: [(Timestamp, Double, Double)], truth: [Fix]) -> [Double] {
        var errors: [Double] = []
        var j = 0
        for (t, lat, lon) in points {
            while j + 1 < truth.count && truth[j + 1].timestamp <= t { j += 1 }
            guard j + 1 < truth.count, truth[j].timestamp <= t else { continue }
            let a = truth[j], b = truth[j + 1]
            let span = a.timestamp.seconds(to: b.timestamp)
            guard span > 0, span <= 1.5 else { continue }
            let w = a.timestamp.seconds(to: t) / span
            let tl = a.latitude + (b.latitude - a.latitude) * w, tn = a.longitude + (b.longitude - a.longitude) * w
            errors.append(haversine(lat, lon, tl, tn))
        }
        return errors
    }

    /// Raw and filtered position errors of a drive against its truth.
    static func drivePositionErrors(_ o: Outcome, truth: [Fix]) -> (raw: [Double], filtered: [Double]) {
        let raw = positionErrors(o.fixes.map { ($0.timestamp, $0.latitude, $0.longitude) }, truth: truth)
        let filtered = zip(o.fixes, o.decisions).compactMap { f, d in
            d.isAccepted ? d.state.map { (f.timestamp, $0.latitude, $0.longitude) } : nil
        }
        return (raw, positionErrors(filtered, truth: truth))
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        let rank = p * Double(s.count - 1)
        let lo = Int(rank.rounded(.down)), hi = min(lo + 1, s.count - 1)
        return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
    }

    // MARK: Mixed

    /// GeoLife user 010's mixed day: the labelled walk is 755.4 m (haversine of its fixes), then taxi and bus.
    static let geolifeWalkMetres = 755.4

    static func geolife() throws -> [Fix] {
        try read(GeoLifePLTReader(path: Datasets.path("geolife-010-mixed/Trajectory/20080402060926.plt")))
    }

    // MARK: Table

    /// The raw vs TrueTrack table of every recording the issue names (Markdown).
    static func table() throws -> String {
        var out = "| recording | reference | raw | TrueTrack | raw error | TrueTrack error | Doppler / filtered |\n"
        out += "|---|---|---|---|---|---|---|\n"
        func f1(_ v: Double) -> String { String(format: "%.1f", v) }
        func pct(_ v: Double, _ r: Double) -> String { String(format: "%+.1f %%", (v - r) / r * 100) }
        func split(_ o: Outcome) -> String {
            "\(f1(o.tracker.distance.dopplerMetres)) / \(f1(o.tracker.distance.filteredMetres))"
        }
        for w in ipinWalks {
            let reference = try ipinReference(w.file)
            let o = run(try ipin(w.file), profile: .walking)
            out += "| \(w.id) | \(f1(reference)) m | \(f1(o.raw)) m | \(f1(o.distance)) m | \(pct(o.raw, reference)) "
            out += "| \(pct(o.distance, reference)) | \(split(o)) |\n"
        }
        let p7 = run(try pixel7(), profile: .walking)
        out += "| gnsslogger-pixel7 walk (no truth) | – | \(f1(p7.raw)) m | \(f1(p7.distance)) m | | "
        out += "\(pct(p7.distance, p7.raw)) of raw | \(split(p7)) |\n"
        for (id, fixes) in try stationary() {
            let o = run(fixes, profile: .walking)
            let per10 = 600 / max(o.durationSeconds, 1)
            out += "| \(id) (m / 10 min) | 0 | \(String(format: "%.2f", o.raw * per10)) "
            out += "| \(String(format: "%.2f", o.distance * per10)) | | | \(split(o)) |\n"
        }
        for d in drives {
            let o = run(try drive(d.file), profile: .driving)
            let (rawErr, fErr) = drivePositionErrors(o, truth: try spanTruth(d.truth))
            out += "| \(d.id) | \(d.reference) m | \(f1(o.raw)) m | \(f1(o.distance)) m "
            out += "| \(String(format: "%+.3f %%", (o.raw - d.reference) / d.reference * 100)) "
            out += "| \(String(format: "%+.3f %%", (o.distance - d.reference) / d.reference * 100)) | \(split(o)) |\n"
            out += "| \(d.id) position p50 / p95 | | "
            out += "\(String(format: "%.2f / %.2f", percentile(rawErr, 0.5), percentile(rawErr, 0.95))) m | "
            out += "\(String(format: "%.2f / %.2f", percentile(fErr, 0.5), percentile(fErr, 0.95))) m "
            out += "| n=\(rawErr.count) | n=\(fErr.count) | |\n"
        }
        let g = run(try geolife(), profile: .walking)
        out += "| geolife-010-mixed (walking profile) | \(geolifeWalkMetres) m | \(f1(g.raw)) m | \(f1(g.distance)) m "
        out += "| \(pct(g.raw, geolifeWalkMetres)) | \(pct(g.distance, geolifeWalkMetres)) | \(split(g)) |\n"
        return out
    }
}
