/// What a ``FanIn`` does with its upstreams' events: the typed state of one fan-in
/// operator. It lives inside the engine's lock; each method runs with the lock held and
/// calls no user code.
@usableFromInline
protocol FanInRule {
  /// What the operator delivers downstream.
  associatedtype Output

  /// Whether downstream demand is forwarded to every upstream; `false` asks every
  /// upstream for unlimited values at once and holds what downstream has not asked for.
  static var forwardsDemand: Bool { get }

  /// Upstream `side` finished; returns whether downstream finishes now.
  mutating func sideFinished(_ side: Int) -> Bool
}

/// The engine of the operators that subscribe to several upstreams and deliver to one
/// downstream as events come: `combineLatest` (``CombineLatestRule``). `merge` has its
/// own engine (``MergeEngine``) for Combine's demand rules. `zip` cannot use it: Combine's zip delivers
/// whatever the demand and hands demand back through the upstream that completed a tuple
/// (see ``ZipSubscription``).
///
/// Every value keeps its own type from upstream to downstream: each upstream is
/// subscribed with a ``Side`` typed by its output, whose `accept` function folds the value
/// into the rule and returns what goes downstream, if anything.
///
/// - Invariant: the lock inherited from ``DemandBuffer`` guards ``FanInState`` (its
///   `extra`) as well as the held values; a value takes that lock
///   twice (fold and deliver, then take the returned demand), and it is never held while
///   an upstream or the downstream runs.
@usableFromInline
final class FanIn<Downstream: Subscriber, Rule: FanInRule>: DemandBuffer<
  Downstream, FanInState<Rule>
>, Subscription, CustomStringConvertible, @unchecked Sendable
where Rule.Output == Downstream.Input {
  /// The name Combine gives this subscription.
  @usableFromInline
  let description: String

  /// Creates the engine for `sides` upstreams.
  @inlinable
  init(name: String, sides: Int, rule: Rule, downstream: Downstream) {
    description = name
    super.init(downstream, extra: FanInState(rule: rule, sides: sides))
  }

  /// Subscribes the downstream, then, through `attach`, every upstream in order.
  ///
  /// - Parameter attach: Calls ``attach(_:as:accept:)`` once per upstream.
  @inlinable
  func start(_ downstream: Downstream, attach: (FanIn) -> Void) {
    downstream.receive(subscription: self)
    if lock.withLock({ extra.subscriptions.isEmpty }) { complete(.finished) }
    attach(self)
  }

  /// Subscribes to one upstream as side `index`; `accept` folds each of its values into
  /// the rule and returns what goes downstream.
  @inlinable
  func attach<Upstream: Publisher>(
    _ upstream: Upstream, as index: Int,
    accept: @escaping (inout Rule, Upstream.Output) -> Rule.Output?
  ) where Upstream.Failure == Downstream.Failure {
    upstream.receive(subscriber: Side(parent: self, index: index, accept: accept))
  }

  @inlinable
  func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    lock.lock()
    guard !extra.isCancelled, extra.subscriptions[index] == nil else {
      lock.unlock()
      return subscription.cancel()
    }
    extra.subscriptions[index] = subscription
    let demand = Rule.forwardsDemand ? extra.requested : .unlimited
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  func sideReceived<Input>(_ value: Input, accept: (inout Rule, Input) -> Rule.Output?) {
    lock.lock()
    guard !extra.isCancelled, let output = accept(&extra.rule, value) else {
      return lock.unlock()
    }
    pushThenUnlock(output)
  }

  @inlinable
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    extra.subscriptions[index] = nil
    switch completion {
    case .finished:
      guard !extra.isCancelled, extra.rule.sideFinished(index) else {
        return lock.unlock()
      }
      completeThenCancelSides(completion)
    case .failure:
      guard !extra.isCancelled else { return lock.unlock() }
      // As Combine does: the other upstreams are cancelled before the failure goes out.
      let sides = takeSidesLocked()
      lock.unlock()
      for side in sides { side.cancel() }
      complete(completion, discardingHeld: true)
    }
  }

  /// Finishes the operator: takes out every upstream still running, completes downstream
  /// and cancels those upstreams, so that they let go of the engine. Call with the lock
  /// held; returns with it released.
  @inlinable
  func completeThenCancelSides(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let sides = takeSidesLocked()
    completeThenUnlock(completion, discardingHeld: true)
    for side in sides { side.cancel() }
  }

  /// Marks the engine cancelled and takes out the upstream subscriptions. Call with the
  /// lock held.
  @inlinable
  func takeSidesLocked() -> [any Subscription] {
    extra.isCancelled = true
    let sides = extra.subscriptions.compactMap { $0 }
    for index in extra.subscriptions.indices { extra.subscriptions[index] = nil }
    return sides
  }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    lock.lock()
    extra.requested += demand
    let sides =
      Rule.forwardsDemand && !extra.isCancelled
      ? extra.subscriptions.compactMap { $0 } : []
    lock.unlock()
    addDemand(demand)
    for side in sides { side.request(demand) }
  }

  @usableFromInline
  func cancel() {
    lock.lock()
    let sides = takeSidesLocked()
    lock.unlock()
    for side in sides { side.cancel() }
    release()
  }

  /// Subscribes to one upstream on behalf of the engine.
  @usableFromInline
  struct Side<Input>: Subscriber {
    @usableFromInline
    let parent: FanIn
    @usableFromInline
    let index: Int
    @usableFromInline
    let accept: (inout Rule, Input) -> Rule.Output?
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: FanIn, index: Int, accept: @escaping (inout Rule, Input) -> Rule.Output?) {
      self.parent = parent
      self.index = index
      self.accept = accept
    }

    @inlinable
    func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.sideReceived(input, accept: accept)
      return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
      parent.sideCompleted(index, completion)
    }
  }
}

/// What a ``FanIn`` keeps under its buffer's lock besides the held values.
@usableFromInline
struct FanInState<Rule: FanInRule> {
  /// The operator's typed state.
  @usableFromInline
  var rule: Rule
  /// Each upstream's subscription, while it runs.
  @usableFromInline
  var subscriptions: [(any Subscription)?]
  /// All demand requested downstream, handed to an upstream that subscribes late.
  @usableFromInline
  var requested = Subscribers.Demand.none
  /// Cancelled, failed or finished: upstream events are ignored.
  @usableFromInline
  var isCancelled = false

  /// The state of a fan-in of `sides` upstreams, none subscribed yet.
  @inlinable
  init(rule: Rule, sides: Int) {
    self.rule = rule
    subscriptions = Array(repeating: nil, count: sides)
  }
}
