import AllocationCounter
import BenchmarkSupport
import Foundation
import TrueTrackCommandLine

// truetrack-command-benchmarks: the child process of truetrack-benchmarks' CLI cases (`process-csv`, `stops-csv`).
//
//   truetrack-command-benchmarks --child NAME INPUT
//
// Runs the command in process and prints what truetrack-benchmarks' children print: `fixes seconds cpu-seconds
// peak-bytes allocations`. A separate executable because the commands link every TrueTrack library and what those
// load (FoundationNetworking's libcurl, SQLite: 30 more shared libraries): linked into truetrack-benchmarks they
// added 7 MB to the peak memory of every case, the readers' 20 MB of a streamed 1 GB file read 27.6.

/// The `truetrack` command line of each case (the input as its second argument), and where its JSON summary says
/// how many fixes it read.
let cases: [String: (arguments: [String], fixes: ([String: Any]) -> Int?)] = [
    // The noisy drive's 40 s halts are too short for the driving profile's stops: the stop detector judges every
    // fix and reports none.
    "process-csv": (
        ["process", "--profile", "driving", "--json"], { ($0["fixes"] as? [String: Any])?["read"] as? Int }
    ),
    // With a 20 s timeout the halts are stops (333 stops and 334 trips in the quick input), so their records are
    // timed too.
    "stops-csv": (
        ["stops", "--profile", "driving", "--stop-timeout", "20", "--json"], { $0["fixes"] as? Int }
    ),
]

/// Fails the child: the message on standard error, exit status 1 (the parent reports the case as failed).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("truetrack-command-benchmarks: \(message)\n".utf8))
    exit(1)
}

/// Runs `truetrack ARGUMENTS` in process (``TrueTrackTool/run(_:)``) with its standard output, a JSON summary, sent
/// to `summaryPath`, and returns its exit status. Out of line: the function `--instructions` counts, by a name
/// that shares no word with the module's (the mangler abbreviates a repeated one: `measureCommand` was
/// `07measureC0_` in the symbol, and callgrind's `*measureCommand*` matched nothing).
@inline(never)
func measuredRun(_ arguments: [String], summaryPath: String) -> Int32 {
    let file = open(summaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard file >= 0 else { fail("cannot create \(summaryPath): \(String(cString: strerror(errno)))") }
    fflush(nil)  // (every stream: nothing printed before goes to the file)
    let standardOutput = dup(STDOUT_FILENO)
    guard standardOutput >= 0, dup2(file, STDOUT_FILENO) >= 0 else {
        fail("cannot send standard output to \(summaryPath): \(String(cString: strerror(errno)))")
    }
    close(file)
    let status = TrueTrackTool.run(arguments)
    // (Without its standard output back, the result line would go to the file.)
    guard dup2(standardOutput, STDOUT_FILENO) >= 0 else {
        fail("cannot restore standard output: \(String(cString: strerror(errno)))")
    }
    close(standardOutput)
    return status
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, arguments[0] == "--child", let benchmark = cases[arguments[1]] else {
    fail(
        "usage: --child NAME INPUT, NAME one of \(cases.keys.sorted().joined(separator: ", ")) (run by truetrack-benchmarks)"
    )
}
let input = arguments[2]
let command = [benchmark.arguments[0], input] + benchmark.arguments.dropFirst()
let summaryPath = input + "." + arguments[1] + ".json"
let allocationsBefore = truetrack_allocation_count()
let start = Measurement.now(), cpuStart = Measurement.cpuSeconds()
let status = measuredRun(command, summaryPath: summaryPath)
let wall = Measurement.now() - start, cpu = Measurement.cpuSeconds() - cpuStart
let allocations = truetrack_allocation_count() - allocationsBefore
let said = "truetrack " + command.joined(separator: " ")
guard status == 0 else { fail("\(said) exited \(status)") }
guard let data = FileManager.default.contents(atPath: summaryPath),
    let summary = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
    let fixes = benchmark.fixes(summary)
else { fail("\(summaryPath): the JSON summary of \(said) gives no count of fixes") }
print("\(fixes) \(wall) \(cpu) \(Measurement.peakResidentBytes()) \(allocations)")
