import TrueTrackCore

/// Finds the fixes whose time a clock jump proved wrong (see ``TrackingProfile/clockJumpSeconds``): the
/// tracker accepted them, then restarted on older fixes. What is computed after the stream (the stop analysis,
/// the smoother, the time span) leaves them out, and the user is told which fix it was.
struct ClockJumps {
    /// The wrong fixes, 1-based in read order.
    private(set) var wrongFixes: Set<Int> = []
    private var warnings: [String] = []
    /// The accepted fixes since the last restart, in order (their times only grow): the ones a restart proves
    /// wrong are those dated after the fix the tracker restarted at.
    private var accepted: [(index: Int, time: Timestamp)] = []

    /// Observes the decision on the `index`-th fix read (1-based) of `input`.
    mutating func observe(_ decision: FixDecision, index: Int, input: String) {
        guard decision.isAccepted else { return }
        if let latest = accepted.last, decision.timestamp < latest.time {
            var wrong: [(index: Int, time: Timestamp)] = []
            while let last = accepted.last, last.time > decision.timestamp { wrong.append(accepted.removeLast()) }
            wrongFixes.formUnion(wrong.map(\.index))
            let first = wrong[wrong.count - 1]
            warnings.append(
                "warning: fix \(first.index) (in read order) of \(input) is dated \(ISO8601.format(first.time))"
                    + (wrong.count > 1 ? " (and \(wrong.count - 1) more accepted fixes after it)" : "")
                    + ", a day or more after the fixes that follow; the tracker started again at fix \(index) ("
                    + "\(ISO8601.format(decision.timestamp))); the summary's times, stops and smoothed track leave "
                    + (wrong.count > 1 ? "those fixes" : "that fix") + " out\n")
            accepted.removeAll(keepingCapacity: true)
        }
        accepted.append((index, decision.timestamp))
    }

    /// `values` (one per fix read, in read order) without the wrong fixes.
    func removingWrongFixes<T>(from values: [T]) -> [T] {
        guard !wrongFixes.isEmpty else { return values }
        return values.enumerated().filter { !wrongFixes.contains($0.offset + 1) }.map(\.element)
    }

    /// Prints the warnings (the first five, then a count).
    func report() {
        for warning in warnings.prefix(5) { Terminal.error(warning) }
        if warnings.count > 5 { Terminal.error("warning: and \(warnings.count - 5) more clock jumps\n") }
    }
}
