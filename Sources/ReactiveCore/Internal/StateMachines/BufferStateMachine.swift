/// The state of a `buffer(size:prefetch:whenFull:)` subscription: the values waiting for
/// demand, how upstream ended, and the subscriber's demand.
///
/// A value type with no lock of its own: ``BufferSubscription`` keeps it in
/// its guarded state, feeds it events under the lock, and carries out the returned action
/// once it has unlocked. Its events are decided on its ``Lifecycle`` (the extension
/// below), which holds the subscription's status: the machine reads it but moves it only
/// through the lifecycle's transitions.
///
/// The subscription runs unspecialised, so the fields whose layout depends on `Failure`
/// come last and the values' path never touches them: the others then sit at fixed
/// offsets, reached without looking up this type's metadata.
struct BufferStateMachine<Value, Failure: Error> {
  /// How upstream has ended.
  enum Ending {
    /// It has not.
    case open
    /// It finished: the finish goes downstream after the buffered values.
    case finished
    /// It failed, or a full buffer made its custom error: the failure goes downstream
    /// without waiting for demand, ahead of the buffered values.
    case failed
  }

  /// What the subscriber has asked for and not yet received.
  fileprivate(set) var demand = Subscribers.Demand.none
  /// The values waiting for demand, oldest first.
  fileprivate(set) var values: [Value] = []
  /// How upstream ended, once it has; the error, if any, is ``failure``.
  fileprivate var ending = Ending.open
  /// A delivery loop runs: a request made meanwhile only adds demand, which that loop
  /// picks up, so deliveries never overlap or recurse.
  fileprivate var isDelivering = false
  /// The most values kept.
  fileprivate let size: Int
  /// The error upstream failed with (or the custom error), once ``ending`` is
  /// `.failed`.
  fileprivate var failure: Failure?

  /// An empty buffer of `size` values.
  init(size: Int) { self.size = size }

  /// How upstream ended, once it has: what goes downstream last.
  var terminal: Subscribers.Completion<Failure>? {
    switch ending {
    case .open: nil
    case .finished: .finished
    case .failed: failure.map { .failure($0) }
    }
  }

  /// What to do with a value from upstream.
  enum ValueAction {
    /// The subscription has ended or failed: drop the value.
    case drop
    /// The value is buffered, or dropped as the newest of a full buffer: deliver what
    /// the subscriber has asked for.
    case deliver
    /// The buffer was full and the strategy a custom error, now made and recorded:
    /// cancel upstream.
    case overflow(cancelling: any Subscription)
  }

  /// What to do when upstream completes.
  enum CompletionAction {
    /// The subscription has ended, or upstream already completed: nothing to do.
    case ignore
    /// Deliver, so that the completion goes out if it is due (a finish waits for the
    /// buffered values to be asked for).
    case deliver
  }

  /// What to do when the subscriber asks for more.
  enum RequestAction {
    /// The subscription has ended: nothing to do.
    case ignore
    /// A delivery loop runs and picks the demand up: nothing more to do.
    case addedToRunningDelivery
    /// Deliver, then ask this upstream subscription for what was delivered (to keep
    /// the buffer full).
    case deliver(refilling: any Subscription)
  }

  /// The next step of a delivery loop.
  enum DeliveryStep {
    /// Hand these values downstream, then report with ``batchDelivered(returning:)``,
    /// which gives the next step.
    case values([Value])
    /// Hand ``terminal`` downstream (read before unlocking): the subscription ends.
    case complete
    /// Nothing is due: the loop ends.
    case idle
  }

  /// The subscriber cancelled: the buffered values go with the subscription.
  mutating func cancelled() { values = [] }

  /// Removes and returns at most `demand` buffered values.
  fileprivate mutating func popValues(upTo demand: Subscribers.Demand) -> [Value] {
    guard let limit = demand.max, limit < values.count else {
      defer { values = [] }
      return values
    }
    let batch = Array(values.prefix(limit))
    values.removeFirst(limit)
    return batch
  }
}

/// A buffer's events, decided on its lifecycle: the status says whether the subscription
/// runs (and holds the upstream to answer), the machine everything else.
extension Lifecycle {
  /// A buffer's machine, named for the clauses below.
  typealias Buffer<Value, Failure: Error> = BufferStateMachine<Value, Failure>

  /// A value arrived from upstream; a full buffer applies `whenFull`.
  @inline(__always)
  mutating func valueArrived<Value, Failure>(
    _ value: Value, whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Buffer<Value, Failure>.ValueAction where Machine == Buffer<Value, Failure> {
    let subscription: any Subscription
    switch status {
    case .subscribed(let upstream):
      // After an overflow or upstream's failure, values still in flight are dropped.
      guard machine.ending != .failed else { return .drop }
      subscription = upstream
    case .awaitingSubscription, .pendingTerminal, .terminal:
      // Before the subscription (Combine drops it too) or after the end.
      return .drop
    }
    if machine.values.count >= machine.size {
      switch whenFull {
      case .dropNewest:
        return .deliver
      case .dropOldest:
        if !machine.values.isEmpty { machine.values.removeFirst() }
      case .customError(let makeError):
        // Made under the lock, as Combine does: an error closure that sends to the buffer
        // again deadlocks there, and the tests of Combine's behaviour expect that trap.
        overflowed(with: makeError())
        return .overflow(cancelling: subscription)
      }
    }
    machine.values.append(value)
    return .deliver
  }

  /// The custom error of a full buffer is made: it ends the subscription, without
  /// waiting for demand, the next time values are delivered.
  mutating func overflowed<Value, Failure>(with error: Failure)
  where Machine == Buffer<Value, Failure> {
    machine.ending = .failed
    machine.failure = error
  }

  /// Upstream completed; only its first completion counts.
  mutating func completed<Value, Failure>(
    _ completion: Subscribers.Completion<Failure>
  ) -> Buffer<Value, Failure>.CompletionAction where Machine == Buffer<Value, Failure> {
    switch status {
    case .subscribed:
      // A second completion, or one after an overflow, is ignored.
      guard machine.ending == .open else { return .ignore }
    case .awaitingSubscription, .pendingTerminal, .terminal:
      return .ignore
    }
    switch completion {
    case .finished:
      machine.ending = .finished
    case .failure(let error):
      machine.ending = .failed
      machine.failure = error
    }
    return .deliver
  }

  /// The subscriber asked for `additional` more.
  @inline(__always)
  mutating func demandRequested<Value, Failure>(
    _ additional: Subscribers.Demand
  ) -> Buffer<Value, Failure>.RequestAction where Machine == Buffer<Value, Failure> {
    let subscription: any Subscription
    switch status {
    case .subscribed(let upstream): subscription = upstream
    case .awaitingSubscription, .pendingTerminal, .terminal: return .ignore
    }
    machine.demand += additional
    return machine.isDelivering ? .addedToRunningDelivery : .deliver(refilling: subscription)
  }

  /// What is due next: the values the subscriber has asked for, then the completion (a
  /// failure does not wait for demand; a finish waits for the buffered values).
  @inline(__always)
  mutating func nextDelivery<Value, Failure>() -> Buffer<Value, Failure>.DeliveryStep
  where Machine == Buffer<Value, Failure> {
    switch status {
    case .subscribed: break
    case .awaitingSubscription, .pendingTerminal, .terminal: return .idle
    }
    let isDue: Bool
    if machine.demand == .none {
      isDue = machine.ending == .failed
    } else if machine.values.isEmpty {
      isDue = machine.ending != .open
    } else {
      let batch = machine.popValues(upTo: machine.demand)
      machine.demand -= batch.count
      machine.isDelivering = true
      return .values(batch)
    }
    guard isDue else { return .idle }
    _ = terminate()
    return .complete
  }

  /// A batch from ``nextDelivery()`` was delivered and the subscriber returned `more`.
  ///
  /// - Returns: The next step, decided in the same critical section, so that a request
  ///   from another thread never finds the loop paused and starts a second one.
  @inline(__always)
  mutating func batchDelivered<Value, Failure>(
    returning more: Subscribers.Demand
  ) -> Buffer<Value, Failure>.DeliveryStep where Machine == Buffer<Value, Failure> {
    machine.isDelivering = false
    machine.demand += more
    return nextDelivery()
  }
}
