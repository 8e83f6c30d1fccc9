import Foundation
import TrueTrackStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends the buffer to a backend in batches, deleting rows only after a 2xx for exactly the rows sent.
///
/// ## Protocol
/// - Each request carries one ``SyncBatch``: at most ``SyncConfiguration/batchSize`` fixes as a JSON array
///   (``BatchEncoder``), `Content-Type: application/json`, the configured headers and an `Idempotency-Key`
///   header. The batch (rows and key) is persisted when claimed, so every retry, even after a restart,
///   resends the same rows under the same key: a server that stored a batch but failed to answer can drop
///   the repeat.
/// - 2xx → the batch's rows are deleted, except 207 Multi-Status (per-item results, not read here): its rows
///   are marked rejected keeping their batch and key (kept, counted, ``FixBuffer/requeueRejected()`` sends the
///   same batch under the same key), ``SyncError/multiStatus(url:)``. 408, 429 and 5xx, timeouts and network errors → retried with
///   ``RetryPolicy`` backoff (never earlier than `Retry-After`, except that no wait exceeds
///   ``RetryPolicy/maximumDelaySeconds``: a server asking for an hour is retried after that cap). 401 and 403
///   (credentials), 404, 405 and 410 (a wrong URL or method) → the flush stops and the rows stay queued in
///   their batch (a refreshed token or a corrected URL can still send them). 409 → retried like a 5xx while
///   the batch has had fewer than ``RetryPolicy/maximumAttemptsPerFlush`` attempts (the Idempotency-Key draft's
///   "a request with this key is still being processed"), then rejected keeping its key
///   (``FixBuffer/markRejected(_:status:keepingItsKey:)``): a requeue sends the same batch under the same
///   key. 413 → a batch of more than one row is split:
///   its rows are pending again and batches are half the size from then on (``SyncDisposition/split``).
///   Any other 4xx → the rows are marked rejected: kept, counted and visible, no longer sent, so one bad
///   batch never blocks the queue.
///
/// - A redirect (3xx) is never followed: a 2xx from wherever it leads (a login page, a load balancer's
///   landing page) would acknowledge a batch the endpoint never stored. It stops the flush, rows pending.
///
/// The synchronizer owns its own connection to the buffer's file, so an app keeps appending through its
/// ``FixBuffer`` while a flush runs. Sends are serialised: a second ``flush(onResult:)`` or
/// ``sendNextBatch()`` called while one runs (a background task and a "network is back" handler) waits for it
/// to finish, then runs (and usually finds nothing pending), so no batch is ever in flight twice. Across
/// processes (two overlapping `truetrack sync` runs, an app and its extension) an advisory lock on
/// `<database>-sync.lock` is held while sending: a flush that finds it held sends nothing and says so
/// (``SyncError/sendingElsewhere(lockPath:)``); the kernel drops the lock when its holder dies. A caller
/// cancelled while it waits returns without sending. A call made from inside a flush's `onResult` (directly,
/// through `async let`, or from a `Task` started there, while that flush runs) returns at once without
/// sending (`nil`, or a summary whose error is ``SyncError/calledFromOnResult``): waiting would deadlock on the
/// flush that awaits it, and running would put a batch in flight twice. Call it after the flush, or from a
/// `Task.detached`, which waits its turn.
public actor Synchronizer {
    /// The configuration in force.
    nonisolated public let configuration: SyncConfiguration
    private let buffer: FixBuffer
    private var session: URLSession
    private let encoder: BatchEncoder
    private var rng = SystemRandomNumberGenerator()
    /// The most rows a new batch claims: ``SyncConfiguration/batchSize`` halved at each 413 (see
    /// ``SyncDisposition/split``), for this synchronizer's life.
    private var batchSizeLimit = Int.max
    /// The batch that drew the last 409s in a row and how many (see ``noteConflict(_:)``).
    private var conflicts: (batchID: Int64, count: Int) = (0, 0)

    /// Counts a 409 for `batch` and returns how many it has drawn in a row here (another answer, or another
    /// batch, starts again): its attempts before (timeouts, 5xx, other flushes) do not use up a conflict's
    /// retries (a reviewer's 409 after three failed attempts was rejected at once, and stored twice after a
    /// requeue).
    private func noteConflict(_ batch: SyncBatch) -> Int {
        conflicts = conflicts.batchID == batch.id ? (batch.id, conflicts.count + 1) : (batch.id, 1)
        return conflicts.count
    }
    /// True while a flush or a single send holds the right to send (see ``acquireSending()``).
    private var isSending = false
    /// Callers waiting for that right, in arrival order; resumed with `true` when handed the right, `false`
    /// when cancelled while waiting.
    private var waitingToSend: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextWaiterID: UInt64 = 0
    /// The holding of the right to send the current task runs under (set for the duration of a flush or send,
    /// and inherited by the tasks it starts): a call that carries the current holding's token comes from inside
    /// it (its `onResult`), and is refused.
    @TaskLocal private static var heldToken: UInt64?
    /// The token of the holding in force, if any; tokens are never reused.
    private var currentToken: UInt64?
    private var nextToken: UInt64 = 0

    /// Opens the buffer at `databasePath` for syncing.
    ///
    /// - Throws: ``SyncError/invalidConfiguration(_:)`` when `configuration` breaks a rule of
    ///   ``SyncConfiguration/validate()`` (it may have been changed after it was created) or when `databasePath`
    ///   names an in-memory database (`:memory:`: the synchronizer's own connection to it would be a new, empty
    ///   database, and a flush "delivered" nothing while the app's buffer kept every row, an API tester),
    ///   ``SyncError/store(_:)`` when the buffer cannot be opened.
    public init(databasePath: String, storeOptions: StoreOptions = StoreOptions(), configuration: SyncConfiguration)
        throws(SyncError)
    {
        try configuration.validate()
        guard !SendLock.isInMemory(databasePath) else {
            throw .invalidConfiguration(
                "an in-memory buffer (\"\(databasePath)\") cannot be synced: every connection to it is a new, empty "
                    + "database; give the FixBuffer a file path")
        }
        do {
            self.buffer = try FixBuffer(path: databasePath, options: storeOptions)
        } catch {
            throw .store(error)
        }
        self.configuration = configuration
        self.session = Synchronizer.makeSession(configuration)
        self.encoder = BatchEncoder(fieldNames: configuration.fieldNames)
    }

    /// A fresh URL session (its own connection pool) that does not follow redirects.
    private static func makeSession(_ configuration: SyncConfiguration) -> URLSession {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeoutSeconds
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCache = nil
        return URLSession(configuration: sessionConfiguration, delegate: SessionDelegate(), delegateQueue: nil)
    }

    /// Why ``holdingTheRight(_:)`` did not run its operation.
    private enum NotRun: Error {
        case cancelled
        case calledFromOnResult
        case sendingElsewhere(lockPath: String)
    }

    /// Runs `operation` holding the right to send, after every earlier flush or send. Fails when the task was
    /// cancelled before it got the right, or when the call comes from inside the holding in force (a flush's
    /// `onResult`, or a task started there): nothing was sent then. The actor alone does not serialise
    /// flushes: it is re-entered at every `await`.
    private func holdingTheRight<R: Sendable>(_ operation: () async -> R) async -> Result<R, NotRun> {
        if let token = Synchronizer.heldToken, token == currentToken { return .failure(.calledFromOnResult) }
        guard await acquireSending() else { return .failure(.cancelled) }
        let token = nextToken
        nextToken &+= 1
        currentToken = token
        defer {
            currentToken = nil
            releaseSending()
        }
        if Task.isCancelled { return .failure(.cancelled) }
        // Across processes: an advisory lock the kernel drops when its holder dies (a killed sync leaves none).
        let lock = SendLock(databasePath: buffer.path)
        guard lock.isHeld else { return .failure(.sendingElsewhere(lockPath: lock.path)) }
        defer { lock.release() }
        return .success(await Synchronizer.$heldToken.withValue(token) { await operation() })
    }

    /// Waits until no other flush or send holds the right to send, then holds it (until ``releaseSending()``);
    /// `false` when the task was cancelled while waiting (it then holds nothing).
    private func acquireSending() async -> Bool {
        guard isSending else {
            isSending = true
            return true
        }
        let id = nextWaiterID
        nextWaiterID &+= 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    waitingToSend.append((id, continuation))
                }
            }
            // (When handed the right, the releasing caller left `isSending` set.)
        } onCancel: {
            Task { await self.stopWaiting(id) }
        }
    }

    /// Resumes a cancelled waiter without the right (it may already have been handed it: then nothing).
    private func stopWaiting(_ id: UInt64) {
        guard let index = waitingToSend.firstIndex(where: { $0.id == id }) else { return }
        waitingToSend.remove(at: index).continuation.resume(returning: false)
    }

    /// Hands the right to send to the next waiting caller, or frees it.
    private func releaseSending() {
        if waitingToSend.isEmpty {
            isSending = false
        } else {
            waitingToSend.removeFirst().continuation.resume(returning: true)
        }
    }

    deinit {
        // A session with a delegate keeps it (and itself) alive until invalidated.
        session.finishTasksAndInvalidate()
    }

    /// Drops the session after a transport failure, so nothing of a broken exchange is reused.
    private func renewSession() {
        session.invalidateAndCancel()
        session = Synchronizer.makeSession(configuration)
    }

    /// The buffer's counts (see ``BufferStatistics``).
    public func statistics() throws(SyncError) -> BufferStatistics {
        do { return try buffer.statistics() } catch { throw .store(error) }
    }

    /// Sends the next batch once (no retry) and applies the outcome to the buffer; `nil` when nothing is
    /// pending, when the task was cancelled while it waited for a flush in progress to finish, or when called
    /// from inside a flush's `onResult` (see the type's documentation).
    public func sendNextBatch() async -> SyncResult? {
        switch await holdingTheRight({ await sendNextBatchHoldingTheRight() }) {
        case .success(let result): result
        case .failure(.sendingElsewhere(let path)):
            SyncResult(
                success: false, count: 0, status: nil, error: .sendingElsewhere(lockPath: path),
                disposition: .stopped, idempotencyKey: "", attempt: 0)
        case .failure: nil
        }
    }

    /// ``sendNextBatch()`` for a caller that holds the right to send.
    private func sendNextBatchHoldingTheRight() async -> SyncResult? {
        let batch: SyncBatch
        let setAside: [DamagedRow]
        let orphaned: Int
        do {
            let claim = try buffer.claimNextBatch(size: min(configuration.batchSize, batchSizeLimit))
            setAside = claim.setAside
            orphaned = claim.orphanedCount
            guard let next = claim.batch else {
                // Nothing to send, but damaged rows were set aside on the way: said, never silent.
                guard !setAside.isEmpty else { return nil }
                var result = SyncResult(
                    success: false, count: 0, status: nil, error: nil, disposition: .setAside, idempotencyKey: "",
                    attempt: 0)
                result.setAside = setAside
                result.orphanedCount = orphaned
                return result
            }
            batch = next
            try buffer.recordAttempt(batch)
        } catch {
            return SyncResult(
                success: false, count: 0, status: nil, error: .store(error), disposition: .stopped,
                idempotencyKey: "", attempt: 0)
        }
        var result = await send(batch)
        result.setAside = setAside
        result.orphanedCount = orphaned
        return result
    }

    /// Syncs now: sends batch after batch until the buffer has nothing pending, retrying failures with
    /// backoff; gives up after ``RetryPolicy/maximumAttemptsPerFlush`` consecutive failures of one batch or
    /// on a failure that retrying cannot fix (the rows stay buffered for the next flush).
    ///
    /// A flush called while another runs waits for it to finish first (see the type's documentation); one
    /// cancelled while it waits returns an empty summary without sending, and one called from inside a flush's
    /// `onResult` a summary whose ``FlushSummary/lastError`` is ``SyncError/calledFromOnResult``.
    ///
    /// - Parameter onResult: called with every attempt's result, in order, before the next attempt (e.g. to log
    ///   it, or `await` a main-actor model's update).
    /// - Returns: the totals.
    @discardableResult
    public func flush(onResult: (@Sendable (SyncResult) async -> Void)? = nil) async -> FlushSummary {
        switch await holdingTheRight({ await flushHoldingTheRight(onResult: onResult) }) {
        case .success(let summary): return summary
        case .failure(.cancelled): return FlushSummary()
        case .failure(.calledFromOnResult):
            var summary = FlushSummary()
            summary.lastError = .calledFromOnResult
            return summary
        case .failure(.sendingElsewhere(let path)):
            var summary = FlushSummary()
            summary.lastError = .sendingElsewhere(lockPath: path)
            return summary
        }
    }

    /// ``flush(onResult:)`` for a caller that holds the right to send.
    private func flushHoldingTheRight(onResult: (@Sendable (SyncResult) async -> Void)?) async -> FlushSummary {
        var summary = FlushSummary()
        var failuresInARow = 0
        while true {
            guard var result = await sendNextBatchHoldingTheRight() else {
                summary.isComplete = true
                return summary
            }
            summary.setAside += result.setAside
            summary.orphaned += result.orphanedCount
            if result.disposition == .setAside {
                // (Nothing sent: the rows claimed were all damaged, and nothing else is pending.)
                await onResult?(result)
                continue
            }
            summary.attempts += 1
            var wait: Double?
            if result.disposition == .willRetry {
                failuresInARow += 1
                if failuresInARow < configuration.retry.maximumAttemptsPerFlush {
                    // (`delay` returns at most the policy's maximum delay, which `validate()` keeps within a day
                    // when the synchronizer is made: no overflow converting to nanoseconds.)
                    wait = configuration.retry.delay(
                        beforeRetry: failuresInARow, retryAfterSeconds: result.retryAfterSeconds, using: &rng)
                    result.nextAttemptInSeconds = wait
                }
            }
            await onResult?(result)
            switch result.disposition {
            case .delivered:
                summary.delivered += result.count
                failuresInARow = 0
            case .rejected:
                summary.rejected += result.count
                summary.failures += 1
                summary.lastError = result.error
                failuresInARow = 0
            case .split:
                summary.failures += 1
            case .setAside:
                break  // (handled above: the loop goes on to the next claim)
            case .stopped:
                summary.failures += 1
                summary.lastError = result.error
                return summary
            case .willRetry:
                summary.failures += 1
                guard let wait else {
                    summary.lastError = result.error
                    return summary
                }
                if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
                if Task.isCancelled { return summary }
            }
        }
    }

    /// The response to `request` from `session`; `URLError(.timedOut)` when the whole exchange took longer than
    /// `seconds` (the request is then cancelled), handled as URLSession's own timeouts are. URLSession's own timeouts (`timeoutIntervalForRequest`, and on Linux even
    /// `timeoutIntervalForResource`) only bound the time *between* bytes: a server or proxy that answered its
    /// headers and then sent a byte every 2 s held an embedding app's flush for as long as it went on (an API
    /// tester's, 55 hours, waited past 60 s with a 3 s timeout), with the send right and the cross-process lock
    /// held. A cancelled calling task cancels the request too.
    ///
    /// The answer is its status: the body is read and dropped (``SessionDelegate``), and one longer than
    /// ``SessionDelegate/bodyLimitBytes`` is cut off there, the status answering. With a completion handler
    /// URLSession kept the whole body in memory: a hostile server's 10 GiB body grew the process to 13.9 GB past
    /// its deadline, and under a memory limit it trapped (a fuzz tester's, 2026-12-04).
    ///
    /// (Delegate callbacks and a dispatch timer, not a task group racing `data(for:)` against `Task.sleep`: with
    /// two cores that version hung the parallel test run's in-process synchronizers now and then.)
    private static func response(
        to request: URLRequest, from session: URLSession, within seconds: Double
    ) async throws -> (response: URLResponse?, bodyStart: Data) {
        let exchange = Exchange()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(response: URLResponse?, bodyStart: Data), Error>) in
                let task = session.dataTask(with: request)
                exchange.onComplete = { response, bodyStart, error, bodyCutOff in
                    // Timed out only when the deadline's cancel ended it: an answer complete just after the
                    // deadline is still the answer. A body cut off at the limit leaves the status as the answer.
                    if bodyCutOff, let response {
                        continuation.resume(returning: (response, bodyStart))
                    } else if exchange.isPastDeadline, (error as? URLError)?.code == .cancelled {
                        continuation.resume(throwing: URLError(.timedOut))
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (response, bodyStart))
                    }
                }
                guard let delegate = session.delegate as? SessionDelegate else {
                    // (Never: every session is made with one, ``makeSession(_:)``.)
                    exchange.onComplete = nil  // (it holds the exchange)
                    continuation.resume(throwing: URLError(.unknown))
                    return
                }
                delegate.register(exchange, for: task)
                exchange.start(task, deadline: seconds)
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// One HTTP attempt for `batch`, and the buffer updated accordingly.
    private func send(_ batch: SyncBatch) async -> SyncResult {
        var result = SyncResult(
            success: false, count: batch.rows.count, status: nil, error: nil, disposition: .willRetry,
            idempotencyKey: batch.idempotencyKey, attempt: batch.previousAttempts + 1)
        var request = URLRequest(url: configuration.url)
        request.httpMethod = configuration.method.rawValue
        request.timeoutInterval = configuration.requestTimeoutSeconds
        for header in configuration.headers { request.setValue(header.value, forHTTPHeaderField: header.name) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // One connection per batch: on Linux, URLSession (libcurl) silently re-sent a batch on a fresh
        // connection after the server reset a kept-alive one, then lost that answer and reported a timeout
        // (seen with the loopback receiver). A batch is ~15 KB: the extra handshake is cheap beside it.
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.setValue(batch.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = Data(encoder.encode(batch.rows))

        let response: HTTPURLResponse
        let bodyStart: Data
        do {
            let answer = try await Self.response(
                to: request, from: session, within: configuration.requestTimeoutSeconds)
            guard let http = answer.response as? HTTPURLResponse else {
                result.error = .network("not an HTTP response")
                return result
            }
            response = http
            bodyStart = answer.bodyStart
            guard (300..<400).contains(http.statusCode) || Synchronizer.isSameEndpoint(http.url, request.url) else {
                // Followed after all (a platform that ignores the delegate): whatever answered is not the
                // endpoint, so its status acknowledges nothing.
                result.error = .redirected(http.statusCode, url: configuration.redactedURL)
                result.disposition = .stopped
                return result
            }
        } catch let error as URLError {
            result.error =
                error.code == .timedOut
                ? .timeout(seconds: configuration.requestTimeoutSeconds, url: configuration.redactedURL)
                : .network(Synchronizer.describe(error, endpoint: configuration.url))
            renewSession()
            return result
        } catch {
            result.error = .network("request failed")
            renewSession()
            return result
        }
        let status = response.statusCode
        if status != 409 { conflicts = (0, 0) }
        result.status = status
        if !(200..<300).contains(status) || status == 207 { result.serverMessage = Self.message(from: bodyStart) }
        result.retryAfterSeconds = response.value(forHTTPHeaderField: "Retry-After").flatMap(Synchronizer.retryAfter)
        do {
            switch status {
            case 207:
                // Not an acknowledgement, and the same batch would get the same answer forever (the cap would
                // then drop the queue's oldest rows): its rows are set aside like a refused batch's, kept and
                // counted, and the queue moves on. They keep their batch and key: the server processed the
                // request, and a requeue under a new key had every row stored twice (a crash tester's server).
                try buffer.markRejected(batch, status: status, keepingItsKey: true)
                result.error = .multiStatus(url: configuration.redactedURL)
                result.disposition = .rejected
            case 200..<300:
                try buffer.acknowledge(batch)
                result.success = true
                result.disposition = .delivered
            case 408, 429, 500..<600:
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .willRetry
            case 409 where noteConflict(batch) < configuration.retry.maximumAttemptsPerFlush:
                // The Idempotency-Key draft's answer while a request with the same key is still being processed
                // (a retry after a timeout): the first may yet store the batch, and rejecting it here had
                // `requeue` send it again under a new key (stored twice, an API tester). Retried like a 5xx a
                // few times.
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .willRetry
            case 409:
                // A lasting conflict (or a server's "already stored"): rejected so that the queue moves on, but
                // its rows keep their batch and key, so that a requeue sends the same batch under the same key
                // (under a new one a tester's rows were stored twice).
                conflicts = (0, 0)
                try buffer.markRejected(batch, status: status, keepingItsKey: true)
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .rejected
            case 413 where batch.rows.count > 1:
                // Too large: nothing was stored; smaller batches under new keys.
                try buffer.release(batch)
                batchSizeLimit = min(batchSizeLimit, max(1, batch.rows.count / 2))
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .split
            case 401, 403, 404, 405, 410:
                // Not this batch's fault: credentials (401, 403) or the endpoint (404, 405, 410: a wrong URL or
                // method), which every batch would meet. The flush stops, the rows stay in flight under their
                // key (a tester's mistyped URL marked the whole buffer rejected, batch by batch).
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .stopped
            case 300..<400:
                result.error = .redirected(status, url: configuration.redactedURL)
                result.redirectLocation = response.value(forHTTPHeaderField: "Location").flatMap { location in
                    URL(string: location, relativeTo: configuration.url).map {
                        SyncConfiguration.redact($0.absoluteURL)
                    }
                }
                result.disposition = .stopped
            case 400..<500:
                try buffer.markRejected(batch, status: status)
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .rejected
            default:
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .stopped
            }
        } catch {
            result.error = .store(error)
            result.disposition = .stopped
        }
        return result
    }

    /// Whether the answer came from the URL asked (`nil`: the platform did not say, so it is taken to have):
    /// scheme, host, port, path and query compared, the scheme and host without case, a default port as none,
    /// an empty path as "/", the path and query as written (percent-encoded, a trailing slash kept: a redirect
    /// from `/ingest` to `/ingest/` turns a POST into a GET whose 2xx must not acknowledge the batch).
    static func isSameEndpoint(_ answered: URL?, _ asked: URL?) -> Bool {
        guard let answered, let asked else { return true }
        func key(_ url: URL) -> [String] {
            let parts = URLComponents(url: url, resolvingAgainstBaseURL: true)
            let scheme = parts?.scheme?.lowercased() ?? ""
            let port = parts?.port ?? Synchronizer.defaultPort(scheme: scheme)
            let path = parts?.percentEncodedPath ?? ""
            return [
                scheme, parts?.host?.lowercased() ?? "", String(port), path.isEmpty ? "/" : path,
                parts?.percentEncodedQuery ?? "",
            ]
        }
        return key(answered) == key(asked)
    }

    /// The port a URL without one reaches: 443 for https, 80 for http, -1 otherwise.
    static func defaultPort(scheme: String) -> Int { scheme == "https" ? 443 : scheme == "http" ? 80 : -1 }

    /// A URLError's description without the failing URL (which may carry a query token); where the failure is the
    /// host's, its name and port from `endpoint` ("cannot connect to host 127.0.0.1:9": a batch tester's read
    /// "cannot connect to host" with no word of which).
    static func describe(_ error: URLError, endpoint: URL? = nil) -> String {
        let host =
            endpoint.flatMap { url in
                url.host.map { name in
                    let port = url.port ?? Synchronizer.defaultPort(scheme: url.scheme?.lowercased() ?? "")
                    return " " + (name.contains(":") ? "[\(name)]" : name) + ":\(port)"
                }
            } ?? ""
        return switch error.code {
        case .networkConnectionLost: "connection lost" + (host.isEmpty ? "" : " to" + host)
        case .cannotConnectToHost: "cannot connect to host" + host
        case .cannotFindHost: "cannot find host" + host
        case .notConnectedToInternet: "not connected to the internet"
        case .secureConnectionFailed: "TLS handshake failed"
        // libcurl's "Empty reply from server" (a server that closed the connection without answering, or after a
        // bare 100 Continue) arrives as badServerResponse on Linux; "bad server response" named no host.
        case .badServerResponse:
            "the server" + (host.isEmpty ? "" : " at" + host) + " sent no answer, or none that is HTTP"
                + Synchronizer.transportDetail(error)
        // libcurl's "weird server reply" (an answer that is not HTTP: a 1xx without a final status, garbage)
        // arrives as unsupportedURL on Linux.
        case .unsupportedURL: "the answer is not HTTP (or the URL's scheme is not supported)"
        case .cannotParseResponse: "the answer could not be read as HTTP"
        case .zeroByteResource: "the server closed the connection without answering"
        case .dnsLookupFailed: "DNS lookup failed" + (host.isEmpty ? "" : " for" + host)
        // FoundationNetworking on Linux refuses an IPv6 literal host ("URL error -1000" told a reviewer nothing).
        case .badURL:
            "the URL could not be used" + (host.isEmpty ? "" : " for" + host)
                + (host.contains("[")
                    ? " (FoundationNetworking on Linux refuses an IPv6 literal host: give a host name)" : "")
        case .cancelled: "cancelled"
        // What libcurl's "recv failure" (a server that closed the connection mid-answer) arrives as on Linux;
        // "URL error -1" told an API tester nothing.
        // libcurl's own words say which (a body whose gzip is broken, an answer header too large, an https URL
        // to a plain-HTTP port all read "closed or reset mid-response?", a buffer tester's).
        case .unknown:
            "the connection" + (host.isEmpty ? "" : " to" + host) + " failed before a complete answer"
                + (transportDetail(error).isEmpty
                    ? " (closed or reset mid-response?)" : Synchronizer.transportDetail(error))
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot:
            "the server's TLS certificate is not trusted"
        default: "URL error \(error.code.rawValue)"
        }
    }

    /// What the transport (libcurl on Linux, URLSession elsewhere) said of `error`, as " (libcurl: …)" (or
    /// " (URLSession: …)") with, on Linux, a hint where libcurl's words
    /// mislead, or "" when it said nothing of its own. The failing URL, which may carry a query token, is left out.
    static func transportDetail(_ error: URLError) -> String {
        guard var text = error.userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty else { return "" }
        if let url = error.failingURL?.absoluteString, !url.isEmpty {
            text = text.replacingOccurrences(of: url, with: "the URL")
        }
        #if canImport(FoundationNetworking)
            let transport = "libcurl"
            let hint =
                text.contains("wrong version number")
                ? ": an https URL to a port that speaks plain HTTP?"
                : text == "Out of memory" ? ": likely an answer header over libcurl's 100 KB limit" : ""
        #else
            let transport = "URLSession"
            let hint = ""
        #endif
        return " (\(transport): \(text)\(hint))"
    }

    /// The start of an answer's body as one line for a log (``SyncResult/serverMessage``): up to 200 characters of
    /// its UTF-8 text, control characters as spaces, runs of spaces as one; `nil` when empty.
    static func message(from body: Data) -> String? {
        let text = String(decoding: body.prefix(Exchange.keptBodyBytes), as: UTF8.self)
        let line = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined()
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        guard !line.isEmpty else { return nil }
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }

    /// Parses `Retry-After`: delta-seconds, or an HTTP-date (seconds from now, not below 0) in any of the three
    /// forms RFC 9110 §5.6.7 says a recipient must accept: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the
    /// obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`, GMT; a
    /// backend tester's asctime date was ignored and the retry came after 0.2 s instead of 6).
    static func retryAfter(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return Double(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        // (asctime pads a one-digit day with a space: the spaces are collapsed first.)
        let collapsed = trimmed.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for (format, text) in [
            ("EEE, dd MMM yyyy HH:mm:ss zzz", trimmed), ("EEEE, dd-MMM-yy HH:mm:ss zzz", trimmed),
            ("EEE MMM d HH:mm:ss yyyy", collapsed),
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(0, date.timeIntervalSinceNow) }
        }
        return nil
    }
}

/// One request's task, its answer so far and whether its deadline passed (see
/// `Synchronizer.response(to:from:within:)`): shared by the session's delegate, the deadline's timer and the
/// cancellation handler, which may run on three threads.
final class Exchange: @unchecked Sendable {
    // (`@unchecked`: every field is read and written under `lock` only; `onComplete` is set before the task
    // starts.)
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var pastDeadline = false
    private var cancelled = false
    private var response: URLResponse?
    private var bodyBytes = 0
    private var bodyStart = Data()
    private var bodyCutOff = false

    /// How much of a body is kept, for the message of an answer that acknowledges nothing.
    static let keptBodyBytes = 1024

    /// Called once when the task completes: its response, the start of its body (``keptBodyBytes``), its error,
    /// and whether the body was cut off at the limit (then the error is the cut's cancellation, and the response
    /// is the answer).
    var onComplete: (@Sendable (URLResponse?, Data, (any Error)?, Bool) -> Void)?

    /// Whether the deadline passed before the task completed.
    var isPastDeadline: Bool { lock.withLock { pastDeadline } }

    private var timer: DispatchWorkItem?

    /// Starts `task` with a timer that passes the deadline in `seconds`, unless the caller was cancelled already
    /// (then the task is cancelled at once).
    func start(_ task: URLSessionDataTask, deadline seconds: Double) {
        let timer = DispatchWorkItem { [self] in passDeadline() }
        let cancelNow = lock.withLock {
            self.task = task
            self.timer = timer
            return cancelled
        }
        task.resume()
        if cancelNow { task.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
    }

    /// The response's status line and headers arrived.
    func received(_ response: URLResponse) {
        lock.withLock { self.response = response }
    }

    /// `response` as the answer, unless one was received (``received(_:)``).
    func receivedIfNone(_ response: URLResponse) {
        lock.withLock { if self.response == nil { self.response = response } }
    }

    /// Bytes of the body arrived (dropped, but for the first ``keptBodyBytes``): past `limit` in all, the task is
    /// cancelled and the response stands as the answer.
    func receivedBody(_ data: Data, limit: Int) {
        let isOver = lock.withLock {
            if bodyStart.count < Self.keptBodyBytes {
                bodyStart.append(data.prefix(Self.keptBodyBytes - bodyStart.count))
            }
            bodyBytes += data.count
            return bodyBytes > limit
        }
        if isOver { cutBodyOff() }
    }

    /// The body is cut off before it is read: the task is cancelled, and the response stands as the answer.
    func cutBodyOff() {
        let cut = lock.withLock {
            defer { bodyCutOff = true }
            return bodyCutOff ? nil : task
        }
        // From another queue: cancelled from inside a delegate callback (or by the `.cancel` disposition), the
        // task went on reading to the end of the body on Linux (a loopback server's 2 GiB), while a cancel from
        // the deadline's timer ends it at once.
        if let cut { DispatchQueue.global().async { cut.cancel() } }
    }

    /// The task completed: its timer is cancelled (it would hold the exchange until it fired) and the answer is
    /// handed on, once.
    func complete(error: (any Error)?) {
        let (timer, response, body, cutOff, handler) = lock.withLock {
            defer {
                self.timer = nil
                onComplete = nil  // (it holds this exchange)
            }
            return (self.timer, self.response, bodyStart, bodyCutOff, onComplete)
        }
        timer?.cancel()
        handler?(response, body, error, cutOff)
    }

    /// The deadline passed: the task is cancelled (nothing happens when it had completed).
    func passDeadline() {
        let task = lock.withLock {
            pastDeadline = true
            return self.task
        }
        task?.cancel()
    }

    /// The calling task was cancelled: so is the request.
    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}

/// The delegate of a ``Synchronizer``'s URL session: it refuses every HTTP redirect, so a 3xx reaches the
/// synchronizer as itself (see its documentation), and it hands each task's response and completion to its
/// ``Exchange``, reading the body only to drop it (the acknowledgement is the status).
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // (`@unchecked`: `exchanges` is read and written under `lock` only.)
    /// How long a response body may be and still be read (then dropped, but for its first
    /// ``Exchange/keptBodyBytes``): 1 MiB. One announced longer is cut off at its headers, one of unknown length
    /// (chunked) where it passes the limit; the status is then the answer. A shorter one is read to its end, so
    /// that an answer broken mid-body is no acknowledgement.
    static let bodyLimitBytes = 1 << 20

    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    /// Routes `task`'s callbacks to `exchange` until it completes.
    func register(_ exchange: Exchange, for task: URLSessionTask) {
        lock.withLock { exchanges[task.taskIdentifier] = exchange }
    }

    private func exchange(of task: URLSessionTask) -> Exchange? {
        lock.withLock { exchanges[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let exchange = exchange(of: dataTask)
        exchange?.received(response)
        // A body announced longer than the limit is not read at all: URLSession reads ahead of the delegate, so a
        // cut made in `didReceive data` came late (a loopback server's 1 GiB was read whole). One whose length is
        // not announced (chunked, or ended by closing the connection: Spring Boot and ASP.NET answer so) is read
        // to its end, or cut at the limit, bounded by the deadline either way: cut at its headers, a 200 whose
        // connection broke mid-body was taken as an acknowledgement, and a refusal lost its message (a reviewer's).
        if response.expectedContentLength > Self.bodyLimitBytes, let exchange {
            exchange.cutBodyOff()
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(of: dataTask)?.receivedBody(data, limit: Self.bodyLimitBytes)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier) }
        // A redirect without a `Location` reaches neither `didReceive response` nor the redirect call on Linux: the
        // task's own response holds its status (an operations tester's 301 was retried five times as "not an HTTP
        // response" where a redirect stops the flush).
        if error == nil, let response = task.response { exchange?.receivedIfNone(response) }
        exchange?.complete(error: error)
    }
}
