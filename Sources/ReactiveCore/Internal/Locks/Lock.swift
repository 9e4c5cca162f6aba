import Synchronization

/// The one lock every Ripple type uses: a non-recursive mutex stored inline in its
/// owner, with a `withLock` that lets non-`Sendable` state cross in and out.
///
/// It wraps ``RawMutex`` (no allocation, one atomic instruction each way when
/// uncontended; on Linux a plain futex that lets a running thread take the lock again, see
/// ``RawMutex`` for why) and adds what the hot paths need: a separate ``lock()``/``unlock()``
/// pair, the thread that holds it, and annotations for the thread sanitizer (see
/// ``ThreadSanitizerHooks``). It is never held while user code (a closure, a subscriber,
/// an override point) runs. Store it in a `let` of a class, never in a local or a `var`.
///
/// The holder is recorded in every build, not only in debug ones: a thread that locks
/// again a lock it holds (a subscriber reached re-entrantly where Combine would deadlock)
/// stops the program with a message instead of sleeping forever, as the platform's
/// `Mutex` did; and ``RecursiveLock`` reads the same record. It costs a plain store each
/// way (no atomic read-modify-write) and 8 bytes.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  @usableFromInline
  let mutex = RawMutex()
  @usableFromInline
  let isTracked: Bool
  /// The thread holding the lock, or zero (see ``LockOwner``). Written only by the
  /// holder, right after acquiring and right before releasing, so a thread that finds
  /// itself here holds the lock.
  @usableFromInline
  let owner = Atomic<UInt>(0)

  /// Creates an unlocked lock.
  @inlinable
  package init() { isTracked = ThreadSanitizerHooks.isActive }

  /// Acquires the lock. Hot paths use this pair instead of ``withLock(_:)`` when what
  /// they take out is a closure: returning a closure through the generic `withLock`
  /// reabstracts it, which allocates.
  @inlinable @inline(__always)
  package func lock() { lock(by: LockOwner.currentThread) }

  /// Acquires the lock for `me`, the calling thread's ``LockOwner/currentThread``.
  @inlinable @inline(__always)
  package func lock(by me: UInt) {
    if !mutex.tryLock() { lockContended(by: me) }
    if isTracked { withUnsafePointer(to: self) { ThreadSanitizerHooks.didAcquire($0) } }
    owner.store(me, ordering: .relaxed)
  }

  /// The lock is taken: stop if the caller is its holder, else wait for it.
  @usableFromInline @inline(never)
  func lockContended(by me: UInt) {
    precondition(
      owner.load(ordering: .relaxed) != me,
      "Ripple: a lock was taken again by the thread that holds it (a re-entrant call that"
        + " Combine would deadlock on)")
    mutex.lockContended()
  }

  /// Releases the lock.
  @inlinable @inline(__always)
  package func unlock() {
    #if DEBUG
      assertHeldByCurrentThread()
    #endif
    owner.store(0, ordering: .relaxed)
    if isTracked { withUnsafePointer(to: self) { ThreadSanitizerHooks.willRelease($0) } }
    mutex.unlock()
  }

  /// Whether the calling thread holds the lock.
  @inlinable @inline(__always)
  package var isHeldByCurrentThread: Bool {
    owner.load(ordering: .relaxed) == LockOwner.currentThread
  }

  /// In debug builds, stops the program unless the calling thread holds the lock; in
  /// release builds, does nothing. Code that reaches guarded state without taking the
  /// lock itself (``Guarded/stateAssumingLocked``) calls it.
  @inlinable @inline(__always)
  package func assertHeldByCurrentThread() {
    #if DEBUG
      assert(isHeldByCurrentThread, "Guarded state reached without holding its lock")
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
