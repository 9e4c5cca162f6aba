// Cross-cutting: the one engine behind every reducing operator, checked through several.

import Dispatch
import ReactiveCore
import Synchronization
import Testing

@Suite struct ReducerTests {
  /// Every reducing operator by the name Combine gives its subscription.
  static let names = [
    "Reduce", "TryReduce", "Collect", "Count", "Comparison", "TryComparison", "Contains",
    "ContainsWhere", "TryContainsWhere", "AllSatisfy", "TryAllSatisfy", "First", "TryFirst",
    "TryFirstWhere", "Last", "LastWhere", "TryLastWhere",
  ]

  /// The reducing operator `name` on `publisher`.
  private static func reducing(
    _ name: String, on publisher: ManualPublisher<Int, Never>
  ) -> any Publisher {
    switch name {
    case "Reduce": publisher.reduce(0, +)
    case "TryReduce": publisher.tryReduce(0, +)
    case "Collect": publisher.collect()
    case "Count": publisher.count()
    case "Comparison": publisher.max()
    case "TryComparison": publisher.tryMax { $0 < $1 }
    case "Contains": publisher.contains(1)
    case "ContainsWhere": publisher.contains { $0 == 1 }
    case "TryContainsWhere": publisher.tryContains { $0 == 1 }
    case "AllSatisfy": publisher.allSatisfy { $0 == 1 }
    case "TryAllSatisfy": publisher.tryAllSatisfy { $0 == 1 }
    case "First": publisher.first()
    case "TryFirst": publisher.first { $0 == 1 }
    case "TryFirstWhere": publisher.tryFirst { $0 == 1 }
    case "Last": publisher.last()
    case "LastWhere": publisher.last { $0 == 1 }
    default: publisher.tryLast { $0 == 1 }
    }
  }

  /// Attaches a subscriber that ignores everything.
  private static func attach<P: Publisher>(to publisher: P) {
    publisher.subscribe(
      AnySubscriber<P.Output, P.Failure>(
        receiveSubscription: { _ in }, receiveValue: { _ in .none }, receiveCompletion: { _ in }))
  }

  // The reducing operators (`reduce`, `collect()`, `count`, `min`/`max`, `contains`,
  // `allSatisfy`, `first`, `last` and their `where`/`try` forms) as Combine shapes them.
  @Test(arguments: names)
  func theSubscriberIsTheSubscriptionAndNamesItsOperator(_ name: String) throws {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    Self.attach(to: Self.reducing(name, on: publisher))
    let subscriber = try #require(publisher.rawSubscriber as? any Subscription)
    #expect("\(subscriber)" == name)
    let playground = (subscriber as? any CustomPlaygroundDisplayConvertible)?
      .playgroundDescription
    #expect(playground as? String == name)
    let labels = Mirror(reflecting: subscriber).children.map(\.label)
    #expect(
      labels == (name == "Collect" ? ["count"] : ["downstream", "result", "initial", "status"]))
  }

  @Test func itHandsItselfDownstreamBeforeAskingUpstreamForEverything() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let seenByDownstream = LockedBox<[SubscriptionCall]?>(nil)
    publisher.count().subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { _ in seenByDownstream.withLock { $0 = upstream.history } },
        receiveValue: { _ in .none }, receiveCompletion: { _ in }))
    publisher.send(subscription: upstream)
    #expect(seenByDownstream.withLock { $0 } == [])
    #expect(upstream.history == [.requested(.unlimited)])
  }

  @Test func theResultWaitsForARequestAfterUpstreamFinishes() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.reduce(0, +).subscribe(tracking)
    publisher.send(1)
    publisher.send(2)
    publisher.send(completion: .finished)
    #expect(tracking.events == [.subscription("Reduce")])
    tracking.request(.max(1))
    #expect(tracking.events == [.subscription("Reduce"), .value(3), .completion(.finished)])
    tracking.request(.max(1))
    #expect(tracking.events.count == 3)
  }

  @Test func anEmptyUpstreamFinishesOnlyOnceAsked() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.first().subscribe(tracking)
    publisher.send(completion: .finished)
    #expect(tracking.events == [.subscription("First")])
    tracking.request(.unlimited)
    #expect(tracking.events == [.subscription("First"), .completion(.finished)])
  }

  @Test func anEarlyEndCancelsUpstreamAtOnceAndPublishesWhenAsked() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<Bool, Never>(initialDemand: nil)
    let tested = Atomic<Int>(0)
    publisher.contains {
      tested.add(1, ordering: .relaxed)
      return $0 == 2
    }.subscribe(tracking)
    #expect(publisher.send(1) == .none)
    #expect(publisher.send(2) == .none)
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    #expect(tracking.events == [.subscription("ContainsWhere")])
    // Values after the end are not tested.
    #expect(publisher.send(3) == .none)
    #expect(tested.load(ordering: .relaxed) == 2)
    tracking.request(.max(1))
    #expect(
      tracking.events == [.subscription("ContainsWhere"), .value(true), .completion(.finished)])
    tracking.cancel()
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
  }

  @Test func anEarlyEndWithDemandPublishesAtOnce() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Bool, Never>()
    publisher.allSatisfy { $0 < 3 }.subscribe(tracking)
    publisher.send(1)
    publisher.send(5)
    #expect(
      tracking.events == [.subscription("AllSatisfy"), .value(false), .completion(.finished)])
    publisher.send(completion: .finished)
    #expect(tracking.events.count == 3)
  }

  @Test func anUpstreamFailureIsForwardedWithoutDemand() {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<[Int], TestError>(initialDemand: nil)
    publisher.collect().subscribe(tracking)
    publisher.send(1)
    publisher.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("Collect"), .completion(.failure(.oops))])
    tracking.request(.max(1))
    publisher.send(completion: .finished)
    #expect(tracking.events.count == 2)
  }

  @Test func aThrowCancelsUpstreamThenFailsWithoutDemand() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let historyAtFailure = LockedBox<[SubscriptionCall]?>(nil)
    let failures = Atomic<Int>(0)
    publisher.tryReduce(0) { sum, value in
      if value == 2 { throw TestError.oops }
      return sum + value
    }.subscribe(
      AnySubscriber<Int, any Error>(
        receiveSubscription: { _ in }, receiveValue: { _ in .none },
        receiveCompletion: { completion in
          if case .failure(let error) = completion, error as? TestError == .oops {
            failures.add(1, ordering: .relaxed)
          }
          historyAtFailure.withLock { $0 = upstream.history }
        }))
    publisher.send(1)
    publisher.send(2)
    #expect(failures.load(ordering: .relaxed) == 1)
    #expect(historyAtFailure.withLock { $0 } == [.requested(.unlimited), .cancelled])
  }

  @Test func aCancelBeforeTheSubscriptionLeavesTheLateOneAskedForEverything() throws {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    Self.attach(to: publisher.last())
    try #require(publisher.rawSubscriber as? any Subscription).cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.requested(.unlimited)])
  }

  @Test func aCancelCancelsUpstreamOnceAndSilencesTheRest() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.max().subscribe(tracking)
    publisher.send(4)
    tracking.cancel()
    tracking.request(.unlimited)
    tracking.cancel()
    publisher.send(completion: .finished)
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    #expect(tracking.events == [.subscription("Comparison")])
    let second = RecordingSubscription()
    publisher.send(subscription: second)
    #expect(second.history == [.cancelled])
  }

  @Test func itKeepsItsDownstreamAfterCancelAndCompletionUntilItIsReleased() throws {
    weak var weakToken: Token?
    var publisher: ManualPublisher<Int, Never>? = ManualPublisher(
      subscription: RecordingSubscription())
    do {
      let token = Token()
      weakToken = token
      publisher?.count().subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { $0.request(.unlimited) },
          receiveValue: { _ in
            _ = token
            return .none
          },
          receiveCompletion: { _ in _ = token }))
    }
    try #require(publisher?.rawSubscriber as? any Subscription).cancel()
    #expect(weakToken != nil)
    publisher?.send(completion: .finished)
    #expect(weakToken != nil)
    publisher = nil
    #expect(weakToken == nil)
  }

  @Test func aSinkLetsTheWholeChainGoAfterTheResult() {
    weak var weakToken: Token?
    let subject = PassthroughSubject<Int, Never>()
    var received: [[Int]] = []
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.collect().sink {
        _ = token
        received.append($0)
      }
    }
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(received == [[1, 2]])
    #expect(weakToken == nil)
    _ = cancellable
  }

  @Test func theMirrorShowsTheResultAndTheInitialResult() throws {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    publisher.reduce(10, +).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
    publisher.send(5)
    let subscriber = try #require(publisher.rawSubscriber)
    let children = Dictionary(
      uniqueKeysWithValues: Mirror(reflecting: subscriber).children.map {
        ($0.label ?? "", "\($0.value)")
      })
    #expect(children["result"] == "Optional(15)")
    #expect(children["initial"] == "Optional(10)")
  }

  @Test func aRequestRacingWithTheFinishDeliversExactlyOnce() {
    for _ in 0..<500 {
      let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
      let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
      publisher.count().subscribe(tracking)
      publisher.send(1)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          publisher.send(completion: .finished)
        } else {
          tracking.request(.max(1))
        }
      }
      #expect(tracking.events == [.subscription("Count"), .value(1), .completion(.finished)])
    }
  }

  @Test func zeroDemandTraps() async {
    await #expect(processExitsWith: .failure) {
      let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
      publisher.count().subscribe(
        AnySubscriber<Int, Never>(
          receiveSubscription: { $0.request(.none) }, receiveValue: { _ in .none },
          receiveCompletion: { _ in }))
    }
  }
}
