/// The state of a `retry(_:)` subscription: the current attempt's subscription, the
/// retries left, the subscriber's demand, and whether a resubscription is under way.
///
/// A value type with no lock of its own: ``RetrySubscription`` keeps it (in a
/// ``RetryState``) in its guarded state, feeds it events under the lock, and carries out
/// the returned action once it has unlocked.
///
/// Not generic: the subscriber and the publisher wait beside it in ``RetryState``, so that
/// the subscription's unspecialised code reaches this state without looking up its
/// type's metadata on every value.
struct RetryStateMachine {
  /// Where the subscription stands with upstream.
  private enum Phase {
    /// Waiting for an attempt's subscription: the first, or one after a failure.
    case awaitingAttempt
    /// The current attempt's subscription.
    case attempt(any Subscription)
    /// Completed or cancelled: nothing more passes.
    case terminal
  }

  /// Where the subscription stands with upstream.
  private var phase = Phase.awaitingAttempt
  /// Retries left; `nil` retries for ever.
  private var remaining: Int?
  /// The subscriber sees one subscription throughout: only the first attempt hands it.
  private var downstreamNeedsSubscription = true
  /// What the subscriber has asked for and not yet received; each new attempt is asked
  /// for it.
  private var demand = Subscribers.Demand.none
  /// An attempt is being subscribed to: a failure meanwhile (a publisher that fails at
  /// once) is retried after it returns, not by recursion.
  private var isResubscribing = false
  /// A failure arrived while ``isResubscribing``: subscribe again once it returns.
  private var needsResubscribe = false

  /// A subscription that retries at most `retries` times (`nil`: for ever).
  init(retries: Int?) { remaining = retries }

  /// Whether the subscription has ended.
  var isTerminal: Bool {
    if case .terminal = phase { return true }
    return false
  }

  /// The current attempt's subscription, if any.
  private var attempt: (any Subscription)? {
    if case .attempt(let subscription) = phase { return subscription }
    return nil
  }

  /// What to do with an attempt's subscription.
  enum SubscriptionAction {
    /// The first attempt: hand the subscription to the subscriber, then ask upstream
    /// for the outstanding demand (nothing when there is none).
    case start(request: Subscribers.Demand)
    /// A later attempt: ask upstream for the outstanding demand (nothing when none).
    case resume(request: Subscribers.Demand)
    /// The subscription has ended, or an attempt is already subscribed: cancel it.
    case cancel
  }

  /// An attempt sent its subscription.
  mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
    switch phase {
    case .awaitingAttempt:
      phase = .attempt(subscription)
      guard downstreamNeedsSubscription else { return .resume(request: demand) }
      downstreamNeedsSubscription = false
      return .start(request: demand)
    case .attempt, .terminal:
      // A second subscription for one attempt, or one after the end: Combine cancels it.
      return .cancel
    }
  }

  /// What to do with a value from upstream.
  enum ValueAction {
    /// The subscription has ended: drop it.
    case drop
    /// One unit of demand is taken: deliver it, then report what the subscriber returns
    /// with ``demandAdded(_:)``.
    case deliver
  }

  /// A value arrived. Traps on a value nobody asked for, as Combine does (its demand
  /// would go negative).
  @inline(__always)
  mutating func valueArrived() -> ValueAction {
    switch phase {
    case .awaitingAttempt, .attempt:
      // (Between attempts, a value can only be a late one of the failed attempt.)
      precondition(demand > .none, "API Violation: received a value without demand")
      demand -= 1
      return .deliver
    case .terminal:
      // Upstream sends asynchronously: a value may still come after the end.
      return .drop
    }
  }

  /// The subscriber returned `more` from a delivery. Counted even if it cancelled
  /// meanwhile, as Combine does: the cancelled attempt ignores the request.
  ///
  /// - Returns: The current attempt's subscription, to ask for `more` once unlocked.
  @inline(__always)
  mutating func demandAdded(_ more: Subscribers.Demand) -> (any Subscription)? {
    demand += more
    return attempt
  }

  /// The subscriber asked for `additional` more; an ended subscription ignores it.
  ///
  /// - Returns: The current attempt's subscription, to ask once unlocked.
  mutating func demandRequested(_ additional: Subscribers.Demand) -> (any Subscription)? {
    switch phase {
    case .awaitingAttempt, .attempt: return demandAdded(additional)
    case .terminal: return nil
    }
  }

  /// What to do when upstream completes.
  enum CompletionAction {
    /// The subscription has ended, or a resubscription under way will retry once it
    /// returns: nothing to do now.
    case ignore
    /// Subscribe to the publisher again, then ask ``resubscribed()`` whether to repeat.
    case resubscribe
    /// Deliver the completion: the subscription ends.
    case complete
  }

  /// Upstream completed: a failure is retried while retries are left.
  mutating func completed(failed: Bool) -> CompletionAction {
    switch phase {
    case .awaitingAttempt, .attempt: break
    case .terminal:
      // A completion after the end or a cancel.
      return .ignore
    }
    guard failed, remaining.map({ $0 != 0 }) ?? true else {
      phase = .terminal
      return .complete
    }
    phase = .awaitingAttempt
    remaining = remaining.map { $0 - 1 }
    guard !isResubscribing else {
      needsResubscribe = true
      return .ignore
    }
    isResubscribing = true
    return .resubscribe
  }

  /// What to do once a resubscription has returned.
  enum ResubscribedAction {
    /// The attempt failed meanwhile (and a retry was left): subscribe again.
    case again
    /// Done.
    case done
  }

  /// A resubscription returned.
  mutating func resubscribed() -> ResubscribedAction {
    guard needsResubscribe else {
      isResubscribing = false
      return .done
    }
    needsResubscribe = false
    return .again
  }

  /// The subscriber cancelled.
  ///
  /// - Returns: The current attempt's subscription, to cancel once unlocked.
  mutating func cancelled() -> (any Subscription)? {
    switch phase {
    case .awaitingAttempt:
      phase = .terminal
      return nil
    case .attempt(let attempt):
      phase = .terminal
      return attempt
    case .terminal:
      return nil
    }
  }
}

/// A ``RetryStateMachine`` with the subscriber it serves and the publisher it subscribes
/// to again: what ``RetrySubscription`` keeps in its guarded state. Both are let go when
/// the subscription ends.
///
/// The machine comes first, so that its place does not depend on their types.
struct RetryState<Upstream, Downstream> {
  /// The attempts, the retries left and the demand.
  var machine: RetryStateMachine
  /// The subscriber, until the subscription ends. A value reads it in place, with the
  /// lock held, rather than through a generic action, whose metadata the unspecialised
  /// subscription would look up each time.
  private(set) var downstream: Downstream?
  /// The publisher to subscribe to again, until the subscription ends.
  private var upstream: Upstream?

  /// A subscription for `downstream` that retries `upstream` at most `retries` times
  /// (`nil`: for ever).
  init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    machine = RetryStateMachine(retries: retries)
    self.downstream = downstream
    self.upstream = upstream
  }

  /// What to do with an attempt's subscription.
  enum SubscriptionAction {
    /// The first attempt: hand the subscription to this subscriber, then ask upstream
    /// for the outstanding demand (nothing when there is none).
    case start(Downstream, request: Subscribers.Demand)
    /// A later attempt: ask upstream for the outstanding demand (nothing when none).
    case resume(request: Subscribers.Demand)
    /// The subscription has ended, or an attempt is already subscribed: cancel it.
    case cancel
  }

  /// An attempt sent its subscription.
  mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
    switch machine.subscribed(subscription) {
    case .cancel: return .cancel
    case .resume(let demand): return .resume(request: demand)
    case .start(let demand):
      guard let downstream else { return .cancel }
      return .start(downstream, request: demand)
    }
  }

  /// What to do when upstream completes.
  enum CompletionAction {
    /// Nothing to do now.
    case ignore
    /// Subscribe to this publisher again, then ask
    /// ``RetryStateMachine/resubscribed()`` whether to repeat.
    case resubscribe(Upstream)
    /// Deliver the completion to this subscriber: the subscription ends.
    case complete(Downstream)
  }

  /// Upstream completed; see ``RetryStateMachine/completed(failed:)``.
  mutating func completed(failed: Bool) -> CompletionAction {
    switch machine.completed(failed: failed) {
    case .ignore:
      return .ignore
    case .resubscribe:
      guard let upstream else { return .ignore }
      return .resubscribe(upstream)
    case .complete:
      upstream = nil
      guard let downstream = downstream.take() else { return .ignore }
      return .complete(downstream)
    }
  }

  /// What to do when the subscriber cancels.
  enum CancelAction {
    /// Cancel the current attempt, if any, and release the subscriber (once unlocked:
    /// its `deinit` may run any code).
    case cancel((any Subscription)?, releasing: Downstream?)
  }

  /// The subscriber cancelled: the subscriber and the publisher are let go.
  mutating func cancelled() -> CancelAction {
    guard !machine.isTerminal else { return .cancel(nil, releasing: nil) }
    let attempt = machine.cancelled()
    upstream = nil
    return .cancel(attempt, releasing: downstream.take())
  }
}
