/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, seedable generator whose sequence is fixed by its
/// seed on every platform, so simulated scenarios are reproducible bit for bit.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state.
    public var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal value (Box–Muller; one of the pair is discarded so the sequence stays simple).
    public mutating func gaussian() -> Double {
        var u = uniform()
        if u < 1e-300 { u = 1e-300 }
        let v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { uniform() < p }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
