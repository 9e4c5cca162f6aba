extension Publisher {
  /// Measures and emits the time interval between events received from an upstream
  /// publisher.
  ///
  /// The first interval is measured from the subscription. Demand passes through
  /// unchanged; the upstream completion passes through at once.
  ///
  ///     let scheduler = TestScheduler()
  ///     let subject = PassthroughSubject<Void, Never>()
  ///     let cancellable = subject.measureInterval(using: scheduler).sink { print($0) }
  ///     scheduler.advance(by: .milliseconds(1_500))
  ///     subject.send()
  ///     // Prints "1.5s"
  ///
  /// - Parameters:
  ///   - scheduler: A scheduler to use for tracking the timing of events.
  ///   - options: Options that customize the delivery of elements.
  /// - Returns: A publisher that emits elements representing the time interval between
  ///   the elements it receives.
  public func measureInterval<S: Scheduler>(
    using scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.MeasureInterval<Self, S> {
    Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
  }
}

extension Publishers {
  /// A publisher that measures and emits the time interval between events received from
  /// an upstream publisher.
  public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher: the time since the previous
    /// event.
    public typealias Output = Context.SchedulerTimeType.Stride
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The scheduler used for tracking the timing of events.
    public let scheduler: Context

    /// Creates a publisher that measures the intervals between `upstream`'s events.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - scheduler: The scheduler used for tracking the timing of events.
    public init(upstream: Upstream, scheduler: Context) {
      self.upstream = upstream
      self.scheduler = scheduler
    }

    /// Attaches the subscriber.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          MeasureIntervalSubscription<Upstream, Context, S>(
            downstream: subscriber, scheduler: scheduler))
    }
  }
}

/// Replaces each value with the time since the previous event, read from the scheduler.
final class MeasureIntervalSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards `status`, `downstream` and `last`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var last: Context.SchedulerTimeType?
  private let scheduler: Context

  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  func receive(subscription: any Subscription) {
    let now = scheduler.now
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      last = now
      return downstream
    }
    guard let target else { return subscription.cancel() }
    target.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    let taken = lock.withLock { () -> (Downstream, Context.SchedulerTimeType)? in
      guard case .subscribed = status, let downstream, let previous = last else { return nil }
      last = now
      return (downstream, previous)
    }
    guard let (target, previous) = taken else { return .none }
    return target.receive(previous.distance(to: now))
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      guard case .subscribed = status else { return nil }
      status = .terminal
      last = nil
      defer { downstream = nil }
      return downstream
    }
    target?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        status = .terminal
        downstream = nil
        last = nil
      }
      return status.subscription
    }
    upstream?.cancel()
  }

  var description: String { "MeasureInterval" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
