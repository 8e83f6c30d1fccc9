import Foundation
import Testing

/// Finds the shared recorded data sets for every test target: `TRUETRACK_DATASETS`, else `../shared/datasets`
/// beside the checkout. Tests that need them are disabled with ``missingReason`` when they are absent
/// (`make test` under CI then fails through `DatasetPresenceTests` instead).
public enum Datasets {
    /// The repository's root folder (this file is `<repo>/Tests/TestSupport/Datasets.swift`).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The folder looked in and where it came from (`TRUETRACK_DATASETS`, else the default beside the checkout).
    public static let tried: (path: String, source: String) = {
        if let env = ProcessInfo.processInfo.environment["TRUETRACK_DATASETS"], !env.isEmpty {
            return (env, "from TRUETRACK_DATASETS")
        }
        let candidate = repository.deletingLastPathComponent().appendingPathComponent("shared/datasets").path
        return (candidate, "the default ../shared/datasets beside the checkout, TRUETRACK_DATASETS being unset")
    }()

    /// The data-set folder, or `nil` when it is absent.
    public static let root: URL? =
        FileManager.default.fileExists(atPath: tried.path + "/MANIFEST.json") ? URL(fileURLWithPath: tried.path) : nil

    /// The data-set folder's path (`nil` when absent).
    public static var rootPath: String? { root?.path }

    /// True when the data sets are present.
    public static var available: Bool { root != nil }

    /// The path of a recording, relative to the data-set folder.
    public static func path(_ relative: String) -> String { root!.appendingPathComponent(relative).path }

    /// Why the data sets count as missing: the folder tried and where it came from.
    public static let missingDescription =
        "no recorded data sets: no MANIFEST.json in \(tried.path) (\(tried.source)); set TRUETRACK_DATASETS to "
        + "the data-set folder or place it at ../shared/datasets beside the checkout"

    /// The reason shown when tests that need the data sets are skipped (``missingDescription``).
    public static let missingReason = Comment(rawValue: missingDescription)
}
