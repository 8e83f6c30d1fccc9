/// Walks the `;`-separated fields of one line of an IPIN "GetSensorData" log, left to right, without copying.
struct IPINFields {
    let bytes: UnsafeRawBufferPointer
    private var position: Int
    private let end: Int
    private var exhausted = false
    /// Number of fields returned so far.
    private(set) var count = 0

    /// Starts at byte `start` of a line ending at `end`.
    init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        self.bytes = bytes
        position = start
        self.end = end
    }

    /// The next field's byte range `(start, end)`, or `nil` after the last field.
    @inline(__always)
    mutating func next() -> (start: Int, end: Int)? {
        guard !exhausted else { return nil }
        let s = position
        let j = SeparatorScan.next(UInt8(ascii: ";"), in: bytes, from: s, to: end)
        if j >= end { exhausted = true } else { position = j &+ 1 }
        count &+= 1
        return (s, j)
    }

    /// True when the line starts with the four-letter record tag `tag` followed by `;`.
    static func hasTag(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ tag: StaticString) -> Bool {
        guard end - start >= 5, p[start + 4] == UInt8(ascii: ";") else { return false }
        let t = tag.utf8Start
        return p[start] == t[0] && p[start + 1] == t[1] && p[start + 2] == t[2] && p[start + 3] == t[3]
    }

}
