/// A fixed-capacity ring of samples of the filtered track, at least one second apart, spanning the last
/// ``TrackingProfile/windowSeconds`` (internal; stored inline, so it never allocates).
///
/// Each sample holds running sums (Doppler path, candidate distance per source, accuracy, fix count), so any
/// quantity over the window is the difference between the newest sums and the oldest sample's.
@usableFromInline
struct TrailingWindow: Sendable {
    /// One snapshot of the track and the running sums.
    @usableFromInline
    struct Sample: Sendable {
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

        @usableFromInline static let empty = Sample(
            milliseconds: 0, east: 0, north: 0, dopplerPath: 0, dopplerSeconds: 0, positionPath: 0, candidateDoppler: 0, candidateFiltered: 0,
            accuracySum: 0, fixCount: 0)
    }

    /// Capacity of the ring.
    @usableFromInline static let capacity = 32
    /// The longest window the ring can hold at one sample per second (one slot spare).
    @usableFromInline static let maximumSpanSeconds = 30.0
    /// The minimum spacing between samples, milliseconds (1 s: 1 Hz is the usual fix rate; faster fixes are
    /// sampled, not all stored).
    @usableFromInline static let spacingMilliseconds: Int64 = 1000

    @usableFromInline var storage: (TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample, TrailingWindow.Sample)
    /// Index of the oldest sample.
    @usableFromInline var head = 0
    /// Number of samples held.
    @usableFromInline var count = 0

    @usableFromInline
    init() {
        let e = Sample.empty
        storage = (e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e)
    }

    /// The sample at position `i` from the oldest (0 ≤ i < count). Mutating only so that the inline storage
    /// is read in place: a non-mutating read would copy the whole ring first.
    @inlinable @inline(__always)
    mutating func sample(_ i: Int) -> Sample {
        var index = head + i
        if index >= Self.capacity { index -= Self.capacity }
        return withUnsafeMutableBytes(of: &storage) { raw in
            raw.load(fromByteOffset: index * MemoryLayout<Sample>.stride, as: Sample.self)
        }
    }

    /// The oldest sample, if any.
    @inlinable @inline(__always)
    mutating func oldest() -> Sample? { count > 0 ? sample(0) : nil }

    /// Drops samples older than `now − spanMilliseconds`.
    @inlinable @inline(__always)
    mutating func dropOlder(than now: Int64, spanMilliseconds: Int64) {
        while count > 0 && sample(0).milliseconds < now - spanMilliseconds {
            head += 1
            if head == Self.capacity { head = 0 }
            count -= 1
        }
    }

    /// Appends `s` when it is at least ``spacingMilliseconds`` after the newest sample (or the ring is empty);
    /// a full ring drops its oldest sample.
    @inlinable @inline(__always)
    mutating func append(_ s: Sample) {
        if count > 0 && s.milliseconds - sample(count - 1).milliseconds < Self.spacingMilliseconds { return }
        if count == Self.capacity {
            head += 1
            if head == Self.capacity { head = 0 }
            count -= 1
        }
        var index = head + count
        if index >= Self.capacity { index -= Self.capacity }
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.storeBytes(of: s, toByteOffset: index * MemoryLayout<Sample>.stride, as: Sample.self)
        }
        count += 1
    }

    /// Re-expresses every sample's position through `transform` (used when the local plane is re-centred).
    @inlinable
    mutating func transformPositions(_ transform: (Double, Double) -> (Double, Double)) {
        for i in 0..<count {
            var index = head + i
            if index >= Self.capacity { index -= Self.capacity }
            withUnsafeMutableBytes(of: &storage) { raw in
                let offset = index * MemoryLayout<Sample>.stride
                var s = raw.load(fromByteOffset: offset, as: Sample.self)
                (s.east, s.north) = transform(s.east, s.north)
                raw.storeBytes(of: s, toByteOffset: offset, as: Sample.self)
            }
        }
    }

    /// Empties the ring.
    @inlinable
    mutating func removeAll() {
        head = 0
        count = 0
    }
}
