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

extension Lock {
  /// Takes `subscription` as the upstream subscription if none has arrived yet, moving
  /// `status` to `.subscribed`; otherwise cancels it, as Combine does with a second
  /// subscription, and returns `false`.
  ///
  /// The step every lock-based operator takes first. The check and the move happen under
  /// this lock; the cancel happens after it is released, so upstream never runs under it.
  ///
  /// - Parameters:
  ///   - subscription: the subscription upstream just sent.
  ///   - status: the owner's status, which this lock guards.
  /// - Returns: whether the owner should now hand itself downstream.
  @inlinable @inline(__always)
  func adopt(_ subscription: any Subscription, into status: inout SubscriptionStatus) -> Bool {
    lock()
    guard case .awaitingSubscription = status else {
      unlock()
      subscription.cancel()
      return false
    }
    status = .subscribed(subscription)
    unlock()
    return true
  }
}

extension Lock {
  /// Ends a subscribed `status` under this lock, moving it to `.terminal`, and returns the
  /// upstream subscription it held; returns `nil` if it was not subscribed (not yet, or
  /// already ended), so that a cancel or a completion acts at most once.
  ///
  /// The caller cancels the returned subscription, or tells downstream, after this lock is
  /// released.
  ///
  /// - Parameters:
  ///   - status: the owner's status, which this lock guards.
  ///   - alsoUnderLock: more state to clear (or mark) in the same critical section, only
  ///     when `status` was subscribed; it must not call user code, upstream or downstream.
  /// - Returns: the upstream subscription, if `status` was subscribed.
  @inlinable @inline(__always)
  func terminate(
    _ status: inout SubscriptionStatus, alsoUnderLock: () -> Void = {}
  ) -> (any Subscription)? {
    lock()
    guard case .subscribed(let subscription) = status else {
      unlock()
      return nil
    }
    status = .terminal
    alsoUnderLock()
    unlock()
    return subscription
  }
}
