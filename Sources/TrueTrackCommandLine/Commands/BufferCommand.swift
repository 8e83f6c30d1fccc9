import Foundation
import TrueTrackCore
import TrueTrackIO
import TrueTrackStore

/// `truetrack buffer add|list|count|stats|requeue|drop-damaged|forget-session|clear --db FILE`: the SQLite buffer of fixes an app keeps before syncing.
enum BufferCommand {
    static let spec = CommandSpec(
        name: "buffer",
        abstract:
            "Persist fixes in a SQLite buffer (add), and list, count, stats, requeue, drop-damaged, forget-session or clear it.",
        positionals: ["ACTION", "[INPUT|ID]"], minimumPositionals: 1, maximumPositionals: 2,
        options: [
            OptionSpec(
                name: "db", valueName: "FILE",
                help: "The buffer's SQLite file ('add' creates it when missing; the other actions need it to exist).",
                required: true),
            OptionSpec(
                name: "profile", short: "p", valueName: "PROFILE",
                help: "add: the Tracker's profile (walking, running, cycling, driving); default: the one the input's "
                    + "declared activity names (GPX <type>, TCX Sport), else walking."),
            OptionSpec(
                name: "session", valueName: "ID",
                help: "add: the session the fixes belong to; its state (distance, last fix, the tracker's and stop "
                    + "detector's checkpoints) is kept in the same file and the next add continues it."),
            OptionSpec(
                name: "max-records", valueName: "N",
                help: "add: hard cap on rows (100–1,000,000; default 10,000): past it the oldest are dropped. "
                    + "The file does not keep it: give it at every add (an add refuses a buffer that already holds "
                    + "more rows than its cap, unless --shrink)."),
            OptionSpec(
                name: "shrink",
                help: "add: let a --max-records (or the default cap) below the rows the buffer holds drop the oldest "
                    + "of them (without it such an add is refused, exit 2: a typo would delete unsent rows)."),
            OptionSpec(name: "limit", valueName: "N", help: "list: how many of the newest rows (default 20)."),
            OptionSpec(name: "json", help: "list: print JSON Lines instead of a table."),
        ] + InputOptions.specs,
        discussion: """
            ACTION is one of:
              add INPUT   run the Tracker over INPUT and persist every accepted fix with its decision
                          (one transaction per 10,000 fixes; the buffer's durability is SQLite synchronous=FULL);
                          a fix the buffer already holds (same session, time and position) is skipped, so adding
                          a file again, or after an interrupted add, stores each fix once, provided no sync ran
                          in between (synced fixes are gone from the buffer, and stored and sent again: add
                          with --session, which skips them, when a sync may run); with --session the
                          add continues the session where the previous one left it (the same tracker, so its
                          running total goes on; fixes not newer than its last, the session's own added again,
                          are skipped; fixes older than its first, or not newer than its last and none of them
                          in a buffer no row ever left (a late batch), are not stored, and the add fails, exit 1,
                          naming their span: a session takes its fixes in time order) and prints the
                          session's distance; it waits while another add with --session into the same file runs;
                          it fails (exit 1) when it skipped fixes because the session's last fix lies more than a
                          day ahead of the clock (a clock set ahead, an edit): forget-session starts it anew.
                          Fixes already synced and since deleted from the buffer are stored
                          again by an add of their file without --session (nothing remembers them)
              list        the newest rows, newest first; a row that no longer decodes (a file edited by hand)
                          is listed by its id and what is wrong with it. list, count and stats read a buffer
                          they cannot write (another user's, a read-only mount, a full disk) without writing
              count       print the number of buffered fixes
              stats       print the rows by state: pending, in flight (sent, not yet acknowledged), rejected
                          by the backend (kept, no longer sent), damaged (rows that no longer decode, set
                          aside by a sync or, said in brackets, not yet, and rows whose sync state no build
                          writes: kept, never sent), and the rows dropped so far by the cap
              requeue     make the rows the backend rejected pending again (after fixing what it refused),
                          the damaged rows that decode again (corrected by hand) and the rows damaged only in
                          their sync state (sync_state, sync_status, batch_id: their fix is intact), and print
                          how many; a
                          batch rejected after lasting 409s keeps its rows and key, so its rows show as in
                          flight again and go first, as that batch
              drop-damaged
                          delete every row whose fix no longer decodes (text in a number column, a latitude
                          past 90°, …; set aside by a sync or not yet), print how many and name them; nothing
                          else deletes such a row but the cap, oldest rows first (an add says how many of
                          the rows it dropped were damaged or rejected). A row damaged only in its sync state is kept (requeue
                          repairs it)
              forget-session ID
                          delete the stored state of session ID (its distance, counters, last fix and
                          checkpoints; its fixes stay in the buffer) and print 1, or 0 when there was none: the
                          next add with --session ID starts it anew. The way out of a damaged session (a value
                          no TrueTrack build writes, edited by hand), which an add with --session does not
                          continue from: it stores the fixes, leaves the session's row as it is, names it and
                          exits 1
              clear       delete every row and print how many were removed
            """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let action = arguments.positionals[0]
        guard ["add", "list", "count", "stats", "requeue", "drop-damaged", "forget-session", "clear"].contains(action)
        else {
            throw UsageError(
                message:
                    "unknown action '\(action)' (expected add, list, count, stats, requeue, drop-damaged, "
                    + "forget-session or clear)")
        }
        guard let db = arguments.value("db") else {
            throw UsageError(message: "missing '--db <file>'")
        }
        // An option another action reads is a mistake here (`count --limit 5` printed the whole count).
        let actionOptions: [String: Set<String>] = [
            "add": Set(["profile", "session", "max-records", "shrink"] + InputOptions.specs.map(\.name)),
            "list": ["limit", "json"],
        ]
        let allowed = (actionOptions[action] ?? []).union(["db"])
        let given = Set(arguments.values.keys).union(arguments.flags)
        if let stray = given.subtracting(allowed).sorted().first {
            let users = actionOptions.filter { $0.value.contains(stray) }.keys.sorted()
            throw UsageError(
                message: "--\(stray) does not apply to 'buffer \(action)'"
                    + (users.isEmpty ? "" : " (it is for: \(users.joined(separator: ", ")))"))
        }
        if action == "add" && arguments.positionals.count < 2 {
            throw UsageError(message: "missing expected argument 'INPUT' (buffer add INPUT --db FILE)")
        }
        if action == "forget-session" && arguments.positionals.count < 2 {
            throw UsageError(message: "missing expected argument 'ID' (buffer forget-session ID --db FILE)")
        }
        if !["add", "forget-session"].contains(action) && arguments.positionals.count > 1 {
            throw UsageError(message: "unexpected argument '\(arguments.positionals[1])'")
        }
        var storeOptions = StoreOptions()
        if let text = arguments.value("max-records") {
            guard let n = Int(text) else { throw UsageError(message: "--max-records expects a number, got '\(text)'") }
            guard (100...1_000_000).contains(n) else {
                throw UsageError(message: "--max-records must be within 100...1000000, got \(n)")
            }
            storeOptions = StoreOptions(maxRecordsToPersist: n)
        }
        if action != "add" { try InputOptions.requireExistingBuffer(db) }
        // The input, its options and profile are checked before the buffer is opened: a missing input or a wrong
        // option left an empty buffer behind, which later counts and syncs took silently (a tester's).
        let prepared = action == "add" ? try prepareAdd(arguments) : nil
        // An add that creates the buffer and persists nothing (a header alone, an empty input, --device on a CSV
        // without a device column: errors of the first read) removes it again (a reviewer's).
        let creates = action == "add" && !FileManager.default.fileExists(atPath: db)
        let buffer: FixBuffer
        do { buffer = try FixBuffer(path: db, options: storeOptions) } catch {
            // count, stats and list only read: a buffer that cannot be written where it is (another user's, a
            // read-only mount, a full disk) is read without writing (a tester's read-only buffer failed all three).
            guard ["count", "stats", "list"].contains(action), [.readOnly, .diskFull].contains(error.kind) else {
                throw CommandFailure(message: error.description)
            }
            do { buffer = try FixBuffer(path: db, options: storeOptions, access: .readOnly) } catch {
                throw CommandFailure(message: error.description)
            }
        }
        do {
            switch action {
            case "add":
                // A cap below the rows already held would drop rows stored before this add, not just make room for
                // its fixes: the default cap under a buffer an earlier add filled under a larger one (a tester's
                // 20,000 rows became 10,000, exit 0), or a typo (a sync tester's --max-records 1000 for 1000000 cut
                // 531,959 unsent rows to 1,000, exit 0). Refused unless --shrink says so.
                let rows = try buffer.count()
                let cap = storeOptions.maxRecordsToPersist
                if rows > cap && !arguments.has("shrink") {
                    let given = arguments.value("max-records") != nil
                    throw UsageError(
                        message:
                            "\(db) holds \(rows) rows, more than \(given ? "--max-records \(cap)" : "the default cap of \(cap)"): "
                            + "this add would drop at least the oldest \(rows - cap) of them, stored before it: give "
                            + "--max-records \(rows) or more to keep them all, or --shrink to drop them")
                }
                do {
                    let status = try add(arguments, prepared!, buffer: buffer)
                    if status != 0, creates { removeIfEmpty(buffer, db) }
                    return status
                } catch {
                    if creates { removeIfEmpty(buffer, db) }
                    throw error
                }
            case "count": Terminal.out("\(try buffer.count())\n")
            case "stats":
                let st = try buffer.statistics()
                Terminal.out(
                    "rows \(st.rowCount): pending \(st.pendingCount), in flight \(st.inFlightCount), "
                        + "rejected \(st.rejectedCount), damaged \(st.damagedCount)"
                        + (st.notSetAsideCount > 0 ? " (\(st.notSetAsideCount) not set aside yet)" : "")
                        + "; dropped by the cap so far "
                        + "\(st.droppedCount)\n")
            case "requeue":
                let rejected = try buffer.requeueRejected()
                let damaged = try buffer.requeueDamaged()
                Terminal.out("\(rejected + damaged.requeuedCount)\n")
                if !damaged.stillDamaged.isEmpty {
                    Terminal.error(
                        "\(Terminal.count(damaged.stillDamaged.count, "damaged row stays", "damaged rows stay")) set "
                            + "aside (\(named(damaged.stillDamaged))): 'truetrack buffer drop-damaged --db \(db)' "
                            + "deletes them\n")
                }
            case "drop-damaged":
                let (dropped, kept) = try buffer.dropDamagedRowsNamingTheKept()
                Terminal.out("\(dropped.count)\n")
                if !dropped.isEmpty { Terminal.error("deleted: \(named(dropped))\n") }
                if !kept.isEmpty {
                    Terminal.error(
                        "kept \(Terminal.count(kept.count, "row", "rows")) damaged only in the sync state, the fix "
                            + "intact (\(named(kept))): 'truetrack buffer requeue --db \(db)' makes them pending\n")
                }
            case "forget-session":
                let store = try SessionStateStore(path: db)
                Terminal.out(try store.deleteSession(arguments.positionals[1]) ? "1\n" : "0\n")
            case "clear": Terminal.out("\(try buffer.clear())\n")
            default: try list(arguments, buffer: buffer)
            }
        } catch let error as StoreError {
            throw CommandFailure(message: error.description)
        }
        return 0
    }

    /// Deletes the buffer file `db` (and its write-ahead log and shared memory) that this add created, when it holds
    /// no row.
    static func removeIfEmpty(_ buffer: FixBuffer, _ db: String) {
        guard (try? buffer.count()) == 0 else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
    }

    /// What `add` reads, checked before the buffer is opened: the input's path, its read options, the profile and
    /// the opened reader.
    struct PreparedAdd {
        var input: String
        var options: ReadOptions
        var profile: TrackingProfile
        var reader: AnyFixReader
    }

    /// Parses `add`'s input options and profile and opens the input (an error here leaves no buffer file behind).
    static func prepareAdd(_ arguments: ParsedArguments) throws -> PreparedAdd {
        // An empty (or blank) session ID is refused. Read as no session (before, it stored a second copy of fixes
        // added without one), it dropped the session's protection without a word for a script whose `$SESSION` was
        // unset: a file added again after a sync was stored and sent twice (an operations tester's).
        if let session = arguments.value("session"), session.allSatisfy(\.isWhitespace) {
            throw UsageError(
                message: "--session needs an ID (an empty one: an unset variable?); leave the option out to add the "
                    + "fixes without a session")
        }
        let input = arguments.positionals[1]
        let (format, options) = try InputOptions.from(arguments)
        // (The file's declared activity too, as `process` and `stops` read it: a GPX ride was added as a walk.)
        let profile = TrackingProfile.preset(try InputOptions.profileKind(arguments, input: input))
        do {
            let reader = try AnyFixReader(path: input, format: format, options: options)
            return PreparedAdd(input: input, options: options, profile: profile, reader: reader)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// Reads the prepared input through the Tracker and persists the accepted fixes with their decisions; with
    /// `--session`, continues the session's tracker and stop detector and keeps its state after every transaction.
    static func add(_ arguments: ParsedArguments, _ prepared: PreparedAdd, buffer: FixBuffer) throws -> Int32 {
        let (input, options, profile) = (prepared.input, prepared.options, prepared.profile)
        var reader = prepared.reader
        var tracker = Tracker(profile: profile)
        var fixes: [Fix] = [], decisions: [FixDecision] = []
        var persisted = 0, dropped = 0, alreadyStored = 0, rejectedSincePersist = 0
        // Of the rows the cap dropped, those a backend had rejected and those set aside as damaged: said, since
        // nothing else but `drop-damaged` deletes them (a tester's 40 rejected rows and a damaged one went unsaid).
        var droppedSetAside = (rejected: 0, damaged: 0)
        var diagnostics = RunDiagnostics(profile: profile)
        // (An empty one is refused in `prepareAdd`.)
        let session = arguments.value("session")
        // A session is continued where the previous add (or an app sharing the file) left it.
        var sessionState: (id: String, detector: StopDetector, before: Double)?
        // The session's earliest accepted fix, when its state records it: a fix older than that is not the
        // session's own added again.
        var sessionFirst: Timestamp?
        // A session whose stored row is damaged: its fixes are stored, its state is neither read nor written.
        var damagedSession: DamagedSession?
        // Held from reading the session's state to writing its last (see `SessionAddLock`); released at return.
        let sessionLock = session.map { id in
            SessionAddLock(databasePath: buffer.path) {
                Terminal.error(
                    "note: another add holds \(buffer.path)'s sessions: waiting for it, so that session '\(id)' "
                        + "continues from its state\n")
            }
        }
        defer { withExtendedLifetime(sessionLock) {} }
        if let session {
            do {
                let stopProfile = StopDetectionProfile.preset(profile.kind)
                var detector = StopDetector(profile: stopProfile)
                var before = 0.0
                // (Read and checked once: it was read for its damage, then again for its snapshot.)
                let stored = try buffer.storedSession(sessionID: session)
                if let damage = stored?.damage {
                    // Not continued from garbage: the fixes are stored all the same (below), the row left as it is.
                    damagedSession = damage
                } else if let snapshot = stored?.snapshot {
                    guard snapshot.phase != .ended else {
                        throw CommandFailure(
                            message:
                                "session '\(session)' has ended: its distance (\(snapshot.distanceMetres.fixed(1)) m) "
                                + "is final; add the fixes to a new session")
                    }
                    sessionFirst = snapshot.firstFixTime
                    let resumed = try snapshot.resumed(from: buffer, trackingProfile: profile, stopProfile: stopProfile)
                    tracker = resumed.tracker
                    detector = resumed.stopDetector
                    // (After the replay of rows an interrupted add stored: they are not this add's.)
                    before = tracker.distance.totalMetres
                    if !resumed.isExact {
                        Terminal.error(
                            "note: session '\(session)' continues not exactly (no checkpoint, a row after it has "
                                + "left the buffer, possibly another session's, or a profile other than the "
                                + "checkpoint's, taken from here), which can count a few metres more or less than "
                                + "one add of the whole input\n")
                    }
                }
                sessionState = (session, detector, before)
            } catch let error as StoreError {
                throw CommandFailure(message: error.description)
            }
        }
        func persist() throws(StoreError) {
            guard !fixes.isEmpty || (sessionState != nil && rejectedSincePersist > 0) else { return }
            // Skipping stored fixes makes an import idempotent: a file added twice, or again after an
            // interrupted add (committed 10,000 rows at a time), stored its fixes twice.
            let receipt: AppendReceipt
            if var state = sessionState {
                // The rows and the session's record of them in one transaction: committed apart, a kill or a
                // full disk between the two left the session's counters short for good (a crash tester's).
                for (fix, decision) in zip(fixes, decisions) {
                    _ = state.detector.process(MotionEvidence(fix: fix, decision: decision))
                }
                let rejected = rejectedSincePersist
                let appended = try buffer.append(
                    fixes, decisions: decisions, sessionID: state.id, skippingStored: true
                ) { snapshot, receipt in
                    // The rejected fixes are the session's too (its first time is the earliest it saw: a file whose
                    // first fixes were rejected, added again, was refused).
                    if let earliestSeen { snapshot.noteFixSeen(at: earliestSeen) }
                    for (fix, decision) in zip(fixes, decisions) { snapshot.record(fix, decision: decision) }
                    snapshot.fixCount += rejected
                    snapshot.saveCheckpoints(
                        tracker: tracker, stopDetector: state.detector,
                        afterBufferRow: receipt.lastRowID ?? snapshot.checkpointRowID)
                }
                receipt = appended.receipt
                if let damage = receipt.damagedSession { damagedSession = damage }
                sessionState = state
            } else {
                receipt = try buffer.append(fixes, decisions: decisions, sessionID: session, skippingStored: true)
            }
            persisted += fixes.count - receipt.skippedCount
            alreadyStored += receipt.skippedCount
            dropped += receipt.droppedCount
            droppedSetAside.rejected += receipt.droppedRejectedCount
            droppedSetAside.damaged += receipt.droppedDamagedCount
            rejectedSincePersist = 0
            fixes.removeAll(keepingCapacity: true)
            decisions.removeAll(keepingCapacity: true)
        }
        var readFailure: ReadError?
        // Fixes not newer than the session's last before this add: a file added again, not a shuffled one.
        let sessionLast = sessionState == nil ? nil : tracker.lastAcceptedTime
        var notNewerThanSession = 0, isAddedAgain = false
        // Of those, the ones not themselves ahead of the wall clock: skipped for a session's last fix dated ahead
        // of them and of the clock (a file of future-dated fixes added again skips its own fixes, as any file).
        // (The wall clock read once, for the count and the failure below that depends on it.)
        let nowSeconds = Date().timeIntervalSince1970
        let clockLimit = nowSeconds + sessionClockToleranceSeconds
        var skippedBehindAClockAhead = 0
        // Fixes older than the session's first (a file older than the session's, added after it): the tracker
        // cannot take them, and they were skipped as "already in the session" and lost, exit 0 (a tester's day 1
        // added after day 2). Refused instead, counted with their span, not stored. (Not for a first fix dated
        // ahead of the clock: the clock-ahead failure below says what to do there.)
        let refusesOlder = sessionFirst.map { $0.secondsSince1970 <= clockLimit } ?? false
        var olderThanSession = 0
        // Of the fixes skipped as not newer than the session's last: how many are stored in the buffer, and the span
        // of those that are not. In a buffer no row ever left, those were never stored: rejected by the tracker when
        // they were added, or a late batch (see `lateBatchFailure`).
        var skippedStored = 0
        var unstoredSpan: (earliest: Timestamp, latest: Timestamp)?
        // The earliest fix this add showed the tracker (not one rejected as invalid: a placeholder's date).
        var earliestSeen: Timestamp?
        var olderSpan: (earliest: Timestamp, latest: Timestamp)?
        do {
            while let fix = try reader.next() {
                if refusesOlder, let sessionFirst, fix.timestamp < sessionFirst,
                    !tracker.liesInsideLastForwardJump(fix)
                {
                    olderThanSession += 1
                    olderSpan = (
                        min(olderSpan?.earliest ?? fix.timestamp, fix.timestamp),
                        max(olderSpan?.latest ?? fix.timestamp, fix.timestamp)
                    )
                    continue
                }
                // A fix of the session stored already, not newer than its last, and the ones not newer that follow
                // it (the fixes the tracker rejected when they were added): a file added again. Not shown to the
                // tracker, which rejects them as out of order, but three over a day older restarted it as after a
                // clock jump and counted the file again (a tester's 130 km session read 260, then 390). Also when
                // its row has left the buffer (synced, or dropped by the cap): a 3-day hike added again after a
                // sync counted again, 120.9 → 241.8 km. Not by time alone: after a last fix dated ahead, the real
                // ones that follow (inside the tracker's last forward jump) must reach the tracker, which recovers
                // from the wrong clock (skipped by time, a reviewer's session took nothing more).
                if let sessionLast, fix.timestamp <= sessionLast {
                    let isInsideJump = tracker.liesInsideLastForwardJump(fix)
                    let isCounted = !isInsideJump && tracker.lastAcceptedTime.map { fix.timestamp <= $0 } == true
                    let isStored = try buffer.contains(fix, sessionID: session)
                    if (isAddedAgain && !isInsideJump) || isCounted || isStored {
                        isAddedAgain = true
                        notNewerThanSession += 1
                        if isStored {
                            skippedStored += 1
                        } else {
                            unstoredSpan = (
                                min(unstoredSpan?.earliest ?? fix.timestamp, fix.timestamp),
                                max(unstoredSpan?.latest ?? fix.timestamp, fix.timestamp)
                            )
                        }
                        if fix.timestamp.secondsSince1970 <= clockLimit { skippedBehindAClockAhead += 1 }
                        continue
                    }
                } else {
                    isAddedAgain = false
                }
                let decision = tracker.process(fix)
                diagnostics.observe(
                    fix, decision, overrules: tracker.overrules, scatterSigmaMetres: tracker.whiteNoiseSigmaMetres)
                if decision.rejection != .invalid, earliestSeen.map({ fix.timestamp < $0 }) ?? true {
                    earliestSeen = fix.timestamp
                }
                guard decision.isAccepted else {
                    rejectedSincePersist += 1
                    continue
                }
                fixes.append(fix)
                decisions.append(decision)
                if fixes.count == 10_000 { try persist() }
            }
        } catch let error as ReadError {
            readFailure = error
        } catch let error as StoreError {
            throw CommandFailure(message: Self.storeFailure(error, persisted: persisted, read: diagnostics.read))
        }
        // Everything accepted before a read error is persisted too: nothing already read is lost.
        do { try persist() } catch {
            throw CommandFailure(message: Self.storeFailure(error, persisted: persisted, read: diagnostics.read))
        }
        Terminal.error(
            "persisted \(persisted) of "
                + "\(Terminal.count(diagnostics.read + notNewerThanSession + olderThanSession, "fix", "fixes")) "
                + "(\(diagnostics.read - persisted - alreadyStored) rejected by the tracker"
                + (notNewerThanSession > 0 ? ", \(notNewerThanSession) skipped" : "")
                + (olderThanSession > 0 ? ", \(olderThanSession) older than the session, not stored" : "")
                + (alreadyStored > 0 ? ", \(alreadyStored) already in the buffer" : "") + ")"
                + (dropped > 0
                    ? ", \(Terminal.count(dropped, "row", "rows")) stored earliest dropped by the cap (by storage order, "
                        + "not by the fixes' times\(Self.setAsideShare(droppedSetAside)))" : "")
                + "\n")
        if let damagedSession {
            let db = arguments.value("db") ?? "FILE"
            let forget = "'truetrack buffer forget-session \(damagedSession.sessionID) --db \(db)'"
            Terminal.error(
                "Error: \(damagedSession) (a value no TrueTrack build writes, edited by hand): its fixes are stored, "
                    + "but its state was not continued from that row, nor updated (left as it is); correct "
                    + "\(damagedSession.column) by hand, or \(forget) deletes the session's state (its fixes stay) "
                    + "and the next add starts it anew\n")
        } else if let state = sessionState {
            let total = tracker.distance.totalMetres
            // None of the skipped fixes in the buffer: the session held them once only if rows left it since.
            let skipped =
                skippedStored > 0
                ? "already in the session (not newer than its last before this add)"
                : "not newer than the session's last fix before this add, and none of them in the buffer (synced "
                    + "or dropped since, or never the session's: a late batch is not stored)"
            Terminal.error(
                "session '\(state.id)': \(total.fixed(1)) m (\((total - state.before).fixed(1)) m from this add)"
                    + (notNewerThanSession > 0
                        ? "; \(Terminal.count(notNewerThanSession, "fix was", "fixes were")) skipped: \(skipped)" : "")
                    + "\n")
        }
        // (The fixes of a file added again are skipped, said above, not counted out of order: the order warning
        // called its times broken, an API tester.)
        for warning in diagnostics.warnings(
            profile: profile, reader: reader, input: input, rawPathMetres: nil, tracker: tracker)
        {
            Terminal.error(warning)
        }
        if let readFailure {
            throw CommandFailure(
                message:
                    "\(readFailure) (\(Terminal.before(persisted, "accepted fix", "accepted fixes", were: "persisted"))\(readFailure.lenientHint(input: input, isLenient: options.lenient)))"
            )
        }
        if let olderSpan, let sessionFirst, let session = sessionState?.id {
            throw CommandFailure(
                message:
                    "session '\(session)': \(Terminal.count(olderThanSession, "fix", "fixes")) of \(input) "
                    + "(\(ISO8601.format(olderSpan.earliest)) to \(ISO8601.format(olderSpan.latest))) "
                    + "\(olderThanSession == 1 ? "is" : "are") older than the session's first fix "
                    + "(\(ISO8601.format(sessionFirst))) and \(olderThanSession == 1 ? "was" : "were") not stored: a "
                    + "session takes its fixes in time order; add them to another --session, or start the session "
                    + "anew with its inputs in time order")
        }
        if let unstoredSpan, let sessionLast, let session = sessionState?.id,
            sessionLast.secondsSince1970 <= clockLimit,  // (else the session's clock set ahead: said below)
            try !buffer.hasRemovedRows(after: 0)
        {
            let unstored = notNewerThanSession - skippedStored
            // None of them stored: refused. Some: a file added again whose rejected fixes were never stored is
            // the likelier story, but a late file overlapping the session by a fix looks the same: said, not refused.
            if skippedStored == 0 {
                throw Self.lateBatchFailure(
                    session: session, input: input, count: unstored, span: unstoredSpan, sessionLast: sessionLast)
            }
            Terminal.error(
                "warning: session '\(session)': \(unstored) of the \(notNewerThanSession) fixes skipped "
                    + "(\(ISO8601.format(unstoredSpan.earliest)) to \(ISO8601.format(unstoredSpan.latest))) are not in "
                    + "the buffer and were not stored: fixes the tracker rejected when they were added, or a late batch, "
                    + "which a session cannot take (add those to another --session)\n")
        }
        if let failure = InputOptions.noFixes(reader.report, format: reader.format, options: options) { throw failure }
        let ahead = sessionLast.map { $0.secondsSince1970 - nowSeconds } ?? 0
        if let sessionLast, skippedBehindAClockAhead > 0, let session = sessionState?.id,
            ahead > sessionClockToleranceSeconds
        {
            // (Not a damaged row: a tracker accepts a first fix of any date, so an add can write such a last fix.)
            let db = arguments.value("db") ?? "FILE"
            throw CommandFailure(
                message:
                    "session '\(session)' ends at \(ISO8601.format(sessionLast)), \((ahead / 86_400).fixed(1)) days "
                    + "after now (a clock set ahead, or an edit by hand): "
                    + "\(Terminal.count(skippedBehindAClockAhead, "fix", "fixes")) not newer than that "
                    + "\(skippedBehindAClockAhead == 1 ? "was" : "were") skipped; 'truetrack buffer forget-session "
                    + "\(session) --db \(db)' deletes the session's state (its fixes stay) and the next add starts it "
                    + "anew")
        }
        return damagedSession == nil ? 0 : 1
    }

    /// The failure of an add whose fixes not newer than the session's last fix (`count` of them, over `span`) are
    /// none of them in the buffer, while no row ever left it: the session never held them, and the tracker, which
    /// takes a session's fixes in time order, cannot count them (a late batch, delivered after newer ones). They
    /// were said to be "already in the session" and skipped, exit 0: a buffer tester's 200 fixes lost. Not when
    /// any of them is stored: a file added again, whose fixes the tracker rejected were never stored either (then a
    /// warning names those not stored). A batch the tracker rejected whole, added again, is refused too: its fixes
    /// cannot be told from a late batch's (a reviewer's), and were not stored either way.
    static func lateBatchFailure(
        session: String, input: String, count: Int, span: (earliest: Timestamp, latest: Timestamp),
        sessionLast: Timestamp
    ) -> CommandFailure {
        CommandFailure(
            message:
                "session '\(session)': \(Terminal.count(count, "fix", "fixes")) of \(input) "
                + "(\(ISO8601.format(span.earliest)) to \(ISO8601.format(span.latest))) "
                + "\(count == 1 ? "is" : "are") not newer than the session's last fix (\(ISO8601.format(sessionLast))) "
                + "and \(count == 1 ? "was" : "were") never in the buffer: a late batch, not stored (a session takes "
                + "its fixes in time order: add them to another --session, or start the session anew with its inputs "
                + "in time order), unless the tracker rejected them when they were added before")
    }

    /// "; among them 40 rejected by the backend and 1 set aside as damaged" for the rows the cap dropped that a
    /// backend had rejected and a sync had set aside, or "" when none was.
    static func setAsideShare(_ counts: (rejected: Int, damaged: Int)) -> String {
        let parts =
            (counts.rejected > 0 ? ["\(counts.rejected) rejected by the backend"] : [])
            + (counts.damaged > 0 ? ["\(counts.damaged) set aside as damaged"] : [])
        return parts.isEmpty ? "" : "; among them " + parts.joined(separator: " and ")
    }

    /// How far ahead of the wall clock a session's last fix may lie before an add that skips fixes for it fails
    /// instead of skipping them quietly: one day (a time zone's offset taken for UTC is at most 14 h). A session
    /// whose last fix was dated years ahead (an edit by hand, a clock set ahead when its first fix was taken) made
    /// every later fix "not newer" and skipped, exit 0.
    static let sessionClockToleranceSeconds = 86_400.0

    /// A store failure during `buffer add` (a full disk), with how much of the input was stored before it: a
    /// batch tester's full disk read only "the disk is full", while 10,000 of 20,288 fixes had been stored.
    static func storeFailure(_ error: StoreError, persisted: Int, read: Int) -> String {
        "\(error) (\(persisted) of the \(read) fixes read before it \(persisted == 1 ? "was" : "were") persisted; "
            + "adding the input again skips the fixes already stored)"
    }

    /// The first ten of `rows` named ("row 17: latitude holds text or a blob, not a number"), then how many more.
    static func named(_ rows: [DamagedRow]) -> String {
        rows.prefix(10).map(\.description).joined(separator: "; ")
            + (rows.count > 10 ? "; and \(rows.count - 10) more" : "")
    }

    /// Prints the newest rows; a row that no longer decodes by its id and what is wrong with it.
    static func list(_ arguments: ParsedArguments, buffer: FixBuffer) throws {
        var limit = 20
        if let text = arguments.value("limit") {
            guard let n = Int(text), n > 0 else {
                throw UsageError(message: "--limit expects a positive number, got '\(text)'")
            }
            limit = n
        }
        let rows = try buffer.newestRows(limit: limit)
        let json = arguments.has("json")
        var text = json ? "" : "id\ttime\tlatitude\tlongitude\taccuracy_m\ttotal_m\tsync\n"
        for entry in rows {
            switch entry {
            case .fix(let row) where json:
                var object: [String: Any] = [
                    "id": row.id, "time": ISO8601.format(row.fix.timestamp),
                    "latitude": row.fix.latitude, "longitude": row.fix.longitude, "sync": "\(row.syncState)",
                ]
                if let session = row.sessionID { object["session"] = session }
                if let accuracy = row.fix.horizontalAccuracyMetres { object["accuracy_m"] = accuracy }
                if let d = row.decision {
                    object["decision"] = d.rejection.map(\.rawValue) ?? "accepted"
                    object["total_m"] = d.totalDistanceMetres
                }
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                text += String(decoding: data, as: UTF8.self) + "\n"
            case .fix(let row):
                let accuracy = row.fix.horizontalAccuracyMetres.map { $0.fixed(1) } ?? "–"
                let total = row.decision.map { $0.totalDistanceMetres.fixed(1) } ?? "–"
                text +=
                    "\(row.id)\t\(ISO8601.format(row.fix.timestamp))\t\(row.fix.latitude)\t\(row.fix.longitude)\t"
                    + "\(accuracy)\t\(total)\t\(row.syncState)\n"
            case .damaged(let row) where json:
                // (A row that does not decode is named, not skipped: `list` failed on it, naming only the first.)
                let object: [String: Any] = [
                    "id": row.id, "damaged": row.reason, "column": row.column,
                    "sync": row.isSetAside ? "damaged" : "damaged, not set aside yet",
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                text += String(decoding: data, as: UTF8.self) + "\n"
            case .damaged(let row):
                text +=
                    "\(row.id)\tdamaged: \(row.reason)\t–\t–\t–\t–\t"
                    + (row.isSetAside ? "damaged" : "damaged, not set aside yet") + "\n"
            }
        }
        Terminal.out(text)
    }
}
