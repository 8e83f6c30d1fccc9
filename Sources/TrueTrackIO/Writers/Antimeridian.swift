/// Where a line crosses the antimeridian, for writers of GeoJSON lines (RFC 7946 §3.1.9: a geometry crossing it
/// SHOULD be cut in two, so that no part of it crosses; a map otherwise draws a step from 179.99998° to
/// −179.99998° as a line around the globe).
///
/// A step between two consecutive positions crosses when their longitudes differ by more than 180°: the short
/// way between them goes over ±180. The crossing is taken on the straight step in the unwrapped longitude (the
/// second position's longitude moved by 360° to the first one's side), which is what a step between two fixes
/// of a track, a few metres, is: its latitude is interpolated linearly at ±180. The part before the cut ends
/// there on the first position's side (`180` east, `−180` west), the part after it starts on the other side.
public enum Antimeridian {
    /// The cut of one step across the antimeridian.
    public struct Crossing: Sendable, Hashable {
        /// The longitude the part before the cut ends at: `180` when the step goes east over the antimeridian
        /// (179° → −179°), `−180` when it goes west (−179° → 179°).
        public var endLongitude: Double
        /// The latitude where the step meets ±180.
        public var latitude: Double
        /// How far along the step the crossing lies, 0…1 (in unwrapped longitude): what a value measured at
        /// both ends, such as an altitude, is interpolated with.
        public var fraction: Double

        /// The longitude the part after the cut starts at: the other side of the antimeridian.
        public var startLongitude: Double { -endLongitude }

        /// Creates a crossing.
        public init(endLongitude: Double, latitude: Double, fraction: Double) {
            self.endLongitude = endLongitude
            self.latitude = latitude
            self.fraction = fraction
        }
    }

    /// Whether the step from longitude `from` to longitude `to` (degrees, −180…180) crosses the antimeridian:
    /// they differ by more than 180°.
    @inlinable
    public static func crosses(from: Double, to: Double) -> Bool {
        abs(to - from) > 180
    }

    /// The crossing of the step from (`fromLatitude`, `fromLongitude`) to (`toLatitude`, `toLongitude`)
    /// (degrees, longitudes −180…180), or `nil` when it does not cross (``crosses(from:to:)``).
    ///
    /// A step whose two ends lie on the antimeridian, written once as `180` and once as `−180` (a track along
    /// it), is cut at its first end: the part after the cut runs along `−180` (or `180`) from there.
    ///
    /// Example: from (10°, 179°) to (12°, −179°) the unwrapped step runs from 179° to 181°, half of it before
    /// 180°: the crossing is at latitude 11°, the first part ends at (11°, 180°), the second starts at
    /// (11°, −180°).
    public static func crossing(
        fromLatitude: Double, fromLongitude: Double, toLatitude: Double, toLongitude: Double
    ) -> Crossing? {
        guard crosses(from: fromLongitude, to: toLongitude) else { return nil }
        // Eastwards over 180 (179 → −179) when the step starts east of the other end; westwards otherwise.
        let end: Double = fromLongitude > toLongitude ? 180 : -180
        let unwrapped = toLongitude + 2 * end
        let span = unwrapped - fromLongitude
        let fraction = span == 0 ? 0 : (end - fromLongitude) / span
        return Crossing(
            endLongitude: end, latitude: fromLatitude + fraction * (toLatitude - fromLatitude), fraction: fraction)
    }
}
