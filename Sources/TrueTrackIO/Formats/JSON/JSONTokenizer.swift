/// An incremental, validating JSON (RFC 8259) tokenizer over a ``ByteStream`` or over one line of one.
///
/// Pull tokens with ``next()``: the tokenizer checks the grammar as it goes (commas, colons, matched
/// brackets, string escapes, the number syntax), so a consumer that only reacts to the tokens it knows can
/// skip everything else with ``skip(_:)`` and still rejects malformed input. Nothing is built: memory is one
/// ``ByteStream`` chunk plus the longest single token and a nesting bitmap, whatever the document size, so a
/// 1 GB FeatureCollection streams in a few megabytes.
///
/// - The bytes of the last ``Token/key``, ``Token/string`` or ``Token/number`` are
///   `bytes[valueStart..<valueEnd]`, valid until the next call. Strings are unescaped in place (escapes
///   only ever shrink), `\uXXXX` surrogate pairs become one UTF-8 scalar and a lone surrogate becomes
///   U+FFFD; other bytes are passed through without UTF-8 validation.
/// - Positions: every token records its 1-based line and column (in bytes) and its byte offset, and every
///   error carries them (``tokenLocation``).
/// - Nesting deeper than ``maximumDepth`` is an error, not a stack overflow: the tokenizer never recurses.
///
/// Not `Sendable` (it holds a ``ByteStream``): one reader, one tokenizer.
public struct JSONTokenizer {
    /// One lexical element of a JSON text.
    public enum Token: UInt8, Sendable, Hashable {
        /// `{`
        case beginObject
        /// `}`
        case endObject
        /// `[`
        case beginArray
        /// `]`
        case endArray
        /// A member name (its unescaped bytes are `bytes[valueStart..<valueEnd]`).
        case key
        /// A string value (its unescaped bytes are `bytes[valueStart..<valueEnd]`).
        case string
        /// A number (its text is `bytes[valueStart..<valueEnd]`, see ``JSONTokenizer/number()``).
        case number
        /// `true`
        case `true`
        /// `false`
        case `false`
        /// `null`
        case null
        /// The end of the input (or of the line, for a line tokenizer) after one complete value.
        case end
    }

    /// Default nesting limit, 512 arrays or objects: GeoJSON needs at most 6 (collection, feature,
    /// geometry, polygon rings, positions), and 512 is what common parsers (CPython, Rust's serde_json
    /// uses 128) allow, so no legitimate document is refused while a `[[[[…` bomb fails fast.
    public static let defaultMaximumDepth = 512

    enum State: UInt8 {
        /// Expecting a value (document start, after `:` or after `,` in an array).
        case value
        /// Just after `[`: a value or `]`.
        case valueOrEnd
        /// Just after `{`: a member name or `}`.
        case keyOrEnd
        /// After `,` in an object: a member name.
        case key
        /// After a member name.
        case colon
        /// After a value inside a container: `,` or the closing bracket.
        case commaOrEnd
        /// The top-level value is complete: only whitespace may follow.
        case done
    }

    /// The input's name for error messages.
    public let name: String
    /// The deepest nesting of arrays and objects accepted.
    public let maximumDepth: Int
    let stream: ByteStream?
    /// The buffer holding the current token (``ByteStream/window`` or the line's buffer).
    var p: UnsafeRawBufferPointer
    /// Index of the next byte to examine.
    var i: Int
    /// Index one past the last valid byte.
    var n: Int
    /// Absolute input offset of buffer index 0.
    var base: Int
    /// Current 1-based line and the absolute offset of its first byte.
    var line: Int
    var lineStart: Int
    var state: State = .value
    /// Number of open arrays and objects.
    public private(set) var depth: Int = 0
    /// Bit `d` set when the container at depth `d + 1` is an object.
    var objectBits: [UInt64]
    /// True for a line tokenizer (errors say "end of line").
    let isLineMode: Bool
    /// Whether another JSON value may follow a complete one (a sequence of values, as `jq` prints records, each
    /// separated by whitespace or an RFC 7464 record separator): an object or array after a complete value begins
    /// the next instead of being an error. Off by default (one JSON text); ``GeoJSONReader`` turns it on.
    public var readsValueSequence = false

    /// Start of the last key, string or number token's bytes in ``bytes``.
    public private(set) var valueStart: Int = 0
    /// End (exclusive) of the last key, string or number token's bytes in ``bytes``.
    public private(set) var valueEnd: Int = 0
    /// Absolute byte offset of the last token's first byte.
    public private(set) var tokenOffset: Int = 0
    /// 1-based line of the last token (a token never spans lines, and the line counter only moves while
    /// whitespace is skipped inside ``next()``, so it is still the token's line).
    public var tokenLine: Int { line }
    /// 1-based column (in bytes) of the last token.
    public var tokenColumn: Int { tokenOffset - lineStart + 1 }
    /// The value of the last ``Token/number`` when the scan could compute it exactly (see ``number()``).
    var scannedNumber: Double = 0
    /// True when ``scannedNumber`` holds the last token's value.
    var hasScannedNumber = false

    /// Creates a tokenizer reading one JSON text from `stream`.
    ///
    /// - Parameter maximumDepth: the deepest nesting accepted (default ``defaultMaximumDepth``).
    public init(stream: ByteStream, maximumDepth: Int = JSONTokenizer.defaultMaximumDepth) {
        self.stream = stream
        self.name = stream.name
        self.maximumDepth = max(1, maximumDepth)
        p = stream.window
        i = stream.start
        n = stream.end
        base = stream.offset(ofIndex: 0)
        line = 1
        lineStart = stream.bytesConsumed
        objectBits = [UInt64](repeating: 0, count: self.maximumDepth / 64 + 1)
        isLineMode = false
    }

    /// Creates a tokenizer for single lines (JSON Lines): call ``reset(line:)`` before each line.
    public init(lineSourceNamed name: String, maximumDepth: Int = JSONTokenizer.defaultMaximumDepth) {
        self.stream = nil
        self.name = name
        self.maximumDepth = max(1, maximumDepth)
        p = UnsafeRawBufferPointer(start: nil, count: 0)
        i = 0
        n = 0
        base = 0
        line = 1
        lineStart = 0
        objectBits = [UInt64](repeating: 0, count: self.maximumDepth / 64 + 1)
        isLineMode = true
    }

    /// Starts tokenizing `line` as one JSON text (the line's bytes must stay valid while it is read).
    public mutating func reset(line text: ByteStream.Line) {
        p = text.bytes
        i = text.start
        n = text.end
        base = text.byteOffset - text.start
        line = text.number
        lineStart = text.byteOffset
        state = .value
        depth = 0
    }

    /// The buffer the current token's bytes live in (see ``valueStart`` and ``valueEnd``).
    public var bytes: UnsafeRawBufferPointer { p }

    /// Absolute input offset of the next byte to read (bytes consumed so far).
    public var offset: Int { base + i }

    /// The place of the last token, for errors.
    public var tokenLocation: SourceLocation {
        SourceLocation(file: name, line: tokenLine, column: tokenColumn, byteOffset: tokenOffset)
    }

    /// The last token's bytes as a `String` (for messages and tests, not for the hot path).
    public var text: String {
        String(decoding: UnsafeRawBufferPointer(rebasing: p[valueStart..<valueEnd]), as: UTF8.self)
    }

    /// Parses the last ``Token/number`` (or a string holding a number) as a `Double`: correctly rounded,
    /// `±infinity` beyond the `Double` range (`1e400`), `nil` for text that is not a number.
    public func number() -> Double? {
        if hasScannedNumber { return scannedNumber }
        return NumberParsing.double(p, valueStart, valueEnd)
    }

    // MARK: - Tokens

    /// Returns the next token.
    ///
    /// - Throws: ``ReadError/malformedRecord(_:expected:found:)`` at a byte the grammar does not allow there
    ///   (or nesting deeper than ``maximumDepth``), ``ReadError/truncated(_:expected:)`` when the input ends
    ///   inside a value, and the stream's I/O errors.
    public mutating func next() throws(ReadError) -> Token {
        var k = i
        var keep = i
        while true {
            guard let b = try peek(&k, keeping: &keep) else {
                i = k
                return try endOfInput()
            }
            switch b {
            case 0x20, 0x09, 0x0D:
                k += 1
                keep = k
                continue
            case 0x0A:
                k += 1
                keep = k
                line += 1
                lineStart = base + k
                continue
            case 0x1E where readsValueSequence && depth == 0:
                k += 1  // an RFC 7464 record separator between values
                keep = k
                continue
            default:
                break
            }
            tokenOffset = base + k
            switch state {
            case .value, .valueOrEnd:
                switch b {
                case UInt8(ascii: "{"):
                    try push(isObject: true, at: k)
                    i = k + 1
                    state = .keyOrEnd
                    return .beginObject
                case UInt8(ascii: "["):
                    try push(isObject: false, at: k)
                    i = k + 1
                    state = .valueOrEnd
                    return .beginArray
                case UInt8(ascii: "\""):
                    i = k
                    try scanString()
                    afterValue()
                    return .string
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    i = k
                    try scanNumber()
                    afterValue()
                    return .number
                case UInt8(ascii: "t"):
                    i = k
                    try scanLiteral("true")
                    afterValue()
                    return .true
                case UInt8(ascii: "f"):
                    i = k
                    try scanLiteral("false")
                    afterValue()
                    return .false
                case UInt8(ascii: "n"):
                    i = k
                    try scanLiteral("null")
                    afterValue()
                    return .null
                case UInt8(ascii: "]") where state == .valueOrEnd:
                    i = k + 1
                    depth -= 1
                    afterValue()
                    return .endArray
                default:
                    i = k
                    throw unexpected(at: k, expected: state == .valueOrEnd ? "a JSON value or ']'" : "a JSON value")
                }
            case .keyOrEnd, .key:
                if b == UInt8(ascii: "\"") {
                    i = k
                    try scanString()
                    state = .colon
                    return .key
                }
                if b == UInt8(ascii: "}"), state == .keyOrEnd {
                    i = k + 1
                    depth -= 1
                    afterValue()
                    return .endObject
                }
                i = k
                throw unexpected(
                    at: k,
                    expected: state == .keyOrEnd
                        ? "a member name in double quotes or '}'"
                        : "a member name in double quotes")
            case .colon:
                guard b == UInt8(ascii: ":") else {
                    i = k
                    throw unexpected(at: k, expected: "':' after the member name")
                }
                k += 1
                keep = k
                state = .value
            case .commaOrEnd:
                let inObject = topIsObject
                if b == UInt8(ascii: ",") {
                    k += 1
                    keep = k
                    state = inObject ? .key : .value
                    continue
                }
                if b == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i = k + 1
                    depth -= 1
                    afterValue()
                    return inObject ? .endObject : .endArray
                }
                i = k
                throw unexpected(at: k, expected: inObject ? "',' or '}'" : "',' or ']'")
            case .done:
                if readsValueSequence && (b == UInt8(ascii: "{") || b == UInt8(ascii: "[")) {
                    state = .value
                    continue
                }
                i = k
                throw unexpected(
                    at: k,
                    expected: isLineMode
                        ? "the end of the line after the JSON value"
                        : readsValueSequence
                            ? "another JSON object or array, or the end of the input, after the JSON value"
                            : "the end of the input after the JSON value")
            }
        }
    }

    /// Skips the rest of the value that `token` began: the whole array or object for ``Token/beginObject``
    /// and ``Token/beginArray`` (validating it), nothing for a scalar.
    ///
    /// - Complexity: O(bytes skipped), constant memory (no recursion).
    public mutating func skip(_ token: Token) throws(ReadError) {
        guard token == .beginObject || token == .beginArray else { return }
        let target = depth - 1
        while depth > target {
            _ = try next()
        }
    }

    // MARK: - Scanning

    /// Returns the byte at `k`, refilling the window when needed (indexes `k` and `keep` are rebased so
    /// that bytes from `keep` on stay in the window); `nil` at the true end of the input.
    @inline(__always)
    mutating func peek(_ k: inout Int, keeping keep: inout Int) throws(ReadError) -> UInt8? {
        if k < n { return p[k] }
        return try peekAfterRefill(&k, keeping: &keep)
    }

    @inline(never)
    mutating func peekAfterRefill(_ k: inout Int, keeping keep: inout Int) throws(ReadError) -> UInt8? {
        guard let stream else { return nil }
        while k >= n {
            stream.consume(upTo: keep)
            let more: Bool
            do {
                more = try stream.refill()
            } catch {
                throw relocate(error)
            }
            let shift = keep - stream.start
            p = stream.window
            n = stream.end
            base = stream.offset(ofIndex: 0)
            k -= shift
            keep -= shift
            i -= shift
            if !more && k >= n { return nil }
        }
        return p[k]
    }

    /// Gives a ``ReadError/recordTooLong(_:limitBytes:)`` from the stream the token's line and column.
    func relocate(_ error: ReadError) -> ReadError {
        if case .recordTooLong(let location, let limit) = error {
            return .recordTooLong(
                SourceLocation(
                    file: name, line: tokenLine, column: tokenColumn,
                    byteOffset: location.byteOffset), limitBytes: limit)
        }
        return error
    }

    @inline(__always)
    mutating func afterValue() {
        state = depth == 0 ? .done : .commaOrEnd
    }

    var topIsObject: Bool {
        let d = depth - 1
        return objectBits[d >> 6] & (1 << UInt64(d & 63)) != 0
    }

    @inline(__always)
    mutating func push(isObject: Bool, at k: Int) throws(ReadError) {
        guard depth < maximumDepth else {
            i = k
            throw ReadError.malformedRecord(
                location(at: k), expected: "arrays and objects nested at most \(maximumDepth) deep",
                found: "deeper nesting")
        }
        let word = depth >> 6
        let bit: UInt64 = 1 << UInt64(depth & 63)
        if isObject { objectBits[word] |= bit } else { objectBits[word] &= ~bit }
        depth += 1
    }

    /// The location of buffer index `k` on the current line.
    func location(at k: Int) -> SourceLocation {
        let offset = base + k
        return SourceLocation(file: name, line: line, column: offset - lineStart + 1, byteOffset: offset)
    }

    func unexpected(at k: Int, expected: String) -> ReadError {
        .malformedRecord(location(at: k), expected: expected, found: ReadError.quote(p, k, min(n, k + 24)))
    }

    func endOfInput() throws(ReadError) -> Token {
        if state == .done { return .end }
        let expected: String
        switch state {
        case .value where depth == 0: expected = "a JSON value"
        case .value, .valueOrEnd: expected = "a JSON value"
        case .keyOrEnd, .key: expected = "a member name"
        case .colon: expected = "':'"
        case .commaOrEnd: expected = topIsObject ? "',' or '}'" : "',' or ']'"
        case .done: expected = ""
        }
        throw ReadError.truncated(location(at: i), expected: expected)
    }

    /// Scans the string starting at the quote at `i`; sets `valueStart..<valueEnd` to its unescaped bytes.
    mutating func scanString() throws(ReadError) {
        var keep = i
        var k = i + 1
        var escaped = false
        hasScannedNumber = false
        while true {
            // Fast path, 8 bytes at a time: find the first '"', '\\' or control byte (Mycroft's zero-byte
            // test; the lowest flagged byte is exact, and it is the only one used).
            if let raw = p.baseAddress {
                while k + 8 <= n {
                    let w = (raw + k).loadUnaligned(as: UInt64.self)
                    let ones: UInt64 = 0x0101_0101_0101_0101
                    let highs: UInt64 = 0x8080_8080_8080_8080
                    let quote = w ^ (ones &* 0x22)
                    let backslash = w ^ (ones &* 0x5C)
                    let special =
                        ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w)
                    let hits = special & highs
                    if hits != 0 {
                        k += hits.trailingZeroBitCount >> 3
                        break
                    }
                    k += 8
                }
            }
            // Byte by byte near the end of the window.
            while k < n {
                let b = p[k]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                k += 1
            }
            guard let b = try peek(&k, keeping: &keep) else {
                i = k
                throw ReadError.truncated(location(at: k), expected: "a closing '\"'")
            }
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                escaped = true
                k += 1
                guard try peek(&k, keeping: &keep) != nil else {
                    i = k
                    throw ReadError.truncated(location(at: k), expected: "an escape sequence")
                }
                k += 1
                continue
            }
            if b < 0x20 {
                i = k
                throw ReadError.malformedRecord(
                    location(at: k), expected: "a string character (control characters must be escaped)",
                    found: ReadError.quote(p, k, k + 1))
            }
            k += 1
        }
        valueStart = keep + 1
        valueEnd = k
        i = k + 1
        if escaped { try unescape() }
    }

    /// Decodes the escapes of `bytes[valueStart..<valueEnd]` in place and moves `valueEnd`.
    mutating func unescape() throws(ReadError) {
        guard let raw = p.baseAddress else { return }
        let out = UnsafeMutableRawPointer(mutating: raw)
        var r = valueStart
        var w = valueStart
        let end = valueEnd
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= end else { return nil }
            var v: UInt32 = 0
            for j in at..<(at + 4) {
                let c = p[j]
                let d: UInt8
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - 48
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - 87
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - 55
                default: return nil
                }
                v = v << 4 | UInt32(d)
            }
            return v
        }
        while r < end {
            let b = p[r]
            if b != UInt8(ascii: "\\") {
                out.storeBytes(of: b, toByteOffset: w, as: UInt8.self)
                r += 1
                w += 1
                continue
            }
            let e = p[r + 1]
            var decoded: UInt8 = 0
            switch e {
            case UInt8(ascii: "\""): decoded = 0x22
            case UInt8(ascii: "\\"): decoded = 0x5C
            case UInt8(ascii: "/"): decoded = 0x2F
            case UInt8(ascii: "b"): decoded = 0x08
            case UInt8(ascii: "f"): decoded = 0x0C
            case UInt8(ascii: "n"): decoded = 0x0A
            case UInt8(ascii: "r"): decoded = 0x0D
            case UInt8(ascii: "t"): decoded = 0x09
            case UInt8(ascii: "u"):
                guard var scalar = hex4(r + 2) else {
                    throw ReadError.malformedRecord(
                        location(at: r), expected: "\\u followed by 4 hexadecimal digits",
                        found: ReadError.quote(p, r, min(end, r + 6)))
                }
                r += 6
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    // A high surrogate: combine with a following \uDC00-\uDFFF, else U+FFFD.
                    if r + 1 < end, p[r] == UInt8(ascii: "\\"), p[r + 1] == UInt8(ascii: "u"),
                        let low = hex4(r + 2), low >= 0xDC00, low <= 0xDFFF
                    {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        r += 6
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                    scalar = 0xFFFD
                }
                // UTF-8 encode (never longer than the 6 or 12 escape bytes it replaces).
                if scalar < 0x80 {
                    out.storeBytes(of: UInt8(scalar), toByteOffset: w, as: UInt8.self)
                    w += 1
                } else if scalar < 0x800 {
                    out.storeBytes(of: UInt8(0xC0 | scalar >> 6), toByteOffset: w, as: UInt8.self)
                    out.storeBytes(of: UInt8(0x80 | scalar & 0x3F), toByteOffset: w + 1, as: UInt8.self)
                    w += 2
                } else if scalar < 0x10000 {
                    out.storeBytes(of: UInt8(0xE0 | scalar >> 12), toByteOffset: w, as: UInt8.self)
                    out.storeBytes(of: UInt8(0x80 | (scalar >> 6) & 0x3F), toByteOffset: w + 1, as: UInt8.self)
                    out.storeBytes(of: UInt8(0x80 | scalar & 0x3F), toByteOffset: w + 2, as: UInt8.self)
                    w += 3
                } else {
                    out.storeBytes(of: UInt8(0xF0 | scalar >> 18), toByteOffset: w, as: UInt8.self)
                    out.storeBytes(of: UInt8(0x80 | (scalar >> 12) & 0x3F), toByteOffset: w + 1, as: UInt8.self)
                    out.storeBytes(of: UInt8(0x80 | (scalar >> 6) & 0x3F), toByteOffset: w + 2, as: UInt8.self)
                    out.storeBytes(of: UInt8(0x80 | scalar & 0x3F), toByteOffset: w + 3, as: UInt8.self)
                    w += 4
                }
                continue
            default:
                throw ReadError.malformedRecord(
                    location(at: r), expected: "an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX",
                    found: ReadError.quote(p, r, min(end, r + 2)))
            }
            out.storeBytes(of: decoded, toByteOffset: w, as: UInt8.self)
            r += 2
            w += 1
        }
        valueEnd = w
    }

    /// Scans a number starting at `i` with the strict JSON grammar: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`,
    /// computing its value on the way when Clinger's fast path applies (at most 19 significant digits,
    /// a significand of at most 2^53 and a power of ten within 10^±22: one exact IEEE operation, correctly
    /// rounded); other numbers are left to ``NumberParsing/double(_:_:_:)`` in ``number()``.
    ///
    /// The scan runs on local copies of the window; a number that reaches the window's end is scanned
    /// again after a refill (numbers are short, so this is rare and cheap).
    mutating func scanNumber() throws(ReadError) {
        var atEnd = false
        while true {
            let p = self.p
            let n = self.n
            let start = i
            var k = start
            var mantissa: UInt64 = 0
            var digits = 0
            var exponent = 0
            var exact = true
            @inline(__always) func byte(_ k: Int) -> UInt8 { k < n ? p[k] : 0 }
            let negative = byte(k) == UInt8(ascii: "-")
            if negative { k += 1 }
            var d = UInt64(byte(k) &- 48)
            if d == 0 {
                k += 1
            } else if d < 10 {
                repeat {
                    if digits < 19 {
                        mantissa = mantissa &* 10 &+ d
                        digits += 1
                    } else {
                        exact = false
                    }
                    k += 1
                    d = UInt64(byte(k) &- 48)
                } while d < 10
            } else if k < n {
                throw badNumber(start, k)
            }
            if byte(k) == UInt8(ascii: ".") {
                k += 1
                d = UInt64(byte(k) &- 48)
                if d >= 10, k < n { throw badNumber(start, k) }
                while d < 10 {
                    if digits < 19 {
                        mantissa = mantissa &* 10 &+ d
                        if mantissa != 0 { digits += 1 }
                        exponent -= 1
                    } else {
                        exact = false
                    }
                    k += 1
                    d = UInt64(byte(k) &- 48)
                }
            }
            if byte(k) | 0x20 == UInt8(ascii: "e") {
                k += 1
                let sign = byte(k)
                let exponentNegative = sign == UInt8(ascii: "-")
                if sign == UInt8(ascii: "+") || exponentNegative { k += 1 }
                d = UInt64(byte(k) &- 48)
                if d >= 10, k < n { throw badNumber(start, k) }
                var value = 0
                while d < 10 {
                    if value < 100_000 { value = value * 10 + Int(d) }
                    k += 1
                    d = UInt64(byte(k) &- 48)
                }
                exponent += exponentNegative ? -value : value
            }
            if k >= n {
                if !atEnd {
                    // The number may go on past the window: load more and scan it again.
                    var end = k
                    var keep = start
                    if try peekAfterRefill(&end, keeping: &keep) == nil { atEnd = true }
                    continue
                }
                // The true end of the input: complete only if it ends in a digit (not '-', '.', 'e', a sign).
                if k == start || p[k - 1] &- 48 >= 10 { throw badNumber(start, k) }
            }
            valueStart = start
            valueEnd = k
            i = k
            if exact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
                var value = Double(mantissa)
                if exponent < 0 {
                    value /= NumberParsing.exactPowerOfTen(-exponent)
                } else if exponent > 0 {
                    value *= NumberParsing.exactPowerOfTen(exponent)
                }
                scannedNumber = negative ? -value : value
                hasScannedNumber = true
            } else {
                hasScannedNumber = false
            }
            return
        }
    }

    mutating func badNumber(_ start: Int, _ k: Int) -> ReadError {
        i = k
        if k >= n, stream?.sourceExhausted ?? true {
            return .truncated(location(at: k), expected: "the rest of a number")
        }
        return .malformedRecord(
            location(at: start), expected: "a JSON number", found: ReadError.quote(p, start, min(n, k + 1)))
    }

    /// Scans `true`, `false` or `null` at `i`.
    mutating func scanLiteral(_ word: StaticString) throws(ReadError) {
        var keep = i
        var k = i
        let count = word.utf8CodeUnitCount
        for j in 0..<count {
            guard let b = try peek(&k, keeping: &keep) else {
                i = k
                throw ReadError.truncated(location(at: k), expected: "'\(word)'")
            }
            guard b == word.utf8Start[j] else {
                i = k
                throw ReadError.malformedRecord(
                    location(at: keep), expected: "a JSON value",
                    found: ReadError.quote(p, keep, min(n, k + 1)))
            }
            k += 1
        }
        i = k
    }
}
