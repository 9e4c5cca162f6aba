#if PostgreSQL
  import KeyedStore
  import NIOCore
  import PostgresNIO

  // The queries: a connection per backend, transactions under the namespace's advisory
  // lock, and rows read and written with every key and value a bind parameter.
  extension PostgreSQLBackend {
    /// Runs `body` on this backend's connection, connecting first if needed. A failure
    /// closes the connection, so that the next call starts on a new one.
    func withConnection<Result>(
      _ body: (PostgresConnection, inout State) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
      try state.withLock { state throws(StoreError) -> Result in
        if state.isClosed {
          throw .writeFailed(path: location, reason: "the store was closed")
        }
        let connection: PostgresConnection
        if let open = state.connection, !open.isClosed {
          connection = open
        } else {
          let connecting = PostgresConnection.connect(
            on: group.any(), configuration: configuration.connection, id: 1, logger: logger)
          do throws(StoreError) {
            connection = try wait(connecting, doing: "connecting")
          } catch {
            // Past the timeout, a connection that still comes is closed, not leaked.
            connecting.whenSuccess { closeQuietly($0) }
            throw error
          }
          state.connection = connection
        }
        do throws(StoreError) {
          return try body(connection, &state)
        } catch {
          state.connection = nil
          closeQuietly(connection)
          throw error
        }
      }
    }

    /// Runs `body` in one transaction that holds the namespace's advisory lock (waiting
    /// at most `timeout` for another writer), and commits it; a failure rolls it back.
    func transaction(
      timeout: Duration?,
      _ body: (PostgresConnection, inout State) throws(StoreError) -> Int64?
    ) throws(StoreError) {
      try withConnection { connection, state throws(StoreError) in
        let wait = timeout.map { min($0, configuration.timeout) } ?? configuration.timeout
        let milliseconds =
          Int(wait.components.seconds * 1_000)
          + Int(wait.components.attoseconds / 1_000_000_000_000_000)
        _ = try run("BEGIN", on: connection)
        // A literal integer, not a bind parameter: SET takes no parameters.
        _ = try run(
          PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(max(1, milliseconds))"),
          on: connection)
        _ = try run(Statements.lock(namespace: configuration.namespace), on: connection)
        let written = try body(connection, &state)
        _ = try run("COMMIT", on: connection)
        // The lock was held since the catch-up: nobody wrote between it and this revision.
        if let written { state.seen = max(state.seen, written) }
      }
    }

    /// What other writers committed past ``State/seen``, which then moves to the highest
    /// revision read.
    func changesSinceSeen(on connection: PostgresConnection, _ state: inout State)
      throws(StoreError) -> StoreBackendChanges
    {
      let since = state.seen
      let rows = try run(
        Statements.since(namespace: configuration.namespace, revision: since), on: connection)
      var changes = StoreBackendChanges()
      var highest = since
      for row in rows {
        let (key, value, revision, writer) = try decode(row)
        highest = max(highest, revision)
        guard writer != writerID else { continue }
        changes.changed[key] = value
        if WriterRegistry.isThisProcess(writer) { changes.writtenInThisProcess.insert(key) }
      }
      state.seen = highest
      return changes
    }

    /// Writes `values` at the namespace's next revision and notifies the other stores;
    /// inside ``transaction(timeout:_:)``, which holds the lock that orders revisions.
    ///
    /// - Returns: The revision written, or `nil` when there was nothing to write.
    func write(_ values: [String: StoreBackendValue], on connection: PostgresConnection)
      throws(StoreError) -> Int64?
    {
      guard !values.isEmpty else { return nil }
      let namespace = configuration.namespace
      let next = try run(Statements.nextRevision(namespace: namespace), on: connection)
      guard let revision = try next.first.map({ row throws(StoreError) in try decodeRevision(row) })
      else { throw .writeFailed(path: location, reason: "the server returned no revision") }
      for (key, value) in values {
        _ = try run(
          Statements.upsert(
            namespace: namespace, key: key, json: value.jsonText, revision: revision,
            writer: writerID), on: connection)
      }
      _ = try run(Statements.notify(namespace: namespace), on: connection)
      return revision
    }

    /// Runs one query and returns its rows.
    func run(_ query: PostgresQuery, on connection: PostgresConnection) throws(StoreError)
      -> [PostgresRow]
    {
      try wait(connection.query(query, logger: logger), doing: "running a query").rows
    }

    /// Waits for `future`, at most the configured timeout.
    ///
    /// - Throws: `StoreError/writeFailed(path:reason:)` naming the server and
    ///   what failed: the server's error code and message, never the connection's
    ///   credentials.
    func wait<Value: Sendable>(_ future: EventLoopFuture<Value>, doing what: String)
      throws(StoreError) -> Value
    {
      let promise = future.eventLoop.makePromise(of: Value.self)
      future.cascade(to: promise)
      let (seconds, attoseconds) = configuration.timeout.components
      let limit = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
      let timer = future.eventLoop.scheduleTask(in: limit) {
        promise.fail(TimedOut())
      }
      future.whenComplete { _ in timer.cancel() }
      do {
        return try promise.futureResult.wait()
      } catch {
        throw .writeFailed(path: location, reason: "\(what) failed: \(Self.reason(for: error))")
      }
    }

    /// Why a call failed, in words that hold no credential: the server's SQLSTATE and
    /// message, or the kind of connection failure.
    static func reason(for error: any Error) -> String {
      if error is TimedOut { return "no answer within the timeout" }
      guard let error = error as? PSQLError else { return "\(type(of: error))" }
      if let message = error.serverInfo?[.message] {
        let code = error.serverInfo?[.sqlState] ?? "?"
        return "the server said \(message) (SQLSTATE \(code))"
      }
      return "\(error.code)"
    }

    /// Reads one row of `Statements.all` or `Statements.since`.
    func decode(_ row: PostgresRow) throws(StoreError) -> (
      key: String, value: StoreBackendValue, revision: Int64, writer: String
    ) {
      let key: ByteBuffer
      let text: String
      let revision: Int64
      let writer: String
      do {
        (key, text, revision, writer) = try row.decode((ByteBuffer, String, Int64, String).self)
      } catch {
        throw .corruptFile(path: location, reason: "a row does not have the table's columns")
      }
      let value = try StoreBackendValue(jsonText: text, location: location)
      return (String(decoding: key.readableBytesView, as: UTF8.self), value, revision, writer)
    }

    func decodeRevision(_ row: PostgresRow) throws(StoreError) -> Int64 {
      do {
        return try row.decode(Int64.self)
      } catch {
        throw .corruptFile(path: location, reason: "the next revision is not a number")
      }
    }
  }

  /// A query that took longer than the backend's timeout.
  struct TimedOut: Error {}

  /// Closes a connection without waiting for it to close; the connection is kept until
  /// it has (postgres-nio requires a connection to be closed before it is released).
  func closeQuietly(_ connection: PostgresConnection) {
    let closing: EventLoopFuture<Void> = connection.close()
    closing.whenComplete { _ in withExtendedLifetime(connection) {} }
  }
#endif
