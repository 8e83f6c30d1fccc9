import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// The trusted Doppler readings as the judge of term 4's white-part track (``TrustedVelocities``,
/// ``SmoothedTrack/distanceModelDifferenceIncludedMetres``).
@Suite struct TrustedVelocitiesTests {
    /// A walk whose fixes drift with a Gauss–Markov error (8 m claimed, τ 60 s, 0.5 m white) and whose Doppler
    /// readings are honest (σ 0.15 m/s): the fixes' epoch-to-epoch scatter reads a white part of about a tenth of
    /// the accuracy, and the track smoothed with it follows the drift.
    static func driftingWalk(seed: UInt64, zerosWhileMoving: Double = 0) -> SimulatedTrack {
        var errors = ErrorModel(accuracyMetres: 8, correlationSeconds: 60)
        errors.whiteSigmaMetres = 0.5
        errors.zeroSpeedWhileMovingProbability = zerosWhileMoving
        return Simulator.simulate(.walkWithStops, errors: errors, seed: seed)
    }

    /// The white-part track's velocities misfit the readings several times as badly as the reported track's, so
    /// the distance is the reported track's length (the white-part track's is the reported one plus the term):
    /// measured +3.0 … +13.8 % on the white-part track, −2.9 … +6.3 % now (seeds 1–10).
    @Test func takesTheReportedTrackWhenTrustedReadingsDenyTheWhitePartsWander() {
        var reported = 0.0, white = 0.0
        for seed in 1...5 as ClosedRange<UInt64> {
            let walk = Self.driftingWalk(seed: seed)
            let track = WholeTrackSmoother(profile: .walking).smooth(walk.fixes)
            guard let ratio = track.whitePartVelocityMisfitRatio else {
                Issue.record("seed \(seed): the readings were not compared")
                continue
            }
            #expect(ratio > WholeTrackSmoother.deniedMisfitRatio, "seed \(seed)")
            #expect(track.distanceModelDifferenceMetres > 0, "seed \(seed)")
            #expect(track.distanceModelDifferenceIncludedMetres == 0, "seed \(seed)")
            reported += abs(track.distanceMetres - walk.truthDistanceMetres)
            white += abs(track.distanceMetres + track.distanceModelDifferenceMetres - walk.truthDistanceMetres)
            // The term still counts in σ: the truth within ±2σ.
            #expect(abs(track.distanceMetres - walk.truthDistanceMetres) <= 2 * track.distanceSigmaMetres)
        }
        #expect(reported < 0.5 * white, "summed |error| \(reported) m against \(white) m on the white-part track")
    }

    /// The same walk with a Samsung-like column (0 on 30 % of the moving fixes): the forward filter distrusts
    /// most of the readings, they judge nothing, and the distance stays the white-part track's.
    @Test func leavesTheChoiceToThePositionsWhenTheReadingsAreDistrusted() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let walk = Self.driftingWalk(seed: seed, zerosWhileMoving: 0.3)
            let track = WholeTrackSmoother(profile: .walking).smooth(walk.fixes)
            #expect(track.whitePartVelocityMisfitRatio == nil, "seed \(seed)")
            #expect(track.distanceModelDifferenceMetres != 0, "seed \(seed)")
            #expect(
                track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres, "seed \(seed)")
        }
    }

    /// White noise larger than the stated accuracy (5 m of error claiming 2.5 m): the white-part track is the
    /// smoother one, its velocities agree with the readings at least as well, and the distance is its length.
    @Test func keepsTheWhitePartTrackWhereTheReadingsAgreeWithIt() {
        for seed in 1...3 as ClosedRange<UInt64> {
            var errors = ErrorModel(accuracyMetres: 5, correlationSeconds: 1)
            errors.whiteSigmaMetres = 0
            var fixes = Simulator.simulate(.walk, errors: errors, seed: seed).fixes
            for i in fixes.indices { fixes[i].horizontalAccuracy = .metres(2.5) }
            let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
            #expect(track.whiteAccuracyScale > 1.42, "seed \(seed)")
            guard let ratio = track.whitePartVelocityMisfitRatio else {
                Issue.record("seed \(seed): the readings were not compared")
                continue
            }
            #expect(ratio < 1, "seed \(seed)")
            #expect(
                track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres, "seed \(seed)")
        }
    }

    /// Too few readings judge nothing: a walk with readings on fewer than ``WholeTrackSmoother/minimumTrustedVelocities``
    /// fixes keeps the white-part track whatever they say.
    @Test func aFewReadingsJudgeNothing() {
        let walk = Self.driftingWalk(seed: 1)
        var fixes = walk.fixes
        for i in fixes.indices where i % 100 != 0 {
            fixes[i].speedMetresPerSecond = nil
            fixes[i].courseDegrees = nil
        }
        #expect(fixes.count(where: { $0.speedMetresPerSecond != nil }) < WholeTrackSmoother.minimumTrustedVelocities)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.whitePartVelocityMisfitRatio == nil)
        #expect(track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres)
    }
}
