/// How a reader takes an activity confidence written as a number with a fraction.
///
/// TrueTrack's confidence is a whole percentage (0–100, as Android's activity recognition reports it). Some exports
/// write a share instead (`0.9`), and a tester's CSV with such a column failed to read at its first row. A number with
/// a fraction between 0 and 1 is read as that share of 100, one above 1 as a percentage rounded to the nearest whole.
public enum ActivityConfidence {
    /// The whole percentage of a confidence `value` read as a number with a fraction: `value × 100` rounded for a
    /// share (0…1), `value` rounded for a percentage (up to 100); `nil` outside 0…100 or not finite.
    public static func percent(_ value: Double) -> Int? {
        guard value.isFinite, value >= 0, value <= 100 else { return nil }
        return Int((value <= 1 ? value * 100 : value).rounded())
    }
}
