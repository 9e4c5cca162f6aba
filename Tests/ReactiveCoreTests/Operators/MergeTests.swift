import ReactiveCore
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
