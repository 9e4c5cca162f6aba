/// The state of a `switchToLatest` subscription: the upstream of publishers, the newest
/// inner publisher, and the subscriber's demand.
///
/// A value type with no lock of its own: ``SwitchSubscription`` keeps it in
/// its guarded state, feeds it events under the lock, and carries out the returned action
/// once it has unlocked. Each inner publisher gets a generation, so that events from a
/// replaced one are told apart and ignored.
///
/// The values' path (``innerValueArrived(generation:)``) reads only plain fields: matching
/// an enum that holds a subscription would copy it, a retain and a release per value.
struct SwitchToLatestStateMachine {
  /// Where the newest inner publisher stands.
  private enum Inner {
    /// It has been handed its subscriber but has not sent its subscription yet;
    /// upstream's finish waits for it.
    case awaitingSubscription
    /// It is subscribed.
    case subscribed(any Subscription)
    /// No inner publisher runs: none came yet, or the current one has completed or
    /// been let go.
    case idle

    /// The inner subscription, if one is running.
    var subscription: (any Subscription)? {
      if case .subscribed(let subscription) = self { return subscription }
      return nil
    }
  }

  /// The upstream subscription (the publisher of publishers) while it runs.
  private var outer: (any Subscription)?
  /// The newest inner publisher.
  private var inner = Inner.idle
  /// The generation of the newest inner publisher, whose events count (0 before the
  /// first); older ones are ignored. Kept apart from ``inner`` so that checking a value's
  /// generation does not copy the subscription.
  private var generation: UInt64 = 0
  /// The generation the next inner publisher gets.
  private var nextGeneration: UInt64 = 1
  /// The subscriber cancelled, or an inner publisher failed: nothing more passes.
  private var isCancelled = false
  /// Upstream completed: no inner publisher will replace the current one, whose finish
  /// is then the subscription's.
  private var isOuterFinished = false
  /// A completion went downstream: no second one may follow.
  private var sentCompletion = false
  /// What the subscriber has asked for and not yet received; carried over to each new
  /// inner publisher.
  private var demand = Subscribers.Demand.none

  // MARK: Upstream

  /// What to do with upstream's subscription.
  enum OuterSubscriptionAction {
    /// Ask upstream for unlimited inner publishers.
    case requestUnlimited
    /// A subscription is already there, or the subscription was cancelled: cancel it.
    case cancel
  }

  /// Upstream sent its subscription.
  mutating func outerSubscribed(_ subscription: any Subscription) -> OuterSubscriptionAction {
    guard outer == nil, !isCancelled else { return .cancel }
    outer = subscription
    return .requestUnlimited
  }

  /// What to do with a new inner publisher.
  enum PublisherAction {
    /// The subscription has ended: drop it.
    case ignore
    /// Cancel the replaced inner subscription, if any, then subscribe to the new
    /// publisher under this generation.
    case subscribe(generation: UInt64, replacing: (any Subscription)?)
  }

  /// Upstream sent a new inner publisher: it replaces the current one.
  mutating func publisherArrived() -> PublisherAction {
    guard !isCancelled, !isOuterFinished else { return .ignore }
    let replaced = inner.subscription
    generation = nextGeneration
    nextGeneration += 1
    inner = .awaitingSubscription
    return .subscribe(generation: generation, replacing: replaced)
  }

  /// What to do when one side completes.
  enum CompletionAction {
    /// Nothing goes downstream (yet, or any more).
    case ignore
    /// Cancel the other side's subscription, if any, then deliver the completion.
    case complete(cancelling: (any Subscription)?)
  }

  /// Upstream finished: downstream finishes now if no inner publisher runs or is about
  /// to, or later with the current one.
  mutating func outerFinished() -> CompletionAction {
    outer = nil
    isOuterFinished = true
    guard !isCancelled, case .idle = inner else { return .ignore }
    sentCompletion = true
    return .complete(cancelling: nil)
  }

  /// Upstream failed: the failure ends everything, with the current inner subscription.
  mutating func outerFailed() -> CompletionAction {
    outer = nil
    isOuterFinished = true
    guard !isCancelled else { return .ignore }
    let replaced = inner.subscription
    // One still awaiting its subscription stays so: Combine lets its subscription in.
    if replaced != nil { inner = .idle }
    sentCompletion = true
    return .complete(cancelling: replaced)
  }

  // MARK: Downstream

  /// The subscriber asked for `additional` more: the current inner subscription, if
  /// any, is asked for as much.
  mutating func demandRequested(_ additional: Subscribers.Demand) -> (any Subscription)? {
    demand += additional
    return inner.subscription
  }

  /// What to do when the subscriber cancels.
  enum CancelAction {
    /// Cancel the inner subscription and upstream, whichever are running.
    case cancel(inner: (any Subscription)?, outer: (any Subscription)?)
  }

  /// The subscriber cancelled: both sides go.
  mutating func cancelled() -> CancelAction {
    isCancelled = true
    let running = inner.subscription
    let action = CancelAction.cancel(inner: running, outer: outer)
    if running != nil { inner = .idle }
    outer = nil
    return action
  }

  // MARK: The current inner publisher

  /// What to do with an inner publisher's subscription.
  enum InnerSubscriptionAction {
    /// Ask it for the outstanding demand (nothing when there is none).
    case request(Subscribers.Demand)
    /// It was replaced, or the subscription ended: cancel it.
    case cancel
  }

  /// The inner publisher of `generation` sent its subscription.
  mutating func innerSubscribed(_ subscription: any Subscription, generation: UInt64)
    -> InnerSubscriptionAction
  {
    guard self.generation == generation, !isCancelled, inner.subscription == nil else {
      return .cancel
    }
    inner = .subscribed(subscription)
    return .request(demand)
  }

  /// What to do with a value from an inner publisher.
  enum InnerValueAction {
    /// It comes from a replaced publisher, or the subscription ended: drop it.
    case drop
    /// One unit of demand is taken: deliver it, then add what the subscriber returns.
    case deliver
  }

  /// A value arrived from the inner publisher of `generation`. Traps on a value nobody
  /// asked for, as Combine does (its demand would go negative).
  mutating func innerValueArrived(generation: UInt64) -> InnerValueAction {
    guard self.generation == generation, !isCancelled else { return .drop }
    precondition(demand > .none, "API Violation: received a value without demand")
    demand -= 1
    return .deliver
  }

  /// The subscriber returned `more` from a delivery.
  mutating func demandAdded(_ more: Subscribers.Demand) { demand += more }

  /// The inner publisher of `generation` finished: downstream finishes too if upstream
  /// already has.
  mutating func innerFinished(generation: UInt64) -> CompletionAction {
    guard innerEnded(generation: generation) else { return .ignore }
    guard !sentCompletion, isOuterFinished else { return .ignore }
    sentCompletion = true
    return .complete(cancelling: nil)
  }

  /// The inner publisher of `generation` failed: the failure ends everything, with
  /// upstream.
  mutating func innerFailed(generation: UInt64) -> CompletionAction {
    guard innerEnded(generation: generation), !sentCompletion else { return .ignore }
    isCancelled = true
    let outer = self.outer
    self.outer = nil
    sentCompletion = true
    return .complete(cancelling: outer)
  }

  /// Lets go of the inner publisher of `generation` if it is the current one; traps on
  /// a completion before its subscription, as Combine does.
  ///
  /// - Returns: Whether its completion counts.
  private mutating func innerEnded(generation: UInt64) -> Bool {
    guard self.generation == generation, !isCancelled else { return false }
    if case .awaitingSubscription = inner { preconditionFailure("Unexpected completion") }
    inner = .idle
    return true
  }
}
