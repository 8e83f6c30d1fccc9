import Testing
import TrueTrackCore
import TrueTrackSimulation
@testable import TrueTrackSmoothing

/// The experimental Gauss–Markov bias model (``BiasAugmentedEquations``): with a vanishing bias it is the
/// white-noise smoother.
@Suite struct BiasModelExperimentTests {
    @Test func vanishingBiasGivesTheWhiteNoiseTrack() {
        let fixes = Simulator.simulate(.drive, errors: .cleanPhone, seed: 3).fixes
        var options = SmoothingOptions(profile: .driving)
        options.checksModelDependence = false
        let white = WholeTrackSmoother(options: options).smooth(fixes)
        options.biasCorrelationSeconds = 30
        options.biasWhiteScale = 0.999_999
        let biased = WholeTrackSmoother(options: options).smooth(fixes)
        // min(white², 0.99) leaves 1 % of the variance to the bias: metres-level agreement only.
        #expect(abs(biased.distanceMetres - white.distanceMetres) < 0.002 * white.distanceMetres)
        var largest = 0.0
        for (a, b) in zip(white.points, biased.points) {
            largest = max(largest, SmoothingSupport.metres(a, b.latitude, b.longitude))
        }
        #expect(largest < 1)
    }
}

/// The sweep behind the decision not to adopt the bias model (docs/ARCHITECTURE.md): GSDC p50 / p95 and
/// distance, IPIN median |distance error|, for τ and the white part.
@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct BiasModelSweepTests {
    typealias E = RecordingEvaluation
    @Test func sweep() throws {
        let gsdc = [("gsdc2020-mtv1-pixel4", "gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea"),
                    ("gsdc2020-mtv1-pixel4xlmodded", "gsdc2020-mtv1/SPAN_Pixel4XLModded_10Hz.nmea")]
        let data = try gsdc.map { (id, path) in
            (id, try E.fixes(id), try E.spanTruth(path), try #require(try E.recording(id).referenceDistanceMetres))
        }
        let ipin = try E.ipinIDs.map { (try E.fixes($0), try #require(try E.recording($0).referenceDistanceMetres)) }
        let p = SmoothingSupport.percentile
        for tau in [0, 5, 15, 30, 60, 120, 300, 1000] as [Double] {
            for white in (tau == 0 ? [0] : [0, 0.2, 0.5]) as [Double] {
                var line = String(format: "bias τ %4.0f s, white %.2f |", tau, white)
                for (id, fixes, truth, reference) in data {
                    var options = SmoothingOptions(profile: .driving)
                    options.biasCorrelationSeconds = tau
                    options.biasWhiteScale = white
                    let t = WholeTrackSmoother(options: options).smooth(fixes)
                    let e = E.errors(t.points.map { ($0.timestamp, $0.latitude, $0.longitude) }, truth: truth)
                    line += String(format: " %@ %.3f / %.3f, distance %+.3f %% |", id, p(e, 0.5), p(e, 0.95),
                                   (t.distanceMetres - reference) / reference * 100)
                }
                var errors: [Double] = []
                for (fixes, reference) in ipin {
                    var options = SmoothingOptions(profile: .walking)
                    options.biasCorrelationSeconds = tau
                    options.biasWhiteScale = white
                    errors.append(abs(WholeTrackSmoother(options: options).smooth(fixes).distanceMetres - reference))
                }
                print(line + String(format: " ipin median |error| %.1f m", p(errors, 0.5)))
            }
        }
    }
}
