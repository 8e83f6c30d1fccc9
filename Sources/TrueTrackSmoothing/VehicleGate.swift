import TrueTrackCore

/// Which steps of a smoothed track moved like a vehicle and so are not the profile's travel: the whole-track
/// form of the forward filter's vehicle latch (``DistanceHold/vehicle``). Configure it through
/// ``SmoothingOptions/vehicleGate``; the smoother applies it.
///
/// Without it a walk smoothed with the walking profile counted every ride in it (GeoLife's walk–taxi–bus day:
/// 9,767.7 m smoothed against 668.7 m forward, with a 1σ of 61,932 m from the five-hour gap between the rides).
/// The rule, judged on the smoothed track with the whole track at hand:
/// 1. **Fast**: a step is fast when the window of ``windowSeconds`` centred on it (reaching at least half its
///    length on each side, as ``StillnessGate``'s does, within the step's segment, and spanning at least half
///    its length) has a net speed above ``maximumSustainedSpeedMetresPerSecond``, or when a fix of either of
///    its states confidently reads an excluded `in vehicle` activity (``readsVehicle(_:)``).
/// 2. **Slow spells inside a ride**: the steps between two fast steps belong to the ride when the spell lasts
///    less than ``exitSeconds`` (a bus stop, a traffic light, a crawl in traffic), gaps included: the forward
///    latch likewise needs that long a slow spell to end a ride. A spell at least that long is travel of the
///    profile's own (the walk after leaving the bus), and so is a slow spell before the first ride or after
///    the last (the forward filter gives up an unfinished spell at the end of a track; the smoother has the
///    fixes after it and keeps the walk that ends a recording).
/// 3. **Gaps**: the chord across a gap that splits the track is a ride's when the step before or after it is.
///
/// A ride's steps add nothing to ``SmoothedTrack/distanceMetres`` and nothing to its σ: their length is
/// reported as ``SmoothedTrack/vehicleLengthMetres``.
public struct VehicleGate: Sendable, Hashable {
    /// The window's length, seconds. From ``TrackingProfile/windowSeconds``.
    public var windowSeconds: Double
    /// A window whose net speed exceeds this is a vehicle's, m/s. From
    /// ``TrackingProfile/maximumSustainedSpeedMetresPerSecond``.
    public var maximumSustainedSpeedMetresPerSecond: Double
    /// A slow spell between two fast stretches shorter than this belongs to the ride, seconds. From
    /// ``TrackingProfile/vehicleExitSeconds``.
    public var exitSeconds: Double
    /// Whether a confident `in vehicle` reading marks a ride: the profile excludes ``ActivityKind/inVehicle``.
    public var excludesInVehicleReadings: Bool
    /// The confidence (0–100) from which a reading counts. From ``TrackingProfile/activityConfidenceThreshold``.
    public var activityConfidenceThreshold: Int

    /// The gate with the forward filter's values for `profile` (see each property), or `nil` when the
    /// profile has no vehicle rule (driving and cycling: no sustained-speed limit; or ``TrackingProfile/vehicleExitSeconds``
    /// 0, the latch turned off).
    public init?(profile: TrackingProfile) {
        guard profile.maximumSustainedSpeedMetresPerSecond.isFinite, profile.vehicleExitSeconds > 0 else {
            return nil
        }
        windowSeconds = profile.windowSeconds
        maximumSustainedSpeedMetresPerSecond = profile.maximumSustainedSpeedMetresPerSecond
        exitSeconds = profile.vehicleExitSeconds
        excludesInVehicleReadings = profile.excludedActivities.contains(.inVehicle)
        activityConfidenceThreshold = profile.activityConfidenceThreshold
    }

    /// Whether `fix` confidently reads an excluded `in vehicle` activity.
    func readsVehicle(_ fix: Fix) -> Bool {
        guard excludesInVehicleReadings, let reading = fix.activity else { return false }
        return reading.kind == .inVehicle && Int(reading.confidence) >= activityConfidenceThreshold
    }

    /// For each state `s ≥ 1`, whether the step from state `s − 1` into it belongs to a ride (index 0 is
    /// always `false`).
    ///
    /// - Parameters:
    ///   - times: the state times, seconds, ascending.
    ///   - opensSegment: whether each state opens a segment (the step into it crosses a gap).
    ///   - x: the solution, east and north columns of `order` rows each (state s at rows 2s).
    ///   - readsVehicle: whether a fix of each state reads `in vehicle` (see ``readsVehicle(_:)``).
    /// - Complexity: O(n): the window edges only move forward; no allocation but the result.
    func vehicleSteps(
        times: [Double], opensSegment: [Bool], solution x: [Double], order: Int, readsVehicle: [Bool]
    ) -> [Bool] {
        let n = times.count
        var vehicle = [Bool](repeating: false, count: n)
        guard n > 1 else { return vehicle }
        let half = windowSeconds / 2
        var segmentStart = 0
        var low = 0, high = 0
        for s in 1..<n {
            if opensSegment[s] {
                segmentStart = s
                low = s
                high = s
                continue
            }
            if readsVehicle[s] || readsVehicle[s - 1] {
                vehicle[s] = true
                continue
            }
            let middle = (times[s - 1] + times[s]) / 2
            low = max(low, segmentStart)
            while low < s - 1 && times[low + 1] <= middle - half { low += 1 }
            high = max(high, s)
            while high + 1 < n && !opensSegment[high + 1] && times[high] < middle + half { high += 1 }
            let seconds = times[high] - times[low]
            guard seconds >= half else { continue }
            let de = x[2 * high] - x[2 * low], dn = x[order + 2 * high] - x[order + 2 * low]
            let limit = maximumSustainedSpeedMetresPerSecond * seconds
            vehicle[s] = de * de + dn * dn > limit * limit
        }
        // Slow spells between two fast steps: the ride's when shorter than `exitSeconds` (from the end of the
        // fast step before, state s − 1 of the spell's first step, to the start of the fast step after).
        var lastFast = -1
        for s in 1..<n where vehicle[s] {
            if lastFast >= 0, s > lastFast + 1, times[s - 1] - times[lastFast] < exitSeconds {
                for t in (lastFast + 1)..<s { vehicle[t] = true }
            }
            lastFast = s
        }
        // The chord across a gap is the ride's when the step before or after it is.
        for s in 1..<n where opensSegment[s] && !vehicle[s] {
            vehicle[s] = (s >= 2 && vehicle[s - 1]) || (s + 1 < n && !opensSegment[s + 1] && vehicle[s + 1])
        }
        return vehicle
    }
}
