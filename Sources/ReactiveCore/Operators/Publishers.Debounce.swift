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

/// Holds the latest value and the timer that will publish it, in a
/// ``DebounceStateMachine``, the machine of its ``TimingState``.
///
/// The timer is scheduled as repeating work so that it can be cancelled, as Combine does:
/// a newer value, the completion and `cancel()` each cancel it, and so does its own
/// firing. It holds the subscription strongly, as Combine's does, so the subscriber
/// lives while a value is due (see ``TimingSubscription``). Each timer carries its
/// generation, so that a replaced one firing on another thread publishes nothing.
final class DebounceSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  TimingSubscription<Downstream, DebounceStateMachine<Upstream.Output>>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let dueTime: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?

  init(_ publisher: Publishers.Debounce<Upstream, Context>, downstream: Downstream) {
    dueTime = publisher.dueTime
    scheduler = publisher.scheduler
    options = publisher.options
    super.init(downstream: downstream, machine: DebounceStateMachine())
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    deliver(subscription: self)
    subscription.request(.unlimited)
  }

  /// Keeps `input` as the latest value and starts its timer, cancelling the previous one.
  ///
  /// The scheduler is called without the lock, so a newer value, the end of the
  /// subscription or the timer's own firing (at once, on ``ImmediateScheduler``) may come
  /// meanwhile; the new timer is then cancelled at once.
  func receive(_ input: Input) -> Subscribers.Demand {
    guard let action = rulesIfSubscribed({ machine, _ in machine.valueArrived(input) }) else {
      return .none
    }
    switch action {
    case .startTimer(let generation, let replaced):
      // Released here, not under the lock: a value's `deinit` may run any code.
      withExtendedLifetime(replaced) {}
      let newTimer = scheduler.scheduleRepeating(every: dueTime, options: options) {
        self.due(generation)
      }
      lock.lock()
      let stored = stateAssumingLocked.machine.rules.timerScheduled(
        newTimer, generation: generation)
      lock.unlock()
      stored.run()
    }
    return .none
  }

  /// Publishes the latest value when the timer of generation `firing` goes off, if the
  /// subscriber has demand; drops it otherwise.
  private func due(_ firing: Int) {
    lock.lock()
    guard stateAssumingLocked.isSubscribed, let target = stateAssumingLocked.machine.downstream
    else {
      lock.unlock()
      return
    }
    let action = stateAssumingLocked.machine.rules.timerFired(generation: firing)
    lock.unlock()
    switch action {
    case .ignore:
      return
    case .drop(let fired):
      fired?.cancel()
    case .deliver(let value, let fired):
      fired?.cancel()
      let more = deliver(value, to: target)
      guard more != .none else { return }
      lock.lock()
      stateAssumingLocked.machine.rules.demandAdded(more)
      lock.unlock()
    }
  }

  /// Drops the value waiting, if any, and schedules the completion.
  func receive(completion: Subscribers.Completion<Failure>) {
    guard endSubscribed(ending: { $0.cancelled() }) != nil else { return }
    // Combine schedules the completion without the operator's options, and delivers it
    // even if the subscriber cancels meanwhile.
    scheduler.schedule(options: nil) { self.finishScheduled(completion) }
  }

  /// Delivers the completion, then lets go of the subscriber.
  private func finishScheduled(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let target = stateAssumingLocked.machine.downstream
    stateAssumingLocked.machine.downstream = nil
    lock.unlock()
    if let target { deliver(completion, to: target) }
  }

  func request(_ additional: Subscribers.Demand) {
    _ = rulesIfSubscribed { machine, _ in machine.demandAdded(additional) }
  }

  func cancel() { endSubscribed { $0.cancelled() }?.cancel() }

  var description: String { "Debounce" }

  var customMirror: Mirror {
    lock.lock()
    let children: KeyValuePairs<String, Any> = [
      "downstream": stateAssumingLocked.machine.downstream.map { $0 as Any }
        ?? stateAssumingLocked.machine.downstream as Any,
      "downstreamDemand": stateAssumingLocked.machine.rules.demand,
      "currentValue": stateAssumingLocked.machine.rules.latest as Any,
    ]
    lock.unlock()
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }

  var playgroundDescription: Any { description }
}
