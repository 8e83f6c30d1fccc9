import Testing
import TrueTrackCore
import TrueTrackIO

/// Stop detection on the shared real recordings (figures in the closing note of issue 4).
@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct StopRecordingTests {
    static func fixes(_ relative: String, hdop: HDOPInterpretation? = nil) throws -> [Fix] {
        var options = ReadOptions()
        if let hdop { options.hdop = hdop }
        var reader = try AnyFixReader(path: Datasets.path(relative), options: options)
        var result: [Fix] = []
        while let fix = try reader.next() { result.append(fix) }
        return result
    }

    static func analyse(
        _ relative: String, _ kind: TrackingProfile.Kind, hdop: HDOPInterpretation? = nil,
        change: (inout StopDetectionProfile) -> Void = { _ in }
    ) throws -> StopAnalysis {
        var profile = StopDetectionProfile.preset(kind)
        change(&profile)
        return StopAnalysis(fixes: try fixes(relative, hdop: hdop), profile: profile)
    }

    static func utc(_ text: String) -> Timestamp { ISO8601.parse(text)! }

    @Test(arguments: [
        "gmt-stationary-2016/pseudoranges_log_2016_06_30_21_26_07.txt",
        "phone-stationary-nmea/gnss_log_2026_03_12_11_29_27.nmea", "rtk-reach-neu/openRTK.txt",
        "rtk-reach-neu/occludedRTK.txt", "gpsd-nmea/ublox-zed-f9p_hpg1.11.log", "gpsd-nmea/telit-he910.log",
        "gpsd-nmea/ublox-8.log",
    ])
    func stationaryRecordingIsOneStopWithoutTrips(_ relative: String) throws {
        for kind in [TrackingProfile.Kind.walking, .driving] {
            let a = try Self.analyse(relative, kind)
            #expect(
                a.stops.count == 1 && a.trips.isEmpty,
                "\(relative) \(kind): \(a.stops.count) stops, \(a.trips.count) trips")
            #expect(a.movingSeconds == 0)
        }
    }

    /// Trial 02 (ground level, 4–6 m): the 32–38 s pause at the repeated waypoint is found; its start within
    /// 15 s, its end late by up to 55 s (known gap: the Samsung phones read about half the walking speed, so the
    /// departure waits for the stationary radius). Trial 01 repetition 02 merges the pause with the standing
    /// start (the 37 m walked between them at 0.7 m/s never leaves the 40 m radius).
    @Test(arguments: [
        ("ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition01.txt", "2023-06-14T08:37:32Z", "2023-06-14T08:38:10Z"),
        ("ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition04.txt", "2023-06-14T09:49:42Z", "2023-06-14T09:50:14Z"),
    ])
    func groundLevelWalkFindsThePauseAtTheRepeatedWaypoint(_ relative: String, _ start: String, _ end: String) throws {
        let a = try Self.analyse(relative, .walking)
        // The recording starts ~60 s before the walk (standing), then walk, pause, walk.
        #expect(a.stops.count == 2)
        let pause = try #require(a.stops.last)
        #expect(abs(pause.start.seconds(to: Self.utc(start))) <= 15)
        #expect(abs(pause.end.seconds(to: Self.utc(end))) <= 55)
    }

    /// Known limit: underground (trial 25, 8–25 m accuracy) the walk stays in a 25 m box and the Samsung's Doppler
    /// reads the same 0–0.9 m/s walking and standing: the whole recording is one stop; the detector does not
    /// invent extra stops or trips either.
    @Test func undergroundLoopIsIndistinguishableFromPottering() throws {
        let a = try Self.analyse("ipin2023-walk/IPIN2023_T3_TrainingTrial25_repetition01.txt", .walking)
        #expect(a.stops.count == 1)
        #expect(a.trips.isEmpty)
    }

    @Test func sensorLoggerDriveFindsTheOneHaltOfAMinuteAndNotTheTrafficLights() throws {
        let a = try Self.analyse("sensorlogger-pixel6a/20230809_163741/gps.csv", .driving)
        // Reference: the phone's own speed < 0.3 m/s for ≥ 60 s: 16:50:01–16:51:10 UTC (halts of 33–58 s are not stops).
        #expect(a.stops.count == 1)
        let stop = try #require(a.stops.first)
        #expect(abs(stop.start.seconds(to: Self.utc("2023-08-09T16:50:01Z"))) <= 15)
        #expect(abs(stop.end.seconds(to: Self.utc("2023-08-09T16:51:10Z"))) <= 15)
        #expect(a.trips.count == 2)
    }

    @Test func gsdcDriveMatchesTheSPANTruthStop() throws {
        let a = try Self.analyse(
            "gsdc2020-mtv1/Pixel4_chipset.nmea", .driving, hdop: .scaledAccuracy(metresPerUnit: 10))
        // SPAN truth speed < 0.3 m/s for ≥ 60 s within the phone's span: 22:10:46 (first fix) – 22:11:53; the
        // second truth halt (22:39:08–22:40:30) has only 36 s inside the phone's span.
        #expect(a.stops.count == 1)
        let stop = try #require(a.stops.first)
        #expect(abs(stop.end.seconds(to: Self.utc("2020-05-14T22:11:53Z"))) <= 15)
    }

    /// GeoLife's labelled walk (06:09:26-06:28:25) has no accuracy and moves at 0.66 m/s on average. With a
    /// fixed 10 s window it read still every minute or so and broke into 12 stops (precision 0.08); the
    /// verdict's horizon now stretches with the still radius (12 m here: 24 s at 0.5 m/s). What remains are the
    /// halts the fixes show: 3.4 minutes without fixes at 06:12:35-06:15:59 whose fixes before and after are
    /// 1.2 m apart (the walker waited there), and a 45 s turn-around at 06:19. The wait for the taxi
    /// (06:28:25-06:30:57) has no fix at all: silence, which never means stopped; it is a possible stop
    /// (``StopAnalysis/staysAcrossGaps``), its fixes before and after 23 m apart.
    @Test func geoLifeWalkKeepsOnlyTheHaltsItsFixesShow() throws {
        let a = try Self.analyse("geolife-010-mixed/Trajectory/20080402060926.plt", .walking)
        let walk = a.stops.filter {
            $0.start >= Self.utc("2008-04-02T06:09:26Z") && $0.end <= Self.utc("2008-04-02T06:28:26Z")
        }
        #expect(walk.count <= 2, "\(walk.map { ($0.start, $0.end) })")
        #expect(
            a.stops.contains {
                $0.start <= Self.utc("2008-04-02T06:12:35Z") && $0.end >= Self.utc("2008-04-02T06:15:59Z")
            })
        #expect(
            !a.stops.contains {
                $0.start <= Self.utc("2008-04-02T06:29:00Z") && $0.end >= Self.utc("2008-04-02T06:29:00Z")
            })
        // ...but a possible stop inside that gap: the fixes on both sides lie 23 m apart.
        #expect(
            a.staysAcrossGaps.contains {
                $0.start == Self.utc("2008-04-02T06:28:25Z") && $0.end == Self.utc("2008-04-02T06:30:57Z")
            })
        // Stops never overlap.
        for (x, y) in zip(a.stops, a.stops.dropFirst()) { #expect(x.end < y.start) }
        // The 4.8 h gap is not a stop: silence never means stopped.
        #expect(!a.stops.contains { $0.durationSeconds > 3600 })
    }

    /// The monotonicity on every recording of the manifest (its own category's profile): raising the
    /// stop timeout or the stationary radius never adds stops.
    @Test func raisingRadiusOrTimeoutNeverAddsStopsOnAnyRecording() throws {
        let manifest = try DatasetManifest.load(folder: try #require(Datasets.root).path)
        var checked = 0
        for r in manifest.recordings {
            var (format, options) = r.readingPlan
            options.lenient = true
            guard var reader = try? AnyFixReader(path: Datasets.path(r.path), format: format, options: options)
            else { continue }
            let fixes = reader.readAll().fixes
            guard fixes.count > 1 else { continue }
            let kind: TrackingProfile.Kind =
                r.activityCategory == "drive"
                ? .driving
                : r.activityCategory == "bike" ? .cycling : .walking
            var previous = Int.max
            for timeout in [10.0, 20, 40, 60, 120, 240] {
                var p = StopDetectionProfile.preset(kind)
                p.stopTimeoutSeconds = timeout
                let n = StopAnalysis(fixes: fixes, profile: p).stops.count
                #expect(n <= previous, "\(r.id): timeout \(timeout) s → \(n) stops")
                previous = n
            }
            previous = Int.max
            for radius in [20.0, 40, 80, 160, 320] {
                var p = StopDetectionProfile.preset(kind)
                p.stationaryRadiusMetres = radius
                let n = StopAnalysis(fixes: fixes, profile: p).stops.count
                #expect(n <= previous, "\(r.id): radius \(radius) m → \(n) stops")
                previous = n
            }
            checked += 1
        }
        #expect(checked >= 30, "\(checked) recordings checked")
    }
}
