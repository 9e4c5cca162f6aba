// Cross-cutting: the combining operators together under concurrent senders.

import Dispatch
import ReactiveCore
import Synchronization
import Testing

@Suite struct CombiningStressTests {
  @Test func mergeFromManyThreadsDeliversEverythingSerially() {
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let inside = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let count = Atomic<Int>(0)
    let cancellable = Publishers.MergeMany(subjects).sink { _ in
      if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      count.add(1, ordering: .relaxed)
      inside.subtract(1, ordering: .sequentiallyConsistent)
    }
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      for value in 0..<5_000 { subjects[index].send(value) }
    }
    #expect(count.load(ordering: .relaxed) == 40_000)
    #expect(overlaps.load(ordering: .relaxed) == 0)
    cancellable.cancel()
  }

  @Test func combineLatestZipAndFlatMapUnderConcurrency() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let combined = Atomic<Int>(0)
    let zipped = Atomic<Int>(0)
    let flattened = Atomic<Int>(0)
    let c1 = a.combineLatest(b).sink { _ in combined.add(1, ordering: .relaxed) }
    let c2 = a.zip(b).sink { _ in zipped.add(1, ordering: .relaxed) }
    let c3 = a.flatMap(maxPublishers: .max(2)) { Just($0) }.sink { _ in
      flattened.add(1, ordering: .relaxed)
    }
    let shared = a.share()
    let c4 = shared.sink { _ in }
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      for value in 0..<2_000 { (index.isMultiple(of: 2) ? a : b).send(value) }
    }
    #expect(zipped.load(ordering: .relaxed) == 8_000)
    #expect(combined.load(ordering: .relaxed) > 0)
    #expect(flattened.load(ordering: .relaxed) > 0)
    for cancellable in [c1, c2, c3, c4] { cancellable.cancel() }
  }

  /// Finite demand from several threads: merge never exceeds it, never overlaps deliveries,
  /// and delivers nothing after its completion.
  @Test func mergeWithFiniteDemandFromManyThreads() {
    for _ in 0..<20 {
      let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
      let probe = DeliveryProbe()
      let subscriber = AnySubscriber<Int, Never>(
        receiveSubscription: { $0.request(.max(500)) },
        receiveValue: { _ in
          probe.value()
          return .none
        },
        receiveCompletion: { _ in probe.completion() })
      Publishers.MergeMany(subjects).subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        for value in 0..<400 { subjects[index].send(value) }
        subjects[index].send(completion: .finished)
      }
      probe.check(atMost: 500)
    }
  }

  /// combineLatest fed from several threads: no overlap, no value after the completion.
  @Test func combineLatestFromManyThreadsEndsCleanly() {
    for _ in 0..<20 {
      let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
      let probe = DeliveryProbe()
      let subscriber = AnySubscriber<Int, Never>(
        receiveSubscription: { $0.request(.max(300)) },
        receiveValue: { _ in
          probe.value()
          return .none
        },
        receiveCompletion: { _ in probe.completion() })
      subjects[0].combineLatest(subjects[1]) { $0 + $1 }.subscribe(subscriber)
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        for value in 0..<400 { subjects[index % 2].send(value) }
        subjects[index % 2].send(completion: .finished)
      }
      probe.check(atMost: 300)
    }
  }
}

/// Counts deliveries to one subscriber and notes any overlap, any value after the
/// completion, and more than one completion.
private final class DeliveryProbe: Sendable {
  let inside = Atomic<Int>(0)
  let overlaps = Atomic<Int>(0)
  let values = Atomic<Int>(0)
  let completions = Atomic<Int>(0)
  let late = Atomic<Int>(0)

  func value() {
    enter()
    if completions.load(ordering: .sequentiallyConsistent) > 0 {
      late.add(1, ordering: .relaxed)
    }
    values.add(1, ordering: .relaxed)
    leave()
  }

  func completion() {
    enter()
    completions.add(1, ordering: .sequentiallyConsistent)
    leave()
  }

  private func enter() {
    if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
      overlaps.add(1, ordering: .relaxed)
    }
  }

  private func leave() { inside.subtract(1, ordering: .sequentiallyConsistent) }

  func check(atMost demand: Int) {
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(values.load(ordering: .relaxed) <= demand)
    #expect(completions.load(ordering: .relaxed) <= 1)
    #expect(late.load(ordering: .relaxed) == 0)
  }
}
