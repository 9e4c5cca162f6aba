import ReactiveCore

extension Store {
  /// Registers a closure to run for every mutation committed to a key from now on.
  ///
  /// Like staging, registering binds an unused key name to `Value`; an observer of a name
  /// already bound to another type is never called.
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
    let deliver = Self.deliver(UncheckedObserver(body), on: scheduler)
    return state.withLock { state in
      let id = state.newObserverID()
      // A name already bound to another type never commits a `Value`: the observer
      // would never run, so it is not kept.
      if case .success(let entry) = state.entry(for: key) {
        entry.addObserver(id: id, deliver)
      }
      return ObserverReceipt(id: id, keyName: key.name)
    }
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
    let deliver: @Sendable (AnyMutation) -> Void = { body.call($0) }
    let scheduled = Self.deliver(UncheckedObserver(deliver), on: scheduler)
    let receipts = state.withLock { state in
      keys.map { key in
        let id = state.newObserverID()
        state.entry(for: key)?.addObserver(id: id) { scheduled.call($0) }
        return ObserverReceipt(id: id, keyName: key.name)
      }
    }
    return ObserverReceipts(receipts: receipts, store: self)
  }

  private static func deliver<Argument>(
    _ body: UncheckedObserver<Argument>, on scheduler: (any Scheduler & Sendable)?
  ) -> UncheckedObserver<Argument> {
    guard let scheduler else { return body }
    return UncheckedObserver { argument in
      let call = UncheckedObserver { (_: Void) in body.call(argument) }
      schedule(on: scheduler) { call.call(()) }
    }
  }

  private static func schedule<S: Scheduler & Sendable>(
    on scheduler: S, _ action: @escaping @Sendable () -> Void
  ) {
    scheduler.schedule(action)
  }

  /// Stops an observer: it receives nothing committed after this returns, and is
  /// released (once any delivery already running on another thread finishes).
  ///
  /// - Parameter receipt: The receipt from registration.
  public func retireObserver(_ receipt: ObserverReceipt) {
    let removed = state.withLock { state -> [AnyObject] in
      if receipt.observesEveryKey {
        return Self.retireEveryKeyObserver(id: receipt.id, in: &state)
      }
      return state.entries[receipt.keyName]?.removeObserver(id: receipt.id).map { [$0] } ?? []
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

  /// A publisher of a key's mutations that, when `initial` is `true`, first sends the
  /// key's current value — as Defaults' `publisher(_:options: [.initial])` does.
  ///
  ///     store.publisher(for: .someInt, initial: true)
  ///         .sink { print($0.newValue) }   // the current value, then each change
  ///
  /// The current value is read and the observer registered in one step, under the
  /// store's lock and delivery order: no mutation committed meanwhile is missed or sent
  /// twice. The first mutation has the current value as both ``Mutation/oldValue`` and
  /// ``Mutation/newValue``, and ``MutationOrigin/thisStore`` as its origin; a key with no
  /// value yet sends nothing first.
  ///
  /// - Parameters:
  ///   - key: The key to observe.
  ///   - initial: Whether to send the current value first; `false` is
  ///     ``publisher(for:)``.
  /// - Returns: A publisher of mutations.
  public func publisher<Value: Sendable>(for key: StoreKey<Value>, initial: Bool)
    -> AnyPublisher<Mutation<Value>, Never>
  {
    guard initial else { return publisher(for: key) }
    return CurrentThenMutations(store: self, key: key).eraseToAnyPublisher()
  }

  /// Registers `body` and delivers the key's current value to it first, atomically:
  /// holding the delivery drain, so that no commit is delivered in between.
  func registerObserverSendingCurrentValue<Value: Sendable>(
    for key: StoreKey<Value>, _ body: @escaping (Mutation<Value>) -> Void
  ) -> ObserverReceipt {
    let acquired = deliveries.enter()
    defer { deliveries.exit(acquired) }
    let timestamp = ContinuousClock.now
    let (receipt, initial) = state.withLock { state -> (ObserverReceipt, TypedDelivery<Value>?) in
      let id = state.newObserverID()
      let receipt = ObserverReceipt(id: id, keyName: key.name)
      guard case .success(let entry) = state.entry(for: key) else { return (receipt, nil) }
      entry.addObserver(id: id, UncheckedObserver(body))
      guard let value = entry.value, let observer = entry.observers.last else {
        return (receipt, nil)
      }
      let mutation = Mutation(key: key, oldValue: value, newValue: value, timestamp: timestamp)
      return (receipt, TypedDelivery(mutation: mutation, observers: [observer]))
    }
    if let initial { deliveries.deliver(initial) }
    return receipt
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
@usableFromInline
struct UncheckedObserver<Argument>: @unchecked Sendable {
  @usableFromInline
  let call: (Argument) -> Void
  init(_ call: @escaping (Argument) -> Void) { self.call = call }
}

/// ``Store/publisher(for:initial:)``: attaches the subscriber to a subject first, then
/// registers the observer and sends the current value in one step, so that the value
/// reaches a subscriber that is already there.
private struct CurrentThenMutations<Value: Sendable>: Publisher {
  typealias Output = Mutation<Value>
  typealias Failure = Never

  let store: Store
  let key: StoreKey<Value>

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    let subject = PassthroughSubject<Mutation<Value>, Never>()
    // The receipt, once registered, and whether the subscriber cancelled before that.
    let registration = LockedBox<(receipt: ObserverReceipt?, cancelled: Bool)>((nil, false))
    subject.handleEvents(receiveCancel: { [weak store] in
      let receipt = registration.withLock { registration in
        registration.cancelled = true
        return registration.receipt
      }
      if let receipt { store?.retireObserver(receipt) }
    })
    .receive(subscriber: subscriber)
    let receipt = store.registerObserverSendingCurrentValue(for: key) { subject.send($0) }
    let cancelled = registration.withLock { registration in
      registration.receipt = receipt
      return registration.cancelled
    }
    if cancelled { store.retireObserver(receipt) }
  }
}
