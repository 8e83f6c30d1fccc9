import Foundation
import TrueTrackCommandLine

// The `truetrack` executable: the commands live in the TrueTrackCommandLine library (so that the benchmarks can
// time them in process); this is its entry point.
TrueTrackTool.installInterruptionHandling()
exit(TrueTrackTool.run(Array(CommandLine.arguments.dropFirst())))
