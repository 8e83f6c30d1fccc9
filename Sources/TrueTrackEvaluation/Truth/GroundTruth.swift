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

    /// Creates a truth.
    public init(kind: TruthKind, track: TruthTrack? = nil, stops: [TruthStop]? = nil, note: String? = nil) {
        self.kind = kind
        self.track = track
        self.stops = stops
        self.note = note
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
            if word == "nmea" {
                var reader = try NMEAReader(
                    path: path, options: ReadOptions(lenient: true), checksums: .acceptMismatches)
                truth = GroundTruth(kind: .trajectory, track: TruthTrack(samples: try samples(&reader)))
            } else if let plain = word.hasPrefix("gsdc") && word.hasSuffix("csv")
                ? .csv : FixFormat(name: String(word)),
                [.csv, .gpx, .geojson, .jsonLines].contains(plain)
            {
                // A truth trajectory in a format TrueTrack reads (time, latitude, longitude per point; GSDC's
                // ground-truth CSV too: the CSV reader converts its GPS time).
                var reader = try AnyFixReader(path: path, format: plain, options: ReadOptions(lenient: true))
                truth = GroundTruth(kind: .trajectory, track: TruthTrack(samples: try samples(&reader)))
            } else if word == "posi" {
                let waypoints = try IPINReader.waypoints(path: path, options: ReadOptions(lenient: true)).map {
                    TruthSample(seconds: $0.appTimestampSeconds, latitude: $0.latitude, longitude: $0.longitude)
                }
                truth = GroundTruth(
                    kind: .waypoints, track: TruthTrack(samples: waypoints, maximumGapSeconds: .infinity),
                    stops: GroundTruth.stops(waypoints: waypoints, recordingStartSeconds: span?.lowerBound))
            } else if word == "geolife" {
                let labels = try GeoLifeLabels.read(path: path, options: ReadOptions(lenient: true))
                truth = GroundTruth(
                    kind: .labels, stops: span.map { GroundTruth.stops(labels: labels, recording: $0) },
                    note: "labels only: no truth positions")
            } else {
                truth.note = "truth not read by the evaluation: \(format)"
            }
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
