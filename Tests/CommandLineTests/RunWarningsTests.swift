import Foundation
import Testing

/// The warnings `process` adds when its forward distance leaves part of the trip out: silences the traveller moved
/// across (``RunDiagnostics/silenceWarning(profile:input:)``) and a few fixes held as a vehicle that stand for much
/// of the distance (``RunDiagnostics/profileHint(_:input:countedMetres:)``).
@Suite struct RunWarningsTests {
    /// A track of `legs` (seconds, metres per second; a speed of 0 is a halt), one fix a second round a 400 m
    /// track (or along a straight road), claiming 5 m under 1 m of noise, with a speed column; the seconds in
    /// `silent` (ranges from the start) write no fix.
    static func track(
        _ legs: [(seconds: Int, metresPerSecond: Double)], silent: [Range<Int>] = [], isStraight: Bool = false
    ) -> String {
        var noise = SeededNoise(seed: 11)
        var csv = "time,latitude,longitude,accuracy,speed\n"
        var along = 0.0, second = 0
        let radius = 400 / (2 * Double.pi)
        for leg in legs {
            for _ in 0..<leg.seconds {
                if !silent.contains(where: { $0.contains(second) }) {
                    let angle = along / radius
                    let east = (isStraight ? along : radius * cos(angle)) + noise.gaussian()
                    let north = (isStraight ? 0 : radius * sin(angle)) + noise.gaussian()
                    csv += "\(1_714_546_800 + second),\(48.85 + north / 111_195),\(2.35 + east / 73_200),5,"
                    csv += "\(leg.metresPerSecond)\n"
                }
                along += leg.metresPerSecond
                second += 1
            }
        }
        return csv
    }

    static func process(_ csv: String, _ extra: [String]) throws -> (metres: Double, warnings: [String]) {
        let path = try Tool.temporaryFile("run-warnings.csv", contents: csv)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Tool.run(["process", path, "--json"] + extra)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (
            try #require((json["distanceMetres"] as? NSNumber)?.doubleValue),
            json["warnings"] as? [String] ?? []
        )
    }

    /// Two 10-minute walks two days apart are two stretches of time, not a silence of 172,801 s "99 % of the time"
    /// (a tester's): the step between them is no silence, and the share is of the stretches' time.
    @Test func recordingsDaysApartAreNoSilence() throws {
        func walks(silent: Range<Int>?) -> String {
            var csv = "time,latitude,longitude,accuracy_m\n"
            for start in [1_700_000_000, 1_700_000_000 + 2 * 86_400] {
                for i in 0..<600 where start == 1_700_000_000 || !(silent?.contains(i) ?? false) {
                    csv += "\(start + i),\(46 + 1.3 * Double(i) / 111_132),14,5\n"
                }
            }
            return csv
        }
        let apart = try Self.process(walks(silent: nil), [])
        #expect(!apart.warnings.contains { $0.contains("silence") }, "\(apart.warnings)")
        let withSilence = try Self.process(walks(silent: 300..<480), [])
        let warning = try #require(withSilence.warnings.first { $0.contains("silence") }, "\(withSilence.warnings)")
        #expect(
            warning.contains("moved across 1 silence longer than 60 s, 181 s in all (15 % of the time)"), "\(warning)")
    }

    /// A sports tester's track run with silences of 103–115 s read 4,723 m of 5,989 with no warning.
    @Test func namesTheSilencesTheTravellerMovedAcross() throws {
        let csv = Self.track([(900, 3.5)], silent: [200..<290, 600..<680])
        let (metres, warnings) = try Self.process(csv, ["--profile", "running"])
        #expect(metres < 0.9 * 900 * 3.5, "\(metres) m")
        let warning = try #require(warnings.first { $0.contains("silences") }, "\(warnings)")
        #expect(
            warning.contains("moved across 2 silences longer than 30 s, 172 s in all (19 % of the time)"), "\(warning)")
        // (Which silences: a CLI tester's hour-long one read ± 2.6 m after "a σ that covers them".)
        #expect(
            warning.contains("process --smooth gives the distance a σ that covers those shorter than 3600 s"),
            "\(warning)")
        // Smoothed, the σ says it: no warning.
        #expect(
            !(try Self.process(csv, ["--profile", "running", "--smooth"])).warnings.contains { $0.contains("silence") })
    }

    /// A logger paused at a halt (auto-pause) is silent where the traveller stood: nothing is missing.
    @Test func saysNothingOfASilenceAtAHalt() throws {
        let csv = Self.track([(300, 3.5), (200, 0), (300, 3.5)], silent: [310..<490])
        let (_, warnings) = try Self.process(csv, ["--profile", "running"])
        #expect(!warnings.contains { $0.contains("silence") }, "\(warnings)")
    }

    /// A logger's own rhythm is no silence (a reviewer's drive with a fix every 30 s read "119 silences … 100 % of
    /// the time"), nor is a stretch the gates refused (a drive read as walking: the profile hint says it).
    @Test func saysNothingOfASparseLoggersRhythmOrOfRefusedFixes() throws {
        let sparse = Self.track([(1800, 12)], isStraight: true).split(separator: "\n").enumerated()
            .filter { $0.offset == 0 || $0.offset % 30 == 1 }.map { String($0.element) }.joined(separator: "\n")
        let (_, rhythm) = try Self.process(sparse + "\n", ["--profile", "driving"])
        #expect(!rhythm.contains { $0.contains("silence") }, "\(rhythm)")
        let (_, asWalk) = try Self.process(Self.track([(600, 15)], isStraight: true), ["--profile", "walking"])
        #expect(asWalk.contains { $0.contains("faster than the walking profile allows") }, "\(asWalk)")
        #expect(!asWalk.contains { $0.contains("silence") }, "\(asWalk)")
    }

    /// A GPX whose `<speed>` sits in a namespace TrueTrack does not know, or inside an element it does not know, is
    /// read without it, and `info` and `process` say how many were left out (an app's own namespace lost its speeds
    /// without a word, a regression hunt's); a file with Garmin's extension says nothing.
    @Test func namesTheGPXSpeedsItDoesNotRead() throws {
        func gpx(_ extensions: String) -> String {
            var points = ""
            for i in 0..<30 {
                points +=
                    "<trkpt lat=\"\(48.85 + Double(i) * 2e-5)\" lon=\"2.35\"><time>2024-05-01T10:00:\(i < 10 ? "0" : "")\(i)Z</time>"
                    + "<extensions>\(extensions)</extensions></trkpt>\n"
            }
            return
                "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
                + "xmlns:w=\"urn:weather\" xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\">"
                + "<trk><trkseg>\n" + points + "</trkseg></trk></gpx>\n"
        }
        let foreign = try Tool.temporaryFile("foreign-speed.gpx", contents: gpx("<w:speed>2.2</w:speed>"))
        let garmin = try Tool.temporaryFile(
            "garmin-speed.gpx",
            contents: gpx("<gpxtpx:TrackPointExtension><gpxtpx:speed>2.2</gpxtpx:speed></gpxtpx:TrackPointExtension>"))
        defer { for path in [foreign, garmin] { try? FileManager.default.removeItem(atPath: path) } }
        for command in ["info", "process"] {
            let run = try Tool.run([command, foreign])
            #expect(
                run.stderr.contains("30 <speed> elements not read as the fixes' speed"), "\(command): \(run.stderr)")
            #expect(!(try Tool.run([command, garmin])).stderr.contains("<speed>"), "\(command)")
        }
    }

    /// A TCX `Speed` outside Garmin's `<Extensions><TPX>` and a GPX `hAcc` outside a point's `<extensions>` are read
    /// without, and `info` says how many were left out, as it does for GPX's `speed`; Garmin's and Apple's own say
    /// nothing.
    @Test func namesTheTCXSpeedsAndGPXAccuraciesItDoesNotRead() throws {
        func tcx(_ extensions: String) -> String {
            "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" "
                + "xmlns:ns3=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\"><Activities><Activity Sport=\"Biking\">"
                + "<Lap><Track>"
                + (0..<3).map {
                    "<Trackpoint><Time>2024-05-01T10:00:0\($0)Z</Time><Position><LatitudeDegrees>48.85</LatitudeDegrees>"
                        + "<LongitudeDegrees>2.35</LongitudeDegrees></Position><Extensions>\(extensions)</Extensions>"
                        + "</Trackpoint>"
                }.joined() + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>\n"
        }
        func gpx(_ extensions: String) -> String {
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
                + "xmlns:w=\"urn:weather\"><trk><trkseg>"
                + (0..<3).map {
                    "<trkpt lat=\"48.85\" lon=\"2.35\"><time>2024-05-01T10:00:0\($0)Z</time>"
                        + "<extensions>\(extensions)</extensions></trkpt>"
                }.joined() + "</trkseg></trk></gpx>\n"
        }
        let files = [
            (
                "foreign-speed.tcx", tcx("<w:Wind xmlns:w=\"urn:weather\"><w:Speed>9</w:Speed></w:Wind>"),
                "3 <Speed> elements"
            ),
            ("garmin-speed.tcx", tcx("<ns3:TPX><ns3:Speed>3</ns3:Speed></ns3:TPX>"), nil),
            ("foreign-accuracy.gpx", gpx("<w:hAcc>50</w:hAcc>"), "3 <hAcc>/<vAcc> elements"),
            ("apple-accuracy.gpx", gpx("<hAcc>5</hAcc><vAcc>6</vAcc>"), nil),
        ]
        for (name, contents, warning) in files {
            let path = try Tool.temporaryFile(name, contents: contents)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let run = try Tool.run(["info", path])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            if let warning {
                #expect(run.stderr.contains(warning + " not read as the fixes'"), "\(name): \(run.stderr)")
            } else {
                #expect(!run.stderr.contains("not read as the fixes'"), "\(name): \(run.stderr)")
            }
        }
    }

    /// A ride read as a run: its fast stretches and the latch after them (a fifth of the fixes, under the quarter
    /// that named them before) are held as a vehicle and 9 % of the distance goes uncounted; the hint names them (a
    /// sports tester's mountain bike as a run lost 29 % without a word).
    @Test func namesAFewFixesHeldAsAVehicleThatStandForMuchOfTheDistance() throws {
        let legs = [(500, 5.0), (30, 9.5), (300, 5.0), (30, 9.5), (500, 5.0)]
        let (_, warnings) = try Self.process(Self.track(legs, isStraight: true), ["--profile", "running"])
        let hint = try #require(warnings.first { $0.contains("moved like a vehicle") }, "\(warnings)")
        #expect(hint.contains("(2") && hint.contains(" %) moved like a vehicle"), "\(hint)")
        #expect(hint.contains("--profile cycling"), "\(hint)")
        // One 20 s drift of 80 m on a walk (an urban canyon): the latch holds the walk after it too, but few fixes
        // went fast, and the walk lost little; no hint (a reviewer's: "use --profile running").
        let (_, drift) = try Self.process(
            Self.track([(600, 1.4), (20, 4), (600, 1.4)], isStraight: true), ["--profile", "walking"])
        #expect(!drift.contains { $0.contains("vehicle") }, "\(drift)")
        // Read as the ride it is: nothing held, no hint.
        let (_, asRide) = try Self.process(Self.track(legs, isStraight: true), ["--profile", "cycling"])
        #expect(!asRide.contains { $0.contains("vehicle") }, "\(asRide)")
    }

    /// A short file that loses most of its distance to one cause says so, as a long one does: shares of fewer than
    /// 20 fixes count from three fixes and a third of them (``RunDiagnostics/isLargeShare(_:of:over:)``). A tester's
    /// drive of 6 fixes every 60 s on the walking profile read 0 m of 4,448 with "rejected: speed 3" alone; a jog of
    /// 7 fixes every 10 s at 3 m/s, 23 m of 180 m, without a word. One jump in a short walk is no such share.
    @Test("warns of a short file that lost most of its distance to the profile")
    func warnsOfAShortFileThatLostItsDistanceToTheProfile() throws {
        func line(_ count: Int, every seconds: Int, metresPerSecond: Double, jumpAt jump: Int? = nil) -> String {
            var csv = "time,latitude,longitude,accuracy\n"
            for i in 0..<count {
                let north = Double(i * seconds) * metresPerSecond + (i == jump ? 400 : 0)
                csv += "\(1_714_546_800 + i * seconds),\(48.85 + north / 111_195),2.35,5\n"
            }
            return csv
        }
        let (drove, droveWarnings) = try Self.process(line(6, every: 60, metresPerSecond: 15), [])
        #expect(drove == 0)
        #expect(
            droveWarnings.contains { $0.contains("rejected as faster than the walking profile") }, "\(droveWarnings)")
        let (_, jogWarnings) = try Self.process(line(7, every: 10, metresPerSecond: 3), [])
        #expect(jogWarnings.contains { $0.contains("moved like a vehicle") }, "\(jogWarnings)")
        let (_, walkWarnings) = try Self.process(line(8, every: 5, metresPerSecond: 1.4, jumpAt: 4), [])
        #expect(!walkWarnings.contains { $0.contains("profile") }, "\(walkWarnings)")
        // Two fixes of six rejected for their accuracy (a cold start claiming 100 m): no column in another unit.
        var cold = line(6, every: 5, metresPerSecond: 1.4).split(separator: "\n").map(String.init)
        for k in [1, 2] { cold[k] = String(cold[k].dropLast(2)) + ",100" }
        let (_, coldWarnings) = try Self.process(cold.joined(separator: "\n") + "\n", [])
        #expect(!coldWarnings.contains { $0.contains("accuracy") }, "\(coldWarnings)")
    }
}
