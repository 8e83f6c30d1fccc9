/// Distance as the chords between averaged blocks of fixes, each counted only when it stands out of the blocks'
/// noise and the next block confirms it: the ``Tracker``'s lower bound on a walk whose fixes read no speed and
/// scatter too widely for its trailing window.
///
/// ## Why
/// Where the fixes carry no speed, the tracker integrates the position filter's speed, and its net-displacement
/// gate releases that distance only once the filtered track has left a window span (20 s on foot) by more than the
/// fixes' noise. A slow walk under wide white noise never does: a walker at 0.9 m/s covers 18 m in 20 s, and the
/// threshold of fixes scattering σ 8 m every 3 s is 36 m. Generated walks (`noisy_walks_and_desks.py`, honest
/// accuracies, forward) counted 31–71 % of their length at σ 8–12 m, 7 % at σ 15 m, where the smoother counts
/// +6…+15 %. A longer window is no answer (the gate's window is short for a receiver whose error drifts), and nor
/// is the filter's speed: under such noise its integral is 1.5–2.4 times the walk (the norm of a noisy velocity
/// never cancels).
///
/// ## How
/// Fixes are gathered in consecutive blocks of at least ``blockFixes`` fixes spanning at least the profile's
/// window; each block is a straight line at constant speed through its fixes (``Block``, weights the inverse
/// variance of each fix's stated accuracy), taken at its mean time with a single fix's spread (its error may drift:
/// no credit for averaging), and dropped when its fixes lie off that line beyond their accuracy (a multipath fix
/// that claims 5 m). The first block is the anchor. A later block beyond ``significanceSigmas`` of the anchor (the
/// per-axis spread of the two positions' difference) waits as pending; the next block confirms it if it lies beyond
/// the anchor too (then the chord from the anchor to the pending block counts and the pending block becomes the
/// anchor), or shows it was an excursion if it is back by the anchor (then it is forgotten). The chord must be one
/// the traveller could make: its last leg (from the newest block still near the anchor) and the confirming leg no
/// faster than the traveller sustains (a faster one, a vehicle's or a jump's, moves the anchor without counting),
/// and nothing may exclude it (a confident still or in-vehicle reading, or the odometer's own vehicle latch: for the
/// profile's vehicle exit time after a block leg, or the tracker's window beyond three times its noise, faster than
/// the traveller sustains; the latch outlives a restart). A block not standing out leaves the anchor where it is: a
/// still receiver's blocks keep comparing with the same anchor, and never count while they stay within its noise.
///
/// The tracker adds only what the chords exceed its own count since the odometer started plus what its gates
/// hold (the larger of the two stands): a walk the gates measure well is left as it was, since its chords cut its
/// corners. Only fixes that read no speed and state an accuracy feed it, where the net displacement decides; any
/// other accepted fix, an anchor of the filter (a gap, a re-anchor), a departure given up, a restored total that
/// grew or a new plane starts it again.
@usableFromInline
struct ChordOdometer: Sendable, BitwiseCopyable, Hashable {
    /// A block's position on the tracker's plane (metres), its per-axis variance (m²) and its time (ms since 1970).
    @usableFromInline
    struct Position: Sendable, BitwiseCopyable, Hashable {
        @usableFromInline var east: Double, north: Double, variance: Double
        @usableFromInline var milliseconds: Int64

        /// Whether `other` lies beyond ``ChordOdometer/significanceSigmas`` of this position: their difference's
        /// per-axis variance is the sum of theirs.
        @inline(__always)
        func isSignificantlyAway(from other: Position) -> Bool {
            let de = east - other.east, dn = north - other.north
            let sigmas = ChordOdometer.significanceSigmas
            return de * de + dn * dn > sigmas * sigmas * (variance + other.variance)
        }

        /// The straight-line distance to `other`, metres.
        @inline(__always)
        func metres(to other: Position) -> Double {
            let de = east - other.east, dn = north - other.north
            return (de * de + dn * dn).squareRoot()
        }
    }

    /// The block being filled.
    @usableFromInline var block = Block()
    /// The anchor block (`nil` until the first block is complete), and the block that stood out of the anchor's
    /// noise, waiting for the next block to confirm it.
    @usableFromInline var anchor: Position? = nil
    @usableFromInline var pending: Position? = nil
    /// The newest block judged near the anchor since it became the anchor (`nil`: none): where the last leg of a
    /// chord to a pending block starts, for the chord's speed.
    @usableFromInline var lastNear: Position? = nil
    /// The last complete block (any), and when a block was last farther from the one before it than the traveller
    /// sustains (ms since 1970; `.min`: never): the odometer's own vehicle latch, judged on block positions, whose
    /// noise is a fraction of a fix's (the tracker's latch, judged on a 20 s window of the filtered track, also
    /// opens on a walk under 12–15 m of noise every 10 s).
    @usableFromInline var lastBlock: Position? = nil
    @usableFromInline var fastMilliseconds: Int64 = .min
    /// Whether a reading excluded a fix since the anchor (no chord from this anchor counts), since the pending block.
    @usableFromInline var isExcluded = false, isExcludedSincePending = false
    /// The first fix since it started (ms since 1970; `.min`: none), the tracker's total then (metres), and the
    /// chords counted since (metres).
    @usableFromInline var startMilliseconds: Int64 = .min
    @usableFromInline var startTotalMetres = 0.0
    @usableFromInline var chordsMetres = 0.0

    /// The fewest fixes a block holds: 3, the fewest a straight line through them can be checked with (one degree of
    /// freedom per axis).
    static let blockFixes = 3
    /// How many per-axis standard deviations of the two positions' difference a block must lie from the anchor to
    /// stand out: 3.72, the square root of 13.8, the 99.9 % point of χ² with two degrees of freedom. Why (measured on
    /// the first version, which credited blocks for averaging): at 3.03 (the 99 % point) the driving profile's sparse
    /// desks (`sparse_desks.py`, σ 5 m every 3–15 s) counted up to 5 m more per 10 minutes; at 3.72 none, and the
    /// noisy walks lost 0–2 points.
    static let significanceSigmas = 3.72

    /// Nothing averaged.
    @inlinable
    init() {}

    /// Starts again (after an anchor of the tracker's filter, a fix it did not take, a departure given up, a restored
    /// total that grew),
    /// keeping its vehicle latch and the last block it judges a leg from: a bus's fast spell often ends in a
    /// re-anchor (the walking filter cannot follow it), and the crawl after it is the bus's. `isSamePlane` false (a
    /// new plane): the last block's position is dropped too.
    @usableFromInline
    mutating func restart(isSamePlane: Bool = true) {
        let lastBlock = isSamePlane ? self.lastBlock : nil, fastMilliseconds = self.fastMilliseconds
        self = ChordOdometer()
        self.lastBlock = lastBlock
        self.fastMilliseconds = fastMilliseconds
    }

    /// Adds a fix at (`e`, `n`) on the plane with per-axis variance `variance` (m²), taken at `now` (ms), and
    /// returns the metres to add to the tracker's total (usually 0): by how much the chords confirmed up to the
    /// fix before exceed what the tracker counted since the odometer started and what its gates hold and may still
    /// count. `totalMetres` is the tracker's total before this fix's own increment (a chord confirmed at this fix
    /// is owed at the next, when the total holds everything up to it), `heldMetres` what the gates hold (a hold
    /// given up lowers it, never the count); `whiteShare` the share of `variance` that is white noise (ρ, see
    /// ``Block/fit()``); `blockSeconds` the block's shortest span (the profile's window); `excluded` whether a
    /// reading excludes this fix; `maximumSpeed` the fastest chord (m/s) that counts; `vehicleExitSeconds` how long
    /// after a block leg faster than `maximumSpeed` no chord counts (the profile's vehicle latch exit; 0: none: a
    /// bus crawling between fast spells is the bus's). A fix without a finite positive variance starts the odometer
    /// again.
    @usableFromInline
    mutating func add(
        east e: Double, north n: Double, variance: Double, whiteShare: Double = 1, now: Int64, totalMetres: Double,
        heldMetres: Double = 0, blockSeconds: Double, excluded: Bool, maximumSpeed: Double,
        vehicleExitSeconds: Double = 0
    ) -> Double {
        guard variance > 0, variance.isFinite else {
            restart()
            return 0
        }
        if excluded { block.isExcluded = true }  // (judged with the block: see `judge`)
        if startMilliseconds == .min {
            startMilliseconds = now
            startTotalMetres = totalMetres
        }
        let owed = max(0, chordsMetres - (totalMetres - startTotalMetres) - max(0, heldMetres))
        if block.count == 0 { block.start(east: e, north: n, now: now) }
        block.add(east: e, north: n, weight: 1 / variance, whiteShare: whiteShare, now: now)
        if block.count >= Self.blockFixes, Double(now &- block.startMilliseconds) >= blockSeconds * 1000 {
            let fit = block.fit()
            let isBlockExcluded = block.isExcluded
            block = Block()
            if let position = fit.position {
                if let lastBlock, position.milliseconds > lastBlock.milliseconds,
                    position.metres(to: lastBlock)
                        > maximumSpeed * Double(position.milliseconds &- lastBlock.milliseconds) / 1000
                {
                    fastMilliseconds = max(fastMilliseconds, now)
                }
                lastBlock = position
                let isInVehicle =
                    fastMilliseconds != .min && Double(now &- fastMilliseconds) / 1000 < vehicleExitSeconds
                judge(position, isExcluded: isBlockExcluded || isInVehicle, maximumSpeed: maximumSpeed)
            }
        }
        return owed
    }

    /// Judges a complete block's `position` against the anchor and the pending block; a confirmed chord joins
    /// ``chordsMetres`` when no reading excluded a fix since the anchor (`isExcluded`: one in this block) and the
    /// traveller could have made it: its last leg (from the newest block near the anchor, or the anchor, to the
    /// pending block) and the confirming leg (from the pending block to this one) both at most `maximumSpeed` (m/s).
    /// (Not the chord over the time since the anchor: at rest the anchor stays, and a car leaving a 10-minute halt
    /// read 0.25 m/s over it.)
    @usableFromInline
    mutating func judge(_ position: Position, isExcluded blockExcluded: Bool, maximumSpeed: Double) {
        if blockExcluded {
            // (Neither the chord that ends at this block nor one it confirms or starts counts.)
            isExcluded = true
            isExcludedSincePending = true
        }
        guard let anchor else {
            self.anchor = position
            isExcluded = blockExcluded
            return
        }
        let isAway = position.isSignificantlyAway(from: anchor)
        guard let pending else {
            if isAway {
                self.pending = position
                isExcludedSincePending = blockExcluded
            } else {
                lastNear = position
            }
            return
        }
        guard isAway else {
            // The pending block was an excursion (multipath), the track is back by the anchor: forgotten.
            self.pending = nil
            lastNear = position
            return
        }
        // Confirmed by this block, still away from the anchor: the chord to the pending block counts.
        let legStart = lastNear ?? anchor
        let legSeconds = Double(pending.milliseconds &- legStart.milliseconds) / 1000
        let onwardSeconds = Double(position.milliseconds &- pending.milliseconds) / 1000
        if !isExcluded, legSeconds > 0, onwardSeconds > 0,
            pending.metres(to: legStart) <= maximumSpeed * legSeconds,
            position.metres(to: pending) <= maximumSpeed * onwardSeconds
        {
            chordsMetres += pending.metres(to: anchor)
        }
        self.anchor = pending
        lastNear = nil
        isExcluded = isExcludedSincePending
        self.pending = nil
        if position.isSignificantlyAway(from: pending) {
            self.pending = position
            isExcludedSincePending = blockExcluded
        } else {
            lastNear = position
        }
    }

    /// A block of fixes and the straight line at constant speed through them, by weighted least squares, kept as
    /// sums (positions from its first fix, times in seconds from it): Σ w, Σ w t, Σ w t², and per axis Σ w x,
    /// Σ w t x, Σ w x².
    @usableFromInline
    struct Block: Sendable, BitwiseCopyable, Hashable {
        @usableFromInline var originEast = 0.0, originNorth = 0.0
        @usableFromInline var startMilliseconds: Int64 = .min
        @usableFromInline var count = 0
        /// Whether a reading excluded one of its fixes.
        @usableFromInline var isExcluded = false
        @usableFromInline var weight = 0.0, weightedTime = 0.0, weightedTimeSquared = 0.0
        /// Σ of the fixes' white shares (see ``fit()``).
        @usableFromInline var whiteShares = 0.0
        @usableFromInline var east = SIMD3<Double>(), north = SIMD3<Double>()

        @inlinable
        init() {}

        @usableFromInline
        mutating func start(east e: Double, north n: Double, now: Int64) {
            originEast = e
            originNorth = n
            startMilliseconds = now
        }

        @usableFromInline
        mutating func add(east e: Double, north n: Double, weight w: Double, whiteShare: Double = 1, now: Int64) {
            let t = Double(now &- startMilliseconds) / 1000
            let x = e - originEast, y = n - originNorth
            count &+= 1
            weight += w
            whiteShares += whiteShare
            weightedTime += w * t
            weightedTimeSquared += w * t * t
            east += SIMD3(w * x, w * t * x, w * x * x)
            north += SIMD3(w * y, w * t * y, w * y * y)
        }

        /// The line's position at the block's weighted mean time (metres on the plane), its per-axis variance (m²:
        /// a single fix's, n / Σ w, or the white scatter's ρ / Σ w where the fixes scatter beyond their stated
        /// accuracy, ρ their mean white share above n) and that time (ms), and whether the residual χ² (over ρ where
        /// ρ > 1) is
        /// within ``consistentChiSquared(degrees:)``; the position is `nil` when it is not.
        @usableFromInline
        func fit() -> (position: Position?, chiSquared: Double) {
            let meanTime = weightedTime / weight
            let timeSpread = weightedTimeSquared - weightedTime * meanTime
            func residual(_ sums: SIMD3<Double>) -> Double {
                let mean = sums.x / weight
                let spread = sums.z - sums.x * mean
                guard timeSpread > 0 else { return spread }
                let covariance = sums.y - weightedTime * mean
                return spread - covariance * covariance / timeSpread
            }
            // No credit for averaging: the block's position is judged at a single fix's stated spread, since an error
            // that drifts does not average down, and the white share measured from the fixes' steps misreads errors
            // that alternate (two position sources, a fix flipping ±10 m) as white: with credit for it a still phone
            // under honest accuracies counted 300 m an hour (a tester's). A share above 1 (fixes scattering beyond
            // their stated accuracy) scales the residuals' χ², and above n the position's variance.
            let white = whiteShares / Double(count)
            let variance = max(white, Double(count)) / weight
            let chiSquared = (max(0, residual(east)) + max(0, residual(north))) / max(white, 1)
            guard chiSquared <= ChordOdometer.consistentChiSquared(degrees: Double(2 * (count - 2))) else {
                return (nil, chiSquared)
            }
            return (
                Position(
                    east: originEast + east.x / weight, north: originNorth + north.x / weight, variance: variance,
                    milliseconds: startMilliseconds &+ Int64((meanTime * 1000).rounded())),
                chiSquared
            )
        }
    }

    /// The largest residual χ² of a block's line with `degrees` degrees of freedom: degrees + 4.5 √(2 degrees) + 6,
    /// beyond the 99.9 % point of χ² from 2 to 40 degrees (17 at 2, where the 99.9 % point is 13.8). A fix tens of
    /// metres off its block's line at the stated accuracies (multipath that claims 5 m) lies far beyond.
    @inlinable
    static func consistentChiSquared(degrees: Double) -> Double {
        degrees + 4.5 * (2 * degrees).squareRoot() + 6
    }
}
