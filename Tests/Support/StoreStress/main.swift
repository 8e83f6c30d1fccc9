import Foundation
import TrueTrackCore
import TrueTrackStore
import TrueTrackSync

// truetrack-store-stress: the child process of the store's kill and two-writer tests.
//
//   truetrack-store-stress append DB FIRST_SEQUENCE [full|normal]
//       Appends fixes forever in transactions of 1-20 fixes; fix n has time n ms. After each append returns
//       it writes the last sequence number persisted ("<n>\n") to stdout, unbuffered. The test SIGKILLs it.
//   truetrack-store-stress session DB SESSION_ID COUNT [full|normal]
//       COUNT read-modify-writes adding 1 m each, interleaved with stale snapshot writes; exits 1 if the
//       distance it reads back ever decreases, prints "ok <final distance>" otherwise.
//   truetrack-store-stress create DB
//       Opens (creating when absent) the buffer DB with the default options, appends one fix and prints "ok"; the
//       test starts two at once on a new file.
//   truetrack-store-stress bench DB
//       Measures batched appends (1,000 per transaction) and single appends with each durability level.
//   truetrack-store-stress sync-bench DB URL COUNT BATCH
//       Buffers COUNT fixes, then flushes them to URL (e.g. Tests/Support/receiver.py) and reports fixes/s.
#if canImport(Glibc)
    import Glibc
#endif

func emit(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.append(10)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ text: String) -> Never {
    var bytes = Array(("truetrack-store-stress: " + text).utf8)
    bytes.append(10)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fail("usage: append DB FIRST | session DB ID COUNT | bench DB | sync-bench DB URL N B")
}
let durability: Durability = arguments.last == "normal" ? .normal : .full
let options = StoreOptions(maxRecordsToPersist: 1_000_000, durability: durability, busyTimeoutSeconds: 30)

switch arguments[1] {
case "append":
    guard arguments.count >= 4, let first = Int64(arguments[3]) else { fail("FIRST_SEQUENCE must be an integer") }
    do {
        let buffer = try FixBuffer(path: arguments[2], options: options)
        var rng = SystemRandomNumberGenerator()
        var next = first
        var batch: [Fix] = []
        while true {
            batch.removeAll(keepingCapacity: true)
            let size = Int.random(in: 1...20, using: &rng)
            for _ in 0..<size {
                let latitude = 48 + Double(next % 1000) * 1e-5
                batch.append(
                    try Fix(
                        timestamp: Timestamp(millisecondsSince1970: next), latitude: latitude, longitude: 2.35,
                        horizontalAccuracyMetres: 5, provider: .gps))
                next += 1
            }
            try buffer.append(batch, sessionID: "kill")
            emit(String(next - 1))
        }
    } catch {
        fail("\(error)")
    }
case "create":
    do {
        let buffer = try FixBuffer(path: arguments[2])
        try buffer.append(Fix(timestamp: Timestamp(millisecondsSince1970: 0), latitude: 48, longitude: 2.35))
        emit("ok")
    } catch {
        fail("\(error)")
    }
case "session":
    guard arguments.count >= 5, let count = Int(arguments[4]) else { fail("COUNT must be an integer") }
    let id = arguments[3]
    do {
        let store = try SessionStateStore(path: arguments[2], options: options)
        var lastSeen = -1.0
        var stale: [SessionSnapshot] = []
        for i in 0..<count {
            let result = try store.update(sessionID: id) {
                $0.distanceMetres += 1
                $0.fixCount += 1
            }
            guard result.distanceMetres >= lastSeen else {
                fail("distance went from \(lastSeen) to \(result.distanceMetres)")
            }
            lastSeen = result.distanceMetres
            stale.append(result)
            if stale.count > 8 { stale.removeFirst() }
            if i % 10 == 9, let old = stale.first {
                // A writer that held an old copy writes it back: it must not lower the distance.
                let merged = try store.merge(old)
                guard merged.distanceMetres >= lastSeen else {
                    fail("stale write lowered the distance from \(lastSeen) to \(merged.distanceMetres)")
                }
                lastSeen = merged.distanceMetres
            }
        }
        emit("ok \(lastSeen)")
    } catch {
        fail("\(error)")
    }
case "bench":
    func fixes(_ range: Range<Int>) -> [Fix] {
        range.map {
            try! Fix(
                timestamp: Timestamp(millisecondsSince1970: Int64($0) * 1000), latitude: 48 + Double($0 % 1000) * 1e-5,
                longitude: 2.35, horizontalAccuracyMetres: 5, speedMetresPerSecond: 1.3, provider: .gps)
        }
    }
    do {
        for durability in Durability.allCases {
            let path = arguments[2] + "-\(durability.rawValue)"
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
            let buffer = try FixBuffer(
                path: path, options: StoreOptions(maxRecordsToPersist: 1_000_000, durability: durability))
            let batches = (0..<500).map { fixes($0 * 1000..<($0 + 1) * 1000) }
            var start = Date()
            for batch in batches { try buffer.append(batch) }
            var seconds = Date().timeIntervalSince(start)
            emit("batched appends (\(durability), 1000/transaction): \(Int(500_000 / seconds)) fixes/s")
            // Larger transactions amortise the one fsync per commit that `.full` pays.
            let big = (0..<50).map { fixes(1_000_000 + $0 * 10_000..<1_000_000 + ($0 + 1) * 10_000) }
            start = Date()
            for batch in big { try buffer.append(batch) }
            seconds = Date().timeIntervalSince(start)
            emit("batched appends (\(durability), 10000/transaction): \(Int(500_000 / seconds)) fixes/s")
            let singles = fixes(600_000..<602_000)
            start = Date()
            var n = 0
            while Date().timeIntervalSince(start) < 3 && n < singles.count {
                try buffer.append(singles[n])
                n += 1
            }
            seconds = Date().timeIntervalSince(start)
            emit("single appends (\(durability)): \(Int(Double(n) / seconds)) appends/s (\(n) in \(seconds) s)")
            // With the cap in force (10,000 rows): every transaction also drops the oldest rows.
            let capped = try FixBuffer(
                path: path, options: StoreOptions(maxRecordsToPersist: 10_000, durability: durability))
            start = Date()
            for batch in batches.prefix(200) { try capped.append(batch) }
            seconds = Date().timeIntervalSince(start)
            emit("batched appends at the 10,000 cap (\(durability)): \(Int(200_000 / seconds)) fixes/s")
        }
    } catch {
        fail("\(error)")
    }
case "sync-bench":
    guard arguments.count >= 6, let url = URL(string: arguments[3]), let count = Int(arguments[4]),
        let batch = Int(arguments[5])
    else { fail("usage: sync-bench DB URL COUNT BATCH") }
    let path = arguments[2]
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    let options = StoreOptions(maxRecordsToPersist: 1_000_000)
    do {
        let buffer = try FixBuffer(path: path, options: options)
        for start in stride(from: 0, to: count, by: 1000) {
            try buffer.append(
                (start..<min(start + 1000, count)).map {
                    try Fix(
                        timestamp: Timestamp(millisecondsSince1970: Int64($0) * 1000), latitude: 48, longitude: 2.35,
                        horizontalAccuracyMetres: 5)
                })
        }
        let sync = try Synchronizer(
            databasePath: path, storeOptions: options,
            configuration: SyncConfiguration(url: url, batchSize: batch))
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var summary = FlushSummary()
        nonisolated(unsafe) var seconds = 0.0
        Task.detached {  // not the main actor: the main thread waits on the semaphore
            let start = Date()
            summary = await sync.flush()
            seconds = Date().timeIntervalSince(start)
            semaphore.signal()
        }
        semaphore.wait()
        emit(
            "sync: \(summary.delivered) fixes in \(summary.attempts) requests of \(batch), \(seconds) s: "
                + "\(Int(Double(summary.delivered) / seconds)) fixes/s, \(Int(Double(summary.attempts) / seconds)) requests/s"
        )
    } catch {
        fail("\(error)")
    }
default:
    fail("unknown mode \(arguments[1])")
}
