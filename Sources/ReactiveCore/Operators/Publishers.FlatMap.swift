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
/// values, with Combine's demand and ordering rules (code ported from Combine can see
/// them):
/// - while downstream demand is limited, each inner publisher is asked for one value at a
///   time: a value delivered at once returns `.max(1)` to its publisher; a value that
///   finds no demand waits in a buffer, and its publisher is asked for the next one when
///   it is delivered; once demand is unlimited, every inner publisher is asked for
///   unlimited values;
/// - a finished inner publisher frees a slot, and upstream is asked for one more element
///   (unless `maxPublishers` is unlimited); downstream finishes once upstream and every
///   inner publisher have finished and the buffer is empty;
/// - an inner failure cancels the other inner publishers but not upstream; an upstream
///   failure cancels every inner publisher, with the lock held, as Combine does (so an
///   inner publisher that fails upstream again from its cancel traps, as there);
/// - a request made from inside a delivery only adds demand: the delivery in progress
///   goes on with it, so requests never recurse.
///
/// The transform is let go once no element can come (upstream finished or failed), or when
/// the subscription ends (an inner failure, a cancel), as in Combine, so that what it
/// captures is released even while the subscriber keeps this subscription.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``FlatMapStateMachine``, which
///   decides, and `transform`; this class carries out the machine's actions, and releases
///   the transform, once unlocked. `deliveryLock` keeps
///   calls into the subscriber from overlapping; it is the only lock held while the
///   subscriber runs, which is what it is for.
// Inlinable throughout so that it is specialised for the caller's types.
@usableFromInline
final class FlatMapSubscription<Input, NewPublisher: Publisher, Downstream: Subscriber>:
  Guarded<Lifecycle<FlatMapStateMachine<NewPublisher.Output>>>, Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
  @usableFromInline
  typealias Failure = Downstream.Failure
  @usableFromInline
  typealias Output = NewPublisher.Output

  /// Held while calling into the subscriber, so deliveries never overlap; a request from
  /// inside one is recognised by this thread holding it.
  @usableFromInline
  let deliveryLock = RecursiveLock()
  /// How many inner publishers may be subscribed at once.
  @usableFromInline
  let maxPublishers: Subscribers.Demand
  /// Makes the inner publisher of each element; `nil` once no element can come. Guarded
  /// by the lock: an element copies it out with the machine's decision.
  @usableFromInline
  @exclusivity(unchecked)
  var transform: ((Input) -> NewPublisher)?
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
    super.init(state: Lifecycle(FlatMapStateMachine()))
  }

  // MARK: Upstream

  @inlinable
  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    subscription.request(maxPublishers)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    // No transform: upstream already finished or failed, or the subscription ended.
    guard let transform,
      case .subscribeInner(let index) = stateAssumingLocked.machine.elementArrived()
    else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    transform(input).receive(subscriber: Inner(parent: self, index: index))
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    guard case .failure = completion else {
      lock.lock()
      let action = stateAssumingLocked.upstreamFinished()
      let released = transform.take()
      lock.unlock()
      withExtendedLifetime(released) {}
      finish(action)
      return
    }
    lock.lock()
    let action = stateAssumingLocked.upstreamFailed()
    let released = transform.take()
    // Combine cancels the inner publishers with its lock held; so does this, so that an
    // inner publisher that fails upstream again from its cancel traps here as there.
    switch action {
    case .cancelInnersThenFail(let inners), .cancelInners(let inners):
      for subscription in inners.values { subscription.cancel() }
    }
    lock.unlock()
    withExtendedLifetime(released) {}
    guard case .cancelInnersThenFail = action else { return }
    deliveryLock.withLock { downstream.receive(completion: completion) }
  }

  // MARK: Inner publishers

  @inlinable
  func innerSubscribed(_ index: Int, _ subscription: any Subscription) {
    switch withLock({ $0.machine.innerSubscribed(index, subscription) }) {
    case .cancel: subscription.cancel()
    case .request(let demand): subscription.request(demand)
    }
  }

  @inlinable
  func innerReceived(_ index: Int, _ value: Output) -> Subscribers.Demand {
    lock.lock()
    let action = stateAssumingLocked.machine.innerValueArrived(value, from: index)
    lock.unlock()
    switch action {
    case .drop, .buffered:
      return .none
    case .deliver:
      deliver(value)
      return .none
    case .deliverOne:
      let more = deliver(value)
      lock.lock()
      let next = stateAssumingLocked.machine.deliveredOne(returning: more)
      lock.unlock()
      if case .drain = next { drain() }
      return .max(1)
    }
  }

  @inlinable
  func innerCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    guard case .failure = completion else {
      switch withLock({ $0.innerFinished(index, refillsSlots: maxPublishers != .unlimited) }) {
      case .none: return
      case .finish: sendFinished()
      case .requestElement(let upstream): upstream.request(.max(1))
      }
      return
    }
    lock.lock()
    let action = stateAssumingLocked.machine.innerFailed(index)
    var released: ((Input) -> NewPublisher)?
    if case .fail = action { released = transform.take() }
    lock.unlock()
    withExtendedLifetime(released) {}
    switch action {
    case .none:
      return
    case .fail(let others):
      // The inner publisher that failed is not cancelled, and neither is upstream.
      for subscription in others.values { subscription.cancel() }
      deliveryLock.withLock { downstream.receive(completion: completion) }
    }
  }

  // MARK: Downstream

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    let insideDelivery = deliveryLock.isHeldByCurrentThread
    switch withLock({ $0.machine.demandRequested(demand, insideDelivery: insideDelivery) }) {
    case .none:
      return
    case .requestUnlimited(let inners):
      for subscription in inners.values { subscription.request(.unlimited) }
    case .drain:
      drain()
    case .flush(let waiting, let inners):
      deliveryLock.withLock {
        for entry in waiting { _ = downstream.receive(entry.value) }
      }
      for subscription in inners.values { subscription.request(.unlimited) }
      finish(withLock { $0.machine.finishIfDone() })
    }
  }

  @inlinable
  func cancel() {
    lock.lock()
    let action = stateAssumingLocked.cancelled()
    let transform = self.transform.take()
    lock.unlock()
    guard case .cancel(let inners, let upstream, let released) = action else { return }
    // The buffered values and the transform go after the lock, and after the cancels.
    withExtendedLifetime((released, transform)) {
      for subscription in inners.values { subscription.cancel() }
      upstream?.cancel()
    }
  }

  // MARK: Delivery

  /// Hands one value to the subscriber and returns the demand it adds.
  @inlinable
  @discardableResult
  func deliver(_ value: Output) -> Subscribers.Demand {
    let acquired = deliveryLock.enter()
    defer { deliveryLock.exit(acquired) }
    return downstream.receive(value)
  }

  /// Delivers buffered values while there is demand, asking each value's inner publisher
  /// for the next one after it is delivered; then finishes if everything is done.
  @inlinable
  func drain() {
    lock.lock()
    while true {
      switch stateAssumingLocked.machine.nextBuffered() {
      case .deliver(let value):
        lock.unlock()
        let more = deliver(value)
        lock.lock()
        stateAssumingLocked.machine.demandAdded(more)
      case .deliverThenAsk(let value, let source):
        lock.unlock()
        let more = deliver(value)
        lock.lock()
        stateAssumingLocked.machine.askingSource(afterAdding: more)
        lock.unlock()
        source.request(.max(1))
        lock.lock()
        stateAssumingLocked.machine.sourceAsked()
      case .wait:
        lock.unlock()
        return
      case .finish:
        lock.unlock()
        sendFinished()
        return
      }
    }
  }

  /// Carries out a ``FlatMapStateMachine/FinishAction``.
  @inlinable
  func finish(_ action: FlatMapStateMachine<Output>.FinishAction) {
    if case .finish = action { sendFinished() }
  }

  /// Sends `.finished`, which the state machine has allowed exactly once.
  @inlinable
  func sendFinished() {
    deliveryLock.withLock { downstream.receive(completion: .finished) }
  }

  @inlinable
  var description: String { "FlatMap" }
  @inlinable
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  @inlinable
  var playgroundDescription: Any { description }

  /// What each inner publisher is subscribed with: it reports to the subscription under
  /// its index.
  @usableFromInline
  struct Inner: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
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
    func receive(_ input: Input) -> Subscribers.Demand { parent.innerReceived(index, input) }
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.innerCompleted(index, completion)
    }

    @usableFromInline
    var description: String { "FlatMap" }
    /// Combine's one child: the identifier of the subscription it reports to.
    @usableFromInline
    var customMirror: Mirror {
      Mirror(
        self, children: [("parentSubscription", parent.combineIdentifier)],
        ancestorRepresentation: .suppressed)
    }
    @usableFromInline
    var playgroundDescription: Any { description }
  }
}
