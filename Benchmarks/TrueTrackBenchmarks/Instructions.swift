import Foundation

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
        CommandLine.arguments[0], "--child", benchmark.name, input,
    ]
    // Swift's hashing is seeded per process; a fixed seed keeps any hashing inside the count identical.
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    environment["GLIBC_TUNABLES"] = glibcBaselineTunables
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
    if let path = options.jsonPath {
        writeOutput(jsonText(["instructions": results], what: "the instruction counts"), to: path)
    }
    guard let baselinePath = options.baselinePath else { exit(0) }
    if options.updateBaseline {
        guard var baseline = loaded else {
            fail(
                "\(baselinePath): no baseline to add instruction counts to (record times first: --update-baseline without --instructions)"
            )
        }
        var entries = (options.quick ? baseline.instructionsQuick : baseline.instructionsFull) ?? [:]
        for r in results {
            entries[r.name] = InstructionEntry(
                platform: currentPlatform, instructionsPerFix: r.instructionsPerFix,
                tolerance: entries[r.name]?.tolerance ?? InstructionEntry.defaultTolerance, fixes: r.fixes)
        }
        if options.quick { baseline.instructionsQuick = entries } else { baseline.instructionsFull = entries }
        do { try baseline.save(baselinePath) } catch { fail("cannot write \(baselinePath): \(reason(error))") }
        options.say("instruction counts written to \(baselinePath)")
        exit(0)
    }
    guard let baseline = loaded else { fail("no baseline at \(baselinePath)") }  // main.swift checked it exists
    let entries = (options.quick ? baseline.instructionsQuick : baseline.instructionsFull) ?? [:]
    var failures: [String] = []
    var checked = 0, unchecked = 0
    for r in results {
        guard let entry = entries[r.name] else {
            options.say("\(r.name): not in the baseline's instruction counts, not checked")
            continue
        }
        if let platform = entry.platform, platform != currentPlatform {
            options.say("\(r.name): not checked: its count was recorded on \(platform), this is \(currentPlatform)")
            unchecked += 1
            continue
        }
        guard entry.fixes == r.fixes else {
            failures.append("\(r.name): counted over \(r.fixes) fixes, the baseline over \(entry.fixes)")
            continue
        }
        checked += 1
        let limit = entry.instructionsPerFix * (1 + entry.tolerance)
        options.say(
            "\(r.name): \(String(format: "%.1f", r.instructionsPerFix)) instructions/fix, baseline "
                + "\(String(format: "%.1f", entry.instructionsPerFix)), limit \(String(format: "%.1f", limit))")
        if r.instructionsPerFix < entry.instructionsPerFix / 2 {
            // Far fewer: a real speed-up is recorded with --update-baseline; more often the measured work
            // changed (a case that stopped doing part of its work), which must not pass unseen.
            failures.append(
                "\(r.name): \(String(format: "%.1f", r.instructionsPerFix)) instructions/fix, under half the baseline's "
                    + "\(String(format: "%.1f", entry.instructionsPerFix)): check what the case measures, then "
                    + "--update-baseline if it is a real speed-up")
        }
        if r.instructionsPerFix > limit {
            failures.append(
                "REGRESSION: \(r.name) \(String(format: "%.1f", r.instructionsPerFix)) instructions/fix > \(String(format: "%.1f", limit)) (baseline \(String(format: "%.1f", entry.instructionsPerFix)) + \(String(format: "%g", entry.tolerance * 100)) %)"
            )
        }
    }
    if !results.isEmpty && checked == 0 && unchecked == 0 && failures.isEmpty {
        failures.append(
            "\(baselinePath) holds no instruction count for the cases run (\(options.quick ? "quick" : "full") mode)")
    }
    if checked == 0, unchecked > 0, ProcessInfo.processInfo.environment["CI"] != nil {
        // In CI a gate that checked nothing must not pass: another image needs its own counts, recorded on purpose.
        failures.append(
            "no instruction count checked: \(baselinePath) holds none for \(currentPlatform) (record them with "
                + "--update-baseline on this platform)")
    }
    for line in failures { options.say(line) }
    if failures.isEmpty {
        options.say(
            checked > 0
                ? "no instruction-count regression against \(baselinePath)"
                : "instruction counts not checked: \(baselinePath) holds none for \(currentPlatform) "
                    + "(record them with --update-baseline on this platform)")
    }
    exit(failures.isEmpty ? 0 : 1)
}
