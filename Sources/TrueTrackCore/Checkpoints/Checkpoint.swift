/// Why a checkpoint was refused (``Tracker/init(resuming:)``, ``StopDetector/init(resuming:)``), with the byte
/// where the check failed. Nothing is loaded from refused bytes. Every case means "resume without it": a
/// tracker from the session's total and last fix time (``Tracker/restore(persistedTotalMetres:lastAccepted:)``),
/// a stop detector afresh.
public enum CheckpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Byte 0: the bytes do not start with the expected magic (not a checkpoint, or one of another component:
    /// `TTkc` for a tracker, `TTsd` for a stop detector).
    case notACheckpoint(expectedMagic: String)
    /// Byte 4: written in a format version this build does not read.
    case unsupportedFormat(found: UInt32, supported: UInt32)
    /// Byte 8: written by a build of TrueTrack whose component has other fields, or on a CPU of another byte
    /// order or word size.
    case differentLayout
    /// The checkpoint is shorter or longer than its contents need: `byteCount` bytes where `expected` were due.
    case wrongLength(byteCount: Int, expected: Int)
    /// Byte 16: the contents' checksum does not match, or contents that pass it do not fit (a stop detector's
    /// window count out of range, a checkpoint cut short): the bytes were damaged after they were written.
    case damaged
    /// Byte 24 (the contents): the state holds a value no fix this build accepts can produce: a running sum
    /// (`field`) not finite or beyond ``Tracker/plausibleRunningSumLimit``. Written by a build from before
    /// ``Fix/maximumSpeedMetresPerSecond`` after a speed of 1e20 m/s: its sums keep no digit of the metres, and a
    /// tracker resumed from them would hold every later fix on the net-displacement gate.
    case implausibleState(field: String)

    /// The byte offset in the checkpoint where the check failed.
    public var byteOffset: Int {
        switch self {
        case .notACheckpoint: 0
        case .unsupportedFormat: 4
        case .differentLayout: 8
        case .wrongLength(let count, let expected): min(count, expected)
        case .damaged: 16
        case .implausibleState: CheckpointFormat.headerByteCount
        }
    }

    /// What went wrong, where, and what to do.
    public var description: String {
        let what: String
        switch self {
        case .notACheckpoint(let magic): what = "not a checkpoint of this kind (no \(magic) magic)"
        case .unsupportedFormat(let found, let supported):
            what = "format \(found), this build reads format \(supported)"
        case .differentLayout:
            what = "written by another build of TrueTrack or on a CPU of another byte order or word size"
        case .wrongLength(let count, let expected): what = "\(count) bytes where \(expected) were due"
        case .damaged:
            what = "checksum mismatch or contents out of range: the checkpoint was damaged after it was written"
        case .implausibleState(let field):
            what = "its \(field) is beyond what any fix can add (written by an older build after an absurd speed)"
        }
        return "checkpoint byte \(byteOffset): \(what); resume without it (a tracker from the session's total "
            + "and last fix time, a new stop detector)"
    }
}

/// The format both checkpoints share: a 24-byte header, then the contents. Header fields are little-endian:
///
/// | bytes | field |
/// |---|---|
/// | 0–3 | magic: `TTkc` (``TrackerCheckpoint``), `TTsd` (``StopDetectorCheckpoint``) |
/// | 4–7 | format version (``formatVersion``) |
/// | 8–15 | layout fingerprint: the component's field names, types and sizes, the byte order and word size |
/// | 16–23 | FNV-1a 64 checksum of the contents |
/// | 24– | the contents: the raw bytes of `BitwiseCopyable` values |
///
/// The state bytes are the values' memory, padding included: two checkpoints of equal state can differ in a few
/// padding bytes (so `==` on checkpoints is not equality of state), and those bytes hold whatever the memory
/// held. The checksum detects damage, not forgery: contents rewritten with a recomputed checksum are loaded
/// as they are.
///
/// A checkpoint is meant for the device and the build that wrote it: raw values are not portable between byte
/// orders or word sizes, or between builds whose fields differ, and the fingerprint refuses all three (it holds
/// the byte order and word size, and every field's name, type and size). The checksum refuses damaged
/// bytes, so no value is ever loaded from bytes other than those a valid value was written as.
enum CheckpointFormat {
    /// The version of the header and of what the stored values mean; bumped when a change keeps a component's
    /// fields but changes what a stored value means (the fingerprint catches the rest).
    static let formatVersion: UInt32 = 1
    static let headerByteCount = 24

    /// A header for `magic` and `fingerprint`, with the checksum to be filled in by ``seal(_:)``.
    static func header(magic: StaticString, fingerprint: UInt64, reserving contents: Int) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(headerByteCount + contents)
        bytes += UnsafeBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount)
        append(formatVersion.littleEndian, to: &bytes)
        append(fingerprint.littleEndian, to: &bytes)
        append(UInt64(0), to: &bytes)
        return bytes
    }

    /// Appends a value's raw bytes.
    @inline(__always)
    static func append<T: BitwiseCopyable>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    /// Writes the contents' checksum into the header.
    static func seal(_ bytes: inout [UInt8]) {
        let checksum = fnv1a64(bytes[headerByteCount...])
        withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange(16..<24, with: $0) }
    }

    /// The contents of `bytes` once magic, format, fingerprint, length (when fixed) and checksum have passed.
    static func contents(
        of bytes: [UInt8], magic: StaticString, fingerprint: UInt64, contentsByteCount: Int? = nil
    ) throws(CheckpointError) -> ArraySlice<UInt8> {
        let expectedMagic = UnsafeBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount)
        guard bytes.count >= 4, bytes[0..<4].elementsEqual(expectedMagic) else {
            throw .notACheckpoint(expectedMagic: "\(magic)")
        }
        let due = headerByteCount + (contentsByteCount ?? 0)
        guard bytes.count >= headerByteCount else { throw .wrongLength(byteCount: bytes.count, expected: due) }
        func field<T: FixedWidthInteger>(at offset: Int, as _: T.Type) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        let version = field(at: 4, as: UInt32.self)
        guard version == formatVersion else { throw .unsupportedFormat(found: version, supported: formatVersion) }
        guard field(at: 8, as: UInt64.self) == fingerprint else { throw .differentLayout }
        if contentsByteCount != nil, bytes.count != due { throw .wrongLength(byteCount: bytes.count, expected: due) }
        let contents = bytes[headerByteCount...]
        guard field(at: 16, as: UInt64.self) == fnv1a64(contents) else { throw .damaged }
        return contents
    }

    /// A hash of the layout of `samples` as reflection sees it: every stored field's name, type and size, in
    /// order, recursively through structs, tuples, non-nil optionals and an array's first element, every case
    /// of a `CaseIterable` enum, with the byte order and word size. A component passes a value of itself and
    /// one non-nil value of each type it holds behind an optional (a default value's optionals are nil, and a
    /// nil shows only its size): then a field added, removed, reordered or retyped, or an enum case added or
    /// moved, changes the hash (a golden test pins each component's).
    static func layoutFingerprint(of samples: Any) -> UInt64 {
        fnv1a64(layoutDescription(of: samples).utf8)
    }

    /// The text ``layoutFingerprint(of:)`` hashes.
    static func layoutDescription(of samples: Any) -> String {
        var text = "\(UInt16(1).littleEndian == 1 ? "little" : "big")-endian \(MemoryLayout<Int>.size)-byte words; "
        describeLayout(of: samples, into: &text)
        return text
    }

    /// Appends `value`'s type and size, an enum's cases, and the layout of what it holds.
    private static func describeLayout(of value: Any, into text: inout String) {
        func size<T>(_: T) -> Int { MemoryLayout<T>.size }
        text += "\(String(reflecting: type(of: value))):\(size(value))"
        if let iterable = type(of: value) as? any CaseIterable.Type {
            func cases<C: CaseIterable>(_ type: C.Type) -> String {
                type.allCases.map { "\($0)" }.joined(separator: ",")
            }
            text += "[\(cases(iterable))]"
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct, .tuple, .optional:
            text += "{"
            for child in mirror.children {
                text += "\(child.label ?? "_")="
                describeLayout(of: child.value, into: &text)
                text += ";"
            }
            text += "}"
        case .collection:
            if let first = mirror.children.first {
                text += "<"
                describeLayout(of: first.value, into: &text)
                text += ">"
            }
        default:
            break
        }
    }

    /// FNV-1a, 64 bits: detects damaged bytes (not a defence against a forger: a checkpoint is the app's own
    /// file).
    static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// Reads raw values back from a checkpoint's contents, in the order they were appended.
struct CheckpointReader {
    private let bytes: ArraySlice<UInt8>
    private var offset: Int

    init(_ contents: ArraySlice<UInt8>) {
        bytes = contents
        offset = contents.startIndex
    }

    /// The next value; the contents' checksum has passed, so these are the bytes a valid value was written as.
    mutating func read<T: BitwiseCopyable>(_: T.Type = T.self) throws(CheckpointError) -> T {
        let size = MemoryLayout<T>.size
        guard bytes.endIndex - offset >= size else {
            throw .wrongLength(
                byteCount: bytes.count + CheckpointFormat.headerByteCount,
                expected: offset - bytes.startIndex + size + CheckpointFormat.headerByteCount)
        }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset - bytes.startIndex, as: T.self) }
        offset += size
        return value
    }

    /// Throws unless every byte was read.
    func finish() throws(CheckpointError) {
        guard offset == bytes.endIndex else {
            throw .wrongLength(
                byteCount: bytes.count + CheckpointFormat.headerByteCount,
                expected: offset - bytes.startIndex + CheckpointFormat.headerByteCount)
        }
    }
}
