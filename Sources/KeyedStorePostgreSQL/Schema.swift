#if PostgreSQL
  import KeyedStore
  import PostgresNIO

  /// The backend's table, created and changed by numbered steps that run exactly once
  /// across a fleet: each runs in a transaction holding a fleet-wide advisory lock, and
  /// is recorded in `ripple_keyed_store_schema` in the same transaction.
  enum Schema {
    /// The steps, in order; a step's number is its index + 1. Append, never edit.
    static let steps: [String] = [
      """
      CREATE TABLE ripple_keyed_store (
        namespace text NOT NULL,
        key bytea NOT NULL,
        value jsonb,
        value_json json,
        revision bigint NOT NULL,
        writer text NOT NULL,
        PRIMARY KEY (namespace, key),
        CHECK ((value IS NULL) <> (value_json IS NULL))
      )
      """,
      "CREATE INDEX ripple_keyed_store_by_revision ON ripple_keyed_store (namespace, revision)",
      """
      CREATE TABLE ripple_keyed_store_versions (
        namespace text PRIMARY KEY, version integer NOT NULL)
      """,
    ]

    /// Brings the database's schema up to ``steps``; a no-op (one query) when it is.
    static func migrate(on connection: PostgresConnection, backend: PostgreSQLBackend)
      throws(StoreError)
    {
      if try version(on: connection, backend: backend) >= steps.count { return }
      _ = try backend.run("BEGIN", on: connection)
      _ = try backend.run(
        "SELECT pg_advisory_xact_lock(\(Statements.lockClass), \(Statements.schemaLockKey))::text",
        on: connection)
      _ = try backend.run(
        """
        CREATE TABLE IF NOT EXISTS ripple_keyed_store_schema (
          version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
        """, on: connection)
      // Read again under the lock: another process may have migrated meanwhile.
      let current = try version(on: connection, backend: backend)
      for (index, step) in steps.enumerated() where index + 1 > current {
        _ = try backend.run(PostgresQuery(unsafeSQL: step), on: connection)
        _ = try backend.run(
          "INSERT INTO ripple_keyed_store_schema (version) VALUES (\(index + 1))",
          on: connection)
      }
      _ = try backend.run("COMMIT", on: connection)
    }

    /// The highest step recorded, or 0 before the first migration.
    static func version(on connection: PostgresConnection, backend: PostgreSQLBackend)
      throws(StoreError) -> Int
    {
      let exists = try backend.run(
        "SELECT (to_regclass('ripple_keyed_store_schema') IS NOT NULL)::text", on: connection)
      guard (try? exists.first?.decode(String.self)) == "true" else { return 0 }
      let rows = try backend.run(
        "SELECT coalesce(max(version), 0) FROM ripple_keyed_store_schema", on: connection)
      guard let row = rows.first else { return 0 }
      do {
        return Int(try row.decode(Int32.self))
      } catch {
        throw .corruptFile(path: backend.location, reason: "the schema version is not a number")
      }
    }
  }
#endif
