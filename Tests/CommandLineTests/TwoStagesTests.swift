import Foundation
import Testing

@testable import TrueTrackCommandLine

/// ``TwoStages``: the hand-off between `process`'s and `stops`' reading thread and the thread that analyses.
@Suite struct TwoStagesTests {
    struct Stop: Error, Equatable { let at: Int }

    /// Counts `count` elements up from 0, stopping early when the consumer does; its state ends as how many it
    /// emitted and whether it was told to stop.
    static func counting(_ count: Int) -> (inout (emitted: Int, toldToStop: Bool), (Int) -> Bool) -> Void {
        { state, emit in
            for i in 0..<count {
                guard emit(i) else {
                    state.toldToStop = true
                    return
                }
                state.emitted += 1
            }
        }
    }

    @Test(arguments: [false, true])
    func everyElementReachesTheConsumerOnceAndInOrder(concurrently: Bool) {
        for (count, capacity) in [(0, 4), (1, 4), (4, 4), (5, 4), (10_000, 7), (10_000, 1), (3, 4096)] {
            var state = (emitted: 0, toldToStop: false)
            var seen: [Int] = []
            TwoStages.run(
                &state, concurrently: concurrently, chunkCapacity: capacity, produce: Self.counting(count)
            ) { seen.append($0) }
            #expect(seen == Array(0..<count), "\(count) elements in chunks of \(capacity)")
            #expect(state.emitted == count && !state.toldToStop, "the producer's state comes back")
        }
    }

    /// What a producer did, seen from the test's thread (a stopped producer is not waited for).
    final class Probe: @unchecked Sendable {
        let lock = NSLock()
        var emitted = 0, toldToStop = false
        let returned = DispatchSemaphore(value: 0)
    }

    @Test(arguments: [false, true])
    func aConsumerThatThrowsStopsTheProducerAndItsErrorComesBack(concurrently: Bool) {
        let probe = Probe()
        var state = 0
        var seen: [Int] = []
        #expect(throws: Stop(at: 5_000)) {
            try TwoStages.run(
                &state, concurrently: concurrently, chunkCapacity: 64,
                produce: { (_: inout Int, emit: (Int) -> Bool) in
                    defer { probe.returned.signal() }
                    for i in 0..<1_000_000 {
                        guard emit(i) else {
                            probe.lock.withLock { probe.toldToStop = true }
                            return
                        }
                        probe.lock.withLock { probe.emitted += 1 }
                    }
                }
            ) { (element: Int) throws(Stop) in
                if element == 5_000 { throw Stop(at: element) }
                seen.append(element)
            }
        }
        #expect(seen == Array(0..<5_000), "nothing after the failing element is consumed")
        #expect(probe.returned.wait(timeout: .now() + 10) == .success, "the producer returns")
        // The producer was told to stop within the chunks it may run ahead: the rest of the one being consumed, two
        // queued and one being filled.
        probe.lock.withLock {
            #expect(probe.toldToStop)
            #expect(probe.emitted >= 5_000 && probe.emitted <= 5_000 + 4 * 64, "\(probe.emitted) emitted")
        }
    }

    /// A consumer's error is thrown at once, not after the producer's next element: a producer waiting for input
    /// (a pipe) held `process`'s write error back until more came (a reviewer's).
    @Test func aConsumerThatThrowsDoesNotWaitForAProducerWaitingForInput() {
        let input = DispatchSemaphore(value: 0), probe = Probe()
        var state = 0
        let start = Date()
        #expect(throws: Stop(at: 0)) {
            try TwoStages.run(
                &state, concurrently: true, chunkCapacity: 1,
                produce: { (_: inout Int, emit: (Int) -> Bool) in
                    defer { probe.returned.signal() }
                    _ = emit(0)
                    _ = input.wait(timeout: .now() + 8)  // more input, long after (waiting for it, the test failed)
                    _ = emit(1)
                }
            ) { (element: Int) throws(Stop) in throw Stop(at: element) }
        }
        #expect(Date().timeIntervalSince(start) < 5)
        input.signal()
        #expect(probe.returned.wait(timeout: .now() + 10) == .success, "the producer returns once its input comes")
    }

    @Test func theProducerRunsAheadByNoMoreThanItsDepth() {
        // The consumer records how far the producer had got when each element arrived.
        final class Progress: @unchecked Sendable {
            let lock = NSLock()
            var emitted = 0
        }
        let progress = Progress()
        var state = 0
        var lead = 0
        TwoStages.run(
            &state, concurrently: true, chunkCapacity: 10, depth: 2,
            produce: { (state: inout Int, emit: (Int) -> Bool) in
                for i in 0..<2_000 {
                    progress.lock.withLock { progress.emitted = i }
                    guard emit(i) else { return }
                    state += 1
                }
            }
        ) { element in
            lead = max(lead, progress.lock.withLock { progress.emitted } - element)
        }
        #expect(state == 2_000)
        // Two full chunks queued, the one being consumed, and the one being filled: 4 × 10.
        #expect(lead <= 40, "the producer ran \(lead) elements ahead")
    }
}

/// `process` and `stops` read and track on one thread and analyse on another (``TwoStages``): their outputs must
/// not depend on it. Each is run with `TRUETRACK_THREADS` 1 and 2 on inputs of several chunks.
@Suite struct TwoThreadedCommandsTests {
    /// A 3 h walk of 10,800 fixes a second apart (just over ten chunks): 1.4 m/s east with 4 m of noise, a 5-minute
    /// halt every 20 minutes, Doppler speeds; with `damagedLine`, that line's latitude unreadable.
    static func walk(_ name: String, damagedLine: Int? = nil) throws -> String {
        var generator = SeededNoise(seed: 7)
        var rows = ["time,latitude,longitude,accuracy_m,speed_mps"]
        var east = 0.0
        for s in 0..<10_800 {
            let halted = s % 1_200 >= 900
            if !halted { east += 1.4 }
            let x = east + 4 * (2 * generator.uniform() - 1), y = 4 * (2 * generator.uniform() - 1)
            let latitude = 48.0 + y / 111_132, longitude = 11.0 + x / 74_480
            let time = 1_700_000_000 + s
            let speed = halted ? 0 : 1.4 + 0.1 * (2 * generator.uniform() - 1)
            let line = rows.count + 1
            rows.append(
                "\(time),\(line == damagedLine ? "48.x" : String(latitude)),\(longitude),5,\(speed)")
        }
        return try Tool.temporaryFile(name, contents: rows.joined(separator: "\n") + "\n")
    }

    /// Runs `arguments` (`OUT` standing for a new temporary file) with `threads`; returns the status, what it
    /// printed (the temporary paths taken out) and the files it wrote.
    static func run(_ arguments: [String], threads: String, outputs: Int) throws -> (Int32, String, String, [Data]) {
        let paths = (0..<outputs).map { Tool.temporaryPath("two-stages-\($0).csv") }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        var next = 0
        let filled = arguments.map { argument -> String in
            guard argument == "OUT" else { return argument }
            defer { next += 1 }
            return paths[next]
        }
        let result = try Tool.run(filled, environment: ["TRUETRACK_THREADS": threads])
        var stdout = result.stdout, stderr = result.stderr
        for (i, path) in paths.enumerated() {
            stdout = stdout.replacingOccurrences(of: path, with: "OUT\(i)")
            stderr = stderr.replacingOccurrences(of: path, with: "OUT\(i)")
        }
        return (result.status, stdout, stderr, paths.map { FileManager.default.contents(atPath: $0) ?? Data() })
    }

    @Test func processAndStopsSayTheSameOnOneThreadAsOnTwo() throws {
        let walk = try Self.walk("two-stages-walk.csv")
        defer { try? FileManager.default.removeItem(atPath: walk) }
        for (arguments, outputs) in [
            (["process", walk, "--json", "--out", "OUT", "--decisions", "OUT"], 2),
            (["process", walk, "--smooth", "--json"], 0),
            (["stops", walk, "--json", "--out", "OUT"], 1),
        ] {
            let one = try Self.run(arguments, threads: "1", outputs: outputs)
            let two = try Self.run(arguments, threads: "2", outputs: outputs)
            #expect(one.0 == 0, "\(arguments): \(one.2)")
            #expect(one.0 == two.0 && one.1 == two.1 && one.2 == two.2, "\(arguments)")
            #expect(one.3 == two.3, "\(arguments): the files written differ")
            #expect(one.1.contains("\"fixes\""), "\(arguments): \(one.1.prefix(200))")
        }
    }

    @Test func aReadErrorEndsTheInputAtTheSameFixOnOneThreadAsOnTwo() throws {
        let walk = try Self.walk("two-stages-damaged.csv", damagedLine: 9_001)
        defer { try? FileManager.default.removeItem(atPath: walk) }
        for arguments in [["process", walk, "--json"], ["stops", walk, "--json"]] {
            let one = try Self.run(arguments, threads: "1", outputs: 0)
            let two = try Self.run(arguments, threads: "2", outputs: 0)
            #expect(one.0 == 1 && two.0 == 1, "\(arguments): \(one.2)")
            #expect(one.1 == two.1 && one.2 == two.2, "\(arguments)")
            // The 8,999 fixes before the damaged line are reported.
            #expect(one.1.contains(":9001:"), "\(arguments): \(one.1.prefix(300))")
            #expect(one.1.contains("8999"), "\(arguments): \(one.1.prefix(300))")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full (Linux)"))
    func aWriteFailureNamesTheSameFixAndLineOnOneThreadAsOnTwo() throws {
        let walk = try Self.walk("two-stages-full.csv")
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let arguments = ["process", walk, "--decisions", "/dev/full"]
        let one = try Self.run(arguments, threads: "1", outputs: 0)
        let two = try Self.run(arguments, threads: "2", outputs: 0)
        #expect(one.0 == 1 && one.0 == two.0 && one.2 == two.2)
        // The fix that failed and its line: the header, then a fix a line.
        let numbers = one.2.split(separator: "while writing fix ").last?.split(whereSeparator: { !$0.isNumber })
        let fix = try #require(numbers?.first.flatMap { Int($0) }, "\(one.2)")
        #expect(one.2.contains("while writing fix \(fix) of \(walk), near line \(fix + 1))"), "\(one.2)")
    }

    /// `convert` reads on one thread and writes on the other: the same files, and the same failure on a full disk.
    @Test func convertWritesTheSameOnOneThreadAsOnTwo() throws {
        let walk = try Self.walk("two-stages-convert.csv", damagedLine: 10_500)
        let gpx = Tool.temporaryPath("two-stages-convert.gpx")
        defer { for path in [walk, gpx] { try? FileManager.default.removeItem(atPath: path) } }
        // (Damaged near its end: the fixes before it are written, and the command fails.)
        let first = try Tool.run(["convert", walk, gpx, "--lenient"])
        #expect(first.status == 0, "\(first.stderr)")
        for (input, format) in [(walk, "gpx"), (gpx, "csv"), (gpx, "geojson")] {
            let one = try Self.run(["convert", input, "OUT", "--to", format], threads: "1", outputs: 1)
            let two = try Self.run(["convert", input, "OUT", "--to", format], threads: "2", outputs: 1)
            #expect(one.0 == two.0 && one.1 == two.1 && one.2 == two.2, "\(input) → \(format): \(one.2) | \(two.2)")
            #expect(one.3 == two.3 && one.3[0].count > 100_000, "\(input) → \(format)")
        }
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let one = try Self.run(["convert", gpx, "/dev/full", "--to", "csv"], threads: "1", outputs: 0)
            let two = try Self.run(["convert", gpx, "/dev/full", "--to", "csv"], threads: "2", outputs: 0)
            #expect(one.0 == 1 && two.0 == 1 && one.2 == two.2, "\(one.2) | \(two.2)")
            #expect(one.2.contains("No space left on device"), "\(one.2)")
        }
    }

    @Test func standardInputReadsAlikeOnOneThreadAndOnTwo() throws {
        let walk = try Self.walk("two-stages-stdin.csv")
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let data = try Data(contentsOf: URL(fileURLWithPath: walk))
        for command in ["process", "stops"] {
            let one = try Tool.run(
                [command, "-", "--format", "csv", "--json"], stdin: data, environment: ["TRUETRACK_THREADS": "1"])
            let two = try Tool.run(
                [command, "-", "--format", "csv", "--json"], stdin: data, environment: ["TRUETRACK_THREADS": "2"])
            #expect(one.status == 0 && two.status == 0, "\(one.stderr)")
            #expect(one.stdout == two.stdout && one.stderr == two.stderr, "\(command)")
            #expect(one.stdout.contains("10800"), "\(one.stdout.prefix(300))")
        }
    }

    @Test("takes TRUETRACK_THREADS 1 or 2, and names any other value it ignores")
    func threadSetting() {
        #expect(TwoStages.threadSetting("1") == (false, nil))
        #expect(TwoStages.threadSetting("2") == (true, nil))
        #expect(TwoStages.threadSetting(nil) == (nil, nil))
        #expect(TwoStages.threadSetting("") == (nil, nil))
        for value in ["4", "one", " 1", "0"] {
            let setting = TwoStages.threadSetting(value)
            #expect(setting.concurrent == nil)
            #expect(setting.warning?.hasPrefix("warning: TRUETRACK_THREADS=\(value) ignored: it takes 1") == true)
        }
    }

    @Test("warns once of a TRUETRACK_THREADS it ignores, and runs as without it")
    func ignoredThreadSettingWarns() throws {
        let walk = try Self.walk("two-stages-setting.csv")
        defer { try? FileManager.default.removeItem(atPath: walk) }
        let ignored = try Tool.run(["process", walk, "--json"], environment: ["TRUETRACK_THREADS": "4"])
        let plain = try Tool.run(["process", walk, "--json"], environment: ["TRUETRACK_THREADS": ""])
        #expect(ignored.status == 0 && ignored.stdout == plain.stdout)
        #expect(ignored.stderr.components(separatedBy: "TRUETRACK_THREADS=4 ignored").count == 2, "\(ignored.stderr)")
        #expect(!plain.stderr.contains("TRUETRACK_THREADS"))
    }
}
