#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one lock every Ripple type uses: a non-recursive pthread mutex with a `withLock`
/// that lets non-`Sendable` state cross in and out.
///
/// It is a pthread mutex rather than `Synchronization.Mutex` because the thread
/// sanitizer sees pthread locks: `Mutex` is implemented on raw futexes inside the
/// uninstrumented standard library, so TSan reports false races across it. The mutex
/// lives on the heap (it must never move) and is freed with the owner. It is never held
/// while user code (a closure, a subscriber, an override point) runs.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  @usableFromInline
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates an unlocked lock.
  @inlinable
  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Acquires the lock. Hot paths use this pair instead of ``withLock(_:)`` when what
  /// they take out is a closure: returning a closure through the generic `withLock`
  /// reabstracts it, which allocates.
  @inlinable @inline(__always)
  package func lock() { pthread_mutex_lock(mutex) }

  /// Releases the lock.
  @inlinable @inline(__always)
  package func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` with the lock held and returns its result.
  @inlinable @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
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
  @usableFromInline
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
