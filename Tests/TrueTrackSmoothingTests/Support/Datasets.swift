import Foundation
import Testing

/// Finds the shared recorded data sets: `TRUETRACK_DATASETS`, else `../shared/datasets` beside the checkout.
enum Datasets {
    /// The data-set folder, or `nil` when it is absent (tests that need it are then disabled, with a reason).
    static let root: URL? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["TRUETRACK_DATASETS"], !env.isEmpty {
            return fm.fileExists(atPath: env + "/MANIFEST.json") ? URL(fileURLWithPath: env) : nil
        }
        // #filePath = <repo>/Tests/TrueTrackSmoothingTests/Support/Datasets.swift (a copy of the IO tests' helper)
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidate = repo.deletingLastPathComponent().appendingPathComponent("shared/datasets")
        return fm.fileExists(atPath: candidate.path + "/MANIFEST.json") ? candidate : nil
    }()

    /// True when the data sets are present.
    static var available: Bool { root != nil }

    /// The path of a recording, relative to the data-set folder.
    static func path(_ relative: String) -> String { root!.appendingPathComponent(relative).path }

    /// The reason shown when the data sets are missing.
    static let missingReason: Comment =
        "recorded data sets not found: set TRUETRACK_DATASETS or place them at ../shared/datasets"
}
