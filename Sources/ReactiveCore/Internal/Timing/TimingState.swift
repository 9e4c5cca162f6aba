/// Where a timing operator's subscription stands with its upstream.
///
/// ``SubscriptionStatus`` with one more state: Combine's `receive(on:)`, `delay` and
/// `throttle` keep the upstream subscription while a completion waits on the scheduler,
/// so that a value delivered ahead of it can still ask the upstream for more (in
/// `receive(on:)` and `delay`, the subscriber's requests and cancellation no longer reach
/// it then).
enum TimingStatus {
  /// No subscription has arrived yet.
  case awaitingSubscription
  /// Subscribed; holds the upstream subscription.
  case subscribed(any Subscription)
  /// The upstream completed and the completion waits on the scheduler; holds the
  /// upstream subscription.
  case pendingTerminal(any Subscription)
  /// Completed or cancelled: nothing more passes.
  case terminal

  /// The upstream subscription, while subscribed or while the completion is pending.
  var subscription: (any Subscription)? {
    switch self {
    case .subscribed(let subscription), .pendingTerminal(let subscription): subscription
    case .awaitingSubscription, .terminal: nil
    }
  }

  /// Whether the subscription is subscribed: not before the upstream subscription
  /// arrives, nor once it completed or was cancelled.
  var isSubscribed: Bool {
    if case .subscribed = self { return true }
    return false
  }
}

/// Everything a ``TimingSubscription`` changes, as one value behind its one lock: the
/// status, the subscriber and the operator's own state machine.
///
/// One value, so that an event and the machine's answer to it are decided in one
/// critical section, with no field of the subclass left outside the lock's guard.
struct TimingState<Downstream: Subscriber, Machine> {
  /// The operator's own state (``NoTimingMachine`` for one that has none).
  ///
  /// First, so that an empty machine sits at the address of ``status``: at the end it
  /// would share its address with whatever the owner stores next (the delivery lock), and
  /// the thread sanitizer would take an `inout` access to it for a race with that lock.
  var machine: Machine
  /// Where the subscription stands with its upstream.
  var status = TimingStatus.awaitingSubscription
  /// The subscriber; `nil` once an operator that lets go of it is done.
  var downstream: Downstream?

  /// Ends the subscription and lets go of the subscriber.
  ///
  /// - Returns: The subscriber, for the caller to release once it has unlocked: its
  ///   `deinit` may run any code.
  mutating func end() -> Downstream? {
    status = .terminal
    defer { downstream = nil }
    return downstream
  }
}

/// The machine of a timing operator with no state of its own beyond the status and the
/// subscriber (`receive(on:)`, `subscribe(on:)`, `delay`): empty, so it costs nothing.
struct NoTimingMachine {}
