import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

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
    #expect(
      tracking.events == [
        .subscription("CollectByTime"), .value([1, 2]), .value([3]), .completion(.finished),
      ])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func byTimeOrCountEmitsAtTheCount() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(tracking)
    subject.send(1)
    subject.send(2)
    #expect(tracking.values == [[1, 2]])
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [[1, 2], [3]])
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
    #expect(tracking.values == [[1, 2, 3]])
    tracking.request(.max(1))
    #expect(requests == [.max(3), .max(3)])
  }

  @Test func groupsAndCompletionWaitForDemand() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups(initialDemand: .max(1))
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracking)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    subject.send(3)
    subject.send(completion: .finished)
    #expect(tracking.values == [[1]])
    tracking.request(.max(1))
    #expect(tracking.values == [[1], [2]])
    #expect(tracking.completions.isEmpty)
    tracking.request(.max(1))
    #expect(tracking.values == [[1], [2], [3]])
    #expect(tracking.completions == [.finished])
  }

  @Test func failureDiscardsGatheredElements() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Groups()
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(tracking)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("CollectByTime"), .completion(.failure(.oops))])
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

  @Test func reentrantRequestFromTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var received: [[Int]] = []
    let tracking = Groups(initialDemand: .max(1)) { group in
      received.append(group)
    }
    subject.collect(.byTimeOrCount(scheduler, .seconds(1), 1)).subscribe(tracking)
    subject.send(1)
    tracking.request(.max(2))
    subject.send(2)
    subject.send(3)
    #expect(received == [[1], [2], [3]])
  }
}
