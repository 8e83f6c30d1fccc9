#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The buffer's cross-process send lock: an exclusive `flock` on `<database>-sync.lock` beside the database's
/// real path (symlinks resolved), taken without waiting.
///
/// `flock` locks belong to the open file description, so the kernel releases one when its process dies (a
/// `kill -9` mid-flush leaves no stale lock), and they do not interact with SQLite's own `fcntl` locks on the
/// database file. An in-memory database has no file to share and needs no lock; a lock file that cannot be
/// created (a read-only folder) leaves the flush unlocked, as before the lock existed: the buffer itself
/// then cannot be written either, and that error is the one reported.
struct SendLock {
    /// The lock file's path.
    let path: String
    private let descriptor: Int32
    /// False when another process holds the lock.
    let isHeld: Bool

    /// Whether SQLite opens `databasePath` as a private in-memory (or temporary) database: `:memory:`, an empty
    /// path, a `file::memory:` URI. Each connection to one is a database of its own.
    static func isInMemory(_ databasePath: String) -> Bool {
        databasePath.isEmpty || databasePath == ":memory:" || databasePath.hasPrefix("file::memory:")
    }

    /// Tries to take the lock for the buffer at `databasePath`.
    init(databasePath: String) {
        guard !SendLock.isInMemory(databasePath) else {
            path = databasePath + "-sync.lock"
            descriptor = -1
            isHeld = true
            return
        }
        // Beside the database's real path: two runs naming it through different paths (a symlink, `..`) took
        // two locks and sent every batch twice.
        if let resolved = realpath(databasePath, nil) {
            path = String(cString: resolved) + "-sync.lock"
            free(resolved)
        } else {
            path = databasePath + "-sync.lock"
        }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            isHeld = true
            return
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        isHeld = result == 0
        if !isHeld { close(descriptor) }
    }

    /// Releases the lock (the file stays, empty, for the next flush).
    func release() {
        guard isHeld, descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
