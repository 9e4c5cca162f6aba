/// Holds values for one subscriber until it asks for them, then its completion: the
/// delivery half of every engine whose events arrive from a push source rather than from
/// one upstream — ``FanIn`` (`merge`, `combineLatest`) here, and `create`,
/// `ReplaySubject`, `materialize` and the Observation publisher in ReactiveExtras.
///
/// Values are delivered in order, never more than requested, never overlapping; a
/// completion waits behind the values already held (a failure may skip them). With a
/// `limit`, the oldest held value gives way to a new one (a limit of 1 keeps only the
/// latest).
///
/// - Invariant: `lock` guards ``DemandBufferState``, which also carries what a subclass
///   keeps under the same lock (`Extra`). One thread at a time delivers (`isDraining`);
///   whichever call finds work while nobody delivers does it, so a push from inside a
///   delivery only queues. The lock is never held while the subscriber runs.
@usableFromInline
package class DemandBuffer<Downstream: Subscriber, Extra>: Guarded<
  DemandBufferState<Downstream, Extra>
>, @unchecked Sendable
{
  @usableFromInline
  package typealias Output = Downstream.Input
  @usableFromInline
  package typealias Failure = Downstream.Failure

  @usableFromInline
  final let limit: Int?

  /// Creates a buffer for `downstream`, holding at most `limit` values if given, and a
  /// subclass's `extra` state.
  @inlinable
  package init(_ downstream: Downstream, limit: Int? = nil, extra: Extra) {
    self.limit = limit
    super.init(state: DemandBufferState(downstream: downstream, extra: extra))
  }

  /// Whether the subscriber has gone (completed or cancelled).
  @inlinable
  package final var isEnded: Bool { withLock { $0.downstream == nil } }

  /// Queues a value and delivers what demand allows.
  @inlinable
  package final func push(_ value: Output) {
    lock.lock()
    pushThenUnlock(value)
  }

  /// ``push(_:)`` for a caller that holds the lock; returns with it released.
  @inlinable
  final func pushThenUnlock(_ value: Output) {
    guard let target = state.downstream, state.completion == nil else { return lock.unlock() }
    guard !state.isDraining, state.values.isEmpty, state.demand > 0 else {
      state.values.append(value, limit: limit)
      return drainThenUnlock()
    }
    // Nothing waits and there is demand: straight to the subscriber, no queue.
    state.demand -= 1
    state.isDraining = true
    lock.unlock()
    let more = target.receive(value)
    lock.lock()
    if state.downstream != nil { state.demand += more }
    state.isDraining = false
    drainThenUnlock()
  }

  /// Queues a value without delivering it; a later ``addDemand(_:)`` or ``push(_:)``
  /// delivers it. For replaying values before the subscriber has its subscription.
  @inlinable
  package final func enqueue(_ value: Output) {
    withLock { $0.values.append(value, limit: limit) }
  }

  /// Queues the completion and delivers what it can. A finish waits behind the held
  /// values; so does a failure, unless `discardingHeld` drops them first.
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
    guard state.downstream != nil, state.completion == nil else { return lock.unlock() }
    state.completion = completion
    if discardingHeld, case .failure = completion { state.values.removeAll() }
    drainThenUnlock()
  }

  /// Adds demand and delivers what it allows.
  @inlinable
  package final func addDemand(_ demand: Subscribers.Demand) {
    lock.lock()
    guard state.downstream != nil else { return lock.unlock() }
    state.demand += demand
    drainThenUnlock()
  }

  /// Drops everything and lets go of the subscriber.
  @inlinable
  package final func release() {
    let released = withLock { state -> DemandBufferState<Downstream, Void> in
      defer {
        state.downstream = nil
        state.values.removeAll()
      }
      return DemandBufferState(downstream: state.downstream, values: state.values)
    }
    // Dropped after unlocking: the subscriber's or a value's deinit may run any code.
    withExtendedLifetime(released) {}
  }

  /// Delivers held values while there is demand, then the completion once they are all
  /// out. Call with the lock held; returns with it released.
  @inlinable
  final func drainThenUnlock() {
    guard !state.isDraining else { return lock.unlock() }
    state.isDraining = true
    while let target = state.downstream {
      if let value = state.nextDeliverable() {
        state.demand -= 1
        lock.unlock()
        let more = target.receive(value)
        lock.lock()
        if state.downstream != nil { state.demand += more }
      } else if state.values.isEmpty, let completion = state.completion {
        state.downstream = nil
        state.isDraining = false
        lock.unlock()
        target.receive(completion: completion)
        return
      } else {
        break
      }
    }
    state.isDraining = false
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

/// What a ``DemandBuffer``'s lock guards: the held values, the demand, the completion and
/// the subscriber, and what a subclass adds (`extra`).
@usableFromInline
package struct DemandBufferState<Downstream: Subscriber, Extra> {
  /// The held values, oldest first.
  @usableFromInline
  var values = FIFOQueue<Downstream.Input>()
  /// What the subscriber asked for and has not received.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// The completion, delivered once every held value is out.
  @usableFromInline
  var completion: Subscribers.Completion<Downstream.Failure>?
  /// Whether some thread is delivering.
  @usableFromInline
  var isDraining = false
  /// The subscriber, until it completes or cancels.
  @usableFromInline
  var downstream: Downstream?
  /// A subclass's own state, under the same lock.
  @usableFromInline
  var extra: Extra

  @inlinable
  init(downstream: Downstream?, extra: Extra) {
    self.downstream = downstream
    self.extra = extra
  }

  /// Takes the next held value if the subscriber has demand for it.
  @inlinable
  mutating func nextDeliverable() -> Downstream.Input? {
    guard demand > 0 else { return nil }
    return values.popFirst()
  }
}

extension DemandBufferState where Extra == Void {
  /// What ``DemandBuffer/release()`` takes out, to drop after unlocking.
  @inlinable
  init(downstream: Downstream?, values: FIFOQueue<Downstream.Input>) {
    self.init(downstream: downstream, extra: ())
    self.values = values
  }
}
