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
/// `Store()` keeps its values in memory; `try Store(persistence: .file(path:))` also keeps
/// every `Codable` value in a JSON file, written in the background (see
/// <doc:PersistingState>). Every guarantee above holds for both.
///
/// - Note: Thread-safe. `Store` is `Sendable`. Observer closures, like `sink` closures,
///   need not be `@Sendable`: they run one at a time, on the thread that commits (or on
///   the scheduler you pass), so make whatever they touch safe for that thread.
public final class Store: Sendable {
  /// The store that the key-centric spelling (`StoreKey.someBool.stageValue(true)`) uses.
  public static let shared = Store()

  @usableFromInline
  let state: StoreStorage
  @usableFromInline
  let deliveries: DeliveryDrain
  let scheduleAfter: @Sendable (Duration, @escaping @Sendable () -> Void) -> AnyCancellable
  /// Writes `Codable` values to the store's file; `nil` in memory.
  @usableFromInline
  let persistence: StorePersistence?

  /// Creates an empty in-memory store that runs delayed stages on a global dispatch
  /// queue.
  public convenience init() {
    self.init(scheduler: DispatchQueue.global())
  }

  /// Creates an empty in-memory store that runs delayed stages on `scheduler` — a
  /// `TestScheduler` in tests, so delays pass without sleeping.
  ///
  /// - Parameter scheduler: Where ``stage(_:for:after:)`` schedules its work.
  public convenience init<S: Scheduler & Sendable>(scheduler: S) {
    self.init(
      scheduler: scheduler, state: StoreStorage(), deliveries: DeliveryDrain(), persistence: nil)
  }

  /// Creates a store from its parts; the persistence, if any, is already open on `state`.
  init<S: Scheduler & Sendable>(
    scheduler: S, state: StoreStorage, deliveries: DeliveryDrain,
    persistence: StorePersistence?
  ) {
    self.state = state
    self.deliveries = deliveries
    self.persistence = persistence
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

  // Leaves the file complete: what was committed is written before the store goes; a
  // failure reaches `errors`.
  deinit {
    persistence?.closeReleased()
  }
}

/// A store's state and the lock that guards it.
///
/// Not ReactiveCore's `LockedBox`: `stage` is inlined into the caller's module, and there
/// the generic box's `@exclusivity(unchecked)` is not honoured, which put a run-time
/// exclusivity check (`swift_beginAccess`) on every stage. Declared here, it is.
@usableFromInline
final class StoreStorage: @unchecked Sendable {
  @usableFromInline
  let lock = Lock()
  /// Use only between `lock.lock()` and `lock.unlock()`; the lock makes the run-time
  /// exclusivity check redundant.
  @usableFromInline
  @exclusivity(unchecked)
  var value = StoreState()

  @usableFromInline
  init() {}

  /// Runs `body` with the lock held.
  @inlinable
  func withLock<Result>(_ body: (inout StoreState) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }

  /// ``StoreState/existingEntry(for:)`` for a caller holding the lock, reading only the
  /// entries in place (called on `value` as a whole, the method would copy the state and
  /// retain each of its collections on every stage), and unretained: the table keeps
  /// every entry as long as the store, so `stage` borrows it.
  @inlinable
  func existingEntry<Value: Sendable>(for key: StoreKey<Value>) -> Unmanaged<TypedEntry<Value>>? {
    guard let existing = value.entries.unretainedEntry(for: key),
      existing._withUnsafeGuaranteedRef({
        ObjectIdentifier($0.valueType) == ObjectIdentifier(Value.self)
      })
    else { return nil }
    // Created, and checked, for this value type on the key's first use.
    return Unmanaged.fromOpaque(existing.toOpaque())
  }
}

/// Everything a store holds, guarded by the store's lock.
@usableFromInline
struct StoreState {
  @usableFromInline
  var entries = EntryTable()
  var nextObserverID: UInt64 = 0

  // Persistence; see StoreState+Persistence.swift.
  /// The store file, or `nil` in memory: whether `Codable` entries persist.
  var filePath: String?
  /// Values read from the file whose keys no typed access has bound yet, as JSON.
  var stored: [String: StoredJSON] = [:]
  /// Why a stored value did not decode as its key's type, by key name.
  var undecodable: [String: StoreError] = [:]
  /// Persisting entries changed since the last write, in the order they changed.
  var dirty: [StoreEntry] = []
  /// Whether a write is queued; the stage that finds it `false` queues one.
  var writeRequested = false
  /// Values another store wrote to bound keys, to commit and deliver as mutations.
  var pendingExternal: [String: (json: StoredJSON, origin: MutationOrigin)] = [:]
  /// Publishes a stored value that did not decode as its key's type on the store's
  /// ``Store/errors``; set by a persisting store. Never called back under the lock: it
  /// hands the error to the store's queue.
  var reportUndecodable: (@Sendable (StoreError) -> Void)?
  /// Observers of every key, in registration order; each new entry gets them too.
  var everyKeyObservers: [EveryKeyObserver] = []
  /// Values another store wrote to keys no typed key has used, to deliver to observers of
  /// every key.
  var pendingUntyped: [String: (old: StoredJSON?, new: StoredJSON, origin: MutationOrigin)] = [:]

  mutating func newObserverID() -> UInt64 {
    nextObserverID += 1
    return nextObserverID
  }

  /// The entry of `key`, created on first use; a `StoreError` if the key's name is bound
  /// to another value type.
  @inlinable
  mutating func entry<Value: Sendable>(for key: StoreKey<Value>) -> Result<
    TypedEntry<Value>, StoreError
  > {
    guard let existing = entries[key] else { return .success(makeEntry(key)) }
    guard ObjectIdentifier(existing.valueType) == ObjectIdentifier(Value.self) else {
      return .failure(
        .typeMismatch(key: key.name, expected: "\(existing.valueType)", actual: "\(Value.self)"))
    }
    return .success(unsafeDowncast(existing, to: TypedEntry<Value>.self))
  }

  /// The entry of a type-erased key, created on first use; `nil` if the key's name is
  /// bound to another value type.
  mutating func entry(for key: AnyStoreKey) -> StoreEntry? {
    func make<Value: Sendable>(_: Value.Type) -> StoreEntry {
      makeEntry(StoreKey<Value>(key.name, persisted: key.isPersisted))
    }
    guard let existing = entries[key.name] else { return make(key.valueType) }
    return ObjectIdentifier(existing.valueType) == ObjectIdentifier(key.valueType) ? existing : nil
  }

  /// The entry of `key` if it exists with that value type.
  @inlinable
  func existingEntry<Value: Sendable>(for key: StoreKey<Value>) -> TypedEntry<Value>? {
    guard let existing = entries[key],
      ObjectIdentifier(existing.valueType) == ObjectIdentifier(Value.self)
    else { return nil }
    return unsafeDowncast(existing, to: TypedEntry<Value>.self)
  }
}

/// Runs deliveries one at a time, outside the state lock, in commit order.
///
/// Each commit happens while the drain is held, so deliveries follow commit order even
/// when many threads stage at once; a second thread waits until the first has delivered.
/// The drain is recursive: an observer that stages on the delivering thread commits at
/// once, and its delivery is queued to run right after the one under way.
@usableFromInline
final class DeliveryDrain: @unchecked Sendable {
  @usableFromInline
  let drainLock = RecursiveLock()
  // Touched only by the thread holding `drainLock`.
  @usableFromInline
  @exclusivity(unchecked)
  var isDraining = false
  @usableFromInline
  @exclusivity(unchecked)
  var queued: [any Delivery] = []

  @usableFromInline
  init() {}

  /// Holds the drain; commit, then ``deliver(_:)``, then ``exit(_:)``.
  ///
  /// - Returns: Whether this call acquired the drain; pass it to ``exit(_:)``.
  @inlinable @inline(__always)
  func enter() -> Bool { drainLock.enter() }

  /// Releases the drain.
  @inlinable @inline(__always)
  func exit(_ acquired: Bool) { drainLock.exit(acquired) }

  /// Runs `delivery` now, or, when an observer on this thread is being delivered to,
  /// right after that delivery. The drain must be held.
  @inlinable @inline(__always)
  func deliver(_ delivery: some Delivery) {
    if isDraining { return queued.append(delivery) }
    drain { delivery.run() }
  }

  /// ``deliver(_:)`` for one mutation, typed: what `stage` uses. Wrapping the mutation in
  /// a generic `Delivery` first costs value-witness copies on every stage.
  @inlinable @inline(__always)
  func deliver<Value>(_ mutation: Mutation<Value>, to observers: [EntryObserver<Value>]) {
    if isDraining { return queued.append(TypedDelivery(mutation: mutation, observers: observers)) }
    drain { TypedDelivery.send(mutation, to: observers) }
  }

  /// Runs `deliverNow`, then whatever observers queued meanwhile, as the draining thread.
  @inlinable @inline(__always)
  func drain(_ deliverNow: () -> Void) {
    isDraining = true
    deliverNow()
    if !queued.isEmpty { runQueued() }
    isDraining = false
  }

  @usableFromInline
  func runQueued() {
    var index = 0
    while index < queued.count {
      let next = queued[index]
      next.run()
      index += 1
    }
    queued.removeAll(keepingCapacity: queued.count < 1_024)
  }

  /// Runs `commit` with the drain held, then delivers what it committed.
  ///
  /// - Parameter commit: Commits under the store's lock; returns the caller's outcome and
  ///   the delivery to run.
  /// - Returns: The outcome `commit` returned.
  @inlinable @inline(__always)
  func commit<Outcome, Committed: Delivery>(_ commit: () -> (Outcome, Committed)) -> Outcome {
    let acquired = enter()
    defer { exit(acquired) }
    let (outcome, delivery) = commit()
    deliver(delivery)
    return outcome
  }
}
