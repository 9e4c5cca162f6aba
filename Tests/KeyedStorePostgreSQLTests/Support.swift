#if PostgreSQL
  import Foundation
  import KeyedStore
  import KeyedStorePostgreSQL
  import PostgresNIO
  import ReactiveCore
  import Testing

  /// Every suite that talks to the server, one after another: one of them stops and
  /// starts the server.
  @Suite(.serialized) enum ServerTests {}

  /// The throwaway server `.ci/postgresql-start` started, as its variables describe it.
  enum TestServer {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The server's socket; the tests fail (they do not skip) without one.
    static func socket() throws -> String {
      try #require(
        environment["RIPPLE_POSTGRES_SOCKET"],
        "start a server first: eval \"$(bash .ci/postgresql-start)\"")
    }

    /// A configuration of a namespace no other test uses.
    static func configuration(
      namespace: String = "test-\(UUID().uuidString)", database: String = "postgres",
      password: String? = nil, timeout: Duration = .seconds(10)
    ) throws -> PostgreSQLBackend.Configuration {
      PostgreSQLBackend.Configuration(
        connection: .init(
          unixSocketPath: try socket(), username: "postgres", password: password,
          database: database),
        namespace: namespace, timeout: timeout)
    }

    /// Runs `psql` on the server as its owner; returns what it printed.
    @discardableResult
    static func psql(_ sql: String, database: String = "postgres") throws -> String {
      let socket = try socket()
      let folder = (socket as NSString).deletingLastPathComponent
      let port = try #require(environment["RIPPLE_POSTGRES_PORT"])
      return try run(
        "/usr/bin/psql",
        ["-h", folder, "-p", port, "-U", "postgres", "-d", database, "-tAq", "-c", sql])
    }

    /// Stops or starts the server (`pg_ctl stop -m fast` / `start`), as its owner.
    static func pgctl(_ action: String) throws {
      let bin = try #require(environment["RIPPLE_POSTGRES_BIN"])
      let data = try #require(environment["RIPPLE_POSTGRES_DATA"])
      let owner = try #require(environment["RIPPLE_POSTGRES_OWNER"])
      let socket = try socket()
      let folder = (socket as NSString).deletingLastPathComponent
      let port = try #require(environment["RIPPLE_POSTGRES_PORT"])
      var arguments = ["-D", data, "-w", "-l", folder + "/server.log", "-m", "fast"]
      arguments += ["-o", "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1", action]
      if getuid() == 0 {
        let group = try run("/usr/bin/id", ["-g", owner]).trimmingCharacters(
          in: .whitespacesAndNewlines)
        try spawnAndWait(
          "/usr/bin/setpriv",
          ["--reuid=\(owner)", "--regid=\(group)", "--clear-groups", bin + "/pg_ctl"] + arguments)
      } else {
        try spawnAndWait(bin + "/pg_ctl", arguments)
      }
    }

    /// Runs a program to its end with `posix_spawn` and `waitpid`: Foundation's `Process`
    /// would wait for every descendant that inherited its descriptors, and the server that
    /// `pg_ctl start` leaves running keeps them for good.
    static func spawnAndWait(_ program: String, _ arguments: [String]) throws {
      let argv = ([program] + arguments).map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var child = pid_t()
      let code = posix_spawn(&child, program, nil, nil, argv, environ)
      guard code == 0 else { throw CommandFailed(command: program, output: "spawn \(code)") }
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
      guard status == 0 else {
        throw CommandFailed(command: "\(program) \(arguments.last ?? "")", output: "\(status)")
      }
    }

    /// Runs a program and returns what it printed.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
      let output = Pipe()
      process.standardOutput = output
      process.standardError = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      let text = String(decoding: data, as: UTF8.self)
      guard process.terminationStatus == 0 else {
        throw CommandFailed(command: "\(program) \(arguments.first ?? "")", output: text)
      }
      return text
    }

    /// The test child, beside the test bundle.
    static func childProgram() throws -> String {
      var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      for _ in 0..<5 {
        let candidate = folder.appendingPathComponent("KeyedStorePostgreSQLChild").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder.deleteLastPathComponent()
      }
      throw CommandFailed(command: "find KeyedStorePostgreSQLChild", output: "")
    }
  }

  struct CommandFailed: Error {
    let command: String
    let output: String
  }

  /// Waits until `condition` holds, for at most twenty seconds; returns whether it held.
  func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
    for _ in 0..<2_000 {
      if try condition() { return true }
      usleep(10_000)
    }
    return try condition()
  }

  final class Recorder<Value: Sendable>: Sendable {
    private let box = LockedBox<[Value]>([])
    func append(_ value: Value) { box.withLock { $0.append(value) } }
    var values: [Value] { box.withLock { $0 } }
  }
#endif
