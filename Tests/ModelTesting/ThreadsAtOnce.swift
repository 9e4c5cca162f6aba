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
/// understands (``JoinableThread``): whatever they did happens before this returns.
///
/// - Parameters:
///   - count: How many threads to run.
///   - body: The work of one thread, given its index.
public func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let start = ThreadStart(count: count, body: body)
  let threads = (0..<count).map { index in
    JoinableThread { start.run(index) }
  }
  for thread in threads { thread.join() }
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

  /// Thread `index`'s run: waits for every other thread to start, then runs the body.
  func run(_ index: Int) {
    arrived.add(1, ordering: .acquiringAndReleasing)
    while arrived.load(ordering: .acquiring) < count { sched_yield() }
    body(index)
  }
}

/// Lets the other runnable threads have the core, so that threads of
/// ``onThreadsAtOnce(_:_:)`` interleave finely even when each one's work is shorter than
/// the scheduler's time slice.
public func yieldToOtherThreads() {
  sched_yield()
}
