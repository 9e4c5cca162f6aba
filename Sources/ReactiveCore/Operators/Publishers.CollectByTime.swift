extension Publisher {
  /// Collects elements by a given time-grouping strategy, and emits a single array of
  /// the collection.
  ///
  /// Every `stride` (counted from the subscription) the elements gathered since the
  /// previous group are emitted as one array; an empty window emits nothing. With
  /// `.byTimeOrCount`, a group is also emitted as soon as it holds `count` elements.
  ///
  /// Groups wait for downstream demand rather than being dropped. When the upstream
  /// finishes, the elements gathered so far are emitted as a last group before the
  /// completion; when it fails, the failure is sent at once and gathered elements are
  /// discarded. With `.byTime` the operator requests unlimited elements from the
  /// upstream; with `.byTimeOrCount`, a request of `.max(n)` asks the upstream for
  /// `.max(count * n)`.
  ///
  ///     let scheduler = TestScheduler()
  ///     let subject = PassthroughSubject<Int, Never>()
  ///     let cancellable = subject.collect(.byTime(scheduler, .seconds(1)))
  ///         .sink { print($0) }
  ///     subject.send(1)
  ///     subject.send(2)
  ///     scheduler.advance(by: .seconds(1))
  ///     // Prints "[1, 2]"
  ///
  /// - Parameters:
  ///   - strategy: The timing group strategy used by the operator to collect and publish
  ///     elements.
  ///   - options: Scheduler options to use for the strategy.
  /// - Returns: A publisher that collects elements by a given strategy, and emits a
  ///   single array of the collection.
  public func collect<S: Scheduler>(
    _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
  ) -> Publishers.CollectByTime<Self, S> {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}

extension Publishers {
  /// A strategy for collecting received elements.
  ///
  ///     let strategy = Publishers.TimeGroupingStrategy<TestScheduler>
  ///         .byTimeOrCount(TestScheduler(), .seconds(1), 10)
  ///     if case .byTimeOrCount(_, let stride, let count) = strategy {
  ///         print(stride, count)
  ///     }
  ///     // Prints "1.0s 10"
  public enum TimeGroupingStrategy<Context: Scheduler> {
    /// A grouping that collects and periodically publishes items.
    case byTime(Context, Context.SchedulerTimeType.Stride)
    /// A grouping that collects and publishes items periodically or when a buffer reaches
    /// a maximum size.
    case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
  }

  /// A publisher that buffers and periodically publishes its items.
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure
    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream
    /// The strategy with which to collect and publish elements.
    public let strategy: Publishers.TimeGroupingStrategy<Context>
    /// Scheduler options to use for the strategy.
    public let options: Context.SchedulerOptions?

    /// Creates a publisher that groups `upstream`'s elements by `strategy`.
    ///
    /// - Parameters:
    ///   - upstream: The publisher that this publisher receives elements from.
    ///   - strategy: The strategy with which to collect and publish elements.
    ///   - options: Scheduler options to use for the strategy.
    public init(
      upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>,
      options: Context.SchedulerOptions?
    ) {
      if case .byTimeOrCount(_, _, let count) = strategy {
        precondition(count > 0, "collect(.byTimeOrCount) needs a count greater than zero")
      }
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    /// Attaches the subscriber.
    ///
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, Failure == S.Failure {
      upstream.receive(
        subscriber:
          CollectByTimeSubscription<Upstream, Context, S>(self, downstream: subscriber))
    }
  }
}

/// Gathers elements into the current group, closes groups on the timer or at the count,
/// and drains closed groups to the subscriber as demand allows.
///
/// Only one thread drains at a time (`isDraining`); a thread that finds a drain running
/// leaves its work to it, and the drainer re-reads the state after every delivery, so
/// deliveries never overlap and re-entrant requests are picked up by the loop.
final class CollectByTimeSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The lock that guards every `var`.
  private let lock = Lock()
  @exclusivity(unchecked)
  private var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked)
  private var downstream: Downstream?
  @exclusivity(unchecked)
  private var demand = Subscribers.Demand.none
  @exclusivity(unchecked)
  private var current: [Input] = []
  @exclusivity(unchecked)
  private var closed: [[Input]] = []
  @exclusivity(unchecked)
  private var closedStart = 0
  @exclusivity(unchecked)
  private var pendingCompletion: Subscribers.Completion<Failure>?
  @exclusivity(unchecked)
  private var isDraining = false
  @exclusivity(unchecked)
  private var timer: (any Cancellable)?
  private let scheduler: Context
  private let stride: Context.SchedulerTimeType.Stride
  private let maxCount: Int?
  private let options: Context.SchedulerOptions?

  init(_ publisher: Publishers.CollectByTime<Upstream, Context>, downstream: Downstream) {
    self.downstream = downstream
    switch publisher.strategy {
    case .byTime(let scheduler, let stride):
      (self.scheduler, self.stride, maxCount) = (scheduler, stride, nil)
    case .byTimeOrCount(let scheduler, let stride, let count):
      (self.scheduler, self.stride, maxCount) = (scheduler, stride, count)
    }
    options = publisher.options
  }

  private var hasClosedGroup: Bool { closedStart < closed.count }

  func receive(subscription: any Subscription) {
    let target = lock.withLock { () -> Downstream? in
      guard case .awaitingSubscription = status, let downstream else { return nil }
      status = .subscribed(subscription)
      return downstream
    }
    guard let target else { return subscription.cancel() }
    let newTimer = scheduler.schedule(
      after: scheduler.now.advanced(by: stride), interval: stride,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in self?.tick() }
    let unused = lock.withLock { () -> (any Cancellable)? in
      guard case .subscribed = status else { return newTimer }
      timer = newTimer
      return nil
    }
    unused?.cancel()
    target.receive(subscription: self)
    if maxCount == nil { subscription.request(.unlimited) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let groupClosed = lock.withLock { () -> Bool in
      guard case .subscribed = status else { return false }
      current.append(input)
      guard let maxCount, current.count >= maxCount else { return false }
      closed.append(current)
      current = []
      return true
    }
    if groupClosed { drain() }
    return .none
  }

  private func tick() {
    let groupClosed = lock.withLock { () -> Bool in
      guard case .subscribed = status, !current.isEmpty else { return false }
      closed.append(current)
      current = []
      return true
    }
    if groupClosed { drain() }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let taken = lock.withLock { () -> (any Cancellable)?? in
      guard case .subscribed = status else { return .none }
      status = .terminal
      switch completion {
      case .finished:
        if !current.isEmpty { closed.append(current) }
      case .failure:
        closed = []
        closedStart = 0
      }
      current = []
      pendingCompletion = completion
      defer { timer = nil }
      return .some(timer)
    }
    guard case .some(let pendingTimer) = taken else { return }
    pendingTimer?.cancel()
    drain()
  }

  private enum Step {
    case group(Downstream, [Input])
    case completion(Downstream, Subscribers.Completion<Failure>)
    case idle
  }

  /// Delivers closed groups while there is demand, then the completion once no group is
  /// left.
  private func drain() {
    if !lock.withLock({ () -> Bool in
      guard !isDraining else { return false }
      isDraining = true
      return true
    }) {
      return
    }
    while true {
      let step = lock.withLock { () -> Step in
        guard let downstream else {
          isDraining = false
          return .idle
        }
        if hasClosedGroup, demand > 0 {
          demand -= 1
          let group = closed[closedStart]
          closedStart += 1
          if closedStart == closed.count {
            closed.removeAll(keepingCapacity: true)
            closedStart = 0
          }
          return .group(downstream, group)
        }
        if !hasClosedGroup, let pendingCompletion {
          self.pendingCompletion = nil
          self.downstream = nil
          isDraining = false
          return .completion(downstream, pendingCompletion)
        }
        isDraining = false
        return .idle
      }
      switch step {
      case .group(let target, let group):
        let more = target.receive(group)
        if more > 0 { add(more) }
      case .completion(let target, let completion):
        return target.receive(completion: completion)
      case .idle:
        return
      }
    }
  }

  /// Adds downstream demand and asks the upstream for what it stands for.
  private func add(_ more: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      guard downstream != nil else { return nil }
      demand += more
      return status.subscription
    }
    if let maxCount, let upstream { upstream.request(more * maxCount) }
  }

  func request(_ additional: Subscribers.Demand) {
    add(additional)
    drain()
  }

  func cancel() {
    let taken = lock.withLock { () -> ((any Subscription)?, (any Cancellable)?) in
      defer {
        status = .terminal
        downstream = nil
        timer = nil
        current = []
        closed = []
        closedStart = 0
        pendingCompletion = nil
      }
      return (status.subscription, timer)
    }
    taken.1?.cancel()
    taken.0?.cancel()
  }

  var description: String { "CollectByTime" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
