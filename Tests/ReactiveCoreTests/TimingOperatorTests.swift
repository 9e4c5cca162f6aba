import ReactiveCore
import Testing

/// The instant `ms` milliseconds after zero on a ``TestScheduler``.
private func at(_ ms: Int) -> SchedulerInstant { SchedulerInstant(ms * 1_000_000) }

private typealias Tracking = TrackingSubscriber<Int, TestError>
private typealias Subject = PassthroughSubject<Int, TestError>

/// The event a tracker records for a delay subscription: like Combine's, it has no
/// description of its own (OpenCombine's DelayTests.testDelayReflection), so it is
/// recorded under its type's name rather than as "Delay".
private func delaySubscriptionEvent(_ tracking: Tracking) -> Event<Int, TestError> {
  let subscription = tracking.subscription
  #expect(subscription.map { !($0 is CustomStringConvertible) } == true)
  return .subscription(subscription.map { String(describing: $0) } ?? "none")
}

@Suite struct ReceiveOnTests {
  @Test func deliversValuesAndCompletionOnTheScheduler() {
    let scheduler = TestScheduler()
    let subject = Subject()
    let tracking = Tracking()
    subject.receive(on: scheduler).subscribe(tracking)
    // Combine hands the subscription over at once; only values and the completion go
    // through the scheduler (OpenCombine's ReceiveOnTests.testBasicBehavior, which runs
    // against Combine, asserts it before the scheduler runs anything).
    #expect(tracking.events == [.subscription("ReceiveOn")])
    scheduler.advance()
    #expect(tracking.events == [.subscription("ReceiveOn")])
    subject.send(1)
    subject.send(2)
    #expect(tracking.values.isEmpty)
    scheduler.advance()
    #expect(tracking.values == [1, 2])
    subject.send(completion: .failure(.oops))
    subject.send(3)
    #expect(tracking.completions.isEmpty)
    scheduler.advance()
    #expect(
      tracking.events == [
        .subscription("ReceiveOn"), .value(1), .value(2), .completion(.failure(.oops)),
      ])
  }

  @Test func demandOfOneAtATime() {
    let scheduler = TestScheduler()
    let tracking = Tracking(initialDemand: .max(1), demandPerValue: .max(1))
    [1, 2, 3].publisher.setFailureType(to: TestError.self).receive(on: scheduler)
      .subscribe(tracking)
    scheduler.advance()
    #expect(tracking.values == [1, 2, 3])
    #expect(tracking.completions == [.finished])

    let subject = Subject()
    let single = Tracking(initialDemand: .max(1))
    subject.receive(on: scheduler).subscribe(single)
    scheduler.advance()
    subject.send(1)
    subject.send(2)  // no demand: the subject drops it
    scheduler.advance()
    #expect(single.values == [1])
    single.request(.max(1))
    subject.send(3)
    scheduler.advance()
    #expect(single.values == [1, 3])
  }

  @Test func cancelStopsScheduledDeliveriesAndReleasesTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    weak var weakToken: Token?
    var received: [Int] = []
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.receive(on: scheduler).sink(
        receiveCompletion: { _ in _ = token },
        receiveValue: {
          _ = token
          received.append($0)
        })
    }
    scheduler.advance()
    subject.send(1)
    cancellable?.cancel()
    // Combine's receive(on:) keeps its subscriber until work already scheduled has run
    // (OpenCombine's ReceiveOnTests.testStrongCaptureWhenSchedulingValue and
    // testReceiveOnLifecycle), so the token goes with the scheduled delivery of 1.
    // (Combine's Sink also drops its closures on cancel, which frees the token at once.)
    scheduler.advance()
    #expect(weakToken == nil)
    subject.send(2)
    scheduler.advance()
    #expect(received.isEmpty)
  }

  @Test func reentrantSendFromTheSubscriber() {
    let scheduler = TestScheduler()
    let subject = Subject()
    var received: [Int] = []
    let cancellable = subject.receive(on: scheduler).sink(
      receiveCompletion: { _ in },
      receiveValue: {
        received.append($0)
        if $0 == 1 { subject.send(2) }
      })
    scheduler.advance()
    subject.send(1)
    scheduler.advance()
    #expect(received == [1, 2])
    cancellable.cancel()
  }
}

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
}

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
}

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
}

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
}

@Suite struct MeasureIntervalTests {
  @Test func emitsTheTimeSinceThePreviousEvent() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Void, TestError>()
    let tracking = TrackingSubscriber<SchedulerStride, TestError>()
    subject.measureInterval(using: scheduler).subscribe(tracking)
    scheduler.advance(by: .milliseconds(1_500))
    subject.send()
    scheduler.advance(by: .milliseconds(250))
    subject.send()
    subject.send()
    subject.send(completion: .failure(.oops))
    #expect(
      tracking.events == [
        .subscription("MeasureInterval"), .value(.milliseconds(1_500)),
        .value(.milliseconds(250)), .value(.zero), .completion(.failure(.oops)),
      ])
  }

  @Test func demandOfOneAtATime() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Void, TestError>()
    let tracking = TrackingSubscriber<SchedulerStride, TestError>(initialDemand: .max(1))
    subject.measureInterval(using: scheduler).subscribe(tracking)
    subject.send()
    subject.send()
    #expect(tracking.values.count == 1)
    tracking.request(.max(1))
    scheduler.advance(by: .seconds(2))
    subject.send()
    #expect(tracking.values == [.zero, .seconds(2)])
  }

  @Test func cancelReleases() {
    let subject = PassthroughSubject<Void, Never>()
    weak var weakToken: Token?
    var cancellable: AnyCancellable?
    do {
      let token = Token()
      weakToken = token
      cancellable = subject.measureInterval(using: TestScheduler()).sink { _ in _ = token }
    }
    cancellable?.cancel()
    #expect(weakToken == nil)
  }
}

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
