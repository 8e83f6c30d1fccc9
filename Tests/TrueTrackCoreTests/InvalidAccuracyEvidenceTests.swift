import Testing

@testable import TrueTrackCore

/// Fixes whose accuracy the source marks invalid (`≤ 0` or NaN: iOS's −1, "latitude and longitude are invalid"):
/// their position is no evidence for the stop detector (``MotionEvidence/isPositionRejected``).
@Suite struct InvalidAccuracyEvidenceTests {
    typealias T = StopDetectorTests

    /// A phone lying still for 600 s (speed 0, 5 m), fixes 300 and 301 replaced by two the OS marks invalid
    /// (accuracy `accuracy`, no speed) at a cell tower 1.1 km north: the API tester's reproducer.
    static func stillPhone(invalidAccuracy accuracy: Double) -> [Fix] {
        (0..<600).map { s in
            let t = T.time(Double(s))
            if s == 300 || s == 301 {
                return try! Fix(
                    timestamp: t, latitude: T.lat0 + 0.01, longitude: T.lon0, horizontalAccuracyMetres: accuracy)
            }
            let jitter = Double(s % 7) * 0.3
            return try! Fix(
                timestamp: t, latitude: T.lat0 + jitter / T.metresPerDegree, longitude: T.lon0,
                horizontalAccuracyMetres: 5, speedMetresPerSecond: 0)
        }
    }

    /// The two invalid fixes passed the radius exit with the profile's assumed 10 m accuracy (MOVING at 301 s)
    /// and a second stop began: one stop of the whole stillness now, live and in the analysis.
    @Test(arguments: [-1.0, 0, .nan])
    func fixesMarkedInvalidDoNotSplitAStillPhonesStop(accuracy: Double) {
        var tracker = Tracker(profile: .walking)
        var detector = StopDetector(profile: T.quiet)
        var events: [MotionEvent] = []
        var evidence: [MotionEvidence] = []
        for fix in Self.stillPhone(invalidAccuracy: accuracy) {
            let decision = tracker.process(fix)
            evidence.append(MotionEvidence(fix: fix, decision: decision))
            events += detector.process(evidence[evidence.count - 1])
        }
        events += detector.finish()
        let committed = events.filter { if case .stopCommitted = $0 { true } else { false } }
        let ended = events.compactMap { if case .stopEnded(let stop) = $0 { stop } else { nil } }
        #expect(committed.count == 1 && ended.count == 1, "\(events)")
        #expect(!events.contains { if case .motionChange(true, _) = $0 { true } else { false } }, "\(events)")
        #expect(ended.first?.end == T.time(599))
        let analysis = StopAnalysis(evidence: evidence, profile: T.quiet)
        #expect(analysis.stops.count == 1, "\(analysis.stops)")
    }

    /// Every initialiser rejects the position of evidence whose accuracy is invalid, and only then; its accuracy
    /// reads `nil`, as an absent one.
    @Test func evidenceWithAnInvalidAccuracyIsARejectedPosition() throws {
        let time = T.time(0)
        for accuracy in [-1.0, 0, .nan, .infinity] {
            let fix = try Fix(timestamp: time, latitude: T.lat0, longitude: T.lon0, horizontalAccuracyMetres: accuracy)
            #expect(MotionEvidence(fix: fix).isPositionRejected, "\(accuracy)")
            let parts = MotionEvidence(timestamp: time, latitude: T.lat0, longitude: T.lon0, accuracyMetres: accuracy)
            #expect(parts.isPositionRejected && parts.accuracyMetres == nil, "\(accuracy)")
        }
        for accuracy in [nil, 5.0, 500] {
            let fix = try Fix(timestamp: time, latitude: T.lat0, longitude: T.lon0, horizontalAccuracyMetres: accuracy)
            #expect(!MotionEvidence(fix: fix).isPositionRejected, "\(String(describing: accuracy))")
            let parts = MotionEvidence(timestamp: time, latitude: T.lat0, longitude: T.lon0, accuracyMetres: accuracy)
            #expect(!parts.isPositionRejected && parts.accuracyMetres == accuracy)
        }
    }

    /// Like any rejected position, a fix marked invalid still brings its activity reading: a confident "walking"
    /// on one ends a stop, as on a fix coarser than the profile's maximum.
    @Test func aFixMarkedInvalidStillBringsItsActivityReading() throws {
        var detector = StopDetector(profile: T.quiet)
        for t in 0..<120 { _ = detector.process(T.e(Double(t))) }
        #expect(detector.isStopCommitted)
        let fix = try Fix(
            timestamp: T.time(120), latitude: T.lat0, longitude: T.lon0, horizontalAccuracyMetres: -1,
            activity: ActivityReading(kind: .walking, confidence: 100))
        let events = detector.process(MotionEvidence(fix: fix))
        #expect(events.contains { if case .stopEnded = $0 { true } else { false } }, "\(events)")
        #expect(detector.lastEvidence?.timestamp == T.time(119))
    }
}
