import Testing

@testable import TrueTrackCore

@Suite struct TimestampTests {
    @Test func civilTimeRoundTripsAcrossEraBoundaries() {
        // Hand-checked instants: the epoch, before it, a leap day, the 32-bit underflow date GPX files carry.
        let cases: [(Int64, CivilTime)] = [
            (0, CivilTime(year: 1970, month: 1, day: 1)),
            (-1, CivilTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999)),
            (951_782_400_000, CivilTime(year: 2000, month: 2, day: 29)),
            (-2_147_483_648_000, CivilTime(year: 1901, month: 12, day: 13, hour: 20, minute: 45, second: 52)),
            (
                1_686_733_381_510,
                CivilTime(year: 2023, month: 6, day: 14, hour: 9, minute: 3, second: 1, millisecond: 510)
            ),
        ]
        for (ms, civil) in cases {
            #expect(Timestamp(millisecondsSince1970: ms).civil == civil)
            #expect(Timestamp(civil: civil)?.millisecondsSince1970 == ms)
        }
    }

    @Test func civilTimeAgreesWithDayCountingOverFourHundredYears() {
        // Property: consecutive days map to consecutive day numbers across a full Gregorian cycle.
        var days = CivilTime.daysSince1970(year: 1900, month: 1, day: 1)
        var date = (1900, 1, 1)
        for _ in 0..<(146_097) {
            let t = Timestamp(millisecondsSince1970: Int64(days) * 86_400_000).civil
            #expect(t.year == date.0 && t.month == date.1 && t.day == date.2)
            days += 1
            date.2 += 1
            if !CivilTime.isValidDate(year: date.0, month: date.1, day: date.2) {
                date.2 = 1
                date.1 += 1
                if date.1 == 13 { date.1 = 1; date.0 += 1 }
            }
            if t.year != date.0 && date.1 == 1 && date.2 == 1 { continue }
        }
    }

    @Test func rejectsImpossibleCalendarDates() {
        #expect(Timestamp(civil: CivilTime(year: 2023, month: 2, day: 29)) == nil)
        #expect(Timestamp(civil: CivilTime(year: 2023, month: 13, day: 1)) == nil)
        #expect(Timestamp(civil: CivilTime(year: 2023, month: 1, day: 1, hour: 24)) == nil)
        #expect(Timestamp(civil: CivilTime(year: 0, month: 1, day: 1)) == nil)
        #expect(Timestamp(civil: CivilTime(year: 2024, month: 2, day: 29)) != nil)
    }

    @Test func convertsGPSTimeToUTCWithLeapSeconds() {
        // GSDC 2021: millisSinceGpsEpoch 1273529463442 is 2020-05-14T22:10:45.442Z (GPS − UTC = 18 s).
        let t = Timestamp(gpsMilliseconds: 1_273_529_463_442)
        #expect(ISO8601.format(t) == "2020-05-14T22:10:45.442Z")
        #expect(t.gpsMilliseconds == 1_273_529_463_442)
        // Before the first leap second GPS and UTC agree.
        #expect(Timestamp(gpsMilliseconds: 0).millisecondsSince1970 == Timestamp.gpsEpochMillisecondsSince1970)
        // 2016-06-30 (GMT stationary log): 17 s.
        #expect(Timestamp.gpsMinusUTCSeconds(atUnixMilliseconds: 1_467_321_969_000) == 17)
    }

    @Test func rejectsNonFiniteSeconds() {
        #expect(Timestamp(secondsSince1970: .nan) == nil)
        #expect(Timestamp(secondsSince1970: .infinity) == nil)
        #expect(Timestamp(secondsSince1970: 1e300) == nil)
        #expect(Timestamp(secondsSince1970: 1686733381.51)?.millisecondsSince1970 == 1_686_733_381_510)
    }

    /// The documented range held only for the absolute value: -1e11 s (year -1199) and 253402300799.9996 s
    /// (rounding into year 10000) came back as timestamps no writer can represent.
    @Test func secondsOutsideYears1To9999GiveNil() {
        #expect(Timestamp(secondsSince1970: -1e11) == nil)
        #expect(Timestamp(secondsSince1970: 253_402_300_799.9996) == nil)
        #expect(Timestamp(secondsSince1970: 253_402_300_799.999)?.isRepresentable == true)
        #expect(Timestamp(secondsSince1970: -62_135_596_800)?.isRepresentable == true)  // 0001-01-01
        #expect(Timestamp(secondsSince1970: -62_135_596_800.001) == nil)
    }

    /// Moving a time by an absurd amount saturates instead of trapping (1e300 s trapped converting to Int64).
    @Test func advancingByAnAbsurdAmountSaturates() {
        let t = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        #expect(t.advanced(bySeconds: 1e300).millisecondsSince1970 == .max)
        #expect(t.advanced(bySeconds: -.infinity).millisecondsSince1970 == .min)
        #expect(t.advanced(bySeconds: -1e300).millisecondsSince1970 == .min)
        #expect(t.advanced(bySeconds: .nan) == t)
        #expect(t.advanced(bySeconds: 9.2233720368e15).millisecondsSince1970 == .max)  // delta in range, sum overflows
        #expect(t.advanced(bySeconds: -1.5).millisecondsSince1970 == 1_699_999_998_500)
    }
}

@Suite struct ISO8601Tests {
    @Test func parsesTheLayoutsRecordersWrite() {
        let expected = Timestamp(millisecondsSince1970: 1_691_599_065_000)  // 2023-08-09T16:37:45Z
        #expect(ISO8601.parse("2023-08-09T16:37:45Z") == expected)
        #expect(ISO8601.parse("2023-08-09T16:37:45.000Z") == expected)
        #expect(ISO8601.parse("2023-08-09 12:37:45-04:00") == expected)
        #expect(ISO8601.parse("2023-08-09T18:37:45+0200") == expected)
        #expect(ISO8601.parse("2023-08-09T16:37:45") == expected)
        #expect(ISO8601.parse("2023-08-09T16:37:45.1234Z")?.millisecondsSince1970 == 1_691_599_065_123)
        #expect(ISO8601.parse("2023-08-09T16:37:45.9996Z")?.millisecondsSince1970 == 1_691_599_066_000)
        #expect(ISO8601.parse("2023-08-09")?.millisecondsSince1970 == 1_691_539_200_000)
        #expect(ISO8601.parse("1901-12-13T20:45:52.250Z")?.millisecondsSince1970 == -2_147_483_647_750)
    }

    /// Database and spreadsheet exports name the zone or put a space before it (BigQuery's `… UTC`, Java's and
    /// `date`'s `… +0200`): a formats tester's CSV files were refused at their first time.
    @Test("reads a zone after a space and a zone named UTC or GMT, alone or before an offset")
    func readsNamedZonesAndAZoneAfterASpace() {
        let expected = Timestamp(millisecondsSince1970: 1_691_599_065_000)  // 2023-08-09T16:37:45Z
        for text in [
            "2023-08-09 16:37:45 UTC", "2023-08-09 16:37:45UTC", "2023-08-09T16:37:45 gmt", "2023-08-09 16:37:45 Z",
            "2023-08-09 18:37:45 +0200", "2023-08-09 18:37:45 +02:00", "2023-08-09 12:37:45 -04",
            "2023-08-09 18:37:45 GMT+02:00", "2023-08-09 18:37:45 UTC+0200", "2023-08-09 16:37:45.000 UTC",
        ] {
            #expect(ISO8601.parse(text) == expected, "\(text)")
        }
        for text in [
            "2023-08-09 16:37:45 ", "2023-08-09 16:37:45  UTC", "2023-08-09 16:37:45 UTCZ", "2023-08-09 16:37:45 UT",
            "2023-08-09 16:37:45 CET", "2023-08-09 16:37:45 UTC+", "2023-08-09 16:37:45 utc 1",
        ] {
            #expect(ISO8601.parse(text) == nil, "\(text)")
        }
    }

    /// A leap second is the last millisecond before the next minute, whatever its fraction: folded onto the next
    /// minute's first second, it took the real 00:00:00's place and that fix was lost as out of order (a tester's
    /// files across 2016-12-31T23:59:60Z in every reader).
    @Test("reads a leap second 23:59:60 as 23:59:59.999, its fraction too, before the next minute")
    func readsALeapSecondAsTheLastMillisecondOfTheMinute() throws {
        let last = try #require(ISO8601.parse("2016-12-31T23:59:59.999Z"))
        for text in [
            "2016-12-31T23:59:60Z", "2016-12-31T23:59:60.000Z", "2016-12-31T23:59:60.5Z", "2016-12-31T23:59:60.9996Z",
            "2016-12-31 23:59:60", "2017-01-01T00:59:60+01:00",
        ] {
            #expect(ISO8601.parse(text) == last, "\(text)")
        }
        #expect(ISO8601.parse("2016-12-31T23:59:60Z")! < ISO8601.parse("2017-01-01T00:00:00Z")!)
        #expect(
            Timestamp(civil: CivilTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60)) == last)
        // Ordinary times still round-trip, around the minute's end too.
        for text in ["2016-12-31T23:59:59Z", "2016-12-31T23:59:59.999Z", "2017-01-01T00:00:00Z"] {
            #expect(ISO8601.format(ISO8601.parse(text)!) == text)
        }
        #expect(ISO8601.parse("2016-12-31T23:59:61Z") == nil)
    }

    @Test func rejectsMalformedText() {
        for text in [
            "", "2023", "2023-8-09T16:37:45Z", "2023-08-09T16:37:45Q", "2023-02-30T00:00:00Z",
            "2023-08-09T25:00:00Z", "2023-08-09T16:37:45.Z", "2023-08-09T16:37:45Z trailing",
            "２０２３-08-09", "2023-08-09T16:37:45+25:00",
        ] {
            #expect(ISO8601.parse(text) == nil, "\(text)")
        }
    }

    @Test func formatsAndReadsBackEveryMillisecond() {
        var state: UInt64 = 42
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let ms = Int64(bitPattern: state >> 22) % 200_000_000_000_000  // ±6000 years around 1970
            let t = Timestamp(millisecondsSince1970: ms)
            guard t.civil.year >= 1, t.civil.year <= 9999 else { continue }
            #expect(ISO8601.parse(ISO8601.format(t)) == t)
        }
        #expect(ISO8601.format(Timestamp(millisecondsSince1970: 1_691_599_065_000)) == "2023-08-09T16:37:45Z")
        #expect(ISO8601.format(Timestamp(millisecondsSince1970: 1_691_599_065_007)) == "2023-08-09T16:37:45.007Z")
    }
}

@Suite struct TimestampRangeTests {
    @Test func fixRefusesTimesOutsideTheYearsISO8601CanWrite() throws {
        for ms: Int64 in [.max, .min, 253_402_300_800_000, -62_135_596_800_001] {
            #expect(throws: FixValidationError.timestampOutOfRange(ms)) {
                try Fix(timestamp: Timestamp(millisecondsSince1970: ms), latitude: 0, longitude: 0)
            }
        }
        #expect(
            (try? Fix(timestamp: Timestamp(millisecondsSince1970: 253_402_300_799_999), latitude: 0, longitude: 0))
                != nil)
        #expect(FixValidationError.timestampOutOfRange(1).field == "time")
    }

    @Test func gpsTimeSaturatesAtTheEndsInsteadOfTrappingOrWrapping() {
        // (Each sum saturates: .max plus the leap seconds stays .max, then the epoch is taken off.)
        #expect(Timestamp(millisecondsSince1970: .max).gpsMilliseconds == .max - 315_964_800_000)
        #expect(Timestamp(millisecondsSince1970: .min).gpsMilliseconds == .min)
        #expect(Timestamp(gpsMilliseconds: .max).millisecondsSince1970 == .max - 18_000)
        #expect(Timestamp(gpsMilliseconds: .min).millisecondsSince1970 == .min + 315_964_800_000)
        let now = Timestamp(millisecondsSince1970: 1_700_000_000_000)
        #expect(Timestamp(gpsMilliseconds: now.gpsMilliseconds) == now)
    }

    @Test func formattingAnyInstantNeverTraps() {
        for ms: Int64 in [.max, .min, .max - 1, .min + 1, 9_000_000_000_000_000, -9_000_000_000_000_000] {
            let text = ISO8601.format(Timestamp(millisecondsSince1970: ms))
            #expect(text.hasSuffix("Z"))
            #expect(text.first == "+" || text.first == "-")
        }
        #expect(ISO8601.format(Timestamp(millisecondsSince1970: 253_402_300_799_999)) == "9999-12-31T23:59:59.999Z")
    }
}

@Suite struct TimestampDescriptionTests {
    @Test func printsAsISO8601UTCOrAsMillisecondsOutsideItsYears() {
        #expect("\(Timestamp(millisecondsSince1970: 1_686_736_071_485))" == "2023-06-14T09:47:51.485Z")
        #expect("\(Timestamp(millisecondsSince1970: 0))" == "1970-01-01T00:00:00Z")
        #expect("\(Timestamp(millisecondsSince1970: 253_402_300_800_000))" == "253402300800000 ms since 1970")
    }
}

/// The run of far-older times that proves a clock jump, on hand-worked times (ms; a day is 86,400,000).
@Suite struct ClockJumpRunTests {
    static let day: Int64 = 86_400_000
    static let latest: Int64 = 100 * day

    func feed(_ run: inout ClockJumpRun, _ times: [Int64], latest: Int64 = latest) -> [Bool] {
        times.map { run.completes(at: $0, latest: latest, seconds: 86_400, length: 3) }
    }

    @Test func completesOnTheThirdOrderedTimeADayOrMoreOlder() {
        var run = ClockJumpRun()
        #expect(feed(&run, [1000, 2000, 3000]) == [false, false, true])
        var exact = ClockJumpRun()
        #expect(
            feed(&exact, [Self.latest - Self.day, Self.latest - Self.day + 1, Self.latest - Self.day + 2])
                == [false, false, false])  // the second is less than a day older: it neither counts nor breaks
    }

    @Test func aTimeOutOfOrderWithinTheRunStartsItAgain() {
        var run = ClockJumpRun()
        #expect(feed(&run, [1000, 3000, 2000, 4000, 5000]) == [false, false, false, false, true])
    }

    @Test func anHourOldTimeNeitherCountsNorBreaksTheRun() {
        var run = ClockJumpRun()
        #expect(feed(&run, [1000, Self.latest - 3_600_000, 2000, 3000]) == [false, false, false, true])
    }

    @Test func aNewerAcceptedTimeStartsANewRun() {
        var run = ClockJumpRun()
        #expect(feed(&run, [1000, 2000]) == [false, false])
        #expect(feed(&run, [3000], latest: Self.latest + 1000) == [false])
        #expect(feed(&run, [4000, 5000], latest: Self.latest + 1000) == [false, true])
    }
}
