import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackSmoothing

/// The whole-track smoother under a speed column of placeholder zeros (`SmoothingOptions.speedReadingCheck`).
@Suite struct PlaceholderSpeedTests {
    /// A working day at `interval` s (parked 10 minutes, 7,152 m at up to 12 m/s with one turn, pulling away
    /// and braking at 3 m/s², parked 10 minutes), 3 m of white noise per axis, every reading `reading(speed)` of
    /// the true speed.
    static func day(interval: Int, reading: (_ metresPerSecond: Double) -> Double?) -> [Fix] {
        var state: UInt64 = 42
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func gaussian() -> Double { 3 * (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform()) }
        return stride(from: 0, to: 1_800, by: interval).map { t in
            let s = min(max(Double(t), 600), 1_200)
            let speed = min(12, 3 * (s - 600), 3 * (1_200 - s))
            let along =
                s < 604
                ? 1.5 * (s - 600) * (s - 600)
                : s > 1_196 ? 7_152 - 1.5 * (1_200 - s) * (1_200 - s) : 24 + 12 * (s - 604)
            let east = min(along, 3_600) + gaussian(), north = max(along - 3_600, 0) + gaussian()
            return try! Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000 + Int64(t) * 1000),
                latitude: 49 + north / 111_200, longitude: 11 + east / (111_200 * 0.656),
                horizontalAccuracyMetres: 5, speedMetresPerSecond: reading(speed))
        }
    }

    /// A reviewer's drive under zeros read 0 m ± 7.2 km: the zeros were a standing receiver's velocity and the
    /// stillness gate's evidence. The forward tracker's verdict leaves them out; with the check off, the old
    /// answer is back (so the test can fail).
    @Test(arguments: [1, 5])
    func smoothsADriveUnderAColumnOfZeros(interval: Int) {
        let fixes = Self.day(interval: interval) { _ in 0 }
        let checked = WholeTrackSmoother(options: SmoothingOptions(profile: .driving)).smooth(fixes)
        #expect(abs(checked.distanceMetres - 7_200) < 0.06 * 7_200, "\(checked.distanceMetres) m")
        #expect(checked.distanceSigmaMetres < 0.05 * 7_200, "σ \(checked.distanceSigmaMetres) m")
        var options = SmoothingOptions(profile: .driving)
        options.speedReadingCheck = nil
        let unchecked = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(unchecked.distanceMetres < 100, "\(unchecked.distanceMetres) m with every zero believed")
    }

    /// A column zeroed 20 s of every minute while driving (a logger that writes 0 while its receiver has no
    /// speed): the zeros after each fall no braking makes are the tracker's dropouts (``ReadingDrop``), left out
    /// too (the GSDC Pixel 4 drive so mangled smoothed 34.2 km of 40.1, now 40.1); believed, they cut the drive.
    @Test func smoothsADriveWhoseColumnDropsOutInStretches() {
        var second = -1
        let fixes = Self.day(interval: 1) { speed in
            second += 1
            return second % 60 >= 20 ? speed : 0
        }
        let marked = Tracker.overruledSpeedReadings(in: fixes, profile: .driving)
        #expect((marked?.filter { $0 }.count ?? 0) >= 150, "\(marked?.filter { $0 }.count ?? 0) readings left out")
        let checked = WholeTrackSmoother(options: SmoothingOptions(profile: .driving)).smooth(fixes)
        #expect(abs(checked.distanceMetres - 7_152) < 0.03 * 7_152, "\(checked.distanceMetres) m")
        var options = SmoothingOptions(profile: .driving)
        options.speedReadingCheck = nil
        let unchecked = WholeTrackSmoother(options: options).smooth(fixes)
        #expect(unchecked.distanceMetres < 0.9 * 7_152, "\(unchecked.distanceMetres) m with every zero believed")
    }

    /// A file written newest first: the smoother sorts it, and the check judges it in time order too (fed in the
    /// file's order, the tracker rejected all but one fix as out of order and the zeros were kept: 0 m).
    @Test func judgesAReversedFileInTimeOrder() {
        let fixes = Self.day(interval: 1) { _ in 0 }
        let smoothed = WholeTrackSmoother(options: SmoothingOptions(profile: .driving)).smooth(fixes.reversed())
        #expect(abs(smoothed.distanceMetres - 7_200) < 0.06 * 7_200, "\(smoothed.distanceMetres) m")
    }

    /// True readings (and no readings) are left alone: the check finds nothing to overrule, and the result is the
    /// one without the check, bit for bit.
    @Test func leavesTrueReadingsAlone() {
        for fixes in [Self.day(interval: 1) { $0 }, Self.day(interval: 1) { _ in nil }] {
            #expect(Tracker.overruledSpeedReadings(in: fixes, profile: .driving) == nil)
            var options = SmoothingOptions(profile: .driving)
            let checked = WholeTrackSmoother(options: options).smooth(fixes)
            options.speedReadingCheck = nil
            let unchecked = WholeTrackSmoother(options: options).smooth(fixes)
            #expect(checked.distanceMetres == unchecked.distanceMetres)
        }
    }
}
