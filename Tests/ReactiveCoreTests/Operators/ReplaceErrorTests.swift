import ReactiveCore
import Testing

@Suite struct ReplaceErrorTests {
  @Test func replaceErrorWaitsForDemand() {
    let subject = PassthroughSubject<Int, TestError>()
    let tracker = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.replaceError(with: -1).subscribe(tracker)
    subject.send(1)
    subject.send(completion: .failure(.oops))
    #expect(tracker.values == [1])
    tracker.request(.max(1))
    #expect(tracker.values == [1, -1])
    #expect(tracker.completions == [.finished])
  }

  // `encode`/`decode`, `output(at:)`/`output(in:)`/`prefix(_:)`, `collect(_:)`,
  // `replaceEmpty(with:)` and `replaceError(with:)` as Combine shapes them.
  // MARK: replaceError(with:)
  @Test func replaceErrorTrapsOnAValueWithoutPendingDemand() async {
    await #expect(processExitsWith: .failure) {
      let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
      publisher.replaceError(with: 0).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
      publisher.send(1)
    }
  }

  @Test func replaceErrorWaitsForDemandAndPublishesTheReplacementOnce() {
    let publisher = ManualPublisher<Int, TestError>(subscription: RecordingSubscription())
    let tracking = TrackingSubscriber<Int, Never>(initialDemand: .max(1))
    publisher.replaceError(with: 0).subscribe(tracking)
    publisher.send(1)
    publisher.send(completion: .failure(.oops))
    #expect(tracking.events == [.subscription("ReplaceError"), .value(1)])
    tracking.request(.max(1))
    tracking.request(.max(1))
    #expect(
      tracking.events == [
        .subscription("ReplaceError"), .value(1), .value(0), .completion(.finished),
      ])
  }

  @Test func replaceErrorCancelBeforeItsSubscriptionDoesNothing() {
    let publisher = ManualPublisher<Int, TestError>(subscription: nil)
    publisher.replaceError(with: 0).subscribe(TrackingSubscriber<Int, Never>(initialDemand: nil))
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [])
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    #expect(late.history == [.cancelled])
  }
}
