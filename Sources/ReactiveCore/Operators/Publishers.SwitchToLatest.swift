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
      let outer = SwitchSubscription<P, S>(downstream: subscriber)
      // As in Combine, the subscriber gets its subscription before upstream is subscribed.
      subscriber.receive(subscription: outer)
      upstream.receive(subscriber: outer)
    }
  }
}

/// Keeps one inner subscription, replacing it with each new inner publisher, in Combine's
/// shape:
/// - the subscriber gets this subscription before upstream is subscribed, and upstream is
///   asked for unlimited inner publishers;
/// - outstanding demand carries over to each new inner publisher; a value from an inner
///   publisher that nobody asked for traps, as in Combine;
/// - the upstream's finish waits for the current inner publisher to finish; a failure
///   from either side ends everything;
/// - events from a replaced inner publisher are ignored.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``SwitchToLatestStateMachine``, which
///   decides; this class carries out its actions once unlocked. `deliveryLock`
///   (recursive) keeps deliveries to the subscriber from overlapping. No lock is held
///   while calling upstream or an inner subscription.
private final class SwitchSubscription<Inner: Publisher, Downstream: Subscriber>:
  Guarded<SwitchToLatestStateMachine>, Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
  typealias Input = Inner
  typealias Failure = Inner.Failure

  private let downstream: Downstream
  /// Held while delivering to the subscriber.
  private let deliveryLock = RecursiveLock()

  init(downstream: Downstream) {
    self.downstream = downstream
    super.init(state: SwitchToLatestStateMachine())
  }

  // MARK: Upstream (the publisher of publishers)

  func receive(subscription: any Subscription) {
    switch withLock({ $0.outerSubscribed(subscription) }) {
    case .cancel: subscription.cancel()
    case .requestUnlimited: subscription.request(.unlimited)
    }
  }

  func receive(_ input: Inner) -> Subscribers.Demand {
    switch withLock({ $0.publisherArrived() }) {
    case .ignore:
      break
    case .subscribe(let generation, let replaced):
      replaced?.cancel()
      input.subscribe(Side(parent: self, generation: generation))
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let action = withLock { state in
      switch completion {
      case .finished: state.outerFinished()
      case .failure: state.outerFailed()
      }
    }
    complete(with: completion, action)
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    withLock { $0.demandRequested(demand) }?.request(demand)
  }

  func cancel() {
    switch withLock({ $0.cancelled() }) {
    case .cancel(let inner, let outer):
      inner?.cancel()
      outer?.cancel()
    }
  }

  var description: String { "SwitchToLatest" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }

  // MARK: The current inner publisher

  fileprivate func innerReceive(subscription: any Subscription, generation: UInt64) {
    switch withLock({ $0.innerSubscribed(subscription, generation: generation) }) {
    case .cancel:
      subscription.cancel()
    case .request(let demand):
      if demand > .none { subscription.request(demand) }
    }
  }

  fileprivate func innerReceive(_ input: Inner.Output, generation: UInt64) -> Subscribers.Demand {
    guard case .deliver = withLock({ $0.innerValueArrived(generation: generation) }) else {
      return .none
    }
    let acquired = deliveryLock.enter()
    let more = downstream.receive(input)
    deliveryLock.exit(acquired)
    if more > .none { withLock { $0.demandAdded(more) } }
    return more
  }

  fileprivate func innerReceive(
    completion: Subscribers.Completion<Failure>, generation: UInt64
  ) {
    let action = withLock { state in
      switch completion {
      case .finished: state.innerFinished(generation: generation)
      case .failure: state.innerFailed(generation: generation)
      }
    }
    complete(with: completion, action)
  }

  /// Carries out what the state machine decided about a completion from either side.
  private func complete(
    with completion: Subscribers.Completion<Failure>,
    _ action: SwitchToLatestStateMachine.CompletionAction
  ) {
    guard case .complete(let other) = action else { return }
    other?.cancel()
    let acquired = deliveryLock.enter()
    downstream.receive(completion: completion)
    deliveryLock.exit(acquired)
  }

  /// The subscriber attached to one inner publisher; it names itself as the operator.
  private struct Side: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    typealias Input = Inner.Output
    typealias Failure = Inner.Failure

    let parent: SwitchSubscription
    /// The generation the state machine gave this inner publisher.
    let generation: UInt64
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
      parent.innerReceive(subscription: subscription, generation: generation)
    }
    func receive(_ input: Input) -> Subscribers.Demand {
      parent.innerReceive(input, generation: generation)
    }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.innerReceive(completion: completion, generation: generation)
    }

    var description: String { "SwitchToLatest" }
    var customMirror: Mirror {
      Mirror(
        self, children: ["parentSubscription": parent.combineIdentifier],
        ancestorRepresentation: .suppressed)
    }
    var playgroundDescription: Any { description }
  }
}
