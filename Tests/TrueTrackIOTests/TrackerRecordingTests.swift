import Foundation
import Testing
import TrueTrackCore
import TrueTrackIO

/// The ``Tracker`` on the shared recordings, against the issue's bars (issue 3, "Measured on the real
/// recordings"). `--filter TrackerRecordingTests/printTable` prints the raw vs TrueTrack table.
@Suite(.enabled(if: Datasets.available, Datasets.missingReason))
struct TrackerRecordingTests {
    typealias E = TrackerEvaluation

    @Test func printTable() throws {
        print(try E.table())
    }

    @Test func ipinReferencesAreTheSurveyedPolylines() throws {
        // The manifest's reference distances, from the POSI waypoints.
        let expected = [101.5, 101.5, 96.1, 96.1, 64.6, 141.9, 141.9]
        for (w, metres) in zip(E.ipinWalks, expected) {
            #expect(abs(try E.ipinReference(w.file) - metres) < 0.1, "\(w.id)")
        }
    }

    @Test func stationaryLogsAccrueAtMostOneMetrePerTenMinutes() throws {
        for (id, fixes) in try E.stationary() {
            let o = E.run(fixes, profile: .walking)
            let per10 = o.distance * 600 / max(o.durationSeconds, 1)
            #expect(per10 <= 1, "\(id): \(per10) m per 10 min")
            #expect(o.raw > 1, "\(id): the raw sum must show the phantom distance being removed")
        }
    }

    @Test func gsdcDrivesWithinPointTwoPercentOfTruthWithP95BetterThanRaw() throws {
        for d in E.drives {
            let o = E.run(try E.drive(d.file), profile: .driving)
            #expect(abs(o.distance - d.reference) / d.reference < 0.002, "\(d.id): \(o.distance) m")
            #expect(o.decisions.allSatisfy { $0.state.map { $0.latitude.isFinite && $0.longitude.isFinite } ?? true })
            let (raw, filtered) = E.drivePositionErrors(o, truth: try E.spanTruth(d.truth))
            #expect(raw.count > 1500 && filtered.count > 1500)
            let (r50, r95) = (E.percentile(raw, 0.5), E.percentile(raw, 0.95))
            let (f50, f95) = (E.percentile(filtered, 0.5), E.percentile(filtered, 0.95))
            // Unmet at p50 only (Pixel 4 0.83 vs 0.80 m, 4 XL 1.82 vs 1.81 m); p95 is better than raw on both.
            // The chipset's fixes are already filtered (time-correlated error): a causal filter cannot average
            // that error away, it can only add lag.
            // Regression guards on today's figures (these must hold), then the issue's bar (known unmet).
            #expect(f95 <= r95, "\(d.id): p95 \(f95) m vs raw \(r95) m")
            #expect(f50 <= r50 + 0.04, "\(d.id): p50 \(f50) m vs raw \(r50) m")
            withKnownIssue("filtered p50 slightly worse than raw on the GSDC drives (0.83 vs 0.80, 1.82 vs 1.81)") {
                #expect(f50 <= r50, "\(d.id): p50 \(f50) m vs raw \(r50) m")
            }
        }
    }

    @Test func walksStayWithinTheirBarsOrTodaysFigures() throws {
        var groundErrors: [Double] = []
        for w in E.ipinWalks {
            let reference = try E.ipinReference(w.file)
            let o = E.run(try E.ipin(w.file), profile: .walking)
            let error = abs(o.distance - reference) / reference
            var previous = 0.0
            for d in o.decisions {
                #expect(d.totalDistanceMetres >= previous)
                previous = d.totalDistanceMetres
            }
            if w.ground { groundErrors.append(error) }
            if w.ground {
                // Today −19.9, −9.8, −7.8, −18.0 %: each within the issue's 20 % (t01r03 read −22.0 % until the
                // trailing window kept a sample from before its span across t01r03's 17 s gap). The Samsung
                // positions themselves cover only 74-96 % of the walk (tools/analysis/ipin_walk_window.py).
                #expect(error <= 0.20, "\(w.id): \(o.distance) m vs \(reference) m")
            } else {
                #expect(error <= 0.35, "\(w.id): \(o.distance) m vs \(reference) m")
            }
        }
        // Median 13.9 % today (bar 10 %): the guard on today's figure, then the issue's bar (known unmet).
        #expect(E.percentile(groundErrors, 0.5) <= 0.15, "ground-level median \(groundErrors)")
        withKnownIssue("median ground-level error above 10 %") {
            #expect(E.percentile(groundErrors, 0.5) <= 0.10, "ground-level median \(groundErrors)")
        }
    }

    @Test func geolifeWalkingProfileCountsOnlyTheWalk() throws {
        let o = E.run(try E.geolife(), profile: .walking)
        #expect(o.raw > 9000)
        // Where the distance accrues, by the labels (labels.txt: walk 06:09:26-06:28:25, taxi 06:30:57-06:34:20,
        // bus 11:24:21-11:50:45 UTC): the total alone hid that the previous tracker counted 28 m of the walk
        // and 560 m of taxi and bus for about the same total.
        func accrued(_ from: String, _ to: String) throws -> Double {
            let start = try #require(ISO8601.parse(from)), end = try #require(ISO8601.parse(to))
            return o.decisions.filter { $0.timestamp >= start && $0.timestamp < end }
                .reduce(0) { $0 + $1.distanceIncrementMetres }
        }
        let walk = try accrued("2008-04-02T06:09:26Z", "2008-04-02T06:28:26Z")
        let taxi = try accrued("2008-04-02T06:30:57Z", "2008-04-02T06:34:21Z")
        let bus = try accrued("2008-04-02T11:24:21Z", "2008-04-02T11:50:46Z")
        // Today: walk 669 m (-11 %: gaps of 19-40 s inside the walk lose their chords to the 10 s dt clamp),
        // taxi 0-14 m (its first seconds), bus 0 m. The issue's bar on the total, and on where it accrues.
        #expect(walk >= 0.75 * E.geolifeWalkMetres, "walk \(walk) m")
        #expect(taxi + bus <= 0.05 * E.geolifeWalkMetres, "taxi \(taxi) m, bus \(bus) m")
        #expect(abs(o.distance - E.geolifeWalkMetres) / E.geolifeWalkMetres <= 0.20, "\(o.distance) m")
    }
}
