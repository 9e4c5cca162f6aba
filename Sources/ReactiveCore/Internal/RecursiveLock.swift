#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recursive mutex that serializes deliveries to one subscriber.
///
/// Deliveries to a subscriber must never overlap, yet a subscriber may send to the
/// publisher it is subscribed to from inside a delivery (re-entrant `send`). A recursive
/// lock gives both: other threads wait, the delivering thread may nest.
@usableFromInline
package final class RecursiveLock: @unchecked Sendable {
  // The pthread mutex lives on the heap because it must never move once initialised.
  @usableFromInline
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates an unlocked recursive lock.
  @usableFromInline
  package init() {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock; the same thread may enter again from `body`.
  @inlinable @inline(__always)
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
