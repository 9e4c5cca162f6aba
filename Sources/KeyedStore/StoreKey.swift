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

  /// Creates a key.
  ///
  /// - Parameter name: The name that identifies the key.
  public init(_ name: String) { self.name = name }

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

  /// Erases `key`.
  ///
  /// - Parameter key: The typed key.
  public init<Value: Sendable>(_ key: StoreKey<Value>) {
    name = key.name
    valueType = Value.self
  }

  /// Keys are equal when their names are.
  public static func == (lhs: AnyStoreKey, rhs: AnyStoreKey) -> Bool { lhs.name == rhs.name }

  /// Hashes the name.
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// The key's name.
  public var description: String { name }
}

/// Misuse of a ``Store``, reported before anything changes.
public enum StoreError: Error, Equatable, CustomStringConvertible {
  /// A value of the wrong type for a key, or a key name used with two value types.
  case typeMismatch(key: String, expected: String, actual: String)

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected, let actual):
      "Key \"\(key)\" holds \(expected), but was used with \(actual); nothing was staged. "
        + "Give each value type its own key name."
    }
  }
}
