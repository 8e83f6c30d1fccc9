extension TrackingProfile {
    /// The settings no tracker can work with, each as an error naming it; empty for every preset.
    ///
    /// Why: a profile changed in code, or loaded from an app's remote configuration, with a NaN σₐ, a zero
    /// integration limit or a negative reset gap made the tracker count 0 m without a word (an API tester).
    /// Only values that are wrong whatever the use are listed: NaN anywhere it is not documented as "ignored",
    /// a zero or negative value where the setting is a positive length, time, speed or σ, a negative one where 0
    /// means "off", and counts out of their range. Settings documented as accepting any value
    /// (``accelerationSigmaWithoutDoppler``, ``positionFilterAccelerationSigma``, ``minimumMeasurementNoiseScale``)
    /// and ``windowSeconds`` (clamped when set) are not checked. ∞ is allowed where it reads as "no limit".
    public var invalidSettings: [TrackingProfileError] {
        var checks = SettingChecks()
        checks.above0("maximumAccuracyMetres", maximumAccuracyMetres)
        checks.finiteAbove0("assumedAccuracyMetres", assumedAccuracyMetres)
        checks.above0("maximumSpeedMetresPerSecond", maximumSpeedMetresPerSecond)
        checks.finiteAbove0("accelerationSigma", accelerationSigma)
        checks.above0("outlierChiSquare", outlierChiSquare)
        checks.countAtLeast1("rejectionsBeforeReanchor", rejectionsBeforeReanchor)
        checks.above0("filterResetGapSeconds", filterResetGapSeconds)
        checks.above0("clockJumpSeconds", clockJumpSeconds)
        checks.atLeast0("maximumBridgedGapSeconds", maximumBridgedGapSeconds)
        checks.atLeast0("sessionBreakSeconds", sessionBreakSeconds)
        checks.finiteAbove0("assumedSpeedAccuracyMetresPerSecond", assumedSpeedAccuracyMetresPerSecond)
        checks.finiteAbove0("assumedCourseAccuracyDegrees", assumedCourseAccuracyDegrees)
        checks.finiteAtLeast0("deadbandMetresPerSecond", deadbandMetresPerSecond)
        checks.above0("maximumIntegrationSeconds", maximumIntegrationSeconds)
        checks.finiteAtLeast0("netDisplacementBaseMetres", netDisplacementBaseMetres)
        checks.finiteAtLeast0("netDisplacementAccuracyFactor", netDisplacementAccuracyFactor)
        checks.finiteAtLeast0("dopplerTrustRatio", dopplerTrustRatio)
        checks.atLeast0("dopplerEvidenceMetres", dopplerEvidenceMetres)
        checks.finiteAtLeast0("dopplerConsistentRatio", dopplerConsistentRatio)
        checks.finiteAtLeast0("motionDopplerSpeedMetresPerSecond", motionDopplerSpeedMetresPerSecond)
        checks.finiteAbove0("measurementNoiseScaleFixes", measurementNoiseScaleFixes)
        checks.above0("maximumSustainedSpeedMetresPerSecond", maximumSustainedSpeedMetresPerSecond)
        checks.confidence("activityConfidenceThreshold", activityConfidenceThreshold)
        checks.atLeast0("activityValiditySeconds", activityValiditySeconds)
        checks.atLeast0("vehicleExitSeconds", vehicleExitSeconds)
        checks.atLeast0("departureConfirmationSeconds", departureConfirmationSeconds)
        checks.finiteAbove0("assumedDisplacementAccuracyMetres", assumedDisplacementAccuracyMetres)
        checks.finiteAtLeast0("netDisplacementNoiseSigmas", netDisplacementNoiseSigmas)
        return checks.failures
    }

    /// Throws the first of ``invalidSettings``, if any: call it on a profile that did not come from a preset
    /// unchanged (changed in code, or loaded from configuration) before handing it to a ``Tracker``.
    public func validate() throws(TrackingProfileError) {
        if let first = invalidSettings.first { throw first }
    }
}
