/// The state of a `flatMap` subscription: its upstream, the inner publishers it is
/// subscribed to, the values that found no demand, and the subscriber's demand.
///
/// A value type with no lock of its own: ``FlatMapSubscription`` keeps it in
/// its guarded state, feeds it events under the lock, and carries out the returned action
/// once it has unlocked. The events that read or end the upstream subscription are
/// decided on its ``Lifecycle`` (the extension below), which holds the status; the
/// machine never writes the status itself. The one exception is the upstream failure's inner cancels, which
/// Combine makes with its lock held (see ``UpstreamFailureAction``).
///
/// Kept as plain fields rather than an enum with payloads, so that the hot path (a value
/// from an inner publisher) reads and writes them in place: moving a dictionary or array
/// out of an enum payload and back would retain it.
// Inlinable throughout so that it is specialised with the subscription; the events of a
// value's or an inner publisher's path are inlined always, as the fields they replace
// were read in place.
@usableFromInline
struct FlatMapStateMachine<Output> {
  /// Where the subscription stands: each event switches on every case.
  @usableFromInline
  enum Phase {
    /// Values flow, and upstream may send more elements (inner publishers).
    case running
    /// Values flow; upstream has finished, so no more inner publishers come: `.finished`
    /// goes downstream once the last inner publisher has finished and nothing waits.
    case upstreamFinished
    /// A completion has been sent: values an inner publisher still sends pass on, as in
    /// Combine (only a misbehaving publisher sends after its own failure).
    case completed
    /// The subscriber cancelled: nothing more reaches it.
    case cancelled
  }

  /// A value that found no demand, with the inner publisher it came from: that
  /// publisher is asked for its next value only once this one is delivered.
  @usableFromInline
  struct Buffered {
    /// The index of the inner publisher that sent `value`.
    @usableFromInline
    let source: Int
    /// The value waiting for demand.
    @usableFromInline
    let value: Output

    /// Pairs `value` with the inner publisher that sent it.
    @inlinable
    init(source: Int, value: Output) {
      self.source = source
      self.value = value
    }
  }

  /// Where the subscription stands. Kept apart from the lifecycle's status (which holds
  /// the upstream subscription) because the finish check runs on every inner publisher's
  /// finish, and matching the status there would copy the subscription it holds.
  @usableFromInline
  var phase = Phase.running
  /// The inner subscriptions by index, until each finishes or is cancelled.
  @usableFromInline
  var inners: [Int: any Subscription] = [:]
  /// Inner publishers made but not yet subscribed: downstream cannot finish while one
  /// may still send.
  @usableFromInline
  var pendingInners = 0
  /// The index given to the latest inner publisher.
  @usableFromInline
  var nextInner = 0
  /// What the subscriber has asked for and not yet received.
  @usableFromInline
  var demand = Subscribers.Demand.none
  /// Values that found no demand, oldest first.
  @usableFromInline
  var buffer = FIFOQueue<Buffered>()
  /// How many drains are asking an inner publisher for more right now; a value that
  /// arrives meanwhile joins the buffer, behind the values already waiting.
  @usableFromInline
  var drainsRequesting = 0

  /// A subscription waiting for its upstream.
  @inlinable
  init() {}

  // MARK: Upstream

  /// What to do with an element from upstream.
  @usableFromInline
  enum ElementAction {
    /// Make the inner publisher and subscribe to it under this index.
    case subscribeInner(index: Int)
    /// The subscription has ended: the transform is not called.
    case drop
  }

  /// An upstream element arrived: it gets an index, and counts as pending until its
  /// inner publisher is subscribed, so that nothing finishes meanwhile.
  @inlinable @inline(__always)
  mutating func elementArrived() -> ElementAction {
    switch phase {
    case .running:
      nextInner += 1
      pendingInners += 1
      return .subscribeInner(index: nextInner)
    case .upstreamFinished:
      // The subscription lets go of its transform when upstream finishes, under the same
      // lock, so no element reaches the machine after that.
      preconditionFailure("Internal inconsistency: flatMap got an element after upstream finished")
    case .completed, .cancelled:
      return .drop
    }
  }

  /// What to do when the subscription may have nothing left to do.
  @usableFromInline
  enum FinishAction {
    /// Something still runs or waits: nothing to send.
    case wait
    /// Everything is done: send `.finished` downstream.
    case finish
  }

  /// Moves to `.completed` if upstream and every inner publisher have finished and
  /// nothing waits in the buffer, so that `.finished` is sent exactly once.
  @inlinable @inline(__always)
  mutating func finishIfDone() -> FinishAction {
    switch phase {
    case .upstreamFinished:
      guard buffer.isEmpty, inners.isEmpty, pendingInners == 0 else { return .wait }
      phase = .completed
      return .finish
    case .running, .completed, .cancelled:
      return .wait
    }
  }

  /// What to do when upstream fails.
  @usableFromInline
  enum UpstreamFailureAction {
    /// Cancel these inner subscriptions while still holding the lock, as Combine does
    /// (so an inner publisher that fails upstream again from its cancel traps, as
    /// there), then deliver the failure.
    case cancelInnersThenFail([Int: any Subscription])
    /// The subscriber already has a completion or has cancelled: only cancel these
    /// inner subscriptions, with the lock held.
    case cancelInners([Int: any Subscription])
  }

  // MARK: Inner publishers

  /// What to do with an inner publisher's subscription.
  @usableFromInline
  enum InnerSubscriptionAction {
    /// Ask the inner publisher for this much: one value at a time, unless the
    /// subscriber's demand is unlimited.
    case request(Subscribers.Demand)
    /// The subscription has completed or been cancelled: cancel the inner one.
    case cancel
  }

  /// The inner publisher of `index` sent its subscription: it is no longer pending, and
  /// is kept while the subscription runs.
  @inlinable @inline(__always)
  mutating func innerSubscribed(_ index: Int, _ subscription: any Subscription)
    -> InnerSubscriptionAction
  {
    pendingInners -= 1
    switch phase {
    case .running, .upstreamFinished:
      inners[index] = subscription
      return .request(demand == .unlimited ? .unlimited : .max(1))
    case .completed, .cancelled:
      return .cancel
    }
  }

  /// What to do with a value from an inner publisher.
  @usableFromInline
  enum InnerValueAction {
    /// The subscriber cancelled: drop the value.
    case drop
    /// Demand is unlimited: deliver the value; the inner publisher was asked for
    /// unlimited values already, so it is asked for nothing.
    case deliver
    /// One unit of demand is taken: deliver the value, report what the subscriber adds
    /// with ``deliveredOne(returning:)``, and ask the inner publisher for one more.
    case deliverOne
    /// The value waits in the buffer, behind the values already there.
    case buffered
  }

  /// A value arrived from the inner publisher of `index`. It is copied into the buffer
  /// only when it must wait, so a delivery moves nothing through the state.
  @inlinable @inline(__always)
  mutating func innerValueArrived(_ value: Output, from index: Int) -> InnerValueAction {
    switch phase {
    case .cancelled: return .drop
    // After a completion values still pass, as in Combine.
    case .running, .upstreamFinished, .completed: break
    }
    if demand == .unlimited { return .deliver }
    if demand == .none || drainsRequesting > 0 {
      buffer.append(Buffered(source: index, value: value))
      return .buffered
    }
    demand -= 1
    return .deliverOne
  }

  /// What to do once a delivery has returned.
  @usableFromInline
  enum AfterDeliveryAction {
    /// Nothing waits, or the subscriber has no demand: done.
    case idle
    /// A value that found no demand while this one was delivered goes out now, rather
    /// than waiting for the next request.
    case drain
  }

  /// A value taken by ``InnerValueAction/deliverOne`` was delivered and the subscriber
  /// returned `more`.
  @inlinable @inline(__always)
  mutating func deliveredOne(returning more: Subscribers.Demand) -> AfterDeliveryAction {
    demand += more
    return demand > 0 && !buffer.isEmpty ? .drain : .idle
  }

  /// The next step of draining the buffer.
  @usableFromInline
  enum DrainStep {
    /// Deliver the oldest waiting value; its inner publisher has finished, so nobody is
    /// asked for more.
    case deliver(Output)
    /// Deliver the oldest waiting value, then ask its inner publisher for the next one
    /// (see ``askingSource(afterAdding:)`` and ``sourceAsked()``).
    case deliverThenAsk(Output, any Subscription)
    /// No demand or nothing waiting: stop draining.
    case wait
    /// The buffer held the last values: send `.finished`.
    case finish
  }

  /// Pops the oldest waiting value if the subscriber has demand for it; otherwise says
  /// whether everything is done.
  @inlinable
  mutating func nextBuffered() -> DrainStep {
    guard demand > 0, let entry = buffer.popFirst() else {
      switch finishIfDone() {
      case .wait: return .wait
      case .finish: return .finish
      }
    }
    demand -= 1
    guard let source = inners[entry.source] else { return .deliver(entry.value) }
    return .deliverThenAsk(entry.value, source)
  }

  /// A drained value was delivered and the subscriber returned `more`.
  @inlinable
  mutating func demandAdded(_ more: Subscribers.Demand) { demand += more }

  /// A drained value was delivered, the subscriber returned `more`, and its inner
  /// publisher is about to be asked for the next one: until ``sourceAsked()``, values
  /// arriving join the buffer, so that they cannot overtake the ones waiting.
  @inlinable
  mutating func askingSource(afterAdding more: Subscribers.Demand) {
    demand += more
    drainsRequesting += 1
  }

  /// The drain's request to an inner publisher has returned.
  @inlinable
  mutating func sourceAsked() { drainsRequesting -= 1 }

  /// What to do when an inner publisher finishes.
  @usableFromInline
  enum InnerFinishAction {
    /// Other publishers still run, or nothing can be asked for: nothing to do.
    case none
    /// Everything is done: send `.finished`.
    case finish
    /// A slot is free: ask upstream for one more element.
    case requestElement(any Subscription)
  }

  /// What to do when an inner publisher fails.
  @usableFromInline
  enum InnerFailureAction {
    /// A completion was sent or the subscriber cancelled: nothing to do.
    case none
    /// Cancel the other inner subscriptions (not the failed one, nor upstream, as in
    /// Combine), then deliver the failure.
    case fail(cancelling: [Int: any Subscription])
  }

  /// The inner publisher of `index` failed: the subscription completes with its
  /// failure.
  @inlinable
  mutating func innerFailed(_ index: Int) -> InnerFailureAction {
    switch phase {
    case .running, .upstreamFinished: phase = .completed
    case .completed, .cancelled: return .none
    }
    var others = inners
    inners = [:]
    others[index] = nil
    return .fail(cancelling: others)
  }

  // MARK: Downstream

  /// What to do when the subscriber asks for more.
  @usableFromInline
  enum RequestAction {
    /// The subscription has completed or was cancelled, or the request came from inside
    /// a delivery, which goes on with the new demand: nothing to do.
    case none
    /// From inside a delivery, demand became unlimited: ask every inner publisher for
    /// unlimited values; the delivery in progress goes on with the new demand, so
    /// requests never recurse.
    case requestUnlimited(from: [Int: any Subscription])
    /// Deliver waiting values while demand lasts.
    case drain
    /// Demand became unlimited: deliver every waiting value, ask every inner publisher
    /// for unlimited values, then finish if everything is done.
    case flush(ArraySlice<Buffered>, inners: [Int: any Subscription])
  }

  /// The subscriber asked for `additional` more; `insideDelivery` tells whether it asked
  /// from inside a delivery.
  @inlinable
  mutating func demandRequested(_ additional: Subscribers.Demand, insideDelivery: Bool)
    -> RequestAction
  {
    switch phase {
    case .running, .upstreamFinished: break
    case .completed, .cancelled: return .none
    }
    let wasUnlimited = demand == .unlimited
    demand += additional
    let becameUnlimited = !wasUnlimited && demand == .unlimited
    if insideDelivery { return becameUnlimited ? .requestUnlimited(from: inners) : .none }
    guard becameUnlimited else { return .drain }
    return .flush(buffer.takeAll(), inners: inners)
  }

  /// What to do when the subscriber cancels.
  @usableFromInline
  enum CancelAction {
    /// Already cancelled: nothing to do.
    case none
    /// Cancel the inner subscriptions and upstream, and release the values that were
    /// waiting (once unlocked: a value's `deinit` may run any code).
    case cancel(
      inners: [Int: any Subscription], upstream: (any Subscription)?,
      releasing: FIFOQueue<Buffered>)
  }

}

/// The events of a `flatMap` that read or end the upstream subscription, decided on its
/// lifecycle: the status holds the upstream, the machine everything else.
extension Lifecycle {
  /// A `flatMap`'s machine, named for the clauses below.
  @usableFromInline
  typealias FlatMapMachine<Output> = FlatMapStateMachine<Output>

  /// Upstream finished: downstream finishes too if nothing else runs or waits.
  @inlinable
  mutating func upstreamFinished<Output>() -> FlatMapMachine<Output>.FinishAction
  where Machine == FlatMapMachine<Output> {
    _ = end()
    switch machine.phase {
    case .running:
      machine.phase = .upstreamFinished
      return machine.finishIfDone()
    case .upstreamFinished, .completed, .cancelled:
      // A second finish (from a misbehaving upstream), or one after the end: nothing new.
      return .wait
    }
  }

  /// Upstream failed: every inner subscription goes, and the failure goes downstream
  /// unless a completion or a cancel came first.
  @inlinable
  mutating func upstreamFailed<Output>() -> FlatMapMachine<Output>.UpstreamFailureAction
  where Machine == FlatMapMachine<Output> {
    _ = end()
    let cancelled = machine.inners
    machine.inners = [:]
    switch machine.phase {
    case .running, .upstreamFinished:
      // After a finish, only a misbehaving upstream fails; Combine delivers it.
      machine.phase = .completed
      return .cancelInnersThenFail(cancelled)
    case .completed, .cancelled:
      return .cancelInners(cancelled)
    }
  }

  /// The inner publisher of `index` finished: it frees its slot, which upstream is asked
  /// to fill when `refillsSlots` (the number of inner publishers is limited).
  @inlinable @inline(__always)
  mutating func innerFinished<Output>(_ index: Int, refillsSlots: Bool)
    -> FlatMapMachine<Output>.InnerFinishAction
  where Machine == FlatMapMachine<Output> {
    machine.inners[index] = nil
    if case .finish = machine.finishIfDone() { return .finish }
    guard refillsSlots, let upstream = subscription else { return .none }
    return .requestElement(upstream)
  }

  /// The subscriber cancelled. After an inner failure upstream is still subscribed
  /// (Combine leaves it): a cancel then lets it go, or a subject upstream would keep
  /// the subscription forever.
  @inlinable
  mutating func cancelled<Output>() -> FlatMapMachine<Output>.CancelAction
  where Machine == FlatMapMachine<Output> {
    switch machine.phase {
    case .cancelled: return .none
    case .running, .upstreamFinished, .completed: machine.phase = .cancelled
    }
    let action = FlatMapMachine<Output>.CancelAction.cancel(
      inners: machine.inners, upstream: end(), releasing: machine.buffer)
    machine.inners = [:]
    machine.buffer.removeAll()
    return action
  }
}
