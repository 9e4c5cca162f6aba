#if PostgreSQL
  import KeyedStore
  import NIOCore
  import PostgresNIO

  // The namespace's StoreMigrations: run once for the fleet, when a store opens.
  extension PostgreSQLBackend {
    /// Brings the namespace's values to the configuration's schema version, holding the
    /// namespace's lock: renamed and transformed keys are written at the next revision
    /// (so that running stores hear them), dropped keys are deleted, and the version is
    /// recorded, all in one transaction. A namespace without a recorded version is at 1.
    ///
    /// - Throws: `StoreError/newerVersion(path:found:supported:)` when the namespace is
    ///   newer than these migrations, `StoreError/migrationFailed(path:version:step:reason:)`
    ///   when a step fails (nothing is changed then), or a failure of the server.
    func migrateValues(on connection: PostgresConnection, _ state: inout State)
      throws(StoreError)
    {
      let namespace = configuration.namespace
      let target = StoreMigration.schemaVersion(of: configuration.migrations)
      let found = try recordedVersion(on: connection)
      if found > target {
        throw .newerVersion(path: location, found: found, supported: target)
      }
      guard found < target else { return }
      _ = try run("BEGIN", on: connection)
      _ = try run(Statements.lock(namespace: namespace), on: connection)
      // Read again under the lock: another store of the fleet may have migrated meanwhile.
      let current = try recordedVersion(on: connection)
      if current > target {
        throw .newerVersion(path: location, found: current, supported: target)
      }
      if current < target {
        var values: [String: StoreBackendValue] = [:]
        for row in try run(Statements.all(namespace: namespace), on: connection) {
          let (key, value, _, _) = try decode(row)
          values[key] = value
        }
        if let migrated = try StoreMigration.migrate(
          values, from: current, with: configuration.migrations, location: location)
        {
          _ = try write(migrated.filter { values[$0.key] != $0.value }, on: connection)
          for key in values.keys where migrated[key] == nil {
            _ = try run(Statements.delete(namespace: namespace, key: key), on: connection)
          }
        }
        _ = try run(
          Statements.recordVersion(namespace: namespace, version: Int32(target)), on: connection)
      }
      _ = try run("COMMIT", on: connection)
    }

    /// The namespace's recorded schema version; 1 when none is recorded.
    func recordedVersion(on connection: PostgresConnection) throws(StoreError) -> Int {
      let rows = try run(Statements.version(namespace: configuration.namespace), on: connection)
      guard let row = rows.first else { return 1 }
      do {
        return Int(try row.decode(Int32.self))
      } catch {
        throw .corruptFile(path: location, reason: "the schema version is not a number")
      }
    }
  }
#endif
