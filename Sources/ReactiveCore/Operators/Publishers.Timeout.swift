extension Publisher {
  /// Terminates publishing if the upstream publisher exceeds the specified time interval
  /// without producing an element.
  ///
  /// The clock starts at subscription, starts again at the subscriber's first request,
  /// and restarts with every value. Values and the upstream completion are delivered on
  /// the scheduler. If `interval` passes without a value, the publisher cancels the
  /// upstream and fails with `customError()`, or finishes normally when `customError` is
  /// `nil`.
  ///
  /// The clock is a repeating timer on `scheduler`; a scheduler that runs it at once,
  /// such as ``ImmediateScheduler``, would time out while the timer is being set up, so
  /// subscribing traps there, as it does in Combine.
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

/// Keeps one timer running on the scheduler, started again by the first request and by
/// each value, and re-delivers values and the completion through the scheduler; the
/// clock is a ``TimeoutStateMachine``, the machine of its ``TimingState``.
///
/// Each timer carries its generation, so that one replaced or cancelled while firing on
/// another thread times nothing out. The timer and the scheduled deliveries hold the
/// subscription strongly, as Combine's do (see ``TimingSubscription``). The custom error
/// closure is let go when the subscription ends (it timed out, its completion was
/// delivered, or a cancel), so that what it captures is released even while the
/// subscriber keeps this subscription; the lock guards it, and it is released after the
/// lock.
final class TimeoutSubscription<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>:
  TimingSubscription<Downstream, TimeoutStateMachine>,
  Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  /// The failure to send on timeout (none: finish); `nil` as well once the subscription has
  /// ended, when it can no longer time out. Guarded by the lock.
  private var customError: (() -> Failure)?

  init(_ publisher: Publishers.Timeout<Upstream, Context>, downstream: Downstream) {
    interval = publisher.interval
    scheduler = publisher.scheduler
    options = publisher.options
    customError = publisher.customError
    // The machine is the clock, ended whenever the status leaves `subscribed`.
    super.init(downstream: downstream, machine: TimeoutStateMachine())
  }

  func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    startClock()
    deliver(subscription: self)
  }

  /// Starts a new timer of `interval`, replacing (and cancelling) the running one.
  ///
  /// The scheduler is called without the lock, so a newer timer or the end of the
  /// subscription may come meanwhile; the new timer is then cancelled at once.
  private func startClock() {
    lock.lock()
    let generation = stateAssumingLocked.machine.rules.clockStarting(on: LockOwner.currentThread)
    lock.unlock()
    let newTimer = scheduler.scheduleRepeating(every: interval, options: options) {
      self.timeOut(generation)
    }
    lock.lock()
    let stored = stateAssumingLocked.machine.rules.clockScheduled(newTimer, generation: generation)
    lock.unlock()
    stored.run()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard isSubscribed else { return .none }
    startClock()
    scheduler.schedule(options: options) { self.deliverScheduled(input) }
    return .none
  }

  /// Delivers a value scheduled earlier, unless the subscription ended meanwhile, and
  /// asks the upstream for the subscriber's further demand.
  private func deliverScheduled(_ input: Input) {
    lock.lock()
    guard case .subscribed(let upstream) = stateAssumingLocked.status,
      let target = stateAssumingLocked.machine.downstream
    else {
      lock.unlock()
      return
    }
    lock.unlock()
    let demand = deliver(input, to: target)
    if demand != .none { upstream.request(demand) }
  }

  /// Stops the clock and schedules the completion. The subscription stays subscribed
  /// until the completion runs: cancelling meanwhile still reaches the upstream and
  /// drops the completion, as in Combine.
  func receive(completion: Subscribers.Completion<Failure>) {
    guard let stopped = rulesIfSubscribed({ clock, _ in clock.upstreamCompleted() }) else { return }
    stopped?.cancel()
    scheduler.schedule(options: options) { self.finishScheduled(completion) }
  }

  /// Delivers a completion scheduled earlier, unless the subscription ended meanwhile.
  ///
  /// A first request made while the completion waited started the clock again; that
  /// timer is stopped here, or it would repeat, and keep the subscription, for good.
  private func finishScheduled(_ completion: Subscribers.Completion<Failure>) {
    // The subscriber is never let go, so it is there whenever the subscription was.
    var released: (() -> Failure)?
    let ended = endSubscribed { clock in
      released = customError.take()
      return clock.ended()
    }
    withExtendedLifetime(released) {}
    guard ended != nil, let target = currentDownstream else { return }
    deliver(completion, to: target)
  }

  /// Ends the subscription when the timer of generation `firing` goes off.
  private func timeOut(_ firing: Int) {
    lock.lock()
    // Combine sets the timer up under its lock, so a scheduler that runs the timer at once
    // takes that lock again on the same thread, which traps. Trap here too, saying why.
    guard !stateAssumingLocked.machine.rules.isStartingClock(on: LockOwner.currentThread) else {
      lock.unlock()
      preconditionFailure(
        "timeout(_:scheduler:) needs a scheduler that runs its timer later, not at once")
    }
    guard case .subscribed(let upstream) = stateAssumingLocked.status,
      let target = stateAssumingLocked.machine.downstream
    else {
      lock.unlock()
      return
    }
    let action = stateAssumingLocked.machine.rules.timerFired(generation: firing)
    var customError: (() -> Failure)?
    if case .timeOut = action {
      _ = stateAssumingLocked.terminate()
      customError = self.customError.take()
    }
    lock.unlock()
    switch action {
    case .ignore:
      return
    case .timeOut(let fired):
      fired?.cancel()
      upstream.cancel()
      deliver(customError.map { .failure($0()) } ?? .finished, to: target)
    }
  }

  /// Passes the request upstream; the first one starts the clock again.
  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard case .subscribed(let upstream) = stateAssumingLocked.status else {
      lock.unlock()
      return
    }
    let action = stateAssumingLocked.machine.rules.requested()
    lock.unlock()
    switch action {
    case .startClockAndPass:
      startClock()
      upstream.request(demand)
    case .pass:
      upstream.request(demand)
    }
  }

  func cancel() {
    var released: (() -> Failure)?
    let upstream = endSubscribed { clock in
      released = customError.take()
      return clock.ended()
    }
    withExtendedLifetime(released) {}
    upstream?.cancel()
  }

  var description: String { "Timeout" }
  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
  var playgroundDescription: Any { description }
}
