#if PostgreSQL
  import NIOCore
  import PostgresNIO

  /// Every statement the backend sends. Keys, values, namespaces and revisions are bind
  /// parameters (PostgresQuery's interpolation makes each one `$n`), never SQL text.
  ///
  /// Keys are `bytea` (their UTF-8 bytes), so that any Swift string, NUL included, is a
  /// key. A value is `jsonb`; one that `jsonb` cannot hold (a string with U+0000) is kept
  /// in `value_json`, a `json` column that keeps the text as it is.
  enum Statements {
    /// The advisory lock class that serialises the writers of one namespace.
    static let lockClass: Int32 = 0x5249_5050  // "RIPP"
    /// The advisory lock key of the schema migrations.
    static let schemaLockKey: Int32 = 0

    /// Takes the namespace's advisory lock until the transaction ends.
    static func lock(namespace: String) -> PostgresQuery {
      "SELECT pg_advisory_xact_lock(\(lockClass), hashtext(\(namespace)))::text"
    }

    /// Every row of a namespace.
    static func all(namespace: String) -> PostgresQuery {
      """
      SELECT key, coalesce(value::text, value_json::text), revision, writer
      FROM ripple_keyed_store WHERE namespace = \(namespace)
      """
    }

    /// The rows of a namespace written after `revision`, oldest first.
    static func since(namespace: String, revision: Int64) -> PostgresQuery {
      """
      SELECT key, coalesce(value::text, value_json::text), revision, writer
      FROM ripple_keyed_store WHERE namespace = \(namespace) AND revision > \(revision)
      ORDER BY revision
      """
    }

    /// The namespace's next revision; under its lock, so no other writer takes it.
    static func nextRevision(namespace: String) -> PostgresQuery {
      """
      SELECT coalesce(max(revision), 0) + 1 FROM ripple_keyed_store
      WHERE namespace = \(namespace)
      """
    }

    /// Writes one key's value at `revision`.
    static func upsert(
      namespace: String, key: String, json: String, revision: Int64, writer: String
    ) -> PostgresQuery {
      let keyBytes = ByteBuffer(bytes: Array(key.utf8))
      // jsonb refuses the escape of U+0000; json keeps the text.
      let needsText = json.contains("\\u0000")
      let jsonb: String? = needsText ? nil : json
      let text: String? = needsText ? json : nil
      return """
        INSERT INTO ripple_keyed_store (namespace, key, value, value_json, revision, writer)
        VALUES (\(namespace), \(keyBytes), \(jsonb)::jsonb, \(text)::json, \(revision), \(writer))
        ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value,
          value_json = excluded.value_json, revision = excluded.revision, writer = excluded.writer
        """
    }

    /// Removes one key (a migration dropped or renamed it).
    static func delete(namespace: String, key: String) -> PostgresQuery {
      let keyBytes = ByteBuffer(bytes: Array(key.utf8))
      return "DELETE FROM ripple_keyed_store WHERE namespace = \(namespace) AND key = \(keyBytes)"
    }

    /// The namespace's recorded schema version, if any.
    static func version(namespace: String) -> PostgresQuery {
      "SELECT version FROM ripple_keyed_store_versions WHERE namespace = \(namespace)"
    }

    /// Records the namespace's schema version.
    static func recordVersion(namespace: String, version: Int32) -> PostgresQuery {
      """
      INSERT INTO ripple_keyed_store_versions (namespace, version) VALUES (\(namespace), \(version))
      ON CONFLICT (namespace) DO UPDATE SET version = excluded.version
      """
    }

    /// Tells every listening store of the namespace, when the transaction commits.
    static func notify(namespace: String) -> PostgresQuery {
      "SELECT pg_notify('ripple_keyed_store', \(namespace))::text"
    }
  }
#endif
