import Testing
import TrueTrackCore

@Suite struct FixTests {
    let t = Timestamp(millisecondsSince1970: 1_700_000_000_000)

    @Test func treatsNegativeSpeedAsAbsent() throws {
        let fix = try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: -1)
        #expect(fix.speedMetresPerSecond == nil)
        #expect(
            try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: .nan).speedMetresPerSecond == nil)
        #expect(try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: 0).speedMetresPerSecond == 0)
    }

    /// No unit a logger writes a speed in reaches 100 km/s: a larger reading is damage, and is absent; a speed in
    /// mm/s (27,778 for 100 km/h) is kept for the tracker's unit check.
    @Test func treatsASpeedAbove100KilometresPerSecondAsAbsent() throws {
        for bad in [100_000.5, 1e12, 1e20, 1e308] {
            #expect(
                try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: bad).speedMetresPerSecond
                    == nil)
            var fix = try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: 3)
            fix.speedMetresPerSecond = bad
            #expect(fix.speedMetresPerSecond == nil)
        }
        #expect(
            try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: 27_778).speedMetresPerSecond
                == 27_778)
    }

    @Test func marksNonPositiveOrNaNAccuracyInvalidNotPerfect() throws {
        for bad in [0.0, -1.0, .nan, .infinity] {
            let fix = try Fix(timestamp: t, latitude: 10, longitude: 20, horizontalAccuracyMetres: bad)
            #expect(fix.horizontalAccuracy == .invalid)
            #expect(fix.horizontalAccuracyMetres == nil)
        }
        #expect(try Fix(timestamp: t, latitude: 10, longitude: 20).horizontalAccuracy == .absent)
        #expect(
            try Fix(timestamp: t, latitude: 10, longitude: 20, horizontalAccuracyMetres: 4.5).horizontalAccuracyMetres
                == 4.5)
    }

    @Test func keepsMissingValuesAbsentNeverZero() throws {
        let fix = try Fix(timestamp: t, latitude: 10, longitude: 20)
        #expect(fix.altitudeMetres == nil && fix.speedMetresPerSecond == nil && fix.courseDegrees == nil)
        #expect(fix.satellitesUsed == nil && fix.isMocked == nil && fix.activity == nil)
        #expect(fix.provider == .unknown)
    }

    @Test func wrapsCourseAndDropsNegativeCourse() throws {
        #expect(try Fix(timestamp: t, latitude: 0, longitude: 0, courseDegrees: 370).courseDegrees == 10)
        #expect(try Fix(timestamp: t, latitude: 0, longitude: 0, courseDegrees: 360).courseDegrees == 0)
        #expect(try Fix(timestamp: t, latitude: 0, longitude: 0, courseDegrees: -1).courseDegrees == nil)
    }

    /// An app that fills a fix field by field (iOS's `CLLocation` gives −1 for "unknown") gets the same fix as
    /// through the initialiser: a −1 speed set later used to be stored, and a walk counted 0 m.
    @Test func settersApplyTheInitialisersRules() throws {
        var fix = try Fix(timestamp: t, latitude: 10, longitude: 20, horizontalAccuracyMetres: 5)
        fix.speedMetresPerSecond = -1
        fix.courseDegrees = -1
        fix.speedAccuracyMetresPerSecond = -1
        fix.verticalAccuracyMetres = -1
        fix.courseAccuracyDegrees = .nan
        fix.altitudeMetres = .infinity
        #expect(fix.speedMetresPerSecond == nil && fix.courseDegrees == nil)
        #expect(fix.speedAccuracyMetresPerSecond == nil && fix.verticalAccuracyMetres == nil)
        #expect(fix.courseAccuracyDegrees == nil && fix.altitudeMetres == nil)
        fix.courseDegrees = 400
        #expect(fix.courseDegrees == 40)
        fix.speedMetresPerSecond = 1.5
        #expect(fix.speedMetresPerSecond == 1.5)
        for bad in [0.0, -1.0, .nan, .infinity] {
            fix.horizontalAccuracy = .metres(bad)
            #expect(fix.horizontalAccuracy == .invalid)
        }
        fix.horizontalAccuracy = .metres(3)
        #expect(fix.horizontalAccuracyMetres == 3)
        fix.satellitesUsed = -1
        #expect(fix.satellitesUsed == nil)
        fix.activity = ActivityReading(kind: .walking, confidence: 90)
        fix.activity?.confidence = 250
        #expect(fix.activity?.confidence == 100)
    }

    @Test func movingAFixChecksTheNewCoordinatesAndKeepsTheRest() throws {
        let fix = try Fix(
            timestamp: t, latitude: 10, longitude: 20, horizontalAccuracyMetres: 5, speedMetresPerSecond: 2)
        let moved = try fix.moved(toLatitude: 11, longitude: 21)
        #expect(moved.latitude == 11 && moved.longitude == 21)
        #expect(moved.timestamp == t && moved.horizontalAccuracyMetres == 5 && moved.speedMetresPerSecond == 2)
        #expect(throws: FixValidationError.latitudeOutOfRange(91)) { try fix.moved(toLatitude: 91, longitude: 0) }
        #expect(throws: FixValidationError.self) { try fix.moved(toLatitude: 0, longitude: .nan) }
    }

    @Test func retimingAFixChecksTheNewTimeAndKeepsTheRest() throws {
        let fix = try Fix(timestamp: t, latitude: 10, longitude: 20, speedMetresPerSecond: 2)
        let later = Timestamp(millisecondsSince1970: t.millisecondsSince1970 + 5000)
        let retimed = try fix.retimed(to: later)
        #expect(retimed.timestamp == later && retimed.latitude == 10 && retimed.speedMetresPerSecond == 2)
        #expect(throws: FixValidationError.self) {
            try fix.retimed(to: Timestamp(millisecondsSince1970: 253_402_300_800_000))
        }
    }

    @Test func rejectsOutOfRangeOrNonFiniteCoordinates() {
        #expect(throws: FixValidationError.latitudeOutOfRange(90.5)) {
            try Fix(timestamp: t, latitude: 90.5, longitude: 0)
        }
        #expect(throws: FixValidationError.longitudeOutOfRange(-180.001)) {
            try Fix(timestamp: t, latitude: 0, longitude: -180.001)
        }
        #expect(throws: FixValidationError.self) { try Fix(timestamp: t, latitude: .nan, longitude: 0) }
        #expect(throws: FixValidationError.self) { try Fix(timestamp: t, latitude: 0, longitude: .infinity) }
        #expect((try? Fix(timestamp: t, latitude: -90, longitude: 180)) != nil)
    }

    @Test func clampsActivityConfidenceToPercent() {
        #expect(ActivityReading(kind: .inVehicle, confidence: 250).confidence == 100)
        #expect(ActivityReading(kind: .still, confidence: -3).confidence == 0)
        #expect(ActivityKind.onFoot.isMoving && !ActivityKind.still.isMoving && !ActivityKind.unknown.isMoving)
    }

    @Test func mapsProviderNamesAsLoggersWriteThem() {
        #expect(Provider(name: "GPS") == .gps)
        #expect(Provider(name: "FLP") == .fused)
        #expect(Provider(name: "NLP") == .network)
        #expect(Provider(name: "GT") == .groundTruth)
        #expect(Provider(name: "") == .unknown)
        #expect(Provider(name: "bluetooth") == .other)
    }

    @Test func fixStaysATrivialValueType() {
        // No references inside: arrays of fixes copy as bytes and filters never retain/release per fix.
        #expect(_isPOD(Fix.self))
    }

    @Test func fixStaysUnder128BytesSoACopyIsInline() {
        // Above 128 bytes a copy becomes a memcpy call; the Tracker benchmark lost ~20 ns per fix to it.
        #expect(MemoryLayout<Fix>.stride <= 128)
    }

    @Test func storesAbsentMeasurementsAsNilThroughEverySetter() throws {
        var fix = try Fix(
            timestamp: t, latitude: 10, longitude: 20, altitudeMetres: 5, verticalAccuracyMetres: 2,
            speedMetresPerSecond: 1.5, speedAccuracyMetresPerSecond: 0.3, courseDegrees: 0,
            courseAccuracyDegrees: 9)
        #expect(fix.altitudeMetres == 5 && fix.verticalAccuracyMetres == 2 && fix.speedMetresPerSecond == 1.5)
        #expect(fix.speedAccuracyMetresPerSecond == 0.3 && fix.courseDegrees == 0 && fix.courseAccuracyDegrees == 9)
        fix.altitudeMetres = nil
        fix.speedMetresPerSecond = .nan
        fix.courseDegrees = -.infinity
        #expect(fix.altitudeMetres == nil && fix.speedMetresPerSecond == nil && fix.courseDegrees == nil)
        fix.altitudeMetres = -0.0
        #expect(fix.altitudeMetres == 0 && fix.altitudeMetres?.sign == .minus)
    }

    @Test func equalFixesWithAbsentMeasurementsCompareAndHashEqual() throws {
        let a = try Fix(timestamp: t, latitude: 10, longitude: 20, horizontalAccuracyMetres: 3)
        var b = try Fix(timestamp: t, latitude: 10, longitude: 20, horizontalAccuracyMetres: 3, speedMetresPerSecond: 1)
        #expect(a != b)
        b.speedMetresPerSecond = nil
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        b.satellitesUsed = 7
        #expect(a != b)
    }
}
