import Testing
import TrueTrackCore

@testable import TrueTrackStore

@Suite struct SessionStateTests {
    @Test func staleSnapshotCannotLowerDistanceOrRevertAPause() throws {
        let store = try SessionStateStore(path: ":memory:")
        let early = try store.update(sessionID: "s") {
            $0.distanceMetres = 120
            $0.elapsedSeconds = 90
            $0.fixCount = 90
        }
        let paused = try store.update(sessionID: "s") {
            $0.distanceMetres = 250.5
            $0.phase = .paused
        }
        #expect(paused.phaseRevision == 1)
        // Another writer's copy taken before the pause comes back late.
        var stale = early
        stale.fixCount = 95
        let merged = try store.merge(stale)
        #expect(merged.distanceMetres == 250.5)
        #expect(merged.phase == .paused)
        #expect(merged.fixCount == 95)
        #expect(merged.elapsedSeconds == 90)
        #expect(merged.writeCount == 3)
        #expect(try store.snapshot(sessionID: "s") == merged)
        // Resuming is a new phase change and sticks.
        #expect(try store.setPhase(.running, sessionID: "s").phaseRevision == 2)
        #expect(try store.merge(paused).phase == .running)
    }

    @Test func mergeRulesByHand() {
        var a = SessionSnapshot(sessionID: "x")
        a.distanceMetres = 10
        a.lastFix = SessionLastFix(
            timestamp: Timestamp(millisecondsSince1970: 5000), latitude: 1, longitude: 2, accuracyMetres: 3)
        a.motion = .moving
        var b = SessionSnapshot(sessionID: "x")
        b.distanceMetres = .nan
        b.elapsedSeconds = 4
        b.lastFix = SessionLastFix(
            timestamp: Timestamp(millisecondsSince1970: 4000), latitude: 9, longitude: 9, accuracyMetres: nil)
        b.motion = .still
        b.phase = .paused  // same revision 0: the pause wins
        let m = a.merged(with: b)
        #expect(m.distanceMetres == 10)
        #expect(m.elapsedSeconds == 4)
        #expect(m.lastFix == a.lastFix)
        #expect(m.motion == .moving)
        #expect(m.phase == .paused)
        var ended = a
        ended.phase = .ended
        var newer = a
        newer.phaseRevision = 7
        #expect(ended.merged(with: newer).phase == .ended)
        #expect(newer.merged(with: ended).phase == .ended)
        #expect(newer.merged(with: ended).phaseRevision == 7)
    }

    @Test func endedIsFinal() throws {
        let store = try SessionStateStore(path: ":memory:")
        try store.setPhase(.ended, sessionID: "s")
        let after = try store.setPhase(.running, sessionID: "s")
        #expect(after.phase == .ended)
        #expect(try store.latestOpenSession() == nil)
    }

    @Test func recordsTrackerDecisions() throws {
        var tracker = Tracker()
        var snapshot = SessionSnapshot(sessionID: "walk")
        for n in 0..<60 {
            let fix = walkFix(n)
            snapshot.record(fix, decision: tracker.process(fix))
        }
        #expect(snapshot.fixCount == 60)
        #expect(snapshot.acceptedFixCount > 50)
        #expect(snapshot.lastFix == SessionLastFix(walkFix(59)))
        #expect(snapshot.distanceMetres == tracker.distance.totalMetres)
        #expect(snapshot.distanceMetres > 0)
    }

    @Test func recoveryIsAThreeWayAnswer() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("s.sqlite")
        do {
            let store = try SessionStateStore(path: path)
            try store.update(sessionID: "a") { $0.distanceMetres = 812 }
            try store.update(sessionID: "b") { $0.distanceMetres = 40 }
            try store.update(sessionID: "c") { $0.distanceMetres = 77 }
        }
        let store = try SessionStateStore(path: path)  // the restarted process
        #expect(try store.latestOpenSession()?.sessionID == "c")
        guard case .resume(let a)? = try store.recover(sessionID: "a", remote: .open(distanceMetres: 900)) else {
            Issue.record("expected resume")
            return
        }
        #expect(a.distanceMetres == 900)
        guard case .resume(let a2)? = try store.recover(sessionID: "a", remote: .open(distanceMetres: 100)) else {
            Issue.record("expected resume")
            return
        }
        #expect(a2.distanceMetres == 900)
        guard case .ended(let b)? = try store.recover(sessionID: "b", remote: .ended) else {
            Issue.record("expected ended")
            return
        }
        #expect(b.phase == .ended)
        #expect(b.distanceMetres == 40)
        #expect(try store.snapshot(sessionID: "b")?.phase == .ended)
        let before = try store.snapshot(sessionID: "c")
        guard
            case .unreachable(let c, let reason)? = try store.recover(
                sessionID: "c", remote: .unreachable(reason: "timed out"))
        else {
            Issue.record("expected unreachable")
            return
        }
        #expect(c == before)
        #expect(c.distanceMetres == 77)
        #expect(reason == "timed out")
        #expect(try store.snapshot(sessionID: "c") == before)
        #expect(try store.recover(sessionID: "nobody", remote: .ended) == nil)
        guard case .resume(let c2)? = try store.recover(sessionID: "c", remote: .notFound) else {
            Issue.record("expected resume")
            return
        }
        #expect(c2.distanceMetres == 77)
    }
}
