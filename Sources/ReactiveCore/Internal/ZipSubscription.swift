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
final class ZipSubscription<Downstream: Subscriber, A, B, C, D>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  /// The values waiting to be paired, each upstream's in its own type.
  typealias Queues = ZipQueues<A, B, C, D, Downstream.Input>

  /// The failure type shared by every upstream.
  typealias Failure = Downstream.Failure

  /// The lock that guards every variable below.
  private let lock = Lock()
  /// The subscriber; `nil` once the zip has finished.
  @exclusivity(unchecked)
  private var downstream: Downstream?
  /// Each upstream's subscription, while it is running.
  @exclusivity(unchecked)
  private var subscriptions: [(any Subscription)?]
  /// Whether each upstream has sent its subscription (a second one is cancelled).
  @exclusivity(unchecked)
  private var subscribed: [Bool]
  /// Whether each upstream has finished.
  @exclusivity(unchecked)
  private var finished: [Bool]
  /// The values each upstream sent that are not yet part of a delivered tuple.
  @exclusivity(unchecked)
  private var queues: Queues
  /// All demand requested downstream, handed to an upstream that subscribes late.
  @exclusivity(unchecked)
  private var requested = Subscribers.Demand.none
  /// Completed, failed or cancelled: nothing more passes.
  @exclusivity(unchecked)
  private var isTerminal = false
  /// The upstream whose value completed the tuple being delivered, if one is; the
  /// delivery is serialized through it so the downstream is never called concurrently.
  @exclusivity(unchecked)
  private var deliveringFor: Int?
  /// Demand requested while delivering: already forwarded to the other upstreams, and
  /// owed to `deliveringFor` as its return value.
  @exclusivity(unchecked)
  private var requestedWhileDelivering = Subscribers.Demand.none
  /// A failure that arrived while delivering, sent once the delivery returns.
  @exclusivity(unchecked)
  private var pendingFailure: Subscribers.Completion<Failure>?

  /// Creates the state for `sides` upstreams.
  init(sides: Int, downstream: Downstream, queues: Queues) {
    self.downstream = downstream
    self.queues = queues
    subscriptions = Array(repeating: nil, count: sides)
    subscribed = Array(repeating: false, count: sides)
    finished = Array(repeating: false, count: sides)
  }

  /// The name Combine gives this subscription.
  var description: String { "Zip" }
  /// No children, as in Combine.
  var customMirror: Mirror { Mirror(self, children: [:]) }
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
    let targets = lock.withLock { () -> [any Subscription] in
      guard !isTerminal else { return [] }
      requested += demand
      guard let deliveringFor else { return subscriptions.compactMap { $0 } }
      requestedWhileDelivering += demand
      return subscriptions.indices.compactMap { $0 == deliveringFor ? nil : subscriptions[$0] }
    }
    for target in targets { target.request(demand) }
  }

  /// Cancels every upstream. The downstream is kept, as in Combine.
  func cancel() {
    for subscription in takeSubscriptions() { subscription.cancel() }
  }

  /// Ends the subscription and takes every upstream subscription out, for cancelling
  /// after unlocking.
  private func takeSubscriptions() -> [any Subscription] {
    lock.withLock {
      isTerminal = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.compactMap { $0 }
    }
  }

  // MARK: Upstream events

  /// Accepts side `index`'s first subscription and asks it for the demand so far.
  func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard !isTerminal, !subscribed[index] else { return nil }
      subscribed[index] = true
      subscriptions[index] = subscription
      return requested
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  /// Queues a value and, if it completes a tuple, delivers it and every tuple completed
  /// meanwhile; returns the demand owed to this side (see the type's documentation).
  func sideReceived<Input>(
    _ index: Int, _ value: Input, enqueue: (inout Queues, Input) -> Void
  ) -> Subscribers.Demand {
    let start = lock.withLock { () -> (Downstream, Downstream.Input)? in
      guard !isTerminal, !finished[index], let downstream else { return nil }
      enqueue(&queues, value)
      // A delivery in progress picks the value up when it loops.
      guard deliveringFor == nil, let tuple = queues.takeTuple() else { return nil }
      deliveringFor = index
      return (downstream, tuple)
    }
    guard let (target, first) = start else { return .none }
    var tuple: Downstream.Input? = first
    var returned = Subscribers.Demand.none
    var owed = Subscribers.Demand.none
    var others: [any Subscription] = []
    while let values = tuple {
      returned += target.receive(values)
      // Looking for another tuple and ending the delivery happen under one lock, so a
      // value queued by another side just after is never stranded.
      tuple = lock.withLock { () -> Downstream.Input? in
        if !isTerminal, pendingFailure == nil, let next = queues.takeTuple() { return next }
        deliveringFor = nil
        owed = requestedWhileDelivering
        requestedWhileDelivering = .none
        guard !isTerminal, returned > 0 else { return nil }
        requested += returned
        owed += returned
        others = subscriptions.indices.compactMap { $0 == index ? nil : subscriptions[$0] }
        return nil
      }
    }
    for other in others { other.request(returned) }
    if let failure = lock.withLock({ pendingFailure.take() }) {
      fail(failure)
    } else {
      finishIfExhausted()
    }
    return owed
  }

  /// Handles side `index`'s completion: a failure ends the zip at once; a finish ends it
  /// once that side has no queued value left to pair.
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    let proceed = lock.withLock { () -> Bool in
      guard !isTerminal, !finished[index] else { return false }
      switch completion {
      case .finished:
        finished[index] = true
        subscriptions[index] = nil
      case .failure:
        // The downstream is busy: the delivering side sends the failure afterwards.
        if deliveringFor != nil {
          if pendingFailure == nil { pendingFailure = completion }
          return false
        }
      }
      return deliveringFor == nil
    }
    guard proceed else { return }
    if case .failure = completion { fail(completion) } else { finishIfExhausted() }
  }

  /// Sends the failure downstream, then cancels every upstream, the failed one
  /// included, as Combine does.
  private func fail(_ failure: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (Downstream, [any Subscription])? in
      guard !isTerminal, let downstream else { return nil }
      isTerminal = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return (downstream, subscriptions.compactMap { $0 })
    }
    guard let (target, upstreams) = taken else { return }
    target.receive(completion: failure)
    for upstream in upstreams { upstream.cancel() }
  }

  /// Finishes downstream, and cancels the upstreams still running, once a finished side
  /// has nothing queued: no further tuple is possible.
  private func finishIfExhausted() {
    let taken = lock.withLock { () -> (Downstream, [any Subscription])? in
      guard !isTerminal, deliveringFor == nil,
        finished.indices.contains(where: { finished[$0] && queues.isEmpty($0) })
      else { return nil }
      isTerminal = true
      defer {
        subscriptions = subscriptions.map { _ in nil }
        downstream = nil
      }
      return downstream.map { ($0, subscriptions.compactMap { $0 }) }
    }
    guard let (target, upstreams) = taken else { return }
    target.receive(completion: .finished)
    for upstream in upstreams { upstream.cancel() }
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
