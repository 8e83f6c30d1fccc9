/// A set of ``ActivityKind`` values stored as bits, so a profile can name the activities during which no
/// distance accrues without a `Set` (no hashing, no allocation per fix).
public struct ActivityMask: OptionSet, Sendable, Hashable, BitwiseCopyable {
    /// The bits, one per ``ActivityKind`` in declaration order.
    public var rawValue: UInt16

    /// Creates a mask from its bits.
    @inlinable
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A mask holding exactly `kind`.
    @inlinable
    public init(_ kind: ActivityKind) {
        let bit: UInt16
        switch kind {
        case .still: bit = 0
        case .walking: bit = 1
        case .running: bit = 2
        case .onFoot: bit = 3
        case .onBicycle: bit = 4
        case .inVehicle: bit = 5
        case .unknown: bit = 6
        }
        self.rawValue = 1 << bit
    }

    /// True when `kind` is in the mask.
    @inlinable
    public func contains(_ kind: ActivityKind) -> Bool { !isDisjoint(with: ActivityMask(kind)) }

    /// ``ActivityKind/still``.
    public static let still = ActivityMask(.still)
    /// ``ActivityKind/inVehicle``.
    public static let inVehicle = ActivityMask(.inVehicle)
    /// ``ActivityKind/onBicycle``.
    public static let onBicycle = ActivityMask(.onBicycle)
}
