import Foundation
import Testing

/// Finds the shared recorded data sets for every test target: `TRUETRACK_DATASETS`, else `../shared/datasets`
/// beside the checkout. Tests that need them are disabled with ``missingReason`` when they are absent
/// (`make test` under CI then fails through `DatasetPresenceTests` instead).
public enum Datasets {
    /// The repository's root folder (this file is `<repo>/Tests/TestSupport/Datasets.swift`).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The data-set folder, or `nil` when it is absent.
    public static let root: URL? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["TRUETRACK_DATASETS"], !env.isEmpty {
            return fm.fileExists(atPath: env + "/MANIFEST.json") ? URL(fileURLWithPath: env) : nil
        }
        let candidate = repository.deletingLastPathComponent().appendingPathComponent("shared/datasets")
        return fm.fileExists(atPath: candidate.path + "/MANIFEST.json") ? candidate : nil
    }()

    /// The data-set folder's path (`nil` when absent).
    public static var rootPath: String? { root?.path }

    /// True when the data sets are present.
    public static var available: Bool { root != nil }

    /// The path of a recording, relative to the data-set folder.
    public static func path(_ relative: String) -> String { root!.appendingPathComponent(relative).path }

    /// The reason shown when the data sets are missing.
    public static let missingReason: Comment =
        "recorded data sets not found: set TRUETRACK_DATASETS or place them at ../shared/datasets"
}
