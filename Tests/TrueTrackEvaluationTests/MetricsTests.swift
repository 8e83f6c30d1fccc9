import Testing
import TrueTrackCore

@testable import TrueTrackEvaluation

func fix(_ ms: Int64, _ lat: Double, _ lon: Double, speed: Double? = nil, accuracy: Double? = 3) throws -> Fix {
    try Fix(
        timestamp: Timestamp(millisecondsSince1970: ms), latitude: lat, longitude: lon,
        horizontalAccuracyMetres: accuracy, speedMetresPerSecond: speed)
}

/// One thousandth of a degree on a great circle of the manifest's sphere, metres.
let milliDegree = 6_371_008.8 * Double.pi / 180 * 0.001

@Suite struct MetricsTests {
    @Test func naiveSumsEverySegmentAsRead() throws {
        // Along the equator: 0 → 0.001° → 0.002° → back to 0.001° (a backward step still counts).
        let fixes = [try fix(0, 0, 0), try fix(1000, 0, 0.001), try fix(2000, 0, 0.002), try fix(1500, 0, 0.001)]
        #expect(abs(BaselineDistances.naive(fixes) - 3 * milliDegree) < 1e-6)
        #expect(BaselineDistances.naive([]) == 0)
        #expect(BaselineDistances.naive([try fix(0, 0, 0)]) == 0)
    }

    @Test func dopplerIntegralClampsStepsAndIgnoresSlowAndMissingSpeeds() throws {
        let fixes = [
            try fix(0, 0, 0, speed: 9),  // first fix: no step before it
            try fix(1000, 0, 0, speed: 1.0),  // 1 m/s × 1 s = 1
            try fix(2000, 0, 0, speed: 0.2),  // below 0.3 m/s: 0
            try fix(4000, 0, 0, speed: 2.0),  // 2 m/s × 2 s = 4
            try fix(20000, 0, 0, speed: 5.0),  // 16 s clamped to 10 s: 50
            try fix(21000, 0, 0, speed: nil),  // no speed: 0
            try fix(19000, 0, 0, speed: 3.0),  // time goes back: step clamped to 0
        ]
        #expect(BaselineDistances.dopplerIntegral(fixes) == 55)
    }

    @Test func percentilesInterpolateBetweenRanks() throws {
        #expect(Percentile.of([4, 1, 3, 2], 0.5) == 2.5)
        #expect(abs(Percentile.of([1, 2, 3, 4], 0.95)! - 3.85) < 1e-12)
        #expect(Percentile.of([7], 0.95) == 7)
        #expect(Percentile.of([], 0.5) == nil)
        #expect(Percentile.of([.nan, 1, 3], 0.5) == 2)
        let q = try #require(Percentile.of([4, 1, 3, 2], [0.5, 0.95, 0]))
        #expect(q[0] == 2.5 && abs(q[1] - 3.85) < 1e-12 && q[2] == 1)
        #expect(Percentile.of([Double](), [0.5]) == nil)
    }

    @Test func gsdcScoreIsTheMeanOfP50AndP95() throws {
        let errors = (0...100).map(Double.init)  // p50 = 50, p95 = 95
        let summary = try #require(PositionErrorSummary(errors: errors, withScore: true))
        #expect(summary.count == 101)
        #expect(summary.p50Metres == 50)
        #expect(summary.p95Metres == 95)
        #expect(summary.gsdcScoreMetres == 72.5)
        #expect(PositionErrorSummary(errors: errors, withScore: false)?.gsdcScoreMetres == nil)
        #expect(PositionErrorSummary(errors: [], withScore: true) == nil)
    }

    @Test func distanceErrorsAreSignedAgainstTheReference() {
        let over = DistanceFigures(metres: 110, reference: 100)
        #expect(over.errorMetres == 10)
        #expect(over.errorPercent == 10)
        let under = DistanceFigures(metres: 75, reference: 100)
        #expect(under.errorPercent == -25)
        #expect(DistanceFigures(metres: 3, reference: 0).errorPercent == nil)
        #expect(DistanceFigures(metres: 3, reference: nil).errorMetres == nil)
    }

    @Test func stopsMatchOneToOneByLargestOverlap() {
        let truth = [
            TruthStop(startSeconds: 0, endSeconds: 60, source: "a"),
            TruthStop(startSeconds: 100, endSeconds: 140, source: "b"),
            TruthStop(startSeconds: 300, endSeconds: 330, source: "c"),
        ]
        let detected = [
            DetectedStop(startSeconds: 5, endSeconds: 50),  // a: start +5, end −10
            DetectedStop(startSeconds: 55, endSeconds: 58),  // overlaps a too, but a is taken
            DetectedStop(startSeconds: 110, endSeconds: 150),  // b: start +10, end +10
            DetectedStop(startSeconds: 200, endSeconds: 220),
        ]  // nothing
        let score = StopScore(truth: truth, detected: detected)
        #expect(score.matched == 2)
        #expect(score.precision == 0.5)
        #expect(abs(score.recall - 2.0 / 3) < 1e-12)
        #expect(score.medianStartErrorSeconds == 7.5)
        #expect(score.medianEndErrorSeconds == 10)
        // Time inside truth stops: 45 of a's, 3 of a's, 30 of b's, 0 (of 45 + 3 + 40 + 20 = 108 s).
        #expect(abs(score.timePrecision - 78.0 / 108) < 1e-12)
        let none = StopScore(truth: truth, detected: [])
        #expect(none.recall == 0 && none.precision == 1 && none.medianStartErrorSeconds == nil)
        #expect(none.timePrecision == 1)
        // One stop spanning everything matches a truth stop (precision 1) but is mostly a walk.
        let spanning = StopScore(truth: truth, detected: [DetectedStop(startSeconds: 0, endSeconds: 400)])
        #expect(spanning.precision == 1 && abs(spanning.timePrecision - 130.0 / 400) < 1e-12)
        #expect(StopScore(truth: [], detected: []).recall == 1)
    }

    @Test func truthStopsFromRepeatedWaypointsAndTheStandingStart() {
        let waypoints = [
            TruthSample(seconds: 61, latitude: 49.4611, longitude: 11.1110),
            TruthSample(seconds: 70, latitude: 49.4612, longitude: 11.1110),
            TruthSample(seconds: 110, latitude: 49.4612, longitude: 11.1110),  // 40 s at the same point
            TruthSample(seconds: 115, latitude: 49.4612, longitude: 11.1110),  // 5 s: too short
            TruthSample(seconds: 130, latitude: 49.4613, longitude: 11.1110),
        ]
        let stops = GroundTruth.stops(waypoints: waypoints, recordingStartSeconds: 2)
        #expect(stops.map(\.startSeconds) == [2, 70])
        #expect(stops.map(\.endSeconds) == [61, 110])
        #expect(GroundTruth.stops(waypoints: waypoints, recordingStartSeconds: 50).count == 1)
    }
}
