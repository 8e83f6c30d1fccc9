import TrueTrackCore

/// The comma-separated fields of one NMEA sentence, located in a single pass that also computes the checksum.
///
/// Field 0 is the address (`GPGGA`); data fields follow. Offsets index the stream's window, so nothing is
/// copied. Only the first ``capacity`` commas are recorded: no sentence this reader interprets uses a field
/// beyond index 18 (GSA's HDOP is field 16), and the rest of a long sentence still counts in the checksum.
struct NMEAFields {
    /// Number of comma positions kept (fields 0…capacity are addressable).
    static let capacity = 20

    /// Index of the first byte of field 0 (just after `$`).
    var bodyStart: Int = 0
    /// Index one past the last byte of the last field (the `*`, or the end of the sentence without checksum).
    var bodyEnd: Int = 0
    /// Positions of the first ``capacity`` commas.
    var commas = InlineArray<20, Int>(repeating: 0)
    /// Number of commas in the sentence (may exceed ``capacity``).
    var commaCount: Int = 0

    /// The bounds of field `index`; a field past the end of the sentence is empty (`start == end`).
    @inline(__always)
    func bounds(_ index: Int) -> (start: Int, end: Int) {
        if index > commaCount || index > NMEAFields.capacity { return (bodyEnd, bodyEnd) }
        let start = index == 0 ? bodyStart : commas[index - 1] + 1
        let end = index < commaCount && index < NMEAFields.capacity ? commas[index] : bodyEnd
        return (start, end)
    }
}

/// Pure field parsers of NMEA 0183 text (no state, no allocation). Each returns `nil` for an empty field and
/// throws nothing: callers turn a `.malformed` result into a ``ReadError`` with the field's location.
enum NMEAParse {
    /// The outcome of parsing a field that may be empty.
    enum Outcome<Value> {
        /// The field is empty (or only spaces): the value is absent.
        case empty
        /// The field holds a valid value.
        case value(Value)
        /// The field holds text that is not a valid value.
        case malformed
    }

    /// Milliseconds per day.
    static let dayMilliseconds: Int64 = 86_400_000

    /// True when `p[start..<end]` holds only spaces (or nothing).
    @inline(__always)
    static func isBlank(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            if p[i] != 0x20 { return false }
            i += 1
        }
        return true
    }

    /// A UTC time of day `hhmmss[.s…]` in milliseconds since midnight (0…86 400 999; a leap second `60`
    /// lands on the next minute). Fractions are rounded to the nearest millisecond (SPAN truth is 10 Hz,
    /// SiRF writes `.810`).
    static func timeOfDay(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Int64> {
        if isBlank(p, start, end) { return .empty }
        guard end - start >= 6 else { return .malformed }
        var digits = (0, 0, 0, 0, 0, 0)
        for k in 0..<6 {
            let d = Int(p[start + k]) &- 48
            guard d >= 0, d <= 9 else { return .malformed }
            switch k {
            case 0: digits.0 = d
            case 1: digits.1 = d
            case 2: digits.2 = d
            case 3: digits.3 = d
            case 4: digits.4 = d
            default: digits.5 = d
            }
        }
        let hour = digits.0 * 10 + digits.1
        let minute = digits.2 * 10 + digits.3
        let second = digits.4 * 10 + digits.5
        guard hour < 24, minute < 60, second <= 60 else { return .malformed }
        var millisecond = 0
        var i = start + 6
        if i < end {
            guard p[i] == UInt8(ascii: ".") else { return .malformed }
            i += 1
            var count = 0
            var roundUp = false
            while i < end {
                let d = Int(p[i]) &- 48
                guard d >= 0, d <= 9 else { return .malformed }
                if count < 3 { millisecond = millisecond * 10 + d } else if count == 3 { roundUp = d >= 5 }
                count += 1
                i += 1
            }
            if count == 1 { millisecond *= 100 } else if count == 2 { millisecond *= 10 }
            if roundUp { millisecond += 1 }
        }
        return .value(Int64((hour * 3600 + minute * 60 + second) * 1000 + millisecond))
    }

    /// A date `ddmmyy` as days since 1970-01-01. Two-digit years 80–99 are 1980–1999 (GPS began in 1980),
    /// 00–79 are 2000–2079.
    static func date(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Int64> {
        if isBlank(p, start, end) { return .empty }
        guard end - start == 6 else { return .malformed }
        var day = 0, month = 0, year = 0
        for k in 0..<6 {
            let d = Int(p[start + k]) &- 48
            guard d >= 0, d <= 9 else { return .malformed }
            switch k / 2 {
            case 0: day = day * 10 + d
            case 1: month = month * 10 + d
            default: year = year * 10 + d
            }
        }
        year += year >= 80 ? 1900 : 2000
        guard CivilTime.isValidDate(year: year, month: month, day: day) else { return .malformed }
        return .value(Int64(CivilTime.daysSince1970(year: year, month: month, day: day)))
    }

    /// An angle written `[d]ddmm.mmmm` (latitude) or `dddmm.mmmm` (longitude) in degrees, signed by the
    /// hemisphere letter (`S`, `W` negative). Degrees are read as an integer and minutes as a decimal, so the
    /// conversion rounds once. Minutes must be below 60; the hemisphere must be one of `positive`/`negative`.
    static func angle(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
                      hemisphereStart: Int, hemisphereEnd: Int,
                      positive: UInt8, negative: UInt8) -> Outcome<Double> {
        if isBlank(p, start, end) { return .empty }
        var s = start
        var e = end
        while s < e, p[s] == 0x20 { s += 1 }
        while e > s, p[e - 1] == 0x20 { e -= 1 }
        var dot = s
        while dot < e, p[dot] != UInt8(ascii: ".") { dot += 1 }
        let minutesStart = dot - 2
        guard minutesStart >= s, minutesStart - s <= 3 else { return .malformed }
        var degrees = 0
        var i = s
        while i < minutesStart {
            let d = Int(p[i]) &- 48
            guard d >= 0, d <= 9 else { return .malformed }
            degrees = degrees * 10 + d
            i += 1
        }
        // Minutes: two digits, then an optional fraction of digits only (no sign, no exponent).
        var k = minutesStart
        while k < e {
            if k != dot {
                let d = p[k] &- 48
                guard d < 10 else { return .malformed }
            }
            k += 1
        }
        guard let minutes = NumberParsing.double(p, minutesStart, e), minutes < 60 else { return .malformed }
        var value = Double(degrees) + minutes / 60
        // Hemisphere
        var hs = hemisphereStart
        var he = hemisphereEnd
        while hs < he, p[hs] == 0x20 { hs += 1 }
        while he > hs, p[he - 1] == 0x20 { he -= 1 }
        guard he - hs == 1 else { return .malformed }
        let letter = p[hs]
        if letter == negative {
            value = -value
        } else if letter != positive {
            return .malformed
        }
        return .value(value)
    }

    /// A decimal number (`NumberParsing.double` rules).
    @inline(__always)
    static func number(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Double> {
        if start == end { return .empty }
        if let v = NumberParsing.double(p, start, end) { return .value(v) }
        return isBlank(p, start, end) ? .empty : .malformed
    }

    /// A non-negative integer (satellite count, fix quality).
    @inline(__always)
    static func count(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Int> {
        if start == end { return .empty }
        if let v = NumberParsing.int(p, start, end), v >= 0, v < 1_000_000 { return .value(Int(v)) }
        return isBlank(p, start, end) ? .empty : .malformed
    }

    /// The single letter of a one-character field (status, mode), `0` when empty, `nil` when longer.
    @inline(__always)
    static func letter(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> UInt8? {
        var s = start
        var e = end
        while s < e, p[s] == 0x20 { s += 1 }
        while e > s, p[e - 1] == 0x20 { e -= 1 }
        if s == e { return 0 }
        return e - s == 1 ? p[s] : nil
    }

    /// The instant (Unix milliseconds) with time of day `timeOfDay` nearest to `reference`: the day of the
    /// reference, the day before or the day after. This is how a GGA-only epoch gets a date, and how a clock
    /// passing midnight (`235959` → `000000`) moves to the next day.
    static func nearestInstant(timeOfDay: Int64, reference: Int64) -> Int64 {
        let day = reference >= 0 ? reference / dayMilliseconds : (reference - dayMilliseconds + 1) / dayMilliseconds
        var candidate = day * dayMilliseconds + timeOfDay
        if candidate - reference > dayMilliseconds / 2 {
            candidate -= dayMilliseconds
        } else if reference - candidate > dayMilliseconds / 2 {
            candidate += dayMilliseconds
        }
        return candidate
    }
}
