#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which thread holds a lock: every ``Lock`` records it, so that a thread locking again a
/// lock it holds stops with a message instead of sleeping forever, ``RecursiveLock`` can
/// let its holder nest, and code which assumes it holds a lock
/// (``Guarded/stateAssumingLocked``) can check, in debug builds, that it does.
@usableFromInline
package enum LockOwner {
  /// An identifier of the calling thread, never zero. (`pthread_t` is an integer on
  /// Linux and a pointer on Darwin; `Int(bitPattern:)` takes either.)
  @inlinable @inline(__always)
  package static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
