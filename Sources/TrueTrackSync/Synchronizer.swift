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
/// - 2xx → the batch's rows are deleted. 408, 429 and 5xx, timeouts and network errors → retried with
///   ``RetryPolicy`` backoff (never earlier than `Retry-After`, except that no wait exceeds
///   ``RetryPolicy/maximumDelaySeconds``: a server asking for an hour is retried after that cap). 401 and 403 → the flush stops and the rows
///   stay pending (a refreshed token can still send them). Any other 4xx → the rows are marked rejected:
///   kept, counted and visible, no longer sent, so one bad batch never blocks the queue.
///
/// - A redirect (3xx) is never followed: a 2xx from wherever it leads (a login page, a load balancer's
///   landing page) would acknowledge a batch the endpoint never stored. It stops the flush, rows pending.
///
/// The synchronizer owns its own connection to the buffer's file, so an app keeps appending through its
/// ``FixBuffer`` while a flush runs. Sends are serialised: a second ``flush(onResult:)`` or
/// ``sendNextBatch()`` called while one runs (a background task and a "network is back" handler) waits for it
/// to finish, then runs (and usually finds nothing pending), so no batch is ever in flight twice.
public actor Synchronizer {
    /// The configuration in force.
    public let configuration: SyncConfiguration
    private let buffer: FixBuffer
    private var session: URLSession
    private let encoder: BatchEncoder
    private var rng = SystemRandomNumberGenerator()
    /// True while a flush or a single send holds the right to send (see ``acquireSending()``).
    private var isSending = false
    /// Callers waiting for that right, in arrival order.
    private var waitingToSend: [CheckedContinuation<Void, Never>] = []

    /// Opens the buffer at `databasePath` for syncing.
    ///
    /// - Throws: ``SyncError/store(_:)`` when the buffer cannot be opened.
    public init(databasePath: String, storeOptions: StoreOptions = StoreOptions(), configuration: SyncConfiguration)
        throws(SyncError)
    {
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
        return URLSession(configuration: sessionConfiguration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// Waits until no other flush or send is running, then holds the right to send until
    /// ``releaseSending()``. The actor alone does not serialise them: it is re-entered at every `await`.
    private func acquireSending() async {
        guard isSending else {
            isSending = true
            return
        }
        await withCheckedContinuation { waitingToSend.append($0) }
        // The releasing caller handed the right over without clearing `isSending`.
    }

    /// Hands the right to send to the next waiting caller, or frees it.
    private func releaseSending() {
        if waitingToSend.isEmpty {
            isSending = false
        } else {
            waitingToSend.removeFirst().resume()
        }
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
    /// pending. Waits for a flush in progress to finish first.
    public func sendNextBatch() async -> SyncResult? {
        await acquireSending()
        defer { releaseSending() }
        return await sendNextBatchHoldingTheRight()
    }

    /// ``sendNextBatch()`` for a caller that holds the right to send.
    private func sendNextBatchHoldingTheRight() async -> SyncResult? {
        let batch: SyncBatch
        do {
            guard let next = try buffer.nextBatch(size: configuration.batchSize) else { return nil }
            batch = next
            try buffer.recordAttempt(batch)
        } catch {
            return SyncResult(
                success: false, count: 0, status: nil, error: .store(error), disposition: .stopped,
                idempotencyKey: "", attempt: 0)
        }
        return await send(batch)
    }

    /// Syncs now: sends batch after batch until the buffer has nothing pending, retrying failures with
    /// backoff; gives up after ``RetryPolicy/maximumAttemptsPerFlush`` consecutive failures of one batch or
    /// on a failure that retrying cannot fix (the rows stay buffered for the next flush).
    ///
    /// A flush called while another runs waits for it to finish first (see the type's documentation).
    ///
    /// - Parameter onResult: called with every attempt's result, in order, before the next attempt (e.g. to log
    ///   it, or `await` a main-actor model's update).
    /// - Returns: the totals.
    @discardableResult
    public func flush(onResult: (@Sendable (SyncResult) async -> Void)? = nil) async -> FlushSummary {
        await acquireSending()
        defer { releaseSending() }
        var summary = FlushSummary()
        var failuresInARow = 0
        while true {
            guard let result = await sendNextBatchHoldingTheRight() else {
                summary.isComplete = true
                return summary
            }
            summary.attempts += 1
            await onResult?(result)
            switch result.disposition {
            case .delivered:
                summary.delivered += result.count
                failuresInARow = 0
            case .rejected:
                summary.rejected += result.count
                summary.failures += 1
                failuresInARow = 0
            case .stopped:
                summary.failures += 1
                summary.lastError = result.error
                return summary
            case .willRetry:
                summary.failures += 1
                failuresInARow += 1
                if failuresInARow >= configuration.retry.maximumAttemptsPerFlush {
                    summary.lastError = result.error
                    return summary
                }
                let wait = configuration.retry.delay(
                    beforeRetry: failuresInARow, retryAfterSeconds: result.retryAfterSeconds, using: &rng)
                // (`wait` is at most the policy's maximum delay, a day: no overflow converting to nanoseconds.)
                if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(min(wait, 86_400) * 1e9)) }
                if Task.isCancelled { return summary }
            }
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
        do {
            let (_, raw) = try await session.data(for: request)
            guard let http = raw as? HTTPURLResponse else {
                result.error = .network("not an HTTP response")
                return result
            }
            response = http
            guard (300..<400).contains(http.statusCode) || http.url == nil || http.url == request.url else {
                // Followed after all (a platform that ignores the delegate): whatever answered is not the
                // endpoint, so its status acknowledges nothing.
                result.error = .redirected(status: http.statusCode, url: configuration.redactedURL)
                result.disposition = .stopped
                return result
            }
        } catch let error as URLError {
            result.error =
                error.code == .timedOut
                ? .timeout(seconds: configuration.requestTimeoutSeconds) : .network(Synchronizer.describe(error))
            renewSession()
            return result
        } catch {
            result.error = .network("request failed")
            renewSession()
            return result
        }
        let status = response.statusCode
        result.status = status
        result.retryAfterSeconds = response.value(forHTTPHeaderField: "Retry-After").flatMap(Synchronizer.retryAfter)
        do {
            switch status {
            case 200..<300:
                try buffer.acknowledge(batch)
                result.success = true
                result.disposition = .delivered
            case 408, 429, 500..<600:
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .willRetry
            case 401, 403:
                result.error = .status(status, url: configuration.redactedURL)
                result.disposition = .stopped
            case 300..<400:
                result.error = .redirected(status: status, url: configuration.redactedURL)
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

    /// A URLError's description without the failing URL (which may carry a query token).
    static func describe(_ error: URLError) -> String {
        switch error.code {
        case .networkConnectionLost: "connection lost"
        case .cannotConnectToHost: "cannot connect to host"
        case .cannotFindHost: "cannot find host"
        case .notConnectedToInternet: "not connected to the internet"
        case .secureConnectionFailed: "TLS handshake failed"
        case .badServerResponse: "bad server response"
        // libcurl's "weird server reply" (an answer that is not HTTP: a 1xx without a final status, garbage)
        // arrives as unsupportedURL on Linux.
        case .unsupportedURL: "the answer is not HTTP (or the URL's scheme is not supported)"
        case .cannotParseResponse: "the answer could not be read as HTTP"
        case .zeroByteResource: "the server closed the connection without answering"
        case .dnsLookupFailed: "DNS lookup failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot:
            "the server's TLS certificate is not trusted"
        default: "URL error \(error.code.rawValue)"
        }
    }

    /// Parses `Retry-After`: delta-seconds, or an HTTP-date (seconds from now, not below 0).
    static func retryAfter(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return Double(max(seconds, 0)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSinceNow)
    }
}

/// Refuses every HTTP redirect, so a 3xx reaches the ``Synchronizer`` as itself (see its documentation).
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
