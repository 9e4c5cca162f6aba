/// What a reducing operator does after folding one upstream value into its result.
enum ReductionStep<Failure: Error> {
  /// Keep consuming upstream.
  case proceed
  /// The result is final: cancel upstream and publish it once downstream has asked.
  case finish
  /// Cancel upstream and fail downstream at once.
  case fail(Failure)
}

/// The engine of the operators that fold the whole upstream into at most one value:
/// `reduce`, `tryReduce`, `collect()`, `count`, `min`/`max` and their `try` forms,
/// `contains`, `allSatisfy`, `first` and `last` with their `where` and `try` forms.
///
/// It follows Combine's shape for these operators:
/// - It is both the upstream's subscriber and the downstream's subscription, and it holds
///   its downstream for its whole life: neither a cancel nor the completion lets go of it.
/// - On subscription it hands itself downstream, then asks upstream for unlimited values.
/// - A downstream request (never zero) only records that downstream asked. The result, if
///   there is one, and `.finished` go out once upstream has finished (or the reduction
///   ended early) *and* downstream has asked, whichever comes last. A failure goes out at
///   once.
/// - A cancel before the subscription arrives does nothing, so the late subscription is
///   still asked for unlimited values; after it, a cancel cancels upstream once.
/// - Values and completions after the end, or before the subscription, are ignored.
///
/// The fold is a closure over the stored result: it runs once per value, outside the lock,
/// and allocates nothing of its own. It is let go at the end (a finish, a failure, the fold
/// ending the reduction, or a cancel), as in Combine, so that whatever the operator's
/// closure captures is released even while the subscriber keeps this subscription.
///
/// - Invariant: `lock` guards ``ReductionState`` (the status and the flags), `fold` and,
///   outside the value path, `result`; it is never held while calling upstream, downstream
///   or the fold, nor while the fold is released (its captures' deinits are user code). `result` is written only by the fold, which upstream never runs concurrently
///   with itself or with its completion, and read under the lock once upstream is done:
///   so it has one writer at a time without the lock, which is why its run-time
///   exclusivity check is off (the fold runs on it in place, once per value).
class ReducingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Guarded<
  Lifecycle<ReductionState>
>, Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  /// The upstream's failure type.
  typealias Failure = UpstreamFailure
  /// The fold: updates the result with one value and says whether to go on.
  typealias Fold = (inout Downstream.Input?, Input) -> ReductionStep<Downstream.Failure>

  /// The value folded so far; published when the reduction ends.
  @exclusivity(unchecked)
  private var result: Downstream.Input?
  /// The result the fold started from, shown in the mirror as Combine does.
  private let initial: Downstream.Input?
  /// The subscriber, held for this object's whole life as in Combine.
  private let downstream: Downstream
  /// The fold, run for each value; `nil` once the reduction has ended. Guarded by `lock`:
  /// a value copies it out under the lock, so a cancel on another thread may clear it while
  /// the copy runs.
  @exclusivity(unchecked)
  private var fold: Fold?

  /// The operator's name, as Combine spells it.
  let description: String

  /// Creates the subscription of the operator `name` for `downstream`.
  ///
  /// - Parameters:
  ///   - initial: the result before any value (nil for `first`, `last` and `min`/`max`).
  ///   - fold: folds one value into the result.
  init(_ name: String, downstream: Downstream, initial: Downstream.Input?, fold: @escaping Fold) {
    description = name
    self.downstream = downstream
    self.initial = initial
    result = initial
    self.fold = fold
    super.init(state: Lifecycle(ReductionState()))
  }

  /// The result folded so far, read under the lock (for subclasses' mirrors).
  final var currentResult: Downstream.Input? { lock.withLock { result } }

  /// Shows the downstream, the result, the initial result and the status, as Combine does.
  var customMirror: Mirror {
    lock.lock()
    defer { lock.unlock() }
    let children: [Mirror.Child] = [
      ("downstream", downstream), ("result", result as Any), ("initial", initial as Any),
      ("status", stateAssumingLocked.status),
    ]
    return Mirror(self, children: children, ancestorRepresentation: .suppressed)
  }

  /// The operator's name.
  var playgroundDescription: Any { description }

  // MARK: Subscriber

  /// Takes the first subscription, hands itself downstream, then asks upstream for
  /// everything; any later subscription is cancelled.
  final func receive(subscription: any Subscription) {
    guard adopt(subscription) else { return }
    downstream.receive(subscription: self)
    // Combine asks even if downstream cancelled from `receive(subscription:)`.
    subscription.request(.unlimited)
  }

  /// Folds one value; ends the reduction early when the fold says so.
  final func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard stateAssumingLocked.isSubscribed, let fold else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    // The fold is user code: it runs without the lock, as in Combine. Upstream never
    // sends values concurrently, so `result` has one writer.
    let step = fold(&result, input)
    if case .proceed = step { return .none }
    // The fold ended the reduction: a finish or a failure, both stopping upstream.
    lock.lock()
    guard let subscription = stateAssumingLocked.terminate() else {
      // Cancelled while the fold ran: the cancel already went upstream.
      lock.unlock()
      return .none
    }
    stateAssumingLocked.machine.upstreamCompleted = true
    let released = self.fold.take()
    guard case .fail(let failure) = step else {
      stateAssumingLocked.machine.completed = stateAssumingLocked.machine.downstreamRequested
      let deliver = stateAssumingLocked.machine.completed
      let result = self.result
      lock.unlock()
      withExtendedLifetime(released) {}
      subscription.cancel()
      if deliver { send(result) }
      return .none
    }
    stateAssumingLocked.machine.completed = true
    lock.unlock()
    withExtendedLifetime(released) {}
    subscription.cancel()
    downstream.receive(completion: .failure(failure))
    return .none
  }

  /// Publishes the result (once downstream has asked) on finish, or forwards a failure.
  final func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard stateAssumingLocked.terminate() != nil else {
      lock.unlock()
      return
    }
    stateAssumingLocked.machine.upstreamCompleted = true
    let released = fold.take()
    switch completion {
    case .finished:
      stateAssumingLocked.machine.completed = stateAssumingLocked.machine.downstreamRequested
      let deliver = stateAssumingLocked.machine.completed
      let result = self.result
      lock.unlock()
      withExtendedLifetime(released) {}
      if deliver { send(result) }
    case .failure(let failure):
      stateAssumingLocked.machine.completed = true
      lock.unlock()
      withExtendedLifetime(released) {}
      // The downstream's failure type is the upstream's or `any Error`.
      downstream.receive(completion: .failure(failure as! Downstream.Failure))
    }
  }

  /// Sends the result, if any, then `.finished`.
  private func send(_ result: Downstream.Input?) {
    if let result { _ = downstream.receive(result) }
    downstream.receive(completion: .finished)
  }

  // MARK: Subscription

  /// Records that downstream asked; publishes the result if the reduction has ended.
  final func request(_ demand: Subscribers.Demand) {
    precondition(demand != .none, "API Violation: demand must not be zero")
    lock.lock()
    guard !stateAssumingLocked.machine.downstreamRequested, !stateAssumingLocked.machine.cancelled,
      !stateAssumingLocked.machine.completed
    else {
      lock.unlock()
      return
    }
    stateAssumingLocked.machine.downstreamRequested = true
    guard stateAssumingLocked.machine.upstreamCompleted else {
      lock.unlock()
      return
    }
    stateAssumingLocked.machine.completed = true
    let result = self.result
    lock.unlock()
    send(result)
  }

  /// Cancels upstream once; before the subscription arrives it does nothing, as in
  /// Combine.
  final func cancel() {
    var released: Fold?
    guard
      let subscription = terminate(alsoUnderLock: {
        $0.cancelled = true
        released = fold.take()
      })
    else { return }
    // Released here, after the lock: the fold's captures may run user code as they go.
    withExtendedLifetime(released) {}
    subscription.cancel()
  }
}

/// The machine a ``ReducingSubscription``'s ``Lifecycle`` carries, under its lock
/// besides the result: which of the two conditions for publishing (upstream done,
/// downstream asked) have come.
struct ReductionState {
  /// Whether downstream has asked for values (any nonzero demand is enough).
  var downstreamRequested = false
  /// Whether upstream has finished or failed, or the fold ended the reduction.
  var upstreamCompleted = false
  /// Whether downstream has been (or is being) sent its completion.
  var completed = false
  /// Whether downstream cancelled after the subscription arrived.
  var cancelled = false
}
