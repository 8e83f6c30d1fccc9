import TrueTrackCore

/// Storage for the comma positions of the sentence being read, allocated once per reader.
///
/// A class only because it owns memory: keeping the positions out of line makes ``NMEAFields`` a four-word
/// value that is passed around without the 160-byte copies an inline array costs on every call.
final class NMEAFieldStorage {
    /// The comma positions (``NMEAFields/capacity`` of them, plus one slot for the body's end).
    let commas: UnsafeMutablePointer<Int>

    init() {
        commas = .allocate(capacity: NMEAFields.capacity + 1)
        commas.initialize(repeating: 0, count: NMEAFields.capacity + 1)
    }

    deinit {
        commas.deallocate()
    }
}

/// The comma-separated fields of one NMEA sentence, located in a single pass that also computes the checksum.
///
/// Field 0 is the address (`GPGGA`); data fields follow. Offsets index the stream's window, so nothing is
/// copied. Only the first ``capacity`` commas are recorded: no sentence this reader interprets uses a field
/// beyond index 18 (GSA's HDOP is field 16), and the rest of a long sentence still counts in the checksum.
struct NMEAFields {
    /// Number of comma positions kept (fields 0…capacity are addressable).
    static let capacity = 20

    /// Positions of the first ``capacity`` commas, then the body's end in every remaining slot up to and
    /// including index ``capacity`` (owned by a ``NMEAFieldStorage``).
    let commas: UnsafeMutablePointer<Int>
    /// Index of the first byte of field 0 (just after `$`).
    var bodyStart: Int = 0
    /// Index one past the last byte of the last field (the `*`, or the end of the sentence without checksum).
    var bodyEnd: Int = 0
    /// Number of commas in the sentence (may exceed ``capacity``).
    var commaCount: Int = 0

    /// Records the commas of `base[start..<end]` (the sentence body between `$` and `*`) and returns the XOR
    /// of its bytes, the NMEA checksum. Eight bytes at a time: the XOR of the words folds to the XOR of the
    /// bytes, and a comma byte is found with the exact zero-byte test on `word ^ 0x2C2C…`.
    @inline(__always)
    static func scan(_ base: UnsafeRawPointer, from start: Int, to end: Int, into fields: inout NMEAFields) -> UInt8 {
        let commas = fields.commas
        var accumulator: UInt64 = 0
        var count = 0
        var i = start
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while i &+ 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            accumulator ^= word
            let x = word ^ 0x2C2C_2C2C_2C2C_2C2C
            var mask = ~(((x & low) &+ low) | x | low)
            while mask != 0 {
                if count < capacity { commas[count] = i &+ (mask.trailingZeroBitCount &>> 3) }
                count &+= 1
                mask &= mask &- 1
            }
            i &+= 8
        }
        var tail: UInt8 = 0
        while i < end {
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            tail ^= byte
            if byte == 0x2C {
                if count < capacity { commas[count] = i }
                count &+= 1
            }
            i &+= 1
        }
        // Slots past the last comma hold the body's end, so that `bounds` needs no branch on the count.
        var k = min(count, capacity)
        while k <= capacity {
            commas[k] = end
            k &+= 1
        }
        accumulator ^= accumulator &>> 32
        accumulator ^= accumulator &>> 16
        accumulator ^= accumulator &>> 8
        fields.bodyStart = start
        fields.bodyEnd = end
        fields.commaCount = count
        return UInt8(truncatingIfNeeded: accumulator) ^ tail
    }

    /// The bounds of field `index`; a field past the end of the sentence is empty (`start == end`).
    /// Fields past ``capacity`` read as empty.
    @inline(__always)
    func bounds(_ index: Int) -> (start: Int, end: Int) {
        if index == 0 { return (bodyStart, commas[0]) }
        guard index <= NMEAFields.capacity else { return (bodyEnd, bodyEnd) }
        let end = commas[index]
        return (Swift.min(commas[index &- 1] &+ 1, end), end)
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
        /// The field holds a number but no finite one (`nan`, `inf`, `1e400`): only ``number(_:_:_:)`` says this,
        /// from its slow path (its fast path's decimals are finite), so that the check costs the common number nothing.
        case nonFinite
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

    /// A UTC time of day `hhmmss[.s…]` in milliseconds since midnight (0…86 399 999; a leap second `60`, with any
    /// fraction, reads as `59.999`: on the next minute's first second, as before, it took the real `000000`'s place and
    /// that fix was lost as out of order, as ``Timestamp/init(civil:)`` reads it). Fractions are rounded to the nearest
    /// millisecond (SPAN truth is 10 Hz, SiRF writes `.810`).
    static func timeOfDay(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Int64> {
        if start == end { return .empty }
        guard end - start >= 6 else { return isBlank(p, start, end) ? .empty : .malformed }
        let h0 = p[start] &- 48, h1 = p[start &+ 1] &- 48, m0 = p[start &+ 2] &- 48
        let m1 = p[start &+ 3] &- 48, s0 = p[start &+ 4] &- 48, s1 = p[start &+ 5] &- 48
        guard h0 < 10, h1 < 10, m0 < 10, m1 < 10, s0 < 10, s1 < 10 else {
            return isBlank(p, start, end) ? .empty : .malformed
        }
        let hour = Int(h0) * 10 + Int(h1)
        let minute = Int(m0) * 10 + Int(m1)
        let second = Int(s0) * 10 + Int(s1)
        guard hour < 24, minute < 60, second <= 60 else { return .malformed }
        // (A leap second's fraction still has to be digits.)
        guard let millisecond = fractionMilliseconds(p, start &+ 6, end) else { return .malformed }
        if second == 60 { return .value(Int64((hour * 3600 + minute * 60 + 59) * 1000 + 999)) }
        return .value(Int64((hour * 3600 + minute * 60 + second) * 1000 + millisecond))
    }

    /// The optional fraction `.d…` of a time of day at `p[start..<end]` in milliseconds, rounded to the nearest
    /// millisecond (so `.9996` gives 1000); 0 when there is none, `nil` when it is not a dot followed by digits.
    @inline(__always)
    static func fractionMilliseconds(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Int? {
        var millisecond = 0
        var i = start
        if i < end {
            guard p[i] == UInt8(ascii: ".") else { return nil }
            i &+= 1
            var count = 0
            var roundUp = false
            while i < end {
                let d = p[i] &- 48
                guard d < 10 else { return nil }
                if count < 3 { millisecond = millisecond &* 10 &+ Int(d) } else if count == 3 { roundUp = d >= 5 }
                count &+= 1
                i &+= 1
            }
            if count == 1 { millisecond *= 100 } else if count == 2 { millisecond *= 10 }
            if roundUp { millisecond += 1 }
        }
        return millisecond
    }

    /// A date `ddmmyy` as days since 1970-01-01. Two-digit years 80–99 are 1980–1999 (GPS began in 1980),
    /// 00–79 are 2000–2079. `000000` is no date (`.empty`): receivers that do not know the date yet (after a cold
    /// start, before the almanac) write it so; read as malformed it ended a formats tester's log at its first one.
    static func date(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Int64> {
        if isBlank(p, start, end) { return .empty }
        guard end - start == 6 else { return .malformed }
        if (0..<6).allSatisfy({ p[start + $0] == UInt8(ascii: "0") }) { return .empty }
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
        year = CivilTime.year(twoDigits: year)
        guard CivilTime.isValidDate(year: year, month: month, day: day) else { return .malformed }
        return .value(Int64(CivilTime.daysSince1970(year: year, month: month, day: day)))
    }

    /// An unsigned integer written with a number of decimal digits in `digitCount` and nothing else (ZDA's
    /// day, month and year).
    static func digits(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int, digitCount: ClosedRange<Int>)
        -> Outcome<Int>
    {
        if isBlank(p, start, end) { return .empty }
        guard digitCount.contains(end - start) else { return .malformed }
        var value = 0
        for k in start..<end {
            let d = p[k] &- 48
            guard d < 10 else { return .malformed }
            value = value * 10 + Int(d)
        }
        return .value(value)
    }

    /// Reads `digits[.digits]` from `p[start..<end]` as an integer significand and digit counts; `nil` when
    /// the text is anything else or has more than 15 digits (then the general parser decides).
    /// (An eight-bytes-at-a-time version measured slower: NMEA's digit runs are mostly 2 to 7 long.)
    @inline(__always)
    static func plainDecimal(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int)
        -> (significand: UInt64, integerDigits: Int, fractionDigits: Int)?
    {
        var i = start
        var significand: UInt64 = 0
        while i < end {
            let d = p[i] &- 48
            guard d < 10 else { break }
            significand = significand &* 10 &+ UInt64(d)
            i &+= 1
        }
        let integerDigits = i &- start
        var fractionDigits = 0
        if i < end {
            guard p[i] == UInt8(ascii: ".") else { return nil }
            i &+= 1
            let fractionStart = i
            while i < end {
                let d = p[i] &- 48
                guard d < 10 else { return nil }
                significand = significand &* 10 &+ UInt64(d)
                i &+= 1
            }
            fractionDigits = end &- fractionStart
        }
        guard integerDigits &+ fractionDigits > 0, integerDigits &+ fractionDigits <= 15 else { return nil }
        return (significand, integerDigits, fractionDigits)
    }

    /// An angle written `[d]ddmm.mmmm` (latitude) or `dddmm.mmmm` (longitude) in degrees, signed by the
    /// hemisphere letter (`S`, `W` negative). Degrees and minutes are split as integers, so the minutes are
    /// the correctly rounded value of their text and the conversion rounds once more. Minutes must be below
    /// 60; the hemisphere must be one of `positive`/`negative`.
    static func angle(
        _ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int,
        hemisphereStart: Int, hemisphereEnd: Int,
        positive: UInt8, negative: UInt8
    ) -> Outcome<Double> {
        if start == end { return .empty }
        var s = start
        var e = end
        while s < e, p[s] == 0x20 { s &+= 1 }
        while e > s, p[e &- 1] == 0x20 { e &-= 1 }
        if s == e { return .empty }
        guard let decimal = plainDecimal(p, s, e), decimal.integerDigits >= 2, decimal.integerDigits <= 5 else {
            return .malformed
        }
        let scale = NumberParsing.exactPowerOfTen(decimal.fractionDigits)
        let unit = UInt64(scale) &* 100  // one degree in units of the last digit
        let degrees = decimal.significand / unit
        let minuteUnits = decimal.significand % unit
        let minutes = Double(minuteUnits) / scale
        guard minutes < 60 else { return .malformed }
        var value = Double(degrees) + minutes / 60
        // Hemisphere
        var hs = hemisphereStart
        var he = hemisphereEnd
        if he - hs != 1 {
            while hs < he, p[hs] == 0x20 { hs &+= 1 }
            while he > hs, p[he &- 1] == 0x20 { he &-= 1 }
            guard he - hs == 1 else { return .malformed }
        }
        let letter = p[hs]
        if letter == negative {
            value = -value
        } else if letter != positive {
            return .malformed
        }
        return .value(value)
    }

    /// A decimal number: `[-]digits[.digits]` on a fast path (exact: one IEEE division of exact operands,
    /// as `strtod` rounds), anything else (spaces, exponent, `+`) through `NumberParsing.double`.
    @inline(__always)
    static func number(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Double> {
        if start == end { return .empty }
        var s = start
        let negative = p[s] == UInt8(ascii: "-")
        if negative { s &+= 1 }
        if let decimal = plainDecimal(p, s, end) {
            let value = Double(decimal.significand) / NumberParsing.exactPowerOfTen(decimal.fractionDigits)
            return .value(negative ? -value : value)
        }
        if let v = NumberParsing.double(p, start, end) { return v.isFinite ? .value(v) : .nonFinite }
        return isBlank(p, start, end) ? .empty : .malformed
    }

    /// A non-negative integer (satellite count, fix quality).
    @inline(__always)
    static func count(_ p: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Outcome<Int> {
        if start == end { return .empty }
        if end - start <= 2 {
            let a = p[start] &- 48
            if end - start == 1, a < 10 { return .value(Int(a)) }
            if end - start == 2, a < 10 {
                let b = p[start &+ 1] &- 48
                if b < 10 { return .value(Int(a) * 10 + Int(b)) }
            }
        }
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
