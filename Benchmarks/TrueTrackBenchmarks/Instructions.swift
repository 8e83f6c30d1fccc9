import Foundation
import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#endif

// `--instructions`: each benchmark's measured function run once under valgrind's callgrind, counting the
// instructions it executes per fix. Unlike a time on a shared 2-core VM (medians spread ±10-25 % from run to
// run, so the time baseline's tolerances are 35-75 %), the count is the same on every run of the same binary
// and input, so a small regression (a call the inliner left out of line, a copy in the loop) shows at once.
// It does not see stalls (cache misses, store forwarding): times stay the figure users read.

/// One benchmark's instruction count.
struct InstructionResult: Codable {
    var name: String
    var fixes: Int
    /// Instructions executed inside the benchmark's ``BenchmarkCase/measuredFunction``.
    var instructions: Int
    var instructionsPerFix: Double
}

/// A baseline entry: instructions per fix when recorded, and the tolerance allowed above it.
struct InstructionEntry: Codable {
    /// Where it was counted (``currentPlatform``): another architecture, C library or compiler counts other
    /// instructions (glibc picks `cos` and `memmove` for the CPU; another compiler inlines differently), so an
    /// entry is checked only on the platform it was recorded on. `nil` in entries written before it was kept.
    var platform: String?
    var instructionsPerFix: Double
    /// Regression when the count exceeds `instructionsPerFix × (1 + tolerance)`. Default 0.02: counts are
    /// exact, so this is room for small incidental changes, not noise (inlining `speedMetresPerSecond` saved the
    /// Tracker 2.7 %); anything larger is a decision, recorded with `--update-baseline`.
    var tolerance: Double
    var fixes: Int

    static let defaultTolerance = 0.02

    enum CodingKeys: String, CodingKey, CaseIterable {
        case platform, instructionsPerFix, tolerance, fixes
    }
}

/// A case's instruction counts, one per platform (``InstructionEntry/platform``): in the file an entry object when
/// there is one, an array of them when the case was counted on several platforms (an update on one platform adds or
/// replaces that platform's count and keeps the others': it replaced the entry of another before, a CI tester).
struct PlatformCounts: Codable {
    /// The entries, at most one per platform (and at most one without a platform).
    var entries: [InstructionEntry]

    init(entries: [InstructionEntry]) { self.entries = entries }

    /// The entry counted on `platform`, else the one written before platforms were kept (checked anywhere).
    func entry(for platform: String) -> InstructionEntry? {
        entries.first { $0.platform == platform } ?? entries.first { $0.platform == nil }
    }

    /// ``entry(for:)``, else another platform's (whose tolerance an update keeps, and which a comparison names
    /// without checking).
    func entry(preferring platform: String) -> InstructionEntry? {
        entry(for: platform) ?? entries.first
    }

    /// `entries` with `entry` in place of the one counted on its platform (and of an entry without a platform, which
    /// counted for every platform), sorted by platform.
    func replacing(with entry: InstructionEntry) -> PlatformCounts {
        let kept = entries.filter { $0.platform != nil && $0.platform != entry.platform }
        return PlatformCounts(entries: (kept + [entry]).sorted { ($0.platform ?? "") < ($1.platform ?? "") })
    }

    /// Reads an entry object, or an array of them naming distinct platforms.
    init(from decoder: any Decoder) throws {
        guard var container = try? decoder.unkeyedContainer() else {
            entries = [try InstructionEntry(from: decoder)]
            return
        }
        var entries: [InstructionEntry] = []
        while !container.isAtEnd {
            // The container's index has moved past an entry once it is decoded: the error names the entry's own.
            let index = ArrayIndexKey(container.currentIndex)
            let entry = try container.decode(InstructionEntry.self)
            if entries.contains(where: { $0.platform == entry.platform }) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath + [index],
                        debugDescription:
                            "two counts for platform '\(entry.platform ?? "(none)")' (one entry per platform)"))
            }
            entries.append(entry)
        }
        if entries.isEmpty {
            // Named at the case's key: an empty array has no element to point at.
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "an empty array (an entry, or one per platform)"))
        }
        self.entries = entries
    }

    /// Writes one entry as an object (the layout before several platforms were kept), several as an array.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if entries.count == 1 { try container.encode(entries[0]) } else { try container.encode(entries) }
    }
}

/// The place of an element in a JSON array, for an error that names it (`tracker[1]`).
struct ArrayIndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// Decodes a `T` or an array of them (to check the keys of instruction entries, one or one per platform).
struct OneOrMany<T: Decodable>: Decodable {
    init(from decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            _ = try [T](from: decoder)
        } else {
            _ = try T(from: decoder)
        }
    }
}

/// The architecture, C library and compiler this executable was built for, e.g.
/// `x86_64 glibc 2.41 swift 6.3`.
let currentPlatform: String = {
    #if arch(x86_64)
        let arch = "x86_64"
    #elseif arch(arm64)
        let arch = "arm64"
    #else
        let arch = "other-arch"
    #endif
    #if canImport(Glibc)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count)
        // "glibc 2.36"; the buffer holds the text and its terminating NUL.
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let libc = length > 0 ? String(decoding: text, as: UTF8.self) : "libc ?"
    #else
        let libc = "libc ?"
    #endif
    #if compiler(>=7.0)
        let swift = "7+"
    #elseif compiler(>=6.4)
        let swift = "6.4+"
    #elseif compiler(>=6.3)
        let swift = "6.3"
    #elseif compiler(>=6.2)
        let swift = "6.2"
    #elseif compiler(>=6.1)
        let swift = "6.1"
    #else
        let swift = "6.0"
    #endif
    return "\(arch) \(libc) swift \(swift)"
}()

/// glibc picks `memchr`, `memmove`, `cos`… for the CPU it runs on (AVX2, FMA, ERMS variants): on a host without
/// AVX2 and FMA the NMEA reader counted 2.7 % more instructions and the stop detector 4.2 %, past the 2 %
/// tolerance. The counted child runs with those features hidden from glibc, so it takes its baseline variants
/// on every x86-64 host and the counts do not depend on the CPU.
let glibcBaselineTunables =
    "glibc.cpu.hwcaps=-AVX2_Usable,-AVX_Fast_Unaligned_Load,-FMA_Usable,-AVX2,-FMA,-AVX,-ERMS,-FSRM,-AVX512F,"
    + "-AVX512VL,-AVX512BW,-AVX512DQ,-BMI1,-BMI2,-LZCNT,-MOVBE,-POPCNT"

/// Finds `valgrind` on the PATH.
func valgrindPath() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/valgrind" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}

/// Runs `benchmark` once as a child under callgrind and returns its count, or an error message.
func countInstructions(_ benchmark: BenchmarkCase, input: String, valgrind: String) -> Result<
    InstructionResult, BenchmarkFailure
> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments = [
        "--tool=callgrind", "--callgrind-out-file=/dev/null", "--toggle-collect=*\(benchmark.measuredFunction)*",
        childExecutable(of: benchmark), "--child", benchmark.name, input,
    ]
    // Swift's hashing is seeded per process; a fixed seed keeps any hashing inside the count identical.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    environment["GLIBC_TUNABLES"] = glibcBaselineTunables
    // The commands' two stages on one thread: callgrind's toggle follows the thread that enters the measured
    // function, and with two it counted the main thread's share alone. (Two threads do the same work, plus the
    // chunks' copies and a lock a chunk.)
    environment["TRUETRACK_THREADS"] = "1"
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    do { try process.run() } catch {
        return .failure(BenchmarkFailure("cannot start \(valgrind): \(error)"))
    }
    // Both outputs are a few lines (the child prints one line, callgrind a short log): reading one to its end
    // and then the other cannot block the child on a full pipe.
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let printed = String(decoding: outData, as: UTF8.self)
    let log = String(decoding: errData, as: UTF8.self)
    // callgrind's summary: "==PID== Collected : N".
    let collected = log.split(separator: "\n").first { $0.contains("Collected :") }
        .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
    guard process.terminationStatus == 0, let fixes = printed.split(separator: " ").first.flatMap({ Int($0) }),
        fixes > 0, let collected, collected > 0
    else {
        if collected == 0 {
            // The pattern matched no function: renamed, or inlined away. Zero must not pass as "no regression".
            return .failure(
                BenchmarkFailure(
                    "\(benchmark.name): callgrind counted no instruction inside *\(benchmark.measuredFunction)* (renamed "
                        + "or inlined away? it must stay a function of its own, @inline(never))"))
        }
        let tail = log.split(separator: "\n").suffix(5).joined(separator: "\n")
        return .failure(
            BenchmarkFailure(
                "\(benchmark.name) under callgrind exited \(process.terminationStatus), printed '\(printed.trimmingCharacters(in: .whitespacesAndNewlines))'; valgrind said:\n\(tail)"
            ))
    }
    return .success(
        InstructionResult(
            name: benchmark.name, fixes: fixes, instructions: collected,
            instructionsPerFix: Double(collected) / Double(fixes)))
}

/// A benchmark that could not be run, with the reason.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The `--instructions` mode: count, print, compare with (or record in) `loaded` (the `--baseline` file's
/// content, `nil` when it does not exist), exit.
func runInstructionCounts(
    _ selected: [BenchmarkCase], options: Options, baseline loaded: Baseline?, input: (BenchmarkCase) -> String
) -> Never {
    guard let valgrind = valgrindPath() else {
        fail("--instructions needs valgrind on the PATH (Debian/Ubuntu: apt-get install valgrind)")
    }
    var results: [InstructionResult] = []
    for benchmark in selected {
        let path = input(benchmark)
        FileHandle.standardError.write(Data("\(benchmark.name): counting instructions…\n".utf8))
        switch countInstructions(benchmark, input: path, valgrind: valgrind) {
        case .success(let result): results.append(result)
        case .failure(let failure): fail(failure.description)
        }
    }
    let width = max(9, results.map(\.name.count).max() ?? 0)
    options.say("benchmark".padding(toLength: width, withPad: " ", startingAt: 0) + "      fixes  instructions/fix")
    for r in results {
        options.say(
            r.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + String(format: "  %9d  %16.1f", r.fixes, r.instructionsPerFix))
    }
    options.say(
        "instructions counted by callgrind inside each benchmark's measured function, one run each (\(options.quick ? "quick" : "full") inputs)"
    )
    var report = InstructionReport(quick: options.quick, platform: currentPlatform, instructions: results)
    if let baselinePath = options.baselinePath, let loaded {
        // With --update-baseline too: the log shows what the recording changes.
        let entries = (options.quick ? loaded.instructionsQuick : loaded.instructionsFull) ?? [:]
        let comparison = compareInstructions(
            results, with: entries, path: baselinePath, quick: options.quick, recording: options.updateBaseline)
        for c in comparison.cases { options.say(c.marginLine) }
        for c in comparison.cases {
            for line in c.improvements + (comparison.recording ? c.failures : []) { options.say(line) }
        }
        report.comparison = comparison
        report.failures = comparison.failures
        report.passed = comparison.failures.isEmpty
        for line in comparison.failures { options.say(line) }
        if !options.updateBaseline && report.passed {
            options.say(
                comparison.cases.contains { $0.verdict != .unchecked }
                    ? "no instruction-count regression against \(baselinePath)"
                    : "instruction counts not checked: \(baselinePath) holds none for \(currentPlatform) "
                        + "(record them with --update-baseline on this platform)")
        }
    }
    if let baselinePath = options.baselinePath, options.updateBaseline {
        guard var baseline = loaded else {
            fail(
                "\(baselinePath): no baseline to add instruction counts to (record times first: --update-baseline without --instructions)"
            )
        }
        var entries = (options.quick ? baseline.instructionsQuick : baseline.instructionsFull) ?? [:]
        for r in results {
            // This platform's count is added or replaced; another platform's stays (it replaced it before).
            let counts = entries[r.name] ?? PlatformCounts(entries: [])
            let tolerance = counts.entry(preferring: currentPlatform)?.tolerance ?? InstructionEntry.defaultTolerance
            entries[r.name] = counts.replacing(
                with: InstructionEntry(
                    platform: currentPlatform, instructionsPerFix: r.instructionsPerFix, tolerance: tolerance,
                    fixes: r.fixes))
        }
        // A complete update (no --only) drops the entries naming no case (renamed or removed): kept, the next
        // comparison failed on them (a CI tester).
        let dropped = options.only.isEmpty ? Baseline.dropDeadEntries(&entries) : []
        if options.quick { baseline.instructionsQuick = entries } else { baseline.instructionsFull = entries }
        do { try baseline.save(baselinePath) } catch { fail("cannot write \(baselinePath): \(reason(error))") }
        options.say("instruction counts written to \(baselinePath)")
        for name in dropped {
            options.say(
                "dropped the instruction count (\(options.quick ? "instructionsQuick" : "instructionsFull")) for "
                    + "\(name): no benchmark case has that name (renamed or removed)")
        }
    }
    if let path = options.jsonPath { writeOutput(jsonText(report, what: "the instruction counts"), to: path) }
    exit(report.passed ? 0 : 1)
}

/// What `--json` writes in `--instructions` mode.
struct InstructionReport: Codable {
    /// The version of this JSON layout, as ``BenchmarkReport/schemaVersion``.
    var schemaVersion = 1
    /// The TrueTrack version counted (``TrueTrack/version``).
    var truetrackVersion = TrueTrack.version
    var quick: Bool
    /// Where the counts were made (``currentPlatform``).
    var platform: String
    var instructions: [InstructionResult]
    /// The comparison with `--baseline`'s entries; absent without `--baseline`.
    var comparison: InstructionComparison? = nil
    /// What fails the run, one line each as printed.
    var failures: [String] = []
    /// No failure: the exit status is 0.
    var passed = true
}

/// One case's instruction count compared with its baseline entry.
struct InstructionCaseComparison: Codable {
    var name: String
    var verdict: Verdict
    var instructionsPerFix: Double
    /// The entry's count, tolerance and limit (`count × (1 + tolerance)`), and the count under which the case
    /// is reported improved (`count × (1 − tolerance / 2)`); absent when there is no entry.
    var baselineInstructionsPerFix: Double?
    var tolerance: Double?
    var limit: Double?
    var improvedBelow: Double?
    /// The platform the entry was counted on (checked only there); absent in entries written before it was kept.
    var baselinePlatform: String?
    /// The lines that fail the run for this case (unless recording): `REGRESSION`, a count over other fixes,
    /// under half the entry's.
    var failures: [String]
    /// The `IMPROVED` line for this case, if any: information only.
    var improvements: [String]

    /// The line the log shows for every case.
    var marginLine: String {
        guard let baselineInstructionsPerFix, let limit else {
            return "\(name): not in the baseline's instruction counts, not checked"
        }
        if verdict == .unchecked, let baselinePlatform {
            return "\(name): not checked: its count was recorded on \(baselinePlatform), this is \(currentPlatform)"
        }
        return "\(name): \(String(format: "%.1f", instructionsPerFix)) instructions/fix, baseline "
            + "\(String(format: "%.1f", baselineInstructionsPerFix)), limit \(String(format: "%.1f", limit))"
    }
}

/// An `--instructions` run compared with the baseline, as written under `comparison` in the JSON.
struct InstructionComparison: Codable {
    /// The baseline file's path, as given.
    var baseline: String
    /// `quick` or `full`: the entries compared (`instructionsQuick` or `instructionsFull`).
    var mode: String
    /// `--update-baseline`: the comparison is with the entries being replaced, and nothing fails.
    var recording: Bool
    var cases: [InstructionCaseComparison]
    /// What fails the run, one line each (empty when recording). Not in the JSON: the report's `failures` holds
    /// them, with the run's other failures.
    var failures: [String] = []

    enum CodingKeys: String, CodingKey {
        case baseline, mode, recording, cases
    }
}

/// Compares counted `results` with the baseline's `entries` (of `path`, in the mode `quick` says). Under CI
/// (``isContinuousIntegration``) a case whose count was recorded on another platform only fails: any case left
/// unchecked is a gate switched off (one case's other-platform entry passed as "not checked", a CI tester).
func compareInstructions(
    _ results: [InstructionResult], with entries: [String: PlatformCounts], path: String, quick: Bool,
    recording: Bool
) -> InstructionComparison {
    func f(_ v: Double) -> String { String(format: "%.1f", v) }
    let regression = recording ? "REGRESSION (recording)" : "REGRESSION"
    let cases = results.map { r in
        var c = InstructionCaseComparison(
            name: r.name, verdict: .unchecked, instructionsPerFix: r.instructionsPerFix, failures: [],
            improvements: [])
        // This platform's count, else another's (not checked, and said).
        guard let entry = entries[r.name]?.entry(preferring: currentPlatform) else { return c }
        let limit = entry.instructionsPerFix * (1 + entry.tolerance)
        let improvedBelow = entry.instructionsPerFix * (1 - entry.tolerance / 2)
        c.baselineInstructionsPerFix = entry.instructionsPerFix
        c.tolerance = entry.tolerance
        c.limit = limit
        c.improvedBelow = improvedBelow
        c.baselinePlatform = entry.platform
        if let platform = entry.platform, platform != currentPlatform { return c }
        if entry.fixes != r.fixes {
            c.verdict = .failed
            c.failures.append("FAILED: \(r.name) counted over \(r.fixes) fixes, the baseline over \(entry.fixes)")
        } else if r.instructionsPerFix > limit {
            c.verdict = .regression
            c.failures.append(
                "\(regression): \(r.name) \(f(r.instructionsPerFix)) instructions/fix > \(f(limit)) (baseline "
                    + "\(f(entry.instructionsPerFix)) + \(String(format: "%g", entry.tolerance * 100)) %)")
        } else if r.instructionsPerFix < entry.instructionsPerFix / 2 {
            // Far fewer: a real speed-up is recorded with --update-baseline; more often the measured work
            // changed (a case that stopped doing part of its work), which must not pass unseen.
            c.verdict = .failed
            c.failures.append(
                "FAILED: \(r.name) \(f(r.instructionsPerFix)) instructions/fix, under half the baseline's "
                    + "\(f(entry.instructionsPerFix)): check what the case measures, then "
                    + "--update-baseline if it is a real speed-up")
        } else if r.instructionsPerFix < improvedBelow {
            c.verdict = .improved
            c.improvements.append(
                "IMPROVED: \(r.name) \(f(r.instructionsPerFix)) instructions/fix < \(f(improvedBelow)) (baseline "
                    + "\(f(entry.instructionsPerFix)) − \(String(format: "%g", entry.tolerance * 50)) %)"
                    + (recording ? ", recording it" : ": --update-baseline records it"))
        } else {
            c.verdict = .ok
        }
        return c
    }
    var failures: [String] = []
    if !recording {
        failures = cases.flatMap(\.failures)
        failures += unmatchedEntries(
            run: results.map(\.name), entries: Array(entries.keys), path: path,
            what: "instruction count (\(quick ? "instructionsQuick" : "instructionsFull"))")
        let compared = cases.contains { $0.verdict != .unchecked }
        let otherPlatform = cases.contains { $0.verdict == .unchecked && $0.baselineInstructionsPerFix != nil }
        if !cases.isEmpty, !compared, !otherPlatform {
            failures.append(
                "FAILED: \(path) holds no instruction count for the cases run (\(quick ? "quick" : "full") mode)")
        }
        if isContinuousIntegration {
            // In CI a case left unchecked must not pass, one case or all: another image needs its own
            // counts, recorded on purpose.
            for c in cases where c.verdict == .unchecked {
                guard let platform = c.baselinePlatform else { continue }
                failures.append(
                    "FAILED: \(c.name) not checked: \(path) holds its instruction count for \(platform) only, this is "
                        + "\(currentPlatform) (under CI every case is checked: record it on this platform with "
                        + "--update-baseline --only \(c.name), which keeps the other platform's)")
            }
        }
    }
    return InstructionComparison(
        baseline: path, mode: quick ? "quick" : "full", recording: recording, cases: cases, failures: failures)
}
