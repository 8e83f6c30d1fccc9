/// Whether the trailing stretch of fixes scatters as a receiver at rest would, judged from their stated
/// accuracies: the forward, streaming counterpart of the smoother's still-by-scatter rule
/// (`StillnessGate.stillScatterSeconds`), for the ``Tracker``'s net-displacement gate.
///
/// ## Why
/// A phone at rest whose position error drifts (a Gauss–Markov error of a few tens of seconds) and which reports
/// no speed moves its filtered position past the net-displacement threshold every so often, and each time the gate
/// opened it released the window's held jitter: generated desks (σ 5 m per axis, honest 7.5 m, walking) counted
/// 430 / 145 / 96 m per 10 minutes at τ 30 s logged every 1 / 5 / 10 s, 108 / 47 / 35 m at τ 60 s. Inside a
/// window such a drift cannot be told from a slow walk; over minutes the two part: a walker's fixes spread with
/// the walk, a still receiver's stay within the accuracy they state.
///
/// ## How
/// An exponentially weighted mean of the fixes' plane positions and their weighted scatter about it,
/// χ² = Σ λᵢ wᵢ |pᵢ − p̄|² (wᵢ the inverse per-axis variance of the stated 68 % radius, λᵢ the decay since the
/// fix, `T / (T + Δt)` per step with T = ``timeConstantSeconds``), kept in O(1) memory with no removal. White
/// noise at the stated accuracies gives E χ² = 2 (Σ λᵢ − Σ λᵢ² wᵢ / Σ λᵢ wᵢ) (2(m − 1) for m fixes undecayed),
/// so the stretch reads still when χ² is at most ``maximumRatio`` of that, with at least
/// ``minimumEffectiveFixes`` fixes' worth of weight, ``minimumSpanSeconds`` after it started. A fix then belongs
/// to the still stretch unless it lies beyond ``edgeChiSquared`` from the mean, in units of the stretch's own χ²
/// per degree of freedom (a departure's first fixes, which count).
///
/// The tracker judges and adds only fixes that read no speed and state an accuracy, where the net displacement
/// decides (`Tracker.movingThreshold`); a fix without an accuracy (a GPX file's, iOS's −1) or with a speed is
/// neither judged nor added. Every anchor (a first fix, a gap, a re-anchor) starts a new stretch at the next fix
/// added, and so does a fix dated before the stretch's last (a clock that jumped back): silence never reads as
/// still. ``edgeBound`` is stored after each fix, so judging the next is one
/// comparison while not still. (``add(east:north:variance:now:anchoredAt:)`` with variance 0 ends the stretch.)
public struct StillScatter: Sendable, BitwiseCopyable, Hashable {
    /// Σ λ w, per m².
    @usableFromInline var weight = 0.0
    /// The weighted mean, metres on the tracker's plane.
    @usableFromInline var east = 0.0, north = 0.0
    /// Σ λ w |p − p̄|².
    @usableFromInline var chiSquared = 0.0
    /// Σ λ and Σ λ² (the effective count is (Σ λ)² / Σ λ²).
    @usableFromInline var decayedCount = 0.0, decayedSquares = 0.0
    /// Σ λ² w, per m².
    @usableFromInline var squaredWeight = 0.0
    /// The stretch's first and last fix (ms since 1970; `.min`: no stretch).
    @usableFromInline var startMilliseconds: Int64 = .min
    @usableFromInline var lastMilliseconds: Int64 = .min
    /// The largest squared distance from the mean, over the per-axis variance of the fix's stated accuracy, at which
    /// a fix belongs to the still stretch: ``edgeChiSquared`` × the stretch's χ² per degree of freedom; −1 while
    /// the stretch does not read still.
    @usableFromInline var edgeBound = -1.0

    /// The decay's time constant, seconds: 300. Why: an exponential weight of time constant T spreads a steady
    /// walk over v·T (its positions' spread about their mean), 210 m at 0.7 m/s, far beyond any accuracy; and it
    /// holds about 2T / Δt fixes' worth of weight, as a box of 2T: the smoother's 600 s stretch. At T 120 s the
    /// Gauss–Markov desks (τ 30 s, 1 / 5 / 10 s; 120 s start, 4.61 edge) kept 67 / 33 / 27 m per 10 minutes against
    /// 59 / 25 / 22 at 300 s. (The figures here were measured on the first version, which fed the stretch every fix
    /// without speed; as built, the stretch fed only where the net displacement decides: 37 / 13 / 11.)
    public static let timeConstantSeconds = 300.0
    /// How long a stretch must have run before it can read still, seconds: 120. Why: a desk counts as before until
    /// then; at 300 s the Gauss–Markov desks (τ 30 s, at 1 / 5 / 10 s, 9.21 edge) kept 47 / 16 / 14 m per 10
    /// minutes, at 120 s 23 / 9 / 9, and no generated walk (`noisy_walks_and_desks.py`: walks, mall walks, pacing,
    /// halts under σ 3–15 m) changed but a walk out of halts stating twice its noise (−28 m of 6,359). The walk's
    /// own spread over two minutes (84 m at 0.7 m/s) still lies far beyond the stated accuracies.
    public static let minimumSpanSeconds = 120.0
    /// The fewest fixes' worth of weight, (Σ λ)² / Σ λ², a still stretch needs: 10, as the smoother's (with fewer,
    /// χ² scatters too widely to judge at ``maximumRatio``).
    public static let minimumEffectiveFixes = 10.0
    /// The largest scatter of a still stretch, as a multiple of what white noise with the stated accuracies gives:
    /// 1.5, as the smoother's `StillnessGate.stillScatterRatio` (a still receiver with honest accuracies scatters
    /// 1 ± √(1 / (m − 1)); a walk spreads far beyond).
    public static let maximumRatio = 1.5
    /// How far from a still stretch's mean a fix may lie and still belong to it, in χ² of its two axes, in units of
    /// the stretch's own χ² per degree of freedom: 9.21, the 99 % point of χ² with two degrees of freedom (the
    /// smoother trims at the 90 % point, 4.61, but only a stretch's ends; here every fix is an end). Why: a
    /// drifting error lies beyond the 90 % point on one fix in eight, and each such run reopened the window: the
    /// Gauss–Markov desks (τ 30 s, 1 / 5 / 10 s, a 120 s start) kept 59 / 25 / 22 m per 10 minutes at 4.61, 23 / 9 /
    /// 9 at 9.21. The price: a departure's first ~15 m under σ 5 m (the edge's radius) are given up; walks leaving
    /// a 30-minute rest, three seeds each, lost up to 40 m of 900 stating twice their noise (0.5 m/s every 5 s,
    /// 184 → 144 m: such a walk's stretch reads still longer), and most shed their rest's phantom.
    public static let edgeChiSquared = 9.21

    /// No stretch.
    @inlinable
    public init() {}

    /// Whether a fix at (`e`, `n`) on the plane, of per-axis variance `variance` (m²), belongs to the trailing
    /// stretch as a still one: the stretch reads still and the fix lies within ``edgeBound`` of its mean.
    @inlinable @inline(__always)
    public func holds(east e: Double, north n: Double, variance: Double) -> Bool {
        let de = e - east, dn = n - north
        return de * de + dn * dn <= edgeBound * variance
    }

    /// Adds a fix at (`e`, `n`) on the plane, of per-axis variance `variance` (m²), taken at `now` (ms), and judges
    /// the stretch (``edgeBound``); a fix whose accuracy is assumed (`variance` 0: none stated) ends the stretch
    /// instead. A stretch that started before the tracker's last anchor (`anchor`, ms) ends there, and so does one
    /// whose last fix is dated after this one (the tracker restarted on a clock that jumped back: its anchor is
    /// dated before the stretch, whose decay would turn negative and whose span would stay negative until the clock
    /// caught up, so that a desk never read still again; a reviewer's desk whose first 20 minutes were dated 36 h
    /// ahead counted 188 m against 119 for its halves alone): this fix starts a new one. (The anchor itself writes
    /// nothing here: a reset in `Tracker.anchor` cost instructions on every fix.)
    @usableFromInline
    mutating func add(east e: Double, north n: Double, variance: Double, now: Int64, anchoredAt anchor: Int64) {
        guard variance > 0 else {
            self = StillScatter()
            return
        }
        if startMilliseconds <= anchor || now < lastMilliseconds { self = StillScatter() }
        if startMilliseconds == .min {
            startMilliseconds = now
        } else {
            let decay = Self.timeConstantSeconds / (Self.timeConstantSeconds + Double(now &- lastMilliseconds) / 1000)
            weight *= decay
            chiSquared *= decay
            decayedCount *= decay
            decayedSquares *= decay * decay
            squaredWeight *= decay * decay
        }
        lastMilliseconds = now
        let w = 1 / variance
        weight += w
        decayedCount += 1
        decayedSquares += 1
        squaredWeight += w
        let de = e - east, dn = n - north, share = w / weight
        east += de * share
        north += dn * share
        chiSquared += w * (de * (e - east) + dn * (n - north))
        let degrees = 2 * (decayedCount - squaredWeight / weight)
        if Double(now &- startMilliseconds) / 1000 >= Self.minimumSpanSeconds,
            decayedCount * decayedCount >= Self.minimumEffectiveFixes * decayedSquares,
            degrees > 0, chiSquared <= Self.maximumRatio * degrees
        {
            edgeBound = Self.edgeChiSquared * chiSquared / degrees
        } else {
            edgeBound = -1
        }
    }

    /// Moves the mean with the plane (see `Tracker.recentre()`).
    mutating func transformPosition(_ convert: (Double, Double) -> (Double, Double)) {
        guard startMilliseconds != .min else { return }
        (east, north) = convert(east, north)
    }
}
