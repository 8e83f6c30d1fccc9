import Foundation

/// Writing to standard output (data) and standard error (diagnostics).
enum Terminal {
    /// Writes `text` to standard output.
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Encodes a value as pretty JSON (sorted keys, so output is stable) followed by a newline.
    static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

extension Double {
    /// Fixed-point text with `digits` decimals (no Foundation formatter per call in loops that matter).
    func fixed(_ digits: Int) -> String {
        String(format: "%.\(digits)f", self)
    }
}
