/// The one lifecycle of a subscription with one upstream: its ``SubscriptionStatus`` and
/// the operator's own machine, as one value behind the owner's lock.
///
/// Every single-upstream engine and hand-written subscription keeps a `Lifecycle` as its
/// ``Guarded`` state and moves it through ``Guarded``'s `adopt(_:)`, `terminate(_:)`,
/// `ifSubscribed(_:)` and `holdCompletion(_:)`. The status is read from outside but
/// written only by this type's transitions, so no engine (and no test) can put it in a
/// state its machine did not reach. The machine is the operator's own state: a struct of
/// fields, an explicit state machine, or `Void` for an engine that has none.
///
/// `Subscribers.Sink` and the subject conduit are the documented exceptions, for speed:
/// each says so on its type with its measurement. `dropFirst` and `materialize` keep
/// Combine's looser shape through `release()`; the multi-upstream engines keep
/// what each side needs (`prefix(untilOutputFrom:)` a ``SubscriptionStatus`` per side).
@usableFromInline
package struct Lifecycle<Machine> {
  /// The operator's own state, fed events under the owner's lock.
  ///
  /// First, so that an empty machine (`Void`, ``NoTimingMachine``) sits at the address of
  /// ``status``: at the end it would share its address with whatever the owner stores
  /// next (a lock, the subscriber), and the thread sanitizer would take an `inout` access
  /// to it for a race with that field.
  @usableFromInline
  package var machine: Machine
  /// Where the subscription stands with its upstream; moved only by the transitions.
  @usableFromInline
  package private(set) var status: SubscriptionStatus

  /// A lifecycle awaiting its subscription, with the operator's machine in its starting
  /// state.
  @inlinable
  package init(_ machine: Machine) {
    self.machine = machine
    status = .awaitingSubscription
  }

  /// The upstream subscription, while subscribed or while a completion is pending.
  @inlinable
  package var subscription: (any Subscription)? { status.subscription }

  /// Whether it is subscribed (not awaiting, pending or ended).
  @inlinable
  package var isSubscribed: Bool { status.isSubscribed }

  /// Whether it holds its upstream subscription: subscribed, or with a completion pending.
  @inlinable
  package var holdsSubscription: Bool { status.holdsSubscription }

  /// Whether it has ended (completed, failed or cancelled).
  @inlinable
  package var hasEnded: Bool { status.hasEnded }

  /// Takes `subscription` if none has arrived yet. See ``SubscriptionStatus/adopt(_:)``.
  @inlinable @inline(__always)
  package mutating func adopt(_ subscription: any Subscription) -> Bool {
    status.adopt(subscription)
  }

  /// Ends a subscribed lifecycle. See ``SubscriptionStatus/terminate()``.
  @inlinable @inline(__always)
  package mutating func terminate() -> (any Subscription)? { status.terminate() }

  /// Holds the completion of a subscribed lifecycle. See
  /// ``SubscriptionStatus/holdCompletion()``.
  @inlinable
  package mutating func holdCompletion() -> (any Subscription)? { status.holdCompletion() }

  /// Ends a pending completion. See ``SubscriptionStatus/endPending()``.
  @inlinable
  package mutating func endPending() -> Bool { status.endPending() }

  /// Lets go of the upstream without ending. See ``SubscriptionStatus/release()``.
  @inlinable
  package mutating func release() -> (any Subscription)? { status.release() }

  /// Ends the lifecycle from any state. See ``SubscriptionStatus/end()``.
  @inlinable
  package mutating func end() -> (any Subscription)? { status.end() }
}

extension Lifecycle where Machine == Void {
  /// A lifecycle with no machine of its own, awaiting its subscription.
  @inlinable
  package init() { self.init(()) }
}

extension Guarded {
  /// Takes `subscription` as the upstream subscription if none has arrived yet;
  /// otherwise cancels it, as Combine does with a second subscription (after unlocking,
  /// so the upstream never runs under the lock), and returns `false`.
  ///
  /// The step every single-upstream engine takes first.
  ///
  /// - Returns: Whether the owner should now hand itself downstream.
  @inlinable @inline(__always)
  final func adopt<Machine>(_ subscription: any Subscription) -> Bool
  where State == Lifecycle<Machine> {
    lock.lock()
    let adopted = stateAssumingLocked.adopt(subscription)
    lock.unlock()
    if !adopted { subscription.cancel() }
    return adopted
  }

  /// Ends a subscribed lifecycle, returning the upstream subscription to cancel (or to
  /// answer a completion for) after the lock is released, or `nil` if it was not
  /// subscribed: a cancel or a completion acts at most once.
  ///
  /// - Parameter alsoUnderLock: More of the machine to clear in the same critical
  ///   section, only when it was subscribed; it must not call user code, upstream or
  ///   downstream.
  @inlinable @inline(__always)
  final func terminate<Machine>(
    alsoUnderLock: (inout Machine) -> Void = { _ in }
  ) -> (any Subscription)? where State == Lifecycle<Machine> {
    lock.lock()
    guard let subscription = stateAssumingLocked.terminate() else {
      lock.unlock()
      return nil
    }
    alsoUnderLock(&stateAssumingLocked.machine)
    lock.unlock()
    return subscription
  }

  /// Runs `event` on the machine under the lock if subscribed, handing it the upstream
  /// subscription: the way a machine's event goes in.
  ///
  /// - Returns: What `event` returned (an action for the caller to carry out once the
  ///   lock is released), or `nil` if not subscribed: `event` did not run.
  @inlinable @inline(__always)
  final func ifSubscribed<Machine, Action>(
    _ event: (inout Machine, any Subscription) -> Action
  ) -> Action? where State == Lifecycle<Machine> {
    lock.lock()
    defer { lock.unlock() }
    guard case .subscribed(let upstream) = stateAssumingLocked.status else { return nil }
    return event(&stateAssumingLocked.machine, upstream)
  }

  /// Marks the upstream completed, if subscribed, keeping its subscription while the
  /// completion waits on a scheduler, and runs `event` on the machine in the same
  /// critical section.
  ///
  /// - Returns: What `event` returned, or `nil` if not subscribed: `event` did not run.
  @inlinable
  final func holdCompletion<Machine, Action>(
    _ event: (inout Machine) -> Action
  ) -> Action? where State == Lifecycle<Machine> {
    lock.lock()
    defer { lock.unlock() }
    guard stateAssumingLocked.holdCompletion() != nil else { return nil }
    return event(&stateAssumingLocked.machine)
  }

  /// Passes a request to the upstream, unless the upstream has completed (even with its
  /// completion still pending) or the subscription was cancelled: the request of the
  /// operators that deliver on a scheduler.
  @inlinable
  final func requestUpstream<Machine>(_ demand: Subscribers.Demand)
  where State == Lifecycle<Machine> {
    lock.lock()
    guard case .subscribed(let upstream) = stateAssumingLocked.status else {
      lock.unlock()
      return
    }
    lock.unlock()
    upstream.request(demand)
  }

  /// The upstream subscription, while subscribed or while a completion is pending: where
  /// a request goes.
  @inlinable
  final func currentUpstream<Machine>() -> (any Subscription)?
  where State == Lifecycle<Machine> {
    lock.lock()
    defer { lock.unlock() }
    return stateAssumingLocked.subscription
  }
}
