// A process of the KeyedStorePostgreSQL tests: what another server of a fleet would do.
//
//     KeyedStorePostgreSQLChild increment <namespace> <count>
//         adds 1 to "counter" <count> times with `update`, flushes, prints "done"
//     KeyedStorePostgreSQLChild batches <namespace>
//         commits batches that set "k0"…"k49" to 1, 2, 3, … until killed, printing
//         "committed N" after each
//
// It reaches the server named by RIPPLE_POSTGRES_SOCKET.
#if PostgreSQL
  import Foundation
  import KeyedStore
  import KeyedStorePostgreSQL
  import PostgresNIO

  let arguments = CommandLine.arguments
  guard arguments.count >= 3,
    let socket = ProcessInfo.processInfo.environment["RIPPLE_POSTGRES_SOCKET"]
  else {
    FileHandle.standardError.write(Data("usage: increment|batches <namespace> [count]\n".utf8))
    exit(2)
  }
  let configuration = PostgreSQLBackend.Configuration(
    connection: .init(
      unixSocketPath: socket, username: "postgres", password: nil, database: "postgres"),
    namespace: arguments[2])

  do {
    let store = try Store(persistence: .postgreSQL(configuration))
    switch arguments[1] {
    case "increment":
      let count = Int(arguments[3]) ?? 0
      let counter = StoreKey<Int>("counter")
      for _ in 0..<count { store.update(0, for: counter) { $0 += 1 } }
      try store.flush()
      print("done")
    case "batches":
      var round = 0
      while true {
        round += 1
        let value = round
        try store.batch { batch in
          for index in 0..<50 { batch.stage(value, for: StoreKey<Int>("k\(index)")) }
        }
        try store.flush()
        // Unbuffered: the test reads it while this process runs.
        FileHandle.standardOutput.write(Data("committed \(round)\n".utf8))
      }
    default:
      exit(2)
    }
  } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
  }
#endif
