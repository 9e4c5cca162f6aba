#if PostgreSQL
  import Dispatch
  import KeyedStore
  import Logging
  import NIOCore
  import NIOPosix
  import PostgresNIO
  import ReactiveCore

  /// A `StoreBackend` on PostgreSQL: the same typed store for every process
  /// and machine that shares a database.
  ///
  ///     let store = try Store(persistence: .postgreSQL(
  ///         PostgreSQLBackend.Configuration(
  ///             connection: .init(
  ///                 host: "db.internal", username: "app", password: secret,
  ///                 database: "app", tls: .require(tlsContext)),
  ///             namespace: "flags")))
  ///
  /// Values are `jsonb` rows of the table `ripple_keyed_store`, keyed by (namespace, key),
  /// each with the revision that last wrote it. Every write (a flush, an update, a batch)
  /// is one transaction that holds the namespace's advisory lock, so revisions follow
  /// commit order; it notifies the channel `ripple_keyed_store`, and every other store of
  /// the namespace, hearing it on its `LISTEN` connection, reads the rows past the last
  /// revision it saw. KeyedStore's article *When one machine is not enough* says what is
  /// promised.
  ///
  /// # Thread safety
  /// The store calls one method at a time; `connection` and `seen` are guarded by
  /// `state`, held across each call's queries. The listener has its own lock. Blocking
  /// calls wait on SwiftNIO futures, never on Swift concurrency, so a store used from a
  /// task cannot starve the cooperative pool.
  public final class PostgreSQLBackend: StoreBackend {
    /// How a backend reaches its database, and which part of the table it uses.
    public struct Configuration: Sendable {
      /// The server, the credentials and TLS, as postgres-nio takes them. The password is
      /// never part of an error text.
      public var connection: PostgresConnection.Configuration
      /// The stores that share values: stores of one namespace see each other's keys;
      /// other namespaces are invisible. At most 1,000 bytes.
      public var namespace: String
      /// How long a connection attempt, a query or a wait for another writer may take
      /// before the call fails with `StoreError/writeFailed(path:reason:)`.
      public var timeout: Duration
      /// How to bring the namespace's values up to date, as for a store file: the first
      /// store that opens with a newer schema version runs the steps, once for the whole
      /// fleet, under the namespace's lock, and records the version; a store whose
      /// migrations are older than the namespace's version does not open
      /// (`StoreError/newerVersion(path:found:supported:)`).
      public var migrations: [StoreMigration]

      /// A configuration.
      ///
      /// - Parameters:
      ///   - connection: The server, the credentials and TLS.
      ///   - namespace: The stores that share values.
      ///   - timeout: How long a connection, a query or a wait for a writer may take.
      ///   - migrations: How to bring the namespace's values up to date.
      public init(
        connection: PostgresConnection.Configuration, namespace: String = "default",
        timeout: Duration = .seconds(10), migrations: [StoreMigration] = []
      ) {
        self.connection = connection
        self.namespace = namespace
        self.timeout = timeout
        self.migrations = migrations
      }
    }

    let configuration: Configuration
    /// Not SwiftNIO's shared singleton: the store blocks on these loops' futures, which
    /// must never be an app's own event loop (waiting there would trap), so a flush from a
    /// channel handler of the app's server only blocks, as a file write would.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var group: any EventLoopGroup { Self.group }
    let logger = Logger(label: "Ripple.KeyedStorePostgreSQL")
    /// Names this backend's rows, so that it can tell its own writes from others'.
    let writerID: String
    let state = LockedBox(State())
    let listener: Listener

    struct State {
      /// The connection that runs this backend's queries; `nil` until needed and after a
      /// failure.
      var connection: PostgresConnection?
      /// The highest revision this backend has read or written.
      var seen: Int64 = 0
      var isClosed = false
    }

    /// Where the values are: the server, database and namespace (never a password).
    public let location: String
    /// `false`: a PostgreSQL backend writes whenever the server lets it.
    public var isReadOnly: Bool { false }

    /// Creates a backend; it connects when the store opens.
    ///
    /// - Parameter configuration: The server and the namespace.
    public init(configuration: Configuration) {
      self.configuration = configuration
      writerID = WriterRegistry.newID()
      location = Self.describe(configuration)
      listener = Listener(configuration: configuration, group: Self.group, logger: logger)
    }

    deinit {
      close()
    }

    static func describe(_ configuration: Configuration) -> String {
      let connection = configuration.connection
      let server =
        connection.unixSocketPath.map { "socket \($0)" }
        ?? "\(connection.host ?? "?"):\(connection.port ?? 5432)"
      return "PostgreSQL \(server), database \(connection.database ?? connection.username), "
        + "namespace \(configuration.namespace)"
    }

    public func load() throws(StoreError) -> [String: StoreBackendValue] {
      guard configuration.namespace.utf8.count <= 1_000 else {
        throw .writeFailed(path: location, reason: "the namespace is longer than 1,000 bytes")
      }
      return try withConnection { connection, state throws(StoreError) in
        try Schema.migrate(on: connection, backend: self)
        try migrateValues(on: connection, &state)
        let rows = try run(Statements.all(namespace: configuration.namespace), on: connection)
        var values: [String: StoreBackendValue] = [:]
        var highest: Int64 = 0
        for row in rows {
          let (key, value, revision, _) = try decode(row)
          values[key] = value
          highest = max(highest, revision)
        }
        state.seen = highest
        return values
      }
    }

    public func commit(
      _ values: [String: StoreBackendValue], timeout: Duration?,
      seen: inout StoreBackendChanges
    ) throws(StoreError) {
      var caughtUp = StoreBackendChanges()
      defer { seen.merge(caughtUp) }
      try transaction(timeout: timeout) { connection, state throws(StoreError) in
        caughtUp = try changesSinceSeen(on: connection, &state)
        return try write(values, on: connection)
      }
    }

    public func commitExclusively(
      timeout: Duration?, _ body: (StoreBackendChanges) -> [String: StoreBackendValue]
    ) throws(StoreError) {
      try transaction(timeout: timeout) { connection, state throws(StoreError) in
        let values = body(try changesSinceSeen(on: connection, &state))
        return try write(values, on: connection)
      }
    }

    public func changes() throws(StoreError) -> StoreBackendChanges {
      try withConnection { connection, state throws(StoreError) in
        try changesSinceSeen(on: connection, &state)
      }
    }

    public func watch(every interval: Duration?, events: StoreBackendEvents) {
      listener.start(pollingEvery: interval, events: events)
    }

    public func close() {
      let connection = state.withLock { state in
        state.isClosed = true
        defer { state.connection = nil }
        return state.connection
      }
      connection.map(closeQuietly)
      listener.stop()
    }
  }
#endif
