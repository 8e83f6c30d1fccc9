import Foundation
import Testing

/// `truetrack stops` end to end.
@Suite struct StopsCommandTests {
    @Test func printsTheIssuesJSONShape() throws {
        let out = Tool.temporaryPath("stops.geojson")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try Tool.run(["stops", Tool.demo, "--json", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["stops"] is [Any])
        #expect(json["trips"] is [Any])
        #expect(json["movingSeconds"] is Double || json["movingSeconds"] is Int)
        #expect(json["elapsedSeconds"] is Double || json["elapsedSeconds"] is Int)
        let geo = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        #expect(geo["type"] as? String == "FeatureCollection")
    }

    @Test func rejectsAnUnknownProfile() throws {
        let r = try Tool.run(["stops", Tool.demo, "--profile", "flying"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown profile 'flying'"))
    }
}
