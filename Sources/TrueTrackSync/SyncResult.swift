import TrueTrackStore

/// Why a sync attempt failed. Descriptions name the endpoint without user info or query and never include
/// a header value (an `Authorization` token cannot leak into a log).
public enum SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration is unusable (message says which setting and why).
    case invalidConfiguration(String)
    /// The request did not complete (connection refused or reset, DNS, TLS…): retried.
    case network(String)
    /// No complete answer from `url` within the request timeout (none at all, or one that stalled on the way):
    /// retried.
    case timeout(seconds: Double, url: String)
    /// The server answered a non-2xx status (retried for 408, 429 and 5xx, and for 409 a few times; a 413 batch
    /// is split; 401, 403, 404, 405 and 410 stop the flush and keep the rows queued; the batch is rejected for
    /// other 4xx).
    case status(Int, url: String)
    /// The server answered with a redirect (3xx), which is never followed: the flush stops, the rows stay
    /// pending (the configured URL is probably wrong: an http:// endpoint moved to https://, a login page).
    case redirected(Int, url: String)
    /// ``Synchronizer/flush(onResult:)`` was called from inside a flush's `onResult` (or a task started
    /// there, while that flush ran): nothing was sent (see ``Synchronizer``).
    case calledFromOnResult
    /// Another process holds the buffer's send lock (`<database>-sync.lock`): it is sending these rows, so this
    /// flush sent nothing (two `truetrack sync` runs from overlapping cron jobs sent every batch twice).
    case sendingElsewhere(lockPath: String)
    /// The server answered 207 Multi-Status: per-item results, which this client does not read, so the batch
    /// is not taken as acknowledged (deleting it lost the items the server refused). Its rows are marked
    /// rejected (kept; requeue sends them again), so a server that answers 207 to every batch cannot stall
    /// the queue until the cap drops its oldest rows.
    case multiStatus(url: String)
    /// The buffer failed.
    case store(StoreError)

    /// What to do about a status that stops or sets aside a batch (" (…)"), or "".
    static func hint(forStatus code: Int) -> String {
        switch code {
        case 401, 403: " (check the credentials, e.g. the Authorization header)"
        case 404, 405, 410: " (no such endpoint, or not for this method: check the sync URL)"
        case 409:
            " (a request with this batch's Idempotency-Key is still being processed, or stored it: the batch goes "
                + "again under the same key)"
        default: ""
        }
    }

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "invalid sync configuration: \(why)"
        case .network(let why): "network error: \(why)"
        case .timeout(let seconds, let url): "no complete answer from \(url) within \(seconds) s"
        case .status(let code, let url): "HTTP \(code) from \(url)" + SyncError.hint(forStatus: code)
        case .redirected(let code, let url):
            "HTTP \(code) redirect from \(url): not followed (a redirect's target did not store the batch); check the sync URL"
        case .calledFromOnResult:
            "flush called from inside a flush's onResult (or a task started there): nothing sent; call it after "
                + "the flush, or from Task.detached"
        case .sendingElsewhere(let path):
            "another sync is sending this buffer (another process, or another Synchronizer of this one: it holds "
                + "\(path)); nothing sent, its rows stay queued (one Synchronizer per buffer in a process serialises "
                + "its flushes)"
        case .multiStatus(let url):
            "HTTP 207 Multi-Status from \(url): per-item results are not read, so the batch is not acknowledged "
                + "(its rows are kept as rejected); answer 2xx for a batch stored whole, 4xx for one refused"
        case .store(let error): error.description
        }
    }
}

/// What became of a batch after one attempt.
public enum SyncDisposition: Sendable, Hashable {
    /// 2xx: the rows were deleted from the buffer.
    case delivered
    /// A permanent 4xx: the rows were marked rejected (kept, counted, no longer sent).
    case rejected
    /// A retryable failure: the rows stay in the batch, to be resent under the same key.
    case willRetry
    /// 413 (Content Too Large) for a batch of more than one row: the backend stored none of it, so its rows are
    /// pending again and this synchronizer claims batches of half that size from now on; the flush goes on at
    /// once. (A single row refused as too large is ``rejected``.)
    case split
    /// A failure that retrying now cannot fix (401/403, 404/405/410, a redirect, an unexpected status, a store
    /// error): the flush stops; the batch's rows stay in it (in flight), to go again under the same key.
    case stopped
    /// Nothing was sent: the rows claimed for a batch all failed to decode and were set aside
    /// (``SyncResult/setAside``), and no other row was pending. The flush goes on (and finds nothing left).
    case setAside
}

/// The outcome of one sync attempt.
public struct SyncResult: Sendable, Hashable {
    /// True when the server acknowledged the batch (2xx).
    public var success: Bool
    /// Fixes in the batch.
    public var count: Int
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// What went wrong, when something did.
    public var error: SyncError?
    /// What became of the batch.
    public var disposition: SyncDisposition
    /// The batch's idempotency key.
    public var idempotencyKey: String
    /// This attempt's number for the batch (1 for the first send).
    public var attempt: Int
    /// The server's `Retry-After`, seconds, when it sent one.
    public var retryAfterSeconds: Double?
    /// How long the flush waits before the next attempt (``SyncDisposition/willRetry`` only, and set before
    /// `onResult` sees the result, so a log can say it rather than fall silent for minutes): the backoff, at least
    /// `Retry-After`, at most ``RetryPolicy/maximumDelaySeconds``; `nil` when no retry follows in this flush.
    public var nextAttemptInSeconds: Double?
    /// Where a redirect (3xx) pointed, without its query or user info (a token there is not printed); `nil` for
    /// any other answer, or a redirect without a `Location`. Never followed: it says what to check the sync URL
    /// against (a tester's 302 named no target).
    public var redirectLocation: String?
    /// The start of the body of an answer that did not acknowledge the batch (up to 200 characters, one line,
    /// control characters as spaces): what the server said was wrong (`{"error":"invalid fix"}`), for a log; `nil`
    /// for an acknowledgement, an empty body, or one not read (longer than 1 MiB, or chunked). Never used to
    /// decide anything: the status does. (A backend tester's reason for a 400 never reached the user.)
    public var serverMessage: String?
    /// Rows set aside while this attempt's batch was claimed, because they no longer decoded (a file edited by
    /// hand, a flipped bit: each ``DamagedRow`` names its row and column): kept in the buffer as
    /// ``SyncState/damaged``, never sent, and not counted in ``count``. One such row used to stop every sync of the
    /// buffer. Empty almost always.
    public var setAside: [DamagedRow] = []
    /// Rows found in flight under a batch the buffer no longer records (its `sync_batches` row deleted by hand) and
    /// made pending again while this attempt's batch was claimed (``BatchClaim/orphanedCount``): sent under a new key.
    /// Such rows were stuck for ever, in flight and never sent. 0 almost always.
    public var orphanedCount: Int = 0
}

/// The totals of one ``Synchronizer/flush(onResult:)``.
public struct FlushSummary: Sendable, Hashable {
    /// Attempts made.
    public var attempts: Int = 0
    /// Fixes acknowledged by the server and deleted from the buffer.
    public var delivered: Int = 0
    /// Fixes the server rejected permanently (kept in the buffer, marked rejected).
    public var rejected: Int = 0
    /// Failed attempts (retried or not).
    public var failures: Int = 0
    /// The rows this flush set aside as damaged (``SyncResult/setAside``): kept, never sent.
    public var setAside: [DamagedRow] = []
    /// Rows this flush found in flight under a batch no longer recorded and made pending again
    /// (``SyncResult/orphanedCount``).
    public var orphaned: Int = 0
    /// True when the buffer had nothing left to send when the flush ended (rows set aside as damaged or rejected
    /// are not sent: see ``setAside`` and ``rejected``).
    public var isComplete: Bool = false
    /// The last failure: the one the flush stopped on, else the last refusal of a batch whose rows were marked
    /// rejected (so a flush whose every batch was refused is not read as a success: ``isComplete`` says only
    /// that nothing is left to send), else `nil`.
    public var lastError: SyncError?

    /// An empty summary (nothing attempted yet).
    public init() {}
}
