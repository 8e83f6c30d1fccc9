import Foundation

/// Renders a ``BenchReport`` as text tables: aligned columns for a terminal, or GitHub Markdown.
public enum BenchTables {
    /// The output style.
    public enum Style: Sendable {
        /// Space-aligned columns.
        case terminal
        /// GitHub-flavoured Markdown tables.
        case markdown
    }

    /// Every section of the report.
    public static func render(_ report: BenchReport, style: Style) -> String {
        var out = ""
        func section(_ title: String, _ rows: [[String]], _ header: [String]) {
            guard !rows.isEmpty else { return }
            out += style == .markdown ? "### \(title)\n\n" : "\(title)\n"
            out += table([header] + rows, style: style) + "\n"
        }
        let ok = report.recordings.filter { $0.status == .ok }

        section(
            "Distance vs reference (error %, signed; m = TrueTrack's error in metres)",
            ok.filter { ($0.referenceDistanceMetres ?? 0) > 0 }.map { r in
                [
                    r.id, r.category, r.profile.rawValue,
                    metres(r.referenceDistanceMetres) + (r.referenceSource == "truth" ? "*" : ""),
                    metres(r.trueTrack?.metres), percent(r.trueTrack?.errorPercent), metres(r.trueTrack?.errorMetres),
                    percent(r.naive?.errorPercent), percent(r.doppler?.errorPercent),
                ]
            }, ["recording", "cat", "profile", "ref m", "TrueTrack m", "TrueTrack", "err m", "naive", "Doppler"])

        section(
            "Distance without a reference (m; the baseline watches TrueTrack's as unreferencedDistanceMetres, either "
                + "way)",
            ok.compactMap { r in
                guard let distance = r.baselineFigures[.unreferencedDistanceMetres] else { return nil }
                return [
                    r.id, r.category, r.profile.rawValue, metres(distance), metres(r.naive?.metres),
                    metres(r.doppler?.metres),
                ]
            }, ["recording", "cat", "profile", "TrueTrack m", "naive m", "Doppler m"])

        /// The model term, in parentheses where the distance does not include it.
        func modelTerm(_ s: SmootherFigures) -> String {
            let term = signedMetres(s.distanceModelDifferenceMetres)
            let included = s.distanceModelDifferenceIncludedMetres ?? s.distanceModelDifferenceMetres
            return included == 0 && s.distanceModelDifferenceMetres != 0 ? "(" + term + ")" : term
        }
        func p50p95(_ p: PositionErrorSummary?) -> String {
            p.map { fixed($0.p50Metres, 2) + " / " + fixed($0.p95Metres, 2) } ?? "–"
        }
        section(
            "Forward filter vs whole-track smoother (`process --smooth`): distance error % (signed), the smoother's "
                + "1σ, its model term (the length change with the fixes' accuracy scaled by white ×, their "
                + "epoch-to-epoch scatter; in parentheses where the trusted speed readings denied that track: the "
                + "distance is then the reported track's, σ counting its disagreement with them) and z = error / σ; "
                + "position p50 / p95 (m)",
            ok.compactMap { r in
                r.smoother.map { s in
                    [
                        r.id, metres(r.referenceDistanceMetres), percent(r.trueTrack?.errorPercent),
                        percent(s.distance.errorPercent), metres(s.distanceSigmaMetres),
                        fixed(s.whiteAccuracyScale, 3), modelTerm(s),
                        fixed(s.distanceZScore, 2),
                        s.isReferenceWithinTwoSigma.map { $0 ? "yes" : "no" } ?? "–", p50p95(r.position),
                        p50p95(s.position), p50p95(r.rawPosition),
                    ]
                }
            },
            [
                "recording", "ref m", "forward", "smoother", "σ m", "white ×", "model m", "z", "±2σ",
                "forward p50 / p95", "smoother p50 / p95", "raw p50 / p95",
            ])
        let calibrated = ok.filter { ($0.referenceDistanceMetres ?? 0) > 0 }.compactMap {
            $0.smoother?.isReferenceWithinTwoSigma
        }
        if !calibrated.isEmpty {
            let line =
                "Smoother distance within ±2σ of a positive reference: \(calibrated.filter { $0 }.count) of "
                + "\(calibrated.count) recordings."
            out += (style == .markdown ? line : "  " + line) + "\n"
            let stationary = ok.filter { $0.referenceDistanceMetres == 0 }.compactMap {
                $0.smoother?.isReferenceWithinTwoSigma
            }
            let stillInside = stationary.filter { $0 }.count
            let still = "Within ±2σ of a zero reference (stationary): \(stillInside) of \(stationary.count) recordings."
            out += (style == .markdown ? "\n" + still : "  " + still) + "\n\n"
        }
        section(
            "Noise estimated from each recording (EM, `--estimate-noise`): accuracy scale, Doppler scale, σₐ m/s² "
                + "(! = a factor on its safety rail), and the smoother's figures with them",
            ok.compactMap { r in
                r.smootherWithEstimatedNoise.map { s in
                    [
                        r.id, s.noiseEstimated ? "\(s.estimationRounds)" : "not estimated",
                        fixed(s.accuracyScale, 3) + (s.noiseLimited ? "!" : ""), fixed(s.dopplerScale, 3),
                        fixed(s.accelerationSigma, 2), percent(s.distance.errorPercent), fixed(s.distanceZScore, 2),
                        p50p95(s.position),
                    ]
                }
            },
            ["recording", "rounds", "accuracy ×", "Doppler ×", "σₐ", "distance", "z", "p50 / p95"])

        section(
            "Stationary: phantom metres per 10 minutes (reference 0)",
            ok.compactMap { r in
                r.phantomMetresPer10Minutes.map { p in
                    [
                        r.id, r.profile.rawValue, fixed(r.durationSeconds, 0) + " s", fixed(p.trueTrack, 2),
                        fixed(p.naive, 2), fixed(p.doppler, 2),
                    ]
                }
            }, ["recording", "profile", "duration", "TrueTrack", "naive", "Doppler"])

        // A recording whose truth file is damaged keeps its row, marked, even when nothing could be measured.
        section(
            "Position error vs truth, p50 / p95 (m); score = GSDC (p50 + p95) / 2",
            ok.compactMap { r in
                let faulty = r.truth?.isFaulty == true
                guard r.position != nil || faulty && (r.truthKind == .trajectory || r.truthKind == .waypoints)
                else { return nil }
                return [
                    r.id, r.truthKind.rawValue + (faulty ? r.truth.map { " (\($0.status.rawValue))" } ?? "" : ""),
                    "\(r.position?.count ?? 0)", p50p95(r.position), fixed(r.position?.gsdcScoreMetres, 2),
                    p50p95(r.rawPosition), fixed(r.rawPosition?.gsdcScoreMetres, 2),
                ]
            }, ["recording", "truth", "n", "TrueTrack p50 / p95", "score", "raw p50 / p95", "raw score"])

        section(
            "Stops vs truth"
                + (report.stopDetectorAvailable ? "" : " (no stop detector wired in yet: truth stops listed)"),
            ok.compactMap { r in
                r.stops.map { s in
                    [
                        r.id, "\(s.truthStops.count)",
                        s.truthStops.map { fixed($0.durationSeconds, 0) + " s" }.joined(separator: ", "),
                        s.score.map { "\($0.detectedCount)" } ?? "–",
                        fixed(s.score?.precision, 2), fixed(s.score?.timePrecision, 2), fixed(s.score?.recall, 2),
                        fixed(s.score?.medianStartErrorSeconds, 1), fixed(s.score?.medianEndErrorSeconds, 1),
                    ]
                }
            },
            [
                "recording", "truth", "truth durations", "detected", "precision", "time precision", "recall",
                "start err s", "end err s",
            ])

        section(
            "Rejections by reason",
            ok.map { r in
                [
                    r.id, "\(r.fixes)", "\(r.acceptedFixes)",
                    r.rejections.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "),
                ]
            }, ["recording", "fixes", "accepted", "rejected"])

        section(
            "By category (median / max over recordings; stops: mean recall / precision / time precision)",
            report.categories.filter { $0.recordings > 0 }.map { c in
                [
                    c.category, "\(c.recordings)",
                    pair(c.medianAbsErrorPercent?.trueTrack, c.maxAbsErrorPercent?.trueTrack),
                    pair(c.medianAbsErrorPercent?.naive, c.maxAbsErrorPercent?.naive),
                    pair(c.medianAbsErrorPercent?.doppler, c.maxAbsErrorPercent?.doppler),
                    pair(c.medianPhantomMetresPer10Minutes?.trueTrack, c.maxPhantomMetresPer10Minutes?.trueTrack),
                    pair(c.medianPhantomMetresPer10Minutes?.naive, c.maxPhantomMetresPer10Minutes?.naive),
                    fixed(c.medianPositionP50Metres, 2) + " / " + fixed(c.maxPositionP95Metres, 2),
                    c.meanStopRecall == nil
                        ? "–" : pair(c.meanStopRecall, c.meanStopPrecision) + " / " + fixed(c.meanStopTimePrecision, 2),
                ]
            },
            [
                "category", "n", "|err %| TrueTrack", "|err %| naive", "|err %| Doppler", "phantom TrueTrack",
                "phantom naive", "p50 med / p95 max", "stops recall / precision / time precision",
            ])

        section(
            "Damaged records stepped over while reading (the figures cover the rest)",
            ok.filter { $0.readErrors > 0 }.map { r in
                [r.id, "\(r.readErrors)", r.firstReadError ?? "–"]
            }, ["recording", "records", "first"])
        section(
            "Unreadable fields read as missing (their fixes kept and counted)",
            ok.filter { $0.fieldsReadAsMissing > 0 }.map { r in
                [r.id, "\(r.fieldsReadAsMissing)", r.firstFieldReadAsMissing ?? "–"]
            }, ["recording", "fields", "first"])

        // Truth files that were damaged, empty or of a kind the bench does not read: one line per distinct
        // story (three recordings sharing a README say it once).
        var truthLines: [(ids: [String], text: String)] = []
        for r in ok {
            guard let text = r.truth?.summary else { continue }
            if let i = truthLines.firstIndex(where: { $0.text == text }) {
                truthLines[i].ids.append(r.id)
            } else {
                truthLines.append(([r.id], text))
            }
        }
        if !truthLines.isEmpty {
            out +=
                style == .markdown ? "### Ground truth not used or damaged\n\n" : "Ground truth not used or damaged\n"
            for line in truthLines {
                out += (style == .markdown ? "- " : "  ") + "\(line.ids.joined(separator: ", ")): \(line.text)\n"
            }
            out += "\n"
        }

        let skipped = report.recordings.filter { $0.status != .ok }
        if !skipped.isEmpty {
            out += style == .markdown ? "### Not evaluated\n\n" : "Not evaluated\n"
            for r in skipped {
                out += (style == .markdown ? "- " : "  ") + "\(r.id): \(r.status.rawValue): \(r.note ?? "")\n"
            }
            out += "\n"
        }
        return out
    }

    /// Aligns rows into a table (the first row is the header).
    public static func table(_ rows: [[String]], style: Style) -> String {
        guard let header = rows.first else { return "" }
        switch style {
        case .markdown:
            func line(_ row: [String]) -> String {
                "| " + row.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
            var text = line(header)
            text += "|" + header.map { _ in "---|" }.joined() + "\n"
            for row in rows.dropFirst() { text += line(row) }
            return text
        case .terminal:
            let widths = header.indices.map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
            var text = ""
            for row in rows {
                text +=
                    "  "
                    + row.enumerated().map { c, cell in
                        cell + String(repeating: " ", count: max(0, widths[c] - cell.count))
                    }.joined(separator: "  ").trimmingCharacters(in: .whitespaces) + "\n"
            }
            return text
        }
    }

    static func fixed(_ value: Double?, _ digits: Int) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: "%.\(digits)f", value)
    }

    static func metres(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: abs(value) >= 1000 ? "%.0f" : "%.1f", value)
    }

    static func signedMetres(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: abs(value) >= 1000 ? "%+.0f" : "%+.1f", value)
    }

    static func percent(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        return String(format: abs(value) < 1 ? "%+.3f" : "%+.1f", value)
    }

    static func pair(_ a: Double?, _ b: Double?) -> String {
        guard a != nil || b != nil else { return "–" }
        return fixed(a, 2) + " / " + fixed(b, 2)
    }
}
