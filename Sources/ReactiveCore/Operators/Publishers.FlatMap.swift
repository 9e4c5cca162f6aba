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
/// - Note: Thread-safe. `lock` guards the state; `deliveryLock` keeps calls into the
///   subscriber from overlapping. Neither is held while the subscriber runs, except the
///   delivery lock, which is what it is for.
// Inlinable throughout so that it is specialised for the caller's types.
@usableFromInline
final class FlatMapSubscription<Input, NewPublisher: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where NewPublisher.Output == Downstream.Input, NewPublisher.Failure == Downstream.Failure {
  @usableFromInline
  typealias Failure = Downstream.Failure
  @usableFromInline
  typealias Output = NewPublisher.Output

  /// How the subscription stands with its subscriber.
  @usableFromInline
  enum Phase {
    /// Values flow.
    case running
    /// A completion has been sent: values an inner publisher still sends pass on, as in
    /// Combine (only a misbehaving publisher sends after its own failure).
    case completed
    /// The subscriber cancelled: nothing more reaches it.
    case cancelled
  }

  /// The lock that guards every variable below.
  @usableFromInline
  let lock = Lock()
  /// Held while calling into the subscriber, so deliveries never overlap; a request from
  /// inside one is recognised by this thread holding it.
  @usableFromInline
  let deliveryLock = RecursiveLock()
  @usableFromInline
  @exclusivity(unchecked)
  var phase = Phase.running
  @usableFromInline
  @exclusivity(unchecked)
  var upstream: (any Subscription)?
  @usableFromInline
  @exclusivity(unchecked)
  var upstreamFinished = false
  @usableFromInline
  @exclusivity(unchecked)
  var inners: [Int: any Subscription] = [:]
  /// Inner publishers made but not yet subscribed.
  @usableFromInline
  @exclusivity(unchecked)
  var pendingInners = 0
  @usableFromInline
  @exclusivity(unchecked)
  var nextInner = 0
  @usableFromInline
  @exclusivity(unchecked)
  var demand = Subscribers.Demand.none
  /// Values that found no demand, with the inner publisher each came from, oldest at
  /// `bufferHead`.
  @usableFromInline
  @exclusivity(unchecked)
  var buffer: ContiguousArray<(Int, Output)> = []
  @usableFromInline
  @exclusivity(unchecked)
  var bufferHead = 0
  /// How many drains are asking an inner publisher for more right now; a value that
  /// arrives meanwhile joins the buffer, behind the values already waiting.
  @usableFromInline
  @exclusivity(unchecked)
  var drainsRequesting = 0
  @usableFromInline
  let maxPublishers: Subscribers.Demand
  @usableFromInline
  let transform: (Input) -> NewPublisher
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
  }

  // MARK: Upstream

  @inlinable
  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard upstream == nil, !upstreamFinished, phase == .running else { return false }
      upstream = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(maxPublishers)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ phase == .running }) else { return .none }
    let publisher = transform(input)
    let index = lock.withLock { () -> Int in
      nextInner += 1
      pendingInners += 1
      return nextInner
    }
    publisher.receive(subscriber: Inner(parent: self, index: index))
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    upstream = nil
    upstreamFinished = true
    guard case .failure = completion else {
      unlockThenFinishIfDone()
      return
    }
    let wasRunning = phase == .running
    if wasRunning { phase = .completed }
    // Combine cancels the inner publishers with its lock held; so does this, so that an
    // inner publisher that fails upstream again from its cancel traps here as there.
    let cancelled = inners
    inners = [:]
    for subscription in cancelled.values { subscription.cancel() }
    lock.unlock()
    guard wasRunning else { return }
    deliveryLock.withLock { downstream.receive(completion: completion) }
  }

  // MARK: Inner publishers

  @inlinable
  func innerSubscribed(_ index: Int, _ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      pendingInners -= 1
      guard phase == .running else { return nil }
      inners[index] = subscription
      return self.demand == .unlimited ? .unlimited : .max(1)
    }
    guard let demand else { return subscription.cancel() }
    subscription.request(demand)
  }

  @inlinable
  func innerReceived(_ index: Int, _ value: Output) -> Subscribers.Demand {
    lock.lock()
    if phase == .cancelled {
      lock.unlock()
      return .none
    }
    if demand == .unlimited {
      lock.unlock()
      deliver(value)
      return .none
    }
    if demand == .none || drainsRequesting > 0 {
      buffer.append((index, value))
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = deliver(value)
    lock.lock()
    demand += more
    // A value that found no demand while this one was delivered goes out now, if the
    // subscriber asked for more, rather than waiting for the next request.
    if demand > 0, bufferHead < buffer.count {
      drainThenUnlock()
    } else {
      lock.unlock()
    }
    return .max(1)
  }

  @inlinable
  func innerCompleted(_ index: Int, _ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard case .failure = completion else {
      inners[index] = nil
      guard !unlockThenFinishIfDone(), maxPublishers != .unlimited else { return }
      // A slot is free: one more upstream element may become an inner publisher.
      lock.withLock { upstream }?.request(.max(1))
      return
    }
    guard phase == .running else { return lock.unlock() }
    phase = .completed
    let others = inners.filter { $0.key != index }.map(\.value)
    inners = [:]
    lock.unlock()
    // The inner publisher that failed is not cancelled, and neither is upstream.
    for subscription in others { subscription.cancel() }
    deliveryLock.withLock { downstream.receive(completion: completion) }
  }

  // MARK: Downstream

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "demand must be greater than zero")
    lock.lock()
    guard phase == .running else { return lock.unlock() }
    let wasUnlimited = self.demand == .unlimited
    self.demand += demand
    let becameUnlimited = !wasUnlimited && self.demand == .unlimited
    if deliveryLock.isHeldByCurrentThread {
      // From inside a delivery: the delivery in progress goes on with the new demand.
      let inners = becameUnlimited ? Array(self.inners.values) : []
      lock.unlock()
      for subscription in inners { subscription.request(.unlimited) }
      return
    }
    guard becameUnlimited else { return drainThenUnlock() }
    let waiting = buffer[bufferHead...]
    buffer = []
    bufferHead = 0
    let inners = Array(self.inners.values)
    lock.unlock()
    deliveryLock.withLock {
      for (_, value) in waiting { _ = downstream.receive(value) }
    }
    for subscription in inners { subscription.request(.unlimited) }
    lock.lock()
    unlockThenFinishIfDone()
  }

  @inlinable
  func cancel() {
    let subscriptions = lock.withLock { () -> [any Subscription] in
      // After an inner failure upstream is still subscribed (Combine leaves it): a cancel
      // then lets it go, or a subject upstream would keep this subscription forever.
      guard phase != .cancelled else { return [] }
      phase = .cancelled
      defer {
        inners = [:]
        upstream = nil
        buffer = []
        bufferHead = 0
      }
      return Array(inners.values) + [upstream].compactMap { $0 }
    }
    for subscription in subscriptions { subscription.cancel() }
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
  /// for the next one after it is delivered; then finishes if everything is done. Call
  /// with the lock held; returns with it released.
  @inlinable
  func drainThenUnlock() {
    while demand > 0, bufferHead < buffer.count {
      let (index, value) = buffer[bufferHead]
      bufferHead += 1
      if bufferHead == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        bufferHead = 0
      }
      demand -= 1
      let source = inners[index]
      lock.unlock()
      let more = deliver(value)
      lock.lock()
      demand += more
      guard let source else { continue }
      drainsRequesting += 1
      lock.unlock()
      source.request(.max(1))
      lock.lock()
      drainsRequesting -= 1
    }
    unlockThenFinishIfDone()
  }

  /// Sends `.finished` if upstream and every inner publisher have finished and nothing
  /// waits in the buffer. Call with the lock held; returns with it released.
  ///
  /// - Returns: Whether it finished.
  @inlinable
  @discardableResult
  func unlockThenFinishIfDone() -> Bool {
    guard phase == .running, upstreamFinished, bufferHead == buffer.count, inners.isEmpty,
      pendingInners == 0
    else {
      lock.unlock()
      return false
    }
    phase = .completed
    lock.unlock()
    deliveryLock.withLock { downstream.receive(completion: .finished) }
    return true
  }

  @inlinable
  var description: String { "FlatMap" }
  @inlinable
  var customMirror: Mirror { Mirror(self, children: [:]) }
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
      Mirror(self, children: [("parentSubscription", parent.combineIdentifier)])
    }
    @usableFromInline
    var playgroundDescription: Any { description }
  }
}
