import TrueTrackCore

/// Reads fixes from a GeoJSON (RFC 7946) document, streaming: a 1 GB FeatureCollection is read in one
/// ``ByteStream`` chunk of memory.
///
/// Accepted documents:
/// - a `FeatureCollection` (its `features` streamed one at a time), a single `Feature`, a bare geometry,
///   or a top-level array of Features;
/// - **Point features** whose `properties` hold the fix fields under the canonical names (`time`, `accuracy_m`,
///   `altitude_m`, `vertical_accuracy_m`, `speed_mps`, `speed_accuracy_mps`, `course_deg`, `course_accuracy_deg`,
///   `provider`, `satellites`, `mocked`, `activity`, `activity_confidence`) or the usual aliases (`timestamp`,
///   `accuracy`, `speed`, `bearing`/`course`, `altitude`/`ele`, a third coordinate…; names match case-insensitively
///   with `_` and `-` ignored), with coordinates `[longitude, latitude, altitude?]`;
/// - **LineString / MultiLineString / MultiPoint features** whose `properties` hold per-vertex times:
///   `times` or `coordTimes` (togeojson, Strava), or `coordinateProperties.times`, as ISO 8601 strings
///   or Unix seconds / milliseconds (10^11 and above is milliseconds). Nested arrays are flattened in
///   order on both sides, so the parts of a MultiLineString make one segment. A vertex whose time is `null`
///   is no fix (``SkipReason/missingTime``); one at longitude exactly ±180 is not even counted: it is where a
///   line crossing the antimeridian was cut (RFC 7946 §3.1.9), which ``GeoJSONWriter`` marks so, and a file
///   it wrote reads back to the fixes written, without the cut vertices.
///
/// Also **Google location history**: a Takeout `Records.json` (`{"locations": [{"latitudeE7": …, "longitudeE7": …,
/// "accuracy": …, "velocity": …, "heading": …, "altitude": …, "verticalAccuracy": …, "source": "GPS",
/// "activity": […], "timestamp": … or "timestampMs": …}, …]}`) and the on-device `Timeline.json` export, whose
/// `rawSignals` entries with a `position` (`LatLng` `"48.1°, 11.5°"`, `accuracyMeters`, `altitudeMeters`,
/// `speedMetersPerSecond`, `source`, `timestamp`) are fixes (its other entries, activity records and Wi-Fi scans,
/// are skipped as ``SkipReason/otherRecord``; its `semanticSegments`, Google's visits and paths, are not
/// fixes). `source` `WIFI` and `CELL` read as ``Provider/network``; `activity` takes the newest reading's most
/// confident type (`IN_ROAD_VEHICLE`, `IN_CAR`, `IN_BUS`… are in a vehicle) with its confidence.
///
/// Also records whose fields are one level down: the **W3C Geolocation API**'s `GeolocationPosition` as a web app
/// serialises it (`{"timestamp": 1714557600000, "coords": {"latitude": …, "longitude": …, "accuracy": …,
/// "speed": …, "heading": …, "altitude": …, "altitudeAccuracy": …}}`), and **TransistorSoft's
/// background-geolocation** records (the same `coords`, an ISO `timestamp`, `activity` as `{"type": "on_foot",
/// "confidence": 100}`), one, an array of them, or its HTTP body `{"location": {…}}` / `{"location": [{…}, …]}`.
/// And **Traccar positions** (its API's JSON, `/api/positions`: `deviceId`, `protocol`, `fixTime`, `deviceTime`,
/// `serverTime`, `valid`, `speed` in knots…): the fix's time is `fixTime` (else `deviceTime`, else `serverTime`), the
/// speed is converted from knots, and a position whose `valid` is false (a repeat without a new fix) is skipped as
/// ``SkipReason/noFix``, as in ``CSVReader``'s Traccar export.
///
/// A file may hold several such documents one after another (whitespace or an RFC 7464 record separator between
/// them): `jq`'s output of records, pretty-printed or one per line, and a log of batch bodies
/// (`{"location": […]}` or OwnTracks' `{"count": …, "locations": […]}` per line) read as one stream.
///
/// Members may come in any order and unknown members (any nesting) are skipped. A feature without a time
/// is skipped as ``SkipReason/missingTime``, one without a position as ``SkipReason/missingPosition``.
///
/// Errors: a value of the wrong kind or an out-of-range coordinate rejects the feature (lenient mode
/// counts it and goes on); broken JSON syntax ends reading with the error in both modes, since no later
/// feature boundary can be trusted.
///
/// - Complexity: O(n) in the input size; memory one chunk plus, for a multi-position feature, its
///   positions and times (56 bytes each, at most 2 Mi positions per feature, beyond which the feature is
///   rejected), since GeoJSON may put the times before or after the coordinates.
///
/// Values: numbers may be strings (`"4.5"`), `null` and `""` are absent; invalid accuracy (`0`, `-1`)
/// reads as ``HorizontalAccuracy/invalid``; an `hdop` gives the accuracy of a record that states none
/// (``ReadOptions/hdop``); `activity` without `activity_confidence` gets confidence 100, Overland's `motion` array
/// is read as the activity (`["walking"]` at confidence 100, several named at 50, `stationary` first);
/// a LineString's vertices take the feature's provider, mocked flag and activity.
public struct GeoJSONReader: FixReader, ByteStreamReader {
    enum Phase {
        case start, rootObject, features, rootArray, trailing, finished
    }

    var decoder: JSONFixDecoder
    var phase = Phase.start
    var sawFeatures = false
    /// True while reading a Timeline's `rawSignals`, whose entries without a position are other records.
    var inRawSignals = false
    /// Whether a document's root object is itself a Takeout record (``FixFormat/locationHistory``: `jq
    /// '.locations[]'` of a `Records.json`, one record after another), whose names (`latitudeE7`…) are then fields.
    var rootRecordsAreLocationHistory = false
    /// True when the `{` of the first record of a `location` array has been read (to tell it from a position).
    var recordStarted = false
    /// The error that ended the input inside a LineString feature, thrown once the positions read with their
    /// times are returned (see ``next()``).
    var endOfInput: ReadError?
    /// The root object's members read so far when it is itself a record (a Feature, a geometry, a record of `jq`'s
    /// output): a second member of a position meaning is the record's error, as in
    /// ``JSONFixDecoder/decodeObject(scope:)``.
    var rootMembers = JSONMemberSet()

    /// Creates a reader over `stream`.
    ///
    /// - Parameter options: leniency and provider filter (defaults: strict, all providers).
    public init(stream: ByteStream, options: ReadOptions = ReadOptions()) {
        var tokens = JSONTokenizer(stream: stream)
        tokens.readsValueSequence = true
        decoder = JSONFixDecoder(tokens: tokens, options: options)
    }

    /// Whether a feature with a line (LineString, MultiLineString, MultiPoint) has been read: then every feature is
    /// a segment of the track, as ``GeoJSONWriter``'s `--lines` writes them (a segment of one fix a Point); in a
    /// file of Point features alone each is a fix, and no segment is told.
    var hasLineFeatures = false
    /// The feature (0-based) the line being emitted comes from, and the one the last fix came from.
    var emittingFeature = 0, featureOfLastFix = 0

    /// The segment the most recently returned fix came from: its feature's index once the file has shown a line
    /// feature (each feature a segment: a multi-segment track written with `--lines` read back with its breaks, a
    /// formats tester's three segments read as one before), else its record's `segment` member as
    /// ``JSONLinesReader`` reads it (records one after another, `jq`'s pretty-printed JSON Lines), `nil` otherwise.
    public var lastSegmentIndex: Int? {
        if hasLineFeatures { return featureOfLastFix }
        // (Read from the record still held, which is the returned fix's until the next record begins.)
        return decoder.report.fixesProduced > 0 ? decoder.record.segment : nil
    }

    /// What the reader has seen so far (``ReadReport/recordsRead`` counts features).
    public var report: ReadReport {
        var report = decoder.report
        report.bytesRead = decoder.tokens.offset
        return report
    }

    /// How many records the reader has read so far (``report``'s ``ReadReport/recordsRead``).
    public var recordsRead: Int { decoder.report.recordsRead }

    /// Starts a document at its first token `t`: an object (a collection, a feature, a record) or an array of them;
    /// `false` for any other token.
    mutating func beginDocument(_ t: JSONTokenizer.Token) -> Bool {
        switch t {
        case .beginObject:
            decoder.beginRecord()
            rootMembers = JSONMemberSet()
            decoder.readsLocationHistory = rootRecordsAreLocationHistory
            (phase, sawFeatures) = (.rootObject, false)
        case .beginArray:
            phase = .rootArray
        default:
            return false
        }
        return true
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

    /// Returns the next fix, or `nil` at the end of the input (of its last document).
    ///
    /// - Throws: ``ReadError`` at broken JSON, or (unless lenient) at a feature with a bad value.
    public mutating func next() throws(ReadError) -> Fix? {
        // (After a second device in a file read as one device's: nothing read after it is one track.)
        if decoder.endedAtSecondDevice { return nil }
        while true {
            if decoder.isEmitting {
                if let fix = try decoder.nextVertexFix() {
                    featureOfLastFix = emittingFeature
                    return fix
                }
                continue
            }
            if let error = endOfInput {
                endOfInput = nil
                phase = .finished
                throw error
            }
            switch phase {
            case .start:
                let t = try decoder.tokens.next()
                if !beginDocument(t) {
                    phase = .finished
                    throw ReadError.malformedRecord(
                        decoder.tokens.tokenLocation,
                        expected: "a GeoJSON object (FeatureCollection, Feature or geometry)",
                        found: decoder.describe(t))
                }
            case .rootObject:
                let t = try decoder.tokens.next()
                if t == .endObject {
                    phase = .trailing
                    if !sawFeatures {
                        decoder.report.recordsRead += 1
                        if let fix = try decoder.finishRecord() { return fix }
                    }
                    continue
                }
                let key = decoder.keys.lookup(decoder.tokens.bytes, decoder.tokens.valueStart, decoder.tokens.valueEnd)
                if key == .semanticSegments, rootRecordsAreLocationHistory {
                    // A Timeline's visits and inferred paths, Google's, not the phone's fixes: each entry counted as
                    // a record that holds none, and the document is no record of its own.
                    sawFeatures = true
                    let v = try decoder.tokens.next()
                    guard v == .beginArray else {
                        try decoder.tokens.skip(v)
                        continue
                    }
                    while true {
                        let t = try decoder.tokens.next()
                        if t == .endArray { break }
                        try decoder.tokens.skip(t)
                        decoder.report.recordsRead += 1
                        decoder.report.skip(.otherRecord)
                    }
                    continue
                }
                guard key == .features || key == .locations || key == .rawSignals || key == .location else {
                    let names = decoder.memberNames.row(depth: decoder.tokens.depth)
                    try decoder.decodeMember(key, of: &rootMembers, names: names, scope: .record)
                    continue
                }
                let name = decoder.tokens.text
                let v = try decoder.tokens.next()
                if key == .location {
                    // TransistorSoft's body: an array of records, or one record's fields one level down (read as a
                    // record's nested `location`). An array of anything else (a foreign member `[lon, lat]`) is
                    // passed over.
                    if v == .beginArray {
                        let outer = decoder.tokens.depth
                        let first = try decoder.tokens.next()
                        if first == .beginObject {
                            sawFeatures = true
                            recordStarted = true
                            phase = .features
                        } else {
                            try decoder.skipTo(depthBelow: outer)
                        }
                    } else {
                        try decoder.decodeMember(key, scope: .record, valueToken: v)
                    }
                } else if v == .beginArray {
                    sawFeatures = true
                    inRawSignals = key == .rawSignals
                    decoder.readsLocationHistory = key == .locations || key == .rawSignals
                    phase = .features
                } else if v != .null {
                    try decoder.fieldError(name, expected: "an array of records", v)
                }
            case .features, .rootArray:
                let t: JSONTokenizer.Token
                if recordStarted {
                    (t, recordStarted) = (.beginObject, false)
                } else {
                    t = try decoder.tokens.next()
                }
                if t == .endArray {
                    phase = phase == .features ? .rootObject : .trailing
                    inRawSignals = false
                    decoder.readsLocationHistory = false
                    continue
                }
                decoder.report.recordsRead += 1
                guard t == .beginObject else {
                    let error = ReadError.malformedRecord(
                        decoder.tokens.tokenLocation, expected: "a Feature object",
                        found: decoder.describe(t))
                    try decoder.tokens.skip(t)
                    try decoder.report.reject(error, lenient: decoder.options.lenient)
                    continue
                }
                let saved = phase
                decoder.beginRecord()
                do {
                    try decoder.decodeObject(scope: .record)
                } catch {
                    // A file cut inside a LineString's times: the positions read with a time are fixes read (a
                    // batch tester's file lost all 50, its last time cut off). Returned first, then the error.
                    guard case .truncated = error, try decoder.salvagesCutVertices() else { throw error }
                    (hasLineFeatures, emittingFeature) = (true, decoder.report.recordsRead - 1)
                    endOfInput = error
                    continue
                }
                phase = saved
                if inRawSignals && phase == .features && decoder.record.isEmpty {
                    decoder.report.skip(.otherRecord)  // an activity record, a Wi-Fi scan…
                    continue
                }
                let fix = try decoder.finishRecord()
                if decoder.isEmitting { (hasLineFeatures, emittingFeature) = (true, decoder.report.recordsRead - 1) }
                if let fix {
                    featureOfLastFix = decoder.report.recordsRead - 1
                    return fix
                }
            case .trailing:
                // The end, or another document (a sequence of them: `jq` prints records so, a log of TransistorSoft's
                // batch bodies holds one per line); the tokenizer throws at other bytes after a document.
                if !beginDocument(try decoder.tokens.next()) {
                    phase = .finished
                    return nil
                }
            case .finished:
                return nil
            }
        }
    }
}
