/// A setting of a ``TrackingProfile`` that no tracker can work with (``TrackingProfile/validate()``).
public enum TrackingProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting `field` holds `value`, which is not `requirement` (e.g. "a number above 0").
    case invalidSetting(field: String, value: Double, requirement: String)

    /// The name of the setting, as the property is named (e.g. `maximumIntegrationSeconds`).
    public var field: String {
        switch self {
        case .invalidSetting(let field, _, _): field
        }
    }

    /// A human description, e.g. `maximumIntegrationSeconds is 0: it must be a number above 0`. Whole values
    /// print without a fraction (a count of 0 is not "0.0"), others as Swift prints a `Double` (`-0.5`, `nan`).
    public var description: String {
        switch self {
        case .invalidSetting(let field, let value, let requirement):
            let shown = value.rounded() == value && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
            return "\(field) is \(shown): it must be \(requirement)"
        }
    }
}

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
        var errors: [TrackingProfileError] = []
        func check(_ field: String, _ value: Double, _ requirement: String, _ isValid: Bool) {
            if !isValid { errors.append(.invalidSetting(field: field, value: value, requirement: requirement)) }
        }
        func above0(_ field: String, _ value: Double) {
            check(field, value, "a number above 0", value > 0)
        }
        func finiteAbove0(_ field: String, _ value: Double) {
            check(field, value, "a finite number above 0", value > 0 && value.isFinite)
        }
        func atLeast0(_ field: String, _ value: Double) {
            check(field, value, "a number of 0 or more", value >= 0)
        }
        func finiteAtLeast0(_ field: String, _ value: Double) {
            check(field, value, "a finite number of 0 or more", value >= 0 && value.isFinite)
        }
        above0("maximumAccuracyMetres", maximumAccuracyMetres)
        finiteAbove0("assumedAccuracyMetres", assumedAccuracyMetres)
        above0("maximumSpeedMetresPerSecond", maximumSpeedMetresPerSecond)
        finiteAbove0("accelerationSigma", accelerationSigma)
        above0("outlierChiSquare", outlierChiSquare)
        check(
            "rejectionsBeforeReanchor", Double(rejectionsBeforeReanchor), "a count of 1 or more",
            rejectionsBeforeReanchor >= 1)
        above0("filterResetGapSeconds", filterResetGapSeconds)
        above0("clockJumpSeconds", clockJumpSeconds)
        atLeast0("maximumBridgedGapSeconds", maximumBridgedGapSeconds)
        atLeast0("sessionBreakSeconds", sessionBreakSeconds)
        finiteAbove0("assumedSpeedAccuracyMetresPerSecond", assumedSpeedAccuracyMetresPerSecond)
        finiteAbove0("assumedCourseAccuracyDegrees", assumedCourseAccuracyDegrees)
        finiteAtLeast0("deadbandMetresPerSecond", deadbandMetresPerSecond)
        above0("maximumIntegrationSeconds", maximumIntegrationSeconds)
        finiteAtLeast0("netDisplacementBaseMetres", netDisplacementBaseMetres)
        finiteAtLeast0("netDisplacementAccuracyFactor", netDisplacementAccuracyFactor)
        finiteAtLeast0("dopplerTrustRatio", dopplerTrustRatio)
        atLeast0("dopplerEvidenceMetres", dopplerEvidenceMetres)
        finiteAtLeast0("dopplerConsistentRatio", dopplerConsistentRatio)
        finiteAtLeast0("motionDopplerSpeedMetresPerSecond", motionDopplerSpeedMetresPerSecond)
        finiteAbove0("measurementNoiseScaleFixes", measurementNoiseScaleFixes)
        above0("maximumSustainedSpeedMetresPerSecond", maximumSustainedSpeedMetresPerSecond)
        check(
            "activityConfidenceThreshold", Double(activityConfidenceThreshold), "a confidence within 0...100",
            (0...100).contains(activityConfidenceThreshold))
        atLeast0("activityValiditySeconds", activityValiditySeconds)
        atLeast0("vehicleExitSeconds", vehicleExitSeconds)
        atLeast0("departureConfirmationSeconds", departureConfirmationSeconds)
        finiteAbove0("assumedDisplacementAccuracyMetres", assumedDisplacementAccuracyMetres)
        finiteAtLeast0("netDisplacementNoiseSigmas", netDisplacementNoiseSigmas)
        return errors
    }

    /// Throws the first of ``invalidSettings``, if any: call it on a profile that did not come from a preset
    /// unchanged (changed in code, or loaded from configuration) before handing it to a ``Tracker``.
    public func validate() throws(TrackingProfileError) {
        if let first = invalidSettings.first { throw first }
    }
}
