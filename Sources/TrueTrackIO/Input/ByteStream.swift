#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A forward-only window over the bytes of a file, standard input or memory, refilled in fixed chunks.
///
/// Every reader in TrueTrackIO sits on one of these: memory stays at one chunk (1 MiB by default) plus the
/// longest record, whatever the size of the input, which is how a 1 GB file streams in a few megabytes.
/// Unsafe pointer work is confined to this type; readers see bytes through ``window`` and offsets.
///
/// The class owns its buffer and file descriptor (a class only because it owns a resource); it is not
/// thread-safe and not `Sendable`: one reader, one stream.
public final class ByteStream {
    /// The input's name for error messages: the path, `<stdin>` or `<memory>`.
    public let name: String
    private var fileDescriptor: Int32
    private let closesDescriptor: Bool
    // (The cursor's fields are `@exclusivity(unchecked)`: a class's stored properties are checked at run time on
    // every modify, and `nextLine()` paid three checks a line, about 230 instructions, 4.7 % of reading JSON Lines.
    // A stream has one reader and never calls out while it holds an access, so no access can overlap.)
    @exclusivity(unchecked) private var storage: UnsafeMutableRawBufferPointer
    /// Index in the buffer of the first byte not yet consumed.
    @exclusivity(unchecked) public private(set) var start: Int = 0
    /// Index in the buffer one past the last valid byte.
    @exclusivity(unchecked) public private(set) var end: Int = 0
    /// True once the source has no more bytes to give (the buffer may still hold unconsumed ones).
    public private(set) var sourceExhausted: Bool = false
    /// Absolute input offset of buffer index 0.
    @exclusivity(unchecked) private var bufferBase: Int = 0
    /// Number of lines returned so far by ``nextLine()`` (so the last one returned has this number).
    @exclusivity(unchecked) public private(set) var lineNumber: Int = 0
    /// Upper bound on one record (line or element); a longer one is an error rather than unbounded memory.
    public let maximumRecordBytes: Int

    /// Default chunk size: large enough that `read(2)` overhead vanishes, small enough to stay in L2/L3.
    public static let defaultChunkBytes = 1 << 20
    /// Default record limit (16 MiB): far above any real line, well below memory trouble.
    public static let defaultMaximumRecordBytes = 16 << 20

    /// Opens the file at `path` (`-` means standard input).
    ///
    /// - Throws: ``ReadError/io(path:message:)`` when it cannot be opened.
    public init(
        path: String, chunkBytes: Int = ByteStream.defaultChunkBytes,
        maximumRecordBytes: Int = ByteStream.defaultMaximumRecordBytes
    ) throws(ReadError) {
        if path == "-" {
            name = "<stdin>"
            fileDescriptor = 0
            closesDescriptor = false
        } else {
            name = path
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw .io(path: path, message: "is a directory")
            }
            fileDescriptor = fd
            closesDescriptor = true
        }
        self.maximumRecordBytes = maximumRecordBytes
        storage = .allocate(byteCount: max(chunkBytes, 64), alignment: 16)
    }

    /// Wraps bytes already in memory (tests, fuzzing, data received over the network).
    public init(
        bytes: some Collection<UInt8>, name: String = "<memory>",
        maximumRecordBytes: Int = ByteStream.defaultMaximumRecordBytes
    ) {
        self.name = name
        fileDescriptor = -1
        closesDescriptor = false
        self.maximumRecordBytes = maximumRecordBytes
        storage = .allocate(byteCount: max(bytes.count, 1), alignment: 16)
        UnsafeMutableRawBufferPointer(rebasing: storage[0..<bytes.count]).copyBytes(from: bytes)
        end = bytes.count
        sourceExhausted = true
        _ = checkByteOrderMark()
        normaliseLineEndings()
    }

    /// The absolute offset up to which carriage returns have been dealt with (see ``normaliseLineEndings()``).
    private var carriageReturnScanOffset = 0

    /// Turns every lone CR (one not followed by an LF) into an LF as it is read, so that every reader, each of
    /// which scans for LF, reads lines however the file ends them: classic Mac OS files (a CSV was read as one
    /// long header line, "missing: longitude") and files whose endings an editor mixed (a GnssLogger log lost a
    /// third of its rows without a word). A CRLF is left as it is (readers drop the CR before an LF); byte
    /// offsets do not change. A CR that ends the bytes read so far waits for the next read: it may be a CRLF
    /// split across two reads (one that ends the input is left as it is: every reader drops a CR ending the
    /// last line).
    private func normaliseLineEndings() {
        let p = storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let resume = ByteStream.endLinesAtLoneCarriageReturns(
            p, from: max(start, carriageReturnScanOffset - bufferBase), to: end, isFinal: sourceExhausted)
        carriageReturnScanOffset = bufferBase + resume
    }

    /// Turns every lone CR (one not followed by an LF) in `p[from..<end]` into an LF, and returns where to go on
    /// from next time: `end`, or the index of a CR that ends the bytes while more may follow (`isFinal` false: it
    /// may be the first half of a CRLF). A CR that ends final bytes is left as it is (readers drop a CR ending
    /// the last line). Shared by the stream and the format sniffer, so both see the same lines.
    static func endLinesAtLoneCarriageReturns(
        _ p: UnsafeMutablePointer<UInt8>, from: Int, to end: Int, isFinal: Bool
    ) -> Int {
        var i = from
        while i < end, let hit = memchr(p + i, 0x0D, end - i) {
            let cr = UnsafeMutableRawPointer(p).distance(to: hit)
            if cr + 1 < end {
                if p[cr + 1] != 0x0A { p[cr] = 0x0A }
                i = cr + 1
            } else {
                return isFinal ? end : cr
            }
        }
        return end
    }

    /// Whether the start of the input was checked for a byte-order mark.
    private var checkedByteOrderMark = false
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Looks once at the first bytes of the input for a UTF-8 byte-order mark (`EF BB BF`, which Windows tools
    /// write before CSV, JSON and XML) and consumes it, so that no reader sees it (a GeoJSON file with one was
    /// refused at byte 0, a JSON Lines file read no fix, an NMEA log lost its first sentence). Byte offsets stay
    /// those of the file. Returns `true` while fewer than three bytes are in and they could still begin one (a
    /// pipe can deliver its first bytes alone): the caller reads on before deciding.
    private func checkByteOrderMark() -> Bool {
        guard !checkedByteOrderMark, bufferBase == 0, start == 0 else { return false }
        let p = storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let seen = min(end, 3)
        let matches = (0..<seen).allSatisfy { p[$0] == ByteStream.byteOrderMark[$0] }
        if matches && seen < 3 { return true }
        checkedByteOrderMark = true
        if matches { start = 3 }
        return false
    }

    deinit {
        storage.deallocate()
        if closesDescriptor { close(fileDescriptor) }
    }

    /// The buffer; valid bytes are `window[start..<end]`. Invalidated by ``refill()``.
    @inlinable
    public var window: UnsafeRawBufferPointer { UnsafeRawBufferPointer(_storage) }

    @usableFromInline
    var _storage: UnsafeMutableRawBufferPointer { storage }

    /// The absolute input offset of buffer index `index`.
    @inlinable
    public func offset(ofIndex index: Int) -> Int { _bufferBase + index }

    @usableFromInline
    var _bufferBase: Int { bufferBase }

    /// Total bytes consumed so far.
    public var bytesConsumed: Int { bufferBase + start }

    /// Marks the buffer bytes before `index` as consumed.
    @inlinable
    public func consume(upTo index: Int) {
        precondition(index <= end, "consume(upTo:) past the window")
        // (An index before `start` is a no-op: a reader that began at 0 before a byte-order mark was consumed.)
        if index > start { _setStart(index) }
    }

    @usableFromInline
    func _setStart(_ index: Int) { start = index }

    /// Adds `count` to the line counter (for readers that scan several lines at once, such as XML).
    public func countLines(_ count: Int) { lineNumber += count }

    /// Moves the unconsumed bytes to the front of the buffer and reads more from the source.
    ///
    /// Grows the buffer (doubling) when the unconsumed bytes already fill it, up to ``maximumRecordBytes``.
    /// - Returns: `false` when the source had nothing more to give.
    /// - Throws: ``ReadError/recordTooLong(_:limitBytes:)`` past the record limit, ``ReadError/io(path:message:)``
    ///   on a read failure.
    @discardableResult
    public func refill() throws(ReadError) -> Bool {
        if sourceExhausted { return false }
        let pending = end - start
        if start > 0 {
            if pending > 0 {
                storage.baseAddress!.copyMemory(from: storage.baseAddress! + start, byteCount: pending)
            }
            bufferBase += start
            start = 0
            end = pending
        }
        if end == storage.count {
            guard storage.count < maximumRecordBytes else {
                throw .recordTooLong(
                    SourceLocation(file: name, line: lineNumber + 1, byteOffset: bufferBase),
                    limitBytes: maximumRecordBytes)
            }
            let bigger = UnsafeMutableRawBufferPointer.allocate(
                byteCount: min(storage.count * 2, maximumRecordBytes),
                alignment: 16)
            bigger.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: end)
            storage.deallocate()
            storage = bigger
        }
        var readSome = false
        while true {
            let n = read(fileDescriptor, storage.baseAddress! + end, storage.count - end)
            if n > 0 {
                end += n
                readSome = true
                normaliseLineEndings()
                if checkByteOrderMark() { continue }
                return true
            }
            if n == 0 {
                sourceExhausted = true
                normaliseLineEndings()  // a last CR that was waiting for a following byte
                return readSome
            }
            if errno == EINTR { continue }
            throw .io(path: name, message: String(cString: strerror(errno)))
        }
    }

    /// A line of text inside the window: valid until the next call on the stream.
    public struct Line {
        /// The buffer the line lives in.
        public var bytes: UnsafeRawBufferPointer
        /// Index of the first byte of the line.
        public var start: Int
        /// Index one past the last byte (line terminator and a trailing `\r` excluded).
        public var end: Int
        /// 1-based line number.
        public var number: Int
        /// Absolute byte offset of the line's first byte.
        public var byteOffset: Int

        /// True when the line has no bytes.
        @inlinable public var isEmpty: Bool { start == end }
        /// The line's length in bytes.
        @inlinable public var count: Int { end - start }
        /// The line as a `String` (invalid UTF-8 repaired), for messages and slow paths.
        public var text: String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// The error for a malformed field at bytes `start..<end` of this line of `file`: where (line, column,
        /// byte), which field, what was expected, and the bytes that were there.
        func malformedField(in file: String, _ start: Int, _ end: Int, field: String, expected: String) -> ReadError {
            .malformedField(
                location(file: file, at: start), field: field, expected: expected,
                found: ReadError.quote(bytes, start, end))
        }

        /// The location of byte index `index` of this line (for errors).
        public func location(file: String, at index: Int? = nil) -> SourceLocation {
            let column = index.map { $0 - start + 1 } ?? 0
            return SourceLocation(
                file: file, line: number, column: column,
                byteOffset: byteOffset + (index.map { $0 - start } ?? 0))
        }
    }

    /// Returns the next line (without its `\n` or `\r\n`), or `nil` at the end of input.
    ///
    /// A final line without a terminator is returned too.
    public func nextLine() throws(ReadError) -> Line? {
        while true {
            if start < end {
                let base = storage.baseAddress!
                if let hit = memchr(base + start, 0x0A, end - start) {
                    let newline = base.distance(to: hit)
                    var lineEnd = newline
                    if lineEnd > start, storage[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                    let line = Line(
                        bytes: UnsafeRawBufferPointer(storage), start: start, end: lineEnd,
                        number: lineNumber + 1, byteOffset: bufferBase + start)
                    lineNumber += 1
                    start = newline + 1
                    return line
                }
            }
            if try refill() { continue }
            guard start < end else { return nil }
            var lineEnd = end
            if storage[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = Line(
                bytes: UnsafeRawBufferPointer(storage), start: start, end: lineEnd,
                number: lineNumber + 1, byteOffset: bufferBase + start)
            lineNumber += 1
            start = end
            return line
        }
    }

    /// Ensures at least `count` unconsumed bytes are in the window unless the source ends first.
    /// - Returns: the number of unconsumed bytes available.
    @discardableResult
    public func ensure(_ count: Int) throws(ReadError) -> Int {
        while end - start < count {
            if !(try refill()) { break }
        }
        return end - start
    }
}
