import Foundation
import Testing

/// The warnings about fixes without speed readings that scatter from one fix to the next by more than the walk
/// moves between them (``RunDiagnostics/scatterWarning(tracker:input:)`` and
/// ``RunDiagnostics/scatterTooFastHint(_:tracker:input:)``): the forward distance mixes in the scatter, and the
/// speed between two fixes reads as a vehicle's.
@Suite struct ScatterWarningTests {
    /// A 10-minute walk at `metresPerSecond`, one fix a second claiming 5 m, under white noise of `sigma` metres per
    /// axis, turning a right angle every minute; with a speed column of the true speed when `withSpeeds`.
    static func walk(sigma: Double, metresPerSecond: Double = 1.3, withSpeeds: Bool = false, seed: UInt64 = 3)
        -> String
    {
        var noise = SeededNoise(seed: seed)
        var csv = withSpeeds ? "time,latitude,longitude,accuracy,speed\n" : "time,latitude,longitude,accuracy\n"
        var east = 0.0, north = 0.0
        for second in 0...600 {
            let e = east + sigma * noise.gaussian(), n = north + sigma * noise.gaussian()
            csv += "\(1_714_546_800 + second),\(48.85 + n / 111_195),\(2.35 + e / 73_200),5"
            csv += withSpeeds ? ",\(metresPerSecond)\n" : "\n"
            if (second / 60) % 2 == 0 { east += metresPerSecond } else { north += metresPerSecond }
        }
        return csv
    }

    static func process(_ csv: String, _ extra: [String] = []) throws -> (metres: Double, stderr: String) {
        let path = try Tool.temporaryFile("scatter.csv", contents: csv)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Tool.run(["process", path, "--json"] + extra)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (try #require((json["distanceMetres"] as? NSNumber)?.doubleValue), run.stderr)
    }

    @Test func warnsThatAWalkWithoutSpeedsUnderHeavyScatterMixesItIn() throws {
        let (metres, stderr) = try Self.process(Self.walk(sigma: 3))
        // What the warning is about: the forward distance over-counts the 780 m walk.
        #expect(metres > 1.08 * 780, "\(metres) m")
        #expect(stderr.contains("carry no speed readings and scatter by about"), "\(stderr)")
        #expect(stderr.contains("process --smooth"), "\(stderr)")
    }

    @Test func saysNothingOfALightlyScatteredWalkOrOneWithSpeeds() throws {
        let light = try Self.process(Self.walk(sigma: 0.5))
        #expect(!light.stderr.contains("scatter"), "\(light.stderr)")
        #expect(abs(light.metres / 780 - 1) < 0.03, "\(light.metres) m")
        let withSpeeds = try Self.process(Self.walk(sigma: 3, withSpeeds: true))
        #expect(!withSpeeds.stderr.contains("scatter"), "\(withSpeeds.stderr)")
    }

    /// A reviewer's walks: under 1 m of scatter with a 20-minute halt (the halt's steps diluted the mean step), and
    /// one ending with minutes standing indoors under 3 m (the estimate at the end was the indoor one): not warned.
    @Test func judgesTheScatterAndTheStepWhileMoving() throws {
        var halted = Self.walk(sigma: 1)
        var noise = SeededNoise(seed: 5)
        let last = halted.split(separator: "\n").last!.split(separator: ",")
        let (t, lat, lon) = (Int(last[0])!, Double(last[1])!, Double(last[2])!)
        var indoor = halted
        for second in 1...1200 {
            halted += "\(t + second),\(lat + noise.gaussian() / 111_195),\(lon + noise.gaussian() / 73_200),5\n"
        }
        for second in 1...120 {
            indoor += "\(t + second),\(lat + 3 * noise.gaussian() / 111_195),\(lon + 3 * noise.gaussian() / 73_200),5\n"
        }
        for csv in [halted, indoor] {
            let (_, stderr) = try Self.process(csv)
            #expect(!stderr.contains("scatter by about"), "\(stderr)")
        }
    }

    /// A still phone under 3.7 m of white scatter, no speeds (a calibration tester's desk): its filtered speed
    /// crosses 0.5 m/s for most of the 10 minutes, but the rest gates hold it all, so no scatter is mixed in and
    /// nothing is warned of (it was: "more than the 1.3 m counted per step", with 0 m counted).
    @Test func saysNothingOfADeskWhoseScatterWasHeld() throws {
        let (metres, stderr) = try Self.process(Self.walk(sigma: 3.7, metresPerSecond: 0, seed: 11))
        #expect(metres < 5, "\(metres) m")
        #expect(!stderr.contains("scatter by about"), "\(stderr)")
    }

    @Test func saysNothingWhenTheWholeTrackIsSmoothed() throws {
        let smoothed = try Self.process(Self.walk(sigma: 3), ["--smooth"])
        #expect(!smoothed.stderr.contains("scatter"), "\(smoothed.stderr)")
    }

    /// Under 8 m of scatter a quarter of the fixes read faster than 8 m/s from their positions alone: the hint
    /// says so, instead of advising a faster profile (which would count the scatter).
    @Test func blamesTooFastRejectionsOnTheScatterNotTheProfile() throws {
        let (_, stderr) = try Self.process(Self.walk(sigma: 8))
        #expect(stderr.contains("rejected as faster than the walking profile allows"), "\(stderr)")
        #expect(stderr.contains("mostly that scatter"), "\(stderr)")
        #expect(!stderr.contains("--profile running"), "\(stderr)")
    }

    /// A run at 3 m/s read with the walking profile is held as a vehicle: the profile hint, not the scatter warning.
    @Test func aRunReadAsAWalkGetsTheProfileHintNotTheScatterWarning() throws {
        let (_, stderr) = try Self.process(Self.walk(sigma: 2, metresPerSecond: 3))
        #expect(stderr.contains("--profile running"), "\(stderr)")
        #expect(!stderr.contains("scatter by about"), "\(stderr)")
    }
}
