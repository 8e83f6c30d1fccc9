import Testing
import TrueTrackCore
import TrueTrackIO

/// The README's Swift example, compiled and run on the demo walk, so the documentation cannot drift from the API.
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsOnTheDemoWalk() throws {
        let demo = Datasets.repository.appendingPathComponent("datasets/demo/walk-with-noise.csv").path
        var reader = try AnyFixReader(path: demo)
        var tracker = Tracker(profile: .walking)
        var stops = StopDetector(profile: .walking)
        var rejected = 0
        var events: [MotionEvent] = []
        while let fix = try reader.next() {
            let decision = tracker.process(fix)
            if decision.rejection != nil { rejected += 1 }
            events += stops.process(MotionEvidence(fix: fix, decision: decision))
        }
        #expect(tracker.finishTrack() == 0)  // walking: no departure hold
        events += stops.finish()
        // The demo walk is 599.6 m long with one 2-minute stop (tools/make_demo.py).
        #expect(abs(tracker.distance.totalMetres - 599.6) < 0.05 * 599.6)
        #expect(rejected == 6)
        #expect(events.contains { if case .stopCommitted = $0 { true } else { false } })
        #expect(reader.report.skipped(.missingTime) == 0)
    }

    /// The example's later lines: a profile validated, the pause and resume buttons, and a new leg.
    @Test func theReadmeExamplesProfileAndPauseLinesRun() throws {
        try TrackingProfile.custom(from: .walking) { $0.deadbandMetresPerSecond = 0.5 }.validate()
        var stops = StopDetector(profile: .walking)
        let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        _ = stops.changePace(false, at: now)
        #expect(stops.countdownArmedAt == now)
        _ = stops.changePace(true, at: now)
        #expect(stops.state == .moving)
        var tracker = Tracker(profile: .walking)
        #expect(tracker.startNewLeg() == 0)
    }
}
