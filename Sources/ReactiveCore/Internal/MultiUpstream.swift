/// The engine of operators that subscribe to several upstreams at once (`merge`,
/// `combineLatest`; `zip` has its own, in Combine's shape): it owns one subscription per upstream, forwards demand and
/// cancellation to all of them, and hands each event to a strategy that decides what
/// reaches the ``SerialDownstream``.
///
/// Inlinable throughout, and each upstream subscribed with a side typed by its output,
/// so that the whole chain is specialised for the caller's publishers and subscriber.
@usableFromInline
final class MultiUpstream<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  @usableFromInline
  typealias Failure = Downstream.Failure

  /// What the operator does with events; called outside any lock of this class, but
  /// never concurrently for one side (each upstream serializes its own deliveries).
  ///
  /// Both callbacks return whether they finished the downstream; the engine then cancels
  /// the upstreams still running (a `combineLatest` side that finished without a
  /// value), as Combine does, so that they let go of the engine.
  @usableFromInline
  struct Strategy {
    /// Whether downstream demand is forwarded to every side; `false` asks every side
    /// for unlimited values at once.
    @usableFromInline
    var forwardsDemand: Bool
    @usableFromInline
    var onValue: (_ side: Int, _ value: Any, _ out: SerialDownstream<Downstream>) -> Bool
    @usableFromInline
    var onFinished: (_ side: Int, _ out: SerialDownstream<Downstream>) -> Bool

    @inlinable
    init(
      forwardsDemand: Bool,
      onValue: @escaping (_ side: Int, _ value: Any, _ out: SerialDownstream<Downstream>) -> Bool,
      onFinished: @escaping (_ side: Int, _ out: SerialDownstream<Downstream>) -> Bool
    ) {
      self.forwardsDemand = forwardsDemand
      self.onValue = onValue
      self.onFinished = onFinished
    }
  }

  /// The lock that guards `subscriptions`, `requested` and `isCancelled`.
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var subscriptions: [(any Subscription)?]
  @usableFromInline
  @exclusivity(unchecked)
  var requested = Subscribers.Demand.none
  @usableFromInline
  @exclusivity(unchecked)
  var isCancelled = false
  @usableFromInline
  let out: SerialDownstream<Downstream>
  @usableFromInline
  let strategy: Strategy
  @usableFromInline
  let description: String

  @inlinable
  init(name: String, sides: Int, downstream: Downstream, strategy: Strategy) {
    description = name
    subscriptions = Array(repeating: nil, count: sides)
    out = SerialDownstream(downstream)
    self.strategy = strategy
  }

  /// Subscribes the downstream, then, through `attach`, every upstream in order.
  ///
  /// - Parameter attach: Calls ``attach(_:as:)`` once per upstream.
  @inlinable
  func start(_ downstream: Downstream, attach: (MultiUpstream) -> Void) {
    downstream.receive(subscription: self)
    if subscriptions.isEmpty { out.finish(.finished) }
    attach(self)
  }

  /// Subscribes to one upstream as side `index`.
  @inlinable
  func attach<Upstream: Publisher>(_ upstream: Upstream, as index: Int)
  where Upstream.Failure == Failure {
    upstream.receive(subscriber: Side<Upstream.Output>(parent: self, index: index))
  }

  @inlinable
  func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard !isCancelled, subscriptions[index] == nil else { return nil }
      subscriptions[index] = subscription
      return strategy.forwardsDemand ? requested : .unlimited
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  func sideReceived(_ index: Int, _ value: Any) {
    if strategy.onValue(index, value, out) { cancelSides() }
  }

  @inlinable
  func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      lock.withLock { subscriptions[index] = nil }
      if strategy.onFinished(index, out) { cancelSides() }
    case .failure:
      let others = lock.withLock { () -> [any Subscription] in
        subscriptions[index] = nil
        defer { subscriptions = subscriptions.map { _ in nil } }
        return subscriptions.compactMap { $0 }
      }
      for other in others { other.cancel() }
      out.finish(completion)
    }
  }

  @usableFromInline
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let sides = lock.withLock { () -> [any Subscription] in
      requested += demand
      return strategy.forwardsDemand ? subscriptions.compactMap { $0 } : []
    }
    out.request(demand)
    for side in sides { side.request(demand) }
  }

  @usableFromInline
  func cancel() {
    cancelSides()
    out.cancel()
  }

  /// Cancels and lets go of every upstream subscription; one that arrives later is
  /// cancelled at once.
  @usableFromInline
  func cancelSides() {
    let sides = lock.withLock { () -> [any Subscription] in
      isCancelled = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.compactMap { $0 }
    }
    for side in sides { side.cancel() }
  }

  /// Subscribes to one upstream on behalf of the parent.
  @usableFromInline
  struct Side<Input>: Subscriber {
    @usableFromInline
    let parent: MultiUpstream
    @usableFromInline
    let index: Int
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: MultiUpstream, index: Int) {
      self.parent = parent
      self.index = index
    }

    @inlinable
    func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.sideReceived(index, input)
      return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.sideCompleted(index, completion)
    }
  }
}

extension MultiUpstream {
  /// `merge`: every value as it comes; finished when every upstream finished.
  @inlinable
  static func merging(
    name: String, sides: Int, downstream: Downstream
  ) -> MultiUpstream {
    let finished = LockedBox(0)
    return MultiUpstream(
      name: name, sides: sides, downstream: downstream,
      strategy: Strategy(
        forwardsDemand: true,
        onValue: { _, value, out in
          out.push(value as! Downstream.Input)
          return false
        },
        onFinished: { _, out in
          guard
            finished.withLock({ count -> Bool in
              count += 1
              return count == sides
            })
          else { return false }
          out.finish(.finished)
          return true
        }))
  }

  /// `combineLatest`: a tuple of every upstream's latest value once each has one.
  @inlinable
  static func combiningLatest(
    name: String, sides: Int, downstream: Downstream, combine: @escaping ([Any]) -> Downstream.Input
  ) -> MultiUpstream {
    let state = LockedBox((latest: [Any?](repeating: nil, count: sides), finished: 0))
    return MultiUpstream(
      name: name, sides: sides, downstream: downstream,
      strategy: Strategy(
        forwardsDemand: false,
        onValue: { side, value, out in
          let all = state.withLock { state -> [Any]? in
            state.latest[side] = value
            let values = state.latest.compactMap { $0 }
            return values.count == sides ? values : nil
          }
          if let all { out.push(combine(all)) }
          return false
        },
        onFinished: { side, out in
          let done = state.withLock { state -> Bool in
            state.finished += 1
            return state.finished == sides || state.latest[side] == nil
          }
          if done { out.finish(.finished) }
          return done
        }))
  }
}
