/// A session's distance: a total that never decreases, broken down by the speed source it came from.
///
/// ## Invariants
/// - ``totalMetres`` never decreases while the value lives: ``add(_:source:)`` ignores negative, zero and
///   non-finite amounts; ``restore(persistedTotalMetres:)`` and ``merge(_:)`` keep the larger value.
/// - The breakdown (``dopplerMetres``, ``derivedMetres``, ``filteredMetres``) plus ``restoredMetres`` equals
///   the total (up to rounding).
/// - Only ``reset()`` goes back to zero (a new session).
public struct DistanceAccumulator: Sendable, BitwiseCopyable, Hashable, Codable {
    /// The total distance, metres.
    @inlinable public var totalMetres: Double { @inline(__always) get { storedTotalMetres } }
    /// The part integrated from Doppler speed, metres.
    @inlinable public var dopplerMetres: Double { storedDopplerMetres }
    /// The part integrated from speeds derived from displacement, metres.
    @inlinable public var derivedMetres: Double { storedDerivedMetres }
    /// The part integrated from the filter's speed, metres.
    @inlinable public var filteredMetres: Double { storedFilteredMetres }
    /// The part taken over from a persisted or merged total, metres.
    @inlinable public var restoredMetres: Double { storedRestoredMetres }

    // The figures are stored `@usableFromInline internal` (read-only outside the module, as before) so that
    // `add(_:source:)` can be `@inlinable`: the Tracker's inlinable per-fix path calls it. The coding keys keep
    // the public names, so the encoded form is unchanged.
    @usableFromInline var storedTotalMetres: Double = 0
    @usableFromInline var storedDopplerMetres: Double = 0
    @usableFromInline var storedDerivedMetres: Double = 0
    @usableFromInline var storedFilteredMetres: Double = 0
    @usableFromInline var storedRestoredMetres: Double = 0

    /// The encoded names: the public figures' names.
    enum CodingKeys: String, CodingKey {
        case storedTotalMetres = "totalMetres"
        case storedDopplerMetres = "dopplerMetres"
        case storedDerivedMetres = "derivedMetres"
        case storedFilteredMetres = "filteredMetres"
        case storedRestoredMetres = "restoredMetres"
    }

    /// An empty accumulator.
    @inlinable
    public init() {}

    /// Decodes an accumulator, refusing one no accumulator can reach (a damaged or hand-edited record): a figure
    /// that is negative or not finite, or parts (``dopplerMetres``, ``derivedMetres``, ``filteredMetres``,
    /// ``restoredMetres``) adding up to more than the total beyond rounding. An API tester's `"totalMetres": -5`
    /// and `"dopplerMetres": 1e308` decoded, and the invariants above no longer held.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the figure.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func figure(_ key: CodingKeys) throws -> Double {
            let value = try container.decode(Double.self, forKey: key)
            guard value.isFinite, value >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "\(key.rawValue) must be a finite number of metres, 0 or more; found \(value)")
            }
            return value
        }
        storedTotalMetres = try figure(.storedTotalMetres)
        storedDopplerMetres = try figure(.storedDopplerMetres)
        storedDerivedMetres = try figure(.storedDerivedMetres)
        storedFilteredMetres = try figure(.storedFilteredMetres)
        storedRestoredMetres = try figure(.storedRestoredMetres)
        let parts = storedDopplerMetres + storedDerivedMetres + storedFilteredMetres + storedRestoredMetres
        // (The parts and the total are sums of the same amounts, added in another order: they differ by rounding.)
        guard parts <= storedTotalMetres * (1 + 1e-9) + 1e-6 else {
            throw DecodingError.dataCorruptedError(
                forKey: .storedTotalMetres, in: container,
                debugDescription:
                    "the parts add up to \(parts) m, more than totalMetres \(storedTotalMetres) m")
        }
    }

    /// Adds `metres` integrated from a speed of the given source. Negative, zero and non-finite amounts are
    /// ignored, so the total can only grow.
    @inlinable @inline(__always)
    public mutating func add(_ metres: Double, source: SpeedSource) {
        guard metres > 0, (storedTotalMetres + metres).isFinite else { return }
        storedTotalMetres += metres
        switch source {
        case .doppler: storedDopplerMetres += metres
        case .derived: storedDerivedMetres += metres
        case .filtered: storedFilteredMetres += metres
        }
    }

    /// Adds a Doppler-integrated and a filter-integrated amount (in that order, each as ``add(_:source:)``) and
    /// returns how much the total grew, metres.
    @inlinable @inline(__always)
    public mutating func add(doppler: Double, filtered: Double) -> Double {
        let before = storedTotalMetres
        add(doppler, source: .doppler)
        add(filtered, source: .filtered)
        return storedTotalMetres - before
    }

    /// Continues from a total persisted by an earlier process: the larger of the two totals is kept, so a
    /// restart never erases progress and a stale persisted value never lowers it. Non-finite or negative
    /// values are ignored, and so are those above ``maximumRestoredMetres``.
    public mutating func restore(persistedTotalMetres persisted: Double) {
        guard persisted.isFinite, persisted > totalMetres, persisted <= Self.maximumRestoredMetres else { return }
        storedRestoredMetres += persisted - storedTotalMetres
        storedTotalMetres = persisted
    }

    /// The largest persisted total ``restore(persistedTotalMetres:)`` takes, metres: a million kilometres (25 times
    /// around the Earth), what the session store keeps at most (`SessionSnapshot.maximumDistanceMetres`). A larger
    /// one is no distance travelled but a damaged store: an API tester's restore of 10¹⁵ m was kept by the tracker
    /// (whose own checkpoint it then could not resume, past ``Tracker/plausibleRunningSumLimit``) while the store
    /// kept 0.
    public static let maximumRestoredMetres = 1e9

    /// Merges another partial state of the same session: the state with the larger total is kept whole, its
    /// breakdown with it (two copies of one session overlap: adding would count the shared part twice, and
    /// the larger of each part separately can add up to more than either total: 6 + 4 and 4 + 6 gave 6 + 6
    /// for a total of 10). At equal totals this state stays. Idempotent: merging the same state again changes
    /// nothing.
    public mutating func merge(_ other: DistanceAccumulator) {
        if other.totalMetres > totalMetres { self = other }
    }

    /// Returns to zero (a new session).
    public mutating func reset() { self = DistanceAccumulator() }
}
