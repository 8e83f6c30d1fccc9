/// Several inputs in one run of `process` or `stops`: each input is read and reported on its own, as if the
/// command had been run once per input, and one that fails does not stop the others.
///
/// Text output is each input's report in turn; `--json` prints one array with an entry per input, in the order
/// given: the input's summary (with its `error` when a read error cut it short), or `{"input", "error"}` for an
/// input that gave no summary (it could not be opened). Every error also goes to standard error as it happens.
/// The exit status is 1 when any input failed. With one input the command prints a single object, as it always
/// has: its summary, or `{"input", "error"}` (``runOne(_:json:toStandardError:each:)``).
enum Batch {
    /// The JSON entry of an input that produced no summary.
    struct Failure: Encodable {
        /// The input as given.
        var input: String
        /// Why it produced nothing.
        var error: String
    }

    /// One input's entry in the `--json` array: its summary, or its failure.
    enum Entry<Summary: Encodable>: Encodable {
        case summary(Summary)
        case failure(Failure)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .summary(let summary): try summary.encode(to: encoder)
            case .failure(let failure): try failure.encode(to: encoder)
            }
        }
    }

    /// Runs the command on its one input: `each` prints its report itself. With `json`, an input that produced no
    /// report (it could not be opened, its format was not recognised) prints `{"input", "error"}` as several inputs'
    /// array would hold it (to standard error when `toStandardError`: an output took standard output), so that a
    /// script parsing `--json` always finds JSON (a batch tester's loop found nothing to parse), then the failure is
    /// thrown as before.
    static func runOne<Summary>(
        _ input: String, json: Bool, toStandardError: Bool,
        each: (_ collect: @escaping (Summary) -> Void) throws -> Void
    ) throws {
        var produced = false
        do {
            try each { _ in produced = true }
        } catch let failure as CommandFailure where json && !produced {
            let text = Terminal.json(Failure(input: input, error: failure.message))
            var failure = failure
            if toStandardError {
                Terminal.error(text)
                failure.isReported = true
            } else {
                Terminal.out(text)
            }
            throw failure
        }
    }

    /// Refuses what several inputs cannot share: the options that write one input's output (`singleOutputs`,
    /// e.g. `--out`), and standard input given twice (the second reading would find it empty).
    static func check(_ arguments: ParsedArguments, singleOutputs: [String]) throws(UsageError) {
        for name in singleOutputs where arguments.value(name) != nil {
            throw UsageError(
                message: "--\(name) writes the output of one input: give one INPUT (run the command once per input "
                    + "to write each one's)")
        }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "standard input ('-') can be read only once")
        }
    }

    /// Runs `each` over `inputs` in order. `each` hands an input's summary to its second argument and prints its
    /// text report itself (with `json` it prints nothing: the array is printed here at the end). A
    /// ``CommandFailure`` of one input is printed and the next input goes on; a ``UsageError`` ends the run (it
    /// is the same for every input). Without `json`, `total` makes a last line from the summaries of the inputs
    /// that did not fail, and the line says how many failed.
    ///
    /// - Returns: the exit status: 0, or 1 when any input failed.
    static func run<Summary: Encodable>(
        inputs: [String], json: Bool, total: (([Summary]) -> String)? = nil,
        each: (String, _ collect: @escaping (Summary) -> Void) throws -> Void
    ) throws -> Int32 {
        var entries: [Entry<Summary>] = []
        var summaries: [Summary] = []
        var failures = 0
        var seen: Set<String> = []
        for input in inputs {
            // The same input twice is reported twice, as asked, and said: a total would count it twice.
            if !seen.insert(input).inserted { Terminal.error("warning: \(input) is given more than once\n") }
            var produced = false
            do {
                try each(input) { summary in
                    entries.append(.summary(summary))
                    summaries.append(summary)
                    produced = true
                }
            } catch let failure as CommandFailure {
                failures += 1
                Terminal.error("Error: \(failure.message)\n")
                if produced {
                    // A partial summary (a read error after some fixes) is reported, but not in the total.
                    summaries.removeLast()
                } else {
                    entries.append(.failure(Failure(input: input, error: failure.message)))
                }
            }
        }
        if json {
            Terminal.out(Terminal.json(entries))
        } else if let total, summaries.count > 1 || failures > 0 {
            Terminal.out(
                total(summaries).replacingOccurrences(of: "\n", with: "")
                    + (failures > 0 ? " (\(failures) more failed: not in the total)" : "") + "\n")
        }
        return failures > 0 ? 1 : 0
    }
}
