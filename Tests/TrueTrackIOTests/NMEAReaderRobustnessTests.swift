import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackIO

@Suite struct NMEAReaderRobustnessTests {
    /// Valid input exercising every path: plain and GnssLogger-wrapped sentences, GST, VTG, GSA, comments,
    /// a sentence without checksum, UBX-like binary, and a midnight rollover.
    static let base: [UInt8] = {
        var text = "# gpsd-style header\n"
        text += nmeaSentence("GNRMC,235958.00,A,4552.65550,S,17030.00756,E,0.214,12.5,311219,,,A,V") + "\r\n"
        text += nmeaSentence("GNVTG,12.5,T,,M,0.214,N,0.396,K,A") + "\r\n"
        text += nmeaSentence("GNGGA,235958.00,4552.65550,S,17030.00756,E,1,12,1.17,16.7,M,1.8,M,,") + "\r\n"
        text += nmeaSentence("GNGSA,A,3,04,07,08,09,16,26,31,,,,,,2.1,0.8,2.0,1") + "\r\n"
        text += nmeaSentence("GNGST,235958.00,0.989,,,,0.387,0.307,1.074") + "\r\n"
        text += "$GPGGA,235959.50,4552.65551,S,17030.00757,E,4,12,0.9,16.8,M,1.8,M,,\n"
        text += nmeaSentence("GPGSV,3,1,10,02,25,181,42,06,45,146,45,12,19,292,47,13,17,209,43,1") + "\n"
        var bytes = Array(text.utf8)
        bytes += [0xB5, 0x62, 0x01, 0x07, 0x24, 0x2A, 0x00, 0x0A, 0x4D, 0x0A, 0xB5, 0x62]
        bytes += Array(
            ("NMEA," + nmeaSentence("GNGGA,000000.00,4552.65552,S,17030.00758,E,1,12,1.17,16.9,M,1.8,M,,")
                + ",1577836800000\n").utf8)
        bytes += Array(
            ("NMEA," + nmeaSentence("GNRMC,000001.00,A,4552.65553,S,17030.00759,E,1.0,,010120,,,A")
                + ",1577836801000\n").utf8)
        bytes += Array(
            (nmeaSentence("GNGGA,000001.00,4552.65553,S,17030.00759,E,1,12,1.17,16.9,M,1.8,M,,") + "\n").utf8)
        return bytes
    }()

    static let fragments: [[UInt8]] =
        [
            "$", "*", ",", "\n", "\r\n", "\r", "#", "NMEA,", "$GPGGA,", "$GNRMC,", "*00", "1e308", "-1e308",
            "99999999999999999999999", "nan", "inf", "-0", "9999.9999", "0000.0000", "18000.000", "235960",
            ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,", "\u{0}", "-", ".", "..", "E", "W", "V", "0", "8",
        ].map { Array($0.utf8) } + [[0xB5, 0x62], [0xFF], [0x80, 0x81, 0x82]]

    /// One random mutation of `input`: truncation, byte flips, inserted fragments or garbage, deletions,
    /// duplicated ranges, or field replacement with extreme values.
    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...rng.below(4) {
            switch rng.below(7) {
            case 0:
                bytes = Array(bytes.prefix(rng.below(bytes.count + 1)))
            case 1:
                if !bytes.isEmpty { bytes[rng.below(bytes.count)] ^= UInt8(1 << rng.below(8)) }
            case 2:
                let fragment = fragments[rng.below(fragments.count)]
                bytes.insert(contentsOf: fragment, at: rng.below(bytes.count + 1))
            case 3:
                var garbage = [UInt8]()
                for _ in 0..<rng.below(40) { garbage.append(UInt8(truncatingIfNeeded: rng.next())) }
                bytes.insert(contentsOf: garbage, at: rng.below(bytes.count + 1))
            case 4:
                if !bytes.isEmpty {
                    let start = rng.below(bytes.count)
                    let end = min(bytes.count, start + rng.below(30))
                    bytes.removeSubrange(start..<end)
                }
            case 5:
                if !bytes.isEmpty {
                    let start = rng.below(bytes.count)
                    let end = min(bytes.count, start + rng.below(200))
                    bytes.insert(contentsOf: bytes[start..<end], at: rng.below(bytes.count + 1))
                }
            default:
                // Replace the text between two commas with an extreme value.
                let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
                if commas.count >= 2 {
                    let k = rng.below(commas.count - 1)
                    let fragment = fragments[rng.below(fragments.count)]
                    bytes.replaceSubrange((commas[k] + 1)..<commas[k + 1], with: fragment)
                }
            }
        }
        return bytes
    }

    /// Reads `bytes` to the end (strict: to the first error), checking termination, error locations and fixes.
    @discardableResult
    static func check(_ bytes: [UInt8], lenient: Bool) -> (fixes: Int, threw: Bool, keptErrors: Int) {
        var fixes = 0
        var threw = false
        // (Each call returns a fix, an error or the end; a fix needs a sentence, and a line may hold several glued on.)
        let lineCount = bytes.filter { $0 == 0x0A }.count + 1
        let sentenceCount = bytes.filter { $0 == UInt8(ascii: "$") }.count
        var reader = NMEAReader(stream: ByteStream(bytes: bytes), options: ReadOptions(lenient: lenient))
        var calls = 0
        while true {
            calls += 1
            guard calls <= lineCount + sentenceCount + 2 else {
                Issue.record("more next() calls than lines and sentences: no termination")
                return (fixes, threw, reader.report.errors.count)
            }
            do {
                guard let fix = try reader.next() else { break }
                fixes += 1
                let latitudeOK = fix.latitude.isFinite && abs(fix.latitude) <= 90
                let longitudeOK = fix.longitude.isFinite && abs(fix.longitude) <= 180
                #expect(latitudeOK)
                #expect(longitudeOK)
                #expect(fix.provider == .gps)
                if let a = fix.horizontalAccuracyMetres {
                    let accuracyOK = a.isFinite && a > 0
                    #expect(accuracyOK)
                }
            } catch {
                threw = true
                #expect(!lenient, "lenient reading threw \(error)")
                #expect(error.location.line > 0, "\(error)")
                let offset = error.location.byteOffset
                #expect(offset >= 0)
                #expect(offset <= bytes.count)
                break
            }
        }
        for error in reader.report.errors {
            #expect(error.location.line > 0, "\(error)")
        }
        #expect(reader.report.bytesRead <= bytes.count)
        return (fixes, threw, reader.report.errors.count)
    }

    @Test func baseInputReads() {
        let result = readNMEA(bytes: NMEAReaderRobustnessTests.base)
        #expect(result.error == nil)
        #expect(
            result.fixes.map(\.timestamp.millisecondsSince1970) == [
                1_577_836_798_000, 1_577_836_799_500, 1_577_836_800_000, 1_577_836_801_000,
            ])
        #expect(result.report.skipped(.binaryNoise) == 3)
    }

    @Test func survivesThreeThousandMutations() {
        var rng = SplitMix64(seed: 0x4E4D_4541_2030_3138)
        var strictThrows = 0, lenientErrors = 0, fixes = 0
        for _ in 0..<3000 {
            let mutated = NMEAReaderRobustnessTests.mutate(NMEAReaderRobustnessTests.base, &rng)
            let strict = NMEAReaderRobustnessTests.check(mutated, lenient: false)
            let lenient = NMEAReaderRobustnessTests.check(mutated, lenient: true)
            strictThrows += strict.threw ? 1 : 0
            lenientErrors += lenient.keptErrors
            fixes += lenient.fixes
        }
        // The mutations reach the error paths and still leave most fixes readable.
        #expect(strictThrows > 100)
        #expect(lenientErrors > 100)
        #expect(fixes > 3000)
    }

    /// A line longer than the record limit (a logger that lost power leaves megabytes of NUL bytes): lenient
    /// reading counts it and goes on after it, so the sentences after it are kept (before, the read stopped at
    /// it: a batch tester's 20 MB of NULs in a log lost the 100 sentences after it); strict reading stops there.
    @Test func lenientReadingPassesOverALineLongerThanTheRecordLimit() throws {
        func rmc(_ second: Int) -> String {
            nmeaSentence("GPRMC,12000\(second),A,4807.038,N,01131.000,E,0.0,0.0,290224,,") + "\n"
        }
        var bytes = Array((rmc(0) + rmc(1) + rmc(2)).utf8)
        bytes += [UInt8](repeating: 0, count: 10_000) + [0x0A]
        bytes += Array((rmc(3) + rmc(4) + "$GPRMC,bad\n" + rmc(5)).utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nul-\(UUID().uuidString).nmea").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for chunk in [64, 1000] {
            let stream = try ByteStream(path: path, chunkBytes: chunk, maximumRecordBytes: 4096)
            var reader = NMEAReader(stream: stream, options: ReadOptions(lenient: true))
            let result = reader.readAll()
            #expect(result.error == nil)
            #expect(result.fixes.count == 6, "chunk \(chunk): \(result.fixes.count) fixes")
            // The long line is line 4; the bad sentence after it, line 7.
            #expect(result.report.errors.map(\.location.line) == [4, 7], "\(result.report.errors)")
            var strict = NMEAReader(stream: try ByteStream(path: path, chunkBytes: chunk, maximumRecordBytes: 4096))
            let stopped = strict.readAll()
            #expect(stopped.fixes.count == 3)
            guard case .recordTooLong? = stopped.error else {
                Issue.record("expected the long line to stop a strict read: \(String(describing: stopped.error))")
                continue
            }
        }
    }

    @Test func degenerateInputs() {
        let inputs: [[UInt8]] = [
            [], [0x0A], [0x24], [0x2A], Array("$*".utf8), Array("$GPGGA".utf8), Array("$GPGGA,*".utf8),
            Array("$GPGGA,*4".utf8), Array(repeating: 0x24, count: 5000), Array(repeating: 0x2C, count: 5000),
            Array(repeating: 0x0A, count: 5000), Array(repeating: 0xFF, count: 5000),
            Array(("NMEA," + nmeaSentence("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,290224,,") + ",x").utf8),
            Array(nmeaSentence("GPRMC,999999.999999,A,99999.9999999999999999,N,999999.99,E,1e308,-1,999999,,").utf8),
            Array(nmeaSentence("GPGGA,120000,nan,N,inf,E,1,-5,-1,nan,M,,M,,").utf8),
            Array(nmeaSentence("GPGST,120000,,,,,1e308,1e308,inf").utf8),
        ]
        for input in inputs {
            NMEAReaderRobustnessTests.check(input, lenient: false)
            NMEAReaderRobustnessTests.check(input, lenient: true)
        }
    }
}

@Suite struct NMEAExtremeTimeTests {
    func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex)
    }

    @Test func ignoresLoggerTimesOutsideTheRepresentableYears() throws {
        // GnssLogger wrapping with absurd Unix milliseconds (Int64.max, year ~287,000): read as absent, no trap.
        for millis in ["9223372036854775807", "9000000000000000", "-9223372036854775808"] {
            let text =
                ["120000.00", "120001.00"].map {
                    "NMEA," + sentence("GPGGA,\($0),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,") + ",\(millis)"
                }.joined(separator: "\n") + "\n"
            var reader = NMEAReader(stream: ByteStream(bytes: Array(text.utf8)))
            let result = reader.readAll()
            #expect(result.error == nil)
            #expect(result.fixes.isEmpty)  // no date anywhere: skipped as missing time, not given an absurd one
            #expect(reader.report.skipped(.missingTime) == 2)
        }
    }
}
