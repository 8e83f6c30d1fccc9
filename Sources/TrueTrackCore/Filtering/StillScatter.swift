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
/// The tracker adds only fixes that read no speed and state an accuracy; a fix without one (a GPX file's, iOS's
/// −1) starts a new stretch, and so does every anchor (a first fix, a gap, a re-anchor): silence never reads as
/// still. ``edgeBound`` is stored after each fix, so judging the next costs one comparison while not still.
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
    /// holds about 2T / Δt fixes' worth of weight, as a box of 2T: the smoother's 600 s stretch.
    public static let timeConstantSeconds = 300.0
    /// How long a stretch must have run before it can read still, seconds: 300 (see ``timeConstantSeconds``).
    public static let minimumSpanSeconds = 120.0
    /// The fewest fixes' worth of weight, (Σ λ)² / Σ λ², a still stretch needs: 10, as the smoother's (with fewer,
    /// χ² scatters too widely to judge at ``maximumRatio``).
    public static let minimumEffectiveFixes = 10.0
    /// The largest scatter of a still stretch, as a multiple of what white noise with the stated accuracies gives:
    /// 1.5, as the smoother's `StillnessGate.stillScatterRatio`.
    public static let maximumRatio = 1.5
    /// How far from a still stretch's mean a fix may lie and still belong to it, in χ² of its two axes: 4.61, the
    /// 90 % point of χ² with two degrees of freedom, in units of the stretch's own χ² per degree of freedom, as the
    /// smoother's `StillnessGate.stillScatterEdgeChiSquared`.
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
    /// instead. A stretch that started before the tracker's last anchor (`anchor`, ms) ends there: this fix starts a
    /// new one. (The anchor itself writes nothing here: a reset in `Tracker.anchor` cost instructions on every fix.)
    @usableFromInline
    mutating func add(east e: Double, north n: Double, variance: Double, now: Int64, anchoredAt anchor: Int64) {
        guard variance > 0 else {
            self = StillScatter()
            return
        }
        if startMilliseconds <= anchor { self = StillScatter() }
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
