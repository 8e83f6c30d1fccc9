import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

/// Expectation–maximisation of the noise parameters on tracks drawn from the model itself.
@Suite struct NoiseEstimationTests {
    typealias S = SmoothingSupport

    /// A 1 Hz constant-velocity track with white acceleration of σₐ `accelerationSigma` and white position
    /// errors of per-axis σ `errorSigma`, whose fixes report `reportedFactor` times their true 68 % radius.
    static func track(
        count: Int, accelerationSigma: Double, errorSigma: Double, reportedFactor: Double, seed: UInt64
    ) -> [Fix] {
        var rng = TestRNG(state: seed)
        func gaussian() -> Double {
            let u = max(rng.uniform(), 1e-300), v = rng.uniform()
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        var p = (0.0, 0.0), v = (8.0, 3.0)
        var fixes: [Fix] = []
        let reported = reportedFactor * errorSigma * MeasurementNoise.radius68PerSigma
        for k in 0..<count {
            fixes.append(
                S.fix(
                    seconds: Double(k), east: p.0 + errorSigma * gaussian(),
                    north: p.1 + errorSigma * gaussian(), accuracy: reported))
            // Exact discretisation of white acceleration over 1 s (position and velocity jointly Gaussian).
            let z1 = gaussian(), z2 = gaussian(), w1 = gaussian(), w2 = gaussian()
            let a = accelerationSigma
            let dvE = a * z1, dvN = a * w1
            let dpE = a * (z1 / 2 + z2 / (2 * 3.0.squareRoot())), dpN = a * (w1 / 2 + w2 / (2 * 3.0.squareRoot()))
            p = (p.0 + v.0 + dpE, p.1 + v.1 + dpN)
            v = (v.0 + dvE, v.1 + dvN)
        }
        return fixes
    }

    /// Fixes reporting four times their true accuracy: EM finds the scale (≈ 0.25) and σₐ within 15 %, and
    /// the track it smooths with them is closer to the truth's noise level than the given parameters'.
    @Test func recoversAPessimisticAccuracyAndTheProcessNoise() {
        let fixes = Self.track(count: 1500, accelerationSigma: 0.5, errorSigma: 2, reportedFactor: 4, seed: 11)
        var options = SmoothingOptions(profile: .driving)  // σₐ 8: sixteen times too large
        options.loss = .quadratic
        options.usesDoppler = false
        options.estimatesNoise = true
        options.maximumEstimationRounds = 200
        let track = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(track.noise.isEstimated)
        #expect(!track.noise.isLimited)
        #expect(abs(track.noise.accuracyScale - 0.25) < 0.25 * 0.15)
        // (Every step is into a fix without Doppler: the driving profile's lower σₐ for those is what EM scales.)
        #expect(abs(track.noise.accelerationSigmaWithoutDoppler - 0.5) < 0.5 * 0.15)
        #expect(track.noise.accelerationSigma > track.noise.accelerationSigmaWithoutDoppler)
        #expect(track.noise.rounds > 1)
    }

    /// Honest fixes and the right σₐ: EM stays put (scale ≈ 1, σₐ within 15 %).
    @Test func keepsParametersThatAreRight() {
        let fixes = Self.track(count: 1500, accelerationSigma: 1, errorSigma: 3, reportedFactor: 1, seed: 12)
        var options = SmoothingOptions(profile: .walking)
        options.loss = .quadratic
        options.usesDoppler = false
        options.estimatesNoise = true
        options.maximumEstimationRounds = 200
        let track = WholeTrackSmoother(options: options).smooth(fixes)
        // EM ran (the profile's values would pass the two checks below without it) and stayed off its rails.
        #expect(track.noise.isEstimated)
        #expect(!track.noise.isLimited)
        #expect(abs(track.noise.accuracyScale - 1) < 0.15)
        #expect(abs(track.noise.accelerationSigma - 1) < 0.15)
    }

    /// Off by default, and a short track keeps the given parameters.
    @Test func isOffByDefaultAndNeedsEnoughStates() {
        // Off by default on a track long enough to estimate (so the default, not the length, decides).
        let long = Self.track(count: 200, accelerationSigma: 1, errorSigma: 3, reportedFactor: 4, seed: 13)
        #expect(!SmoothingOptions(profile: .walking).estimatesNoise)
        #expect(!WholeTrackSmoother(profile: .walking).smooth(long).noise.isEstimated)
        let fixes = Self.track(count: 20, accelerationSigma: 1, errorSigma: 3, reportedFactor: 4, seed: 13)
        var options = SmoothingOptions(profile: .walking)
        options.estimatesNoise = true
        let track = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(!track.noise.isEstimated)
        #expect(track.noise.accuracyScale == 1)
        #expect(track.noise.accelerationSigma == 1)
    }
}
