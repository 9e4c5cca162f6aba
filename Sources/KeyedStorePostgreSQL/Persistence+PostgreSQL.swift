#if PostgreSQL
  import KeyedStore

  extension Persistence {
    /// Values of `Codable` keys are also kept in PostgreSQL, shared by every store of the
    /// same namespace on any machine (see KeyedStore's article *When one machine is not
    /// enough*).
    ///
    ///     let store = try Store(persistence: .postgreSQL(configuration))
    ///
    /// - Parameters:
    ///   - configuration: The server, credentials, TLS and namespace.
    ///   - changeCheckInterval: The backstop: the store also asks the server for others'
    ///     changes every `changeCheckInterval` × 8 (at least every 2 seconds), besides
    ///     hearing them at once through `LISTEN`; `nil` relies on `LISTEN` and
    ///     `Store/refresh()` alone.
    /// - Returns: The persistence to pass to `Store/init(persistence:)`.
    public static func postgreSQL(
      _ configuration: PostgreSQLBackend.Configuration,
      changeCheckInterval: Duration? = .milliseconds(250)
    ) -> Persistence {
      .backend(
        PostgreSQLBackend(configuration: configuration), changeCheckInterval: changeCheckInterval)
    }
  }
#endif
