import TrueTrackCore

/// Which kind of GPX point a fix was read from.
public enum GPXPointKind: String, Sendable, Hashable, CaseIterable {
    /// A `<trkpt>` inside a `<trk>`/`<trkseg>`: a recorded position, what a device logs.
    case trackPoint
    /// An `<rtept>` inside a `<rte>`: a planned route's turn point (rarely timed).
    case routePoint
    /// A `<wpt>` at the top level of the document: a marked place.
    case waypoint
}

/// A set of GPX point kinds, to choose which ones a ``GPXReader`` turns into fixes.
public struct GPXPointKinds: OptionSet, Sendable, Hashable {
    /// The bits of the set.
    public let rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `<trkpt>` elements.
    public static let trackPoints = GPXPointKinds(rawValue: 1)
    /// `<rtept>` elements.
    public static let routePoints = GPXPointKinds(rawValue: 2)
    /// `<wpt>` elements.
    public static let waypoints = GPXPointKinds(rawValue: 4)
    /// Every kind of point.
    public static let all: GPXPointKinds = [.trackPoints, .routePoints, .waypoints]
    /// Track and route points: the points that form a path. Waypoints are left out because they are marked
    /// places, usually written before the track and out of time order with it (a logger's button presses),
    /// and mixing them in would add jumps to the path.
    public static let paths: GPXPointKinds = [.trackPoints, .routePoints]

    /// True when the set holds `kind`.
    @inlinable
    public func contains(_ kind: GPXPointKind) -> Bool {
        switch kind {
        case .trackPoint: contains(.trackPoints)
        case .routePoint: contains(.routePoints)
        case .waypoint: contains(.waypoints)
        }
    }
}

/// The TrueTrack GPX extension: the fields of a ``Fix`` that GPX 1.1 has no element for, so that a file
/// written by ``GPXWriter`` reads back to exactly the same fixes.
///
/// The elements live in the namespace ``namespace`` (written with the prefix ``preferredPrefix``) inside a
/// point's `<extensions>`, and carry the canonical field names of TrueTrack's text formats:
///
/// | element | meaning |
/// |---|---|
/// | `accuracy_m` | horizontal accuracy, metres (68 %); `0` means ``HorizontalAccuracy/invalid`` |
/// | `vertical_accuracy_m` | vertical accuracy, metres (68 %) |
/// | `speed_mps` | speed over ground, metres per second |
/// | `speed_accuracy_mps` | speed accuracy, metres per second |
/// | `course_deg` | course over ground, degrees clockwise from true north |
/// | `course_accuracy_deg` | course accuracy, degrees |
/// | `provider` | ``Provider`` raw value (`gps`, `fused`, …) |
/// | `mocked` | `true` / `false` |
/// | `activity` | ``ActivityKind`` raw value |
/// | `activity_confidence` | 0–100 (an `activity` without it reads with confidence 100) |
///
/// The elements may sit directly in the point, in its `<extensions>` (where ``GPXWriter`` puts them) or in Garmin's
/// `<TrackPointExtension>` there, not inside an element ``GPXReader`` does not know (whose content is another's, as a
/// `speed` inside a weather tool's `<m:wind>` is); the reader recognises them by the prefix bound to ``namespace`` on
/// `<gpx>` or inside the point.
public enum GPXTrueTrackExtension {
    /// The namespace URI of the extension elements.
    public static let namespace = "https://truetrack.dev/xmlns/1"
    /// The prefix ``GPXWriter`` binds to ``namespace``; readers accept any prefix bound to it.
    public static let preferredPrefix = "tt"

    /// The namespace URI as bytes, for comparing attribute values without allocating.
    static let namespaceBytes: [UInt8] = Array(namespace.utf8)
    /// ``Provider`` raw values as bytes.
    static let providerNames: [(Provider, [UInt8])] = Provider.allCases.map { ($0, Array($0.rawValue.utf8)) }
    /// ``ActivityKind`` raw values as bytes.
    static let activityNames: [(ActivityKind, [UInt8])] = ActivityKind.allCases.map { ($0, Array($0.rawValue.utf8)) }
}

/// The XML namespaces ``GPXReader`` tells apart inside a point, by their URI: which ones define the `speed` and
/// `course` elements it reads (and the `hAcc`, `vAcc` and TCX `Speed` ones).
///
/// A `<speed>` of another namespace is another quantity: a weather tool's wind (`<m:wind><m:speed>20</m:speed>`,
/// `xmlns:m="urn:weather"`) was read as the fix's speed, 20 m/s, and its direction as the course (a formats
/// tester's).
enum GPXNamespace: UInt8 {
    /// GPX itself (`http://www.topografix.com/GPX/1/0` or `/1/1`, also with `https`), or no namespace at all: GPX
    /// 1.0's `speed` and `course` of a point, and the ones apps write unprefixed in `<extensions>` (Apple Health's
    /// route export, OsmAnd's older files).
    case gpx
    /// Garmin's TrackPointExtension (`http://www.garmin.com/xmlschemas/TrackPointExtension/v1` or `/v2`; any URI
    /// naming `garmin.com/xmlschemas/TrackPointExtension`, as OsmAnd 5 writes its schema's address): its `speed`
    /// (m/s) and `course` (degrees), inside its `<TrackPointExtension>`.
    case garminTrackPoint
    /// OsmAnd's own (`https://osmand.net`, and the longer `https://osmand.net/docs/…` OsmAnd 5 writes): its
    /// `osmand:speed` in a point's `<extensions>` (m/s).
    case osmAnd
    /// TrueTrack's own (``GPXTrueTrackExtension/namespace``).
    case trueTrack
    /// Any other namespace: a prefix bound to a URI the reader does not know.
    case other
    /// An app's own namespace whose `speed` in a point's `<extensions>` is the fix's (m/s): ClueTrust's GPXDATA
    /// (`http://www.cluetrust.com/XML/GPXDATA/1/0`, written by Waterspeed and others) and myTracks'
    /// (`http://mytracks.stichling.info/myTracksGPX/1/0`: a regression hunt found its speed dropped once namespaces
    /// were told apart).
    case appWithSpeed
    /// A prefix bound to no namespace at all (`<gpxtpx:speed>` in a file that never declares `gpxtpx`): read as its
    /// local name says where the path is known (a point's `<extensions>`, a `<TrackPointExtension>`), as it was
    /// before namespaces were told apart (a reviewer's exports lost their speed: not valid XML namespaces, but
    /// written so, and nothing foreign is implied); a foreign element around it still hides it.
    case undeclared
    /// Garmin's ActivityExtension (`http://www.garmin.com/xmlschemas/ActivityExtension/v2`, or `/v1`): in a TCX
    /// trackpoint's `<Extensions>`, its `<TPX>` holds the `Speed` read as the fix's (m/s).
    case garminActivity
    /// Garmin's Training Center Database (`http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2`, or `/v1`): a
    /// TCX document's own namespace, under a prefix (unprefixed, a TCX trackpoint's children read as the document's,
    /// as a GPX point's do as ``gpx``).
    case trainingCenter

    /// The namespace named by the URI `p[start..<end]` (an `xmlns` attribute's value).
    init(uri p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) {
        if XMLBytes.equals(p, start, end, GPXTrueTrackExtension.namespaceBytes) {
            self = .trueTrack
        } else if XMLBytes.find("topografix.com/GPX/1/", p, start, end) != nil {
            self = .gpx
        } else if XMLBytes.find("garmin.com/xmlschemas/TrackPointExtension", p, start, end) != nil {
            self = .garminTrackPoint
        } else if XMLBytes.matches(p, start, end, "https://osmand.net") == 1
            || XMLBytes.matches(p, start, end, "http://osmand.net") == 1
        {
            self = .osmAnd
        } else if XMLBytes.find("cluetrust.com/XML/GPXDATA", p, start, end) != nil
            || XMLBytes.find("mytracks.stichling.info/myTracksGPX", p, start, end) != nil
        {
            self = .appWithSpeed
        } else if XMLBytes.find("garmin.com/xmlschemas/ActivityExtension", p, start, end) != nil {
            self = .garminActivity
        } else if XMLBytes.find("garmin.com/xmlschemas/TrainingCenterDatabase", p, start, end) != nil {
            self = .trainingCenter
        } else {
            self = .other
        }
    }

    /// Whether the namespace's `speed` and `course` elements are a fix's speed over ground (m/s) and course
    /// (degrees clockwise from true north).
    var definesSpeedAndCourse: Bool {
        self == .gpx || self == .garminTrackPoint || self == .osmAnd || self == .appWithSpeed || self == .undeclared
    }

    /// Whether an `hAcc` or `vAcc` element in the namespace is a fix's accuracy (metres): GPX's own, where Apple
    /// Health's route export writes them (unprefixed, in a point's `<extensions>`), or a prefix never declared.
    var definesAccuracies: Bool {
        self == .gpx || self == .undeclared
    }

    /// Whether a `<TrackPointExtension>` in the namespace is Garmin's: in its namespace, or written without it
    /// (GPX's default, a prefix never declared, as some exporters write it).
    var mayHoldTrackPointExtension: Bool {
        self == .garminTrackPoint || self == .gpx || self == .undeclared
    }

    /// Whether a TCX trackpoint's `<Extensions>`, `<TPX>` or `Speed` element in the namespace may be the one Garmin's
    /// schemas define: the ActivityExtension's (`TPX`, `Speed`) or the document's own (`Extensions`; also for `TPX`
    /// and `Speed` written without their namespace: unprefixed, ``gpx`` in the reader's terms, or a prefix never
    /// declared, as for GPX's `<TrackPointExtension>`).
    var mayHoldActivitySpeed: Bool {
        self == .garminActivity || self == .trainingCenter || self == .gpx || self == .undeclared
    }
}
