/// The base class of an object whose mutable state lives behind its own lock: the state
/// is one value, ``state``, and ``lock`` guards it.
///
/// A subclass keeps everything that changes in a `State` struct (or a state machine) and
/// reaches it with ``withLock(_:)``, or between `lock.lock()` and `lock.unlock()` on a hot
/// path that must return early. What it takes out of the lock is a named action or a
/// value, acted on after unlocking: upstream, downstream and user code never run with
/// the lock held.
///
/// Stored inline (a subclass, not a box), so it costs no allocation and no indirection
/// over fields of the subclass itself.
///
/// - Invariant: ``state`` is read and written only with ``lock`` held, and only through
///   the one access the holder has (the `inout` argument of ``withLock(_:)``, or `state`
///   itself between `lock()` and `unlock()`, never both at once). The run-time exclusivity
///   check of `state` is turned off because this invariant already rules out overlapping
///   access; it would only cost time. This type, ``LockedBox`` and the few engines listed
///   in `Internals.md` are the only places where ReactiveCore turns it off.
@usableFromInline
class Guarded<State>: @unchecked Sendable {
  /// The lock that guards ``state``.
  @usableFromInline
  final let lock = Lock()
  /// Everything about the object that changes; guarded by ``lock``.
  @usableFromInline
  @exclusivity(unchecked)
  final var state: State

  /// Creates the object in `state`.
  @inlinable
  init(state: State) { self.state = state }

  /// Runs `body` with the lock held and exclusive access to the state.
  @inlinable @inline(__always)
  final func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}

/// The state of an operator that holds one upstream subscription.
@usableFromInline
protocol SubscribedState {
  /// Where the operator stands with its upstream.
  var status: SubscriptionStatus { get set }
}

/// An operator whose only lock-guarded state is its status is `Guarded<SubscriptionStatus>`.
extension SubscriptionStatus: SubscribedState {
  /// The status itself.
  @inlinable
  var status: SubscriptionStatus {
    get { self }
    set { self = newValue }
  }
}

extension Guarded where State: SubscribedState {
  /// Takes `subscription` as the upstream subscription if none has arrived yet;
  /// otherwise cancels it, as Combine does with a second subscription, and returns
  /// `false`. See ``Lock/adopt(_:into:)``.
  @inlinable @inline(__always)
  final func adopt(_ subscription: any Subscription) -> Bool {
    lock.adopt(subscription, into: &state.status)
  }

  /// Ends a subscribed status, returning the upstream subscription to cancel (after the
  /// lock is released), or `nil` if it was not subscribed.
  ///
  /// - Parameter alsoUnderLock: more state to clear in the same critical section, only
  ///   when the status was subscribed; it must not call user code, upstream or
  ///   downstream.
  @inlinable @inline(__always)
  final func terminate(alsoUnderLock: (inout State) -> Void = { _ in }) -> (any Subscription)? {
    withLock { state in
      guard case .subscribed(let subscription) = state.status else { return nil }
      state.status = .terminal
      alsoUnderLock(&state)
      return subscription
    }
  }
}
