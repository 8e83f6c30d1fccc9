import Testing
import TrueTrackCore

@Suite struct TrackSummaryTests {
    func fix(_ seconds: Int64, _ lat: Double = 48, _ lon: Double = 11, accuracy: Double? = 5, speed: Double? = nil)
        -> Fix
    {
        try! Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + seconds * 1000), latitude: lat,
            longitude: lon, horizontalAccuracyMetres: accuracy, speedMetresPerSecond: speed)
    }

    @Test func countsDuplicatesBackwardStepsIdenticalTimesAndGaps() {
        var s = TrackSummary()
        let fixes = [
            fix(0), fix(0), fix(1, 48.0001), fix(1, 48.0001), fix(3, 48.0002), fix(2, 48.0003),
            fix(2, 48.0004), fix(10, 48.0005), fix(11, 48.0006),
        ]
        for f in fixes { s.add(f) }
        #expect(s.fixCount == 9)
        #expect(s.exactDuplicates == 2)
        #expect(s.backwardSteps == 1)  // 3 s → 2 s
        #expect(s.identicalTimestamps == 1)  // 2 s → 2 s with another position
        #expect(s.gaps == 1)  // 2 s → 10 s
        #expect(s.longestStepSeconds == 8)
        #expect(s.spanSeconds == 11)
        #expect(s.medianSamplingIntervalSeconds == 1)
    }

    @Test func treatsTheSameTimeAndPositionAsADuplicateEvenWhenSideFieldsDiffer() throws {
        var s = TrackSummary()
        let t = Timestamp(millisecondsSince1970: 1_686_733_381_510)
        s.add(try Fix(timestamp: t, latitude: 49.461219, longitude: 11.111015, satellitesUsed: 16))
        s.add(try Fix(timestamp: t, latitude: 49.461219, longitude: 11.111015, satellitesUsed: 17))
        s.add(try Fix(timestamp: t, latitude: 49.461219, longitude: 11.111016, satellitesUsed: 17))
        #expect(s.exactDuplicates == 1)
        #expect(s.identicalTimestamps == 1)
    }

    @Test func sumsRawSegmentsInInputOrderIncludingTimeTravellers() {
        var s = TrackSummary()
        let a = fix(0, 48, 11), b = fix(1, 48.001, 11), c = fix(0, 48, 11)
        for f in [a, b, c] { s.add(f) }
        let expected = 2 * a.haversineDistance(to: b)
        #expect(abs(s.rawDistanceMetres - expected) < 1e-9)
        #expect(abs(a.haversineDistance(to: b) - 111.195) < 0.01)  // 0.001° of latitude on R = 6,371,008.8 m
    }

    @Test func reportsFieldCoverageShares() {
        var s = TrackSummary()
        s.add(fix(0, accuracy: 5, speed: 1))
        s.add(fix(1, accuracy: -1, speed: nil))
        s.add(fix(2, accuracy: nil, speed: 0))
        s.add(fix(3, accuracy: 3, speed: -1))
        #expect(s.fixesWithAccuracy == 2)
        #expect(s.fixesWithInvalidAccuracy == 1)
        #expect(s.share(s.fixesWithSpeed) == 0.5)
    }

    /// The median step is exact however long: a formats tester's loggers every 90 s, 5 minutes, 30 minutes and days
    /// apart were all reported as 60 s (every step of a minute or more fell in one overflow bucket).
    @Test func reportsTheTrueMedianOfStepsOfAMinuteOrMore() {
        func median(_ steps: [Double]) -> Double? {
            var s = TrackSummary()
            var milliseconds: Int64 = 0
            s.add(fix(0))
            for (k, step) in steps.enumerated() {
                milliseconds += Int64((step * 1000).rounded())
                s.add(
                    try! Fix(
                        timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + milliseconds),
                        latitude: 48 + Double(k + 1) * 1e-4, longitude: 11))
            }
            return s.medianSamplingIntervalSeconds
        }
        #expect(median([90, 90, 90]) == 90)
        #expect(median([300, 300]) == 300)
        #expect(median([1800, 1800, 1799.5]) == 1800)
        // Jittered by milliseconds (a sparse tracker): one entry per second, not per fix; the median to the second.
        #expect(median([600.001, 600.002, 600.003, 600.004, 600.005]) == 600)
        #expect(median([172_800, 259_200, 86_400]) == 172_800)  // days apart
        #expect(median([90.25, 90.25, 1]) == 90)  // to the second from a minute on
        // The steps under a minute and the longer ones are one list: the lower middle of an even count.
        #expect(median([1, 1, 120, 120, 120]) == 120)
        #expect(median([1, 1, 1, 120, 120]) == 1)
        #expect(median([59.999, 60, 60.001, 1]) == 59.999)
        #expect(median([60, 1, 60]) == 60)
    }

    @Test func summarisesNothingWithoutFixes() {
        let s = TrackSummary()
        #expect(s.fixCount == 0 && s.spanSeconds == 0 && s.medianSamplingIntervalSeconds == nil && s.share(0) == 0)
    }
}
