import Glibc

/// The devices (trackers) a file's records name, in the order of their first record, with the fixes read of each
/// and whether ``ReadOptions/devices`` keeps each: how the CSV reader's device column and the JSON readers' device
/// member (Traccar's `deviceId`, Google's `deviceTag`…) pick one device from a fleet's export.
///
/// A record's device is found from its bytes without a `String` or an allocation unless it is new: first the
/// device of the record before (most records), then a hash of the bytes (10,000 vans in one export read at 0.05 M
/// fixes/s when each id was compared with every one seen, a performance tester's). Fixes are counted by device when
/// the device changes (the fixes produced since the change before), so a fix costs no count.
struct DeviceTable {
    /// The one device ``ReadOptions/devices`` keeps, if it names one.
    let wanted: String?
    /// The device IDs as text, in the order of their first record.
    private(set) var ids: [String] = []
    /// Their bytes as read.
    private var keys: [[UInt8]] = []
    /// The indices into ``keys`` by a hash of their bytes (several on a collision).
    private(set) var slots: [UInt64: [Int]] = [:]
    /// The bits of a device id's hash that pick its slot in ``slots``: all of them; a test sets fewer (0: one slot
    /// for every device) to force the collisions the whole id must then tell apart.
    var hashMask: UInt64 = .max
    /// The fixes each device gave before the current run of its records.
    private var fixes: [Int] = []
    /// Whether ``ReadOptions/devices`` keeps each device's records.
    private(set) var kept: [Bool] = []
    /// The device of the last record that named one (-1 before any), and the fixes produced before its run began.
    private(set) var last = -1
    private var fixesBeforeLast = 0

    /// An empty table for a reader whose options say `selection`.
    init(selection: DeviceSelection) {
        if case .only(let id) = selection { wanted = id } else { wanted = nil }
    }

    /// The devices with the fixes read of each, `fixesProduced` being the reader's count of fixes so far.
    func counts(fixesProduced: Int) -> [(id: String, fixes: Int)] {
        var fixes = fixes
        if last >= 0 { fixes[last] += fixesProduced - fixesBeforeLast }
        return zip(ids, fixes).map { (id: $0, fixes: $1) }
    }

    /// The index in ``ids`` of the device `p[s..<e]` (a new one is added), `fixesProduced` being the reader's count
    /// of fixes before this record's.
    mutating func index(of p: UnsafeRawPointer, _ s: Int, _ e: Int, fixesProduced: Int) -> Int {
        let count = e - s
        func matches(_ k: Int) -> Bool {
            keys[k].count == count && keys[k].withUnsafeBufferPointer { memcmp($0.baseAddress!, p + s, count) == 0 }
        }
        if last >= 0, matches(last) { return last }
        // Another device: the fixes since the last change were the last device's (this record's is not made yet).
        if last >= 0 { fixes[last] += fixesProduced - fixesBeforeLast }
        fixesBeforeLast = fixesProduced
        // FNV-1a over the id's bytes.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in s..<e { hash = (hash ^ UInt64(p.load(fromByteOffset: i, as: UInt8.self))) &* 0x0000_0100_0000_01b3 }
        hash &= hashMask
        if let known = slots[hash]?.first(where: matches) {
            last = known
            return known
        }
        let key = Array(UnsafeRawBufferPointer(start: p + s, count: count))
        let id = String(decoding: key, as: UTF8.self)
        slots[hash, default: []].append(keys.count)
        keys.append(key)
        ids.append(id)
        fixes.append(0)
        kept.append(wanted.map { $0 == id } ?? true)
        last = keys.count - 1
        return last
    }
}
