import TrueTrackCore
import TrueTrackIO

/// A command's evidence on its way to the stop analysis, as a stream: each fix's ``MotionEvidence`` is held back
/// for ``holdBack`` fixes before the ``StopAnalysis/Builder`` sees it, so that the fixes a clock jump proves wrong
/// are taken out first (see ``TrackingProfile/clockJumpSeconds``: the tracker accepted them, then restarted on
/// older fixes). Memory stays bounded by the hold-back, however long the input (it held every fix's evidence,
/// ~100 bytes each: 2 GB for a 19-million-fix file).
///
/// What is computed after the stream (the stop analysis, the smoothed track, the time span) leaves the wrong
/// fixes out, and the user is told which fix it was. A wrong fix found more than ``holdBack`` fixes after it was
/// read has already been analysed: ``finish(rereading:format:options:profile:startingOver:analysed:)`` then
/// reads a file a second time, which leaves out each fix the first reading proved wrong as it reads it (the
/// ``GenerationVerdict``s), in the same bounded memory; from standard input it cannot, and the warning says the
/// analysis holds the wrong times.
struct EvidenceStream {
    /// How many fixes are held back by default: a receiver's wrong time is found three fixes after the last
    /// wrong one (three older fixes in a row restart the tracker), so this covers runs of ~500 wrong fixes.
    static let defaultHoldBack = 512

    /// One fix on its way.
    struct Entry {
        /// The fix's position in read order, 1-based.
        var index: Int
        var evidence: MotionEvidence
        /// The fix's time when the tracker accepted it.
        var acceptedTime: Timestamp?
        /// The tracker's total after the fix.
        var totalMetres: Double
        /// How many restarts came before it (only fixes since the last restart can be proven wrong).
        var generation: Int
        /// Rejected as out of order (or as its repeat) while dated a day or more before the latest accepted fix (a GPS week
        /// rollover, a clock reset): wrong, unless a restart onto its time proves it right before it is analysed.
        var isBackdated = false
        /// Rejected as out of order (or as a repeat of such a fix): its time is left out of the span
        /// (``durationSeconds(of:)``), unless a restart onto its time proves it right before it is analysed.
        var isOutOfOrder = false
    }

    let input: String
    let holdBack: Int
    private let stopProfile: StopDetectionProfile
    private var builder: StopAnalysis.Builder
    /// The entries not yet analysed, oldest first, from `head` on.
    private var pending: [Entry] = []
    private var head = 0
    /// Where in `pending` the current generation's entries start (earlier ones can never be proven wrong: a
    /// restart only judges the fixes accepted since the last one).
    private var generationStart = 0
    private var generation = 0
    /// The latest accepted time since the last restart, and the latest of those already analysed.
    private var latestAccepted: Timestamp?
    private var latestAcceptedAnalysed: Timestamp?
    /// The wrong fixes taken out, 1-based in read order.
    private(set) var wrongFixes: Set<Int> = []
    /// Whether ``wrongFixes`` is kept: only by a stream that holds every fix (`holdBack` `.max`, what `--smooth`
    /// uses to leave them out of the smoothed track); a streaming run needs no list that grows with the file.
    private let keepsWrongFixes: Bool
    /// The first five warnings (all that are printed), and how many there were: one per backdated fix of a
    /// file written newest first held ~300 bytes each, 381 MB for a million fixes (a performance tester's).
    private var warnings: [String] = []
    private var warningCount = 0
    /// The stretches of time the evidence analysed covers (the wrong fixes left out).
    private var stretches: TimeStretches
    /// Whether a wrong fix reached the analysis before it was proven wrong (see
    /// ``finish(rereading:format:options:profile:startingOver:analysed:)``).
    private var analysedAWrongFix = false
    /// Accepted fixes since the last restart.
    private var acceptedInGeneration = 0
    /// The latest forward jump of a day or more between accepted fixes of this generation, not yet judged: the
    /// read index of the fix after it, how many accepted fixes came before it, and how many since (itself
    /// included). The side with fewer than ``confirmingFixes`` fixes is the wrong one: a first fix dated 1024
    /// weeks early, or a last fix dated far ahead, which no restart ever judges (three older fixes must
    /// follow a wrong one for that).
    private var jump: (index: Int, before: Int, since: Int)?
    /// How many fixes confirm a time (as three older fixes in a row restart the tracker).
    private let confirmingFixes = TrackingProfile.walking.rejectionsBeforeReanchor
    /// The read index of the current generation's first fix (`nil` before the first fix).
    private var generationOpenedAt: Int?
    /// The read index of the last fix taken.
    private var lastIndex = 0
    /// The time of the latest fix the tracker rejected as behind (out of order, or a repeat of such a fix) without
    /// its being backdated, since the last accepted fix: a run of such fixes stepping back in time is a file
    /// written newest first, not a clock jump.
    private var previousBehind: Timestamp?
    /// What this reading has proved of the current generation so far (its ``GenerationVerdict``, kept in
    /// ``verdicts`` when the generation ends, if it was long enough for its fixes to reach the analysis).
    private var judging = GenerationVerdict()
    /// What this reading proved of each generation (by number) that spanned ``holdBack`` fixes or more and had
    /// a fix proven wrong or right: one entry per such generation, so at most one per ``holdBack`` fixes read.
    private(set) var verdicts: [Int: GenerationVerdict] = [:]
    /// For a second reading, the first reading's ``verdicts``: the fixes of those generations are judged as they
    /// are read; `nil` for a first reading.
    private let firstReading: [Int: GenerationVerdict]?
    /// The first reading's verdict on the current generation (a second reading's only).
    private var verdict: GenerationVerdict?
    /// The fixes of the current generation that ``verdict`` left out as they were read, by the rule that proved
    /// them wrong: before a forward jump (``leaveOut(acceptedBefore:)``), after the time of the restart that
    /// ended the generation, or from a forward jump no later fix confirmed (``leaveOut(acceptedFrom:)``). Each
    /// rule's warning counts them with those it takes out of the hold-back itself. These: before the forward jump.
    private var withheldBefore: LeftOut?
    /// The current generation's fixes ``verdict`` left out as dated after the time of the restart that ends it.
    private var withheldAtRestart: LeftOut?
    /// The current generation's fixes ``verdict`` left out as read from a forward jump no later fix confirmed.
    private var withheldFrom: LeftOut?
    /// A second reading's warnings of backdated fixes (the first five) as they reach the analysis: they follow
    /// the other warnings (``settleWarnings()``), as when every fix was held back to the end.
    private var analysisWarnings: [String] = []

    /// What a reading proved of one generation (the fixes from one restart of the tracker to the next): a second
    /// reading of the same file makes the same decisions and numbers the generations alike, so it can leave out
    /// the generation's wrong fixes, and keep the ones proven right, as it reads them instead of holding every
    /// fix back until the proof.
    struct GenerationVerdict: Equatable {
        /// The read index of the forward jump whose few accepted fixes before it had the wrong time: the
        /// generation's accepted fixes read before it are wrong (``leaveOut(acceptedBefore:)``).
        var wrongBefore: Int?
        /// The time of the restart that ended the generation: its other accepted fixes dated after it are wrong,
        /// and its fixes rejected as behind but dated at or before it are right after all.
        var restartTime: Timestamp?
        /// The read index of a forward jump no later fix confirmed before the input ended: the generation's other
        /// accepted fixes from it on are wrong, and the fixes read after it are not behind (``leaveOut(acceptedFrom:)``).
        var wrongFrom: Int?

        /// Whether the verdict proves anything.
        var isEmpty: Bool { wrongBefore == nil && restartTime == nil && wrongFrom == nil }
    }

    /// Fixes left out as wrong, as a warning names them: the first in read order, its time, and how many.
    struct LeftOut {
        /// The first fix's position in read order, 1-based.
        var index: Int
        /// The first fix's time.
        var time: Timestamp
        /// How many fixes.
        var count: Int

        /// The first of `entries` (in read order) and their count; `nil` for none.
        init?(_ entries: [Entry]) {
            guard let first = entries.first else { return nil }
            self.init(index: first.index, time: first.evidence.timestamp, count: entries.count)
        }

        /// The fixes `index` (dated `time`) and `count - 1` more after it.
        init(index: Int, time: Timestamp, count: Int) {
            self.index = index
            self.time = time
            self.count = count
        }

        /// The fixes `lhs` and `rhs` together (`nil`s count none).
        static func joined(_ lhs: LeftOut?, _ rhs: LeftOut?) -> LeftOut? {
            guard let lhs else { return rhs }
            guard let rhs else { return lhs }
            let first = lhs.index <= rhs.index ? lhs : rhs
            return LeftOut(index: first.index, time: first.time, count: lhs.count + rhs.count)
        }
    }

    /// A stream into `profile`'s stop analysis, for the fixes of `input` (named in warnings).
    init(input: String, profile: StopDetectionProfile, holdBack: Int = EvidenceStream.defaultHoldBack) {
        self.init(input: input, profile: profile, holdBack: holdBack, firstReading: nil)
    }

    /// A stream for a second reading of `input`, which judges the fixes of the generations `firstReading`
    /// (the first reading's ``verdicts``) proved something of as it reads them.
    init(
        input: String, profile: StopDetectionProfile, holdBack: Int, firstReading: [Int: GenerationVerdict]?
    ) {
        self.input = input
        self.holdBack = holdBack
        keepsWrongFixes = holdBack == .max
        stopProfile = profile
        builder = StopAnalysis.Builder(profile: profile)
        stretches = TimeStretches(separationSeconds: profile.clockJumpSeconds)
        self.firstReading = firstReading
        verdict = firstReading?[0]
    }

    /// Takes the `index`-th fix read (1-based), its evidence and the tracker's decision on it; `analysed` is
    /// called with each entry as it reaches the analysis (never with a wrong one).
    mutating func add(
        index: Int, evidence: MotionEvidence, decision: FixDecision, analysed: (Entry) -> Void = { _ in }
    ) {
        if decision.isAccepted, let latest = latestAccepted, decision.timestamp < latest {
            restart(at: index, time: decision.timestamp)
        }
        if generationOpenedAt == nil { generationOpenedAt = index }
        lastIndex = index
        if decision.isAccepted {
            if let latest = latestAccepted, latest.seconds(to: decision.timestamp) >= stopProfile.clockJumpSeconds {
                jump = (index, acceptedInGeneration, 0)
            }
            acceptedInGeneration += 1
            jump?.since += 1
            latestAccepted = decision.timestamp
        }
        // A repeat of a fix out of order is rejected as a duplicate (of the fix before it), and is as far behind:
        // its time counted in the span (a tester's old fix written twice: 159 s for a 59 s walk).
        let isBehind =
            decision.rejection == .outOfOrder
            || (decision.rejection == .duplicate && latestAccepted.map { decision.timestamp < $0 } == true)
        // A fix behind by a day or more is backdated, unless it continues a run of fixes behind that steps back in
        // time, each at most a day before the last of them that was not backdated: a file written newest first, whose
        // fixes lie seconds apart (every fix a day or more before its first was left out of the smoothed track, which
        // takes the fixes in time order: 122 of about 280 km, each named a clock jump; a performance tester's). The
        // chain runs on the fixes not backdated only, so that a GPS week rollover inside such a file stays wrong to
        // its last fix, and fixes rejected for other reasons (an invalid row) do not break it (a reviewer's).
        let continuesNewestFirst =
            previousBehind.map {
                decision.timestamp <= $0 && decision.timestamp.seconds(to: $0) < stopProfile.clockJumpSeconds
            } == true
        let isBackdated =
            isBehind && !continuesNewestFirst
            && latestAccepted.map { decision.timestamp.seconds(to: $0) >= stopProfile.clockJumpSeconds } == true
        if decision.isAccepted {
            previousBehind = nil
        } else if isBehind, !isBackdated {
            previousBehind = decision.timestamp
        }
        var entry = Entry(
            index: index, evidence: evidence, acceptedTime: decision.isAccepted ? decision.timestamp : nil,
            totalMetres: decision.totalDistanceMetres, generation: generation, isBackdated: isBackdated,
            isOutOfOrder: isBehind)
        if let verdict {
            judge(&entry, by: verdict)
        } else {
            pending.append(entry)
        }
        if let j = jump, j.since >= confirmingFixes {
            // The time after the jump is confirmed; the few fixes before it (if few) had the wrong one.
            if j.before < confirmingFixes {
                judging.wrongBefore = j.index
                leaveOut(acceptedBefore: j.index)
            }
            jump = nil
        }
        while pending.count - head > holdBack { analyseNext(analysed) }
        if head > 4096, head * 2 > pending.count {
            pending.removeFirst(head)
            generationStart = max(0, generationStart - head)
            head = 0
        }
    }

    /// A second reading's judgement of a fix of a generation the first reading proved something of, as it is
    /// read: a fix `verdict` proves wrong is left out at once (counted for its rule's warning), one it proves
    /// right loses its mark of being behind, and the rest are held back as usual. The same as holding every
    /// fix back until the proof (the first reading's rules, in their order: before a forward jump, after the
    /// restart's time, from an unconfirmed forward jump), in the hold-back's memory.
    private mutating func judge(_ entry: inout Entry, by verdict: GenerationVerdict) {
        if let accepted = entry.acceptedTime {
            let wrong = LeftOut(index: entry.index, time: entry.evidence.timestamp, count: 1)
            if let before = verdict.wrongBefore, entry.index < before {
                withheldBefore = .joined(withheldBefore, wrong)
                return
            }
            if let time = verdict.restartTime, accepted > time {
                withheldAtRestart = .joined(withheldAtRestart, wrong)
                return
            }
            if let from = verdict.wrongFrom, entry.index >= from {
                withheldFrom = .joined(withheldFrom, wrong)
                return
            }
        }
        if verdict.restartTime.map({ entry.evidence.timestamp <= $0 }) == true
            || verdict.wrongFrom.map({ entry.index > $0 }) == true
        {
            entry.isBackdated = false
            entry.isOutOfOrder = false
        }
        pending.append(entry)
    }

    /// Analyses what is still held back and returns the analysis.
    ///
    /// When a run of wrong times longer than ``holdBack`` reached the analysis (a stop lasting days, no moving
    /// time) and `path` names a file, the file is read again with a fresh tracker of `profile`, so that every
    /// fix the clock jump proves wrong is left out however far back it lies: the tracker decides as it did, the
    /// generations are numbered alike, and the first reading's ``verdicts`` say which of their fixes are wrong
    /// (left out as they are read) or right after all, so the second reading holds back no more than the first.
    /// Its analysis, warnings and time span are those of a reading that held every fix back to the end. This
    /// stream then becomes the second reading's; `startingOver` is called before it, so that a caller collecting
    /// the `analysed` entries can drop the first reading's. From standard input (`-`) nothing is read again.
    mutating func finish(
        rereading path: String, format: FixFormat, options: ReadOptions, profile: TrackingProfile,
        startingOver: () -> Void = {}, analysed: (Entry) -> Void = { _ in }
    ) -> StopAnalysis {
        drain(analysed)
        guard analysedAWrongFix, path != "-",
            var reader = try? AnyFixReader(path: path, format: format, options: options)
        else { return builder.finish() }
        startingOver()
        var tracker = Tracker(profile: profile)
        var again = EvidenceStream(input: input, profile: stopProfile, holdBack: holdBack, firstReading: verdicts)
        var index = 0
        // (The reading stops where the first one did: at a read error.)
        while let fix = try? reader.next() {
            index += 1
            let decision = tracker.process(fix)
            again.add(
                index: index, evidence: MotionEvidence(fix: fix, decision: decision), decision: decision,
                analysed: analysed)
        }
        again.drain(analysed)
        again.settleWarnings()
        // (The verdicts reach every wrong fix before the analysis does.)
        assert(!again.analysedAWrongFix, "a second reading analysed a wrong fix")
        self = again
        return builder.finish()
    }

    /// A second reading's warnings as a reading that held every fix back to the end gives them: the rules'
    /// first (as they proved fixes wrong), then the backdated fixes' (as they reached the analysis).
    private mutating func settleWarnings() {
        warnings = Array((warnings + analysisWarnings).prefix(5))
        analysisWarnings = []
    }

    /// The end of the input: judges a forward jump no later fix confirmed, then analyses everything held back.
    private mutating func drain(_ analysed: (Entry) -> Void) {
        if let j = jump, j.since < confirmingFixes, j.before >= confirmingFixes {
            // The input ended before any fix confirmed the time after the jump: those few fixes had it wrong.
            judging.wrongFrom = j.index
            leaveOut(acceptedFrom: j.index)
            jump = nil
        }
        keepVerdict(endingAt: lastIndex)
        while head < pending.count { analyseNext(analysed) }
        // Everything is analysed: the entries are let go. Held whole by `process --smooth` (~180 bytes a fix), they
        // stayed alive through the smoothing after them: 30 % of a 1 M-fix walk's peak.
        pending = []
        head = 0
        generationStart = 0
    }

    /// The time the fixes cover, seconds, the wrong fixes left out: the sum of the ``TimeStretches`` of the
    /// fixes analysed, whatever their order in the file, except those the tracker rejected as out of order
    /// (stretches a day or more apart: a clock fault the tracker could not judge, or recordings days apart; a
    /// first fix dated 1980 before a 2024 walk read 44 years); when a wrong fix reached the analysis before it was proven wrong (from standard input,
    /// which is not read again), the analysis's own span (its stop detector restarted its clock too and pulled
    /// its times back).
    func durationSeconds(of analysis: StopAnalysis) -> Double {
        if analysedAWrongFix {
            return analysis.first.flatMap { f in analysis.last.map { f.seconds(to: $0) } } ?? 0
        }
        return stretches.totalSeconds
    }

    /// The earliest and latest times of the fixes analysed, the wrong fixes left out: what the summary's times
    /// cover (a fix stamped 2070 that the clock-jump rule left out is not the file's "latest" time). `nil` when a
    /// wrong fix reached the analysis before it was proven wrong, or when nothing was analysed.
    var timeSpan: (earliest: Timestamp, latest: Timestamp)? {
        guard !analysedAWrongFix, let first = stretches.first, let last = stretches.last else { return nil }
        return (first, last)
    }

    /// A warning when the fixes fall into stretches of time a day or more apart (their distance to each other is
    /// not counted in ``durationSeconds(of:)``).
    var stretchesWarning: String? {
        guard stretches.count > 1, let span = timeSpan else { return nil }
        return "warning: the fixes of \(input) fall into \(stretches.count) stretches of time a day or more apart "
            + "(\(ISO8601.format(span.earliest)) to \(ISO8601.format(span.latest)); a receiver's clock fault, or recordings days "
            + "apart): the duration counts each stretch, not the time between them\n"
    }

    /// The warnings to print (the clock jumps, the first five, then a count); with `duration`, first the warning
    /// that the duration counts stretches of time a day or more apart each on its own (``durationSeconds(of:)``:
    /// `process`). The commands print them and carry them in their JSON (`warnings`): a batch that read only the
    /// JSON lost the one warning that said why a drive was short (a tester).
    func reportedWarnings(duration: Bool = false) -> [String] {
        var lines: [String] = []
        if duration, let stretchesWarning { lines.append(stretchesWarning) }
        lines += warnings.prefix(5)
        if warningCount > 5 { lines.append("warning: and \(warningCount - 5) more clock jumps\n") }
        return lines
    }

    private mutating func analyseNext(_ analysed: (Entry) -> Void) {
        let entry = pending[head]
        head += 1
        if entry.isBackdated {
            // A single backdated fix the tracker rejected (three in a row restart it, and then the fixes before
            // are the wrong ones): its time would stretch the span by years and pull the smoother back to it.
            if keepsWrongFixes { wrongFixes.insert(entry.index) }
            warn(
                LeftOut([entry]),
                "a day or more before the fixes around it (a GPS week rollover or a clock reset?), and the tracker "
                    + "rejected it as out of order (or as a repeat of such a fix)", deferred: firstReading != nil)
            return
        }
        // A fix the tracker rejected as out of order says nothing of the time it is dated in, which the analysis
        // has passed: it stays out of the stops, as the warnings say (fed to the analysis, an hour of re-delivered
        // fixes of a clock's autumn change split a stop before it in two, a timeline tester's).
        if !entry.isOutOfOrder { builder.add(entry.evidence) }
        // A fix the tracker rejected as out of order is not in the span: one stamped 10 hours early stretched a
        // 583 s walk to 36,484 s (a tester), while the stops it did not enter said 583 s.
        if !entry.isOutOfOrder { stretches.add(entry.evidence.timestamp) }
        if entry.generation == generation, let accepted = entry.acceptedTime { latestAcceptedAnalysed = accepted }
        analysed(entry)
    }

    /// Leaves out this generation's accepted fixes read before the `index`-th (a forward jump's few fixes
    /// before it had the wrong time).
    private mutating func leaveOut(acceptedBefore index: Int) {
        let wrong = LeftOut.joined(LeftOut(partition { $0.acceptedTime != nil && $0.index < index }), withheldBefore)
        withheldBefore = nil
        warn(wrong, "a day or more before the fixes that follow")
    }

    /// Leaves out this generation's accepted fixes from the `index`-th on (a forward jump no later fix
    /// confirmed), and clears the backdated mark of the fixes after it: they were older than a wrong time only.
    private mutating func leaveOut(acceptedFrom index: Int) {
        let wrong = LeftOut.joined(LeftOut(partition { $0.acceptedTime != nil && $0.index >= index }), withheldFrom)
        withheldFrom = nil
        for i in max(head, generationStart)..<pending.count where pending[i].index > index {
            pending[i].isBackdated = false
            // (And they are in the stops: they were out of order only against the wrong time, a reviewer's.)
            pending[i].isOutOfOrder = false
        }
        warn(wrong, "a day or more after the fixes before it, and no later fix confirms that time")
    }

    /// Warns about the fixes `wrong` left out for a time that is `how` (wrong); `note` follows the sentence;
    /// `deferred` keeps the warning among ``analysisWarnings``.
    private mutating func warn(_ wrong: LeftOut?, _ how: String, note: String = "", deferred: Bool = false) {
        guard let wrong, keepsNextWarning(deferred: deferred) else { return }
        let warning =
            "warning: fix \(wrong.index) (in read order) of \(input) is dated " + ISO8601.format(wrong.time)
            + (wrong.count > 1 ? " (and \(wrong.count - 1) more accepted fixes after it)" : "")
            + ", \(how); the summary's times, stops and smoothed track leave "
            + (wrong.count > 1 ? "those fixes" : "that fix") + " out\(note)\n"
        if deferred { analysisWarnings.append(warning) } else { warnings.append(warning) }
    }

    /// Counts a warning; whether it is among the first five (all that are printed) of its list (``warnings``, or
    /// with `deferred` ``analysisWarnings``), which alone are built and kept.
    private mutating func keepsNextWarning(deferred: Bool = false) -> Bool {
        warningCount += 1
        return (deferred ? analysisWarnings : warnings).count < 5
    }

    /// Keeps what this reading proved of the current generation (``judging``), read up to the `index`-th fix, in
    /// ``verdicts`` when the generation spans ``holdBack`` fixes or more (only then can a fix of it have reached
    /// the analysis: a fix is analysed once ``holdBack`` more were read); then starts on the next one.
    private mutating func keepVerdict(endingAt index: Int) {
        if let opened = generationOpenedAt, index - opened >= holdBack, !judging.isEmpty {
            verdicts[generation] = judging
        }
        judging = GenerationVerdict()
    }

    /// Removes the current generation's pending entries that `isWrong` picks (those already analysed cannot be:
    /// then `analysedAWrongFix` is set), records them as wrong fixes and returns them in read order.
    private mutating func partition(_ isWrong: (Entry) -> Bool) -> [Entry] {
        let from = max(head, generationStart)
        if head > generationStart, pending[generationStart..<head].contains(where: isWrong) {
            analysedAWrongFix = true
        }
        var wrong: [Entry] = []
        var write = from
        for read in from..<pending.count {
            let entry = pending[read]
            if entry.generation == generation, isWrong(entry) {
                wrong.append(entry)
            } else {
                pending[write] = entry
                write += 1
            }
        }
        pending.removeSubrange(write...)
        if keepsWrongFixes { wrongFixes.formUnion(wrong.map(\.index)) }
        return wrong
    }

    /// The tracker accepted the `index`-th fix, older than the latest it had accepted: it restarted after a
    /// clock jump, and the fixes accepted since the last restart that are dated after this one were wrong.
    private mutating func restart(at index: Int, time: Timestamp) {
        // Only the current generation's entries (not yet analysed) can be wrong: partitioned in place, so a
        // restart costs the generation's length, not the whole hold-back (with --smooth it holds every fix).
        let from = max(head, generationStart)
        let wrong = LeftOut.joined(
            LeftOut(partition { $0.acceptedTime.map { $0 > time } ?? false }), withheldAtRestart)
        withheldAtRestart = nil
        // The rejected fixes of the run that led to this restart were right after all: the new time is theirs.
        for i in from..<pending.count where pending[i].evidence.timestamp <= time {
            pending[i].isBackdated = false
            pending[i].isOutOfOrder = false
        }
        generationStart = pending.count  // the restart fix, appended next, opens the new generation
        let analysedWrong = latestAcceptedAnalysed.map { $0 > time } ?? false
        if analysedWrong { analysedAWrongFix = true }
        // (The commands then read a file a second time; from standard input they cannot.)
        let late =
            analysedWrong
            ? " (earlier fixes of that run, more than \(holdBack) fixes back, were already in the stop analysis: "
                + "a file is read again to leave them out; from standard input the stops and times hold them)"
            : ""
        if wrong != nil {
            warn(
                wrong,
                "after the fixes that follow; the tracker started again at fix \(index) ("
                    + "\(ISO8601.format(time)))", note: late)
        } else if analysedWrong, keepsNextWarning() {
            warnings.append(
                "warning: fixes of \(input) more than \(holdBack) fixes before fix \(index) are dated after it; "
                    + "the tracker started again at fix \(index) (\(ISO8601.format(time))); they were "
                    + "already in the stop analysis (a file is read again to leave them out; from standard input the "
                    + "stops and times hold them)\n")
        }
        judging.restartTime = time
        keepVerdict(endingAt: index)
        generation += 1
        generationOpenedAt = index
        verdict = firstReading?[generation]
        latestAcceptedAnalysed = nil
        acceptedInGeneration = 0
        jump = nil
    }
}

/// The stretches of time a set of instants covers, where instants less than ``separationSeconds`` apart belong
/// to one stretch; in constant memory (at most ``capacity`` stretches: beyond that the two nearest merge).
struct TimeStretches {
    /// Instants further apart than this (seconds) open separate stretches.
    let separationSeconds: Double
    /// The most stretches kept: 64 (each a pair of times).
    static let capacity = 64
    /// The stretches, sorted by start, each (start, end) in ms since 1970.
    private(set) var spans: [(start: Int64, end: Int64)] = []

    init(separationSeconds: Double) {
        self.separationSeconds = separationSeconds
    }

    /// How many stretches.
    var count: Int { spans.count }
    /// The earliest instant.
    var first: Timestamp? { spans.first.map { Timestamp(millisecondsSince1970: $0.start) } }
    /// The latest instant (the stretches are disjoint and in order: the last one ends latest).
    var last: Timestamp? { spans.last.map { Timestamp(millisecondsSince1970: $0.end) } }
    /// The sum of the stretches' lengths, seconds.
    var totalSeconds: Double { spans.reduce(0) { $0 + Double($1.end &- $1.start) / 1000 } }

    /// Adds an instant: it extends the stretch it is within ``separationSeconds`` of (merging two it bridges),
    /// or opens a new one.
    mutating func add(_ time: Timestamp) {
        let t = time.millisecondsSince1970
        let gap = separationSeconds * 1000
        // The first stretch that does not end before t's reach.
        var i = 0
        while i < spans.count, Double(t) - Double(spans[i].end) >= gap { i += 1 }
        if i < spans.count, Double(spans[i].start) - Double(t) < gap {
            spans[i].start = min(spans[i].start, t)
            spans[i].end = max(spans[i].end, t)
            if i + 1 < spans.count, Double(spans[i + 1].start) - Double(spans[i].end) < gap {
                spans[i].end = max(spans[i].end, spans[i + 1].end)
                spans.remove(at: i + 1)
            }
        } else {
            spans.insert((t, t), at: i)
            if spans.count > Self.capacity { mergeNearest() }
        }
    }

    /// Merges the two stretches with the shortest time between them.
    private mutating func mergeNearest() {
        var best = 0
        for k in 1..<(spans.count - 1)
        where spans[k + 1].start &- spans[k].end < spans[best + 1].start &- spans[best].end {
            best = k
        }
        spans[best].end = max(spans[best].end, spans[best + 1].end)
        spans.remove(at: best + 1)
    }
}
