/// A ``StopDetector``'s whole state as bytes: persisted with the session, a restarted process resumes its stops
/// exactly.
///
/// ## Why
/// A fresh detector after a restart starts STATIONARY with an empty window: a committed stop was committed a
/// second time, a stop's start was lost (a stop reported from the restart instead of from its arrival), a stop
/// left open never ended, a walk got a spurious departure (API tester, 2026-11-30). Resumed from a checkpoint,
/// the detector emits exactly the events it would have emitted without the restart (tested).
///
/// ## Format
/// ``CheckpointFormat``'s header with magic `TTsd`, then each field's raw bytes in a fixed order and the motion
/// window's live entries (count, then entries oldest first): from about 0.4 KB, growing with the window (at most
/// 512 entries of 48 bytes: about 25 KB). Refused (``CheckpointError``) when written by another build or on a
/// CPU of another byte order or word size, or damaged.
public struct StopDetectorCheckpoint: Sendable, Hashable {
    /// The encoded state, as written by ``StopDetector/checkpoint()``.
    public var bytes: [UInt8]

    /// Wraps bytes read back from storage; they are checked when a detector resumes from them.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static let magic: StaticString = "TTsd"
    /// Computed once per process (reflection over the detector's fields, and over a value of each type it
    /// holds behind an optional).
    static let layoutFingerprint = CheckpointFormat.layoutFingerprint(of: layoutSamples)
    /// The detector and one non-nil value of each type it holds behind an optional.
    static var layoutSamples: Any {
        let time = Timestamp(millisecondsSince1970: 0)
        let reading = ActivityReading(kind: .walking, confidence: 50)
        let evidence = MotionEvidence(
            timestamp: time, latitude: 0, longitude: 0, accuracyMetres: 1, speedMetresPerSecond: 1,
            speedSource: .doppler, activity: reading)
        return (
            StopDetector(), StopPoint(latitude: 0, longitude: 0), time, evidence,
            StopAccumulator(latitude: 0, longitude: 0, milliseconds: 0), DepartureTrigger.speed, Int64(0)
        )
    }
}

extension StopDetector {
    /// The stored fields in the order the checkpoint writes them; a test compares this list with the fields
    /// reflection finds, so a field added to the detector cannot be left out of its checkpoint unnoticed.
    static let checkpointFieldLabels = [
        "profile", "state", "isStopCommitted", "anchor", "countdownArmedAt", "verdict", "lastDepartureTrigger",
        "lastEvidence", "window", "armPoint", "accumulator", "triggerStreak", "manualPauseMilliseconds",
        "countdownSilenceMilliseconds", "isPausedByUser",
        "lastHeartbeatMilliseconds",
        "departureMilliseconds", "trackerMovingMilliseconds", "activity", "activityMilliseconds", "staleRun",
        "jumpMilliseconds",
        "beforeJumpMilliseconds", "rhythm", "stillReadingsStart",
    ]

    /// The detector's whole state, to persist and resume from with ``init(resuming:)`` (see
    /// ``StopDetectorCheckpoint``).
    public func checkpoint() -> StopDetectorCheckpoint {
        var bytes = CheckpointFormat.header(
            magic: StopDetectorCheckpoint.magic, fingerprint: StopDetectorCheckpoint.layoutFingerprint,
            reserving: MemoryLayout<StopDetector>.size + window.count * MemoryLayout<MotionWindow.Entry>.size)
        func put<T: BitwiseCopyable>(_ value: T) { CheckpointFormat.append(value, to: &bytes) }
        put(profile)
        put(state)
        put(isStopCommitted)
        put(anchor)
        put(countdownArmedAt)
        put(verdict)
        put(lastDepartureTrigger)
        put(lastEvidence)
        put(window.count)
        for i in 0..<window.count { put(window.entry(i)) }
        put(armPoint)
        put(accumulator)
        put(triggerStreak)
        put(manualPauseMilliseconds)
        put(countdownSilenceMilliseconds)
        put(isPausedByUser)
        put(lastHeartbeatMilliseconds)
        put(departureMilliseconds)
        put(trackerMovingMilliseconds)
        put(activity)
        put(activityMilliseconds)
        put(staleRun)
        put(jumpMilliseconds)
        put(beforeJumpMilliseconds)
        put(rhythm)
        put(stillReadingsStart)
        CheckpointFormat.seal(&bytes)
        return StopDetectorCheckpoint(bytes: bytes)
    }

    /// Resumes the detector a checkpoint was taken from: state, anchor, countdown, window, pending stop.
    ///
    /// - Throws: ``CheckpointError`` when the bytes are not a stop-detector checkpoint this build wrote;
    ///   nothing is loaded then.
    public init(resuming checkpoint: StopDetectorCheckpoint) throws(CheckpointError) {
        let contents = try CheckpointFormat.contents(
            of: checkpoint.bytes, magic: StopDetectorCheckpoint.magic,
            fingerprint: StopDetectorCheckpoint.layoutFingerprint)
        var reader = CheckpointReader(contents)
        self.init(profile: try reader.read())
        state = try reader.read()
        isStopCommitted = try reader.read()
        anchor = try reader.read()
        countdownArmedAt = try reader.read()
        verdict = try reader.read()
        lastDepartureTrigger = try reader.read()
        lastEvidence = try reader.read()
        let count: Int = try reader.read()
        guard (0...MotionWindow.capacity).contains(count) else { throw .damaged }
        for _ in 0..<count { window.restore(try reader.read(MotionWindow.Entry.self)) }
        armPoint = try reader.read()
        accumulator = try reader.read()
        triggerStreak = try reader.read()
        manualPauseMilliseconds = try reader.read()
        countdownSilenceMilliseconds = try reader.read()
        isPausedByUser = try reader.read()
        lastHeartbeatMilliseconds = try reader.read()
        departureMilliseconds = try reader.read()
        trackerMovingMilliseconds = try reader.read()
        activity = try reader.read()
        activityMilliseconds = try reader.read()
        staleRun = try reader.read()
        jumpMilliseconds = try reader.read()
        beforeJumpMilliseconds = try reader.read()
        rhythm = try reader.read()
        stillReadingsStart = try reader.read()
        try reader.finish()
    }
}
