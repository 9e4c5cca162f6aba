import Foundation
import ReactiveCore
import Testing

/// A value that a publisher holds, to watch with a `weak` reference.
final class Payload: @unchecked Sendable {}

/// A subscriber that keeps its subscription for good, even after the completion (as the
/// OpenCombine fork's `TrackingSubscriberBase` does), and asks for `demand` at once: a
/// subscription that kept this subscriber after it ended would make a cycle.
final class HoldingSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
  private let demand: Subscribers.Demand
  private(set) var subscription: (any Subscription)?
  private(set) var completed = false

  init(demand: Subscribers.Demand = .unlimited) { self.demand = demand }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    if demand > .none { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand { .none }

  func receive(completion: Subscribers.Completion<Failure>) { completed = true }

  /// Lets go of the subscription, breaking any cycle through it.
  func releaseSubscription() { subscription = nil }
}

/// The sources of the lifetime table (`<doc:Lifetimes>`): what a subscription to `Just`,
/// `Empty`, `Fail`, `Future`, `Deferred`, `Record`, `Sequence`, `Optional` and `Result`
/// publishers keeps, and when it lets go.
@Suite struct SourceLifetimeTests {
  /// One source, publishing a `Payload` it holds: the subscription keeps the payload and
  /// the subscriber until it delivers the completion or is cancelled.
  struct SourceRow: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable (Payload) -> AnyPublisher<Payload, TestError>
    var testDescription: String { name }

    static let all: [SourceRow] = [
      .init(name: "Just") { Just($0).setFailureType(to: TestError.self).eraseToAnyPublisher() },
      .init(name: "Future") { payload in
        Future { $0(.success(payload)) }.eraseToAnyPublisher()
      },
      .init(name: "Deferred") { payload in
        Deferred { Just(payload).setFailureType(to: TestError.self) }.eraseToAnyPublisher()
      },
      .init(name: "Record") { Record(output: [$0], completion: .finished).eraseToAnyPublisher() },
      .init(name: "Sequence") {
        Publishers.Sequence<[Payload], TestError>(sequence: [$0]).eraseToAnyPublisher()
      },
      .init(name: "Optional.Publisher") {
        Optional($0).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
      },
      .init(name: "Result.Publisher") {
        Result<Payload, TestError>.success($0).publisher.eraseToAnyPublisher()
      },
    ]
  }

  @Test(arguments: SourceRow.all)
  func keepsValueAndSubscriberUntilCancelled(_ row: SourceRow) {
    weak var weakPayload: Payload?
    weak var weakSubscriber: HoldingSubscriber<Payload, TestError>?
    var subscription: (any Subscription)?
    do {
      let payload = Payload()
      weakPayload = payload
      let subscriber = HoldingSubscriber<Payload, TestError>(demand: .none)
      weakSubscriber = subscriber
      row.make(payload).subscribe(subscriber)
      subscription = subscriber.subscription
    }
    // No demand yet: the subscription holds the value and the subscriber (which holds
    // the subscription: the cycle a cancel breaks).
    #expect(weakPayload != nil)
    #expect(weakSubscriber != nil)
    subscription?.cancel()
    subscription = nil
    #expect(weakPayload == nil, "\(row.name): value kept after cancel")
    #expect(weakSubscriber == nil, "\(row.name): subscriber kept after cancel")
  }

  @Test(arguments: SourceRow.all)
  func lettingGoOnceCompleted(_ row: SourceRow) {
    weak var weakPayload: Payload?
    weak var weakSubscriber: HoldingSubscriber<Payload, TestError>?
    do {
      let payload = Payload()
      weakPayload = payload
      let subscriber = HoldingSubscriber<Payload, TestError>()
      weakSubscriber = subscriber
      row.make(payload).subscribe(subscriber)
      #expect(subscriber.completed)
    }
    #expect(weakPayload == nil, "\(row.name): value kept after the completion")
    #expect(weakSubscriber == nil, "\(row.name): subscriber kept after the completion")
  }

  @Test func emptyAndFailKeepNothing() {
    weak var weakEmpty: HoldingSubscriber<Int, TestError>?
    weak var weakFail: HoldingSubscriber<Int, TestError>?
    do {
      let empty = HoldingSubscriber<Int, TestError>()
      let fail = HoldingSubscriber<Int, TestError>()
      (weakEmpty, weakFail) = (empty, fail)
      Empty<Int, TestError>().subscribe(empty)
      Fail<Int, TestError>(error: .oops).subscribe(fail)
      #expect(empty.completed && fail.completed)
    }
    #expect(weakEmpty == nil)
    #expect(weakFail == nil)
  }

  /// Combine's `Future` keeps its subscribers until it is fulfilled, and the promise
  /// keeps the future; the closure given to `init` runs at once and is not kept.
  @Test func futureKeepsSubscribersUntilFulfilled() {
    weak var weakFuture: Future<Int, TestError>?
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    weak var weakClosureToken: Token?
    var promise: Future<Int, TestError>.Promise?
    do {
      let token = Token()
      weakClosureToken = token
      let future = Future<Int, TestError> { fulfil in
        _ = token
        promise = fulfil
      }
      weakFuture = future
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      future.subscribe(subscriber)
    }
    #expect(weakClosureToken == nil)
    #expect(weakFuture != nil)
    #expect(weakSubscriber != nil)
    promise?(.success(1))
    #expect(weakSubscriber == nil)
    promise = nil
    #expect(weakFuture == nil)
  }

  @Test func cancellingAFutureSubscriptionReleasesTheSubscriber() {
    let future = Future<Int, TestError> { _ in }
    weak var weakSubscriber: HoldingSubscriber<Int, TestError>?
    var subscription: (any Subscription)?
    do {
      let subscriber = HoldingSubscriber<Int, TestError>()
      weakSubscriber = subscriber
      future.subscribe(subscriber)
      subscription = subscriber.subscription
    }
    subscription?.cancel()
    subscription = nil
    #expect(weakSubscriber == nil)
  }

  /// `Deferred` keeps its closure for as long as it lives (each subscription runs it),
  /// not the subscription: the publisher it made is the one subscribed to.
  @Test func deferredKeepsItsClosureNotItsSubscriptions() {
    weak var weakToken: Token?
    var deferred: Deferred<Empty<Int, Never>>?
    do {
      let token = Token()
      weakToken = token
      deferred = Deferred {
        _ = token
        return Empty()
      }
    }
    let cancellable = deferred?.sink { _ in }
    #expect(weakToken != nil)
    deferred = nil
    #expect(weakToken == nil)
    cancellable?.cancel()
  }
}
