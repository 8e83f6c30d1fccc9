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

    /// How long (seconds) times may have been accepted after a forward jump for times inside it to be judged
    /// (``isInsideForwardJump(_:before:jump:latest:minimumJumpSeconds:metresFromLatest:)``): 120. Why: a clock slip's
    /// block of fixes stamped ahead is short; a real silence followed by fresh fixes and then a backlog from inside it
    /// looks the same, and the CLI's summary then leaves the fresh fixes out as wrongly dated (a reviewer's walk with
    /// 550 s of them: a stop shortened by half, 500 m in the wrong trip); two minutes bound that.
    @usableFromInline static let judgedJumpFollowSeconds = 120.0

    /// Whether a time `now` (ms) lies inside the last forward jump, from `before` (the latest time before the
    /// jump) to `jump` (the first time after it), and that jump can be judged wrong: it is longer than
    /// `minimumJumpSeconds`, and times were accepted after it up to `latest` for no longer than
    /// ``judgedJumpFollowSeconds``. Then ordered times inside it may restart the caller at any age
    /// (``completes(at:latest:seconds:length:)`` with 0 seconds): a fix or a short block stamped hours ahead (a
    /// time-zone slip) no longer freezes the ``Tracker`` and the ``StopDetector`` until the clock catches up.
    ///
    /// A session's first time (`before` is `.min`) is a jump from nowhere: a time counts when it lies more than
    /// `minimumJumpSeconds` before it, times were accepted after it for no longer than
    /// ``judgedFirstJumpFollowSeconds``, and the fix is within ``firstJumpReachMetres`` of the session's last
    /// position (`metresFromLatest`): it continues the track, as the fixes after a first fix stamped ahead do.
    /// Why: a first fix stamped an hour ahead otherwise lost the whole track (0 m of a tester's 621.5 m walk);
    /// but fixes older than a session's fresh ones are otherwise a delivery from before the session, whose path
    /// is not the session's (a reviewer's 60 fixes from 30 minutes earlier and 500 m away, delivered after the
    /// first live fix, counted 78 m and left the right first fix out before the distance condition).
    @usableFromInline
    static func isInsideForwardJump(
        _ now: Int64, before: Int64, jump: Int64, latest: Int64, minimumJumpSeconds: Double,
        metresFromLatest: Double
    ) -> Bool {
        guard now < jump else { return false }
        let follow = (Double(latest) - Double(jump)) / 1000
        if before == .min {
            return (Double(jump) - Double(now)) / 1000 > minimumJumpSeconds && follow <= judgedFirstJumpFollowSeconds
                && metresFromLatest <= firstJumpReachMetres
        }
        return now > before && (Double(jump) - Double(before)) / 1000 > minimumJumpSeconds
            && follow <= judgedJumpFollowSeconds
    }

    /// How long (seconds) times may have been accepted after a session's first time for times more than the minimum
    /// jump before it to be judged
    /// (``isInsideForwardJump(_:before:jump:latest:minimumJumpSeconds:metresFromLatest:)``): 30. Why: a first fix, or a
    /// logger's first rows, stamped ahead are followed at once by the older times that prove them wrong; older fixes
    /// after the session's first half minute are a delivery from before it (an hour-old batch after 100 s of fresh
    /// fixes stays ignored).
    @usableFromInline static let judgedFirstJumpFollowSeconds = 30.0

    /// How far (metres) a fix older than a session's first may lie from the session's last position and still count as
    /// its time being the wrong one
    /// (``isInsideForwardJump(_:before:jump:latest:minimumJumpSeconds:metresFromLatest:)``): 200. Why: the fixes after
    /// a first fix stamped ahead follow it by seconds (a car at 1 Hz: 90 m by the third), while a delivery from before
    /// the session starts where the device was then.
    @usableFromInline static let firstJumpReachMetres = 200.0

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
