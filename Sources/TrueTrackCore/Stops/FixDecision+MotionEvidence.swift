extension MotionEvidence {
    /// Evidence from a raw fix and the ``Tracker``'s decision on it.
    ///
    /// The position, accuracy and activity always come from the raw fix (the stop detector must see rejected
    /// fixes too). From the decision only three things are read: whether the fix was accepted
    /// (``FixDecision/isAccepted``), and for an accepted fix the speed the tracker settled on
    /// (``FixDecision/speedMetresPerSecond``) and its source (``FixDecision/speedSource``). That speed is the
    /// Doppler speed when the tracker trusts it and the position filter's speed when it does not (the Samsung
    /// phones of `ipin2023-walk` report 0 on a fifth to nearly half of their walking fixes), so a walker whose
    /// phone reads 0 is not taken for still. A rejected fix keeps its raw Doppler speed, if any.
    @inlinable
    public init(fix: Fix, decision: FixDecision) {
        self.init(fix: fix)
        guard decision.isAccepted, let source = decision.speedSource else { return }
        switch source {
        case .doppler:
            speedMetresPerSecond = decision.speedMetresPerSecond
            speedSource = .doppler
        case .filtered:
            speedMetresPerSecond = decision.speedMetresPerSecond
            speedSource = .filtered
        case .derived:
            break
        }
    }
}
