import TrueTrackSimulation

extension SplitMix64 {
    /// A uniform integer in `0..<bound` (0 when `bound` ≤ 0), for picking mutations in robustness tests.
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
