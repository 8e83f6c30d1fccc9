import Testing
import TrueTrackCore
import TrueTrackSimulation

/// ``TrackingProfile/validate()``: a profile no tracker can work with is refused with the setting named, before a
/// tracker counts 0 m on it without a word.
@Suite struct TrackingProfileValidationTests {
    @Test(arguments: TrackingProfile.Kind.allCases)
    func everyPresetIsValid(kind: TrackingProfile.Kind) throws {
        #expect(TrackingProfile.preset(kind).invalidSettings.isEmpty)
        try TrackingProfile.preset(kind).validate()
    }

    /// An API tester's three: each made the tracker count 0 m of a 700 m walk silently.
    @Test func theSettingsThatCountedNothingAreNamed() {
        let cases: [(String, (inout TrackingProfile) -> Void)] = [
            ("maximumIntegrationSeconds", { $0.maximumIntegrationSeconds = 0 }),
            ("filterResetGapSeconds", { $0.filterResetGapSeconds = -1 }),
            ("accelerationSigma", { $0.accelerationSigma = .nan }),
        ]
        for (field, change) in cases {
            let profile = TrackingProfile.custom(from: .walking, change)
            #expect(profile.invalidSettings.map(\.field) == [field])
            #expect(throws: TrackingProfileError.self) { try profile.validate() }
            do {
                try profile.validate()
            } catch {
                #expect(error.field == field)
                #expect(error.description.hasPrefix("\(field) is "), "\(error.description)")
            }
        }
    }

    @Test func countsOutOfRangeAndEveryBadSettingAreListed() {
        let profile = TrackingProfile.custom(from: .driving) {
            $0.rejectionsBeforeReanchor = 0
            $0.activityConfidenceThreshold = 101
            $0.deadbandMetresPerSecond = .infinity
            $0.vehicleExitSeconds = -5
        }
        #expect(
            Set(profile.invalidSettings.map(\.field))
                == [
                    "rejectionsBeforeReanchor", "activityConfidenceThreshold", "deadbandMetresPerSecond",
                    "vehicleExitSeconds",
                ])
        // A count reads as a count, a fraction as a fraction (an API tester read "rejectionsBeforeReanchor is 0.0").
        #expect(
            profile.invalidSettings.map(\.description).first
                == "rejectionsBeforeReanchor is 0: it must be a count of 1 or more")
        let halfSecond = TrackingProfile.custom(from: .walking) { $0.vehicleExitSeconds = -0.5 }
        #expect(
            halfSecond.invalidSettings.map(\.description) == [
                "vehicleExitSeconds is -0.5: it must be a number of 0 or more"
            ])
    }

    /// ∞ where it reads "no limit", 0 where it reads "off", and the settings documented as taking any value.
    /// Every "no limit" a valid profile may hold runs: an exit time of ∞ (or 1e300) for the vehicle latch trapped
    /// converting to milliseconds when a confident on-foot reading came during the latch's slow spell (an API
    /// tester's, a bus ride inside a walk with activity readings).
    @Test("runs a valid profile whose vehicle exit time is no limit", arguments: [Double.infinity, 1e300])
    func runsAProfileWithoutAVehicleExitLimit(exitSeconds: Double) throws {
        var profile = TrackingProfile.walking
        profile.vehicleExitSeconds = exitSeconds
        try profile.validate()
        var errors = ErrorModel.cleanPhone
        errors.activityConfidence = 100
        let run = Simulator.simulate(.busRideInsideWalk, errors: errors, seed: 1)
        var tracker = Tracker(profile: profile)
        var total = 0.0
        for fix in run.fixes {
            let decision = tracker.process(fix)
            #expect(decision.totalDistanceMetres >= total)
            total = decision.totalDistanceMetres
        }
        #expect(total.isFinite && total > 0)
    }

    @Test func noLimitOffAndIgnoredValuesAreValid() {
        let profile = TrackingProfile.custom(from: .walking) {
            $0.maximumAccuracyMetres = .infinity
            $0.maximumSustainedSpeedMetresPerSecond = .infinity
            $0.maximumBridgedGapSeconds = 0
            $0.sessionBreakSeconds = 0
            $0.departureConfirmationSeconds = 0
            $0.netDisplacementNoiseSigmas = 0
            $0.accelerationSigmaWithoutDoppler = .nan
            $0.positionFilterAccelerationSigma = -1
            $0.minimumMeasurementNoiseScale = .infinity
        }
        #expect(profile.invalidSettings.isEmpty, "\(profile.invalidSettings)")
    }
}
