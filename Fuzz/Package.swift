// swift-tools-version:6.0
import PackageDescription

/// libFuzzer targets for Ripple's parsers of untrusted input: a separate package, so that
/// the fuzzer flags never reach Ripple's own build.
///
///     bash .ci/fuzz                      # every target, a minute each (what CI runs)
///     RIPPLE_FUZZ_SECONDS=3600 bash .ci/fuzz
///
/// `.ci/fuzz` builds with `-Xswiftc -sanitize=fuzzer,address` so that Ripple's own modules
/// are instrumented too, and runs each target on a copy of its committed seed corpus.
/// Each target's entry point is `<Target>_main` (SwiftPM defines `main` as an alias of it),
/// which hands the command line to libFuzzer's driver.
let fuzzerFlags = ["-sanitize=fuzzer,address", "-parse-as-library"]

let package = Package(
  name: "Ripple.Fuzz",
  dependencies: [.package(name: "Ripple", path: "..")],
  targets: [
    .executableTarget(
      name: "FuzzStoreFile",
      dependencies: [.product(name: "KeyedStore", package: "Ripple")],
      swiftSettings: [.unsafeFlags(fuzzerFlags)],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]),
    .executableTarget(
      name: "FuzzStoreJournal",
      dependencies: [.product(name: "KeyedStore", package: "Ripple")],
      swiftSettings: [.unsafeFlags(fuzzerFlags)],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]),
    .executableTarget(
      name: "FuzzHTMLEscaping",
      dependencies: [
        .product(name: "Invalidation", package: "Ripple"),
        .product(name: "InvalidationHTML", package: "Ripple"),
      ],
      swiftSettings: [.unsafeFlags(fuzzerFlags)],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]),
  ],
  swiftLanguageModes: [.v6]
)
