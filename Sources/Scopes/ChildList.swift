/// A scope's children in attach order, with constant-time removal of any one of them.
///
/// A removed child leaves a hole; holes at the end are dropped at once, and the array is
/// compacted when holes outnumber children, so removal is amortized O(1) whatever its
/// position, and iteration stays in attach order. Each child records its index in
/// `Behavior.slotInHost`. Guarded by `ScopeTree.shared.lock`, like the rest of the
/// structure.
struct ChildList {
  /// The children in attach order, `nil` where one was removed.
  private(set) var slots: [Behavior?] = []
  /// The number of children (slots that are not holes).
  private(set) var count = 0

  /// Whether there are no children.
  var isEmpty: Bool { count == 0 }

  /// The children in attach order. O(n).
  var array: [Behavior] {
    var result: [Behavior] = []
    result.reserveCapacity(count)
    for case let child? in slots { result.append(child) }
    return result
  }

  /// Adds `child` after the others. Amortized O(1).
  mutating func append(_ child: Behavior) {
    child.slotInHost = slots.count
    slots.append(child)
    count += 1
  }

  /// Removes `child`, which must be in the list. Amortized O(1).
  mutating func remove(_ child: Behavior) {
    let index = child.slotInHost
    precondition(
      slots.indices.contains(index) && slots[index] === child,
      "Scopes: a child's slot does not match its host's list")
    slots[index] = nil
    child.slotInHost = -1
    count -= 1
    while let last = slots.last, last == nil { slots.removeLast() }
    if slots.count > 16 && count * 2 < slots.count { compact() }
  }

  /// Removes every child and returns them in attach order.
  mutating func removeAll() -> [Behavior] {
    let all = array
    for child in all { child.slotInHost = -1 }
    slots = []
    count = 0
    return all
  }

  /// Closes the holes, keeping the order, and renumbers the children. O(n).
  private mutating func compact() {
    slots.removeAll { $0 == nil }
    for (index, child) in slots.enumerated() { child!.slotInHost = index }
  }
}
