// swift-tools-version:5.9
// A package written against OpenCombine 0.14 exactly as OpenCombine's README shows, in
// the Swift 5 language mode of its time. `.ci/opencombine-spellings` copies it, changes
// only the `.package(url: "https://github.com/OpenCombine/OpenCombine.git", …)` line to
// the path of Ripple's `Compatibility/OpenCombine`, then builds and runs it unchanged.
import PackageDescription

let package = Package(
  name: "MyAwesomePackage",
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0")
  ],
  targets: [
    .target(
      name: "MyAwesomePackage",
      dependencies: [
        "OpenCombine",
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
      ]
    ),
    // The shim's users: one import for everything.
    .executableTarget(
      name: "MyAwesomeTool",
      dependencies: [
        "MyAwesomePackage",
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ]
    ),
  ]
)
