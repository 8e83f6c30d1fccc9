import TrueTrackCore

/// Fused scan-and-parse fast paths for ``CSVReader``'s hot loop.
///
/// Each function starts at a field's first byte, consumes the value and stops at the first byte that
/// cannot continue it, leaving the index there; the caller then checks that this byte ends the field (a
/// delimiter, `\r` or `\n`). A function returns `nil` ("declined") for anything outside its fast layout,
/// and the caller re-reads the field with the general parsers (``NumberParsing``, ``ISO8601``), which
/// define the accepted syntax; so the fast paths change speed, never results.
///
/// Memory safety rests on one invariant kept by the reader: the bytes scanned are followed, before the end
/// of the buffer, by a `\n`, and no loop here continues past a `\n` (it is neither a digit, a sign, a `.`,
/// nor any byte an ISO 8601 time can hold).
enum CSVScan {

    /// 10^k as an integer, 0 ≤ k ≤ 8.
    @inline(__always)
    static func integerPowerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// A plain decimal `[+-]digits[.digits]` with at most 7 integer digits and 19 digits in all: Clinger's
    /// exact fast path (the significand and the power of ten are exact doubles, so one division rounds
    /// correctly, exactly as `strtod` and ``NumberParsing/double(_:_:_:)`` do). Digits are read eight at a
    /// time (SWAR), which needs 40 readable bytes from the field start before `safeEnd`, the end of the
    /// buffer's memory. Declines anything else (exponents, long significands, empty or sign-only text).
    @_transparent
    static func number(_ p: UnsafePointer<UInt8>, _ index: inout Int, safeEnd: Int) -> Double? {
        var i = index
        guard i + 40 <= safeEnd else { return numberBytewise(p, &index) }
        var negative = false
        let first = p[i]
        if first == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if first == UInt8(ascii: "+") {
            i += 1
        }
        let raw = UnsafeRawPointer(p)
        var x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x3030_3030_3030_3030
        var count = SWARDigits.leadingDigitCount(x)
        guard count < 8 else { return nil }
        var mantissa = SWARDigits.value(x, count: count)
        var digits = count
        i += count
        var fractionDigits = 0
        if p[i] == UInt8(ascii: ".") {
            i += 1
            // At most 19 digits in all, so at most 3 blocks after the point, read from index + 25 at the latest.
            repeat {
                x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x3030_3030_3030_3030
                count = SWARDigits.leadingDigitCount(x)
                digits += count
                guard digits <= 19 else { return nil }
                mantissa = mantissa &* integerPowerOfTen(count) &+ SWARDigits.value(x, count: count)
                fractionDigits += count
                i += count
            } while count == 8
        }
        guard digits > 0, mantissa <= 1 << 53 else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= NumberParsing.exactPowerOfTen(fractionDigits) }
        index = i
        return negative ? -value : value
    }

    /// ``number(_:_:safeEnd:)`` one byte at a time, for fields near the end of the buffer's memory.
    @inline(never)
    static func numberBytewise(_ p: UnsafePointer<UInt8>, _ index: inout Int) -> Double? {
        var i = index
        var negative = false
        let first = p[i]
        if first == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if first == UInt8(ascii: "+") {
            i += 1
        }
        var mantissa: UInt64 = 0
        let integerStart = i
        while true {
            let d = p[i] &- 48
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            i += 1
        }
        var digits = i - integerStart
        var fractionDigits = 0
        if p[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while true {
                let d = p[i] &- 48
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                i += 1
            }
            fractionDigits = i - fractionStart
            digits += fractionDigits
        }
        guard digits > 0, digits <= 19, mantissa <= 1 << 53, fractionDigits <= 22 else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= NumberParsing.exactPowerOfTen(fractionDigits) }
        index = i
        return negative ? -value : value
    }

    /// The valid range of times, in Unix milliseconds (``Timestamp/representableMilliseconds``: the years
    /// ISO 8601 text can carry, so every fix read can be written back).
    static var earliestMilliseconds: Int64 { Timestamp.representableMilliseconds.lowerBound }
    /// One past the latest valid time (10000-01-01T00:00:00Z), in Unix milliseconds.
    static var endMilliseconds: Int64 { Timestamp.representableMilliseconds.upperBound }

    /// A Unix or GPS time written as `[+-]digits[.digits]`, converted exactly (decimal arithmetic, no
    /// floating point) to milliseconds in the same time scale, rounding half away from zero. Declines
    /// exponents, more than 18 integer digits, and fractions of micro- and nanosecond counts.
    @_transparent
    static func epochMilliseconds(
        _ p: UnsafePointer<UInt8>, _ index: inout Int,
        _ encoding: CSVTimeEncoding, safeEnd: Int
    ) -> Int64? {
        var i = index
        var negative = false
        if p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if p[i] == UInt8(ascii: "+") {
            i += 1
        }
        let integerStart = i
        var whole: Int64 = 0
        if i + 32 <= safeEnd {
            // Eight digits at a time (SWAR), at most three blocks (18 digits are allowed).
            let raw = UnsafeRawPointer(p)
            var count = 8
            var blocks = 0
            while count == 8 && blocks < 3 {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x3030_3030_3030_3030
                count = SWARDigits.leadingDigitCount(x)
                whole = whole &* Int64(integerPowerOfTen(count)) &+ Int64(SWARDigits.value(x, count: count))
                i += count
                blocks += 1
            }
        } else {
            while true {
                let d = p[i] &- 48
                if d >= 10 { break }
                whole = whole &* 10 &+ Int64(d)
                i += 1
            }
        }
        let integerDigits = i - integerStart
        guard integerDigits <= 18 else { return nil }
        var fraction: Int64 = 0  // the first three fraction digits, as milliseconds of a second
        var roundUp = false  // the fourth fraction digit is ≥ 5
        var fractionDigits = 0
        if p[i] == UInt8(ascii: ".") {
            i += 1
            while true {
                let d = p[i] &- 48
                if d >= 10 { break }
                if fractionDigits < 3 {
                    fraction = fraction * 10 + Int64(d)
                } else if fractionDigits == 3 {
                    roundUp = d >= 5
                }
                fractionDigits += 1
                i += 1
            }
            if fractionDigits == 1 { fraction *= 100 } else if fractionDigits == 2 { fraction *= 10 }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        var magnitude: Int64
        switch encoding {
        case .unixSeconds:
            guard whole < 1_000_000_000_000_000 else { return nil }
            magnitude = whole * 1000 + fraction + (roundUp ? 1 : 0)
        case .unixMilliseconds, .gpsMilliseconds:
            magnitude = whole + (fraction >= 500 ? 1 : 0)
        case .unixMicroseconds:
            guard fractionDigits == 0 else { return nil }
            magnitude = (whole + 500) / 1000
        case .unixNanoseconds:
            guard fractionDigits == 0 else { return nil }
            magnitude = (whole + 500_000) / 1_000_000
        case .automatic, .iso8601, .timeOfDay, .excelDays:
            return nil
        }
        if negative { magnitude = -magnitude }
        index = i
        return magnitude
    }

    /// The last `YYYY-MM-DDThh:mm` prefix parsed and its value, so rows within the same minute (nearly
    /// all of them) skip the calendar arithmetic: two 8-byte compares instead.
    struct ISOPrefixCache {
        /// Bytes 0–7 of the cached prefix (0 never matches: a valid prefix has no NUL byte).
        var low: UInt64 = 0
        /// Bytes 8–15 of the cached prefix.
        var high: UInt64 = 0
        /// The prefix's instant (seconds 0), Unix milliseconds, as if it were UTC.
        var milliseconds: Int64 = 0
    }

    /// An ISO 8601 time `YYYY-MM-DD[T|t| ]hh:mm[:ss[.fraction]][Z|z|±hh[[:]mm]]`, in Unix milliseconds;
    /// the same rules as ``ISO8601/parse(_:from:to:)`` (fraction rounded on its fourth digit, a leap second
    /// reading as `:59.999`). Declines other shapes (a date alone, a field shorter than 16 bytes
    /// before `limit`). `hasZone` is set to whether the time carries a zone (`Z` or an offset).
    @_transparent
    static func isoMilliseconds(
        _ p: UnsafePointer<UInt8>, _ index: inout Int, limit: Int,
        cache: inout ISOPrefixCache, delimiter: UInt8, hasZone: inout Bool
    ) -> Int64? {
        let i = index
        guard i + 16 <= limit else { return nil }
        let raw = UnsafeRawPointer(p + i)
        let low = raw.loadUnaligned(as: UInt64.self)
        let high = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        var base: Int64
        if low == cache.low && high == cache.high {
            base = cache.milliseconds
        } else {
            guard let value = isoPrefix(p, i) else { return nil }
            cache = ISOPrefixCache(low: low, high: high, milliseconds: value)
            base = value
        }
        // The 16 prefix bytes hold no `\n`, so the `\n` that ends the row lies at i + 16 or later.
        var j = i + 16
        if p[j] == UInt8(ascii: ":") {
            let s0 = p[j + 1] &- 48
            guard s0 < 10 else { return nil }
            let s1 = p[j + 2] &- 48
            guard s1 < 10 else { return nil }
            let second = Int64(s0) * 10 + Int64(s1)
            guard second <= 60 else { return nil }
            j += 3
            var millisecond: Int64 = 0
            let c = p[j]
            // (A decimal comma only where the comma is no delimiter: in a comma-separated file `10:00:00,1` is a time
            // and the next field, a tester's Traccar `valid` column read as 100 ms and lost.)
            if c == UInt8(ascii: ".") || (c == UInt8(ascii: ",") && delimiter != UInt8(ascii: ",")) {
                j += 1
                var digits = 0
                var roundUp = false
                while true {
                    let d = p[j] &- 48
                    if d >= 10 { break }
                    if digits < 3 {
                        millisecond = millisecond * 10 + Int64(d)
                    } else if digits == 3 {
                        roundUp = d >= 5
                    }
                    digits += 1
                    j += 1
                }
                guard digits > 0 else { return nil }
                if digits == 1 { millisecond *= 100 } else if digits == 2 { millisecond *= 10 }
                if roundUp { millisecond += 1 }
            }
            base += second == 60 ? 59_999 : second * 1000 + millisecond
        }
        let zone = p[j]
        hasZone = true
        if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
            j += 1
        } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
            let h0 = p[j + 1] &- 48
            guard h0 < 10 else { return nil }
            let h1 = p[j + 2] &- 48
            guard h1 < 10 else { return nil }
            j += 3
            var minutes: Int64 = 0
            let m0: UInt8
            if p[j] == UInt8(ascii: ":") {
                m0 = p[j + 1] &- 48
                guard m0 < 10 else { return nil }
                let m1 = p[j + 2] &- 48
                guard m1 < 10 else { return nil }
                minutes = Int64(m0) * 10 + Int64(m1)
                j += 3
            } else {
                m0 = p[j] &- 48
                if m0 < 10 {
                    let m1 = p[j + 1] &- 48
                    guard m1 < 10 else { return nil }
                    minutes = Int64(m0) * 10 + Int64(m1)
                    j += 2
                }
            }
            let hours = Int64(h0) * 10 + Int64(h1)
            guard hours <= 23, minutes <= 59 else { return nil }
            let offset = (hours * 60 + minutes) * 60_000
            base += zone == UInt8(ascii: "-") ? offset : -offset
        } else {
            hasZone = false
        }
        index = j
        return base
    }

    /// Parses and validates the 16-byte prefix `YYYY-MM-DD?hh:mm` at `p[i]`; its instant in Unix ms.
    @inline(never)
    static func isoPrefix(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int64? {
        @inline(__always) func digit(_ k: Int) -> Int? {
            let d = Int(p[i + k]) &- 48
            return d >= 0 && d < 10 ? d : nil
        }
        guard let y0 = digit(0), let y1 = digit(1), let y2 = digit(2), let y3 = digit(3),
            p[i + 4] == UInt8(ascii: "-"), let mo0 = digit(5), let mo1 = digit(6),
            p[i + 7] == UInt8(ascii: "-"), let d0 = digit(8), let d1 = digit(9)
        else { return nil }
        let separator = p[i + 10]
        guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "),
            let h0 = digit(11), let h1 = digit(12), p[i + 13] == UInt8(ascii: ":"),
            let mi0 = digit(14), let mi1 = digit(15)
        else { return nil }
        let year = y0 * 1000 + y1 * 100 + y2 * 10 + y3
        let month = mo0 * 10 + mo1
        let day = d0 * 10 + d1
        let hour = h0 * 10 + h1
        let minute = mi0 * 10 + mi1
        guard CivilTime.isValidDate(year: year, month: month, day: day), hour <= 23, minute <= 59 else {
            return nil
        }
        let days = Int64(CivilTime.daysSince1970(year: year, month: month, day: day))
        return (days * 86_400 + Int64(hour * 3600 + minute * 60)) * 1000
    }
}
