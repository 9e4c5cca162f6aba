import ReactiveCore
import Testing

@Suite struct CollectTests {
  @Test func reduceForwardsFailureWithoutValue() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<[Int], TestError>()
    subject.collect().subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracker.values.isEmpty)
    #expect(tracker.completions == [.failure(.oops)])
  }

  // The reducing operators (`reduce`, `collect()`, `count`, `min`/`max`, `contains`,
  // `allSatisfy`, `first`, `last` and their `where`/`try` forms) as Combine shapes them.
  @Test func collectShowsHowManyElementsItHolds() throws {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    publisher.collect().subscribe(TrackingSubscriber<[Int], Never>(initialDemand: nil))
    publisher.send(1)
    publisher.send(2)
    let subscriber = try #require(publisher.rawSubscriber)
    let count = Mirror(reflecting: subscriber).children.first { $0.label == "count" }?.value
    #expect(count as? Int == 2)
  }
}
