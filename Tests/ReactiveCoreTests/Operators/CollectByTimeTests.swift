import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

/// `collect(.byTime)` and `.byTimeOrCount` as current Combine behaves (the behaviour specs
/// their authors ran against Combine since macOS 10.15.2 / iOS 13.3): every group and the
/// completion reach the subscriber from the scheduler, never from inside an upstream
/// event; `.byTime` asks its upstream for one element per downstream request and one more
/// per element; `.byTimeOrCount` asks for `count` per unit of demand, and again only for
/// the demand returned by a group that the count closed.
@Suite struct CollectByTimeTests {
  private typealias Groups = TrackingSubscriber<[Int], TestError>

  @Test func byTimeEmitsEachNonEmptyWindow() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracking)
    subject.send(1)
    subject.send(2)
    scheduler.advance(by: .milliseconds(999))
    #expect(tracking.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(tracking.values == [[1, 2]])
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [[1, 2]])
    subject.send(3)
    subject.send(completion: .finished)
    #expect(tracking.values == [[1, 2]])
    scheduler.advance()
    #expect(
      tracking.events == [
        .subscription("CollectByTime"), .value([1, 2]), .value([3]), .completion(.finished),
      ])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func byTimeAsksUpstreamForOneElementPerRequestAndPerElement() {
    let scheduler = TestScheduler()
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, TestError>(subscription: upstream)
    let tracking = Groups(initialDemand: .max(2))
    publisher.collect(.byTime(scheduler, .seconds(1))).subscribe(tracking)
    #expect(upstream.history == [.requested(.max(1))])
    #expect(publisher.send(1) == .max(1))
    #expect(publisher.send(2) == .max(1))
    tracking.request(.max(2))
    #expect(upstream.history == [.requested(.max(1)), .requested(.max(1))])
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [[1, 2]])
    #expect(upstream.history == [.requested(.max(1)), .requested(.max(1))])
  }

  @Test func byTimeKeepsGatheringUntilATickFindsDemand() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups(initialDemand: .max(1))
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracking)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [[1]])
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    subject.send(3)
    tracking.request(.max(1))
    scheduler.advance()
    #expect(tracking.values == [[1]])
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [[1], [2, 3]])
  }

  @Test func byTimeOrCountDeliversAFullGroupOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(tracking)
    subject.send(1)
    subject.send(2)
    #expect(tracking.values.isEmpty)
    scheduler.advance()
    #expect(tracking.values == [[1, 2]])
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [[1, 2], [3]])
  }

  @Test func byTimeOrCountCollectsByCountAndByTime() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTimeOrCount(scheduler, .seconds(2), 2)).subscribe(tracking)
    for value in 1...3 { subject.send(value) }
    scheduler.advance(by: .seconds(2))
    for value in 4...8 { subject.send(value) }
    scheduler.advance(by: .seconds(2))
    subject.send(completion: .finished)
    scheduler.advance()
    #expect(
      tracking.events == [
        .subscription("CollectByTime"), .value([1, 2]), .value([3]), .value([4, 5]),
        .value([6, 7]), .value([8]), .completion(.finished),
      ])
  }

  @Test func byTimeOrCountAsksUpstreamForCountTimesDemand() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var requests: [Subscribers.Demand] = []
    let tracking = Groups(initialDemand: .max(1))
    subject.handleEvents(receiveRequest: { requests.append($0) })
      .collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(tracking)
    #expect(requests == [.max(3)])
    for value in 1...5 { subject.send(value) }
    scheduler.advance()
    #expect(tracking.values == [[1, 2, 3]])
    tracking.request(.max(1))
    #expect(requests == [.max(3), .max(3)])
  }

  /// Combine's history: a group closed by the count asks the upstream again for the
  /// demand it returns; a group closed by the timer does not.
  @Test func byTimeOrCountForwardsOnlyTheDemandOfFullGroups() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, TestError>()
    var requests: [Subscribers.Demand] = []
    var returned: [Subscribers.Demand] = []
    let publisher = subject.handleEvents(receiveRequest: { requests.append($0) })
      .collect(.byTimeOrCount(scheduler, .seconds(1), 2))
    let sink = DemandReturningSubscriber(initialDemand: .max(2)) { group in
      let more: Subscribers.Demand =
        group.contains(0) ? .max(1) : group.contains(2) ? .max(5) : .none
      returned.append(more)
      return more
    }
    publisher.subscribe(sink)
    for value in 0..<100 {
      if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
      subject.send(value)
    }
    scheduler.advance(by: .seconds(1))
    #expect(requests == [.max(4), .max(2)])
    #expect(sink.groups == [[0, 1], [2], [3, 4], [5]])
    #expect(returned == [.max(1), .max(5), .none, .none])
    sink.cancel()
  }

  @Test func completionIsDeliveredOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTime(scheduler, .seconds(2))).subscribe(tracking)
    subject.send(1)
    subject.send(completion: .finished)
    #expect(tracking.events == [.subscription("CollectByTime")])
    scheduler.advance()
    #expect(
      tracking.events == [.subscription("CollectByTime"), .value([1]), .completion(.finished)])
  }

  @Test func failureDiscardsGatheredElementsAndIsDeliveredOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracking)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("CollectByTime")])
    scheduler.advance()
    #expect(tracking.events == [.subscription("CollectByTime"), .completion(.failure(.oops))])
  }

  @Test func groupsAndCompletionWaitForDemand() {
    let scheduler = TestScheduler()
    let subject = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = Groups(initialDemand: .max(1))
    subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(tracking)
    for value in 1...4 { subject.send(value) }
    scheduler.advance()
    #expect(tracking.values == [[1, 2]])
    tracking.request(.max(1))
    subject.send(5)
    subject.send(completion: .finished)
    #expect(tracking.values == [[1, 2]])
    scheduler.advance()
    #expect(tracking.values == [[1, 2], [3, 4]])
    #expect(tracking.completions.isEmpty)
    tracking.request(.max(1))
    #expect(tracking.values == [[1, 2], [3, 4]])
    scheduler.advance()
    #expect(tracking.values == [[1, 2], [3, 4], [5]])
    #expect(tracking.completions == [.finished])
  }

  @Test func cancelStopsTheTimerAndReleases() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.collect(.byTime(scheduler, .seconds(1)))
        .sink(receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    subject.send(1)
    #expect(scheduler.pendingCount == 1)
    cancellable?.cancel()
    #expect(scheduler.pendingCount == 0)
    #expect(weakToken == nil)
  }

  @Test func cancelWithADeliveryOnTheSchedulerReleasesTheSubscriberAtOnce() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1))
        .sink(receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    subject.send(1)
    subject.send(completion: .finished)
    cancellable?.cancel()
    #expect(weakToken == nil)
    scheduler.run()
    #expect(scheduler.pendingCount == 0)
  }

  @Test func reentrantRequestFromTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var received: [[Int]] = []
    let tracking = Groups(initialDemand: .max(1)) { group in
      received.append(group)
    }
    subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(tracking)
    subject.send(1)
    scheduler.advance()
    tracking.request(.max(2))
    subject.send(2)
    subject.send(3)
    scheduler.advance()
    #expect(received == [[1], [2], [3]])
  }

  @Test func immediateSchedulerDeliversInline() {
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTimeOrCount(ImmediateScheduler.shared, 1, 2)).subscribe(tracking)
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(tracking.values == [[1, 2]])
    #expect(tracking.completions == [.finished])
  }
}

/// A subscriber whose every group returns what `demand` says, for demand histories.
private final class DemandReturningSubscriber: Subscriber, Cancellable, @unchecked Sendable {
  typealias Input = [Int]
  typealias Failure = TestError

  private let initialDemand: Subscribers.Demand
  private let demand: ([Int]) -> Subscribers.Demand
  private(set) var groups: [[Int]] = []
  private var subscription: (any Subscription)?

  init(initialDemand: Subscribers.Demand, demand: @escaping ([Int]) -> Subscribers.Demand) {
    self.initialDemand = initialDemand
    self.demand = demand
  }

  func receive(subscription: any Subscription) {
    self.subscription = subscription
    subscription.request(initialDemand)
  }

  func receive(_ input: [Int]) -> Subscribers.Demand {
    groups.append(input)
    return demand(input)
  }

  func receive(completion: Subscribers.Completion<TestError>) {}

  func cancel() {
    subscription?.cancel()
    subscription = nil
  }
}
