import Foundation
import TrueTrackCore
import TrueTrackIO

/// Writing to standard output (data) and standard error (diagnostics).
///
/// A write that fails (a full disk behind `> file`, a closed descriptor) never traps: the first failure on
/// standard output is reported on standard error as `Error: <stdout>: cannot write: <reason>`, later output is
/// dropped, and ``exitStatus(for:)`` turns the command's success into exit status 1. A reader that went away
/// (`| head`) ends the process with SIGPIPE, as for any Unix tool (status 141); with SIGPIPE ignored, the
/// broken pipe is exit status 1 without a message (the reader chose to stop). A non-blocking descriptor is
/// waited on. A failing standard error is ignored: there is nowhere left to say so.
enum Terminal {
    /// `seconds` rounded to the millisecond, the resolution of every time TrueTrack reads: a sum of
    /// durations printed as 69.00000000000003 in JSON otherwise.
    static func milliseconds(_ seconds: Double) -> Double {
        seconds.isFinite ? (seconds * 1000).rounded() / 1000 : seconds
    }

    /// Metres to the millimetre, as the JSON outputs print distances (a sum of steps printed 18971.803000000044).
    static func millimetres(_ metres: Double) -> Double { milliseconds(metres) }

    /// The wall clock now (the time warnings' "after tomorrow", `convert --week-rollover`'s latest era).
    static func now() -> Timestamp {
        Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// `count` with the noun that agrees with it: "1 fix", "2 fixes", "0 fixes".
    /// `part` of `whole` in whole percent, never rounded to 100 while some are left out or to 0 while some are in
    /// (a docs tester read "558 of 560 fixes (100 %)"); 0 when `whole` is 0.
    static func percent(_ part: Int, of whole: Int) -> Int {
        guard whole > 0 else { return 0 }
        let rounded = Int((100 * Double(part) / Double(whole)).rounded())
        if part > 0 && part < whole { return min(99, max(1, rounded)) }
        return rounded
    }

    static func count(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(count) \(count == 1 ? singular : plural)"
    }

    /// What was done with the records read before an error: "1 fix before it was written", "2 accepted fixes
    /// before it were persisted".
    static func before(_ count: Int, _ singular: String, _ plural: String, were verb: String) -> String {
        "\(Terminal.count(count, singular, plural)) before it \(count == 1 ? "was" : "were") \(verb)"
    }

    /// The note after a read error's message: " (2 fixes before it were processed; --lenient …)" with
    /// ``before(_:_:_:were:)`` and the error's `hint` (empty, or starting "; "), the hint alone when nothing came
    /// before the error (a header error: "0 fixes before it were processed" said nothing), or nothing.
    static func afterReadError(
        _ count: Int, _ singular: String, _ plural: String, were verb: String, hint: String
    ) -> String {
        guard count > 0 else { return hint.isEmpty ? "" : " (\(hint.hasPrefix("; ") ? hint.dropFirst(2) : hint[...]))" }
        return " (\(before(count, singular, plural, were: verb))\(hint))"
    }

    /// Writes `text` to standard output.
    static func out(_ text: String) {
        guard !outputFailed.value else { return }
        if let failure = write(text, to: STDOUT_FILENO) {
            outputFailed.value = true
            if failure != EPIPE {
                _ = write("Error: <stdout>: cannot write: \(String(cString: strerror(failure)))\n", to: STDERR_FILENO)
            }
        }
    }

    /// Writes `text` to standard error.
    static func error(_ text: String) {
        _ = write(text, to: STDERR_FILENO)
    }

    /// The process's exit status: `status`, or 1 when standard output could not be written (the data a
    /// successful command printed is incomplete).
    static func exitStatus(for status: Int32) -> Int32 {
        status == 0 && outputFailed.value ? 1 : status
    }

    /// Whether a write to standard output failed (shared by every thread: the `sync` command writes from tasks).
    static let outputFailed = Locked(false)

    /// Writes all of `text` to `descriptor` (``ByteSink/writeAll(_:to:)``); returns the `errno` of a failure,
    /// `nil` on success.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        Array(text.utf8).withUnsafeBytes { ByteSink.writeAll($0, to: descriptor) }
    }

    /// A warning as the JSON outputs carry it: without the `warning: ` prefix and the line end.
    static func warningText(_ warning: String) -> String {
        var text = Substring(warning).drop(while: { $0 == " " })
        if text.hasPrefix("warning: ") { text = text.dropFirst(9) }
        while text.last == "\n" { text = text.dropLast() }
        return String(text)
    }

    /// Encodes a value as pretty JSON (sorted keys, so output is stable) followed by a newline.
    static func json<T: Encodable>(_ value: T) -> String {
        json(value, compact: false) + "\n"
    }

    /// `value` as JSON with sorted keys, on one line when `compact` (a member of a streamed document), else
    /// pretty-printed; `null` when it cannot be encoded.
    static func json<T: Encodable>(_ value: T, compact: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension Double {
    /// Fixed-point text with `digits` decimals (no Foundation formatter per call in loops that matter).
    func fixed(_ digits: Int) -> String {
        String(format: "%.\(digits)f", self)
    }

    /// Scientific text with `digits` decimals (`4.5e+307`).
    func scientific(_ digits: Int) -> String {
        String(format: "%.\(digits)e", self)
    }
}
