import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

@Suite struct DebounceTests {
  @Test func publishesOnlyAfterQuietPeriod() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    #expect(tracking.events == [.subscription("Debounce")])
    subject.send(1)
    scheduler.advance(to: at(400))
    subject.send(2)
    scheduler.advance(to: at(800))
    subject.send(3)
    scheduler.advance(to: at(1_799))
    #expect(tracking.values.isEmpty)
    scheduler.advance(to: at(1_800))
    #expect(tracking.values == [3])
    subject.send(4)
    scheduler.advance(by: .seconds(5))
    #expect(tracking.values == [3, 4])
    #expect(scheduler.pendingCount == 0)
  }

  @Test func finishingDropsThePendingValueAndCompletesOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    subject.send(1)
    scheduler.advance(by: .milliseconds(500))
    subject.send(completion: .finished)
    #expect(tracking.completions.isEmpty)
    scheduler.advance()
    #expect(tracking.events == [.subscription("Debounce"), .completion(.finished)])
    scheduler.advance(by: .seconds(2))
    #expect(tracking.values.isEmpty)
  }

  @Test func failurePassesOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(completion: .failure(.oops))
    scheduler.advance()
    #expect(
      tracking.events == [.subscription("Debounce"), .value(1), .completion(.failure(.oops))])
  }

  @Test func dropsAValueDueWithoutDemand() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking(initialDemand: .max(1))
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [1])
    tracking.request(.max(1))
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [1, 3])
  }

  @Test func cancelCancelsTheTimerAndReleases() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var received: [Int] = []
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.debounce(for: .seconds(1), scheduler: scheduler)
        .sink(
          receiveCompletion: { _ in _ = token },
          receiveValue: {
            _ = token
            received.append($0)
          })
    }
    subject.send(1)
    #expect(scheduler.pendingCount == 1)
    cancellable?.cancel()
    #expect(scheduler.pendingCount == 0)
    #expect(weakToken == nil)
    scheduler.advance(by: .seconds(2))
    #expect(received.isEmpty)
  }

  @Test func reentrantSendFromTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var received: [Int] = []
    let cancellable = subject.debounce(for: .seconds(1), scheduler: scheduler)
      .sink(
        receiveCompletion: { _ in },
        receiveValue: {
          received.append($0)
          if $0 == 1 { subject.send(2) }
        })
    subject.send(1)
    scheduler.advance(by: .seconds(3))
    #expect(received == [1, 2])
    cancellable.cancel()
  }

  // What LeakSanitizer reported for these in tests that never cancel was the test's own
  // cycle (a ``TrackingSubscriber`` keeps its subscription): cancelled or completed, they
  // release everything, which these hold weakly.
  @Test func debounceOnATestSchedulerReleasesEverythingOnCancel() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    weak var weakScheduler: TestScheduler?
    do {
      let scheduler = TestScheduler()
      weakScheduler = scheduler
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
      subject.send(1)
      scheduler.advance(by: .seconds(1))
      subject.send(2)
      #expect(tracker.values == [1])
      #expect(scheduler.pendingCount == 1)
      tracker.cancel()
      #expect(scheduler.pendingCount == 0)
    }
    #expect(weakTracker == nil)
    #expect(weakScheduler == nil)
  }

  @Test func debounceOnATestSchedulerReleasesEverythingOnCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    weak var weakScheduler: TestScheduler?
    do {
      let scheduler = TestScheduler()
      weakScheduler = scheduler
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracker)
      subject.send(1)
      subject.send(completion: .finished)
      scheduler.advance()
      #expect(tracker.completions == [.finished])
      #expect(scheduler.pendingCount == 0)
    }
    #expect(weakTracker == nil)
    #expect(weakScheduler == nil)
  }

  /// Combine's debounce subscription mirrors its subscriber, its demand and the latest
  /// value (OpenCombine's DebounceTests.testDebounceReflection).
  @Test func mirrorsTheSubscriberTheDemandAndTheLatestValue() {
    let scheduler = TestScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = Tracking(initialDemand: .max(2))
    upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    let mirror = { () -> [String] in
      // Unwrapped first: `Optional` itself is `CustomReflectable`.
      guard let raw = upstream.rawSubscriber, let reflectable = raw as? any CustomReflectable
      else { return [] }
      return reflectable.customMirror.children.map {
        "\($0.label ?? "?")=\(String(describing: $0.value))"
      }
    }
    #expect(mirror().count == 3)
    #expect(mirror().first?.hasPrefix("downstream=") == true)
    #expect(mirror().first?.contains("TrackingSubscriber") == true)
    #expect(mirror().dropFirst() == ["downstreamDemand=max(2)", "currentValue=nil"])
    upstream.send(5)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [5])
    #expect(mirror().dropFirst() == ["downstreamDemand=max(1)", "currentValue=Optional(5)"])
    tracking.cancel()
  }
}
