extension Publisher {
  /// Specifies the scheduler on which to perform subscribe, cancel, and request
  /// operations.
  ///
  /// In contrast with ``Publisher/receive(on:options:)``, which affects downstream
  /// messages, `subscribe(on:options:)` changes the execution context of upstream
  /// messages: subscribing to the upstream, each request and the cancellation run
  /// through `scheduler.schedule(options:_:)`. Values and the completion pass straight
  /// through, on whatever thread the upstream uses.
  ///
  ///     let scheduler = TestScheduler()
  ///     let cancellable = Just(1).subscribe(on: scheduler).sink { print($0) }
  ///     scheduler.advance()
  ///     // Prints "1"
  ///
  /// - Parameters:
  ///   - scheduler: The scheduler used to send messages to upstream publishers.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher which performs upstream operations on the specified
  ///   scheduler.
  public func subscribe<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.SubscribeOn<Self, S> {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that receives elements from an upstream publisher on a specific
  /// scheduler.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The scheduler the publisher should use to receive elements.
    public let scheduler: Context
    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that subscribes to `upstream` on `scheduler`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - scheduler: The scheduler the publisher should use to receive elements.
    ///   - options: Scheduler options that customize the delivery of elements.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber: the upstream subscription happens on the scheduler.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      let inner = SubscribeOnSubscription<Upstream, Context, S>(
        downstream: subscriber, scheduler: scheduler, options: options)
      let upstream = upstream
      scheduler.schedule(options: options) { upstream.receive(subscriber: inner) }
    }
  }
}

/// Passes values and completion straight down; sends requests and cancellation upstream
/// through the scheduler, one at a time (`upstreamLock`).
final class SubscribeOnSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards `status` and `downstream`.
  private let lock = Lock()
  /// Held while calling the upstream subscription from the scheduler.
  private let upstreamLock = RecursiveLock()
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
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    target.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard
      let target = lock.withLock({ () -> Downstream? in
        guard case .subscribed = status else { return nil }
        return downstream
      })
    else { return .none }
    return target.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      status = .terminal
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    guard let upstream = lock.withLock({ status.subscription }) else { return }
    scheduler.schedule(options: options) {
      self.upstreamLock.withLock { upstream.request(demand) }
    }
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        status = .terminal
        downstream = nil
      }
      return status.subscription
    }
    guard let upstream else { return }
    scheduler.schedule(options: options) {
      self.upstreamLock.withLock { upstream.cancel() }
    }
  }

  var description: String { "SubscribeOn" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
