import ReactiveCore

extension Publisher {
  /// Resubscribes to this publisher after a failure when the publisher that
  /// `notificationHandler` builds from the failures sends a value; finishes when that
  /// publisher finishes, and fails when it fails with this publisher's failure type.
  ///
  ///     let resilient = fetch.retryWhen { failures in
  ///         failures.delay(for: .seconds(1), scheduler: queue)  // retry a second later
  ///     }
  ///
  /// A trigger failure of another type finishes the stream: there is no failure of this
  /// publisher's type to send.
  ///
  /// - Parameter notificationHandler: Builds the trigger from the publisher of failures.
  /// - Returns: A publisher that retries as the trigger says.
  public func retryWhen<Trigger: Publisher>(
    _ notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> Trigger
  ) -> Publishers.RetryWhen<Self, Trigger, Output, Failure> {
    Publishers.RetryWhen(upstream: self, notificationHandler: notificationHandler)
  }

  /// Resubscribes after a failure when the trigger built from the failures sends a value;
  /// the same as ``retryWhen(_:)``.
  ///
  /// - Parameter notificationHandler: Builds the trigger from the publisher of failures.
  /// - Returns: A publisher that retries as the trigger says.
  public func retry<Trigger: Publisher>(
    when notificationHandler: @escaping (AnyPublisher<Failure, Never>) -> Trigger
  ) -> Publishers.RetryWhen<Self, Trigger, Output, Failure> {
    retryWhen(notificationHandler)
  }
}

extension Publishers {
  /// A publisher that resubscribes to its upstream after a failure when a trigger says so.
  public struct RetryWhen<Upstream: Publisher, Trigger: Publisher, Output, Failure>: Publisher
  where Upstream.Output == Output, Upstream.Failure == Failure {
    /// Builds the trigger from the publisher of failures.
    public typealias Handler = (AnyPublisher<Failure, Never>) -> Trigger

    /// The publisher to retry.
    public let upstream: Upstream
    private let handler: Handler

    /// Creates the publisher.
    ///
    /// - Parameters:
    ///   - upstream: The publisher to retry.
    ///   - notificationHandler: Builds the trigger from the publisher of failures.
    public init(upstream: Upstream, notificationHandler: @escaping Handler) {
      self.upstream = upstream
      handler = notificationHandler
    }

    /// Attaches the subscriber, builds its trigger and makes the first attempt.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = RetryWhenSubscription<Upstream, Trigger, S>(
        upstream: upstream, downstream: subscriber)
      subscriber.receive(subscription: subscription)
      subscription.start(handler)
    }
  }
}

/// One subscriber's attempts: demand not yet met carries over to each new attempt, and
/// events of an attempt that has been replaced are ignored.
///
/// - Note: Thread-safe. Its box's lock guards the state; `deliveryLock` keeps deliveries from
///   overlapping, since the trigger may end the stream from its own thread.
private final class RetryWhenSubscription<
  Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber
>: Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Failure = Upstream.Failure

  /// Everything about the operator that changes; guarded by its box's lock.
  private struct State {
    /// The number of the latest attempt; events of older attempts are ignored.
    var attempt = 0
    /// The latest attempt's subscription, once it arrives.
    var current: (any Subscription)?
    /// Demand downstream asked for and has not received yet, across attempts.
    var outstanding = Subscribers.Demand.none
    /// Whether the stream has ended.
    var isTerminal = false
    /// The subscription to the trigger publisher, until the end.
    var trigger: AnyCancellable?
  }

  /// The operator's state behind its lock.
  private let state = LockedBox(State())
  private let deliveryLock = RecursiveLock()
  private let failures = PassthroughSubject<Failure, Never>()
  private let upstream: Upstream
  private let downstream: Downstream

  init(upstream: Upstream, downstream: Downstream) {
    self.upstream = upstream
    self.downstream = downstream
  }

  func start(_ handler: (AnyPublisher<Failure, Never>) -> Trigger) {
    let trigger = handler(failures.eraseToAnyPublisher()).sink(
      receiveCompletion: { [weak self] completion in
        switch completion {
        case .finished: self?.end(.finished)
        case .failure(let error):
          self?.end((error as? Failure).map { .failure($0) } ?? .finished)
        }
      },
      receiveValue: { [weak self] _ in self?.subscribeAgain() })
    let keep = state.withLock { state -> Bool in
      if state.isTerminal { return false }
      state.trigger = trigger
      return true
    }
    if !keep { trigger.cancel() }
    subscribeAgain()
  }

  /// Makes a new attempt, unless the stream has ended.
  private func subscribeAgain() {
    let number = state.withLock { state -> Int? in
      guard !state.isTerminal else { return nil }
      state.attempt += 1
      state.current = nil
      return state.attempt
    }
    guard let number else { return }
    upstream.subscribe(Attempt(parent: self, number: number))
  }

  fileprivate func attemptSubscribed(_ number: Int, _ subscription: any Subscription) {
    let demand = state.withLock { state -> Subscribers.Demand? in
      guard number == state.attempt, !state.isTerminal, state.current == nil else { return nil }
      state.current = subscription
      return state.outstanding
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  fileprivate func attemptReceived(_ number: Int, _ value: Downstream.Input) -> Subscribers.Demand {
    let live = state.withLock { state -> Bool in
      guard number == state.attempt, !state.isTerminal else { return false }
      if state.outstanding != .unlimited, state.outstanding > 0 { state.outstanding -= 1 }
      return true
    }
    guard live else { return .none }
    let more = deliveryLock.withLock { downstream.receive(value) }
    if more > 0 { state.withLock { $0.outstanding += more } }
    return more
  }

  fileprivate func attemptCompleted(_ number: Int, _ completion: Subscribers.Completion<Failure>) {
    guard state.withLock({ number == $0.attempt && !$0.isTerminal }) else { return }
    switch completion {
    case .finished: end(.finished)
    case .failure(let error):
      state.withLock { $0.current = nil }
      failures.send(error)
    }
  }

  /// Ends the stream once: cancels the current attempt and the trigger.
  private func end(_ completion: Subscribers.Completion<Failure>) {
    guard case .ends(let attempt, let trigger) = tearDown() else { return }
    attempt?.cancel()
    trigger?.cancel()
    deliveryLock.withLock { downstream.receive(completion: completion) }
  }

  /// What ending the stream finds.
  private enum Teardown {
    /// It had ended before.
    case alreadyEnded
    /// It ends now; these are left to cancel outside the lock.
    case ends(attempt: (any Subscription)?, trigger: AnyCancellable?)
  }

  /// Marks the stream ended and hands back what is left to cancel.
  private func tearDown() -> Teardown {
    state.withLock { state in
      guard !state.isTerminal else { return .alreadyEnded }
      state.isTerminal = true
      defer {
        state.current = nil
        state.trigger = nil
      }
      return .ends(attempt: state.current, trigger: state.trigger)
    }
  }

  func request(_ demand: Subscribers.Demand) {
    // A request of nothing changes nothing, as in CombineExt's demand buffer.
    guard demand > 0 else { return }
    let current = state.withLock { state -> (any Subscription)? in
      state.outstanding += demand
      return state.current
    }
    current?.request(demand)
  }

  func cancel() {
    guard case .ends(let attempt, let trigger) = tearDown() else { return }
    attempt?.cancel()
    trigger?.cancel()
  }

  var description: String { "RetryWhen" }

  /// What each attempt subscribes with.
  struct Attempt: Subscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure
    let parent: RetryWhenSubscription
    let number: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
      parent.attemptSubscribed(number, subscription)
    }
    func receive(_ input: Input) -> Subscribers.Demand { parent.attemptReceived(number, input) }
    func receive(completion: Subscribers.Completion<Failure>) {
      parent.attemptCompleted(number, completion)
    }
  }
}
