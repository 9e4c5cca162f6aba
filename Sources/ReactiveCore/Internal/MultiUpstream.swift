/// The engine of operators that subscribe to several upstreams at once (`merge`,
/// `combineLatest`, `zip`): it owns one subscription per upstream, forwards demand and
/// cancellation to all of them, and hands each event to a strategy that decides what
/// reaches the ``SerialDownstream``.
final class MultiUpstream<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  @unchecked Sendable
{
  typealias Failure = Downstream.Failure

  /// What the operator does with events; called outside any lock of this class, but
  /// never concurrently for one side (each upstream serializes its own deliveries).
  struct Strategy {
    /// How many upstream values to ask each side for, per downstream demand; `nil` asks
    /// every side for unlimited values at once.
    var forwardsDemand: Bool
    var onValue: (_ side: Int, _ value: Any, _ out: SerialDownstream<Downstream>) -> Void
    var onFinished: (_ side: Int, _ out: SerialDownstream<Downstream>) -> Void
  }

  /// The lock that guards `subscriptions`, `requested` and `isCancelled`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var subscriptions: [(any Subscription)?]
  @exclusivity(unchecked)
  private var requested = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var isCancelled = false
  private let out: SerialDownstream<Downstream>
  private let strategy: Strategy
  let description: String

  init(name: String, sides: Int, downstream: Downstream, strategy: Strategy) {
    description = name
    subscriptions = Array(repeating: nil, count: sides)
    out = SerialDownstream(downstream)
    self.strategy = strategy
  }

  /// Subscribes the downstream, then every upstream in order.
  func start(_ downstream: Downstream, upstreams: [AnyPublisher<Any, Failure>]) {
    downstream.receive(subscription: self)
    if upstreams.isEmpty { out.finish(.finished) }
    for (index, upstream) in upstreams.enumerated() {
      upstream.receive(subscriber: Side(parent: self, index: index))
    }
  }

  fileprivate func sideSubscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard !isCancelled, subscriptions[index] == nil else { return nil }
      subscriptions[index] = subscription
      return strategy.forwardsDemand ? requested : .unlimited
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  fileprivate func sideReceived(_ index: Int, _ value: Any) {
    strategy.onValue(index, value, out)
  }

  fileprivate func sideCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      lock.withLock { subscriptions[index] = nil }
      strategy.onFinished(index, out)
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

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let sides = lock.withLock { () -> [any Subscription] in
      requested += demand
      return strategy.forwardsDemand ? subscriptions.compactMap { $0 } : []
    }
    out.request(demand)
    for side in sides { side.request(demand) }
  }

  func cancel() {
    let sides = lock.withLock { () -> [any Subscription] in
      isCancelled = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.compactMap { $0 }
    }
    for side in sides { side.cancel() }
    out.cancel()
  }

  /// Subscribes to one upstream on behalf of the parent.
  private struct Side: Subscriber {
    typealias Input = Any
    let parent: MultiUpstream
    let index: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { parent.sideSubscribed(index, subscription) }
    func receive(_ input: Any) -> Subscribers.Demand {
      parent.sideReceived(index, input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.sideCompleted(index, completion)
    }
  }
}

extension Publisher {
  /// This publisher with its output erased to `Any`, as ``MultiUpstream`` sides take it.
  var erasedToAny: AnyPublisher<Any, Failure> { map { $0 as Any }.eraseToAnyPublisher() }
}

extension MultiUpstream {
  /// `merge`: every value as it comes; finished when every upstream finished.
  static func merging(
    name: String, sides: Int, downstream: Downstream
  ) -> MultiUpstream {
    let finished = LockedBox(0)
    return MultiUpstream(
      name: name, sides: sides, downstream: downstream,
      strategy: Strategy(
        forwardsDemand: true,
        onValue: { _, value, out in out.push(value as! Downstream.Input) },
        onFinished: { _, out in
          if finished.withLock({ count -> Bool in
            count += 1
            return count == sides
          }) {
            out.finish(.finished)
          }
        }))
  }

  /// `combineLatest`: a tuple of every upstream's latest value once each has one.
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
        },
        onFinished: { side, out in
          let done = state.withLock { state -> Bool in
            state.finished += 1
            return state.finished == sides || state.latest[side] == nil
          }
          if done { out.finish(.finished) }
        }))
  }

  /// `zip`: the n-th values of every upstream together.
  static func zipping(
    name: String, sides: Int, downstream: Downstream, combine: @escaping ([Any]) -> Downstream.Input
  ) -> MultiUpstream {
    let state = LockedBox((queues: [[Any]](repeating: [], count: sides), finished: Set<Int>()))
    return MultiUpstream(
      name: name, sides: sides, downstream: downstream,
      strategy: Strategy(
        forwardsDemand: true,
        onValue: { side, value, out in
          let (tuple, exhausted) = state.withLock { state -> ([Any]?, Bool) in
            state.queues[side].append(value)
            guard state.queues.allSatisfy({ !$0.isEmpty }) else { return (nil, false) }
            let tuple = state.queues.indices.map { state.queues[$0].removeFirst() }
            let exhausted = state.finished.contains { state.queues[$0].isEmpty }
            return (tuple, exhausted)
          }
          if let tuple { out.push(combine(tuple)) }
          if exhausted { out.finish(.finished) }
        },
        onFinished: { side, out in
          let done = state.withLock { state -> Bool in
            state.finished.insert(side)
            return state.queues[side].isEmpty
          }
          if done { out.finish(.finished) }
        }))
  }
}
