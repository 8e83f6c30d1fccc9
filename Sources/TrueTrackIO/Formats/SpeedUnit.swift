/// Metres per second in one unit of the speeds the formats write in other units: NMEA's and Traccar's knots, the
/// km/h of GPS loggers' CSV exports and OwnTracks, and mph. One definition for every reader.
enum SpeedUnit {
    /// A knot is one nautical mile (1,852 m) an hour.
    static let metresPerSecondPerKnot = 1852.0 / 3600
    /// A kilometre an hour.
    static let metresPerSecondPerKilometrePerHour = 1 / 3.6
    /// A mile (1,609.344 m) an hour.
    static let metresPerSecondPerMilePerHour = 0.447_04
}
