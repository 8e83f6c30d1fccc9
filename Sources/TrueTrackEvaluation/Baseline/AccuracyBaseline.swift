import Foundation
import TrueTrackIO

/// How far a figure may move the wrong way before it is a regression.
///
/// A figure is **worse than its tolerance** when it moves in the bad direction by more than
/// `max(absolute, relative × |baseline|)`: for a lower-is-better figure, `value > baseline + allowance`; for a
/// higher-is-better one, `value < baseline − allowance`. The evaluation is deterministic (same input, same
/// numbers on every machine up to floating-point last digits), so tolerances do not absorb noise: they are
/// the size of change a tuning may make without a conscious `--update-baseline`.
public struct Tolerance: Sendable, Hashable, Codable {
    /// The allowance in the figure's own unit (percentage points, metres, a share 0–1).
    public var absolute: Double
    /// The allowance as a fraction of the baseline value.
    public var relative: Double

    /// Creates a tolerance.
    public init(absolute: Double, relative: Double) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The allowance for a baseline value.
    public func allowance(for baseline: Double) -> Double { max(absolute, relative * abs(baseline)) }
}

/// The JSON keys of a ``Regression`` and an ``Improvement``, which say the same five things:
/// `{"recording", "figure", "value", "baseline", "allowance"}`.
enum BaselineFigureKey: String, CodingKey {
    case recording, baseline, allowance
    case metric = "figure"
    case current = "value"
}

/// A figure that moved the wrong way beyond its tolerance.
///
/// In JSON: `{"recording", "figure", "value" (null when no longer measured), "baseline", "allowance"}`.
public struct Regression: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The recording.
    public var recording: String
    /// The figure.
    public var metric: BaselineMetric
    /// The baseline value.
    public var baseline: Double
    /// The value now (`nil` when it is no longer measured).
    public var current: Double?
    /// The allowance that was exceeded.
    public var allowance: Double

    /// Creates a regression.
    public init(recording: String, metric: BaselineMetric, baseline: Double, current: Double?, allowance: Double) {
        self.recording = recording
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.allowance = allowance
    }

    typealias CodingKeys = BaselineFigureKey

    /// Encodes every key; a value that is not a finite number (NaN: a figure that broke) as `null`, which JSON
    /// can hold. (Decoding is synthesised: a `null` or absent value reads as `nil`.)
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(recording, forKey: .recording)
        try c.encode(metric, forKey: .metric)
        try c.encode(baseline, forKey: .baseline)
        if let current, current.isFinite {
            try c.encode(current, forKey: .current)
        } else {
            try c.encodeNil(forKey: .current)
        }
        try c.encode(allowance, forKey: .allowance)
    }

    public var description: String {
        let now = current.map { String(format: "%.3f", $0) } ?? "not measured"
        return "REGRESSION \(recording) \(metric.rawValue): \(now) vs baseline \(String(format: "%.3f", baseline)) "
            + "(allowed \(metric.isTwoSided ? "±" : metric.higherIsBetter ? "−" : "+")\(String(format: "%.3f", allowance)))"
    }
}

/// A figure that moved the right way beyond its tolerance: a hint to update the baseline.
///
/// In JSON: `{"recording", "figure", "value", "baseline", "allowance"}`.
public struct Improvement: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The recording.
    public var recording: String
    /// The figure.
    public var metric: BaselineMetric
    /// The baseline value.
    public var baseline: Double
    /// The value now.
    public var current: Double
    /// The allowance it moved beyond.
    public var allowance: Double

    /// Creates an improvement.
    public init(recording: String, metric: BaselineMetric, baseline: Double, current: Double, allowance: Double) {
        self.recording = recording
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.allowance = allowance
    }

    typealias CodingKeys = BaselineFigureKey

    public var description: String {
        "improved \(recording) \(metric.rawValue): \(String(format: "%.3f", current)) vs baseline "
            + String(format: "%.3f", baseline)
    }
}

/// What comparing a report with an accuracy baseline found, and whether a CI run passes: what
/// `truetrack bench --baseline` prints, and the `baseline` object of its JSON.
public struct BaselineComparison: Sendable, Hashable, Codable {
    /// The baseline file.
    public var path: String
    /// True when nothing below fails the run (no regression, no changed fix count, no baselined recording
    /// missing, something compared).
    public var passed: Bool
    /// Why the run fails, one phrase each (empty when ``passed``).
    public var failures: [String]
    /// Figures worse than the baseline beyond their tolerance.
    public var regressions: [Regression]
    /// Figures better than the baseline beyond their tolerance.
    public var improvements: [Improvement]
    /// Recordings reading a different number of fixes than the baseline keeps.
    public var fixCountChanges: [AccuracyBaseline.Coverage.FixCountChange]
    /// Recordings whose ground truth holds a different number of samples than the baseline keeps (a truth file
    /// cut short at a line end reads without an error, and scored half a drive).
    public var truthSampleChanges: [AccuracyBaseline.Coverage.FixCountChange]
    /// Recordings whose category (which picks the tolerances) differs between the baseline and the manifest:
    /// `id: baseline category, manifest category`.
    public var categoryChanges: [String] = []
    /// Baselined recordings of the run that could not be evaluated (a file or its truth missing or unreadable),
    /// with the error: data that is not there, not figures that got worse, so their figures are not compared.
    public var unreadable: [AccuracyBaseline.Coverage.UnreadableRecording]
    /// Recordings of the run without a baseline entry (not checked).
    public var notInBaseline: [String]
    /// Baselined recordings absent from the run (a failure unless the run was limited with `--only`).
    public var missingFromRun: [String]
    /// Figures compared.
    public var comparedFigures: Int
    /// Recordings compared.
    public var comparedRecordings: Int
    /// Fix counts compared.
    public var comparedFixCounts: Int
    /// True when this run then wrote its figures into the file (`--update-baseline`): the comparison is with
    /// the figures it replaced, and the regressions listed are now the baseline.
    public var updated: Bool

    /// Compares `report` with `baseline` read from `path`; `limited` when the run evaluated only some
    /// recordings (`--only`: the others are not missing).
    public init(baseline: AccuracyBaseline, path: String, report: BenchReport, limited: Bool, updated: Bool = false) {
        self.path = path
        self.updated = updated
        regressions = baseline.regressions(in: report)
        improvements = baseline.improvements(in: report)
        let coverage = baseline.coverage(of: report)
        fixCountChanges = coverage.fixCountChanges
        truthSampleChanges = coverage.truthSampleChanges
        unreadable = coverage.unreadable
        notInBaseline = coverage.notInBaseline
        missingFromRun = limited ? [] : coverage.missingFromReport
        comparedFigures = coverage.comparedFigures
        comparedRecordings = coverage.comparedRecordings
        comparedFixCounts = coverage.comparedFixCounts
        var failures: [String] = []
        if !regressions.isEmpty { failures.append("\(regressions.count) regression(s)") }
        if !fixCountChanges.isEmpty {
            failures.append("\(fixCountChanges.count) recording(s) reading a different number of fixes")
        }
        // Another --profile than the baseline's is not comparable where it runs a recording with another profile
        // than the baseline did; a --profile naming each compared recording's own profile is (a CI tester's
        // `--profile cycling --only my-bike` failed against a baseline recorded without it, figures identical).
        let runsAnotherProfile =
            baseline.profileOverride != report.profileOverride
            && report.recordings.contains { r in
                guard let entry = baseline.recordings[r.id] else { return false }
                return (baseline.profileOverride ?? EvaluationProfile.forCategory(entry.category)) != r.profile
            }
        if runsAnotherProfile {
            // (A file written before the profile was recorded says nothing of it, which reads as the default.)
            failures.append(
                "the baseline was recorded with \(EvaluationProfile.describe(override: baseline.profileOverride))"
                    + (baseline.profileOverride == nil ? " (or by a build that did not record --profile)" : "")
                    + ", this run used \(EvaluationProfile.describe(override: report.profileOverride)): its figures "
                    + "are not comparable (re-record "
                    + "the baseline with --update-baseline and this run's options if it is the one meant)")
        }
        categoryChanges = report.recordings.compactMap { r in
            guard let entry = baseline.recordings[r.id],
                ActivityCategory.canonical(entry.category) != ActivityCategory.canonical(r.category)
            else { return nil }
            return "\(r.id): \(entry.category) in the baseline, \(r.category) in the manifest"
        }
        if !categoryChanges.isEmpty {
            failures.append(
                "\(categoryChanges.count) recording(s) of another category than the baseline's, whose tolerances "
                    + "they would be judged by: " + categoryChanges.joined(separator: "; "))
        }
        if !truthSampleChanges.isEmpty {
            failures.append(
                "\(truthSampleChanges.count) recording(s) whose ground truth holds a different number of samples "
                    + "(a truth file cut short or damaged?)")
        }
        if !unreadable.isEmpty {
            failures.append(
                "\(unreadable.count) baselined recording(s) could not be evaluated (data missing or unreadable): "
                    + unreadable.map(\.id).joined(separator: ", "))
        }
        if !missingFromRun.isEmpty {
            failures.append(
                "\(missingFromRun.count) baselined recording(s) missing from this run: "
                    + missingFromRun.joined(separator: ", "))
        }
        if comparedFigures + comparedFixCounts == 0, unreadable.isEmpty {
            failures.append(
                comparedRecordings == 0
                    ? "the baseline covers none of these recordings (another data set?)"
                    : "nothing to compare: the baseline's entries for these recordings hold no figure and no "
                        + "fix count (re-run with --update-baseline to record fix counts)")
        }
        self.failures = failures
        passed = failures.isEmpty
    }

    /// The comparison as the text report's lines: improvements, regressions, changed fix counts, recordings
    /// not checked, what was compared.
    public var lines: [String] {
        var lines = improvements.map(\.description) + regressions.map(\.description)
        for change in fixCountChanges {
            lines.append("CHANGED \(change.id) fixes read: \(change.now) vs baseline \(change.baseline)")
        }
        for change in truthSampleChanges {
            lines.append("CHANGED \(change.id) ground-truth samples: \(change.now) vs baseline \(change.baseline)")
        }
        for recording in unreadable { lines.append("ERROR \(recording.id) not evaluated: \(recording.error)") }
        if !notInBaseline.isEmpty {
            lines.append("not in the baseline, so not checked: \(notInBaseline.joined(separator: ", "))")
        }
        lines.append(
            "compared \(comparedFigures) figures of \(comparedRecordings) recordings and \(comparedFixCounts) fix "
                + "counts with \(path)")
        return lines
    }
}

/// The checked-in accuracy baseline of `truetrack bench` (`Benchmarks/accuracy-baseline.json`).
///
/// ```json
/// { "note": "…",
///   "tolerances": { "default": { "absDistanceErrorPercent": { "absolute": 1, "relative": 0.1 }, … },
///                   "drive":   { "absDistanceErrorPercent": { "absolute": 0.05, "relative": 0.25 } } },
///   "recordings": { "ipin2023-t01r02": { "category": "walk", "absDistanceErrorPercent": 12.3, … } } }
/// ```
/// A tolerance is looked up by category first, then in `default`, then in ``defaultTolerances``.
public struct AccuracyBaseline: Sendable, Hashable, Codable {
    /// One recording's baseline figures.
    public struct Entry: Sendable, Hashable, Codable {
        /// The recording's category (selects the tolerances).
        public var category: String
        /// The figures, by metric.
        public var figures: [BaselineMetric: Double]
        /// How many fixes the recording read (`nil` in baselines written before it was kept): compared exactly,
        /// so that a recording without a reference, which has no figure, still fails when it reads differently.
        public var fixes: Int?
        /// How many samples its ground truth held (`nil` without a truth file read, and in baselines written
        /// before it was kept): compared exactly, so that a truth file cut short, which reads without an error,
        /// fails instead of scoring the fixes it still covers.
        public var truthSamples: Int?

        /// Creates an entry.
        public init(category: String, figures: [BaselineMetric: Double], fixes: Int? = nil, truthSamples: Int? = nil) {
            self.category = category
            self.figures = figures
            self.fixes = fixes
            self.truthSamples = truthSamples
        }

        /// The keys an entry may hold besides the figures.
        static let otherKeys = ["category", "fixes", "truthSamples"]

        /// Reads an entry. A key that is neither a figure nor one of ``otherKeys`` (a misspelt
        /// `absDistanceErrorPercnt`) and a figure of `null` are errors: either would switch its check off unseen.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            try c.rejectKeys(notIn: Entry.otherKeys + BaselineMetric.allCases.map(\.rawValue))
            // Through the one synonym mapping: a baseline written when `driving` was a category of its own reads
            // as `drive`, the category it is judged by now.
            category = ActivityCategory.canonical(try c.decode(String.self, forKey: AnyKey("category")))
            fixes = try c.decodeIfPresent(Int.self, forKey: AnyKey("fixes"))
            truthSamples = try c.decodeIfPresent(Int.self, forKey: AnyKey("truthSamples"))
            for (name, count) in [("fixes", fixes), ("truthSamples", truthSamples)] {
                if let count, count < 0 {
                    throw DecodingError.dataCorruptedError(
                        forKey: AnyKey(name), in: c, debugDescription: "\(count) is not a count (0 or more)")
                }
            }
            figures = [:]
            for metric in BaselineMetric.allCases where c.contains(AnyKey(metric.rawValue)) {
                let value = try c.decode(Double.self, forKey: AnyKey(metric.rawValue))
                // Every figure is 0 or more (an error's absolute value, a distance, a share): a negative one, hand
                // edited, would gate against a value no run can reach (lower-is-better: every run regresses;
                // higher-is-better: none does).
                guard value >= 0, value.isFinite else {
                    throw DecodingError.dataCorruptedError(
                        forKey: AnyKey(metric.rawValue), in: c,
                        debugDescription: "\(value) is not a figure (a finite number, 0 or more)")
                }
                figures[metric] = value
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(category, forKey: AnyKey("category"))
            try c.encodeIfPresent(fixes, forKey: AnyKey("fixes"))
            try c.encodeIfPresent(truthSamples, forKey: AnyKey("truthSamples"))
            for (metric, value) in figures { try c.encode(value, forKey: AnyKey(metric.rawValue)) }
        }
    }

    /// What the file is and how to update it (optional in the file: ``defaultNote``).
    public var note: String
    /// Tolerances by category (`default` for every category), then by metric name (optional in the file:
    /// ``defaultTolerances``).
    public var tolerances: [String: [String: Tolerance]] {
        didSet { byCategory = AccuracyBaseline.byCategory(tolerances) }
    }
    /// ``tolerances`` by canonical category (``ActivityCategory/canonical(_:)``), built once whenever they are
    /// set: a metric's tolerance from the table keyed by the category itself, else from the first (in key order)
    /// keyed by a synonym of it that names the metric.
    private var byCategory: [String: [String: Tolerance]]
    /// Baseline figures by recording id.
    public var recordings: [String: Entry]
    /// The profile every recording ran with when the figures were recorded (`truetrack bench --profile`), or
    /// `nil` for each recording's own: a run with another profile is not comparable (a tester's driving-profile
    /// baseline read as 21 regressions, with no word of the profile).
    public var profileOverride: EvaluationProfile?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case note, tolerances, recordings
        case profileOverride = "profile"
    }

    /// Reads a baseline. Unknown keys, at the top, in a tolerance table or in an entry, are errors, and so are
    /// negative or non-finite tolerances: a typo must not switch a check off unseen.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        try c.rejectKeys(notIn: CodingKeys.allCases.map(\.rawValue))
        note = try c.decodeIfPresent(String.self, forKey: AnyKey("note")) ?? AccuracyBaseline.defaultNote
        let tolerances =
            try c.decodeIfPresent([String: [String: Tolerance]].self, forKey: AnyKey("tolerances"))
            ?? AccuracyBaseline.defaultTolerances
        self.tolerances = tolerances
        byCategory = AccuracyBaseline.byCategory(tolerances)
        recordings = try c.decode([String: Entry].self, forKey: AnyKey("recordings"))
        if let name = try c.decodeIfPresent(String.self, forKey: AnyKey("profile")) {
            guard let profile = EvaluationProfile(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: AnyKey("profile"), in: c,
                    debugDescription: "'\(name)' is no profile (expected one of: "
                        + EvaluationProfile.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            profileOverride = profile
        } else {
            profileOverride = nil
        }
        for (category, table) in tolerances {
            for (name, tolerance) in table {
                let at = "tolerances.\(category).\(name)"
                guard BaselineMetric(rawValue: name) != nil else {
                    throw DecodingError.dataCorruptedError(
                        forKey: AnyKey("tolerances"), in: c,
                        debugDescription: "\(at): unknown figure '\(name)' (expected "
                            + BaselineMetric.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                guard tolerance.absolute >= 0, tolerance.relative >= 0, tolerance.absolute.isFinite,
                    tolerance.relative.isFinite
                else {
                    throw DecodingError.dataCorruptedError(
                        forKey: AnyKey("tolerances"), in: c,
                        debugDescription: "\(at): a tolerance is 0 or more (absolute \(tolerance.absolute), "
                            + "relative \(tolerance.relative))")
                }
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(note, forKey: .note)
        try c.encode(tolerances, forKey: .tolerances)
        try c.encode(recordings, forKey: .recordings)
        try c.encodeIfPresent(profileOverride, forKey: .profileOverride)
    }

    /// A key of any name (the figures' names, and to find the unknown ones).
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The note written into a new baseline.
    public static let defaultNote = """
        Accuracy baseline of `truetrack bench` (see Benchmarks/README.md). A figure regresses when it moves the \
        wrong way by more than max(absolute, relative × baseline) of its tolerance (by category, else default). \
        Lower is better except stopRecall/stopPrecision/stopTimePrecision; unreferencedDistanceMetres (a recording without a \
        reference) regresses when it moves either way. Regenerate with `truetrack bench --baseline FILE \
        --update-baseline` after a deliberate change; tolerances are kept.
        """

    /// Tolerances used when the file names none for a metric.
    ///
    /// - distance error: 1 percentage point or 10 % of the error (walks: 100 m references, so 1 pp is 1 m);
    ///   drives 0.05 pp or 25 % (40 km references: 0.05 pp is 20 m, the current errors are ~0.01–1.5 %);
    /// - phantom distance: 0.5 m per 10 min or 25 % (the bar is ≤ 1 m per 10 min);
    /// - position p50 / p95: 0.1 / 0.25 m or 10 % (SPAN truth is centimetre-grade);
    /// - stop recall / precision / time precision: 0.1 (one stop in ten, a tenth of the stopped time);
    /// - distance without a reference: 1 m or 5 %, either way (a deliberate change of that size is worth an
    ///   `--update-baseline` and a line in the commit).
    public static let defaultTolerances: [String: [String: Tolerance]] = [
        "default": [
            BaselineMetric.absDistanceErrorPercent.rawValue: Tolerance(absolute: 1, relative: 0.1),
            BaselineMetric.phantomMetresPer10Minutes.rawValue: Tolerance(absolute: 0.5, relative: 0.25),
            BaselineMetric.positionP50Metres.rawValue: Tolerance(absolute: 0.1, relative: 0.1),
            BaselineMetric.positionP95Metres.rawValue: Tolerance(absolute: 0.25, relative: 0.1),
            BaselineMetric.stopRecall.rawValue: Tolerance(absolute: 0.1, relative: 0),
            BaselineMetric.stopPrecision.rawValue: Tolerance(absolute: 0.1, relative: 0),
            BaselineMetric.stopTimePrecision.rawValue: Tolerance(absolute: 0.1, relative: 0),
            BaselineMetric.unreferencedDistanceMetres.rawValue: Tolerance(absolute: 1, relative: 0.05),
        ],
        "drive": [
            BaselineMetric.absDistanceErrorPercent.rawValue: Tolerance(absolute: 0.05, relative: 0.25)
        ],
    ]

    /// Creates a baseline.
    public init(
        note: String = AccuracyBaseline.defaultNote,
        tolerances: [String: [String: Tolerance]] = AccuracyBaseline.defaultTolerances,
        recordings: [String: Entry], profileOverride: EvaluationProfile? = nil
    ) {
        self.note = note
        self.tolerances = tolerances
        byCategory = AccuracyBaseline.byCategory(tolerances)
        self.recordings = recordings
        self.profileOverride = profileOverride
    }

    /// A baseline of `report`'s figures, keeping the tolerances and note of `previous` and, when `merge` is
    /// true (a run limited with `--only`), its entries for recordings not in the report. A recording that failed
    /// keeps its previous entry (so that the next run still checks it) and gets none if it had none.
    /// Entries of `previous` are kept only when it was recorded with the report's profile: the file records one
    /// profile for all its entries (a reviewer's driving-profile update kept a recording's own-profile entry).
    public init(report: BenchReport, previous: AccuracyBaseline?, merge: Bool) {
        let kept = previous?.profileOverride == report.profileOverride ? previous?.recordings ?? [:] : [:]
        var entries = merge ? kept : [:]
        for r in report.recordings {
            if r.status == .ok {
                entries[r.id] = Entry(
                    category: r.category, figures: r.baselineFigures, fixes: r.fixes, truthSamples: r.truthSamples)
            } else if let old = kept[r.id] {
                entries[r.id] = old
            }
        }
        self.init(
            note: previous?.note ?? AccuracyBaseline.defaultNote,
            tolerances: previous?.tolerances ?? AccuracyBaseline.defaultTolerances, recordings: entries,
            profileOverride: report.profileOverride)
    }

    /// The tolerance of `metric` in `category` (or a synonym of it: `driving` is `drive`,
    /// ``ActivityCategory/canonical(_:)``). A table keyed by a synonym in the file counts for its category, after
    /// one keyed by the category itself.
    public func tolerance(_ metric: BaselineMetric, category: String) -> Tolerance {
        let category = ActivityCategory.canonical(category)
        return byCategory[category]?[metric.rawValue]
            ?? tolerances["default"]?[metric.rawValue]
            ?? AccuracyBaseline.defaultTolerances[category]?[metric.rawValue]
            ?? AccuracyBaseline.defaultTolerances["default"]![metric.rawValue]!
    }

    /// `tolerances` by canonical category (``byCategory``): the tables keyed by a category itself, then those
    /// keyed by a synonym in key order, each filling only the metrics still missing.
    /// What in ``tolerances`` applies to nothing, for a run over recordings of `categories` (activity categories,
    /// synonyms allowed): one sentence per block. A block for a category none of them has (a built-in category, or
    /// one of the baseline's entries: a block naming no category at all is ``checkToleranceCategories(_:path:)``'s
    /// error) is named with the nearest category of the run; a synonym's block beside its category's own ("driving"
    /// beside "drive") sets figures the category's own block wins (``byCategory(_:)``: a reviewer's "driving" at 0
    /// passed silently).
    public func toleranceWarnings(categories: Set<String>) -> [String] {
        let known = Set(categories.map(ActivityCategory.canonical))
        var warnings: [String] = []
        for name in tolerances.keys.sorted() where name != "default" {
            let canonical = ActivityCategory.canonical(name)
            if !known.contains(canonical) {
                let near = DatasetManifest.nearest(name, in: known.sorted()).map { " (did you mean '\($0)'?)" }
                warnings.append(
                    "tolerances for '\(name)', a category no recording of the manifest has"
                        + (near ?? "; its categories: \(known.sorted().joined(separator: ", "))")
                        + ": those tolerances apply to nothing")
            } else if name != canonical, let own = tolerances[canonical] {
                let shadowed = (tolerances[name] ?? [:]).keys.filter { own[$0] != nil }.sorted()
                if !shadowed.isEmpty {
                    warnings.append(
                        "tolerances for '\(name)' name the category '\(canonical)', whose own block sets "
                            + "\(shadowed.joined(separator: ", ")) too: those of '\(name)' are not used")
                }
            }
        }
        return warnings
    }

    /// Throws when a tolerance block names no category it could apply to: not `default`, not a category of
    /// ``ActivityCategory/synonyms`` (or a synonym), not the category of one of the baseline's entries and not one of
    /// `categories` (the manifest's, synonyms allowed). Such a block is a misspelling (`drvie`): its category's
    /// recordings were judged by the default tolerances, 20 × looser for a drive's distance (a CI tester's drive at
    /// 0.905 % against a baseline of 0.5 % passed). A category of the user's own (`hike`) is known once their
    /// manifest or the baseline's entries have it.
    /// - Throws: ``BaselineError/unreadable(path:reason:)`` naming `path`, the block and the known categories.
    public func checkToleranceCategories(_ categories: Set<String>, path: String) throws(BaselineError) {
        let builtIn = ActivityCategory.synonyms.map(\.category)
        let known = Set(
            (builtIn + categories.map(ActivityCategory.canonical) + recordings.values.map(\.category))
                .map(ActivityCategory.canonical))
        for name in tolerances.keys.sorted()
        where name != "default" && !known.contains(ActivityCategory.canonical(name)) {
            let names = known.sorted()
            let near = DatasetManifest.nearest(name, in: names).map { "did you mean '\($0)'? " } ?? ""
            throw .unreadable(
                path: path,
                reason: "tolerances.\(name): no category '\(name)' (\(near)known categories: default, "
                    + names.joined(separator: ", ")
                    + "): its tolerances would apply to nothing, and the recordings they were meant for would be judged "
                    + "by the default ones")
        }
    }

    private static func byCategory(_ tolerances: [String: [String: Tolerance]]) -> [String: [String: Tolerance]] {
        var merged: [String: [String: Tolerance]] = [:]
        let keys = tolerances.keys.map { (key: $0, category: ActivityCategory.canonical($0)) }
        for (key, category) in keys where key == category { merged[category] = tolerances[key] }
        for (key, category) in keys.sorted(by: { $0.key < $1.key }) where key != category {
            merged[category, default: [:]].merge(tolerances[key] ?? [:]) { kept, _ in kept }
        }
        return merged
    }

    /// The figures of `report` worse than the baseline beyond their tolerance. Recordings of the baseline
    /// absent from the report (a run limited with `--only`) are not compared, nor are those that could not be
    /// evaluated (``Coverage/unreadable``: a failure of their own); a figure no longer measured is a regression.
    public func regressions(in report: BenchReport) -> [Regression] {
        var found: [Regression] = []
        for result in report.recordings where result.status != .error {
            guard let entry = recordings[result.id] else { continue }
            let now = result.baselineFigures
            for (metric, base) in entry.figures.sorted(by: { $0.key < $1.key }) {
                let allowance = tolerance(metric, category: entry.category).allowance(for: base)
                guard let value = now[metric] else {
                    found.append(
                        Regression(
                            recording: result.id, metric: metric, baseline: base, current: nil,
                            allowance: allowance))
                    continue
                }
                let worse =
                    metric.isTwoSided
                    ? abs(value - base) > allowance
                    : metric.higherIsBetter ? value < base - allowance : value > base + allowance
                if worse || value.isNaN {
                    found.append(
                        Regression(
                            recording: result.id, metric: metric, baseline: base, current: value,
                            allowance: allowance))
                }
            }
        }
        return found
    }

    /// What a comparison with the baseline covered: a CI run must fail when it compared nothing, when a
    /// baselined recording is missing, or when a recording reads a different number of fixes.
    public struct Coverage: Sendable, Hashable {
        /// Figures compared (each a recording's metric).
        public var comparedFigures = 0
        /// Recordings of the report that have a baseline entry.
        public var comparedRecordings = 0
        /// Fix counts compared (entries that keep one).
        public var comparedFixCounts = 0
        /// Baselined recordings absent from the report.
        public var missingFromReport: [String] = []
        /// Recordings of the report without a baseline entry (not checked).
        public var notInBaseline: [String] = []
        /// Recordings whose fix count differs from the baseline's.
        public var fixCountChanges: [FixCountChange] = []
        /// Recordings whose ground truth holds another number of samples than the baseline's.
        public var truthSampleChanges: [FixCountChange] = []
        /// Baselined recordings that could not be evaluated.
        public var unreadable: [UnreadableRecording] = []

        /// A baselined recording the run could not evaluate, and why. In JSON `{"recording", "error"}` (the
        /// comparison's other entries name theirs `recording` too; `id` until schema 2).
        public struct UnreadableRecording: Sendable, Hashable, Codable {
            /// The recording.
            public var id: String
            /// The error (the file or truth that could not be read).
            public var error: String

            enum CodingKeys: String, CodingKey {
                case id = "recording", error
            }
        }

        /// A recording that reads a different number of fixes (or truth samples) than its baseline entry keeps.
        /// In JSON `{"recording", "value", "baseline"}`, as a ``Regression`` names its recording, value and
        /// baseline (`{id, now, baseline}` until schema 2: a CI tester's job read the two kinds apart).
        public struct FixCountChange: Sendable, Hashable, Codable {
            /// The recording.
            public var id: String
            /// The fixes read now.
            public var now: Int
            /// The fixes the baseline keeps.
            public var baseline: Int

            enum CodingKeys: String, CodingKey {
                case id = "recording", now = "value", baseline
            }
        }
    }

    /// What comparing `report` with the baseline covers (see ``Coverage``).
    public func coverage(of report: BenchReport) -> Coverage {
        var c = Coverage()
        let reported = Set(report.recordings.map(\.id))
        c.missingFromReport = recordings.keys.filter { !reported.contains($0) }.sorted()
        for result in report.recordings {
            guard let entry = recordings[result.id] else {
                if result.status == .ok { c.notInBaseline.append(result.id) }
                continue
            }
            if result.status == .error {
                c.unreadable.append(.init(id: result.id, error: result.note ?? "not evaluated"))
                continue
            }
            c.comparedRecordings += 1
            c.comparedFigures += entry.figures.count
            if let expected = entry.truthSamples, result.status == .ok {
                let now = result.truthSamples ?? 0
                if now != expected { c.truthSampleChanges.append(.init(id: result.id, now: now, baseline: expected)) }
            }
            if let expected = entry.fixes, result.status != .skipped {
                c.comparedFixCounts += 1
                if result.fixes != expected {
                    c.fixCountChanges.append(.init(id: result.id, now: result.fixes, baseline: expected))
                }
            }
        }
        return c
    }

    /// Figures better than the baseline beyond their tolerance (a hint to update it).
    public func improvements(in report: BenchReport) -> [Improvement] {
        var found: [Improvement] = []
        for result in report.recordings {
            guard let entry = recordings[result.id] else { continue }
            for (metric, value) in result.baselineFigures.sorted(by: { $0.key < $1.key }) {
                guard let base = entry.figures[metric], !metric.isTwoSided else { continue }
                let allowance = tolerance(metric, category: entry.category).allowance(for: base)
                let better = metric.higherIsBetter ? value > base + allowance : value < base - allowance
                if better {
                    found.append(
                        Improvement(
                            recording: result.id, metric: metric, baseline: base, current: value, allowance: allowance))
                }
            }
        }
        return found
    }

    /// Reads a baseline file.
    /// - Throws: ``BaselineError/missing(path:)`` when there is no such file,
    ///   ``BaselineError/unreadable(path:reason:)`` when it is not a baseline (where in the document, and what was
    ///   wrong), or holds a key twice in one object (``DuplicateJSONKey``).
    public static func load(path: String) throws(BaselineError) -> AccuracyBaseline {
        guard let data = FileManager.default.contents(atPath: path) else { throw .missing(path: path) }
        do {
            let baseline = try JSONDecoder().decode(AccuracyBaseline.self, from: data)
            // A key given twice reads as its first here and as its last in Python or jq (a CI tester's repeated
            // recording entry gated the first figures while a script showed the second).
            if let duplicate = DuplicateJSONKey.first(in: data) {
                throw BaselineError.unreadable(path: path, reason: duplicate.description)
            }
            return baseline
        } catch let error as BaselineError {
            throw error
        } catch {
            throw .unreadable(
                path: path,
                reason: DecodingFailure.describe(
                    error, data: data,
                    wholeNumberKeys: [
                        "comparedFigures", "comparedRecordings", "comparedFixCounts", "fixes", "truthSamples",
                    ]))
        }
    }

    /// Writes the baseline as pretty JSON with sorted keys (stable diffs).
    public func save(path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// Why an accuracy baseline could not be read, naming the file.
public enum BaselineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file is not an accuracy baseline: `reason` says where in the document and what was wrong.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path): "no baseline at \(path)"
        case .unreadable(let path, let reason): "cannot read baseline \(path): \(reason)"
        }
    }

    /// The file.
    public var path: String {
        switch self {
        case .missing(let path), .unreadable(let path, _): path
        }
    }

    /// What is wrong, without the file's name (`no such file`, or where in the document and what).
    public var reason: String {
        switch self {
        case .missing: "no such file"
        case .unreadable(_, let reason): reason
        }
    }
}

extension KeyedDecodingContainer where Key == AccuracyBaseline.AnyKey {
    /// Throws for the first key of this object not in `known`, naming it and the keys expected: a typo must not
    /// switch a check off unseen.
    func rejectKeys(notIn known: [String]) throws {
        for key in allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "unknown key '\(key.stringValue)' (expected \(known.joined(separator: ", ")))")
        }
    }
}
