import TrueTrackCore

extension StillnessGate {
    /// The white jitter of each state of a smoothed track, per axis (m²): its smoothed position variance
    /// (`positionVariances`, one per state) times the white share of its fixes' variance that the logger's
    /// consecutive sparse steps show, for the floor of ``whiteNoiseSigmas``; `nil` when the floor is off or the
    /// track has fewer than ``WhiteNoiseEstimate/sparseMinimumSamples`` pairs of consecutive steps both longer than
    /// ``WhiteNoiseEstimate/maximumStepSeconds`` (a 1 Hz track: its smoothed positions average the noise).
    ///
    /// The share is the forward filter's estimate (``WhiteNoiseEstimate/sparseVarianceRatio``: two consecutive
    /// steps share the middle fix's error with opposite signs, motion makes their product positive) run over
    /// each state's first fix twice, forwards and backwards, each averaging ``whiteNoiseAveragingPairs`` pairs; a
    /// state takes the larger of its two estimates (each 0 until it has its minimum of pairs), so that a parked
    /// spell is judged by its own scatter from its first state to its last (the forward estimate lags at its
    /// start, the backward one at its end). A drive keeps the estimate of the spell it left or heads into: pairs of
    /// slow steps pull it down within a few, but pairs whose steps are both longer than
    /// ``WhiteNoiseEstimate/sparseMotionAccuracies`` accuracies are skipped, so a fast drive carries the parked
    /// share (a reviewer measured 0.6–1.3 along a drive at 25 m/s every 10 s), while its net displacement lies far
    /// beyond the floor. Not quite the tracker's estimate: the tracker records only fixes without a Doppler reading,
    /// in units of their reported accuracy; this one records every state's first fix in units of the problem's
    /// variances (the reported accuracy times ``SmoothingOptions/accuracyScale``, or as the noise estimate rescaled
    /// them), the unit of the smoothed variances, and down-weighted fixes count too: a multipath jump out and back
    /// reads as white noise and raises the floor near it. A step longer than `longestStepSeconds` (a recording
    /// break) starts the sequence again.
    ///
    /// - Complexity: O(n), two arrays of n.
    func whiteJitterVariances(_ p: TrackProblem, positionVariances: [Double], longestStepSeconds: Double) -> [Double]? {
        let n = p.stateCount
        guard whiteNoiseSigmas > 0, n > 2, positionVariances.count == n else { return nil }
        let sparse = WhiteNoiseEstimate.maximumStepSeconds
        var pairs = 0.0
        for s in 2..<n where p.times[s] - p.times[s - 1] > sparse && p.times[s - 1] - p.times[s - 2] > sparse {
            pairs += 1
        }
        guard pairs >= WhiteNoiseEstimate.sparseMinimumSamples else { return nil }
        // Each state's first fix (its position and, as a 68 % radius, its variance).
        var first = [Int](repeating: -1, count: n)
        for m in p.positionState.indices.reversed() { first[p.positionState[m]] = m }
        func radius(_ m: Int) -> Double { p.positionVariance[m].squareRoot() * MeasurementNoise.radius68PerSigma }
        var share = [Double](repeating: 0, count: n)
        // One pass over the states in `order`, each step from the state before it in that order (the product of two
        // steps reads the same either way): `keep` receives each state's estimate once it has its pairs.
        func pass(_ order: some Sequence<Int>, _ keep: (Int, Double) -> Void) {
            var estimate = WhiteNoiseEstimate()
            var previous = -1
            for s in order {
                if previous >= 0 {
                    let seconds = abs(p.times[s] - p.times[previous])
                    if seconds > longestStepSeconds {
                        estimate.breakSequence()
                    } else {
                        let m = first[s], from = first[previous]
                        estimate.record(
                            eastMetres: p.positionEast[m] - p.positionEast[from],
                            northMetres: p.positionNorth[m] - p.positionNorth[from], seconds: seconds,
                            previousAccuracyMetres: radius(from), averagingFixes: whiteNoiseAveragingPairs)
                    }
                }
                if estimate.sparseSamples >= WhiteNoiseEstimate.sparseMinimumSamples {
                    keep(s, estimate.sparseVarianceRatio)
                }
                previous = s
            }
        }
        // Forwards (the estimate at state s has measured the pairs up to the one whose middle fix is s − 1), then
        // backwards, keeping the larger.
        pass(0..<n) { share[$0] = $1 }
        pass(stride(from: n - 1, through: 0, by: -1)) { share[$0] = max(share[$0], $1) }
        for s in 0..<n { share[s] *= positionVariances[s] }
        return share
    }
}
