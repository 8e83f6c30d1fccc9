import Foundation
import Testing
import TrueTrackCore
import TrueTrackStore

@testable import TrueTrackSync

/// The fault test: fixes synced through a receiver that fails 30 % of requests in every way it knows, while
/// the app keeps appending. 10,000 fixes in batches of 100 by default (a few seconds, mostly the injected
/// timeouts); `TRUETRACK_SYNC_FULL=1` runs the issue's 100,000 fixes in batches of 50.
@Suite struct SyncReliabilityTests {
    static let isFullSize = ProcessInfo.processInfo.environment["TRUETRACK_SYNC_FULL"] == "1"

    @Test func everyFixArrivesExactlyOnceThroughThirtyPercentFailures() async throws {
        let total = Self.isFullSize ? 100_000 : 10_000
        let batchSize = Self.isFullSize ? 50 : 100
        let receiver = try ReceiverProcess(timeoutSleepSeconds: 1.5, lifetimeSeconds: 600)
        defer { receiver.stop() }
        let path = temporaryDatabase()
        defer { removeDatabase(path) }
        let options = StoreOptions(maxRecordsToPersist: 1_000_000, durability: .normal)
        let half = total / 2
        do {
            let buffer = try FixBuffer(path: path, options: options)
            for start in stride(from: 0, to: half, by: 1000) {
                try buffer.append((start..<min(start + 1000, half)).map(walkFix))
            }
        }
        try await receiver.control([
            "fail_rate": 0.3, "seed": 7,
            "faults": ["500", "503", "408", "429", "timeout", "reset", "store-500", "store-drop"],
        ])
        let sync = try Synchronizer(
            databasePath: path, storeOptions: options,
            configuration: SyncConfiguration(
                url: receiver.fixesURL, batchSize: batchSize, requestTimeoutSeconds: 1, retry: testRetry))
        // The app appends the second half while the sync runs.
        let appender = Task.detached {
            let buffer = try FixBuffer(path: path, options: options)
            for start in stride(from: half, to: total, by: 100) {
                try buffer.append((start..<min(start + 100, total)).map(walkFix))
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        let started = Date()
        var attempts = 0
        var failures = 0
        var appendsDone = false
        while true {
            let summary = await sync.flush()
            attempts += summary.attempts
            failures += summary.failures
            if appendsDone && summary.isComplete { break }
            if !appendsDone {
                try await appender.value
                appendsDone = true
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let stats = try await receiver.stats()
        #expect(stats["stored_fixes"] as? Int == total)
        #expect(stats["distinct_ids"] as? Int == total)
        #expect(stats["duplicate_ids"] as? Int == 0)
        #expect(stats["min_id"] as? Int == 1)
        #expect(stats["max_id"] as? Int == total)
        #expect(stats["key_mismatches"] as? Int == 0)
        #expect(stats["bad_bodies"] as? Int == 0)
        let buffer = try await sync.statistics()
        #expect(buffer.rowCount == 0)
        #expect(buffer.droppedCount == 0)
        let requests = stats["requests"] as? Int ?? 0
        let faults = stats["faults"] as? [String: Int] ?? [:]
        let failed = requests - (faults["ok"] ?? 0)
        #expect(Double(failed) / Double(requests) > 0.2)
        print(
            "fault test: \(total) fixes, batch \(batchSize), \(requests) requests, \(failed) failed "
                + "(\(faults.sorted { $0.key < $1.key })), duplicates dropped by key: \(stats["duplicate_batches"] ?? 0), "
                + "0 lost, 0 duplicated, \(seconds) s")
    }
}
