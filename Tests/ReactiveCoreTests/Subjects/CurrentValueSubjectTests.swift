import ReactiveCore
import Testing

@Suite struct CurrentValueSubjectTests {
  @Test func deliversCurrentValueWhenDemandArrives() {
    let subject = CurrentValueSubject<Int, TestError>(1)
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    subject.subscribe(tracker)
    #expect(tracker.values.isEmpty)
    subject.value = 2
    tracker.request(.max(1))
    #expect(tracker.values == [2])
    subject.send(3)
    #expect(tracker.values == [2])
    // As in Combine (OpenCombine's PublishedTests, run against it, show the same): the
    // value missed for want of demand arrives with the next request.
    tracker.request(.max(5))
    #expect(tracker.values == [2, 3])
    subject.send(4)
    #expect(tracker.values == [2, 3, 4])
    #expect(tracker.events.first == .subscription("CurrentValueSubject"))
  }

  @Test func valueIsStoredEvenWithoutSubscribers() {
    let subject = CurrentValueSubject<String, Never>("a")
    subject.send("b")
    #expect(subject.value == "b")
    var received: [String] = []
    let cancellable = subject.sink { received.append($0) }
    subject.value = "c"
    #expect(received == ["b", "c"])
    cancellable.cancel()
  }

  @Test func completionEndsDelivery() {
    let subject = CurrentValueSubject<Int, TestError>(0)
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    subject.send(completion: .finished)
    subject.send(9)
    #expect(tracker.values == [0])
    #expect(tracker.completions == [.finished])
  }

  // A current-value subject asks an upstream for values once.
  @Test func anAdoptedUpstreamIsAskedOnce() {
    let upstream = RecordingSubscription()
    let subject = CurrentValueSubject<Int, Never>(0)
    subject.send(subscription: upstream)
    let tracking = TrackingSubscriber<Int, Never>()
    subject.subscribe(tracking)
    #expect(upstream.history == [.requested(.unlimited)])
  }

  // Subjects as Combine shapes them: how their subscriptions describe themselves, what a
  // late subscriber gets, and when they ask their upstreams for values.
  @Test func aLateSubscriberGetsTheCompletionThroughAnEmptySubscription() {
    let subject = CurrentValueSubject<Int, TestError>(1)
    subject.send(completion: .failure(.oops))
    let tracking = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracking)
    #expect(tracking.events == [.subscription("Empty"), .completion(.failure(.oops))])
  }

  @Test func currentValueChangesAfterCompletionWithoutBeingSent() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let tracking = TrackingSubscriber<Int, Never>()
    subject.subscribe(tracking)
    subject.send(completion: .finished)
    subject.value = 42
    #expect(subject.value == 42)
    #expect(tracking.values == [1])
  }

  @Test func currentValueAsksUpstreamAtOnce() {
    let upstream = RecordingSubscription()
    let subject = CurrentValueSubject<Int, Never>(0)
    subject.send(subscription: upstream)
    #expect(upstream.history == [.requested(.unlimited)])
  }

  // A subject with a current value owes it to a subscriber that missed it for want of
  // demand, as Combine's `CurrentValueSubject` and `@Published` do.
  @Test func aMissedValueArrivesAtTheNextRequest() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.subscribe(tracking)
    subject.send(1)
    subject.send(2)
    #expect(tracking.values == [0])
    tracking.request(.max(2))
    #expect(tracking.values == [0, 2])
    subject.send(3)
    #expect(tracking.values == [0, 2, 3])
  }
}
