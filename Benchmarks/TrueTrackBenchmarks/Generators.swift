import Foundation
import TrueTrackCore

/// Deterministic synthetic inputs for the throughput benchmarks: a drive along a wavy line at ~1 Hz with
/// realistic digits (7 decimals of latitude/longitude, accuracy, speed, course), written in the formats the
/// readers parse. Generated into a temporary folder, never committed.
enum Generators {
    /// Part of every generated input's file name: bump it when a generator's output changes, so that inputs
    /// generated before (reused by name from the work folder) are not measured as the new ones.
    static let version = 2

    /// A point of the synthetic track number `i`.
    static func point(_ i: Int) -> (
        t: Int64, lat: Double, lon: Double, ele: Double, speed: Double, course: Double, acc: Double
    ) {
        let t: Int64 = 1_700_000_000_000 + Int64(i) * 1000
        let lat = 48.1 + Double(i) * 1.1e-6 + 1e-5 * sin(Double(i) * 0.01)
        let lon = 11.5 + Double(i) * 1.7e-6
        let ele = 500 + 20 * sin(Double(i) * 0.001)
        let speed = 12 + 3 * sin(Double(i) * 0.02)
        let course = (Double(i) * 0.37).truncatingRemainder(dividingBy: 360)
        let acc = 3 + Double(i % 17) * 0.5
        return (t, lat, lon, ele, speed, course, acc)
    }

    static func writeFile(
        _ path: String, count: Int, header: String = "", footer: String = "",
        row: (Int, inout [UInt8]) -> Void
    ) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var buffer: [UInt8] = Array(header.utf8)
        buffer.reserveCapacity(1 << 21)
        for i in 0..<count {
            row(i, &buffer)
            if buffer.count > 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer.append(contentsOf: footer.utf8)
        try handle.write(contentsOf: buffer)
    }

    static func append(_ s: String, _ b: inout [UInt8]) { b.append(contentsOf: s.utf8) }

    static func fixed(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }

    /// A clean 1 Hz drive whose positions move at the speed it reports, for the cases that run the Tracker: the
    /// speed, accuracy and times of ``point(_:)``, along a heading that turns through a full circle every 3,000 s
    /// (0.12° a second, with a ±5° wobble): a loop of ~37 km, so a million fixes stay within ~12 km of the start.
    /// Same CSV columns as ``csv(_:count:)``. (Until 2026-12-01 the tracker cases ran ``csv(_:count:)``'s wavy
    /// line, whose positions move ~0.2 m/s while its speed column reads 9–15 m/s: a receiver whose readings its
    /// positions contradict, not a drive.)
    static func route(_ path: String, count: Int) throws {
        var east = 0.0, north = 0.0
        try writeFile(path, count: count, header: "time,latitude,longitude,accuracy_m,speed_mps\n") { i, b in
            let p = point(i)
            let heading = (Double(i) * 0.12 + 5 * sin(Double(i) * 0.05)) * Double.pi / 180
            if i > 0 {
                east += p.speed * sin(heading)
                north += p.speed * cos(heading)
            }
            let (latitude, longitude) = coordinates(east: east, north: north)
            ISO8601.append(Timestamp(millisecondsSince1970: p.t), to: &b)
            append(",\(fixed(latitude, 7)),\(fixed(longitude, 7)),\(fixed(p.acc, 1)),\(fixed(p.speed, 2))\n", &b)
        }
    }

    /// The point `east`, `north` metres from the generated drives' origin (48.1° N, 11.5° E), degrees: a plane on
    /// the mean sphere (111,195 m a degree), exact enough for a benchmark's input.
    static func coordinates(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
        let metresPerDegree = 111_195.0
        return (48.1 + north / metresPerDegree, 11.5 + east / (metresPerDegree * cos(48.1 * Double.pi / 180)))
    }

    /// CSV: `time,latitude,longitude,accuracy_m,speed_mps` with ISO 8601 times.
    static func csv(_ path: String, count: Int) throws {
        try writeFile(path, count: count, header: "time,latitude,longitude,accuracy_m,speed_mps\n") { i, b in
            let p = point(i)
            ISO8601.append(Timestamp(millisecondsSince1970: p.t), to: &b)
            append(",\(fixed(p.lat, 7)),\(fixed(p.lon, 7)),\(fixed(p.acc, 1)),\(fixed(p.speed, 2))\n", &b)
        }
    }

    /// GPX 1.1: one track segment of `<trkpt>` with `<ele>` and `<time>`.
    static func gpx(_ path: String, count: Int) throws {
        let header = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="truetrack-benchmarks" xmlns="http://www.topografix.com/GPX/1/1">
             <trk><name>bench</name><trkseg>

            """
        try writeFile(path, count: count, header: header, footer: "  </trkseg></trk>\n</gpx>\n") { i, b in
            let p = point(i)
            append(
                "  <trkpt lat=\"\(fixed(p.lat, 7))\" lon=\"\(fixed(p.lon, 7))\"><ele>\(fixed(p.ele, 1))</ele><time>", &b
            )
            ISO8601.append(Timestamp(millisecondsSince1970: p.t), to: &b)
            append("</time></trkpt>\n", &b)
        }
    }

    /// NMEA 0183: one `$GPRMC` and one `$GPGGA` sentence per epoch, checksums correct.
    static func nmea(_ path: String, count: Int) throws {
        func sentence(_ body: String, _ b: inout [UInt8]) {
            var checksum: UInt8 = 0
            for byte in body.utf8 { checksum ^= byte }
            let hex = String(checksum, radix: 16, uppercase: true)
            append("$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n", &b)
        }
        func angle(_ v: Double, _ degreeDigits: Int) -> String {
            var d = Int(abs(v))
            // Round the minutes to the 5 decimals written, carrying 60.00000 into the degrees.
            var m = ((abs(v) - Double(d)) * 60 * 100_000).rounded() / 100_000
            if m >= 60 { d += 1; m -= 60 }
            let degrees = String(d)
            return String(repeating: "0", count: max(0, degreeDigits - degrees.count)) + degrees
                + (m < 10 ? "0" : "") + fixed(m, 5)
        }
        try writeFile(path, count: count) { i, b in
            let p = point(i)
            let c = Timestamp(millisecondsSince1970: p.t).civil
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            let time = two(c.hour) + two(c.minute) + two(c.second) + ".00"
            let date = two(c.day) + two(c.month) + two(c.year % 100)
            let lat = angle(p.lat, 2) + ",N", lon = angle(p.lon, 3) + ",E"
            sentence(
                "GPRMC,\(time),A,\(lat),\(lon),\(fixed(p.speed / 0.514444, 3)),\(fixed(p.course, 2)),\(date),,,A", &b)
            sentence("GPGGA,\(time),\(lat),\(lon),1,09,\(fixed(p.acc / 5, 2)),\(fixed(p.ele, 1)),M,47.0,M,,", &b)
        }
    }

    /// Android GnssLogger v3 log: a `# Fix,…` header and `Fix` rows with every column filled as Android does.
    static func gnssLogger(_ path: String, count: Int) throws {
        let header =
            "# Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees,elapsedRealtimeNanos,VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,VerticalSpeedAccuracyMps,SolutionType\n"
        try writeFile(path, count: count, header: header) { i, b in
            let p = point(i)
            append(
                "Fix,GPS,\(fixed(p.lat, 8)),\(fixed(p.lon, 8)),\(fixed(p.ele, 3)),\(fixed(p.speed, 3)),\(fixed(p.acc, 2)),\(fixed(p.course, 1)),\(p.t),0.5,12.0,\(Int64(i) * 1_000_000_000),4.5,0,18,0.8,\n",
                &b)
        }
    }

    /// JSON Lines with TrueTrack's canonical keys (written by the project's own writer format).
    static func jsonLines(_ path: String, count: Int) throws {
        try writeFile(path, count: count) { i, b in
            let p = point(i)
            append("{\"time\":\"", &b)
            ISO8601.append(Timestamp(millisecondsSince1970: p.t), to: &b)
            append(
                "\",\"latitude\":\(fixed(p.lat, 7)),\"longitude\":\(fixed(p.lon, 7)),\"accuracy_m\":\(fixed(p.acc, 1)),\"speed_mps\":\(fixed(p.speed, 2))}\n",
                &b)
        }
    }

    /// GeoJSON FeatureCollection of Point features.
    static func geoJSON(_ path: String, count: Int) throws {
        try writeFile(
            path, count: count, header: "{\"type\":\"FeatureCollection\",\"features\":[\n",
            footer: "]}\n"
        ) { i, b in
            let p = point(i)
            append(i == 0 ? "" : ",\n", &b)
            append(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(fixed(p.lon, 7)),\(fixed(p.lat, 7))]},\"properties\":{\"time\":\"",
                &b)
            ISO8601.append(Timestamp(millisecondsSince1970: p.t), to: &b)
            append("\",\"accuracy_m\":\(fixed(p.acc, 1)),\"speed_mps\":\(fixed(p.speed, 2))}}", &b)
        }
    }
}

extension Generators {
    /// A noisy 1 Hz drive for the smoother: the wavy line of ``point(_:)`` with a 10-minute cycle of driving
    /// and a 40 s stop (speed 0, no course), seeded Gaussian position noise of the stated accuracy
    /// (σ per axis = accuracy / 1.5), 1 % multipath jumps of 20–60 m, Doppler speed (σ 0.3 m/s) and course
    /// (σ 2°), and a 60 s gap every 20 000 fixes. CSV with the canonical header.
    static func noisyDrive(_ path: String, count: Int) throws {
        var state: UInt64 = 0x5EED_5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }
        func gaussian() -> Double {
            (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * Double.pi * uniform())
        }
        var east = 0.0, north = 0.0, heading = 60.0, t: Int64 = 1_700_000_000_000
        try writeFile(
            path, count: count,
            header: "time,latitude,longitude,accuracy_m,speed_mps,speed_accuracy_mps,course_deg\n"
        ) { i, b in
            let stopped = i % 600 >= 560
            let speed = stopped ? 0 : 14 + 6 * sin(Double(i) * 0.013)
            heading += stopped ? 0 : 3 * sin(Double(i) * 0.05)
            let h = heading * Double.pi / 180
            east += speed * sin(h)
            north += speed * cos(h)
            t += i > 0 && i % 20_000 == 0 ? 60_000 : 1000
            let accuracy = 3 + Double(i % 17) * 0.3
            var e = east + gaussian() * accuracy / 1.5, n = north + gaussian() * accuracy / 1.5
            if uniform() < 0.01 {
                let jump = 20 + 40 * uniform(), a = 2 * Double.pi * uniform()
                e += jump * sin(a)
                n += jump * cos(a)
            }
            let (latitude, longitude) = coordinates(east: e, north: n)
            ISO8601.append(Timestamp(millisecondsSince1970: t), to: &b)
            let measuredSpeed = stopped ? abs(0.1 * gaussian()) : speed + 0.3 * gaussian()
            let course =
                stopped
                ? ""
                : fixed(
                    ((heading + 2 * gaussian()).truncatingRemainder(dividingBy: 360) + 360)
                        .truncatingRemainder(dividingBy: 360), 1)
            append(
                ",\(fixed(latitude, 7)),\(fixed(longitude, 7)),\(fixed(accuracy, 1)),\(fixed(measuredSpeed, 2)),0.3,\(course)\n",
                &b)
        }
    }
}
