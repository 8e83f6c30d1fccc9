import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streaming reader of fixes from CSV files with a header: Sensor Logger exports, GSDC ground truth
/// (2021 `millisSinceGpsEpoch` and 2022 `MessageType,Provider,…` layouts), this project's own
/// ``CSVWriter`` output, and most loggers' exports.
///
/// ## Layout
/// - The first line that is neither blank nor a `#` comment is the **header**; it must name a latitude, a longitude and
///   a time column (see ``CSVColumn`` for the aliases, matched case-insensitively, ignoring `_`, `-`, `.`, spaces and a
///   bracketed unit). Unknown columns are ignored. A header without the three is an error even when reading leniently
///   (nothing can be read).
/// - A first line `sep=;` (Excel's directive, honoured on the first line only: `sep=,`, `sep=;`, `sep=` and a tab or
///   `|`, also quoted) names the delimiter and is skipped as ``SkipReason/comment``; otherwise the **delimiter** is
///   sniffed from the header: the most frequent of `,` `;` and tab outside quotes
///   (`,` on a tie or when there is none).
/// - Fields follow RFC 4180: a field may be quoted (`"…"`, a doubled `""` inside stands for one quote) and a
///   quoted field may span lines (line numbers in errors count them). Unquoted fields are taken as they are
///   (a `"` inside one is an ordinary byte). Lines end in `\n` or `\r\n`; a UTF-8 byte-order mark is skipped.
/// - Every row must have exactly as many fields as the header: a missing or an extra field is a
///   ``ReadError/malformedField(_:field:expected:found:)`` naming the line, the column and the field.
/// - An **empty field** (or one of spaces only) is an absent value. A row with an empty time is skipped as
///   ``SkipReason/missingTime``, one with an empty latitude or longitude as ``SkipReason/missingPosition``.
/// - Blank lines are skipped (``SkipReason/blank``), lines starting with `#` too (``SkipReason/comment``).
/// - A `MessageType` column (GnssLogger / GSDC 2022): rows whose value is not `Fix` (any case) are skipped as
///   ``SkipReason/otherRecord`` without reading their other fields (they may have another layout).
/// - A **Traccar export** (its positions table, as a database dump or its API writes it: `id,protocol,
///   deviceid,servertime,devicetime,fixtime,valid,latitude,longitude,altitude,speed,course,address,attributes,
///   accuracy,network`, any case) is recognised by a `deviceid` column beside `fixtime`, `devicetime`,
///   `servertime` or `protocol` (``isTraccarExport``): its bare `speed` is read in knots (Traccar's unit), its
///   time from `fixtime` (see ``CSVColumn/timePreference(key:)``), an accuracy of 0 is none (Traccar writes 0 for a
///   tracker that reports no accuracy), and its rows whose `valid` is false (a
///   tracker repeating its last position without a new fix) are skipped as ``SkipReason/noFix`` without reading
///   their other fields (``CSVColumn/fixValidity``). A bare `speed` in any other CSV stays metres per second,
///   and another file's `valid` column is not read.
/// - A **device column** (``CSVColumn/device``: `deviceid`, `device_id`, `device`, `imei`, `uniqueid`): a file
///   of one device reads as usual; the first row of a second device is a
///   ``ReadError/severalDevices(_:field:devices:)`` (merged, two vans read as one track), unless
///   ``ReadOptions/devices`` keeps one device (the others' rows skipped as ``SkipReason/deviceFiltered``) or all
///   of them (``devices`` counts each one's fixes).
/// - Times: see ``CSVTimeEncoding`` for how each time-column name is read (ISO 8601 with any offset, Unix
///   seconds, milliseconds, micro- or nanoseconds, GPS milliseconds converted to UTC with leap seconds).
///   Every time must lie in the years 0001–9999.
/// - Values: numbers as ``NumberParsing/double(_:_:_:)`` reads them, then normalised by `Fix.init` (an
///   accuracy of 0 or less becomes ``HorizontalAccuracy/invalid``); `provider` through `Provider(name:)`;
///   `mocked` as `true`/`false`/`1`/`0`/`yes`/`no`; `activity` as an ``ActivityKind`` raw value or a platform
///   label (`IN_VEHICLE`, `ON_FOOT`, `ON_BICYCLE`, `STILL`, `TILTING`, iOS `automotive`, `cycling`,
///   `stationary`; anything else is ``ActivityKind/unknown``); `activity_confidence` an integer, 100 when the
///   column is missing or empty (the source states the activity without a doubt).
///
/// ## Speed
/// The header is turned once into a column → field table; each row is then scanned once, left to right,
/// by fused scan-and-parse loops over the stream's buffer (no `String`, no allocation per row). Rows within
/// the same minute share the calendar arithmetic of their ISO 8601 times; digits are read eight at a time.
/// Measured on the project's 2-core VM (release build, 1 M rows of `time,latitude,longitude,accuracy_m,
/// speed_mps`, CPU time, best of 9): ~8.9 M fixes/s (~530 MB/s) with ISO 8601 times, ~8.2 M fixes/s with
/// Unix milliseconds.
public struct CSVReader: FixReader, ByteStreamReader {
    /// The options this reader was created with.
    public let options: ReadOptions
    /// The conversion of times written without a zone (``ReadOptions/localTimeZone``), `nil` without one.
    private var localTimes: LocalTimeConversion?
    /// Whether the time column's name (or the date column's) says its times are UTC (`time_utc`, `Time (UTC)`,
    /// `utc_date`): they are not converted (a reviewer's: `--time-zone` moved them); `nil` until the first row asks.
    private var timeColumnSaysUTC: Bool?
    /// The header's column names as written (unquoted), once the header has been read; empty before.
    public private(set) var headerNames: [String] = []
    /// The field each header column is read as (`nil`: ignored), once the header has been read.
    public private(set) var columns: [CSVColumn?] = []
    /// The segment column's value of the fix ``next()`` just returned (``CSVColumn/segment``); `nil` without such
    /// a column, for a row whose field is empty, or before the first fix. A change of value between two fixes
    /// marks a segment break, as ``GPXReader/lastSegmentIndex`` does. (Read from the row still held: stored per
    /// fix, it cost the `read-csv` benchmark 8 instructions per fix.)
    public var lastSegmentIndex: Int? { fixesProduced > 0 && row.has(.segment) ? row.segment : nil }
    /// The header's columns left unread on purpose (``ReadOptions/csvColumnNames`` maps them to `ignore`), by
    /// index: no warning names them as unread.
    public private(set) var ignoredColumns: Set<Int> = []
    /// The delimiter sniffed from the header (`,`, `;` or tab), or named by a `sep=` line before it; `,` before the
    /// header is read.
    public private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    /// The delimiter a `sep=` line before the header named (Excel writes `sep=;` so that a spreadsheet opens the
    /// file with it), once read.
    var declaredDelimiter: UInt8?

    /// The delimiter a line declares when it is Excel's `sep=X` directive (`sep=;`, `sep=,`, `sep=` and a tab; the
    /// name in any case, the line quoted as some exporters write it, `"sep=;"`), else `nil`: a comma, semicolon,
    /// tab or `|`. A line that only starts so (`sep=;x`) is no directive.
    static func declaredDelimiter<Bytes: Collection<UInt8>>(_ line: Bytes) -> UInt8? {
        var bytes = Array(line.prefix(8))
        guard line.count <= 7 else { return nil }
        if bytes.count == 7, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") {
            bytes = Array(bytes.dropFirst().dropLast())
        }
        guard bytes.count == 5, bytes[0] | 0x20 == UInt8(ascii: "s"), bytes[1] | 0x20 == UInt8(ascii: "e"),
            bytes[2] | 0x20 == UInt8(ascii: "p"), bytes[3] == UInt8(ascii: "=")
        else { return nil }
        let d = bytes[4]
        return [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")].contains(d) ? d : nil
    }
    /// The header name of the column the fix times are read from (of several, the one
    /// ``CSVColumn/timePreference(key:)`` prefers; a `date` column that holds whole times), once the header has
    /// been read; `nil` before.
    public var timeColumnName: String? {
        for (name, column) in zip(headerNames, columns) { if case .time? = column { return name } }
        return nil
    }
    /// The header name of the device column (``CSVColumn/device``), once the header has been read; `nil` when
    /// the file has none.
    public var deviceColumnName: String? { headerName(of: .device) }
    /// The header name of the first column read as `column`, once the header has been read; `nil` when none is.
    public func headerName(of column: CSVColumn) -> String? {
        zip(headerNames, columns).first { $0.1 == column }?.0
    }
    /// The devices of the device column, in the order of their first row, with the fixes read of each so far (a
    /// device whose rows ``ReadOptions/devices`` skips has 0; a row with an empty device field counts with the
    /// device of the row before it); empty without a device column.
    public var devices: [(id: String, fixes: Int)] { deviceTable.counts(fixesProduced: fixesProduced) }
    /// The devices of the device column (see ``DeviceTable``).
    var deviceTable: DeviceTable
    /// Whether the header is a Traccar export's (see the type's documentation), once it has been read: its bare
    /// `speed` is read in knots.
    public private(set) var isTraccarExport = false
    /// The line of the first fix whose time was written with a zone (`Z`, an offset such as `+02:00`, or as a Unix
    /// time) and of the first written without one (read as UTC, or in ``ReadOptions/localTimeZone``'s zone); `nil`
    /// until such a fix is read. Both set, the file mixes the two: without the zone option, its parts may lie hours
    /// apart (a CLI tester's walk with an offset on half its times lasted 7,259 s for 59, a stop in the gap, no word).
    public private(set) var firstZonedTimeLine: Int?, firstLocalTimeLine: Int?
    /// Which kinds of time (1 with a zone, 2 without) fixes have had so far.
    private var timeKindsSeen: UInt8 = 0
    /// Notes the row's kind of time (``firstZonedTimeLine``, ``firstLocalTimeLine``) the first time a fix has it.
    @inline(never)
    private mutating func noteTimeKind() {
        let kind: UInt8 = row.timeIsLocal ? 2 : 1
        timeKindsSeen |= kind
        // (The longitude's line, which every fix's row stores: the row's, bar a quoted line break.)
        let rowLine = row.longitudePlace.1
        if kind == 1 { firstZonedTimeLine = rowLine } else { firstLocalTimeLine = rowLine }
    }

    /// How the time column is read; ``CSVTimeEncoding/automatic`` until the first time value decides it.
    public private(set) var timeEncoding: CSVTimeEncoding = .automatic
    /// The line and text of the value that decided an ``CSVTimeEncoding/automatic`` time column's encoding (`nil`
    /// for a column whose name decides it): an error for a later value names it (a tester's `0` on line 2 made a
    /// column of Unix milliseconds "Unix seconds", and the error at line 3 did not say why).
    public private(set) var timeEncodingDecidedBy: (line: Int, text: String)?
    /// The fixes produced before the row whose number decided the time column's unit as seconds while it read as
    /// a date before 1980 (a `0`, a placeholder): the next row's value may decide the unit again (see
    /// ``CSVTimeEncoding/automatic``). `nil` once decided for good.
    private var provisionalTimeUnitFixes: Int?

    private let stream: ByteStream
    private let buffers = CSVReaderBuffers()
    private var roles: UnsafeMutablePointer<CSVRole>
    private var columnCount = 0
    /// Whether the header names a ``CSVColumn/date`` column besides the time column.
    private var hasDateColumn = false
    /// Metres per second in one unit of the speed column (``CSVColumn/speed``: 1, or a unit's factor).
    private var speedScale = 1.0
    /// The order of the dates that do not say it (see ``CSVColumn/date``): the option's, else decided by the
    /// file's first value that allows only one.
    private var dateOrder: DateOrder?
    /// Whether a date allowing several orders has looked ahead for the file's (see ``readDate(_:_:_:field:)``).
    private var hasLookedAheadForDateOrder = false

    // Cursor. Invariant: base[limit - 1] == '\n' whenever pos < limit, so every byte loop that stops at a
    // '\n' stays inside the buffer.
    private var base: UnsafePointer<UInt8>
    private var pos = 0
    private var limit = 0
    /// The end of the memory behind `base` (fast paths may load a few bytes past `limit`, never past this).
    private var safeEnd = 0
    /// Absolute input offset of base[0].
    private var bufferOffset = 0
    /// True once the last, unterminated line was copied (with a '\n' added) into the tail buffer.
    private var inTail = false
    private var tailLength = 0
    private var finished = false
    private var headerRead = false
    /// The header's names trimmed of spaces and quotes, lower-cased: to recognise the header repeated, or another
    /// one, where files were joined (``joinedFileLine(at:)``).
    private var comparableHeaderNames: [String] = []
    /// 1-based number of the line that starts at `pos`.
    private var line = 1

    /// The values of the row being read (reused: only its presence mask is reset per row).
    private var row = CSVRowValues()
    private var isoCache = CSVScan.ISOPrefixCache()
    private var providerCache = CSVTokenCache<Provider>()
    private var activityCache = CSVTokenCache<ActivityKind>()
    private var rowsRead = 0
    private var fixesProduced = 0
    private var _report: ReadReport

    /// What the reader has seen so far (see ``ReadReport``): rows read (header, blank and comment lines
    /// included), fixes produced, rows skipped by reason, errors stepped over, bytes consumed.
    public var report: ReadReport {
        var result = _report
        result.recordsRead = rowsRead
        result.fixesProduced = fixesProduced
        result.bytesRead = bufferOffset + (inTail ? min(pos, tailLength) : pos)
        return result
    }

    /// How many rows the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { rowsRead }

    /// Creates a reader over a byte stream.
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        self.options = options
        deviceTable = DeviceTable(selection: options.devices)
        dateOrder = options.dateOrder
        localTimes = options.localTimeZone.map(LocalTimeConversion.init(zone:))
        _report = ReadReport(source: stream.name)
        roles = buffers.roles
        base = UnsafePointer(buffers.tail.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// Converts the row's time, written without a zone, from ``localTimes``' zone to UTC (out of line: only with
    /// ``ReadOptions/localTimeZone``), unless the time or date column's name says UTC (``timeColumnSaysUTC``).
    @inline(never)
    private mutating func convertLocalTime() {
        guard localTimes != nil else { return }
        if timeColumnSaysUTC == nil {
            let names = [timeColumnName, headerName(of: .date)].compactMap { $0?.lowercased() }
            timeColumnSaysUTC = names.contains { $0.contains("utc") || $0.contains("gmt") || $0.contains("zulu") }
        }
        guard timeColumnSaysUTC == false else { return }
        _report.localTimesConverted += 1
        row.time = localTimes!.utcMilliseconds(fromLocal: row.time)
    }

    /// Returns the next fix, or `nil` at the end of the input.
    ///
    /// - Throws: ``ReadError`` for a malformed header, row or value (rows are skipped and counted instead
    ///   when ``ReadOptions/lenient`` is set); after an error the reader resumes at the next row, except
    ///   after a header, I/O, record-length, unterminated-quote or several-devices error, after which it returns
    ///   `nil`.
    public mutating func next() throws(ReadError) -> Fix? {
        while try nextRow() {
            // `nextRow` checked time and position presence; `Fix.init` validates and normalises. The fix is
            // built straight into the return value (a fix is ~160 bytes: every copy shows in the profile).
            do {
                let fix = try Fix(
                    timestamp: Timestamp(millisecondsSince1970: row.time),
                    latitude: row.has(.latitudeHemisphere)
                        ? row.latitudeSign * abs(row.number(.latitude)) : row.number(.latitude),
                    longitude: options.longitude(
                        row.has(.longitudeHemisphere)
                            ? row.longitudeSign * abs(row.number(.longitude)) : row.number(.longitude)),
                    // (A Traccar export's accuracy 0 is none: its trackers that report no accuracy get 0.)
                    horizontalAccuracyMetres: row.optionalNumber(.horizontalAccuracy).flatMap {
                        isTraccarExport && $0 == 0 ? nil : $0
                    } ?? (row.has(.hdop) ? options.hdop.accuracyMetres(hdop: row.number(.hdop)) : nil),
                    altitudeMetres: row.optionalNumber(.altitude),
                    verticalAccuracyMetres: row.optionalNumber(.verticalAccuracy),
                    speedMetresPerSecond: row.has(.speed) ? row.number(.speed) * speedScale : nil,
                    speedAccuracyMetresPerSecond: row.optionalNumber(.speedAccuracy),
                    courseDegrees: row.optionalNumber(.course),
                    courseAccuracyDegrees: row.optionalNumber(.courseAccuracy),
                    provider: row.has(.provider) ? row.provider : .unknown,
                    satellitesUsed: row.has(.satellites) ? row.satellites : nil,
                    isMocked: row.has(.mocked) ? row.mocked : nil,
                    activity: row.has(.activity)
                        ? ActivityReading(
                            kind: row.activity,
                            confidence: row.has(.activityConfidence) ? row.activityConfidence : 100)
                        : nil)
                fixesProduced += 1
                _report.keepUnreadableFields()
                return fix
            } catch {
                try rejectInvalidFix(error)
            }
        }
        return nil
    }

    /// Advances to the next row that can become a fix (its values in `row`); `false` at the end of input.
    /// Rows without time or position, or from a filtered-out provider, are counted and passed over.
    private mutating func nextRow() throws(ReadError) -> Bool {
        if finished { return false }
        while true {
            if pos >= limit {
                let more: Bool
                do { more = try loadMore(mustRead: false) } catch { finished = true; throw error }
                if !more {
                    finished = true
                    if !headerRead {
                        throw ReadError.truncated(
                            location(pos, line: line, lineStart: pos),
                            expected: "a CSV header line naming latitude, longitude and time")
                    }
                    return false
                }
                continue
            }
            if !headerRead {
                if !(try readHeader()) { try needMoreForRow() }
                continue
            }
            switch try parseRow() {
            case .fix:
                if timeEncoding == .timeOfDay, try !addDate() { continue }
                if _slowPath(localTimes != nil), row.timeIsLocal, row.has(.time) { convertLocalTime() }
                if row.has(.time) && row.has(.latitude) && row.has(.longitude) && options.providers == nil {
                    // (Tested here, where the row's time is known to be read: 4 instructions per fix fewer.)
                    if _slowPath(timeKindsSeen & (row.timeIsLocal ? 2 : 1) == 0) { noteTimeKind() }
                    return true
                }
                if let reason = skipReason() {
                    skipRow(reason)
                } else {
                    if row.has(.time), timeKindsSeen & (row.timeIsLocal ? 2 : 1) == 0 { noteTimeKind() }
                    return true
                }
            case .skipped(let reason):
                _report.skip(reason)
            case .rejected:
                break
            case .needMore:
                try needMoreForRow()
            }
        }
    }

    /// Turns the row's time of day into a time on its date (see ``CSVTimeEncoding/timeOfDay``); a row
    /// without a date is left without a time (skipped as ``SkipReason/missingTime``). Returns `false` when the
    /// row was rejected for its date (lenient mode: counted, nothing else to count).
    @inline(never)
    private mutating func addDate() throws(ReadError) -> Bool {
        guard row.has(.time) else { return true }
        guard row.has(.date) else {
            row.present &= ~(1 << UInt32(CSVRole.time.rawValue))
            if case .malformedField(_, let field, let expected, let found)? = row.deferredDateError {
                // The first row's date, passed over while the time column was undecided: it is needed after all.
                row.deferredDateError = nil
                let place = row.datePlace
                try _report.reject(
                    .malformedField(
                        location(place.0, line: place.1, lineStart: place.2), field: field, expected: expected,
                        found: found), lenient: options.lenient)
                return false
            }
            return true
        }
        row.time += row.day * 86_400_000
        return true
    }

    /// Why the complete row in `row` gives no fix, or `nil` when it does.
    @inline(never)
    private func skipReason() -> SkipReason? {
        if !row.has(.time) { return .missingTime }
        if !row.has(.latitude) || !row.has(.longitude) { return .missingPosition }
        if let allowed = options.providers, !allowed.contains(row.has(.provider) ? row.provider : .unknown) {
            return .providerFiltered
        }
        return nil
    }

    // MARK: - Buffer management

    /// Makes more input available after `pos`; returns `false` at the end of the input.
    ///
    /// With `mustRead`, reads from the source before looking for a line end (the row at `pos` continues
    /// past `limit`, inside a quoted field).
    private mutating func loadMore(mustRead: Bool) throws(ReadError) -> Bool {
        if inTail { return false }
        stream.consume(upTo: pos)
        let completedLines = line - 1 - stream.lineNumber
        if completedLines > 0 { stream.countLines(completedLines) }
        var mustRead = mustRead
        // Bytes after `stream.start` already known to hold no line end (only new bytes are searched, so a
        // long line arriving in small reads costs linear time).
        var searched = 0
        while true {
            if !mustRead, stream.start + searched < stream.end {
                let window = stream.window
                let start = stream.start
                let end = stream.end
                let from = start + searched
                var last = end - 1
                while last >= from, window[last] != 0x0A { last -= 1 }
                searched = end - start
                if last >= from {
                    adoptStreamWindow(through: last)
                    return true
                }
            }
            mustRead = false
            if try stream.refill() { continue }
            // The source is exhausted: whatever is left has no final line end.
            let start = stream.start
            let end = stream.end
            guard start < end else { return false }
            let count = end - start
            let tail = buffers.tail(capacity: count + 1 + 32)
            let window = stream.window
            tail.baseAddress!.copyMemory(from: window.baseAddress! + start, byteCount: count)
            tail[count] = 0x0A
            bufferOffset = stream.offset(ofIndex: start)
            stream.consume(upTo: end)
            base = UnsafePointer(tail.baseAddress!.assumingMemoryBound(to: UInt8.self))
            pos = 0
            limit = count + 1
            safeEnd = tail.count
            tailLength = count
            inTail = true
            return true
        }
    }

    /// Reads the stream's window from its start through the line end at index `lineEnd`.
    private mutating func adoptStreamWindow(through lineEnd: Int) {
        let window = stream.window
        base = UnsafePointer(window.baseAddress!.assumingMemoryBound(to: UInt8.self))
        pos = stream.start
        limit = lineEnd + 1
        safeEnd = window.count
        bufferOffset = stream.offset(ofIndex: 0)
    }

    /// The row at `pos` runs past the buffered lines (a quoted field spans them): read more, or report a
    /// quote left open at the end of the input.
    ///
    /// A quote that opens on the row's first line and is never closed is a stray quote (`"gps` in a provider
    /// column), not a field that runs to the end of the file: the error names it (line, column, field), and in
    /// lenient mode only that line is skipped and reading goes on with the next. Why: a batch tester's file with
    /// one stray quote on line 11 of 51 lost the 40 good rows after it, reported as "ends early" at 11:1 with
    /// exit status 0 under `--lenient`.
    private mutating func needMoreForRow() throws(ReadError) {
        if inTail {
            if let stray = strayQuote(inRowAt: pos) {
                guard headerRead else {
                    // In the header: no row to skip; the header cannot be read (a reviewer's was skipped as a row
                    // and the first data row taken for the header).
                    finished = true
                    throw ReadError.unreadableHeader(
                        location(stray.index, line: line, lineStart: pos),
                        expected: "a header whose quotes pair up (a quote opens a field here and never closes)",
                        found: text(pos, stray.lineEnd))
                }
                // The rest of the input, copied with a line end added, already ended with one: that one ends it
                // (else an empty line after the last would be read: a reviewer's 51-line file read 52 records).
                if tailLength > 0, base[tailLength - 1] == 0x0A { limit = tailLength }
                try rejectLine(openingStrayQuote: stray)
                return
            }
            finished = true
            let error = ReadError.truncated(
                location(pos, line: line, lineStart: pos),
                expected: "a closing quote (\") for a quoted field")
            try _report.reject(error, lenient: options.lenient)
            pos = limit
            return
        }
        do {
            _ = try loadMore(mustRead: true)
        } catch {
            // A row past the record limit: a stray quote with more than the limit of input after it.
            guard case .recordTooLong = error, try skipStrayQuoteInFullWindow() else {
                finished = true
                throw error
            }
        }
    }

    /// After the stream refused to grow past its record limit for the row at its start: when that row's first
    /// line leaves a quote open, rejects it as ``needMoreForRow()`` does at the end of the input (lenient: reads
    /// on after the line, over the lines already buffered) and returns `true`; `false` otherwise.
    private mutating func skipStrayQuoteInFullWindow() throws(ReadError) -> Bool {
        let window = stream.window
        var last = stream.end - 1
        while last >= stream.start, window[last] != 0x0A { last -= 1 }
        guard last >= stream.start else { return false }
        adoptStreamWindow(through: last)
        guard headerRead, let stray = strayQuote(inRowAt: pos) else { return false }
        try rejectLine(openingStrayQuote: stray)
        return true
    }

    /// Counts (lenient) or throws the first line of the row at `pos` as a bad row, its quote `stray` opening a
    /// field that never closes, and moves past that line (a caller may read on after the error, as after any
    /// bad row).
    private mutating func rejectLine(openingStrayQuote stray: StrayQuote) throws(ReadError) {
        let error = ReadError.malformedField(
            location(stray.index, line: line, lineStart: pos), field: stray.field,
            expected: "a closing quote (\") for the quoted field it opens, on its line or a later one",
            found: text(stray.index, stray.lineEnd))
        pos = stray.lineEnd + 1
        line += 1
        rowsRead += 1
        try _report.reject(error, lenient: options.lenient)
    }

    /// The quote on the first line of the row at `start` that leaves a quoted field open at the line's end (its
    /// index, the line end's, and the field's header name or "column N"); `nil` when the line's quotes pair up.
    private func strayQuote(inRowAt start: Int) -> StrayQuote? {
        let p = base
        var i = start
        var inQuotes = false
        var opened = start
        var column = 0, openedColumn = 0
        while i < limit, p[i] != 0x0A {
            let c = p[i]
            if c == UInt8(ascii: "\"") {
                inQuotes.toggle()
                if inQuotes {
                    opened = i
                    openedColumn = column
                }
            } else if c == delimiter && !inQuotes {
                column += 1
            }
            i += 1
        }
        guard inQuotes, i < limit else { return nil }
        let field = openedColumn < headerNames.count ? headerNames[openedColumn] : "column \(openedColumn + 1)"
        return StrayQuote(index: opened, lineEnd: i, field: field)
    }

    /// A quote that opens a field on a row's first line and leaves it open at the line's end: where (buffer index),
    /// where that line ends, and the field (its header name, or "column N").
    private struct StrayQuote {
        var index: Int
        var lineEnd: Int
        var field: String
    }

    /// Counts the row just parsed as skipped for `reason`, at its place (``lastRowLocation()``). Out of line: inline,
    /// the location cost the read-csv benchmark 2 instructions per fix, on rows that are not skipped.
    @inline(never)
    private mutating func skipRow(_ reason: SkipReason) {
        _report.skip(reason, at: lastRowLocation())
    }

    /// Where the row just parsed starts (its last line, before ``line``, found back from ``pos``, which is past its
    /// line end): the place of a row skipped for want of a time or a position. A row whose quoted field spans lines
    /// is placed at its last line. Out of line: only skipped rows ask.
    @inline(never)
    private func lastRowLocation() -> SourceLocation {
        var i = pos - 2  // (the byte before the row's line feed)
        while i >= 0 && base[i] != 0x0A { i -= 1 }
        return location(i + 1, line: line - 1, lineStart: i + 1)
    }

    /// The location of buffer index `index` on line `line`, whose first byte is at `lineStart`.
    private func location(_ index: Int, line: Int, lineStart: Int) -> SourceLocation {
        // In the tail buffer, the line end the reader added is not input: clamp to the input's end.
        let index = inTail ? min(index, tailLength) : index
        return SourceLocation(
            file: stream.name, line: line, column: max(index - lineStart + 1, 1),
            byteOffset: bufferOffset + index)
    }

    /// The field text at `p[start..<end]` for a message (at most 64 bytes).
    private func text(_ start: Int, _ end: Int) -> String {
        ReadError.quote(UnsafeRawBufferPointer(start: base, count: limit), start, min(end, limit))
    }

    /// Index of the first delimiter, `\r` or `\n` at or after `index`.
    @inline(__always)
    private func fieldEnd(_ index: Int) -> Int {
        let p = base
        let d = delimiter
        var i = index
        while true {
            let c = p[i]
            if c == d || c == 0x0A || c == 0x0D { return i }
            i += 1
        }
    }

    // MARK: - Header

    /// Reads the header (after blank and comment lines); `false` when it runs past the buffered lines.
    private mutating func readHeader() throws(ReadError) -> Bool {
        let p = base
        let i = pos
        let lineStart = i
        // Blank or comment line before the header.
        if p[i] == 0x0A || (p[i] == 0x0D && p[i + 1] == 0x0A) || p[i] == UInt8(ascii: "#") {
            let reason: SkipReason = p[i] == UInt8(ascii: "#") ? .comment : .blank
            let newline = UnsafeRawPointer(p).distance(to: memchr(p + i, 0x0A, limit - i)!)
            pos = newline + 1
            line += 1
            rowsRead += 1
            _report.skip(reason)
            return true
        }
        // Excel's `sep=;` (or `sep=,`, `sep=<tab>`) line names the delimiter of the header and rows after it.
        if declaredDelimiter == nil, rowsRead == 0 {
            let newline = memchr(p + i, 0x0A, limit - i).map { UnsafeRawPointer(p).distance(to: $0) } ?? limit
            var lineEnd = newline
            if lineEnd > i, p[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            // (No byte-order mark to pass over: `ByteStream` consumes it.)
            if let declared = CSVReader.declaredDelimiter(UnsafeRawBufferPointer(start: p + i, count: lineEnd - i)[...])
            {
                guard newline < limit else { return false }
                declaredDelimiter = declared
                pos = newline + 1
                line += 1
                rowsRead += 1
                _report.skip(.comment)
                return true
            }
        }
        // Sniff the delimiter and find the end of the header record (quotes respected).
        var counts = (comma: 0, semicolon: 0, tab: 0)
        var inQuotes = false
        var j = i
        var lines = 0
        while true {
            guard j < limit else { return false }
            let c = p[j]
            if c == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes {
                if c == 0x0A { break }
                if c == UInt8(ascii: ",") { counts.comma += 1 }
                if c == UInt8(ascii: ";") { counts.semicolon += 1 }
                if c == 0x09 { counts.tab += 1 }
            } else if c == 0x0A {
                lines += 1
            }
            j += 1
        }
        if let declaredDelimiter {
            delimiter = declaredDelimiter
        } else if counts.semicolon > counts.comma && counts.semicolon >= counts.tab {
            delimiter = UInt8(ascii: ";")
        } else if counts.tab > counts.comma && counts.tab > counts.semicolon {
            delimiter = 0x09
        } else {
            delimiter = UInt8(ascii: ",")
        }
        var end = j
        if end > lineStart, p[end - 1] == 0x0D { end -= 1 }
        // A NUL byte in the header: no text CSV. A file whose line ends were written as NUL bytes is one long header
        // line (it read as "a CSV header and no data rows", without a place).
        if let nul = memchr(p + lineStart, 0, end - lineStart) {
            finished = true
            throw ReadError.unreadableHeader(
                location(UnsafeRawPointer(p).distance(to: nul), line: line, lineStart: lineStart),
                expected: "a text header line (a NUL byte is a binary file's, or a text's whose line ends were written "
                    + "as NUL bytes: tr '\\000' '\\n' < FILE > FIXED turns them into line ends)",
                found: "a NUL byte (0x00)")
        }
        let header = UnsafeRawBufferPointer(start: p + lineStart, count: end - lineStart)
        let (names, nameStarts) = CSVReader.split(header, delimiter)
        let headerLine = line
        let nameLocations = nameStarts.map { location(lineStart + $0, line: headerLine, lineStart: lineStart) }
        pos = j + 1
        line += 1 + lines
        rowsRead += 1
        _report.skip(.header)
        headerRead = true
        comparableHeaderNames = names.map(CSVReader.comparable)
        try configure(
            names: names, headerLocation: location(lineStart, line: headerLine, lineStart: lineStart),
            nameLocations: nameLocations, headerText: text(lineStart, end))
        return true
    }

    /// Builds the column table from the header names (each found at `nameLocations`, by index).
    ///
    /// - Throws: ``ReadError/unreadableHeader(_:expected:found:)`` for a header that names no latitude, longitude or
    ///   time, or two latitude or two longitude columns (`time,lat,lon,latitude`: which holds the position cannot be
    ///   told; a formats tester's second latitude was left unread with no more than a warning). Of two columns of
    ///   another field the leftmost is read, the other left unread and warned of. Several
    ///   time columns are read by ``CSVColumn/timePreference(key:)``, and a column renamed by
    ///   ``ReadOptions/csvColumnNames`` replaces the file's own column of its field.
    private mutating func configure(
        names: [String], headerLocation: SourceLocation, nameLocations: [SourceLocation], headerText: String
    ) throws(ReadError) {
        headerNames = names
        columnCount = names.count
        var seen = Set<Int>()
        var resolved: [CSVColumn?] = []
        let (read, renamed) = try namesToRead(names, headerLocation: headerLocation, headerText: headerText)
        let normalised = read.map { $0.flatMap(CSVColumn.normalise) }
        // (What kind of export the file is, by its own header names: renaming a column does not make a Traccar
        // export another file, whose knots would read as m/s: a reviewer's.)
        let keys = names.map { CSVColumn.normalise($0)?.key }
        // A GPS logger's own export: an `RCR` column (BT747, Qstarz, Holux), or `INDEX` and `TAG` (Columbus).
        // (Columbus's own combined coordinate column too: `index` and `tag` alone are any table's.)
        let isColumbus = keys.contains("index") && keys.contains("tag") && keys.contains("latituden/s")
        let isLoggerExport = keys.contains("rcr") || isColumbus
        // Traccar's positions table (a database dump, its API's CSV): its speed is in knots.
        isTraccarExport =
            keys.contains("deviceid")
            && ["fixtime", "devicetime", "servertime", "protocol"].contains { keys.contains($0) }
        // Of several time columns, the fix's own time (`fixtime` before `devicetime` before `servertime`).
        var timeIndex: Int?
        var timeRank = Int.max
        for (index, name) in normalised.enumerated() {
            guard let (key, unit) = name, case .time? = CSVColumn(key: key, unit: unit) else { continue }
            let rank = CSVColumn.timePreference(key: key)
            if rank < timeRank { (timeIndex, timeRank) = (index, rank) }
        }
        // A renamed column's quantity is its own: a column of the file named for the same one is not read.
        var renamedKeys = Set<Int>()
        for index in renamed.sorted() {
            guard let (key, unit) = normalised[index], let column = CSVColumn(key: key, unit: unit) else { continue }
            renamedKeys.insert(column.fieldKey)
            if case .time = column { timeIndex = index }
        }
        for (index, name) in normalised.enumerated() {
            // Traccar's `valid` (no other file's: Qstarz's VALID holds the fix type).
            let traccarValidity: CSVColumn? = isTraccarExport && name?.key == "valid" ? .fixValidity : nil
            guard let (key, unit) = name, let column = traccarValidity ?? CSVColumn(key: key, unit: unit),
                column.fieldKey != CSVColumn.time(.automatic).fieldKey || index == timeIndex,
                renamed.contains(index) || !renamedKeys.contains(column.fieldKey)
            else {
                resolved.append(nil)
                continue
            }
            // A second column of one field: the leftmost is read and the rest left unread, as before (the unread
            // measurement warning names them), but for the position, where which holds it cannot be told. (Every
            // field, refused, failed common exports outright: `speed` beside `speed_kmh`, `elevation` beside
            // `altitude`, Traccar's `deviceid` beside `uniqueid`, `course` beside `bearing`: a reviewer's.)
            if !seen.insert(column.fieldKey).inserted {
                guard column == .latitude || column == .longitude else {
                    resolved.append(nil)
                    continue
                }
                let first = resolved.firstIndex { $0?.fieldKey == column.fieldKey } ?? 0
                finished = true
                throw ReadError.unreadableHeader(
                    index < nameLocations.count ? nameLocations[index] : headerLocation,
                    expected:
                        "one column for \(column == .latitude ? "latitude" : "longitude") (columns \(first + 1), '\(names[first])', and "
                        + "\(index + 1), '\(names[index])', both name it: which one to read cannot be told; leave one "
                        + "unread by its number, --column '#\(index + 1)=ignore' or '#\(first + 1)=ignore', or read it "
                        + "under another name)",
                    found: headerText)
            }
            resolved.append(column)
            if case .time(let encoding) = column { timeEncoding = encoding }
            if column == .speed {
                // A bare SPEED of a logger export is km/h (their manuals; read as m/s, a walk was a drive), a
                // Traccar export's knots (read as m/s, a van drove 1.94 times as fast as it did).
                let bare = key == "speed" && unit == nil
                speedScale =
                    bare && isLoggerExport
                    ? SpeedUnit.metresPerSecondPerKilometrePerHour
                    : bare && isTraccarExport
                        ? SpeedUnit.metresPerSecondPerKnot : CSVColumn.speedMetresPerSecond(key: key, unit: unit)
            }
        }
        // Columbus loggers write YYMMDD dates (`240501`), which DDMMYY would read too.
        if isColumbus, dateOrder == nil { dateOrder = .yearMonthDay }
        // A date column without a time column holds the whole time; beside one, the date of a time of day.
        if let dateIndex = resolved.firstIndex(of: .date) {
            if seen.contains(CSVColumn.time(.automatic).fieldKey) {
                hasDateColumn = true
            } else {
                // As a date and time (ISO 8601, or a date and a time of day in one field): read as a number, a
                // date such as 20240501 was a Unix time in 1970.
                resolved[dateIndex] = .time(.iso8601)
                seen.insert(CSVColumn.time(.automatic).fieldKey)
                timeEncoding = .iso8601
            }
        }
        columns = resolved
        var missing: [String] = []
        if !seen.contains(CSVColumn.latitude.fieldKey) { missing.append("latitude") }
        if !seen.contains(CSVColumn.longitude.fieldKey) { missing.append("longitude") }
        if !seen.contains(CSVColumn.time(.automatic).fieldKey) { missing.append("time") }
        guard missing.isEmpty else {
            finished = true
            throw ReadError.unreadableHeader(
                headerLocation,
                expected: "a CSV header naming latitude, longitude and time columns (missing: "
                    + missing.joined(separator: ", ") + ")",
                found: headerText)
        }
        // One device's rows asked for, of a file without a device column: nothing could be kept apart.
        if case .only(let device) = options.devices, !resolved.contains(.device) {
            finished = true
            throw ReadError.unreadableHeader(
                headerLocation,
                expected: "a device column (deviceid, device_id, device, imei or uniqueid) to keep device '\(device)' "
                    + "of (ReadOptions.devices, --device)",
                found: headerText)
        }
        roles = buffers.roles(count: names.count)
        for (index, column) in resolved.enumerated() { roles[index] = CSVRole(column) }
    }

    /// The names the header's columns are read under (``ReadOptions/csvColumnNames`` applied; `nil` for a column
    /// left unread, `ignore`, also kept in ``ignoredColumns``) and the indices of the columns it renamed. Throws
    /// for a key the header does not hold, a name TrueTrack does not read, or two names for one column.
    private mutating func namesToRead(_ names: [String], headerLocation: SourceLocation, headerText: String)
        throws(ReadError) -> (names: [String?], renamed: Set<Int>)
    {
        var read: [String?] = names
        var renamed = Set<Int>()
        guard !options.csvColumnNames.isEmpty else { return (read, renamed) }
        // Matched ignoring case and surrounding spaces.
        func folded(_ name: String) -> String {
            String(
                name.lowercased().drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
                    .reversed())
        }
        let header = names.map(folded)
        for (from, to) in options.csvColumnNames.sorted(by: { $0.key < $1.key }) {
            let isIgnored = folded(to) == "ignore"
            guard isIgnored || CSVColumn(headerName: to) != nil else {
                finished = true
                throw ReadError.unreadableHeader(
                    headerLocation,
                    expected: "a name TrueTrack reads for column '\(from)' (time, time_ms, latitude, longitude, "
                        + "accuracy_m, speed, speed_kmh, course, altitude… or ignore)",
                    found: to)
            }
            // `#N` names the Nth column (1-based), the way to tell apart columns of one name.
            let position = from.first == "#" ? Int(from.dropFirst()) : nil
            let matches = header.indices.filter { header[$0] == folded(from) }
            guard let index = position.map({ $0 - 1 }) ?? matches.first, names.indices.contains(index) else {
                finished = true
                throw ReadError.unreadableHeader(
                    headerLocation,
                    expected: position == nil
                        ? "a column named '\(from)' (to read as '\(to)')"
                        : "a column number from 1 to \(names.count) (to read as '\(to)')",
                    found: headerText)
            }
            // A name several columns hold says not which (a tester followed the duplicate-latitude advice, and the
            // first latitude, the real one, was left unread: every fix on the equator).
            guard position != nil || matches.count == 1 else {
                finished = true
                throw ReadError.unreadableHeader(
                    headerLocation,
                    expected: "one column named '\(from)' (columns "
                        + matches.dropLast().map { String($0 + 1) }.joined(separator: ", ")
                        + " and \(matches[matches.count - 1] + 1) are: give the one meant by its number, --column "
                        + "'#\(matches[matches.count - 1] + 1)=\(to)')",
                    found: headerText)
            }
            guard !renamed.contains(index), !ignoredColumns.contains(index) else {
                finished = true
                throw ReadError.unreadableHeader(
                    headerLocation,
                    expected: "one name for column '\(names[index])' (ReadOptions.csvColumnNames gives two, matched "
                        + "ignoring case and spaces)",
                    found: headerText)
            }
            if isIgnored {
                read[index] = nil
                ignoredColumns.insert(index)
            } else {
                read[index] = to
                renamed.insert(index)
            }
        }
        return (read, renamed)
    }

    // MARK: - Rows

    /// What one row gave.
    private enum RowOutcome {
        /// The row's values are complete: make a fix of them.
        case fix
        case skipped(SkipReason)
        /// A malformed row was counted in the report (lenient mode).
        case rejected
        /// The row continues past the buffered lines.
        case needMore
    }

    /// Parses the row at `pos` into `row` and moves past it (also when it throws).
    ///
    /// The hot loop: fields in the fast layouts are parsed in place; anything else (quotes, fallbacks,
    /// non-numeric columns, errors) goes to ``slowField(_:from:column:place:)`` so that this function stays
    /// small enough for the compiler to inline the fast parsers into it.
    private mutating func parseRow() throws(ReadError) -> RowOutcome {
        let p = base
        let rowStart = pos
        let first = p[rowStart]
        if first == 0x0A || first == 0x0D || first == UInt8(ascii: "#") {
            if let outcome = blankOrComment(at: rowStart) { return outcome }
        }
        row.present = 0
        _report.dropUnreadableFields()
        let d = delimiter
        let roles = self.roles
        let safeEnd = self.safeEnd
        let lastColumn = columnCount - 1
        var i = rowStart
        var column = 0
        var place = CSVRowPlace(line: line, lineStart: rowStart)
        while true {
            let fieldStart = i
            let role = roles[column]
            var fast = true
            switch role {
            case .ignore:
                if p[i] == UInt8(ascii: "\"") {
                    fast = false
                } else {
                    while true {
                        let c = p[i]
                        if c == d || c == 0x0A || c == 0x0D { break }
                        i += 1
                    }
                }
            case .latitude:
                row.latitudePlace = (fieldStart, place.line, place.lineStart)
                if let v = CSVScan.number(p, &i, safeEnd: safeEnd), CSVReader.ends(p[i], d) {
                    row.store(v, .latitude)
                } else {
                    fast = false
                }
            case .longitude:
                row.longitudePlace = (fieldStart, place.line, place.lineStart)
                if let v = CSVScan.number(p, &i, safeEnd: safeEnd), CSVReader.ends(p[i], d) {
                    row.store(v, .longitude)
                } else {
                    fast = false
                }
            case .time:
                let encoding = timeEncoding
                if encoding == .iso8601 {
                    // (With a zone for local times, the slow path, which tells whether a time carries its own.)
                    var hasZone = true
                    if localTimes == nil,
                        let t = CSVScan.isoMilliseconds(
                            p, &i, limit: limit, cache: &isoCache, delimiter: d, hasZone: &hasZone),
                        CSVReader.ends(p[i], d), t >= CSVScan.earliestMilliseconds, t < CSVScan.endMilliseconds
                    {
                        row.storeTime(t, isLocal: !hasZone)
                    } else {
                        fast = false
                    }
                } else if encoding != .automatic,
                    let t = CSVScan.epochMilliseconds(p, &i, encoding, safeEnd: safeEnd), CSVReader.ends(p[i], d),
                    let utc = CSVReader.utcMilliseconds(t, encoding)
                {
                    row.storeTime(utc)
                } else {
                    fast = false
                }
            case .horizontalAccuracy, .altitude, .verticalAccuracy, .speed, .speedAccuracy, .course,
                .courseAccuracy, .hdop:
                if let v = CSVScan.number(p, &i, safeEnd: safeEnd), CSVReader.ends(p[i], d) {
                    row.store(v, role)
                } else {
                    fast = false
                }
            case .provider, .satellites, .mocked, .activity, .activityConfidence, .messageType, .date,
                .latitudeHemisphere, .longitudeHemisphere, .validity, .device, .segment:
                fast = false
            }
            if !fast {
                switch try slowField(role, from: fieldStart, column: column, place: &place) {
                case .next(let end): i = end
                case .done(let outcome): return outcome
                }
            }
            // After the field: a delimiter, or the end of the row.
            let c = p[i]
            if c == d {
                if column == lastColumn { return try extraField(at: i, place: place) }
                column += 1
                i += 1
                continue
            }
            let next: Int
            if c == 0x0A {
                next = i + 1
            } else if c == 0x0D && p[i + 1] == 0x0A {
                next = i + 2
            } else {
                return try badFieldEnd(at: i, column: column, place: place)
            }
            if column != lastColumn { return try missingFields(at: i, column: column, place: place) }
            pos = next
            line = place.line + 1
            rowsRead += 1
            return .fix
        }
    }

    /// Skips a blank or comment line at `index`; `nil` when the line is neither (a lone `\r` starting a row).
    @inline(never)
    private mutating func blankOrComment(at index: Int) -> RowOutcome? {
        let p = base
        let first = p[index]
        if first == 0x0A || (first == 0x0D && p[index + 1] == 0x0A) {
            pos = first == 0x0A ? index + 1 : index + 2
            line += 1
            rowsRead += 1
            return .skipped(.blank)
        }
        if first == UInt8(ascii: "#") {
            skipLine(from: index, extraLines: 0)
            rowsRead += 1
            return .skipped(.comment)
        }
        return nil
    }

    /// What ``slowField(_:from:column:place:)`` did: the field ends at an index, or the row is done.
    private enum SlowField {
        case next(Int)
        case done(RowOutcome)
    }

    /// Reads a field the fast loop left: a quoted field, a fallback parse, a non-numeric column, the
    /// message type; errors are thrown or counted here.
    @inline(never)
    private mutating func slowField(
        _ role: CSVRole, from fieldStart: Int, column: Int,
        place: inout CSVRowPlace
    ) throws(ReadError) -> SlowField {
        let p = base
        let fieldPlace = place
        let end: Int
        let text: UnsafeRawBufferPointer
        let textStart: Int
        let textEnd: Int
        if p[fieldStart] == UInt8(ascii: "\"") {
            guard let quoted = scanQuoted(from: fieldStart) else { return .done(.needMore) }
            end = quoted.end
            if quoted.newlines > 0 {
                place.line += quoted.newlines
                place.lineStart = quoted.lastLineStart
            }
            text = UnsafeRawBufferPointer(start: buffers.scratchPointer, count: quoted.length + 1)
            textStart = 0
            textEnd = quoted.length
        } else {
            end = fieldEnd(fieldStart)
            text = UnsafeRawBufferPointer(start: p, count: limit)
            textStart = fieldStart
            textEnd = end
        }
        if role == .latitude { row.latitudePlace = (fieldStart, fieldPlace.line, fieldPlace.lineStart) }
        if role == .longitude { row.longitudePlace = (fieldStart, fieldPlace.line, fieldPlace.lineStart) }
        if role == .date { row.datePlace = (fieldStart, fieldPlace.line, fieldPlace.lineStart) }
        if role == .messageType {
            let bytes = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if !CSVReader.isFix(bytes, textStart, textEnd) {
                return .done(skipRest(from: end, extraLines: place.line - line, reason: .otherRecord))
            }
            return .next(end)
        }
        if role != .ignore, textEnd > textStart {
            do {
                try assign(role, text, textStart, textEnd, column: column)
            } catch {
                // An altitude, speed or course that is no finite number: read as missing in any mode, and counted.
                if case .malformedField(_, let field, let expected, let found) = error,
                    expected == ReadReport.nonFiniteExpectation
                {
                    let at = location(fieldStart, line: fieldPlace.line, lineStart: fieldPlace.lineStart)
                    _report.readNonFiniteAsMissing(.malformedField(at, field: field, expected: expected, found: found))
                    return .next(end)
                }
                // Two stray quotes in a typed column (a time, a latitude): the field ran over lines and is no
                // number; each is its line's error, as in ``badFieldEnd(at:column:place:)`` (a reviewer's lost the
                // rows between them).
                if place.line > line, let stray = strayQuote(inRowAt: pos), stray.index == fieldStart,
                    opensField(closingAt: end - 1, place: place)
                {
                    try rejectLine(openingStrayQuote: stray)
                    return .done(.rejected)
                }
                // An optional measurement read leniently: the fix goes on without it (see `ReadReport.readAsMissing`).
                if options.lenient, role.isOptionalMeasurement,
                    case .malformedField(_, let field, let expected, let found) = error
                {
                    let at = location(fieldStart, line: fieldPlace.line, lineStart: fieldPlace.lineStart)
                    try _report.readAsMissing(
                        .malformedField(at, field: field, expected: expected, found: found), lenient: true)
                    return .next(end)
                }
                return .done(try reject(error, at: fieldStart, place: fieldPlace, skipFrom: end, skipLine: place.line))
            }
        }
        // A tracker's record without a fix (`valid=false`): nothing else of it is read.
        if role == .validity, row.has(.validity), !row.valid {
            return .done(skipRest(from: end, extraLines: place.line - line, reason: .noFix))
        }
        if role == .device, let outcome = try selectDevice(at: fieldStart, place: fieldPlace, column: column, end: end)
        {
            return .done(outcome)
        }
        return .next(end)
    }

    /// Applies ``ReadOptions/devices`` to the row whose device field (read into `row`) starts at `fieldStart`:
    /// `nil` to read on, or the row skipped as another device's; throws at a second device of a file read as
    /// one device's.
    private mutating func selectDevice(
        at fieldStart: Int, place: CSVRowPlace, column: Int, end: Int
    ) throws(ReadError) -> RowOutcome? {
        switch options.devices {
        case .all:
            return nil
        case .only:
            if row.has(.device), deviceTable.kept[row.deviceIndex] { return nil }
            return skipRest(from: end, extraLines: place.line - line, reason: .deviceFiltered)
        case .single:
            guard deviceTable.ids.count > 1 else { return nil }
            // Nothing read after this row could be trusted to be one track.
            finished = true
            throw ReadError.severalDevices(
                location(fieldStart, line: place.line, lineStart: place.lineStart), field: headerNames[column],
                devices: deviceTable.ids)
        }
    }

    /// A delimiter after the last column: the row's end when nothing follows it on the line (a delimiter closing
    /// every row, an export's habit: a CLI tester's file failed at its first row, and `--lenient` skipped every
    /// row), else an extra field.
    @inline(never)
    private mutating func extraField(at index: Int, place: CSVRowPlace) throws(ReadError) -> RowOutcome {
        let p = base
        let next = p[index + 1] == 0x0A ? index + 2 : p[index + 1] == 0x0D && p[index + 2] == 0x0A ? index + 3 : nil
        if let next {
            pos = next
            line = place.line + 1
            rowsRead += 1
            return .fix
        }
        let error = ReadError.malformedField(
            location(index + 1, line: place.line, lineStart: place.lineStart),
            field: "column \(columnCount + 1)",
            expected: "the end of the row (the header has \(columnCount) columns)",
            found: text(index + 1, fieldEnd(index + 1)))
        return try reject(error, at: nil, place: place, skipFrom: index, skipLine: place.line)
    }

    /// A byte after a field that is neither a delimiter nor a line end (after a closing quote, or a lone `\r`).
    @inline(never)
    private mutating func badFieldEnd(at index: Int, column: Int, place: CSVRowPlace) throws(ReadError) -> RowOutcome {
        // A quoted field that opened on the row's first line, ran over lines and closed on a quote followed by more
        // text is two stray quotes (`"gps` on two lines), not a field: the first line is the bad row, and reading
        // goes on after it. Before, a reviewer's file with stray quotes on lines 11 and 41 lost the 29 rows
        // between them, with the error named at line 41.
        if place.line > line, let stray = strayQuote(inRowAt: pos),
            opensField(closingAt: index - 1, place: place)
        {
            try rejectLine(openingStrayQuote: stray)
            return .rejected
        }
        let error = ReadError.malformedField(
            location(index, line: place.line, lineStart: place.lineStart), field: headerNames[column],
            expected: "a delimiter or the end of the row after the field", found: text(index, fieldEnd(index + 1)))
        return try reject(error, at: nil, place: place, skipFrom: index, skipLine: place.line)
    }

    /// Whether the quote at `quote`, which closed a field that ran over lines, itself opens a field of a row on
    /// its own line: it stands at the line's start or after a delimiter, and the line holds as many delimiters as
    /// a row (the header's count less one). Then it is the second of two stray quotes, not the end of a quoted
    /// note whose text runs on: a reviewer's `end" ` after a multi-line note (its second line was read as a row
    /// 130 km away), and another's `end of excerpt,"  (driver)",5` (a quote after a delimiter, on a line that is
    /// no row). The column need not be the first stray's: a third reviewer's file with stray quotes in the note on
    /// line 7 and the accuracy on line 22 lost the 14 rows between them, and a file whose every field is quoted,
    /// a stray `"ok` at a line's end closed by the next line's first quote, lost that next line.
    ///
    /// The line's delimiters are counted as a row's might hold them: all of them, or those outside the line's
    /// quote pairs (see below).
    private func opensField(closingAt quote: Int, place: CSVRowPlace) -> Bool {
        guard quote == place.lineStart || base[quote - 1] == delimiter else { return false }
        var lineEnd = place.lineStart
        var quotes = 0
        while lineEnd < limit, base[lineEnd] != 0x0A {
            if base[lineEnd] == UInt8(ascii: "\"") { quotes += 1 }
            lineEnd += 1
        }
        // Two readings of the line; either holding a row's delimiters makes it a row. Every delimiter (the quotes
        // strays: a third reviewer's `"bad,"gps"` after a stray, which the second reading lost 4 rows over), or
        // those outside the line's quote pairs, a last quote that pairs with none hiding nothing (the second
        // reviewer's properly quoted `"a, b"`).
        var all = 0
        var outsidePairs = 0
        var seen = 0
        for i in place.lineStart..<lineEnd {
            if base[i] == UInt8(ascii: "\"") {
                seen += 1
            } else if base[i] == delimiter {
                all += 1
                if seen % 2 == 0 || seen == quotes { outsidePairs += 1 }
            }
        }
        return all == columnCount - 1 || outsidePairs == columnCount - 1
    }

    /// A row that ends before the last column.
    @inline(never)
    private mutating func missingFields(at index: Int, column: Int, place: CSVRowPlace) throws(ReadError) -> RowOutcome
    {
        let error = ReadError.malformedField(
            location(index, line: place.line, lineStart: place.lineStart), field: headerNames[column + 1],
            expected: "\(columnCount) fields as in the header",
            found: "the end of the row after \(column + 1) field\(column == 0 ? "" : "s")")
        return try reject(error, at: nil, place: place, skipFrom: index, skipLine: place.line)
    }

    /// Counts (lenient) or throws a fix whose coordinates `Fix.init` refused, located at the field.
    @inline(never)
    private mutating func rejectInvalidFix(_ error: FixValidationError) throws(ReadError) {
        let place: (index: Int, line: Int, lineStart: Int)
        switch error {
        case .latitudeOutOfRange: place = row.latitudePlace
        case .longitudeOutOfRange: place = row.longitudePlace
        // The time's range is checked while the time field is parsed, with its own location; this is only
        // reachable if that check and Fix's ever disagree.
        case .timestampOutOfRange: place = row.latitudePlace
        }
        // Named by the header, as a value that is no number is (`lat`, not `latitude`).
        let isLongitude = if case .longitudeOutOfRange = error { true } else { false }
        let field = headerName(of: isLongitude ? .longitude : .latitude)
        // The row has been consumed, but its bytes stay in the buffer until the next refill.
        try _report.reject(
            .invalidFix(location(place.index, line: place.line, lineStart: place.lineStart), error, field: field),
            lenient: options.lenient)
    }

    /// The sign a hemisphere letter gives a latitude (`N` +1, `S` −1) or a longitude (`E` +1, `W` −1), in any
    /// case; `nil` for another letter.
    private static func hemisphereSign(_ letter: UInt8, latitude: Bool) -> Double? {
        switch (latitude, letter | 0x20) {
        case (true, UInt8(ascii: "n")), (false, UInt8(ascii: "e")): 1
        case (true, UInt8(ascii: "s")), (false, UInt8(ascii: "w")): -1
        default: nil
        }
    }

    /// True when `c` ends a field: the delimiter, `\r` or `\n`.
    @inline(__always)
    private static func ends(_ c: UInt8, _ delimiter: UInt8) -> Bool {
        c == delimiter || c == 0x0A || c == 0x0D
    }

    /// Converts a time read in `encoding` to Unix milliseconds; `nil` outside years 0001–9999.
    @inline(__always)
    private static func utcMilliseconds(_ value: Int64, _ encoding: CSVTimeEncoding) -> Int64? {
        var utc = value
        if encoding == .gpsMilliseconds {
            guard value > -CSVScan.endMilliseconds, value < CSVScan.endMilliseconds else { return nil }
            utc = Timestamp(gpsMilliseconds: value).millisecondsSince1970
        }
        guard utc >= CSVScan.earliestMilliseconds, utc < CSVScan.endMilliseconds else { return nil }
        return utc
    }

    /// True when `p[start..<end]` (spaces trimmed) is `Fix`, in any case.
    private static func isFix(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var s = start
        var e = end
        while s < e, p[s] == 0x20 || p[s] == 0x09 { s += 1 }
        while e > s, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        return e - s == 3 && p[s] | 0x20 == UInt8(ascii: "f") && p[s + 1] | 0x20 == UInt8(ascii: "i")
            && p[s + 2] | 0x20 == UInt8(ascii: "x")
    }

    /// Moves `pos` past the line that holds index `index` (the row started `extraLines` lines earlier).
    private mutating func skipLine(from index: Int, extraLines: Int) {
        let hit = memchr(base + index, 0x0A, limit - index)!
        pos = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
        line += 1 + extraLines
    }

    /// Skips the rest of a row that is not a fix record (quotes respected, so a quoted line break does not
    /// end it), counted for `reason`; `extraLines` line breaks were already passed inside the row.
    private mutating func skipRest(from index: Int, extraLines: Int, reason: SkipReason) -> RowOutcome {
        let p = base
        var i = index
        var inQuotes = false
        var lines = extraLines
        while true {
            guard i < limit else { return .needMore }
            let c = p[i]
            if c == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if c == 0x0A {
                if !inQuotes { break }
                lines += 1
            }
            i += 1
        }
        pos = i + 1
        line += 1 + lines
        rowsRead += 1
        return .skipped(reason)
    }

    /// Counts a malformed row (lenient) or throws, after moving past the row's line that holds `skipFrom`
    /// (line number `skipLine`). A field error is located at `index` on the line described by `place`.
    private mutating func reject(
        _ error: ReadError, at index: Int?, place: CSVRowPlace, skipFrom: Int,
        skipLine lineOfSkip: Int
    ) throws(ReadError) -> RowOutcome {
        switch joinedFileLine(at: pos) {
        case .repeated(let reason)?:
            // Files joined with `cat`: the next file's header (or Excel `sep=` line) is no malformed row.
            skipLine(from: min(skipFrom, limit - 1), extraLines: lineOfSkip - line)
            rowsRead += 1
            return .skipped(reason)
        case .otherHeader(let text)?:
            // A joined file with other columns: its rows read by the first header's would be misread (a tester's
            // `lon,lat` file after a `lat,lon` one, read leniently, put its fixes at 11.5° N 48.1° E).
            finished = true
            throw ReadError.unreadableStructure(
                location(pos, line: place.line, lineStart: pos), expected: CSVReader.sameHeaderExpectation,
                found: text)
        case nil:
            break
        }
        var error = error
        if let index, case .malformedField(_, let field, let expected, let found) = error {
            error = .malformedField(
                location(index, line: place.line, lineStart: place.lineStart), field: field,
                expected: expected, found: found)
        }
        skipLine(from: min(skipFrom, limit - 1), extraLines: lineOfSkip - line)
        rowsRead += 1
        try _report.reject(error, lenient: options.lenient)
        return .rejected
    }

    /// What a line that failed to read as a row is where files were joined with `cat`.
    enum JoinedFileLine {
        /// The header again, its names in the same places (any case or quoting; `.header`), or an Excel `sep=` line
        /// naming the delimiter in use (`.comment`).
        case repeated(SkipReason)
        /// A header naming other columns (two or more of its fields name columns of the first header): its text.
        case otherHeader(String)
    }

    /// What the line starting at `p[start]` is when it belongs to a file joined after the first (see
    /// ``JoinedFileLine``), or `nil`; a leading byte-order mark (the joined file's own) and a `\r` before the line end
    /// are passed over. Only asked of a row that failed to read, so it costs the rows that read nothing.
    private func joinedFileLine(at start: Int) -> JoinedFileLine? {
        let p = base
        guard comparableHeaderNames.count >= 2, start < limit, let hit = memchr(p + start, 0x0A, limit - start) else {
            return nil
        }
        var s = start
        var e = UnsafeRawPointer(p).distance(to: UnsafeRawPointer(hit))
        if e > s, p[e - 1] == 0x0D { e -= 1 }
        if e - s >= 3, p[s] == 0xEF, p[s + 1] == 0xBB, p[s + 2] == 0xBF { s += 3 }
        let line = UnsafeRawBufferPointer(start: p + s, count: e - s)
        if let declared = CSVReader.declaredDelimiter(line[...]), declared == delimiter { return .repeated(.comment) }
        let fields = CSVReader.names(line, delimiter).map(CSVReader.comparable)
        if fields == comparableHeaderNames { return .repeated(.header) }
        let known = Set(comparableHeaderNames)
        guard Set(fields.filter { !$0.isEmpty && known.contains($0) }).count >= 2 else { return nil }
        return .otherHeader(String(decoding: line.prefix(80), as: UTF8.self))
    }

    /// The fields of a header line (without its line end) split at `delimiter`, quotes respected (`""` inside a
    /// quoted field is a quote).
    static func names(_ line: UnsafeRawBufferPointer, _ delimiter: UInt8) -> [String] {
        split(line, delimiter).names
    }

    /// The fields of a header line (without its line end) split at `delimiter`, and where each starts in `line` (the
    /// byte index after the delimiter before it). A quote opens a quoted field only at the field's start (after
    /// spaces), where `""` is a quote and a delimiter is none; elsewhere it is text. (The places came from a split
    /// of their own that took any quote for one opening or closing a quoted field: after a name such as `5" probe`
    /// the duplicate latitude column was said to be another column.)
    static func split(_ line: UnsafeRawBufferPointer, _ delimiter: UInt8) -> (names: [String], starts: [Int]) {
        var names: [String] = []
        var starts = [0]
        var current: [UInt8] = []
        var quoted = false
        var k = 0
        while k < line.count {
            let c = line[k]
            if quoted {
                if c == UInt8(ascii: "\"") {
                    if k + 1 < line.count, line[k + 1] == UInt8(ascii: "\"") {
                        current.append(c)
                        k += 1
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(c)
                }
            } else if c == UInt8(ascii: "\"") && current.allSatisfy({ $0 == 0x20 }) {
                quoted = true
                current.removeAll()
            } else if c == delimiter {
                names.append(String(decoding: current, as: UTF8.self))
                starts.append(k + 1)
                current.removeAll()
            } else {
                current.append(c)
            }
            k += 1
        }
        names.append(String(decoding: current, as: UTF8.self))
        return (names, starts)
    }

    /// A header name as ``joinedFileLine(at:)`` compares them: spaces, tabs, a byte-order mark and double quotes
    /// around it trimmed, lower-cased.
    static func comparable(_ name: String) -> String {
        var scalars = Substring(name).unicodeScalars
        let strip: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "\u{FEFF}" }
        while let first = scalars.first, strip(first) { scalars.removeFirst() }
        while let last = scalars.last, strip(last) { scalars.removeLast() }
        return String(scalars).lowercased()
    }

    /// What a header line after the first must be (an ``ReadError/unreadableStructure(_:expected:found:)``'s
    /// expectation): rows after another header would be read by the wrong columns.
    public static let sameHeaderExpectation =
        "data rows, or the first header line repeated (files joined with cat); this header names other columns, so "
        + "the rows after it would be read by the wrong ones: split the file at this line and read the parts apart"

    /// Scans the quoted field opening at `p[index]`, unescaping it into the scratch buffer; `nil` when
    /// the closing quote lies past the buffered lines.
    private mutating func scanQuoted(from index: Int) -> (end: Int, length: Int, newlines: Int, lastLineStart: Int)? {
        let p = base
        let scratch = buffers.scratch(capacity: limit - index)
        var j = index + 1
        var length = 0
        var newlines = 0
        var lastLineStart = 0
        while j < limit {
            let c = p[j]
            if c == UInt8(ascii: "\"") {
                // A '"' is never the buffer's last byte (that is a '\n'), so p[j + 1] is valid.
                if p[j + 1] == UInt8(ascii: "\"") {
                    scratch[length] = c
                    length += 1
                    j += 2
                    continue
                }
                // A '\n' sentinel after the text keeps the fast parsers inside the scratch buffer (its
                // capacity exceeds the text by at least the closing quote and the line end).
                scratch[length] = 0x0A
                return (j + 1, length, newlines, lastLineStart)
            }
            if c == 0x0A {
                newlines += 1
                lastLineStart = j + 1
            }
            scratch[length] = c
            length += 1
            j += 1
        }
        return nil
    }

    // MARK: - Values (general path)

    /// Parses `p[start..<end]` as the value of `role` into `row` with the general parsers.
    private mutating func assign(
        _ role: CSVRole, _ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
        column: Int
    ) throws(ReadError) {
        var s = start
        var e = end
        while s < e, p[s] == 0x20 || p[s] == 0x09 { s += 1 }
        while e > s, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        guard s < e else { return }  // empty: absent
        let bytes = p.baseAddress!.assumingMemoryBound(to: UInt8.self)
        func malformed(_ expected: String) -> ReadError {
            // The location is filled in by the caller's `reject`; here only the field and the text matter.
            .malformedField(
                SourceLocation(file: stream.name, line: 0, byteOffset: 0), field: headerNames[column],
                expected: expected, found: ReadError.quote(p, s, e))
        }
        switch role {
        case .ignore, .messageType:
            return
        case .date:
            // Read while the time column may still turn out to be a time of day; ignored once it holds whole
            // times.
            guard timeEncoding == .automatic || timeEncoding == .timeOfDay else { return }
            switch readDate(bytes, s, e, field: DateField(column: column, withTimeOfDay: false)) {
            case .days(let days):
                row.day = days
                row.mark(.date)
            // Before the time column has decided whether it needs the date (the first row, with the date column
            // first), a date that does not read is no error yet: a column of whole times may follow (a reviewer's
            // `date,timestamp` file failed on every row). Should the time be a time of day, the error is raised
            // then (``addDate()``).
            case .ambiguous(let orders):
                let error = malformed(CSVReader.ambiguousDate(orders))
                guard timeEncoding == .automatic else { throw error }
                row.deferredDateError = error
            case .invalid:
                let error = malformed(CSVReader.dateExpectation)
                guard timeEncoding == .automatic else { throw error }
                row.deferredDateError = error
            }
        case .latitudeHemisphere, .longitudeHemisphere:
            let isLatitude = role == .latitudeHemisphere
            guard let sign = CSVReader.hemisphereSign(bytes[s], latitude: isLatitude) else {
                throw malformed(isLatitude ? "N or S" : "E or W")
            }
            row.setHemisphere(sign, latitude: isLatitude)
        case .latitude, .longitude:
            if let value = numberOrDecimalComma(p, s, e) {
                row.store(value, role)
                return
            }
            // A hemisphere letter after the number (`52.123456N`, `13.1E`: Columbus loggers) or before it.
            let isLatitude = role == .latitude
            let expected = isLatitude ? "a number (or one with N or S)" : "a number (or one with E or W)"
            let sign: Double
            var from = s, to = e
            if let h = CSVReader.hemisphereSign(p[e - 1], latitude: isLatitude) {
                sign = h
                to -= 1
            } else if let h = CSVReader.hemisphereSign(p[s], latitude: isLatitude) {
                sign = h
                from += 1
            } else {
                throw malformed(expected)
            }
            while from < to, p[from] == 0x20 { from += 1 }
            while to > from, p[to - 1] == 0x20 { to -= 1 }
            guard to > from, let value = numberOrDecimalComma(p, from, to) else {
                throw malformed(expected)
            }
            row.store(value, role)
            row.setHemisphere(sign, latitude: isLatitude)
        case .horizontalAccuracy, .altitude, .verticalAccuracy, .speed, .speedAccuracy, .course, .courseAccuracy:
            guard let value = numberOrDecimalComma(p, s, e) else {
                throw malformed("a number")
            }
            // (An altitude, speed or course that is no finite number, `nan`, `inf`, `1e400`: read as missing and
            // counted by the caller, in any mode; it was dropped without a word. Only the slow path gets here: the
            // fast one reads digits.)
            if !value.isFinite, role == .altitude || role == .speed || role == .course {
                throw malformed(ReadReport.nonFiniteExpectation)
            }
            row.store(value, role)
        case .hdop:
            // A stand-in for an accuracy the row does not state: loggers write `-` or `N/A` where they have none, and
            // an unreadable one is none (no error: the files were read before the column was).
            if let value = numberOrDecimalComma(p, s, e) { row.store(value, role) }
        case .time:
            // Which value decided the unit, for an error (`""` when the column's name did).
            var decidedBy: String {
                guard let (line, text) = timeEncodingDecidedBy else { return "" }
                return " (as line \(line)'s value \"\(text)\" decided for the column)"
            }
            if timeEncoding == .automatic {
                timeEncoding = CSVReader.detectEncoding(p, s, e, hasDateColumn: hasDateColumn)
                // A number with a decimal comma in a `;` file (`1764943387,5`): by its magnitude, as any number.
                if timeEncoding == .iso8601, !hasDateColumn, let value = decimalComma(p, s, e), value.isFinite {
                    timeEncoding = CSVReader.encoding(ofMagnitude: abs(value))
                }
                timeEncodingDecidedBy = (line, ReadError.quote(p, s, e))
                if timeEncoding == .unixSeconds, let value = numberOrDecimalComma(p, s, e),
                    value * 1000 < Double(Timestamp.gpsEpochMillisecondsSince1970)
                {
                    provisionalTimeUnitFixes = fixesProduced
                }
            }
            let encoding = timeEncoding
            if encoding == .excelDays {
                guard let days = numberOrDecimalComma(p, s, e), days.isFinite,
                    days >= 1, days < 2_958_466  // 1899-12-31 to 9999-12-31
                else { throw malformed(encoding.expectation + decidedBy) }
                row.storeTime(
                    Int64(((days - CSVReader.excelDaysRange.lowerBound) * 86_400_000).rounded()), isLocal: true)
                return
            }
            if encoding == .timeOfDay {
                var hasZone = false
                guard let ms = CSVReader.millisecondsOfDay(bytes, s, e, hasZone: &hasZone) else {
                    throw malformed(encoding.expectation + " (the file has a date column)")
                }
                row.storeTime(ms, isLocal: !hasZone)
            } else if encoding == .iso8601 {
                var hasZone = false
                var milliseconds = ISO8601.parse(p, from: s, to: e, hasZone: &hasZone)?.millisecondsSince1970
                if milliseconds == nil, let split = dateAndTime(bytes, s, e, column: column) {
                    hasZone = split.hasZone
                    switch split.date {
                    case .days(let days): milliseconds = days * 86_400_000 + split.millisecondsOfDay
                    case .ambiguous(let orders): throw malformed(CSVReader.ambiguousDate(orders))
                    case .invalid: break
                    }
                }
                guard let t = milliseconds, t >= CSVScan.earliestMilliseconds, t < CSVScan.endMilliseconds else {
                    if CSVReader.isTimeOfDay(p, s, e) {
                        throw malformed(
                            "a date and time; a time of day alone needs a date column (date, utc_date, gps_date)")
                    }
                    throw malformed(encoding.expectation + " in the years 0001-9999")
                }
                row.storeTime(t, isLocal: !hasZone)
            } else {
                var index = s
                if let t = CSVScan.epochMilliseconds(bytes, &index, encoding, safeEnd: 0), index == e,
                    let utc = CSVReader.utcMilliseconds(t, encoding)
                {
                    row.storeTime(utc)
                    return
                }
                guard let value = numberOrDecimalComma(p, s, e), value.isFinite else {
                    throw malformed(encoding.expectation + decidedBy)
                }
                let scaled = (value * (encoding.unitsPerSecond.map { 1000 / $0 } ?? 1)).rounded()
                guard scaled.isFinite, abs(scaled) < Double(CSVScan.endMilliseconds),
                    let utc = CSVReader.utcMilliseconds(Int64(scaled), encoding)
                else {
                    // The value after a lone placeholder (`0`, or a date before 1980 in seconds) that reads in a
                    // finer unit as a date from 1980 on decides the unit again: with a `0` on its first row, a
                    // tester's 300 rows of Unix milliseconds were an error at line 3 (299 skipped with --lenient).
                    if let before = provisionalTimeUnitFixes, fixesProduced <= before + 1 {
                        provisionalTimeUnitFixes = nil
                        // (From the value already read, decimal comma included.)
                        let unit = CSVReader.encoding(ofMagnitude: abs(value))
                        // (A finer unit than seconds: seconds were the placeholder's reading.)
                        if unit != .unixSeconds, let perMillisecond = unit.unitsPerSecond.map({ $0 / 1000 }) {
                            let ms = (value / perMillisecond).rounded()
                            if ms >= Double(Timestamp.gpsEpochMillisecondsSince1970),
                                ms < Double(CSVScan.endMilliseconds)
                            {
                                timeEncoding = unit
                                timeEncodingDecidedBy = (line, ReadError.quote(p, s, e))
                                row.storeTime(Int64(ms))
                                return
                            }
                        }
                    }
                    throw malformed(encoding.expectation + " in the years 0001-9999" + decidedBy)
                }
                row.storeTime(utc)
            }
        case .provider:
            if let cached = providerCache.lookup(bytes, s, e) {
                row.provider = cached
                row.mark(.provider)
            } else {
                let provider = Provider(
                    name: String(decoding: UnsafeRawBufferPointer(rebasing: p[s..<e]), as: UTF8.self))
                providerCache.store(bytes, s, e, provider)
                row.provider = provider
                row.mark(.provider)
            }
        case .satellites:
            guard let value = NumberParsing.int(p, s, e), value >= Int64(Int.min), value <= Int64(Int.max) else {
                throw malformed("an integer")
            }
            row.satellites = Int(value)
            row.mark(.satellites)
        case .segment:
            guard let value = NumberParsing.int(p, s, e), value >= Int64(Int.min), value <= Int64(Int.max) else {
                throw malformed("an integer (the segment's label)")
            }
            row.segment = Int(value)
            row.mark(.segment)
        case .activityConfidence:
            if let value = NumberParsing.int(p, s, e) {
                row.activityConfidence = Int(clamping: value)
            } else if let share = NumberParsing.double(p, s, e), let percent = ActivityConfidence.percent(share) {
                row.activityConfidence = percent
            } else {
                throw malformed("an integer 0-100 (or a share 0.0-1.0)")
            }
            row.mark(.activityConfidence)
        case .mocked:
            guard let value = CSVReader.bool(bytes, s, e) else { throw malformed("true or false") }
            row.mocked = value
            row.mark(.mocked)
        case .validity:
            guard let value = CSVReader.bool(bytes, s, e) else { throw malformed("true or false") }
            row.valid = value
            row.mark(.validity)
        case .device:
            row.deviceIndex = deviceTable.index(of: bytes, s, e, fixesProduced: fixesProduced)
            row.mark(.device)
        case .activity:
            if let cached = activityCache.lookup(bytes, s, e) {
                row.activity = cached
                row.mark(.activity)
            } else {
                let kind = CSVReader.activity(
                    String(decoding: UnsafeRawBufferPointer(rebasing: p[s..<e]), as: UTF8.self))
                activityCache.store(bytes, s, e, kind)
                row.activity = kind
                row.mark(.activity)
            }
        }
    }

    /// Decides the encoding of an ``CSVTimeEncoding/automatic`` time column from its first value.
    static func detectEncoding(
        _ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int, hasDateColumn: Bool = false
    ) -> CSVTimeEncoding {
        if hasDateColumn, isTimeOfDay(p, s, e) { return .timeOfDay }
        // Beside a date column a number is a time of day unless it is a plausible Unix time (from 2001 on in
        // seconds, 10⁹): 1234567 seconds is January 1970, and the date would be dropped without a word.
        if hasDateColumn, let value = NumberParsing.double(p, s, e), value.isFinite, abs(value) < 1e9 {
            return .timeOfDay
        }
        for k in s..<e where (p[k] == UInt8(ascii: "-") && k > s) || p[k] == UInt8(ascii: ":") {
            return .iso8601
        }
        guard let value = NumberParsing.double(p, s, e), value.isFinite else { return .iso8601 }
        return encoding(ofMagnitude: abs(value))
    }

    /// The first values that make a time column ``CSVTimeEncoding/excelDays``: 1970-01-01 to 2100-01-01 as a
    /// spreadsheet's serial date (as Unix seconds, a time on 1 January 1970).
    static let excelDaysRange = 25_569.0..<73_051.0

    /// The unit of a number of `magnitude` in a time column: from 25,569 to below 73,051 a spreadsheet's serial date
    /// (``excelDaysRange``), else below 10¹¹ seconds, below 10¹⁴ milliseconds, below
    /// 10¹⁷ microseconds, else nanoseconds.
    static func encoding(ofMagnitude magnitude: Double) -> CSVTimeEncoding {
        if excelDaysRange.contains(magnitude) { return .excelDays }
        if magnitude < 1e11 { return .unixSeconds }
        if magnitude < 1e14 { return .unixMilliseconds }
        if magnitude < 1e17 { return .unixMicroseconds }
        return .unixNanoseconds
    }

    /// Whether a first time value looks like a time of day: digits with `:` (and nothing that only a date
    /// holds: `-` before the digits, `/`, `T`, a space), or at most six digits before an optional fraction
    /// (`hhmmss`); a 12-hour clock's `AM` / `PM` and a zone (`Z`, `+02:00`, `UTC`, see ``TimeOfDaySuffix``) may follow.
    static func isTimeOfDay(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Bool {
        var colons = 0, digitsBeforeFraction = 0, inFraction = false
        guard let suffix = TimeOfDaySuffix(p.baseAddress!.assumingMemoryBound(to: UInt8.self), s, e) else {
            return false
        }
        let end = suffix.timeEnd
        guard end > s else { return false }
        for k in s..<end {
            let c = p[k]
            if c >= 0x30 && c <= 0x39 {
                if !inFraction { digitsBeforeFraction += 1 }
            } else if c == UInt8(ascii: ":") {
                colons += 1
            } else if (c == UInt8(ascii: ".") || c == UInt8(ascii: ",")) && !inFraction {
                inFraction = true
            } else {
                return false
            }
        }
        return colons > 0 ? colons <= 2 : (digitsBeforeFraction >= 1 && digitsBeforeFraction <= 6)
    }

    /// Up to three unsigned numbers separated by one kind of separator, with their digit counts (no
    /// allocation); `nil` when the text is anything else.
    struct NumberParts {
        var values: (Int, Int, Int) = (0, 0, 0)
        var widths: (Int, Int, Int) = (0, 0, 0)
        var count = 0
        var separator: UInt8 = 0

        init?(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, separators: (UInt8, UInt8, UInt8), maximumWidth: Int) {
            var value = 0, width = 0
            for k in s...e {
                let c = k < e ? p[k] : 0
                if k < e, c >= 0x30 && c <= 0x39 {
                    value = value * 10 + Int(c - 0x30)
                    width += 1
                    guard width <= maximumWidth else { return nil }
                    continue
                }
                guard width > 0, count < 3 else { return nil }
                switch count {
                case 0: (values.0, widths.0) = (value, width)
                case 1: (values.1, widths.1) = (value, width)
                default: (values.2, widths.2) = (value, width)
                }
                count += 1
                value = 0
                width = 0
                if k == e { break }
                guard c == separators.0 || c == separators.1 || c == separators.2, separator == 0 || separator == c
                else { return nil }
                separator = c
            }
        }
    }

    /// A time of day (see ``CSVTimeEncoding/timeOfDay``) as milliseconds since midnight UTC on its date,
    /// rounded half up (an offset moves it outside 0 ..< 1 day); `nil` when it is not one. A leap second
    /// (`23:59:60`, with any fraction) is `23:59:59.999`, as ``Timestamp/init(civil:)`` reads it.
    static func millisecondsOfDay(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Int64? {
        var hasZone = false
        return millisecondsOfDay(p, s, e, hasZone: &hasZone)
    }

    /// ``millisecondsOfDay(_:_:_:)``, saying whether the time carried a zone (for ``ReadOptions/localTimeZone``).
    static func millisecondsOfDay(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, hasZone: inout Bool) -> Int64? {
        guard let suffix = TimeOfDaySuffix(p, s, e) else { return nil }
        hasZone = suffix.hasZone
        let end = suffix.timeEnd
        let offsetMinutes = suffix.offsetMinutes
        // Split off the fraction.
        var fractionStart = end
        for k in s..<end where p[k] == UInt8(ascii: ".") || p[k] == UInt8(ascii: ",") {
            fractionStart = k
            break
        }
        // Hours, minutes and seconds: with colons (h:mm[:ss]) or packed (hhmm[ss], hmmss).
        guard let parts = NumberParts(p, s, fractionStart, separators: (58, 58, 58), maximumWidth: 6) else {
            return nil
        }
        let hour: Int, minute: Int, second: Int
        let hasSeconds: Bool
        if parts.count == 1 {
            let value = parts.values.0
            switch parts.widths.0 {
            case 5, 6: (hour, minute, second, hasSeconds) = (value / 10_000, value / 100 % 100, value % 100, true)
            case 3, 4: (hour, minute, second, hasSeconds) = (value / 100, value % 100, 0, false)
            default: return nil
            }
        } else {
            guard parts.widths.0 <= 2, parts.widths.1 == 2, parts.count == 2 || parts.widths.2 == 2 else {
                return nil
            }
            hasSeconds = parts.count == 3
            (hour, minute, second) = (parts.values.0, parts.values.1, hasSeconds ? parts.values.2 : 0)
        }
        var hour24 = hour
        if let isAfternoon = suffix.isAfternoon {
            // 12 AM is midnight, 12 PM noon; a 12-hour clock has no hour 0 nor 13.
            guard hour >= 1, hour <= 12 else { return nil }
            hour24 = hour % 12 + (isAfternoon ? 12 : 0)
        }
        guard hour24 <= 23, minute <= 59, second <= 60 else { return nil }
        // A fraction needs seconds.
        guard fractionStart == end || hasSeconds else { return nil }
        var milliseconds: Int64 = 0
        if fractionStart < end {
            var digits = 0
            var value: Int64 = 0
            var roundUp = false
            for k in (fractionStart + 1)..<end {
                let d = p[k] &- 0x30
                guard d < 10 else { return nil }
                if digits < 3 { value = value * 10 + Int64(d) } else if digits == 3 { roundUp = d >= 5 }
                digits += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { value *= 10 } }
            milliseconds = value + (roundUp ? 1 : 0)
        }
        if second == 60 { return Int64(hour24 * 3600 + minute * 60 + 59 - offsetMinutes * 60) * 1000 + 999 }
        return Int64(hour24 * 3600 + minute * 60 + second - offsetMinutes * 60) * 1000 + milliseconds
    }

    /// What follows a time of day's digits (`p[s..<e]`): a 12-hour clock's `AM` or `PM` (any case, a space before
    /// it or not), then a zone as ``ISO8601/zoneOffsetMinutes(_:from:to:)`` reads one (`Z`, `+0200`, ` UTC`,
    /// `GMT+02:00`: spreadsheet and database exports write `5/1/2024 10:00:00 PM`, `05/01/2024 10:00:00 UTC`). `nil`
    /// when anything else follows.
    struct TimeOfDaySuffix {
        /// Where the time's own characters (digits, `:`, a fraction's `.` or `,`) end.
        var timeEnd: Int
        /// The zone's offset from UTC (0 without one).
        var offsetMinutes = 0
        /// Whether the time carried a zone.
        var hasZone = false
        /// `true` after `PM`, `false` after `AM`, `nil` on a 24-hour clock.
        var isAfternoon: Bool?

        init?(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) {
            func isLetter(_ c: UInt8) -> Bool { c | 0x20 >= 0x61 && c | 0x20 <= 0x7A }
            // The time's own characters: digits, `:` and a fraction's `.` or `,` (ISO 8601's decimal sign either,
            // and German Excel's `hh:mm:ss,000`).
            var k = s
            while k < e,
                (p[k] >= 0x30 && p[k] <= 0x39) || p[k] == UInt8(ascii: ":") || p[k] == UInt8(ascii: ".")
                    || p[k] == UInt8(ascii: ",")
            {
                k += 1
            }
            timeEnd = k
            // A 12-hour clock's marker, after a space or none (and not the start of a word: `AMT`).
            var j = k < e && p[k] == 0x20 ? k + 1 : k
            if j + 2 <= e, p[j + 1] | 0x20 == UInt8(ascii: "m"),
                p[j] | 0x20 == UInt8(ascii: "a") || p[j] | 0x20 == UInt8(ascii: "p"), j + 2 == e || !isLetter(p[j + 2])
            {
                isAfternoon = p[j] | 0x20 == UInt8(ascii: "p")
                j += 2
                k = j
            }
            // Then a zone, as ISO 8601 times have it.
            if k < e {
                guard let zone = ISO8601.zoneOffsetMinutes(UnsafeRawBufferPointer(start: p, count: e), from: k, to: e)
                else { return nil }
                offsetMinutes = zone
                hasZone = true
            }
        }
    }

    /// What a date's text gave.
    enum DateReading {
        /// Days since 1970-01-01.
        case days(Int64)
        /// A valid date in more than one of these orders, and no order known.
        case ambiguous([DateOrder])
        case invalid
    }

    /// What a date must look like, for error messages.
    static let dateExpectation =
        "a date such as 2024-05-01 (also 2024/05/01, 20240501, 01.05.2024, and 240501 or 05/01/2024 in a known order)"

    /// The message of a date valid in several `orders`.
    static func ambiguousDate(_ orders: [DateOrder]) -> String {
        let names = orders.map(\.rawValue).joined(separator: " or ")
        return
            "a date whose order is known (this one reads in order \(names); no earlier value of the file, nor those read "
            + "ahead, decided it): give --date-order \(names) (ReadOptions.dateOrder)"
    }

    /// The readings of a date value: one day its shape fixes (`2024-05-01`, `20240501`, `01.05.2024`), or the day in
    /// each order that reads it (`nil` where an order does not), or `nil` when it is no date.
    enum DateCandidates {
        case fixed(Int64)
        case orders(ymd: Int64?, dmy: Int64?, mdy: Int64?)

        /// The orders that read the value (empty for a fixed one).
        var orders: [DateOrder] {
            guard case .orders(let ymd, let dmy, let mdy) = self else { return [] }
            var orders: [DateOrder] = []
            if ymd != nil { orders.append(.yearMonthDay) }
            if dmy != nil { orders.append(.dayMonthYear) }
            if mdy != nil { orders.append(.monthDayYear) }
            return orders
        }
    }

    /// The readings of the date `p[s..<e]` (see ``CSVColumn/date``); `dotsAreDayFirst`: a date with dots
    /// (`01.05.2024`) is day first, the European convention, unless the file's order is month first.
    static func dateCandidates(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, dotsAreDayFirst: Bool)
        -> DateCandidates?
    {
        guard let parts = NumberParts(p, s, e, separators: (45, 47, 46), maximumWidth: 8) else { return nil }
        @inline(__always) func days(_ y: Int, _ m: Int, _ d: Int) -> Int64? {
            CivilTime.isValidDate(year: y, month: m, day: d)
                ? Int64(CivilTime.daysSince1970(year: y, month: m, day: d)) : nil
        }
        @inline(__always) func year(_ value: Int, width: Int) -> Int {
            width > 2 ? value : CivilTime.year(twoDigits: value)
        }
        let (a, b, c) = parts.values
        let (wa, wb, wc) = parts.widths
        // The candidate readings, by order (no array: this runs for every row of such a file).
        var ymd: Int64?, dmy: Int64?, mdy: Int64?
        switch (parts.count, wa) {
        case (1, 8):
            return days(a / 10_000, a / 100 % 100, a % 100).map { .fixed($0) }
        case (1, 6):
            let x = a / 10_000, y = a / 100 % 100, z = a % 100
            ymd = days(year(x, width: 2), y, z)
            dmy = days(year(z, width: 2), y, x)
            mdy = days(year(z, width: 2), x, y)
        case (3, 4):
            guard wb <= 2, wc <= 2 else { return nil }
            return days(a, b, c).map { .fixed($0) }
        case (3, 1), (3, 2):
            guard wb <= 2, wc == 4 || wc == 2 else { return nil }
            let y = year(c, width: wc)
            // Two digits each (24/05/01): the year may come first too.
            if wa == 2 && wc == 2 { ymd = days(year(a, width: 2), b, c) }
            if parts.separator == UInt8(ascii: ".") && dotsAreDayFirst {
                // Day first with dots (01.05.2024): the European convention, whatever the slashes say.
                return days(y, b, a).map { .fixed($0) }
            }
            dmy = days(y, b, a)
            mdy = days(y, a, b)
        default:
            return nil
        }
        return .orders(ymd: ymd, dmy: dmy, mdy: mdy)
    }

    /// Reads a date (see ``CSVColumn/date``): days since 1970-01-01. A value that allows only one order of
    /// those the file has not ruled out decides it for the rest of the file. The first value that allows several
    /// looks ahead through the rows already buffered (``lookAheadDateOrder(_:among:)``) at the values of the same
    /// `field`: when together they allow one order, it decides (a file of several days whose first are the 1st to
    /// the 12th of a month was refused at its first row).
    mutating func readDate(
        _ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, field: DateField? = nil
    ) -> DateReading {
        guard
            let candidates = CSVReader.dateCandidates(p, s, e, dotsAreDayFirst: dateOrder != .monthDayYear)
        else { return .invalid }
        guard case .orders(let ymd, let dmy, let mdy) = candidates else {
            if case .fixed(let days) = candidates { return .days(days) }
            return .invalid
        }
        if let order = dateOrder {
            let chosen: Int64? =
                switch order {
                case .yearMonthDay: ymd
                case .dayMonthYear: dmy
                case .monthDayYear: mdy
                }
            return chosen.map { .days($0) } ?? .invalid
        }
        let readings = [ymd, dmy, mdy].compactMap { $0 }
        guard let first = readings.first else { return .invalid }
        // One reading, or several giving the same day (05/05/2024): the value is unambiguous.
        if readings.allSatisfy({ $0 == first }) {
            if readings.count == 1 {
                dateOrder = ymd != nil ? .yearMonthDay : dmy != nil ? .dayMonthYear : .monthDayYear
            }
            return .days(first)
        }
        let orders = candidates.orders
        if let field, !hasLookedAheadForDateOrder {
            hasLookedAheadForDateOrder = true
            if let order = lookAheadDateOrder(field, among: orders) {
                dateOrder = order
                return readDate(p, s, e)
            }
        }
        return .ambiguous(orders)
    }

    /// Where a date is read from, for the look-ahead: a column, whole (a date column) or before a space or `T`
    /// (a date and a time of day in one field).
    struct DateField {
        var column: Int
        var withTimeOfDay: Bool
    }

    /// The one order of `orders` that every date of `field` in the rows buffered after the current one allows
    /// (values that are no date, quoted fields and rows too short are passed over), or `nil` when none or more
    /// than one does. Reads at most 100,000 rows, within the buffer: a bounded cost, once per file.
    func lookAheadDateOrder(_ field: DateField, among orders: [DateOrder]) -> DateOrder? {
        var possible = Set(orders)
        let whole = UnsafeRawBufferPointer(start: base, count: limit)
        guard pos < limit, let current = memchr(base + pos, 0x0A, limit - pos) else { return nil }
        var i = UnsafeRawPointer(base).distance(to: current) + 1
        var rows = 0
        while i < limit, rows < 100_000, possible.count > 1 {
            let lineEnd = memchr(base + i, 0x0A, limit - i).map { UnsafeRawPointer(base).distance(to: $0) } ?? limit
            defer {
                i = lineEnd + 1
                rows += 1
            }
            var s = i
            for _ in 0..<field.column where s <= lineEnd {
                s = SeparatorScan.next(delimiter, in: whole, from: s, to: lineEnd) + 1
            }
            guard s <= lineEnd else { continue }
            var e = SeparatorScan.next(delimiter, in: whole, from: s, to: lineEnd)
            while s < e, base[s] == 0x20 || base[s] == 0x09 { s += 1 }
            while e > s, base[e - 1] == 0x20 || base[e - 1] == 0x09 || base[e - 1] == 0x0D { e -= 1 }
            guard s < e, base[s] != UInt8(ascii: "\"") else { continue }
            if field.withTimeOfDay { e = CSVReader.dateEnd(base, s, e) }
            // (A value every order reads as one day, 05/05/2024, says nothing; nor does a fixed one.)
            guard let allowed = CSVReader.dateCandidates(base, s, e, dotsAreDayFirst: true)?.orders, !allowed.isEmpty
            else { continue }
            possible.formIntersection(allowed)
        }
        return possible.count == 1 ? possible.first : nil
    }

    /// A date and a time of day in one field, separated by a space or a `T` (`01.05.2024 12:00:00`,
    /// `240501 120000`), which ISO 8601 does not cover: the date's reading and the time's milliseconds since
    /// midnight; `nil` when the field is not of that shape.
    mutating func dateAndTime(
        _ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, column: Int? = nil
    ) -> (date: DateReading, millisecondsOfDay: Int64, hasZone: Bool)? {
        let split = CSVReader.dateEnd(p, s, e)
        guard split > s, split < e - 1 else { return nil }
        var timeStart = split + 1
        while timeStart < e, p[timeStart] == 0x20 { timeStart += 1 }
        var hasZone = false
        guard let ms = CSVReader.millisecondsOfDay(p, timeStart, e, hasZone: &hasZone) else { return nil }
        return (readDate(p, s, split, field: column.map { DateField(column: $0, withTimeOfDay: true) }), ms, hasZone)
    }

    /// Where the date of a date and a time of day in one field (`p[s..<e]`) ends: at the first space or `T`, else `e`.
    static func dateEnd(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Int {
        var split = s
        while split < e, p[split] != 0x20, p[split] != UInt8(ascii: "T") { split += 1 }
        return split
    }

    /// `p[s..<e]` as a number (``NumberParsing/double(_:_:_:)``), else with a decimal comma (``decimalComma(_:_:_:)``).
    func numberOrDecimalComma(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Double? {
        NumberParsing.double(p, s, e) ?? decimalComma(p, s, e)
    }

    /// A number written with a decimal comma (`52,5` in a `;`-separated file), or `nil`. Not for a
    /// comma-separated file, where a comma ends the field.
    func decimalComma(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Double? {
        guard delimiter != UInt8(ascii: ","), e - s <= 64 else { return nil }
        var comma = -1
        for k in s..<e {
            if p[k] == UInt8(ascii: ",") {
                guard comma < 0 else { return nil }
                comma = k
            } else if p[k] == UInt8(ascii: ".") {
                return nil
            }
        }
        guard comma >= 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            for k in s..<e { buffer[k - s] = k == comma ? UInt8(ascii: ".") : p[k] }
            return NumberParsing.double(UnsafeRawBufferPointer(buffer), 0, e - s)
        }
    }

    /// `true`/`false`, `1`/`0`, `yes`/`no`, `t`/`f`, `y`/`n` in any case; `nil` otherwise.
    static func bool(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Bool? {
        var word: UInt64 = 0
        guard e - s <= 5 else { return nil }
        for k in s..<e { word = word << 8 | UInt64(p[k] | (p[k] >= 65 && p[k] <= 90 ? 0x20 : 0)) }
        switch word {
        case 0x74_72_75_65, 0x31, 0x79_65_73, 0x74, 0x79: return true  // true, 1, yes, t, y
        case 0x66_61_6C_73_65, 0x30, 0x6E_6F, 0x66, 0x6E: return false  // false, 0, no, f, n
        default: return nil
        }
    }

    /// Maps an activity label to a kind (see the type's documentation).
    static func activity(_ label: String) -> ActivityKind {
        let key = label.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" }
        switch key {
        case "still", "stationary": return .still
        case "walking", "walk": return .walking
        case "running", "run": return .running
        case "onfoot": return .onFoot
        case "onbicycle", "cycling", "bicycle": return .onBicycle
        case "invehicle", "automotive", "vehicle", "driving": return .inVehicle
        default: return .unknown
        }
    }
}

/// The field a column feeds, as a byte-sized tag for the hot loop.
enum CSVRole: UInt8 {
    case ignore, latitude, longitude, time, horizontalAccuracy, altitude, verticalAccuracy, speed, speedAccuracy,
        course, courseAccuracy, hdop, provider, satellites, mocked, activity, activityConfidence, messageType, date,
        latitudeHemisphere, longitudeHemisphere, validity, device, segment

    /// A measurement a fix can do without: unreadable in a lenient read, it is read as missing and the fix kept
    /// (``ReadReport/readAsMissing(_:lenient:)``). Position, time, date, validity and segment are not.
    var isOptionalMeasurement: Bool {
        switch self {
        case .horizontalAccuracy, .altitude, .verticalAccuracy, .speed, .speedAccuracy, .course, .courseAccuracy,
            .hdop, .satellites, .mocked, .activityConfidence:
            true
        default: false
        }
    }

    init(_ column: CSVColumn?) {
        switch column {
        case nil: self = .ignore
        case .latitude: self = .latitude
        case .longitude: self = .longitude
        case .time: self = .time
        case .horizontalAccuracy: self = .horizontalAccuracy
        case .altitude: self = .altitude
        case .verticalAccuracy: self = .verticalAccuracy
        case .speed: self = .speed
        case .speedAccuracy: self = .speedAccuracy
        case .course: self = .course
        case .courseAccuracy: self = .courseAccuracy
        case .hdop: self = .hdop
        case .provider: self = .provider
        case .satellites: self = .satellites
        case .mocked: self = .mocked
        case .activity: self = .activity
        case .activityConfidence: self = .activityConfidence
        case .messageType: self = .messageType
        case .date: self = .date
        case .latitudeHemisphere: self = .latitudeHemisphere
        case .longitudeHemisphere: self = .longitudeHemisphere
        case .fixValidity: self = .validity
        case .device: self = .device
        case .segment: self = .segment
        }
    }
}

/// The line and the index of its first byte where the parser is, inside a row (quoted fields may span lines).
struct CSVRowPlace {
    var line: Int
    var lineStart: Int
}

/// The values of one row, before they become a `Fix`: plain storage plus a presence bit per role, so
/// starting a row costs one store.
struct CSVRowValues {
    /// Bit `role.rawValue` is set when the role's value was read in this row.
    var present: UInt32 = 0
    /// Numeric values indexed by `CSVRole.rawValue`.
    var numbers:
        (
            Double, Double, Double, Double, Double, Double, Double, Double,
            Double, Double, Double, Double, Double, Double, Double, Double
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var time: Int64 = 0
    /// Whether ``time`` was written without a zone (a local time to ``ReadOptions/localTimeZone``): set with every
    /// time stored, read only with that option.
    var timeIsLocal = false
    /// The date column's day (days since 1970-01-01), for a time of day.
    var day: Int64 = 0
    /// Where the date field starts (buffer index, line, index of the line's first byte), and the error of a date
    /// read while the time column was undecided (see ``CSVReader/addDate()``).
    var datePlace = (0, 0, 0)
    var deferredDateError: ReadError?
    /// The hemisphere columns' signs (1 or −1), when marked.
    var latitudeSign = 1.0
    var longitudeSign = 1.0
    var provider: Provider = .unknown
    var satellites = 0
    var mocked = false
    /// The `valid` column's value, when marked.
    var valid = true
    /// The device's index in the reader's list of devices, when marked.
    var deviceIndex = 0
    /// The segment column's value, when marked.
    var segment = 0
    var activity: ActivityKind = .unknown
    var activityConfidence = 0
    /// Where the latitude field starts (buffer index, line, index of the line's first byte), for errors.
    var latitudePlace = (0, 0, 0)
    /// Where the longitude field starts, for errors.
    var longitudePlace = (0, 0, 0)

    /// True when the role's value was read in this row.
    @inline(__always)
    func has(_ role: CSVRole) -> Bool { present & (1 << UInt32(role.rawValue)) != 0 }

    /// Marks the role's value as read.
    @inline(__always)
    mutating func mark(_ role: CSVRole) { present |= 1 << UInt32(role.rawValue) }

    /// Records the sign a hemisphere gives the latitude or the longitude.
    @inline(__always)
    mutating func setHemisphere(_ sign: Double, latitude: Bool) {
        if latitude {
            latitudeSign = sign
            mark(.latitudeHemisphere)
        } else {
            longitudeSign = sign
            mark(.longitudeHemisphere)
        }
    }

    /// Stores a numeric value for a numeric role.
    @inline(__always)
    mutating func store(_ value: Double, _ role: CSVRole) {
        withUnsafeMutableBytes(of: &numbers) {
            $0.storeBytes(of: value, toByteOffset: Int(role.rawValue) &* 8, as: Double.self)
        }
        mark(role)
    }

    /// Stores the time (Unix milliseconds).
    @inline(__always)
    mutating func storeTime(_ milliseconds: Int64, isLocal: Bool = false) {
        time = milliseconds
        timeIsLocal = isLocal
        mark(.time)
    }

    /// The numeric value of a role (whether read or not).
    @inline(__always)
    func number(_ role: CSVRole) -> Double {
        withUnsafeBytes(of: numbers) { $0.load(fromByteOffset: Int(role.rawValue) &* 8, as: Double.self) }
    }

    /// The numeric value of a role when read in this row.
    @inline(__always)
    func optionalNumber(_ role: CSVRole) -> Double? { has(role) ? number(role) : nil }
}

/// The last short token seen in a column and what it mapped to, so repeated values (`GPS`, `GT`,
/// `IN_VEHICLE`) cost a compare instead of a `String`.
struct CSVTokenCache<Value> {
    private var bytes: (UInt64, UInt64) = (0, 0)
    private var count = -1
    private var value: Value?

    /// The cached value when `p[s..<e]` equals the cached token.
    @inline(__always)
    func lookup(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> Value? {
        guard e - s == count else { return nil }
        return CSVTokenCache.pack(p, s, e) == bytes ? value : nil
    }

    /// Caches `value` for `p[s..<e]` when the token is at most 16 bytes.
    mutating func store(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int, _ value: Value) {
        guard e - s <= 16 else { return }
        bytes = CSVTokenCache.pack(p, s, e)
        count = e - s
        self.value = value
    }

    @inline(__always)
    private static func pack(_ p: UnsafePointer<UInt8>, _ s: Int, _ e: Int) -> (UInt64, UInt64) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for k in s..<e {
            let offset = k - s
            if offset < 8 { low |= UInt64(p[k]) << (8 * offset) } else { high |= UInt64(p[k]) << (8 * (offset - 8)) }
        }
        return (low, high)
    }
}

/// Memory the reader owns beyond the stream: the column table, the unescaped text of a quoted field, and
/// the last line of an input without a final line end. A class only to free it in `deinit`.
final class CSVReaderBuffers {
    private(set) var roles: UnsafeMutablePointer<CSVRole>
    private var roleCapacity = 1
    private var scratchBuffer: UnsafeMutableRawBufferPointer
    private(set) var tail: UnsafeMutableRawBufferPointer

    init() {
        roles = .allocate(capacity: 1)
        roles.initialize(to: .ignore)
        scratchBuffer = .allocate(byteCount: 256, alignment: 8)
        tail = .allocate(byteCount: 64, alignment: 8)
        tail.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        roles.deallocate()
        scratchBuffer.deallocate()
        tail.deallocate()
    }

    /// The column table, with room for `count` columns (all ``CSVRole/ignore``).
    func roles(count: Int) -> UnsafeMutablePointer<CSVRole> {
        if count > roleCapacity {
            roles.deallocate()
            roles = .allocate(capacity: count)
            roleCapacity = count
        }
        roles.initialize(repeating: .ignore, count: max(count, 1))
        return roles
    }

    /// The scratch buffer's start.
    var scratchPointer: UnsafePointer<UInt8> {
        UnsafePointer(scratchBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// The scratch buffer, grown to hold at least `capacity` bytes.
    func scratch(capacity: Int) -> UnsafeMutableRawBufferPointer {
        if scratchBuffer.count < capacity {
            scratchBuffer.deallocate()
            scratchBuffer = .allocate(byteCount: max(capacity, scratchBuffer.count * 2), alignment: 8)
        }
        return scratchBuffer
    }

    /// The tail buffer, zeroed, with room for `capacity` bytes.
    func tail(capacity: Int) -> UnsafeMutableRawBufferPointer {
        if tail.count < capacity {
            tail.deallocate()
            tail = .allocate(byteCount: capacity, alignment: 8)
        }
        tail.initializeMemory(as: UInt8.self, repeating: 0)
        return tail
    }
}
