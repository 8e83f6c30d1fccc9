#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A set of names (byte strings: XML namespace prefixes, attribute names), each given an index in the order it was
/// first added, so that a caller keeps what it knows of a name in arrays of its own; found by hashing once there are
/// more than a few, so that adding or finding a name costs the same however many there are.
///
/// ``GPXReader`` searched its bound prefixes in order: a root element with 100,000 `xmlns:` declarations (2.6 MB) took
/// 17 s to read, and every prefixed element after it was slowed (a performance tester's). The few names of an
/// ordinary file are still compared in order (``linearLimit``: no hashing on the per-point path); past them, an
/// open-addressing table of `Hasher`'s (seeded per process, so that no file can be written to collide) finds them.
/// The names are copied one after another into one buffer: nothing is allocated per name but the buffers' growth.
struct XMLNameIndex {
    /// The names' bytes one after another.
    private var bytes: [UInt8] = []
    /// Where each name ends in ``bytes`` (it starts where the one before it ends), by index.
    private var ends: [Int] = []
    /// The hash table: the index of a name plus one in the slot its hash picks (or the next free one after it), 0 in
    /// a free slot; a power of two long, at most half full. Empty while there are at most ``linearLimit`` names.
    private var slots: [Int32] = []

    /// The number of names past which they are found by hashing (below it, comparing them in order is as quick).
    static let linearLimit = 8

    /// The number of names.
    var count: Int { ends.count }

    /// The number of bytes of all names together.
    var byteCount: Int { bytes.count }

    /// The index of the name `p[start..<end]`, `nil` when it was never added.
    @inline(__always)
    func index(of p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        if slots.isEmpty {
            // (The names one after another, compared by length first: as quick as the arrays of the reader before.)
            let length = end - start
            var nameStart = 0
            for k in 0..<ends.count {
                let nameEnd = ends[k]
                if nameEnd - nameStart == length,
                    length == 0
                        || bytes.withUnsafeBytes({
                            memcmp($0.baseAddress! + nameStart, p.baseAddress! + start, length) == 0
                        })
                {
                    return k
                }
                nameStart = nameEnd
            }
            return nil
        }
        return hashedIndex(of: p, start, end)
    }

    /// ``index(of:_:_:)`` through the hash table.
    @inline(never)
    private func hashedIndex(of p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        let mask = slots.count - 1
        var s = XMLNameIndex.hash(UnsafeRawBufferPointer(rebasing: p[start..<end])) & mask
        while true {
            let entry = Int(slots[s])
            if entry == 0 { return nil }
            if holds(entry - 1, p, start, end) { return entry - 1 }
            s = (s + 1) & mask
        }
    }

    /// Adds the name `p[start..<end]`, which ``index(of:_:_:)`` does not find, and returns its index.
    @discardableResult
    mutating func append(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int {
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: p[start..<end]))
        ends.append(bytes.count)
        let k = ends.count - 1
        if slots.isEmpty {
            if ends.count > XMLNameIndex.linearLimit { rehash(slotCount: 64) }
        } else if 2 * ends.count > slots.count {
            rehash(slotCount: 2 * slots.count)
        } else {
            insert(k)
        }
        return k
    }

    /// Forgets every name (keeping the buffers, but not a hash table: clearing one costs its size, not the names').
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        slots = []
    }

    /// True when the name at `index` is `p[start..<end]`.
    @inline(__always)
    private func holds(_ index: Int, _ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        let nameStart = index > 0 ? ends[index - 1] : 0
        let nameEnd = ends[index]
        guard nameEnd - nameStart == end - start else { return false }
        var k = 0
        while nameStart + k < nameEnd {
            if bytes[nameStart + k] != p[start + k] { return false }
            k += 1
        }
        return true
    }

    /// Builds a hash table of `slotCount` slots (a power of two) holding every name.
    private mutating func rehash(slotCount: Int) {
        slots = [Int32](repeating: 0, count: slotCount)
        for k in 0..<ends.count { insert(k) }
    }

    /// Puts the name at `index` in the hash table (which has room for it).
    private mutating func insert(_ index: Int) {
        let nameStart = index > 0 ? ends[index - 1] : 0
        let mask = slots.count - 1
        var s =
            bytes.withUnsafeBytes {
                XMLNameIndex.hash(UnsafeRawBufferPointer(rebasing: $0[nameStart..<ends[index]]))
            }
            & mask
        while slots[s] != 0 { s = (s + 1) & mask }
        slots[s] = Int32(index + 1)
    }

    /// The hash of a name's bytes.
    private static func hash(_ name: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: name)
        return hasher.finalize()
    }
}
