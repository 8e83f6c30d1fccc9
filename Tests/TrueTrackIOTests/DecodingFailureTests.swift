import Foundation
import Testing
import TrueTrackIO

/// What a broken manifest or baseline is told as: where in the document, and what was wrong.
@Suite struct DecodingFailureTests {
    struct Manifest: Decodable {
        struct Entry: Decodable {
            var id: String
            var format: String
        }
        var recordings: [Entry]
    }

    func failure(_ text: String) -> String {
        let data = Data(text.utf8)
        do {
            _ = try JSONDecoder().decode(Manifest.self, from: data)
            return "decoded"
        } catch {
            return DecodingFailure.describe(error, data: data)
        }
    }

    /// "expected String" alone did not say what the file holds: the value found is named.
    @Test func aWrongTypeNamesTheValueFound() {
        #expect(
            failure(#"{"recordings": [{"id": 3.5, "format": "csv"}]}"#).hasPrefix(
                "recordings[0].id: expected String, found 3.5"))
        #expect(failure(#"{"recordings": [{"id": ["a"], "format": "csv"}]}"#).contains("found an array"))
        #expect(failure(#"{"recordings": [{"id": "a", "format": {}}]}"#).contains("found an object"))
        #expect(failure(#"{"recordings": "all"}"#).hasPrefix(#"recordings: expected Array<Any>, found "all""#))
        // A boolean is shown as written (it read "found 1", a reviewer's), a number as a number.
        #expect(failure(#"{"recordings": [{"id": true, "format": "csv"}]}"#).contains("found true"))
        #expect(failure(#"{"recordings": [{"id": false, "format": "csv"}]}"#).contains("found false"))
        #expect(failure(#"{"recordings": [{"id": 1, "format": "csv"}]}"#).contains("found 1"))
    }

    @Test func namesTheCodingPathOfAMissingKeyOrAWrongType() {
        #expect(
            failure(#"{"recordings": [{"id": "a", "format": "csv"}, {"id": "b"}]}"#)
                == "recordings[1].format: missing (required)")
        #expect(
            failure(#"{"recordings": [{"id": 3, "format": "csv"}]}"#).hasPrefix("recordings[0].id: expected String"))
        #expect(failure(#"{"recordings": null}"#).hasPrefix("recordings: expected"))
    }

    /// A count that is not a whole number (or too large for one) is valid JSON, but Foundation on Linux says only
    /// "not valid JSON" with no place: the value is named (a fuzz tester's manifest with `"fixes": 1.5`).
    @Test("names a count that is not a whole number") func namesACountThatIsNotAWholeNumber() throws {
        struct Counted: Decodable {
            struct Entry: Decodable { var fixes: Int? }
            var recordings: [Entry]
        }
        for (value, shown) in [("1.5", "1.5"), ("99999999999999999999", "99999999999999999999")] {
            let data = Data(#"{"recordings": [{"fixes": 3}, {"fixes": \#(value)}]}"#.utf8)
            do {
                _ = try JSONDecoder().decode(Counted.self, from: data)
                Issue.record("decoded \(value)")
            } catch {
                let said = DecodingFailure.describe(error, data: data, wholeNumberKeys: ["fixes"])
                // (Foundation on Apple platforms names the place itself: "expected Int …".)
                #expect(said.hasPrefix("recordings[1].fixes: expected"), "\(said)")
                #if os(Linux)
                    #expect(said == "recordings[1].fixes: expected a whole number, found \(shown)", "\(said)")
                #endif
            }
        }
    }

    @Test func locatesTextThatIsNotJSONByLineAndColumn() {
        let said = failure("{\"recordings\": [\n {\"id\": \"a\",\n \"format\" 3}]}")
        #expect(said.hasPrefix("not valid JSON (line 3, column 11"), "\(said)")
        let accented = failure("{\"recordings\": [\n {\"id\": \"é\", \"format\" 3}]}")
        #expect(accented.hasPrefix("not valid JSON (line 2, column 23"), "\(accented)")
    }

    /// A document cut short names no offset in Foundation's message: its end is the place.
    @Test func locatesADocumentCutShortAtItsEnd() {
        let said = failure("{\"recordings\": [\n {\"id\": \"a\",")
        #expect(said.hasPrefix("not valid JSON (at the end, line 2, byte 29: "), "\(said)")
        #expect(failure("") == "not valid JSON (the file is empty)")
    }
}
