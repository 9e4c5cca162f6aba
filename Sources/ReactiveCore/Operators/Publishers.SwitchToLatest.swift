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
/// - Note: Thread-safe. `lock` guards every variable below; `deliveryLock` (recursive)
///   keeps deliveries to the subscriber from overlapping. No lock is held while calling
///   upstream or an inner subscription.
private final class SwitchSubscription<Inner: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Inner.Output, Downstream.Failure == Inner.Failure {
  typealias Input = Inner
  typealias Failure = Inner.Failure

  private let downstream: Downstream
  /// The lock that guards every variable below.
  private let lock = Lock()
  /// Held while delivering to the subscriber.
  private let deliveryLock = RecursiveLock()
  @exclusivity(unchecked)
  private var outer: (any Subscription)?
  @exclusivity(unchecked)
  private var current: (any Subscription)?
  @exclusivity(unchecked)
  private var currentIndex: UInt64 = 0
  @exclusivity(unchecked)
  private var nextIndex: UInt64 = 1
  @exclusivity(unchecked)
  private var isCancelled = false
  @exclusivity(unchecked)
  private var isOuterFinished = false
  @exclusivity(unchecked)
  private var sentCompletion = false
  @exclusivity(unchecked)
  private var awaitingInnerSubscription = false
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none

  init(downstream: Downstream) { self.downstream = downstream }

  // MARK: Upstream (the publisher of publishers)

  func receive(subscription: any Subscription) {
    lock.lock()
    guard outer == nil, !isCancelled else {
      lock.unlock()
      subscription.cancel()
      return
    }
    outer = subscription
    lock.unlock()
    subscription.request(.unlimited)
  }

  func receive(_ input: Inner) -> Subscribers.Demand {
    lock.lock()
    guard !isCancelled, !isOuterFinished else {
      lock.unlock()
      return .none
    }
    let replaced = current
    current = nil
    let index = nextIndex
    currentIndex = index
    nextIndex += 1
    awaitingInnerSubscription = true
    lock.unlock()
    replaced?.cancel()
    input.subscribe(Side(parent: self, index: index))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    outer = nil
    isOuterFinished = true
    guard !isCancelled else {
      lock.unlock()
      return
    }
    switch completion {
    case .finished:
      guard !awaitingInnerSubscription, current == nil else {
        lock.unlock()
        return
      }
      sentCompletion = true
      lock.unlock()
      deliver(completion)
    case .failure:
      let replaced = current
      current = nil
      sentCompletion = true
      lock.unlock()
      replaced?.cancel()
      deliver(completion)
    }
  }

  // MARK: Subscription

  func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    self.demand += demand
    let current = self.current
    lock.unlock()
    current?.request(demand)
  }

  func cancel() {
    lock.lock()
    isCancelled = true
    let taken = (current, outer)
    current = nil
    outer = nil
    lock.unlock()
    taken.0?.cancel()
    taken.1?.cancel()
  }

  var description: String { "SwitchToLatest" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }

  // MARK: The current inner publisher

  fileprivate func innerReceive(subscription: any Subscription, index: UInt64) {
    lock.lock()
    guard currentIndex == index, !isCancelled, current == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    current = subscription
    awaitingInnerSubscription = false
    let demand = self.demand
    lock.unlock()
    if demand > .none { subscription.request(demand) }
  }

  fileprivate func innerReceive(_ input: Inner.Output, index: UInt64) -> Subscribers.Demand {
    lock.lock()
    guard currentIndex == index, !isCancelled else {
      lock.unlock()
      return .none
    }
    // Combine traps on a value nobody asked for (its demand would go negative).
    precondition(demand > .none, "API Violation: received a value without demand")
    demand -= 1
    lock.unlock()
    let acquired = deliveryLock.enter()
    let more = downstream.receive(input)
    deliveryLock.exit(acquired)
    if more > .none { lock.withLock { demand += more } }
    return more
  }

  fileprivate func innerReceive(completion: Subscribers.Completion<Failure>, index: UInt64) {
    lock.lock()
    guard currentIndex == index, !isCancelled else {
      lock.unlock()
      return
    }
    precondition(!awaitingInnerSubscription, "Unexpected completion")
    current = nil
    switch completion {
    case .finished:
      guard !sentCompletion, isOuterFinished else {
        lock.unlock()
        return
      }
      sentCompletion = true
      lock.unlock()
      deliver(completion)
    case .failure:
      guard !sentCompletion else {
        lock.unlock()
        return
      }
      isCancelled = true
      let outer = self.outer
      self.outer = nil
      sentCompletion = true
      lock.unlock()
      outer?.cancel()
      deliver(completion)
    }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
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
    let index: UInt64
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
      parent.innerReceive(subscription: subscription, index: index)
    }
    func receive(_ input: Input) -> Subscribers.Demand { parent.innerReceive(input, index: index) }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.innerReceive(completion: completion, index: index)
    }

    var description: String { "SwitchToLatest" }
    var customMirror: Mirror {
      Mirror(self, children: ["parentSubscription": parent.combineIdentifier])
    }
    var playgroundDescription: Any { description }
  }
}
