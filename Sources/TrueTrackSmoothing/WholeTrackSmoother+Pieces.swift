import TrueTrackCore

/// A track that does not fit one ``LocalFrame`` (``TrackProblem/fitsLocalFrame``): smoothed in pieces, each in
/// the ``TangentPlane`` at its first fix.
extension WholeTrackSmoother {
    /// The fixes of each piece, as indices into `fixes`, in time order: a piece ends before the first fix (with a
    /// new time) the problem would use that lies more than ``TrackProblem/pieceRadiusMetres`` (straight line
    /// through the Earth) from the piece's first used fix, which opens the next. Fixes the problem leaves out go
    /// with the piece they fall in; fixes that share a time stay in one piece.
    func pieces(of fixes: [Fix]) -> [[Int]] {
        let order =
            fixes.isInTimeOrder(by: \.timestamp) ? Array(fixes.indices) : fixes.indicesInTimeOrder(by: \.timestamp)
        let radius2 = TrackProblem.pieceRadiusMetres * TrackProblem.pieceRadiusMetres
        var pieces: [[Int]] = []
        var current: [Int] = []
        var anchor: TangentPlane?
        var lastTime = Timestamp?.none
        for index in order {
            let fix = fixes[index]
            if TrackProblem.accuracy(of: fix, options: options) != nil {
                if let plane = anchor {
                    if fix.timestamp != lastTime,
                        plane.chordSquaredMetres(latitude: fix.latitude, longitude: fix.longitude) > radius2
                    {
                        pieces.append(current)
                        current = []
                        anchor = TangentPlane(anchor: (fix.latitude, fix.longitude))
                    }
                } else {
                    anchor = TangentPlane(anchor: (fix.latitude, fix.longitude))
                }
                lastTime = fix.timestamp
            }
            current.append(index)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// Smooths each piece (``pieces(of:)``) in its own tangent plane and joins the results.
    ///
    /// Between two pieces (a *seam*) the track is joined like across a gap without time: the straight line
    /// (geodesic) between the last smoothed position of one piece and the first of the next counts, with the
    /// two positions' σ as its own (a seam that lasts longer than ``SmoothingOptions/recordingBreakSeconds``
    /// counts nothing; one at rest, both ends slower than ``SmoothingOptions/stillSpeedMetresPerSecond``, counts
    /// as still length; one longer than ``SmoothingOptions/gapSeconds`` starts a segment and adds its
    /// travel-time allowance to the gap term, from the two ends' smoothed speeds). Each piece's ends are smoothed
    /// from one side only, as a track's ends are. The distance is the sum of the pieces' and the seams'; the
    /// terms of σ add as for one track (the noise term in quadrature, the others linearly), and σ is formed from
    /// them as ``solve(_:fixes:)`` forms it. The noise estimate, course offset and white-part scale reported are
    /// those of the piece with the most points; the iteration count the largest.
    func smoothInPieces(_ fixes: [Fix]) -> SmoothedTrack {
        var result = SmoothedTrack.empty
        var noiseVariance = 0.0, sensitivity = 0.0, gapExcess = 0.0, modelDifference = 0.0
        var lengthening = 0.0, curve = 0.0, modelCurve = 0.0, stillChord = 0.0
        var distance = 0.0
        var largest = -1
        for piece in pieces(of: fixes) {
            let subset = piece.map { fixes[$0] }
            var part = solve(
                TrackProblem(fixes: subset, options: options, tangentPlane: true), fixes: subset)
            result.excludedFixCount += part.excludedFixCount
            guard let first = part.points.first else { continue }
            // The seam from the previous piece.
            var segmentOffset = result.segmentCount
            if let last = result.points.last {
                let seconds = last.timestamp.seconds(to: first.timestamp)
                let opens = seconds > options.gapSeconds
                if !opens { segmentOffset -= 1 }
                if seconds <= options.recordingBreakSeconds {
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
            }
            result.points += part.points
            result.iterations = max(result.iterations, part.iterations)
            if part.solver == .rauchTungStriebel { result.solver = .rauchTungStriebel }
            distance += part.distanceMetres
            noiseVariance += part.distanceNoiseSigmaMetres * part.distanceNoiseSigmaMetres
            sensitivity += part.distanceProcessSensitivityMetres
            gapExcess += part.distanceGapExcessMetres
            modelDifference += part.distanceModelDifferenceMetres
            lengthening += part.distanceNoiseLengtheningMetres
            modelCurve += part.distanceModelCurveMetres
            curve += part.curveExcessMetres
            stillChord += part.stillChordMetres
            result.stillLengthMetres += part.stillLengthMetres
            result.vehicleLengthMetres += part.vehicleLengthMetres
        }
        let processSigma = abs(sensitivity) * SmoothedTrack.processDensityLogSigma
        result.distanceMetres = distance
        result.distanceSigmaMetres =
            (noiseVariance + processSigma * processSigma + gapExcess * gapExcess + modelDifference * modelDifference
            + stillChord * stillChord + lengthening * lengthening + curve * curve + modelCurve * modelCurve)
            .squareRoot()
        result.distanceNoiseSigmaMetres = noiseVariance.squareRoot()
        result.distanceProcessSensitivityMetres = sensitivity
        result.distanceGapExcessMetres = gapExcess
        result.distanceModelDifferenceMetres = modelDifference
        result.distanceNoiseLengtheningMetres = lengthening
        result.distanceModelCurveMetres = modelCurve
        result.curveExcessMetres = curve
        result.stillChordMetres = stillChord
        return result
    }
}
