import TrueTrackCore
import TrueTrackIO
import TrueTrackSmoothing

/// Runs the Tracker over recordings and measures it against their references and truth.
public enum Evaluator {
    /// Evaluates one manifest recording: reads it and its truth, runs the Tracker with `profile` (else the
    /// profile that fits its activity), and measures; the whole-track smoother runs beside it only when
    /// `smoothing` asks (off by default: two smoother runs per recording are `truetrack bench`'s business, not
    /// every caller's). Never throws: a read failure is a result with status ``RecordingResult/Status/error``.
    public static func evaluate(
        _ recording: DatasetManifest.Recording, manifest: DatasetManifest,
        profile: EvaluationProfile? = nil, smoothing: SmoothingChoice = .off
    ) -> RecordingResult {
        let category = recording.activityCategory
        let chosen = profile ?? EvaluationProfile.forCategory(category)
        if isTruthOnly(recording) {
            return RecordingResult(
                id: recording.id, category: category, profile: chosen, status: .skipped,
                note: "truth-only sample: no device fixes")
        }
        let aligned: AlignedRecording
        let truth: GroundTruth
        do {
            aligned = try AlignedRecording.load(recording, manifest: manifest)
        } catch {
            // (A file no reader of the declared format can begin, a CSV declared `gpx`, ends the read at once: the
            // same hint as a read that gave no fix.)
            return RecordingResult(
                id: recording.id, category: category, profile: chosen, status: .error,
                note: error.description + formatHint(recording, manifest: manifest))
        }
        do {
            truth = try GroundTruthLoader.load(recording, manifest: manifest, aligned: aligned)
        } catch {
            return RecordingResult(
                id: recording.id, category: category, profile: chosen, status: .error,
                note: "ground truth: \(error.description)")
        }
        var result = evaluate(
            aligned, truth: truth, id: recording.id, category: category,
            referenceDistanceMetres: recording.referenceDistanceMetres, profile: chosen, smoothing: smoothing)
        if result.status == .error, result.fixes == 0 {
            result.note = (result.note ?? "no fixes read") + formatHint(recording, manifest: manifest)
        }
        return result
    }

    /// What a recording that read no fix should check: the entry's declared format, and the format the file's
    /// content looks like when that is another (a CSV declared `gpx` said only "0 records read, 1 unusable").
    static func formatHint(_ recording: DatasetManifest.Recording, manifest: DatasetManifest) -> String {
        let declared = recording.declaredFormat
        var hint =
            "; read as \(declared?.rawValue ?? "the format its content looks like") because \(recording.entryName) "
            + "says \"format\": \"\(recording.format)\": check it"
        if declared != nil, let sniffed = try? FixFormat.detect(path: manifest.path(of: recording)), sniffed != declared
        {
            hint += " (the file's content looks like \(sniffed.rawValue))"
        }
        return hint
    }

    /// Whether and how the whole-track smoother runs beside the Tracker.
    public enum SmoothingChoice: String, Sendable, Hashable, CaseIterable, Codable {
        /// Not at all.
        case off
        /// With the profile's noise parameters (what `truetrack process --smooth` does).
        case fixedNoise
        /// Both with the profile's noise and with the noise estimated from each recording
        /// (``SmoothingOptions/estimatesNoise``, `truetrack process --smooth --estimate-noise`).
        case estimatedNoise
    }

    /// True when the recording's file is its own ground truth in the same format (a truth-only sample such as
    /// `gsdc2022-ground-truth-sample`); an IPIN log, whose `POSI` truth rows sit beside its `GNSS` rows, is not.
    public static func isTruthOnly(_ recording: DatasetManifest.Recording) -> Bool {
        func word(_ text: String) -> Substring { text.lowercased().prefix { $0.isLetter || $0.isNumber || $0 == "-" } }
        guard let truth = recording.groundTruth, truth == recording.path, let format = recording.groundTruthFormat
        else { return false }
        return word(format) == word(recording.format)
    }

    /// The shortest device span over which a truth length is used as the reference distance when the
    /// manifest gives none, seconds: a few seconds of overlap (a format sample) measure nothing.
    public static let minimumTruthReferenceSeconds = 60.0

    /// Evaluates fixes already read against their truth.
    ///
    /// - Parameters:
    ///   - referenceDistanceMetres: the manifest's reference; when the truth is a trajectory covering the fixes'
    ///     whole span (at least ``minimumTruthReferenceSeconds``), the truth's length over that span on the WGS-84
    ///     ellipsoid is used instead (reference source `truth`; the manifest's are haversine sums).
    public static func evaluate(
        _ recording: AlignedRecording, truth: GroundTruth, id: String, category: String,
        referenceDistanceMetres: Double?, profile: EvaluationProfile, smoothing: SmoothingChoice = .off
    ) -> RecordingResult {
        var result = RecordingResult(id: id, category: category, profile: profile, status: .ok, note: truth.note)
        let fixes = recording.fixes
        result.fixes = fixes.count
        result.readErrors = recording.report?.errorCount ?? 0
        result.firstReadError = recording.report?.errors.first?.description
        result.fieldsReadAsMissing = recording.report?.unreadableFieldCount ?? 0
        result.firstFieldReadAsMissing = recording.report?.unreadableFields.first?.description
        result.truthKind = truth.kind
        result.truth = truth.reading
        guard !fixes.isEmpty else {
            // A recording the manifest lists for its fixes and that yields none is broken (an emptied file, a
            // wrong format), not something to skip: a CI run must not pass over it.
            result.status = .error
            result.note =
                "no fixes read (\(recording.report.map { "\($0.recordsRead) records read, \($0.unusableRecords) unusable" } ?? "nothing read"))"
            return result
        }

        // The Tracker, fix by fix in file order.
        var driver = TrackerDriver(profile: profile)
        var filtered: [(seconds: Double, latitude: Double, longitude: Double)] = []
        filtered.reserveCapacity(fixes.count)
        var total = 0.0
        for (i, fix) in fixes.enumerated() {
            let step = driver.process(fix)
            total = step.totalDistanceMetres
            if step.isAccepted {
                result.acceptedFixes += 1
                if step.movedLikeAVehicle { result.heldAsVehicleFixes += 1 }
                if let lat = step.latitude, let lon = step.longitude {
                    filtered.append((recording.clockSeconds[i], lat, lon))
                }
            } else {
                result.rejections[step.rejection ?? "unknown", default: 0] += 1
            }
        }
        total = driver.finish()

        // Distances.
        var earliest = fixes[0].timestamp, latest = fixes[0].timestamp
        for fix in fixes {
            earliest = min(earliest, fix.timestamp)
            latest = max(latest, fix.timestamp)
        }
        result.durationSeconds = earliest.seconds(to: latest)
        var reference = referenceDistanceMetres
        result.referenceSource = reference == nil ? nil : "manifest"
        result.manifestReferenceDistanceMetres = referenceDistanceMetres
        // A trajectory truth is measured on the ellipsoid, as TrueTrack measures (the manifest's references are
        // haversine sums, 0.042 % short on the GSDC drives: the smoother's ellipsoidal length read 2.9σ long).
        if truth.kind == .trajectory, let track = truth.track, let span = recording.clockSpan,
            let truthSpan = track.span, span.upperBound - span.lowerBound >= minimumTruthReferenceSeconds,
            truthSpan.lowerBound <= span.lowerBound, truthSpan.upperBound >= span.upperBound,
            track.hasSamples(near: span, withinSeconds: minimumTruthReferenceSeconds)
        {
            reference = track.pathLength(from: span.lowerBound, to: span.upperBound)
            result.referenceSource = "truth"
        }
        result.referenceDistanceMetres = reference
        let naive = BaselineDistances.naive(fixes), doppler = BaselineDistances.dopplerIntegral(fixes)
        result.trueTrack = DistanceFigures(metres: total, reference: reference)
        result.naive = DistanceFigures(metres: naive, reference: reference)
        // No Doppler figures for a recording without a single speed reading: its "integral" of 0 m read −100 % in
        // the table and pulled the category's Doppler median (a CI tester's).
        let hasReadings = fixes.contains { $0.speedMetresPerSecond != nil }
        result.doppler = hasReadings ? DistanceFigures(metres: doppler, reference: reference) : nil
        if reference == 0, result.durationSeconds > 0 {
            let scale = 600 / result.durationSeconds
            result.phantomMetresPer10Minutes = MethodFigures(
                trueTrack: total * scale, naive: naive * scale,
                doppler: hasReadings ? doppler * scale : nil)
        }

        // Positions.
        if let track = truth.track {
            let withScore = truth.kind == .trajectory
            result.position = PositionErrorSummary(
                errors: PositionErrorSummary.errors(filtered, truth: track), withScore: withScore)
            let raw = fixes.indices.map { (recording.clockSeconds[$0], fixes[$0].latitude, fixes[$0].longitude) }
            result.rawPosition = PositionErrorSummary(
                errors: PositionErrorSummary.errors(raw, truth: track), withScore: withScore)
        }

        // The whole-track smoother, on the same fixes (it sorts them by time itself): with the profile's noise
        // (what `truetrack process --smooth` does) and with the noise estimated from the recording.
        if smoothing != .off {
            func run(estimating: Bool) -> SmootherFigures {
                var options = SmoothingOptions(profile: profile.trackingProfile)
                options.estimatesNoise = estimating
                let smoothed = WholeTrackSmoother(options: options).smooth(fixes)
                var figures = SmootherFigures(smoothed, reference: reference)
                if let track = truth.track {
                    let points = smoothed.points.map {
                        (recording.clockSeconds[$0.fixIndex], $0.latitude, $0.longitude)
                    }
                    figures.position = PositionErrorSummary(
                        errors: PositionErrorSummary.errors(points, truth: track), withScore: truth.kind == .trajectory)
                }
                return figures
            }
            result.smoother = run(estimating: false)
            if smoothing == .estimatedNoise { result.smootherWithEstimatedNoise = run(estimating: true) }
        }

        // A truth read whole that holds no fix's time (another clock, another day): said as a faulty one is.
        if var reading = result.truth, reading.status == .read, let track = truth.track, result.rawPosition == nil,
            let truthSpan = track.span, let span = recording.clockSpan
        {
            func text(_ range: ClosedRange<Double>) -> String {
                guard recording.clock == .utc else {
                    return "\(range.lowerBound) → \(range.upperBound) s on the app clock"
                }
                func utc(_ seconds: Double) -> String {
                    ISO8601.format(Timestamp(millisecondsSince1970: Int64((seconds * 1000).rounded())))
                }
                return "\(utc(range.lowerBound)) → \(utc(range.upperBound))"
            }
            reading.status = .disjoint
            reading.truthSpan = text(truthSpan)
            reading.fixesSpan = text(span)
            reading.spansOverlap = truthSpan.overlaps(span)
            result.truth = reading
        }
        // What a damaged, empty or disjoint truth file left unmeasured.
        if var reading = result.truth, reading.isFaulty {
            if truth.kind == .trajectory || truth.kind == .waypoints, result.position == nil {
                reading.notMeasured += [.positionP50Metres, .positionP95Metres]
            }
            if truth.kind == .trajectory, referenceDistanceMetres == nil, result.referenceSource != "truth",
                recording.clockSpan.map({ $0.upperBound - $0.lowerBound >= minimumTruthReferenceSeconds }) == true
            {
                reading.notMeasured.append(.absDistanceErrorPercent)
            }
            result.truth = reading
        }

        // Stops.
        if let labelled = truth.stops {
            // A truth stop without a single fix strictly inside it (GeoLife's waits between labelled legs fall in gaps
            // of the logger) is unobservable: silence never means stopped, so no detector may report it.
            let clock = recording.clockSeconds
            let truthStops = labelled.filter { stop in
                truth.kind != .labels || clock.contains { $0 > stop.startSeconds && $0 < stop.endSeconds }
            }
            let detected = StopDetectorAdapter.detectStops(in: recording, profile: profile)
            result.stops = StopFigures(
                truthStops: truthStops,
                score: detected.map { StopScore(truth: truthStops, detected: $0) })
        }
        return result
    }
}
