/// Decimal digits eight at a time in one 64-bit word (SWAR: SIMD within a register), shared by the CSV scanner's
/// fields (``CSVScan``) and the general number parser (``NumberParsing``).
///
/// A word is eight loaded bytes XOR `0x30` each, so that a digit byte holds 0…9 (the lowest-addressed byte is the
/// lowest on the little-endian machines TrueTrack runs on). The combining step is `fast_float`'s eight-digit
/// multiply-and-add: pairs, quads and the whole in three multiplications, each step's sums inside their 8-, 16- and
/// 32-bit fields.
@usableFromInline
enum SWARDigits {
    /// The number of leading (lowest-addressed) bytes of `x` that are digits: a byte above 9 gets its top bit set by
    /// adding 0x76; a carry out of a non-digit byte only disturbs the bytes after it.
    @inlinable @inline(__always)
    static func leadingDigitCount(_ x: UInt64) -> Int {
        let nonDigit = ((x &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
        return nonDigit.trailingZeroBitCount >> 3
    }

    /// The value of the first `count` digits of `x` (as in ``leadingDigitCount(_:)``), 0 ≤ count ≤ 8: the digits are
    /// shifted to the top and combined.
    @inlinable @inline(__always)
    static func value(_ x: UInt64, count: Int) -> UInt64 {
        // Masking shift (one instruction); a count of 0 would shift by 64, which `&<<` takes as 0: zero it.
        combine(count == 0 ? 0 : x &<< UInt64(64 &- 8 &* count))  // (`combine` returns 32 bits: no mask)
    }

    /// The value of eight ASCII digits loaded as a native 64-bit word, or `nil` when a byte is no digit. (Checked
    /// as a whole rather than by ``leadingDigitCount(_:)``: a byte is 0x30…0x39 exactly when its high nibble is 3
    /// before and after adding 6, two masks where the count's carry and bit scan cost `NumberParsing`'s readers
    /// 56-89 instructions per fix.)
    @inlinable @inline(__always)
    static func eightDigits(_ loaded: UInt64) -> UInt64? {
        let word = UInt64(littleEndian: loaded)
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        guard word & high == 0x3030_3030_3030_3030, (word &+ 0x0606_0606_0606_0606) & high == 0x3030_3030_3030_3030
        else { return nil }
        return combine(word &- 0x3030_3030_3030_3030)
    }

    /// The eight digits of `x` (each byte 0…9) as one number, in the low 32 bits.
    @inlinable @inline(__always)
    static func combine(_ x: UInt64) -> UInt64 {
        let v = x &* 10 &+ (x >> 8)
        let pairs: UInt64 = 0x0000_00FF_0000_00FF
        return ((v & pairs) &* (100 &+ (1_000_000 << 32)) &+ ((v >> 16) & pairs) &* (1 &+ (10_000 << 32))) >> 32
    }
}
