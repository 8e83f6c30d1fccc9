import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A streaming reader of NMEA 0183 logs: one ``Fix`` per epoch (the sentences that share a UTC time of day).
///
/// ## What is read
/// - Sentences `RMC`, `GGA`, `GST`, `GSA`, `VTG` and `ZDA` from the talkers `GP` (GPS), `GN` (multi-GNSS), `GL`
///   (GLONASS), `GA` (Galileo), `BD`/`GB` (BeiDou), `QZ`/`GQ` (QZSS) and `GI` (NavIC); `ZDA` from any
///   talker (its UTC date is the same whoever writes it: `IIZDA`, `INZDA`). Every other sentence
///   (GSV, GLL, GNS, DTM, TXT, proprietary `$P…`, AIS `!…`) is skipped as ``SkipReason/otherRecord``.
/// - The checksum `*hh` is verified (hex digits of either case); a mismatch skips the sentence
///   (``SkipReason/checksumMismatch``), in strict mode too: a corrupted sentence is the normal noise of a
///   serial line, not a damaged file. NovAtel SPAN truth exports need ``ChecksumPolicy/acceptMismatches``.
/// - A sentence without `*hh` is accepted when it is complete: its line ends with a newline and it has every
///   field of its type (RMC 11, GGA 14, GST 8, VTG 8, GSA 17, ZDA 6). NMEA lets talkers omit the checksum and
///   hand-written or old logs do, and a complete sentence is as good as its fields' own validation (which
///   still applies). A checksum-less sentence that lacks fields, or the unterminated last line of an input
///   without `*hh`, is a cut-off write (the gpsd `ublox-8` log ends with `$GNRMC,…,W,0.`): it is recorded
///   as ``ReadError/truncated(_:expected:)`` in ``ReadReport/errors`` (counted ``SkipReason/malformed``)
///   and skipped, even in strict mode: it is the serial-line twin of a checksum mismatch, and everything
///   around it is intact. When the log goes on after it (a line that is not blank follows), it is recorded as
///   ``ReadError/malformedRecord(_:expected:found:)``, cut short, and the next line, when it is text without a
///   `$`, is the sentence's rest (a lost line break splits a sentence in two): skipped and recorded the same way,
///   even in strict mode. So is such a line after one that ends inside its checksum (`*6`).
/// - RMC/GGA/GST with an empty time field are skipped: as ``SkipReason/noFix`` when they say so or carry no
///   position (receivers without a fix write all-empty sentences), else as ``SkipReason/missingTime``.
///
/// ## Epochs
/// Sentences with the same UTC time of day form one epoch and one fix; the epoch ends when a sentence with
/// another time arrives (or the input ends), so a fix is returned one sentence late.
/// - Position from GGA when it has one (GGA carries more digits than RMC: SPAN truth writes RMC to 0.001′,
///   about 1.9 m), else from RMC. Altitude (above mean sea level) and satellites used from GGA.
/// - Date from RMC, or from ZDA (`hhmmss.ss,dd,mm,yyyy,zh,zm`; receivers set up for surveying often log GGA + ZDA and
///   no RMC), which dates its epoch exactly as an RMC does (when both are in one epoch, the later sentence's date is
///   kept). ZDA's local zone fields `zh,zm` describe a local time the receiver was told; its time and date are UTC
///   whatever they say, so they are not read. Epochs closed before any date is known (a log that opens with GGA before
///   its first RMC) are held, up to ``maximumUndatedEpochs``, and dated backwards from the first date that comes (each
///   at its time of day nearest the epoch after it); with no date at all they are skipped (``SkipReason/missingTime``).
///   Once known, a GGA-only epoch gets the date that puts it nearest the previous dated epoch, which carries the day
///   over at midnight (`235959` → `000000` is one second later, on the next day); one whose nearest instant lies more
///   than an hour before that epoch (``undatedBackwardsMilliseconds``: a second log joined after the first, opening
///   with GGA) is held with the epochs after it and dated backwards from the next date, as at a log's start. A ZDA at a
///   time of day no RMC, GGA or GST shares forms an epoch of its own that gives no fix (an ``SkipReason/otherRecord``)
///   but dates the epochs after it; a ZDA with empty date fields (receivers write them so until they know the date) or
///   an empty time gives nothing (an ``SkipReason/otherRecord``). Malformed ZDA day, month, year or time fields are
///   malformed fields like RMC's date (see below).
/// - Speed over ground (knots → metres per second) and course from RMC, else from VTG.
/// - Horizontal accuracy from GST of the same epoch as `hypot(σlat, σlon)`, else from HDOP (GGA, else GSA)
///   through ``ReadOptions/hdop``; vertical accuracy from GST σalt.
/// - RMC status `V`, RMC mode `N` or GGA quality 0 make the epoch a ``SkipReason/noFix``. GGA quality 8
///   (simulator) marks the fix as mocked; other qualities (1 autonomous … 7 manual, which Google's
///   GnssAnalysis writes for phone fixes) are accepted alike.
/// - Provider is ``Provider/gps``; a caller reading reference truth (NovAtel SPAN) relabels it.
/// - VTG and GSA carry no time: they join the open epoch, except in GnssLogger files where their wrapper
///   time is more than 0.5 s from the open epoch's (phones log GSA/VTG *before* RMC): they then wait for the
///   next epoch.
///
/// ## Wrappers and noise
/// - GnssLogger lines `NMEA,$GNGGA,…*hh,<unix millis>`: the prefix and suffix are stripped. The Unix
///   milliseconds (the phone's clock when the sentence was logged) are used only as a fallback: to date an
///   epoch when no RMC or ZDA date has been seen yet, and to attach VTG/GSA to the right epoch (see above).
/// - `#` lines are comments (``SkipReason/comment``), up to a sentence glued on after their text whose `*hh` checksum
///   verifies (`# note$GPGGA,…*47`: a logger that dropped the line end after its comment), which is read as the
///   sentences glued on after another are; a `$` whose sentence has no verified checksum is the comment's text
///   (`# logs $GPRMC sentences`), and so is a glued `!` sentence (an AIS one, another record anyway). Blank lines are
///   ``SkipReason/blank``. gpsd's JSON reports, a
///   line holding one object (`{"class":"TPV",…}`), between the sentences of a `gpspipe -w` or `-r` log (which
///   opens with its `VERSION`, `DEVICES` and `WATCH` reports) are comments too.
/// - Binary bytes between sentences (u-blox UBX frames in gpsd logs) are skipped and counted as
///   ``SkipReason/binaryNoise``, one per line or line part: a line may hold binary garbage and then a
///   sentence, which is found at its `$` (a sentence that fails its checksum is retried from the next `$`,
///   as UBX payloads hold `$` and `*` bytes). A line of printable text that holds no `$` is a malformed
///   record, unless the input has already shown binary bytes (UBX payloads hold printable runs too).
/// - Sentences glued on one line (a logger that dropped its CR LF: `$GPRMC,…*61$GPRMC,…*65`) are each read,
///   in order; spaces and tabs after a checksum are nothing.
///
/// ## Report and errors
/// ``ReadReport/recordsRead`` counts lines; skips are counted per line (per sentence of a line holding several), except
/// the epoch-level ones (``SkipReason/noFix``, ``SkipReason/missingTime``, ``SkipReason/missingPosition``,
/// ``SkipReason/providerFiltered``), which count epochs. In strict mode a malformed field throws
/// ``ReadError/malformedField(_:field:expected:found:)`` naming the line, column and field, after the fix of
/// the epoch gathered before the bad line has been returned; coordinates out of range are malformed fields
/// of their sentence (the epoch keeps a good position from another sentence).
///
/// ## Google GnssAnalysis "chipset" exports (GSDC 2020 `*_chipset.nmea`)
/// Their GGA HDOP field holds the phone's accuracy / 10, not a DOP: read them with
/// `ReadOptions(hdop: .scaledAccuracy(metresPerUnit: 10))`. The sibling `*_chipset.kml` adds nothing: its
/// per-fix "EA" has one decimal and equals HDOP × 10 on every fix of both MTV-1 phones, its altitude
/// accuracy is a constant 1.0 m and its speed accuracy a constant 0.
///
/// Memory is constant (one ``ByteStream`` chunk and one epoch of scalars); no allocation per fix.
public struct NMEAReader: FixReader {
    /// The options the reader was created with.
    public let options: ReadOptions
    private let stream: ByteStream
    private var tally: ReadReport
    /// The epoch being gathered.
    private var epoch = NMEAEpoch()
    /// VTG/GSA data waiting for the next epoch.
    private var carry = NMEAUntimed()
    /// Unix milliseconds of the last dated epoch, the reference that dates GGA-only epochs.
    private var reference: Int64?
    /// A fix completed while processing a line, returned by ``next()``.
    private var ready: Fix?
    /// Epochs closed before any date was known (a log that opens with GGA sentences before its first RMC or ZDA),
    /// held to be dated backwards from the first date (see ``maximumUndatedEpochs``), with where their position
    /// came from.
    private var undated: [(epoch: NMEAEpoch, latitude: Double, longitude: Double, line: Int, byteOffset: Int)] = []
    /// The held epochs' fixes once dated, and the fix of the epoch whose date released them, returned in order by
    /// ``next()`` before it reads another line.
    private var released: [Fix] = []
    private var releasedIndex = 0

    /// Most undated epochs held for the first date: an hour of 1 Hz epochs (about 0.5 MB). Beyond it an epoch is
    /// skipped as ``SkipReason/missingTime``, as every undated epoch is when no date comes.
    static let maximumUndatedEpochs = 3600
    /// An error met after a fix was completed by the same line: thrown by the following ``next()``.
    private var deferredError: ReadError?
    /// False when ``ReadOptions/providers`` excludes ``Provider/gps``.
    private let providerAllowed: Bool
    /// The stream's buffer as of the last refill, its end, and the input offset of its index 0: cached so
    /// the hot loop does not touch the stream object (every access to a class property costs a dynamic
    /// exclusivity check). Valid until the next refill.
    private var window: UnsafeRawBufferPointer
    private var windowEnd: Int
    private var windowBase: Int
    /// Buffer index of the first byte not yet read.
    private var cursor: Int
    /// Lines read so far, and how many of them the stream has been told about.
    private var lineCount = 0
    private var linesToldToStream = 0
    /// The last RMC date text (its six bytes as an integer) and its value in days since 1970.
    private var lastDateKey: UInt64 = 0
    private var lastDate: Int64? = nil
    /// Where the comma positions of the current sentence are kept.
    private let fieldStorage = NMEAFieldStorage()
    /// True once a line held binary bytes: printable lines without `$` are then noise, not errors.
    private var sawBinary = false
    /// The rest of the line being read after a sentence that another one follows on it (a dropped line break:
    /// `$GPRMC,…*61$GPRMC,…*65`), read before the next line; its bytes are the window's, which no refill moves
    /// before it is read.
    private var restOfLine: (line: ByteStream.Line, from: Int)?
    /// A sentence without `*hh` whose line ended before its fields did: reported when the next line that is not blank
    /// comes, as a sentence cut short in a log that goes on (``ReadError/malformedRecord(_:expected:found:)``), or at
    /// the end of the input as the input ending early (``ReadError/truncated(_:expected:)``): where it is found, a
    /// terminated last line cannot be told from one the log goes on after.
    private var cutOff: (location: SourceLocation, fields: Int, found: String)?
    /// The line whose sentence was cut short (no `*hh` and too few fields, or a `*` without its two digits at the
    /// line's end), 0 when the last line that was not blank was none: the next such line may hold the rest of the
    /// sentence (a lost line break splits one in two), which is then skipped and reported, not an error.
    private var splitLine = 0
    /// Whether checksums are compared (see ``ChecksumPolicy``).
    public let checksums: ChecksumPolicy

    /// What to do with a sentence whose `*hh` does not match its content.
    public enum ChecksumPolicy: Sendable, Hashable {
        /// Skip it and count it as ``SkipReason/checksumMismatch`` (the default: a mismatch is how a serial
        /// line or a binary-mixed log shows a corrupted sentence).
        case verify
        /// Read it as if the checksum matched. For exporters that write wrong checksums on purpose-built
        /// files: the GSDC / Google NovAtel SPAN truth files (`SPAN_*_10Hz.nmea`, `*.SPAN.*.gga`) have a
        /// wrong checksum on **every RMC** (the positions were rounded to 0.001′ after the checksum was
        /// computed) while GGA is right; RMC is their only source of the date, so verified reading skips
        /// every epoch as ``SkipReason/missingTime``.
        case acceptMismatches
    }

    /// Untimed sentences whose GnssLogger time is further than this from the open epoch's belong to the
    /// next epoch. Half the 1 s interval of phone NMEA: sentences of one epoch are logged within a few ms.
    static let untimedAttachMilliseconds: Int64 = 500

    /// What the reader has seen so far (``ReadReport/recordsRead`` counts lines).
    public var report: ReadReport {
        var copy = tally
        copy.bytesRead = windowBase + cursor
        return copy
    }

    /// How many records the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { tally.recordsRead }

    /// Creates a reader over `stream`.
    ///
    /// - Parameter checksums: ``ChecksumPolicy/verify`` by default; ``ChecksumPolicy/acceptMismatches`` for
    ///   NovAtel SPAN truth exports (see ``ChecksumPolicy``).
    public init(stream: ByteStream, options: ReadOptions = ReadOptions(), checksums: ChecksumPolicy = .verify) {
        self.stream = stream
        self.options = options
        self.checksums = checksums
        self.tally = ReadReport(source: stream.name)
        self.providerAllowed = options.providers.map { $0.contains(.gps) } ?? true
        self.window = stream.window
        self.cursor = stream.start
        self.windowEnd = stream.end
        self.windowBase = stream.offset(ofIndex: 0)
    }

    /// Opens the file at `path` (`-` for standard input) and creates a reader over it.
    /// - Throws: ``ReadError/io(path:message:)`` when the file cannot be opened.
    /// - Parameter checksums: see ``init(stream:options:checksums:)``.
    public init(
        path: String, options: ReadOptions = ReadOptions(),
        checksums: ChecksumPolicy = .verify
    ) throws(ReadError) {
        self.init(stream: try ByteStream(path: path), options: options, checksums: checksums)
    }

    /// Returns the fix of the next epoch, or `nil` at the end of the input.
    /// - Throws: ``ReadError`` at the first malformed sentence (unless ``ReadOptions/lenient``), after
    ///   returning the fix of the epoch gathered before it (that epoch is closed at the bad line: a caller
    ///   that goes on reading after the error gets the rest of the epoch as a new one).
    public mutating func next() throws(ReadError) -> Fix? {
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        while true {
            // (Held epochs released by a line, and that line's own fix after them, are returned before another line is
            // read.)
            if !released.isEmpty, let fix = takeFix() { return fix }
            // (A sentence glued on after another on the same line is read before the next line.)
            if let rest = restOfLine {
                restOfLine = nil
                if let fix = try read(rest.line, from: rest.from) { return fix }
                continue
            }
            let next: ByteStream.Line?
            do {
                next = try nextLine()
            } catch {
                // A read that stops (a line past the record limit, an I/O error): the epoch read before it first.
                if let fix = try closingEpoch(before: error) { return fix }
                throw error
            }
            guard let line = next else {
                try reportCutOff(goesOn: false)
                if let fix = takeFix() { return fix }
                guard epoch.isOpen else {
                    // No date came: the held epochs cannot be placed in time.
                    if !undated.isEmpty {
                        tally.skip(.missingTime, count: undated.count)
                        undated.removeAll()
                    }
                    return nil
                }
                try closeEpoch()
                if let fix = takeFix() { return fix }
                continue
            }
            tally.recordsRead += 1
            if let fix = try read(line, from: line.start) { return fix }
        }
    }

    /// Reads the sentence of `line` that starts at or after `from` (``process(_:from:)``) and returns the fix it
    /// completed, if any; `nil` to read on. (Inlined: called, returning its optional fix, it cost read-nmea 4,338 →
    /// 4,421 instructions per fix; 4,344 inlined.)
    @inline(__always)
    private mutating func read(_ line: ByteStream.Line, from: Int) throws(ReadError) -> Fix? {
        do {
            try process(line, from: from)
        } catch {
            // Strict mode: return the fix of the epoch read before the bad line first, then the error.
            if let fix = try closingEpoch(before: error) { return fix }
            throw error
        }
        if let fix = ready {
            ready = nil
            return fix
        }
        if !released.isEmpty, let fix = takeFix() { return fix }
        if let error = deferredError {
            // Closing the previous epoch failed (a position out of range): its error, before the epoch
            // this line opened is returned.
            deferredError = nil
            throw error
        }
        return nil
    }

    /// The next fix to return: a released held epoch's, then ``ready``'s; `nil` when there is none.
    private mutating func takeFix() -> Fix? {
        if releasedIndex < released.count {
            let fix = released[releasedIndex]
            releasedIndex += 1
            if releasedIndex == released.count { (released, releasedIndex) = ([], 0) }
            return fix
        }
        guard let fix = ready else { return nil }
        ready = nil
        return fix
    }

    /// Before `error` is thrown: closes the epoch still open and returns its fix (the error is then thrown by
    /// the next call), or `nil` when there is none. Throws the closing's own error first if it fails.
    private mutating func closingEpoch(before error: ReadError) throws(ReadError) -> Fix? {
        if releasedIndex < released.count {
            deferredError = error
            return takeFix()
        }
        if ready == nil, epoch.isOpen {
            do {
                try closeEpoch()
            } catch let earlier {
                deferredError = error
                throw earlier
            }
        }
        guard let fix = ready else { return nil }
        ready = nil
        deferredError = error
        return fix
    }

    // MARK: - Lines

    /// Returns the next line of the window (without `\n` or `\r\n`), refilling it from the stream when no
    /// newline is left; `nil` at the end of the input. A final line without terminator is returned too.
    private mutating func nextLine() throws(ReadError) -> ByteStream.Line? {
        while true {
            if cursor < windowEnd, let base = window.baseAddress,
                let hit = memchr(base + cursor, 0x0A, windowEnd - cursor)
            {
                let newline = base.distance(to: UnsafeRawPointer(hit))
                var lineEnd = newline
                if lineEnd > cursor, window[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                lineCount += 1
                let line = ByteStream.Line(
                    bytes: window, start: cursor, end: lineEnd, number: lineCount,
                    byteOffset: windowBase + cursor)
                cursor = newline + 1
                return line
            }
            stream.consume(upTo: cursor)
            stream.countLines(lineCount - linesToldToStream)
            linesToldToStream = lineCount
            let more: Bool
            do {
                more = try stream.refill()
            } catch {
                guard case .recordTooLong = error, options.lenient else { throw error }
                // Lenient: a line past the record limit (a logger that lost power leaves megabytes of NUL bytes)
                // is counted and passed over, and reading goes on after its end. Before, the read stopped there
                // and the sentences after it were lost (a batch tester's 20 MB of NULs in a log).
                tally.recordsRead += 1
                try tally.reject(error, lenient: true)
                try skipOverlongLine()
                continue
            }
            adoptStreamWindow()
            if more { continue }
            guard cursor < windowEnd else { return nil }
            var lineEnd = windowEnd
            if window[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            lineCount += 1
            let line = ByteStream.Line(
                bytes: window, start: cursor, end: lineEnd, number: lineCount,
                byteOffset: windowBase + cursor)
            cursor = windowEnd
            return line
        }
    }

    /// Passes over the rest of a line longer than the stream's record limit, up to and including its newline
    /// (or the end of the input), without keeping it; the window then starts after it.
    private mutating func skipOverlongLine() throws(ReadError) {
        while true {
            let start = stream.start, end = stream.end
            if start < end, let base = stream.window.baseAddress, let hit = memchr(base + start, 0x0A, end - start) {
                stream.consume(upTo: base.distance(to: UnsafeRawPointer(hit)) + 1)
                break
            }
            stream.consume(upTo: end)
            guard try stream.refill() else { break }
        }
        lineCount += 1
        stream.countLines(lineCount - linesToldToStream)
        linesToldToStream = lineCount
        adoptStreamWindow()
    }

    /// Reads on from the stream's window as it now is (after a refill or a skip).
    private mutating func adoptStreamWindow() {
        window = stream.window
        cursor = stream.start
        windowEnd = stream.end
        windowBase = stream.offset(ofIndex: 0)
    }

    /// True when the line ended with a newline (`\n` or `\r\n`), false for a final unterminated line.
    private func isTerminated(_ line: ByteStream.Line) -> Bool {
        guard line.end < windowEnd else { return false }
        let byte = line.bytes[line.end]
        if byte == 0x0A { return true }
        return byte == 0x0D && line.end + 1 < windowEnd && line.bytes[line.end + 1] == 0x0A
    }

    /// A location on `line` at buffer index `index`.
    private func location(_ line: ByteStream.Line, _ index: Int) -> SourceLocation {
        line.location(file: stream.name, at: index)
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// Reads one line from `from` (its start, or where a sentence glued on after another begins): classifies it,
    /// verifies the checksum and hands the sentence to its parser. A further sentence after the checksum is left in
    /// ``restOfLine``.
    private mutating func process(_ line: ByteStream.Line, from: Int) throws(ReadError) {
        let p = line.bytes
        var s = from
        let e = line.end
        while s < e, p[s] == 0x20 || p[s] == 0x09 { s += 1 }
        if s == e {
            tally.skip(.blank)
            return
        }
        // (A sentence cut short on the line before: the log goes on, and this line may hold the sentence's rest.)
        let splitOn = splitLine
        if splitOn > 0 {
            splitLine = 0
            try reportCutOff(goesOn: true)
        }
        var dollar = s
        if p[s] != UInt8(ascii: "$") {
            if p[s] == UInt8(ascii: "#"), NMEAReader.isText(p, s, e) {
                tally.skip(.comment)
                // (A sentence glued on after the comment is read next, as after another sentence: the whole line
                // was taken for the comment, the fix lost without a word.)
                if let glued = sentenceAfterComment(p, s + 1, e) { restOfLine = (line, glued) }
                return
            }
            // gpsd's JSON reports between the sentences of a `gpspipe -w` or `-r` log (`{"class":"TPV",…}`, the
            // `VERSION`, `DEVICES` and `WATCH` lines it opens with) are passed over as comments: they stopped a
            // strict read at the first one (a formats tester's gpspipe logs).
            if p[s] == UInt8(ascii: "{"), NMEAReader.isJSONObjectLine(p, s, e) {
                tally.skip(.comment)
                return
            }
            while dollar < e, p[dollar] != UInt8(ascii: "$") { dollar += 1 }
            if dollar == e {
                try classifyNonSentence(line, from: s, afterSplitOn: splitOn)
                return
            }
        }
        // Text before the `$`: the GnssLogger prefix, or noise.
        var wrapped = false
        var noise = false
        if dollar > s {
            if dollar - s == 5, p[s] == UInt8(ascii: "N"), p[s + 1] == UInt8(ascii: "M"), p[s + 2] == UInt8(ascii: "E"),
                p[s + 3] == UInt8(ascii: "A"), p[s + 4] == UInt8(ascii: ",")
            {
                wrapped = true
            } else {
                noise = true
            }
        }
        // One pass: checksum and comma positions. A `$` inside restarts the sentence (a cut-off fragment or
        // binary followed by a whole sentence on the same line); a sentence that fails its checksum is
        // retried from the next `$` after its `*` (binary noise may hold `$` and `*` bytes).
        var fields = NMEAFields(commas: fieldStorage.commas)
        var hasChecksum = false
        var wrapperMillis: Int64? = nil
        var sentenceStart = dollar
        let base = p.baseAddress!
        scan: while true {
            var bodyStart = sentenceStart + 1
            var i = e
            if bodyStart < e, let star = memchr(base + bodyStart, 0x2A, e - bodyStart) {
                i = base.distance(to: UnsafeRawPointer(star))
            }
            if bodyStart < i, memchr(base + bodyStart, 0x24, i - bodyStart) != nil {
                // Restart at the last `$` before the `*`.
                var k = i - 1
                while p[k] != 0x24 { k -= 1 }
                noise = true
                wrapped = false
                sentenceStart = k
                bodyStart = k + 1
            }
            let sum = NMEAFields.scan(base, from: bodyStart, to: i, into: &fields)
            if i == e {
                // No checksum: accepted below if complete, unless the input was cut off in this sentence.
                if !isTerminated(line) {
                    if noise { countNoise() }
                    try tally.reject(
                        .truncated(
                            location(line, e),
                            expected: "the rest of the sentence and its '*hh' checksum"),
                        lenient: true)
                    return
                }
                break scan
            }
            // `*` found: two hex digits must follow.
            let hasDigits: Bool
            if i + 2 < e, let high = NMEAReader.hexValue(p[i + 1]), let low = NMEAReader.hexValue(p[i + 2]) {
                hasDigits = true
                if high << 4 | low == sum || checksums == .acceptMismatches {
                    hasChecksum = true
                    let after = i + 3
                    if after < e {
                        if wrapped, p[after] == UInt8(ascii: ",") {
                            // A logger time outside the years 0001–9999 is not a time: treat it as absent.
                            wrapperMillis = NumberParsing.int(p, after + 1, e).flatMap {
                                Timestamp.representableMilliseconds.contains($0) ? $0 : nil
                            }
                        } else if !SeparatorScan.isBlank(p, after, e) {
                            // (A tab after the checksum is white space too, not noise: a tester's log ended its
                            // lines so.)
                            if memchr(base + after, 0x24, e - after) != nil {
                                // Another sentence on the same line (a logger that dropped its CR LF wrote
                                // `…*61$GPRMC,…*65`; every sentence but the first was counted as noise): read next.
                                restOfLine = (line, after)
                            } else {
                                noise = true
                            }
                        }
                    }
                    break scan
                }
            } else {
                hasDigits = false
            }
            var next = i + 1
            while next < e, p[next] != UInt8(ascii: "$") { next += 1 }
            if next < e {
                noise = true
                wrapped = false
                sentenceStart = next
                continue scan
            }
            if noise { countNoise() }
            if !hasDigits, !isTerminated(line) {
                try tally.reject(
                    .truncated(location(line, i), expected: "two hex digits of checksum after '*'"),
                    lenient: true)
            } else {
                tally.skip(.checksumMismatch, at: location(line, sentenceStart))
                // (The line ends inside the checksum: its digits may be on the next line.)
                if !hasDigits, i + 2 >= e, i + 1 == e || NMEAReader.hexValue(p[i + 1]) != nil {
                    splitLine = line.number
                }
            }
            return
        }
        dollar = sentenceStart
        if noise { countNoise() }

        // Address: two-letter talker and three-letter sentence type.
        let address = fields.bounds(0)
        guard address.end - address.start == 5 else {
            tally.skip(.otherRecord)
            return
        }
        let a = address.start
        let talker = UInt16(p[a]) << 8 | UInt16(p[a + 1])
        switch talker {
        case 0x4750, 0x474E, 0x474C, 0x4741, 0x4244, 0x4742, 0x515A, 0x4751, 0x4749:
            break  // GP GN GL GA BD GB QZ GQ GI
        default:
            // ZDA is read from any talker (`II`, `IN`…): its UTC date is the same whoever writes it. Not from a
            // proprietary sentence (`$P` + a manufacturer's code: `$PGZDA` is no ZDA; a reviewer's).
            guard p[a] != UInt8(ascii: "P"), p[a + 2] == UInt8(ascii: "Z"), p[a + 3] == UInt8(ascii: "D"),
                p[a + 4] == UInt8(ascii: "A")
            else {
                tally.skip(.otherRecord)
                return
            }
        }
        let kind = UInt32(p[a + 2]) << 16 | UInt32(p[a + 3]) << 8 | UInt32(p[a + 4])
        let minimumFields: Int
        switch kind {
        case 0x524D43: minimumFields = 11  // RMC
        case 0x474741: minimumFields = 14  // GGA
        case 0x475354: minimumFields = 8  // GST
        case 0x565447: minimumFields = 8  // VTG
        case 0x475341: minimumFields = 17  // GSA
        case 0x5A4441: minimumFields = 6  // ZDA
        default:
            tally.skip(.otherRecord)
            return
        }
        if !hasChecksum, fields.commaCount < minimumFields {
            // A cut-off write (the gpsd ublox-8 log ends so): reported, never fatal (see the type's notes). On a line
            // that ends, it is reported when the next comes (`cutOff`): then the log goes on, and its next line may
            // hold the sentence's rest (a formats tester's line 3 was the tail of line 2, and stopped the read).
            if isTerminated(line) {
                cutOff = (location(line, fields.bodyEnd), minimumFields, ReadError.quote(p, dollar, e))
                splitLine = line.number
            } else {
                try tally.reject(
                    .truncated(location(line, fields.bodyEnd), expected: NMEAReader.completeSentence(minimumFields)),
                    lenient: true)
            }
            return
        }
        do {
            switch kind {
            case 0x524D43: try readRMC(line, fields, wrapperMillis)
            case 0x474741: try readGGA(line, fields, wrapperMillis)
            case 0x475354: try readGST(line, fields, wrapperMillis)
            case 0x565447: try readVTG(line, fields, wrapperMillis)
            case 0x475341: try readGSA(line, fields, wrapperMillis)
            default: try readZDA(line, fields, wrapperMillis)
            }
        } catch {
            // NUL bytes inside a sentence leave its checksum as it was (a byte XORed with 0): a run of them written
            // into a sentence (a logger's unwritten block) passed the check and stopped the read at the field it
            // broke (a CLI tester's: 20 of 60 fixes, where any other corrupted byte is a mismatch, skipped). Such a
            // sentence is binary noise, skipped as the NULs between lines are. (Asked only of a sentence that
            // failed: the scan pays nothing.)
            guard memchr(base + dollar, 0, e - dollar) != nil else { throw error }
            tally.skip(.binaryNoise)
        }
    }

    /// Reports the sentence cut short that ``cutOff`` holds, if any (skipped, never fatal, as the type's notes say): as
    /// cut short in a log that goes on when `goesOn`, else as the input ending early.
    private mutating func reportCutOff(goesOn: Bool) throws(ReadError) {
        guard let pending = cutOff else { return }
        cutOff = nil
        // (Not "input ends early" when the log goes on: a tester's file went on for thousands of lines.)
        let error: ReadError =
            goesOn
            ? .malformedRecord(
                pending.location,
                expected: "\(pending.fields) fields and a '*hh' checksum (the sentence is cut short here, and the log "
                    + "goes on after it: a lost line break, a logger restarted mid-write)",
                found: pending.found)
            : .truncated(pending.location, expected: NMEAReader.completeSentence(pending.fields))
        try tally.reject(error, lenient: true)
    }

    /// What a sentence without `*hh` that has fewer than `fields` fields lacks, for the error at the input's end.
    private static func completeSentence(_ fields: Int) -> String {
        "\(fields) fields (a sentence without '*hh' must be complete)"
    }

    /// True when `p[start..<end]` (which starts with `{`) is a line of printable text ending (before spaces and tabs)
    /// with `}`: a JSON object on its line, as gpsd writes its reports.
    private static func isJSONObjectLine(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var last = end
        while last > start, p[last - 1] == 0x20 || p[last - 1] == 0x09 { last -= 1 }
        return last - start >= 2 && p[last - 1] == UInt8(ascii: "}") && isText(p, start, last)
    }

    /// Counts a line (or line part) of bytes that are not NMEA text, and remembers that the input mixes
    /// binary with text.
    private mutating func countNoise() {
        sawBinary = true
        tally.skip(.binaryNoise)
    }

    /// True when `p[start..<end]` holds only printable ASCII and tabs.
    private static func isText(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var k = start
        while k < end {
            let b = p[k]
            if b >= 0x7F || (b < 0x20 && b != 0x09) { return false }
            k += 1
        }
        return true
    }

    /// Where a sentence glued on after a comment's text in `p[start..<end]` starts: the first `$` whose sentence ends
    /// in a `*hh` checksum that verifies (or any two hex digits, with ``ChecksumPolicy/acceptMismatches``) before
    /// another `$`; `nil` when there is none, and the `$`s are the comment's text (`# logs $GPRMC sentences`).
    /// (Only asked of comment lines.)
    private func sentenceAfterComment(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        var dollar = start
        while dollar < end {
            guard p[dollar] == UInt8(ascii: "$") else {
                dollar += 1
                continue
            }
            var sum: UInt8 = 0
            var i = dollar + 1
            while i < end, p[i] != UInt8(ascii: "*"), p[i] != UInt8(ascii: "$") {
                sum ^= p[i]
                i += 1
            }
            if i + 2 < end, p[i] == UInt8(ascii: "*"), let high = NMEAReader.hexValue(p[i + 1]),
                let low = NMEAReader.hexValue(p[i + 2]), high << 4 | low == sum || checksums == .acceptMismatches
            {
                return dollar
            }
            dollar = i < end && p[i] == UInt8(ascii: "$") ? i : i + 1
        }
        return nil
    }

    /// A line without `$`: AIS-style `!` sentences are other records, lines with binary bytes are noise,
    /// printable text is malformed, unless the input has already shown binary bytes (then it is noise too) or the
    /// line comes right after one whose sentence was cut short (`afterSplitOn`, that line's number; 0: none): then it
    /// is that sentence's rest, skipped and reported even in strict mode, as the cut-off part is.
    private mutating func classifyNonSentence(_ line: ByteStream.Line, from start: Int, afterSplitOn: Int)
        throws(ReadError)
    {
        let p = line.bytes
        if p[start] == UInt8(ascii: "!") {
            tally.skip(.otherRecord)
            return
        }
        if !NMEAReader.isText(p, start, line.end) {
            countNoise()
            return
        }
        if sawBinary {
            // Printable bytes inside a binary stream (UBX payloads hold text-like runs between `\n` bytes).
            tally.skip(.binaryNoise)
            return
        }
        if afterSplitOn > 0 {
            try tally.reject(
                .malformedRecord(
                    location(line, start),
                    expected: "an NMEA sentence starting with '$' (the line looks like the rest of the sentence cut "
                        + "short on line \(afterSplitOn): a lost line break split it in two, and both parts are "
                        + "skipped)",
                    found: ReadError.quote(p, start, line.end)),
                lenient: true)
            return
        }
        try tally.reject(
            .malformedRecord(
                location(line, start), expected: "an NMEA sentence starting with '$'",
                found: ReadError.quote(p, start, line.end)),
            lenient: options.lenient)
    }

    // MARK: - Fields

    /// A field that does not hold what its sentence requires (turned into a ``ReadError`` with its location
    /// by ``fieldError(_:_:)``). Static helpers throw this instead of a ``ReadError`` so that they need
    /// neither `self` nor the file name, which keeps the hot path free of copies and reference counting.
    struct FieldFailure: Error {
        /// The field's name, as in our CSV header where one exists.
        var field: String
        /// What the field should hold.
        var expected: String
        /// The field's bounds in the line's buffer.
        var start: Int
        var end: Int
    }

    /// The ``ReadError`` for a failed field of `line`.
    private func fieldError(_ line: ByteStream.Line, _ failure: FieldFailure) -> ReadError {
        .malformedField(
            location(line, failure.start), field: failure.field, expected: failure.expected,
            found: ReadError.quote(line.bytes, failure.start, failure.end))
    }

    /// The value of a parsed field: `nil` when empty, a ``FieldFailure`` naming `field` and the bytes
    /// `start..<end` when malformed.
    @inline(__always)
    private static func value<T>(
        _ outcome: NMEAParse.Outcome<T>, field: String, expected: String, start: Int, end: Int
    ) throws(FieldFailure) -> T? {
        switch outcome {
        case .empty: return nil
        case .value(let v): return v
        case .malformed, .nonFinite: throw FieldFailure(field: field, expected: expected, start: start, end: end)
        }
    }

    /// The number in field `index`: `nil` when empty; a ``FieldFailure`` when it is no number; `nil` as well when it is
    /// a number but no finite one (`nan`, `inf`, what a program's `printf` writes for "no value"), whose field's bit
    /// (`1 << index`) is set in `nonFinite` for ``readNonFiniteAsMissing(_:_:_:names:)`` (it was read as missing
    /// without a word). `index` is below 32 (the largest NMEA field read is 16). A bit mask, not a list of failures,
    /// and the check in ``NMEAParse/number(_:_:_:)``'s slow path only: an array per sentence and a check of every
    /// number cost read-nmea 1–2 % of its instructions.
    @inline(__always)
    private static func number(
        _ p: UnsafeRawBufferPointer, _ fields: NMEAFields, _ index: Int,
        _ name: String, nonFinite: inout UInt32
    ) throws(FieldFailure) -> Double? {
        let f = fields.bounds(index)
        switch NMEAParse.number(p, f.start, f.end) {
        case .empty: return nil
        case .value(let v): return v
        case .nonFinite:
            nonFinite |= 1 << index
            return nil
        case .malformed: throw FieldFailure(field: name, expected: "a decimal number", start: f.start, end: f.end)
        }
    }

    /// Counts the fields of `line` that ``number(_:_:_:_:nonFinite:)`` read as missing for holding no finite number
    /// (the bits of `nonFinite`, named by `names`): ``ReadReport/readNonFiniteAsMissing(_:)``, in any mode, as every
    /// reader does, once the sentence is read.
    private mutating func readNonFiniteAsMissing(
        _ line: ByteStream.Line, _ fields: NMEAFields, _ nonFinite: UInt32, names: KeyValuePairs<Int, String>
    ) {
        for (index, name) in names where nonFinite & (1 << index) != 0 {
            let f = fields.bounds(index)
            tally.readNonFiniteAsMissing(
                fieldError(
                    line,
                    FieldFailure(field: name, expected: ReadReport.nonFiniteExpectation, start: f.start, end: f.end)))
        }
        tally.keepUnreadableFields()
    }

    @inline(__always)
    private static func count(
        _ p: UnsafeRawBufferPointer, _ fields: NMEAFields, _ index: Int,
        _ name: String
    ) throws(FieldFailure) -> Int? {
        let f = fields.bounds(index)
        return try value(
            NMEAParse.count(p, f.start, f.end), field: name, expected: "a non-negative integer", start: f.start,
            end: f.end)
    }

    @inline(__always)
    private static func timeOfDay(_ p: UnsafeRawBufferPointer, _ fields: NMEAFields) throws(FieldFailure) -> Int64? {
        let f = fields.bounds(1)
        return try value(
            NMEAParse.timeOfDay(p, f.start, f.end), field: "time", expected: "a UTC time hhmmss[.sss]",
            start: f.start, end: f.end)
    }

    /// Latitude and longitude from fields `index`…`index + 3`; `nil` when either is empty.
    @inline(__always)
    private static func position(
        _ p: UnsafeRawBufferPointer, _ fields: NMEAFields,
        _ index: Int
    ) throws(FieldFailure) -> (latitude: Double, longitude: Double)? {
        let lat = fields.bounds(index), ns = fields.bounds(index + 1)
        let lon = fields.bounds(index + 2), ew = fields.bounds(index + 3)
        let latitude = try value(
            NMEAParse.angle(
                p, lat.start, lat.end, hemisphereStart: ns.start, hemisphereEnd: ns.end,
                positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S")),
            field: "latitude", expected: "ddmm.mmmm (minutes < 60) and N or S", start: lat.start, end: ns.end)
        let longitude = try value(
            NMEAParse.angle(
                p, lon.start, lon.end, hemisphereStart: ew.start, hemisphereEnd: ew.end,
                positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W")),
            field: "longitude", expected: "dddmm.mmmm (minutes < 60) and E or W", start: lon.start, end: ew.end)
        guard let latitude, let longitude else { return nil }
        // Out of range is this sentence's fault, found here: judged at the epoch's close, a bad position
        // replaced the epoch's good one from another sentence (a valid RMC lost to its GGA at 99°30′ N), or was
        // itself replaced unreported by a second sentence of the epoch.
        guard abs(latitude) <= 90 else {
            throw FieldFailure(
                field: "latitude", expected: "a latitude within -90...90 degrees (ddmm.mmmm and N or S)",
                start: lat.start, end: ns.end)
        }
        guard abs(longitude) <= 180 else {
            throw FieldFailure(
                field: "longitude", expected: "a longitude within -180...180 degrees (dddmm.mmmm and E or W)",
                start: lon.start, end: ew.end)
        }
        return (latitude, longitude)
    }

    // MARK: - Sentences

    /// The six bytes at `p[start]` packed into an integer.
    @inline(__always)
    private static func sixByteKey(_ p: UnsafeRawBufferPointer, _ start: Int) -> UInt64 {
        var key: UInt64 = 0
        for k in 0..<6 { key = key &<< 8 | UInt64(p[start &+ k]) }
        return key
    }

    private mutating func readRMC(_ line: ByteStream.Line, _ fields: NMEAFields, _ millis: Int64?) throws(ReadError) {
        let p = line.bytes
        var nonFinite: UInt32 = 0
        var noFix = false
        do {
            let f = fields.bounds(2)
            switch NMEAParse.letter(p, f.start, f.end) {
            case UInt8(ascii: "V"): noFix = true
            case UInt8(ascii: "A"), 0: break
            default:
                try tally.reject(
                    fieldError(line, FieldFailure(field: "status", expected: "A or V", start: f.start, end: f.end)),
                    lenient: options.lenient)
                return
            }
            let m = fields.bounds(12)
            if NMEAParse.letter(p, m.start, m.end) == UInt8(ascii: "N") { noFix = true }
        }
        let time: Int64?, position: (latitude: Double, longitude: Double)?, speed: Double?, course: Double?
        let date: Int64?
        do throws(FieldFailure) {
            time = try NMEAReader.timeOfDay(p, fields)
            position = try NMEAReader.position(p, fields, 3)
            speed = try NMEAReader.number(p, fields, 7, "speed_knots", nonFinite: &nonFinite)
            course = try NMEAReader.number(p, fields, 8, "course_deg", nonFinite: &nonFinite)
            let d = fields.bounds(9)
            if d.end - d.start == 6, let cached = lastDate,
                NMEAReader.sixByteKey(p, d.start) == lastDateKey
            {
                date = cached  // the date changes once a day: skip the calendar arithmetic
            } else {
                switch NMEAParse.date(p, d.start, d.end) {
                case .empty: date = nil
                case .value(let v):
                    date = v
                    if d.end - d.start == 6 {
                        lastDate = v
                        lastDateKey = NMEAReader.sixByteKey(p, d.start)
                    }
                case .malformed, .nonFinite:
                    throw FieldFailure(field: "date", expected: "a date ddmmyy", start: d.start, end: d.end)
                }
            }
        } catch {
            try tally.reject(fieldError(line, error), lenient: options.lenient)
            return
        }
        guard let time else {
            // Receivers without a fix write sentences with every field empty (Emlid Reach): no fix.
            tally.skip(noFix || position == nil ? .noFix : .missingTime)
            return
        }
        if nonFinite != 0 {
            readNonFiniteAsMissing(line, fields, nonFinite, names: [7: "speed_knots", 8: "course_deg"])
        }
        enterEpoch(time, millis)
        epoch.hasFixSentence = true
        if noFix { epoch.noFix = true }
        if let position {
            epoch.rmcLatitude = position.latitude
            epoch.rmcLongitude = position.longitude
            epoch.rmcLine = line.number
            epoch.rmcByteOffset = line.byteOffset
        }
        if let speed { epoch.rmcSpeed = speed * SpeedUnit.metresPerSecondPerKnot }
        if let course { epoch.rmcCourse = course }
        if let date { epoch.dateDays = date }
    }

    private mutating func readGGA(_ line: ByteStream.Line, _ fields: NMEAFields, _ millis: Int64?) throws(ReadError) {
        let p = line.bytes
        var nonFinite: UInt32 = 0
        let time: Int64?, position: (latitude: Double, longitude: Double)?, quality: Int?
        let satellites: Int?, hdop: Double?, altitude: Double?
        do throws(FieldFailure) {
            quality = try NMEAReader.count(p, fields, 6, "quality")
            time = try NMEAReader.timeOfDay(p, fields)
            position = try NMEAReader.position(p, fields, 2)
            satellites = try NMEAReader.count(p, fields, 7, "satellites")
            hdop = try NMEAReader.number(p, fields, 8, "hdop", nonFinite: &nonFinite)
            altitude = try NMEAReader.number(p, fields, 9, "altitude_m", nonFinite: &nonFinite)
        } catch {
            try tally.reject(fieldError(line, error), lenient: options.lenient)
            return
        }
        guard let time else {
            tally.skip(quality == 0 || position == nil ? .noFix : .missingTime)
            return
        }
        if nonFinite != 0 { readNonFiniteAsMissing(line, fields, nonFinite, names: [8: "hdop", 9: "altitude_m"]) }
        enterEpoch(time, millis)
        epoch.hasFixSentence = true
        if quality == 0 { epoch.noFix = true }
        if quality == 8 { epoch.simulated = true }
        if let position {
            epoch.ggaLatitude = position.latitude
            epoch.ggaLongitude = position.longitude
            epoch.ggaLine = line.number
            epoch.ggaByteOffset = line.byteOffset
        }
        if let satellites { epoch.satellites = satellites }
        if let hdop { epoch.ggaHDOP = hdop }
        if let altitude { epoch.altitude = altitude }
    }

    private mutating func readGST(_ line: ByteStream.Line, _ fields: NMEAFields, _ millis: Int64?) throws(ReadError) {
        let p = line.bytes
        var nonFinite: UInt32 = 0
        let time: Int64?, sigmaLatitude: Double?, sigmaLongitude: Double?, sigmaAltitude: Double?
        do throws(FieldFailure) {
            time = try NMEAReader.timeOfDay(p, fields)
            sigmaLatitude = try NMEAReader.number(p, fields, 6, "sigma_latitude_m", nonFinite: &nonFinite)
            sigmaLongitude = try NMEAReader.number(p, fields, 7, "sigma_longitude_m", nonFinite: &nonFinite)
            sigmaAltitude = try NMEAReader.number(p, fields, 8, "sigma_altitude_m", nonFinite: &nonFinite)
        } catch {
            try tally.reject(fieldError(line, error), lenient: options.lenient)
            return
        }
        guard let time else {
            tally.skip(sigmaLatitude == nil && sigmaLongitude == nil ? .noFix : .missingTime)
            return
        }
        if nonFinite != 0 {
            readNonFiniteAsMissing(
                line, fields, nonFinite, names: [6: "sigma_latitude_m", 7: "sigma_longitude_m", 8: "sigma_altitude_m"])
        }
        enterEpoch(time, millis)
        epoch.hasFixSentence = true
        if let sigmaLatitude { epoch.sigmaLatitude = sigmaLatitude }
        if let sigmaLongitude { epoch.sigmaLongitude = sigmaLongitude }
        if let sigmaAltitude { epoch.sigmaAltitude = sigmaAltitude }
    }

    private mutating func readVTG(_ line: ByteStream.Line, _ fields: NMEAFields, _ millis: Int64?) throws(ReadError) {
        let p = line.bytes
        var nonFinite: UInt32 = 0
        var data = NMEAUntimed()
        do throws(FieldFailure) {
            let m = fields.bounds(9)
            if NMEAParse.letter(line.bytes, m.start, m.end) == UInt8(ascii: "N") {
                tally.skip(.noFix)
                return
            }
            data.vtgCourse = try NMEAReader.number(p, fields, 1, "course_deg", nonFinite: &nonFinite)
            if let knots = try NMEAReader.number(p, fields, 5, "speed_knots", nonFinite: &nonFinite) {
                data.vtgSpeed = knots * SpeedUnit.metresPerSecondPerKnot
            } else if let kmh = try NMEAReader.number(p, fields, 7, "speed_kmh", nonFinite: &nonFinite) {
                data.vtgSpeed = kmh / 3.6
            }
        } catch {
            try tally.reject(fieldError(line, error), lenient: options.lenient)
            return
        }
        // (A non-finite knots field whose km/h field gave the speed lost nothing: not counted.)
        if data.vtgSpeed != nil { nonFinite &= ~(1 << 5) }
        if nonFinite != 0 {
            readNonFiniteAsMissing(line, fields, nonFinite, names: [1: "course_deg", 5: "speed_knots", 7: "speed_kmh"])
        }
        data.isSet = true
        data.wrapperMillis = millis
        attachUntimed(data)
    }

    private mutating func readGSA(_ line: ByteStream.Line, _ fields: NMEAFields, _ millis: Int64?) throws(ReadError) {
        let p = line.bytes
        var nonFinite: UInt32 = 0
        var data = NMEAUntimed()
        do throws(FieldFailure) {
            data.gsaHDOP = try NMEAReader.number(p, fields, 16, "hdop", nonFinite: &nonFinite)
        } catch {
            try tally.reject(fieldError(line, error), lenient: options.lenient)
            return
        }
        if nonFinite != 0 { readNonFiniteAsMissing(line, fields, nonFinite, names: [16: "hdop"]) }
        data.isSet = true
        data.wrapperMillis = millis
        attachUntimed(data)
    }

    /// ZDA: `hhmmss.ss,dd,mm,yyyy,zh,zm`, the UTC time of day and date. Its date dates its epoch as an RMC's
    /// does; the local zone fields do not change the UTC date or time and are not read. A ZDA without a time or
    /// without a date gives nothing and is an ``SkipReason/otherRecord``.
    private mutating func readZDA(_ line: ByteStream.Line, _ fields: NMEAFields, _ millis: Int64?) throws(ReadError) {
        let p = line.bytes
        let time: Int64?, date: Int64?
        do throws(FieldFailure) {
            time = try NMEAReader.timeOfDay(p, fields)
            let d = fields.bounds(2), m = fields.bounds(3), y = fields.bounds(4)
            let day = try NMEAReader.value(
                NMEAParse.digits(p, d.start, d.end, digitCount: 1...2), field: "day",
                expected: "a day of the month dd", start: d.start, end: d.end)
            let month = try NMEAReader.value(
                NMEAParse.digits(p, m.start, m.end, digitCount: 1...2), field: "month",
                expected: "a month mm", start: m.start, end: m.end)
            let year = try NMEAReader.value(
                NMEAParse.digits(p, y.start, y.end, digitCount: 4...4), field: "year",
                expected: "a four-digit year yyyy", start: y.start, end: y.end)
            switch (day, month, year) {
            case (nil, nil, nil):
                date = nil  // receivers write the fields empty until they know the date
            case (let day?, let month?, let year?):
                guard CivilTime.isValidDate(year: year, month: month, day: day) else {
                    throw FieldFailure(
                        field: "date", expected: "a calendar date dd,mm,yyyy", start: d.start, end: y.end)
                }
                date = Int64(CivilTime.daysSince1970(year: year, month: month, day: day))
            default:
                throw FieldFailure(
                    field: "date", expected: "day, month and year all given (dd,mm,yyyy) or all empty",
                    start: d.start, end: y.end)
            }
        } catch {
            try tally.reject(fieldError(line, error), lenient: options.lenient)
            return
        }
        guard let time, let date else {
            tally.skip(.otherRecord)
            return
        }
        enterEpoch(time, millis)
        epoch.dateDays = date
    }

    // MARK: - Epochs

    /// Joins VTG/GSA data to the open epoch, or keeps it for the next one (see the type's documentation).
    private mutating func attachUntimed(_ data: NMEAUntimed) {
        if epoch.isOpen {
            if let m = data.wrapperMillis, let em = epoch.wrapperMillis,
                abs(m &- em) > NMEAReader.untimedAttachMilliseconds
            {
                carry.merge(data)
            } else {
                epoch.untimed.merge(data)
            }
        } else {
            carry.merge(data)
        }
    }

    /// Makes the epoch of `timeOfDay` the open one, closing the previous epoch when the time differs. An error
    /// closing it (strict mode) is kept in `deferredError` and thrown by ``next()`` once the caller has stored
    /// its sentence in the new epoch (the new epoch stays open: it is not returned before the error).
    private mutating func enterEpoch(_ timeOfDay: Int64, _ millis: Int64?) {
        if epoch.isOpen, epoch.timeOfDay == timeOfDay {
            if epoch.wrapperMillis == nil { epoch.wrapperMillis = millis }
            return
        }
        if epoch.isOpen {
            do { try closeEpoch() } catch { deferredError = error }
        }
        epoch = NMEAEpoch()
        epoch.isOpen = true
        epoch.timeOfDay = timeOfDay
        epoch.wrapperMillis = millis
        if carry.isSet {
            let stale: Bool
            if let cm = carry.wrapperMillis, let millis {
                stale = abs(cm &- millis) > NMEAReader.untimedAttachMilliseconds
            } else {
                stale = false
            }
            if !stale { epoch.untimed = carry }
            carry = NMEAUntimed()
        }
    }

    /// Turns the open epoch into a fix (stored in `ready`) or a counted skip, and closes it.
    private mutating func closeEpoch() throws(ReadError) {
        epoch.isOpen = false
        if epoch.noFix {
            tally.skip(.noFix)
            return
        }
        let latitude: Double, longitude: Double, line: Int, byteOffset: Int
        if let lat = epoch.ggaLatitude, let lon = epoch.ggaLongitude {
            latitude = lat
            longitude = lon
            line = epoch.ggaLine
            byteOffset = epoch.ggaByteOffset
        } else if let lat = epoch.rmcLatitude, let lon = epoch.rmcLongitude {
            latitude = lat
            longitude = lon
            line = epoch.rmcLine
            byteOffset = epoch.rmcByteOffset
        } else if !epoch.hasFixSentence {
            // ZDA alone (at a time of day no fix sentence shares): a date, not a fix. It dates the epochs after
            // it as a dated fix does.
            if let days = epoch.dateDays {
                reference = days &* NMEAParse.dayMilliseconds &+ epoch.timeOfDay
                try releaseUndated()
            }
            tally.skip(.otherRecord)
            return
        } else {
            tally.skip(.missingPosition)
            return
        }
        let instant: Int64
        if let days = epoch.dateDays {
            instant = days &* NMEAParse.dayMilliseconds &+ epoch.timeOfDay
        } else if let reference {
            instant = NMEAParse.nearestInstant(timeOfDay: epoch.timeOfDay, reference: reference)
            if _slowPath(instant < reference &- NMEAReader.undatedBackwardsMilliseconds),
                holdsAsSecondLog(latitude: latitude, longitude: longitude, line: line, byteOffset: byteOffset)
            {
                return
            }
        } else if let millis = epoch.wrapperMillis ?? epoch.untimed.wrapperMillis {
            instant = NMEAParse.nearestInstant(timeOfDay: epoch.timeOfDay, reference: millis)
        } else {
            // No date yet: held to be dated from the first one (a log that opens with GGA before its first RMC).
            guard undated.count < NMEAReader.maximumUndatedEpochs else {
                tally.skip(.missingTime)
                return
            }
            undated.append((epoch, latitude, longitude, line, byteOffset))
            return
        }
        reference = instant
        if !undated.isEmpty { try releaseUndated() }
        try emitFixOfEpoch(
            latitude: latitude, longitude: longitude, line: line, byteOffset: byteOffset, instant: instant)
    }

    /// Turns ``epoch`` (closed, with its position and instant) into a fix: into ``ready``, or after the fixes
    /// waiting in ``released`` (always there when `held`, an epoch held for its date), or a counted skip.
    @inline(__always)
    private mutating func emitFixOfEpoch(
        latitude: Double, longitude: Double, line: Int, byteOffset: Int, instant: Int64, held: Bool = false
    ) throws(ReadError) {
        guard providerAllowed else {
            tally.skip(.providerFiltered)
            return
        }
        let accuracy: Double?
        if let sigmaLatitude = epoch.sigmaLatitude, let sigmaLongitude = epoch.sigmaLongitude {
            accuracy = (sigmaLatitude * sigmaLatitude + sigmaLongitude * sigmaLongitude).squareRoot()
        } else if let hdop = epoch.ggaHDOP ?? epoch.untimed.gsaHDOP {
            accuracy = options.hdop.accuracyMetres(hdop: hdop)
        } else {
            accuracy = nil
        }
        do {
            let fix = try Fix(
                timestamp: Timestamp(millisecondsSince1970: instant),
                latitude: latitude,
                longitude: longitude,
                horizontalAccuracyMetres: accuracy,
                altitudeMetres: epoch.altitude,
                verticalAccuracyMetres: epoch.sigmaAltitude,
                speedMetresPerSecond: epoch.rmcSpeed ?? epoch.untimed.vtgSpeed,
                courseDegrees: epoch.rmcCourse ?? epoch.untimed.vtgCourse,
                provider: .gps,
                satellitesUsed: epoch.satellites,
                isMocked: epoch.simulated ? true : nil)
            tally.fixesProduced += 1
            if held || !released.isEmpty { released.append(fix) } else { ready = fix }
        } catch {
            try tally.reject(
                .invalidFix(
                    SourceLocation(file: stream.name, line: line, column: 1, byteOffset: byteOffset),
                    error),
                lenient: options.lenient)
        }
    }

    /// Holds the closed GGA-only epoch, whose nearest instant lies more than ``undatedBackwardsMilliseconds`` before
    /// the last dated epoch, to be dated backwards from the next date, as at a log's start, and forgets the date
    /// (the epochs after it are held too): a second log joined after the first (its GGA before its first RMC was
    /// dated on the first log's day, hours back, and refused as out of order; a tester's). Returns `false` (date it
    /// as before) for an epoch a wrapper times (GnssLogger) or when the held epochs are at their limit. Out of line:
    /// rare.
    @inline(never)
    private mutating func holdsAsSecondLog(latitude: Double, longitude: Double, line: Int, byteOffset: Int) -> Bool {
        guard epoch.wrapperMillis == nil, epoch.untimed.wrapperMillis == nil,
            undated.count < NMEAReader.maximumUndatedEpochs
        else { return false }
        reference = nil
        undated.append((epoch, latitude, longitude, line, byteOffset))
        return true
    }

    /// How far (ms) before the last dated epoch a GGA-only epoch's nearest instant may lie and still be dated by it:
    /// one hour. Further back, it is a second log joined after the first, held to be dated from the next date.
    static let undatedBackwardsMilliseconds: Int64 = 3_600_000

    /// Dates the held undated epochs backwards from ``reference`` (each the instant of its time of day nearest the
    /// epoch after it: `235959` before `000001` is the day before) and queues their fixes in ``released``.
    private mutating func releaseUndated() throws(ReadError) {
        guard !undated.isEmpty, var after = reference else { return }
        var instants = [Int64](repeating: 0, count: undated.count)
        for k in undated.indices.reversed() {
            after = NMEAParse.nearestInstant(timeOfDay: undated[k].epoch.timeOfDay, reference: after)
            instants[k] = after
        }
        defer { undated.removeAll() }
        for k in undated.indices {
            // The held epoch is built in ``epoch``'s place (the open one is put back after it).
            swap(&epoch, &undated[k].epoch)
            defer { swap(&epoch, &undated[k].epoch) }
            try emitFixOfEpoch(
                latitude: undated[k].latitude, longitude: undated[k].longitude, line: undated[k].line,
                byteOffset: undated[k].byteOffset, instant: instants[k], held: true)
        }
    }
}
