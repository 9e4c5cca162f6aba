import ReactiveCore
import Testing

@Suite struct ReplaceEmptyTests {
  // `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
  // `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
  // MARK: replaceEmpty(with:)
  @Test func replaceEmptyAsksUpstreamForEverythingAfterDownstreamsRequest() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(2))
    publisher.replaceEmpty(with: 9).subscribe(tracking)
    #expect(upstream.history == [.requested(.max(2)), .requested(.unlimited)])
    tracking.cancel()
  }

  @Test func replaceEmptyWaitsForARequestAndPublishesTheReplacementOnce() {
    let publisher = ManualPublisher<Int, Never>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: nil)
    publisher.replaceEmpty(with: 9).subscribe(tracking)
    publisher.send(completion: .finished)
    #expect(tracking.events == [.subscription("ReplaceEmpty")])
    tracking.request(.max(1))
    tracking.request(.max(1))
    #expect(tracking.events == [.subscription("ReplaceEmpty"), .value(9), .completion(.finished)])
  }

  @Test func replaceEmptyIgnoresACompletionBeforeItsSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let tracking = TrackingSubscriber<Int, Never>()
    publisher.replaceEmpty(with: 9).subscribe(tracking)
    publisher.send(completion: .finished)
    #expect(tracking.events.isEmpty)
  }
}
