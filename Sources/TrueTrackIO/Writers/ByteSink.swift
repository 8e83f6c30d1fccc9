import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why writing failed: the path and the system's reason (a full disk, a closed pipe, a missing folder).
public enum WriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The output could not be opened or written.
    case io(path: String, message: String)
    /// The fix cannot be represented in the output format.
    case unrepresentable(path: String, reason: String)

    /// A one-line human message naming the output.
    public var description: String {
        switch self {
        case .io(let path, let message): "\(path): cannot write: \(message)"
        case .unrepresentable(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// A buffered byte output to a file, standard output or memory.
///
/// Writers format into ``buffer`` and the sink flushes it in 1 MiB writes; a failed write (a full disk)
/// throws ``WriteError`` with the path instead of losing data silently.
///
/// **A file appears whole or not at all.** A new file, or an existing regular file, is written under a
/// temporary name beside it and renamed over the path by ``close()``; a sink released without ``close()``
/// (a failed write, an abandoned output, ``discard()``) removes its temporary file and leaves whatever was at
/// the path untouched. A full disk used to leave a GPX cut off inside a `<time>` element, reported as "the
/// fixes before it were written". Anything else at the path (a symlink, a device such as `/dev/null`, a pipe, a
/// file with other hard links) is written through, never replaced.
public final class ByteSink {
    /// The output's name for error messages: the path, `<stdout>` or `<memory>`.
    public let name: String
    private let fileDescriptor: Int32
    private let closesDescriptor: Bool
    /// The temporary file renamed over ``name`` by ``close()``; `nil` when writing through (or once renamed).
    private var temporaryPath: String?
    /// Set by ``discard()``: nothing more is written.
    private var isDiscarded = false
    /// A written-through file not truncated yet (devices and pipes ignore the truncation).
    private var truncatesOnFirstWrite = false

    /// Empties a written-through file before its first write.
    private func truncateIfNeeded() {
        guard truncatesOnFirstWrite else { return }
        truncatesOnFirstWrite = false
        _ = ftruncate(fileDescriptor, 0)
    }
    /// Bytes formatted but not yet written. Writers append here directly.
    public var buffer: [UInt8] = []
    /// Everything written so far, for a memory sink (`nil` for files).
    public private(set) var memory: [UInt8]?
    private let flushThreshold = 1 << 20

    /// Creates (truncating) the file at `path`; `-` means standard output.
    public init(path: String) throws(WriteError) {
        if path == "-" {
            name = "<stdout>"
            fileDescriptor = 1
            closesDescriptor = false
        } else {
            name = path
            if let (fd, temporary) = ByteSink.temporaryFile(beside: path) {
                fileDescriptor = fd
                temporaryPath = temporary
            } else {
                // Truncated on the first write, not here: a discarded output leaves the target as it was.
                let fd = open(path, O_WRONLY | O_CREAT, 0o644)
                guard fd >= 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
                fileDescriptor = fd
                truncatesOnFirstWrite = true
            }
            closesDescriptor = true
        }
        buffer.reserveCapacity(flushThreshold + 4096)
        scratch = .allocate(capacity: ByteSink.recordCapacity)
    }

    /// Creates a sink that keeps everything in ``memory``.
    public init(memoryNamed name: String = "<memory>") {
        self.name = name
        fileDescriptor = -1
        closesDescriptor = false
        memory = []
        scratch = .allocate(capacity: ByteSink.recordCapacity)
    }

    deinit {
        scratch.deallocate()
        if closesDescriptor { closeDescriptor(fileDescriptor) }
        if let temporaryPath {
            unlink(temporaryPath)
            PartialOutputs.shared.remove(temporaryPath)
        }
    }

    /// A new temporary file beside `path` (same folder, so the rename stays on one file system), when `path`
    /// names nothing yet, or a regular file with one link that this process owns (user and group) and may
    /// write; `nil` otherwise or when the folder refuses a new file (then the path is written through, with
    /// the file system's own permission checks: a rename would replace a write-protected file, or another
    /// user's, and hand it to this one). The permissions are the existing file's (without set-user-ID,
    /// set-group-ID or sticky bits), or the default ones (`0666` less the umask, applied by `open`) for a new
    /// file. The temporary file is registered with ``PartialOutputs`` until renamed or removed.
    private static func temporaryFile(beside path: String) -> (Int32, String)? {
        var existing = stat()
        let exists = lstat(path, &existing) == 0
        if !exists && errno != ENOENT { return nil }
        if exists {
            guard (existing.st_mode & S_IFMT) == S_IFREG, existing.st_nlink == 1, existing.st_uid == geteuid(),
                existing.st_gid == getegid(), access(path, W_OK) == 0
            else { return nil }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for _ in 0..<8 {
            let candidate = "\(folder).\(base).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                if exists { _ = fchmod(fd, existing.st_mode & 0o777) }
                PartialOutputs.shared.insert(candidate)
                return (fd, candidate)
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    /// Whether the output appears whole or not at all: written under a temporary name and renamed by
    /// ``close()`` (a new file, or a regular file this process owns); `false` for memory, standard output and
    /// outputs written through (and once renamed or discarded).
    public var isWrittenAtomically: Bool { temporaryPath != nil }

    /// Gives up the output: a file being written under a temporary name is removed and the path left as it
    /// was (a written-through file, a symlink's target or standard output, keeps what was flushed before).
    /// Nothing more is written: later flushes and ``close()`` do nothing.
    public func discard() {
        isDiscarded = true
        buffer.removeAll()
        if let temporaryPath {
            unlink(temporaryPath)
            PartialOutputs.shared.remove(temporaryPath)
            self.temporaryPath = nil
        }
    }

    /// Appends the UTF-8 bytes of `text`.
    @inlinable
    public func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Runs `body` with the pending-bytes buffer: one exclusive access for a whole record instead of one
    /// per appended field (each access to a class's stored property is checked at run time).
    @inlinable
    public func withBuffer<Result>(_ body: (inout [UInt8]) -> Result) -> Result {
        body(&buffer)
    }

    /// Formats one record into the sink's scratch storage (``recordCapacity`` bytes) and appends it to ``buffer``
    /// at once (see ``RecordBytes``: a writer whose records have a known bound).
    /// Not re-entrant: a record formatted inside another would overwrite it in the one scratch (a reviewer's), so
    /// that traps.
    @inlinable
    public func appendRecord(_ body: (inout RecordBytes) -> Void) {
        precondition(!isFormattingRecord, "appendRecord called while a record is being formatted")
        isFormattingRecord = true
        defer { isFormattingRecord = false }
        var record = RecordBytes(start: scratch, capacity: ByteSink.recordCapacity)
        body(&record)
        buffer.append(contentsOf: UnsafeBufferPointer(start: scratch, count: record.next - scratch))
    }

    /// Whether ``appendRecord(_:)`` is formatting a record. (Unchecked access: only that method touches it, and the
    /// run-time exclusivity checks of a class's property cost `convert` 80 instructions per record.)
    @usableFromInline @exclusivity(unchecked) var isFormattingRecord = false

    /// The most bytes one ``appendRecord(_:)`` record may take (a CSV row of every field at its longest is under
    /// 700).
    @inlinable public static var recordCapacity: Int { 4096 }

    /// The storage ``appendRecord(_:)`` formats into (allocated once per sink, last in each initialiser: an
    /// initialiser that throws before it runs no `deinit`, and would leak it).
    @usableFromInline let scratch: UnsafeMutablePointer<UInt8>

    /// Writes the buffer out when it has grown past the flush threshold.
    @inlinable
    public func flushIfNeeded() throws(WriteError) {
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes everything buffered.
    public func flush() throws(WriteError) {
        guard !buffer.isEmpty else { return }
        if isDiscarded {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        truncateIfNeeded()
        if memory != nil {
            memory!.append(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
            return
        }
        let failure = buffer.withUnsafeBytes { ByteSink.writeAll($0, to: fileDescriptor) }
        if let failure { throw .io(path: name, message: String(cString: strerror(failure))) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` to `descriptor`, retrying short and interrupted writes and waiting on a
    /// non-blocking descriptor that is full (standard output left so by a parent); returns the `errno` of a
    /// failure (a full disk, a closed pipe), `nil` when everything was written. The loop behind every sink, and
    /// behind the command-line tool's standard output and error.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// Flushes everything buffered and, for a file written under a temporary name, renames it over the path:
    /// the output appears whole. A failed write (a full disk, a closed pipe) throws with the path and leaves the
    /// path as it was.
    ///
    /// The data is handed to the operating system, not forced to storage: exports are re-creatable, and
    /// an `fsync` per file cost more than the whole conversion of a 10 MB file on this machine. Durable
    /// storage of live fixes is the store's job (SQLite with a documented `synchronous` level).
    public func close() throws(WriteError) {
        try flush()
        if !isDiscarded { truncateIfNeeded() }  // an empty output still replaces what was there
        guard let temporary = temporaryPath else { return }
        guard rename(temporary, name) == 0 else {
            throw .io(path: name, message: "cannot rename \(temporary) over it: \(String(cString: strerror(errno)))")
        }
        PartialOutputs.shared.remove(temporary)
        temporaryPath = nil
    }
}

/// The temporary files of outputs being written (see ``ByteSink``), so that a process stopped by a signal
/// (Ctrl-C, `kill`) can remove them: otherwise each interrupted export leaves a `.NAME.PID-N.partial` file
/// beside its target, up to the size of the whole output.
///
/// Thread-safe (a mutex); ``removeAll()`` is meant for a signal *source* (a Dispatch queue), not for an
/// async-signal handler.
public final class PartialOutputs: @unchecked Sendable {
    /// The process's registry.
    public static let shared = PartialOutputs()
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Guarded by `mutex` (hence `@unchecked Sendable`).
    private var paths: Set<String> = []

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func insert(_ path: String) {
        pthread_mutex_lock(mutex)
        paths.insert(path)
        pthread_mutex_unlock(mutex)
    }

    func remove(_ path: String) {
        pthread_mutex_lock(mutex)
        paths.remove(path)
        pthread_mutex_unlock(mutex)
    }

    /// Removes every temporary file still being written (their targets are left as they were) and returns
    /// how many. For a process about to exit on a signal.
    @discardableResult
    public func removeAll() -> Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        for path in paths { unlink(path) }
        let count = paths.count
        paths.removeAll()
        return count
    }
}

/// Formats numbers for text outputs so that they read back to the identical value.
public enum NumberFormatting {
    /// Appends the shortest decimal text that reads back to exactly `value`, without a trailing `.0` for
    /// whole numbers.
    ///
    /// Fast path (no allocation), for magnitudes from 10⁻¹⁵: the fewest decimals `k` (1–15) for which
    /// `m = round(value × 10^k)` is below 2^53 and `m / 10^k` (one correctly rounded division, exactly what a
    /// reader computes for that text) gives `value` back — so the text is exact by construction, and in fixed
    /// notation. Recorded data (7-decimal coordinates, 1-decimal accuracies) always takes it. Anything else uses
    /// Swift's shortest round-trip `description` (see ``appendShortest(_:to:)``).
    ///
    /// The fewest decimals are found without trying each `k` in turn (see ``fewestDecimals(_:)``), and the
    /// rounding is a conversion to an integer rather than libm's `round`: a value of 16–17 significant digits
    /// (a filtered position) asked up to 15 divisions and 15 calls before it reached the fallback, now mostly 2.
    @inlinable
    public static func append(_ value: Double, to bytes: inout [UInt8]) {
        appendFormatted(to: &bytes) { put(value, into: &$0) }
    }

    /// ``append(_:to:)``'s text written into a record (see ``RecordBytes``).
    @inlinable
    static func put(_ value: Double, into record: inout RecordBytes) {
        let magnitude = abs(value)
        // (Whole numbers as integers; `magnitude < 1e15` also leaves NaN and ±∞ out.)
        if magnitude < 1e15 {
            let whole = Int64(value)
            if Double(whole) == value {
                putScaled(whole.magnitude, decimals: 0, negative: whole < 0, into: &record)
                return
            }
            // (Down to 10⁻¹⁵: a coordinate a few centimetres from 0, rounded to 10⁻⁷ degrees, printed as `-4e-07`,
            // which GPX's decimal type does not allow; a code reviewer.)
            if magnitude >= 1e-15 {
                let (m, k) = fewestDecimals(magnitude)
                if k > 0 {
                    putScaled(m, decimals: k, negative: value < 0, into: &record)
                    return
                }
            }
        }
        putShortest(value, into: &record)
    }

    /// Formats a short text (a number: at most 48 bytes) in a stack buffer and appends it at once (a byte at a
    /// time it cost a capacity and uniqueness check per digit).
    @inlinable
    static func appendFormatted(to bytes: inout [UInt8], _ format: (inout RecordBytes) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            var record = RecordBytes(start: base, capacity: buffer.count)
            format(&record)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: record.next - base))
        }
    }

    /// The fewest decimals `k` in 1…15 for which `m = round(magnitude × 10^k)` is below 2^53 and `m / 10^k`
    /// reads back as `magnitude`, with that `m`; `k` = 0 when there is none (`magnitude` is positive, finite,
    /// not whole). The same answer as trying `k` = 1, 2, … in turn, stopping at the first `m` of 2^53 or more:
    ///
    /// Let `kc` be a `k` with `magnitude × 10^kc` below 2^50. If some `k ≤ kc` reads back (`magnitude` is
    /// `m / 10^k` correctly rounded, relative error at most 2^-53), then `M = m × 10^(kc − k)` is within
    /// 2^50 × 2^-53 = 1/8 of `magnitude × 10^kc`, whose rounding adds at most 1/16: it rounds to `M`, and
    /// `M / 10^kc` is `m / 10^k` exactly, so `kc` reads back too — as does every `k` between. So one test at
    /// `kc` says whether any `k ≤ kc` does (if not, only the few above `kc` are left to try, as before), and
    /// the fewest is found by bisection.
    @inlinable
    static func fewestDecimals(_ magnitude: Double) -> (m: UInt64, decimals: Int) {
        // magnitude < 2^(e + 1), so magnitude × 10^k < 2^50 when k ≤ (49 − e) × log10(2).
        let e = Int(magnitude.exponent)
        let kc = min(e > 49 ? 0 : Int(Double(49 - e) * 0.301_029_995_663_981_2), 15)
        if kc > 0, let top = readBack(magnitude, decimals: kc) {
            // (One decimal first: a recorded accuracy or speed, which bisection would reach only in four more.)
            if kc > 1, let m = readBack(magnitude, decimals: 1) { return (m, 1) }
            var low = min(2, kc), high = kc, best = top
            while low < high {
                let middle = (low + high) / 2
                if let m = readBack(magnitude, decimals: middle) {
                    high = middle
                    best = m
                } else {
                    low = middle + 1
                }
            }
            return (best, high)
        }
        for k in stride(from: max(kc + 1, 1), through: 15, by: 1) {  // (none when kc is 15)
            guard magnitude * powerOfTen(k) < exactIntegerLimit else { break }
            if let m = readBack(magnitude, decimals: k) { return (m, k) }
        }
        return (0, 0)
    }

    /// `round(magnitude × 10^decimals)` (half away from zero) when it is below 2^53 and, divided by
    /// `10^decimals`, reads back as `magnitude`; nil otherwise.
    @inlinable @inline(__always)
    static func readBack(_ magnitude: Double, decimals: Int) -> UInt64? {
        let scale = powerOfTen(decimals)
        let scaled = magnitude * scale
        guard scaled < exactIntegerLimit else { return nil }
        // (Below 2^53 the fraction `scaled − truncated` is exact: rounding half away from zero without libm.)
        // (Signed conversions: one instruction each way, where `UInt64`'s take several.)
        let truncated = Int64(scaled)
        let m = scaled - Double(truncated) >= 0.5 ? truncated &+ 1 : truncated
        return Double(m) / scale == magnitude ? UInt64(m) : nil
    }

    /// 2^53: below it every integer is a `Double`, and `m / 10^k` is one correctly rounded division.
    @usableFromInline static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// 10^k for k in 0…15, exactly (every one is a `Double`).
    @inlinable @inline(__always)
    static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        default: return 1e15
        }
    }

    /// Appends Swift's shortest round-trip text of `value` (what `description` gives) without building a `String`:
    /// the standard library writes a `Double`'s digits from a stack buffer through `TextOutputStream._writeASCII`,
    /// which ``RecordBytes`` takes as bytes (`description` allocated a heap string for every value of 16 or more
    /// characters: 106 → 46 ns per value on 10⁶ coordinates of 16–17 digits; `truetrack process --decisions` of
    /// 10⁶ fixes 1.98 → 1.84 s, median of 5). The same text as `description` for every value but NaN, which takes
    /// `description` itself. Should a standard library not call `_writeASCII`, `write(_:)` receives the text as a
    /// string.
    @inlinable
    static func appendShortest(_ value: Double, to bytes: inout [UInt8]) {
        appendFormatted(to: &bytes) { putShortest(value, into: &$0) }
    }

    /// ``appendShortest(_:to:)``'s text written into a record.
    @inlinable
    static func putShortest(_ value: Double, into record: inout RecordBytes) {
        // (`write(to:)` spells a NaN's sign and payload, `-nan(0x1f…)`, where `description` writes `nan`: a test's
        // random bit patterns.)
        guard !value.isNaN else {
            record.put(value.description)
            return
        }
        value.write(to: &record)
    }

    /// Writes `m / 10^decimals` as fixed-point text (`m` has no trailing decimal zeros to trim; a leading `0.` and
    /// zero padding are written as needed; `decimals` in 0…15, 0 writing the integer `m` with no point): its
    /// length counted first, then the digits written backwards from its end.
    @inlinable
    static func putScaled(_ m: UInt64, decimals: Int, negative: Bool, into record: inout RecordBytes) {
        assert((0...15).contains(decimals), "decimals \(decimals) outside 0…15")
        var digits = 1, power: UInt64 = 10
        while digits < 20 && m >= power {
            digits &+= 1
            power &*= 10
        }
        // At most '-', the 20 digits of any UInt64 (with `decimals` of them after it) and '.': 22 bytes.
        let length = (negative ? 1 : 0) + (decimals > 0 ? max(digits, decimals + 1) + 1 : digits)
        record.reserve(length)
        var i = record.next + length
        var v = m
        @inline(__always) func digit() {
            i -= 1
            i.pointee = 48 &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        }
        if decimals > 0 {
            for _ in 0..<decimals { digit() }
            i -= 1
            i.pointee = UInt8(ascii: ".")
        }
        repeat { digit() } while v > 0
        if negative {
            i -= 1
            i.pointee = UInt8(ascii: "-")
        }
        record.next += length
    }

    /// Appends `m / 10^decimals` as fixed-point text (see ``putScaled(_:decimals:negative:into:)``).
    @inlinable
    static func appendScaled(_ m: UInt64, decimals: Int, negative: Bool, to bytes: inout [UInt8]) {
        appendFormatted(to: &bytes) { putScaled(m, decimals: decimals, negative: negative, into: &$0) }
    }

    /// Appends a decimal integer.
    @inlinable
    public static func append(_ value: Int64, to bytes: inout [UInt8]) {
        appendScaled(value.magnitude, decimals: 0, negative: value < 0, to: &bytes)
    }
}

/// Closes a file descriptor (the global `close`, which ``ByteSink/close()`` shadows inside the class).
@usableFromInline
func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// A streaming destination for fixes in one format.
public protocol FixWriter {
    /// Writes one fix (buffered).
    mutating func write(_ fix: Fix) throws(WriteError)
    /// Writes the format's closing text and flushes; the writer must not be used afterwards.
    mutating func finish() throws(WriteError)
}
