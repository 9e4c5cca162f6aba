import ReactiveCore

/// The one lock behind every lineage, and the per-instance record of inheritable values.
///
/// A single lock (rather than one per tree) keeps `reparent(to:)`, which can join two
/// trees, atomic without lock ordering. Reads take it once and mostly hit a cached
/// resolved value.
@usableFromInline
enum LineageStore {
  /// The lock that guards every ``Ancestor``'s lineage state and every ``Slot``.
  @usableFromInline
  static let lock = Lock()
  /// Held from before a change takes ``lock`` until its publisher sends are done, so that
  /// concurrent changes publish in the order they were made: without it, two writers'
  /// sends, made after unlocking, could arrive in either order, and a publisher repeat a
  /// value or end at a stale one. Recursive, so that a subscriber may change a lineage
  /// from inside a send.
  static let delivery = RecursiveLock()

  /// Runs `change` under ``lock`` and delivers the sends it leaves, all under
  /// ``delivery``: the way every change to a lineage is made.
  static func changeAndDeliver<Failure: Error>(
    _ change: () throws(Failure) -> LineageChanges
  ) throws(Failure) {
    let entered = delivery.enter()
    defer { delivery.exit(entered) }
    let changes = try lock.withLock(change)
    changes.deliver()
  }

  /// Serialises ``Ancestor/registeredKey(for:)``, so that one read at a time is watched.
  static let captureLock = Lock()

  /// Records that `slot` was read on `instance`, if the thread that asked to watch reads
  /// it, and it is the first slot read. Lock held.
  @usableFromInline
  static func noteRead(of slot: Slot, in instance: Ancestor) {
    guard instance.capturedSlot == nil, instance.capturingThread == LockOwner.currentThread
    else { return }
    instance.capturedSlot = slot
  }
}

extension Ancestor {
  /// The key path under which `keyPath`'s property is registered, and its value.
  ///
  /// A property is registered under the key path spelled through the class that declares
  /// it (`\Person.lastName`); the same property spelled through a subclass
  /// (`\Wizard.lastName`, with `Wizard: Person`) is a different key path. Reading the
  /// property while watching which slot answers finds the registered one.
  func registeredKey<Root: Ancestor, Value>(for keyPath: KeyPath<Root, Value>) -> (
    key: AnyKeyPath, value: Value
  ) {
    guard let root = self as? Root else {
      preconditionFailure("\(type(of: self)) is not a \(Root.self)")
    }
    return LineageStore.captureLock.withLock {
      let thread = LockOwner.currentThread
      LineageStore.lock.withLock {
        capturingThread = thread
        capturedSlot = nil
      }
      let value = root[keyPath: keyPath]
      let key = LineageStore.lock.withLock { () -> AnyKeyPath in
        defer {
          capturingThread = 0
          capturedSlot = nil
        }
        guard let slot = capturedSlot else { return keyPath }
        return slots.first { $0.value === slot }?.key ?? keyPath
      }
      return (key, value)
    }
  }
}

/// What the lineage needs to know of one inheritable property of one instance, whatever
/// its value type. `LineageStore.lock` held for every access: one lock for every lineage,
/// so a slot holds its fields bare rather than in a `LockedBox` of its own.
@usableFromInline
class Slot {
  /// Whether the instance stopped inheriting this property.
  final var stopped = false
  /// Whether the resolved effective value is current; cleared by a change up the chain.
  @usableFromInline
  @exclusivity(unchecked)
  final var isCacheValid = false

  @usableFromInline
  init() {}

  /// Whether the instance set its own value.
  var hasOwnValue: Bool { false }

  /// Forgets the instance's own value, so that it inherits again.
  func clearOwnValue() {}
}

/// Watches one property of one instance and publishes its effective value on change.
final class EffectiveValueObserver {
  let subject: AnyObject
  /// Resolves the current effective value and, if it differs from the last one sent,
  /// returns the send to perform after unlocking. Lock held.
  let refresh: () -> (() -> Void)?

  init(subject: AnyObject, refresh: @escaping () -> (() -> Void)?) {
    self.subject = subject
    self.refresh = refresh
  }
}

/// What a change made under `LineageStore.lock` leaves to do after unlocking: the
/// publisher sends, and the instances to release.
struct LineageChanges {
  /// The sends of the publishers whose effective value changed, in refresh order.
  var sends: [() -> Void] = []
  /// Instances read under the lock, kept until after it is released, so that dropping
  /// the last reference to one never runs its deinit (which takes the lock) inside it.
  var retained: [Ancestor] = []

  /// Runs the sends; the instances go with the value, after them. Lock not held.
  consuming func deliver() {
    for send in sends { send() }
  }
}

/// A weak reference to a descendant, its identity, and an unretained reference for
/// renumbering.
struct WeakAncestor {
  weak var value: Ancestor?
  /// The instance's identity, to check a slot against the instance that claims it.
  let id: ObjectIdentifier
  /// The same instance, unretained. It is only read with the lock held and while the
  /// slot is in the list; an instance removes its slot in its deinit, with the lock held,
  /// so its memory is valid for as long as the slot exists.
  let object: Unmanaged<Ancestor>

  init(_ instance: Ancestor) {
    value = instance
    id = ObjectIdentifier(instance)
    object = .passUnretained(instance)
  }
}

/// An instance's descendants in the order they were derived, held weakly, with
/// constant-time removal of any one of them.
///
/// A removed descendant leaves a hole; holes at the end are dropped at once, and the
/// array is compacted when holes outnumber descendants, so removal is amortized O(1)
/// whatever its position. Each descendant records its index in `slotInParent`. Guarded by
/// `LineageStore.lock`.
struct DescendantList {
  /// The descendants in the order they were derived, `nil` where one was removed.
  private(set) var slots: [WeakAncestor?] = []
  /// The number of descendants (slots that are not holes).
  private(set) var count = 0

  /// Adds `child` after the others. Amortized O(1).
  mutating func append(_ child: Ancestor) {
    child.slotInParent = slots.count
    slots.append(WeakAncestor(child))
    count += 1
  }

  /// Removes `child`, which must be in the list. Amortized O(1).
  mutating func remove(_ child: Ancestor) {
    let index = child.slotInParent
    precondition(
      slots.indices.contains(index) && slots[index]?.id == ObjectIdentifier(child),
      "Lineage: a descendant's slot does not match its ancestor's list")
    slots[index] = nil
    child.slotInParent = -1
    count -= 1
    while let last = slots.last, last == nil { slots.removeLast() }
    if slots.count > 16 && count * 2 < slots.count { compact() }
  }

  /// Closes the holes, keeping the order, and renumbers the descendants. O(n).
  private mutating func compact() {
    slots.removeAll { $0 == nil }
    for (index, slot) in slots.enumerated() {
      // Unretained: a descendant being released must not be retained (and released, and
      // its deinit run) here.
      slot!.object._withUnsafeGuaranteedRef { $0.slotInParent = index }
    }
  }
}
