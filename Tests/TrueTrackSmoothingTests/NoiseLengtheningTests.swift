import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackSmoothing

/// Term 6 of the distance's σ (``SmoothedTrack/distanceNoiseLengtheningMetres``): how much the fixes' noise
/// lengthens the smoothed track, measured by solving draws of that noise with the track's own factor.
@Suite struct NoiseLengtheningTests {
    /// White errors of the stated accuracy and no Doppler (the case where the smoothed length runs long by
    /// 1–2σ of the other terms: a tester's walks, 0 of 20 within ±1σ): the term predicts the excess that the
    /// simulator's truth shows, seed by seed on average.
    @Test func predictsTheExcessLengthOfAWalkUnderWhiteNoise() {
        var errors = ErrorModel(accuracyMetres: 3, correlationSeconds: 0.01, speedAbsentProbability: 1)
        errors.whiteSigmaMetres = 0
        var excess: [Double] = [], predicted: [Double] = [], within = 0
        for seed in 0..<12 as Range<UInt64> {
            let track = Simulator.simulate(.walk, errors: errors, seed: seed)
            let smoothed = WholeTrackSmoother(profile: .walking).smooth(track.fixes)
            let error = smoothed.distanceMetres - track.scenario.truthDistanceMetres
            excess.append(error)
            predicted.append(smoothed.distanceNoiseLengtheningMetres)
            if abs(error) <= 2 * smoothed.distanceSigmaMetres { within += 1 }
        }
        let meanExcess = excess.reduce(0, +) / Double(excess.count)
        let meanPredicted = predicted.reduce(0, +) / Double(predicted.count)
        print(
            "white-noise walks: mean excess \(meanExcess) m, mean term 6 \(meanPredicted) m, \(within) of 12 within ±2σ"
        )
        #expect(meanExcess > 0)
        // (Measured 25.3 against 19.0 m: the smoother also cuts the walk's corners, which the term leaves out.)
        #expect(meanPredicted > 0.6 * meanExcess && meanPredicted < 1.6 * meanExcess)
        #expect(within >= 11)
    }

    /// The term adds to σ in quadrature and changes nothing else; without draws it is 0; the same track always
    /// gets the same figure (the draws are seeded).
    @Test func addsInQuadratureAndIsReproducible() {
        let fixes = Simulator.simulate(.walk, errors: .degradedPhone, seed: 2).fixes
        var options = SmoothingOptions(profile: .walking)
        let on = WholeTrackSmoother(options: options).smooth(fixes)
        let again = WholeTrackSmoother(options: options).smooth(fixes)
        options.noiseLengtheningDraws = 0
        let off = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(off.distanceNoiseLengtheningMetres == 0)
        #expect(on.distanceNoiseLengtheningMetres > 0)
        #expect(on.distanceNoiseLengtheningMetres == again.distanceNoiseLengtheningMetres)
        #expect(on.distanceMetres == off.distanceMetres && on.points == off.points)
        let term = on.distanceNoiseLengtheningMetres
        let expected = (off.distanceSigmaMetres * off.distanceSigmaMetres + term * term).squareRoot()
        #expect(abs(on.distanceSigmaMetres - expected) < 1e-9 * expected)
    }

    /// A long track takes one draw (its sum over many steps averages itself), a short one up to the option's
    /// most, and 0 turns the term off.
    @Test func drawsFewerTimesOnLongerTracks() {
        var options = SmoothingOptions(profile: .walking)
        #expect(WholeTrackSmoother.noiseLengtheningDraws(stateCount: 900, options: options) == 8)
        #expect(WholeTrackSmoother.noiseLengtheningDraws(stateCount: 5_000, options: options) == 4)
        #expect(WholeTrackSmoother.noiseLengtheningDraws(stateCount: 1_000_000, options: options) == 1)
        options.noiseLengtheningDraws = 0
        #expect(WholeTrackSmoother.noiseLengtheningDraws(stateCount: 900, options: options) == 0)
    }
}
