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
/// reads a file a second time with every fix held back; from standard input it cannot, and the warning says
/// the analysis holds the wrong times.
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

    /// A stream into `profile`'s stop analysis, for the fixes of `input` (named in warnings).
    init(input: String, profile: StopDetectionProfile, holdBack: Int = EvidenceStream.defaultHoldBack) {
        self.input = input
        self.holdBack = holdBack
        keepsWrongFixes = holdBack == .max
        stopProfile = profile
        builder = StopAnalysis.Builder(profile: profile)
        stretches = TimeStretches(separationSeconds: profile.clockJumpSeconds)
    }

    /// Takes the `index`-th fix read (1-based), its evidence and the tracker's decision on it; `analysed` is
    /// called with each entry as it reaches the analysis (never with a wrong one).
    mutating func add(
        index: Int, evidence: MotionEvidence, decision: FixDecision, analysed: (Entry) -> Void = { _ in }
    ) {
        if decision.isAccepted, let latest = latestAccepted, decision.timestamp < latest {
            restart(at: index, time: decision.timestamp)
        }
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
        let isBackdated =
            isBehind
            && latestAccepted.map { decision.timestamp.seconds(to: $0) >= stopProfile.clockJumpSeconds } == true
        pending.append(
            Entry(
                index: index, evidence: evidence, acceptedTime: decision.isAccepted ? decision.timestamp : nil,
                totalMetres: decision.totalDistanceMetres, generation: generation, isBackdated: isBackdated,
                isOutOfOrder: isBehind))
        if let j = jump, j.since >= confirmingFixes {
            // The time after the jump is confirmed; the few fixes before it (if few) had the wrong one.
            if j.before < confirmingFixes { leaveOut(acceptedBefore: j.index) }
            jump = nil
        }
        while pending.count - head > holdBack { analyseNext(analysed) }
        if head > 4096, head * 2 > pending.count {
            pending.removeFirst(head)
            generationStart = max(0, generationStart - head)
            head = 0
        }
    }

    /// Analyses what is still held back and returns the analysis.
    ///
    /// When a run of wrong times longer than ``holdBack`` reached the analysis (a stop lasting days, no moving
    /// time) and `path` names a file, the file is read again with a fresh tracker of `profile` and every fix held
    /// back, so that every fix the clock jump proves wrong is left out however far back it lies: the exact
    /// analysis, in memory that grows with the track, for that rare file only. This stream then becomes the
    /// second reading's (its warnings, wrong fixes and time span); `startingOver` is called before it, so that a
    /// caller collecting the `analysed` entries can drop the first reading's. From standard input (`-`) nothing
    /// is read again.
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
        var again = EvidenceStream(input: input, profile: stopProfile, holdBack: .max)
        var index = 0
        // (The reading stops where the first one did: at a read error.)
        while let fix = try? reader.next() {
            index += 1
            let decision = tracker.process(fix)
            again.add(index: index, evidence: MotionEvidence(fix: fix, decision: decision), decision: decision)
        }
        again.drain(analysed)
        self = again
        return builder.finish()
    }

    /// The end of the input: judges a forward jump no later fix confirmed, then analyses everything held back.
    private mutating func drain(_ analysed: (Entry) -> Void) {
        if let j = jump, j.since < confirmingFixes, j.before >= confirmingFixes {
            // The input ended before any fix confirmed the time after the jump: those few fixes had it wrong.
            leaveOut(acceptedFrom: j.index)
            jump = nil
        }
        while head < pending.count { analyseNext(analysed) }
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
                [entry],
                "a day or more before the fixes around it (a GPS week rollover or a clock reset?), and the tracker "
                    + "rejected it as out of order (or as a repeat of such a fix)")
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
        let wrong = partition { $0.acceptedTime != nil && $0.index < index }
        warn(wrong, "a day or more before the fixes that follow")
    }

    /// Leaves out this generation's accepted fixes from the `index`-th on (a forward jump no later fix
    /// confirmed), and clears the backdated mark of the fixes after it: they were older than a wrong time only.
    private mutating func leaveOut(acceptedFrom index: Int) {
        let wrong = partition { $0.acceptedTime != nil && $0.index >= index }
        for i in max(head, generationStart)..<pending.count where pending[i].index > index {
            pending[i].isBackdated = false
            // (And they are in the stops: they were out of order only against the wrong time, a reviewer's.)
            pending[i].isOutOfOrder = false
        }
        warn(wrong, "a day or more after the fixes before it, and no later fix confirms that time")
    }

    /// Warns about the fixes `wrong` (in read order) left out for a time that is `how` (wrong); `note` follows
    /// the sentence.
    private mutating func warn(_ wrong: [Entry], _ how: String, note: String = "") {
        guard let first = wrong.first, keepsNextWarning() else { return }
        warnings.append(
            "warning: fix \(first.index) (in read order) of \(input) is dated "
                + ISO8601.format(first.evidence.timestamp)
                + (wrong.count > 1 ? " (and \(wrong.count - 1) more accepted fixes after it)" : "")
                + ", \(how); the summary's times, stops and smoothed track leave "
                + (wrong.count > 1 ? "those fixes" : "that fix") + " out\(note)\n")
    }

    /// Counts a warning; whether it is among the first five (all that are printed), which alone are built and kept.
    private mutating func keepsNextWarning() -> Bool {
        warningCount += 1
        return warnings.count < 5
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
        let wrong = partition { $0.acceptedTime.map { $0 > time } ?? false }
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
        if !wrong.isEmpty {
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
        generation += 1
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
