import Testing
import TrueTrackCore

/// ``StopDetectionProfile/validate()``: a profile no stop detector can work with is refused with the setting named,
/// before a detector reports no stop (or stops of 0 s) on it without a word.
@Suite struct StopDetectionProfileValidationTests {
    @Test(arguments: TrackingProfile.Kind.allCases)
    func everyPresetIsValid(kind: TrackingProfile.Kind) throws {
        #expect(StopDetectionProfile.preset(kind).invalidSettings.isEmpty)
        try StopDetectionProfile.preset(kind).validate()
    }

    /// An API tester's settings (2026-12-04): each gave no stop at all, or stops of 0 s.
    @Test func theSettingsThatFoundNoStopAreNamed() {
        let cases: [(String, (inout StopDetectionProfile) -> Void)] = [
            ("stopTimeoutSeconds", { $0.stopTimeoutSeconds = .nan }),
            ("stopTimeoutSeconds", { $0.stopTimeoutSeconds = .infinity }),
            ("stopTimeoutSeconds", { $0.stopTimeoutSeconds = 1e300 }),
            ("stopTimeoutSeconds", { $0.stopTimeoutSeconds = -5 }),
            ("exitConfirmationFixes", { $0.exitConfirmationFixes = 0 }),
            ("exitConfirmationFixes", { $0.exitConfirmationFixes = -3 }),
            ("stillSpeedMetresPerSecond", { $0.stillSpeedMetresPerSecond = 0 }),
            ("heartbeatIntervalSeconds", { $0.heartbeatIntervalSeconds = 0 }),
        ]
        for (field, change) in cases {
            var profile = StopDetectionProfile.walking
            change(&profile)
            #expect(profile.invalidSettings.map(\.field) == [field])
            #expect(throws: StopDetectionProfileError.self) { try profile.validate() }
            do {
                try profile.validate()
            } catch {
                #expect(error.field == field)
                #expect(error.description.hasPrefix("\(field) is "), "\(error.description)")
            }
        }
        var negative = StopDetectionProfile.walking
        negative.stopTimeoutSeconds = -5
        #expect(
            negative.invalidSettings.map(\.description) == [
                "stopTimeoutSeconds is -5: it must be a number of seconds from 0 to 86,400 (a day)"
            ])
    }

    /// ∞ where it reads "never", 0 where it reads "at once", no heartbeat: all valid.
    @Test func neverAtOnceAndNoHeartbeatAreValid() {
        var profile = StopDetectionProfile.driving
        profile.stationaryRadiusMetres = .infinity
        profile.triggerSpeedMetresPerSecond = .infinity
        profile.maximumAccuracyMetres = .infinity
        profile.stopTimeoutSeconds = 0
        profile.activityValiditySeconds = 0
        profile.stillRadiusBaseMetres = 0
        profile.heartbeatIntervalSeconds = nil
        profile.maximumWindowSeconds = .nan
        #expect(profile.invalidSettings.isEmpty, "\(profile.invalidSettings)")
    }
}
