extension Publisher {
  /// Attempts to recreate a failed subscription with the upstream publisher up to the
  /// number of times you specify.
  ///
  ///     let cancellable = flaky.retry(3).sink(receiveCompletion: { print($0) }) { print($0) }
  ///
  /// Outstanding demand carries over to each new subscription.
  ///
  /// - Parameter retries: The number of times to attempt to recreate the subscription.
  /// - Returns: A publisher that attempts to recreate its subscription to a failed
  ///   upstream publisher.
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}

extension Publishers {
  /// A publisher that attempts to recreate its subscription to a failed upstream
  /// publisher.
  public struct Retry<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum number of retry attempts to perform; `nil` retries without limit.
    public let retries: Int?

    /// Creates a publisher that attempts to recreate its subscription to a failed
    /// upstream publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives its elements.
    ///   - retries: The maximum number of retry attempts to perform. If `nil`, this
    ///     publisher attempts to reconnect with the upstream publisher an unlimited number
    ///     of times.
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    /// Attaches the subscriber; a failure resubscribes while attempts remain.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(subscriber: RetrySubscription(parent: self, downstream: subscriber))
    }
  }
}

/// The subscription of `retry(_:)`, in Combine's shape: on each failure while chances
/// remain it subscribes to the upstream again, carrying the outstanding demand; the
/// downstream sees one subscription throughout. A failure arriving while the upstream is
/// being subscribed again (a publisher that fails at once) is retried after that
/// subscription returns, not by recursion, so `retry(.max)` of a failing `Fail` does not
/// grow the stack.
///
/// - Note: Thread-safe. ``Guarded/lock`` guards the ``RetryState``, which
///   decides; this class carries out its actions once unlocked, so no upstream or
///   downstream code runs while the lock is held.
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>:
  Guarded<RetryState<Upstream, Downstream>>, Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  init(parent: Publishers.Retry<Upstream>, downstream: Downstream) {
    super.init(
      state: RetryState(upstream: parent.upstream, retries: parent.retries, downstream: downstream))
  }

  func receive(subscription: any Subscription) {
    switch withLock({ $0.subscribed(subscription) }) {
    case .cancel:
      subscription.cancel()
    case .start(let downstream, let demand):
      downstream.receive(subscription: self)
      if demand != .none { subscription.request(demand) }
    case .resume(let demand):
      if demand != .none { subscription.request(demand) }
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .deliver = stateAssumingLocked.machine.valueArrived(),
      let downstream = stateAssumingLocked.downstream
    else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    let more = downstream.receive(input)
    guard more != .none else { return .none }
    withLock { $0.machine.demandAdded(more) }?.request(more)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let failed = if case .failure = completion { true } else { false }
    switch withLock({ $0.completed(failed: failed) }) {
    case .ignore:
      return
    case .complete(let downstream):
      downstream.receive(completion: completion)
    case .resubscribe(let publisher):
      // A failure during the subscription is retried here, once it returns, so that
      // retrying a publisher that fails at once does not grow the stack.
      repeat {
        publisher.receive(subscriber: self)
      } while withLock({ $0.machine.resubscribed() }) == .again
    }
  }

  func request(_ demand: Subscribers.Demand) {
    withLock { $0.machine.demandRequested(demand) }?.request(demand)
  }

  func cancel() {
    switch withLock({ $0.cancelled() }) {
    case .cancel(let attempt, let released):
      withExtendedLifetime(released) { attempt?.cancel() }
    }
  }

  var description: String { "Retry" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}
