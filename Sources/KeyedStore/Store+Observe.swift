import ReactiveCore

extension Store {
  /// Registers a closure to run for every mutation committed to a key from now on.
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - scheduler: Where to run the closure; `nil` (the default) runs it synchronously
  ///     on the committing thread.
  ///   - body: Receives each mutation.
  /// - Returns: A receipt for ``retireObserver(_:)``.
  @discardableResult
  public func registerObserver<Value: Sendable>(
    for key: StoreKey<Value>, on scheduler: (any Scheduler & Sendable)? = nil,
    _ body: @escaping (Mutation<Value>) -> Void
  ) -> ObserverReceipt {
    let body = UncheckedObserver(body)
    let typed: @Sendable (AnyMutation) -> Void = { mutation in
      guard let newValue = mutation.newValue as? Value else { return }
      body.call(
        Mutation(
          key: key, oldValue: mutation.oldValue as? Value, newValue: newValue,
          timestamp: mutation.timestamp))
    }
    return register(key.name, deliver: Self.deliver(typed, on: scheduler))
  }

  /// Registers one closure for every mutation of several keys of any types.
  ///
  ///     let receipts = store.registerObserver(for: [AnyStoreKey(.someString), AnyStoreKey(.someInt)]) {
  ///         print("\($0.key) changed")
  ///     }
  ///     receipts.retireAll()
  ///
  /// - Parameters:
  ///   - keys: The keys to observe.
  ///   - scheduler: Where to run the closure; `nil` runs it on the committing thread.
  ///   - body: Receives each mutation.
  /// - Returns: The receipts, one per key.
  @discardableResult
  public func registerObserver(
    for keys: [AnyStoreKey], on scheduler: (any Scheduler & Sendable)? = nil,
    _ body: @escaping (AnyMutation) -> Void
  ) -> ObserverReceipts {
    let body = UncheckedObserver(body)
    let deliver = Self.deliver({ body.call($0) }, on: scheduler)
    return ObserverReceipts(receipts: keys.map { register($0.name, deliver: deliver) }, store: self)
  }

  private static func deliver(
    _ body: @escaping @Sendable (AnyMutation) -> Void, on scheduler: (any Scheduler & Sendable)?
  ) -> @Sendable (AnyMutation) -> Void {
    guard let scheduler else { return body }
    return { mutation in schedule(on: scheduler) { body(mutation) } }
  }

  private static func schedule<S: Scheduler & Sendable>(
    on scheduler: S, _ action: @escaping @Sendable () -> Void
  ) {
    scheduler.schedule(action)
  }

  private func register(_ name: String, deliver: @escaping @Sendable (AnyMutation) -> Void)
    -> ObserverReceipt
  {
    state.withLock { state in
      state.nextObserverID += 1
      let id = state.nextObserverID
      state.observers[name, default: []].append(Observer(id: id, deliver: deliver))
      state.liveObservers.insert(id)
      return ObserverReceipt(id: id, keyName: name)
    }
  }

  /// Stops an observer: it receives nothing committed after this returns, and is
  /// released (once any delivery already running on another thread finishes).
  ///
  /// - Parameter receipt: The receipt from registration.
  public func retireObserver(_ receipt: ObserverReceipt) {
    let removed = state.withLock { state -> [Observer] in
      state.liveObservers.remove(receipt.id)
      let all = state.observers[receipt.keyName] ?? []
      state.observers[receipt.keyName] = all.filter { $0.id != receipt.id }
      if state.observers[receipt.keyName]?.isEmpty == true {
        state.observers[receipt.keyName] = nil
      }
      return all.filter { $0.id == receipt.id }
    }
    _ = removed  // released here, outside the lock
  }

  /// A publisher of a key's mutations; each subscription registers an observer that is
  /// retired when the subscription is cancelled.
  ///
  /// - Parameter key: The key to observe.
  /// - Returns: A publisher of mutations.
  public func publisher<Value: Sendable>(for key: StoreKey<Value>) -> AnyPublisher<
    Mutation<Value>, Never
  > {
    Deferred { [self] in
      let subject = PassthroughSubject<Mutation<Value>, Never>()
      let receipt = registerObserver(for: key) { subject.send($0) }
      return subject.handleEvents(receiveCancel: { [weak self] in self?.retireObserver(receipt) })
    }
    .eraseToAnyPublisher()
  }

  /// The mutations of a key as an asynchronous sequence; ending the iteration retires the
  /// observer.
  ///
  ///     for await mutation in store.mutations(for: .someInt) { print(mutation.newValue) }
  ///
  /// - Parameter key: The key to observe.
  /// - Returns: A stream of mutations, buffered without limit.
  public func mutations<Value: Sendable>(for key: StoreKey<Value>) -> AsyncStream<Mutation<Value>> {
    AsyncStream { continuation in
      let receipt = registerObserver(for: key) { continuation.yield($0) }
      continuation.onTermination = { [weak self] _ in self?.retireObserver(receipt) }
    }
  }
}

/// Carries an observer closure, which (like a `sink` closure) need not be `@Sendable`,
/// into the store. The store runs observers one at a time; running one on the thread
/// that commits is the documented contract, as with Combine's subscribers.
struct UncheckedObserver<Argument>: @unchecked Sendable {
  let call: (Argument) -> Void
  init(_ call: @escaping (Argument) -> Void) { self.call = call }
}
