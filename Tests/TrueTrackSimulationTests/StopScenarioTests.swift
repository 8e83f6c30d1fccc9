import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

/// Stop detection on simulated recordings whose stops are known exactly.
@Suite struct StopScenarioTests {
    /// A truth stop: seconds from the scenario's start.
    struct Truth { var start: Double; var end: Double }

    /// The stop legs' spans (legs flagged in `stopLegs`), merged when adjacent.
    static func truth(_ scenario: Scenario, stopLegs: Set<Int>) -> [Truth] {
        var result: [Truth] = []
        var t = 0.0
        for (i, leg) in scenario.legs.enumerated() {
            if stopLegs.contains(i) {
                if let last = result.last, last.end == t {
                    result[result.count - 1].end = t + leg.seconds
                } else {
                    result.append(Truth(start: t, end: t + leg.seconds))
                }
            }
            t += leg.seconds
        }
        return result
    }

    /// Pottering in a shop for `minutes`: slow legs (0.4 m/s) round a 20 m × 12 m aisle loop.
    static func potter(minutes: Double) -> [Leg] {
        var legs: [Leg] = []
        var t = 0.0
        let loop: [(Double, Double)] = [(20, 0), (12, 90), (20, 180), (12, 270)]
        while t < minutes * 60 {
            for (metres, heading) in loop where t < minutes * 60 {
                legs.append(
                    Leg(
                        seconds: metres / 0.4, speedMetresPerSecond: 0.4, headingDegrees: heading,
                        activity: .walking))
                t += metres / 0.4
            }
        }
        return legs
    }

    static let shopVisit: (Scenario, Set<Int>) = {
        let pottering = potter(minutes: 15)
        let legs = [Leg.walk(metres: 300, heading: 90)] + pottering + [Leg.walk(metres: 300, heading: 270)]
        return (Scenario(name: "shop visit", legs: legs), Set(1...pottering.count))
    }()

    static let trafficLights: (Scenario, Set<Int>) = {
        let legs: [Leg] = [
            .drive(metres: 1000, heading: 0), .stop(seconds: 20, activity: .inVehicle),
            .drive(metres: 800, heading: 90), .stop(seconds: 40, activity: .inVehicle),
            .drive(metres: 800, heading: 0), .stop(seconds: 60, activity: .inVehicle),
            .drive(metres: 1200, heading: 90), .stop(seconds: 300, activity: .inVehicle),
            .drive(metres: 1000, heading: 180), .tunnel(metres: 600, heading: 180, speed: 15, activity: .inVehicle),
            .drive(metres: 500, heading: 180), .stop(seconds: 240),
        ]
        return (Scenario(name: "traffic lights, a parking stop, a tunnel and a final stop", legs: legs), [7, 11])
    }()

    static let walkWithStops: (Scenario, Set<Int>) = (.walkWithStops, [0, 2, 4, 6])

    struct Score { var precision: Double; var recall: Double; var worstStartError: Double; var worstEndError: Double }

    static func score(
        _ scenario: Scenario, _ stopLegs: Set<Int>, errors: ErrorModel, stops: StopDetectionProfile,
        tracking: TrackingProfile, seed: UInt64
    ) -> (Score, [StopRecord]) {
        let track = Simulator.simulate(scenario, errors: errors, delivery: .lockedPhone, seed: seed)
        var tracker = Tracker(profile: tracking)
        var evidence: [MotionEvidence] = []
        for batch in track.batches {
            let decisions = tracker.process(batch: batch)
            // (In the batch's order; the stop analysis takes evidence in time order, as the tracker saw it.)
            let order = batch.indices.sorted { (batch[$0].timestamp, $0) < (batch[$1].timestamp, $1) }
            for i in order { evidence.append(MotionEvidence(fix: batch[i], decision: decisions[i])) }
        }
        let found = StopAnalysis(evidence: evidence, profile: stops).stops
        let truth = Self.truth(scenario, stopLegs: stopLegs)
        let t0 = scenario.start
        var matchedFound = 0, matchedTruth = 0, startError = 0.0, endError = 0.0
        for t in truth {
            if let s = found.first(where: { t0.seconds(to: $0.start) < t.end && t0.seconds(to: $0.end) > t.start }) {
                matchedTruth += 1
                startError = max(startError, abs(t0.seconds(to: s.start) - t.start))
                endError = max(endError, abs(t0.seconds(to: s.end) - min(t.end, scenario.durationSeconds)))
            }
        }
        for s in found
        where truth.contains(where: { t0.seconds(to: s.start) < $0.end && t0.seconds(to: s.end) > $0.start }) {
            matchedFound += 1
        }
        return (
            Score(
                precision: found.isEmpty ? 1 : Double(matchedFound) / Double(found.count),
                recall: truth.isEmpty ? 1 : Double(matchedTruth) / Double(truth.count),
                worstStartError: startError, worstEndError: endError), found
        )
    }

    static func check(
        _ case_: (Scenario, Set<Int>), _ errors: ErrorModel, _ stops: StopDetectionProfile,
        _ tracking: TrackingProfile, seeds: [UInt64]
    ) {
        for seed in seeds {
            let (s, found) = score(case_.0, case_.1, errors: errors, stops: stops, tracking: tracking, seed: seed)
            let bound = stops.stopTimeoutSeconds + 15
            #expect(
                s.precision >= 0.95 && s.recall >= 0.95,
                "\(case_.0.name) seed \(seed): precision \(s.precision) recall \(s.recall), found \(found.map { ($0.start, $0.durationSeconds) })"
            )
            #expect(
                s.worstStartError <= bound && s.worstEndError <= bound,
                "\(case_.0.name) seed \(seed): start error \(s.worstStartError) s, end error \(s.worstEndError) s")
        }
    }

    @Test func walkWithStopsOfOneToTenMinutes() {
        Self.check(Self.walkWithStops, .cleanPhone, .walking, .walking, seeds: [1, 2, 3])
        Self.check(Self.walkWithStops, .degradedPhone, .walking, .walking, seeds: [1, 2, 3])
    }

    @Test func shopVisitPotteringWithinThirtyMetresIsOneStop() {
        Self.check(Self.shopVisit, .cleanPhone, .walking, .walking, seeds: [1, 2, 3])
    }

    @Test func trafficLightHaltsAreNotStopsButParkingAndTheFinalStopAre() {
        Self.check(Self.trafficLights, .carReceiver, .driving, .driving, seeds: [1, 2, 3])
    }

    @Test func stationaryIsOneStopAndNoTrip() {
        for seed in [1, 2, 3] as [UInt64] {
            for errors in [ErrorModel.cleanPhone, .degradedPhone] {
                let track = Simulator.simulate(.stationary, errors: errors, seed: seed)
                let a = StopAnalysis(fixes: track.fixes, profile: .walking)
                #expect(
                    a.stops.count == 1 && a.trips.isEmpty,
                    "seed \(seed): \(a.stops.count) stops, \(a.trips.count) trips")
            }
        }
    }

    /// A phone on a desk for an hour whose fixes jump 150–250 m in scattered directions for `burst` seconds every
    /// six minutes, each jumped fix claiming 5.5 m.
    static func deskWithMultipathBursts(burst: Int, seed: UInt64) throws -> [Fix] {
        let scenario = Scenario(name: "desk", legs: [.stop(seconds: 3600)])
        var fixes = Simulator.simulate(scenario, errors: .cleanPhone, seed: seed).fixes
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func uniform() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        for start in stride(from: 200, to: fixes.count - burst, by: 360) {
            for i in start..<(start + burst) {
                let f = fixes[i]
                let metres = 150 + 100 * uniform(), bearing = 2 * Double.pi * uniform()
                fixes[i] = try Fix(
                    timestamp: f.timestamp, latitude: f.latitude + metres * cos(bearing) / 111_320,
                    longitude: f.longitude + metres * sin(bearing) / (111_320 * cos(f.latitude * .pi / 180)),
                    horizontalAccuracyMetres: 5.5, speedMetresPerSecond: f.speedMetresPerSecond,
                    courseDegrees: f.courseDegrees)
            }
        }
        return fixes
    }

    @Test func scatteredMultipathBurstsTheTrackerRejectsDoNotEndAStop() throws {
        for burst in [6, 8] {
            let fixes = try Self.deskWithMultipathBursts(burst: burst, seed: 3)
            var tracker = Tracker(profile: .walking)
            let decisions = tracker.process(batch: fixes)
            #expect(decisions.filter { $0.rejection == .outlier }.count >= 9 * burst - 2)
            let evidence = zip(fixes, decisions).map { MotionEvidence(fix: $0, decision: $1) }
            let a = StopAnalysis(evidence: evidence, profile: .walking)
            #expect(
                a.stops.count == 1 && a.trips.isEmpty,
                "burst \(burst): \(a.stops.count) stops, \(a.trips.count) trips")
            // Without the tracker's judgement of the jumps (and its count, which the analysis also reads: a dense
            // track it counted nothing of came back) the bursts do end the stop.
            let unjudged = evidence.map {
                var e = $0
                e.isPositionRejected = false
                e.isCountedByTracker = false
                return e
            }
            let raw = StopAnalysis(evidence: unjudged, profile: .walking)
            #expect(raw.stops.count > 1, "burst \(burst): without the judgement \(raw.stops.count) stops")
        }
    }

    /// A van parked 12 minutes at 1 Hz, its Doppler reading 0.02–0.09 m/s, whose positions jump 90 m for ten
    /// seconds twice (each fix claiming 6 m), as a fleet tester's parked vans did in town: one stop, not three
    /// joined by "trips" of 0 m. With Doppler readings of a van that drove (12 m/s on the jumped fixes), the
    /// excursions are journeys and keep the stops apart.
    static func parkedVanWithStillExcursions(awaySpeed: Double) throws -> [Fix] {
        var random = SplitMix64(seed: 11)
        var fixes: [Fix] = []
        for t in 0..<720 {
            let away = (200..<210).contains(t) || (450..<460).contains(t)
            let east = (away ? 90.0 : 0) + 3 * random.gaussian(), north = 3 * random.gaussian()
            fixes.append(
                try Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(t) * 1000),
                    latitude: 52.52 + north / 111_132,
                    longitude: 13.4 + east / (111_320 * cos(52.52 * Double.pi / 180)),
                    horizontalAccuracyMetres: 6, speedMetresPerSecond: away ? awaySpeed : 0.02 + 0.07 * random.uniform()
                ))
        }
        return fixes
    }

    @Test func excursionsWhileTheDopplerReadsStillDoNotEndAStop() throws {
        // A speed column of zeros under a van that really drove 300 m out and back at 6 m/s: its positions travel,
        // which a reflection's do not, and the two stops stay apart (a reviewer's).
        var outAndBack: [Fix] = []
        var random = SplitMix64(seed: 5)
        for t in 0..<1300 {
            let away = t >= 600 && t < 700 ? 300 - abs(Double(t - 650)) * 6 : 0
            outAndBack.append(
                try Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(t) * 1000),
                    latitude: 52.52 + 3 * random.gaussian() / 111_132,
                    longitude: 13.4 + (max(0, away) + 3 * random.gaussian()) / (111_320 * cos(52.52 * Double.pi / 180)),
                    horizontalAccuracyMetres: 6, speedMetresPerSecond: 0))
        }
        var zeros = Tracker(profile: .driving)
        let zeroDecisions = zeros.process(batch: outAndBack)
        let drove = StopAnalysis(
            evidence: zip(outAndBack, zeroDecisions).map { MotionEvidence(fix: $0, decision: $1) }, profile: .driving)
        #expect(drove.stops.count == 2, "a drive under a column of zeros: \(drove.stops.count) stops")
        for (awaySpeed, expected) in [(0.05, 1), (12.0, 3)] {
            let fixes = try Self.parkedVanWithStillExcursions(awaySpeed: awaySpeed)
            var tracker = Tracker(profile: .driving)
            let decisions = tracker.process(batch: fixes)
            let evidence = zip(fixes, decisions).map { MotionEvidence(fix: $0, decision: $1) }
            let a = StopAnalysis(evidence: evidence, profile: .driving)
            #expect(a.stops.count == expected, "away at \(awaySpeed) m/s: \(a.stops.count) stops")
        }
    }

    /// A walk (5–10 m fixes, Doppler), 20 minutes with the phone on a table indoors (fixes claiming 20–65 m, no
    /// speed, an error of 0.47 × the claim per axis drifting with τ 60 s: honest, as an API tester modelled it),
    /// and a walk on. The tracker rejects the fixes over its 30 m gate; their drift moves the window beyond its
    /// radius every few minutes, and the 20 minutes read as 3–8 stops 2 s apart live (1–4 in the analysis): a known
    /// issue (docs/ARCHITECTURE.md, "Fixes too coarse for the tracker", says what was tried and why it was undone).
    static func walkWithATableIndoors(seed: UInt64) throws -> [Fix] {
        var random = SplitMix64(seed: seed)
        var fixes: [Fix] = []
        var accuracy = 8.0, ex = 0.0, ey = 0.0
        for t in 0..<1560 {
            let indoor = t >= 180 && t < 1380
            let north = 1.4 * Double(min(t, 180)) + 1.4 * Double(max(0, t - 1380))
            let target = indoor ? 20 + 45 * random.uniform() : 5 + 5 * random.uniform()
            accuracy = min(65, max(5, accuracy + 0.1 * (target - accuracy)))
            let sigma = 0.7 * accuracy / 1.5, rho = exp(-1 / (indoor ? 60.0 : 20.0))
            ex = rho * ex + sigma * (1 - rho * rho).squareRoot() * random.gaussian()
            ey = rho * ey + sigma * (1 - rho * rho).squareRoot() * random.gaussian()
            fixes.append(
                try Fix(
                    timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(t) * 1000),
                    latitude: 47 + (north + ey) / 111_132, longitude: 8 + ex / (111_320 * cos(47 * Double.pi / 180)),
                    horizontalAccuracyMetres: accuracy, speedMetresPerSecond: indoor ? nil : 1.4))
        }
        return fixes
    }

    @Test func aPhoneOnATableIndoorsIsOneStop() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            let fixes = try Self.walkWithATableIndoors(seed: seed)
            var tracker = Tracker(profile: .walking)
            let decisions = tracker.process(batch: fixes)
            let evidence = zip(fixes, decisions).map { MotionEvidence(fix: $0, decision: $1) }
            let found = StopAnalysis(evidence: evidence, profile: .walking).stops
            var detector = StopDetector(profile: .walking)
            var live = 0
            for e in evidence {
                for case .stopCommitted in detector.process(e) { live += 1 }
            }
            func seconds(_ t: Timestamp) -> Double { Double(t.millisecondsSince1970 - 1_700_000_000_000) / 1000 }
            // The stops found cover the table (from within 30 s of its start to within 60 s of its end)...
            #expect(found.first.map { abs(seconds($0.start) - 180) <= 30 } == true, "seed \(seed)")
            #expect(found.last.map { abs(seconds($0.end) - 1380) <= 60 } == true, "seed \(seed)")
            // The analysis reads the drifts of fixes too coarse for the tracker as no trip: 1 / 1 / 1 / 2 stops (1 / 1 /
            // 3 / 4 when they read as trips of 0 m).
            #expect(found.count <= 2, "seed \(seed): \(found.count) stops in the analysis")
            // ...but as several, live: fixes the tracker rejects as too coarse still leave a committed stop on the
            // window's displacement (requiring counted distance there too made this one stop, and a walk whose fixes
            // all claim 32–45 m one stop spanning it, as an earlier rule did).
            withKnownIssue("coarse fixes drifting by their accuracy split a stop indoors") {
                #expect(live == 1, "seed \(seed): \(live) stops live, \(found.count) in the analysis")
            }
        }
    }

    @Test(arguments: [10.0, 20, 40])
    func aSparseLoggersStopsAreFoundAndItsStepsAreNotGaps(intervalSeconds: Double) {
        let legs: [Leg] = [
            .walk(metres: 600, heading: 0), .stop(seconds: 600), .walk(metres: 600, heading: 90),
            .stop(seconds: 300), .walk(metres: 300, heading: 180),
        ]
        let scenario = Scenario(name: "sparse walk", legs: legs, intervalSeconds: intervalSeconds)
        for seed in [1, 2, 3] as [UInt64] {
            let (s, found) = Self.score(
                scenario, [1, 3], errors: .cleanPhone, stops: .walking, tracking: .walking, seed: seed)
            #expect(
                s.precision == 1 && s.recall == 1,
                "every \(intervalSeconds) s, seed \(seed): found \(found.map { ($0.start, $0.durationSeconds) })")
            // Three steps cover the window; the countdown and the exit need a step or two more.
            let bound = StopDetectionProfile.walking.stopTimeoutSeconds + 3 * intervalSeconds
            #expect(
                s.worstStartError <= bound && s.worstEndError <= bound,
                "every \(intervalSeconds) s, seed \(seed): start error \(s.worstStartError) s, end \(s.worstEndError) s"
            )
            let track = Simulator.simulate(scenario, errors: .cleanPhone, seed: seed)
            let a = StopAnalysis(fixes: track.fixes, profile: .walking)
            // At most the first step, judged before the logger has a rhythm, is a gap.
            #expect(
                a.unobservedSeconds <= (intervalSeconds > 30 ? intervalSeconds : 0),
                "every \(intervalSeconds) s: \(a.unobservedSeconds) s unobserved")
        }
    }

    @Test func aSilenceOfThreeStepsIsStillAGapForASparseLogger() {
        var d = StopDetector(profile: .walking)
        let t0 = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        for k in 0..<20 {
            _ = d.process(
                MotionEvidence(
                    timestamp: t0.advanced(bySeconds: Double(k) * 20), latitude: 48, longitude: 11,
                    accuracyMetres: 5, speedMetresPerSecond: 0))
        }
        #expect(abs(d.typicalStepSeconds - 20) < 1e-9)
        #expect(abs(d.gapSeconds - 60) < 1e-9)
        // A 1 Hz phone keeps the profile's gap.
        var phone = StopDetector(profile: .walking)
        for k in 0..<20 {
            _ = phone.process(
                MotionEvidence(
                    timestamp: t0.advanced(bySeconds: Double(k)), latitude: 48, longitude: 11, accuracyMetres: 5,
                    speedMetresPerSecond: 0))
        }
        #expect(phone.gapSeconds == StopDetectionProfile.walking.gapSeconds)
        // A stale first fix 400 s before a 1 Hz walk (a reviewer's) sets no rhythm: the phone's gap stays 30 s, and
        // a 60 s silence after its first seconds is a gap.
        var stale = StopDetector(profile: .walking)
        _ = stale.process(MotionEvidence(timestamp: t0, latitude: 48, longitude: 11, accuracyMetres: 5))
        for k in 0..<5 {
            _ = stale.process(
                MotionEvidence(
                    timestamp: t0.advanced(bySeconds: 400 + Double(k)), latitude: 48, longitude: 11, accuracyMetres: 5))
        }
        #expect(stale.typicalStepSeconds == 1 && stale.gapSeconds == StopDetectionProfile.walking.gapSeconds)
        // A 1 Hz phone after a first step of 60 s: one step later its rhythm is its own (the lower median).
        var late = StopDetector(profile: .walking)
        _ = late.process(MotionEvidence(timestamp: t0, latitude: 48, longitude: 11, accuracyMetres: 5))
        for (k, t) in [60.0, 61].enumerated() {
            _ = late.process(
                MotionEvidence(timestamp: t0.advanced(bySeconds: t), latitude: 48, longitude: 11, accuracyMetres: 5))
            if k == 1 { #expect(late.typicalStepSeconds == 1) }
        }
    }

    @Test func aStayInsideARecordingGapIsAPossibleStopNotAStop() {
        // Ten minutes indoors without a fix, out where the walker went in; then a 60 s tunnel walked through.
        let indoors = Leg(seconds: 600, speedMetresPerSecond: 0, headingDegrees: 0, activity: .still, hasSignal: false)
        let legs: [Leg] = [
            .walk(metres: 400, heading: 0), indoors, .walk(metres: 400, heading: 90),
            .tunnel(metres: 84, heading: 90, speed: 1.4, activity: .walking), .walk(metres: 200, heading: 90),
        ]
        let scenario = Scenario(name: "indoors", legs: legs)
        for seed in [1, 2, 3] as [UInt64] {
            let track = Simulator.simulate(scenario, errors: .cleanPhone, seed: seed)
            let a = StopAnalysis(fixes: track.fixes, profile: .walking)
            #expect(a.stops.isEmpty, "seed \(seed): \(a.stops.map { ($0.start, $0.durationSeconds) })")
            #expect(a.staysAcrossGaps.count == 1, "seed \(seed): \(a.staysAcrossGaps.map { ($0.start, $0.end) })")
            let stay = a.staysAcrossGaps.first
            let start = scenario.start.advanced(bySeconds: 400 / 1.4), end = start.advanced(bySeconds: 600)
            #expect(stay.map { abs($0.start.seconds(to: start)) <= 2 && abs($0.end.seconds(to: end)) <= 2 } == true)
            #expect(stay?.fixes == 0 && stay?.unobservedSeconds == stay?.durationSeconds)
            // The gap's time stays unobserved: silence never means stopped.
            #expect(a.unobservedSeconds >= 600 + 60 - 4)
        }
    }

    /// A fix `second` s after 2024-05-01T08:00Z, `north` m north of 48° N 11° E, 5 m accuracy, reading `speed`.
    static func northFix(_ second: Double, north: Double, speed: Double?) throws -> Fix {
        try Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_550_400_000).advanced(bySeconds: second),
            latitude: 48 + north / 111_320, longitude: 11, horizontalAccuracyMetres: 5, speedMetresPerSecond: speed)
    }

    /// A walker stands 15 s, goes silent for 10 minutes at one place, and stands 15 s more: the countdown runs on
    /// the observed seconds only and commits after the gap, a stop that holds the silence as unobserved; the gap
    /// is not listed again as a possible stop (a tester's: listed both ways).
    @Test func aStopThatSpansAGapIsNotAlsoAPossibleStop() throws {
        var fixes: [Fix] = []
        func add(_ second: Double, _ north: Double, _ speed: Double) throws {
            fixes.append(try Self.northFix(second, north: north, speed: speed))
        }
        for k in 0..<120 { try add(Double(k), 1.4 * Double(k), 1.4) }
        for k in 120..<135 { try add(Double(k), 168, 0) }
        for k in 735..<750 { try add(Double(k), 168, 0) }
        for k in 750..<870 { try add(Double(k), 168 + 1.4 * Double(k - 750), 1.4) }
        let analysis = StopAnalysis(fixes: fixes, profile: .walking)
        #expect(analysis.stops.count == 1, "\(analysis.stops)")
        #expect(analysis.stops.first.map { $0.unobservedSeconds >= 590 } == true, "\(analysis.stops)")
        #expect(analysis.staysAcrossGaps.isEmpty, "\(analysis.staysAcrossGaps)")
    }

    /// A parked tracker's heartbeats: a stay across back-to-back gaps at one place holds the fixes between them
    /// (it said "no fixes" over an 8-hour stay with a heartbeat every hour), and a long one ends the trip. When
    /// every one of them reads a speed of 0 it is a stop (the device was seen there, still, at least three times:
    /// a fleet tester's deliveries with a heartbeat every 2 minutes were only "possible stops"); without readings
    /// it stays a possible stop.
    @Test(arguments: [true, false])
    func aStayAcrossHeartbeatsCountsItsFixes(readsSpeed: Bool) throws {
        var fixes: [Fix] = []
        func add(_ second: Double, _ north: Double, _ speed: Double) throws {
            fixes.append(try Self.northFix(second, north: north, speed: readsSpeed ? speed : nil))
        }
        for k in 0..<120 { try add(Double(k), 10 * Double(k), k == 119 ? 0 : 10) }
        // Parked at 1,190 m: a heartbeat every 10 minutes for an hour, then away again.
        for k in 1...5 { try add(119 + 600 * Double(k), 1190 + Double(k % 2), 0) }
        // (The departure fix reads a crawl: the fixes between the gaps decide.)
        for k in 0..<120 { try add(3719 + Double(k), 1190 + 10 * Double(k), k == 0 ? 0.9 : 10) }
        let analysis = StopAnalysis(fixes: fixes, profile: .driving)
        let stays = readsSpeed ? analysis.stops : analysis.staysAcrossGaps
        #expect(stays.count == 1, "stops \(analysis.stops), possible \(analysis.staysAcrossGaps)")
        #expect((readsSpeed ? analysis.staysAcrossGaps : analysis.stops).isEmpty)
        #expect(stays.first?.fixes == 5)
        #expect(stays.first.map { abs($0.durationSeconds - 3600) < 1 } == true)
        // An hour parked ends the trip, as an hour's silence would (it was one trip through the stay).
        #expect(analysis.trips.count == 2, "\(analysis.trips)")
        #expect(analysis.trips.first.map { $0.end == fixes[119].timestamp } == true)
    }

    /// A ride too fast for the walking profile, without Doppler, is rejected for speed on almost every fix and
    /// never re-anchors: those fixes are still evidence of position (only outliers are not), so the ride reads
    /// as moving, not as recording gaps (a reviewer's 20 m/s ride: moving 3 s, unobserved 298 s).
    @Test func aRideTooFastForTheProfileIsMovingNotUnobserved() throws {
        // Five minutes parked, then away at 2 m/s² up to 25 m/s for five minutes; 3 m fixes with 1 m of noise, no
        // Doppler (a reviewer's file).
        var fixes: [Fix] = []
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func noise() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        let t0 = Timestamp(millisecondsSince1970: 1_714_550_400_000)
        for k in 0..<600 {
            let t = Double(max(0, k - 300))
            let north = t < 12.5 ? t * t : 156.25 + 25 * (t - 12.5)
            fixes.append(
                try Fix(
                    timestamp: t0.advanced(bySeconds: Double(k)), latitude: 48 + (north + 2 * noise()) / 111_320,
                    longitude: 11 + 2 * noise() / 74_500, horizontalAccuracyMetres: 3))
        }
        var tracker = Tracker(profile: .walking)
        let decisions = tracker.process(batch: fixes)
        #expect(decisions.filter { $0.rejection == .speed }.count > 250)
        let a = StopAnalysis(
            evidence: zip(fixes, decisions).map { MotionEvidence(fix: $0, decision: $1) }, profile: .walking)
        #expect(a.unobservedSeconds < 30, "\(a.unobservedSeconds) s unobserved")
        #expect(a.movingSeconds > 250, "\(a.movingSeconds) s moving")
    }

    @Test func twoGapsWithOneFixBetweenThemAtOnePlaceAreOnePossibleStop() {
        let t0 = Timestamp(millisecondsSince1970: 1_714_550_400_000)
        var evidence: [MotionEvidence] = []
        func fix(_ t: Double, _ north: Double) {
            evidence.append(
                MotionEvidence(
                    timestamp: t0.advanced(bySeconds: t), latitude: 48 + north / 111_320, longitude: 11,
                    accuracyMetres: 5, speedMetresPerSecond: 1.4))
        }
        for k in 0...60 { fix(Double(k), 1.4 * Double(k)) }  // walking north, to 84 m
        fix(120, 86)  // a minute without a fix, one fix 2 m on, another minute
        for k in 0...60 { fix(180 + Double(k), 87 + 1.4 * Double(k)) }  // and on
        let a = StopAnalysis(evidence: evidence, profile: .walking)
        #expect(a.staysAcrossGaps.count == 1, "\(a.staysAcrossGaps.map { ($0.start, $0.end) })")
        #expect(a.staysAcrossGaps.first?.durationSeconds == 120)
        #expect(a.stops.isEmpty)
    }

    /// A stop's start leaves out the approach: the kinematic window that arms it reaches back over the last
    /// seconds of walking, and its leading fixes with a Doppler speed above the still speed, or beyond their
    /// accuracy (+ 2 m) from the still window's centre, are not the stop's (a tester measured starts 3–14 s
    /// early, median 5 s).
    @Test func aStopStartsAfterItsApproach() {
        var offsets: [Double] = []
        for seed in 1...5 as ClosedRange<UInt64> {
            let (_, found) = Self.score(
                Self.walkWithStops.0, Self.walkWithStops.1, errors: .cleanPhone, stops: .walking,
                tracking: .walking, seed: seed)
            let truth = Self.truth(Self.walkWithStops.0, stopLegs: Self.walkWithStops.1)
            let t0 = Self.walkWithStops.0.start
            for t in truth.dropFirst() {
                if let s = found.first(where: { t0.seconds(to: $0.start) < t.end && t0.seconds(to: $0.end) > t.start })
                {
                    offsets.append(t0.seconds(to: s.start) - t.start)
                }
            }
        }
        offsets.sort()
        #expect(offsets.count >= 12)
        // Measured: +0.1 … +0.4 s (−6.9 … −4.6 s before the approach was left out).
        #expect(offsets[offsets.count / 2] >= -3, "median start offset \(offsets[offsets.count / 2]) s")
        #expect(offsets.allSatisfy { $0 <= 5 }, "\(offsets)")
    }

    @Test func streamingEqualsBatch() {
        let track = Simulator.simulate(.walkWithStops, errors: .degradedPhone, seed: 7)
        let batch = StopAnalysis(fixes: track.fixes, profile: .walking)
        var d = StopDetector(profile: .walking)
        var streamed: [StopRecord] = []
        for fix in track.fixes {
            // A live app also lets time pass between fixes.
            for event in d.advance(to: fix.timestamp.advanced(bySeconds: -0.5)) + d.process(MotionEvidence(fix: fix)) {
                if case .stopEnded(let r) = event { streamed.append(r) }
            }
        }
        for event in d.finish() { if case .stopEnded(let r) = event { streamed.append(r) } }
        #expect(streamed == batch.stops)
        #expect(batch.stops.count == 4)
    }

    @Test func raisingTheRadiusOrTimeoutNeverAddsStops() {
        for (scenario, _) in [Self.walkWithStops, Self.shopVisit] {
            let track = Simulator.simulate(scenario, errors: .degradedPhone, seed: 5)
            var previous = Int.max
            for timeout in [10.0, 20, 40, 80, 160] {
                var p = StopDetectionProfile.walking
                p.stopTimeoutSeconds = timeout
                let n = StopAnalysis(fixes: track.fixes, profile: p).stops.count
                #expect(n <= previous, "\(scenario.name): timeout \(timeout) s gives \(n) stops")
                previous = n
            }
            previous = Int.max
            for radius in [20.0, 40, 80, 160] {
                var p = StopDetectionProfile.walking
                p.stationaryRadiusMetres = radius
                let n = StopAnalysis(fixes: track.fixes, profile: p).stops.count
                #expect(n <= previous, "\(scenario.name): radius \(radius) m gives \(n) stops")
                previous = n
            }
        }
    }
}
