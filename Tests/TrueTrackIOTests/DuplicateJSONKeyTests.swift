import Foundation
import Testing
import TrueTrackIO

/// A key given twice in one JSON object: Foundation keeps the first, Python and jq the last, so the baselines
/// refuse it (a CI tester's repeated recording entry was gated on figures a script reading the file never saw).
@Suite struct DuplicateJSONKeyTests {
    func first(_ text: String) -> DuplicateJSONKey? { DuplicateJSONKey.first(in: Data(text.utf8)) }

    @Test func findsARepeatedKeyWithItsObjectAndLine() {
        let text = """
            {"recordings": {
              "a": {"fixes": 1},
              "a": {"fixes": 2}
            }}
            """
        #expect(first(text) == DuplicateJSONKey(key: "a", object: "recordings", line: 3))
        #expect(first(#"{"note": 1, "note": 2}"#) == DuplicateJSONKey(key: "note", object: "the top level", line: 1))
        #expect(first(#"{"x": [{"k": 1}, {"k": 2, "k": 3}]}"#)?.object == "x[1]")
        #expect(
            first(#"{"note": 1, "note": 2}"#)?.description
                == "key 'note' given twice in the top level (again at line 1)")
    }

    /// The same key in two objects, a key's text as a value, and quotes or braces inside strings are no duplicates;
    /// a key escaped differently is the same key.
    @Test func readsStringsWithTheirEscapes() {
        #expect(first(#"{"a": {"k": 1}, "b": {"k": 1}}"#) == nil)
        #expect(first(#"{"a": "a", "b": ["a", "a"]}"#) == nil)
        #expect(first(#"{"a\"": 1, "a": 2, "n": "\"a\": {, \\", "b\\": 3, "b": 4}"#) == nil)
        #expect(first(#"{"a": 1, "\u0061": 2}"#)?.key == "a")
        #expect(first(#"{"\ud83d\ude00": 1, "😀": 2}"#)?.key == "😀")
        #expect(first(#"{"k\/": 1, "k/": 2}"#)?.key == "k/")
    }
}
