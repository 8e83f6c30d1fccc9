import Foundation
import TrueTrackSmoothing

/// A distance and its error against the reference.
public struct DistanceFigures: Sendable, Hashable, Codable {
    /// The distance, metres.
    public var metres: Double
    /// distance − reference, metres (`nil` without a reference).
    public var errorMetres: Double?
    /// (distance − reference) / reference × 100, signed (`nil` without a positive reference).
    public var errorPercent: Double?

    /// Computes the errors of `metres` against `reference`.
    public init(metres: Double, reference: Double?) {
        self.metres = metres
        errorMetres = reference.map { metres - $0 }
        errorPercent = reference.flatMap { $0 > 0 ? (metres - $0) / $0 * 100 : nil }
    }
}

/// The same figure for TrueTrack and the two reference measures.
public struct MethodFigures: Sendable, Hashable, Codable {
    /// TrueTrack (the Tracker's total distance).
    public var trueTrack: Double?
    /// The naive sum of segments over every fix as read.
    public var naive: Double?
    /// The Doppler-only integral (`nil` for a recording without a speed reading).
    public var doppler: Double?

    /// Creates the figures.
    public init(trueTrack: Double?, naive: Double?, doppler: Double?) {
        self.trueTrack = trueTrack
        self.naive = naive
        self.doppler = doppler
    }
}

/// What the whole-track smoother (``WholeTrackSmoother``, `truetrack process --smooth`) measured on one
/// recording, beside the forward filter's figures.
public struct SmootherFigures: Sendable, Hashable, Codable {
    /// The smoothed distance and its error against the reference.
    public var distance: DistanceFigures
    /// The distance's 1σ uncertainty, metres (``SmoothedTrack/distanceSigmaMetres``).
    public var distanceSigmaMetres: Double
    /// (distance − reference) / σ, `nil` without a reference.
    public var distanceZScore: Double?
    /// The model term of σ, signed metres (``SmoothedTrack/distanceModelDifferenceMetres``).
    public var distanceModelDifferenceMetres: Double
    /// The part of it included in the distance (``SmoothedTrack/distanceModelDifferenceIncludedMetres``): all of
    /// it, or 0 where the trusted speed readings denied the white-part track (`nil` in figures recorded before
    /// 2026-12-05).
    public var distanceModelDifferenceIncludedMetres: Double?
    /// The white part of the fixes' error relative to their accuracy (``SmoothedTrack/whiteAccuracyScale``).
    public var whiteAccuracyScale: Double
    /// The smoothed positions against the truth.
    public var position: PositionErrorSummary?
    /// The factor applied to the reported accuracies (estimated, or 1).
    public var accuracyScale: Double
    /// The factor applied to the Doppler σ (estimated, or 1).
    public var dopplerScale: Double
    /// The acceleration noise σₐ the track was smoothed with, m/s².
    public var accelerationSigma: Double
    /// Whether the noise parameters were estimated from the recording.
    public var noiseEstimated: Bool
    /// Whether an estimated factor ended on the estimation's safety rail (``NoiseEstimate/isLimited``).
    public var noiseLimited: Bool
    /// Expectation–maximisation rounds (0 when not estimated).
    public var estimationRounds: Int
    /// Least-squares solves.
    public var solves: Int

    /// The figures of a smoothed track against `reference` (positions are filled in by the caller).
    public init(_ track: SmoothedTrack, reference: Double?) {
        distance = DistanceFigures(metres: track.distanceMetres, reference: reference)
        distanceSigmaMetres = track.distanceSigmaMetres
        distanceZScore = distance.errorMetres.flatMap {
            // σ = 0 only when nothing counted and nothing was left out: a zero error is then exact.
            track.distanceSigmaMetres > 0 ? $0 / track.distanceSigmaMetres : ($0 == 0 ? 0 : nil)
        }
        distanceModelDifferenceMetres = track.distanceModelDifferenceMetres
        distanceModelDifferenceIncludedMetres = track.distanceModelDifferenceIncludedMetres
        whiteAccuracyScale = track.whiteAccuracyScale
        accuracyScale = track.noise.accuracyScale
        dopplerScale = track.noise.dopplerScale
        accelerationSigma = track.noise.accelerationSigma
        noiseEstimated = track.noise.isEstimated
        noiseLimited = track.noise.isLimited
        estimationRounds = track.noise.rounds
        solves = track.iterations
    }

    /// Whether the reference lies within ±2σ of the smoothed distance (`nil` without a reference).
    public var isReferenceWithinTwoSigma: Bool? { distanceZScore.map { abs($0) <= 2 } }
}

/// Stop detection against truth stops.
public struct StopFigures: Sendable, Hashable, Codable {
    /// Truth stops of the recording.
    public var truthStops: [TruthStop]
    /// The score, `nil` while no stop detector is wired in (see ``StopDetectorAdapter``).
    public var score: StopScore?
}

/// Everything the benchmark measured on one recording.
public struct RecordingResult: Sendable, Hashable, Codable {
    /// The outcome of the evaluation.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Evaluated.
        case ok
        /// Not evaluated on purpose (``RecordingResult/note`` says why), e.g. a truth-only sample.
        case skipped
        /// The recording or its truth could not be read (``RecordingResult/note`` holds the error).
        case error
    }

    /// The manifest id.
    public var id: String
    /// The activity category (`walk`, `drive`, `stationary`, `bike`, `hike`, `mixed`).
    public var category: String
    /// The profile the Tracker ran with.
    public var profile: EvaluationProfile
    /// Outcome.
    public var status: Status
    /// Why skipped or failed, or a remark on the truth.
    public var note: String?
    /// Fixes read (file order, duplicates included).
    public var fixes: Int = 0
    /// Fixes the Tracker accepted.
    public var acceptedFixes: Int = 0
    /// Accepted fixes whose distance the Tracker held as a vehicle's (``TrackerStep/movedLikeAVehicle``): many
    /// of them under the walking profile mean the activity named no category of the vehicle it was.
    public var heldAsVehicleFixes: Int = 0
    /// Latest minus earliest fix time, seconds.
    public var durationSeconds: Double = 0
    /// The reference distance, metres (`nil` when neither the manifest nor the truth gives one).
    public var referenceDistanceMetres: Double?
    /// `manifest` or `truth`: the truth's length over the fixes' time span on the WGS-84 ellipsoid, used instead
    /// of the manifest's `reference_distance_m` whenever the truth is a trajectory covering that span (≥ 60 s;
    /// the manifest's references are haversine sums): ``referenceDisagreement`` says when the two differ.
    public var referenceSource: String?
    /// The manifest's `reference_distance_m`, when it states one (whether or not it is ``referenceDistanceMetres``).
    public var manifestReferenceDistanceMetres: Double?

    /// How far (a fraction of the truth's length) the manifest's reference may differ from the truth's length
    /// used instead before ``referenceDisagreement`` speaks: 1 % (the haversine-vs-ellipsoid difference is
    /// ~0.04–0.5 %).
    public static let referenceDisagreementFraction = 0.01

    /// A note when the reference is the truth's length (``referenceSource`` `truth`) and the manifest states
    /// another differing from it by more than ``referenceDisagreementFraction``: the recording, both values and
    /// which one was used (a manifest stating 700 m was scored against the truth's 601.2 m without a word).
    public var referenceDisagreement: String? {
        guard referenceSource == "truth", let stated = manifestReferenceDistanceMetres,
            let used = referenceDistanceMetres,
            abs(stated - used) > Self.referenceDisagreementFraction * abs(used)
        else { return nil }
        let percent = used == 0 ? "" : String(format: " (%+.1f %%)", (stated - used) / used * 100)
        return
            "\(id): the manifest's reference_distance_m, \(String(format: "%.1f", stated)) m, differs from the ground "
            + "truth's length over the fixes' span, \(String(format: "%.1f", used)) m\(percent); scored against the "
            + "truth's \(String(format: "%.1f", used)) m (an ellipsoidal length of the truth, more exact than a "
            + "stated sum; see Benchmarks/README.md, \"Reference distance\")"
    }
    /// TrueTrack's distance.
    public var trueTrack: DistanceFigures?
    /// The naive sum of segments.
    public var naive: DistanceFigures?
    /// The Doppler-only integral; `nil` for a recording without a speed reading.
    public var doppler: DistanceFigures?
    /// Phantom distance per 10 minutes (stationary recordings: reference 0), metres.
    public var phantomMetresPer10Minutes: MethodFigures?
    /// The kind of ground truth (the kind the manifest's truth file is, even when ``truth`` says it was
    /// damaged).
    public var truthKind: TruthKind = .none
    /// How the truth file the manifest names was read: whole, damaged (its first error, the figures not
    /// measured because of it), empty, or not used; `nil` when the manifest names none.
    public var truth: TruthReading?
    /// TrueTrack's filtered positions (accepted fixes) against the truth.
    public var position: PositionErrorSummary?
    /// The raw fixes (all, as read) against the truth: what the filter starts from.
    public var rawPosition: PositionErrorSummary?
    /// The whole-track smoother's figures with the profile's noise (distance ± σ, positions), beside the
    /// Tracker's.
    public var smoother: SmootherFigures?
    /// The same with the noise parameters estimated from the recording (``SmoothingOptions/estimatesNoise``).
    public var smootherWithEstimatedNoise: SmootherFigures?
    /// Stops, where the truth allows them.
    public var stops: StopFigures?
    /// Fixes the Tracker rejected, by reason.
    public var rejections: [String: Int] = [:]
    /// Damaged records the reader stepped over.
    public var readErrors: Int = 0
    /// The first of them, as `truetrack info` reports it (file:line:column (byte), field, what was expected).
    public var firstReadError: String?
    /// Optional fields the reader could not read and read as missing, their fixes kept
    /// (``ReadReport/unreadableFieldCount``).
    public var fieldsReadAsMissing: Int = 0
    /// The first of them, as ``firstReadError`` is written.
    public var firstFieldReadAsMissing: String?

    /// Creates an empty result.
    public init(id: String, category: String, profile: EvaluationProfile, status: Status, note: String? = nil) {
        self.id = id
        self.category = category
        self.profile = profile
        self.status = status
        self.note = note
    }

    /// The samples its ground truth held (``TruthReading/samples``), or `nil` when it has no truth file read
    /// (none, or one not used on purpose): what a baseline keeps to notice a truth file cut short.
    public var truthSamples: Int? { truth.flatMap { $0.status == .notUsed ? nil : $0.samples } }

    /// The figures a baseline compares, by ``BaselineMetric`` name (absent when not measured).
    public var baselineFigures: [BaselineMetric: Double] {
        var figures: [BaselineMetric: Double] = [:]
        guard status == .ok else { return figures }
        if let e = trueTrack?.errorPercent {
            figures[.absDistanceErrorPercent] = abs(e)
        } else if let d = trueTrack, d.errorMetres == nil {
            // No reference at all (a stationary log's reference is 0: its phantom figure covers it).
            figures[.unreferencedDistanceMetres] = d.metres
        }
        if let p = phantomMetresPer10Minutes?.trueTrack { figures[.phantomMetresPer10Minutes] = p }
        if let p = position {
            figures[.positionP50Metres] = p.p50Metres
            figures[.positionP95Metres] = p.p95Metres
        }
        if let s = stops?.score {
            figures[.stopRecall] = s.recall
            figures[.stopPrecision] = s.precision
            figures[.stopTimePrecision] = s.timePrecision
        }
        return figures
    }
}

/// A figure the accuracy baseline watches.
public enum BaselineMetric: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// |TrueTrack distance error| in percent of the reference (lower is better).
    case absDistanceErrorPercent
    /// Phantom metres per 10 minutes on a stationary recording (lower is better).
    case phantomMetresPer10Minutes
    /// Median horizontal error of the filtered positions, metres (lower is better).
    case positionP50Metres
    /// 95th-percentile horizontal error of the filtered positions, metres (lower is better).
    case positionP95Metres
    /// Share of truth stops found (higher is better).
    case stopRecall
    /// Share of detected stops that are truth stops (higher is better).
    case stopPrecision
    /// Share of the detected stops' time inside truth stops (higher is better).
    case stopTimePrecision
    /// TrueTrack's distance on a moving recording without a reference distance, metres: no reference says
    /// which way is better, so a move either way beyond the tolerance is flagged (``isTwoSided``). It catches a
    /// change that silences or inflates a recording nobody can score (a gate change once took GnssLogger's
    /// network-provider walk from 69.8 m to 0 m without failing any other figure).
    case unreferencedDistanceMetres

    /// True when a larger value is better.
    public var higherIsBetter: Bool {
        self == .stopRecall || self == .stopPrecision || self == .stopTimePrecision
    }
    /// True when a move either way beyond the tolerance is a regression (a figure without a reference).
    public var isTwoSided: Bool { self == .unreferencedDistanceMetres }

    public static func < (lhs: BaselineMetric, rhs: BaselineMetric) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
