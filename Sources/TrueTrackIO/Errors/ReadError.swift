import TrueTrackCore

/// Where in an input something happened: the file, the 1-based line and column, and the byte offset.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file path as given by the caller, or `<stdin>` / `<memory>`.
    public var file: String
    /// 1-based line number; 0 when the format has no lines (or the position is the whole file).
    public var line: Int
    /// 1-based column in bytes within the line; 0 when unknown.
    public var column: Int
    /// 0-based byte offset from the start of the input.
    public var byteOffset: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int = 0, byteOffset: Int) {
        self.file = file
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// `file:line:column` (as compilers print it), with the byte offset in brackets.
    public var description: String {
        var text = file
        if line > 0 { text += ":\(line)" }
        if column > 0 { text += ":\(column)" }
        return text + " (byte \(byteOffset))"
    }
}

/// Why reading an input failed, with the place it failed.
///
/// Every case carries a ``SourceLocation`` (or at least the path), and ``description`` reads like a compiler
/// diagnostic: `walk.csv:17:23 (byte 912): field 'latitude': expected a number, found "4x.5"`.
public enum ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read (`errno` text in `message`).
    case io(path: String, message: String)
    /// A field did not hold what the format requires there.
    case malformedField(SourceLocation, field: String, expected: String, found: String)
    /// A record is structurally broken (missing fields, unclosed element, bad checksum in strict mode…).
    case malformedRecord(SourceLocation, expected: String, found: String)
    /// The values parsed but do not make a valid fix (non-finite or out-of-range coordinates).
    case invalidFix(SourceLocation, FixValidationError)
    /// A line (or an XML element) is longer than the reader's limit, which protects memory.
    case recordTooLong(SourceLocation, limitBytes: Int)
    /// The input ended in the middle of a record.
    case truncated(SourceLocation, expected: String)
    /// The format could not be recognised, or is not the one requested.
    case unsupportedFormat(path: String, reason: String)

    /// The place the error concerns (for ``io(path:message:)`` and ``unsupportedFormat(path:reason:)``, the file alone).
    public var location: SourceLocation {
        switch self {
        case .io(let path, _), .unsupportedFormat(let path, _):
            SourceLocation(file: path, line: 0, byteOffset: 0)
        case .malformedField(let l, _, _, _), .malformedRecord(let l, _, _), .invalidFix(let l, _),
            .recordTooLong(let l, _), .truncated(let l, _):
            l
        }
    }

    /// A one-line human message naming the place, the field and what was expected.
    public var description: String {
        switch self {
        case .io(let path, let message):
            "\(path): cannot read: \(message)"
        case .malformedField(let l, let field, let expected, let found):
            "\(l): field '\(field)': expected \(expected), found \(ReadError.quote(found))"
        case .malformedRecord(let l, let expected, let found):
            "\(l): expected \(expected), found \(ReadError.quote(found))"
        case .invalidFix(let l, let error):
            "\(l): field '\(error.field)': \(error)"
        case .recordTooLong(let l, let limit):
            "\(l): record longer than \(limit) bytes (is this the right format?)"
        case .truncated(let l, let expected):
            "\(l): input ends early: expected \(expected)"
        case .unsupportedFormat(let path, let reason):
            "\(path): \(reason)"
        }
    }

    /// Quotes up to 60 bytes of offending text, escaping control and non-ASCII bytes so that binary garbage
    /// cannot corrupt a terminal.
    public static func quote(_ text: String) -> String {
        var out = "\""
        var count = 0
        for byte in text.utf8 {
            if count == 60 { out += "…"; break }
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
            count += 1
        }
        return out + "\""
    }

    /// Quotes the bytes `p[start..<end]` (see ``quote(_:)``).
    public static func quote(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        let end = min(end, start + 64)
        return String(decoding: UnsafeRawBufferPointer(rebasing: p[start..<max(start, end)]), as: UTF8.self)
    }
}
