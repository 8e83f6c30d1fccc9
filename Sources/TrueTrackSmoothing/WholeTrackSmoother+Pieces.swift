import TrueTrackCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A track that does not fit one ``LocalFrame`` (``TrackProblem/fitsLocalFrame``): smoothed in pieces, each in
/// the ``LocalFrame`` at its first fix, or within 10° of a pole in the ``TangentPlane`` there.
extension WholeTrackSmoother {
    /// How a piece is cut and posed: in the ``LocalFrame`` at its first fix, cut where a fix leaves what
    /// ``TrackProblem/fitsLocalFrame`` accepts (as cheap as one track), or, for a piece starting within
    /// ``tangentPlaneLatitude`` of a pole (where that frame holds a few kilometres at most), in the
    /// ``TangentPlane`` there, cut 50 km (straight line through the Earth) from it.
    struct Piece {
        /// The piece's fixes, as indices into the track's, in time order.
        var fixes: [Int]
        var isTangent: Bool
        /// The distinct times of the fixes the problem uses: the piece's states (a time is never split between
        /// pieces, so the pieces' states add up to the track's).
        var stateCount: Int
        /// Whether the piece opens at a relocation (``TrackProblem/findRelocations(maximumSpeedMetresPerSecond:)``):
        /// the seam into it counts nothing.
        var followsRelocation = false
    }

    /// The |latitude| (degrees) from which a piece is posed in a ``TangentPlane``: 80°. There a ``LocalFrame``'s
    /// east scale is right to 1 % for 11 km north or south; at 88°, 2 km; at 89.98°, 22 m.
    static let tangentPlaneLatitude = 80.0

    /// The pieces of `fixes` (see ``Piece``): a piece ends before the first fix (with a new time) the problem would
    /// use that its plane does not hold, which opens the next. Fixes the problem leaves out go with the piece they
    /// fall in; fixes that share a time stay in one piece.
    func pieces(of fixes: [Fix]) -> [Piece] {
        let order =
            fixes.isInTimeOrder(by: \.timestamp) ? Array(fixes.indices) : fixes.indicesInTimeOrder(by: \.timestamp)
        let radius = TrackProblem.pieceRadiusMetres
        let degrees = Double.pi / 180
        var pieces: [Piece] = []
        var current: [Int] = []
        var currentStates = 0
        var local: (frame: LocalFrame, cosine: Double)?
        var tangent: TangentPlane?
        var lastTime = Timestamp?.none
        func open(at fix: Fix) {
            if abs(fix.latitude) >= Self.tangentPlaneLatitude {
                tangent = TangentPlane(anchor: (fix.latitude, fix.longitude))
                local = nil
            } else {
                let frame = LocalFrame(anchor: (fix.latitude, fix.longitude))
                local = (frame, cos(frame.anchorLatitude * degrees))
                tangent = nil
            }
        }
        // Whether the current piece's plane holds a fix (``TrackProblem/localFrame(_:anchorCosine:holdsEast:north:atLatitude:)``).
        func holds(_ fix: Fix) -> Bool {
            if let tangent {
                return tangent.chordSquaredMetres(latitude: fix.latitude, longitude: fix.longitude) <= radius * radius
            }
            guard let (frame, cosine) = local else { return false }
            let p = frame.projectEquirectangular(latitude: fix.latitude, longitude: fix.longitude)  // (never polar)
            return TrackProblem.localFrame(
                frame, anchorCosine: cosine, holdsEast: p.east, north: p.north, atLatitude: fix.latitude)
        }
        for index in order {
            let fix = fixes[index]
            if TrackProblem.accuracy(of: fix, options: options) != nil {
                if local == nil && tangent == nil {
                    open(at: fix)
                } else if fix.timestamp != lastTime, !holds(fix) {
                    pieces.append(Piece(fixes: current, isTangent: tangent != nil, stateCount: currentStates))
                    current = []
                    currentStates = 0
                    open(at: fix)
                }
                if fix.timestamp != lastTime { currentStates += 1 }
                lastTime = fix.timestamp
            }
            current.append(index)
        }
        if !current.isEmpty {
            pieces.append(Piece(fixes: current, isTangent: tangent != nil, stateCount: currentStates))
        }
        return pieces
    }

    /// `pieces` with each piece that a relocation lands inside (`relocations`: the times of the first fixes after
    /// relocations, ascending) cut before that relocation's time, the piece after it marked
    /// ``Piece/followsRelocation``. (Cut here, not while ``pieces(of:)`` cuts: there the check cost every fix.)
    func pieces(_ pieces: [Piece], cutAt relocations: [Timestamp], of fixes: [Fix]) -> [Piece] {
        guard !relocations.isEmpty else { return pieces }
        var cut: [Piece] = []
        var next = 0
        for var piece in pieces {
            while next < relocations.count, let last = piece.fixes.last,
                relocations[next] <= fixes[last].timestamp
            {
                let time = relocations[next]
                next += 1
                guard let split = piece.fixes.firstIndex(where: { fixes[$0].timestamp >= time }) else { continue }
                guard split > 0 else {
                    // (The piece opens where the relocation lands: its plane's cut fell there too.)
                    piece.followsRelocation = true
                    continue
                }
                let before = Array(piece.fixes[..<split])
                // The states before the cut: the distinct times of the fixes the problem uses.
                var states = 0
                var lastTime = Timestamp?.none
                for index in before where TrackProblem.accuracy(of: fixes[index], options: options) != nil {
                    if fixes[index].timestamp != lastTime { states += 1 }
                    lastTime = fixes[index].timestamp
                }
                cut.append(
                    Piece(
                        fixes: before, isTangent: piece.isTangent, stateCount: states,
                        followsRelocation: piece.followsRelocation))
                piece = Piece(
                    fixes: Array(piece.fixes[split...]), isTangent: piece.isTangent,
                    stateCount: piece.stateCount - states, followsRelocation: true)
            }
            cut.append(piece)
        }
        return cut
    }

    /// Smooths each piece (``pieces(of:)``) in its own plane and joins the results.
    ///
    /// Between two pieces (a *seam*) the track is joined like across a gap without time: the straight line
    /// (geodesic) between the last smoothed position of one piece and the first of the next counts, with the
    /// two positions' σ as its own (a seam that lasts longer than ``SmoothingOptions/recordingBreakSeconds``
    /// counts nothing; one at rest, both ends slower than ``SmoothingOptions/stillSpeedMetresPerSecond``, counts
    /// as still length; one longer than ``SmoothingOptions/gapSeconds`` starts a segment and adds its
    /// travel-time allowance to the gap term, from the two ends' smoothed speeds). A seam at a relocation, or one
    /// the profile's ceiling does not reach (``isBeyondReach(from:to:)``), counts nothing and starts a segment, as
    /// the forward filter's re-anchoring; a piece such a seam opens and another closes within
    /// ``WarmStart/maximumExcursionSeconds``, between pieces the ceiling joins, is left out with its fixes (an
    /// excursion far off: one fix 111 km off a walk counted 223 km). Each piece's ends are smoothed
    /// from one side only, as a track's ends are. The distance is the sum of the pieces' and the seams'; the
    /// terms of σ add as for one track (the noise term in quadrature, the others linearly), and σ is formed from
    /// them as ``solve(_:fixes:trackStates:)`` forms it. The noise estimate, course offset and white-part scale reported are
    /// those of the piece with the most points; the iteration count the largest.
    func smoothInPieces(_ fixes: [Fix]) -> SmoothedTrack {
        var result = SmoothedTrack.empty
        var noiseVariance = 0.0, sensitivity = 0.0, gapExcess = 0.0, modelDifference = 0.0
        var includedDifference = 0.0, deniedSigma = 0.0
        var lengthening = 0.0, curve = 0.0, modelCurve = 0.0, stillChord = 0.0
        var distance = 0.0
        var largest = -1
        let cuts = pieces(of: fixes)
        // The whole track's states (see ``solve(_:fixes:trackStates:)``).
        let stateCount = cuts.reduce(0) { $0 + $1.stateCount }
        /// The piece `cut` smoothed, or, where its steps relocate (``TrackProblem/findRelocations(maximumSpeedMetresPerSecond:)``),
        /// its parts cut there, each smoothed (a reviewer's 64 km ride with a 2.2 km relocation counted the jump).
        func smoothedParts(_ cut: Piece) -> [(SmoothedTrack, Piece)] {
            let subset = cut.fixes.map { fixes[$0] }
            var problem = TrackProblem(fixes: subset, options: options, tangentPlane: cut.isTangent)
            let found = problem.findRelocations(maximumSpeedMetresPerSecond: options.maximumSpeedMetresPerSecond)
            guard !found.isEmpty else { return [(solve(problem, fixes: subset, trackStates: stateCount), cut)] }
            return pieces([cut], cutAt: found.map { subset[$0].timestamp }, of: fixes).map { sub in
                let subFixes = sub.fixes.map { fixes[$0] }
                let part = solve(
                    TrackProblem(fixes: subFixes, options: options, tangentPlane: sub.isTangent), fixes: subFixes,
                    trackStates: stateCount)
                return (part, sub)
            }
        }
        /// Joins the smoothed piece `cut` to the result.
        func join(_ part: inout SmoothedTrack, _ cut: Piece) {
            let piece = cut.fixes
            let first = part.points[0]
            // The seam from the previous piece.
            var segmentOffset = result.segmentCount
            if let last = result.points.last {
                let seconds = last.timestamp.seconds(to: first.timestamp)
                // A seam no allowed speed explains is a relocation (the forward filter's re-anchoring): it counts
                // nothing and opens a segment.
                let relocates = cut.followsRelocation || isRelocation(from: last, to: first)
                let opens = relocates || seconds > options.gapSeconds
                if !opens { segmentOffset -= 1 }
                if seconds <= options.recordingBreakSeconds, !relocates {
                    let chord = Geodesic.wgs84.distance(
                        from: (last.latitude, last.longitude), to: (first.latitude, first.longitude))
                    if max(last.speedMetresPerSecond, first.speedMetresPerSecond)
                        < options.stillSpeedMetresPerSecond
                    {
                        result.stillLengthMetres += chord
                    } else {
                        distance += chord
                        noiseVariance +=
                            last.positionSigmaMetres * last.positionSigmaMetres
                            + first.positionSigmaMetres * first.positionSigmaMetres
                        if opens {
                            gapExcess += max(
                                0, seconds * (last.speedMetresPerSecond + first.speedMetresPerSecond) / 2 - chord)
                        }
                    }
                }
            }
            for k in part.points.indices {
                part.points[k].fixIndex = piece[part.points[k].fixIndex]
                part.points[k].segment += segmentOffset
            }
            result.segmentCount = segmentOffset + part.segmentCount
            if part.points.count > largest {
                largest = part.points.count
                result.noise = part.noise
                result.courseOffsetDegrees = part.courseOffsetDegrees
                result.whiteAccuracyScale = part.whiteAccuracyScale
                result.speedReadingsCheck = part.speedReadingsCheck
            }
            result.points += part.points
            result.iterations = max(result.iterations, part.iterations)
            if part.solver == .rauchTungStriebel { result.solver = .rauchTungStriebel }
            distance += part.distanceMetres
            noiseVariance += part.distanceNoiseSigmaMetres * part.distanceNoiseSigmaMetres
            sensitivity += part.distanceProcessSensitivityMetres
            gapExcess += part.distanceGapExcessMetres
            modelDifference += part.distanceModelDifferenceMetres
            // Term 4 as σ counts it: the pieces' differences added with their signs, as always, but a piece whose
            // difference the trusted readings denied adds its own term (its disagreement with them) instead.
            if part.speedReadingsCheck?.deniesWhitePart == true {
                deniedSigma += part.distanceModelSigmaMetres
            } else {
                includedDifference += part.distanceModelDifferenceMetres
            }
            lengthening += part.distanceNoiseLengtheningMetres
            modelCurve += part.distanceModelCurveMetres
            curve += part.curveExcessMetres
            stillChord += part.stillChordMetres
            result.stillLengthMetres += part.stillLengthMetres
            result.distanceModelDifferenceIncludedMetres += part.distanceModelDifferenceIncludedMetres
            result.vehicleLengthMetres += part.vehicleLengthMetres
        }
        // Each piece is joined once the next is smoothed: a piece that a seam no allowed speed explains opens, and
        // another closes within ``WarmStart/maximumExcursionSeconds``, between two the ceiling joins, is an
        // excursion (a multipath fix hundreds of kilometres off), left out with its fixes: joined, a tester's one
        // fix 111 km off a 600 m walk counted 223 km.
        // (The held piece is joined in place: joined as a copy, its points were copied, +75 instructions per fix in
        // the `smooth` benchmark.)
        var held = SmoothedTrack.empty
        var heldCut: Piece?
        for (part, cut) in cuts.lazy.flatMap(smoothedParts) {
            result.excludedFixCount += part.excludedFixCount
            guard let first = part.points.first else { continue }
            if let previousCut = heldCut {
                if let before = result.points.last, let out = held.points.first, let back = held.points.last,
                    !previousCut.followsRelocation, !cut.followsRelocation,
                    out.timestamp.seconds(to: back.timestamp) <= WarmStart.maximumExcursionSeconds,
                    isRelocation(from: before, to: out), isRelocation(from: back, to: first),
                    !isBeyondReach(from: before, to: first)
                {
                    result.excludedFixCount += previousCut.fixes.count - held.excludedFixCount
                } else {
                    join(&held, previousCut)
                }
            }
            held = part
            heldCut = cut
        }
        if let lastCut = heldCut { join(&held, lastCut) }
        result.distanceMetres = distance
        result.setDistanceTerms(
            noiseSigma: noiseVariance.squareRoot(), processSensitivity: sensitivity, gapExcess: gapExcess,
            modelDifference: modelDifference, modelSigma: abs(includedDifference) + deniedSigma, stillChord: stillChord,
            lengthening: lengthening,
            curve: curve,
            modelCurve: modelCurve)
        return result
    }

    /// Whether a seam from the smoothed point `a` to the later `b` is a relocation: beyond the ceiling's reach
    /// (``isBeyondReach(from:to:)``) between ends that move within half the ceiling. (A train at 40 m/s under the
    /// cycling profile, cut into 50 km pieces, lost its seams' 800 m: a reviewer's.)
    func isRelocation(from a: SmoothedPoint, to b: SmoothedPoint) -> Bool {
        let half = options.maximumSpeedMetresPerSecond / 2
        return a.speedMetresPerSecond <= half && b.speedMetresPerSecond <= half && isBeyondReach(from: a, to: b)
    }

    /// Whether the smoothed point `b` lies beyond what the profile's ceiling reaches from the earlier `a` by more
    /// than ``WarmStart/excursionSigmas`` of their noise (at least ``WarmStart/minimumImpossibleExcessMetres``), the
    /// bound of ``WarmStart/markImpossibleExcursions(_:maximumSpeedMetresPerSecond:weights:)``.
    func isBeyondReach(from a: SmoothedPoint, to b: SmoothedPoint) -> Bool {
        let ceiling = options.maximumSpeedMetresPerSecond
        guard ceiling.isFinite, ceiling > 0 else { return false }
        let chord = Geodesic.wgs84.distance(from: (a.latitude, a.longitude), to: (b.latitude, b.longitude))
        return TrackProblem.isBeyondReach(
            squared: chord * chord, seconds: a.timestamp.seconds(to: b.timestamp),
            variances: a.positionSigmaMetres * a.positionSigmaMetres + b.positionSigmaMetres * b.positionSigmaMetres,
            ceiling: ceiling)
    }
}
