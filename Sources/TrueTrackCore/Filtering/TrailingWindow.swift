/// A fixed-capacity ring of samples of the filtered track, at least one second apart, spanning the last
/// ``TrackingProfile/windowSeconds`` (internal; stored inline, so it never allocates).
///
/// Each sample holds running sums (Doppler path, candidate distance per source, accuracy, fix count), so any
/// quantity over the window is the difference between the newest sums and the oldest sample's.
@usableFromInline
struct TrailingWindow: Sendable, BitwiseCopyable {
    /// One snapshot of the track and the running sums.
    @usableFromInline
    struct Sample: Sendable, BitwiseCopyable {
        @usableFromInline var milliseconds: Int64
        @usableFromInline var east: Double
        @usableFromInline var north: Double
        @usableFromInline var dopplerPath: Double
        @usableFromInline var dopplerSeconds: Double
        @usableFromInline var positionPath: Double
        @usableFromInline var candidateDoppler: Double
        @usableFromInline var candidateFiltered: Double
        @usableFromInline var accuracySum: Double
        @usableFromInline var fixCount: Double

        /// The memberwise initializer, `@inlinable` for the Tracker's inlinable per-fix path.
        @inlinable @inline(__always)
        init(
            milliseconds: Int64, east: Double, north: Double, dopplerPath: Double, dopplerSeconds: Double,
            positionPath: Double, candidateDoppler: Double, candidateFiltered: Double, accuracySum: Double,
            fixCount: Double
        ) {
            self.milliseconds = milliseconds
            self.east = east
            self.north = north
            self.dopplerPath = dopplerPath
            self.dopplerSeconds = dopplerSeconds
            self.positionPath = positionPath
            self.candidateDoppler = candidateDoppler
            self.candidateFiltered = candidateFiltered
            self.accuracySum = accuracySum
            self.fixCount = fixCount
        }

        @usableFromInline static let empty = Sample(
            milliseconds: 0, east: 0, north: 0, dopplerPath: 0, dopplerSeconds: 0, positionPath: 0, candidateDoppler: 0,
            candidateFiltered: 0,
            accuracySum: 0, fixCount: 0)
    }

    /// Capacity of the ring (a power of two: slots wrap with a mask).
    @usableFromInline static let capacity = 32
    /// The longest window the ring can hold at one sample per second: 30 samples inside the span, the one kept
    /// from before it (see ``dropOlder(than:spanMilliseconds:)``) and the new fix fill the 32 slots exactly
    /// (``dropOlder(than:spanMilliseconds:)`` always runs before ``append(_:)``).
    @usableFromInline static let maximumSpanSeconds = 30.0
    /// The minimum spacing between samples, milliseconds (1 s: 1 Hz is the usual fix rate; faster fixes are
    /// sampled, not all stored).
    @usableFromInline static let spacingMilliseconds: Int64 = 1000

    @usableFromInline var storage:
        (
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample,
            TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample
        )
    /// Index of the oldest sample.
    @usableFromInline var head = 0
    /// Number of samples held.
    @usableFromInline var count = 0

    @usableFromInline
    init() {
        let e = Sample.empty
        storage = (e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e)
    }

    /// The slot of the sample at position `i` from the oldest (0 ≤ i < count): the ring's capacity is a power
    /// of two, so wrapping is a mask (wrapping arithmetic: `head` and `i` are below the capacity).
    @inlinable @inline(__always)
    func slot(_ i: Int) -> Int { (head &+ i) & (Self.capacity &- 1) }

    /// The sample in `slot`. Mutating only so that the inline storage is read in place: a non-mutating read
    /// would copy the whole ring first.
    @inlinable @inline(__always)
    mutating func sample(inSlot slot: Int) -> Sample {
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.load(fromByteOffset: slot &* MemoryLayout<Sample>.stride, as: Sample.self)
        }
    }

    /// The sample at position `i` from the oldest (0 ≤ i < count).
    @inlinable @inline(__always)
    mutating func sample(_ i: Int) -> Sample { sample(inSlot: slot(i)) }

    /// The oldest sample, if any.
    @inlinable @inline(__always)
    mutating func oldest() -> Sample? { count > 0 ? sample(inSlot: head) : nil }

    /// Drops the samples older than `now − spanMilliseconds` except the newest of them: the window then reaches
    /// back at least the whole span whenever there is history, however sparse the fixes (with one fix every
    /// 25 s a window of 20 s would otherwise never hold a sample before the current fix, and judge nothing).
    @inlinable @inline(__always)
    mutating func dropOlder(than now: Int64, spanMilliseconds: Int64) {
        let limit = now &- spanMilliseconds
        while count > 1 && milliseconds(inSlot: slot(1)) <= limit {
            head = (head &+ 1) & (Self.capacity &- 1)
            count &-= 1
        }
    }

    /// The time of the sample in `slot`, read without loading the rest of the sample.
    @inlinable @inline(__always)
    mutating func milliseconds(inSlot slot: Int) -> Int64 {
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.load(
                fromByteOffset: slot &* MemoryLayout<Sample>.stride &+ MemoryLayout<Sample>.offset(of: \.milliseconds)!,
                as: Int64.self)
        }
    }

    /// Appends `s` when it is at least ``spacingMilliseconds`` after the newest sample (or the ring is empty);
    /// a full ring drops its oldest sample.
    @inlinable @inline(__always)
    mutating func append(_ s: Sample) {
        if count > 0 && s.milliseconds &- milliseconds(inSlot: slot(count &- 1)) < Self.spacingMilliseconds { return }
        if count == Self.capacity {
            head = (head &+ 1) & (Self.capacity &- 1)
            count &-= 1
        }
        let index = slot(count)
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.storeBytes(of: s, toByteOffset: index &* MemoryLayout<Sample>.stride, as: Sample.self)
        }
        count &+= 1
    }

    /// Changes every sample in place through `update` (oldest first).
    @inlinable
    mutating func updateEachSample(_ update: (inout Sample) -> Void) {
        for i in 0..<count {
            let index = slot(i)
            withUnsafeMutableBytes(of: &storage) { raw in
                let offset = index * MemoryLayout<Sample>.stride
                var s = raw.load(fromByteOffset: offset, as: Sample.self)
                update(&s)
                raw.storeBytes(of: s, toByteOffset: offset, as: Sample.self)
            }
        }
    }

    /// Re-expresses every sample's position through `transform` (used when the local plane is re-centred).
    @inlinable
    mutating func transformPositions(_ transform: (Double, Double) -> (Double, Double)) {
        updateEachSample { (($0.east, $0.north) = transform($0.east, $0.north)) }
    }

    /// Takes the Doppler readings up to a running total of `throughDopplerSeconds` out of the window: every
    /// sample's Doppler seconds is raised to at least it, so the window counts only readings after it (used while
    /// a run of overruled readings lasts: ``Tracker``'s `judgeContradictedReadings(thresholdMetres:now:)`).
    @usableFromInline
    mutating func excludeReadings(throughDopplerSeconds seconds: Double) {
        updateEachSample { $0.dopplerSeconds = max($0.dopplerSeconds, seconds) }
    }

    /// Lowers every sample's held-distance candidates to at most `floor` (Doppler, filtered): a release from any of
    /// them then counts from `floor` on (used when a run of overruled readings, begun before the window, is
    /// confirmed: ``Tracker``'s `judgeContradictedReadings(thresholdMetres:now:)`).
    @usableFromInline
    mutating func lowerCandidates(toAtMost floor: SIMD2<Double>) {
        updateEachSample {
            $0.candidateDoppler = min($0.candidateDoppler, floor.x)
            $0.candidateFiltered = min($0.candidateFiltered, floor.y)
        }
    }

    /// Empties the ring.
    @inlinable
    mutating func removeAll() {
        head = 0
        count = 0
    }
}
