#if PostgreSQL
  import Foundation
  import KeyedStore
  import KeyedStorePostgreSQL
  import Testing

  extension ServerTests {
    /// The server going away: staging goes on in memory, flush fails with a typed error,
    /// nothing acknowledged is lost, and every store catches up when the server is back.
    @Suite(.serialized) struct OutageTests {
      let limit = StoreKey<Int>("rateLimit")

      @Test func aServerRestartedMidRunLosesNothingAcknowledgedAndEveryStoreConverges() throws {
        let configuration = try TestServer.configuration(timeout: .seconds(3))
        let writer = try Store(persistence: .postgreSQL(configuration))
        let reader = try Store(persistence: .postgreSQL(configuration))
        var acknowledged = 0
        var failures = 0
        var isStopped = false
        // Whatever fails below, the server is running again for the next test.
        defer { if isStopped { try? TestServer.pgctl("start") } }
        for value in 1...60 {
          if value == 20 {
            try TestServer.pgctl("stop")
            isStopped = true
          }
          if value == 40 {
            try TestServer.pgctl("start")
            isStopped = false
          }
          writer.stage(value, for: limit)
          #expect(writer.value(for: limit) == value)  // staging works in memory throughout
          do {
            try writer.flush()
            acknowledged = value
          } catch {
            failures += 1
            #expect("\(error)".contains("PostgreSQL"))
          }
        }
        #expect(failures > 0)
        #expect(acknowledged == 60)
        // The reader reconnects on its own and converges, without being asked.
        #expect(eventually { reader.value(for: limit) == 60 })
        #expect(try Store(persistence: .postgreSQL(configuration)).value(for: limit) == 60)
      }

      @Test func aStoreDisconnectedWhileOthersWroteSeesEveryChangeOnReconnect() throws {
        let configuration = try TestServer.configuration()
        let writer = try Store(persistence: .postgreSQL(configuration))
        // No polling: what it missed can only come from the catch-up after reconnecting.
        let reader = try Store(persistence: .postgreSQL(configuration, changeCheckInterval: nil))
        let keys = (0..<20).map { StoreKey<Int>("key\($0)") }
        usleep(200_000)  // the listener connects in the background
        // Cut every other connection, the reader's listener among them.
        try TestServer.psql(
          "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            + "WHERE pid <> pg_backend_pid() AND datname = 'postgres'")
        for (index, key) in keys.enumerated() {
          writer.stage(index, for: key)
          try? writer.flush()  // its own connection was cut too: a retry reconnects
        }
        try writer.flush()
        #expect(eventually { keys.enumerated().allSatisfy { reader.value(for: $1) == $0 } })
      }
    }
  }
#endif
