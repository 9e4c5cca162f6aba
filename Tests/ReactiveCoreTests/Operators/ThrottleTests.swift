import ReactiveCore
import Testing

private typealias Subject = PassthroughSubject<Int, TestError>

@Suite struct ThrottleTests {
  @Test(arguments: [(true, [1, 3]), (false, [1, 2])])
  func publishesFirstOrLatestPerInterval(latest: Bool, expected: [Int]) {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(tracking)
    subject.send(1)
    scheduler.advance()
    #expect(tracking.values == [1])
    subject.send(2)
    subject.send(3)
    scheduler.advance(by: .milliseconds(999))
    #expect(tracking.values == [1])
    scheduler.advance(by: .milliseconds(1))
    #expect(tracking.values == expected)
    #expect(tracking.events.first == .subscription("Throttle"))
  }

  @Test func completionFollowsThePendingValue() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(tracking)
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    subject.send(completion: .failure(.oops))
    scheduler.advance(by: .seconds(1))
    #expect(
      tracking.events == [
        .subscription("Throttle"), .value(1), .value(2), .completion(.failure(.oops)),
      ])
  }

  /// With `latest: false`, values arriving while a value and then the completion wait
  /// are dropped: the first value goes out, then the completion, in one emission.
  @Test func firstValueGoesOutBeforeTheCompletionWhenNotLatest() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(tracking)
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    subject.send(3)
    subject.send(completion: .finished)
    subject.send(4)
    scheduler.advance(by: .milliseconds(999))
    #expect(tracking.values == [1])
    scheduler.advance(by: .milliseconds(1))
    #expect(
      tracking.events == [
        .subscription("Throttle"), .value(1), .value(2), .completion(.finished),
      ])
  }

  @Test func completionAloneIsScheduledAtOnce() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(tracking)
    subject.send(completion: .finished)
    #expect(tracking.completions.isEmpty)
    scheduler.advance()
    #expect(tracking.completions == [.finished])
  }

  @Test func dropsValuesWithoutDemand() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking(initialDemand: .max(1))
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(tracking)
    subject.send(1)
    subject.send(2)  // the one demand went to the pending 1: dropped
    scheduler.advance()
    subject.send(3)  // no demand left
    scheduler.advance(by: .seconds(2))
    #expect(tracking.values == [1])
    tracking.request(.max(1))
    subject.send(4)
    scheduler.advance()
    #expect(tracking.values == [1, 4])
  }

  @Test func cancelDropsThePendingValueAndReleases() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var received: [Int] = []
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true)
        .sink(
          receiveCompletion: { _ in _ = token },
          receiveValue: {
            _ = token
            received.append($0)
          })
    }
    subject.send(1)
    cancellable?.cancel()
    #expect(weakToken == nil)
    scheduler.run()
    #expect(received.isEmpty)
  }

  /// Throttle reads the clock when created, when subscribed, for each value that
  /// arrives, and when it emits a value alone; the first value is scheduled at once, a
  /// later one after the interval, with the minimum tolerance.
  @Test func readsTheClockAsCombineDoes() {
    let scheduler = RecordingScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = Tracking()
    upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(tracking)
    #expect(scheduler.calls == [.now, .now])
    upstream.send(1)
    upstream.send(2)
    #expect(scheduler.calls == [.now, .now, .now, .schedule, .now])
    scheduler.clock.advance()
    #expect(tracking.values == [2])
    upstream.send(3)
    upstream.send(completion: .finished)
    #expect(
      scheduler.calls.dropFirst(5)
        == [
          .now, .now, .minimumTolerance, .scheduleAfter(SchedulerInstant(1_000_000_000)), .now,
        ])
    scheduler.clock.advance(by: .seconds(1))
    #expect(tracking.events.dropFirst() == [.value(2), .value(3), .completion(.finished)])
    #expect(scheduler.calls.count == 10, "a value emitted with the completion reads no clock")
  }

  @Test func aValueWithoutDemandStillReadsTheClock() {
    let scheduler = RecordingScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = Tracking(initialDemand: nil)
    upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(tracking)
    upstream.send(1)
    tracking.cancel()
    upstream.send(2)
    #expect(scheduler.calls == [.now, .now, .now])
    #expect(tracking.values.isEmpty)
  }
}
