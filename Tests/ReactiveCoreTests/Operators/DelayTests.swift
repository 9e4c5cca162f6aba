import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

/// The event a tracker records for a delay subscription: like Combine's, it has no
/// description of its own (OpenCombine's DelayTests.testDelayReflection), so it is
/// recorded under its type's name rather than as "Delay".
private func delaySubscriptionEvent(_ tracking: Tracking) -> Event<Int, TestError> {
  let subscription = tracking.subscription
  #expect(subscription.map { !($0 is CustomStringConvertible) } == true)
  return .subscription(subscription.map { String(describing: $0) } ?? "none")
}

@Suite struct DelayTests {
  @Test func delaysValuesAndCompletion() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    let delay = delaySubscriptionEvent(tracking)
    #expect(tracking.events == [delay])
    subject.send(1)
    scheduler.advance(to: at(500))
    subject.send(2)
    scheduler.advance(to: at(999))
    #expect(tracking.values.isEmpty)
    scheduler.advance(to: at(1_000))
    #expect(tracking.values == [1])
    subject.send(completion: .finished)
    scheduler.advance(to: at(1_500))
    #expect(tracking.values == [1, 2])
    #expect(tracking.completions.isEmpty)
    scheduler.advance(to: at(2_000))
    #expect(tracking.events == [delay, .value(1), .value(2), .completion(.finished)])
  }

  @Test func delaysFailureAfterPrecedingValues() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.delay(for: .milliseconds(10), scheduler: scheduler).subscribe(tracking)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracking.values.isEmpty)
    scheduler.advance(by: .milliseconds(10))
    #expect(
      tracking.events == [
        delaySubscriptionEvent(tracking), .value(1), .completion(.failure(.oops)),
      ])
  }

  @Test func demandOfOneAtATime() {
    let scheduler = TestScheduler()
    let tracking = Tracking(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.setFailureType(to: TestError.self)
      .delay(for: .seconds(1), scheduler: scheduler).subscribe(tracking)
    #expect(tracking.values.isEmpty)
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [1])
    scheduler.advance(by: .seconds(1))
    #expect(tracking.values == [1, 2])
    scheduler.advance(by: .seconds(2))
    #expect(tracking.values == [1, 2, 3])
    #expect(tracking.completions == [.finished])
  }

  @Test func cancelDropsScheduledEventsAndReleases() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var received: [Int] = []
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.delay(for: .seconds(1), scheduler: scheduler)
        .sink(
          receiveCompletion: { _ in _ = token },
          receiveValue: {
            _ = token
            received.append($0)
          })
    }
    subject.send(1)
    cancellable?.cancel()
    // Combine's delay keeps its subscriber until work already scheduled has run
    // (OpenCombine's DelayTests.testStrongCaptureWhenSchedulingValue and
    // testDelayLifecycle), so the token goes with the scheduled delivery of 1.
    // (Combine's Sink also drops its closures on cancel, which frees the token at once.)
    scheduler.run()
    #expect(weakToken == nil)
    #expect(received.isEmpty)
  }

  /// Combine's delay subscription does not describe itself, as subscriber or as
  /// subscription (OpenCombine's DelayTests.testDelayReflection).
  @Test func delayHasNoDescriptionMirrorOrPlaygroundDescription() throws {
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = Tracking()
    upstream.delay(for: .seconds(1), scheduler: TestScheduler()).subscribe(tracking)
    let subscriber = try #require(upstream.rawSubscriber)
    let subscription = try #require(tracking.subscription)
    for side in [subscriber, subscription as Any] {
      #expect(!(side is CustomStringConvertible))
      #expect(!(side is CustomReflectable))
      #expect(!(side is CustomPlaygroundDisplayConvertible))
    }
    tracking.cancel()
  }
}
