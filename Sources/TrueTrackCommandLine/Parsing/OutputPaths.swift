import TrueTrackIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses output paths that would destroy an input or each other before anything is opened: an output file
/// is truncated when it is created, so `convert track.csv track.csv` (or `--out` through a symlink to the
/// input) would empty the input before a byte of it was read.
enum OutputPaths {
    /// The writable format `name` (`--to`: csv, gpx, geojson, jsonl), or a usage error naming the writable ones.
    static func writableFormat(named name: String) throws -> FixFormat {
        guard let format = FixFormat(name: name), FixFormat.writable.contains(format) else {
            throw UsageError(
                message:
                    "cannot write format '\(name)' (writable: \(FixFormat.writable.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        return format
    }

    /// The format an output path is written in: by its extension, and CSV for standard output (`-`, which has
    /// none), the format every tool reads (`process --out -`, `convert IN -`).
    static func format(of path: String) -> FixFormat? {
        path == "-" ? .csv : FixFormat.guess(fromExtensionOf: path)
    }

    /// Throws the error writing `path` would end with when its folder does not exist or cannot be written into, before
    /// any input is read: `stops --out` wrote after the whole analysis, and a stops tester's long track was analysed
    /// for nothing (and its report not shown). `-` and `nil` pass; a file that exists is left to the writer.
    static func checkFolderWritable(_ path: String?) throws(CommandFailure) {
        guard let path, path != "-" else { return }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard access(folder, W_OK | X_OK) != 0 else { return }
        let reason = String(cString: strerror(errno))
        throw CommandFailure(message: "\(path): cannot write: \(reason)")
    }

    /// Throws a usage error when any of `outputs` (option or argument name, path; `nil`: the option was not
    /// given) is the same file as one of `inputs`, or as another output. `-` (standard input/output) is never
    /// compared with a file. Two outputs on standard output (`-`) are refused too: their texts would interleave.
    static func checkDistinct(inputs: [String], outputs given: [(name: String, path: String?)]) throws(UsageError) {
        let outputs = given.compactMap { output in output.path.map { (name: output.name, path: $0) } }
        let onStandardOutput = outputs.filter { $0.path == "-" }.map(\.name)
        if onStandardOutput.count > 1 {
            throw UsageError(
                message: "\(onStandardOutput.joined(separator: " and ")) both write to standard output ('-'): their "
                    + "texts would interleave (send one of them to a file)")
        }
        var seen: [(name: String, identity: String)] = []
        for input in inputs where input != "-" {
            if let id = identity(of: input) { seen.append(("the input '\(input)'", id)) }
        }
        for output in outputs where output.path != "-" {
            guard let id = identity(of: output.path) else { continue }
            if let clash = seen.first(where: { $0.identity == id }) {
                throw UsageError(
                    message: "\(output.name) '\(output.path)' is the same file as \(clash.name): refusing to "
                        + "overwrite it (write to another file)")
            }
            seen.append(("\(output.name) '\(output.path)'", id))
        }
    }

    /// Device and inode of an existing regular file (symlinks followed); for a path that does not exist yet,
    /// its absolute, symlink-resolved folder and name; `nil` when neither can be found, and for anything that
    /// is not a regular file (`/dev/null`, a terminal, a pipe: writing there truncates nothing).
    static func identity(of path: String, linksFollowed: Int = 0) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            return "inode \(info.st_dev):\(info.st_ino)"
        }
        // A dangling symlink: writing creates its target, so the target is what the path names.
        var linkInfo = stat()
        if linksFollowed < 8, lstat(path, &linkInfo) == 0, linkInfo.st_mode & S_IFMT == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            if count > 0 {
                let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
                return identity(of: target.hasPrefix("/") ? target : folder + target, linksFollowed: linksFollowed + 1)
            }
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(folder.isEmpty ? "/" : folder, nil) else { return nil }
        defer { free(resolved) }
        return "path \(String(cString: resolved))/\(name)"
    }
}
