import ReactiveCore

/// Holds values for one subscriber until it asks for them, then its completion: the engine
/// of every push-driven publisher in this module (`create`, `ReplaySubject`, the
/// Observation publisher, `materialize`).
///
/// Values are delivered in order, never more than requested, never overlapping; a
/// completion waits behind the values already held. With a `limit`, the oldest held value
/// gives way to a new one (a limit of 1 keeps only the latest).
///
/// - Note: Thread-safe. `lock` guards the state; one thread at a time drains (`isDraining`),
///   and whichever call finds work while no one drains does it, so a push from inside a
///   delivery only queues.
@usableFromInline
final class DemandBuffer<Downstream: Subscriber>: @unchecked Sendable {
  @usableFromInline
  typealias Output = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var values: [Output] = []
  @usableFromInline
  @exclusivity(unchecked)
  var head = 0
  @usableFromInline
  @exclusivity(unchecked)
  var demand = Subscribers.Demand.none
  @usableFromInline
  @exclusivity(unchecked)
  var completion: Subscribers.Completion<Failure>?
  @usableFromInline
  @exclusivity(unchecked)
  var isDraining = false
  /// The subscriber, until it completes or cancels.
  @usableFromInline
  @exclusivity(unchecked)
  var downstream: Downstream?
  @usableFromInline
  let limit: Int?

  @inlinable
  init(_ downstream: Downstream, limit: Int? = nil) {
    self.downstream = downstream
    self.limit = limit
  }

  /// Whether the subscriber has gone (completed or cancelled).
  @inlinable
  var isEnded: Bool { lock.withLock { downstream == nil } }

  /// Queues a value and delivers what demand allows.
  @inlinable
  func push(_ value: Output) {
    lock.lock()
    guard let target = downstream, completion == nil else { return lock.unlock() }
    guard !isDraining, head == values.count, demand > 0 else {
      enqueueLocked(value)
      return drainThenUnlock()
    }
    // Nothing waits and there is demand: straight to the subscriber, no queue.
    demand -= 1
    isDraining = true
    lock.unlock()
    let more = target.receive(value)
    lock.lock()
    if downstream != nil { demand += more }
    isDraining = false
    drainThenUnlock()
  }

  /// Queues a value without delivering it; a later ``request(_:)`` or ``push(_:)``
  /// delivers it. For replaying values before the subscriber has its subscription.
  @inlinable
  func enqueue(_ value: Output) {
    lock.withLock { enqueueLocked(value) }
  }

  /// Queues the completion behind the held values and delivers what it can.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard downstream != nil, self.completion == nil else { return lock.unlock() }
    self.completion = completion
    drainThenUnlock()
  }

  /// Adds demand and delivers what it allows.
  @inlinable
  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard downstream != nil else { return lock.unlock() }
    self.demand += demand
    drainThenUnlock()
  }

  /// Drops everything and lets go of the subscriber.
  @inlinable
  func cancel() {
    let released = lock.withLock { () -> (Downstream?, [Output]) in
      defer {
        downstream = nil
        values = []
        head = 0
      }
      return (downstream, values)
    }
    _ = released
  }

  @inlinable
  func enqueueLocked(_ value: Output) {
    if let limit, values.count - head >= limit {
      head += 1
    }
    values.append(value)
    if head > 32, head * 2 > values.count {
      values.removeFirst(head)
      head = 0
    }
  }

  /// Delivers held values while there is demand, then the completion once they are all
  /// out. Call with the lock held; returns with it released.
  @inlinable
  func drainThenUnlock() {
    guard !isDraining else { return lock.unlock() }
    isDraining = true
    while let target = downstream {
      if head < values.count, demand > 0 {
        let value = values[head]
        head += 1
        if head == values.count {
          values.removeAll(keepingCapacity: true)
          head = 0
        }
        demand -= 1
        lock.unlock()
        let more = target.receive(value)
        lock.lock()
        if downstream != nil { demand += more }
      } else if head == values.count, let completion {
        downstream = nil
        isDraining = false
        lock.unlock()
        target.receive(completion: completion)
        return
      } else {
        break
      }
    }
    isDraining = false
    lock.unlock()
  }
}
