/// The subscription behind `zip`: queues each upstream's values and sends a tuple as
/// soon as every upstream has one queued, as Combine does.
///
/// Combine's quirks, which this reproduces:
/// - a complete tuple goes downstream at once, whatever the demand; demand only paces
///   the upstreams;
/// - demand that arrives while a tuple is being delivered (requested, or returned by the
///   downstream) reaches the upstream whose value completed the tuple as the return value
///   of its `receive(_:)`, and every other upstream as a `request(_:)`;
/// - a failure cancels every upstream, the failed one included;
/// - the downstream is kept after a failure or a cancel (Combine's subscriber
///   outlives both); it is released once the zip has finished, so that a subscriber that
///   holds on to its subscription does not form a cycle with it.
final class ZipSubscription<Downstream: Subscriber, Queues: ZipQueueing>: Guarded<
  ZipState<Downstream, Queues>
>, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
@unchecked Sendable
where Queues.Output == Downstream.Input {
  /// The failure type shared by every upstream.
  typealias Failure = Downstream.Failure

  /// Creates the state for `sides` upstreams.
  init(sides: Int, downstream: Downstream, queues: Queues) {
    super.init(state: ZipState(sides: sides, downstream: downstream, queues: queues))
  }

  /// The name Combine gives this subscription.
  var description: String { "Zip" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  /// The same as ``description``.
  var playgroundDescription: Any { description }

  /// Subscribes to one upstream as side `index`; `enqueue` puts each of its values in
  /// its queue.
  func attach<Upstream: Publisher>(
    _ upstream: Upstream, as index: Int,
    enqueue: @escaping (inout Queues, Upstream.Output) -> Void
  ) where Upstream.Failure == Failure {
    upstream.receive(subscriber: Side(parent: self, index: index, enqueue: enqueue))
  }

  // MARK: Subscription

  /// Forwards the demand to every upstream (except the one whose value is being
  /// delivered, which gets it as its return value instead).
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let targets = withLock { state -> [any Subscription] in
      guard !state.isTerminal else { return [] }
      state.requested += demand
      guard let deliveringFor = state.deliveringFor else { return state.running(except: nil) }
      state.requestedWhileDelivering += demand
      return state.running(except: deliveringFor)
    }
    for target in targets { target.request(demand) }
  }

  /// Cancels every upstream. The downstream is kept, as in Combine.
  func cancel() {
    let (upstreams, released) = withLock { state in
      state.isTerminal = true
      return (state.takeSubscriptions(), state.releaseDownstreamClosures())
    }
    withExtendedLifetime(released) {}
    for subscription in upstreams { subscription.cancel() }
  }

  // MARK: Upstream events

  /// Accepts side `index`'s first subscription and asks it for the demand so far.
  func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = withLock { state -> Subscribers.Demand? in
      guard !state.isTerminal, !state.subscribed[index] else { return nil }
      state.subscribed[index] = true
      state.subscriptions[index] = subscription
      return state.requested
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  /// Queues a value and, if it completes a tuple, delivers it and every tuple completed
  /// meanwhile; returns the demand owed to this side (see the type's documentation).
  func sideReceived<Input>(
    _ index: Int, _ value: Input, enqueue: (inout Queues, Input) -> Void
  ) -> Subscribers.Demand {
    let start = withLock { state -> Delivery? in
      guard !state.isTerminal, !state.finished[index], let downstream = state.downstream else {
        return nil
      }
      enqueue(&state.queues, value)
      // A delivery in progress picks the value up when it loops.
      guard state.deliveringFor == nil, let tuple = state.queues.takeTuple() else { return nil }
      state.deliveringFor = index
      return Delivery(downstream: downstream, tuple: tuple)
    }
    guard let start else { return .none }
    var tuple: Downstream.Input? = start.tuple
    var returned = Subscribers.Demand.none
    var owed = Subscribers.Demand.none
    var others: [any Subscription] = []
    while let values = tuple {
      returned += start.downstream.receive(values)
      // Looking for another tuple and ending the delivery happen under one lock, so a
      // value queued by another side just after is never stranded.
      tuple = withLock { state -> Downstream.Input? in
        if !state.isTerminal, state.pendingFailure == nil, let next = state.queues.takeTuple() {
          return next
        }
        state.deliveringFor = nil
        owed = state.requestedWhileDelivering
        state.requestedWhileDelivering = .none
        guard !state.isTerminal, returned > 0 else { return nil }
        state.requested += returned
        owed += returned
        others = state.running(except: index)
        return nil
      }
    }
    for other in others { other.request(returned) }
    if let failure = withLock({ $0.pendingFailure.take() }) {
      fail(failure)
    } else {
      finishIfExhausted()
    }
    return owed
  }

  /// Handles side `index`'s completion: a failure ends the zip at once; a finish ends it
  /// once that side has no queued value left to pair.
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    let proceed = withLock { state -> Bool in
      guard !state.isTerminal, !state.finished[index] else { return false }
      switch completion {
      case .finished:
        state.finished[index] = true
        state.finishedSides.append(index)
        state.subscriptions[index] = nil
      case .failure:
        // The downstream is busy: the delivering side sends the failure afterwards.
        if state.deliveringFor != nil {
          if state.pendingFailure == nil { state.pendingFailure = completion }
          return false
        }
      }
      return state.deliveringFor == nil
    }
    guard proceed else { return }
    if case .failure = completion {
      fail(completion)
    } else {
      // Only this side can have become exhausted: another finished side's queue empties
      // only when a tuple is taken, and the delivery that takes it checks them all.
      finishIfExhausted(onlySide: index)
    }
  }

  /// Sends the failure downstream, then cancels every upstream, the failed one
  /// included, as Combine does.
  private func fail(_ failure: Subscribers.Completion<Failure>) {
    let (ending, released) = withLock { state -> (Ending?, Downstream?) in
      guard !state.isTerminal, let downstream = state.downstream else { return (nil, nil) }
      state.isTerminal = true
      let ending = Ending(downstream: downstream, upstreams: state.takeSubscriptions())
      return (ending, state.releaseDownstreamClosures())
    }
    withExtendedLifetime(released) {}
    guard let ending else { return }
    ending.downstream.receive(completion: failure)
    for upstream in ending.upstreams { upstream.cancel() }
  }

  /// Finishes downstream, and cancels the upstreams still running, once a finished side
  /// has nothing queued: no further tuple is possible.
  ///
  /// - Parameter onlySide: The one finished side that can have run out, when the caller
  ///   knows it (a side that just finished), so that n sides finishing cost O(n) in all;
  ///   `nil` looks at every finished side, as after a tuple was taken.
  private func finishIfExhausted(onlySide: Int? = nil) {
    let ending = withLock { state -> Ending? in
      guard !state.isTerminal, state.deliveringFor == nil else { return nil }
      let exhausted =
        if let onlySide {
          state.queues.isEmpty(onlySide)
        } else {
          state.finishedSides.contains(where: { state.queues.isEmpty($0) })
        }
      guard exhausted else { return nil }
      state.isTerminal = true
      let upstreams = state.takeSubscriptions()
      // Let go of the subscriber, so that one holding its subscription forms no cycle.
      return state.downstream.take().map { Ending(downstream: $0, upstreams: upstreams) }
    }
    guard let ending else { return }
    ending.downstream.receive(completion: .finished)
    for upstream in ending.upstreams { upstream.cancel() }
  }

  /// A tuple to deliver, with the subscriber to deliver it to, taken out of the lock.
  private struct Delivery {
    /// The subscriber.
    let downstream: Downstream
    /// The first tuple.
    let tuple: Downstream.Input
  }

  /// The end of the zip, carried out after unlocking: the completion goes to
  /// `downstream`, then every upstream still running is cancelled.
  private struct Ending {
    /// The subscriber to complete.
    let downstream: Downstream
    /// The upstream subscriptions to cancel.
    let upstreams: [any Subscription]
  }
}

/// What a ``ZipSubscription``'s lock guards.
struct ZipState<Downstream: Subscriber, Queues> {
  /// The subscriber; `nil` once the zip has finished.
  var downstream: Downstream?
  /// Each upstream's subscription, while it is running.
  var subscriptions: [(any Subscription)?]
  /// Whether each upstream has sent its subscription (a second one is cancelled).
  var subscribed: [Bool]
  /// Whether each upstream has finished.
  var finished: [Bool]
  /// The upstreams that have finished, in the order they did: usually none or a few, so
  /// that looking for one with nothing left queued costs little per value, however many
  /// upstreams there are.
  var finishedSides: [Int] = []
  /// The values each upstream sent that are not yet part of a delivered tuple.
  var queues: Queues
  /// All demand requested downstream, handed to an upstream that subscribes late.
  var requested = Subscribers.Demand.none
  /// Completed, failed or cancelled: nothing more passes.
  var isTerminal = false
  /// The upstream whose value completed the tuple being delivered, if one is; the
  /// delivery is serialized through it so the downstream is never called concurrently.
  var deliveringFor: Int?
  /// Demand requested while delivering: already forwarded to the other upstreams, and
  /// owed to `deliveringFor` as its return value.
  var requestedWhileDelivering = Subscribers.Demand.none
  /// A failure that arrived while delivering, sent once the delivery returns.
  var pendingFailure: Subscribers.Completion<Downstream.Failure>?

  /// The state of a zip of `sides` upstreams, none subscribed yet.
  init(sides: Int, downstream: Downstream, queues: Queues) {
    self.downstream = downstream
    self.queues = queues
    subscriptions = Array(repeating: nil, count: sides)
    subscribed = Array(repeating: false, count: sides)
    finished = Array(repeating: false, count: sides)
  }

  /// The running upstream subscriptions, but for side `excluded`.
  func running(except excluded: Int?) -> [any Subscription] {
    subscriptions.indices.compactMap { $0 == excluded ? nil : subscriptions[$0] }
  }

  /// Takes every upstream subscription out, for cancelling after unlocking.
  /// Keeps the subscriber (as Combine does after a cancel or a failure) but lets go of the
  /// closures it carries for operators below zip, such as `zip(_:_:)`'s transform (a `map`),
  /// so that they do not live on in a cycle the subscriber makes. Returns the subscriber
  /// with its closures, to release once the lock is released.
  mutating func releaseDownstreamClosures() -> Downstream? {
    guard let current = downstream, let released = releasingClosures(of: current) else {
      return nil
    }
    downstream = released
    return current
  }

  mutating func takeSubscriptions() -> [any Subscription] {
    defer { subscriptions = subscriptions.map { _ in nil } }
    return subscriptions.compactMap { $0 }
  }
}

extension ZipSubscription {
  /// The subscriber attached to one upstream of a zip: forwards to the zip with its side's
  /// index and the function that queues its values.
  struct Side<Input>: Subscriber {
    /// The zip this side belongs to.
    let parent: ZipSubscription
    /// Which upstream this is.
    let index: Int
    /// Puts a value in this side's queue.
    let enqueue: (inout Queues, Input) -> Void
    /// Each side is its own subscriber.
    let combineIdentifier = CombineIdentifier()

    /// Forwards to ``ZipSubscription/sideSubscribed(_:_:)``.
    func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }
    /// Forwards to ``ZipSubscription/sideReceived(_:_:enqueue:)``.
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.sideReceived(index, input, enqueue: enqueue)
    }
    /// Forwards to ``ZipSubscription/sideCompleted(_:_:)``.
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.sideCompleted(index, completion)
    }
  }
}
