import Dispatch
import Ripple

/// One contention workload: `threads` threads each doing `operationsPerThread` operations
/// (for `subject_latency`: that many timestamped values), measured once.
public typealias ContentionRun = (_ threads: Int, _ operationsPerThread: Int) -> ContentionSample

/// Ripple's side of the contention workloads: more runnable threads than cores, all on
/// one subject, store or scope (OpenCombine's side is in ContentionOpenCombine.swift).
///
/// Each builds its objects, runs the threads through ``ContentionRace`` and checks its
/// counts; the sinks bump plain counters (``ContentionTally``), which stay exact only
/// because the library serializes each sink's deliveries.
public enum RippleContention {
  /// `subject_1sink`: every thread sends into one subject with one sink.
  public static func subjectOneSink(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    let subject = PassthroughSubject<Int, Never>()
    let tally = ContentionTally(1)
    let cancellable = subject.sink { _ in tally.add() }
    let (start, end) = ContentionRace.run(workers: threads) { _, _ in
      for i in 0..<k { subject.send(i) }
    }
    cancellable.cancel()
    return ContentionSample(
      operations: threads * k, nanoseconds: Double(end - start), counted: tally[0],
      expected: threads * k)
  }

  /// `subject_100sinks`: every thread sends into one subject with 100 sinks; an operation
  /// is one value sent (reaching all 100).
  public static func subjectHundredSinks(threads: Int, operationsPerThread k: Int)
    -> ContentionSample
  {
    let subject = PassthroughSubject<Int, Never>()
    // One counter per sink: two sinks may well be delivered to at once, one sink never.
    let tally = ContentionTally(100)
    let cancellables = (0..<100).map { slot in subject.sink { _ in tally.add(slot) } }
    let (start, end) = ContentionRace.run(workers: threads) { _, _ in
      for i in 0..<k { subject.send(i) }
    }
    for cancellable in cancellables { cancellable.cancel() }
    return ContentionSample(
      operations: threads * k, nanoseconds: Double(end - start),
      failure: tally.mismatch(each: threads * k))
  }

  /// `subscribe_cancel`: every thread subscribes a sink to one subject and cancels it,
  /// while one more thread sends into the subject until they are done.
  public static func subscribeCancel(threads: Int, operationsPerThread k: Int)
    -> ContentionSample
  {
    let subject = PassthroughSubject<Int, Never>()
    let (start, end) = ContentionRace.run(
      workers: threads,
      extra: { race in
        var i = 0
        while !race.isStopped {
          subject.send(i)
          i &+= 1
        }
      },
      work: { _, _ in
        // An empty closure: a delivery begun before `cancel()` may still run after it,
        // overlapping the next sink's, so a shared counter here would race.
        for _ in 0..<k { subject.sink { _ in }.cancel() }
      })
    return ContentionSample(operations: threads * k, nanoseconds: Double(end - start))
  }

  /// `merge_many`: `threads` subjects merged (`Publishers.MergeMany`) into one sink, one
  /// thread sending into each.
  public static func mergeMany(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
    let tally = ContentionTally(1)
    let cancellable = Publishers.MergeMany(subjects).sink { _ in tally.add() }
    let (start, end) = ContentionRace.run(workers: threads) { index, _ in
      let subject = subjects[index]
      for i in 0..<k { subject.send(i) }
    }
    cancellable.cancel()
    return ContentionSample(
      operations: threads * k, nanoseconds: Double(end - start), counted: tally[0],
      expected: threads * k)
  }

  /// `receive_on`: every thread sends into one subject delivered on a serial dispatch
  /// queue; timed to the last value delivered.
  public static func receiveOn(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    let subject = PassthroughSubject<Int, Never>()
    let queue = DispatchQueue(label: "RippleCompare.contention.receive_on")
    let total = threads * k
    let tally = ContentionTally(2)
    let delivered = DispatchSemaphore(value: 0)
    let cancellable = subject.receive(on: queue).sink { _ in
      if tally.add(0) == total {
        // Slot 1: when the last value arrived, the round's end.
        tally.set(1, to: ContentionClock.now())
        delivered.signal()
      }
    }
    let (start, _) = ContentionRace.run(workers: threads) { _, _ in
      for i in 0..<k { subject.send(i) }
    }
    return finishReceiveOn(
      start: start, total: total, tally: tally, delivered: delivered, cancel: cancellable.cancel)
  }

  /// `store_stage`: every thread stages its own key of one in-memory store, each key with
  /// an observer.
  public static func storeStage(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    let store = Store()
    let keys = (0..<threads).map { StoreKey<Int>("contention.\($0)") }
    let tally = ContentionTally(threads)
    let receipts = keys.indices.map { slot in
      store.registerObserver(for: keys[slot]) { _ in tally.add(slot) }
    }
    let (start, end) = ContentionRace.run(workers: threads) { index, _ in
      let key = keys[index]
      // 1…k: each differs from the last, so none is dropped as redundant.
      for value in 1...k { store.stage(value, for: key) }
    }
    for receipt in receipts { store.retireObserver(receipt) }
    return ContentionSample(
      operations: threads * k, nanoseconds: Double(end - start), failure: tally.mismatch(each: k))
  }

  /// `scopes_toggle`: every thread attaches its own behavior to one shared scope and
  /// detaches it, while one more thread attaches the scope to a root and detaches it (so
  /// the behaviors activate and deactivate) until they are done.
  public static func scopesToggle(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    // Scopes' nodes are not `Sendable` (so that subclasses need not be); every operation
    // used here is documented thread-safe.
    nonisolated(unsafe) let root = RootScope()
    nonisolated(unsafe) let scope = Scope()
    nonisolated(unsafe) let behaviors = (0..<threads).map { _ in AnonymousBehavior { _ in } }
    let (start, end) = ContentionRace.run(
      workers: threads,
      extra: { race in
        while !race.isStopped {
          try? scope.attach(to: root)
          scope.detach()
        }
      },
      work: { index, _ in
        let behavior = behaviors[index]
        for _ in 0..<k {
          try? behavior.attach(to: scope)
          behavior.detach()
        }
      })
    // Every behavior's last call was detach(): none may be left attached.
    let leftAttached =
      !scope.children.isEmpty || behaviors.contains { $0.state != .detached }
    return ContentionSample(
      operations: threads * k, nanoseconds: Double(end - start),
      failure: leftAttached ? "a behavior is still attached after its last detach()" : nil)
  }

  /// `subject_latency`: `threads` threads send -1 into one subject as fast as they can
  /// while one more sends `stamps` timestamps, about 5 µs apart; the sink records how long
  /// each timestamp took to arrive.
  public static func subjectLatency(threads: Int, operationsPerThread stamps: Int)
    -> ContentionSample
  {
    let subject = PassthroughSubject<Int, Never>()
    let latencies = ContentionLatencies(capacity: stamps)
    let cancellable = subject.sink { value in
      if value >= 0 { latencies.record(since: value) }
    }
    let (start, end) = ContentionRace.run(workers: threads + 1) { index, race in
      if index == 0 {
        for _ in 0..<stamps {
          ContentionClock.spin(until: ContentionClock.now() + contentionStampGap)
          subject.send(ContentionClock.now())
        }
        race.stop()
      } else {
        while !race.isStopped { subject.send(-1) }
      }
    }
    cancellable.cancel()
    return latencySample(latencies.sorted, stamps: stamps, nanoseconds: Double(end - start))
  }
}

/// The pause before each timestamped value, in nanoseconds: a few µs, so that each
/// timestamp meets the lock as the saturating threads hold it, not a queue of its own.
let contentionStampGap = 5_000

/// Waits (up to a minute) for a `receive_on` round's last delivery, cancels, and makes
/// the sample: timed from the release to the last delivery.
func finishReceiveOn(
  start: UInt64, total: Int, tally: ContentionTally, delivered: DispatchSemaphore,
  cancel: () -> Void
) -> ContentionSample {
  let arrived = delivered.wait(timeout: .now() + 60) == .success
  cancel()
  guard arrived else {
    return ContentionSample(
      operations: total, nanoseconds: .infinity,
      failure: "\(tally[0]) of \(total) values delivered within 60 s")
  }
  return ContentionSample(
    operations: total, nanoseconds: Double(UInt64(tally[1]) - start), counted: tally[0],
    expected: total)
}

/// A latency round's sample; every timestamp must have arrived.
func latencySample(_ sorted: [Int], stamps: Int, nanoseconds: Double) -> ContentionSample {
  ContentionSample(
    operations: stamps, nanoseconds: nanoseconds,
    failure: sorted.count == stamps ? nil : "\(sorted.count) of \(stamps) timestamps arrived",
    latencies: sorted)
}
