// Cross-cutting: the lifecycle every timing operator shares, checked on each at once.

import ReactiveCore
import Testing

// The timing operators as Combine shapes them, as OpenCombine 0.14.0's suite (which runs
// against Combine) pins them down: when the subscription is handed over, what a cancel
// before the subscription or after the upstream's completion does, what is kept alive
// while work waits on the scheduler, which scheduler calls each operator makes, and where
// Combine traps.

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

@Suite struct TimingLifecycleTests {
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
}
