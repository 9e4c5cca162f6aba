/// Where an operator or subscriber stands with its upstream subscription.
///
/// Kept under the owner's lock; the owner moves it to the next state, unlocks, and only
/// then calls upstream or downstream.
@usableFromInline
enum SubscriptionStatus {
  /// No subscription has arrived yet.
  case awaitingSubscription
  /// Subscribed; holds the upstream subscription.
  case subscribed(any Subscription)
  /// Completed or cancelled: nothing more passes.
  case terminal

  /// The upstream subscription, if subscribed.
  @inlinable
  var subscription: (any Subscription)? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }
}
