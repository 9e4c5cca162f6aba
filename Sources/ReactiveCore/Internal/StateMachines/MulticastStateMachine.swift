/// The state of the subscription that stands between a multicast's subject and one
/// subscriber: it keeps the subscriber until it ends, and the subject's subscription
/// once it has arrived.
///
/// A value type with no lock of its own: ``MulticastSubscription`` keeps it in
/// ``Guarded/state``, feeds it events under the lock, and carries out the returned action
/// once it has unlocked.
struct MulticastStateMachine<Downstream> {
  /// Where the subscription stands.
  private enum State {
    /// Waiting for the subject's subscription.
    case ready(Downstream)
    /// The subject's subscription has arrived.
    case subscribed(Downstream, any Subscription)
    /// Completed or cancelled: the subscriber is let go.
    case terminal
  }

  /// Where the subscription stands; the subscriber is held only while it runs.
  private var state: State

  /// A subscription for `downstream`, waiting for the subject.
  init(downstream: Downstream) { state = .ready(downstream) }

  /// What to do with the subject's subscription.
  enum SubscriptionAction {
    /// Hand this subscription to the subscriber.
    case handTo(Downstream)
    /// One has arrived already, or the subscription ended: cancel it.
    case cancel
  }

  /// The subject sent its subscription.
  @inline(__always)
  mutating func subscribed(_ subscription: any Subscription) -> SubscriptionAction {
    guard case .ready(let downstream) = state else { return .cancel }
    state = .subscribed(downstream, subscription)
    return .handTo(downstream)
  }

  /// What to do with a value, or a request, while the subscription runs.
  enum ForwardAction {
    /// The subscription is not running: nothing passes.
    case ignore
    /// Pass it on: the value to this subscriber, and what it returns (or the request)
    /// to this subscription of the subject.
    case forward(Downstream, any Subscription)
  }

  /// A value arrived from the subject, or the subscriber asked for more.
  @inline(__always)
  func running() -> ForwardAction {
    guard case .subscribed(let downstream, let subscription) = state else { return .ignore }
    return .forward(downstream, subscription)
  }

  /// What to do when the subject completes or the subscriber cancels.
  enum EndAction {
    /// The subscription is not running: nothing to do.
    case ignore
    /// Deliver the completion to this subscriber, or cancel this subscription of the
    /// subject: the subscription ends.
    case end(Downstream, any Subscription)
  }

  /// The subject completed, or the subscriber cancelled: the subscription ends, and
  /// lets go of the subscriber.
  @inline(__always)
  mutating func ended() -> EndAction {
    guard case .subscribed(let downstream, let subscription) = state else { return .ignore }
    state = .terminal
    return .end(downstream, subscription)
  }
}
