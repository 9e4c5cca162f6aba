extension Publisher {
  /// Terminates publishing if the upstream publisher exceeds the specified time interval
  /// without producing an element.
  ///
  /// The clock starts at subscription and restarts with every value. Values and the
  /// upstream completion are delivered on the scheduler. If `interval` passes without a
  /// value, the publisher cancels the upstream and fails with `customError()`, or
  /// finishes normally when `customError` is `nil`.
  ///
  ///     let scheduler = TestScheduler()
  ///     let subject = PassthroughSubject<Int, Never>()
  ///     let cancellable = subject.timeout(.seconds(1), scheduler: scheduler)
  ///         .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  ///     scheduler.advance(by: .seconds(1))
  ///     // Prints "finished"
  ///
  /// - Parameters:
  ///   - interval: The maximum time interval the publisher can go without emitting an
  ///     element, expressed in the time system of the scheduler.
  ///   - scheduler: The scheduler to deliver events on.
  ///   - options: Scheduler options that customize the delivery of elements.
  ///   - customError: A closure that executes if the publisher times out. The publisher
  ///     sends the failure returned by this closure to the subscriber as the reason for
  ///     termination.
  /// - Returns: A publisher that terminates if the specified interval elapses with no
  ///   events received from the upstream publisher.
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self, interval: interval, scheduler: scheduler, options: options,
      customError: customError)
  }
}

extension Publishers {
  /// A publisher that terminates if the upstream does not produce an element within a
  /// specified time interval.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream
    /// The maximum time interval the publisher can go without emitting an element.
    public let interval: Context.SchedulerTimeType.Stride
    /// The scheduler on which to deliver events.
    public let scheduler: Context
    /// Scheduler options that customize the delivery of elements.
    public let options: Context.SchedulerOptions?
    /// A closure that produces the failure to send if the publisher times out; `nil`
    /// means finish normally.
    public let customError: (() -> Upstream.Failure)?

    /// Creates a publisher that terminates if `upstream` is silent for `interval`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - interval: The maximum time interval without an element.
    ///   - scheduler: The scheduler on which to deliver events.
    ///   - options: Scheduler options that customize the delivery of elements.
    ///   - customError: The failure to send on timeout; `nil` finishes normally.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    /// Attaches the subscriber.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber: TimeoutSubscription<Upstream, Context, S>(self, downstream: subscriber))
    }
  }
}

/// Restarts a cancellable timer on each value and re-delivers events on the scheduler.
///
/// Each timer carries its generation, so a timer cancelled while already firing on
/// another thread is ignored.
final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
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
  private var customError: (() -> Failure)?
  @exclusivity(unchecked)
  private var generation = 0
  @exclusivity(unchecked)
  private var timer: (any Cancellable)?
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(_ publisher: Publishers.Timeout<Upstream, Context>, downstream: Downstream) {
    self.downstream = downstream
    customError = publisher.customError
    interval = publisher.interval
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
    restartTimer()
    deliveryLock.withLock { target.receive(subscription: self) }
  }

  /// Starts a new timer generation and cancels the previous timer.
  private func restartTimer() {
    let current = lock.withLock { () -> Int in
      generation += 1
      return generation
    }
    let newTimer = scheduler.schedule(
      after: scheduler.now.advanced(by: interval), interval: interval,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in self?.timedOut(current) }
    let stale = lock.withLock { () -> (any Cancellable)? in
      guard case .subscribed = status, generation == current else { return newTimer }
      defer { timer = newTimer }
      return timer
    }
    stale?.cancel()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let live = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      return true
    }
    guard live else { return .none }
    restartTimer()
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
    let taken = lock.withLock { () -> (any Cancellable)?? in
      guard case .subscribed = status else { return .none }
      status = .terminal
      customError = nil
      defer { timer = nil }
      return .some(timer)
    }
    guard case .some(let pendingTimer) = taken else { return }
    pendingTimer?.cancel()
    scheduler.schedule(options: options) { self.finish(completion) }
  }

  private func finish(_ completion: Subscribers.Completion<Failure>) {
    let target = lock.withLock { () -> Downstream? in
      defer { downstream = nil }
      return downstream
    }
    guard let target else { return }
    deliveryLock.withLock { target.receive(completion: completion) }
  }

  private func timedOut(_ firing: Int) {
    let taken = lock.withLock {
      () -> ((any Subscription), (any Cancellable)?, (() -> Failure)?)? in
      guard generation == firing, case .subscribed(let upstream) = status else { return nil }
      defer {
        status = .terminal
        timer = nil
        customError = nil
      }
      return (upstream, timer, customError)
    }
    guard let (upstream, firedTimer, makeError) = taken else { return }
    firedTimer?.cancel()
    upstream.cancel()
    finish(makeError.map { .failure($0()) } ?? .finished)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminal
        downstream = nil
        customError = nil
        timer = nil
      }
      return (status.subscription, timer)
    }
    taken.1?.cancel()
    taken.0?.cancel()
  }

  var description: String { "Timeout" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
