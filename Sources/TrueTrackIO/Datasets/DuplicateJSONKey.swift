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
    /// is none, and for text that is not JSON (its decoding reports that). Read with ``JSONTokenizer``, whose keys come
    /// unescaped (`\"` does not end one; `\u0061` is `a`), so only real keys are compared.
    public static func first(in data: Data) -> DuplicateJSONKey? {
        /// An open object (its latest key) or array (how many values it has begun).
        enum Frame {
            case object(key: String?)
            case array(values: Int)
        }
        var tokens = JSONTokenizer(stream: ByteStream(bytes: data))
        var stack: [Frame] = []
        // Each open object's keys, apart from the frames and changed in place: inside the frame, every key copied
        // the set (a reviewer's 40,000 keys in one object took 33 s).
        var keySets: [Set<String>] = []

        /// The path of the innermost object (the keys and indices leading to it), for the message.
        func path() -> String {
            var text = ""
            for frame in stack.dropLast() {
                switch frame {
                case .object(let key): text += (text.isEmpty ? "" : ".") + (key ?? "?")
                case .array(let values): text += "[\(values - 1)]"
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        /// A value begins: an array around it counts it.
        func beginValue() {
            if case .array(let values) = stack.last { stack[stack.count - 1] = .array(values: values + 1) }
        }

        do {
            while true {
                switch try tokens.next() {
                case .end: return nil
                case .beginObject:
                    beginValue()
                    stack.append(.object(key: nil))
                    keySets.append([])
                case .beginArray:
                    beginValue()
                    stack.append(.array(values: 0))
                case .endObject:
                    stack.removeLast()
                    keySets.removeLast()
                case .endArray: stack.removeLast()
                case .key:
                    let key = tokens.text
                    guard keySets[keySets.count - 1].insert(key).inserted else {
                        return DuplicateJSONKey(key: key, object: path(), line: tokens.tokenLine)
                    }
                    stack[stack.count - 1] = .object(key: key)
                default: beginValue()
                }
            }
        } catch {
            return nil
        }
    }
}
