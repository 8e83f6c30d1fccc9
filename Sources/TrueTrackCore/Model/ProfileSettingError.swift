/// A setting of a profile (``TrackingProfile``, ``StopDetectionProfile``) that no tracker or stop detector can
/// work with: what ``TrackingProfile/validate()`` and ``StopDetectionProfile/validate()`` throw.
public enum ProfileSettingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting `field` holds `value`, which is not `requirement` (e.g. "a number above 0").
    case invalidSetting(field: String, value: Double, requirement: String)

    /// The name of the setting, as the property is named (e.g. `maximumIntegrationSeconds`).
    public var field: String {
        switch self {
        case .invalidSetting(let field, _, _): field
        }
    }

    /// A human description, e.g. `maximumIntegrationSeconds is 0: it must be a number above 0`. Whole values
    /// print without a fraction (a count of 0 is not "0.0"), others as Swift prints a `Double` (`-0.5`, `nan`).
    public var description: String {
        switch self {
        case .invalidSetting(let field, let value, let requirement):
            let shown = value.rounded() == value && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
            return "\(field) is \(shown): it must be \(requirement)"
        }
    }
}

/// What ``TrackingProfile/validate()`` throws (a ``ProfileSettingError``; the name it had first).
public typealias TrackingProfileError = ProfileSettingError

/// What ``StopDetectionProfile/validate()`` throws (a ``ProfileSettingError``).
public typealias StopDetectionProfileError = ProfileSettingError

/// Collects the settings of a profile that fail their requirement: the checks behind
/// ``TrackingProfile/invalidSettings`` and ``StopDetectionProfile/invalidSettings``.
struct SettingChecks {
    /// The failed settings, in the order checked.
    private(set) var failures: [ProfileSettingError] = []

    mutating func check(_ field: String, _ value: Double, _ requirement: String, _ isValid: Bool) {
        if !isValid { failures.append(.invalidSetting(field: field, value: value, requirement: requirement)) }
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

    mutating func countAtLeast1(_ field: String, _ count: Int) {
        check(field, Double(count), "a count of 1 or more", count >= 1)
    }

    mutating func confidence(_ field: String, _ value: Int) {
        check(field, Double(value), "a confidence within 0...100", (0...100).contains(value))
    }
}
