// swift-tools-version:6.1
import PackageDescription

/// Ripple's benchmarks: a separate package, so that Ripple's users never resolve
/// OpenCombine or a benchmark harness.
///
/// - `swift run -c release --package-path Benchmarks RippleCompare` — Ripple, OpenCombine,
///   `AsyncStream`/`AsyncChannel` (swift-async-algorithms) and hand-written Swift side by
///   side, as ratios.
/// - `swift run -c release --package-path Benchmarks StoreBackendFigures` — the store on
///   PostgreSQL beside the store file (start a server first: `.ci/postgresql-start`).
/// - `swift package --package-path Benchmarks benchmark` — the ordo-one suite (wall time
///   and malloc counts) for regression tracking.
let package = Package(
  name: "Ripple.Benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    // The PostgreSQL trait: StoreBackendFigures measures the store on PostgreSQL too.
    .package(name: "Ripple", path: "..", traits: ["PostgreSQL"]),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    .package(
      url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    .target(
      name: "Workloads",
      dependencies: [
        .product(name: "Ripple", package: "Ripple"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        // `receive(on: queue.ocombine)` for the contention section's receive_on row.
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
    .executableTarget(
      name: "RippleCompare",
      dependencies: ["Workloads", "MallocStats"]
    ),
    .executableTarget(
      name: "RippleBenchmarks",
      dependencies: [
        "Workloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/RippleBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    .target(name: "MallocStats"),
    .executableTarget(
      name: "StoreBackendFigures",
      dependencies: [
        .product(name: "KeyedStore", package: "Ripple"),
        .product(name: "KeyedStorePostgreSQL", package: "Ripple"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
