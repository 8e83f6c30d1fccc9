import Foundation
import Testing
import TrueTrackCore
import TrueTrackStore

@testable import TrueTrackSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct SyncUnitTests {
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func backoffIsJitteredExponentialAndHonoursRetryAfter() {
        let policy = RetryPolicy(initialDelaySeconds: 1, maximumDelaySeconds: 300, maximumAttemptsPerFlush: 5)
        var rng = SplitMix64(state: 1)
        for attempt in 1...12 {
            let ceiling = min(300, pow(2, Double(attempt - 1)))
            var seen: [Double] = []
            for _ in 0..<200 {
                let d = policy.delay(beforeRetry: attempt, retryAfterSeconds: nil, using: &rng)
                #expect(d >= 0 && d <= ceiling)
                seen.append(d)
            }
            #expect(seen.max()! > ceiling * 0.8)  // jitter spans the range
            #expect(seen.min()! < ceiling * 0.2)
        }
        #expect(policy.delay(beforeRetry: 1, retryAfterSeconds: 7, using: &rng) == 7)
        #expect(policy.delay(beforeRetry: 1, retryAfterSeconds: 9999, using: &rng) == 300)
        #expect(policy.delay(beforeRetry: 1000, retryAfterSeconds: nil, using: &rng) <= 300)
    }

    /// An answer's body is dropped as it arrives: an exchange keeps its first kilobyte only (for a refusal's
    /// message), and past the limit it marks the body cut off, so that the status stands as the answer. (A
    /// completion handler kept the whole body: a fuzz tester's 10 GiB answer grew the process to 13.9 GB.)
    @Test("keeps a kilobyte of an answer's body and cuts it off past the limit")
    func keepsAKilobyteOfAnAnswersBodyAndCutsItOffPastTheLimit() throws {
        final class Outcome: @unchecked Sendable {
            var body = Data()
            var cutOff = false
            var calls = 0
        }
        let outcome = Outcome()
        let exchange = Exchange()
        exchange.onComplete = { _, body, _, cutOff in
            outcome.body = body
            outcome.cutOff = cutOff
            outcome.calls += 1
        }
        let url = try #require(URL(string: "http://127.0.0.1/fixes"))
        exchange.received(try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)))
        let chunk = Data(repeating: 0x78, count: 64 << 10)
        for _ in 0..<(SessionDelegate.bodyLimitBytes / chunk.count) {
            exchange.receivedBody(chunk, limit: SessionDelegate.bodyLimitBytes)
        }
        exchange.receivedBody(chunk, limit: SessionDelegate.bodyLimitBytes)  // past the limit
        exchange.complete(error: URLError(.cancelled))
        exchange.complete(error: nil)  // (once only)
        #expect(outcome.calls == 1)
        #expect(outcome.cutOff)
        #expect(outcome.body.count == Exchange.keptBodyBytes)
        // A body within the limit is not cut off.
        let short = Exchange()
        short.onComplete = { _, body, _, cutOff in
            outcome.body = body
            outcome.cutOff = cutOff
        }
        short.receivedBody(Data("{\"error\": \"x\"}".utf8), limit: SessionDelegate.bodyLimitBytes)
        short.complete(error: nil)
        #expect(!outcome.cutOff && outcome.body == Data("{\"error\": \"x\"}".utf8))
    }

    @Test func parsesRetryAfterInBothForms() {
        #expect(Synchronizer.retryAfter("120") == 120)
        #expect(Synchronizer.retryAfter(" 0 ") == 0)
        #expect(Synchronizer.retryAfter("-5") == 0)
        #expect(Synchronizer.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == 0)  // in the past
        #expect(Synchronizer.retryAfter("soon") == nil)
        let future = Date().addingTimeInterval(3600)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let seconds = Synchronizer.retryAfter(formatter.string(from: future)) ?? 0
        #expect(seconds > 3590 && seconds <= 3600)
        // The obsolete RFC 850 and asctime forms, which RFC 9110 says a recipient must accept too (a backend
        // tester's asctime date was ignored).
        #expect(Synchronizer.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT") == 0)
        #expect(Synchronizer.retryAfter("Sun Nov  6 08:49:37 1994") == 0)
        for format in ["EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM  d HH:mm:ss yyyy", "EEE MMM dd HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            let text = formatter.string(from: future)
            let wait = Synchronizer.retryAfter(text) ?? 0
            #expect(wait > 3590 && wait <= 3600, "\(text)")
        }
    }

    @Test func validatesTheConfiguration() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/fixes"))
        #expect(throws: SyncError.self) { try SyncConfiguration(url: url, batchSize: 0) }
        #expect(throws: SyncError.self) { try SyncConfiguration(url: url, batchSize: 1001) }
        #expect(throws: SyncError.self) { try SyncConfiguration(url: URL(string: "ftp://x/y")!) }
        #expect(throws: SyncError.self) { try SyncConfiguration(url: url, requestTimeoutSeconds: 0.5) }
        // (A tester's --timeout 1e16 crashed the process inside URLSession.)
        for absurd in [86_401, 1e16, .infinity, .nan] {
            #expect(throws: SyncError.self) { try SyncConfiguration(url: url, requestTimeoutSeconds: absurd) }
        }
        #expect(throws: Never.self) { try SyncConfiguration(url: url, requestTimeoutSeconds: 86_400) }
        #expect(throws: SyncError.self) { try SyncConfiguration(url: url, headers: [("Bad Name", "v")]) }
        // A retry policy that would crash or hang a flush (an infinite wait overflowed the sleep's nanoseconds).
        for retry in [
            RetryPolicy(maximumDelaySeconds: .infinity), RetryPolicy(maximumDelaySeconds: -1),
            RetryPolicy(maximumDelaySeconds: 86_401), RetryPolicy(initialDelaySeconds: .nan),
            RetryPolicy(initialDelaySeconds: -1), RetryPolicy(maximumAttemptsPerFlush: 0),
        ] {
            #expect(throws: SyncError.self) { try SyncConfiguration(url: url, retry: retry) }
        }
        #expect(
            try SyncConfiguration(url: url, retry: RetryPolicy(maximumDelaySeconds: 86_400)).retry.maximumDelaySeconds
                == 86_400)
        // Two fields under one name ({"lat":1.0,"lat":2.0}), an unknown field, a header value with a line break.
        #expect(throws: SyncError.self) {
            try SyncConfiguration(url: url, fieldNames: FieldNames(renamed: ["latitude": "lat", "longitude": "lat"]))
        }
        #expect(throws: SyncError.self) {
            try SyncConfiguration(url: url, fieldNames: FieldNames(renamed: ["latitude": "time"]))
        }
        #expect(throws: SyncError.self) {
            try SyncConfiguration(url: url, fieldNames: FieldNames(renamed: ["lat": "y"]))
        }
        #expect(throws: SyncError.self) { try SyncConfiguration(url: url, headers: [("X-Token", "a\r\nX-Evil: 1")]) }
        // The headers the client sets for each request (a given Content-Length had the server read 5 bytes of the
        // body; one Idempotency-Key for every batch would break exactly-once).
        for name in ["Content-Length", "transfer-encoding", "Host", "Connection", "Idempotency-Key"] {
            #expect(throws: SyncError.self) { try SyncConfiguration(url: url, headers: [(name, "5")]) }
        }
        #expect((try? SyncConfiguration(url: url, headers: [("X-Device-Id", "phone-1")])) != nil)
        let swapped = FieldNames(renamed: ["latitude": "longitude", "longitude": "latitude", "provider": ""])
        #expect(try SyncConfiguration(url: url, fieldNames: swapped).fieldNames == swapped)
        let ok = try SyncConfiguration(url: url, batchSize: 1000)
        #expect(ok.batchSize == 1000)
        #expect(try SyncConfiguration(url: url).batchSize == 50)
    }

    /// The answer's URL is compared with the one asked by scheme, host, port and path, so a platform that
    /// normalises "http://h" to "http://h/" or the host's case does not turn every answer into a redirect.
    @Test func comparesEndpointsAfterNormalising() {
        func same(_ a: String, _ b: String) -> Bool { Synchronizer.isSameEndpoint(URL(string: a), URL(string: b)) }
        #expect(same("http://Host.example/", "http://host.example"))
        #expect(same("http://host.example:80/fixes", "http://host.example/fixes"))
        #expect(same("https://host.example/fixes?token=1", "https://host.example:443/fixes?token=1"))
        #expect(!same("http://host.example/ingest/", "http://host.example/ingest"))  // a redirect's trailing slash
        #expect(!same("http://host.example/fixes?a=1", "http://host.example/fixes?a=2"))
        #expect(!same("http://host.example/landing", "http://host.example/fixes"))
        #expect(!same("https://host.example/fixes", "http://host.example/fixes"))
        #expect(!same("http://other.example/fixes", "http://host.example/fixes"))
        #expect(Synchronizer.isSameEndpoint(nil, URL(string: "http://h/x")))
    }

    /// The configuration's properties are `var`: a header with a line break appended after it was created
    /// bypassed the check. The synchronizer checks again.
    @Test func theSynchronizerChecksAConfigurationChangedAfterwards() throws {
        var configuration = try SyncConfiguration(url: try #require(URL(string: "http://127.0.0.1:1/fixes")))
        configuration.headers.append(("X-Token", "a\r\nX-Evil: 1"))
        #expect(throws: SyncError.self) {
            try Synchronizer(databasePath: ":memory:", configuration: configuration)
        }
        configuration.headers.removeLast()
        configuration.retry.maximumDelaySeconds = .infinity
        #expect(throws: SyncError.self) {
            try Synchronizer(databasePath: ":memory:", configuration: configuration)
        }
    }

    /// An in-memory buffer cannot be synced (the synchronizer's own connection to `:memory:` is a new, empty
    /// database): an API tester's flush reported success, nothing sent, while the app's buffer held its rows.
    @Test func refusesToSyncAnInMemoryBuffer() throws {
        let configuration = try SyncConfiguration(url: try #require(URL(string: "http://127.0.0.1:1/fixes")))
        for path in [":memory:", "", "file::memory:?cache=shared"] {
            do {
                _ = try Synchronizer(databasePath: path, configuration: configuration)
                Issue.record("\(path) was accepted")
            } catch {
                guard case .invalidConfiguration(let why) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(why.contains("in-memory buffer") && why.contains("file path"), "\(why)")
            }
        }
    }

    /// An IPv6 literal host, which FoundationNetworking on Linux refuses on every request, is refused before a flush
    /// (a sync tester's run retried it five times over 10 s); a host name is taken.
    @Test func refusesAnIPv6LiteralHostOnLinux() throws {
        let literal = try #require(URL(string: "http://[::1]:18999/fixes"))
        #if os(Linux)
            #expect(throws: SyncError.self) { try SyncConfiguration(url: literal) }
        #else
            _ = try SyncConfiguration(url: literal)
        #endif
        _ = try SyncConfiguration(url: try #require(URL(string: "http://localhost:18999/fixes")))
    }

    /// A garbage or 1xx-only answer read "network error: URL error -1002".
    @Test func namesTheNetworkFailuresAUserMeets() {
        #expect(Synchronizer.describe(URLError(.unsupportedURL)).contains("not HTTP"))
        #expect(Synchronizer.describe(URLError(.cannotParseResponse)).contains("could not be read as HTTP"))
        #expect(Synchronizer.describe(URLError(.serverCertificateUntrusted)).contains("certificate"))
        #expect(Synchronizer.describe(URLError(.dnsLookupFailed)) == "DNS lookup failed")
        #expect(Synchronizer.describe(URLError(.callIsActive)).hasPrefix("URL error"))
        // Which host (a batch tester's read "cannot connect to host"), never the path or query.
        let endpoint = URL(string: "https://user:secret@ingest.example.com/v1/fixes?token=abc")!
        #expect(
            Synchronizer.describe(URLError(.cannotConnectToHost), endpoint: endpoint)
                == "cannot connect to host ingest.example.com:443")
        #expect(
            Synchronizer.describe(URLError(.cannotFindHost), endpoint: URL(string: "http://[::1]:8080/x")!)
                == "cannot find host [::1]:8080")
        #expect(
            Synchronizer.describe(URLError(.badURL), endpoint: URL(string: "http://[::1]:8080/x")!)
                == "the URL could not be used for [::1]:8080 (FoundationNetworking on Linux refuses an IPv6 literal "
                + "host: give a host name)")
        #expect(Synchronizer.describe(URLError(.badURL)) == "the URL could not be used")
    }

    /// libcurl's own words, which FoundationNetworking passes on, say what failed: a server that closed without
    /// answering read "bad server response" (no host), and a broken gzip body, a 200 KB header line and an https URL
    /// to a plain-HTTP port all read "closed or reset mid-response?" (a buffer tester's). Never the URL's query.
    @Test func namesWhatTheTransportSaidOfAFailure() {
        let endpoint = URL(string: "https://ingest.example.com:8443/v1/fixes?token=abc")!
        func curl(_ code: URLError.Code, _ text: String) -> URLError {
            URLError(code, userInfo: [NSLocalizedDescriptionKey: text, NSURLErrorFailingURLErrorKey: endpoint])
        }
        // (libcurl's words: Linux's FoundationNetworking; URLSession elsewhere labels its own.)
        #if canImport(FoundationNetworking)
            #expect(
                Synchronizer.describe(curl(.badServerResponse, "Empty reply from server"), endpoint: endpoint)
                    == "the server at ingest.example.com:8443 sent no answer, or none that is HTTP (libcurl: Empty reply "
                    + "from server)")
            #expect(
                Synchronizer.describe(
                    curl(.unknown, "Error while processing content unencoding: incorrect header check"),
                    endpoint: endpoint)
                    == "the connection to ingest.example.com:8443 failed before a complete answer (libcurl: Error while "
                    + "processing content unencoding: incorrect header check)")
            #expect(
                Synchronizer.describe(
                    curl(.unknown, "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number"),
                    endpoint: endpoint
                ).hasSuffix("wrong version number: an https URL to a port that speaks plain HTTP?)"))
            #expect(
                Synchronizer.describe(curl(.unknown, "Out of memory"), endpoint: endpoint).hasSuffix(
                    "(libcurl: Out of memory: likely an answer header over libcurl's 100 KB limit)"))
        #endif
        // The URL in libcurl's words is replaced; without words of its own, the guess as before.
        #expect(
            !Synchronizer.describe(curl(.unknown, "failed for \(endpoint.absoluteString)"), endpoint: endpoint)
                .contains("token"))
        #expect(
            Synchronizer.describe(URLError(.unknown), endpoint: endpoint)
                == "the connection to ingest.example.com:8443 failed before a complete answer (closed or reset "
                + "mid-response?)")
    }

    @Test func parsesHeadersWithoutEchoingValues() throws {
        let h = try SyncConfiguration.parseHeader("Authorization:  Bearer abc:def ")
        #expect(h.name == "Authorization")
        #expect(h.value == "Bearer abc:def")
        do {
            _ = try SyncConfiguration.parseHeader("Authorization Bearer SECRET")
            Issue.record("expected an error")
        } catch {
            #expect(!error.description.contains("SECRET"))
        }
        let config = try SyncConfiguration(
            url: URL(string: "https://user:pw@api.example.com:8443/in?token=SECRET")!,
            headers: [("Authorization", "Bearer SECRET")])
        #expect(
            config.description == "POST https://api.example.com:8443/in batch 50 headers [Authorization: <redacted>]")
        #expect(!config.description.contains("SECRET"))
    }

    @Test func encodesValidJSONWithCanonicalAndMappedNames() throws {
        let buffer = try FixBuffer(path: ":memory:")
        let fix = try Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_521_600_250), latitude: 48.85661, longitude: 2.35222,
            horizontalAccuracyMetres: 4.5, altitudeMetres: 35, speedMetresPerSecond: 1.25, courseDegrees: 90,
            provider: .fused, satellitesUsed: 9, isMocked: true,
            activity: ActivityReading(kind: .walking, confidence: 70))
        var tracker = Tracker()
        try buffer.append(fix, decision: tracker.process(fix), sessionID: "q\"uote\\\n")
        try buffer.append(
            try Fix(
                timestamp: Timestamp(millisecondsSince1970: 0), latitude: 1e-7, longitude: -180,
                horizontalAccuracyMetres: -1))
        let rows = try buffer.newest(limit: 2).reversed().map { $0 }
        let json = try JSONSerialization.jsonObject(with: Data(BatchEncoder().encode(rows))) as? [[String: Any]]
        let objects = try #require(json)
        #expect(objects.count == 2)
        let first = objects[0]
        #expect(first["id"] as? Int == 1)
        #expect(first["session_id"] as? String == "q\"uote\\\n")
        #expect(first["time"] as? String == "2024-05-01T00:00:00.250Z")
        #expect(first["latitude"] as? Double == 48.85661)
        #expect(first["longitude"] as? Double == 2.35222)
        #expect(first["accuracy_m"] as? Double == 4.5)
        #expect(first["altitude_m"] as? Double == 35)
        #expect(first["speed_mps"] as? Double == 1.25)
        #expect(first["course_deg"] as? Double == 90)
        #expect(first["provider"] as? String == "fused")
        #expect(first["satellites"] as? Int == 9)
        #expect(first["mocked"] as? Bool == true)
        #expect(first["activity"] as? String == "walking")
        #expect(first["activity_confidence"] as? Int == 70)
        #expect(first["accepted"] as? Bool == true)
        #expect(first["total_distance_m"] as? Double == 0)
        #expect(first["vertical_accuracy_m"] == nil)
        let second = objects[1]
        #expect(second["time"] as? String == "1970-01-01T00:00:00Z")
        #expect(second["latitude"] as? Double == 1e-7)
        #expect(second["accuracy_m"] as? Double == 0)
        #expect(second["accepted"] == nil)

        let mapped = BatchEncoder(
            fieldNames: FieldNames(renamed: ["latitude": "lat", "longitude": "lng", "provider": ""]))
        let renamed = try JSONSerialization.jsonObject(with: Data(mapped.encode(rows))) as? [[String: Any]]
        let m = try #require(renamed?.first)
        #expect(m["lat"] as? Double == 48.85661)
        #expect(m["lng"] as? Double == 2.35222)
        #expect(m["latitude"] == nil)
        #expect(m["provider"] == nil)
        #expect(BatchEncoder().encode([]) == Array("[]".utf8))
    }
}
