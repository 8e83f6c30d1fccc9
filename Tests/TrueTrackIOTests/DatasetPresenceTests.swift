import Foundation
import Testing

@Suite struct DatasetPresenceTests {
    /// Under CI (`make test` with CI set) the data sets must be there: their tests may not silently skip.
    @Test func recordedDataSetsArePresentWhenRequired() {
        let required = ProcessInfo.processInfo.environment["TRUETRACK_REQUIRE_DATASETS"] == "1"
        #expect(
            !required || Datasets.available,
            "TRUETRACK_REQUIRE_DATASETS=1 but \(Datasets.missingDescription)")
    }
}
