/// The steps that bring a store file from the previous schema version to ``version``.
///
/// A store opened on a file of an older version runs every migration above the file's
/// version, in version order, before anything is read. The file is rewritten only after
/// every step succeeded; a failing step throws
/// ``StoreError/migrationFailed(path:version:step:reason:)`` and leaves the file as it
/// was.
///
///     struct Profile: Codable { var name: String; var age: Int }
///     struct ProfileV1: Codable { var name: String }
///
///     let persistence = Persistence.file(path: path, migrations: [
///         StoreMigration(to: 2, steps: [
///             .renameKey("user", to: "profile"),
///             .transformValue(of: "profile", from: ProfileV1.self) { Profile(name: $0.name, age: 0) },
///             .dropKey("legacyFlag"),
///         ]),
///     ])
public struct StoreMigration: Sendable {
  /// The schema version a file has once this migration ran.
  public let version: Int
  /// The steps, run in order.
  public let steps: [Step]

  /// Creates a migration.
  ///
  /// - Parameters:
  ///   - version: The schema version it produces (2 or more).
  ///   - steps: What to change, in order.
  public init(to version: Int, steps: [Step]) {
    self.version = version
    self.steps = steps
  }

  /// One change to the stored values.
  public struct Step: Sendable, CustomStringConvertible {
    /// What the step does, for error messages.
    public let description: String
    let change: any MigrationChange

    func apply(_ values: inout [String: StoredJSON]) throws { try change.apply(&values) }

    /// Moves a key's value to a new name, replacing any value there. Does nothing when
    /// `oldName` has no value.
    ///
    /// - Parameters:
    ///   - oldName: The name in the file.
    ///   - newName: The name to move the value to.
    /// - Returns: The step.
    public static func renameKey(_ oldName: String, to newName: String) -> Step {
      Step(
        description: "renameKey(\"\(oldName)\", to: \"\(newName)\")",
        change: Rename(oldName: oldName, newName: newName))
    }

    /// Removes a key's value. Does nothing when the key has none.
    ///
    /// - Parameter name: The name in the file.
    /// - Returns: The step.
    public static func dropKey(_ name: String) -> Step {
      Step(description: "dropKey(\"\(name)\")", change: Drop(name: name))
    }

    /// Decodes a key's value as `Old`, transforms it, and stores the result — to add a
    /// field to a stored struct, for example. Does nothing when the key has no value; a
    /// value that does not decode as `Old`, or a `body` that throws, fails the migration.
    ///
    /// - Parameters:
    ///   - name: The name in the file.
    ///   - oldType: The type the value was written as.
    ///   - newType: The type to store.
    ///   - body: Makes the new value from the old one.
    /// - Returns: The step.
    public static func transformValue<Old: Decodable, New: Encodable>(
      of name: String, from oldType: Old.Type, to newType: New.Type = New.self,
      _ body: @escaping @Sendable (Old) throws -> New
    ) -> Step {
      Step(
        description: "transformValue(of: \"\(name)\", from: \(Old.self), to: \(New.self))",
        change: Transform(name: name, body: body))
    }
  }
}

/// What a step does to the stored values. A protocol rather than a closure, so that a
/// typed transform uses its types without capturing their metatypes.
protocol MigrationChange: Sendable {
  func apply(_ values: inout [String: StoredJSON]) throws
}

private struct Rename: MigrationChange {
  let oldName: String
  let newName: String

  func apply(_ values: inout [String: StoredJSON]) {
    if let value = values.removeValue(forKey: oldName) { values[newName] = value }
  }
}

private struct Drop: MigrationChange {
  let name: String

  func apply(_ values: inout [String: StoredJSON]) { values.removeValue(forKey: name) }
}

private struct Transform<Old: Decodable, New: Encodable>: MigrationChange {
  let name: String
  let body: @Sendable (Old) throws -> New

  func apply(_ values: inout [String: StoredJSON]) throws {
    guard let stored = values[name] else { return }
    let old = try stored.decode(as: Old.self)
    values[name] = try StoredJSON(encoding: UncheckedEncodable(try body(old)))
  }
}

/// Carries a value that is `Encodable` but maybe not `Sendable` into the encoder, which
/// uses it synchronously on this thread.
private struct UncheckedEncodable<Value: Encodable>: Encodable, @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

extension Array where Element == StoreMigration {
  /// Runs the migrations above `version`, in version order, on a copy of `values`.
  ///
  /// - Returns: The migrated values, or `nil` when none applied.
  /// - Throws: ``StoreError/migrationFailed(path:version:step:reason:)``.
  func migrate(_ values: [String: StoredJSON], from version: Int, path: String)
    throws(StoreError) -> [String: StoredJSON]?
  {
    let pending = filter { $0.version > version }.sorted { $0.version < $1.version }
    guard !pending.isEmpty else { return nil }
    var migrated = values
    for migration in pending {
      for step in migration.steps {
        do {
          try step.apply(&migrated)
        } catch {
          throw .migrationFailed(
            path: path, version: migration.version, step: step.description,
            reason: describe(error))
        }
      }
    }
    return migrated
  }
}

extension StoreMigration {
  /// The schema version that `migrations` bring values to: the highest
  /// ``StoreMigration/version`` among them, or 1 without migrations.
  ///
  /// - Parameter migrations: A store's migrations.
  /// - Returns: The version a backend records once it has run them.
  public static func schemaVersion(of migrations: [StoreMigration]) -> Int {
    migrations.map(\.version).max().map { max($0, 1) } ?? 1
  }

  /// Runs the migrations above `version` on a backend's values, in version order: what a
  /// ``StoreBackend`` that records a schema version (as the store file does) runs when it
  /// opens, so that migrations work the same over every backend.
  ///
  /// - Parameters:
  ///   - values: Every stored value, by key name.
  ///   - version: The schema version the values are at.
  ///   - migrations: The store's migrations.
  ///   - location: The backend's ``StoreBackend/location``, which an error names.
  /// - Returns: The migrated values (keys renamed or dropped are gone), or `nil` when no
  ///   migration applied.
  /// - Throws: ``StoreError/migrationFailed(path:version:step:reason:)``; nothing should
  ///   be written then.
  public static func migrate(
    _ values: [String: StoreBackendValue], from version: Int, with migrations: [StoreMigration],
    location: String
  ) throws(StoreError) -> [String: StoreBackendValue]? {
    try migrations.migrate(values.mapValues(\.json), from: version, path: location)?
      .mapValues(StoreBackendValue.init)
  }
}
