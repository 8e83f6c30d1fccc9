import TrueTrackCore

/// Reads the `Fix` rows of an Android GnssLogger log (`gnss_log_*.txt`), streaming.
///
/// A GnssLogger file mixes many record types, one per line: `Fix` (a `Location` from a provider), `Raw`
/// (GNSS measurements), `Status`, `UncalAccel`, `OrientationDeg`, `Nav`, `Agc`, … and `#` header lines that
/// describe each record's columns. Only `Fix` rows become fixes; every other line is skipped and counted
/// (``SkipReason/otherRecord``, ``SkipReason/comment`` for `#` lines, ``SkipReason/blank``).
///
/// ## Layout
/// The columns of a `Fix` row are taken from the `# Fix,…` header line, by name (see ``GnssLoggerLayout``), so
/// v1.4, v2.x and v3.x logs and GSDC 2022/2023 `ground_truth.csv` files (`MessageType,Provider,…` header, no
/// `#`) all read. A `Fix` row met before any header is read with the v1.4 layout when it has exactly 8 fields
/// (the only layout with 8) and with the v3.x layout otherwise (v2.x rows are a prefix of it).
///
/// ## Values
/// - Units as GnssLogger writes them: degrees, metres, metres per second, degrees clockwise from true north,
///   `UnixTimeMillis` / `(UTC)TimeInMs` = UTC milliseconds since 1970.
/// - An empty field is an absent measurement (bearing is empty when the phone is still; speed is empty on
///   `NLP` rows); missing trailing columns are absent too. An empty latitude or longitude skips the row
///   (``SkipReason/missingPosition``), an empty time skips it (``SkipReason/missingTime``).
/// - `Provider` (`gps`, `GPS`, `FLP`, `fused`, `NLP`, `network`, `GT`, …) maps through ``Provider/init(name:)``;
///   rows whose provider is not in ``ReadOptions/providers`` are skipped (``SkipReason/providerFiltered``)
///   before their other fields are examined.
/// - `MockLocation` is `0`/`1` (or `true`/`false`); `NumberOfUsedSignals` becomes ``Fix/satellitesUsed``.
///   `elapsedRealtimeNanos`, `VerticalSpeedAccuracyMps` and `SolutionType` are not part of a ``Fix`` and are
///   ignored.
/// - A field that is not a number throws ``ReadError/malformedField(_:field:expected:found:)`` naming the file,
///   line, column and the field (`latitude`, `longitude`, `altitude`, `speed`, `accuracy`, `bearing`, `time`,
///   `speed_accuracy`, `bearing_accuracy`, `vertical_accuracy`, `mock_location`, `used_signals`); with
///   ``ReadOptions/lenient`` the row is skipped and the error kept in ``report``.
public struct GnssLoggerReader: FixReader, ByteStreamReader {
    /// What the reader has seen so far.
    public var report: ReadReport {
        var report = counts
        report.bytesRead = stream.bytesConsumed
        return report
    }

    /// How many records the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { counts.recordsRead }
    /// The layout in force: from the last `# Fix,…` header read, or `nil` before any.
    public private(set) var layout: GnssLoggerLayout? {
        didSet {
            roles = layout?.roles ?? []
            usefulColumns = layout?.usefulColumns ?? 0
        }
    }
    /// The logger version from the `# Version: …` header line (`v3.0.6.4`, `1.4.0.0`), once seen.
    public private(set) var loggerVersion: String?

    private let stream: ByteStream
    private let options: ReadOptions
    /// The report without ``ReadReport/bytesRead``, which ``report`` reads from the stream when asked.
    private var counts: ReadReport
    /// ``GnssLoggerLayout/roles`` of ``layout`` (empty before any header), kept apart for the hot loop.
    private var roles: [GnssLoggerLayout.Role] = []
    /// ``GnssLoggerLayout/usefulColumns`` of ``layout``.
    private var usefulColumns = 0
    /// Bit ``GnssLoggerReader/providerBit(_:)`` set for each provider kept.
    private let keptProviders: UInt8
    private var providerNames = ProviderNameCache()

    /// Creates a reader over a byte stream.
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        self.options = options
        counts = ReadReport(source: stream.name)
        if let providers = options.providers {
            keptProviders = providers.reduce(0) { $0 | GnssLoggerReader.providerBit($1) }
        } else {
            keptProviders = 0xFF
        }
    }

    /// Returns the next `Fix` row as a fix, or `nil` at the end of the input.
    /// - Throws: ``ReadError`` at the first malformed `Fix` row or header (unless reading leniently).
    public mutating func next() throws(ReadError) -> Fix? {
        while let line = try stream.nextLine() {
            counts.recordsRead += 1
            let p = line.bytes
            let start = line.start
            let end = line.end
            guard start < end else { counts.skip(.blank); continue }
            let first = p[start]
            if first == UInt8(ascii: "F"), end - start >= 3, p[start + 1] == UInt8(ascii: "i"),
                p[start + 2] == UInt8(ascii: "x"), end - start == 3 || p[start + 3] == UInt8(ascii: ",")
            {
                do {
                    counts.dropUnreadableFields()
                    if let fix = try parseFixRow(line) {
                        counts.fixesProduced += 1
                        counts.keepUnreadableFields()
                        return fix
                    }
                } catch {
                    try counts.reject(error, lenient: options.lenient)
                }
            } else if first == UInt8(ascii: "#") {
                counts.skip(.comment)
                do { try readHeaderComment(line) } catch { try counts.reject(error, lenient: options.lenient) }
            } else if GnssLoggerReader.hasPrefix(p, start, end, "MessageType,") {
                counts.skip(.header)
                do { try readHeader(line, from: start) } catch { try counts.reject(error, lenient: options.lenient) }
            } else if SeparatorScan.isBlank(p, start, end) {
                counts.skip(.blank)
            } else {
                counts.skip(.otherRecord)
            }
        }
        return nil
    }

    // MARK: - Headers

    /// Reads a `#` line: a `# Fix,…` column header or the `# Version: …` line; other comments are ignored.
    private mutating func readHeaderComment(_ line: ByteStream.Line) throws(ReadError) {
        let p = line.bytes
        var i = line.start + 1
        while i < line.end, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        if GnssLoggerReader.hasPrefix(p, i, line.end, "Fix,") {
            try readHeader(line, from: i)
        } else if GnssLoggerReader.hasPrefix(p, i, line.end, "Version:") {
            var k = i + 8
            while k < line.end, p[k] == 0x20 { k += 1 }
            var e = k
            while e < line.end, p[e] != 0x20, p[e] != UInt8(ascii: ",") { e += 1 }
            if e > k { loggerVersion = String(decoding: UnsafeRawBufferPointer(rebasing: p[k..<e]), as: UTF8.self) }
        }
    }

    /// Replaces the layout with the one named by the header starting at `from` (`Fix,…` or `MessageType,…`).
    private mutating func readHeader(_ line: ByteStream.Line, from: Int) throws(ReadError) {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: line.bytes[from..<line.end]), as: UTF8.self)
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let layout = GnssLoggerLayout(columnNames: names) else {
            throw .malformedRecord(
                line.location(file: stream.name, at: from),
                expected: "a Fix header naming latitude, longitude and time columns",
                found: ReadError.quote(line.bytes, from, line.end))
        }
        self.layout = layout
    }

    // MARK: - Fix rows

    /// Byte ranges of the fields of one row, by role; `start == -1` when the row has no such column.
    private struct FieldRanges {
        var providerStart = -1, providerEnd = -1
        var latitudeStart = -1, latitudeEnd = -1
        var longitudeStart = -1, longitudeEnd = -1
        var altitudeStart = -1, altitudeEnd = -1
        var speedStart = -1, speedEnd = -1
        var accuracyStart = -1, accuracyEnd = -1
        var bearingStart = -1, bearingEnd = -1
        var timeStart = -1, timeEnd = -1
        var speedAccuracyStart = -1, speedAccuracyEnd = -1
        var bearingAccuracyStart = -1, bearingAccuracyEnd = -1
        var verticalAccuracyStart = -1, verticalAccuracyEnd = -1
        var mockStart = -1, mockEnd = -1
        var signalsStart = -1, signalsEnd = -1

        @inline(__always)
        mutating func set(_ role: GnssLoggerLayout.Role, _ s: Int, _ e: Int) {
            switch role {
            case .ignored: break
            case .provider: providerStart = s; providerEnd = e
            case .latitude: latitudeStart = s; latitudeEnd = e
            case .longitude: longitudeStart = s; longitudeEnd = e
            case .altitude: altitudeStart = s; altitudeEnd = e
            case .speed: speedStart = s; speedEnd = e
            case .accuracy: accuracyStart = s; accuracyEnd = e
            case .bearing: bearingStart = s; bearingEnd = e
            case .time: timeStart = s; timeEnd = e
            case .speedAccuracy: speedAccuracyStart = s; speedAccuracyEnd = e
            case .bearingAccuracy: bearingAccuracyStart = s; bearingAccuracyEnd = e
            case .verticalAccuracy: verticalAccuracyStart = s; verticalAccuracyEnd = e
            case .mockLocation: mockStart = s; mockEnd = e
            case .usedSignals: signalsStart = s; signalsEnd = e
            }
        }
    }

    /// Parses one `Fix` row; `nil` when it is skipped (filtered provider, no position, no time).
    private mutating func parseFixRow(_ line: ByteStream.Line) throws(ReadError) -> Fix? {
        let p = line.bytes
        let end = line.end
        var roles = self.roles
        var useful = usefulColumns
        if useful == 0 {
            let fallback = GnssLoggerReader.fallbackLayout(p, line.start, end)
            roles = fallback.roles
            useful = fallback.usefulColumns
        }

        // Pass 1: locate the fields (no parsing yet, so a filtered row costs only this scan).
        var f = FieldRanges()
        var column = 0
        var fieldStart = line.start
        var fieldCount = 0
        while true {
            let j = SeparatorScan.next(UInt8(ascii: ","), in: p, from: fieldStart, to: end)
            if column < useful { f.set(roles[column], fieldStart, j) }
            column &+= 1
            fieldCount = column
            if j >= end || column >= useful { break }
            fieldStart = j &+ 1
        }

        // Provider first: a filtered row is skipped whatever else it holds.
        let provider: Provider
        if f.providerStart >= 0 {
            provider = providerNames.provider(p, f.providerStart, f.providerEnd)
        } else {
            provider = .unknown
        }
        if keptProviders != 0xFF, keptProviders & GnssLoggerReader.providerBit(provider) == 0 {
            counts.skip(.providerFiltered)
            return nil
        }

        guard f.latitudeStart >= 0, f.longitudeStart >= 0, f.timeStart >= 0 else {
            throw .malformedRecord(
                line.location(file: stream.name, at: end),
                expected: "a Fix row with latitude, longitude and time (\(useful) fields)",
                found: "\(fieldCount) fields")
        }
        if SeparatorScan.isBlank(p, f.latitudeStart, f.latitudeEnd)
            || SeparatorScan.isBlank(p, f.longitudeStart, f.longitudeEnd)
        {
            counts.skip(.missingPosition, at: line.location(file: stream.name, at: f.latitudeStart))
            return nil
        }
        if SeparatorScan.isBlank(p, f.timeStart, f.timeEnd) {
            counts.skip(.missingTime, at: line.location(file: stream.name, at: f.timeStart))
            return nil
        }
        guard let latitude = NumberParsing.double(p, f.latitudeStart, f.latitudeEnd) else {
            throw line.malformedField(
                in: stream.name, f.latitudeStart, f.latitudeEnd, field: "latitude", expected: "a number in degrees")
        }
        guard let longitude = NumberParsing.double(p, f.longitudeStart, f.longitudeEnd) else {
            throw line.malformedField(
                in: stream.name, f.longitudeStart, f.longitudeEnd, field: "longitude", expected: "a number in degrees")
        }
        let timestamp = try time(line, f.timeStart, f.timeEnd)
        let altitude = try measurement(line, f.altitudeStart, f.altitudeEnd, "altitude", "a number in metres")
        let speed = try measurement(line, f.speedStart, f.speedEnd, "speed", "a number in metres per second")
        let accuracy = try number(line, f.accuracyStart, f.accuracyEnd, "accuracy", "a number in metres")
        let bearing = try measurement(line, f.bearingStart, f.bearingEnd, "bearing", "a number in degrees")
        let speedAccuracy = try number(
            line, f.speedAccuracyStart, f.speedAccuracyEnd, "speed_accuracy",
            "a number in metres per second")
        let bearingAccuracy = try number(
            line, f.bearingAccuracyStart, f.bearingAccuracyEnd, "bearing_accuracy",
            "a number in degrees")
        let verticalAccuracy = try number(
            line, f.verticalAccuracyStart, f.verticalAccuracyEnd, "vertical_accuracy",
            "a number in metres")
        let mocked = try mockLocation(line, f.mockStart, f.mockEnd)
        var signals: Int? = nil
        if f.signalsStart >= 0, !SeparatorScan.isBlank(p, f.signalsStart, f.signalsEnd) {
            if let value = NumberParsing.int(p, f.signalsStart, f.signalsEnd) {
                signals = Int(truncatingIfNeeded: value)
            } else {
                try counts.readAsMissing(
                    line.malformedField(
                        in: stream.name, f.signalsStart, f.signalsEnd, field: "used_signals", expected: "a whole number"
                    ),
                    lenient: options.lenient)
            }
        }
        do {
            return try Fix(
                timestamp: timestamp, latitude: latitude, longitude: options.longitude(longitude),
                horizontalAccuracyMetres: accuracy, altitudeMetres: altitude,
                verticalAccuracyMetres: verticalAccuracy, speedMetresPerSecond: speed,
                speedAccuracyMetresPerSecond: speedAccuracy, courseDegrees: bearing,
                courseAccuracyDegrees: bearingAccuracy, provider: provider, satellitesUsed: signals,
                isMocked: mocked)
        } catch {
            let at = error.field == "latitude" ? f.latitudeStart : f.longitudeStart
            throw .invalidFix(line.location(file: stream.name, at: at), error)
        }
    }

    /// An optional number: `nil` when the column is missing or empty; throws when it is not a number, unless reading
    /// leniently: then it is read as missing (``ReadReport/readAsMissing(_:lenient:)``).
    @inline(__always)
    private mutating func number(
        _ line: ByteStream.Line, _ s: Int, _ e: Int, _ field: String,
        _ expected: String
    ) throws(ReadError) -> Double? {
        guard s >= 0, s < e else { return nil }
        if let value = NumberParsing.double(line.bytes, s, e) { return value }
        if SeparatorScan.isBlank(line.bytes, s, e) { return nil }
        try counts.readAsMissing(
            line.malformedField(in: stream.name, s, e, field: field, expected: expected), lenient: options.lenient)
        return nil
    }

    /// An altitude, speed or bearing: ``number(_:_:_:_:_:)``, and `nil` for one that is no finite number (`NaN`,
    /// `Infinity`, `1e400`), read as missing and counted in any mode
    /// (``ReadReport/finiteOrMissing(_:_:in:_:_:field:)``; it was dropped without a word).
    @inline(__always)
    private mutating func measurement(
        _ line: ByteStream.Line, _ s: Int, _ e: Int, _ field: String, _ expected: String
    ) throws(ReadError) -> Double? {
        counts.finiteOrMissing(try number(line, s, e, field, expected), line, in: stream.name, s, e, field: field)
    }

    /// The fix time: UTC milliseconds since 1970, an integer (a decimal or exponent form is rounded).
    @inline(__always)
    private func time(_ line: ByteStream.Line, _ s: Int, _ e: Int) throws(ReadError) -> Timestamp {
        let p = line.bytes
        var ms: Int64
        if let value = NumberParsing.int(p, s, e) {
            ms = value
        } else if let value = NumberParsing.double(p, s, e), value.isFinite, abs(value) < 1e15 {
            ms = Int64(value.rounded())
        } else {
            throw line.malformedField(in: stream.name, s, e, field: "time", expected: "UTC milliseconds since 1970")
        }
        guard Timestamp.representableMilliseconds.contains(ms) else {
            throw line.malformedField(
                in: stream.name, s, e, field: "time", expected: "UTC milliseconds since 1970 within years 0001-9999")
        }
        return Timestamp(millisecondsSince1970: ms)
    }

    /// `MockLocation`: `0`/`1`/`true`/`false`, empty → `nil`.
    private mutating func mockLocation(_ line: ByteStream.Line, _ s: Int, _ e: Int) throws(ReadError) -> Bool? {
        guard s >= 0, !SeparatorScan.isBlank(line.bytes, s, e) else { return nil }
        var i = s
        var k = e
        let p = line.bytes
        while i < k, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        while k > i, p[k - 1] == 0x20 || p[k - 1] == 0x09 { k -= 1 }
        if k - i == 1, p[i] == UInt8(ascii: "0") { return false }
        if k - i == 1, p[i] == UInt8(ascii: "1") { return true }
        if GnssLoggerReader.equalsIgnoringCase(p, i, k, "true") { return true }
        if GnssLoggerReader.equalsIgnoringCase(p, i, k, "false") { return false }
        try counts.readAsMissing(
            line.malformedField(in: stream.name, s, e, field: "mock_location", expected: "0, 1, true or false"),
            lenient: options.lenient)
        return nil
    }

    // MARK: - Helpers

    /// The layout for a row met before any header: v1.4 when it has exactly 8 fields, else v3.x.
    private static func fallbackLayout(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> GnssLoggerLayout {
        var commas = 0
        for k in s..<e where p[k] == 0x2C { commas += 1 }
        return commas == 7 ? .version1 : .version3
    }

    /// One bit per provider, for the filter.
    @inline(__always)
    static func providerBit(_ provider: Provider) -> UInt8 {
        switch provider {
        case .unknown: 1
        case .gps: 2
        case .fused: 4
        case .network: 8
        case .passive: 16
        case .groundTruth: 32
        case .other: 64
        }
    }

    /// True when `p[s..<e]` starts with the ASCII `prefix`.
    static func hasPrefix(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int, _ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard e - s >= n else { return false }
        let bytes = prefix.utf8Start
        for k in 0..<n where p[s + k] != bytes[k] { return false }
        return true
    }

    /// True when `p[s..<e]` equals the lowercase ASCII `word`, ignoring case.
    static func equalsIgnoringCase(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard e - s == n else { return false }
        let bytes = word.utf8Start
        for k in 0..<n where p[s + k] | 0x20 != bytes[k] { return false }
        return true
    }
}

/// Maps provider names to providers without building a `String` per row: the last few names seen (up to 7
/// bytes each, which covers `gps`, `FLP`, `NLP`, `fused`, `network`, `GT`) are remembered by their bytes.
private struct ProviderNameCache {
    private var keys: [UInt64] = []
    private var providers: [Provider] = []

    /// The provider named by `p[s..<e]` (surrounding spaces ignored), through ``Provider/init(name:)``.
    @inline(__always)
    mutating func provider(_ p: UnsafeRawBufferPointer, _ s: Int, _ e: Int) -> Provider {
        var i = s
        var k = e
        while i < k, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
        while k > i, p[k - 1] == 0x20 || p[k - 1] == 0x09 { k -= 1 }
        let length = k - i
        guard length <= 7 else {
            return Provider(name: String(decoding: UnsafeRawBufferPointer(rebasing: p[i..<k]), as: UTF8.self))
        }
        var key = UInt64(length) << 56
        var shift: UInt64 = 0
        for index in i..<k {
            key |= UInt64(p[index]) << shift
            shift += 8
        }
        for index in keys.indices where keys[index] == key { return providers[index] }
        let provider = Provider(name: String(decoding: UnsafeRawBufferPointer(rebasing: p[i..<k]), as: UTF8.self))
        if keys.count < 16 {
            keys.append(key)
            providers.append(provider)
        }
        return provider
    }
}
