extension Tracker {
    /// Which fixes of a recorded track carry a speed reading that a ``Tracker`` with `profile`, fed the fixes in
    /// time order (ties in input order), accepted and integrated as a trusted Doppler measurement: its decision's
    /// ``FixDecision/isDopplerTrusted`` holds and its ``FixDecision/speedSource`` is ``SpeedSource/doppler``.
    /// `result[i]` is about `fixes[i]`; a fix without a reading, a rejected one, and one whose reading the
    /// Doppler check distrusted (the tracker then counted its filter's speed) are `false`.
    ///
    /// For a whole-track smoother, which compares its tracks' lengths with the path the readings the forward
    /// filter believes integrate to (`WholeTrackSmoother`'s choice between its two readings of the fixes):
    /// readings that half-speed or stick at zero while the positions move on are distrusted there and judge
    /// nothing.
    ///
    /// - Complexity: O(n log n) for the time order (O(n) when sorted), one tracker pass (about 45 ns per fix) and
    ///   an array of n flags.
    public static func trustedSpeedReadings(in fixes: [Fix], profile: TrackingProfile) -> [Bool] {
        var tracker = Tracker(profile: profile)
        var trusted = [Bool](repeating: false, count: fixes.count)
        func take(_ i: Int) {
            let decision = tracker.process(fixes[i])
            trusted[i] =
                fixes[i].speedMetresPerSecond != nil && decision.isAccepted && decision.isDopplerTrusted
                && decision.speedSource == .doppler
        }
        if fixes.isInTimeOrder(by: \.timestamp) {
            for i in fixes.indices { take(i) }
        } else {
            for i in fixes.indicesInTimeOrder(by: \.timestamp) { take(i) }
        }
        return trusted
    }
}
