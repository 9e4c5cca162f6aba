// swift-tools-version:6.1
import PackageDescription

/// combine-schedulers beside ReactiveCore, as a user's tests use them: its
/// `TestScheduler` (`DispatchQueue.test`) drives ReactiveCore's operators, and
/// ReactiveCore's own `TestScheduler` sits in the same file. It is a check that
/// `.ci/combine-schedulers` runs, not a product: no user of Ripple resolves it.
///
/// combine-schedulers reaches Combine on Linux through `OpenCombineShim` (its
/// `OpenCombineSchedulers` trait, on by default there); the path dependency on
/// `Compatibility/OpenCombine` gives that module, and OpenCombine's package identity, on
/// top of ReactiveCore, so combine-schedulers' schedulers conform to ReactiveCore's
/// `Scheduler`. SwiftPM warns that two dependencies share the identity `opencombine`
/// and takes the local one.
let package = Package(
  name: "CombineSchedulersUser",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(name: "Ripple", path: "../.."),
    .package(path: "../OpenCombine"),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
  ],
  targets: [
    .testTarget(
      name: "SideBySideTests",
      dependencies: [
        .product(name: "ReactiveCore", package: "Ripple"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
