import Foundation
import Testing
import TrueTrackCore
import TrueTrackSimulation

@testable import TrueTrackIO

/// Feeds thousands of seeded random mutations of valid GnssLogger, IPIN and GeoLife inputs to their readers and
/// checks that reading never crashes, always ends, yields only valid fixes and reports every error with a
/// line number.
@Suite struct RecorderLogRobustnessTests {
    static let mutationsPerReader = 3000

    /// Tokens worth inserting: separators, line ends, huge and non-finite numbers, format keywords.
    static let tokens: [String] = [
        ",", ";", "\n", "\r\n", "\t", "#", "%", "\0", "-", ".", "e", "nan", "inf", "-inf", "NaN", "1e999", "-1e999",
        "1e-400", "99999999999999999999999999", "9223372036854775808", "-9223372036854775809",
        "0.00000000000000000000000000001", "Fix,", "GNSS;", "POSI;",
        "# Fix,Provider,Latitude,Longitude,UnixTimeMillis\n",
        "MessageType,LatitudeDegrees\n", ",,,,,,,,,,,,,,,,", ";;;;;;;;;;", "\u{FEFF}", "\u{00e9}", "\u{FF}",
        "2008-02-30", "99:99:99", "-777", "-29co.199999", String(repeating: "9", count: 600),
    ]

    /// A seeded random mutation of `seed`.
    static func mutate(_ seed: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        let steps = 1 + rng.below(4)
        for _ in 0..<steps {
            switch rng.below(9) {
            case 0:  // truncate
                bytes = Array(bytes.prefix(rng.below(bytes.count + 1)))
            case 1:  // flip random bytes
                for _ in 0..<(1 + rng.below(4)) where !bytes.isEmpty {
                    bytes[rng.below(bytes.count)] = UInt8(truncatingIfNeeded: rng.next())
                }
            case 2:  // insert a token
                let token = Array(tokens[rng.below(tokens.count)].utf8)
                bytes.insert(contentsOf: token, at: rng.below(bytes.count + 1))
            case 3:  // insert random garbage
                let garbage = (0..<(1 + rng.below(32))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                bytes.insert(contentsOf: garbage, at: rng.below(bytes.count + 1))
            case 4:  // delete a span
                if !bytes.isEmpty {
                    let start = rng.below(bytes.count)
                    let end = min(bytes.count, start + 1 + rng.below(40))
                    bytes.removeSubrange(start..<end)
                }
            case 5:  // replace a number-looking span with a token
                if !bytes.isEmpty {
                    let at = rng.below(bytes.count)
                    var end = at
                    while end < bytes.count, (bytes[end] >= 48 && bytes[end] <= 57) || bytes[end] == 46 { end += 1 }
                    bytes.replaceSubrange(at..<end, with: Array(tokens[rng.below(tokens.count)].utf8))
                }
            case 6:  // duplicate a span (repeated lines)
                if !bytes.isEmpty {
                    let start = rng.below(bytes.count)
                    let end = min(bytes.count, start + 1 + rng.below(200))
                    bytes.insert(contentsOf: bytes[start..<end], at: rng.below(bytes.count + 1))
                }
            case 7:  // empty input
                if rng.below(8) == 0 { bytes = [] }
            default:  // strip line ends: one huge line
                if rng.below(4) == 0 { bytes.removeAll { $0 == 0x0A } }
            }
        }
        return bytes
    }

    /// The lines a stream reads in `bytes`: every LF ends one, and so does every lone CR (one not followed by
    /// an LF) except a CR that is the input's last byte.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        var lines = 1
        for (i, byte) in bytes.enumerated() {
            if byte == 0x0A || (byte == 0x0D && i + 1 < bytes.count && bytes[i + 1] != 0x0A) { lines += 1 }
        }
        return lines
    }

    /// Checks one error: a located, in-range position.
    static func check(_ error: ReadError, size: Int, _ context: String) {
        if case .io = error {
            Issue.record("\(context): unexpected I/O error \(error)")
            return
        }
        let location = error.location
        #expect(location.line > 0, "\(context): \(error)")
        #expect(location.column >= 0 && location.byteOffset >= 0 && location.byteOffset <= size, "\(context): \(error)")
        #expect(!error.description.isEmpty)
    }

    /// Reads `bytes` to the end (strict and lenient), checking termination, fix validity and error locations.
    static func exercise<R: FixReader>(
        _ bytes: [UInt8], _ context: String,
        _ make: (ByteStream, ReadOptions) -> R
    ) {
        let lines = lineCount(bytes)
        for lenient in [false, true] {
            var reader = make(ByteStream(bytes: bytes, name: "mutant"), ReadOptions(lenient: lenient))
            var calls = 0
            do {
                while let fix = try reader.next() {
                    calls += 1
                    // Plain checks (an #expect per fix is slow in debug builds); recorded only on failure.
                    let valid =
                        fix.latitude.isFinite && abs(fix.latitude) <= 90 && fix.longitude.isFinite
                        && abs(fix.longitude) <= 180 && (fix.altitudeMetres?.isFinite ?? true)
                        && (fix.speedMetresPerSecond.map { $0.isFinite && $0 >= 0 } ?? true)
                    if !valid { Issue.record("\(context): invalid fix \(fix)") }
                    if calls > lines {
                        Issue.record("\(context): more fixes than lines")
                        break
                    }
                }
                #expect(reader.report.recordsRead == lines || reader.report.recordsRead == lines - 1, "\(context)")
            } catch {
                #expect(!lenient, "\(context): lenient reading threw \(error)")
                check(error, size: bytes.count, context)
            }
            for kept in reader.report.errors { check(kept, size: bytes.count, context) }
            #expect(reader.report.errors.count <= ReadReport.maximumKeptErrors)
        }
    }

    /// The first lines of a real recording that match `keep`, or `fallback` when the data sets are absent.
    static func excerpt(_ relative: String, fallback: String, keep: (String) -> Bool) -> [UInt8] {
        guard Datasets.available,
            let text = try? String(contentsOfFile: Datasets.path(relative), encoding: .utf8)
        else {
            return Array(fallback.utf8)
        }
        // "\r\n" is one Character in Swift: split on newline characters, not on "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            .filter(keep)
        return Array(lines.joined(separator: "\n").utf8)
    }

    static func seeds(_ seeds: [[UInt8]], count: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in mutate(seeds[rng.below(seeds.count)], &rng) }
    }

    // MARK: - Readers

    @Test func gnssLoggerSurvivesMutations() {
        var fixRows = 0
        var otherRows = 0
        let real = Self.excerpt("gnsslogger-samples/pixel6.txt", fallback: "") { line in
            if line.hasPrefix("# Fix") || line.hasPrefix("# Version") { return true }
            if line.hasPrefix("Fix,") { fixRows += 1; return fixRows <= 12 }
            if line.hasPrefix("Status") || line.hasPrefix("Agc") { otherRows += 1; return otherRows <= 2 }
            return false
        }
        let pixel4 = Self.excerpt("gnsslogger-samples/Pixel4_GnssLog.txt", fallback: "") {
            $0.hasPrefix("# Fix") || $0.hasPrefix("Fix,")
        }
        let handMade = Array(
            """
            # Version: 1.4.0.0, Platform: N
            # Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs
            Fix,gps,37.422541,-122.081659,-33.000000,0.000000,3.000000,1467321969000
            Raw,72065126,72076939000000,,,-1151285108458178048,0.0
            Fix,gps,37.422538,-122.081655,-32.000000,0.940000,3.000000,1467321973000
            # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees,elapsedRealtimeNanos,VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals
            Fix,FLP,37.4265084000,-122.1737085000,1.7895395873822721,0.032405708,4.139,,1699400584473,0.1958978,,16126559152000,1.391284,0,12
            Fix,NLP,37.4266961000,-122.1735829000,8.300000190734863,,15.136,,1699400585063,,,16127149000000,2.5976572,1,
            """.utf8)
        #expect(!Datasets.available || (real.count > 1000 && pixel4.count > 500))
        let inputs = Self.seeds(
            [real, pixel4, handMade].filter { !$0.isEmpty }, count: Self.mutationsPerReader, seed: 1)
        for (k, bytes) in inputs.enumerated() {
            Self.exercise(bytes, "GnssLogger mutation \(k)") { GnssLoggerReader(stream: $0, options: $1) }
        }
        // A provider filter goes through the same paths.
        for (k, bytes) in inputs.prefix(300).enumerated() {
            Self.exercise(bytes, "GnssLogger filtered mutation \(k)") { stream, options in
                var filtered = options
                filtered.providers = [.gps]
                return GnssLoggerReader(stream: stream, options: filtered)
            }
        }
    }

    @Test func ipinSurvivesMutations() {
        var comments = 0, gnss = 0, posi = 0
        let real = Self.excerpt("ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition02.txt", fallback: "") { line in
            if line.hasPrefix("%") { comments += 1; return comments <= 3 }
            if line.hasPrefix("GNSS;") { gnss += 1; return gnss <= 30 && gnss >= 15 }
            if line.hasPrefix("POSI;") { posi += 1; return posi <= 3 }
            return false
        }
        let handMade = Array(
            """
            % LogFile created by the 'GetSensorData' App for Android.
            GNSS;2.8043;1686733381.5100;49.461219;11.111015;362.000;0.000;14.0;0.5;17;16
            GNSS;2.8067;1686733381.5100;49.461219;11.111015;362.000;0.000;14.0;0.5;17;16
            GNSS;15.4368;1686733375.2900;49.461693;11.109047;0.000;0.000;748.0;0.0;24;21
            POSI;61.8086;1;49.461316433032;11.110964442580;0;100
            ACCE;1.0;2.0;0.1;0.2;9.8;3
            POSI;67.512;2;49.461275602490;11.110988346746;0;100;
            GNSS;199.2881;1686733578.0000;49.461274;11.110996;364.000;304.800;7.0;0.4;24;23
            """.utf8)
        let inputs = Self.seeds([real, handMade].filter { !$0.isEmpty }, count: Self.mutationsPerReader, seed: 2)
        for (k, bytes) in inputs.enumerated() {
            Self.exercise(bytes, "IPIN mutation \(k)") { IPINReader(stream: $0, options: $1) }
            // The waypoint reader over the same mutant.
            let lines = Self.lineCount(bytes)
            for lenient in [false, true] {
                var reader = IPINWaypointReader(
                    stream: ByteStream(bytes: bytes), options: ReadOptions(lenient: lenient))
                var count = 0
                do {
                    while let waypoint = try reader.next() {
                        count += 1
                        if !(abs(waypoint.latitude) <= 90 && abs(waypoint.longitude) <= 180
                            && waypoint.appTimestampSeconds.isFinite)
                        {
                            Issue.record("IPIN waypoints \(k): invalid \(waypoint)")
                        }
                        if count > lines { Issue.record("IPIN waypoints \(k): more than lines"); break }
                    }
                } catch {
                    Self.check(error, size: bytes.count, "IPIN waypoints \(k)")
                }
                for kept in reader.report.errors { Self.check(kept, size: bytes.count, "IPIN waypoints \(k)") }
            }
        }
    }

    @Test func geoLifeSurvivesMutations() {
        var n = 0
        let real = Self.excerpt("geolife-010-mixed/Trajectory/20080402060926.plt", fallback: "") { _ in
            n += 1
            return n <= 24
        }
        let handMade = Array(
            """
            Geolife trajectory
            WGS 84
            Altitude is in Feet
            Reserved 3
            0,2,255,My Track,0,0,2,8421376
            0
            39.984702,116.318417,0,492,39744.1201851852,2008-10-23,02:53:04
            39.984683,116.31845,0,-777,39744.1202546296,2008-10-23,02:53:10
            39.984686,116.318417,0,492,39744.1203125,,
            """.utf8)
        let inputs = Self.seeds([real, handMade].filter { !$0.isEmpty }, count: Self.mutationsPerReader, seed: 3)
        for (k, bytes) in inputs.enumerated() {
            Self.exercise(bytes, "GeoLife mutation \(k)") { GeoLifePLTReader(stream: $0, options: $1) }
        }
    }

    @Test func geoLifeLabelsSurviveMutations() {
        var n = 0
        let real = Self.excerpt("geolife-010-mixed/labels.txt", fallback: "") { _ in
            n += 1
            return n <= 12
        }
        let handMade = Array(
            "Start Time\tEnd Time\tTransportation Mode\r\n2008/04/02 06:09:26\t2008/04/02 06:28:25\twalk\r\n2008/04/02 06:30:57\t2008/04/02 06:34:20\ttaxi\r\n"
                .utf8)
        let inputs = Self.seeds([real, handMade].filter { !$0.isEmpty }, count: Self.mutationsPerReader, seed: 4)
        for (k, bytes) in inputs.enumerated() {
            let lines = Self.lineCount(bytes)
            for lenient in [false, true] {
                do {
                    let result = try GeoLifeLabels.read(
                        stream: ByteStream(bytes: bytes), options: ReadOptions(lenient: lenient))
                    #expect(result.intervals.count <= lines)
                    #expect(result.intervals.allSatisfy { $0.start <= $0.end && !$0.mode.isEmpty })
                    for kept in result.report.errors { Self.check(kept, size: bytes.count, "labels \(k)") }
                } catch {
                    #expect(!lenient, "labels \(k): lenient reading threw \(error)")
                    Self.check(error, size: bytes.count, "labels \(k)")
                }
            }
        }
    }

    /// A line longer than the stream's record limit is a located error, not unbounded memory.
    @Test func overlongLinesAreBounded() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "overlong-\(UInt32.random(in: 0...UInt32.max)).txt"
        ).path
        let text =
            "# Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs\n"
            + "Fix,gps,1,2,3,0,5,1467321969000\n" + "Fix,gps," + String(repeating: "1", count: 100_000) + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = GnssLoggerReader(stream: try ByteStream(path: path, chunkBytes: 1024, maximumRecordBytes: 8192))
        let result = reader.readAll()
        #expect(result.fixes.count == 1)
        guard case .recordTooLong(let location, 8192)? = result.error else {
            Issue.record("expected recordTooLong, got \(String(describing: result.error))")
            return
        }
        #expect(location.line == 3)
    }
}
