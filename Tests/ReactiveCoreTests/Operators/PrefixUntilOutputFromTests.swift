import ReactiveCore
import Testing

@Suite struct PrefixUntilOutputFromTests {
  @Test func prefixUntilOutputFrom() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    let tracker = TrackingSubscriber<Int, Never>()
    values.prefix(untilOutputFrom: stop).subscribe(tracker)
    values.send(1)
    stop.send()
    values.send(2)
    #expect(tracker.values == [1])
    #expect(tracker.completions == [.finished])
    // As in Combine, the fired trigger keeps the operator until it completes.
    stop.send(completion: .finished)
  }

  @Test func cancellingReleasesTheTrigger() {
    let values = PassthroughSubject<Int, Never>()
    let stop = PassthroughSubject<Void, Never>()
    var triggerCancelled = false
    let cancellable = values.prefix(
      untilOutputFrom: stop.handleEvents(receiveCancel: { triggerCancelled = true })
    )
    .sink { _ in }
    cancellable.cancel()
    #expect(triggerCancelled)
  }

  // `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` as Combine shapes them.
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
