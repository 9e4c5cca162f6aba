// swift-tools-version:6.0
import PackageDescription

/// OpenCombine's products and module names on top of Ripple, so that a package written
/// against OpenCombine 0.14 switches by changing its one package line:
///
///     // .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
///     .package(path: "../Ripple/Compatibility/OpenCombine"),
///
/// Its products keep OpenCombine's names, and the package's identity (its directory's
/// name) is `OpenCombine`, so `.product(name: "OpenCombineDispatch", package: "OpenCombine")`
/// and a bare `"OpenCombine"` dependency resolve unchanged. It is a package of its own,
/// not products of Ripple's: SwiftPM refuses a graph in which two packages declare targets
/// of the same name, so a target named `OpenCombine` in Ripple's package would break every
/// package that depends on Ripple and on the real OpenCombine.
///
/// Each module only re-exports; the spellings themselves are Ripple's
/// `OpenCombineSpellings` and `OpenCombineNetworkingSpellings` modules.
let package = Package(
  name: "OpenCombine",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: ["OpenCombine", "OpenCombineDispatch", "OpenCombineFoundation", "OpenCombineShim"]
    .map { .library(name: $0, targets: [$0]) },
  dependencies: [.package(name: "Ripple", path: "../..")],
  targets: [
    .target(
      name: "OpenCombine",
      dependencies: [
        .product(name: "ReactiveCore", package: "Ripple"),
        .product(name: "OpenCombineSpellings", package: "Ripple"),
      ]),
    .target(
      name: "OpenCombineDispatch",
      dependencies: [.product(name: "OpenCombineSpellings", package: "Ripple")]),
    .target(
      name: "OpenCombineFoundation",
      dependencies: [
        .product(name: "OpenCombineSpellings", package: "Ripple"),
        .product(name: "OpenCombineNetworkingSpellings", package: "Ripple"),
        .product(name: "ReactiveFoundationNetworking", package: "Ripple"),
      ]),
    .target(
      name: "OpenCombineShim",
      dependencies: ["OpenCombine", "OpenCombineDispatch", "OpenCombineFoundation"]),
  ],
  swiftLanguageModes: [.v6]
)
