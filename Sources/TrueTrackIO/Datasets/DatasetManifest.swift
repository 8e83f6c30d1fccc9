import Foundation
import TrueTrackCore

/// The catalogue of recorded data sets (`MANIFEST.json`): what each recording is and how to read it.
///
/// The folder is found by ``DatasetManifest/locate(flag:environment:)``: an explicit `--datasets` flag, else
/// the `TRUETRACK_DATASETS` environment variable, else `../shared/datasets` relative to the working directory
/// (``DatasetManifest/Location`` keeps which, so that a missing folder is reported with where it came from).
public struct DatasetManifest: Sendable, Decodable {
    /// How the distances in the manifest were computed (a haversine on R = 6,371,008.8 m).
    public var distanceConvention: String?
    /// The recordings.
    public var recordings: [Recording]
    /// The folder the manifest was read from (paths in recordings are relative to it).
    public var root: String = ""
    /// What the manifest holds that TrueTrack does not read, one line each (an unknown key, with the entry and
    /// the nearest known key): a misspelt `reference_distance` was silently ignored. The commands print them as
    /// warnings.
    public var warnings: [String] = []

    /// The keys the top level may hold (`generated_by` is descriptive).
    static let knownTopLevelKeys = ["recordings", "distance_convention", "generated_by"]

    /// The path of `MANIFEST.json`, for messages.
    public var path: String { (root as NSString).appendingPathComponent("MANIFEST.json") }

    enum CodingKeys: String, CodingKey {
        case distanceConvention = "distance_convention"
        case recordings
    }

    /// A key of any name (to list the keys a manifest holds).
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads a manifest, with a warning for each key it holds that TrueTrack does not read (``warnings``).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        distanceConvention = try c.decodeIfPresent(String.self, forKey: .distanceConvention)
        recordings = try c.decode([Recording].self, forKey: .recordings)
        var entries = try c.nestedUnkeyedContainer(forKey: .recordings)
        var entryKeys: [[String]] = []
        while !entries.isAtEnd {
            entryKeys.append(try entries.nestedContainer(keyedBy: AnyKey.self).allKeys.map(\.stringValue))
        }
        let topLevelKeys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        warnings = DatasetManifest.unknownKeys(
            topLevel: topLevelKeys, entries: zip(recordings.map(\.id), entryKeys).map { (id: $0, keys: $1) })
    }

    /// One recording of the catalogue.
    public struct Recording: Sendable, Decodable, Hashable {
        /// A stable identifier, e.g. `ipin2023-t01r02`.
        public var id: String
        /// Path relative to the data-set folder.
        public var path: String
        /// Free-text format description (its first word names the format: `nmea`, `gpx`, `gnsslogger-fix`…).
        public var format: String
        /// Free-text activity (its first word names the category: walk, drive, stationary, bike, hike, mixed, or a
        /// synonym of one, see ``ActivityCategory``).
        public var activity: String
        /// Whether fixes carry a reported horizontal accuracy.
        public var hasAccuracy: Bool?
        /// Whether fixes carry a receiver-measured (Doppler) speed.
        public var hasDopplerSpeed: Bool?
        /// Path of the ground-truth file, relative to the folder.
        public var groundTruth: String?
        /// Free-text description of the ground truth's format.
        public var groundTruthFormat: String?
        /// The reference distance in metres (haversine sum of the truth), when known.
        public var referenceDistanceMetres: Double?
        /// Duration of the recording in seconds.
        public var durationSeconds: Double?
        /// Number of unique device fixes.
        public var fixes: Int?
        /// Traps and facts about the recording.
        public var notes: String?
        /// How an NMEA log's HDOP field is read (`hdop_scale`): takes precedence over `EA/10` in ``notes``.
        public var hdopScale: HDOPScale?
        /// The recording device.
        public var device: String?
        /// The licence, where the manifest states one.
        public var licence: String?
        /// The upstream source, where the manifest states one.
        public var source: String?
        /// The entry's place in the manifest's `recordings` (set when the manifest is loaded), for messages.
        public var index: Int = 0

        /// How messages name the entry: `recordings[3] (id 'x')`.
        public var entryName: String { "recordings[\(index)] (id '\(id)')" }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, path, format, activity, notes, device, licence, source, fixes
            case hasAccuracy = "has_accuracy"
            case hasDopplerSpeed = "has_doppler_speed"
            case groundTruth = "ground_truth"
            case groundTruthFormat = "ground_truth_format"
            case referenceDistanceMetres = "reference_distance_m"
            case durationSeconds = "duration_s"
            case hdopScale = "hdop_scale"
        }

        /// The activity's category (``ActivityCategory/category(of:)``): its first word, lower-cased, with
        /// synonyms mapped to their category (`driving`, `car`, `in-vehicle` → `drive`; `cycling` → `bike`;
        /// `running` → `run`; `walking` → `walk`), so that `drive-highway` and `driving` are both `drive`.
        public var activityCategory: String { ActivityCategory.category(of: activity) }
    }

    /// A manifest's `hdop_scale`, as `--hdop-scale` takes it: `"accuracy10"` (the HDOP field holds accuracy / 10 m,
    /// Google's GnssAnalysis chipset exports), `"dilution"` (a dilution of precision × the default UERE, 5 m:
    /// what a log is read as without the key) or a positive number of metres (a dilution × that UERE).
    public struct HDOPScale: Sendable, Hashable, Decodable {
        /// How the field is read.
        public var interpretation: HDOPInterpretation

        /// Creates a scale.
        public init(_ interpretation: HDOPInterpretation) { self.interpretation = interpretation }

        /// Reads `"accuracy10"`, `"dilution"` or a positive number; anything else is an error at its place
        /// (`recordings[0].hdop_scale`).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            let expected = "expected \"accuracy10\", \"dilution\" or a positive number of metres (a UERE)"
            if let metres = try? c.decode(Double.self) {
                guard metres > 0, metres.isFinite else {
                    throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(expected), got \(metres)")
                }
                interpretation = .dilution(userEquivalentRangeErrorMetres: metres)
                return
            }
            guard let text = try? c.decode(String.self) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: expected)
            }
            switch text.lowercased() {
            case "accuracy10": interpretation = .scaledAccuracy(metresPerUnit: 10)
            case "dilution":
                interpretation = .dilution(userEquivalentRangeErrorMetres: HDOPInterpretation.defaultUEREMetres)
            default: throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(expected), got '\(text)'")
            }
        }
    }

    /// Where a data-set folder came from: the three places ``locate(flag:environment:)`` looks, in order.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The command line's `--datasets DIR`.
        case flag
        /// The `TRUETRACK_DATASETS` environment variable.
        case environment
        /// Neither was given: `../shared/datasets`, relative to the working directory.
        case defaultFolder

        /// How an error names the source: `given with --datasets`, `from TRUETRACK_DATASETS`, or the default
        /// and the working directory it is relative to.
        public var explanation: String {
            switch self {
            case .flag: "given with --datasets"
            case .environment: "from the environment variable TRUETRACK_DATASETS"
            case .defaultFolder:
                "the default (neither --datasets nor TRUETRACK_DATASETS was given), relative to the working "
                    + "directory \(FileManager.default.currentDirectoryPath)"
            }
        }
    }

    /// A data-set folder and where it came from.
    public struct Location: Sendable, Hashable {
        /// The folder (the one holding `MANIFEST.json`).
        public var folder: String
        /// Where ``folder`` came from.
        public var source: Source

        /// Creates a location.
        public init(folder: String, source: Source) {
            self.folder = folder
            self.source = source
        }
    }

    /// Reads `MANIFEST.json` from `folder`.
    /// - Throws: ``ReadError`` naming the file when it is missing, not a valid manifest, lists no recording
    ///   (a run that checks nothing must not pass) or repeats an id.
    public static func load(folder: String) throws(ReadError) -> DatasetManifest {
        try load(Location(folder: folder, source: .flag), explainsSource: false)
    }

    /// Reads `MANIFEST.json` from a located folder: as ``load(folder:)``, and a missing file's error says where
    /// the folder came from (a stale `TRUETRACK_DATASETS` is then found at once).
    public static func load(_ location: Location) throws(ReadError) -> DatasetManifest {
        try load(location, explainsSource: true)
    }

    private static func load(_ location: Location, explainsSource: Bool) throws(ReadError) -> DatasetManifest {
        let folder = location.folder
        let path = (folder as NSString).appendingPathComponent("MANIFEST.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            let why =
                explainsSource
                ? "no such file (the data-set folder \(folder) is \(location.source.explanation); "
                    + "pass --datasets DIR or set TRUETRACK_DATASETS to the folder holding MANIFEST.json)"
                : "no such file (is the data-set folder right? use --datasets or TRUETRACK_DATASETS)"
            throw .io(path: path, message: why)
        }
        var manifest: DatasetManifest
        do { manifest = try JSONDecoder().decode(DatasetManifest.self, from: data) } catch {
            throw .io(
                path: path,
                message:
                    "not a TrueTrack data-set manifest: \(DecodingFailure.describe(error, data: data, wholeNumberKeys: ["fixes"]))"
            )
        }
        guard !manifest.recordings.isEmpty else {
            throw .io(
                path: path, message: "recordings: the list is empty, so there is nothing to check (list at least one)")
        }
        manifest.root = folder
        var seen: [String: Int] = [:]
        for index in manifest.recordings.indices { manifest.recordings[index].index = index }
        for (index, recording) in manifest.recordings.enumerated() {
            // Values the run cannot use, at their place (a CI tester's: an empty id or activity made rows without a
            // name; a negative reference left the recording's distance ungated without a word).
            if recording.id.trimmingCharacters(in: .whitespaces).isEmpty {
                throw .io(path: path, message: "recordings[\(index)].id: empty (ids key the baseline and the reports)")
            }
            if recording.activity.trimmingCharacters(in: .whitespaces).isEmpty {
                throw .io(
                    path: path,
                    message: "\(recording.entryName).activity: empty (its first word names the category and the "
                        + "profile: walk, drive, bike, run, stationary…)")
            }
            if let metres = recording.referenceDistanceMetres, !(metres >= 0 && metres.isFinite) {
                throw .io(
                    path: path,
                    message: "\(recording.entryName).reference_distance_m: expected a distance of 0 metres or more "
                        + "(0: a stationary recording), got \(metres)")
            }
            if recording.declaredFormat == nil {
                let word = recording.format.split(separator: " ").first.map(String.init) ?? recording.format
                manifest.warnings.append(
                    "\(recording.entryName).format: '\(word)' names no format TrueTrack reads (its first word: "
                        + "csv, gpx, nmea, gnsslogger-fix, ipin-getsensordata, geolife-plt, geojson, …): the file's "
                        + "format is sniffed from its content")
            }
            if let first = seen[recording.id] {
                throw .io(
                    path: path,
                    message: "recordings[\(first)] and recordings[\(index)] share the id '\(recording.id)' "
                        + "(ids key the baseline: each must be unique)")
            }
            seen[recording.id] = index
        }
        return manifest
    }

    /// One warning per key of the document that TrueTrack does not read, naming the entry and the nearest
    /// known key (`recordings[0] (id 'w'): unknown key 'reference_distance' ignored (did you mean
    /// 'reference_distance_m'?)`).
    static func unknownKeys(topLevel: [String], entries: [(id: String, keys: [String])]) -> [String] {
        var warnings: [String] = []
        func check(_ keys: [String], known: [String], at place: String) {
            for key in keys.sorted() where !known.contains(key) {
                let hint =
                    nearest(key, in: known).map { "did you mean '\($0)'?" }
                    ?? "known keys: \(known.joined(separator: ", "))"
                warnings.append("\(place): unknown key '\(key)' ignored (\(hint))")
            }
        }
        check(topLevel, known: knownTopLevelKeys, at: "the top level")
        let known = Recording.CodingKeys.allCases.map(\.rawValue)
        for (index, entry) in entries.enumerated() {
            check(entry.keys, known: known, at: "recordings[\(index)] (id '\(entry.id)')")
        }
        return warnings
    }

    /// The key of `known` nearest to `key` (edit distance at most a third of its length, at least 2), if any.
    public static func nearest(_ key: String, in known: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for i in a.indices {
                var diagonal = row[0]
                row[0] = i + 1
                for j in b.indices {
                    let above = row[j + 1]
                    row[j + 1] = min(above + 1, row[j] + 1, diagonal + (a[i] == b[j] ? 0 : 1))
                    diagonal = above
                }
            }
            return row[b.count]
        }
        let lower = Array(key.lowercased())
        let scored = known.map { ($0, distance(lower, Array($0))) }.min { $0.1 < $1.1 }
        guard let (name, d) = scored, d <= max(2, lower.count / 3) else { return nil }
        return name
    }

    /// The data-set folder: `flag` when given, else `$TRUETRACK_DATASETS`, else `../shared/datasets`, with
    /// where it came from.
    public static func locate(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Location
    {
        if let flag, !flag.isEmpty { return Location(folder: flag, source: .flag) }
        if let value = environment["TRUETRACK_DATASETS"], !value.isEmpty {
            return Location(folder: value, source: .environment)
        }
        return Location(folder: "../shared/datasets", source: .defaultFolder)
    }

    /// The absolute-or-relative path of a recording's file (an absolute path in the manifest is kept).
    public func path(of recording: Recording) -> String { resolve(recording.path) }

    /// `path` resolved against the data-set folder: an absolute path is kept, a relative one joined to it.
    public func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : (root as NSString).appendingPathComponent(path)
    }
}
