import Dispatch
import OpenCombine
import OpenCombineDispatch

/// OpenCombine's side of the contention workloads that it has a peer for (not
/// `store_stage` or `scopes_toggle`): the same threads, counts and checks as
/// ``RippleContention``'s.
///
/// OpenCombine's types are not marked `Sendable`; its subjects and cancellables are
/// thread-safe all the same, so the threads reach them through `nonisolated(unsafe)`.
public enum OpenCombineContention {
  /// `subject_1sink`: every thread sends into one subject with one sink.
  public static func subjectOneSink(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
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

  /// `subject_100sinks`: every thread sends into one subject with 100 sinks.
  public static func subjectHundredSinks(threads: Int, operationsPerThread k: Int)
    -> ContentionSample
  {
    nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
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
    nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
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
        for _ in 0..<k { subject.sink { _ in }.cancel() }
      })
    return ContentionSample(operations: threads * k, nanoseconds: Double(end - start))
  }

  /// `merge_many`: `threads` subjects merged into one sink, one thread sending into each.
  /// OpenCombine 0.14 has no `MergeMany` (nor `merge`), so the subjects are sent, before
  /// the release, into a subject of subjects that is `flatMap`ped: the same fan-in.
  public static func mergeMany(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    nonisolated(unsafe) let subjects = (0..<threads).map { _ in
      PassthroughSubject<Int, Never>()
    }
    let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let tally = ContentionTally(1)
    let cancellable = outer.flatMap { $0 }.sink { _ in tally.add() }
    for subject in subjects { outer.send(subject) }
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
  /// queue (through OpenCombineDispatch's `ocombine` scheduler); timed to the last value
  /// delivered.
  public static func receiveOn(threads: Int, operationsPerThread k: Int) -> ContentionSample {
    nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
    let queue = DispatchQueue(label: "RippleCompare.contention.receive_on.opencombine")
    let total = threads * k
    let tally = ContentionTally(2)
    let delivered = DispatchSemaphore(value: 0)
    let cancellable = subject.receive(on: queue.ocombine).sink { _ in
      if tally.add(0) == total {
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

  /// `subject_latency`: as ``RippleContention/subjectLatency(threads:operationsPerThread:)``.
  public static func subjectLatency(threads: Int, operationsPerThread stamps: Int)
    -> ContentionSample
  {
    nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
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
