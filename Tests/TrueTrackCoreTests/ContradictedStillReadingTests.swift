import Foundation
import Testing

@testable import TrueTrackCore

/// A confident "still" activity reading that both kinds of motion evidence contradict is not believed
/// (``Tracker/activityVerdict(now:)``, ``Tracker/movesAgainstStillReading(now:)``).
@Suite struct ContradictedStillReadingTests {
    static let still = ActivityReading(kind: .still, confidence: 95)

    /// A drive at `speed` m/s, one fix a second, positions scattered by ±2 m, a Doppler speed on every fix, and a
    /// confident "still" on the fixes `stillAt` says.
    static func drive(speed: Double = 28, seconds: Int = 600, stillAt: (Int) -> Bool) -> [Fix] {
        (0..<seconds).map { s in
            let wobble = Double((s * 7_919) % 13) / 3 - 2
            return TrackerTests.fix(
                Double(s), north: speed * Double(s) + wobble, east: wobble, speed: speed, course: 0,
                activity: stillAt(s) ? still : nil)
        }
    }

    static func distance(_ fixes: [Fix], profile: TrackingProfile = .driving) -> Double {
        var t = Tracker(profile: profile)
        for f in fixes { _ = t.process(f) }
        return t.distance.totalMetres
    }

    /// One stray "still" held a 28 m/s drive for the reading's validity (a minute); "still" on one fix in fifty cut
    /// a 40 km drive by 76 % (a column-mangling tester). Both now count as the drive without readings.
    @Test(arguments: [1, 50, 10])
    func aStillReadingAgainstADriveIsNotBelieved(every: Int) {
        let clean = Self.distance(Self.drive { _ in false })
        let stillAt: (Int) -> Bool = { s in every == 1 ? s == 300 : s % every == 0 }
        let read = Self.distance(Self.drive(stillAt: stillAt))
        #expect(abs(read - clean) < 0.01 * clean, "\(read) m against \(clean) m without readings")
    }

    /// The stop detector fed through ``MotionEvidence/init(fix:decision:)`` follows the tracker: a "still" the
    /// tracker overruled armed its countdown and committed stops inside the drive (the u-blox F9K drive with "still"
    /// on one row in ten: four stops where it has two; a reviewer's point). A halt under the reading still
    /// commits, and the decision says which fixes were overruled.
    @Test func theStopDetectorFollowsTheTrackerOnAContradictedStill() {
        let halt = 300..<420
        // Halted from 300 s to 420 s, braked into at 3 m/s², then on again.
        var drive = TrackerTests.BrakingDrive(cruise: 14, halts: [300..<420])
        let fixes = Self.drive(speed: 14, seconds: 600, stillAt: { $0 % 10 == 0 || halt.contains($0) }).map { f in
            let s = Int((f.timestamp.millisecondsSince1970 - TrackerTests.t0) / 1000)
            let (north, speed) = drive.advance(to: Double(s))
            return TrackerTests.fix(Double(s), north: north, speed: speed, course: 0, activity: f.activity)
        }
        var tracker = Tracker(profile: .driving)
        var detector = StopDetector(profile: .driving)
        var contradicted = 0
        var stops: [StopRecord] = []
        for f in fixes {
            let decision = tracker.process(f)
            if decision.isStillReadingContradicted { contradicted += 1 }
            for case .stopCommitted(let stop) in detector.process(MotionEvidence(fix: f, decision: decision)) {
                stops.append(stop)
            }
        }
        #expect(contradicted >= 50, "\(contradicted) readings overruled")
        #expect(stops.count == 1, "\(stops)")
        let start = stops.first.map { ($0.start.millisecondsSince1970 - TrackerTests.t0) / 1000 }
        #expect(start.map { abs($0 - Int64(halt.lowerBound)) <= 5 } == true, "from \(start.map(String.init) ?? "-") s")
    }

    /// The reading's purpose stands: a phone on a desk whose positions wander (no speed reading, or a reading of 0)
    /// counts nothing while it reads "still", and a walker's fixes without a speed column keep the reading.
    @Test func aStillReadingWithoutSpeedEvidenceIsBelieved() {
        var desk: [Fix] = []
        for s in 0..<600 {
            let t = Double(s)
            let speed: Double? = s % 2 == 0 ? 0 : nil
            desk.append(
                TrackerTests.fix(
                    t, north: 12 * sin(t / 9), east: 12 * cos(t / 13), accuracy: 5, speed: speed,
                    activity: Self.still))
        }
        #expect(Self.distance(desk, profile: .walking) == 0)
        // Readings that say moving while the positions stay put (a phone on a car's dashboard, parked, engine
        // running and its receiver reading noise): the net displacement does not contradict the "still".
        var parked: [Fix] = []
        for s in 0..<300 {
            let t = Double(s)
            parked.append(
                TrackerTests.fix(t, north: sin(t / 7), east: cos(t / 5), speed: 1.5, course: 0, activity: Self.still))
        }
        var tracker = Tracker(profile: .driving)
        var believed = 0
        for f in parked where tracker.process(f).motion == .still { believed += 1 }
        #expect(believed > 280, "\(believed) of 300")
        let walk = (0..<300).map { s -> Fix in TrackerTests.fix(Double(s), north: 1.4 * Double(s), activity: Self.still)
        }
        #expect(Self.distance(walk, profile: .walking) == 0)
    }
}
