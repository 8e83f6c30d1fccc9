import Foundation
import TrueTrackIO

#if canImport(Glibc)
    import Glibc
#endif

// Errors the user can cause (an output folder that does not exist, a read-only baseline) end the run with
// "error: …" on standard error and exit status 1, never with a Swift runtime trap and its backtrace.

/// Prints `error: message` on standard error and exits with status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

/// The executable that runs `benchmark` as its child (`--child NAME INPUT`): this one, or its
/// ``BenchmarkCase/childExecutable`` beside it, which must exist (a usage error naming the product to build).
func childExecutable(of benchmark: BenchmarkCase) -> String {
    guard let name = benchmark.childExecutable else { return CommandLine.arguments[0] }
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
        .path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        fail(
            "benchmark \(benchmark.name) runs in \(path), which is not there: build it first "
                + "(swift build -c release --product \(name); make bench does)")
    }
    return path
}

/// Why a file operation failed, in the system's words (``SystemErrorReason/describe(_:)``).
func reason(_ error: Error) -> String { SystemErrorReason.describe(error) }

/// `value` as pretty-printed JSON with sorted keys and a final newline.
///
/// Every figure is finite by construction (the child's times are checked); a value JSON cannot hold (an infinity)
/// still ends the run with an error naming `what`, never a trap.
func jsonText<T: Encodable>(_ value: T, what: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do { return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n" } catch {
        fail("cannot encode \(what) as JSON: \(error)")
    }
}

/// Writes `text` to the file at `path`, or to standard output when `path` is `-`; exits 1 naming the file and
/// the reason when it cannot be written.
func writeOutput(_ text: String, to path: String) {
    if path == "-" {
        print(text, terminator: "")
        return
    }
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
        fail("cannot write \(path): \(reason(error))")
    }
}
