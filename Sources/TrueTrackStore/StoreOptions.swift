/// How hard SQLite works to keep a committed write across failures: the `PRAGMA synchronous` level used
/// with the write-ahead log (WAL).
///
/// Both levels survive the process being killed at any instant (SIGKILL, the OS reclaiming an app):
/// a commit is in the WAL file in the OS's page cache before ``FixBuffer/append(_:decision:sessionID:)``
/// returns, and SQLite replays or discards a half-written transaction on the next open, so the file is never
/// corrupted. They differ only when the whole machine stops (kernel crash, battery pulled).
public enum Durability: String, Sendable, Hashable, CaseIterable {
    /// `synchronous = FULL`: every commit is flushed to the storage device (`fsync` of the WAL) before the
    /// call returns. A fix reported as persisted survives a process kill, an OS crash and a power loss.
    /// Costs one device flush per transaction (a few milliseconds on phones and VMs), hence: batch.
    case full
    /// `synchronous = NORMAL`: commits reach the OS but the device is flushed only at checkpoints. A fix
    /// reported as persisted survives a process kill; an OS crash or power loss may lose the transactions
    /// since the last checkpoint, never corrupting the file.
    case normal

    /// The value of `PRAGMA synchronous`.
    var pragmaValue: String {
        switch self {
        case .full: "FULL"
        case .normal: "NORMAL"
        }
    }
}

/// Whether a ``FixBuffer`` is opened to be changed or only to be read.
public enum StoreAccess: Sendable, Hashable, CaseIterable {
    /// Reading and writing: the file and its schema are created when absent, and an older schema migrated.
    case readWrite
    /// Reading only: nothing is written, the file is neither created nor migrated, and every change (an append, a
    /// sync's claim) fails with ``StoreError/Kind-swift.enum/readOnly``. For inspecting a buffer another user's
    /// process writes, or one on a read-only mount: SQLite reads a write-ahead-log database through a `-shm` index
    /// beside it, which it creates when absent; where the folder cannot be written (or the disk is full) and no
    /// write-ahead log is beside the file (everything committed is in the file), the file is read as unchanging
    /// (SQLite's `immutable=1`): without a lock, so a process that writes the file meanwhile (it would need to
    /// create its log beside it, where this reader could not) may make a read inconsistent.
    case readOnly
}

/// Settings of a ``FixBuffer`` or ``SessionStateStore``.
public struct StoreOptions: Sendable, Hashable {
    /// The accepted values of ``maxRecordsToPersist`` (from 100 to a million rows).
    public static let maxRecordsRange = 100...1_000_000

    /// The hard cap on buffered fixes: past it the oldest rows are dropped (and counted in
    /// ``BufferStatistics/droppedCount``), so an offline device never fills its storage. Default 10,000
    /// (about 2.8 hours at one fix per second, under 3 MB on disk); allowed range 100–1,000,000.
    public var maxRecordsToPersist: Int
    /// Fixes stored more than this many seconds before now are dropped too (counted as dropped): judged by
    /// when the buffer stored them, not by the fix's own time, which a wrong phone clock or an imported old
    /// track puts years back (such fixes were dropped a minute after being reported stored). `nil` (the
    /// default) keeps fixes whatever their age, because an old walk is still the user's data.
    /// Checked when the buffer opens and at most once a minute while appending (a full scan of the table).
    public var maxAgeSeconds: Double?
    /// The durability level; ``Durability/full`` by default, because the buffer's promise is that a fix
    /// reported as persisted is never lost.
    public var durability: Durability
    /// How long a write waits for another connection's (or process's) write lock before failing with
    /// ``StoreError/Kind-swift.enum/busy``, seconds. Default 5 s: far above any single transaction here.
    public var busyTimeoutSeconds: Double

    /// Creates options; every default is documented on its property.
    public init(
        maxRecordsToPersist: Int = 10_000, maxAgeSeconds: Double? = nil, durability: Durability = .full,
        busyTimeoutSeconds: Double = 5
    ) {
        self.maxRecordsToPersist = maxRecordsToPersist
        self.maxAgeSeconds = maxAgeSeconds
        self.durability = durability
        self.busyTimeoutSeconds = busyTimeoutSeconds
    }

    /// Throws when an option is outside its documented range.
    func validate(path: String) throws(StoreError) {
        // SQLite opens "" as a private temporary database: a buffer that silently vanishes. (It failed later
        // with "journal mode is delete".)
        guard !path.isEmpty, !path.contains("\0") else {
            throw StoreError(
                kind: .invalidOption(
                    name: "path", value: "\"\(path)\"", expected: "a file path, or :memory: for a throwaway store"),
                path: path, message: "")
        }
        guard StoreOptions.maxRecordsRange.contains(maxRecordsToPersist) else {
            throw StoreError(
                kind: .invalidOption(
                    name: "maxRecordsToPersist", value: String(maxRecordsToPersist), expected: "100...1000000"),
                path: path, message: "")
        }
        if let age = maxAgeSeconds, !(age.isFinite && age > 0) {
            throw StoreError(
                kind: .invalidOption(name: "maxAgeSeconds", value: "\(age)", expected: "a positive number of seconds"),
                path: path, message: "")
        }
        guard busyTimeoutSeconds.isFinite, busyTimeoutSeconds >= 0, busyTimeoutSeconds <= 3600 else {
            throw StoreError(
                kind: .invalidOption(name: "busyTimeoutSeconds", value: "\(busyTimeoutSeconds)", expected: "0...3600"),
                path: path, message: "")
        }
    }
}
