#if PostgreSQL
  import Foundation
  import KeyedStore
  import KeyedStorePostgreSQL
  import Testing

  extension ServerTests {
    /// The store on a real PostgreSQL server (see `.ci/postgresql-start`): values shared by
    /// stores of one namespace, heard through LISTEN/NOTIFY, and atomic updates.
    @Suite(.serialized) struct PostgreSQLBackendTests {
      let limit = StoreKey<Int>("rateLimit")
      let flag = StoreKey<Bool>("maintenance")

      @Test func aFlushedValueIsReadByAStoreOpenedLater() throws {
        let configuration = try TestServer.configuration()
        let first = try Store(persistence: .postgreSQL(configuration))
        first.stage(100, for: limit)
        first.stage(true, for: flag)
        try first.flush()
        let second = try Store(persistence: .postgreSQL(configuration))
        #expect(second.value(for: limit) == 100)
        #expect(second.value(for: flag) == true)
        #expect(second.persistencePath?.contains("namespace") == true)
      }

      @Test func anotherStoresCommitIsHeardThroughListenWithItsOrigin() throws {
        let configuration = try TestServer.configuration()
        let writer = try Store(persistence: .postgreSQL(configuration))
        // No polling: only LISTEN/NOTIFY can bring the change.
        let reader = try Store(persistence: .postgreSQL(configuration, changeCheckInterval: nil))
        let heard = Recorder<Mutation<Int>>()
        reader.registerObserver(for: limit) { heard.append($0) }
        usleep(200_000)  // the listener connects in the background
        writer.stage(7, for: limit)
        try writer.flush()
        #expect(eventually { heard.values.count == 1 })
        #expect(heard.values.first?.newValue == 7)
        #expect(heard.values.first?.origin == .anotherStore)
      }

      @Test func namespacesDoNotSeeEachOther() throws {
        let first = try Store(persistence: .postgreSQL(try TestServer.configuration()))
        first.stage(1, for: limit)
        try first.flush()
        let other = try Store(persistence: .postgreSQL(try TestServer.configuration()))
        #expect(other.value(for: limit) == nil)
      }

      @Test func hostileKeysAndValuesRoundTrip() throws {
        let configuration = try TestServer.configuration()
        let keys = [
          "it's", "\"quoted\"", "a\u{0}nul", String(repeating: "k", count: 10_000),
          "'; DROP TABLE ripple_keyed_store; --", "é🙂", "",
        ]
        let values = ["it's", "a\u{0}b", "'); DELETE FROM ripple_keyed_store; --", "\u{1F600}"]
        let first = try Store(persistence: .postgreSQL(configuration))
        for (index, key) in keys.enumerated() {
          first.stage(values[index % values.count], for: StoreKey<String>(key))
        }
        try first.flush()
        let second = try Store(persistence: .postgreSQL(configuration))
        for (index, key) in keys.enumerated() {
          #expect(second.value(for: StoreKey<String>(key)) == values[index % values.count])
        }
      }

      @Test func threeProcessesEachAddingAThousandEndAtThreeThousand() throws {
        let configuration = try TestServer.configuration()
        let child = try TestServer.childProgram()
        let processes = try (0..<3).map { _ in
          let process = Process()
          process.executableURL = URL(fileURLWithPath: child)
          process.arguments = ["increment", configuration.namespace, "1000"]
          process.standardOutput = Pipe()
          try process.run()
          return process
        }
        for process in processes {
          process.waitUntilExit()
          #expect(process.terminationStatus == 0)
        }
        let store = try Store(persistence: .postgreSQL(configuration))
        #expect(store.value(for: StoreKey<Int>("counter")) == 3_000)
      }

      @Test func aWriterKilledMidBatchLeavesAllOrNoneOfIt() throws {
        let configuration = try TestServer.configuration()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try TestServer.childProgram())
        process.arguments = ["batches", configuration.namespace]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Let it commit a few batches, then kill it wherever it is.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("committed 5") {
          let chunk = output.fileHandleForReading.availableData
          if chunk.isEmpty { break }
          seen.append(chunk)
        }
        usleep(UInt32.random(in: 0..<20_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let store = try Store(persistence: .postgreSQL(configuration))
        let found = Set((0..<50).map { store.value(for: StoreKey<Int>("k\($0)")) })
        #expect(found.count == 1)
        #expect((found.first ?? nil).map { $0 >= 5 } == true)
      }

      @Test func credentialsNeverAppearInAnError() throws {
        var configuration = try TestServer.configuration(password: "pa55-w0rd-secret")
        configuration.connection = .init(
          host: "127.0.0.1", port: 1, username: "postgres", password: "pa55-w0rd-secret",
          database: "postgres", tls: .disable)
        #expect {
          try Store(persistence: .postgreSQL(configuration))
        } throws: { error in
          let text = "\(error)"
          return text.contains("127.0.0.1") && !text.contains("pa55-w0rd-secret")
        }
      }

      @Test func theSchemaIsMigratedExactlyOnceByManyStoresAtOnce() throws {
        let database = "migrate_\(UInt32.random(in: 0...UInt32.max))"
        try TestServer.psql("CREATE DATABASE \(database)")
        let configuration = try TestServer.configuration(database: database)
        let opened = Recorder<Bool>()
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
          opened.append((try? Store(persistence: .postgreSQL(configuration))) != nil)
        }
        #expect(opened.values == Array(repeating: true, count: 6))
        let versions = try TestServer.psql(
          "SELECT string_agg(version::text, ',' ORDER BY version) FROM ripple_keyed_store_schema",
          database: database)
        #expect(versions.trimmingCharacters(in: .whitespacesAndNewlines) == "1,2,3")
      }
    }
  }
#endif
