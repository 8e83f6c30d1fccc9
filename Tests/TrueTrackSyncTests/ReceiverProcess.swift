import Foundation
import TrueTrackCore
import TrueTrackStore
import TrueTrackSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The project's loopback HTTP receiver (Tests/Support/receiver.py) in a child process, on 127.0.0.1 and an
/// ephemeral port; terminated by ``stop()`` and, failing that, by its own lifetime limit.
final class ReceiverProcess: @unchecked Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support/receiver.py").path

    let process = Process()
    let session = URLSession(configuration: .ephemeral)
    let port: Int
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var fixesURL: URL { baseURL.appendingPathComponent("fixes") }

    init(timeoutSleepSeconds: Double = 2, lifetimeSeconds: Double = 240) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", ReceiverProcess.script, "--timeout-sleep", String(timeoutSleepSeconds), "--lifetime",
            String(lifetimeSeconds),
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // The first line is "PORT <n>".
        var line = Data()
        let handle = pipe.fileHandleForReading
        while !line.contains(10) {
            let chunk = handle.readData(ofLength: 1)
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            kill(process.processIdentifier, SIGKILL)
            throw ReceiverFailure(message: "receiver did not start: '\(text)'")
        }
        self.port = port
    }

    func stop() {
        // SIGKILL: the test runner's children may inherit an ignored SIGTERM.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    /// Posts a control message (see receiver.py).
    func control(_ object: [String: Any]) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("control"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: object)
        request.timeoutInterval = 5
        _ = try await session.data(for: request)
    }

    /// The receiver's counters.
    func stats() async throws -> [String: Any] {
        var request = URLRequest(url: baseURL.appendingPathComponent("stats"))
        request.timeoutInterval = 5
        let (data, _) = try await session.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

struct ReceiverFailure: Error {
    let message: String
}

/// A fresh database path under /tmp.
func temporaryDatabase() -> String {
    let folder = NSTemporaryDirectory() + "truetrack-sync-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/buffer.sqlite"
}

func removeDatabase(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
}

/// Fix number `n` of a synthetic walk.
func walkFix(_ n: Int) -> Fix {
    try! Fix(
        timestamp: Timestamp(millisecondsSince1970: 1_714_521_600_000 + Int64(n) * 1000),
        latitude: 48.8566 + Double(n % 100_000) * 1.26e-5, longitude: 2.3522, horizontalAccuracyMetres: 4.5,
        speedMetresPerSecond: 1.4, provider: .gps)
}

/// Fast retries for tests: the backoff logic is the real one, only the scale is smaller.
let testRetry = RetryPolicy(initialDelaySeconds: 0.002, maximumDelaySeconds: 2, maximumAttemptsPerFlush: 1000)
