import Foundation
import Testing
import TrueTrackCore

@testable import TrueTrackStore

@Suite struct FixBufferTests {
    /// `buffer list` shows a row's state in words (it showed the enum's debug text, `inFlight(batchID: 2)`).
    @Test("describes a row's sync state in words")
    func syncStateInWords() {
        #expect(SyncState.pending.description == "pending")
        #expect(SyncState.inFlight(batchID: 2).description == "in flight (batch 2)")
        #expect(SyncState.rejected(status: 422).description == "rejected (422)")
        #expect(SyncState.damaged.description == "damaged")
    }

    @Test func roundTripsEveryFieldAndTheDecision() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fix = try Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_521_600_123), latitude: -33.856784,
            longitude: 151.215297, horizontalAccuracyMetres: 3.9, altitudeMetres: 12.25, verticalAccuracyMetres: 2,
            speedMetresPerSecond: 1.42, speedAccuracyMetresPerSecond: 0.3, courseDegrees: 271.5,
            courseAccuracyDegrees: 9, provider: .fused, satellitesUsed: 17, isMocked: false,
            activity: ActivityReading(kind: .walking, confidence: 88))
        var tracker = Tracker()
        let decision = tracker.process(fix)
        let receipt = try buffer.append(fix, decision: decision, sessionID: "walk-1")
        #expect(receipt.ids == 1...1)
        let invalid = try Fix(
            timestamp: Timestamp(millisecondsSince1970: 1_714_521_601_000), latitude: 0, longitude: 0,
            horizontalAccuracyMetres: -1)
        try buffer.append(invalid)

        let rows = try buffer.newest(limit: 10)
        #expect(rows.count == 2)
        #expect(rows[0].id == 2)
        #expect(rows[0].fix == invalid)
        #expect(rows[0].fix.horizontalAccuracy == .invalid)
        #expect(rows[0].decision == nil)
        #expect(rows[0].sessionID == nil)
        #expect(rows[1].fix == fix)
        #expect(rows[1].sessionID == "walk-1")
        #expect(rows[1].decision == StoredDecision(decision))
        #expect(rows[1].decision?.isAccepted == true)
        #expect(rows[1].syncState == .pending)
        #expect(try buffer.count() == 2)
    }

    /// Every field of a decision reads back, on decisions that exercise them: a walk (Doppler speed, increments
    /// that differ from the total, holds, a confident activity) and a duplicate rejected.
    @Test func roundTripsTheDecisionsOfAWalk() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        var tracker = Tracker()
        var expected: [StoredDecision] = []
        for i in 0..<40 {
            let fix = try Fix(
                timestamp: Timestamp(millisecondsSince1970: 1_714_521_600_000 + Int64(i) * 1000),
                latitude: 49 + Double(i) * 1.4 / 111_195, longitude: 11, horizontalAccuracyMetres: 4,
                speedMetresPerSecond: 1.4, courseDegrees: 0,
                activity: i >= 20 ? ActivityReading(kind: .walking, confidence: 90) : nil)
            for copy in i == 30 ? [fix, fix] : [fix] {
                let decision = tracker.process(copy)
                try buffer.append(copy, decision: decision)
                expected.append(StoredDecision(decision))
            }
        }
        let rows = try buffer.newest(limit: 100).reversed().map { $0.decision }
        #expect(rows == expected)
        #expect(expected.contains { $0.rejection == .duplicate })
        #expect(expected.contains { $0.motion == .moving && $0.speedSource == .doppler && $0.speedMetresPerSecond > 1 })
        #expect(
            expected.contains { $0.distanceIncrementMetres > 0 && $0.totalDistanceMetres > $0.distanceIncrementMetres })
        #expect(Set(expected.map(\.hold)).count >= 3)
    }

    @Test func batchAppendIsOneTransactionWithConsecutiveIDs() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let receipt = try buffer.append((0..<500).map(walkFix))
        #expect(receipt.ids == 1...500)
        #expect(receipt.droppedCount == 0)
        #expect(try buffer.count() == 500)
        let newest = try buffer.newest(limit: 3)
        #expect(newest.map(\.id) == [500, 499, 498])
        #expect(newest[0].fix == walkFix(499))
        #expect(try buffer.append([Fix]()).ids == nil)
    }

    /// An app's mismatched decisions were a precondition failure: the process, and what it held, lost.
    @Test func refusesDecisionsThatDoNotPairWithTheFixesStoringNothing() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fixes = (0..<4).map(walkFix)
        var tracker = Tracker(profile: .walking)
        let decisions = tracker.process(batch: fixes)
        for (wrong, value) in [
            (Array(decisions.dropLast()), "3 decisions for 4 fixes"),
            ([decisions[1], decisions[0]] + decisions.dropFirst(2), "decision 0 is for \(fixes[1].timestamp)"),
        ] {
            #expect {
                try buffer.append(fixes, decisions: wrong)
            } throws: { error in
                guard let error = error as? StoreError, case .invalidOption("decisions", let got, _) = error.kind
                else { return false }
                return got.hasPrefix(value)
            }
        }
        #expect(try buffer.count() == 0)
        #expect(try buffer.append(fixes, decisions: decisions).ids == 1...4)
    }

    /// `FixDecision`'s initialiser and fields are public: an app's decision with a negative or NaN total was stored,
    /// then set aside by the sync as damaged (the decoder's rules), never sent. Every append (and a revision) now
    /// checks its rows by those rules and refuses the batch, naming the fix's index and the field, storing nothing.
    @Test("refuses a batch holding a value it would read back as damaged, naming the fix and the field")
    func refusesABatchHoldingAValueItWouldReadBackAsDamagedNamingTheFixAndTheField() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        var tracker = Tracker(profile: .walking)
        let stored = (0..<3).map(walkFix)
        let storedDecisions = tracker.process(batch: stored)
        try buffer.append(stored, decisions: storedDecisions)
        let fixes = (3..<7).map(walkFix)
        let decisions = tracker.process(batch: fixes)
        #expect(decisions[1].state != nil)
        /// Whether `error` refuses fix `index` for `field` (column `column`), saying `nothingDone`.
        func refuses(_ error: any Error, _ index: Int, _ field: String, _ column: String, _ nothingDone: String) -> Bool
        {
            guard let error = error as? StoreError, case .unstorableValue(index, let f, let c) = error.kind else {
                return false
            }
            return f == field && c == column && error.message.hasPrefix(column) && error.message.hasSuffix(nothingDone)
        }
        var cases: [(decisions: [FixDecision], index: Int, field: String, column: String)] = []
        for (index, path, value, field, column) in [
            (2, \FixDecision.totalDistanceMetres, -5, "totalDistanceMetres", "total_distance_m"),
            (3, \FixDecision.totalDistanceMetres, .nan, "totalDistanceMetres", "total_distance_m"),
            (0, \FixDecision.distanceIncrementMetres, -.infinity, "distanceIncrementMetres", "distance_increment_m"),
            (2, \FixDecision.speedMetresPerSecond, .nan, "speedMetresPerSecond", "speed_used_mps"),
        ] as [(Int, WritableKeyPath<FixDecision, Double>, Double, String, String)] {
            var wrong = decisions
            wrong[index][keyPath: path] = value
            cases.append((wrong, index, "FixDecision." + field, column))
        }
        var offTheGlobe = decisions
        offTheGlobe[1].state?.latitude = 91
        cases.append((offTheGlobe, 1, "FixDecision.state.latitude", "filtered_latitude"))
        for (wrong, index, field, column) in cases {
            #expect {
                try buffer.append(fixes, decisions: wrong, sessionID: "walk")
            } throws: {
                refuses($0, index, field, column, "nothing was stored")
            }
            #expect {
                try buffer.append(fixes, decisions: wrong, sessionID: "walk") { snapshot, _ in snapshot.fixCount += 4 }
            } throws: {
                refuses($0, index, field, column, "nothing was stored")
            }
            #expect {
                try buffer.append(fixes[index], decision: wrong[index])
            } throws: {
                refuses($0, 0, field, column, "nothing was stored")
            }
        }
        // Nothing of a refused batch was written, nothing stored before it lost, and no session state begun.
        #expect(try buffer.count() == 3)
        #expect(try buffer.newest(limit: 10).map(\.decision) == storedDecisions.reversed().map(StoredDecision.init))
        #expect(try buffer.statistics().damagedCount == 0)
        #expect(try SessionStateStore(path: buffer.path).snapshot(sessionID: "walk") == nil)
        // A revision is refused the same way, revising nothing.
        var revised = storedDecisions
        revised[1].totalDistanceMetres = -1
        #expect {
            try buffer.revise(revised, of: stored, sessionID: nil)
        } throws: {
            refuses($0, 1, "FixDecision.totalDistanceMetres", "total_distance_m", "nothing was revised")
        }
        #expect(try buffer.newest(limit: 10).map(\.decision) == storedDecisions.reversed().map(StoredDecision.init))
        #expect(try buffer.append(fixes, decisions: decisions, sessionID: "walk").ids == 4...7)
    }

    /// Importing a file twice (or again after an interrupted import) stored every fix twice; skipping stored
    /// fixes keeps one row per session, time and position.
    @Test func appendSkippingStoredFixesStoresEachFixOnce() throws {
        let buffer = try FixBuffer(path: ":memory:")
        let walk = (0..<50).map(walkFix)
        #expect(try buffer.append(walk[..<30], sessionID: "a", skippingStored: true).skippedCount == 0)
        let again = try buffer.append(walk, sessionID: "a", skippingStored: true)
        #expect(again.skippedCount == 30 && again.ids.map { $0.count } == 20)
        #expect(try buffer.count() == 50)
        let all = try buffer.append(walk, sessionID: "a", skippingStored: true)
        #expect(all.skippedCount == 50 && all.ids == nil)
        // Another session, or the same time elsewhere, is another fix; without the option nothing is skipped.
        #expect(try buffer.append(walk[..<5], sessionID: "b", skippingStored: true).skippedCount == 0)
        #expect(try buffer.append(walk[..<5], sessionID: nil, skippingStored: true).skippedCount == 0)
        let moved = try walk[0].moved(toLatitude: walk[0].latitude + 1e-5, longitude: walk[0].longitude)
        #expect(try buffer.append([moved], sessionID: "a", skippingStored: true).skippedCount == 0)
        #expect(try buffer.append(walk[..<5], sessionID: "a").skippedCount == 0)
        #expect(try buffer.count() == 50 + 5 + 5 + 1 + 5)
    }

    @Test func capDropsTheOldestRowsAndCountsThem() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"), options: StoreOptions(maxRecordsToPersist: 100))
        let first = try buffer.append((0..<80).map(walkFix))
        #expect(first.droppedCount == 0)
        let second = try buffer.append((80..<250).map(walkFix))
        #expect(second.droppedCount == 150)
        for n in 250..<260 { #expect(try buffer.append(walkFix(n)).droppedCount == 1) }
        #expect(try buffer.count() == 100)
        let stats = try buffer.statistics()
        #expect(
            stats
                == BufferStatistics(
                    rowCount: 100, pendingCount: 100, inFlightCount: 0, rejectedCount: 0, droppedCount: 160))
        let rows = try buffer.newest(limit: 1000)
        #expect(rows.count == 100)
        #expect(rows.last?.fix == walkFix(160))
        #expect(rows.first?.fix == walkFix(259))
    }

    /// The cap dropped the front of a batch in flight, and its retry carried the rest under the same key: a
    /// server following the Idempotency-Key draft refuses a key reused with another body (422).
    @Test func capKeepsTheRowsOfABatchBeingSentWhileOthersCanGo() throws {
        let buffer = try bufferAtItsCap()
        let batch = try #require(try buffer.nextBatch(size: 40))
        #expect(try buffer.append((100..<130).map(walkFix)).droppedCount == 30)
        let retry = try #require(try buffer.nextBatch(size: 40))
        #expect(retry.idempotencyKey == batch.idempotencyKey && retry.rows == batch.rows)
        let ids = try buffer.newest(limit: 1000).map(\.id).sorted()
        #expect(ids == Array(1...40) + Array(71...130))
        // Only older unsent rows go for it, never the append's own fixes.
        #expect(try buffer.append((130..<180).map(walkFix)).droppedCount == 50)
        #expect(try buffer.newest(limit: 1000).map(\.id).sorted() == Array(1...40) + Array(121...180))
    }

    /// A batch the cap dropped while it was in flight, then acknowledged (the backend stored it): its rows were not
    /// lost, and the dropped count says so (a sync tester's stats read 98 dropped while 50 of them were delivered).
    @Test func rowsDeliveredAfterTheCapDroppedThemAreNotCountedAsDropped() throws {
        let buffer = try bufferAtItsCap()
        let batch = try #require(try buffer.nextBatch(size: 40))
        // 90 new fixes: the 60 unsent rows cannot make room, so the batch goes whole, and 50 of them.
        #expect(try buffer.append((100..<190).map(walkFix)).droppedCount == 90)
        #expect(try buffer.statistics().droppedCount == 90)
        #expect(try buffer.acknowledge(batch) == 0)
        #expect(try buffer.statistics().droppedCount == 50)
        // A cleared buffer's batch, acknowledged late, changes no count (clear counts nothing as dropped).
        let next = try #require(try buffer.nextBatch(size: 40))
        try buffer.clear()
        #expect(try buffer.acknowledge(next) == 0)
        #expect(try buffer.statistics().droppedCount == 50)
    }

    /// A batch rejected keeping its key (a lasting 409) goes whole under the cap, never in part: its requeue
    /// resends it under that key, which a server following the Idempotency-Key draft refuses with another body
    /// (422), and the rest went again under a new key (a reviewer's point). Requeued, it goes first, as it was.
    @Test func capDropsABatchRejectedKeepingItsKeyWhole() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 100))
        try buffer.append((0..<70).map(walkFix))
        let conflicted = try #require(try buffer.nextBatch(size: 50))
        #expect(try buffer.markRejected(conflicted, status: 409, keepingItsKey: true) == 50)
        let inFlight = try #require(try buffer.nextBatch(size: 10))
        #expect(inFlight.idempotencyKey != conflicted.idempotencyKey && inFlight.rows.count == 10)
        // 15 over, 10 unclaimed rows: the set-aside batch goes whole (50 rows), and the unclaimed rows it makes
        // unnecessary stay.
        #expect(try buffer.append((70..<115).map(walkFix)).droppedCount == 50)
        let st = try buffer.statistics()
        #expect(st.rejectedCount == 0 && st.inFlightCount == 10 && st.rowCount == 65, "\(st)")
        // Another set-aside batch, requeued: the same key and rows, before the batch in flight.
        let second = try FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 1_000))
        try second.append((0..<80).map(walkFix))
        let kept = try #require(try second.nextBatch(size: 50))
        try second.markRejected(kept, status: 409, keepingItsKey: true)
        let next = try #require(try second.nextBatch(size: 50))
        #expect(next.rows.first?.id == 51)
        #expect(try second.requeueRejected() == 50)
        let again = try #require(try second.nextBatch(size: 50))
        #expect(again.idempotencyKey == kept.idempotencyKey && again.rows.map(\.id) == kept.rows.map(\.id))
    }

    /// A session identifier holding a NUL (user input) came back cut at the NUL.
    @Test func keepsTextWithANULWhole() throws {
        let buffer = try FixBuffer(path: ":memory:")
        let id = "weird\"\u{0}tail ✓"
        try buffer.append(walkFix(0), sessionID: id)
        try buffer.append(walkFix(1), sessionID: "plain")
        #expect(try buffer.newest(limit: 2).map(\.sessionID) == ["plain", id])
        let store = try SessionStateStore(path: ":memory:")
        try store.update(sessionID: id) { $0.distanceMetres = 5 }
        #expect(try store.snapshot(sessionID: id)?.sessionID == id)
        #expect(try store.snapshot(sessionID: "weird\"") == nil)
    }

    @Test func rejectsAnEmptyPath() {
        #expect {
            try FixBuffer(path: "")
        } throws: { error in
            guard let e = error as? StoreError, case .invalidOption(let name, _, _) = e.kind else { return false }
            return name == "path"
        }
    }

    @Test func rejectsOptionsOutsideTheirRanges() {
        for cap in [0, 99, 1_000_001] {
            #expect(throws: StoreError.self) {
                try FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: cap))
            }
        }
        do {
            _ = try FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 99))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidOption(name: "maxRecordsToPersist", value: "99", expected: "100...1000000"))
        }
        #expect(throws: StoreError.self) { try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: -1)) }
        #expect((try? FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 100))) != nil)
        #expect((try? FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 1_000_000))) != nil)
    }

    /// A batch size below 1 is an invalid option, thrown naming the value, and nothing is claimed: it trapped on a
    /// precondition (an API tester's `claimNextBatch(size: 0)`), though the method throws `StoreError`.
    @Test(arguments: [0, -1, Int.min])
    func aBatchSizeBelowOneIsThrownNamingItAndClaimsNothing(size: Int) throws {
        let buffer = try bufferAtItsCap()
        do {
            _ = try buffer.claimNextBatch(size: size)
            Issue.record("expected an error")
        } catch {
            #expect(
                error.kind == .invalidOption(name: "size", value: String(size), expected: "1 or more rows per batch"))
            #expect(error.description.contains("size = \(size)"), "\(error)")
        }
        #expect(throws: StoreError.self) { try buffer.nextBatch(size: size) }
        #expect(try buffer.statistics().inFlightCount == 0)
        #expect(try buffer.nextBatch(size: 1)?.rows.map(\.id) == [1])
    }

    /// A number column that holds text (a buffer edited by hand) reads through SQLite as 0: a latitude 'abc' was
    /// listed and sent as 0.0, and the row deleted once acknowledged (a fuzz tester's). Such a row is damaged, as
    /// one whose value is out of range: a read that needs it names its id and column (as a damaged row, not a
    /// damaged file to move aside), and a listing names it instead of failing.
    @Test("reports a number column that holds text as a damaged row")
    func reportsANumberColumnThatHoldsTextAsADamagedRow() throws {
        let buffer = try FixBuffer(path: ":memory:")
        let fix = try Fix(timestamp: Timestamp(millisecondsSince1970: 1_700_000_000_000), latitude: 48, longitude: 11)
        let next = try Fix(timestamp: Timestamp(millisecondsSince1970: 1_700_000_001_000), latitude: 48, longitude: 11)
        try buffer.append([fix, next])
        #expect(try buffer.newest(limit: 5).count == 2)
        for (column, value) in [("latitude", "'abc'"), ("time_ms", "'x'"), ("speed_mps", "X'00'"), ("latitude", "95")] {
            try buffer.db.execute("UPDATE fixes SET \(column) = \(value) WHERE id = 2")
            #expect {
                _ = try buffer.newest(limit: 5)
            } throws: { error in
                let error = error as? StoreError
                return error?.kind == .damagedRow(table: "fixes", key: "2", column: column)
                    && error?.message.hasPrefix("row 2: \(column)") == true
                    && error?.description.contains("move it aside") == false
            }
            let listed = try buffer.newestRows(limit: 5)
            #expect(listed.map(\.id) == [2, 1])
            guard case .damaged(let damaged) = listed.first else {
                Issue.record("row 2 listed as \(String(describing: listed.first))")
                continue
            }
            #expect(damaged.column == column && !damaged.isSetAside)
            #expect(damaged.description.hasPrefix("row 2: \(column) "))
            #expect(try buffer.damagedRows().map(\.id) == [2])
            try buffer.db.execute(
                "UPDATE fixes SET \(column) = \(column == "time_ms" ? "1700000001000" : "1") WHERE id = 2")
        }
        #expect(try buffer.newest(limit: 5).count == 2)
        #expect(try buffer.damagedRows().isEmpty)
    }

    /// A NULL time, latitude or longitude (the schema declares them NOT NULL: only a hand edit of the schema lets
    /// one in) read as 1970 at 0°, 0° and was sent, and a blob in a text column (the session, the provider) was
    /// read as if it were text. Such a row is damaged, named by its column, and set aside by a claim.
    @Test("reports a NULL time or position and a blob in a text column as a damaged row")
    func reportsANullTimeOrPositionAndABlobInATextColumnAsADamagedRow() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<3).map(walkFix), sessionID: "walk")
        let version = try buffer.db.integer("PRAGMA schema_version")
        try buffer.db.execute("PRAGMA writable_schema = ON")
        try buffer.db.execute(
            "UPDATE sqlite_schema SET sql = replace(sql, 'REAL NOT NULL', 'REAL') WHERE name = 'fixes'")
        try buffer.db.execute(
            "UPDATE sqlite_schema SET sql = replace(sql, 'time_ms INTEGER NOT NULL', 'time_ms INTEGER') "
                + "WHERE name = 'fixes'")
        try buffer.db.execute("PRAGMA schema_version = \(version + 1)")
        try buffer.db.execute("PRAGMA writable_schema = OFF")
        for (column, value, reason) in [
            ("time_ms", "NULL", "time_ms is NULL: every fix has one"),
            ("latitude", "NULL", "latitude is NULL: every fix has one"),
            ("longitude", "NULL", "longitude is NULL: every fix has one"),
            ("session_id", "X'77616c6b'", "session_id holds a blob, not text"),
            ("provider", "X'677073'", "provider holds a blob, not text"),
        ] {
            let original = try buffer.db.statement("SELECT \(column) FROM fixes WHERE id = 2")
            try original.step()
            let kept = original.isNumberOrNull(0) ? original.optionalDouble(0).map { "\($0)" } : original.text(0)
            original.reset()
            try buffer.db.execute("UPDATE fixes SET \(column) = \(value) WHERE id = 2")
            #expect(try buffer.damagedRows().map(\.description) == ["row 2: \(reason)"])
            #expect {
                _ = try buffer.newest(limit: 5)
            } throws: { ($0 as? StoreError)?.kind == .damagedRow(table: "fixes", key: "2", column: column) }
            let restore = try buffer.db.statement("UPDATE fixes SET \(column) = ? WHERE id = 2")
            if column == "time_ms" {
                restore.bind(1, Int64(Double(kept ?? "0") ?? 0))
            } else if column == "latitude" || column == "longitude" {
                restore.bind(1, Double(kept ?? "0"))
            } else {
                restore.bind(1, kept)
            }
            try restore.step()
            restore.reset()
            #expect(try buffer.damagedRows().isEmpty, "\(column) restored")
        }
        // A claim sets such a row aside and sends the others.
        try buffer.db.execute("UPDATE fixes SET latitude = NULL WHERE id = 2")
        let claim = try buffer.claimNextBatch(size: 10)
        #expect(claim.batch?.rows.map(\.id) == [1, 3])
        #expect(claim.setAside.map(\.description) == ["row 2: latitude is NULL: every fix has one"])
    }

    /// Values of the right type but outside what an append writes were decoded and sent as valid: a `time_ms` of
    /// 1.5 (a REAL, read as 1970), a `rejection` of 'bogus' (taken for an accepted fix), a `total_distance_m` of -5,
    /// an `accuracy_m` of -1 (sent as 0.0), and a REAL `sync_state` that reads as 0 (counted damaged by the
    /// statistics, sent by a sync). Each is damage now, named by row and column, and a claim sets it aside.
    @Test("rejects a value no append writes as damage and sets its row aside")
    func rejectsAValueNoAppendWritesAsDamageAndSetsItsRowAside() throws {
        let buffer = try FixBuffer(path: ":memory:")
        var tracker = Tracker()
        let fixes = (0..<24).map(walkFix)
        let decisions = tracker.process(batch: fixes)
        try buffer.append(fixes, decisions: decisions)
        // (A REAL is stored as one only where the column has no integer affinity: a schema edited by hand.)
        let version = try buffer.db.integer("PRAGMA schema_version")
        try buffer.db.execute("PRAGMA writable_schema = ON")
        try buffer.db.execute(
            "UPDATE sqlite_schema SET sql = replace(sql, 'sync_state INTEGER', 'sync_state') WHERE name = 'fixes'")
        try buffer.db.execute("PRAGMA schema_version = \(version + 1)")
        try buffer.db.execute("PRAGMA writable_schema = OFF")
        let edits: [(column: String, value: String)] = [
            ("time_ms", "1.5"), ("rejection", "'bogus'"), ("total_distance_m", "-5"), ("accuracy_m", "-1"),
            ("provider", "'teleport'"), ("speed_mps", "-2"), ("course_deg", "360"), ("altitude_m", "1e999"),
            ("satellites", "-3"), ("mocked", "2"), ("activity", "'flying'"), ("activity_confidence", "50"),
            ("hold", "'bogus'"), ("motion", "'flying'"), ("speed_source", "'psychic'"), ("filtered_latitude", "NULL"),
            ("distance_increment_m", "-1"), ("speed_used_mps", "NULL"), ("vertical_accuracy_m", "-1"),
            ("sync_state", "0.0"),
        ]
        for (index, edit) in edits.enumerated() {
            try buffer.db.execute("UPDATE fixes SET \(edit.column) = \(edit.value) WHERE id = \(index + 2)")
        }
        // (A row without a decision, hold NULL, whose other decision columns are set: a part of a decision.)
        try buffer.db.execute("UPDATE fixes SET hold = NULL WHERE id = 22")
        #expect(try buffer.db.integer("SELECT typeof(sync_state) = 'real' FROM fixes WHERE id = 21") == 1)
        let damaged = try buffer.damagedRows()
        #expect(damaged.map(\.id) == Array(2...22))
        #expect(damaged.map(\.column) == edits.map(\.column) + ["filtered_latitude"], "\(damaged)")
        #expect(damaged.first?.description == "row 2: time_ms holds 1.5, not an integer")
        #expect(damaged.first { $0.id == 3 }?.description.hasPrefix("row 3: rejection 'bogus' is not a value") == true)
        #expect(damaged.first { $0.id == 5 }?.reason.hasPrefix("accuracy_m -1.0 is not NULL, 0") == true)
        #expect(damaged.first { $0.id == 21 }?.isFixIntact == true)
        // A sync sends none of them.
        let claim = try buffer.claimNextBatch(size: 100)
        #expect(claim.batch?.rows.map(\.id) == [1, 23, 24])
        #expect(claim.setAside.map(\.id) == Array(2...22))
        let stats = try buffer.statistics()
        #expect(stats.damagedCount == 21 && stats.inFlightCount == 3 && stats.pendingCount == 0, "\(stats)")
        // An untouched row reads as it was written; the sync state repaired by hand goes again as the integer 0.
        guard case .fix(let last) = try buffer.newestRows(limit: 1).first else {
            Issue.record("row 24 does not decode")
            return
        }
        #expect(last.fix == fixes[23] && last.decision == StoredDecision(decisions[23]))
        try buffer.db.execute("UPDATE fixes SET sync_state = 0.0 WHERE id = 21")
        #expect(try buffer.requeueDamaged().requeuedCount == 1)
        #expect(try buffer.db.integer("SELECT typeof(sync_state) = 'integer' FROM fixes WHERE id = 21") == 1)
    }

    /// A damaged row no sync had reached yet was counted pending by the statistics (SQL alone) while `buffer list`
    /// called it "damaged, not set aside yet". Now the statistics decode every row: it is damaged, not set aside yet,
    /// and once a sync sets it aside it stays damaged, counted once.
    @Test("counts a damaged row no sync has reached as damaged, not pending")
    func countsADamagedRowNoSyncHasReachedAsDamagedNotPending() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<5).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET latitude = 'abc' WHERE id = 2")
        try buffer.db.execute("UPDATE fixes SET accuracy_m = -1 WHERE id = 4")
        let before = try buffer.statistics()
        #expect(before.rowCount == 5 && before.pendingCount == 3 && before.inFlightCount == 0, "\(before)")
        #expect(before.damagedCount == 2 && before.notSetAsideCount == 2, "\(before)")
        let listed = try buffer.newestRows(limit: 10).filter { if case .damaged = $0 { true } else { false } }
        #expect(listed.map(\.id) == [4, 2])
        let claim = try buffer.claimNextBatch(size: 10)
        #expect(claim.batch?.rows.map(\.id) == [1, 3, 5])
        let after = try buffer.statistics()
        #expect(after.inFlightCount == 3 && after.pendingCount == 0, "\(after)")
        #expect(after.damagedCount == 2 && after.notSetAsideCount == 0, "\(after)")
    }

    /// Rows in flight whose batch's row was deleted by hand (`sync_batches`) were stuck for ever: no claim took them
    /// (they had a batch), no batch sent them, and requeue and drop-damaged left them. Now a claim makes them pending
    /// again under a new key and counts them; a batch that exists keeps its rows and its key.
    @Test("a claim makes rows of a batch no longer recorded pending again under a new key")
    func aClaimMakesRowsOfABatchNoLongerRecordedPendingAgainUnderANewKey() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<9).map(walkFix))
        let kept = try #require(try buffer.nextBatch(size: 3))
        try buffer.markRejected(kept, status: 409, keepingItsKey: true)
        let inFlight = try #require(try buffer.nextBatch(size: 3))
        #expect(inFlight.rows.map(\.id) == [4, 5, 6])
        try buffer.db.execute("DELETE FROM sync_batches WHERE id = \(inFlight.id)")
        #expect(try buffer.statistics().inFlightCount == 3)
        let claim = try buffer.claimNextBatch(size: 3)
        #expect(claim.orphanedCount == 3 && claim.setAside.isEmpty)
        let again = try #require(claim.batch)
        #expect(again.rows.map(\.id) == [4, 5, 6] && again.idempotencyKey != inFlight.idempotencyKey)
        #expect(again.previousAttempts == 0)
        // The batch rejected keeping its key is left as it is: its rows, its key.
        let keptRows = "SELECT count(*) FROM fixes WHERE batch_id = ? AND sync_state = 1"
        #expect(try buffer.db.integer(keptRows, kept.id) == 3)
        // A claim with nothing lost releases nothing, and the open batch goes again as it was.
        let next = try buffer.claimNextBatch(size: 3)
        #expect(next.orphanedCount == 0 && next.batch?.idempotencyKey == again.idempotencyKey)
        // The kept batch's row deleted too: its rows leave it, still rejected (a requeue sends them under a new key).
        try buffer.db.execute("DELETE FROM sync_batches WHERE id = \(kept.id)")
        #expect(try buffer.claimNextBatch(size: 3).orphanedCount == 0)
        #expect(try buffer.db.integer("SELECT count(*) FROM fixes WHERE sync_state = 1 AND batch_id IS NULL") == 3)
        #expect(try buffer.requeueRejected() == 3)
    }

    /// A row damaged only in its sync columns (a `sync_state` of 99, text in `batch_id` or `sync_status`) was counted
    /// nowhere by the statistics or stuck in flight, and drop-damaged deleted it, its intact fix with it. Now it
    /// counts as damaged, requeue repairs it to pending (out of any batch), and drop-damaged keeps it.
    @Test("repairs a row damaged only in its sync columns and never drops its fix")
    func repairsARowDamagedOnlyInItsSyncColumnsAndNeverDropsItsFix() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<5).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET sync_state = 99 WHERE id = 1")
        try buffer.db.execute("UPDATE fixes SET batch_id = 'lost' WHERE id = 2")
        try buffer.db.execute("UPDATE fixes SET sync_status = 'x' WHERE id = 3")
        try buffer.db.execute("UPDATE fixes SET sync_state = 99, latitude = 'abc' WHERE id = 4")
        let stats = try buffer.statistics()
        #expect(stats.rowCount == 5 && stats.damagedCount == 4, "\(stats)")
        #expect(stats.pendingCount == 1 && stats.inFlightCount == 0 && stats.rejectedCount == 0, "\(stats)")
        let damaged = try buffer.damagedRows()
        #expect(damaged.map(\.column) == ["sync_state", "batch_id", "sync_status", "latitude"])
        #expect(damaged.map(\.isFixIntact) == [true, true, true, false])
        #expect(try buffer.dropDamagedRows().map(\.id) == [4])
        #expect(try buffer.count() == 4)
        let requeued = try buffer.requeueDamaged()
        #expect(requeued.requeuedCount == 3 && requeued.stillDamaged.isEmpty)
        let after = try buffer.statistics()
        #expect(after.pendingCount == 4 && after.damagedCount == 0, "\(after)")
        #expect(try buffer.nextBatch(size: 10)?.rows.map(\.id) == [1, 2, 3, 5])
    }

    /// One damaged row (a hand edit, a flipped bit) failed every claim of a batch with "damaged, move it aside", so
    /// nothing of the buffer was ever sent again and moving the file aside lost every pending fix. Now the claim sets
    /// it aside (kept with its bytes, never sent, counted) and forms the batch from the other rows.
    @Test("sets a damaged row aside and claims the batch from the other rows")
    func setsADamagedRowAsideAndClaimsTheBatchFromTheOtherRows() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<6).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET latitude = 'abc' WHERE id = 2")
        try buffer.db.execute("UPDATE fixes SET latitude = 95 WHERE id = 5")
        let first = try buffer.claimNextBatch(size: 3)
        let batch = try #require(first.batch)
        #expect(batch.rows.map(\.id) == [1, 3])
        #expect(first.setAside.map(\.description) == ["row 2: latitude holds text or a blob, not a number"])
        #expect(first.setAside.allSatisfy { $0.isSetAside })
        #expect(try buffer.acknowledge(batch) == 2)
        let second = try buffer.claimNextBatch(size: 3)
        #expect(second.batch?.rows.map(\.id) == [4, 6])
        #expect(second.setAside.map(\.id) == [5] && second.setAside.first?.column == "latitude")
        try buffer.acknowledge(#require(second.batch))
        // Nothing else to send; the damaged rows stay, counted, their bytes as they were.
        #expect(try buffer.claimNextBatch(size: 3) == BatchClaim(batch: nil, setAside: []))
        let stats = try buffer.statistics()
        #expect(stats.rowCount == 2 && stats.damagedCount == 2 && stats.pendingCount == 0 && stats.inFlightCount == 0)
        #expect(try buffer.db.integer("SELECT count(*) FROM fixes WHERE id = 2 AND typeof(latitude) = 'text'") == 1)
        #expect(try buffer.db.integer("SELECT count(*) FROM fixes WHERE id = 5 AND latitude = 95") == 1)
        // Row 2 corrected by hand goes again; row 5 stays set aside until it is dropped, and only it.
        try buffer.db.execute("UPDATE fixes SET latitude = 48.8566 WHERE id = 2")
        #expect(try buffer.newestRows(limit: 5).map(\.id) == [5, 2])
        let requeued = try buffer.requeueDamaged()
        #expect(requeued.requeuedCount == 1 && requeued.stillDamaged.map(\.id) == [5])
        #expect(try buffer.nextBatch(size: 3)?.rows.map(\.id) == [2])
        #expect(try buffer.dropDamagedRows().map(\.id) == [5])
        #expect(try buffer.count() == 1 && buffer.statistics().damagedCount == 0)
        #expect(try buffer.statistics().droppedCount == 0)
    }

    /// A claim whose rows are all damaged closes its batch and goes on to the next rows; a row damaged after its
    /// batch was claimed leaves the batch, which keeps its key.
    @Test("goes past a batch of damaged rows and takes one out of an open batch")
    func goesPastABatchOfDamagedRowsAndTakesOneOutOfAnOpenBatch() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<5).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET time_ms = 'x' WHERE id <= 2")
        let claim = try buffer.claimNextBatch(size: 2)
        #expect(claim.setAside.map(\.id) == [1, 2])
        let batch = try #require(claim.batch)
        #expect(batch.rows.map(\.id) == [3, 4])
        #expect(try buffer.db.integer("SELECT count(*) FROM sync_batches") == 1)
        try buffer.db.execute("UPDATE fixes SET time_ms = 'y' WHERE id = 4")
        let again = try buffer.claimNextBatch(size: 2)
        #expect(again.batch?.id == batch.id && again.batch?.idempotencyKey == batch.idempotencyKey)
        #expect(again.batch?.rows.map(\.id) == [3] && again.setAside.map(\.id) == [4])
        // Every row damaged: no batch, and none left open.
        let all = try FixBuffer(path: ":memory:")
        try all.append((0..<3).map(walkFix))
        try all.db.execute("UPDATE fixes SET longitude = 'w'")
        let none = try all.claimNextBatch(size: 2)
        #expect(none.batch == nil && none.setAside.map(\.id) == [1, 2, 3])
        #expect(try all.db.integer("SELECT count(*) FROM sync_batches") == 0)
        #expect(try all.statistics().damagedCount == 3)
    }

    @Test func ageLimitDropsFixesStoredLongAgo() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("b.sqlite")
        let now = FixBuffer.now()
        let fix = try Fix(timestamp: now.advanced(bySeconds: -60), latitude: 1, longitude: 1)
        do {
            let buffer = try FixBuffer(path: path)
            try buffer.append([fix, fix, fix])
            // Two of them stored two hours ago.
            try buffer.db.execute(
                "UPDATE fixes SET stored_ms = \(now.advanced(bySeconds: -7200).millisecondsSince1970) WHERE id <= 2")
        }
        let limited = try FixBuffer(path: path, options: StoreOptions(maxAgeSeconds: 3600))
        #expect(try limited.count() == 1)
        #expect(try limited.statistics().droppedCount == 2)
        #expect(try limited.newest(limit: 5).map(\.id) == [3])
    }

    /// The age limit is judged by when a fix was stored, not by its own time: a phone whose clock says 2001,
    /// or an old track imported for upload, keeps its fixes (they were dropped at the next prune, a minute
    /// after the buffer reported them stored).
    @Test func ageLimitKeepsJustStoredFixesWhateverTheirTime() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: 3600))
        let old = try Fix(timestamp: FixBuffer.now().advanced(bySeconds: -20 * 365 * 86400), latitude: 1, longitude: 1)
        try buffer.append([old])
        #expect(try buffer.pruneExpired(now: FixBuffer.now().advanced(bySeconds: 120)) == 0)
        #expect(try buffer.count() == 1)
        #expect(try buffer.pruneExpired(now: FixBuffer.now().advanced(bySeconds: 3700)) == 1)
    }

    /// Rows a backend rejected and rows set aside as damaged that the age limit drops in an append are counted in
    /// its receipt, as the cap's are (an API tester's 60 rejected rows and a damaged one went unsaid).
    @Test func theAgeLimitCountsTheRejectedAndDamagedRowsItDrops() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: 3600))
        try buffer.append((0..<10).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET sync_state = 1, sync_status = 422 WHERE id <= 3")
        try buffer.db.execute("UPDATE fixes SET sync_state = 2 WHERE id = 4")
        try buffer.db.execute("UPDATE fixes SET stored_ms = stored_ms - 7200000 WHERE id <= 6")
        buffer.lastPruneSeconds = -.infinity  // (an append prunes at most once a minute: make it due)
        let receipt = try buffer.append([walkFix(10)])
        #expect(receipt.droppedCount == 6)
        #expect(receipt.droppedRejectedCount == 3 && receipt.droppedDamagedCount == 1)
    }

    /// The age limit's prune in an append is part of the append's transaction: an append that fails (an insert
    /// refused here by a trigger, as a full disk would) drops nothing, and the next append drops and counts the
    /// expired rows. (The prune committed on its own: its rows were gone and in no receipt, a reviewer's.)
    @Test("an append that fails drops no expired row unreported")
    func anAppendThatFailsDropsNoExpiredRowUnreported() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: 3600))
        try buffer.append((0..<10).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET sync_state = 1, sync_status = 422 WHERE id <= 2")
        try buffer.db.execute("UPDATE fixes SET stored_ms = stored_ms - 7200000 WHERE id <= 6")
        buffer.lastPruneSeconds = -.infinity  // (an append prunes at most once a minute: make it due)
        try buffer.db.execute(
            "CREATE TEMP TRIGGER refuse BEFORE INSERT ON fixes BEGIN SELECT RAISE(ABORT, 'refused'); END")
        #expect(throws: StoreError.self) { try buffer.append([walkFix(10)]) }
        #expect(try buffer.count() == 10)
        #expect(try buffer.statistics().droppedCount == 0)
        try buffer.db.execute("DROP TRIGGER refuse")
        let receipt = try buffer.append([walkFix(10)])
        #expect(receipt.droppedCount == 6 && receipt.droppedRejectedCount == 2)
        #expect(try buffer.count() == 5)
        #expect(try buffer.statistics().droppedCount == 6)
    }

    /// A batch rejected keeping its key goes whole under the age limit, as under the cap, when any of its rows has
    /// expired: in one statement (`expired OR batch_id IN (…expired…)`) SQLite found the batch only after its expired
    /// rows were gone, and 3 of a 10-row batch went; the 7 left were resent under its key with another body, which a
    /// server following the Idempotency-Key draft refuses (a mutation tester's).
    @Test("the age limit drops a batch kept with its key whole when some of its rows expired")
    func theAgeLimitDropsAKeptBatchWhole() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: 3600))
        try buffer.append((0..<20).map(walkFix))
        let kept = try #require(try buffer.nextBatch(size: 10))
        try buffer.markRejected(kept, status: 409, keepingItsKey: true)
        try buffer.db.execute("UPDATE fixes SET stored_ms = stored_ms - 7200000 WHERE id <= 3")
        #expect(try buffer.pruneExpired(now: FixBuffer.now()) == 10)
        #expect(try buffer.requeueRejected() == 0)
        #expect(try buffer.newest(limit: 20).map(\.id).sorted() == Array(11...20))
        // In an append's receipt the batch's rows count as dropped and as rejected alike.
        try buffer.append((20..<30).map(walkFix))
        let second = try #require(try buffer.nextBatch(size: 5))
        try buffer.markRejected(second, status: 409, keepingItsKey: true)
        try buffer.db.execute("UPDATE fixes SET stored_ms = stored_ms - 7200000 WHERE id = \(second.rows[0].id)")
        buffer.lastPruneSeconds = -.infinity  // (an append prunes at most once a minute: make it due)
        let receipt = try buffer.append([walkFix(30)])
        #expect(receipt.droppedCount == 5 && receipt.droppedRejectedCount == 5, "\(receipt)")
    }

    /// An append prunes at most once a minute, and again a minute after the last prune: an app that keeps one buffer
    /// open for days has its age limit applied (the tests before made every prune due; a mutant that never pruned
    /// after the first passed them).
    @Test("an append applies the age limit again a minute after its last prune")
    func anAppendAppliesTheAgeLimitAgainAMinuteLater() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: 3600))
        try buffer.append((0..<10).map(walkFix))
        try buffer.db.execute("UPDATE fixes SET stored_ms = stored_ms - 7200000 WHERE id <= 6")
        // The last prune less than a minute ago: none now.
        #expect(try buffer.append([walkFix(10)]).droppedCount == 0)
        buffer.lastPruneSeconds -= 61
        #expect(try buffer.append([walkFix(11)]).droppedCount == 6)
        #expect(try buffer.count() == 6)
    }

    /// The session's state is written in the rows' transaction: a session update that fails (refused here by a
    /// trigger, as a full disk would) stores none of the rows either, so the two never disagree.
    @Test("an append whose session update fails stores none of its rows")
    func anAppendWhoseSessionUpdateFailsStoresNoRow() throws {
        let buffer = try FixBuffer(path: ":memory:")
        _ = try buffer.append((0..<5).map(walkFix), sessionID: "walk") { session, _ in session.fixCount += 5 }
        try buffer.db.execute(
            "CREATE TEMP TRIGGER refuse BEFORE INSERT ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END")
        try buffer.db.execute(
            "CREATE TEMP TRIGGER refuseUpdate BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'refused'); END")
        #expect(throws: StoreError.self) {
            try buffer.append((5..<10).map(walkFix), sessionID: "walk") { session, _ in session.fixCount += 5 }
        }
        #expect(try buffer.count() == 5)
    }

    /// The durability option reaches SQLite: `full` syncs every commit (a power loss keeps what was acknowledged),
    /// `normal` does not.
    @Test("the durability option sets SQLite's synchronous mode")
    func theDurabilityOptionSetsSynchronous() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let full = try FixBuffer(path: folder.file("full.sqlite"))
        #expect(try full.db.integer("PRAGMA synchronous") == 2)
        let normal = try FixBuffer(path: folder.file("normal.sqlite"), options: StoreOptions(durability: .normal))
        #expect(try normal.db.integer("PRAGMA synchronous") == 1)
    }

    /// Rows stored before the storage time was recorded (schema version 2) are judged by their fix's time.
    @Test func ageLimitJudgesRowsWithoutAStorageTimeByTheirFixTime() throws {
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxAgeSeconds: 3600))
        let now = FixBuffer.now()
        for seconds in [-7200.0, -60] {
            try buffer.append([try Fix(timestamp: now.advanced(bySeconds: seconds), latitude: 1, longitude: 1)])
        }
        try buffer.db.execute("UPDATE fixes SET stored_ms = NULL")
        #expect(try buffer.pruneExpired(now: now) == 1)
        #expect(try buffer.newest(limit: 5).map(\.id) == [2])
    }

    /// A full disk (simulated with SQLite's page limit, which fails exactly as a full file system does:
    /// SQLITE_FULL) is a `diskFull` error naming the file, and every row committed before it stays (it was an
    /// unnamed `sqlite` error with code 13).
    @Test func aFullDiskIsNamedAndLosesNothingAlreadyStored() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("full.sqlite")
        let buffer = try FixBuffer(path: path, options: StoreOptions(maxRecordsToPersist: 1_000_000))
        let pages = try buffer.db.integer("PRAGMA page_count")
        try buffer.db.execute("PRAGMA max_page_count = \(pages + 8)")
        var stored = 0
        var failure: StoreError?
        for n in 0..<10_000 {
            do {
                try buffer.append((0..<10).map { walkFix(n * 10 + $0) })
                stored += 10
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(error.kind == .diskFull)
        #expect(error.description.hasPrefix(path + ": the disk is full"))
        #expect(stored > 0)
        #expect(try buffer.count() == stored)
        #expect(try FixBuffer(path: path).count() == stored)
    }

    /// An append with its session's update stores both or neither: committed apart, a full disk (or a kill)
    /// between the two left a crash tester's session 10,000 accepted fixes short of its rows for good.
    @Test func anAppendStoresItsRowsAndItsSessionsRecordTogether() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("session.sqlite")
        let buffer = try FixBuffer(path: path, options: StoreOptions(maxRecordsToPersist: 1_000_000))
        let pages = try buffer.db.integer("PRAGMA page_count")
        try buffer.db.execute("PRAGMA max_page_count = \(pages + 8)")
        var failure: StoreError?
        for n in 0..<10_000 {
            do {
                try buffer.append((0..<10).map { walkFix(n * 10 + $0) }, sessionID: "s") { snapshot, receipt in
                    snapshot.fixCount += 10
                    snapshot.acceptedFixCount += 10
                    snapshot.saveCheckpoints(
                        tracker: Tracker(profile: .walking), stopDetector: StopDetector(profile: .walking),
                        afterBufferRow: receipt.ids?.upperBound)
                }
            } catch {
                failure = error
                break
            }
        }
        #expect(try #require(failure).kind == .diskFull)
        let stored = try FixBuffer(path: path).count()
        let session = try #require(try SessionStateStore(path: path).snapshot(sessionID: "s"))
        #expect(stored > 0 && session.acceptedFixCount == stored)
        #expect(session.checkpointRowID == Int64(stored))
    }

    @Test func clearReturnsTheRowsRemoved() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<42).map(walkFix))
        _ = try buffer.nextBatch(size: 10)
        #expect(try buffer.clear() == 42)
        #expect(try buffer.count() == 0)
        #expect(try buffer.clear() == 0)
        #expect(try buffer.nextBatch(size: 10) == nil)
        #expect(try buffer.statistics().droppedCount == 0)
    }

    @Test func batchesAreStableUntilAcknowledged() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("b.sqlite")
        let batch: SyncBatch
        do {
            let buffer = try FixBuffer(path: path)
            try buffer.append((0..<120).map(walkFix))
            batch = try #require(try buffer.nextBatch(size: 50))
            #expect(batch.rows.map(\.id) == Array(1...50))
            #expect(batch.idempotencyKey.count == 32)
            try buffer.recordAttempt(batch)
            // A retry gets the same rows under the same key, whatever the size asked now.
            let again = try #require(try buffer.nextBatch(size: 7))
            #expect(again.id == batch.id)
            #expect(again.idempotencyKey == batch.idempotencyKey)
            #expect(again.rows.map(\.id) == batch.rows.map(\.id))
            #expect(again.previousAttempts == 1)
        }
        // ... even after the process restarts.
        let buffer = try FixBuffer(path: path)
        let reopened = try #require(try buffer.nextBatch(size: 50))
        #expect(reopened.idempotencyKey == batch.idempotencyKey)
        #expect(reopened.rows.map(\.id) == batch.rows.map(\.id))
        #expect(try buffer.statistics().inFlightCount == 50)
        // New rows appended meanwhile never join a claimed batch.
        try buffer.append(walkFix(500))
        #expect(try buffer.nextBatch(size: 50)?.rows.count == 50)

        #expect(try buffer.acknowledge(batch) == 50)
        #expect(try buffer.count() == 71)
        let next = try #require(try buffer.nextBatch(size: 50))
        #expect(next.idempotencyKey != batch.idempotencyKey)
        #expect(next.rows.map(\.id) == Array(51...100))
    }

    @Test func rejectedRowsAreKeptCountedAndSkipped() throws {
        let buffer = try FixBuffer(path: ":memory:")
        try buffer.append((0..<30).map(walkFix))
        let batch = try #require(try buffer.nextBatch(size: 10))
        #expect(try buffer.markRejected(batch, status: 422) == 10)
        let stats = try buffer.statistics()
        #expect(stats.rejectedCount == 10)
        #expect(stats.pendingCount == 20)
        #expect(try buffer.count() == 30)
        let next = try #require(try buffer.nextBatch(size: 10))
        #expect(next.rows.map(\.id) == Array(11...20))
        #expect(try buffer.newest(limit: 30).last?.syncState == .rejected(status: 422))
        #expect(try buffer.requeueRejected() == 10)
        #expect(try buffer.statistics().rejectedCount == 0)
    }

    /// When every row older than an append is in flight (a cap not much larger than the batches), the batch goes
    /// whole rather than the new fixes: its key is never sent again with fewer rows (a strict server refuses a key
    /// with another body, and a crash tester's requeue then stored the rest twice under a new key).
    @Test func capDroppingInFlightRowsDropsTheWholeBatch() throws {
        let buffer = try bufferAtItsCap()
        let batch = try #require(try buffer.nextBatch(size: 100))
        let receipt = try buffer.append((100..<130).map(walkFix))  // 30 over the cap: the batch's 100 rows go
        #expect(receipt.droppedCount == 100)
        #expect(try buffer.count() == 30)
        let next = try #require(try buffer.nextBatch(size: 50))
        #expect(next.idempotencyKey != batch.idempotencyKey)
        #expect(next.rows.map(\.id) == Array(101...130))
        #expect(try buffer.acknowledge(batch) == 0)
    }

    /// Rows claimed by no batch go before a batch in flight's (rows 21…70 go, not the 50 new fixes), and once only
    /// the batch is older than what must go, it goes whole, never part of it.
    @Test func capDropsUnclaimedRowsBeforeABatchInFlight() throws {
        let buffer = try bufferAtItsCap()
        let batch = try #require(try buffer.nextBatch(size: 20))
        try buffer.append((100..<150).map(walkFix))  // 50 over: rows 21...70 go, the batch stays
        let retry = try #require(try buffer.nextBatch(size: 50))
        #expect(retry.idempotencyKey == batch.idempotencyKey && retry.rows.map(\.id) == Array(1...20))
        #expect(try buffer.count() == 100)
        #expect(try buffer.newest(limit: 200).map(\.id).sorted() == Array(1...20) + Array(71...150))
        #expect(try buffer.statistics().droppedCount == 50)
        // 10 over with rows 71…150 unclaimed: they go first (71…80), the batch still whole.
        try buffer.append((150..<160).map(walkFix))
        #expect(try buffer.newest(limit: 200).map(\.id).sorted() == Array(1...20) + Array(81...160))
        // 90 over: the 80 unclaimed rows older than the append are not enough, so the batch goes too, whole (all
        // 20, though 10 would do), then only the 70 oldest of those rows; every appended fix stays.
        #expect(try buffer.append((160..<250).map(walkFix)).droppedCount == 90)
        #expect(try buffer.newest(limit: 200).map(\.id).sorted() == Array(151...250))
    }

    /// Once the batch in flight has to go (whole), the unclaimed rows it makes unnecessary stay: an app tester's
    /// cap of 100 with rows 1…50 being sent and 81…130 pending dropped 100 rows for 70 new fixes (81…130 and the
    /// batch), leaving 70 rows where 100 fitted. The sync that owns the batch deletes nothing on its
    /// acknowledgement, and the next batch is claimed under a new key.
    @Test func capDropsNoMoreThanItMustOnceTheBatchInFlightGoes() throws {
        let buffer = try bufferAtItsCap()
        let batch = try #require(try buffer.nextBatch(size: 50))
        #expect(try buffer.append((100..<130).map(walkFix)).droppedCount == 30)  // rows 51...80
        // 70 over, 50 unclaimed rows older than the append: the batch goes whole, then 81...100, not 101...130.
        #expect(try buffer.append((130..<200).map(walkFix)).droppedCount == 70)
        #expect(try buffer.newest(limit: 200).map(\.id).sorted() == Array(101...200))
        #expect(
            try buffer.statistics()
                == BufferStatistics(
                    rowCount: 100, pendingCount: 100, inFlightCount: 0, rejectedCount: 0, droppedCount: 100))
        #expect(try buffer.acknowledge(batch) == 0)
        #expect(try buffer.count() == 100)
        let next = try #require(try buffer.nextBatch(size: 50))
        #expect(next.idempotencyKey != batch.idempotencyKey && next.rows.map(\.id) == Array(101...150))
        // A batch larger than what is over goes alone: 50 over, 40 unclaimed older rows, a batch of 60.
        let second = try bufferAtItsCap()
        let large = try #require(try second.nextBatch(size: 60))
        #expect(try second.append((100..<150).map(walkFix)).droppedCount == 60)
        #expect(try second.newest(limit: 200).map(\.id).sorted() == Array(61...150))
        #expect(try second.acknowledge(large) == 0)
        // Delivered after all: the batch's 60 rows are not counted as lost
        // (`rowsDeliveredAfterTheCapDroppedThemAreNotCountedAsDropped`).
        #expect(try second.statistics().droppedCount == 0)
    }

    @Test func countStaysExactUnderRandomOperations() throws {
        var rng = SplitMix64(seed: 6)
        let buffer = try FixBuffer(path: ":memory:", options: StoreOptions(maxRecordsToPersist: 300))
        var n = 0
        for _ in 0..<300 {
            switch rng.next() % 6 {
            case 0, 1, 2:
                let k = Int(rng.next() % 40)
                try buffer.append((n..<n + k).map(walkFix))
                n += k
            case 3:
                if let batch = try buffer.nextBatch(size: Int(rng.next() % 30) + 1) { try buffer.acknowledge(batch) }
            case 4:
                if let batch = try buffer.nextBatch(size: 5) { try buffer.markRejected(batch, status: 400) }
            default:
                if rng.next() % 10 == 0 { try buffer.clear() }
            }
            let stats = try buffer.statistics()
            #expect(try buffer.count() == stats.rowCount)
            #expect(stats.rowCount <= 300)
        }
    }
}

/// ``FixBuffer/revise(_:of:sessionID:)``: the decisions a ``RewindingTracker`` revised reach the rows the sync sends.
@Suite struct FixBufferRevisionTests {
    /// A walk delivered in order but for a 20 s backlog that arrives late: appended as delivered, then revised
    /// with each outcome's `revised`, the stored decisions are those of the tracker that saw every fix in time
    /// order (an API tester's rows kept the first decision: total 338.9 m where the tracker had revised it).
    @Test func revisedDecisionsReplaceTheStoredOnesAsInTimeOrder() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fixes = (0..<120).map(walkFix)
        var delivery = Array(fixes[0..<60]) + Array(fixes[80..<100]) + Array(fixes[60..<80]) + Array(fixes[100...])
        delivery.insert(fixes[30], at: 31)  // a repeated fix, appended twice: two rows of one time
        var rewinding = RewindingTracker()
        #expect(try Self.deliver(delivery, with: &rewinding, to: buffer).revisedCount > 0)
        try Self.expectRowsAsInTimeOrder(buffer, Array(fixes[0...30]) + [fixes[30]] + Array(fixes[31...]))
    }

    /// Processes `delivery` one fix at a time, appending each with its decision and revising with each outcome's
    /// revision (session "walk"); returns the revision receipts summed.
    static func deliver(
        _ delivery: [Fix], with rewinding: inout RewindingTracker, to buffer: FixBuffer, skippingStored: Bool = false
    ) throws -> RevisionReceipt {
        var total = RevisionReceipt()
        for fix in delivery {
            let outcome = rewinding.process(fix)
            // (Revised first, as documented: the fix just delivered has no row yet to be taken for a revised one.)
            let receipt = try buffer.revise(outcome.revised, of: outcome.revisedFixes, sessionID: "walk")
            try buffer.append([fix], decisions: [outcome.decision], sessionID: "walk", skippingStored: skippingStored)
            total.revisedCount += receipt.revisedCount
            total.inBatchCount += receipt.inBatchCount
            total.missingCount += receipt.missingCount
            total.ambiguousCount += receipt.ambiguousCount
        }
        return total
    }

    /// Expects the rows of session "walk", in time order, to hold the decisions of a tracker fed `inOrder`.
    static func expectRowsAsInTimeOrder(_ buffer: FixBuffer, _ inOrder: [Fix]) throws {
        var tracker = Tracker()
        let expected = tracker.process(batch: inOrder)
        let rows = try buffer.rows(after: 0, sessionID: "walk").sorted {
            ($0.fix.timestamp, $0.id) < ($1.fix.timestamp, $1.id)
        }
        #expect(rows.count == expected.count)
        for (row, decision) in zip(rows, expected) {
            #expect(row.decision?.rejection == decision.rejection, "row \(row.id)")
            #expect(row.decision?.totalDistanceMetres == decision.totalDistanceMetres, "row \(row.id)")
        }
    }

    /// A fix repeated in delivery whose two copies a tracker copy would separate (a copy every 2 fixes), then a
    /// late fix: the rewind starts before both copies, and each row gets its own decision (a reviewer's: the
    /// repeat's `duplicate` landed on the first copy's row, matched by time and order alone).
    @Test func aRepeatedFixSplitByATrackerCopyKeepsEachCopysDecision() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fixes = (0..<12).map(walkFix)
        let late = try Fix(
            timestamp: Timestamp(millisecondsSince1970: fixes[3].timestamp.millisecondsSince1970 + 500),
            latitude: fixes[3].latitude + 0.63e-5, longitude: fixes[3].longitude, horizontalAccuracyMetres: 4.5,
            provider: .gps)
        let delivery = Array(fixes[0...3]) + [fixes[3]] + Array(fixes[4...]) + [late]
        var rewinding = RewindingTracker(snapshotInterval: 2)
        #expect(try Self.deliver(delivery, with: &rewinding, to: buffer).revisedCount > 0)
        try Self.expectRowsAsInTimeOrder(buffer, Array(fixes[0...3]) + [fixes[3], late] + Array(fixes[4...]))
    }

    /// A repeat the buffer skipped (`skippingStored`) and another fix of the same instant elsewhere: the repeated
    /// fix's decisions are left (its one row cannot be told to be the original), and the other fix's row gets its
    /// own (it took the repeat's `duplicate` when rows were matched by time alone, a reviewer's).
    @Test func aSkippedRepeatLeavesTheOtherFixOfItsInstantAlone() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fixes = (0..<12).map(walkFix)
        let other = try Fix(
            timestamp: fixes[5].timestamp, latitude: fixes[5].latitude + 2e-5, longitude: fixes[5].longitude,
            horizontalAccuracyMetres: 4.5, provider: .gps)
        let late = try Fix(
            timestamp: Timestamp(millisecondsSince1970: fixes[4].timestamp.millisecondsSince1970 + 500),
            latitude: fixes[4].latitude + 0.63e-5, longitude: fixes[4].longitude, horizontalAccuracyMetres: 4.5,
            provider: .gps)
        let delivery = Array(fixes[0...5]) + [fixes[5], other] + Array(fixes[6...]) + [late]
        var rewinding = RewindingTracker()
        let receipt = try Self.deliver(delivery, with: &rewinding, to: buffer, skippingStored: true)
        #expect(receipt.ambiguousCount == 2)  // the repeated fix's two decisions, one row
        var inOrder = Tracker()
        let expected = inOrder.process(
            batch: Array(fixes[0...4]) + [late, fixes[5], fixes[5], other] + Array(fixes[6...]))
        let rows = try buffer.rows(after: 0, sessionID: "walk")
        let otherRow = try #require(rows.first { $0.fix.latitude == other.latitude })
        #expect(otherRow.decision?.rejection == expected[8].rejection)
        #expect(otherRow.decision?.rejection != .duplicate)
    }

    /// The first copy of a repeated fix synced away, its repeat still queued, then a late fix rewinds before both:
    /// the repeat's row keeps its `duplicate` (matched by position among the rows left, it took the first copy's
    /// accepted decision, and the backend would have counted the fix twice: a reviewer's).
    @Test func aRepeatWhoseOriginalWasSyncedKeepsItsOwnDecision() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fixes = (0..<12).map(walkFix)
        var rewinding = RewindingTracker(snapshotInterval: 2)
        for fix in Array(fixes[0...3]) + [fixes[3]] {
            try buffer.append(fix, decision: rewinding.process(fix).decision, sessionID: "walk")
        }
        let sent = try #require(try buffer.nextBatch(size: 4))
        #expect(try buffer.acknowledge(sent) == 4)
        var ambiguous = 0
        let late = try Fix(
            timestamp: Timestamp(millisecondsSince1970: fixes[2].timestamp.millisecondsSince1970 + 500),
            latitude: fixes[2].latitude + 0.63e-5, longitude: fixes[2].longitude, horizontalAccuracyMetres: 4.5,
            provider: .gps)
        for fix in Array(fixes[4...]) + [late] {
            let outcome = rewinding.process(fix)
            ambiguous += try buffer.revise(outcome.revised, of: outcome.revisedFixes, sessionID: "walk").ambiguousCount
            try buffer.append(fix, decision: outcome.decision, sessionID: "walk")
        }
        #expect(ambiguous == 2)
        let repeatRow = try #require(try buffer.rows(after: 0, sessionID: "walk").first { $0.fix == fixes[3] })
        #expect(repeatRow.decision?.rejection == .duplicate)
    }

    /// A late batch that repeats a fix whose row was synced away: revised before the batch is appended, the
    /// repeat's row (appended with the batch) keeps its `duplicate` (appended first, it took the revised original's
    /// accepted decision, and the backend received that fix accepted twice: an API tester's).
    @Test func aRepeatInTheLateBatchIsNotTakenForASyncedFix() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        let fixes = (0..<12).map(walkFix)
        var rewinding = RewindingTracker()
        for fix in fixes[0..<8] {
            try buffer.append(fix, decision: rewinding.process(fix).decision, sessionID: "walk")
        }
        let sent = try #require(try buffer.nextBatch(size: 6))
        #expect(try buffer.acknowledge(sent) == 6)
        for fix in fixes[8...] {
            try buffer.append(fix, decision: rewinding.process(fix).decision, sessionID: "walk")
        }
        // The backlog: a fix from before fix 5 that came late, and fix 5 delivered again.
        let late = try Fix(
            timestamp: Timestamp(millisecondsSince1970: fixes[4].timestamp.millisecondsSince1970 + 500),
            latitude: fixes[4].latitude + 0.63e-5, longitude: fixes[4].longitude, horizontalAccuracyMetres: 4.5,
            provider: .gps)
        let backlog = [late, fixes[5]]
        let result = rewinding.process(batch: backlog)
        #expect(result.revisedFixes.contains(fixes[5]))
        try buffer.revise(result.revised, of: result.revisedFixes, sessionID: "walk")
        try buffer.append(backlog, decisions: result.decisions, sessionID: "walk")
        let rows = try buffer.rows(after: 0, sessionID: "walk").filter { $0.fix == fixes[5] }
        #expect(rows.count == 1)
        #expect(rows.first?.decision?.rejection == result.decisions[1].rejection)
        #expect(rows.first?.decision?.rejection != nil)
    }

    /// A row claimed by a batch keeps the decision it is being sent with (its retry resends the same rows under
    /// the same key); a decision without a row is counted as missing.
    @Test func aRowInABatchBeingSentIsLeftAndAMissingOneCounted() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let buffer = try FixBuffer(path: folder.file("b.sqlite"))
        var tracker = Tracker()
        let fixes = (0..<4).map(walkFix)
        try buffer.append(fixes, decisions: tracker.process(batch: fixes), sessionID: "s")
        let batch = try #require(try buffer.nextBatch(size: 2))
        var other = Tracker()
        var revised = other.process(batch: fixes + [walkFix(9)])
        for i in revised.indices { revised[i].totalDistanceMetres += 1000 }
        let receipt = try buffer.revise(revised, of: fixes + [walkFix(9)], sessionID: "s")
        #expect(receipt.inBatchCount == 2 && receipt.revisedCount == 2 && receipt.missingCount == 1)
        // Decisions that do not pair with their fixes revise nothing.
        #expect(throws: StoreError.self) { try buffer.revise(revised, of: fixes, sessionID: "s") }
        #expect(throws: StoreError.self) {
            try buffer.revise(Array(revised.reversed()), of: fixes + [walkFix(9)], sessionID: "s")
        }
        let rows = try buffer.rows(after: 0, sessionID: "s")
        let claimed = Set(batch.rows.map(\.id))
        for row in rows {
            #expect((row.decision?.totalDistanceMetres ?? 0 >= 1000) == !claimed.contains(row.id))
        }
    }
}
