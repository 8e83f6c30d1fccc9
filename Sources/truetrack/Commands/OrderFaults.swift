import TrueTrackCore

/// Counts the fixes the tracker rejected as out of order, and how many of them repeat the time of the fix read
/// just before: when most of a file is rejected so, its times are broken (a logger that stamped every point with
/// one time, a 32-bit epoch underflow), and TrueTrack's distance, which integrates speed over time, is near 0 m.
/// The user is told so rather than handed a silent zero beside a raw path of kilometres.
struct OrderFaults {
    private(set) var read = 0
    private(set) var outOfOrder = 0
    private(set) var repeatingTheTimeBefore = 0
    private var previousTime: Timestamp?

    /// Observes the decision on the next fix read.
    mutating func observe(_ fix: Fix, _ decision: FixDecision) {
        read += 1
        if decision.rejection == .outOfOrder {
            outOfOrder += 1
            if previousTime == fix.timestamp { repeatingTheTimeBefore += 1 }
        }
        previousTime = fix.timestamp
    }

    /// The warning, when at least 20 fixes were read and more than a fifth of them were out of order (IPIN's
    /// re-delivered batches: 2-3 %; a GPX logger's re-sorted points: 6 %). `rawPathMetres` is what the naive sum
    /// of segments counted.
    func warning(input: String, rawPathMetres: Double?) -> String? {
        guard read >= 20, Double(outOfOrder) > 0.2 * Double(read) else { return nil }
        let percent = Int((100 * Double(outOfOrder) / Double(read)).rounded())
        let repeats =
            repeatingTheTimeBefore > 0
            ? "; \(repeatingTheTimeBefore) of them carry the same time as the fix before" : ""
        let raw = rawPathMetres.map { ", while the raw path is \($0.fixed(1)) m" } ?? ""
        return "warning: \(outOfOrder) of \(read) fixes (\(percent) %) of \(input) were rejected as out of order (not "
            + "newer than the last accepted fix\(repeats)): its times look broken, and TrueTrack's distance "
            + "integrates speed over time, so it counts next to nothing\(raw)\n"
    }
}
