import ReactiveCore

extension Store {
  /// Stages (writes) a value; a value equal to the current one is dropped unless
  /// `discardingRedundancy` is `false`.
  ///
  ///     store.stage(true, for: .someBool)
  ///     store.stage(27, for: .someInt, discardingRedundancy: false)
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - key: The key to write.
  ///   - discardingRedundancy: Whether to drop a value equal to the current one.
  /// - Returns: Whether it was committed, dropped as redundant, or rejected because the
  ///   key's name is already used with another type.
  @discardableResult
  public func stage<Value: Sendable & Equatable>(
    _ value: Value, for key: StoreKey<Value>, discardingRedundancy: Bool
  ) -> StageOutcome {
    stage(value, for: key) { old in discardingRedundancy && old == value }
  }

  /// Stages (writes) a value, dropping it if it equals the current one.
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - key: The key to write.
  /// - Returns: Whether it was committed, dropped as redundant, or rejected.
  @discardableResult
  public func stage<Value: Sendable & Equatable>(_ value: Value, for key: StoreKey<Value>)
    -> StageOutcome
  {
    stage(value, for: key, discardingRedundancy: true)
  }

  /// Stages (writes) a value of a type that is not `Equatable`; it is always committed.
  ///
  /// - Parameters:
  ///   - value: The new value.
  ///   - key: The key to write.
  /// - Returns: Whether it was committed or rejected.
  @discardableResult
  public func stage<Value: Sendable>(_ value: Value, for key: StoreKey<Value>) -> StageOutcome {
    stage(value, for: key) { _ in false }
  }

  private func stage<Value: Sendable>(
    _ value: Value, for key: StoreKey<Value>, isRedundant: (Value) -> Bool
  ) -> StageOutcome {
    let timestamp = ContinuousClock.now
    let outcome = state.withLock { state -> StageOutcome in
      if let error = state.checkType(key.name, Value.self) { return .rejected(error) }
      if let old = state.values[key.name] as? Value, isRedundant(old) {
        return .discardedAsRedundant
      }
      state.commit(value, key: AnyStoreKey(key), at: timestamp)
      return .committed
    }
    deliveries.drain(state)
    return outcome
  }

  /// Stages a value after a delay, on the store's scheduler.
  ///
  ///     let pending = store.stage(false, for: .someBool, after: .seconds(12))
  ///     pending.cancel()   // never staged
  ///
  /// - Parameters:
  ///   - value: The value to stage.
  ///   - key: The key to write.
  ///   - delay: How long to wait.
  /// - Returns: A cancellable that prevents the stage if it has not happened yet.
  public func stage<Value: Sendable & Equatable>(
    _ value: Value, for key: StoreKey<Value>, after delay: Duration
  ) -> AnyCancellable {
    scheduleAfter(delay) { [weak self] in self?.stage(value, for: key) }
  }

  /// Stages several values of different keys atomically, after checking every type:
  /// on a mismatch nothing is staged. Observers run after the whole batch is committed.
  ///
  ///     try store.stage([AnyStoreKey(.someBool): true, AnyStoreKey(.someInt): 72])
  ///
  /// - Parameter values: The values to stage, by key.
  /// - Throws: ``StoreError/typeMismatch(key:expected:actual:)`` naming the first key
  ///   whose value has the wrong type.
  public func stage(_ values: [AnyStoreKey: any Sendable]) throws(StoreError) {
    let timestamp = ContinuousClock.now
    let ordered = values.sorted { $0.key.name < $1.key.name }
    for (key, value) in ordered
    where ObjectIdentifier(type(of: value)) != ObjectIdentifier(key.valueType) {
      throw .typeMismatch(key: key.name, expected: "\(key.valueType)", actual: "\(type(of: value))")
    }
    try state.withLock { (state: inout StoreState) throws(StoreError) in
      var trial = state.types
      for (key, _) in ordered {
        if let known = trial[key.name], ObjectIdentifier(known) != ObjectIdentifier(key.valueType) {
          throw .typeMismatch(key: key.name, expected: "\(known)", actual: "\(key.valueType)")
        }
        trial[key.name] = key.valueType
      }
      state.types = trial
      for (key, value) in ordered { state.commit(value, key: key, at: timestamp) }
    }
    deliveries.drain(state)
  }

  /// Stages several typed values atomically: observers run after the whole batch.
  ///
  ///     store.batch { batch in
  ///         batch.stage(true, for: .someBool)
  ///         batch.stage(3, for: .someInt)
  ///     }
  ///
  /// - Parameter build: Adds the values to stage.
  /// - Throws: ``StoreError`` if a key's name is already used with another type; nothing
  ///   is staged then.
  public func batch(_ build: (inout StoreBatch) -> Void) throws(StoreError) {
    var batch = StoreBatch()
    build(&batch)
    try stage(batch.values)
  }

  /// Notifies a key's observers without changing its value (old and new are the
  /// current value). Does nothing for a key that has no value yet.
  ///
  /// - Parameter key: The key whose observers to notify.
  public func post<Value: Sendable>(_ key: StoreKey<Value>) {
    let timestamp = ContinuousClock.now
    state.withLock { state in
      guard let value = state.values[key.name] else { return }
      state.enqueue(
        AnyMutation(key: AnyStoreKey(key), oldValue: value, newValue: value, timestamp: timestamp))
    }
    deliveries.drain(state)
  }

  /// Atomically reads, transforms and writes a key's value, so concurrent updates never
  /// lose each other's changes.
  ///
  ///     store.update(false, for: .someBool) { $0.toggle() }
  ///
  /// `body` runs outside the store's lock and may run again if another thread changed
  /// the value meanwhile, so keep it free of side effects.
  ///
  /// - Parameters:
  ///   - initial: The value to start from when the key has none.
  ///   - key: The key to update.
  ///   - body: Transforms the value in place.
  /// - Returns: The value committed.
  @discardableResult
  public func update<Value: Sendable & Equatable>(
    _ initial: Value, for key: StoreKey<Value>, _ body: (inout Value) -> Void
  ) -> Value {
    while true {
      let seen = state.withLock { $0.values[key.name] as? Value }
      var next = seen ?? initial
      body(&next)
      let timestamp = ContinuousClock.now
      let done = state.withLock { state -> Bool in
        guard state.values[key.name] as? Value == seen else { return false }
        guard state.checkType(key.name, Value.self) == nil else { return true }
        if seen != next || seen == nil { state.commit(next, key: AnyStoreKey(key), at: timestamp) }
        return true
      }
      if done {
        deliveries.drain(state)
        return next
      }
    }
  }
}

/// The values of a typed batch, built in ``Store/batch(_:)``.
public struct StoreBatch: Sendable {
  var values: [AnyStoreKey: any Sendable] = [:]

  /// Adds a value to stage with the batch.
  public mutating func stage<Value: Sendable>(_ value: Value, for key: StoreKey<Value>) {
    values[AnyStoreKey(key)] = value
  }
}
