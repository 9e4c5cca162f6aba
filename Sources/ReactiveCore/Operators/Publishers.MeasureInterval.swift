extension Publisher {
  /// Measures and emits the time interval between events received from an upstream
  /// publisher.
  ///
  /// The first interval is measured from the subscription. Demand passes through
  /// unchanged: the subscriber's requests, and the demand it returns for a value, which
  /// goes upstream as a request (as in Combine). The upstream completion passes through
  /// at once.
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
///
/// Built on ``TimingSubscription`` for its status and subscriber, which it never lets go
/// of; events pass straight through, so calls into the subscriber do not take
/// ``TimingSubscription/deliveryLock``. The clock is read only while subscribed, and the
/// subscription keeps its subscriber for as long as it lives, as Combine's does (see
/// ``TimingSubscription``).
final class MeasureIntervalSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: TimingSubscription<Downstream, Context.SchedulerTimeType?>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let scheduler: Context

  /// Starts with no previous event; the machine is the time the previous event (the
  /// subscription, then each value) arrived, and `nil` once the subscription ends.
  init(downstream: Downstream, scheduler: Context) {
    self.scheduler = scheduler
    super.init(downstream: downstream, machine: nil)
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    let now = scheduler.now
    lock.lock()
    if stateAssumingLocked.isSubscribed, stateAssumingLocked.machine.rules == nil {
      stateAssumingLocked.machine.rules = now
    }
    let target = stateAssumingLocked.machine.downstream
    lock.unlock()
    target?.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard isSubscribed else { return .none }
    let now = scheduler.now
    lock.lock()
    guard case .subscribed(let upstream) = stateAssumingLocked.status,
      let previous = stateAssumingLocked.machine.rules,
      let target = stateAssumingLocked.machine.downstream
    else {
      lock.unlock()
      return .none
    }
    stateAssumingLocked.machine.rules = now
    lock.unlock()
    let demand = target.receive(previous.distance(to: now))
    if demand != .none { upstream.request(demand) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard stop() != nil else { return }
    currentDownstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) { requestUpstream(demand) }

  func cancel() { stop()?.cancel() }

  /// Ends the subscription, if subscribed, forgetting the last event's time.
  ///
  /// - Returns: The upstream subscription, if it was subscribed.
  private func stop() -> (any Subscription)? {
    endSubscribed { last in
      last = nil
      return nil
    }
  }

  var description: String { "MeasureInterval" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
