/// The state of a subscription in the shape of Combine's looser operators (`encode`,
/// `decode`, `collect(_:)`), which track an optional upstream and whether the stream has
/// ended instead of a ``SubscriptionStatus``: a value or completion may arrive before
/// the subscription, and they follow Combine in letting it.
protocol LooseUpstreamState {
  /// The upstream subscription, from its arrival until the stream ends.
  var upstream: (any Subscription)? { get set }
  /// Whether the stream has ended (completed, failed or cancelled), so that a late
  /// subscription is cancelled rather than taken.
  var isFinished: Bool { get set }
}

extension Guarded where State: LooseUpstreamState {
  /// Takes `subscription` as the upstream if none is held and the stream has not ended;
  /// otherwise cancels it (after unlocking, so the upstream never runs under the lock)
  /// and returns `false`.
  ///
  /// - Returns: Whether the owner should now hand itself downstream.
  final func adoptUnlessFinished(_ subscription: any Subscription) -> Bool {
    lock.lock()
    guard !stateAssumingLocked.isFinished, stateAssumingLocked.upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return false
    }
    stateAssumingLocked.upstream = subscription
    lock.unlock()
    return true
  }
}
