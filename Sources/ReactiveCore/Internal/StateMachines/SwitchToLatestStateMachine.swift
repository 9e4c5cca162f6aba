/// The state of a `switchToLatest` subscription: the upstream of publishers, the newest
/// inner publisher, and the subscriber's demand.
///
/// A value type with no lock of its own: ``SwitchSubscription`` keeps it in
/// its guarded state, feeds it events under the lock, and carries out the returned action
/// once it has unlocked. Each inner publisher gets a generation, so that events from a
/// replaced one are told apart and ignored.
///
/// Each event switches on every case of ``State``. The values' path
/// (``innerValueArrived(generation:)``) compares the generation, a plain field, first, then
/// matches the state's case without binding its payload: binding a subscription out of the
/// enum would copy it, a retain and a release per value.
struct SwitchToLatestStateMachine {
  /// Where the newest inner publisher stands.
  enum Inner {
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
      switch self {
      case .subscribed(let subscription): subscription
      case .awaitingSubscription, .idle: nil
      }
    }
  }

  /// Where the subscription stands: each event switches on every case.
  ///
  /// Only the subscriber's cancel and an inner publisher's failure end it. After a
  /// completion on upstream's account, Combine still passes what the newest inner
  /// publisher sends, and each further completion from a misbehaving upstream.
  enum State {
    /// Upstream has not sent its subscription yet. `inner` is idle unless a misbehaving
    /// upstream sent a publisher first, which Combine subscribes to.
    case awaitingUpstream(inner: Inner)
    /// Upstream runs: each publisher it sends replaces `inner`.
    case running(outer: any Subscription, inner: Inner)
    /// Upstream finished while `inner` was subscribed or awaiting its subscription: its
    /// finish is the subscription's. `outer` is a subscription that a misbehaving
    /// upstream sent after finishing, which Combine takes; `nil` otherwise.
    case upstreamFinished(outer: (any Subscription)?, inner: Inner)
    /// Upstream completed and a completion went downstream: upstream's failure, or the
    /// finish once upstream had finished and no inner publisher ran. `outer` is as in
    /// `upstreamFinished`.
    case completed(outer: (any Subscription)?, inner: Inner)
    /// The subscriber cancelled, or an inner publisher failed: nothing more passes.
    case ended
  }

  /// Where the subscription stands, with the subscriptions it holds.
  private(set) var state = State.awaitingUpstream(inner: .idle)
  /// The generation of the newest inner publisher, whose events count (0 before the
  /// first); older ones are ignored. Kept apart from ``state`` so that checking a value's
  /// generation does not touch the subscriptions.
  private var generation: UInt64 = 0
  /// What the subscriber has asked for and not yet received; carried over to each new
  /// inner publisher.
  private var demand = Subscribers.Demand.none

  /// Whether `generation` is the newest inner publisher's rather than a replaced one's.
  /// ``SwitchSubscription`` feeds only the generations this machine handed out, so a
  /// newer one stops the program.
  @inline(__always)
  private func isNewest(_ generation: UInt64) -> Bool {
    if generation == self.generation { return true }
    if generation > self.generation {
      preconditionFailure(
        "Internal inconsistency: switchToLatest heard from an inner publisher it never made")
    }
    return false
  }

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
    switch state {
    case .awaitingUpstream(let inner):
      state = .running(outer: subscription, inner: inner)
    // One after upstream completed: Combine holds none by then, so it takes this one.
    case .upstreamFinished(.none, let inner):
      state = .upstreamFinished(outer: subscription, inner: inner)
    case .completed(.none, let inner):
      state = .completed(outer: subscription, inner: inner)
    case .running, .upstreamFinished(.some, _), .completed(.some, _), .ended:
      return .cancel
    }
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
    let replaced: (any Subscription)?
    switch state {
    case .awaitingUpstream(let inner):
      replaced = inner.subscription
      state = .awaitingUpstream(inner: .awaitingSubscription)
    case .running(let outer, let inner):
      replaced = inner.subscription
      state = .running(outer: outer, inner: .awaitingSubscription)
    case .upstreamFinished, .completed, .ended:
      // After upstream's completion (only a misbehaving upstream sends then), or the end.
      return .ignore
    }
    generation += 1
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
    switch state {
    case .awaitingUpstream(let inner), .running(_, let inner), .upstreamFinished(_, let inner):
      switch inner {
      case .idle:
        state = .completed(outer: nil, inner: .idle)
        return .complete(cancelling: nil)
      case .awaitingSubscription, .subscribed:
        state = .upstreamFinished(outer: nil, inner: inner)
        return .ignore
      }
    case .completed(_, let inner):
      // A misbehaving upstream's second completion: Combine delivers it again, unless
      // an inner publisher runs or is about to.
      state = .completed(outer: nil, inner: inner)
      switch inner {
      case .idle: return .complete(cancelling: nil)
      case .awaitingSubscription, .subscribed: return .ignore
      }
    case .ended:
      return .ignore
    }
  }

  /// Upstream failed: the failure ends everything, with the current inner subscription.
  /// After a completion (only a misbehaving upstream fails then), Combine delivers it too.
  mutating func outerFailed() -> CompletionAction {
    switch state {
    case .awaitingUpstream(let inner), .running(_, let inner), .upstreamFinished(_, let inner),
      .completed(_, let inner):
      switch inner {
      case .subscribed(let subscription):
        state = .completed(outer: nil, inner: .idle)
        return .complete(cancelling: subscription)
      case .awaitingSubscription:
        // It stays so: Combine lets its subscription in.
        state = .completed(outer: nil, inner: .awaitingSubscription)
        return .complete(cancelling: nil)
      case .idle:
        state = .completed(outer: nil, inner: .idle)
        return .complete(cancelling: nil)
      }
    case .ended:
      return .ignore
    }
  }

  // MARK: Downstream

  /// The subscriber asked for `additional` more: the current inner subscription, if
  /// any, is asked for as much.
  mutating func demandRequested(_ additional: Subscribers.Demand) -> (any Subscription)? {
    demand += additional
    switch state {
    case .awaitingUpstream(let inner), .running(_, let inner), .upstreamFinished(_, let inner),
      .completed(_, let inner):
      return inner.subscription
    case .ended:
      return nil
    }
  }

  /// What to do when the subscriber cancels.
  enum CancelAction {
    /// Cancel the inner subscription and upstream, whichever are running.
    case cancel(inner: (any Subscription)?, outer: (any Subscription)?)
  }

  /// The subscriber cancelled: both sides go.
  mutating func cancelled() -> CancelAction {
    let action: CancelAction
    switch state {
    case .awaitingUpstream(let inner):
      action = .cancel(inner: inner.subscription, outer: nil)
    case .running(let outer, let inner):
      action = .cancel(inner: inner.subscription, outer: outer)
    case .upstreamFinished(let outer, let inner), .completed(let outer, let inner):
      action = .cancel(inner: inner.subscription, outer: outer)
    case .ended:
      return .cancel(inner: nil, outer: nil)
    }
    state = .ended
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

  /// The inner publisher of `generation` sent its subscription. The newest one's is
  /// taken even after it completed or was let go, as Combine does, unless one is
  /// already there.
  mutating func innerSubscribed(_ subscription: any Subscription, generation: UInt64)
    -> InnerSubscriptionAction
  {
    guard isNewest(generation) else { return .cancel }
    switch state {
    case .awaitingUpstream(.awaitingSubscription), .awaitingUpstream(.idle):
      state = .awaitingUpstream(inner: .subscribed(subscription))
    case .running(let outer, .awaitingSubscription), .running(let outer, .idle):
      state = .running(outer: outer, inner: .subscribed(subscription))
    case .upstreamFinished(let outer, .awaitingSubscription),
      .upstreamFinished(let outer, .idle):
      state = .upstreamFinished(outer: outer, inner: .subscribed(subscription))
    case .completed(let outer, .awaitingSubscription), .completed(let outer, .idle):
      state = .completed(outer: outer, inner: .subscribed(subscription))
    case .awaitingUpstream(.subscribed), .running(_, .subscribed),
      .upstreamFinished(_, .subscribed), .completed(_, .subscribed), .ended:
      // A second subscription, or one after the end: Combine cancels it.
      return .cancel
    }
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
    guard isNewest(generation) else { return .drop }
    switch state {
    case .awaitingUpstream, .running, .upstreamFinished, .completed:
      // Whether the newest publisher awaits its subscription or has completed, Combine
      // delivers its value.
      precondition(demand > .none, "API Violation: received a value without demand")
      demand -= 1
      return .deliver
    case .ended:
      return .drop
    }
  }

  /// The subscriber returned `more` from a delivery. Kept alike in every state (Combine
  /// counts it even after a cancel), so this step of the values' path switches on none.
  mutating func demandAdded(_ more: Subscribers.Demand) { demand += more }

  /// The inner publisher of `generation` finished: downstream finishes too if upstream
  /// already has. Traps on a completion before its subscription, as Combine does.
  mutating func innerFinished(generation: UInt64) -> CompletionAction {
    guard isNewest(generation) else { return .ignore }
    switch state {
    case .awaitingUpstream(.awaitingSubscription), .running(_, .awaitingSubscription),
      .upstreamFinished(_, .awaitingSubscription), .completed(_, .awaitingSubscription):
      preconditionFailure("Unexpected completion")
    case .awaitingUpstream(.subscribed), .awaitingUpstream(.idle):
      state = .awaitingUpstream(inner: .idle)
      return .ignore
    case .running(let outer, .subscribed), .running(let outer, .idle):
      state = .running(outer: outer, inner: .idle)
      return .ignore
    case .upstreamFinished(let outer, .subscribed), .upstreamFinished(let outer, .idle):
      state = .completed(outer: outer, inner: .idle)
      return .complete(cancelling: nil)
    case .completed(let outer, .subscribed), .completed(let outer, .idle):
      state = .completed(outer: outer, inner: .idle)
      return .ignore
    case .ended:
      return .ignore
    }
  }

  /// The inner publisher of `generation` failed: the failure ends everything, with
  /// upstream, unless a completion went downstream already. Traps on a completion
  /// before its subscription, as Combine does.
  mutating func innerFailed(generation: UInt64) -> CompletionAction {
    guard isNewest(generation) else { return .ignore }
    let cancelling: (any Subscription)?
    switch state {
    case .awaitingUpstream(.awaitingSubscription), .running(_, .awaitingSubscription),
      .upstreamFinished(_, .awaitingSubscription), .completed(_, .awaitingSubscription):
      preconditionFailure("Unexpected completion")
    case .awaitingUpstream(.subscribed), .awaitingUpstream(.idle):
      cancelling = nil
    case .running(let outer, .subscribed), .running(let outer, .idle):
      cancelling = outer
    case .upstreamFinished(let outer, .subscribed), .upstreamFinished(let outer, .idle):
      cancelling = outer
    case .completed(let outer, .subscribed), .completed(let outer, .idle):
      state = .completed(outer: outer, inner: .idle)
      return .ignore
    case .ended:
      return .ignore
    }
    state = .ended
    return .complete(cancelling: cancelling)
  }
}
