#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  public var timestamp: ContinuousClock.Instant {
    ContinuousClock().systemEpoch.advanced(by: .nanoseconds(stamp >> 2))
  }
  /// Where the change came from: this store, or another store or process that wrote the
  /// store's file — so that an app can say "updated elsewhere".
  public var origin: MutationOrigin {
    switch stamp & 0b11 {
    case 0: .thisStore
    case 1: .anotherStore
    default: .anotherProcess
    }
  }
  /// ``timestamp`` and ``origin`` in one field: the continuous clock's reading in
  /// nanoseconds since its `systemEpoch` (its precision; 2⁶¹ ns is 73 years of uptime),
  /// shifted left two bits, with the origin in the low two bits.
  ///
  /// One plain integer because of how the compiler passes a `Mutation` of a small value
  /// (`Int`, `Bool`): as long as it is a handful of scalars it stays in registers, and the
  /// key, the old and the new value take all but one. The `Instant` itself (its layout is
  /// private to the standard library), or a `Duration` and an enum, made it a value copied
  /// and destroyed in memory through run-time type metadata: about 100 instructions on
  /// every stage.
  @usableFromInline
  let stamp: Int64

  @usableFromInline
  init(
    key: StoreKey<Value>, oldValue: Value?, newValue: Value, timestamp: ContinuousClock.Instant,
    origin: MutationOrigin = .thisStore
  ) {
    let (seconds, attoseconds) = ContinuousClock().systemEpoch.duration(to: timestamp).components
    self.init(
      key: key, oldValue: oldValue, newValue: newValue,
      nanoseconds: seconds * 1_000_000_000 + attoseconds / 1_000_000_000, origin: origin)
  }

  /// Creates a mutation committed `nanoseconds` after the continuous clock's `systemEpoch`
  /// (a ``StoreClock/nanoseconds`` reading).
  @inlinable
  init(
    key: StoreKey<Value>, oldValue: Value?, newValue: Value, nanoseconds: Int64,
    origin: MutationOrigin = .thisStore
  ) {
    self.key = key
    self.oldValue = oldValue
    self.newValue = newValue
    let originBits: Int64 =
      switch origin {
      case .thisStore: 0
      case .anotherStore: 1
      case .anotherProcess: 2
      }
    stamp = nanoseconds << 2 | originBits
  }
}

/// Reads the continuous clock as a ``Mutation`` stores it.
@usableFromInline
enum StoreClock {
  /// `ContinuousClock.now`, in nanoseconds since the clock's `systemEpoch`.
  ///
  /// On Linux it reads the clock `ContinuousClock` reads (`CLOCK_BOOTTIME`, in the Swift
  /// runtime's `swift_get_time`) itself, so its readings are the instants
  /// `ContinuousClock.now` returns and order exactly with them: going through
  /// `ContinuousClock.now` costs about 70 instructions of calls and run-time metadata on
  /// every stage.
  @inlinable @inline(__always)
  static var nanoseconds: Int64 {
    #if os(Linux) && (canImport(Glibc) || canImport(Musl))
      var time = timespec()
      clock_gettime(CLOCK_BOOTTIME, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #else
      let (seconds, attoseconds) = ContinuousClock().systemEpoch.duration(to: .now).components
      return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    #endif
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
  /// Whether the observer observes every key (``Store/registerObserverForAllKeys(on:_:)``).
  var observesEveryKey = false
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
