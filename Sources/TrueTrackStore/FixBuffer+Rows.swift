import CSQLite
import TrueTrackCore

extension FixBuffer {
    /// The columns of ``FixBuffer/selectSQL``, in its order (a column's raw value is its position in a row read
    /// with it, and, but for `id` and the sync's three, its parameter in ``FixBuffer/insertSQL``): the one table
    /// the decoder's positions and the names a ``DamagedRow`` gives come from. (The decoder named them by numbers
    /// beside a list of names.)
    enum Column: Int32, CaseIterable {
        case id, sessionID, time, latitude, longitude, accuracy, altitude, verticalAccuracy, speed, speedAccuracy
        case course, courseAccuracy, provider, satellites, mocked, activity, activityConfidence
        case rejection, filteredLatitude, filteredLongitude, speedUsed, speedSource, hold, motion, distanceIncrement
        case totalDistance
        case syncState, syncStatus, batchID

        /// The column's name in the `fixes` table.
        var name: String {
            switch self {
            case .id: "id"
            case .sessionID: "session_id"
            case .time: "time_ms"
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .accuracy: "accuracy_m"
            case .altitude: "altitude_m"
            case .verticalAccuracy: "vertical_accuracy_m"
            case .speed: "speed_mps"
            case .speedAccuracy: "speed_accuracy_mps"
            case .course: "course_deg"
            case .courseAccuracy: "course_accuracy_deg"
            case .provider: "provider"
            case .satellites: "satellites"
            case .mocked: "mocked"
            case .activity: "activity"
            case .activityConfidence: "activity_confidence"
            case .rejection: "rejection"
            case .filteredLatitude: "filtered_latitude"
            case .filteredLongitude: "filtered_longitude"
            case .speedUsed: "speed_used_mps"
            case .speedSource: "speed_source"
            case .hold: "hold"
            case .motion: "motion"
            case .distanceIncrement: "distance_increment_m"
            case .totalDistance: "total_distance_m"
            case .syncState: "sync_state"
            case .syncStatus: "sync_status"
            case .batchID: "batch_id"
            }
        }

        /// The value an append writes into the column, named as the app gives it (`FixDecision.totalDistanceMetres`):
        /// what ``StoreError/Kind/unstorableValue(index:field:column:)`` names. (The id and the sync's three columns,
        /// which no append is given, by their column names.)
        var field: String {
            switch self {
            case .sessionID: "sessionID"
            case .time: "Fix.timestamp"
            case .latitude: "Fix.latitude"
            case .longitude: "Fix.longitude"
            case .accuracy: "Fix.horizontalAccuracy"
            case .altitude: "Fix.altitudeMetres"
            case .verticalAccuracy: "Fix.verticalAccuracyMetres"
            case .speed: "Fix.speedMetresPerSecond"
            case .speedAccuracy: "Fix.speedAccuracyMetresPerSecond"
            case .course: "Fix.courseDegrees"
            case .courseAccuracy: "Fix.courseAccuracyDegrees"
            case .provider: "Fix.provider"
            case .satellites: "Fix.satellitesUsed"
            case .mocked: "Fix.isMocked"
            case .activity: "Fix.activity.kind"
            case .activityConfidence: "Fix.activity.confidence"
            case .rejection: "FixDecision.rejection"
            case .filteredLatitude: "FixDecision.state.latitude"
            case .filteredLongitude: "FixDecision.state.longitude"
            case .speedUsed: "FixDecision.speedMetresPerSecond"
            case .speedSource: "FixDecision.speedSource"
            case .hold: "FixDecision.hold"
            case .motion: "FixDecision.motion"
            case .distanceIncrement: "FixDecision.distanceIncrementMetres"
            case .totalDistance: "FixDecision.totalDistanceMetres"
            case .id, .syncState, .syncStatus, .batchID: name
            }
        }

        /// Whether the column holds text (or NULL): the session, the provider, the activity and the decision's
        /// verdicts; the others hold numbers (or NULL).
        var isText: Bool {
            switch self {
            case .sessionID, .provider, .activity, .rejection, .speedSource, .hold, .motion: true
            default: false
            }
        }

        /// A decision's nine columns (`rejection` … `total_distance_m`), in the order
        /// ``FixBuffer/bindDecision(of:to:from:)`` binds them.
        static let decision = allCases.filter {
            (Column.rejection.rawValue...Column.totalDistance.rawValue).contains($0.rawValue)
        }
    }
}

extension FixBuffer {
    /// Decodes a row of ``selectSQL``, or names what keeps it from decoding (``DamagedRow``).
    ///
    /// A row decodes when every column holds what an append (or the sync) can write there, and nothing else:
    /// - `time_ms` an integer within the years 0001–9999; `latitude`, `longitude` numbers within ±90° / ±180°;
    /// - `accuracy_m` NULL (none reported), 0 (an invalid one: ``HorizontalAccuracy/invalid`` is written as 0) or a
    ///   finite positive number; `altitude_m` a finite number; `vertical_accuracy_m`, `speed_accuracy_mps`,
    ///   `course_accuracy_deg` finite and 0 or more; `speed_mps` within 0…``Fix/maximumSpeedMetresPerSecond``;
    ///   `course_deg` within 0..<360 (each NULL when absent);
    /// - `provider` a ``Provider``'s name; `satellites` an integer 0 or more, `mocked` 0 or 1 (or NULL); `activity`
    ///   an ``ActivityKind``'s name with `activity_confidence` an integer 0–100, or both NULL;
    /// - the decision's columns all NULL (no decision), or `hold` a ``DistanceHold``, `motion` a
    ///   ``MotionGate/Verdict``, `rejection` and `speed_source` NULL or a ``RejectionReason`` / ``SpeedSource``,
    ///   `filtered_latitude` and `filtered_longitude` both NULL or both on the globe, `speed_used_mps`,
    ///   `distance_increment_m` and `total_distance_m` finite and 0 or more;
    /// - `sync_state` the integer 0, 1 or 2, `sync_status` and `batch_id` integers or NULL.
    ///
    /// Anything else was edited by hand (or a bit flipped) and is damage, named by its column: a `time_ms` of 1.5
    /// read as 1970, a `rejection` of 'bogus' was taken for an accepted fix, an `accuracy_m` of −1 was sent as 0.0,
    /// a `total_distance_m` of −5 was sent as it was. A REAL `sync_state` of 0.0 is damage too (no build writes a
    /// REAL there; the statistics counted it damaged while a sync sent it): a requeue makes it the integer 0.
    func decode(_ s: Statement) -> BufferRow {
        let id = s.int64(.id)
        let syncState = s.int64(.syncState)
        func damaged(_ column: Column, _ reason: String) -> BufferRow {
            .damaged(
                DamagedRow(
                    id: id, column: column.name, reason: reason,
                    isSetAside: syncState == FixBuffer.damagedState && s.isInteger(.syncState)))
        }
        // A number column holding text (a file edited by hand) reads as 0: a latitude 'abc' was sent as 0.0 and
        // the row deleted (a fuzz tester's). Such a row is damaged, as one whose value is out of range.
        // (The fix's columns first, the sync's last: a row named by a sync column has its fix intact,
        // ``DamagedRow/isFixIntact``, which a requeue repairs and drop-damaged keeps.)
        for column in FixBuffer.fixNumberColumns where !s.isNumberOrNull(column) {
            return damaged(column, "\(column.name) holds text or a blob, not a number")
        }
        // A REAL in an integer column is read truncated: a time of 1.5 ms read as 1970 and was sent.
        for column in FixBuffer.fixIntegerColumns where s.isReal(column) {
            return damaged(column, "\(column.name) holds \(s.double(column)), not an integer")
        }
        // NULL in a fix's time or position (possible only through a hand edit of the schema, which declares them
        // NOT NULL) read as 1970 at 0°, 0°, and was sent.
        for column in FixBuffer.requiredColumns where s.isNull(column) {
            return damaged(column, "\(column.name) is NULL: every fix has one")
        }
        // A blob in a text column was read as if it were UTF-8 text, and sent (a session ID of arbitrary bytes).
        for column in FixBuffer.textColumns where s.isBlob(column) {
            return damaged(column, "\(column.name) holds a blob, not text")
        }
        let fix: Fix
        do {
            fix = try Fix(
                timestamp: Timestamp(millisecondsSince1970: s.int64(.time)), latitude: s.double(.latitude),
                longitude: s.double(.longitude), horizontalAccuracyMetres: s.optionalDouble(.accuracy),
                altitudeMetres: s.optionalDouble(.altitude),
                verticalAccuracyMetres: s.optionalDouble(.verticalAccuracy),
                speedMetresPerSecond: s.optionalDouble(.speed),
                speedAccuracyMetresPerSecond: s.optionalDouble(.speedAccuracy),
                courseDegrees: s.optionalDouble(.course), courseAccuracyDegrees: s.optionalDouble(.courseAccuracy),
                provider: Provider(rawValue: s.text(.provider) ?? "") ?? .unknown,
                satellitesUsed: s.optionalInt64(.satellites).map { Int(truncatingIfNeeded: $0) },
                isMocked: s.optionalInt64(.mocked).map { $0 != 0 },
                activity: s.text(.activity).flatMap(ActivityKind.init(rawValue:)).map {
                    ActivityReading(kind: $0, confidence: Int(truncatingIfNeeded: s.int64(.activityConfidence)))
                })
        } catch {
            let column: Column =
                switch error {
                case .timestampOutOfRange: .time
                case .latitudeOutOfRange: .latitude
                case .longitudeOutOfRange: .longitude
                }
            return damaged(column, error.description)
        }
        if let (column, reason) = FixBuffer.valueDamage(in: s) { return damaged(column, reason) }
        for column in FixBuffer.syncColumns where !s.isNumberOrNull(column) {
            return damaged(column, "\(column.name) holds text or a blob, not a number")
        }
        for column in FixBuffer.syncColumns where s.isReal(column) {
            return damaged(column, "\(column.name) holds \(s.double(column)), not an integer")
        }
        guard !s.isNull(.syncState), (0...FixBuffer.damagedState).contains(syncState) else {
            let value = s.isNull(.syncState) ? "NULL" : "\(syncState)"
            return damaged(.syncState, "sync_state \(value) is not a state TrueTrack writes (0, 1 or 2)")
        }
        var decision: StoredDecision?
        if let hold = s.text(.hold).flatMap(DistanceHold.init(rawValue:)) {
            decision = StoredDecision(
                rejection: s.text(.rejection).flatMap(RejectionReason.init(rawValue:)),
                filteredLatitude: s.optionalDouble(.filteredLatitude),
                filteredLongitude: s.optionalDouble(.filteredLongitude),
                speedMetresPerSecond: s.double(.speedUsed),
                speedSource: s.text(.speedSource).flatMap(SpeedSource.init(rawValue:)),
                hold: hold, motion: s.text(.motion).flatMap(MotionGate.Verdict.init(rawValue:)) ?? .uncertain,
                distanceIncrementMetres: s.double(.distanceIncrement),
                totalDistanceMetres: s.double(.totalDistance))
        }
        let state: SyncState
        if syncState == FixBuffer.damagedState {
            state = .damaged
        } else if syncState == 1 {
            state = .rejected(status: Int(truncatingIfNeeded: s.int64(.syncStatus)))
        } else if let batch = s.optionalInt64(.batchID) {
            state = .inFlight(batchID: batch)
        } else {
            state = .pending
        }
        return .fix(BufferedFix(id: id, sessionID: s.text(.sessionID), fix: fix, decision: decision, syncState: state))
    }

    /// The columns of ``selectSQL`` an append (or the sync) writes integers to: a REAL there is damage.
    static let integerColumns: [Column] = [
        .time, .satellites, .mocked, .activityConfidence, .syncState, .syncStatus, .batchID,
    ]

    /// The first of a row's measurement, provider, activity and decision columns holding a value no append writes,
    /// and why; `nil` when every one holds what an append can write (see ``decode(_:)``). The one definition of
    /// those rules: the decoder applies it to a stored row (a ``Statement`` of ``selectSQL`` whose types, time and
    /// position were found sound), an append to each row it is about to write (``WrittenRow``), so that what the
    /// writer stores is never what the reader calls damage.
    static func valueDamage(in s: some RowValues) -> (Column, String)? {
        func number(_ column: Column) -> String { "\(column.name) \(s.double(column))" }
        func outside(_ column: Column, _ range: String) -> (Column, String) {
            (column, "\(number(column)) is not \(range)")
        }
        /// Whether `column` holds `nil` or a value `valid` takes.
        func check(_ column: Column, _ valid: (Double) -> Bool) -> Bool { s.optionalDouble(column).map(valid) ?? true }
        /// The damage of a text column holding no value of `type`, `nil` when it holds one (or NULL and `optional`).
        func name<T: RawRepresentable<String>>(_ column: Column, _ type: T.Type, optional: Bool) -> (Column, String)? {
            guard let text = s.text(column) else {
                return optional ? nil : (column, "\(column.name) is NULL: TrueTrack always writes one")
            }
            guard T(rawValue: text) == nil else { return nil }
            return (column, "\(column.name) '\(text)' is not a value TrueTrack writes there (a \(T.self))")
        }
        let finiteNotNegative = { (value: Double) in value.isFinite && value >= 0 }
        // (An invalid accuracy, ≤ 0 or not finite when reported, is written as 0.)
        guard check(.accuracy, { $0 == 0 || ($0.isFinite && $0 > 0) }) else {
            return outside(.accuracy, "NULL, 0 (an invalid accuracy) or a finite accuracy above 0 m")
        }
        guard check(.altitude, \.isFinite) else { return outside(.altitude, "a finite altitude") }
        for column in [Column.verticalAccuracy, .speedAccuracy, .courseAccuracy] where !check(column, finiteNotNegative)
        {
            return outside(column, "a finite accuracy of 0 or more")
        }
        guard check(.speed, { (0...Fix.maximumSpeedMetresPerSecond).contains($0) }) else {
            return outside(.speed, "a speed within 0...\(Fix.maximumSpeedMetresPerSecond) m/s")
        }
        guard check(.course, { (0..<360).contains($0) }) else { return outside(.course, "a course within 0..<360°") }
        if let damage = name(.provider, Provider.self, optional: false) { return damage }
        if let count = s.optionalInt64(.satellites), count < 0 {
            return (.satellites, "satellites \(count) is not a count of 0 or more")
        }
        if let mocked = s.optionalInt64(.mocked), mocked != 0 && mocked != 1 {
            return (.mocked, "mocked \(mocked) is not 0 or 1")
        }
        if let damage = name(.activity, ActivityKind.self, optional: true) { return damage }
        switch (s.isNull(.activity), s.optionalInt64(.activityConfidence)) {
        case (true, nil): break
        case (true, .some): return (.activityConfidence, "activity_confidence is set without an activity")
        case (false, nil): return (.activityConfidence, "activity_confidence is NULL beside an activity")
        case (false, .some(let confidence)):
            guard (0...100).contains(confidence) else {
                return (.activityConfidence, "activity_confidence \(confidence) is not within 0...100")
            }
        }
        // The decision: all nine NULL (none stored), or all that a tracker's decision holds.
        guard !s.isNull(.hold) else {
            for column in Column.decision where !s.isNull(column) {
                return (column, "\(column.name) is set, but the row has no decision (hold is NULL)")
            }
            return nil
        }
        if let damage = name(.hold, DistanceHold.self, optional: false) { return damage }
        if let damage = name(.motion, MotionGate.Verdict.self, optional: false) { return damage }
        if let damage = name(.rejection, RejectionReason.self, optional: true) { return damage }
        if let damage = name(.speedSource, SpeedSource.self, optional: true) { return damage }
        guard s.isNull(.filteredLatitude) == s.isNull(.filteredLongitude) else {
            let missing: Column = s.isNull(.filteredLatitude) ? .filteredLatitude : .filteredLongitude
            return (missing, "\(missing.name) is NULL beside the other filtered coordinate")
        }
        guard check(.filteredLatitude, { (-90...90).contains($0) }) else {
            return outside(.filteredLatitude, "within ±90°")
        }
        guard check(.filteredLongitude, { (-180...180).contains($0) }) else {
            return outside(.filteredLongitude, "within ±180°")
        }
        for column in [Column.speedUsed, .distanceIncrement, .totalDistance] {
            guard let value = s.optionalDouble(column) else {
                return (column, "\(column.name) is NULL: every decision has one")
            }
            guard finiteNotNegative(value) else { return outside(column, "a finite value of 0 or more") }
        }
        return nil
    }
}

/// What the columns of a ``FixBuffer`` row hold, as ``FixBuffer/valueDamage(in:)`` reads them: a row stored
/// (``Statement``) or one an append is about to write (``WrittenRow``).
protocol RowValues {
    /// Whether `column` is NULL.
    func isNull(_ column: FixBuffer.Column) -> Bool
    /// `column` as a double (0 when NULL).
    func double(_ column: FixBuffer.Column) -> Double
    /// `column` as a double, `nil` when NULL.
    func optionalDouble(_ column: FixBuffer.Column) -> Double?
    /// `column` as an integer, `nil` when NULL.
    func optionalInt64(_ column: FixBuffer.Column) -> Int64?
    /// `column` as text, `nil` when NULL.
    func text(_ column: FixBuffer.Column) -> String?
}

extension Statement: RowValues {}

/// A row as an append writes it: a fix, its decision (if any) and session, each column's value what
/// ``FixBuffer/bind(_:to:)`` binds (it binds these values). Checked with ``FixBuffer/valueDamage(in:)`` before it is written.
struct WrittenRow: RowValues {
    /// A value bound to a parameter.
    enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    /// The fix.
    let fix: Fix
    /// The tracker's decision about it, if stored.
    let decision: FixDecision?
    /// Its session, if any.
    let sessionID: String?

    /// What the append writes into `column` (``Value/null`` for the id and the sync's columns, which it does not
    /// write).
    func value(_ column: FixBuffer.Column) -> Value {
        func real(_ value: Double?) -> Value { value.map(Value.real) ?? .null }
        func text(_ value: String?) -> Value { value.map(Value.text) ?? .null }
        switch column {
        case .id, .syncState, .syncStatus, .batchID: return .null
        case .sessionID: return text(sessionID)
        case .time: return .integer(fix.timestamp.millisecondsSince1970)
        case .latitude: return .real(fix.latitude)
        case .longitude: return .real(fix.longitude)
        case .accuracy:
            switch fix.horizontalAccuracy {
            case .metres(let m): return .real(m)
            case .invalid: return .real(0)
            case .absent: return .null
            }
        case .altitude: return real(fix.altitudeMetres)
        case .verticalAccuracy: return real(fix.verticalAccuracyMetres)
        case .speed: return real(fix.speedMetresPerSecond)
        case .speedAccuracy: return real(fix.speedAccuracyMetresPerSecond)
        case .course: return real(fix.courseDegrees)
        case .courseAccuracy: return real(fix.courseAccuracyDegrees)
        case .provider: return .text(fix.provider.rawValue)
        case .satellites: return fix.satellitesUsed.map { Value.integer(Int64($0)) } ?? .null
        case .mocked: return fix.isMocked.map { Value.integer($0 ? 1 : 0) } ?? .null
        case .activity: return text(fix.activity?.kind.rawValue)
        case .activityConfidence: return fix.activity.map { Value.integer(Int64($0.confidence)) } ?? .null
        default: break
        }
        guard let d = decision else { return .null }
        switch column {
        case .rejection: return text(d.rejection?.rawValue)
        case .filteredLatitude: return real(d.state?.latitude)
        case .filteredLongitude: return real(d.state?.longitude)
        case .speedUsed: return .real(d.speedMetresPerSecond)
        case .speedSource: return text(d.speedSource?.rawValue)
        case .hold: return .text(d.hold.rawValue)
        case .motion: return .text(d.motion.rawValue)
        case .distanceIncrement: return .real(d.distanceIncrementMetres)
        case .totalDistance: return .real(d.totalDistanceMetres)
        default: return .null
        }
    }

    func isNull(_ column: FixBuffer.Column) -> Bool {
        if case .null = value(column) { return true }
        return false
    }

    func double(_ column: FixBuffer.Column) -> Double { optionalDouble(column) ?? 0 }

    func optionalDouble(_ column: FixBuffer.Column) -> Double? {
        switch value(column) {
        case .real(let value): value
        case .integer(let value): Double(value)
        case .null, .text: nil
        }
    }

    func optionalInt64(_ column: FixBuffer.Column) -> Int64? {
        switch value(column) {
        case .integer(let value): value
        case .real(let value): Int64(exactly: value.rounded(.towardZero))
        case .null, .text: nil
        }
    }

    func text(_ column: FixBuffer.Column) -> String? {
        if case .text(let value) = value(column) { return value }
        return nil
    }
}

extension Statement {
    /// Binds `value` to parameter `index`.
    func bind(_ index: Int32, _ value: WrittenRow.Value) {
        switch value {
        case .null: bind(index, nil as Int64?)
        case .integer(let value): bind(index, value)
        case .real(let value): bind(index, value)
        case .text(let value): bind(index, value)
        }
    }

    /// Whether `column` holds a number or NULL (not text or a blob, which reads as 0).
    func isNumberOrNull(_ column: FixBuffer.Column) -> Bool { isNumberOrNull(column.rawValue) }
    /// Whether `column` holds a REAL (not an integer, NULL, text or a blob).
    func isReal(_ column: FixBuffer.Column) -> Bool { sqlite3_column_type(raw, column.rawValue) == SQLITE_FLOAT }
    /// Whether `column` holds an integer.
    func isInteger(_ column: FixBuffer.Column) -> Bool {
        sqlite3_column_type(raw, column.rawValue) == SQLITE_INTEGER
    }
    /// Whether `column` is NULL.
    func isNull(_ column: FixBuffer.Column) -> Bool { isNull(column.rawValue) }
    /// Whether `column` holds a blob.
    func isBlob(_ column: FixBuffer.Column) -> Bool { isBlob(column.rawValue) }
    /// `column` as an integer.
    func int64(_ column: FixBuffer.Column) -> Int64 { int64(column.rawValue) }
    /// `column` as a double.
    func double(_ column: FixBuffer.Column) -> Double { double(column.rawValue) }
    /// `column` as a double, `nil` when NULL.
    func optionalDouble(_ column: FixBuffer.Column) -> Double? { optionalDouble(column.rawValue) }
    /// `column` as an integer, `nil` when NULL.
    func optionalInt64(_ column: FixBuffer.Column) -> Int64? { optionalInt64(column.rawValue) }
    /// `column` as text, `nil` when NULL.
    func text(_ column: FixBuffer.Column) -> String? { text(column.rawValue) }
}
