import Dispatch
import ReactiveCore

/// A typed, thread-safe, observable key–value store for app state.
///
///     let store = Store()
///     store.stage(true, for: .someBool)
///     let receipt = store.registerObserver(for: .someBool) { mutation in
///         print(mutation.oldValue as Any, mutation.newValue)
///     }
///     store.retireObserver(receipt)
///
/// Guarantees:
/// - Every committed mutation reaches every observer registered at commit time exactly
///   once, in commit order per key — also when many threads stage at once.
/// - No observer runs while the store's state lock is held; an observer may stage, read,
///   register and retire re-entrantly (its own stages are delivered right after it
///   returns).
/// - Observers never run concurrently with each other; by default they run on the
///   committing thread, and `stage` returns once its mutation has been delivered.
/// - A retired observer receives nothing committed after ``retireObserver(_:)`` returns,
///   and is released.
///
/// - Note: Thread-safe. `Store` is `Sendable`. Observer closures, like `sink` closures,
///   need not be `@Sendable`: they run one at a time, on the thread that commits (or on
///   the scheduler you pass), so make whatever they touch safe for that thread.
public final class Store: Sendable {
  /// The store that the key-centric spelling (`StoreKey.someBool.stageValue(true)`) uses.
  public static let shared = Store()

  let state = LockedBox(StoreState())
  let deliveries = DeliveryDrain()
  let scheduleAfter: @Sendable (Duration, @escaping @Sendable () -> Void) -> AnyCancellable

  /// Creates an empty store that runs delayed stages on a global dispatch queue.
  public convenience init() {
    self.init(scheduler: DispatchQueue.global())
  }

  /// Creates an empty store that runs delayed stages on `scheduler` — a `TestScheduler`
  /// in tests, so delays pass without sleeping.
  ///
  /// - Parameter scheduler: Where ``stage(_:for:after:)`` schedules its work.
  public init<S: Scheduler & Sendable>(scheduler: S) {
    scheduleAfter = { delay, action in
      let cancelled = LockedBox(false)
      let (seconds, attoseconds) = delay.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      scheduler.schedule(after: scheduler.now.advanced(by: .nanoseconds(nanoseconds))) {
        if !cancelled.withLock({ $0 }) { action() }
      }
      return AnyCancellable { cancelled.withLock { $0 = true } }
    }
  }
}

/// Everything a store holds, guarded by the store's lock.
struct StoreState {
  var values: [String: any Sendable] = [:]
  var types: [String: any Sendable.Type] = [:]
  var observers: [String: [Observer]] = [:]
  var liveObservers: Set<UInt64> = []
  var nextObserverID: UInt64 = 0
  var pending: [Delivery] = []
  var head = 0

  /// Records the value type of a key on first use; reports a conflicting one.
  mutating func checkType(_ name: String, _ type: any Sendable.Type) -> StoreError? {
    if let known = types[name] {
      guard ObjectIdentifier(known) == ObjectIdentifier(type) else {
        return .typeMismatch(key: name, expected: "\(known)", actual: "\(type)")
      }
      return nil
    }
    types[name] = type
    return nil
  }

  /// Stores a value and queues a delivery to every current observer of the key.
  mutating func commit(
    _ value: any Sendable, key: AnyStoreKey, at timestamp: ContinuousClock.Instant
  ) {
    let mutation = AnyMutation(
      key: key, oldValue: values[key.name], newValue: value, timestamp: timestamp)
    values[key.name] = value
    enqueue(mutation)
  }

  mutating func enqueue(_ mutation: AnyMutation) {
    for observer in observers[mutation.key.name] ?? [] {
      pending.append(
        Delivery(observerID: observer.id, deliver: observer.deliver, mutation: mutation))
    }
  }

  /// The next delivery whose observer is still registered.
  mutating func nextDelivery() -> Delivery? {
    while head < pending.count {
      let delivery = pending[head]
      head += 1
      if liveObservers.contains(delivery.observerID) { return delivery }
    }
    pending.removeAll(keepingCapacity: pending.count < 1_024)
    head = 0
    return nil
  }
}

/// A registered observer.
struct Observer {
  let id: UInt64
  let deliver: @Sendable (AnyMutation) -> Void
}

/// A mutation waiting to reach one observer.
struct Delivery {
  let observerID: UInt64
  let deliver: @Sendable (AnyMutation) -> Void
  let mutation: AnyMutation
}

/// Runs queued deliveries one at a time, outside the state lock.
///
/// A recursive lock serializes draining: a second thread waits until the first has
/// delivered everything queued (so each `stage` returns after its own delivery), while an
/// observer that stages re-entrantly on the draining thread only queues more work.
final class DeliveryDrain: @unchecked Sendable {
  /// Serializes drains; recursive so that observers may stage.
  private let drainLock = RecursiveLock()
  /// Read and written only with `drainLock` held.
  private var isDraining = false

  func drain(_ state: LockedBox<StoreState>) {
    drainLock.withLock {
      guard !isDraining else { return }
      isDraining = true
      defer { isDraining = false }
      while let delivery = state.withLock({ $0.nextDelivery() }) {
        delivery.deliver(delivery.mutation)
      }
    }
  }
}
