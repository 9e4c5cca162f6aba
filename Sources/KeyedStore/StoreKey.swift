/// A typed key into a ``Store``. Its name is its identity.
///
/// Declare keys once, as static members:
///
///     extension StoreKey where Value == Bool {
///         static let someBool = StoreKey("someBool")
///     }
///
/// Two keys with the same name and different value types are a misuse that the store
/// reports with ``StoreError/typeMismatch(key:expected:actual:)`` at the first
/// conflicting use.
public struct StoreKey<Value: Sendable>: Hashable, Sendable, CustomStringConvertible {
  /// The key's name, which identifies it.
  public let name: String
  /// Whether a persisting store writes this key's value to its file (when `Value` is
  /// `Codable`); `false` keeps it in memory only.
  public let isPersisted: Bool
  /// The name's hash, computed once here rather than on every stage: a store finds its
  /// entry by it (see `EntryTable`). Thirty-two bits, so that it fits the padding after
  /// `isPersisted` and a key stays 24 bytes.
  @usableFromInline
  let nameHash: UInt32

  /// Creates a key; a persisting store writes its value to the file when `Value` is
  /// `Codable`.
  ///
  /// - Parameter name: The name that identifies the key.
  public init(_ name: String) {
    self.init(name, persisted: true)
  }

  /// Creates a key, saying whether a persisting store writes its value to the file.
  ///
  ///     extension StoreKey where Value == String {
  ///         static let sessionToken = StoreKey("sessionToken", persisted: false)
  ///     }
  ///
  /// - Parameters:
  ///   - name: The name that identifies the key.
  ///   - persisted: Whether a persisting store writes the key's value to its file, when
  ///     `Value` is `Codable`. Pass `false` to keep a `Codable` value (a session token,
  ///     a cache) out of the file. The first use of a name in a store decides.
  public init(_ name: String, persisted: Bool) {
    self.name = name
    self.isPersisted = persisted
    self.nameHash = EntryName.hash(of: name)
  }

  /// Keys are equal when their names are.
  public static func == (lhs: StoreKey, rhs: StoreKey) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The key's name.
  public var description: String { name }
}

/// A key with its value type erased, for batches over keys of different types.
///
///     try store.stage([AnyStoreKey(.someBool): true, AnyStoreKey(.someInt): 72])
public struct AnyStoreKey: Hashable, Sendable, CustomStringConvertible {
  /// The key's name, which identifies it.
  public let name: String
  /// The value type the key was declared with.
  public let valueType: any Sendable.Type
  /// Whether a persisting store writes the key's value to its file.
  public let isPersisted: Bool

  /// Erases `key`.
  ///
  /// - Parameter key: The typed key.
  public init<Value: Sendable>(_ key: StoreKey<Value>) {
    name = key.name
    valueType = Value.self
    isPersisted = key.isPersisted
  }

  /// Keys are equal when their names are.
  public static func == (lhs: AnyStoreKey, rhs: AnyStoreKey) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The key's name.
  public var description: String { name }
}
