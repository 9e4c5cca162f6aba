/// Where an operator or subscriber stands with its upstream subscription: the states of
/// the one subscription lifecycle that every engine follows (see ``Lifecycle``).
///
/// ```
/// awaitingSubscription ──adopt──▶ subscribed ──terminate──▶ terminal
///                                      │                        ▲
///                                      └─holdCompletion─▶ pendingTerminal ─endPending─┘
/// ```
///
/// Kept under the owner's lock and moved only by the transitions below; the owner moves
/// it, unlocks, and only then calls upstream or downstream.
@usableFromInline
package enum SubscriptionStatus {
  /// No subscription has arrived yet.
  case awaitingSubscription
  /// Subscribed; holds the upstream subscription.
  case subscribed(any Subscription)
  /// The upstream completed and the completion waits on a scheduler; holds the upstream
  /// subscription, so that a value delivered ahead of it can still ask for more. Only
  /// the operators that deliver on a scheduler (`receive(on:)`, `delay`, `throttle`)
  /// pass through it, as Combine's do.
  case pendingTerminal(any Subscription)
  /// Completed or cancelled: nothing more passes.
  case terminal

  /// The upstream subscription, while subscribed or while a completion is pending.
  @inlinable
  package var subscription: (any Subscription)? {
    switch self {
    case .subscribed(let subscription), .pendingTerminal(let subscription): subscription
    case .awaitingSubscription, .terminal: nil
    }
  }

  /// Whether it is subscribed: not before the upstream subscription arrives, nor once
  /// the upstream completed (even with its completion pending) or it was cancelled.
  @inlinable
  package var isSubscribed: Bool {
    if case .subscribed = self { return true }
    return false
  }

  /// Whether it holds its upstream subscription: subscribed, or with a completion
  /// pending. (``subscription`` `!= nil`, without copying the subscription out.)
  @inlinable
  package var holdsSubscription: Bool {
    switch self {
    case .subscribed, .pendingTerminal: true
    case .awaitingSubscription, .terminal: false
    }
  }

  /// Whether it has ended (completed, failed or cancelled).
  @inlinable
  package var hasEnded: Bool {
    if case .terminal = self { return true }
    return false
  }

  /// Takes `subscription` if none has arrived yet, moving to ``subscribed(_:)``.
  ///
  /// - Returns: Whether it was taken; if not (a second subscription, or one after the
  ///   end), the caller cancels it once it has unlocked, as Combine does.
  @inlinable @inline(__always)
  package mutating func adopt(_ subscription: any Subscription) -> Bool {
    guard case .awaitingSubscription = self else { return false }
    self = .subscribed(subscription)
    return true
  }

  /// Ends a subscribed status, moving to ``terminal``.
  ///
  /// - Returns: The upstream subscription, for the caller to cancel (or to answer a
  ///   completion for) once it has unlocked; `nil` if not subscribed (not yet, already
  ///   ended, or with a completion pending), so that a cancel or a completion acts at
  ///   most once.
  @inlinable @inline(__always)
  package mutating func terminate() -> (any Subscription)? {
    guard case .subscribed(let subscription) = self else { return nil }
    self = .terminal
    return subscription
  }

  /// Marks the upstream completed while its completion waits on a scheduler, moving a
  /// subscribed status to ``pendingTerminal(_:)``.
  ///
  /// - Returns: The upstream subscription, or `nil` if not subscribed (nothing moved).
  @inlinable
  package mutating func holdCompletion() -> (any Subscription)? {
    guard case .subscribed(let subscription) = self else { return nil }
    self = .pendingTerminal(subscription)
    return subscription
  }

  /// Ends a pending completion, moving to ``terminal`` as it is delivered.
  ///
  /// - Returns: Whether a completion was pending (and so is to be delivered now).
  @inlinable
  package mutating func endPending() -> Bool {
    guard case .pendingTerminal = self else { return false }
    self = .terminal
    return true
  }

  /// Lets go of the upstream subscription without ending, moving a subscribed status back
  /// to ``awaitingSubscription``: Combine's looser shape (`dropFirst`, ReactiveExtras'
  /// `materialize`), whose completion clears an optional upstream, so that a subscription
  /// arriving after it is taken rather than cancelled.
  ///
  /// - Returns: The upstream subscription it held, if subscribed; nothing moves otherwise.
  @inlinable
  package mutating func release() -> (any Subscription)? {
    guard case .subscribed(let subscription) = self else { return nil }
    self = .awaitingSubscription
    return subscription
  }

  /// Ends the status from any state, as an operator that gives up on its upstream must
  /// (a timeout firing, a cancel that also drops a pending completion).
  ///
  /// - Returns: The upstream subscription it held, if any.
  @inlinable
  package mutating func end() -> (any Subscription)? {
    defer { self = .terminal }
    return subscription
  }
}
