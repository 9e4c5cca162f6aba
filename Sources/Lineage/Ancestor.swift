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
///   so that your subclasses need not be; share an instance through your own wrapper.
open class Ancestor: LineageMember {
  // Guarded by LineageStore.lock.
  var parentNode: Ancestor?
  var childNodes: [WeakAncestor] = []
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
    let sends = try LineageStore.lock.withLock { () throws(LineageError) -> [() -> Void] in
      var candidate = newAncestor
      while let current = candidate {
        if current === self {
          throw LineageError.cycle(
            instance: String(describing: type(of: self)),
            proposedAncestor: String(describing: type(of: newAncestor!)))
        }
        candidate = current.parentNode
      }
      guard parentNode !== newAncestor else { return [] }
      unlink()
      if let newAncestor { link(to: newAncestor) }
      var sends: [() -> Void] = []
      refreshSubtree(key: nil, fromAncestor: false, into: &sends)
      return sends
    }
    for send in sends { send() }
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
    let sends = LineageStore.lock.withLock { () -> [() -> Void] in
      guard let slot = slots[key] else { return [] }
      slot.stopped = stopped
      if !stopped { slot.clearOwnValue() }
      var sends: [() -> Void] = []
      refreshSubtree(key: key, fromAncestor: false, into: &sends)
      return sends
    }
    for send in sends { send() }
  }

  // MARK: Storage (lock held)

  /// Invalidates cached values of `key` (or every key) in this subtree and collects the
  /// publisher sends for effective values that changed. Descendants with their own value
  /// or stopped inheritance shield their subtree.
  func refreshSubtree(key: AnyKeyPath?, fromAncestor: Bool, into sends: inout [() -> Void]) {
    if let key {
      slots[key]?.isCacheValid = false
    } else {
      for slot in slots.values { slot.isCacheValid = false }
    }
    if !fromAncestor || receivesAncestorChanges {
      if let key {
        if let send = observers[key]?.refresh() { sends.append(send) }
      } else {
        for observer in observers.values {
          if let send = observer.refresh() { sends.append(send) }
        }
      }
    }
    childNodes.removeAll { $0.value == nil }
    for child in childNodes {
      guard let child = child.value else { continue }
      if let key, let slot = child.slots[key], slot.hasOwnValue || slot.stopped { continue }
      child.refreshSubtree(key: key, fromAncestor: true, into: &sends)
    }
  }

  func link(to ancestor: Ancestor) {
    parentNode = ancestor
    ancestor.childNodes.append(WeakAncestor(value: self))
  }

  func unlink() {
    parentNode?.childNodes.removeAll { $0.value === self || $0.value == nil }
    parentNode = nil
  }

  deinit {
    // Our descendants hold us strongly, so none are left; forget our ancestor's weak
    // reference to us.
    LineageStore.lock.withLock { parentNode?.childNodes.removeAll { $0.value == nil } }
  }
}
