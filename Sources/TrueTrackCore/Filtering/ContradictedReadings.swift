/// A run of fixes whose Doppler readings say "still" while the filtered track travels: the evidence that a speed
/// column is a placeholder (a logger writing 0 on every fix) rather than a measurement.
///
/// ## Why
/// With readings over half the trailing window, their mean decides whether the receiver moves: a consistent
/// receiver's zeros mean a halt, and a parked van's multipath excursions are held back by them. A column of zeros
/// under a moving track then counted nothing: a reviewer's 7.2 km drive at 12 m/s, every reading 0, read 0 m
/// (the window's net displacement 120 m against a 7 m threshold).
///
/// Net displacement alone is no proof: a parked tracker's multipath jumps (150–500 m every 15 s, accepted by a
/// filter whose prediction after 15 s allows them) pass any displacement test, and two earlier versions that
/// trusted the displacement against the readings added 29 and 128 phantom trips to the fleet evaluation. What a
/// jump does not give is **steady progress**: a drive keeps going, fix after fix, in a straight enough line; a
/// jump goes out and comes back. So the readings are overruled only after a run of at least
/// ``minimumFixes`` accepted fixes, spanning ``minimumWindowSpans`` window spans, every one of them with the
/// window's readings still and its net displacement above ``netThresholds`` thresholds, whose chord is at least
/// ``minimumStraightness`` of the filtered path along it and at least ``chordThresholds`` thresholds long. An
/// anchor (a re-anchor after a rejection streak, a gap) ends the run.
///
/// Once overruled, the run's distance since the window that began it is released, and the readings stay
/// overruled while the run lasts (they leave the trailing window, and the net displacement decides, as for a
/// receiver without readings): the first fix whose window is back under the displacement test (a halt) ends it,
/// and the readings are believed again. The tracker judges the run only during a run of sub-deadband readings it
/// does not trust, inside its existing out-of-line dropout bound: the per-fix path pays nothing (see
/// docs/ARCHITECTURE.md, "A speed column of zeros under a moving track").
@usableFromInline
struct ContradictedReadings: Sendable, BitwiseCopyable {
    /// Net displacement over the window, in net-displacement thresholds, that a fix of the run must show: 4.
    /// A parked receiver's correlated error moves the filtered track about one threshold per window (that is what
    /// the threshold is for); a drive at 12 m/s under 5 m fixes moves 17 thresholds per 10 s window, a city crawl
    /// at 5 m/s 7.
    @usableFromInline static let netThresholds = 4.0
    /// Fixes the run must hold before it overrules the readings: 5 (a jump and its return are two or three).
    @usableFromInline static let minimumFixes = 5
    /// Window spans the run must cover: 2 (20 s on the driving profile).
    @usableFromInline static let minimumWindowSpans: Int64 = 2
    /// The run's chord over its filtered path: at least 0.7 (a jump out and back reads near 0; a drive's 50 s
    /// between two turns near 1; a random walk of the fixes' error over five fixes about 0.45).
    @usableFromInline static let minimumStraightness = 0.7
    /// The run's chord, in net-displacement thresholds: at least 12 (three windows' worth of the per-fix test).
    @usableFromInline static let chordThresholds = 12.0

    /// The filtered position where the run began (metres, local frame).
    @usableFromInline var start = SIMD2<Double>(0, 0)
    /// The filtered position at the run's last fix.
    @usableFromInline var last = SIMD2<Double>(0, 0)
    /// The filtered path along the run (metres).
    @usableFromInline var pathMetres = 0.0
    /// When the run began, and its last fix (ms since 1970).
    @usableFromInline var startMilliseconds: Int64 = 0, lastMilliseconds: Int64 = .min
    /// The run's fixes (0: no run).
    @usableFromInline var fixes = 0
    /// The window's start candidates (Doppler, filtered) at the run's first fix: what the release counts from.
    @usableFromInline var startCandidates = SIMD2<Double>(0, 0)
    /// Whether the run has overruled the readings.
    @usableFromInline var isOverruling = false

    @usableFromInline init() {}

    /// Ends the run (a fix that does not continue it).
    @usableFromInline
    mutating func end() {
        fixes = 0
        isOverruling = false
    }

    /// Adds a fix whose window reads still and travelled more than ``netThresholds`` thresholds; returns whether
    /// the readings are overruled now. `previousAcceptedMilliseconds` is the tracker's last accepted fix before
    /// this one: a run continues only from its own last fix (an anchor in between, which skips this test, ends it).
    @usableFromInline
    mutating func add(
        position: SIMD2<Double>, now: Int64, previousAcceptedMilliseconds: Int64, thresholdMetres: Double,
        windowSpanMilliseconds: Int64, windowStartCandidates: SIMD2<Double>
    ) -> Bool {
        guard fixes > 0, lastMilliseconds == previousAcceptedMilliseconds else {
            self = ContradictedReadings()
            start = position
            last = position
            startMilliseconds = now
            lastMilliseconds = now
            fixes = 1
            startCandidates = windowStartCandidates
            return false
        }
        let step = position - last
        pathMetres += (step * step).sum().squareRoot()
        last = position
        lastMilliseconds = now
        fixes += 1
        if !isOverruling, fixes >= Self.minimumFixes,
            now &- startMilliseconds >= Self.minimumWindowSpans * windowSpanMilliseconds
        {
            let d = position - start
            let chord = (d * d).sum().squareRoot()
            isOverruling =
                chord >= Self.minimumStraightness * pathMetres && chord >= Self.chordThresholds * thresholdMetres
        }
        return isOverruling
    }
}
