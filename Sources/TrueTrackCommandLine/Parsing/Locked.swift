import Foundation

/// A value shared by every thread of a command, read and written under a lock: the `sync` command's flush runs in a
/// task and reports from it, and a signal's handler runs on a Dispatch queue (``Interruption``). Sound despite
/// `@unchecked`: the stored value is only touched under the lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// The value now.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in one step (a read and a write under one lock) and returns the new value.
    @discardableResult
    func update(_ change: (inout Value) -> Void) -> Value {
        lock.withLock {
            change(&stored)
            return stored
        }
    }
}
