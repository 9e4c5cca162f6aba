/// The state of a `Concatenate` subscription: which upstream is active, and the demand
/// the prefix has not satisfied, which the suffix inherits.
///
/// A value type with no lock of its own: ``ConcatenateInner`` keeps it (in a
/// ``ConcatenateState``) in its guarded state, feeds it events under the lock, and
/// carries out the returned action once it has unlocked.
///
/// Not generic: the suffix publisher waits in ``ConcatenateState`` instead, so that the
/// subscription's unspecialised code reaches this state without looking up its type's
/// metadata on every value.
struct ConcatenateStateMachine {
  /// Which upstream is active.
  private enum Phase {
    /// The prefix has not sent its subscription yet.
    case awaitingPrefix
    /// The prefix runs; the suffix publisher waits for its finish.
    case prefix(any Subscription)
    /// The prefix finished and the suffix publisher has been handed its subscriber.
    case awaitingSuffix
    /// The suffix runs.
    case suffix(any Subscription)
    /// Either upstream completed, or the subscriber cancelled.
    case terminal
  }

  /// Which upstream is active, with its subscription.
  private var phase = Phase.awaitingPrefix
  /// Demand requested downstream and not yet satisfied by the prefix: what the suffix
  /// is asked for when it subscribes.
  private var pending = Subscribers.Demand.none

  /// A subscription waiting for the prefix.
  init() {}

  /// The subscription of whichever upstream is active.
  private var active: (any Subscription)? {
    switch phase {
    case .prefix(let subscription), .suffix(let subscription): subscription
    case .awaitingPrefix, .awaitingSuffix, .terminal: nil
    }
  }

  /// What to do with either upstream's subscription.
  enum SubscriptionAction {
    /// The prefix's: hand the subscription downstream.
    case handDownstream
    /// The suffix's: ask it for the demand the prefix left (nothing when none is left).
    case request(Subscribers.Demand)
    /// Not expected now (a second one, or the subscriber cancelled): cancel it.
    case cancel
  }

  /// The prefix sent its subscription.
  mutating func prefixSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
    switch phase {
    case .awaitingPrefix:
      phase = .prefix(subscription)
      return .handDownstream
    case .prefix, .awaitingSuffix, .suffix, .terminal:
      // A second subscription, or one after a cancel: Combine cancels it.
      return .cancel
    }
  }

  /// The suffix sent its subscription.
  mutating func suffixSubscribed(_ subscription: any Subscription) -> SubscriptionAction {
    switch phase {
    case .awaitingSuffix:
      phase = .suffix(subscription)
      return .request(pending)
    case .awaitingPrefix, .prefix, .suffix, .terminal:
      // A second subscription, or one after a cancel: Combine cancels it.
      return .cancel
    }
  }

  /// What to do with a value from either upstream.
  enum ValueAction {
    /// It comes from an upstream that is not active, or (from the prefix) nobody asked
    /// for it: drop it.
    case drop
    /// Deliver it.
    case deliver
  }

  /// A value arrived from the prefix. The demand is taken before the value goes down,
  /// so a value sent re-entrantly from inside the delivery sees the reduced demand and
  /// is dropped when none is left, as in Combine.
  mutating func prefixValueArrived() -> ValueAction {
    switch phase {
    case .prefix:
      guard pending > 0 else { return .drop }
      pending -= 1
      return .deliver
    case .awaitingPrefix, .awaitingSuffix, .suffix, .terminal:
      // Upstream sends asynchronously: a value may still come after its end or a cancel.
      return .drop
    }
  }

  /// A value arrived from the suffix, which tracks demand itself.
  func suffixValueArrived() -> ValueAction {
    switch phase {
    case .suffix: return .deliver
    case .awaitingPrefix, .prefix, .awaitingSuffix, .terminal: return .drop
    }
  }

  /// The subscriber returned `more` from the delivery of a prefix value.
  mutating func demandAdded(_ more: Subscribers.Demand) { pending += more }

  /// What to do when the prefix completes.
  enum PrefixCompletionAction {
    /// The prefix is not active: ignore it.
    case ignore
    /// It finished: subscribe to the suffix.
    case subscribeSuffix
    /// It failed: deliver the failure.
    case fail
  }

  /// The prefix completed; a finish hands over to the suffix.
  mutating func prefixCompleted(failed: Bool) -> PrefixCompletionAction {
    switch phase {
    case .prefix:
      guard !failed else {
        phase = .terminal
        return .fail
      }
      phase = .awaitingSuffix
      return .subscribeSuffix
    case .awaitingPrefix, .awaitingSuffix, .suffix, .terminal:
      // A second completion, or one after a cancel.
      return .ignore
    }
  }

  /// What to do when the suffix completes.
  enum SuffixCompletionAction {
    /// The suffix is not active: ignore it.
    case ignore
    /// Deliver the completion: the subscription ends.
    case complete
  }

  /// The suffix completed.
  mutating func suffixCompleted() -> SuffixCompletionAction {
    switch phase {
    case .suffix:
      phase = .terminal
      return .complete
    case .awaitingPrefix, .prefix, .awaitingSuffix, .terminal:
      return .ignore
    }
  }

  /// The subscriber asked for `additional` more: it is recorded for the suffix and
  /// passed to the active upstream.
  ///
  /// - Returns: The active upstream's subscription, to ask once unlocked.
  mutating func demandRequested(_ additional: Subscribers.Demand) -> (any Subscription)? {
    pending += additional
    return active
  }

  /// The subscriber cancelled: everything ends.
  ///
  /// - Returns: The active upstream's subscription, to cancel once unlocked.
  mutating func cancelled() -> (any Subscription)? {
    let active = self.active
    phase = .terminal
    return active
  }
}

/// A ``ConcatenateStateMachine`` with the suffix publisher it subscribes to once the
/// prefix finishes: what ``ConcatenateInner`` keeps in its guarded state.
///
/// The machine comes first, so that its place does not depend on the publisher's type.
struct ConcatenateState<Suffix> {
  /// Which upstream is active, and the demand the suffix inherits.
  var machine = ConcatenateStateMachine()
  /// The publisher to subscribe to after the prefix; let go once handed over, or on
  /// cancellation, so that whatever it holds is released promptly.
  private var suffix: Suffix?

  /// A subscription that will subscribe to `suffix` once the prefix finishes.
  init(suffix: Suffix) { self.suffix = suffix }

  /// What to do when the prefix completes.
  enum PrefixCompletionAction {
    /// The prefix is not active: ignore it.
    case ignore
    /// It finished: subscribe to this publisher.
    case subscribe(Suffix)
    /// It failed: deliver the failure.
    case fail
  }

  /// The prefix completed; a finish hands over to the suffix.
  mutating func prefixCompleted(failed: Bool) -> PrefixCompletionAction {
    switch machine.prefixCompleted(failed: failed) {
    case .ignore:
      return .ignore
    case .fail:
      suffix = nil
      return .fail
    case .subscribeSuffix:
      guard let next = suffix.take() else { return .ignore }
      return .subscribe(next)
    }
  }

  /// What to do when the subscriber cancels.
  enum CancelAction {
    /// Cancel the active upstream, if any, and release the suffix publisher if it had
    /// not been subscribed to (once unlocked: its `deinit` may run any code that
    /// re-enters the subscription).
    case cancel((any Subscription)?, releasing: Suffix?)
  }

  /// The subscriber cancelled: everything ends.
  mutating func cancelled() -> CancelAction {
    .cancel(machine.cancelled(), releasing: suffix.take())
  }
}
