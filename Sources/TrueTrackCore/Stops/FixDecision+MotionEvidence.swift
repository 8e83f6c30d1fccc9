extension MotionEvidence {
    /// Evidence from a raw fix and the ``Tracker``'s decision on it: the seam between the tracker and the stop
    /// detector.
    ///
    /// It reads three things of the decision: the distance the tracker counted on the fix
    /// (``MotionEvidence/countedMetres``, less a chord's metres, ``FixDecision/chordMetres``: no sign of motion at
    /// the fix), whether it rejected the fix as an outlier
    /// (``MotionEvidence/isPositionRejected``), and whether it took a confident "still" reading for no reading
    /// because the motion contradicted it (``FixDecision/isStillReadingContradicted``: the evidence then carries a
    /// reading of ``ActivityKind/unknown`` instead, which replaces the "still" in force in the detector too; the
    /// detector believed a "still" the tracker overruled, and committed stops inside a drive whose rows read
    /// "still" at random, a reviewer's point). The rest of the evidence is the raw fix's (position, accuracy,
    /// Doppler speed, activity), accepted or rejected, because the stop detector must see every fix before
    /// any accuracy gate. Two other candidates were measured on the simulated walks with stops and rejected:
    /// the tracker's chosen speed (``FixDecision/speedMetresPerSecond`` with source `.filtered` when it
    /// distrusts the Doppler speed) is the position-only filter's speed, 0.3–1.4 m/s of noise at a standstill,
    /// which faked a departure every minute or two; and dropping the Doppler speed when
    /// ``FixDecision/isDopplerTrusted`` is false removed it exactly at standstills (the check compares the
    /// Doppler path with a noisy position path), so displacement noise alone faked departures. Keeping the
    /// decision in the signature lets a later tracker feed better evidence without changing callers.
    @inlinable
    public init(fix: Fix, decision: FixDecision) {
        self.init(fix: fix)
        // (Chord metres are owed a block or two late, after the walk may have halted: not motion at this fix.)
        let counted = decision.distanceIncrementMetres - decision.chordMetres
        countedMetres = counted.isFinite && counted > 0 ? counted : 0
        isPositionRejected = isPositionRejected || decision.rejection == .outlier
        isCountedByTracker = true
        excursionStart = decision.excursionStart
        isTooCoarseForTracker = decision.rejection == .accuracy
        isMovingForTracker = countedMetres > 0 || decision.hold == .departure
        if decision.isStillReadingContradicted { activity = ActivityReading(kind: .unknown, confidence: 0) }
    }
}
