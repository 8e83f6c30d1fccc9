import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The buffer's cross-process send lock: an exclusive `flock` on `<database>-sync.lock` beside the database's
/// real path (symlinks resolved), and one on a lock file named for the database file itself (its device and inode,
/// `truetrack-sync-<device>-<inode>.lock` in the temporary folder), both taken without waiting.
///
/// `flock` locks belong to the open file description, so the kernel releases one when its process dies (a
/// `kill -9` mid-flush leaves no stale lock), and they do not interact with SQLite's own `fcntl` locks on the
/// database file. The second lock is for hard links: two names of one database resolve to two paths, and two
/// syncs through them each took their own `-sync.lock` and sent every batch twice (the database file itself is
/// not locked: closing a descriptor of it would drop SQLite's `fcntl` locks of the whole process). (The store now
/// refuses a file of several names outright, ``StoreError/Kind/severalNames(links:)``; the lock still covers a
/// name given to the file while a sync runs.) An in-memory
/// database has no file to share and needs no lock; a lock file that cannot be created (a read-only folder)
/// leaves the flush unlocked by it, as before the lock existed: the buffer itself then cannot be written either,
/// and that error is the one reported.
struct SendLock {
    /// The path of the lock found held by another process (the first of the two when none was), for the error.
    let path: String
    private let descriptors: [Int32]
    /// False when another process holds the lock.
    let isHeld: Bool

    /// Whether SQLite opens `databasePath` as a private in-memory (or temporary) database: `:memory:`, an empty
    /// path, a `file::memory:` URI. Each connection to one is a database of its own.
    static func isInMemory(_ databasePath: String) -> Bool {
        databasePath.isEmpty || databasePath == ":memory:" || databasePath.hasPrefix("file::memory:")
    }

    /// The lock file named for the database file's identity (device and inode), or `nil` when it cannot be read.
    static func identityLockPath(of databasePath: String) -> String? {
        var info = stat()
        guard stat(databasePath, &info) == 0 else { return nil }
        let folder = NSTemporaryDirectory()
        return (folder as NSString).appendingPathComponent("truetrack-sync-\(info.st_dev)-\(info.st_ino).lock")
    }

    /// Tries to take the lock for the buffer at `databasePath`.
    init(databasePath: String) {
        guard !SendLock.isInMemory(databasePath) else {
            path = databasePath + "-sync.lock"
            descriptors = []
            isHeld = true
            return
        }
        // Beside the database's real path: two runs naming it through different paths (a symlink, `..`) took
        // two locks and sent every batch twice.
        let besidePath: String
        if let resolved = realpath(databasePath, nil) {
            besidePath = String(cString: resolved) + "-sync.lock"
            free(resolved)
        } else {
            besidePath = databasePath + "-sync.lock"
        }
        var held: [Int32] = []
        var blockedAt: String?
        for lockPath in [besidePath, SendLock.identityLockPath(of: databasePath)].compactMap({ $0 }) {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { continue }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            guard result == 0 else {
                close(descriptor)
                blockedAt = lockPath
                break
            }
            held.append(descriptor)
        }
        path = blockedAt ?? besidePath
        isHeld = blockedAt == nil
        if !isHeld {
            for descriptor in held { close(descriptor) }
            held = []
        }
        descriptors = held
    }

    /// Releases the lock (the files stay, empty, for the next flush).
    func release() {
        guard isHeld else { return }
        for descriptor in descriptors {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}
