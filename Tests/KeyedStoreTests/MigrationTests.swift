import Foundation
import KeyedStore
import Testing

/// The profile as version 1 wrote it, before `age` was added.
struct ProfileV1: Codable, Sendable {
  var name: String
}

struct MigrationFailure: Error {}

@Suite struct MigrationTests {
  static let version1 = storeFile(
    values: #"{"user": {"name": "Ada"}, "legacyFlag": true, "count": 3}"#)

  @Test func renameMovesAValueToItsNewName() throws {
    let folder = TemporaryFolder()
    write(Self.version1, to: folder.file())
    let store = try openStore(
      folder.file(), migrations: [StoreMigration(to: 2, steps: [.renameKey("count", to: "total")])])
    #expect(store.value(for: StoreKey<Int>("total")) == 3)
    #expect(store.value(for: StoreKey<Int>("count")) == nil)
  }

  @Test func transformAddsAFieldToAStoredStruct() throws {
    let folder = TemporaryFolder()
    write(Self.version1, to: folder.file())
    let store = try openStore(
      folder.file(),
      migrations: [
        StoreMigration(
          to: 2,
          steps: [
            .transformValue(of: "user", from: ProfileV1.self) { Profile(name: $0.name, age: 0) }
          ])
      ])
    #expect(store.value(for: StoreKey<Profile>("user")) == Profile(name: "Ada", age: 0))
  }

  @Test func dropRemovesAKey() throws {
    let folder = TemporaryFolder()
    write(Self.version1, to: folder.file())
    let store = try openStore(
      folder.file(), migrations: [StoreMigration(to: 2, steps: [.dropKey("legacyFlag")])])
    #expect(store.value(for: StoreKey<Bool>("legacyFlag")) == nil)
    #expect(!text(at: folder.file()).contains("legacyFlag"))
  }

  @Test func migrationsRunInVersionOrderAndTheFileRecordsTheNewVersion() throws {
    let folder = TemporaryFolder()
    write(Self.version1, to: folder.file())
    // Listed out of order: version 3's step needs version 2's rename first.
    let migrations = [
      StoreMigration(
        to: 3,
        steps: [
          .transformValue(of: "profile", from: ProfileV1.self) { Profile(name: $0.name, age: 1) }
        ]),
      StoreMigration(to: 2, steps: [.renameKey("user", to: "profile"), .dropKey("legacyFlag")]),
    ]
    let store = try openStore(folder.file(), migrations: migrations)
    #expect(store.value(for: StoreKey<Profile>("profile")) == Profile(name: "Ada", age: 1))
    let contents = text(at: folder.file())
    #expect(contents.contains(#""version" : 3"#))
    #expect(!contents.contains("legacyFlag"))
    // Opened again at version 3, nothing runs twice.
    #expect(
      try openStore(folder.file(), migrations: migrations).value(for: StoreKey<Profile>("profile"))
        == Profile(name: "Ada", age: 1))
  }

  static let failingSteps: [StoreMigration.Step] = [
    .transformValue(of: "user", from: ProfileV1.self) { _ -> Profile in throw MigrationFailure() },
    .transformValue(of: "count", from: ProfileV1.self) { Profile(name: $0.name, age: 0) },
  ]

  @Test(arguments: failingSteps)
  func aFailingStepThrowsAndLeavesTheFile(step: StoreMigration.Step) throws {
    let folder = TemporaryFolder()
    write(Self.version1, to: folder.file())
    let migrations = [StoreMigration(to: 2, steps: [.dropKey("legacyFlag"), step])]
    do {
      _ = try openStore(folder.file(), migrations: migrations)
      Issue.record("expected the migration to fail")
    } catch {
      guard case .migrationFailed(let path, let version, let failing, _) = error as? StoreError
      else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == folder.file() && version == 2 && failing == step.description)
    }
    #expect(text(at: folder.file()) == Self.version1)
  }

  @Test func aNewFileStartsAtTheCurrentVersion() throws {
    let folder = TemporaryFolder()
    let store = try openStore(
      folder.file(), migrations: [StoreMigration(to: 4, steps: [.dropKey("x")])])
    store.stage(1, for: StoreKey<Int>("a"))
    try store.flush()
    #expect(text(at: folder.file()).contains(#""version" : 4"#))
  }

  @Test func aFileAtTheCurrentVersionRunsNoStep() throws {
    let folder = TemporaryFolder()
    let contents = storeFile(version: 2, values: #"{"user": 5}"#)
    write(contents, to: folder.file())
    let store = try openStore(
      folder.file(),
      migrations: [
        StoreMigration(to: 2, steps: [.transformValue(of: "user", from: ProfileV1.self) { $0 }])
      ])
    #expect(store.value(for: StoreKey<Int>("user")) == 5)
    #expect(text(at: folder.file()) == contents)
  }
}
