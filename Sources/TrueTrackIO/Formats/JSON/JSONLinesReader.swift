import TrueTrackCore

/// Reads fixes from JSON Lines (one JSON object per line, `.jsonl` / `.ndjson`), streaming.
///
/// Each line is an object with the canonical keys (`time`, `latitude`, `longitude`, `accuracy_m`,
/// `altitude_m`, `vertical_accuracy_m`, `speed_mps`, `speed_accuracy_mps`, `course_deg`,
/// `course_accuracy_deg`, `provider`, `satellites`, `mocked`, `activity`, `activity_confidence`) or their
/// aliases (`lat`, `lon`/`lng`, `timestamp`, `accuracy`, `speed`, `bearing`…); the values follow the rules
/// of ``GeoJSONReader`` (times as ISO 8601 or Unix seconds / milliseconds, numbers also as strings, `null`
/// for absent). A line may also be a GeoJSON Feature (GeoJSON text sequences, RFC 8142, whose leading
/// record separator `0x1E` is accepted), read like a feature of ``GeoJSONReader``. A line's fields may also sit one
/// level down, in `coords` or `location`, for a record without a position of its own (a web app's serialised W3C
/// `GeolocationPosition`, TransistorSoft's records); an OwnTracks message is read by its short names when its
/// `_type` is `location` (`tst`, `acc`, `vac`, `vel` in km/h, `cog`) and skipped as ``SkipReason/otherRecord``
/// otherwise, and the OwnTracks Recorder's `.rec` lines (a time, a tab, the topic, a tab, the message) are read
/// from their JSON. An `hdop` and Overland's `motion` are read as ``GeoJSONReader`` reads them.
///
/// Blank lines are skipped (``SkipReason/blank``). A line that is not one valid JSON object, or holds a
/// value of the wrong kind, throws a ``ReadError`` naming its line and column; in lenient mode it is
/// counted and skipped, and reading resumes at the next line.
///
/// - Complexity: O(n) in the input size; memory one chunk plus the longest line.
public struct JSONLinesReader: FixReader, ByteStreamReader {
    var decoder: JSONFixDecoder
    /// True until the first non-blank line, whose names decide whether Takeout's are fields.
    var isBeforeFirstRecord = true
    let stream: ByteStream

    /// Creates a reader over `stream`.
    ///
    /// - Parameter options: leniency and provider filter (defaults: strict, all providers).
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        self.stream = stream
        decoder = JSONFixDecoder(tokens: JSONTokenizer(lineSourceNamed: stream.name), options: options)
    }

    /// The `segment` member of the line the most recently returned fix came from (``JSONLinesWriter`` writes it
    /// when it keeps segments, as `truetrack convert` of a GPX does); `nil` without one. A change of value between
    /// two fixes marks a segment break, as ``GPXReader/lastSegmentIndex`` does.
    /// (Read from the record still held, which is the returned fix's until the next line begins.)
    public var lastSegmentIndex: Int? { decoder.report.fixesProduced > 0 ? decoder.record.segment : nil }

    /// What the reader has seen so far (``ReadReport/recordsRead`` counts lines).
    public var report: ReadReport {
        var report = decoder.report
        report.bytesRead = stream.bytesConsumed
        return report
    }

    /// How many records the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { decoder.report.recordsRead }

    /// Where the JSON object of an OwnTracks Recorder `.rec` line starts (after the line's time and topic, each
    /// ended by a tab: `2024-05-01T10:00:00Z\t*                 \t{"_type":"location",…}`), or `nil` when the line
    /// is not one (it must start with a digit and hold a tab followed by `{`).
    static func recorderRecordStart(_ line: ByteStream.Line) -> Int? {
        let p = line.bytes
        guard line.start < line.end, p[line.start] &- 48 < 10 else { return nil }
        var k = line.start
        while k + 1 < line.end {
            if p[k] == 0x09, p[k + 1] == UInt8(ascii: "{") { return k + 1 }
            k += 1
        }
        return nil
    }

    /// The devices the records name (a `deviceId`, `device_id`, `device`, `imei`, `uniqueId` or Google's `deviceTag`
    /// member, a string or a number; a record's first such member), in the order of their first record that gave a
    /// fix, with the fixes read of each so far (in a census, ``DeviceSelection/all``, a record naming none counts with
    /// the device before it). A file naming a second device ends at its first record with
    /// ``ReadError/severalDevices(_:field:devices:)`` unless ``ReadOptions/devices`` keeps one (the others' records,
    /// and those naming none, skipped as ``SkipReason/deviceFiltered``) or all of them.
    public var devices: [(id: String, fixes: Int)] {
        decoder.devices.counts(fixesProduced: decoder.report.fixesProduced)
    }

    /// Returns the next fix, or `nil` at the end of the input.
    ///
    /// - Throws: ``ReadError`` at the first bad line (unless lenient), and I/O errors.
    public mutating func next() throws(ReadError) -> Fix? {
        // (After a second device in a file read as one device's: nothing read after it is one track.)
        if decoder.endedAtSecondDevice { return nil }
        while true {
            if decoder.isEmitting {
                if let fix = try decoder.nextVertexFix() { return fix }
                continue
            }
            guard var line = try stream.nextLine() else { return nil }
            decoder.report.recordsRead += 1
            // Blank (whitespace only) lines, and the RFC 8142 record separator.
            var s = line.start
            while s < line.end {
                let b = line.bytes[s]
                guard b == 0x20 || b == 0x09 || b == 0x0D || b == 0x1E else { break }
                s += 1
            }
            if s == line.end {
                decoder.report.skip(.blank)
                continue
            }
            if line.bytes[line.start] == 0x1E {
                line.byteOffset += 1
                line.start += 1
            } else if line.bytes[s] != UInt8(ascii: "{"), let json = JSONLinesReader.recorderRecordStart(line) {
                // The OwnTracks Recorder's `.rec` lines: `2024-05-01T10:00:00Z`, a tab, `*` and blanks, a tab, then
                // the message's JSON, which is the record.
                line.byteOffset += json - line.start
                line.start = json
            }
            // Google Takeout's records one per line (`jq -c '.locations[]'` of `Records.json`): its names are fields
            // when the first record has `latitudeE7` and `longitudeE7` (decided there, for the file: another
            // exporter's record may carry such a name among its own fields; see `JSONFixDecoder.readsLocationHistory`).
            if isBeforeFirstRecord {
                isBeforeFirstRecord = false
                let bytes = line.bytes[line.start..<line.end]
                decoder.readsLocationHistory =
                    FixFormat.containsASCII(bytes, "\"latitudeE7\"", ignoringCase: false)
                    && FixFormat.containsASCII(bytes, "\"longitudeE7\"", ignoringCase: false)
            }
            decoder.tokens.reset(line: line)
            do throws(ReadError) {
                let t = try decoder.tokens.next()
                guard t == .beginObject else {
                    throw ReadError.malformedRecord(
                        decoder.tokens.tokenLocation, expected: "a JSON object",
                        found: decoder.describe(t))
                }
                decoder.beginRecord()
                try decoder.decodeObject(scope: .record)
                _ = try decoder.tokens.next()  // .end, or an error for bytes after the object
            } catch {
                try decoder.report.reject(error, lenient: decoder.options.lenient)
                continue
            }
            if let fix = try decoder.finishRecord() { return fix }
        }
    }
}
