extension Publisher {
  /// Specifies the scheduler on which to receive elements from the publisher.
  ///
  /// `receive(on:)` changes the execution context of downstream messages: every value
  /// and the completion reach the subscriber through `scheduler.schedule(options:_:)`.
  /// The subscription itself is handed over at once, and requests and cancellation go
  /// upstream directly, on the caller's thread, as in Combine. Once the upstream has
  /// completed, the completion is delivered even if the subscriber cancels meanwhile.
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

    /// Attaches the subscriber; values and the completion go through the scheduler.
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

/// Re-delivers each value and the completion through `scheduler.schedule(options:_:)`.
///
/// The scheduled work holds the subscription strongly, as Combine's does: a value
/// scheduled before `cancel()` is then dropped, and a completion scheduled before it is
/// still delivered (see ``TimingSubscription``).
final class ReceiveOnSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  TimingSubscription<Downstream, NoTimingMachine>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.scheduler = scheduler
    self.options = options
    super.init(downstream: downstream, machine: NoTimingMachine())
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    deliver(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    relay(input) { scheduler.schedule(options: options, $0) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    relay(completion) { scheduler.schedule(options: options, $0) }
  }

  func request(_ demand: Subscribers.Demand) { requestUpstream(demand) }

  func cancel() { endSubscribed()?.cancel() }

  var description: String { "ReceiveOn" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
