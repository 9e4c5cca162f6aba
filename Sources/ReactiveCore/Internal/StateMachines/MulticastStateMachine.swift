/// The state of the subscription that stands between a multicast's subject and one
/// subscriber: it keeps the subscriber until it ends, and the subject's subscription
/// once it has arrived.
///
/// A value type with no lock of its own: ``MulticastSubscription`` keeps it in
/// its guarded state, feeds it events under the lock, and carries out the returned action
/// once it has unlocked. A value or a request only reads it, which the
/// subscription does in place: it runs unspecialised, and building a generic action per
/// value would look up that action's metadata each time.
@usableFromInline
enum MulticastState<Downstream> {
  /// Waiting for the subject's subscription.
  case ready(Downstream)
  /// The subject's subscription has arrived.
  case subscribed(Downstream, any Subscription)
  /// Completed or cancelled: the subscriber is let go.
  case terminal

  /// What to do with the subject's subscription.
  @usableFromInline
  enum SubscriptionAction {
    /// Hand this subscription to the subscriber.
    case handTo(Downstream)
    /// One has arrived already, or the subscription ended: cancel it.
    case cancel
  }

  /// The subject sent its subscription.
  @inlinable
  mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
    switch self {
    case .ready(let downstream):
      self = .subscribed(downstream, subscription)
      return .handTo(downstream)
    case .subscribed, .terminal:
      // A second subscription, or one after the end: Combine cancels it.
      return .cancel
    }
  }

  /// What to do when the subject completes or the subscriber cancels.
  @usableFromInline
  enum EndAction {
    /// The subscription is not running: nothing to do.
    case ignore
    /// Deliver the completion to this subscriber, or cancel this subscription of the
    /// subject: the subscription ends.
    case end(Downstream, any Subscription)
  }

  /// The subject completed, or the subscriber cancelled: the subscription ends, and
  /// lets go of the subscriber (once unlocked, with the action).
  @inlinable
  mutating func ended() -> EndAction {
    switch self {
    case .subscribed(let downstream, let subscription):
      self = .terminal
      return .end(downstream, subscription)
    case .ready, .terminal:
      // Nothing to end before the subscription (a cancel then is kept for it by the
      // caller), nor twice.
      return .ignore
    }
  }
}
