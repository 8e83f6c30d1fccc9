import Testing

@testable import TrueTrackIO

@Suite struct NumberParsingTests {
    func parse(_ s: String) -> Double? { NumberParsing.double(s) }

    @Test func parsesDecimalsExactlyLikeTheStandardLibrary() {
        for text in [
            "0", "-0", "1", "37.4235759540", "-122.0941320350", "1e-7", "6.02214076e23", "0.1",
            "123456789012345678901234", "0.000000000000000000000000001", "4.9e-324", "1.7976931348623157e308",
            "+3.5", "  12.5 ", "9007199254740993", "2.2250738585072014e-308", ".5", "5.",
        ] {
            let expected = Double(text.trimmingCharacters(in: " "))
            #expect(parse(text)?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    @Test func agreesWithStrtodOnRandomDecimals() {
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let digits = Int(state >> 60) + 1
            let whole = Int64(bitPattern: state >> 11) % 1_000
            let fraction = String(state % 10_000_000_000_000_000_000).prefix(digits)
            let text = "\(whole).\(fraction)"
            #expect(parse(text) == Double(text), "\(text)")
        }
    }

    @Test func agreesWithStrtodOnLongSignificandsAsPhonesWriteThem() {
        // Android prints doubles in full: 15–19 significant digits, the inputs of the extended-precision path.
        var state: UInt64 = 99
        var checked = 0
        for _ in 0..<50_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let digits = 15 + Int(state % 5)
            var significand = String(state >> 4 % 10_000_000_000_000_000_000)
            significand = String(significand.prefix(digits))
            let point = Int((state >> 50) % UInt64(significand.count))
            let text =
                (state & 8 == 0 ? "-" : "") + String(significand.prefix(point)) + "."
                + String(significand.dropFirst(point))
            #expect(parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
            checked += 1
        }
        // Values from the recordings: Sensor Logger and GnssLogger v3 rows.
        for text in [
            "12.057886123657228", "-75.08315780740286", "40.182190879527845", "65.44687616925147",
            "0.8618167042732239", "-29.199999", "1.7976931348623157",
        ] {
            #expect(parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
        #expect(checked == 50_000)
    }

    /// Fractions read eight digits at a time: a byte next to the digits ('/' and ':' to '?', the neighbours of
    /// '0'…'9') anywhere in a block of eight makes no number, and runs of every length around 8 and 16 digits,
    /// leading zeros beyond 19 digits, and an exponent after a block read as `strtod` reads them.
    @Test func readsFractionsEightDigitsAtATimeAsStrtodDoes() {
        for length in 1...24 {
            let digits = String("123456789012345678901234".prefix(length))
            for text in ["0.\(digits)", "-7.\(digits)", "0.\(digits)e3", "0.00000000\(digits)", "\(digits).5"] {
                #expect(parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
            }
            for bad in ["/", ":", ";", "?", "@", " 1"] where length >= 2 {
                for position in 0..<length {
                    var fraction = Array(digits)
                    fraction.insert(contentsOf: Array(bad), at: position)
                    #expect(parse("48." + String(fraction)) == nil, "48.\(String(fraction))")
                }
            }
        }
        #expect(parse("0.000000000000000000000012345678901234")?.bitPattern == (1.2345678901234e-23).bitPattern)
    }

    @Test func rejectsNonNumbers() {
        for text in ["", " ", "-", "1.2.3", "12a", "e5", "1e", "--1", "0x10", "1,5"] {
            #expect(parse(text) == nil, "\(text)")
        }
        #expect(parse("nan")?.isNaN == true)
        #expect(parse("-inf") == -.infinity)
    }

    @Test func parsesIntegersAndDetectsOverflow() {
        func int(_ s: String) -> Int64? {
            var s = s
            return s.withUTF8 { NumberParsing.int(UnsafeRawBufferPointer($0), 0, $0.count) }
        }
        #expect(int("1686733381510") == 1_686_733_381_510)
        #expect(int("-42") == -42)
        #expect(int("9223372036854775807") == .max)
        #expect(int("9223372036854775808") == nil)
        #expect(int("12.0") == nil)
        #expect(int("") == nil)
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}

@Suite struct NumberFormattingTests {
    func text(_ v: Double) -> String {
        var bytes: [UInt8] = []
        NumberFormatting.append(v, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func writesTheShortestTextThatReadsBackExactly() {
        #expect(text(49.4521090) == "49.452109")
        #expect(text(-122.0941320350) == "-122.094132035")
        #expect(text(0.1) == "0.1")
        #expect(text(0.05) == "0.05")
        #expect(text(-0.000125) == "-0.000125")
        #expect(text(3) == "3")
        #expect(text(-7) == "-7")
        #expect(text(1e300) == "1e+300")
        #expect(text(12.057886123657228) == "12.057886123657228")
        // Small values in fixed notation (GPX's decimal type has no exponent): a longitude 3 cm west of 0.
        #expect(text(-0.0000004) == "-0.0000004")
        #expect(text(1.5e-12) == "0.0000000000015")
    }

    /// Values that need 16 or 17 significant digits, or an exponent, take Swift's shortest round-trip text, now
    /// written from the standard library's buffer without a `String` (`NumberFormatting.appendShortest`): the same
    /// text as `description` for any bit pattern (a NaN with a sign or payload read `-nan(0x…)` that way, before it
    /// was handed to `description` itself).
    @Test func writesWhatDescriptionWritesWhereTheFastPathDoesNot() {
        var state: UInt64 = 7
        for i in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value =
                i % 2 == 0
                ? 48.1 + Double(state >> 11) / Double(1 << 53) * 1e-3  // a filtered latitude, 16–17 digits
                : Double(bitPattern: state)  // any bit pattern: every sign, magnitude, subnormal, ±∞, NaN
            var bytes: [UInt8] = []
            NumberFormatting.appendShortest(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == value.description, "\(value)")
        }
        for value in [Double.infinity, -.infinity, .nan, 1e300, -2.5e-320, 12.057886123657228] {
            var bytes: [UInt8] = [UInt8(ascii: "x")]
            NumberFormatting.appendShortest(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "x" + value.description)
        }
        #expect(text(48.10000094859556) == "48.10000094859556")
    }

    /// The fast path's fewest decimals, found by one test at the top of the exact range and a bisection
    /// (`NumberFormatting.fewestDecimals`), are those of trying 1, 2, … 15 decimals in turn with libm's `round`,
    /// as the writer did until 2026-12-05 (kept here as the reference): the same text for coordinates of every
    /// precision, filtered values of 16–17 digits, values that need exactly 15 or 16 digits, small and large
    /// magnitudes and halfway cases.
    @Test func findsTheSameDecimalsAsTryingEachInTurn() {
        func referenceDecimals(_ magnitude: Double) -> (m: UInt64, decimals: Int) {
            var scale = 10.0
            for k in 1...15 {
                let scaled = (magnitude * scale).rounded()
                guard scaled < 9_007_199_254_740_992 else { break }
                if scaled / scale == magnitude { return (UInt64(scaled), k) }
                scale *= 10
            }
            return (0, 0)
        }
        func reference(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            let magnitude = abs(value)
            if magnitude.isFinite, magnitude >= 1e-15, magnitude < 1e15 {
                var scale = 10.0
                for k in 1...15 {
                    let scaled = (magnitude * scale).rounded()
                    guard scaled < 9_007_199_254_740_992 else { break }
                    if scaled / scale == magnitude {
                        var digits = String(UInt64(scaled))
                        if digits.count <= k { digits = String(repeating: "0", count: k + 1 - digits.count) + digits }
                        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -k))
                        return (value < 0 ? "-" : "") + digits
                    }
                    scale *= 10
                }
            }
            return value.description
        }
        var state: UInt64 = 11
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        for i in 0..<300_000 {
            let r = next()
            let unit = Double(r >> 11) / Double(1 << 53)
            let decimals = Int(next() % 16)
            let magnitude = [1e-15, 1e-9, 1e-4, 0.3, 7, 48, 180, 4e3, 1e6, 3e9, 1e12, 8e14][i % 12]
            let value: Double
            switch i % 7 {
            case 0: value = (magnitude * unit * 1e7).rounded() / 1e7  // a recorded coordinate
            case 1: value = magnitude * (1 + unit)  // a filtered value, 16–17 digits
            case 2:  // exactly `decimals` decimals, up to 16 significant digits
                let scale = (0..<decimals).reduce(1.0) { p, _ in p * 10 }
                value = (magnitude * unit * scale).rounded() / scale
            case 3: value = Double(Int64(bitPattern: r) % 10_000_000_000) / 1e4 + 0.5e-4  // halfway-ish
            case 4, 5:  // m / 10^k with m of 49–53 bits (where the bound of 2^50 matters), or a neighbour of one
                let m = Double((r >> 11) | (1 << UInt64(48 + Int(next() % 5))))
                let scale = (0..<(1 + decimals % 15)).reduce(1.0) { p, _ in p * 10 }
                let exact = m / scale
                value = i % 7 == 4 ? exact : (next() % 2 == 0 ? exact.nextUp : exact.nextDown)
            default: value = Double(bitPattern: r)  // any bit pattern
            }
            let signed = i % 7 == 0 ? -value : value
            #expect(text(signed) == reference(signed), "\(signed.bitPattern)")
            // The decimals themselves, not only the text: where `description` writes the same digits a wrong
            // choice would not show (a reviewer's mutants of the 2^50 bound and of the rounding passed the text).
            let size = abs(signed)
            if size.isFinite, size >= 1e-15, size < 1e15, size != size.rounded() {
                let found = NumberFormatting.fewestDecimals(size)
                let expected = referenceDecimals(size)
                #expect(found.decimals == expected.decimals && found.m == expected.m, "\(signed.bitPattern)")
            }
        }
    }

    @Test func everyRandomDoubleReadsBackBitForBit() {
        var state: UInt64 = 2024
        for i in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value: Double
            switch i % 3 {
            case 0: value = Double(bitPattern: state >> 1 | 0x3000_0000_0000_0000)  // wide range of magnitudes
            case 1:
                value =
                    (Double(Int64(bitPattern: state) % 1_800_000_000) / 1e7).rounded(.towardZero) + Double(i % 7) * 0.1
            default: value = Double(Int64(bitPattern: state) % 10_000_000) / 100  // centimetres
            }
            guard value.isFinite else { continue }
            let written = text(value)
            #expect(
                NumberParsing.double(written)?.bitPattern == value.bitPattern
                    || (value == 0 && NumberParsing.double(written) == 0),
                "\(value) → \(written)")
            #expect(
                written.utf8.count <= value.description.utf8.count + 2, "\(value) → \(written) vs \(value.description)")
        }
    }
}
