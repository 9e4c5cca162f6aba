/// The skeleton shared by the subscriptions of the operators that deliver on a scheduler:
/// `subscribe(on:)`, `delay`, `timeout`, `debounce`, `throttle`,
/// `measureInterval` and `collect(byTime:)`. (`subscribe(on:)` and `measureInterval`
/// pass events straight through, and `collect(byTime:)` drains on one thread at a time:
/// those three call their subscriber without ``deliveryLock``, as Combine's do.)
///
/// Everything that changes is one ``TimingState`` behind the ``Guarded`` lock: the
/// ``Lifecycle``, the subscriber and `Machine`, the operator's own rules (`DebounceStateMachine`,
/// `ThrottleStateMachine`, `TimeoutStateMachine`, `CollectByTimeStateMachine` in
/// `Internal/Timing/`, the last event's time for `measureInterval`, ``NoTimingMachine``
/// for the rest): a value type fed events under the lock, returning a named action that
/// the subscription carries out once it has unlocked.
///
/// It serializes every call into the subscriber with ``deliveryLock``: a scheduler may
/// run two deliveries at once (a concurrent queue, or a virtual clock advanced from two
/// threads), and Combine's operators keep them from overlapping in the same way. That
/// lock is recursive, so a subscriber may send to its own upstream from inside a
/// delivery on an immediate scheduler. Neither lock is held while calling the upstream or the scheduler, and
/// ``lock`` is never held while calling the subscriber.
///
/// (`receive(on:)` has its own subscription, specialised for speed, with the same rules.)
///
/// Combine's `receive(on:)`, `delay` and `timeout` keep their subscriber for as long as
/// they live, even after completing or being cancelled: a subscriber that holds on to its
/// subscription makes a cycle that only the subscriber can break, as `Sink` does. Work
/// already on the scheduler keeps the subscription, and so the subscriber, alive until
/// it has run. `throttle` lets go of the subscriber once it is done; `debounce` does so
/// once it has delivered its completion (OpenCombine's keeps it, but no test against
/// Combine shows which, and Ripple's leak tests expect it gone).
class TimingSubscription<Downstream: Subscriber, Machine>:
  Guarded<TimingState<Downstream, Machine>>, @unchecked Sendable
{
  /// Held while calling into the subscriber, so that deliveries never overlap.
  final let deliveryLock = RecursiveLock()

  /// Creates the subscription for `downstream`, with the operator's machine in its
  /// starting state.
  init(downstream: Downstream, machine: Machine) {
    super.init(state: Lifecycle(TimingMachine(rules: machine, downstream: downstream)))
  }

  // MARK: Upstream
  //
  // The first subscription is taken with ``Guarded``'s `adopt(_:)` (a second one, or one
  // arriving after `throttle` was cancelled, is cancelled), and requests go up through
  // its `requestUpstream(_:)`.

  /// Ends the subscription and returns the upstream to cancel, if it was subscribed.
  ///
  /// Cancelling before the upstream subscription arrives, or after the upstream
  /// completed, changes nothing: the subscription still takes the upstream when it comes,
  /// and a pending completion is still delivered, as in Combine.
  final func endSubscribed() -> (any Subscription)? { endSubscribed { _ in nil } }

  /// Ends the subscription, if it was subscribed, and lets the operator end its own
  /// state in the same critical section.
  ///
  /// - Parameter endState: Run on the operator's rules under ``lock`` once the status is
  ///   terminal; returns the operator's timer, if any, which is cancelled once the lock
  ///   is released.
  /// - Returns: The upstream to cancel, if it was subscribed; `endState` did not run
  ///   otherwise.
  final func endSubscribed(
    ending endState: (inout Machine) -> (any Cancellable)?
  ) -> (any Subscription)? {
    var stopped: (any Cancellable)?
    let upstream = terminate { stopped = endState(&$0.rules) }
    stopped?.cancel()
    return upstream
  }

  /// Whether the subscription is subscribed: not before the upstream subscription
  /// arrives, nor once it completed or was cancelled.
  final var isSubscribed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stateAssumingLocked.isSubscribed
  }

  /// Runs `event` on the operator's rules under ``lock`` if the subscription is
  /// subscribed, handing it the upstream subscription: ``Guarded``'s `ifSubscribed(_:)`
  /// on the rules.
  ///
  /// - Returns: What `event` returned (an action for the caller to carry out once the
  ///   lock is released), or `nil` if not subscribed: `event` did not run.
  final func rulesIfSubscribed<Action>(
    _ event: (inout Machine, any Subscription) -> Action
  ) -> Action? {
    ifSubscribed { (parts: inout TimingMachine<Downstream, Machine>, upstream) in
      event(&parts.rules, upstream)
    }
  }

  /// Marks the upstream completed, if subscribed, keeping its subscription while the
  /// completion waits on the scheduler, and runs `event` on the operator's rules in the
  /// same critical section: ``Guarded``'s `holdCompletion(_:)` on the rules.
  ///
  /// From here on the subscription is no longer subscribed: a second completion, and in
  /// `receive(on:)` and `delay` the subscriber's requests and cancellation, find nothing
  /// to act on.
  ///
  /// - Returns: What `event` returned, or `nil` if not subscribed: `event` did not run.
  final func holdCompletionOfRules<Action>(_ event: (inout Machine) -> Action) -> Action? {
    holdCompletion { (parts: inout TimingMachine<Downstream, Machine>) in event(&parts.rules) }
  }

  // MARK: Downstream

  /// The subscriber, if the subscription still has one.
  final var currentDownstream: Downstream? {
    lock.lock()
    defer { lock.unlock() }
    return stateAssumingLocked.machine.downstream
  }

  /// The subscriber, while subscribed: an event passing straight through goes to it.
  final var subscribedDownstream: Downstream? {
    lock.lock()
    defer { lock.unlock() }
    guard stateAssumingLocked.isSubscribed else { return nil }
    return stateAssumingLocked.machine.downstream
  }

  /// Hands `subscription` (the operator's own) to the subscriber.
  final func deliver(subscription: any Subscription) {
    guard let target = currentDownstream else { return }
    deliveryLock.withLock { target.receive(subscription: subscription) }
  }

  /// Delivers `value` to `target`, one delivery at a time.
  ///
  /// - Returns: The subscriber's further demand.
  final func deliver(_ value: Downstream.Input, to target: Downstream) -> Subscribers.Demand {
    deliveryLock.withLock { target.receive(value) }
  }

  /// Delivers `completion` to `target`, one delivery at a time.
  final func deliver(
    _ completion: Subscribers.Completion<Downstream.Failure>, to target: Downstream
  ) {
    deliveryLock.withLock { target.receive(completion: completion) }
  }

  // MARK: Relaying through the scheduler (receive(on:), delay)

  /// Hands `value` to `schedule`, which runs its delivery on the scheduler, unless the
  /// upstream has completed or the subscription was cancelled.
  ///
  /// The scheduled work holds this subscription strongly, as in Combine: it, and the
  /// subscriber with it, lives until the work has run, even if cancelled meanwhile.
  ///
  /// - Returns: No demand: the subscriber's answer goes upstream once it is delivered.
  final func relay(
    _ value: Downstream.Input, through schedule: (@escaping () -> Void) -> Void
  ) -> Subscribers.Demand {
    guard isSubscribed else { return .none }
    schedule { self.deliverRelayed(value) }
    return .none
  }

  /// Delivers a value relayed earlier, unless the subscription was cancelled meanwhile,
  /// and asks the upstream for the subscriber's further demand, even if the upstream
  /// completed meanwhile (Combine does).
  private func deliverRelayed(_ value: Downstream.Input) {
    lock.lock()
    guard stateAssumingLocked.subscription != nil,
      let target = stateAssumingLocked.machine.downstream
    else {
      lock.unlock()
      return
    }
    lock.unlock()
    let demand = deliver(value, to: target)
    guard demand != .none else { return }
    lock.lock()
    let upstream = stateAssumingLocked.subscription
    lock.unlock()
    upstream?.request(demand)
  }

  /// Hands `completion` to `schedule`, which runs its delivery on the scheduler, unless
  /// the upstream already completed or the subscription was cancelled.
  ///
  /// From here on the subscriber's requests and cancellation are ignored, and the
  /// completion is delivered whatever happens meanwhile.
  final func relay(
    _ completion: Subscribers.Completion<Downstream.Failure>,
    through schedule: (@escaping () -> Void) -> Void
  ) {
    guard holdCompletionOfRules({ _ in }) != nil else { return }
    schedule { self.deliverRelayed(completion) }
  }

  /// Delivers a completion relayed earlier.
  private func deliverRelayed(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard let target = stateAssumingLocked.machine.downstream,
      stateAssumingLocked.endPending()
    else {
      lock.unlock()
      return
    }
    lock.unlock()
    deliver(completion, to: target)
  }
}
