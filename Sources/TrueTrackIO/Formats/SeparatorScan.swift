/// Finding the next field separator in a line, eight bytes at a time.
///
/// The delimited recorder logs (GnssLogger, IPIN, GeoLife) are scanned whole, field by field, so this search is
/// a large share of reading them; a word-at-a-time test (SWAR, "does this word contain byte x") does it in a
/// few instructions per eight bytes instead of a compare-and-branch per byte.
enum SeparatorScan {
    /// True when `p[s..<e]` holds only spaces and tabs (an empty field is blank too).
    @inline(__always)
    static func isBlank(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Bool {
        var i = s
        while i < e {
            if p[i] != 0x20, p[i] != 0x09 { return false }
            i += 1
        }
        return true
    }

    /// The index of the first `separator` in `p[start..<end]`, or `end` when there is none.
    @inline(__always)
    static func next(_ separator: UInt8, in p: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var j = start
        if let base = p.baseAddress {
            let pattern = UInt64(separator) &* 0x0101_0101_0101_0101
            while j &+ 8 <= end {
                let x = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: j, as: UInt64.self)) ^ pattern
                // The lowest byte of x that is zero sets its high bit here (higher bytes may be false positives,
                // which is why only the lowest set bit is used).
                let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if found != 0 { return j &+ found.trailingZeroBitCount &>> 3 }
                j &+= 8
            }
        }
        while j < end, p[j] != separator { j &+= 1 }
        return j
    }
}
