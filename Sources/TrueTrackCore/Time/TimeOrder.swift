extension RandomAccessCollection where Index == Int {
    /// The indices of the elements in time order, oldest first; elements with equal times keep their order (a
    /// stable sort). How a delivered batch is put in order (``Tracker/process(batch:)``,
    /// ``StopDetector/process(batch:)``, `truetrack convert --sort`): a locked phone delivers newest first.
    ///
    /// - Complexity: O(n log n).
    @inlinable
    public func indicesInTimeOrder(by time: (Element) -> Timestamp) -> [Int] {
        indices.sorted { (time(self[$0]), $0) < (time(self[$1]), $1) }
    }

    /// Whether the elements are already in time order (equal times allowed): the batch processors then skip
    /// ``indicesInTimeOrder(by:)``'s sort and its allocation.
    ///
    /// - Complexity: O(n), stopping at the first element older than the one before.
    @inlinable
    public func isInTimeOrder(by time: (Element) -> Timestamp) -> Bool {
        for i in indices.dropFirst() where time(self[i]) < time(self[i - 1]) { return false }
        return true
    }
}
