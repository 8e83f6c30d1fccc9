extension StopDetectionProfile {
    /// The settings no stop detector can work with, each as an error naming it; empty for every preset.
    ///
    /// Why: a profile changed in code or loaded from an app's remote configuration with a stop timeout of NaN, ∞
    /// or 1e300, or `exitConfirmationFixes` of 0, made the detector report no stop at all, and a timeout of −5
    /// stops of 0 s, without a word (an API tester, 2026-12-04). As ``TrackingProfile/invalidSettings``: only
    /// values wrong whatever the use are listed (NaN, a zero or negative length, time or speed, a negative value
    /// where 0 means "at once", counts out of their range); ∞ is allowed where it reads as "never" (a radius or
    /// speed no fix reaches, no heartbeat). ``windowSeconds`` (clamped when set) and ``maximumWindowSeconds``
    /// (clamped in ``horizonCapSeconds``) are not checked.
    public var invalidSettings: [StopDetectionProfileError] {
        var checks = SettingChecks()
        // A countdown must run out: a timeout of ∞, or longer than a day, is no stop detection at all.
        checks.check(
            "stopTimeoutSeconds", stopTimeoutSeconds, "a number of seconds from 0 to 86,400 (a day)",
            stopTimeoutSeconds >= 0 && stopTimeoutSeconds <= 86_400)
        checks.above0("stationaryRadiusMetres", stationaryRadiusMetres)
        checks.above0("pendingStopVetoMetres", pendingStopVetoMetres)
        checks.above0("triggerSpeedMetresPerSecond", triggerSpeedMetresPerSecond)
        checks.finiteAbove0("stillSpeedMetresPerSecond", stillSpeedMetresPerSecond)
        checks.finiteAtLeast0("stillRadiusBaseMetres", stillRadiusBaseMetres)
        checks.finiteAtLeast0("stillRadiusAccuracyFactor", stillRadiusAccuracyFactor)
        checks.finiteAbove0("assumedAccuracyMetres", assumedAccuracyMetres)
        checks.countAtLeast1("exitConfirmationFixes", exitConfirmationFixes)
        checks.finiteAbove0("gapSeconds", gapSeconds)
        checks.above0("clockJumpSeconds", clockJumpSeconds)
        checks.confidence("activityConfidenceThreshold", activityConfidenceThreshold)
        checks.atLeast0("activityValiditySeconds", activityValiditySeconds)
        if let heartbeat = heartbeatIntervalSeconds { checks.above0("heartbeatIntervalSeconds", heartbeat) }
        checks.above0("maximumAccuracyMetres", maximumAccuracyMetres)
        checks.finiteAbove0("slowestMovementMetresPerSecond", slowestMovementMetresPerSecond)
        return checks.failures
    }

    /// Throws the first of ``invalidSettings``, if any: call it on a profile that did not come from a preset
    /// unchanged (changed in code, or loaded from configuration) before handing it to a ``StopDetector``.
    public func validate() throws(StopDetectionProfileError) {
        if let first = invalidSettings.first { throw first }
    }
}
