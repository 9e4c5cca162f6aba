extension Publisher {
  /// Delays delivery of all output to the downstream receiver by a specified amount of
  /// time on a particular scheduler.
  ///
  /// Values and the completion (finished or failed) each reach the subscriber `interval`
  /// after the upstream sent them, in the order they were sent. Requests pass upstream
  /// at once.
  ///
  ///     let scheduler = TestScheduler()
  ///     let cancellable = Just(1).delay(for: .seconds(1), scheduler: scheduler)
  ///         .sink { print($0) }
  ///     scheduler.advance(by: .seconds(1))
  ///     // Prints "1"
  ///
  /// - Parameters:
  ///   - interval: The amount of time to delay.
  ///   - tolerance: The allowed tolerance in firing delayed events; the scheduler's
  ///     minimum tolerance when `nil`.
  ///   - scheduler: The scheduler to deliver the delayed events.
  ///   - options: Options relevant to the scheduler's behavior.
  /// - Returns: A publisher that delays delivery of elements and completion to the
  ///   downstream receiver.
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
      scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delays delivery of elements and completion to the downstream
  /// receiver.
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// The amount of time to delay.
    public let interval: Context.SchedulerTimeType.Stride
    /// The allowed tolerance in delivering delayed events.
    public let tolerance: Context.SchedulerTimeType.Stride
    /// The scheduler to deliver the delayed events.
    public let scheduler: Context
    /// Options relevant to the scheduler's behavior.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that delays `upstream`'s events by `interval`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance in delivering delayed events.
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options relevant to the scheduler's behavior.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber; its values and completion arrive `interval` late.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber: DelaySubscription<Upstream, Context, S>(self, downstream: subscriber))
    }
  }
}

/// Schedules each value and the completion `interval` after it arrives.
///
/// Scheduled work finds `downstream` gone after `cancel()`, so nothing is delivered; it
/// holds only this object, which has by then released the subscriber and the upstream.
final class DelaySubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
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
  private let interval: Context.SchedulerTimeType.Stride
  private let tolerance: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(_ publisher: Publishers.Delay<Upstream, Context>, downstream: Downstream) {
    self.downstream = downstream
    interval = publisher.interval
    tolerance = publisher.tolerance
    scheduler = publisher.scheduler
    options = publisher.options
  }

  private func later(_ action: @escaping () -> Void) {
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
  }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    deliveryLock.withLock { target.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let live = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      return true
    }
    if live { later { self.deliver(input) } }
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
    if live { later { self.deliver(completion) } }
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

  var description: String { "Delay" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
