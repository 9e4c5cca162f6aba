import Synchronization

/// A recursive mutex that serializes deliveries to one subscriber, stored inline in its
/// owner like ``Lock``.
///
/// Deliveries to a subscriber must never overlap, yet a subscriber may send to the
/// publisher it is subscribed to from inside a delivery (re-entrant `send`). A recursive
/// lock gives both: other threads wait, the delivering thread may nest. Whether the calling
/// thread is already inside is the ``Lock``'s own record of its holder, which a nested
/// entry leaves alone.
@usableFromInline
package struct RecursiveLock: ~Copyable, @unchecked Sendable {
  @usableFromInline
  let lock = Lock()

  /// Creates an unlocked recursive lock.
  @inlinable
  package init() {}

  /// Acquires the lock unless the calling thread already holds it; pass the result to
  /// ``exit(_:)``. For hot paths that cannot put their work in a closure.
  ///
  /// - Returns: Whether this call acquired the lock (it is the outermost entry).
  @inlinable @inline(__always)
  package func enter() -> Bool {
    let me = LockOwner.currentThread
    if lock.owner.load(ordering: .relaxed) == me { return false }
    lock.lock(by: me)
    return true
  }

  /// Whether the calling thread holds the lock: a call made from inside the work it
  /// guards.
  @inlinable @inline(__always)
  package var isHeldByCurrentThread: Bool { lock.isHeldByCurrentThread }

  /// Releases the lock if the matching ``enter()`` acquired it.
  ///
  /// - Parameter acquired: What ``enter()`` returned.
  @inlinable @inline(__always)
  package func exit(_ acquired: Bool) {
    guard acquired else { return }
    lock.unlock()
  }

  /// Runs `body` while holding the lock; the same thread may enter again from `body`.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    let acquired = enter()
    defer { exit(acquired) }
    return try body()
  }
}
