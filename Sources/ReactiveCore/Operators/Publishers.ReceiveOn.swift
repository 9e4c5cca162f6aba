extension Publisher {
  /// Specifies the scheduler on which to receive elements from the publisher.
  ///
  /// `receive(on:)` changes the execution context of downstream messages: the
  /// subscription, every value and the completion reach the subscriber through
  /// `scheduler.schedule(options:_:)`. Requests and cancellation go upstream directly,
  /// on the caller's thread.
  ///
  ///     let scheduler = TestScheduler()
  ///     let cancellable = Just(1).receive(on: scheduler).sink { print($0) }
  ///     scheduler.advance()
  ///     // Prints "1"
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler the publisher uses for element delivery.
  ///   - options: Scheduler options used to customize element delivery.
  /// - Returns: A publisher that delivers elements using the specified scheduler.
  public func receive<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.ReceiveOn<Self, S> {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delivers elements to its downstream subscriber on a specific
  /// scheduler.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The scheduler the publisher is to use for element delivery.
    public let scheduler: Context
    /// Scheduler options used to customize element delivery.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delivers `upstream`'s elements on `scheduler`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - scheduler: The scheduler the publisher is to use for element delivery.
    ///   - options: Scheduler options used to customize element delivery.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber; every downstream message goes through the scheduler.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          ReceiveOnSubscription<Upstream, Context, S>(
            downstream: subscriber, scheduler: scheduler, options: options))
    }
  }
}

/// Re-delivers every downstream message through the scheduler.
///
/// Scheduled work keeps the subscription alive until it runs, and finds `downstream`
/// gone once cancelled, so nothing reaches the subscriber after `cancel()`. Deliveries
/// are serialized by `deliveryLock` even on a concurrent scheduler.
final class ReceiveOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards `status` and `downstream`.
  private let lock = Lock()
  /// Held while calling into `downstream`, so deliveries never overlap.
  private let deliveryLock = RecursiveLock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.scheduler = scheduler
    self.options = options
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard case .awaitingSubscription = status, downstream != nil else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    scheduler.schedule(options: options) { self.deliverSubscription() }
  }

  private func deliverSubscription() {
    guard let target = lock.withLock({ downstream }) else { return }
    deliveryLock.withLock { target.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let live = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      return true
    }
    guard live else { return .none }
    scheduler.schedule(options: options) { self.deliver(input) }
    return .none
  }

  private func deliver(_ input: Input) {
    guard let target = lock.withLock({ downstream }) else { return }
    let more = deliveryLock.withLock { target.receive(input) }
    guard more > 0, let upstream = lock.withLock({ status.subscription }) else { return }
    upstream.request(more)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let live = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      status = .terminal
      return true
    }
    guard live else { return }
    scheduler.schedule(options: options) { self.deliver(completion) }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      defer { downstream = nil }
      return downstream
    }
    guard let target else { return }
    deliveryLock.withLock { target.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        status = .terminal
        downstream = nil
      }
      return status.subscription
    }
    upstream?.cancel()
  }

  var description: String { "ReceiveOn" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
