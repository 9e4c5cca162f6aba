import ReactiveCore

// The seed's key-centric spelling, on `Store.shared`.

extension StoreKey where Value: Equatable {
  /// Stages a value on ``Store/shared``.
  ///
  ///     StoreKey.someBool.stageValue(true)
  @discardableResult
  public func stageValue(_ value: Value, discardingRedundancy: Bool = true) -> StageOutcome {
    Store.shared.stage(value, for: self, discardingRedundancy: discardingRedundancy)
  }

  /// Stages a value on ``Store/shared`` after a delay.
  ///
  /// - Returns: A cancellable that prevents the stage.
  public func stageValue(_ value: Value, after delay: Duration) -> AnyCancellable {
    Store.shared.stage(value, for: self, after: delay)
  }
}

extension StoreKey {
  /// Hands the current value on ``Store/shared`` to `body`.
  ///
  ///     StoreKey.someBool.expressValue { value in print(value as Any) }
  public func expressValue(_ body: (Value?) -> Void) {
    body(Store.shared.value(for: self))
  }

  /// Observes the key on ``Store/shared``.
  ///
  /// - Returns: A receipt for ``retireObserver(_:)``.
  @discardableResult
  public func registerObserver(_ body: @escaping (Mutation<Value>) -> Void)
    -> ObserverReceipt
  {
    Store.shared.registerObserver(for: self, body)
  }

  /// Retires an observer of ``Store/shared``.
  public func retireObserver(_ receipt: ObserverReceipt) {
    Store.shared.retireObserver(receipt)
  }

  /// Notifies the key's observers on ``Store/shared`` without changing its value.
  public func post() {
    Store.shared.post(self)
  }
}

extension Array where Element == AnyStoreKey {
  /// Hands the current values of these keys on ``Store/shared`` to `body`, read
  /// atomically.
  public func expressValues(_ body: ([AnyStoreKey: any Sendable]) -> Void) {
    body(Store.shared.values(for: self))
  }

  /// Observes all these keys on ``Store/shared`` with one closure.
  ///
  /// - Returns: The receipts, with `retireAll()`.
  @discardableResult
  public func registerObservers(_ body: @escaping (AnyMutation) -> Void)
    -> ObserverReceipts
  {
    Store.shared.registerObserver(for: self, body)
  }
}

extension Dictionary where Key == AnyStoreKey, Value == any Sendable {
  /// Stages these values atomically on ``Store/shared``.
  ///
  ///     try [AnyStoreKey(.someBool): true, AnyStoreKey(.someInt): 72].stage()
  public func stage() throws(StoreError) {
    try Store.shared.stage(self)
  }
}
