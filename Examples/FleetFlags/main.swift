// Feature flags that every server of a fleet shares, through PostgreSQL: run one process
// that watches, and another (on any machine) that sets a flag.
//
//     swift run --traits PostgreSQL FleetFlags --socket /path/.s.PGSQL.5432 watch
//     swift run --traits PostgreSQL FleetFlags --socket /path/.s.PGSQL.5432 set maintenance true
//     swift run --traits PostgreSQL FleetFlags --host db.internal set rateLimit 50
//
// The watcher prints every change as it hears it (through LISTEN/NOTIFY) and exits on
// SIGINT or SIGTERM; `set` writes one flag, durably, and exits.
#if PostgreSQL
  import Dispatch
  import Foundation
  import KeyedStorePostgreSQL
  import PostgresNIO
  import Ripple

  extension StoreKey where Value == Bool {
    static let maintenance = StoreKey("maintenance")
  }
  extension StoreKey where Value == Int {
    static let rateLimit = StoreKey("rateLimit")
  }

  /// Prints a line at once, also into a pipe or a file (where `print` would buffer it):
  /// whoever drives the watcher reads its lines as they come.
  func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FleetFlags: \(message)\n".utf8))
    exit(1)
  }

  /// The value of `--name VALUE` in `arguments`, which loses both.
  func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
      return nil
    }
    defer { arguments.removeSubrange(index...index + 1) }
    return arguments[index + 1]
  }
  var arguments = Array(CommandLine.arguments.dropFirst())
  let socket = option("--socket", in: &arguments)
  let host = option("--host", in: &arguments)
  let namespace = option("--namespace", in: &arguments) ?? "fleet-flags"
  let connection: PostgresConnection.Configuration
  if let socket {
    connection = .init(
      unixSocketPath: socket, username: "postgres", password: nil, database: "postgres")
  } else {
    connection = .init(
      host: host ?? "127.0.0.1", username: "postgres",
      password: ProcessInfo.processInfo.environment["PGPASSWORD"], database: "postgres",
      tls: .disable)
  }

  let store: Store
  do {
    store = try Store(
      persistence: .postgreSQL(.init(connection: connection, namespace: namespace)))
  } catch {
    fail("\(error)")
  }

  switch arguments.first {
  case "watch":
    let maintenance = store.registerObserver(for: .maintenance) { mutation in
      say("maintenance = \(mutation.newValue) (\(mutation.origin))")
    }
    let rateLimit = store.registerObserver(for: .rateLimit) { mutation in
      say("rateLimit = \(mutation.newValue) (\(mutation.origin))")
    }
    say("watching \(namespace): maintenance = \(store[.maintenance] ?? false)")
    let stop = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber)
      // @Sendable: not the main actor's, which is blocked in `stop.wait()` below.
      source.setEventHandler { @Sendable in stop.signal() }
      source.resume()
      sources.append(source)
    }
    stop.wait()
    store.retireObserver(maintenance)
    store.retireObserver(rateLimit)
    say("stopped")
  case "set" where arguments.count == 3:
    let (name, text) = (arguments[1], arguments[2])
    switch name {
    case "maintenance":
      guard let value = Bool(text) else { fail("maintenance takes true or false") }
      store.stage(value, for: .maintenance)
    case "rateLimit":
      guard let value = Int(text) else { fail("rateLimit takes a whole number") }
      store.stage(value, for: .rateLimit)
    default:
      fail("no flag named \(name) (maintenance, rateLimit)")
    }
    do {
      try store.flush()
    } catch {
      fail("\(error)")
    }
    say("set \(name) = \(text)")
  default:
    fail(
      "usage: FleetFlags [--socket PATH | --host HOST] [--namespace NAME] watch | set FLAG VALUE")
  }
#else
  print("FleetFlags needs the PostgreSQL trait: swift run --traits PostgreSQL FleetFlags …")
#endif
