/// The state of a `retry(_:)` subscription: the current upstream subscription, the
/// retries left, the subscriber's demand, and whether a resubscription is under way.
///
/// A value type with no lock of its own: ``RetrySubscription`` keeps it in
/// ``Guarded/state``, feeds it events under the lock, and carries out the returned action
/// once it has unlocked.
struct RetryStateMachine<Upstream: Publisher, Downstream> {
  /// Whether the subscription still runs.
  private enum Phase {
    /// It runs: holds the publisher to subscribe to again and the subscriber, which
    /// both go when it ends.
    case ready(Upstream, Downstream)
    /// Completed or cancelled: nothing more passes.
    case terminal
  }

  /// Whether the subscription still runs.
  private var phase: Phase
  /// The subscription of the current attempt, once it has arrived.
  private var upstream: (any Subscription)?
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

  /// A subscription that will retry `upstream` at most `retries` times (`nil`: for ever).
  init(upstream: Upstream, retries: Int?, downstream: Downstream) {
    phase = .ready(upstream, downstream)
    remaining = retries
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
  @inline(__always) mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
    guard case .ready(_, let downstream) = phase, upstream == nil else { return .cancel }
    upstream = subscription
    guard downstreamNeedsSubscription else { return .resume(request: demand) }
    downstreamNeedsSubscription = false
    return .start(downstream, request: demand)
  }

  /// What to do with a value from upstream.
  enum ValueAction {
    /// The subscription has ended: drop it.
    case drop
    /// One unit of demand is taken: deliver it to this subscriber, then report what
    /// it returns with ``demandAdded(_:)``.
    case deliver(to: Downstream)
  }

  /// A value arrived. Traps on a value nobody asked for, as Combine does (its demand
  /// would go negative).
  @inline(__always) mutating func valueArrived() -> ValueAction {
    guard case .ready(_, let downstream) = phase else { return .drop }
    precondition(demand > .none, "API Violation: received a value without demand")
    demand -= 1
    return .deliver(to: downstream)
  }

  /// The subscriber returned `more` from a delivery. Counted even if it cancelled
  /// meanwhile, as Combine does: the cancelled attempt ignores the request.
  ///
  /// - Returns: The current attempt's subscription, to ask for `more` once unlocked.
  @inline(__always) mutating func demandAdded(_ more: Subscribers.Demand) -> (any Subscription)? {
    demand += more
    return upstream
  }

  /// The subscriber asked for `additional` more; an ended subscription ignores it.
  ///
  /// - Returns: The current attempt's subscription, to ask once unlocked.
  @inline(__always) mutating func demandRequested(_ additional: Subscribers.Demand) -> (any Subscription)? {
    guard case .ready = phase else { return nil }
    return demandAdded(additional)
  }

  /// What to do when upstream completes.
  enum CompletionAction {
    /// The subscription has ended, or a resubscription under way will retry once it
    /// returns: nothing to do now.
    case ignore
    /// Subscribe to this publisher again, then ask ``resubscribed()`` whether to
    /// repeat.
    case resubscribe(Upstream)
    /// Deliver the completion to this subscriber: the subscription ends.
    case complete(Downstream)
  }

  /// Upstream completed: a failure is retried while retries are left.
  @inline(__always) mutating func completed(failed: Bool) -> CompletionAction {
    guard case .ready(let publisher, let downstream) = phase else { return .ignore }
    guard failed, remaining.map({ $0 != 0 }) ?? true else {
      phase = .terminal
      return .complete(downstream)
    }
    upstream = nil
    remaining = remaining.map { $0 - 1 }
    guard !isResubscribing else {
      needsResubscribe = true
      return .ignore
    }
    isResubscribing = true
    return .resubscribe(publisher)
  }

  /// What to do once a resubscription has returned.
  enum ResubscribedAction {
    /// The attempt failed meanwhile (and a retry was left): subscribe again.
    case again
    /// Done.
    case done
  }

  /// A resubscription returned.
  @inline(__always) mutating func resubscribed() -> ResubscribedAction {
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
  @inline(__always) mutating func cancelled() -> (any Subscription)? {
    guard case .ready = phase else { return nil }
    phase = .terminal
    return upstream
  }
}
