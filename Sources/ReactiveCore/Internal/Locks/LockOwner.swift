#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which thread holds a lock: ``RecursiveLock`` always records it, ``Lock`` in debug
/// builds only, so that code which assumes it holds a lock
/// (``Guarded/stateAssumingLocked``) can check that it does.
///
/// Release builds of ``Lock`` record nothing and check nothing: it stays one atomic instruction
/// each way. The sanitizer runs and the test suite run debug builds, so every assumption
/// is checked on every path the tests take.
@usableFromInline
package enum LockOwner {
  /// An identifier of the calling thread, never zero. (`pthread_t` is an integer on
  /// Linux and a pointer on Darwin; `Int(bitPattern:)` takes either.)
  @inlinable @inline(__always)
  package static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
