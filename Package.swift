// swift-tools-version:6.0
//
// TrueTrack: noisy GPS fixes in, an accurate track, an honest distance and clean stops out.
//
// Dependencies point one way: TrueTrackCore <- TrueTrackIO <- TrueTrackCommandLine (the commands) <- truetrack
// (the CLI's executable).
// The C libraries sit behind one module each and are only imported by the module that needs them.
import PackageDescription

// LAPACK's routines (declared in Sources/CLAPACK/shim.h with their Fortran names) come from the reference
// LAPACK and BLAS elsewhere (Debian: liblapack-dev) and from the Accelerate framework on Apple platforms, which
// exports the same symbols; the module map names no library so that the choice can depend on the platform.
let apple: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS]
let notApple: [Platform] = [.linux, .android, .openbsd, .windows]
let lapack: [LinkerSetting] = [
    .linkedLibrary("lapack", .when(platforms: notApple)),
    .linkedLibrary("blas", .when(platforms: notApple)),
    .linkedFramework("Accelerate", .when(platforms: apple)),
]

let package = Package(
    name: "TrueTrack",
    products: [
        // An app that only filters fixes links this alone: no file I/O, no SQLite, no networking, no XML.
        .library(name: "TrueTrackCore", targets: ["TrueTrackCore"]),
        // Streaming readers and writers for recorded tracks.
        .library(name: "TrueTrackIO", targets: ["TrueTrackIO"]),
        // Simulated recordings with exact truth.
        .library(name: "TrueTrackSimulation", targets: ["TrueTrackSimulation"]),
        // Whole-track smoothing of recorded tracks (banded least squares through LAPACK).
        .library(name: "TrueTrackSmoothing", targets: ["TrueTrackSmoothing"]),
        // Accuracy against ground truth: truth alignment, metrics, baselines (batch only; apps never link it).
        .library(name: "TrueTrackEvaluation", targets: ["TrueTrackEvaluation"]),
        // The SQLite buffer of fixes and the crash-safe session state.
        .library(name: "TrueTrackStore", targets: ["TrueTrackStore"]),
        // Batched, idempotent HTTP sync of the buffer (Foundation + FoundationNetworking).
        .library(name: "TrueTrackSync", targets: ["TrueTrackSync"]),
        .executable(name: "truetrack", targets: ["truetrack"]),
        .executable(name: "truetrack-benchmarks", targets: ["TrueTrackBenchmarks"]),
        .executable(name: "truetrack-command-benchmarks", targets: ["TrueTrackCommandBenchmarks"]),
    ],
    targets: [
        // MARK: C system libraries (Debian: libsqlite3-dev, liblapack-dev)
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLAPACK",
            path: "Sources/CLAPACK",
            pkgConfig: "lapack",
            providers: [.apt(["liblapack-dev"])]
        ),

        // MARK: Library modules
        .target(name: "TrueTrackCore"),
        .target(name: "TrueTrackIO", dependencies: ["TrueTrackCore"]),
        // Seeded scenarios with ground truth and realistic receiver errors, for tests and benchmarks.
        .target(name: "TrueTrackSimulation", dependencies: ["TrueTrackCore"]),
        // Whole-track robust smoothing: one banded SPD system per track, solved with LAPACK's banded Cholesky.
        .target(name: "TrueTrackSmoothing", dependencies: ["TrueTrackCore", "CLAPACK"], linkerSettings: lapack),
        // Ground-truth alignment, accuracy metrics and regression baselines (`truetrack bench`).
        .target(name: "TrueTrackEvaluation", dependencies: ["TrueTrackCore", "TrueTrackIO", "TrueTrackSmoothing"]),
        .target(name: "TrueTrackStore", dependencies: ["TrueTrackCore", "CSQLite"]),
        .target(name: "TrueTrackSync", dependencies: ["TrueTrackCore", "TrueTrackStore"]),

        // MARK: Command-line tool
        // The CLI's commands (parsing, one file per command): a library, so that the benchmarks can time a command
        // end to end in process; the `truetrack` executable is its entry point.
        .target(
            name: "TrueTrackCommandLine",
            dependencies: [
                "TrueTrackCore", "TrueTrackIO", "TrueTrackSmoothing", "TrueTrackEvaluation", "TrueTrackStore",
                "TrueTrackSync",
            ]
        ),
        .executableTarget(name: "truetrack", dependencies: ["TrueTrackCommandLine"]),

        // MARK: Benchmarks (kept out of the libraries' dependencies)
        .target(name: "BenchmarkSupport", path: "Benchmarks/BenchmarkSupport"),
        // Counts heap allocations (interposes malloc in the benchmark executable only): allocations per fix.
        .target(name: "AllocationCounter", path: "Benchmarks/AllocationCounter"),
        .executableTarget(
            name: "TrueTrackBenchmarks",
            dependencies: [
                "TrueTrackCore", "TrueTrackIO", "TrueTrackSimulation", "TrueTrackSmoothing", "BenchmarkSupport",
                "AllocationCounter",
            ],
            path: "Benchmarks/TrueTrackBenchmarks"
        ),
        // The CLI cases' child (`process-csv`, `stops-csv`): the commands link every library and what those load
        // (libcurl, SQLite), which in truetrack-benchmarks added 7 MB to every other case's peak memory.
        .executableTarget(
            name: "TrueTrackCommandBenchmarks",
            dependencies: ["TrueTrackCommandLine", "BenchmarkSupport", "AllocationCounter"],
            path: "Benchmarks/TrueTrackCommandBenchmarks"
        ),

        // MARK: Tests (one target per library target)
        // Helpers every test target shares (finding the recorded data sets, tracks both filters are tested on).
        .target(
            name: "TrueTrackTestSupport", dependencies: ["TrueTrackCore", "TrueTrackSimulation"],
            path: "Tests/TestSupport"),
        .testTarget(name: "TrueTrackCoreTests", dependencies: ["TrueTrackCore", "TrueTrackSimulation"]),
        .testTarget(
            name: "TrueTrackIOTests",
            dependencies: ["TrueTrackCore", "TrueTrackIO", "TrueTrackSimulation", "TrueTrackTestSupport"]
        ),
        .testTarget(
            name: "TrueTrackSimulationTests",
            dependencies: ["TrueTrackCore", "TrueTrackSimulation", "TrueTrackTestSupport"]
        ),
        .testTarget(
            name: "TrueTrackSmoothingTests",
            dependencies: [
                "TrueTrackCore", "TrueTrackSmoothing", "TrueTrackSimulation", "TrueTrackIO", "TrueTrackTestSupport",
            ]
        ),
        .testTarget(
            name: "TrueTrackEvaluationTests",
            dependencies: ["TrueTrackCore", "TrueTrackIO", "TrueTrackEvaluation", "TrueTrackTestSupport"]
        ),
        .testTarget(name: "SystemLibrariesTests", dependencies: ["CSQLite", "CLAPACK"], linkerSettings: lapack),
        .testTarget(
            name: "CommandLineTests", dependencies: ["truetrack", "TrueTrackCommandLine", "TrueTrackTestSupport"]),
        // The store's kill and two-writer tests launch this child process and SIGKILL it; its `bench` and
        // `sync-bench` modes measure append and sync throughput (run by hand in release).
        .executableTarget(
            name: "truetrack-store-stress",
            dependencies: ["TrueTrackCore", "TrueTrackStore", "TrueTrackSync"],
            path: "Tests/Support/StoreStress"
        ),
        .testTarget(
            name: "TrueTrackStoreTests", dependencies: ["TrueTrackCore", "TrueTrackStore", "truetrack-store-stress"]),
        // Its loopback receiver is Tests/Support/receiver.py (Python 3, started by the tests).
        .testTarget(name: "TrueTrackSyncTests", dependencies: ["TrueTrackCore", "TrueTrackStore", "TrueTrackSync"]),
    ],
    swiftLanguageModes: [.v6]
)
