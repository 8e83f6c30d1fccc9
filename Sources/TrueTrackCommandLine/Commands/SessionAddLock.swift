import Foundation
import TrueTrackSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock `buffer add --session` holds from reading a session's state to writing its last: an exclusive `flock` on
/// `<database>-session.lock` beside the database's real path (symlinks resolved), taken *waiting*. Two adds into
/// one session at once each continued the state they had read and wrote their own, the last one winning: a
/// re-tester's two halves of 20,000 fixes read 13,998.6 m of 27,998.6, both exiting 0, for good. Now the second
/// waits and continues the first one's state. One lock per database (adds into different sessions wait too: an add
/// is seconds). `flock` locks belong to the open file description: a killed add leaves none behind, and they do not
/// interact with SQLite's `fcntl` locks on the database file. An in-memory database needs none; a lock file that
/// cannot be created (a read-only folder) leaves the add unlocked, and the buffer's own write error is the one
/// reported.
final class SessionAddLock {
    private let descriptor: Int32

    /// Takes the lock for the buffer at `databasePath`, waiting while another add holds it; `waiting` is called
    /// once before the wait (to say why the command pauses).
    init(databasePath: String, waiting: () -> Void) {
        guard !databasePath.isEmpty, databasePath != ":memory:", !databasePath.hasPrefix("file::memory:") else {
            descriptor = -1
            return
        }
        var lockPath = databasePath + "-session.lock"
        if let resolved = realpath(databasePath, nil) {
            lockPath = String(cString: resolved) + "-session.lock"
            free(resolved)
        }
        // (Another user's lock file, in a buffer two users share, is opened read-only: see `SendLock.openLockFile`.)
        let fd = SendLock.openLockFile(lockPath)
        guard fd >= 0 else {
            descriptor = -1
            return
        }
        var result = flock(fd, LOCK_EX | LOCK_NB)
        if result != 0 && errno == EWOULDBLOCK {
            waiting()
            repeat { result = flock(fd, LOCK_EX) } while result != 0 && errno == EINTR
        }
        descriptor = fd
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
