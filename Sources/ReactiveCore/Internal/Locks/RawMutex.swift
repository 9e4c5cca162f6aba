import Synchronization

#if os(Linux) || os(Android)
  internal import RippleFutex

  /// The mutex word under every Ripple lock: on Linux, one 32-bit word with a plain
  /// (not priority-inheriting) futex, barging and a few yields before sleeping; elsewhere, the
  /// platform's `Synchronization.Mutex` (an `os_unfair_lock` on Darwin, which already
  /// spins adaptively).
  ///
  /// Why not `Synchronization.Mutex` on Linux: in the toolchain Ripple builds with it is a
  /// priority-inheritance futex, whose unlock hands the lock to a sleeping waiter through
  /// the kernel. Once runnable threads outnumber cores, every contended unlock becomes a
  /// handoff to a thread that is not running, and the running threads queue behind it: a
  /// subject sent to from four threads on two cores moved 0.03× OpenCombine's values
  /// (whose `pthread_mutex_t` lets the running thread take the lock again). This word lets
  /// the running thread barge, yields a few times before sleeping (a Ripple critical
  /// section is tens of instructions), and sleeps on a plain futex. Internals (Locks) gives the
  /// measurements.
  ///
  /// The word: 0 unlocked; 1 locked; 2 locked, and a thread may be asleep on it (its
  /// unlock must wake one). Drepper's "Futexes Are Tricky", mutex 3, with a few yields.
  ///
  /// Stored inline (the word is an `Atomic`, which never moves), so it costs no
  /// allocation; 4 bytes, as the `Mutex` it replaces. Its atomics are compiled into
  /// Ripple's own code, so the thread sanitizer sees every acquire and release.
  @usableFromInline
  package struct RawMutex: ~Copyable, @unchecked Sendable {
    /// 0 unlocked, 1 locked, 2 locked with possible sleepers.
    @usableFromInline
    let word = Atomic<UInt32>(0)

    /// Creates an unlocked mutex.
    @inlinable
    package init() {}

    /// Acquires the mutex: one compare-and-swap when it is free.
    @inlinable @inline(__always)
    package func lock() {
      if !tryLock() { lockContended() }
    }

    /// Acquires the mutex if it is free, without waiting.
    ///
    /// - Returns: Whether it was acquired.
    @inlinable @inline(__always)
    package func tryLock() -> Bool {
      word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
    }

    /// Releases the mutex, waking one sleeper if there may be one.
    @inlinable @inline(__always)
    package func unlock() {
      if word.exchange(0, ordering: .releasing) == 2 { wakeOne() }
    }

    /// The contended path, after a failed try: yield a few times, retrying, then sleep.
    @usableFromInline @inline(never)
    package func lockContended() {
      // Retry only while nobody sleeps (a sleeper means the wait is long), and wait by
      // yielding, not by spinning on pauses: on 2 idle cores, two senders into one subject that
      // paused and retried took the lock in turns, its cache line crossing cores on every
      // value (4.4–5.4M values/s at 4 threads); yielding lets the holder run on through
      // its next values first (11–13M, and 11–14M beside two busy processes, against
      // 11–12M pausing). Measured in a scratch program with 0–4 rounds of 4–32 pauses and
      // 0–16 yields; see Internals.
      var round = 0
      while round < RawMutex.yieldRounds {
        let current = word.load(ordering: .relaxed)
        if current == 0 {
          if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
            return
          }
        } else if current == 2 {
          break
        }
        ripple_thread_yield()
        round += 1
      }
      // Sleep. Whoever takes the word from here takes it as 2, so that its unlock wakes
      // the next sleeper; a thread that finds it 0 here takes the lock (barging).
      while word.exchange(2, ordering: .acquiring) != 0 {
        ripple_futex_wait(address, 2)
      }
    }

    /// Wakes one thread asleep on the word.
    @usableFromInline @inline(never)
    func wakeOne() { ripple_futex_wake_one(address) }

    /// The word's address, for the kernel. An `Atomic` is never moved or copied, so a
    /// borrow of it is the word itself.
    package var address: UnsafeMutablePointer<UInt32> {
      withUnsafePointer(to: word) {
        UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self)
      }
    }

    /// How many times a thread yields, retrying, before it sleeps.
    static let yieldRounds = 6
  }
#else
  /// The mutex word under every Ripple lock: here the platform's
  /// `Synchronization.Mutex` (an `os_unfair_lock` on Darwin, which spins adaptively and
  /// does not hand the lock to a sleeper). On Linux it is Ripple's own futex word; see the
  /// Linux declaration for why.
  @usableFromInline
  package struct RawMutex: ~Copyable, @unchecked Sendable {
    @usableFromInline
    let mutex = Mutex<Void>(())

    /// Creates an unlocked mutex.
    @inlinable
    package init() {}

    /// Acquires the mutex.
    @inlinable @inline(__always)
    package func lock() { mutex._unsafeLock() }

    /// Acquires the mutex if it is free, without waiting.
    ///
    /// - Returns: Whether it was acquired.
    @inlinable @inline(__always)
    package func tryLock() -> Bool { mutex._unsafeTryLock() }

    /// Releases the mutex.
    @inlinable @inline(__always)
    package func unlock() { mutex._unsafeUnlock() }

    /// The contended path, after a failed try: waits for the mutex.
    @inlinable
    package func lockContended() { mutex._unsafeLock() }
  }
#endif
