import Foundation
import Testing

@testable import TrueTrackIO

@Suite struct FixFormatTests {
    func sniff(_ text: String) -> FixFormat? { FixFormat.sniff(Array(text.utf8)) }

    @Test func recognisesEachFormatFromItsFirstBytes() {
        #expect(sniff("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">") == .gpx)
        #expect(sniff("Geolife trajectory\nWGS 84\n") == .geolife)
        #expect(sniff("# Header\n# Fix,Provider,LatitudeDegrees\nFix,gps,1,2") == .gnssLogger)
        #expect(sniff("%\n% header\nGNSS;2.8;1686733381.51;49.46;11.11;362;0;14;0.5;17;16\n") == .ipin)
        #expect(
            sniff("# gpsd log\n\u{B5}b\u{01}\u{07}$GNRMC,011903.00,A,4552.9,S,17031.2,E,0.01,,010119,,,A*6A\n") == .nmea
        )
        #expect(sniff("NMEA,$GNGGA,234302.00,3725.9,N,12210.2,W,1,12,0.5,30,M,-30,M,,*70,1699400582000\n") == .nmea)
        #expect(sniff("{\"type\":\"FeatureCollection\",\"features\":[\n") == .geojson)
        #expect(sniff("{\"time\":\"2024-01-01T00:00:00Z\",\"latitude\":1,\"longitude\":2}\n{\"time\":") == .jsonLines)
        #expect(sniff("time,lat,lon\n2024-01-01T00:00:00Z,1,2\n") == .csv)
        #expect(sniff("Time;Latitude;Longitude\n") == .csv)
        #expect(sniff("hello world\nnothing here") == nil)
        #expect(sniff("") == nil)
    }

    /// A JSON Lines file with Windows line endings was taken for GeoJSON (its first line ended in "}\r") and
    /// failed at line 2; NMEA from Galileo- or BeiDou-only receivers (`$GARMC`, `$BDGGA`) was not recognised.
    @Test func recognisesCRLFJSONLinesAndNMEAOfAnyTalker() {
        #expect(sniff("{\"time\":\"2024-01-01T00:00:00Z\",\"lat\":1,\"lon\":2}\r\n{\"time\":") == .jsonLines)
        #expect(sniff("$GARMC,011903.00,A,4552.9,S,17031.2,E,0.01,,010119,,,A*6A\r\n") == .nmea)
        #expect(sniff("$BDGGA,234302.00,3725.9,N,12210.2,W,1,12,0.5,30,M,-30,M,,*70\n") == .nmea)
        #expect(sniff("$GLRMC,011903.00,A,4552.9,S,17031.2,E,0.01,,010119,,,A*6A\n") == .nmea)
        #expect(sniff("price,$USD\n") == nil)  // a dollar sign alone is not NMEA
        #expect(sniff("time,lat,lon,note\n2024-01-01T00:00:00Z,1,2,$gprmc\n") == .csv)  // lower case is not a sentence
    }

    /// A CSV header or a JSON value decides before a sentence or a `Fix,` row further down (a formats tester's files
    /// were refused as NMEA or GnssLogger): a note column quoting a sentence, JSON Lines carrying each fix's
    /// sentence, an event column reading `Fix`; and a JSON Lines record's line ending in blanks is no GeoJSON.
    /// A GeoJSON text sequence (RFC 8142: each record after U+001E) was "unrecognised"; the JSON Lines reader
    /// reads its records.
    @Test func recognisesAGeoJSONTextSequence() throws {
        let text =
            "\u{1E}{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[11.5,48.1]},"
            + "\"properties\":{\"time\":\"2024-05-01T10:00:00Z\"}}\n\u{1E}{\"type\":\"Feature\",\"geometry\":"
            + "{\"type\":\"Point\",\"coordinates\":[11.5,48.2]},\"properties\":{\"time\":\"2024-05-01T10:00:01Z\"}}\n"
        #expect(sniff(text) == .jsonLines)
        var reader = JSONLinesReader(stream: ByteStream(bytes: Array(text.utf8)))
        let result = reader.readAll()
        #expect(result.error == nil && result.fixes.map(\.latitude) == [48.1, 48.2])
    }

    @Test func aHeaderOrAJSONValueDecidesBeforeASentenceOrAFixRow() {
        #expect(sniff("time,lat,lon,note\n2024-05-01T06:00:00Z,46,14,\"$GPGGA,1\"\n") == .csv)
        #expect(
            sniff("{\"time\":\"2024-05-01T06:00:00Z\",\"lat\":46,\"lon\":14,\"nmea\":\"$GPGGA,1\"}\n{\"t\":1}\n")
                == .jsonLines)
        #expect(sniff("event,time,lat,lon\nFix,2024-05-01T06:00:00Z,46,14\n") == .csv)
        #expect(sniff("{\"time\":\"2024-05-01T06:00:00Z\",\"lat\":46,\"lon\":14} \n{\"time\":\"x\"} \n") == .jsonLines)
        // Still: a GnssLogger file and a log of sentences.
        #expect(sniff("Fix,Provider,LatitudeDegrees,LongitudeDegrees\nFix,gps,1,2\n") == .gnssLogger)
        #expect(sniff("# log\nRaw,1,2\nFix,gps,1,2\n") == .gnssLogger)
        #expect(sniff("$GPGGA,234302.00,3725.9,N,12210.2,W,1,12,0.5,30,M,-30,M,,*70\n") == .nmea)
    }

    /// A gpsd `gpspipe -w` or `-r` log opens with JSON reports (`{"class":"VERSION",…}`) and mixes them with NMEA
    /// sentences: a line starting with a sentence makes it NMEA (a formats tester's logs were refused as JSON Lines).
    @Test func aGpspipeLogOfJSONReportsAndSentencesIsNMEA() {
        let gga = "$GPGGA,202640.000,4404.1306,N,12118.8515,W,2,10,0.98,1127.7,M,-19.6,M,0000,0000*6C\n"
        #expect(sniff("{\"class\":\"VERSION\",\"release\":\"3.20\"}\n" + gga) == .nmea)
        #expect(
            sniff(
                "{\"class\":\"VERSION\",\"release\":\"3.22\"}\n{\"class\":\"WATCH\",\"enable\":true,\"raw\":1}\n"
                    + "{\"class\":\"TPV\",\"mode\":3,\"lat\":44.06,\"lon\":-121.31}\n  " + gga) == .nmea)
        // A sentence inside a record's member is no sentence line.
        #expect(sniff("{\"time\":1,\"lat\":46,\"lon\":14,\"raw\":\"x\",\n\"nmea\":\"$GPGGA,1\"}\n") == .geojson)
    }

    /// The one scan of a JSON sample's line starts (``FixFormat/LineStarts``) answers as the two scans it replaced
    /// did, on lines drawn from objects, sentences, near-sentences and blanks (seeded).
    @Test func lineStartsAnswerAsTheTwoScansTheyReplaced() {
        // The replaced scans, as they were.
        func startsALineWithNMEASentence(_ bytes: [UInt8]) -> Bool {
            var atLineStart = true
            for (i, b) in bytes.enumerated() {
                if b == 0x0A {
                    atLineStart = true
                } else if atLineStart, b != 0x20, b != 0x09 {
                    atLineStart = false
                    if b == UInt8(ascii: "$"), FixFormat.containsNMEASentence(bytes[i..<min(i + 6, bytes.count)]) {
                        return true
                    }
                }
            }
            return false
        }
        func hasSeveralObjectLines(_ bytes: [UInt8]) -> Bool {
            var lines = 0
            var atLineStart = true
            for b in bytes {
                if b == 10 {
                    atLineStart = true
                } else if atLineStart && b != 32 && b != 9 && b != 13 {
                    if b == UInt8(ascii: "{") {
                        lines += 1
                        if lines > 1 { return true }
                    }
                    atLineStart = false
                }
            }
            return false
        }
        let pieces = [
            "{\"a\":1}", " {", "\t{", "\r{", "\r$GPRMC,1", "$GPRMC,1", " $GNGGA,2", "\t$GAVTG", "$gprmc", "$GPGSV,1",
            "$GP", "x{", "[", "", "a $GPRMC", "$XXGLL,3",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<2000 {
            let text = (0..<(1 + next(6))).map { _ in pieces[next(pieces.count)] }.joined(separator: "\n")
            let bytes = Array(text.utf8)
            let starts = FixFormat.LineStarts(bytes[...], sample: bytes)
            #expect(starts.hasNMEASentence == startsALineWithNMEASentence(bytes), "\(text.debugDescription)")
            if !starts.hasNMEASentence {
                #expect(starts.hasSeveralObjectLines == hasSeveralObjectLines(bytes), "\(text.debugDescription)")
            }
            #expect(FixFormat.hasSeveralObjectLines(bytes) == hasSeveralObjectLines(bytes), "\(text.debugDescription)")
            // Scanning a prefix of the sample, the object lines are still counted over all of it.
            let cut = next(bytes.count + 1)
            let prefix = FixFormat.LineStarts(bytes[..<cut], sample: bytes)
            if !prefix.hasNMEASentence {
                #expect(
                    prefix.hasSeveralObjectLines == hasSeveralObjectLines(bytes), "\(text.debugDescription) at \(cut)")
            }
        }
    }

    /// Between the two JSON formats the extension decides: a one-line GeoJSON feature sniffs as JSON Lines.
    @Test func theExtensionDecidesBetweenGeoJSONAndJSONLines() throws {
        let folder = NSTemporaryDirectory() + "truetrack-sniff-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let feature =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":{\"time\":\"2024-01-01T00:00:00Z\"}}\n"
        for (name, expected) in [("f.geojson", FixFormat.geojson), ("f.jsonl", .jsonLines), ("f.json", .jsonLines)] {
            let path = folder + "/" + name
            try feature.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try FixFormat.detect(path: path) == expected, "\(name)")
        }
        // One feature per line (newline-delimited GeoJSON) named .geojson is read as JSON Lines, which reads it.
        let ndjson = folder + "/nd.geojson"
        try (feature + feature + feature).write(toFile: ndjson, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: ndjson) == .jsonLines)
        let gpxNamedJSONL = folder + "/g.jsonl"
        try "<?xml version=\"1.0\"?><gpx version=\"1.1\"></gpx>".write(
            toFile: gpxNamedJSONL, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: gpxNamedJSONL) == .gpx)  // outside the JSON pair, the content decides
    }

    /// UTF-16 text and ZIP archives (a KMZ) are named as what they are, not sniffed as CSV or "unrecognised" (a batch
    /// tester's); KML is read.
    @Test func utf16TextAndZIPArchivesAreNamed() throws {
        let folder = NSTemporaryDirectory() + "truetrack-sniff-enc-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let csv = "time,latitude,longitude\n2024-01-01T00:00:00Z,1,2\n"
        let cases: [(String, Data, String)] = [
            ("le.csv", Data([0xFF, 0xFE]) + csv.data(using: .utf16LittleEndian)!, "UTF-16 text"),
            (
                "be.gpx", Data([0xFE, 0xFF]) + "<?xml version=\"1.0\"?><gpx>".data(using: .utf16BigEndian)!,
                "UTF-16 text"
            ),
            ("nobom.csv", csv.data(using: .utf16LittleEndian)!, "UTF-16 text"),
            ("a.kmz", Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]), "ZIP archive"),
            // (Strava's bulk export: .gpx.gz and .fit.gz; a tester's were "unrecognised format: give --format".)
            ("a.gpx.gz", Data([0x1F, 0x8B, 0x08, 0x08, 0x00, 0x00, 0x00, 0x00]), "gzip-compressed"),
            ("a.csv.bz2", Data("BZh91AY&SY".utf8), "bzip2-compressed"),
            ("a.nmea.xz", Data([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04]), "xz-compressed"),
            (
                "a.fit", Data([14, 0x10, 0xD9, 0x07, 0x00, 0x00, 0x00, 0x00]) + Data(".FIT".utf8) + Data([0, 0]),
                "Garmin FIT"
            ),
        ]
        for (name, bytes, said) in cases {
            let path = folder + "/" + name
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                let format = try FixFormat.detect(path: path)
                Issue.record("\(name) detected as \(format)")
            } catch {
                #expect(error.description.contains(said), "\(name): \(error)")
            }
            // Also when a text format is asked for (it was "expected a <gpx> root element, found \x1F\x8B…").
            if !said.contains("UTF-16") {
                #expect(throws: ReadError.self, "\(name) --format gpx") {
                    try FixFormat.detect(path: path, explicit: .gpx)
                }
            }
        }
        // An XML document of another kind is named by its root element (a CLI tester's OpenStreetMap file, whose
        // `lat=` and `lon=` attributes were taken for a CSV header it then lacked); a CSV whose header starts with a
        // bracketed name is no XML document.
        let others: [(String, String, String)] = [
            ("map.osm", "<osm version=\"0.6\"><node id=\"1\" lat=\"52\" lon=\"13\"/></osm>\n", "OpenStreetMap file"),
            ("saved.gpx", "<!DOCTYPE html>\n<html><head><title>x</title></head></html>\n", "an HTML page"),
            ("svg.xml", "<?xml version=\"1.0\"?>\n<svg lat=\"1\" lon=\"2\"></svg>\n", "root element is <svg>"),
        ]
        for (name, text, said) in others {
            let path = folder + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: ReadError.self, "\(name)") { try FixFormat.detect(path: path) }
            do { _ = try FixFormat.detect(path: path) } catch {
                #expect(error.description.contains(said), "\(name): \(error)")
            }
        }
        let bracketed = folder + "/bracketed.csv"
        try "<time>,lat,lon\n2024-01-01T00:00:00Z,1,2\n".write(toFile: bracketed, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: bracketed) == .csv)
        // Asked for, a format is read from standard input without a sniff.
        #expect(try FixFormat.detect(path: "-", explicit: .nmea) == .nmea)
        let kml = folder + "/a.kml"
        try "<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>\n".write(
            toFile: kml, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: kml) == .kml)
        let utf8 = folder + "/ok.csv"
        try csv.write(toFile: utf8, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: utf8) == .csv)
        // A GPX that mentions "<kml>" in its text is a GPX (a reviewer's CDATA description).
        let gpx = folder + "/desc.gpx"
        try """
        <?xml version="1.0"?><gpx version="1.1" creator="x"><metadata><desc><![CDATA[Converted from <kml> by \
        hand]]></desc></metadata><trk><trkseg><trkpt lat="46" lon="14"><time>2024-01-01T00:00:00Z</time></trkpt>\
        </trkseg></trk></gpx>
        """.write(toFile: gpx, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: gpx) == .gpx)
    }

    /// The sniffer sees lines as the readers do: an IPIN log with classic Mac (lone CR) endings was "unrecognised".
    @Test func sniffsALogWithLoneCarriageReturnsByItsLines() throws {
        let path = NSTemporaryDirectory() + "truetrack-sniff-cr-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let log = "% IPIN log\rPOSI;61.3;1;49.46;11.11;0;100\rGNSS;62.0;1686735349.7;49.46;11.11;300;0;5;0.5;20;10\r"
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try FixFormat.detect(path: path) == .ipin)
    }

    @Test func guessesFromTheExtensionOnlyWhenItSaysSomething() {
        #expect(FixFormat.guess(fromExtensionOf: "a/b/track.GPX") == .gpx)
        #expect(FixFormat.guess(fromExtensionOf: "log.ndjson") == .jsonLines)
        #expect(FixFormat.guess(fromExtensionOf: "gnss_log.txt") == nil)
        #expect(FixFormat.guess(fromExtensionOf: "dir.v2/file") == nil)
    }

    @Test func parsesFormatNamesAsTheCommandLineGivesThem() {
        #expect(FixFormat(name: "NMEA") == .nmea)
        #expect(FixFormat(name: "geolife") == .geolife)
        #expect(FixFormat(name: "ndjson") == .jsonLines)
        #expect(FixFormat(name: "docx") == nil)
        for format in FixFormat.allCases { #expect(FixFormat(name: format.rawValue) == format) }
    }

    @Test func refusesStandardInputWithoutAnExplicitFormat() throws {
        #expect(throws: ReadError.self) { try FixFormat.detect(path: "-") }
        #expect(try FixFormat.detect(path: "-", explicit: .csv) == .csv)
    }
}
