import Foundation
import ReactiveCore
import Testing

@Suite struct PassthroughSubjectTests {
  @Test func deliversOnlyWithinDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: .max(2))
    subject.subscribe(tracker)
    for value in 1...5 { subject.send(value) }
    #expect(tracker.values == [1, 2])
    tracker.request(.max(1))
    subject.send(6)
    subject.send(7)
    #expect(tracker.values == [1, 2, 6])
  }

  @Test func demandReturnedFromReceiveIsHonoured() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>(
      initialDemand: .max(1), demandPerValue: .max(1))
    subject.subscribe(tracker)
    for value in 1...4 { subject.send(value) }
    #expect(tracker.values == [1, 2, 3, 4])
  }

  @Test func completesOnceAndNothingAfter() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracker.values == [1])
    #expect(tracker.completions == [.failure(.oops)])
  }

  @Test func lateSubscriberGetsTheCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    subject.send(completion: .finished)
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    #expect(tracker.completions == [.finished])
    #expect(tracker.values.isEmpty)
  }

  @Test func describesItsConduit() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, TestError>()
    subject.subscribe(tracker)
    #expect(tracker.events.first == .subscription("PassthroughSubject"))
  }

  @Test func cancelStopsDeliveryAndIsIdempotent() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    subject.send(1)
    cancellable.cancel()
    cancellable.cancel()
    subject.send(2)
    #expect(received == [1])
  }

  @Test func cancelFromInsideDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
    _ = cancellable
  }

  @Test func reentrantSendFromSink() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { value in
      received.append(value)
      if value < 3 { subject.send(value + 1) }
    }
    subject.send(1)
    #expect(received == [1, 2, 3])
    cancellable.cancel()
  }

  @Test func multipleSubscribersEachReceive() {
    let subject = PassthroughSubject<Int, Never>()
    var first: [Int] = []
    var second: [Int] = []
    let a = subject.sink { first.append($0) }
    let b = subject.sink { second.append($0) }
    subject.send(1)
    a.cancel()
    subject.send(2)
    #expect(first == [1])
    #expect(second == [1, 2])
    b.cancel()
  }

  @Test func subscribingASubjectForwardsValues() {
    let source = PassthroughSubject<Int, Never>()
    let target = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let sink = target.sink { received.append($0) }
    let link = source.subscribe(target)
    source.send(1)
    link.cancel()
    source.send(2)
    #expect(received == [1])
    sink.cancel()
  }
}

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
}
