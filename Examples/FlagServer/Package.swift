// swift-tools-version:6.0
import PackageDescription

/// A feature-flag service on Hummingbird 2 and Ripple: a package of its own, so that the
/// root package still resolves no dependency. `.ci/server-example` builds it and drives
/// two instances sharing one store file over loopback with curl.
///
///     swift run --package-path Examples/FlagServer FlagServer flags.json 8080
///     curl -X PUT --data true localhost:8080/flags/beta
///     curl -N localhost:8080/events
let package = Package(
  name: "FlagServer",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Ripple", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    .executableTarget(
      name: "FlagServer",
      dependencies: [
        .product(name: "Ripple", package: "Ripple"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
