import TrueTrackCore

extension StillnessGate {
    /// How far from a still stretch's mean, in χ² of its two axes, a fix at either end of the stretch may lie
    /// and still belong to it: 4.61, the 90 % point of χ² with two degrees of freedom, in units of the stretch's
    /// own scatter (its χ² per degree of freedom: the bound tightens where the fixes state more than they
    /// scatter). Why: the stretch's sum leaves room for a few fixes far off (a stretch of 60 fixes, 59 units), so
    /// one ending on a departure's first fix 16 m off under σ 3 m passed and held that step. Trimming costs a desk
    /// little, as a stretch's interior lies inside the stretches after it: only the ends of a whole still spell
    /// are trimmed. Measured (`tools/analysis/noisy_walks_and_desks.py`, summed over three seeds): at the 99 %
    /// point walks out of halts under σ 15 m lost 50–110 m more of the departures, a logger stating twice its
    /// noise 25–115 m; at the 50 % point desks kept up to 7 m per 10 minutes (at 90 %, up to 5).
    static let stillScatterEdgeChiSquared = 4.61

    /// How far from a still stretch's mean, in χ² of its two axes and in units of the stretch's own scatter, any of
    /// its fixes may lie: 13.8, the 99.9 % point of χ² with two degrees of freedom. Why: the stretch's sum leaves room
    /// for a few fixes far off inside it too, and a taxi on its rank that pulls out 30–70 m and back between two
    /// fixes every 10 s (stating 8–10 m for 4–6 m of noise) had that trip held: `courier_families.py`'s `taxi_acc9`
    /// read 3.3 → 6.7 km summed |error|. A stretch holding a fix beyond it is no still stretch (each fix is judged
    /// once, against the first stretch that passes with it), so the steps into and out of such a fix count as the
    /// window gate decides; at rest one fix in a thousand lies there.
    static let stillScatterFarChiSquared = 13.8

    /// The steps inside stretches of at least ``stillScatterSeconds`` (or a whole recording of at least
    /// ``stillScatterWholeRecordingSeconds``) whose fixes scatter about their mean no more
    /// than their stated accuracies allow a receiver at rest (``stillScatterRatio``) and do not come back as a
    /// course walked round does (``stillScatterReturnDip``): `result[s]` is whether the
    /// step into state `s` (from `s − 1`) lies inside such a stretch, `nil` when none does or the rule is off.
    ///
    /// A stretch reaches across a gap that splits the track (a sparse logger's steps open segments on the running
    /// and vehicle profiles; the chord between two places that agree within the noise is the noise), but not
    /// across a recording break (`breakSeconds`), nor across a fix that states no accuracy (its noise is unknown:
    /// a GPX file's assumed 30 m would take a slow hike for a receiver at rest), nor across a state whose Doppler
    /// speeds read motion (``readsMotion(_:totals:)``: a receiver that reads motion is not at rest, as the gate's
    /// other rules of rest hold). A fix the robust loss took for an
    /// outlier (weight below ½, `positionWeights`) is left out of the scatter, so one multipath jump does not hide
    /// a desk.
    ///
    /// - Parameters:
    ///   - p: the problem.
    ///   - fixes: the caller's fixes, which `p.fixIndex` points into.
    ///   - positionWeights: each position measurement's robust weight.
    ///   - totals: the running totals of the fixes' evidence (``totals(_:fixes:options:)``).
    ///   - breakSeconds: the longest step a stretch may contain, seconds (``SmoothingOptions/recordingBreakSeconds``).
    /// - Complexity: O(n) as the fixes come (the stretch's two ends only move forward, its scatter kept by a
    ///   weighted running mean that fixes join and leave, each fix judged far or not once); a passing stretch also
    ///   reads its trimmed ends, and brings its pairs of fixes a lag apart (``LagScatter``, at most 24 each way per
    ///   fix) up to date, no more work than keeping them all along. Allocates one array of n weights and the
    ///   result.
    func stillByScatter(
        _ p: TrackProblem, fixes: [Fix], positionWeights: [Double], totals: [Totals], breakSeconds: Double
    ) -> [Bool]? {
        let count = p.positionState.count
        guard stillScatterSeconds > 0, count >= stillScatterMinimumFixes else { return nil }
        var held: [Bool]?
        // The last step marked held: a stretch marks its steps from where the one before it stopped.
        var markedThrough = 0
        // Each measurement's inverse per-axis variance of its stated accuracy: 0 for an outlier, −1 for none (or a
        // state that reads motion).
        var inverseVariance = [Double](repeating: -1, count: count)
        for m in 0..<count {
            guard case .metres(let accuracy) = fixes[p.fixIndex[m]].horizontalAccuracy, accuracy > 0,
                !readsMotion(p.positionState[m], totals: totals)
            else { continue }
            inverseVariance[m] = positionWeights[m] < 0.5 ? 0 : 1 / MeasurementNoise.perAxisVariance(radius68: accuracy)
        }
        // (At least two fixes: with one, the degrees of freedom are 0.)
        let stretchSeconds = stillScatterSeconds, ratioBound = stillScatterRatio,
            fewest = max(stillScatterMinimumFixes, 2)
        let returnDip = stillScatterReturnDip
        inverseVariance.withUnsafeBufferPointer { w in
            p.positionState.withUnsafeBufferPointer { state in
                p.times.withUnsafeBufferPointer { times in
                    p.positionEast.withUnsafeBufferPointer { east in
                        p.positionNorth.withUnsafeBufferPointer { north in
                            var scatter = WeightedScatter()
                            var lags = LagScatter()
                            // The measurements lagsLow..<lagsHigh whose pairs `lags` holds: brought up to a stretch
                            // only when its scatter passes, so a walk, whose stretches never do, pays nothing.
                            var lagsLow = 0, lagsHigh = 0
                            func time(_ m: Int) -> Double { times[state[m]] }
                            /// Whether measurement m lies beyond `bound` (χ² of two axes) from the stretch's mean,
                            /// in units of the stretch's own scatter (`ratio`: its χ² per degree of freedom).
                            func isBeyond(_ m: Int, _ bound: Double, ratio: Double) -> Bool {
                                let de = east[m] - scatter.east, dn = north[m] - scatter.north
                                return w[m] * (de * de + dn * dn) > bound * ratio
                            }
                            /// Whether measurement m opens a run: a recording break lies before it.
                            func opensRun(_ m: Int) -> Bool { time(m) - time(m - 1) > breakSeconds }
                            var start = 0
                            while start < count {
                                // A run: from `start` up to the next recording break, fix without an accuracy
                                // or reading of motion.
                                guard w[start] >= 0 else {
                                    start += 1
                                    continue
                                }
                                var end = start + 1
                                while end < count, w[end] >= 0, !opensRun(end) { end += 1 }
                                // A whole recording shorter than the stretch is judged whole (see
                                // ``stillScatterWholeRecordingSeconds``).
                                let span = time(end - 1) - time(start)
                                let isWholeRecording =
                                    (start == 0 || opensRun(start)) && (end == count || opensRun(end))
                                let window =
                                    isWholeRecording && span < stretchSeconds
                                        && span >= stillScatterWholeRecordingSeconds
                                    ? span : stretchSeconds
                                scatter = WeightedScatter()
                                (lags, lagsLow, lagsHigh) = (LagScatter(), start, start)
                                // The last fix judged far or not, and the last judged far (`start − 1`: none).
                                var checkedThrough = start - 1, lastFar = start - 1
                                var high = start  // the stretch is low…high−1
                                for low in start..<end {
                                    while high < end, high == low || time(high - 1) - time(low) < window {
                                        if w[high] > 0 {
                                            scatter.add(east: east[high], north: north[high], weight: w[high])
                                        }
                                        high += 1
                                    }
                                    guard time(high - 1) - time(low) >= window else { break }
                                    let degrees = Double(2 * (scatter.count - 1))
                                    let ratio = scatter.chiSquared / degrees
                                    let scatterPasses =
                                        scatter.count >= fewest && scatter.chiSquared <= ratioBound * degrees
                                    var passes = scatterPasses
                                    if passes, returnDip > 0 {
                                        // The pairs brought to low..<high: those of the measurements that left
                                        // taken out, those that joined put in (or all afresh when none is shared;
                                        // either way no more work than keeping them all along).
                                        if low >= lagsHigh {
                                            (lags, lagsLow, lagsHigh) = (LagScatter(), low, low)
                                        }
                                        for m in lagsLow..<low {
                                            lags.pairs(
                                                of: m, after: true, within: lagsHigh, sign: -1, time: time, east: east,
                                                north: north, w: w)
                                        }
                                        for m in lagsHigh..<high {
                                            lags.pairs(
                                                of: m, after: false, within: low, sign: 1, time: time, east: east,
                                                north: north, w: w)
                                        }
                                        (lagsLow, lagsHigh) = (low, high)
                                        passes = !lags.comesBack(scatterRatio: ratio, dip: returnDip)
                                    }
                                    if scatterPasses {
                                        // Each fix is judged far or not once, by the first such stretch that holds
                                        // it; a stretch holding a far fix is none. (Judged on the scatter alone, as
                                        // before the return test: judged only where the return test also passed, a
                                        // course's fixes met a later stretch with another mean, were not far from
                                        // it, and that stretch held steps the scatter alone had let count: a loop
                                        // of 10 m radius 288 → 0 m of 1,188, a reviewer's. So the return test only
                                        // ever lets count what the scatter held.)
                                        for m in max(checkedThrough + 1, low)..<high
                                        where isBeyond(m, Self.stillScatterFarChiSquared, ratio: ratio) {
                                            lastFar = m
                                        }
                                        checkedThrough = high - 1
                                    }
                                    if passes, lastFar < low {
                                        // The ends lose the fixes beyond the edge bound: a departure's first fixes.
                                        var head = low, tail = high - 1
                                        let edge = Self.stillScatterEdgeChiSquared
                                        while head < tail, isBeyond(head, edge, ratio: ratio) { head += 1 }
                                        while tail > head, isBeyond(tail, edge, ratio: ratio) { tail -= 1 }
                                        let first = max(state[head] + 1, markedThrough + 1), last = state[tail]
                                        if first <= last {
                                            if held == nil { held = [Bool](repeating: false, count: p.stateCount) }
                                            for s in first...last { held?[s] = true }
                                            markedThrough = last
                                        }
                                    }
                                    if w[low] > 0 {
                                        scatter.remove(east: east[low], north: north[low], weight: w[low])
                                    }
                                }
                                start = end
                            }
                        }
                    }
                }
            }
        }
        return held
    }
}

/// A weighted mean of plane positions and their weighted sum of squared distances from it (χ² for weights that
/// are inverse variances), kept as positions join and leave (West's weighted form of Welford's update).
struct WeightedScatter {
    /// The positions' summed weight.
    var weight = 0.0
    /// How many positions.
    var count = 0
    /// The weighted mean, metres.
    var east = 0.0, north = 0.0
    /// Σ w |p − p̄|².
    var chiSquared = 0.0

    /// Adds a position of weight `w` > 0.
    mutating func add(east e: Double, north n: Double, weight w: Double) {
        weight += w
        count += 1
        let de = e - east, dn = n - north, share = w / weight
        east += de * share
        north += dn * share
        chiSquared += w * (de * (e - east) + dn * (n - north))
    }

    /// Removes a position added before with the same weight.
    mutating func remove(east e: Double, north n: Double, weight w: Double) {
        count -= 1
        guard count > 0, weight - w > 0 else {
            self = WeightedScatter()
            return
        }
        weight -= w
        let de = e - east, dn = n - north, share = w / weight
        east -= de * share
        north -= dn * share
        chiSquared = max(0, chiSquared - w * (de * (e - east) + dn * (n - north)))
    }
}

/// The mean squared displacement between a stretch's fixes a time lag apart, in bands of lag, kept as fixes join
/// and leave the stretch: what tells a small course walked round and round (a corridor paced, laps of a yard) from
/// a receiver at rest whose fixes scatter as far (see ``StillnessGate/stillScatterReturnDip``).
///
/// Each pair of fixes i, j a lag apart adds w̃ |pⱼ − pᵢ|² / 2 to its band, w̃ = wᵢwⱼ / (wᵢ + wⱼ) the inverse of
/// the pair's summed per-axis variances: 1 per pair in expectation for white noise with the stated accuracies,
/// the same unit as the stretch's scatter ratio (its χ² per degree of freedom).
struct LagScatter {
    /// The index lags paired: every one up to 6, then thinning, up to 144 (at 1 Hz each band still holds hundreds
    /// of pairs; from about 22 s between fixes every lag under ``longestLagSeconds`` is paired, at 15 s all but
    /// 105 and 135 s). Why thinned: a fix joins and leaves
    /// with at most 24 pairs each way, where every lag under 150 s at 1 Hz would be 150. Faster than 1 Hz the
    /// lags reach less far (29 s at 5 Hz), and the test sees only courses whose round is that short: stretching
    /// the lags by the run's fixes per second was tried (2026-12-07) and withdrawn after a reviewer: a run's mean
    /// step says nothing of a pause inside it (a 5 Hz logger with a 45-minute pause kept stride 1), its median
    /// nothing of duplicated times or bursts, and it exposed fast loggers' multipath desks to the test.
    static let indexLags = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144]
    /// The longest lag paired, seconds: 150, a quarter of the shortest still stretch (600 s). Why: a drift's
    /// squared displacement grows with the lag while the stretch's scatter about its own mean misses the drift's
    /// slow part; up to about a third of the stretch the first stays within the second even for an error that
    /// wanders over hours (a Gauss–Markov error of τ ≫ the stretch: lag / τ against stretch / 3τ).
    static let longestLagSeconds = 150.0

    /// The bands' upper edges, seconds: 10 s wide up to 30 s, 15 s up to 90 s, 20 s up to 150 s. Why: a course's
    /// return shows as a band below the one before it, and a round of 20–150 s (a 25 m corridor at 1.1 m/s: 45 s;
    /// a 40 × 20 m yard at 1 m/s: 120 s) puts its half and its whole round in different bands.
    static let bandUpperSeconds: [Double] = [10, 20, 30, 45, 60, 75, 90, 110, 130, 150]
    /// The fewest pairs a band needs to be compared.
    static let fewestPairs = 5.0
    /// The variance of a band's mean pair term under white noise, times its pair count: 1.5. A pair's term has
    /// variance 1, and the pairs a lag apart share their fixes with their neighbours (two terms sharing a fix
    /// correlate by ¼ under Gaussian noise): 1 + 2 × ¼. Right where a band holds one lag (fixes every 7 s or more
    /// sparsely, where this bound decides); where it holds several (band 0 at 1 Hz: seven lags sharing fixes,
    /// about 7.5) the band holds hundreds of pairs and the 0.7 dip decides, not this bound.
    static let pairVariance = 1.5
    /// How many standard deviations of white noise's band means a return must stand out by: 3.5. Why: a sparse
    /// logger's bands hold a few pairs each, and a stretch is judged at every fix it starts from; in a prototype
    /// (20-minute desks under white noise every 1–30 s, ±10 %, 13,000 stretches) 3 standard deviations counted
    /// with independent pairs failed 8 stretches, 3 with shared fixes none, and 3.5 leaves a margin.
    static let returnSigmas = 3.5
    /// How far a return must fall in plain squared metres (the mean |Δp|² of the earlier band less the later's):
    /// 600 m², as a course about 25 m across comes back. Why: a receiver at rest beside a reflector sees multipath
    /// swing back and forth with a period of tens of seconds to minutes as the satellites move, and its squared
    /// displacement falls back too (a swing of amplitude A falls at most 4A²: about 3–3.7 A² over these bands for
    /// a circle of radius A, 1.4–1.9 A² for a swing along one axis, a reviewer's integration): two reviewers'
    /// simulated multipath desks (one to eight satellites, reflections of 3–6 m off reflectors 2–40 m away, honest
    /// or overstated accuracy, every 1 or 5 s) fell by 35–200 m² where the dip flagged them; at a floor of 100 m²
    /// those with reflections of 4–6 m counted up to 2.7 km more over 16 half-hour desks, at 400 m² none.
    /// Reflections of up to 15 m (a reviewer's and a tester's desks of 2026-12-07,
    /// `tools/analysis/multipath_desks.py`) fell further than 400 m²: 30.7 → 171.8 m per hour beside 2–4
    /// reflections of 6–10 m, 8.7 → 83.1 by window sills (the test off → on); at 600 m² 61.9 and 28.9, at 800 m²
    /// 48.8 and 19.6. The courses that fall further come back: a 40 × 20 m yard about 1,260 m², a loop of 20 m
    /// radius 1,440 m² (noiseless at 1.1 m/s over 600 s, these bands and lags; 12 m: 529 m²). Smaller courses (corridors paced back and forth, loops of 12 m radius and less:
    /// 135–530 m²) are not told from a desk with a strong reflector, and stay held (`small_courses.py`: courses
    /// 104.1 km summed |error| without the test, 82.9 at 400 m², 92.8 at 600 m², the loops of 12 m giving back
    /// their gain). A periodic error as large as a course (a circle of about 13 m radius or more, or a swing
    /// of about 18 m or more along one axis, every 40–150 s) may not be told from one either.
    static let returnSquareMetres = 600.0

    /// Each band's summed terms, summed squared displacements (square metres, unweighted) and pair count, three to a
    /// band (``bandUpperSeconds``' order).
    private var bands = [Double](repeating: 0, count: 3 * bandUpperSeconds.count)

    /// The pairs band `band` holds.
    func count(band: Int) -> Double { bands[3 * band + 2] }

    /// The band of a lag: ``bandUpperSeconds`` as arithmetic (10 s wide to 30 s, 15 s to 90 s, 20 s beyond; the
    /// last band open).
    @inline(__always) static func band(lagSeconds: Double) -> Int {
        lagSeconds < 30
            ? Int(max(lagSeconds, 0) / 10)
            : lagSeconds < 90 ? 3 + Int((lagSeconds - 30) / 15) : min(7 + Int((lagSeconds - 90) / 20), 9)
    }

    /// Adds a pair's term and squared displacement to `bands` (`count` 1), or removes one (`count` −1, both
    /// negated), `lagSeconds` apart.
    @inline(__always) private static func accumulate(
        into bands: UnsafeMutableBufferPointer<Double>, lagSeconds: Double, term: Double, squareMetres: Double,
        count: Double
    ) {
        let i = 3 * band(lagSeconds: lagSeconds)
        bands[i] += term
        bands[i + 1] += squareMetres
        bands[i + 2] += count
    }

    /// Adds a pair's term and squared displacement (`count` 1), or removes one (`count` −1, both negated),
    /// `lagSeconds` apart.
    mutating func add(lagSeconds: Double, term: Double, squareMetres: Double, count: Double) {
        bands.withUnsafeMutableBufferPointer {
            Self.accumulate(into: $0, lagSeconds: lagSeconds, term: term, squareMetres: squareMetres, count: count)
        }
    }

    /// Adds (`sign` 1) or removes (−1) the pairs of measurement `m` with those after it up to `bound` (exclusive;
    /// `after`) or before it down to `bound`, a lag of ``indexLags`` apart and under ``longestLagSeconds``, each
    /// pair's term w̃ |pⱼ − pᵢ|² / 2; `w` 0 leaves a measurement out.
    mutating func pairs(
        of m: Int, after: Bool, within bound: Int, sign: Double, time: (Int) -> Double,
        east: UnsafeBufferPointer<Double>, north: UnsafeBufferPointer<Double>, w: UnsafeBufferPointer<Double>
    ) {
        let wm = w[m], tm = time(m), em = east[m], nm = north[m]
        guard wm > 0 else { return }
        // (Through one buffer: one uniqueness check per fix, not one per pair and sum.)
        bands.withUnsafeMutableBufferPointer { bands in
            for k in Self.indexLags {
                let other = after ? m + k : m - k
                guard after ? other < bound : other >= bound else { break }
                let lag = abs(time(other) - tm)
                guard lag < Self.longestLagSeconds else { break }
                let wo = w[other]
                guard wo > 0 else { continue }
                let de = east[other] - em, dn = north[other] - nm
                let square = de * de + dn * dn
                Self.accumulate(
                    into: bands, lagSeconds: lag, term: sign * square * wm * wo / (wm + wo) / 2,
                    squareMetres: sign * square, count: sign)
            }
        }
    }

    /// Whether the squared displacement falls back by more than `dip` (in units of the stretch's scatter ratio)
    /// from a band to a longer one, by ``returnSigmas`` too, and by ``returnSquareMetres`` in plain metres: the
    /// course came back towards where it was. At rest an error whose correlation fades with the lag has a squared
    /// displacement that only grows with it; multipath that comes and goes as the satellites move does fall back,
    /// but by a few metres.
    func comesBack(scatterRatio: Double, dip: Double) -> Bool {
        guard dip > 0, scatterRatio > 0 else { return false }
        var highest = -Double.infinity, highestCount = 0.0, highestSquare = 0.0
        for band in Self.bandUpperSeconds.indices where count(band: band) >= Self.fewestPairs {
            let pairs = count(band: band)
            let mean = bands[3 * band] / pairs / scatterRatio, square = bands[3 * band + 1] / pairs
            if highest - mean > dip,
                highest - mean > Self.returnSigmas
                    * (Self.pairVariance * (1 / highestCount + 1 / pairs)).squareRoot(),
                highestSquare - square >= Self.returnSquareMetres
            {
                return true
            }
            if mean > highest { (highest, highestCount, highestSquare) = (mean, pairs, square) }
        }
        return false
    }
}
