import Foundation

/// The HTTP method a batch is sent with.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// `POST` (the default: most ingestion endpoints take a POST of a JSON array).
    case post = "POST"
    /// `PUT`.
    case put = "PUT"
}

/// When and how often a failed batch is retried: exponential backoff with full jitter, never earlier than
/// the server's `Retry-After`.
public struct RetryPolicy: Sendable, Hashable {
    /// The backoff cap before jitter for the first retry, seconds. Default 1 s: long enough for a restarting
    /// server, short enough for a user watching a "syncing" badge.
    public var initialDelaySeconds: Double
    /// The longest wait between two attempts, seconds, `Retry-After` included. Default 300 s (5 minutes):
    /// a server asking for longer is waited on by the next ``Synchronizer/flush(onResult:)`` instead.
    public var maximumDelaySeconds: Double
    /// Consecutive failed attempts of one batch after which a flush gives up (the batch stays buffered and
    /// is retried, same rows and key, by the next flush). Default 5 (with 1 s initial delay, up to ~31 s).
    public var maximumAttemptsPerFlush: Int

    /// Creates a policy; every default is documented on its property.
    public init(initialDelaySeconds: Double = 1, maximumDelaySeconds: Double = 300, maximumAttemptsPerFlush: Int = 5) {
        self.initialDelaySeconds = initialDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
        self.maximumAttemptsPerFlush = maximumAttemptsPerFlush
    }

    /// The wait before retry number `attempt` (1 for the first retry), seconds: a uniformly random value in
    /// `0...min(maximum, initial × 2^(attempt−1))` ("full jitter", so many devices coming back online do not
    /// retry in step), raised to `retryAfterSeconds` when the server sent one, and capped at the maximum.
    public func delay(beforeRetry attempt: Int, retryAfterSeconds: Double?, using rng: inout some RandomNumberGenerator)
        -> Double
    {
        let exponent = Double(min(max(attempt - 1, 0), 60))
        let ceiling = min(maximumDelaySeconds, initialDelaySeconds * pow(2, exponent))
        var wait = ceiling > 0 ? Double.random(in: 0...ceiling, using: &rng) : 0
        if let retryAfterSeconds, retryAfterSeconds.isFinite { wait = max(wait, retryAfterSeconds) }
        return min(max(wait, 0), maximumDelaySeconds)
    }
}

/// The JSON field names of a batch, with renames for backends that want other names.
///
/// Each fix is one JSON object; absent values are omitted. Canonical names: `id` (the buffer's row id, unique
/// per database file: a backend can also deduplicate on it), `session_id`, `time` (ISO 8601 UTC, e.g.
/// `2024-05-01T08:00:00.123Z`), `latitude`, `longitude` (degrees, WGS-84), `accuracy_m` (0 = the source's
/// invalid accuracy), `altitude_m`, `vertical_accuracy_m`, `speed_mps`, `speed_accuracy_mps`, `course_deg`
/// (degrees clockwise from true north), `course_accuracy_deg`, `provider`, `satellites`, `mocked`,
/// `activity`, `activity_confidence` (0–100), and from the tracker's decision: `accepted` (true/false),
/// `rejection`, `filtered_latitude`, `filtered_longitude`, `distance_increment_m`, `total_distance_m`.
public struct FieldNames: Sendable, Hashable {
    /// Every canonical field name, in the order written.
    public static let canonical = [
        "id", "session_id", "time", "latitude", "longitude", "accuracy_m", "altitude_m", "vertical_accuracy_m",
        "speed_mps", "speed_accuracy_mps", "course_deg", "course_accuracy_deg", "provider", "satellites", "mocked",
        "activity", "activity_confidence", "accepted", "rejection", "filtered_latitude", "filtered_longitude",
        "distance_increment_m", "total_distance_m",
    ]

    /// Canonical name → the backend's name; a field mapped to the empty string is left out.
    public var renamed: [String: String]

    /// Creates a mapping (empty: the canonical names).
    public init(renamed: [String: String] = [:]) {
        self.renamed = renamed
    }

    /// The name written for canonical field `name`, or `nil` when it is left out.
    public func name(for canonical: String) -> String? {
        guard let mapped = renamed[canonical] else { return canonical }
        return mapped.isEmpty ? nil : mapped
    }
}

/// Where and how the buffer is sent.
public struct SyncConfiguration: Sendable, CustomStringConvertible {
    /// The endpoint every batch is sent to.
    public var url: URL
    /// POST (default) or PUT.
    public var method: HTTPMethod
    /// Extra request headers (e.g. `Authorization`). Header values never appear in logs, errors or
    /// ``description``.
    public var headers: [(name: String, value: String)]
    /// The most fixes per request, 1–1000. Default 50: a request of ~15 KB, small enough for a slow uplink
    /// to finish within the timeout, large enough to amortise the round trip.
    public var batchSize: Int
    /// The JSON field names.
    public var fieldNames: FieldNames
    /// How long one request may take before it counts as a timeout (a retryable failure), seconds. Default
    /// 30 s; at least 1 s: URLSession on Linux turns a sub-second timeout into an immediate `timedOut`
    /// (measured here with 0.5 s); at most ``maximumRequestTimeoutSeconds``. Set on the request and the session:
    /// URLSession on Linux ignores the `URLRequest` initialiser's.
    public var requestTimeoutSeconds: Double
    /// Backoff and retry limits.
    public var retry: RetryPolicy

    /// The longest request timeout, seconds: one day. A request that may take longer is a hung one; and Linux's
    /// URLSession converts the timeout to an integer of milliseconds for libcurl, which trapped at 10¹⁶ s (a
    /// tester's `--timeout 1e16` crashed the process).
    public static let maximumRequestTimeoutSeconds = 86_400.0

    /// Creates a configuration; every default is documented on its property.
    ///
    /// - Throws: ``SyncError/invalidConfiguration(_:)`` for a batch size outside 1–1000, a URL that is not
    ///   http(s) (or, on Linux, whose host is an IPv6 literal, which FoundationNetworking refuses), a timeout under
    ///   1 s, a header value with a line break, field renames that write two fields under one name or rename an
    ///   unknown field, or a retry policy with a negative or non-finite delay, a maximum delay over a day or fewer
    ///   than one attempt per flush.
    public init(
        url: URL, method: HTTPMethod = .post, headers: [(name: String, value: String)] = [], batchSize: Int = 50,
        fieldNames: FieldNames = FieldNames(), requestTimeoutSeconds: Double = 30, retry: RetryPolicy = RetryPolicy()
    ) throws(SyncError) {
        self.url = url
        self.method = method
        self.headers = headers
        self.batchSize = batchSize
        self.fieldNames = fieldNames
        self.requestTimeoutSeconds = requestTimeoutSeconds
        self.retry = retry
        try validate()
    }

    /// Checks every rule of the initialiser (see there): the properties are `var`, so a configuration changed
    /// after it was created is checked again by ``Synchronizer/init(databasePath:storeOptions:configuration:)``.
    ///
    /// - Throws: ``SyncError/invalidConfiguration(_:)`` naming the setting and why.
    public func validate() throws(SyncError) {
        guard (1...1000).contains(batchSize) else {
            throw .invalidConfiguration("batch size \(batchSize) is outside 1...1000")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw .invalidConfiguration("the sync URL must be http:// or https:// with a host")
        }
        #if os(Linux)
            // FoundationNetworking refuses an IPv6 literal host on every request: refused here, before a flush spent
            // five attempts and their backoff on it (a sync tester's).
            if let host = url.host, host.contains(":") {
                throw .invalidConfiguration(
                    "the sync URL's host \(host) is an IPv6 literal, which FoundationNetworking on Linux refuses: "
                        + "give a host name (e.g. localhost for ::1)")
            }
        #endif
        guard requestTimeoutSeconds.isFinite, requestTimeoutSeconds >= 1,
            requestTimeoutSeconds <= SyncConfiguration.maximumRequestTimeoutSeconds
        else {
            throw .invalidConfiguration(
                "request timeout must be 1 to \(Int(SyncConfiguration.maximumRequestTimeoutSeconds)) seconds, got "
                    + "\(requestTimeoutSeconds)")
        }
        for header in headers { try SyncConfiguration.check(header) }
        // Two fields written under one name make an object whose duplicate key a backend reads as it likes.
        var written: [String: String] = [:]
        for canonical in FieldNames.canonical {
            guard let name = fieldNames.name(for: canonical) else { continue }
            if let other = written[name] {
                throw .invalidConfiguration("fields '\(other)' and '\(canonical)' would both be written as '\(name)'")
            }
            written[name] = canonical
        }
        if let unknown = fieldNames.renamed.keys.sorted().first(where: { !FieldNames.canonical.contains($0) }) {
            throw .invalidConfiguration(
                "'\(unknown)' is not a field name (the names: \(FieldNames.canonical.joined(separator: ", ")))")
        }
        guard retry.initialDelaySeconds.isFinite, retry.initialDelaySeconds >= 0 else {
            throw .invalidConfiguration(
                "retry initial delay \(retry.initialDelaySeconds) s is not a finite, non-negative number")
        }
        // (A day at most: a longer wait is a flush that never returns; the next flush retries anyway.)
        guard retry.maximumDelaySeconds.isFinite, (0...86_400).contains(retry.maximumDelaySeconds) else {
            throw .invalidConfiguration("retry maximum delay \(retry.maximumDelaySeconds) s is outside 0...86400")
        }
        guard retry.maximumAttemptsPerFlush >= 1 else {
            throw .invalidConfiguration(
                "retry attempts per flush must be at least 1, not \(retry.maximumAttemptsPerFlush)")
        }
    }

    /// Parses a command-line header `K: V` (the value is trimmed; it may contain colons).
    ///
    /// - Throws: ``SyncError/invalidConfiguration(_:)`` when there is no colon or the name is not an HTTP
    ///   token. The message never repeats the value.
    public static func parseHeader(_ text: String) throws(SyncError) -> (name: String, value: String) {
        guard let colon = text.firstIndex(of: ":") else {
            throw .invalidConfiguration("header must be written 'Name: value'")
        }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        try check((name, value))
        return (name, value)
    }

    /// Checks one extra header, as ``validate()`` checks them all (``parseHeader(_:)`` too, so that `sync --header
    /// @FILE` names the line of a refused one): a valid token for a name, no line break or NUL in the value (it
    /// would end the header there and start another: header injection), and none of ``clientHeaders``.
    static func check(_ header: (name: String, value: String)) throws(SyncError) {
        guard isValidHeaderName(header.name) else {
            throw .invalidConfiguration("header name '\(header.name)' is not a valid HTTP token")
        }
        guard !header.value.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw .invalidConfiguration("header '\(header.name)' has a line break or NUL in its value")
        }
        // The headers the client sets itself: given again they broke the request (a `Content-Length: 5` had the
        // server read 5 bytes of the body, a re-tester's) or exactly-once (one fixed key for every batch).
        guard !clientHeaders.contains(header.name.lowercased()) else {
            let why =
                header.name.lowercased() == "idempotency-key" ? "a key of its own per batch" : "from the batch it sends"
            throw .invalidConfiguration(
                "header '\(header.name)' is set by the client for each request (\(why)): leave it out")
        }
    }

    /// The headers every request sets itself (lower case), which ``headers`` may not give: `Content-Length`,
    /// `Transfer-Encoding`, `Host`, `Connection` and `Idempotency-Key`, and the connection's own (`Expect`, `TE`,
    /// `Upgrade`, `Keep-Alive`, `Proxy-Connection`). (`Content-Type` given is replaced by
    /// `application/json`; `User-Agent` given replaces the client's.)
    static let clientHeaders: Set<String> = [
        "content-length", "transfer-encoding", "host", "connection", "idempotency-key", "expect", "te", "upgrade",
        "keep-alive", "proxy-connection",
    ]

    static func isValidHeaderName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || "!#$%&'*+-.^_`|~".utf8.contains(c)
            }
    }

    /// The URL safe to print: scheme, host, port and path, without user info, query or fragment.
    public var redactedURL: String { SyncConfiguration.redact(url) }

    static func redact(_ url: URL) -> String {
        var text = (url.scheme ?? "http") + "://" + (url.host ?? "")
        if let port = url.port { text += ":\(port)" }
        return text + url.path
    }

    /// A description for logs: method, redacted URL, batch size and header names (values redacted).
    public var description: String {
        let names = headers.map { "\($0.name): <redacted>" }.joined(separator: ", ")
        return "\(method.rawValue) \(redactedURL) batch \(batchSize)" + (names.isEmpty ? "" : " headers [\(names)]")
    }
}
