import Testing

@testable import TrueTrackCore

/// The GPS week-number rollover: a jump of whole 1024-week periods between fixes read one after the other.
@Suite struct GPSWeekRolloverTests {
    /// 2019-04-07T00:00:00Z, the second rollover, and one period is 619,315,200 s (1024 × 7 × 86,400).
    let rollover = Timestamp(millisecondsSince1970: 1_554_595_200_000)
    let period = GPSWeekRollover.periodMilliseconds

    func at(_ milliseconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    @Test func oneRolloverPeriodIsTwentyYearsLessFortyTwoDays() {
        // 1999-08-22 to 2019-04-07: the two rollovers so far, exactly one period apart.
        let first = Timestamp(civil: CivilTime(year: 1999, month: 8, day: 22))!
        #expect(first.millisecondsSince1970 + period == rollover.millisecondsSince1970)
        #expect(period == 619_315_200_000)
    }

    @Test func countsAJumpOfWholePeriodsPlusUpToADay() {
        let t = rollover.millisecondsSince1970
        #expect(GPSWeekRollover.periods(from: at(t - period), to: rollover) == 1)
        #expect(GPSWeekRollover.periods(from: rollover, to: at(t - period)) == -1)
        // The real time between the two fixes adds to the jump: up to a day; a batch may put a fix up to
        // 10 minutes before the one read before it.
        #expect(GPSWeekRollover.periods(from: at(t - period), to: at(t + 86_400_000)) == 1)
        #expect(GPSWeekRollover.periods(from: at(t - period), to: at(t - 600_000)) == 1)
        #expect(GPSWeekRollover.periods(from: at(t), to: at(t - period + 86_400_000)) == -1)
        #expect(GPSWeekRollover.periods(from: at(t - 2 * period), to: at(t + 1000)) == 2)
        #expect(GPSWeekRollover.periods(from: at(t + 2 * period), to: rollover) == -2)
    }

    @Test func ignoresEveryOtherStep() {
        let t = rollover.millisecondsSince1970
        let steps: [Int64] = [
            0, 1000, -1000, 86_400_000, 365 * 86_400_000, period - 600_001, period + 86_400_001,
            period - 86_400_000,  // a day short: re-dated, the file would run backwards (a reviewer's case)
        ]
        for step in steps {
            #expect(GPSWeekRollover.periods(from: rollover, to: at(t + step)) == nil, "step \(step) ms")
        }
        // Three periods (58.8 years) is a broken clock, not a rollover; the extremes do not overflow.
        #expect(GPSWeekRollover.periods(from: at(t - 3 * period), to: rollover) == nil)
        #expect(GPSWeekRollover.periods(from: at(.min), to: at(.max)) == nil)
        #expect(GPSWeekRollover.periods(from: at(.max), to: at(.min)) == nil)
        #expect(GPSWeekRollover.weeks(-2) == "2048 weeks")
    }

    @Test func shiftsEveryFixIntoTheLatestEraNotInTheFuture() {
        let t = rollover.millisecondsSince1970
        let now = at(t + 86_400_000)
        // Early then resolved (forward jump): the first two move forward.
        let forward = [t - period, t - period + 1000, t + 2000, t + 3000].map(at)
        #expect(GPSWeekRollover.correctingShifts(forward, now: now) == [1, 1, 0, 0])
        // Resolved then early (back): the last two move.
        let back = [t, t + 1000, t - period + 2000, t - period + 3000].map(at)
        #expect(GPSWeekRollover.correctingShifts(back, now: now) == [0, 0, 1, 1])
        // Alternating sources, and no jump at all.
        let alternating = [t, t - period + 1000, t + 2000, t - period + 3000].map(at)
        #expect(GPSWeekRollover.correctingShifts(alternating, now: now) == [0, 1, 0, 1])
        #expect(GPSWeekRollover.correctingShifts([t, t + 1000].map(at), now: now) == [0, 0])
        #expect(GPSWeekRollover.correctingShifts([Timestamp](), now: now) == [])
        // One fix dated 1024 weeks ahead of today is the fault, not the file (a reviewer's glitch moved the 19
        // good fixes to 2045): it moves back.
        let glitch = [t, t + 1000, t + period + 2000, t + 3000].map(at)
        #expect(GPSWeekRollover.correctingShifts(glitch, now: now) == [0, 0, -1, 0])
        // Two periods at once.
        let two = [t - 2 * period, t - 2 * period + 1000, t + 2000].map(at)
        #expect(GPSWeekRollover.correctingShifts(two, now: now) == [2, 2, 0])
    }

    @Test func findsARolloverBehindALoneClockFault() {
        let t = rollover.millisecondsSince1970
        // Early fixes, one fix dated 1970, then resolved ones: the jump is judged against the fix before the
        // fault, which keeps its time (a reviewer's file: no jump found, nothing re-dated).
        let times = [t - period, t - period + 1000, 0, t + 3000, t + 4000].map(at)
        #expect(GPSWeekRollover.correctingShifts(times, now: at(t + 86_400_000)) == [1, 1, 0, 0, 0])
        var detector = GPSWeekRollover.Detector()
        let jumps = times.map { detector.next($0) }
        #expect(jumps[3]?.periods == 1 && jumps[3]?.back == 2 && jumps[3]?.from == at(t - period + 1000))
        #expect(jumps.compactMap { $0 }.count == 1)
    }

    @Test func theTrackSummaryCountsTheJumps() throws {
        let t = rollover.millisecondsSince1970
        var summary = TrackSummary()
        for (i, ms) in [t - period, t - period + 1000, t + 2000, t + 3000].enumerated() {
            summary.add(try Fix(timestamp: at(ms), latitude: 47, longitude: 8 + Double(i) * 1e-5))
        }
        #expect(summary.weekRollovers.jumps == 1)
        let jump = try #require(summary.weekRollovers.first)
        #expect(jump.fixNumber == 3 && jump.beforeFixNumber == 2 && jump.periods == 1)
        #expect(
            jump.description == "fix 3 is dated 1024 weeks after fix 2 (1999-08-22T00:00:01Z → 2019-04-07T00:00:02Z)")
    }
}
