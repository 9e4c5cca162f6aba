extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Republishes elements sent by the most recently received publisher.
  ///
  ///     let cancellable = searches.map { query in search(query) }.switchToLatest()
  ///         .sink { print($0) }
  ///
  /// Each new inner publisher cancels the previous one; outstanding demand carries over.
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// Republishes elements sent by the most recently received publisher, for an upstream
  /// that never fails and inner publishers that can.
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Output, Publishers.SetFailureType<Self, Output.Failure>
    >
  {
    setFailureType(to: Output.Failure.self).switchToLatest()
  }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// Republishes elements sent by the most recently received publisher, when neither the
  /// upstream nor the inner publishers fail.
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// Republishes elements sent by the most recently received publisher, for inner
  /// publishers that never fail and an upstream that can.
  ///
  /// - Returns: A publisher that emits elements only from the most recent publisher.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>,
      Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    map { $0.setFailureType(to: Failure.self) }.switchToLatest()
  }
}

extension Publishers {
  /// A publisher that flattens nested publishers, keeping only the most recent one.
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where P == Upstream.Output, P.Failure == Upstream.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = P.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = P.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that “flattens” nested publishers.
    ///
    /// - Parameter upstream: The publisher from which this publisher receives elements.
    public init(upstream: Upstream) { self.upstream = upstream }

    /// Attaches the subscriber through the switching engine.
    public func receive<S: Subscriber>(subscriber: S)
    where P.Output == S.Input, P.Failure == S.Failure {
      upstream.receive(subscriber: SwitchSubscription<P, S>(downstream: subscriber))
    }
  }
}

/// Keeps one inner subscription, replacing it with each new inner publisher.
private final class SwitchSubscription<Inner: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, @unchecked Sendable
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
  typealias Input = Inner
  typealias Failure = Inner.Failure

  /// The lock that guards every variable below.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var upstream = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var current: (generation: Int, subscription: (any Subscription)?)?
  @exclusivity(unchecked)
  private var generation = 0
  @exclusivity(unchecked)
  private var upstreamFinished = false
  @exclusivity(unchecked)
  private var isDone = false
  private let out: SerialDownstream<Downstream>
  private let downstream: Downstream

  init(downstream: Downstream) {
    self.downstream = downstream
    out = SerialDownstream(downstream)
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = upstream else { return false }
      upstream = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  func receive(_ input: Inner) -> Subscribers.Demand {
    let (previous, mine) = lock.withLock { () -> ((any Subscription)?, Int?) in
      guard !isDone else { return (nil, nil) }
      generation += 1
      defer { current = (generation, nil) }
      return (current?.subscription, generation)
    }
    previous?.cancel()
    guard let mine else { return .none }
    input.receive(subscriber: Side(parent: self, generation: mine))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .finished = completion else { return finish(completion) }
    let done = lock.withLock { () -> Bool in
      upstreamFinished = true
      upstream = .terminal
      return current == nil
    }
    if done { finish(.finished) }
  }

  fileprivate func sideSubscribed(_ mine: Int, _ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard !isDone, current?.generation == mine else { return nil }
      current = (mine, subscription)
      return out.outstandingDemand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  fileprivate func sideReceived(_ mine: Int, _ value: Inner.Output) {
    guard lock.withLock({ current?.generation == mine && !isDone }) else { return }
    out.push(value)
  }

  fileprivate func sideCompleted(_ mine: Int, _ completion: Subscribers.Completion<Failure>) {
    guard case .finished = completion else {
      if lock.withLock({ current?.generation == mine }) { finish(completion) }
      return
    }
    let done = lock.withLock { () -> Bool in
      guard current?.generation == mine else { return false }
      current = nil
      return upstreamFinished
    }
    if done { finish(.finished) }
  }

  private func finish(_ completion: Subscribers.Completion<Failure>) {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      guard !isDone else { return [] }
      isDone = true
      defer {
        current = nil
        upstream = .terminal
      }
      return [current?.subscription, upstream.subscription].compactMap { $0 }
    }
    if case .failure = completion { for subscription in subscriptions { subscription.cancel() } }
    out.finish(completion)
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    out.request(demand)
    lock.withLock { current?.subscription }?.request(demand)
  }

  func cancel() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      isDone = true
      defer {
        current = nil
        upstream = .terminal
      }
      return [current?.subscription, upstream.subscription].compactMap { $0 }
    }
    for subscription in subscriptions { subscription.cancel() }
    out.cancel()
  }

  var description: String { "SwitchToLatest" }

  private struct Side: Subscriber {
    typealias Input = Inner.Output
    typealias Failure = Inner.Failure
    let parent: SwitchSubscription
    let generation: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { parent.sideSubscribed(generation, subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.sideReceived(generation, input)
      return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.sideCompleted(generation, completion)
    }
  }
}
