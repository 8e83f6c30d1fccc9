/// What the device's motion-activity recogniser says the user is doing.
public enum ActivityKind: String, Sendable, Hashable, CaseIterable, Codable, BitwiseCopyable {
    /// Not moving.
    case still
    /// Walking.
    case walking
    /// Running.
    case running
    /// On foot, walking or running (Android's `ON_FOOT`).
    case onFoot
    /// Cycling.
    case onBicycle
    /// In a car, bus, train or other vehicle.
    case inVehicle
    /// The recogniser could not tell.
    case unknown

    /// True for every kind that means the device is being carried somewhere (everything but
    /// ``still`` and ``unknown``).
    @inlinable
    public var isMoving: Bool {
        switch self {
        case .still, .unknown: false
        default: true
        }
    }
}

/// An activity verdict with the recogniser's confidence.
public struct ActivityReading: Sendable, BitwiseCopyable, Hashable {
    /// The activity.
    public var kind: ActivityKind
    /// Confidence, 0–100 (Android's `DetectedActivity` scale; iOS's low/medium/high map to 25/50/100); a larger
    /// value set later is clamped to 100, as the initialiser does.
    public var confidence: UInt8 {
        didSet { if confidence > 100 { confidence = 100 } }
    }

    /// Creates a reading; `confidence` is clamped to 0–100.
    @inlinable
    public init(kind: ActivityKind, confidence: Int) {
        self.kind = kind
        self.confidence = UInt8(clamping: min(max(confidence, 0), 100))
    }
}
