import ReactiveCore
import Testing

@Suite struct BufferTests {
  @Test(arguments: [(false, [1, 2, 3]), (true, [3, 4, 5])])
  func bufferHoldsValuesUntilDemand(dropsOldest: Bool, expected: [Int]) {
    let strategy: Publishers.BufferingStrategy<Never> = dropsOldest ? .dropOldest : .dropNewest
    let subject = PassthroughSubject<Int, Never>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
    subject.buffer(size: 3, prefetch: .byRequest, whenFull: strategy).subscribe(tracker)
    for value in 1...5 { subject.send(value) }
    #expect(tracker.values.isEmpty)
    tracker.request(.max(10))
    #expect(tracker.values == expected)
  }

  @Test func bufferKeepFullRequestsAhead() {
    var requested: [Subscribers.Demand] = []
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    (1...10).publisher.handleEvents(receiveRequest: { requested.append($0) })
      .buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
      .subscribe(tracker)
    #expect(requested.first == .max(2))
    #expect(tracker.values == [1])
    tracker.request(.max(2))
    #expect(tracker.values == [1, 2, 3])
  }

  @Test func bufferCustomErrorFails() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    subject.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .oops }).subscribe(
      tracker)
    subject.send(1)
    subject.send(2)
    tracker.request(.max(5))
    #expect(tracker.completions == [.failure(.oops)])
  }

  // `buffer(size:prefetch:whenFull:)` as Combine shapes it.
  @Test func keepFullAsksForTheSizeThenRefillsWhatItHandsOut() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, TestError>(subscription: upstream)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    publisher.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(tracking)
    for value in 1...3 { publisher.send(value) }
    tracking.request(.max(2))
    #expect(tracking.values == [1, 2])
    #expect(upstream.history == [.requested(.max(3)), .requested(.max(2))])
  }

  @Test func aFullBufferFailsOnTheNextRequestWithoutWaitingForDemand() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, TestError>(subscription: upstream)
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    publisher.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { .oops })
      .subscribe(tracking)
    publisher.send(1)
    publisher.send(2)
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    #expect(tracking.completions.isEmpty)
    // The request takes the buffered value; the failure then needs no further demand.
    tracking.request(.max(1))
    #expect(tracking.values == [1])
    #expect(tracking.completions == [.failure(.oops)])
  }

  @Test func aFinishWaitsForTheBufferedValuesToBeAskedFor() {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    publisher.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).subscribe(tracking)
    publisher.send(1)
    publisher.send(completion: .finished)
    #expect(tracking.completions.isEmpty)
    tracking.request(.max(1))
    #expect(tracking.values == [1])
    // As in Combine, the finish itself needs outstanding demand.
    #expect(tracking.completions.isEmpty)
    tracking.request(.max(1))
    #expect(tracking.completions == [.finished])
  }

  @Test func aCancelBeforeTheSubscriptionDoesNothing() {
    let publisher = ManualPublisher<Int, TestError>(subscription: nil)
    publisher.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
      .subscribe(TrackingSubscriber<Int, TestError>())
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.requested(.unlimited)])
  }
}
