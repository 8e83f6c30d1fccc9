import Dispatch
import Foundation
import TrueTrackStore
import TrueTrackSync

/// `truetrack sync --db FILE --url URL …`: send the buffer to a backend in batches.
enum SyncCommand {
    /// What a sync line says of the server's Retry-After beside the wait taken (`wait`, seconds): nothing without one;
    /// a Retry-After in the past (or negative) asks for no wait, and a long one is cut to the policy's longest wait
    /// ("Retry-After: 0.0 s" beside a 0.9 s wait read oddly, a sync tester's).
    static func retryAfterNote(asked: Double?, wait: Double) -> String {
        guard let asked else { return "" }
        let seconds = String(format: "%.1f", asked)
        if asked <= 0 { return " (the server's Retry-After asked for no wait: the backoff's)" }
        if asked > wait + 0.05 { return " (the server's Retry-After: \(seconds) s, cut to the longest wait)" }
        return " (the server's Retry-After: \(seconds) s)"
    }

    static let spec = CommandSpec(
        name: "sync",
        abstract: "Send the buffered fixes to an HTTP backend in batches; rows are deleted only once acknowledged.",
        positionals: [], minimumPositionals: 0, maximumPositionals: 0,
        options: [
            OptionSpec(name: "db", valueName: "FILE", help: "The buffer's SQLite file.", required: true),
            OptionSpec(name: "url", valueName: "URL", help: "The backend endpoint (http or https).", required: true),
            OptionSpec(name: "method", valueName: "METHOD", help: "POST (default) or PUT."),
            OptionSpec(
                name: "header", valueName: "'K: V'",
                help: "An extra request header, e.g. 'Authorization: Bearer …' (never printed); repeatable. "
                    + "'@FILE' reads one header per line from FILE (blank lines and lines starting with # skipped): a "
                    + "token kept out of the command line, which other users see in ps and shell history.",
                repeatable: true),
            OptionSpec(name: "batch-size", valueName: "N", help: "Fixes per request, 1–1000 (default 50)."),
            OptionSpec(
                name: "timeout", valueName: "SECONDS", help: "Per-request timeout, 1 to 86,400 s (default 30)."),
            OptionSpec(
                name: "max-wait", valueName: "SECONDS",
                help: "The longest wait between two attempts, a server's Retry-After included, 0 to 86,400 s "
                    + "(default 300): a CI job can keep a server asking for hours from holding it that long."),
        ],
        discussion: """
            Each batch is a JSON array of fixes with an Idempotency-Key header; a retry resends the same rows
            under the same key. A 2xx other than 207 acknowledges the whole batch (its body is not read): the
            backend must store a batch all or nothing (README, "Writing the backend": the fields, the row
            identity, the key). Network errors, timeouts, 408, 429 (Retry-After honoured, up to 300 s) and 5xx are retried
            with exponential backoff and jitter, and so is a 409 (a request with the same key still being
            processed) a few times, then its rows are rejected keeping the key (a requeue sends the same batch
            under it); a 413 splits the batch in two; 401 and 403 (credentials), 404, 405 and 410 (a wrong URL or
            method) stop the flush with every row kept; another 4xx marks the batch's rows rejected (kept and
            counted) so the queue moves on; a redirect is never followed (the flush stops). One line
            per attempt goes to stderr, with the wait before the next one; the summary to stdout. A 207
            Multi-Status is not an acknowledgement (its per-item results are not read): its rows are kept as
            rejected keeping their key, like a lasting 409's (a requeue sends the same batch under the same key;
            a backend that replays its answer for a key answers it the same until the backend changes). One sync at a time per buffer: a run that finds another process sending (its lock
            <db>-sync.lock) sends nothing; a database file with several names (hard links) is refused, since
            SQLite keeps its log beside the name in use and two names damage it. Exit status 0 when every row was delivered, 1 when the flush stopped
            with rows left, another process was sending, or the buffer holds rows a backend rejected, in this
            run or an earlier one ('truetrack buffer stats' shows them, 'truetrack buffer requeue' sends them
            again next time), or rows that no longer decode (a file edited by hand: text in a number column, a
            latitude past 90°): such a row is set aside, named by its id and column, kept and never sent, and the
            other rows go on ('truetrack buffer drop-damaged' deletes it); 130 on Ctrl-C (143 on kill's SIGTERM, 129 on a closed terminal's SIGHUP), saying what was delivered (the batch being sent goes again under
            its key with the next sync).
            """)

    /// The headers of `--header @FILE`: one `K: V` per line, blank lines and `#` comments skipped; an error names
    /// the file and line (never the value: it may be a secret).
    static func headerFile(_ path: String) throws -> [(name: String, value: String)] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw UsageError(message: "--header @\(path): cannot read the file (\(error.localizedDescription))")
        }
        var headers: [(name: String, value: String)] = []
        // (Split at every line end, a Windows CRLF included: "\r\n" is one Character, which a split at "\n" kept
        // whole, so a file edited on Windows was one header with a line break in its value, a re-tester's.)
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            do { headers.append(try SyncConfiguration.parseHeader(trimmed)) } catch {
                throw UsageError(message: "--header @\(path), line \(index + 1): \(error.description)")
            }
        }
        guard !headers.isEmpty else { throw UsageError(message: "--header @\(path): the file holds no header") }
        return headers
    }

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let db = arguments.value("db") else { throw UsageError(message: "missing '--db <file>'") }
        guard let urlText = arguments.value("url") else { throw UsageError(message: "missing '--url <url>'") }
        guard let url = URL(string: urlText) else { throw UsageError(message: "'\(urlText)' is not a URL") }
        var method = HTTPMethod.post
        if let text = arguments.value("method") {
            guard let parsed = HTTPMethod(rawValue: text.uppercased()) else {
                throw UsageError(message: "--method expects POST or PUT, got '\(text)'")
            }
            method = parsed
        }
        var batchSize = 50
        if let text = arguments.value("batch-size") {
            guard let n = Int(text) else { throw UsageError(message: "--batch-size expects a number, got '\(text)'") }
            batchSize = n
        }
        var timeout = 30.0
        if let text = arguments.value("timeout") {
            guard let seconds = Double(text) else {
                throw UsageError(message: "--timeout expects seconds, got '\(text)'")
            }
            timeout = seconds
        }
        var retry = RetryPolicy()
        if let text = arguments.value("max-wait") {
            guard let seconds = Double(text) else {
                throw UsageError(message: "--max-wait expects seconds, got '\(text)'")
            }
            retry.maximumDelaySeconds = seconds
        }
        let configuration: SyncConfiguration
        let synchronizer: Synchronizer
        var fileHeaders: [(name: String, value: String)] = []
        for text in arguments.all("header") where text.hasPrefix("@") {
            fileHeaders += try headerFile(String(text.dropFirst()))
        }
        do {
            var headers = fileHeaders
            for text in arguments.all("header") where !text.hasPrefix("@") {
                headers.append(try SyncConfiguration.parseHeader(text))
            }
            // The tool's own User-Agent unless the user gave one (Foundation's default named no version).
            let agent =
                headers.contains { $0.name.lowercased() == "user-agent" }
                ? [] : [(name: "User-Agent", value: "truetrack/\(TrueTrackTool.version)")]
            configuration = try SyncConfiguration(
                url: url, method: method, headers: headers + agent, batchSize: batchSize,
                requestTimeoutSeconds: timeout, retry: retry)
        } catch {
            throw UsageError(message: error.description)
        }
        do {
            try InputOptions.requireExistingBuffer(db)
            synchronizer = try Synchronizer(databasePath: db, configuration: configuration)
        } catch let error as SyncError {
            throw CommandFailure(message: error.description)
        }
        // Carried out of the task that runs the flush: its summary, and the rows the buffer holds as rejected after
        // it (`nil` when they could not be counted).
        let summary = Locked(FlushSummary()), after = Locked<BufferStatistics?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Said if a signal ends the sync (Ctrl-C): nothing is lost (a batch being sent goes again under its key),
        // but the user must know what went.
        let interrupted: @Sendable (Int) -> String = { delivered in
            "interrupted: \(Terminal.count(delivered, "fix", "fixes")) delivered in this sync; the rest stays in \(db) "
                + "(a batch being sent goes again under its Idempotency-Key with the next sync)"
        }
        Interruption.note.value = interrupted(0)
        let delivered = Locked(0)
        Task {
            summary.value = await synchronizer.flush { result in
                if result.success {
                    let sent = delivered.update { $0 += result.count }
                    Interruption.note.value = interrupted(sent)
                }
                if result.orphanedCount > 0 {
                    Terminal.error(
                        "note: \(Terminal.count(result.orphanedCount, "row was", "rows were")) in flight under a batch "
                            + "the buffer no longer records (its sync_batches row deleted by hand), stuck: pending "
                            + "again, sent under a new Idempotency-Key\n")
                }
                if !result.setAside.isEmpty { Terminal.error(setAsideLine(result.setAside, db: db)) }
                if result.disposition == .setAside { return }
                let fixes = Terminal.count(result.count, "fix", "fixes")
                // (No batch and no answer: the buffer could not be read, e.g. locked, and nothing was sent.)
                var line =
                    result.success
                    ? "sent \(fixes)"
                    : result.count == 0 && result.status == nil ? "no batch sent" : "attempt failed for \(fixes)"
                if let status = result.status { line += " (HTTP \(status))" }
                if let error = result.error { line += ": \(error)" }
                if let said = result.serverMessage { line += " (the server said: \(said))" }
                if let location = result.redirectLocation { line += " (it points to \(location))" }
                if result.disposition == .split { line += "; they go again in batches of \(result.count / 2)" }
                if let wait = result.nextAttemptInSeconds {
                    // To a tenth of a second: the backoff is jittered, and "1 s" for a 0.19 s wait misled.
                    line += "; next attempt in \(String(format: "%.1f", wait)) s"
                    line += SyncCommand.retryAfterNote(asked: result.retryAfterSeconds, wait: wait)
                }
                Terminal.error(line + "\n")
            }
            // Rows a backend rejected, in this run or an earlier one, through the synchronizer's own connection.
            after.value = try? await synchronizer.statistics()
            done.signal()
        }
        done.wait()
        Interruption.note.value = nil
        let s = summary.value
        Terminal.out(
            "delivered \(s.delivered), rejected \(s.rejected), attempts \(s.attempts), failures \(s.failures)"
                + (s.setAside.isEmpty ? "" : ", set aside as damaged \(s.setAside.count)")
                + (s.orphaned == 0 ? "" : ", released from a lost batch \(s.orphaned)")
                + (s.isComplete ? "" : " — incomplete, rows kept for the next sync") + "\n")
        if !s.isComplete, let error = s.lastError { Terminal.error("Error: \(error)\n") }
        // Rows a backend rejected, in this run or an earlier one: a cron job must not read "nothing delivered,
        // all rejected" as success, nor a later run that found only rejected rows left.
        let rejectedInBuffer = after.value?.rejectedCount ?? s.rejected
        if max(s.rejected, rejectedInBuffer) > 0 {
            let what =
                rejectedInBuffer > s.rejected
                ? "the buffer holds \(rejectedInBuffer) fixes a backend rejected (\(s.rejected) in this sync)"
                : "the backend rejected \(Terminal.count(s.rejected, "fix", "fixes"))"
            Terminal.error(
                "Error: \(what); they stay in \(db) ('truetrack buffer requeue --db \(db)' sends them again with the "
                    + "next sync)\n")
        }
        // Damaged rows, set aside in this run or an earlier one, or by none: never sent, so not a complete delivery
        // either. Only the rows a sync set aside are called so (`sync_state` 2): a rejected row damaged since counts
        // as damaged, not rejected, and no sync claims it, but it was counted among the rows "set aside".
        let damagedInBuffer = after.value?.damagedCount ?? s.setAside.count
        let setAsideInBuffer = after.value?.setAsideCount ?? s.setAside.count
        var held: [String] = []
        if setAsideInBuffer > s.setAside.count {
            held.append(
                "\(Terminal.count(setAsideInBuffer, "damaged row", "damaged rows")) set aside (\(s.setAside.count) in "
                    + "this sync)")
        }
        if damagedInBuffer > setAsideInBuffer {
            held.append(
                "\(Terminal.count(damagedInBuffer - setAsideInBuffer, "damaged row", "damaged rows")) no sync has set "
                    + "aside (rejected before it was damaged, not reached, or damaged in its sync columns)")
        }
        if !held.isEmpty {
            Terminal.error(
                "Error: the buffer holds \(held.joined(separator: " and ")), never sent; 'truetrack buffer list --db "
                    + "\(db)' names them, 'truetrack buffer drop-damaged --db \(db)' deletes them\n")
        }
        return s.isComplete && s.rejected == 0 && rejectedInBuffer == 0 && damagedInBuffer == 0 ? 0 : 1
    }

    /// The line that names the rows a sync set aside as damaged (the first ten, then how many more).
    static func setAsideLine(_ rows: [DamagedRow], db: String) -> String {
        "Error: set aside \(Terminal.count(rows.count, "damaged row", "damaged rows")), kept in the buffer and "
            + "never sent (\(BufferCommand.named(rows))); the other rows go on ('truetrack buffer drop-damaged --db \(db)' "
            + "deletes them, 'truetrack buffer requeue --db \(db)' sends those corrected by hand)\n"
    }
}
