#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level helpers for scanning XML text in a ``ByteStream`` window (no allocation, no `String`).
///
/// Only what a streaming GPX reader needs: character classes, searching, trimming, comparing names with
/// literals and expanding the five predefined entities and numeric character references.
enum XMLBytes {
    static let lt = UInt8(ascii: "<")
    static let gt = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let bang = UInt8(ascii: "!")
    static let question = UInt8(ascii: "?")
    static let amp = UInt8(ascii: "&")
    static let colon = UInt8(ascii: ":")
    static let equals = UInt8(ascii: "=")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let newline: UInt8 = 0x0A

    /// XML white space: space, tab, carriage return, line feed.
    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
    }

    /// A byte that may start an XML name (ASCII letters, `_`, `:`, and any byte of a multi-byte UTF-8 character).
    @inline(__always)
    static func isNameStart(_ c: UInt8) -> Bool {
        let lower = c | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || c == 0x5F || c == 0x3A || c >= 0x80
    }

    /// A byte that may continue an XML name (name-start bytes, digits, `-` and `.`).
    @inline(__always)
    static func isNameChar(_ c: UInt8) -> Bool {
        let lower = c | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || (c >= 0x30 && c <= 0x3A) || c == 0x5F || c == 0x2D
            || c == 0x2E || c >= 0x80
    }

    /// Index of the first byte in `p[from..<to]` that XML allows nowhere in a document: a C0 control other
    /// than tab, line feed and carriage return (NUL among them), or `nil`.
    @inline(__always)
    static func firstForbidden(_ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int? {
        // Bit n set: the byte n (below 0x20) is forbidden; all but tab (9), line feed (10) and carriage return (13).
        let forbidden: UInt32 = ~(1 << 9 | 1 << 10 | 1 << 13)
        var k = from
        while k < to {
            let c = p[k]
            if c < 0x20, forbidden & (1 << UInt32(c)) != 0 { return k }
            k &+= 1
        }
        return nil
    }

    /// Index of the first byte in `p[from..<to]` that is not XML white space, or `nil`.
    @inline(__always)
    static func firstNonSpace(_ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int? {
        var k = from
        while k < to {
            if !isSpace(p[k]) { return k }
            k &+= 1
        }
        return nil
    }

    /// The number of line feeds in `p[from..<to]`, sixteen bytes at a time (SSE2 on x86-64).
    @inline(__always)
    static func countNewlines(_ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int {
        guard from < to, let base = p.baseAddress else { return 0 }
        var count = 0
        var k = from
        let newlines = SIMD16<UInt8>(repeating: newline)
        let ones = SIMD16<UInt8>(repeating: 1)
        while k + 16 <= to {
            // Per-lane counters, emptied before they can wrap (255 rounds at most).
            var lanes = SIMD16<UInt8>()
            var rounds = 0
            while rounds < 255, k + 16 <= to {
                let v = base.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self)
                lanes &+= ones.replacing(with: 0, where: v .!= newlines)
                k &+= 16
                rounds &+= 1
            }
            for lane in 0..<16 { count &+= Int(lanes[lane]) }
        }
        while k < to {
            if p[k] == newline { count &+= 1 }
            k &+= 1
        }
        return count
    }

    /// Index of the first `byte` in `p[from..<to]`, or `nil`.
    @inline(__always)
    static func find(_ byte: UInt8, _ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int? {
        guard from < to, let base = p.baseAddress,
            let hit = memchr(base + from, Int32(byte), to - from)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(hit))
    }

    /// Index of the first occurrence of `literal` starting in `p[from..<to]` and wholly inside it, or `nil`.
    static func find(_ literal: StaticString, _ p: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int? {
        let n = literal.utf8CodeUnitCount
        let first = literal.utf8Start[0]
        var i = from
        while let hit = find(first, p, i, to) {
            guard hit + n <= to else { return nil }
            if matches(p, hit, to, literal) == 1 { return hit }
            i = hit + 1
        }
        return nil
    }

    /// Compares `p[at...]` with `literal`: 1 when it matches, 0 when it does not, −1 when the window ends
    /// before a verdict.
    @inline(__always)
    static func matches(_ p: UnsafeRawBufferPointer, _ at: Int, _ end: Int, _ literal: StaticString) -> Int {
        let n = literal.utf8CodeUnitCount
        let bytes = literal.utf8Start
        var k = 0
        while k < n {
            guard at + k < end else { return -1 }
            if p[at + k] != bytes[k] { return 0 }
            k += 1
        }
        return 1
    }

    /// True when `p[start..<end]` is exactly `literal`.
    @inline(__always)
    static func equals(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard end - start == n else { return false }
        let bytes = literal.utf8Start
        for k in 0..<n where p[start + k] != bytes[k] { return false }
        return true
    }

    /// The index after the `>` that ends a tag or declaration whose text goes on at `p[from]` (after its `<`, `<!`),
    /// passing over quoted attribute values and a DOCTYPE's internal subset in brackets; `nil` when `end` comes first.
    static func markupEnd(_ p: UnsafeRawBufferPointer, from: Int, _ end: Int) -> Int? {
        var k = from
        var bracketDepth = 0
        while k < end {
            let c = p[k]
            if c == quote || c == apostrophe {
                guard let close = find(c, p, k + 1, end) else { return nil }
                k = close + 1
                continue
            }
            if c == UInt8(ascii: "[") {
                bracketDepth += 1
            } else if c == UInt8(ascii: "]") {
                bracketDepth -= 1
            } else if c == gt, bracketDepth <= 0 {
                return k + 1
            }
            k += 1
        }
        return nil
    }

    /// True when `p[start..<end]` holds exactly `bytes`.
    @inline(__always)
    static func equals(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ bytes: [UInt8]) -> Bool {
        guard end - start == bytes.count else { return false }
        for k in 0..<bytes.count where p[start + k] != bytes[k] { return false }
        return true
    }

    /// True when `p[aStart..<aEnd]` and `p[bStart..<bEnd]` hold the same bytes.
    @inline(__always)
    static func equalRanges(_ p: UnsafeRawBufferPointer, _ aStart: Int, _ aEnd: Int, _ bStart: Int, _ bEnd: Int) -> Bool
    {
        guard aEnd - aStart == bEnd - bStart else { return false }
        var k = 0
        while aStart + k < aEnd {
            if p[aStart + k] != p[bStart + k] { return false }
            k += 1
        }
        return true
    }

    /// `p[start..<end]` without leading and trailing XML white space.
    @inline(__always)
    static func trim(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> (Int, Int) {
        var s = start
        var e = end
        while s < e, isSpace(p[s]) { s += 1 }
        while e > s, isSpace(p[e - 1]) { e -= 1 }
        return (s, e)
    }

    /// The index just past the last `:` in the name `p[start..<end]` (the local name's start), or `start`.
    @inline(__always)
    static func localNameStart(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int {
        var k = end
        while k > start {
            if p[k - 1] == colon { return k }
            k -= 1
        }
        return start
    }

    /// Appends the character data `p[start..<end]` (no markup inside) to `out`, expanding entity and character
    /// references, keeping at most `limit` bytes in `out`.
    ///
    /// - Returns: `false` when a reference is malformed or names an entity other than the five predefined
    ///   ones (`amp`, `lt`, `gt`, `quot`, `apos`).
    static func appendDecoded(
        _ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, to out: inout [UInt8],
        limit: Int
    ) -> Bool {
        var i = start
        while i < end {
            guard let a = find(amp, p, i, end) else {
                append(p, i, end, to: &out, limit: limit)
                return true
            }
            append(p, i, a, to: &out, limit: limit)
            guard let semicolon = find(UInt8(ascii: ";"), p, a + 1, min(end, a + 12)) else { return false }
            guard let scalar = entity(p, a + 1, semicolon) else { return false }
            if let encoded = UTF8.encode(scalar) {
                for byte in encoded where out.count < limit { out.append(byte) }
            }
            i = semicolon + 1
        }
        return true
    }

    /// Appends `p[start..<end]` to `out`, keeping at most `limit` bytes in it.
    static func append(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, to out: inout [UInt8], limit: Int) {
        var k = start
        while k < end, out.count < limit {
            out.append(p[k])
            k += 1
        }
    }

    /// The character named by the reference body `p[start..<end]` (between `&` and `;`), or `nil`.
    static func entity(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Unicode.Scalar? {
        if equals(p, start, end, "amp") { return "&" }
        if equals(p, start, end, "lt") { return "<" }
        if equals(p, start, end, "gt") { return ">" }
        if equals(p, start, end, "quot") { return "\"" }
        if equals(p, start, end, "apos") { return "'" }
        guard end - start >= 2, p[start] == UInt8(ascii: "#") else { return nil }
        var k = start + 1
        var radix: UInt32 = 10
        if p[k] == UInt8(ascii: "x") { radix = 16; k += 1 }
        guard k < end else { return nil }
        var value: UInt32 = 0
        while k < end {
            let c = p[k]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt32(c - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt32(c - 0x41 + 10)
            default: return nil
            }
            value = value * radix + digit
            guard value <= 0x10FFFF else { return nil }
            k += 1
        }
        // XML forbids references to NUL and to most C0 controls.
        guard value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D else { return nil }
        return Unicode.Scalar(value)
    }
}
