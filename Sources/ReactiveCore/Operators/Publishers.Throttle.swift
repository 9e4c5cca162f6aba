extension Publisher {
  /// Publishes either the most-recent or first element published by the upstream
  /// publisher in the specified time interval.
  ///
  /// The first value is published on the scheduler at once; after each emission, the
  /// next one waits until `interval` has passed. Values arriving while one is waiting
  /// replace it when `latest` is `true`, and are dropped when it is `false`. Values that
  /// arrive while the subscriber has no demand are dropped. A completion waits for a
  /// pending value and is delivered right after it.
  ///
  ///     let scheduler = TestScheduler()
  ///     let subject = PassthroughSubject<Int, Never>()
  ///     let cancellable = subject
  ///         .throttle(for: .seconds(1), scheduler: scheduler, latest: true)
  ///         .sink { print($0) }
  ///     subject.send(1)
  ///     scheduler.advance()
  ///     subject.send(2)
  ///     subject.send(3)
  ///     scheduler.advance(by: .seconds(1))
  ///     // Prints "1", "3"
  ///
  /// - Parameters:
  ///   - interval: The interval at which to find and emit either the most recent or the
  ///     first element, expressed in the time system of the scheduler.
  ///   - scheduler: The scheduler on which to publish elements.
  ///   - latest: A Boolean value that indicates whether to publish the most recent
  ///     element. If `false`, the publisher emits the first element received during the
  ///     interval.
  /// - Returns: A publisher that emits either the most-recent or first element received
  ///   during the specified interval.
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> Publishers.Throttle<Self, S> {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}

extension Publishers {
  /// A publisher that publishes either the most-recent or first element published by the
  /// upstream publisher in a specified time interval.
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The interval in which to find and emit the most recent element.
    public let interval: Context.SchedulerTimeType.Stride
    /// The scheduler on which to publish elements.
    public let scheduler: Context
    /// A Boolean value indicating whether to publish the most recent element; if
    /// `false`, the publisher emits the first element received during the interval.
    public let latest: Bool

    /// Creates a publisher that throttles `upstream` to one element per `interval`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - interval: The interval in which to find and emit an element.
    ///   - scheduler: The scheduler on which to publish elements.
    ///   - latest: Whether to publish the most recent element rather than the first.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      latest: Bool
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    /// Attaches the subscriber.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber: ThrottleSubscription<Upstream, Context, S>(self, downstream: subscriber))
    }
  }
}

/// Holds at most one scheduled emission (a value, a completion, or a value then the
/// completion) and the time of the last emitted value, in a ``ThrottleStateMachine``,
/// the machine of its ``TimingState``.
///
/// It reads the scheduler's clock as Combine's does, which a recording scheduler can see:
/// when created, when subscribed, for each value and completion that arrives while
/// subscribed, and when it emits a value alone. The scheduled emission holds the
/// subscription weakly, and the subscriber is let go once the subscription ends.
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  TimingSubscription<Downstream, ThrottleStateMachine<Upstream.Output, Upstream.Failure, Context>>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let scheduler: Context

  init(_ publisher: Publishers.Throttle<Upstream, Context>, downstream: Downstream) {
    scheduler = publisher.scheduler
    // Combine reads the clock here and again on subscription; nothing depends on either
    // reading, but a scheduler sees both.
    _ = scheduler.now
    super.init(
      downstream: downstream,
      machine: ThrottleStateMachine(interval: publisher.interval, latest: publisher.latest))
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    _ = scheduler.now
    subscription.request(.unlimited)
    deliver(subscription: self)
  }

  /// Schedules `input` if nothing is scheduled (at once, or when `interval` has passed
  /// since the last emission), replaces the scheduled value when `latest` is `true`, and
  /// drops it otherwise or when the subscriber has no demand.
  func receive(_ input: Input) -> Subscribers.Demand {
    guard isSubscribed else { return .none }
    let now = scheduler.now
    guard let action = rulesIfSubscribed({ machine, _ in machine.valueArrived(input, now: now) })
    else {
      return .none
    }
    switch action {
    case .drop: break
    case .release(let replaced): withExtendedLifetime(replaced) {}
    case .scheduleNow: scheduler.schedule { [weak self] in self?.emit() }
    case .schedule(let due): scheduler.schedule(after: due) { [weak self] in self?.emit() }
    }
    return .none
  }

  /// Schedules the completion at once, or lets it follow the value already scheduled.
  func receive(completion: Subscribers.Completion<Failure>) {
    guard isSubscribed else { return }
    _ = scheduler.now
    guard let action = holdCompletionOfRules({ $0.completionArrived(completion) }) else { return }
    switch action {
    case .scheduleNow: scheduler.schedule { [weak self] in self?.emit() }
    case .followValue: break
    }
  }

  /// Delivers what is scheduled: a value, the completion, or a value then the completion.
  private func emit() {
    lock.lock()
    guard stateAssumingLocked.subscription != nil else {
      lock.unlock()
      return
    }
    let readsClock = stateAssumingLocked.machine.rules.emitsValueAlone
    lock.unlock()
    let now = readsClock ? scheduler.now : nil
    lock.lock()
    guard stateAssumingLocked.subscription != nil,
      let target = stateAssumingLocked.machine.downstream
    else {
      lock.unlock()
      return
    }
    let emission = stateAssumingLocked.machine.rules.emit(now: now)
    // The subscriber is let go here; `target` keeps it until the delivery is over.
    if emission.completes { _ = stateAssumingLocked.endLettingGo() }
    lock.unlock()
    let more: Subscribers.Demand
    switch emission {
    case .nothing:
      return
    case .value(let value):
      more = deliver(value, to: target)
    case .completion(let completion):
      return deliver(completion, to: target)
    case .valueThenCompletion(let value, let completion):
      // One delivery, so that no other can come between the value and the completion.
      return deliveryLock.withLock {
        _ = target.receive(value)
        target.receive(completion: completion)
      }
    }
    guard more != .none else { return }
    lock.lock()
    stateAssumingLocked.machine.rules.demandAdded(more)
    lock.unlock()
  }

  func request(_ additional: Subscribers.Demand) {
    guard additional > .none else { return }
    _ = rulesIfSubscribed { machine, _ in machine.demandAdded(additional) }
  }

  /// Cancels the upstream, whether or not a completion is pending, and lets go of the
  /// subscriber. Cancelling before the upstream subscription arrives makes the
  /// subscription cancel it when it comes, as in Combine.
  func cancel() {
    lock.lock()
    let upstream = stateAssumingLocked.subscription
    let subscriber = stateAssumingLocked.endLettingGo()
    let discarded = stateAssumingLocked.machine.rules.cancelled()
    lock.unlock()
    upstream?.cancel()
    // Released here, not under the lock: a subscriber's or a value's `deinit` may run
    // any code.
    withExtendedLifetime(subscriber) {}
    withExtendedLifetime(discarded) {}
  }

  var description: String { "Throttle" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
