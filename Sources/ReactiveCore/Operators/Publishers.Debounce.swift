extension Publisher {
  /// Publishes elements only after a specified time interval elapses between events.
  ///
  /// Each value starts a timer of `dueTime`; a newer value replaces it and restarts the
  /// timer. When the timer fires, the latest value is delivered on the scheduler if the
  /// subscriber has demand, and dropped otherwise. The operator requests an unlimited
  /// number of values from the upstream.
  ///
  /// When the upstream completes, a value still waiting is dropped (as in Combine) and
  /// the completion is delivered on the scheduler.
  ///
  ///     let scheduler = TestScheduler()
  ///     let subject = PassthroughSubject<Int, Never>()
  ///     let cancellable = subject.debounce(for: .seconds(1), scheduler: scheduler)
  ///         .sink { print($0) }
  ///     subject.send(1)
  ///     scheduler.advance(by: .milliseconds(500))
  ///     subject.send(2)
  ///     scheduler.advance(by: .seconds(1))
  ///     // Prints "2"
  ///
  /// - Parameters:
  ///   - dueTime: The time the publisher should wait before publishing an element.
  ///   - scheduler: The scheduler on which this publisher delivers elements.
  ///   - options: Scheduler options that customize this publisher's delivery of
  ///     elements.
  /// - Returns: A publisher that publishes events only after a specified time elapses.
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that publishes elements only after a specified time interval elapses
  /// between events.
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The amount of time the publisher should wait before publishing an element.
    public let dueTime: Context.SchedulerTimeType.Stride
    /// The scheduler on which this publisher delivers elements.
    public let scheduler: Context
    /// Scheduler options that customize this publisher's delivery of elements.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that publishes `upstream`'s elements only after `dueTime`
    /// passes without a newer one.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - dueTime: The amount of time the publisher should wait before publishing.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Scheduler options that customize this publisher's delivery.
    public init(
      upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches the subscriber.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber: DebounceSubscription<Upstream, Context, S>(self, downstream: subscriber))
    }
  }
}

/// Holds the latest value and the timer that will publish it.
///
/// The timer is scheduled as repeating work so it can be cancelled (Combine does the
/// same): a newer value, the completion and `cancel()` each cancel it, which removes the
/// work and its closure from the scheduler.
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards every `var`.
  private let lock = Lock()
  /// Held while calling into `downstream`, so deliveries never overlap.
  private let deliveryLock = RecursiveLock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var latest: Input?
  @exclusivity(unchecked)
  private var generation = 0
  @exclusivity(unchecked)
  private var timer: (any Cancellable)?
  private let dueTime: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(_ publisher: Publishers.Debounce<Upstream, Context>, downstream: Downstream) {
    self.downstream = downstream
    dueTime = publisher.dueTime
    scheduler = publisher.scheduler
    options = publisher.options
  }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    deliveryLock.withLock { target.receive(subscription: self) }
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let current = lock.withLock { () -> Int? in
      guard case .subscribed = status else { return nil }
      generation += 1
      latest = input
      return generation
    }
    guard let current else { return .none }
    let newTimer = scheduler.schedule(
      after: scheduler.now.advanced(by: dueTime), interval: dueTime,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in self?.fire(current) }
    let stale = lock.withLock { () -> (any Cancellable)? in
      guard case .subscribed = status, generation == current else { return newTimer }
      defer { timer = newTimer }
      return timer
    }
    stale?.cancel()
    return .none
  }

  private func fire(_ firing: Int) {
    let taken = lock.withLock { () -> (Downstream, Input?, (any Cancellable)?)? in
      guard case .subscribed = status, generation == firing, let downstream else { return nil }
      defer {
        latest = nil
        timer = nil
      }
      guard demand > 0 else { return (downstream, nil, timer) }
      demand -= 1
      return (downstream, latest, timer)
    }
    guard let (target, value, firedTimer) = taken else { return }
    firedTimer?.cancel()
    guard let value else { return }
    let more = deliveryLock.withLock { target.receive(value) }
    if more > 0 { lock.withLock { demand += more } }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let pendingTimer = lock.withLock { () -> (any Cancellable)?? in
      guard case .subscribed = status else { return .none }
      status = .terminal
      latest = nil
      defer { timer = nil }
      return .some(timer)
    }
    guard case .some(let pendingTimer) = pendingTimer else { return }
    pendingTimer?.cancel()
    // Combine schedules the completion without the operator's options.
    scheduler.schedule(options: nil) {
      let target = self.lock.withLock { () -> Downstream? in
        defer { self.downstream = nil }
        return self.downstream
      }
      guard let target else { return }
      self.deliveryLock.withLock { target.receive(completion: completion) }
    }
  }

  func request(_ additional: Subscribers.Demand) {
    lock.withLock { if downstream != nil { demand += additional } }
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminal
        downstream = nil
        latest = nil
        timer = nil
      }
      return (status.subscription, timer)
    }
    taken.1?.cancel()
    taken.0?.cancel()
  }

  var description: String { "Debounce" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
