import TrueTrackCore

/// One record (a CSV row) formatted straight into a sink's scratch storage and appended to its buffer at once
/// (``ByteSink/appendRecord(_:)``).
///
/// ## Why
/// Appended field by field, every byte and every number paid an array's uniqueness and capacity checks: a comma
/// about 20 instructions, a number's digits about 110 to append, a timestamp about 1,000 to format; `convert`'s
/// CSV writer cost about 3,000 instructions per fix. Here a write is a store through a pointer, after one
/// bounds check per field.
///
/// Every write checks that the scratch has room first: a record longer than the scratch (a writer's bound
/// gone wrong) stops the program with a message instead of writing past the storage.
public struct RecordBytes {
    /// Where the next byte goes.
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    /// One past the scratch's last byte.
    @usableFromInline let limit: UnsafeMutablePointer<UInt8>

    /// Formats into `capacity` bytes from `start`.
    @inlinable
    public init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        next = start
        limit = start + capacity
    }

    /// Checks that `count` more bytes fit.
    @inlinable @inline(__always)
    mutating func reserve(_ count: Int) {
        precondition(limit - next >= count, "a record outgrew its scratch storage (a writer's bound is wrong)")
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    public mutating func put(_ byte: UInt8) {
        reserve(1)
        next.pointee = byte
        next += 1
    }

    /// Writes a `StaticString`'s UTF-8 bytes (an argument typed so: the GPX writer's element names; a bare literal
    /// takes the `String` overload). Through `withUTF8Buffer`: a one-scalar static string has no pointer to read.
    @inlinable
    public mutating func put(_ text: StaticString) {
        text.withUTF8Buffer { put(bytes: $0) }
    }

    /// Writes the UTF-8 bytes of `text` (short texts: field values such as a provider's or an activity's name).
    @inlinable
    public mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put(bytes: $0) }
    }

    /// Writes `bytes`.
    @inlinable
    public mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        if let base = bytes.baseAddress { next.update(from: base, count: bytes.count) }
        next += bytes.count
    }

    /// Writes the shortest decimal text that reads back as `value` (``NumberFormatting/append(_:to:)``'s text).
    @inlinable
    public mutating func put(_ value: Double) {
        NumberFormatting.put(value, into: &self)
    }

    /// Writes a decimal integer.
    @inlinable
    public mutating func put(_ value: Int64) {
        NumberFormatting.putScaled(value.magnitude, decimals: 0, negative: value < 0, into: &self)
    }

    /// Writes `timestamp` as ISO 8601 (``ISO8601/format(_:)``'s text).
    @inlinable
    public mutating func put(_ timestamp: Timestamp) {
        reserve(ISO8601.maximumLength)
        next += ISO8601.write(timestamp, to: next)
    }
}

/// The standard library writes a `Double`'s shortest digits through this (see
/// ``NumberFormatting/appendShortest(_:to:)``).
extension RecordBytes: TextOutputStream {
    @inlinable
    public mutating func write(_ string: String) { put(string) }

    // (The standard library's hook for ASCII text: a requirement of `TextOutputStream` with a default that builds
    // a `String`.)
    @inlinable
    public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { put(bytes: buffer) }
}
