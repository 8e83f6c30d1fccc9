import Foundation
import TrueTrackCore

@testable import TrueTrackStore

/// A fresh folder under /tmp for one test's database files, removed by ``remove()``.
struct TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "truetrack-store-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A tiny seeded generator (SplitMix64), so random cases reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Fix number `n` of a synthetic walk: time n seconds after 2024-05-01, moving north ~1.4 m per fix.
func walkFix(_ n: Int) -> Fix {
    try! Fix(
        timestamp: Timestamp(millisecondsSince1970: 1_714_521_600_000 + Int64(n) * 1000),
        latitude: 48.8566 + Double(n) * 1.26e-5, longitude: 2.3522, horizontalAccuracyMetres: 4.5,
        provider: .gps)
}

/// A buffer in memory at its cap: 100 rows of 100, walk fixes 0…99 (ids 1…100), so that the next append drops
/// rows.
func bufferAtItsCap() throws -> FixBuffer {
    let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 100))
    try buffer.append((0..<100).map(walkFix))
    return buffer
}

/// The folder holding the test runner, where SwiftPM also puts the package's executables.
func builtProductsFolder() -> String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return (exe as NSString).deletingLastPathComponent
}

/// Writes at `path` a store of the older schema `version` (its migrations up to it, as an older build left it), then
/// runs `statements` on it (rows that build would have written), and closes it.
func olderStore(at path: String, version: Int32, statements: [String] = []) throws {
    let db = try Connection(path: path, busyTimeoutMilliseconds: 100)
    try Schema.prepare(db, options: StoreOptions(), upTo: version)
    for statement in statements { try db.execute(statement) }
}
