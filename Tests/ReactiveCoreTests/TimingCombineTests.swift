import ReactiveCore
import Testing

// The timing operators as Combine shapes them, as OpenCombine 0.14.0's suite (which runs
// against Combine) pins them down: when the subscription is handed over, what a cancel
// before the subscription or after the upstream's completion does, what is kept alive
// while work waits on the scheduler, which scheduler calls each operator makes, and where
// Combine traps.

private typealias Tracking = TrackingSubscriber<Int, TestError>
private typealias Upstream = ManualPublisher<Int, TestError>

/// A scheduler that records every call an operator makes to it (each reading of `now`
/// and `minimumTolerance` included) and runs the work on a ``TestScheduler``.
private final class RecordingScheduler: Scheduler, @unchecked Sendable {
  typealias SchedulerTimeType = SchedulerInstant
  typealias SchedulerOptions = Never

  /// One call to the scheduler.
  enum Call: Equatable {
    case now
    case minimumTolerance
    case schedule
    case scheduleAfter(SchedulerInstant)
    case scheduleRepeating(SchedulerInstant, every: SchedulerStride)
  }

  /// The clock that runs the work; advancing it records nothing.
  let clock = TestScheduler()
  private let recorded = LockedBox<[Call]>([])

  /// Every call so far, in order.
  var calls: [Call] { recorded.withLock { $0 } }

  private func record(_ call: Call) { recorded.withLock { $0.append(call) } }

  var now: SchedulerInstant {
    record(.now)
    return clock.now
  }

  var minimumTolerance: SchedulerStride {
    record(.minimumTolerance)
    return clock.minimumTolerance
  }

  func schedule(options: Never?, _ action: @escaping () -> Void) {
    record(.schedule)
    clock.schedule(options: options, action)
  }

  func schedule(
    after date: SchedulerInstant, tolerance: SchedulerStride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    record(.scheduleAfter(date))
    clock.schedule(after: date, tolerance: tolerance, options: options, action)
  }

  func schedule(
    after date: SchedulerInstant, interval: SchedulerStride, tolerance: SchedulerStride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    record(.scheduleRepeating(date, every: interval))
    return clock.schedule(
      after: date, interval: interval, tolerance: tolerance, options: options, action)
  }
}

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

/// The timing operators, by name, on a manual upstream and a test scheduler.
private func timing(
  _ name: String, _ upstream: Upstream, _ scheduler: TestScheduler
) -> AnyPublisher<Int, TestError> {
  switch name {
  case "receiveOn": upstream.receive(on: scheduler).eraseToAnyPublisher()
  case "subscribeOn": upstream.subscribe(on: scheduler).eraseToAnyPublisher()
  case "delay": upstream.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
  case "timeout": upstream.timeout(.seconds(1), scheduler: scheduler).eraseToAnyPublisher()
  case "debounce":
    upstream.debounce(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
  case "throttle":
    upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).eraseToAnyPublisher()
  default:
    upstream.measureInterval(using: scheduler).map(\.magnitude).eraseToAnyPublisher()
  }
}

@Suite struct TimingLifecycleCombineTests {
  /// Combine's operators (all but throttle) take no notice of a cancel that comes before
  /// the upstream subscription: they still take it when it comes. Throttle remembers the
  /// cancel and cancels the late subscription.
  @Test(arguments: [
    "receiveOn", "subscribeOn", "delay", "timeout", "debounce", "throttle", "measureInterval",
  ])
  func aCancelBeforeTheSubscriptionChangesNothingButForThrottle(_ name: String) {
    let scheduler = TestScheduler()
    let upstream = Upstream(subscription: nil)
    let tracking = Tracking(initialDemand: nil)
    timing(name, upstream, scheduler).subscribe(tracking)
    scheduler.advance()
    let early = upstream.rawSubscriber.flatMap { $0 as? any Subscription }
    #expect(early != nil, "\(name)'s subscriber is its subscription")
    early?.cancel()
    let late = RecordingSubscription()
    upstream.send(subscription: late)
    scheduler.advance()
    // Debounce asks its new upstream for everything, as it does on any subscription.
    let expected: [SubscriptionCall] =
      switch name {
      case "throttle": [.cancelled]
      case "debounce": [.requested(.unlimited)]
      default: []
      }
    #expect(late.history == expected, "\(name)")
    tracking.cancel()
    // subscribe(on:) cancels on the scheduler; work left on it would keep the subscription
    // (which keeps the scheduler) for good.
    scheduler.advance()
  }

  /// Combine's operators other than throttle keep their subscriber for as long as the
  /// subscription lives, cancelled or not (OpenCombine's `testLifecycle` with
  /// `cancellingSubscriptionReleasesSubscriber: false`); throttle lets go at once.
  @Test(arguments: [
    "receiveOn", "subscribeOn", "delay", "timeout", "debounce", "throttle", "measureInterval",
  ])
  func aCancelledSubscriptionKeepsItsSubscriberButForThrottle(_ name: String) {
    let scheduler = TestScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    weak var weakTracking: Tracking?
    var subscription: (any Subscription)?
    do {
      let tracking = Tracking(initialDemand: nil)
      weakTracking = tracking
      timing(name, upstream, scheduler).subscribe(tracking)
      scheduler.advance()
      subscription = upstream.rawSubscriber.flatMap { $0 as? any Subscription }
      tracking.cancel()
      scheduler.advance()
    }
    #expect(subscription != nil)
    #expect((weakTracking != nil) == (name != "throttle"), "\(name)")
    upstream.releaseSubscriber()
    subscription = nil
    #expect(weakTracking == nil, "\(name)")
  }

  /// Work already on the scheduler keeps the subscription, and so the subscriber, alive
  /// after a cancel, until it has run (OpenCombine's `testStrongCaptureWhenScheduling…`).
  @Test(arguments: ["receiveOn", "delay"])
  func scheduledWorkKeepsTheSubscriberUntilItRuns(_ name: String) {
    let scheduler = TestScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    weak var weakTracking: Tracking?
    do {
      let tracking = Tracking()
      weakTracking = tracking
      timing(name, upstream, scheduler).subscribe(tracking)
      upstream.send(1)
      tracking.cancel()
      upstream.releaseSubscriber()
    }
    #expect(weakTracking != nil, "\(name)")
    scheduler.run()
    #expect(weakTracking == nil, "\(name)")
  }

  @Test func aScheduledRequestOrCancelKeepsSubscribeOnsSubscriberUntilItRuns() {
    let scheduler = TestScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    weak var weakTracking: Tracking?
    do {
      let tracking = Tracking(initialDemand: nil)
      weakTracking = tracking
      upstream.subscribe(on: scheduler).subscribe(tracking)
      scheduler.advance()
      tracking.request(.max(1))
      tracking.cancel()
      upstream.releaseSubscriber()
    }
    #expect(weakTracking != nil)
    scheduler.advance()
    #expect(weakTracking == nil)
  }
}

@Suite struct ReceiveOnDelayCombineTests {
  @Test func receiveOnHandsTheSubscriptionOverAtOnce() {
    let scheduler = RecordingScheduler()
    let tracking = Tracking()
    Upstream(subscription: RecordingSubscription()).receive(on: scheduler).subscribe(tracking)
    #expect(tracking.events == [.subscription("ReceiveOn")])
    #expect(scheduler.calls.isEmpty)
    tracking.cancel()
  }

  /// Once the upstream has completed, the completion is delivered even if the subscriber
  /// cancels meanwhile, and neither requests nor the cancel reach the upstream.
  @Test(arguments: ["receiveOn", "delay"])
  func aPendingCompletionOutlivesACancel(_ name: String) {
    let scheduler = TestScheduler()
    let upstreamSubscription = RecordingSubscription()
    let upstream = Upstream(subscription: upstreamSubscription)
    let tracking = Tracking()
    timing(name, upstream, scheduler).subscribe(tracking)
    upstream.send(1)
    upstream.send(completion: .failure(.oops))
    let subscription = tracking.subscription
    subscription?.request(.max(5))
    subscription?.cancel()
    scheduler.run()
    #expect(
      tracking.events.dropFirst() == [.value(1), .completion(.failure(.oops))], "\(name)")
    #expect(upstreamSubscription.history == [.requested(.unlimited)], "\(name)")
  }

  /// A value delivered after the upstream completed still asks it for the demand the
  /// subscriber returned (Combine keeps the upstream until the completion is delivered).
  @Test(arguments: ["receiveOn", "delay"])
  func aValueAheadOfThePendingCompletionStillAsksForMore(_ name: String) {
    let scheduler = TestScheduler()
    let upstreamSubscription = RecordingSubscription()
    let upstream = Upstream(subscription: upstreamSubscription)
    let tracking = Tracking(demandPerValue: .max(3))
    timing(name, upstream, scheduler).subscribe(tracking)
    upstream.send(1)
    upstream.send(completion: .finished)
    scheduler.run()
    #expect(tracking.events.dropFirst() == [.value(1), .completion(.finished)], "\(name)")
    #expect(upstreamSubscription.history == [.requested(.unlimited), .requested(.max(3))])
    tracking.cancel()
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

@Suite struct TimeoutCombineTests {
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

@Suite struct ThrottleCombineTests {
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

@Suite struct MeasureIntervalCombineTests {
  /// The demand a subscriber returns for an interval goes upstream as a request, as in
  /// Combine; the operator itself returns none.
  @Test func returnedDemandBecomesARequest() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, TestError>(subscription: upstreamSubscription)
    let tracking = TrackingSubscriber<SchedulerStride, TestError>(
      initialDemand: .max(1), demandPerValue: .max(2))
    upstream.measureInterval(using: TestScheduler()).subscribe(tracking)
    #expect(upstream.send(1) == .none)
    #expect(upstreamSubscription.history == [.requested(.max(1)), .requested(.max(2))])
    tracking.cancel()
  }

  @Test func readsTheClockOnlyWhileSubscribed() {
    let scheduler = RecordingScheduler()
    let upstream = Upstream(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<SchedulerStride, TestError>()
    upstream.measureInterval(using: scheduler).subscribe(tracking)
    upstream.send(1)
    tracking.cancel()
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(scheduler.calls == [.now, .now])
    #expect(tracking.values == [.zero])
  }
}

@Suite struct SubscribeOnCombineTests {
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

@Suite struct DebounceCombineTests {
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
