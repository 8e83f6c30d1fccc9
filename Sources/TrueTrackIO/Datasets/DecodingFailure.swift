import Foundation

/// Human text for a failure to decode a JSON file (a data-set manifest, a baseline): where in the document
/// (`recordings[3].format`) and what was wrong, instead of Foundation's debug dump.
public enum DecodingFailure {
    /// Describes `error`: a `DecodingError` with its coding path, else the error's own description. With the
    /// document's `data`, text that is not JSON at all is located by line and column.
    public static func describe(_ error: any Error, data: Data? = nil) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        func underlying(_ context: DecodingError.Context) -> String {
            guard let inner = context.underlyingError else { return "" }
            let text = (inner as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? String(describing: inner)
            return " (\(text))"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing (required)"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type)\(underlying(context))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else { return "\(path(context.codingPath)): \(context.debugDescription)" }
            return "not valid JSON\(data.flatMap(syntaxLocation) ?? underlying(context))"
        @unknown default:
            return "\(error)"
        }
    }

    /// " (line L, column C: what is wrong)" for a document that is not JSON, from `JSONSerialization`'s
    /// character offset; `nil` when it parses or names no offset.
    static func syntaxLocation(_ data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            guard let range = text.range(of: "character "),
                let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
            else {
                // A document cut short names no offset: the place is its end.
                guard text.lowercased().contains("end of file") else { return " (\(text))" }
                guard !data.isEmpty else { return " (the file is empty)" }
                let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).count
                return " (at the end, line \(data.last == 0x0A ? lines - 1 : lines), byte \(data.count): \(text))"
            }
            var line = 1, column = 1
            for byte in data.prefix(offset) {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {  // a character's first byte (UTF-8 continuation bytes are not columns)
                    column += 1
                }
            }
            return " (line \(line), column \(column): \(text))"
        }
    }
}
