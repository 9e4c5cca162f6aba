import ReactiveCore
import Testing

@Suite struct FutureTests {
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

  @Test func futureReleasesSubscriberAfterDelivery() {
    weak var weakToken: Token?
    let future = Future<Int, Never> { $0(.success(1)) }
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = future.sink { _ in _ = token }
    }
    #expect(weakToken == nil)
    _ = cancellable
  }

  // `Future` subscriptions as Combine's.
  @Test func aCancelledSubscriberIsForgottenByTheFuture() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    weak var weakSink: Subscribers.Sink<Int, Never>?
    do {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakSink = sink
      future.subscribe(sink)
      sink.cancel()
    }
    #expect(weakSink == nil)
    promise?(.success(1))
  }

  @Test func theSubscriptionMirrorsItsFutureUntilItDelivers() {
    var promise: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { promise = $0 }
    let held = LockedBox<(any Subscription)?>(nil)
    future.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in held.withLock { $0 = subscription } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    let subscription = held.withLock { $0 }
    func parent() -> Any? {
      subscription.flatMap { Mirror(reflecting: $0).children.first { $0.label == "parent" }?.value }
    }
    #expect("\(parent() ?? "none")".contains("Future"))
    subscription?.request(.unlimited)
    promise?(.success(1))
    #expect("\(parent() ?? "none")" == "nil")
    held.withLock { $0 = nil }
  }

  /// Combine keeps the future while it delivers a result to a waiting subscriber (also a
  /// failure), and lets go of it once delivered.
  @Test(arguments: [true, false])
  func theParentIsHeldWhileDelivering(fails: Bool) {
    var promise: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { promise = $0 }
    var subscription: (any Subscription)?
    var parentsSeen: [String] = []
    func parent() -> String {
      subscription.flatMap {
        Mirror(reflecting: $0).children.first { $0.label == "parent" }.map { "\($0.value)" }
      } ?? "none"
    }
    future.subscribe(
      AnySubscriber<Int, TestError>(
        receiveSubscription: {
          subscription = $0
          $0.request(.unlimited)
        },
        receiveValue: { _ in
          parentsSeen.append(parent())
          return .none
        },
        receiveCompletion: { _ in parentsSeen.append(parent()) }))
    promise?(fails ? .failure(.oops) : .success(1))
    #expect(parentsSeen.count == (fails ? 1 : 2))
    #expect(parentsSeen.allSatisfy { $0.contains("Future") })
    #expect(parent() == "nil")
  }

  @Test func aResultDeliveredOnDemandKeepsTheFuture() {
    let future = Future<Int, Never> { $0(.success(42)) }
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    future.subscribe(tracking)
    tracking.request(.max(1))
    #expect(tracking.events == [.subscription("Future"), .value(42), .completion(.finished)])
    let parent = tracking.subscription.flatMap {
      Mirror(reflecting: $0).children.first { $0.label == "parent" }.map { "\($0.value)" }
    }
    #expect(parent?.contains("Future") == true)
  }
}
