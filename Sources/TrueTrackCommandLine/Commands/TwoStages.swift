import Foundation

/// Runs a command's per-fix work as two stages on two threads: the first (reading, and for `process` and `stops`
/// tracking) on a thread of its own, the second (what the command makes of each fix: the analysis, the outputs) on
/// the caller's, the first's results handed over in chunks, in order. `process` and `stops` read, track and diagnose on one core and analyse stops, write and sum on
/// the other: on the `process-csv` benchmark's drive the two stages cost about 3,500 and 2,800 instructions per fix,
/// so the command takes the longer stage's time instead of the sum's.
///
/// Every element is made and consumed in the order the first stage emits it, by the same code as on one thread:
/// the results do not depend on the threads (the tests compare both ways).
enum TwoStages {
    /// Whether commands run their two stages on two threads: `TRUETRACK_THREADS` in the environment says, `1` for
    /// one thread and `2` for two; without it, two when the process may use two cores or more (``usableCores``).
    /// Any other value is ignored with a warning on standard error (``threadSetting(_:)``). The benchmarks'
    /// instruction counts set `1` (callgrind's toggle follows the thread that enters the measured function), the
    /// tests `2` (both ways give the same output on any machine), and a user can set `1` to leave the second core
    /// to something else.
    static let areConcurrent: Bool = {
        let setting = threadSetting(ProcessInfo.processInfo.environment["TRUETRACK_THREADS"])
        if let warning = setting.warning { Terminal.error(warning) }
        return setting.concurrent ?? (usableCores > 1)
    }()

    /// What a `TRUETRACK_THREADS` value asks for: `concurrent` false for `1`, true for `2`, nil (the default) when
    /// unset or empty, or for anything else, which also gets a `warning` naming the value (a user who wrote `4` or
    /// `one` should not believe it was taken).
    static func threadSetting(_ value: String?) -> (concurrent: Bool?, warning: String?) {
        switch value {
        case "1": return (false, nil)
        case "2": return (true, nil)
        case nil, "": return (nil, nil)
        case let value?:
            return (
                nil,
                "warning: TRUETRACK_THREADS=\(value) ignored: it takes 1 (one thread) or 2 (two); using "
                    + "\(usableCores > 1 ? "two threads, as two cores are usable" : "one thread, as one core is usable")\n"
            )
        }
    }

    /// The cores this process may run on: on Linux those of its affinity mask, `Cpus_allowed` in
    /// `/proc/self/status` (`taskset -c 0` leaves one, which `ProcessInfo.activeProcessorCount` does not see: a
    /// reviewer's; Glibc's `sched_getaffinity` is not visible to Swift), else the active processors.
    static var usableCores: Int {
        #if os(Linux)
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
            {
                let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
                    count + (character.hexDigitValue?.nonzeroBitCount ?? 0)
                }
                if count > 0 { return count }
            }
        #endif
        return ProcessInfo.processInfo.activeProcessorCount
    }

    /// How many elements a chunk holds: `process`'s 1,024 fixes with their decisions are 330 KB, and at most four
    /// chunks are alive (two queued, one filled, one consumed). The hand-off's lock is taken once a chunk, so its cost
    /// per fix is negligible.
    static let defaultChunkCapacity = 1024

    /// Runs `produce` over `state`, its emitted elements consumed by `consume` in order; with `concurrently`, the
    /// producer on a thread of its own, at most `depth` full chunks queued ahead of the one being consumed (2: with
    /// the one being filled, four chunks at most; memory stays bounded whatever the input's length).
    ///
    /// - Parameters:
    ///   - state: what the producer owns while it runs (a reader, a tracker): moved to its thread and back, never
    ///     touched by the caller meanwhile (it waits).
    ///   - produce: emits the elements; `emit` returns `false` once the consumer has stopped (it threw), and the
    ///     producer should then return.
    ///   - consume: called on the caller's thread for every element, in order.
    /// - Throws: the first error `consume` throws, at once: the producer stops at its next hand-off and is not
    ///   waited for (blocked on a pipe, it could hold the error back until more input came: a reviewer's), and
    ///   `state` is left as it was passed (concurrently) or as the producer left it (on one thread).
    @inline(__always)
    static func run<State, Element, Failure: Error>(
        _ state: inout State, concurrently: Bool = areConcurrent, chunkCapacity: Int = defaultChunkCapacity,
        depth: Int = 2, produce: @escaping (inout State, _ emit: (Element) -> Bool) -> Void,
        consume: (Element) throws(Failure) -> Void
    ) throws(Failure) {
        guard concurrently else {
            var failure: Failure?
            produce(&state) { element in
                do throws(Failure) {
                    try consume(element)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            return
        }
        let handOff = HandOff<State, Element>(
            state: state, produce: produce, chunkCapacity: max(1, chunkCapacity), depth: max(1, depth))
        let thread = Thread { [handOff] in handOff.runProducer() }
        thread.stackSize = 8 << 20  // (the tracker's 5 KB and its callers' frames, as on the main thread)
        thread.start()
        var chunk: [Element] = []
        while handOff.take(replacing: &chunk) {
            for element in chunk {
                do throws(Failure) { try consume(element) } catch {
                    handOff.stop()
                    throw error
                }
            }
        }
        state = handOff.waitForProducer()
    }
}

/// The chunks between the two stages' threads, and the producer's state (see
/// ``TwoStages/run(_:concurrently:chunkCapacity:depth:produce:consume:)``).
///
/// `@unchecked Sendable`: everything below is touched under `condition`'s lock, except `state` and `produce`, which
/// only the producer's thread touches from its start until it sets `producerReturned` (under the lock), and only
/// the consumer's after it has seen that (a consumer that stopped never touches them again).
private final class HandOff<State, Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State
    private let produce: (inout State, (Element) -> Bool) -> Void
    private let chunkCapacity: Int, depth: Int
    /// Full chunks, oldest first (at most `depth`).
    private var full: [[Element]] = []
    /// Emptied chunks the consumer gave back, their storage kept for the producer.
    private var spare: [[Element]] = []
    private var consumerStopped = false, producerReturned = false

    init(
        state: State, produce: @escaping (inout State, (Element) -> Bool) -> Void, chunkCapacity: Int, depth: Int
    ) {
        self.state = state
        self.produce = produce
        self.chunkCapacity = chunkCapacity
        self.depth = depth
    }

    /// The producer's thread: runs `produce`, handing over each full chunk and the last one.
    func runProducer() {
        var chunk: [Element] = []
        chunk.reserveCapacity(chunkCapacity)
        produce(&state) { element in
            chunk.append(element)
            return chunk.count < chunkCapacity || hand(&chunk)
        }
        if !chunk.isEmpty { _ = hand(&chunk) }
        condition.lock()
        producerReturned = true
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `chunk` (waiting while `depth` chunks are), replaces it with an empty one; `false` when the consumer
    /// has stopped (nothing queued).
    private func hand(_ chunk: inout [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while full.count >= depth && !consumerStopped { condition.wait() }
        guard !consumerStopped else { return false }
        full.append(chunk)
        if let empty = spare.popLast() {
            chunk = empty
        } else {
            chunk = []
            chunk.reserveCapacity(chunkCapacity)
        }
        condition.broadcast()
        return true
    }

    /// The consumer: gives back `chunk` (emptied, its storage kept) and replaces it with the next full one,
    /// waiting for it; `false` when the producer has returned and every chunk was taken.
    func take(replacing chunk: inout [Element]) -> Bool {
        chunk.removeAll(keepingCapacity: true)
        condition.lock()
        defer { condition.unlock() }
        if chunk.capacity > 0 { spare.append(chunk) }
        while full.isEmpty && !producerReturned { condition.wait() }
        guard !full.isEmpty else { return false }
        chunk = full.removeFirst()
        condition.broadcast()
        return true
    }

    /// The consumer has stopped: the producer's next hand-off returns `false`, and queued chunks are dropped.
    func stop() {
        condition.lock()
        consumerStopped = true
        full.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the producer has returned, and gives back its state.
    func waitForProducer() -> State {
        condition.lock()
        while !producerReturned { condition.wait() }
        condition.unlock()
        return state
    }
}
