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
  @discardableResult @inlinable
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
  @discardableResult @inlinable
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
  @discardableResult @inlinable
  public func stage<Value: Sendable>(_ value: Value, for key: StoreKey<Value>) -> StageOutcome {
    stage(value, for: key) { _ in false }
  }

  // Inlinable, with everything it touches, so that it is specialised for the caller's
  // value type: unspecialised, each generic type it names costs a metadata lookup.
  @inlinable
  func stage<Value: Sendable>(
    _ value: Value, for key: StoreKey<Value>, isRedundant: (Value) -> Bool
  ) -> StageOutcome {
    let acquired = deliveries.enter()
    defer { deliveries.exit(acquired) }
    state.lock.lock()
    guard let found = state.existingEntry(for: key) else {
      return stageFirst(value, for: key, isRedundant: isRedundant)
    }
    // Entries are never removed, so the store keeps this one alive: no retain needed.
    unowned(unsafe) let entry = found.takeUnretainedValue()
    let oldValue = entry.value
    if let oldValue, isRedundant(oldValue) {
      state.lock.unlock()
      return .discardedAsRedundant
    }
    entry.value = value
    // A persisting entry is marked dirty once per write: later stages find it dirty.
    let queueWrite = entry.persists && !entry.isDirty && state.markDirty(entry)
    let observers = entry.observers
    state.lock.unlock()
    if queueWrite { persistence?.requestWrite() }
    guard !observers.isEmpty else { return .committed }
    let mutation = Mutation(
      key: key, oldValue: oldValue, newValue: value, nanoseconds: StoreClock.nanoseconds)
    deliveries.deliver(mutation, to: observers)
    return .committed
  }

  /// The first use of a key in this store: binds it (decoding its stored value, if any)
  /// and stores `value`. Only observers of every key can be registered on an entry
  /// created here. Called with the state lock held; releases it.
  @inlinable
  func stageFirst<Value: Sendable>(
    _ value: Value, for key: StoreKey<Value>, isRedundant: (Value) -> Bool
  ) -> StageOutcome {
    switch state.value.entry(for: key) {
    case .success(let entry):
      let oldValue = entry.value
      if let oldValue, isRedundant(oldValue) {
        state.lock.unlock()
        return .discardedAsRedundant
      }
      entry.value = value
      let queueWrite = entry.persists && !entry.isDirty && state.markDirty(entry)
      let observers = entry.observers
      state.lock.unlock()
      if queueWrite { persistence?.requestWrite() }
      guard !observers.isEmpty else { return .committed }
      let mutation = Mutation(
        key: key, oldValue: oldValue, newValue: value, nanoseconds: StoreClock.nanoseconds)
      deliveries.deliver(mutation, to: observers)
      return .committed
    case .failure(let error):
      state.lock.unlock()
      return .rejected(error)
    }
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
    let commit = { (state: inout StoreState) -> ((StoreError?, Bool), [any Delivery]) in
      var entries: [StoreEntry] = []
      for (key, _) in ordered {
        guard let entry = state.entry(for: key) else {
          let known = state.entries[key.name]!.valueType
          let error = StoreError.typeMismatch(
            key: key.name, expected: "\(known)", actual: "\(key.valueType)")
          return ((error, false), [])
        }
        entries.append(entry)
      }
      // One lock hold commits the whole batch, so a write takes all of it or none.
      var queueWrite = false
      let deliveries = zip(entries, ordered).map { entry, pair in
        let delivery = entry.commitAny(pair.value, at: timestamp)
        if entry.persists && !entry.isDirty { queueWrite = state.markDirty(entry) || queueWrite }
        return delivery
      }
      return ((nil, queueWrite), deliveries)
    }
    if let persistence, ordered.contains(where: { $0.key.persistsInFile }) {
      // Against the file's current values, and written before returning.
      let acquired = deliveries.enter()
      defer { deliveries.exit(acquired) }
      let ((error, _), delivered) = persistence.transaction { state in
        let (outcome, delivery) = commit(&state)
        return (outcome, delivery as any Delivery)
      }
      deliveries.deliver(delivered)
      if let error { throw error }
      return
    }
    let (error, queueWrite) = deliveries.commit {
      () -> ((StoreError?, Bool), [any Delivery]) in
      state.withLock { commit(&$0) }
    }
    if queueWrite { persistence?.requestWrite() }
    if let error { throw error }
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
    deliveries.commit { () -> (Void, TypedDelivery<Value>?) in
      state.withLock { state in
        guard let entry = state.entryForReading(key), let value = entry.value else {
          return ((), nil)
        }
        return ((), entry.commit(value, at: timestamp))
      }
    }
  }

  /// Atomically reads, transforms and writes a key's value, so concurrent updates never
  /// lose each other's changes — on a persisted store, also updates from other stores and
  /// other processes that share the file.
  ///
  ///     store.update(false, for: .someBool) { $0.toggle() }
  ///
  /// `body` runs outside the store's lock and may run again if another thread changed
  /// the value meanwhile, so keep it free of side effects.
  ///
  /// On a persisted store, a key that persists is updated against the file: the commit
  /// holds the file's lock, starts from the file's current value (read again when it
  /// changed on disk), and writes the file before the lock is released, so N processes
  /// each adding 1 M times end at exactly N × M. When the file cannot be locked or read in
  /// time, the update commits in memory, is written in the background, and the next
  /// ``flush()`` throws the failure.
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
      let persistence = key.persistsInFile ? self.persistence : nil
      // Cheap when the file did not change (one `stat`): starts `body` from what other
      // processes wrote, so that the commit below seldom has to run it again.
      do {
        try persistence?.checkForChanges()
      } catch {
        // Only a head start: the commit below reads the file again under its lock, and
        // reports (and keeps for the next flush) what fails there.
      }
      let seen = value(for: key)
      var next = seen ?? initial
      body(&next)
      let timestamp = ContinuousClock.now
      let commit = { (state: inout StoreState) -> ((Bool, Bool), TypedDelivery<Value>?) in
        guard state.entryForReading(key)?.value == seen else { return ((false, false), nil) }
        guard case .success(let entry) = state.entry(for: key) else {
          return ((true, false), nil)
        }
        guard seen != next || seen == nil else { return ((true, false), nil) }
        let delivery = entry.commit(next, at: timestamp)
        let queueWrite = entry.persists && !entry.isDirty && state.markDirty(entry)
        return ((true, queueWrite), delivery)
      }
      if let persistence {
        let acquired = deliveries.enter()
        defer { deliveries.exit(acquired) }
        let ((done, _), delivered) = persistence.transaction { state in
          let (outcome, delivery) = commit(&state)
          return (outcome, delivery as any Delivery)
        }
        deliveries.deliver(delivered)
        if done { return next }
        continue
      }
      let (done, queueWrite) = deliveries.commit { () -> ((Bool, Bool), TypedDelivery<Value>?) in
        state.withLock { commit(&$0) }
      }
      if queueWrite { self.persistence?.requestWrite() }
      if done { return next }
    }
  }
}

extension StoreKey {
  /// Whether a persisted store writes this key to its file: declared persisted, with a
  /// `Codable` value.
  var persistsInFile: Bool { isPersisted && Value.self is any Codable.Type }
}

extension AnyStoreKey {
  /// Whether a persisted store writes this key to its file.
  var persistsInFile: Bool { isPersisted && valueType is any Codable.Type }
}

/// The values of a typed batch, built in ``Store/batch(_:)``.
public struct StoreBatch: Sendable {
  var values: [AnyStoreKey: any Sendable] = [:]

  /// Adds a value to stage with the batch.
  public mutating func stage<Value: Sendable>(_ value: Value, for key: StoreKey<Value>) {
    values[AnyStoreKey(key)] = value
  }
}
