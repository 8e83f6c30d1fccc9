import BenchmarkSupport
import TrueTrackCore
import TrueTrackIO
import TrueTrackSmoothing

/// One throughput benchmark: how to generate its input and what to run on it.
struct BenchmarkCase: Sendable {
    var name: String
    var inputName: String
    var inputExtension: String
    var quickCount: Int
    var fullCount: Int
    /// Too slow or too big for `--quick` (CI).
    var fullOnly = false
    /// The peak memory bound the benchmark asserts, in MiB.
    var memoryLimitMegabytes: Double? = nil
    var generate: @Sendable (String, Int) throws -> Void
    var run: @Sendable (String) throws -> Int
    /// Untimed preparation: when set, the child calls it on the input path and times only the work it
    /// returns (e.g. reading a file into memory before timing a computation on it).
    var prepare: (@Sendable (String) throws -> @Sendable () throws -> Int)? = nil

    /// A benchmark that times only `work`, after `prepare` turned the input into what it needs.
    init(name: String, inputName: String, inputExtension: String, quickCount: Int, fullCount: Int,
         generate: @escaping @Sendable (String, Int) throws -> Void,
         prepare: @escaping @Sendable (String) throws -> @Sendable () throws -> Int) {
        self.init(name: name, inputName: inputName, inputExtension: inputExtension, quickCount: quickCount,
                  fullCount: fullCount, generate: generate, run: { path in try prepare(path)() })
        self.prepare = prepare
    }

    init(name: String, inputName: String, inputExtension: String, quickCount: Int, fullCount: Int,
         fullOnly: Bool = false, memoryLimitMegabytes: Double? = nil,
         generate: @escaping @Sendable (String, Int) throws -> Void,
         run: @escaping @Sendable (String) throws -> Int) {
        self.name = name
        self.inputName = inputName
        self.inputExtension = inputExtension
        self.quickCount = quickCount
        self.fullCount = fullCount
        self.fullOnly = fullOnly
        self.memoryLimitMegabytes = memoryLimitMegabytes
        self.generate = generate
        self.run = run
    }

    static let all: [BenchmarkCase] = [
        BenchmarkCase(name: "read-csv", inputName: "fixes", inputExtension: "csv", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.csv) { path in
            var reader = try CSVReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(name: "read-gpx", inputName: "fixes", inputExtension: "gpx", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.gpx) { path in
            var reader = try GPXReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(name: "read-nmea", inputName: "fixes", inputExtension: "nmea", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.nmea) { path in
            var reader = try NMEAReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(name: "read-gnsslogger", inputName: "fixes", inputExtension: "gnsslogger.txt", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.gnssLogger) { path in
            var reader = try GnssLoggerReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(name: "read-jsonl", inputName: "fixes", inputExtension: "jsonl", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.jsonLines) { path in
            var reader = try JSONLinesReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(name: "read-geojson", inputName: "fixes", inputExtension: "geojson", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.geoJSON) { path in
            var reader = try GeoJSONReader(path: path)
            return try drain(&reader)
        },
        // Through the run-time format switch the CLI uses, into the CSV writer: what `convert` costs.
        BenchmarkCase(name: "convert-gpx-to-csv", inputName: "fixes", inputExtension: "gpx", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.gpx) { path in
            var reader = try AnyFixReader(path: path)
            var writer = try AnyFixWriter(path: path + ".out.csv", format: .csv)
            var count = 0
            while let fix = try reader.next() {
                try writer.write(fix)
                count += 1
            }
            try writer.finish()
            return count
        },
        // The memory bar: streaming a 1 GB file stays under 64 MB of resident memory.
        BenchmarkCase(name: "stream-1gb-csv", inputName: "big", inputExtension: "csv", quickCount: 0,
                      fullCount: 19_000_000, fullOnly: true, memoryLimitMegabytes: 64, generate: Generators.csv) { path in
            var reader = try CSVReader(path: path)
            return try drain(&reader)
        },
        BenchmarkCase(name: "stream-1gb-gpx", inputName: "big", inputExtension: "gpx", quickCount: 0,
                      fullCount: 10_000_000, fullOnly: true, memoryLimitMegabytes: 64, generate: Generators.gpx) { path in
            var reader = try GPXReader(path: path)
            return try drain(&reader)
        },
        // Whole-track smoothing (issue 7) of a noisy 1 Hz drive with stops, jumps, Doppler and gaps, read into
        // memory first (untimed): the smoother alone, driving profile, default options (Cauchy IRLS, σ).
        BenchmarkCase(name: "smooth", inputName: "drive", inputExtension: "csv", quickCount: 200_000,
                      fullCount: 1_000_000, generate: Generators.noisyDrive, prepare: { path in
            var reader = try CSVReader(path: path)
            let result = reader.readAll()
            if let error = result.error { throw error }
            let fixes = result.fixes
            return {
                let track = WholeTrackSmoother(profile: .driving).smooth(fixes)
                blackHole(track.distanceMetres + track.distanceSigmaMetres + Double(track.iterations))
                return fixes.count
            }
        }),
    ]
}

/// Reads every fix, folding them into a checksum the optimiser cannot drop.
@inline(never)
func drain<R: FixReader>(_ reader: inout R) throws -> Int {
    var count = 0
    var checksum = 0.0
    while let fix = try reader.next() {
        count += 1
        checksum += fix.latitude + Double(fix.timestamp.millisecondsSince1970 & 0xFF)
    }
    blackHole(checksum)
    return count
}
