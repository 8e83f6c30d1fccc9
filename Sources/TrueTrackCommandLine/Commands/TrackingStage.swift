import TrueTrackCore
import TrueTrackIO

/// The first of `process`'s and `stops`' two stages (``TwoStages``): reads the input, runs the ``Tracker`` over
/// it and keeps the run's ``RunDiagnostics``, handing on each fix with its decision. What comes after (the stop
/// analysis, the outputs, the summary's sums) is the second stage's.
struct TrackingStage {
    /// A fix the stage read, the tracker's decision on it, and how many records the reader had read then (where a
    /// failure while handling it is reported).
    struct Output {
        let fix: Fix
        let decision: FixDecision
        let recordsRead: Int
    }

    var reader: AnyFixReader
    var tracker: Tracker
    var diagnostics: RunDiagnostics
    /// The read error that ended the input, if one did (the fixes before it were handed on).
    var failure: ReadError?

    /// Reads, tracks and diagnoses every fix of the input, handing each on through `emit` until it returns `false`
    /// or the input ends (at its end, or at a read error: ``failure``).
    @inline(__always)
    static func run(_ stage: inout TrackingStage, emit: (Output) -> Bool) {
        do {
            while let fix = try stage.reader.next() {
                // (The decision made in its place in the output: made apart and copied in, it cost a `memcpy` a fix.)
                let output = Output(
                    fix: fix, decision: stage.tracker.process(fix), recordsRead: stage.reader.recordsRead)
                stage.diagnostics.observe(
                    fix, output.decision, overrules: stage.tracker.overrules,
                    scatterSigmaMetres: stage.tracker.whiteNoiseSigmaMetres)
                guard emit(output) else { return }
            }
        } catch {
            stage.failure = error
        }
    }
}
