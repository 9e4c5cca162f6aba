import ReactiveCore
import Testing

@Suite struct DropUntilOutputFromTests {
  @Test func dropUntilOutputFrom() {
    let values = PassthroughSubject<Int, Never>()
    let start = PassthroughSubject<Void, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    values.drop(untilOutputFrom: start).subscribe(tracker)
    values.send(1)
    start.send()
    values.send(2)
    #expect(tracker.values == [2])
    // As in Combine, the fired trigger keeps the operator until it completes.
    start.send(completion: .finished)
  }

  // What LeakSanitizer reported for these in tests that never cancel was the test's own
  // cycle (a ``TrackingSubscriber`` keeps its subscription): cancelled or completed, they
  // release everything, which these hold weakly.
  @Test(arguments: [false, true])
  func dropUntilOutputFromReleasesEverythingOnCancel(triggered: Bool) {
    let upstream = PassthroughSubject<Int, Never>()
    let triggerCancelled = LockedBox(false)
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    do {
      // Once it has fired, Combine's operator lets go of the trigger's subscription
      // without cancelling it, so the trigger keeps the operator until it completes.
      let trigger = PassthroughSubject<Void, Never>()
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      upstream.drop(
        untilOutputFrom: trigger.handleEvents(receiveCancel: {
          triggerCancelled.withLock { $0 = true }
        })
      )
      .subscribe(tracker)
      if triggered { trigger.send(()) }
      upstream.send(1)
      #expect(tracker.values == (triggered ? [1] : []))
      tracker.cancel()
      // A subject keeps its subscribers until they cancel or it completes (Combine's
      // subjects and their conduits hold each other); the fired trigger's subscriber is
      // released when the trigger completes.
      trigger.send(completion: .finished)
    }
    // Before it fires, a cancel reaches the trigger; after, the trigger is done with.
    #expect(triggerCancelled.withLock { $0 } == !triggered)
    #expect(weakTracker == nil)
  }

  @Test func dropUntilOutputFromReleasesEverythingOnCompletion() {
    let upstream = PassthroughSubject<Int, Never>()
    weak var weakTracker: TrackingSubscriber<Int, Never>?
    do {
      // As in Combine, the upstream's completion does not cancel the trigger, which keeps
      // the operator until the trigger completes.
      let trigger = PassthroughSubject<Void, Never>()
      let tracker = TrackingSubscriber<Int, Never>()
      weakTracker = tracker
      upstream.drop(untilOutputFrom: trigger).subscribe(tracker)
      upstream.send(completion: .finished)
      #expect(tracker.completions == [.finished])
      tracker.cancel()
      trigger.send(completion: .finished)
    }
    #expect(weakTracker == nil)
  }

  // `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` as Combine shapes them.
  @Test func droppedValuesStillCountAgainstTheDemand() {
    let upstream = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let trigger = PassthroughSubject<Void, Never>()
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.drop(untilOutputFrom: trigger).subscribe(tracking)
    #expect(upstream.send(1) == .none)
    trigger.send(())
    #expect(upstream.send(2) == .none)
    #expect(tracking.events == [.subscription("DropUntilOutput"), .value(2)])
    trigger.send(completion: .finished)
  }

  @Test func theSubscriberGetsItsSubscriptionFirst() {
    let upstream = ManualPublisher<Int, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>()
    upstream.drop(untilOutputFrom: Empty<Void, Never>(completeImmediately: false))
      .subscribe(tracking)
    #expect(tracking.events == [.subscription("DropUntilOutput")])
  }

  @Test func theOtherFinishingFirstEndsTheSequence() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, Never>(subscription: upstreamSubscription)
    let tracking = TrackingSubscriber<Int, Never>()
    upstream.drop(untilOutputFrom: Empty<Void, Never>()).subscribe(tracking)
    #expect(tracking.completions == [.finished])
  }

  @Test func aDroppedValueNobodyAskedForTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
      let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
      upstream.drop(untilOutputFrom: PassthroughSubject<Void, Never>()).subscribe(tracking)
      upstream.send(1)
    }
  }
}
