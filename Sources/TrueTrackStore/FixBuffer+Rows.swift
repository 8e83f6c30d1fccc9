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

        /// Whether the column holds text (or NULL): the session, the provider, the activity and the decision's
        /// verdicts; the others hold numbers (or NULL).
        var isText: Bool {
            switch self {
            case .sessionID, .provider, .activity, .rejection, .speedSource, .hold, .motion: true
            default: false
            }
        }

        /// A decision's nine columns (`rejection` … `total_distance_m`), in the order
        /// ``FixBuffer/bindDecision(_:to:from:)`` binds them.
        static let decision = allCases.filter {
            (Column.rejection.rawValue...Column.totalDistance.rawValue).contains($0.rawValue)
        }
    }
}

extension FixBuffer {
    /// Decodes a row of ``selectSQL``, or names what keeps it from decoding (``DamagedRow``).
    func decode(_ s: Statement) -> BufferRow {
        let id = s.int64(.id)
        let syncState = s.int64(.syncState)
        func damaged(_ column: Column, _ reason: String) -> BufferRow {
            .damaged(
                DamagedRow(
                    id: id, column: column.name, reason: reason,
                    isSetAside: syncState == FixBuffer.damagedState && s.isNumberOrNull(.syncState)))
        }
        // A number column holding text (a file edited by hand) reads as 0: a latitude 'abc' was sent as 0.0 and
        // the row deleted (a fuzz tester's). Such a row is damaged, as one whose value is out of range.
        // (The fix's columns first, the sync's last: a row named by a sync column has its fix intact,
        // ``DamagedRow/isFixIntact``, which a requeue repairs and drop-damaged keeps.)
        for column in FixBuffer.fixNumberColumns where !s.isNumberOrNull(column) {
            return damaged(column, "\(column.name) holds text or a blob, not a number")
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
        for column in FixBuffer.syncColumns where !s.isNumberOrNull(column) {
            return damaged(column, "\(column.name) holds text or a blob, not a number")
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
}

extension Statement {
    /// Whether `column` holds a number or NULL (not text or a blob, which reads as 0).
    func isNumberOrNull(_ column: FixBuffer.Column) -> Bool { isNumberOrNull(column.rawValue) }
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
