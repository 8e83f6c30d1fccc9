import Foundation
import TrueTrackCore
import TrueTrackIO

/// What kind of ground truth a recording has.
public enum TruthKind: String, Sendable, Hashable, Codable {
    /// A dense reference trajectory (NovAtel SPAN, GSDC ground truth): position error and the GSDC score.
    case trajectory
    /// Surveyed waypoints passed at known times (IPIN `POSI`): position error against the waypoint polyline
    /// (a walker goes roughly straight between waypoints), no GSDC score.
    case waypoints
    /// Labelled time spans only (GeoLife `labels.txt`): truth stops, no positions.
    case labels
    /// A truth the evaluation does not read (a surveyed point in a README), or none.
    case none
}

/// A stop in the ground truth, on the evaluation clock.
public struct TruthStop: Sendable, Hashable, Codable {
    /// When the stop began, seconds on the evaluation clock.
    public var startSeconds: Double
    /// When it ended, seconds on the same clock.
    public var endSeconds: Double
    /// Where the stop comes from (e.g. `repeated waypoint 13-14`, `whole recording (stationary)`).
    public var source: String

    /// Creates a stop.
    public init(startSeconds: Double, endSeconds: Double, source: String) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.source = source
    }

    /// The stop's length, seconds.
    public var durationSeconds: Double { endSeconds - startSeconds }
}

/// How the ground-truth file a manifest entry names was read: whole, with damaged records stepped over, with
/// nothing usable in it, or not at all because it is not a kind of truth the evaluation uses.
public struct TruthReading: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Read whole.
        case read
        /// Read leniently with damaged records stepped over (``TruthReading/error`` names the first): the
        /// figures measured against it cover what was read, and those it no longer allows are listed in
        /// ``TruthReading/notMeasured``.
        case damaged
        /// Read without a damaged record, but nothing in it is a truth sample (an emptied file, another
        /// format): no figure is measured against it.
        case empty
        /// Read, but no fix's time falls inside it (a truth on another clock or in another time zone, a truth of
        /// another day): no position is measured against it, which said nothing before (a CI tester's truth two
        /// hours late passed with its position figures missing, and a baseline recorded from it gated none).
        case disjoint
        /// Not a kind of truth the evaluation reads (a surveyed coordinate in a README, a format without a
        /// loader): the recording is judged without it, on purpose.
        case notUsed
    }

    /// The truth file as the manifest names it (relative to the data-set folder, or absolute); ``error`` names
    /// it as it was opened.
    public var file: String
    /// The manifest's `ground_truth_format` (empty when the entry gives none: the truth is not used).
    public var format: String
    /// The outcome.
    public var status: Status
    /// Truth samples read: trajectory points, waypoints or labelled intervals.
    public var samples: Int = 0
    /// Damaged records stepped over.
    public var damagedRecords: Int = 0
    /// The first damaged record, as `truetrack info` reports it (file:line:column (byte), field, what was
    /// expected), when there was one.
    public var error: String?
    /// The baseline figures the truth would have given but did not because it is damaged or empty (filled in
    /// by the ``Evaluator``).
    public var notMeasured: [BaselineMetric] = []

    /// Creates a reading.
    public init(file: String, format: String, status: Status, samples: Int = 0, report: ReadReport? = nil) {
        self.file = file
        self.format = format
        self.status = status
        self.samples = samples
        if let report {
            damagedRecords = report.errorCount
            error = report.errors.first?.description
            if status == .read, report.errorCount > 0 { self.status = .damaged }
            if self.status == .read, samples == 0 { self.status = .empty }
        }
    }

    /// Whether the truth is damaged or empty: a reading failure to report, unlike ``Status/notUsed``.
    public var isFaulty: Bool { status == .damaged || status == .empty || status == .disjoint }

    /// For ``Status/disjoint``: the truth's time span and the fixes', ISO-8601 UTC (`start → end`).
    public var truthSpan: String?
    public var fixesSpan: String?
    /// For ``Status/disjoint``: whether the two spans overlap (the truth then has a gap over the fixes: no sample
    /// within ``TruthTrack/maximumGapSeconds`` of any fix's time).
    public var spansOverlap: Bool?

    /// One line on a faulty or unused truth (`nil` for a truth read whole): what happened to which file, and
    /// which figures were not measured because of it.
    public var summary: String? {
        switch status {
        case .read: return nil
        case .notUsed where format.isEmpty:
            return "no truth used: \(file): the entry gives no ground_truth_format (its first word: csv, gpx, "
                + "geojson, jsonl, nmea, gsdc-…csv, POSI or geolife)"
        case .notUsed:
            return "no truth used: \(file) (\(format)) is not a truth format the bench reads"
        case .damaged, .empty, .disjoint:
            var text: String
            switch status {
            case .empty:
                text = "ground truth \(file) holds no truth sample (read as \(format))"
            case .disjoint:
                text =
                    "ground truth \(file) (\(samples) samples, \(truthSpan ?? "?")) "
                    + (spansOverlap == true
                        ? "has no sample near any fix's time (\(fixesSpan ?? "?")): a gap over the fixes?"
                        : "holds no time of the fixes (\(fixesSpan ?? "?")): another clock or time zone?")
            default:
                text =
                    "ground truth \(file) damaged, \(damagedRecords) record\(damagedRecords == 1 ? "" : "s") stepped "
                    + "over, the first: \(error ?? "?"); \(samples) truth sample\(samples == 1 ? "" : "s") read"
            }
            if !notMeasured.isEmpty {
                text += "; not measured because of it: \(notMeasured.map(\.rawValue).joined(separator: ", "))"
            }
            return text
        }
    }
}

/// The ground truth of one recording, as the evaluation uses it.
public struct GroundTruth: Sendable {
    /// The kind of truth.
    public var kind: TruthKind
    /// The truth positions (trajectory or waypoints), when there are any.
    public var track: TruthTrack?
    /// The truth stops, when the truth allows them (waypoints, labels, a stationary recording).
    public var stops: [TruthStop]?
    /// Why part of the truth is not used, for the report.
    public var note: String?
    /// How the truth file the manifest names was read (`nil` when it names none).
    public var reading: TruthReading?

    /// Creates a truth.
    public init(
        kind: TruthKind, track: TruthTrack? = nil, stops: [TruthStop]? = nil, note: String? = nil,
        reading: TruthReading? = nil
    ) {
        self.kind = kind
        self.track = track
        self.stops = stops
        self.note = note
        self.reading = reading
    }

    /// The shortest truth stop counted, seconds: 20 s is the shortest pause a stop detector is expected to
    /// report (a traffic light or a street crossing is shorter; IPIN t25's stop is 39 s).
    public static let minimumStopSeconds = 20.0
    /// Two consecutive waypoints closer than this are the same place (the survey repeats coordinates
    /// exactly), metres.
    public static let sameWaypointMetres = 1.0

    /// Truth stops from waypoints: each pair of consecutive waypoints at the same place
    /// (≤ ``sameWaypointMetres``) at least ``minimumStopSeconds`` apart; plus the standing still before the
    /// first waypoint (every IPIN log starts with about a minute of it) when the recording starts at least
    /// ``minimumStopSeconds`` earlier.
    public static func stops(waypoints: [TruthSample], recordingStartSeconds: Double?) -> [TruthStop] {
        var stops: [TruthStop] = []
        if let start = recordingStartSeconds, let first = waypoints.first,
            first.seconds - start >= minimumStopSeconds
        {
            stops.append(TruthStop(startSeconds: start, endSeconds: first.seconds, source: "before the first waypoint"))
        }
        for i in waypoints.indices.dropFirst() {
            let a = waypoints[i - 1], b = waypoints[i]
            let d = Haversine.distance(from: (a.latitude, a.longitude), to: (b.latitude, b.longitude))
            if d <= sameWaypointMetres, b.seconds - a.seconds >= minimumStopSeconds {
                stops.append(
                    TruthStop(
                        startSeconds: a.seconds, endSeconds: b.seconds,
                        source: "repeated waypoint \(i)-\(i + 1)"))
            }
        }
        return stops
    }

    /// Truth stops from labelled legs: the unlabelled time between two consecutive labelled legs, when at
    /// least ``minimumStopSeconds`` long and inside `recording` (GeoLife: waiting between the walk and the
    /// taxi; a gap without fixes counts too: the user was somewhere, not travelling a labelled leg).
    public static func stops(labels: [LabelledInterval], recording: ClosedRange<Double>) -> [TruthStop] {
        let sorted = labels.sorted { $0.start < $1.start }
        var stops: [TruthStop] = []
        for i in sorted.indices.dropFirst() {
            let start = sorted[i - 1].end.secondsSince1970, end = sorted[i].start.secondsSince1970
            guard end - start >= minimumStopSeconds, start >= recording.lowerBound, end <= recording.upperBound
            else { continue }
            stops.append(
                TruthStop(
                    startSeconds: start, endSeconds: end,
                    source: "between \(sorted[i - 1].mode) and \(sorted[i].mode)"))
        }
        return stops
    }
}

/// Reads the ground truth a manifest entry names.
public enum GroundTruthLoader {
    /// Loads the truth of `recording`, aligned to the evaluation clock of `aligned`.
    ///
    /// By `ground_truth_format`'s first word: `nmea` (NovAtel SPAN: checksums of its RMC sentences are all
    /// wrong, so they are accepted; positions from GGA), `gsdc-…csv` (GSDC ground truth; GPS time converted
    /// to UTC by the CSV reader), `csv`, `gpx`, `geojson` or `jsonl` (a truth trajectory in a format the readers
    /// take), `POSI` (IPIN waypoints on the app clock), `geolife` (labels.txt). A
    /// `stationary` recording without truth gets one truth stop spanning the whole recording.
    /// - Throws: ``ReadError`` when the truth file cannot be read.
    public static func load(
        _ recording: DatasetManifest.Recording, manifest: DatasetManifest,
        aligned: AlignedRecording
    ) throws(ReadError) -> GroundTruth {
        let span = aligned.clockSpan
        var truth = GroundTruth(kind: .none)
        if let file = recording.groundTruth, let format = recording.groundTruthFormat {
            let path = manifest.resolve(file)
            let word = format.lowercased().prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            func reading(_ samples: Int, _ report: ReadReport) -> TruthReading {
                TruthReading(file: file, format: format, status: .read, samples: samples, report: report)
            }
            if word == "nmea" {
                var reader = try NMEAReader(
                    path: path, options: ReadOptions(lenient: true), checksums: .acceptMismatches)
                let samples = try samples(&reader)
                truth = GroundTruth(
                    kind: .trajectory, track: TruthTrack(samples: samples),
                    reading: reading(samples.count, reader.report))
            } else if let plain = word.hasPrefix("gsdc") && word.hasSuffix("csv")
                ? .csv : FixFormat(name: String(word)),
                [.csv, .gpx, .geojson, .jsonLines].contains(plain)
            {
                // A truth trajectory in a format TrueTrack reads (time, latitude, longitude per point; GSDC's
                // ground-truth CSV too: the CSV reader converts its GPS time).
                var reader = try AnyFixReader(path: path, format: plain, options: ReadOptions(lenient: true))
                let samples = try samples(&reader)
                truth = GroundTruth(
                    kind: .trajectory, track: TruthTrack(samples: samples),
                    reading: reading(samples.count, reader.report))
            } else if word == "posi" {
                var reader = try IPINWaypointReader(path: path, options: ReadOptions(lenient: true))
                var waypoints: [TruthSample] = []
                while let waypoint = try reader.next() {
                    waypoints.append(
                        TruthSample(
                            seconds: waypoint.appTimestampSeconds, latitude: waypoint.latitude,
                            longitude: waypoint.longitude))
                }
                truth = GroundTruth(
                    kind: .waypoints, track: TruthTrack(samples: waypoints, maximumGapSeconds: .infinity),
                    stops: GroundTruth.stops(waypoints: waypoints, recordingStartSeconds: span?.lowerBound),
                    reading: reading(waypoints.count, reader.report))
            } else if word == "geolife" {
                let (labels, report) = try GeoLifeLabels.read(
                    stream: try ByteStream(path: path), options: ReadOptions(lenient: true))
                truth = GroundTruth(
                    kind: .labels, stops: span.map { GroundTruth.stops(labels: labels, recording: $0) },
                    note: "labels only: no truth positions", reading: reading(labels.count, report))
            } else {
                truth.note = "no truth used: \(format) (not a truth format the evaluation reads)"
                truth.reading = TruthReading(file: file, format: format, status: .notUsed)
            }
        } else if let file = recording.groundTruth {
            // Without its format the file is not read (a truth read as the wrong format would score nonsense),
            // but not silently: said like a format the bench does not read.
            truth.note = "no truth used: no ground_truth_format for \(file)"
            truth.reading = TruthReading(file: file, format: "", status: .notUsed)
        }
        if truth.stops == nil, recording.activityCategory == "stationary", let span {
            truth.stops = [
                TruthStop(
                    startSeconds: span.lowerBound, endSeconds: span.upperBound,
                    source: "whole recording (stationary)")
            ]
        }
        return truth
    }

    private static func samples<R: FixReader>(_ reader: inout R) throws(ReadError) -> [TruthSample] {
        var result: [TruthSample] = []
        while let fix = try reader.next() {
            result.append(
                TruthSample(
                    seconds: fix.timestamp.secondsSince1970, latitude: fix.latitude,
                    longitude: fix.longitude))
        }
        return result
    }
}
