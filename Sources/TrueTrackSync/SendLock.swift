import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The buffer's cross-process send lock: an exclusive `flock` on `<database>-sync.lock` beside the database's
/// real path (symlinks resolved), and one on a lock file named for the database file itself (its device and inode,
/// `truetrack-sync-<device>-<inode>.lock` in the temporary folder), both taken without waiting, and both files
/// removed when the lock is released.
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
package struct SendLock {
    /// The path of the lock found held by another process (the first of the two when none was), for the error.
    let path: String
    /// The lock files held and their descriptors.
    private let locks: [(path: String, descriptor: Int32)]
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
            locks = []
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
        var held: [(path: String, descriptor: Int32)] = []
        var blockedAt: String?
        for lockPath in [besidePath, SendLock.identityLockPath(of: databasePath)].compactMap({ $0 }) {
            switch SendLock.lock(lockPath) {
            case .held(let descriptor): held.append((lockPath, descriptor))
            case .blocked: blockedAt = lockPath
            case .unavailable: continue
            }
            if blockedAt != nil { break }
        }
        path = blockedAt ?? besidePath
        isHeld = blockedAt == nil
        if !isHeld {
            for lock in held { SendLock.unlock(lock) }
            held = []
        }
        locks = held
    }

    /// What ``lock(_:)`` found.
    enum Attempt {
        case held(Int32)
        case blocked
        /// The file cannot be opened (a read-only folder): the flush goes on without this lock.
        case unavailable
    }

    /// Opens the lock file at `lockPath` for `flock`, creating it (0644) when missing: a descriptor, or −1 with
    /// `errno` set. Another user's lock file (left by a killed run, or held now; in a buffer two users share) is
    /// opened read-only: `flock` needs no write access, and refused, the run went on without the lock, unsaid (a
    /// reviewer's). The send lock's and `buffer add --session`'s lock file both open so.
    package static func openLockFile(_ lockPath: String) -> Int32 {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES { return open(lockPath, O_RDONLY | O_CLOEXEC) }
        return descriptor
    }

    /// How many times ``lock(_:)`` opens the file again when the one it locked was removed meanwhile.
    static let lockAttempts = 8

    /// Takes the exclusive lock on the file at `lockPath` (created if needed) without waiting. A holder removes the
    /// file as it releases it (``release()``), so a descriptor opened just before that can lock a file no longer at
    /// the path while another process locks the new one there: a lock is taken only on the file the path names
    /// (device and inode compared), and otherwise the path is opened again.
    ///
    /// - Parameter opened: called after each open, before the lock is taken (a test's way into the race).
    static func lock(_ lockPath: String, opened: () -> Void = {}) -> Attempt {
        for _ in 0..<lockAttempts {
            let descriptor = openLockFile(lockPath)
            guard descriptor >= 0 else { return .unavailable }
            opened()
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            guard result == 0 else {
                close(descriptor)
                return .blocked
            }
            if names(lockPath, theFileOf: descriptor) { return .held(descriptor) }
            close(descriptor)
        }
        // (Removed again and again under it: other flushes keep taking it.)
        return .blocked
    }

    /// Releases the lock and removes its files (while still holding them: see ``lock(_:)``), so that neither the
    /// database's folder nor the temporary folder keeps one per database ever synced (an API tester counted 481 in
    /// `/tmp`).
    func release() {
        guard isHeld else { return }
        for lock in locks { SendLock.unlock(lock) }
    }

    /// Removes a held lock's file, if its path still names the file locked (a file put there by someone else, after
    /// an `rm` or a temporary-folder cleaner, is another process's lock, never removed here), then unlocks it.
    static func unlock(_ lock: (path: String, descriptor: Int32)) {
        if names(lock.path, theFileOf: lock.descriptor) { _ = unlink(lock.path) }
        _ = flock(lock.descriptor, LOCK_UN)
        close(lock.descriptor)
    }

    /// Whether `path` names the file open at `descriptor` (device and inode): not when it was removed, or replaced
    /// by another process's file.
    static func names(_ path: String, theFileOf descriptor: Int32) -> Bool {
        var opened = stat(), named = stat()
        return fstat(descriptor, &opened) == 0 && stat(path, &named) == 0 && opened.st_dev == named.st_dev
            && opened.st_ino == named.st_ino
    }
}
