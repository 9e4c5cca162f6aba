#if PostgreSQL
  import Foundation
  import KeyedStore
  import KeyedStorePostgreSQL
  import Testing

  extension ServerTests {
    /// StoreMigration over PostgreSQL: run once for the whole fleet, as for a store file.
    @Suite(.serialized) struct MigrationTests {
      let renamed = StoreMigration(to: 2, steps: [.renameKey("name", to: "userName")])

      func open(_ configuration: PostgreSQLBackend.Configuration) throws -> Store {
        try Store(persistence: .postgreSQL(configuration))
      }

      @Test func aNewerBuildMigratesTheNamespaceAndAnOlderOneIsRefused() throws {
        var configuration = try TestServer.configuration()
        let old = try open(configuration)
        old.stage("ada", for: StoreKey<String>("name"))
        old.stage(3, for: StoreKey<Int>("count"))
        try old.flush()
        configuration.migrations = [renamed]
        let new = try open(configuration)
        #expect(new.value(for: StoreKey<String>("userName")) == "ada")
        #expect(new.value(for: StoreKey<String>("name")) == nil)
        #expect(new.value(for: StoreKey<Int>("count")) == 3)
        configuration.migrations = []
        #expect {
          try open(configuration)
        } throws: { error in
          guard case StoreError.newerVersion(_, let found, let supported) = error else {
            return false
          }
          return found == 2 && supported == 1 && !"\(error)".contains("file")
        }
      }

      @Test func storesOpeningAtOnceMigrateOnce() throws {
        var configuration = try TestServer.configuration()
        let seed = try open(configuration)
        seed.stage(10, for: StoreKey<Int>("limit"))
        try seed.flush()
        // A step that is not idempotent: run twice, it would double twice.
        configuration.migrations = [
          StoreMigration(to: 2, steps: [.transformValue(of: "limit", from: Int.self) { $0 * 2 }])
        ]
        let opened = Recorder<Bool>()
        let config = configuration
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
          opened.append((try? Store(persistence: .postgreSQL(config))) != nil)
        }
        #expect(opened.values == Array(repeating: true, count: 4))
        #expect(try open(configuration).value(for: StoreKey<Int>("limit")) == 20)
      }

      @Test func aFailingStepChangesNothing() throws {
        var configuration = try TestServer.configuration()
        let seed = try open(configuration)
        seed.stage("not a number", for: StoreKey<String>("limit"))
        try seed.flush()
        configuration.migrations = [
          StoreMigration(to: 2, steps: [.transformValue(of: "limit", from: Int.self) { $0 * 2 }])
        ]
        #expect(throws: StoreError.self) { try open(configuration) }
        configuration.migrations = []
        #expect(try open(configuration).value(for: StoreKey<String>("limit")) == "not a number")
      }
    }
  }
#endif
