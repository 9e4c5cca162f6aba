import ReactiveCore

/// The storage of one `@Inherited` property of one instance, reached
/// from the property wrapper without a key-path lookup: own value, resolved value and
/// the way to find the same property on an ancestor. Guarded by `LineageStore.lock`, the
/// one lock of every lineage (a read resolves along a chain of instances in one critical
/// section), so a box holds its fields bare rather than in a `LockedBox` of its own.
@usableFromInline
final class InheritedBox<Value>: Slot {
  /// The instance's own value, if it set one.
  @usableFromInline
  @exclusivity(unchecked)
  var own: Value?
  /// The effective value, valid while `isCacheValid`.
  @usableFromInline
  @exclusivity(unchecked)
  var resolved: Value?
  let defaultValue: Value
  let isUnset: (Value) -> Bool
  /// Finds this property's box on another instance, if it has the property. Set when the
  /// box is registered in its instance's slots, on first access.
  var locate: ((Ancestor) -> InheritedBox<Value>?)?
  var key: AnyKeyPath?

  init(defaultValue: Value, isUnset: @escaping (Value) -> Bool) {
    self.defaultValue = defaultValue
    self.isUnset = isUnset
  }

  override var hasOwnValue: Bool { own != nil }

  override func clearOwnValue() { own = nil }

  /// The effective value if nothing changed since it was last resolved — the common read.
  @inlinable @inline(__always)
  func cachedValue(in instance: Ancestor) -> Value? {
    LineageStore.lock.lock()
    defer { LineageStore.lock.unlock() }
    if _slowPath(instance.capturingThread != 0) { LineageStore.noteRead(of: self, in: instance) }
    return isCacheValid ? resolved : nil
  }

  /// Resolves the effective value (own, else inherited unless stopped, else the default),
  /// caching it on every instance on the way up.
  @usableFromInline
  func resolve<Root: Ancestor>(
    in instance: Root, key: ReferenceWritableKeyPath<Root, Value>,
    storage: ReferenceWritableKeyPath<Root, Inherited<Value>>
  ) -> Value {
    LineageStore.lock.withLock {
      register(in: instance, key: key, storage: storage)
      if instance.capturingThread != 0 { LineageStore.noteRead(of: self, in: instance) }
      return resolveLocked(in: instance)
    }
  }

  /// Sets or, when `newValue` means unset, clears the own value, then refreshes the
  /// subtree and publishes what changed after unlocking.
  @usableFromInline
  func write<Root: Ancestor>(
    _ newValue: Value, in instance: Root, key: ReferenceWritableKeyPath<Root, Value>,
    storage: ReferenceWritableKeyPath<Root, Inherited<Value>>
  ) {
    let unset = isUnset(newValue)
    LineageStore.changeAndDeliver { () -> LineageChanges in
      register(in: instance, key: key, storage: storage)
      own = unset ? nil : newValue
      var changes = LineageChanges()
      instance.refreshSubtree(key: key, fromAncestor: false, into: &changes)
      return changes
    }
  }

  /// The effective value, resolved again if the cache is stale. Lock held; the box must
  /// be registered.
  ///
  /// A stale value is resolved up the chain — own, else inherited unless stopped, else
  /// the default — and cached on every instance on the way. The walk is a loop, not a
  /// recursion, so a cold read a million levels deep runs on a small thread stack.
  func resolveLocked(in instance: Ancestor) -> Value {
    if isCacheValid, let resolved { return resolved }
    // The boxes that inherit, nearest first, up to the one that can answer by itself.
    var inheriting: [InheritedBox<Value>] = []
    var box = self
    var node = instance
    let value: Value
    while true {
      if box.isCacheValid, let resolved = box.resolved {
        value = resolved
        break
      }
      if let own = box.own {
        value = own
      } else if box.stopped {
        value = box.defaultValue
      } else if let (above, aboveNode) = box.nearestAncestorBox(above: node) {
        inheriting.append(box)
        box = above
        node = aboveNode
        continue
      } else {
        value = box.defaultValue
      }
      box.resolved = value
      box.isCacheValid = true
      break
    }
    for box in inheriting {
      box.resolved = value
      box.isCacheValid = true
    }
    return value
  }

  /// The box of the nearest ancestor of `instance` that has this property, registered,
  /// and that ancestor.
  private func nearestAncestorBox(above instance: Ancestor) -> (InheritedBox<Value>, Ancestor)? {
    guard let locate, let key else { return nil }
    var ancestor = instance.parentNode
    while let current = ancestor {
      if let box = locate(current) {
        box.register(in: current, key: key, locate: locate)
        return (box, current)
      }
      ancestor = current.parentNode
    }
    return nil
  }

  /// Records the box in its instance's slots on first access. Checks first, so that
  /// later accesses do not build the locating closure only to drop it.
  private func register<Root: Ancestor>(
    in instance: Root, key: ReferenceWritableKeyPath<Root, Value>,
    storage: ReferenceWritableKeyPath<Root, Inherited<Value>>
  ) {
    guard self.key == nil else { return }
    register(in: instance, key: key) { ($0 as? Root)?[keyPath: storage].box }
  }

  /// Records the box in its instance's slots, so that changes up the chain reach it.
  private func register(
    in instance: Ancestor, key: AnyKeyPath,
    locate: @escaping (Ancestor) -> InheritedBox<Value>?
  ) {
    guard self.key == nil else { return }
    self.key = key
    self.locate = locate
    instance.slots[key] = self
  }
}

// Every access holds `LineageStore.lock`.
extension InheritedBox: @unchecked Sendable where Value: Sendable {}
