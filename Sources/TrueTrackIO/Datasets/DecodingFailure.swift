import Foundation

/// Human text for a failure to decode a JSON file (a data-set manifest, a baseline): where in the document
/// (`recordings[3].format`) and what was wrong, instead of Foundation's debug dump.
public enum DecodingFailure {
    /// Describes `error`: a `DecodingError` with its coding path, else the error's own description. With the
    /// document's `data`, text that is not JSON at all is located by line and column.
    ///
    /// - Parameter wholeNumberKeys: the document's keys whose values are whole numbers (a manifest's `fixes`). A
    ///   value that does not fit one (1.5, 1e300) makes Foundation on Linux say only "not valid JSON" with no
    ///   place: the first such value is named instead (a fuzz tester's `"fixes": 1.5`).
    public static func describe(_ error: any Error, data: Data? = nil, wholeNumberKeys: Set<String> = []) -> String {
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
            // The value found, when the document is at hand: "expected Double" alone did not say what was there.
            let found = data.flatMap { foundValue(at: context.codingPath, in: $0) }.map { ", found \($0)" } ?? ""
            return "\(path(context.codingPath)): expected \(type)\(found)\(underlying(context))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else { return "\(path(context.codingPath)): \(context.debugDescription)" }
            if let data, let location = syntaxLocation(data) { return "not valid JSON\(location)" }
            if let data, let misfit = firstMisfit(in: data, wholeNumberKeys: wholeNumberKeys) {
                return "\(misfit.path): expected a whole number, found \(misfit.value)"
            }
            return data == nil
                ? "not valid JSON\(underlying(context))"
                : "valid JSON, but a value does not fit its field (a number too large, or not whole where a count is "
                    + "expected?)"
        @unknown default:
            return "\(error)"
        }
    }

    /// The value at `codingPath` in the JSON document `data`, as a reader would recognise it: a string quoted, a
    /// number or `true`/`false` as written, `null`, `an object`, `an array`; `nil` when the path leads nowhere.
    static func foundValue(at codingPath: [any CodingKey], in data: Data) -> String? {
        guard var value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return nil
        }
        for key in codingPath {
            if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
                value = array[index]
            } else if let object = value as? [String: Any], let next = object[key.stringValue] {
                value = next
            } else {
                return nil
            }
        }
        switch value {
        case let text as String: return "\"\(text)\""
        case is NSNull: return "null"
        case is [String: Any]: return "an object"
        case is [Any]: return "an array"
        // (JSONSerialization's booleans are NSNumbers whose type code is `c`: shown as written, not as 1 and 0.)
        case let number as NSNumber where String(cString: number.objCType) == "c":
            return number.boolValue ? "true" : "false"
        case let number as NSNumber: return "\(number)"
        default: return nil
        }
    }

    /// The first value under one of `wholeNumberKeys` that is not a whole number within `Int`'s range, with its
    /// place (`recordings[0].fixes`), in document order of arrays (object keys sorted); `nil` when none.
    static func firstMisfit(in data: Data, wholeNumberKeys: Set<String>) -> (path: String, value: String)? {
        guard !wholeNumberKeys.isEmpty,
            let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        func search(_ value: Any, _ path: String) -> (path: String, value: String)? {
            if let object = value as? [String: Any] {
                for key in object.keys.sorted() {
                    let place = path.isEmpty ? key : path + "." + key
                    if wholeNumberKeys.contains(key), let number = object[key] as? NSNumber,
                        !(object[key] is Bool)
                    {
                        let d = number.doubleValue
                        if d != d.rounded() || abs(d) >= 9.2e18 || !d.isFinite { return (place, "\(number)") }
                    }
                    if let found = search(object[key]!, place) { return found }
                }
            } else if let array = value as? [Any] {
                for (index, element) in array.enumerated() {
                    if let found = search(element, path + "[\(index)]") { return found }
                }
            }
            return nil
        }
        return search(root, "")
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
