import Testing

@testable import TrueTrackCore
@testable import TrueTrackIO

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny seeded random generator (SplitMix64): reproducible test inputs without Foundation.
struct GPXTestRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Uniform in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A double in `range` with full precision, or one of a few awkward values.
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        switch below(12) {
        case 0: return range.lowerBound
        case 1: return range.upperBound
        case 2: return (range.lowerBound + (range.upperBound - range.lowerBound) * unit()).rounded()
        default: return range.lowerBound + (range.upperBound - range.lowerBound) * unit()
        }
    }
}

/// A fix with every field chosen at random (each optional field present about 3 times in 4).
func randomFix(_ r: inout GPXTestRandom) -> Fix? {
    let earliest = Int64(CivilTime.daysSince1970(year: 1, month: 1, day: 1)) * 86_400_000
    let latest = Int64(CivilTime.daysSince1970(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1
    var ms: Int64
    switch r.below(6) {
    case 0: ms = earliest + Int64(r.below(Int(Int32.max))) * Int64(r.below(1_000_000))
    case 1: ms = latest - Int64(r.below(1_000_000_000))
    case 2: ms = Int64(r.below(2_000_000_000)) * 1000  // whole seconds
    default: ms = 1_500_000_000_000 + Int64(r.below(Int(Int32.max)))
    }
    ms = min(max(ms, earliest), latest)
    func maybe(_ value: Double) -> Double? { r.chance(0.75) ? value : nil }
    let accuracy: Double? =
        switch r.below(5) {
        case 0: nil
        case 1: 0  // becomes .invalid
        case 2: 1e-300
        default: r.double(0.01...5000)
        }
    let sat: Int? = r.chance(0.75) ? r.below(64) : nil
    let mocked: Bool? = r.chance(0.5) ? r.chance(0.5) : nil
    let activity: ActivityReading? =
        r.chance(0.5)
        ? ActivityReading(kind: ActivityKind.allCases[r.below(ActivityKind.allCases.count)], confidence: r.below(101))
        : nil
    return try? Fix(
        timestamp: Timestamp(millisecondsSince1970: ms),
        latitude: r.double(-90...90),
        longitude: r.double(-180...180),
        horizontalAccuracyMetres: accuracy,
        altitudeMetres: maybe(r.double(-500...9000)),
        verticalAccuracyMetres: maybe(r.double(0...300)),
        speedMetresPerSecond: maybe(r.double(0...400)),
        speedAccuracyMetresPerSecond: maybe(r.double(0...50)),
        courseDegrees: maybe(r.double(0...359.999999)),
        courseAccuracyDegrees: maybe(r.double(0...180)),
        provider: Provider.allCases[r.below(Provider.allCases.count)],
        satellitesUsed: sat,
        isMocked: mocked,
        activity: activity)
}

/// Writes fixes to memory, returning the document.
func writeGPX(_ fixes: [Fix], breaks: Set<Int> = []) throws -> [UInt8] {
    let sink = ByteSink()
    var writer = GPXWriter(sink: sink)
    for (index, fix) in fixes.enumerated() {
        if breaks.contains(index) { writer.startNewSegment() }
        try writer.write(fix)
    }
    try writer.finish()
    return sink.memory ?? []
}

@Suite struct GPXWriterTests {
    @Test func writesTheExpectedDocument() throws {
        let fix = try Fix(
            timestamp: utc("2024-05-01T12:00:00.250Z"), latitude: 46.5, longitude: -13.25,
            horizontalAccuracyMetres: 3.5, altitudeMetres: 512.8, speedMetresPerSecond: 1.5,
            courseDegrees: 90, provider: .fused, satellitesUsed: 9, isMocked: false,
            activity: ActivityReading(kind: .walking, confidence: 75))
        let text = String(decoding: try writeGPX([fix]), as: UTF8.self)
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="TrueTrack" xmlns="http://www.topografix.com/GPX/1/1" xmlns:tt="https://truetrack.dev/xmlns/1">
                <trk>
                <trkseg>
                <trkpt lat="46.5" lon="-13.25"><ele>512.8</ele><time>2024-05-01T12:00:00.250Z</time><sat>9</sat>\
                <extensions><tt:accuracy_m>3.5</tt:accuracy_m><tt:speed_mps>1.5</tt:speed_mps><tt:course_deg>90</tt:course_deg>\
                <tt:provider>fused</tt:provider><tt:mocked>false</tt:mocked><tt:activity>walking</tt:activity>\
                <tt:activity_confidence>75</tt:activity_confidence></extensions></trkpt>
                </trkseg>
                </trk>
                </gpx>

                """)
    }

    @Test func generatedFixesWithEveryFieldReadBackIdentically() throws {
        var r = GPXTestRandom(seed: 2024)
        var fixes: [Fix] = []
        while fixes.count < 2000 {
            if let fix = randomFix(&r) { fixes.append(fix) }
        }
        #expect(fixes.contains { $0.horizontalAccuracy == .invalid })
        #expect(fixes.contains { $0.activity != nil && $0.isMocked == true && $0.satellitesUsed != nil })
        let bytes = try writeGPX(fixes)
        let result = readGPXBytes(bytes)
        #expect(result.error == nil)
        #expect(result.fixes.count == fixes.count)
        for (written, read) in zip(fixes, result.fixes) where written != read {
            Issue.record("written \(written)\nread    \(read)")
            break
        }
        #expect(result.fixes == fixes)
    }

    @Test func segmentBreaksReadBackAsSegmentIndices() throws {
        var r = GPXTestRandom(seed: 7)
        var fixes: [Fix] = []
        while fixes.count < 50 {
            if let fix = randomFix(&r) { fixes.append(fix) }
        }
        // A break before the first fix is ignored (nothing to end yet); a double break makes one new segment.
        let bytes = try writeGPX(fixes, breaks: [0, 10, 11, 30])
        var reader = GPXReader(stream: ByteStream(bytes: bytes))
        var segments: [Int?] = []
        var read: [Fix] = []
        while let fix = try reader.next() {
            read.append(fix)
            segments.append(reader.lastSegmentIndex)
        }
        #expect(read == fixes)
        let expected: [Int?] = (0..<50).map { $0 < 10 ? 0 : $0 < 11 ? 1 : $0 < 30 ? 2 : 3 }
        #expect(segments == expected)
    }

    @Test func anEmptyWriterMakesAnEmptyValidDocument() throws {
        let bytes = try writeGPX([])
        let result = readGPXBytes(bytes)
        #expect(result.error == nil)
        #expect(result.fixes.isEmpty)
    }

    @Test func aTimestampOutsideGPXYearsIsUnrepresentable() throws {
        // Fix refuses such a time (its initialiser and `retimed(to:)` throw); the writer must refuse one that got
        // past them all the same (set here through the internal storage).
        var fix = try Fix(timestamp: Timestamp(millisecondsSince1970: 0), latitude: 0, longitude: 0)
        fix.storedTimestamp = Timestamp(millisecondsSince1970: -70_000_000_000_000)
        var writer = GPXWriter(sink: ByteSink())
        #expect(throws: WriteError.self) { try writer.write(fix) }
    }

    @Test func theCreatorIsEscaped() throws {
        let sink = ByteSink()
        var writer = GPXWriter(sink: sink, creator: "A & \"B\" <c>")
        try writer.finish()
        let text = String(decoding: sink.memory ?? [], as: UTF8.self)
        #expect(text.contains("creator=\"A &amp; &quot;B&quot; &lt;c&gt;\""))
    }

    @Test func writesToAFile() throws {
        let path = "/tmp/truetrack-gpx-writer-\(getpid()).gpx"
        defer { unlink(path) }
        var writer = try GPXWriter(path: path)
        let fix = try Fix(timestamp: utc("2020-01-01T00:00:00Z"), latitude: 1, longitude: 2)
        try writer.write(fix)
        try writer.finish()
        var reader = try GPXReader(path: path)
        #expect(try reader.next() == fix)
        #expect(try reader.next() == nil)
    }
}

@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct GPXWriterRecordingsTests {
    @Test(arguments: [
        "garmin-edge-800-output.gpx", "garmin-oregon-700-output.gpx", "wahoo-element-bolt.gpx",
        "mtk_logger_m241.gpx", "24173415.gpx", "korita-zbevnica.gpx", "around-visnjan-with-car.gpx",
        "Mojstrovka.gpx",
    ])
    func realFilesRoundTrip(file: String) throws {
        var reader = try GPXReader(path: Datasets.path("gpx-devices/" + file), pointKinds: .all)
        var fixes: [Fix] = []
        var segments: [Int?] = []
        while let fix = try reader.next() {
            fixes.append(fix)
            segments.append(reader.lastSegmentIndex)
        }
        // Keep the recording's segment breaks.
        let breaks = Set((1..<max(1, fixes.count)).filter { segments[$0] != segments[$0 - 1] })
        let bytes = try writeGPX(fixes, breaks: breaks)
        var again = GPXReader(stream: ByteStream(bytes: bytes))
        var reread: [Fix] = []
        var resegments: [Int?] = []
        while let fix = try again.next() {
            reread.append(fix)
            resegments.append(again.lastSegmentIndex)
        }
        #expect(reread == fixes)
        #expect(zip(resegments, resegments.dropFirst()).filter { $0 != $1 }.count == breaks.count)
        #expect(again.report.skipped(.missingTime) == 0)
    }
}
