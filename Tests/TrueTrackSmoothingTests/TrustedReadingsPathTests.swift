import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// The trusted speed readings as the judge of term 4's white-part track (``TrustedReadingsPath``,
/// ``SmoothedTrack/speedReadingsCheck``, ``SmoothedTrack/distanceModelDifferenceIncludedMetres``).
@Suite struct TrustedReadingsPathTests {
    /// A walk with stops whose fixes drift with a Gauss–Markov error (8 m claimed, τ 60 s, 0.5 m white) and whose
    /// Doppler readings are honest (σ 0.15 m/s): the fixes' epoch-to-epoch scatter reads a white part of about a
    /// tenth of the accuracy, and the track smoothed with it follows the drift.
    static func driftingWalk(seed: UInt64, zerosWhileMoving: Double = 0) -> SimulatedTrack {
        var errors = ErrorModel(accuracyMetres: 8, correlationSeconds: 60)
        errors.whiteSigmaMetres = 0.5
        errors.zeroSpeedWhileMovingProbability = zerosWhileMoving
        return Simulator.simulate(.walkWithStops, errors: errors, seed: seed)
    }

    /// Where the readings deny the white-part track, the distance is the reported track's length, much nearer the
    /// truth (measured: denied on 9 of 10 seeds, those +42 … +83 m on the white-part track, +5 … +38 m now); σ
    /// counts the reported track's disagreement with the readings instead of the whole term.
    @Test func takesTheReportedTrackWhereTheReadingsDenyTheWhitePartsWander() throws {
        var denied = 0, reported = 0.0, white = 0.0
        for seed in 1...10 as ClosedRange<UInt64> {
            let walk = Self.driftingWalk(seed: seed)
            let track = WholeTrackSmoother(profile: .walking).smooth(walk.fixes)
            let check = try #require(track.speedReadingsCheck, "seed \(seed)")
            guard check.deniesWhitePart else {
                #expect(track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres)
                continue
            }
            denied += 1
            #expect(track.distanceModelDifferenceMetres > 0, "seed \(seed)")
            #expect(track.distanceModelDifferenceIncludedMetres == 0, "seed \(seed)")
            // The readings side with the reported track.
            #expect(
                abs(check.reportedTrackMetres - check.readingsMetres)
                    < check.whitePartTrackMetres - check.readingsMetres, "seed \(seed)")
            reported += abs(track.distanceMetres - walk.truthDistanceMetres)
            white += abs(track.distanceMetres + track.distanceModelDifferenceMetres - walk.truthDistanceMetres)
            #expect(abs(track.distanceMetres - walk.truthDistanceMetres) <= 2 * track.distanceSigmaMetres)
        }
        #expect(denied >= 5)
        #expect(reported < 0.5 * white, "summed |error| \(reported) m against \(white) m on the white-part track")
    }

    /// When the rule fires the distance is exactly the reported reading's (the term off), and σ² grows by exactly
    /// the square of what the readings leave of the term (the curve and still terms staying the reported track's;
    /// term 6 left out here): the reported track's disagreement with their path, in quadrature with the path's σ,
    /// scaled to its whole length, plus the white-part excess outside the compared steps — here less than the
    /// whole difference.
    @Test func aDeniedTermCountsInSigmaOnly() throws {
        let fixes = Self.driftingWalk(seed: 3).fixes
        var options = SmoothingOptions(profile: .walking)
        options.noiseLengtheningDraws = 0
        let on = WholeTrackSmoother(options: options).smooth(fixes)
        options.checksModelDependence = false
        let off = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(try #require(on.speedReadingsCheck).deniesWhitePart)
        #expect(abs(on.distanceMetres - off.distanceMetres) < 1e-9)
        let term = on.distanceModelDifferenceMetres
        #expect(term > 0)
        let check = try #require(on.speedReadingsCheck)
        let left = check.modelSigmaMetres(modelDifferenceMetres: term)
        #expect(abs(on.distanceModelSigmaMetres - left) < 1e-9 * left)
        #expect(left < term)
        let expected = (off.distanceSigmaMetres * off.distanceSigmaMetres + left * left).squareRoot()
        #expect(abs(on.distanceSigmaMetres - expected) < 1e-9 * expected)
        #expect(on.points == off.points)
    }

    /// The RTS reference solver reaches the same verdict and length as the banded one.
    @Test func theReferenceSolverAgrees() throws {
        let (banded, rts) = SmoothingSupport.bandedAndReference(Self.driftingWalk(seed: 3).fixes, profile: .walking)
        let a = try #require(banded.speedReadingsCheck), b = try #require(rts.speedReadingsCheck)
        #expect(a.deniesWhitePart && b.deniesWhitePart)
        #expect(abs(a.reportedTrackMetres - b.reportedTrackMetres) < 1e-3)
        #expect(abs(a.whitePartTrackMetres - b.whitePartTrackMetres) < 1e-3)
        #expect(abs(banded.distanceMetres - rts.distanceMetres) < 1e-3)
    }

    /// The same walk with a Samsung-like column (0 on 30 % of the moving fixes): the forward filter distrusts
    /// most of the readings, they judge nothing, and the distance stays the white-part track's.
    @Test func leavesTheChoiceToThePositionsWhenTheReadingsAreDistrusted() {
        for seed in 1...3 as ClosedRange<UInt64> {
            let walk = Self.driftingWalk(seed: seed, zerosWhileMoving: 0.3)
            let track = WholeTrackSmoother(profile: .walking).smooth(walk.fixes)
            #expect(track.speedReadingsCheck == nil, "seed \(seed)")
            #expect(track.distanceModelDifferenceMetres != 0, "seed \(seed)")
            #expect(
                track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres, "seed \(seed)")
        }
    }

    /// Honest white noise logged every 5 s whose accuracy is overstated three times: the white-part track is the
    /// right one, and the readings' path says so (a velocity misfit, which favours the track that weights the
    /// readings more, took the reported track there: a tester's walks −2 … −3 % → −8 … −9 %).
    @Test func keepsTheWhitePartTrackWhereTheReadingsAgreeWithIt() throws {
        for seed in 1...3 as ClosedRange<UInt64> {
            var errors = ErrorModel(accuracyMetres: 3, correlationSeconds: 0.01)
            errors.whiteSigmaMetres = 0
            let walk = Simulator.simulate(.walk, errors: errors, seed: seed)
            var fixes = stride(from: 0, to: walk.fixes.count, by: 5).map { walk.fixes[$0] }
            for i in fixes.indices { fixes[i].horizontalAccuracy = .metres(9) }
            let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
            #expect(track.whiteAccuracyScale < 0.7, "seed \(seed)")
            let check = try #require(track.speedReadingsCheck, "seed \(seed)")
            #expect(!check.deniesWhitePart, "seed \(seed)")
            #expect(
                track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres, "seed \(seed)")
        }
    }

    /// Too few readings judge nothing: a walk with readings on fewer than ``WholeTrackSmoother/minimumTrustedSteps``
    /// fixes keeps the white-part track whatever they say.
    @Test func aFewReadingsJudgeNothing() {
        var fixes = Self.driftingWalk(seed: 3).fixes
        for i in fixes.indices where i % 100 != 0 {
            fixes[i].speedMetresPerSecond = nil
            fixes[i].courseDegrees = nil
        }
        #expect(fixes.count(where: { $0.speedMetresPerSecond != nil }) < WholeTrackSmoother.minimumTrustedSteps)
        let track = WholeTrackSmoother(profile: .walking).smooth(fixes)
        #expect(track.speedReadingsCheck == nil)
        #expect(track.distanceModelDifferenceIncludedMetres == track.distanceModelDifferenceMetres)
    }

    /// The readings' path is the trapezoid of the trusted readings over the steps between them (each state's first
    /// reading), and its σ each reading's σ (here the assumed 0.5 m/s) times the seconds it stands for (half of
    /// each compared step beside it), in quadrature.
    @Test func thePathIsTheTrapezoidOfTheTrustedReadings() throws {
        let fixes = Simulator.simulate(.walk, errors: .cleanPhone, seed: 1).fixes
        let options = SmoothingOptions(profile: .walking)
        let problem = TrackProblem(fixes: fixes, options: options)
        let path = try #require(
            TrustedReadingsPath(
                problem, countedSteps: nil,
                stateSpeeds: TrustedReadingsPath.stateSpeeds(problem, fixes: fixes, options: options)))
        let trusted = Tracker.trustedSpeedReadings(in: fixes, profile: .walking)
        var expected = 0.0, steps = 0
        var standsFor = [Double](repeating: 0, count: fixes.count)
        for i in 1..<fixes.count {
            guard trusted[i - 1], trusted[i], let a = fixes[i - 1].speedMetresPerSecond,
                let b = fixes[i].speedMetresPerSecond
            else { continue }
            let seconds = fixes[i - 1].timestamp.seconds(to: fixes[i].timestamp)
            expected += (a + b) / 2 * seconds
            standsFor[i - 1] += seconds / 2
            standsFor[i] += seconds / 2
            steps += 1
        }
        #expect(steps > fixes.count / 2)
        #expect(abs(path.readingsMetres - expected) < 1e-9 * expected)
        #expect(path.comparedSteps.count(where: { $0 }) == steps)
        let sigma = (standsFor.reduce(0) { $0 + 0.25 * $1 * $1 }).squareRoot()
        #expect(abs(path.readingsSigmaMetres - sigma) < 1e-9 * sigma)
    }

    /// The verdict itself: the white-part track must be longer than the readings' path, and farther from it than
    /// the reported track (above or below it) by more than twice the path's σ.
    @Test func theVerdictWantsTheWhitePartLongerAndFartherByTwoSigmas() {
        func denies(white: Double, reported: Double, sigma: Double = 5) -> Bool {
            SmoothedTrack.SpeedReadingsCheck(
                readingsMetres: 1000, readingsSigmaMetres: sigma, reportedTrackMetres: reported,
                whitePartTrackMetres: white
            ).deniesWhitePart
        }
        #expect(denies(white: 1050, reported: 1005))
        // The reported track below the path counts by its distance from it.
        #expect(denies(white: 1050, reported: 995))
        #expect(!denies(white: 1050, reported: 955))
        // 11 m farther: beyond 2σ of 5 m, within 2σ of 5.6 m.
        #expect(denies(white: 1014, reported: 1003, sigma: 5))
        #expect(!denies(white: 1014, reported: 1003, sigma: 5.6))
        // A white-part track shorter than the path is never denied.
        #expect(!denies(white: 950, reported: 1000))
        #expect(!denies(white: 990, reported: 1000, sigma: 0))
        #expect(denies(white: 1001, reported: 1000, sigma: 0))
    }

    /// The guards: readings on fewer than half of the counted seconds, or on fewer than
    /// ``WholeTrackSmoother/minimumTrustedSteps`` steps, judge nothing; the compared steps are among those the
    /// distance counts.
    @Test func judgesOnlyWithEnoughStepsOnEnoughOfTheTrack() throws {
        let options = SmoothingOptions(profile: .walking)
        let walk = Simulator.simulate(.walk, errors: .cleanPhone, seed: 1).fixes
        func path(_ fixes: [Fix], countedSteps: [Bool]? = nil) -> TrustedReadingsPath? {
            let problem = TrackProblem(fixes: fixes, options: options)
            return TrustedReadingsPath(
                problem, countedSteps: countedSteps,
                stateSpeeds: TrustedReadingsPath.stateSpeeds(problem, fixes: fixes, options: options))
        }
        func keepingReadings(_ share: Double) -> [Fix] {
            var fixes = walk
            for i in fixes.indices where Double(i) >= share * Double(fixes.count) {
                fixes[i].speedMetresPerSecond = nil
                fixes[i].courseDegrees = nil
            }
            return fixes
        }
        #expect(path(keepingReadings(0.4)) == nil)
        #expect(path(keepingReadings(0.7)) != nil)
        #expect(path(Array(walk.prefix(25))) == nil)
        // A mask leaving out every other step: those are not compared, and the path is over the rest.
        let all = try #require(path(walk))
        let mask = (0..<walk.count).map { $0 % 2 == 0 }
        let masked = try #require(path(walk, countedSteps: mask))
        #expect(masked.comparedSteps.indices.allSatisfy { !masked.comparedSteps[$0] || mask[$0] })
        #expect(masked.readingsMetres < 0.6 * all.readingsMetres && masked.readingsMetres > 0.4 * all.readingsMetres)
    }

    /// The denied term by hand: the compared part's disagreement in quadrature with the path's σ, plus the
    /// white-part excess outside the compared steps (none when the compared steps hold all of it).
    @Test func aDeniedTermIsTheReportedTracksDisagreementPlusTheUnseenExcess() {
        let check = SmoothedTrack.SpeedReadingsCheck(
            readingsMetres: 1000, readingsSigmaMetres: 4, reportedTrackMetres: 1003, whitePartTrackMetres: 1060)
        #expect(check.deniesWhitePart)
        // 5 m (3, 4 in quadrature) + the 80 − 57 m of excess the readings did not see.
        #expect(abs(check.modelSigmaMetres(modelDifferenceMetres: 80) - 28) < 1e-12)
        #expect(abs(check.modelSigmaMetres(modelDifferenceMetres: 50) - 5) < 1e-12)
        let empty = SmoothedTrack.SpeedReadingsCheck(
            readingsMetres: 0, readingsSigmaMetres: 0, reportedTrackMetres: 0, whitePartTrackMetres: 0)
        #expect(empty.modelSigmaMetres(modelDifferenceMetres: 10) == 10)
    }
}
