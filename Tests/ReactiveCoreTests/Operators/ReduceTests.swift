import ReactiveCore
import Testing

@Suite struct ReduceTests {
  @Test func reduceCollectAndCount() {
    #expect(collectAll((1...4).publisher.reduce(0, +)).0 == [10])
    #expect(collectAll((1...4).publisher.tryReduce(0, +)).0 == [10])
    #expect(collectAll((1...3).publisher.collect()).0 == [[1, 2, 3]])
    #expect(collectAll((1...5).publisher.collect(2)).0 == [[1, 2], [3, 4], [5]])
  }

  @Test func reduceWaitsForDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    subject.reduce(0, +).subscribe(tracker)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.values.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [3])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Reduce"))
  }
}
