import Dispatch
import Foundation
import Synchronization

// The machinery the contention workloads share (ContentionWorkloads.swift for Ripple,
// ContentionOpenCombine.swift for OpenCombine): threads released together, what a round
// measured, and counters the sinks bump. It names neither library, so that both sides
// time exactly the same harness.

/// What one round of a contention workload measured.
public struct ContentionSample: Sendable {
  /// The operations all threads completed (values sent, subscribe + cancel pairs, …).
  public var operations: Int
  /// Nanoseconds from the threads' release to the last of them done (for `receive_on`,
  /// to the last value delivered).
  public var nanoseconds: Double
  /// What the round's count check found wrong, or `nil` when the counts were right: a
  /// lost or doubled delivery, which is a correctness failure, not a slow round.
  public var failure: String?
  /// For the latency workload: each timestamped value's delay in nanoseconds, sorted.
  public var latencies: [Int] = []

  /// A sample whose count check compares `counted` with `expected`.
  init(operations: Int, nanoseconds: Double, counted: Int, expected: Int) {
    self.operations = operations
    self.nanoseconds = nanoseconds
    failure = counted == expected ? nil : "counted \(counted), expected \(expected)"
  }

  /// A sample with no count check, or with the failure already described.
  init(operations: Int, nanoseconds: Double, failure: String? = nil, latencies: [Int] = []) {
    self.operations = operations
    self.nanoseconds = nanoseconds
    self.failure = failure
    self.latencies = latencies
  }
}

/// One round's threads: a start barrier that releases them together, a stop flag for the
/// threads that run until the others are done, and each worker's finish time.
public final class ContentionRace: @unchecked Sendable {
  // The barrier: a condition, not a spin, because runnable threads outnumber cores and a
  // spinning waiter would steal the CPU the threads still starting need.
  private let condition = NSCondition()
  private var arrived = 0
  private var released = false
  private let stopped = Atomic<Bool>(false)
  private let remaining: Atomic<Int>
  // One slot per worker, each written by its own thread only.
  private let finishTimes: UnsafeMutableBufferPointer<UInt64>
  /// When the threads were released, in `DispatchTime` uptime nanoseconds.
  public private(set) var start: UInt64 = 0

  /// A race of `workers` workers, none arrived, none finished.
  private init(workers: Int) {
    remaining = Atomic(workers)
    finishTimes = .allocate(capacity: workers)
    finishTimes.initialize(repeating: 0)
  }

  /// Frees the finish times (the threads are done by then: ``run(workers:extra:work:)``
  /// waits for them).
  deinit { finishTimes.deallocate() }

  /// Whether the workers are all done, or a thread called ``stop()``: the signal for
  /// threads that loop (an extra sender, saturating senders) to end.
  public var isStopped: Bool { stopped.load(ordering: .relaxed) }

  /// Tells the looping threads to end.
  public func stop() { stopped.store(true, ordering: .releasing) }

  /// Runs `work(index, race)` on `workers` new threads and, if given, `extra(race)` on one
  /// more, all released together once every one of them has started; returns when all
  /// are done.
  ///
  /// - Returns: The release time and the last worker's finish time (the extra thread's is
  ///   not counted: it only loops until the workers are done), in uptime nanoseconds.
  public static func run(
    workers: Int, extra: (@Sendable (ContentionRace) -> Void)? = nil,
    work: @escaping @Sendable (_ index: Int, _ race: ContentionRace) -> Void
  ) -> (start: UInt64, end: UInt64) {
    let race = ContentionRace(workers: workers)
    let group = DispatchGroup()
    let threads = workers + (extra == nil ? 0 : 1)
    for index in 0..<workers {
      group.enter()
      spawn {
        race.waitForRelease()
        work(index, race)
        race.finishTimes[index] = DispatchTime.now().uptimeNanoseconds
        if race.remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
          race.stop()
        }
        group.leave()
      }
    }
    if let extra {
      group.enter()
      spawn {
        race.waitForRelease()
        extra(race)
        group.leave()
      }
    }
    race.release(after: threads)
    group.wait()
    return (race.start, race.finishTimes.max() ?? race.start)
  }

  /// Starts a thread (Foundation's, so that this builds wherever Foundation does).
  private static func spawn(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = 1 << 20
    thread.start()
  }

  /// Called by each thread: counts it in and blocks until the release.
  private func waitForRelease() {
    condition.lock()
    arrived += 1
    condition.broadcast()
    while !released { condition.wait() }
    condition.unlock()
  }

  /// Waits until `threads` threads wait at the barrier, then releases them all at once.
  private func release(after threads: Int) {
    condition.lock()
    while arrived < threads { condition.wait() }
    start = DispatchTime.now().uptimeNanoseconds
    released = true
    condition.broadcast()
    condition.unlock()
  }
}

/// Plain (non-atomic) counters, one per slot, each on its own 128-byte line.
///
/// Non-atomic on purpose: a sink's deliveries are serialized by the library, so a slot
/// bumped only from one sink's closure counts exactly — and a library that delivered to
/// one sink on two threads at once would lose counts, which the count checks catch. The
/// padding keeps one slot's writes from slowing another's (false sharing), which would
/// cost both libraries but blur what the lock itself costs.
public final class ContentionTally: @unchecked Sendable {
  private static let stride = 16
  private let slots: UnsafeMutablePointer<Int>
  /// The number of slots.
  public let count: Int

  /// `count` slots at zero.
  public init(_ count: Int) {
    self.count = count
    slots = .allocate(capacity: count * Self.stride)
    slots.initialize(repeating: 0, count: count * Self.stride)
  }

  /// Frees the slots.
  deinit { slots.deallocate() }

  /// Adds one to `slot` and returns its new value.
  @inline(__always) @discardableResult
  public func add(_ slot: Int = 0) -> Int {
    slots[slot * Self.stride] &+= 1
    return slots[slot * Self.stride]
  }

  /// Sets `slot` to `value` (a time, say, beside a count).
  public func set(_ slot: Int, to value: Int) { slots[slot * Self.stride] = value }

  /// The value of `slot`.
  public subscript(slot: Int) -> Int { slots[slot * Self.stride] }

  /// A description of the slots that differ from `expected`, or `nil` when none does.
  public func mismatch(each expected: Int) -> String? {
    let wrong = (0..<count).filter { self[$0] != expected }
    guard let first = wrong.first else { return nil }
    return
      "\(wrong.count) of \(count) counters wrong (one counted \(self[first]), expected \(expected))"
  }
}

/// Delays recorded by one sink (its deliveries are serialized, so plain writes suffice).
public final class ContentionLatencies: @unchecked Sendable {
  private let delays: UnsafeMutableBufferPointer<Int>
  // Written only from the sink's serialized deliveries; unchecked because the exclusivity
  // check would cost the sink a runtime call per value.
  @exclusivity(unchecked) private var recorded = 0

  /// Room for `capacity` delays, reserved now so that no delivery allocates.
  public init(capacity: Int) {
    delays = .allocate(capacity: capacity)
    delays.initialize(repeating: 0)
  }

  /// Frees the delays.
  deinit { delays.deallocate() }

  /// Records the delay since `stamp` (uptime nanoseconds), if there is room.
  @inline(__always)
  public func record(since stamp: Int) {
    guard recorded < delays.count else { return }
    delays[recorded] = Int(DispatchTime.now().uptimeNanoseconds) - stamp
    recorded += 1
  }

  /// The delays recorded, sorted.
  public var sorted: [Int] { Array(delays[..<recorded]).sorted() }
}

/// Helpers for the workloads' timestamped sender.
public enum ContentionClock {
  /// Uptime nanoseconds as an `Int`: the value a timestamped send carries (positive, so
  /// that saturating values, sent as -1, are told apart).
  @inline(__always)
  public static func now() -> Int { Int(DispatchTime.now().uptimeNanoseconds) }

  /// Busy-waits until `deadline` (uptime nanoseconds). Spinning, not sleeping: a sleep
  /// lasts at least the timer slack (about 50 µs on Linux), ten times the pacing wanted.
  @inline(__always)
  public static func spin(until deadline: Int) {
    while now() < deadline {}
  }
}
