import Synchronization

/// The one lock every Ripple type uses: a non-recursive mutex stored inline in its
/// owner, with a `withLock` that lets non-`Sendable` state cross in and out.
///
/// It wraps `Synchronization.Mutex` (no allocation, one atomic instruction each way when
/// uncontended) and adds what the hot paths need: a separate ``lock()``/``unlock()`` pair,
/// and annotations for the thread sanitizer, which cannot otherwise see the mutex (see
/// ``ThreadSanitizerHooks``). It is never held while user code (a closure, a subscriber,
/// an override point) runs. Store it in a `let` of a class, never in a local or a `var`.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  @usableFromInline
  let mutex = Mutex<Void>(())
  @usableFromInline
  let isTracked: Bool
  #if DEBUG
    /// The thread holding the lock, or zero (debug builds only; see ``LockOwner``).
    @usableFromInline
    let owner = Atomic<UInt>(0)
  #endif

  /// Creates an unlocked lock.
  @inlinable
  package init() { isTracked = ThreadSanitizerHooks.isActive }

  /// Acquires the lock. Hot paths use this pair instead of ``withLock(_:)`` when what
  /// they take out is a closure: returning a closure through the generic `withLock`
  /// reabstracts it, which allocates.
  @inlinable @inline(__always)
  package func lock() {
    mutex._unsafeLock()
    if isTracked { withUnsafePointer(to: self) { ThreadSanitizerHooks.didAcquire($0) } }
    #if DEBUG
      owner.store(LockOwner.currentThread, ordering: .relaxed)
    #endif
  }

  /// Releases the lock.
  @inlinable @inline(__always)
  package func unlock() {
    #if DEBUG
      assertHeldByCurrentThread()
      owner.store(0, ordering: .relaxed)
    #endif
    if isTracked { withUnsafePointer(to: self) { ThreadSanitizerHooks.willRelease($0) } }
    mutex._unsafeUnlock()
  }

  /// In debug builds, stops the program unless the calling thread holds the lock; in
  /// release builds, does nothing. Code that reaches guarded state without taking the
  /// lock itself (``Guarded/stateAssumingLocked``) calls it.
  @inlinable @inline(__always)
  package func assertHeldByCurrentThread() {
    #if DEBUG
      assert(
        owner.load(ordering: .relaxed) == LockOwner.currentThread,
        "Guarded state reached without holding its lock")
    #endif
  }

  /// Runs `body` with the lock held and returns its result.
  @inlinable @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A value guarded by its own lock, for state that does not live in fields of the
/// owning object.
@usableFromInline
package final class LockedBox<Value>: @unchecked Sendable {
  /// The lock that guards the value.
  @usableFromInline
  let lock = Lock()
  // Every access holds `lock`, so the run-time exclusivity check only costs time. Named
  // nowhere but in this file (`.ci/unsafe-code` counts it): the value is reached only
  // through `withLock`.
  @usableFromInline
  @exclusivity(unchecked)
  var guardedStorage: Value

  /// Wraps `value`.
  @inlinable
  package init(_ value: Value) { guardedStorage = value }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try lock.withLock { () throws(Failure) -> Result in try body(&guardedStorage) }
  }
}
