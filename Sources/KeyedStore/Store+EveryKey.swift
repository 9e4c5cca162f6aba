import ReactiveCore

/// An observer of every key of a store (see ``Store/registerObserverForAllKeys(on:_:)``).
struct EveryKeyObserver {
  let id: UInt64
  let deliver: @Sendable (AnyMutation) -> Void
}

extension Store {
  /// Every key this store holds a value for, sorted by name: keys staged here, and keys
  /// read from the store's file — also those that no typed key has used yet, whose value
  /// comes as JSON.
  ///
  ///     for key in store.listedKeys {
  ///         print(key.name, key.untypedValue?.json ?? "(typed)")
  ///     }
  ///
  /// A server whose keys are named at run time (feature flags that another process
  /// creates) lists them here and reads each with a typed key of its name.
  public var listedKeys: [ListedKey] {
    state.withLock { state in
      var listed: [ListedKey] = []
      for entry in state.entries.owned where entry.anyValue != nil {
        listed.append(
          ListedKey(name: entry.name, valueTypeName: "\(entry.valueType)", untypedValue: nil))
      }
      for (name, json) in state.stored where state.entries[name] == nil {
        listed.append(ListedKey(name: name, valueTypeName: nil, untypedValue: UntypedValue(json)))
      }
      return listed.sorted { $0.name < $1.name }
    }
  }

  /// Registers a closure to run for every mutation of every key from now on — keys bound
  /// later and keys no typed key has used included — in commit order, with the origin
  /// rules of a key's own observers.
  ///
  ///     let receipt = store.registerObserverForAllKeys { mutation in
  ///         print("\(mutation.key.name) is now \(mutation.newValue)")
  ///     }
  ///     store.retireObserver(receipt)
  ///
  /// A mutation of a key that a typed key bound carries its typed values. A key that no
  /// typed key has used in this store (another process wrote it to the file) is reported
  /// when its value changes there: its mutation's ``AnyMutation/key`` has the value type
  /// ``UntypedValue``, and its values are the JSON. A key removed from the file is not a
  /// mutation.
  ///
  /// - Parameters:
  ///   - scheduler: Where to run the closure; `nil` runs it on the committing thread.
  ///   - body: Receives each mutation.
  /// - Returns: A receipt for ``retireObserver(_:)``.
  @discardableResult
  public func registerObserverForAllKeys(
    on scheduler: (any Scheduler & Sendable)? = nil, _ body: @escaping (AnyMutation) -> Void
  ) -> ObserverReceipt {
    let body = UncheckedObserver(body)
    let call: @Sendable (AnyMutation) -> Void = { body.call($0) }
    let scheduled = scheduler.map { scheduler in Self.scheduling(call, on: scheduler) } ?? call
    return state.withLock { state in
      let id = state.newObserverID()
      state.everyKeyObservers.append(EveryKeyObserver(id: id, deliver: scheduled))
      for entry in state.entries.owned { entry.addObserver(id: id, scheduled) }
      return ObserverReceipt(id: id, keyName: "", observesEveryKey: true)
    }
  }

  /// A publisher of every mutation of every key (see
  /// ``registerObserverForAllKeys(on:_:)``); each subscription registers an observer that
  /// is retired when the subscription is cancelled.
  ///
  /// - Returns: A publisher of type-erased mutations.
  public func publisherForAllKeys() -> AnyPublisher<AnyMutation, Never> {
    Deferred { [self] in
      let subject = PassthroughSubject<AnyMutation, Never>()
      let receipt = registerObserverForAllKeys { subject.send($0) }
      return subject.handleEvents(receiveCancel: { [weak self] in self?.retireObserver(receipt) })
    }
    .eraseToAnyPublisher()
  }

  private static func scheduling<S: Scheduler & Sendable>(
    _ call: @escaping @Sendable (AnyMutation) -> Void, on scheduler: S
  ) -> @Sendable (AnyMutation) -> Void {
    { mutation in scheduler.schedule { call(mutation) } }
  }

  /// Retires an observer of every key: from the list new entries copy, and from each
  /// entry.
  ///
  /// - Returns: The observers removed, to release outside the lock.
  static func retireEveryKeyObserver(id: UInt64, in state: inout StoreState) -> [AnyObject] {
    state.everyKeyObservers.removeAll { $0.id == id }
    return state.entries.owned.compactMap { $0.removeObserver(id: id) }
  }
}

extension StoreState {
  /// Gives a new entry the observers of every key, in registration order.
  mutating func addEveryKeyObservers(to entry: StoreEntry) {
    for observer in everyKeyObservers { entry.addObserver(id: observer.id, observer.deliver) }
  }

  /// The delivery of a change, by another store or process, of a key that no typed key
  /// has used in this store, to the observers of every key.
  func untypedDelivery(
    name: String, old: StoredJSON?, new: StoredJSON, origin: MutationOrigin,
    at timestamp: ContinuousClock.Instant
  ) -> any Delivery {
    let mutation = AnyMutation(
      key: AnyStoreKey(StoreKey<UntypedValue>(name)), oldValue: old.map(UntypedValue.init),
      newValue: UntypedValue(new), timestamp: timestamp, origin: origin)
    return UntypedDelivery(mutation: mutation, observers: everyKeyObservers)
  }
}

/// A mutation of a key no typed key has used, and the observers of every key registered
/// when it was committed.
struct UntypedDelivery: Delivery {
  let mutation: AnyMutation
  let observers: [EveryKeyObserver]

  func run() { for observer in observers { observer.deliver(mutation) } }
}
