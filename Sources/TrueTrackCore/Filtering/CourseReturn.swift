/// The mean squared displacement between a stretch's positions a time lag apart, in bands of lag up to 150 s: what
/// tells a small course walked round and round (a corridor paced, laps of a yard) from a receiver at rest whose fixes
/// scatter as far. At rest the error's correlation fades with the lag, so the squared displacement only grows with
/// it; a walker round a course comes back, and the displacement at the whole round falls below the half round's.
///
/// Shared by the smoother's still stretches (`StillnessGate.stillScatterReturnDip`, whose `LagScatter` adds and
/// removes pairs of fixes as they join and leave a 600 s stretch) and the forward ones (``CourseReturn``, which
/// pairs 10 s buckets of fixes and lets old pairs fade as ``StillScatter`` lets old fixes fade).
///
/// Each pair adds its term w̃ |Δp|² / 2 (w̃ the inverse of the pair's summed per-axis variances: 1 per pair in
/// expectation for white noise with the stated accuracies, the unit of a stretch's scatter ratio), its squared
/// displacement in plain square metres, its weight and its weight squared (so a faded band's effective pair count
/// is (Σλ)² / Σλ²; where pairs are only added and removed it is their count).
package struct LagBands: Sendable, BitwiseCopyable {
    /// The bands' upper edges, seconds: 10 s wide up to 30 s, 15 s up to 90 s, 20 s up to 150 s. Why: a course's
    /// return shows as a band below the one before it, and a round of 20–150 s (a 25 m corridor at 1.1 m/s: 45 s;
    /// a 40 × 20 m yard at 1 m/s: 120 s) puts its half and its whole round in different bands.
    package static let bandUpperSeconds: [Double] = [10, 20, 30, 45, 60, 75, 90, 110, 130, 150]
    /// The longest lag paired, seconds: 150 (see the smoother's `LagScatter.longestLagSeconds`, a quarter of its
    /// shortest still stretch).
    package static let longestLagSeconds = 150.0
    /// The fewest (effective) pairs a band needs to be compared.
    package static let fewestPairs = 5.0
    /// The variance of a band's mean pair term under white noise, times its pair count: 1.5. A pair's term has
    /// variance 1, and the pairs a lag apart share their fixes with their neighbours (two terms sharing a fix
    /// correlate by ¼ under Gaussian noise): 1 + 2 × ¼. Right where a band holds one lag (fixes every 7 s or more
    /// sparsely, where this bound decides); where it holds several (band 0 at 1 Hz: seven lags sharing fixes,
    /// about 7.5) the band holds hundreds of pairs and the dip decides, not this bound.
    package static let pairVariance = 1.5
    /// How many standard deviations of white noise's band means a return must stand out by: 3.5. Why: a sparse
    /// logger's bands hold a few pairs each, and a stretch is judged at every fix it starts from; in a prototype
    /// (20-minute desks under white noise every 1–30 s, ±10 %, 13,000 stretches) 3 standard deviations counted
    /// with independent pairs failed 8 stretches, 3 with shared fixes none, and 3.5 leaves a margin.
    package static let returnSigmas = 3.5
    /// How far a return must fall in plain squared metres (the mean |Δp|² of the earlier band less the later's):
    /// 400 m², as a course about 20 m across comes back. Why: a receiver at rest beside a reflector sees multipath
    /// come and go with a period of tens of seconds to minutes as the satellites move, and its squared displacement
    /// falls back too: two reviewers' simulated multipath desks (one to eight satellites, reflections of 3–6 m off
    /// reflectors 2–40 m away, honest or overstated accuracy, every 1 or 5 s) fell by 35–200 m² where the dip
    /// flagged them; at a floor of 100 m² those with reflections of 4–6 m counted up to 2.7 km more over 16
    /// half-hour desks (smoothed), at 400 m² none changed (nor a window sill's single reflection of 8–12 m, a
    /// reviewer's). The courses that fall further come back: a 40 × 20 m yard about 1,260 m², a loop of 12 m radius
    /// about 530 m². Smaller courses (corridors of 15–25 m paced back and forth, loops of 8 m radius and less:
    /// 135–250 m²) are not told from a desk with a strong reflector, and stay held. A periodic error as large as a
    /// course (a circle of about 11 m radius, 16 m along one axis, or jumps of 20 m between two places, every
    /// 40–120 s) is not told from one either.
    package static let returnSquareMetres = 400.0

    /// Per band: the summed terms, the summed squared displacements (m², unweighted), the summed pair weights and
    /// the summed squared pair weights.
    private var bands = InlineArray<10, SIMD4<Double>>(repeating: .zero)

    /// No pairs.
    package init() {}

    /// The band of a lag: ``bandUpperSeconds`` as arithmetic (10 s wide to 30 s, 15 s to 90 s, 20 s beyond; the
    /// last band open).
    @inline(__always) package static func band(lagSeconds: Double) -> Int {
        lagSeconds < 30
            ? Int(max(lagSeconds, 0) / 10)
            : lagSeconds < 90 ? 3 + Int((lagSeconds - 30) / 15) : min(7 + Int((lagSeconds - 90) / 20), 9)
    }

    /// The pairs band `band` holds, effectively ((Σλ)² / Σλ²; their count where none has faded).
    package func count(band: Int) -> Double {
        let b = bands[band]
        return b.w > 0 ? b.z * b.z / b.w : 0
    }

    /// The mean term of band `band`'s pairs (0 without pairs).
    package func meanTerm(band: Int) -> Double {
        let b = bands[band]
        return b.z > 0 ? b.x / b.z : 0
    }

    /// The mean squared displacement of band `band`'s pairs, square metres (0 without pairs).
    package func meanSquareMetres(band: Int) -> Double {
        let b = bands[band]
        return b.z > 0 ? b.y / b.z : 0
    }

    /// Adds a pair `lagSeconds` apart (`weight` 1), or removes one added before (`weight` −1: its term and squared
    /// displacement negated too).
    @inline(__always) package mutating func add(lagSeconds: Double, term: Double, squareMetres: Double, weight: Double)
    {
        bands[Self.band(lagSeconds: lagSeconds)] += SIMD4(term, squareMetres, weight, weight)
    }

    /// Lets every pair fade by `factor` (its weight λ → λ · factor).
    package mutating func fade(by factor: Double) {
        let scale = SIMD4(factor, factor, factor, factor * factor)
        for band in bands.indices { bands[band] *= scale }
    }

    /// Whether the squared displacement falls back by more than `dip` (in units of the stretch's scatter ratio,
    /// `scatterRatio`) from a band to a longer one, by ``returnSigmas`` too, and by ``returnSquareMetres`` in plain
    /// metres: the course came back towards where it was. At rest an error whose correlation fades with the lag has
    /// a squared displacement that only grows with it; multipath that comes and goes as the satellites move does
    /// fall back, but by a few metres.
    package func comesBack(scatterRatio: Double, dip: Double) -> Bool {
        guard dip > 0, scatterRatio > 0 else { return false }
        var highest = -Double.infinity, highestCount = 0.0, highestSquare = 0.0
        for band in bands.indices {
            let pairs = count(band: band)
            guard pairs >= Self.fewestPairs else { continue }
            let mean = meanTerm(band: band) / scatterRatio, square = meanSquareMetres(band: band)
            if highest - mean > dip,
                highest - mean > Self.returnSigmas * (Self.pairVariance * (1 / highestCount + 1 / pairs)).squareRoot(),
                highestSquare - square >= Self.returnSquareMetres
            {
                return true
            }
            if mean > highest { (highest, highestCount, highestSquare) = (mean, pairs, square) }
        }
        return false
    }
}

/// The forward still stretch's return test (``StillScatter``): its fixes in buckets of 10 s (their weighted mean
/// position), each bucket paired as it closes with the 15 before it (lags of 10–150 s) into ``LagBands`` that fade
/// with the stretch's time constant. A stretch whose scatter passes but whose squared displacement comes back
/// (``LagBands/comesBack(scatterRatio:dip:)`` at ``returnDip``) is a course walked round, not a receiver at rest.
///
/// ## Why
/// The forward stretch read small courses under correlated or overstated noise as desks, as the smoother's did
/// before its return test: `tools/analysis/small_courses.py --forward` (192 course walks of 12 and 20 minutes without
/// speed) read 100.3 km of summed |error| with the stretch, 60.5 km without it. The smoother pairs every fix with up
/// to 24 others; the tracker keeps O(1) memory and no allocation, so it pairs buckets: 16 buckets and 10 bands, about
/// 800 bytes of its state, and 15 pairs each 10 s.
///
/// ## The buckets
/// A bucket's term uses its fixes' mean per-axis variance (count / Σw), as a single fix's would: under white noise
/// its mean scatters less than that (a bucket of ten fixes at 1 Hz: a tenth), so white desks lie far below the dip
/// and the σ bound is conservative; under a correlated error (τ ≫ 10 s) its mean scatters as a fix does, as in the
/// smoother's pairs. Where a bucket holds one fix (every 10 s or more sparsely) the pairs are the smoother's.
/// Bucket `k` holds the fixes of `[10k, 10k + 10)` s since 1970; a bucket k lags apart is paired at a lag of 10k s.
@usableFromInline
struct CourseReturn: Sendable, BitwiseCopyable {
    /// How far the squared displacement must fall back from one band to a longer one, in units of the stretch's
    /// scatter ratio: 0.7, the smoother's (`StillnessGate.stillScatterReturnDip`: at rest a Gauss–Markov error's
    /// fell back by at most 0.66 in a prototype, courses by 0.5–1.9).
    static let returnDip = 0.7
    /// A bucket's span, milliseconds: 10 s, the narrowest band.
    static let bucketMilliseconds: Int64 = 10_000
    /// Buckets held: the current one and the 15 before it (150 s, ``LagBands/longestLagSeconds``).
    static let bucketCount = 16

    /// Per bucket: Σ w e, Σ w n (m / m²), Σ w (per m²) and its fix count; bucket `k` in slot `k mod 16`. The
    /// slots of the 15 buckets before ``current`` hold those buckets (a bucket no fix fell in is empty: each slot is
    /// emptied as its bucket opens or is passed over), so no bucket numbers are kept (128 bytes less of the
    /// tracker's state to copy: the rewinding tracker copies it every 64 fixes).
    var buckets = InlineArray<16, SIMD4<Double>>(repeating: .zero)
    /// The bucket fixes go to now (`.min`: none).
    var current: Int64 = .min
    /// The pairs, fading with ``StillScatter/timeConstantSeconds``.
    var bands = LagBands()

    init() {}

    /// The slot of bucket `number`.
    @inline(__always) static func slot(_ number: Int64) -> Int { Int(truncatingIfNeeded: number) & 15 }

    /// Adds a fix at (`e`, `n`) of inverse per-axis variance `w`, taken at `now` (ms); returns whether a bucket
    /// closed (the bands changed).
    mutating func add(east e: Double, north n: Double, inverseVariance w: Double, now: Int64) -> Bool {
        let number = now >= 0 ? now / Self.bucketMilliseconds : (now + 1) / Self.bucketMilliseconds - 1
        var closed = false
        if number != current {
            if current != .min {
                close(current, next: number)
                closed = true
            }
            // The new bucket's slot and those of the buckets passed over emptied (all 16 if the clock went back:
            // the tracker's fixes only move forward, but the ring never pairs across a step back).
            let passed =
                current == .min || number < current
                ? Int64(Self.bucketCount) : min(number &- current, Int64(Self.bucketCount))
            for k in 0..<passed { buckets[Self.slot(number &- k)] = .zero }
            current = number
        }
        buckets[Self.slot(number)] += SIMD4(w * e, w * n, w, 1)
        return closed
    }

    /// Pairs bucket `number` with the buckets before it, after fading the bands for the time until bucket `next`
    /// opens.
    mutating func close(_ number: Int64, next: Int64) {
        let seconds = Double(next &- number) * Double(Self.bucketMilliseconds) / 1000
        bands.fade(by: StillScatter.timeConstantSeconds / (StillScatter.timeConstantSeconds + seconds))
        let b = buckets[Self.slot(number)]
        guard b.z > 0 else { return }
        let e = b.x / b.z, n = b.y / b.z, variance = b.w / b.z
        for lag in 1..<Self.bucketCount {
            let o = buckets[Self.slot(number &- Int64(lag))]
            guard o.z > 0 else { continue }
            let de = o.x / o.z - e, dn = o.y / o.z - n
            let square = de * de + dn * dn
            bands.add(
                lagSeconds: Double(lag) * Double(Self.bucketMilliseconds) / 1000,
                term: square / (2 * (variance + o.w / o.z)), squareMetres: square, weight: 1)
        }
    }

    /// Moves the buckets with the plane (see `Tracker.recentre()`); the bands hold displacements, which a shift
    /// keeps.
    mutating func transformPositions(_ convert: (Double, Double) -> (Double, Double)) {
        for i in buckets.indices where buckets[i].z > 0 {
            let b = buckets[i]
            let (e, n) = convert(b.x / b.z, b.y / b.z)
            buckets[i] = SIMD4(e * b.z, n * b.z, b.z, b.w)
        }
    }
}
