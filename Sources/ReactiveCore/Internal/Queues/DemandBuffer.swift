/// Holds values for one subscriber until it asks for them, then its completion: the
/// delivery half of every engine whose events arrive from a push source rather than from
/// one upstream: `create`, `ReplaySubject`, `materialize` and the Observation publisher
/// in ReactiveExtras.
///
/// Values are delivered in order, never more than requested, never overlapping; a
/// completion waits behind the values already held (a failure may skip them). With a
/// `limit`, the oldest held value gives way to a new one (a limit of 1 keeps only the
/// latest).
///
/// - Invariant: `lock` guards every stored variable, `extra` (what a subclass keeps under
///   the same lock) included. One thread at a time delivers (`isDraining`); whichever call
///   finds work while nobody delivers does it, so a push from inside a delivery only
///   queues. The lock is never held while the subscriber runs.
///
/// Its fields are the class's own rather than one `State` in ``Guarded``, with the
/// run-time exclusivity check off: ReactiveExtras reaches a buffer from unspecialised code
/// (a replay subject's type-erased connections), where each generic struct on the way
/// costs a metadata lookup per call; a `State` struct made `ReplaySubject.send` 28% more
/// instructions. Its held values are one ``FIFOQueue``, the head-indexed queue shared with
/// `flatMap`, `zip` and Scopes: it cost the Observation publisher 4.5% more instructions
/// while that ran unspecialised (metadata lookups), nothing since it is specialised
/// (14,475 → 14,478 per change), and `share(replay:)` fan-out 0.4% (795 → 798).
/// `Internals.md` lists it among the few such places.
@usableFromInline
package class DemandBuffer<Downstream: Subscriber, Extra>: @unchecked Sendable {
  @usableFromInline
  package typealias Output = Downstream.Input
  @usableFromInline
  package typealias Failure = Downstream.Failure

  /// Guards everything below, and a subclass's state.
  @usableFromInline
  final let lock = Lock()
  /// The values not yet delivered, oldest first.
  @usableFromInline
  @exclusivity(unchecked)
  final var queue = FIFOQueue<Output>()
  @usableFromInline
  @exclusivity(unchecked)
  final var demand = Subscribers.Demand.none
  @usableFromInline
  @exclusivity(unchecked)
  final var completion: Subscribers.Completion<Failure>?
  @usableFromInline
  @exclusivity(unchecked)
  final var isDraining = false
  /// The subscriber, until it completes or cancels.
  @usableFromInline
  @exclusivity(unchecked)
  final var downstream: Downstream?
  /// What a subclass keeps under the same lock.
  @usableFromInline
  @exclusivity(unchecked)
  final var extra: Extra
  @usableFromInline
  final let limit: Int?

  /// Creates a buffer for `downstream`, holding at most `limit` values if given, and a
  /// subclass's `extra` state.
  @inlinable
  package init(_ downstream: Downstream, limit: Int? = nil, extra: Extra) {
    self.downstream = downstream
    self.limit = limit
    self.extra = extra
  }

  /// Whether the subscriber has gone (completed or cancelled).
  @inlinable
  package final var isEnded: Bool { lock.withLock { downstream == nil } }

  /// Queues a value and delivers what demand allows.
  @inlinable
  package final func push(_ value: Output) {
    lock.lock()
    pushThenUnlock(value)
  }

  /// ``push(_:)`` for a caller that holds the lock; returns with it released.
  @inlinable
  final func pushThenUnlock(_ value: Output) {
    guard let target = downstream, completion == nil else { return lock.unlock() }
    guard !isDraining, queue.isEmpty, demand > 0 else {
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

  /// Queues a value without delivering it; a later ``addDemand(_:)`` or ``push(_:)``
  /// delivers it. For replaying values before the subscriber has its subscription.
  @inlinable
  package final func enqueue(_ value: Output) {
    lock.withLock { enqueueLocked(value) }
  }

  /// Queues the completion and delivers what it can. A finish waits behind the held
  /// values, unless `discardingHeld` drops them first (the completion then goes out at once).
  @inlinable
  package final func complete(
    _ completion: Subscribers.Completion<Failure>, discardingHeld: Bool = false
  ) {
    lock.lock()
    completeThenUnlock(completion, discardingHeld: discardingHeld)
  }

  /// ``complete(_:discardingHeld:)`` for a caller that holds the lock; returns with it
  /// released.
  @inlinable
  final func completeThenUnlock(
    _ completion: Subscribers.Completion<Failure>, discardingHeld: Bool
  ) {
    guard downstream != nil, self.completion == nil else { return lock.unlock() }
    self.completion = completion
    if discardingHeld { queue.removeAll() }
    drainThenUnlock()
  }

  /// Adds demand and delivers what it allows.
  @inlinable
  package final func addDemand(_ demand: Subscribers.Demand) {
    lock.lock()
    guard downstream != nil else { return lock.unlock() }
    self.demand += demand
    drainThenUnlock()
  }

  /// Drops everything and lets go of the subscriber.
  @inlinable
  package final func release() {
    lock.lock()
    let releasedSubscriber = downstream
    let releasedValues = queue
    downstream = nil
    queue.removeAll()
    lock.unlock()
    // Dropped after unlocking: the subscriber's or a value's deinit may run any code.
    withExtendedLifetime((releasedSubscriber, releasedValues)) {}
  }

  @inlinable
  final func enqueueLocked(_ value: Output) {
    queue.append(value, limit: limit)
  }

  /// Delivers held values while there is demand, then the completion once they are all
  /// out. Call with the lock held; returns with it released.
  @inlinable
  final func drainThenUnlock() {
    guard !isDraining else { return lock.unlock() }
    isDraining = true
    while let target = downstream {
      if demand > 0, let value = queue.popFirst() {
        demand -= 1
        lock.unlock()
        let more = target.receive(value)
        lock.lock()
        if downstream != nil { demand += more }
      } else if queue.isEmpty, let completion {
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

extension DemandBuffer where Extra == Void {
  /// Creates a buffer for `downstream`, holding at most `limit` values if given.
  @inlinable
  package convenience init(_ downstream: Downstream, limit: Int? = nil) {
    self.init(downstream, limit: limit, extra: ())
  }
}
