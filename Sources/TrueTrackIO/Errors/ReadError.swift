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
    /// The input's layout cannot be read at all (a CSV header that names no latitude, longitude or time
    /// column): no record can be read, so reading leniently does not get past it.
    case unreadableHeader(SourceLocation, expected: String, found: String)
    /// The input's structure breaks at `location` in a way no record can be skipped past: reading on would misread
    /// what follows, so reading leniently stops here too (``endsReadingEvenWhenLenient``). In GPX, TCX and KML
    /// (``GPXReader``, ``KMLReader``): elements nested past the reader's limit, and anything but white space,
    /// comments and processing instructions after the root element closed (two documents joined); in KML also an
    /// end tag that does not match its start tag and a root that is no `<kml>`; in CSV (``CSVReader``) a second
    /// header line that names other columns than the first (a file with other columns joined on).
    case unreadableStructure(SourceLocation, expected: String, found: String)
    /// The input holds the tracks of more than one device: a CSV file whose device column (`field`) changes value,
    /// or a JSON file whose records' device member (`field`: `deviceId`, `deviceTag`…) does, at `location` (the
    /// first row or record of a second device that gives a fix); `devices` lists the IDs seen so far, in order.
    /// Merged, two devices' fixes make one wrong track; ``ReadOptions/devices`` reads one.
    case severalDevices(SourceLocation, field: String, devices: [String])
    /// The values parsed but do not make a valid fix (non-finite or out-of-range coordinates). `field` is the
    /// file's own name for the field, as ``malformedField(_:field:expected:found:)`` names it (a CSV header's
    /// column, `lat` or `LatitudeDegrees` in GPX and TCX), where the reader knows it; `nil`: the error's
    /// (``FixValidationError/field``: `latitude`, `longitude`, `time`).
    case invalidFix(SourceLocation, FixValidationError, field: String? = nil)
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
        case .malformedField(let l, _, _, _), .malformedRecord(let l, _, _), .invalidFix(let l, _, _),
            .recordTooLong(let l, _), .truncated(let l, _), .unreadableHeader(let l, _, _),
            .severalDevices(let l, _, _), .unreadableStructure(let l, _, _):
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
        case .malformedRecord(let l, let expected, let found), .unreadableHeader(let l, let expected, let found),
            .unreadableStructure(let l, let expected, let found):
            "\(l): expected \(expected), found \(ReadError.quote(found))"
        case .severalDevices(let l, let field, let devices):
            "\(l): field '\(field)': the file holds more than one device (seen so far: "
                + devices.map { ReadError.quote($0) }.joined(separator: ", ")
                + "), and their fixes merged make one wrong track: read one device at a time with --device ID "
                + "(ReadOptions.devices; 'truetrack info' lists the devices)"
        case .invalidFix(let l, let error, let field):
            "\(l): field '\(field ?? error.field)': \(error)\(ReadError.longitudeConventionHint(error))"
        case .recordTooLong(let l, let limit):
            "\(l): record longer than \(limit) bytes (is this the right format?)"
        case .truncated(let l, let expected):
            "\(l): input ends early: expected \(expected)"
        case .unsupportedFormat(let path, let reason):
            "\(path): \(reason)"
        }
    }

    /// For a longitude over 180 and up to 360: the file may write longitudes 0…360, where east of 180 is the
    /// value − 360, and the option that reads them so; otherwise "".
    static func longitudeConventionHint(_ error: FixValidationError) -> String {
        guard case .longitudeOutOfRange(let value) = error, value > 180, value <= 360 else { return "" }
        return "; the file may write longitudes 0...360, where a longitude east of 180 is the value - 360 (190 is "
            + "-170): --longitude-0-360 (ReadOptions.longitudesFrom0To360) reads them so"
    }

    /// Quotes up to 60 bytes of offending text, escaping control bytes and bytes that were not valid UTF-8 so
    /// that binary garbage cannot corrupt a terminal. Valid UTF-8 text that prints (letters, marks, digits,
    /// punctuation, symbols, spaces: `Längengrad`, `°`) is shown as it is; any other non-ASCII scalar (a C1
    /// control, a format character such as a bidirectional override, a private-use or unassigned one) is
    /// escaped byte by byte.
    public static func quote(_ text: String) -> String {
        var out = "\""
        var count = 0
        scalars: for scalar in text.unicodeScalars {
            // A byte that was not valid UTF-8 in the input (see ``quote(_:_:_:)``).
            if scalar.value & 0xFFFF_FF00 == rawByteBase {
                if count == 60 { out += "…"; break }
                out += hexEscape(UInt8(scalar.value & 0xFF))
                count += 1
                continue
            }
            if !scalar.isASCII, isPrintable(scalar) {
                let width = String(scalar).utf8.count
                if count + width > 60 { out += "…"; break }
                out.unicodeScalars.append(scalar)
                count += width
                continue
            }
            for byte in String(scalar).utf8 {
                if count == 60 {
                    out += "…"
                    break scalars
                }
                switch byte {
                case UInt8(ascii: "\""): out += "\\\""
                case UInt8(ascii: "\\"): out += "\\\\"
                case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
                default: out += hexEscape(byte)
                }
                count += 1
            }
        }
        return out + "\""
    }

    /// Whether a non-ASCII scalar is text a terminal shows as such: a letter, mark, number, punctuation,
    /// symbol or space separator (not a control, format, private-use, surrogate or unassigned scalar, nor a
    /// line or paragraph separator).
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator:
            false
        default:
            true
        }
    }

    /// Private-use scalars U+F700 … U+F7FF stand for raw bytes 0x00 … 0xFF that were not valid UTF-8.
    static let rawByteBase: UInt32 = 0xF700

    /// `\xNN` for a byte.
    static func hexEscape(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "\\x" + (hex.count == 1 ? "0" + hex : hex)
    }

    /// The bytes `p[start..<end]` (at most 64) as text for an error message: valid UTF-8 as it is, and every
    /// byte that is not part of valid UTF-8 as a private-use scalar (``rawByteBase`` + byte) that ``quote(_:)``
    /// shows as `\xNN`, so a message about binary garbage shows the bytes that were there (decoding them first
    /// would show the replacement character's bytes, `\xEF\xBF\xBD`).
    public static func quote(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> String {
        let end = min(end, start + 64)
        var text = ""
        var i = start
        while i < max(start, end) {
            let b = p[i]
            let length: Int
            switch b {
            case 0x00..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0  // a continuation byte or one never used in UTF-8
            }
            if length > 1, i + length <= end,
                (1..<length).allSatisfy({ p[i + $0] & 0xC0 == 0x80 })
            {
                let piece = String(decoding: UnsafeRawBufferPointer(rebasing: p[i..<(i + length)]), as: UTF8.self)
                // Valid text, unless it is the replacement character or one of the stand-ins below (real
                // U+F700…U+F7FF text would otherwise print as the bytes it stands for).
                if !piece.unicodeScalars.contains(where: { $0 == "\u{FFFD}" || $0.value & 0xFFFF_FF00 == rawByteBase })
                {
                    text += piece
                    i += length
                    continue
                }
            }
            if length == 1 {
                text.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                text.unicodeScalars.append(Unicode.Scalar(rawByteBase + UInt32(b))!)
            }
            i += 1
        }
        return text
    }
}

extension ReadError {
    /// Whether the error ends the reading whatever ``ReadOptions/lenient`` says: the input's structure is broken
    /// past any record (``unreadableStructure(_:expected:found:)``), so nothing after it can be read as the file
    /// meant it.
    public var endsReadingEvenWhenLenient: Bool {
        if case .unreadableStructure = self { return true }
        return false
    }
}
