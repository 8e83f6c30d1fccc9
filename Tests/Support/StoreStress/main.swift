// truetrack-store-stress: the child process of the store's kill and two-writer tests.
//
//   truetrack-store-stress append DB FIRST_SEQUENCE [full|normal]
//       Appends fixes forever in transactions of 1-20 fixes; fix n has time n ms. After each append returns
//       it writes the last sequence number persisted ("<n>\n") to stdout, unbuffered. The test SIGKILLs it.
//   truetrack-store-stress session DB SESSION_ID COUNT [full|normal]
//       COUNT read-modify-writes adding 1 m each, interleaved with stale snapshot writes; exits 1 if the
//       distance it reads back ever decreases, prints "ok <final distance>" otherwise.
#if canImport(Glibc)
import Glibc
#endif
import TrueTrackCore
import TrueTrackStore

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
guard arguments.count >= 4 else { fail("usage: append DB FIRST | session DB ID COUNT") }
let durability: Durability = arguments.last == "normal" ? .normal : .full
let options = StoreOptions(maxRecordsToPersist: 1_000_000, durability: durability, busyTimeoutSeconds: 30)

switch arguments[1] {
case "append":
    guard let first = Int64(arguments[3]) else { fail("FIRST_SEQUENCE must be an integer") }
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
default:
    fail("unknown mode \(arguments[1])")
}
