import Foundation
import FoundationXML
import Testing
import TrueTrackCore

@testable import TrueTrackIO

/// One point as a reader saw it: where it came from and the fix.
struct GPXOraclePoint: Equatable, CustomStringConvertible {
    var kind: GPXPointKind
    var segment: Int?
    var fix: Fix

    var description: String { "\(kind) seg \(String(describing: segment)) \(fix)" }
}

/// The reference: Foundation's `XMLParser` (libxml2) with the reader's documented mapping from elements to
/// fix fields, written independently of the byte scanner.
final class GPXOracle: NSObject, XMLParserDelegate {
    static let trueTrackNamespace = "https://truetrack.dev/xmlns/1"
    let hdop: HDOPInterpretation
    var points: [GPXOraclePoint] = []
    var skipped: [SkipReason: Int] = [:]
    var failure: String?

    private var segmentCount = 0
    private var currentSegment: Int?
    private var pointKind: GPXPointKind?
    private var pointDepth = 0  // elements open inside the current point
    /// For each element open inside the point: whether it and every element around it is one whose `speed` and
    /// `course` children are the fix's (`<extensions>`, Garmin's `<TrackPointExtension>`).
    private var knownPath: [Bool] = []
    private var latitude = 0.0
    private var longitude = 0.0
    private var values: [String: String] = [:]
    private var field: String?
    private var text = ""

    init(hdop: HDOPInterpretation) { self.hdop = hdop }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if pointKind != nil {
            let depth = pointDepth
            pointDepth += 1
            let uri = namespaceURI ?? ""
            let isGPX = uri.isEmpty || uri.contains("topografix.com/GPX/1/")
            let isGarmin = uri.contains("garmin.com/xmlschemas/TrackPointExtension")
            let pathKnown = knownPath.last ?? true
            knownPath.append(
                pathKnown
                    && (name == "extensions" && isGPX || name == "TrackPointExtension" && isGarmin))
            if uri == GPXOracle.trueTrackNamespace, pathKnown {
                field = "tt:" + name
            } else if depth == 0, ["ele", "time", "hdop", "vdop", "sat", "fix"].contains(name) {
                field = name
            } else if name == "speed" || name == "course", pathKnown,
                isGPX || isGarmin || uri.hasPrefix("https://osmand.net")
            {
                field = name
            }
            text = ""
            return
        }
        switch name {
        case "trkseg", "rte":
            currentSegment = segmentCount
            segmentCount += 1
        case "trkpt", "rtept", "wpt":
            pointKind = name == "trkpt" ? .trackPoint : name == "rtept" ? .routePoint : .waypoint
            pointDepth = 0
            knownPath = []
            values = [:]
            func number(_ key: String) -> Double? {
                attributes[key].flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            guard let lat = number("lat"), let lon = number("lon") else {
                failure = "bad coordinates \(attributes)"
                return
            }
            latitude = lat
            longitude = lon
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if field != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if field != nil { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let kind = pointKind else { return }
        if pointDepth > 0 {
            pointDepth -= 1
            knownPath.removeLast()
            if let field {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { values[field] = trimmed }
                self.field = nil
            }
            return
        }
        pointKind = nil
        func number(_ key: String) -> Double? {
            guard let text = values[key] else { return nil }
            guard let value = Double(text) else {
                failure = "bad \(key) \(text)"
                return nil
            }
            return value
        }
        var accuracy = number("tt:accuracy_m")
        if accuracy == nil, let h = number("hdop") { accuracy = hdop.accuracyMetres(hdop: h) }
        var vertical = number("tt:vertical_accuracy_m")
        if vertical == nil, let v = number("vdop"), v > 0, case .dilution(let uere) = hdop { vertical = v * uere }
        let time = values["time"].flatMap { ISO8601.parse($0) }
        let activity = values["tt:activity"].flatMap(ActivityKind.init(rawValue:)).map {
            ActivityReading(kind: $0, confidence: values["tt:activity_confidence"].flatMap { Int($0) } ?? 100)
        }
        let mocked: Bool? = values["tt:mocked"].map { $0 == "true" || $0 == "1" }
        guard
            let fix = try? Fix(
                timestamp: time ?? Timestamp(millisecondsSince1970: 0), latitude: latitude, longitude: longitude,
                horizontalAccuracyMetres: accuracy, altitudeMetres: number("ele"), verticalAccuracyMetres: vertical,
                speedMetresPerSecond: number("tt:speed_mps") ?? number("speed"),
                speedAccuracyMetresPerSecond: number("tt:speed_accuracy_mps"),
                courseDegrees: number("tt:course_deg") ?? number("course"),
                courseAccuracyDegrees: number("tt:course_accuracy_deg"),
                provider: values["tt:provider"].flatMap(Provider.init(rawValue:)) ?? .gps,
                satellitesUsed: values["sat"].flatMap { Int($0) }, isMocked: mocked, activity: activity)
        else {
            failure = "invalid fix"
            return
        }
        if values["fix"]?.lowercased() == "none" {
            skipped[.noFix, default: 0] += 1
        } else if time == nil {
            skipped[.missingTime, default: 0] += 1
        } else {
            points.append(GPXOraclePoint(kind: kind, segment: kind == .waypoint ? nil : currentSegment, fix: fix))
        }
    }
}

/// Builds random, valid GPX documents with varied formatting.
struct GPXDocumentGenerator {
    var r: GPXTestRandom
    let ttPrefix: String
    let garminPrefix: String

    init(seed: UInt64) {
        r = GPXTestRandom(seed: seed)
        ttPrefix = ["tt", "t", "x1", "true_track"][Int(seed % 4)]
        garminPrefix = ["gpxtpx", "ns3", "g"][Int(seed % 3)]
    }

    mutating func space() -> String {
        ["", " ", "\n", "\n  ", "\t", "\r\n    "][r.below(6)]
    }

    mutating func someSpace() -> String {
        [" ", "\n", "  ", "\n\t", "\r\n "][r.below(5)]
    }

    mutating func quoted(_ value: String) -> String {
        r.chance(0.5) ? "\"\(value)\"" : "'\(value)'"
    }

    mutating func attribute(_ name: String, _ value: String) -> String {
        let equals = r.chance(0.8) ? "=" : [" =", "= ", " = "][r.below(3)]
        return someSpace() + name + equals + quoted(value)
    }

    /// Text as XML character data, in one of several equivalent spellings.
    mutating func text(_ value: String) -> String {
        var body = value
        switch r.below(7) {
        case 0 where !value.contains("&"): body = "<![CDATA[\(value)]]>"
        case 1 where value.count > 2 && !value.contains("&"):
            let cut = value.index(value.startIndex, offsetBy: 1 + r.below(value.count - 1))
            body = String(value[..<cut]) + "<!-- split -->" + String(value[cut...])
        case 2 where !value.isEmpty:
            let first = value.unicodeScalars.first!.value
            body = (r.chance(0.5) ? "&#\(first);" : "&#x\(String(first, radix: 16));") + String(value.dropFirst())
        case 3 where value.count > 2 && !value.contains("&"):
            let cut = value.index(value.startIndex, offsetBy: 1)
            body = String(value[..<cut]) + "<![CDATA[" + String(value[cut...]) + "]]>"
        default: break
        }
        if r.chance(0.3) { body = space() + body + space() }
        return body
    }

    mutating func number(_ range: ClosedRange<Double>, digits: Int) -> String {
        let value = range.lowerBound + (range.upperBound - range.lowerBound) * r.unit()
        switch r.below(5) {
        case 0: return String(Int(value.rounded()))
        case 1: return "\(value)"
        default:
            let scale = Double(Int(pow(10, Double(digits))))
            let scaled = (value * scale).rounded() / scale
            return String(format: "%.\(digits)f", scaled)
        }
    }

    mutating func comment() -> String {
        switch r.below(8) {
        case 0: return "<!-- note: not <trkpt lat=\"1\" lon=\"2\"> -->"
        case 1: return "<?app instruction?>"
        default: return ""
        }
    }

    mutating func element(_ name: String, _ value: String) -> String {
        "<\(name)>" + text(value) + "</\(name)>"
    }

    mutating func point(_ name: String) -> String {
        let lat = number(-90...90, digits: r.below(12))
        let lon = number(-180...180, digits: r.below(12))
        var attributes = [
            attribute("lat", r.chance(0.1) ? "&#\(lat.unicodeScalars.first!.value);" + lat.dropFirst() : lat),
            attribute("lon", lon),
        ]
        if r.chance(0.2) { attributes.append(attribute("foo", "a&gt;b")) }
        if r.chance(0.5) { attributes.swapAt(0, 1) }
        var children: [String] = []
        if r.chance(0.8) { children.append(element("ele", number(-100...4000, digits: r.below(6)))) }
        if r.chance(0.9) {
            var t = ISO8601.format(
                Timestamp(millisecondsSince1970: Int64(r.below(2_000_000_000)) * 1000 + Int64(r.below(1000))))
            if r.chance(0.2) { t = t.replacingOccurrences(of: "Z", with: "+02:00") }
            children.append(element("time", t))
        }
        if r.chance(0.3) { children.append(element("hdop", number(0.5...20, digits: 2))) }
        if r.chance(0.2) { children.append(element("vdop", number(0.5...20, digits: 2))) }
        if r.chance(0.3) { children.append(element("sat", String(r.below(30)))) }
        if r.chance(0.2) { children.append(element("fix", ["none", "2d", "3d", "dgps", "pps"][r.below(5)])) }
        if r.chance(0.3) { children.append(element("speed", number(0...60, digits: 3))) }
        if r.chance(0.2) { children.append(element("course", number(0...359, digits: 1))) }
        if r.chance(0.3) { children.append("<name>" + text("P &amp; Q &lt;1&gt;") + "</name>") }
        if r.chance(0.2) { children.append("<link href=\"http://x/?a=1&amp;b=2\"><text>t</text></link>") }
        if r.chance(0.1) { children.append("<ele/>") }
        if r.chance(0.5) {
            var ext: [String] = []
            if r.chance(0.5) {
                let g = garminPrefix
                ext.append(
                    "<\(g):TrackPointExtension><\(g):hr>120</\(g):hr>"
                        + (r.chance(0.7) ? element("\(g):speed", number(0...60, digits: 2)) : "")
                        + (r.chance(0.5) ? element("\(g):course", number(0...400, digits: 1)) : "")
                        + "</\(g):TrackPointExtension>")
            }
            // Another namespace's speed and course (a weather tool's), and GPX's names inside an unknown element: not
            // the fix's.
            if r.chance(0.3) {
                ext.append(
                    "<w:wind>" + element("w:speed", number(0...60, digits: 1))
                        + (r.chance(0.5) ? element("speed", number(0...60, digits: 1)) : "")
                        + (r.chance(0.3) ? element("\(ttPrefix):speed_mps", number(0...60, digits: 1)) : "")
                        + element("w:course", number(0...359, digits: 0)) + "</w:wind>")
            }
            if r.chance(0.2) { ext.append(element("w:speed", number(0...60, digits: 1))) }
            if r.chance(0.2) {
                ext.append(
                    "<TrackPointExtension xmlns=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\">"
                        + element("speed", number(0...60, digits: 2)) + "</TrackPointExtension>")
            }
            if r.chance(0.6) {
                let t = ttPrefix
                if r.chance(0.6) { ext.append(element("\(t):accuracy_m", number(0...50, digits: 2))) }
                if r.chance(0.4) { ext.append(element("\(t):vertical_accuracy_m", number(0...50, digits: 2))) }
                if r.chance(0.4) { ext.append(element("\(t):speed_mps", number(0...60, digits: 3))) }
                if r.chance(0.3) { ext.append(element("\(t):speed_accuracy_mps", number(0...5, digits: 3))) }
                if r.chance(0.4) { ext.append(element("\(t):course_deg", number(0...359, digits: 2))) }
                if r.chance(0.3) { ext.append(element("\(t):course_accuracy_deg", number(0...90, digits: 2))) }
                if r.chance(0.5) {
                    ext.append(element("\(t):provider", Provider.allCases[r.below(Provider.allCases.count)].rawValue))
                }
                if r.chance(0.3) { ext.append(element("\(t):mocked", r.chance(0.5) ? "true" : "false")) }
                if r.chance(0.3) {
                    ext.append(
                        element("\(t):activity", ActivityKind.allCases[r.below(ActivityKind.allCases.count)].rawValue))
                    if r.chance(0.7) { ext.append(element("\(t):activity_confidence", String(r.below(101)))) }
                }
            }
            ext.shuffle(using: &r)
            children.append("<extensions>" + ext.map { space() + $0 }.joined() + space() + "</extensions>")
        }
        children.shuffle(using: &r)
        let body = children.map { space() + comment() + $0 }.joined()
        if body.isEmpty, r.chance(0.5) { return "<\(name)" + attributes.joined() + space() + "/>" }
        return "<\(name)" + attributes.joined() + space() + ">" + body + space() + "</\(name)>"
    }

    mutating func document() -> String {
        var out = ""
        if r.chance(0.7) { out += "<?xml version=" + quoted("1.0") + " encoding=\"UTF-8\"?>" + space() }
        if r.chance(0.2) { out += "<!DOCTYPE gpx>" + space() }
        out += comment() + space()
        var rootAttributes = [
            attribute("version", "1.1"), attribute("creator", "gen &amp; co"),
            attribute("xmlns", "http://www.topografix.com/GPX/1/1"),
            attribute("xmlns:\(ttPrefix)", GPXOracle.trueTrackNamespace),
            attribute("xmlns:\(garminPrefix)", "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"),
            attribute("xmlns:w", "urn:weather"),
        ]
        rootAttributes.shuffle(using: &r)
        out += "<gpx" + rootAttributes.joined() + ">" + space()
        if r.chance(0.5) {
            out += "<metadata><name>" + text("Walk &amp; talk") + "</name><time>2020-01-01T00:00:00Z</time></metadata>"
        }
        for _ in 0..<r.below(3) { out += space() + point("wpt") }
        for _ in 0..<r.below(2) {
            out += space() + "<rte><name>r</name>"
            for _ in 0..<r.below(4) { out += space() + point("rtept") }
            out += space() + "</rte>"
        }
        for _ in 0..<(1 + r.below(2)) {
            out += space() + "<trk>" + comment() + "<name>" + text("t") + "</name>"
            for _ in 0..<(1 + r.below(3)) {
                out += space() + "<trkseg>"
                for _ in 0..<r.below(12) { out += space() + comment() + point("trkpt") }
                out += space() + "</trkseg>"
            }
            out += space() + "</trk>"
        }
        out += space() + "</gpx>" + space()
        return out
    }
}

extension GPXTestRandom: RandomNumberGenerator {}

@Suite struct GPXReaderOracleTests {
    /// The byte scanner and XMLParser agree point for point on 300 generated documents.
    @Test func agreesWithXMLParserOnGeneratedDocuments() throws {
        var compared = 0
        var skippedTotal = 0
        for seed in 1...300 as ClosedRange<UInt64> {
            var generator = GPXDocumentGenerator(seed: seed)
            let document = generator.document()
            let data = Data(document.utf8)

            let oracle = GPXOracle(hdop: ReadOptions().hdop)
            let parser = XMLParser(data: data)
            parser.shouldProcessNamespaces = true
            parser.delegate = oracle
            try #require(
                parser.parse(),
                "XMLParser rejected document \(seed): \(String(describing: parser.parserError))\n\(document)")
            try #require(oracle.failure == nil, "oracle: \(oracle.failure ?? "")")

            var reader = GPXReader(stream: ByteStream(bytes: Array(document.utf8)), pointKinds: .all)
            var points: [GPXOraclePoint] = []
            do {
                while let fix = try reader.next() {
                    guard let kind = reader.lastPointKind else { break }
                    points.append(GPXOraclePoint(kind: kind, segment: reader.lastSegmentIndex, fix: fix))
                }
            } catch {
                Issue.record("document \(seed): \(error)\n\(document)")
                continue
            }
            if points != oracle.points {
                let firstDifference = zip(points, oracle.points).first { $0 != $1 }
                Issue.record(
                    """
                    document \(seed): reader \(points.count) points, XMLParser \(oracle.points.count)
                    first difference: \(String(describing: firstDifference))
                    \(document)
                    """)
                continue
            }
            #expect(reader.report.skipped(.noFix) == oracle.skipped[.noFix, default: 0])
            #expect(reader.report.skipped(.missingTime) == oracle.skipped[.missingTime, default: 0])
            compared += points.count
            skippedTotal += reader.report.totalSkipped
        }
        // The generator must actually exercise the comparison.
        #expect(compared > 2000)
        #expect(skippedTotal > 200)
    }
}
