import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

@Suite struct TimeoutTests {
  @Test func finishesWhenSilentWithoutCustomError() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    var cancelled = false
    subject.handleEvents(receiveCancel: { cancelled = true })
      .timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
    scheduler.advance(by: .milliseconds(999))
    #expect(tracking.completions.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(tracking.events == [.subscription("Timeout"), .completion(.finished)])
    #expect(cancelled)
    #expect(scheduler.pendingCount == 0)
  }

  @Test func failsWithTheCustomError() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.timeout(.seconds(1), scheduler: scheduler, customError: { .other })
      .subscribe(tracking)
    scheduler.advance(by: .seconds(5))
    #expect(tracking.completions == [.failure(.other)])
  }

  @Test func valuesRestartTheClockAndArriveOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.timeout(.seconds(1), scheduler: scheduler, customError: { .other })
      .subscribe(tracking)
    scheduler.advance(to: at(500))
    subject.send(1)
    #expect(tracking.values.isEmpty)
    scheduler.advance(to: at(1_400))
    #expect(tracking.values == [1])
    subject.send(2)
    scheduler.advance(to: at(2_399))
    #expect(tracking.completions.isEmpty)
    scheduler.advance(to: at(2_400))
    #expect(
      tracking.events == [
        .subscription("Timeout"), .value(1), .value(2), .completion(.failure(.other)),
      ])
  }

  @Test func upstreamCompletionArrivesOnTheSchedulerAndStopsTheClock() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.timeout(.seconds(1), scheduler: scheduler, customError: { .other })
      .subscribe(tracking)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracking.values.isEmpty)
    scheduler.advance(by: .seconds(3))
    #expect(
      tracking.events == [.subscription("Timeout"), .value(1), .completion(.failure(.oops))])
  }

  @Test func demandOfOnePassesUpstream() {
    let scheduler = TestScheduler()
    let tracking = Tracking(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.setFailureType(to: TestError.self)
      .timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
    scheduler.advance()
    #expect(tracking.values == [1, 2, 3])
    #expect(tracking.completions == [.finished])

    let subject = Subject()
    let single = Tracking(initialDemand: .max(1))
    subject.timeout(.seconds(1), scheduler: scheduler).subscribe(single)
    subject.send(1)
    subject.send(2)  // dropped by the subject: no demand
    scheduler.advance()
    #expect(single.values == [1])
  }

  @Test func cancelCancelsTheClockAndReleases() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.timeout(
        .seconds(1), scheduler: scheduler,
        customError: {
          _ = token
          return .oops
        }
      )
      .sink(receiveCompletion: { _ in _ = token }, receiveValue: { _ in _ = token })
    }
    #expect(scheduler.pendingCount == 1)
    cancellable?.cancel()
    #expect(scheduler.pendingCount == 0)
    #expect(weakToken == nil)
  }

  /// The clock starts on subscription and again at the first request: each time
  /// reading `now`, then `minimumTolerance`, then scheduling a repeating timer.
  @Test func theFirstRequestStartsTheClockAgain() {
    let scheduler = RecordingScheduler()
    let tracking = Tracking(initialDemand: nil)
    Upstream(subscription: RecordingSubscription())
      .timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
    let start: [RecordingScheduler.Call] = [
      .now, .minimumTolerance,
      .scheduleRepeating(SchedulerInstant(1_000_000_000), every: .seconds(1)),
    ]
    #expect(scheduler.calls == start)
    scheduler.clock.advance(by: .milliseconds(600))
    tracking.request(.max(1))
    tracking.request(.max(1))
    let restart: [RecordingScheduler.Call] = [
      .now, .minimumTolerance,
      .scheduleRepeating(SchedulerInstant(1_600_000_000), every: .seconds(1)),
    ]
    #expect(scheduler.calls == start + restart)
    scheduler.clock.advance(to: SchedulerInstant(1_599_000_000))
    #expect(tracking.completions.isEmpty)
    scheduler.clock.advance(to: SchedulerInstant(1_600_000_000))
    #expect(tracking.completions == [.finished])
    #expect(scheduler.clock.pendingCount == 0)
  }

  @Test func eachValueStartsTheClockAgainThenSchedulesTheValue() {
    let scheduler = RecordingScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = Tracking(initialDemand: nil)
    upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
    let subscribed = scheduler.calls.count
    upstream.send(1)
    #expect(
      scheduler.calls.dropFirst(subscribed)
        == [
          .now, .minimumTolerance,
          .scheduleRepeating(SchedulerInstant(1_000_000_000), every: .seconds(1)), .schedule,
        ])
    tracking.cancel()
    // The scheduled value holds the subscription, which holds the scheduler: let it run.
    scheduler.clock.run()
    #expect(tracking.values.isEmpty)
  }

  /// The upstream's completion stops the clock but leaves the subscription subscribed
  /// until the completion runs: a cancel meanwhile still reaches the upstream, and the
  /// completion is then dropped.
  @Test func aCancelWhileTheCompletionWaitsReachesTheUpstream() {
    let scheduler = TestScheduler()
    let upstreamSubscription = RecordingSubscription()
    let upstream = Upstream(subscription: upstreamSubscription)
    let tracking = Tracking(initialDemand: nil)
    upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(tracking)
    upstream.send(completion: .finished)
    tracking.cancel()
    scheduler.run()
    #expect(upstreamSubscription.history == [.cancelled])
    #expect(tracking.completions.isEmpty)
  }

  /// Combine sets its timer up under its lock, so a scheduler that runs the timer at once
  /// deadlocks on it and traps (OpenCombine's testCrashesWithImmediateScheduler).
  @Test func trapsOnAnImmediateScheduler() async {
    await #expect(processExitsWith: .failure) {
      ManualPublisher<Int, Never>(subscription: RecordingSubscription())
        .timeout(.seconds(1), scheduler: ImmediateScheduler.shared)
        .subscribe(TrackingSubscriber<Int, Never>())
    }
  }
}
