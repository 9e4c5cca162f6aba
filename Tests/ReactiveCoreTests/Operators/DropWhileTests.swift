import ReactiveCore
import Testing

@Suite struct DropWhileTests {
  // `dropFirst(_:)` and `drop(while:)` as Combine shapes them.
  @Test func dropWhileIgnoresWhatArrivesBeforeItsSubscription() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    let asked = LockedBox(0)
    let tracking = TrackingSubscriber<Int, Never>()
    publisher.drop { _ in
      asked.withLock { $0 += 1 }
      return true
    }.subscribe(tracking)
    #expect(publisher.send(1) == .none)
    publisher.send(completion: .finished)
    #expect(asked.withLock { $0 } == 0)
    #expect(tracking.events.isEmpty)
  }

  @Test func dropWhileCancelBeforeItsSubscriptionDoesNothing() {
    let publisher = ManualPublisher<Int, Never>(subscription: nil)
    publisher.drop { _ in true }.subscribe(TrackingSubscriber<Int, Never>())
    (publisher.rawSubscriber as? any Subscription)?.cancel()
    let late = RecordingSubscription()
    publisher.send(subscription: late)
    #expect(late.history == [.requested(.unlimited)])
  }

  @Test func tryDropWhileFailsOnceAndCancelsUpstream() {
    let upstream = RecordingSubscription()
    let publisher = ManualPublisher<Int, Never>(subscription: upstream)
    let completions = LockedBox(0)
    let cancellable = publisher.tryDrop { _ in throw TestError.oops }.sink(
      receiveCompletion: { _ in completions.withLock { $0 += 1 } }, receiveValue: { _ in })
    publisher.send(1)
    publisher.send(completion: .finished)
    #expect(completions.withLock { $0 } == 1)
    #expect(upstream.history == [.requested(.unlimited), .cancelled])
    cancellable.cancel()
  }
}
