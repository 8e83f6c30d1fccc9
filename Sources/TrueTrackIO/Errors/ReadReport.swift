/// Why a reader passed over a line or record without producing a fix.
public enum SkipReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// An empty line.
    case blank
    /// A comment line (`#…` in CSV, NMEA and GnssLogger files, `%…` in IPIN logs), and gpsd's JSON reports between
    /// the NMEA sentences of a `gpspipe -w` or `-r` log (`{"class":"TPV",…}`).
    case comment
    /// A header line: a CSV file's column names, a GnssLogger `MessageType,…` layout line, the six preamble
    /// lines of a GeoLife PLT file. Counted apart from comments so that a clean file reports no skipped
    /// comment.
    case header
    /// A record of a kind this reader does not turn into fixes (other NMEA sentences, `Raw` rows in a
    /// GnssLogger file, `POSI` rows in an IPIN log, GPX metadata…).
    case otherRecord
    /// A GPX `<wpt>` left out because the reader takes track and route points only (``ReadOptions/gpxPointKinds``).
    case gpxWaypoint
    /// Bytes that are not text of this format (UBX binary between NMEA sentences, for instance).
    case binaryNoise
    /// An NMEA sentence whose checksum does not match.
    case checksumMismatch
    /// The receiver itself says there is no valid fix (NMEA status `V`, GGA quality 0).
    case noFix
    /// A record without a usable time (GPX points without `<time>`, NMEA epochs before any date is known).
    case missingTime
    /// A record without a position (empty latitude or longitude fields).
    case missingPosition
    /// A fix from a provider the caller filtered out.
    case providerFiltered
    /// A fix of another device than the one asked for (``ReadOptions/devices``), or of none (an empty device
    /// field of a CSV row, a JSON record without a device member).
    case deviceFiltered
    /// An exact repeat of the previous record (only where a reader is asked to drop them).
    case duplicate
    /// A malformed record skipped because the reader runs leniently (see ``ReadReport/errors``).
    case malformed

    /// Whether a record skipped for this reason holds no fix by nature: a blank line, a comment, a header,
    /// another record kind, a GPX waypoint left out by choice. Counting those is information, not a problem.
    public var isNonFixRecord: Bool {
        switch self {
        case .blank, .comment, .header, .otherRecord, .gpxWaypoint: true
        default: false
        }
    }
}

/// What a reader saw besides the fixes it produced: lines read, lines skipped by reason, and (when reading
/// leniently) the errors it stepped over.
public struct ReadReport: Sendable, Hashable {
    /// The input's name (path, `<stdin>` or `<memory>`).
    public var source: String
    /// Lines (or XML elements / JSON records) examined.
    public var recordsRead: Int = 0
    /// Fixes produced.
    public var fixesProduced: Int = 0
    /// Bytes consumed from the input.
    public var bytesRead: Int = 0
    /// Records skipped, by reason (see ``SkipReason``).
    public private(set) var skipped: [SkipReason: Int] = [:]
    /// Where the first record skipped for a reason was, for the reasons a reader locates (NMEA's checksum
    /// mismatches): a user can look at the sentence.
    public private(set) var firstSkipped: [SkipReason: SourceLocation] = [:]
    /// The errors stepped over in lenient mode, the first ``maximumKeptErrors`` of them.
    public private(set) var errors: [ReadError] = []
    /// How many errors were stepped over in lenient mode (may exceed `errors.count`).
    public private(set) var errorCount: Int = 0
    /// Times written without a UTC offset that were read as local times in ``ReadOptions/localTimeZone`` and
    /// converted to UTC (0 without that option).
    public var localTimesConverted: Int = 0

    /// Errors beyond this many are counted but not kept, so a garbage file cannot exhaust memory.
    public static let maximumKeptErrors = 100

    /// Creates an empty report for `source`.
    public init(source: String) {
        self.source = source
    }

    /// Counts one skipped record.
    public mutating func skip(_ reason: SkipReason, count: Int = 1) {
        skipped[reason, default: 0] += count
    }

    /// Counts one skipped record found at `location` (kept in ``firstSkipped`` when it is the reason's first).
    public mutating func skip(_ reason: SkipReason, at location: SourceLocation) {
        skipped[reason, default: 0] += 1
        if firstSkipped[reason] == nil { firstSkipped[reason] = location }
    }

    /// The number of records skipped for `reason`.
    public func skipped(_ reason: SkipReason) -> Int { skipped[reason] ?? 0 }

    /// Total number of records skipped for any reason.
    public var totalSkipped: Int { skipped.values.reduce(0, +) }

    /// Records that by nature hold no fix: blank lines, comments and headers, other record kinds (NMEA
    /// satellite sentences, GnssLogger `Raw` rows…), GPX waypoints left out by choice. Counting them is
    /// information, not a problem.
    public var nonFixRecords: Int { skipped.filter { $0.key.isNonFixRecord }.values.reduce(0, +) }

    /// Records that were meant to be fixes but were not used: no fix, no time, no position, a bad checksum,
    /// binary noise, a filtered provider, a duplicate, a malformed record read leniently.
    public var unusableRecords: Int { totalSkipped - nonFixRecords }

    /// Records a bad record: in lenient mode it is counted (``SkipReason/malformed``) and kept, and reading
    /// goes on; otherwise the error is thrown.
    public mutating func reject(_ error: ReadError, lenient: Bool) throws(ReadError) {
        guard lenient else { throw error }
        errorCount += 1
        skip(.malformed)
        if case .truncated = error { endOfInput = error }
        if errors.count < ReadReport.maximumKeptErrors { errors.append(error) }
    }

    /// Records a bad optional field of a fix (a speed, an accuracy, an altitude, a course…): in lenient mode it is
    /// counted and kept in ``unreadableFields``, and the reader goes on as if the field were empty, so that the fix
    /// keeps its position and time (a tester's Pixel 4 log lost a whole fix to an altitude `-29co.199999`);
    /// otherwise the error is thrown. Fields a fix cannot do without (position, time, a validity flag, a segment
    /// label) are ``reject(_:lenient:)``'s.
    ///
    /// The field is held with its record until the record yields a fix (the reader calls
    /// ``keepUnreadableFields()``): a record skipped or refused for another reason, or read again from its start
    /// (a GPX point across a buffer refill), leaves it out (``dropUnreadableFields()`` at each record's start).
    public mutating func readAsMissing(_ error: ReadError, lenient: Bool) throws(ReadError) {
        guard lenient else { throw error }
        readNonFiniteAsMissing(error)
    }

    /// Records an altitude, a speed or a course whose text is a number but no finite one (`NaN`, `inf`, `1e400`): read
    /// as missing in any mode, strict or lenient (a program's "no value", not damage to stop a read at), and counted
    /// and kept in ``unreadableFields`` with the fields ``readAsMissing(_:lenient:)`` took, once the record yields a
    /// fix. (They were dropped without a word: a fix without its altitude, and nothing in `info` to say why.) `error`
    /// is the field's ``ReadError/malformedField(_:field:expected:found:)``, expecting ``nonFiniteExpectation``.
    public mutating func readNonFiniteAsMissing(_ error: ReadError) {
        pendingUnreadableFields.append(error)
        hasPendingUnreadableFields = true
    }

    /// What a field read as missing by ``readNonFiniteAsMissing(_:)`` was expected to hold.
    public static let nonFiniteExpectation = "a finite number (NaN and infinity say no value: read as missing)"

    /// `value` when it is absent or finite; `nil` for a number that is no finite one (`NaN`, `Infinity`, `1e400`), read
    /// as missing (``readNonFiniteAsMissing(_:)``) with the error of `field` at bytes `start..<end` of `line` of
    /// `file`. The line readers' altitudes, speeds and courses go through it.
    @inline(__always)
    mutating func finiteOrMissing(
        _ value: Double?, _ line: ByteStream.Line, in file: String, _ start: Int, _ end: Int, field: String
    ) -> Double? {
        guard let value, !value.isFinite else { return value }
        readNonFiniteAsMissing(
            line.malformedField(in: file, start, end, field: field, expected: ReadReport.nonFiniteExpectation))
        return nil
    }

    /// The record being read yielded a fix: the optional fields it read as missing are counted and kept. (Called for
    /// every record: the test of ``hasPendingUnreadableFields`` is inline, the work out of line; the work on every
    /// row cost a CSV read 65 instructions per row.)
    @inlinable
    public mutating func keepUnreadableFields() {
        if hasPendingUnreadableFields { countPendingUnreadableFields() }
    }

    @usableFromInline
    mutating func countPendingUnreadableFields() {
        for error in pendingUnreadableFields {
            unreadableFieldCount += 1
            if unreadableFields.count < ReadReport.maximumKeptErrors { unreadableFields.append(error) }
        }
        pendingUnreadableFields.removeAll()
        hasPendingUnreadableFields = false
    }

    /// A record begins (or is read again from its start): the optional fields the one before read as missing, if
    /// it yielded no fix, are forgotten.
    @inlinable
    public mutating func dropUnreadableFields() {
        if hasPendingUnreadableFields { forgetPendingUnreadableFields() }
    }

    @usableFromInline
    mutating func forgetPendingUnreadableFields() {
        pendingUnreadableFields.removeAll()
        hasPendingUnreadableFields = false
    }

    /// Whether the record being read holds optional fields read as missing (``keepUnreadableFields()`` or
    /// ``dropUnreadableFields()`` then has something to do).
    public private(set) var hasPendingUnreadableFields = false
    /// The optional fields read as missing in the record being read, until it yields a fix.
    private var pendingUnreadableFields: [ReadError] = []

    /// The optional fields read as missing (in lenient mode by ``readAsMissing(_:lenient:)``, in any mode by
    /// ``readNonFiniteAsMissing(_:)``), the first ``maximumKeptErrors`` of them: their fixes were produced without
    /// them.
    public private(set) var unreadableFields: [ReadError] = []
    /// How many optional fields were read as missing (may exceed `unreadableFields.count`).
    public private(set) var unreadableFieldCount: Int = 0

    /// The error of an input that ended inside a record (a truncated file), stepped over in lenient mode: what
    /// followed the break is missing. Kept apart from ``errors``, which keeps only the first
    /// ``maximumKeptErrors``.
    public private(set) var endOfInput: ReadError?
}
