/// A session's distance: a total that never decreases, broken down by the speed source it came from.
///
/// ## Invariants
/// - ``totalMetres`` never decreases while the value lives: ``add(_:source:)`` ignores negative, zero and
///   non-finite amounts; ``restore(persistedTotalMetres:)`` and ``merge(_:)`` keep the larger value.
/// - The breakdown (``dopplerMetres``, ``derivedMetres``, ``filteredMetres``) plus ``restoredMetres`` equals
///   the total (up to rounding).
/// - Only ``reset()`` goes back to zero (a new session).
public struct DistanceAccumulator: Sendable, Hashable, Codable {
    /// The total distance, metres.
    public private(set) var totalMetres: Double = 0
    /// The part integrated from Doppler speed, metres.
    public private(set) var dopplerMetres: Double = 0
    /// The part integrated from speeds derived from displacement, metres.
    public private(set) var derivedMetres: Double = 0
    /// The part integrated from the filter's speed, metres.
    public private(set) var filteredMetres: Double = 0
    /// The part taken over from a persisted or merged total, metres.
    public private(set) var restoredMetres: Double = 0

    /// An empty accumulator.
    @inlinable
    public init() {}

    /// Adds `metres` integrated from a speed of the given source. Negative, zero and non-finite amounts are
    /// ignored, so the total can only grow.
    @inline(__always)
    public mutating func add(_ metres: Double, source: SpeedSource) {
        guard metres > 0, metres.isFinite else { return }
        totalMetres += metres
        switch source {
        case .doppler: dopplerMetres += metres
        case .derived: derivedMetres += metres
        case .filtered: filteredMetres += metres
        }
    }

    /// Continues from a total persisted by an earlier process: the larger of the two totals is kept, so a
    /// restart never erases progress and a stale persisted value never lowers it. Non-finite or negative
    /// values are ignored.
    public mutating func restore(persistedTotalMetres persisted: Double) {
        guard persisted.isFinite, persisted > totalMetres else { return }
        restoredMetres += persisted - totalMetres
        totalMetres = persisted
    }

    /// Merges another partial state of the same session: each figure becomes the larger of the two (two
    /// copies of one session overlap; adding would count the shared part twice).
    public mutating func merge(_ other: DistanceAccumulator) {
        dopplerMetres = max(dopplerMetres, other.dopplerMetres)
        derivedMetres = max(derivedMetres, other.derivedMetres)
        filteredMetres = max(filteredMetres, other.filteredMetres)
        let newTotal = max(totalMetres, other.totalMetres)
        let attributed = dopplerMetres + derivedMetres + filteredMetres
        restoredMetres = max(0, newTotal - attributed)
        totalMetres = newTotal
    }

    /// Returns to zero (a new session).
    public mutating func reset() { self = DistanceAccumulator() }
}
