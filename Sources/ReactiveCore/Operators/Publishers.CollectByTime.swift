extension Publisher {
  /// Collects elements by a given time-grouping strategy, and emits a single array of
  /// the collection.
  ///
  /// Every `stride` (counted from the subscription) the elements gathered since the
  /// previous group are emitted as one array; an empty window emits nothing. With
  /// `.byTimeOrCount`, a group is also emitted as soon as it holds `count` elements.
  ///
  /// Every group and the completion are delivered on the scheduler, as current Combine
  /// does: a group the count fills, and the completion, are handed to
  /// `scheduler.schedule(options:_:)` rather than sent from inside the upstream's call.
  /// When the upstream finishes, the elements gathered so far are emitted as a last group
  /// before the completion; when it fails, the gathered elements are discarded.
  ///
  /// With `.byTime` the operator asks the upstream for one element per request it
  /// receives and one more per element, and a tick that finds no demand leaves the group
  /// gathering until one does. With `.byTimeOrCount`, a request of `.max(n)` asks the
  /// upstream for `.max(count * n)`, as does the demand returned by a group the count
  /// filled. Unlike Combine, groups never exceed the subscriber's demand: a group the
  /// timer or count closes without demand waits for it.
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
/// and drains closed groups to the subscriber as demand allows; the groups live in a
/// ``CollectByTimeStateMachine``, the machine of its ``TimingState``.
///
/// Every delivery runs on the scheduler, as in current Combine: the timer's ticks drain
/// in place; a group closed by the count, a completion, and groups that waited for a
/// request are drained by work scheduled with `schedule(options:_:)`. That work keeps the
/// subscription until it runs, but not the subscriber: a cancel lets go of it at once.
///
/// Only one thread drains at a time; a thread that finds a drain running leaves its work
/// to it, and the drainer re-reads the state after every delivery, so deliveries never
/// overlap and re-entrant requests are picked up by the loop. Deliveries therefore go
/// straight to the subscriber, not through ``TimingSubscription/deliveryLock``.
final class CollectByTimeSubscription<
  Upstream: Publisher, Context: Scheduler, Downstream: Subscriber
>: TimingSubscription<Downstream, CollectByTimeStateMachine<Upstream.Output, Upstream.Failure>>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let scheduler: Context
  private let stride: Context.SchedulerTimeType.Stride
  private let options: Context.SchedulerOptions?
  /// What each element asks the upstream for: one more with `.byTime`, none with
  /// `.byTimeOrCount` (its requests are `count` per unit of demand).
  private let demandPerElement: Subscribers.Demand

  init(_ publisher: Publishers.CollectByTime<Upstream, Context>, downstream: Downstream) {
    let maxCount: Int?
    switch publisher.strategy {
    case .byTime(let scheduler, let stride):
      (self.scheduler, self.stride, maxCount) = (scheduler, stride, nil)
    case .byTimeOrCount(let scheduler, let stride, let count):
      (self.scheduler, self.stride, maxCount) = (scheduler, stride, count)
    }
    options = publisher.options
    demandPerElement = maxCount == nil ? .max(1) : .none
    super.init(downstream: downstream, machine: CollectByTimeStateMachine(maxCount: maxCount))
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    let newTimer = scheduler.scheduleRepeating(every: stride, options: options) { [weak self] in
      self?.tick()
    }
    lock.lock()
    let unwanted = stateAssumingLocked.machine.rules.timerScheduled(newTimer)
    lock.unlock()
    unwanted?.cancel()
    deliver(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let action = rulesIfSubscribed({ machine, _ in machine.valueArrived(input) }) else {
      return .none
    }
    carryOut(action)
    return demandPerElement
  }

  /// Closes the current group when the timer fires.
  private func tick() {
    if let action = rulesIfSubscribed({ machine, _ in machine.timerFired() }) { carryOut(action) }
  }

  /// Stops the timer, closes or discards the current group, and schedules the drain of
  /// the groups and the completion.
  func receive(completion: Subscribers.Completion<Failure>) {
    guard endSubscribed(ending: { $0.completionArrived(completion) }) != nil else { return }
    scheduleDrain()
  }

  /// Drains now, on the scheduler, or schedules a drain there.
  private func carryOut(_ action: CollectByTimeStateMachine<Input, Failure>.GroupAction) {
    switch action {
    case .drain: drain()
    case .scheduleDrain: scheduleDrain()
    case .wait: break
    }
  }

  /// Schedules a drain on the scheduler. The work keeps this subscription (not the
  /// subscriber, which a cancel releases) until it runs.
  private func scheduleDrain() {
    scheduler.schedule(options: options) { self.drain() }
  }

  /// Delivers closed groups while there is demand, then the completion once no group is
  /// left.
  private func drain() {
    lock.lock()
    let claimed = stateAssumingLocked.machine.rules.startDraining()
    lock.unlock()
    guard claimed else { return }
    while true {
      lock.lock()
      guard let target = stateAssumingLocked.machine.downstream else {
        stateAssumingLocked.machine.rules.stopDraining()
        lock.unlock()
        return
      }
      let step = stateAssumingLocked.machine.rules.nextStep()
      if case .completion = step { stateAssumingLocked.machine.downstream = nil }
      lock.unlock()
      switch step {
      case .group(let group, let byCount):
        let more = target.receive(group)
        if more > .none { groupReturned(more, byCount: byCount) }
      case .completion(let completion):
        return target.receive(completion: completion)
      case .idle:
        return
      }
    }
  }

  /// Counts the demand a group returned, and asks the upstream for what it stands for.
  private func groupReturned(_ more: Subscribers.Demand, byCount: Bool) {
    lock.lock()
    guard stateAssumingLocked.machine.downstream != nil else {
      lock.unlock()
      return
    }
    let upstreamDemand = stateAssumingLocked.machine.rules.groupReturned(more, byCount: byCount)
    let upstream = stateAssumingLocked.subscription
    lock.unlock()
    if let upstreamDemand, let upstream { upstream.request(upstreamDemand) }
  }

  func request(_ additional: Subscribers.Demand) {
    lock.lock()
    guard stateAssumingLocked.machine.downstream != nil else {
      lock.unlock()
      return
    }
    let (upstreamDemand, action) = stateAssumingLocked.machine.rules.requested(additional)
    let upstream = stateAssumingLocked.subscription
    lock.unlock()
    if let upstreamDemand, let upstream { upstream.request(upstreamDemand) }
    if action != .wait { scheduleDrain() }
  }

  func cancel() {
    lock.lock()
    let upstream = stateAssumingLocked.subscription
    let subscriber = stateAssumingLocked.endLettingGo()
    let stopped = stateAssumingLocked.machine.rules.cancelled()
    lock.unlock()
    // Released here, not under the lock: a subscriber's `deinit` may run any code.
    withExtendedLifetime(subscriber) {}
    stopped?.cancel()
    upstream?.cancel()
  }

  var description: String { "CollectByTime" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
