import ReactiveCore
import Synchronization

/// One key of a store: its value and its observers, typed by the first use of the key's
/// name, so that staging and delivering never cast a value. Guarded by the store's lock:
/// one lock for all of a store's entries (a batch stages many at once), so an entry holds
/// its fields bare rather than in a `LockedBox` of its own.
@usableFromInline
class StoreEntry {
  /// The value type this key's name is bound to.
  @usableFromInline
  let valueType: any Sendable.Type
  /// The key's name.
  @usableFromInline
  let name: String
  /// Whether the store writes this key to its file: a persisting store, a `Codable`
  /// value, and a key not declared `persisted: false`.
  @usableFromInline
  @exclusivity(unchecked)
  var persists = false
  /// Whether the value changed since the persistence last took it for writing.
  @usableFromInline
  @exclusivity(unchecked)
  var isDirty = false

  @usableFromInline
  init(name: String, valueType: any Sendable.Type) {
    self.name = name
    self.valueType = valueType
  }

  /// The current value, if any.
  var anyValue: (any Sendable)? { nil }

  /// Commits `value`, which must be of ``valueType``, and returns its delivery.
  func commitAny(_ value: any Sendable, at timestamp: ContinuousClock.Instant) -> any Delivery {
    fatalError("StoreEntry is abstract")
  }

  /// Decodes `json` as the key's value type and commits it: a value another store wrote
  /// to the file.
  ///
  /// - Throws: Whatever decoding threw; nothing is committed then.
  func commitStored(
    _ json: StoredJSON, at timestamp: ContinuousClock.Instant, origin: MutationOrigin
  ) throws -> any Delivery {
    fatalError("StoreEntry is abstract")
  }

  /// Gives the key no value: what a value another store wrote that does not decode does.
  func clearValue() {}

  /// Adds an observer of type-erased mutations.
  func addObserver(id: UInt64, _ deliver: @escaping @Sendable (AnyMutation) -> Void) {}

  /// Removes and returns an observer, so that it is released outside the lock.
  func removeObserver(id: UInt64) -> AnyObject? { nil }

  /// Whether no observer is registered.
  var hasNoObservers: Bool { true }
}

/// A key whose value is a `Value`.
@usableFromInline
final class TypedEntry<Value: Sendable>: StoreEntry {
  @usableFromInline
  let key: StoreKey<Value>
  @usableFromInline
  @exclusivity(unchecked)
  var value: Value?
  /// The registered observers in registration order; a retired one is replaced by
  /// ``retired`` until the next compaction, so that retiring one of many costs
  /// O(log n) (a binary search of `observerIDs`) instead of a shift of the array.
  @usableFromInline
  @exclusivity(unchecked)
  var observers: [EntryObserver<Value>] = []
  /// Each slot's observer id, ascending (ids only grow), kept with `observers`.
  @exclusivity(unchecked)
  var observerIDs: [UInt64] = []
  /// How many slots of `observers` hold ``retired``.
  @exclusivity(unchecked)
  var retiredCount = 0
  /// What a retired observer's slot holds: never live, so deliveries skip it. Read and
  /// created under the store's lock only.
  lazy var retired: EntryObserver<Value> = {
    let observer = EntryObserver<Value>(id: .max, deliver: UncheckedObserver { _ in })
    observer.isLive.store(false, ordering: .relaxed)
    return observer
  }()

  @usableFromInline
  init(_ key: StoreKey<Value>) {
    self.key = key
    super.init(name: key.name, valueType: Value.self)
  }

  override var anyValue: (any Sendable)? { value }

  override var hasNoObservers: Bool { observers.count == retiredCount }

  override func clearValue() { value = nil }

  /// Stores `newValue` and returns the delivery of its mutation to the current observers.
  @inlinable
  func commit(
    _ newValue: Value, at timestamp: ContinuousClock.Instant, origin: MutationOrigin = .thisStore
  ) -> TypedDelivery<Value> {
    let mutation = Mutation(
      key: key, oldValue: value, newValue: newValue, timestamp: timestamp, origin: origin)
    value = newValue
    return TypedDelivery(mutation: mutation, observers: observers)
  }

  override func commitAny(_ value: any Sendable, at timestamp: ContinuousClock.Instant)
    -> any Delivery
  {
    commit(value as! Value, at: timestamp)
  }

  override func commitStored(
    _ json: StoredJSON, at timestamp: ContinuousClock.Instant, origin: MutationOrigin
  ) throws -> any Delivery {
    commit(try json.decode(as: Value.self), at: timestamp, origin: origin)
  }

  func addObserver(id: UInt64, _ deliver: UncheckedObserver<Mutation<Value>>) {
    observers.append(EntryObserver(id: id, deliver: deliver))
    observerIDs.append(id)
  }

  override func addObserver(id: UInt64, _ deliver: @escaping @Sendable (AnyMutation) -> Void) {
    addObserver(id: id, UncheckedObserver { deliver(AnyMutation($0)) })
  }

  override func removeObserver(id: UInt64) -> AnyObject? {
    // Ids are handed out in increasing order and slots keep their order: binary search.
    var low = 0
    var high = observerIDs.count
    while low < high {
      let middle = (low + high) / 2
      if observerIDs[middle] < id { low = middle + 1 } else { high = middle }
    }
    guard low < observerIDs.count, observerIDs[low] == id, observers[low] !== retired else {
      return nil
    }
    let observer = observers[low]
    observers[low] = retired
    retiredCount += 1
    observer.isLive.store(false, ordering: .releasing)
    // Compact once the retired slots outnumber the live ones: O(1) amortised per retire.
    if retiredCount > 8, retiredCount * 2 > observers.count {
      let live = observers.indices.filter { observers[$0] !== retired }
      observers = live.map { observers[$0] }
      observerIDs = live.map { observerIDs[$0] }
      retiredCount = 0
    }
    return observer
  }
}

/// A registered observer. Deliveries check `isLive`, so that a retired observer hears
/// nothing more even from a delivery already under way.
@usableFromInline
final class EntryObserver<Value: Sendable>: Sendable {
  let id: UInt64
  /// The observer's closure, called directly: a wrapping closure here would be compiled
  /// unspecialised and copy every mutation through value witnesses.
  @usableFromInline
  let deliver: UncheckedObserver<Mutation<Value>>
  @usableFromInline
  let isLive = Atomic(true)

  init(id: UInt64, deliver: UncheckedObserver<Mutation<Value>>) {
    self.id = id
    self.deliver = deliver
  }
}

/// A committed mutation and the observers it goes to.
@usableFromInline
protocol Delivery {
  /// Delivers to each observer that is still registered, in registration order.
  func run()
}

/// A mutation of a `Value` key and the observers registered when it was committed.
@usableFromInline
struct TypedDelivery<Value: Sendable>: Delivery {
  @usableFromInline
  let mutation: Mutation<Value>
  @usableFromInline
  let observers: [EntryObserver<Value>]

  @inlinable
  init(mutation: Mutation<Value>, observers: [EntryObserver<Value>]) {
    self.mutation = mutation
    self.observers = observers
  }

  @inlinable
  func run() { Self.send(mutation, to: observers) }

  /// Delivers `mutation` to each observer in `observers` that is still registered.
  @inlinable @inline(__always)
  static func send(_ mutation: Mutation<Value>, to observers: [EntryObserver<Value>]) {
    // `observers` holds each observer for the loop; borrowing them saves a retain each.
    for index in observers.indices {
      // Reached as a guaranteed reference, so that calling its `let` closure needs no
      // retain of the closure's context either (an unowned-unsafe local still paid one
      // per call: 25 of `store_stage_notify`'s 762 instructions).
      Unmanaged.passUnretained(observers[index])._withUnsafeGuaranteedRef { observer in
        if observer.isLive.load(ordering: .acquiring) { observer.deliver.call(mutation) }
      }
    }
  }
}

/// Nothing to deliver: a redundant or rejected stage.
extension Optional: Delivery where Wrapped: Delivery {
  @inlinable
  func run() { self?.run() }
}

/// The deliveries of a batch, in commit order.
extension Array: Delivery where Element == any Delivery {
  @inlinable
  func run() { for delivery in self { delivery.run() } }
}

extension AnyMutation {
  init<Value: Sendable>(_ mutation: Mutation<Value>) {
    self.init(
      key: AnyStoreKey(mutation.key), oldValue: mutation.oldValue, newValue: mutation.newValue,
      timestamp: mutation.timestamp, origin: mutation.origin)
  }
}
