/// Everything a ``TimingSubscription`` changes, as one value behind its one lock: its
/// ``Lifecycle``, whose machine holds the subscriber and the operator's own rules.
///
/// One value, so that an event and the machine's answer to it are decided in one
/// critical section, with no field of the subclass left outside the lock's guard. The
/// timing operators are the ones that pass through the lifecycle's pending-terminal
/// state: Combine's `receive(on:)`, `delay` and `throttle` keep the upstream
/// subscription while a completion waits on the scheduler, so that a value delivered
/// ahead of it can still ask the upstream for more (in `receive(on:)` and `delay`, the
/// subscriber's requests and cancellation no longer reach it then).
typealias TimingState<Downstream: Subscriber, Rules> = Lifecycle<TimingMachine<Downstream, Rules>>

/// The machine of a timing operator's ``Lifecycle``: the subscriber and the operator's
/// own rules.
struct TimingMachine<Downstream: Subscriber, Rules> {
  /// The operator's own state (``NoTimingMachine`` for one that has none).
  ///
  /// First, so that an empty machine sits at the start: at the end it would share its
  /// address with whatever the owner stores next (the delivery lock), and the thread
  /// sanitizer would take an `inout` access to it for a race with that lock.
  var rules: Rules
  /// The subscriber; `nil` once an operator that lets go of it is done.
  var downstream: Downstream?
}

extension Lifecycle {
  /// Ends the subscription and lets go of the subscriber.
  ///
  /// - Returns: The subscriber, for the caller to release once it has unlocked: its
  ///   `deinit` may run any code.
  mutating func endLettingGo<Downstream, Rules>() -> Downstream?
  where Machine == TimingMachine<Downstream, Rules> {
    _ = end()
    defer { machine.downstream = nil }
    return machine.downstream
  }
}

/// The machine of a timing operator with no state of its own beyond the status and the
/// subscriber (`receive(on:)`, `subscribe(on:)`, `delay`): empty, so it costs nothing.
struct NoTimingMachine {}
