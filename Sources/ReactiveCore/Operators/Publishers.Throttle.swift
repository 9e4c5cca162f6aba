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
/// completion) and the time of the last emitted value.
final class ThrottleSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
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
  private var pendingValue: Input?
  @exclusivity(unchecked)
  private var pendingCompletion: Subscribers.Completion<Failure>?
  @exclusivity(unchecked)
  private var lastEmission: Context.SchedulerTimeType?
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let latest: Bool

  init(_ publisher: Publishers.Throttle<Upstream, Context>, downstream: Downstream) {
    self.downstream = downstream
    interval = publisher.interval
    scheduler = publisher.scheduler
    latest = publisher.latest
  }

  private var hasScheduledEmission: Bool { pendingValue != nil || pendingCompletion != nil }

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
    let now = scheduler.now
    let emitAt = lock.withLock { () -> Context.SchedulerTimeType?? in
      guard case .subscribed = status, demand > 0 else { return .none }
      if hasScheduledEmission {
        if latest { pendingValue = input }
        return .none
      }
      demand -= 1
      pendingValue = input
      guard let lastEmission else { return .some(nil) }
      let earliest = lastEmission.advanced(by: interval)
      return .some(earliest > now ? earliest : nil)
    }
    switch emitAt {
    case .none: break
    case .some(.none): scheduler.schedule { self.emit() }
    case .some(.some(let date)): scheduler.schedule(after: date) { self.emit() }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let needsScheduling = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      status = .terminal
      let waiting = hasScheduledEmission
      pendingCompletion = completion
      return !waiting
    }
    if needsScheduling { scheduler.schedule { self.emit() } }
  }

  private func emit() {
    let now = scheduler.now
    let taken = lock.withLock { () -> (Downstream, Input?, Subscribers.Completion<Failure>?)? in
      guard let downstream, hasScheduledEmission else { return nil }
      let value = pendingValue
      let completion = pendingCompletion
      pendingValue = nil
      pendingCompletion = nil
      if value != nil { lastEmission = now }
      if completion != nil { self.downstream = nil }
      return (downstream, value, completion)
    }
    guard let (target, value, completion) = taken else { return }
    let more = deliveryLock.withLock { () -> Subscribers.Demand in
      let more = value.map { target.receive($0) } ?? .none
      if let completion { target.receive(completion: completion) }
      return more
    }
    if more > 0 { lock.withLock { if downstream != nil { demand += more } } }
  }

  func request(_ additional: Subscribers.Demand) {
    lock.withLock { if downstream != nil { demand += additional } }
  }

  func cancel() {
    let upstream = lock.withLock { () -> (any Subscription)? in
      defer {
        status = .terminal
        downstream = nil
        pendingValue = nil
        pendingCompletion = nil
      }
      return status.subscription
    }
    upstream?.cancel()
  }

  var description: String { "Throttle" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
