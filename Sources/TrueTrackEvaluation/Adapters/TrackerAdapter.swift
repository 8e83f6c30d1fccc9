// ADAPTER: the ONLY file of TrueTrackEvaluation that touches `Tracker`, `TrackingProfile` and `FixDecision`.
// The Tracker's surface changes while it is being tuned (FixDecision's fields, profile names): fix it here
// and nowhere else. What the evaluation needs from the Tracker is deliberately narrow:
//   - construction from a profile (`Tracker(profile:)`),
//   - `process(_ fix:) -> FixDecision`,
//   - from each decision: accepted or not (and the rejection reason's name), the filtered latitude/longitude,
//     and the total distance after the fix.
import TrueTrackCore
import TrueTrackIO

/// Which tuning a recording is evaluated with.
///
/// Chosen from the recording's activity (``forCategory(_:)``), or forced for every recording with
/// `truetrack bench --profile` (a deliberately wrong profile is how a test proves that the baseline check bites).
public enum EvaluationProfile: String, Sendable, Hashable, CaseIterable, Codable {
    /// On foot at walking pace; also used for stationary, hike and mixed recordings (a phone in a pocket).
    case walking
    /// On foot at running pace.
    case running
    /// On a bicycle.
    case cycling
    /// In a road vehicle.
    case driving

    /// The profile of each activity category that picks one other than walking
    /// (``DatasetManifest/Recording/activityCategory``, whose synonyms ``ActivityCategory/synonyms`` maps: one
    /// mapping for the profile and the baseline's tolerances); every other category, `stationary` included, gets
    /// walking (the profile an app would use when the user is not moving yet).
    public static let profileOfCategory: [String: EvaluationProfile] = [
        "drive": .driving, "bike": .cycling, "run": .running,
    ]

    /// The activity words that pick a profile other than walking, by profile: the synonyms of each category of
    /// ``profileOfCategory``.
    public static var categories: [(profile: EvaluationProfile, categories: [String])] {
        ActivityCategory.synonyms.compactMap { entry in
            profileOfCategory[entry.category].map { ($0, entry.words) }
        }
    }

    /// The profile that fits a manifest activity category or any of its synonyms (`walk`, `drive`, `driving`,
    /// `stationary`, `bike`, `hike`, `mixed`, `run`): see ``profileOfCategory``; everything else → walking.
    public static func forCategory(_ category: String) -> EvaluationProfile {
        profileOfCategory[ActivityCategory.canonical(category)] ?? .walking
    }

    /// The mapping as lines of help, one per category: `drive, driving, car, … → category drive, profile
    /// driving`, …, and the last `anything else (stationary, hike, mixed…) → a category of its own, profile
    /// walking`.
    public static var categoryRules: [String] {
        ActivityCategory.synonyms.map { entry in
            let profile = forCategory(entry.category)
            return "\(entry.words.joined(separator: ", ")) → category \(entry.category), profile \(profile.rawValue)"
        } + ["anything else (stationary, hike, mixed…) → a category of its own, profile walking"]
    }

    /// The Tracker profile of this choice.
    var trackingProfile: TrackingProfile {
        switch self {
        case .walking: .walking
        case .running: .running
        case .cycling: .cycling
        case .driving: .driving
        }
    }

    /// How a run's profile choice reads in a message: `--profile NAME` for an override, else "each recording's
    /// own profile" (`nil`).
    public static func describe(override: EvaluationProfile?) -> String {
        override.map { "--profile \($0.rawValue)" } ?? "each recording's own profile"
    }
}

/// What the evaluation reads from one ``Tracker`` decision.
public struct TrackerStep: Sendable, Hashable {
    /// True when the Tracker accepted the fix.
    public var isAccepted: Bool
    /// The rejection reason's name (`duplicate`, `accuracy`, `speed`, `outlier`, …), `nil` when accepted.
    public var rejection: String?
    /// The filtered latitude after this fix, degrees north; `nil` before the first accepted fix.
    public var latitude: Double?
    /// The filtered longitude after this fix, degrees east; `nil` before the first accepted fix.
    public var longitude: Double?
    /// The Tracker's total distance after this fix, metres.
    public var totalDistanceMetres: Double
    /// Whether the fix's distance was held as travel in a vehicle (``FixDecision/movedLikeAVehicle``).
    public var movedLikeAVehicle: Bool

    /// Creates a step (tests build them by hand).
    public init(
        isAccepted: Bool, rejection: String?, latitude: Double?, longitude: Double?,
        totalDistanceMetres: Double, movedLikeAVehicle: Bool = false
    ) {
        self.movedLikeAVehicle = movedLikeAVehicle
        self.isAccepted = isAccepted
        self.rejection = rejection
        self.latitude = latitude
        self.longitude = longitude
        self.totalDistanceMetres = totalDistanceMetres
    }
}

/// Drives one ``Tracker`` over a recording, fix by fix, in file order (as a live stream would deliver it).
public struct TrackerDriver: Sendable {
    private var tracker: Tracker

    /// Creates a driver with a fresh Tracker tuned by `profile`.
    public init(profile: EvaluationProfile) {
        tracker = Tracker(profile: profile.trackingProfile)
    }

    /// Processes one fix and returns what the evaluation needs from the decision.
    public mutating func process(_ fix: Fix) -> TrackerStep {
        let decision = tracker.process(fix)
        return TrackerStep(
            isAccepted: decision.isAccepted, rejection: decision.rejection?.rawValue,
            latitude: decision.state?.latitude, longitude: decision.state?.longitude,
            totalDistanceMetres: decision.totalDistanceMetres,
            movedLikeAVehicle: decision.movedLikeAVehicle)
    }

    /// The end of the recording (``Tracker/finishTrack()``): the total with what a departure or a young window still held.
    public mutating func finish() -> Double {
        _ = tracker.finishTrack()
        return tracker.distance.totalMetres
    }
}
