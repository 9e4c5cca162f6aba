extension Publisher {
  /// Delays delivery of all output to the downstream receiver by a specified amount of
  /// time on a particular scheduler.
  ///
  /// Values and the completion (finished or failed) each reach the subscriber `interval`
  /// after the upstream sent them, in the order they were sent. The subscription is
  /// handed over at once, and requests pass upstream at once. Once the upstream has
  /// completed, the completion is delivered even if the subscriber cancels meanwhile, as
  /// in Combine.
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
/// The scheduled work holds the subscription strongly, as Combine's does (see
/// ``TimingSubscription``). Like Combine's, it does not describe itself: no custom
/// description, mirror or playground description.
final class DelaySubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  TimingSubscription<Downstream, NoTimingMachine>, Subscriber, Subscription, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let interval: Context.SchedulerTimeType.Stride
  private let tolerance: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(_ publisher: Publishers.Delay<Upstream, Context>, downstream: Downstream) {
    interval = publisher.interval
    tolerance = publisher.tolerance
    scheduler = publisher.scheduler
    options = publisher.options
    super.init(downstream: downstream, machine: NoTimingMachine())
  }

  /// Schedules `work` for `interval` from now.
  private func later(_ work: @escaping () -> Void) {
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, work)
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    deliver(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand { relay(input, through: later) }

  func receive(completion: Subscribers.Completion<Failure>) { relay(completion, through: later) }

  func request(_ demand: Subscribers.Demand) { requestUpstream(demand) }

  func cancel() { endSubscribed()?.cancel() }
}
