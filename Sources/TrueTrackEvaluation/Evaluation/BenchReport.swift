import TrueTrackCore

/// The figures of one activity category, over its evaluated recordings.
public struct CategorySummary: Sendable, Hashable, Codable {
    /// The category (`walk`, `drive`, `stationary`, …).
    public var category: String
    /// Recordings evaluated.
    public var recordings: Int
    /// Recordings with a positive reference distance.
    public var withReference: Int
    /// Median |distance error| in percent, per method.
    public var medianAbsErrorPercent: MethodFigures?
    /// Largest |distance error| in percent, per method.
    public var maxAbsErrorPercent: MethodFigures?
    /// Median phantom metres per 10 minutes (stationary), per method.
    public var medianPhantomMetresPer10Minutes: MethodFigures?
    /// Largest phantom metres per 10 minutes, per method.
    public var maxPhantomMetresPer10Minutes: MethodFigures?
    /// Median over recordings of the filtered positions' p50 error, metres.
    public var medianPositionP50Metres: Double?
    /// Largest p95 error of the filtered positions over recordings, metres.
    public var maxPositionP95Metres: Double?
    /// Mean stop recall and precision over the recordings with truth stops (when a detector is wired in).
    public var meanStopRecall: Double?
    /// See ``meanStopRecall``.
    public var meanStopPrecision: Double?
    /// Mean stop time precision (``StopScore/timePrecision``) over the same recordings.
    public var meanStopTimePrecision: Double?
    /// Rejections by reason, summed.
    public var rejections: [String: Int]

    /// Summarises the results of one category (results with status other than `ok` are left out).
    public init(category: String, results: [RecordingResult]) {
        let ok = results.filter { $0.status == .ok }
        self.category = category
        recordings = ok.count
        let withRef = ok.filter { ($0.referenceDistanceMetres ?? 0) > 0 }
        withReference = withRef.count
        func agg(_ values: [Double?], _ f: ([Double]) -> Double?) -> Double? { f(values.compactMap { $0 }) }
        func median(_ v: [Double]) -> Double? { Percentile.of(v, 0.5) }
        func maximum(_ v: [Double]) -> Double? { v.max() }
        func trio(_ pick: (RecordingResult) -> MethodFigures?, _ f: ([Double]) -> Double?) -> MethodFigures? {
            let figures = ok.compactMap(pick)
            guard !figures.isEmpty else { return nil }
            return MethodFigures(
                trueTrack: agg(figures.map(\.trueTrack), f), naive: agg(figures.map(\.naive), f),
                doppler: agg(figures.map(\.doppler), f))
        }
        let absErrors: (RecordingResult) -> MethodFigures? = { r in
            guard let t = r.trueTrack?.errorPercent else { return nil }
            return MethodFigures(
                trueTrack: abs(t), naive: r.naive?.errorPercent.map(abs),
                doppler: r.doppler?.errorPercent.map(abs))
        }
        medianAbsErrorPercent = trio(absErrors, median)
        maxAbsErrorPercent = trio(absErrors, maximum)
        medianPhantomMetresPer10Minutes = trio(\.phantomMetresPer10Minutes, median)
        maxPhantomMetresPer10Minutes = trio(\.phantomMetresPer10Minutes, maximum)
        medianPositionP50Metres = median(ok.compactMap { $0.position?.p50Metres })
        maxPositionP95Metres = ok.compactMap { $0.position?.p95Metres }.max()
        let scores = ok.compactMap { $0.stops?.score }
        meanStopRecall = scores.isEmpty ? nil : scores.map(\.recall).reduce(0, +) / Double(scores.count)
        meanStopPrecision = scores.isEmpty ? nil : scores.map(\.precision).reduce(0, +) / Double(scores.count)
        meanStopTimePrecision =
            scores.isEmpty ? nil : scores.map(\.timePrecision).reduce(0, +) / Double(scores.count)
        var rejections: [String: Int] = [:]
        for r in ok { rejections.merge(r.rejections, uniquingKeysWith: +) }
        self.rejections = rejections
    }
}

/// The whole benchmark: every recording and every category.
public struct BenchReport: Sendable, Hashable, Codable {
    /// The version of this JSON layout (``currentSchemaVersion``): a CI job that reads the report checks it.
    /// Optional so that reports written before it decode.
    public var schemaVersion: Int?
    /// The TrueTrack version that wrote the report (``TrueTrack/version``).
    public var truetrackVersion: String?
    /// The layout written now: 2 (since 2026-12-02: the comparison's `fixCountChanges[]`, `truthSampleChanges[]`
    /// and `unreadable[]` name their recording `recording` and the count now `value`, as `regressions[]` do; 1
    /// wrote `id` and `now`). Raised when a key changes meaning or goes away, not when one is added.
    public static let currentSchemaVersion = 2
    /// The data-set folder.
    public var datasets: String
    /// The profile forced on every recording, when one was (`--profile`).
    public var profileOverride: EvaluationProfile?
    /// Whether a stop detector was wired in (stop figures are only measured then).
    public var stopDetectorAvailable: Bool
    /// Per recording, in manifest order.
    public var recordings: [RecordingResult]
    /// Per category, in order of first appearance.
    public var categories: [CategorySummary]
    /// Wall time of the whole run, seconds.
    public var elapsedSeconds: Double
    /// The comparison with the accuracy baseline, when the run was given one (`--baseline`).
    public var baseline: BaselineComparison?

    /// Builds the report and its category summaries.
    public init(
        datasets: String, profileOverride: EvaluationProfile?, recordings: [RecordingResult],
        elapsedSeconds: Double
    ) {
        schemaVersion = Self.currentSchemaVersion
        truetrackVersion = TrueTrack.version
        self.datasets = datasets
        self.profileOverride = profileOverride
        stopDetectorAvailable = StopDetectorAdapter.isAvailable
        self.recordings = recordings
        var order: [String] = []
        for r in recordings where !order.contains(r.category) { order.append(r.category) }
        categories = order.map { c in CategorySummary(category: c, results: recordings.filter { $0.category == c }) }
        self.elapsedSeconds = elapsedSeconds
    }
}
