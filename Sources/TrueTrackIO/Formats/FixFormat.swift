#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file format TrueTrack reads fixes from (and, for some, writes).
public enum FixFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Comma/semicolon/tab-separated text with a header naming the columns (also Sensor Logger exports and
    /// GSDC ground-truth files).
    case csv
    /// GPX 1.0 or 1.1.
    case gpx
    /// Garmin Training Center XML (`.tcx`: Garmin Connect, Strava and watch exports; read by ``GPXReader``).
    case tcx
    /// KML (`.kml`: Google Earth's tracks, `<gx:Track>`, and timed placemarks; read by ``KMLReader``).
    case kml
    /// NMEA 0183 sentences (also GnssLogger `NMEA,…` rows and gpsd logs).
    case nmea
    /// Android GnssLogger logs (`Fix` rows).
    case gnssLogger = "gnsslogger"
    /// IPIN "GetSensorData" logs (`GNSS;` rows).
    case ipin
    /// GeoLife `.plt` trajectories.
    case geolife = "plt"
    /// GeoJSON (Point features or a LineString with per-vertex times).
    case geojson
    /// JSON Lines, one fix object per line.
    case jsonLines = "jsonl"
    /// Google location history: a Takeout `Records.json` or the on-device `Timeline.json` export (read by
    /// ``GeoJSONReader``, see there).
    case locationHistory = "takeout"

    /// The name used on the command line (`--format`).
    public var description: String { rawValue }

    /// Whether the format's records may name their device, so that ``ReadOptions/devices`` picks one from a fleet's
    /// export: a CSV's device column, a JSON record's device member (GeoJSON, JSON Lines, Google location history).
    /// Every other format holds one device's fixes.
    public var namesDevices: Bool { self == .csv || self == .geojson || self == .jsonLines || self == .locationHistory }

    /// The formats TrueTrack can write.
    public static let writable: [FixFormat] = [.csv, .gpx, .geojson, .jsonLines]

    /// Parses a format name as given to `--from` / `--to` / `--format` (also common extensions such as
    /// `json`, `ndjson`, `txt` for GnssLogger is not guessed).
    public init?(name: String) {
        switch name.lowercased() {
        case "csv", "tsv": self = .csv
        case "gpx": self = .gpx
        case "tcx": self = .tcx
        case "kml": self = .kml
        case "nmea", "nmea0183": self = .nmea
        case "gnsslogger", "gnss-logger", "gnsslogger-fix": self = .gnssLogger
        case "ipin", "getsensordata": self = .ipin
        case "plt", "geolife": self = .geolife
        case "geojson": self = .geojson
        case "jsonl", "ndjson", "jsonlines", "json-lines": self = .jsonLines
        case "takeout", "google", "location-history", "locationhistory", "records", "timeline":
            self = .locationHistory
        default: return nil
        }
    }

    /// Guesses the format from the file name's extension alone (`nil` when the extension says nothing).
    public static func guess(fromExtensionOf path: String) -> FixFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "gpx": return .gpx
        case "tcx": return .tcx
        case "kml": return .kml
        case "nmea": return .nmea
        case "plt": return .geolife
        case "geojson": return .geojson
        case "jsonl", "ndjson": return .jsonLines
        case "csv", "tsv": return .csv
        default: return nil
        }
    }

    /// Recognises a format from the first bytes of a file (sniffing), or `nil` when nothing matches.
    ///
    /// Rules, in order: a GPX, TCX or KML root element; a GeoLife header; a GnssLogger `# Fix,` header; IPIN `GNSS;`
    /// rows; a JSON object first, unless a line of the sample starts with an NMEA sentence (gpsd's `gpspipe -w` and
    /// `-r` logs open with JSON reports and mix them with the sentences: NMEA): one naming `latitudeE7`, `rawSignals`
    /// or `semanticSegments` (Google location history), a JSON object per line (CRLF line endings too), a GeoJSON
    /// document; an array of records; an OwnTracks Recorder line; a header line with latitude and longitude columns;
    /// then GnssLogger `Fix,` rows, and NMEA sentences of any talker (`$GPRMC`, `$GNGGA`, `$GAGGA`, `$BDRMC`, also
    /// wrapped as `NMEA,$…`) anywhere in the sample (gpsd logs start with `#` comments and mix in binary).
    public static func sniff(_ sample: [UInt8]) -> FixFormat? {
        sniffing(sample).format
    }

    /// ``sniff(_:)``'s answer, and what the sample's line starts hold when it looked at them (a sample that starts with
    /// a JSON object; `nil` otherwise), for ``detect(path:explicit:)`` to ask again without another scan.
    static func sniffing(_ sample: [UInt8]) -> (format: FixFormat?, lineStarts: LineStarts?) {
        // The searches run over the bytes (the needles are ASCII). Foundation's `String.contains` over the decoded
        // 64 KiB cost about 8 M instructions per search, ~70 M per file opened: 20 ms per file for a batch of small
        // ones. It compared characters, so two rare files sniff differently now: a needle followed by a combining
        // mark (`<gpx` + U+0301) is found, and U+037E (Greek question mark, canonically `;`) is not a `;`.
        let bytes = sample.prefix(65_536)
        func has(_ needle: String) -> Bool { containsASCII(bytes, needle, ignoringCase: false) }
        func hasIgnoringCase(_ needle: String) -> Bool { containsASCII(bytes, needle, ignoringCase: true) }
        // (An XML document's root element decides: a GPX's description may quote `<kml`, a KML's `<gpx`, a CSV's note
        // either.)
        switch xmlRootName(bytes) {
        case "gpx": return (.gpx, nil)
        case "trainingcenterdatabase": return (.tcx, nil)
        case "kml": return (.kml, nil)
        default: break
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("Geolife trajectory") { return (.geolife, nil) }
        // (GnssLogger's own header, `# Fix,…`, or a file of its `Fix` rows under the GSDC's `MessageType` header.)
        if has("# Fix,") || text.hasPrefix("Fix,") || text.hasPrefix("MessageType,") { return (.gnssLogger, nil) }
        if text.hasPrefix("GNSS;") || has("\nGNSS;") || has("\nPOSI;") { return (.ipin, nil) }
        // (U+001E starts each record of a GeoJSON text sequence, RFC 8142: JSON Lines with a record separator.)
        let trimmed = text.drop {
            $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" || $0 == "\u{1E}"
        }
        // (A JSON value or a CSV header decides before an NMEA sentence or a `Fix,` row further down: an app's JSON
        // Lines may carry each fix's sentence in a member, a CSV's note column may quote one, an event column may
        // read `Fix`; a formats tester's files were read as NMEA and refused.)
        // (`isNewline`: in a CRLF file "\r\n" is one Character, neither "\n" nor "\r". Trailing blanks do not make a
        // JSON Lines record's line a longer JSON value: a tester's `}` + space was read as GeoJSON.)
        var firstLine = trimmed.prefix { !$0.isNewline }
        while firstLine.last == " " || firstLine.last == "\t" { firstLine.removeLast() }
        // (gpsd's `gpspipe -w` and `-r` logs open with its JSON reports, `{"class":"VERSION",…}`, and mix them with the
        // NMEA sentences: a line that starts with a sentence is no JSON's, whose lines start with a value, a member
        // name or a bracket. They were refused as JSON Lines: a formats tester's gpspipe logs.)
        if trimmed.hasPrefix("{") {
            // (The line starts once, for the sentences and for the objects: the NMEA test alone scanned all of a JSON
            // file's sample, and the object lines were scanned again.)
            let lineStarts = LineStarts(bytes, sample: sample)
            if lineStarts.hasNMEASentence { return (.nmea, nil) }
            if has("\"latitudeE7\"") || has("\"rawSignals\"") || has("\"semanticSegments\"") {
                // Takeout's records one per line (`jq -c '.locations[]'`) are JSON Lines (read with its names);
                // pretty-printed (`jq .`, `jq '.locations[]'`: a first line that is no whole object) they are
                // documents.
                let isJSONLines =
                    has("\"latitudeE7\"") && firstLine.hasSuffix("}") && lineStarts.hasSeveralObjectLines
                return (isJSONLines ? .jsonLines : .locationHistory, lineStarts)
            }
            if containsASCII(ArraySlice(firstLine.utf8), "\"type\"", ignoringCase: false)
                && (hasIgnoringCase("featurecollection") || hasIgnoringCase("\"feature\"")
                    || hasIgnoringCase("\"linestring\"") || hasIgnoringCase("\"point\""))
                && !firstLine.hasSuffix("}")
            {
                return (.geojson, lineStarts)
            }
            if firstLine.hasSuffix("}") && !hasIgnoringCase("featurecollection") && !holdsRecordArrays(sample) {
                return (.jsonLines, lineStarts)
            }
            return (.geojson, lineStarts)
        }
        // (An array of records; not a log whose lines start with a bracketed time, `[2024-05-01 10:00:00] $GPRMC…`.)
        if trimmed.hasPrefix("["),
            let next = trimmed.dropFirst().first(where: { !($0 == " " || $0 == "\t" || $0.isNewline) }),
            next == "{" || next == "]"
        {
            return (.geojson, nil)
        }
        // (The OwnTracks Recorder's `.rec` lines: a time, a tab, a topic, a tab and the message's JSON. Its JSON names
        // `lat` and `lon`, which a CSV header's check below would take.)
        if let digit = firstLine.utf8.first, digit &- 48 < 10,
            containsASCII(ArraySlice(firstLine.utf8), "\t{", ignoringCase: false)
        {
            return (.jsonLines, nil)
        }
        // (Excel's `sep=;` line before the header names the delimiter: the header is the line after it.)
        var headerText = text.drop { $0 == "\u{FEFF}" }
        if CSVReader.declaredDelimiter(ArraySlice(headerText.prefix { !$0.isNewline }.utf8)) != nil {
            headerText = headerText.drop { !$0.isNewline }.drop { $0.isNewline }
        }
        let header = ArraySlice(headerText.prefix { !$0.isNewline }.utf8)
        if containsASCII(header, "lat", ignoringCase: true)
            && (containsASCII(header, "lon", ignoringCase: true) || containsASCII(header, "lng", ignoringCase: true))
            && header.first != UInt8(ascii: "$")
        {
            return (.csv, nil)
        }
        if has("\nFix,") { return (.gnssLogger, nil) }
        if containsNMEASentence(bytes) { return (.nmea, nil) }
        return (nil, nil)
    }

    /// The local name of the first element of an XML document in `bytes`, lower-cased (`gpx`, `kml`), or `nil` when
    /// `bytes` do not start as XML: white space, a byte-order mark, the XML declaration, comments, processing
    /// instructions and a DOCTYPE may come before it.
    static func xmlRootName(_ bytes: ArraySlice<UInt8>) -> String? {
        var i = bytes.startIndex
        let end = bytes.endIndex
        func skip(past terminator: [UInt8]) -> Bool {
            while i + terminator.count <= end {
                if bytes[i..<(i + terminator.count)].elementsEqual(terminator) {
                    i += terminator.count
                    return true
                }
                i += 1
            }
            return false
        }
        while i < end {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0xEF || b == 0xBB || b == 0xBF {
                i += 1
                continue
            }
            guard b == UInt8(ascii: "<"), i + 1 < end else { return nil }
            if bytes[(i + 1)...].starts(with: "!--".utf8) {
                guard skip(past: Array("-->".utf8)) else { return nil }
            } else if bytes[(i + 1)...].starts(with: "!DOCTYPE".utf8),
                let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")),
                bytes[i..<close].contains(UInt8(ascii: "["))
            {
                guard skip(past: Array("]>".utf8)) else { return nil }  // (an internal subset holds `>`s)
            } else if bytes[i + 1] == UInt8(ascii: "?") || bytes[i + 1] == UInt8(ascii: "!") {
                guard skip(past: [UInt8(ascii: ">")]) else { return nil }
            } else {
                var k = i + 1
                while k < end, XMLBytes.isNameChar(bytes[k]) { k += 1 }
                guard k > i + 1 else { return nil }
                var name = bytes[(i + 1)..<k]
                if let colon = name.lastIndex(of: UInt8(ascii: ":")) { name = name[(colon + 1)...] }
                return String(decoding: name, as: UTF8.self).lowercased()
            }
        }
        return nil
    }

    /// Whether `bytes` contain `needle`'s UTF-8 bytes, optionally ignoring the case of ASCII letters (the needles
    /// of ``sniff(_:)`` are ASCII: a byte search finds them exactly where the decoded text holds them).
    static func containsASCII<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, _ needle: String, ignoringCase: Bool
    ) -> Bool where Bytes.Index == Int {
        func folded(_ b: UInt8) -> UInt8 { ignoringCase && b >= 65 && b <= 90 ? b | 0x20 : b }
        let pattern = needle.utf8.map(folded)
        guard let first = pattern.first, pattern.count <= bytes.count else { return pattern.isEmpty }
        var i = bytes.startIndex
        let last = bytes.endIndex - pattern.count
        while i <= last {
            if folded(bytes[i]) == first {
                var k = 1
                while k < pattern.count && folded(bytes[i + k]) == pattern[k] { k += 1 }
                if k == pattern.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Whether a line of `sample` holds a document of records rather than one record: an object with a `location` or
    /// `locations` member holding an array of objects (or an empty one) and no position of its own. TransistorSoft's
    /// HTTP body of a batch, `{"location": [{…}, …]}`, Overland's `{"locations": [{"type": "Feature", …}, …]}`,
    /// OwnTracks' `ocat` export `{"count": 2, "locations": [{…}, …]}`: documents even when written on one line, read
    /// by ``GeoJSONReader`` (a file of such lines, a log of batch bodies, is a sequence of documents; its first
    /// line may be an empty batch or a single location). A record that has a position and such a member (a place's
    /// `locations: [{"name": …}]`) is JSON Lines' record; members nested deeper do not count.
    static func holdsRecordArrays(_ sample: [UInt8]) -> Bool {
        var start = 0
        while start < sample.count {
            let end = sample[start...].firstIndex(of: 0x0A) ?? sample.count
            var k = start
            while k < end,
                sample[k] == 0x20 || sample[k] == 0x09 || sample[k] == 0x0D || sample[k] == 0x1E
                    || sample[k] == 0xEF || sample[k] == 0xBB || sample[k] == 0xBF
            {
                k += 1
            }
            if k < end, sample[k] == UInt8(ascii: "{"), opensRecordArray(sample[k..<end]) { return true }
            start = end + 1
        }
        return false
    }

    /// Member names that give a JSON record its own position (lower-cased): see ``opensRecordArray(_:)``.
    static let recordPositionNames: Set<String> = [
        "lat", "latitude", "lon", "lng", "long", "longitude", "coords", "coordinates", "geometry", "latitudee7",
    ]

    /// Whether the object `bytes` opens (from its `{`) has, among its own members, a `location` or `locations`
    /// array of objects (or an empty one) and no position (see ``holdsRecordArrays(_:)``).
    static func opensRecordArray(_ bytes: ArraySlice<UInt8>) -> Bool {
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var i = bytes.startIndex + 1, depth = 1
        var hasRecordArray = false
        /// The last string that ended at depth 1 (a member name when `:` follows).
        var lastString: ArraySlice<UInt8> = []
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let start = i + 1
                i += 1
                while i < bytes.endIndex && bytes[i] != UInt8(ascii: "\"") {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1 { lastString = bytes[start..<min(i, bytes.endIndex)] }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return hasRecordArray }
            case UInt8(ascii: ":") where depth == 1:
                let name = String(decoding: lastString, as: UTF8.self).lowercased()
                if recordPositionNames.contains(name) { return false }
                guard name == "location" || name == "locations" else { break }
                var k = i + 1
                while k < bytes.endIndex && isBlank(bytes[k]) { k += 1 }
                guard k < bytes.endIndex, bytes[k] == UInt8(ascii: "[") else { break }
                k += 1
                while k < bytes.endIndex && isBlank(bytes[k]) { k += 1 }
                if k < bytes.endIndex, bytes[k] == UInt8(ascii: "{") || bytes[k] == UInt8(ascii: "]") {
                    hasRecordArray = true
                }
            default:
                break
            }
            i += 1
        }
        return hasRecordArray
    }

    /// Whether more than one line of `sample` starts (after spaces, tabs and carriage returns) with `{`.
    static func hasSeveralObjectLines(_ sample: [UInt8]) -> Bool {
        LineStarts(sample[...], findingSentences: false).hasSeveralObjectLines
    }

    /// What the starts of a sample's lines hold, found in one scan: objects (`{` after spaces, tabs and carriage
    /// returns) and NMEA position sentences (``containsNMEASentence(_:)``, after spaces and tabs).
    struct LineStarts {
        /// Whether more than one line starts with `{` (before the first sentence, when ``hasNMEASentence``).
        private(set) var hasSeveralObjectLines = false
        /// Whether a line starts with an NMEA position sentence (gpsd's `gpspipe -w` and `-r` logs mix the sentences
        /// with its JSON reports).
        private(set) var hasNMEASentence = false

        /// Scans the lines of `bytes` up to the first sentence, or the second object line when `findingSentences` is
        /// `false` (the sentences are not looked for). When `sample` holds more than `bytes` (a prefix of it), the
        /// object lines are counted over all of it, as ``FixFormat/hasSeveralObjectLines(_:)`` does.
        init(_ bytes: ArraySlice<UInt8>, sample: [UInt8]? = nil, findingSentences: Bool = true) {
            var objectLines = 0
            var atObjectStart = true
            var atSentenceStart = findingSentences
            var i = bytes.startIndex
            while i < bytes.endIndex {
                let b = bytes[i]
                if b == 0x0A {
                    atObjectStart = true
                    atSentenceStart = findingSentences
                } else {
                    if atSentenceStart, b != 0x20, b != 0x09 {
                        atSentenceStart = false
                        if b == UInt8(ascii: "$"),
                            FixFormat.containsNMEASentence(bytes[i..<min(i + 6, bytes.endIndex)])
                        {
                            hasNMEASentence = true
                            return
                        }
                    }
                    if atObjectStart, b != 0x20, b != 0x09, b != 0x0D {
                        atObjectStart = false
                        if b == UInt8(ascii: "{"), !hasSeveralObjectLines {
                            objectLines += 1
                            if objectLines > 1 {
                                hasSeveralObjectLines = true
                                if !findingSentences { return }
                            }
                        }
                    }
                }
                i += 1
            }
            if !hasSeveralObjectLines, let sample, sample.count > bytes.count {
                hasSeveralObjectLines = FixFormat.hasSeveralObjectLines(sample)
            }
        }
    }

    /// The NMEA position sentence types (``containsNMEASentence(_:)``): RMC, GGA, GLL, VTG.
    static let positionSentenceTypes: [(UInt8, UInt8, UInt8)] = [
        (82, 77, 67), (71, 71, 65), (71, 76, 76), (86, 84, 71),
    ]

    /// Whether `bytes` hold an NMEA position sentence of any talker: `$` then two capital letters (GP, GN,
    /// GL, GA for Galileo, GB or BD for BeiDou, QZ, GI…) then RMC, GGA, GLL or VTG.
    static func containsNMEASentence(_ bytes: ArraySlice<UInt8>) -> Bool {
        func isCapital(_ b: UInt8) -> Bool { b >= 65 && b <= 90 }
        var i = bytes.startIndex
        while i + 5 < bytes.endIndex {
            if bytes[i] == 36, isCapital(bytes[i + 1]), isCapital(bytes[i + 2]),  // "$"
                positionSentenceTypes.contains(where: { $0 == (bytes[i + 3], bytes[i + 4], bytes[i + 5]) })
            {
                return true
            }
            i += 1
        }
        return false
    }

    /// Decides the format of a file: `explicit` when given, else sniffing the first 64 KiB, else the extension.
    /// Between the two JSON formats the extension decides when it names one (`.jsonl` / `.ndjson`, `.geojson`)
    /// and the sample holds a single line of JSON: a one-line GeoJSON feature looks like a JSON Lines file to the
    /// sniff. Several lines of objects are JSON Lines whatever the name (newline-delimited GeoJSON), and documents
    /// of records (``holdsRecordArrays(_:)``) are read as documents whatever the name.
    ///
    /// - Throws: ``ReadError/unsupportedFormat(path:reason:)`` when nothing recognises it,
    ///   ``ReadError/io(path:message:)`` when it cannot be read.
    public static func detect(path: String, explicit: FixFormat? = nil) throws(ReadError) -> FixFormat {
        if let explicit {
            // (An archive or a binary format is named even when a text format is asked for: a gzipped GPX read as
            // GPX was "expected a <gpx> root element, found \x1F\x8B…", with --lenient suggested.)
            // (Its magic numbers only: the first 16 bytes.)
            if path != "-", let head = try? leadingBytes(ofRegularFile: path, count: 16),
                let reason = binaryReason(head)
            {
                throw .unsupportedFormat(path: path, reason: reason)
            }
            return explicit
        }
        if path == "-" {
            throw .unsupportedFormat(path: "<stdin>", reason: "cannot sniff standard input: give --format")
        }
        let sample = try leadingBytes(ofRegularFile: path)
        if let reason = utf16Reason(sample) { throw .unsupportedFormat(path: path, reason: reason) }
        if let reason = otherXMLReason(sample) { throw .unsupportedFormat(path: path, reason: reason) }
        let byExtension = guess(fromExtensionOf: path)
        let (format, lineStarts) = sniffing(sample)
        if let sniffed = format {
            let json: Set<FixFormat> = [.geojson, .jsonLines]
            // Only for a single JSON value on one line: several lines of objects are JSON Lines whatever the
            // name (newline-delimited GeoJSON, one feature per line, is often named .geojson). And not for
            // documents of records (a batch body `{"location": […]}`), which only the document reader reads.
            if json.contains(sniffed), let byExtension, json.contains(byExtension),
                !(lineStarts?.hasSeveralObjectLines ?? hasSeveralObjectLines(sample)), !holdsRecordArrays(sample)
            {
                return byExtension
            }
            return sniffed
        }
        if let reason = binaryReason(sample) { throw .unsupportedFormat(path: path, reason: reason) }
        if let byExtension { return byExtension }
        throw .unsupportedFormat(
            path: path,
            reason:
                "unrecognised format (none of: \(FixFormat.allCases.map(\.rawValue).joined(separator: ", "))); give --format"
        )
    }

    /// Why a file cannot be read when it is an XML document of another kind than GPX, TCX or KML (its root element),
    /// or `nil`. Why: an OpenStreetMap file, whose nodes' `lat="…" lon="…"` attributes made its first line look like a
    /// CSV header, was refused for a CSV header it lacked (a CLI tester's); a web page saved in place of a download
    /// is HTML.
    static func otherXMLReason(_ sample: [UInt8]) -> String? {
        let bytes = sample.prefix(65_536)
        // (An element closed, `</…` or `…/>`, as XML does: a CSV whose header began `<time>` is no document.)
        guard let root = xmlRootName(bytes), !["gpx", "trainingcenterdatabase", "kml"].contains(root),
            containsASCII(bytes, "</", ignoringCase: false) || containsASCII(bytes, "/>", ignoringCase: false)
        else { return nil }
        let what =
            switch root {
            case "osm": "an OpenStreetMap file (<osm>: map data, not a recording)"
            case "html": "an HTML page (a web page saved in place of the file it links to?)"
            default: "an XML document whose root element is <\(root)>"
            }
        return "\(what): TrueTrack reads XML as GPX (<gpx>), TCX (<TrainingCenterDatabase>) or KML (<kml>); give "
            + "--format if the file is of another format that only looks like XML"
    }

    /// Why a file cannot be read when it is UTF-16 text (a byte-order mark, or a NUL beside every ASCII byte),
    /// or `nil`. Why: a batch tester's UTF-16 CSV was sniffed as CSV and refused for a header shown as
    /// `\xFF\xFEt\x00i\x00…`.
    static func utf16Reason(_ sample: [UInt8]) -> String? {
        let head = sample.prefix(64)
        let bom16 = head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF])
        let pairs = head.count / 2
        let interleaved =
            pairs >= 8
            && (0..<pairs).allSatisfy { k in
                let a = head[head.startIndex + 2 * k], b = head[head.startIndex + 2 * k + 1]
                return (a == 0) != (b == 0)
            }
        guard bom16 || interleaved else { return nil }
        return "UTF-16 text: TrueTrack reads UTF-8 (or ASCII); convert it first, e.g. "
            + "iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8"
    }

    /// Why a file cannot be read when it is an archive or a binary format (by its leading bytes), or `nil`: a ZIP
    /// archive (a KMZ, Google Earth's zipped KML, or a zipped export), gzip, bzip2 or xz compression (Strava's bulk
    /// export is `.gpx.gz` and `.fit.gz`), or a Garmin FIT file. Each says what to run instead; a compressed file
    /// was "unrecognised format: give --format", which no format could help.
    static func binaryReason(_ sample: [UInt8]) -> String? {
        if sample.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "a ZIP archive (a KMZ, or a zipped export): unzip it and read the file inside (a KMZ's doc.kml), "
                + "e.g. unzip -p FILE.kmz doc.kml > FILE.kml"
        }
        if sample.starts(with: [0x1F, 0x8B]) {
            return "gzip-compressed: decompress it first (gunzip -k FILE.gz, or gzip -dc FILE.gz > FILE) and read the "
                + "file inside (a .fit.gz holds a Garmin FIT file, which TrueTrack does not read)"
        }
        if sample.starts(with: Array("BZh".utf8)), sample.count > 3, (0x31...0x39).contains(sample[3]) {
            return "bzip2-compressed: decompress it first (bunzip2 -k FILE.bz2) and read the file inside"
        }
        if sample.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            return "xz-compressed: decompress it first (unxz -k FILE.xz) and read the file inside"
        }
        // FIT: a header of 12 or 14 bytes whose bytes 8-11 are ".FIT".
        if sample.count >= 12, sample[0] == 12 || sample[0] == 14, sample[8..<12].elementsEqual(Array(".FIT".utf8)) {
            return "a Garmin FIT file (binary), which TrueTrack does not read: convert it to GPX first, e.g. "
                + "gpsbabel -i garmin_fit -f FILE.fit -o gpx -F FILE.gpx"
        }
        return nil
    }

    /// What Google semantic timeline export the file at `path` is, by a key in its first 64 KiB
    /// (``leadingBytes(ofRegularFile:count:)``: a regular file only, never a pipe read again): the iPhone's on-device
    /// export (a top-level array of segments with `timelinePath` points `"geo:…"` at minute offsets) or Takeout's
    /// Semantic Location History (`timelineObjects` of `activitySegment` and `placeVisit`); `nil` for neither, or a
    /// file that cannot be read again (standard input, a pipe). For the message of a file that gave no fixes.
    public static func semanticTimelineKind(ofFileAt path: String) -> String? {
        guard path != "-", let bytes = try? leadingBytes(ofRegularFile: path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("\"timelinePath\"") || text.contains("\"durationMinutesOffsetFromStartTime\"") {
            return "a Google Timeline export from an iPhone (segments of visits, activities and timelinePath)"
        }
        if text.contains("\"timelineObjects\"") || text.contains("\"activitySegment\"")
            || text.contains("\"placeVisit\"")
        {
            return "a Takeout Semantic Location History (timelineObjects)"
        }
        return nil
    }

    /// The first `count` bytes (64 KiB by default) of the regular file at `path`, its lines ended as the readers will
    /// see them: what the format sniff reads, and what ``DeclaredActivity`` looks in.
    ///
    /// - Throws: ``ReadError/io(path:message:)`` for a directory or a file that cannot be read,
    ///   ``ReadError/unsupportedFormat(path:reason:)`` for a pipe or a device.
    static func leadingBytes(ofRegularFile path: String, count: Int = 65_536) throws(ReadError) -> [UInt8] {
        // Sniffing reads the first bytes and the reader opens the file again: a pipe or a device would lose
        // what the sniff consumed (and opening a FIFO blocks until a writer comes). Only a regular file can be
        // sniffed; the check uses the path, before any open.
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw .io(path: path, message: "is a directory") }
            throw .unsupportedFormat(path: path, reason: "cannot sniff the format of a pipe or device: give --format")
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        defer { close(fd) }
        var sample = [UInt8](repeating: 0, count: count)
        let n = sample.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n >= 0 else { throw .io(path: path, message: String(cString: strerror(errno))) }
        sample.removeSubrange(n...)
        // Lines end as the reader will see them (ByteStream turns a lone CR into an LF): an IPIN log with
        // classic Mac endings was "unrecognised".
        sample.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            _ = ByteStream.endLinesAtLoneCarriageReturns(base, from: 0, to: bytes.count, isFinal: true)
        }
        return sample
    }
}
