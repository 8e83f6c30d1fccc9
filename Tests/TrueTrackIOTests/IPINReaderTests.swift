import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackIO

@Suite struct IPINReaderTests {
    /// Figures from ipin2023-walk/PROVENANCE.md. "Unique" counts a row as a duplicate when its fix time and
    /// position equal the previous row's (the two copies of a fix may differ in AppTimestamp and SatInUse, so
    /// whole-row equality would find fewer: 195 instead of 196 in t01r03). PROVENANCE's "rows with accuracy >
    /// 100 m" are counted after removing duplicates; the raw row counts are given too.
    struct Trial: Sendable, CustomStringConvertible {
        var file: String
        var rows: Int
        var unique: Int
        var backwards: Int
        var coarseRows: Int
        var coarseUnique: Int
        var maximumAccuracy: Double
        var waypoints: Int
        var referenceMetres: Double
        var description: String { file }
    }

    static let trials: [Trial] = [
        Trial(
            file: "IPIN2023_T3_TrainingTrial01_repetition02.txt", rows: 406, unique: 205, backwards: 8,
            coarseRows: 12, coarseUnique: 8, maximumAccuracy: 896.0, waypoints: 14, referenceMetres: 101.5),
        Trial(
            file: "IPIN2023_T3_TrainingTrial01_repetition03.txt", rows: 392, unique: 196, backwards: 0,
            coarseRows: 0, coarseUnique: 0, maximumAccuracy: 48.0, waypoints: 14, referenceMetres: 101.5),
        Trial(
            file: "IPIN2023_T3_TrainingTrial02_repetition01.txt", rows: 390, unique: 195, backwards: 9,
            coarseRows: 18, coarseUnique: 9, maximumAccuracy: 748.0, waypoints: 12, referenceMetres: 96.1),
        Trial(
            file: "IPIN2023_T3_TrainingTrial02_repetition04.txt", rows: 388, unique: 194, backwards: 0,
            coarseRows: 0, coarseUnique: 0, maximumAccuracy: 48.0, waypoints: 12, referenceMetres: 96.1),
        Trial(
            file: "IPIN2023_T3_TrainingTrial22_repetition01.txt", rows: 322, unique: 161, backwards: 0,
            coarseRows: 0, coarseUnique: 0, maximumAccuracy: 27.0, waypoints: 12, referenceMetres: 64.6),
        Trial(
            file: "IPIN2023_T3_TrainingTrial25_repetition01.txt", rows: 484, unique: 242, backwards: 0,
            coarseRows: 0, coarseUnique: 0, maximumAccuracy: 55.0, waypoints: 26, referenceMetres: 141.9),
        Trial(
            file: "IPIN2023_T3_TrainingTrial25_repetition04.txt", rows: 502, unique: 251, backwards: 12,
            coarseRows: 0, coarseUnique: 0, maximumAccuracy: 19.3, waypoints: 26, referenceMetres: 141.9),
    ]

    /// Haversine distance on a sphere of radius 6 371 008.8 m (the MANIFEST's convention).
    private func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, h.squareRoot()))
    }

    private func read(_ text: String, options: ReadOptions = ReadOptions()) -> ReadResult {
        var reader = IPINReader(stream: ByteStream(bytes: Array(text.utf8), name: "ipin.txt"), options: options)
        return reader.readAll()
    }

    // MARK: - Real recordings

    @Test(.enabled(if: Datasets.available, Datasets.missingReason), arguments: trials)
    func everyTrialMatchesItsProvenance(_ trial: Trial) throws {
        let path = Datasets.path("ipin2023-walk/" + trial.file)
        var reader = try IPINReader(path: path)
        let result = reader.readAll()
        #expect(result.error == nil)
        let fixes = result.fixes
        #expect(fixes.count == trial.rows)
        #expect(result.report.skipped(.comment) == 37)
        #expect(result.report.skipped(.otherRecord) == trial.waypoints)

        var unique: [Fix] = []
        var backwards = 0
        for (k, fix) in fixes.enumerated() {
            if k > 0, fixes[k - 1].timestamp > fix.timestamp { backwards += 1 }
            if let last = unique.last, last.timestamp == fix.timestamp, last.latitude == fix.latitude,
                last.longitude == fix.longitude
            {
                continue
            }
            unique.append(fix)
        }
        #expect(unique.count == trial.unique)
        #expect(backwards == trial.backwards)
        let coarse: (Fix) -> Bool = { ($0.horizontalAccuracyMetres ?? 0) > 100 }
        #expect(fixes.filter(coarse).count == trial.coarseRows)
        #expect(unique.filter(coarse).count == trial.coarseUnique)
        #expect(fixes.compactMap(\.horizontalAccuracyMetres).max() == trial.maximumAccuracy)

        let waypoints = try IPINReader.waypoints(path: path)
        #expect(waypoints.count == trial.waypoints)
        #expect(waypoints.map(\.counter) == Array(1...trial.waypoints))
        var reference = 0.0
        for k in waypoints.indices.dropFirst() {
            reference += haversine(
                waypoints[k - 1].latitude, waypoints[k - 1].longitude,
                waypoints[k].latitude, waypoints[k].longitude)
        }
        #expect(abs(reference - trial.referenceMetres) < 0.05, "reference \(reference)")
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func trial01Repetition02Values() throws {
        let path = Datasets.path("ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition02.txt")
        var reader = try IPINReader(path: path)
        // GNSS;2.8043;1686733381.5100;49.461219;11.111015;362.000;0.000;14.0;0.5;17;16
        let first = try #require(try reader.next())
        #expect(reader.lastAppTimestampSeconds == 2.8043)
        #expect(reader.lastSatellitesInView == 17)
        #expect(first.timestamp == Timestamp(millisecondsSince1970: 1_686_733_381_510))
        #expect(first.latitude == 49.461219)
        #expect(first.longitude == 11.111015)
        #expect(first.altitudeMetres == 362.0)
        #expect(first.courseDegrees == nil)  // 0.000: Android's "no bearing"
        #expect(first.horizontalAccuracyMetres == 14.0)
        #expect(first.speedMetresPerSecond == 0.5)
        #expect(first.satellitesUsed == 16)
        #expect(first.provider == .unknown)
        // The duplicate copy differs only in AppTimestamp.
        let second = try #require(try reader.next())
        #expect(second == first)
        #expect(reader.lastAppTimestampSeconds == 2.8067)

        var fixes = [first, second]
        var appTimes = [2.8043, 2.8067]
        while let fix = try reader.next() {
            fixes.append(fix)
            appTimes.append(try #require(reader.lastAppTimestampSeconds))
        }
        #expect(reader.report.recordsRead == 457)
        // GNSS;199.2881;1686733578.0000;49.461274;11.110996;364.000;304.800;7.0;0.4;24;23
        let last = try #require(fixes.last)
        #expect(appTimes.last == 199.2881)
        #expect(last.timestamp == Timestamp(millisecondsSince1970: 1_686_733_578_000))
        #expect(last.courseDegrees == 304.8)
        #expect(last.horizontalAccuracyMetres == 7.0)
        // App time never goes backwards, whatever the fix time does.
        #expect(zip(appTimes, appTimes.dropFirst()).allSatisfy { $0 <= $1 })
        // Network fixes (accuracy 748-896 m) carry altitude, bearing and speed 0 = none.
        let network = fixes.filter { ($0.horizontalAccuracyMetres ?? 0) > 100 }
        #expect(network.count == 12)
        #expect(
            network.allSatisfy {
                $0.altitudeMetres == nil && $0.courseDegrees == nil && $0.speedMetresPerSecond == nil
            })
        // GNSS;15.4368;1686733375.2900;49.461693;11.109047;0.000;0.000;748.0;0.0;24;21 - 18 s older than the
        // fix before it.
        #expect(network.first?.timestamp == Timestamp(millisecondsSince1970: 1_686_733_375_290))

        let waypoints = try IPINReader.waypoints(path: path)
        // POSI;61.8086;1;49.461316433032;11.110964442580;0;100
        #expect(
            waypoints.first
                == IPINWaypoint(
                    appTimestampSeconds: 61.8086, counter: 1, latitude: 49.461316433032,
                    longitude: 11.11096444258, floor: 0, building: 100))
        // POSI;198.2611;14;49.461316433032;11.110964442580;0;100
        #expect(waypoints.last?.appTimestampSeconds == 198.2611)
        let window =
            try #require(waypoints.last).appTimestampSeconds - (try #require(waypoints.first)).appTimestampSeconds
        #expect(abs(window - 136.4525) < 1e-9)
        // Waypoints lie inside the GNSS rows' app-time span, so they can be aligned on it.
        #expect(appTimes.first! < waypoints.first!.appTimestampSeconds)
        #expect(appTimes.last! > waypoints.last!.appTimestampSeconds)
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func waypointReaderCountsWhatItSkips() throws {
        var reader = try IPINWaypointReader(
            path: Datasets.path("ipin2023-walk/IPIN2023_T3_TrainingTrial22_repetition01.txt"))
        var waypoints: [IPINWaypoint] = []
        while let waypoint = try reader.next() { waypoints.append(waypoint) }
        #expect(waypoints.count == 12)
        #expect(waypoints.allSatisfy { $0.floor == -2 && $0.building == 100 })
        #expect(reader.report.skipped(.otherRecord) == 322)
        #expect(reader.report.skipped(.comment) == 37)
    }

    // MARK: - Hand-worked inputs

    @Test func zerosThatMeanNone() throws {
        let text = """
            % header
            GNSS;1.0;1700000000.000;10.0;20.0;100.000;0.000;5.0;0.0;10;8
            GNSS;2.0;1700000001.000;10.0;20.0;0.000;0.000;800.0;0.0;10;8
            GNSS;3.0;1700000002.000;10.0;20.0;0.000;45.000;5.0;0.0;10;8
            GNSS;4.0;1700000003.123;10.0;20.0;100.000;90.000;5.0;1.5
            """
        let result = read(text)
        #expect(result.error == nil)
        let fixes = result.fixes
        #expect(fixes.count == 4)
        #expect(fixes[0].courseDegrees == nil && fixes[0].speedMetresPerSecond == 0 && fixes[0].altitudeMetres == 100)
        #expect(fixes[1].altitudeMetres == nil && fixes[1].courseDegrees == nil && fixes[1].speedMetresPerSecond == nil)
        #expect(fixes[2].altitudeMetres == nil && fixes[2].courseDegrees == 45 && fixes[2].speedMetresPerSecond == 0)
        #expect(fixes[3].timestamp == Timestamp(millisecondsSince1970: 1_700_000_003_123))
        #expect(fixes[3].satellitesUsed == nil && fixes[3].speedMetresPerSecond == 1.5)
        #expect(result.report.skipped(.comment) == 1)
    }

    /// An altitude, speed or bearing that is no finite number (`NaN`, `Infinity`, `1e400`) is read as missing and
    /// counted with the fields read as missing, strict or lenient, the fix kept: it was dropped without a word.
    @Test func nonFiniteMeasurementsAreReadAsMissingAndCounted() throws {
        let text =
            "GNSS;1.0;1700000000.000;10.0;20.0;NaN;1e400;5.0;Infinity;10;8\n"
            + "GNSS;2.0;1700000001.000;10.0;20.0;100.000;45.000;5.0;1.5;10;8\n"
        for lenient in [false, true] {
            let result = read(text, options: ReadOptions(lenient: lenient))
            #expect(result.error == nil && result.fixes.map(\.altitudeMetres) == [nil, 100])
            #expect(result.fixes[0].speedMetresPerSecond == nil && result.fixes[0].courseDegrees == nil)
            let fields = result.report.unreadableFields.map { error -> String in
                guard case .malformedField(let at, let field, _, _) = error else { return "\(error)" }
                return "\(at.line) \(field)"
            }
            #expect(fields == ["1 altitude", "1 bearing", "1 speed"], "\(fields)")
        }
    }

    @Test func rejectsMalformedRowsNamingTheField() {
        let cases: [(String, String, Int)] = [
            ("GNSS;1.0;1700000000.000;1o.0;20.0;100;0;5;0;10;8", "latitude", 25),
            ("GNSS;1.0;17000x0000.000;10.0;20.0;100;0;5;0;10;8", "time", 10),
            ("GNSS;1.0;1700000000.000;10.0;20.0;100;0;5;0;10;eight", "satellites_used", 48),
            ("GNSS;one;1700000000.000;10.0;20.0;100;0;5;0;10;8", "app_time", 6),
            ("GNSS;1.0;1e300;10.0;20.0;100;0;5;0;10;8", "time", 10),
        ]
        for (row, field, column) in cases {
            let result = read(row)
            guard case .malformedField(let location, let name, _, _)? = result.error else {
                Issue.record("\(row): expected malformedField, got \(String(describing: result.error))")
                continue
            }
            #expect(name == field, "\(row)")
            #expect(location.line == 1 && location.column == column, "\(row): \(location)")
        }
        let short = read("GNSS;1.0;1700000000.000;10.0")
        guard case .malformedRecord(let location, _, _)? = short.error else {
            Issue.record("expected malformedRecord, got \(String(describing: short.error))")
            return
        }
        #expect(location.line == 1)
        let outOfRange = read("GNSS;1.0;1700000000.000;10.0;200.0;100;0;5;0;10;8")
        guard case .invalidFix(_, .longitudeOutOfRange(200), _)? = outOfRange.error else {
            Issue.record("expected invalidFix, got \(String(describing: outOfRange.error))")
            return
        }
    }

    @Test func lenientModeSkipsBadRowsAndKeepsOrder() {
        let text = """
            GNSS;1.0;1700000002.000;10.0;20.0;100;0;5;0;10;8
            GNSS;1.1;1700000001.000;1x;20.0;100;0;5;0;10;8
            GNSS;1.2;1700000001.000;10.0;20.0;100;0;5;0;10;8
            GNSS;1.3;;10.0;20.0;100;0;5;0;10;8
            GNSS;1.4;1700000000.000;;20.0;100;0;5;0;10;8
            POSI;1.5;1;10.0;20.0;0;1;
            """
        let result = read(text, options: ReadOptions(lenient: true))
        #expect(result.error == nil)
        #expect(result.fixes.map(\.timestamp.millisecondsSince1970) == [1_700_000_002_000, 1_700_000_001_000])
        #expect(result.report.errorCount == 1)
        #expect(result.report.skipped(.missingTime) == 1)
        #expect(result.report.skipped(.missingPosition) == 1)
        #expect(result.report.skipped(.otherRecord) == 1)
    }

    /// A speed or a satellite count that is no number: read leniently, the fix is kept without it.
    @Test func unreadableOptionalFieldsAreReadAsMissingWhenLenient() throws {
        let text =
            "GNSS;1.0;1700000002.000;10.0;20.0;100;0;5;fast;10;8\nGNSS;1.1;1700000003.000;10.0;20.0;100;0;5;0;1o;8\n"
        #expect(read(text).error != nil)
        let lenient = read(text, options: ReadOptions(lenient: true))
        #expect(lenient.fixes.count == 2 && lenient.fixes.first?.speedMetresPerSecond == nil)
        #expect(lenient.report.errorCount == 0 && lenient.report.unreadableFields.map(\.location.line) == [1, 2])
    }

    @Test func waypointRowsWithTrailingSeparatorAndEmptyFloor() throws {
        let text = "POSI;1.5;1;10.0;20.0;0;1;\nPOSI;2.5;2;10.5;20.5;;\nPOSI;3.5;3;10.5;20.5\nPOSI;x;4;1;2\n"
        var reader = IPINWaypointReader(stream: ByteStream(bytes: Array(text.utf8), name: "w.txt"))
        #expect(
            try reader.next()
                == IPINWaypoint(
                    appTimestampSeconds: 1.5, counter: 1, latitude: 10, longitude: 20,
                    floor: 0, building: 1))
        #expect(
            try reader.next() == IPINWaypoint(appTimestampSeconds: 2.5, counter: 2, latitude: 10.5, longitude: 20.5))
        #expect(try reader.next()?.counter == 3)
        #expect(throws: ReadError.self) { try reader.next() }
    }
}
