/// Collects the settings of a profile that fail their requirement: the checks behind
/// ``TrackingProfile/invalidSettings`` and ``StopDetectionProfile/invalidSettings``.
struct SettingChecks {
    /// The failed settings, in the order checked.
    private(set) var failures: [(field: String, value: Double, requirement: String)] = []

    mutating func check(_ field: String, _ value: Double, _ requirement: String, _ isValid: Bool) {
        if !isValid { failures.append((field, value, requirement)) }
    }

    mutating func above0(_ field: String, _ value: Double) {
        check(field, value, "a number above 0", value > 0)
    }

    mutating func finiteAbove0(_ field: String, _ value: Double) {
        check(field, value, "a finite number above 0", value > 0 && value.isFinite)
    }

    mutating func atLeast0(_ field: String, _ value: Double) {
        check(field, value, "a number of 0 or more", value >= 0)
    }

    mutating func finiteAtLeast0(_ field: String, _ value: Double) {
        check(field, value, "a finite number of 0 or more", value >= 0 && value.isFinite)
    }

    /// A human description, e.g. `maximumIntegrationSeconds is 0: it must be a number above 0`. Whole values
    /// print without a fraction (a count of 0 is not "0.0"), others as Swift prints a `Double` (`-0.5`, `nan`).
    static func describe(field: String, value: Double, requirement: String) -> String {
        let shown = value.rounded() == value && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        return "\(field) is \(shown): it must be \(requirement)"
    }
}
