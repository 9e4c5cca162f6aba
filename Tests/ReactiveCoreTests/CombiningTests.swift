import Dispatch
import ReactiveCore
import Synchronization
import Testing

@Suite struct MergeTests {
  @Test func mergeInterleavesAndFinishesWhenAllFinish() {
    let a = PassthroughSubject<Int, TestError>()
    let b = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    a.merge(with: b).subscribe(tracker)
    a.send(1)
    b.send(2)
    a.send(completion: .finished)
    b.send(3)
    #expect(tracker.completions.isEmpty)
    b.send(completion: .finished)
    #expect(tracker.values == [1, 2, 3])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Merge"))
  }

  @Test func mergeFailsOnFirstFailureAndCancelsTheOthers() {
    let a = PassthroughSubject<Int, TestError>()
    var cancelled = false
    let b = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    a.merge(with: b.handleEvents(receiveCancel: { cancelled = true })).subscribe(tracker)
    a.send(completion: .failure(.oops))
    b.send(9)
    #expect(tracker.completions == [.failure(.oops)])
    #expect(tracker.values.isEmpty)
    #expect(cancelled)
  }

  @Test func mergeHonoursDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    [1, 2, 3].publisher.merge(with: [10, 20].publisher).subscribe(tracker)
    #expect(tracker.values.count == 1)
    tracker.request(.max(2))
    #expect(tracker.values.count == 3)
    tracker.request(.unlimited)
    #expect(Set(tracker.values) == [1, 2, 3, 10, 20])
    #expect(tracker.completions == [.finished])
  }

  @Test func mergeOfManyAndMergeMany() {
    let merged = collectAll(
      Just(1).merge(with: Just(2), Just(3), Just(4), Just(5), Just(6), Just(7), Just(8)))
    #expect(merged.0.sorted() == [1, 2, 3, 4, 5, 6, 7, 8])
    let many = collectAll(Publishers.MergeMany([Just(1), Just(2), Just(3)]).merge(with: Just(4)))
    #expect(many.0.sorted() == [1, 2, 3, 4])
    #expect(collectAll(Publishers.MergeMany<Just<Int>>([])).1 == [.finished])
  }
}

@Suite struct CombineLatestAndZipTests {
  @Test func combineLatestEmitsOnceEachHasAValue() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    var seen: [String] = []
    let cancellable = a.combineLatest(b).sink { seen.append("\($0)\($1)") }
    a.send(1)
    b.send("x")
    a.send(2)
    b.send("y")
    #expect(seen == ["1x", "2x", "2y"])
    cancellable.cancel()
  }

  @Test func combineLatestWithTransformAndThreeAndFour() {
    #expect(collectAll(Just(1).combineLatest(Just(2)) { $0 + $1 }).0 == [3])
    #expect(collectAll(Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }).0 == [6])
    let product = Just(1).combineLatest(Just(2), Just(3), Just(4)) { (a: Int, b, c, d) in
      a * b * c * d
    }
    #expect(collectAll(product).0 == [24])
  }

  @Test func zipPairsInOrderAndFinishesWhenOneRunsOut() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let tracker = TrackingSubscriber<String, Never>()
    a.zip(b) { "\($0)\($1)" }.subscribe(tracker)
    a.send(1)
    a.send(2)
    b.send("x")
    a.send(completion: .finished)
    #expect(tracker.completions.isEmpty)
    b.send("y")
    #expect(tracker.values == ["1x", "2y"])
    #expect(tracker.completions == [.finished])
  }

  @Test func zipThreeAndFour() {
    #expect(
      collectAll([1, 2].publisher.zip([3, 4].publisher, [5, 6].publisher) { $0 + $1 + $2 }).0 == [
        9, 12,
      ])
    let four = collectAll([1].publisher.zip([2].publisher, [3].publisher, [4].publisher)).0
    #expect(four.map { $0.0 + $0.1 + $0.2 + $0.3 } == [10])
  }

  @Test func zipHonoursDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    (1...5).publisher.zip((1...5).publisher) { $0 * $1 }.subscribe(tracker)
    #expect(tracker.values == [1])
    tracker.request(.max(2))
    #expect(tracker.values == [1, 4, 9])
  }
}

@Suite struct FlatteningTests {
  @Test func flatMapFlattensAndFinishesAfterAllInners() {
    let result = collectAll([1, 2, 3].publisher.flatMap { [$0, $0 * 10].publisher })
    #expect(result.0.sorted() == [1, 2, 3, 10, 20, 30])
    #expect(result.1 == [.finished])
  }

  @Test func flatMapLimitsConcurrentInnerPublishers() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    var requested: [Subscribers.Demand] = []
    let tracker = TrackingSubscriber<Int, Never>()
    upstream.handleEvents(receiveRequest: { requested.append($0) })
      .flatMap(maxPublishers: .max(1)) { inners[$0] }
      .subscribe(tracker)
    #expect(requested == [.max(1)])
    upstream.send(0)
    upstream.send(1)  // over the limit: a well-behaved upstream would not send it
    inners[0].send(5)
    inners[0].send(completion: .finished)
    #expect(requested == [.max(1), .max(1)])
    #expect(tracker.values.contains(5))
  }

  @Test func flatMapRequestsOneValueAtATimeFromInners() {
    var innerRequests: [Subscribers.Demand] = []
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    Just(0).flatMap { _ in
      (1...10).publisher.handleEvents(receiveRequest: { innerRequests.append($0) })
    }
    .subscribe(tracker)
    #expect(tracker.values == [1, 2])
    #expect(innerRequests.allSatisfy { $0 == .max(1) })
    #expect(innerRequests.count <= 3)
  }

  @Test func flatMapFailsWithItsInner() {
    let upstream = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    upstream.flatMap { _ in Fail<Int, TestError>(error: .oops) }.subscribe(tracker)
    upstream.send(1)
    #expect(tracker.completions == [.failure(.oops)])
  }

  @Test func switchToLatestCancelsThePreviousInner() {
    let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
    let first = PassthroughSubject<Int, Never>()
    let second = PassthroughSubject<Int, Never>()
    var firstCancelled = false
    let tracker = TrackingSubscriber<Int, Never>()
    outer.switchToLatest().subscribe(tracker)
    outer.send(first.handleEvents(receiveCancel: { firstCancelled = true }).eraseToAnyPublisher())
    first.send(1)
    outer.send(second.eraseToAnyPublisher())
    #expect(firstCancelled)
    first.send(2)
    second.send(3)
    outer.send(completion: .finished)
    #expect(tracker.completions.isEmpty)
    second.send(completion: .finished)
    #expect(tracker.values == [1, 3])
    #expect(tracker.completions == [.finished])
  }

  @Test func switchToLatestCarriesDemandToTheNewInner() {
    let outer = PassthroughSubject<AnyPublisher<Int, Never>, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
    outer.switchToLatest().subscribe(tracker)
    outer.send([1].publisher.eraseToAnyPublisher())
    outer.send((10...20).publisher.eraseToAnyPublisher())
    #expect(tracker.values == [1, 10, 11])
  }

  @Test func appendAndPrependCarryDemand() {
    #expect(collectAll([1, 2].publisher.append(3, 4)).0 == [1, 2, 3, 4])
    #expect(collectAll([3].publisher.prepend(1, 2)).0 == [1, 2, 3])
    #expect(collectAll([2].publisher.append([3]).prepend(Just(1))).0 == [1, 2, 3])
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(3))
    // Erased first: on a bare sequence publisher Combine's `append` builds one sequence.
    [1, 2].publisher.eraseToAnyPublisher().append([3, 4, 5]).subscribe(tracker)
    #expect(tracker.values == [1, 2, 3])
    tracker.request(.max(5))
    #expect(tracker.values == [1, 2, 3, 4, 5])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Concatenate"))
    let joined: Publishers.Sequence<[Int], Never> = [1, 2].publisher.append([3, 4, 5])
    #expect(joined.sequence == [1, 2, 3, 4, 5])
  }
}

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
}
