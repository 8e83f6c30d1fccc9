/// A run of fix times far older than the latest accepted one: the evidence that the latest time was the wrong
/// one (a receiver's clock fault, a GPS week-number rollover, a record dated 9999). The ``Tracker`` and the
/// ``StopDetector`` each keep one, so that one wrong time cannot freeze them for good, while a delayed batch
/// (minutes to an hour old) stays an out-of-order delivery.
@usableFromInline
struct ClockJumpRun: Sendable, BitwiseCopyable, Hashable {
    /// How many such times in a row, the newest of them, and the latest accepted time they were compared with.
    @usableFromInline var count = 0
    @usableFromInline var newestMilliseconds: Int64 = .min
    @usableFromInline var referenceMilliseconds: Int64 = .min

    @usableFromInline init() {}

    /// Records a time `now` (ms) that is not newer than the latest accepted one, `latest` (ms). Returns true once
    /// `length` of them have arrived in a row, in order among themselves, each at least `seconds` older than
    /// `latest`, with nothing accepted in between (a newer accepted time changes `latest` and starts a new run).
    /// A time less than `seconds` older neither counts nor breaks the run.
    @usableFromInline
    mutating func completes(at now: Int64, latest: Int64, seconds: Double, length: Int) -> Bool {
        // In doubles: any two representable times differ by less than Int64 can hold, but a caller's need not.
        guard (Double(latest) - Double(now)) / 1000 >= seconds else { return false }
        if count > 0 && referenceMilliseconds == latest && now > newestMilliseconds {
            count += 1
        } else {
            count = 1
        }
        newestMilliseconds = now
        referenceMilliseconds = latest
        return count >= length
    }
}
