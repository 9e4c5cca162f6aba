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
  }

  /// Releases the lock.
  @inlinable @inline(__always)
  package func unlock() {
    if isTracked { withUnsafePointer(to: self) { ThreadSanitizerHooks.willRelease($0) } }
    mutex._unsafeUnlock()
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
  /// The lock that guards ``value``.
  @usableFromInline
  let lock = Lock()
  // Every access holds `lock`, so the run-time exclusivity check only costs time.
  @usableFromInline
  @exclusivity(unchecked)
  var value: Value

  /// Wraps `value`.
  @inlinable
  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  @inlinable
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try lock.withLock { () throws(Failure) -> Result in try body(&value) }
  }
}
