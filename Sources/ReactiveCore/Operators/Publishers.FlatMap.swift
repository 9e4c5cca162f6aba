extension Publisher {
  /// Transforms all elements from an upstream publisher into a new publisher up to a
  /// maximum number of publishers you specify.
  ///
  ///     let cancellable = ids.flatMap(maxPublishers: .max(2)) { id in fetch(id) }
  ///         .sink { print($0) }
  ///
  /// Back-pressure is real: at most `maxPublishers` inner publishers are subscribed at
  /// once, upstream is asked for another element only when one finishes, and each inner
  /// publisher is asked for one value at a time, as downstream demand allows.
  ///
  /// - Parameters:
  ///   - maxPublishers: Specifies the maximum number of concurrent publisher
  ///     subscriptions, or `unlimited` if unspecified.
  ///   - transform: A closure that takes an element as a parameter and returns a publisher
  ///     that produces elements of that type.
  /// - Returns: A publisher that transforms elements from an upstream publisher into a
  ///   publisher of that element's type.
  @inlinable
  public func flatMap<T, P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher where Failure == Never {
  /// Transforms all elements from a publisher that never fails into publishers that may.
  ///
  /// - Returns: A publisher of the inner publishers' elements.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
  }

  /// Transforms all elements into publishers that never fail.
  ///
  /// - Returns: A publisher of the inner publishers' elements.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher {
  /// Transforms all elements into publishers that never fail, keeping this publisher's
  /// failure type.
  ///
  /// - Returns: A publisher of the inner publishers' elements.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
  }
}

extension Publishers {
  /// A publisher that transforms elements from an upstream publisher into a new
  /// publisher.
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    /// The kind of values published by this publisher.
    public typealias Output = NewPublisher.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of concurrent publisher subscriptions.
    public let maxPublishers: Subscribers.Demand
    /// A closure that takes an element as a parameter and returns a publisher that
    /// produces elements of that type.
    public let transform: (Upstream.Output) -> NewPublisher

    /// Creates a publisher that transforms elements from an upstream publisher into a new
    /// publisher.
    @inlinable
    public init(
      upstream: Upstream, maxPublishers: Subscribers.Demand,
      transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    /// Attaches the subscriber through the flattening engine.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where NewPublisher.Output == S.Input, Upstream.Failure == S.Failure {
      let engine = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
        downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
      // As in Combine, the subscriber gets its subscription before upstream is subscribed.
      subscriber.receive(subscription: engine)
      upstream.receive(subscriber: engine)
    }
  }
}

/// Subscribes to at most `maxPublishers` inner publishers at once and interleaves their
/// values. While downstream demand is limited, each inner publisher has one value
/// outstanding; once it is unlimited, every inner publisher is asked for unlimited
/// values, as in Combine.
// Inlinable throughout so that it is specialised for the caller's types.
@usableFromInline
final class FlatMapSubscription<Input, NewPublisher: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, @unchecked Sendable
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
  @usableFromInline
  typealias Failure = Downstream.Failure

  /// The lock that guards every variable below.
  @usableFromInline
  let lock = Lock()
  @usableFromInline
  @exclusivity(unchecked)
  var upstream = SubscriptionStatus.awaitingSubscription
  @usableFromInline
  @exclusivity(unchecked)
  var inners: [Int: any Subscription] = [:]
  @usableFromInline
  @exclusivity(unchecked)
  var activeInners = 0
  @usableFromInline
  @exclusivity(unchecked)
  var nextInner = 0
  @usableFromInline
  @exclusivity(unchecked)
  var upstreamFinished = false
  @usableFromInline
  @exclusivity(unchecked)
  var isDone = false
  /// Set once downstream asks for unlimited values.
  @usableFromInline
  @exclusivity(unchecked)
  var isDownstreamUnlimited = false
  @usableFromInline
  let maxPublishers: Subscribers.Demand
  @usableFromInline
  let transform: (Input) -> NewPublisher
  @usableFromInline
  let out: SerialDownstream<Downstream>
  @usableFromInline
  let downstream: Downstream

  @inlinable
  init(
    downstream: Downstream, maxPublishers: Subscribers.Demand,
    transform: @escaping (Input) -> NewPublisher
  ) {
    self.downstream = downstream
    self.maxPublishers = maxPublishers
    self.transform = transform
    out = SerialDownstream(downstream)
    // Unowned: `out` runs this only from calls this subscription makes into it, and
    // `out` lives exactly as long as this subscription. A weak reference would give this
    // object a side table, which sends every retain and release of it down a slow path.
    out.onDelivered = { [unowned self] index in requestNext(from: index) }
  }

  @inlinable
  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = upstream else { return false }
      upstream = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(maxPublishers)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let index = lock.withLock { () -> Int? in
      guard !isDone else { return nil }
      nextInner += 1
      activeInners += 1
      return nextInner
    }
    guard let index else { return .none }
    transform(input).receive(subscriber: Inner(parent: self, index: index))
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished:
      let done = lock.withLock { () -> Bool in
        upstreamFinished = true
        upstream = .terminal
        return activeInners == 0
      }
      if done { finishAll(.finished, cancelsUpstream: false) }
    case .failure:
      // The upstream that failed is not cancelled; the inner publishers are.
      finishAll(completion, cancelsUpstream: false)
    }
  }

  @inlinable
  func innerSubscribed(_ index: Int, _ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Subscribers.Demand? in
      guard !isDone else { return nil }
      inners[index] = subscription
      return isDownstreamUnlimited ? .unlimited : .max(1)
    }
    guard let demand = accepted else { return subscription.cancel() }
    subscription.request(demand)
  }

  @inlinable
  func innerReceived(_ index: Int, _ value: NewPublisher.Output) {
    // Ask this inner for its next value only once this one has been delivered.
    out.push(value, tag: index)
  }

  /// Asks inner publisher `index` for its next value, after its last one was delivered.
  @inlinable
  func requestNext(from index: Int) {
    let subscription = lock.withLock { isDownstreamUnlimited ? nil : inners[index] }
    subscription?.request(.max(1))
  }

  @inlinable
  func innerCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    guard case .finished = completion else {
      // The inner publisher that failed is not cancelled; upstream and the others are.
      lock.withLock { inners[index] = nil }
      return finishAll(completion, cancelsUpstream: true)
    }
    let (done, upstreamSubscription) = lock.withLock { () -> (Bool, (any Subscription)?) in
      inners[index] = nil
      activeInners -= 1
      return (upstreamFinished && activeInners == 0, upstreamFinished ? nil : upstream.subscription)
    }
    if done { return finishAll(.finished, cancelsUpstream: false) }
    // A slot is free: one more upstream element may become an inner publisher.
    if maxPublishers != .unlimited { upstreamSubscription?.request(.max(1)) }
  }

  @inlinable
  func finishAll(_ completion: Subscribers.Completion<Failure>, cancelsUpstream: Bool) {
    let (subscriptions, first) = lock.withLock { () -> ([any Subscription], Bool) in
      guard !isDone else { return ([], false) }
      isDone = true
      defer {
        inners = [:]
        upstream = .terminal
      }
      let upstreams = cancelsUpstream ? [upstream.subscription].compactMap { $0 } : []
      return (Array(inners.values) + upstreams, true)
    }
    guard first else { return }
    if case .failure = completion { for subscription in subscriptions { subscription.cancel() } }
    out.finish(completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    if demand == .unlimited {
      let limited = lock.withLock { () -> [any Subscription] in
        guard !isDownstreamUnlimited else { return [] }
        isDownstreamUnlimited = true
        return Array(inners.values)
      }
      for subscription in limited { subscription.request(.unlimited) }
    }
    out.request(demand)
  }

  @inlinable
  func cancel() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      isDone = true
      defer {
        inners = [:]
        upstream = .terminal
      }
      return Array(inners.values) + [upstream.subscription].compactMap { $0 }
    }
    for subscription in subscriptions { subscription.cancel() }
    out.cancel()
  }

  @inlinable
  var description: String { "FlatMap" }

  @usableFromInline
  struct Inner: Subscriber {
    @usableFromInline
    typealias Input = NewPublisher.Output
    @usableFromInline
    typealias Failure = NewPublisher.Failure
    @usableFromInline
    let parent: FlatMapSubscription
    @usableFromInline
    let index: Int
    @usableFromInline
    let combineIdentifier = CombineIdentifier()

    @inlinable
    init(parent: FlatMapSubscription, index: Int) {
      self.parent = parent
      self.index = index
    }

    @inlinable
    func receive(subscription: any Subscription) { parent.innerSubscribed(index, subscription) }
    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.innerReceived(index, input)
      return .none
    }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.innerCompleted(index, completion)
    }
  }
}
