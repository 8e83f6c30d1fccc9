import Testing
import TrueTrackCore

@testable import TrueTrackIO

@Suite struct GeoLifePLTReaderTests {
    private static let header =
        "Geolife trajectory\nWGS 84\nAltitude is in Feet\nReserved 3\n0,2,255,My Track,0,0,2,8421376\n0\n"

    private func read(_ text: String, options: ReadOptions = ReadOptions()) -> ReadResult {
        var reader = GeoLifePLTReader(stream: ByteStream(bytes: Array(text.utf8), name: "t.plt"), options: options)
        return reader.readAll()
    }

    private func labels(_ text: String, lenient: Bool = false) throws(ReadError) -> (
        intervals: [LabelledInterval], report: ReadReport
    ) {
        try GeoLifeLabels.read(
            stream: ByteStream(bytes: Array(text.utf8), name: "labels.txt"),
            options: ReadOptions(lenient: lenient))
    }

    /// A file cut without its header (or with a short one): the lines in the header's place that read as points
    /// are points (a CLI tester's cut file lost 3 of 1,004, the headerless one 6, as "header" lines).
    @Test("reads points in the header's place of a file cut without its header")
    func pointsInTheHeadersPlace() {
        let points = (0..<8).map { "39.9,116.3\($0),0,100,39540.25,2008-04-02,06:09:0\($0)\n" }.joined()
        let full = read(Self.header + points)
        #expect(full.fixes.count == 8 && full.report.skipped(.header) == 6)
        let none = read(points)
        #expect(none.error == nil && none.fixes.count == 8 && none.report.skipped(.header) == 0)
        let short = read("Geolife trajectory\nWGS 84\nAltitude is in Feet\n" + points)
        #expect(short.fixes.count == 8 && short.report.skipped(.header) == 3)
        #expect(short.fixes.first?.longitude == 116.30)
    }

    // MARK: - Real recordings

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func user010TrajectoryFirstAndLast() throws {
        var reader = try GeoLifePLTReader(path: Datasets.path("geolife-010-mixed/Trajectory/20080402060926.plt"))
        let result = reader.readAll()
        #expect(result.error == nil)
        #expect(result.fixes.count == 1004)
        #expect(result.report.skipped(.header) == 6)
        #expect(result.report.recordsRead == 1010)
        // 39.477125,75.989985,0,4096,39540.2565509259,2008-04-02,06:09:26
        let first = try #require(result.fixes.first)
        #expect(first.latitude == 39.477125)
        #expect(first.longitude == 75.989985)
        #expect(first.altitudeMetres == 4096 * 0.3048)
        #expect(first.timestamp == ISO8601.parse("2008-04-02T06:09:26Z"))
        #expect(first.horizontalAccuracy == .absent && first.speedMetresPerSecond == nil && first.provider == .unknown)
        // 39.493373,76.045505,0,4147,39540.4935763889,2008-04-02,11:50:45
        let last = try #require(result.fixes.last)
        #expect(last.latitude == 39.493373)
        #expect(last.longitude == 76.045505)
        #expect(last.altitudeMetres == 4147 * 0.3048)
        #expect(last.timestamp == ISO8601.parse("2008-04-02T11:50:45Z"))
        #expect(first.timestamp.seconds(to: last.timestamp) == 20_479)
        // 91 gaps longer than 5 s, the largest 17 401 s (between the taxi and the bus).
        let gaps = zip(result.fixes, result.fixes.dropFirst()).map { $0.timestamp.seconds(to: $1.timestamp) }
        #expect(gaps.filter { $0 > 5 }.count == 91)
        #expect(gaps.max() == 17_401)
        #expect(gaps.allSatisfy { $0 > 0 })
    }

    @Test(.enabled(if: Datasets.available, Datasets.missingReason))
    func user010LabelsOf20080402() throws {
        let intervals = try GeoLifeLabels.read(path: Datasets.path("geolife-010-mixed/labels.txt"))
        #expect(intervals.count == 434)
        #expect(
            intervals.first
                == LabelledInterval(
                    start: try #require(ISO8601.parse("2007-06-26T11:32:29Z")),
                    end: try #require(ISO8601.parse("2007-06-26T11:40:29Z")),
                    mode: "bus"))
        let dayStart = try #require(ISO8601.parse("2008-04-02T00:00:00Z"))
        let dayEnd = try #require(ISO8601.parse("2008-04-02T23:59:59Z"))
        let day = intervals.filter { $0.overlaps(from: dayStart, to: dayEnd) }
        #expect(day.map(\.mode) == ["walk", "taxi", "bus"])
        #expect(day.map(\.activity) == [.walking, .inVehicle, .inVehicle])
        #expect(
            day.map { ISO8601.format($0.start) } == [
                "2008-04-02T06:09:26Z", "2008-04-02T06:30:57Z", "2008-04-02T11:24:21Z",
            ])
        #expect(
            day.map { ISO8601.format($0.end) } == [
                "2008-04-02T06:28:25Z", "2008-04-02T06:34:20Z", "2008-04-02T11:50:45Z",
            ])
        #expect(day.map(\.durationSeconds) == [1139, 203, 1584])

        // Each labelled segment holds the number of fixes PROVENANCE gives: walk 563, taxi 175, bus 266.
        var reader = try GeoLifePLTReader(path: Datasets.path("geolife-010-mixed/Trajectory/20080402060926.plt"))
        let fixes = reader.readAll().fixes
        #expect(day.map { interval in fixes.filter { interval.contains($0.timestamp) }.count } == [563, 175, 266])

        let modes = Set(intervals.map(\.mode))
        #expect(modes == ["airplane", "bus", "car", "subway", "taxi", "train", "walk"])
        #expect(intervals.allSatisfy { $0.start <= $0.end })
    }

    // MARK: - Hand-worked inputs

    @Test func convertsFeetAndTreatsMinus777AsAbsent() throws {
        let text =
            Self.header + "40.0,116.0,0,-777,39744.1201851852,2008-10-23,02:53:04\n"
            + "40.0,116.0,0,100,39744.1201851852,2008-10-23,02:53:05\n"
            + "40.0,116.0,0,,39744.1201851852,2008-10-23,02:53:06\n"
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.fixes.map(\.altitudeMetres) == [nil, 30.48, nil])
        #expect(result.fixes.first?.timestamp == ISO8601.parse("2008-10-23T02:53:04Z"))
    }

    /// An altitude that is no finite number (`NaN`, `1e400`) is read as missing and counted with the fields read as
    /// missing, strict or lenient, the point kept: it was dropped without a word.
    @Test func nonFiniteAltitudesAreReadAsMissingAndCounted() throws {
        let text =
            Self.header + "40.0,116.0,0,NaN,39744.1201851852,2008-10-23,02:53:04\n"
            + "40.0,116.0,0,1e400,39744.1201851852,2008-10-23,02:53:05\n"
            + "40.0,116.0,0,100,39744.1201851852,2008-10-23,02:53:06\n"
        for lenient in [false, true] {
            let result = read(text, options: ReadOptions(lenient: lenient))
            #expect(result.error == nil && result.fixes.map(\.altitudeMetres) == [nil, nil, 30.48])
            let fields = result.report.unreadableFields.map { error -> String in
                guard case .malformedField(let at, let field, _, _) = error else { return "\(error)" }
                return "\(at.line) \(field)"
            }
            #expect(fields == ["7 altitude", "8 altitude"], "\(fields)")
        }
    }

    @Test func fallsBackOnTheDaysColumn() throws {
        // 39744.1201851852 days after 1899-12-30 = 2008-10-23T02:53:04Z (to the millisecond after rounding
        // the serial date's 10 decimals).
        let result = read(Self.header + "40.0,116.0,0,492,39744.1201851852,,\n")
        #expect(result.error == nil)
        let fix = try #require(result.fixes.first)
        let expected = try #require(ISO8601.parse("2008-10-23T02:53:04Z"))
        #expect(abs(fix.timestamp.millisecondsSince1970 - expected.millisecondsSince1970) <= 1)
    }

    /// The six header lines are skipped whatever they hold (blank, text), unless one reads as a point (see
    /// ``pointsInTheHeadersPlace()``).
    @Test func headerLinesAreSkippedUnlessTheyReadAsPoints() {
        let result = read("1,2,0,3,4,2008-01-01,00:00:00\n\n\n\n\n\n39.9,116.3,0,0,39744.12,2008-10-23,02:53:04")
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.report.skipped(.header) == 5)
        let text = read("x\n1,2\n\n\n\n\n39.9,116.3,0,0,39744.12,2008-10-23,02:53:04")
        #expect(text.error == nil && text.fixes.count == 1 && text.report.skipped(.header) == 6)
    }

    @Test func rejectsMalformedPointsNamingTheField() {
        let cases: [(String, String, Int)] = [
            ("4o.0,116.0,0,100,39744.12,2008-10-23,02:53:04", "latitude", 1),
            ("40.0,116.0,0,1oo,39744.12,2008-10-23,02:53:04", "altitude", 14),
            ("40.0,116.0,0,100,39744.12,2008-13-23,02:53:04", "date", 27),
            ("40.0,116.0,0,100,39744.12,2008-10-23,24:53:04", "time", 38),
            ("40.0,116.0,0,100,39744.12,2008-10-23,", "time", 38),
            ("40.0,116.0,0,100,x,,", "days", 18),
        ]
        for (row, field, column) in cases {
            let result = read(Self.header + row)
            guard case .malformedField(let location, let name, _, _)? = result.error else {
                Issue.record("\(row): expected malformedField, got \(String(describing: result.error))")
                continue
            }
            #expect(name == field, "\(row)")
            #expect(location.line == 7 && location.column == column, "\(row): \(location)")
        }
        guard
            case .invalidFix(_, .latitudeOutOfRange(91), _)? = read(Self.header + "91,116,0,1,1,2008-10-23,02:53:04")
                .error
        else {
            Issue.record("expected invalidFix")
            return
        }
        guard case .malformedRecord? = read(Self.header + "40.0,116.0,0").error else {
            Issue.record("expected malformedRecord")
            return
        }
    }

    @Test func lenientModeSkipsBadPoints() {
        let text =
            Self.header + "40.0,116.0,0,100,39744.12,2008-10-23,02:53:04\n4x,116.0,0,100,39744.12,2008-10-23,02:53:05\n"
            + "40.0,116.0,0,100,39744.12,2008-10-23,02:53:06"
        let result = read(text, options: ReadOptions(lenient: true))
        #expect(result.error == nil)
        #expect(result.fixes.count == 2)
        #expect(result.report.errors.map(\.location.line) == [8])
    }

    /// An altitude that is no number: an error naming it, and read leniently the point kept without it.
    @Test func anUnreadableAltitudeIsReadAsMissingWhenLenient() throws {
        let text = Self.header + "40.0,116.0,0,1o0,39744.12,2008-10-23,02:53:04\n"
        #expect(read(text).error.map { "\($0)".contains("'altitude'") } == true)
        let lenient = read(text, options: ReadOptions(lenient: true))
        #expect(lenient.fixes.count == 1 && lenient.fixes.first?.altitudeMetres == nil)
        #expect(lenient.report.errorCount == 0 && lenient.report.unreadableFields.map(\.location.line) == [7])
    }

    @Test func labelsRowsAndErrors() throws {
        let good = try labels(
            "Start Time\tEnd Time\tTransportation Mode\r\n2008/04/02 06:09:26\t2008/04/02 06:28:25\twalk\r\n\r\n")
        #expect(
            good.intervals == [
                LabelledInterval(
                    start: Timestamp(millisecondsSince1970: 1_207_116_566_000),
                    end: Timestamp(millisecondsSince1970: 1_207_117_705_000),
                    mode: "walk")
            ])
        #expect(good.report.skipped(.header) == 1 && good.report.skipped(.blank) == 1)

        let bad =
            "Start Time\tEnd Time\tTransportation Mode\n2008/04/02 06:09:26\t2008/04/02 05:28:25\twalk\n"
            + "2008/04/31 06:09:26\t2008/05/02 05:28:25\tbus\n2008/04/02 06:09:26 2008/04/02 06:28:25 walk\n"
            + "2008/04/02 06:09:26\t2008/04/02 06:28:25\t\n"
        #expect(throws: ReadError.self) { try labels(bad) }
        let lenient = try labels(bad, lenient: true)
        #expect(lenient.intervals.isEmpty)
        #expect(lenient.report.errorCount == 4)
        #expect(lenient.report.errors.map(\.location.line) == [2, 3, 4, 5])
    }

    @Test func modesMapToActivities() {
        let expected: [String: ActivityKind] = [
            "walk": .walking, "run": .running, "bike": .onBicycle, "bus": .inVehicle, "car": .inVehicle,
            "taxi": .inVehicle, "train": .inVehicle, "subway": .inVehicle, "airplane": .inVehicle,
            "boat": .inVehicle, "motorcycle": .inVehicle, "other": .unknown, "Walk": .walking,
        ]
        for (mode, kind) in expected {
            #expect(GeoLifeLabels.activityKind(forMode: mode) == kind, "\(mode)")
        }
    }
}
