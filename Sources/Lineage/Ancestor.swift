import ReactiveCore

/// A class whose instances inherit unset property values from an ancestor instance.
///
///     final class Person: Ancestor {
///         @Inherited var firstName: String?
///         @Inherited var lastName: String?
///         var fullName: String {
///             [firstName, lastName].compactMap { $0 }.joined(separator: " ")
///         }
///     }
///     let arthur = Person()
///     arthur.firstName = "Arthur"
///     arthur.lastName = "Weasley"
///     let bill = arthur.descendant()
///     bill.firstName = "William"
///     print(bill.fullName)
///     // Prints "William Weasley"
///
/// Only `@Inherited` properties are passed down; a plain stored property never is.
/// Descendants hold their ancestor strongly; ancestors hold descendants weakly.
///
/// - Note: Thread-safe: reads, writes, reparenting and subscriptions may come from any
///   thread. One lock guards every lineage; change notifications are delivered after it
///   is released, on the thread that made the change. The class is not marked `Sendable`,
///   so that your subclasses need not be; hand an instance to another thread or a
///   `@Sendable` closure with ``SendableAncestor``.
open class Ancestor: LineageMember {
  // Guarded by LineageStore.lock.
  var parentNode: Ancestor?
  var childNodes = DescendantList()
  /// This instance's index in its ancestor's `childNodes`, or -1 for a root.
  var slotInParent = -1
  var slots: [AnyKeyPath: Slot] = [:]
  var observers: [AnyKeyPath: EffectiveValueObserver] = [:]
  var receivesAncestorChanges: Bool
  /// The thread that is reading a property to learn which slot holds it (see
  /// ``registeredKey(for:)``), or zero; the slot it read, once read.
  @usableFromInline
  final var capturingThread: UInt = 0
  @usableFromInline
  final var capturedSlot: Slot?

  /// Creates a root instance, which has no ancestor.
  public required init() {
    receivesAncestorChanges = true
  }

  /// Creates an instance that inherits from `ancestor`.
  ///
  /// - Parameters:
  ///   - ancestor: The instance to inherit unset values from.
  ///   - inheritsChangeNotifications: Whether ``publisher(for:)`` on this instance also
  ///     reports changes that come from its ancestors.
  public convenience init(ancestor: Ancestor, inheritsChangeNotifications: Bool = true) {
    self.init()
    receivesAncestorChanges = inheritsChangeNotifications
    LineageStore.lock.withLock { link(to: ancestor) }
  }

  /// Derives a new instance of the same class that inherits from this one.
  ///
  /// - Parameter inheritsChangeNotifications: Whether the descendant's publishers also
  ///   report changes that come from its ancestors.
  /// - Returns: The new descendant.
  public func descendant(inheritsChangeNotifications: Bool = true) -> Self {
    let child = Self.init()
    child.receivesAncestorChanges = inheritsChangeNotifications
    LineageStore.lock.withLock { child.link(to: self) }
    return child
  }

  /// The instance this one inherits from, or `nil` for a root.
  public var ancestor: Ancestor? { LineageStore.lock.withLock { parentNode } }

  /// Moves this instance under a new ancestor, or makes it a root with `nil`.
  ///
  /// Every inherited value of this instance and its descendants is resolved again, and
  /// publishers report the values that changed.
  ///
  /// - Parameter newAncestor: The new ancestor, or `nil`.
  /// - Throws: ``LineageError/cycle(instance:proposedAncestor:)`` when `newAncestor` is
  ///   this instance or one of its descendants; nothing changes then.
  public func reparent(to newAncestor: Ancestor?) throws(LineageError) {
    try LineageStore.changeAndDeliver { () throws(LineageError) -> LineageChanges in
      var candidate = newAncestor
      while let current = candidate {
        if current === self {
          throw LineageError.cycle(
            instance: String(describing: type(of: self)),
            proposedAncestor: String(describing: type(of: newAncestor!)))
        }
        candidate = current.parentNode
      }
      guard parentNode !== newAncestor else { return LineageChanges() }
      var changes = LineageChanges()
      // The old ancestor may have no other owner: it is released after unlocking.
      if let oldAncestor = unlink() { changes.retained.append(oldAncestor) }
      if let newAncestor { link(to: newAncestor) }
      refreshSubtree(key: nil, fromAncestor: false, into: &changes)
      return changes
    }
  }

  // MARK: Inheritance control

  /// Stops inheriting `keyPath`: while this instance has no own value, the property
  /// reads as its default (`nil` for optionals). Descendants that inherit it see the same.
  ///
  ///     madonna.stopInheriting(\Person.lastName)
  ///
  /// On an instance of a subclass, `madonna.stopInheriting(\.lastName)` is enough (see
  /// ``LineageMember``); spell the class when the key path names a property of a
  /// superclass of the instance's static type, or of an existential.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  public func stopInheriting<Root: Ancestor, Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>
  ) {
    setStopped(true, keyPath)
  }

  /// Resumes inheriting `keyPath`, also clearing an own value so the ancestor's shows
  /// through.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  public func resumeInheriting<Root: Ancestor, Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>
  ) {
    setStopped(false, keyPath)
  }

  /// Whether `keyPath` currently reads through to the ancestors: no own value, and
  /// inheritance not stopped.
  ///
  /// - Parameter keyPath: An `@Inherited` property of this instance.
  /// - Returns: `true` if the value comes from an ancestor (or the default at the root).
  public func isInheriting<Root: Ancestor, Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>)
    -> Bool
  {
    inheritsValue(keyPath)
  }

  final func inheritsValue<Root: Ancestor, Value>(_ keyPath: ReferenceWritableKeyPath<Root, Value>)
    -> Bool
  {
    guard let root = self as? Root else { return true }
    let key = root.registeredKey(for: keyPath).key
    return LineageStore.lock.withLock {
      guard let slot = slots[key] else { return true }
      return !slot.hasOwnValue && !slot.stopped
    }
  }

  /// ``stopInheriting(_:)`` and ``resumeInheriting(_:)``, for ``LineageMember``'s forms.
  final func changeInheriting<Root: Ancestor, Value>(
    stopped: Bool, _ keyPath: ReferenceWritableKeyPath<Root, Value>
  ) {
    setStopped(stopped, keyPath)
  }

  private func setStopped<Root: Ancestor, Value>(
    _ stopped: Bool, _ keyPath: ReferenceWritableKeyPath<Root, Value>
  ) {
    guard let root = self as? Root else { return }
    let key = root.registeredKey(for: keyPath).key
    LineageStore.changeAndDeliver { () -> LineageChanges in
      var changes = LineageChanges()
      guard let slot = slots[key] else { return changes }
      slot.stopped = stopped
      if !stopped { slot.clearOwnValue() }
      refreshSubtree(key: key, fromAncestor: false, into: &changes)
      return changes
    }
  }

  // MARK: Storage (lock held)

  /// Invalidates cached values of `key` (or every key) in this subtree and collects the
  /// publisher sends for effective values that changed. Descendants with their own value
  /// or stopped inheritance shield their subtree.
  ///
  /// Depth first, each instance before its descendants and siblings in the order they
  /// were derived, with a stack of its own rather than recursion, so that a chain a
  /// million levels deep refreshes on a small thread stack. Every descendant read is kept
  /// in `changes` until after unlocking: one whose last other owner lets go meanwhile must
  /// not be released (and its deinit take the lock) from here. Lock held.
  final func refreshSubtree(
    key: AnyKeyPath?, fromAncestor: Bool, into changes: inout LineageChanges
  ) {
    var pending: [(node: Ancestor, fromAncestor: Bool)] = [(self, fromAncestor)]
    while let (node, fromAncestor) = pending.popLast() {
      node.refreshOwnSlots(key: key, fromAncestor: fromAncestor, into: &changes)
      // Pushed last first, so that they are visited in the order they were derived.
      for entry in node.childNodes.slots.reversed() {
        guard let child = entry?.value else { continue }
        changes.retained.append(child)
        if let key, let slot = child.slots[key], slot.hasOwnValue || slot.stopped { continue }
        pending.append((child, true))
      }
    }
  }

  /// Invalidates this instance's cached values of `key` (or every key) and collects the
  /// sends of its observers whose value changed. Lock held.
  private final func refreshOwnSlots(
    key: AnyKeyPath?, fromAncestor: Bool, into changes: inout LineageChanges
  ) {
    if let key {
      slots[key]?.isCacheValid = false
    } else {
      for slot in slots.values { slot.isCacheValid = false }
    }
    guard !fromAncestor || receivesAncestorChanges else { return }
    if let key {
      if let send = observers[key]?.refresh() { changes.sends.append(send) }
    } else {
      for observer in observers.values {
        if let send = observer.refresh() { changes.sends.append(send) }
      }
    }
  }

  /// Links this root instance under `ancestor`. Lock held.
  final func link(to ancestor: Ancestor) {
    parentNode = ancestor
    ancestor.childNodes.append(self)
  }

  /// Makes this instance a root and returns its former ancestor, which the caller must
  /// release after unlocking (it may have no other owner). Lock held. O(1).
  @discardableResult
  final func unlink() -> Ancestor? {
    guard let parent = parentNode else { return nil }
    parent.childNodes.remove(self)
    parentNode = nil
    return parent
  }

  /// Releases the chain of ancestors one instance at a time.
  ///
  /// Our descendants hold us strongly, so none are left. Releasing our ancestor from here
  /// would run its deinit inside this one, and so on up the chain: a recursion as deep as
  /// the chain. Instead each ancestor this was the last owner of is unlinked from its own
  /// ancestor here, and released from this loop.
  deinit {
    var next = LineageStore.lock.withLock { unlink() }
    while var node = next.take() {
      LineageStore.lock.lock()
      // With the lock held nothing can reach `node` but this reference: its ancestor's
      // weak reference to it is read only with the lock held.
      if isKnownUniquelyReferenced(&node) { next = node.unlink() }
      LineageStore.lock.unlock()
      _ = consume node
    }
  }
}
