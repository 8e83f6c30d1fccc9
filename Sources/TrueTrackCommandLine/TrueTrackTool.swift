import Foundation
import TrueTrackCore
import TrueTrackIO

/// The `truetrack` command-line tool: root command and dispatch. The `truetrack` executable is
/// ``installInterruptionHandling()`` and ``run(_:)``; the benchmarks call ``run(_:)`` to time a command end to end.
///
/// Exit status: 0 success, 1 failure (bad input, unwritable output), 2 usage error. Data goes to stdout,
/// diagnostics to stderr.
public enum TrueTrackTool {
    /// Runs the tool on `arguments` (the command line without the program's name) and returns its exit status: 0
    /// success, 1 failure (bad input, unwritable output, or standard output that could not be written), 2 usage
    /// error (more in ``main(_:)``). Each run on its own: a standard output that failed in an earlier run in the
    /// same process (``Terminal/outputFailed``) neither silences this one nor fails it.
    public static func run(_ arguments: [String]) -> Int32 {
        Terminal.outputFailed.value = false
        return Terminal.exitStatus(for: main(arguments))
    }

    /// Makes Ctrl-C, `kill` and a closed terminal remove the partial outputs before the process ends, and a file
    /// size limit fail a write instead of ending the process (see ``Interruption``). Once per process, before
    /// ``run(_:)``.
    public static func installInterruptionHandling() { Interruption.install() }

    static let version = TrueTrack.version

    static let commands: [(spec: CommandSpec, run: @Sendable (ParsedArguments) throws -> Int32)] = [
        (InfoCommand.spec, InfoCommand.run),
        (ConvertCommand.spec, ConvertCommand.run),
        (ProcessCommand.spec, ProcessCommand.run),
        (DatasetsCommand.spec, DatasetsCommand.run),
        (StopsCommand.spec, StopsCommand.run),
        (BenchCommand.spec, BenchCommand.run),
        (BufferCommand.spec, BufferCommand.run),
        (SyncCommand.spec, SyncCommand.run),
    ]

    static var rootHelp: String {
        var text = """
            OVERVIEW: TrueTrack turns noisy GPS fixes into an accurate track, an honest distance and clean stops.

            USAGE: truetrack <subcommand> [options]

            OPTIONS:
              --version                   Show the version.
              -h, --help                  Show help information.

            SUBCOMMANDS:

            """
        for (spec, _) in commands {
            text +=
                "  " + spec.name + String(repeating: " ", count: max(1, 28 - spec.name.count)) + spec.abstract + "\n"
        }
        text += "\n  See 'truetrack help <subcommand>' for detailed help.\n"
        return text
    }

    /// The subcommand called `name`, or `nil` once the usage error naming it is printed (the caller exits 2).
    static func command(named name: String) -> (spec: CommandSpec, run: @Sendable (ParsedArguments) throws -> Int32)? {
        if let command = commands.first(where: { $0.spec.name == name }) { return command }
        Terminal.error("Error: unknown subcommand '\(name)'\n\n" + rootHelp)
        return nil
    }

    static func main(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first else {
            Terminal.error(rootHelp)
            return 2
        }
        switch first {
        case "--help", "-h":
            Terminal.out(rootHelp)
            return 0
        case "--version":
            Terminal.out(version + "\n")
            return 0
        case "help":
            guard arguments.count > 1 else {
                Terminal.out(rootHelp)
                return 0
            }
            guard let command = command(named: arguments[1]) else { return 2 }
            Terminal.out(command.spec.help)
            return 0
        default:
            break
        }
        guard let command = command(named: first) else { return 2 }
        do {
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.has("help") {
                Terminal.out(command.spec.help)
                return 0
            }
            return try command.run(parsed)
        } catch let error as UsageError {
            Terminal.error(
                "Error: \(error.message)\nUsage: \((error.command ?? command.spec).usage)\n"
                    + "  See 'truetrack \(command.spec.name) --help' for more information.\n")
            return 2
        } catch let error as CommandFailure {
            if !error.isReported { Terminal.error("Error: \(error.message)\n") }
            return 1
        } catch {
            Terminal.error("Error: \(error)\n")
            return 1
        }
    }
}

/// Ctrl-C, `kill` and a closed terminal (SIGINT, SIGTERM, SIGHUP) end the tool (exit status 128 + the signal,
/// 130 for Ctrl-C), but first remove the
/// temporary files of the outputs being written (``PartialOutputs``): their targets are left as they were, and
/// an interrupted export left a `.NAME.PID-N.partial` file of up to the whole output's size (a tester found
/// 56-111 MB ones). The signals are taken by Dispatch sources, so the removal runs on a queue, not inside an
/// async-signal handler.
///
/// A command may leave a line to print then (``note``): `sync` interrupted says what it delivered and that the
/// rest stays queued, where it printed nothing (a tester's Ctrl-C during a long sync).
///
/// A file-size limit (`ulimit -f`) is not an interruption: SIGXFSZ is ignored, so the write past the limit fails
/// with EFBIG and is reported like a full disk ("cannot write …", the partial output removed); by default the
/// signal ended the tool with status 153 and no word, leaving the partial file (a batch tester's).
enum Interruption {
    /// What to say on standard error when a signal ends the tool (a command sets it while it runs: `sync` says
    /// what it delivered).
    static let note = Locked<String?>(nil)

    static func install() {
        signal(SIGXFSZ, SIG_IGN)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                PartialOutputs.shared.removeAll()
                if let note = note.value { Terminal.error(note + "\n") }  // (ignores a closed terminal: no trap)
                // 128 + the signal, as a shell reports a process the signal ended (`raise` cannot end it from
                // here: Dispatch keeps the signal blocked); `_exit`, since the main thread may hold stdio's
                // locks mid-write.
                _exit(128 + signalNumber)
            }
            source.resume()
            _ = Unmanaged.passRetained(source as AnyObject)  // lives as long as the process
        }
    }
}
