import AllocationCounter
import BenchmarkSupport
import TrueTrackCore
import TrueTrackIO
import TrueTrackSimulation
import TrueTrackSmoothing

/// One throughput benchmark: how to generate its input and what to run on it.
struct BenchmarkCase: Sendable {
    var name: String
    var inputName: String
    var inputExtension: String
    var quickCount: Int
    var fullCount: Int
    /// The measured work reads the input file (false when the file only holds the fix count: `track-walk`).
    var readsInput = true
    /// Too slow or too big for `--quick` (CI).
    var fullOnly = false
    /// The peak memory bound the benchmark asserts, in MiB.
    var memoryLimitMegabytes: Double? = nil
    var generate: @Sendable (String, Int) throws -> Void
    var run: @Sendable (String) throws -> Int
    /// The function whose instructions `--instructions` counts (callgrind's `--toggle-collect`, matched inside
    /// the mangled name): the measured part only, never the reading of a timed benchmark's input.
    var measuredFunction = "measureRun"
    /// For a benchmark that times only part of its work (the Tracker, not the reading of its input): it
    /// measures itself and ``run`` is not used.
    var timed: (@Sendable (String) throws -> TimedRun)? = nil
    /// The executable, beside this one, that runs the case as its child (`--child NAME INPUT`) instead of this one:
    /// `truetrack-command-benchmarks` for the CLI's commands, which load libraries (libcurl, SQLite) that would
    /// add 7 MB to every other case's peak memory here. ``run`` is then not used.
    var childExecutable: String? = nil

    /// Whether the timed work reads the input file, so that its size (MB) and MB/s describe it: not for a
    /// self-timed case (its input is read into memory before the timing starts) nor for one that does not read
    /// its file.
    var measuresInputBytes: Bool { timed == nil && readsInput }

    /// One line per case for `--help`: its name, its fixes in `--quick` and full mode, and what is not timed.
    static func helpTable() -> String {
        func grouped(_ n: Int) -> String {
            var text = String(n)
            var i = text.count - 3
            while i > 0 {
                text.insert(",", at: text.index(text.startIndex, offsetBy: i))
                i -= 3
            }
            return text
        }
        let width = all.map(\.name.count).max() ?? 0
        return all.map { c in
            let quick = c.fullOnly ? "full only" : grouped(c.quickCount)
            let note =
                c.timed != nil
                ? "  (input read into memory first, untimed)" : c.readsInput ? "" : "  (no input file: fixes simulated)"
            return "  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + quick.leftPadded(to: 10) + " / " + grouped(c.fullCount).leftPadded(to: 10) + note
        }.joined(separator: "\n")
    }

    static let all: [BenchmarkCase] = [
        BenchmarkCase(
            name: "read-csv", inputName: "fixes", inputExtension: "csv", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.csv
        ) { path in
            var reader = try CSVReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(
            name: "read-gpx", inputName: "fixes", inputExtension: "gpx", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.gpx
        ) { path in
            var reader = try GPXReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(
            name: "read-nmea", inputName: "fixes", inputExtension: "nmea", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.nmea
        ) { path in
            var reader = try NMEAReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(
            name: "read-gnsslogger", inputName: "fixes", inputExtension: "gnsslogger.txt", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.gnssLogger
        ) { path in
            var reader = try GnssLoggerReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(
            name: "read-jsonl", inputName: "fixes", inputExtension: "jsonl", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.jsonLines
        ) { path in
            var reader = try JSONLinesReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(
            name: "read-geojson", inputName: "fixes", inputExtension: "geojson", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.geoJSON
        ) { path in
            var reader = try GeoJSONReader(path: path)
            return try drain(&reader)
        },
        // Through the run-time format switch the CLI uses, into the CSV writer: what `convert` costs.
        BenchmarkCase(
            name: "convert-gpx-to-csv", inputName: "fixes", inputExtension: "gpx", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.gpx
        ) { path in
            var reader = try AnyFixReader(path: path)
            var writer = try AnyFixWriter(path: path + ".out.csv", format: .csv)
            var count = 0
            while let fix = try reader.next() {
                try writer.write(fix)
                count += 1
            }
            try writer.finish()
            return count
        },
        // The Tracker on in-memory fixes (issue 3's bar: >= 20 M fixes/s, no allocation per fix): the
        // simulator's degraded-phone walk with stops (1,449 fixes, cache-resident) fed over and over, each pass
        // shifted in time so that every fix is new. The input file only holds the fix count.
        BenchmarkCase(
            name: "track-walk", inputName: "track-walk", inputExtension: "count", quickCount: 1_000_000,
            fullCount: 10_000_000, readsInput: false,
            generate: { path, count in
                try String(count).write(toFile: path, atomically: true, encoding: .utf8)
            }
        ) { path in
            let count = Int(try String(contentsOfFile: path, encoding: .utf8)) ?? 0
            return trackWalk(count: count)
        },
        // The memory bar: streaming a 1 GB file stays under 64 MB of resident memory.
        BenchmarkCase(
            name: "stream-1gb-csv", inputName: "big", inputExtension: "csv", quickCount: 0,
            fullCount: 19_000_000, fullOnly: true, memoryLimitMegabytes: 64, generate: Generators.csv
        ) { path in
            var reader = try CSVReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(
            name: "stream-1gb-gpx", inputName: "big", inputExtension: "gpx", quickCount: 0,
            fullCount: 10_000_000, fullOnly: true, memoryLimitMegabytes: 64, generate: Generators.gpx
        ) { path in
            var reader = try GPXReader(path: path)
            return try drain(&reader)
        },
        // The Tracker alone (driving profile, the synthetic drive of `Generators.route`): fixes are read into memory first, then
        // only the Tracker loop is timed; allocations counted over that loop.
        // 1 M fixes even in --quick: 200 k take only ~20 ms of CPU, too short for a stable ratio.
        BenchmarkCase(
            name: "tracker", inputName: "route", inputExtension: "csv", quickCount: 1_000_000,
            fullCount: 1_000_000, generate: Generators.route, run: { _ in 0 },
            measuredFunction: "measureTracker",
            timed: { path in measureTracker(try fixesInMemory(path)) }),
        // The RewindingTracker on the same fixes, one at a time in order (its usual case): the Tracker plus
        // keeping the horizon's fixes and a copy of the tracker every 64 fixes.
        BenchmarkCase(
            name: "rewinding-tracker", inputName: "route", inputExtension: "csv", quickCount: 1_000_000,
            fullCount: 1_000_000, generate: Generators.route, run: { _ in 0 },
            measuredFunction: "measureRewindingTracker",
            timed: { path in measureRewindingTracker(try fixesInMemory(path)) }),
        // End to end: read a CSV file and run every fix through the Tracker, streaming (what `process` does
        // before writing).
        BenchmarkCase(
            name: "end-to-end-csv", inputName: "route", inputExtension: "csv", quickCount: 1_000_000,
            fullCount: 1_000_000, generate: Generators.route
        ) { path in
            var reader = try AnyFixReader(path: path)
            var tracker = Tracker(profile: .driving)
            var count = 0, accepted = 0
            while let fix = try reader.next() {
                if tracker.process(fix).isAccepted { accepted += 1 }
                count += 1
            }
            blackHole(tracker.distance.totalMetres + Double(accepted))
            return count
        },
        // The CLI end to end, in process, in its own child executable (``childExecutable``): `truetrack process
        // FILE --profile driving --json` on the noisy drive (reading, the Tracker, the stop analysis, the run's
        // diagnostics and the summary: what a batch user waits for; the cases above time its parts), and `truetrack
        // stops … --stop-timeout 20 --json`, whose stops and trips are timed too. Their command lines:
        // Benchmarks/TrueTrackCommandBenchmarks/main.swift.
        BenchmarkCase(
            name: "process-csv", inputName: "drive", inputExtension: "csv", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.noisyDrive, run: { _ in 0 }, measuredFunction: "measuredRun",
            childExecutable: "truetrack-command-benchmarks"),
        BenchmarkCase(
            name: "stops-csv", inputName: "drive", inputExtension: "csv", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.noisyDrive, run: { _ in 0 }, measuredFunction: "measuredRun",
            childExecutable: "truetrack-command-benchmarks"),
        // Stop detection alone (walking profile): fixes read and turned into motion evidence first (untimed),
        // then the state machine fed every fix, as an app would live.
        BenchmarkCase(
            name: "stop-detector", inputName: "fixes", inputExtension: "csv", quickCount: 1_000_000,
            fullCount: 1_000_000, generate: Generators.csv, run: { _ in 0 },
            measuredFunction: "measureStopDetector",
            timed: { path in
                var reader = try CSVReader(path: path)
                var evidence: [MotionEvidence] = []
                while let fix = try reader.next() { evidence.append(MotionEvidence(fix: fix)) }
                return measureStopDetector(evidence)
            }),
        // Whole-track smoothing (issue 7) of a noisy 1 Hz drive with stops, jumps, Doppler and gaps, read into
        // memory first (untimed): the smoother alone, driving profile, default options (Cauchy IRLS, σ).
        BenchmarkCase(
            name: "smooth", inputName: "drive", inputExtension: "csv", quickCount: 200_000,
            fullCount: 1_000_000, generate: Generators.noisyDrive, run: { _ in 0 },
            measuredFunction: "measureSmoother",
            timed: { path in
                var reader = try CSVReader(path: path)
                let result = reader.readAll()
                if let error = result.error { throw error }
                return measureSmoother(result.fixes)
            }),
    ]
}

extension String {
    /// The text right-aligned in `width` columns (unchanged when longer).
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

/// What a self-timed benchmark measured.
struct TimedRun {
    var fixes: Int
    var wallSeconds: Double
    var cpuSeconds: Double
    /// Heap allocations during the timed part.
    var allocations: UInt64
}

/// Every fix of the CSV file at `path`, read into memory (untimed, before a self-timed benchmark).
func fixesInMemory(_ path: String) throws -> [Fix] {
    var reader = try CSVReader(path: path)
    var fixes: [Fix] = []
    while let fix = try reader.next() { fixes.append(fix) }
    return fixes
}

/// Times the Tracker over `fixes` (driving profile) and counts its heap allocations.
@inline(never)
func measureTracker(_ fixes: [Fix]) -> TimedRun {
    var tracker = Tracker(profile: .driving)
    var accepted = 0
    let allocationsBefore = truetrack_allocation_count()
    let start = Measurement.now(), cpuStart = Measurement.cpuSeconds()
    for fix in fixes where tracker.process(fix).isAccepted { accepted += 1 }
    let wall = Measurement.now() - start, cpu = Measurement.cpuSeconds() - cpuStart
    let allocations = truetrack_allocation_count() - allocationsBefore
    blackHole(tracker.distance.totalMetres + Double(accepted))
    return TimedRun(fixes: fixes.count, wallSeconds: wall, cpuSeconds: cpu, allocations: allocations)
}

/// Times the RewindingTracker over `fixes` in order (driving profile) and counts its heap allocations.
@inline(never)
func measureRewindingTracker(_ fixes: [Fix]) -> TimedRun {
    var tracker = RewindingTracker(profile: .driving)
    var accepted = 0
    let allocationsBefore = truetrack_allocation_count()
    let start = Measurement.now(), cpuStart = Measurement.cpuSeconds()
    for fix in fixes where tracker.process(fix).decision.isAccepted { accepted += 1 }
    let wall = Measurement.now() - start, cpu = Measurement.cpuSeconds() - cpuStart
    let allocations = truetrack_allocation_count() - allocationsBefore
    blackHole(tracker.tracker.distance.totalMetres + Double(accepted))
    return TimedRun(fixes: fixes.count, wallSeconds: wall, cpuSeconds: cpu, allocations: allocations)
}

/// Times the stop detector over `evidence` and counts its heap allocations.
@inline(never)
func measureStopDetector(_ evidence: [MotionEvidence]) -> TimedRun {
    var detector = StopDetector(profile: .walking)
    var events = 0
    let allocationsBefore = truetrack_allocation_count()
    let start = Measurement.now(), cpuStart = Measurement.cpuSeconds()
    for item in evidence { events &+= detector.process(item).count }
    let wall = Measurement.now() - start, cpu = Measurement.cpuSeconds() - cpuStart
    let allocations = truetrack_allocation_count() - allocationsBefore
    blackHole(events)
    return TimedRun(fixes: evidence.count, wallSeconds: wall, cpuSeconds: cpu, allocations: allocations)
}

/// Times one whole-track smoothing of `fixes` (driving profile) and counts its heap allocations.
@inline(never)
func measureSmoother(_ fixes: [Fix]) -> TimedRun {
    let allocationsBefore = truetrack_allocation_count()
    let start = Measurement.now(), cpuStart = Measurement.cpuSeconds()
    let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
    let wall = Measurement.now() - start, cpu = Measurement.cpuSeconds() - cpuStart
    let allocations = truetrack_allocation_count() - allocationsBefore
    blackHole(track.distanceMetres + track.distanceSigmaMetres + Double(track.iterations))
    return TimedRun(fixes: fixes.count, wallSeconds: wall, cpuSeconds: cpu, allocations: allocations)
}

/// Reads every fix, folding them into a checksum the optimiser cannot drop.
@inline(never)
func drain<R: FixReader>(_ reader: inout R) throws -> Int {
    var count = 0
    var checksum = 0.0
    while let fix = try reader.next() {
        count += 1
        checksum += fix.latitude + Double(fix.timestamp.millisecondsSince1970 & 0xFF)
    }
    blackHole(checksum)
    return count
}

/// Feeds `count` simulated walking fixes through one ``Tracker`` (see the `track-walk` case).
@inline(never)
func trackWalk(count: Int) -> Int {
    let base = Simulator.simulate(.walkWithStops, errors: .degradedPhone, seed: 1).fixes
    guard let first = base.first, let last = base.last, count > 0 else { return 0 }
    let span = last.timestamp.millisecondsSince1970 - first.timestamp.millisecondsSince1970 + 1000
    var tracker = Tracker(profile: .walking)
    var done = 0
    var pass: Int64 = 0
    var checksum = 0.0
    while done < count {
        let shift = pass * span
        for fix in base where done < count {
            let shifted = try! fix.retimed(
                to: Timestamp(millisecondsSince1970: fix.timestamp.millisecondsSince1970 + shift))
            checksum += tracker.process(shifted).totalDistanceMetres
            done += 1
        }
        pass += 1
    }
    blackHole(checksum)
    return done
}
