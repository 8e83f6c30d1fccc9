import TrueTrackCore

/// The reference measures the benchmark puts beside TrueTrack's distance, as the peers' note defines them.
public enum BaselineDistances {
    /// The naive distance: the haversine sum (R = 6,371,008.8 m) over every fix as read, in file order
    /// (duplicates, backward steps and network fixes included), metres. What a GPX viewer shows.
    public static func naive(_ fixes: [Fix]) -> Double {
        var total = 0.0
        for i in fixes.indices.dropFirst() {
            total += Haversine.distance(
                from: (fixes[i - 1].latitude, fixes[i - 1].longitude),
                to: (fixes[i].latitude, fixes[i].longitude))
        }
        return total
    }

    /// Doppler speeds below this count as 0 in ``dopplerIntegral(_:)``, m/s (a still receiver's jitter).
    public static let dopplerDeadbandMetresPerSecond = 0.3
    /// The longest step one speed is integrated over in ``dopplerIntegral(_:)``, seconds.
    public static let dopplerMaximumStepSeconds = 10.0

    /// The Doppler-only integral: the sum over consecutive fixes as read of
    /// `speed_i × clamp(t_i − t_(i−1), 0, 10 s)`, a speed below 0.3 m/s counted as 0, a fix without speed
    /// adding nothing; no other filter, metres.
    public static func dopplerIntegral(_ fixes: [Fix]) -> Double {
        var total = 0.0
        for i in fixes.indices.dropFirst() {
            guard let speed = fixes[i].speedMetresPerSecond, speed.isFinite,
                speed >= dopplerDeadbandMetresPerSecond
            else { continue }
            let dt = fixes[i - 1].timestamp.seconds(to: fixes[i].timestamp)
            total += speed * min(max(dt, 0), dopplerMaximumStepSeconds)
        }
        return total
    }
}

/// Order statistics.
public enum Percentile {
    /// The `p`-quantile (0…1) of `values` by linear interpolation between closest ranks (NumPy's default),
    /// or `nil` for no values. NaNs are ignored.
    public static func of(_ values: [Double], _ p: Double) -> Double? {
        of(values, [p])?[0]
    }

    /// Several quantiles of `values` with one sort (see ``of(_:_:)-(_,Double)``), in the order of
    /// `quantiles`; `nil` for no values.
    public static func of(_ values: [Double], _ quantiles: [Double]) -> [Double]? {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard !sorted.isEmpty else { return nil }
        return quantiles.map { p in
            let rank = min(max(p, 0), 1) * Double(sorted.count - 1)
            let low = Int(rank.rounded(.down)), high = min(low + 1, sorted.count - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }
    }
}

/// Horizontal position errors against the truth, summarised.
public struct PositionErrorSummary: Sendable, Hashable, Codable {
    /// Fixes compared (those with a truth position at their time).
    public var count: Int
    /// Median horizontal error, metres.
    public var p50Metres: Double
    /// 95th-percentile horizontal error, metres.
    public var p95Metres: Double
    /// The Google Smartphone Decimeter Challenge score, the mean of p50 and p95, metres (trajectory truth
    /// only; `nil` against waypoints, where it would not be comparable).
    public var gsdcScoreMetres: Double?

    /// Summarises `errors` (metres); `nil` when there are none.
    public init?(errors: [Double], withScore: Bool) {
        guard let q = Percentile.of(errors, [0.5, 0.95]) else { return nil }
        let p50 = q[0], p95 = q[1]
        count = errors.count
        p50Metres = p50
        p95Metres = p95
        gsdcScoreMetres = withScore ? (p50 + p95) / 2 : nil
    }

    /// Horizontal errors (haversine, metres) of `positions` against `truth` at their clock times; positions
    /// without a truth position at their time (outside the truth, in a truth gap) are left out.
    public static func errors(
        _ positions: [(seconds: Double, latitude: Double, longitude: Double)],
        truth: TruthTrack
    ) -> [Double] {
        var errors: [Double] = []
        errors.reserveCapacity(positions.count)
        for p in positions {
            guard let t = truth.position(at: p.seconds) else { continue }
            errors.append(Haversine.distance(from: (p.latitude, p.longitude), to: (t.latitude, t.longitude)))
        }
        return errors
    }
}

/// Stops found against truth stops.
public struct StopScore: Sendable, Hashable, Codable {
    /// Truth stops.
    public var truthCount: Int
    /// Detected stops.
    public var detectedCount: Int
    /// Truth stops matched one-to-one with a detected stop that overlaps them in time.
    public var matched: Int
    /// matched / detected (1 when nothing was detected: no detection was false; ``recall`` shows the misses).
    public var precision: Double
    /// matched / truth (1 when there was nothing to find).
    public var recall: Double
    /// The share of the detected stops' time that lies inside truth stops (1 when nothing was detected). Where
    /// ``precision`` counts a detected stop that overlaps a truth stop by a second as right, this counts its time:
    /// a stop spanning a whole walk and its two pauses has precision 1 and a time precision of the pauses' share
    /// (a tester found ``precision`` hiding such stops).
    public var timePrecision: Double
    /// Median |detected start − truth start| over the matches, seconds.
    public var medianStartErrorSeconds: Double?
    /// Median |detected end − truth end| over the matches, seconds.
    public var medianEndErrorSeconds: Double?

    /// Matches `detected` to `truth`: repeatedly the pair with the longest time overlap (> 0 s) among the
    /// unmatched ones, so each stop counts once.
    public init(truth: [TruthStop], detected: [DetectedStop]) {
        var pairs: [(overlap: Double, t: Int, d: Int)] = []
        for (ti, t) in truth.enumerated() {
            for (di, d) in detected.enumerated() {
                let overlap = min(t.endSeconds, d.endSeconds) - max(t.startSeconds, d.startSeconds)
                if overlap > 0 { pairs.append((overlap, ti, di)) }
            }
        }
        pairs.sort { ($0.overlap, -$0.t, -$0.d) > ($1.overlap, -$1.t, -$1.d) }
        var usedT = Set<Int>(), usedD = Set<Int>()
        var startErrors: [Double] = [], endErrors: [Double] = []
        for pair in pairs where !usedT.contains(pair.t) && !usedD.contains(pair.d) {
            usedT.insert(pair.t)
            usedD.insert(pair.d)
            startErrors.append(abs(detected[pair.d].startSeconds - truth[pair.t].startSeconds))
            endErrors.append(abs(detected[pair.d].endSeconds - truth[pair.t].endSeconds))
        }
        truthCount = truth.count
        detectedCount = detected.count
        matched = usedT.count
        precision = detected.isEmpty ? 1 : Double(matched) / Double(detected.count)
        recall = truth.isEmpty ? 1 : Double(matched) / Double(truth.count)
        var detectedSeconds = 0.0, insideSeconds = 0.0
        for d in detected {
            detectedSeconds += max(0, d.endSeconds - d.startSeconds)
            // (Truth stops do not overlap each other.)
            for t in truth {
                insideSeconds += max(0, min(t.endSeconds, d.endSeconds) - max(t.startSeconds, d.startSeconds))
            }
        }
        timePrecision = detectedSeconds > 0 ? min(1, insideSeconds / detectedSeconds) : 1
        medianStartErrorSeconds = Percentile.of(startErrors, 0.5)
        medianEndErrorSeconds = Percentile.of(endErrors, 0.5)
    }
}
