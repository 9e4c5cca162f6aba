import ReactiveCore
import Testing

/// A subscriber that asks for one more value from inside each value it receives.
private final class GreedySubscriber: Subscriber, @unchecked Sendable {
  typealias Input = Int
  typealias Failure = Never

  /// The subscription (until completion), the values received, and whether it finished.
  private let state = LockedBox<((any Subscription)?, [Int], Bool)>((nil, [], false))

  var received: [Int] { state.withLock { $0.1 } }
  var isFinished: Bool { state.withLock { $0.2 } }

  func receive(subscription: any Subscription) {
    state.withLock { $0.0 = subscription }
    subscription.request(.max(1))
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    state.withLock {
      $0.1.append(input)
      return $0.0
    }?.request(.max(1))
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    state.withLock {
      $0.0 = nil
      $0.2 = true
    }
  }
}

private typealias Subject = PassthroughSubject<Int, TestError>

@Suite struct SubscribeOnTests {
  @Test func subscribesAndRequestsOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking(initialDemand: nil)
    var requests: [Subscribers.Demand] = []
    subject.handleEvents(receiveRequest: { requests.append($0) }).subscribe(on: scheduler)
      .subscribe(tracking)
    #expect(tracking.events.isEmpty)
    scheduler.advance()
    #expect(tracking.events == [.subscription("SubscribeOn")])
    tracking.request(.max(1))
    #expect(requests.isEmpty)
    subject.send(1)  // the request has not reached the subject yet
    scheduler.advance()
    #expect(requests == [.max(1)])
    subject.send(2)
    subject.send(3)  // beyond the demand of one
    subject.send(completion: .finished)
    #expect(tracking.events == [.subscription("SubscribeOn"), .value(2), .completion(.finished)])
  }

  @Test func cancelIsScheduledAndReleasesTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var cancelled = false
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.handleEvents(receiveCancel: { cancelled = true })
        .subscribe(on: scheduler).sink(
          receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    scheduler.advance()
    cancellable?.cancel()
    #expect(!cancelled)
    // Combine's subscribe(on:) keeps its subscriber until the scheduled cancel has run
    // (OpenCombine's SubscribeOnTests.testStrongCaptureWhenSchedulingCancel and
    // testSubscribeOnLifecycle). (Combine's Sink also drops its closures on cancel, which
    // frees the token at once.)
    scheduler.advance()
    #expect(cancelled)
    #expect(weakToken == nil)
  }

  /// Combine's lock around calls to the upstream is not recursive: a request made from
  /// inside the upstream's `request(_:)`, on a scheduler that runs work at once, traps
  /// (OpenCombine's testCrashWhenRequestingRecursively).
  @Test func aRecursiveRequestOnAnImmediateSchedulerTraps() async {
    await #expect(processExitsWith: .failure) {
      [1, 2, 3].publisher.subscribe(on: ImmediateScheduler.shared).subscribe(GreedySubscriber())
    }
  }

  @Test func theSameRequestsOnALaterSchedulerDeliverEverything() {
    let scheduler = TestScheduler()
    let greedy = GreedySubscriber()
    [1, 2, 3].publisher.subscribe(on: scheduler).subscribe(greedy)
    scheduler.advance()
    #expect(greedy.received == [1, 2, 3])
    #expect(greedy.isFinished)
  }
}
