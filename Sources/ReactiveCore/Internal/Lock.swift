import Synchronization

/// The one lock every Ripple type uses: an inline, non-recursive `Mutex` with a
/// `withLock` that lets non-`Sendable` state cross in and out.
///
/// It is stored inline in the object that owns it (no heap allocation per lock), and it
/// is never held while user code (a closure, a subscriber, an override point) runs.
@usableFromInline
package struct Lock: ~Copyable, Sendable {
  @usableFromInline
  let mutex = Mutex<Void>(())

  /// Creates an unlocked lock.
  @inlinable
  package init() {}

  /// Runs `body` with the lock held and returns its result.
  @inlinable @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var result: Result? = nil
    try mutex.withLock { (_: inout Void) throws(Failure) in result = try body() }
    return result.unsafelyUnwrapped
  }
}

/// A value guarded by its own inline lock, for state that does not live in fields of the
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
