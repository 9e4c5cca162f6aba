import ReactiveCore
import Testing

@Suite struct BasicPublisherTests {
  @Test func justWaitsForDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
    Just(5).subscribe(tracker)
    #expect(tracker.values.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [5])
    #expect(tracker.completions == [.finished])
    #expect(tracker.events.first == .subscription("Just"))
  }

  @Test func emptyAndFail() {
    let empty = TrackingSubscriber<Int, TestError>()
    Empty<Int, TestError>().subscribe(empty)
    #expect(empty.events == [.subscription("Empty"), .completion(.finished)])
    let never = TrackingSubscriber<Int, TestError>()
    Empty<Int, TestError>(completeImmediately: false).subscribe(never)
    #expect(never.completions.isEmpty)
    let fail = TrackingSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: .oops).subscribe(fail)
    #expect(fail.completions == [.failure(.oops)])
  }

  @Test func sequenceHonoursDemandAndFinishesAfterLastElement() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    [1, 2, 3].publisher.subscribe(tracker)
    #expect(tracker.values == [1, 2])
    #expect(tracker.completions.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [1, 2, 3])
    #expect(tracker.completions == [.finished])
  }

  @Test func emptySequenceFinishesWithoutDemand() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: nil)
    [Int]().publisher.subscribe(tracker)
    #expect(tracker.completions == [.finished])
  }

  @Test func sequenceHandlesReentrantRequests() {
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    let reentrant = TrackingSubscriber<Int, Never>(
      initialDemand: .max(1), onValue: { _ in tracker.request(.max(1)) })
    _ = reentrant
    var received: [Int] = []
    var subscription: (any Subscription)?
    (1...5).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.max(1))
        },
        receiveValue: { value in
          received.append(value)
          subscription?.request(.max(1))
          return .none
        }))
    #expect(received == [1, 2, 3, 4, 5])
  }

  @Test func optionalAndResultPublishers() {
    var received: [Int] = []
    _ = Optional(3).publisher.sink { received.append($0) }
    _ = Optional<Int>.none.publisher.sink { received.append($0) }
    _ = Result<Int, Never>.success(4).publisher.sink { received.append($0) }
    #expect(received == [3, 4])
    let failure = TrackingSubscriber<Int, TestError>()
    Result<Int, TestError>.failure(.oops).publisher.subscribe(failure)
    #expect(failure.completions == [.failure(.oops)])
  }

  @Test func futureRunsItsClosureOnceAndReplaysTheResult() {
    var runs = 0
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> {
      runs += 1
      promise = $0
    }
    var first: [Int] = []
    let a = future.sink { first.append($0) }
    promise?(.success(7))
    promise?(.success(8))
    var second: [Int] = []
    let b = future.sink { second.append($0) }
    #expect(runs == 1)
    #expect(first == [7])
    #expect(second == [7])
    a.cancel()
    b.cancel()
  }

  @Test func futureWaitsForDemand() {
    let future = Future<Int, TestError> { $0(.success(1)) }
    let tracker = TrackingSubscriber<Int, TestError>(initialDemand: nil)
    future.subscribe(tracker)
    #expect(tracker.values.isEmpty)
    tracker.request(.max(1))
    #expect(tracker.values == [1])
    #expect(tracker.completions == [.finished])
  }

  @Test func deferredRunsOncePerSubscription() {
    var runs = 0
    let deferred = Deferred {
      runs += 1
      return Just(runs)
    }
    var received: [Int] = []
    _ = deferred.sink { received.append($0) }
    _ = deferred.sink { received.append($0) }
    #expect(runs == 2)
    #expect(received == [1, 2])
  }

  @Test func recordReplaysOutputAndCompletion() {
    let record = Record<Int, TestError> { recording in
      recording.receive(1)
      recording.receive(2)
      recording.receive(completion: .failure(.oops))
    }
    #expect(record.recording.output == [1, 2])
    let tracker = TrackingSubscriber<Int, TestError>()
    record.subscribe(tracker)
    #expect(tracker.values == [1, 2])
    #expect(tracker.completions == [.failure(.oops)])
  }

  @Test func anyPublisherAndAnySubscriberForward() {
    let erased = [1, 2].publisher.map { $0 * 2 }.eraseToAnyPublisher()
    #expect(erased.description == "AnyPublisher")
    let tracker = TrackingSubscriber<Int, Never>()
    erased.subscribe(AnySubscriber(tracker))
    #expect(tracker.values == [2, 4])
    #expect(AnySubscriber<Int, Never>().description == "Anonymous AnySubscriber")
  }

  @Test func sinkAndAssignDescriptions() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.description == "Sink")
    #expect(String(describing: sink.playgroundDescription) == "Sink")
    final class Box { var value = 0 }
    let box = Box()
    let assign = Subscribers.Assign(object: box, keyPath: \Box.value)
    #expect(assign.description == "Assign Box.")
    _ = [1, 2, 3].publisher.assign(to: \.value, on: box)
    #expect(box.value == 3)
  }

  @Test func emptySubscriptionIgnoresEverything() {
    Subscriptions.empty.request(.max(1))
    Subscriptions.empty.cancel()
    #expect(String(describing: Subscriptions.empty) == "Empty")
  }
}
