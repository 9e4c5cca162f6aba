/// The base class of an object whose mutable state lives behind its own lock: the state
/// is one value, and ``lock`` guards it.
///
/// A subclass keeps everything that changes in a `State` struct (or a state machine) and
/// reaches it in one of two ways, both easy to find:
/// - ``withLock(_:)``, which takes the lock and lends the state to a closure: the
///   default;
/// - ``stateAssumingLocked``, between `lock.lock()` and `lock.unlock()`, on a hot path
///   that must return early or take a closure out (which `withLock` would reabstract). In
///   debug builds it asserts that the calling thread holds ``lock``.
///
/// What it takes out of the lock is a named action or a value, acted on after unlocking:
/// upstream, downstream and user code never run with the lock held.
///
/// Stored inline (a subclass, not a box), so it costs no allocation and no indirection
/// over fields of the subclass itself.
///
/// - Invariant: the state is read and written only with ``lock`` held, and only through
///   one access at a time (the `inout` argument of ``withLock(_:)``, or
///   ``stateAssumingLocked`` between `lock()` and `unlock()`). Its storage,
///   `guardedStorage`, is named nowhere but in this file (`.ci/unsafe-code` counts it). The
///   run-time exclusivity check of the storage is turned off because this invariant
///   already rules out overlapping access; it would only cost time.
@usableFromInline
class Guarded<State>: @unchecked Sendable {
  /// The lock that guards the state.
  @usableFromInline
  final let lock = Lock()
  /// Everything about the object that changes; guarded by ``lock``. Reached only through
  /// ``withLock(_:)`` and ``stateAssumingLocked``.
  @usableFromInline
  @exclusivity(unchecked)
  final var guardedStorage: State

  /// Creates the object in `state`.
  @inlinable
  init(state: State) { guardedStorage = state }

  /// Runs `body` with the lock held and exclusive access to the state.
  @inlinable @inline(__always)
  final func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&guardedStorage)
  }

  /// The state, for code that already holds ``lock`` (between `lock.lock()` and
  /// `lock.unlock()`). In debug builds each access asserts that the calling thread holds
  /// the lock.
  @inlinable
  final var stateAssumingLocked: State {
    @inline(__always) _read {
      lock.assertHeldByCurrentThread()
      yield guardedStorage
    }
    @inline(__always) _modify {
      lock.assertHeldByCurrentThread()
      yield &guardedStorage
    }
  }
}
