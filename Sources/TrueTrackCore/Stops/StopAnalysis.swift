/// A journey between two stops (or between the track's ends and a stop).
public struct TripRecord: Sendable, Hashable {
    /// When the trip began, UTC: the end of the previous stop, or the track's first fix.
    public var start: Timestamp
    /// When it ended, UTC: the start of the next stop, or the track's last fix.
    public var end: Timestamp

    /// `end − start`, seconds.
    public var durationSeconds: Double { start.seconds(to: end) }

    /// Creates a record.
    public init(start: Timestamp, end: Timestamp) {
        self.start = start
        self.end = end
    }
}

/// The stops and trips of a recorded track, and its moving versus elapsed time.
///
/// Computed by the same ``StopDetector`` an app runs live, fed the whole track in order: the stops are those
/// the live detector reports (``MotionEvent/stopEnded(_:)`` and ``StopDetector/finish()``), except that a stop
/// the detector began again at the same place shortly after it ended one is the same stop here (see
/// ``Builder``): with the whole track at hand, a departure that came back within seconds was a blip, not a
/// trip (a tester's GPX walk: 6 stops, three of them at one place 2 s apart, with "trips" of 2 s and 0–4 m);
/// and so is one at the same place after a departure that was a multipath excursion the ``Tracker`` judged and
/// counted nothing of (or, on a dense track, whose fixes came back with nothing counted), or after a trip the
/// tracker counted less than half the stationary radius of without leaving it; and a track that begins parked
/// begins with its stop, from its first fix (``Builder`` `append`).
public struct StopAnalysis: Sendable, Hashable {
    /// The stops in time order.
    public var stops: [StopRecord]
    /// The trips: the stretches between the stops that last longer than zero seconds.
    public var trips: [TripRecord]
    /// From the first fix to the last, seconds.
    public var elapsedSeconds: Double
    /// Elapsed time minus the time spent in stops and the unobserved time, seconds.
    public var movingSeconds: Double
    /// Time inside recording gaps (longer than the detector's ``StopDetector/gapSeconds``: the profile's, or
    /// three of a sparse logger's typical steps), seconds: neither moving nor stopped (silence is not a stop, and it
    /// is not movement either), also where a stop spans the gap (its ``StopRecord/unobservedSeconds``: the fixes
    /// on both sides were still at one place, but what happened between them was not seen; a stops tester's 600 s
    /// of silence between 20 s of standstill on each side counted 639 s stopped, now 38 s stopped and 601 s
    /// unobserved). So the stopped time, ``elapsedSeconds`` − ``movingSeconds`` − this, is the stops' observed time.
    public var unobservedSeconds: Double
    /// Possible stops inside recording gaps: a gap at least a stop's shortest span long whose fixes before and
    /// after lie at the same place (within the stationary radius, and within 0.5 m/s of travel), outside any
    /// stop. Each record spans the gap, centred between the two fixes (its radius: how far they lie from the
    /// centre), with no fixes and all of it ``StopRecord/unobservedSeconds``; back-to-back gaps at one place are
    /// one record holding the fixes between them (its radius bounds their distance from its centre), and one whose
    /// fixes between gaps all read still is a stop instead (the device was seen there, still). Not in ``stops``,
    /// and their time stays unobserved: silence never means
    /// stopped, but the fixes on both sides are evidence a user may weigh (the device went indoors and came out
    /// where it went in: a tester's 10 minutes indoors read as one 1,200 s trip, a GPX hike's breaks of 12–34
    /// minutes 5–19 m apart as no stops, GeoLife's 152 s wait for the taxi as nothing).
    public var staysAcrossGaps: [StopRecord] = []
    /// The first and last evidence times (`nil` for an empty track).
    public var first: Timestamp?
    /// See ``first``.
    public var last: Timestamp?

    /// Analyses a whole track of evidence in its order (evidence out of time order is ignored, as live).
    public init(evidence: some Sequence<MotionEvidence>, profile: StopDetectionProfile) {
        var builder = Builder(profile: profile)
        for e in evidence { builder.add(e) }
        self = builder.finish()
    }

    /// Builds a ``StopAnalysis`` from evidence given one at a time, in memory that does not grow with the
    /// track (the stops found so far and the recording gaps aside): what a command streaming a large file uses.
    /// Adding a track's evidence in order and then calling ``finish()`` gives exactly
    /// ``StopAnalysis/init(evidence:profile:)``.
    public struct Builder: Sendable {
        var detector: StopDetector
        var stops: [StopRecord] = []
        var first: Timestamp?
        var last: Timestamp?
        var gaps: [(start: Timestamp, end: Timestamp)] = []
        /// The stays across gaps so far, each with whether every fix between its gaps read a speed (Doppler or
        /// filtered, not derived) below the profile's still speed (its first and last fix, the arrival and the
        /// departure, may be moving).
        var stays: [(record: StopRecord, isStill: Bool)] = []
        /// A stop beginning at most this long (seconds) after the previous one ended, with its centre within
        /// ``mergeRadiusMetres`` of that one's, is the same stop: 5 s. Why: the detector backdates a stop's start
        /// to the oldest fix of its still window, but never before the departure; a stop that begins a fix or two
        /// after a departure means the window found no movement right after it (a speed blip: the tester's GPX
        /// walk had "trips" of 2 s and 0–4 m). A real trip between two stops shows: the ground-level IPIN walks'
        /// 37 m between the standing start and the pause read as 7 s between stops 32 m apart, two stops.
        let mergeSeconds: Double
        /// See ``mergeSeconds``: a quarter of the profile's stationary radius (10 m walking). Why: the tester's
        /// blips left the new stop's centre 3–7 m from the old one's; the raw-fix analysis of a ground-level IPIN
        /// walk ends its standing start 2 s before a stop 29 m on (the walk to the pause, which the detector saw
        /// only as a departure): two stops.
        let mergeRadiusMetres: Double
        /// What the evidence since the last stop the detector ended says (see ``append(_:)``).
        var sinceStop = SinceStop()
        /// For each of ``stops``: the stops joined into it before its last piece, and that last piece without its
        /// way out. The detector's record of a stop leaves out the way out when the fixes show it (its end at the
        /// last fix before them: ``StopDetector``); the joins judge the stops as the detector took them, way out
        /// included, and only where a stop really ended does its end leave the way out (``finish()``). Why: under
        /// a fast-wandering error (a 15 m phone whose error moves 5 m with τ 30 s) the detector departs and stops
        /// again within seconds, which the joins mend; judged on the shortened records they did not, and 60
        /// generated walks read 197 → 205 stops (truth 180).
        var endings: [(joined: StopRecord?, last: StopRecord)] = []
        /// The latest evidences (oldest first), up to twice ``recentCount``: read through ``lastEvidences``.
        /// Trimmed by ``recentCount`` at a time rather than by one per fix (which moved the seven others, ~700
        /// bytes, on every fix: 203 instructions per fix of the `process-csv` benchmark, 6,410 against 6,207).
        var recent: [MotionEvidence] = []
        /// The last ``recentCount`` evidences (oldest first), for the fixes a departure confirmed after the stop's
        /// end had already passed when the detector reported it (``StopDetectionProfile/exitConfirmationFixes``).
        var lastEvidences: ArraySlice<MotionEvidence> { recent.suffix(Self.recentCount) }

        /// The evidence since a stop ended: the metres the tracker counted on it, whether each carried the tracker's
        /// count (``MotionEvidence/isCountedByTracker``), and the times of those that lay beyond the stationary
        /// radius of the stop's centre, less those the tracker judged a multipath excursion
        /// (``MotionEvidence/excursionStart``) and those of a dense track that came back uncounted (``add``).
        struct SinceStop {
            var countedMetres = 0.0
            var countedFixes = 0
            var uncountedFixes = 0
            /// The away times an excursion may still excuse (the last ``Tracker/maximumExcursionSeconds``), each
            /// with whether it came at a dense step carrying the tracker's count, and the earliest older one, which
            /// none can: the memory stays small however long the trip.
            var awayTimes: [(time: Timestamp, isDense: Bool)] = []
            var earliestLastingAway: Timestamp?
            /// How many evidences in a row lay away (0 after one that did not), and when the first of them came.
            var awayRun = 0
            var awayRunStart = Timestamp(millisecondsSince1970: 0)
            /// Whether no evidence of the current away run carried a Doppler reading of a moving device (at or above
            /// the profile's still speed), whether one read a device at rest, and whether one carried no reading (see
            /// ``add``).
            var awayRunReadStill = true
            var awayRunHasStillReading = false, awayRunMissesReadings = false
            /// Whether every reading of the current away run was exactly 0 (a column that may be a placeholder),
            /// and whether one of its evidences lay beyond `radius` of the run's first.
            var awayRunReadZero = true
            var awayRunTravelled = false
            /// The first evidence's position of the current away run.
            var awayRunFirst = (latitude: 0.0, longitude: 0.0)

            /// The most away fixes in a row a dense track's return excuses (see ``add``): 2. Why: the tracker gives
            /// up a departure whose farthest point was a lone fix away, and its outlier gate refuses a jump's
            /// second fix; a vehicle or a runner it does not count on purpose (too fast for the walking profile)
            /// lies away for many fixes (a reviewer's 400 m laps and bus rides under `walking` at 1 Hz were joined
            /// into one stop by a first version without this bound), and so does a round trip at 1 Hz.
            static let excusableAwayFixes = 2

            /// The longest run away ``add`` excuses when some of its fixes carry no reading: 30 s, a multipath jump's
            /// length (a stops tester's vans: 3 fixes at 5 s). Longer, a van's hop to another bay 55–90 m off, a wait
            /// there reading still and the way back, whose moving fixes read nothing, was swallowed into one stop (a
            /// reviewer's: 8 of 480 such hops).
            static let excusableMissingReadingsSeconds = 30.0

            /// Adds `e`, which lay beyond the stationary radius of the stop (`isAway`), `isDense` when it came
            /// within the profile's gap of the evidence before it (``Builder/isDenseStep(from:to:)``). Away fixes are
            /// excused when the tracker judged them a multipath excursion (``MotionEvidence/excursionStart``: those
            /// after the fix it left from), and, on a dense track, when at most ``excusableAwayFixes`` of them in a
            /// row came back within the radius with nothing counted since the stop: a jump the tracker gave up (a
            /// departure held and given up: ``TrackingProfile/departureConfirmationSeconds``) or refused. A sparse
            /// logger's hop and back, which its chains may miss, is not excused that way, nor a longer stay away.
            ///
            /// Also excused, however many: a dense run away that came back with nothing counted since the stop, every
            /// reading of it still (`readsStill`: ``Builder/isStill(_:)``, below the profile's still speed; `nil` for a
            /// fix without a reading) and at least one reading in it, lasting no longer than
            /// ``Tracker/maximumExcursionSeconds`` (``excusableMissingReadingsSeconds`` when a fix of it has no
            /// reading), and, when every reading was exactly 0, staying within `radius` (the stationary radius) of the
            /// run's first fix. Why: a Doppler speed is measured from the carrier's frequency, which a reflection
            /// barely moves, so a parked receiver whose positions jump 90 m for ten seconds while its speed reads
            /// 0.02–0.09 m/s did not leave (a fleet tester's parked vans at 1 Hz: 64 stops for 32, their depot wait
            /// three stops and their lunch five, joined by "trips" of 0 m). A trip out and back moves the Doppler too,
            /// and a receiver that reads zero while moving (the IPIN Samsungs) reads it on some fixes, not on every
            /// one. A column of exact zeros may be a logger's placeholder under a moving track: then the positions must
            /// stay put too (a reviewer's 300 m out and back at 6 m/s under such a column was joined into one stop).
            /// Asked of every reading, that test split parked receivers whose reflections follow one another or drift
            /// (a third reviewer: 5 → 10 stops), whose live readings jitter above 0. Fixes without a reading neither
            /// excuse nor forbid: a stops tester's van with half its readings missing (−1) under 3 % multipath, parked,
            /// had a 65 m jump of three fixes (0.06 m/s read on the one with a reading, nothing counted) split a
            /// delivery into two stops 4 m apart with a "trip" of 0 m between them (61 such pairs on 30 files).
            mutating func add(
                _ e: MotionEvidence, isAway: Bool, isDense: Bool, readsStill: Bool?, radius: Double
            ) {
                if e.isCountedByTracker {
                    countedMetres += e.countedMetres
                    countedFixes += 1
                } else {
                    uncountedFixes += 1
                }
                if isAway {
                    if awayRun == 0 {
                        awayRunStart = e.timestamp
                        awayRunReadStill = true
                        awayRunHasStillReading = false
                        awayRunMissesReadings = false
                        awayRunReadZero = true
                        awayRunTravelled = false
                        awayRunFirst = (e.latitude, e.longitude)
                    }
                    awayRun += 1
                    awayTimes.append((e.timestamp, isDense && e.isCountedByTracker))
                    if readsStill == false || !isDense { awayRunReadStill = false }
                    if readsStill == true { awayRunHasStillReading = true }
                    if readsStill == nil { awayRunMissesReadings = true }
                    if let speed = e.speedMetresPerSecond, speed != 0 { awayRunReadZero = false }
                    if Haversine.distance(from: awayRunFirst, to: (e.latitude, e.longitude)) > radius {
                        awayRunTravelled = true
                    }
                }
                if let start = e.excursionStart {
                    awayTimes.removeAll { $0.time > start && $0.time < e.timestamp }
                } else if !isAway, isDense, isUncounted, awayRun > 0,
                    awayRun <= Self.excusableAwayFixes
                        || (awayRunReadStill && awayRunHasStillReading && !(awayRunReadZero && awayRunTravelled)
                            && awayRunStart.seconds(to: e.timestamp)
                                <= (awayRunMissesReadings
                                    ? Self.excusableMissingReadingsSeconds : Tracker.maximumExcursionSeconds))
                {
                    awayTimes.removeAll { $0.isDense && $0.time >= awayRunStart }
                }
                if !isAway { awayRun = 0 }
                while let oldest = awayTimes.first,
                    oldest.time.seconds(to: e.timestamp) > Tracker.maximumExcursionSeconds
                {
                    earliestLastingAway = min(earliestLastingAway ?? oldest.time, oldest.time)
                    awayTimes.removeFirst()
                }
            }

            /// Whether every evidence carried the tracker's count.
            var isAllCounted: Bool { countedFixes > 0 && uncountedFixes == 0 }

            /// Whether every evidence carried the tracker's count and it counted nothing.
            var isUncounted: Bool { isAllCounted && countedMetres == 0 }

            /// Whether a fix before `time` lay away from the stop and was not excused.
            func wasAway(before time: Timestamp) -> Bool {
                (earliestLastingAway.map { $0 < time } ?? false) || awayTimes.contains { $0.time < time }
            }
        }

        /// The track's first position, and whether any evidence before the first stop lay beyond the profile's
        /// stationary radius of it (see ``append(_:)``).
        var startPoint: (latitude: Double, longitude: Double)?
        var hasLeftStart = false
        /// Whether the track's first evidence read a speed of a moving device: ``Tracker/stillChordSpeedLimit``
        /// (2 m/s) or more. Why not the still speed: a parked tracker's first reading of 0.6 m/s of noise made a
        /// trip of its first step (a third reviewer).
        var startReadsMoving = false
        /// The evidences added, and the detector's gap (``StopDetector/gapSeconds``) once it has judged
        /// ``rhythmSteps`` steps: what the track's first step is judged by at the end (by the rhythm at the end, a
        /// logger that slows down while parked took a real silence at the start for one of its steps: a reviewer's).
        var evidenceCount = 0
        var earlyGapSeconds: Double?
        /// The steps the detector's rhythm is a median of (``StepRhythm``), and one more.
        static let rhythmSteps = 6

        /// How many evidences ``lastEvidences`` holds: 8, more than a departure's confirmation fixes.
        static let recentCount = 8

        /// A builder for `profile`'s stop detector.
        public init(profile: StopDetectionProfile) {
            detector = StopDetector(profile: profile)
            mergeSeconds = 5
            mergeRadiusMetres = profile.stationaryRadiusMetres / 4
        }

        /// A stay across a recording gap (``StopAnalysis/staysAcrossGaps``): the gap lasts at least a stop's
        /// shortest span (the profile's window and
        /// stop timeout: 30 s walking, 70 s driving) and the fixes before and after it lie within the stationary
        /// radius of each other (40 m walking, 50 m driving) and within what the slowest movement of interest
        /// covers in the gap (``StopDetectionProfile/slowestMovementMetresPerSecond``, 0.5 m/s: 15 m across 30 s;
        /// a walker who covered 35 m in a 30 s gap was walking). Then it is a record from the fix before to the
        /// fix after, centred between them, all of it unobserved (``StopRecord/unobservedSeconds``), with no fixes
        /// of its own. Not when the detector was already at a committed stop (that stop spans the gap) or its
        /// countdown commits across it.
        static func stayAcrossGap(from before: MotionEvidence, to after: MotionEvidence, profile: StopDetectionProfile)
            -> StopRecord?
        {
            let seconds = before.timestamp.seconds(to: after.timestamp)
            guard seconds >= profile.windowSeconds + profile.stopTimeoutSeconds else { return nil }
            let metres = Haversine.distance(
                from: (before.latitude, before.longitude), to: (after.latitude, after.longitude))
            guard metres <= min(profile.stationaryRadiusMetres, profile.slowestMovementMetresPerSecond * seconds) else {
                return nil
            }
            let middle = Offsets.midpoint(
                (before.latitude, before.longitude), (after.latitude, after.longitude))
            return StopRecord(
                start: before.timestamp, end: after.timestamp, latitude: middle.latitude, longitude: middle.longitude,
                radiusMetres: metres / 2, fixes: 0, unobservedSeconds: seconds)
        }

        /// Appends a stay across a gap to `stays`, or joins it to the last one when the two are back to back (one
        /// fix between two gaps) at one place (centres within the stationary radius): one stay, centred between
        /// them (weighted by the fixes each side stands for), its radius bounding their fixes' distance from that
        /// centre, holding the fix between them
        /// (a parked tracker's hourly heartbeats read "no fixes" over an 8-hour stay that held 8).
        mutating func appendStay(_ stay: StopRecord, joiningFixIsStill: Bool = false) {
            guard let (previous, isStill) = stays.last, previous.end == stay.start,
                Haversine.distance(from: (previous.latitude, previous.longitude), to: (stay.latitude, stay.longitude))
                    <= detector.profile.stationaryRadiusMetres
            else {
                stays.append((stay, true))  // no fix between gaps yet
                return
            }
            // The centre weighted by the fixes each side stands for (its own and the two around its gap), and a
            // radius that bounds both sides' fixes from it. (An even midpoint, its radius grown by half the centres'
            // distance at every join, reached 281 m over a van's 119 heartbeats within 15 m of each other.)
            let w = Double(stay.fixes + 2) / Double(previous.fixes + 2 + stay.fixes + 2)
            let latitude = previous.latitude + (stay.latitude - previous.latitude) * w
            let longitude = previous.longitude + (stay.longitude - previous.longitude) * w
            let fromPrevious = Haversine.distance(
                from: (previous.latitude, previous.longitude), to: (latitude, longitude))
            let fromStay = Haversine.distance(from: (stay.latitude, stay.longitude), to: (latitude, longitude))
            let joined = StopRecord(
                start: previous.start, end: stay.end, latitude: latitude, longitude: longitude,
                radiusMetres: max(previous.radiusMetres + fromPrevious, stay.radiusMetres + fromStay),
                fixes: previous.fixes + 1 + stay.fixes,  // the fix between the two gaps
                unobservedSeconds: previous.unobservedSeconds + stay.unobservedSeconds)
            stays[stays.count - 1] = (joined, isStill && joiningFixIsStill)
        }

        /// Appends a stop the detector ended to `stops`, or merges it into the last one: when it began within
        /// ``mergeSeconds`` of that one's end with its centre within ``mergeRadiusMetres`` of that one's, or when
        /// its centre lies within the profile's stationary radius of that one's and the ``Tracker`` counted not a
        /// metre since that one ended (every evidence since carrying its count:
        /// ``MotionEvidence/isCountedByTracker``), and every evidence between that one's end and this one's start
        /// that lay beyond the stationary radius of that one's centre was one the tracker judged a multipath
        /// excursion (``MotionEvidence/excursionStart``), or came at a dense step and back with nothing counted
        /// (``SinceStop``'s `add`).
        /// Why the second: the distance and the tracker's own verdicts say the device did not travel, and the
        /// stops should say so too; a fleet tester's van parked 8 h logging every 30 s without speed, 5 % of
        /// its fixes 50–300 m off, read 72 stops and 73 trips of 0 m (each excursion of two fixes a departure the
        /// detector confirmed, and a stop begun again a countdown later). A trip between two stops at one place
        /// that the tracker counted, or did not count but did not judge an excursion either (a sparse logger's hop
        /// to a neighbour and back without readings, which its chains miss: two re-testers' couriers and loops
        /// were joined into one stop by a first version without that test), keeps them apart.
        /// Third, a trip that was no journey: this one's centre within half the stationary radius of that one's,
        /// every evidence since that one's end carrying the tracker's count, less than half the stationary radius
        /// counted, and no evidence away beyond the radius left unexcused. Why: a receiver without Doppler whose
        /// error drifts lets the tracker count a few metres now and then, each a departure for the detector and a
        /// stop again a countdown on (a fleet re-tester's parked hours read dozens of "trips" of 0–35 m); half the
        /// radius apart keeps two stops a short walk or a car-park move apart (the IPIN walks' standing start and
        /// pause, 29–32 m apart; a reviewer's car moved 35 m to another bay, of which the tracker counted 23 m).
        /// Both joins read the evidence from that one's end to this one's end, so this one's own drift counts too
        /// (a reviewer's tracks alike up to this one's end were joined or not by it); read at this one's commit
        /// instead, the IPIN t25r04 walk's three stops 2 s apart, the middle one its walk, were joined into one
        /// (recall 1 → 0.5).
        mutating func append(_ record: StopRecord, withoutDeparture trimmed: StopRecord? = nil) {
            var trimmed = trimmed ?? record
            defer {
                // The window starts again at this stop's end, with the evidence after it already seen.
                sinceStop = SinceStop()
                if !stops.isEmpty {
                    let last = lastEvidences
                    for k in last.indices where last[k].timestamp > record.end {
                        addSinceStop(last[k], after: k > last.startIndex ? last[k - 1].timestamp : nil)
                    }
                }
            }
            var record = record
            if stops.isEmpty, let start = startPoint, let first, !hasLeftStart, sinceStop.isUncounted,
                !isAway((record.latitude, record.longitude), from: start)
            {
                // The track began at this stop: no fix before it left the place and the tracker counted nothing,
                // so the stop runs from the first fix (not a "trip" of 0 m while the detector proved the stop: a
                // fleet re-tester's parked vans began with one in 45 of 72 files).
                record.start = first
                trimmed.start = first
            }
            if let previous = stops.last {
                let apart = Haversine.distance(
                    from: (previous.latitude, previous.longitude), to: (record.latitude, record.longitude))
                let isBlip =
                    previous.end.seconds(to: record.start) <= blipSeconds(cadence: recentCadenceSeconds)
                    && apart <= mergeRadiusMetres
                // The tracker judged every fix since, and none lay away from that stop unexcused.
                let stayed = sinceStop.isAllCounted && !sinceStop.wasAway(before: record.start)
                let radius = detector.profile.stationaryRadiusMetres
                let isUncounted = stayed && sinceStop.countedMetres == 0 && apart <= radius
                let isNoJourney = stayed && sinceStop.countedMetres < radius / 2 && apart <= radius / 2
                if isBlip || isUncounted || isNoJourney {
                    // The silences between the two are in the joined stop, unobserved (a reviewer's point: a stop
                    // joined across an hour without fixes said "unobserved 0").
                    var joined = previous
                    joined.unobservedSeconds += silentSeconds(from: previous.end, to: record.start)
                    stops[stops.count - 1] = joined.merged(with: record)
                    endings[endings.count - 1] = (joined, trimmed)
                    return
                }
            }
            stops.append(record)
            endings.append((nil, trimmed))
        }

        /// The longest departure between two stops that is a blip (``mergeSeconds``): two of the track's steps at
        /// a sparser cadence, at most ``maximumBlipSeconds``. Why: at a fix every 5 s a departure and the stop after
        /// it are at least a step apart, and a sports tester's rides every 2–5 s split a 10-minute café stop into
        /// two or three with "trips" of 10 s and 0–26 m between centres 3–5 m apart (8 of 120 files).
        func blipSeconds(cadence: Double) -> Double {
            min(max(mergeSeconds, 2 * cadence), Self.maximumBlipSeconds)
        }

        /// The most ``blipSeconds(cadence:)`` gives: 15 s (a logger every 7.5 s); sparser, two steps may hold a
        /// short errand and its way back.
        static let maximumBlipSeconds = 15.0

        /// The median step (seconds) between the evidences in ``lastEvidences``; 0 before two.
        var recentCadenceSeconds: Double {
            let last = lastEvidences
            guard last.count >= 2 else { return 0 }
            let steps = zip(last, last.dropFirst()).map { $0.timestamp.seconds(to: $1.timestamp) }.sorted()
            return steps[steps.count / 2]
        }

        /// The seconds of the detector's gaps (``gaps``) between `start` and `end`: the latest gaps only, from the
        /// end of the list back to the first that ended before `start`.
        func silentSeconds(from start: Timestamp, to end: Timestamp) -> Double {
            var seconds = 0.0
            for gap in gaps.reversed() {
                if gap.end <= start { break }
                seconds += max(0, max(gap.start, start).seconds(to: min(gap.end, end)))
            }
            return seconds
        }

        /// Whether a step from `previous` to `time` is shorter than the profile's gap
        /// (``StopDetectionProfile/gapSeconds``: 20 s driving, 30 s walking), a step the tracker judges fix by fix
        /// (not a sparse logger's, whose chains may miss a hop: the detector's own gap grows with a sparse rhythm).
        func isDenseStep(from previous: Timestamp, to time: Timestamp) -> Bool {
            let seconds = previous.seconds(to: time)
            return seconds > 0 && seconds < detector.profile.gapSeconds
        }

        /// Adds `e` to the evidence since the last stop (``SinceStop``), judged against that stop's centre; `previous`
        /// is the time of the evidence before it (`nil`: none).
        mutating func addSinceStop(_ e: MotionEvidence, after previous: Timestamp?) {
            sinceStop.add(
                e,
                isAway: stops.last.map {
                    isAway(
                        (e.latitude, e.longitude), from: ($0.latitude, $0.longitude),
                        slackMetres: e.isTooCoarseForTracker ? e.accuracyMetres : nil)
                } ?? false,
                isDense: previous.map { isDenseStep(from: $0, to: e.timestamp) } ?? false,
                readsStill: hasReading(e) ? isStill(e) : nil, radius: detector.profile.stationaryRadiusMetres)
        }

        /// Whether `point` lies beyond the profile's stationary radius of `place` (degrees), and by more than
        /// `slackMetres` when given: the claimed accuracy of a fix the tracker rejected as too coarse (its uncertainty
        /// reaches back into the stop, so it does not show that the device left). Why: a phone on a table indoors, its
        /// fixes claiming 20–65 m and drifting by as much, left the stop's radius every few minutes, and each drift
        /// read as a trip of 0 m between stops at one place that the joins kept apart (a tester's 20-minute table:
        /// three stops). Only such fixes: with the slack on every fix, a sparse logger's loops from a depot, fixes
        /// claiming 5–10 m, were swallowed into one stop (a fleet evaluation's 6 real trips lost).
        ///
        /// The slack is at most the radius itself: a fix claiming 60–100 m whose real error was 10 m would otherwise
        /// excuse a walk 120 m away and back (a second reviewer's, one stop of 13 minutes).
        func isAway(_ point: (Double, Double), from place: (Double, Double), slackMetres: Double? = nil) -> Bool {
            let radius = detector.profile.stationaryRadiusMetres
            let slack = slackMetres.map { $0.isFinite && $0 > 0 ? min($0, radius) : 0 } ?? 0
            return Haversine.distance(from: place, to: point) > radius + slack
        }

        /// Feeds the next evidence of the track.
        public mutating func add(_ e: MotionEvidence) {
            evidenceCount += 1
            defer { if evidenceCount == Self.rhythmSteps + 1 { earlyGapSeconds = detector.gapSeconds } }
            let before = detector.lastEvidence
            let previous = before?.timestamp
            let wasStopped = detector.isStopCommitted
            // (The accumulator, a plain value, is kept; its record is built only when a stop ends.)
            let accumulator = detector.accumulator
            for event in detector.process(e) {
                if case .stopEnded(let record) = event {
                    // The stop as the detector took it (before this evidence), when it left out its way out.
                    if let taken = accumulator?.record, taken.start == record.start, taken.end > record.end {
                        append(taken, withoutDeparture: record)
                    } else {
                        append(record)
                    }
                }
            }
            addSinceStop(e, after: previous)
            let point = (e.latitude, e.longitude)
            if stops.isEmpty {
                if let start = startPoint {
                    hasLeftStart = hasLeftStart || isAway(point, from: start)
                } else {
                    startPoint = point
                    startReadsMoving =
                        e.speedSource != .derived
                        && (e.speedMetresPerSecond.map { $0 >= Tracker.stillChordSpeedLimit } ?? false)
                }
            }
            if recent.count == 2 * Self.recentCount { recent.removeFirst(Self.recentCount) }
            recent.append(e)
            guard let l = detector.lastEvidence?.timestamp else { return }
            if let previous, l < previous {
                // The detector restarted its clock (``StopDetectionProfile/clockJumpSeconds``): the times from
                // the wrong one on are left out of the span and the gaps.
                // (Both are in time order: popped from the end, each at most once, not a scan of all per restart.)
                while let gap = gaps.last, gap.end > l { gaps.removeLast() }
                while let stay = stays.last, stay.record.end > l { stays.removeLast() }
                if let f = first, f > l { first = l }
            } else if let previous, l != previous, detector.jumpMilliseconds == l.millisecondsSince1970,
                detector.beforeJumpMilliseconds == previous.millisecondsSince1970
            {
                // The detector judged this step a gap (``StopDetector/gapSeconds``: a sparse logger's rhythm).
                gaps.append((previous, l))
                if !wasStopped, !detector.isStopCommitted, let before, let after = detector.lastEvidence,
                    let stay = Self.stayAcrossGap(from: before, to: after, profile: detector.profile)
                {
                    appendStay(stay, joiningFixIsStill: isStill(before))
                }
            }
            if first == nil { first = l }
            last = l
        }

        /// The analysis of the evidence added so far (a committed stop the track never left ends at the last
        /// fix). The builder is left as it was.
        public func finish() -> StopAnalysis {
            var builder = self
            for event in builder.detector.finish() {
                if case .stopEnded(let record) = event { builder.append(record) }
            }
            var stops = zip(builder.stops, builder.endings).map { _, ending in
                ending.joined.map { $0.merged(with: ending.last) } ?? ending.last
            }
            // An observed stay: gaps back to back at one place with fixes between them, every one of them reading
            // still (the arrival and the departure fix around them may be moving: a van's first fix after the
            // ignition read 0.86 m/s). Not silence: the device was seen there, not moving, across it (a tracker's
            // heartbeats every 2 minutes at a delivery). A stop, then; a single gap stays a possible stop.
            var possible: [StopRecord] = []
            for (stay, isStill) in stays {
                if isStill, stay.fixes > 0 { stops.append(stay) } else { possible.append(stay) }
            }
            // A stay a stop spans is in that stop (a countdown that ran on after the gap and committed: the gap was
            // listed twice, as a stop's unobserved time and as a possible stop, a tester's).
            stops.sort { $0.start < $1.start }
            possible = StopAnalysis.stays(possible, notSpannedBy: stops)
            // A sparse logger's first step, judged a gap before the detector knew its rhythm (the profile's gap,
            // 20 s driving, against a tracker every 30 s), is one of its steps when it is no longer than the gap
            // the rhythm now sets: no silence, whatever comes after it (a stops tester's van logging every 30 s
            // read 30 s unobserved on every file, and one every 90 s 90 s), and no possible stop. And the track
            // began at its first stop when the first fix lies within the radius of that stop's centre, reads no
            // speed of a moving device, and the stop began right after that step (a fleet tester's 30 s trackers
            // all began with a "trip" of 30 s and 0 m; a reviewer's first fix 45 m out at 15 m/s was the end of a
            // drive, and that step is a trip). The stop's fixes and radius stay those the detector took.
            var gaps = gaps
            if let gap = gaps.first, gap.start == first,
                gap.start.seconds(to: gap.end) <= builder.earlyGapSeconds ?? builder.detector.gapSeconds
            {
                gaps.removeFirst()
                possible.removeAll { $0.start == gap.start && $0.end == gap.end }
                if let stop = stops.first, stop.start == gap.end, let start = builder.startPoint,
                    !builder.startReadsMoving, !isAway(start, from: (stop.latitude, stop.longitude))
                {
                    stops[0].start = gap.start
                }
            }
            return StopAnalysis(stops: stops, first: first, last: last, gaps: gaps, staysAcrossGaps: possible)
        }

        /// Whether `evidence` carries a speed reading (a Doppler or filtered speed, not a derived one).
        func hasReading(_ evidence: MotionEvidence) -> Bool {
            evidence.speedMetresPerSecond != nil && evidence.speedSource != .derived
        }

        /// Whether `evidence` reads a speed below the profile's still speed (a Doppler or filtered speed: a
        /// derived one follows the fixes' noise).
        func isStill(_ evidence: MotionEvidence) -> Bool {
            guard let speed = evidence.speedMetresPerSecond, evidence.speedSource != .derived else { return false }
            return speed < detector.profile.stillSpeedMetresPerSecond
        }
    }

    /// Analyses raw fixes (``MotionEvidence/init(fix:)``: Doppler speeds as the receiver reported them).
    public init(fixes: some Sequence<Fix>, profile: StopDetectionProfile) {
        self.init(evidence: fixes.lazy.map(MotionEvidence.init(fix:)), profile: profile)
    }

    /// A recording gap longer than this, or a stay across gaps (``staysAcrossGaps``) this long, ends a trip, seconds:
    /// 600, the default of the ``Tracker``'s ``TrackingProfile/maximumBridgedGapSeconds``, beyond which it never counts
    /// the chord across a silence (the journey is broken there; a stop analysis has no tracking profile to read it
    /// from). Shorter gaps (a tunnel, a building) stay inside their trip. Before, a cyclist tester's commute, two
    /// tracks 9 hours apart, was one trip of 33,200 s.
    public static let tripBreakingGapSeconds = 600.0

    /// The latest end among the first 1, 2, … of `stops` (never decreasing): with `stops` in time order by start,
    /// whether any of the first k ends after a time is one comparison.
    static func latestEnds(of stops: [StopRecord]) -> [Timestamp] {
        var ends: [Timestamp] = []
        ends.reserveCapacity(stops.count)
        for stop in stops { ends.append(max(ends.last ?? stop.end, stop.end)) }
        return ends
    }

    /// The stays of `stays` that no stop of `stops` (in time order by start) overlaps: a stay a stop spans is in
    /// that stop (a countdown that ran on after the gap and committed: the gap was listed twice, as a stop's
    /// unobserved time and as a possible stop, a tester's). One binary search per stay, over the stops and their
    /// ``latestEnds(of:)``: a scan of every stop per stay made a sparse logger's many stays quadratic (a
    /// performance tester's 1 M fixes in 5.4 s, 48 % of it here and in the gaps' unobserved time).
    static func stays(_ stays: [StopRecord], notSpannedBy stops: [StopRecord]) -> [StopRecord] {
        let latestEnd = latestEnds(of: stops)
        return stays.filter { stay in
            let k = count(of: stops, startingBefore: stay.end)
            return !(k > 0 && latestEnd[k - 1] > stay.start)
        }
    }

    /// How many of `stops` (in time order by start) start before `time`.
    static func count(of stops: [StopRecord], startingBefore time: Timestamp) -> Int {
        partitionPoint(stops.count) { stops[$0].start >= time }
    }

    /// The first index in `0..<count` where `isPast` holds, for a predicate false then true along the indices
    /// (`count` when it never holds): a binary search.
    static func partitionPoint(_ count: Int, where isPast: (Int) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isPast(mid) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Builds the trips and times from stops, the track's first and last times, and its recording gaps.
    public init(
        stops: [StopRecord], first: Timestamp?, last: Timestamp?,
        gaps: [(start: Timestamp, end: Timestamp)] = [], staysAcrossGaps: [StopRecord] = []
    ) {
        self.stops = stops
        self.staysAcrossGaps = staysAcrossGaps
        self.first = first
        self.last = last
        guard let first, let last else {
            trips = []
            elapsedSeconds = 0
            movingSeconds = 0
            unobservedSeconds = 0
            return
        }
        // The part of each gap that no stop covers. The stops that overlap a gap start before its end, and among
        // those they are the ones from the first whose latest end passes the gap's start: two binary searches (a
        // scan of every stop per gap was quadratic), then summed in time order.
        let inOrder = zip(stops, stops.dropFirst()).allSatisfy { $0.start <= $1.start }
        let ordered = inOrder ? stops : stops.sorted { $0.start < $1.start }
        let latestEnd = Self.latestEnds(of: ordered)
        var unobserved = 0.0, coveredByStops = 0.0
        for gap in gaps {
            let before = Self.count(of: ordered, startingBefore: gap.end)
            // The first stop whose latest end (never decreasing) passes the gap's start: a binary search too (a
            // walk back went to one long early stop for every later gap, a reviewer's).
            let from = Self.partitionPoint(before) { latestEnd[$0] > gap.start }
            var covered = 0.0
            for stop in ordered[from..<before] where stop.end > gap.start {
                covered += max(stop.start, gap.start).seconds(to: min(stop.end, gap.end))
            }
            unobserved += gap.start.seconds(to: gap.end)
            coveredByStops += min(covered, gap.start.seconds(to: gap.end))
        }
        unobservedSeconds = unobserved
        var trips: [TripRecord] = []
        var cursor = first
        var stopped = 0.0
        // A trip also ends at a silence longer than ``tripBreakingGapSeconds`` (the next starts after it), and at a
        // stay across gaps that long (a tracker parked overnight that sends a heartbeat every 5 minutes: its
        // 10-hour stay was inside one trip of 38,053 s): merged where they overlap, in time order.
        var breaks: [(start: Timestamp, end: Timestamp)] = []
        let long =
            (gaps + staysAcrossGaps.map { (start: $0.start, end: $0.end) })
            .filter { $0.start.seconds(to: $0.end) > Self.tripBreakingGapSeconds }
            .sorted { $0.start < $1.start }
        for interval in long {
            if let previous = breaks.last, interval.start <= previous.end {
                breaks[breaks.count - 1].end = max(previous.end, interval.end)
            } else {
                breaks.append(interval)
            }
        }
        // (Trips are added in time order and the breaks are merged, so in time order by start and by end alike:
        // one pass over them, not a scan per trip.)
        var nextBreak = 0
        func addTrip(from start: Timestamp, to end: Timestamp) {
            var from = start
            while nextBreak < breaks.count, breaks[nextBreak].start < from { nextBreak += 1 }
            while nextBreak < breaks.count, breaks[nextBreak].end <= end {
                let gap = breaks[nextBreak]
                if gap.start > from { trips.append(TripRecord(start: from, end: gap.start)) }
                from = gap.end
                nextBreak += 1
            }
            if end > from { trips.append(TripRecord(start: from, end: end)) }
        }
        for stop in stops {
            if stop.start > cursor { addTrip(from: cursor, to: stop.start) }
            stopped += stop.durationSeconds
            cursor = max(cursor, stop.end)
        }
        if last > cursor { addTrip(from: cursor, to: last) }
        self.trips = trips
        elapsedSeconds = first.seconds(to: last)
        // (A stop's silent part is unobserved, not stopped: silence never means stopped.)
        movingSeconds = max(0, elapsedSeconds - (stopped - coveredByStops) - unobserved)
    }
}

extension StopRecord {
    /// This stop and a `later` one at about the same place as one stop: from this one's start to the later one's
    /// end, the centre the fix-weighted mean of the two, the radius the root-mean-square distance of both
    /// stops' fixes from it (each stop's own radius and its centre's offset), the fixes summed.
    func merged(with later: StopRecord) -> StopRecord {
        let n = Double(fixes), m = Double(later.fixes)
        let w = n + m > 0 ? m / (n + m) : 0.5
        let latitude = self.latitude + (later.latitude - self.latitude) * w
        let longitude = self.longitude + (later.longitude - self.longitude) * w
        let d1 = Haversine.distance(from: (self.latitude, self.longitude), to: (latitude, longitude))
        let d2 = Haversine.distance(from: (later.latitude, later.longitude), to: (latitude, longitude))
        let meanSquare =
            n + m > 0
            ? (n * (radiusMetres * radiusMetres + d1 * d1) + m * (later.radiusMetres * later.radiusMetres + d2 * d2))
                / (n + m)
            : 0
        return StopRecord(
            start: start, end: later.end, latitude: latitude, longitude: longitude,
            radiusMetres: meanSquare.squareRoot(), fixes: fixes + later.fixes,
            unobservedSeconds: unobservedSeconds + later.unobservedSeconds)
    }
}
