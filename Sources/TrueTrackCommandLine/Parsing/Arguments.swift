/// A usage error: the command line does not say something the tool understands. Exit status 2.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, e.g. `unknown option '--frm'`.
    var message: String
    /// The command whose usage line should be shown with the error.
    var command: CommandSpec?
    var description: String { message }
}

/// A failure while doing the work (unreadable input, unwritable output). Exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    /// The message went out already, inside the JSON on standard error (`--json` with `--out -`): `main` prints no
    /// `Error:` line after it, which would leave standard error unparseable (a reviewer's). The exit status is 1
    /// still.
    var isReported = false
    var description: String { message }

    /// Both failures in one, `first`'s message then `second`'s on a line of its own (an output that could not be
    /// written, then the read error that cut the input short); either alone when the other is `nil`.
    static func joining(_ first: CommandFailure?, _ second: CommandFailure?) -> CommandFailure? {
        guard let first, let second else { return first ?? second }
        return CommandFailure(message: first.message + "\n" + second.message)
    }
}

/// The declaration of one option or flag, used for parsing and for the help text.
struct OptionSpec: Sendable {
    /// Long name without dashes (`format`).
    var name: String
    /// Optional one-letter short name (`o`).
    var short: Character? = nil
    /// Name of the value in help (`FORMAT`); `nil` for a flag that takes no value.
    var valueName: String? = nil
    /// One-line help.
    var help: String
    /// May be given several times (values accumulate).
    var repeatable = false
    /// Must be given: the usage line shows it without brackets (`sync --db FILE --url URL`; the command itself
    /// checks it and names it when missing).
    var required = false
}

/// A subcommand: its name, what it does, its positional arguments and options.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    /// Positional arguments as shown in usage, e.g. `["INPUT..."]`.
    var positionals: [String]
    var minimumPositionals: Int
    var maximumPositionals: Int?
    var options: [OptionSpec]
    var discussion: String = ""

    /// The one-line usage, e.g. `truetrack info INPUT... [--json]`.
    var usage: String {
        var parts = ["truetrack", name]
        parts += positionals
        for option in options where option.name != "help" {
            let flag = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
            parts.append((option.required ? flag : "[\(flag)]") + (option.repeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    /// The full help text printed by `truetrack NAME --help`.
    var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        text += "\nOPTIONS:\n"
        for option in options + [OptionSpec(name: "help", short: "h", help: "Show help information.")] {
            var left = option.short.map { "-\($0), " } ?? ""
            left += "--\(option.name)"
            if let value = option.valueName { left += " <\(value.lowercased())>" }
            let pad = max(1, 28 - left.count)
            text += "  " + left + String(repeating: " ", count: pad) + option.help + "\n"
        }
        return text
    }
}

/// The parsed command line of one subcommand.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// True when the flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
    /// The last value given for an option.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Parses `arguments` (everything after the subcommand name) against `spec`.
    ///
    /// Conventions follow swift-argument-parser: `--name value`, `--name=value`, `-x value`, `--` ends options,
    /// a lone `-` is a positional (standard input or output).
    static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func find(long: String) -> OptionSpec? { spec.options.first { $0.name == long } }
        func find(short: Character) -> OptionSpec? { spec.options.first { $0.short == short } }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "--help" || argument == "-h" { result.flags.insert("help"); continue }
            var name: Substring
            var inlineValue: String? = nil
            let option: OptionSpec?
            if argument.hasPrefix("--") {
                name = argument.dropFirst(2)
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = name[..<eq]
                }
                option = find(long: String(name))
            } else {
                guard argument.count == 2, let letter = argument.dropFirst().first else {
                    throw UsageError(message: "unknown option '\(argument)'", command: spec)
                }
                name = Substring(String(letter))
                option = find(short: letter)
            }
            guard let option else {
                throw UsageError(message: "unknown option '\(argument)'", command: spec)
            }
            if option.valueName == nil {
                guard inlineValue == nil else {
                    throw UsageError(message: "option '--\(option.name)' takes no value", command: spec)
                }
                result.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(
                        message: "missing value for '--\(option.name) <\(option.valueName!.lowercased())>'",
                        command: spec)
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, result.values[option.name] != nil {
                throw UsageError(message: "option '--\(option.name)' given more than once", command: spec)
            }
            result.values[option.name, default: []].append(value)
        }
        if !result.has("help") {
            if result.positionals.count < spec.minimumPositionals {
                let missing = spec.positionals[min(result.positionals.count, spec.positionals.count - 1)]
                throw UsageError(message: "missing expected argument '\(missing)'", command: spec)
            }
            if let maximum = spec.maximumPositionals, result.positionals.count > maximum {
                throw UsageError(message: "unexpected argument '\(result.positionals[maximum])'", command: spec)
            }
        }
        return result
    }
}
