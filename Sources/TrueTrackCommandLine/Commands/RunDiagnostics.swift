import Foundation
import TrueTrackCore
import TrueTrackIO
import TrueTrackSmoothing

/// What the tracker's decisions over a whole input say about the run, for the warnings `process`, `stops` and
/// `buffer add` print after it: a drive read with the walking profile (rejected as too fast, or held as a
/// vehicle), and a file whose times are broken (most fixes out of order). Without them such inputs report a
/// distance near 0 m without a word. One `observe` per fix read, in read order.
struct RunDiagnostics {
    private(set) var read = 0
    private(set) var accepted = 0
    private(set) var rejectedAsTooFast = 0
    /// Of ``rejectedAsTooFast``, the fixes whose gate speed came from the positions (no speed reading).
    private(set) var rejectedAsTooFastFromPositions = 0
    private(set) var heldAsVehicle = 0
    /// The fixes held as a vehicle whose filtered speed exceeded the profile's sustained speed
    /// (``sustainedSpeed``), and about how far they moved (that speed over each step, metres): an upper bound of
    /// what went uncounted, for the hint's trigger.
    private(set) var heldFast = 0
    private(set) var heldFastMetres = 0.0
    /// The seconds since the accepted fix before, capped at ``integrationCapSeconds``; 0 for the first.
    private var acceptedStepSeconds = 0.0
    /// The profile's sustained speed (``TrackingProfile/maximumSustainedSpeedMetresPerSecond``) the tracker runs
    /// with (``init(profile:)``); infinite, no fix held fast, without one.
    private var sustainedSpeed = Double.infinity
    /// The profile's integration limit (``TrackingProfile/maximumIntegrationSeconds``): the walking profile's 10 s
    /// without one.
    private var integrationCapSeconds = 10.0

    /// Diagnostics of a run whose profile is not known (no fix counts as held fast).
    init() {}

    /// Diagnostics of a run of the tracker with `profile`.
    init(profile: TrackingProfile) {
        sustainedSpeed = profile.maximumSustainedSpeedMetresPerSecond
        integrationCapSeconds = profile.maximumIntegrationSeconds
        separationSeconds = profile.clockJumpSeconds
    }
    /// A step this long or longer separates two stretches of time (``TrackingProfile/clockJumpSeconds``, a day):
    /// recordings days apart, not a silence inside one, and the summary's duration counts each stretch on its own.
    private var separationSeconds = 86_400.0
    /// The steps between stretches (``separationSeconds`` or longer), seconds in all: left out of the span the
    /// silences are a share of.
    private var separatedSeconds = 0.0
    /// What this run counted (the decisions' increments, metres), over how many steps that counted something, and
    /// the tracker's white-noise variance summed over those steps with their number (``scatterWarning``).
    private(set) var countedMetres = 0.0
    private(set) var filteredCountedMetres = 0.0
    private var movingSteps = SIMD2<Double>(0, 0)
    private var movingScatter = SIMD2<Double>(0, 0)
    /// The steps between fixes read (forward in time) within a third of each of ``silenceBuckets``, and all of
    /// them; and per bucket, the silences across which the fixes moved (a chord over ``silenceChordMetres``): how
    /// many, their seconds and chords in all.
    private var stepsWithinThird = [Int](repeating: 0, count: RunDiagnostics.silenceBuckets.count)
    private var forwardSteps = 0
    private var silences = [SIMD3<Double>](repeating: .zero, count: RunDiagnostics.silenceBuckets.count)
    private(set) var outOfOrder = 0
    private(set) var repeatingTheTimeBefore = 0
    private var previousTime: Timestamp?
    /// The run of fixes rejected as out of order since the last accepted one: how many, and the earliest and
    /// latest of their times; and the run whose times spanned the longest (see ``lateBlockWarning(input:)``).
    private var lateRun: RejectedRun?
    private(set) var longestLateRun: RejectedRun?
    /// The same for runs of fixes rejected as out of order whose times the accepted track had already covered (a
    /// clock that stepped back and ran on: no silence to have come from).
    private var repeatRun: RejectedRun?
    /// Whether the current run of such fixes began on a fix the accepted track holds (same time, same place): an
    /// overlapping re-export, which loses nothing (a reviewer's), not a clock that stepped back.
    private var repeatRunIsReexport = false
    /// The last ``keptRecentAccepted`` accepted fixes' times and places (a ring, slot `n % keptRecentAccepted`), for
    /// ``repeatRunIsReexport``.
    private var recentAccepted: [(milliseconds: Int64, latitude: Double, longitude: Double)] = []
    private var recentAcceptedCount = 0
    static let keptRecentAccepted = 256
    private(set) var longestRepeatRun: RejectedRun?
    /// The latest silences between accepted fixes longer than ``lateGapSeconds`` (at most ``keptGaps``, ms since
    /// 1970): a fix rejected as out of order inside one is missing from the track; one outside them repeats a
    /// stretch the accepted fixes cover (an overlapping re-export read as "missing", a reviewer's).
    private var acceptedGaps: [(start: Int64, end: Int64)] = []
    private var previousAccepted: Int64?
    static let lateGapSeconds = 10.0, keptGaps = 256
    /// Jumps of whole GPS week-rollover periods between fixes read one after the other.
    private(set) var weekRollovers = GPSWeekRollover.Tally()
    /// Fixes after which the tracker overruled the speed readings (a column of zeros under a moving track), and those
    /// of a provisional overrule not settled yet (``Tracker/isOverrulingProvisionally``): given up, they are dropped.
    private(set) var overruledReadings = 0
    /// For ``zeroSpeedColumnWarning(input:reader:)``: the accepted fixes with a speed reading (`speedReadings`),
    /// those whose reading was not exactly 0 (`nonZeroSpeedReadings`), and those the net-displacement gate held
    /// although the window had moved ``heldMovingThresholds`` thresholds or more, the readings saying still
    /// (`heldWhileMoving`).
    private(set) var speedReadings = 0
    private(set) var nonZeroSpeedReadings = 0
    private(set) var heldWhileMoving = 0
    /// How far beyond its threshold (in thresholds) a held window's net displacement must be to count as moving
    /// in ``heldWhileMoving``: 2 (a still receiver's window stays within one, the gate's design).
    static let heldMovingThresholds = 2.0
    /// While every reading so far is 0: a local plane anchored at the first accepted fix with a reading, the sums
    /// (east, north, seconds, fixes) of the block of ``zeroColumnBlockFixes`` accepted fixes being gathered, the
    /// latest blocks' means (east, north, seconds; at most ``zeroColumnKeptBlocks``), and how many blocks were
    /// judged against one ``zeroColumnLookbackSeconds`` or more before them and how many of those had moved at
    /// ``zeroColumnProgressMetresPerSecond`` or more (for ``zeroSpeedColumnWarning(input:reader:)``).
    private var zeroColumnFrame: LocalFrame?
    private var zeroColumnBlock = SIMD4<Double>(0, 0, 0, 0)
    private var zeroColumnBlocks: [SIMD3<Double>] = []
    private(set) var zeroColumnJudgedBlocks = 0
    private(set) var zeroColumnProgressingBlocks = 0
    /// Fixes per block: 10 (a block's mean averages a still receiver's scatter, and a lone jump moves it by a tenth).
    static let zeroColumnBlockFixes = 10.0
    /// Blocks kept to look back to: 32.
    static let zeroColumnKeptBlocks = 32
    /// How far back (seconds) a block is compared: with the latest block at least 60 s before it, within 300 s.
    static let zeroColumnLookbackSeconds = 60.0, zeroColumnLongestLookbackSeconds = 300.0
    /// The pace (m/s) between two blocks' means that is progress: 0.8, a slow walk's. Why a pace and not an extent:
    /// a reviewer's still phones under zeros that scattered twice their claim and wandered (σ 30–50 m over 10
    /// minutes, or drifting at 0.04 m/s) moved their block means 100 m from the first within the hour and were named
    /// (the advice then counted 337–3,026 m per hour), while laps of an 80 × 50 m block at 1.4 m/s never got 100 m
    /// away and were not; a Gauss–Markov wander of σ 30 m and τ 600 s moves σ √(2 · 60 / 600), about 13 m per axis,
    /// in a minute (about 0.3 m/s).
    static let zeroColumnProgressMetresPerSecond = 0.8
    private var provisionallyOverruled = 0
    private var withdrawnOverrules = 0
    /// The earliest and latest times of the accepted fixes.
    private var earliestAccepted: Timestamp?
    private var latestAccepted: Timestamp?
    /// The fixes dated before GPS began (1980), for ``timeUnitWarning(column:input:)``: a time column read in the
    /// wrong unit dates them in 1970. (Only those: a later fix costs one comparison.)
    private(set) var early = EarlyFixes()
    /// The steps back in time between fixes read one after the other, the first of them, the forward step before
    /// it (the cadence), the one after it, and the chords across it and of the step before it (metres), for
    /// ``clockChangeWarning(input:reader:)``.
    private var lastForwardStep: Int64 = 0
    private(set) var backwardSteps = 0
    private var firstBackwardStep: BackwardStep?
    /// A step back in time between two fixes read one after the other (``firstBackwardStep``).
    struct BackwardStep {
        /// The fix after the step, in read order (from 1).
        var fix: Int
        /// The times before and after the step, ms since 1970.
        var from: Int64, to: Int64
        /// The forward step before it (the cadence) and the one after it (0 until read), ms.
        var cadenceBefore: Int64, stepAfter: Int64 = 0
        /// The chord across the step and that of the step before it, metres.
        var across: Double, before: Double
    }
    /// The positions (latitude, longitude) of the last fix read and the one before it, for the chords about a long
    /// step forward (``springForwardWarning(input:reader:)``).
    private var lastPosition = (0.0, 0.0), positionBefore = (0.0, 0.0)
    /// A step forward of 29 minutes or more, waiting for the step after it: its fix (in read order), its times, the
    /// step before it (the cadence), and the chords across it and of the step before it, metres.
    private var pendingForwardStep: (fix: Int, from: Int64, to: Int64, cadence: Int64, across: Double, before: Double)?
    /// The steps forward shaped like a clock change (``springForwardWarning(input:reader:)``), and the first of them
    /// (its fix, times, cadence and the change, ms).
    private(set) var clockForwardSteps = 0
    private var firstClockForwardStep: (fix: Int, from: Int64, to: Int64, cadence: Int64, change: Int64)?
    /// Rejected fixes per reason, indexed as `RejectionReason.allCases`.
    private var rejectedByReason = [Int](repeating: 0, count: RejectionReason.allCases.count)
    /// Fixes at exactly 0° N 0° E (``Fix/isAtNullIsland``), rejected as invalid: said by name, since their
    /// coordinates look valid (a reviewer's file of zeros read "rejected: invalid 31" and nothing more).
    private(set) var nullIslandFixes = 0
    /// Accepted fixes per provider, indexed as `Provider.allCases`.
    private var acceptedByProvider = [Int](repeating: 0, count: Provider.allCases.count)

    /// What the tracker says of the speed readings after a fix (``Tracker/overrules``): whether it overrules them
    /// (``Tracker/overruledSpeedReadingsSince`` names a run), provisionally (``Tracker/isOverrulingProvisionally``),
    /// and how many provisional overrules it withdrew (``Tracker/withdrawnOverrules``). Three values, not the
    /// tracker: passed by value, its 3.5 KB state was copied on every fix (7 % of `process`'s instructions).
    struct Overrules {
        var isOverruling: Bool
        var isProvisional: Bool
        var withdrawn: Int
    }

    /// Observes the decision on the next fix read, and what the tracker says of the readings after it
    /// (`overrules`): an accepted fix counts as overruled while the tracker overrules them (provisionally, see
    /// ``settleOverrules(_:)``).
    ///
    /// `scatterSigmaMetres` is the tracker's white-noise estimate after the fix (``Tracker/whiteNoiseSigmaMetres``),
    /// averaged over the fixes that counted distance for ``scatterWarning(profile:input:)``.
    mutating func observe(
        _ fix: Fix, _ decision: FixDecision, overrules: Overrules, scatterSigmaMetres: Double? = nil
    ) {
        read += 1
        settleOverrules(overrules)
        if decision.isAccepted, overrules.isOverruling {
            if overrules.isProvisional {
                provisionallyOverruled += 1
            } else {
                overruledReadings += 1
            }
        }
        weekRollovers.add(fix.timestamp)
        if _slowPath(fix.isAtNullIsland) { nullIslandFixes += 1 }
        let time = fix.timestamp.millisecondsSince1970
        if time < Timestamp.gpsEpochMillisecondsSince1970 { early.add(fix) }
        if let before = previousTime?.millisecondsSince1970 {
            let step = time &- before
            if step < 0 {
                backwardSteps += 1
                if backwardSteps == 1 {
                    firstBackwardStep = BackwardStep(
                        fix: read, from: before, to: time, cadenceBefore: lastForwardStep,
                        across: Haversine.distance(from: lastPosition, to: (fix.latitude, fix.longitude)),
                        before: Haversine.distance(from: positionBefore, to: lastPosition))
                }
            } else if step > 0 {
                if backwardSteps == 1, firstBackwardStep?.stepAfter == 0 { firstBackwardStep?.stepAfter = step }
                if _slowPath(step >= Self.longForwardStepMilliseconds || pendingForwardStep != nil) {
                    observeLongForwardStep(fix, step: step, from: before)
                }
                lastForwardStep = step
                observeStep(Double(step) / 1000, to: fix)
            }
        }
        positionBefore = lastPosition
        lastPosition = (fix.latitude, fix.longitude)
        if let reason = decision.rejection, let i = RejectionReason.allCases.firstIndex(of: reason) {
            rejectedByReason[i] += 1
        }
        let now = time
        if decision.rejection == .outOfOrder,
            acceptedGaps.reversed().contains(where: { $0.start < now && now < $0.end })
        {
            let run = RejectedRun(extending: lateRun, with: fix.timestamp, behind: previousAccepted)
            lateRun = run
            longestLateRun = RejectedRun.longer(longestLateRun, run)
        } else if decision.rejection == .outOfOrder, previousAccepted != nil {
            if repeatRun == nil { repeatRunIsReexport = isAcceptedAlready(fix) }
            let run = RejectedRun(extending: repeatRun, with: fix.timestamp, behind: previousAccepted)
            repeatRun = run
            if !repeatRunIsReexport { longestRepeatRun = RejectedRun.longer(longestRepeatRun, run) }
        } else if decision.isAccepted {
            lateRun = nil
            repeatRun = nil
            // (Capped as the tracker's integration is, for the held-fast and moving-step figures below.)
            acceptedStepSeconds =
                previousAccepted.map { min(integrationCapSeconds, max(0, Double(now &- $0) / 1000)) } ?? 0
            if let previous = previousAccepted, Double(now &- previous) / 1000 > Self.lateGapSeconds {
                if acceptedGaps.count == Self.keptGaps { acceptedGaps.removeFirst() }
                acceptedGaps.append((previous, now))
            }
            previousAccepted = now
            let entry = (now, fix.latitude, fix.longitude)
            if recentAccepted.count < Self.keptRecentAccepted {
                recentAccepted.append(entry)
            } else {
                recentAccepted[recentAcceptedCount % Self.keptRecentAccepted] = entry
            }
            recentAcceptedCount += 1
        }
        switch decision.rejection {
        case nil:
            accepted += 1
            if let speed = fix.speedMetresPerSecond {
                speedReadings += 1
                if speed != 0 { nonZeroSpeedReadings += 1 }
            }
            // (Only while every reading is 0: after a reading that is not, the warning cannot speak.)
            if _slowPath(nonZeroSpeedReadings == 0) { observeZeroColumn(fix, decision) }
            earliestAccepted = min(earliestAccepted ?? fix.timestamp, fix.timestamp)
            latestAccepted = max(latestAccepted ?? fix.timestamp, fix.timestamp)
            if decision.movedLikeAVehicle {
                heldAsVehicle += 1
                // What the held stretch would have counted where it went faster than the profile's traveller
                // sustains (the filtered speed over the step, capped as the integration is), for the hint when a
                // few held fixes stand for much of the distance. (Not the latch's slower fixes after it: a walk
                // with one 80 m drift held 151 fixes at walking pace.)
                if let state = decision.state, state.speedMetresPerSecond > sustainedSpeed {
                    heldFast += 1
                    heldFastMetres += state.speedMetresPerSecond * acceptedStepSeconds
                }
            }
            countedMetres += decision.distanceIncrementMetres
            if decision.speedSource == .filtered { filteredCountedMetres += decision.distanceIncrementMetres }
            // The steps the speed said moved (held or not): their integrated step, speed × seconds, not the
            // releases a held stretch adds to one step, and the scatter the tracker measured then.
            if decision.speedMetresPerSecond >= Self.movingStepSpeed, acceptedStepSeconds > 0 {
                movingSteps += SIMD2(decision.speedMetresPerSecond * acceptedStepSeconds, 1)
                if let sigma = scatterSigmaMetres { movingScatter += SIMD2(sigma * sigma, 1) }
            }
            if let i = Provider.allCases.firstIndex(of: fix.provider) { acceptedByProvider[i] += 1 }
        case .speed?:
            rejectedAsTooFast += 1
            if decision.gateSpeedSource == .derived { rejectedAsTooFastFromPositions += 1 }
        case .outOfOrder?:
            outOfOrder += 1
            if previousTime == fix.timestamp { repeatingTheTimeBefore += 1 }
        default:
            break
        }
        previousTime = fix.timestamp
    }

    /// Records an accepted fix while every reading so far is 0: a hold of its window at ``heldMovingThresholds``
    /// thresholds or more (``heldWhileMoving``), and, once a reading was seen, its position in the block being
    /// gathered; a complete block's mean is judged against the latest kept block ``zeroColumnLookbackSeconds`` or
    /// more before it.
    private mutating func observeZeroColumn(_ fix: Fix, _ decision: FixDecision) {
        if decision.hold == .netDisplacement, decision.netDisplacementThresholdMetres > 0,
            decision.netDisplacementMetres >= Self.heldMovingThresholds * decision.netDisplacementThresholdMetres
        {
            heldWhileMoving += 1
        }
        guard speedReadings > 0 else { return }
        // (Metres on a local plane about the first such fix: a hint's threshold, not a distance the tool reports.)
        let frame = zeroColumnFrame ?? LocalFrame(anchor: (fix.latitude, fix.longitude))
        zeroColumnFrame = frame
        let (east, north) = frame.project(latitude: fix.latitude, longitude: fix.longitude)
        zeroColumnBlock += SIMD4(east, north, Double(fix.timestamp.millisecondsSince1970) / 1000, 1)
        guard zeroColumnBlock.w >= Self.zeroColumnBlockFixes else { return }
        let mean = SIMD3(zeroColumnBlock.x, zeroColumnBlock.y, zeroColumnBlock.z) / zeroColumnBlock.w
        zeroColumnBlock = SIMD4(0, 0, 0, 0)
        if let before = zeroColumnBlocks.last(where: { mean.z - $0.z >= Self.zeroColumnLookbackSeconds }),
            mean.z - before.z <= Self.zeroColumnLongestLookbackSeconds
        {
            zeroColumnJudgedBlocks += 1
            let de = mean.x - before.x, dn = mean.y - before.y
            if (de * de + dn * dn).squareRoot() >= Self.zeroColumnProgressMetresPerSecond * (mean.z - before.z) {
                zeroColumnProgressingBlocks += 1
            }
        }
        if zeroColumnBlocks.count == Self.zeroColumnKeptBlocks { zeroColumnBlocks.removeFirst() }
        zeroColumnBlocks.append(mean)
    }

    /// Settles the provisionally overruled fixes by what the tracker says (`overrules`): dropped when it gave a
    /// provisional overrule up (``Tracker/withdrawnOverrules`` grew: a parked receiver's fixes slid away and came
    /// back, its readings were right, and the warning called them a placeholder), counted once it holds none. Call
    /// it after ``Tracker/finishTrack()`` too.
    mutating func settleOverrules(_ overrules: Overrules) {
        if overrules.withdrawn != withdrawnOverrules {
            withdrawnOverrules = overrules.withdrawn
            provisionallyOverruled = 0
        }
        if !overrules.isProvisional {
            overruledReadings += provisionallyOverruled
            provisionallyOverruled = 0
        }
    }

    /// A warning when the profile's speed ceiling rejected more than a fifth of the fixes, when the accepted
    /// fixes mix location providers (``providerMix``), or when a quarter of the accepted ones were held as a
    /// vehicle (each share judged by ``isLargeShare(_:of:over:)``): a drive or a ride read with the default walking profile otherwise reports a
    /// tiny distance without a word.
    /// What to try when fixes are too fast for `kind`: the faster profiles, not the one in use (a cyclist tester
    /// was told to use the cycling profile they were using), or the speed column's unit.
    static func fasterProfileAdvice(_ kind: TrackingProfile.Kind) -> String {
        switch kind {
        case .walking, .custom:
            return "for a run, a ride or a drive use --profile running, --profile cycling or --profile driving"
        case .running: return "for a ride or a drive use --profile cycling or --profile driving"
        case .cycling: return "for a drive use --profile driving; otherwise check the speed column's unit"
        case .driving: return "check the speed column's unit and the fixes' times"
        }
    }

    func profileHint(_ profile: TrackingProfile, input: String) -> String? {
        if Self.isLargeShare(rejectedAsTooFast, of: read, over: 0.2) {
            let percent = Terminal.percent(rejectedAsTooFast, of: read)
            return
                "warning: \(rejectedAsTooFast) of \(read) fixes of \(input) (\(percent) %) were rejected as faster than the "
                + "\(profile.kind.rawValue) profile allows (\(Int(profile.maximumSpeedMetresPerSecond)) m/s): "
                + Self.fasterProfileAdvice(profile.kind) + "\n"
        }
        // Several providers interleaved (a GnssLogger file of gps, fused and network fixes): their positions
        // disagree by metres to hundreds of metres, which reads as movement and trips the vehicle latch; the
        // remedy is one provider, not another profile (a Pixel 6 walk read 2,439 m with --profile driving,
        // 603 m with --provider gps).
        if let mix = providerMix {
            return
                "warning: the accepted fixes of \(input) come from several location providers (\(mix)), whose positions "
                + "disagree and read as movement: keep one of them, e.g. --provider gps\n"
        }
        // The vehicle latch: accepted, but not counted as the profile's own movement. By their share of the
        // fixes, or by the distance of those that went faster than the traveller sustains: a mountain bike read
        // as a run had 11 % of its fixes held (the fast descents) and lost 29 % of its distance without a word (a
        // sports tester's).
        let heldShareOfDistance = heldFastMetres / max(countedMetres + heldFastMetres, 1)
        if Self.isLargeShare(heldAsVehicle, of: accepted, over: 0.25)
            || (accepted >= 20 && heldFast >= Self.heldFastMinimumFixes
                && heldShareOfDistance > Self.heldDistanceShare),
            profile.maximumSustainedSpeedMetresPerSecond.isFinite
        {
            let percent = Terminal.percent(heldAsVehicle, of: accepted)
            // (No metres: the held stretch's filtered speed over its steps overstated what went uncounted 2–2.5
            // times on generated runs, part of it released after the latch.)
            return
                "warning: \(heldAsVehicle) of \(accepted) accepted fixes of \(input) (\(percent) %) moved like a "
                + "vehicle (faster than \(profile.maximumSustainedSpeedMetresPerSecond.fixed(0)) m/s sustained, or a "
                + "confident in-vehicle reading) and their distance was not counted as \(profile.kind.rawValue): "
                + Self.fasterProfileAdvice(profile.kind) + "\n"
        }
        return nil
    }

    /// The mean step of the fixes whose speed said they moved (``movingStepSpeed`` or more: the integrated speed
    /// times the step's seconds, metres): a halt's steps do not dilute it (a reviewer's walk with a 20-minute halt
    /// was warned of), nor a held stretch's release lengthen it (counted per step that counted something, a walk
    /// under 5 m of scatter read 3.8 m for its 1.3 m steps); `nil` under ``scatterMinimumFixes`` such steps.
    var meanCountedStepMetres: Double? {
        movingSteps.y >= Double(Self.scatterMinimumFixes) ? movingSteps.x / movingSteps.y : nil
    }

    /// The speed from which a step counts as moving for ``meanCountedStepMetres``: 0.5 m/s, above the deadband
    /// (0.3 m/s) that a still receiver's filtered speed often crosses.
    static let movingStepSpeed = 0.5

    /// The tracker's white-noise estimate (per axis, metres) averaged, as a variance, over the steps that counted
    /// distance: the scatter while moving, not the estimate at the end (a reviewer's walk ending with two minutes
    /// indoors was warned of the indoor scatter).
    var movingScatterSigmaMetres: Double? {
        movingScatter.y >= Double(Self.scatterMinimumFixes) ? (movingScatter.x / movingScatter.y).squareRoot() : nil
    }

    /// A warning when the fixes carry no speed readings and scatter from one fix to the next by more than the
    /// tracker counts per step: the forward filter's speed is then the norm of a noisy velocity, which noise only
    /// lengthens, and the distance integrated from it over-counts. `process --smooth` judges the whole track.
    ///
    /// The rule: the white-noise estimate while moving (``movingScatterSigmaMetres``, per axis) at least
    /// ``scatterOverStepRatio`` times the mean counted step (``meanCountedStepMetres``), with at least half of
    /// what this run counted from the filter's speed, at least ``scatterMixedInShare`` of the moving steps' length
    /// counted, and no profile hint (a run read as walking is held as a
    /// vehicle: its few counted metres are not scatter). Both from this run's decisions: a session continued by
    /// `buffer add` is judged on this add. The estimate takes steps of at most 2.5 s
    /// (``WhiteNoiseEstimate/maximumStepSeconds``): a 1 Hz track, or a 2 Hz one; sparser tracks are not judged
    /// (a 2 s walk under 3 m read +18 %, unwarned). Generated walks at 1 Hz with accuracy 5 m and no speed column
    /// (`tools/analysis/scatter_walks.py`, 3 seeds each): at 1.3 m/s, σ 1 / 1.5 / 2 / 3 / 5 m read +0.4 … +0.9 /
    /// +2.3 … +3.3 / +5.2 … +6.6 / +15 … +17 / +45 … +48 % forward and +1.3 … +4.9 % smoothed; at 0.6 m/s, σ 1 /
    /// 1.5 / 2 / 3 m +4 … +6 / +15 … +17 / +31 … +34 / +28 … +49 % forward, σ 5 m −33 … −47 % (the rest gates hold
    /// most of it), +11 … +24 % smoothed. Warned: all of the 0.6 m/s walks and the 1.3 m/s ones from σ 2 m. The
    /// recordings keep their speed readings or scatter under 0.7 m (a GPX drive without speeds): none is warned of.
    func scatterWarning(input: String) -> String? {
        guard let sigma = movingScatterSigmaMetres, let step = meanCountedStepMetres,
            sigma >= Self.scatterOverStepRatio * step, 2 * filteredCountedMetres >= countedMetres,
            countedMetres >= Self.scatterMixedInShare * movingSteps.x
        else { return nil }
        return "warning: the fixes of \(input) carry no speed readings and scatter by about \(sigma.fixed(1)) m "
            + "(per axis) from one fix to the next, more than the \(step.fixed(1)) m counted per step: the forward "
            + "distance mixes in that scatter (generated walks at 1 Hz under 2–5 m of it read +5 … +48 %; at 0.6 m/s "
            + "under 5 m, −33 … −47 %, read as standing); process --smooth judges the whole track (the same walks: "
            + "+1 … +5 % at 1.3 m/s, +11 … +24 % at 0.6 m/s)\n"
    }

    /// The share of the moving steps' length (speed × seconds, held or not) the run must have counted for
    /// ``scatterWarning(input:)``: 0.1. Below it the rest gates held the scatter, they did not mix it in: a still
    /// phone under 3.7 m of white scatter, no speeds, counted 0 m of the 10 minutes its filtered speed crossed
    /// 0.5 m/s in, and was told its distance mixed in the scatter (a calibration tester's desks, 2026-12-06, three
    /// seeds of three). The walks the warning is for are warned as before (`tools/analysis/scatter_walks.py`, all
    /// 30, the 0.6 m/s ones under 5 m read as standing for a third to half of them included).
    static let scatterMixedInShare = 0.1

    /// How many times the mean counted step the scatter must be for ``scatterWarning(input:)``: 1.2, where
    /// the generated walks over-count by about 5 % (σ 2 m at 1.3 m/s, estimated 1.8 m: 1.3 ×, +5 … +7 %; σ 1 m at
    /// 0.6 m/s: 1.4 ×, +4 … +6 %; σ 1.5 m at 1.3 m/s: 1.0 ×, +2 … +3 %, not warned).
    static let scatterOverStepRatio = 1.2

    /// The fewest moving steps for ``scatterWarning(input:)``: 60, twice the white-noise estimate's
    /// averaging (``TrackingProfile/measurementNoiseScaleFixes``, 30), so that it judges a settled estimate (30
    /// fixes of a still receiver whose latitude steps 1 m in a sawtooth were warned of).
    static let scatterMinimumFixes = 60

    /// The profile hint when most fixes rejected as too fast had no speed reading and the fixes scatter from one
    /// to the next by half the profile's ceiling step or more: the speed between two fixes is then mostly their
    /// scatter, and a faster profile (the usual hint's advice) would count it (a slow walk under 8 m of scatter:
    /// 28 % of its fixes "too fast" for walking).
    func scatterTooFastHint(_ profile: TrackingProfile, tracker: Tracker, input: String) -> String? {
        guard read >= 20, Double(rejectedAsTooFast) > 0.2 * Double(read),
            2 * rejectedAsTooFastFromPositions >= rejectedAsTooFast,
            let sigma = tracker.whiteNoiseSigmaMetres, let span = acceptedSpanSeconds, accepted >= 20
        else { return nil }
        // (The fixes' own cadence: the accepted ones alone are sparser by the rejected.)
        let cadence = span / Double(accepted + rejectedAsTooFast - 1)
        guard 2 * sigma >= profile.maximumSpeedMetresPerSecond * cadence else { return nil }
        let percent = Terminal.percent(rejectedAsTooFast, of: read)
        return
            "warning: \(rejectedAsTooFast) of \(read) fixes of \(input) (\(percent) %) were rejected as faster than the "
            + "\(profile.kind.rawValue) profile allows (\(Int(profile.maximumSpeedMetresPerSecond)) m/s), but the fixes "
            + "carry no speed readings and scatter by about \(sigma.fixed(1)) m (per axis) from one fix to the next, "
            + "\(cadence.fixed(1)) s apart: the speed between two of them is mostly that scatter, not a vehicle's "
            + "(a faster profile would count it); process --smooth judges the whole track\n"
    }

    /// Seconds from the earliest to the latest accepted fix; `nil` before two.
    var acceptedSpanSeconds: Double? {
        guard let earliestAccepted, let latestAccepted, earliestAccepted < latestAccepted else { return nil }
        return earliestAccepted.seconds(to: latestAccepted)
    }

    /// The silences ``silenceWarning(profile:input:)`` judges, as the profiles' reset gaps (driving 20 s, running
    /// and cycling 30 s, walking 60 s): a silence is counted in every bucket it is longer than.
    static let silenceBuckets: [Double] = [20, 30, 60]
    /// The chord a silence must span to be one the traveller moved across (metres): 50, the stop detector's
    /// displacement veto; an auto-paused logger's silence at a halt spans the fixes' noise.
    static let silenceChordMetres = 50.0

    /// Counts a step of `seconds` from the fix read before (``positionBefore``, ``lastPosition`` after this fix)
    /// to `after`: in the cadence counts, and as a silence in its buckets when its chord says the traveller moved
    /// across it.
    private mutating func observeStep(_ seconds: Double, to after: Fix) {
        forwardSteps += 1
        for (i, bucket) in Self.silenceBuckets.enumerated() where seconds <= bucket / 3 { stepsWithinThird[i] += 1 }
        guard _slowPath(seconds > Self.silenceBuckets[0]) else { return }
        // (Two walks two days apart are no silence of 172,801 s, "99 % of the time": a tester's.)
        guard seconds < separationSeconds else {
            separatedSeconds += seconds
            return
        }
        let chord = Haversine.distance(from: lastPosition, to: (after.latitude, after.longitude))
        guard chord > Self.silenceChordMetres else { return }
        for (i, bucket) in Self.silenceBuckets.enumerated() where seconds > bucket {
            silences[i] += SIMD3(1, seconds, chord)
        }
    }

    /// A warning when the traveller moved across silences longer than the profile's reset gap that add up to at
    /// least ``silenceShare`` of the accepted fixes' span: across each the forward distance counts at most the
    /// chord (when the pace on both sides agrees: docs/ARCHITECTURE.md 5d), not the path through it, and
    /// nothing in the summary said so (a sports tester's track run with three silences of 103–115 s: 4,723 m of
    /// 5,989, the chords 166 m; the stop analysis names the unobserved time, `process` did not).
    ///
    /// Only for a dense track (most steps within a third of the gap: a logger every 30 s has no silences, its
    /// rhythm is judged by the sparse rules), between fixes read (a stretch the gates refused is no silence), and
    /// not when the profile hint speaks (a drive read as walking refuses most of its fixes: a reviewer's).
    func silenceWarning(profile: TrackingProfile, input: String) -> String? {
        guard let wholeSpan = acceptedSpanSeconds, case let span = wholeSpan - separatedSeconds, span > 0,
            let i = Self.silenceBuckets.lastIndex(where: { $0 <= profile.filterResetGapSeconds }),
            2 * stepsWithinThird[i] > forwardSteps, profileHint(profile, input: input) == nil
        else { return nil }
        let (count, seconds, chords) = (Int(silences[i].x), silences[i].y, silences[i].z)
        guard count > 0, seconds >= Self.silenceShare * span else { return nil }
        return "warning: \(input): the fixes moved across \(Terminal.count(count, "silence", "silences")) longer than "
            + "\(Self.silenceBuckets[i].fixed(0)) s, \(seconds.fixed(0)) s in all (\(Int((100 * seconds / span).rounded())) % "
            + "of the time): across each the forward distance counts at most the straight line (\(chords.fixed(0)) m "
            + "in all), not the path through it; process --smooth gives the distance a σ that covers "
            + Self.coveredSilences(profile)
    }

    /// Which silences the smoother's σ covers, for the silence warning: those shorter than the profile's session
    /// break; a longer one is a break in the recording, which counts nothing and adds nothing to σ (a CLI tester's
    /// hour-long, 55 km silence read ± 2.6 m after the warning said the σ covered it).
    static func coveredSilences(_ profile: TrackingProfile) -> String {
        let limit = SmoothingOptions(profile: profile).recordingBreakSeconds
        return "those shorter than \(limit.fixed(0)) s (a longer one is a break in the recording, which counts "
            + "nothing)\n"
    }

    /// The share of the time the silences must make up for ``silenceWarning(profile:input:)``: 5 %, where a track
    /// at one pace misses up to about 5 % of its distance.
    static let silenceShare = 0.05

    /// The warning for `count` fixes of `input` at exactly 0° N 0° E: `leftOut` by the command that says it
    /// (`process`, `stops`), or only read (`info`, whose raw distance counts them).
    static func nullIslandWarning(_ count: Int, input: String, leftOut: Bool) -> String {
        "warning: \(input): \(Terminal.count(count, "fix", "fixes")) at exactly 0° N 0° E"
            + (leftOut ? " left out (rejected as invalid)" : "")
            + ": the placeholder a device writes before it has a position, not a place"
            + (leftOut ? "" : "; process and stops leave them out, the raw distance here counts them") + "\n"
    }

    /// Whether `count` of `total` fixes is a share worth a warning: more than `share` of at least
    /// ``shareMinimumFixes``, or of fewer, at least three and at least a third of them (whatever `share`). Why:
    /// shares of a handful of fixes are noise (one jump of four fixes is 25 %; two cold-start fixes of six rejected
    /// for their accuracy are no column in another unit, a reviewer's), but a short file that loses most of its
    /// distance to one cause was left without a word (a tester's drives every 60 s on the walking profile: 6 fixes,
    /// 0 m of 4,448, "rejected: speed 3" and nothing more; 19 fixes, 9 of them rejected, 0 m of 16,200).
    static func isLargeShare(_ count: Int, of total: Int, over share: Double) -> Bool {
        total >= shareMinimumFixes ? Double(count) > share * Double(total) : count >= 3 && 3 * count >= total
    }

    /// The fewest fixes whose shares the warnings judge by their thresholds (``isLargeShare(_:of:over:)``): 20.
    static let shareMinimumFixes = 20

    /// The share of the distance (counted plus held fast) that the fixes held faster than the sustained speed may
    /// stand for before the profile hint names them however few they are: 5 %. Counting only those (not the
    /// latch's slower fixes after them, which overstated the loss 2–2.5 ×), a generated run with two 30 s sprints
    /// at 9.5 m/s read 8 % held and lost 9 %; a mountain bike read as a run lost 7–29 %; a ride read with its own
    /// profile holds none.
    static let heldDistanceShare = 0.05

    /// The fewest fixes held faster than the sustained speed for the distance trigger: 20 (one held fix of 21 on a
    /// network-located walk fired it, a reviewer's).
    static let heldFastMinimumFixes = 20

    /// The providers of the accepted fixes (`gps 94, fused 95, network 54`, most first) when at least 20 were
    /// accepted and two or more stated providers each gave at least a tenth of them; nil otherwise.
    var providerMix: String? {
        guard accepted >= 20 else { return nil }
        let shares = zip(Provider.allCases, acceptedByProvider)
            .filter { $0.0 != .unknown && $0.1 * 10 >= accepted }
            .sorted { $0.1 > $1.1 }
        guard shares.count >= 2 else { return nil }
        return shares.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
    }

    /// What every command that runs the tracker over an input says after its run, in one order (`process`,
    /// `stops` and `buffer add` each had their own list and order): the profile hint, the measurements the reader
    /// could not use, the delivery order (unless `ordering` is false: a caller that explained it), the first damaged
    /// records skipped in lenient mode, bad NMEA checksums.
    ///
    /// `tracker` is the one that ran, at the end: its ``Tracker/sessionDopplerRatio``, ``Tracker/readsSlowColumn`` and
    /// ``Tracker/readsCourseWrong`` say what the speed and course columns read.
    /// `timeSpan` is the span the summary's times cover when the caller left wrong fixes out of it
    /// (``EvidenceStream/timeSpan``); the time warning then judges it instead of every accepted fix's time.
    func warnings(
        profile: TrackingProfile, reader: AnyFixReader, input: String, rawPathMetres: Double?, ordering: Bool = true,
        smoothed: Bool = false, tracker: Tracker? = nil, timeSpan: (earliest: Timestamp, latest: Timestamp)? = nil
    ) -> [String] {
        var result: [String] = []
        if nullIslandFixes > 0 { result.append(Self.nullIslandWarning(nullIslandFixes, input: input, leftOut: true)) }
        if let warning = nothingAcceptedWarning(profile: profile, input: input) { result.append(warning) }
        // A time column in the wrong unit (it says so instead of the time warning's "distances and speeds do not
        // depend on it", and a speed column then reads 1,000 × the positions' speed for that reason alone).
        let timeUnit = timeUnitWarning(column: reader.csvTimeColumn, input: input)
        if let timeUnit { result.append(timeUnit) }
        if let warning = Self.mixedZonesWarning(reader, input: input) { result.append(warning) }
        result += Self.pointsWithoutTimeOrPosition(reader.report)
        // (Slow all along by the slow-column run, or by the speed check's spans (``SpeedCheck``) where the session's
        // ratio shows it too: a walk whose positions drifted sideways for 50 s had the check fire briefly, and the
        // ratio warning then quoted 0.87 × as a unit read wrong; a reviewer.)
        let ratio = tracker?.sessionDopplerRatio
        let ratioShowsSlow = ratio.map { DopplerCheck.jumpSpeedFactor * $0 < 1 } ?? false
        let readsSlow = tracker.map { $0.readsSlowColumn || ($0.hasReadSpeedSlow && ratioShowsSlow) } ?? false
        if timeUnit == nil,
            let warning = speedUnitWarning(
                ratio, readsSlow: readsSlow, countedMetres: tracker?.distance.dopplerMetres ?? 0, profile: profile,
                input: input)
        {
            result.append(warning)
        } else if timeUnit == nil, let tracker, tracker.hasReadSpeedSlow {
            // (No session ratio that shows it: the readings pinned the filter before any evidence was in, or they
            // read slow only for a while.)
            result.append(Self.speedSpansWarning(input: input, fast: false, untilTheEnd: tracker.readsSpeedSlow))
        } else if timeUnit == nil, let tracker, tracker.hasReadSpeedFast {
            result.append(Self.speedSpansWarning(input: input, fast: true, untilTheEnd: tracker.readsSpeedFast))
        }
        // A column still wrong at the end, or wrong for 1 % of the accepted fixes or more: a right column's corners
        // under noisy positions now and then add up to a short run (a smoother tester's 33-hour 10 Hz drive, true
        // courses within 5°: 187 of 1.2 M left out, and a warning that they were radians).
        if let tracker, tracker.coursesLeftOut > 0,
            tracker.readsCourseWrong || 100 * tracker.coursesLeftOut >= accepted
        {
            result.append(
                Self.courseColumnWarning(
                    input: input, leftOut: tracker.coursesLeftOut, untilTheEnd: tracker.readsCourseWrong))
        }
        if let warning = overruledReadingsWarning(profile: profile, input: input, reader: reader) {
            result.append(warning)
        } else if let warning = zeroSpeedColumnWarning(input: input, reader: reader) {
            result.append(warning)
        }
        // (The scatter warning only where the profile is not in question: a run read as walking is held as a
        // vehicle, and its few counted metres are not over-counted scatter.)
        if let tracker, let hint = scatterTooFastHint(profile, tracker: tracker, input: input) {
            result.append(hint)
        } else if let hint = profileHint(profile, input: input) {
            result.append(hint)
        } else if !smoothed, let warning = scatterWarning(input: input) {
            result.append(warning)
        }
        if let warning = outlierShareWarning(input: input) { result.append(warning) }
        if let warning = accuracyShareWarning(profile: profile, input: input) { result.append(warning) }
        if timeUnit == nil, let span = timeSpan ?? earliestAccepted.flatMap({ e in latestAccepted.map { (e, $0) } }),
            let warning = RunDiagnostics.timeWarning(earliest: span.earliest, latest: span.latest, input: input)
        {
            result.append(warning)
        }
        if let warning = springForwardWarning(input: input, reader: reader) { result.append(warning) }
        if let warning = Self.weekRolloverWarning(weekRollovers, input: input, format: reader.format) {
            result.append(warning)
        }
        if let warning = InputOptions.unreadMeasurementWarning(reader, input: input) { result.append(warning) }
        if let warning = InputOptions.localTimeWarning(reader, input: input) { result.append(warning) }
        if ordering,
            let warning = orderWarning(input: input, reader: reader, rawPathMetres: rawPathMetres, smoothed: smoothed)
        {
            result.append(warning)
        }
        // A file that ends inside a record (a truncated download or copy): with --lenient the break is skipped like
        // a damaged record, but what followed it is missing, which one skipped record does not say (a tester's GPX
        // had lost 40 % of its ride).
        // (An empty input is said by its error, "no fixes: the input is empty": a tester read both.)
        if let end = reader.report.endOfInput, reader.report.bytesRead > 0 {
            // (Unless the input went on after it: then one record was cut short, and a tester took the warning for a
            // file that had lost its end.)
            if end.isCutShortBefore(inputBytes: reader.report.bytesRead) {
                result.append(
                    "warning: a record of \(input) ends early, cut short in the middle of the input: \(end); it was "
                        + "skipped and the records after it were read\n")
            } else {
                result.append(
                    "warning: \(input) ends early, inside a record (truncated?): \(end); whatever followed is missing\n"
                )
            }
        }
        let listed = reader.report.errors.prefix(5).filter { $0.description != reader.report.endOfInput?.description }
        for error in listed { result.append("  skipped: \(error)\n") }
        // (The rest counted: a tester's 50,000 bad rows showed five lines and nothing more.)
        let unlisted = reader.report.errorCount - listed.count - (reader.report.endOfInput == nil ? 0 : 1)
        if !listed.isEmpty, unlisted > 0 {
            result.append("  … and \(unlisted) more damaged record\(unlisted == 1 ? "" : "s") skipped\n")
        }
        result += InputOptions.unreadableFieldLines(reader.report, input: input)
        if let warning = InputOptions.checksumWarning(reader.report) { result.append(warning) }
        return result
    }

    /// A warning when the fixes' times cannot be a recording's: after tomorrow (a two-digit year read in the
    /// wrong century: NMEA's `140570` is 2070, a clock error), or before GPS began (1980-01-06: a column of
    /// seconds since the start read as Unix time, 1970). Distances and speeds, which use time differences, are
    /// unaffected; the dates and times printed are wrong. `nil` when the times are plausible.
    static func timeWarning(
        earliest: Timestamp, latest: Timestamp, input: String,
        now: Timestamp = Terminal.now()
    ) -> String? {
        if latest.millisecondsSince1970 > now.millisecondsSince1970 + 86_400_000 {
            return
                "warning: \(input): fixes dated up to \(ISO8601.format(latest)), in the future: a two-digit year read "
                + "in the wrong century, or a wrong clock? Distances and speeds do not depend on it; dates do\n"
        }
        if earliest.millisecondsSince1970 < 0 {
            return "warning: \(input): fixes dated from \(ISO8601.format(earliest)), before 1970: a broken clock "
                + "(1901-12-13T20:45:52Z is where a signed 32-bit Unix time wraps)? The dates are wrong\n"
        }
        if earliest.millisecondsSince1970 < Timestamp.gpsEpochMillisecondsSince1970 {
            return "warning: \(input): fixes dated from \(ISO8601.format(earliest)), before GPS began (1980): times "
                + "counted from the recording's start read as Unix time? Distances and speeds do not depend on it "
                + "as long as the time unit is right (seconds read as milliseconds, or the reverse, are 1000× off: "
                + "`process` checks the steps against the positions); dates do\n"
        }
        return nil
    }

    /// A warning when the times jump by whole GPS week-rollover periods (``GPSWeekRollover``) between fixes
    /// read one after the other: part of the file is dated 1024 weeks early, and a stop or a duration across
    /// the jump lasts 19.6 years (a reviewer's walk: one stop from 2006 to 2026). Names the first jump and
    /// the remedy, `convert --week-rollover` (with the format for standard input, which cannot be sniffed).
    static func weekRolloverWarning(_ tally: GPSWeekRollover.Tally, input: String, format: FixFormat) -> String? {
        guard let first = tally.first else { return nil }
        let jumps = tally.jumps
        let more = jumps > 1 ? " (and \(jumps - 1) more such jump\(jumps == 2 ? "" : "s"))" : ""
        let formatOption = input == "-" ? " --format \(format.rawValue)" : ""
        return "warning: \(input): \(first.description)\(more): a GPS receiver's week-number rollover, which dates "
            + "fixes whole periods of 1024 weeks (19.6 years) away from their time; times, durations and stops across it are "
            + "wrong. 'truetrack convert \(input) FIXED.csv\(formatOption) --week-rollover' re-dates them\n"
    }

    /// A warning when the speed column reads far faster than the positions move (the Doppler check then distrusts
    /// it, see ``DopplerCheck/readsTooFast(sessionDopplerPathMetres:sessionPositionPathMetres:profile:)``): a
    /// tester's ride with its speed in km/h counted +129 % without a word, and the profile hint told them to use
    /// the cycling profile they were using.
    ///
    /// (Tried: only when the distance came mostly from the positions, for a tester's 8-fix drive told so with 77.6
    /// of its 83.4 m counted on its speed. A reviewer's 10-fix km/h, knots and mph columns then lost the warning
    /// exactly when the mis-read speed had inflated the distance: reverted.)
    ///
    /// And the reverse, when the tracker found the column reading slow all along (`readsSlow`,
    /// ``Tracker/readsSlowColumn``): m/s values in a km/h column cost a tester's drive 71 % without a word.
    ///
    /// `countedMetres`: what the tracker counted from the readings (``DistanceAccumulator/dopplerMetres``). A column
    /// read too fast is trusted until the positions show it wrong, and what it counted by then stays counted (the
    /// total never decreases): a CLI tester's knots column under a 120 s walk counted 62.6 of its 197.2 m, and a
    /// km/h one under a drive 270 m, told "the distance comes from the positions". The warning says how much.
    func speedUnitWarning(
        _ ratio: Double?, readsSlow: Bool = false, countedMetres: Double = 0, profile: TrackingProfile, input: String
    ) -> String? {
        guard let ratio else { return nil }
        let units: String
        var counted = ""
        if profile.dopplerTrustRatio * ratio > 1 {
            units = "km/h read as m/s would be 3.6, knots 1.94, mph 2.24"
            if countedMetres >= 0.05 {
                counted =
                    ", but for the \(countedMetres.fixed(1)) m counted from it before the positions showed it wrong "
                    + "(name its unit in the header, speed_kmh, speed_knots or speed_mph, or with --column NAME=speed_kmh, "
                    + "to count it right)"
            }
        } else if readsSlow {
            units = "m/s read as km/h would be 0.28, as mph 0.45, as knots 0.51"
        } else {
            return nil
        }
        // Two decimals up to 1,000 ×; beyond, the order of magnitude (a 1e300 ratio printed 300 digits).
        let shown = ratio < 1000 ? ratio.fixed(2) : ratio.scientific(1)
        return "warning: the speed column of \(input) reads \(shown) × the speed its positions move at "
            + "(\(units)): it was not trusted, and the distance comes from the positions\(counted)\n"
    }

    /// The warning when the tracker's ``SpeedCheck`` found the speed readings far slower (or, `fast`, far faster)
    /// than the fixes moved, span after span (``Tracker/hasReadSpeedSlow``, ``Tracker/hasReadSpeedFast``), where the
    /// session's ratio does not show it: a ride whose m/s speeds were read as km/h (with a course) counted 0 m of
    /// 5 km before the check, a drive whose km/h speeds were read as m/s 0 m of 9 km, and nothing said why.
    /// `untilTheEnd`: the readings were still left out at the last fix.
    static func speedSpansWarning(input: String, fast: Bool, untilTheEnd: Bool) -> String {
        "warning: the speed column of \(input) read far \(fast ? "faster" : "slower") than its positions moved "
            + "(\(fast ? "km/h read as m/s would be 3.6 ×" : "m/s read as km/h would be 0.28 ×"))"
            + "\(untilTheEnd ? "" : " for a while"): those readings were not trusted, and the distance comes from "
            + "the positions\n"
    }

    /// The warning when the tracker found the course column pointing elsewhere than the fixes travel
    /// (``Tracker/readsCourseWrong``, ``CourseCheck``): a course written as a math angle cost the GSDC Pixel 4 drive
    /// 97 % of its distance, silently, before the tracker left such a column out.
    /// `leftOut` courses were left out; `untilTheEnd`: the column still read wrong at the last fix (else it was
    /// wrong for a while: a reviewer's point, a column wrong only for a while went unsaid).
    static func courseColumnWarning(input: String, leftOut: Int, untilTheEnd: Bool) -> String {
        let which = untilTheEnd ? "" : " for a while"
        return "warning: the course column of \(input) does not point where its fixes travel\(which) (a course "
            + "counted counter-clockwise from east, turned by 90° or 180°, or radians?): \(leftOut) course"
            + (leftOut == 1 ? " was" : "s were") + " left out, the speeds kept\n"
    }

    /// How many of the fixes read were rejected for `reason`, and their share in whole percent, when they are more
    /// than a tenth (``isLargeShare(_:of:over:)``: what the share warnings say); `nil` otherwise.
    func largeRejectedShare(_ reason: RejectionReason) -> (count: Int, percent: Int)? {
        guard let i = RejectionReason.allCases.firstIndex(of: reason) else { return nil }
        let count = rejectedByReason[i]
        guard Self.isLargeShare(count, of: read, over: 0.1) else { return nil }
        return (count, Terminal.percent(count, of: read))
    }

    /// A warning when more than a tenth of the fixes (``isLargeShare(_:of:over:)``) were rejected for their accuracy (over the profile's
    /// ``TrackingProfile/maximumAccuracyMetres``, or none valid), but not all (``nothingAcceptedWarning`` says that):
    /// an accuracy column in another unit (feet, a 95 % radius, ×10) lost a walk 95 % and a drive 44 % of their
    /// distance without a word (a column-mangling tester), as a coarse receiver indoors would.
    func accuracyShareWarning(profile: TrackingProfile, input: String) -> String? {
        guard accepted > 0, let (refused, percent) = largeRejectedShare(.accuracy) else { return nil }
        return "warning: \(refused) of \(read) fixes of \(input) (\(percent) %) were rejected for their accuracy (over "
            + "\(Int(profile.maximumAccuracyMetres)) m for the \(profile.kind.rawValue) profile, or none): a coarse "
            + "receiver (indoors, a network provider), or an accuracy column in another unit (feet, centimetres, a 95 % "
            + "radius)? The distance counts the rest\n"
    }

    /// A warning when more than a tenth of the fixes (``isLargeShare(_:of:over:)``) were rejected as outliers (far from where the filter
    /// predicted them): positions that jump between places, such as latitude and longitude swapped in a CSV header
    /// (a tester's drive landed in Antarctica and back, 74 of 200 fixes refused, the distance halved without a
    /// word), two receivers or providers in one file, or a damaged column. The recordings' receivers have none.
    func outlierShareWarning(input: String) -> String? {
        guard let (outliers, percent) = largeRejectedShare(.outlier) else { return nil }
        return "warning: \(outliers) of \(read) fixes of \(input) (\(percent) %) were rejected as outliers, far from "
            + "where the track was heading: positions that jump between places (latitude and longitude swapped, "
            + "two receivers or providers in one file, a damaged column)? The distance counts the rest\n"
    }

    /// A warning when the tracker overruled the speed readings (under 0.3 m/s while the positions made steady
    /// progress, ``Tracker/overruledSpeedReadingsSince``): a tester's logger with a column of zeros read 0 m for
    /// every drive without a word; now the distance comes from the positions there, and the user is told why
    /// (and that walks, crawls and drives between lights at 10 s or sparser may still be lost under such a column).
    func overruledReadingsWarning(profile: TrackingProfile, input: String, reader: AnyFixReader? = nil) -> String? {
        guard overruledReadings > 0 else { return nil }
        return "warning: the speed column of \(input) read still (under "
            + "\(profile.deadbandMetresPerSecond.fixed(1)) m/s) while the positions moved steadily, at "
            + "\(overruledReadings) of its \(read) fixes (accepted, once each run showed it): a placeholder column? "
            + "Those readings were overruled and "
            + "the distance there comes from the positions; short or slow moves under such a column may still count "
            + "nothing (\(Self.ignoreSpeedAdvice(reader, input: input)))\n"
    }

    /// A warning when every speed reading of the accepted fixes was exactly 0 (at least ``zeroColumnFixes`` of them)
    /// while the net-displacement gate held at least ``zeroColumnFixes`` fixes, and a quarter of the accepted ones,
    /// whose window had moved ``heldMovingThresholds`` thresholds or more, the track made progress (at least
    /// ``zeroColumnProgressingBlocks`` blocks, and a quarter of those judged, at ``zeroColumnProgressMetresPerSecond``),
    /// and no run of them overruled the readings
    /// (``overruledReadingsWarning(profile:input:reader:)`` speaks then): a logger that writes 0 where it has no speed
    /// (Android's `getSpeed()` without `hasSpeed()`). The tracker believes zeros that a walk's steady progress does
    /// not overrule, and a tester's walks under such a column read 0 m without a word (their positions alone: within
    /// the over-count of white noise); the user is told how to read the file without the column.
    func zeroSpeedColumnWarning(input: String, reader: AnyFixReader? = nil) -> String? {
        guard overruledReadings == 0, nonZeroSpeedReadings == 0, speedReadings >= Self.zeroColumnFixes,
            heldWhileMoving >= Self.zeroColumnFixes, 4 * heldWhileMoving >= accepted,
            zeroColumnProgressingBlocks >= Self.zeroColumnProgressingBlocks,
            4 * zeroColumnProgressingBlocks >= zeroColumnJudgedBlocks
        else { return nil }
        return "warning: every speed reading of \(input) is 0 (\(Terminal.count(speedReadings, "fix", "fixes"))) while "
            + "the positions moved: \(Terminal.count(heldWhileMoving, "fix", "fixes")) held as still by the readings "
            + "with the net displacement at twice its threshold or more. A placeholder column (a logger that writes 0 "
            + "where it has no speed)? Its moves counted nothing; \(Self.ignoreSpeedAdvice(reader, input: input))\n"
    }

    /// The fewest zero readings, and held fixes, for ``zeroSpeedColumnWarning(input:reader:)``: 30 (half a minute
    /// at 1 Hz; a short file's few zeros are a halt as likely as a placeholder).
    static let zeroColumnFixes = 30
    /// The fewest blocks that made progress for ``zeroSpeedColumnWarning(input:reader:)``: 3 (the first block is
    /// judged a minute or more after the first: about a minute and a half of walking at 1 Hz, seven minutes every
    /// 10 s).
    static let zeroColumnProgressingBlocks = 3

    /// How to read `input` without its speeds: a CSV with `--column NAME=ignore` (its speed column's own name); any
    /// other format (`--column` applies to CSV only) converted to CSV first, whose speed column is `speed_mps`.
    static func ignoreSpeedAdvice(_ reader: AnyFixReader?, input: String) -> String {
        if let reader, reader.format != .csv {
            return "`truetrack convert \(input) OUT.csv` and `--column speed_mps=ignore` on OUT.csv read it without "
                + "speeds"
        }
        return "`--column \(reader?.csvSpeedColumnName ?? "speed")=ignore` reads the file without speeds"
    }

    /// A warning when fixes were read and the tracker accepted none: the distance is 0 because of the gates, not
    /// because the track stood still (a tester's file of fixes claiming 5,000 m exited 0 without a word). Names
    /// the reasons, most first, and the accuracy gate's limit when it rejected any.
    func nothingAcceptedWarning(profile: TrackingProfile, input: String) -> String? {
        guard read > 0, accepted == 0 else { return nil }
        let reasons = zip(RejectionReason.allCases, rejectedByReason).filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
        let list = reasons.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
        let accuracy =
            reasons.contains { $0.0 == .accuracy }
            ? "; the \(profile.kind.rawValue) profile accepts an accuracy above 0 m up to "
                + "\(profile.maximumAccuracyMetres.fixed(0)) m (0 or less marks a position invalid)" : ""
        return "warning: none of the \(read) fixes of \(input) was accepted (rejected: \(list)): the distance is 0 and "
            + "no track was filtered\(accuracy)\n"
    }

    /// A warning when more than a fifth of the fixes (``isLargeShare(_:of:over:)``) were out of order (IPIN's
    /// re-delivered batches: 2-3 %; a GPX logger's re-sorted points: 6 %), saying how many repeat the time of
    /// the fix read just before (a logger that stamped every point with one time, a 32-bit epoch underflow):
    /// TrueTrack's distance, which integrates speed over time, is then near 0 m. `rawPathMetres` is what the
    /// naive sum of segments counted.
    ///
    /// With `smoothed` (`process --smooth`) the distance is the smoother's, which sorts the fixes by time: the
    /// warning says so, and that the forward filter's figures (duration, moving time, stops) followed the file's
    /// order (a tester's shuffled walk: the smoothed distance right, "counts next to nothing" wrong, duration
    /// and stops those of the unsorted pass).
    func orderWarning(input: String, reader: AnyFixReader, rawPathMetres: Double?, smoothed: Bool = false) -> String? {
        if let warning = clockChangeWarning(input: input, reader: reader) { return warning }
        guard Self.isLargeShare(outOfOrder, of: read, over: 0.2) else {
            return smoothed ? nil : lateBlockWarning(input: input)
        }
        let percent = Terminal.percent(outOfOrder, of: read)
        if smoothed {
            return "warning: \(outOfOrder) of \(read) fixes (\(percent) %) of \(input) are out of order: the smoothed "
                + "distance takes them in time order, but the duration, moving time and stops follow the file's "
                + "order; 'truetrack convert \(input) SORTED.csv --sort' writes it in time order\n"
        }
        let repeats =
            repeatingTheTimeBefore > 0
            ? "; \(repeatingTheTimeBefore) of them carry the same time as the fix before" : ""
        let raw = rawPathMetres.map { ", while the raw path is \($0.fixed(1)) m" } ?? ""
        // What the accepted fixes are worth, measured (a DST file with 49 % accepted was told "next to nothing").
        let acceptedPercent = Terminal.percent(accepted, of: read)
        let countedShare =
            acceptedPercent < 10
            ? "next to nothing (\(Terminal.count(accepted, "fix", "fixes")) accepted, \(acceptedPercent) %)"
            : "only the stretches of the \(accepted) accepted fixes (\(acceptedPercent) %)"
        return "warning: \(outOfOrder) of \(read) fixes (\(percent) %) of \(input) were rejected as out of order (not "
            + "newer than the last accepted fix\(repeats)): its times look broken, and TrueTrack's distance "
            + "integrates speed over time, so it counts \(countedShare)\(raw)"
            // Sorting helps a file written newest first or shuffled, not one whose fixes share a time.
            + (2 * repeatingTheTimeBefore >= outOfOrder
                ? "\n"
                : "; if the file is written newest first or shuffled, 'truetrack convert \(input) SORTED.csv --sort' "
                    + "writes it in time order\n")
    }
}

extension RunDiagnostics {
    /// A run of fixes rejected as out of order one after another: how many, the earliest and latest of their times,
    /// and the last accepted fix's time they fell behind.
    struct RejectedRun {
        var count: Int
        var earliest: Timestamp, latest: Timestamp
        var behind: Timestamp

        /// `run` with one more fix at `time` (a new run when `run` is `nil`, behind the accepted time `behind`).
        init(extending run: RejectedRun?, with time: Timestamp, behind: Int64?) {
            count = (run?.count ?? 0) + 1
            earliest = min(run?.earliest ?? time, time)
            latest = max(run?.latest ?? time, time)
            self.behind = run?.behind ?? Timestamp(millisecondsSince1970: behind ?? time.millisecondsSince1970)
        }

        /// The seconds from the run's earliest time to its latest.
        var spanSeconds: Double { earliest.seconds(to: latest) }

        /// Of `longest` so far and `run`, the one whose times span longer (`longest` on a tie, `run` when there is
        /// none).
        static func longer(_ longest: RejectedRun?, _ run: RejectedRun) -> RejectedRun {
            longest.map { $0.spanSeconds < run.spanSeconds ? run : $0 } ?? run
        }
    }

    /// The shortest span of time a run of fixes rejected as out of order must cover to be warned of when they are
    /// fewer than a fifth of the file: 60 s. Why: a late batch (a phone that delivered its fixes newest batch
    /// first, a merge of two exports) loses whatever happened in it, a stop of minutes among them, without a word
    /// (a stops tester's drive with 9 minutes of fixes in reversed 30 s batches: 510 of 2,836 rejected, its 5-minute
    /// stop gone); a re-delivered fix or two (IPIN's batches, swapped neighbours) spans seconds.
    static let lateBlockSeconds = 60.0

    /// A warning for the run of fixes rejected as out of order, one after another, inside silences of the accepted
    /// track, whose times span at least ``lateBlockSeconds`` (the longest such run, and how many fixes it holds).
    func lateBlockWarning(input: String) -> String? {
        guard let run = longestLateRun, run.spanSeconds >= Self.lateBlockSeconds else {
            return repeatedTimesWarning(input: input)
        }
        return "warning: \(run.count) fixes of \(input) in a row, dated \(ISO8601.format(run.earliest)) to "
            + "\(ISO8601.format(run.latest)), came after newer ones and were rejected as out of order (\(outOfOrder) in "
            + "all): the distance and stops of those \(Int(run.spanSeconds.rounded())) s are "
            + "missing; if they were delivered late, 'truetrack convert \(input) SORTED.csv --sort' writes the file "
            + "in time order\n"
    }

    /// Whether one of the last accepted fixes (``recentAccepted``) has `fix`'s time and lies within a metre of it.
    private func isAcceptedAlready(_ fix: Fix) -> Bool {
        let t = fix.timestamp.millisecondsSince1970
        return recentAccepted.contains {
            $0.milliseconds == t
                && Haversine.distance(from: ($0.latitude, $0.longitude), to: (fix.latitude, fix.longitude)) <= 1
        }
    }

    /// A warning for the run of fixes rejected as out of order, one after another, whose times the accepted track
    /// had already covered, spanning at least ``lateBlockSeconds``: a clock that stepped back and ran on, whose
    /// fixes repeat a stretch of time (a stops tester's van whose clock stepped back 120 s as it halted: 120 fixes
    /// rejected, the stop 79 s of 200, and nothing said; fewer than a fifth of the file, and no silence they could
    /// have come from late).
    func repeatedTimesWarning(input: String) -> String? {
        guard let run = longestRepeatRun, run.spanSeconds >= Self.lateBlockSeconds else {
            return nil
        }
        let seconds = Int(run.spanSeconds.rounded())
        return "warning: \(run.count) fixes of \(input) in a row, dated \(ISO8601.format(run.earliest)) to "
            + "\(ISO8601.format(run.latest)), repeat times the track had already passed (they came after a fix dated "
            + "\(ISO8601.format(run.behind))) and were rejected as out of order (\(outOfOrder) in all): a clock that "
            + "stepped back? The distance and stops of those \(seconds) s of fixes are missing, and sorting would "
            + "interleave them with the fixes they repeat\n"
    }
}

extension RunDiagnostics {
    /// The fixes dated before 1980 (GPS began), one after another in read order: how many, their earliest and
    /// latest times, and the naive path between them (``timeUnitWarning(column:input:)``).
    struct EarlyFixes {
        private(set) var count = 0
        private(set) var earliest = Int64.max
        private(set) var latest = Int64.min
        private(set) var pathMetres = 0.0
        private var last: (latitude: Double, longitude: Double)?

        mutating func add(_ fix: Fix) {
            count += 1
            let t = fix.timestamp.millisecondsSince1970
            earliest = min(earliest, t)
            latest = max(latest, t)
            let here = (latitude: fix.latitude, longitude: fix.longitude)
            if let last {
                let d = Haversine.distance(from: last, to: here)
                if d.isFinite { pathMetres += d }
            }
            last = here
        }
    }

    /// A warning when a CSV time column was read in a unit a thousand times off, for the time warning's "before GPS
    /// began … distances and speeds do not depend on it", which was false there (a tester's elapsed milliseconds read
    /// as seconds: 299,000 s and 0 m; Unix seconds under `timestamp_ms`: 0.119 s and 0 m). Said when the fixes date
    /// from before 1980 (at least 3 of them, and every fix read) and
    /// - read as seconds, they step 10 s to 60,000 s apart on average while the positions move at 0.0002-0.1 m/s (a
    ///   walk to a drive if the values were milliseconds);
    /// - read as milliseconds, their first value read as seconds dates 2001-2099 (Unix seconds under a `_ms` name),
    ///   or they step under 50 ms apart on average while the positions move at 200-100,000 m/s (as seconds, 0.2-100
    ///   m/s).
    /// Names the column, the likely unit and the `--column` that reads it so.
    func timeUnitWarning(
        column: (name: String, encoding: CSVTimeEncoding, byName: Bool)?, input: String
    ) -> String? {
        guard let column, early.count >= 3, early.count == read, early.latest > early.earliest else { return nil }
        let spanSeconds = Double(early.latest - early.earliest) / 1000
        let stepSeconds = spanSeconds / Double(early.count - 1)
        let speed = early.pathMetres / spanSeconds
        let how = column.byName ? "as its name says" : "as its first value decided"
        let stepText = Self.duration(stepSeconds)
        let path = "the positions move \(early.pathMetres.fixed(1)) m over \(early.count) fixes"
        let option = "'--column \(column.name)="
        switch column.encoding {
        case .unixSeconds:
            guard (10...60_000).contains(stepSeconds), (0.0002...0.1).contains(speed) else { return nil }
            return "warning: \(input): the time column '\(column.name)' was read as seconds (\(how)), but its values "
                + "step \(stepText) apart while \(path): \(speed.scientific(1)) m/s, or \((speed * 1000).fixed(1)) m/s "
                + "if they are milliseconds (elapsed since the start?). Read as seconds, the duration is "
                + "\(spanSeconds.fixed(0)) s and the distance and speeds are wrong; \(option)time_ms' reads them as "
                + "milliseconds\n"
        case .unixMilliseconds:
            let asSeconds = Double(early.earliest) * 1000
            let datesAsSeconds = asSeconds >= 978_307_200_000 && asSeconds < 4_102_444_800_000  // 2001-2099
            let movesAsSeconds = stepSeconds < 0.05 && (200...100_000).contains(speed)
            guard datesAsSeconds || movesAsSeconds else { return nil }
            let evidence =
                datesAsSeconds
                ? "its values date from \(ISO8601.format(Timestamp(millisecondsSince1970: early.earliest))) as "
                    + "milliseconds, from \(ISO8601.format(Timestamp(millisecondsSince1970: Int64(asSeconds)))) as "
                    + "seconds"
                : "its values step \(stepText) apart while \(path): \(speed.fixed(0)) m/s, or "
                    + "\((speed / 1000).fixed(1)) m/s if they are seconds"
            return "warning: \(input): the time column '\(column.name)' was read as milliseconds (\(how)), but "
                + "\(evidence). Read as milliseconds, the duration is \(spanSeconds.fixed(3)) s and the distance and "
                + "speeds are wrong; \(option)time_s' reads them as seconds\n"
        default:
            return nil
        }
    }

    /// `seconds` as the warnings print a step: `1000 s`, `2.5 s`, `1 ms`.
    static func duration(_ seconds: Double) -> String {
        let (value, unit) = seconds >= 1 ? (seconds, "s") : (seconds * 1000, "ms")
        return "\(value.fixed(value == value.rounded() ? 0 : 1)) \(unit)"
    }

    /// The longest logging step ``springForwardWarning(input:reader:)`` judges a step forward at: 5 minutes. A sparse
    /// logger's hour of false silence cost its stops too (a timeline tester's logger every 90 s: 3,780 s unobserved
    /// and two trips, not warned at 61–300 s while the step back was); beyond, a step forward onto the half hour is
    /// as likely a pause.
    static let longestClockChangeCadenceMilliseconds: Int64 = 300_000

    /// The shortest step forward ``springForwardWarning(input:reader:)`` looks at: 29 minutes (a 30-minute change, less
    /// a second's tolerance).
    static let longForwardStepMilliseconds: Int64 = 1_740_000

    /// Settles the long step forward waiting for the step after it (this `step`, to `fix`), and keeps a new one
    /// (`from` the time of the fix before). Out of line: called only about steps of 29 minutes or more.
    @inline(never)
    private mutating func observeLongForwardStep(_ fix: Fix, step: Int64, from before: Int64) {
        if let pending = pendingForwardStep {
            pendingForwardStep = nil
            let cadence = pending.cadence
            let tolerance = max(1000, cadence / 2)
            let shift = pending.to - pending.from - cadence
            let change = Int64((Double(shift) / 1_800_000).rounded()) * 1_800_000
            // A change of 30 min to 2 h, by which the step overshoots the cadence; the cadence goes on after it;
            // the step lands within a cadence after a whole half hour (02:00 becomes 03:00: the fix due at 02:00:02
            // is written 03:00:02); and the fix after it lies where one more step of the cadence takes the device,
            // not where an hour's travel would.
            if cadence > 0, cadence <= Self.longestClockChangeCadenceMilliseconds, change >= 1_800_000,
                change <= 7_200_000,
                abs(shift - change) <= tolerance, abs(step - cadence) <= tolerance,
                (pending.to % 1_800_000 + 1_800_000) % 1_800_000 <= cadence + tolerance,
                pending.across <= max(50, 5 * pending.before)
            {
                clockForwardSteps += 1
                if firstClockForwardStep == nil {
                    firstClockForwardStep = (pending.fix, pending.from, pending.to, cadence, change)
                }
            }
        }
        guard step >= Self.longForwardStepMilliseconds else { return }
        pendingForwardStep = (
            read, before, fix.timestamp.millisecondsSince1970, lastForwardStep,
            Haversine.distance(from: lastPosition, to: (fix.latitude, fix.longitude)),
            Haversine.distance(from: positionBefore, to: lastPosition)
        )
    }

    /// A clock change of `minutes` as the warnings say it: `1 h`, `30 min`, `5 h 45 min`.
    static func clockChange(minutes: Int64) -> String {
        minutes % 60 == 0
            ? "\(minutes / 60) h" : minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// How the clock-change warnings say the times were read: `read as UTC`, or `read in +01:00, shown in UTC` when
    /// `--time-zone` converted any of them (a fixed offset has no summer time, so such a file still steps; the
    /// warning said "read as UTC" of times the option had moved).
    static func howTimesWereRead(_ reader: AnyFixReader) -> String {
        convertingZone(reader).map { "read in \($0), shown in UTC" } ?? "read as UTC"
    }

    /// The `--time-zone` the times were read in, when it converted any of them; `nil` otherwise.
    static func convertingZone(_ reader: AnyFixReader) -> LocalTimeZone? {
        reader.report.localTimesConverted > 0 ? reader.localTimeZone : nil
    }

    /// What the clock-change warnings advise for the zone: to give it (none was, or it converted nothing), to give its
    /// name instead of a fixed offset (the offset of one season), or to check a named zone that still left a step.
    static func zoneAdvice(_ reader: AnyFixReader) -> String {
        guard let zone = convertingZone(reader) else {
            return "give the zone they were written in (--time-zone Europe/Berlin)"
        }
        return zone.isFixedOffset
            ? "--time-zone \(zone) is a fixed offset, one season's: give the zone's name instead, whose rules hold "
                + "its daylight saving time (--time-zone Europe/Berlin)"
            : "were they written in another zone than \(zone)? give the one they were written in"
    }

    /// Warnings for the points a reader skipped for want of a time or a position, where it says where the first one
    /// is (CSV, GPX, TCX, JSON, IPIN, GeoLife PLT, GnssLogger): counted in the summary alone, a CLI tester could not
    /// find them.
    static func pointsWithoutTimeOrPosition(_ report: ReadReport) -> [String] {
        [(SkipReason.missingTime, "a time"), (.missingPosition, "a position")].compactMap { reason, what in
            guard let first = report.firstSkipped[reason] else { return nil }
            let count = report.skipped(reason)
            return "warning: \(Terminal.count(count, "point", "points")) without \(what) "
                + "\(count == 1 ? "was" : "were") skipped (the first at \(first)): a fix needs \(what)\n"
        }
    }

    /// A warning when a CSV's times are written both with a zone (or offset) and without one
    /// (``AnyFixReader/csvMixedTimeZones``), and no `--time-zone` says what the latter are: read as UTC, the parts
    /// may lie hours apart (a CLI tester's walk with `+02:00` on its first half lasted 7,259 s for 59, with a
    /// 7,201 s stop "in a recording gap", and nothing said why).
    static func mixedZonesWarning(_ reader: AnyFixReader, input: String) -> String? {
        guard let lines = reader.csvMixedTimeZones, reader.localTimeZone == nil else { return nil }
        return "warning: \(input): some times are written with a zone or UTC offset (the first at line "
            + "\(lines.zonedLine)) and some without one (the first at line \(lines.localLine)), read as UTC: if those "
            + "are local times, the two parts lie hours apart; give the zone they were written in (--time-zone "
            + "Europe/Berlin)\n"
    }

    /// The time of day of `milliseconds` since 1970 as the warnings print it (`02:59:59Z`).
    static func timeOfDay(_ milliseconds: Int64) -> String {
        String(ISO8601.format(Timestamp(millisecondsSince1970: milliseconds)).dropFirst(11))
    }

    /// A warning when the fixes' times step forward once, by a clock change (30 min to 2 h), onto a whole half hour and
    /// on at the file's cadence from the place where they left off: the start of daylight saving time in times written
    /// as local time without their offset (02:00 becomes 03:00). Read as UTC, such a file holds an hour of silence that
    /// did not happen: a recording gap in the duration, the unobserved time and the stops. The counterpart of
    /// ``clockChangeWarning(input:reader:)`` (the change's end, a step back); `nil` unless exactly one step has that
    /// shape.
    ///
    /// Only where the times can be local: not in formats whose times are UTC by definition (NMEA, GnssLogger's and
    /// IPIN's epoch clocks, GeoLife's), nor a CSV time column of Unix epoch numbers; and only a step from the hours a
    /// change is made in (23:00–03:59 as written) in the months it is made in (February to April, September to
    /// November). A reviewer's real pauses of a parked tracker, 09:59:59 → 11:00:00 in June, NMEA and epoch
    /// milliseconds among them, were told they were local times.
    func springForwardWarning(input: String, reader: AnyFixReader) -> String? {
        guard clockForwardSteps == 1, let step = firstClockForwardStep else { return nil }
        switch reader.format {
        case .nmea, .gnssLogger, .ipin, .geolife: return nil
        default: break
        }
        if let column = reader.csvTimeColumn, column.encoding != .iso8601, column.encoding != .automatic {
            return nil
        }
        let written = Timestamp(millisecondsSince1970: step.from).civil
        guard [23, 0, 1, 2, 3].contains(written.hour), [2, 3, 4, 9, 10, 11].contains(written.month) else { return nil }
        let by = Self.clockChange(minutes: step.change / 60_000)
        return "warning: the times of \(input) step forward once, by \(by) (fix \(step.fix) in read order, "
            + "\(Self.timeOfDay(step.from)) then \(Self.timeOfDay(step.to)), \(Self.howTimesWereRead(reader))), and go on every "
            + "\(Self.duration(Double(step.cadence) / 1000)) from where the fixes left off: a clock change (daylight "
            + "saving time's start) in times written as local time without their UTC offset? The \(by) between reads "
            + "as a recording gap (in the duration, the unobserved time and the stops): \(Self.zoneAdvice(reader)), or "
            + "export the times in UTC or with their UTC offset (each time with the "
            + "offset of its own hour). Times that state their offset (Z, "
            + "+01:00) may have a pause that ends on the hour instead\n"
    }

    /// A warning when the fixes' times step back once, by a whole number of hours (or of half or three-quarter
    /// hours past one: 30 min to 14 h, as time zones and daylight saving differ), and go on at the file's cadence
    /// after it: a clock change in times written as local time without their offset (a tester's GPX across the
    /// autumn change in Berlin: 300 of 600 fixes rejected as out of order, told "counts next to nothing" and to
    /// sort the file, which interleaved the two hours). The step back plus the cadence before it must be the change
    /// to within half the cadence (at least 1 s), the step after it the cadence to within as much. `nil` otherwise,
    /// and when no fix was rejected as out of order.
    func clockChangeWarning(input: String, reader: AnyFixReader) -> String? {
        guard outOfOrder > 0, let question = clockChangeQuestion(input: input, reader: reader) else { return nil }
        let percent = Terminal.percent(outOfOrder, of: read)
        return question + " \(outOfOrder) of \(read) fixes (\(percent) %) fell before the last accepted one and were "
            + "rejected as out of order; the distance, duration and stops leave them out. Sorting by time would "
            + "interleave the two stretches: \(Self.zoneAdvice(reader)), or export "
            + "the times in UTC or with their UTC offset (2024-10-27T02:30:00+01:00: each time with the offset of its "
            + "own hour). Times that state their offset "
            + "(Z, +01:00) step back by a clock fault instead\n"
    }
}

extension RunDiagnostics {
    /// The one step back of the times read, when it is shaped like a clock change (the file's cadence on both sides,
    /// by whole quarter hours from 30 minutes to 14 hours, onto a whole or half hour's offset, and the fix after it
    /// where one more step of the cadence takes the device, as ``springForwardWarning(input:reader:)`` asks of a step
    /// forward), with the change (ms); `nil` otherwise. ``clockChangeWarning(input:reader:)`` and
    /// ``clockChangeNote(input:reader:)`` say it, and `process --smooth` leaves out the fixes it made out of order.
    /// Why the place: a block delivered late, or two exports joined in the wrong order, steps back at the cadence
    /// too (a reviewer's ride 10:45–11:30 then 10:00–10:30, every 10 s), but its first fix lies where the block
    /// began, 2.7 km from the fix before; told a clock change, `--smooth` left out its 2,506 m.
    var clockChangeBack: (back: BackwardStep, change: Int64)? {
        guard backwardSteps == 1, let back = firstBackwardStep, back.cadenceBefore > 0 else { return nil }
        let cadence = back.cadenceBefore
        let tolerance = max(1000, cadence / 2)
        let shift = back.from - back.to + cadence
        let change = Int64((Double(shift) / 900_000).rounded()) * 900_000
        guard abs(shift - change) <= tolerance, abs(back.stepAfter - cadence) <= tolerance,
            change >= 1_800_000, change <= 14 * 3_600_000, [0, 1_800_000, 2_700_000].contains(change % 3_600_000),
            back.across <= max(50, 5 * back.before)
        else { return nil }
        return (back, change)
    }

    /// What `info` says of a step back shaped like a clock change (``clockChangeBack``): the same question as
    /// ``clockChangeWarning(input:reader:)``, without the tracker's count (`info` runs none), and what the commands
    /// that run it do with such fixes. Why: `info` said "1 backward steps" of a local-time export across the autumn
    /// change, where `process` named it (left from the session of 2026-11-29).
    func clockChangeNote(input: String, reader: AnyFixReader) -> String? {
        guard let question = clockChangeQuestion(input: input, reader: reader) else { return nil }
        return question + " process, stops and buffer add reject the fixes that fall before the last accepted one "
            + "as out of order; \(Self.zoneAdvice(reader)), or export the times in "
            + "UTC or with their UTC offset\n"
    }

    /// The question both ``clockChangeWarning(input:reader:)`` and ``clockChangeNote(input:reader:)`` ask of the step
    /// back (``clockChangeBack``): where it is, by how much, and the cadence on; `nil` when there is no such step.
    private func clockChangeQuestion(input: String, reader: AnyFixReader) -> String? {
        guard let (back, change) = clockChangeBack else { return nil }
        return "warning: the times of \(input) step back once, by \(Self.clockChange(minutes: change / 60_000)) (fix "
            + "\(back.fix) in read order, \(Self.timeOfDay(back.from)) then \(Self.timeOfDay(back.to)), "
            + "\(Self.howTimesWereRead(reader))), "
            + "and go on every \(Self.duration(Double(back.cadenceBefore) / 1000)): a clock change (daylight saving "
            + "time's end, or another time zone) in times written as local time without their UTC offset?"
    }
}

extension Tracker {
    /// What the tracker says of the speed readings now, for ``RunDiagnostics``. Always inlined: an out-of-line
    /// getter takes the tracker by value, a copy of its whole state per call.
    @inline(__always)
    var overrules: RunDiagnostics.Overrules {
        RunDiagnostics.Overrules(
            isOverruling: overruledSpeedReadingsSince != nil, isProvisional: isOverrulingProvisionally,
            withdrawn: withdrawnOverrules)
    }
}
