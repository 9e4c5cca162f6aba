/// A first-in, first-out queue over one array, for values that wait (`flatMap`'s buffer,
/// ``ZipQueues``, and the scope tree's queue of nodes to reconcile in Scopes;
/// ``DemandBuffer`` keeps the same two fields in itself, see there why).
///
/// Taking the oldest value moves an index instead of shifting the array, and the array is
/// emptied, keeping its capacity, whenever the last value is taken: a queue that fills and
/// drains in turn allocates once. Dropping the oldest values (a limit) compacts the array
/// only once more than half of it is dropped, so each value is moved at most once.
///
/// Taken values stay in the array until it is emptied or compacted; a queue whose values'
/// release must not run where the queue is changed (under a lock their deinit takes)
/// holds optionals and takes them with ``takeFirst()``, which leaves `nil` behind.
@usableFromInline
package struct FIFOQueue<Element> {
  /// The values; those before `head` are taken.
  @usableFromInline
  var storage: ContiguousArray<Element> = []
  /// The index of the oldest value not yet taken.
  @usableFromInline
  var head = 0

  /// An empty queue.
  @inlinable
  package init() {}

  /// Whether no value waits.
  @inlinable
  package var isEmpty: Bool { head == storage.count }

  /// How many values wait.
  @inlinable
  package var count: Int { storage.count - head }

  /// Queues `value`; with a `limit`, the oldest waiting value gives way when the queue
  /// holds that many.
  @inlinable
  package mutating func append(_ value: Element, limit: Int? = nil) {
    if let limit, count >= limit { head += 1 }
    storage.append(value)
    if head > 32, head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }

  /// Takes the oldest value, if any.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let value = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// Takes every waiting value, oldest first, leaving the queue empty.
  @inlinable
  package mutating func takeAll() -> ArraySlice<Element> {
    defer { removeAll() }
    return ArraySlice(storage[head...])
  }

  /// How many values the array holds without growing.
  @inlinable
  package var capacity: Int { storage.capacity }

  /// Drops every value, and the array with them.
  @inlinable
  package mutating func removeAll() {
    storage = []
    head = 0
  }
}

extension FIFOQueue {
  /// Takes the oldest value out of its slot, leaving `nil` there, so that the queue keeps
  /// no reference to it; `nil` if none waits.
  @inlinable
  package mutating func takeFirst<Wrapped>() -> Wrapped? where Element == Wrapped? {
    guard head < storage.count else { return nil }
    let value = storage[head].take()
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }
}
