import ReactiveCore
import Testing

/// `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` as Combine shapes them.
@Suite struct UntilOutputCombineTests {
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

  @Test func prefixFinishesWhenTheTriggerPublishesAndCancelsUpstream() {
    let upstreamSubscription = RecordingSubscription()
    let upstream = ManualPublisher<Int, Never>(subscription: upstreamSubscription)
    let trigger = PassthroughSubject<Void, Never>()
    let tracking = TrackingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(tracking)
    upstream.send(1)
    trigger.send(())
    upstream.send(2)
    #expect(tracking.values == [1])
    #expect(tracking.completions == [.finished])
    #expect(upstreamSubscription.history == [.requested(.unlimited), .cancelled])
    // As in Combine, the fired trigger keeps the operator until it completes.
    trigger.send(completion: .finished)
  }
}
