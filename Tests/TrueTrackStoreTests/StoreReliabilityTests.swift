import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackStore

/// The reliability figures: SIGKILL while appending, and two processes writing one session.
///
/// Both run at the full size (50 kills; 2 × 10,000 writes) within a few seconds in debug.
@Suite(.serialized) struct StoreReliabilityTests {
    static let stressTool = builtProductsFolder() + "/truetrack-store-stress"

    /// Reads the child's stdout lines until it is killed.
    final class LineCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var buffer = Data()
        func append(_ data: Data) { lock.withLock { buffer.append(data) } }
        var lines: [Substring] {
            lock.withLock { String(decoding: buffer, as: UTF8.self).split(separator: "\n") }
        }
    }

    @Test func everyFixReportedPersistedSurvivesSIGKILL() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("kill.sqlite")
        var rng = SplitMix64(seed: 2024)
        var reported: [ClosedRange<Int64>] = []
        var totalReported = 0
        for run in 0..<50 {
            let first = Int64(run) * 10_000_000
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.stressTool)
            process.arguments = ["append", path, String(first), "full"]
            let pipe = Pipe()
            process.standardOutput = pipe
            let collector = LineCollector()
            pipe.fileHandleForReading.readabilityHandler = { handle in collector.append(handle.availableData) }
            try process.run()
            // A random moment while it appends: 0-100 ms after its first persisted report (so a slow start
            // on a loaded machine still leaves every run killed mid-stream).
            let deadline = Date().addingTimeInterval(10)
            while collector.lines.isEmpty && Date() < deadline { usleep(1000) }
            usleep(useconds_t(rng.next() % 100_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            pipe.fileHandleForReading.readabilityHandler = nil
            collector.append(pipe.fileHandleForReading.readDataToEndOfFile())
            #expect(process.terminationReason == .uncaughtSignal)
            if let last = collector.lines.last(where: { !$0.isEmpty }).flatMap({ Int64($0) }) {
                reported.append(first...last)
                totalReported += Int(last - first + 1)
            }
        }
        let buffer = try FixBuffer(path: path, options: StoreOptions(maxRecordsToPersist: 1_000_000))
        #expect(try buffer.integrityCheck() == ["ok"])
        var lost = 0
        for range in reported {
            let n = try buffer.db.integer(
                "SELECT count(*) FROM fixes WHERE time_ms BETWEEN ? AND ?", range.lowerBound, range.upperBound)
            lost += range.count - Int(n)
        }
        #expect(lost == 0)
        #expect(reported.count == 50)  // every run was killed while appending
        #expect(try buffer.count() >= totalReported)
        #expect(try buffer.count() == buffer.statistics().rowCount)
        print("kill test: 50 SIGKILLs, \(totalReported) fixes reported persisted, \(lost) lost, integrity ok")
    }

    @Test func twoWritersNeverMakeDistanceDecrease() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("session.sqlite")
        let writes = 10_000
        _ = try SessionStateStore(path: path)  // create the file before the race
        let started = Date()
        let children = try (0..<2).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.stressTool)
            process.arguments = ["session", path, "shared", String(writes), "normal"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            return (process, pipe)
        }
        // Watch from a third connection meanwhile: the stored distance must never decrease.
        let watcher = try SessionStateStore(path: path)
        var previous = 0.0
        var decreases = 0
        var samples = 0
        while children.contains(where: { $0.0.isRunning }) {
            if let d = try watcher.snapshot(sessionID: "shared")?.distanceMetres {
                if d < previous { decreases += 1 }
                previous = d
                samples += 1
            }
            usleep(2000)
        }
        for (process, pipe) in children {
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(output.hasPrefix("ok "))
        }
        let final = try #require(try watcher.snapshot(sessionID: "shared"))
        #expect(decreases == 0)
        // Every read-modify-write counted: none lost to the other writer.
        #expect(final.distanceMetres == Double(2 * writes))
        #expect(final.fixCount == 2 * writes)
        #expect(final.writeCount == 2 * writes + 2 * (writes / 10))
        let seconds = Date().timeIntervalSince(started)
        print("two writers: 2 × \(writes) writes in \(seconds) s, \(samples) samples, \(decreases) decreases")
    }
}
