extension Store {
  /// The current value of a key (expressing, in the seed's words), or `nil`.
  ///
  /// - Parameter key: The key to read.
  /// - Returns: The value, or `nil` if it was never staged.
  public func value<Value: Sendable>(for key: StoreKey<Value>) -> Value? {
    state.withLock { $0.entryForReading(key)?.value }
  }

  /// The current value of a key, or `nil`.
  public subscript<Value: Sendable>(key: StoreKey<Value>) -> Value? { value(for: key) }

  /// The current value of a key, read asynchronously.
  ///
  /// - Parameter key: The key to read.
  /// - Returns: The value, or `nil` if it was never staged.
  public func express<Value: Sendable>(_ key: StoreKey<Value>) async -> Value? {
    await Task.yield()
    return value(for: key)
  }

  /// The current values of several keys, read atomically: no stage can land between
  /// reading one and another.
  ///
  /// - Parameter keys: The keys to read.
  /// - Returns: The values of the keys that have one.
  public func values(for keys: [AnyStoreKey]) -> [AnyStoreKey: any Sendable] {
    state.withLock { state in
      var result: [AnyStoreKey: any Sendable] = [:]
      for key in keys {
        // A key the file holds a value for is bound (and decoded) by this read.
        if state.entries[key.name] == nil, state.stored[key.name] != nil {
          _ = state.entry(for: key)
        }
        result[key] = state.entries[key.name]?.anyValue
      }
      return result
    }
  }
}
