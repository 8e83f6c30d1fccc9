import Foundation
import TrueTrackCore
import TrueTrackIO
import TrueTrackSimulation

/// Helpers shared by the GeoJSON, JSON Lines and JSON robustness suites (namespaced to avoid clashes).
enum JSONTestSupport {
    /// `count` fixes one second apart (some milliseconds) with every field exercised: absent values,
    /// invalid accuracy, mocked flags, activities, every provider, tiny and whole numbers.
    static func generatedFixes(count: Int, seed: UInt64) -> [Fix] {
        var rng = SplitMix64(seed: seed)
        var fixes: [Fix] = []
        var t: Int64 = 1_714_564_800_000
        for k in 0..<count {
            t += Int64(1000 + (k % 3 == 0 ? Int.random(in: 0..<999, using: &rng) : 0))
            func maybe(_ range: ClosedRange<Double>) -> Double? {
                Bool.random(using: &rng) ? Double.random(in: range, using: &rng) : nil
            }
            let accuracy: Double? =
                switch k % 5 {
                case 0: nil
                case 1: 0  // invalid
                case 2: 1e-7
                default: Double.random(in: 0.5...80, using: &rng)
                }
            let fix = try! Fix(
                timestamp: Timestamp(millisecondsSince1970: t),
                latitude: k == 7 ? -90 : Double.random(in: -89.9...89.9, using: &rng),
                longitude: k == 8 ? 180 : (k == 9 ? -0.0 : Double.random(in: -180...180, using: &rng)),
                horizontalAccuracyMetres: accuracy,
                altitudeMetres: k % 4 == 0 ? Double(k) : maybe(-400...8000),
                verticalAccuracyMetres: maybe(0...50),
                speedMetresPerSecond: maybe(0...90),
                speedAccuracyMetresPerSecond: maybe(0...5),
                courseDegrees: maybe(0...359.99),
                courseAccuracyDegrees: maybe(0...180),
                provider: Provider.allCases[k % Provider.allCases.count],
                satellitesUsed: Bool.random(using: &rng) ? Int.random(in: 0...40, using: &rng) : nil,
                isMocked: k % 3 == 0 ? nil : k % 3 == 1,
                activity: k % 2 == 0
                    ? nil
                    : ActivityReading(
                        kind: ActivityKind.allCases[k % ActivityKind.allCases.count],
                        confidence: Int.random(in: 0...100, using: &rng)))
            fixes.append(fix)
        }
        return fixes
    }

    /// Writes `fixes` with `writer` into memory and returns the bytes.
    static func write<W: FixWriter>(_ fixes: [Fix], sink: ByteSink, _ make: (ByteSink) -> W) throws -> [UInt8] {
        var writer = make(sink)
        for fix in fixes { try writer.write(fix) }
        try writer.finish()
        return sink.memory ?? []
    }

    /// A seeded mutation of `bytes`: truncation, byte flips, inserted garbage, huge or non-finite
    /// numbers, deep nesting, duplicated spans, or nothing at all.
    static func mutate(_ bytes: [UInt8], using rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        let kind = Int.random(in: 0..<9, using: &rng)
        guard !b.isEmpty else { return b }
        switch kind {
        case 0:  // truncate
            b.removeSubrange(Int.random(in: 0..<b.count, using: &rng)...)
        case 1:  // flip a few bytes
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                b[Int.random(in: 0..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        case 2:  // insert garbage
            let garbage: [[UInt8]] = [
                Array("\u{0}\u{1}\u{7F}".utf8), [0xFF, 0xFE, 0xC0], Array("}]\"\\u12".utf8),
                Array(",,,".utf8), Array("\n\n".utf8), Array("{\"a\":".utf8),
            ]
            b.insert(
                contentsOf: garbage[Int.random(in: 0..<garbage.count, using: &rng)],
                at: Int.random(in: 0...b.count, using: &rng))
        case 3, 4:  // replace a number with a huge, tiny or non-finite one
            let numbers = [
                "1e400", "-1e400", "NaN", "Infinity", "1e-400", "123456789012345678901234567890",
                "-0", "9e18", "1" + String(repeating: "0", count: 600), "0.0000000000000000000000001",
            ]
            let replacement = Array(numbers[Int.random(in: 0..<numbers.count, using: &rng)].utf8)
            var starts: [Int] = []
            for k in 1..<b.count
            where (b[k] &- 48 < 10 || b[k] == UInt8(ascii: "-"))
                && (b[k - 1] == UInt8(ascii: ":")
                    || b[k - 1] == UInt8(ascii: "[") || b[k - 1] == UInt8(ascii: ","))
            {
                starts.append(k)
            }
            guard let s = starts.randomElement(using: &rng) else { return b }
            var e = s + 1
            while e < b.count,
                b[e] &- 48 < 10 || b[e] == UInt8(ascii: ".") || b[e] == UInt8(ascii: "e")
                    || b[e] == UInt8(ascii: "-") || b[e] == UInt8(ascii: "+")
            { e += 1 }
            b.replaceSubrange(s..<e, with: replacement)
        case 5:  // deep nesting
            let depth = Int.random(in: 100...3000, using: &rng)
            let at = Int.random(in: 0...b.count, using: &rng)
            b.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "["), count: depth), at: at)
        case 6:  // duplicate a span
            let s = Int.random(in: 0..<b.count, using: &rng)
            let e = min(b.count, s + Int.random(in: 1...200, using: &rng))
            b.insert(contentsOf: b[s..<e], at: Int.random(in: 0...b.count, using: &rng))
        case 7:  // empty input, or a lone byte
            b = Bool.random(using: &rng) ? [] : [b[0]]
        default:  // delete a span
            let s = Int.random(in: 0..<b.count, using: &rng)
            b.removeSubrange(s..<min(b.count, s + Int.random(in: 1...40, using: &rng)))
        }
        return b
    }
}
