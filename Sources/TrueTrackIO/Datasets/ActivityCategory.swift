/// The activity categories of a data-set manifest: the one mapping from the words an `activity` may start
/// with to the category that picks both the evaluation profile and the baseline's tolerances.
///
/// A drive written `"driving"` once became a category of its own, so that it got the default distance
/// tolerance (1 percentage point) instead of the drive's (0.05 pp): every synonym now maps to its category.
public enum ActivityCategory {
    /// The categories that have synonyms, each with the words that name it (the category's own word first).
    /// Any other first word (`stationary`, `hike`, `mixed`, …) is a category of its own.
    public static let synonyms: [(category: String, words: [String])] = [
        ("drive", ["drive", "driving", "car", "bus", "taxi", "vehicle", "in-vehicle", "automotive"]),
        ("bike", ["bike", "bicycle", "cycle", "cycling", "on-bicycle"]),
        ("run", ["run", "running"]),
        ("walk", ["walk", "walking", "on-foot"]),
    ]

    /// The words of ``synonyms`` spelt with a hyphen (Android's `IN_VEHICLE`, `ON_BICYCLE`, `ON_FOOT`), which
    /// an activity may also spell with an underscore.
    static let hyphenatedWords = synonyms.flatMap(\.words).filter { $0.contains("-") }

    /// The category of a manifest `activity`: its first word, lower-cased, as ``canonical(_:)`` maps it. The
    /// word is its letters (`drive-highway` is `drive`), except for the hyphenated words of ``synonyms``
    /// (`in-vehicle`, or `in_vehicle`, is `drive`).
    public static func category(of activity: String) -> String {
        let lower = activity.lowercased()
        let word = lower.prefix { $0.isLetter || $0 == "-" || $0 == "_" }.replacingOccurrences(of: "_", with: "-")
        if let hyphenated = hyphenatedWords.first(where: { word == $0 || word.hasPrefix($0 + "-") }) {
            return canonical(hyphenated)
        }
        return canonical(String(lower.prefix { $0.isLetter }))
    }

    /// The category a word names: `driving`, `car`, `in-vehicle` → `drive`, `cycling` → `bike`, `running` →
    /// `run`, `walking` → `walk` (``synonyms``); any other word is returned lower-cased (a category of its own).
    /// Baselines written before the mapping (an entry of category `driving`) read through it.
    public static func canonical(_ word: String) -> String {
        let lower = word.lowercased().replacingOccurrences(of: "_", with: "-")
        return synonyms.first { $0.words.contains(lower) }?.category ?? lower
    }
}
