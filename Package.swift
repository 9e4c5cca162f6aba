// swift-tools-version:6.1
import PackageDescription

/// Ripple has no package dependencies, by design: every module builds with only the toolchain.
/// The one exception is opt-in: the `PostgreSQL` trait builds `KeyedStorePostgreSQL` on
/// postgres-nio. A package that does not enable the trait resolves no package at all.
/// Feature modules depend on ReactiveCore only, never on each other; a backend module
/// depends on the feature module it draws (and ReactiveCore), never on another backend.
let featureModules: [String] = [
  "Invalidation",
  "KeyedStore",
  "Lineage",
  "ReactiveExtras",
  // Combine's Foundation networking publishers (`URLSession.DataTaskPublisher`): a module of
  // its own so that only its users link FoundationNetworking (and, on Linux, libcurl).
  "ReactiveFoundationNetworking",
  "Scopes",
]
/// Backends, each built on the feature module it draws, and each its own product: an app
/// that only wants invalidating nodes (a scene graph, a server-side tree) takes
/// `Invalidation` and links no terminal code and no HTML renderer.
let backendModules: [(name: String, dependencies: [String])] = [
  ("InvalidationHTML", ["Invalidation"]),
  ("InvalidationTerminal", ["Invalidation", "ReactiveCore"]),
]
/// OpenCombine's spellings (`DispatchQueue.OCombine`, `.ocombine`, `Result.OCombine`, …) on
/// top of ReactiveCore, for code ported from OpenCombine. Products of their own that the
/// umbrella does NOT re-export: a file that imports Ripple beside the real OpenCombine must
/// not find two `DispatchQueue.OCombine`s. The module names OpenCombine users import
/// (`OpenCombine`, `OpenCombineShim`, …) live in the separate package
/// `Compatibility/OpenCombine`, because a target named `OpenCombine` here would clash with
/// the real OpenCombine in every package graph that holds both (the benchmarks, for one).
let compatibilityModules: [(name: String, dependencies: [String])] = [
  ("OpenCombineSpellings", ["ReactiveCore"]),
  (
    "OpenCombineNetworkingSpellings",
    ["OpenCombineSpellings", "ReactiveFoundationNetworking", "ReactiveCore"]
  ),
]
/// The modules `import Ripple` re-exports.
let umbrellaModules = ["ReactiveCore"] + featureModules + backendModules.map(\.name)
let libraryModules = umbrellaModules + compatibilityModules.map(\.name)
/// What each library module builds on, so that its tests may import those modules too.
let moduleDependencies = Dictionary(
  uniqueKeysWithValues: (backendModules + compatibilityModules).map { ($0.name, $0.dependencies) })

/// Executables under `Examples/<Name>`, each built on the `Ripple` umbrella (`swift run <Name>`).
let examples: [String] = [
  "Showcase",
  "InvalidationExample",
  "KeyedStoreExample",
  "LineageExample",
  "ReactiveCoreExample",
  "ScopesExample",
  "Todo",
  "TerminalCounter",
  "LogView",
]

/// Small programs a module's tests run as child processes, under `Tests/<Name>`:
/// KeyedStore's crash-safety and two-process tests kill and race this one.
let testHelpers: [String: [String]] = ["KeyedStore": ["KeyedStoreCrashChild"]]

/// The KeyedStore backend on PostgreSQL: its own product, built only with the `PostgreSQL`
/// trait, so that nobody else resolves postgres-nio and SwiftNIO.
let postgreSQLTrait = "PostgreSQL"
let whenPostgreSQL = TargetDependencyCondition.when(traits: [postgreSQLTrait])
let postgreSQLDependencies: [Target.Dependency] = [
  .product(name: "PostgresNIO", package: "postgres-nio", condition: whenPostgreSQL),
  .product(name: "NIOCore", package: "swift-nio", condition: whenPostgreSQL),
  .product(name: "NIOPosix", package: "swift-nio", condition: whenPostgreSQL),
  .product(name: "Logging", package: "swift-log", condition: whenPostgreSQL),
]

let package = Package(
  name: "Ripple",
  // `Synchronization.Mutex` needs these on Apple platforms; Linux has no floor.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: (libraryModules + ["Ripple", "KeyedStorePostgreSQL"]).map {
    .library(name: $0, targets: [$0])
  },
  traits: [
    .trait(
      name: postgreSQLTrait,
      description: "Builds KeyedStorePostgreSQL, the store's backend on PostgreSQL (postgres-nio).")
  ],
  dependencies: [
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [.target(name: "ReactiveCore", dependencies: ["RippleFutex"])]
    // The futex calls under ReactiveCore's lock on Linux (C: `syscall` is variadic).
    + [.target(name: "RippleFutex")]
    + featureModules.map { .target(name: $0, dependencies: ["ReactiveCore"]) }
    + (backendModules + compatibilityModules).map { module in
      .target(name: module.name, dependencies: module.dependencies.map { .target(name: $0) })
    }
    + [.target(name: "Ripple", dependencies: umbrellaModules.map { .target(name: $0) })]
    + libraryModules.map { module in
      .testTarget(
        name: "\(module)Tests",
        dependencies: [.target(name: module), "ModelTesting"]
          + (moduleDependencies[module] ?? []).map { .target(name: $0) }
          + (testHelpers[module] ?? []).map { .target(name: $0) })
    }
    + testHelpers.flatMap { module, helpers in
      helpers.map {
        .executableTarget(name: $0, dependencies: [.target(name: module)], path: "Tests/\($0)")
      }
    }
    // The seeded generator every module's model-based tests share.
    + [.target(name: "ModelTesting", path: "Tests/ModelTesting")]
    + [.testTarget(name: "RippleTests", dependencies: ["Ripple"])]
    // Without the trait, these build empty (their sources are under `#if PostgreSQL`).
    + [
      .target(
        name: "KeyedStorePostgreSQL",
        dependencies: ["KeyedStore", "ReactiveCore"] + postgreSQLDependencies),
      .executableTarget(
        name: "KeyedStorePostgreSQLChild",
        dependencies: ["KeyedStore", "KeyedStorePostgreSQL"],
        path: "Tests/KeyedStorePostgreSQLChild"),
      // Feature flags a fleet shares (`swift run --traits PostgreSQL FleetFlags`).
      .executableTarget(
        name: "FleetFlags",
        dependencies: ["Ripple", "KeyedStorePostgreSQL"] + postgreSQLDependencies,
        path: "Examples/FleetFlags"),
      .testTarget(
        name: "KeyedStorePostgreSQLTests",
        dependencies: ["KeyedStore", "KeyedStorePostgreSQL", "KeyedStorePostgreSQLChild"]
          + postgreSQLDependencies),
    ]
    + examples.map { .executableTarget(name: $0, dependencies: ["Ripple"], path: "Examples/\($0)") },
  swiftLanguageModes: [.v6]
)
