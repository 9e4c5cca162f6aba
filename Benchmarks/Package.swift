// swift-tools-version:6.0
import PackageDescription

/// Ripple's benchmarks: a separate package, so that Ripple's users never resolve
/// OpenCombine. Run with `swift run -c release --package-path Benchmarks RippleCompare`.
let package = Package(
  name: "Ripple.Benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [
    .package(name: "Ripple", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
  ],
  targets: [
    .executableTarget(
      name: "RippleCompare",
      dependencies: [
        .product(name: "Ripple", package: "Ripple"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        "MallocStats",
      ]
    ),
    .target(name: "MallocStats"),
  ],
  swiftLanguageModes: [.v6]
)
