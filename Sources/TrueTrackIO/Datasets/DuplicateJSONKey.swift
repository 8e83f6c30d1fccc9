import Foundation

/// A key written twice in one JSON object: Foundation's decoder keeps the first, Python's `json` and `jq` the
/// last, so a file holding one reads as two different documents (a CI tester's baseline gated a recording on the
/// first of two entries while a script reading it saw the second).
public struct DuplicateJSONKey: Sendable, Hashable, CustomStringConvertible {
    /// The key, unescaped (`"a"` and `"\u0061"` are the same key).
    public var key: String
    /// The object holding it (`recordings`, `quick.read-csv`), or `the top level`.
    public var object: String
    /// The 1-based line of its second occurrence.
    public var line: Int

    /// Creates a duplicate-key finding.
    public init(key: String, object: String, line: Int) {
        self.key = key
        self.object = object
        self.line = line
    }

    public var description: String {
        "key '\(key)' given twice in \(object == "the top level" ? object : "'\(object)'") (again at line \(line))"
    }

    /// The first key repeated within one object of the JSON document `data`, in document order; `nil` when there
    /// is none, and for text that is not JSON (its decoding reports that). Strings are read with their escapes
    /// (`\"` does not end one; `\u0061` is `a`), so only real keys are compared.
    public static func first(in data: Data) -> DuplicateJSONKey? {
        enum Frame {
            case object(lastKey: String?, expectsKey: Bool)
            case array(index: Int)
        }
        let bytes = [UInt8](data)
        var stack: [Frame] = []
        // Each open object's keys, apart from the frames and changed in place: inside the frame, every key copied
        // the set (a reviewer's 40,000 keys in one object took 33 s).
        var keySets: [Set<String>] = []
        var line = 1
        var i = 0

        /// The path of the innermost object (the keys and indices leading to it), for the message.
        func path() -> String {
            var text = ""
            for (depth, frame) in stack.enumerated() where depth < stack.count - 1 {
                switch frame {
                case .object(let key, _): text += (text.isEmpty ? "" : ".") + (key ?? "?")
                case .array(let index): text += "[\(index)]"
                }
            }
            return text.isEmpty ? "the top level" : text
        }

        /// Reads the string whose opening quote is at `i`; leaves `i` after its closing quote.
        func readString() -> String? {
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            i += 1
            var pendingHighSurrogate: UInt32?
            while i < bytes.count {
                let byte = bytes[i]
                if byte == 0x22 {
                    i += 1
                    flush()
                    return String(scalars)
                }
                guard byte == 0x5C else {
                    raw.append(byte)
                    i += 1
                    continue
                }
                guard i + 1 < bytes.count else { return nil }
                let escaped = bytes[i + 1]
                i += 2
                switch escaped {
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    i += 4
                    flush()
                    if (0xD800...0xDBFF).contains(code) {
                        pendingHighSurrogate = code
                        continue
                    }
                    if let high = pendingHighSurrogate, (0xDC00...0xDFFF).contains(code) {
                        let combined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                        scalars.append(Unicode.Scalar(combined) ?? "\u{FFFD}")
                    } else {
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    }
                case UInt8(ascii: "n"): raw.append(0x0A)
                case UInt8(ascii: "t"): raw.append(0x09)
                case UInt8(ascii: "r"): raw.append(0x0D)
                case UInt8(ascii: "b"): raw.append(0x08)
                case UInt8(ascii: "f"): raw.append(0x0C)
                default: raw.append(escaped)  // \" \\ \/
                }
                pendingHighSurrogate = nil
            }
            return nil
        }

        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x0A:
                line += 1
                i += 1
            case UInt8(ascii: "{"):
                stack.append(.object(lastKey: nil, expectsKey: true))
                keySets.append([])
                i += 1
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if case .object = stack.popLast() { _ = keySets.popLast() }
                i += 1
            case UInt8(ascii: ":"):
                if case .object(let key, _) = stack.last {
                    stack[stack.count - 1] = .object(lastKey: key, expectsKey: false)
                }
                i += 1
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let key, _): stack[stack.count - 1] = .object(lastKey: key, expectsKey: true)
                case .array(let index): stack[stack.count - 1] = .array(index: index + 1)
                case nil: break
                }
                i += 1
            case 0x22:
                let startLine = line
                guard let text = readString() else { return nil }
                if case .object(_, true) = stack.last, !keySets.isEmpty {
                    if !keySets[keySets.count - 1].insert(text).inserted {
                        return DuplicateJSONKey(key: text, object: path(), line: startLine)
                    }
                    stack[stack.count - 1] = .object(lastKey: text, expectsKey: false)
                }
            default:
                i += 1
            }
        }
        return nil
    }
}
