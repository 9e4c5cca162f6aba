import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body(index)` for every index in `0..<count`, each on a thread of its own, and
/// returns once every one has returned.
///
///     onThreadsAtOnce(8) { index in
///         for value in 0..<1_000 { subject.send(index * 1_000 + value) }
///     }
///
/// Every thread waits until all of them have started before it runs `body`, so the bodies
/// really contend, also on a machine with fewer cores than threads
/// (`DispatchQueue.concurrentPerform` runs only as many iterations at a time as there are
/// cores). The threads are created and joined with pthreads, which the thread sanitizer
/// understands: whatever they did happens before this returns.
///
/// - Parameters:
///   - count: How many threads to run.
///   - body: The work of one thread, given its index.
public func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let start = ThreadStart(count: count, body: body)
  #if canImport(Darwin)
    var threads: [pthread_t?] = []
  #else
    var threads: [pthread_t] = []
  #endif
  for index in 0..<count {
    let context = Unmanaged.passRetained(ThreadContext(start: start, index: index)).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(
      &thread, nil,
      { raw in
        #if canImport(Darwin)
          let context = Unmanaged<ThreadContext>.fromOpaque(raw).takeRetainedValue()
        #else
          let context = Unmanaged<ThreadContext>.fromOpaque(raw!).takeRetainedValue()
        #endif
        context.run()
        return nil
      }, context)
    precondition(created == 0, "pthread_create failed: \(created)")
    threads.append(thread)
  }
  for thread in threads {
    #if canImport(Darwin)
      pthread_join(thread!, nil)
    #else
      pthread_join(thread, nil)
    #endif
  }
}

/// What every thread of one ``onThreadsAtOnce(_:_:)`` call shares: the work, and the
/// count of threads that have started, which releases them all once it is complete.
private final class ThreadStart: Sendable {
  let count: Int
  let body: @Sendable (Int) -> Void
  let arrived = Atomic<Int>(0)

  init(count: Int, body: @escaping @Sendable (Int) -> Void) {
    self.count = count
    self.body = body
  }
}

/// One thread's start: the shared start and the thread's index.
private final class ThreadContext: Sendable {
  let start: ThreadStart
  let index: Int

  init(start: ThreadStart, index: Int) {
    self.start = start
    self.index = index
  }

  /// Waits for every other thread to start, then runs the body.
  func run() {
    start.arrived.add(1, ordering: .acquiringAndReleasing)
    while start.arrived.load(ordering: .acquiring) < start.count { sched_yield() }
    start.body(index)
  }
}

/// Lets the other runnable threads have the core, so that threads of
/// ``onThreadsAtOnce(_:_:)`` interleave finely even when each one's work is shorter than
/// the scheduler's time slice.
public func yieldToOtherThreads() {
  sched_yield()
}
