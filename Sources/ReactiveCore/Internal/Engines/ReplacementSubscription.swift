/// The machine of an operator that may owe its subscriber a replacement value, kept in
/// its ``Lifecycle``.
protocol ReplacementMachine {
  /// Whether the upstream ended in the way the operator replaces before the subscriber
  /// asked: the replacement and `.finished` are owed to its next request.
  var replacementPending: Bool { get set }

  /// The state before the subscription arrives: nothing owed.
  init()
}

/// The base of `replaceEmpty(with:)` and `replaceError(with:)`: both keep their
/// subscriber for their whole life, as Combine's do, and both may owe it a replacement
/// value followed by `.finished`, paid by its next request.
///
/// One place pays the debt, so the two cannot drift apart on how: the flag is cleared
/// under the lock (a second request must not publish the replacement twice), the status
/// ends, and the replacement goes out after unlocking.
class ReplacementSubscription<Machine: ReplacementMachine, Downstream: Subscriber>:
  Guarded<Lifecycle<Machine>>,
  @unchecked Sendable
{
  /// The subscriber, held for this object's whole life as in Combine.
  final let downstream: Downstream
  /// The value published in place of what the operator replaces.
  final let output: Downstream.Input

  /// Creates the subscription for `downstream`, replacing with `output`.
  init(downstream: Downstream, output: Downstream.Input) {
    self.downstream = downstream
    self.output = output
    super.init(state: Lifecycle(Machine()))
  }

  /// Publishes the replacement, then finishes.
  final func publishReplacement() {
    _ = downstream.receive(output)
    downstream.receive(completion: .finished)
  }

  /// Pays an owed replacement, or records the demand with `noting` (under the lock) and
  /// forwards it upstream.
  final func request(_ demand: Subscribers.Demand, noting: (inout Machine) -> Void) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    if stateAssumingLocked.machine.replacementPending {
      stateAssumingLocked.machine.replacementPending = false
      _ = stateAssumingLocked.end()
      lock.unlock()
      publishReplacement()
      return
    }
    noting(&stateAssumingLocked.machine)
    let subscription = stateAssumingLocked.subscription
    lock.unlock()
    subscription?.request(demand)
  }
}
