/// One committed change of a key's value, as observers receive it.
///
///     store.registerObserver(for: .someBool) { mutation in
///         print(mutation.oldValue as Any, mutation.newValue, mutation.timestamp)
///     }
public struct Mutation<Value: Sendable>: Sendable {
  /// The key that changed.
  public let key: StoreKey<Value>
  /// The value before the change; `nil` on the first stage of the key.
  public let oldValue: Value?
  /// The value after the change.
  public let newValue: Value
  /// When the change was committed.
  public let timestamp: ContinuousClock.Instant
  /// Where the change came from: this store, or another store or process that wrote the
  /// store's file — so that an app can say "updated elsewhere".
  public let origin: MutationOrigin

  @usableFromInline
  init(
    key: StoreKey<Value>, oldValue: Value?, newValue: Value, timestamp: ContinuousClock.Instant,
    origin: MutationOrigin = .thisStore
  ) {
    self.key = key
    self.oldValue = oldValue
    self.newValue = newValue
    self.timestamp = timestamp
    self.origin = origin
  }
}

/// Where a ``Mutation`` came from.
///
///     store.registerObserver(for: .theme) { mutation in
///         if mutation.origin != .thisStore { showBanner("Theme changed in another window") }
///     }
public enum MutationOrigin: Hashable, Sendable {
  /// Staged, updated or posted on this store — also the current value that
  /// ``Store/publisher(for:initial:)`` sends first.
  case thisStore
  /// Written to the store's file by another store in this process.
  case anotherStore
  /// Written to the store's file by another process.
  case anotherProcess
}

/// A mutation with its value type erased, for observers of several keys at once.
public struct AnyMutation: Sendable {
  /// The key that changed.
  public let key: AnyStoreKey
  /// The value before the change; `nil` on the first stage of the key.
  public let oldValue: (any Sendable)?
  /// The value after the change.
  public let newValue: any Sendable
  /// When the change was committed.
  public let timestamp: ContinuousClock.Instant
  /// Where the change came from.
  public let origin: MutationOrigin
}

/// Identifies a registered observer, for ``Store/retireObserver(_:)``.
public struct ObserverReceipt: Hashable, Sendable {
  let id: UInt64
  let keyName: String
}

/// The receipts of a batch registration.
public struct ObserverReceipts: Sendable, Sequence {
  /// The receipts, one per key.
  public let receipts: [ObserverReceipt]
  let store: Store

  /// Retires every observer of the batch.
  public func retireAll() {
    for receipt in receipts { store.retireObserver(receipt) }
  }

  /// Iterates the receipts.
  public func makeIterator() -> IndexingIterator<[ObserverReceipt]> { receipts.makeIterator() }
}

/// What a typed ``Store/stage(_:for:discardingRedundancy:)`` did.
public enum StageOutcome: Equatable, Sendable {
  /// The value was committed and observers were notified.
  case committed
  /// The value equalled the current one and redundancy was being discarded.
  case discardedAsRedundant
  /// The key's name is already used with another value type; nothing changed.
  case rejected(StoreError)
}
