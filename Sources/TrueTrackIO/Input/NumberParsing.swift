#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exact, allocation-free parsing of decimal numbers straight from bytes.
///
/// `Double(Substring)` copies into a C string and calls `strtod` (~60 ns); every reader parses several
/// numbers per fix, so this is the hot loop of reading. The fast path is Clinger's (1990): when the decimal
/// significand has at most 19 digits and fits in 53 bits and the power of ten is at most 10^22, both are
/// exact doubles and one IEEE multiplication or division rounds correctly — the same result `strtod` gives.
/// Everything else (more digits, large exponents, `nan`, `inf`) falls back to `strtod` on a stack copy, so
/// the result is always the correctly rounded double.
public enum NumberParsing {
    /// Parses `p[start..<end]` (surrounding ASCII spaces and tabs ignored) as a decimal floating-point number.
    ///
    /// Accepts an optional sign, digits with an optional `.`, and an optional exponent (`e`/`E`); also `nan`,
    /// `inf` and `infinity` (any case) through the fallback. Returns `nil` for anything else, including an
    /// empty field, so callers can tell "absent" (empty) from "malformed" by checking emptiness first.
    @inlinable
    public static func double(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        var i = start
        var e = end
        while i < e, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        while e > i, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        guard i < e else { return nil }
        let first = i
        var negative = false
        if p[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if p[i] == UInt8(ascii: "+") { i += 1 }
        // One pass over the digits and at most one `.`, without counting as it goes: the digits' count (leading
        // zeros included) is the run's length, and past 19 the wrapped mantissa is not used (`strtod` reads those).
        let digitsStart = i
        var mantissa: UInt64 = 0
        var dot = -1
        while i < e {
            let d = p[i] &- 48
            if d < 10 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
                continue
            }
            guard p[i] == UInt8(ascii: "."), dot < 0 else { break }
            dot = i
            i += 1
            // A fraction's digits eight at a time where eight follow (coordinates' long fractions).
            while e - i >= 8, let value = SWARDigits.eightDigits(p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                mantissa = mantissa &* 100_000_000 &+ value
                i += 8
            }
        }
        let digits = i - digitsStart - (dot < 0 ? 0 : 1)
        guard digits > 0 else { return slowPath(p, first, e) }
        var exponent = dot < 0 ? 0 : dot + 1 - i
        if i < e, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < e, p[i] == UInt8(ascii: "-") {
                expNegative = true; i += 1
            } else if i < e, p[i] == UInt8(ascii: "+") {
                i += 1
            }
            var value = 0
            var any = false
            while i < e {
                let d = p[i] &- 48
                guard d < 10 else { break }
                any = true
                if value < 100_000 { value = value * 10 + Int(d) }
                i += 1
            }
            guard any else { return nil }
            exponent += expNegative ? -value : value
        }
        guard i == e else { return nil }
        guard digits <= 19 else { return slowPath(p, first, e) }
        if mantissa <= (1 << 53), exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= exactPowerOfTen(-exponent)
            } else if exponent > 0 {
                value *= exactPowerOfTen(exponent)
            }
            return negative ? -value : value
        }
        #if arch(x86_64) && !os(Windows)
            if exponent >= -27, exponent <= 27, let value = extendedPath(mantissa, exponent) {
                return negative ? -value : value
            }
        #endif
        return slowPath(p, first, e)
    }

    #if arch(x86_64) && !os(Windows)
        @usableFromInline
        static let extendedPowersOfTen: [Float80] = (0...27).map { k in
            var v: Float80 = 1
            for _ in 0..<k { v *= 10 }
            return v
        }

        /// The 17–19-digit significands phones write (Android's `Location` doubles printed in full) with an
        /// x87 80-bit intermediate: the significand and 10^k (k ≤ 27) are exact in 64 bits, so one operation
        /// gives the 64-bit correctly rounded quotient. Rounding that to 53 bits is the correctly rounded double
        /// unless the quotient sits within one 64-bit ulp of a halfway point between two doubles; those rare
        /// cases (about 3 in 2048) return `nil` and go to `strtod`.
        @usableFromInline
        static func extendedPath(_ mantissa: UInt64, _ exponent: Int) -> Double? {
            let m = Float80(mantissa)
            let r = exponent < 0 ? m / extendedPowersOfTen[-exponent] : m * extendedPowersOfTen[exponent]
            let dropped = r.significandBitPattern & 0x7FF
            guard dropped < 0x3FF || dropped > 0x401 else { return nil }
            return Double(r)
        }
    #endif

    /// 10^k for 0 ≤ k ≤ 22, the exactly representable powers of ten (10^22 for larger k: callers keep k in
    /// range). A switch rather than a table: no array bounds check or global access in the readers' loops.
    @usableFromInline @inline(__always)
    static func exactPowerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// `strtod` on a NUL-terminated stack copy: correct rounding for every input the fast path declines.
    @usableFromInline
    static func slowPath(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Double? {
        let length = end - start
        guard length > 0, length < 512 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
            for k in 0..<length { buffer[k] = CChar(bitPattern: p[start + k]) }
            buffer[length] = 0
            var endPointer: UnsafeMutablePointer<CChar>? = nil
            let value = strtod(buffer.baseAddress!, &endPointer)
            guard let endPointer, endPointer == buffer.baseAddress! + length else { return nil }
            return value
        }
    }

    /// Parses `p[start..<end]` (surrounding spaces ignored) as a decimal integer with an optional sign.
    /// Returns `nil` when empty, malformed or outside `Int64`.
    @inlinable
    public static func int(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int64? {
        var i = start
        var e = end
        while i < e, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        while e > i, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        guard i < e else { return nil }
        var negative = false
        if p[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if p[i] == UInt8(ascii: "+") { i += 1 }
        guard i < e else { return nil }
        var value: Int64 = 0
        while i < e {
            let d = p[i] &- 48
            guard d < 10 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(d))
            guard !o1, !o2 else { return nil }
            value = s
            i += 1
        }
        return negative ? -value : value
    }

    /// Parses a `String` as a double with the same rules as ``double(_:_:_:)``.
    public static func double(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { double(UnsafeRawBufferPointer($0), 0, $0.count) }
    }
}
